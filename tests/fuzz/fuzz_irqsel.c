/*
 * irqsel_parse() on any input: one item per comma-separated field, up to
 * a field that starts with "cpu:" and takes the rest, each well formed,
 * or a failure with a one-line reason and nothing to free.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* The length of the field at p: up to a comma, or all of a cpu: field. */
static size_t
field_len(const char *p)
{
	return strncmp(p, "cpu:", 4) == 0 ? strlen(p) : strcspn(p, ",");
}

static void
check_item(const struct irqsel *it, const char *field, size_t len)
{
	switch (it->kind) {
	case SEL_RANGE:
		if (it->lo > it->hi || it->hi > INT_MAX || it->arg != NULL)
			abort();
		if (strspn(field, "0123456789-") < len)
			abort();
		break;
	case SEL_ALL:
		if (it->arg != NULL || len != 3)
			abort();
		break;
	case SEL_DEV:
		if (it->arg == NULL || it->arg[0] == '\0' ||
		    strchr(it->arg, '/') != NULL ||
		    strlen(it->arg) != len - 4 ||
		    strncmp(field, "dev:", 4) != 0 ||
		    memcmp(it->arg, field + 4, len - 4) != 0)
			abort();
		break;
	case SEL_GLOB:
		if (it->arg == NULL || it->arg[0] == '\0' ||
		    strlen(it->arg) != len || memcmp(it->arg, field, len) != 0 ||
		    strncmp(field, "cpu:", 4) == 0)
			abort();
		break;
	case SEL_CPU:
		/* the rest of the input, so the last item */
		if (it->arg == NULL || it->arg[0] == '\0' ||
		    strncmp(field, "cpu:", 4) != 0 || field[len] != '\0' ||
		    strcmp(it->arg, field + 4) != 0)
			abort();
		break;
	default:
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irqsel *sel = NULL;
	struct perr pe;
	size_t n = 0, i, fields, len;
	const char *p;
	char *s;
	int rc;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	for (fields = 1, p = s; p[len = field_len(p)] != '\0'; p += len + 1)
		fields++;
	memset(&pe, 0, sizeof(pe));
	if ((rc = irqsel_parse(s, &sel, &n, &pe)) != 0) {
		if ((rc != -EINVAL && rc != -EOVERFLOW) || pe.code != -rc ||
		    pe.msg[0] == '\0' || !printable(pe.msg))
			abort();
	} else {
		if (n != fields || sel == NULL)
			abort();
		for (i = 0, p = s; i < n; i++, p += len + 1) {
			len = field_len(p);
			check_item(&sel[i], p, len);
		}
		irqsel_free(sel, n);
	}
	free(s);
	return 0;
}
