/*
 * Which queues of a network interface an IRQ serves, read without I/O
 * from the action name its driver gave it.
 */
#ifndef IRQAFF_QUEUENAME_H
#define IRQAFF_QUEUENAME_H

#include <stdbool.h>

/* A queue number as skb->queue_mapping holds it (u16). */
#define QUEUENAME_MAX	65535U

/* What an IRQ serves: rx-N and tx-N, one of them, or no queue. */
enum qserve { QS_NONE, QS_COMBINED, QS_TX, QS_RX };

/*
 * An interface as it looks without knowing its driver: its name, its
 * device's name (the last component of sys/class/net/NAME/device: a PCI
 * address, or virtio2; NULL when unknown), and what the action names of
 * all the device's IRQs tell together (queuename_note()).
 */
struct qdev {
	const char	*ifname;
	const char	*device;
	unsigned int	 gve_blocks;	/* the last gve-ntfy-blkN, plus one */
	unsigned int	 mlx5_first;	/* the lowest mlx5_compN; or past max */
	bool		 vmxnet3;	/* an IFNAME-event-N: vmxnet3 */
	unsigned int	 rx_first;	/* lowest IFNAME-rx-N; or past max */
};

void		 queuename_init(struct qdev *, const char *, const char *);
void		 queuename_note(struct qdev *, const char *);
enum qserve	 queuename_match(const struct qdev *, const char *,
		    unsigned int *);

#endif
