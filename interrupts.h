/*
 * The rows of /proc/interrupts (kernel/irq/proc.c, show_interrupts()).
 * No I/O, no printing.
 */
#ifndef IRQAFF_INTERRUPTS_H
#define IRQAFF_INTERRUPTS_H

#include <stddef.h>

/* One numeric row; the pointers point into the line. */
struct irqrow {
	unsigned int		 irq;
	unsigned int		 ncounts;
	unsigned long long	 total;
	const char		*chip;
	size_t			 chiplen;
	const char		*hwirq;
	size_t			 hwirqlen;
	const char		*names;	/* action names, ", "-joined */
	size_t			 nameslen;
};

int	 interrupts_header(const char *, unsigned int *);
int	 interrupts_row(const char *, unsigned int, struct irqrow *,
	    unsigned long long *);

#endif
