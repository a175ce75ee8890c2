/*
 * The counts of /proc/interrupts rows in the kernel's fixed widths,
 * summed a block of fields at a time (SSE2, or 8-byte words without it),
 * and keys that order as counts do without reading the numbers. No I/O,
 * no printing.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "lib/fields.h"
#include "lib/kchar.h"

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
		if (!interrupts_digit(p[i]))
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
void
fields_values(const char *p, unsigned int n, unsigned long long *v)
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
 * they are not so; the row grammar then reads them as it can.
 */
bool
fields_counts(const char *p, const char *end, unsigned int n,
    unsigned long long *total)
{
	unsigned long long v;
	size_t nblocks, chunk, i;

	if ((size_t)(end - p) / FIELDW < n)
		return false;
	if (p[(size_t)n * FIELDW] != '\0' &&
	    !interrupts_space(p[(size_t)n * FIELDW]))
		return false;
	*total = 0;
	for (nblocks = n / NFIELDS; nblocks > 0; nblocks -= chunk) {
		chunk = nblocks < NFLUSH ? nblocks : NFLUSH;
		if (!add_blocks(p, chunk, total))
			return false;
		p += chunk * BLOCKW;
	}
	if (n >= NFIELDS && !interrupts_digit(p[-1]))
		return false;
	for (i = n % NFIELDS; i > 0; i--, p += FIELDW) {
		if (!fixed_field(p, &v))
			return false;
		*total += v;
	}
	return true;
}

/* Keys that order as counts do: fields_key(). */
#define WIDE_COUNT	100000000U

uint64_t
fields_count_key(uint32_t v)
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
	return FIELDS_WIDE_KEY | key;
}

uint32_t
fields_key_count(uint64_t key)
{
	uint32_t v = 0;
	int i;

	if (!(key & FIELDS_WIDE_KEY)) {
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
fields_lanes_size(unsigned int ncols)
{
	return (size_t)ncols * FIELDW;
}

/*
 * Adds a row's ncols fields (irqrow.fields), each byte's low nibble into
 * its lane; the lanes go into the sums before one can pass 255.
 */
void
fields_colsums_add(struct colsums *cs, const char *fields)
{
	size_t i = 0, n = fields_lanes_size(cs->ncols);
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
		fields_colsums_flush(cs);
}

/* The lanes into the sums, each digit place at its value. */
void
fields_colsums_flush(struct colsums *cs)
{
	unsigned int k;

	if (cs->rows == 0)
		return;
	for (k = 0; k < cs->ncols; k++)
		cs->sums[k] += place_values(cs->lanes + (size_t)k * FIELDW);
	memset(cs->lanes, 0, fields_lanes_size(cs->ncols));
	cs->rows = 0;
}
