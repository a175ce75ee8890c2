/*
 * The kernel's CPU list and mask grammars, both ways, on a run-time sized
 * bitmap. The list parser follows bitmap_parselist() and the mask parser
 * bitmap_parse() in lib/bitmap-str.c; the printers follow the %*pbl and
 * %*pb formats of lib/vsprintf.c. No I/O, no printing.
 */
#include <sys/param.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cpuset.h"

static size_t
nbytes(unsigned int nbits)
{
	return howmany(nbits, 32) * 4;
}

struct cpuset *
cpuset_new(unsigned int nbits)
{
	struct cpuset *s;

	if (nbits == 0 || nbits > CPUSET_MAXBITS) {
		errno = EINVAL;
		return NULL;
	}
	if ((s = malloc(sizeof(*s))) == NULL)
		return NULL;
	if ((s->bits = calloc(nbytes(nbits), 1)) == NULL) {
		free(s);
		return NULL;
	}
	s->nbits = nbits;
	return s;
}

struct cpuset *
cpuset_dup(const struct cpuset *s)
{
	struct cpuset *d;

	if ((d = cpuset_new(s->nbits)) != NULL)
		memcpy(d->bits, s->bits, nbytes(s->nbits));
	return d;
}

void
cpuset_free(struct cpuset *s)
{
	if (s == NULL)
		return;
	free(s->bits);
	free(s);
}

void
cpuset_zero(struct cpuset *s)
{
	memset(s->bits, 0, nbytes(s->nbits));
}

/* Copies what fits; bits past the destination's width are dropped. */
void
cpuset_copy(struct cpuset *d, const struct cpuset *s)
{
	cpuset_zero(d);
	memcpy(d->bits, s->bits, MIN(nbytes(d->nbits), nbytes(s->nbits)));
	if (s->nbits > d->nbits && d->nbits % 8)
		d->bits[d->nbits / 8] &= (1U << (d->nbits % 8)) - 1;
	if (s->nbits > d->nbits)
		memset(d->bits + howmany(d->nbits, 8), 0,
		    nbytes(d->nbits) - howmany(d->nbits, 8));
}

void
cpuset_set(struct cpuset *s, unsigned int cpu)
{
	if (cpu < s->nbits)
		bit_set(s->bits, cpu);
}

bool
cpuset_test(const struct cpuset *s, unsigned int cpu)
{
	return cpu < s->nbits && bit_test(s->bits, cpu);
}

unsigned int
cpuset_count(const struct cpuset *s)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < nbytes(s->nbits); i++)
		n += __builtin_popcount(s->bits[i]);
	return n;
}

int
cpuset_next(const struct cpuset *s, unsigned int from)
{
	unsigned int b;

	while (from < s->nbits) {
		b = s->bits[from / 8] >> (from % 8);
		if (b != 0)
			return from + __builtin_ctz(b);
		from = (from | 7) + 1;
	}
	return -1;
}

int
cpuset_first(const struct cpuset *s)
{
	return cpuset_next(s, 0);
}

int
cpuset_last(const struct cpuset *s)
{
	size_t i;

	for (i = howmany(s->nbits, 8); i-- > 0;)
		if (s->bits[i] != 0)
			return i * 8 + 31 - __builtin_clz(s->bits[i]);
	return -1;
}

bool
cpuset_empty(const struct cpuset *s)
{
	return cpuset_first(s) < 0;
}

/* Sets of different widths compare as if the narrower were zero-extended. */
bool
cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	size_t na = nbytes(a->nbits), nb = nbytes(b->nbits), i;

	for (i = 0; i < MAX(na, nb); i++)
		if ((i < na ? a->bits[i] : 0) != (i < nb ? b->bits[i] : 0))
			return false;
	return true;
}

