/*
 * Which queues of a network interface an IRQ serves, read without I/O
 * from the action name its driver gave it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "lib/queuename.h"

/* Driver names (KBUILD_MODNAME) as dev_driver_string() gives them. */
#define DRIVER_CHARS	"abcdefghijklmnopqrstuvwxyz0123456789_"

/*
 * What follows "IFNAME-" in the names drivers build from the interface's
 * name, each with the function that builds it.
 */
enum word { W_TXRX, W_TX, W_RX, W_ENA, W_RXTX, W_FP, W_EVENT, NWORDS };

static const struct {
	const char	*word;
	enum qserve	 serve;
} words[NWORDS] = {
	/* igb_request_msix(), ixgbe_request_msix_irqs(), alx_request_msix() */
	[W_TXRX] =	{ "TxRx-", QS_COMBINED },
	[W_TX] =	{ "tx-", QS_TX },
	[W_RX] =	{ "rx-", QS_RX },
	/* ena_setup_io_intr() */
	[W_ENA] =	{ "Tx-Rx-", QS_COMBINED },
	/* nfp_net_prepare_vector(), otx2_open(), vmxnet3_request_irqs() */
	[W_RXTX] =	{ "rxtx-", QS_COMBINED },
	/* bnx2x_req_msix_irqs(); qede_init_fp() too, unless rx, tx apart */
	[W_FP] =	{ "fp-", QS_COMBINED },
	/* vmxnet3_request_irqs(): its vector for events, no queue */
	[W_EVENT] =	{ "event-", QS_NONE },
};

/*
 * The digits at s as a queue number: no sign, no leading zero (the
 * kernel's %d and %u write none), at most QUEUENAME_MAX. Their count, or
 * 0 when there is no such number.
 */
static size_t
number(const char *s, unsigned int *n)
{
	size_t len = strspn(s, "0123456789"), i;
	unsigned long v = 0;

	if (len == 0 || len > 5 || (len > 1 && s[0] == '0'))
		return 0;
	for (i = 0; i < len; i++)
		v = v * 10 + (unsigned long)(s[i] - '0');
	if (v > QUEUENAME_MAX)
		return 0;
	*n = v;
	return len;
}

static bool
whole_number(const char *s, unsigned int *n)
{
	size_t len = number(s, n);

	return len > 0 && s[len] == '\0';
}

/* The rest of s after prefix, or NULL when s does not start with it. */
static const char *
after(const char *s, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(s, prefix, len) == 0 ? s + len : NULL;
}

/* "IFNAME-" then one of the words and a number, to the end; or NWORDS. */
static enum word
after_ifname(const char *ifname, const char *s, unsigned int *n)
{
	const char *rest;
	size_t i;

	if ((s = after(s, ifname)) == NULL || *s++ != '-')
		return NWORDS;
	for (i = 0; i < NWORDS; i++)
		if ((rest = after(s, words[i].word)) != NULL &&
		    whole_number(rest, n))
			return i;
	return NWORDS;
}

/*
 * A name built from the interface's, or from the driver's name and the
 * interface's: "i40e-eth0-TxRx-3" (i40e_vsi_open(), ice_vsi_open()).
 * The interface's own comes first: an interface may be named "i40e".
 */
static enum word
by_ifname(const struct qdev *d, const char *name, unsigned int *n)
{
	enum word w;
	size_t len;

	if (d->ifname == NULL || *d->ifname == '\0')
		return NWORDS;
	if ((w = after_ifname(d->ifname, name, n)) != NWORDS)
		return w;
	len = strspn(name, DRIVER_CHARS);
	if (len == 0 || name[len] != '-')
		return NWORDS;
	return after_ifname(d->ifname, name + len + 1, n);
}

/* "@pci:ADDR" to the end, ADDR the device's when it is known. */
static bool
on_device(const struct qdev *d, const char *s)
{
	if ((s = after(s, "@pci:")) == NULL || *s == '\0')
		return false;
	return d->device == NULL || strcmp(s, d->device) == 0;
}

/* PREFIX, a number N and "@pci:ADDR": gve and mlx5 name vectors so. */
static bool
numbered_on_device(const struct qdev *d, const char *name,
    const char *prefix, unsigned int *n)
{
	size_t len;

	if ((name = after(name, prefix)) == NULL ||
	    (len = number(name, n)) == 0)
		return false;
	return on_device(d, name + len);
}

