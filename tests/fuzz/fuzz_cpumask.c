/*
 * cpumask_parse() on any input at any width from 1 to 8192 bits, with the
 * checks of common.c.
 */
#include "common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_cpuset(data, size, cpumask_parse, NULL);
}
