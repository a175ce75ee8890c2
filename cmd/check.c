/*
 * check: compare the machine with a snapshot, print each difference,
 * and exit 0 when there is none, 1 when there is one. Writes nothing;
 * the file is read and resolved as restore reads it (restore.c).
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/restore.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/snapshot.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static int check_main(int, char *[]);

const struct command check_command = {
	.name = "check",
	.main = check_main,
	.summary = "compare the machine with a snapshot",
	.synopsis = "[-qJ] [--by-number] [--only irqs] file",
	.options =
	    "  -q, --quiet      print no differences: the exit status is the "
	    "answer\n"
	    "  -J, --json       print the differences as JSON\n"
	    "      --by-number  match IRQs by number, not by name\n"
	    "      --only IRQS  compare these IRQs only, not the default\n",
};

static const struct option check_opts[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "json", no_argument, NULL, 'J' },
	{ "by-number", no_argument, NULL, OPT_BY_NUMBER },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* check's report: lines on stdout, or with -J the members of one object. */
struct report {
	bool	 json;
	bool	 quiet;			/* -q without -J: nothing on stdout */
	FILE	*diffs, *failed;	/* -J: the elements of each array */
	char	*dtext, *ftext;
	size_t	 dlen, flen, matching;
	char	*dflt;			/* -J: the default's member */
	FILE	*qdiffs, *qfailed;	/* -J: the queues' */
	char	*qdtext, *qftext;
	size_t	 qdlen, qflen, qmatching;
};

static void
report_open(struct report *rp)
{
	if (!rp->json)
		return;
	rp->diffs = xmemstream(&rp->dtext, &rp->dlen);
	rp->failed = xmemstream(&rp->ftext, &rp->flen);
	rp->qdiffs = xmemstream(&rp->qdtext, &rp->qdlen);
	rp->qfailed = xmemstream(&rp->qftext, &rp->qflen);
}

/* An IRQ's number and name as JSON members, after sep. */
static void
json_irq(FILE *fp, const char *sep, unsigned int irq, const char *names)
{
	fprintf(fp, "%s{\"irq\":%u,\"name\":", sep, irq);
	text_json_string(fp, names);
}

/* A file that could not be read: a warning, and with -J an element. */
static void
report_failed(struct report *rp, unsigned int irq, const char *names,
    const struct perr *pe)
{
	const char *e;

	warnx("%s", pe->msg);
	if (!rp->json)
		return;
	json_irq(rp->failed, ftell(rp->failed) > 0 ? "," : "", irq, names);
	e = text_errno_name(perr_errno(pe));
	fprintf(rp->failed, e != NULL ? ",\"errno\":\"%s\"" : ",\"errno\":null",
	    e);
	fputs(",\"error\":", rp->failed);
	text_json_string(rp->failed, pe->msg);
	putc('}', rp->failed);
}

/*
 * Reports a difference; returns whether there is one. A kernel-managed
 * IRQ's is reported apart: it is not drift anyone can mend. irq < 0 is
 * the default affinity.
 */
static bool
differs(struct report *rp, long irq, const char *names,
    const struct cpuset *cur, const struct cpuset *want, enum movable mv)
{
	bool managed = mv == MOVABLE_MANAGED, fixed = mv >= MOVABLE_MANAGED;
	char *a, *b;

	if (cpuset_equal(cur, want)) {
		rp->matching += irq >= 0;
		return false;
	}
	a = xformat(cur, false);
	b = xformat(want, false);
	if (rp->json && irq < 0)
		rp->dflt = xasprintf(",\"default\":{\"current\":\"%s\","
		    "\"want\":\"%s\"}", a, b);
	else if (rp->json) {
		json_irq(rp->diffs, ftell(rp->diffs) > 0 ? "," : "", irq,
		    names);
		fprintf(rp->diffs, ",\"current\":\"%s\",\"want\":\"%s\","
		    "\"managed\":%s,\"unmovable\":%s}", a, b, managed ?
		    "true" : "false", fixed ? "true" : "false");
	} else if (rp->quiet)
		;
	else if (irq < 0)
		printf("default: %s (want %s)\n", a, b);
	else
		printf("irq %ld%s%s: %s (want %s%s)\n", irq,
		    *names != '\0' ? " " : "", names, a, b,
		    managed ? "; managed by the kernel, not drift" : fixed ?
		    "; cannot be moved by user space, not drift" : "");
	free(a);
	free(b);
	return true;
}

