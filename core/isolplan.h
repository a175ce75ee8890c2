/*
 * isolate's decisions: for a set of CPUs to keep free, what becomes of
 * each IRQ, the default affinity and RPS, where the IRQs left with no CPU
 * of their own go, and with --check whether the CPUs are free.
 */
#ifndef IRQAFF_ISOLPLAN_H
#define IRQAFF_ISOLPLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/apply.h"
#include "core/findings.h"
#include "core/irqthread.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/vectors.h"

struct perr;

/* What the run does with an IRQ. */
enum isokind {
	IK_OFF,		/* not on the CPUs: left alone */
	IK_MOVE,	/* movable, on the CPUs */
	IK_MANAGED,	/* the kernel's; on the CPUs when on is set */
	IK_FAILED,	/* its affinity could not be read */
	IK_UNMOVABLE,	/* user space cannot move it; as IK_MANAGED */
	IK_PENDING,	/* --check: movable, requested off, effective on */
	IK_KEPT,	/* --check: not movable, all its CPUs isolcpus=managed_irq */
};

/* One IRQ of the plan; the sets are owned. */
struct isoirq {
	unsigned int		 irq;
	enum isokind		 kind;
	struct cpuset		*from, *to;	/* IK_MOVE */
	struct cpuset		*on;		/* where it runs, if on the CPUs */
	bool			 guessed;	/* on is requested, not effective */
	bool			 kept;		/* as IK_KEPT, while isolating */
	bool			 stuck;		/* pending, no vector free there */
	enum apply_result	 result;
};

/* A receive queue whose RPS names the CPUs: rps_cpus from, then to. */
struct rpsq {
	char			*dev;		/* owned */
	char			 queue[32];	/* "rx-0" */
	char			*rel;		/* its mask file */
	struct cpuset		*from, *to;
};

/* One isolate run: check is --check, flags APPLY_*; all owned but m's. */
struct isoplan {
	struct machine		 m;
	struct cpuset		*cpus;		/* to keep free */
	bool			 check;
	int			 flags;
	struct isoirq		*e;
	size_t			 n;
	struct cpuset		*dfrom, *dto;	/* the default affinity */
	struct rpsq		*rq;		/* RPS on the CPUs */
	size_t			 nrq;
	char			**xps_notes;	/* XPS on them, left: said */
	size_t			 nxps_notes;
	struct tally		 tl, tq;	/* the IRQs', the queues' */
	struct findings		 notes;
	struct isolation	 iso;
	struct irqthreads	 threads;	/* --check */
	struct vectors		 vec;		/* --check, at a pending move */
	size_t			 vmoved;	/* placed apart: no vector */
};

int		 isoplan_cpus(struct isoplan *, const char *, int,
		    struct perr *);
int		 isoplan_make(struct isoplan *);
bool		 isoplan_fits(struct isoplan *);
void		 isoplan_after(struct isoplan *, struct isoirq *);
void		 isoplan_apply_rps(struct isoplan *);
void		 isoplan_notes(struct isoplan *);
void		 isoplan_free(struct isoplan *);

enum movable	 isoplan_movability(const struct isoirq *);
const char	*isoplan_kind_name(const struct isoirq *);
bool		 isoplan_managed_here(const struct isoirq *);
bool		 isoplan_unmovable_here(const struct isoirq *);
bool		 isoplan_stuck_here(const struct isoirq *);

void		 isoplan_check_irq(struct isoplan *, struct isoirq *);
bool		 isoplan_thread_here(const struct isoplan *,
		    const struct irqthread *);
bool		 isoplan_clean(const struct isoplan *, bool);

void		 isoplan_place(struct isoplan *);

#endif
