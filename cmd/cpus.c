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
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

#define ROW_MAX	(4 << 20)	/* as show reads proc/interrupts */
#define NTOP	3

static int cpus_main(int, char *[]);
static void cpus_columns(FILE *);

const struct command cpus_command = {
	"cpus", cpus_main, "show where interrupts land, CPU by CPU",
	"[-nJ] [-o cols] [-i seconds [-c count]] [cpus]",
	"  -o, --output COLS     the columns, comma-separated; +COLS adds to "
	"the default\n"
	"  -n, --noheadings      no header line\n"
	"  -J, --json            print JSON\n"
	"  -i, --interval SECS   sample for SECS: add RATE, rank TOP by "
	"rate\n"
	"  -c, --count COUNT     COUNT samples, each headed by its time\n",
	cpus_columns
};

static const struct option cpus_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'J' },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
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

/* An IRQ among a CPU's busiest: its count, or its count in a sample. */
struct top {
	unsigned long long	 count;
	unsigned int		 irq;
	const char		*name;		/* raw; owned by names */
};

struct cpurow {
	bool			 counted;	/* a column of proc/interrupts */
	bool			 rated;		/* and one in the read before */
	unsigned long long	 total, delta;
	unsigned int		 irqs;
	struct top		 top[NTOP];
	size_t			 ntop;
};

/*
 * A cell followed between samples: an IRQ and one CPU of its effective
 * affinity, the only CPUs its interrupts reach. Counts are the kernel's
 * unsigned int, so a difference is right across a wrap.
 */
struct cell {
	unsigned int	 irq;
	unsigned int	 cpu;
	uint32_t	 count, before;
	bool		 have, had;	/* read now, and before */
	const char	*name;
};

/*
 * One read of proc/interrupts kept for the next: each numbered row's
 * counts, by the read's columns; a count the row did not have is
 * NOCOUNT.
 */
#define NOCOUNT	UINT64_MAX
struct counts {
	unsigned int	*irq;		/* by row */
	uint64_t	*v;		/* rows * ncols */
	size_t		 n, cap, ncols;
	int		*col;		/* by CPU: its column, or -1 */
};

struct cpus {
	struct machine	 m;
	struct cpuset	*want, *isolated, *nohz;
	struct cpurow	*rows;		/* by CPU number */
	char		**names;	/* action names, one per row */
	size_t		 nnames;
	struct cell	*cells;		/* by IRQ, then CPU */
	size_t		 ncells;
	struct counts	 now, was;	/* -i: this read and the one before */
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
		return usage_error(&cpus_command, "%s", pe.msg);
	return 0;
}

/* Keeps the NTOP largest counts, the earlier IRQ first among equals. */
static void
top_add(struct cpurow *r, unsigned long long count, unsigned int irq,
    const char *name)
{
	size_t i;

	if (count == 0 ||
	    (r->ntop == NTOP && count <= r->top[NTOP - 1].count))
		return;
	i = r->ntop < NTOP ? r->ntop++ : NTOP - 1;
	for (; i > 0 && r->top[i - 1].count < count; i--)
		r->top[i] = r->top[i - 1];
	r->top[i] = (struct top){ count, irq, name };
}

/* The first cell of an IRQ at or after *at, or NULL; cells are sorted. */
static struct cell *
cells_of(struct cpus *c, unsigned int irq, size_t *at)
{
	while (*at < c->ncells && c->cells[*at].irq < irq)
		(*at)++;
	return *at < c->ncells && c->cells[*at].irq == irq ?
	    &c->cells[*at] : NULL;
}

/* The row of irq in a read, or NULL; rows come in IRQ order. */
static const uint64_t *
counts_row(const struct counts *ct, unsigned int irq)
{
	size_t lo = 0, hi = ct->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ct->irq[mid] < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ct->n && ct->irq[lo] == irq ? ct->v + lo * ct->ncols :
	    NULL;
}

/*
 * With -i: the row kept for the next read, and what each of its cells
 * added since the read before, modulo 2^32 as the kernel's unsigned int
 * counts wrap (kstat_irqs_cpu()); a row or a CPU column that one of the
 * two reads lacks adds nothing.
 */
