/*
 * The kernel's CPU list and mask grammars, both ways, on a run-time sized
 * bitmap of 64-bit words. The list parser follows bitmap_parselist() and
 * the mask parser bitmap_parse() in lib/bitmap-str.c; the printers follow
 * the %*pbl and %*pb formats of lib/vsprintf.c. Also the sentence every
 * parser returns (struct perr) and its quoted tokens. No I/O, no printing.
 */
#include <sys/param.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#define LIBBSD_NETBSD_VIS	/* strnvisx() as NetBSD and FreeBSD have it */
#include <vis.h>

#include "parse.h"

/* Fills pe, when given, and returns -code: "return perr_set(...)". */
int
perr_set(struct perr *pe, int code, const char *fmt, ...)
{
	va_list ap;

	if (pe != NULL) {
		pe->code = code;
		va_start(ap, fmt);
		vsnprintf(pe->msg, sizeof(pe->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

/*
 * The errno of a failed system call that perr_set() was given with its
 * strerror() last, as the readers of files give it; 0 for a parser's
 * refusal, which has an errno but no system call.
 */
int
perr_errno(const struct perr *pe)
{
	const char *s = strerror(pe->code);
	size_t len = strlen(pe->msg), slen = strlen(s);

	if (pe->code == 0 || len < slen + 2 ||
	    strncmp(pe->msg + len - slen - 2, ": ", 2) != 0 ||
	    strcmp(pe->msg + len - slen, s) != 0)
		return 0;
	return pe->code;
}

/*
 * A token for a message: vis(3) escapes keep it on one line, and it is
 * cut to what fits, (size - 4) / 4 bytes of input, with "..." after.
 */
const char *
perr_quote(char *buf, size_t size, const char *s, size_t len)
{
	size_t max = (size - 4) / 4;

	strnvisx(buf, size - 3, s, MIN(len, max),
	    VIS_CSTYLE | VIS_OCTAL | VIS_NL | VIS_TAB);
	if (len > max)
		strlcat(buf, "...", size);
	return buf;
}

static size_t
nwords(unsigned int nbits)
{
	return howmany(nbits, 64);
}

/* The bits of the last word that lie below nbits. */
static uint64_t
tail_mask(unsigned int nbits)
{
	return nbits % 64 ? ~0ULL >> (64 - nbits % 64) : ~0ULL;
}

static void
clear_tail(struct cpuset *s)
{
	s->words[nwords(s->nbits) - 1] &= tail_mask(s->nbits);
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
	if ((s->words = calloc(nwords(nbits), sizeof(*s->words))) == NULL) {
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
		memcpy(d->words, s->words,
		    nwords(s->nbits) * sizeof(*s->words));
	return d;
}

void
cpuset_free(struct cpuset *s)
{
	if (s == NULL)
		return;
	free(s->words);
	free(s);
}

void
cpuset_zero(struct cpuset *s)
{
	memset(s->words, 0, nwords(s->nbits) * sizeof(*s->words));
}

/* Copies what fits; bits past the destination's width are dropped. */
void
cpuset_copy(struct cpuset *d, const struct cpuset *s)
{
	cpuset_zero(d);
	memcpy(d->words, s->words,
	    MIN(nwords(d->nbits), nwords(s->nbits)) * sizeof(*s->words));
	clear_tail(d);
}

void
cpuset_set(struct cpuset *s, unsigned int cpu)
{
	if (cpu < s->nbits)
		s->words[cpu / 64] |= 1ULL << (cpu % 64);
}

bool
cpuset_test(const struct cpuset *s, unsigned int cpu)
{
	return cpu < s->nbits && (s->words[cpu / 64] >> (cpu % 64) & 1);
}

/* Sets the CPUs lo to hi, both below nbits. */
static void
set_range(struct cpuset *s, unsigned int lo, unsigned int hi)
{
	size_t i = lo / 64, last = hi / 64;
	uint64_t first = ~0ULL << (lo % 64), end = ~0ULL >> (63 - hi % 64);

	if (i == last) {
		s->words[i] |= first & end;
		return;
	}
	s->words[i++] |= first;
	while (i < last)
		s->words[i++] = ~0ULL;
	s->words[last] |= end;
}

unsigned int
cpuset_count(const struct cpuset *s)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < nwords(s->nbits); i++)
		n += __builtin_popcountll(s->words[i]);
	return n;
}

/* The first CPU at or after from that is in the set, or nbits. */
static unsigned int
next_set(const struct cpuset *s, unsigned int from)
{
	size_t i = from / 64, n = nwords(s->nbits);
	uint64_t w;

	if (from >= s->nbits)
		return s->nbits;
	w = s->words[i] & (~0ULL << (from % 64));
	while (w == 0) {
		if (++i == n)
			return s->nbits;
		w = s->words[i];
	}
	return i * 64 + __builtin_ctzll(w);
}

int
cpuset_next(const struct cpuset *s, unsigned int from)
{
	unsigned int cpu = next_set(s, from);

	return cpu < s->nbits ? (int)cpu : -1;
}

/* The first CPU at or after from that is not in the set, or nbits. */
static unsigned int
next_clear(const struct cpuset *s, unsigned int from)
{
	size_t i = from / 64, n = nwords(s->nbits);
	uint64_t w;

	if (from >= s->nbits)
		return s->nbits;
	/* the tail bits are zero, so a run stops at nbits at the latest */
	w = ~s->words[i] & (~0ULL << (from % 64));
	while (w == 0) {
		if (++i == n)
			return s->nbits;
		w = ~s->words[i];
	}
	return i * 64 + __builtin_ctzll(w);
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

	for (i = nwords(s->nbits); i-- > 0;)
		if (s->words[i] != 0)
			return i * 64 + 63 - __builtin_clzll(s->words[i]);
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
	size_t na = nwords(a->nbits), nb = nwords(b->nbits), i;

	for (i = 0; i < MAX(na, nb); i++)
		if ((i < na ? a->words[i] : 0) != (i < nb ? b->words[i] : 0))
			return false;
	return true;
}

bool
cpuset_intersects(const struct cpuset *a, const struct cpuset *b)
{
	size_t i;

	for (i = 0; i < MIN(nwords(a->nbits), nwords(b->nbits)); i++)
		if (a->words[i] & b->words[i])
			return true;
	return false;
}

/* Is every CPU of a also in b? */
bool
cpuset_subset(const struct cpuset *a, const struct cpuset *b)
{
	size_t i;

	for (i = 0; i < nwords(a->nbits); i++)
		if (a->words[i] &
		    ~(i < nwords(b->nbits) ? b->words[i] : 0))
			return false;
	return true;
}

void
cpuset_and(struct cpuset *d, const struct cpuset *s)
{
	size_t i, ns = nwords(s->nbits);

	for (i = 0; i < nwords(d->nbits); i++)
		d->words[i] &= i < ns ? s->words[i] : 0;
}

/* Bits past the destination's width are dropped. */
void
cpuset_or(struct cpuset *d, const struct cpuset *s)
{
	size_t i;

	for (i = 0; i < MIN(nwords(d->nbits), nwords(s->nbits)); i++)
		d->words[i] |= s->words[i];
	clear_tail(d);
}

void
cpuset_andnot(struct cpuset *d, const struct cpuset *s)
{
	size_t i;

	for (i = 0; i < MIN(nwords(d->nbits), nwords(s->nbits)); i++)
		d->words[i] &= ~s->words[i];
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
	return perr_quote(buf, size, r->text, r->len);
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
		return perr_set(pe, EINVAL,
		    "region \"%s\": \"%s\" is not a number",
		    region_text(b1, sizeof(b1), r),
		    perr_quote(b2, sizeof(b2), s, strcspn(s,
		    ",-:/ \t\n\v\f\r")));
	}
	for (p = s; is_digit(*p); p++)
		if (n <= UINT_MAX)
			n = n * 10 + (*p - '0');
	if (n > UINT_MAX)
		return perr_set(pe, EOVERFLOW, "number %s is too large",
		    perr_quote(b1, sizeof(b1), s, p - s));
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
	    region_text(b1, sizeof(b1), r), perr_quote(b2, sizeof(b2), s,
	    1));
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

	if ((*s == 'a' || *s == 'A') && strncasecmp(s, "all", 3) == 0) {
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
		return perr_set(pe, EINVAL, "number %u is too large",
		    r->end);
	if (r->group == 0)
		return perr_set(pe, EINVAL,
		    "region \"%s\" has a group size of 0",
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
		if (r.used == 0)
			continue;
		for (start = r.start; start <= r.end && start >= r.start;
		    start += r.group)
			set_range(set, start,
			    start + MIN(r.end - start, r.used - 1));
	}
	return 0;
}

/* The value of each hex digit, -1 for any other byte. */
static const signed char hexdigit[256] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, -1, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

static int
hexval(char c)
{
	return hexdigit[(unsigned char)c];
}

/* Bits at or past nbits may sit in the top word; refuse and clear them. */
static int
check_tail(struct cpuset *set, struct perr *pe)
{
	size_t top = nwords(set->nbits) - 1;
	uint64_t over = set->words[top] & ~tail_mask(set->nbits);

	if (over == 0)
		return 0;
	cpuset_zero(set);
	return perr_set(pe, EOVERFLOW,
	    "CPU %zu is beyond the last possible CPU %u",
	    top * 64 + __builtin_ctzll(over), set->nbits - 1);
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
			set->words[(bit + i) / 64] |= 1ULL << ((bit + i) % 64);
		}
		if (bit > CPUSET_MAXBITS)
			bit = CPUSET_MAXBITS;
	}
	return 0;
}

