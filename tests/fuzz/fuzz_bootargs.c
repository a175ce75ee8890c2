/*
 * bootargs_parse() on any command line: it returns 0, each set it gives
 * has a value as written beside it, the sets fit the width, and the
 * isolcpus= flags are only the kernel's three. A line that names none of
 * the parameters gives nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "lib/bootargs.h"

static void
check_set(const struct cpuset *set, const char *arg, unsigned int nbits)
{
	if (set != NULL && (arg == NULL || set->nbits != nbits))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int widths[] = { 1, 4, 64, 8192 };
	struct bootargs b;
	unsigned int nbits;
	char *s;

	if (size == 0 || (s = malloc(size)) == NULL)
		return 0;
	nbits = widths[data[0] % 4];
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (bootargs_parse(s, nbits, &b) != 0)
		abort();
	check_set(b.irqaffinity, b.irqaffinity_arg, nbits);
	check_set(b.isolcpus, b.isolcpus_arg, nbits);
	check_set(b.nohz_full, b.nohz_full_arg, nbits);
	if (b.isolflags & ~(ISOL_DOMAIN | ISOL_NOHZ | ISOL_MANAGED_IRQ))
		abort();
	if (b.isolcpus_arg != NULL && b.isolflags == 0)
		abort();
	if ((b.irqaffinity_arg != NULL && strstr(s, "irqaffinity=") == NULL) ||
	    (b.isolcpus_arg != NULL && strstr(s, "isolcpus=") == NULL) ||
	    (b.nohz_full_arg != NULL && strstr(s, "nohz_full=") == NULL))
		abort();
	bootargs_free(&b);
	free(s);
	return 0;
}
