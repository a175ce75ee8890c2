/*
 * restore: apply a snapshot, the IRQs then the queue lines, each line
 * reported that cannot be applied; a balance plan whole or not at all.
 * check (check.c) reads and resolves the file the same way.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/restore.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/irqbalance.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/snapshot.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static int restore_main(int, char *[]);

const struct command restore_command = {
	.name = "restore",
	.main = restore_main,
	.summary = "apply a snapshot",
	.synopsis = "[-ntvqJ] [--by-number] [--only irqs] file",
	.options =
	    "  -n, --dry-run    print what would change, write nothing\n"
	    "  -t, --test       check the file against this machine, apply "
	    "nothing\n"
	    "  -v, --verbose    print a line for every IRQ\n"
	    "  -q, --quiet      no irqbalance warning\n"
	    "  -J, --json       print the result as JSON\n"
	    "      --by-number  match IRQs by number, not by name\n"
	    "      --only IRQS  apply to these IRQs only, not the default\n",
};

static const struct option restore_opts[] = {
	APPLY_LONGOPTS,
	{ "test", no_argument, NULL, 't' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "by-number", no_argument, NULL, OPT_BY_NUMBER },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

void
restore_run_free(struct run *r)
{
	snapshot_mirqs_free(&r->mi);
	select_free(&r->only);
	snapshot_free(&r->s);
	machine_free(&r->m);
}

/*
 * One operand, the machine, the --only selection, the snapshot and the
 * IRQs there are. A snapshot with no entry is bad input (2) for both: a
 * truncated configuration must not pass for one that asks nothing. So is
 * one that cannot be read, for both: for check status 1 means drift.
 */
int
restore_run_load(int argc, char *argv[], const struct command *cmd,
    struct run *r)
{
	int rc;

