/*
 * save, restore and check: the affinity of every IRQ in a text file that
 * people edit and scripts write. The grammar, one entry a line:
 *
 *	file	= *( [ entry ] [ "#" comment ] NL )
 *	entry	= "default" SP cpus		default_smp_affinity
 *		| irq SP cpus *( SP name )	what save writes
 *		| pattern SP cpus		written by hand
 *	irq	= 1*DIGIT
 *	name	= string			an action name, exactly
 *	pattern	= word | string			fnmatch(3) on each action name
 *	cpus	= word				as for set: list, 0x mask, node:K
 *	word	= 1*( any byte but SP, TAB, NL, '"', '#' )
 *	string	= '"' *( any byte but '"', '\', NL | escape ) '"'
 *	escape	= '\\' | '\"' | '\n' | '\t' | '\' 1*3( octal digit )
 *	SP	= 1*( ' ' | TAB )
 *
 * A word that starts with a digit must be an IRQ number; a word "default"
 * is the keyword: quote such names. A # outside a string starts a comment.
 * save quotes every name and escapes '"', '\', and bytes below 0x20 and
 * 0x7f (as \ooo, or \n, \t); other bytes are copied as they are.
 *
 * Matching: an irq line with names is matched to the IRQ whose action
 * names are exactly those (in any order); when several lines name the
 * same set, as many IRQs must have it and they are paired in order of
 * number. With --by-number, or without names, the number is used; but
 * without --by-number, a line without names skips an IRQ that has names
 * (it had none when saved: its number may now be another device's). A
 * pattern line gives its CPUs to every IRQ it matches. When lines pick
 * the same IRQ, the last one wins.
 *
 * restore checks every line first (status 2, nothing written). A line
 * that picks no IRQ is reported and counts as a failed IRQ: status 3, or 1
 * when nothing else could be done. A set with no online CPU is only right
 * for an IRQ that has it already. check prints each difference, and
 * exits 0 when there is none, 1 when there is one.
 */
#include <err.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "irqaff.h"
#include "procfs.h"

#define DEFAULT_AFFINITY	"proc/irq/default_smp_affinity"

enum kind { K_DEFAULT, K_IRQ, K_PATTERN };

struct entry {
	size_t		 line;
	enum kind	 kind;
	unsigned int	 irq;
	char		*pattern;
	char		**names;	/* sorted */
	size_t		 nnames;
	char		*cpus;		/* as written */
	struct cpuset	*want;
	size_t		*hit;		/* indices into struct mirqs */
	size_t		 nhit;
};

struct snap {
	const char	*label;		/* the file, for messages */
	struct entry	*v;
	size_t		 n;
	const struct entry *dflt;	/* the last default line */
	bool		 by_number;
	bool		 check;		/* report to stdout, not stderr */
};

/* The IRQs of the machine, by number, with their action names. */
struct mirq {
	unsigned int	 irq;
	char		**names;
	size_t		 nnames;
	const struct entry *by;		/* the last line that picks it */
};

struct mirqs {
	struct mirq	*v;
	size_t		 n;
};

static void
lwarn(const struct snap *s, size_t line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warnx("%s:%zu: %s", s->label, line, msg);
}

/* A line that cannot be applied: on stdout for check, else a warning. */
static void
problem(const struct snap *s, const struct entry *e, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->check)
		printf("%s:%zu: %s\n", s->label, e->line, msg);
	else
		warnx("%s:%zu: %s", s->label, e->line, msg);
}

void
irqbalance_warn(void)
{
	if (procfs_proc_running("irqbalance") != 1)
		return;
	warnx("warning: irqbalance is running and may move these IRQs again; "
	    "keep it off them with IRQBALANCE_BANNED_CPULIST or its --banirq "
	    "option, or stop it (systemctl disable --now irqbalance)");
}

static char *
xstrdup(const char *s)
{
	char *t;

	if ((t = strdup(s)) == NULL)
		err(EXIT_FAIL, NULL);
	return t;
}

