/*
 * mask and list: CPU lists to kernel masks and back. Nothing is printed
 * unless every value is good: operands are all checked before the first
 * is printed, and what standard input converts to is held (in memory up
 * to 1 MiB, then in a temporary file) until its last line is read.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static int convert_main(int, char *[]);

const struct command mask_command = {
	.name = "mask",
	.main = convert_main,
	.summary = "print CPU lists as kernel masks",
	.synopsis = "[-b bits] [cpus ...]",
	.options =
	    "  -b, --bits BITS  width of the set (default: the possible CPUs)\n",
};

const struct command list_command = {
	.name = "list",
	.main = convert_main,
	.summary = "print kernel masks as CPU lists",
	.synopsis = "[-b bits] [mask ...]",
	.options =
	    "  -b, --bits BITS  width of the set (default: the possible CPUs)\n",
};

static const struct option bits_opts[] = {
	{ "bits", required_argument, NULL, 'b' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Output held in memory up to this size, past it in a temporary file. */
#define HOLD_MAX	(1024 * 1024)

/* Lines held until every value is known to be good. */
struct held {
	char	*buf;	/* owned; HOLD_MAX bytes, once there is a line */
	size_t	 len;
	FILE	*fp;	/* owned; the temporary file, once buf is full */
};

/* Returns 0, or -1 with errno when the temporary file fails. */
static int
held_add(struct held *h, const char *line)
{
	size_t n = strlen(line);

	if (h->buf == NULL)
		h->buf = xreallocarray(NULL, HOLD_MAX, 1);
	if (h->fp == NULL && h->len + n + 1 <= HOLD_MAX) {
		memcpy(h->buf + h->len, line, n);
		h->buf[h->len + n] = '\n';
		h->len += n + 1;
		return 0;
	}
	if (h->fp == NULL) {
		if ((h->fp = tmpfile()) == NULL ||
		    fwrite(h->buf, 1, h->len, h->fp) != h->len)
			return -1;
		h->len = 0;
	}
	if (fwrite(line, 1, n, h->fp) != n || putc('\n', h->fp) == EOF)
		return -1;
	return 0;
}

/*
 * Prints what was held, buf being the copy buffer once there is a file.
 * A write error on standard output stops the copy; main reports it.
 * Returns 0, or -1 with errno when the temporary file fails.
 */
static int
held_print(struct held *h)
{
	size_t n;

	if (h->fp == NULL) {
		if (h->len > 0)
			fwrite(h->buf, 1, h->len, stdout);
		return 0;
	}
	if (fflush(h->fp) != 0 || ferror(h->fp) ||
	    fseek(h->fp, 0, SEEK_SET) != 0)
		return -1;
	while ((n = fread(h->buf, 1, HOLD_MAX, h->fp)) > 0)
		if (fwrite(h->buf, 1, n, stdout) != n)
			return 0;
	return ferror(h->fp) ? -1 : 0;
}

/* The machine node:K items name, read when the first one is met. */
static struct machine nodes_machine;
static bool nodes_loaded;

/*
 * A CPU list with node:K items, as every command that takes CPUs reads
 * it, into set; only at the machine's own width, whose nodes they are.
 */
static int
nodes_parse(struct cpuset *set, const char *value, struct perr *pe)
{
	if (!nodes_loaded) {
		if (machine_load(&nodes_machine) != 0)
			return perr_set(pe, EIO,
			    "CPU list \"%s\": node:K needs "
			    "this machine's NUMA nodes", text_quoted(value));
		nodes_loaded = true;
	}
	if (nodes_machine.nbits != set->nbits)
		return perr_set(pe, EINVAL,
		    "CPU list \"%s\": node:K is a set "
		    "of this machine's %u possible CPUs; leave out -b",
		    text_quoted(value), nodes_machine.nbits);
	return machine_cpus(&nodes_machine, value, 0, set, pe);
}

static void
held_free(struct held *h)
{
	if (h->fp != NULL)
		fclose(h->fp);
	free(h->buf);
}

/*
 * Parses one value into set, or warns and returns false. A value is used
 * whole: where the kernel's parsers would stop at a newline, only a last
 * one is allowed.
 */
