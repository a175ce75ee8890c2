/*
 * queues: one row per queue of network interfaces, with the IRQ serving
 * it, that IRQ's CPUs, the queue's XPS or RPS CPUs and whether XPS
 * follows the IRQ, as a table or JSON.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/columns.h"
#include "cmd/commands.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static int queues_main(int, char *[]);
static void queues_columns(FILE *);

const struct command queues_command = {
	.name = "queues",
	.main = queues_main,
	.summary = "show network queues, their IRQs and XPS/RPS",
	.synopsis = "[-Jn] [-o cols] [devs]",
	.options =
	    "  -J, --json            print JSON\n"
	    "  -n, --noheadings      print no header line\n"
	    "  -o, --output COLS     the columns, comma-separated; +COLS adds to "
	    "the default\n",
	.more_help = queues_columns,
};

static const struct option queues_opts[] = {
	{ "json", no_argument, NULL, 'J' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

enum col {
	C_DEV, C_QUEUE, C_IRQ, C_AFFINITY, C_CPUS, C_XPS, C_RPS, C_ALIGNED,
	C_PENDING, NCOLS
};

static const struct column columns[NCOLS] = {
	[C_DEV] = { .name = "DEV", .key = "dev", .kind = COL_STRING,
	    .help = "network interface" },
	[C_QUEUE] = { .name = "QUEUE", .key = "queue", .kind = COL_STRING,
	    .help = "rx-N or tx-N" },
	[C_IRQ] = { .name = "IRQ", .key = "irq", .kind = COL_NUMBER,
	    .help = "the IRQ serving the queue, by its action name" },
	[C_AFFINITY] = { .name = "AFFINITY", .key = "affinity",
	    .kind = COL_CPUS,
	    .help = "that IRQ's requested CPUs (smp_affinity_list)" },
	[C_CPUS] = { .name = "CPUS", .key = "cpus", .kind = COL_CPUS,
	    .help = "that IRQ's effective CPUs (requested without effective files)" },
	[C_XPS] = { .name = "XPS", .key = "xps", .kind = COL_CPUS,
	    .help = "tx queues: the CPUs that send on it (xps_cpus)" },
	[C_RPS] = { .name = "RPS", .key = "rps", .kind = COL_CPUS,
	    .help = "rx queues: the CPUs its packets go on to (rps_cpus)" },
	[C_ALIGNED] = { .name = "ALIGNED", .key = "aligned", .kind = COL_BOOL,
	    .help = "tx queues: XPS is AFFINITY, not CPUS (yes, no)" },
	[C_PENDING] = { .name = "PENDING", .key = "pending", .kind = COL_BOOL,
	    .help = "CPUS outside AFFINITY: a move not applied yet (yes, no)" },
};

static const unsigned int default_cols[] = {
	C_DEV, C_QUEUE, C_IRQ, C_AFFINITY, C_CPUS, C_XPS, C_RPS, C_ALIGNED
};

static const struct columns queues_table = {
	.v = columns, .n = NCOLS, .dflt = default_cols,
	.ndflt = nitems(default_cols), .max = NCOLS * 4, .what = "queues",
};

static void
queues_columns(FILE *fp)
{
	fprintf(fp, "\nColumns (all but PENDING by default):\n");
	columns_help(fp, &queues_table);
}

/*
 * A row's cells: NULL is "-" in the table and null in JSON; "" an empty
 * CPU set, "-" in the table and "" in JSON.
 */
struct row {
	char	*cell[NCOLS];
};

/* The sets of the IRQ read last: a combined IRQ serves two rows. */
struct irqsets {
	int		 irq;
	int		 rc_eff, rc_req;
	struct cpuset	*eff, *req;
};

struct queues {
	struct machine	 m;
	struct table	 tab;		/* -o, -n, -J */
	struct row	*rows;
	size_t		 nrows;
	struct irqsets	 last;
	int		 status;
};

static int
add_columns(struct queues *qs, const char *arg)
{
	struct perr pe;

	qs->tab.nsel = 0;
	if (table_columns(&qs->tab, arg, &pe) != 0)
		return cli_usage_error(&queues_command, "%s", pe.msg);
	return EXIT_OK;
}

