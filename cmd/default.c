/* default: show or set default_smp_affinity, the affinity of new IRQs. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/commands.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

static int default_main(int, char *[]);

const struct command default_command = {
	.name = "default",
	.main = default_main,
	.summary = "show or set the affinity of new IRQs",
	.synopsis = "[-mnvJ] [cpus]",
	.options =
	    "  -m, --mask     print, and read cpus, as a kernel mask\n"
	    "  -n, --dry-run  print what would change, write nothing\n"
	    "  -v, --verbose  print the change\n"
	    "  -J, --json     print the set, or the result, as JSON\n",
};

static const struct option default_opts[] = {
	{ "mask", no_argument, NULL, 'm' },
	APPLY_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* -J: {"default":"0-3"}, a list even with -m. */
static int
show_default(struct cpuset *set, bool mask, bool json)
{
	struct perr pe;
	char *out;

	if (machine_default_read(set, &pe) != 0) {
		warnx("%s", pe.msg);
		return EXIT_FAIL;
	}
	out = xformat(set, mask && !json);
	if (json)
		printf("{\"default\":\"%s\"}\n", out);
	else
		puts(out);
	free(out);
	return EXIT_OK;
}

static int
set_default(struct machine *m, const char *arg, int cpus, int flags,
    struct cpuset *set)
{
	struct tally tl = { 0 };
	struct cpuset *left;
	struct perr pe;
	char *list;
	int status;

	if (machine_cpus(m, arg, cpus, set, &pe) != 0) {
		warnx("%s", pe.msg);
		return EXIT_USAGE;
	}
	machine_note_offline(m, set);
	left = isolation_take_remembered(m, set);
	list = xformat(left, false);
	if (*list != '\0' && cpuset_empty(set))
		warnx("default: CPU %s isolated by irqaff isolate: no CPU "
		    "left (isolate --undo gives them back)", list);
	else if (*list != '\0')
		warnx("note: CPU %s isolated by irqaff isolate: left out "
		    "(isolate --undo gives them back)", list);
	free(list);
	status = !cpuset_empty(left) && cpuset_empty(set);
	cpuset_free(left);
	if (status)
		return EXIT_USAGE;
	result_start(flags);
	result_tally(&tl, flags);
	apply_default(m, set, flags, &tl);
	status = result_print(&tl, NULL, flags, NULL, NULL);
	apply_tally_free(&tl);
	return status;
}

static int
default_main(int argc, char *argv[])
{
	struct machine m;
	struct cpuset *set;
	int ch, flags = 0, cpus = CPUS_ONLINE | CPUS_MOPT, status;

	while ((ch = cli_getopts(argc, argv, &default_command, "mnvJ",
	    default_opts)) != -1) {
		if (ch == 'm')
			cpus |= CPUS_MASK;
		else
			result_option(ch, &flags);
	}
	if (argc - optind > 1)
		return cli_usage_error(&default_command,
		    "expected at most one CPU set");
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	set = xcpuset(m.nbits);
	if (argc - optind == 1)
		status = set_default(&m, argv[optind], cpus, flags, set);
	else
		status = show_default(set, cpus & CPUS_MASK,
		    flags & APPLY_JSON);
	cpuset_free(set);
	machine_free(&m);
	return status;
}
