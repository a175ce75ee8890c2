/*
 * irqaff: show and steer where hardware interrupts run.
 *
 * main() knows only the command table, --root, --help and --version; each
 * command parses its own options, as wg(8) does.
 */
#include <sys/param.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irqaff.h"
#include "procfs.h"

static const struct command commands[] = {
	{ "show", show_main, "show the affinity of IRQs",
	    "[-mJnaq] [-o columns] [irqs]",
	    "  -m, --mask         print CPU sets as kernel masks, not lists\n"
	    "  -J, --json         print JSON\n"
	    "  -n, --noheadings   print no header line\n"
	    "  -o, --output COLS  columns to print, comma-separated\n"
	    "  -a, --all          also IRQs that have no row in "
	    "/proc/interrupts\n"
	    "  -q, --quiet        no irqbalance warning\n" },
	{ "set", set_main, "give IRQs a set of CPUs",
	    "[-nvmq] irqs cpus",
	    "  -n, --dry-run  print what would change, write nothing\n"
	    "  -v, --verbose  print a line for every IRQ\n"
	    "  -m, --mask     read cpus as a kernel mask (ff,00000000)\n"
	    "  -q, --quiet    no irqbalance warning\n" },
	{ "spread", spread_main, "give each IRQ of a device its own CPU",
	    "[-nvJq] [-c cpus] [-x cpus] [--linear] [--include-isolated] irqs",
	    "  -n, --dry-run           print the plan, write nothing\n"
	    "  -v, --verbose           print a line for every IRQ\n"
	    "  -J, --json              print the plan as JSON\n"
	    "  -c, --cpus CPUS         the CPUs to use (default: the device's "
	    "node)\n"
	    "  -x, --exclude CPUS      CPUs not to use\n"
	    "      --linear            plain CPU order, not cores first\n"
	    "      --include-isolated  also use isolated and nohz_full CPUs\n"
	    "  -q, --quiet             no irqbalance warning\n" },
	{ "default", default_main, "show or set the affinity of new IRQs",
	    "[-mnv] [cpus]",
	    "  -m, --mask     print, and read cpus, as a kernel mask\n"
	    "  -n, --dry-run  print what would change, write nothing\n"
	    "  -v, --verbose  print the change\n" },
	{ "save", save_main, "write a snapshot of every IRQ's affinity",
	    "[-o file]",
	    "  -o, --output FILE  write to FILE, not standard output\n" },
	{ "restore", restore_main, "apply a snapshot",
	    "[-nvq] [--by-number] file",
	    "  -n, --dry-run    print what would change, write nothing\n"
	    "  -v, --verbose    print a line for every IRQ\n"
	    "  -q, --quiet      no irqbalance warning\n"
	    "      --by-number  match IRQs by number, not by name\n" },
	{ "check", check_main, "compare the machine with a snapshot",
	    "[--by-number] file",
	    "      --by-number  match IRQs by number, not by name\n" },
	{ "mask", mask_main, "print CPU lists as kernel masks",
	    "[-b bits] [cpulist ...]",
	    "  -b, --bits BITS  width of the set (default: the possible CPUs)\n" },
	{ "list", mask_main, "print kernel masks as CPU lists",
	    "[-b bits] [mask ...]",
	    "  -b, --bits BITS  width of the set (default: the possible CPUs)\n" },
};

static const struct command *current;

static const char exit_status[] =
    "Exit status: 0 success; 1 a file could not be read or written;\n"
    "2 bad usage or bad input, nothing written; 3 some IRQs changed and\n"
    "some failed.\n";

/* One line for errors, the whole help for --help, as usage() does. */
static void
main_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: %s [--root dir] command [args]\n", getprogname());
	if (fp == stderr)
		return;
	fprintf(fp, "       %s --help | --version\n\n", getprogname());
	fprintf(fp, "Commands (with no command, show):\n");
	for (i = 0; i < nitems(commands); i++)
		fprintf(fp, "  %-9s %s\n", commands[i].name,
		    commands[i].summary);
	fprintf(fp, "\n'%s COMMAND --help' describes each one.\n"
	    "The root directory comes from --root, then $IRQAFF_ROOT, "
	    "then /.\n\n%s", getprogname(), exit_status);
}

