/*
 * cpus: one row per CPU: its node and state, how many IRQs are aimed at
 * it, the interrupts it handled and the busiest IRQs there, from one
 * streaming pass over /proc/interrupts.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/columns.h"
#include "cmd/commands.h"
#include "cmd/cpus.h"
#include "core/counts.h"
#include "core/load.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/fields.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static int cpus_main(int, char *[]);
static void cpus_columns(FILE *);
static void json_top(FILE *, const void *, long long);
static void json_sys(FILE *, const void *, long long);

const struct command cpus_command = {
	.name = "cpus",
	.main = cpus_main,
	.summary = "show where interrupts land, CPU by CPU",
	.synopsis =
	    "[-nJ] [-o cols] [-i seconds] [--count count] [--sample-from file ...] "
	    "[--irqs irqs] [cpus]",
	.options =
	    "  -o, --output COLS       columns, comma-separated; +COLS adds to "
	    "the default\n"
	    "  -n, --noheadings        no header line\n"
	    "  -J, --json              print JSON\n"
	    "  -i, --interval SECS     sample for SECS: add RATE, rank TOP by "
	    "rate\n"
	    "      --count COUNT       COUNT samples, each headed by its time\n"
	    "      --sample-from FILE  one saved /proc/interrupts a read, not the "
	    "kernel's\n"
	    "      --irqs IRQS         count only these IRQs: where they land\n",
	.more_help = cpus_columns,
};

enum { OPT_IRQS = 256 };

static const struct option cpus_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'J' },
	{ "interval", required_argument, NULL, 'i' },
	CLI_SAMPLE_LONGOPT,
	{ "count", required_argument, NULL, 'c' },
	{ "irqs", required_argument, NULL, OPT_IRQS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static const struct column columns[NCOLS] = {
	[C_CPU] = { .name = "CPU", .key = "cpu", .kind = COL_NUMBER,
	    .help = "CPU number" },
	[C_NODE] = { .name = "NODE", .key = "node", .kind = COL_NUMBER,
	    .help = "NUMA node" },
	[C_STATE] = { .name = "STATE", .key = "state", .kind = COL_WORDS,
	    .help = "online or offline, isolated, nohz_full" },
	[C_IRQS] = { .name = "IRQS", .key = "irqs", .kind = COL_NUMBER,
	    .help = "IRQs whose effective CPUs include it" },
	[C_TOTAL] = { .name = "TOTAL", .key = "total", .kind = COL_NUMBER,
	    .help = "interrupts it handled in numbered rows (others: SYSTEM)" },
	[C_RATE] = { .name = "RATE", .key = "rate", .kind = COL_NUMBER,
	    .help = "interrupts per second over the interval (-i)" },
	[C_TOP] = { .name = "TOP", .key = "top", .kind = COL_STRING,
	    .help = "its busiest IRQs, NAME(IRQ) each; by rate with -i",
	    .json = json_top },
	[C_SYSTEM] = { .name = "SYSTEM", .key = "system", .kind = COL_STRING,
	    .help = "rows with no IRQ (LOC, RES, IPI0...): sum and busiest",
	    .json = json_sys },
};

/* All but RATE, which -i adds, and SYSTEM, which JSON has. */
static const unsigned int default_cols[] = {
	C_CPU, C_NODE, C_STATE, C_IRQS, C_TOTAL, C_TOP
};

static const struct columns cpus_table = {
	.v = columns, .n = NCOLS, .dflt = default_cols,
	.ndflt = nitems(default_cols), .max = NCOLS * 2, .what = "cpus",
};

/* With -i SYSTEM's rates have a key of their own: one type a key. */
static struct column rate_columns[NCOLS];
static struct columns rate_table;

static void
cpus_columns(FILE *fp)
{
	fprintf(fp, "\nColumns (-o; +LIST adds to the default: all but "
	    "SYSTEM, which JSON has\nunasked; RATE with -i only):\n");
	columns_help(fp, &cpus_table);
}

static int
add_columns(struct cpus *c, const char *arg)
{
	struct perr pe;

	if (table_columns(&c->tab, arg, &pe) != 0)
		return cli_usage_error(&cpus_command, "%s", pe.msg);
	c->plus |= *arg == '+';
	return 0;
}

