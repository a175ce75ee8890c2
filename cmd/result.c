/*
 * What every command that writes shares: its -n, -v and -J, and its
 * result. The lines of -n and -v are printed as each file is written
 * (core/apply.c); here are the notes before and after them, the exit
 * status and the JSON object of -J (JSON RESULTS in irqaff(8)).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/result.h"
#include "core/xalloc.h"
#include "core/xpsfollow.h"
#include "lib/text.h"

/*
 * -n, -v or -J into APPLY_ flags (-J then wins over -v: nothing but the
 * object is printed); -1 for another option.
 */
int
result_option(int ch, int *flags)
{
	switch (ch) {
	case 'n':
		*flags |= APPLY_DRYRUN;
		return EXIT_OK;
	case 'v':
		*flags |= APPLY_VERBOSE;
		return EXIT_OK;
	case 'J':
		*flags |= APPLY_JSON;
		return EXIT_OK;
	}
	return -1;
}

/* The first write is next, unless this is a dry run. */
void
result_start(int flags)
{
	if (!(flags & APPLY_DRYRUN))
		cli_applying();
}

/*
 * After the writes: the notes of the IRQs left alone (apply_note()), and
 * the exit status of the IRQs' and the queues' outcomes together; either
 * tally may be NULL.
 */
int
result_status(const struct tally *tl, const struct tally *tq, int flags)
{
	struct tally sum = { 0 };

	if (tl != NULL) {
		apply_note(tl, flags);
		sum.changed = tl->changed;
		sum.failed = tl->failed;
	}
	if (tq != NULL) {
		sum.changed += tq->changed;
		sum.failed += tq->failed;
	}
	return cli_exit_applied(&sum);
}

/*
 * With -J, the object on one line: the members of the IRQs' tally (only
 * "dry_run" when tl is NULL), then what members() prints, if given.
 */
void
result_json(struct tally *tl, int flags, void (*members)(void *), void *arg)
{
	if (!(flags & APPLY_JSON))
		return;
	putchar('{');
	if (tl != NULL)
		apply_tally_json(stdout, tl, flags);
	else
		printf("\"dry_run\":%s", flags & APPLY_DRYRUN ? "true" :
		    "false");
	if (members != NULL)
		members(arg);
	puts("}");
}

/* Both: the notes, the object, and the exit status. */
int
result_print(struct tally *tl, const struct tally *tq, int flags,
    void (*members)(void *), void *arg)
{
	int status = result_status(tl, tq, flags);

	result_json(tl, flags, members, arg);
	return status;
}

/* ,"KEY":"S", or null when S is not known. */
static void
member(const char *key, const char *s)
{
	printf(",\"%s\":", key);
	if (s == NULL)
		fputs("null", stdout);
	else
		text_json_string(stdout, s);
}

/*
 * The "queues" member: {"changed", "unchanged", "failed"} as the IRQs',
 * each queue as {"dev", "queue", ...}. tq holds one outcome per queue,
 * in the order of q.
 */
void
result_queues(const struct tally *tq, const struct qname *q, size_t n)
{
	static const char *const keys[] = { "changed", "failed" };
	const enum apply_result res[] = { APPLY_CHANGED, APPLY_FAILED };
	const struct outcome *o;
	const char *sep;
	size_t i, k;

	printf(",\"queues\":{");
	for (k = 0; k < 2; k++) {
		printf("%s\"%s\":[", k > 0 ? "," : "", keys[k]);
		sep = "";
		for (i = 0; i < tq->n && i < n; i++) {
			o = &tq->v[i];
			if (o->result != res[k])
				continue;
			printf("%s{\"dev\":", sep);
			text_json_string(stdout, q[i].dev);
			printf(",\"queue\":\"%s\"", q[i].queue);
			if (res[k] == APPLY_CHANGED)
				member("old", o->old);
			member("new", o->new);
			if (res[k] == APPLY_FAILED) {
				member("errno", o->err != 0 ?
				    text_errno_name(o->err) : NULL);
				member("error", o->msg);
			}
			putchar('}');
			sep = ",";
		}
		putchar(']');
		if (k == 0)
			printf(",\"unchanged\":%zu", tq->unchanged);
	}
	putchar('}');
}

/*
 * An IRQ a plan leaves out because user space cannot move it, by
 * machine_irq_movable()'s answer: managed by the kernel, or not movable.
 */
void
result_leftout_add(struct leftout *lo, unsigned int irq, bool managed)
{
	if (lo->n == lo->cap) {
		lo->cap = lo->cap ? 2 * lo->cap : 16;
		lo->irq = xreallocarray(lo->irq, lo->cap, sizeof(*lo->irq));
		lo->why = xreallocarray(lo->why, lo->cap, sizeof(*lo->why));
	}
	lo->irq[lo->n] = irq;
	lo->why[lo->n++] = managed ? APPLY_MANAGED : APPLY_UNMOVABLE;
	lo->managed += managed;
}

/* One note for each kind: "note: 2 kernel-managed IRQs left out ..." */
void
result_leftout_note(const struct leftout *lo)
{
	size_t other = lo->n - lo->managed;

	if (lo->managed > 0)
		warnx("note: %zu kernel-managed IRQ%s left out of the plan",
		    lo->managed, lo->managed == 1 ? "" : "s");
	if (other > 0)
		warnx("note: %zu IRQ%s that user space cannot move left out "
		    "of the plan", other, other == 1 ? "" : "s");
}

/* With -J, each in the result's "managed" or "unmovable". */
void
result_leftout_tally(const struct leftout *lo, struct tally *tl, int flags)
{
	size_t i;

	for (i = 0; (flags & APPLY_JSON) && i < lo->n; i++)
		apply_tally_add(tl, flags, lo->irq[i], lo->why[i], NULL, NULL,
		    0, NULL);
}

void
result_leftout_free(struct leftout *lo)
{
	free(lo->irq);
	free(lo->why);
	memset(lo, 0, sizeof(*lo));
}

/*
 * Without --xps (spread, balance): "note: eth0: the XPS of 4 tx queues is
 * left where it is, not on their IRQs' new CPUs; add --xps to move it
 * too", once per interface xpsfollow_stale() finds for the plan c.
 */
void
result_xps_stale_note(struct machine *m, const struct change *c, size_t k)
{
	struct xpsstale *v;
	size_t n, i;
	char *dev;

	xpsfollow_stale(m, c, k, &v, &n);
	for (i = 0; i < n; i++) {
		dev = xescaped(v[i].dev);
		warnx("note: %s: the XPS of %zu tx queue%s is left where it "
		    "is, not on %s new CPU%s; add --xps to move it too", dev,
		    v[i].n, v[i].n == 1 ? "" : "s",
		    v[i].n == 1 ? "its IRQ's" : "their IRQs'",
		    v[i].n == 1 ? "" : "s");
		free(dev);
	}
	xpsfollow_stale_free(v, n);
}
