/*
 * The queues of network interfaces (sys/class/net/NAME/queues/rx-N and
 * tx-N), their RPS and XPS CPUs, and the IRQ serving each, matched from
 * the action names of the interface's device's IRQs (queuename.c).
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine.h"
#include "core/netqueue.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/queuename.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static int
cmpname(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* What reading an interface says of what it cannot read. */
enum say { SAY_ALL, SAY_DIR, SAY_NONE };

/*
 * The interfaces that have a queues directory, sorted by name with
 * numbers as numbers (eth2 before eth10). A missing sys/class/net is no
 * interface; 0, or -errno after saying why.
 */
int
netqueue_ifnames(char ***names, size_t *n)
{
	char rel[PATH_MAX], **all;
	size_t nall, i;
	int rc;

	*names = NULL;
	*n = 0;
	if ((rc = procfs_dir(PATH_SYS_NET, false, &all, &nall)) != 0) {
		if (rc == -ENOENT)
			return 0;
		warnc(-rc, "%s", procfs_path(PATH_SYS_NET));
		return rc;
	}
	*names = xcalloc(nall, sizeof(**names));
	for (i = 0; i < nall; i++) {
		snprintf(rel, sizeof(rel), PATH_NET_QUEUES, all[i]);
		if (procfs_exists(rel)) {
			(*names)[(*n)++] = all[i];
			all[i] = NULL;
		}
	}
	procfs_dir_free(all, nall);
	if (*n > 0)
		qsort(*names, *n, sizeof(**names), cmpname);
	return 0;
}

/* Whether name is "rx-N" or "tx-N", N as the kernel writes it ("%u"). */
bool
netqueue_parse(const char *name, enum nqkind *kind, unsigned int *n)
{
	const char *errstr;
	long long v;

	if (strncmp(name, "rx-", 3) == 0)
		*kind = NQ_RX;
	else if (strncmp(name, "tx-", 3) == 0)
		*kind = NQ_TX;
	else
		return false;
	name += 3;
	if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1]) ||
	    strspn(name, "0123456789") != strlen(name))
		return false;
	v = strtonum(name, 0, QUEUENAME_MAX, &errstr);
	if (errstr != NULL)
		return false;
	*n = v;
	return true;
}

static int
cmpqueue(const void *a, const void *b)
{
	const struct netqueue *x = a, *y = b;

	if (x->n != y->n)
		return (x->n > y->n) - (x->n < y->n);
	return (x->kind > y->kind) - (x->kind < y->kind);
}

const char *
netqueue_file(const struct netqueue *q)
{
	return q->kind == NQ_RX ? "rps_cpus" : "xps_cpus";
}

/* "rx-3", "tx-3". */
void
netqueue_name(const struct netqueue *q, char *buf, size_t size)
{
	snprintf(buf, size, "%s-%u", q->kind == NQ_RX ? "rx" : "tx", q->n);
}

/* The queue's mask file, relative to the root. */
void
netqueue_path(const struct netif *nif, const struct netqueue *q, char *buf,
    size_t size)
{
	char name[32];

	netqueue_name(q, name, sizeof(name));
	snprintf(buf, size, PATH_NET_QUEUE_FILE, nif->name, name,
	    netqueue_file(q));
}

/*
 * A queue's CPUs, a kernel mask of nr_cpu_ids bits (net-sysfs.c
 * xps_cpus_show(), show_rps_map()). A file that is not there, or that
 * the kernel will not read (ENOENT: xps_cpus of a single-queue device),
 * leaves cpus NULL in silence; any other failure is said (SAY_ALL), held
 * in q->why for netqueue_check() (SAY_DIR), or neither (SAY_NONE).
 */
static void
read_mask(struct machine *m, const struct netif *nif, struct netqueue *q,
    enum say say)
{
	char rel[PATH_MAX];
	struct perr pe;
	int rc;

	netqueue_path(nif, q, rel, sizeof(rel));
	q->cpus = xcpuset(m->nbits);
	if ((rc = netqueue_read_mask(rel, q->cpus, &pe)) != 0) {
		if (rc != -ENOENT && say == SAY_ALL)
			warnx("%s", pe.msg);
		else if (rc != -ENOENT && say == SAY_DIR)
			q->why = xstrdup(pe.msg);
		cpuset_free(q->cpus);
		q->cpus = NULL;
		q->err = rc;
	}
}