/* -i -o +LIST: the default has RATE, after TOTAL (or first), as without -o. */
static void
add_rate(struct cpus *c)
{
	struct table *t = &c->tab;
	size_t k, at = 0;

	if (table_has(t, C_RATE))
		return;
	for (k = 0; k < t->nsel && k < nitems(default_cols); k++)
		if (t->sel[k] == C_TOTAL)
			at = k + 1;
	if (t->nsel == t->cols->max)
		return;
	memmove(&t->sel[at + 1], &t->sel[at], (t->nsel - at) * sizeof(*t->sel));
	t->sel[at] = C_RATE;
	t->nsel++;
}

/* "online,isolated": the words that apply. */
static void
state_words(const struct cpus *c, int cpu, const char *words[3])
{
	words[0] = cpuset_test(c->m.online, cpu) ? "online" : "offline";
	words[1] = cpuset_test(c->isolated, cpu) ? "isolated" : NULL;
	words[2] = cpuset_test(c->nohz, cpu) ? "nohz_full" : NULL;
}

/*
 * A CPU's count of the row without an IRQ, or its rate with -i; false
 * when it has none (offline, or the name is new).
 */
static bool
sys_value(const struct cpus *c, int cpu, size_t i, double *v)
{
	unsigned long long now = c->sys[cpu * NSYS + i];
	unsigned long long was = c->syswas[cpu * NSYS + i];

	if (!c->rows[cpu].counted)
		return false;
	if (!c->sm.on) {
		*v = now;
		return true;
	}
	if (!c->rows[cpu].rated || i >= c->nsyswas || now < was)
		return false;
	*v = (now - was) / c->sm.elapsed;
	return true;
}

/* SYSTEM: "SUM NAME", the sum of those rows and the busiest of them. */
static char *
sys_cell(const struct cpus *c, int cpu)
{
	double v, sum = 0, most = -1;
	size_t i, top = 0;

	for (i = 0; i < c->nsys; i++)
		if (sys_value(c, cpu, i, &v)) {
			sum += v;
			if (v > most) {
				most = v;
				top = i;
			}
		}
	if (most < 0)
		return NULL;
	/* none counted: no busiest row to name */
	if (most == 0)
		return xstrdup("0");
	return c->sm.on ? xasprintf("%.1f %s", sum, c->sysname[top]) :
	    xasprintf("%.0f %s", sum, c->sysname[top]);
}

/*
 * "system": {"NMI": 0, "LOC": 3306}; with -i "system_rate", rates, so
 * that each key holds one type. null for none.
 */
static void
json_sys(FILE *fp, const void *arg, long long cpu)
{
	const struct cpus *c = arg;
	const char *sep = "{";
	double v;
	size_t i;

	for (i = 0; i < c->nsys; i++) {
		fputs(sep, fp);
		text_json_string(fp, c->sysname[i]);
		if (!sys_value(c, cpu, i, &v))
			fputs(":null", fp);
		else
			fprintf(fp, c->sm.on ? ":%.1f" : ":%.0f", v);
		sep = ",";
	}
	fputs(c->nsys > 0 ? "}" : "{}", fp);
}

/* TOP: "NAME(IRQ) NAME(IRQ)", the busiest first; NULL for none. */
static char *
top_cell(const struct cpus *c, int cpu)
{
	const struct top *top = c->top[cpu];
	const char *name;
	char *s = NULL, *item;
	size_t i;

	for (i = 0; i < NTOP && top[i].key > 0; i++) {
		if ((name = cpus_name_of(c, top[i].irq)) == NULL)
			name = "";
		item = xasprintf("%s%s%s(%u)", s ? s : "", s ? " " : "", name,
		    top[i].irq);
		free(s);
		s = item;
	}
	return s;
}

/* "top": [{"irq": 24, "name": "a", "count": 3}], "rate" with -i. */
static void
json_top(FILE *fp, const void *arg, long long cpu)
{
	const struct cpus *c = arg;
	const struct top *top = c->top[cpu];
	const char *name;
	uint32_t count;
	size_t i;

	fputc('[', fp);
	for (i = 0; i < NTOP && top[i].key > 0; i++) {
		fprintf(fp, "%s{\"irq\":%u,\"name\":", i ? "," : "",
		    top[i].irq);
		name = cpus_name_of(c, top[i].irq);
		text_json_string(fp, name != NULL ? name : "");
		count = fields_key_count(top[i].key);
		if (c->sm.on)
			fprintf(fp, ",\"rate\":%.1f}", count / c->sm.elapsed);
		else
			fprintf(fp, ",\"count\":%u}", count);
	}
	fputc(']', fp);
}

