/*
 * What the CPU-set harnesses share: a width from the first two bytes, the
 * rest as a string, and the properties every parse must have. What parses
 * must print as a list and as a mask that both parse back to the same
 * set; what fails must leave the set empty and a one-line reason.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* A reason is one line of printable ASCII: tokens are vis(3)-escaped. */
bool
printable(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s < ' ' || *s > '~')
			return false;
	return true;
}

static void
check_error(const struct cpuset *set, int rc, const struct perr *pe)
{
	if (rc != -EINVAL && rc != -ERANGE && rc != -EOVERFLOW)
		abort();
	if (pe->code != -rc || pe->msg[0] == '\0' ||
	    !printable(pe->msg))
		abort();
	if (!cpuset_empty(set))
		abort();
}

/* Storage past nbits stays zero, and the set's accessors agree. */
static void
check_set(const struct cpuset *set)
{
	unsigned int cpu, n = 0;
	int c, last = -1;

	for (cpu = set->nbits; cpu % 64 != 0; cpu++)
		if (set->words[cpu / 64] >> (cpu % 64) & 1)
			abort();
	for (c = cpuset_first(set); c >= 0; c = cpuset_next(set, c + 1)) {
		if ((unsigned int)c >= set->nbits || c <= last ||
		    !cpuset_test(set, c))
			abort();
		last = c;
		n++;
	}
	if (n != cpuset_count(set) || last != cpuset_last(set))
		abort();
}

static void
roundtrip(const struct cpuset *set)
{
	struct cpuset *again;
	struct perr pe;
	char *text;

	if ((again = cpuset_new(set->nbits)) == NULL)
		abort();
	if ((text = cpulist_format(set)) == NULL)
		abort();
	if (cpulist_parse(again, text, &pe) != 0 || !cpuset_equal(set, again))
		abort();
	free(text);
	if ((text = cpumask_format(set)) == NULL)
		abort();
	if (strlen(text) != (set->nbits + 3) / 4 + (set->nbits - 1) / 32)
		abort();
	if (cpumask_parse(again, text, &pe) != 0 || !cpuset_equal(set, again))
		abort();
	free(text);
	cpuset_free(again);
}

int
fuzz_cpuset(const uint8_t *data, size_t size, parse_fn *parse,
    also_fn *also)
{
	struct cpuset *set;
	struct perr pe;
	unsigned int nbits;
	char *s;
	int rc;

	if (size < 2)
		return 0;
	nbits = 1 + (data[0] | data[1] << 8) % 8192;
	if ((s = malloc(size - 1)) == NULL)
		return 0;
	memcpy(s, data + 2, size - 2);
	s[size - 2] = '\0';
	if ((set = cpuset_new(nbits)) == NULL)
		abort();
	memset(&pe, 0, sizeof(pe));
	if ((rc = parse(set, s, &pe)) != 0)
		check_error(set, rc, &pe);
	else {
		check_set(set);
		roundtrip(set);
	}
	if (also != NULL)
		also(set, rc, s);
	cpuset_free(set);
	free(s);
	return 0;
}