/*
 * A queue's mask file at rel read into set, as every command reads it:
 * only a regular file that holds a mask, as the kernel's always do (a
 * newline at least), is a value; a fifo, a device or an empty file is
 * none, never the empty set. 0, or -errno and why in pe.
 */
int
netqueue_read_mask(const char *rel, struct cpuset *set, struct perr *pe)
{
	struct pfile pf;
	struct perr why;
	int rc;

	if ((rc = procfs_pfile_open(&pf, rel, false)) != 0)
		return perr_set(pe, -rc, "%s: %s", procfs_path(rel),
		    strerror(-rc));
	if (!pf.regular)
		rc = perr_set(pe, EPERM, "%s: not a regular file",
		    procfs_path(rel));
	else if (pf.len == 0)
		rc = perr_set(pe, EINVAL, "%s holds \"\", not a CPU mask",
		    procfs_path(rel));
	else if ((rc = cpumask_parse(set, pf.buf, &why)) != 0)
		perr_set(pe, -rc, "%s: %s", procfs_path(rel), why.msg);
	procfs_pfile_close(&pf);
	return rc;
}

/* The last name of the interface's device link: a PCI address, virtio2. */
char *
netqueue_ifdevice(const char *ifname)
{
	char rel[PATH_MAX], path[PATH_MAX], *slash;

	snprintf(rel, sizeof(rel), PATH_NET_DEVICE, ifname);
	if (procfs_realpath(rel, path, sizeof(path)) != 0)
		return NULL;
	slash = strrchr(path, '/');
	return xstrdup(slash ? slash + 1 : path);
}

/* Whether name can be an interface's (the kernel's dev_valid_name()). */
bool
netqueue_ifname_ok(const char *name)
{
	return *name != '\0' && strcmp(name, ".") != 0 &&
	    strcmp(name, "..") != 0 && strchr(name, '/') == NULL &&
	    strlen(name) <= NAME_MAX;
}

/*
 * An interface's queues and their CPUs, with no IRQ yet (netqueue_ifmatch()).
 * 0; -ENODEV when there is no such interface, -ENOENT when it has no
 * queues directory, in silence; another -errno after saying why, unless
 * SAY_NONE. A mask that cannot be read is the queue's err (read_mask()).
 */
static int
ifread(struct machine *m, const char *name, struct netif *nif, enum say say)
{
	char rel[PATH_MAX], **dirs;
	enum nqkind kind;
	unsigned int n;
	size_t ndirs, i;
	int rc;

	memset(nif, 0, sizeof(*nif));
	if (!netqueue_ifname_ok(name))
		return -ENODEV;
	snprintf(rel, sizeof(rel), PATH_NET_IF, name);
	if (!procfs_exists(rel))
		return -ENODEV;
	snprintf(rel, sizeof(rel), PATH_NET_QUEUES, name);
	if ((rc = procfs_dir(rel, true, &dirs, &ndirs)) != 0) {
		/* sys/class/net/bonding_masters is a file */
		if (rc == -ENOTDIR)
			return -ENODEV;
		if (rc != -ENOENT && say != SAY_NONE)
			warnc(-rc, "%s", procfs_path(rel));
		return rc;
	}
	nif->name = xstrdup(name);
	nif->device = netqueue_ifdevice(name);
	nif->q = xcalloc(ndirs, sizeof(*nif->q));
	for (i = 0; i < ndirs; i++)
		if (netqueue_parse(dirs[i], &kind, &n))
			nif->q[nif->nq++] = (struct netqueue){ kind, n, NULL, 0,
			    -1, NULL };
	procfs_dir_free(dirs, ndirs);
	if (nif->nq > 0)
		qsort(nif->q, nif->nq, sizeof(*nif->q), cmpqueue);
	for (i = 0; i < nif->nq; i++)
		read_mask(m, nif, &nif->q[i], say);
	return 0;
}

int
netqueue_ifread(struct machine *m, const char *name, struct netif *nif)
{
	return ifread(m, name, nif, SAY_ALL);
}

/* As netqueue_ifread(), saying nothing: for a note, not an answer. */
int
netqueue_ifread_quiet(struct machine *m, const char *name, struct netif *nif)
{
	return ifread(m, name, nif, SAY_NONE);
}

/*
 * As netqueue_ifread(), holding why a mask cannot be read until
 * netqueue_check() of that queue: a writer speaks of its queues only.
 */
int
netqueue_ifread_held(struct machine *m, const char *name, struct netif *nif)
{
	return ifread(m, name, nif, SAY_DIR);
}

