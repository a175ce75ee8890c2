/*
 * isolate's plan, read whole before the first write: each IRQ on the CPUs
 * to keep free, the default affinity and every rps_cpus lose them, and
 * what the kernel keeps there is noted.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/apply.h"
#include "core/findings.h"
#include "core/isolation.h"
#include "core/isolplan.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

/*
 * The CPUs to keep free, from arg: they must leave an online CPU for
 * everything else. What else bears on them is read here too, before
 * anything is planned. -1 with pe set for bad input.
 */
int
isoplan_cpus(struct isoplan *is, const char *arg, int flags,
    struct perr *pe)
{
	is->cpus = xcpuset(is->m.nbits);
	if (machine_cpus(&is->m, arg, flags | CPUS_NONEMPTY | CPUS_MOPT,
	    is->cpus, pe) != 0)
		return -1;
	isolation_load(&is->iso, &is->m, is->cpus);
	if (cpuset_empty(is->iso.house))
		return perr_set(pe, EINVAL, "CPU %s \"%s\": leaves no online "
		    "CPU for interrupts", flags & CPUS_MASK ? "mask" : "list",
		    text_quoted(arg));
	return 0;
}

/* An IRQ user space cannot move: where it runs, if on the CPUs. */
static void
plan_managed(struct isoplan *is, struct isoirq *e, enum isokind kind)
{
	struct cpuset *req = xcpuset(is->m.nbits);
	struct perr pe;

	e->kind = kind;
	e->on = isolation_runs_on(&is->m, e->irq, &e->guessed);
	if (e->on != NULL && (!cpuset_intersects(e->on, is->cpus) ||
	    !isolation_has_handler(&is->m, e->irq))) {
		cpuset_free(e->on);
		e->on = NULL;
	}
	e->kept = e->on != NULL && isolation_by_kernel(&is->iso) &&
	    machine_affinity_read(e->irq, AFF_REQUESTED, req, &pe) == 0 &&
	    isolation_all_isolated(&is->iso, req);
	cpuset_free(req);
}

/*
 * The new affinity of an IRQ on the CPUs: the rest of its own CPUs, or
 * none yet when none of them is online (isoplan_place() then).
 */
static void
plan_irq(struct isoplan *is, struct isoirq *e)
{
	struct perr pe;
	enum movable mv;

	if (machine_irq_state(e->irq) & IRQ_MANAGED) {
		plan_managed(is, e, IK_MANAGED);
		return;
	}
	e->from = xcpuset(is->m.nbits);
	if (machine_affinity_read(e->irq, AFF_REQUESTED, e->from, &pe) != 0) {
		warnx("irq %u: %s", e->irq, pe.msg);
		e->kind = IK_FAILED;
		apply_tally_add(&is->tl, &(struct target){ .irq = e->irq,
		    .err = perr_errno(&pe), .msg = pe.msg }, APPLY_FAILED);
		return;
	}
	if (!cpuset_intersects(e->from, is->cpus))
		return;
	/* without debugfs the kernel is asked, for the IRQs on the CPUs */
	if ((mv = machine_irq_movable(e->irq)) >= MOVABLE_MANAGED) {
		cpuset_free(e->from);
		e->from = NULL;
		plan_managed(is, e, mv == MOVABLE_MANAGED ? IK_MANAGED :
		    IK_UNMOVABLE);
		return;
	}
	e->kind = IK_MOVE;
	e->to = xcpudup(e->from);
	cpuset_andnot(e->to, is->cpus);
	if (!cpuset_intersects(e->to, is->m.online)) {
		cpuset_free(e->to);
		e->to = NULL;
	}
}

static void
plan_default(struct isoplan *is)
{
	struct perr pe;

	is->dfrom = xcpuset(is->m.nbits);
	if (machine_default_read(is->dfrom, &pe) != 0) {
		warnx("%s", pe.msg);
		cpuset_free(is->dfrom);
		is->dfrom = NULL;
		apply_tally_add(&is->tl, &(struct target){ .irq = -1,
		    .err = perr_errno(&pe), .msg = pe.msg }, APPLY_FAILED);
		return;
	}
	is->dto = xcpudup(is->dfrom);
	cpuset_andnot(is->dto, is->cpus);
	if (!cpuset_intersects(is->dto, is->m.online))
		cpuset_copy(is->dto, is->iso.house);
}

