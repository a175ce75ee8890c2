/*
 * Applying affinity: each file is read, left alone when it already holds
 * the set, else written and read back; a refusal is explained in the
 * kernel's terms.
 */
#ifndef IRQAFF_APPLY_H
#define IRQAFF_APPLY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct cpuset;
struct machine;

/*
 * APPLY_NAMED: the user named this IRQ by its number alone, so a
 * kernel-managed IRQ is an error, not an IRQ to leave to the kernel.
 * Bits 2 and 8 are cmd/result.h's (-v and -J): core/ passes them on
 * untouched.
 */
enum {
	APPLY_DRYRUN = 1, APPLY_NAMED = 4
};

/* The irq of an outcome that is no IRQ's: a queue's mask file. */
#define APPLY_NOIRQ	LONG_MIN

/*
 * APPLY_MANAGED: debugfs says the kernel manages it; APPLY_UNMOVABLE: the
 * kernel does not let user space move it (managed, per-CPU or
 * no-balancing: without debugfs it does not say which).
 */
enum apply_result {
	APPLY_UNCHANGED, APPLY_CHANGED, APPLY_FAILED, APPLY_MANAGED,
	APPLY_UNMOVABLE
};

/* One IRQ and the CPUs it should have; want is borrowed, not owned. */
struct change {
	unsigned int		 irq;
	const struct cpuset	*want;
	bool			 named;		/* by its number alone */
};

/* A queue's mask file to set: rel under the root, labelled as in messages. */
struct qchange {
	const char		*label;
	const char		*rel;
	const struct cpuset	*want;
};

/*
 * What an outcome is about: an IRQ, the default affinity (irq -1) or a
 * file that is no IRQ's (APPLY_NOIRQ, named by label); the CPUs it held
 * and should hold (NULL: not known); when it failed, why: an errno (or
 * 0) and the sentence. Borrowed.
 */
struct target {
	long			 irq;
	const char		*label;
	const struct cpuset	*old, *want;
	int			 err;
	const char		*msg;
};

/*
 * A target's outcome, as recorded: the strings are owned, NULL when not
 * known (label: but for an APPLY_NOIRQ one).
 */
struct outcome {
	long			 irq;	/* -1: the default affinity */
	char			*label;
	enum apply_result	 result;
	char			*old, *new;	/* CPU lists */
	int			 err;	/* failed: its errno, or 0 */
	char			*msg;	/* failed: the sentence */
};

/*
 * A layout refused for want of interrupt vectors (core/vectors.c): the
 * CPUs short of them as a list (NULL: none refused), how many IRQs need
 * one there and how many are free there, exact or estimated.
 */
struct vshort {
	char		*cpus;
	size_t		 irqs;
	long		 free;
	bool		 exact;
};

/* Told of each outcome as it is recorded, with the tally's how. */
typedef void	 apply_tell_fn(const struct outcome *, int);

/*
 * What a run did, file by file, in the order it was done: v holds every
 * outcome; managed, unmovable: left as they are; stop: no write can
 * succeed (not root), stop_err and stop_msg why. tell (NULL: none), set
 * by the caller, is told of each outcome as it is recorded, with how
 * (cmd/result.c prints its line).
 */
struct tally {
	size_t		 changed, unchanged, failed, managed, unmovable;
	bool		 stop;
	int		 stop_err;
	char		*stop_msg;
	struct outcome	*v;
	size_t		 n, cap;
	struct vshort	 vec;
	apply_tell_fn	*tell;
	int		 how;
};

enum apply_result apply_irq(struct machine *, unsigned int,
		    const struct cpuset *, int, struct tally *);
enum apply_result apply_default(struct machine *, const struct cpuset *, int,
		    struct tally *);
enum apply_result apply_mask(struct machine *, const char *, const char *,
		    const struct cpuset *, int, struct tally *);
void		 apply_all(struct machine *, const struct change *, size_t,
		    int, struct tally *);
size_t		 apply_check(struct machine *, const struct change *, size_t,
		    const struct qchange *, size_t, struct tally *,
		    struct tally *);
bool		 apply_vectors(struct machine *, const struct change *, size_t,
		    struct tally *);

void		 apply_tally_add(struct tally *, const struct target *,
		    enum apply_result);
void		 apply_tally_skip(struct tally *, long, const struct cpuset *);
void		 apply_tally_free(struct tally *);

#endif
