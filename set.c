/* set and default: change requested affinity, validated before any write. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irqaff.h"
#include "procfs.h"

#define DEFAULT_AFFINITY	"proc/irq/default_smp_affinity"

static const struct option set_opts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "mask", no_argument, NULL, 'm' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int
set_main(int argc, char *argv[])
{
	struct machine m;
	struct irqs irqs;
	struct change *c;
	struct cpuset *want;
	bool as_mask = false, quiet = false;
	int ch, flags = 0, status;
	size_t i;

	while ((ch = getopts(argc, argv, "nvmq", set_opts)) != -1) {
		switch (ch) {
		case 'n':
			flags |= APPLY_DRYRUN;
			break;
		case 'v':
			flags |= APPLY_VERBOSE;
			break;
		case 'm':
			as_mask = true;
			break;
		case 'q':
			quiet = true;
			break;
		}
	}
	if (argc - optind != 2) {
		warnx("%s: expected an IRQ list and a CPU set", argv[0]);
		usage(stderr, argv[0]);
		return EXIT_USAGE;
	}
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	want = xcpuset(m.nbits);
	if (cpus_arg(&m, argv[optind + 1], as_mask, want) != 0) {
		cpuset_free(want);
		machine_free(&m);
		return EXIT_USAGE;
	}
	if ((status = irqs_select(argv[optind], &irqs)) != EXIT_OK) {
		cpuset_free(want);
		machine_free(&m);
		return status;
	}
	if ((c = calloc(irqs.n, sizeof(*c))) == NULL)
		err(EXIT_FAIL, NULL);
	for (i = 0; i < irqs.n; i++) {
		c[i].irq = irqs.v[i];
		c[i].want = want;
	}
	if (!quiet)
		irqbalance_warn();
	status = apply(&m, c, irqs.n, flags);
	free(c);
	irqs_free(&irqs);
	cpuset_free(want);
	machine_free(&m);
	return status;
}

static const struct option default_opts[] = {
	{ "mask", no_argument, NULL, 'm' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* default_smp_affinity takes masks only (kernel/irq/proc.c). */
int
default_main(int argc, char *argv[])
{
	struct machine m;
	struct cpuset *set;
	struct perr pe;
	bool as_mask = false;
	char *buf, *out;
	int ch, flags = 0, rc, status = EXIT_OK;

	while ((ch = getopts(argc, argv, "mnv", default_opts)) != -1) {
		switch (ch) {
		case 'm':
			as_mask = true;
			break;
		case 'n':
			flags |= APPLY_DRYRUN;
			break;
		case 'v':
			flags |= APPLY_VERBOSE;
			break;
		}
	}
	if (argc - optind > 1) {
		warnx("%s: expected at most one CPU set", argv[0]);
		usage(stderr, argv[0]);
		return EXIT_USAGE;
	}
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	set = xcpuset(m.nbits);
	if (argc - optind == 1) {
		if (cpus_arg(&m, argv[optind], as_mask, set) != 0)
			status = EXIT_USAGE;
		else
			status = apply_file(&m, "default", DEFAULT_AFFINITY,
			    true, set, flags);
	} else if ((rc = procfs_read(DEFAULT_AFFINITY, &buf)) != 0) {
		warnc(-rc, "%s", procfs_path(DEFAULT_AFFINITY));
		status = EXIT_FAIL;
	} else {
		if (cpumask_parse(set, buf, &pe) != 0) {
			warnx("%s: %s", procfs_path(DEFAULT_AFFINITY), pe.msg);
			status = EXIT_FAIL;
		} else {
			out = as_mask ? cpumask_format(set) :
			    cpulist_format(set);
			if (out == NULL)
				err(EXIT_FAIL, NULL);
			puts(out);
			free(out);
		}
		free(buf);
	}
	cpuset_free(set);
	machine_free(&m);
	return status;
}
