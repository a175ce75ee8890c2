/*
 * IRQ selectors: "24", "24-31", "all", "dev:eth0", or a glob, comma
 * separated. No I/O, no printing.
 */
#ifndef IRQAFF_IRQSEL_H
#define IRQAFF_IRQSEL_H

#include <stddef.h>

#include "text.h"

enum irqsel_kind { SEL_RANGE, SEL_ALL, SEL_DEV, SEL_GLOB };

struct irqsel {
	enum irqsel_kind	 kind;
	unsigned int		 lo, hi;
	char			*arg;	/* SEL_DEV name, SEL_GLOB pattern */
};

int	 irqsel_parse(const char *, struct irqsel **, size_t *, struct perr *);
void	 irqsel_free(struct irqsel *, size_t);

#endif
