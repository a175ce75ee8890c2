/*
 * balance's plan from two reads of /proc/interrupts: the IRQs it may
 * move, their loads and homes, each rx/tx pair placed as one, the
 * planner's answer (placement.c), which IRQs that writes and why, and
 * when it writes none, why not.
 */
#ifndef IRQAFF_BALPLAN_H
#define IRQAFF_BALPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/load.h"
#include "core/netqueue.h"
#include "core/placement.h"

struct cpuset;
struct irqs;
struct machine;

/*
 * Below this many interrupts on the busiest CPU in the interval, the
 * busiest over the mean is mostly noise: three standard deviations of a
 * count of 900 are a tenth of it.
 */
#define BALPLAN_FIGURE	900

/* The CPUs an IRQ may get: the eligible ones of a node, or all of them. */
struct allowed {
	int		 node;		/* -1: every eligible CPU */
	struct cpuset	*set;
	struct place_cpu *cpu;
	size_t		 n;
};

/*
 * Why an IRQ's requested CPUs are written: never without a reason.
 * BAL_KEEP: not written. BAL_MOVE: moved for a gain beyond the noise,
 * or off CPUs it runs on but may not keep. BAL_PAIR: joins its rx/tx
 * partner's CPU.
 */
enum balwhy { BAL_KEEP, BAL_MOVE, BAL_PAIR };

/* A selected IRQ balance may place; old is owned, want borrowed. */
struct balitem {
	unsigned int	 irq;
	uint64_t	 count;		/* its interrupts in the interval */
	bool		 rated;		/* a cell of it was in both reads */
	int		 home;		/* the one CPU it runs on, or -1 */
	size_t		 allow;
	struct qrole	 role;
	long		 lead, tail;	/* its rx partner's item, its tx's; -1 */
	int		 cpu;		/* planned, or -1: kept, quiet */
	enum balwhy	 why;
	struct cpuset	*old;		/* its requested CPUs */
	const struct cpuset *want;	/* old, or cpu alone */
};

/* When nothing is written: every IRQ quiet, the busiest CPU bound by one. */
enum balstill { BAL_MOVES, BAL_IDLE, BAL_EVEN, BAL_ONE };

struct balplan {
	struct machine	*m;
	const struct cpuset *elig;
	struct cpuset	*left;		/* isolated, left out of elig */
	char		*why;		/* what isolates them */
	struct cpuset	*isolated;	/* isolated, chosen: in elig */
	int		*pos;		/* by CPU: rank in tie order, or -1 */
	struct allowed	*allow;
	size_t		 nallow;
	struct balitem	*it;		/* by IRQ */
	size_t		 n, cap;
	struct cells	 cells;
	uint64_t	*before, *fixed, *after;	/* by CPU */
	struct cpuset	**alone;	/* by CPU: a set of it, when planned */
	unsigned int	*freed;		/* rows gone during the interval */
	size_t		 nfreed;
	size_t		 nwrite;
	bool		 fresh;
	enum balstill	 still;
	unsigned int	 one_irq;	/* BAL_ONE: the IRQ, its CPU, count */
	int		 one_cpu;
	uint64_t	 one_count;
	bool		 one_item;	/* one_irq is one balance may move */
};

void	 balplan_init(struct balplan *, struct machine *, struct cpuset *,
	    const struct cpuset *, bool);
void	 balplan_add(struct balplan *, unsigned int, struct qrole,
	    const struct cpuset *);
void	 balplan_follow(struct balplan *, const struct irqs *);
int	 balplan_read(struct balplan *, int, const char *);
void	 balplan_make(struct balplan *);
double	 balplan_imbalance(const struct balplan *, const uint64_t *);
void	 balplan_free(struct balplan *);

#endif
