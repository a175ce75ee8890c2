/*
 * Diagnosis: what is wrong or worth saying about an IRQ, from what the
 * kernel shows of it, as findings (explain prints them).
 */
#ifndef IRQAFF_DIAGNOSE_H
#define IRQAFF_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>

struct cpuset;
struct findings;
struct irqbalance;
struct irqthreads;
struct isolated;
struct machine;
struct vectors;

/* What is known of one IRQ; the sets are owned, NULL when unknown. */
struct irqview {
	unsigned int		 irq;
	int			 state;	/* machine_irq_state() */
	int			 node;
	struct cpuset		*req, *eff, *hint;
	bool			 has_total, handled;
	bool			 procdirs;	/* its actions have proc/irq/N/NAME */
	unsigned long long	 total;
	char			*chip;		/* NULL when unknown */
	char			*names;		/* sys/kernel/irq/N/actions */
	const struct irqthreads	*threads;	/* the machine's; not owned */
	struct vectors		*vectors;	/* the run's (vectors_stuck_in()) */
};

int	 diagnose_read(struct machine *, unsigned int, struct irqview *);
void	 diagnose_totals(struct irqview *, size_t);
void	 diagnose_irq(struct machine *, const struct irqbalance *,
	    const struct isolated *,
	    const struct irqview *, struct findings *, struct findings *);
bool	 diagnose_irqbalance_moves(const struct irqbalance *,
	    const struct irqview *);
void	 diagnose_free(struct irqview *);

#endif
