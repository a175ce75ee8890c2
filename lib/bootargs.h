/*
 * What the kernel command line says about interrupts and isolated CPUs:
 * irqaffinity=, isolcpus= and nohz_full=. No I/O, no printing.
 */
#ifndef IRQAFF_BOOTARGS_H
#define IRQAFF_BOOTARGS_H

struct cpuset;

/* isolcpus= flags (kernel/sched/isolation.c) */
enum {
	ISOL_DOMAIN = 1,	/* the default without flags */
	ISOL_NOHZ = 2,
	ISOL_MANAGED_IRQ = 4,
};

/*
 * Each parameter the last time it appears; a set is NULL when the
 * parameter is absent or its list does not parse, and then the kernel
 * ignores it too. The _arg strings are the values as written.
 */
struct bootargs {
	struct cpuset	*irqaffinity;
	struct cpuset	*isolcpus;
	struct cpuset	*nohz_full;
	int		 isolflags;
	char		*irqaffinity_arg, *isolcpus_arg, *nohz_full_arg;
};

int	 bootargs_parse(const char *, unsigned int, struct bootargs *);
void	 bootargs_free(struct bootargs *);

#endif
