/*
 * The rows of /proc/interrupts (kernel/irq/proc.c, show_interrupts()).
 * No I/O, no printing.
 */
#ifndef IRQAFF_INTERRUPTS_H
#define IRQAFF_INTERRUPTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * One numeric row; the pointers point into the line. chip and names are
 * never NULL; hwirq, type and flow are NULL when the row has none.
 */
struct irqrow {
	unsigned int		 irq;
	unsigned int		 ncounts;
	unsigned long long	 total;	/* 0 without ROW_TOTAL */
	const char		*chip;	/* chip name or irq_print_chip() */
	size_t			 chiplen;
	const char		*hwirq;	/* digits only */
	size_t			 hwirqlen;
	const char		*type;	/* "Level" or "Edge" */
	size_t			 typelen;
	const char		*flow;	/* desc->name, without its '-' */
	size_t			 flowlen;
	const char		*names;	/* action names, ", "-joined */
	size_t			 nameslen;
	/* the counts in the kernel's widths: ncounts fields, or NULL */
	const char		*fields;
};

/* The width of each of the fields: " %10u" */
#define INTERRUPTS_FIELDW	11

/* interrupts_parse() flags */
enum {
	ROW_TOTAL	= 1,	/* sum the counts into total */
	ROW_BYTEWISE	= 2,	/* read the counts a byte at a time (tests) */
	ROW_FIELDS	= 4,	/* counts only for a row without fields */
};

/*
 * Column sums over many rows, from their fields a digit place at a time:
 * lanes has interrupts_lanes_size() bytes, zeroed, and sums ncols.
 */
struct colsums {
	unsigned char		*lanes;
	unsigned long long	*sums;
	unsigned int		 ncols;
	unsigned int		 rows;	/* in lanes, not yet in sums */
};

int	 interrupts_header(const char *, unsigned int *);
int	 interrupts_columns(const char *, unsigned int, unsigned int *,
	    unsigned int *);
int	 interrupts_irq(const char *, unsigned int *);
/* -ERANGE: a count wider than the kernel's unsigned int (irq is set) */
int	 interrupts_parse(const char *, size_t, unsigned int, int,
	    struct irqrow *, unsigned long long *);

size_t	 interrupts_lanes_size(unsigned int);
void	 interrupts_colsums_add(struct colsums *, const char *);
void	 interrupts_colsums_flush(struct colsums *);

/* Keys: see interrupts_field_key() */
#define INTERRUPTS_WIDE_KEY	(UINT64_C(1) << 63)

uint64_t interrupts_count_key(uint32_t);
uint32_t interrupts_key_count(uint64_t);

/*
 * The ten digits of a field: the first two as a byte each in the low
 * nibbles of *hi, the last eight a byte each, the first highest.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint64_t
interrupts_digits(const char *field, uint16_t *hi)
{
	uint64_t w;

	memcpy(hi, field + 1, sizeof(*hi));
	*hi = __builtin_bswap16(*hi & 0x0f0f);
	memcpy(&w, field + 3, sizeof(w));
	return __builtin_bswap64(w & 0x0f0f0f0f0f0f0f0fULL);
}
#else
static inline uint64_t
interrupts_digits(const char *field, uint16_t *hi)
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
interrupts_field_key(const char *field)
{
	uint16_t hi;
	uint64_t w = interrupts_digits(field, &hi);

	if (hi == 0)
		return w;
	w = (w | w >> 4) & 0x00ff00ff00ff00ffULL;
	w = (w | w >> 8) & 0x0000ffff0000ffffULL;
	w = (w | w >> 16) & 0xffffffffULL;
	return INTERRUPTS_WIDE_KEY | (uint64_t)(hi >> 4 | (hi & 0x0f)) << 32 |
	    w;
}

#endif
