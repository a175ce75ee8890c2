/*
 * What isolate.c, isolate_check.c and isolate_report.c share: the plan
 * of an isolate run, one entry an IRQ, and the helpers they ask.
 */
#ifndef IRQAFF_ISOLATE_H
#define IRQAFF_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/result.h"
#include "core/apply.h"
#include "core/findings.h"
#include "core/isolation.h"
#include "core/machine.h"

/* What the run does with an IRQ. */
enum kind {
	K_OFF,		/* not on the CPUs: left alone */
	K_MOVE,		/* movable, on the CPUs */
	K_MANAGED,	/* the kernel's; on the CPUs when on is set */
	K_FAILED,	/* its affinity could not be read */
	K_UNMOVABLE,	/* user space cannot move it; as K_MANAGED */
	K_PENDING,	/* --check: movable, requested off, effective on */
	K_KEPT,		/* --check: not movable, all its CPUs isolcpus=managed_irq */
};

/* One IRQ of the plan; the sets are owned. */
struct entry {
	unsigned int		 irq;
	enum kind		 kind;
	struct cpuset		*from, *to;	/* K_MOVE */
	struct cpuset		*on;		/* where it runs, if on the CPUs */
	bool			 guessed;	/* on is requested, not effective */
	bool			 kept;		/* as K_KEPT, while isolating */
	char			*was;		/* K_OFF with -v */
	enum apply_result	 result;
};

/* A receive queue whose RPS names the CPUs: rps_cpus from, then to. */
struct rpsq {
	struct qname		 q;
	char			*dev;		/* owned; q.dev points here */
	char			*rel;		/* its mask file */
	struct cpuset		*from, *to;
};

struct isolate {
	struct machine		 m;
	struct cpuset		*cpus;		/* to keep free */
	bool			 check, accept, json, quiet, dryrun, undo, again;
	int			 flags;
	struct entry		*e;
	size_t			 n;
	struct cpuset		*dfrom, *dto;	/* the default affinity */
	struct rpsq		*rq;		/* RPS on the CPUs */
	size_t			 nrq;
	char			**xps_notes;	/* XPS on them, left: said */
	size_t			 nxps_notes;
	struct tally		 tl, tq;	/* the IRQs', the queues' */
	struct findings		 notes;
	struct isolation	 iso;
};

enum movable	 isolate_movability(const struct entry *);
void		 isolate_print_name(unsigned int);
void		 isolate_json_set(const char *, const char *,
		    const struct cpuset *);
void		 isolate_json_irqs(const struct isolate *, const char *,
		    bool (*)(const struct entry *));
void		 isolate_check_irq(struct isolate *, struct entry *);
int		 isolate_check_run(struct isolate *);
bool		 isolate_managed_here(const struct entry *);
bool		 isolate_unmovable_here(const struct entry *);
struct cpuset	*isolate_where(const struct isolate *,
		    bool (*)(const struct entry *));
void		 isolate_print_result(struct isolate *);
void		 isolate_warn_notes(const struct isolate *);

#endif
