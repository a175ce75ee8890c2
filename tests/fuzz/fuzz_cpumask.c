/*
 * cpumask_parse() on any input at any width from 1 to 8192 bits, with the
 * checks of common.c. Masks of nothing but hex digits and commas are also
 * checked against a reading of them a bit at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"

static int
ref_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The digits from end back to start, the last one holding bits from
 * first up; false when a set bit lies at or past nbits.
 */
static bool
ref_digits(const char *start, const char *end, size_t first, bool *ref,
    unsigned int nbits)
{
	size_t bit = first;
	int v, i;

	for (; end > start; bit += 4) {
		v = ref_hex(*--end);
		for (i = 0; i < 4; i++)
			if (v & (1 << i)) {
				if (bit + i >= nbits)
					return false;
				ref[bit + i] = true;
			}
	}
	return true;
}

/*
 * 0 with ref filled in, -1 for a mask the kernel refuses, -2 not plain.
 * Commas split 32-bit words of at most 8 digits, empty ones skipped; one
 * comma-free word may be longer.
 */
static int
ref_parse(const char *s, bool *ref, unsigned int nbits)
{
	const char *end = s + strlen(s), *w;
	size_t word = 0;

	if (strspn(s, "0123456789abcdefABCDEF,") != strlen(s))
		return -2;
	if (strchr(s, ',') == NULL)
		return ref_digits(s, end, 0, ref, nbits) ? 0 : -1;
	while (end > s) {
		for (w = end; w > s && w[-1] != ','; w--)
			;
		if (w == end) {
			end--;
			continue;
		}
		if (end - w > 8 || word == (nbits + 31) / 32 ||
		    !ref_digits(w, end, 32 * word, ref, nbits))
			return -1;
		word++;
		end = w;
	}
	return 0;
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
	return fuzz_cpuset(data, size, cpumask_parse, check_ref);
}
