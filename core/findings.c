/* Findings: codes and sentences, kept in order, printed as JSON. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/findings.h"
#include "core/xalloc.h"
#include "lib/text.h"

void
findings_add(struct findings *f, const char *code, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	f->v = xreallocarray(f->v, f->n + 1, sizeof(*f->v));
	f->v[f->n++] = (struct finding){ code, text };
}

/* [{"code": ..., "text": ...}, ...] */
void
findings_json(FILE *fp, const struct findings *f)
{
	size_t i;

	putc('[', fp);
	for (i = 0; i < f->n; i++) {
		fprintf(fp, "%s{\"code\":\"%s\",\"text\":", i ? "," : "",
		    f->v[i].code);
		text_json_string(fp, f->v[i].text);
		putc('}', fp);
	}
	putc(']', fp);
}

void
findings_free(struct findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].text);
	free(f->v);
	f->v = NULL;
	f->n = 0;
}
