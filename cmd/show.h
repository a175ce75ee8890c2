/*
 * What show.c (options, order, printing) and show_rows.c (the cells
 * of each row) share: the columns and the run's state.
 */
#ifndef IRQAFF_SHOW_H
#define IRQAFF_SHOW_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cli.h"
#include "cmd/columns.h"
#include "core/counts.h"
#include "core/device.h"
#include "core/irqthread.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/vectors.h"

enum col {
	C_IRQ, C_AFFINITY, C_EFFECTIVE, C_NODE, C_TOTAL, C_NAME,
	C_HINT, C_ONLINE, C_CHIP, C_HWIRQ, C_TYPE, C_FLOW, C_DEVICE,
	C_MANAGED, C_MOVABLE, C_RATE, C_PENDING, C_STUCK, C_THREAD, C_THREAD_CPUS,
	NCOLS
};

/* Set cells hold lists, the shortest form; -m converts them as printed. */
struct row {
	unsigned int	 irq;
	bool		 matrix;	/* wants what only /proc/interrupts has */
	char		*cell[NCOLS];
};

struct show {
	struct machine	 m;
	struct table	 tab;		/* -o, -s, -m, -J, -n */
	bool		 want[NCOLS];
	bool		 all, quiet;
	struct irqs	 only;		/* with an IRQ selector */
	bool		 filter;
	int		 info;		/* INFO_* of the columns asked for */
	struct cpuset	*scratch;
	struct row	*rows;
	size_t		 nrows;
	struct devmap	 devices;	/* for DEVICE */
	struct irqthreads threads;	/* for THREAD, THREAD-CPUS */
	struct vectors	 vec;		/* for STUCK, read at need */
	struct sampling	 sm;		/* -i, -c */
	struct counts_kept was, now;	/* -i: the pass before, and this */
	bool		 keep;		/* a pass to come wants this one's */
};

int	show_add_rowless(struct show *);
int	show_read_interrupts(struct show *, unsigned int);
int	show_read_selected(struct show *);

#endif
