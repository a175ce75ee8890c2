/*
 * IRQ threads: the kernel threads irq/N-NAME that run handlers where
 * they are threaded (PREEMPT_RT, threadirqs, request_threaded_irq()),
 * and the CPUs each may run on.
 */
#ifndef IRQAFF_IRQTHREAD_H
#define IRQAFF_IRQTHREAD_H

#include <stdbool.h>
#include <stddef.h>

struct cpuset;

struct irqthread {
	unsigned int	 irq;
	int		 pid;
	char		*name;		/* as proc/PID/comm has it, raw */
	struct cpuset	*cpus;		/* Cpus_allowed_list; NULL unknown */
};

/* Sorted by IRQ, then name, then PID; all owned. */
struct irqthreads {
	struct irqthread	*v;
	size_t			 n;
};

int	 irqthread_load(unsigned int, struct irqthreads *);
size_t	 irqthread_of(const struct irqthreads *, unsigned int, size_t *);
bool	 irqthread_follows(const struct irqthread *, const struct cpuset *,
	    const struct cpuset *);
void	 irqthread_free(struct irqthreads *);

#endif
