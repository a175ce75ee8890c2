/*
 * The columns of a table: the -o list (names, any case, comma-separated;
 * a leading + adds them to the default ones) and the cells, each as wide
 * as its column, the last left-aligned one not padded.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "cmd/columns.h"
#include "core/machine.h"
#include "core/xalloc.h"
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

/* A kernel list as a set of nbits CPUs; NULL when there is none. */
static struct cpuset *
list_set(const char *list, unsigned int nbits)
{
	struct cpuset *set;
	struct perr pe;

	if (list == NULL)
		return NULL;
	set = xcpuset(nbits);
	if (cpulist_parse(set, list, &pe) != 0) {
		cpuset_free(set);
		return NULL;
	}
	return set;
}

/*
 * A kernel list ("0-3,8") as a JSON array of its CPU numbers, so that a
 * script needs no list expander; null when there is no list.
 */
void
columns_json_cpus(FILE *fp, const char *list, unsigned int nbits)
{
	struct cpuset *set;
	int c;

	if ((set = list_set(list, nbits)) == NULL) {
		fputs("null", fp);
		return;
	}
	fputc('[', fp);
	for (c = cpuset_first(set); c >= 0; c = cpuset_next(set, c + 1))
		fprintf(fp, "%s%d", c == cpuset_first(set) ? "" : ",", c);
	fputc(']', fp);
	cpuset_free(set);
}

/* The NUMA nodes of a kernel list's CPUs, as a JSON array; else null. */
void
columns_json_nodes(FILE *fp, const char *list, struct machine *m)
{
	struct cpuset *set;
	const struct cpuset *cpus;
	size_t i, n = 0;

	if ((set = list_set(list, m->nbits)) == NULL) {
		fputs("null", fp);
		return;
	}
	fputc('[', fp);
	for (i = 0; i < machine_nnodes(m); i++) {
		cpus = m->nodes[i].cpus;
		if (cpuset_intersects(cpus, set))
			fprintf(fp, "%s%d", n++ ? "," : "", m->nodes[i].id);
	}
	fputc(']', fp);
	cpuset_free(set);
}
