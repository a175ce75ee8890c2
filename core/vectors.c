/*
 * Each x86 CPU's interrupt vectors, and whether a layout fits in them:
 * a move the kernel cannot give a vector fails with ENOSPC (or never
 * completes, when it waits for the next interrupt), so a layout that
 * does not fit is refused whole before the first write. Other
 * architectures have no per-CPU limit (arm64's GICv3 ITS: LPIs).
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/apply.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "parse.h"
#include "procfs.h"

/*
 * Both files are seq_files: a read(2) stops at the page whose next
 * record does not fit, so they are read line by line to the end.
 */
#define LINE_MAX_VEC	(4 << 20)

/*
 * x86, told by its arch rows: a LOC row reading "Local timer interrupts"
 * and nothing more (arch/x86/kernel/irq.c arch_show_interrupts());
 * powerpc's goes on "for timer event device", arm64 and riscv have none.
 * *nirqs: the IRQ rows, counted in the same read.
 */
static bool
scan(size_t *nirqs)
{
	struct lines l;
	char *line, *p;
	bool yes = false;
	size_t len;

	*nirqs = 0;
	if (procfs_lines_open(&l, PATH_PROC_INTERRUPTS, LINE_MAX_VEC) != 0)
		return false;
	while (procfs_lines_next(&l, &line, &len) == 1) {
		line += strspn(line, " ");
		len = strspn(line, "0123456789");
		if (len > 0 && line[len] == ':')
			(*nirqs)++;
		if (yes || strncmp(line, "LOC:", 4) != 0 ||
		    (p = strstr(line, "Local timer interrupts")) == NULL)
			continue;
		p += strlen("Local timer interrupts");
		len = strlen(p);
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		yes = len == 0;
	}
	procfs_lines_close(&l);
	return yes;
}

/* x86 (scan()), or an irq debugfs with a VECTOR domain, x86's too. */
bool
vectors_x86(void)
{
	size_t n;

	return procfs_exists(PATH_DEBUG_VECTOR) || scan(&n);
}

/*
 * The VECTOR domain's matrix (kernel/irq/matrix.c irq_matrix_debug_show(),
 * under arch/x86/kernel/apic/vector.c x86_vector_debug_show()): after
 * the line "| CPU | avl | man | mac | act | vectors", one line an online
 * CPU, "%*s %4d  %4u  %4u  %4u %4u  %*pbl". avl is what a CPU has free
 * for IRQs not managed (managed ones take their reservation). 0, or -1
 * when there is no such file or it says no CPU.
 */
static int
debug_read(struct vectors *v)
{
	struct lines l;
	char *line;
	unsigned int avl, man, mac, act;
	bool table = false, any = false;
	size_t len;
	int cpu;

	if (procfs_lines_open(&l, PATH_DEBUG_VECTOR, LINE_MAX_VEC) != 0)
		return -1;
	while (procfs_lines_next(&l, &line, &len) == 1) {
		if (strstr(line, "| CPU | avl | man | mac | act |") != NULL) {
			table = true;
			continue;
		}
		if (!table)
			continue;
		if (sscanf(line, "%d %u %u %u %u", &cpu, &avl, &man, &mac,
		    &act) != 5)
			break;
		if (cpu >= 0 && (unsigned int)cpu < v->nbits &&
		    v->free[cpu] >= 0) {
			v->free[cpu] = avl;
			any = true;
		}
	}
	procfs_lines_close(&l);
	return any ? 0 : -1;
}

/*
 * Whether an IRQ has a handler (an action directory in proc/irq/N). One
 * without is not activated and holds no vector: x86 only reserves one
 * in the matrix's global count (vector.c reserve_irq_vector_locked()),
 * though its effective CPU reads as the first online one, and a write
 * to its affinity is only kept for activation (kernel/irq/manage.c
 * irq_set_affinity_deactivated()). Unknown counts as having one.
 */
static bool
has_action(unsigned int irq)
{
	char **names;
	size_t n;

	if (select_actions(irq, &names, &n) != 0)
		return true;
	select_actions_free(names, n);
	return n > 0;
}

/*
 * Without debugfs, from what /proc shows: each online CPU's vectors for
 * devices, less a margin, less one for each IRQ with a handler it runs
 * (an x86 IRQ runs on one CPU of its set), less one for each managed
 * IRQ whose CPUs include it (irq_matrix_reserve_managed() reserves one
 * on every CPU of the mask; the managed IRQ's own vector is one of
 * those). Managed is known from debugfs, or as root from the kernel's
 * refusal; else an IRQ counts as not managed. Never below 0.
 */
