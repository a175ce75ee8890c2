/*
 * IRQ selectors: "24", "24-31", "all", "dev:eth0" or a glob, comma
 * separated, and last "cpu:" with the rest of the text. No I/O, no
 * printing.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/irqsel.h"

void
irqsel_free(struct irqsel *sel, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(sel[i].arg);
	free(sel);
}

static int
irqsel_item(const char *s, size_t len, struct irqsel *it, struct perr *pe)
{
	char item[64], b[TOKBUF];
	const char *errstr, *dash;
	long long lo, hi;

	memset(it, 0, sizeof(*it));
	if (len == 0)
		return perr_set(pe, EINVAL, "empty item");
	if (len == 3 && strncasecmp(s, "all", 3) == 0) {
		it->kind = SEL_ALL;
		return 0;
	}
	if (len >= 4 && strncmp(s, "dev:", 4) == 0) {
		if (len == 4 || memchr(s + 4, '/', len - 4) != NULL)
			return perr_set(pe, EINVAL, "\"%s\" names no device",
			    visquote(b, sizeof(b), s, len));
		it->kind = SEL_DEV;
		if ((it->arg = strndup(s + 4, len - 4)) == NULL)
			return -ENOMEM;
		return 0;
	}
	if (len >= 4 && strncmp(s, "cpu:", 4) == 0) {
		if (len == 4)
			return perr_set(pe, EINVAL, "\"cpu:\" names no CPUs");
		it->kind = SEL_CPU;
		if ((it->arg = strndup(s + 4, len - 4)) == NULL)
			return -ENOMEM;
		return 0;
	}
	if (strspn(s, "0123456789-") >= len) {
		if (len >= sizeof(item))
			return perr_set(pe, EOVERFLOW, "IRQ \"%s\" is too large",
			    visquote(b, sizeof(b), s, len));
		memcpy(item, s, len);
		item[len] = '\0';
		dash = strchr(item, '-');
		if (dash == item || (dash != NULL && (dash[1] == '\0' ||
		    strchr(dash + 1, '-') != NULL)))
			return perr_set(pe, EINVAL, "\"%s\" is not an IRQ or range",
			    visquote(b, sizeof(b), s, len));
		if (dash != NULL)
			item[dash - item] = '\0';
		lo = strtonum(item, 0, INT_MAX, &errstr);
		if (errstr == NULL && dash != NULL)
			hi = strtonum(dash + 1, 0, INT_MAX, &errstr);
		else
			hi = lo;
		if (errstr != NULL)
			return perr_set(pe, EOVERFLOW, "IRQ \"%s\" is too large",
			    visquote(b, sizeof(b), s, len));
		if (lo > hi)
			return perr_set(pe, EINVAL, "range \"%s\" runs backwards",
			    visquote(b, sizeof(b), s, len));
		it->kind = SEL_RANGE;
		it->lo = lo;
		it->hi = hi;
		return 0;
	}
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
	int rc;

	for (;;) {
		/* a CPU set has commas of its own: it takes the rest */
		if (strncmp(s, "cpu:", 4) == 0)
			len = strlen(s);
		else
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