/* An interface whose XPS names the CPUs: left, and said (isolate(8)). */
static void
note_xps(struct isoplan *is, const struct netif *nif)
{
	struct cpuset *on = xcpuset(is->m.nbits);
	char *list;
	size_t k, nx;

	for (k = nx = 0; k < nif->nq; k++)
		if (nif->q[k].kind == NQ_TX && nif->q[k].cpus != NULL &&
		    cpuset_intersects(nif->q[k].cpus, is->cpus)) {
			cpuset_or(on, nif->q[k].cpus);
			nx++;
		}
	cpuset_and(on, is->cpus);
	if (nx > 0) {
		list = xformat(on, false);
		is->xps_notes = xreallocarray(is->xps_notes,
		    is->nxps_notes + 1, sizeof(*is->xps_notes));
		is->xps_notes[is->nxps_notes++] = xasprintf("note: %s: the "
		    "XPS of %zu tx queue%s names CPU %s, left as it is: it "
		    "says where tasks there send, and interrupts no CPU "
		    "(irqaff xps changes it)", text_quoted(nif->name), nx,
		    nx == 1 ? "" : "s", list);
		free(list);
	}
	cpuset_free(on);
}

/* A receive queue whose rps_cpus names the CPUs, or cannot be read. */
static void
plan_rxq(struct isoplan *is, const struct netif *nif,
    const struct netqueue *q)
{
	char rel[PATH_MAX], label[NAME_MAX + 40];
	struct rpsq *r;

	netqueue_path(nif, q, rel, sizeof(rel));
	if (q->cpus == NULL) {
		netqueue_name(q, label, sizeof(label));
		warnc(-q->err, "%s %s", text_quoted(nif->name), label);
		apply_tally_add(&is->tl, &(struct target){ .irq = APPLY_NOIRQ,
		    .err = -q->err }, APPLY_FAILED);
		return;
	}
	is->rq = xreallocarray(is->rq, is->nrq + 1, sizeof(*is->rq));
	r = &is->rq[is->nrq++];
	r->dev = xstrdup(nif->name);
	netqueue_name(q, r->queue, sizeof(r->queue));
	r->rel = xstrdup(rel);
	r->from = xcpudup(q->cpus);
	r->to = xcpudup(q->cpus);
	cpuset_andnot(r->to, is->cpus);
}

/*
 * The receive queues whose rps_cpus name the CPUs: RPS would send them
 * the network stack's work (an IPI and NET_RX) for what others receive.
 * isolcpus= drops its CPUs from rps_cpus when the file is written
 * (net/core/net-sysfs.c rps_cpumask_housekeeping()); isolate drops its
 * own, and RPS left with no CPU is off. A queue whose mask cannot be
 * read fails here, before the first write.
 */
