/*
 * show's rows: what each column's cell holds for an IRQ, from
 * /proc/interrupts, /proc/irq and /sys/kernel/irq, and the rates
 * between two reads. Prints nothing but warnings.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/show.h"
#include "core/counts.h"
#include "core/device.h"
#include "core/irqinfo.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"

/* An affinity as a list, "" when empty; NULL when unreadable. */
static char *
read_set(struct show *sh, unsigned int irq, enum affinity what,
    const struct cpuset *and)
{
	struct cpuset *set = sh->scratch;
	char *out = NULL;

	if (machine_affinity_read(irq, what, set, NULL) == 0) {
		if (and != NULL)
			cpuset_and(set, and);
		out = cpuset_empty(set) ? xstrdup("") : xformat(set, false);
	}
	return out;
}

static char *
number(unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	return xstrdup(buf);
}

/*
 * PENDING: unknown ("-") without both the requested and effective sets.
 * STUCK (stuck): and no requested CPU has a free vector for the move
 * (vectors_stuck_in()), so it cannot complete; the counts read at need.
 */
static char *
pending(struct show *sh, unsigned int irq, bool stuck)
{
	struct cpuset *req = xcpuset(sh->m.nbits);
	char *out = NULL;
	bool yes;

	if (machine_affinity_read(irq, AFF_REQUESTED, req, NULL) == 0 &&
	    machine_effective_read(sh->m.online, irq, sh->scratch,
	    NULL) == 0 && !cpuset_empty(sh->scratch)) {
		yes = isolation_move_pending(req, sh->scratch);
		if (yes && stuck)
			yes = vectors_stuck_in(&sh->vec, &sh->m, req);
		out = xstrdup(yes ? "yes" : "no");
	}
	cpuset_free(req);
	return out;
}

/*
 * THREAD: the names of the IRQ's threads, ","-joined; THREAD-CPUS: the
 * CPUs any of them may run on. NULL ("-") for an IRQ without a thread.
 */
static void
row_threads(struct show *sh, struct row *row)
{
	const struct irqthread *t;
	struct cpuset *cpus = NULL;
	char *names = NULL, *tmp;
	size_t i, first, n;

	n = irqthread_of(&sh->threads, row->irq, &first);
	for (i = 0; i < n; i++) {
		t = &sh->threads.v[first + i];
		tmp = xasprintf("%s%s%s", names ? names : "", names ? "," : "",
		    t->name);
		free(names);
		names = tmp;
		if (t->cpus == NULL)
			continue;
		if (cpus == NULL)
			cpus = xcpuset(sh->m.nbits);
		cpuset_or(cpus, t->cpus);
	}
	if (sh->want[C_THREAD])
		row->cell[C_THREAD] = names;
	else
		free(names);
	if (sh->want[C_THREAD_CPUS] && cpus != NULL && !cpuset_empty(cpus))
		row->cell[C_THREAD_CPUS] = xformat(cpus, false);
	cpuset_free(cpus);
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
		row->cell[C_NODE] = machine_irq_word(irq, "node");
	if (sh->want[C_DEVICE] && (dev = device_of(&sh->devices, irq)) != NULL)
		row->cell[C_DEVICE] = xstrdup(dev);
	/* debugfs or the kernel's refusal; else "-" (null in JSON) */
	mv = sh->want[C_MANAGED] || sh->want[C_MOVABLE] ?
	    machine_irq_movable(irq) : MOVABLE_UNKNOWN;
	if (sh->want[C_MANAGED] && mv != MOVABLE_UNKNOWN)
		row->cell[C_MANAGED] = xstrdup(mv == MOVABLE_MANAGED ?
		    "yes" : "no");
	if (sh->want[C_MOVABLE] && mv != MOVABLE_UNKNOWN)
		row->cell[C_MOVABLE] = xstrdup(mv == MOVABLE_YES ? "yes" : "no");
	if (sh->want[C_PENDING])
		row->cell[C_PENDING] = pending(sh, irq, false);
	if (sh->want[C_STUCK])
		row->cell[C_STUCK] = pending(sh, irq, true);
	if (sh->want[C_THREAD] || sh->want[C_THREAD_CPUS])
		row_threads(sh, row);
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
int
show_read_interrupts(struct show *sh, unsigned int last)
{
	struct counts rd;
	struct irqrow r;
	struct row *row = NULL;
	unsigned int irq, wide = 0;
	int prc;

	if (counts_open(&rd, sh->sm.src, sh->m.nbits,
	    (sh->want[C_TOTAL] ? COUNTS_TOTAL : 0) |
	    (sh->sm.on ? COUNTS_CPUS | COUNTS_EACH : 0)) != 0)
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
				    "its TOTAL is unknown", counts_path(rd.from),
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
int
show_read_selected(struct show *sh)
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
	if (matrix && show_read_interrupts(sh, last) != 0)
		return -1;
	for (i = 0; i < sh->nrows; i++)
		if (sh->rows[i].matrix)
			fill_rowless(sh, &sh->rows[i]);
	return 0;
}

/* With -a, the IRQs that have no row in proc/interrupts. */
int
show_add_rowless(struct show *sh)
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
