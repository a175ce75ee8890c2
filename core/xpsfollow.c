/*
 * Transmit queues whose XPS follows their IRQ (spread --xps, balance
 * --xps): the queues the planned IRQs serve, each mask file checked
 * before any write, set to its IRQ's new CPUs once the IRQ is there.
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

/*
 * The tx queues the planned IRQs serve (netqueue_ifmatch(), as queues finds
 * them), in interface and queue order, read only on their interfaces; a queue without xps_cpus (a device
 * of one queue) is left out. 0, or -EIO after saying which mask file
 * cannot be read or written as it is; cmd names the command in the
 * warning that no queue follows.
 */
int
xpsfollow_plan(struct machine *m, const char *cmd, const struct change *c,
    size_t k, struct xq **vp, size_t *np)
{
	struct netif nif;
	struct netqueue *q;
	struct xq *v = NULL, *x;
	char **names, *dev, name[32], rel[PATH_MAX];
	size_t nn, n = 0, i, j, ci;
	int rc, status = 0;

	*vp = NULL;
	*np = 0;
	if (netqueue_ifnames(&names, &nn) != 0)
		return -EIO;
	for (i = 0; i < nn; i++) {
		if (!serves_plan(names[i], c, k))
			continue;
		if ((rc = netqueue_ifread(m, names[i], &nif)) != 0) {
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
			if (ci == k)
				continue;
			if (netqueue_check(&nif, q) != 0) {
				status = -EIO;
				continue;
			}
			v = xreallocarray(v, n + 1, sizeof(*v));
			x = &v[n++];
			memset(x, 0, sizeof(*x));
			netqueue_name(q, name, sizeof(name));
			netqueue_path(&nif, q, rel, sizeof(rel));
			x->dev = xstrdup(nif.name);
			x->queue = xstrdup(name);
			dev = xescaped(nif.name);
			x->label = xasprintf("%s %s", dev, name);
			free(dev);
			x->rel = xstrdup(rel);
			x->ci = ci;
			x->old = xcpudup(q->cpus);
		}
		netqueue_iffree(&nif);
	}
	procfs_dir_free(names, nn);
	if (status == 0 && n == 0)
		warnx("%s: --xps: no transmit queue with XPS is served by "
		    "these IRQs", cmd);
	*vp = v;
	*np = n;
	return status;
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
			apply_tally_skip(tl, flags, c[i].irq, c[i].want);
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