static void
add_delta(struct cpus *c, const struct irqrow *r,
    const unsigned long long *counts, const unsigned int *cpu)
{
	struct counts *ct = &c->now;
	const uint64_t *was;
	uint64_t *v;
	size_t k;
	int pk;

	if (ct->n > 0 && ct->irq[ct->n - 1] >= r->irq)
		return;		/* out of order or repeated: not followed */
	if (ct->n == ct->cap) {
		ct->cap = ct->cap ? 2 * ct->cap : 256;
		ct->irq = xreallocarray(ct->irq, ct->cap, sizeof(*ct->irq));
		ct->v = xreallocarray(ct->v, ct->cap, ct->ncols *
		    sizeof(*ct->v));
	}
	ct->irq[ct->n] = r->irq;
	v = ct->v + ct->n++ * ct->ncols;
	for (k = 0; k < ct->ncols; k++)
		v[k] = k < r->ncounts ? (uint32_t)counts[k] : NOCOUNT;
	if (c->was.col == NULL || (was = counts_row(&c->was, r->irq)) == NULL)
		return;
	for (k = 0; k < ct->ncols && k < r->ncounts; k++)
		if ((pk = c->was.col[cpu[k]]) >= 0 && was[pk] != NOCOUNT)
			c->rows[cpu[k]].delta += (uint32_t)(v[k] - was[pk]);
}

static void
counts_free(struct counts *ct)
{
	free(ct->irq);
	free(ct->v);
	free(ct->col);
	memset(ct, 0, sizeof(*ct));
}

/*
 * One numbered row: its counts go to the CPUs of their columns, and to
 * the cells followed. Names are kept from the first pass.
 */
static void
add_row(struct cpus *c, const struct irqrow *r,
    const unsigned long long *counts, const unsigned int *cpu,
    const int *col, bool first, size_t *at)
{
	struct cell *cl;
	const char *name = NULL;
	size_t k;

	if (first) {
		c->names = xreallocarray(c->names, c->nnames + 1,
		    sizeof(*c->names));
		name = c->names[c->nnames++] = xstrndup(r->names,
		    r->nameslen);
	}
	for (k = 0; k < r->ncounts; k++) {
		c->rows[cpu[k]].total += counts[k];
		if (!c->sm.on)
			top_add(&c->rows[cpu[k]], counts[k], r->irq, name);
	}
	if (c->sm.on)
		add_delta(c, r, counts, cpu);
	for (cl = cells_of(c, r->irq, at); cl != NULL &&
	    cl < c->cells + c->ncells && cl->irq == r->irq; cl++) {
		if (first)
			cl->name = name;
		if (col[cl->cpu] >= 0 && (unsigned int)col[cl->cpu] <
		    r->ncounts) {
			cl->count = counts[col[cl->cpu]];
			cl->have = true;
		}
	}
}

/*
 * The columns of proc/interrupts, summed by CPU in one pass, and the
 * cells followed; first: the pass that also keeps the names.
 */
