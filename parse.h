/*
 * CPU sets and the kernel's two text forms for them: the CPU list
 * ("0-3,8", bitmap_parselist) and the mask ("ff,00000000", bitmap_parse).
 * No I/O, no printing: parsers return 0 or a negative errno and leave a
 * sentence in struct perr, which the other parsers share.
 */
#ifndef IRQAFF_PARSE_H
#define IRQAFF_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Why a parser refused its input: an errno and one line naming the token. */
struct perr {
	int	code;
	char	msg[640];
};

/* Room for a token quoted by perr_quote() in a message. */
#define TOKBUF	104

int		 perr_set(struct perr *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
int		 perr_errno(const struct perr *);
const char	*perr_quote(char *, size_t, const char *, size_t);

/* Far above any NR_CPUS the kernel allows (8192 on x86, 16384 elsewhere). */
#define CPUSET_MAXBITS	(1U << 20)

struct cpuset {
	unsigned int	 nbits;
	uint64_t	*words;	/* howmany(nbits, 64); bits past nbits zero */
};

struct cpuset	*cpuset_new(unsigned int);
struct cpuset	*cpuset_dup(const struct cpuset *);
void		 cpuset_free(struct cpuset *);
void		 cpuset_zero(struct cpuset *);
void		 cpuset_copy(struct cpuset *, const struct cpuset *);
void		 cpuset_set(struct cpuset *, unsigned int);
bool		 cpuset_test(const struct cpuset *, unsigned int);
unsigned int	 cpuset_count(const struct cpuset *);
int		 cpuset_first(const struct cpuset *);
int		 cpuset_next(const struct cpuset *, unsigned int);
int		 cpuset_last(const struct cpuset *);
bool		 cpuset_empty(const struct cpuset *);
bool		 cpuset_equal(const struct cpuset *, const struct cpuset *);
bool		 cpuset_intersects(const struct cpuset *, const struct cpuset *);
bool		 cpuset_subset(const struct cpuset *, const struct cpuset *);
void		 cpuset_and(struct cpuset *, const struct cpuset *);
void		 cpuset_or(struct cpuset *, const struct cpuset *);
void		 cpuset_andnot(struct cpuset *, const struct cpuset *);

int		 cpulist_parse(struct cpuset *, const char *, struct perr *);
int		 cpumask_parse(struct cpuset *, const char *, struct perr *);
char		*cpulist_format(const struct cpuset *);
char		*cpumask_format(const struct cpuset *);

#endif
