/*
 * mask and list: CPU lists to kernel masks and back. Every value is
 * converted before anything is printed, so one bad value leaves
 * standard output empty.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "machine.h"
#include "procfs.h"
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

struct out {
	char	**v;
	size_t	  n;
};

static void
out_free(struct out *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/*
 * Converts one value into out; a bad one is counted after a warning. A
 * value is used whole: where the kernel's parsers would stop at a newline,
 * only a last one is allowed.
 */
static void
convert(struct cpuset *set, const char *value, size_t len, bool tomask,
    struct out *out, int *bad)
{
	struct perr pe;
	int rc;

	if (strlen(value) != len)
		rc = perr_set(&pe, EINVAL, "a NUL byte");
	else if (strcspn(value, "\n") + 1 < len)
		rc = perr_set(&pe, EINVAL, "a newline before the end");
	else if (tomask)
		rc = cpulist_parse(set, value, &pe);
	else
		rc = cpumask_parse(set, value, &pe);
	if (rc != 0) {
		warnx("%s \"%s\": %s", tomask ? "CPU list" : "mask",
		    quoted(value), pe.msg);
		(*bad)++;
		return;
	}
	out->v = xreallocarray(out->v, out->n + 1, sizeof(*out->v));
	out->v[out->n++] = xformat(set, tomask);
}

/*
 * Lines of standard input, each at most what the longest list or mask
 * of this width needs, with room for blanks.
 */
static void
convert_stdin(struct cpuset *set, bool tomask, struct out *out, int *bad)
{
	struct lines in;
	size_t len, lineno = 0;
	char *line;
	int rc;

	lines_fd(&in, STDIN_FILENO, 16 * (size_t)set->nbits + 4096);
	while ((rc = lines_next(&in, &line, &len)) == 1) {
		lineno++;
		convert(set, line, len, tomask, out, bad);
	}
	if (rc == -EFBIG) {
		warnx("%s on line %zu of standard input: longer than any of "
		    "%u CPUs", tomask ? "CPU list" : "mask", lineno + 1,
		    set->nbits);
		(*bad)++;
	} else if (rc < 0)
		errc(EXIT_FAIL, -rc, "standard input");
	lines_close(&in);
}

static int
convert_main(int argc, char *argv[])
{
	const struct command *cmd = strcmp(argv[0], "mask") == 0 ?
	    &mask_command : &list_command;
	bool tomask = cmd == &mask_command;
	struct out out = { NULL, 0 };
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
			convert(set, argv[i], strlen(argv[i]), tomask, &out,
			    &bad);
	else
		convert_stdin(set, tomask, &out, &bad);
	for (i = 0; bad == 0 && (size_t)i < out.n; i++)
		puts(out.v[i]);
	out_free(&out);
	cpuset_free(set);
	return bad ? EXIT_USAGE : EXIT_OK;
}
