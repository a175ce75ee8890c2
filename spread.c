/*
 * spread: one CPU per IRQ, round robin over a pool of CPUs: the first
 * thread of every physical core, then the second threads, and so on.
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irqaff.h"
#include "procfs.h"

#define CPU_DIR	"sys/devices/system/cpu"

enum { OPT_LINEAR = 256, OPT_ISOLATED };

static const struct option spread_opts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, 'J' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "exclude", required_argument, NULL, 'x' },
	{ "linear", no_argument, NULL, OPT_LINEAR },
	{ "include-isolated", no_argument, NULL, OPT_ISOLATED },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Where a CPU comes in the order: its thread rank, package, number. */
struct slot {
	int	rank;
	int	pkg;
	int	cpu;
};

/* A small decimal number in a file, or -1. */
static int
read_int(const char *rel, int min)
{
	const char *errstr;
	char *buf;
	int v;

	if (procfs_read(rel, &buf) != 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	v = strtonum(buf, min, INT_MAX, &errstr);
	free(buf);
	return errstr == NULL ? v : -1;
}

/* -x: like -c, but it may name no online CPU at all. */
static int
exclude_arg(struct machine *m, const char *arg, struct cpuset *out)
{
	struct perr pe;
	bool mask = strncasecmp(arg, "0x", 2) == 0;

	if ((mask ? cpumask_parse(out, arg, &pe) :
	    cpus_nodes(m, arg, out, &pe)) == 0)
		return 0;
	warnx("CPU %s \"%s\": %s", mask ? "mask" : "list", quoted(arg),
	    pe.msg);
	return -1;
}

static bool
has_irq(const struct irqs *s, unsigned int irq)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == irq)
			return true;
	return false;
}

/* Does the device own every selected IRQ? Sets *dirp if so. */
static bool
owns_all(const char *name, const struct irqs *irqs, char **dirp)
{
	struct irqs dev = { NULL, 0 };
	char *dir = NULL;
	size_t i;
	bool all;

	if (device_irqs(name, &dev, &dir) != 0)
		return false;
	for (i = 0, all = dev.n > 0; all && i < irqs->n; i++)
		all = has_irq(&dev, irqs->v[i]);
	irqs_free(&dev);
	if (all)
		*dirp = dir;
	else
		free(dir);
	return all;
}

static const char *const class_dirs[] = {
	"sys/class/net", "sys/class/nvme", "sys/bus/pci/devices",
};

/* The sysfs directory of the one device all the IRQs belong to, or NULL. */
static char *
owner_dir(const char *arg, const struct irqs *irqs)
{
	struct irqsel *sel;
	struct perr pe;
	char **names, *dir = NULL;
	size_t nsel, n, i, k;

	if (irqsel_parse(arg, &sel, &nsel, &pe) == 0) {
		if (nsel == 1 && sel[0].kind == SEL_DEV)
			owns_all(sel[0].arg, irqs, &dir);
		irqsel_free(sel, nsel);
		if (dir != NULL)
			return dir;
	}
	for (i = 0; dir == NULL && i < nitems(class_dirs); i++) {
		if (procfs_dir(class_dirs[i], false, &names, &n) != 0)
			continue;
		for (k = 0; dir == NULL && k < n; k++)
			owns_all(names[k], irqs, &dir);
		if (n > 0)
			procfs_dir_free(names, n);
	}
	return dir;
}

/* The CPUs local to a device, or NULL when its node is not known. */
static struct cpuset *
local_cpus(struct machine *m, const char *dir)
{
	struct cpuset *set;
	char rel[600];
	int node;

	snprintf(rel, sizeof(rel), "%s/numa_node", dir);
	node = read_int(rel, -1);
	if (node < 0 && procfs_exists(rel))
		return NULL;
	snprintf(rel, sizeof(rel), "%s/local_cpulist", dir);
	if ((set = machine_file(m, rel)) != NULL || node < 0)
		return set;
	snprintf(rel, sizeof(rel), "sys/devices/system/node/node%d/cpulist",
	    node);
	return machine_file(m, rel);
}

static struct cpuset *
siblings(struct machine *m, int cpu)
{
	struct cpuset *set;
	char rel[96];

	snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/topology/"
	    "thread_siblings_list", cpu);
	if ((set = machine_file(m, rel)) != NULL)
		return set;
	snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/topology/core_cpus_list",
	    cpu);
	if ((set = machine_file(m, rel)) != NULL)
		return set;
	set = xcpuset(m->nbits);
	cpuset_set(set, cpu);
	return set;
}

static int
cmpslot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->pkg != y->pkg)
		return x->pkg < y->pkg ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/*
 * The pool's CPUs in spreading order. A CPU's rank is the number of its
 * pool siblings numbered below it: 0 for the first thread of a core.
 */
static struct slot *
cpu_order(struct machine *m, const struct cpuset *pool, bool linear,
    size_t *np)
{
	struct cpuset *sib;
	struct slot *s;
	char rel[96];
	size_t n = 0;
	int cpu, c;

	if ((s = calloc(cpuset_count(pool), sizeof(*s))) == NULL)
		err(EXIT_FAIL, NULL);
	for (cpu = cpuset_first(pool); cpu >= 0;
	    cpu = cpuset_next(pool, cpu + 1)) {
		s[n].cpu = cpu;
		if (!linear) {
			snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/topology/"
			    "physical_package_id", cpu);
			s[n].pkg = read_int(rel, 0);
			sib = siblings(m, cpu);
			for (c = cpuset_first(sib); c >= 0 && c < cpu;
			    c = cpuset_next(sib, c + 1))
				s[n].rank += cpuset_test(pool, c);
			cpuset_free(sib);
		}
		n++;
	}
	qsort(s, n, sizeof(*s), cmpslot);
	*np = n;
	return s;
}

