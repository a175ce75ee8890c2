/*
 * irqaff: show and steer where hardware interrupts run.
 *
 * main() knows only the command table, --root, --help, --version and
 * help; each command parses its own options, as wg(8) does.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>

#include "cmd/commands.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "procfs.h"

static const struct command *const commands[] = {
	&show_command, &set_command, &spread_command, &balance_command,
	&default_command, &isolate_command, &explain_command, &cpus_command,
	&top_command, &queues_command, &xps_command, &rps_command, &save_command,
	&restore_command, &check_command, &mask_command, &list_command,
};

/*
 * The command called name, or NULL after saying so and what was meant:
 * a command, or help where help is one.
 */
static const struct command *
find_command(const char *name, bool with_help)
{
	const char *near = NULL;
	size_t i, best = 3, dist;

	for (i = 0; i < nitems(commands); i++) {
		if (strcmp(name, commands[i]->name) == 0)
			return commands[i];
		if ((dist = text_distance(name, commands[i]->name)) < best) {
			best = dist;
			near = commands[i]->name;
		}
	}
	if (with_help && (dist = text_distance(name, "help")) < best) {
		best = dist;
		near = "help";
	}
	if (near != NULL && strlen(name) > best)
		warnx("unknown command %s; did you mean %s?", text_quoted(name),
		    near);
	else
		warnx("unknown command %s", text_quoted(name));
	return NULL;
}

/* One line for errors, the whole help for --help. */
static int
main_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: %s [--root dir] command [args]\n", getprogname());
	if (fp == stderr)
		return EXIT_USAGE;
	fprintf(fp, "       %s --help | --version | help [command]\n\n",
	    getprogname());
	fprintf(fp, "Commands (with no command, show):\n");
	for (i = 0; i < nitems(commands); i++)
		fprintf(fp, "  %-9s %s\n", commands[i]->name,
		    commands[i]->summary);
	fprintf(fp, "\n'%s help COMMAND' describes each one.\n"
	    "The root directory comes from --root, then $IRQAFF_ROOT, "
	    "then /.\n\n%s", getprogname(), cli_exit_help);
	return EXIT_OK;
}

/* help, help help, help COMMAND. */
static int
main_help(int argc, char *argv[])
{
	const struct command *cmd;

	if (argc == 1 || (argc == 2 && strcmp(argv[1], "help") == 0))
		return cli_exit_output(main_usage(stdout));
	if (argc > 2) {
		warnx("help takes one command");
		return main_usage(stderr);
	}
	if ((cmd = find_command(argv[1], false)) == NULL)
		return main_usage(stderr);
	cli_usage(stdout, cmd);
	return cli_exit_output(EXIT_OK);
}

int
main(int argc, char *argv[])
{
	static char *show[] = { "show", NULL };
	const struct command *cmd;
	const char *root = getenv("IRQAFF_ROOT");
	int rc;

	setprogname(argv[0]);
	for (argc--, argv++; argc > 0 && argv[0][0] == '-'; argc--, argv++) {
		/* -- ends the options before the command, as getopt's does */
		if (strcmp(argv[0], "--") == 0) {
			argc--;
			argv++;
			break;
		}
		if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)
			return cli_exit_output(main_usage(stdout));
		else if (strcmp(argv[0], "--version") == 0) {
			printf("irqaff %s\n", IRQAFF_VERSION);
			return cli_exit_output(EXIT_OK);
		} else if (strcmp(argv[0], "--root") == 0 && argc > 1) {
			root = argv[1];
			argc--;
			argv++;
		} else if (strncmp(argv[0], "--root=", 7) == 0)
			root = argv[0] + 7;
		else {
			if (strcmp(argv[0], "--root") == 0)
				warnx("option --root needs a directory");
			else
				warnx("unknown option %s",
				    text_quoted(argv[0]));
			return main_usage(stderr);
		}
	}
	/* an empty root is a mistake, never the live machine */
	if (root != NULL && *root == '\0') {
		warnx("the root directory is empty; give one, or / for this "
		    "machine");
		return main_usage(stderr);
	}
	if (argc == 0) {
		argc = 1;
		argv = show;
	}
	if (strcmp(argv[0], "help") == 0)
		return main_help(argc, argv);
	if ((cmd = find_command(argv[0], true)) == NULL)
		return main_usage(stderr);
	if ((rc = procfs_init(root)) != 0) {
		warnc(-rc, "root %s", text_quoted(root ? root : "/"));
		return EXIT_FAIL;
	}
	return cli_exit_output(cmd->main(argc, argv));
}
