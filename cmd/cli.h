/*
 * The command-line kit: exit statuses, a command's description, option
 * parsing with irqaff's own words for mistakes, usage and help, and the
 * clock of commands that sample.
 */
#ifndef IRQAFF_CLI_H
#define IRQAFF_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct tally;

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* a file could not be read or written */
	EXIT_USAGE = 2,		/* bad usage or bad input; nothing written */
	EXIT_PARTIAL = 3,	/* some IRQs changed, some failed */
	EXIT_OUTPUT = 4,	/* all applied, but standard output failed */
	EXIT_NONE = 5,		/* explain: the selection matched no IRQ */
};

/* A command: its entry point and its help, kept beside its options. */
struct command {
	const char	*name;
	int		(*main)(int, char *[]);
	const char	*summary;
	const char	*synopsis;
	const char	*options;	/* lines of the option list */
	void		(*more_help)(FILE *);
};

extern const char cli_exit_help[];

int	 cli_getopts(int, char *[], const struct command *, const char *,
	    const struct option *);
void	 cli_usage(FILE *, const struct command *);
int	 cli_usage_error(const struct command *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	 cli_exit_status(int);
int	 cli_exit_applied(const struct tally *, bool);
void	 cli_applying(void);
int	 cli_exit_output(int);

/*
 * -i, --count and --sample-from of a command that samples, and its clock:
 * the kernel's, or the saved copies of /proc/interrupts read in turn.
 */
struct sampling {
	bool		 on;		/* -i or --sample-from given */
	bool		 timed;		/* -i given */
	double		 interval;
	long long	 count;		/* --count; 0: one sample */
	double		 start;		/* of the last read */
	double		 elapsed;	/* between the last two reads */
	char		 stamp[32];	/* the time of the last sample */
	const char	**from;		/* --sample-from, in order (argv) */
	const char	*src;		/* the one read now, NULL: the tree's */
	long long	*mtime;		/* each one's, in nanoseconds */
	size_t		 nfrom, at;	/* how many; the one read last */
};

/* --sample-from, for a command's long options */
enum { CLI_SAMPLE_FROM = 512 };
#define CLI_SAMPLE_LONGOPT \
	{ "sample-from", required_argument, NULL, CLI_SAMPLE_FROM }

int	 cli_sampling_option(const struct command *, int, const char *,
	    struct sampling *);
int	 cli_sampling_check(const struct command *, struct sampling *);
void	 cli_sampling_begin(struct sampling *);
void	 cli_sampling_next(struct sampling *, bool);
double	 cli_sampling_left(const struct sampling *);
void	 cli_sampling_head(const struct sampling *, long long, bool);
void	 cli_sampling_free(struct sampling *);

#endif
