/*
 * The rows of /proc/interrupts as kernel/irq/proc.c show_interrupts()
 * prints them. No I/O, no printing.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "interrupts.h"

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

/* The header names one CPUn column per online CPU. */
int
interrupts_header(const char *line, unsigned int *ncpus)
{
	const char *p = line;
	unsigned int n = 0;

	for (;;) {
		while (is_space(*p))
			p++;
		if (*p == '\0')
			break;
		if (strncmp(p, "CPU", 3) != 0 || !is_digit(p[3]))
			return -EINVAL;
		for (p += 3; is_digit(*p); p++)
			;
		n++;
	}
	if (n == 0)
		return -EINVAL;
	*ncpus = n;
	return 0;
}

static const char *
skip_space(const char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

static const char *
skip_word(const char *p)
{
	while (*p != '\0' && !is_space(*p))
		p++;
	return p;
}

/*
 * "%*d:" then one "%10u" per online CPU, the chip, the hardware IRQ and
 * flow ("49152-edge", or "30 Level" where the arch shows levels), then
 * the action names (kernel/irq/proc.c, show_interrupts()). Rows whose
 * label is not a number (NMI:, LOC:) return -ENOENT.
 */
int
interrupts_row(const char *line, unsigned int ncounts, struct irqrow *row,
    unsigned long long *counts)
{
	const char *p = skip_space(line), *e;
	unsigned long long n, irq = 0;
	unsigned int i;

	if (!is_digit(*p))
		return -ENOENT;
	for (; is_digit(*p); p++)
		if ((irq = irq * 10 + (*p - '0')) > INT_MAX)
			return -EINVAL;
	if (*p++ != ':')
		return -EINVAL;
	memset(row, 0, sizeof(*row));
	row->irq = irq;
	for (i = 0; i < ncounts; i++) {
		p = skip_space(p);
		if (!is_digit(*p))
			break;
		for (n = 0; is_digit(*p); p++)
			if ((n = n * 10 + (*p - '0')) > UINT_MAX)
				return -EINVAL;
		if (*p != '\0' && !is_space(*p))
			return -EINVAL;
		if (counts != NULL)
			counts[i] = n;
		row->total += n;
	}
	row->ncounts = i;
	p = skip_space(p);
	row->chip = p;
	row->chiplen = (p = skip_word(p)) - row->chip;
	p = skip_space(p);
	if (is_digit(*p)) {
		row->hwirq = p;
		e = skip_word(p);
		p = skip_space(e);
		if (strncmp(p, "Level", 5) == 0 || strncmp(p, "Edge", 4) == 0)
			e = skip_word(p);
		row->hwirqlen = e - row->hwirq;
		p = skip_space(e);
	}
	row->names = p;
	for (e = p + strlen(p); e > p && is_space(e[-1]); e--)
		;
	row->nameslen = e - p;
	return 0;
}

