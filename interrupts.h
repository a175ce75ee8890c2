/*
 * The rows of /proc/interrupts (kernel/irq/proc.c, show_interrupts()).
 * No I/O, no printing.
 */
#ifndef IRQAFF_INTERRUPTS_H
#define IRQAFF_INTERRUPTS_H

#include <stddef.h>

/*
 * One numeric row; the pointers point into the line. chip and names are
 * never NULL; hwirq, type and flow are NULL when the row has none.
 */
struct irqrow {
	unsigned int		 irq;
	unsigned int		 ncounts;
	unsigned long long	 total;
	const char		*chip;	/* chip name or irq_print_chip() */
	size_t			 chiplen;
	const char		*hwirq;	/* digits only */
	size_t			 hwirqlen;
	const char		*type;	/* "Level" or "Edge" */
	size_t			 typelen;
	const char		*flow;	/* desc->name, without its '-' */
	size_t			 flowlen;
	const char		*names;	/* action names, ", "-joined */
	size_t			 nameslen;
};

int	 interrupts_header(const char *, unsigned int *);
int	 interrupts_row(const char *, unsigned int, struct irqrow *,
	    unsigned long long *);

#endif
