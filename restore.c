/*
 * restore and check: apply a snapshot, or compare the machine with it.
 *
 * restore checks every line first (status 2, nothing written). A line
 * that picks no IRQ is reported and counts as a failed IRQ: status 3, or 1
 * when nothing else could be done. A set with no online CPU is only right
 * for an IRQ that has it already. check prints each difference, and
 * exits 0 when there is none, 1 when there is one.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "apply.h"
#include "commands.h"
#include "irqbalance.h"
#include "snapshot.h"
#include "xalloc.h"

static int restore_main(int, char *[]);
static int check_main(int, char *[]);
static void check_help(FILE *);

const struct command restore_command = {
	"restore", restore_main, "apply a snapshot",
	"[-nvq] [--by-number] file",
	"  -n, --dry-run    print what would change, write nothing\n"
	"  -v, --verbose    print a line for every IRQ\n"
	"  -q, --quiet      no irqbalance warning\n"
	"      --by-number  match IRQs by number, not by name\n",
	NULL
};

const struct command check_command = {
	"check", check_main, "compare the machine with a snapshot",
	"[--by-number] file",
	"      --by-number  match IRQs by number, not by name\n",
	check_help
};

enum { OPT_BY_NUMBER = 256 };

static const struct option restore_opts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "by-number", no_argument, NULL, OPT_BY_NUMBER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static const struct option check_opts[] = {
	{ "by-number", no_argument, NULL, OPT_BY_NUMBER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* What restore and check hold: the machine, the snapshot, the IRQs. */
struct run {
	struct machine	 m;
	struct snap	 s;
	struct mirqs	 mi;
	int		 flags;
	bool		 quiet;
	struct tally	 tl;
};

static void
run_free(struct run *r)
{
	mirqs_free(&r->mi);
	snap_free(&r->s);
	machine_free(&r->m);
}

static void
check_help(FILE *fp)
{
	fprintf(fp, "\ncheck exits with 1 when the machine differs from the "
	    "snapshot, and with 2\nwhen the snapshot cannot be read, is "
	    "wrong or has no entry.\n");
}

/*
 * One operand, the machine, the snapshot and the IRQs there are. For
 * check, a snapshot that cannot be read or has no entry is bad input
 * (2): status 1 means drift.
 */