/* Compares one IRQ; returns 1 for a difference or a failure to read. */
static size_t
check_irq(struct run *r, struct report *rp, size_t i, struct cpuset *cur)
{
	const struct mirq *q = &r->mi.v[i];
	unsigned int irq = r->mi.nums.v[i];
	struct perr pe;
	char *names;
	enum movable mv = MOVABLE_UNKNOWN;
	bool diff;

	names = snapshot_names_text(q->names, q->nnames, false);
	if (machine_affinity_read(irq, AFF_REQUESTED, cur, &pe) != 0) {
		report_failed(rp, irq, names, &pe);
		free(names);
		return 1;
	}
	/* asked only of a difference: the probe is a write */
	if (!cpuset_equal(cur, q->by->want))
		mv = machine_irq_movable(irq);
	diff = differs(rp, irq, names, cur, q->by->want, mv) &&
	    mv < MOVABLE_MANAGED;
	free(names);
	return diff;
}

/* A queue's "dev" and "queue" members, after sep. */
static void
json_queue(FILE *fp, const struct entry *e)
{
	bool tx = e->sl.kind == SNAP_XPS;

	fprintf(fp, "%s{\"dev\":", ftell(fp) > 0 ? "," : "");
	text_json_string(fp, e->sl.dev);
	fprintf(fp, ",\"queue\":\"%s-%u\"", tx ? "tx" : "rx", e->sl.queue);
}

/*
 * A queue's difference as check prints it: the CPUs found, and those the
 * line wants, with the CPUs of them the kernel would not keep and why.
 */
static void
print_queue_diff(const struct run *r, const char *label, const char *a,
    const struct entry *e, const struct cpuset *kept)
{
	struct cpuset *off = xcpudup(e->want), *iso;
	char *w, *o, *i, *k;

	cpuset_andnot(off, kept);
	iso = xcpudup(off);
	cpuset_and(iso, r->m.online);
	cpuset_andnot(off, r->m.online);
	w = xformat(e->want, false);
	k = xformat(kept, false);
	o = xformat(off, false);
	i = xformat(iso, false);
	if (*o == '\0' && *i == '\0')
		printf("%s: %s (want %s)\n", label, *a ? a : "none",
		    *k ? k : "none");
	else
		printf("%s: %s (want %s, but CPU %s%s%s%s%s: %s kept)\n",
		    label, *a ? a : "none", w, o, *o ? " offline" : "",
		    *o && *i ? ", " : "", i, *i ? " isolated or nohz_full" :
		    "", *k ? k : "none");
	free(i);
	free(o);
	free(k);
	free(w);
	cpuset_free(iso);
	cpuset_free(off);
}

/*
 * Compares one queue's mask with what the kernel keeps of the line's set
 * (a line naming an offline CPU is no difference); returns 1 for a
 * difference or a failure to read. The empty set is "none", as in the
 * snapshot.
 */
