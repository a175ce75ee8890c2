/*
 * spread: one CPU per IRQ, round robin over a pool of CPUs: the first
 * thread of every physical core, then the second threads, and so on.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/device.h"
#include "core/irqbalance.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/placement.h"
#include "core/select.h"
#include "core/topology.h"
#include "core/vectors.h"
#include "core/xpsfollow.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

static int spread_main(int, char *[]);

const struct command spread_command = {
	.name = "spread",
	.main = spread_main,
	.summary = "give each IRQ of a device its own CPU",
	.synopsis =
	    "[-nvJq] [-c cpus] [-x cpus] [--linear] [--include-isolated] [--xps] "
	    "irqs ...",
	.options =
	    "  -n, --dry-run           print the plan, write nothing\n"
	    "  -v, --verbose           print a line for every IRQ\n"
	    "  -J, --json              print the result as JSON\n"
	    "  -c, --cpus CPUS         the CPUs to use (default: the device's "
	    "node)\n"
	    "  -x, --exclude CPUS      CPUs not to use\n"
	    "      --linear            plain CPU order, not cores first\n"
	    "      --include-isolated  also use isolated and nohz_full CPUs\n"
	    "      --xps               also set the XPS CPUs of their tx queues\n"
	    "  -q, --quiet             no pool, no notes, no irqbalance warning\n",
};

enum { OPT_LINEAR = 256, OPT_ISOLATED, OPT_XPS };

static const struct option spread_opts[] = {
	APPLY_LONGOPTS,
	{ "cpus", required_argument, NULL, 'c' },
	{ "exclude", required_argument, NULL, 'x' },
	{ "linear", no_argument, NULL, OPT_LINEAR },
	{ "include-isolated", no_argument, NULL, OPT_ISOLATED },
	{ "xps", no_argument, NULL, OPT_XPS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Where the pool comes from. */
enum source {
	POOL_ASKED,	/* the CPUs asked for */
	POOL_NODE,	/* the device's node */
	POOL_LOCAL,	/* the device's local CPUs, its node unknown */
	POOL_ALL,	/* every online CPU */
};

/*
 * The CPUs to spread over, what they came from and what was left out;
 * all owned. device is the one device of all the IRQs, or NULL.
 */
struct pool {
	struct cpuset	*cpus;
	enum source	 source;
	const char	*asked;
	char		*device;
	int		 node;
	struct cpuset	*isolated, *excluded, *offline;
	char		*why;		/* what isolates them */
};

static void
pool_free(struct pool *p)
{
	cpuset_free(p->cpus);
	cpuset_free(p->isolated);
	cpuset_free(p->excluded);
	cpuset_free(p->offline);
	free(p->device);
	free(p->why);
}

/* The device's CPUs, the device and its node, or every online CPU. */
static struct cpuset *
device_pool(struct machine *m, struct pool *p, const struct irqs *irqs)
{
	struct cpuset *from = NULL;
	char *dir;

	p->source = POOL_ALL;
	p->node = -1;
	if ((dir = device_owner(irqs, &p->device)) != NULL) {
		if ((from = topology_device_cpus(m, dir, &p->node)) != NULL)
			p->source = p->node >= 0 ? POOL_NODE : POOL_LOCAL;
		free(dir);
	}
	return from != NULL ? from : xcpudup(m->online);
}

/*
 * The CPUs to spread over: asked for (numbered: those named by number),
 * else the device's; less offline, excluded and, unless named by number
 * or isolated is set, isolated ones. -1, already warned, when none is
 * left.
 */
static int
make_pool(struct machine *m, const struct cpuset *named,
    const struct cpuset *numbered, const struct cpuset *exclude,
    bool isolated, const struct irqs *irqs, struct pool *p)
{
	struct cpuset *from;
	char *list;

	memset(p, 0, sizeof(*p));
	if (named != NULL) {
		from = xcpudup(named);
		p->source = POOL_ASKED;
		p->node = -1;
	} else
		from = device_pool(m, p, irqs);
	p->cpus = xcpudup(from);
	p->offline = xcpudup(from);
	cpuset_andnot(p->offline, m->online);
	cpuset_and(p->cpus, m->online);
	p->excluded = xcpudup(p->cpus);
	cpuset_and(p->excluded, exclude);
	cpuset_andnot(p->cpus, exclude);
	p->isolated = isolation_leave_out(m, p->cpus, numbered, isolated,
	    &p->why);
	if (cpuset_empty(p->cpus)) {
		list = xformat(from, false);
		warnx("spread: no CPU of %s is left once offline, excluded "
		    "and isolated CPUs are taken out", *list ? list : "(none)");
		free(list);
	}
	cpuset_free(from);
	return cpuset_empty(p->cpus) ? -1 : 0;
}

