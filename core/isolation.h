/*
 * What besides the IRQs themselves decides whether a set of CPUs stays
 * free of interrupts: kernel-managed IRQs, irqbalance and the kernel
 * command line.
 */
#ifndef IRQAFF_ISOLATION_H
#define IRQAFF_ISOLATION_H

#include <stdbool.h>

#include "core/irqbalance.h"
#include "lib/bootargs.h"

struct cpuset;
struct findings;
struct machine;

/* The CPUs to keep free and what else bears on them; owned but m. */
struct isolation {
	struct machine		*m;
	const struct cpuset	*cpus;
	struct cpuset		*house;		/* online, not cpus */
	char			*list;		/* cpus as a list */
	struct irqbalance	 ib;
	struct bootargs		 boot;
};

void	 isolation_load(struct isolation *, struct machine *,
	    const struct cpuset *);
void	 isolation_notes(struct isolation *, bool, struct findings *);
bool	 isolation_irqbalance_ok(const struct isolation *);
void	 isolation_free(struct isolation *);

#endif