static size_t
check_queue(struct run *r, struct report *rp, const struct snapq *q)
{
	struct cpuset *cur = xcpuset(r->m.nbits), *kept = restore_queue_kept(r, q->e);
	char label[128], msg[1024], *a, *b;
	struct perr pe;
	size_t diff = 1;
	int rc;

	snapshot_queue_label(q->e, label, sizeof(label));
	if ((rc = netqueue_read_mask(q->rel, cur, &pe)) != 0)
		snprintf(msg, sizeof(msg), "%s: %s", label, pe.msg);
	if (rc != 0) {
		warnx("%s", msg);
		if (rp->json) {
			json_queue(rp->qfailed, q->e);
			fprintf(rp->qfailed, text_errno_name(-rc) != NULL ?
			    ",\"errno\":\"%s\"" : ",\"errno\":null",
			    text_errno_name(-rc));
			fputs(",\"error\":", rp->qfailed);
			text_json_string(rp->qfailed, msg);
			putc('}', rp->qfailed);
		}
	} else if (cpuset_equal(cur, kept)) {
		rp->qmatching++;
		diff = 0;
	} else {
		a = xformat(cur, false);
		b = xformat(kept, false);
		if (rp->json) {
			json_queue(rp->qdiffs, q->e);
			fprintf(rp->qdiffs, ",\"current\":\"%s\",\"want\":"
			    "\"%s\"}", a, b);
		} else if (!rp->quiet)
			print_queue_diff(r, label, a, q->e, kept);
		free(a);
		free(b);
	}
	cpuset_free(kept);
	cpuset_free(cur);
	return diff;
}

/* -J: the object, then the report's memory. */
static void
report_close(struct report *rp, const struct snap *s)
{
	if (!rp->json)
		return;
	xmemclose(rp->diffs);
	xmemclose(rp->failed);
	xmemclose(rp->qdiffs);
	xmemclose(rp->qfailed);
	printf("{\"differences\":[%s]%s,\"matching\":%zu,\"failed\":[%s]",
	    rp->dtext, rp->dflt != NULL ? rp->dflt : "", rp->matching,
	    rp->ftext);
	if (restore_has_queues(s))
		printf(",\"queues\":{\"differences\":[%s],\"matching\":%zu,"
		    "\"failed\":[%s]}", rp->qdtext, rp->qmatching,
		    rp->qftext);
	restore_problems_json(s);
	puts("}");
	free(rp->dtext);
	free(rp->ftext);
	free(rp->qdtext);
	free(rp->qftext);
	free(rp->dflt);
}

/* 0 when the machine matches, 1 when it differs, 2 for a bad file. */
static int
check_main(int argc, char *argv[])
{
	struct report rp = { .json = false };
	struct run r;
	struct cpuset *cur;
	struct perr pe;
	size_t i, diffs;
	int ch, status;

	memset(&r, 0, sizeof(r));
	while ((ch = cli_getopts(argc, argv, &check_command, "qJ",
	    check_opts)) != -1)
		if (ch == 'q')
			rp.quiet = true;
		else if (ch == 'J')
			rp.json = true;
		else if (ch == OPT_BY_NUMBER)
			r.s.by_number = true;
		else if (ch == OPT_ONLY)
			r.only_arg = optarg;
	rp.quiet = rp.quiet && !rp.json;
	if ((status = restore_run_load(argc, argv, &check_command, &r)) != EXIT_OK)
		return status;
	cur = xcpuset(r.m.nbits);
	report_open(&rp);
	diffs = snapshot_resolve(&r.s, &r.mi,
	    r.only_arg != NULL ? &r.only : NULL);
	/* the lines that pick nothing: on stdout, or warnings beside JSON */
	if (!rp.quiet) {
		restore_problems_say(&r.s, !rp.json);
		restore_left_note(&r.s);
	}
	if (r.s.dflt != NULL) {
		if (machine_default_read(cur, &pe) != 0) {
			warnx("%s", pe.msg);
			diffs++;
		} else
			diffs += differs(&rp, -1, "", cur, r.s.dflt->want,
			    MOVABLE_YES);
	}
	for (i = 0; i < r.mi.nums.n; i++)
		if (r.mi.v[i].by != NULL)
			diffs += check_irq(&r, &rp, i, cur);
	for (i = 0; i < r.s.nqueues; i++)
		diffs += check_queue(&r, &rp, &r.s.queues[i]);
	report_close(&rp, &r.s);
	cpuset_free(cur);
	restore_run_free(&r);
	return diffs > 0 ? EXIT_FAIL : EXIT_OK;
}
