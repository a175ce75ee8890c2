/*
 * Which device owns an IRQ: a map of every IRQ's devices for show, and
 * the one device that owns all of a selection's IRQs for spread.
 */
#ifndef IRQAFF_DEVICE_H
#define IRQAFF_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

struct irqs;

/* A device that has an IRQ; seq orders the finds, class says who wins. */
struct devirq {
	unsigned int	 irq;
	size_t		 seq;
	bool		 named;		/* an interface or NVMe name, not PCI */
	char		*name;
};

/* Every device that has an IRQ, sorted by IRQ; all owned. */
struct devmap {
	struct devirq	*v;
	size_t		 n;
};

void		 device_map(struct devmap *);
const char	*device_of(const struct devmap *, unsigned int);
void		 device_map_free(struct devmap *);
char		*device_owner(const struct irqs *, char **);

#endif
