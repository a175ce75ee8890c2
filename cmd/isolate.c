/*
 * isolate: keep a set of CPUs free of interrupts, or check that it is.
 * Movable IRQs and the default affinity leave the CPUs; kernel-managed
 * IRQs, irqbalance and the kernel command line are reported, since only
 * a reboot or their own configuration moves them.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/isolate.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/findings.h"
#include "core/irqinfo.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/select.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

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

static int
isolate_options(int argc, char *argv[], struct isolate *is, int *cpus)
{
	int ch;

	while ((ch = cli_getopts(argc, argv, &isolate_command, "nvqJm",
	    isolate_opts)) != -1) {
		switch (ch) {
		case 'q':
			is->quiet = true;
			break;
		case 'm':
			*cpus |= CPUS_MASK;
			break;
		case OPT_CHECK:
			is->check = true;
			break;
		case OPT_ACCEPT:
			is->accept = true;
			break;
		case OPT_UNDO:
			is->undo = true;
			break;
		case OPT_AGAIN:
			is->again = true;
			break;
		default:
			result_option(ch, &is->flags);
			break;
		}
	}
	is->dryrun = is->flags & APPLY_DRYRUN;
	is->json = is->flags & APPLY_JSON;
	if (is->undo && (argc - optind != 0 || is->check || is->flags ||
	    *cpus))
		return cli_usage_error(&isolate_command,
		    "--undo takes no CPU set and no other option");
	if (is->undo)
		return EXIT_OK;
	if (is->again && (argc - optind != 0 || is->check || *cpus))
		return cli_usage_error(&isolate_command,
		    "--again takes no CPU set, nor --check or -m");
	if (argc - optind != (is->again ? 0 : 1))
		return cli_usage_error(&isolate_command,
		    "expected one CPU set");
	if (is->check && (is->dryrun || (is->flags & APPLY_VERBOSE)))
		return cli_usage_error(&isolate_command,
		    "--check writes nothing; -n and -v do not apply");
	if (is->accept && !is->check)
		return cli_usage_error(&isolate_command,
		    "--accept goes with --check");
	if (is->json)
		is->flags = (is->flags & ~APPLY_VERBOSE) | APPLY_JSON;
	return EXIT_OK;
}

/*
 * The CPUs must leave an online CPU for everything else. What else bears
 * on them is read here too, before anything is planned.
 */
