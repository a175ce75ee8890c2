/*
 * The command-line kit: exit statuses, option parsing with irqaff's own
 * words for mistakes, usage and help, and the clock of sampling commands.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cli.h"
#include "core/apply.h"
#include "lib/text.h"

const char exit_help[] =
    "Exit status: 0 success; 1 a file could not be read or written;\n"
    "2 bad usage or bad input, nothing written; 3 some IRQs changed and\n"
    "some failed; 4 every change was made but standard output failed.\n";

static bool changing;		/* the command is writing to the machine */

/* One line for errors, the whole help for --help. */
void
usage(FILE *fp, const struct command *cmd)
{
	const char *o, *gap;
	int width;

	fprintf(fp, "usage: %s %s %s\n", getprogname(), cmd->name,
	    cmd->synopsis);
	if (fp == stderr)
		return;
	/* -h lines up with the first option's description */
	o = cmd->options;
	gap = strstr(o + strspn(o, " "), "  ");
	width = gap == NULL ? 12 : (int)(gap - o + strspn(gap, " ")) - 2;
	fprintf(fp, "\n%s.\n\nOptions:\n%s  %-*sshow this help\n",
	    cmd->summary, o, width, "-h, --help");
	if (cmd->more_help != NULL)
		cmd->more_help(fp);
	fprintf(fp, "\n%s", exit_help);
}

/* A mistake on the command line: one line, the usage line, status 2. */
int
usage_error(const struct command *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warnx("%s: %s", cmd->name, msg);
	usage(stderr, cmd);
	return EXIT_USAGE;
}

/* getopt_long()'s "doesn't allow an argument", named as the user wrote it. */
static bool
takes_no_value(char *arg, const char *opts)
{
	char *eq;

	if (optopt == 0 || optopt == ':' || strchr(opts, optopt) == NULL ||
	    strncmp(arg, "--", 2) != 0 || (eq = strchr(arg, '=')) == NULL)
		return false;
	*eq = '\0';
	return true;
}

/*
 * getopt_long() with irqaff's own words for mistakes: one line naming the
 * option, the usage line, exit 2. --help is handled here for everyone.
 */
int
getopts(int argc, char *argv[], const struct command *cmd,
    const char *shortopts, const struct option *longopts)
{
	char opts[64], *arg;
	int ch;

	snprintf(opts, sizeof(opts), ":%sh", shortopts);
	opterr = 0;
	ch = getopt_long(argc, argv, opts, longopts, NULL);
	switch (ch) {
	case 'h':
		usage(stdout, cmd);
		exit(exit_output(EXIT_OK));
	case ':':
		if (optopt != 0)
			exit(usage_error(cmd, "option -%c needs a value",
			    optopt));
		exit(usage_error(cmd, "option %s needs a value",
		    quoted(argv[optind - 1])));
	case '?':
		arg = argv[optind - 1];
		if (takes_no_value(arg, opts))
			exit(usage_error(cmd, "option %s takes no value",
			    quoted(arg)));
		if (optopt != 0)
			exit(usage_error(cmd, "unknown option -%s",
			    quoted((char[]){ (char)optopt, '\0' })));
		exit(usage_error(cmd, "unknown option %s", quoted(arg)));
	}
	return ch;
}

/* The exit status for a domain function's result: -EINVAL is bad input. */
int
exit_status(int rc)
{
	if (rc == 0)
		return EXIT_OK;
	return rc == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
}

/* 0 all done, 1 nothing changed and some failed, 3 some of each. */
int
exit_applied(const struct tally *tl)
{
	if (tl->failed == 0)
		return EXIT_OK;
	return tl->changed == 0 ? EXIT_FAIL : EXIT_PARTIAL;
}

/*
 * From here on the command changes the machine: a closed pipe must not
 * kill it half-way, so SIGPIPE is ignored and the write error reported
 * once at exit.
 */
void
applying(void)
{
	signal(SIGPIPE, SIG_IGN);
	changing = true;
}

/*
 * Standard output checked once, at exit, for every command. When the
 * machine was changed as asked, a lost output is status 4, not 1.
 */
int
exit_output(int status)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	warn("standard output");
	if (status != EXIT_OK)
		return status;
	return changing ? EXIT_OUTPUT : EXIT_FAIL;
}

/*
 * -i: decimal seconds, digits with an optional fraction (not strtod()'s
 * hex, exponents, signs or blanks), from a millisecond to a day.
 */
static int
parse_interval(const struct command *cmd, const char *arg, double *secs)
{
	size_t n = strspn(arg, "0123456789");
	char *end;

	if (arg[n] == '.')
		n += 1 + strspn(arg + n + 1, "0123456789");
	*secs = 0;
	if (n > 0 && arg[n] == '\0' && strcmp(arg, ".") != 0)
		*secs = strtod(arg, &end);
	if (!(*secs >= 0.001 && *secs <= 86400))
		return usage_error(cmd, "interval \"%s\" is not a decimal "
		    "number of seconds from 0.001 to 86400", quoted(arg));
	return EXIT_OK;
}

/* -i SECONDS and -c COUNT; other options are the caller's (-1). */
int
sampling_option(const struct command *cmd, int ch, const char *arg,
    struct sampling *sm)
{
	const char *errstr;

	if (ch == 'i') {
		sm->on = true;
		return parse_interval(cmd, arg, &sm->interval);
	}
	if (ch != 'c')
		return -1;
	sm->count = strtonum(arg, 1, LLONG_MAX, &errstr);
	if (errstr != NULL)
		return usage_error(cmd, "count \"%s\" is %s", quoted(arg),
		    errstr);
	return EXIT_OK;
}

int
sampling_check(const struct command *cmd, const struct sampling *sm)
{
	if (sm->count != 0 && !sm->on)
		return usage_error(cmd, "-c needs -i");
	return EXIT_OK;
}

static double
clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The first read starts now. */
void
sampling_begin(struct sampling *sm)
{
	sm->start = clock_now();
}

/*
 * Sleeps until the interval after the last read's start, on the
 * monotonic clock so that samples do not drift; the next read starts
 * then. The time is kept for the sample's heading: UTC in ISO 8601 for
 * JSON, local time for people.
 */
void
sampling_next(struct sampling *sm, bool json)
{
	struct timespec ts;
	double t = sm->start + sm->interval, now;
	time_t wall;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	    EINTR)
		continue;
	now = clock_now();
	sm->elapsed = now - sm->start;
	sm->start = now;
	wall = time(NULL);
	if (json)
		strftime(sm->stamp, sizeof(sm->stamp), "%Y-%m-%dT%H:%M:%SZ",
		    gmtime(&wall));
	else
		strftime(sm->stamp, sizeof(sm->stamp), "%Y-%m-%d %H:%M:%S",
		    localtime(&wall));
}

/* With -c, each block of a table opens with its time, as vmstat -t. */
void
sampling_head(const struct sampling *sm, long long n, bool noheadings)
{
	if (sm->count != 0 && !noheadings)
		printf("%s%s\n", n > 0 ? "\n" : "", sm->stamp);
}
