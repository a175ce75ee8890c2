/*
 * What the /proc/interrupts grammars below share: the kernel's notion of
 * a space and a digit, and the width of one count field.
 */
#ifndef IRQAFF_KCHAR_H
#define IRQAFF_KCHAR_H

#include <stdbool.h>

/* The width of each count field: " %10u" (kernel/irq/proc.c) */
#define INTERRUPTS_FIELDW	11

/* Whitespace as the kernel's isspace() sees it, ASCII only. */
static inline bool
interrupts_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool
interrupts_digit(int c)
{
	return c >= '0' && c <= '9';
}

#endif
