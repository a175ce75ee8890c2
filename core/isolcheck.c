/*
 * isolate --check's decisions: what each IRQ is against the CPUs, which
 * handler threads may run there apart from their IRQ, and the verdict.
 */
#include <err.h>
#include <stdlib.h>

#include "core/apply.h"
#include "core/irqthread.h"
#include "core/isolation.h"
#include "core/isolplan.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "parse.h"

/*
 * With --check: is the IRQ requested or run on the CPUs, and whose is it?
 * A movable IRQ requested elsewhere but last run there has a move pending
 * (x86 without interrupt remapping moves at the next interrupt). One that
 * user space cannot move counts where it runs: a per-CPU IRQ (arm64's
 * timer, PMU, IPIs) has no effective CPU and a request nobody can mend.
 */
void
isoplan_check_irq(struct isoplan *is, struct isoirq *e)
{
	enum place place;
	enum movable mv;
	struct perr pe;

	e->from = xcpuset(is->m.nbits);
	if (machine_affinity_read(e->irq, AFF_REQUESTED, e->from, &pe) != 0) {
		warnx("irq %u: %s", e->irq, pe.msg);
		e->kind = IK_FAILED;
		is->tl.failed++;
		return;
	}
	if ((e->on = isolation_runs_on(&is->m, e->irq, &e->guessed)) == NULL) {
		e->kind = IK_FAILED;
		is->tl.failed++;
		return;
	}
	place = isolation_place(e->from, e->on, is->cpus);
	if (place == PLACE_OFF || !isolation_has_handler(&is->m, e->irq))
		return;
	mv = machine_irq_movable(e->irq);
	if (mv < MOVABLE_MANAGED) {
		e->kind = place == PLACE_ON ? IK_MOVE : IK_PENDING;
		e->stuck = e->kind == IK_PENDING &&
		    vectors_stuck_in(&is->vec, &is->m, e->from);
	} else if (!cpuset_intersects(e->on, is->cpus))
		return;
	else if (isolation_by_kernel(&is->iso) &&
	    isolation_all_isolated(&is->iso, e->from))
		e->kind = IK_KEPT;
	else
		e->kind = mv == MOVABLE_MANAGED ? IK_MANAGED : IK_UNMOVABLE;
}

/*
 * A handler thread that may run on the CPUs, apart from its IRQ: one
 * that follows its IRQ's effective CPUs (irq_thread_check_affinity())
 * goes where the IRQ's own line says. Only the thread's CPUs change that
 * (taskset), so --accept does not let it pass.
 */
bool
isoplan_thread_here(const struct isoplan *is, const struct irqthread *t)
{
	size_t i;

	if (t->cpus == NULL || !cpuset_intersects(t->cpus, is->cpus))
		return false;
	for (i = 0; i < is->n; i++)
		if (is->e[i].irq == t->irq)
			return is->e[i].on == NULL || !irqthread_follows(t,
			    is->e[i].on, is->m.online);
	return true;
}

static size_t
threads_here(const struct isoplan *is)
{
	size_t i, n = 0;

	for (i = 0; i < is->threads.n; i++)
		n += isoplan_thread_here(is, &is->threads.v[i]);
	return n;
}

/*
 * Clean: nothing on the CPUs, nothing to put IRQs back there; with
 * fixed, nothing but pending moves and IRQs user space cannot move,
 * which --accept lets pass. An IRQ the kernel keeps on CPUs that
 * isolcpus=managed_irq isolates entirely is no failure.
 */
bool
isoplan_clean(const struct isoplan *is, bool fixed)
{
	enum isokind k;
	size_t i;

	for (i = 0; i < is->n; i++) {
		k = is->e[i].kind;
		if (k == IK_OFF || k == IK_KEPT)
			continue;
		if (!fixed || (k != IK_PENDING && k != IK_MANAGED &&
		    k != IK_UNMOVABLE))
			return false;
	}
	if (is->dfrom == NULL || cpuset_intersects(is->dfrom, is->cpus) ||
	    threads_here(is) > 0)
		return false;
	return isolation_irqbalance_ok(&is->iso);
}
