/*
 * isolate --check: whether a set of CPUs is free of interrupts, what
 * runs there and whose it is, and a verdict as the exit status. Writes
 * nothing.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cli.h"
#include "cmd/isolate.h"
#include "core/apply.h"
#include "core/findings.h"
#include "core/irqthread.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

/*
 * With --check: is the IRQ requested or run on the CPUs, and whose is it?
 * A movable IRQ requested elsewhere but last run there has a move pending
 * (x86 without interrupt remapping moves at the next interrupt). One that
 * user space cannot move counts where it runs: a per-CPU IRQ (arm64's
 * timer, PMU, IPIs) has no effective CPU and a request nobody can mend.
 */
void
isolate_check_irq(struct isolate *is, struct entry *e)
{
	enum place place;
	enum movable mv;
	struct perr pe;

	e->from = xcpuset(is->m.nbits);
	if (machine_affinity_read(e->irq, AFF_REQUESTED, e->from, &pe) != 0) {
		warnx("irq %u: %s", e->irq, pe.msg);
		e->kind = K_FAILED;
		is->tl.failed++;
		return;
	}
	if ((e->on = isolation_runs_on(&is->m, e->irq, &e->guessed)) == NULL) {
		e->kind = K_FAILED;
		is->tl.failed++;
		return;
	}
	place = isolation_place(e->from, e->on, is->cpus);
	if (place == PLACE_OFF || !isolation_has_handler(&is->m, e->irq))
		return;
	mv = machine_irq_movable(e->irq);
	if (mv < MOVABLE_MANAGED)
		e->kind = place == PLACE_ON ? K_MOVE : K_PENDING;
	else if (!cpuset_intersects(e->on, is->cpus))
		return;
	else if (isolation_by_kernel(&is->iso) && isolation_all_isolated(&is->iso, e->from))
		e->kind = K_KEPT;
	else
		e->kind = mv == MOVABLE_MANAGED ? K_MANAGED : K_UNMOVABLE;
}

/* An IRQ --check reports: one that runs or may run on the CPUs. */
static bool
on_cpus(const struct entry *e)
{
	return e->kind != K_OFF;
}

/*
 * Handler threads that may run on the CPUs, apart from their IRQ: one
 * that follows its IRQ's effective CPUs (irq_thread_check_affinity())
 * goes where the IRQ's own line says. Only the thread's CPUs change that
 * (taskset), so --accept does not let it pass.
 */
static struct irqthreads threads;

static bool
thread_here(const struct isolate *is, const struct irqthread *t)
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
threads_here(const struct isolate *is)
{
	size_t i, n = 0;

	for (i = 0; i < threads.n; i++)
		n += thread_here(is, &threads.v[i]);
	return n;
}

/* ,"threads":[{"irq":N,"pid":P,"name":"...","cpus":"..."},...] */
static void
json_threads(const struct isolate *is)
{
	const struct irqthread *t;
	const char *sep = "";
	char *c;
	size_t i;

	printf(",\"threads\":[");
	for (i = 0; i < threads.n; i++) {
		t = &threads.v[i];
		if (!thread_here(is, t))
			continue;
		c = xformat(t->cpus, false);
		printf("%s{\"irq\":%u,\"pid\":%d,\"name\":", sep, t->irq,
		    t->pid);
		text_json_string(stdout, t->name);
		printf(",\"cpus\":\"%s\"}", c);
		free(c);
		sep = ",";
	}
	putchar(']');
}

/* irq N thread NAME: pinned apart, may run on CPU LIST */
static void
print_threads(const struct isolate *is)
{
	const struct irqthread *t;
	char *name, *c;
	size_t i;

	for (i = 0; i < threads.n; i++) {
		t = &threads.v[i];
		if (!thread_here(is, t))
			continue;
		name = xescaped(t->name);
		c = xformat(t->cpus, false);
		printf("irq %u thread %s: pinned apart from its IRQ, may run "
		    "on CPU %s\n", t->irq, name, c);
		free(name);
		free(c);
	}
}

