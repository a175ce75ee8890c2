/*
 * The word-wise set operations and printers of parse.c against a reading
 * of the same sets one bit at a time: two widths from the first four
 * bytes (1 to 2048 bits: 32 words, and numbers of four digits, are enough
 * to reach every path), then the bits of two sets, byte by byte.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define MAXBITS	2048

struct ref {
	unsigned int	 nbits;
	bool		 bit[MAXBITS];
};

static struct cpuset *
make(const struct ref *r)
{
	struct cpuset *s;
	unsigned int cpu;

	if ((s = cpuset_new(r->nbits)) == NULL)
		abort();
	for (cpu = 0; cpu < r->nbits; cpu++)
		if (r->bit[cpu])
			cpuset_set(s, cpu);
	cpuset_set(s, r->nbits);	/* past the end: ignored */
	return s;
}

static void
same(const struct cpuset *s, const struct ref *r)
{
	unsigned int cpu;

	if (s->nbits != r->nbits)
		abort();
	for (cpu = 0; cpu < r->nbits; cpu++)
		if (cpuset_test(s, cpu) != r->bit[cpu])
			abort();
	for (cpu = r->nbits; cpu % 64 != 0; cpu++)
		if (s->words[cpu / 64] >> (cpu % 64) & 1)
			abort();
	if (cpuset_test(s, r->nbits) || cpuset_test(s, r->nbits + 64))
		abort();
}

/* %*pbl as lib/vsprintf.c writes it, a bit at a time. */
static char *
ref_list(const struct ref *r)
{
	char *buf, *p;
	unsigned int lo, hi;

	if ((buf = malloc(12 * (size_t)r->nbits + 1)) == NULL)
		abort();
	p = buf;
	*p = '\0';
	for (lo = 0; lo < r->nbits; lo = hi + 1) {
		if (!r->bit[lo]) {
			hi = lo;
			continue;
		}
		for (hi = lo; hi + 1 < r->nbits && r->bit[hi + 1]; hi++)
			;
		p += sprintf(p, "%s%u", p > buf ? "," : "", lo);
		if (hi > lo)
			p += sprintf(p, "-%u", hi);
	}
	return buf;
}

/* %*pb: 32-bit words from the top, the first as wide as its bits need. */
static char *
ref_mask(const struct ref *r)
{
	unsigned int words = (r->nbits + 31) / 32, w, i, val;
	unsigned int top = r->nbits % 32 ? r->nbits % 32 : 32;
	char *buf, *p;

	if ((buf = malloc(9 * (size_t)words + 1)) == NULL)
		abort();
	p = buf;
	for (w = words; w-- > 0;) {
		for (val = 0, i = 0; i < 32 && w * 32 + i < r->nbits; i++)
			if (r->bit[w * 32 + i])
				val |= 1U << i;
		p += sprintf(p, "%s%0*x", w + 1 == words ? "" : ",",
		    w + 1 == words ? (int)(top + 3) / 4 : 8, val);
	}
	return buf;
}

static void
check_queries(const struct cpuset *s, const struct ref *r)
{
	unsigned int cpu, n = 0;
	int next = -1, last = -1;

	for (cpu = 0; cpu < r->nbits; cpu++)
		if (r->bit[cpu]) {
			n++;
			last = cpu;
		}
	if (cpuset_count(s) != n || cpuset_last(s) != last ||
	    cpuset_empty(s) != (n == 0))
		abort();
	for (cpu = r->nbits + 2; cpu-- > 0;) {
		if (cpu < r->nbits && r->bit[cpu])
			next = cpu;
		if (cpuset_next(s, cpu) != next)
			abort();
	}
	if (cpuset_first(s) != next)
		abort();
}

static void
check_text(const struct cpuset *s, const struct ref *r)
{
	struct cpuset *again;
	struct perr pe;
	char *got, *want;

	if ((again = cpuset_new(r->nbits)) == NULL)
		abort();
	got = cpulist_format(s);
	want = ref_list(r);
	if (got == NULL || strcmp(got, want) != 0 ||
	    cpulist_parse(again, got, &pe) != 0)
		abort();
	same(again, r);
	free(got);
	free(want);
	got = cpumask_format(s);
	want = ref_mask(r);
	if (got == NULL || strcmp(got, want) != 0 ||
	    cpumask_parse(again, got, &pe) != 0)
		abort();
	same(again, r);
	free(got);
	free(want);
	cpuset_free(again);
}

/* op on a copy of a, with b as the operand: a and b as refs alike. */
static void
check_op(const struct cpuset *a, const struct cpuset *b,
    const struct ref *ra, const struct ref *rb, char op)
{
	static struct ref want;
	struct cpuset *d;
	unsigned int cpu;
	bool other;

	if ((d = cpuset_dup(a)) == NULL)
		abort();
	want.nbits = ra->nbits;
	for (cpu = 0; cpu < ra->nbits; cpu++) {
		other = cpu < rb->nbits && rb->bit[cpu];
		if (op == '&')
			want.bit[cpu] = ra->bit[cpu] && other;
		else if (op == '|')
			want.bit[cpu] = ra->bit[cpu] || other;
		else if (op == '-')
			want.bit[cpu] = ra->bit[cpu] && !other;
		else
			want.bit[cpu] = other;
	}
	if (op == '&')
		cpuset_and(d, b);
	else if (op == '|')
		cpuset_or(d, b);
	else if (op == '-')
		cpuset_andnot(d, b);
	else
		cpuset_copy(d, b);
	same(d, &want);
	cpuset_free(d);
}

static void
check_pair(const struct cpuset *a, const struct cpuset *b,
    const struct ref *ra, const struct ref *rb)
{
	unsigned int cpu;
	bool equal = true, meet = false, x, y;

	for (cpu = 0; cpu < MAXBITS; cpu++) {
		x = cpu < ra->nbits && ra->bit[cpu];
		y = cpu < rb->nbits && rb->bit[cpu];
		equal = equal && x == y;
		meet = meet || (x && y);
	}
	if (cpuset_equal(a, b) != equal || cpuset_equal(b, a) != equal ||
	    cpuset_intersects(a, b) != meet || !cpuset_equal(a, a))
		abort();
	check_op(a, b, ra, rb, '&');
	check_op(a, b, ra, rb, '|');
	check_op(a, b, ra, rb, '-');
	check_op(a, b, ra, rb, '=');
}

/* The bits of r from data, a bit per input bit, zero past its end. */
static void
fill(struct ref *r, unsigned int nbits, const uint8_t *data, size_t size)
{
	unsigned int cpu;

	r->nbits = nbits;
	for (cpu = 0; cpu < nbits; cpu++)
		r->bit[cpu] = cpu / 8 < size &&
		    (data[cpu / 8] >> (cpu % 8) & 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ref ra, rb;
	struct cpuset *a, *b;
	size_t half;

	if (size < 4)
		return 0;
	half = (size - 4) / 2;
	fill(&ra, 1 + (data[0] | data[1] << 8) % MAXBITS, data + 4, half);
	fill(&rb, 1 + (data[2] | data[3] << 8) % MAXBITS, data + 4 + half,
	    size - 4 - half);
	a = make(&ra);
	b = make(&rb);
	same(a, &ra);
	same(b, &rb);
	check_queries(a, &ra);
	check_text(a, &ra);
	check_pair(a, b, &ra, &rb);
	cpuset_free(a);
	cpuset_free(b);
	return 0;
}
