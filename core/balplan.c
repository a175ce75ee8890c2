/*
 * balance's plan from two reads of /proc/interrupts: loads, homes and
 * pairs in, the IRQs to write and why out, or why there are none.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/balplan.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/topology.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "parse.h"

/*
 * The isolated CPUs of elig (isolation_cpus()) leave it, as
 * isolation_leave_out() has them, unless include, or numbered names
 * them; those chosen are kept in bp->isolated, for the plan line.
 */
static void
leave_isolated(struct balplan *bp, struct cpuset *elig,
    const struct cpuset *numbered, bool include)
{
	struct isolated iso;

	isolation_cpus(&iso, bp->m);
	bp->isolated = xcpudup(elig);
	cpuset_and(bp->isolated, iso.all);
	bp->left = xcpudup(bp->isolated);
	if (numbered != NULL)
		cpuset_andnot(bp->left, numbered);
	if (include)
		cpuset_zero(bp->left);
	cpuset_andnot(elig, bp->left);
	cpuset_andnot(bp->isolated, bp->left);
	bp->why = isolation_why(&iso, bp->left);
	isolation_cpus_free(&iso);
}

/*
 * The CPUs of the plan: elig, less its isolated CPUs (leave_isolated()),
 * each with its rank: first threads of cores first.
 */
void
balplan_init(struct balplan *bp, struct machine *m, struct cpuset *elig,
    const struct cpuset *numbered, bool include)
{
	struct cpuslot *order;
	size_t n, i;

	memset(bp, 0, sizeof(*bp));
	bp->m = m;
	bp->elig = elig;
	leave_isolated(bp, elig, numbered, include);
	bp->pos = xcalloc(m->nbits, sizeof(*bp->pos));
	for (i = 0; i < m->nbits; i++)
		bp->pos[i] = -1;
	order = topology_order(m, elig, false, &n);
	for (i = 0; i < n; i++)
		bp->pos[order[i].cpu] = i;
	free(order);
}

/* The allowed set of an IRQ's node: its eligible CPUs, else all of them. */
static size_t
allowed_of(struct balplan *bp, unsigned int irq)
{
	const struct cpuset *cpus;
	struct allowed *a;
	size_t i;
	int node = machine_irq_node(irq), cpu;

	if (node >= 0 && ((cpus = machine_node(bp->m, node)) == NULL ||
	    !cpuset_intersects(cpus, bp->elig)))
		node = -1;
	for (i = 0; i < bp->nallow; i++)
		if (bp->allow[i].node == node)
			return i;
	bp->allow = xreallocarray(bp->allow, bp->nallow + 1,
	    sizeof(*bp->allow));
	a = &bp->allow[bp->nallow];
	a->node = node;
	a->set = xcpudup(bp->elig);
	if (node >= 0)
		cpuset_and(a->set, machine_node(bp->m, node));
	a->cpu = xcalloc(cpuset_count(a->set), sizeof(*a->cpu));
	a->n = 0;
	for (cpu = cpuset_first(a->set); cpu >= 0;
	    cpu = cpuset_next(a->set, cpu + 1))
		a->cpu[a->n++] = (struct place_cpu){ cpu, bp->pos[cpu] };
	return bp->nallow++;
}

/* An IRQ the plan may move, with the CPUs it requests; added by number. */
void
balplan_add(struct balplan *bp, unsigned int irq, struct qrole role,
    const struct cpuset *requested)
{
	struct balitem *it;

	if (bp->n == bp->cap) {
		bp->cap = bp->cap ? 2 * bp->cap : 64;
		bp->it = xreallocarray(bp->it, bp->cap, sizeof(*bp->it));
	}
	it = &bp->it[bp->n++];
	memset(it, 0, sizeof(*it));
	it->irq = irq;
	it->role = role;
	it->old = xcpudup(requested);
	it->want = it->old;
	it->allow = allowed_of(bp, irq);
	it->home = cpuset_count(requested) == 1 ? cpuset_first(requested) : -1;
	it->lead = it->tail = -1;
	it->cpu = -1;
}

void
balplan_follow(struct balplan *bp, const struct irqs *all)
{
	load_cells_follow(&bp->cells, bp->m, all);
}

int
balplan_read(struct balplan *bp, int r, const char *from)
{
	return load_cells_read(&bp->cells, r, from);
}

