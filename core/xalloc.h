/*
 * Allocation that ends the run when memory runs out: there is nothing
 * useful to do without it, and nothing has been written yet that a
 * partial run would leave inconsistent (writes are one file at a time).
 */
#ifndef IRQAFF_XALLOC_H
#define IRQAFF_XALLOC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cpuset;

#ifndef nitems			/* OpenBSD <sys/param.h> */
#define nitems(a)	(sizeof((a)) / sizeof((a)[0]))
#endif

void		*xcalloc(size_t, size_t);
void		*xreallocarray(void *, size_t, size_t);
char		*xstrdup(const char *);
char		*xstrndup(const char *, size_t);
struct cpuset	*xcpuset(unsigned int);
struct cpuset	*xcpudup(const struct cpuset *);
char		*xformat(const struct cpuset *, bool);
char		*xasprintf(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
char		*xvasprintf(const char *, va_list)
		    __attribute__((format(printf, 1, 0)));
char		*xescaped(const char *);
FILE		*xmemstream(char **, size_t *);
void		 xmemclose(FILE *);
void		 xmergesort(void *, size_t, size_t,
		    int (*)(const void *, const void *));
int		 xparsed(int);

#endif
