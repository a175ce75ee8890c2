/*
 * /proc/interrupts lines: the first is the header, the rest are rows read
 * at its width (or at a width from the first byte when it is not a
 * header). An input whose first byte is not ASCII is made into one row
 * as the kernel prints it instead, then damaged a little (make_row()).
 * Every slice of a row lies within its line, in order, with no blank at
 * either end, and the total is the sum of the counts. The word-wise
 * reading of the counts gives exactly what the byte-wise one gives, with
 * or without ROW_TOTAL, and interrupts_irq() agrees on the label. Where
 * it leaves the fields, each field's key is its count's and orders as
 * the counts do, and column sums of the row added many times are exact.
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fields.h"
#include "lib/interrupts.h"

static bool
is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool
within(const char *line, size_t linelen, const char *p, size_t len)
{
	return p >= line && p <= line + linelen && len <= linelen &&
	    p + len <= line + linelen;
}

/* A slice: NULL only when empty (optional ones), trimmed, in the line. */
static void
check_slice(const char *line, size_t linelen, const char *p, size_t len,
    bool optional)
{
	if (p == NULL) {
		if (!optional || len != 0)
			abort();
		return;
	}
	if (!within(line, linelen, p, len))
		abort();
	if (len > 0 && (is_space(p[0]) || is_space(p[len - 1])))
		abort();
}

/* Where a slice ends, or from for an absent one. */
static const char *
after(const char *from, const char *p, size_t len)
{
	if (p == NULL)
		return from;
	if (p < from)
		abort();
	return p + len;
}

/*
 * The same row through every entry point: the word-wise reading, with
 * and without ROW_TOTAL, and with counts (each count too), must give
 * what ROW_BYTEWISE gives, return code and fields.
 */
static int
same_row(const char *line, unsigned int ncpus, struct irqrow *row,
    unsigned long long *counts)
{
	struct irqrow fast, bare, old;
	unsigned long long *slow;
	size_t len = strlen(line);
	unsigned int irq;
	int rc, rc2;

	memset(row, 0, sizeof(*row));
	memset(&fast, 0, sizeof(fast));
	memset(&bare, 0, sizeof(bare));
	memset(&old, 0, sizeof(old));
	rc = interrupts_parse(line, len, ncpus, ROW_TOTAL | ROW_BYTEWISE,
	    row, NULL);
	if (row->fields != NULL)
		abort();
	if (interrupts_parse(line, len, ncpus, ROW_TOTAL, &fast, NULL) != rc)
		abort();
	row->fields = fast.fields;
	if (memcmp(&fast, row, sizeof(fast)) != 0)
		abort();
	if (interrupts_parse(line, len, ncpus, 0, &bare, NULL) != rc ||
	    bare.total != 0)
		abort();
	bare.total = row->total;
	if (memcmp(&bare, row, sizeof(bare)) != 0)
		abort();
	memset(counts, 0xa5, ncpus * sizeof(*counts));
	if (interrupts_parse(line, len, ncpus, ROW_TOTAL, &old, counts) != rc ||
	    memcmp(&old, row, sizeof(old)) != 0)
		abort();
	/* each count of the fixed-width path is the byte-wise one */
	if (rc == 0 && (slow = calloc(ncpus + 1, sizeof(*slow))) != NULL) {
		if (interrupts_parse(line, len, ncpus, ROW_BYTEWISE, &old,
		    slow) != 0 || memcmp(slow, counts, row->ncounts *
		    sizeof(*slow)) != 0)
			abort();
		/* ROW_FIELDS: the counts only where there are no fields */
		memset(slow, 0xa5, (ncpus + 1) * sizeof(*slow));
		if (interrupts_parse(line, len, ncpus, ROW_FIELDS, &old,
		    slow) != 0 || old.fields != row->fields ||
		    (old.fields == NULL && memcmp(slow, counts, row->ncounts *
		    sizeof(*slow)) != 0) ||
		    (old.fields != NULL && slow[0] != 0xa5a5a5a5a5a5a5a5ULL))
			abort();
		free(slow);
	}
	rc2 = interrupts_irq(line, &irq);
	if (rc2 == 0 ? rc == -ENOENT || (rc == 0 && irq != row->irq) :
	    rc2 != rc)
		abort();
	return rc;
}

