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
#include "core/counts.h"
#include "core/load.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

#define NTOP	3

static int cpus_main(int, char *[]);
static void cpus_columns(FILE *);

const struct command cpus_command = {
	"cpus", cpus_main, "show where interrupts land, CPU by CPU",
	"[-nJ] [-o cols] [-i seconds] [--count count] [--sample-from file ...] "
	"[--irqs irqs] [cpus]",
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
	cpus_columns
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

enum col { C_CPU, C_NODE, C_STATE, C_IRQS, C_TOTAL, C_RATE, C_TOP, NCOLS };

static const struct column columns[NCOLS] = {
	[C_CPU] =	{ "CPU", "cpu", true, false, "CPU number" },
	[C_NODE] =	{ "NODE", "node", true, false, "NUMA node" },
	[C_STATE] =	{ "STATE", "state", false, false,
	    "online or offline, isolated, nohz_full" },
	[C_IRQS] =	{ "IRQS", "irqs", true, false,
	    "IRQs whose effective CPUs include it" },
	[C_TOTAL] =	{ "TOTAL", "total", true, false,
	    "interrupts it handled (numbered rows of /proc/interrupts)" },
	[C_RATE] =	{ "RATE", "rate", true, false,
	    "interrupts per second over the interval (-i)" },
	[C_TOP] =	{ "TOP", "top", false, false,
	    "its busiest IRQs, NAME(IRQ) each; by rate with -i" },
};

/* All but RATE, which -i adds. */
static const unsigned int default_cols[] = {
	C_CPU, C_NODE, C_STATE, C_IRQS, C_TOTAL, C_TOP
};

static void
cpus_columns(FILE *fp)
{
	fprintf(fp, "\nColumns (all by default; RATE with -i only):\n");
	columns_help(fp, columns, NCOLS);
}

/*
 * An IRQ among a CPU's busiest: its count, or its count in a sample, as
 * a key that orders as the count does (interrupts_field_key(): no number
 * read for each of millions of counts); key 0 is no IRQ.
 */
struct top {
	uint64_t	 key;
	unsigned int	 irq;
};

struct cpurow {
	bool			 counted;	/* a column of proc/interrupts */
	bool			 rated;		/* and one in the read before */
	unsigned long long	 delta;
	unsigned int		 irqs;
};

/* The action names of a row of the first pass. */
struct named {
	unsigned int	 irq;
	size_t		 seq;
	char		*name;
};

struct cpus {
	struct machine	 m;
	struct cpuset	*want, *isolated, *nohz;
	struct cpurow	*rows;		/* by CPU number */
	/* what each row of a pass touches, apart: it stays in the cache */
	unsigned long long *total;	/* by CPU */
	struct top	(*top)[NTOP];	/* by CPU */
	/* during a pass, by column: no CPU lookup for each count */
	struct colsums	 colsums;
	struct top	(*coltop)[NTOP];
	bool		 wanttop;	/* TOP printed, and not by rate */
	struct named	*names;		/* by IRQ */
	const char	*irqarg;	/* --irqs */
	struct irqs	 only;		/* the rows counted */
	size_t		 nnames;
	struct cells	 cells;		/* -i: where each IRQ runs */
	struct counts_kept now, was;	/* -i: this read and the one before */
	bool		 keep;		/* a read to come wants this one's */
	long long	 last;		/* the IRQ of the row before, or -1 */
	unsigned int	 cols[NCOLS * 2];
	size_t		 ncols;
	bool		 json, noheadings;
	struct sampling	 sm;
};

static int
add_columns(struct cpus *c, const char *arg)
{
	struct perr pe;

	if (columns_parse(columns, NCOLS, default_cols, nitems(default_cols),
	    arg, c->cols, &c->ncols, nitems(c->cols), &pe) != 0)
		return cli_usage_error(&cpus_command, "%s", pe.msg);
	return 0;
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

/* Keeps the NTOP largest counts, the earlier IRQ first among equals. */
static void
top_add(struct top *t, uint64_t key, unsigned int irq)
{
	size_t i;

	if (key <= t[NTOP - 1].key)
		return;
	for (i = NTOP - 1; i > 0 && t[i - 1].key < key; i--)
		t[i] = t[i - 1];
	t[i] = (struct top){ key, irq };
}

static int
cmpnamed(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	if (x->irq != y->irq)
		return (x->irq > y->irq) - (x->irq < y->irq);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The name of an IRQ's row in the first pass, or NULL. */
static const char *
name_of(const struct cpus *c, unsigned int irq)
{
	size_t lo = 0, hi = c->nnames, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->names[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nnames && c->names[lo].irq == irq ?
	    c->names[lo].name : NULL;
}

/* A row's fields into the TOP of each column. */
static void
add_tops(struct top (*top)[NTOP], const char *f, unsigned int n,
    unsigned int irq)
{
	unsigned int k;

	for (k = 0; k < n; k++, f += INTERRUPTS_FIELDW)
		top_add(top[k], interrupts_field_key(f), irq);
}

/*
 * With -i: the row kept for the next read, and what each of its CPUs
 * counted since the read before (counts_delta()); a row or a CPU column
 * that one of the two reads lacks, or a count that went down, adds
 * nothing.
 */
static void
add_delta(struct cpus *c, const struct counts *rd, const struct irqrow *r)
{
	struct kept_row was;
	unsigned int k;
	uint32_t d;

	if ((long long)r->irq <= c->last)
		return;		/* out of order or repeated: not followed */
	c->last = r->irq;
	if (c->keep)
		counts_keep(&c->now, rd, r);
	if (!counts_kept_row(&c->was, r->irq, &was))
		return;
	for (k = 0; k < r->ncounts; k++)
		if (counts_delta(&c->was, &was, rd->cpu[k], rd->v[k], &d) ==
		    COUNTS_COUNTED)
			c->rows[rd->cpu[k]].delta += d;
}

/*
 * One numbered row: its counts go to the CPUs of their columns, and to
 * the cells followed. Names are kept from the first pass.
 */
static void
add_row(struct cpus *c, const struct counts *rd, const struct irqrow *r,
    bool first, size_t *at)
{
	const unsigned long long *v = rd->v;
	size_t k;

	if (c->irqarg != NULL && !select_find(&c->only, r->irq, NULL))
		return;
	if (first) {
		c->names = xreallocarray(c->names, c->nnames + 1,
		    sizeof(*c->names));
		c->names[c->nnames] = (struct named){ r->irq, c->nnames,
		    xstrndup(r->names, r->nameslen) };
		c->nnames++;
	}
	if (c->sm.on) {
		for (k = 0; k < r->ncounts; k++)
			c->colsums.sums[k] += v[k];
		add_delta(c, rd, r);
		load_cells_take(&c->cells, 1, rd, r, at);
	} else if (r->fields != NULL) {
		/* the kernel's widths: no count read as a number */
		interrupts_colsums_add(&c->colsums, r->fields);
		if (c->wanttop)
			add_tops(c->coltop, r->fields, r->ncounts, r->irq);
	} else
		for (k = 0; k < r->ncounts; k++) {
			c->colsums.sums[k] += v[k];
			if (c->wanttop)
				top_add(c->coltop[k],
				    interrupts_count_key(v[k]), r->irq);
		}
}

/*
 * The columns of proc/interrupts, summed by CPU in one pass, and the
 * cells followed; first: the pass that also keeps the names.
 */
static int
read_counts(struct cpus *c, bool first)
{
	struct counts rd;
	struct irqrow r;
	unsigned int k, irq, wide = 0;
	size_t at = 0;
	int prc;

	if (counts_open(&rd, c->m.nbits, COUNTS_CPUS | COUNTS_EACH |
	    (c->sm.on ? 0 : COUNTS_FIELDS)) != 0)
		return -1;
	for (k = 0; k < c->m.nbits; k++) {
		c->rows[k].counted = rd.col[k] >= 0;
		c->rows[k].delta = c->total[k] = 0;
		/* a CPU that had no column before (it came online): no rate */
		c->rows[k].rated = c->rows[k].counted && c->was.col != NULL &&
		    c->was.col[k] >= 0;
	}
	c->colsums.ncols = rd.ncols;
	memset(c->colsums.sums, 0, rd.ncols * sizeof(*c->colsums.sums));
	memset(c->coltop, 0, rd.ncols * sizeof(*c->coltop));
	c->last = -1;
	if (c->keep)
		counts_kept_begin(&c->now, &rd);
	while (counts_next(&rd, &irq) == 1) {
		prc = counts_row(&rd, &r);
		if (prc == 0)
			add_row(c, &rd, &r, first, &at);
		/* "%10u": the kernel cannot have printed it */
		else if (prc == -ERANGE && !wide++)
			warnx("%s: IRQ %u: a count wider than 32 bits; its row "
			    "is left out", counts_path(), r.irq);
	}
	interrupts_colsums_flush(&c->colsums);
	for (k = 0; k < c->m.nbits; k++)
		if (rd.col[k] >= 0) {
			c->total[k] = c->colsums.sums[rd.col[k]];
			memcpy(c->top[k], c->coltop[rd.col[k]], sizeof(*c->top));
		}
	if (counts_close(&rd) != 0)
		return -1;
	/* rows out of IRQ order (not the kernel's): names found all the same */
	if (first && c->nnames > 0)
		qsort(c->names, c->nnames, sizeof(*c->names), cmpnamed);
	if (c->keep) {
		counts_kept_free(&c->was);
		c->was = c->now;
		memset(&c->now, 0, sizeof(c->now));
	}
	return 0;
}

/*
 * IRQS: each IRQ counts for its effective CPUs, else its requested; when
 * sampling, those are the cells followed.
 */
static int
count_irqs(struct cpus *c)
{
	struct irqs all = { 0 };
	const struct irqs *of = c->irqarg != NULL ? &c->only : &all;
	struct cpuset *set;
	struct perr pe;
	size_t i, cap = 0;
	int rc, cpu;

	if (c->irqarg == NULL && (rc = select_all(&all)) != 0)
		return -1;
	c->cells.nbits = c->m.nbits;
	set = xcpuset(c->m.nbits);
	for (i = 0; i < of->n; i++) {
		if ((rc = machine_runs_on_read(&c->m, of->v[i], set, NULL,
		    &pe)) != 0) {
			warnx("irq %u: %s", of->v[i], pe.msg);
			continue;
		}
		for (cpu = cpuset_first(set); cpu >= 0;
		    cpu = cpuset_next(set, cpu + 1)) {
			c->rows[cpu].irqs++;
			if (!c->sm.on)
				continue;
			if (c->cells.n == cap) {
				cap = cap ? 2 * cap : 256;
				c->cells.v = xreallocarray(c->cells.v, cap,
				    sizeof(*c->cells.v));
			}
			c->cells.v[c->cells.n++] = (struct cell){ of->v[i],
			    cpu, { 0, 0 }, 0 };
		}
	}
	cpuset_free(set);
	select_free(&all);
	return 0;
}

/* "online,isolated": the words that apply. */
static void
state_words(const struct cpus *c, int cpu, const char *words[3])
{
	words[0] = cpuset_test(c->m.online, cpu) ? "online" : "offline";
	words[1] = cpuset_test(c->isolated, cpu) ? "isolated" : NULL;
	words[2] = cpuset_test(c->nohz, cpu) ? "nohz_full" : NULL;
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
			if ((name = (char *)name_of(c, top[i].irq)) == NULL)
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

	printf("\"%s\":", columns[col].key);
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
			name = name_of(c, top[i].irq);
			text_json_string(stdout, name != NULL ? name : "");
			count = interrupts_key_count(top[i].key);
			if (c->sm.on)
				printf(",\"rate\":%.1f}", count / c->sm.elapsed);
			else
				printf(",\"count\":%u}", count);
		}
		putchar(']');
	} else {
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
	if (c->ncols == 0)
		for (k = 0; k < NCOLS; k++)
			if (k != C_RATE || c->sm.on)
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
		if (read_counts(c, false) != 0)
			return EXIT_FAIL;
		for (i = 0; i < c->cells.n; i++) {
			cl = &c->cells.v[i];
			if (load_cell_delta(cl, &d))
				top_add(c->top[cl->cpu],
				    interrupts_count_key(d), cl->irq);
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
	if ((c.isolated = machine_file(&c.m, PATH_CPU_ISOLATED)) == NULL)
		c.isolated = xcpuset(c.m.nbits);
	if ((c.nohz = machine_file(&c.m, PATH_CPU_NOHZ_FULL)) == NULL)
		c.nohz = xcpuset(c.m.nbits);
	c.rows = xcalloc(c.m.nbits, sizeof(*c.rows));
	c.total = xcalloc(c.m.nbits, sizeof(*c.total));
	c.keep = c.sm.on;
	c.top = xcalloc(c.m.nbits, sizeof(*c.top));
	c.colsums.sums = xcalloc(c.m.nbits, sizeof(*c.colsums.sums));
	c.colsums.lanes = xcalloc(1, interrupts_lanes_size(c.m.nbits));
	c.coltop = xcalloc(c.m.nbits, sizeof(*c.coltop));
	c.wanttop = !c.sm.on && has_column(&c, C_TOP);
	if (count_irqs(&c) != 0 || (cli_sampling_begin(&c.sm),
	    read_counts(&c, true)) != 0)
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