/* An IRQ's effective CPUs (requested without the files) and requested. */
static const struct irqsets *
irq_sets(struct queues *qs, int irq)
{
	struct irqsets *s = &qs->last;

	if (s->eff == NULL) {
		s->eff = xcpuset(qs->m.nbits);
		s->req = xcpuset(qs->m.nbits);
		s->irq = -1;
	}
	if (s->irq != irq) {
		s->irq = irq;
		s->rc_req = machine_affinity_read(irq, AFF_REQUESTED, s->req,
		    NULL);
		s->rc_eff = machine_runs_on_read(&qs->m, irq, s->eff, NULL,
		    NULL);
	}
	return s;
}

static char *
list_or_null(const struct cpuset *set, int rc)
{
	return rc == 0 && set != NULL ? xformat(set, false) : NULL;
}

static void
add_row(struct queues *qs, const struct netif *nif, const struct netqueue *q)
{
	const struct irqsets *s = NULL;
	struct row *row;
	char buf[32];

	qs->rows = xreallocarray(qs->rows, qs->nrows + 1, sizeof(*qs->rows));
	row = &qs->rows[qs->nrows++];
	memset(row, 0, sizeof(*row));
	row->cell[C_DEV] = xstrdup(nif->name);
	netqueue_name(q, buf, sizeof(buf));
	row->cell[C_QUEUE] = xstrdup(buf);
	if (q->kind == NQ_TX)
		row->cell[C_XPS] = list_or_null(q->cpus, q->err);
	else
		row->cell[C_RPS] = list_or_null(q->cpus, q->err);
	if (q->irq < 0)
		return;
	snprintf(buf, sizeof(buf), "%d", q->irq);
	row->cell[C_IRQ] = xstrdup(buf);
	s = irq_sets(qs, q->irq);
	row->cell[C_AFFINITY] = list_or_null(s->req, s->rc_req);
	row->cell[C_CPUS] = list_or_null(s->eff, s->rc_eff);
	if (q->kind == NQ_TX && q->cpus != NULL && s->rc_req == 0)
		row->cell[C_ALIGNED] = xstrdup(cpuset_equal(q->cpus, s->req) ?
		    "yes" : "no");
	if (s->rc_req == 0 && s->rc_eff == 0)
		row->cell[C_PENDING] = xstrdup(isolation_move_pending(s->req,
		    s->eff) ? "yes" : "no");
}

/*
 * The rows of one interface read. A mask that cannot be read for another
 * reason than ENOENT has been reported, and makes the status 1.
 */
static void
add_interface(struct queues *qs, struct netif *nif)
{
	size_t i;

	netqueue_ifmatch(nif);
	for (i = 0; i < nif->nq; i++) {
		if (nif->q[i].err != 0 && nif->q[i].err != -ENOENT)
			qs->status = EXIT_FAIL;
		add_row(qs, nif, &nif->q[i]);
	}
	netqueue_iffree(nif);
}

/* Every interface with queues, in name order. */
static int
add_all(struct queues *qs)
{
	struct netif nif;
	char **names;
	size_t n, i;
	int rc;

	if (netqueue_ifnames(&names, &n) != 0)
		return EXIT_FAIL;
	for (i = 0; i < n; i++) {
		/* one that went away meanwhile is left out */
		if ((rc = netqueue_ifread(&qs->m, names[i], &nif)) == 0)
			add_interface(qs, &nif);
		else if (rc != -ENODEV && rc != -ENOENT)
			qs->status = EXIT_FAIL;
	}
	procfs_dir_free(names, n);
	return EXIT_OK;
}

/*
 * The interfaces of a comma-separated list, in its order, each once; one
 * without queues gets a note, as an IRQ list's item that picks nothing
 * does in show, and *added counts the others. EXIT_OK, or after saying
 * why EXIT_USAGE for an empty item, or EXIT_FAIL when a queues directory
 * cannot be read.
 */
/*
 * An item's interface: "dev:eth0" as the other commands name it, or
 * eth0; an interface's name holds no ':' (dev_valid_name()).
 */
static char *
bare(char *item)
{
	return strncmp(item, "dev:", 4) == 0 ? item + 4 : item;
}

