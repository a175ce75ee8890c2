/*
 * The one reader of /proc/interrupts (kernel/irq/proc.c,
 * show_interrupts()), line by line: on large machines the file is
 * hundreds of megabytes. A row of 8192 CPUs is 90 KB; the cap leaves
 * room for far more.
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/counts.h"
#include "lib/interrupts.h"
#include "core/xalloc.h"

#define ROW_MAX	(4 << 20)

/*
 * The name of the file a pass reads, escaped, for messages: from (a copy
 * the user saved, --sample-from), or NULL for the tree's.
 */
const char *
counts_path(const char *from)
{
	return from != NULL ? procfs_file_path(from) :
	    procfs_path(PATH_PROC_INTERRUPTS);
}

/* With COUNTS_CPUS, the column of each CPU. */
static void
columns_of(struct counts *rd)
{
	unsigned int c;

	if (rd->col == NULL)
		return;
	for (c = 0; c < rd->nbits; c++)
		rd->col[c] = -1;
	for (c = 0; c < rd->ncols; c++)
		rd->col[rd->cpu[c]] = c;
}

/*
 * Opens a pass and reads the header: its columns, with COUNTS_CPUS the
 * CPU of each (below nbits). 0 or -errno, said unless COUNTS_QUIET.
 */
int
counts_open(struct counts *rd, const char *from, unsigned int nbits,
    int flags)
{
	int rc;

	memset(rd, 0, sizeof(*rd));
	rd->from = from;
	rd->flags = flags;
	rd->nbits = nbits;
	if ((rc = from != NULL ? procfs_file_lines(&rd->l, from,
	    ROW_MAX) : procfs_lines_open(&rd->l, PATH_PROC_INTERRUPTS,
	    ROW_MAX)) != 0) {
		if (!(flags & COUNTS_QUIET))
			warnc(-rc, "%s", counts_path(rd->from));
		rd->l.fd = -1;
		return rc;
	}
	if (flags & COUNTS_CPUS) {
		rd->cpu = xcalloc(nbits, sizeof(*rd->cpu));
		rd->col = xcalloc(nbits, sizeof(*rd->col));
	}
	if ((rc = procfs_lines_next(&rd->l, &rd->line, &rd->len)) == 1 &&
	    ((flags & COUNTS_CPUS) ? interrupts_columns(rd->line, nbits,
	    rd->cpu, &rd->ncols) : interrupts_header(rd->line,
	    &rd->ncols)) == 0) {
		rd->rc = 1;
		columns_of(rd);
		if (flags & COUNTS_EACH)
			rd->v = xcalloc(rd->ncols + 1, sizeof(*rd->v));
		return 0;
	}
	if (rc >= 0) {
		rc = -EINVAL;
		if (!(flags & COUNTS_QUIET))
			warnx("%s: no CPU header%s", counts_path(rd->from),
			    (flags & COUNTS_CPUS) ? " naming possible CPUs" :
			    "");
	}
	rd->rc = rc;
	counts_close(rd);
	return rc;
}

/*
 * The next numbered row (NMI:, LOC: and the like are passed over, or
 * with COUNTS_NAMED found as 2): 1 and its IRQ, 0 at the end, or -errno
 * (said by counts_close()).
 */
int
counts_next(struct counts *rd, unsigned int *irq)
{
	int rc;

	rd->named = false;
	while (rd->rc == 1 &&
	    (rd->rc = procfs_lines_next(&rd->l, &rd->line, &rd->len)) == 1)
		if ((rc = interrupts_irq(rd->line, irq)) == 0)
			return 1;
		else if (rc == -ENOENT && (rd->flags & COUNTS_NAMED)) {
			rd->named = true;
			return 2;
		}
	return rd->rc;
}

/*
 * The row counts_next() found, its counts in v with COUNTS_EACH (with
 * COUNTS_FIELDS only when the row has no fields): 0, -ERANGE (a count
 * wider than the kernel's "%10u"; row->irq is set) or -EINVAL.
 */
