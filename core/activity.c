/*
 * The live view's counts: what each IRQ and each CPU handled between the
 * last two reads of /proc/interrupts, each count differenced per CPU as
 * the kernel keeps it (counts_delta()).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/activity.h"
#include "core/counts.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"

void
activity_init(struct activity *a, unsigned int nbits)
{
	memset(a, 0, sizeof(*a));
	a->nbits = nbits;
	a->cpu = xcalloc(nbits, sizeof(*a->cpu));
}

static void
clear_irqs(struct activity *a)
{
	size_t i;

	for (i = 0; i < a->nirq; i++)
		free(a->irq[i].name);
	a->nirq = 0;
}

/*
 * What a row counted on each CPU since the kept read, into sum and each
 * CPU's irqs or system; false when the kept read had no such row.
 */
static bool
row_delta(struct activity *a, struct counts_kept *was, unsigned int key,
    const struct counts *rd, const struct irqrow *r, unsigned long long *sum)
{
	struct kept_row kr;
	unsigned int k, cpu;
	uint32_t d;

	if (!counts_kept_row(was, key, &kr))
		return false;
	for (k = 0; k < r->ncounts; k++) {
		cpu = rd->cpu[k];
		if (counts_delta(was, &kr, cpu, rd->v[k], &d) != COUNTS_COUNTED)
			continue;
		if (sum != NULL)
			*sum += d;
		if (rd->named)
			a->cpu[cpu].system += d;
		else
			a->cpu[cpu].irqs += d;
	}
	return true;
}

/* A numbered row: kept, differenced, its name and sum. */
static void
add_irq(struct activity *a, const struct counts *rd, const struct irqrow *r)
{
	struct act_irq *ai;
	unsigned int k;

	/* rows out of IRQ order or repeated (not the kernel's): not followed */
	if (!counts_keep(&a->now, rd, r))
		return;
	if (a->nirq == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 256;
		a->irq = xreallocarray(a->irq, a->cap, sizeof(*a->irq));
	}
	ai = &a->irq[a->nirq++];
	memset(ai, 0, sizeof(*ai));
	ai->irq = r->irq;
	ai->name = xstrndup(r->names, r->nameslen);
	for (k = 0; k < r->ncounts; k++)
		ai->total += rd->v[k];
	ai->rated = row_delta(a, &a->was, r->irq, rd, r, &ai->delta);
}

/* A CPU's row without an IRQ, followed by its label's place. */
static void
add_system(struct activity *a, const struct counts *rd,
    const struct irqrow *r)
{
	int i;

	if ((i = counts_cpu_label(rd, r, a->sysname, &a->nsys, ACT_NSYS)) < 0)
		return;
	if (counts_keep(&a->sysnow, rd, &(struct irqrow){ .irq = i,
	    .ncounts = r->ncounts }))
		row_delta(a, &a->syswas, i, rd, r, NULL);
}

static void
begin(struct activity *a, const struct counts *rd)
{
	unsigned int k;
	bool before = a->reads > 0 && a->was.col != NULL;

	clear_irqs(a);
	a->wide = -1;
	for (k = 0; k < a->nbits; k++)
		a->cpu[k] = (struct act_cpu){
			.counted = rd->col[k] >= 0,
			/* a CPU that came online since: no rate */
			.rated = rd->col[k] >= 0 && before && a->was.col[k] >= 0,
		};
	counts_kept_begin(&a->now, rd);
	counts_kept_begin(&a->sysnow, rd);
}

/*
 * One read: each numbered row's total and what it and each CPU counted
 * since the read before. 0, or -1 when the file could not be read (said).
 */
int
activity_read(struct activity *a, const char *from)
{
	struct counts rd;
	struct irqrow r;
	unsigned int irq;
	int nx, prc, rc;

	if (counts_open(&rd, from, a->nbits, COUNTS_CPUS | COUNTS_EACH |
	    COUNTS_NAMED) != 0)
		return -1;
	begin(a, &rd);
	while ((nx = counts_next(&rd, &irq)) > 0) {
		/* "%10u": the kernel cannot have printed it */
		if ((prc = counts_row(&rd, &r)) == -ERANGE && a->wide < 0)
			a->wide = r.irq;
		if (prc != 0)
			continue;
		if (nx == 2)
			add_system(a, &rd, &r);
		else
			add_irq(a, &rd, &r);
	}
	rc = counts_close(&rd);
	counts_kept_free(&a->was);
	counts_kept_free(&a->syswas);
	a->was = a->now;
	a->syswas = a->sysnow;
	memset(&a->now, 0, sizeof(a->now));
	memset(&a->sysnow, 0, sizeof(a->sysnow));
	a->reads++;
	return rc != 0 ? -1 : 0;
}

void
activity_free(struct activity *a)
{
	size_t i;

	clear_irqs(a);
	free(a->irq);
	free(a->cpu);
	for (i = 0; i < a->nsys; i++)
		free(a->sysname[i]);
	counts_kept_free(&a->was);
	counts_kept_free(&a->now);
	counts_kept_free(&a->syswas);
	counts_kept_free(&a->sysnow);
	memset(a, 0, sizeof(*a));
}
