/*
 * What cpus.c (options, cells, printing) and cpus_counts.c (the
 * counting) share: the columns and the run's state.
 */
#ifndef IRQAFF_CPUS_H
#define IRQAFF_CPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/cli.h"
#include "cmd/columns.h"
#include "core/counts.h"
#include "core/load.h"
#include "core/machine.h"
#include "core/select.h"
#include "lib/fields.h"

#define NTOP	3
#define NSYS	64	/* names of rows without an IRQ followed */

enum col { C_CPU, C_NODE, C_STATE, C_IRQS, C_TOTAL, C_RATE, C_TOP, C_SYSTEM,
	NCOLS };

/*
 * An IRQ among a CPU's busiest: its count, or its count in a sample, as
 * a key that orders as the count does (fields_key(): no number
 * read for each of millions of counts); key 0 is no IRQ.
 */
struct top {
	uint64_t	 key;
	unsigned int	 irq;
};

struct cpurow {
	bool			 counted;	/* a column of proc/interrupts */
	bool			 rated;		/* and one in the read before */
	unsigned long long	 delta;
	unsigned int		 irqs;
};

/* The action names of a row of the first pass. */
struct named {
	unsigned int	 irq;
	size_t		 seq;
	char		*name;
};

struct cpus {
	struct machine	 m;
	struct cpuset	*want, *isolated, *nohz;
	struct cpurow	*rows;		/* by CPU number */
	/* what each row of a pass touches, apart: it stays in the cache */
	unsigned long long *total;	/* by CPU */
	struct top	(*top)[NTOP];	/* by CPU */
	/* during a pass, by column: no CPU lookup for each count */
	struct colsums	 colsums;
	struct top	(*coltop)[NTOP];
	bool		 wanttop;	/* TOP printed, and not by rate */
	struct named	*names;		/* by IRQ */
	const char	*irqarg;	/* --irqs */
	struct irqs	 only;		/* the rows counted */
	size_t		 nnames;
	struct cells	 cells;		/* -i: where each IRQ runs */
	struct counts_kept now, was;	/* -i: this read and the one before */
	bool		 keep;		/* a read to come wants this one's */
	long long	 last;		/* the IRQ of the row before, or -1 */
	struct table	 tab;		/* -o, -n, -J */
	bool		 plus;		/* -o +LIST: the default, and more */
	/* rows without an IRQ (NMI:, LOC:, IPI0:): by CPU * NSYS + name */
	char		*sysname[NSYS];
	size_t		 nsys, nsyswas;	/* names now, and in the read before */
	unsigned long long *sys, *syswas;
	struct sampling	 sm;
};

int	cpus_count_irqs(struct cpus *);
const char	*cpus_name_of(const struct cpus *, unsigned int);
int	cpus_read_counts(struct cpus *, bool);
void	cpus_top_add(struct top *, uint64_t, unsigned int);

#endif