/* One line for errors, the whole help for --help. */
void
usage(FILE *fp, const char *name)
{
	const char *o, *gap;
	int width;

	fprintf(fp, "usage: %s %s %s\n", getprogname(), name,
	    current->synopsis);
	if (fp == stderr)
		return;
	/* -h lines up with the first option's description */
	o = current->options;
	gap = strstr(o + strspn(o, " "), "  ");
	width = gap == NULL ? 12 : (int)(gap - o + strspn(gap, " ")) - 2;
	fprintf(fp, "\n%s.\n\nOptions:\n%s  %-*sshow this help\n",
	    current->summary, o, width, "-h, --help");
	if (current->fn == show_main)
		show_columns(fp);
	fprintf(fp, "\n%s", exit_status);
}

/*
 * getopt_long() with irqaff's own words for mistakes: one line naming the
 * option, the usage line, exit 2. --help is handled here for everyone.
 */
int
getopts(int argc, char *argv[], const char *shortopts,
    const struct option *longopts)
{
	char opts[64], *arg, *eq;
	int ch;

	snprintf(opts, sizeof(opts), ":%sh", shortopts);
	opterr = 0;
	ch = getopt_long(argc, argv, opts, longopts, NULL);
	switch (ch) {
	case 'h':
		usage(stdout, argv[0]);
		exit(EXIT_OK);
	case ':':
		if (optopt != 0)
			warnx("%s: option -%c needs a value", argv[0], optopt);
		else
			warnx("%s: option %s needs a value", argv[0],
			    quoted(argv[optind - 1]));
		usage(stderr, argv[0]);
		exit(EXIT_USAGE);
	case '?':
		arg = argv[optind - 1];
		if (optopt != 0 && optopt != ':' && strchr(opts, optopt) &&
		    strncmp(arg, "--", 2) == 0 &&
		    (eq = strchr(arg, '=')) != NULL) {
			/* getopt_long's "doesn't allow an argument" */
			*eq = '\0';
			warnx("%s: option %s takes no value", argv[0],
			    quoted(arg));
		} else if (optopt != 0)
			warnx("%s: unknown option -%s", argv[0],
			    quoted((char[]){ (char)optopt, '\0' }));
		else
			warnx("%s: unknown option %s", argv[0], quoted(arg));
		usage(stderr, argv[0]);
		exit(EXIT_USAGE);
	}
	return ch;
}

/* An argument for a message, escaped and cut short; two buffers rotate. */
const char *
quoted(const char *s)
{
	static char buf[2][264];
	static int i;

	i = !i;
	return visquote(buf[i], sizeof(buf[i]), s, strlen(s));
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629), or 0. */
static int
utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;		/* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;		/* past U+10FFFF */
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/*
 * A JSON string on standard output. Names are bytes: a renamed network
 * interface may hold any byte, so one that is not part of well-formed
 * UTF-8 becomes U+FFFD and the output stays valid JSON.
 */
void
json_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	putchar('"');
	while (*s != '\0') {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (*s < 0x20)
			printf("\\u%04x", *s);
		else if ((n = utf8_len(s)) > 0) {
			fwrite(s, 1, n, stdout);
			s += n;
			continue;
		} else
			fputs("\\ufffd", stdout);
		s++;
	}
	putchar('"');
}

