/*
 * What restore.c and check.c share: the run over one snapshot file,
 * loaded and resolved the same way for both.
 */
#ifndef IRQAFF_RESTORE_H
#define IRQAFF_RESTORE_H

#include <stdbool.h>

#include "cmd/cli.h"
#include "core/apply.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/snapshot.h"

enum { OPT_BY_NUMBER = 256, OPT_ONLY };

/* What restore and check hold: the machine, the snapshot, the IRQs. */
struct run {
	struct machine	 m;
	struct snap	 s;
	struct mirqs	 mi;
	const char	*only_arg;	/* --only */
	struct irqs	 only;
	int		 flags;
	bool		 quiet;
	bool		 test;		/* -t */
	struct tally	 tl;
	struct tally	 qtl;		/* the queues' */
};

bool	restore_has_queues(const struct snap *);
void	restore_problems_json(const struct snap *);
void	restore_problems_say(const struct snap *, bool);
void	restore_left_note(const struct snap *);
struct cpuset	*restore_queue_kept(const struct run *, const struct entry *);
void	restore_run_free(struct run *);
int	restore_run_load(int, char *[], const struct command *,
	    struct run *);

#endif
