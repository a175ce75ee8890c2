/*
 * The snapshot grammar, one entry a line:
 *
 *	line	= [ [ "?" ] entry ] [ "#" comment ]
 *	entry	= "default" SP cpus		default_smp_affinity
 *		| irq SP cpus *( SP name )	what save writes
 *		| pattern SP cpus		written by hand
 *		| "xps" SP dev SP txq SP qcpus	a queue's xps_cpus
 *		| "rps" SP dev SP rxq SP qcpus	a queue's rps_cpus
 *		| "plan" SP cpus [ SP "isolated" SP cpus ]
 *						balance --plan: its CPUs, and
 *						the isolated ones it chose
 *	irq	= 1*DIGIT
 *	dev	= word | string			a network interface
 *	txq	= "tx-" number			as the kernel names queues
 *	rxq	= "rx-" number
 *	number	= "0" | %x31-39 *DIGIT		up to 65535
 *	qcpus	= "none" | cpus			"none": the empty set
 *	name	= string			an action name, exactly
 *	pattern	= word | string			fnmatch(3) on each action name
 *	cpus	= word				as for set: list, 0x mask, node:K
 *	word	= 1*( any byte but SP, TAB, CR, NL, '"', '#' )
 *	string	= '"' *( any byte but '"', '\', NL | escape ) '"'
 *	escape	= '\\' | '\"' | '\n' | '\t' | '\' 1*3( octal digit )
 *	SP	= 1*( ' ' | TAB | CR )
 *
 * A "?" right before an entry makes it optional: it may match no IRQ, or
 * no interface or queue. A word that starts with a digit must be an IRQ
 * number; the words "default", "xps", "rps" and "plan" are keywords:
 * quote such names, and patterns that start with "?". A
 * # outside a string starts a comment. CR is a blank, so lines may end in
 * CR LF. snapline_quote() writes any name so that it reads back byte for
 * byte.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/queuename.h"
#include "lib/snapline.h"
#include "lib/text.h"
#include "parse.h"

struct token {
	char	*s;
	bool	 string;	/* quoted: never a number or keyword */
};

struct tokens {
	struct token	*v;
	size_t		 n;
};

/* Decodes one string in place; *pp is past its opening quote. */
static int
decode(char **pp, char **outp, struct perr *pe)
{
	char *p = *pp, *out = p, *start = p;
	int k, v;

	while (*p != '"') {
		if (*p == '\0' || (*p == '\\' && p[1] == '\0'))
			return perr_set(pe, EINVAL,
			    "a string has no closing quote");
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
			if (k == 0)
				return perr_set(pe, EINVAL,
				    "unknown escape "
				    "\"\\%s\" in a string",
				    text_quoted((char[]){ *p, '\0' }));
			if (v == 0 || v > 255)
				return perr_set(pe, EINVAL,
				    "escape \"\\%.*s\" "
				    "is not a byte from \\001 to \\377", k,
				    p - k);
			*out++ = v;
		}
	}
	p++;
	if (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
		return perr_set(pe, EINVAL,
		    "no space after the closing quote");
	*out = '\0';
	*pp = p;
	*outp = start;
	return 0;
}

static int
push(struct tokens *t, char *s, bool string)
{
	struct token *tmp;

	if ((tmp = reallocarray(t->v, t->n + 1, sizeof(*tmp))) == NULL)
		return -ENOMEM;
	t->v = tmp;
	t->v[t->n].s = s;
	t->v[t->n++].string = string;
	return 0;
}

/* Splits a line into words and strings, up to a comment. */
static int
tokenize(char *p, struct tokens *t, struct perr *pe)
{
	char *start = NULL;
	int c, rc;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0' || *p == '#')
			return 0;
		if (*p == '"') {
			p++;
			if ((rc = decode(&p, &start, pe)) != 0 ||
			    (rc = push(t, start, true)) != 0)
				return rc;
			continue;
		}
		start = p;
		p += strcspn(p, " \t\r\"#");
		if (*p == '"') {
			*p = '\0';
			return perr_set(pe, EINVAL, "a quote right after "
			    "\"%s\"; put a space before the string",
			    text_quoted(start));
		}
		c = *p;
		*p = '\0';
		if ((rc = push(t, start, false)) != 0)
			return rc;
		if (c == '#')
			return 0;
		if (c != '\0')
			p++;
	}
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What the first word makes of the line, and how many words it takes. */
static int
line_kind(const struct token *t0, struct snapline *sl, size_t *max,
    struct perr *pe)
{
	const char *errstr;

