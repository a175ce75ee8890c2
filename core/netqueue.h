/*
 * The queues of network interfaces: their directories under
 * sys/class/net/NAME/queues, their RPS and XPS CPUs, and the IRQ serving
 * each, matched from the action names of the device's IRQs.
 */
#ifndef IRQAFF_NETQUEUE_H
#define IRQAFF_NETQUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/queuename.h"

struct cpuset;
struct irqs;
struct machine;
struct perr;

enum nqkind { NQ_RX, NQ_TX };

/* One queue, rx-N or tx-N; cpus is owned. */
struct netqueue {
	enum nqkind	 kind;
	unsigned int	 n;
	struct cpuset	*cpus;		/* rps_cpus or xps_cpus; NULL: err */
	int		 err;		/* why cpus could not be read: -errno */
	int		 irq;		/* the IRQ serving it; -1 if unknown */
	char		*why;		/* err, unsaid (netqueue_ifread_held) */
};

/* An interface and its queues; everything in it is owned. */
struct netif {
	char		*name;
	char		*device;	/* its device link's name, or NULL */
	struct netqueue	*q;		/* by number, rx-N before tx-N */
	size_t		 nq;
};

/* An IRQ of an interface's device and queues one of its names serves. */
struct nqirq {
	unsigned int	 irq;
	enum qserve	 serve;
	unsigned int	 n;		/* rx-N, tx-N: 0 for QS_NONE */
};

/*
 * What an IRQ does for its interface's queues: one of an rx-N/tx-N pair
 * (pair: interface * (QUEUENAME_MAX + 1) + N, serve QS_RX or QS_TX), a
 * control IRQ, or neither (pair -1).
 */
struct qrole {
	long		 pair;
	enum qserve	 serve;
	bool		 control;
};

/* The interfaces with queues, in name order; free with procfs_dir_free. */
int		 netqueue_ifnames(char ***, size_t *);
/* An interface's queues and masks: 0, -ENODEV, -ENOENT (no queues). */
bool		 netqueue_ifname_ok(const char *);
int		 netqueue_ifread(struct machine *, const char *,
    struct netif *);
int		 netqueue_ifread_quiet(struct machine *, const char *,
    struct netif *);
int		 netqueue_ifread_held(struct machine *, const char *,
    struct netif *);
/* Each queue's IRQ, from the action names of its device's IRQs. */
void		 netqueue_ifmatch(struct netif *);
/* Its device link's last name (owned), or NULL. */
char		*netqueue_ifdevice(const char *);
/* What the IRQs of an interface (name, device) serve, name by name. */
void		 netqueue_ifirqs(const char *, const char *,
		    struct nqirq **, size_t *);
void		 netqueue_iffree(struct netif *);
struct qrole	*netqueue_roles(const struct irqs *);
struct netqueue	*netqueue_ifqueue(const struct netif *, enum nqkind,
    unsigned int);
bool		 netqueue_parse(const char *, enum nqkind *, unsigned int *);
/* "rps_cpus" or "xps_cpus"; "rx-3"; its mask file under the root. */
const char	*netqueue_file(const struct netqueue *);
void		 netqueue_name(const struct netqueue *, char *, size_t);
void		 netqueue_path(const struct netif *, const struct netqueue *,
		    char *, size_t);
/* A queue's mask file: 0, -ENODEV, -ENOENT (no queue), -ENXIO (no file). */
int		 netqueue_find(const char *, enum nqkind, unsigned int, char *,
		    size_t);

/* What the kernel keeps of a set written to the queue's mask (owned). */
struct cpuset	*netqueue_kept(const struct machine *, enum nqkind,
		    const struct cpuset *);
const char	*netqueue_keeps(enum nqkind);

/* A mask file read as every command reads it; never prints. */
int		 netqueue_read_mask(const char *, struct cpuset *, struct perr *);
/* Whether its mask file holds a mask and is a regular file; said. */
int		 netqueue_check(const struct netif *, const struct netqueue *);

#endif