static int
add_listed(struct queues *qs, const char *arg, size_t *added)
{
	struct netif nif;
	char *copy, *p, *name, **seen;
	size_t nseen = 0, i, len = strlen(arg);
	int rc, status = EXIT_OK;

	if (len == 0 || arg[0] == ',' || arg[len - 1] == ',' ||
	    strstr(arg, ",,") != NULL) {
		warnx("interface list \"%s\": empty item", text_quoted(arg));
		return EXIT_USAGE;
	}
	copy = xstrdup(arg);
	for (p = copy; (name = strsep(&p, ",")) != NULL;)
		if (!netqueue_ifname_ok(bare(name))) {
			warnx("interface list \"%s\": \"%s\" is no interface "
			    "name", text_quoted(arg), text_quoted(name));
			free(copy);
			return EXIT_USAGE;
		}
	strlcpy(copy, arg, len + 1);
	seen = xcalloc(len, sizeof(*seen));
	for (p = copy; status == EXIT_OK && (name = strsep(&p, ",")) != NULL;) {
		name = bare(name);
		for (i = 0; i < nseen && strcmp(seen[i], name) != 0; i++)
			;
		if (i < nseen)
			continue;
		seen[nseen++] = name;
		if ((rc = netqueue_ifread(&qs->m, name, &nif)) == -ENODEV)
			warnx("note: interface list \"%s\": interface %s does "
			    "not exist", text_quoted(arg), text_quoted(name));
		else if (rc == -ENOENT || (rc == 0 && nif.nq == 0)) {
			warnx("note: interface list \"%s\": interface %s has "
			    "no queues", text_quoted(arg), text_quoted(name));
			netqueue_iffree(&nif);
		} else if (rc != 0)
			status = EXIT_FAIL;
		else {
			add_interface(qs, &nif);
			(*added)++;
		}
	}
	free(seen);
	free(copy);
	return status;
}

static int
queues_options(int argc, char *argv[], struct queues *qs)
{
	size_t k;
	int ch, rc;

	while ((ch = cli_getopts(argc, argv, &queues_command, "Jno:",
	    queues_opts)) != -1) {
		switch (ch) {
		case 'J':
			qs->tab.json = true;
			break;
		case 'n':
			qs->tab.noheadings = true;
			break;
		case 'o':
			if ((rc = add_columns(qs, optarg)) != EXIT_OK)
				return rc;
			break;
		}
	}
	if (argc - optind > 1)
		return cli_usage_error(&queues_command,
		    "expected at most one list of interfaces");
	if (qs->tab.nsel == 0)
		for (k = 0; k < nitems(default_cols); k++)
			table_select(&qs->tab, default_cols[k]);
	return EXIT_OK;
}

static void
queues_free(struct queues *qs)
{
	size_t i, k;

	for (i = 0; i < qs->nrows; i++)
		for (k = 0; k < NCOLS; k++)
			free(qs->rows[i].cell[k]);
	free(qs->rows);
	cpuset_free(qs->last.eff);
	cpuset_free(qs->last.req);
	table_free(&qs->tab);
	machine_free(&qs->m);
}

static int
queues_main(int argc, char *argv[])
{
	struct queues qs;
	size_t added = 0, i;
	int status;

	memset(&qs, 0, sizeof(qs));
	table_init(&qs.tab, &queues_table);
	qs.tab.m = &qs.m;
	if ((status = queues_options(argc, argv, &qs)) != EXIT_OK) {
		table_free(&qs.tab);
		return status;
	}
	if (machine_load(&qs.m) != 0) {
		queues_free(&qs);
		return EXIT_FAIL;
	}
	if (argc - optind == 1)
		status = add_listed(&qs, argv[optind], &added);
	else
		status = add_all(&qs);
	if (status == EXIT_OK) {
		for (i = 0; i < qs.nrows; i++)
			table_add(&qs.tab, i, qs.rows[i].cell);
		table_print(&qs.tab, NULL, 0);
		status = qs.status;
	}
	/* as grep: a list that names no interface with queues is exit 1 */
	if (status == EXIT_OK && argc - optind == 1 && added == 0)
		status = EXIT_FAIL;
	queues_free(&qs);
	return status;
}