/*
 * virtio_net's queues, "input.N" and "output.N" (virtnet_find_vqs()), as
 * virtio_pci names their vectors: "virtio2-input.3" (vp_find_vqs_msix()).
 * The virtio device is the interface's when it is known.
 */
static enum qserve
virtio_queue(const struct qdev *d, const char *name, unsigned int *n)
{
	const char *s, *rest;
	unsigned int k;
	size_t len;

	if (d->device != NULL) {
		if ((s = after(d->device, "virtio")) == NULL ||
		    !whole_number(s, &k) ||
		    (s = after(name, d->device)) == NULL)
			return QS_NONE;
	} else if ((s = after(name, "virtio")) == NULL ||
	    (len = number(s, &k)) == 0)
		return QS_NONE;
	else
		s += len;
	if ((rest = after(s, "-input.")) != NULL && whole_number(rest, n))
		return QS_RX;
	if ((rest = after(s, "-output.")) != NULL && whole_number(rest, n))
		return QS_TX;
	return QS_NONE;
}

void
queuename_init(struct qdev *d, const char *ifname, const char *device)
{
	memset(d, 0, sizeof(*d));
	d->ifname = ifname;
	d->device = device;
	d->mlx5_first = QUEUENAME_MAX + 1;
	d->rx_first = QUEUENAME_MAX + 1;
}

/* What one action name of the device's IRQs adds to what is known. */
void
queuename_note(struct qdev *d, const char *name)
{
	unsigned int n;
	enum word w;

	if (numbered_on_device(d, name, "gve-ntfy-blk", &n) &&
	    n >= d->gve_blocks)
		d->gve_blocks = n + 1;
	else if (numbered_on_device(d, name, "mlx5_comp", &n) &&
	    n < d->mlx5_first)
		d->mlx5_first = n;
	else if ((w = by_ifname(d, name, &n)) == W_EVENT)
		d->vmxnet3 = true;
	else if (w == W_RX && n < d->rx_first)
		d->rx_first = n;
}

/*
 * The queues an IRQ with this action name serves, and in *n their
 * number; QS_NONE (and 0) for a name that gives no number for the
 * interface, or one of another interface.
 */
enum qserve
queuename_match(const struct qdev *d, const char *name, unsigned int *n)
{
	enum qserve r = QS_NONE;
	unsigned int k = 0, half = d->gve_blocks / 2;
	enum word w;

	if (numbered_on_device(d, name, "gve-ntfy-blk", &k)) {
		/*
		 * gve_tx_idx_to_ntfy(), gve_rx_idx_to_ntfy(): the first half
		 * of the notify blocks serve tx-N, the second rx-N; their
		 * number is even (gve_priv.num_ntfy_blks).
		 */
		if (d->gve_blocks % 2 == 0 && k < half)
			r = QS_TX;
		else if (d->gve_blocks % 2 == 0 && k < d->gve_blocks) {
			r = QS_RX;
			k -= half;
		}
	} else if (numbered_on_device(d, name, "mlx5_comp", &k)) {
		/*
		 * Channel N uses completion vector N (mlx5e_open_channel());
		 * names count from 0, or from 1 in kernels between "net/mlx5:
		 * Use dynamic msix vectors allocation" and its fix "offset
		 * comp irq index in name by one".
		 */
		if (k >= d->mlx5_first) {
			r = QS_COMBINED;
			k -= d->mlx5_first;
		}
	} else if ((r = virtio_queue(d, name, &k)) == QS_NONE &&
	    (w = by_ifname(d, name, &k)) != NWORDS) {
		r = words[w].serve;
		/*
		 * vmxnet3 numbers its vectors, tx queues' first: rx-N is the
		 * Nth after the first rx vector (vmxnet3_request_irqs()).
		 */
		if (w == W_RX && d->vmxnet3 && k >= d->rx_first)
			k -= d->rx_first;
		else if (w == W_RX && d->vmxnet3)
			r = QS_NONE;
	}
	*n = r == QS_NONE ? 0 : k;
	return r;
}
