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
#include "core/irqbalance.h"
#include "core/isolation.h"
#include "core/load.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/placement.h"
#include "core/select.h"
#include "core/snapshot.h"
#include "core/topology.h"
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
	return cli_sampling_check(&balance_command, &b->sm);
}

/*
 * The isolated CPUs go, unless --include-isolated is given or --cpus
 * names them by number (numbered); those left out are said, with -J in
 * the result.
 */
static int
leave_isolated(struct balance *b, const struct cpuset *numbered)
{
	char *list;

	b->left = isolation_leave_out(&b->m, b->elig, numbered, b->isolated,
	    &b->why);
	list = xformat(b->left, false);
	if (cpuset_empty(b->elig) && b->carg == NULL)
		warnx("balance: every online CPU (%s) is isolated or "
		    "nohz_full; name the CPUs with --cpus", list);
	else if (cpuset_empty(b->elig))
		warnx("balance: every CPU of \"%s\" is isolated or nohz_full; "
		    "name them by number or give --include-isolated",
		    text_quoted(b->carg));
	else if (*list && !b->quiet && !b->json)
		warnx("balance: CPU %s isolated (%s) left out", list, b->why);
	free(list);
	return cpuset_empty(b->elig) ? EXIT_USAGE : EXIT_OK;
}

/*
 * The eligible CPUs: --cpus (online ones), else the online CPUs, less
 * the isolated ones (leave_isolated()); and each one's place in the tie
 * order, the first thread of every core before any second thread.
 */
static int
eligible(struct balance *b)
{
	struct cpuslot *order;
	struct cpuset *numbered;
	struct perr pe;
	size_t n, i;
	int status;

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
	status = leave_isolated(b, numbered);
	cpuset_free(numbered);
	if (status != EXIT_OK)
		return status;
	b->pos = xcalloc(b->m.nbits, sizeof(*b->pos));
	for (i = 0; i < b->m.nbits; i++)
		b->pos[i] = -1;
	order = topology_order(&b->m, b->elig, false, &n);
	for (i = 0; i < n; i++)
		b->pos[order[i].cpu] = i;
	free(order);
	return EXIT_OK;
}

/* The allowed set of an IRQ's node: its eligible CPUs, else all of them. */
static size_t
allowed_of(struct balance *b, unsigned int irq)
{
	const struct cpuset *cpus;
	struct allowed *a;
	size_t i;
	int node = machine_irq_node(irq), cpu;

	if (node >= 0 && ((cpus = machine_node(&b->m, node)) == NULL ||
	    !cpuset_intersects(cpus, b->elig)))
		node = -1;
	for (i = 0; i < b->nallow; i++)
		if (b->allow[i].node == node)
			return i;
	b->allow = xreallocarray(b->allow, b->nallow + 1, sizeof(*b->allow));
	a = &b->allow[b->nallow];
	a->node = node;
	a->set = xcpudup(b->elig);
	if (node >= 0)
		cpuset_and(a->set, machine_node(&b->m, node));
	a->cpu = xcalloc(cpuset_count(a->set), sizeof(*a->cpu));
	a->n = 0;
	for (cpu = cpuset_first(a->set); cpu >= 0;
	    cpu = cpuset_next(a->set, cpu + 1))
		a->cpu[a->n++] = (struct place_cpu){ cpu, b->pos[cpu] };
	return b->nallow++;
}

/*
 * The selected IRQs the plan may move: not managed by the kernel, their
 * requested CPUs readable. EXIT_OK, or EXIT_FAIL after saying which
 * IRQ's could not be read.
 */
static int
collect(struct balance *b, const struct irqs *sel)
{
	struct item *it;
	struct cpuset *set;
	struct qrole *ro;
	struct perr pe;
	enum movable mv;
	size_t i;
	int rc, status = EXIT_OK;

	set = xcpuset(b->m.nbits);
	ro = netqueue_roles(sel);
	b->it = xcalloc(sel->n, sizeof(*b->it));
	for (i = 0; i < sel->n; i++) {
		/* kernel-managed or else not movable by user space */
		if ((mv = machine_irq_movable(sel->v[i])) >= MOVABLE_MANAGED) {
			result_leftout_add(&b->unmoved, sel->v[i],
			    mv == MOVABLE_MANAGED);
			continue;
		}
		it = &b->it[b->n];
		memset(it, 0, sizeof(*it));
		it->irq = sel->v[i];
		it->role = ro[i];
		if ((rc = machine_affinity_read(it->irq, AFF_REQUESTED, set,
		    &pe)) != 0) {
			/* -ENOENT: gone since it was selected */
			if (rc != -ENOENT) {
				warnx("irq %u: %s", it->irq, pe.msg);
				apply_tally_add(&b->unread, APPLY_JSON, it->irq,
				    APPLY_FAILED, NULL, NULL,
				    perr_errno(&pe), pe.msg);
				status = EXIT_FAIL;
			}
			continue;
		}
		it->old = xformat(set, false);
		it->allow = allowed_of(b, it->irq);
		it->home = cpuset_count(set) == 1 ? cpuset_first(set) : -1;
		b->n++;
	}
	free(ro);
	cpuset_free(set);
	return status;
}