	if (argc - optind != 1)
		return cli_usage_error(cmd, "expected one snapshot file");
	if (machine_load(&r->m) != 0)
		return EXIT_FAIL;
	if (r->only_arg != NULL &&
	    (rc = select_queues(r->only_arg, &r->only)) != 0) {
		restore_run_free(r);
		return cli_exit_status(rc);
	}
	if ((rc = snapshot_read(&r->s, &r->m, argv[optind])) == 0 &&
	    r->s.n == 0) {
		warnx("%s: no entries: the file is empty or holds only "
		    "comments", r->s.label);
		rc = -EINVAL;
	}
	if (rc != 0) {
		restore_run_free(r);
		return EXIT_USAGE;
	}
	if ((rc = snapshot_mirqs_load(&r->mi)) != 0) {
		restore_run_free(r);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The CPUs isolate remembered, left out of the file's lines: said once. */
void
restore_left_note(const struct snap *s)
{
	char *list;

	if (s->nleft == 0)
		return;
	list = xformat(s->left, false);
	warnx("note: CPU %s isolated by irqaff isolate: left out of %zu "
	    "line%s of %s (isolate --undo gives them back)", list, s->nleft,
	    s->nleft == 1 ? "" : "s", s->label);
	free(list);
}

/*
 * A set with no online CPU cannot be written: the kernel would choose
 * CPUs itself. It is only right for an IRQ that has it already, as the
 * managed IRQs of offline CPUs do. irq < 0 is the default affinity.
 */
static enum apply_result
offline_only(struct run *r, const char *label, long irq, const struct entry *e)
{
	struct cpuset *cur = xcpuset(r->m.nbits);
	enum apply_result res = APPLY_FAILED;
	struct perr pe;
	char msg[sizeof(pe.msg)];
	int err = 0;

	if ((irq < 0 ? machine_default_read(cur, &pe) :
	    machine_affinity_read(irq, AFF_REQUESTED, cur, &pe)) != 0) {
		warnx("%s", pe.msg);
		strlcpy(msg, pe.msg, sizeof(msg));
		err = perr_errno(&pe);
	} else if (cpuset_equal(cur, e->want))
		res = APPLY_UNCHANGED;
	else {
		snprintf(msg, sizeof(msg), "CPU %s \"%s\": selects no online "
		    "CPU", machine_cpus_kind(e->sl.cpus, 0),
		    text_quoted(e->sl.cpus));
		snapshot_warn(&r->s, e->line, "%s: %s", label, msg);
	}
	apply_tally_add(&r->tl, &(struct target){ irq, NULL, res ==
	    APPLY_UNCHANGED ? cur : NULL, e->want, err, res == APPLY_FAILED ?
	    msg : NULL }, res);
	cpuset_free(cur);
	return res;
}

/* Offline CPUs in the sets to be written, one note for them all. */
static void
offline_note(struct run *r)
{
	struct cpuset *all = xcpuset(r->m.nbits);
	const struct entry *e;
	size_t i;

	for (i = 0; i <= r->mi.nums.n; i++) {
		e = i < r->mi.nums.n ? r->mi.v[i].by : r->s.dflt;
		if (e != NULL && cpuset_intersects(e->want, r->m.online))
			cpuset_or(all, e->want);
	}
	machine_note_offline(&r->m, all);
	cpuset_free(all);
}

/* What the kernel keeps of a queue line's set (netqueue_kept()); owned. */
struct cpuset *
restore_queue_kept(const struct run *r, const struct entry *e)
{
	return netqueue_kept(&r->m, e->sl.kind == SNAP_XPS ? NQ_TX : NQ_RX,
	    e->want);
}

/* The CPUs of queue lines the kernel would not keep, one note for all. */
static void
queue_note(const struct run *r)
{
	struct cpuset *out = xcpuset(r->m.nbits), *kept, *drop;
	const struct entry *e;
	char *list;
	size_t i;

	for (i = 0; i < r->s.nqueues; i++) {
		e = r->s.queues[i].e;
		kept = restore_queue_kept(r, e);
		/* a line of which nothing is kept is said on its own */
		if (!cpuset_empty(kept)) {
			drop = xcpudup(e->want);
			cpuset_andnot(drop, kept);
			cpuset_or(out, drop);
			cpuset_free(drop);
		}
		cpuset_free(kept);
	}
	if (!cpuset_empty(out)) {
		list = xformat(out, false);
		warnx("note: xps and rps lines: CPU %s left out: the kernel "
		    "keeps no offline CPU in xps_cpus or rps_cpus, nor an "
		    "isolated or nohz_full one in rps_cpus", list);
		free(list);
	}
	cpuset_free(out);
}

/* The lines that cannot be applied: on stdout when out, else warnings. */
void
restore_problems_say(const struct snap *s, bool out)
{
	const struct problem *p;
	size_t i;

	for (i = 0; i < s->nproblems; i++) {
		p = &s->problems[i];
		if (out)
			printf("%s:%zu: %s\n", s->label, p->line, p->msg);
		else
			warnx("%s:%zu: %s", s->label, p->line, p->msg);
	}
}

/* The lines that pick no IRQ, as the "problems" member. */
void
restore_problems_json(const struct snap *s)
{
	size_t i;

	printf(",\"problems\":[");
	for (i = 0; i < s->nproblems; i++) {
		printf("%s{\"line\":%zu,\"error\":", i > 0 ? "," : "",
		    s->problems[i].line);
		text_json_string(stdout, s->problems[i].msg);
		putchar('}');
	}
	putchar(']');
}

static enum apply_result
restore_one(struct run *r, long irq, const struct entry *e)
{
	char label[32];

	if (irq < 0)
		strlcpy(label, "default", sizeof(label));
	else
		snprintf(label, sizeof(label), "irq %ld", irq);
	if (!cpuset_intersects(e->want, r->m.online))
		return offline_only(r, label, irq, e);
	if (irq < 0)
		return apply_default(&r->m, e->want, r->flags, &r->tl);
	return apply_irq(&r->m, irq, e->want, r->flags, &r->tl);
}

/* Whether the file has xps or rps lines: -J then has "queues". */
bool
restore_has_queues(const struct snap *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].sl.kind == SNAP_XPS || s->v[i].sl.kind == SNAP_RPS)
			return true;
	return false;
}

