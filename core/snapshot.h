/*
 * Snapshot files read and checked, and their entries matched to the
 * IRQs of this machine (the grammar is in lib/snapline.c).
 */
#ifndef IRQAFF_SNAPSHOT_H
#define IRQAFF_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/select.h"
#include "lib/snapline.h"

struct cpuset;
struct machine;

/* One entry of the file; everything in it is owned. */
struct entry {
	size_t		 line;
	struct snapline	 sl;
	struct cpuset	*want;
	struct cpuset	*isolated;	/* a plan line's chosen, or NULL */
	size_t		*hit;		/* indices into struct mirqs */
	size_t		 nhit;
};

/* A line that cannot be applied, and why (msg is owned). */
struct problem {
	size_t		 line;
	char		*msg;
};

/* A queue a line gives CPUs to: the last such line, its mask file. */
struct snapq {
	const struct entry *e;
	char		*rel;		/* owned */
};

/* The lines naming CPUs beyond this machine's, said once for all. */
#define SNAP_BEYOND_RANGES	8
struct beyond {
	size_t		 n;		/* lines */
	size_t		 lo[SNAP_BEYOND_RANGES], hi[SNAP_BEYOND_RANGES];
	size_t		 nranges;
	bool		 more;		/* lines past the ranges kept */
	char		 first[700];	/* the first line's message, held */
	bool		 held;
	struct cpuset	*wide;		/* for a mask's second reading */
};

struct snap {
	char		*label;		/* the file, escaped for messages */
	struct entry	*v;
	size_t		 n, cap;
	size_t		*slots;		/* hash of pattern lines into v */
	size_t		 nslots;
	const struct entry *dflt;	/* the last default line */
	const struct entry *plan;	/* the last plan line */
	struct machine	*m;		/* snapshot_read()'s */
	struct problem	*problems;	/* snapshot_resolve()'s, by line */
	size_t		 nproblems;
	const struct irqs *only;	/* snapshot_resolve()'s --only, or NULL */
	struct snapq	*queues;	/* snapshot_resolve()'s, by interface */
	size_t		 nqueues;
	bool		 by_number;
	bool		 verbose;	/* each line beyond the CPUs too */
	struct beyond	 beyond;
	struct cpuset	*left;		/* remembered isolated CPUs left out */
	size_t		 nleft;		/* of this many lines */
};

/* An IRQ of the machine with its action names (owned). */
struct mirq {
	char		**names;
	size_t		 nnames;
	const struct entry *by;		/* the last line that picks it */
};

/* The IRQs of the machine: numbers in nums, the rest in v, same order. */
struct mirqs {
	struct irqs	 nums;
	struct mirq	*v;
};

int	 snapshot_read(struct snap *, struct machine *, const char *);
void	 snapshot_free(struct snap *);
void	 snapshot_warn(const struct snap *, size_t, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	 snapshot_mirqs_load(struct mirqs *);
void	 snapshot_mirqs_free(struct mirqs *);
size_t	 snapshot_resolve(struct snap *, struct mirqs *,
	    const struct irqs *);
char	*snapshot_names_text(char **, size_t, bool);
void	 snapshot_queue_label(const struct entry *, char *, size_t);
void	 snapshot_put_names(FILE *, unsigned int);
void	 snapshot_put_irq(FILE *, unsigned int, const char *, bool);
void	 snapshot_put_queue(FILE *, bool, const char *, unsigned int,
	    const char *, bool);
int	 snapshot_queue_read(const char *, struct cpuset *, const char *);

#endif
