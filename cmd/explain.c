/*
 * explain: why an IRQ runs where it runs, in findings a sysadmin can act
 * on: the kernel owns it, a move waits, a CPU is offline or isolated, the
 * device is on another node, the driver or irqbalance wants otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/columns.h"
#include "core/diagnose.h"
#include "core/findings.h"
#include "core/irqbalance.h"
#include "core/irqthread.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/vectors.h"
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
	    "isolated, remote-node,\nthread, and one irqbalance line for all IRQs "
	    "it may move. With -v, or for the IRQs\nnamed: per-cpu, managed, "
	    "shutdown, offline, pending, single-target, idle\ntoo; with -v "
	    "only: hint, and irqbalance for each IRQ.\n");
}

struct explain {
	struct machine		 m;
	struct irqbalance	 ib;
	struct isolated		 iso;
	struct irqthreads	 threads;
	struct vectors		 vec;		/* for a pending move */
	bool			 json, verbose;
	bool			 detail;	/* -v, or IRQs named */
	int			 status;
};

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

/* Detail said only with -v: what the user chose, one line of many. */
static bool
verbose_only(const char *code)
{
	return strcmp(code, "hint") == 0 || strcmp(code, "irqbalance") == 0;
}

static void
print_lines(const struct explain *ex, unsigned int irq, const char *name,
    const struct findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (ex->verbose || !verbose_only(f->v[i].code))
			printf("irq %u%s%s: %s: %s\n", irq, *name ? " " : "",
			    name, f->v[i].code, f->v[i].text);
}

/* How many of info's lines print_lines() would print. */
static size_t
shown_lines(const struct explain *ex, const struct findings *f)
{
	size_t i, n = 0;

	for (i = 0; i < f->n; i++)
		n += ex->verbose || !verbose_only(f->v[i].code);
	return n;
}

static void
print_text(const struct explain *ex, const struct irqview *v,
    const struct findings *need, const struct findings *info)
{
	char *raw, *name, *r, *e;

	if (need->n == 0 && !ex->verbose && (!ex->detail ||
	    shown_lines(ex, info) == 0))
		return;
	raw = view_names(v);
	name = xescaped(raw);
	print_lines(ex, v->irq, name, need);
	if (ex->detail)
		print_lines(ex, v->irq, name, info);
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
	size_t i, shown = 0, moves = 0;
	bool attention = false;
	char *sum = NULL;

	v = xcalloc(irqs->n, sizeof(*v));
	for (i = 0; i < irqs->n; i++) {
		if (diagnose_read(&ex->m, irqs->v[i], &v[i]) != 0)
			ex->status = EXIT_FAIL;
		v[i].threads = &ex->threads;
		v[i].vectors = &ex->vec;
	}
	diagnose_totals(v, irqs->n);
	if (ex->json)
		printf("{\"irqs\":[");
	for (i = 0; i < irqs->n; i++) {
		if (v[i].req == NULL)
			continue;
		diagnose_irq(&ex->m, &ex->ib, &ex->iso, &v[i], &need,
		    &info);
		attention |= need.n > 0;
		moves += diagnose_irqbalance_moves(&ex->ib, &v[i]);
		if (ex->json)
			print_json(ex, &v[i], &need, &info, shown++ == 0);
		else
			print_text(ex, &v[i], &need, &info);
		findings_free(&need);
		findings_free(&info);
	}
	/* irqbalance: one line for every IRQ it may move, -v lists them */
	if (moves > 0) {
		attention = true;
		sum = xasprintf("runs (pid %d) and may move %zu IRQ%s again; "
		    "--banirq=N in IRQBALANCE_ARGS keeps IRQ N away%s",
		    ex->ib.pid, moves, moves == 1 ? "" : "s",
		    ex->verbose ? "" : " (-v lists them)");
	}
	if (ex->json) {
		printf("],\"findings\":[");
		if (sum != NULL) {
			printf("{\"code\":\"irqbalance\",\"text\":");
			text_json_string(stdout, sum);
			putchar('}');
		}
		printf("]}\n");
	} else if (sum != NULL)
		printf("irqbalance: %s\n", sum);
	free(sum);
	for (i = 0; i < irqs->n; i++)
		diagnose_free(&v[i]);
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
		isolation_cpus(&ex.iso, &ex.m);
		(void)irqthread_load(ex.m.nbits, &ex.threads);
		status = explain_irqs(&ex, &irqs);
		isolation_cpus_free(&ex.iso);
	}
	/* nothing to examine: not a finding (1), so a typo is told apart */
	if (status == EXIT_OK && irqs.n == 0)
		status = EXIT_NONE;
	select_free(&irqs);
	irqbalance_free(&ex.ib);
	irqthread_free(&ex.threads);
	vectors_free(&ex.vec);
	machine_free(&ex.m);
	return status;
}
