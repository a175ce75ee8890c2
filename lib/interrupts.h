/*
 * The rows of /proc/interrupts (kernel/irq/proc.c, show_interrupts()).
 * No I/O, no printing.
 */
#ifndef IRQAFF_INTERRUPTS_H
#define IRQAFF_INTERRUPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/kchar.h"

/*
 * One numeric row; the pointers point into the line. chip and names are
 * never NULL; hwirq, type and flow are NULL when the row has none.
 */
struct irqrow {
	unsigned int		 irq;
	unsigned int		 ncounts;
	unsigned long long	 total;	/* 0 without ROW_TOTAL */
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
	/* the counts in the kernel's widths: ncounts fields, or NULL */
	const char		*fields;
	/* with ROW_NAMED, a row labelled by a word (NMI, LOC, IPI0), or NULL */
	const char		*label;
	size_t			 labellen;
};

/* interrupts_parse() flags */
enum {
	ROW_TOTAL	= 1,	/* sum the counts into total */
	ROW_BYTEWISE	= 2,	/* read the counts a byte at a time (tests) */
	ROW_FIELDS	= 4,	/* counts only for a row without fields */
	ROW_NAMED	= 8,	/* also rows labelled by a word: NMI:, IPI0: */
};

int	 interrupts_header(const char *, unsigned int *);
int	 interrupts_columns(const char *, unsigned int, unsigned int *,
	    unsigned int *);
int	 interrupts_irq(const char *, unsigned int *);
/* -ERANGE: a count wider than the kernel's unsigned int (irq is set) */
int	 interrupts_parse(const char *, size_t, unsigned int, int,
	    struct irqrow *, unsigned long long *);

#endif