static char *
xlist(const struct cpuset *set)
{
	char *s;

	if ((s = cpulist_format(set)) == NULL)
		err(EXIT_FAIL, NULL);
	return s;
}

/* Names for a message: "a" "b" when strings, else a, b. */
static char *
names_text(char **names, size_t n, bool strings)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *fp;

	if ((fp = open_memstream(&text, &len)) == NULL)
		err(EXIT_FAIL, NULL);
	for (i = 0; i < n; i++)
		fprintf(fp, strings ? "%s\"%s\"" : "%s%s",
		    i == 0 ? "" : strings ? " " : ", ", quoted(names[i]));
	if (fclose(fp) != 0)
		err(EXIT_FAIL, NULL);
	return text;
}

static void
put_string(FILE *fp, const char *s)
{
	unsigned char c;

	putc('"', fp);
	for (; (c = *s) != '\0'; s++) {
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\%03o", c);
		else
			putc(c, fp);
	}
	putc('"', fp);
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmpnames(char **a, size_t na, char **b, size_t nb)
{
	size_t i;
	int r;

	for (i = 0; i < na && i < nb; i++)
		if ((r = strcmp(a[i], b[i])) != 0)
			return r;
	return (na > nb) - (na < nb);
}

/*
 * An IRQ's requested CPUs (smp_affinity_list, else smp_affinity), or with
 * irq UINT_MAX the default affinity. Returns 0, -ENOENT when allowed (an
 * IRQ that went away), or EXIT_FAIL after a warning.
 */
static int
affinity_of(unsigned int irq, struct cpuset *set, bool allow_enoent)
{
	struct perr pe;
	char rel[96], *buf;
	bool list = irq != UINT_MAX;
	int rc;

	if (irq == UINT_MAX)
		strlcpy(rel, DEFAULT_AFFINITY, sizeof(rel));
	else
		snprintf(rel, sizeof(rel), "proc/irq/%u/smp_affinity_list",
		    irq);
	if ((rc = procfs_read(rel, &buf)) == -ENOENT && list) {
		snprintf(rel, sizeof(rel), "proc/irq/%u/smp_affinity", irq);
		list = false;
		if ((rc = procfs_read(rel, &buf)) == -ENOENT &&
		    allow_enoent)
			return rc;
	}
	if (rc != 0) {
		warnc(-rc, "%s", procfs_path(rel));
		return EXIT_FAIL;
	}
	rc = list ? cpulist_parse(set, buf, &pe) : cpumask_parse(set, buf, &pe);
	free(buf);
	if (rc != 0) {
		warnx("%s: %s", procfs_path(rel), pe.msg);
		return EXIT_FAIL;
	}
	return 0;
}

static int
action_names(unsigned int irq, char ***names, size_t *n)
{
	char rel[64];
	int rc;

	snprintf(rel, sizeof(rel), "proc/irq/%u", irq);
	if ((rc = procfs_dir(rel, true, names, n)) != 0) {
		*names = NULL;
		*n = 0;
	}
	return rc;
}

static const struct option save_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* The snapshot is made in memory first, then written: all or nothing. */
int
save_main(int argc, char *argv[])
{
	struct machine m;
	struct cpuset *set;
	unsigned int *irqs = NULL;
	const char *out = NULL;
	char **names, *text = NULL, *list;
	size_t nirqs = 0, nnames, i, k, len = 0;
	FILE *fp;
	int ch, rc, status;

	while ((ch = getopts(argc, argv, "o:", save_opts)) != -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		}
	}
	if (argc - optind != 0) {
		warnx("%s: unexpected argument %s", argv[0],
		    quoted(argv[optind]));
		usage(stderr, argv[0]);
		return EXIT_USAGE;
	}
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	set = xcpuset(m.nbits);
	if ((fp = open_memstream(&text, &len)) == NULL)
		err(EXIT_FAIL, NULL);
	fprintf(fp, "# irqaff snapshot, %u CPUs\n"
	    "# IRQ CPUS \"NAME\"...; see SNAPSHOT FILES in irqaff(8)\n",
	    m.nbits);
	if ((status = affinity_of(UINT_MAX, set, false)) == EXIT_OK) {
		list = xlist(set);
		fprintf(fp, "default %s\n", list);
		free(list);
		if ((rc = procfs_numbers("proc/irq", &irqs, &nirqs)) != 0) {
			warnc(-rc, "%s", procfs_path("proc/irq"));
			status = EXIT_FAIL;
		}
	}
	for (i = 0; status == EXIT_OK && i < nirqs; i++) {
		if ((rc = affinity_of(irqs[i], set, true)) == -ENOENT)
			continue;
		if ((status = rc) != EXIT_OK)
			break;
		list = xlist(set);
		if (*list == '\0')
			fprintf(fp, "# %u has no CPUs:", irqs[i]);
		else
			fprintf(fp, "%u %s", irqs[i], list);
		free(list);
		action_names(irqs[i], &names, &nnames);
		for (k = 0; k < nnames; k++) {
			putc(' ', fp);
			put_string(fp, names[k]);
		}
		procfs_dir_free(names, nnames);
		putc('\n', fp);
	}
	free(irqs);
	if (fclose(fp) != 0)
		err(EXIT_FAIL, NULL);
	if (status == EXIT_OK && out != NULL && strcmp(out, "-") != 0) {
		if ((rc = file_replace(out, text, len)) != 0) {
			warnc(-rc, "%s", out);
			status = EXIT_FAIL;
		}
	} else if (status == EXIT_OK && (fwrite(text, 1, len, stdout) != len ||
	    fflush(stdout) != 0)) {
		warn("standard output");
		status = EXIT_FAIL;
	}
	free(text);
	cpuset_free(set);
	machine_free(&m);
	return status;
}

