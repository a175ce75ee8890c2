/*
 * One line of a snapshot file, the text save writes and restore and
 * check read (the grammar is in snapline.c). No I/O but the stream
 * given, no printing.
 */
#ifndef IRQAFF_SNAPLINE_H
#define IRQAFF_SNAPLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct perr;

enum snap_kind {
	SNAP_NONE, SNAP_DEFAULT, SNAP_IRQ, SNAP_PATTERN, SNAP_XPS, SNAP_RPS,
	SNAP_PLAN
};

/* What a line says; every pointer is owned by the struct. */
struct snapline {
	enum snap_kind	 kind;		/* SNAP_NONE: blank or comment */
	bool		 optional;	/* "?": may match no IRQ or queue */
	unsigned int	 irq;		/* SNAP_IRQ */
	char		*pattern;	/* SNAP_PATTERN */
	char		*dev;		/* SNAP_XPS, SNAP_RPS: interface */
	unsigned int	 queue;		/* and its tx-N or rx-N */
	char		*cpus;		/* the CPU set, as written */
	char		*isolated;	/* SNAP_PLAN: "isolated CPUS", or NULL */
	char		**names;	/* SNAP_IRQ: sorted, no repeats */
	size_t		 nnames;
};

int	 snapline_parse(const char *, size_t, struct snapline *,
	    struct perr *);
void	 snapline_free(struct snapline *);
void	 snapline_quote(FILE *, const char *);
void	 snapline_format(FILE *, const struct snapline *);

#endif
