/*
 * The one table printer of show, cpus and queues, as util-linux prints
 * one: the columns a user asks for with -o, rows sorted by a column, a
 * header and aligned cells for people, or JSON made from what the
 * columns hold. No I/O but standard output and the stream given.
 */
#ifndef IRQAFF_COLUMNS_H
#define IRQAFF_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct machine;
struct perr;

/* What a column's cells hold: it says how they align and what JSON is. */
enum colkind {
	COL_STRING,
	COL_NUMBER,	/* aligned right; a JSON number when one, else null */
	COL_BOOL,	/* "yes" and "no": JSON's true and false, else null */
	COL_CPUS,	/* a CPU list, a mask with -m; JSON adds KEY_cpus */
	COL_WORDS,	/* ","-joined words: a JSON array of strings */
};

struct column {
	const char	*name;		/* the header, and its name for -o */
	const char	*key;		/* its member in JSON */
	enum colkind	 kind;
	bool		 nodes;		/* COL_CPUS: JSON adds KEY_nodes */
	bool		 largest_first;	/* -s: a count, the largest first */
	const char	*help;
	/* JSON of its own for a row (its id), not the cell's */
	void		(*json)(FILE *, const void *, long long);
};

/* A command's columns: what -o may name, and what +LIST adds to. */
struct columns {
	const struct column	*v;	/* by column number */
	size_t			 n;
	const unsigned int	*dflt;
	size_t			 ndflt;
	size_t			 max;	/* columns one table may print */
	const char		*what;	/* the rows' member in JSON */
};

/* A row: its cells by column number, NULL unknown and "" an empty set. */
struct table_row {
	long long	 id;		/* orders rows a sort finds equal */
	char		**cell;		/* the caller's */
};

struct table {
	const struct columns *cols;
	unsigned int	*sel;		/* the columns printed, in order */
	size_t		 nsel;
	int		 sort;		/* a column, or -1: as added */
	bool		 json, noheadings, masks;
	struct machine	*m;		/* its CPUs and nodes, for sets */
	const void	*arg;		/* for the columns' own JSON */
	struct table_row *rows;
	size_t		 nrows;
};

void	 table_init(struct table *, const struct columns *);
int	 table_columns(struct table *, const char *, struct perr *);
int	 table_sort_by(struct table *, const char *, struct perr *);
void	 table_select(struct table *, unsigned int);
bool	 table_has(const struct table *, unsigned int);
void	 table_add(struct table *, long long, char **);
void	 table_print(struct table *, const char *, double);
void	 table_clear(struct table *);
void	 table_free(struct table *);

void	 columns_help(FILE *, const struct columns *);
void	 columns_json_cpus(FILE *, const char *, unsigned int);
void	 columns_json_nodes(FILE *, const char *, struct machine *);

#endif
