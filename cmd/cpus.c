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
#include <strings.h>

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
	    .right = true, .help = "CPU number" },
	[C_NODE] = { .name = "NODE", .key = "node", .kind = COL_NUMBER,
	    .right = true, .help = "NUMA node" },
	[C_STATE] = { .name = "STATE", .key = "state", .kind = COL_STRING,
	    .help = "online or offline, isolated, nohz_full" },
	[C_IRQS] = { .name = "IRQS", .key = "irqs", .kind = COL_NUMBER,
	    .right = true, .help = "IRQs whose effective CPUs include it" },
	[C_TOTAL] = { .name = "TOTAL", .key = "total", .kind = COL_NUMBER,
	    .right = true,
	    .help = "interrupts it handled in numbered rows (others: SYSTEM)" },
	[C_RATE] = { .name = "RATE", .key = "rate", .kind = COL_NUMBER,
	    .right = true,
	    .help = "interrupts per second over the interval (-i)" },
	[C_TOP] = { .name = "TOP", .key = "top", .kind = COL_STRING,
	    .help = "its busiest IRQs, NAME(IRQ) each; by rate with -i" },
	[C_SYSTEM] = { .name = "SYSTEM", .key = "system", .kind = COL_STRING,
	    .help = "rows with no IRQ (LOC, RES, IPI0...): sum and busiest" },
};

/* All but RATE, which -i adds, and SYSTEM, which JSON has. */
static const unsigned int default_cols[] = {
	C_CPU, C_NODE, C_STATE, C_IRQS, C_TOTAL, C_TOP
};

static void
cpus_columns(FILE *fp)
{
	fprintf(fp, "\nColumns (-o; +LIST adds to the default: all but "
	    "SYSTEM, which JSON has\nunasked; RATE with -i only):\n");
	columns_help(fp, columns, NCOLS);
}

static int
add_columns(struct cpus *c, const char *arg)
{
	struct perr pe;

	if (columns_parse(columns, NCOLS, default_cols, nitems(default_cols),
	    arg, c->cols, &c->ncols, nitems(c->cols), &pe) != 0)
		return cli_usage_error(&cpus_command, "%s", pe.msg);
	c->plus |= *arg == '+';
	return 0;
}

/* -i -o +LIST: the default has RATE, after TOTAL (or first), as without -o. */
static void
add_rate(struct cpus *c)
{
	size_t k, at = 0;

	for (k = 0; k < c->ncols; k++)
		if (c->cols[k] == C_RATE)
			return;
	for (k = 0; k < c->ncols && k < nitems(default_cols); k++)
		if (c->cols[k] == C_TOTAL)
			at = k + 1;
	if (c->ncols == nitems(c->cols))
		return;
	memmove(&c->cols[at + 1], &c->cols[at],
	    (c->ncols - at) * sizeof(c->cols[0]));
	c->cols[at] = C_RATE;
	c->ncols++;
}

