/*
 * Where isolate puts an IRQ left with none of its own CPUs: a device's
 * such IRQs one CPU each over the CPUs that remain, as spread places
 * them, and every move within the CPUs' interrupt vectors.
 */
#include <stdlib.h>
#include <string.h>

#include "core/apply.h"
#include "core/device.h"
#include "core/isolplan.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/placement.h"
#include "core/select.h"
#include "core/topology.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "parse.h"

/* The CPUs isolate places on: online, not kept free, not isolated. */
static struct cpuset *
remaining(struct isoplan *is)
{
	struct cpuset *pool = xcpudup(is->iso.house);

	cpuset_andnot(pool, is->m.isolated);
	if (cpuset_empty(pool))
		cpuset_copy(pool, is->iso.house);
	return pool;
}

/* The CPUs of pool on the IRQ's node, or NULL when none is known. */
static struct cpuset *
near(struct isoplan *is, unsigned int irq, const struct cpuset *pool)
{
	const struct cpuset *node;
	struct cpuset *set;
	int id;

	if ((id = machine_irq_node(irq)) < 0 ||
	    (node = machine_node(&is->m, id)) == NULL ||
	    !cpuset_intersects(node, pool))
		return NULL;
	set = xcpudup(pool);
	cpuset_and(set, node);
	return set;
}

/* A lone IRQ: the CPUs that remain on its node, or all of them. */
static struct cpuset *
lone(struct isoplan *is, unsigned int irq, const struct cpuset *pool)
{
	struct cpuset *to = near(is, irq, pool);

	return to != NULL ? to : xcpudup(pool);
}

/* A CPU of the order: how many of the device's IRQs it holds, where. */
struct slot {
	int		 cpu;
	unsigned int	 held;
	size_t		 pos;		/* in topology_order() */
};

static int
cmpslot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->held != y->held)
		return x->held < y->held ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/*
 * The device's IRQs that keep one CPU of their own, counted on it: the
 * IRQs it is to place go first to the CPUs that hold fewest of them.
 */
static unsigned int *
held(const struct isoplan *is, const struct devmap *dm, const char *dev)
{
	unsigned int *n = xcalloc(is->m.nbits + 1, sizeof(*n));
	const struct isoirq *e;
	const struct cpuset *set;
	const char *d;
	size_t i;

	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		set = e->kind == IK_MOVE ? e->to : e->kind == IK_OFF ?
		    e->from : NULL;
		if (set == NULL || cpuset_count(set) != 1 ||
		    (d = device_of(dm, e->irq)) == NULL || strcmp(d, dev) != 0)
			continue;
		n[cpuset_first(set)]++;
	}
	return n;
}

/*
 * The order a device's IRQs take the CPUs of pool: only its node's (that
 * of its first IRQ) while any remain there, as spread keeps a device on
 * its node and explain calls any other remote; fewest of its IRQs
 * first, then cores before their second threads (topology_order()).
 * Returns how many.
 */
static size_t
order(struct isoplan *is, const struct devmap *dm, const char *dev,
    unsigned int irq, const struct cpuset *pool, int **cpus)
{
	struct cpuslot *ts;
	struct cpuset *local = near(is, irq, pool);
	struct slot *s;
	unsigned int *h = held(is, dm, dev);
	size_t n, i;

	ts = topology_order(&is->m, local != NULL ? local : pool, false, &n);
	s = xcalloc(n + 1, sizeof(*s));
	for (i = 0; i < n; i++)
		s[i] = (struct slot){ ts[i].cpu, h[ts[i].cpu], i };
	qsort(s, n, sizeof(*s), cmpslot);
	*cpus = xcalloc(n + 1, sizeof(**cpus));
	for (i = 0; i < n; i++)
		(*cpus)[i] = s[i].cpu;
	free(s);
	free(ts);
	free(h);
	cpuset_free(local);
	return n;
}

/*
 * A device's IRQs to place (idx, k of them, by IRQ): one CPU each,
 * round robin over order(), the two IRQs of a queue pair on one CPU
 * (netqueue_roles()), as spread places them.
 */
