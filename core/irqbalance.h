/*
 * irqbalance, the daemon that moves IRQs on its own: whether it runs,
 * which CPUs and IRQs it leaves alone, and where it is configured.
 */
#ifndef IRQAFF_IRQBALANCE_H
#define IRQAFF_IRQBALANCE_H

#include <stdbool.h>
#include <stddef.h>

struct change;
struct cpuset;
struct machine;

/* Where its banned CPUs come from (irqbalance cputree.c). */
enum ban_source {
	BAN_AUTO,	/* isolated and nohz_full CPUs */
	BAN_LIST,	/* IRQBALANCE_BANNED_CPULIST */
	BAN_MASK,	/* IRQBALANCE_BANNED_CPUS, deprecated */
};

/* The running daemon; everything is owned. */
struct irqbalance {
	int		 pid;		/* 0: not running */
	struct cpuset	*banned;	/* the CPUs it keeps IRQs off */
	enum ban_source	 source;
	char		*from;		/* "its environment" or a file */
	char		*conf;		/* the file to change */
	unsigned int	*banirq;	/* its --banirq IRQs */
	size_t		 nbanirq;
};

bool	 irqbalance_running(void);
void	 irqbalance_warn_changes(const struct change *, size_t);
void	 irqbalance_load(struct machine *, struct irqbalance *);
bool	 irqbalance_bans(const struct irqbalance *, unsigned int);
void	 irqbalance_free(struct irqbalance *);

#endif
