/*
 * cpulist_parse() on any input at any width from 1 to 8192 bits, with the
 * checks of common.c. Lists of plain decimal regions ("A", "A-B",
 * "A-B:U/G", comma-separated) are also checked against a 64-bit reading
 * of what they mean.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_cpuset(data, size, cpulist_parse, check_ref);
}
