/*
 * The table printer: the -o list (names, any case, comma-separated; a
 * leading + adds them to the default ones), the order of -s, and each
 * row as cells as wide as their column, the last left-aligned one not
 * padded, or as a JSON object whose members' types the column kinds say.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/columns.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

void
table_init(struct table *t, const struct columns *cols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->sel = xcalloc(cols->max, sizeof(*t->sel));
	t->sort = -1;
}

/* The column named by len bytes at p, any case; -1 for none. */
static int
column_named(const struct columns *cols, const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < cols->n; i++)
		if (strlen(cols->v[i].name) == len &&
		    strncasecmp(p, cols->v[i].name, len) == 0)
			return i;
	return -1;
}

static int
unknown(struct perr *pe, const char *p, size_t len)
{
	char name[TOKBUF];

	return perr_set(pe, EINVAL, "unknown column \"%s\"",
	    perr_quote(name, sizeof(name), p, len));
}

/*
 * -o: appends the columns arg names to those chosen. 0, or -EINVAL with
 * the sentence in pe.
 */
int
table_columns(struct table *t, const char *arg, struct perr *pe)
{
	const char *p, *end;
	size_t i;
	int col;

	if (*arg == '+') {
		arg++;
		for (i = 0; i < t->cols->ndflt && t->nsel < t->cols->max; i++)
			t->sel[t->nsel++] = t->cols->dflt[i];
	}
	for (p = arg; ; p = end + 1) {
		end = p + strcspn(p, ",");
		if ((col = column_named(t->cols, p, end - p)) < 0)
			return unknown(pe, p, end - p);
		if (t->nsel == t->cols->max)
			return perr_set(pe, EINVAL, "too many columns");
		t->sel[t->nsel++] = col;
		if (*end == '\0')
			return 0;
	}
}

/* -s: the one column arg names. 0, or -EINVAL with the sentence in pe. */
int
table_sort_by(struct table *t, const char *arg, struct perr *pe)
{
	int col;

	if ((col = column_named(t->cols, arg, strlen(arg))) < 0)
		return unknown(pe, arg, strlen(arg));
	t->sort = col;
	return 0;
}

/* One more column printed, if there is room. */
void
table_select(struct table *t, unsigned int col)
{
	if (t->nsel < t->cols->max)
		t->sel[t->nsel++] = col;
}

bool
table_has(const struct table *t, unsigned int col)
{
	size_t k;

	for (k = 0; k < t->nsel; k++)
		if (t->sel[k] == col)
			return true;
	return false;
}

/* A row: its cells stay the caller's, and must outlive the printing. */
void
table_add(struct table *t, long long id, char **cell)
{
	t->rows = xreallocarray(t->rows, t->nrows + 1, sizeof(*t->rows));
	t->rows[t->nrows].id = id;
	t->rows[t->nrows++].cell = cell;
}

