/*
 * What balance.c (options, measuring, planning, applying) and
 * balance_report.c (what it prints) share: the run's state.
 */
#ifndef IRQAFF_BALANCE_H
#define IRQAFF_BALANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/cli.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/load.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/placement.h"

struct xq;

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

/* -J: the plan, the loads, the IRQs freed and, with --xps, the queues. */
struct balance_json {
	const struct balance	*b;
	const struct change	*c;
	const struct xq		*xq;
	size_t			 nx;
};

void	balance_members(void *);
int	balance_show_plan(const struct balance *, const struct xq *,
	    size_t);

#endif
