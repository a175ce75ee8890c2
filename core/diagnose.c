/*
 * Diagnosis: what is known of an IRQ, and what in it needs attention or
 * is worth saying, as findings.
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/diagnose.h"
#include "core/findings.h"
#include "core/irqbalance.h"
#include "core/irqinfo.h"
#include "core/irqthread.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "parse.h"

void
diagnose_free(struct irqview *v)
{
	cpuset_free(v->req);
	cpuset_free(v->eff);
	cpuset_free(v->hint);
	free(v->chip);
	free(v->names);
}

/*
 * An affinity file into *set, or NULL: missing is unknown, unreadable is
 * said; returns 0 or the -errno said.
 */
static int
read_aff(struct machine *m, unsigned int irq, enum affinity what,
    struct cpuset **set)
{
	struct perr pe;
	int rc;

	*set = xcpuset(m->nbits);
	if ((rc = machine_affinity_read(irq, what, *set, &pe)) == 0)
		return 0;
	cpuset_free(*set);
	*set = NULL;
	if (rc != -ENOENT || what == AFF_REQUESTED) {
		warnx("irq %u: %s", irq, pe.msg);
		return rc;
	}
	return 0;
}

/*
 * What is known of one IRQ; v->req NULL when its affinity cannot be
 * read. Returns 0, or -errno when a file could not be read (said).
 */
int
diagnose_read(struct machine *m, unsigned int irq, struct irqview *v)
{
	struct irqinfo in;
	char **names;
	size_t n;
	int rc, hrc;

	memset(v, 0, sizeof(*v));
	v->irq = irq;
	if ((rc = read_aff(m, irq, AFF_REQUESTED, &v->req)) != 0)
		return rc;
	rc = read_aff(m, irq, AFF_EFFECTIVE, &v->eff);
	if ((hrc = read_aff(m, irq, AFF_HINT, &v->hint)) != 0 && rc == 0)
		rc = hrc;
	v->state = machine_irq_state(irq);
	/* without debugfs the kernel is asked, as every command asks it */
	if (!(v->state & IRQ_KNOWN))
		switch (machine_irq_movable(irq)) {
		case MOVABLE_MANAGED:
			v->state |= IRQ_MANAGED;
			break;
		case MOVABLE_NO:
			v->state |= IRQ_NOMOVE;
			break;
		default:
			break;
		}
	v->node = machine_irq_node(irq);
	if (irqinfo_read(m, irq, INFO_TOTAL | INFO_CHIP | INFO_NAMES,
	    &in) == 0) {
		v->has_total = in.has_total;
		v->total = in.total;
		v->chip = in.chip;
		v->handled = in.names != NULL;
		v->names = in.names;
		in.chip = in.names = NULL;
		irqinfo_free(&in);
	}
	/*
	 * proc/irq/N/NAME, one per action (kernel/irq/proc.c); a per-CPU
	 * IRQ (request_percpu_irq()) has none, but sys/kernel/irq/N/actions
	 */
	select_actions(irq, &names, &n);
	v->handled |= n > 0;
	v->procdirs = n > 0;
	select_actions_free(names, n);
	return rc;
}

/* The totals sys/kernel/irq did not give, from one read of proc/interrupts. */
void
diagnose_totals(struct irqview *v, size_t n)
{
	unsigned long long *total;
	unsigned int *irq;
	bool *known;
	size_t i, k;

	irq = xcalloc(n, sizeof(*irq));
	total = xcalloc(n, sizeof(*total));
	known = xcalloc(n, sizeof(*known));
	for (i = k = 0; i < n; i++)
		if (v[i].req != NULL && !v[i].has_total)
			irq[k++] = v[i].irq;
	if (k > 0 && irqinfo_totals(irq, k, total, known) == 0)
		for (i = k = 0; i < n; i++)
			if (v[i].req != NULL && !v[i].has_total) {
				v[i].has_total = known[k];
				v[i].total = total[k++];
			}
	free(irq);
	free(total);
	free(known);
}

/*
 * The family of a chip that applies a move at the next interrupt
 * (machine_chip_family()), NULL for one that moves at once or is not
 * known here: nothing is said of it.
 */