/*
 * A queue line of whose CPUs the kernel would keep none: right only for
 * a queue whose mask is empty already, as the kernel would leave it.
 */
static void
queue_none(struct run *r, const struct snapq *q, const char *label)
{
	struct cpuset *cur = xcpuset(r->m.nbits);
	enum apply_result res = APPLY_FAILED;
	int rc;

	rc = snapshot_queue_read(q->rel, cur, label);
	if (rc == 0 && cpuset_empty(cur))
		res = APPLY_UNCHANGED;
	else if (rc == 0)
		snapshot_warn(&r->s, q->e->line,
		    "%s: CPUs \"%s\": none would be "
		    "kept: the kernel keeps %s", label,
		    text_quoted(q->e->sl.cpus),
		    netqueue_keeps(q->e->sl.kind == SNAP_XPS ? NQ_TX : NQ_RX));
	apply_tally_add(&r->qtl, &(struct target){ APPLY_NOIRQ, label, NULL, NULL,
	    0, NULL }, res);
	cpuset_free(cur);
}

/*
 * Each queue line's mask, after the IRQs, as much of it as the kernel
 * keeps; none once no write can be.
 */
static void
restore_queues(struct run *r)
{
	const struct snapq *q;
	struct cpuset *kept;
	char label[128];
	size_t i;

	for (i = 0; i < r->s.nqueues; i++) {
		q = &r->s.queues[i];
		if (r->tl.stop || r->qtl.stop) {
			apply_tally_skip(&r->qtl, APPLY_NOIRQ,
			    q->e->want);
			continue;
		}
		snapshot_queue_label(q->e, label, sizeof(label));
		kept = restore_queue_kept(r, q->e);
		if (cpuset_empty(kept) && !cpuset_empty(q->e->want))
			queue_none(r, q, label);
		else
			apply_mask(&r->m, label, q->rel, kept, r->flags,
			    &r->qtl);
		cpuset_free(kept);
	}
}

/* -J: after the IRQs' members, "queues" when the file has queue lines. */
static void
restore_members(void *arg)
{
	struct run *r = arg;
	const struct entry *e;
	struct qname *q;
	size_t i;

	if (restore_has_queues(&r->s)) {
		q = xcalloc(r->s.nqueues + 1, sizeof(*q));
		for (i = 0; i < r->s.nqueues; i++) {
			e = r->s.queues[i].e;
			q[i].dev = e->sl.dev;
			snprintf(q[i].queue, sizeof(q[i].queue), "%s-%u",
			    e->sl.kind == SNAP_XPS ? "tx" : "rx", e->sl.queue);
		}
		result_queues(&r->qtl, q, r->s.nqueues);
		free(q);
	}
	restore_problems_json(&r->s);
}

/*
 * The CPUs of a plan's IRQ line beyond the plan's own that are offline,
 * or isolated and not chosen by the plan, as a sentence; NULL if none.
 */
static char *
beyond_plan(struct run *r, const struct cpuset *want)
{
	const struct entry *p = r->s.plan;
	struct cpuset *off = xcpudup(want), *pool = xcpudup(want), *iso;
	char *msg = NULL, *list, *why = NULL;

	cpuset_andnot(off, p->want);
	cpuset_andnot(off, r->m.online);
	iso = isolation_leave_out(&r->m, pool, NULL, false, &why);
	cpuset_andnot(iso, p->want);
	cpuset_andnot(iso, off);
	if (p->isolated != NULL)
		cpuset_andnot(iso, p->isolated);
	if (!cpuset_empty(off)) {
		list = xformat(off, false);
		msg = xasprintf("CPU %s is offline now", list);
		free(list);
	} else if (!cpuset_empty(iso)) {
		list = xformat(iso, false);
		msg = xasprintf("CPU %s is isolated now (%s)", list, why);
		free(list);
	}
	free(why);
	cpuset_free(iso);
	cpuset_free(pool);
	cpuset_free(off);
	return msg;
}

