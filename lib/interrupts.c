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

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/* Whitespace as the kernel's isspace() sees it, ASCII only. */
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
		while (is_space(*p))
			p++;
		if (*p == '\0')
			break;
		if (strncmp(p, "CPU", 3) != 0 || !is_digit(p[3]))
			return -EINVAL;
		for (v = 0, p += 3; is_digit(*p); p++)
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
	while (is_space(*p))
		p++;
	return p;
}

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && is_space(*p))
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
		while (p < end && !is_space(*p))
			p++;
		if ((r->flowlen = p - r->flow) == 0)
			return -1;
		if (r->flowlen < NAMEW &&
		    (p = pad(p, end, NAMEW - r->flowlen)) == NULL)
			return -1;
		n++;
	}
	if (p < end) {
		if (end - p < 3 || p[0] != ' ' || p[1] != ' ' || is_space(p[2]))
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
		for (d = num; d < t->end && is_digit(*d); d++)
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
		if (is_space(e[-1]) || (e < t->end && *e != ' ' && *e != '-'))
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

	while (p < end && !is_space(*p))
		p++;
	r->chiplen = p - r->chip;
	p = skip_blanks(p, end);
	for (q = p; q < end && is_digit(*q); q++)
		;
	if (q > p && (q == end || *q == '-' || is_space(*q))) {
		r->hwirq = p;
		r->hwirqlen = q - p;
		p = skip_blanks(q, end);
	}
	if ((r->typelen = trigger(p, end)) > 0) {
		r->type = p;
		p = skip_blanks(p + r->typelen, end);
	}
	if (end - p > 1 && *p == '-' && !is_space(p[1])) {
		r->flow = ++p;
		while (p < end && !is_space(*p))
			p++;
		r->flowlen = p - r->flow;
		p = skip_blanks(p, end);
	}
	r->names = p;
	r->nameslen = end - p;
}

/*
 * The counts as the kernel prints them: each an 11-byte field, a blank
 * and "%10u" (" %10u" since 6.x; "%10u " after "%*d: " before, which
 * puts the same bytes in the same places), blanks then digits. Blocks
 * of 16 fields are read 8 or 16 bytes at a time, each at the same
 * offset of every block in turn: the low nibble of each byte (0 for a
 * blank) goes into its lane of a sum, and the lanes into the total
 * before one can pass 255.
 *
 * Every byte c must be a blank or a digit: (c | 0x10) - 0x2a has high
 * nibble 0 for c in 0x20-0x29 and 0x30-0x39 only, and bit 4 then tells
 * a digit (set) from the rest. Bit 4 of ((c + 0x0f) | prev) & ~c is set
 * where c is 0x21-0x29 or a blank after a digit: it must be set at the
 * separators and nowhere else (a separator 0x21-0x29 shows in its sum
 * instead). In 8-byte words a byte out of range may carry into the next
 * lane, but then it is caught itself.
 */
#define FIELDW	INTERRUPTS_FIELDW
#define NFIELDS	16		/* a block */
#define BLOCKW	(NFIELDS * FIELDW)
#define NFLUSH	28		/* blocks: 28 * 9 < 256 */

/* Bit 4 of the separators, from offset k % FIELDW for 16 bytes. */
static const unsigned char sepbits[FIELDW + 16] = {
	[0] = 0x10, [FIELDW] = 0x10, [2 * FIELDW] = 0x10
};

/* Whether one of n fields of blanks and digits from p is beyond a u32. */
static bool
too_big(const char *p, size_t n)
{
	for (; n > 0; n--, p += FIELDW)
		if (memcmp(p + 1, "4294967295", FIELDW - 1) > 0)
			return true;
	return false;
}

/* A field's lanes (sums of its bytes' low nibbles) at their place values. */
static unsigned long long
place_values(const unsigned char *f)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 1; i < FIELDW; i++)
		v = v * 10 + f[i];
	return v;
}

