/*
 * What every command that writes shares: its -n, -v and -J, and its
 * result: the line of -n and -v for each outcome core/apply.c records,
 * as it is recorded; the notes before and after them, the exit status
 * and the JSON object of -J (JSON RESULTS in irqaff(8)).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/result.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "core/xpsfollow.h"
#include "lib/text.h"

/*
 * The line of an outcome: with -n or -v "irq 24: 0-3 -> 4", "irq 24:
 * managed by the kernel, left alone", with -v also "irq 24: 4
 * unchanged"; "-" for an empty set. None with -J, and none for a
 * failure: standard error said it.
 */
static void
result_tell(const struct outcome *o, int how)
{
	const char *label = o->label, *old, *new;
	char buf[32];

	if ((how & APPLY_JSON) || o->result == APPLY_FAILED ||
	    !(how & (o->result == APPLY_UNCHANGED ? APPLY_VERBOSE :
	    APPLY_VERBOSE | APPLY_DRYRUN)))
		return;
	if (o->irq >= 0) {
		snprintf(buf, sizeof(buf), "irq %ld", o->irq);
		label = buf;
	} else if (o->irq == -1)
		label = "default";
	old = o->old != NULL && *o->old != '\0' ? o->old : "-";
	new = o->new != NULL && *o->new != '\0' ? o->new : "-";
	if (o->result == APPLY_CHANGED)
		printf("%s: %s -> %s\n", label, old, new);
	else if (o->result == APPLY_UNCHANGED)
		printf("%s: %s unchanged\n", label, old);
	else
		printf("%s: %s, left alone\n", label, machine_movable_words(
		    o->result == APPLY_MANAGED ? MOVABLE_MANAGED : MOVABLE_NO,
		    MV_PLAIN));
}

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
		break;
	case 'v':
		*flags |= APPLY_VERBOSE;
		break;
	case 'J':
		*flags |= APPLY_JSON;
		break;
	default:
		return -1;
	}
	return EXIT_OK;
}

/* An empty tally whose outcomes are said as flags (-n, -v, -J) ask. */
void
result_tally(struct tally *tl, int flags)
{
	memset(tl, 0, sizeof(*tl));
	tl->tell = result_tell;
	tl->how = flags;
}

/*
 * Without -v (or with -J, which prints no lines), one line for the IRQs
 * left to the kernel, one for others.
 */
static void
note(const struct tally *tl, int flags)
{
	if ((flags & APPLY_DRYRUN) ||
	    (flags & (APPLY_VERBOSE | APPLY_JSON)) == APPLY_VERBOSE)
		return;
	if (tl->managed > 0)
		warnx("note: %zu kernel-managed IRQ%s left to the kernel",
		    tl->managed, tl->managed == 1 ? "" : "s");
	if (tl->unmovable > 0)
		warnx("note: %zu IRQ%s that user space cannot move left "
		    "alone", tl->unmovable, tl->unmovable == 1 ? "" : "s");
}

/* The first write is next, unless this is a dry run. */
void
result_start(int flags)
{
	if (!(flags & APPLY_DRYRUN))
		cli_applying();
}

/*
 * After the writes: the notes of the IRQs left alone (note()), and
 * the exit status of the IRQs' and the queues' outcomes together; either
 * tally may be NULL.
 */
