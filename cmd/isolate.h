/*
 * What isolate.c, isolate_check.c and isolate_report.c share: the run's
 * mode and options around its plan (core/isolplan.h), and the printers.
 */
#ifndef IRQAFF_ISOLATE_H
#define IRQAFF_ISOLATE_H

#include <stdbool.h>

#include "core/isolplan.h"

/* One of --check, --again, --undo, or none, as git's OPT_CMDMODE. */
enum isomode {
	MODE_ISOLATE,
	MODE_CHECK,
	MODE_AGAIN,
	MODE_UNDO,
};

struct isolate {
	struct isoplan		 p;
	enum isomode		 mode;
	bool			 accept, json, quiet, dryrun;
};

void	 isolate_print_name(unsigned int);
void	 isolate_json_set(const char *, const char *, const struct cpuset *);
void	 isolate_json_irqs(const struct isoplan *, const char *,
	    bool (*)(const struct isoirq *));
int	 isolate_check_run(struct isolate *);
void	 isolate_print_result(struct isoplan *);
void	 isolate_warn_notes(const struct isoplan *);

#endif