/* ", 12-15 isolated (isolcpus=)": a part of what was left out. */
static void
left_out(FILE *fp, const char *sep, const struct cpuset *set,
    const char *what, const char *why)
{
	char *list;

	if (cpuset_empty(set))
		return;
	list = xformat(set, false);
	fprintf(fp, "%s%s %s%s%s%s", sep, list, what, why ? " (" : "",
	    why ? why : "", why ? ")" : "");
	free(list);
}

/*
 * "spreading eth0's 8 IRQs over CPU 0-11: node 0 (eth0's node), 12-15
 * isolated (isolcpus=) left out", on standard error.
 */
static void
pool_note(struct machine *m, const struct pool *p, size_t n)
{
	char *list, *buf = NULL, *asked, *dev;
	size_t size = 0;
	FILE *fp;

	fp = xmemstream(&buf, &size);
	dev = xescaped(p->device ? p->device : "");
	asked = xescaped(p->asked ? p->asked : "");
	list = xformat(p->cpus, false);
	fprintf(fp, "spreading %s%s%zu IRQ%s over CPU %s: ", dev,
	    *dev ? "'s " : "", n, n == 1 ? "" : "s", list);
	if (p->source == POOL_ASKED)
		fprintf(fp, "%s as asked", asked);
	else if (p->source == POOL_NODE)
		fprintf(fp, "node %d (%s's node)", p->node, dev);
	else if (p->source == POOL_LOCAL)
		fprintf(fp, "%s's local CPUs", dev);
	else if (machine_nnodes(m) < 2)
		fputs("every CPU", fp);
	else if (*dev)
		fprintf(fp, "every node (%s has no NUMA node)", dev);
	else
		fputs("every node (no one device has all these IRQs)", fp);
	left_out(fp, ", ", p->isolated, "isolated", p->why);
	left_out(fp, ", ", p->excluded, "excluded", NULL);
	left_out(fp, ", ", p->offline, "offline", NULL);
	if (!cpuset_empty(p->isolated) || !cpuset_empty(p->excluded) ||
	    !cpuset_empty(p->offline))
		fputs(" left out", fp);
	xmemclose(fp);
	warnx("%s", buf);
	free(buf);
	free(list);
	free(asked);
	free(dev);
}

/*
 * ,"pool":{"cpus":"0-11","from":"node","device":"eth0","node":0,
 * "isolated":"12-15","excluded":"","offline":""}
 */
static void
pool_json(FILE *fp, const struct pool *p)
{
	static const char *const from[] = {
		[POOL_ASKED] = "asked", [POOL_NODE] = "node",
		[POOL_LOCAL] = "local", [POOL_ALL] = "all",
	};
	const struct cpuset *sets[] = { p->isolated, p->excluded,
	    p->offline };
	static const char *const keys[] = { "isolated", "excluded",
	    "offline" };
	char *list;
	size_t i;

	list = xformat(p->cpus, false);
	fprintf(fp, ",\"pool\":{\"cpus\":\"%s\",\"from\":\"%s\","
	    "\"device\":", list, from[p->source]);
	free(list);
	if (p->device != NULL)
		text_json_string(fp, p->device);
	else
		fputs("null", fp);
	if (p->node >= 0)
		fprintf(fp, ",\"node\":%d", p->node);
	else
		fputs(",\"node\":null", fp);
	for (i = 0; i < nitems(sets); i++) {
		list = xformat(sets[i], false);
		fprintf(fp, ",\"%s\":\"%s\"", keys[i], list);
		free(list);
	}
	putc('}', fp);
}

static void
print_plan(const struct change *c, size_t n, const struct xq *xq, size_t nx)
{
	char *name, *raw;
	size_t i;

	for (i = 0; i < n; i++) {
		raw = select_names(c[i].irq);
		name = xescaped(raw);
		printf("irq %u%s%s: %d\n", c[i].irq, *name ? " " : "", name,
		    cpuset_first(c[i].want));
		free(name);
		free(raw);
	}
	for (i = 0; i < nx; i++)
		printf("%s: %d\n", xq[i].label, cpuset_first(c[xq[i].ci].want));
}

struct spread {
	struct machine	 m;
	const char	*carg, *xarg;
	bool		 dryrun, linear, isolated, quiet, xps;
	int		 flags;
	struct cpuset	*named, *numbered, *exclude;
};

