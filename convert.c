/*
 * mask and list: CPU lists to kernel masks and back. Every value is
 * converted before anything is printed, so one bad value leaves
 * standard output empty.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "machine.h"
#include "xalloc.h"

static int convert_main(int, char *[]);

const struct command mask_command = {
	"mask", convert_main, "print CPU lists as kernel masks",
	"[-b bits] [cpulist ...]",
	"  -b, --bits BITS  width of the set (default: the possible CPUs)\n",
	NULL
};

const struct command list_command = {
	"list", convert_main, "print kernel masks as CPU lists",
	"[-b bits] [mask ...]",
	"  -b, --bits BITS  width of the set (default: the possible CPUs)\n",
	NULL
};

static const struct option bits_opts[] = {
	{ "bits", required_argument, NULL, 'b' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct lines {
	char	**v;
	size_t	  n;
};

static void
lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Converts one value into out; a bad one is counted after a warning. */
static void
convert(struct cpuset *set, const char *value, bool tomask, struct lines *out,
    int *bad)
{
	struct perr pe;

	if (tomask ? cpulist_parse(set, value, &pe) :
	    cpumask_parse(set, value, &pe)) {
		warnx("%s \"%s\": %s", tomask ? "CPU list" : "mask",
		    quoted(value), pe.msg);
		(*bad)++;
		return;
	}
	out->v = xreallocarray(out->v, out->n + 1, sizeof(*out->v));
	out->v[out->n++] = xformat(set, tomask);
}

static void
convert_stdin(struct cpuset *set, bool tomask, struct lines *out, int *bad)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, stdin)) != -1) {
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		convert(set, line, tomask, out, bad);
	}
	if (ferror(stdin))
		err(EXIT_FAIL, "standard input");
	free(line);
}

static int
convert_main(int argc, char *argv[])
{
	const struct command *cmd = strcmp(argv[0], "mask") == 0 ?
	    &mask_command : &list_command;
	bool tomask = cmd == &mask_command;
	struct lines out = { NULL, 0 };
	struct cpuset *set;
	unsigned int nbits = 0;
	const char *errstr;
	int ch, bad = 0, i;

	while ((ch = getopts(argc, argv, cmd, "b:", bits_opts)) != -1) {
		if (ch != 'b')
			continue;
		nbits = strtonum(optarg, 1, CPUSET_MAXBITS, &errstr);
		if (errstr != NULL) {
			warnx("%s: width \"%s\" is %s (1 to %u)", cmd->name,
			    quoted(optarg), errstr, CPUSET_MAXBITS);
			return EXIT_USAGE;
		}
	}
	if (nbits == 0 && machine_width(&nbits) != 0)
		return EXIT_FAIL;
	set = xcpuset(nbits);
	if (optind < argc)
		for (i = optind; i < argc; i++)
			convert(set, argv[i], tomask, &out, &bad);
	else
		convert_stdin(set, tomask, &out, &bad);
	for (i = 0; bad == 0 && (size_t)i < out.n; i++)
		puts(out.v[i]);
	lines_free(&out);
	cpuset_free(set);
	return bad ? EXIT_USAGE : EXIT_OK;
}
