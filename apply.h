/*
 * Applying affinity: each file is read, left alone when it already holds
 * the set, else written and read back; a refusal is explained in the
 * kernel's terms.
 */
#ifndef IRQAFF_APPLY_H
#define IRQAFF_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "machine.h"

/*
 * APPLY_NAMED: the user named this IRQ by its number alone, so a
 * kernel-managed IRQ is an error, not an IRQ to leave to the kernel.
 */
enum { APPLY_DRYRUN = 1, APPLY_VERBOSE = 2, APPLY_NAMED = 4 };

enum apply_result {
	APPLY_UNCHANGED, APPLY_CHANGED, APPLY_FAILED, APPLY_MANAGED
};

/* One IRQ and the CPUs it should have; want is borrowed, not owned. */
struct change {
	unsigned int		 irq;
	const struct cpuset	*want;
	bool			 named;		/* by its number alone */
};

/*
 * What a run did, file by file; managed: left to the kernel; stop: no
 * write can succeed (not root).
 */
struct tally {
	size_t	 changed, unchanged, failed, managed;
	bool	 stop;
};

enum apply_result apply_irq(struct machine *, unsigned int,
		    const struct cpuset *, int, struct tally *);
enum apply_result apply_default(struct machine *, const struct cpuset *, int,
		    struct tally *);
void		 apply_all(struct machine *, const struct change *, size_t,
		    int, struct tally *);
void		 apply_note(const struct tally *, int);

#endif