/*
 * The sums of nblocks blocks from p, one per byte of a block, into
 * *total at their place values. A separator's must be 0, and a count
 * of 10 digits must fit a u32.
 */
static bool
add_lanes(const unsigned char sums[BLOCKW], const char *p, size_t nblocks,
    unsigned long long *total)
{
	const unsigned char *f;
	unsigned long long sum = 0;
	int tenth = 0;

	for (f = sums; f < sums + BLOCKW; f += FIELDW) {
		if (f[0] != 0)
			return false;
		tenth |= f[1];
		sum += place_values(f);
	}
	if (tenth != 0 && too_big(p, nblocks * NFIELDS))
		return false;
	*total += sum;
	return true;
}

#ifdef __SSE2__
/* nblocks blocks from p into *total; p[-1] is the colon or a digit. */
static bool
add_blocks(const char *p, size_t nblocks, unsigned long long *total)
{
	const __m128i c10 = _mm_set1_epi8(0x10), c2a = _mm_set1_epi8(0x2a);
	const __m128i c0f = _mm_set1_epi8(0x0f), cf0 = _mm_set1_epi8(-0x10);
	__m128i ors = _mm_setzero_si128(), bad = ors, sep, sum, w, x;
	unsigned char sums[BLOCKW];
	const char *q, *end = p + nblocks * BLOCKW;
	size_t k;

	for (k = 0; k < BLOCKW; k += 16) {
		sep = _mm_loadu_si128((const void *)(sepbits + k % FIELDW));
		sum = _mm_setzero_si128();
		for (q = p + k; q < end; q += BLOCKW) {
			w = _mm_loadu_si128((const void *)q);
			x = _mm_or_si128(_mm_add_epi8(w, c0f),
			    _mm_loadu_si128((const void *)(q - 1)));
			bad = _mm_or_si128(bad,
			    _mm_xor_si128(_mm_andnot_si128(w, x), sep));
			ors = _mm_or_si128(ors,
			    _mm_sub_epi8(_mm_or_si128(w, c10), c2a));
			sum = _mm_add_epi8(sum, _mm_and_si128(w, c0f));
		}
		_mm_storeu_si128((void *)(sums + k), sum);
	}
	x = _mm_or_si128(_mm_and_si128(ors, cf0), _mm_and_si128(bad, c10));
	if (_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) !=
	    0xffff)
		return false;
	return add_lanes(sums, p, nblocks, total);
}
#else
#define ONES	0x0101010101010101ULL

/*
 * Eight bytes from p, in the host's order: byte j of the word in memory
 * is p[j], so each lane stays its byte whatever the endianness.
 */
