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
#include "parse.h"
#include "procfs.h"

static const struct column columns[NCOLS] = {
	[C_IRQ] = { .name = "IRQ", .key = "irq", .kind = COL_NUMBER,
	    .help = "interrupt number" },
	[C_AFFINITY] = { .name = "AFFINITY", .key = "affinity",
	    .kind = COL_CPUS, .nodes = true,
	    .help = "requested CPUs (smp_affinity_list)" },
	[C_EFFECTIVE] = { .name = "EFFECTIVE", .key = "effective",
	    .kind = COL_CPUS, .nodes = true,
	    .help = "online CPUs it is delivered to (effective_affinity_list)" },
	[C_NODE] = { .name = "NODE", .key = "node", .kind = COL_NUMBER,
	    .help = "NUMA node of the IRQ" },
	[C_TOTAL] = { .name = "TOTAL", .key = "total", .kind = COL_NUMBER,
	    .largest_first = true,
	    .help = "interrupts counted on the online CPUs" },
	[C_NAME] = { .name = "NAME", .key = "name", .kind = COL_STRING,
	    .help = "action names" },
	[C_HINT] = { .name = "HINT", .key = "hint", .kind = COL_CPUS,
	    .help = "CPUs the driver suggests (affinity_hint)" },
	[C_ONLINE] = { .name = "ONLINE", .key = "online", .kind = COL_CPUS,
	    .help = "requested CPUs that are online" },
	[C_CHIP] = { .name = "CHIP", .key = "chip", .kind = COL_STRING,
	    .help = "interrupt controller" },
	[C_HWIRQ] = { .name = "HWIRQ", .key = "hwirq", .kind = COL_NUMBER,
	    .help = "hardware IRQ number in its domain" },
	[C_TYPE] = { .name = "TYPE", .key = "type", .kind = COL_STRING,
	    .help = "trigger: Level or Edge" },
	[C_FLOW] = { .name = "FLOW", .key = "flow", .kind = COL_STRING,
	    .help = "flow handler, as edge or fasteoi" },
	[C_DEVICE] = { .name = "DEVICE", .key = "device", .kind = COL_STRING,
	    .help = "network interface or PCI device" },
	[C_MANAGED] = { .name = "MANAGED", .key = "managed", .kind = COL_BOOL,
	    .help = "the kernel owns the affinity (yes, no; - unknown)" },
	[C_RATE] = { .name = "RATE", .key = "rate", .kind = COL_NUMBER,
	    .largest_first = true,
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

static const struct columns show_table = {
	.v = columns, .n = NCOLS, .dflt = default_cols,
	.ndflt = nitems(default_cols), .max = NCOLS * 4, .what = "interrupts",
};

/* -s: one column by name, as -o takes them. */
static int
sort_column(struct show *sh, const char *arg)
{
	struct perr pe;

	if (*arg == '+' || strchr(arg, ',') != NULL) {
		warnx("show: -s takes one column");
		return -1;
	}
	if (table_sort_by(&sh->tab, arg, &pe) != 0) {
		warnx("show: %s", pe.msg);
		return -1;
	}
	return 0;
}

static int
add_columns(struct show *sh, const char *arg)
{
	struct perr pe;

	sh->tab.nsel = 0;
	if (table_columns(&sh->tab, arg, &pe) != 0) {
		warnx("show: %s", pe.msg);
		return -1;
	}
	return 0;
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
	columns_help(fp, &show_table);
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
	table_free(&sh->tab);
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
			sh->tab.masks = true;
			break;
		case 'J':
			sh->tab.json = true;
			break;
		case 'n':
			sh->tab.noheadings = true;
			break;
		case 'o':
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
	if (sh->tab.nsel == 0)
		for (i = 0; i < nitems(default_cols); i++) {
			table_select(&sh->tab, default_cols[i]);
			if (default_cols[i] == C_TOTAL && sh->sm.on)
				table_select(&sh->tab, C_RATE);
		}
	for (i = 0; i < sh->tab.nsel; i++)
		sh->want[sh->tab.sel[i]] = true;
	if (sh->tab.sort >= 0)
		sh->want[sh->tab.sort] = true;
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

/* The rows, as sorted, each a line of the table or a member of JSON. */
static void
print_rows(struct show *sh, const char *stamp)
{
	size_t i;

	table_clear(&sh->tab);
	for (i = 0; i < sh->nrows; i++)
		table_add(&sh->tab, sh->rows[i].irq, sh->rows[i].cell);
	table_print(&sh->tab, stamp, sh->sm.elapsed);
}

/* Samples: the rows read again at each interval's end, with RATE. */
static int
sample(struct show *sh)
{
	long long n;

	for (n = 0; n < (sh->sm.count ? sh->sm.count : 1); n++) {
		free_rows(sh);
		sh->keep = n + 1 < sh->sm.count;
		cli_sampling_next(&sh->sm, sh->tab.json);
		if (read_rows(sh) != 0)
			return EXIT_FAIL;
		if (!sh->tab.json)
			cli_sampling_head(&sh->sm, n, sh->tab.noheadings);
		print_rows(sh, sh->tab.json ? sh->sm.stamp : NULL);
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
	table_init(&sh.tab, &show_table);
	sh.tab.m = &sh.m;
	if ((status = show_options(argc, argv, &sh)) != EXIT_OK ||
	    machine_load(&sh.m) != 0) {
		cli_sampling_free(&sh.sm);
		table_free(&sh.tab);
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
