/* set: give IRQs one CPU set, validated before any write. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/commands.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/irqbalance.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

static int set_main(int, char *[]);

const struct command set_command = {
	.name = "set",
	.main = set_main,
	.summary = "give IRQs a set of CPUs",
	.synopsis = "[-nvJmq] irqs cpus",
	.options =
	    "  -n, --dry-run  print what would change, write nothing\n"
	    "  -v, --verbose  print a line for every IRQ\n"
	    "  -J, --json     print the result as JSON\n"
	    "  -m, --mask     read cpus as a kernel mask (ff,00000000)\n"
	    "  -q, --quiet    no irqbalance or isolated-CPU warning\n",
};

static const struct option set_opts[] = {
	APPLY_LONGOPTS,
	{ "mask", no_argument, NULL, 'm' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int
set_options(int argc, char *argv[], int *flags, int *cpus, bool *quiet)
{
	int ch;

	while ((ch = cli_getopts(argc, argv, &set_command, "nvJmq",
	    set_opts)) != -1) {
		if (ch == 'm')
			*cpus |= CPUS_MASK;
		else if (ch == 'q')
			*quiet = true;
		else
			result_option(ch, flags);
	}
	if (argc - optind != 2)
		return cli_usage_error(&set_command,
		    "expected an IRQ list and a CPU set");
	return EXIT_OK;
}

/* The CPUs and the IRQs, each said when wrong. */
static int
set_read(struct machine *m, char *argv[], int cpus, struct cpuset *want,
    struct irqs *irqs)
{
	struct perr pe;

	if (machine_cpus(m, argv[1], cpus, want, &pe) != 0) {
		warnx("%s", pe.msg);
		return EXIT_USAGE;
	}
	machine_note_offline(m, want);
	return cli_exit_status(select_irqs(argv[0], irqs));
}

/* set writes onto isolated CPUs as asked, but says so. */
static void
warn_isolated(struct machine *m, const struct cpuset *want)
{
	struct isolated iso;

	isolation_cpus(&iso, m);
	isolation_warn(&iso, want);
	isolation_cpus_free(&iso);
}

static int
set_main(int argc, char *argv[])
{
	struct machine m;
	struct irqs irqs = { 0 };
	struct change *c;
	struct cpuset *want;
	struct tally tl = { 0 };
	bool quiet = false;
	int flags = 0, cpus = CPUS_ONLINE | CPUS_MOPT, status;
	size_t i;

	if ((status = set_options(argc, argv, &flags, &cpus, &quiet)) !=
	    EXIT_OK)
		return status;
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	want = xcpuset(m.nbits);
	if ((status = set_read(&m, argv + optind, cpus, want, &irqs)) ==
	    EXIT_OK) {
		c = xcalloc(irqs.n, sizeof(*c));
		for (i = 0; i < irqs.n; i++)
			c[i] = (struct change){ irqs.v[i], want,
			    select_alone(&irqs, i) };
		if (!quiet) {
			warn_isolated(&m, want);
			irqbalance_warn_changes(c, irqs.n);
		}
		result_tally(&tl, flags);
		/* a layout the CPUs' vectors cannot hold: nothing written */
		if (apply_vectors(&m, c, irqs.n, &tl)) {
			result_start(flags);
			apply_all(&m, c, irqs.n, flags, &tl);
		}
		status = result_print(&tl, NULL, flags, NULL, NULL);
		apply_tally_free(&tl);
		free(c);
	}
	select_free(&irqs);
	cpuset_free(want);
	machine_free(&m);
	return status;
}