/* --check -J: the IRQs on the CPUs, the default, the findings. */
static void
print_json(const struct isolate *is, bool clean, bool fixed)
{
	printf("{\"cpus\":\"%s\",\"isolated\":%s,\"accepted\":%s",
	    is->iso.list, clean ? "true" : "false", clean || fixed ? "true" :
	    "false");
	if (is->dfrom != NULL)
		isolate_json_set(",", "default", is->dfrom);
	json_threads(is);
	isolate_json_irqs(is, "irqs", on_cpus);
}

/* One IRQ of --check's report, after its name. */
static void
print_kind(const struct isolate *is, const struct entry *e)
{
	char *list = xformat(e->on, false), *req = xformat(e->from, false);
	const char *what = machine_movable_words(isolate_movability(e),
	    MV_BRIEF);
	char *on;

	/* an IRQ not started has no effective CPU */
	on = xasprintf("%s%s", *list ? "CPU " : "no CPU", list);
	switch (e->kind) {
	case K_MOVE:
		if (e->guessed)
			printf("movable, may run on %s\n", on);
		else if (cpuset_intersects(e->on, is->cpus))
			printf("movable, on %s\n", on);
		else
			printf("movable, requested CPU %s, on %s\n", req, on);
		break;
	case K_PENDING:
		printf("movable, move pending to CPU %s, on %s%s\n", req, on,
		    vectors_stuck(&is->m, e->from) ?
		    "; no interrupt vector is free there: it cannot complete" :
		    "");
		break;
	case K_KEPT:
		printf("%s, kept on isolated %s (managed_irq)\n",
		    machine_movable_words(machine_irq_movable(e->irq),
		    MV_BRIEF), on);
		break;
	default:
		printf("%s, %s %s\n", what, e->guessed ? "may run on" : "on",
		    on);
		break;
	}
	free(on);
	free(list);
	free(req);
}

/* --check's report: the IRQs on the CPUs, the findings, a verdict. */
static void
print_check(const struct isolate *is, bool clean, bool fixed)
{
	const struct entry *e;
	size_t i;

	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		if (e->kind == K_OFF || e->kind == K_FAILED)
			continue;
		isolate_print_name(e->irq);
		print_kind(is, e);
	}
	print_threads(is);
	for (i = 0; i < is->notes.n; i++)
		printf("%s: %s\n", is->notes.v[i].code, is->notes.v[i].text);
	if (clean)
		printf("CPU %s: isolated from interrupts\n", is->iso.list);
	else if (fixed)
		printf("CPU %s: not isolated from interrupts, but user space "
		    "can do no more\n", is->iso.list);
	else
		printf("CPU %s: not isolated from interrupts\n", is->iso.list);
}

/*
 * Clean: nothing on the CPUs, nothing to put IRQs back there; with
 * fixed, nothing but pending moves and IRQs user space cannot move,
 * which --accept lets pass. An IRQ the kernel keeps on CPUs that
 * isolcpus=managed_irq isolates entirely is no failure.
 */
static bool
is_clean(const struct isolate *is, bool fixed)
{
	enum kind k;
	size_t i;

	for (i = 0; i < is->n; i++) {
		k = is->e[i].kind;
		if (k == K_OFF || k == K_KEPT)
			continue;
		if (!fixed || (k != K_PENDING && k != K_MANAGED &&
		    k != K_UNMOVABLE))
			return false;
	}
	if (is->dfrom == NULL || cpuset_intersects(is->dfrom, is->cpus) ||
	    threads_here(is) > 0)
		return false;
	return isolation_irqbalance_ok(&is->iso);
}

int
isolate_check_run(struct isolate *is)
{
	bool clean, fixed;

	(void)irqthread_load(is->m.nbits, &threads);
	clean = is_clean(is, false);
	fixed = is_clean(is, true);
	if (is->json)
		print_json(is, clean, fixed);
	else if (!is->quiet)
		print_check(is, clean, fixed);
	irqthread_free(&threads);
	return clean || (is->accept && fixed) ? EXIT_OK : EXIT_FAIL;
}
