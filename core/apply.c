/*
 * Applying affinity: each file is read, left alone when it already holds
 * the set, else written and read back; a refusal is explained in the
 * kernel's terms. Each outcome is recorded in a tally, which tells its
 * caller; failures are said on standard error, one line each.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/apply.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/vectors.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

#define LIST_MAX	4095	/* longer lists go to smp_affinity as a mask */

static void	record(struct tally *, const struct target *,
		    enum apply_result);

/*
 * What a failed write means (kernel/irq/proc.c, irq_set_affinity()); irq
 * is false for the default affinity, which no driver manages.
 */
static const char *
explain(int e, long irq)
{
	switch (e) {
	case EIO:
	case EPERM:
		if (irq < 0)
			return NULL;
		/* irq_can_set_affinity_usr(): managed, per-CPU or no-balancing */
		return machine_movable_words(machine_irq_movable(irq), MV_WHY);
	case EINVAL:
		return "the kernel refused the CPU set";
	case ERANGE:
	case EOVERFLOW:
		return "a CPU is beyond the possible ones";
	case ENOSPC:
		return "no free interrupt vectors on the target CPUs";
	case EBUSY:
		return "a previous move of this IRQ is still pending";
	case EACCES:
	case EROFS:
		return "permission denied; irqaff must run as root";
	}
	return NULL;
}

static int
parse_as(struct cpuset *set, const char *text, bool mask)
{
	return mask ? cpumask_parse(set, text, NULL) :
	    cpulist_parse(set, text, NULL);
}

/* One affinity file: where it is, what it holds, and how to say it. */
struct afile {
	const char		*label;		/* "irq 24", "default" */
	bool			 irq;		/* an IRQ's, not the default */
	long			 num;		/* the IRQ's number, or < 0 */
	bool			 queue;		/* no IRQ's: a queue's mask */
	const char		*rel;
	bool			 mask;		/* holds a mask, not a list */
	struct pfile		 pf;
	struct cpuset		*cur;
	const struct cpuset	*want;
	char			*text;		/* want as a list */
	int			 err;		/* why it failed: an errno, */
	char			*msg;		/* and the sentence */
};

/*
 * A failure: one line on standard error, "LABEL: SENTENCE", and the
 * sentence, returned, for the JSON result.
 */
static char *
complain(const char *label, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	warnx("%s: %s", label, msg);
	return msg;
}

/*
 * Opens the list file, or the mask file when there is no list file or
 * the list would be too long for the kernel's page-sized buffer.
 */
static int
target_open(struct afile *t, const char *listrel, const char *maskrel,
    int flags)
{
	bool writable = !(flags & APPLY_DRYRUN);
	int rc;

	t->mask = listrel == NULL || strlen(t->text) > LIST_MAX;
	t->rel = t->mask ? maskrel : listrel;
	rc = procfs_pfile_open(&t->pf, t->rel, writable);
	if (rc == -ENOENT && !t->mask) {
		t->mask = true;
		t->rel = maskrel;
		rc = procfs_pfile_open(&t->pf, t->rel, writable);
		/* neither file: name the one a list is written to */
		if (rc == -ENOENT) {
			t->mask = false;
			t->rel = listrel;
		}
	}
	if (rc != 0) {
		t->err = -rc;
		t->msg = complain(t->label, "%s: %s", procfs_path(t->rel),
		    strerror(-rc));
	} else if (!t->pf.regular) {
		t->msg = complain(t->label, "%s: not a regular file; left "
		    "alone", procfs_path(t->rel));
		rc = -EPERM;
	}
	return rc;
}

/*
 * Writes the set and reads it back. A file that could only be opened for
 * reading means no file can be written (not root, a read-only tree):
 * one line says so, and the run stops.
 */