static void
estimate(struct vectors *v, const struct machine *m)
{
	struct irqs all = { 0 };
	struct cpuset *set = xcpuset(m->nbits);
	size_t i;
	int c;

	if (select_all(&all) != 0) {
		cpuset_free(set);
		return;
	}
	for (i = 0; i < all.n; i++) {
		if (machine_irq_movable(all.v[i]) == MOVABLE_MANAGED) {
			if (machine_affinity_read(all.v[i], AFF_REQUESTED, set,
			    NULL) != 0)
				continue;
			cpuset_and(set, m->online);
			for (c = cpuset_first(set); c >= 0;
			    c = cpuset_next(set, c + 1))
				v->free[c]--;
		} else if (has_action(all.v[i]) &&
		    machine_runs_on_read(m, all.v[i], set, NULL, NULL) == 0 &&
		    (c = cpuset_first(set)) >= 0)
			v->free[c]--;
	}
	for (c = 0; (unsigned int)c < v->nbits; c++)
		if (cpuset_test(m->online, c) && v->free[c] < 0)
			v->free[c] = 0;
	select_free(&all);
	cpuset_free(set);
}

/* 0; v->limited false when the CPUs have no fixed number of vectors. */
int
vectors_load(struct vectors *v, const struct machine *m)
{
	unsigned int c;

	size_t nirqs = 0;
	bool debug;

	memset(v, 0, sizeof(*v));
	v->nbits = m->nbits;
	debug = procfs_exists(PATH_DEBUG_VECTOR);
	if (!(v->limited = scan(&nirqs) || debug))
		return 0;
	v->free = xcalloc(m->nbits + 1, sizeof(*v->free));
	for (c = 0; c < m->nbits; c++)
		v->free[c] = cpuset_test(m->online, c) ?
		    VECTORS_DEVICE - VECTORS_MARGIN : -1;
	if (debug && debug_read(v) == 0)
		v->exact = true;
	/* no CPU can hold more than every IRQ: nothing more to read */
	else if (nirqs <= VECTORS_DEVICE - VECTORS_MARGIN)
		v->roomy = true;
	else
		estimate(v, m);
	return 0;
}

void
vectors_free(struct vectors *v)
{
	free(v->free);
	v->free = NULL;
}

/*
 * For a writer that chooses CPUs: each CPU's free vectors (< 0 for an
 * offline one), owned; NULL when there is no limit to plan within: not
 * x86, or no more IRQs than a CPU has vectors.
 */
long *
vectors_room(const struct machine *m)
{
	struct vectors v;

	vectors_load(&v, m);
	if (!v.limited || v.roomy) {
		vectors_free(&v);
		return NULL;
	}
	return v.free;
}

/* The one CPU an IRQ runs on, whose vector it holds; -1 when not one. */
int
vectors_held(const struct machine *m, unsigned int irq)
{
	struct cpuset *on = xcpuset(m->nbits);
	int cpu = -1;

	if (machine_runs_on_read(m, irq, on, NULL, NULL) == 0 &&
	    cpuset_count(on) == 1)
		cpu = cpuset_first(on);
	cpuset_free(on);
	return cpu;
}

/* The online CPU of set with the most free in w, or -1. */
static int
least_loaded(const struct cpuset *set, const long *w)
{
	int c, best = -1;

	for (c = cpuset_first(set); c >= 0; c = cpuset_next(set, c + 1))
		if (w[c] >= 0 && (best < 0 || w[c] > w[best]))
			best = c;
	return best;
}

/* What a layout asks of the vectors (demand()). */
struct demand {
	struct cpuset	**to;		/* each change's online CPUs */
	bool		 *need;		/* it moves: it needs a vector */
	long		 *w;		/* free, with those the moves leave */
	size_t		  n;
};

/*
 * An IRQ that moves needs a vector on one CPU of its new set and frees
 * the one it leaves. An IRQ already on a CPU of its new set keeps its
 * vector (vector.c assign_vector_locked()); a managed or unmovable one
 * is not written; one without a handler holds none (has_action()).
 */
static void
demand(struct demand *d, const long *avail, struct machine *m,
    const struct change *c, size_t n)
{
	struct cpuset *on = xcpuset(m->nbits);
	size_t i;
	int cpu;

	d->n = n;
	d->to = xcalloc(n + 1, sizeof(*d->to));
	d->need = xcalloc(n + 1, sizeof(*d->need));
	d->w = xcalloc(m->nbits + 1, sizeof(*d->w));
	memcpy(d->w, avail, m->nbits * sizeof(*d->w));
	for (i = 0; i < n; i++) {
		d->to[i] = xcpudup(c[i].want);
		cpuset_and(d->to[i], m->online);
		if (cpuset_empty(d->to[i]) ||
		    machine_irq_movable(c[i].irq) >= MOVABLE_MANAGED ||
		    !has_action(c[i].irq))
			continue;
		if (machine_runs_on_read(m, c[i].irq, on, NULL, NULL) == 0 &&
		    cpuset_intersects(on, d->to[i]))
			continue;
		d->need[i] = true;
		if ((cpu = cpuset_first(on)) >= 0 && d->w[cpu] >= 0)
			d->w[cpu]++;
	}
	cpuset_free(on);
}

static void
demand_free(struct demand *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		cpuset_free(d->to[i]);
	free(d->to);
	free(d->need);
	free(d->w);
}

