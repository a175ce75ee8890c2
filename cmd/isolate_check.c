/*
 * isolate --check's report: what runs on the CPUs and whose it is, and
 * the verdict core/isolcheck.c gives, as text or JSON and exit status.
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
#include "core/isolplan.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

/* An IRQ --check reports: one that runs or may run on the CPUs. */
static bool
on_cpus(const struct isoirq *e)
{
	return e->kind != IK_OFF;
}

/* ,"threads":[{"irq":N,"pid":P,"name":"...","cpus":"..."},...] */
static void
json_threads(const struct isoplan *is)
{
	const struct irqthread *t;
	const char *sep = "";
	char *c;
	size_t i;

	printf(",\"threads\":[");
	for (i = 0; i < is->threads.n; i++) {
		t = &is->threads.v[i];
		if (!isoplan_thread_here(is, t))
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
print_threads(const struct isoplan *is)
{
	const struct irqthread *t;
	char *name, *c;
	size_t i;

	for (i = 0; i < is->threads.n; i++) {
		t = &is->threads.v[i];
		if (!isoplan_thread_here(is, t))
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
print_json(const struct isoplan *is, bool clean, bool fixed)
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
print_kind(const struct isoplan *is, const struct isoirq *e)
{
	char *list = xformat(e->on, false), *req = xformat(e->from, false);
	const char *what = machine_movable_words(isoplan_movability(e),
	    MV_BRIEF);
	char *on;

	/* an IRQ not started has no effective CPU */
	on = xasprintf("%s%s", *list ? "CPU " : "no CPU", list);
	switch (e->kind) {
	case IK_MOVE:
		if (e->guessed)
			printf("movable, may run on %s\n", on);
		else if (cpuset_intersects(e->on, is->cpus))
			printf("movable, on %s\n", on);
		else
			printf("movable, requested CPU %s, on %s\n", req, on);
		break;
	case IK_PENDING:
		printf("movable, move pending to CPU %s, on %s%s\n", req, on,
		    e->stuck ?
		    "; no interrupt vector is free there: it cannot complete" :
		    "");
		break;
	case IK_KEPT:
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
print_check(const struct isoplan *is, bool clean, bool fixed)
{
	const struct isoirq *e;
	size_t i;

	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		if (e->kind == IK_OFF || e->kind == IK_FAILED)
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

/* --check's report, and the verdict as the exit status. */
int
isolate_check_run(struct isolate *is)
{
	bool clean, fixed;

	clean = isoplan_clean(&is->p, false);
	fixed = isoplan_clean(&is->p, true);
	if (is->json)
		print_json(&is->p, clean, fixed);
	else if (!is->quiet)
		print_check(&is->p, clean, fixed);
	return clean || (is->accept && fixed) ? EXIT_OK : EXIT_FAIL;
}
