/*
 * The one reader of /proc/interrupts (kernel/irq/proc.c,
 * show_interrupts()): a pass row by row, each row parsed only when asked,
 * and the counts of a pass kept for the differences of the next.
 */
#ifndef IRQAFF_COUNTS_H
#define IRQAFF_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "procfs.h"

struct irqrow;

/* counts_open() flags */
enum {
	COUNTS_CPUS = 1,	/* the header must name possible CPUs: cpu */
	COUNTS_EACH = 2,	/* each count of a row, in v */
	COUNTS_TOTAL = 4,	/* the sum of a row's counts */
	COUNTS_QUIET = 8,	/* say nothing; return -errno */
	COUNTS_FIELDS = 16,	/* with EACH: v only without irqrow.fields */
	COUNTS_NAMED = 32,	/* counts_next() also finds NMI:, LOC: rows */
};

/* One pass; cpu and v are owned. */
struct counts {
	struct lines		 l;
	const char		*from;	/* a saved copy, or NULL: the tree's */
	char			*line;
	size_t			 len;
	int			 flags;
	int			 rc;	/* of the last line read */
	bool			 named;	/* the row found is NMI:, LOC: ... */
	unsigned int		 nbits, ncols;
	unsigned int		*cpu;	/* by column: its CPU (COUNTS_CPUS) */
	int			*col;	/* by CPU: its column or -1 (same) */
	unsigned long long	*v;	/* the row's counts (COUNTS_EACH) */
};

/*
 * The counts of one pass kept for the next, by row (ascending IRQs), each
 * row packed (counts_keep()): 4 bytes a count at most, 1 for a count
 * that is its left neighbour's, give or take 63.
 */
struct counts_kept {
	unsigned int	*irq;
	unsigned int	*len;		/* the counts each row had */
	size_t		*at;		/* where each row starts in buf */
	unsigned char	*buf;
	size_t		 n, cap, used, room;
	uint32_t	*row;		/* the row counts_kept_row() unpacked */
	unsigned int	 nbits;
	int		*col;		/* by CPU: its column, or -1 */
};

const char	*counts_path(const char *);
int		 counts_open(struct counts *, const char *, unsigned int, int);
int		 counts_next(struct counts *, unsigned int *);
int		 counts_row(struct counts *, struct irqrow *);
bool		 counts_cpu_row(const struct counts *, const struct irqrow *);
int		 counts_cpu_label(const struct counts *, const struct irqrow *,
		    char **, size_t *, size_t);
int		 counts_close(struct counts *);

void		 counts_kept_begin(struct counts_kept *,
		    const struct counts *);
bool		 counts_keep(struct counts_kept *, const struct counts *,
		    const struct irqrow *);
/*
 * A kept row: its counts by column (until the next counts_kept_row()),
 * and how many it had.
 */
struct kept_row {
	const uint32_t	*v;
	unsigned int	 len;
};

bool		 counts_kept_row(struct counts_kept *, unsigned int,
		    struct kept_row *);
/* counts_diff() and counts_delta() */
enum {
	COUNTS_NONE,		/* no count in one of the two reads */
	COUNTS_COUNTED,		/* *d interrupts */
	COUNTS_RESET,		/* the count went down: no difference */
};

int		 counts_diff(uint32_t, uint32_t, uint32_t *);
int		 counts_delta(const struct counts_kept *,
		    const struct kept_row *, unsigned int, unsigned long long,
		    uint32_t *);
void		 counts_kept_free(struct counts_kept *);

#endif
