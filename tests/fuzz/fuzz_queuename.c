/*
 * queuename_match() on any interface, device and action names: the input
 * is lines, the interface's name, its device's ("" for unknown), the
 * action name, and more action names of the device. Besides a sane
 * answer for that name: each driver's pattern built from the interface's
 * name reads back as what it serves, the interface's own name and the
 * names of an interface one byte longer or shorter serve nothing of it,
 * and each device-wide numbering (gve, mlx5, vmxnet3) reads back.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/queuename.h"

/*
 * A PCI function for the interface's device: an interface named as a
 * virtio queue ("virtio2-input.1") is one only on that virtio device.
 */
#define PCI_ADDR	"0000:00:04.0"

/* The patterns built from an interface's name, and what they serve. */
static const struct {
	const char	*fmt;
	enum qserve	 serve;
	bool		 prefixed;	/* the driver's name comes first */
} templates[] = {
	{ "%s-TxRx-%u", QS_COMBINED, false },
	{ "%s-tx-%u", QS_TX, false },
	{ "%s-rx-%u", QS_RX, false },
	{ "%s-Tx-Rx-%u", QS_COMBINED, false },
	{ "%s-rxtx-%u", QS_COMBINED, false },
	{ "%s-fp-%u", QS_COMBINED, false },
	{ "i40e-%s-TxRx-%u", QS_COMBINED, true },
};

/*
 * A name the kernel takes for an interface (dev_valid_name()): no "/",
 * ":" or space, so that no gve or mlx5 name ("...@pci:ADDR") is one.
 */
static bool
valid_ifname(const char *s)
{
	return *s != '\0' && strcmp(s, ".") != 0 && strcmp(s, "..") != 0 &&
	    strpbrk(s, "/: \t\n\v\f\r") == NULL;
}

static char *
build(const char *fmt, const char *a, unsigned int n)
{
	char *s;

	if (asprintf(&s, fmt, a, n) < 0)
		abort();
	return s;
}

static void
expect(const struct qdev *d, const char *name, enum qserve serve,
    unsigned int n)
{
	unsigned int got = 7;

	if (queuename_match(d, name, &got) != serve ||
	    got != (serve == QS_NONE ? 0 : n))
		abort();
}

/* Each pattern built from the interface's name reads back. */
static void
own_names(const char *ifname, unsigned int n)
{
	struct qdev d;
	size_t i;
	char *s;

	queuename_init(&d, ifname, PCI_ADDR);
	expect(&d, ifname, QS_NONE, 0);
	for (i = 0; i < sizeof(templates) / sizeof(templates[0]); i++) {
		s = build(templates[i].fmt, ifname, n);
		expect(&d, s, templates[i].serve, n);
		free(s);
	}
}

/*
 * Another interface's names serve nothing of this one, unless that one's
 * name is "DRIVER-IFNAME" (or this one's "i40e-OTHER").
 */
