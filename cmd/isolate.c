/*
 * isolate: keep a set of CPUs free of interrupts, or check that it is.
 * Movable IRQs and the default affinity leave the CPUs; kernel-managed
 * IRQs, irqbalance and the kernel command line are reported, since only
 * a reboot or their own configuration moves them.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/isolate.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/isolation.h"
#include "core/isolplan.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "parse.h"

static int isolate_main(int, char *[]);
static void isolate_help(FILE *);

const struct command isolate_command = {
	.name = "isolate",
	.main = isolate_main,
	.summary = "keep interrupts off a set of CPUs",
	.synopsis = "[-nvqJm] [--check [--accept]] cpus | --again | --undo",
	.options =
	    "  -n, --dry-run  print the plan, write nothing\n"
	    "  -v, --verbose  print a line for every IRQ\n"
	    "  -q, --quiet    no notes; with --check, no output at all\n"
	    "  -J, --json     print the result as JSON\n"
	    "  -m, --mask     read cpus as a kernel mask (ff,00000000)\n"
	    "      --check    write nothing; exit 0 when no interrupt runs there\n"
	    "      --accept   with --check, exit 0 also when only pending moves and\n"
	    "                 IRQs user space cannot move remain\n"
	    "      --again    isolate the CPUs remembered again (the boot unit);\n"
	    "                 none remembered: nothing to do; a file that\n"
	    "                 cannot be used: status 2\n"
	    "      --undo     forget the CPUs isolate remembered: set, spread and\n"
	    "                 balance use them again\n",
	.more_help = isolate_help,
};

enum { OPT_CHECK = 256, OPT_ACCEPT, OPT_UNDO, OPT_AGAIN };

static const struct option isolate_opts[] = {
	APPLY_LONGOPTS,
	{ "quiet", no_argument, NULL, 'q' },
	{ "mask", no_argument, NULL, 'm' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "accept", no_argument, NULL, OPT_ACCEPT },
	{ "undo", no_argument, NULL, OPT_UNDO },
	{ "again", no_argument, NULL, OPT_AGAIN },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void
isolate_help(FILE *fp)
{
	fprintf(fp, "\nWith --check, isolate exits with 0 when no IRQ runs on "
	    "cpus or is requested\nthere, the default affinity avoids them "
	    "and irqbalance, when it runs, bans\nthem; else 1.\n");
}

/* --check, --again and --undo: one of them at most, as git's OPT_CMDMODE. */
static int
set_mode(struct isolate *is, enum isomode mode)
{
	static const char *const name[] = {
		[MODE_CHECK] = "--check", [MODE_AGAIN] = "--again",
		[MODE_UNDO] = "--undo",
	};

	if (is->mode != MODE_ISOLATE && is->mode != mode)
		return cli_usage_error(&isolate_command, "%s and %s cannot be "
		    "used together", name[is->mode], name[mode]);
	is->mode = mode;
	return EXIT_OK;
}

/* What the mode takes besides: a CPU set or none, and which options. */
static int
mode_args(struct isolate *is, int nargs, int cpus)
{
	int flags = is->p.flags;

	if (is->accept && is->mode != MODE_CHECK)
		return cli_usage_error(&isolate_command,
		    "--accept goes with --check");
	if (is->mode == MODE_UNDO && (nargs != 0 || flags || cpus))
		return cli_usage_error(&isolate_command,
		    "--undo takes no CPU set and no other option");
	if (is->mode == MODE_AGAIN && (nargs != 0 || cpus))
		return cli_usage_error(&isolate_command,
		    "--again takes no CPU set, nor -m");
	if (is->mode != MODE_UNDO && is->mode != MODE_AGAIN && nargs != 1)
		return cli_usage_error(&isolate_command,
		    "expected one CPU set");
	if (is->mode == MODE_CHECK && (flags & (APPLY_DRYRUN | APPLY_VERBOSE)))
		return cli_usage_error(&isolate_command,
		    "--check writes nothing; -n and -v do not apply");
	return EXIT_OK;
}

static int
isolate_options(int argc, char *argv[], struct isolate *is, int *cpus)
{
	int ch, rc = EXIT_OK;

	while (rc == EXIT_OK && (ch = cli_getopts(argc, argv,
	    &isolate_command, "nvqJm", isolate_opts)) != -1) {
		switch (ch) {
		case 'q':
			is->quiet = true;
			break;
		case 'm':
			*cpus |= CPUS_MASK;
			break;
		case OPT_CHECK:
			rc = set_mode(is, MODE_CHECK);
			break;
		case OPT_ACCEPT:
			is->accept = true;
			break;
		case OPT_UNDO:
			rc = set_mode(is, MODE_UNDO);
			break;
		case OPT_AGAIN:
			rc = set_mode(is, MODE_AGAIN);
			break;
		default:
			result_option(ch, &is->p.flags);
			break;
		}
	}
	if (rc != EXIT_OK ||
	    (rc = mode_args(is, argc - optind, *cpus)) != EXIT_OK)
		return rc;
	is->p.check = is->mode == MODE_CHECK;
	is->dryrun = is->p.flags & APPLY_DRYRUN;
	is->json = is->p.flags & APPLY_JSON;
	if (is->json)
		is->p.flags = (is->p.flags & ~APPLY_VERBOSE) | APPLY_JSON;
	result_tally(&is->p.tl, is->p.flags);
	result_tally(&is->p.tq, is->p.flags);
	return EXIT_OK;
}

