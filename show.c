/*
 * show: one row per IRQ, columns chosen with -o as lsirq(1) does, as a
 * table for people or JSON for scripts.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "irqaff.h"
#include "procfs.h"

enum col {
	C_IRQ, C_AFFINITY, C_EFFECTIVE, C_NODE, C_TOTAL, C_NAME,
	C_HINT, C_ONLINE, C_CHIP, C_HWIRQ, C_DEVICE, NCOLS
};

static const struct column {
	const char	*name;
	bool		 right;		/* aligned right in the table */
	bool		 number;	/* a number in JSON */
	const char	*help;
} columns[NCOLS] = {
	[C_IRQ] =	{ "IRQ", true, true, "interrupt number" },
	[C_AFFINITY] =	{ "AFFINITY", false, false,
	    "requested CPUs (smp_affinity_list)" },
	[C_EFFECTIVE] =	{ "EFFECTIVE", false, false,
	    "CPUs the interrupt is delivered to (effective_affinity_list)" },
	[C_NODE] =	{ "NODE", true, true, "NUMA node of the IRQ" },
	[C_TOTAL] =	{ "TOTAL", true, true,
	    "interrupts counted on the online CPUs" },
	[C_NAME] =	{ "NAME", false, false, "action names" },
	[C_HINT] =	{ "HINT", false, false,
	    "CPUs the driver suggests (affinity_hint)" },
	[C_ONLINE] =	{ "ONLINE", false, false,
	    "requested CPUs that are online" },
	[C_CHIP] =	{ "CHIP", false, false, "interrupt controller" },
	[C_HWIRQ] =	{ "HWIRQ", false, false,
	    "hardware IRQ number and flow" },
	[C_DEVICE] =	{ "DEVICE", false, false,
	    "network interface or PCI device" },
};

static const enum col default_cols[] = {
	C_IRQ, C_AFFINITY, C_EFFECTIVE, C_NODE, C_TOTAL, C_NAME
};

struct row {
	unsigned int	 irq;
	char		*cell[NCOLS];
};

struct show {
	struct machine	 m;
	enum col	 cols[NCOLS * 4];
	size_t		 ncols;
	bool		 want[NCOLS];
	bool		 masks, json, noheadings, all;
	struct irqs	 only;		/* with an IRQ selector */
	bool		 filter;
	struct row	*rows;
	size_t		 nrows;
	char		**devices;	/* IRQ number to device, for DEVICE */
	size_t		 ndevices;
};

static int
add_columns(struct show *sh, const char *arg)
{
	char *copy, *p, *name;
	size_t i;
	int rc = 0;

	if (*arg == '+') {
		arg++;
		for (i = 0; i < nitems(default_cols); i++)
			sh->cols[sh->ncols++] = default_cols[i];
	}
	if ((copy = strdup(arg)) == NULL)
		err(EXIT_FAIL, NULL);
	for (p = copy; rc == 0 && (name = strsep(&p, ",")) != NULL;) {
		for (i = 0; i < NCOLS; i++)
			if (strcasecmp(name, columns[i].name) == 0)
				break;
		if (i == NCOLS) {
			warnx("show: unknown column \"%s\"", quoted(name));
			rc = -1;
		} else if (sh->ncols == nitems(sh->cols)) {
			warnx("show: too many columns");
			rc = -1;
		} else
			sh->cols[sh->ncols++] = i;
	}
	free(copy);
	return rc;
}

static char *
xstrndup(const char *s, size_t n)
{
	char *t;

	if ((t = strndup(s, n)) == NULL)
		err(EXIT_FAIL, NULL);
	return t;
}