struct token {
	char	*s;
	bool	 string;	/* quoted: never a number or keyword */
};

/* Decodes one string in place; p is past its opening quote. */
static char *
decode(const struct snap *s, size_t lineno, char **pp)
{
	char *p = *pp, *out = p, *start = p;
	int k, v;

	while (*p != '"') {
		if (*p == '\0' || (*p == '\\' && p[1] == '\0')) {
			lwarn(s, lineno, "a string has no closing quote");
			return NULL;
		}
		if (*p != '\\') {
			*out++ = *p++;
			continue;
		}
		p++;
		if (*p == '\\' || *p == '"')
			*out++ = *p++;
		else if (*p == 'n' || *p == 't') {
			*out++ = *p == 'n' ? '\n' : '\t';
			p++;
		} else {
			for (k = v = 0; k < 3 && *p >= '0' && *p <= '7'; k++)
				v = v * 8 + *p++ - '0';
			if (k == 0) {
				lwarn(s, lineno, "unknown escape \"\\%s\" in a "
				    "string", quoted((char[]){ *p, '\0' }));
				return NULL;
			}
			if (v == 0 || v > 255) {
				lwarn(s, lineno, "escape \"\\%.*s\" is not a "
				    "byte from \\001 to \\377", k, p - k);
				return NULL;
			}
			*out++ = v;
		}
	}
	p++;
	if (*p != '\0' && *p != ' ' && *p != '\t' && *p != '#') {
		lwarn(s, lineno, "no space after the closing quote");
		return NULL;
	}
	*out = '\0';
	*pp = p;
	return start;
}

/* Splits a line into words and strings, up to a comment. */
static int
tokenize(const struct snap *s, size_t lineno, char *p, struct token **tp,
    size_t *np)
{
	struct token *t = NULL, *tmp;
	size_t n = 0;
	char *start;
	int c;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			break;
		if ((tmp = reallocarray(t, n + 1, sizeof(*t))) == NULL)
			err(EXIT_FAIL, NULL);
		t = tmp;
		if (*p == '"') {
			p++;
			if ((t[n].s = decode(s, lineno, &p)) == NULL) {
				free(t);
				return -1;
			}
			t[n++].string = true;
			continue;
		}
		start = p;
		p += strcspn(p, " \t\"#");
		if (*p == '"') {
			*p = '\0';
			lwarn(s, lineno, "a quote right after \"%s\"; "
			    "put a space before the string", quoted(start));
			free(t);
			return -1;
		}
		c = *p;
		*p = '\0';
		t[n].s = start;
		t[n++].string = false;
		if (c == '#')
			break;
		if (c != '\0')
			p++;
	}
	*tp = t;
	*np = n;
	return 0;
}

