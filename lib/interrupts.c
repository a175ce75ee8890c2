/*
 * The rows of /proc/interrupts as kernel/irq/proc.c show_interrupts()
 * prints them, in every format from 2.6 to 6.13 and later. No I/O, no
 * printing.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lib/fields.h"
#include "lib/interrupts.h"

#define CHIPW	8	/* " %8s" chip->name */
#define NAMEW	8	/* " %-8s" Level or Edge, "-%-8s" desc->name */

/* What follows a row's counts, and the width of its IRQ column. */
struct tail {
	const char	*start;		/* just after the last count */
	const char	*chip;		/* the first non-blank after it */
	const char	*end;		/* after the last non-blank */
	size_t		 prec;		/* "%*d:" */
};

/* Where the chip may end: where " %8s" puts it, or anywhere blank-free. */
enum pass { PADDED, BARE };

/* What follows the chip: " %*lu", its blank " %*s", or nothing. */
enum hwirq { HWIRQ_NUMBER, HWIRQ_BLANK, HWIRQ_NONE, NHWIRQ };

/*
 * The header's CPUn words (show_interrupts() prints "CPU%-8d" for each
 * online CPU, in order): how many, and with cpus the CPU of each, each
 * below max and above the one before. 0 or -EINVAL.
 */
static int
header_words(const char *line, unsigned int max, unsigned int *cpus,
    unsigned int *ncols)
{
	const char *p = line;
	unsigned long v;
	unsigned int n = 0;

	for (;;) {
		while (interrupts_space(*p))
			p++;
		if (*p == '\0')
			break;
		if (strncmp(p, "CPU", 3) != 0 || !interrupts_digit(p[3]))
			return -EINVAL;
		for (v = 0, p += 3; interrupts_digit(*p); p++)
			if (cpus != NULL && (v = v * 10 + (*p - '0')) >= max)
				return -EINVAL;
		if (cpus != NULL) {
			if (n == max || (n > 0 && v <= cpus[n - 1]))
				return -EINVAL;
			cpus[n] = v;
		}
		n++;
	}
	if (n == 0)
		return -EINVAL;
	*ncols = n;
	return 0;
}

/* How many columns the header names, whatever their CPUs. */
int
interrupts_header(const char *line, unsigned int *ncpus)
{
	return header_words(line, 0, NULL, ncpus);
}

/* The CPU of each column; cpus has room for max. */
int
interrupts_columns(const char *line, unsigned int max, unsigned int *cpus,
    unsigned int *ncols)
{
	return header_words(line, max, cpus, ncols);
}

static const char *
skip_space(const char *p)
{
	while (interrupts_space(*p))
		p++;
	return p;
}

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && interrupts_space(*p))
		p++;
	return p;
}

/*
 * n blanks of padding from p. Padding at the end of the line may have
 * been stripped in transit, so reaching end will do. NULL if something
 * else is in the way.
 */
static const char *
pad(const char *p, const char *end, size_t n)
{
	for (; n > 0; n--, p++) {
		if (p >= end)
			return end;
		if (*p != ' ')
			return NULL;
	}
	return p;
}

/* The length of "Level" or "Edge" at p, else 0. */
static size_t
trigger(const char *p, const char *end)
{
	static const char *const words[] = { "Level", "Edge" };
	size_t i, len;

	for (i = 0; i < 2; i++) {
		len = strlen(words[i]);
		if ((size_t)(end - p) >= len && memcmp(p, words[i], len) == 0 &&
		    (p + len == end || p[len] == ' '))
			return len;
	}
	return 0;
}

/*
 * From p, after the hwirq: " %-8s" Level or Edge where the arch shows
 * levels, "-%-8s" desc->name, then "  " and the action names. How many
 * of the first two there are, or -1 if the text does not read so.
 */
static int
split_rest(const char *p, const char *end, struct irqrow *r)
{
	int n = 0;

	if (p < end && *p == ' ' && (r->typelen = trigger(p + 1, end)) > 0) {
		r->type = p + 1;
		p = pad(r->type + r->typelen, end, NAMEW - r->typelen);
		if (p == NULL)
			return -1;
		n++;
	}
	if (p < end && *p == '-') {
		r->flow = ++p;
		while (p < end && !interrupts_space(*p))
			p++;
		if ((r->flowlen = p - r->flow) == 0)
			return -1;
		if (r->flowlen < NAMEW &&
		    (p = pad(p, end, NAMEW - r->flowlen)) == NULL)
			return -1;
		n++;
	}
	if (p < end) {
		if (end - p < 3 || p[0] != ' ' || p[1] != ' ' ||
		    interrupts_space(p[2]))
			return -1;
		r->names = p + 2;
		r->nameslen = end - r->names;
	}
	return n;
}