/* An affinity file as a list or mask, preferring the _list form. */
static char *
read_set(struct show *sh, unsigned int irq, const char *file, bool masks,
    const struct cpuset *and)
{
	struct cpuset *set;
	char rel[96], *buf, *out = NULL;
	bool list = true;
	int rc;

	snprintf(rel, sizeof(rel), "proc/irq/%u/%s_list", irq, file);
	if (procfs_read(rel, &buf) != 0) {
		snprintf(rel, sizeof(rel), "proc/irq/%u/%s", irq, file);
		if (procfs_read(rel, &buf) != 0)
			return NULL;
		list = false;
	}
	set = xcpuset(sh->m.nbits);
	rc = list ? cpulist_parse(set, buf, NULL) :
	    cpumask_parse(set, buf, NULL);
	if (rc == 0 && and != NULL)
		cpuset_and(set, and);
	/* an empty set (no hint, no online CPU) reads "-" as list or mask */
	if (rc == 0 && !cpuset_empty(set) && (out = masks ?
	    cpumask_format(set) : cpulist_format(set)) == NULL)
		err(EXIT_FAIL, NULL);
	cpuset_free(set);
	free(buf);
	return out;
}

static char *
read_word(unsigned int irq, const char *file)
{
	char rel[96], *buf, *word = NULL;
	size_t len;

	snprintf(rel, sizeof(rel), "proc/irq/%u/%s", irq, file);
	if (procfs_read(rel, &buf) != 0)
		return NULL;
	/* a copy: the read buffer is 4 KB, 16 MB over 4096 rows */
	if ((len = strcspn(buf, " \t\n")) > 0)
		word = xstrndup(buf, len);
	free(buf);
	return word;
}

