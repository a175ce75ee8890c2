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

#include "cmd/commands.h"
#include "cmd/columns.h"
#include "core/findings.h"
#include "core/irqbalance.h"
#include "core/irqinfo.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

static int explain_main(int, char *[]);
static void explain_help(FILE *);

const struct command explain_command = {
	.name = "explain",
	.main = explain_main,
	.summary = "say why IRQs run where they run",
	.synopsis = "[-vJ] [irqs ...]",
	.options =
	    "  -v, --verbose  also print the detail and the IRQs with nothing to explain\n"
	    "  -J, --json     print the findings as JSON\n",
	.more_help = explain_help,
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
	fprintf(fp, "\nFindings that need attention: pending, no-online, "
	    "isolated, remote-node,\nirqbalance; explain exits with 1 when "
	    "an IRQ has one, else 0. With -v, or for\nthe IRQs named: "
	    "per-cpu, managed, shutdown, offline, single-target, hint,\n"
	    "idle too.\n");
}

/* What is known of one IRQ; the sets are owned, NULL when unknown. */
struct irqview {
	unsigned int		 irq;
	int			 state;	/* machine_irq_state() */
	int			 node;
	struct cpuset		*req, *eff, *hint;
	bool			 has_total, handled;
	bool			 procdirs;	/* its actions have proc/irq/N/NAME */
	unsigned long long	 total;
	char			*chip;		/* NULL when unknown */
	char			*names;		/* sys/kernel/irq/N/actions */
};

struct explain {
	struct machine		 m;
	struct irqbalance	 ib;
	bool			 json, verbose;
	bool			 detail;	/* -v, or IRQs named */
	int			 status;
};

static void
view_free(struct irqview *v)
{
	cpuset_free(v->req);
	cpuset_free(v->eff);
	cpuset_free(v->hint);
	free(v->chip);
	free(v->names);
}

/* Its action names: proc/irq/N/NAME, else sys/kernel/irq's (per-CPU). */
static char *
view_names(const struct irqview *v)
{
	char *name = select_names(v->irq);

	if (*name == '\0' && v->names != NULL) {
		free(name);
		name = xstrdup(v->names);
	}
	return name;
}