/*
 * Whether the layout c fits (demand()): the kernel takes a vector on the
 * CPU of the new set with the most free (kernel/irq/matrix.c
 * matrix_find_best_cpu()). The moves to one CPU are placed first, then
 * the others. Returns how many get no vector; then bad[i] is set for
 * each IRQ that needs one on the CPUs short of them, and tl->vec says
 * the numbers.
 */
size_t
vectors_fit(const struct vectors *v, struct machine *m,
    const struct change *c, size_t n, bool *bad, struct tally *tl)
{
	struct demand d;
	struct cpuset *shortc;
	long *start;
	size_t i, over = 0, pass;
	int cpu;

	if (!v->limited || n == 0 || v->roomy)
		return 0;
	demand(&d, v->free, m, c, n);
	start = xcalloc(v->nbits + 1, sizeof(*start));
	memcpy(start, d.w, v->nbits * sizeof(*d.w));
	shortc = xcpuset(m->nbits);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++) {
			if (!d.need[i] ||
			    (cpuset_count(d.to[i]) == 1) != (pass == 0))
				continue;
			if ((cpu = least_loaded(d.to[i], d.w)) >= 0 &&
			    d.w[cpu] > 0)
				d.w[cpu]--;
			else {
				over++;
				cpuset_or(shortc, d.to[i]);
			}
		}
	if (over > 0) {
		free(tl->vec.cpus);
		tl->vec = (struct vshort){ xformat(shortc, false), 0, 0,
		    v->exact };
		for (i = 0; i < n; i++)
			if (d.need[i] && cpuset_subset(d.to[i], shortc)) {
				tl->vec.irqs++;
				bad[i] = true;
			}
		for (cpu = cpuset_first(shortc); cpu >= 0;
		    cpu = cpuset_next(shortc, cpu + 1))
			tl->vec.free += start[cpu] > 0 ? start[cpu] : 0;
	}
	cpuset_free(shortc);
	free(start);
	demand_free(&d);
	return over;
}

/* The CPU a change whose own CPUs have no vector free goes to, or -1. */
static int
elsewhere(const struct cpuset *near, const struct cpuset *in, const long *w)
{
	int cpu = -1;

	if (near != NULL)
		cpu = least_loaded(near, w);
	if (cpu < 0 || w[cpu] <= 0)
		cpu = least_loaded(in, w);
	return cpu >= 0 && w[cpu] > 0 ? cpu : -1;
}

/*
 * For a writer that chooses CPUs (spread, isolate): an IRQ whose CPUs
 * would have no free vector left goes to the CPU with the most free of
 * near[i] (near may be NULL, and near[i]) when one has any, else of
 * pool; alone[cpu] is the one-CPU set of each CPU, made here when
 * missing. The moves onto one CPU are taken first, then those onto a
 * set (the kernel takes the freest of its CPUs), as vectors_fit() takes
 * them. Returns how many were placed elsewhere; what still does not fit
 * is for apply_vectors() to refuse.
 */
size_t
vectors_place_near(struct machine *m, struct change *c, size_t n,
    const struct cpuset *const *near, const struct cpuset *pool,
    struct cpuset **alone)
{
	struct demand d;
	struct cpuset *in;
	size_t i, pass, moved = 0;
	long *room;
	int cpu, alt;

	if (n == 0 || (room = vectors_room(m)) == NULL)
		return 0;
	demand(&d, room, m, c, n);
	in = xcpudup(pool);
	cpuset_and(in, m->online);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++) {
			if (!d.need[i] ||
			    (cpuset_count(d.to[i]) == 1) != (pass == 0))
				continue;
			cpu = least_loaded(d.to[i], d.w);
			if ((cpu < 0 || d.w[cpu] <= 0) && (alt = elsewhere(near
			    != NULL ? near[i] : NULL, in, d.w)) >= 0) {
				cpu = alt;
				if (alone[cpu] == NULL) {
					alone[cpu] = xcpuset(m->nbits);
					cpuset_set(alone[cpu], cpu);
				}
				c[i].want = alone[cpu];
				moved++;
			}
			if (cpu >= 0 && d.w[cpu] > 0)
				d.w[cpu]--;
		}
	cpuset_free(in);
	demand_free(&d);
	free(room);
	return moved;
}

/* vectors_place_near() without near: spread's one pool. */
size_t
vectors_place(struct machine *m, struct change *c, size_t n,
    const struct cpuset *pool, struct cpuset **alone)
{
	return vectors_place_near(m, c, n, NULL, pool, alone);
}

/*
 * Whether a move onto to cannot complete for want of vectors: x86, and
 * no online CPU of to has one free. v is the caller's, zeroed before
 * the first call, which loads it (once a run), vectors_free() after.
 */
bool
vectors_stuck_in(struct vectors *v, const struct machine *m,
    const struct cpuset *to)
{
	int c;

	if (v->nbits == 0)
		vectors_load(v, m);
	if (!v->limited || v->roomy)
		return false;
	for (c = cpuset_first(to); c >= 0; c = cpuset_next(to, c + 1))
		if ((unsigned int)c < v->nbits && v->free[c] > 0)
			return false;
	return cpuset_intersects(to, m->online);
}
