/*
 * show: one row per IRQ, columns chosen with -o as lsirq(1) does, as a
 * table for people or JSON for scripts.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/columns.h"
#include "cmd/commands.h"
#include "core/counts.h"
#include "core/irqinfo.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

enum col {
	C_IRQ, C_AFFINITY, C_EFFECTIVE, C_NODE, C_TOTAL, C_NAME,
	C_HINT, C_ONLINE, C_CHIP, C_HWIRQ, C_TYPE, C_FLOW, C_DEVICE,
	C_MANAGED, C_RATE, NCOLS
};

static const struct column columns[NCOLS] = {
	[C_IRQ] =	{ "IRQ", "irq", true, true, "interrupt number" },
	[C_AFFINITY] =	{ "AFFINITY", "affinity", false, false,
	    "requested CPUs (smp_affinity_list)" },
	[C_EFFECTIVE] =	{ "EFFECTIVE", "effective", false, false,
	    "online CPUs it is delivered to (effective_affinity_list)" },
	[C_NODE] =	{ "NODE", "node", true, true, "NUMA node of the IRQ" },
	[C_TOTAL] =	{ "TOTAL", "total", true, true,
	    "interrupts counted on the online CPUs" },
	[C_NAME] =	{ "NAME", "name", false, false, "action names" },
	[C_HINT] =	{ "HINT", "hint", false, false,
	    "CPUs the driver suggests (affinity_hint)" },
	[C_ONLINE] =	{ "ONLINE", "online", false, false,
	    "requested CPUs that are online" },
	[C_CHIP] =	{ "CHIP", "chip", false, false, "interrupt controller" },
	[C_HWIRQ] =	{ "HWIRQ", "hwirq", true, true,
	    "hardware IRQ number in its domain" },
	[C_TYPE] =	{ "TYPE", "type", false, false,
	    "trigger: Level or Edge" },
	[C_FLOW] =	{ "FLOW", "flow", false, false,
	    "flow handler, as edge or fasteoi" },
	[C_DEVICE] =	{ "DEVICE", "device", false, false,
	    "network interface or PCI device" },
	[C_MANAGED] =	{ "MANAGED", "managed", false, false,
	    "the kernel owns the affinity (yes, no, unmovable; - unknown)" },
	[C_RATE] =	{ "RATE", "rate", true, true,
	    "interrupts per second over the interval (-i)" },
};

static int show_main(int, char *[]);
static void show_columns(FILE *);

const struct command show_command = {
	"show", show_main, "show the affinity of IRQs",
	"[-mJnaq] [-o columns] [-s column] [-i seconds] [--count count] "
	"[--sample-from file ...] [irqs ...]",
	"  -m, --mask              print CPU sets as kernel masks, not lists\n"
	"  -J, --json              print JSON\n"
	"  -n, --noheadings        print no header line\n"
	"  -o, --output COLS       columns to print, comma-separated\n"
	"  -s, --sort COLUMN       rows by COLUMN: TOTAL and RATE largest "
	"first\n"
	"  -a, --all               also IRQs that have no row in "
	"/proc/interrupts\n"
	"  -q, --quiet             no note for an item that picks no IRQ\n"
	"  -i, --interval SECS     sample for SECS and add RATE\n"
	"      --count COUNT       COUNT samples, each headed by its time\n"
	"      --sample-from FILE  one saved /proc/interrupts a read, not the "
	"kernel's\n",
	show_columns
};

static const unsigned int default_cols[] = {
	C_IRQ, C_AFFINITY, C_EFFECTIVE, C_NODE, C_TOTAL, C_NAME
};

/* Set cells hold lists, the shortest form; -m converts them as printed. */
struct row {
	unsigned int	 irq;
	bool		 matrix;	/* wants what only /proc/interrupts has */
	char		*cell[NCOLS];
};

