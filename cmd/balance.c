/*
 * balance: measure each IRQ's interrupts over an interval and put the
 * busiest on the least-loaded CPUs, heaviest first, keeping an IRQ where
 * it is unless moving it is worth it; print the plan (balance_report.c),
 * then apply it.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>

#include "cmd/commands.h"
#include "cmd/balance.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/balplan.h"
#include "core/irqbalance.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/select.h"
#include "core/snapshot.h"
#include "core/xalloc.h"
#include "core/xpsfollow.h"
#include "lib/interrupts.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

#define INTERVAL	5.0	/* seconds, without -i */

static int balance_main(int, char *[]);

const struct command balance_command = {
	.name = "balance",
	.main = balance_main,
	.summary =
	    "put the busiest IRQs on the least-loaded CPUs, by measured rate",
	.synopsis = "[-nvqJ] [-i seconds] [--sample-from file ...] [-c cpus] "
	    "[--include-isolated] [--xps] [--plan file] [irqs]",
	.options =
	    "  -n, --dry-run           print the plan, write nothing\n"
	    "  -v, --verbose           list every IRQ of the plan, moved or not\n"
	    "  -J, --json              print the plan and the result as JSON\n"
	    "  -i, --interval SECS     measure the rates over SECS (default 5)\n"
	    "      --sample-from FILE  one saved /proc/interrupts a read, not the "
	    "kernel's\n"
	    "  -c, --cpus CPUS         the CPUs to use (default: online, not "
	    "isolated\n"
	    "                          or nohz_full)\n"
	    "      --include-isolated  also use isolated and nohz_full CPUs\n"
	    "      --xps               also move the XPS of their tx queues\n"
	    "      --plan FILE         also write the plan to FILE, for restore to\n"
	    "                          apply as it is (- for standard output)\n"
	    "  -q, --quiet             no notes, no irqbalance warning\n",
};

enum { OPT_CPUS = 256, OPT_XPS, OPT_ISOLATED, OPT_PLAN };

static const struct option balance_opts[] = {
	APPLY_LONGOPTS,
	{ "interval", required_argument, NULL, 'i' },
	CLI_SAMPLE_LONGOPT,
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "xps", no_argument, NULL, OPT_XPS },
	{ "include-isolated", no_argument, NULL, OPT_ISOLATED },
	{ "plan", required_argument, NULL, OPT_PLAN },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int
balance_options(int argc, char *argv[], struct balance *b)
{
	int ch, rc, flags = 0;

	b->sm.interval = INTERVAL;
	while ((ch = cli_getopts(argc, argv, &balance_command, "nvJi:qc:",
	    balance_opts)) != -1) {
		switch (ch) {
		case 'c':
		case OPT_CPUS:
			b->carg = optarg;
			break;
		case OPT_XPS:
			b->xps = true;
			break;
		case OPT_ISOLATED:
			b->isolated = true;
			break;
		case OPT_PLAN:
			b->planfile = optarg;
			break;
		case 'q':
			b->quiet = true;
			break;
		default:
			if (result_option(ch, &flags) == EXIT_OK)
				break;
			if ((rc = cli_sampling_option(&balance_command, ch,
			    optarg, &b->sm)) != EXIT_OK)
				return rc;
			break;
		}
	}
	b->dryrun = flags & APPLY_DRYRUN;
	b->verbose = flags & APPLY_VERBOSE;
	b->json = flags & APPLY_JSON;
	if (argc - optind > 1)
		return cli_usage_error(&balance_command,
		    "expected at most one IRQ list");
	if (b->json && b->planfile != NULL && strcmp(b->planfile, "-") == 0)
		return cli_usage_error(&balance_command, "-J and --plan - "
		    "cannot share standard output; give --plan a file");
	return cli_sampling_check(&balance_command, &b->sm);
}

/*
 * The isolated CPUs the plan left out (balplan_init()), said; with -J in
 * the result.
 */
