/* Shared by the subcommands. */
#ifndef IRQAFF_H
#define IRQAFF_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "parse.h"

#define IRQAFF_VERSION	"0.1.0"

#ifndef nitems			/* OpenBSD <sys/param.h> */
#define nitems(a)	(sizeof((a)) / sizeof((a)[0]))
#endif

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* a file could not be read or written */
	EXIT_USAGE = 2,		/* bad usage or bad input; nothing written */
	EXIT_PARTIAL = 3,	/* some IRQs changed, some failed */
};

struct command {
	const char	*name;
	int		(*fn)(int, char *[]);
	const char	*summary;
	const char	*synopsis;
	const char	*options;
};

int	 mask_main(int, char *[]);
int	 show_main(int, char *[]);
int	 set_main(int, char *[]);
int	 default_main(int, char *[]);
void	 show_columns(FILE *);
int	 spread_main(int, char *[]);
int	 save_main(int, char *[]);
int	 restore_main(int, char *[]);
int	 check_main(int, char *[]);
void	 irqbalance_warn(void);

/* The CPUs as the kernel describes them, read once per run. */
struct machine {
	unsigned int	 nbits;		/* nr_cpu_ids: last possible CPU + 1 */
	struct cpuset	*possible;
	struct cpuset	*online;
	struct cpuset	*isolated;	/* isolated plus nohz_full */
};

struct cpuset *xcpuset(unsigned int);
int	 machine_load(struct machine *);
void	 machine_free(struct machine *);
struct cpuset *machine_file(struct machine *, const char *);
int	 cpus_arg(struct machine *, const char *, bool, struct cpuset *);
int	 cpus_nodes(struct machine *, const char *, struct cpuset *,
	    struct perr *);

/* A set of IRQ numbers, sorted, without repeats. */
struct irqs {
	unsigned int	*v;
	size_t		 n;
};

int	 irqs_select(const char *, struct irqs *);
void	 irqs_free(struct irqs *);
char	*irq_names(unsigned int);
bool	 name_matches(const char *, const char *, size_t);
int	 device_irqs(const char *, struct irqs *, char **);

enum { APPLY_DRYRUN = 1, APPLY_VERBOSE = 2 };

struct change {
	unsigned int	 irq;
	struct cpuset	*want;
};

int	 apply(struct machine *, const struct change *, size_t, int);
int	 apply_file(struct machine *, const char *, const char *, bool,
	    const struct cpuset *, int);
int	 apply_status(size_t, size_t);

int	 getopts(int, char *[], const char *, const struct option *);
void	 usage(FILE *, const char *);
const char *quoted(const char *);
void	 json_string(const char *);

#endif
