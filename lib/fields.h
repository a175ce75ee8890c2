/*
 * The counts of /proc/interrupts rows in the kernel's fixed widths
 * (INTERRUPTS_FIELDW bytes each): summed a block at a time, per row or
 * per column, and as keys that order as the counts do. No I/O, no
 * printing.
 */
#ifndef IRQAFF_FIELDS_H
#define IRQAFF_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/kchar.h"

/*
 * Column sums over many rows, from their fields a digit place at a time:
 * lanes has fields_lanes_size() bytes, zeroed, and sums ncols.
 */
struct colsums {
	unsigned char		*lanes;
	unsigned long long	*sums;
	unsigned int		 ncols;
	unsigned int		 rows;	/* in lanes, not yet in sums */
};

bool	 fields_counts(const char *, const char *, unsigned int,
	    unsigned long long *);
void	 fields_values(const char *, unsigned int, unsigned long long *);
size_t	 fields_lanes_size(unsigned int);
void	 fields_colsums_add(struct colsums *, const char *);
void	 fields_colsums_flush(struct colsums *);

/* Keys: see fields_key() */
#define FIELDS_WIDE_KEY	(UINT64_C(1) << 63)

uint64_t fields_count_key(uint32_t);
uint32_t fields_key_count(uint64_t);

/*
 * The ten digits of a field: the first two as a byte each in the low
 * nibbles of *hi, the last eight a byte each, the first highest.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint64_t
fields_digits(const char *field, uint16_t *hi)
{
	uint64_t w;

	memcpy(hi, field + 1, sizeof(*hi));
	*hi = __builtin_bswap16(*hi & 0x0f0f);
	memcpy(&w, field + 3, sizeof(w));
	return __builtin_bswap64(w & 0x0f0f0f0f0f0f0f0fULL);
}
#else
static inline uint64_t
fields_digits(const char *field, uint16_t *hi)
{
	uint64_t w = 0;
	int i;

	*hi = (field[1] & 0x0f) << 8 | (field[2] & 0x0f);
	for (i = 3; i < INTERRUPTS_FIELDW; i++)
		w = w << 8 | (field[i] & 0x0f);
	return w;
}
#endif

/*
 * A key that orders as the count in a field does, without reading the
 * number: below 10^8 its last eight digits a byte each, the first
 * highest; from 10^8 on, 2^63 and all ten digits a nibble each. Blanks
 * and zeros in front read alike.
 */
static inline uint64_t
fields_key(const char *field)
{
	uint16_t hi;
	uint64_t w = fields_digits(field, &hi);

	if (hi == 0)
		return w;
	w = (w | w >> 4) & 0x00ff00ff00ff00ffULL;
	w = (w | w >> 8) & 0x0000ffff0000ffffULL;
	w = (w | w >> 16) & 0xffffffffULL;
	return FIELDS_WIDE_KEY | (uint64_t)(hi >> 4 | (hi & 0x0f)) << 32 |
	    w;
}

#endif