static void
plan_rps(struct isoplan *is)
{
	char **names;
	struct netif nif;
	struct netqueue *q;
	size_t n, i, k;

	if (netqueue_ifnames(&names, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (netqueue_ifread_quiet(&is->m, names[i], &nif) != 0)
			continue;
		note_xps(is, &nif);
		for (k = 0; k < nif.nq; k++) {
			q = &nif.q[k];
			if (q->kind == NQ_RX && (q->cpus == NULL ||
			    cpuset_intersects(q->cpus, is->cpus)))
				plan_rxq(is, &nif, q);
		}
		netqueue_iffree(&nif);
	}
	procfs_dir_free(names, n);
}

/*
 * Every IRQ read before the first write: 0, or select_all()'s error.
 * With check, what each IRQ is (isoplan_check_irq()); else what becomes
 * of it, of the default and of RPS.
 */
int
isoplan_make(struct isoplan *is)
{
	struct irqs irqs = { 0 };
	size_t i;
	int rc;

	if ((rc = select_all(&irqs)) != 0)
		return rc;
	is->e = xcalloc(irqs.n + 1, sizeof(*is->e));
	is->n = irqs.n;
	for (i = 0; i < irqs.n; i++) {
		is->e[i].irq = irqs.v[i];
		if (is->check)
			isoplan_check_irq(is, &is->e[i]);
		else
			plan_irq(is, &is->e[i]);
	}
	select_free(&irqs);
	plan_default(is);
	if (!is->check) {
		isoplan_place(is);
		plan_rps(is);
	} else
		(void)irqthread_load(is->m.nbits, &is->threads);
	return 0;
}

/*
 * After a move: a refusal is the kernel's, and it may keep the IRQ on
 * the CPUs; then where it runs there is noted.
 */
void
isoplan_after(struct isoplan *is, struct isoirq *e)
{
	if ((e->result == APPLY_MANAGED || e->result == APPLY_UNMOVABLE) &&
	    (e->on = isolation_runs_on(&is->m, e->irq, &e->guessed)) !=
	    NULL && !cpuset_intersects(e->on, is->cpus)) {
		cpuset_free(e->on);
		e->on = NULL;
	}
}

/* Then RPS, as the IRQs: each queue's mask without the CPUs. */
void
isoplan_apply_rps(struct isoplan *is)
{
	char label[NAME_MAX + 80];
	size_t i;

	for (i = 0; i < is->nrq; i++) {
		snprintf(label, sizeof(label), "rps %s %s",
		    text_quoted(is->rq[i].dev), is->rq[i].queue);
		if (is->tl.stop || is->tq.stop)
			apply_tally_skip(&is->tq, APPLY_NOIRQ,
			    is->rq[i].to);
		else
			apply_mask(&is->m, label, is->rq[i].rel, is->rq[i].to,
			    is->flags, &is->tq);
	}
}

/* The moves checked against the CPUs' vectors; false: nothing written. */
bool
isoplan_fits(struct isoplan *is)
{
	struct change *c = xcalloc(is->n + 1, sizeof(*c));
	size_t i, n = 0;
	bool ok;

	for (i = 0; i < is->n; i++)
		if (is->e[i].kind == IK_MOVE)
			c[n++] = (struct change){ is->e[i].irq, is->e[i].to,
			    false };
	ok = apply_vectors(&is->m, c, n, &is->tl);
	free(c);
	return ok;
}

/* What the kind says of its movability, for its words. */
enum movable
isoplan_movability(const struct isoirq *e)
{
	return e->kind == IK_MANAGED ? MOVABLE_MANAGED : MOVABLE_NO;
}

/* The kind as -J names it. */
const char *
isoplan_kind_name(const struct isoirq *e)
{
	static const char *const names[] = {
		[IK_MOVE] = "movable", [IK_MANAGED] = "managed",
		[IK_UNMOVABLE] = "unmovable", [IK_PENDING] = "pending",
		[IK_KEPT] = "isolated",
	};

	if (e->kept)
		return "isolated";
	if (e->result == APPLY_UNMOVABLE)
		return "unmovable";
	if ((size_t)e->kind < nitems(names) && names[e->kind] != NULL)
		return names[e->kind];
	return "unknown";
}

/* The kernel keeps it on the CPUs; debugfs said it manages it. */
bool
isoplan_managed_here(const struct isoirq *e)
{
	return (e->kind == IK_MANAGED || e->result == APPLY_MANAGED) &&
	    e->on != NULL && !e->kept;
}

/* The kernel keeps it on the CPUs and does not say why. */
bool
isoplan_unmovable_here(const struct isoirq *e)
{
	return (e->kind == IK_UNMOVABLE || e->result == APPLY_UNMOVABLE) &&
	    e->on != NULL && !e->kept;
}

/* The kernel keeps it there: as above, or kept (isolcpus=managed_irq). */
bool
isoplan_stuck_here(const struct isoirq *e)
{
	return isoplan_managed_here(e) || isoplan_unmovable_here(e) ||
	    e->kept;
}

/* Where the IRQs that test says of run on the CPUs: owned. */
static struct cpuset *
where(const struct isoplan *is, bool (*test)(const struct isoirq *))
{
	struct cpuset *on = xcpuset(is->m.nbits);
	size_t i;

	for (i = 0; i < is->n; i++)
		if (test(&is->e[i]))
			cpuset_or(on, is->e[i].on);
	cpuset_and(on, is->cpus);
	return on;
}

/* The findings, each naming only the CPUs it is about. */
void
isoplan_notes(struct isoplan *is)
{
	struct cpuset *on;
	char *from, *list;

	if (is->check && is->dfrom != NULL &&
	    cpuset_intersects(is->dfrom, is->cpus)) {
		from = xformat(is->dfrom, false);
		on = xcpudup(is->dfrom);
		cpuset_and(on, is->cpus);
		list = xformat(on, false);
		findings_add(&is->notes, "default", "default_smp_affinity "
		    "%s includes CPU %s: new IRQs start there", from, list);
		free(list);
		cpuset_free(on);
		free(from);
	}
	/* no isolcpus=managed_irq advice: it may not be managed */
	on = where(is, isoplan_unmovable_here);
	if (!cpuset_empty(on)) {
		list = xformat(on, false);
		findings_add(&is->notes, "unmovable", "IRQs that user space "
		    "cannot move run on CPU %s: kernel-managed, per-CPU or "
		    "no-balancing, which the kernel does not say without irq "
		    "debugfs", list);
		free(list);
	}
	cpuset_free(on);
	on = where(is, isoplan_managed_here);
	isolation_notes(&is->iso, on, &is->notes);
	cpuset_free(on);
}

void
isoplan_free(struct isoplan *is)
{
	size_t i;

	for (i = 0; i < is->n; i++) {
		cpuset_free(is->e[i].from);
		cpuset_free(is->e[i].to);
		cpuset_free(is->e[i].on);
	}
	free(is->e);
	for (i = 0; i < is->nrq; i++) {
		free(is->rq[i].dev);
		free(is->rq[i].rel);
		cpuset_free(is->rq[i].from);
		cpuset_free(is->rq[i].to);
	}
	free(is->rq);
	for (i = 0; i < is->nxps_notes; i++)
		free(is->xps_notes[i]);
	free(is->xps_notes);
	cpuset_free(is->cpus);
	cpuset_free(is->dfrom);
	cpuset_free(is->dto);
	findings_free(&is->notes);
	apply_tally_free(&is->tl);
	apply_tally_free(&is->tq);
	vectors_free(&is->vec);
	isolation_free(&is->iso);
	irqthread_free(&is->threads);
	machine_free(&is->m);
}
