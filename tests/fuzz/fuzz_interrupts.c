/*
 * /proc/interrupts lines: the first is the header, the rest are rows read
 * at its width (or at a width from the first byte when it is not a
 * header). Every slice of a row lies within its line, in order, with no
 * blank at either end, and the total is the sum of the counts.
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "interrupts.h"

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

static void
check_row(const char *line, unsigned int ncpus, unsigned long long *counts)
{
	struct irqrow row, bare;
	const char *end;
	size_t len = strlen(line), i;
	unsigned long long sum = 0;
	int rc, rc2;

	memset(counts, 0xa5, ncpus * sizeof(*counts));
	rc = interrupts_row(line, ncpus, &row, counts);
	rc2 = interrupts_row(line, ncpus, &bare, NULL);
	if (rc != rc2)
		abort();
	if (rc == -ENOENT || rc == -EINVAL)
		return;
	if (rc != 0)
		abort();
	if (memcmp(&row, &bare, sizeof(row)) != 0)
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long *counts;
	unsigned int ncpus;
	char *s, *line, *p;
	int rc;

	if (size == 0)
		return 0;
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
	if ((counts = calloc(ncpus, sizeof(*counts))) == NULL)
		abort();
	while ((line = strsep(&p, "\n")) != NULL)
		check_row(line, ncpus, counts);
	free(counts);
	free(s);
	return 0;
}