static int
isolate_cpus(struct isolate *is, const char *arg, int flags)
{
	struct perr pe;

	is->cpus = xcpuset(is->m.nbits);
	if (machine_cpus(&is->m, arg, flags | CPUS_NONEMPTY | CPUS_MOPT,
	    is->cpus, &pe) != 0) {
		warnx("%s", pe.msg);
		return EXIT_USAGE;
	}
	isolation_load(&is->iso, &is->m, is->cpus);
	if (cpuset_empty(is->iso.house)) {
		warnx("CPU %s \"%s\": leaves no online CPU for interrupts",
		    flags & CPUS_MASK ? "mask" : "list", text_quoted(arg));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * An IRQ that would keep no online CPU goes to the housekeeping CPUs of
 * its node, or all of them when its node has none.
 */
static struct cpuset *
fallback(struct isolate *is, unsigned int irq)
{
	const struct cpuset *node;
	struct cpuset *to = xcpudup(is->iso.house);
	int id;

	if ((id = machine_irq_node(irq)) >= 0 &&
	    (node = machine_node(&is->m, id)) != NULL &&
	    cpuset_intersects(node, is->iso.house))
		cpuset_and(to, node);
	return to;
}

static void
entry_free(struct entry *e)
{
	cpuset_free(e->from);
	cpuset_free(e->to);
	cpuset_free(e->on);
	free(e->was);
}

/* An IRQ user space cannot move: where it runs, if on the CPUs. */
static void
plan_managed(struct isolate *is, struct entry *e, enum kind kind)
{
	struct cpuset *req = xcpuset(is->m.nbits);
	struct perr pe;

	e->kind = kind;
	e->on = isolation_runs_on(&is->m, e->irq, &e->guessed);
	if (e->on != NULL && (!cpuset_intersects(e->on, is->cpus) ||
	    !isolation_has_handler(&is->m, e->irq))) {
		cpuset_free(e->on);
		e->on = NULL;
	}
	e->kept = e->on != NULL && isolation_by_kernel(&is->iso) &&
	    machine_affinity_read(e->irq, AFF_REQUESTED, req, &pe) == 0 &&
	    isolation_all_isolated(&is->iso, req);
	cpuset_free(req);
}

/* The new affinity of an IRQ on the CPUs: the rest of its own CPUs. */
static void
plan_irq(struct isolate *is, struct entry *e)
{
	struct perr pe;
	enum movable mv;

	if (machine_irq_state(e->irq) & IRQ_MANAGED) {
		plan_managed(is, e, K_MANAGED);
		return;
	}
	e->from = xcpuset(is->m.nbits);
	if (machine_affinity_read(e->irq, AFF_REQUESTED, e->from, &pe) != 0) {
		warnx("irq %u: %s", e->irq, pe.msg);
		e->kind = K_FAILED;
		apply_tally_add(&is->tl, is->flags, e->irq, APPLY_FAILED, NULL,
		    NULL, perr_errno(&pe), pe.msg);
		return;
	}
	if (!cpuset_intersects(e->from, is->cpus)) {
		if (is->flags & APPLY_VERBOSE)
			e->was = xformat(e->from, false);
		return;
	}
	/* without debugfs the kernel is asked, for the IRQs on the CPUs */
	if ((mv = machine_irq_movable(e->irq)) >= MOVABLE_MANAGED) {
		cpuset_free(e->from);
		e->from = NULL;
		plan_managed(is, e, mv == MOVABLE_MANAGED ? K_MANAGED :
		    K_UNMOVABLE);
		return;
	}
	e->kind = K_MOVE;
	e->to = xcpudup(e->from);
	cpuset_andnot(e->to, is->cpus);
	if (!cpuset_intersects(e->to, is->m.online)) {
		cpuset_free(e->to);
		e->to = fallback(is, e->irq);
	}
}

static void
plan_default(struct isolate *is)
{
	struct perr pe;

	is->dfrom = xcpuset(is->m.nbits);
	if (machine_default_read(is->dfrom, &pe) != 0) {
		warnx("%s", pe.msg);
		cpuset_free(is->dfrom);
		is->dfrom = NULL;
		apply_tally_add(&is->tl, is->flags, -1, APPLY_FAILED, NULL,
		    NULL, perr_errno(&pe), pe.msg);
		return;
	}
	is->dto = xcpudup(is->dfrom);
	cpuset_andnot(is->dto, is->cpus);
	if (!cpuset_intersects(is->dto, is->m.online))
		cpuset_copy(is->dto, is->iso.house);
}

/* An interface whose XPS names the CPUs: left, and said (isolate(8)). */
static void
note_xps(struct isolate *is, const struct netif *nif)
{
	struct cpuset *on = xcpuset(is->m.nbits);
	char *list;
	size_t k, nx;

	for (k = nx = 0; k < nif->nq; k++)
		if (nif->q[k].kind == NQ_TX && nif->q[k].cpus != NULL &&
		    cpuset_intersects(nif->q[k].cpus, is->cpus)) {
			cpuset_or(on, nif->q[k].cpus);
			nx++;
		}
	cpuset_and(on, is->cpus);
	if (nx > 0) {
		list = xformat(on, false);
		is->xps_notes = xreallocarray(is->xps_notes,
		    is->nxps_notes + 1, sizeof(*is->xps_notes));
		is->xps_notes[is->nxps_notes++] = xasprintf("note: %s: the "
		    "XPS of %zu tx queue%s names CPU %s, left as it is: it "
		    "says where tasks there send, and interrupts no CPU "
		    "(irqaff xps changes it)", text_quoted(nif->name), nx,
		    nx == 1 ? "" : "s", list);
		free(list);
	}
	cpuset_free(on);
}

/*
 * The receive queues whose rps_cpus name the CPUs: RPS would send them
 * the network stack's work (an IPI and NET_RX) for what others receive.
 * isolcpus= drops its CPUs from rps_cpus when the file is written
 * (net/core/net-sysfs.c rps_cpumask_housekeeping()); isolate drops its
 * own, and RPS left with no CPU is off. A queue whose mask cannot be
 * read fails here, before the first write.
 */
static void
plan_rps(struct isolate *is)
{
	char **names, rel[PATH_MAX], label[NAME_MAX + 40];
	struct netif nif;
	struct netqueue *q;
	struct rpsq *r;
	size_t n, i, k;

	if (netqueue_ifnames(&names, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (netqueue_ifread_quiet(&is->m, names[i], &nif) != 0)
			continue;
		note_xps(is, &nif);
		for (k = 0; k < nif.nq; k++) {
			q = &nif.q[k];
			if (q->kind != NQ_RX || (q->cpus != NULL &&
			    !cpuset_intersects(q->cpus, is->cpus)))
				continue;
			netqueue_path(&nif, q, rel, sizeof(rel));
			if (q->cpus == NULL) {
				netqueue_name(q, label, sizeof(label));
				warnc(-q->err, "%s %s", text_quoted(nif.name),
				    label);
				apply_tally_add(&is->tl, is->flags, APPLY_NOIRQ,
				    APPLY_FAILED, NULL, NULL, -q->err, NULL);
				continue;
			}
			is->rq = xreallocarray(is->rq, is->nrq + 1,
			    sizeof(*is->rq));
			r = &is->rq[is->nrq++];
			r->dev = xstrdup(nif.name);
			r->q.dev = r->dev;
			netqueue_name(q, r->q.queue, sizeof(r->q.queue));
			r->rel = xstrdup(rel);
			r->from = xcpudup(q->cpus);
			r->to = xcpudup(q->cpus);
			cpuset_andnot(r->to, is->cpus);
		}
		netqueue_iffree(&nif);
	}
	procfs_dir_free(names, n);
}

/* Every IRQ read before the first write. */
static int
plan(struct isolate *is)
{
	struct irqs irqs = { 0 };
	size_t i;
	int rc;

	if ((rc = select_all(&irqs)) != 0)
		return cli_exit_status(rc);
	is->e = xcalloc(irqs.n, sizeof(*is->e));
	is->n = irqs.n;
	for (i = 0; i < irqs.n; i++) {
		is->e[i].irq = irqs.v[i];
		if (is->check)
			isolate_check_irq(is, &is->e[i]);
		else
			plan_irq(is, &is->e[i]);
	}
	select_free(&irqs);
	plan_default(is);
	if (!is->check)
		plan_rps(is);
	return EXIT_OK;
}


/*
 * The default first, so that IRQs set up meanwhile avoid the CPUs too.
 * An IRQ off the CPUs counts as unchanged.
 */
static void
apply_plan(struct isolate *is)
{
	struct entry *e;
	size_t i;

	if (is->dfrom != NULL)
		apply_default(&is->m, is->dto, is->flags, &is->tl);
	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		if (e->kind == K_OFF) {
			if (e->was != NULL)
				printf("irq %u: %s unchanged\n", e->irq,
				    *e->was ? e->was : "-");
			apply_tally_add(&is->tl, is->flags, e->irq,
			    APPLY_UNCHANGED, NULL, NULL, 0, NULL);
		} else if (e->kind == K_MANAGED || e->kind == K_UNMOVABLE) {
			if ((is->flags & (APPLY_VERBOSE | APPLY_DRYRUN)) &&
			    !is->json)
				printf("irq %u: %s, left alone\n", e->irq,
				    machine_movable_words(isolate_movability(e),
				    MV_PLAIN));
			apply_tally_add(&is->tl, is->flags, e->irq, e->kind ==
			    K_MANAGED ? APPLY_MANAGED : APPLY_UNMOVABLE, NULL,
			    NULL, 0, NULL);
		}
		if (e->kind != K_MOVE)
			continue;
		if (is->tl.stop) {
			e->result = APPLY_FAILED;
			apply_tally_skip(&is->tl, is->flags, e->irq, e->to);
		} else
			e->result = apply_irq(&is->m, e->irq, e->to,
			    is->flags, &is->tl);
		/* a refusal is the kernel's: it may keep the IRQ here */
		if ((e->result == APPLY_MANAGED ||
		    e->result == APPLY_UNMOVABLE) &&
		    (e->on = isolation_runs_on(&is->m, e->irq, &e->guessed)) != NULL &&
		    !cpuset_intersects(e->on, is->cpus)) {
			cpuset_free(e->on);
			e->on = NULL;
		}
	}
}

/* Each note names only the CPUs it is about. */
static void
find_notes(struct isolate *is)
{
	struct cpuset *on;
	char *from, *list;

	if (is->check && is->dfrom != NULL &&
	    cpuset_intersects(is->dfrom, is->cpus)) {
		from = xformat(is->dfrom, false);
		on = xcpudup(is->dfrom);
		cpuset_and(on, is->cpus);
		list = xformat(on, false);
		findings_add(&is->notes, "default", "default_smp_affinity "
		    "%s includes CPU %s: new IRQs start there", from, list);
		free(list);
		cpuset_free(on);
		free(from);
	}
	/* no isolcpus=managed_irq advice: it may not be managed */
	on = isolate_where(is, isolate_unmovable_here);
	if (!cpuset_empty(on)) {
		list = xformat(on, false);
		findings_add(&is->notes, "unmovable", "IRQs that user space "
		    "cannot move run on CPU %s: kernel-managed, per-CPU or "
		    "no-balancing, which the kernel does not say without irq "
		    "debugfs", list);
		free(list);
	}
	cpuset_free(on);
	on = isolate_where(is, isolate_managed_here);
	isolation_notes(&is->iso, on, &is->notes);
	cpuset_free(on);
}

/* Then RPS, as the IRQs: each queue's mask without the CPUs. */
static void
apply_rps(struct isolate *is)
{
	char label[NAME_MAX + 40];
	size_t i;

	for (i = 0; i < is->nrq; i++) {
		snprintf(label, sizeof(label), "rps %s %s",
		    text_quoted(is->rq[i].dev), is->rq[i].q.queue);
		if (is->tl.stop || is->tq.stop)
			apply_tally_skip(&is->tq, is->flags, APPLY_NOIRQ,
			    is->rq[i].to);
		else
			apply_mask(&is->m, label, is->rq[i].rel, is->rq[i].to,
			    is->flags, &is->tq);
	}
}

/* The moves checked against the CPUs' vectors; false: nothing written. */
static bool
moves_fit(struct isolate *is)
{
	struct change *c = xcalloc(is->n + 1, sizeof(*c));
	size_t i, n = 0;
	bool ok;

	for (i = 0; i < is->n; i++)
		if (is->e[i].kind == K_MOVE)
			c[n++] = (struct change){ is->e[i].irq, is->e[i].to,
			    false };
	ok = apply_vectors(&is->m, c, n, is->flags, &is->tl);
	free(c);
	return ok;
}

static int
run_isolate(struct isolate *is)
{
	struct tally sum = { 0 };
	size_t i;

	if (!moves_fit(is)) {
		if (is->json)
			isolate_print_result(is);
		return EXIT_FAIL;
	}
	if (!is->dryrun)
		cli_applying();
	apply_plan(is);
	apply_rps(is);
	/* set, spread and balance leave them out from now on */
	if (!is->dryrun && isolation_remember(is->cpus) != 0)
		is->tl.failed++;
	find_notes(is);
	if (is->json)
		isolate_print_result(is);
	else if (!is->quiet) {
		isolate_warn_notes(is);
		for (i = 0; i < is->nxps_notes; i++)
			warnx("%s", is->xps_notes[i]);
	}
	sum.changed = is->tl.changed + is->tq.changed;
	sum.failed = is->tl.failed + is->tq.failed;
	return cli_exit_applied(&sum);
}

static void
isolate_free(struct isolate *is)
{
	size_t i;

	for (i = 0; i < is->n; i++)
		entry_free(&is->e[i]);
	free(is->e);
	for (i = 0; i < is->nrq; i++) {
		free(is->rq[i].dev);
		free(is->rq[i].rel);
		cpuset_free(is->rq[i].from);
		cpuset_free(is->rq[i].to);
	}
	free(is->rq);
	for (i = 0; i < is->nxps_notes; i++)
		free(is->xps_notes[i]);
	free(is->xps_notes);
	cpuset_free(is->cpus);
	cpuset_free(is->dfrom);
	cpuset_free(is->dto);
	findings_free(&is->notes);
	apply_tally_free(&is->tl);
	apply_tally_free(&is->tq);
	isolation_free(&is->iso);
	machine_free(&is->m);
}

/*
 * --again: the CPUs remembered, or NULL when none are. A file that
 * cannot be used is bad input (the boot unit fails), one that cannot be
 * read status 1; nothing is written either way.
 */
static int
remembered(struct machine *m, struct cpuset **again)
{
	struct perr pe;
	int rc;

	if ((rc = isolation_remembered(m, again, &pe)) == 0)
		return EXIT_OK;
	warnx("isolate --again: %s; nothing written", pe.msg);
	return rc == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
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
	struct cpuset *again = NULL;
	char *list = NULL;
	int status, cpus = 0;

	memset(&is, 0, sizeof(is));
	if ((status = isolate_options(argc, argv, &is, &cpus)) != EXIT_OK)
		return status;
	if (machine_load(&is.m) != 0)
		return EXIT_FAIL;
	if (is.undo) {
		status = undo(&is.m);
		machine_free(&is.m);
		return status;
	}
	if (is.again && (status = remembered(&is.m, &again)) != EXIT_OK) {
		machine_free(&is.m);
		return status;
	}
	if (is.again && again == NULL) {
		machine_free(&is.m);
		return EXIT_OK;
	}
	if (again != NULL) {
		list = xformat(again, false);
		cpuset_free(again);
	}
	if ((status = isolate_cpus(&is, list != NULL ? list : argv[optind],
	    cpus)) == EXIT_OK &&
	    (status = plan(&is)) == EXIT_OK) {
		if (is.check) {
			find_notes(&is);
			status = isolate_check_run(&is);
		} else
			status = run_isolate(&is);
	}
	isolate_free(&is);
	free(list);
	return status;
}
