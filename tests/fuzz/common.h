/* Shared by the libFuzzer harnesses. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/interrupts.h"
#include "lib/irqsel.h"
#include "lib/snapline.h"
#include "lib/text.h"
#include "parse.h"

typedef int parse_fn(struct cpuset *, const char *, struct perr *);
typedef void also_fn(const struct cpuset *, int, const char *);

bool	 printable(const char *);
int	 fuzz_cpuset(const uint8_t *, size_t, parse_fn *, also_fn *);

#endif
