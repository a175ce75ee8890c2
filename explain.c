/*
 * explain: why an IRQ runs where it runs, in findings a sysadmin can act
 * on: the kernel owns it, a move waits, a CPU is offline or isolated, the
 * device is on another node, the driver or irqbalance wants otherwise.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "findings.h"
#include "irqbalance.h"
#include "irqinfo.h"
#include "select.h"
#include "xalloc.h"

static int explain_main(int, char *[]);
static void explain_help(FILE *);

const struct command explain_command = {
	"explain", explain_main, "say why IRQs run where they run",
	"[-vJ] [irqs]",
	"  -v, --verbose  also list the IRQs with nothing to explain\n"
	"  -J, --json     print the findings as JSON\n",
	explain_help
};

static const struct option explain_opts[] = {
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void
explain_help(FILE *fp)
{
	fprintf(fp, "\nFinding codes: managed, pending, single-target, "
	    "offline, no-online, isolated,\nremote-node, hint, idle, "
	    "irqbalance. explain exits with 0 when no IRQ has a\nfinding "
	    "other than single-target, else 1.\n");
}

/* What is known of one IRQ; the sets are owned, NULL when unknown. */
struct irqview {
	unsigned int		 irq;
	int			 state;		/* irq_state() */
	int			 node;
	struct cpuset		*req, *eff, *hint;
	bool			 has_total;
	unsigned long long	 total;
};

struct explain {
	struct machine		 m;
	struct irqbalance	 ib;
	bool			 json, verbose;
	int			 status;
};

static void
view_free(struct irqview *v)
{
	cpuset_free(v->req);
	cpuset_free(v->eff);
	cpuset_free(v->hint);
}

/* An affinity file, or NULL: missing is unknown, unreadable is said. */
static struct cpuset *
read_aff(struct explain *ex, unsigned int irq, enum affinity what)
{
	struct cpuset *set = xcpuset(ex->m.nbits);
	struct perr pe;
	int rc;

	if ((rc = affinity_read(irq, what, set, &pe)) == 0)
		return set;
	if (rc != -ENOENT || what == AFF_REQUESTED) {
		warnx("irq %u: %s", irq, pe.msg);
		ex->status = EXIT_FAIL;
	}
	cpuset_free(set);
	return NULL;
}

static int
view_read(struct explain *ex, unsigned int irq, struct irqview *v)
{
	struct irqinfo in;

	memset(v, 0, sizeof(*v));
	v->irq = irq;
	if ((v->req = read_aff(ex, irq, AFF_REQUESTED)) == NULL)
		return -1;
	v->eff = read_aff(ex, irq, AFF_EFFECTIVE);
	v->hint = read_aff(ex, irq, AFF_HINT);
	v->state = irq_state(irq);
	v->node = irq_node(irq);
	if (irqinfo_read(&ex->m, irq, INFO_TOTAL, &in) == 0) {
		v->has_total = in.has_total;
		v->total = in.total;
		irqinfo_free(&in);
	}
	return 0;
}

/* The totals sys/kernel/irq did not give, from one read of proc/interrupts. */
static void
fill_totals(struct irqview *v, size_t n)
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

/* "CPU 3" or "CPU 0-3": a set as the sentences name it. */
static char *
cpus(const struct cpuset *set)
{
	return xformat(set, false);
}

static void
find_placement(struct explain *ex, const struct irqview *v,
    struct findings *f)
{
	struct cpuset *off, *online;
	char *r, *e = NULL, *o;

	r = cpus(v->req);
	online = xcpudup(v->req);
	cpuset_and(online, ex->m.online);
	if (v->eff != NULL)
		e = cpus(v->eff);
	if (v->eff != NULL && !cpuset_empty(v->eff) &&
	    !cpuset_empty(online) && !cpuset_subset(v->eff, v->req))
		findings_add(f, "pending", "runs on CPU %s, outside the "
		    "requested %s; %s", e, r, v->state & IRQ_PENDING ?
		    "debugfs shows the move waiting for its next interrupt" :
		    "on x86 a move waits for the next interrupt, or the "
		    "kernel found no free vector there");
	else if (v->eff != NULL && cpuset_count(v->eff) == 1 &&
	    cpuset_count(online) > 1)
		findings_add(f, "single-target", "%s requested, delivered to "
		    "CPU %s only: x86 interrupt controllers in physical mode "
		    "deliver to one CPU of the set; this is normal", r, e);
	off = xcpudup(v->req);
	cpuset_andnot(off, ex->m.online);
	o = cpus(off);
	if (cpuset_empty(online))
		findings_add(f, "no-online", "no requested CPU (%s) is online: "
		    "the kernel uses its default affinity", *r ? r : "none");
	else if (!cpuset_empty(off))
		findings_add(f, "offline", "requested CPU %s %s offline", o,
		    cpuset_count(off) == 1 ? "is" : "are");
	cpuset_free(off);
	cpuset_free(online);
	free(o);
	free(r);
	free(e);
}

static void
find_isolated(struct explain *ex, const struct irqview *v,
    struct findings *f)
{
	struct cpuset *iso = xcpudup(v->eff != NULL ? v->eff : v->req);
	char *s;

	cpuset_and(iso, ex->m.isolated);
	if (!cpuset_empty(iso)) {
		s = cpus(iso);
		findings_add(f, "isolated", "%s on CPU %s, isolated "
		    "(isolcpus or nohz_full)", v->eff != NULL ? "runs" :
		    "may run", s);
		free(s);
	}
	cpuset_free(iso);
}