	*max = 2;
	/* a leading "?" is the optional mark: only a second one gets here */
	if (!t0->string && t0->s[0] == '?')
		return perr_set(pe, EINVAL,
		    "\"%s\" after \"?\": a pattern "
		    "that starts with \"?\" needs quotes", text_quoted(t0->s));
	if (!t0->string && strcmp(t0->s, "default") == 0)
		sl->kind = SNAP_DEFAULT;
	else if (!t0->string && strcmp(t0->s, "plan") == 0) {
		sl->kind = SNAP_PLAN;
		*max = 4;
	}
	else if (!t0->string && (strcmp(t0->s, "xps") == 0 ||
	    strcmp(t0->s, "rps") == 0)) {
		sl->kind = t0->s[0] == 'x' ? SNAP_XPS : SNAP_RPS;
		*max = 4;
	}
	else if (!t0->string && t0->s[0] >= '0' && t0->s[0] <= '9') {
		sl->kind = SNAP_IRQ;
		sl->irq = strtonum(t0->s, 0, INT_MAX, &errstr);
		if (errstr != NULL ||
		    strspn(t0->s, "0123456789") != strlen(t0->s))
			return perr_set(pe, EINVAL, "\"%s\" is not an IRQ "
			    "number (a name that starts with a digit needs "
			    "quotes)", text_quoted(t0->s));
		*max = SIZE_MAX;
	} else if (*t0->s == '\0')
		return perr_set(pe, EINVAL, "an empty pattern");
	else
		sl->kind = SNAP_PATTERN;
	return 0;
}

/* "xps DEV tx-N CPUS", "rps DEV rx-N CPUS": the words between. */
static int
check_queue(const struct tokens *t, struct snapline *sl, struct perr *pe)
{
	const char *want = sl->kind == SNAP_XPS ? "tx-" : "rx-", *q, *errstr;

	if (t->n != 4)
		return perr_set(pe, EINVAL, "\"%s\" takes an interface, a "
		    "queue and a CPU set, as in \"%s eth0 %s0 0-3\"",
		    t->v[0].s, t->v[0].s, want);
	if (*t->v[1].s == '\0')
		return perr_set(pe, EINVAL, "an empty interface name");
	q = t->v[2].s;
	if (t->v[2].string || strncmp(q, want, 3) != 0 ||
	    q[3] < '0' || q[3] > '9' || (q[3] == '0' && q[4] != '\0') ||
	    strspn(q + 3, "0123456789") != strlen(q + 3))
		return perr_set(pe, EINVAL, "\"%s\" is not a queue of %s: "
		    "%sN", text_quoted(q), t->v[0].s, want);
	sl->queue = strtonum(q + 3, 0, QUEUENAME_MAX, &errstr);
	if (errstr != NULL)
		return perr_set(pe, EINVAL, "queue \"%s\": the number is "
		    "over %u", text_quoted(q), QUEUENAME_MAX);
	if (t->v[3].string)
		return perr_set(pe, EINVAL, "the CPU set \"%s\" is quoted",
		    text_quoted(t->v[3].s));
	return 0;
}

static int
check_words(const struct tokens *t, struct snapline *sl, size_t max,
    struct perr *pe)
{
	size_t i;

	if (sl->kind == SNAP_XPS || sl->kind == SNAP_RPS)
		return check_queue(t, sl, pe);
	if (sl->kind == SNAP_PLAN && sl->optional)
		return perr_set(pe, EINVAL, "a plan line cannot be "
		    "optional");
	if (sl->kind == SNAP_PLAN && t->n > 2 && (t->n != 4 ||
	    t->v[2].string || strcmp(t->v[2].s, "isolated") != 0 ||
	    t->v[3].string))
		return perr_set(pe, EINVAL, "a plan line is \"plan CPUS\" "
		    "or \"plan CPUS isolated CPUS\"");
	if (t->n < 2)
		return perr_set(pe, EINVAL, "no CPU set after \"%s\"",
		    text_quoted(t->v[0].s));
	if (t->v[1].string)
		return perr_set(pe, EINVAL, "the CPU set \"%s\" is quoted",
		    text_quoted(t->v[1].s));
	if (t->n > max)
		return perr_set(pe, EINVAL,
		    "\"%s\" after the CPU set; only "
		    "IRQ numbers take names", text_quoted(t->v[2].s));
	for (i = 2; i < t->n; i++)
		if (*t->v[i].s == '\0')
			return perr_set(pe, EINVAL, "an empty name");
	return 0;
}