/*
 * The fields of a row its counts were read from: where the counts are,
 * each field's key its count's, in the counts' order, and the row added
 * times times to column sums (crossing flushes) times each count.
 */
static void
check_fields(const char *line, const struct irqrow *row,
    const unsigned long long *counts, unsigned int times)
{
	struct colsums cs = { 0 };
	uint64_t key, prev = 0;
	unsigned int k, i;

	if (row->fields == NULL)
		return;
	if (row->fields < line || row->fields > row->chip ||
	    row->fields[-1] != ':')
		abort();
	for (k = 0; k < row->ncounts; k++) {
		key = fields_key(row->fields + k * INTERRUPTS_FIELDW);
		if (key != fields_count_key(counts[k]) ||
		    fields_key_count(key) != counts[k])
			abort();
		if (k > 0 && (prev < key) != (counts[k - 1] < counts[k]))
			abort();
		prev = key;
	}
	cs.ncols = row->ncounts;
	cs.lanes = calloc(1, fields_lanes_size(cs.ncols) + 1);
	cs.sums = calloc(cs.ncols + 1, sizeof(*cs.sums));
	if (cs.lanes == NULL || cs.sums == NULL)
		abort();
	for (i = 0; i < times; i++)
		fields_colsums_add(&cs, row->fields);
	fields_colsums_flush(&cs);
	for (k = 0; k < row->ncounts; k++)
		if (cs.sums[k] != times * counts[k])
			abort();
	free(cs.lanes);
	free(cs.sums);
}

static void
check_row(const char *line, unsigned int ncpus, unsigned long long *counts)
{
	struct irqrow row;
	const char *end;
	size_t len = strlen(line), i;
	unsigned long long sum = 0;
	int rc;

	rc = same_row(line, ncpus, &row, counts);
	/* -ERANGE: a count wider than 32 bits, a row the kernel cannot print */
	if (rc == -ENOENT || rc == -EINVAL || rc == -ERANGE)
		return;
	if (rc != 0)
		abort();
	if (row.ncounts > ncpus || row.irq > INT_MAX)
		abort();
	for (i = 0; i < row.ncounts; i++) {
		if (counts[i] > UINT_MAX)
			abort();
		sum += counts[i];
	}
	if (sum != row.total)
		abort();
	check_fields(line, &row, counts, 1 + row.irq % 61);
	check_slice(line, len, row.chip, row.chiplen, false);
	check_slice(line, len, row.hwirq, row.hwirqlen, true);
	check_slice(line, len, row.type, row.typelen, true);
	check_slice(line, len, row.flow, row.flowlen, true);
	check_slice(line, len, row.names, row.nameslen, false);
	end = after(row.chip, row.chip, row.chiplen);
	end = after(end, row.hwirq, row.hwirqlen);
	end = after(end, row.type, row.typelen);
	end = after(end, row.flow, row.flowlen);
	after(end, row.names, row.nameslen);
	if (row.hwirq != NULL && row.hwirqlen == 0)
		abort();
	for (i = 0; i < row.hwirqlen; i++)
		if (!is_digit(row.hwirq[i]))
			abort();
	if (row.type != NULL && !(row.typelen == 5 &&
	    memcmp(row.type, "Level", 5) == 0) && !(row.typelen == 4 &&
	    memcmp(row.type, "Edge", 4) == 0))
		abort();
	if (row.flow != NULL && (row.flowlen == 0 ||
	    memchr(row.flow, ' ', row.flowlen) != NULL))
		abort();
}

/* The input as a stream of bytes, zeros once it runs out. */
struct input {
	const uint8_t	*data;
	size_t		 size;
};

static unsigned int
next(struct input *in)
{
	if (in->size == 0)
		return 0;
	in->size--;
	return *in->data++;
}

