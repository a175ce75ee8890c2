/*
 * Applying affinity: each file is read, left alone when it already holds
 * the set, else written and read back; a refusal is explained in the
 * kernel's terms.
 */
#ifndef IRQAFF_APPLY_H
#define IRQAFF_APPLY_H

#include <stddef.h>

#include "machine.h"

enum { APPLY_DRYRUN = 1, APPLY_VERBOSE = 2 };

enum apply_result { APPLY_UNCHANGED, APPLY_CHANGED, APPLY_FAILED };

/* One IRQ and the CPUs it should have; want is borrowed, not owned. */
struct change {
	unsigned int		 irq;
	const struct cpuset	*want;
};

enum apply_result apply_irq(struct machine *, unsigned int,
		    const struct cpuset *, int);
enum apply_result apply_default(struct machine *, const struct cpuset *, int);
size_t		 apply_all(struct machine *, const struct change *, size_t,
		    int);
size_t		 apply_written(void);

#endif