/*
 * From p, just after the chip: the hwirq " %*lu" at the IRQ column's
 * width, its blank " %*s" when the IRQ has no domain (5.x on), or
 * nothing (older kernels). The number of fields found, or -1.
 */
static int
split_hwirq(const struct tail *t, const char *p, enum hwirq kind,
    struct irqrow *r)
{
	const char *num, *d;
	size_t n;
	int rest;

	switch (kind) {
	case HWIRQ_NUMBER:
		for (num = p; num < t->end && *num == ' '; num++)
			;
		for (d = num; d < t->end && interrupts_digit(*d); d++)
			;
		n = d - num;
		if (n == 0 || (size_t)(num - p) != 1 +
		    (t->prec > n ? t->prec - n : 0) ||
		    (d < t->end && *d != ' ' && *d != '-'))
			return -1;
		r->hwirq = num;
		r->hwirqlen = n;
		return (rest = split_rest(d, t->end, r)) < 0 ? -1 : rest + 1;
	case HWIRQ_BLANK:
		if (p >= t->end || (p = pad(p, t->end, t->prec + 1)) == NULL)
			return -1;
		break;
	default:
		break;
	}
	return split_rest(p, t->end, r);
}

/*
 * Whether a chip of len characters fills " %8s" after the last count's
 * blank (lead blanks in all), or "%8s" after it as since 6.13.
 */
static bool
pad_fits(size_t len, size_t lead)
{
	if (len >= CHIPW)
		return lead == 1 || lead == 2;
	return lead == CHIPW + 2 - len || lead == CHIPW + 1 - len;
}

/*
 * The chip ends where the rest reads as the kernel prints it. Padding
 * settles almost every row (tests/fixtures/interrupts/README); where it
 * cannot, the split with most fields wins, then the shortest chip: the
 * kernel's names are "IR-PCI-MSI" with hwirq 16384, not "IR-PCI-MSI
 * 16384", and "xen-pirq" with flow "ioapic-edge". No chip name has two
 * blanks in a row, and one with a blank does not end the line.
 */
static bool
split(const struct tail *t, enum pass pass, struct irqrow *row)
{
	const char *s = t->chip, *e;
	struct irqrow r, best;
	enum hwirq kind;
	int n, most = -1;

	for (e = s + 1; e <= t->end; e++) {
		if (e[-1] == ' ' && (pass == BARE || e[-2] == ' '))
			break;
		if (interrupts_space(e[-1]) ||
		    (e < t->end && *e != ' ' && *e != '-'))
			continue;
		if (pass == PADDED && !pad_fits(e - s, s - t->start))
			continue;
		if (e == t->end && memchr(s, ' ', e - s) != NULL)
			continue;
		for (kind = 0; kind < NHWIRQ; kind++) {
			r = *row;
			r.chip = s;
			r.chiplen = e - s;
			if ((n = split_hwirq(t, e, kind, &r)) > most) {
				most = n;
				best = r;
			}
		}
	}
	if (most < 0)
		return false;
	*row = best;
	return true;
}

/* Not the kernel's spacing (a file made by hand): read words. */
static void
split_words(const struct tail *t, struct irqrow *r)
{
	const char *p = t->chip, *end = t->end, *q;

	while (p < end && !interrupts_space(*p))
		p++;
	r->chiplen = p - r->chip;
	p = skip_blanks(p, end);
	for (q = p; q < end && interrupts_digit(*q); q++)
		;
	if (q > p && (q == end || *q == '-' || interrupts_space(*q))) {
		r->hwirq = p;
		r->hwirqlen = q - p;
		p = skip_blanks(q, end);
	}
	if ((r->typelen = trigger(p, end)) > 0) {
		r->type = p;
		p = skip_blanks(p + r->typelen, end);
	}
	if (end - p > 1 && *p == '-' && !interrupts_space(p[1])) {
		r->flow = ++p;
		while (p < end && !interrupts_space(*p))
			p++;
		r->flowlen = p - r->flow;
		p = skip_blanks(p, end);
	}
	r->names = p;
	r->nameslen = end - p;
}

