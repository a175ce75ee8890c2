/*
 * IRQ selectors: "24", "24-31", "all", "dev:eth0" or a glob, comma
 * separated, and last "cpu:" with the rest of the text. A dev: name may
 * be quoted, dev:"lan,1", as snapshot files quote strings. No I/O, no
 * printing.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/irqsel.h"
#include "lib/text.h"
#include "parse.h"

void
irqsel_free(struct irqsel *sel, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(sel[i].arg);
	free(sel);
}

/*
 * The length of a quoted dev: item at s, dev:"...", up to its closing
 * quote; 0 without one. The escapes are checked by unquote().
 */
static size_t
quoted_len(const char *s)
{
	size_t i;

	for (i = 5; s[i] != '"'; i++)
		if (s[i] == '\0' || (s[i] == '\\' && s[++i] == '\0'))
			return 0;
	return i + 1;
}

/*
 * The name between the quotes of s (len bytes, quotes included), as
 * snapshot files write strings: \" \\ \n \t and \NNN, a byte from \001
 * to \377, stand for themselves.
 */
static int
unquote(const char *s, size_t len, char **outp, struct perr *pe)
{
	char *out, *o, b[TOKBUF];
	size_t i, k;
	int v;

	if ((out = malloc(len)) == NULL)
		return -ENOMEM;
	for (i = 1, o = out; i < len - 1; i++) {
		if (s[i] != '\\') {
			*o++ = s[i];
			continue;
		}
		i++;
		if (s[i] == '\\' || s[i] == '"')
			*o++ = s[i];
		else if (s[i] == 'n' || s[i] == 't')
			*o++ = s[i] == 'n' ? '\n' : '\t';
		else {
			for (k = v = 0; k < 3 && s[i + k] >= '0' &&
			    s[i + k] <= '7'; k++)
				v = v * 8 + s[i + k] - '0';
			if (k == 0 || v == 0 || v > 255) {
				free(out);
				return perr_set(pe, EINVAL, "\"dev:%s\": "
				    "unknown escape in a string",
				    perr_quote(b, sizeof(b), s, len));
			}
			*o++ = v;
			i += k - 1;
		}
	}
	*o = '\0';
	*outp = out;
	return 0;
}

/* Whether a dev: name of n bytes can name no device: empty, ., .. or a path. */
static bool
no_device(const char *name, size_t n)
{
	return n == 0 || (n == 1 && name[0] == '.') ||
	    (n == 2 && name[0] == '.' && name[1] == '.') ||
	    memchr(name, '/', n) != NULL;
}

/* dev:"NAME": a device name as snapshot files quote it. */
static int
item_dev_quoted(const char *s, size_t len, struct irqsel *it,
    struct perr *pe)
{
	char b[TOKBUF];
	int rc;

	if ((rc = unquote(s + 4, len - 4, &it->arg, pe)) != 0)
		return rc;
	if (no_device(it->arg, strlen(it->arg))) {
		free(it->arg);
		it->arg = NULL;
		return perr_set(pe, EINVAL, "\"%s\" names no device",
		    perr_quote(b, sizeof(b), s, len));
	}
	it->kind = SEL_DEV;
	return 0;
}

static int
item_dev(const char *s, size_t len, struct irqsel *it, struct perr *pe)
{
	char b[TOKBUF];

	if (no_device(s + 4, len - 4))
		return perr_set(pe, EINVAL, "\"%s\" names no device",
		    perr_quote(b, sizeof(b), s, len));
	it->kind = SEL_DEV;
	if ((it->arg = strndup(s + 4, len - 4)) == NULL)
		return -ENOMEM;
	return 0;
}

/*
 * Whether a comma item after a cpu: item's first can be part of a CPU
 * set: a number or range, N, all or node:K; not dev:eth0, a glob or a
 * name, which would be an IRQ item after the last.
 */
static bool
cpu_word(const char *s, size_t len)
{
	if (len == 0 || memchr(s, '*', len) || memchr(s, '?', len) ||
	    memchr(s, '[', len))
		return len == 0;
	if (!isalpha((unsigned char)s[0]))
		return true;
	if ((len == 3 && strncmp(s, "all", 3) == 0) ||
	    (len >= 5 && strncmp(s, "node:", 5) == 0) ||
	    (s[0] == 'N' && (len == 1 || s[1] == '-' || s[1] == ':')))
		return true;
	return false;
}