static int
spread_options(int argc, char *argv[], struct spread *sp)
{
	int ch;

	while ((ch = cli_getopts(argc, argv, &spread_command, "nvJc:x:q",
	    spread_opts)) != -1) {
		switch (ch) {
		case 'c':
			sp->carg = optarg;
			break;
		case 'x':
			sp->xarg = optarg;
			break;
		case OPT_LINEAR:
			sp->linear = true;
			break;
		case OPT_ISOLATED:
			sp->isolated = true;
			break;
		case OPT_XPS:
			sp->xps = true;
			break;
		case 'q':
			sp->quiet = true;
			break;
		default:
			result_option(ch, &sp->flags);
			break;
		}
	}
	if (argc - optind < 1)
		return cli_usage_error(&spread_command, "expected an IRQ list");
	sp->dryrun = sp->flags & APPLY_DRYRUN;
	return EXIT_OK;
}

/* -c must name an online CPU; -x may name none at all. */
static int
spread_cpus(struct spread *sp)
{
	struct perr pe;

	sp->exclude = xcpuset(sp->m.nbits);
	if (sp->carg != NULL) {
		sp->named = xcpuset(sp->m.nbits);
		sp->numbered = xcpuset(sp->m.nbits);
		if (machine_cpus_numbered(&sp->m, sp->carg, CPUS_ONLINE,
		    sp->named, sp->numbered, &pe) != 0) {
			warnx("%s", pe.msg);
			return EXIT_USAGE;
		}
		machine_note_offline(&sp->m, sp->named);
	}
	if (sp->xarg != NULL &&
	    machine_cpus(&sp->m, sp->xarg, 0, sp->exclude, &pe) != 0) {
		warnx("%s", pe.msg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* "note: irq 34 virtio0-config serves no queue; left where it is" */
static void
control_note(unsigned int irq)
{
	char *raw, *name;

	raw = select_names(irq);
	name = xescaped(raw);
	warnx("note: irq %u%s%s serves no queue; left where it is", irq,
	    *name ? " " : "", name);
	free(name);
	free(raw);
}

/* -J: with --xps the "xps" member, then the "pool". */
struct xps_json {
	const struct change	*c;
	const struct xq		*xq;
	size_t			 nx;
	bool			 on;
	const struct pool	*pool;
};

static void
xps_member(void *arg)
{
	const struct xps_json *xj = arg;

	if (xj->on)
		xpsfollow_json(stdout, xj->c, xj->xq, xj->nx);
	pool_json(stdout, xj->pool);
}

/*
 * One CPU per IRQ in spreading order, round robin, or per queue pair
 * (netqueue_roles()): the changes into c, each CPU's set in alone[cpu]
 * (owned by the caller); returns how many. IRQs the kernel manages
 * (debugfs says so) and control IRQs are left out of the plan, the
 * first into lo.
 */
static size_t
plan_changes(struct spread *sp, const struct irqs *irqs,
    const struct pool *pool, struct change *c, struct cpuset **alone,
    struct leftout *lo)
{
	struct cpuslot *order;
	struct qrole *ro;
	size_t i, k, n;
	long *pair;
	int *cpu, *ocpu;
	enum movable mv;
	bool queues = false;

	order = topology_order(&sp->m, pool->cpus, sp->linear, &n);
	ocpu = xcalloc(n + 1, sizeof(*ocpu));
	for (i = 0; i < n; i++)
		ocpu[i] = order[i].cpu;
	pair = xcalloc(irqs->n + 1, sizeof(*pair));
	cpu = xcalloc(irqs->n + 1, sizeof(*cpu));
	ro = netqueue_roles(irqs);
	for (i = 0; i < irqs->n; i++)
		queues |= ro[i].pair >= 0;
	for (i = 0; i < irqs->n; i++) {
		pair[i] = ro[i].pair;
		if ((mv = machine_irq_movable(irqs->v[i])) >= MOVABLE_MANAGED) {
			result_leftout_add(lo, irqs->v[i],
			    mv == MOVABLE_MANAGED);
			pair[i] = -2;
		} else if (ro[i].control && queues) {
			/* a control IRQ, unless it is all there is */
			if (!sp->quiet)
				control_note(irqs->v[i]);
			pair[i] = -2;
		}
	}
	placement_round_robin(pair, irqs->n, ocpu, n, cpu);
	for (i = k = 0; i < irqs->n; i++) {
		if (cpu[i] < 0)
			continue;
		if (alone[cpu[i]] == NULL) {
			alone[cpu[i]] = xcpuset(sp->m.nbits);
			cpuset_set(alone[cpu[i]], cpu[i]);
		}
		c[k++] = (struct change){ irqs->v[i], alone[cpu[i]], false };
	}
	free(pair);
	free(cpu);
	free(ocpu);
	free(ro);
	free(order);
	return k;
}

/*
 * The plan of plan_changes(), printed with -n, else written; with -J -n,
 * what would change is read as a dry run reads it.
 */
static int
spread_irqs(struct spread *sp, const struct irqs *irqs,
    const struct pool *pool)
{
	struct tally tl = { 0 }, tq = { 0 };
	struct xps_json xj;
	struct xq *xq = NULL;
	struct change *c;
	struct cpuset **alone;
	struct leftout lo = { 0 };
	size_t i, k, nx = 0, moved;
	int status = EXIT_OK, json = sp->flags & APPLY_JSON;

	result_tally(&tl, sp->flags);
	result_tally(&tq, sp->flags);
	c = xcalloc(irqs->n + 1, sizeof(*c));
	alone = xcalloc(sp->m.nbits, sizeof(*alone));
	k = plan_changes(sp, irqs, pool, c, alone, &lo);
	/* a CPU out of vectors gives its turn to the pool's freest */
	if ((moved = vectors_place(&sp->m, c, k, pool->cpus, alone)) > 0 &&
	    !sp->quiet)
		warnx("note: %zu IRQ%s placed on other CPUs than their turn: "
		    "theirs had no free interrupt vector", moved,
		    moved == 1 ? "" : "s");
	if (!sp->quiet)
		result_leftout_note(&lo);
	if (!sp->quiet && !sp->xps)
		result_xps_stale_note(&sp->m, c, k);
	if (sp->xps && xpsfollow_plan(&sp->m, "spread", c, k, &xq, &nx) != 0) {
		status = EXIT_FAIL;
		goto out;
	}
	if (!sp->quiet)
		irqbalance_warn_changes(c, k);
	/* a layout the CPUs' vectors cannot hold: nothing written */
	if (!apply_vectors(&sp->m, c, k, &tl))
		status = EXIT_FAIL;
	else if (sp->dryrun && !json)
		print_plan(c, k, xq, nx);
	else if (sp->dryrun && json)
		xpsfollow_write(&sp->m, c, k, xq, nx, sp->flags, &tl, &tq);
	else if (!sp->dryrun) {
		cli_applying();
		xpsfollow_write(&sp->m, c, k, xq, nx, sp->flags, &tl, &tq);
		status = result_status(&tl, &tq, sp->flags);
	}
	/* after result_status(): its note is not about these */
	result_leftout_tally(&lo, &tl, sp->flags);
	xj = (struct xps_json){ c, xq, sp->xps ? nx : 0, sp->xps, pool };
	result_json(&tl, sp->flags, xps_member, &xj);
out:
	xpsfollow_free(xq, nx);
	apply_tally_free(&tq);
	apply_tally_free(&tl);
	for (i = 0; i < sp->m.nbits; i++)
		cpuset_free(alone[i]);
	free(alone);
	result_leftout_free(&lo);
	free(c);
	return status;
}

/*
 * How many of the IRQs get a CPU: not the kernel-managed ones nor those
 * user space cannot move, nor a control IRQ beside queues (as
 * spread_irqs() plans), so that the note counts what is spread.
 */
static size_t
spreadable(const struct irqs *irqs)
{
	struct qrole *ro = netqueue_roles(irqs);
	size_t i, n = 0;
	bool queues = false;

	for (i = 0; i < irqs->n; i++)
		queues |= ro[i].pair >= 0;
	for (i = 0; i < irqs->n; i++)
		if (machine_irq_movable(irqs->v[i]) < MOVABLE_MANAGED &&
		    !(ro[i].control && queues))
			n++;
	free(ro);
	return n;
}

static int
spread_main(int argc, char *argv[])
{
	struct spread sp;
	struct irqs irqs = { 0 };
	struct pool pool;
	int status;

	memset(&sp, 0, sizeof(sp));
	memset(&pool, 0, sizeof(pool));
	if ((status = spread_options(argc, argv, &sp)) != EXIT_OK)
		return status;
	if (machine_load(&sp.m) != 0)
		return EXIT_FAIL;
	if ((status = spread_cpus(&sp)) == EXIT_OK &&
	    (status = cli_exit_status(select_many(argc - optind,
	    argv + optind, &irqs))) ==
	    EXIT_OK) {
		if (make_pool(&sp.m, sp.named, sp.numbered, sp.exclude,
		    sp.isolated, &irqs, &pool) != 0)
			status = EXIT_USAGE;
		else {
			pool.asked = sp.carg;
			if (!sp.quiet && !(sp.flags & APPLY_JSON))
				pool_note(&sp.m, &pool, spreadable(&irqs));
			status = spread_irqs(&sp, &irqs, &pool);
		}
	}
	select_free(&irqs);
	pool_free(&pool);
	cpuset_free(sp.named);
	cpuset_free(sp.numbered);
	cpuset_free(sp.exclude);
	machine_free(&sp.m);
	return status;
}