/* A count from r: mostly small, some of 10 digits when big is set. */
static unsigned long long
count_of(unsigned long long r, bool big)
{
	switch (r % 8) {
	case 4:
		return r >> 8 & 0xffffffff;
	case 5:
		return r >> 8 & 0xffffff;
	case 6:
		return big ? UINT_MAX - 2 + (r >> 8) % 5 : 1000000000;
	case 7:
		return big ? (r >> 8) % 10000000000ULL : UINT_MAX;
	default:
		return (r >> 8) % 100000;
	}
}

/*
 * One row as the kernel prints it: "%*d:" and " %10u" per CPU (or "%*d: "
 * and "%10u " before 6.x), from 0 to 40 counts, or some hundreds to pass
 * the fast reader's 28-block flush, made by a generator seeded from the
 * input; then up to 3 bytes overwritten, and the rest of the input as the
 * chip and names.
 */
static char *
make_row(const uint8_t *data, size_t size, unsigned int *ncpus)
{
	static const char bytes[] = " 0123456789\t\n!)/:*x\x7f\x80\xa0";
	struct input in = { data, size };
	unsigned long long r = 0x9e3779b97f4a7c15ULL;
	unsigned int mode, n, i, irq;
	size_t cap, len, at;
	char *s;

	mode = next(&in);
	n = mode & 0x40 ? 16 * (next(&in) % 41) + next(&in) % 16 :
	    next(&in) % 41;
	irq = next(&in) | next(&in) << 8;
	for (i = 0; i < 8; i++)
		r ^= (unsigned long long)next(&in) << 8 * i;
	cap = 16 + 11 * (size_t)n + in.size + 1;
	if ((s = malloc(cap)) == NULL)
		abort();
	len = sprintf(s, mode & 1 ? "%*u: " : "%*u:", 3 + (mode >> 1) % 4,
	    irq);
	for (i = 0; i < n; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		len += sprintf(s + len, mode & 1 ? "%10llu " : " %10llu",
		    count_of(r, mode & 0x20));
	}
	for (i = next(&in) % 4; i > 0 && len > 0; i--) {
		at = (next(&in) | next(&in) << 8) % len;
		s[at] = bytes[next(&in) % (sizeof(bytes) - 1)];
	}
	memcpy(s + len, in.data, in.size);
	s[len + in.size] = '\0';
	*ncpus = n;
	return s;
}

/*
 * A header interrupts_columns() takes, interrupts_header() takes too,
 * with as many columns (ncols, 0 when it refused the header); the CPUs
 * are below the bound and rise.
 */
static void
check_columns(const char *line, unsigned int ncols)
{
	unsigned int cpus[64], n = 0, i, max = 64;

	if (interrupts_columns(line, max, cpus, &n) != 0)
		return;
	if (n != ncols)
		abort();
	for (i = 0; i < n; i++)
		if (cpus[i] >= max || (i > 0 && cpus[i] <= cpus[i - 1]))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long *counts;
	unsigned int ncpus;
	char *s, *line, *p;
	int rc;

	if (size == 0)
		return 0;
	if (data[0] >= 0x80) {
		line = make_row(data, size, &ncpus);
		if ((counts = calloc(ncpus + 2, sizeof(*counts))) == NULL)
			abort();
		check_row(line, ncpus, counts);
		check_row(line, ncpus + 1, counts);
		if (ncpus > 0)
			check_row(line, ncpus - 1, counts);
		free(counts);
		free(line);
		return 0;
	}
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	p = s;
	line = strsep(&p, "\n");
	ncpus = 0;
	if ((rc = interrupts_header(line, &ncpus)) == 0) {
		if (ncpus == 0 || ncpus > strlen(line) / 4)
			abort();
	} else if (rc != -EINVAL)
		abort();
	else
		ncpus = 1 + data[0] % 16;
	check_columns(line, rc == 0 ? ncpus : 0);
	if ((counts = calloc(ncpus, sizeof(*counts))) == NULL)
		abort();
	while ((line = strsep(&p, "\n")) != NULL)
		check_row(line, ncpus, counts);
	free(counts);
	free(s);
	return 0;
}