int
counts_row(struct counts *rd, struct irqrow *row)
{
	int flags = 0;

	if (rd->flags & COUNTS_TOTAL)
		flags |= ROW_TOTAL;
	if (rd->named)
		flags |= ROW_NAMED;
	else if (rd->flags & COUNTS_FIELDS)
		flags |= ROW_FIELDS;
	return interrupts_parse(rd->line, rd->len, rd->ncols, flags, row,
	    (rd->flags & COUNTS_EACH) ? rd->v : NULL);
}

/*
 * Whether a row without an IRQ (NMI:, LOC:, IPI0:) is a CPU's: a count
 * for each CPU and its description. ERR: and MIS:, one count and no
 * text, are the machine's.
 */
bool
counts_cpu_row(const struct counts *rd, const struct irqrow *row)
{
	return rd->named && row->ncounts == rd->ncols &&
	    (row->chiplen > 0 || row->nameslen > 0);
}

/*
 * Such a row's place among the labels kept in names (NMI, LOC, ...),
 * a new label added while there is room for cap: its index, or -1 for
 * a row that is not a CPU's or a label that finds no room.
 */
int
counts_cpu_label(const struct counts *rd, const struct irqrow *row,
    char **names, size_t *n, size_t cap)
{
	size_t i;

	if (!counts_cpu_row(rd, row))
		return -1;
	for (i = 0; i < *n; i++)
		if (strlen(names[i]) == row->labellen &&
		    memcmp(names[i], row->label, row->labellen) == 0)
			return i;
	if (*n == cap)
		return -1;
	names[*n] = xstrndup(row->label, row->labellen);
	return (*n)++;
}

/*
 * Ends a pass, at its end or before: 0, or the error that stopped it,
 * said unless COUNTS_QUIET (a bad header was said by counts_open()).
 */
int
counts_close(struct counts *rd)
{
	int rc = rd->rc < 0 ? rd->rc : 0;

	if (rc != 0 && rc != -EINVAL && !(rd->flags & COUNTS_QUIET)) {
		if (rc == -EFBIG)
			warnx("%s: a line longer than %d bytes",
			    counts_path(rd->from), ROW_MAX);
		else
			warnc(-rc, "%s", counts_path(rd->from));
	}
	if (rd->l.fd >= 0)
		procfs_lines_close(&rd->l);
	free(rd->cpu);
	free(rd->col);
	free(rd->v);
	rd->cpu = NULL;
	rd->col = NULL;
	rd->v = NULL;
	rd->l.fd = -1;
	return rc;
}

/* Keeps the columns of an open COUNTS_CPUS pass, for its rows to come. */
void
counts_kept_begin(struct counts_kept *k, const struct counts *rd)
{
	counts_kept_free(k);
	k->nbits = rd->nbits;
	k->col = xcalloc(rd->nbits, sizeof(*k->col));
	memcpy(k->col, rd->col, rd->nbits * sizeof(*k->col));
	k->row = xcalloc(rd->ncols + 1, sizeof(*k->row));
}

/*
 * A kept row is a byte saying how, then its counts: KEPT_DELTAS, each
 * count less the one to its left (the first less 0) zigzagged into
 * 7-bit groups, low first, the high bit set on all but the last; or,
 * where that would take more room, KEPT_RAW, 4 bytes a count. Most counts
 * are 0, or near their neighbours: a byte each.
 */
enum { KEPT_RAW, KEPT_DELTAS };

/* What a row packed takes at the most. */
#define PACKED_MAX(n)	(1 + 5 * (size_t)(n))

/*
 * The bytes n counts packed take, or 0 as soon as those so far take more
 * than 4 bytes each and 16 over: a row of counts far apart is seen early.
 */
static size_t
pack_deltas(unsigned char *p, const unsigned long long *v, size_t n)
{
	unsigned char *q = p;
	uint64_t z;
	int64_t d;
	size_t c;

	for (c = 0; c < n; c++) {
		d = (int64_t)v[c] - (int64_t)(c > 0 ? v[c - 1] : 0);
		z = (uint64_t)d << 1 ^ (d < 0 ? UINT64_MAX : 0);
		for (; z >= 0x80; z >>= 7)
			*q++ = (unsigned char)(z | 0x80);
		*q++ = (unsigned char)z;
		if ((size_t)(q - p) > 4 * (c + 1) + 16)
			return 0;
	}
	return q - p;
}