static enum apply_result
target_write(struct afile *t, int flags, struct tally *tl)
{
	const char *why;
	char *value, *line;
	int rc;

	if (t->pf.werr != 0) {
		t->err = t->pf.werr;
		t->msg = complain(t->label, "cannot write %s: %s; %s",
		    procfs_path(t->rel), strerror(t->pf.werr),
		    t->pf.werr == EROFS ? "no IRQ can be changed" :
		    "changing affinity needs root");
		tl->stop = true;
		tl->stop_err = t->err;
		free(tl->stop_msg);
		tl->stop_msg = xstrdup(t->msg);
		return APPLY_FAILED;
	}
	value = t->mask ? xformat(t->want, true) : t->text;
	line = xasprintf("%s\n", value);
	if (value != t->text)
		free(value);
	rc = procfs_pfile_write(&t->pf, line);
	free(line);
	/*
	 * the kernel's refusal, EIO (EPERM since 6.12): managed, per-CPU or
	 * no-balancing, irq_can_set_affinity_usr() does not say which
	 */
	if ((rc == -EIO || rc == -EPERM) && !(flags & APPLY_NAMED))
		return t->num >= 0 &&
		    machine_irq_movable(t->num) == MOVABLE_MANAGED ?
		    APPLY_MANAGED : APPLY_UNMOVABLE;
	if (rc != 0) {
		t->err = -rc;
		/*
		 * A queue's errors are net-sysfs.c's (xps_cpus_store(),
		 * store_rps_map()): no vectors, no pending move there.
		 */
		why = t->queue && rc != -EINVAL && rc != -EACCES &&
		    rc != -EROFS ? NULL : explain(-rc, t->num);
		if (why != NULL)
			t->msg = complain(t->label, "cannot set %s: %s (%s)",
			    t->text, why, strerror(-rc));
		else
			t->msg = complain(t->label, "cannot set %s: %s: %s",
			    t->text, procfs_path(t->rel), strerror(-rc));
		return APPLY_FAILED;
	}
	if (parse_as(t->cur, t->pf.buf, t->mask) != 0 ||
	    !cpuset_equal(t->cur, t->want)) {
		t->pf.buf[strcspn(t->pf.buf, "\n")] = '\0';
		t->msg = complain(t->label, "wrote %s, but %s reads back "
		    "\"%s\"", t->text, procfs_path(t->rel),
		    text_quoted(t->pf.buf));
		return APPLY_FAILED;
	}
	return APPLY_CHANGED;
}

/* What writing t would do; nothing is written. */
static enum apply_result
dry_run(struct afile *t, long irq, int flags)
{
	enum movable mv;

	if (irq >= 0 && (mv = machine_irq_movable(irq)) >= MOVABLE_MANAGED) {
		/* the kernel's answer to a probe: what the write would get */
		if (flags & APPLY_NAMED) {
			t->msg = complain(t->label, "cannot set %s: %s (refused "
			    "by the kernel)", t->text, explain(EIO, irq));
			return APPLY_FAILED;
		}
		return mv == MOVABLE_MANAGED ? APPLY_MANAGED : APPLY_UNMOVABLE;
	}
	return APPLY_CHANGED;
}

/*
 * listrel may be NULL: a file that takes masks only. irq -1 is the
 * default affinity, APPLY_NOIRQ a file that is no IRQ's.
 */
static enum apply_result
apply_file(struct machine *m, const char *label, long irq,
    const char *listrel, const char *maskrel, const struct cpuset *want,
    int flags, struct tally *tl)
{
	struct afile t = { .irq = irq >= 0, .num = irq,
	    .queue = irq == APPLY_NOIRQ, .want = want };
	enum apply_result r = APPLY_FAILED;
	struct cpuset *old = NULL;

	t.label = label;
	t.text = xformat(want, false);
	t.cur = xcpuset(m->nbits);
	if (target_open(&t, listrel, maskrel, flags) != 0)
		goto out;
	/*
	 * Never write what does not hold what it should; the kernel's files
	 * always hold at least a newline.
	 */
	if (t.pf.len == 0 || parse_as(t.cur, t.pf.buf, t.mask) != 0) {
		t.pf.buf[strcspn(t.pf.buf, "\n")] = '\0';
		t.msg = complain(label, "%s holds \"%s\", not a CPU %s; left "
		    "alone", procfs_path(t.rel), text_quoted(t.pf.buf),
		    t.mask ? "mask" : "list");
		goto close;
	}
	old = xcpudup(t.cur);
	if (cpuset_equal(t.cur, want))
		r = APPLY_UNCHANGED;
	else if (flags & APPLY_DRYRUN)
		r = dry_run(&t, irq, flags);
	else
		r = target_write(&t, flags, tl);
close:
	procfs_pfile_close(&t.pf);
out:
	record(tl, &(struct target){ irq, label, old, want, t.err,
	    t.msg }, r);
	free(t.text);
	free(t.msg);
	cpuset_free(t.cur);
	cpuset_free(old);
	return r;
}

