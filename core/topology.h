/*
 * Where each CPU sits: its thread rank within its physical core and its
 * package, read once per run from sysfs, and the order that puts the
 * first thread of every core before any second thread; a device's node
 * and local CPUs.
 */
#ifndef IRQAFF_TOPOLOGY_H
#define IRQAFF_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

struct cpuset;
struct machine;

/*
 * A CPU of a pool: rank is how many pool CPUs of its core are numbered
 * below it (0: the core's first thread), pkg its physical_package_id
 * (-1 unknown).
 */
struct cpuslot {
	int	rank;
	int	pkg;
	int	cpu;
};

struct cpuslot	*topology_order(struct machine *, const struct cpuset *,
		    bool, size_t *);
int		 topology_cmp(const void *, const void *);
struct cpuset	*topology_device_cpus(struct machine *, const char *, int *);

#endif
