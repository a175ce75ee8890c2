/*
 * The placement planner of balance. Busy IRQs stay where they run and
 * are moved one at a time, off the busiest CPU first, onto the
 * least-loaded CPU of their set, while a move lowers the busier of the
 * two CPUs by more than the measurement's noise (placement_worth());
 * a plan made afresh, heaviest first (longest processing time), replaces
 * that one only when its busiest CPU is lower by more than the noise.
 * Quiet IRQs are not placed. A CPU without the interrupt vectors an IRQ
 * takes gets no more (room). spread's plan, by count alone, is here too.
 */
#include <stdlib.h>
#include <string.h>

#include "core/placement.h"
#include "core/xalloc.h"

#define QUIET	PLACEMENT_QUIET

/*
 * Whether a count over the interval is beyond three standard deviations
 * of none (3 * sqrt(9) = 9): a CPU that counted no more is as good as
 * one that counted nothing, and an IRQ no more is quiet.
 */
bool
placement_busy(uint64_t count)
{
	return count > QUIET;
}

static bool
busy(const struct place_item *it)
{
	return placement_busy(it->load);
}

/*
 * One plan being made: each CPU's load, IRQs planned and vectors left
 * (NULL: no limit), and how many IRQs went onto a CPU without room.
 */
struct state {
	uint64_t	*load;
	uint32_t	*nirq;
	long		*room;
	size_t		 over;
	int		*cpu;		/* by item */
};

/*
 * Whether lowering the busier CPU's count a by gain, the other's being
 * b, is beyond the measurement's noise: counts are taken as Poisson, so
 * the gain must exceed three standard deviations, 3 * sqrt(a + b); and
 * rates drift between measurements, so unless the other CPU counted
 * nothing at all the gain must also exceed a tenth of a.
 */
bool
placement_worth(uint64_t gain, uint64_t a, uint64_t b)
{
	if (gain == 0)
		return false;
	if (b > 0 && 10 * gain <= a)
		return false;
	/* a and b stay below 2^60: a count per CPU is below 2^32 */
	if (gain > UINT32_MAX)
		return true;
	return gain * gain > 9 * (a + b);
}

/* Whether x is a better CPU than y: less load, fewer IRQs, tie order. */
static bool
better(const struct state *st, const struct place_cpu *x,
    const struct place_cpu *y)
{
	if (st->load[x->cpu] != st->load[y->cpu])
		return st->load[x->cpu] < st->load[y->cpu];
	if (st->nirq[x->cpu] != st->nirq[y->cpu])
		return st->nirq[x->cpu] < st->nirq[y->cpu];
	return x->pos < y->pos;
}

/*
 * The vectors item i takes on cpu: none at its home (it is not written)
 * or where it holds them (the kernel keeps them). A vector a move leaves
 * is not counted free: the moves are written one by one, and one onto a
 * CPU before the one off it would find none.
 */
static unsigned int
cost(const struct placement *p, size_t i, int cpu)
{
	const struct place_item *it = &p->items[i];

	if (p->room == NULL || cpu == it->home || cpu == it->held)
		return 0;
	return it->vec;
}

/* Whether cpu has the vectors item i takes there; i < 0: one vector. */
static bool
fits(const struct placement *p, const struct state *st, long i, int cpu)
{
	if (st->room == NULL)
		return true;
	if (i < 0)
		return st->room[cpu] > 0;
	return st->room[cpu] >= (long)cost(p, i, cpu);
}

/*
 * The best CPU of s that has room for item i (i < 0: for one vector);
 * when none has, the best of all, and *over is set: the layout is
 * refused before the first write (apply_check()).
 */
static int
pick(const struct state *st, const struct placement *p,
    const struct place_set *s, long i, bool *over)
{
	size_t k, any = 0;
	long best = -1;

	for (k = 0; k < s->n; k++) {
		if (k > 0 && better(st, &s->v[k], &s->v[any]))
			any = k;
		if (fits(p, st, i, s->v[k].cpu) && (best < 0 ||
		    better(st, &s->v[k], &s->v[best])))
			best = k;
	}
	if (over != NULL)
		*over = best < 0;
	return s->v[best >= 0 ? (size_t)best : any].cpu;
}

static void
put(struct state *st, const struct placement *p, size_t i, int cpu)
{
	st->cpu[i] = cpu;
	st->load[cpu] += p->items[i].load;
	st->nirq[cpu]++;
	if (st->room != NULL)
		st->room[cpu] -= cost(p, i, cpu);
}

static void
take(struct state *st, const struct placement *p, size_t i)
{
	int cpu = st->cpu[i];

	st->load[cpu] -= p->items[i].load;
	st->nirq[cpu]--;
	if (st->room != NULL)
		st->room[cpu] += cost(p, i, cpu);
}

/*
 * The best single move: off the busiest CPU of the IRQ's set (a move
 * off another would only even out CPUs below it, which noise undoes at
 * the next run), or onto a quiet CPU (QUIET), with room for it; the one
 * that lowers its CPU most, of those the lightest IRQ. Returns the item,
 * or -1.
 */
static long
best_move(const struct placement *p, const struct state *st, int *dest,
    const uint64_t *top)
{
	const struct place_item *it;
	uint64_t a, b, after, gain, best_a = 0, best_gain = 0;
	size_t i;
	long best = -1;
	int to;

	for (i = 0; i < p->n; i++) {
		it = &p->items[i];
		if (!busy(it))
			continue;
		to = dest[it->set];
		a = st->load[st->cpu[i]];
		b = st->load[to];
		if (to == st->cpu[i] || b + it->load >= a ||
		    (a < top[it->set] && b > QUIET) || !fits(p, st, i, to))
			continue;
		after = a - it->load > b + it->load ? a - it->load :
		    b + it->load;
		gain = a - after;
		if (!placement_worth(gain, a, b))
			continue;
		if (best < 0 || a > best_a || (a == best_a &&
		    (gain > best_gain || (gain == best_gain &&
		    it->load < p->items[best].load)))) {
			best = i;
			best_a = a;
			best_gain = gain;
		}
	}
	return best;
}

