/*
 * The command-line kit: exit statuses, option parsing with irqaff's own
 * words for mistakes, usage and help, and the clock of sampling commands.
 */
#include <ctype.h>
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
#include "core/counts.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "procfs.h"

const char cli_exit_help[] =
    "Exit status: 0 success; 1 failure, or nothing matched; 2 bad usage or\n"
    "bad input, nothing written; 3 (commands that write) some changes made\n"
    "and some failed; 4 every change made but standard output failed; 5\n"
    "(explain) nothing matched. Each command's help lists its own.\n";

/*
 * The exit statuses of each command, the one table that help prints and
 * the man page's EXIT STATUS repeats: a row holds for the commands it
 * names.
 */
static const struct {
	const char	*commands;
	int		 status;
	const char	*text;
} exits[] = {
	{ "show cpus queues save mask list", EXIT_OK, "success" },
	{ "set spread balance", EXIT_OK,
	    "every IRQ has its CPUs, changed or not" },
	{ "restore", EXIT_OK, "every IRQ has its CPUs, changed or not; with "
	    "-t, the snapshot\n     fits this machine" },
	{ "xps rps", EXIT_OK, "every queue has its CPUs, changed or not" },
	{ "default", EXIT_OK, "the default affinity is shown or has its CPUs" },
	{ "isolate", EXIT_OK, "every movable IRQ is off the CPUs; with "
	    "--check, no interrupt\n     runs there" },
	{ "explain", EXIT_OK, "no selected IRQ has a finding that needs "
	    "attention" },
	{ "check", EXIT_OK, "the machine matches the snapshot" },
	{ "top", EXIT_OK, "the screens were drawn, or q ended the view" },
	{ "show cpus queues top", EXIT_FAIL, "nothing matched the selection, a "
	    "file could not be read, or\n     standard output failed" },
	{ "save", EXIT_FAIL, "nothing matched --only, a file could not be "
	    "read, or the\n     snapshot could not be written" },
	{ "mask list", EXIT_FAIL, "standard input or output failed" },
	{ "set spread xps rps", EXIT_FAIL,
	    "an item matched nothing (nothing written), nothing could be\n"
	    "     changed, or a file could not be read" },
	{ "balance", EXIT_FAIL, "an item matched nothing, a file could not "
	    "be read, or the\n     plan file could not be written (each: "
	    "nothing written), or\n     nothing could be changed" },
	{ "restore", EXIT_FAIL, "an --only item or a line matched nothing, "
	    "a plan was refused\n     (nothing written), nothing could be "
	    "changed, or an IRQ's or\n     queue's file could not be read" },
	{ "default", EXIT_FAIL, "the default affinity could not be read or "
	    "written" },
	{ "isolate", EXIT_FAIL, "nothing could be moved, or a file could "
	    "not be read; with\n     --check, an interrupt can still run "
	    "there" },
	{ "explain", EXIT_FAIL, "an IRQ has a finding that needs attention, "
	    "or a file could\n     not be read" },
	{ "check", EXIT_FAIL, "the machine differs from the snapshot, "
	    "nothing matched --only,\n     or one of its files could not be "
	    "read" },
	{ "show cpus queues explain save mask list top", EXIT_USAGE,
	    "bad usage or bad input" },
	{ "set spread balance default isolate xps rps", EXIT_USAGE,
	    "bad usage or bad input; nothing written" },
	{ "restore", EXIT_USAGE, "bad usage, or a snapshot that cannot be "
	    "read, is wrong or\n     has no entry; nothing written" },
	{ "check", EXIT_USAGE, "bad usage, or a snapshot that cannot be read, "
	    "is wrong or\n     has no entry" },
	{ "set spread balance isolate restore xps rps", EXIT_PARTIAL,
	    "some changes made and some failed, each one reported" },
	{ "set spread balance default isolate restore xps rps", EXIT_OUTPUT,
	    "every change made, but standard output failed" },
	{ "explain", EXIT_NONE, "the selection matched no IRQ: nothing to "
	    "explain" },
};

/*
 * What the operands are, for every command that takes IRQs or CPUs; the
 * man page's IRQ SELECTORS and CPU SETS say it at length.
 */
static const char irqs_help[] =
    "\nIRQs, comma-separated: N, a-b, all, GLOB (an action name pattern:\n"
    "  'eth0-*'), dev:NAME (the IRQs of an interface, NVMe controller,\n"
    "  block device or PCI address; dev:\"NAME\" quoted as in a snapshot),\n"
    "  cpu:CPUS (the IRQs running there; the last item).\n";
static const char cpus_help[] =
    "\nCPUs, comma-separated as the kernel's lists: N, a-b, a-b:used/group,\n"
    "  all, node:K (0-3,8 or all:1/2)";
static const char masks_help[] =
    "\nMasks, as the kernel's: 32-bit hex words, comma-separated, the last\n"
    "  one CPUs 0-31 (ff,00000000); or one number after 0x (0xff00).\n";