/* An affinity file, or NULL: missing is unknown, unreadable is said. */
static struct cpuset *
read_aff(struct explain *ex, unsigned int irq, enum affinity what)
{
	struct cpuset *set = xcpuset(ex->m.nbits);
	struct perr pe;
	int rc;

	if ((rc = machine_affinity_read(irq, what, set, &pe)) == 0)
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
	char **names;
	size_t n;

	memset(v, 0, sizeof(*v));
	v->irq = irq;
	if ((v->req = read_aff(ex, irq, AFF_REQUESTED)) == NULL)
		return -1;
	v->eff = read_aff(ex, irq, AFF_EFFECTIVE);
	v->hint = read_aff(ex, irq, AFF_HINT);
	v->state = machine_irq_state(irq);
	/* without debugfs the kernel is asked, as every command asks it */
	if (!(v->state & IRQ_KNOWN) &&
	    machine_irq_movable(irq) == MOVABLE_MANAGED)
		v->state |= IRQ_MANAGED;
	v->node = machine_irq_node(irq);
	if (irqinfo_read(&ex->m, irq, INFO_TOTAL | INFO_CHIP | INFO_NAMES,
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
live_read(const struct explain *ex, const struct irqview *v, struct live *l)
{
	l->req = xcpudup(v->req);
	cpuset_and(l->req, ex->m.online);
	l->eff = NULL;
	if (v->eff != NULL && cpuset_intersects(v->eff, ex->m.online)) {
		l->eff = xcpudup(v->eff);
		cpuset_and(l->eff, ex->m.online);
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
 * A move not applied yet. One that waits for the first interrupt of an
 * IRQ that never fired is the kernel's normal course (virtio_net places
 * its queues so at probe): detail, not attention, unless it is still on
 * an isolated CPU, which isolate --check does not let pass either.
 */
static void
find_pending(const struct irqview *v, const struct live *l, bool isolated,
    struct findings *need, struct findings *info)
{
	const char *by = deferred_by(v->chip);
	bool idle = v->has_total && v->total == 0;
	struct findings *to = idle && !isolated ? info : need;
	char *r, *e;

	r = xformat(v->req, false);
	e = xformat(l->eff, false);
	if (v->state & IRQ_PENDING)
		findings_add(to, "pending", "runs on CPU %s, "
		    "outside the requested %s: debugfs shows the move "
		    "waiting for its next interrupt%s", e, r, idle ? ", and "
		    "it has not fired since boot" : "");
	else if (by != NULL)
		findings_add(to, "pending", "runs on CPU %s, "
		    "outside the requested %s: its %s controller applies a "
		    "move at the next interrupt%s", e, r, by, idle ? ", and "
		    "it has not fired since boot" : "");
	else
		findings_add(need, "pending", "runs on CPU %s, outside the "
		    "requested %s: the kernel has not applied the move%s",
		    e, r, idle ? "; it has not fired since boot" : "");
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
find_offline(struct explain *ex, const struct irqview *v,
    const struct live *l, struct findings *need, struct findings *info)
{
	struct cpuset *off = xcpudup(v->req);
	char *r, *o;

	cpuset_andnot(off, ex->m.online);
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
	else if (!cpuset_empty(off) && !cpuset_subset(ex->m.online, v->req))
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
find_placement(struct explain *ex, const struct irqview *v,
    const struct live *l, struct findings *need, struct findings *info)
{
	char *r, *e;

	find_offline(ex, v, l, need, info);
	if (cpuset_empty(l->req) || l->eff == NULL)
		return;
	if (isolation_move_pending(v->req, l->eff))
		find_pending(v, l, isolation_place(l->req, l->eff,
		    ex->m.isolated) == PLACE_PENDING, need, info);
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

static void
find_isolated(struct explain *ex, const struct irqview *v,
    const struct live *l, struct findings *need, struct findings *info)
{
	struct cpuset *iso;
	char *s;

	/* requested off them but still there: pending says so */
	if (l->eff != NULL && isolation_place(l->req, l->eff,
	    ex->m.isolated) == PLACE_PENDING)
		return;
	iso = xcpudup(live_on(l));
	cpuset_and(iso, ex->m.isolated);
	if (!cpuset_empty(iso)) {
		s = xformat(iso, false);
		/* a managed queue of an isolated CPU serves only that CPU */
		findings_add(v->state & IRQ_MANAGED ? info : need, "isolated",
		    "%s on CPU %s, isolated (isolcpus or nohz_full)",
		    l->eff != NULL ? "runs" : "may run", s);
		free(s);
	}
	cpuset_free(iso);
}

/* The node of a set none of whose CPUs is local, else -1. */
static int
remote_node(struct explain *ex, const struct cpuset *set,
    const struct cpuset *local)
{
	if (cpuset_empty(set) || cpuset_intersects(set, local))
		return -1;
	return machine_cpu_node(&ex->m, cpuset_first(set));
}

/*
 * Its device's node has none of the online CPUs it runs on, or none of
 * those it is requested on: an idle IRQ moved off its node still runs on
 * its old CPU, and will cross nodes from its next interrupt on.
 */
static void
find_node(struct explain *ex, const struct irqview *v, const struct live *l,
    struct findings *need)
{
	const struct cpuset *local, *on = live_on(l);
	char *s;
	int there;

	if (v->node < 0 || machine_nnodes(&ex->m) < 2 ||
	    (local = machine_node(&ex->m, v->node)) == NULL)
		return;
	if ((there = remote_node(ex, on, local)) >= 0) {
		s = xformat(on, false);
		findings_add(need, "remote-node", "its device is on node %d, "
		    "and it %s on CPU %s (node %d): each interrupt crosses "
		    "NUMA nodes", v->node, l->eff != NULL ? "runs" :
		    "may run", s, there);
	} else if ((there = remote_node(ex, l->req, local)) >= 0) {
		s = xformat(l->req, false);
		findings_add(need, "remote-node", "its device is on node %d, "
		    "and it is requested on CPU %s (node %d): once the move "
		    "applies, each interrupt crosses NUMA nodes", v->node, s,
		    there);
	} else
		return;
	free(s);
}

/*
 * What needs attention goes to need, the rest to info (-v). An IRQ
 * without a handler runs nothing: nothing is said of it.
 */
static void
find_all(struct explain *ex, const struct irqview *v, struct findings *need,
    struct findings *info)
{
	struct live l;
	char *h, *r;

	if (!v->handled)
		return;
	live_read(ex, v, &l);
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
	find_placement(ex, v, &l, need, info);
	/* shut down: x86 parks it on CPU 0, which says nothing of it */
	if (!cpuset_empty(l.req)) {
		find_isolated(ex, v, &l, need, info);
		find_node(ex, v, &l, need);
	}
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
	if (ex->ib.pid != 0 && !(v->state & IRQ_MANAGED) &&
	    !irqbalance_bans(&ex->ib, v->irq))
		findings_add(need, "irqbalance", "runs and may move it again; "
		    "--banirq=%u keeps it away", v->irq);
	live_free(&l);
}

static void
print_lines(unsigned int irq, const char *name, const struct findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		printf("irq %u%s%s: %s: %s\n", irq, *name ? " " : "", name,
		    f->v[i].code, f->v[i].text);
}

static void
print_text(const struct explain *ex, const struct irqview *v,
    const struct findings *need, const struct findings *info)
{
	char *raw, *name, *r, *e;

	if (need->n == 0 && !ex->verbose && (!ex->detail || info->n == 0))
		return;
	raw = view_names(v);
	name = xescaped(raw);
	print_lines(v->irq, name, need);
	if (ex->detail)
		print_lines(v->irq, name, info);
	if (ex->verbose && need->n == 0 && info->n == 0) {
		r = xformat(v->req, false);
		e = v->eff != NULL ? xformat(v->eff, false) : NULL;
		/* an empty effective set: the IRQ is not started */
		printf("irq %u%s%s: ok: %s requested%s%s%s\n", v->irq,
		    *name ? " " : "", name, *r ? r : "none",
		    e == NULL ? "" : *e ? ", runs on CPU " : ", runs on no CPU "
		    "yet (no effective affinity: not started)",
		    e != NULL ? e : "", v->handled ? "" : ", no handler");
		free(r);
		free(e);
	}
	free(name);
	free(raw);
}

/* A set as its list, the array of its CPUs and that of their nodes. */
static void
json_set(struct explain *ex, const char *key, const struct cpuset *set)
{
	char *s = xformat(set, false);

	printf(",\"%s\":\"%s\",\"%s_cpus\":", key, s, key);
	columns_json_cpus(stdout, s, ex->m.nbits);
	printf(",\"%s_nodes\":", key);
	columns_json_nodes(stdout, s, &ex->m);
	free(s);
}

static void
print_json(struct explain *ex, const struct irqview *v,
    const struct findings *need, const struct findings *info, bool first)
{
	char *name = view_names(v);

	printf("%s{\"irq\":%u,\"name\":", first ? "" : ",", v->irq);
	text_json_string(stdout, name);
	json_set(ex, "requested", v->req);
	if (v->eff != NULL)
		json_set(ex, "effective", v->eff);
	printf(",\"findings\":");
	findings_json(stdout, need);
	printf(",\"notes\":");
	findings_json(stdout, info);
	putchar('}');
	free(name);
}

static int
explain_irqs(struct explain *ex, const struct irqs *irqs)
{
	struct irqview *v;
	struct findings need = { NULL, 0 }, info = { NULL, 0 };
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
		find_all(ex, &v[i], &need, &info);
		attention |= need.n > 0;
		if (ex->json)
			print_json(ex, &v[i], &need, &info, shown++ == 0);
		else
			print_text(ex, &v[i], &need, &info);
		findings_free(&need);
		findings_free(&info);
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
	struct irqs irqs = { 0 };
	int ch, status;

	memset(&ex, 0, sizeof(ex));
	while ((ch = cli_getopts(argc, argv, &explain_command, "vJ",
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
	if (machine_load(&ex.m) != 0)
		return EXIT_FAIL;
	ex.detail = ex.verbose || argc - optind >= 1;
	status = cli_exit_status(argc - optind >= 1 ?
	    select_query_many(argc - optind, argv + optind, &irqs, false) :
	    select_all(&irqs));
	if (status == EXIT_OK) {
		irqbalance_load(&ex.m, &ex.ib);
		status = explain_irqs(&ex, &irqs);
	}
	/* as grep: a selection that picks nothing is exit 1 */
	if (status == EXIT_OK && irqs.n == 0)
		status = EXIT_FAIL;
	select_free(&irqs);
	irqbalance_free(&ex.ib);
	machine_free(&ex.m);
	return status;
}
