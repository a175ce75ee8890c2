/* Allocation that ends the run, with exit status 1, when memory runs out. */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	/* one more than asked, so that an empty array is not NULL */
	if ((p = calloc(n + 1, size)) == NULL)
		err(1, NULL);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	/* glibc frees p for a size of 0 and returns NULL */
	if ((p = reallocarray(p, n > 0 ? n : 1, size)) == NULL)
		err(1, NULL);
	return p;
}

char *
xstrdup(const char *s)
{
	char *t;

	if ((t = strdup(s)) == NULL)
		err(1, NULL);
	return t;
}

char *
xstrndup(const char *s, size_t n)
{
	char *t;

	if ((t = strndup(s, n)) == NULL)
		err(1, NULL);
	return t;
}

struct cpuset *
xcpuset(unsigned int nbits)
{
	struct cpuset *s;

	if ((s = cpuset_new(nbits)) == NULL)
		err(1, NULL);
	return s;
}

struct cpuset *
xcpudup(const struct cpuset *set)
{
	struct cpuset *s;

	if ((s = cpuset_dup(set)) == NULL)
		err(1, NULL);
	return s;
}

/* The set as a kernel mask or CPU list; the caller frees it. */
char *
xformat(const struct cpuset *set, bool mask)
{
	char *s;

	if ((s = mask ? cpumask_format(set) : cpulist_format(set)) == NULL)
		err(1, NULL);
	return s;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		err(1, NULL);
	return s;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/* text_escaped(): a name for a terminal, whole. */
char *
xescaped(const char *s)
{
	char *t;

	if ((t = text_escaped(s)) == NULL)
		err(1, NULL);
	return t;
}

/* A stream into memory; closing it can fail only for memory. */
FILE *
xmemstream(char **bufp, size_t *lenp)
{
	FILE *fp;

	if ((fp = open_memstream(bufp, lenp)) == NULL)
		err(1, NULL);
	return fp;
}

void
xmemclose(FILE *fp)
{
	if (fclose(fp) != 0)
		err(1, NULL);
}

/* A stable sort, which allocates (mergesort(3)). */
void
xmergesort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	if (n > 1 && mergesort(base, n, size, cmp) != 0)
		err(1, NULL);
}

/* A parser's result, but -ENOMEM ends the run as an allocation does. */
int
xparsed(int rc)
{
	if (rc == -ENOMEM) {
		errno = ENOMEM;
		err(1, NULL);
	}
	return rc;
}
