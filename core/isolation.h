/*
 * What besides the IRQs themselves decides whether a set of CPUs stays
 * free of interrupts: kernel-managed IRQs, irqbalance and the kernel
 * command line.
 */
#ifndef IRQAFF_ISOLATION_H
#define IRQAFF_ISOLATION_H

#include <stdbool.h>

#include "core/irqbalance.h"
#include "lib/bootargs.h"

struct cpuset;
struct findings;
struct perr;
struct machine;

/* The CPUs to keep free and what else bears on them; owned but m. */
struct isolation {
	struct machine		*m;
	const struct cpuset	*cpus;
	struct cpuset		*house;		/* online, not cpus */
	char			*list;		/* cpus as a list */
	struct irqbalance	 ib;
	struct bootargs		 boot;
};

/*
 * The CPUs the kernel keeps from IRQs: isolcpus= (domain or managed_irq)
 * and nohz_full=, as the command line or sysfs says; owned.
 */
struct isolated {
	struct cpuset	*all;
	struct cpuset	*isolcpus;
	struct cpuset	*nohz;
	struct cpuset	*remembered;	/* by irqaff isolate (state file) */
};

/* Where an IRQ stands against a set of CPUs (isolation_place()). */
enum place {
	PLACE_OFF,	/* neither requested nor running there */
	PLACE_ON,	/* requested there */
	PLACE_PENDING,	/* requested elsewhere, still running there */
};

enum place isolation_place(const struct cpuset *, const struct cpuset *,
	    const struct cpuset *);
bool	 isolation_move_pending(const struct cpuset *, const struct cpuset *);
void	 isolation_cpus(struct isolated *, struct machine *);
int	 isolation_remembered(struct machine *, struct cpuset **,
	    struct perr *);
int	 isolation_remember(const struct cpuset *);
int	 isolation_forget(void);
char	*isolation_why(const struct isolated *, const struct cpuset *);
void	 isolation_warn(const struct isolated *, const struct cpuset *);
struct cpuset *isolation_take_remembered(struct machine *,
	    struct cpuset *);
struct cpuset *isolation_leave_out(struct machine *, struct cpuset *,
	    const struct cpuset *, bool, char **);
void	 isolation_cpus_free(struct isolated *);

void	 isolation_load(struct isolation *, struct machine *,
	    const struct cpuset *);
void	 isolation_notes(struct isolation *, const struct cpuset *,
	    struct findings *);
bool	 isolation_irqbalance_ok(const struct isolation *);
void	 isolation_free(struct isolation *);
struct cpuset *isolation_runs_on(struct machine *, unsigned int, bool *);
bool	 isolation_by_kernel(const struct isolation *);
bool	 isolation_all_isolated(const struct isolation *,
	    const struct cpuset *);
bool	 isolation_has_handler(struct machine *, unsigned int);

#endif
