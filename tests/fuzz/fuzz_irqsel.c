/*
 * irqsel_parse() on any input: one item per comma-separated field, up to
 * a field that starts with "cpu:" and takes the rest, each well formed,
 * or a failure with a one-line reason and nothing to free. A field that
 * starts with dev:" runs to its closing quote, commas and all.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/*
 * The length of the field at p: up to a comma, all of a cpu: field, or
 * a quoted dev: field to its closing quote (0: none).
 */
static size_t
field_len(const char *p)
{
	size_t i;

	if (strncmp(p, "dev:\"", 5) == 0) {
		for (i = 5; p[i] != '"'; i++)
			if (p[i] == '\0' || (p[i] == '\\' && p[++i] == '\0'))
				return 0;
		return i + 1;
	}
	return strncmp(p, "cpu:", 4) == 0 ? strlen(p) : strcspn(p, ",");
}

/*
 * The name a quoted dev: field stands for, decoded here apart from the
 * parser: \\ \" \n \t and \NNN (1 to 255); NULL for any other escape.
 */
static char *
decoded(const char *field, size_t len)
{
	char *out = malloc(len), *o = out;
	size_t i = 5;
	int v, k;

	if (out == NULL)
		abort();
	while (i < len - 1) {
		if (field[i] != '\\') {
			*o++ = field[i++];
			continue;
		}
		i++;
		if (strchr("\\\"nt", field[i]) != NULL && field[i] != '\0') {
			*o++ = field[i] == 'n' ? '\n' : field[i] == 't' ? '\t' :
			    field[i];
			i++;
			continue;
		}
		for (v = k = 0; k < 3 && field[i] >= '0' && field[i] <= '7';
		    k++)
			v = v * 8 + field[i++] - '0';
		if (k == 0 || v == 0 || v > 255) {
			free(out);
			return NULL;
		}
		*o++ = (char)v;
	}
	*o = '\0';
	return out;
}

static void
check_item(const struct irqsel *it, const char *field, size_t len)
{
	char *name;

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
		if (strncmp(field, "dev:\"", 5) == 0) {
			/* quoted: the name decoded, the field all of it */
			if (it->arg == NULL || it->arg[0] == '\0' ||
			    strchr(it->arg, '/') != NULL ||
			    (name = decoded(field, len)) == NULL ||
			    strcmp(name, it->arg) != 0 || field[len - 1] != '"')
				abort();
			free(name);
			break;
		}
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
		    it->arg[strlen(it->arg) - 1] == ',' ||
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
	/* when the parse can only fail, the count does not matter */
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
