/*
 * irqaff: show and steer where hardware interrupts run.
 *
 * main() knows only the command table, --root, --help and --version; each
 * command parses its own options, as wg(8) does.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "core/xalloc.h"
#include "procfs.h"

static const struct command *const commands[] = {
	&show_command, &set_command, &spread_command, &default_command,
	&isolate_command, &explain_command, &cpus_command, &queues_command,
	&xps_command, &rps_command, &save_command, &restore_command,
	&check_command, &mask_command, &list_command,
};

/* One line for errors, the whole help for --help. */
static int
main_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: %s [--root dir] command [args]\n", getprogname());
	if (fp == stderr)
		return EXIT_USAGE;
	fprintf(fp, "       %s --help | --version\n\n", getprogname());
	fprintf(fp, "Commands (with no command, show):\n");
	for (i = 0; i < nitems(commands); i++)
		fprintf(fp, "  %-9s %s\n", commands[i]->name,
		    commands[i]->summary);
	fprintf(fp, "\n'%s COMMAND --help' describes each one.\n"
	    "The root directory comes from --root, then $IRQAFF_ROOT, "
	    "then /.\n\n%s", getprogname(), exit_help);
	return EXIT_OK;
}

int
main(int argc, char *argv[])
{
	static char *show[] = { "show", NULL };
	const char *root = getenv("IRQAFF_ROOT");
	size_t i;
	int rc;

	setprogname(argv[0]);
	for (argc--, argv++; argc > 0 && argv[0][0] == '-'; argc--, argv++) {
		if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)
			return exit_output(main_usage(stdout));
		else if (strcmp(argv[0], "--version") == 0) {
			printf("irqaff %s\n", IRQAFF_VERSION);
			return exit_output(EXIT_OK);
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
				warnx("unknown option %s", quoted(argv[0]));
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
	for (i = 0; i < nitems(commands); i++)
		if (strcmp(argv[0], commands[i]->name) == 0)
			break;
	if (i == nitems(commands)) {
		warnx("unknown command %s", quoted(argv[0]));
		return main_usage(stderr);
	}
	if ((rc = procfs_init(root)) != 0) {
		warnc(-rc, "root %s", quoted(root ? root : "/"));
		return EXIT_FAIL;
	}
	return exit_output(commands[i]->main(argc, argv));
}