/* A cell as text; owned, NULL for "-". */
static char *
cell(struct cpus *c, int cpu, enum col col)
{
	const struct cpurow *r = &c->rows[cpu];
	const char *w[3];
	int node;

	switch (col) {
	case C_CPU:
		return xasprintf("%d", cpu);
	case C_NODE:
		node = machine_cpu_node(&c->m, cpu);
		return node >= 0 ? xasprintf("%d", node) : NULL;
	case C_STATE:
		state_words(c, cpu, w);
		return xasprintf("%s%s%s%s%s", w[0], w[1] ? "," : "",
		    w[1] ? w[1] : "", w[2] ? "," : "", w[2] ? w[2] : "");
	case C_IRQS:
		return xasprintf("%u", r->irqs);
	case C_TOTAL:
		return r->counted ? xasprintf("%llu", c->total[cpu]) : NULL;
	case C_RATE:
		return r->rated && c->sm.on ?
		    xasprintf("%.1f", r->delta / c->sm.elapsed) : NULL;
	case C_TOP:
		return top_cell(c, cpu);
	case C_SYSTEM:
		return sys_cell(c, cpu);
	default:
		return NULL;
	}
}

/*
 * A row for each CPU asked for, with the cells of the columns printed;
 * a sample's JSON has its time (stamp).
 */
static void
print(struct cpus *c, const char *stamp)
{
	char *(*cells)[NCOLS];
	size_t n = 0, i, k;
	int cpu;

	cells = xcalloc(cpuset_count(c->want), sizeof(*cells));
	table_clear(&c->tab);
	for (cpu = cpuset_first(c->want); cpu >= 0;
	    cpu = cpuset_next(c->want, cpu + 1), n++) {
		for (k = 0; k < c->tab.nsel; k++)
			if (cells[n][c->tab.sel[k]] == NULL)
				cells[n][c->tab.sel[k]] = cell(c, cpu,
				    c->tab.sel[k]);
		table_add(&c->tab, cpu, cells[n]);
	}
	table_print(&c->tab, stamp, c->sm.elapsed);
	for (i = 0; i < n; i++)
		for (k = 0; k < NCOLS; k++)
			free(cells[i][k]);
	free(cells);
}

static int
cpus_options(int argc, char *argv[], struct cpus *c)
{
	size_t k;
	int ch, rc;

	while ((ch = cli_getopts(argc, argv, &cpus_command, "o:nJi:c:",
	    cpus_opts)) != -1) {
		switch (ch) {
		case 'o':
			if ((rc = add_columns(c, optarg)) != 0)
				return rc;
			break;
		case 'n':
			c->tab.noheadings = true;
			break;
		case 'J':
			c->tab.json = true;
			break;
		case OPT_IRQS:
			c->irqarg = optarg;
			break;
		default:
			if ((rc = cli_sampling_option(&cpus_command, ch, optarg,
			    &c->sm)) != EXIT_OK)
				return rc;
			break;
		}
	}
	if (argc - optind > 1)
		return cli_usage_error(&cpus_command,
		    "expected at most one CPU set");
	if ((rc = cli_sampling_check(&cpus_command, &c->sm)) != EXIT_OK)
		return rc;
	if (table_has(&c->tab, C_RATE) && !c->sm.on)
		return cli_usage_error(&cpus_command, "RATE needs -i");
	if (c->plus && c->sm.on)
		add_rate(c);
	if (c->sm.on) {
		memcpy(rate_columns, columns, sizeof(rate_columns));
		rate_columns[C_SYSTEM].key = "system_rate";
		rate_table = cpus_table;
		rate_table.v = rate_columns;
		c->tab.cols = &rate_table;
	}
	if (c->tab.nsel == 0)
		for (k = 0; k < NCOLS; k++)
			if ((k != C_RATE || c->sm.on) &&
			    (k != C_SYSTEM || c->tab.json))
				table_select(&c->tab, k);
	return EXIT_OK;
}

/*
 * Samples: one more pass each, at the interval's end; the rates are the
 * differences over the time between the starts of the two passes.
 */