static void
other_names(const char *ifname, const char *other, unsigned int n)
{
	struct qdev d;
	unsigned int got;
	size_t i, len = strlen(ifname), olen = strlen(other);
	char *s;
	bool drv;

	queuename_init(&d, ifname, PCI_ADDR);
	drv = olen > len + 1 && strcmp(other + olen - len, ifname) == 0 &&
	    other[olen - len - 1] == '-' &&
	    strspn(other, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
	    olen - len - 1;
	for (i = 0; i < sizeof(templates) / sizeof(templates[0]); i++) {
		s = build(templates[i].fmt, other, n);
		if (queuename_match(&d, s, &got) != QS_NONE && !drv &&
		    !(templates[i].prefixed && strncmp(ifname, "i40e-", 5) ==
		    0 && strcmp(ifname + 5, other) == 0))
			abort();
		free(s);
	}
}

/*
 * vmxnet3's vectors without sharing: IFNAME-tx-K for T tx queues, then
 * IFNAME-rx-K numbered on from T, then IFNAME-event-K.
 */
static void
vmxnet3_names(const char *ifname, const char *device, unsigned int n)
{
	unsigned int t = n % 4 + 1, r = n / 4 % 4 + 1, k;
	struct qdev d;
	char *s;

	queuename_init(&d, ifname, device);
	for (k = 0; k <= t + r; k++) {
		s = build(k < t ? "%s-tx-%u" : k < t + r ? "%s-rx-%u" :
		    "%s-event-%u", ifname, k);
		queuename_note(&d, s);
		free(s);
	}
	for (k = 0; k <= t + r; k++) {
		s = build(k < t ? "%s-tx-%u" : k < t + r ? "%s-rx-%u" :
		    "%s-event-%u", ifname, k);
		expect(&d, s, k < t ? QS_TX : k < t + r ? QS_RX : QS_NONE,
		    k < t ? k : k - t);
		free(s);
	}
}

/* gve's blocks, mlx5's completion vectors, virtio_net's queues. */
static void
device_names(const char *ifname, const char *device, unsigned int n)
{
	const char *addr = device ? device : PCI_ADDR;
	unsigned int nb = 2 * (n % 8 + 1), first = n % 2, k;
	struct qdev d;
	char *s, v[32];

	queuename_init(&d, ifname, device);
	for (k = 0; k < nb; k++) {
		if (asprintf(&s, "gve-ntfy-blk%u@pci:%s", k, addr) < 0)
			abort();
		queuename_note(&d, s);
		free(s);
	}
	for (k = 0; k < nb; k++) {
		if (asprintf(&s, "gve-ntfy-blk%u@pci:%s", k, addr) < 0)
			abort();
		expect(&d, s, k < nb / 2 ? QS_TX : QS_RX,
		    k < nb / 2 ? k : k - nb / 2);
		free(s);
	}
	queuename_init(&d, ifname, device);
	for (k = first; k < first + 4; k++) {
		if (asprintf(&s, "mlx5_comp%u@pci:%s", k, addr) < 0)
			abort();
		queuename_note(&d, s);
		free(s);
	}
	for (k = first; k < first + 4; k++) {
		if (asprintf(&s, "mlx5_comp%u@pci:%s", k, addr) < 0)
			abort();
		expect(&d, s, QS_COMBINED, k - first);
		free(s);
	}
	if (valid_ifname(ifname))
		vmxnet3_names(ifname, device, n);
	snprintf(v, sizeof(v), "virtio%u", n % 100);
	queuename_init(&d, ifname, v);
	s = build("%s-input.%u", v, n);
	expect(&d, s, QS_RX, n);
	free(s);
	s = build("%s-output.%u", v, n);
	expect(&d, s, QS_TX, n);
	free(s);
	expect(&d, "virtio0-config", QS_NONE, 0);
	s = build("%s-config", v, 0);
	expect(&d, s, QS_NONE, 0);
	free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *field[4] = { "", "", "", "" }, *p, *line, *other;
	unsigned int n, again, k;
	enum qserve r;
	struct qdev d;
	size_t nf = 0, len;

	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = text; nf < 3 && (line = strsep(&p, "\n")) != NULL;)
		field[nf++] = line;
	n = size > 0 ? (unsigned int)(data[0] | data[size - 1] << 8) : 0;
	queuename_init(&d, field[0], *field[1] ? field[1] : NULL);
	queuename_note(&d, field[2]);
	while (p != NULL && (line = strsep(&p, "\n")) != NULL)
		queuename_note(&d, line);
	r = queuename_match(&d, field[2], &k);
	if (r > QS_RX || (r == QS_NONE && k != 0) || k > QUEUENAME_MAX)
		abort();
	if (queuename_match(&d, field[2], &again) != r || again != k)
		abort();
	if (r != QS_NONE && *field[0] == '\0' &&
	    strncmp(field[2], "gve-ntfy-blk", 12) != 0 &&
	    strncmp(field[2], "mlx5_comp", 9) != 0 &&
	    strncmp(field[2], "virtio", 6) != 0)
		abort();
	if ((len = strlen(field[0])) > 0) {
		if (valid_ifname(field[0]))
			own_names(field[0], n % (QUEUENAME_MAX + 1));
		if (asprintf(&other, "%s%c", field[0],
		    size > 1 && data[1] != '\0' ? data[1] : '0') < 0)
			abort();
		other_names(field[0], other, n % 1000);
		other[len - 1] = '\0';
		if (len > 1)
			other_names(field[0], other, n % 1000);
		free(other);
	}
	device_names(field[0], *field[1] ? field[1] : NULL, n % 1000);
	free(text);
	return 0;
}