/*
 * A line's CPU set at the machine's width. Offline CPUs are allowed here:
 * whether the set can be written is known only for the IRQ it goes to.
 */
static struct cpuset *
line_cpus(const struct snap *s, struct machine *m, size_t lineno,
    const char *arg)
{
	struct cpuset *set = xcpuset(m->nbits);
	struct perr pe;
	int rc;

	if (strncasecmp(arg, "0x", 2) == 0)
		rc = cpumask_parse(set, arg, &pe);
	else
		rc = cpus_nodes(m, arg, set, &pe);
	if (rc == 0 && cpuset_empty(set))
		snprintf(pe.msg, sizeof(pe.msg), "selects no CPU");
	if (rc != 0 || cpuset_empty(set)) {
		lwarn(s, lineno, "CPU %s \"%s\": %s",
		    strncasecmp(arg, "0x", 2) == 0 ? "mask" : "list",
		    quoted(arg), pe.msg);
		cpuset_free(set);
		return NULL;
	}
	return set;
}

static int
parse_entry(const struct snap *s, struct machine *m, size_t lineno,
    struct token *t, size_t n, struct entry *e)
{
	const char *errstr;
	size_t i, max = 2;

	memset(e, 0, sizeof(*e));
	e->line = lineno;
	if (!t[0].string && strcmp(t[0].s, "default") == 0)
		e->kind = K_DEFAULT;
	else if (!t[0].string && t[0].s[0] >= '0' && t[0].s[0] <= '9') {
		e->kind = K_IRQ;
		e->irq = strtonum(t[0].s, 0, INT_MAX, &errstr);
		if (errstr != NULL ||
		    strspn(t[0].s, "0123456789") != strlen(t[0].s)) {
			lwarn(s, lineno, "\"%s\" is not an IRQ number (a name "
			    "that starts with a digit needs quotes)",
			    quoted(t[0].s));
			return -1;
		}
		max = SIZE_MAX;
	} else if (*t[0].s == '\0') {
		lwarn(s, lineno, "an empty pattern");
		return -1;
	} else
		e->kind = K_PATTERN;
	if (n < 2) {
		lwarn(s, lineno, "no CPU set after \"%s\"", quoted(t[0].s));
		return -1;
	}
	if (t[1].string) {
		lwarn(s, lineno, "the CPU set \"%s\" is quoted", quoted(t[1].s));
		return -1;
	}
	if (n > max) {
		lwarn(s, lineno, "\"%s\" after the CPU set; only IRQ numbers "
		    "take names", quoted(t[2].s));
		return -1;
	}
	for (i = 2; i < n; i++)
		if (*t[i].s == '\0') {
			lwarn(s, lineno, "an empty name");
			return -1;
		}
	if ((e->want = line_cpus(s, m, lineno, t[1].s)) == NULL)
		return -1;
	e->cpus = xstrdup(t[1].s);
	if (e->kind == K_PATTERN)
		e->pattern = xstrdup(t[0].s);
	if (n > 2 && (e->names = calloc(n - 2, sizeof(*e->names))) == NULL)
		err(EXIT_FAIL, NULL);
	for (i = 2; i < n; i++)
		e->names[e->nnames++] = xstrdup(t[i].s);
	if (e->nnames > 1)
		qsort(e->names, e->nnames, sizeof(*e->names), cmpstr);
	for (i = 1; i < e->nnames; i++)
		if (strcmp(e->names[i - 1], e->names[i]) == 0) {
			lwarn(s, lineno, "\"%s\" is named twice",
			    quoted(e->names[i]));
			return -1;
		}
	return 0;
}

