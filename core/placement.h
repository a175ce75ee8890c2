/*
 * The placement planner of balance: IRQs with measured loads onto the
 * CPUs each may have, moving one only for a gain the measurement can
 * tell from noise. No I/O, no printing.
 */
#ifndef IRQAFF_PLACEMENT_H
#define IRQAFF_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A CPU the plan may use: its rank in the tie order (lower first). */
struct place_cpu {
	int		 cpu;
	unsigned int	 pos;
};

/* The CPUs an IRQ may have (its node's, or every eligible one). */
struct place_set {
	const struct place_cpu *v;
	size_t		 n;
};

/* A count over the interval within the noise of none: see placement_busy(). */
#define PLACEMENT_QUIET	9

/*
 * An IRQ to place: its interrupts in the interval, the one CPU it runs
 * on when that is in its set (else -1). cpu is the plan's answer, -1
 * for a quiet IRQ, which the plan does not place. With room: the
 * vectors it takes on a CPU other than home and held, the one CPU whose
 * vectors it holds (or -1).
 */
struct place_item {
	uint64_t	 load;
	int		 home;
	size_t		 set;
	int		 cpu;
	unsigned int	 vec;
	int		 held;
};

/*
 * The problem: nbits CPUs, each with the load of what the plan does not
 * place (fixed, read) and after the plan (load, written), the sets and
 * the items. fresh says whether a plan made afresh replaced the one that
 * keeps IRQs at home. room: by CPU, the interrupt vectors it has free,
 * NULL when they have no limit.
 */
struct placement {
	unsigned int	 nbits;
	const uint64_t	*fixed;
	uint64_t	*load;
	const struct place_set *sets;
	size_t		 nsets;
	struct place_item *items;
	size_t		 n;
	bool		 fresh;
	const long	*room;
};

bool	 placement_busy(uint64_t);
bool	 placement_worth(uint64_t, uint64_t, uint64_t);
void	 placement_plan(struct placement *);
void	 placement_round_robin(const long *, size_t, const int *, size_t,
	    int *);

#endif