static bool
has_column(const struct cpus *c, enum col col)
{
	size_t k;

	for (k = 0; k < c->ncols; k++)
		if (c->cols[k] == col)
			return true;
	return false;
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
sys_cell(const struct cpus *c, int cpu, bool escape)
{
	double v, sum = 0, most = -1;
	size_t i, top = 0;
	char *name, *s;

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
	name = escape ? xescaped(c->sysname[top]) : c->sysname[top];
	s = c->sm.on ? xasprintf("%.1f %s", sum, name) :
	    xasprintf("%.0f %s", sum, name);
	if (escape)
		free(name);
	return s;
}

/*
 * "system": {"NMI": 0, "LOC": 3306}; with -i "system_rate", rates, so
 * that each key holds one type. null for none.
 */
static void
json_sys(const struct cpus *c, int cpu)
{
	const char *sep = "{";
	double v;
	size_t i;

	for (i = 0; i < c->nsys; i++) {
		printf("%s", sep);
		text_json_string(stdout, c->sysname[i]);
		if (!sys_value(c, cpu, i, &v))
			printf(":null");
		else
			printf(c->sm.on ? ":%.1f" : ":%.0f", v);
		sep = ",";
	}
	printf("%s", c->nsys > 0 ? "}" : "{}");
}

/* A cell as text; owned, NULL for "-". */
static char *
cell(struct cpus *c, int cpu, enum col col, bool escape)
{
	const struct cpurow *r = &c->rows[cpu];
	const struct top *top = c->top[cpu];
	const char *w[3];
	char *s = NULL, *name, *item;
	size_t i;
	int node;

	switch (col) {
	case C_CPU:
		s = xasprintf("%d", cpu);
		break;
	case C_NODE:
		if ((node = machine_cpu_node(&c->m, cpu)) >= 0)
			s = xasprintf("%d", node);
		break;
	case C_STATE:
		state_words(c, cpu, w);
		s = xasprintf("%s%s%s%s%s", w[0], w[1] ? "," : "",
		    w[1] ? w[1] : "", w[2] ? "," : "", w[2] ? w[2] : "");
		break;
	case C_IRQS:
		s = xasprintf("%u", r->irqs);
		break;
	case C_TOTAL:
		if (r->counted)
			s = xasprintf("%llu", c->total[cpu]);
		break;
	case C_RATE:
		if (r->rated && c->sm.on)
			s = xasprintf("%.1f", r->delta / c->sm.elapsed);
		break;
	case C_TOP:
		for (i = 0; i < NTOP && top[i].key > 0; i++) {
			if ((name = (char *)cpus_name_of(c, top[i].irq)) == NULL)
				name = "";
			if (escape)
				name = xescaped(name);
			item = xasprintf("%s%s%s(%u)", s ? s : "",
			    s ? " " : "", name, top[i].irq);
			if (escape)
				free(name);
			free(s);
			s = item;
		}
		break;
	case C_SYSTEM:
		s = sys_cell(c, cpu, escape);
		break;
	default:
		break;
	}
	return s;
}

static void
print_table(struct cpus *c)
{
	size_t width[nitems(c->cols)], k, len;
	char *v;
	int cpu;

	for (k = 0; k < c->ncols; k++) {
		width[k] = c->noheadings ? 0 : strlen(columns[c->cols[k]].name);
		for (cpu = cpuset_first(c->want); cpu >= 0;
		    cpu = cpuset_next(c->want, cpu + 1)) {
			v = cell(c, cpu, c->cols[k], true);
			if ((len = v ? strlen(v) : 1) > width[k])
				width[k] = len;
			free(v);
		}
	}
	for (k = 0; !c->noheadings && k < c->ncols; k++)
		columns_cell(stdout, &columns[c->cols[k]], width[k],
		    columns[c->cols[k]].name, k + 1 == c->ncols);
	for (cpu = cpuset_first(c->want); cpu >= 0;
	    cpu = cpuset_next(c->want, cpu + 1))
		for (k = 0; k < c->ncols; k++) {
			v = cell(c, cpu, c->cols[k], true);
			columns_cell(stdout, &columns[c->cols[k]], width[k],
			    v ? v : "-", k + 1 == c->ncols);
			free(v);
		}
}

static void
json_cell(struct cpus *c, int cpu, enum col col)
{
	const struct top *top = c->top[cpu];
	const char *w[3], *name;
	uint32_t count;
	size_t i;
	char *v;

	printf("\"%s%s\":", columns[col].key,
	    col == C_SYSTEM && c->sm.on ? "_rate" : "");
	if (col == C_STATE) {
		state_words(c, cpu, w);
		printf("[\"%s\"", w[0]);
		for (i = 1; i < 3; i++)
			if (w[i] != NULL)
				printf(",\"%s\"", w[i]);
		putchar(']');
	} else if (col == C_TOP) {
		putchar('[');
		for (i = 0; i < NTOP && top[i].key > 0; i++) {
			printf("%s{\"irq\":%u,\"name\":", i ? "," : "",
			    top[i].irq);
			name = cpus_name_of(c, top[i].irq);
			text_json_string(stdout, name != NULL ? name : "");
			count = fields_key_count(top[i].key);
			if (c->sm.on)
				printf(",\"rate\":%.1f}", count / c->sm.elapsed);
			else
				printf(",\"count\":%u}", count);
		}
		putchar(']');
	} else if (col == C_SYSTEM)
		json_sys(c, cpu);
	else {
		v = cell(c, cpu, col, false);
		printf("%s", v ? v : "null");
		free(v);
	}
}

/*
 * {"cpus": [{"cpu": 0, ...}]}, keys in lower case as show -J has them;
 * a sample has its time and length too, one object a line.
 */
static void
print_json(struct cpus *c, const char *stamp)
{
	const char *sep = "";
	size_t k;
	int cpu;

	printf("{");
	if (c->sm.on)
		printf("\"time\":\"%s\",\"interval\":%.3f,", stamp, c->sm.elapsed);
	printf("\"cpus\":[");
	for (cpu = cpuset_first(c->want); cpu >= 0;
	    cpu = cpuset_next(c->want, cpu + 1)) {
		printf("%s{", sep);
		for (k = 0; k < c->ncols; k++) {
			if (k > 0)
				putchar(',');
			json_cell(c, cpu, c->cols[k]);
		}
		putchar('}');
		sep = ",";
	}
	printf("]}\n");
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
			c->noheadings = true;
			break;
		case 'J':
			c->json = true;
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
	for (k = 0; k < c->ncols; k++)
		if (c->cols[k] == C_RATE && !c->sm.on)
			return cli_usage_error(&cpus_command, "RATE needs -i");
	if (c->plus && c->sm.on)
		add_rate(c);
	if (c->ncols == 0)
		for (k = 0; k < NCOLS; k++)
			if ((k != C_RATE || c->sm.on) &&
			    (k != C_SYSTEM || c->json))
				c->cols[c->ncols++] = k;
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
		cli_sampling_next(&c->sm, c->json);
		if (cpus_read_counts(c, false) != 0)
			return EXIT_FAIL;
		for (i = 0; i < c->cells.n; i++) {
			cl = &c->cells.v[i];
			if (load_cell_delta(cl, &d))
				cpus_top_add(c->top[cl->cpu],
				    fields_count_key(d), cl->irq);
		}
		if (c->json)
			print_json(c, c->sm.stamp);
		else {
			cli_sampling_head(&c->sm, n, c->noheadings);
			print_table(c);
		}
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
	if ((status = cpus_options(argc, argv, &c)) != EXIT_OK ||
	    machine_load(&c.m) != 0) {
		cli_sampling_free(&c.sm);
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
	c.wanttop = !c.sm.on && has_column(&c, C_TOP);
	if (cpus_count_irqs(&c) != 0 || (cli_sampling_begin(&c.sm),
	    cpus_read_counts(&c, true)) != 0)
		status = EXIT_FAIL;
	else if (c.sm.on)
		status = sample(&c);
	else if (c.json)
		print_json(&c, NULL);
	else
		print_table(&c);
	/* as grep: --irqs that picks nothing is exit 1 */
	if (status == EXIT_OK && c.irqarg != NULL && c.only.n == 0)
		status = EXIT_FAIL;
out:
	cpus_free(&c);
	return status;
}
