/*
 * What balance.c (options, measuring, planning, applying) and
 * balance_report.c (what it prints) share: the run's state.
 */
#ifndef IRQAFF_BALANCE_H
#define IRQAFF_BALANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cli.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/balplan.h"

struct xq;

struct balance {
	struct machine	 m;
	struct sampling	 sm;
	const char	*carg;
	bool		 dryrun, quiet, xps, verbose, json, isolated;
	struct cpuset	*elig;
	struct balplan	 p;
	struct leftout	 unmoved;	/* user space cannot move them */
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
int	balance_show_plan(struct balance *, const struct change *,
	    const struct xq *, size_t);

#endif