/*
 * A plan's IRQ line that would give its IRQ CPUs offline or isolated
 * since (beyond_plan()) is refused, said on its line. One the IRQ holds
 * already writes nothing, as a quiet IRQ's kept set; one whose file
 * cannot be read is left to apply_check() to say.
 */
static bool
beyond_refused(struct run *r, unsigned int irq, const struct entry *e)
{
	struct cpuset *cur;
	struct perr pe;
	char *msg;
	bool refuse;

	if ((msg = beyond_plan(r, e->want)) == NULL)
		return false;
	cur = xcpuset(r->m.nbits);
	refuse = machine_affinity_read(irq, AFF_REQUESTED, cur, &pe) == 0 &&
	    !cpuset_equal(cur, e->want);
	if (refuse) {
		snapshot_warn(&r->s, e->line, "irq %u: %s", irq, msg);
		apply_tally_add(&r->tl, &(struct target){ irq, NULL, NULL,
		    e->want, 0, msg }, APPLY_FAILED);
	}
	free(msg);
	cpuset_free(cur);
	return refuse;
}

/* Each IRQ a line picks, with the line's CPUs, in the order of mi. */
struct picked {
	struct change		 *c;
	const struct entry	**by;	/* each one's line */
	size_t			  n;
};

static void
picked_load(const struct run *r, struct picked *pk)
{
	size_t i;

	pk->c = xcalloc(r->mi.nums.n + 1, sizeof(*pk->c));
	pk->by = xcalloc(r->mi.nums.n + 1, sizeof(*pk->by));
	for (i = pk->n = 0; i < r->mi.nums.n; i++)
		if (r->mi.v[i].by != NULL) {
			pk->c[pk->n] = (struct change){ r->mi.nums.v[i],
			    r->mi.v[i].by->want, false };
			pk->by[pk->n++] = r->mi.v[i].by;
		}
}

static void
picked_free(struct picked *pk)
{
	free(pk->c);
	free(pk->by);
}

/*
 * The default, each IRQ picked and each queue line, checked as they
 * would be written (apply_check()); the refused go to tl and qtl.
 */
static void
restore_check(struct run *r, const struct picked *pk)
{
	size_t nq = r->s.nqueues, n = 0, i;
	struct change *c = xcalloc(pk->n + 1, sizeof(*c));
	struct qchange *q = xcalloc(nq + 1, sizeof(*q));
	struct cpuset **kept = xcalloc(nq + 1, sizeof(*kept));
	char (*label)[128] = xcalloc(nq + 1, sizeof(*label));
	struct tally pre = { 0 };

	if (r->s.dflt != NULL && apply_default(&r->m, r->s.dflt->want,
	    APPLY_DRYRUN, &pre) == APPLY_FAILED)
		apply_tally_add(&r->tl, &(struct target){ -1, NULL, NULL,
		    r->s.dflt->want, pre.v[0].err, pre.v[0].msg },
		    APPLY_FAILED);
	apply_tally_free(&pre);
	for (i = 0; i < pk->n; i++)
		if (!beyond_refused(r, pk->c[i].irq, pk->by[i]))
			c[n++] = pk->c[i];
	for (i = 0; i < nq; i++) {
		snapshot_queue_label(r->s.queues[i].e, label[i],
		    sizeof(label[i]));
		kept[i] = restore_queue_kept(r, r->s.queues[i].e);
		q[i] = (struct qchange){ label[i], r->s.queues[i].rel,
		    kept[i] };
	}
	apply_check(&r->m, c, n, q, nq, &r->tl, &r->qtl);
	for (i = 0; i < nq; i++)
		cpuset_free(kept[i]);
	free(label);
	free(kept);
	free(q);
	free(c);
}

