/*
 * Interrupt counts per IRQ and CPU followed between reads of
 * /proc/interrupts (kernel/irq/proc.c show_interrupts()): one cell for
 * each CPU an IRQ runs on, its effective CPUs, or its requested ones on
 * kernels without effective_affinity. The difference of two reads is
 * taken modulo 2^32, as the kernel's counters wrap; a cell missing from
 * either read (a row that vanished or appeared, a CPU that came online
 * or went offline between them) has no difference.
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/counts.h"
#include "core/load.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"

/*
 * A cell for each CPU each IRQ runs on; an IRQ whose affinity cannot be
 * read is said and left out. 0 always: what cannot be followed has no
 * cells.
 */
int
load_cells_follow(struct cells *cs, const struct machine *m,
    const struct irqs *irqs)
{
	struct cpuset *set;
	struct perr pe;
	size_t i, cap = 0;
	int rc, cpu;

	memset(cs, 0, sizeof(*cs));
	cs->nbits = m->nbits;
	cs->rows = xcalloc(irqs->n + 1, sizeof(*cs->rows));
	for (i = 0; i < irqs->n; i++)
		cs->rows[cs->nrows++].irq = irqs->v[i];
	set = xcpuset(m->nbits);
	for (i = 0; i < irqs->n; i++) {
		rc = machine_runs_on_read(m, irqs->v[i], set, NULL, &pe);
		if (rc != 0) {
			/* -ENOENT: the IRQ is gone */
			if (rc != -ENOENT)
				warnx("irq %u: %s", irqs->v[i], pe.msg);
			continue;
		}
		for (cpu = cpuset_first(set); cpu >= 0;
		    cpu = cpuset_next(set, cpu + 1)) {
			if (cs->n == cap) {
				cap = cap ? 2 * cap : 256;
				cs->v = xreallocarray(cs->v, cap,
				    sizeof(*cs->v));
			}
			cs->v[cs->n++] = (struct cell){ irqs->v[i], cpu,
			    { 0, 0 }, 0 };
		}
	}
	cpuset_free(set);
	return 0;
}

/*
 * The index of an IRQ's first cell at or after *at, moving *at there, and
 * how many cells it has. Rows come in IRQ order, so a pass over the rows
 * walks the cells once.
 */
size_t
load_cells_of(const struct cells *cs, unsigned int irq, size_t *at)
{
	size_t k;

	while (*at < cs->n && cs->v[*at].irq < irq)
		(*at)++;
	for (k = *at; k < cs->n && cs->v[k].irq == irq; k++)
		;
	return k - *at;
}

/* Each cell of row's IRQ takes its count of read r from its CPU's column. */
void
load_cells_take(struct cells *cs, int r, const struct counts *rd,
    const struct irqrow *row, size_t *at)
{
	size_t i, n;
	int k;

	n = load_cells_of(cs, row->irq, at);
	for (i = *at; i < *at + n; i++) {
		k = rd->col[cs->v[i].cpu];
		if (k < 0 || (unsigned int)k >= row->ncounts)
			continue;
		cs->v[i].count[r] = rd->v[k];
		cs->v[i].seen |= 1U << r;
	}
}

static int
cmprow(const void *a, const void *b)
{
	const struct rowmark *x = a, *y = b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

static struct rowmark *
row_of(const struct cells *cs, unsigned int irq)
{
	struct rowmark key = { irq, 0 };

	return bsearch(&key, cs->rows, cs->nrows, sizeof(*cs->rows), cmprow);
}

/*
 * Read r (0 or 1): one pass over proc/interrupts, each cell's count from
 * its CPU's column, and which followed IRQs have a row. 0, or -1 after
 * saying why.
 */
int
load_cells_read(struct cells *cs, int r, const char *from)
{
	struct counts rd;
	struct irqrow row;
	struct rowmark *rm;
	unsigned int irq;
	size_t at = 0, i;

	if (counts_open(&rd, from, cs->nbits, COUNTS_CPUS | COUNTS_EACH) != 0)
		return -1;
	for (i = 0; i < cs->n; i++)
		cs->v[i].seen &= ~(1U << r);
	for (i = 0; i < cs->nrows; i++)
		cs->rows[i].seen &= ~(1U << r);
	while (counts_next(&rd, &irq) == 1) {
		if (counts_row(&rd, &row) != 0)
			continue;
		if ((rm = row_of(cs, row.irq)) != NULL)
			rm->seen |= 1U << r;
		load_cells_take(cs, r, &rd, &row, &at);
	}
	return counts_close(&rd) == 0 ? 0 : -1;
}

/*
 * Which reads had the row of a followed IRQ (show_interrupts() prints
 * none for an IRQ without a handler): bit r for read r.
 */
uint8_t
load_rows_seen(const struct cells *cs, unsigned int irq)
{
	const struct rowmark *rm = row_of(cs, irq);

	return rm != NULL ? rm->seen : 0;
}

/* Read 1 becomes read 0, for the next read 1. */
void
load_cells_shift(struct cells *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		cs->v[i].count[0] = cs->v[i].count[1];
		cs->v[i].seen >>= 1;
	}
	for (i = 0; i < cs->nrows; i++)
		cs->rows[i].seen >>= 1;
}

/*
 * The interrupts a cell counted between read 0 and read 1
 * (counts_diff()); false when either read lacked it or its count went
 * down.
 */
bool
load_cell_delta(const struct cell *c, uint32_t *d)
{
	return (c->seen & 3) == 3 &&
	    counts_diff(c->count[0], c->count[1], d) == COUNTS_COUNTED;
}

void
load_cells_free(struct cells *cs)
{
	free(cs->v);
	free(cs->rows);
	memset(cs, 0, sizeof(*cs));
}