/* Whether word stands alone in s, as an operand of a synopsis. */
static bool
has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = s; (p = strstr(p, word)) != NULL; p += n)
		if ((p == s || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return true;
	return false;
}

static void
exit_statuses(FILE *fp, const struct command *cmd)
{
	size_t i;
	int status;

	fprintf(fp, "\nExit status:\n");
	for (status = EXIT_OK; status <= EXIT_NONE; status++)
		for (i = 0; i < sizeof(exits) / sizeof(exits[0]); i++)
			if (exits[i].status == status &&
			    has_word(exits[i].commands, cmd->name))
				fprintf(fp, "  %d  %s\n", status,
				    exits[i].text);
}

static bool changing;		/* the command is writing to the machine */

/* One line for errors, the whole help for --help. */
void
cli_usage(FILE *fp, const struct command *cmd)
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
	if (has_word(cmd->synopsis, "irqs"))
		fputs(irqs_help, fp);
	/* a command that takes no CPU set leaves the grammar to set's help */
	if (has_word(cmd->synopsis, "irqs") && !has_word(cmd->synopsis, "cpus"))
		fputs("  CPUS is a CPU set, as 'irqaff help set' shows.\n", fp);
	if (has_word(cmd->synopsis, "cpus"))
		fputs(cpus_help, fp);
	if (strcmp(cmd->name, "mask") == 0)
		fputs(".\n", fp);
	else if (has_word(cmd->synopsis, "cpus") &&
	    strstr(cmd->options, "read cpus") != NULL)
		fputs("; or a mask: 0xff00, or\n  with -m a kernel mask "
		    "(ff,00000000).\n", fp);
	else if (has_word(cmd->synopsis, "cpus"))
		fputs("; or a mask: 0xMASK (0xff00).\n", fp);
	if (has_word(cmd->synopsis, "mask"))
		fputs(masks_help, fp);
	if (has_word(cmd->synopsis, "devs"))
		fputs("\nDevs: network interfaces that have queues, "
		    "comma-separated (eth0,eth1).\n", fp);
	exit_statuses(fp, cmd);
}

/* A mistake on the command line: one line, the usage line, status 2. */
int
cli_usage_error(const struct command *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warnx("%s: %s", cmd->name, msg);
	cli_usage(stderr, cmd);
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
cli_getopts(int argc, char *argv[], const struct command *cmd,
    const char *shortopts, const struct option *longopts)
{
	char opts[64], *arg;
	int ch;

	snprintf(opts, sizeof(opts), ":%sh", shortopts);
	opterr = 0;
	ch = getopt_long(argc, argv, opts, longopts, NULL);
	switch (ch) {
	case 'h':
		cli_usage(stdout, cmd);
		exit(cli_exit_output(EXIT_OK));
	case ':':
		if (optopt != 0)
			exit(cli_usage_error(cmd, "option -%c needs a value",
			    optopt));
		exit(cli_usage_error(cmd, "option %s needs a value",
		    text_quoted(argv[optind - 1])));
	case '?':
		arg = argv[optind - 1];
		if (takes_no_value(arg, opts))
			exit(cli_usage_error(cmd, "option %s takes no value",
			    text_quoted(arg)));
		if (optopt != 0)
			exit(cli_usage_error(cmd, "unknown option -%s",
			    text_quoted((char[]){ (char)optopt, '\0' })));
		exit(cli_usage_error(cmd, "unknown option %s",
		    text_quoted(arg)));
	}
	return ch;
}

/* The exit status for a domain function's result: -EINVAL is bad input. */
int
cli_exit_status(int rc)
{
	if (rc == 0)
		return EXIT_OK;
	return rc == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
}

/*
 * 0 all done, 1 nothing changed and some failed, 3 some of each; a dry
 * run changes nothing, so a failure in it is 1, never 3.
 */
int
cli_exit_applied(const struct tally *tl, bool dryrun)
{
	if (tl->failed == 0)
		return EXIT_OK;
	return tl->changed == 0 || dryrun ? EXIT_FAIL : EXIT_PARTIAL;
}

/*
 * From here on the command changes the machine: a closed pipe must not
 * kill it half-way, so SIGPIPE is ignored and the write error reported
 * once at exit.
 */
void
cli_applying(void)
{
	signal(SIGPIPE, SIG_IGN);
	changing = true;
}

/*
 * Standard output checked once, at exit, for every command. When the
 * machine was changed as asked, a lost output is status 4, not 1.
 */
int
cli_exit_output(int status)
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
		return cli_usage_error(cmd, "interval \"%s\" is not a decimal "
		    "number of seconds from 0.001 to 86400", text_quoted(arg));
	return EXIT_OK;
}

/*
 * -i SECONDS, --count COUNT (-c, its old spelling) and --sample-from
 * FILE; other options are the caller's (-1). The files are argv's.
 */
int
cli_sampling_option(const struct command *cmd, int ch, const char *arg,
    struct sampling *sm)
{
	const char *errstr;

