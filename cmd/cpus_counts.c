/*
 * cpus' counts: each CPU's interrupts and busiest IRQs over the rows
 * of /proc/interrupts, or between two reads of it, and how many IRQs
 * each CPU serves. Prints nothing but warnings.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Keeps the NTOP largest counts, the earlier IRQ first among equals. */
void
cpus_top_add(struct top *t, uint64_t key, unsigned int irq)
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
const char *
cpus_name_of(const struct cpus *c, unsigned int irq)
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
		cpus_top_add(top[k], fields_key(f), irq);
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
		fields_colsums_add(&c->colsums, r->fields);
		if (c->wanttop)
			add_tops(c->coltop, r->fields, r->ncounts, r->irq);
	} else
		for (k = 0; k < r->ncounts; k++) {
			c->colsums.sums[k] += v[k];
			if (c->wanttop)
				cpus_top_add(c->coltop[k],
				    fields_count_key(v[k]), r->irq);
		}
}

/* A row without an IRQ (NMI:, LOC:, IPI0:): a CPU's counts, by name. */
static void
add_sys(struct cpus *c, const struct counts *rd, const struct irqrow *r)
{
	unsigned int k;
	int i;

	if ((i = counts_cpu_label(rd, r, c->sysname, &c->nsys, NSYS)) < 0)
		return;
	for (k = 0; k < r->ncounts; k++)
		c->sys[rd->cpu[k] * NSYS + i] = rd->v[k];
}

/*
 * The columns of proc/interrupts, summed by CPU in one pass, and the
 * cells followed; first: the pass that also keeps the names.
 */
int
cpus_read_counts(struct cpus *c, bool first)
{
	struct counts rd;
	struct irqrow r;
	unsigned int k, irq, wide = 0;
	size_t at = 0;
	int prc, nx;

	if (counts_open(&rd, c->sm.src, c->m.nbits, COUNTS_CPUS | COUNTS_EACH |
	    COUNTS_NAMED | (c->sm.on ? 0 : COUNTS_FIELDS)) != 0)
		return -1;
	memcpy(c->syswas, c->sys, c->m.nbits * NSYS * sizeof(*c->sys));
	memset(c->sys, 0, c->m.nbits * NSYS * sizeof(*c->sys));
	c->nsyswas = c->nsys;
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
	while ((nx = counts_next(&rd, &irq)) > 0) {
		prc = counts_row(&rd, &r);
		if (nx == 2) {
			if (prc == 0)
				add_sys(c, &rd, &r);
		} else if (prc == 0)
			add_row(c, &rd, &r, first, &at);
		/* "%10u": the kernel cannot have printed it */
		else if (prc == -ERANGE && !wide++)
			warnx("%s: IRQ %u: a count wider than 32 bits; its row "
			    "is left out", counts_path(rd.from), r.irq);
	}
	fields_colsums_flush(&c->colsums);
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
int
cpus_count_irqs(struct cpus *c)
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