/*
 * The 32-bit word that ends at end, read back to a separator or start
 * (*wordp becomes its first digit): at most 8 digits, or a sentence
 * saying why not.
 */
static int
parse_word(const char *start, const char *end, const char **wordp,
    uint32_t *valp, struct perr *pe)
{
	const char *p = end, *w;
	uint32_t val = 0;
	char b[TOKBUF];
	int i, c, bad = 0;

	/* The usual word: eight digits after a comma or the start. */
	if (end - start >= 8 && (end - 8 == start || is_sep(end[-9]))) {
		for (p = end - 8; p < end; p++) {
			c = hexval(*p);
			bad |= c;
			val = val << 4 | (c & 0xf);
		}
		if (bad >= 0) {
			*wordp = end - 8;
			*valp = val;
			return 0;
		}
		p = end;
		val = 0;
	}
	for (i = 0; i < 32 && p > start && !is_sep(p[-1]); i += 4) {
		if ((c = hexval(*--p)) < 0)
			return perr_set(pe, EINVAL,
			    "\"%s\" is not a hex digit",
			    perr_quote(b, sizeof(b), p, 1));
		val |= (uint32_t)c << i;
	}
	if (p > start && !is_sep(p[-1])) {
		for (w = p - 1; w > start && !is_sep(w[-1]); w--)
			;
		if (hexval(p[-1]) >= 0)
			return perr_set(pe, EOVERFLOW,
			    "word \"%s\" is longer than 8 hex digits",
			    perr_quote(b, sizeof(b), w,
			    strcspn(w, ", \t\n\v\f\r")));
		return perr_set(pe, EINVAL, "\"%s\" is not a hex digit",
		    perr_quote(b, sizeof(b), p - 1, 1));
	}
	*wordp = p;
	*valp = val;
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
	const char *start = s, *end, *p;	/* end: one past the last */
	size_t words = howmany(set->nbits, 32), word;
	uint32_t val = 0;
	char b[TOKBUF];
	int rc;

	cpuset_zero(set);
	end = start + strcspn(start, "\n");
	while (start < end && is_space(*start))
		start++;
	while (start < end && is_space(end[-1]))
		end--;
	if (end - start >= 2 && start[0] == '0' &&
	    (start[1] == 'x' || start[1] == 'X')) {
		start += 2;
		if (start == end || hexval(*start) < 0)
			return perr_set(pe, EINVAL,
			    "\"%s\" has no hex digits",
			    perr_quote(b, sizeof(b), start - 2,
			    end - start + 2));
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
		if ((rc = parse_word(start, end, &end, &val, pe)) != 0) {
			cpuset_zero(set);
			return rc;
		}
		set->words[word / 2] |= (uint64_t)val << (word % 2 * 32);
	}
	return check_tail(set, pe);
}