/* Its device's node has none of the CPUs it runs on. */
static void
find_node(struct explain *ex, const struct irqview *v, struct findings *f)
{
	const struct cpuset *local;
	const struct cpuset *on = v->eff != NULL ? v->eff : v->req;
	char *s;
	int there;

	if (v->node < 0 || machine_nnodes(&ex->m) < 2 || cpuset_empty(on) ||
	    (local = machine_node(&ex->m, v->node)) == NULL ||
	    cpuset_intersects(on, local))
		return;
	there = machine_cpu_node(&ex->m, cpuset_first(on));
	s = cpus(on);
	findings_add(f, "remote-node", "its device is on node %d, and it %s "
	    "on CPU %s (node %d): each interrupt crosses NUMA nodes",
	    v->node, v->eff != NULL ? "runs" : "may run", s, there);
	free(s);
}

static void
find_all(struct explain *ex, const struct irqview *v, struct findings *f)
{
	char *h, *r;

	if (v->state & IRQ_MANAGED)
		findings_add(f, "managed", "the kernel manages its affinity "
		    "(a queue of a multi-queue device) and refuses to move it");
	find_placement(ex, v, f);
	find_isolated(ex, v, f);
	find_node(ex, v, f);
	if (v->hint != NULL && !cpuset_empty(v->hint) &&
	    !cpuset_equal(v->hint, v->req)) {
		h = cpus(v->hint);
		r = cpus(v->req);
		findings_add(f, "hint", "its driver suggests CPU %s "
		    "(affinity_hint); %s is requested", h, *r ? r : "none");
		free(h);
		free(r);
	}
	if (v->has_total && v->total == 0)
		findings_add(f, "idle", "has not fired since boot: where a "
		    "move waits for the next interrupt, its affinity is not "
		    "applied yet");
	if (ex->ib.pid != 0 && !(v->state & IRQ_MANAGED) &&
	    !irqbalance_bans(&ex->ib, v->irq))
		findings_add(f, "irqbalance", "runs and may move it again; "
		    "--banirq=%u keeps it away", v->irq);
}

/* Whether a finding asks for attention: single-target does not. */
static bool
matters(const struct findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].code, "single-target") != 0)
			return true;
	return false;
}

static void
print_text(const struct explain *ex, const struct irqview *v,
    const struct findings *f)
{
	char *raw, *name, *r, *e;
	size_t i;

	if (f->n == 0 && !ex->verbose)
		return;
	raw = irq_names(v->irq);
	if ((name = escaped(raw)) == NULL)
		err(1, NULL);
	for (i = 0; i < f->n; i++)
		printf("irq %u%s%s: %s: %s\n", v->irq, *name ? " " : "", name,
		    f->v[i].code, f->v[i].text);
	if (f->n == 0) {
		r = cpus(v->req);
		e = v->eff != NULL ? cpus(v->eff) : NULL;
		/* an empty effective set: the IRQ is not started */
		printf("irq %u%s%s: ok: %s requested%s%s\n", v->irq,
		    *name ? " " : "", name, *r ? r : "none",
		    e == NULL ? "" : *e ? ", runs on CPU " : ", runs on no CPU "
		    "yet (no effective affinity: not started)",
		    e != NULL ? e : "");
		free(r);
		free(e);
	}
	free(name);
	free(raw);
}

static void
print_json(const struct irqview *v, const struct findings *f, bool first)
{
	char *name = irq_names(v->irq), *s;

	printf("%s{\"irq\":%u,\"name\":", first ? "" : ",", v->irq);
	json_string(stdout, name);
	s = cpus(v->req);
	printf(",\"requested\":\"%s\"", s);
	free(s);
	if (v->eff != NULL) {
		s = cpus(v->eff);
		printf(",\"effective\":\"%s\"", s);
		free(s);
	}
	printf(",\"findings\":");
	findings_json(stdout, f);
	putchar('}');
	free(name);
}

static int
explain_irqs(struct explain *ex, const struct irqs *irqs)
{
	struct irqview *v;
	struct findings f = { NULL, 0 };
	size_t i, shown = 0;
	bool attention = false;

	v = xcalloc(irqs->n, sizeof(*v));
	for (i = 0; i < irqs->n; i++)
		view_read(ex, irqs->v[i], &v[i]);
	fill_totals(v, irqs->n);
	if (ex->json)
		printf("{\"irqs\":[");
	for (i = 0; i < irqs->n; i++) {
		if (v[i].req == NULL)
			continue;
		find_all(ex, &v[i], &f);
		attention |= matters(&f);
		if (ex->json)
			print_json(&v[i], &f, shown++ == 0);
		else
			print_text(ex, &v[i], &f);
		findings_free(&f);
	}
	if (ex->json)
		printf("]}\n");
	for (i = 0; i < irqs->n; i++)
		view_free(&v[i]);
	free(v);
	if (ex->status != EXIT_OK)
		return ex->status;
	return attention ? EXIT_FAIL : EXIT_OK;
}

static int
explain_main(int argc, char *argv[])
{
	struct explain ex;
	struct irqs irqs = { NULL, 0 };
	int ch, status;

	memset(&ex, 0, sizeof(ex));
	while ((ch = getopts(argc, argv, &explain_command, "vJ",
	    explain_opts)) != -1) {
		switch (ch) {
		case 'v':
			ex.verbose = true;
			break;
		case 'J':
			ex.json = true;
			break;
		}
	}
	if (argc - optind > 1)
		return usage_error(&explain_command,
		    "expected at most one IRQ list");
	if (machine_load(&ex.m) != 0)
		return EXIT_FAIL;
	status = exit_status(argc - optind == 1 ?
	    irqs_select(argv[optind], &irqs) : irqs_all(&irqs));
	if (status == EXIT_OK) {
		irqbalance_load(&ex.m, &ex.ib);
		status = explain_irqs(&ex, &irqs);
	}
	irqs_free(&irqs);
	irqbalance_free(&ex.ib);
	machine_free(&ex.m);
	return status;
}
