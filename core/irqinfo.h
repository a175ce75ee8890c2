/*
 * What /sys/kernel/irq/N says about one IRQ (kernel/irq/irqdesc.c): its
 * counts, chip, hwirq, trigger, flow handler and actions, without reading
 * the whole of /proc/interrupts.
 */
#ifndef IRQAFF_IRQINFO_H
#define IRQAFF_IRQINFO_H

#include <stdbool.h>
#include <stddef.h>

struct machine;

/* irqinfo_read() asks for */
enum {
	INFO_TOTAL = 1,
	INFO_CHIP = 2,
	INFO_HWIRQ = 4,
	INFO_TYPE = 8,
	INFO_FLOW = 16,
	INFO_NAMES = 32,
};

/* Strings are owned, NULL when the kernel has none; names ", "-joined. */
struct irqinfo {
	bool			 has_total;	/* false: per_cpu_count cut */
	unsigned long long	 total;
	char			*chip, *hwirq, *type, *flow, *names;
};

bool	 irqinfo_present(void);
int	 irqinfo_read(const struct machine *, unsigned int, int,
	    struct irqinfo *);
void	 irqinfo_free(struct irqinfo *);
int	 irqinfo_totals(const unsigned int *, size_t, unsigned long long *,
	    bool *);

#endif