static int
sample(struct cpus *c)
{
	const struct cell *cl;
	long long n;
	uint32_t d;
	size_t i;

	for (n = 0; n < (c->sm.count ? c->sm.count : 1); n++) {
		memset(c->top, 0, c->m.nbits * sizeof(*c->top));
		load_cells_shift(&c->cells);
		c->keep = n + 1 < c->sm.count;
		cli_sampling_next(&c->sm, c->tab.json);
		if (cpus_read_counts(c, false) != 0)
			return EXIT_FAIL;
		for (i = 0; i < c->cells.n; i++) {
			cl = &c->cells.v[i];
			if (load_cell_delta(cl, &d))
				cpus_top_add(c->top[cl->cpu],
				    fields_count_key(d), cl->irq);
		}
		if (!c->tab.json)
			cli_sampling_head(&c->sm, n, c->tab.noheadings);
		print(c, c->sm.stamp);
		if (fflush(stdout) != 0)
			break;
	}
	return EXIT_OK;
}

static void
cpus_free(struct cpus *c)
{
	size_t i;

	for (i = 0; i < c->nnames; i++)
		free(c->names[i].name);
	free(c->names);
	for (i = 0; i < c->nsys; i++)
		free(c->sysname[i]);
	free(c->sys);
	free(c->syswas);
	free(c->total);
	free(c->top);
	free(c->colsums.sums);
	free(c->colsums.lanes);
	free(c->coltop);
	select_free(&c->only);
	load_cells_free(&c->cells);
	free(c->rows);
	counts_kept_free(&c->now);
	counts_kept_free(&c->was);
	cpuset_free(c->want);
	cpuset_free(c->isolated);
	cpuset_free(c->nohz);
	table_free(&c->tab);
	machine_free(&c->m);
	cli_sampling_free(&c->sm);
}

static int
cpus_main(int argc, char *argv[])
{
	struct cpus c;
	struct perr pe;
	int status;

	memset(&c, 0, sizeof(c));
	table_init(&c.tab, &cpus_table);
	c.tab.m = &c.m;
	c.tab.arg = &c;
	if ((status = cpus_options(argc, argv, &c)) != EXIT_OK ||
	    machine_load(&c.m) != 0) {
		cli_sampling_free(&c.sm);
		table_free(&c.tab);
		return status != EXIT_OK ? status : EXIT_FAIL;
	}
	c.want = xcpudup(c.m.possible);
	if (argc - optind == 1 && machine_cpus(&c.m, argv[optind],
	    CPUS_NONEMPTY, c.want, &pe) != 0) {
		warnx("%s", pe.msg);
		status = EXIT_USAGE;
		goto out;
	}
	cpuset_and(c.want, c.m.possible);
	/* a question: IRQs that match nothing leave every count 0 */
	if (c.irqarg != NULL && (status = cli_exit_status(select_query_many(1,
	    (char **)&c.irqarg, &c.only, false))) != EXIT_OK)
		goto out;
	c.isolated = xcpudup(c.m.sys_isolated);
	c.nohz = xcpudup(c.m.sys_nohz);
	c.rows = xcalloc(c.m.nbits, sizeof(*c.rows));
	c.total = xcalloc(c.m.nbits, sizeof(*c.total));
	c.sys = xcalloc((size_t)c.m.nbits * NSYS, sizeof(*c.sys));
	c.syswas = xcalloc((size_t)c.m.nbits * NSYS, sizeof(*c.syswas));
	c.keep = c.sm.on;
	c.top = xcalloc(c.m.nbits, sizeof(*c.top));
	c.colsums.sums = xcalloc(c.m.nbits, sizeof(*c.colsums.sums));
	c.colsums.lanes = xcalloc(1, fields_lanes_size(c.m.nbits));
	c.coltop = xcalloc(c.m.nbits, sizeof(*c.coltop));
	c.wanttop = !c.sm.on && table_has(&c.tab, C_TOP);
	if (cpus_count_irqs(&c) != 0 || (cli_sampling_begin(&c.sm),
	    cpus_read_counts(&c, true)) != 0)
		status = EXIT_FAIL;
	else if (c.sm.on)
		status = sample(&c);
	else
		print(&c, NULL);
	/* as grep: --irqs that picks nothing is exit 1 */
	if (status == EXIT_OK && c.irqarg != NULL && c.only.n == 0)
		status = EXIT_FAIL;
out:
	cpus_free(&c);
	return status;
}
