/*
 * Transmit queues whose XPS follows their IRQ (spread --xps, balance
 * --xps): the queues the planned IRQs serve, each mask file checked
 * before any write, set to its IRQ's new CPUs once the IRQ is there; and,
 * without --xps, the queues whose XPS a plan leaves apart from its IRQ.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/netqueue.h"
#include "core/xalloc.h"
#include "core/xpsfollow.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

/*
 * Whether an IRQ of the plan serves a tx queue of the interface, by its
 * IRQs' names alone: the queues of no other interface are read.
 */
static bool
serves_plan(const char *name, const struct change *c, size_t k)
{
	struct nqirq *v;
	char *dev = netqueue_ifdevice(name);
	size_t n, i, ci;
	bool yes = false;

	netqueue_ifirqs(name, dev, &v, &n);
	for (i = 0; !yes && i < n; i++)
		for (ci = 0; !yes && ci < k; ci++)
			yes = c[ci].irq == v[i].irq &&
			    (v[i].serve == QS_COMBINED || v[i].serve == QS_TX);
	free(v);
	free(dev);
	return yes;
}

/* A tx queue the plan's change ci serves: 0, or -EIO (said). */
typedef int	 found_fn(const struct netif *, const struct netqueue *,
		    size_t, void *);

/*
 * Each tx queue the planned IRQs serve (netqueue_ifmatch(), as queues
 * finds them) given to fn, in interface and queue order, read only on
 * their interfaces; a queue without xps_cpus (a device of one queue) is
 * left out. 0, or -EIO when an interface could not be read or fn failed;
 * quiet, an interface or a mask that cannot be read is not said.
 */
static int
each_queue(struct machine *m, const struct change *c, size_t k, bool quiet,
    found_fn *fn, void *arg)
{
	struct netif nif;
	struct netqueue *q;
	char **names;
	size_t nn, i, j, ci;
	int rc, status = 0;

	if (netqueue_ifnames(&names, &nn) != 0)
		return -EIO;
	for (i = 0; i < nn; i++) {
		if (!serves_plan(names[i], c, k))
			continue;
		rc = quiet ? netqueue_ifread_quiet(m, names[i], &nif) :
		    netqueue_ifread_held(m, names[i], &nif);
		if (rc != 0) {
			if (rc != -ENODEV && rc != -ENOENT)
				status = -EIO;
			continue;
		}
		netqueue_ifmatch(&nif);
		for (j = 0; j < nif.nq; j++) {
			q = &nif.q[j];
			if (q->kind != NQ_TX || q->irq < 0 || q->err == -ENOENT)
				continue;
			for (ci = 0; ci < k && (int)c[ci].irq != q->irq; ci++)
				;
			if (ci < k && fn(&nif, q, ci, arg) != 0)
				status = -EIO;
		}
		netqueue_iffree(&nif);
	}
	procfs_dir_free(names, nn);
	return status;
}

struct xqlist {
	struct xq	*v;
	size_t		 n;
};

/* A queue to follow its IRQ, once its mask file is checked. */
static int
add_queue(const struct netif *nif, const struct netqueue *q, size_t ci,
    void *arg)
{
	struct xqlist *l = arg;
	struct xq *x;
	char name[32], rel[PATH_MAX], *dev;

	if (netqueue_check(nif, q) != 0)
		return -EIO;
	l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
	x = &l->v[l->n++];
	memset(x, 0, sizeof(*x));
	netqueue_name(q, name, sizeof(name));
	netqueue_path(nif, q, rel, sizeof(rel));
	x->dev = xstrdup(nif->name);
	x->queue = xstrdup(name);
	dev = xescaped(nif->name);
	x->label = xasprintf("%s %s", dev, name);
	free(dev);
	x->rel = xstrdup(rel);
	x->ci = ci;
	x->old = xcpudup(q->cpus);
	return 0;
}

/*
 * The tx queues the planned IRQs serve (each_queue()). 0, or -EIO after
 * saying which mask file cannot be read or written as it is; cmd names
 * the command in the warning that no queue follows.
 */
int
xpsfollow_plan(struct machine *m, const char *cmd, const struct change *c,
    size_t k, struct xq **vp, size_t *np)
{
	struct xqlist l = { NULL, 0 };
	int status;

	status = each_queue(m, c, k, false, add_queue, &l);
	if (status == 0 && l.n == 0)
		warnx("%s: --xps: no transmit queue with XPS is served by "
		    "these IRQs", cmd);
	*vp = l.v;
	*np = l.n;
	return status;
}