/*
 * Moves while one is worth it. Each move lowers the sum of the squared
 * loads, so this ends.
 */
static void
improve(const struct placement *p, struct state *st)
{
	int *dest = xcalloc(p->nsets + 1, sizeof(*dest));
	uint64_t *top = xcalloc(p->nsets + 1, sizeof(*top));
	size_t s, k;
	long i;

	for (;;) {
		for (s = 0; s < p->nsets; s++) {
			dest[s] = pick(st, p, &p->sets[s], -1, NULL);
			for (k = 0, top[s] = 0; k < p->sets[s].n; k++)
				if (st->load[p->sets[s].v[k].cpu] > top[s])
					top[s] = st->load[p->sets[s].v[k].cpu];
		}
		if ((i = best_move(p, st, dest, top)) < 0)
			break;
		take(st, p, i);
		put(st, p, i, dest[p->items[i].set]);
	}
	free(top);
	free(dest);
}

static int
cmpload(const void *a, const void *b, void *arg)
{
	const struct placement *p = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (p->items[x].load != p->items[y].load)
		return p->items[x].load > p->items[y].load ? -1 : 1;
	return (x > y) - (x < y);
}

/* The busiest CPU of any set. */
static uint64_t
busiest(const struct placement *p, const struct state *st)
{
	uint64_t max = 0;
	size_t s, k;

	for (s = 0; s < p->nsets; s++)
		for (k = 0; k < p->sets[s].n; k++)
			if (st->load[p->sets[s].v[k].cpu] > max)
				max = st->load[p->sets[s].v[k].cpu];
	return max;
}

/*
 * The busy IRQs: with keep, at home where they have one, the rest
 * heaviest first onto the best CPU, then improved move by move;
 * without, all of them heaviest first. Returns the busiest CPU's load.
 */
static uint64_t
plan_busy(const struct placement *p, struct state *st, const size_t *order,
    size_t nbusy, bool keep)
{
	size_t k, i;
	bool over;

	memcpy(st->load, p->fixed, p->nbits * sizeof(*st->load));
	memset(st->nirq, 0, p->nbits * sizeof(*st->nirq));
	if (st->room != NULL)
		memcpy(st->room, p->room, p->nbits * sizeof(*st->room));
	st->over = 0;
	for (i = 0; i < p->n; i++) {
		st->cpu[i] = -1;
		if (keep && busy(&p->items[i]) && p->items[i].home >= 0)
			put(st, p, i, p->items[i].home);
	}
	for (k = 0; k < nbusy; k++) {
		i = order[k];
		if (st->cpu[i] >= 0)
			continue;
		put(st, p, i, pick(st, p, &p->sets[p->items[i].set], i,
		    &over));
		st->over += over;
	}
	if (keep)
		improve(p, st);
	return busiest(p, st);
}

static void
state_init(struct state *st, const struct placement *p)
{
	st->load = xcalloc(p->nbits, sizeof(*st->load));
	st->nirq = xcalloc(p->nbits, sizeof(*st->nirq));
	st->cpu = xcalloc(p->n + 1, sizeof(*st->cpu));
	st->room = p->room != NULL ? xcalloc(p->nbits, sizeof(*st->room)) :
	    NULL;
}

static void
state_free(struct state *st)
{
	free(st->load);
	free(st->nirq);
	free(st->cpu);
	free(st->room);
}

void
placement_plan(struct placement *p)
{
	struct state keep, fresh, *st;
	size_t *order, nbusy = 0, i;
	uint64_t mkeep, mfresh;

	order = xcalloc(p->n + 1, sizeof(*order));
	for (i = 0; i < p->n; i++)
		if (busy(&p->items[i]))
			order[nbusy++] = i;
	qsort_r(order, nbusy, sizeof(*order), cmpload, p);
	state_init(&keep, p);
	state_init(&fresh, p);
	mkeep = plan_busy(p, &keep, order, nbusy, true);
	mfresh = plan_busy(p, &fresh, order, nbusy, false);
	/* not at the cost of an IRQ more without room */
	p->fresh = mfresh < mkeep && placement_worth(mkeep - mfresh, mkeep,
	    mfresh) && fresh.over <= keep.over;
	st = p->fresh ? &fresh : &keep;
	for (i = 0; i < p->n; i++)
		p->items[i].cpu = st->cpu[i];
	memcpy(p->load, st->load, p->nbits * sizeof(*p->load));
	state_free(&keep);
	state_free(&fresh);
	free(order);
}

/*
 * spread's plan: each IRQ (pair[i] < -1: left alone, cpu[i] -1) the next
 * CPU of order, round robin, but an IRQ of a queue pair (pair[i] >= 0)
 * its partner's CPU, as virtnet_set_affinity() keeps the two together.
 */
void
placement_round_robin(const long *pair, size_t n, const int *order,
    size_t norder, int *cpu)
{
	size_t i, j, next = 0;

	for (i = 0; i < n; i++) {
		cpu[i] = -1;
		if (pair[i] < -1)
			continue;
		for (j = 0; pair[i] >= 0 && j < i; j++)
			if (pair[j] == pair[i])
				break;
		if (pair[i] >= 0 && j < i)
			cpu[i] = cpu[j];
		else
			cpu[i] = order[next++ % norder];
	}
}