static int
leave_isolated(struct balance *b)
{
	char *list;

	list = xformat(b->p.left, false);
	if (cpuset_empty(b->elig) && b->carg == NULL)
		warnx("balance: every online CPU (%s) is isolated or "
		    "nohz_full; name the CPUs with --cpus", list);
	else if (cpuset_empty(b->elig))
		warnx("balance: every CPU of \"%s\" is isolated or nohz_full; "
		    "name them by number or give --include-isolated",
		    text_quoted(b->carg));
	else if (*list && !b->quiet && !b->json)
		warnx("balance: CPU %s isolated (%s) left out", list,
		    b->p.why);
	free(list);
	return cpuset_empty(b->elig) ? EXIT_USAGE : EXIT_OK;
}

/*
 * The eligible CPUs: --cpus (online ones), else the online CPUs, less
 * the isolated ones unless --include-isolated, or --cpus names them by
 * number (balplan_init()).
 */
static int
eligible(struct balance *b)
{
	struct cpuset *numbered;
	struct perr pe;

	b->elig = xcpuset(b->m.nbits);
	numbered = xcpuset(b->m.nbits);
	if (b->carg != NULL) {
		if (machine_cpus_numbered(&b->m, b->carg, CPUS_ONLINE, b->elig,
		    numbered, &pe) != 0) {
			warnx("%s", pe.msg);
			cpuset_free(numbered);
			return EXIT_USAGE;
		}
		machine_note_offline(&b->m, b->elig);
		cpuset_and(b->elig, b->m.online);
	} else
		cpuset_copy(b->elig, b->m.online);
	balplan_init(&b->p, &b->m, b->elig, numbered, b->isolated);
	cpuset_free(numbered);
	return leave_isolated(b);
}

/*
 * The selected IRQs the plan may move: not managed by the kernel, their
 * requested CPUs readable. EXIT_OK, or EXIT_FAIL after saying which
 * IRQ's could not be read.
 */
static int
collect(struct balance *b, const struct irqs *sel)
{
	struct cpuset *set;
	struct qrole *ro;
	struct perr pe;
	enum movable mv;
	size_t i;
	int rc, status = EXIT_OK;

	set = xcpuset(b->m.nbits);
	ro = netqueue_roles(sel);
	for (i = 0; i < sel->n; i++) {
		/* kernel-managed or else not movable by user space */
		if ((mv = machine_irq_movable(sel->v[i])) >= MOVABLE_MANAGED) {
			result_leftout_add(&b->unmoved, sel->v[i],
			    mv == MOVABLE_MANAGED);
			continue;
		}
		if ((rc = machine_affinity_read(sel->v[i], AFF_REQUESTED, set,
		    &pe)) != 0) {
			/* -ENOENT: gone since it was selected */
			if (rc != -ENOENT) {
				warnx("irq %u: %s", sel->v[i], pe.msg);
				apply_tally_add(&b->unread, &(struct target){
				    sel->v[i], NULL, NULL, NULL,
				    perr_errno(&pe), pe.msg }, APPLY_FAILED);
				status = EXIT_FAIL;
			}
			continue;
		}
		balplan_add(&b->p, sel->v[i], ro[i], set);
	}
	free(ro);
	cpuset_free(set);
	return status;
}

/*
 * Everything the plan writes is checked before the first write
 * (apply_check()): when one file is refused, nothing is written and the
 * refused are the result. Then the IRQs, then the XPS of their queues;
 * with -n and -J what would be. Returns the exit status.
 */
static int
apply_plan(struct balance *b, const struct change *c, size_t nc, struct xq *xq,
    size_t nx, int flags, struct tally *tl, struct tally *tq)
{
	struct qchange *q = xcalloc(nx + 1, sizeof(*q));
	size_t i, nref;

	for (i = 0; i < nx; i++)
		q[i] = (struct qchange){ xq[i].label, xq[i].rel,
		    c[xq[i].ci].want };
	nref = apply_check(&b->m, c, nc, q, nx, tl, tq);
	free(q);
	for (i = 0; i < nx && i < tq->n; i++)
		if (tq->v[i].result == APPLY_FAILED) {
			xq[i].tried = true;
			xq[i].r = APPLY_FAILED;
		}
	apply_tally_free(tq);
	if (nref > 0) {
		if (!b->json)
			warnx("balance: nothing written");
		return EXIT_FAIL;
	}
	if (!b->quiet)
		irqbalance_warn_changes(c, nc);
	if (b->dryrun) {
		if (b->json)
			xpsfollow_write(&b->m, c, nc, xq, nx,
			    flags | APPLY_DRYRUN, tl, tq);
		return EXIT_OK;
	}
	cli_applying();
	xpsfollow_write(&b->m, c, nc, xq, nx, flags, tl, tq);
	return result_status(tl, tq, flags);
}

