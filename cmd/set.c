/* set: give IRQs one CPU set, validated before any write. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/commands.h"
#include "core/apply.h"
#include "core/irqbalance.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/irqsel.h"
#include "lib/text.h"
#include "parse.h"

static int set_main(int, char *[]);

const struct command set_command = {
	"set", set_main, "give IRQs a set of CPUs",
	"[-nvJmq] irqs cpus",
	"  -n, --dry-run  print what would change, write nothing\n"
	"  -v, --verbose  print a line for every IRQ\n"
	"  -J, --json     print the result as JSON\n"
	"  -m, --mask     read cpus as a kernel mask (ff,00000000)\n"
	"  -q, --quiet    no irqbalance warning\n",
	NULL
};

static const struct option set_opts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, 'J' },
	{ "mask", no_argument, NULL, 'm' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Whether an item of the selector is this IRQ's number and nothing else. */
static bool
named_alone(const char *arg, unsigned int irq)
{
	struct irqsel *sel;
	size_t n, i;
	bool named = false;

	if (irqsel_parse(arg, &sel, &n, NULL) != 0)
		return false;
	for (i = 0; i < n; i++)
		named |= sel[i].kind == SEL_RANGE && sel[i].lo == irq &&
		    sel[i].hi == irq;
	irqsel_free(sel, n);
	return named;
}

static int
set_main(int argc, char *argv[])
{
	struct machine m;
	struct irqs irqs = { NULL, 0 };
	struct change *c;
	struct cpuset *want;
	struct perr pe;
	struct tally tl = { 0 };
	bool quiet = false;
	int ch, flags = 0, cpus = CPUS_ONLINE, status;
	size_t i;

	while ((ch = getopts(argc, argv, &set_command, "nvJmq", set_opts)) !=
	    -1) {
		switch (ch) {
		case 'n':
			flags |= APPLY_DRYRUN;
			break;
		case 'v':
			flags |= APPLY_VERBOSE;
			break;
		case 'J':
			flags |= APPLY_JSON;
			break;
		case 'm':
			cpus |= CPUS_MASK;
			break;
		case 'q':
			quiet = true;
			break;
		}
	}
	if (argc - optind != 2)
		return usage_error(&set_command,
		    "expected an IRQ list and a CPU set");
	if (flags & APPLY_JSON)
		flags &= ~APPLY_VERBOSE;
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	want = xcpuset(m.nbits);
	if (machine_cpus(&m, argv[optind + 1], cpus, want, &pe) != 0) {
		warnx("%s", pe.msg);
		status = EXIT_USAGE;
		goto out;
	}
	machine_note_offline(&m, want);
	if ((status = exit_status(irqs_select(argv[optind], &irqs))) !=
	    EXIT_OK)
		goto out;
	c = xcalloc(irqs.n, sizeof(*c));
	for (i = 0; i < irqs.n; i++)
		c[i] = (struct change){ irqs.v[i], want,
		    named_alone(argv[optind], irqs.v[i]) };
	if (!quiet)
		irqbalance_warn();
	if (!(flags & APPLY_DRYRUN))
		applying();
	apply_all(&m, c, irqs.n, flags, &tl);
	apply_note(&tl, flags);
	status = exit_applied(&tl);
	if (flags & APPLY_JSON) {
		putchar('{');
		tally_json(stdout, &tl, flags);
		puts("}");
	}
	tally_free(&tl);
	free(c);
out:
	irqs_free(&irqs);
	cpuset_free(want);
	machine_free(&m);
	return status;
}