static int
item_cpu(const char *s, size_t len, struct irqsel *it, struct perr *pe)
{
	const char *p, *end = s + len;
	size_t n;
	char b[TOKBUF];

	if (len == 4)
		return perr_set(pe, EINVAL, "\"cpu:\" names no CPUs");
	/* one rule for every item: a trailing comma is an empty one */
	if (s[len - 1] == ',')
		return perr_set(pe, EINVAL, "empty item");
	/* a mask's words may start with a letter: 0xff,ffffffff */
	if (strncasecmp(s + 4, "0x", 2) != 0)
		for (p = s + 4 + strcspn(s + 4, ","); p < end; p += n) {
			p++;
			if ((n = strcspn(p, ",")) > (size_t)(end - p))
				n = end - p;
			if (!cpu_word(p, n))
				return perr_set(pe, EINVAL, "\"cpu:\" must be "
				    "the last item: \"%s\" follows it",
				    perr_quote(b, sizeof(b), p, n));
		}
	it->kind = SEL_CPU;
	if ((it->arg = strndup(s + 4, len - 4)) == NULL)
		return -ENOMEM;
	return 0;
}

/* A number or a range of them, "24" or "24-31". */
static int
item_range(const char *s, size_t len, struct irqsel *it, struct perr *pe)
{
	char item[64], b[TOKBUF];
	const char *errstr, *dash;
	long long lo, hi;

	if (len >= sizeof(item))
		return perr_set(pe, EOVERFLOW, "IRQ \"%s\" is too large",
		    perr_quote(b, sizeof(b), s, len));
	memcpy(item, s, len);
	item[len] = '\0';
	dash = strchr(item, '-');
	if (dash == item || (dash != NULL && (dash[1] == '\0' ||
	    strchr(dash + 1, '-') != NULL)))
		return perr_set(pe, EINVAL, "\"%s\" is not an IRQ or range",
		    perr_quote(b, sizeof(b), s, len));
	if (dash != NULL)
		item[dash - item] = '\0';
	lo = strtonum(item, 0, INT_MAX, &errstr);
	if (errstr == NULL && dash != NULL)
		hi = strtonum(dash + 1, 0, INT_MAX, &errstr);
	else
		hi = lo;
	if (errstr != NULL)
		return perr_set(pe, EOVERFLOW, "IRQ \"%s\" is too large",
		    perr_quote(b, sizeof(b), s, len));
	if (lo > hi)
		return perr_set(pe, EINVAL, "range \"%s\" runs backwards",
		    perr_quote(b, sizeof(b), s, len));
	it->kind = SEL_RANGE;
	it->lo = lo;
	it->hi = hi;
	return 0;
}

/* The forms an item starting with a prefix takes, tried in this order. */
static const struct {
	const char	*prefix;
	int		(*parse)(const char *, size_t, struct irqsel *,
			    struct perr *);
} forms[] = {
	{ "dev:\"", item_dev_quoted },
	{ "dev:", item_dev },
	{ "cpu:", item_cpu },
};

static int
irqsel_item(const char *s, size_t len, struct irqsel *it, struct perr *pe)
{
	size_t i, n;

	memset(it, 0, sizeof(*it));
	if (len == 0)
		return perr_set(pe, EINVAL, "empty item");
	if (len == 3 && strncasecmp(s, "all", 3) == 0) {
		it->kind = SEL_ALL;
		return 0;
	}
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		n = strlen(forms[i].prefix);
		if (len >= n && strncmp(s, forms[i].prefix, n) == 0)
			return forms[i].parse(s, len, it, pe);
	}
	if (strspn(s, "0123456789-") >= len)
		return item_range(s, len, it, pe);
	it->kind = SEL_GLOB;
	if ((it->arg = strndup(s, len)) == NULL)
		return -ENOMEM;
	return 0;
}

int
irqsel_parse(const char *s, struct irqsel **selp, size_t *np, struct perr *pe)
{
	struct irqsel *sel = NULL, *tmp;
	size_t n = 0, len;
	char b[TOKBUF];
	int rc;

	for (;;) {
		/* a CPU set has commas of its own: it takes the rest */
		if (strncmp(s, "cpu:", 4) == 0)
			len = strlen(s);
		else if (strncmp(s, "dev:\"", 5) == 0) {
			if ((len = quoted_len(s)) == 0 ||
			    (s[len] != ',' && s[len] != '\0')) {
				irqsel_free(sel, n);
				return perr_set(pe, EINVAL, len == 0 ?
				    "\"%s\": a string has no closing quote" :
				    "\"%s\": no comma after the closing quote",
				    perr_quote(b, sizeof(b), s, strcspn(s,
				    ",")));
			}
		} else
			len = strcspn(s, ",");
		if ((tmp = reallocarray(sel, n + 1, sizeof(*sel))) == NULL) {
			irqsel_free(sel, n);
			return -ENOMEM;
		}
		sel = tmp;
		if ((rc = irqsel_item(s, len, &sel[n], pe)) != 0) {
			irqsel_free(sel, n);
			return rc;
		}
		n++;
		if (s[len] == '\0')
			break;
		s += len + 1;
	}
	*selp = sel;
	*np = n;
	return 0;
}