static const char *
deferred_by(const char *chip)
{
	const struct chip_family *f = machine_chip_family(chip);

	return f != NULL && f->move == CHIP_NEXT_IRQ ? f->prefix : NULL;
}

/* What an IRQ's sets are once offline CPUs are left out. */
struct live {
	struct cpuset	*req;		/* requested and online */
	struct cpuset	*eff;		/* effective and online; NULL unknown */
};

/*
 * An effective set with no online CPU is stale (a managed IRQ shut down,
 * an IRQ never started): the IRQ runs nowhere, and it is not believed.
 */
static void
live_read(const struct machine *m, const struct irqview *v, struct live *l)
{
	l->req = xcpudup(v->req);
	cpuset_and(l->req, m->online);
	l->eff = NULL;
	if (v->eff != NULL && cpuset_intersects(v->eff, m->online)) {
		l->eff = xcpudup(v->eff);
		cpuset_and(l->eff, m->online);
	}
}

static void
live_free(struct live *l)
{
	cpuset_free(l->req);
	cpuset_free(l->eff);
}

/* Where it runs, or may run: the live effective CPUs, else requested. */
static const struct cpuset *
live_on(const struct live *l)
{
	return l->eff != NULL ? l->eff : l->req;
}

/*
 * A move not applied yet. One the kernel applies at the IRQ's next
 * interrupt (debugfs's pending flag, a controller that moves so) is its
 * normal course right after a move: detail, not attention, unless it is
 * still on an isolated CPU, which isolate --check does not let pass
 * either. A move a controller should have applied at once has stayed.
 */
static void
find_pending(struct machine *m, const struct irqview *v,
    const struct live *l, bool isolated, struct findings *need,
    struct findings *info)
{
	const char *by = deferred_by(v->chip);
	bool idle = v->has_total && v->total == 0;
	/* x86: no CPU of the request has a vector free for it */
	bool stuck = v->vectors != NULL &&
	    vectors_stuck_in(v->vectors, m, l->req);
	struct findings *to = isolated || stuck ? need : info;
	char *r, *e, *more;

	r = xformat(v->req, false);
	e = xformat(l->eff, false);
	more = stuck ? xasprintf("; no interrupt vector is free on CPU %s, "
	    "so it cannot complete", r) : xstrdup("");
	if (v->state & IRQ_PENDING)
		findings_add(to, "pending", "runs on CPU %s, "
		    "outside the requested %s: debugfs shows the move "
		    "waiting for its next interrupt%s%s", e, r, idle ? ", and "
		    "it has not fired since boot" : "", more);
	else if (by != NULL)
		findings_add(to, "pending", "runs on CPU %s, "
		    "outside the requested %s: its %s controller applies a "
		    "move at the next interrupt%s%s", e, r, by, idle ? ", and "
		    "it has not fired since boot" : "", more);
	else
		findings_add(need, "pending", "runs on CPU %s, outside the "
		    "requested %s: the kernel has not applied the move%s",
		    e, r, idle ? "; it has not fired since boot" : "");
	free(more);
	free(r);
	free(e);
}

/*
 * Offline CPUs in the request. kernel/irq/cpuhotplug.c migrate_one_irq():
 * a managed IRQ whose CPUs are all offline is shut down, its affinity kept,
 * and started again when one returns; any other IRQ whose last requested
 * CPU goes offline gets every online CPU, for good.
 */
static void
find_offline(struct machine *m, const struct irqview *v,
    const struct live *l, struct findings *need, struct findings *info)
{
	struct cpuset *off = xcpudup(v->req);
	char *r, *o;

	cpuset_andnot(off, m->online);
	r = xformat(v->req, false);
	o = xformat(off, false);
	if (cpuset_empty(l->req) && (v->state & IRQ_MANAGED))
		findings_add(info, "shutdown", "all its CPUs (%s) are "
		    "offline: the kernel manages it, so it is shut down until "
		    "one of them comes back online", *r ? r : "none");
	else if (cpuset_empty(l->req) && !(v->state & IRQ_KNOWN))
		/* a movable IRQ would have been moved: managed, most likely */
		findings_add(info, "shutdown", "all its CPUs (%s) are "
		    "offline: a managed IRQ is shut down then, until one of "
		    "them comes back online", *r ? r : "none");
	else if (cpuset_empty(l->req))
		findings_add(need, "no-online", "no requested CPU (%s) is "
		    "online, and the kernel does not manage it",
		    *r ? r : "none");
	else if (!cpuset_empty(off) && !cpuset_subset(m->online, v->req))
		findings_add(info, "offline", "requested CPU %s %s offline; "
		    "should the rest go offline too, the kernel %s", o,
		    cpuset_count(off) == 1 ? "is" : "are",
		    v->state & IRQ_MANAGED ? "shuts it down until one comes "
		    "back" : "moves it to every online CPU and leaves it "
		    "there");
	cpuset_free(off);
	free(o);
	free(r);
}