static void
entry_free(struct entry *e)
{
	size_t i;

	for (i = 0; i < e->nnames; i++)
		free(e->names[i]);
	free(e->names);
	free(e->pattern);
	free(e->cpus);
	free(e->hit);
	cpuset_free(e->want);
}

static void
snap_free(struct snap *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		entry_free(&s->v[i]);
	free(s->v);
}

/*
 * Reads and checks the whole file. Returns an exit status: 1 when it
 * cannot be read, 2 when a line is wrong (every such line reported).
 */
static int
snap_read(struct snap *s, struct machine *m, const char *path)
{
	struct entry e, *tmp;
	struct token *t;
	size_t cap = 0, lineno = 0, n;
	ssize_t len;
	char *line = NULL;
	FILE *fp;
	int bad = 0, status = EXIT_OK;

	s->label = strcmp(path, "-") == 0 ? "standard input" : path;
	if ((fp = file_open(path)) == NULL) {
		warn("%s", path);
		return EXIT_FAIL;
	}
	while ((len = getline(&line, &cap, fp)) != -1) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			lwarn(s, lineno, "a NUL byte");
			bad++;
			continue;
		}
		if (tokenize(s, lineno, line, &t, &n) != 0) {
			bad++;
			continue;
		}
		if (n > 0 && parse_entry(s, m, lineno, t, n, &e) != 0) {
			entry_free(&e);
			bad++;
		} else if (n > 0) {
			if ((tmp = reallocarray(s->v, s->n + 1,
			    sizeof(*s->v))) == NULL)
				err(EXIT_FAIL, NULL);
			s->v = tmp;
			s->v[s->n++] = e;
		}
		free(t);
	}
	if (ferror(fp)) {
		warn("%s", s->label);
		status = EXIT_FAIL;
	} else if (bad > 0)
		status = EXIT_USAGE;
	free(line);
	if (fp != stdin)
		fclose(fp);
	return status;
}

static int
mirqs_load(struct mirqs *mi)
{
	unsigned int *nums;
	size_t n, i;
	int rc;

	if ((rc = procfs_numbers("proc/irq", &nums, &n)) != 0) {
		warnc(-rc, "%s", procfs_path("proc/irq"));
		return EXIT_FAIL;
	}
	if ((mi->v = calloc(n + 1, sizeof(*mi->v))) == NULL)
		err(EXIT_FAIL, NULL);
	mi->n = n;
	for (i = 0; i < n; i++) {
		mi->v[i].irq = nums[i];
		action_names(nums[i], &mi->v[i].names, &mi->v[i].nnames);
	}
	free(nums);
	return EXIT_OK;
}

static void
mirqs_free(struct mirqs *mi)
{
	size_t i;

	for (i = 0; i < mi->n; i++)
		procfs_dir_free(mi->v[i].names, mi->v[i].nnames);
	free(mi->v);
}