static int
cmpirq(const void *a, const void *b)
{
	const struct balitem *x = a, *y = b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

static struct balitem *
item_of(const struct balplan *bp, unsigned int irq)
{
	struct balitem key;

	key.irq = irq;
	return bsearch(&key, bp->it, bp->n, sizeof(*bp->it), cmpirq);
}

/*
 * An IRQ with no row in either read has no handler (show_interrupts()
 * skips an IRQ without actions): nothing to balance. One whose row the
 * first read had and the second has not, or whose directory is gone,
 * was freed during the interval (a driver reload, ethtool -L).
 */
static void
drop_rowless(struct balplan *bp)
{
	struct cpuset *set = xcpuset(bp->m->nbits);
	struct perr pe;
	uint8_t seen;
	size_t i, k;
	bool gone;

	bp->freed = xcalloc(bp->n + 1, sizeof(*bp->freed));
	for (i = k = 0; i < bp->n; i++) {
		seen = load_rows_seen(&bp->cells, bp->it[i].irq);
		gone = seen == 1 || (seen != 0 && machine_affinity_read(
		    bp->it[i].irq, AFF_REQUESTED, set, &pe) == -ENOENT);
		if (gone)
			bp->freed[bp->nfreed++] = bp->it[i].irq;
		if (gone || seen == 0) {
			cpuset_free(bp->it[i].old);
			continue;
		}
		bp->it[k++] = bp->it[i];
	}
	bp->n = k;
	cpuset_free(set);
}

/*
 * What the interval counted: every cell to its CPU before, and to its
 * IRQ's count, or to the CPU's fixed load when the plan does not place
 * the IRQ. An IRQ is at home on the one CPU it requests, or else on the
 * one CPU it ran on when that is one it requests: an IRQ still on a
 * CPU it no longer requests has a move pending, and no home.
 */
static void
tally(struct balplan *bp)
{
	const struct cell *c;
	struct balitem *it;
	size_t i, at = 0;
	uint32_t d;

	for (i = 0; i < bp->cells.n; i++) {
		c = &bp->cells.v[i];
		if (!load_cell_delta(c, &d))
			continue;
		bp->before[c->cpu] += d;
		if ((it = item_of(bp, c->irq)) == NULL)
			bp->fixed[c->cpu] += d;
		else {
			it->count += d;
			it->rated = true;
		}
	}
	for (i = 0; i < bp->n; i++) {
		it = &bp->it[i];
		if (it->home < 0 && load_cells_of(&bp->cells, it->irq,
		    &at) == 1 && cpuset_test(it->old, bp->cells.v[at].cpu))
			it->home = bp->cells.v[at].cpu;
		if (it->home >= 0 &&
		    !cpuset_test(bp->allow[it->allow].set, it->home))
			it->home = -1;
	}
}

struct pairkey {
	long	 pair;
	size_t	 i;
};

static int
cmppair(const void *a, const void *b)
{
	const struct pairkey *x = a, *y = b;

	return (x->pair > y->pair) - (x->pair < y->pair);
}

/* Each tx IRQ of a pair follows its rx partner: they are placed as one. */
static void
pair_up(struct balplan *bp)
{
	struct pairkey *rx, key, *k;
	size_t i, n = 0;

	rx = xcalloc(bp->n + 1, sizeof(*rx));
	for (i = 0; i < bp->n; i++)
		if (bp->it[i].role.pair >= 0 && bp->it[i].role.serve == QS_RX)
			rx[n++] = (struct pairkey){ bp->it[i].role.pair, i };
	qsort(rx, n, sizeof(*rx), cmppair);
	for (i = 0; i < bp->n; i++) {
		if (bp->it[i].role.pair < 0 || bp->it[i].role.serve != QS_TX)
			continue;
		key.pair = bp->it[i].role.pair;
		if ((k = bsearch(&key, rx, n, sizeof(*rx), cmppair)) == NULL ||
		    bp->it[k->i].tail >= 0)
			continue;
		bp->it[i].lead = k->i;
		bp->it[k->i].tail = i;
	}
	free(rx);
}

/*
 * A busy unit's home: the one CPU each of its busy IRQs is at home on;
 * -1 when one has none or they differ (a split pair is joined).
 */
static int
unit_home(const struct balitem *a, const struct balitem *b)
{
	int home = -1;

	if (placement_busy(a->count)) {
		if ((home = a->home) < 0)
			return -1;
	}
	if (b != NULL && placement_busy(b->count)) {
		if (b->home < 0 || (home >= 0 && home != b->home))
			return -1;
		home = b->home;
	}
	return home;
}

/*
 * A busy unit for the planner; with room, the vectors it takes (one an
 * IRQ) and the one CPU that holds them, when both IRQs are there.
 */
static struct place_item
unit_item(const struct balplan *bp, const struct balitem *a,
    const struct balitem *b, uint64_t load, bool room)
{
	int held = -1;

	if (room) {
		held = vectors_held(bp->m, a->irq);
		if (b != NULL && vectors_held(bp->m, b->irq) != held)
			held = -1;
	}
	return (struct place_item){ load, unit_home(a, b), a->allow, -1,
	    b != NULL ? 2 : 1, held };
}

/* A quiet unit's interrupts stay where they were counted. */
static void
keep_quiet(struct balplan *bp, const bool *quiet)
{
	const struct balitem *it;
	const struct cell *c;
	size_t i;
	uint32_t d;

	for (i = 0; i < bp->cells.n; i++) {
		c = &bp->cells.v[i];
		if ((it = item_of(bp, c->irq)) == NULL ||
		    !quiet[it - bp->it] || !load_cell_delta(c, &d))
			continue;
		bp->fixed[c->cpu] += d;
	}
}

static const struct cpuset *
alone(struct balplan *bp, int cpu)
{
	if (bp->alone[cpu] == NULL) {
		bp->alone[cpu] = xcpuset(bp->m->nbits);
		cpuset_set(bp->alone[cpu], cpu);
	}
	return bp->alone[cpu];
}

/*
 * The IRQs of a unit are written when it leaves its home (or had none:
 * a split pair is joined), and only then: a unit that stays keeps what
 * each of its IRQs requests, a quiet partner too. Of a unit that moves,
 * the busier IRQ is the move, the other its pair.
 */
static void
decide(struct balplan *bp, struct balitem *it, int cpu, bool moved,
    bool first)
{
	it->cpu = cpu;
	if (!moved)
		return;
	it->why = moved && first ? BAL_MOVE : BAL_PAIR;
	it->want = alone(bp, cpu);
	bp->nwrite++;
}

/*
 * The busy units to the planner, within the CPUs' interrupt vectors
 * (vectors_room()), its answer back to their IRQs; a quiet unit keeps
 * what it has.
 */
static void
plan(struct balplan *bp)
{
	struct balitem *a, *b;
	struct place_set *sets;
	struct place_item *pi;
	struct placement p;
	size_t *unit, i, nu = 0;
	uint64_t load;
	bool *quiet;
	long *room = vectors_room(bp->m);

	quiet = xcalloc(bp->n + 1, sizeof(*quiet));
	unit = xcalloc(bp->n + 1, sizeof(*unit));
	pi = xcalloc(bp->n + 1, sizeof(*pi));
	for (i = 0; i < bp->n; i++) {
		a = &bp->it[i];
		if (a->lead >= 0)
			continue;
		b = a->tail >= 0 ? &bp->it[a->tail] : NULL;
		load = a->count + (b != NULL ? b->count : 0);
		if (!placement_busy(load)) {
			quiet[i] = true;
			if (b != NULL)
				quiet[a->tail] = true;
			continue;
		}
		unit[nu] = i;
		pi[nu++] = unit_item(bp, a, b, load, room != NULL);
	}
	keep_quiet(bp, quiet);
	sets = xcalloc(bp->nallow + 1, sizeof(*sets));
	for (i = 0; i < bp->nallow; i++)
		sets[i] = (struct place_set){ bp->allow[i].cpu,
		    bp->allow[i].n };
	p = (struct placement){ bp->m->nbits, bp->fixed, bp->after, sets,
	    bp->nallow, pi, nu, false, room };
	placement_plan(&p);
	bp->fresh = p.fresh;
	for (i = 0; i < nu; i++) {
		a = &bp->it[unit[i]];
		b = a->tail >= 0 ? &bp->it[a->tail] : NULL;
		decide(bp, a, pi[i].cpu, pi[i].cpu != pi[i].home,
		    b == NULL || a->count >= b->count);
		if (b != NULL)
			decide(bp, b, pi[i].cpu, pi[i].cpu != pi[i].home,
			    b->count > a->count);
	}
	free(room);
	free(sets);
	free(pi);
	free(unit);
	free(quiet);
}

/*
 * The eligible CPU with the most load (the first of equals), -1 with
 * none; *sum their load, *n how many.
 */
static int
busiest(const struct balplan *bp, const uint64_t *load, uint64_t *sum,
    unsigned int *n)
{
	int cpu, top = -1;

	*sum = 0;
	*n = 0;
	for (cpu = cpuset_first(bp->elig); cpu >= 0;
	    cpu = cpuset_next(bp->elig, cpu + 1)) {
		*sum += load[cpu];
		(*n)++;
		if (top < 0 || load[cpu] > load[top])
			top = cpu;
	}
	return top;
}

/*
 * Why nothing is written: every IRQ the plan may move is quiet; or the
 * busiest CPU holds one IRQ and what else it counted is quiet, the one
 * above the mean, so no plan evens the CPUs; or no move gains beyond
 * the noise.
 */
static void
still(struct balplan *bp)
{
	const struct cell *c;
	uint64_t sum, max = 0;
	unsigned int n;
	size_t i;
	uint32_t d;
	int top;

	if (bp->nwrite > 0) {
		bp->still = BAL_MOVES;
		return;
	}
	bp->still = BAL_IDLE;
	for (i = 0; i < bp->n; i++)
		if (placement_busy(bp->it[i].count))
			bp->still = BAL_EVEN;
	if (bp->still == BAL_IDLE)
		return;
	top = busiest(bp, bp->before, &sum, &n);
	for (i = 0; i < bp->cells.n; i++) {
		c = &bp->cells.v[i];
		if ((int)c->cpu != top || !load_cell_delta(c, &d) || d <= max)
			continue;
		max = d;
		bp->one_irq = c->irq;
	}
	if (top < 0 || max * n <= sum ||
	    placement_busy(bp->before[top] - max))
		return;
	bp->still = BAL_ONE;
	bp->one_cpu = top;
	bp->one_count = max;
	bp->one_item = item_of(bp, bp->one_irq) != NULL;
}

/* After both reads: the plan, and for each IRQ what it gets and why. */
void
balplan_make(struct balplan *bp)
{
	unsigned int nbits = bp->m->nbits;

	qsort(bp->it, bp->n, sizeof(*bp->it), cmpirq);
	drop_rowless(bp);
	bp->before = xcalloc(nbits, sizeof(*bp->before));
	bp->fixed = xcalloc(nbits, sizeof(*bp->fixed));
	bp->after = xcalloc(nbits, sizeof(*bp->after));
	bp->alone = xcalloc(nbits, sizeof(*bp->alone));
	tally(bp);
	pair_up(bp);
	plan(bp);
	still(bp);
}

/*
 * The busiest eligible CPU's load over their mean; -1 with no
 * interrupts, -2 when the busiest CPU counted fewer than BALPLAN_FIGURE
 * before the plan: too few for the ratio to mean anything.
 */
double
balplan_imbalance(const struct balplan *bp, const uint64_t *load)
{
	uint64_t sum, bsum;
	unsigned int n;
	int max, top;

	top = busiest(bp, bp->before, &bsum, &n);
	if ((max = busiest(bp, load, &sum, &n)) < 0 || sum == 0)
		return -1;
	if (bp->before[top] < BALPLAN_FIGURE)
		return -2;
	return (double)load[max] * n / sum;
}

void
balplan_free(struct balplan *bp)
{
	size_t i;

	for (i = 0; i < bp->n; i++)
		cpuset_free(bp->it[i].old);
	free(bp->it);
	for (i = 0; bp->alone != NULL && i < bp->m->nbits; i++)
		cpuset_free(bp->alone[i]);
	free(bp->alone);
	for (i = 0; i < bp->nallow; i++) {
		cpuset_free(bp->allow[i].set);
		free(bp->allow[i].cpu);
	}
	free(bp->allow);
	free(bp->freed);
	free(bp->before);
	free(bp->fixed);
	free(bp->after);
	free(bp->pos);
	cpuset_free(bp->left);
	cpuset_free(bp->isolated);
	free(bp->why);
	load_cells_free(&bp->cells);
}