static const struct option bits_opts[] = {
	{ "bits", required_argument, NULL, 'b' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int
possible_width(unsigned int *nbits)
{
	struct cpuset *set;
	struct perr pe;
	char *buf;
	int rc, last;

	if ((rc = procfs_read("sys/devices/system/cpu/possible", &buf)) != 0) {
		warnc(-rc, "%s", procfs_path("sys/devices/system/cpu/possible"));
		return -1;
	}
	set = xcpuset(CPUSET_MAXBITS);
	rc = cpulist_parse(set, buf, &pe);
	last = cpuset_last(set);
	cpuset_free(set);
	if (rc != 0 || last < 0) {
		warnx("%s: %s", procfs_path("sys/devices/system/cpu/possible"),
		    rc != 0 ? pe.msg : "no CPUs");
		free(buf);
		return -1;
	}
	free(buf);
	*nbits = last + 1;
	return 0;
}

struct lines {
	char	**v;
	size_t	  n;
};

static void
lines_add(struct lines *l, char *s)
{
	char **tmp;

	if ((tmp = reallocarray(l->v, l->n + 1, sizeof(*l->v))) == NULL)
		err(EXIT_FAIL, NULL);
	l->v = tmp;
	l->v[l->n++] = s;
}

static void
lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Converts one value; returns the text to print, or NULL after a warning. */
static char *
convert(struct cpuset *set, const char *value, bool tomask)
{
	struct perr pe;
	char *out;

	if (tomask ? cpulist_parse(set, value, &pe) :
	    cpumask_parse(set, value, &pe)) {
		warnx("%s \"%s\": %s", tomask ? "CPU list" : "mask",
		    quoted(value), pe.msg);
		return NULL;
	}
	if ((out = tomask ? cpumask_format(set) : cpulist_format(set)) == NULL)
		err(EXIT_FAIL, NULL);
	return out;
}

/*
 * mask and list: every value is converted before anything is printed, so
 * one bad value leaves standard output empty.
 */
int
mask_main(int argc, char *argv[])
{
	bool tomask = strcmp(argv[0], "mask") == 0;
	struct lines out = { NULL, 0 };
	struct cpuset *set;
	unsigned int nbits = 0;
	const char *errstr;
	char *line = NULL, *s;
	size_t cap = 0, i;
	ssize_t len;
	int ch, bad = 0;

	while ((ch = getopts(argc, argv, "b:", bits_opts)) != -1) {
		switch (ch) {
		case 'b':
			nbits = strtonum(optarg, 1, CPUSET_MAXBITS, &errstr);
			if (errstr != NULL) {
				warnx("%s: width \"%s\" is %s (1 to %u)",
				    argv[0], quoted(optarg), errstr,
				    CPUSET_MAXBITS);
				return EXIT_USAGE;
			}
			break;
		}
	}
	argc -= optind;
	argv += optind;

	if (nbits == 0 && possible_width(&nbits) != 0)
		return EXIT_FAIL;
	set = xcpuset(nbits);

	if (argc > 0) {
		for (i = 0; i < (size_t)argc; i++)
			if ((s = convert(set, argv[i], tomask)) != NULL)
				lines_add(&out, s);
			else
				bad++;
	} else {
		while ((len = getline(&line, &cap, stdin)) != -1) {
			if (len > 0 && line[len - 1] == '\n')
				line[len - 1] = '\0';
			if ((s = convert(set, line, tomask)) != NULL)
				lines_add(&out, s);
			else
				bad++;
		}
		if (ferror(stdin))
			err(EXIT_FAIL, "standard input");
		free(line);
	}
	if (bad == 0)
		for (i = 0; i < out.n; i++)
			puts(out.v[i]);
	lines_free(&out);
	cpuset_free(set);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(EXIT_FAIL, "standard output");
	return bad ? EXIT_USAGE : EXIT_OK;
}

int
main(int argc, char *argv[])
{
	const char *root = getenv("IRQAFF_ROOT");
	size_t i;
	int rc;

	setprogname(argv[0]);
	argc--;
	argv++;
	while (argc > 0 && argv[0][0] == '-') {
		if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
			main_usage(stdout);
			return EXIT_OK;
		} else if (strcmp(argv[0], "--version") == 0) {
			printf("irqaff %s\n", IRQAFF_VERSION);
			return EXIT_OK;
		} else if (strcmp(argv[0], "--root") == 0 && argc > 1) {
			root = argv[1];
			argc -= 2;
			argv += 2;
		} else if (strncmp(argv[0], "--root=", 7) == 0) {
			root = argv[0] + 7;
			argc--;
			argv++;
		} else {
			if (strcmp(argv[0], "--root") == 0)
				warnx("option --root needs a directory");
			else
				warnx("unknown option %s", quoted(argv[0]));
			main_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc == 0) {
		static char *show[] = { "show", NULL };

		argc = 1;
		argv = show;
	}
	for (i = 0; i < nitems(commands); i++)
		if (strcmp(argv[0], commands[i].name) == 0)
			current = &commands[i];
	if (current == NULL) {
		warnx("unknown command %s", quoted(argv[0]));
		main_usage(stderr);
		return EXIT_USAGE;
	}
	if ((rc = procfs_init(root)) != 0) {
		warnc(-rc, "root %s", quoted(root ? root : "/"));
		return EXIT_FAIL;
	}
	return current->fn(argc, argv);
}