static bool
find_irq(const struct mirqs *mi, unsigned int irq, size_t *at)
{
	size_t lo = 0, hi = mi->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (mi->v[mid].irq == irq) {
			*at = mid;
			return true;
		}
		if (mi->v[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static void
add_hit(struct entry *e, size_t at)
{
	size_t *tmp;

	if ((tmp = reallocarray(e->hit, e->nhit + 1, sizeof(*tmp))) == NULL)
		err(EXIT_FAIL, NULL);
	e->hit = tmp;
	e->hit[e->nhit++] = at;
}

static int
cmpentry(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a;
	const struct entry *y = *(const struct entry *const *)b;
	int r;

	if ((r = cmpnames(x->names, x->nnames, y->names, y->nnames)) != 0)
		return r;
	if (x->irq != y->irq)
		return (x->irq > y->irq) - (x->irq < y->irq);
	return (x->line > y->line) - (x->line < y->line);
}

static int
cmpmirq(const void *a, const void *b)
{
	const struct mirq *x = *(const struct mirq *const *)a;
	const struct mirq *y = *(const struct mirq *const *)b;
	int r;

	if ((r = cmpnames(x->names, x->nnames, y->names, y->nnames)) != 0)
		return r;
	return (x->irq > y->irq) - (x->irq < y->irq);
}

static void
pattern_hits(const struct mirqs *mi, struct entry *e)
{
	size_t i, k;

	for (i = 0; i < mi->n; i++)
		for (k = 0; k < mi->v[i].nnames; k++)
			if (fnmatch(e->pattern, mi->v[i].names[k], 0) == 0) {
				add_hit(e, i);
				break;
			}
}

static size_t
number_hit(const struct snap *s, const struct mirqs *mi, struct entry *e)
{
	const struct mirq *q;
	size_t at;
	char *now;

	if (!find_irq(mi, e->irq, &at)) {
		problem(s, e, "IRQ %u does not exist", e->irq);
		return 1;
	}
	q = &mi->v[at];
	if (e->nnames == 0 && !s->by_number && q->nnames > 0) {
		now = names_text(q->names, q->nnames, true);
		problem(s, e, "IRQ %u has no name in the snapshot but is %s "
		    "here; give its name or use --by-number", e->irq, now);
		free(now);
		return 1;
	}
	add_hit(e, at);
	return 0;
}

/*
 * Lines with the same names and the IRQs with those names, each sorted
 * by number, are paired when there are as many of one as of the other.
 */
static size_t
name_hits(const struct snap *s, struct mirqs *mi, struct entry **ents,
    size_t ne)
{
	struct mirq **q;
	size_t nq = 0, i, j = 0, gi, gj, k, problems = 0;
	char *text;

	if ((q = calloc(mi->n + 1, sizeof(*q))) == NULL)
		err(EXIT_FAIL, NULL);
	for (i = 0; i < mi->n; i++)
		if (mi->v[i].nnames > 0)
			q[nq++] = &mi->v[i];
	qsort(ents, ne, sizeof(*ents), cmpentry);
	qsort(q, nq, sizeof(*q), cmpmirq);
	for (i = 0; i < ne; i = gi) {
		for (gi = i + 1; gi < ne && cmpnames(ents[i]->names,
		    ents[i]->nnames, ents[gi]->names, ents[gi]->nnames) == 0;
		    gi++)
			;
		while (j < nq && cmpnames(q[j]->names, q[j]->nnames,
		    ents[i]->names, ents[i]->nnames) < 0)
			j++;
		for (gj = j; gj < nq && cmpnames(q[gj]->names, q[gj]->nnames,
		    ents[i]->names, ents[i]->nnames) == 0; gj++)
			;
		if (gj - j == gi - i) {
			for (k = 0; k < gi - i; k++)
				add_hit(ents[i + k], q[j + k] - mi->v);
			j = gj;
			continue;
		}
		text = names_text(ents[i]->names, ents[i]->nnames, true);
		for (k = i; k < gi; k++)
			if (gj == j)
				problem(s, ents[k], "%s matches no IRQ", text);
			else if (gi - i == 1)
				problem(s, ents[k], "%s matches %zu IRQs",
				    text, gj - j);
			else
				problem(s, ents[k], "%s matches %zu IRQs, "
				    "not the %zu of the snapshot", text,
				    gj - j, gi - i);
		free(text);
		problems += gi - i;
		j = gj;
	}
	free(q);
	return problems;
}

/*
 * Finds the IRQs each line picks, and for each IRQ the last line that
 * picks it. Returns how many lines pick none, each reported.
 */
static size_t
resolve(struct snap *s, struct mirqs *mi)
{
	struct entry **ents, *e;
	size_t i, k, ne = 0, problems = 0;

	if ((ents = calloc(s->n + 1, sizeof(*ents))) == NULL)
		err(EXIT_FAIL, NULL);
	for (i = 0; i < s->n; i++) {
		e = &s->v[i];
		switch (e->kind) {
		case K_DEFAULT:
			break;
		case K_PATTERN:
			pattern_hits(mi, e);
			if (e->nhit == 0) {
				problem(s, e, "\"%s\" matches no IRQ",
				    quoted(e->pattern));
				problems++;
			}
			break;
		case K_IRQ:
			if (e->nnames > 0 && !s->by_number)
				ents[ne++] = e;
			else
				problems += number_hit(s, mi, e);
			break;
		}
	}
	problems += name_hits(s, mi, ents, ne);
	free(ents);
	for (i = 0; i < s->n; i++) {
		e = &s->v[i];
		if (e->kind == K_DEFAULT)
			s->dflt = e;
		for (k = 0; k < e->nhit; k++)
			mi->v[e->hit[k]].by = e;
	}
	return problems;
}

/*
 * A set with no online CPU cannot be written: the kernel would choose
 * CPUs itself. It is only right for an IRQ that has it already, as the
 * managed IRQs of offline CPUs do.
 */
static int
offline_only(const struct snap *s, struct machine *m, const char *label,
    unsigned int irq, const struct entry *e, int flags)
{
	struct cpuset *cur = xcpuset(m->nbits);
	char *list;
	int rc;

	if ((rc = affinity_of(irq, cur, false)) == EXIT_OK &&
	    cpuset_equal(cur, e->want)) {
		if (flags & APPLY_VERBOSE) {
			list = xlist(cur);
			printf("%s: %s unchanged\n", label, list);
			free(list);
		}
	} else if (rc == EXIT_OK) {
		lwarn(s, e->line, "%s: CPU %s \"%s\": selects no online CPU",
		    label, strncasecmp(e->cpus, "0x", 2) == 0 ? "mask" : "list",
		    quoted(e->cpus));
		rc = EXIT_FAIL;
	}
	cpuset_free(cur);
	return rc;
}

/* Offline CPUs in the sets to be written, one note for them all. */
static void
offline_note(struct machine *m, const struct snap *s, const struct mirqs *mi)
{
	struct cpuset *off = xcpuset(m->nbits), *t = xcpuset(m->nbits);
	const struct entry *e;
	char *list;
	size_t i;

	for (i = 0; i <= mi->n; i++) {
		e = i < mi->n ? mi->v[i].by : s->dflt;
		if (e == NULL || !cpuset_intersects(e->want, m->online))
			continue;
		cpuset_copy(t, e->want);
		cpuset_andnot(t, m->online);
		cpuset_or(off, t);
	}
	if (!cpuset_empty(off)) {
		list = xlist(off);
		warnx("note: CPU %s %s offline", list,
		    cpuset_count(off) == 1 ? "is" : "are");
		free(list);
	}
	cpuset_free(t);
	cpuset_free(off);
}

enum { OPT_BY_NUMBER = 256 };

static const struct option restore_opts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "by-number", no_argument, NULL, OPT_BY_NUMBER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * What restore and check start from: one operand, the machine, the
 * snapshot and the IRQs there are. On failure nothing is left to free.
 */
static int
snap_load(int argc, char *argv[], struct snap *s, struct machine *m,
    struct mirqs *mi)
{
	int status;

	if (argc - optind != 1) {
		warnx("%s: expected one snapshot file", argv[0]);
		usage(stderr, argv[0]);
		return EXIT_USAGE;
	}
	if (machine_load(m) != 0)
		return EXIT_FAIL;
	if ((status = snap_read(s, m, argv[optind])) != EXIT_OK ||
	    (status = mirqs_load(mi)) != EXIT_OK) {
		mirqs_free(mi);
		snap_free(s);
		machine_free(m);
	}
	return status;
}

/*
 * Lines that pick no IRQ count as IRQs that failed: the rest is still
 * applied, and the exit status is 3 (or 1 when nothing could be done).
 */
int
restore_main(int argc, char *argv[])
{
	struct snap s;
	struct machine m;
	struct mirqs mi = { NULL, 0 };
	struct change c;
	const struct entry *e;
	size_t i, total, failed;
	char label[32];
	bool quiet = false;
	int ch, flags = 0, status;

	memset(&s, 0, sizeof(s));
	while ((ch = getopts(argc, argv, "nvq", restore_opts)) != -1) {
		switch (ch) {
		case 'n':
			flags |= APPLY_DRYRUN;
			break;
		case 'v':
			flags |= APPLY_VERBOSE;
			break;
		case 'q':
			quiet = true;
			break;
		case OPT_BY_NUMBER:
			s.by_number = true;
			break;
		}
	}
	if ((status = snap_load(argc, argv, &s, &m, &mi)) != EXIT_OK)
		return status;
	total = failed = resolve(&s, &mi);
	offline_note(&m, &s, &mi);
	if (!quiet)
		irqbalance_warn();
	if ((e = s.dflt) != NULL) {
		total++;
		if (!cpuset_intersects(e->want, m.online))
			status = offline_only(&s, &m, "default", UINT_MAX, e,
			    flags);
		else
			status = apply_file(&m, "default", DEFAULT_AFFINITY,
			    true, e->want, flags);
		failed += status != EXIT_OK;
	}
	for (i = 0; i < mi.n; i++) {
		if ((e = mi.v[i].by) == NULL)
			continue;
		total++;
		c.irq = mi.v[i].irq;
		c.want = e->want;
		snprintf(label, sizeof(label), "irq %u", c.irq);
		if (!cpuset_intersects(e->want, m.online))
			status = offline_only(&s, &m, label, c.irq, e, flags);
		else
			status = apply(&m, &c, 1, flags);
		failed += status != EXIT_OK;
	}
	if (fflush(stdout) != 0)
		err(EXIT_FAIL, "standard output");
	status = apply_status(failed, total);
	mirqs_free(&mi);
	snap_free(&s);
	machine_free(&m);
	return status;
}

static const struct option check_opts[] = {
	{ "by-number", no_argument, NULL, OPT_BY_NUMBER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Prints a difference; returns whether there is one. */
static bool
differs(const char *label, const struct cpuset *cur, const struct cpuset *want)
{
	char *a, *b;

	if (cpuset_equal(cur, want))
		return false;
	a = xlist(cur);
	b = xlist(want);
	printf("%s: %s (want %s)\n", label, a, b);
	free(a);
	free(b);
	return true;
}

/* 0 when the machine matches, 1 when it differs, 2 for a bad file. */
int
check_main(int argc, char *argv[])
{
	struct snap s;
	struct machine m;
	struct mirqs mi = { NULL, 0 };
	struct cpuset *cur = NULL;
	const struct mirq *q;
	size_t i, diffs;
	char *label, *names;
	int ch, status;

	memset(&s, 0, sizeof(s));
	s.check = true;
	while ((ch = getopts(argc, argv, "", check_opts)) != -1) {
		switch (ch) {
		case OPT_BY_NUMBER:
			s.by_number = true;
			break;
		}
	}
	if ((status = snap_load(argc, argv, &s, &m, &mi)) != EXIT_OK)
		return status;
	cur = xcpuset(m.nbits);
	diffs = resolve(&s, &mi);
	if (s.dflt != NULL) {
		if (affinity_of(UINT_MAX, cur, false) != EXIT_OK)
			diffs++;
		else
			diffs += differs("default", cur, s.dflt->want);
	}
	for (i = 0; i < mi.n; i++) {
		if ((q = &mi.v[i])->by == NULL)
			continue;
		if (affinity_of(q->irq, cur, false) != EXIT_OK) {
			diffs++;
			continue;
		}
		names = names_text(q->names, q->nnames, false);
		if (asprintf(&label, "irq %u%s%s", q->irq,
		    *names != '\0' ? " " : "", names) < 0)
			err(EXIT_FAIL, NULL);
		diffs += differs(label, cur, q->by->want);
		free(label);
		free(names);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		err(EXIT_FAIL, "standard output");
	status = diffs > 0 ? EXIT_FAIL : EXIT_OK;
	cpuset_free(cur);
	mirqs_free(&mi);
	snap_free(&s);
	machine_free(&m);
	return status;
}