enum apply_result
apply_irq(struct machine *m, unsigned int irq, const struct cpuset *want,
    int flags, struct tally *tl)
{
	char label[32], list[64], mask[64], *text, *msg;
	int state = machine_irq_state(irq);
	bool managed = state & IRQ_MANAGED;

	/* debugfs says user space cannot move it: no write */
	if (state & (IRQ_MANAGED | IRQ_NOMOVE)) {
		if (flags & APPLY_NAMED) {
			snprintf(label, sizeof(label), "irq %u", irq);
			text = xformat(want, false);
			msg = complain(label, "cannot set %s: %s (debugfs)", text,
			    machine_movable_words(managed ? MOVABLE_MANAGED :
			    MOVABLE_NO, MV_WHY));
			record(tl, &(struct target){ irq, NULL, NULL,
			    want, 0, msg }, APPLY_FAILED);
			free(msg);
			free(text);
			return APPLY_FAILED;
		}
		record(tl, &(struct target){ irq, NULL, NULL, NULL, 0,
		    NULL }, managed ? APPLY_MANAGED : APPLY_UNMOVABLE);
		return managed ? APPLY_MANAGED : APPLY_UNMOVABLE;
	}
	snprintf(label, sizeof(label), "irq %u", irq);
	snprintf(list, sizeof(list), PATH_PROC_IRQ_FILE, irq,
	    "smp_affinity_list");
	snprintf(mask, sizeof(mask), PATH_PROC_IRQ_FILE, irq, "smp_affinity");
	return apply_file(m, label, irq, list, mask, want, flags, tl);
}

/*
 * default_smp_affinity takes masks only (kernel/irq/proc.c). It is no
 * IRQ's, so EIO and EPERM are failures, not the kernel's management.
 */
enum apply_result
apply_default(struct machine *m, const struct cpuset *want, int flags,
    struct tally *tl)
{
	return apply_file(m, "default", -1, NULL, PATH_DEFAULT_AFFINITY, want,
	    flags | APPLY_NAMED, tl);
}

/*
 * A mask file that is no IRQ's, such as a queue's xps_cpus (rel, under
 * the root), labelled as its messages say; recorded as APPLY_NOIRQ.
 */
enum apply_result
apply_mask(struct machine *m, const char *label, const char *rel,
    const struct cpuset *want, int flags, struct tally *tl)
{
	return apply_file(m, label, APPLY_NOIRQ, NULL, rel, want,
	    flags | APPLY_NAMED, tl);
}

/* Applies every change, until one shows that none can be made. */
void
apply_all(struct machine *m, const struct change *c, size_t n, int flags,
    struct tally *tl)
{
	size_t i;

	for (i = 0; i < n && !tl->stop; i++)
		apply_irq(m, c[i].irq, c[i].want,
		    flags | (c[i].named ? APPLY_NAMED : 0), tl);
	for (; i < n; i++)
		apply_tally_skip(tl, c[i].irq, c[i].want);
}

/* A new outcome at the end of tl->v. */
static struct outcome *
outcome_next(struct tally *tl)
{
	if (tl->n == tl->cap) {
		tl->cap = tl->cap ? 2 * tl->cap : 16;
		tl->v = xreallocarray(tl->v, tl->cap, sizeof(*tl->v));
	}
	return &tl->v[tl->n++];
}

/*
 * Counts and records an outcome, and tells the tally's tell of it. An
 * IRQ's old and new sets are
 * kept only when they are part of its result: the old of a change, the
 * new of one the kernel did not refuse; a failure keeps its reason.
 */
static void
record(struct tally *tl, const struct target *t, enum apply_result r)
{
	struct outcome *o;
	bool any = t->irq < 0;

	if (r == APPLY_CHANGED)
		tl->changed++;
	else if (r == APPLY_UNCHANGED)
		tl->unchanged++;
	else if (r == APPLY_MANAGED)
		tl->managed++;
	else if (r == APPLY_UNMOVABLE)
		tl->unmovable++;
	else
		tl->failed++;
	o = outcome_next(tl);
	o->irq = t->irq;
	o->label = t->irq == APPLY_NOIRQ && t->label != NULL ?
	    xstrdup(t->label) : NULL;
	o->result = r;
	o->old = t->old != NULL && (any || r == APPLY_CHANGED ||
	    r == APPLY_UNCHANGED) ? xformat(t->old, false) : NULL;
	o->new = t->want != NULL && (any || (r != APPLY_MANAGED &&
	    r != APPLY_UNMOVABLE)) ? xformat(t->want, false) : NULL;
	o->err = r == APPLY_FAILED ? t->err : 0;
	o->msg = r == APPLY_FAILED && t->msg != NULL ? xstrdup(t->msg) : NULL;
	if (tl->tell != NULL)
		tl->tell(o, tl->how);
}

/* An outcome a caller found itself, recorded as apply_irq()'s are. */
void
apply_tally_add(struct tally *tl, const struct target *t, enum apply_result r)
{
	record(tl, t, r);
}

/*
 * What the checks before the first write found: pre's failures move to
 * tl, as if they had been tried, and pre is emptied.
 */