static bool
convert(struct cpuset *set, const char *value, size_t len, bool tomask)
{
	struct perr pe;
	int rc;

	if (strlen(value) != len)
		rc = perr_set(&pe, EINVAL, "a NUL byte");
	else if (strcspn(value, "\n") + 1 < len)
		rc = perr_set(&pe, EINVAL, "a newline before the end");
	else if (tomask && strstr(value, "node:") != NULL) {
		if ((rc = nodes_parse(set, value, &pe)) != 0)
			warnx("%s", pe.msg);
		return rc == 0;
	} else if (tomask)
		rc = cpulist_parse(set, value, &pe);
	else
		rc = cpumask_parse(set, value, &pe);
	if (rc != 0)
		warnx("%s \"%s\": %s", tomask ? "CPU list" : "mask",
		    text_quoted(value), pe.msg);
	return rc == 0;
}

/* Every operand is checked, then each printed; returns the bad ones. */
static int
convert_args(struct cpuset *set, bool tomask, int argc, char *argv[])
{
	char *text;
	int bad = 0, i;

	for (i = 0; i < argc; i++)
		if (!convert(set, argv[i], strlen(argv[i]), tomask))
			bad++;
	for (i = 0; bad == 0 && i < argc; i++) {
		convert(set, argv[i], strlen(argv[i]), tomask);	/* good */
		text = xformat(set, tomask);
		puts(text);
		free(text);
	}
	return bad;
}

/*
 * Lines of standard input, each at most what the longest list or mask
 * of this width needs, with room for blanks; their output is held until
 * the end and printed only when all are good. Returns the exit status.
 */
static int
convert_stdin(struct cpuset *set, bool tomask)
{
	struct held out = { NULL, 0, NULL };
	struct lines in;
	size_t len, lineno = 0;
	char *line, *text;
	bool failed = false;
	int rc, bad = 0;

	procfs_lines_fd(&in, STDIN_FILENO, 16 * (size_t)set->nbits + 4096);
	while (!failed && (rc = procfs_lines_next(&in, &line, &len)) == 1) {
		lineno++;
		if (!convert(set, line, len, tomask))
			bad++;
		else if (bad == 0) {
			text = xformat(set, tomask);
			if (held_add(&out, text) != 0) {
				warn("temporary file");
				failed = true;
			}
			free(text);
		}
	}
	if (failed)
		;
	else if (rc == -EFBIG) {
		warnx("%s on line %zu of standard input: longer than any of "
		    "%u CPUs", tomask ? "CPU list" : "mask", lineno + 1,
		    set->nbits);
		bad++;
	} else if (rc < 0) {
		warnc(-rc, "standard input");
		failed = true;
	}
	procfs_lines_close(&in);
	if (!failed && bad == 0 && held_print(&out) != 0) {
		warn("temporary file");
		failed = true;
	}
	held_free(&out);
	if (failed)
		return EXIT_FAIL;
	return bad ? EXIT_USAGE : EXIT_OK;
}

static int
convert_main(int argc, char *argv[])
{
	const struct command *cmd = strcmp(argv[0], "mask") == 0 ?
	    &mask_command : &list_command;
	bool tomask = cmd == &mask_command;
	struct cpuset *set;
	unsigned int nbits = 0;
	const char *errstr;
	int ch, status;

	while ((ch = cli_getopts(argc, argv, cmd, "b:", bits_opts)) != -1) {
		if (ch != 'b')
			continue;
		nbits = strtonum(optarg, 1, CPUSET_MAXBITS, &errstr);
		if (errstr != NULL) {
			warnx("%s: width \"%s\" is %s (1 to %u)", cmd->name,
			    text_quoted(optarg), errstr, CPUSET_MAXBITS);
			return EXIT_USAGE;
		}
	}
	if (nbits == 0 && machine_width(&nbits) != 0)
		return EXIT_FAIL;
	set = xcpuset(nbits);
	if (optind < argc)
		status = convert_args(set, tomask, argc - optind,
		    argv + optind) ? EXIT_USAGE : EXIT_OK;
	else
		status = convert_stdin(set, tomask);
	cpuset_free(set);
	if (nodes_loaded)
		machine_free(&nodes_machine);
	return status;
}