/* How many runs of set bits: each starts where the bit below is clear. */
static size_t
count_runs(const struct cpuset *s)
{
	uint64_t w, below = 0;	/* the top bit of the word below, as bit 0 */
	size_t n = 0, i;

	for (i = 0; i < nwords(s->nbits); i++) {
		w = s->words[i];
		n += __builtin_popcountll(w & ~(w << 1 | below));
		below = w >> 63;
	}
	return n;
}

static unsigned int
digits(unsigned int n)
{
	unsigned int d = 1;

	for (; n >= 10; n /= 10)
		d++;
	return d;
}

/* Writes n in decimal at p; returns the end. */
static char *
put_uint(char *p, unsigned int n)
{
	char *end = p + digits(n);

	p = end;
	do
		*--p = '0' + n % 10;
	while ((n /= 10) != 0);
	return end;
}

/*
 * %*pbl: "a-b" for runs of two or more, "a" alone, comma-separated. Each
 * run takes at most two numbers as long as the last CPU's and two
 * characters more.
 */
char *
cpulist_format(const struct cpuset *s)
{
	size_t size = count_runs(s) * (2 * digits(s->nbits - 1) + 2) + 1;
	unsigned int lo, hi;
	char *buf, *p;

	if ((buf = malloc(size)) == NULL)
		return NULL;
	p = buf;
	for (lo = next_set(s, 0); lo < s->nbits; lo = next_set(s, hi + 1)) {
		hi = next_clear(s, lo) - 1;
		if (p > buf)
			*p++ = ',';
		p = put_uint(p, lo);
		if (hi > lo) {
			*p++ = '-';
			p = put_uint(p, hi);
		}
	}
	*p = '\0';
	return buf;
}

/* The 32-bit word that holds bits 32 * i to 32 * i + 31. */
static uint32_t
word32(const struct cpuset *s, size_t i)
{
	return s->words[i / 2] >> (i % 2 * 32);
}

/* %*pb: 32-bit words from the top, the first padded to its own width. */
char *
cpumask_format(const struct cpuset *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t words = howmany(s->nbits, 32), w, len;
	unsigned int top = s->nbits % 32 ? s->nbits % 32 : 32;
	int width = howmany(top, 4), i;
	uint32_t val;
	char *buf, *p;

	len = width + (words - 1) * 9 + 1;
	if ((buf = malloc(len)) == NULL)
		return NULL;
	p = buf;
	for (w = words; w-- > 0;) {
		val = word32(s, w);
		for (i = width; i-- > 0;)
			*p++ = hex[val >> (4 * i) & 0xf];
		if (w > 0)
			*p++ = ',';
		width = 8;
	}
	*p = '\0';
	return buf;
}