static int
run_load(int argc, char *argv[], const struct command *cmd, struct run *r)
{
	bool check = cmd == &check_command;
	int rc;

	if (argc - optind != 1)
		return usage_error(cmd, "expected one snapshot file");
	if (machine_load(&r->m) != 0)
		return EXIT_FAIL;
	if ((rc = snap_read(&r->s, &r->m, argv[optind])) == 0 && check &&
	    r->s.n == 0) {
		warnx("%s: no entries", r->s.label);
		rc = -EINVAL;
	}
	if (rc != 0) {
		run_free(r);
		return check ? EXIT_USAGE : exit_status(rc);
	}
	if ((rc = mirqs_load(&r->mi)) != 0) {
		run_free(r);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * A set with no online CPU cannot be written: the kernel would choose
 * CPUs itself. It is only right for an IRQ that has it already, as the
 * managed IRQs of offline CPUs do. irq < 0 is the default affinity.
 */
static enum apply_result
offline_only(struct run *r, const char *label, long irq, const struct entry *e)
{
	struct cpuset *cur = xcpuset(r->m.nbits);
	enum apply_result res = APPLY_FAILED;
	struct perr pe;
	char *list;

	if ((irq < 0 ? default_read(cur, &pe) :
	    affinity_read(irq, AFF_REQUESTED, cur, &pe)) != 0)
		warnx("%s", pe.msg);
	else if (cpuset_equal(cur, e->want)) {
		if (r->flags & APPLY_VERBOSE) {
			list = xformat(cur, false);
			printf("%s: %s unchanged\n", label, list);
			free(list);
		}
		res = APPLY_UNCHANGED;
	} else
		snap_warn(&r->s, e->line, "%s: CPU %s \"%s\": selects no "
		    "online CPU", label, strncasecmp(e->sl.cpus, "0x", 2) == 0 ?
		    "mask" : "list", quoted(e->sl.cpus));
	cpuset_free(cur);
	if (res == APPLY_FAILED)
		r->tl.failed++;
	else
		r->tl.unchanged++;
	return res;
}

/* Offline CPUs in the sets to be written, one note for them all. */
static void
offline_note(struct run *r)
{
	struct cpuset *all = xcpuset(r->m.nbits);
	const struct entry *e;
	size_t i;

	for (i = 0; i <= r->mi.nums.n; i++) {
		e = i < r->mi.nums.n ? r->mi.v[i].by : r->s.dflt;
		if (e != NULL && cpuset_intersects(e->want, r->m.online))
			cpuset_or(all, e->want);
	}
	machine_note_offline(&r->m, all);
	cpuset_free(all);
}

static enum apply_result
restore_one(struct run *r, long irq, const struct entry *e)
{
	char label[32];

	if (irq < 0)
		strlcpy(label, "default", sizeof(label));
	else
		snprintf(label, sizeof(label), "irq %ld", irq);
	if (!cpuset_intersects(e->want, r->m.online))
		return offline_only(r, label, irq, e);
	if (irq < 0)
		return apply_default(&r->m, e->want, r->flags, &r->tl);
	return apply_irq(&r->m, irq, e->want, r->flags, &r->tl);
}

/*
 * Lines that pick no IRQ count as IRQs that failed: the rest is still
 * applied, and the exit status is 3 (or 1 when nothing could be done).
 */
static int
restore_main(int argc, char *argv[])
{
	struct run r;
	size_t i;
	int ch, status;

	memset(&r, 0, sizeof(r));
	while ((ch = getopts(argc, argv, &restore_command, "nvq",
	    restore_opts)) != -1) {
		switch (ch) {
		case 'n':
			r.flags |= APPLY_DRYRUN;
			break;
		case 'v':
			r.flags |= APPLY_VERBOSE;
			break;
		case 'q':
			r.quiet = true;
			break;
		case OPT_BY_NUMBER:
			r.s.by_number = true;
			break;
		}
	}
	if ((status = run_load(argc, argv, &restore_command, &r)) != EXIT_OK)
		return status;
	r.tl.failed = snap_resolve(&r.s, &r.mi);
	offline_note(&r);
	if (!r.quiet)
		irqbalance_warn();
	if (!(r.flags & APPLY_DRYRUN))
		applying();
	if (r.s.dflt != NULL)
		restore_one(&r, -1, r.s.dflt);
	for (i = 0; i < r.mi.nums.n && !r.tl.stop; i++)
		if (r.mi.v[i].by != NULL)
			restore_one(&r, r.mi.nums.v[i], r.mi.v[i].by);
	for (; i < r.mi.nums.n; i++)
		r.tl.failed += r.mi.v[i].by != NULL;
	apply_note(&r.tl, r.flags);
	status = exit_applied(&r.tl);
	run_free(&r);
	return status;
}

/*
 * Prints a difference; returns whether there is one. A kernel-managed
 * IRQ's is printed apart: it is not drift anyone can mend.
 */
static bool
differs(const char *label, const struct cpuset *cur, const struct cpuset *want,
    bool managed)
{
	char *a, *b;

	if (cpuset_equal(cur, want))
		return false;
	a = xformat(cur, false);
	b = xformat(want, false);
	printf("%s: %s (want %s%s)\n", label, a, b,
	    managed ? "; managed by the kernel, not drift" : "");
	free(a);
	free(b);
	return true;
}

/* Compares one IRQ; returns 1 for a difference or a failure to read. */
static size_t
check_irq(struct run *r, size_t i, struct cpuset *cur)
{
	const struct mirq *q = &r->mi.v[i];
	unsigned int irq = r->mi.nums.v[i];
	struct perr pe;
	char *label, *names;
	bool diff, managed;

	if (affinity_read(irq, AFF_REQUESTED, cur, &pe) != 0) {
		warnx("%s", pe.msg);
		return 1;
	}
	names = names_text(q->names, q->nnames, false);
	if (asprintf(&label, "irq %u%s%s", irq, *names != '\0' ? " " : "",
	    names) < 0)
		err(EXIT_FAIL, NULL);
	managed = irq_state(irq) & IRQ_MANAGED;
	diff = differs(label, cur, q->by->want, managed) && !managed;
	free(label);
	free(names);
	return diff;
}

/* 0 when the machine matches, 1 when it differs, 2 for a bad file. */
static int
check_main(int argc, char *argv[])
{
	struct run r;
	struct cpuset *cur;
	struct perr pe;
	size_t i, diffs;
	int ch, status;

	memset(&r, 0, sizeof(r));
	r.s.check = true;
	while ((ch = getopts(argc, argv, &check_command, "", check_opts)) !=
	    -1)
		if (ch == OPT_BY_NUMBER)
			r.s.by_number = true;
	if ((status = run_load(argc, argv, &check_command, &r)) != EXIT_OK)
		return status;
	cur = xcpuset(r.m.nbits);
	diffs = snap_resolve(&r.s, &r.mi);
	if (r.s.dflt != NULL) {
		if (default_read(cur, &pe) != 0) {
			warnx("%s", pe.msg);
			diffs++;
		} else
			diffs += differs("default", cur, r.s.dflt->want,
			    false);
	}
	for (i = 0; i < r.mi.nums.n; i++)
		if (r.mi.v[i].by != NULL)
			diffs += check_irq(&r, i, cur);
	cpuset_free(cur);
	run_free(&r);
	return diffs > 0 ? EXIT_FAIL : EXIT_OK;
}