/* A device that has an IRQ; seq orders the finds, class says who wins. */
struct device {
	unsigned int	 irq;
	size_t		 seq;
	bool		 named;		/* an interface or NVMe name, not PCI */
	char		*name;
};

struct show {
	struct machine	 m;
	unsigned int	 cols[NCOLS * 4];
	size_t		 ncols;
	bool		 want[NCOLS];
	int		 sort;		/* -s: a column, or -1 (by IRQ) */
	bool		 masks, json, noheadings, all, quiet;
	struct irqs	 only;		/* with an IRQ selector */
	bool		 filter;
	int		 info;		/* INFO_* of the columns asked for */
	struct cpuset	*scratch;	/* for -m */
	struct row	*rows;
	size_t		 nrows;
	struct device	*devices;	/* for DEVICE, sorted by IRQ */
	size_t		 ndevices;
	struct sampling	 sm;		/* -i, -c */
	struct counts_kept was, now;	/* -i: the pass before, and this */
	bool		 keep;		/* a pass to come wants this one's */
};

/* -s: one column by name, as -o takes them. */
static int
sort_column(struct show *sh, const char *arg)
{
	unsigned int col;
	size_t n = 0;
	struct perr pe;

	if (*arg == '+' || strchr(arg, ',') != NULL) {
		warnx("show: -s takes one column");
		return -1;
	}
	if (columns_parse(columns, NCOLS, NULL, 0, arg, &col, &n, 1,
	    &pe) != 0) {
		warnx("show: %s", pe.msg);
		return -1;
	}
	sh->sort = col;
	return 0;
}

static int
add_columns(struct show *sh, const char *arg)
{
	struct perr pe;

	if (columns_parse(columns, NCOLS, default_cols, nitems(default_cols),
	    arg, sh->cols, &sh->ncols, nitems(sh->cols), &pe) != 0) {
		warnx("show: %s", pe.msg);
		return -1;
	}
	return 0;
}

/* An affinity as a list; NULL for "-": unreadable or empty. */
static char *
read_set(struct show *sh, unsigned int irq, enum affinity what,
    const struct cpuset *and)
{
	struct cpuset *set = sh->scratch;
	char *out = NULL;

	if (machine_affinity_read(irq, what, set, NULL) == 0) {
		if (and != NULL)
			cpuset_and(set, and);
		if (!cpuset_empty(set))
			out = xformat(set, false);
	}
	return out;
}

static bool
is_set(enum col c)
{
	return c == C_AFFINITY || c == C_EFFECTIVE || c == C_ONLINE ||
	    c == C_HINT;
}

/* A cell as printed: a set cell becomes a mask with -m; free *owned. */
static const char *
cell_text(const struct show *sh, const struct row *row, enum col c,
    char **owned)
{
	const char *v = row->cell[c];

	*owned = NULL;
	if (v == NULL || !sh->masks || !is_set(c))
		return v;
	if (cpulist_parse(sh->scratch, v, NULL) != 0)
		return v;
	return *owned = xformat(sh->scratch, true);
}

static char *
read_word(unsigned int irq, const char *file)
{
	char rel[96], *buf, *word = NULL;
	size_t len;

	snprintf(rel, sizeof(rel), PATH_PROC_IRQ_FILE, irq, file);
	if (procfs_read(rel, &buf) != 0)
		return NULL;
	/* a copy: the read buffer is 4 KB, 16 MB over 4096 rows */
	if ((len = strcspn(buf, " \t\n")) > 0)
		word = xstrndup(buf, len);
	free(buf);
	return word;
}

