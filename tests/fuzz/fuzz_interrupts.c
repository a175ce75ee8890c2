/*
 * /proc/interrupts lines: the first is the header, the rest are rows read
 * at its width (or at a width from the first byte when it is not a
 * header). Every pointer in a row lies within its line, in order, and the
 * total is the sum of the counts.
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
has_space(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (is_space(p[i]))
			return true;
	return false;
}

static bool
within(const char *line, size_t linelen, const char *p, size_t len)
{
	return p >= line && p <= line + linelen && len <= linelen &&
	    p + len <= line + linelen;
}

static void
check_row(const char *line, unsigned int ncpus, unsigned long long *counts)
{
	struct irqrow row, bare;
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
	if (!within(line, len, row.chip, row.chiplen) ||
	    !within(line, len, row.names, row.nameslen))
		abort();
	if (row.hwirq != NULL) {
		if (!within(line, len, row.hwirq, row.hwirqlen) ||
		    row.hwirq < row.chip + row.chiplen ||
		    row.names < row.hwirq + row.hwirqlen)
			abort();
	} else if (row.hwirqlen != 0 || row.names < row.chip + row.chiplen)
		abort();
	if (has_space(row.chip, row.chiplen) ||
	    (row.hwirq != NULL && is_space(row.hwirq[0])))
		abort();
	if (row.nameslen > 0 && (is_space(row.names[0]) ||
	    is_space(row.names[row.nameslen - 1])))
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