static int
read_counts(struct cpus *c, bool first)
{
	unsigned long long *counts;
	unsigned int *cpu, ncols = 0, k, wide = 0;
	struct irqrow r;
	struct lines l;
	size_t len, at = 0;
	char *line;
	int rc, prc, *col;

	if ((rc = lines_open(&l, PATH_PROC_INTERRUPTS, ROW_MAX)) != 0) {
		warnc(-rc, "%s", procfs_path(PATH_PROC_INTERRUPTS));
		return -1;
	}
	cpu = xcalloc(c->m.nbits, sizeof(*cpu));
	col = xcalloc(c->m.nbits, sizeof(*col));
	if ((rc = lines_next(&l, &line, &len)) == 0 || (rc == 1 &&
	    interrupts_columns(line, c->m.nbits, cpu, &ncols) != 0)) {
		warnx("%s: no CPU header naming possible CPUs",
		    procfs_path(PATH_PROC_INTERRUPTS));
		rc = -EINVAL;
	}
	counts = xcalloc(ncols + 1, sizeof(*counts));
	for (k = 0; k < c->m.nbits; k++) {
		c->rows[k].counted = false;
		c->rows[k].total = c->rows[k].delta = 0;
		col[k] = -1;
	}
	for (k = 0; k < ncols; k++) {
		c->rows[cpu[k]].counted = true;
		col[cpu[k]] = k;
	}
	/* a CPU that had no column before (it came online) has no rate */
	for (k = 0; k < c->m.nbits; k++)
		c->rows[k].rated = c->rows[k].counted && c->was.col != NULL &&
		    c->was.col[k] >= 0;
	c->now.ncols = ncols;
	while (rc == 1 && (rc = lines_next(&l, &line, &len)) == 1) {
		prc = interrupts_parse(line, len, ncols, 0, &r, counts);
		if (prc == 0)
			add_row(c, &r, counts, cpu, col, first, &at);
		/* "%10u": the kernel cannot have printed it */
		else if (prc == -ERANGE && !wide++)
			warnx("%s: IRQ %u: a count wider than 32 bits; its row "
			    "is left out", procfs_path(PATH_PROC_INTERRUPTS),
			    r.irq);
	}
	if (rc == -EFBIG)
		warnx("%s: a line longer than %d bytes",
		    procfs_path(PATH_PROC_INTERRUPTS), ROW_MAX);
	else if (rc < 0 && rc != -EINVAL)
		warnc(-rc, "%s", procfs_path(PATH_PROC_INTERRUPTS));
	lines_close(&l);
	free(counts);
	if (c->sm.on) {
		counts_free(&c->was);
		c->was = c->now;
		c->was.col = col;
		memset(&c->now, 0, sizeof(c->now));
	} else
		free(col);
	free(cpu);
	return rc == 0 ? 0 : -1;
}

/*
 * IRQS: each IRQ counts for its effective CPUs, else its requested; when
 * sampling, those are the cells followed.
 */