static void
unpack_deltas(const unsigned char *p, uint32_t *v, size_t n)
{
	uint64_t z;
	uint32_t prev = 0;
	size_t c;
	int shift;

	for (c = 0; c < n; c++) {
		for (z = 0, shift = 0; *p & 0x80; shift += 7)
			z |= (uint64_t)(*p++ & 0x7f) << shift;
		z |= (uint64_t)*p++ << shift;
		prev += (uint32_t)(z >> 1 ^ -(z & 1));
		v[c] = prev;
	}
}

/*
 * Keeps a COUNTS_EACH row; one out of order or repeated is not kept
 * (counts_kept_row() searches): false.
 */
bool
counts_keep(struct counts_kept *k, const struct counts *rd,
    const struct irqrow *row)
{
	unsigned char *p;
	uint32_t u;
	size_t c, len;

	if (k->n > 0 && k->irq[k->n - 1] >= row->irq)
		return false;
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 256;
		k->irq = xreallocarray(k->irq, k->cap, sizeof(*k->irq));
		k->len = xreallocarray(k->len, k->cap, sizeof(*k->len));
		k->at = xreallocarray(k->at, k->cap, sizeof(*k->at));
	}
	if (k->room - k->used < PACKED_MAX(row->ncounts)) {
		k->room = 2 * k->room + PACKED_MAX(row->ncounts);
		k->buf = xreallocarray(k->buf, k->room, 1);
	}
	k->irq[k->n] = row->irq;
	k->len[k->n] = row->ncounts;
	k->at[k->n++] = k->used;
	p = k->buf + k->used;
	if ((len = pack_deltas(p + 1, rd->v, row->ncounts)) > 0 &&
	    len <= 4 * (size_t)row->ncounts)
		*p = KEPT_DELTAS;
	else {
		*p = KEPT_RAW;
		for (c = 0, len = 0; c < row->ncounts; c++, len += sizeof(u)) {
			u = (uint32_t)rd->v[c];
			memcpy(p + 1 + len, &u, sizeof(u));
		}
	}
	k->used += 1 + len;
	return true;
}

/* The kept row of irq, if the kept pass had one. */
bool
counts_kept_row(struct counts_kept *k, unsigned int irq, struct kept_row *r)
{
	const unsigned char *p;
	size_t lo = 0, hi = k->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (k->irq[mid] < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == k->n || k->irq[lo] != irq)
		return false;
	p = k->buf + k->at[lo];
	if (*p == KEPT_DELTAS)
		unpack_deltas(p + 1, k->row, k->len[lo]);
	else
		memcpy(k->row, p + 1, k->len[lo] * sizeof(*k->row));
	r->v = k->row;
	r->len = k->len[lo];
	return true;
}

/*
 * What one IRQ counted on one CPU between two reads, then and now:
 * now less then, modulo 2^32 as the kernel's unsigned int wraps
 * (kstat_irqs_cpu()). A difference of 2^31 or more is a count that went
 * down, the IRQ freed and set up again (its counts restart at 0), not
 * 2^31 interrupts in one interval: COUNTS_RESET.
 */
int
counts_diff(uint32_t then, uint32_t now, uint32_t *d)
{
	*d = now - then;
	return *d >= UINT32_C(1) << 31 ? COUNTS_RESET : COUNTS_COUNTED;
}

/*
 * counts_diff() of one IRQ on one CPU since the kept pass; COUNTS_NONE
 * when the kept row had no count for the CPU (it came online between
 * the two passes).
 */
int
counts_delta(const struct counts_kept *k, const struct kept_row *was,
    unsigned int cpu, unsigned long long now, uint32_t *d)
{
	int c;

	if (k->col == NULL || cpu >= k->nbits || (c = k->col[cpu]) < 0 ||
	    (unsigned int)c >= was->len)
		return COUNTS_NONE;
	return counts_diff(was->v[c], (uint32_t)now, d);
}

void
counts_kept_free(struct counts_kept *k)
{
	free(k->irq);
	free(k->len);
	free(k->at);
	free(k->buf);
	free(k->row);
	free(k->col);
	memset(k, 0, sizeof(*k));
}
