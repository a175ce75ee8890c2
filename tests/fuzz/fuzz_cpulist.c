/*
 * cpulist_parse() on any input at any width from 1 to 8192 bits. What
 * parses must print as a list and as a mask that both parse back to the
 * same set; what fails must leave the set empty and a one-line reason.
 * Lists of plain decimal regions ("A", "A-B", "A-B:U/G", comma-separated)
 * are also checked against a 64-bit reading of what they mean.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* A reason is one line of printable ASCII: tokens are vis(3)-escaped. */
static bool
printable(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s < ' ' || *s > '~')
			return false;
	return true;
}

/* "A-B:U/G" is the CPUs k in A..B with (k - A) % G < U. */
static int
ref_region(const char **sp, bool *ref, unsigned int nbits)
{
	unsigned long long v[4] = { 0, 0, 1, 1 }, k;
	const char *s = *sp;
	int i;

	for (i = 0; i < 4; i++) {
		if (*s < '0' || *s > '9')
			return -2;
		for (v[i] = 0; *s >= '0' && *s <= '9'; s++)
			if (v[i] <= UINT_MAX)
				v[i] = v[i] * 10 + (*s - '0');
		if (i == 0 && *s != '-') {
			v[1] = v[0];
			break;
		}
		if (i == 1 && *s != ':')
			break;
		if (i < 3 && *s != "-:/"[i])
			return -2;
		if (i < 3)
			s++;
	}
	if (i == 1 && v[1] + 1 > UINT_MAX)
		return -1;
	if (v[0] > UINT_MAX || v[1] > UINT_MAX || v[2] > UINT_MAX ||
	    v[3] > UINT_MAX || v[0] > v[1] || v[3] == 0 || v[2] > v[3] ||
	    v[1] >= nbits)
		return -1;
	for (k = v[0]; k <= v[1]; k++)
		if ((k - v[0]) % v[3] < v[2])
			ref[k] = true;
	*sp = s;
	return 0;
}

/* 0 with ref filled in, -1 for a list the kernel refuses, -2 not plain. */
static int
ref_parse(const char *s, bool *ref, unsigned int nbits)
{
	int rc;

	if (*s == '\0')
		return -2;
	for (;;) {
		if ((rc = ref_region(&s, ref, nbits)) != 0)
			return rc;
		if (*s == '\0')
			return 0;
		if (*s++ != ',')
			return -2;
	}
}

static void
check_ref(const struct cpuset *set, int rc, const char *s)
{
	static bool ref[8192];
	unsigned int cpu;
	int want;

	memset(ref, 0, sizeof(ref));
	if ((want = ref_parse(s, ref, set->nbits)) == -2)
		return;
	if ((want == 0) != (rc == 0))
		abort();
	for (cpu = 0; want == 0 && cpu < set->nbits; cpu++)
		if (ref[cpu] != cpuset_test(set, cpu))
			abort();
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

	for (cpu = set->nbits; cpu % 32 != 0; cpu++)
		if (bit_test(set->bits, cpu))
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
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
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
	if ((rc = cpulist_parse(set, s, &pe)) != 0)
		check_error(set, rc, &pe);
	else {
		check_set(set);
		roundtrip(set);
	}
	check_ref(set, rc, s);
	cpuset_free(set);
	free(s);
	return 0;
}