void
table_clear(struct table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

void
table_free(struct table *t)
{
	table_clear(t);
	free(t->sel);
	t->sel = NULL;
}

/* The columns and what each shows, for --help. */
void
columns_help(FILE *fp, const struct columns *cols)
{
	size_t i, w = 0;

	for (i = 0; i < cols->n; i++)
		if (strlen(cols->v[i].name) > w)
			w = strlen(cols->v[i].name);
	for (i = 0; i < cols->n; i++)
		fprintf(fp, "  %-*s %s\n", (int)w + 1, cols->v[i].name,
		    cols->v[i].help);
}

/*
 * A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?; "007" or "-01" are not.
 */
static bool
json_number(const char *v)
{
	v += *v == '-';
	if (*v == '0')
		v++;
	else if (*v >= '1' && *v <= '9')
		v += strspn(v, "0123456789");
	else
		return false;
	if (*v == '.' && v[1] >= '0' && v[1] <= '9')
		v += 1 + strspn(v + 1, "0123456789");
	return *v == '\0';
}

/*
 * -s: counts (largest_first) largest first; any other column smallest
 * first, numbers as numbers; "-" last; then by id.
 */
static int
cmprows(const void *a, const void *b, void *arg)
{
	const struct table *t = arg;
	const struct column *col = &t->cols->v[t->sort];
	const struct table_row *x = a, *y = b;
	const char *u = x->cell[t->sort], *v = y->cell[t->sort];
	double du, dv;
	int c = 0;

	u = u != NULL && *u == '\0' ? NULL : u;	/* an empty set: "-" */
	v = v != NULL && *v == '\0' ? NULL : v;
	if (u == NULL || v == NULL)
		c = (u == NULL) - (v == NULL);
	else if (col->kind == COL_NUMBER && json_number(u) &&
	    json_number(v)) {
		du = strtod(u, NULL);
		dv = strtod(v, NULL);
		c = (du > dv) - (du < dv);
		if (col->largest_first)
			c = -c;
	} else
		c = strcmp(u, v);
	return c != 0 ? c : (x->id > y->id) - (x->id < y->id);
}

/* A set cell with -m: its mask; NULL when it is none or not a list. */
static char *
cell_mask(const struct table *t, const struct column *c, const char *v)
{
	struct cpuset *set;
	char *mask = NULL;

	if (v == NULL || *v == '\0' || !t->masks || c->kind != COL_CPUS)
		return NULL;
	set = xcpuset(t->m->nbits);
	if (cpulist_parse(set, v, NULL) == 0)
		mask = xformat(set, true);
	cpuset_free(set);
	return mask;
}

/*
 * A cell as the table shows it: "-" for unknown or an empty set, and
 * names from the system only as vis(3) escapes.
 */
static char *
cell_text(const struct table *t, const struct table_row *r, size_t k)
{
	const struct column *c = &t->cols->v[t->sel[k]];
	const char *v = r->cell[t->sel[k]];
	char *mask;

	if ((mask = cell_mask(t, c, v)) != NULL)
		return mask;
	return xescaped(v == NULL || *v == '\0' ? "-" : v);
}

/* One cell, then a blank or, after the last, a newline. */
static void
put_cell(const struct column *c, size_t width, const char *v, bool last)
{
	if (c->kind == COL_NUMBER)
		printf("%*s", (int)width, v);
	else
		printf("%-*s", last ? 0 : (int)width, v);
	putchar(last ? '\n' : ' ');
}

static void
print_text(const struct table *t)
{
	const struct column *c;
	size_t *width, i, k, len;
	char *v;

	width = xcalloc(t->nsel, sizeof(*width));
	for (k = 0; k < t->nsel; k++) {
		c = &t->cols->v[t->sel[k]];
		width[k] = t->noheadings ? 0 : strlen(c->name);
		for (i = 0; i < t->nrows; i++) {
			v = cell_text(t, &t->rows[i], k);
			if ((len = strlen(v)) > width[k])
				width[k] = len;
			free(v);
		}
	}
	for (k = 0; !t->noheadings && k < t->nsel; k++)
		put_cell(&t->cols->v[t->sel[k]], width[k],
		    t->cols->v[t->sel[k]].name, k + 1 == t->nsel);
	for (i = 0; i < t->nrows; i++)
		for (k = 0; k < t->nsel; k++) {
			v = cell_text(t, &t->rows[i], k);
			put_cell(&t->cols->v[t->sel[k]], width[k], v,
			    k + 1 == t->nsel);
			free(v);
		}
	free(width);
}

/* ","-joined words as a JSON array of strings. */
static void
json_words(const char *v)
{
	const char *p, *end;
	char *word;

	putchar('[');
	for (p = v; ; p = end + 1) {
		end = p + strcspn(p, ",");
		word = xstrndup(p, end - p);
		if (p != v)
			putchar(',');
		text_json_string(stdout, word);
		free(word);
		if (*end == '\0')
			break;
	}
	putchar(']');
}

/*
 * A cell as its kind has it in JSON: each key one type, so a number or
 * yes/no that is not one (a node file of "1-2") is not known, null.
 */
static void
json_value(const struct table *t, const struct column *c, const char *v)
{
	char *mask;

	if (c->kind == COL_BOOL && v != NULL &&
	    (strcmp(v, "yes") == 0 || strcmp(v, "no") == 0))
		fputs(*v == 'y' ? "true" : "false", stdout);
	else if (c->kind == COL_NUMBER && v != NULL && json_number(v))
		fputs(v, stdout);
	else if (v == NULL || c->kind == COL_BOOL || c->kind == COL_NUMBER)
		fputs("null", stdout);
	else if (c->kind == COL_WORDS)
		json_words(v);
	else if ((mask = cell_mask(t, c, v)) != NULL) {
		text_json_string(stdout, mask);
		free(mask);
	} else
		text_json_string(stdout, v);
}

/* A set also as the array of its CPUs, and of their nodes if it says. */
static void
json_cells(const struct table *t, const struct table_row *r)
{
	const struct column *c;
	const char *v;
	size_t k;

	for (k = 0; k < t->nsel; k++) {
		c = &t->cols->v[t->sel[k]];
		v = r->cell[t->sel[k]];
		printf("%s\"%s\":", k ? "," : "", c->key);
		if (c->json != NULL) {
			c->json(stdout, t->arg, r->id);
			continue;
		}
		json_value(t, c, v);
		if (c->kind != COL_CPUS)
			continue;
		printf(",\"%s_cpus\":", c->key);
		columns_json_cpus(stdout, v, t->m->nbits);
		if (c->nodes) {
			printf(",\"%s_nodes\":", c->key);
			columns_json_nodes(stdout, v, t->m);
		}
	}
}

/* One object a line: JSON Lines when sampled, each with its time. */
static void
print_json(const struct table *t, const char *stamp, double interval)
{
	size_t i;

	putchar('{');
	if (stamp != NULL)
		printf("\"time\":\"%s\",\"interval\":%.3f,", stamp, interval);
	printf("\"%s\":[", t->cols->what);
	for (i = 0; i < t->nrows; i++) {
		printf("%s{", i ? "," : "");
		json_cells(t, &t->rows[i]);
		putchar('}');
	}
	printf("]}\n");
}

/*
 * The rows, sorted if asked, as a table or as JSON; a sample's JSON has
 * its time (stamp, not NULL) and length.
 */
void
table_print(struct table *t, const char *stamp, double interval)
{
	if (t->sort >= 0 && t->nrows > 1)
		qsort_r(t->rows, t->nrows, sizeof(*t->rows), cmprows, t);
	if (t->json)
		print_json(t, stamp, interval);
	else
		print_text(t);
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
