/*
 * irqsel_parse() on any input: one item per comma-separated field, each
 * well formed, or a failure with a one-line reason and nothing to free.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

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
		    strlen(it->arg) != len || memcmp(it->arg, field, len) != 0)
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
	for (fields = 1, p = s; (p = strchr(p, ',')) != NULL; p++)
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
			len = strcspn(p, ",");
			check_item(&sel[i], p, len);
		}
		irqsel_free(sel, n);
	}
	free(s);
	return 0;
}