/* An IRQ the plan leaves: unchanged, or left alone. */
static void
apply_left(struct isolate *is, struct isoirq *e)
{
	struct isoplan *p = &is->p;

	if (e->kind == IK_OFF)
		apply_tally_add(&p->tl, &(struct target){ .irq = e->irq,
		    .old = e->from }, APPLY_UNCHANGED);
	else if (e->kind == IK_MANAGED || e->kind == IK_UNMOVABLE)
		apply_tally_add(&p->tl, &(struct target){ .irq = e->irq },
		    e->kind == IK_MANAGED ? APPLY_MANAGED : APPLY_UNMOVABLE);
}

/*
 * The default first, so that IRQs set up meanwhile avoid the CPUs too.
 * An IRQ off the CPUs counts as unchanged.
 */
static void
apply_plan(struct isolate *is)
{
	struct isoplan *p = &is->p;
	struct isoirq *e;
	size_t i;

	if (p->dfrom != NULL)
		apply_default(&p->m, p->dto, p->flags, &p->tl);
	for (i = 0; i < p->n; i++) {
		e = &p->e[i];
		if (e->kind != IK_MOVE) {
			apply_left(is, e);
			continue;
		}
		if (p->tl.stop) {
			e->result = APPLY_FAILED;
			apply_tally_skip(&p->tl, e->irq, e->to);
		} else
			e->result = apply_irq(&p->m, e->irq, e->to, p->flags,
			    &p->tl);
		isoplan_after(p, e);
	}
}

static int
run_isolate(struct isolate *is)
{
	struct isoplan *p = &is->p;
	struct tally sum = { 0 };
	size_t i;

	/* a CPU out of vectors gives its IRQs to the freest that remain */
	if (p->vmoved > 0 && !is->quiet && !is->json)
		warnx("note: %zu IRQ%s placed on other CPUs than planned: "
		    "those had no free interrupt vector", p->vmoved,
		    p->vmoved == 1 ? "" : "s");
	if (!isoplan_fits(p)) {
		if (is->json)
			isolate_print_result(p);
		return EXIT_FAIL;
	}
	if (!is->dryrun)
		cli_applying();
	apply_plan(is);
	isoplan_apply_rps(p);
	/* set, spread and balance leave them out from now on */
	if (!is->dryrun && isolation_remember(p->cpus) != 0)
		p->tl.failed++;
	isoplan_notes(p);
	if (is->json)
		isolate_print_result(p);
	else if (!is->quiet) {
		isolate_warn_notes(p);
		for (i = 0; i < p->nxps_notes; i++)
			warnx("%s", p->xps_notes[i]);
	}
	sum.changed = p->tl.changed + p->tq.changed;
	sum.failed = p->tl.failed + p->tq.failed;
	return cli_exit_applied(&sum, is->dryrun);
}

/* The CPUs of arg planned, then checked or isolated. */
static int
run(struct isolate *is, const char *arg, int cpus)
{
	struct perr pe;
	int rc;

	if (isoplan_cpus(&is->p, arg, cpus, &pe) != 0) {
		warnx("%s", pe.msg);
		return EXIT_USAGE;
	}
	if ((rc = isoplan_make(&is->p)) != 0)
		return cli_exit_status(rc);
	if (is->mode != MODE_CHECK)
		return run_isolate(is);
	isoplan_notes(&is->p);
	return isolate_check_run(is);
}

/*
 * --again: the CPUs remembered as a list in *list, or NULL when none
 * are. A file that cannot be used is bad input (the boot unit fails),
 * one that cannot be read status 1; nothing is written either way.
 */
static int
remembered(struct machine *m, char **list)
{
	struct cpuset *again;
	struct perr pe;
	int rc;

	*list = NULL;
	if ((rc = isolation_remembered(m, &again, &pe)) != 0) {
		warnx("isolate --again: %s; nothing written", pe.msg);
		return rc == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	if (again != NULL)
		*list = xformat(again, false);
	cpuset_free(again);
	return EXIT_OK;
}

/*
 * --undo: forget the CPUs, and say what that does and what it leaves: the
 * IRQs stay where isolate put them until a snapshot is restored.
 */
static int
undo(struct machine *m)
{
	struct cpuset *was = NULL;
	struct perr pe;
	char *list;

	if (isolation_remembered(m, &was, &pe) != 0)
		warnx("isolate --undo: %s", pe.msg);
	if (isolation_forget() != 0) {
		cpuset_free(was);
		return EXIT_FAIL;
	}
	if (was == NULL) {
		warnx("isolate --undo: no CPU was remembered");
		return EXIT_OK;
	}
	list = xformat(was, false);
	warnx("isolate --undo: CPU %s forgotten: set, spread, balance, "
	    "default and restore use them again; no IRQ moved back (restore "
	    "a snapshot for that)", list);
	free(list);
	cpuset_free(was);
	return EXIT_OK;
}

static int
isolate_main(int argc, char *argv[])
{
	struct isolate is;
	char *list = NULL;
	int status, cpus = 0;

	memset(&is, 0, sizeof(is));
	if ((status = isolate_options(argc, argv, &is, &cpus)) != EXIT_OK)
		return status;
	if (machine_load(&is.p.m) != 0)
		return EXIT_FAIL;
	if (is.mode == MODE_UNDO)
		status = undo(&is.p.m);
	else if (is.mode != MODE_AGAIN)
		status = run(&is, argv[optind], cpus);
	else if ((status = remembered(&is.p.m, &list)) == EXIT_OK &&
	    list != NULL)
		status = run(&is, list, cpus);
	isoplan_free(&is.p);
	free(list);
	return status;
}