/*
 * The counts as blank-separated numbers, one at a time: for rows not in
 * the kernel's widths, and with ROW_BYTEWISE.
 * Where they end, or NULL if one runs into something else or, with
 * *wide set, is wider than the kernel's unsigned int.
 */
static const char *
walk_counts(const char *p, unsigned int ncounts, int flags,
    struct irqrow *row, unsigned long long *counts, bool *wide)
{
	unsigned long long n;
	const char *q;
	unsigned int i;

	for (i = 0; i < ncounts; i++) {
		q = skip_space(p);
		if (!interrupts_digit(*q))
			break;
		for (n = 0, p = q; interrupts_digit(*p); p++)
			if ((n = n * 10 + (*p - '0')) > UINT_MAX) {
				*wide = true;
				return NULL;
			}
		if (*p != '\0' && !interrupts_space(*p))
			return NULL;
		if (counts != NULL)
			counts[i] = n;
		if (flags & ROW_TOTAL)
			row->total += n;
	}
	row->ncounts = i;
	return p;
}

/* "%*d:": the IRQ number, and where its colon is. */
static int
label(const char *line, unsigned int *irq, const char **colon)
{
	const char *p = skip_space(line);
	unsigned long long n = 0;

	if (!interrupts_digit(*p))
		return -ENOENT;
	for (; interrupts_digit(*p); p++)
		if ((n = n * 10 + (*p - '0')) > INT_MAX)
			return -EINVAL;
	if (*p != ':')
		return -EINVAL;
	*irq = n;
	*colon = p;
	return 0;
}

/* "%*s:": a word of letters, digits or '_' (NMI, IPI0), and its colon. */
static int
word_label(const char *line, const char **word, size_t *len,
    const char **colon)
{
	const char *p = skip_space(line), *q;

	for (q = p; interrupts_digit(*q) || *q == '_' ||
	    (*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z'); q++)
		;
	if (q == p || *q != ':')
		return -EINVAL;
	*word = p;
	*len = q - p;
	*colon = q;
	return 0;
}

/* Only the label of a row: 0, -ENOENT (NMI:, LOC:) or -EINVAL. */
int
interrupts_irq(const char *line, unsigned int *irq)
{
	const char *colon;

	return label(line, irq, &colon);
}

/*
 * "%*d:", one " %10u" per online CPU, then the chip, hwirq, trigger,
 * flow and action names (see split_rest() and split_hwirq()). Rows whose
 * label is not a number (NMI:, LOC:) return -ENOENT, or with ROW_NAMED
 * are read with their word in label. len is
 * strlen(line); the counts are summed with ROW_TOTAL only, and stored
 * in counts unless it is NULL. Counts in the kernel's widths are also
 * left as row->fields, and with ROW_FIELDS only there.
 */
int
interrupts_parse(const char *line, size_t len, unsigned int ncounts,
    int flags, struct irqrow *row, unsigned long long *counts)
{
	const char *p, *colon, *word = NULL;
	unsigned long long total;
	unsigned int irq = 0;
	size_t wordlen = 0;
	struct tail t;
	bool wide = false;
	int rc;

	if ((rc = label(line, &irq, &colon)) == -ENOENT &&
	    (flags & ROW_NAMED))
		rc = word_label(line, &word, &wordlen, &colon);
	if (rc != 0)
		return rc;
	memset(row, 0, sizeof(*row));
	row->irq = irq;
	row->label = word;
	row->labellen = wordlen;
	p = colon + 1;
	if (!(flags & ROW_BYTEWISE) &&
	    fields_counts(p, line + len, ncounts, &total)) {
		row->fields = p;
		if (counts != NULL && !(flags & ROW_FIELDS))
			fields_values(p, ncounts, counts);
		p += (size_t)ncounts * INTERRUPTS_FIELDW;
		row->ncounts = ncounts;
		if (flags & ROW_TOTAL)
			row->total = total;
	} else if ((p = walk_counts(p, ncounts, flags, row, counts,
	    &wide)) == NULL)
		return wide ? -ERANGE : -EINVAL;
	t.prec = colon - line;
	t.start = p;
	t.end = line + len;
	while (t.end > p && interrupts_space(t.end[-1]))
		t.end--;
	t.chip = skip_blanks(p, t.end);
	row->chip = t.chip;
	row->names = t.end;
	if (t.chip < t.end && !split(&t, PADDED, row) &&
	    !split(&t, BARE, row))
		split_words(&t, row);
	return 0;
}