/*
 * A balance plan (a plan line) is applied whole or not at all, as it was
 * reviewed: no problem may stand (snapshot_resolve() said each), and
 * every file it writes must take its set (restore_check()). EXIT_OK, or
 * EXIT_FAIL after saying so; tl and qtl then hold the refused.
 */
static int
plan_fits(struct run *r, const struct picked *pk)
{
	restore_check(r, pk);
	if (r->tl.failed + r->qtl.failed == 0)
		return EXIT_OK;
	warnx("%s: a plan is applied whole or not at all: nothing written; "
	    "make a new one", r->s.label);
	return EXIT_FAIL;
}

/* The default, each IRQ picked, then the queues. */
static void
restore_all(struct run *r, const struct picked *pk)
{
	size_t i;

	offline_note(r);
	queue_note(r);
	/* as every writer: not for IRQs irqbalance's --banirq leaves alone */
	if (!r->quiet)
		irqbalance_warn_changes(pk->c, pk->n);
	result_start(r->flags);
	if (r->s.dflt != NULL)
		restore_one(r, -1, r->s.dflt);
	for (i = 0; i < pk->n && !r->tl.stop; i++)
		restore_one(r, pk->c[i].irq, pk->by[i]);
	for (; i < pk->n; i++)
		apply_tally_skip(&r->tl, pk->c[i].irq,
		    pk->c[i].want);
	restore_queues(r);
}

/*
 * Lines that pick no IRQ count as IRQs that failed: the rest is still
 * applied, and the exit status is 3 (or 1 when nothing could be done,
 * or with -n). A plan is checked whole first, the same with -n and -t.
 */
static void
restore_options(int argc, char *argv[], struct run *r)
{
	int ch;

	memset(r, 0, sizeof(*r));
	while ((ch = cli_getopts(argc, argv, &restore_command, "ntvqJ",
	    restore_opts)) != -1) {
		switch (ch) {
		case 't':
			r->test = true;
			break;
		case 'q':
			r->quiet = true;
			break;
		case OPT_BY_NUMBER:
			r->s.by_number = true;
			break;
		case OPT_ONLY:
			r->only_arg = optarg;
			break;
		default:
			result_option(ch, &r->flags);
			break;
		}
	}
	r->s.verbose = r->flags & APPLY_VERBOSE;
	result_tally(&r->tl, r->flags);
	result_tally(&r->qtl, r->flags);
}

static int
restore_main(int argc, char *argv[])
{
	struct picked pk = { 0 };
	struct run r;
	int status;

	restore_options(argc, argv, &r);
	if ((status = restore_run_load(argc, argv, &restore_command, &r)) != EXIT_OK)
		return status;
	r.tl.failed = snapshot_resolve(&r.s, &r.mi,
	    r.only_arg != NULL ? &r.only : NULL);
	restore_problems_say(&r.s, false);
	restore_left_note(&r.s);
	picked_load(&r, &pk);
	/* a plan: the same checks for restore, -n and -t */
	if (r.s.plan != NULL && (status = plan_fits(&r, &pk)) != EXIT_OK) {
		if (!r.test)
			result_json(&r.tl, r.flags, restore_members, &r);
		goto out;
	}
	if (r.test) {
		/* what restore would take and match, each miss said: no more */
		status = r.tl.failed > 0 ? EXIT_FAIL : EXIT_OK;
		goto out;
	}
	/* the IRQs' layout checked against the CPUs' vectors */
	if (!apply_vectors(&r.m, pk.c, pk.n, &r.tl)) {
		status = EXIT_FAIL;
		result_json(&r.tl, r.flags, restore_members, &r);
		goto out;
	}
	restore_all(&r, &pk);
	status = result_print(&r.tl, &r.qtl, r.flags, restore_members, &r);
out:
	picked_free(&pk);
	apply_tally_free(&r.tl);
	apply_tally_free(&r.qtl);
	restore_run_free(&r);
	return status;
}

