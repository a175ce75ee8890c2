/*
 * IRQ selectors: "24", "24-31", "all", "dev:eth0", or a glob, comma
 * separated, and last "cpu:" with the rest of the text, a CPU set that
 * may hold commas. No I/O, no printing.
 */
#ifndef IRQAFF_IRQSEL_H
#define IRQAFF_IRQSEL_H

#include <stddef.h>

struct perr;

enum irqsel_kind { SEL_RANGE, SEL_ALL, SEL_DEV, SEL_GLOB, SEL_CPU };

struct irqsel {
	enum irqsel_kind	 kind;
	unsigned int		 lo, hi;
	char			*arg;	/* device, glob or CPU set */
};

int	 irqsel_parse(const char *, struct irqsel **, size_t *, struct perr *);
void	 irqsel_free(struct irqsel *, size_t);

#endif
