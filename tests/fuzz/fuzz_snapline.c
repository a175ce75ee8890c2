/*
 * snapline_parse() on any line: a failure is one printable line and
 * leaves nothing to free; what parses writes back through
 * snapline_format(), as save and balance's plan write lines, and parses
 * to the same entry: parse(format(x)) == x; a queue line's queue is tx-N for
 * xps, rx-N for rps, N at most QUEUENAME_MAX, its interface not empty.
 * And the input as a name or an interface, quoted the way save quotes
 * it, reads back byte for byte.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "lib/queuename.h"

/* snapline_format()'s line, as save and balance's plan write it. */
static char *
write_back(const struct snapline *sl, size_t *len)
{
	char *text = NULL;
	FILE *fp;

	if ((fp = open_memstream(&text, len)) == NULL)
		abort();
	snapline_format(fp, sl);
	if (fclose(fp) != 0)
		abort();
	return text;
}

static void
same(const struct snapline *a, const struct snapline *b)
{
	size_t i;

	if (a->kind != b->kind || a->optional != b->optional ||
	    a->irq != b->irq || a->queue != b->queue ||
	    (a->dev == NULL) != (b->dev == NULL) ||
	    (a->dev != NULL && strcmp(a->dev, b->dev) != 0) ||
	    strcmp(a->cpus, b->cpus) != 0 || a->nnames != b->nnames ||
	    (a->pattern == NULL) != (b->pattern == NULL) ||
	    (a->pattern != NULL && strcmp(a->pattern, b->pattern) != 0) ||
	    (a->isolated == NULL) != (b->isolated == NULL) ||
	    (a->isolated != NULL && strcmp(a->isolated, b->isolated) != 0))
		abort();
	for (i = 0; i < a->nnames; i++)
		if (strcmp(a->names[i], b->names[i]) != 0)
			abort();
}

static void
check_line(const char *data, size_t size)
{
	struct snapline sl, again;
	struct perr pe;
	size_t len;
	char *text;
	int rc;

	memset(&pe, 0, sizeof(pe));
	if ((rc = snapline_parse(data, size, &sl, &pe)) != 0) {
		if (rc != -EINVAL || pe.code != EINVAL || pe.msg[0] == '\0' ||
		    !printable(pe.msg) || sl.cpus != NULL || sl.names != NULL ||
		    sl.dev != NULL || sl.optional)
			abort();
		return;
	}
	if (sl.kind == SNAP_NONE) {
		if (sl.cpus != NULL || sl.nnames != 0 || sl.optional)
			abort();
		return;
	}
	if ((sl.kind == SNAP_XPS || sl.kind == SNAP_RPS) != (sl.dev != NULL) ||
	    (sl.dev != NULL && (*sl.dev == '\0' || sl.nnames != 0 ||
	    sl.queue > QUEUENAME_MAX)))
		abort();
	text = write_back(&sl, &len);
	if (snapline_parse(text, len, &again, &pe) != 0)
		abort();
	same(&sl, &again);
	snapline_free(&again);
	snapline_free(&sl);
	free(text);
}

/* save's quoting of any name reads back exactly. */
static void
check_name(const char *data, size_t size)
{
	struct snapline sl;
	struct perr pe;
	char *name, *text = NULL;
	size_t len;
	FILE *fp;

	if (size == 0 || memchr(data, '\0', size) != NULL)
		return;
	if ((name = strndup(data, size)) == NULL ||
	    (fp = open_memstream(&text, &len)) == NULL)
		abort();
	fputs("7 0 ", fp);
	snapline_quote(fp, name);
	fputs(" # saved", fp);
	if (fclose(fp) != 0)
		abort();
	if (memchr(text, '\n', len) != NULL ||
	    snapline_parse(text, len, &sl, &pe) != 0 ||
	    sl.kind != SNAP_IRQ || sl.nnames != 1 ||
	    strcmp(sl.names[0], name) != 0)
		abort();
	snapline_free(&sl);
	free(text);
	text = NULL;
	if ((fp = open_memstream(&text, &len)) == NULL)
		abort();
	fputs("?rps ", fp);
	snapline_quote(fp, name);
	fputs(" rx-65535 none", fp);
	if (fclose(fp) != 0)
		abort();
	if (snapline_parse(text, len, &sl, &pe) != 0 ||
	    sl.kind != SNAP_RPS || !sl.optional || sl.queue != 65535 ||
	    strcmp(sl.dev, name) != 0 || strcmp(sl.cpus, "none") != 0)
		abort();
	snapline_free(&sl);
	free(text);
	free(name);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_line((const char *)data, size);
	check_name((const char *)data, size);
	return 0;
}