static void
place_device(struct isoplan *is, const struct devmap *dm, const char *dev,
    const size_t *idx, size_t k, const struct cpuset *pool)
{
	struct irqs irqs = { 0 };
	struct qrole *ro;
	struct isoirq *e;
	long *pair = xcalloc(k + 1, sizeof(*pair));
	int *cpus, *cpu = xcalloc(k + 1, sizeof(*cpu));
	size_t i, n;

	irqs.v = xcalloc(k + 1, sizeof(*irqs.v));
	for (i = 0; i < k; i++)
		irqs.v[irqs.n++] = is->e[idx[i]].irq;
	ro = netqueue_roles(&irqs);
	for (i = 0; i < k; i++)
		pair[i] = ro[i].pair;
	n = order(is, dm, dev, irqs.v[0], pool, &cpus);
	placement_round_robin(pair, k, cpus, n, cpu);
	for (i = 0; i < k; i++) {
		e = &is->e[idx[i]];
		e->to = xcpuset(is->m.nbits);
		cpuset_set(e->to, cpu[i]);
	}
	free(cpus);
	free(cpu);
	free(pair);
	free(ro);
	free(irqs.v);
}

/* The IRQs to place of one device (NULL: of none), by index; how many. */
static size_t
homeless(const struct isoplan *is, const struct devmap *dm, const char *dev,
    size_t *idx)
{
	const char *d;
	size_t i, k = 0;

	for (i = 0; i < is->n; i++) {
		if (is->e[i].kind != IK_MOVE || is->e[i].to != NULL)
			continue;
		d = device_of(dm, is->e[i].irq);
		if (d == dev || (d != NULL && dev != NULL &&
		    strcmp(d, dev) == 0))
			idx[k++] = i;
	}
	return k;
}

/*
 * Each IRQ left with no CPU of its own (plan_irq()): a device's, when it
 * has two or more, one CPU each (place_device()); a lone one, the
 * remaining CPUs of its node as a set, within which the kernel chooses.
 */
static void
place_homeless(struct isoplan *is, const struct cpuset *pool)
{
	struct devmap dm;
	const char *dev;
	size_t *idx, i, k = 0;

	for (i = 0; i < is->n; i++)
		if (is->e[i].kind == IK_MOVE && is->e[i].to == NULL)
			break;
	if (i == is->n)
		return;
	idx = xcalloc(is->n + 1, sizeof(*idx));
	device_map(&dm);
	for (i = 0; i < is->n; i++) {
		if (is->e[i].kind != IK_MOVE || is->e[i].to != NULL)
			continue;
		dev = device_of(&dm, is->e[i].irq);
		if (dev != NULL && (k = homeless(is, &dm, dev, idx)) >= 2) {
			place_device(is, &dm, dev, idx, k, pool);
			continue;
		}
		is->e[i].to = lone(is, is->e[i].irq, pool);
	}
	free(idx);
	device_map_free(&dm);
}

/*
 * The moves within the CPUs' interrupt vectors where they can be: an
 * IRQ whose new CPUs have none free goes to the freest remaining CPU of
 * its node, else of any (vectors_place_near()); what still does not fit
 * is refused whole (isoplan_fits()).
 */
static void
place_vectors(struct isoplan *is, const struct cpuset *pool)
{
	struct change *c = xcalloc(is->n + 1, sizeof(*c));
	struct cpuset **nodes = xcalloc(is->n + 1, sizeof(*nodes));
	struct cpuset **alone = xcalloc(is->m.nbits + 1, sizeof(*alone));
	size_t *at = xcalloc(is->n + 1, sizeof(*at));
	struct isoirq *e;
	size_t i, n = 0;

	for (i = 0; i < is->n; i++)
		if (is->e[i].kind == IK_MOVE) {
			at[n] = i;
			nodes[n] = near(is, is->e[i].irq, pool);
			c[n++] = (struct change){ is->e[i].irq, is->e[i].to,
			    false };
		}
	is->vmoved = vectors_place_near(&is->m, c, n,
	    (const struct cpuset *const *)nodes, pool, alone);
	for (i = 0; i < n; i++) {
		e = &is->e[at[i]];
		if (c[i].want != e->to) {
			cpuset_free(e->to);
			e->to = xcpudup(c[i].want);
		}
		cpuset_free(nodes[i]);
	}
	for (i = 0; i < is->m.nbits; i++)
		cpuset_free(alone[i]);
	free(alone);
	free(nodes);
	free(at);
	free(c);
}

void
isoplan_place(struct isoplan *is)
{
	struct cpuset *pool = remaining(is);

	place_homeless(is, pool);
	place_vectors(is, pool);
	cpuset_free(pool);
}