static void
map_devices(struct show *sh, const char *dir, bool names_win)
{
	struct irqs irqs;
	char **names, **tmp;
	size_t n, i, k;

	if (procfs_dir(dir, false, &names, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (device_irqs(names[i], &irqs, NULL) != 0)
			continue;
		for (k = 0; k < irqs.n; k++) {
			if (irqs.v[k] >= sh->ndevices) {
				tmp = reallocarray(sh->devices, irqs.v[k] + 1,
				    sizeof(*tmp));
				if (tmp == NULL)
					err(EXIT_FAIL, NULL);
				memset(tmp + sh->ndevices, 0, (irqs.v[k] + 1 -
				    sh->ndevices) * sizeof(*tmp));
				sh->devices = tmp;
				sh->ndevices = irqs.v[k] + 1;
			}
			if (sh->devices[irqs.v[k]] != NULL && !names_win)
				continue;
			free(sh->devices[irqs.v[k]]);
			sh->devices[irqs.v[k]] = xstrndup(names[i],
			    strlen(names[i]));
		}
		irqs_free(&irqs);
	}
	procfs_dir_free(names, n);
}

static void
add_row(struct show *sh, unsigned int irq, const struct irqrow *r)
{
	struct row *row, *tmp;
	char buf[32];

	tmp = reallocarray(sh->rows, sh->nrows + 1, sizeof(*sh->rows));
	if (tmp == NULL)
		err(EXIT_FAIL, NULL);
	sh->rows = tmp;
	row = &sh->rows[sh->nrows++];
	memset(row, 0, sizeof(*row));
	row->irq = irq;
	snprintf(buf, sizeof(buf), "%u", irq);
	row->cell[C_IRQ] = xstrndup(buf, strlen(buf));
	if (sh->want[C_AFFINITY])
		row->cell[C_AFFINITY] = read_set(sh, irq, "smp_affinity",
		    sh->masks, NULL);
	if (sh->want[C_EFFECTIVE])
		row->cell[C_EFFECTIVE] = read_set(sh, irq,
		    "effective_affinity", sh->masks, NULL);
	if (sh->want[C_ONLINE])
		row->cell[C_ONLINE] = read_set(sh, irq, "smp_affinity",
		    sh->masks, sh->m.online);
	if (sh->want[C_HINT])
		row->cell[C_HINT] = read_set(sh, irq, "affinity_hint",
		    sh->masks, NULL);
	if (sh->want[C_NODE])
		row->cell[C_NODE] = read_word(irq, "node");
	if (sh->want[C_DEVICE] && irq < sh->ndevices &&
	    sh->devices[irq] != NULL)
		row->cell[C_DEVICE] = xstrndup(sh->devices[irq],
		    strlen(sh->devices[irq]));
	if (r != NULL) {
		snprintf(buf, sizeof(buf), "%llu", r->total);
		row->cell[C_TOTAL] = xstrndup(buf, strlen(buf));
		if (r->chiplen > 0)
			row->cell[C_CHIP] = xstrndup(r->chip, r->chiplen);
		if (r->hwirqlen > 0)
			row->cell[C_HWIRQ] = xstrndup(r->hwirq, r->hwirqlen);
		if (r->nameslen > 0)
			row->cell[C_NAME] = xstrndup(r->names, r->nameslen);
	} else if (sh->want[C_NAME]) {
		row->cell[C_NAME] = irq_names(irq);
		if (*row->cell[C_NAME] == '\0') {
			free(row->cell[C_NAME]);
			row->cell[C_NAME] = NULL;
		}
	}
}

static bool
contains(const struct irqs *s, unsigned int irq)
{
	size_t lo = 0, hi = s->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->v[mid] == irq)
			return true;
		if (s->v[mid] < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int
cmprow(const void *a, const void *b)
{
	unsigned int x = ((const struct row *)a)->irq;
	unsigned int y = ((const struct row *)b)->irq;

	return (x > y) - (x < y);
}

/* proc/interrupts is read line by line: it is huge on big machines. */
static int
read_interrupts(struct show *sh, struct irqs *seen)
{
	struct irqrow r;
	unsigned int ncpus = 0;
	char *line = NULL;
	size_t cap = 0;
	FILE *fp;
	int status = EXIT_OK;

	if ((fp = procfs_fopen("proc/interrupts")) == NULL) {
		warn("%s", procfs_path("proc/interrupts"));
		return EXIT_FAIL;
	}
	if (getline(&line, &cap, fp) < 0 ||
	    interrupts_header(line, &ncpus) != 0) {
		warnx("%s: no CPU header", procfs_path("proc/interrupts"));
		status = EXIT_FAIL;
	}
	while (status == EXIT_OK && getline(&line, &cap, fp) >= 0) {
		if (interrupts_row(line, ncpus, &r, NULL) != 0)
			continue;
		if (sh->filter && !contains(&sh->only, r.irq))
			continue;
		add_row(sh, r.irq, &r);
	}
	if (ferror(fp)) {
		warn("%s", procfs_path("proc/interrupts"));
		status = EXIT_FAIL;
	}
	free(line);
	fclose(fp);
	if (sh->nrows > 0)	/* rows is NULL without any */
		qsort(sh->rows, sh->nrows, sizeof(*sh->rows), cmprow);
	seen->n = 0;
	if ((seen->v = calloc(sh->nrows + 1, sizeof(*seen->v))) == NULL)
		err(EXIT_FAIL, NULL);
	for (; seen->n < sh->nrows; seen->n++)
		seen->v[seen->n] = sh->rows[seen->n].irq;
	return status;
}

static void
print_json(const struct show *sh)
{
	const struct column *c;
	size_t i, k;
	char *v;

	printf("{\n   \"interrupts\": [");
	for (i = 0; i < sh->nrows; i++) {
		printf("%s\n      {", i ? "," : "");
		for (k = 0; k < sh->ncols; k++) {
			c = &columns[sh->cols[k]];
			v = sh->rows[i].cell[sh->cols[k]];
			printf("%s\"", k ? ", " : "");
			for (const char *p = c->name; *p; p++)
				putchar(*p - 'A' + 'a');
			printf("\": ");
			if (v == NULL)
				printf("null");
			else if (c->number && v[*v == '-'] != '\0' &&
			    strspn(v + (*v == '-'), "0123456789") ==
			    strlen(v + (*v == '-')))
				printf("%s", v);
			else
				json_string(v);
		}
		printf("}");
	}
	printf("%s]\n}\n", sh->nrows ? "\n   " : "");
}

static void
print_table(const struct show *sh)
{
	size_t width[nitems(sh->cols)], i, k, len;
	const char *v;
	bool last;

	for (k = 0; k < sh->ncols; k++) {
		width[k] = sh->noheadings ? 0 : strlen(columns[sh->cols[k]].name);
		for (i = 0; i < sh->nrows; i++) {
			v = sh->rows[i].cell[sh->cols[k]];
			len = v ? strlen(v) : 1;
			if (len > width[k])
				width[k] = len;
		}
	}
	for (i = sh->noheadings ? 1 : 0; i <= sh->nrows; i++) {
		for (k = 0; k < sh->ncols; k++) {
			if (i == 0)
				v = columns[sh->cols[k]].name;
			else if ((v = sh->rows[i - 1].cell[sh->cols[k]]) ==
			    NULL)
				v = "-";
			last = k + 1 == sh->ncols;
			if (columns[sh->cols[k]].right)
				printf("%*s", (int)width[k], v);
			else
				printf("%-*s", last ? 0 : (int)width[k], v);
			printf("%s", last ? "\n" : " ");
		}
	}
}

static const struct option show_opts[] = {
	{ "mask", no_argument, NULL, 'm' },
	{ "json", no_argument, NULL, 'J' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "all", no_argument, NULL, 'a' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

void
show_columns(FILE *fp)
{
	size_t i;

	fprintf(fp, "\nColumns (-o; +LIST adds to the default):\n");
	for (i = 0; i < NCOLS; i++)
		fprintf(fp, "  %-10s %s\n", columns[i].name, columns[i].help);
}

int
show_main(int argc, char *argv[])
{
	struct show sh;
	struct irqs seen = { NULL, 0 }, dirs;
	size_t i, k;
	bool quiet = false;
	int ch, status, rc;

	memset(&sh, 0, sizeof(sh));
	while ((ch = getopts(argc, argv, "mJno:aq", show_opts)) != -1) {
		switch (ch) {
		case 'm':
			sh.masks = true;
			break;
		case 'J':
			sh.json = true;
			break;
		case 'n':
			sh.noheadings = true;
			break;
		case 'o':
			sh.ncols = 0;
			if (add_columns(&sh, optarg) != 0)
				return EXIT_USAGE;
			break;
		case 'a':
			sh.all = true;
			break;
		case 'q':
			quiet = true;
			break;
		}
	}
	if (argc - optind > 1) {
		warnx("%s: expected at most one IRQ list", argv[0]);
		usage(stderr, argv[0]);
		return EXIT_USAGE;
	}
	if (sh.ncols == 0)
		for (i = 0; i < nitems(default_cols); i++)
			sh.cols[sh.ncols++] = default_cols[i];
	for (i = 0; i < sh.ncols; i++)
		sh.want[sh.cols[i]] = true;
	if (machine_load(&sh.m) != 0)
		return EXIT_FAIL;
	if (argc - optind == 1) {
		if ((status = irqs_select(argv[optind], &sh.only)) != EXIT_OK) {
			machine_free(&sh.m);
			return status;
		}
		sh.filter = true;
	}
	if (sh.want[C_DEVICE]) {
		map_devices(&sh, "sys/bus/pci/devices", false);
		map_devices(&sh, "sys/class/nvme", true);
		map_devices(&sh, "sys/class/net", true);
	}
	status = read_interrupts(&sh, &seen);
	if (status == EXIT_OK && (sh.all || sh.filter)) {
		if ((rc = procfs_numbers("proc/irq", &dirs.v, &dirs.n)) != 0) {
			warnc(-rc, "%s", procfs_path("proc/irq"));
			status = EXIT_FAIL;
		} else {
			for (i = 0; i < dirs.n; i++)
				if (!contains(&seen, dirs.v[i]) &&
				    (sh.filter ? contains(&sh.only, dirs.v[i]) :
				    sh.all))
					add_row(&sh, dirs.v[i], NULL);
			irqs_free(&dirs);
			if (sh.nrows > 0)
				qsort(sh.rows, sh.nrows, sizeof(*sh.rows),
				    cmprow);
		}
	}
	if (status == EXIT_OK) {
		if (sh.json)
			print_json(&sh);
		else
			print_table(&sh);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			warn("standard output");
			status = EXIT_FAIL;
		}
		if (!quiet)
			irqbalance_warn();
	}
	for (i = 0; i < sh.nrows; i++)
		for (k = 0; k < NCOLS; k++)
			free(sh.rows[i].cell[k]);
	free(sh.rows);
	for (i = 0; i < sh.ndevices; i++)
		free(sh.devices[i]);
	free(sh.devices);
	irqs_free(&seen);
	irqs_free(&sh.only);
	machine_free(&sh.m);
	return status;
}