static void
find_placement(struct machine *m, const struct irqview *v,
    const struct live *l, struct findings *need, struct findings *info)
{
	char *r, *e;

	find_offline(m, v, l, need, info);
	if (cpuset_empty(l->req) || l->eff == NULL)
		return;
	if (isolation_move_pending(v->req, l->eff))
		find_pending(m, v, l, isolation_place(l->req, l->eff,
		    m->isolated) == PLACE_PENDING, need, info);
	else if (cpuset_count(l->eff) == 1 && cpuset_count(l->req) > 1) {
		r = xformat(v->req, false);
		e = xformat(l->eff, false);
		findings_add(info, "single-target", "%s requested, delivered "
		    "to CPU %s only: the kernel delivers each interrupt to "
		    "one CPU of the set", r, e);
		free(r);
		free(e);
	}
}

/* On CPUs isolcpus=, nohz_full= or irqaff isolate keep for tasks. */
static void
find_isolated(const struct isolated *is, const struct irqview *v,
    const struct live *l, struct findings *need, struct findings *info)
{
	struct cpuset *iso;
	char *s, *why;

	/* requested off them but still there: pending says so */
	if (l->eff != NULL && isolation_place(l->req, l->eff,
	    is->all) == PLACE_PENDING)
		return;
	iso = xcpudup(live_on(l));
	cpuset_and(iso, is->all);
	if (!cpuset_empty(iso)) {
		s = xformat(iso, false);
		why = isolation_why(is, iso);
		/* a managed queue of an isolated CPU serves only that CPU */
		findings_add(v->state & IRQ_MANAGED ? info : need, "isolated",
		    "%s on CPU %s, isolated (%s)",
		    l->eff != NULL ? "runs" : "may run", s, why);
		free(why);
		free(s);
	}
	cpuset_free(iso);
}

/*
 * A handler thread whose CPUs are not its IRQ's effective ones: pinned
 * apart (taskset, tuna), it keeps them until the IRQ is next moved
 * (irq_thread_check_affinity()), and the handler runs there.
 */
static void
find_threads(struct machine *m, const struct isolated *is,
    const struct irqview *v, const struct live *l, struct findings *need)
{
	const struct irqthread *t;
	struct cpuset *iso;
	size_t i, first, n;
	char *name, *c, *e, *s;

	if (v->threads == NULL || l->eff == NULL)
		return;
	n = irqthread_of(v->threads, v->irq, &first);
	for (i = 0; i < n; i++) {
		t = &v->threads->v[first + i];
		if (irqthread_follows(t, l->eff, m->online))
			continue;
		iso = xcpudup(t->cpus);
		cpuset_and(iso, is->all);
		name = xescaped(t->name);
		c = xformat(t->cpus, false);
		e = xformat(l->eff, false);
		s = xformat(iso, false);
		findings_add(need, "thread", "its thread %s may run on CPU "
		    "%s%s%s%s, and the IRQ runs on CPU %s: pinned apart "
		    "(taskset, tuna), it keeps its CPUs until the IRQ moves",
		    name, c, *s ? " (isolated: " : "", s, *s ? ")" : "", e);
		free(name);
		free(c);
		free(e);
		free(s);
		cpuset_free(iso);
	}
}

/* The node of a set none of whose CPUs is local, else -1. */
static int
remote_node(struct machine *m, const struct cpuset *set,
    const struct cpuset *local)
{
	if (cpuset_empty(set) || cpuset_intersects(set, local))
		return -1;
	return machine_cpu_node(m, cpuset_first(set));
}