	if (ch == 'i') {
		sm->on = sm->timed = true;
		return parse_interval(cmd, arg, &sm->interval);
	}
	if (ch == CLI_SAMPLE_FROM) {
		if (strcmp(arg, "-") == 0)
			return cli_usage_error(cmd, "--sample-from takes a "
			    "file, not standard input");
		/* doubled at each power of two */
		if ((sm->nfrom & (sm->nfrom - 1)) == 0)
			sm->from = xreallocarray(sm->from,
			    sm->nfrom ? 2 * sm->nfrom : 1, sizeof(*sm->from));
		sm->from[sm->nfrom++] = arg;
		sm->on = true;
		return EXIT_OK;
	}
	if (ch != 'c')
		return -1;
	sm->count = strtonum(arg, 1, LLONG_MAX, &errstr);
	if (errstr != NULL)
		return cli_usage_error(cmd, "count \"%s\" is %s",
		    text_quoted(arg), errstr);
	return EXIT_OK;
}

/*
 * --sample-from: one file for each read, each there, and without -i
 * each newer than the one before (the interval is the difference).
 * Nothing is read before all of it holds.
 */
static int
check_files(const struct command *cmd, struct sampling *sm)
{
	unsigned long long want = (sm->count ? sm->count : 1) + 1ULL;
	size_t k;
	int rc;

	if (sm->nfrom != want && sm->count)
		return cli_usage_error(cmd, "--count %lld needs %llu files "
		    "from --sample-from, %zu given", sm->count, want,
		    sm->nfrom);
	if (sm->nfrom != want)
		return cli_usage_error(cmd, "--sample-from needs %llu files, "
		    "one for each read; %zu given", want, sm->nfrom);
	sm->mtime = xcalloc(sm->nfrom, sizeof(*sm->mtime));
	for (k = 0; k < sm->nfrom; k++)
		if ((rc = procfs_file_mtime(sm->from[k], &sm->mtime[k])) !=
		    0) {
			warnc(-rc, "%s", procfs_file_path(sm->from[k]));
			return EXIT_FAIL;
		}
	for (k = 1; k < sm->nfrom && !sm->timed; k++)
		if (sm->mtime[k] <= sm->mtime[k - 1])
			return cli_usage_error(cmd, "--sample-from \"%s\" is "
			    "not newer than \"%s\": give the interval with -i",
			    text_quoted(sm->from[k]),
			    text_quoted(sm->from[k - 1]));
	return EXIT_OK;
}

int
cli_sampling_check(const struct command *cmd, struct sampling *sm)
{
	if (sm->count != 0 && !sm->on)
		return cli_usage_error(cmd, "--count needs -i or --sample-from");
	if (sm->nfrom > 0)
		return check_files(cmd, sm);
	return EXIT_OK;
}

static double
clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The first read starts now, or reads the first file. */
void
cli_sampling_begin(struct sampling *sm)
{
	sm->start = clock_now();
	sm->at = 0;
	if (sm->nfrom > 0)
		sm->src = sm->from[0];
}

/*
 * Sleeps until the interval after the last read's start, on the
 * monotonic clock so that samples do not drift; the next read starts
 * then. With --sample-from, no sleep: the next read is the next file
 * (cli_sampling_check() counted them), its time its modification time.
 * The time is kept for the sample's heading: UTC in ISO 8601 for JSON,
 * local time for people.
 */
void
cli_sampling_next(struct sampling *sm, bool json)
{
	struct timespec ts;
	double t = sm->start + sm->interval, now;
	time_t wall;

	if (sm->nfrom > 0) {
		sm->at++;
		sm->src = sm->from[sm->at];
		sm->elapsed = sm->timed ? sm->interval :
		    (sm->mtime[sm->at] - sm->mtime[sm->at - 1]) / 1e9;
		wall = sm->mtime[sm->at] / 1000000000 -
		    (sm->mtime[sm->at] % 1000000000 < 0);
	} else {
		ts.tv_sec = (time_t)t;
		ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
		    NULL) == EINTR)
			continue;
		now = clock_now();
		sm->elapsed = now - sm->start;
		sm->start = now;
		wall = time(NULL);
	}
	if (json)
		strftime(sm->stamp, sizeof(sm->stamp), "%Y-%m-%dT%H:%M:%SZ",
		    gmtime(&wall));
	else
		strftime(sm->stamp, sizeof(sm->stamp), "%Y-%m-%d %H:%M:%S",
		    localtime(&wall));
}

/* Seconds until the next read is due; none with --sample-from. */
double
cli_sampling_left(const struct sampling *sm)
{
	double left = sm->start + sm->interval - clock_now();

	return sm->nfrom > 0 || left < 0 ? 0 : left;
}

void
cli_sampling_free(struct sampling *sm)
{
	free(sm->from);
	free(sm->mtime);
	sm->from = NULL;
	sm->mtime = NULL;
	sm->nfrom = 0;
}

/* With --count, each block of a table opens with its time, as vmstat -t. */
void
cli_sampling_head(const struct sampling *sm, long long n, bool noheadings)
{
	if (sm->count != 0 && !noheadings)
		printf("%s%s\n", n > 0 ? "\n" : "", sm->stamp);
}
