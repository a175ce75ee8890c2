/*
 * Transmit queues whose XPS follows their IRQ: found for a plan of IRQ
 * changes, checked before any write, applied after their IRQ, and listed
 * in a JSON result; without --xps, those a plan leaves apart.
 */
#ifndef IRQAFF_XPSFOLLOW_H
#define IRQAFF_XPSFOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/apply.h"

struct cpuset;
struct machine;

/* A tx queue whose XPS follows an IRQ of the plan; all owned. */
struct xq {
	char			*dev, *queue, *label, *rel;
	size_t			 ci;		/* its IRQ's change */
	struct cpuset		*old;
	bool			 tried;
	enum apply_result	 r;
};

/* An interface whose XPS a plan without --xps leaves apart; owned. */
struct xpsstale {
	char	*dev;
	size_t	 n;		/* its tx queues apart from their IRQ */
};

int	 xpsfollow_plan(struct machine *, const char *,
	    const struct change *, size_t, struct xq **, size_t *);
void	 xpsfollow_apply(struct machine *, const struct change *,
	    const enum apply_result *, struct xq *, size_t, int,
	    struct tally *);
void	 xpsfollow_write(struct machine *, const struct change *, size_t,
	    struct xq *, size_t, int, struct tally *, struct tally *);
void	 xpsfollow_json(FILE *, const struct change *, const struct xq *,
    size_t);
void	 xpsfollow_free(struct xq *, size_t);
void	 xpsfollow_stale(struct machine *, const struct change *, size_t,
	    struct xpsstale **, size_t *);
void	 xpsfollow_stale_free(struct xpsstale *, size_t);

#endif
