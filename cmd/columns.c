/*
 * The columns of a table: the -o list (names, any case, comma-separated;
 * a leading + adds them to the default ones) and the cells, each as wide
 * as its column, the last left-aligned one not padded.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "cmd/columns.h"
#include "lib/text.h"
#include "parse.h"

/*
 * Appends the columns arg names to sel (*nsel of them already, room for
 * max). 0, or -EINVAL with the sentence in pe.
 */
int
columns_parse(const struct column *cols, size_t ncols,
    const unsigned int *dflt, size_t ndflt, const char *arg,
    unsigned int *sel, size_t *nsel, size_t max, struct perr *pe)
{
	const char *p, *end;
	char name[TOKBUF];
	size_t i, len;

	if (*arg == '+') {
		arg++;
		for (i = 0; i < ndflt && *nsel < max; i++)
			sel[(*nsel)++] = dflt[i];
	}
	for (p = arg; ; p = end + 1) {
		end = p + strcspn(p, ",");
		len = end - p;
		for (i = 0; i < ncols; i++)
			if (strlen(cols[i].name) == len &&
			    strncasecmp(p, cols[i].name, len) == 0)
				break;
		if (i == ncols)
			return perr_set(pe, EINVAL,
			    "unknown column \"%s\"",
			    perr_quote(name, sizeof(name), p, len));
		if (*nsel == max)
			return perr_set(pe, EINVAL, "too many columns");
		sel[(*nsel)++] = i;
		if (*end == '\0')
			return 0;
	}
}

/* The columns and what each shows, for --help. */
void
columns_help(FILE *fp, const struct column *cols, size_t ncols)
{
	size_t i, w = 0;

	for (i = 0; i < ncols; i++)
		if (strlen(cols[i].name) > w)
			w = strlen(cols[i].name);
	for (i = 0; i < ncols; i++)
		fprintf(fp, "  %-*s %s\n", (int)w + 1, cols[i].name,
		    cols[i].help);
}

/* One cell, then a blank or, after the last, a newline. */
void
columns_cell(FILE *fp, const struct column *c, size_t width, const char *v,
    bool last)
{
	if (c->right)
		fprintf(fp, "%*s", (int)width, v);
	else
		fprintf(fp, "%-*s", last ? 0 : (int)width, v);
	putc(last ? '\n' : ' ', fp);
}