static int
cmpirq(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

/*
 * An IRQ with no row in either read has no handler (show_interrupts()
 * skips an IRQ without actions): nothing to balance. One whose row the
 * first read had and the second has not, or whose directory is gone,
 * was freed during the interval (a driver reload, ethtool -L): left
 * out, and said.
 */
static void
drop_rowless(struct balance *b)
{
	struct cpuset *set = xcpuset(b->m.nbits);
	struct perr pe;
	uint8_t seen;
	size_t i, k;
	bool gone;

	b->freed = xcalloc(b->n + 1, sizeof(*b->freed));
	for (i = k = 0; i < b->n; i++) {
		seen = load_rows_seen(&b->cells, b->it[i].irq);
		gone = seen == 1 || (seen != 0 && machine_affinity_read(
		    b->it[i].irq, AFF_REQUESTED, set, &pe) == -ENOENT);
		if (gone)
			b->freed[b->nfreed++] = b->it[i].irq;
		if (gone || seen == 0) {
			free(b->it[i].old);
			continue;
		}
		b->it[k++] = b->it[i];
	}
	b->n = k;
	cpuset_free(set);
}

/* Busiest first, then by number: the quiet IRQs come last. */
static int
cmpcount(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmpirq(a, b);
}

/*
 * What the interval counted: every followed cell's interrupts go to its
 * CPU before; those of IRQs the plan does not place stay there (fixed),
 * the others add up to their IRQ's count. An IRQ that runs on one CPU
 * and asked for many is at home there.
 */
static void
tally_cells(struct balance *b)
{
	struct item key, *it;
	const struct cell *c;
	size_t i, at, n;
	uint32_t d;

	qsort(b->it, b->n, sizeof(*b->it), cmpirq);
	for (i = 0; i < b->cells.n; i++) {
		c = &b->cells.v[i];
		key.irq = c->irq;
		it = bsearch(&key, b->it, b->n, sizeof(*b->it), cmpirq);
		if (!load_cell_delta(c, &d))
			continue;
		b->before[c->cpu] += d;
		if (it == NULL)
			b->fixed[c->cpu] += d;
		else {
			it->count += d;
			it->rated = true;
		}
	}
	for (i = 0; i < b->n; i++) {
		it = &b->it[i];
		at = 0;
		if (it->home < 0 && (n = load_cells_of(&b->cells, it->irq,
		    &at)) == 1)
			it->home = b->cells.v[at].cpu;
		if (it->home >= 0 &&
		    !cpuset_test(b->allow[it->allow].set, it->home))
			it->home = -1;
	}
	qsort(b->it, b->n, sizeof(*b->it), cmpcount);
}

/* The receive partner of an item serving tx-N, or -1. */
static long
partner(const struct balance *b, size_t i)
{
	size_t j;

	if (b->it[i].role.pair < 0 || b->it[i].role.serve != QS_TX)
		return -1;
	for (j = 0; j < b->n; j++)
		if (b->it[j].role.pair == b->it[i].role.pair &&
		    b->it[j].role.serve == QS_RX)
			return j;
	return -1;
}

/* The plan (core/placement.c), and a set of each planned CPU alone. */
static void
plan(struct balance *b)
{
	struct place_set *sets;
	struct place_item *pi;
	struct placement p;
	size_t i;
	int c;

	sets = xcalloc(b->nallow + 1, sizeof(*sets));
	for (i = 0; i < b->nallow; i++)
		sets[i] = (struct place_set){ b->allow[i].cpu, b->allow[i].n };
	pi = xcalloc(b->n + 1, sizeof(*pi));
	for (i = 0; i < b->n; i++)
		pi[i] = (struct place_item){ b->it[i].count, b->it[i].home,
		    b->it[i].allow, partner(b, i), -1 };
	p = (struct placement){ b->m.nbits, b->fixed, b->after, sets,
	    b->nallow, pi, b->n, false };
	placement_plan(&p);
	for (i = 0; i < b->n; i++) {
		c = b->it[i].cpu = pi[i].cpu;
		if (b->alone[c] == NULL) {
			b->alone[c] = xcpuset(b->m.nbits);
			cpuset_set(b->alone[c], c);
		}
		b->it[i].want = b->alone[c];
	}
	free(pi);
	free(sets);
}

/*
 * Every IRQ's file is read and checked as a dry run would before the
 * first write: when one is refused, nothing is written and the refused
 * are the result. Then the IRQs, then the XPS of their queues; with -n
 * and -J what would be. Returns the exit status.
 */
static int
apply_plan(struct balance *b, const struct change *c, struct xq *xq,
    size_t nx, int flags, struct tally *tl, struct tally *tq)
{
	struct tally pre = { 0 };
	size_t i;

	for (i = 0; i < b->n; i++)
		apply_irq(&b->m, c[i].irq, c[i].want,
		    APPLY_DRYRUN | APPLY_JSON, &pre);
	if (pre.failed > 0) {
		apply_tally_refused(tl, &pre);
		if (!b->json)
			warnx("balance: nothing written");
		return EXIT_FAIL;
	}
	apply_tally_free(&pre);
	if (b->dryrun) {
		if (b->json)
			xpsfollow_write(&b->m, c, b->n, xq, nx,
			    flags | APPLY_DRYRUN, tl, tq);
		return EXIT_OK;
	}
	if (!b->quiet)
		irqbalance_warn();
	cli_applying();
	xpsfollow_write(&b->m, c, b->n, xq, nx, flags, tl, tq);
	return result_status(tl, tq, flags);
}

/* The two reads, -i apart; 0, or -1 after saying why. */
static int
measure(struct balance *b, const struct irqs *all)
{
	size_t i;

	load_cells_follow(&b->cells, &b->m, all);
	cli_sampling_begin(&b->sm);
	if (load_cells_read(&b->cells, 0) != 0)
		return -1;
	cli_sampling_next(&b->sm, b->json);
	if (load_cells_read(&b->cells, 1) != 0)
		return -1;
	qsort(b->it, b->n, sizeof(*b->it), cmpirq);
	drop_rowless(b);
	for (i = 0; i < b->nfreed && !b->quiet; i++)
		warnx("note: irq %u was freed during the interval; left out "
		    "of the plan", b->freed[i]);
	b->before = xcalloc(b->m.nbits, sizeof(*b->before));
	b->fixed = xcalloc(b->m.nbits, sizeof(*b->fixed));
	b->after = xcalloc(b->m.nbits, sizeof(*b->after));
	b->alone = xcalloc(b->m.nbits, sizeof(*b->alone));
	tally_cells(b);
	plan(b);
	if (!b->quiet)
		result_leftout_note(&b->unmoved);
	/* applied in IRQ order, as every command writes */
	qsort(b->it, b->n, sizeof(*b->it), cmpirq);
	return 0;
}

static int
run(struct balance *b, const char *arg)
{
	struct irqs all = { 0 }, sel = { 0 };
	struct tally tl = { 0 }, tq = { 0 };
	struct change *c = NULL;
	struct xq *xq = NULL;
	size_t nx = 0, i;
	int status, flags = b->json ? APPLY_JSON : 0;

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
		result_json(&b->unread, flags, NULL, NULL);
		goto out;
	}
	if (measure(b, &all) != 0) {
		status = EXIT_FAIL;
		goto out;
	}
	c = xcalloc(b->n + 1, sizeof(*c));
	for (i = 0; i < b->n; i++)
		c[i] = (struct change){ b->it[i].irq, b->it[i].want, false };
	if (!b->quiet && !b->xps)
		result_xps_stale_note(&b->m, c, b->n);
	if ((b->xps && xpsfollow_plan(&b->m, "balance", c, b->n, &xq,
	    &nx) != 0) || balance_show_plan(b, xq, nx) != 0)
		goto out;
	status = apply_plan(b, c, xq, nx, flags, &tl, &tq);
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
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->it[i].old);
	}
	for (i = 0; b->alone != NULL && i < b->m.nbits; i++)
		cpuset_free(b->alone[i]);
	free(b->alone);
	free(b->it);
	for (i = 0; i < b->nallow; i++) {
		cpuset_free(b->allow[i].set);
		free(b->allow[i].cpu);
	}
	free(b->allow);
	result_leftout_free(&b->unmoved);
	apply_tally_free(&b->unread);
	free(b->freed);
	free(b->before);
	free(b->fixed);
	free(b->after);
	free(b->pos);
	load_cells_free(&b->cells);
	cpuset_free(b->elig);
	cpuset_free(b->left);
	free(b->why);
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