bool
cpuset_intersects(const struct cpuset *a, const struct cpuset *b)
{
	size_t i;

	for (i = 0; i < MIN(nbytes(a->nbits), nbytes(b->nbits)); i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

void
cpuset_and(struct cpuset *d, const struct cpuset *s)
{
	size_t i, ns = nbytes(s->nbits);

	for (i = 0; i < nbytes(d->nbits); i++)
		d->bits[i] &= i < ns ? s->bits[i] : 0;
}

void
cpuset_or(struct cpuset *d, const struct cpuset *s)
{
	int cpu;

	for (cpu = cpuset_first(s); cpu >= 0; cpu = cpuset_next(s, cpu + 1))
		cpuset_set(d, cpu);
}

void
cpuset_andnot(struct cpuset *d, const struct cpuset *s)
{
	size_t i;

	for (i = 0; i < MIN(nbytes(d->nbits), nbytes(s->nbits)); i++)
		d->bits[i] &= ~s->bits[i];
}

/* Whitespace as the kernel's isspace() sees it, ASCII only. */
static bool
is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool
is_sep(int c)
{
	return is_space(c) || c == ',';
}

static bool
end_of_str(int c)
{
	return c == '\0' || c == '\n';
}

static bool
end_of_region(int c)
{
	return is_sep(c) || end_of_str(c);
}

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

struct region {
	const char	*text;
	size_t		 len;
	unsigned int	 start, end, used, group;
	bool		 pattern;
};

static const char *
region_text(char *buf, size_t size, const struct region *r)
{
	return visquote(buf, size, r->text, r->len);
}

/* bitmap_getnum(): 'N' is the last bit, otherwise an unsigned decimal. */
static int
getnum(const char **sp, unsigned int *num, unsigned int last,
    const struct region *r, struct perr *pe)
{
	const char *s = *sp, *p;
	unsigned long long n = 0;
	char b1[TOKBUF], b2[TOKBUF];

	if (*s == 'N') {
		*num = last;
		*sp = s + 1;
		return 0;
	}
	if (!is_digit(*s)) {
		if (end_of_region(*s))
			return perr_set(pe, EINVAL,
			    "region \"%s\" ends where a number should be",
			    region_text(b1, sizeof(b1), r));
		return perr_set(pe, EINVAL, "region \"%s\": \"%s\" is not a number",
		    region_text(b1, sizeof(b1), r),
		    visquote(b2, sizeof(b2), s, strcspn(s, ",-:/ \t\n\v\f\r")));
	}
	for (p = s; is_digit(*p); p++)
		if (n <= UINT_MAX)
			n = n * 10 + (*p - '0');
	if (n > UINT_MAX)
		return perr_set(pe, EOVERFLOW, "number %s is too large",
		    visquote(b1, sizeof(b1), s, p - s));
	*num = n;
	*sp = p;
	return 0;
}

static int
unexpected(const char *s, const struct region *r, struct perr *pe)
{
	char b1[TOKBUF], b2[TOKBUF];

	if (end_of_region(*s))
		return perr_set(pe, EINVAL, "region \"%s\" is incomplete",
		    region_text(b1, sizeof(b1), r));
	return perr_set(pe, EINVAL, "region \"%s\": unexpected \"%s\"",
	    region_text(b1, sizeof(b1), r), visquote(b2, sizeof(b2), s, 1));
}

/* bitmap_parse_region(); *sp becomes NULL at the end of the string. */
static int
parse_region(const char **sp, struct region *r, unsigned int nbits,
    struct perr *pe)
{
	const char *s = *sp;
	unsigned int last = nbits - 1;
	int rc;

	r->text = s;
	r->len = 0;
	while (!end_of_region(s[r->len]))
		r->len++;
	r->pattern = false;

	if (strncasecmp(s, "all", 3) == 0) {
		r->start = 0;
		r->end = last;
		s += 3;
		goto pattern;
	}
	if ((rc = getnum(&s, &r->start, last, r, pe)) != 0)
		return rc;
	if (end_of_region(*s)) {
		r->end = r->start;
		goto no_pattern;
	}
	if (*s != '-')
		return unexpected(s, r, pe);
	s++;
	if ((rc = getnum(&s, &r->end, last, r, pe)) != 0)
		return rc;
pattern:
	if (end_of_region(*s))
		goto no_pattern;
	if (*s != ':')
		return unexpected(s, r, pe);
	s++;
	if ((rc = getnum(&s, &r->used, last, r, pe)) != 0)
		return rc;
	if (*s != '/')
		return unexpected(s, r, pe);
	s++;
	if ((rc = getnum(&s, &r->group, last, r, pe)) != 0)
		return rc;
	r->pattern = true;
	*sp = s;
	return 0;
no_pattern:
	r->used = r->group = r->end + 1;
	*sp = end_of_str(*s) ? NULL : s;
	return 0;
}

/* bitmap_check_region(): syntax is checked before range, as there. */
static int
check_region(const struct region *r, unsigned int nbits, struct perr *pe)
{
	char b[TOKBUF];

	if (r->start > r->end)
		return perr_set(pe, EINVAL, "region \"%s\" runs backwards",
		    region_text(b, sizeof(b), r));
	if (r->group == 0 && !r->pattern)	/* end + 1 wrapped */
		return perr_set(pe, EINVAL, "number %u is too large", r->end);
	if (r->group == 0)
		return perr_set(pe, EINVAL, "region \"%s\" has a group size of 0",
		    region_text(b, sizeof(b), r));
	if (r->used > r->group)
		return perr_set(pe, EINVAL,
		    "region \"%s\" uses %u CPUs out of groups of %u",
		    region_text(b, sizeof(b), r), r->used, r->group);
	if (r->end >= nbits)
		return perr_set(pe, ERANGE,
		    "CPU %u is beyond the last possible CPU %u",
		    r->end, nbits - 1);
	return 0;
}

int
cpulist_parse(struct cpuset *set, const char *s, struct perr *pe)
{
	struct region r;
	unsigned int start;
	int rc;

	cpuset_zero(set);
	while (s != NULL) {
		while (is_sep(*s))
			s++;
		if (end_of_str(*s))
			return 0;
		if ((rc = parse_region(&s, &r, set->nbits, pe)) != 0 ||
		    (rc = check_region(&r, set->nbits, pe)) != 0) {
			cpuset_zero(set);
			return rc;
		}
		for (start = r.start; start <= r.end && start >= r.start;
		    start += r.group)
			if (r.used > 0)
				bit_nset(set->bits, start,
				    start + MIN(r.end - start, r.used - 1));
	}
	return 0;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void
put_word(struct cpuset *set, size_t word, unsigned int val)
{
	size_t i;

	for (i = 0; i < 4; i++)
		set->bits[word * 4 + i] = (val >> (8 * i)) & 0xff;
}

/* Bits at or past nbits may sit in the top word; refuse and clear them. */
static int
check_tail(struct cpuset *set, struct perr *pe)
{
	unsigned int cpu;

	for (cpu = set->nbits; cpu < nbytes(set->nbits) * 8; cpu++)
		if (bit_test(set->bits, cpu)) {
			cpuset_zero(set);
			return perr_set(pe, EOVERFLOW,
			    "CPU %u is beyond the last possible CPU %u",
			    cpu, set->nbits - 1);
		}
	return 0;
}

/* Extension: one comma-free hex number of any length, as taskset takes. */
static int
parse_long_hex(struct cpuset *set, const char *start, const char *end,
    struct perr *pe)
{
	const char *p;
	unsigned int bit = 0, v, i;

	for (p = end; p > start; bit += 4) {
		v = hexval(*--p);
		for (i = 0; i < 4; i++) {
			if ((v & (1U << i)) == 0)
				continue;
			if (bit + i >= set->nbits) {
				cpuset_zero(set);
				return perr_set(pe, EOVERFLOW,
				    "CPU %u is beyond the last possible CPU %u",
				    bit + i, set->nbits - 1);
			}
			bit_set(set->bits, bit + i);
		}
		if (bit > CPUSET_MAXBITS)
			bit = CPUSET_MAXBITS;
	}
	return 0;
}

/*
 * bitmap_parse(): comma-separated 32-bit words, the last one holding bits
 * 0-31, read from the end; whitespace also separates, the first newline
 * ends the string. Extensions: a leading 0x, and one long comma-free word.
 * The kernel skips the character before a full eight-digit word without
 * looking at it; here it must be a separator.
 */
int
cpumask_parse(struct cpuset *set, const char *s, struct perr *pe)
{
	const char *start = s, *end, *p, *w;	/* end: one past the last */
	size_t words = howmany(set->nbits, 32), word;
	unsigned int val;
	char b[TOKBUF];
	int i, c;

	cpuset_zero(set);
	end = start + strcspn(start, "\n");
	while (start < end && is_space(*start))
		start++;
	while (start < end && is_space(end[-1]))
		end--;
	if (end - start >= 2 && start[0] == '0' &&
	    (start[1] == 'x' || start[1] == 'X')) {
		start += 2;
		if (start == end || !isxdigit((unsigned char)*start))
			return perr_set(pe, EINVAL, "\"%s\" has no hex digits",
			    visquote(b, sizeof(b), start - 2, end - start + 2));
	}
	for (p = start; p < end && hexval(*p) >= 0; p++)
		;
	if (p == end && end - start > 8)
		return parse_long_hex(set, start, end, pe);

	for (word = 0;; word++) {
		while (start < end && is_sep(end[-1]))
			end--;
		if (start == end)
			break;
		if (word == words) {
			cpuset_zero(set);
			return perr_set(pe, EOVERFLOW,
			    "more than the %zu 32-bit word%s that %u CPUs need",
			    words, words == 1 ? "" : "s", set->nbits);
		}
		val = 0;
		for (i = 0; i < 32; i += 4) {
			if ((c = hexval(end[-1])) < 0) {
				cpuset_zero(set);
				return perr_set(pe, EINVAL,
				    "\"%s\" is not a hex digit",
				    visquote(b, sizeof(b), end - 1, 1));
			}
			val |= (unsigned int)c << i;
			end--;
			if (start == end || is_sep(end[-1]))
				break;
		}
		if (i == 32 && start < end) {
			cpuset_zero(set);
			for (w = end - 1; w > start && !is_sep(w[-1]); w--)
				;
			if (hexval(end[-1]) >= 0)
				return perr_set(pe, EOVERFLOW,
				    "word \"%s\" is longer than 8 hex digits",
				    visquote(b, sizeof(b), w,
				    strcspn(w, ", \t\n\v\f\r")));
			return perr_set(pe, EINVAL, "\"%s\" is not a hex digit",
			    visquote(b, sizeof(b), end - 1, 1));
		}
		put_word(set, word, val);
	}
	return check_tail(set, pe);
}

/*
 * %*pbl: "a-b" for runs of two or more, "a" alone, comma-separated.
 * Writes at most size bytes into buf when buf is not NULL; returns the
 * full length either way.
 */
static size_t
list_emit(const struct cpuset *s, char *buf, size_t size)
{
	size_t len = 0;
	int lo, hi;
	char tmp[32];
	int n;

	for (lo = cpuset_first(s); lo >= 0; lo = cpuset_next(s, hi + 1)) {
		for (hi = lo; cpuset_test(s, hi + 1); hi++)
			;
		if (hi > lo)
			n = snprintf(tmp, sizeof(tmp), "%s%d-%d",
			    len ? "," : "", lo, hi);
		else
			n = snprintf(tmp, sizeof(tmp), "%s%d",
			    len ? "," : "", lo);
		if (buf != NULL && len + n < size)
			memcpy(buf + len, tmp, n);
		len += n;
		if (hi + 1 >= (int)s->nbits)
			break;
	}
	if (buf != NULL && len < size)
		buf[len] = '\0';
	return len;
}

char *
cpulist_format(const struct cpuset *s)
{
	size_t len = list_emit(s, NULL, 0);
	char *buf;

	if ((buf = malloc(len + 1)) != NULL)
		list_emit(s, buf, len + 1);
	return buf;
}

/* %*pb: 32-bit words from the top, the first padded to its own width. */
char *
cpumask_format(const struct cpuset *s)
{
	size_t words = howmany(s->nbits, 32), w, len;
	unsigned int top = s->nbits % 32 ? s->nbits % 32 : 32;
	int width = howmany(top, 4);
	unsigned int val;
	char *buf, *p;

	len = width + (words - 1) * 9 + 1;
	if ((buf = malloc(len)) == NULL)
		return NULL;
	p = buf;
	for (w = words; w-- > 0;) {
		val = s->bits[w * 4] | s->bits[w * 4 + 1] << 8 |
		    s->bits[w * 4 + 2] << 16 |
		    (unsigned int)s->bits[w * 4 + 3] << 24;
		p += snprintf(p, buf + len - p, "%s%0*x",
		    w + 1 == words ? "" : ",", width, val);
		width = 8;
	}
	return buf;
}
