/*
 * CPU sets and the kernel's two text forms for them, plus the other small
 * grammars irqaff reads. Nothing here performs I/O or prints: parsers
 * return 0 or a negative errno and leave a sentence in struct perr.
 */
#ifndef IRQAFF_PARSE_H
#define IRQAFF_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <bitstring.h>

/* Far above any NR_CPUS the kernel allows (8192 on x86, 16384 elsewhere). */
#define CPUSET_MAXBITS	(1U << 20)

struct cpuset {
	unsigned int	 nbits;
	bitstr_t	*bits;	/* rounded up to 32-bit words; tail bits zero */
};

struct perr {
	int	code;		/* EINVAL, ERANGE or EOVERFLOW */
	char	msg[320];
};

struct cpuset	*cpuset_new(unsigned int);
struct cpuset	*cpuset_dup(const struct cpuset *);
void		 cpuset_free(struct cpuset *);
void		 cpuset_zero(struct cpuset *);
void		 cpuset_copy(struct cpuset *, const struct cpuset *);
void		 cpuset_set(struct cpuset *, unsigned int);
void		 cpuset_clear(struct cpuset *, unsigned int);
bool		 cpuset_test(const struct cpuset *, unsigned int);
unsigned int	 cpuset_count(const struct cpuset *);
int		 cpuset_first(const struct cpuset *);
int		 cpuset_next(const struct cpuset *, unsigned int);
int		 cpuset_last(const struct cpuset *);
bool		 cpuset_empty(const struct cpuset *);
bool		 cpuset_equal(const struct cpuset *, const struct cpuset *);
bool		 cpuset_intersects(const struct cpuset *, const struct cpuset *);
void		 cpuset_and(struct cpuset *, const struct cpuset *);
void		 cpuset_or(struct cpuset *, const struct cpuset *);
void		 cpuset_andnot(struct cpuset *, const struct cpuset *);

const char	*visquote(char *, size_t, const char *, size_t);

int		 cpulist_parse(struct cpuset *, const char *, struct perr *);
int		 cpumask_parse(struct cpuset *, const char *, struct perr *);
char		*cpulist_format(const struct cpuset *);
char		*cpumask_format(const struct cpuset *);

/* One numeric row of /proc/interrupts; pointers point into the line. */
struct irqrow {
	unsigned int		 irq;
	unsigned int		 ncounts;
	unsigned long long	 total;
	const char		*chip;
	size_t			 chiplen;
	const char		*hwirq;
	size_t			 hwirqlen;
	const char		*names;	/* action names, ", "-joined */
	size_t			 nameslen;
};

int		 interrupts_header(const char *, unsigned int *);
int		 interrupts_row(const char *, unsigned int, struct irqrow *,
		    unsigned long long *);

/* IRQ selectors: "24", "24-31", "all", "dev:eth0", or a glob. */
enum irqsel_kind { SEL_RANGE, SEL_ALL, SEL_DEV, SEL_GLOB };

struct irqsel {
	enum irqsel_kind	 kind;
	unsigned int		 lo, hi;
	char			*arg;	/* SEL_DEV name, SEL_GLOB pattern */
};

int		 irqsel_parse(const char *, struct irqsel **, size_t *,
		    struct perr *);
void		 irqsel_free(struct irqsel *, size_t);

#endif