/*
 * Its device's node has none of the online CPUs it runs on, or none of
 * those it is requested on: an idle IRQ moved off its node still runs on
 * its old CPU, and will cross nodes from its next interrupt on.
 */
static void
find_node(struct machine *m, const struct irqview *v, const struct live *l,
    struct findings *need)
{
	const struct cpuset *local, *on = live_on(l);
	char *s;
	int there;
	/* a move waits: where it runs now is the past, pending says so */
	bool moving = l->eff != NULL && isolation_move_pending(v->req, l->eff);

	if (v->node < 0 || machine_nnodes(m) < 2 ||
	    (local = machine_node(m, v->node)) == NULL)
		return;
	if (!moving && (there = remote_node(m, on, local)) >= 0) {
		s = xformat(on, false);
		findings_add(need, "remote-node", "its device is on node %d, "
		    "and it %s on CPU %s (node %d): each interrupt crosses "
		    "NUMA nodes", v->node, l->eff != NULL ? "runs" :
		    "may run", s, there);
	} else if ((there = remote_node(m, l->req, local)) >= 0) {
		s = xformat(l->req, false);
		findings_add(need, "remote-node", "its device is on node %d, "
		    "and it is requested on CPU %s (node %d): once the move "
		    "applies, each interrupt crosses NUMA nodes", v->node, s,
		    there);
	} else
		return;
	free(s);
}

/* Whether a running irqbalance may move it: it is movable, not banned. */
bool
diagnose_irqbalance_moves(const struct irqbalance *ib,
    const struct irqview *v)
{
	return ib->pid != 0 && v->handled &&
	    !(v->state & (IRQ_MANAGED | IRQ_NOMOVE)) &&
	    !(v->eff != NULL && cpuset_empty(v->eff) && !v->procdirs) &&
	    !irqbalance_bans(ib, v->irq);
}

/*
 * What needs attention goes to need, the detail to info. An IRQ
 * without a handler runs nothing: nothing is said of it.
 */
void
diagnose_irq(struct machine *m, const struct irqbalance *ib,
    const struct isolated *iso, const struct irqview *v,
    struct findings *need, struct findings *info)
{
	struct live l;
	char *h, *r;

	if (!v->handled)
		return;
	live_read(m, v, &l);
	/*
	 * percpu_devid IRQs (arch_timer, arm-pmu): no effective CPU, and no
	 * proc/irq/N/NAME; an IRQ requested as usual has that directory, and
	 * no effective CPU only until it starts
	 */
	if (v->eff != NULL && cpuset_empty(v->eff) && !v->procdirs) {
		findings_add(info, "per-cpu", "a per-CPU interrupt: it fires "
		    "on each CPU, and cannot be moved");
		live_free(&l);
		return;
	}
	if (v->state & IRQ_MANAGED)
		findings_add(info, "managed", "the kernel manages its affinity "
		    "(a queue of a multi-queue device) and refuses to move it");
	find_placement(m, v, &l, need, info);
	/* shut down: x86 parks it on CPU 0, which says nothing of it */
	if (!cpuset_empty(l.req)) {
		find_isolated(iso, v, &l, need, info);
		find_node(m, v, &l, need);
	}
	find_threads(m, iso, v, &l, need);
	if (v->hint != NULL && !cpuset_empty(v->hint) &&
	    !cpuset_equal(v->hint, v->req)) {
		h = xformat(v->hint, false);
		r = xformat(v->req, false);
		findings_add(info, "hint", "its driver suggests CPU %s "
		    "(affinity_hint); %s is requested", h, *r ? r : "none");
		free(h);
		free(r);
	}
	if (v->has_total && v->total == 0 && (l.eff == NULL ||
	    cpuset_subset(l.eff, v->req)))
		findings_add(info, "idle", "has not fired since boot");
	/* one line for them all is the caller's: each is detail */
	if (diagnose_irqbalance_moves(ib, v))
		findings_add(info, "irqbalance", "runs and may move it again; "
		    "--banirq=%u keeps it away", v->irq);
	live_free(&l);
}