struct stalelist {
	const struct change	*c;
	struct xpsstale		*v;
	size_t			 n;
};

/* A queue with XPS set (not empty) that is not its IRQ's new CPUs. */
static int
add_stale(const struct netif *nif, const struct netqueue *q, size_t ci,
    void *arg)
{
	struct stalelist *l = arg;

	if (q->cpus == NULL || cpuset_empty(q->cpus) ||
	    cpuset_equal(q->cpus, l->c[ci].want))
		return 0;
	if (l->n == 0 || strcmp(l->v[l->n - 1].dev, nif->name) != 0) {
		l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
		l->v[l->n++] = (struct xpsstale){ xstrdup(nif->name), 0 };
	}
	l->v[l->n - 1].n++;
	return 0;
}

/*
 * The interfaces whose tx queues the plan leaves behind without --xps:
 * XPS set and not their IRQ's new CPUs (an empty mask is XPS off), each
 * interface once with how many, in interface order. A file that cannot
 * be read leaves its queue out, in silence.
 */
void
xpsfollow_stale(struct machine *m, const struct change *c, size_t k,
    struct xpsstale **vp, size_t *np)
{
	struct stalelist l = { c, NULL, 0 };

	(void)each_queue(m, c, k, true, add_stale, &l);
	*vp = l.v;
	*np = l.n;
}

void
xpsfollow_stale_free(struct xpsstale *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].dev);
	free(v);
}

/*
 * The XPS of each queue whose IRQ is where the plan puts it (r[], each
 * change's result; a queue of an IRQ that failed is left alone), counted
 * in tq.
 */
void
xpsfollow_apply(struct machine *m, const struct change *c,
    const enum apply_result *r, struct xq *xq, size_t nx, int flags,
    struct tally *tq)
{
	size_t i;

	for (i = 0; i < nx; i++) {
		if (tq->stop || (r[xq[i].ci] != APPLY_CHANGED &&
		    r[xq[i].ci] != APPLY_UNCHANGED))
			continue;
		xq[i].tried = true;
		xq[i].r = apply_mask(m, xq[i].label, xq[i].rel,
		    c[xq[i].ci].want, flags, tq);
	}
}

/*
 * The IRQs of a plan, then the XPS of each queue whose IRQ is where the
 * plan puts it (a queue of an IRQ that failed is left alone, and every
 * queue once the IRQs had to stop). The queues are counted in tq.
 */
void
xpsfollow_write(struct machine *m, const struct change *c, size_t k,
    struct xq *xq, size_t nx, int flags, struct tally *tl, struct tally *tq)
{
	enum apply_result *r;
	size_t i;

	r = xcalloc(k + 1, sizeof(*r));
	for (i = 0; i < k; i++) {
		r[i] = APPLY_FAILED;
		if (tl->stop)
			apply_tally_skip(tl, c[i].irq, c[i].want);
		else
			r[i] = apply_irq(m, c[i].irq, c[i].want, flags, tl);
	}
	if (!tl->stop)
		xpsfollow_apply(m, c, r, xq, nx, flags, tq);
	free(r);
}

/* ,"xps":[{"dev":"eth0","queue":"tx-0","old":"0-3","new":"1",...}] */
void
xpsfollow_json(FILE *fp, const struct change *c, const struct xq *xq, size_t nx)
{
	static const char *const results[] = {
		[APPLY_UNCHANGED] = "unchanged", [APPLY_CHANGED] = "changed",
		[APPLY_FAILED] = "failed", [APPLY_MANAGED] = "managed",
		[APPLY_UNMOVABLE] = "unmovable",
	};
	const char *sep = "";
	char *old, *new;
	size_t i;

	fputs(",\"xps\":[", fp);
	for (i = 0; i < nx; i++) {
		if (!xq[i].tried)
			continue;
		old = xformat(xq[i].old, false);
		new = xformat(c[xq[i].ci].want, false);
		fprintf(fp, "%s{\"dev\":", sep);
		text_json_string(fp, xq[i].dev);
		fprintf(fp, ",\"queue\":\"%s\",\"old\":\"%s\",\"new\":\"%s\","
		    "\"result\":\"%s\"}", xq[i].queue, old, new,
		    results[xq[i].r]);
		sep = ",";
		free(old);
		free(new);
	}
	putc(']', fp);
}

void
xpsfollow_free(struct xq *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].dev);
		free(v[i].queue);
		free(v[i].label);
		free(v[i].rel);
		cpuset_free(v[i].old);
	}
	free(v);
}
