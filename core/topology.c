/*
 * Where each CPU sits: its thread rank within its physical core and its
 * package (drivers/base/topology.c), read once per run, the order that
 * puts the first thread of every core before any second thread, and the
 * CPUs local to a device.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/machine.h"
#include "core/topology.h"
#include "core/xalloc.h"
#include "parse.h"
#include "procfs.h"

/*
 * A CPU's topology list under its old name, which every kernel has, else
 * its new one; a set of no CPU when neither can be read.
 */
static struct cpuset *
topology_list(struct machine *m, int cpu, const char *old,
    const char *name)
{
	struct cpuset *set;
	char rel[96];

	snprintf(rel, sizeof(rel), PATH_CPU_TOPOLOGY, cpu, old);
	if ((set = machine_file(m, rel)) != NULL)
		return set;
	snprintf(rel, sizeof(rel), PATH_CPU_TOPOLOGY, cpu, name);
	if ((set = machine_file(m, rel)) != NULL)
		return set;
	return xcpuset(m->nbits);
}

/*
 * Each pool CPU's rank. The kernel gives every thread of a core the same
 * siblings list, so a core's list is read once, for its first CPU.
 */
static void
rank_threads(struct machine *m, const struct cpuset *pool,
    struct cpuslot *s)
{
	struct cpuset *done, *sib;
	int cpu, c, k;

	done = xcpuset(m->nbits);
	for (cpu = cpuset_first(pool); cpu >= 0;
	    cpu = cpuset_next(pool, cpu + 1)) {
		if (cpuset_test(done, cpu))
			continue;
		sib = topology_list(m, cpu, "thread_siblings_list",
		    "core_cpus_list");
		cpuset_set(sib, cpu);
		cpuset_and(sib, pool);
		k = 0;
		for (c = cpuset_first(sib); c >= 0;
		    c = cpuset_next(sib, c + 1)) {
			if (!cpuset_test(done, c))
				s[c].rank = k;
			cpuset_set(done, c);
			k++;
		}
		cpuset_free(sib);
	}
	cpuset_free(done);
}

/*
 * Each pool CPU's package. core_siblings_list (package_cpus_list, its
 * newer name) holds the CPUs that share a physical_package_id
 * (Documentation/ABI/stable/sysfs-devices-system-cpu), so both are read
 * once a package, for its first CPU.
 */
static void
find_packages(struct machine *m, const struct cpuset *pool,
    struct cpuslot *s)
{
	struct cpuset *done, *pkg;
	char rel[96];
	int cpu, c, id;

	done = xcpuset(m->nbits);
	for (cpu = cpuset_first(pool); cpu >= 0;
	    cpu = cpuset_next(pool, cpu + 1)) {
		if (cpuset_test(done, cpu))
			continue;
		snprintf(rel, sizeof(rel), PATH_CPU_TOPOLOGY, cpu,
		    "physical_package_id");
		if (procfs_int(rel, 0, INT_MAX, &id) != 0)
			id = -1;
		pkg = topology_list(m, cpu, "core_siblings_list",
		    "package_cpus_list");
		cpuset_set(pkg, cpu);
		cpuset_and(pkg, pool);
		cpuset_andnot(pkg, done);
		for (c = cpuset_first(pkg); c >= 0;
		    c = cpuset_next(pkg, c + 1))
			s[c].pkg = id;
		cpuset_or(done, pkg);
		cpuset_free(pkg);
	}
	cpuset_free(done);
}

/* Ranks first, then packages, then CPU numbers. */
int
topology_cmp(const void *a, const void *b)
{
	const struct cpuslot *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->pkg != y->pkg)
		return x->pkg < y->pkg ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/*
 * The pool's CPUs in spreading order (topology_cmp()), or in CPU order
 * when linear; owned by the caller, *np of them.
 */
struct cpuslot *
topology_order(struct machine *m, const struct cpuset *pool, bool linear,
    size_t *np)
{
	struct cpuslot *s;
	size_t n = 0;
	int cpu;

	s = xcalloc(m->nbits, sizeof(*s));
	if (!linear) {
		rank_threads(m, pool, s);
		find_packages(m, pool, s);
	}
	/* s[] is by CPU number until here; the pool's CPUs move down */
	for (cpu = cpuset_first(pool); cpu >= 0;
	    cpu = cpuset_next(pool, cpu + 1)) {
		s[n] = s[cpu];
		s[n++].cpu = cpu;
	}
	qsort(s, n, sizeof(*s), topology_cmp);
	*np = n;
	return s;
}

/*
 * The CPUs local to a device, or NULL when its node is not known; *nodep
 * is its node, or -1.
 */
struct cpuset *
topology_device_cpus(struct machine *m, const char *dir, int *nodep)
{
	struct cpuset *set;
	char rel[600];
	int node;

	snprintf(rel, sizeof(rel), PATH_DEV_NUMA_NODE, dir);
	if (procfs_int(rel, -1, INT_MAX, &node) != 0)
		node = -1;
	*nodep = node;
	if (node < 0 && procfs_exists(rel))
		return NULL;
	snprintf(rel, sizeof(rel), PATH_DEV_LOCAL_CPULIST, dir);
	if ((set = machine_file(m, rel)) != NULL || node < 0)
		return set;
	snprintf(rel, sizeof(rel), PATH_NODE_CPULIST, node);
	return machine_file(m, rel);
}