static int
count_irqs(struct cpus *c)
{
	struct irqs all = { NULL, 0 };
	struct cpuset *set;
	struct perr pe;
	size_t i;
	int rc, cpu;

	if ((rc = irqs_all(&all)) != 0)
		return -1;
	set = xcpuset(c->m.nbits);
	for (i = 0; i < all.n; i++) {
		if ((rc = runs_on_read(&c->m, all.v[i], set, NULL, &pe)) != 0) {
			warnx("irq %u: %s", all.v[i], pe.msg);
			continue;
		}
		for (cpu = cpuset_first(set); cpu >= 0;
		    cpu = cpuset_next(set, cpu + 1)) {
			c->rows[cpu].irqs++;
			if (!c->sm.on)
				continue;
			c->cells = xreallocarray(c->cells, c->ncells + 1,
			    sizeof(*c->cells));
			c->cells[c->ncells++] = (struct cell){
			    .irq = all.v[i], .cpu = cpu };
		}
	}
	cpuset_free(set);
	irqs_free(&all);
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
	const char *w[3];
	char *s = NULL, *name, *item;
	size_t i;
	int node;

	switch (col) {
	case C_CPU:
		if (asprintf(&s, "%d", cpu) < 0)
			err(1, NULL);
		break;
	case C_NODE:
		if ((node = machine_cpu_node(&c->m, cpu)) >=
		    0 && asprintf(&s, "%d", node) < 0)
			err(1, NULL);
		break;
	case C_STATE:
		state_words(c, cpu, w);
		if (asprintf(&s, "%s%s%s%s%s", w[0], w[1] ? "," : "",
		    w[1] ? w[1] : "", w[2] ? "," : "", w[2] ? w[2] : "") < 0)
			err(1, NULL);
		break;
	case C_IRQS:
		if (asprintf(&s, "%u", r->irqs) < 0)
			err(1, NULL);
		break;
	case C_TOTAL:
		if (r->counted && asprintf(&s, "%llu", r->total) < 0)
			err(1, NULL);
		break;
	case C_RATE:
		if (r->rated && c->sm.on && asprintf(&s, "%.1f",
		    r->delta / c->sm.elapsed) < 0)
			err(1, NULL);
		break;
	case C_TOP:
		for (i = 0; i < r->ntop; i++) {
			name = (char *)(r->top[i].name ? r->top[i].name : "");
			if (escape && (name = escaped(name)) == NULL)
				err(1, NULL);
			if (asprintf(&item, "%s%s%s(%u)", s ? s : "",
			    s ? " " : "", name, r->top[i].irq) < 0)
				err(1, NULL);
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
	const struct cpurow *r = &c->rows[cpu];
	const char *w[3];
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
		for (i = 0; i < r->ntop; i++) {
			printf("%s{\"irq\":%u,\"name\":", i ? "," : "",
			    r->top[i].irq);
			json_string(stdout, r->top[i].name ? r->top[i].name :
			    "");
			if (c->sm.on)
				printf(",\"rate\":%.1f}",
				    r->top[i].count / c->sm.elapsed);
			else
				printf(",\"count\":%llu}", r->top[i].count);
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

	while ((ch = getopts(argc, argv, &cpus_command, "o:nJi:c:",
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
		default:
			if ((rc = sampling_option(&cpus_command, ch, optarg,
			    &c->sm)) != EXIT_OK)
				return rc;
			break;
		}
	}
	if (argc - optind > 1)
		return usage_error(&cpus_command,
		    "expected at most one CPU set");
	if ((rc = sampling_check(&cpus_command, &c->sm)) != EXIT_OK)
		return rc;
	for (k = 0; k < c->ncols; k++)
		if (c->cols[k] == C_RATE && !c->sm.on)
			return usage_error(&cpus_command, "RATE needs -i");
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
	struct cell *cl;
	long long n;
	size_t i;

	for (n = 0; n < (c->sm.count ? c->sm.count : 1); n++) {
		for (i = 0; i < c->m.nbits; i++)
			c->rows[i].ntop = 0;
		for (i = 0; i < c->ncells; i++) {
			c->cells[i].before = c->cells[i].count;
			c->cells[i].had = c->cells[i].have;
			c->cells[i].have = false;
		}
		sampling_next(&c->sm, c->json);
		if (read_counts(c, false) != 0)
			return EXIT_FAIL;
		for (i = 0; i < c->ncells; i++) {
			cl = &c->cells[i];
			if (!cl->had || !cl->have)
				continue;
			top_add(&c->rows[cl->cpu],
			    (uint32_t)(cl->count - cl->before), cl->irq,
			    cl->name);
		}
		if (c->json)
			print_json(c, c->sm.stamp);
		else {
			sampling_head(&c->sm, n, c->noheadings);
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
		free(c->names[i]);
	free(c->names);
	free(c->cells);
	free(c->rows);
	counts_free(&c->now);
	counts_free(&c->was);
	cpuset_free(c->want);
	cpuset_free(c->isolated);
	cpuset_free(c->nohz);
	machine_free(&c->m);
}

static int
cpus_main(int argc, char *argv[])
{
	struct cpus c;
	struct perr pe;
	int status;

	memset(&c, 0, sizeof(c));
	if ((status = cpus_options(argc, argv, &c)) != EXIT_OK)
		return status;
	if (machine_load(&c.m) != 0)
		return EXIT_FAIL;
	c.want = xcpudup(c.m.possible);
	if (argc - optind == 1 && machine_cpus(&c.m, argv[optind],
	    CPUS_NONEMPTY, c.want, &pe) != 0) {
		warnx("%s", pe.msg);
		status = EXIT_USAGE;
		goto out;
	}
	cpuset_and(c.want, c.m.possible);
	if ((c.isolated = machine_file(&c.m, PATH_CPU_ISOLATED)) == NULL)
		c.isolated = xcpuset(c.m.nbits);
	if ((c.nohz = machine_file(&c.m, PATH_CPU_NOHZ_FULL)) == NULL)
		c.nohz = xcpuset(c.m.nbits);
	c.rows = xcalloc(c.m.nbits, sizeof(*c.rows));
	if (count_irqs(&c) != 0 || (sampling_begin(&c.sm),
	    read_counts(&c, true)) != 0)
		status = EXIT_FAIL;
	else if (c.sm.on)
		status = sample(&c);
	else if (c.json)
		print_json(&c, NULL);
	else
		print_table(&c);
out:
	cpus_free(&c);
	return status;
}