static void
print_plan(const struct change *c, size_t n, bool json)
{
	char *name;
	size_t i;

	for (i = 0; i < n; i++) {
		name = irq_names(c[i].irq);
		if (json) {
			printf("%s{\"irq\":%u,\"name\":", i ? "," : "[",
			    c[i].irq);
			json_string(name);
			printf(",\"cpu\":%d}", cpuset_first(c[i].want));
		} else
			printf("irq %u%s%s: %d\n", c[i].irq, *name ? " " : "",
			    name, cpuset_first(c[i].want));
		free(name);
	}
	if (json)
		printf("]\n");
	if (fflush(stdout) != 0 || ferror(stdout))
		err(EXIT_FAIL, "standard output");
}

/* The CPUs to spread over; NULL, already warned, when none is left. */
static struct cpuset *
make_pool(struct machine *m, const struct cpuset *named,
    const struct cpuset *exclude, bool isolated, const char *arg,
    const struct irqs *irqs)
{
	struct cpuset *pool = NULL, *iso;
	char *dir, *list;

	if (named != NULL)
		pool = cpuset_dup(named);
	else if ((dir = owner_dir(arg, irqs)) != NULL) {
		pool = local_cpus(m, dir);
		free(dir);
	}
	if (pool == NULL && (pool = cpuset_dup(m->online)) == NULL)
		err(EXIT_FAIL, NULL);
	if ((list = cpulist_format(pool)) == NULL)
		err(EXIT_FAIL, NULL);
	cpuset_and(pool, m->online);
	cpuset_andnot(pool, exclude);
	if (!isolated) {
		if ((iso = cpuset_dup(m->isolated)) == NULL)
			err(EXIT_FAIL, NULL);
		if (named != NULL)
			cpuset_andnot(iso, named);
		cpuset_andnot(pool, iso);
		cpuset_free(iso);
	}
	if (cpuset_empty(pool)) {
		warnx("spread: no CPU of %s is left once offline, excluded "
		    "and isolated CPUs are taken out", *list ? list : "(none)");
		cpuset_free(pool);
		pool = NULL;
	}
	free(list);
	return pool;
}

int
spread_main(int argc, char *argv[])
{
	struct machine m;
	struct irqs irqs = { NULL, 0 };
	struct change *c = NULL;
	struct cpuset *named = NULL, *exclude, *pool = NULL;
	struct slot *order = NULL;
	const char *carg = NULL, *xarg = NULL;
	bool dryrun = false, json = false, linear = false, isolated = false;
	bool quiet = false;
	int ch, flags = 0, status;
	size_t i, n;

	while ((ch = getopts(argc, argv, "nvJc:x:q", spread_opts)) != -1) {
		switch (ch) {
		case 'n':
			dryrun = true;
			break;
		case 'v':
			flags |= APPLY_VERBOSE;
			break;
		case 'J':
			json = true;
			break;
		case 'c':
			carg = optarg;
			break;
		case 'x':
			xarg = optarg;
			break;
		case OPT_LINEAR:
			linear = true;
			break;
		case OPT_ISOLATED:
			isolated = true;
			break;
		case 'q':
			quiet = true;
			break;
		}
	}
	if (argc - optind != 1) {
		warnx("%s: expected one IRQ list", argv[0]);
		usage(stderr, argv[0]);
		return EXIT_USAGE;
	}
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	exclude = xcpuset(m.nbits);
	status = EXIT_USAGE;
	if (carg != NULL && cpus_arg(&m, carg, false,
	    (named = xcpuset(m.nbits))) != 0)
		goto out;
	if (xarg != NULL && exclude_arg(&m, xarg, exclude) != 0)
		goto out;
	if ((status = irqs_select(argv[optind], &irqs)) != EXIT_OK)
		goto out;
	status = EXIT_USAGE;
	if ((pool = make_pool(&m, named, exclude, isolated, argv[optind],
	    &irqs)) == NULL)
		goto out;

	order = cpu_order(&m, pool, linear, &n);
	if ((c = calloc(irqs.n, sizeof(*c))) == NULL)
		err(EXIT_FAIL, NULL);
	for (i = 0; i < irqs.n; i++) {
		c[i].irq = irqs.v[i];
		c[i].want = xcpuset(m.nbits);
		cpuset_set(c[i].want, order[i % n].cpu);
	}
	status = EXIT_OK;
	if (dryrun || json)
		print_plan(c, irqs.n, json);
	if (!dryrun) {
		if (!quiet)
			irqbalance_warn();
		status = apply(&m, c, irqs.n, flags);
	}
	for (i = 0; i < irqs.n; i++)
		cpuset_free(c[i].want);
out:
	free(c);
	free(order);
	irqs_free(&irqs);
	cpuset_free(pool);
	cpuset_free(named);
	cpuset_free(exclude);
	machine_free(&m);
	return status;
}