static void
refused(struct tally *tl, struct tally *pre)
{
	size_t i;

	for (i = 0; i < pre->n; i++) {
		if (pre->v[i].result != APPLY_FAILED)
			continue;
		*outcome_next(tl) = pre->v[i];
		pre->v[i].old = pre->v[i].new = pre->v[i].msg = NULL;
		pre->v[i].label = NULL;
	}
	tl->failed += pre->failed;
	if (pre->vec.cpus != NULL) {
		free(tl->vec.cpus);
		tl->vec = pre->vec;
		pre->vec.cpus = NULL;
	}
	apply_tally_free(pre);
}

/*
 * The check every writer makes before its first write, -n and -J alike:
 * when the layout c does not fit (vectors_fit()), one line says so, each
 * IRQ short of a vector is failed in tl with ENOSPC, and false is
 * returned: nothing may be written.
 */
bool
apply_vectors(struct machine *m, const struct change *c, size_t n,
    struct tally *tl)
{
	struct vectors v;
	bool *bad, ok = true;
	char *msg;
	size_t i;

	vectors_load(&v, m);
	if (!v.limited)
		return true;
	bad = xcalloc(n + 1, sizeof(*bad));
	if (vectors_fit(&v, m, c, n, bad, tl) > 0) {
		ok = false;
		msg = xasprintf("CPU %s: %zu IRQ%s need%s an interrupt vector "
		    "there, %ld free (%s)", tl->vec.cpus, tl->vec.irqs,
		    tl->vec.irqs == 1 ? "" : "s", tl->vec.irqs == 1 ? "s" : "",
		    tl->vec.free, v.exact ? "irq debugfs" : "estimated");
		warnx("%s: nothing written; give more CPUs, or fewer queues "
		    "with ethtool -L", msg);
		for (i = 0; i < n; i++)
			if (bad[i])
				record(tl, &(struct target){ c[i].irq,
				    NULL, NULL, c[i].want, ENOSPC, msg },
				    APPLY_FAILED);
		free(msg);
	}
	free(bad);
	vectors_free(&v);
	return ok;
}

/*
 * Everything a plan writes, checked as a dry run would before the first
 * write: each IRQ's file read, holding a CPU list, and the IRQ movable
 * (one user space cannot move is refused, as if named), each queue's
 * mask file read. Each refusal is said; the IRQs' go to tl, the queues'
 * to tq, one outcome a queue in the order of q (the others unchanged,
 * not counted). When none is, the IRQs' layout must fit in the CPUs'
 * interrupt vectors (apply_vectors()). Returns how many were refused;
 * nothing is written.
 */
size_t
apply_check(struct machine *m, const struct change *c, size_t n,
    const struct qchange *q, size_t nq, struct tally *tl, struct tally *tq)
{
	int flags = APPLY_DRYRUN | APPLY_NAMED;
	struct tally pre = { 0 }, preq = { 0 };
	size_t i, nref;

	for (i = 0; i < n; i++)
		apply_irq(m, c[i].irq, c[i].want, flags, &pre);
	for (i = 0; i < nq; i++)
		apply_mask(m, q[i].label, q[i].rel, q[i].want, flags, &preq);
	if (pre.failed + preq.failed == 0)
		apply_vectors(m, c, n, &pre);
	nref = pre.failed + preq.failed;
	refused(tl, &pre);
	for (i = 0; i < preq.n; i++)
		if (preq.v[i].result != APPLY_FAILED)
			preq.v[i].result = APPLY_UNCHANGED;
	for (i = 0; i < preq.n; i++)
		*outcome_next(tq) = preq.v[i];
	tq->failed += preq.failed;
	free(preq.v);
	free(preq.stop_msg);
	return nref;
}

/* An IRQ never tried, since tl->stop: it failed as the last one did. */
void
apply_tally_skip(struct tally *tl, long irq, const struct cpuset *want)
{
	record(tl, &(struct target){ irq, NULL, NULL, want, tl->stop_err,
	    tl->stop_msg }, APPLY_FAILED);
}

void
apply_tally_free(struct tally *tl)
{
	size_t i;

	for (i = 0; i < tl->n; i++) {
		free(tl->v[i].label);
		free(tl->v[i].old);
		free(tl->v[i].new);
		free(tl->v[i].msg);
	}
	free(tl->v);
	free(tl->stop_msg);
	free(tl->vec.cpus);
	/* the counts and the tell stay */
	tl->vec.cpus = NULL;
	tl->v = NULL;
	tl->stop_msg = NULL;
	tl->n = tl->cap = 0;
}
