/*
 * balance: measure each IRQ's interrupts over an interval and put the
 * busiest on the least-loaded CPUs, heaviest first, keeping an IRQ where
 * it is unless moving it is worth it; print the plan, then apply it.
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

/* The CPUs an IRQ may get: the eligible ones of a node, or all of them. */
struct allowed {
	int		 node;		/* -1: every eligible CPU */
	struct cpuset	*set;
	struct place_cpu *cpu;
	size_t		 n;
};

/* A selected IRQ the plan places; old is owned, want borrowed. */
struct item {
	unsigned int	 irq;
	uint64_t	 count;		/* its interrupts in the interval */
	bool		 rated;		/* a cell of it was in both reads */
	int		 home;		/* the one CPU it runs on, or -1 */
	size_t		 allow;
	struct qrole	 role;
	int		 cpu;		/* planned */
	char		*old;		/* its requested CPUs, a list */
	const struct cpuset *want;	/* cpu alone */
};

struct balance {
	struct machine	 m;
	struct sampling	 sm;
	const char	*carg;
	bool		 dryrun, quiet, xps, verbose, json, isolated;
	struct cpuset	*elig;
	struct cpuset	*left;		/* isolated, left out of elig */
	char		*why;		/* what isolates them */
	struct cells	 cells;
	uint64_t	*before, *fixed, *after;	/* by CPU */
	struct cpuset	**alone;	/* by CPU: a set of it, when planned */
	int		*pos;		/* by CPU: rank in tie order, or -1 */
	struct allowed	*allow;
	size_t		 nallow;
	struct item	*it;		/* the plan's IRQs, in plan order */
	size_t		 n;
	struct leftout	 unmoved;	/* user space cannot move them */
	unsigned int	*freed;		/* rows gone during the interval */
	size_t		 nfreed;
	const char	*planfile;	/* --plan */
	struct tally	 unread;	/* IRQs whose CPUs cannot be read */
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

/* The busiest eligible CPU's load over their mean, or -1 with no load. */
static double
imbalance(const struct balance *b, const uint64_t *load)
{
	uint64_t max = 0, sum = 0;
	unsigned int n = 0;
	int c;

	for (c = cpuset_first(b->elig); c >= 0;
	    c = cpuset_next(b->elig, c + 1)) {
		sum += load[c];
		n++;
		if (load[c] > max)
			max = load[c];
	}
	return sum == 0 ? -1 : (double)max * n / sum;
}

static double
rate(const struct balance *b, uint64_t count)
{
	return count / b->sm.elapsed;
}

/* The CPUs of the load table: the eligible, and any other with a load. */
static bool
shown(const struct balance *b, int cpu)
{
	return cpuset_test(b->elig, cpu) || (cpuset_test(b->m.online, cpu) &&
	    (b->before[cpu] > 0 || b->after[cpu] > 0));
}

static bool
moves(const struct item *it)
{
	char s[16];

	snprintf(s, sizeof(s), "%d", it->cpu);
	return strcmp(it->old, s) != 0;
}

static void
print_plan(const struct balance *b, const struct xq *xq, size_t nx)
{
	char *name, *raw, *old, *new, r[32];
	int wr = 4, wo = 3, wn = 3, wi = 3, len;
	size_t i, shown_n = 0;

	for (i = 0; i < b->n; i++) {
		if (!b->verbose && !moves(&b->it[i]))
			continue;
		shown_n++;
		len = snprintf(r, sizeof(r), "%.1f", rate(b, b->it[i].count));
		wr = len > wr ? len : wr;
		len = strlen(b->it[i].old);
		wo = len > wo ? len : wo;
		len = snprintf(r, sizeof(r), "%d", b->it[i].cpu);
		wn = len > wn ? len : wn;
		len = snprintf(r, sizeof(r), "%u", b->it[i].irq);
		wi = len > wi ? len : wi;
	}
	if (shown_n == 0)
		printf("no IRQ to move\n");
	else
		printf("%*s %*s %*s %*s NAME\n", wi, "IRQ", wr, "RATE", wo,
		    "OLD", wn, "NEW");
	/* in IRQ order, for people */
	for (i = 0; i < b->n; i++) {
		if (!b->verbose && !moves(&b->it[i]))
			continue;
		raw = select_names(b->it[i].irq);
		name = xescaped(raw);
		old = b->it[i].old;
		if (b->it[i].rated)
			snprintf(r, sizeof(r), "%.1f", rate(b, b->it[i].count));
		else
			strlcpy(r, "-", sizeof(r));
		printf("%*u %*s %*s %*d %s\n", wi, b->it[i].irq, wr, r, wo,
		    *old ? old : "-", wn, b->it[i].cpu, name);
		free(name);
		free(raw);
	}
	for (i = 0; i < nx; i++) {
		old = xformat(xq[i].old, false);
		new = xformat(b->it[xq[i].ci].want, false);
		if (b->verbose || strcmp(old, new) != 0)
			printf("xps %s: %s -> %s\n", xq[i].label,
			    *old ? old : "-", new);
		free(old);
		free(new);
	}
}

static void
print_loads(const struct balance *b)
{
	char s[32];
	int wc = 3, wb = 6, wa = 5, len, c;
	double ib, ia;
	char *list;

	for (c = 0; c < (int)b->m.nbits; c++) {
		if (!shown(b, c))
			continue;
		len = snprintf(s, sizeof(s), "%d", c);
		wc = len > wc ? len : wc;
		len = snprintf(s, sizeof(s), "%.1f", rate(b, b->before[c]));
		wb = len > wb ? len : wb;
		len = snprintf(s, sizeof(s), "%.1f", rate(b, b->after[c]));
		wa = len > wa ? len : wa;
	}
	printf("\n%*s %*s %*s\n", wc, "CPU", wb, "BEFORE", wa, "AFTER");
	for (c = 0; c < (int)b->m.nbits; c++)
		if (shown(b, c))
			printf("%*d %*.1f %*.1f\n", wc, c, wb,
			    rate(b, b->before[c]), wa, rate(b, b->after[c]));
	ib = imbalance(b, b->before);
	ia = imbalance(b, b->after);
	list = xformat(b->elig, false);
	if (ib < 0 && ia < 0)
		printf("\nimbalance: - (no interrupts on CPUs %s)\n", list);
	else
		printf("\nimbalance: %.2f -> %.2f (the busiest of CPUs %s "
		    "over their mean)\n", ib < 0 ? 0 : ib, ia < 0 ? 0 : ia,
		    list);
	free(list);
}

static void
json_imbalance(const char *key, double v)
{
	if (v < 0)
		printf("\"%s\":null", key);
	else
		printf("\"%s\":%.3f", key, v);
}

/* The rates and loads beside the result: "plan", "loads", "imbalance". */
static void
print_json_plan(const struct balance *b)
{
	const struct item *it;
	char *list, *name;
	const char *sep = "";
	size_t i;
	int c;

	list = xformat(b->elig, false);
	printf(",\"interval\":%.3f,\"cpus\":\"%s\",", b->sm.elapsed, list);
	free(list);
	list = xformat(b->left, false);
	printf("\"isolated\":\"%s\",\"imbalance\":{", list);
	free(list);
	json_imbalance("before", imbalance(b, b->before));
	putchar(',');
	json_imbalance("after", imbalance(b, b->after));
	printf("},\"plan\":[");
	for (i = 0; i < b->n; i++) {
		it = &b->it[i];
		name = select_names(it->irq);
		printf("%s{\"irq\":%u,\"name\":", sep, it->irq);
		text_json_string(stdout, name);
		if (it->rated)
			printf(",\"count\":%" PRIu64 ",\"rate\":%.1f",
			    it->count, rate(b, it->count));
		else
			printf(",\"count\":null,\"rate\":null");
		printf(",\"old\":\"%s\",\"new\":\"%d\"}", it->old, it->cpu);
		sep = ",";
		free(name);
	}
	printf("],\"loads\":[");
	sep = "";
	for (c = 0; c < (int)b->m.nbits; c++) {
		if (!shown(b, c))
			continue;
		printf("%s{\"cpu\":%d,\"eligible\":%s,\"before\":{\"count\":%"
		    PRIu64 ",\"rate\":%.1f},\"after\":{\"count\":%" PRIu64
		    ",\"rate\":%.1f}}", sep, c,
		    cpuset_test(b->elig, c) ? "true" : "false", b->before[c],
		    rate(b, b->before[c]), b->after[c], rate(b, b->after[c]));
		sep = ",";
	}
	putchar(']');
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

/* -J: the plan, the loads, the IRQs freed and, with --xps, the queues. */
struct balance_json {
	const struct balance	*b;
	const struct change	*c;
	const struct xq		*xq;
	size_t			 nx;
};

static void
balance_members(void *arg)
{
	const struct balance_json *bj = arg;
	size_t i;

	print_json_plan(bj->b);
	printf(",\"freed\":[");
	for (i = 0; i < bj->b->nfreed; i++)
		printf("%s%u", i > 0 ? "," : "", bj->b->freed[i]);
	putchar(']');
	if (bj->b->xps)
		xpsfollow_json(stdout, bj->c, bj->xq, bj->nx);
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

/*
 * --plan FILE: the plan as a snapshot (irqaff.conf(5)) that restore
 * applies as it is, measuring nothing: a plan line with the CPUs it was
 * made for, a line for each IRQ and with --xps for each queue, the rates
 * and loads as comments. "-" is standard output. 0, or -1 after saying
 * why.
 */
static int
plan_write(const struct balance *b, const struct xq *xq, size_t nx)
{
	char *text = NULL, *list;
	size_t len = 0, i;
	FILE *fp;
	int rc = 0, c;

	fp = xmemstream(&text, &len);
	list = xformat(b->elig, false);
	fprintf(fp, "# irqaff balance plan, rates over %.3f s\n"
	    "# restore applies it as it is; see irqaff.conf(5)\nplan %s\n",
	    b->sm.elapsed, list);
	free(list);
	for (i = 0; i < b->n; i++) {
		fprintf(fp, "%u %d", b->it[i].irq, b->it[i].cpu);
		snapshot_put_names(fp, b->it[i].irq);
		if (b->it[i].rated)
			fprintf(fp, " # %.1f/s,", rate(b, b->it[i].count));
		else
			fprintf(fp, " # no rate,");
		fprintf(fp, " was %s\n", *b->it[i].old ? b->it[i].old : "-");
	}
	for (i = 0; i < nx; i++) {
		fputs("xps ", fp);
		snapshot_put_dev(fp, xq[i].dev);
		fprintf(fp, " %s %d\n", xq[i].queue, b->it[xq[i].ci].cpu);
	}
	for (c = 0; c < (int)b->m.nbits; c++)
		if (shown(b, c))
			fprintf(fp, "# CPU %d: %.1f/s -> %.1f/s\n", c,
			    rate(b, b->before[c]), rate(b, b->after[c]));
	xmemclose(fp);
	if (strcmp(b->planfile, "-") == 0)
		fwrite(text, 1, len, stdout);
	else if ((rc = procfs_file_replace(b->planfile, text, len)) != 0)
		warnc(-rc, "%s", text_quoted(b->planfile));
	free(text);
	return rc != 0 ? -1 : 0;
}

/* The plan for people, or with --plan FILE in FILE; 0, or -1 if said. */
static int
show_plan(const struct balance *b, const struct xq *xq, size_t nx)
{
	if (b->planfile != NULL && plan_write(b, xq, nx) != 0)
		return -1;
	if (b->json || (b->planfile != NULL && strcmp(b->planfile, "-") == 0))
		return 0;
	print_plan(b, xq, nx);
	print_loads(b);
	return fflush(stdout) == 0 ? 0 : -1;
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
	if ((b->xps && xpsfollow_plan(&b->m, "balance", c, b->n, &xq,
	    &nx) != 0) || show_plan(b, xq, nx) != 0)
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
