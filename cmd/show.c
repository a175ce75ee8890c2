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
#include "cmd/show.h"
#include "core/counts.h"
#include "core/device.h"
#include "core/irqinfo.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static const struct column columns[NCOLS] = {
	[C_IRQ] = { .name = "IRQ", .key = "irq", .kind = COL_NUMBER,
	    .right = true, .help = "interrupt number" },
	[C_AFFINITY] = { .name = "AFFINITY", .key = "affinity",
	    .kind = COL_CPUS, .help = "requested CPUs (smp_affinity_list)" },
	[C_EFFECTIVE] = { .name = "EFFECTIVE", .key = "effective",
	    .kind = COL_CPUS,
	    .help = "online CPUs it is delivered to (effective_affinity_list)" },
	[C_NODE] = { .name = "NODE", .key = "node", .kind = COL_NUMBER,
	    .right = true, .help = "NUMA node of the IRQ" },
	[C_TOTAL] = { .name = "TOTAL", .key = "total", .kind = COL_NUMBER,
	    .right = true, .help = "interrupts counted on the online CPUs" },
	[C_NAME] = { .name = "NAME", .key = "name", .kind = COL_STRING,
	    .help = "action names" },
	[C_HINT] = { .name = "HINT", .key = "hint", .kind = COL_CPUS,
	    .help = "CPUs the driver suggests (affinity_hint)" },
	[C_ONLINE] = { .name = "ONLINE", .key = "online", .kind = COL_CPUS,
	    .help = "requested CPUs that are online" },
	[C_CHIP] = { .name = "CHIP", .key = "chip", .kind = COL_STRING,
	    .help = "interrupt controller" },
	[C_HWIRQ] = { .name = "HWIRQ", .key = "hwirq", .kind = COL_NUMBER,
	    .right = true, .help = "hardware IRQ number in its domain" },
	[C_TYPE] = { .name = "TYPE", .key = "type", .kind = COL_STRING,
	    .help = "trigger: Level or Edge" },
	[C_FLOW] = { .name = "FLOW", .key = "flow", .kind = COL_STRING,
	    .help = "flow handler, as edge or fasteoi" },
	[C_DEVICE] = { .name = "DEVICE", .key = "device", .kind = COL_STRING,
	    .help = "network interface or PCI device" },
	[C_MANAGED] = { .name = "MANAGED", .key = "managed", .kind = COL_BOOL,
	    .help = "the kernel owns the affinity (yes, no; - unknown)" },
	[C_RATE] = { .name = "RATE", .key = "rate", .kind = COL_NUMBER,
	    .right = true,
	    .help = "interrupts per second over the interval (-i)" },
	[C_PENDING] = { .name = "PENDING", .key = "pending", .kind = COL_BOOL,
	    .help = "runs outside AFFINITY: a move not applied yet (yes, no)" },
	[C_STUCK] = { .name = "STUCK", .key = "stuck", .kind = COL_BOOL,
	    .help = "a pending move no CPU has a free vector for (yes, no)" },
	[C_MOVABLE] = { .name = "MOVABLE", .key = "movable", .kind = COL_BOOL,
	    .help = "user space may move it (yes, no; - unknown)" },
	[C_THREAD] = { .name = "THREAD", .key = "thread", .kind = COL_STRING,
	    .help = "its handler threads (irq/N-NAME), comma-separated" },
	[C_THREAD_CPUS] = { .name = "THREAD-CPUS", .key = "thread_cpus",
	    .kind = COL_CPUS, .help = "CPUs its threads may run on" },
};

static int show_main(int, char *[]);
static void show_columns(FILE *);

const struct command show_command = {
	.name = "show",
	.main = show_main,
	.summary = "show the affinity of IRQs",
	.synopsis =
	    "[-mJnaq] [-o columns] [-s column] [-i seconds] [--count count] "
	    "[--sample-from file ...] [irqs ...]",
	.options =
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
	.more_help = show_columns,
};

static const unsigned int default_cols[] = {
	C_IRQ, C_AFFINITY, C_EFFECTIVE, C_NODE, C_TOTAL, C_NAME
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

static bool
is_set(enum col c)
{
	return columns[c].kind == COL_CPUS;
}

/* A cell as printed: a set cell becomes a mask with -m; free *owned. */
static const char *
cell_text(const struct show *sh, const struct row *row, enum col c,
    char **owned)
{
	const char *v = row->cell[c];

	*owned = NULL;
	if (v == NULL || *v == '\0' || !sh->masks || !is_set(c))
		return v;
	if (cpulist_parse(sh->scratch, v, NULL) != 0)
		return v;
	return *owned = xformat(sh->scratch, true);
}

/*
 * A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?; "007" or "-01" are not.
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
			/* each key one type: a number or yes/no that is not
			 * one (a node file of "1-2") is not known, null */
			if (c->kind == COL_BOOL && v != NULL &&
			    (strcmp(v, "yes") == 0 || strcmp(v, "no") == 0))
				printf("%s", *v == 'y' ? "true" : "false");
			else if (c->kind == COL_NUMBER && v != NULL &&
			    json_number(v))
				printf("%s", v);
			else if (v == NULL || c->kind == COL_BOOL ||
			    c->kind == COL_NUMBER)
				printf("null");
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
			t = xescaped(sh->rows[i].cell[k]);
			free(sh->rows[i].cell[k]);
			sh->rows[i].cell[k] = t;
		}
}

/* Every mask is as wide as the possible CPUs make it: masklen. */
static size_t
cell_width(const struct show *sh, size_t i, enum col c, size_t masklen)
{
	const char *v = sh->rows[i].cell[c];

	if (v == NULL || *v == '\0')
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
			    sh->cols[k], &owned)) == NULL || *v == '\0')
				v = "-";	/* unknown, or an empty set */
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
	free_rows(sh);
	counts_kept_free(&sh->was);
	counts_kept_free(&sh->now);
	device_map_free(&sh->devices);
	irqthread_free(&sh->threads);
	vectors_free(&sh->vec);
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
		return show_read_selected(sh);
	if (show_read_interrupts(sh, UINT_MAX) != 0 || show_add_rowless(sh) != 0)
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

	u = u != NULL && *u == '\0' ? NULL : u;	/* an empty set: "-" */
	v = v != NULL && *v == '\0' ? NULL : v;
	if (u == NULL || v == NULL)
		c = (u == NULL) - (v == NULL);
	else if (columns[sort_by].kind == COL_NUMBER && json_number(u) &&
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
		device_map(&sh.devices);
	/* none: the kernel threads no handler, and the cells are "-" */
	if (status == EXIT_OK && (sh.want[C_THREAD] ||
	    sh.want[C_THREAD_CPUS]))
		(void)irqthread_load(sh.m.nbits, &sh.threads);
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