int
result_status(const struct tally *tl, const struct tally *tq, int flags)
{
	struct tally sum = { 0 };

	if (tl != NULL) {
		note(tl, flags);
		sum.changed = tl->changed;
		sum.failed = tl->failed;
	}
	if (tq != NULL) {
		sum.changed += tq->changed;
		sum.failed += tq->failed;
	}
	return cli_exit_applied(&sum, flags & APPLY_DRYRUN);
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
		result_tally_json(tl, flags);
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

/* SEP"KEY":"S", or null when S is not known. */
static void
member(const char *sep, const char *key, const char *s)
{
	printf("%s\"%s\":", sep, key);
	if (s == NULL)
		fputs("null", stdout);
	else
		text_json_string(stdout, s);
}

/* "errno" and "error" of a failure; an errno without a name is null. */
static void
member_error(const struct outcome *o)
{
	member(",", "errno", o->err != 0 ? text_errno_name(o->err) : NULL);
	member(",", "error", o->msg);
}

static int
cmpoutcome(const void *a, const void *b)
{
	const struct outcome *x = a, *y = b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

/* ,"KEY":[...]: the IRQs whose result is r, each with its name. */
static void
json_list(const struct tally *tl, enum apply_result r, const char *key)
{
	const struct outcome *o;
	const char *sep = "";
	char *name;
	size_t i;

	printf(",\"%s\":[", key);
	for (i = 0; i < tl->n; i++) {
		o = &tl->v[i];
		if (o->irq < 0 || o->result != r)
			continue;
		name = select_names(o->irq);
		printf("%s{\"irq\":%ld,\"name\":", sep, o->irq);
		text_json_string(stdout, name);
		free(name);
		if (r == APPLY_CHANGED)
			member(",", "old", o->old);
		if (r != APPLY_MANAGED && r != APPLY_UNMOVABLE)
			member(",", "new", o->new);
		if (r == APPLY_FAILED)
			member_error(o);
		putchar('}');
		sep = ",";
	}
	putchar(']');
}

/* "default" of the object: the default affinity's outcome. */
static void
json_default(const struct outcome *d)
{
	static const char *const results[] = {
		[APPLY_UNCHANGED] = "unchanged", [APPLY_CHANGED] = "changed",
		[APPLY_FAILED] = "failed", [APPLY_MANAGED] = "managed",
		[APPLY_UNMOVABLE] = "unmovable",
	};

	fputs(",\"default\":{", stdout);
	member("", "old", d->old);
	member(",", "new", d->new);
	printf(",\"result\":\"%s\"", results[d->result]);
	if (d->result == APPLY_FAILED)
		member_error(d);
	putchar('}');
}

/*
 * The members every command's JSON result has, without braces, the IRQs
 * in number order: "dry_run", "default" when the run had one, "changed",
 * "unchanged" (a count), "failed", "managed" and "unmovable", and
 * "vectors" when the layout was refused for want of interrupt vectors.
 */
void
result_tally_json(struct tally *tl, int flags)
{
	const struct outcome *d = NULL;
	size_t unchanged = tl->unchanged, i;

	if (tl->n > 0)
		qsort(tl->v, tl->n, sizeof(*tl->v), cmpoutcome);
	for (i = 0; i < tl->n && d == NULL; i++)
		if (tl->v[i].irq == -1)
			d = &tl->v[i];
	printf("\"dry_run\":%s", flags & APPLY_DRYRUN ? "true" : "false");
	if (d != NULL) {
		json_default(d);
		if (d->result == APPLY_UNCHANGED && unchanged > 0)
			unchanged--;
	}
	json_list(tl, APPLY_CHANGED, "changed");
	printf(",\"unchanged\":%zu", unchanged);
	json_list(tl, APPLY_FAILED, "failed");
	json_list(tl, APPLY_MANAGED, "managed");
	json_list(tl, APPLY_UNMOVABLE, "unmovable");
	if (tl->vec.cpus != NULL) {
		fputs(",\"vectors\":{", stdout);
		member("", "cpus", tl->vec.cpus);
		printf(",\"irqs\":%zu,\"free\":%ld,\"exact\":%s}",
		    tl->vec.irqs, tl->vec.free, tl->vec.exact ? "true" :
		    "false");
	}
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
				member(",", "old", o->old);
			member(",", "new", o->new);
			if (res[k] == APPLY_FAILED)
				member_error(o);
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
		apply_tally_add(tl, &(struct target){ lo->irq[i], NULL, NULL,
		    NULL, 0, NULL }, lo->why[i]);
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