/* The two reads, -i apart, and the plan; 0, or -1 after saying why. */
static int
measure(struct balance *b, const struct irqs *all)
{
	size_t i;

	balplan_follow(&b->p, all);
	cli_sampling_begin(&b->sm);
	if (balplan_read(&b->p, 0, b->sm.src) != 0)
		return -1;
	cli_sampling_next(&b->sm, b->json);
	if (balplan_read(&b->p, 1, b->sm.src) != 0)
		return -1;
	balplan_make(&b->p);
	for (i = 0; i < b->p.nfreed && !b->quiet; i++)
		warnx("note: irq %u was freed during the interval; left out "
		    "of the plan", b->p.freed[i]);
	if (!b->quiet)
		result_leftout_note(&b->unmoved);
	return 0;
}

static int
run(struct balance *b, const char *arg)
{
	struct irqs all = { 0 }, sel = { 0 };
	struct tally tl = { 0 }, tq = { 0 };
	struct change *c = NULL;
	struct xq *xq = NULL;
	size_t nx = 0, nc = 0, i;
	int status, flags = b->json ? APPLY_JSON : 0;

	result_tally(&tl, flags);
	result_tally(&tq, flags);
	if ((status = cli_exit_status(select_irqs(arg ? arg : "all", &sel))) !=
	    EXIT_OK)
		return status;
	status = EXIT_FAIL;
	if (select_all(&all) != 0)
		goto out;
	if ((status = collect(b, &sel)) != EXIT_OK) {
		/* nothing is planned from part of the IRQs */
		if (!b->json)
			warnx("balance: nothing written");
		result_json(&b->unread, flags | (b->dryrun ? APPLY_DRYRUN : 0),
		    NULL, NULL);
		goto out;
	}
	if (measure(b, &all) != 0) {
		status = EXIT_FAIL;
		goto out;
	}
	/* only the IRQs the plan writes, and the XPS of their queues */
	c = xcalloc(b->p.n + 1, sizeof(*c));
	for (i = 0; i < b->p.n; i++)
		if (b->p.it[i].why != BAL_KEEP)
			c[nc++] = (struct change){ b->p.it[i].irq,
			    b->p.it[i].want, false };
	if (!b->quiet && !b->xps)
		result_xps_stale_note(&b->m, c, nc);
	if ((b->xps && xpsfollow_plan(&b->m, "balance", c, nc, &xq,
	    &nx) != 0) || balance_show_plan(b, c, xq, nx) != 0) {
		/* stopped before applying: the plan, nothing written */
		if (!b->json)
			warnx("balance: nothing written");
		status = EXIT_FAIL;
	} else
		status = apply_plan(b, c, nc, xq, nx, flags, &tl, &tq);
	result_leftout_tally(&b->unmoved, &tl, flags);
	result_json(&tl, flags | (b->dryrun ? APPLY_DRYRUN : 0),
	    balance_members, &(struct balance_json){ b, c, xq, nx });
out:
	xpsfollow_free(xq, nx);
	free(c);
	apply_tally_free(&tl);
	apply_tally_free(&tq);
	select_free(&all);
	select_free(&sel);
	return status;
}

static void
balance_free(struct balance *b)
{
	balplan_free(&b->p);
	result_leftout_free(&b->unmoved);
	apply_tally_free(&b->unread);
	cpuset_free(b->elig);
	machine_free(&b->m);
	cli_sampling_free(&b->sm);
}

static int
balance_main(int argc, char *argv[])
{
	struct balance b;
	int status;

	memset(&b, 0, sizeof(b));
	if ((status = balance_options(argc, argv, &b)) != EXIT_OK ||
	    machine_load(&b.m) != 0) {
		cli_sampling_free(&b.sm);
		return status != EXIT_OK ? status : EXIT_FAIL;
	}
	if ((status = eligible(&b)) == EXIT_OK)
		status = run(&b, optind < argc ? argv[optind] : NULL);
	balance_free(&b);
	return status;
}