static uint64_t
word(const void *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* nblocks blocks from p into *total; p[-1] is the colon or a digit. */
static bool
add_blocks(const char *p, size_t nblocks, unsigned long long *total)
{
	uint64_t lane[BLOCKW / 8], ors = 0, bad = 0, sep, sum, w;
	unsigned char sums[BLOCKW];
	const char *q, *end = p + nblocks * BLOCKW;
	size_t k;

	for (k = 0; k < BLOCKW; k += 8) {
		sep = word(sepbits + k % FIELDW);
		for (sum = 0, q = p + k; q < end; q += BLOCKW) {
			w = word(q);
			bad |= (((w + ONES * 0x0f) | word(q - 1)) & ~w) ^ sep;
			ors |= (w | ONES * 0x10) - ONES * 0x2a;
			sum += w & ONES * 0x0f;
		}
		lane[k / 8] = sum;
	}
	if ((ors & ONES * 0xf0) != 0 || (bad & ONES * 0x10) != 0)
		return false;
	memcpy(sums, lane, sizeof(sums));
	return add_lanes(sums, p, nblocks, total);
}
#endif

/* One field at p, " %10u", into *v; false if it is not one. */
static bool
fixed_field(const char *p, unsigned long long *v)
{
	size_t i;

	if (p[0] != ' ')
		return false;
	for (i = 1; i < FIELDW - 1 && p[i] == ' '; i++)
		;
	for (*v = 0; i < FIELDW; i++) {
		if (!is_digit(p[i]))
			return false;
		*v = *v * 10 + (p[i] - '0');
	}
	return *v <= UINT_MAX;
}

/*
 * Eight digits from p, where a blank reads as 0 (its low nibble):
 * pairs, then fours, then the eight, each step a multiply over lanes
 * (simdjson's parse_eight_digits_unrolled()).
 */
static uint64_t
eight_digits(const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	w &= 0x0f0f0f0f0f0f0f0fULL;
	w = w * 10 + (w >> 8);
	w = ((w & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
	    ((w >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32))) >> 32;
	return (uint32_t)w;
#else
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v * 10 + (p[i] & 0x0f);
	return v;
#endif
}

/*
 * Each of n fields from p that fixed_counts() found to be " %10u":
 * blanks then digits, so each is its ten low nibbles in decimal; the
 * first two are blanks below 10^8.
 */
static void
fixed_values(const char *p, unsigned int n, unsigned long long *v)
{
	unsigned int hi;

	for (; n > 0; n--, p += FIELDW) {
		*v = eight_digits(p + 3);
		if ((hi = (p[1] & 0x0f) * 10 + (p[2] & 0x0f)) != 0)
			*v += hi * 100000000ULL;
		v++;
	}
}

/*
 * n counts in fixed fields from p, just after the label's colon, then a
 * blank or the end of the line (end): their sum into *total. False if
 * they are not so; walk_counts() then reads them as it can.
 */
static bool
fixed_counts(const char *p, const char *end, unsigned int n,
    unsigned long long *total)
{
	unsigned long long v;
	size_t nblocks, chunk, i;

	if ((size_t)(end - p) / FIELDW < n)
		return false;
	if (p[(size_t)n * FIELDW] != '\0' && !is_space(p[(size_t)n * FIELDW]))
		return false;
	*total = 0;
	for (nblocks = n / NFIELDS; nblocks > 0; nblocks -= chunk) {
		chunk = nblocks < NFLUSH ? nblocks : NFLUSH;
		if (!add_blocks(p, chunk, total))
			return false;
		p += chunk * BLOCKW;
	}
	if (n >= NFIELDS && !is_digit(p[-1]))
		return false;
	for (i = n % NFIELDS; i > 0; i--, p += FIELDW) {
		if (!fixed_field(p, &v))
			return false;
		*total += v;
	}
	return true;
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
		if (!is_digit(*q))
			break;
		for (n = 0, p = q; is_digit(*p); p++)
			if ((n = n * 10 + (*p - '0')) > UINT_MAX) {
				*wide = true;
				return NULL;
			}
		if (*p != '\0' && !is_space(*p))
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

	if (!is_digit(*p))
		return -ENOENT;
	for (; is_digit(*p); p++)
		if ((n = n * 10 + (*p - '0')) > INT_MAX)
			return -EINVAL;
	if (*p != ':')
		return -EINVAL;
	*irq = n;
	*colon = p;
	return 0;
}

/* Only the label of a row: 0, -ENOENT (NMI:, LOC:) or -EINVAL. */
int
interrupts_irq(const char *line, unsigned int *irq)
{
	const char *colon;

	return label(line, irq, &colon);
}

/* Keys that order as counts do: interrupts_field_key(). */
#define WIDE_COUNT	100000000U

uint64_t
interrupts_count_key(uint32_t v)
{
	uint64_t key = 0;
	int i;

	if (v < WIDE_COUNT) {
		for (i = 0; i < 8; i++, v /= 10)
			key |= (uint64_t)(v % 10) << 8 * i;
		return key;
	}
	for (i = 0; i < 10; i++, v /= 10)
		key |= (uint64_t)(v % 10) << 4 * i;
	return INTERRUPTS_WIDE_KEY | key;
}

uint32_t
interrupts_key_count(uint64_t key)
{
	uint32_t v = 0;
	int i;

	if (!(key & INTERRUPTS_WIDE_KEY)) {
		for (i = 7; i >= 0; i--)
			v = v * 10 + (key >> 8 * i & 0xff);
		return v;
	}
	for (i = 9; i >= 0; i--)
		v = v * 10 + (key >> 4 * i & 0xf);
	return v;
}

/* Bytes of lanes for ncols columns: one per byte of their fields. */
size_t
interrupts_lanes_size(unsigned int ncols)
{
	return (size_t)ncols * FIELDW;
}

/*
 * Adds a row's ncols fields (irqrow.fields), each byte's low nibble into
 * its lane; the lanes go into the sums before one can pass 255.
 */
void
interrupts_colsums_add(struct colsums *cs, const char *fields)
{
	size_t i = 0, n = interrupts_lanes_size(cs->ncols);
#ifdef __SSE2__
	const __m128i c0f = _mm_set1_epi8(0x0f);
	__m128i w, l;

	for (; i + 16 <= n; i += 16) {
		w = _mm_loadu_si128((const void *)(fields + i));
		l = _mm_loadu_si128((const void *)(cs->lanes + i));
		_mm_storeu_si128((void *)(cs->lanes + i),
		    _mm_add_epi8(l, _mm_and_si128(w, c0f)));
	}
#else
	uint64_t w, l;

	for (; i + 8 <= n; i += 8) {
		w = word(fields + i);
		l = word(cs->lanes + i);
		l += w & ONES * 0x0f;
		memcpy(cs->lanes + i, &l, sizeof(l));
	}
#endif
	for (; i < n; i++)
		cs->lanes[i] += fields[i] & 0x0f;
	if (++cs->rows == NFLUSH)
		interrupts_colsums_flush(cs);
}

/* The lanes into the sums, each digit place at its value. */
void
interrupts_colsums_flush(struct colsums *cs)
{
	unsigned int k;

	if (cs->rows == 0)
		return;
	for (k = 0; k < cs->ncols; k++)
		cs->sums[k] += place_values(cs->lanes + (size_t)k * FIELDW);
	memset(cs->lanes, 0, interrupts_lanes_size(cs->ncols));
	cs->rows = 0;
}

/*
 * "%*d:", one " %10u" per online CPU, then the chip, hwirq, trigger,
 * flow and action names (see split_rest() and split_hwirq()). Rows whose
 * label is not a number (NMI:, LOC:) return -ENOENT. len is
 * strlen(line); the counts are summed with ROW_TOTAL only, and stored
 * in counts unless it is NULL. Counts in the kernel's widths are also
 * left as row->fields, and with ROW_FIELDS only there.
 */
int
interrupts_parse(const char *line, size_t len, unsigned int ncounts,
    int flags, struct irqrow *row, unsigned long long *counts)
{
	const char *p, *colon;
	unsigned long long total;
	unsigned int irq;
	struct tail t;
	bool wide = false;
	int rc;

	if ((rc = label(line, &irq, &colon)) != 0)
		return rc;
	memset(row, 0, sizeof(*row));
	row->irq = irq;
	p = colon + 1;
	if (!(flags & ROW_BYTEWISE) &&
	    fixed_counts(p, line + len, ncounts, &total)) {
		row->fields = p;
		if (counts != NULL && !(flags & ROW_FIELDS))
			fixed_values(p, ncounts, counts);
		p += (size_t)ncounts * FIELDW;
		row->ncounts = ncounts;
		if (flags & ROW_TOTAL)
			row->total = total;
	} else if ((p = walk_counts(p, ncounts, flags, row, counts,
	    &wide)) == NULL)
		return wide ? -ERANGE : -EINVAL;
	t.prec = colon - line;
	t.start = p;
	for (t.end = line + len; t.end > p && is_space(t.end[-1]); t.end--)
		;
	t.chip = skip_blanks(p, t.end);
	row->chip = t.chip;
	row->names = t.end;
	if (t.chip < t.end && !split(&t, PADDED, row) &&
	    !split(&t, BARE, row))
		split_words(&t, row);
	return 0;
}
