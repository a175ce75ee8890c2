/*
 * The command-line kit: exit statuses, a command's description, option
 * parsing with irqaff's own words for mistakes, usage and help, and the
 * clock of commands that sample.
 */
#ifndef IRQAFF_CLI_H
#define IRQAFF_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "apply.h"

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* a file could not be read or written */
	EXIT_USAGE = 2,		/* bad usage or bad input; nothing written */
	EXIT_PARTIAL = 3,	/* some IRQs changed, some failed */
	EXIT_OUTPUT = 4,	/* all applied, but standard output failed */
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

extern const char exit_help[];

int	 getopts(int, char *[], const struct command *, const char *,
	    const struct option *);
void	 usage(FILE *, const struct command *);
int	 usage_error(const struct command *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	 exit_status(int);
int	 exit_applied(const struct tally *);
void	 applying(void);
int	 exit_output(int);
int	 parse_interval(const struct command *, const char *, double *);
double	 clock_now(void);
void	 clock_sleep_until(double);

#endif
