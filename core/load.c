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

#include "core/load.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

#define ROW_MAX	(4 << 20)	/* as show and cpus read proc/interrupts */

/*
 * A cell for each CPU each IRQ runs on; an IRQ whose affinity cannot be
 * read is said and left out. 0 always: what cannot be followed has no
 * cells.
 */
int
cells_follow(struct cells *cs, const struct machine *m,
    const struct irqs *irqs)
{
	struct cpuset *set;
	struct perr pe;
	size_t i, cap = 0;
	int rc, cpu;

	memset(cs, 0, sizeof(*cs));
	cs->nbits = m->nbits;
	set = xcpuset(m->nbits);
	for (i = 0; i < irqs->n; i++) {
		rc = affinity_read(irqs->v[i], AFF_EFFECTIVE, set, &pe);
		if (rc == -ENOENT)
			rc = affinity_read(irqs->v[i], AFF_REQUESTED, set,
			    &pe);
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
cells_of(const struct cells *cs, unsigned int irq, size_t *at)
{
	size_t k;

	while (*at < cs->n && cs->v[*at].irq < irq)
		(*at)++;
	for (k = *at; k < cs->n && cs->v[k].irq == irq; k++)
		;
	return k - *at;
}

/*
 * Read r (0 or 1): one pass over proc/interrupts, each cell's count from
 * its CPU's column; fn, when given, sees every numbered row. 0, or -1
 * after saying why.
 */
int
cells_read(struct cells *cs, int r, cells_row_fn *fn, void *arg)
{
	unsigned long long *counts = NULL;
	unsigned int *cpu, ncols = 0, k;
	struct irqrow row;
	struct lines l;
	size_t len, at = 0, i, n;
	char *line;
	int rc, *col;

	if ((rc = lines_open(&l, PATH_PROC_INTERRUPTS, ROW_MAX)) != 0) {
		warnc(-rc, "%s", procfs_path(PATH_PROC_INTERRUPTS));
		return -1;
	}
	cpu = xcalloc(cs->nbits, sizeof(*cpu));
	col = xcalloc(cs->nbits, sizeof(*col));
	if ((rc = lines_next(&l, &line, &len)) == 0 || (rc == 1 &&
	    interrupts_columns(line, cs->nbits, cpu, &ncols) != 0)) {
		warnx("%s: no CPU header naming possible CPUs",
		    procfs_path(PATH_PROC_INTERRUPTS));
		rc = -EINVAL;
	}
	for (k = 0; k < cs->nbits; k++)
		col[k] = -1;
	for (k = 0; k < ncols; k++)
		col[cpu[k]] = k;
	for (i = 0; i < cs->n; i++)
		cs->v[i].seen &= ~(1U << r);
	counts = xcalloc(ncols + 1, sizeof(*counts));
	while (rc == 1 && (rc = lines_next(&l, &line, &len)) == 1) {
		if (interrupts_parse(line, len, ncols, 0, &row, counts) != 0)
			continue;
		if (fn != NULL)
			fn(arg, &row, counts, cpu);
		n = cells_of(cs, row.irq, &at);
		for (i = at; i < at + n; i++) {
			k = cs->v[i].cpu;
			if (col[k] < 0 || (unsigned int)col[k] >= row.ncounts)
				continue;
			cs->v[i].count[r] = counts[col[k]];
			cs->v[i].seen |= 1U << r;
		}
	}
	if (rc == -EFBIG)
		warnx("%s: a line longer than %d bytes",
		    procfs_path(PATH_PROC_INTERRUPTS), ROW_MAX);
	else if (rc < 0 && rc != -EINVAL)
		warnc(-rc, "%s", procfs_path(PATH_PROC_INTERRUPTS));
	lines_close(&l);
	free(counts);
	free(col);
	free(cpu);
	return rc == 0 ? 0 : -1;
}

/*
 * The interrupts a cell counted between read 0 and read 1, modulo 2^32
 * (the kernel's counter wraps); false when either read lacked it.
 */
bool
cell_delta(const struct cell *c, uint32_t *d)
{
	if ((c->seen & 3) != 3)
		return false;
	*d = c->count[1] - c->count[0];
	return true;
}

void
cells_free(struct cells *cs)
{
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}