/* Copies the words into sl, which then owns them. */
static int
fill(const struct tokens *t, struct snapline *sl, struct perr *pe)
{
	size_t i;

	if (sl->kind == SNAP_XPS || sl->kind == SNAP_RPS)
		return (sl->dev = strdup(t->v[1].s)) == NULL ||
		    (sl->cpus = strdup(t->v[3].s)) == NULL ? -ENOMEM : 0;
	if ((sl->cpus = strdup(t->v[1].s)) == NULL)
		return -ENOMEM;
	if (sl->kind == SNAP_PLAN)
		return t->n == 4 && (sl->isolated = strdup(t->v[3].s)) ==
		    NULL ? -ENOMEM : 0;
	if (sl->kind == SNAP_PATTERN &&
	    (sl->pattern = strdup(t->v[0].s)) == NULL)
		return -ENOMEM;
	if (t->n > 2 &&
	    (sl->names = calloc(t->n - 2, sizeof(*sl->names))) == NULL)
		return -ENOMEM;
	for (i = 2; i < t->n; i++)
		if ((sl->names[sl->nnames++] = strdup(t->v[i].s)) == NULL)
			return -ENOMEM;
	if (sl->nnames > 1)
		qsort(sl->names, sl->nnames, sizeof(*sl->names), cmpstr);
	for (i = 1; i < sl->nnames; i++)
		if (strcmp(sl->names[i - 1], sl->names[i]) == 0)
			return perr_set(pe, EINVAL,
			    "\"%s\" is named twice", text_quoted(sl->names[i]));
	return 0;
}

/*
 * One line, without its newline. Returns 0, -EINVAL with a sentence in
 * pe, or -ENOMEM; on failure sl holds nothing.
 */
int
snapline_parse(const char *line, size_t len, struct snapline *sl,
    struct perr *pe)
{
	struct tokens t = { NULL, 0 };
	size_t max;
	char *copy, *p;
	int rc = 0;

	memset(sl, 0, sizeof(*sl));
	if (memchr(line, '\0', len) != NULL)
		return perr_set(pe, EINVAL, "a NUL byte");
	if ((copy = strndup(line, len)) == NULL)
		return -ENOMEM;
	p = copy + strspn(copy, " \t\r");
	if (*p == '?') {
		sl->optional = true;
		if (*++p == '\0' || strchr(" \t\r#", *p) != NULL)
			rc = perr_set(pe, EINVAL, "\"?\" must come right "
			    "before an entry, as in \"?eth2-* 1\"");
	}
	if (rc == 0 && (rc = tokenize(p, &t, pe)) == 0 && t.n > 0 &&
	    (rc = line_kind(&t.v[0], sl, &max, pe)) == 0 &&
	    (rc = check_words(&t, sl, max, pe)) == 0)
		rc = fill(&t, sl, pe);
	if (rc != 0)
		snapline_free(sl);
	free(t.v);
	free(copy);
	return rc;
}

void
snapline_free(struct snapline *sl)
{
	size_t i;

	for (i = 0; i < sl->nnames; i++)
		free(sl->names[i]);
	free(sl->names);
	free(sl->pattern);
	free(sl->dev);
	free(sl->cpus);
	free(sl->isolated);
	memset(sl, 0, sizeof(*sl));
}

/* '"', '\' and bytes below 0x20 and 0x7f escaped; other bytes as they are. */
void
snapline_quote(FILE *fp, const char *s)
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

/* An interface's name as a word, or quoted when it cannot be one. */
static void
put_word(FILE *fp, const char *name)
{
	const unsigned char *p;

	for (p = (const unsigned char *)name; *p != '\0'; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '"' || *p == '#' ||
		    *p == '\\')
			break;
	if (*p == '\0' && p != (const unsigned char *)name)
		fputs(name, fp);
	else
		snapline_quote(fp, name);
}

/*
 * The line sl says, without its newline: what snapline_parse() reads
 * back as sl. Names are quoted, a pattern too (a bare one could read as
 * a number or a keyword), an interface only when it cannot be a word.
 */
void
snapline_format(FILE *fp, const struct snapline *sl)
{
	size_t i;

	if (sl->kind == SNAP_NONE)
		return;
	if (sl->optional)
		putc('?', fp);
	switch (sl->kind) {
	case SNAP_DEFAULT:
		fputs("default", fp);
		break;
	case SNAP_PLAN:
		fputs("plan", fp);
		break;
	case SNAP_IRQ:
		fprintf(fp, "%u", sl->irq);
		break;
	case SNAP_XPS:
	case SNAP_RPS:
		fputs(sl->kind == SNAP_XPS ? "xps " : "rps ", fp);
		put_word(fp, sl->dev);
		fprintf(fp, " %s-%u", sl->kind == SNAP_XPS ? "tx" : "rx",
		    sl->queue);
		break;
	default:
		snapline_quote(fp, sl->pattern);
		break;
	}
	fprintf(fp, " %s", sl->cpus);
	if (sl->isolated != NULL)
		fprintf(fp, " isolated %s", sl->isolated);
	for (i = 0; i < sl->nnames; i++) {
		putc(' ', fp);
		snapline_quote(fp, sl->names[i]);
	}
}