/* The queue rx-N or tx-N, or NULL. */
struct netqueue *
netqueue_ifqueue(const struct netif *nif, enum nqkind kind, unsigned int n)
{
	struct netqueue key = { kind, n, NULL, 0, -1, NULL };

	if (nif->nq == 0)
		return NULL;
	return bsearch(&key, nif->q, nif->nq, sizeof(*nif->q), cmpqueue);
}

/* The IRQ serves the queue, unless an IRQ before it does already. */
static void
serve(struct netif *nif, enum nqkind kind, unsigned int n, unsigned int irq)
{
	struct netqueue *q;

	if ((q = netqueue_ifqueue(nif, kind, n)) != NULL && q->irq < 0)
		q->irq = irq;
}

/*
 * What each IRQ of an interface's device (as dev: finds them) serves, by
 * its action names (queuename_match()): an entry for each name that
 * names a queue, or one of QS_NONE for an IRQ whose names name none. In
 * IRQ order; *vp owned, NULL when there is none.
 */
void
netqueue_ifirqs(const char *ifname, const char *device, struct nqirq **vp,
    size_t *np)
{
	struct irqs irqs;
	struct qdev qd;
	struct nqirq *v = NULL;
	enum qserve r;
	unsigned int n;
	char ***names;
	size_t *counts, i, k, nv = 0, total = 0, first;

	*vp = NULL;
	*np = 0;
	if (select_device_irqs(ifname, &irqs, NULL) != 0 || irqs.n == 0) {
		select_free(&irqs);
		return;
	}
	names = xcalloc(irqs.n, sizeof(*names));
	counts = xcalloc(irqs.n, sizeof(*counts));
	queuename_init(&qd, ifname, device);
	for (i = 0; i < irqs.n; i++) {
		select_actions(irqs.v[i], &names[i], &counts[i]);
		total += counts[i] > 0 ? counts[i] : 1;
		for (k = 0; k < counts[i]; k++)
			queuename_note(&qd, names[i][k]);
	}
	v = xcalloc(total, sizeof(*v));
	for (i = 0; i < irqs.n; i++) {
		first = nv;
		for (k = 0; k < counts[i]; k++)
			if ((r = queuename_match(&qd, names[i][k], &n)) !=
			    QS_NONE)
				v[nv++] = (struct nqirq){ irqs.v[i], r, n };
		if (nv == first)
			v[nv++] = (struct nqirq){ irqs.v[i], QS_NONE, 0 };
		select_actions_free(names[i], counts[i]);
	}
	free(counts);
	free(names);
	*vp = v;
	*np = nv;
	select_free(&irqs);
}

/*
 * Each queue's IRQ: the first of netqueue_ifirqs() that serves it. Names say
 * nothing of a queue they give no number for: such a queue keeps irq -1.
 */
void
netqueue_ifmatch(struct netif *nif)
{
	struct nqirq *v;
	size_t n, i;

	netqueue_ifirqs(nif->name, nif->device, &v, &n);
	for (i = 0; i < n; i++) {
		if (v[i].serve == QS_COMBINED || v[i].serve == QS_RX)
			serve(nif, NQ_RX, v[i].n, v[i].irq);
		if (v[i].serve == QS_COMBINED || v[i].serve == QS_TX)
			serve(nif, NQ_TX, v[i].n, v[i].irq);
	}
	free(v);
}

void
netqueue_iffree(struct netif *nif)
{
	size_t i;

	for (i = 0; i < nif->nq; i++) {
		cpuset_free(nif->q[i].cpus);
		free(nif->q[i].why);
	}
	free(nif->q);
	free(nif->name);
	free(nif->device);
	memset(nif, 0, sizeof(*nif));
}

/*
 * The mask file of an interface's queue, rx-N's rps_cpus or tx-N's
 * xps_cpus, relative to the root, in rel: 0, or in silence -ENODEV when
 * there is no such interface, -ENOENT when it has no such queue, -ENXIO
 * when the queue has no such file.
 */
int
netqueue_find(const char *dev, enum nqkind kind, unsigned int n, char *rel,
    size_t size)
{
	struct netqueue q = { kind, n, NULL, 0, -1, NULL };
	struct netif nif = { .name = (char *)dev };
	char *slash;
	int rc;

	if (*dev == '\0' || strcmp(dev, ".") == 0 || strcmp(dev, "..") == 0 ||
	    strchr(dev, '/') != NULL || strlen(dev) > NAME_MAX)
		return -ENODEV;
	snprintf(rel, size, PATH_NET_IF, dev);
	if (!procfs_exists(rel))
		return -ENODEV;
	netqueue_path(&nif, &q, rel, size);
	if (procfs_exists(rel))
		return 0;
	slash = strrchr(rel, '/');
	*slash = '\0';
	rc = procfs_exists(rel) ? -ENXIO : -ENOENT;
	*slash = '/';
	return rc;
}