static void
find_devices(struct show *sh, const char *dir, bool named)
{
	struct irqs irqs;
	struct device *d;
	char **names;
	size_t n, i, k;

	if (procfs_dir(dir, false, &names, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (select_device_irqs(names[i], &irqs, NULL) != 0)
			continue;
		sh->devices = xreallocarray(sh->devices, sh->ndevices + irqs.n,
		    sizeof(*sh->devices));
		for (k = 0; k < irqs.n; k++) {
			d = &sh->devices[sh->ndevices];
			*d = (struct device){ irqs.v[k], sh->ndevices, named,
			    xstrdup(names[i]) };
			sh->ndevices++;
		}
		select_free(&irqs);
	}
	procfs_dir_free(names, n);
}

static int
cmpdevice(const void *a, const void *b)
{
	const struct device *x = a, *y = b;

	if (x->irq != y->irq)
		return (x->irq > y->irq) - (x->irq < y->irq);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Which device each IRQ belongs to: an interface or NVMe name, the last
 * found, over the first PCI address; so the classes are read from the
 * list's end, and a disk's are left to its controller. Memory follows
 * the number of IRQs.
 */
static void
map_devices(struct show *sh)
{
	const struct devclass *c;
	size_t i;

	for (i = select_nclasses; i-- > 0;) {
		c = &select_classes[i];
		if (c->kind != DEVCLASS_DISK)
			find_devices(sh, c->dir, c->kind == DEVCLASS_NAMED);
	}
	if (sh->ndevices > 0)
		qsort(sh->devices, sh->ndevices, sizeof(*sh->devices),
		    cmpdevice);
}

static const char *
device_of(const struct show *sh, unsigned int irq)
{
	const struct device *d = sh->devices, *end = d + sh->ndevices;
	const char *name = NULL;
	size_t lo = 0, hi = sh->ndevices, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (d += lo; d < end && d->irq == irq; d++)
		if (name == NULL || d->named)
			name = d->name;
	return name;
}

static char *
number(unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	return xstrdup(buf);
}

static void
row_sets(struct show *sh, struct row *row)
{
	unsigned int irq = row->irq;
	const char *dev;
	enum movable mv;

	if (sh->want[C_AFFINITY])
		row->cell[C_AFFINITY] = read_set(sh, irq, AFF_REQUESTED, NULL);
	if (sh->want[C_EFFECTIVE] && machine_effective_read(sh->m.online, irq,
	    sh->scratch, NULL) == 0 && !cpuset_empty(sh->scratch))
		row->cell[C_EFFECTIVE] = xformat(sh->scratch, false);
	if (sh->want[C_ONLINE])
		row->cell[C_ONLINE] = read_set(sh, irq, AFF_REQUESTED,
		    sh->m.online);
	if (sh->want[C_HINT])
		row->cell[C_HINT] = read_set(sh, irq, AFF_HINT, NULL);
	if (sh->want[C_NODE])
		row->cell[C_NODE] = read_word(irq, "node");
	if (sh->want[C_DEVICE] && (dev = device_of(sh, irq)) != NULL)
		row->cell[C_DEVICE] = xstrdup(dev);
	/* debugfs or the kernel's refusal; else "-" (null in JSON) */
	if (sh->want[C_MANAGED] &&
	    (mv = machine_irq_movable(irq)) != MOVABLE_UNKNOWN)
		row->cell[C_MANAGED] = xstrdup(mv == MOVABLE_MANAGED ? "yes" :
		    mv == MOVABLE_NO ? "unmovable" : "no");
}

static struct row *
add_row(struct show *sh, unsigned int irq)
{
	struct row *row;

	sh->rows = xreallocarray(sh->rows, sh->nrows + 1, sizeof(*sh->rows));
	row = &sh->rows[sh->nrows++];
	memset(row, 0, sizeof(*row));
	row->irq = irq;
	row->cell[C_IRQ] = number(irq);
	row_sets(sh, row);
	return row;
}

static void
fill(char **cell, const char *v, size_t len)
{
	if (*cell == NULL && len > 0)
		*cell = xstrndup(v, len);
}

/* What the IRQ's row of /proc/interrupts adds to what the row has. */
static void
fill_row(struct show *sh, struct row *row, const struct irqrow *r)
{
	char *type;

	if (sh->want[C_TOTAL] && row->cell[C_TOTAL] == NULL)
		row->cell[C_TOTAL] = number(r->total);
	fill(&row->cell[C_CHIP], r->chip, r->chiplen);
	fill(&row->cell[C_HWIRQ], r->hwirq, r->hwirqlen);
	fill(&row->cell[C_FLOW], r->flow, r->flowlen);
	fill(&row->cell[C_NAME], r->names, r->nameslen);
	fill(&row->cell[C_TYPE], r->type, r->typelen);
	/* Level/Edge only with CONFIG_GENERIC_IRQ_SHOW_LEVEL; sysfs has it */
	if (sh->want[C_TYPE] && row->cell[C_TYPE] == NULL) {
		struct irqinfo in;

		if (irqinfo_read(&sh->m, row->irq, INFO_TYPE, &in) == 0) {
			type = in.type;
			in.type = NULL;
			row->cell[C_TYPE] = type;
		}
		irqinfo_free(&in);
	}
	row->matrix = false;
}

/* A selected IRQ's row from sys/kernel/irq/N; what it lacks, later. */
static void
fill_sysfs(struct show *sh, struct row *row)
{
	struct irqinfo in;

	if (sh->info == 0)
		return;
	if (irqinfo_read(&sh->m, row->irq, sh->info, &in) != 0) {
		row->matrix = true;
		return;
	}
	if (in.has_total)
		row->cell[C_TOTAL] = number(in.total);
	else if (sh->info & INFO_TOTAL)
		row->matrix = true;
	row->cell[C_CHIP] = in.chip;
	row->cell[C_HWIRQ] = in.hwirq;
	row->cell[C_TYPE] = in.type;
	row->cell[C_FLOW] = in.flow;
	row->cell[C_NAME] = in.names;
	in.chip = in.hwirq = in.type = in.flow = in.names = NULL;
	irqinfo_free(&in);
}

/* An IRQ with no row anywhere: its names are its proc/irq/N entries. */
static void
fill_rowless(struct show *sh, struct row *row)
{
	if (sh->want[C_NAME] && row->cell[C_NAME] == NULL) {
		row->cell[C_NAME] = select_names(row->irq);
		if (*row->cell[C_NAME] == '\0') {
			free(row->cell[C_NAME]);
			row->cell[C_NAME] = NULL;
		}
	}
}

static int
cmprow(const void *a, const void *b)
{
	unsigned int x = ((const struct row *)a)->irq;
	unsigned int y = ((const struct row *)b)->irq;

	return (x > y) - (x < y);
}

/* With a selector: the row of each selected IRQ that still wants it. */
static struct row *
wanted_row(struct show *sh, unsigned int irq)
{
	size_t at;

	if (!select_find(&sh->only, irq, &at) || !sh->rows[at].matrix)
		return NULL;
	return &sh->rows[at];
}

/*
 * RATE: what the row counted on each CPU since the pass before, each
 * difference modulo 2^32 (counts_delta()), over the CPUs both passes
 * have a column for. No rate for a row the pass before lacked, nor for
 * one whose count went down on a CPU: a difference of 2^31 or more is
 * an IRQ freed and set up again, not 2^31 interrupts in one interval.
 */
static void
rate(struct show *sh, struct row *row, const struct counts *rd,
    const struct irqrow *r)
{
	struct kept_row was;
	unsigned long long sum = 0;
	unsigned int k;
	uint32_t d;
	char buf[48];

	if (sh->keep)
		counts_keep(&sh->now, rd, r);
	if (!counts_kept_row(&sh->was, r->irq, &was))
		return;
	for (k = 0; k < r->ncounts; k++)
		switch (counts_delta(&sh->was, &was, rd->cpu[k], rd->v[k],
		    &d)) {
		case COUNTS_RESET:
			return;
		case COUNTS_COUNTED:
			sum += d;
			break;
		}
	snprintf(buf, sizeof(buf), "%.1f", sum / sh->sm.elapsed);
	free(row->cell[C_RATE]);
	row->cell[C_RATE] = xstrdup(buf);
}

/*
 * Without a selector a row for each of its rows; with one, what
 * sys/kernel/irq did not give, read only up to the last IRQ wanting it.
 * With -i each count, kept for the next pass.
 */
static int
read_interrupts(struct show *sh, unsigned int last)
{
	struct counts rd;
	struct irqrow r;
	struct row *row = NULL;
	unsigned int irq, wide = 0;
	int prc;

	if (counts_open(&rd, sh->m.nbits, (sh->want[C_TOTAL] ? COUNTS_TOTAL :
	    0) | (sh->sm.on ? COUNTS_CPUS | COUNTS_EACH : 0)) != 0)
		return -1;
	if (sh->keep)
		counts_kept_begin(&sh->now, &rd);
	/* rows come in IRQ order (show_interrupts()) */
	while (counts_next(&rd, &irq) == 1 && irq <= last) {
		if (sh->filter && (row = wanted_row(sh, irq)) == NULL)
			continue;
		prc = counts_row(&rd, &r);
		if (prc == -ERANGE) {
			/* "%10u": the kernel cannot have printed it */
			if (!wide++)
				warnx("%s: IRQ %u: a count wider than 32 bits; "
				    "its TOTAL is unknown", counts_path(),
				    r.irq);
			fill_rowless(sh, sh->filter ? row : add_row(sh, r.irq));
			continue;
		}
		if (prc != 0)
			continue;
		if (!sh->filter)
			row = add_row(sh, r.irq);
		fill_row(sh, row, &r);
		if (sh->sm.on)
			rate(sh, row, &rd, &r);
	}
	if (counts_close(&rd) != 0)
		return -1;
	if (sh->keep) {
		counts_kept_free(&sh->was);
		sh->was = sh->now;
		memset(&sh->now, 0, sizeof(sh->now));
	}
	return 0;
}

/*
 * The rows of the IRQs a selector picked, each from its own files: the
 * cost follows the question, not the size of the machine.
 */
static int
read_selected(struct show *sh)
{
	unsigned int last = 0;
	size_t i;
	bool matrix = false;

	for (i = 0; i < sh->only.n; i++) {
		fill_sysfs(sh, add_row(sh, sh->only.v[i]));
		/* a rate needs each CPU's count */
		if (sh->sm.on)
			sh->rows[i].matrix = true;
		if (sh->rows[i].matrix) {
			matrix = true;
			last = sh->rows[i].irq;
		}
	}
	if (matrix && read_interrupts(sh, last) != 0)
		return -1;
	for (i = 0; i < sh->nrows; i++)
		if (sh->rows[i].matrix)
			fill_rowless(sh, &sh->rows[i]);
	return 0;
}

/* With -a, the IRQs that have no row in proc/interrupts. */
static int
add_rowless(struct show *sh)
{
	struct irqs seen = { 0 }, dirs;
	struct row *row;
	size_t i;

	if (sh->nrows > 0)
		qsort(sh->rows, sh->nrows, sizeof(*sh->rows), cmprow);
	if (!sh->all)
		return 0;
	if (select_all(&dirs) != 0)
		return -1;
	seen.v = xcalloc(sh->nrows, sizeof(*seen.v));
	for (seen.n = 0; seen.n < sh->nrows; seen.n++)
		seen.v[seen.n] = sh->rows[seen.n].irq;
	/* sys/kernel/irq/N as for a selected IRQ: show N and -a agree */
	for (i = 0; i < dirs.n; i++)
		if (!select_find(&seen, dirs.v[i], NULL)) {
			row = add_row(sh, dirs.v[i]);
			fill_sysfs(sh, row);
			fill_rowless(sh, row);
		}
	select_free(&dirs);
	select_free(&seen);
	if (sh->nrows > 0)
		qsort(sh->rows, sh->nrows, sizeof(*sh->rows), cmprow);
	return 0;
}

/*
 * A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?; "007" or "-01" stay
 * strings.
 */
static bool
json_number(const char *v)
{
	v += *v == '-';
	if (*v == '0')
		v++;
	else if (*v >= '1' && *v <= '9')
		v += strspn(v, "0123456789");
	else
		return false;
	if (*v == '.' && v[1] >= '0' && v[1] <= '9')
		v += 1 + strspn(v + 1, "0123456789");
	return *v == '\0';
}

/* A set cell's CPUs as an array, and for those that say where, nodes. */
static void
json_set_extra(struct show *sh, const struct row *row, enum col c)
{
	const char *key = columns[c].key;

	printf(",\"%s_cpus\":", key);
	columns_json_cpus(stdout, row->cell[c], sh->m.nbits);
	if (c == C_AFFINITY || c == C_EFFECTIVE) {
		printf(",\"%s_nodes\":", key);
		columns_json_nodes(stdout, row->cell[c], &sh->m);
	}
}

static void
print_json(struct show *sh, const char *stamp)
{
	const struct column *c;
	size_t i, k;
	const char *v;
	char *owned;

	/* one object a line: JSON Lines with -c */
	putchar('{');
	if (stamp != NULL)
		printf("\"time\":\"%s\",\"interval\":%.3f,", stamp,
		    sh->sm.elapsed);
	printf("\"interrupts\":[");
	for (i = 0; i < sh->nrows; i++) {
		printf("%s{", i ? "," : "");
		for (k = 0; k < sh->ncols; k++) {
			c = &columns[sh->cols[k]];
			v = cell_text(sh, &sh->rows[i], sh->cols[k], &owned);
			printf("%s\"%s\":", k ? "," : "", c->key);
			if (v == NULL)
				printf("null");
			else if (sh->cols[k] == C_MANAGED &&
			    strcmp(v, "unmovable") != 0)
				printf("%s", strcmp(v, "yes") == 0 ? "true" :
				    "false");
			else if (c->number && json_number(v))
				printf("%s", v);
			else
				text_json_string(stdout, v);
			free(owned);
			if (is_set(sh->cols[k]))
				json_set_extra(sh, &sh->rows[i], sh->cols[k]);
		}
		printf("}");
	}
	printf("]}\n");
}

/* Names from the system reach the terminal only as vis(3) escapes. */
static void
escape_cells(struct show *sh)
{
	size_t i, k;
	char *t;

	for (i = 0; i < sh->nrows; i++)
		for (k = 0; k < NCOLS; k++) {
			if (sh->rows[i].cell[k] == NULL)
				continue;
			if ((t = text_escaped(sh->rows[i].cell[k])) == NULL)
				err(EXIT_FAIL, NULL);
			free(sh->rows[i].cell[k]);
			sh->rows[i].cell[k] = t;
		}
}

/* Every mask is as wide as the possible CPUs make it: masklen. */
static size_t
cell_width(const struct show *sh, size_t i, enum col c, size_t masklen)
{
	const char *v = sh->rows[i].cell[c];

	if (v == NULL)
		return 1;
	if (sh->masks && is_set(c))
		return masklen;
	return strlen(v);
}

static void
print_table(const struct show *sh)
{
	size_t width[nitems(sh->cols)], i, k, len, masklen;
	const char *v;
	char *owned;

	cpuset_zero(sh->scratch);
	owned = xformat(sh->scratch, true);
	masklen = strlen(owned);
	free(owned);
	for (k = 0; k < sh->ncols; k++) {
		width[k] = sh->noheadings ? 0 : strlen(columns[sh->cols[k]].name);
		for (i = 0; i < sh->nrows; i++)
			if ((len = cell_width(sh, i, sh->cols[k], masklen)) >
			    width[k])
				width[k] = len;
	}
	for (i = sh->noheadings ? 1 : 0; i <= sh->nrows; i++) {
		for (k = 0; k < sh->ncols; k++) {
			owned = NULL;
			if (i == 0)
				v = columns[sh->cols[k]].name;
			else if ((v = cell_text(sh, &sh->rows[i - 1],
			    sh->cols[k], &owned)) == NULL)
				v = "-";
			columns_cell(stdout, &columns[sh->cols[k]], width[k], v,
			    k + 1 == sh->ncols);
			free(owned);
		}
	}
}

static const struct option show_opts[] = {
	{ "mask", no_argument, NULL, 'm' },
	{ "json", no_argument, NULL, 'J' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, 's' },
	{ "all", no_argument, NULL, 'a' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "interval", required_argument, NULL, 'i' },
	CLI_SAMPLE_LONGOPT,
	{ "count", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void
show_columns(FILE *fp)
{
	fprintf(fp, "\nColumns (-o; +LIST adds to the default):\n");
	columns_help(fp, columns, NCOLS);
}

static void
free_rows(struct show *sh)
{
	size_t i, k;

	for (i = 0; i < sh->nrows; i++)
		for (k = 0; k < NCOLS; k++)
			free(sh->rows[i].cell[k]);
	free(sh->rows);
	sh->rows = NULL;
	sh->nrows = 0;
}

static void
show_free(struct show *sh)
{
	size_t i;

	free_rows(sh);
	counts_kept_free(&sh->was);
	counts_kept_free(&sh->now);
	for (i = 0; i < sh->ndevices; i++)
		free(sh->devices[i].name);
	free(sh->devices);
	select_free(&sh->only);
	cpuset_free(sh->scratch);
	machine_free(&sh->m);
	cli_sampling_free(&sh->sm);
}

/* The columns sys/kernel/irq/N can give. */
static const struct {
	enum col	col;
	int		info;
} info_cols[] = {
	{ C_TOTAL, INFO_TOTAL }, { C_CHIP, INFO_CHIP },
	{ C_HWIRQ, INFO_HWIRQ }, { C_TYPE, INFO_TYPE },
	{ C_FLOW, INFO_FLOW }, { C_NAME, INFO_NAMES },
};

static int
show_options(int argc, char *argv[], struct show *sh)
{
	size_t i;
	int ch, rc;

	while ((ch = cli_getopts(argc, argv, &show_command, "mJno:s:aqi:c:",
	    show_opts)) != -1) {
		switch (ch) {
		case 'm':
			sh->masks = true;
			break;
		case 'J':
			sh->json = true;
			break;
		case 'n':
			sh->noheadings = true;
			break;
		case 'o':
			sh->ncols = 0;
			if (add_columns(sh, optarg) != 0)
				return EXIT_USAGE;
			break;
		case 's':
			if (sort_column(sh, optarg) != 0)
				return EXIT_USAGE;
			break;
		case 'a':
			sh->all = true;
			break;
		case 'q':
			sh->quiet = true;
			break;
		default:
			if ((rc = cli_sampling_option(&show_command, ch, optarg,
			    &sh->sm)) != EXIT_OK)
				return rc;
			break;
		}
	}
	if ((rc = cli_sampling_check(&show_command, &sh->sm)) != EXIT_OK)
		return rc;
	if (sh->ncols == 0)
		for (i = 0; i < nitems(default_cols); i++) {
			sh->cols[sh->ncols++] = default_cols[i];
			if (default_cols[i] == C_TOTAL && sh->sm.on)
				sh->cols[sh->ncols++] = C_RATE;
		}
	for (i = 0; i < sh->ncols; i++)
		sh->want[sh->cols[i]] = true;
	if (sh->sort >= 0)
		sh->want[sh->sort] = true;
	if (sh->want[C_RATE] && !sh->sm.on)
		return cli_usage_error(&show_command, "RATE needs -i");
	for (i = 0; i < nitems(info_cols); i++)
		if (sh->want[info_cols[i].col])
			sh->info |= info_cols[i].info;
	return EXIT_OK;
}

/* Every row, from the selected IRQs' files or from proc/interrupts. */
static int
read_rows(struct show *sh)
{
	if (sh->filter)
		return read_selected(sh);
	if (read_interrupts(sh, UINT_MAX) != 0 || add_rowless(sh) != 0)
		return -1;
	return 0;
}

/* The column rows are sorted by (qsort() takes no argument). */
static int sort_by;

/*
 * TOTAL and RATE, counts, largest first; any other column smallest
 * first, numbers as numbers; "-" last; then by IRQ.
 */
static int
cmpsorted(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	const char *u = x->cell[sort_by], *v = y->cell[sort_by];
	double du, dv;
	int c = 0;

	if (u == NULL || v == NULL)
		c = (u == NULL) - (v == NULL);
	else if (columns[sort_by].number && json_number(u) &&
	    json_number(v)) {
		du = strtod(u, NULL);
		dv = strtod(v, NULL);
		c = (du > dv) - (du < dv);
		if (sort_by == C_TOTAL || sort_by == C_RATE)
			c = -c;
	} else
		c = strcmp(u, v);
	return c != 0 ? c : (x->irq > y->irq) - (x->irq < y->irq);
}

static void
print_rows(struct show *sh, const char *stamp)
{
	if (sh->sort >= 0 && sh->nrows > 1) {
		sort_by = sh->sort;
		qsort(sh->rows, sh->nrows, sizeof(*sh->rows), cmpsorted);
	}
	if (sh->json)
		print_json(sh, stamp);
	else {
		escape_cells(sh);
		print_table(sh);
	}
}

/* Samples: the rows read again at each interval's end, with RATE. */
static int
sample(struct show *sh)
{
	long long n;

	for (n = 0; n < (sh->sm.count ? sh->sm.count : 1); n++) {
		free_rows(sh);
		sh->keep = n + 1 < sh->sm.count;
		cli_sampling_next(&sh->sm, sh->json);
		if (read_rows(sh) != 0)
			return EXIT_FAIL;
		if (!sh->json)
			cli_sampling_head(&sh->sm, n, sh->noheadings);
		print_rows(sh, sh->json ? sh->sm.stamp : NULL);
		if (fflush(stdout) != 0)
			break;
	}
	return EXIT_OK;
}

static int
show_main(int argc, char *argv[])
{
	struct show sh;
	int status;

	memset(&sh, 0, sizeof(sh));
	sh.sort = -1;
	if ((status = show_options(argc, argv, &sh)) != EXIT_OK ||
	    machine_load(&sh.m) != 0) {
		cli_sampling_free(&sh.sm);
		return status != EXIT_OK ? status : EXIT_FAIL;
	}
	sh.scratch = xcpuset(sh.m.nbits);
	if (argc - optind >= 1) {
		status = cli_exit_status(select_query_many(argc - optind,
		    argv + optind, &sh.only, sh.quiet));
		sh.filter = true;
	}
	if (status == EXIT_OK && sh.want[C_DEVICE])
		map_devices(&sh);
	cli_sampling_begin(&sh.sm);
	sh.keep = sh.sm.on;
	if (status == EXIT_OK && read_rows(&sh) != 0)
		status = EXIT_FAIL;
	if (status == EXIT_OK && sh.sm.on)
		status = sample(&sh);
	else if (status == EXIT_OK)
		print_rows(&sh, NULL);
	/* as grep: a selection that picks nothing is exit 1 */
	if (status == EXIT_OK && sh.filter && sh.only.n == 0)
		status = EXIT_FAIL;
	show_free(&sh);
	return status;
}
