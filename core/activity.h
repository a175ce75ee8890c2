/*
 * Interrupts per IRQ and per CPU between two reads of /proc/interrupts:
 * what the live view (top) ranks and draws.
 */
#ifndef IRQAFF_ACTIVITY_H
#define IRQAFF_ACTIVITY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/counts.h"

/* A numbered row of the last read. */
struct act_irq {
	unsigned int		 irq;
	char			*name;		/* its action names; owned */
	unsigned long long	 total;		/* its counts summed */
	unsigned long long	 delta;		/* since the read before */
	bool			 rated;		/* the read before had it */
};

/* A CPU in the last read. */
struct act_cpu {
	bool			 counted;	/* a column of the last read */
	bool			 rated;		/* and of the read before */
	unsigned long long	 irqs;		/* numbered rows, since then */
	unsigned long long	 system;	/* NMI:, LOC:, IPI0: ... */
};

#define ACT_NSYS	64	/* names of rows without an IRQ followed */

struct activity {
	unsigned int		 nbits;
	struct act_irq		*irq;		/* by IRQ, ascending */
	size_t			 nirq, cap;
	struct act_cpu		*cpu;		/* by CPU number */
	unsigned int		 reads;
	long long		 wide;		/* a row left out (counts > 32 bits): its IRQ, or -1 */
	/* the counts of the last read, kept for the next */
	struct counts_kept	 was, now;
	struct counts_kept	 syswas, sysnow;
	char			*sysname[ACT_NSYS];
	size_t			 nsys;
};

void	activity_init(struct activity *, unsigned int);
int	activity_read(struct activity *, const char *);
void	activity_free(struct activity *);

#endif