/*
 * Whether a queue's mask file can be written as it is: read as a mask
 * of the machine's width (netqueue_ifread() said why not, but for ENOENT;
 * netqueue_ifread_held() left it to here) and a regular file. 0, or
 * -errno after saying why, labelled "eth0 tx-3".
 */
int
netqueue_check(const struct netif *nif, const struct netqueue *q)
{
	char rel[PATH_MAX], name[32];
	struct pfile pf;
	int rc;

	netqueue_path(nif, q, rel, sizeof(rel));
	netqueue_name(q, name, sizeof(name));
	if (q->err == -ENOENT)
		warnx("%s %s: %s: %s", text_quoted(nif->name), name,
		    procfs_path(rel), strerror(ENOENT));
	if (q->why != NULL)
		warnx("%s", q->why);
	if (q->cpus == NULL)
		return q->err != 0 ? q->err : -EINVAL;
	if ((rc = procfs_pfile_open(&pf, rel, false)) != 0) {
		warnc(-rc, "%s %s: %s", text_quoted(nif->name), name,
		    procfs_path(rel));
		return rc;
	}
	if (!pf.regular) {
		warnx("%s %s: %s: not a regular file", text_quoted(nif->name),
		    name, procfs_path(rel));
		rc = -EPERM;
	}
	procfs_pfile_close(&pf);
	return rc;
}

/*
 * What the kernel keeps of a set written to a queue's mask file (owned):
 * its online CPUs in xps_cpus (__netif_set_xps_queue()), and in rps_cpus
 * those that are neither isolated nor nohz_full (store_rps_map():
 * housekeeping_cpumask(HK_TYPE_DOMAIN), and HK_TYPE_WQ that nohz_full=
 * sets).
 */
struct cpuset *
netqueue_kept(const struct machine *m, enum nqkind kind,
    const struct cpuset *want)
{
	struct cpuset *kept = xcpudup(want);

	cpuset_and(kept, m->online);
	if (kind == NQ_RX)
		cpuset_andnot(kept, m->isolated);
	return kept;
}

/* "only online CPUs in xps_cpus": what netqueue_kept() keeps, in words. */
const char *
netqueue_keeps(enum nqkind kind)
{
	return kind == NQ_TX ? "only online CPUs in xps_cpus" :
	    "only online CPUs that are neither isolated nor nohz_full in "
	    "rps_cpus";
}

/*
 * What each of irqs does for its interface's queues. On an interface
 * whose rx and tx queues have IRQs apart (virtio_net, e1000e, vmxnet3,
 * split vectors), rx-N's and tx-N's IRQs are one pair, as
 * virtnet_set_affinity() keeps them on one CPU, and its IRQs that serve
 * no queue (virtioN-config, a link or event vector) are control IRQs.
 * By index into irqs; owned.
 */
struct qrole *
netqueue_roles(const struct irqs *irqs)
{
	struct qrole *ro;
	struct nqirq *v;
	char **names, *dev;
	size_t nn, n, i, j, idx;
	bool split;

	ro = xcalloc(irqs->n + 1, sizeof(*ro));
	for (i = 0; i < irqs->n; i++)
		ro[i].pair = -1;
	if (procfs_dir(PATH_SYS_NET, false, &names, &nn) != 0)
		return ro;
	for (i = 0; i < nn; i++) {
		dev = netqueue_ifdevice(names[i]);
		netqueue_ifirqs(names[i], dev, &v, &n);
		free(dev);
		for (j = 0, split = false; j < n; j++)
			split |= v[j].serve == QS_RX || v[j].serve == QS_TX;
		for (j = 0; split && j < n; j++) {
			if (!select_find(irqs, v[j].irq, &idx) ||
			    ro[idx].pair >= 0 || ro[idx].control)
				continue;
			if (v[j].serve == QS_NONE)
				ro[idx].control = true;
			else if (v[j].serve != QS_COMBINED) {
				ro[idx].pair = (long)i * (QUEUENAME_MAX + 1) +
				    v[j].n;
				ro[idx].serve = v[j].serve;
			}
		}
		free(v);
	}
	if (nn > 0)
		procfs_dir_free(names, nn);
	return ro;
}
