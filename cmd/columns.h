/*
 * The columns of a table as util-linux prints it: which a user asks for
 * with -o, and each cell aligned under its header. No I/O but the stream
 * given.
 */
#ifndef IRQAFF_COLUMNS_H
#define IRQAFF_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct machine;
struct perr;

/* What a column's cells hold, which says how JSON and -m print them. */
enum colkind {
	COL_STRING,
	COL_NUMBER,	/* a JSON number when it reads as one */
	COL_BOOL,	/* "yes" and "no" are JSON's true and false */
	COL_CPUS,	/* a CPU list, a mask with -m */
};

struct column {
	const char	*name;		/* the header, and its name for -o */
	const char	*key;		/* its member in JSON */
	enum colkind	 kind;
	bool		 right;		/* aligned right */
	const char	*help;
};

int	 columns_parse(const struct column *, size_t, const unsigned int *,
	    size_t, const char *, unsigned int *, size_t *, size_t,
	    struct perr *);
void	 columns_help(FILE *, const struct column *, size_t);
void	 columns_cell(FILE *, const struct column *, size_t, const char *,
	    bool);
void	 columns_json_cpus(FILE *, const char *, unsigned int);
void	 columns_json_nodes(FILE *, const char *, struct machine *);

#endif
