/*
 * Snapshot files read and checked, and their entries matched to the
 * IRQs of this machine (snapshot_resolve() says how).
 */
#include <err.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/isolation.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/snapshot.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

/* A line of a snapshot: far more than 8192 CPUs and any name need. */
#define SNAP_LINE_MAX	(1 << 20)

void
snapshot_warn(const struct snap *s, size_t line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warnx("%s:%zu: %s", s->label, line, msg);
}

/* A line that cannot be applied, kept for the command to say. */
static void
problem(struct snap *s, const struct entry *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
problem(struct snap *s, const struct entry *e, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->problems = xreallocarray(s->problems, s->nproblems + 1,
	    sizeof(*s->problems));
	s->problems[s->nproblems].line = e->line;
	s->problems[s->nproblems++].msg = xstrdup(msg);
}

static int
cmpproblem(const void *a, const void *b)
{
	const struct problem *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

/* Whether an IRQ is one snapshot_resolve() was asked about. */
static bool
selected(const struct snap *s, unsigned int irq)
{
	return s->only == NULL || select_find(s->only, irq, NULL);
}

/* Names for a message: "a" "b" when strings, else a, b. */
char *
snapshot_names_text(char **names, size_t n, bool strings)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *fp;

	fp = xmemstream(&text, &len);
	for (i = 0; i < n; i++)
		fprintf(fp, strings ? "%s\"%s\"" : "%s%s",
		    i == 0 ? "" : strings ? " " : ", ", text_quoted(names[i]));
	xmemclose(fp);
	return text;
}

static void
entry_free(struct entry *e)
{
	snapline_free(&e->sl);
	free(e->hit);
	cpuset_free(e->want);
	cpuset_free(e->isolated);
}

void
snapshot_free(struct snap *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		entry_free(&s->v[i]);
	for (i = 0; i < s->nproblems; i++)
		free(s->problems[i].msg);
	for (i = 0; i < s->nqueues; i++)
		free(s->queues[i].rel);
	free(s->queues);
	s->queues = NULL;
	s->nqueues = 0;
	cpuset_free(s->beyond.wide);
	s->beyond.wide = NULL;
	cpuset_free(s->left);
	s->left = NULL;
	s->nleft = 0;
	free(s->v);
	free(s->slots);
	free(s->label);
	free(s->problems);
	s->v = NULL;
	s->n = 0;
	s->label = NULL;
	s->problems = NULL;
	s->nproblems = 0;
}

/* FNV-1a over what makes two lines the same: kind, pattern, CPUs. */
static size_t
entry_hash(const struct entry *e)
{
	const char *parts[2] = { e->sl.pattern, e->sl.cpus };
	size_t h = 2166136261u ^ e->sl.kind, i;
	const unsigned char *p;

	for (i = 0; e->sl.kind == SNAP_PATTERN && i < nitems(parts); i++)
		for (p = (const unsigned char *)parts[i]; ; p++) {
			h = (h ^ *p) * 16777619u;
			if (*p == '\0')
				break;
		}
	return h;
}

static bool
same_entry(const struct entry *a, const struct entry *b)
{
	if (a->sl.kind != b->sl.kind)
		return false;
	return a->sl.kind == SNAP_DEFAULT || a->sl.kind == SNAP_PLAN ||
	    (a->sl.optional == b->sl.optional &&
	    strcmp(a->sl.pattern, b->sl.pattern) == 0 &&
	    strcmp(a->sl.cpus, b->sl.cpus) == 0);
}

/* Lines with IRQ numbers are all kept, for pairing; queue lines too. */
static bool
hashed(const struct entry *e)
{
	return e->sl.kind == SNAP_DEFAULT || e->sl.kind == SNAP_PLAN ||
	    e->sl.kind == SNAP_PATTERN;
}

static void
rehash(struct snap *s)
{
	size_t i, h;

	free(s->slots);
	s->nslots = s->nslots == 0 ? 64 : s->nslots * 2;
	s->slots = xcalloc(s->nslots, sizeof(*s->slots));
	for (i = 0; i < s->n; i++) {
		if (!hashed(&s->v[i]))
			continue;
		for (h = entry_hash(&s->v[i]); s->slots[h % s->nslots] != 0; h++)
			;
		s->slots[h % s->nslots] = i + 1;
	}
}

/*
 * A default or pattern line that repeats an earlier one replaces it: the
 * later line wins anyway, and a file of a million "* 1" lines then costs
 * what one does. Lines with IRQ numbers are all kept, for pairing.
 */
static void
add_entry(struct snap *s, struct entry *e)
{
	size_t h, *slot = NULL;

	if (hashed(e)) {
		if (2 * s->n >= s->nslots)
			rehash(s);
		for (h = entry_hash(e); s->slots[h % s->nslots] != 0; h++)
			if (same_entry(&s->v[s->slots[h % s->nslots] - 1], e)) {
				entry_free(&s->v[s->slots[h % s->nslots] - 1]);
				s->v[s->slots[h % s->nslots] - 1] = *e;
				return;
			}
		slot = &s->slots[h % s->nslots];
	}
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 64 : 2 * s->cap;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = *e;
	if (slot != NULL)
		*slot = s->n;
}

/*
 * Whether a set failed only for naming CPUs past this machine's last
 * possible one: a list's ERANGE (check_region() in parse.c), or a mask
 * that a machine of the most CPUs would take.
 */
static bool
names_beyond(struct beyond *b, const char *cpus, const struct perr *pe)
{
	if (strncasecmp(cpus, "0x", 2) != 0)
		return pe->code == ERANGE;
	if (pe->code != EOVERFLOW)
		return false;
	if (b->wide == NULL)
		b->wide = xcpuset(CPUSET_MAXBITS);
	return cpumask_parse(b->wide, cpus, NULL) == 0;
}

static void
add_beyond(struct beyond *b, size_t line)
{
	b->n++;
	if (b->nranges > 0 && b->hi[b->nranges - 1] + 1 == line)
		b->hi[b->nranges - 1] = line;
	else if (b->nranges < SNAP_BEYOND_RANGES) {
		b->lo[b->nranges] = b->hi[b->nranges] = line;
		b->nranges++;
	} else
		b->more = true;
}

/*
 * The lines of a snapshot of a bigger machine, in one sentence: the
 * same "CPU 11 is beyond" for each would hide the cause and the cure.
 */
static void
report_beyond(const struct snap *s, unsigned int nbits)
{
	const struct beyond *b = &s->beyond;
	char lines[256];
	size_t i, len = 0;

	for (i = 0; i < b->nranges && len < sizeof(lines); i++)
		len += snprintf(lines + len, sizeof(lines) - len,
		    b->lo[i] == b->hi[i] ? "%s%zu" : "%s%zu-%zu",
		    i > 0 ? "," : "", b->lo[i], b->hi[i]);
	warnx("%s: %zu lines name CPUs beyond the last possible CPU %u "
	    "(lines %s%s), as a snapshot of a bigger machine does; sets that "
	    "fit every machine are node:K, all, or N for the last CPU (4-N)",
	    s->label, b->n, nbits - 1, lines, b->more ? ",..." : "");
}

/*
 * One line into an entry. A set's offline CPUs are allowed here: whether
 * it can be written is known only for the IRQ it goes to.
 */
static int
read_entry(struct snap *s, struct machine *m, size_t lineno,
    const char *line, size_t len)
{
	struct entry e = { .line = lineno };
	struct perr pe;
	int rc;

	rc = xparsed(snapline_parse(line, len, &e.sl, &pe));
	if (rc == 0 && e.sl.kind != SNAP_NONE) {
		e.want = xcpuset(m->nbits);
		/* a queue may have no CPU: "none" */
		rc = machine_cpus(m, e.sl.cpus, e.sl.kind == SNAP_XPS ||
		    e.sl.kind == SNAP_RPS ? 0 : CPUS_NONEMPTY, e.want, &pe);
	}
	if (rc == 0 && e.sl.isolated != NULL) {
		e.isolated = xcpuset(m->nbits);
		rc = machine_cpus(m, e.sl.isolated, CPUS_NONEMPTY, e.isolated,
		    &pe);
	}
	if (rc != 0 && e.sl.kind != SNAP_NONE && e.sl.cpus != NULL &&
	    names_beyond(&s->beyond, e.sl.cpus, &pe)) {
		/* the first held: alone, it is said as any other line */
		if (s->verbose)
			snapshot_warn(s, lineno, "%s", pe.msg);
		else if (s->beyond.n == 0) {
			snprintf(s->beyond.first, sizeof(s->beyond.first),
			    "%s:%zu: %s", s->label, lineno, pe.msg);
			s->beyond.held = true;
		}
		add_beyond(&s->beyond, lineno);
	} else if (rc != 0) {
		/* in line order, while it may still be alone */
		if (s->beyond.held && s->beyond.n == 1) {
			warnx("%s", s->beyond.first);
			s->beyond.held = false;
		}
		snapshot_warn(s, lineno, "%s", pe.msg);
	}
	if (rc != 0) {
		entry_free(&e);
		return rc;
	}
	if (e.sl.kind != SNAP_NONE)
		add_entry(s, &e);
	return 0;
}

/*
 * Reads and checks the whole file. 0, or after saying why -EINVAL when
 * a line is wrong (every such line reported, up to a line over the cap;
 * those naming CPUs beyond this machine's, when several, in one line),
 * another negative errno when the file cannot be read.
 */
int
snapshot_read(struct snap *s, struct machine *m, const char *path)
{
	struct lines l;
	size_t lineno = 0, len;
	char *line;
	FILE *fp;
	int bad = 0, rc;

	s->m = m;
	s->label = xescaped(strcmp(path, "-") == 0 ? "standard input" : path);
	if ((fp = procfs_file_open(path)) == NULL) {
		rc = -errno;
		warn("%s", s->label);
		return rc;
	}
	procfs_lines_fd(&l, fileno(fp), SNAP_LINE_MAX);
	while ((rc = xparsed(procfs_lines_next(&l, &line, &len))) == 1)
		bad += read_entry(s, m, ++lineno, line, len) != 0;
	if (s->beyond.n == 1 && s->beyond.held)
		warnx("%s", s->beyond.first);
	else if (s->beyond.n > 1)
		report_beyond(s, m->nbits);
	if (rc == -EFBIG) {
		snapshot_warn(s, lineno + 1, "longer than %d bytes; is this a "
		    "snapshot file?", SNAP_LINE_MAX);
		rc = -EINVAL;
	} else if (rc < 0)
		warnc(-rc, "%s", s->label);
	else if (bad > 0)
		rc = -EINVAL;
	procfs_lines_close(&l);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

/* The IRQs of the machine and their action names. */
int
snapshot_mirqs_load(struct mirqs *mi)
{
	size_t i;
	int rc;

	mi->v = NULL;
	if ((rc = select_all(&mi->nums)) != 0)
		return rc;
	mi->v = xcalloc(mi->nums.n, sizeof(*mi->v));
	for (i = 0; i < mi->nums.n; i++)
		select_actions(mi->nums.v[i], &mi->v[i].names,
		    &mi->v[i].nnames);
	return 0;
}

void
snapshot_mirqs_free(struct mirqs *mi)
{
	size_t i;

	for (i = 0; mi->v != NULL && i < mi->nums.n; i++)
		select_actions_free(mi->v[i].names, mi->v[i].nnames);
	free(mi->v);
	mi->v = NULL;
	select_free(&mi->nums);
}

static int
cmpnames(char **a, size_t na, char **b, size_t nb)
{
	size_t i;
	int r;

	for (i = 0; i < na && i < nb; i++)
		if ((r = strcmp(a[i], b[i])) != 0)
			return r;
	return (na > nb) - (na < nb);
}

static void
add_hit(struct entry *e, size_t at)
{
	e->hit = xreallocarray(e->hit, e->nhit + 1, sizeof(*e->hit));
	e->hit[e->nhit++] = at;
}

static int
cmpentry(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a;
	const struct entry *y = *(const struct entry *const *)b;
	int r;

	if ((r = cmpnames(x->sl.names, x->sl.nnames, y->sl.names,
	    y->sl.nnames)) != 0)
		return r;
	if (x->sl.irq != y->sl.irq)
		return (x->sl.irq > y->sl.irq) - (x->sl.irq < y->sl.irq);
	return (x->line > y->line) - (x->line < y->line);
}

/* IRQs with names, sorted by names then number; a points into mirqs. */
struct named {
	const struct mirq	*q;
	unsigned int		 irq;
	size_t			 at;
};

static int
cmpnamed(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int r;

	if ((r = cmpnames(x->q->names, x->q->nnames, y->q->names,
	    y->q->nnames)) != 0)
		return r;
	return (x->irq > y->irq) - (x->irq < y->irq);
}

static void
pattern_hits(const struct mirqs *mi, struct entry *e)
{
	size_t i, k;

	for (i = 0; i < mi->nums.n; i++)
		for (k = 0; k < mi->v[i].nnames; k++)
			if (fnmatch(e->sl.pattern, mi->v[i].names[k], 0) == 0) {
				add_hit(e, i);
				break;
			}
}

/* Whether the IRQ has the names the line gives it, in any order. */
static bool
same_names(const struct entry *e, const struct mirq *q)
{
	size_t i, k;

	if (e->sl.nnames != q->nnames)
		return false;
	for (i = 0; i < e->sl.nnames; i++) {
		for (k = 0; k < q->nnames; k++)
			if (strcmp(e->sl.names[i], q->names[k]) == 0)
				break;
		if (k == q->nnames)
			return false;
	}
	return true;
}

/* --by-number on a line whose IRQ has other names now: said, applied. */
static void
renamed_note(const struct snap *s, const struct entry *e,
    const struct mirq *q)
{
	char *was, *now;

	if (e->sl.nnames == 0 || same_names(e, q) || !selected(s, e->sl.irq))
		return;
	was = snapshot_names_text(e->sl.names, e->sl.nnames, true);
	now = snapshot_names_text(q->names, q->nnames, true);
	warnx("note: %s:%zu: IRQ %u is %s here, %s in the snapshot; "
	    "matched by its number (--by-number)", s->label, e->line,
	    e->sl.irq, *now ? now : "unnamed", was);
	free(now);
	free(was);
}

static void
number_hit(struct snap *s, const struct mirqs *mi, struct entry *e)
{
	const struct mirq *q;
	size_t at;
	char *now;

	if (!select_find(&mi->nums, e->sl.irq, &at)) {
		if (!e->sl.optional && s->only == NULL)
			problem(s, e, "IRQ %u does not exist", e->sl.irq);
		return;
	}
	q = &mi->v[at];
	if (e->sl.nnames == 0 && !s->by_number && q->nnames > 0) {
		if (selected(s, e->sl.irq)) {
			now = snapshot_names_text(q->names, q->nnames, true);
			problem(s, e, "IRQ %u has no name in the snapshot but "
			    "is %s here; give its name or use --by-number",
			    e->sl.irq, now);
			free(now);
		}
		return;
	}
	renamed_note(s, e, q);
	add_hit(e, at);
}

/*
 * Reports the lines of a group of equal names that could not be paired
 * with the nq IRQs that have those names: with a selection, when one of
 * those is selected; optional lines, only when there are some.
 */
static void
unpaired(struct snap *s, struct entry **ents, size_t ne,
    const struct named *q, size_t nq)
{
	char *text;
	size_t k;

	for (k = 0; s->only != NULL && k < nq; k++)
		if (selected(s, q[k].irq))
			break;
	if (s->only != NULL && k == nq)
		return;
	text = snapshot_names_text(ents[0]->sl.names, ents[0]->sl.nnames, true);
	for (k = 0; k < ne; k++) {
		if (nq == 0 && ents[k]->sl.optional)
			continue;
		if (nq == 0)
			problem(s, ents[k], "%s matches no IRQ", text);
		else if (ne == 1)
			problem(s, ents[k], "%s matches %zu IRQs", text, nq);
		else
			problem(s, ents[k], "%s matches %zu IRQs, not the %zu "
			    "of the snapshot", text, nq, ne);
	}
	free(text);
}

/*
 * Lines with the same names and the IRQs with those names, each sorted
 * by number, are paired when there are as many of one as of the other.
 */
static void
name_hits(struct snap *s, struct mirqs *mi, struct entry **ents, size_t ne)
{
	struct named *q = xcalloc(mi->nums.n, sizeof(*q));
	size_t nq = 0, i, j = 0, gi, gj, k;
	char **names;
	size_t nnames;

	for (i = 0; i < mi->nums.n; i++)
		if (mi->v[i].nnames > 0)
			q[nq++] = (struct named){ &mi->v[i], mi->nums.v[i], i };
	qsort(ents, ne, sizeof(*ents), cmpentry);
	qsort(q, nq, sizeof(*q), cmpnamed);
	for (i = 0; i < ne; i = gi) {
		names = ents[i]->sl.names;
		nnames = ents[i]->sl.nnames;
		for (gi = i + 1; gi < ne && cmpnames(names, nnames,
		    ents[gi]->sl.names, ents[gi]->sl.nnames) == 0; gi++)
			;
		while (j < nq && cmpnames(q[j].q->names, q[j].q->nnames,
		    names, nnames) < 0)
			j++;
		for (gj = j; gj < nq && cmpnames(q[gj].q->names,
		    q[gj].q->nnames, names, nnames) == 0; gj++)
			;
		if (gj - j == gi - i)
			for (k = 0; k < gi - i; k++)
				add_hit(ents[i + k], q[j + k].at);
		else
			unpaired(s, ents + i, gi - i, q + j, gj - j);
		j = gj;
	}
	free(q);
}

/* "xps eth0 tx-3", the interface escaped. */
void
snapshot_queue_label(const struct entry *e, char *buf, size_t size)
{
	bool tx = e->sl.kind == SNAP_XPS;

	snprintf(buf, size, "%s %s %s-%u", tx ? "xps" : "rps",
	    text_quoted(e->sl.dev), tx ? "tx" : "rx", e->sl.queue);
}

static int
cmpqline(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a;
	const struct entry *y = *(const struct entry *const *)b;
	int r;

	if ((r = strverscmp(x->sl.dev, y->sl.dev)) != 0 ||
	    (r = strcmp(x->sl.dev, y->sl.dev)) != 0)
		return r;
	if (x->sl.queue != y->sl.queue)
		return x->sl.queue > y->sl.queue ? 1 : -1;
	if (x->sl.kind != y->sl.kind)
		return (x->sl.kind == SNAP_XPS) - (y->sl.kind == SNAP_XPS);
	return (x->line > y->line) - (x->line < y->line);
}

static bool
dev_selected(const struct snap *s, const char *dev)
{
	return s->only == NULL || select_dev_named(s->only, dev);
}

/*
 * The queues the queue lines name, in the order of interfaces and
 * queues, each with the last line for it; a queue that is not there is
 * a problem of each of its lines but the optional ones.
 */
static void
queue_hits(struct snap *s)
{
	const struct entry **v, *e;
	char rel[PATH_MAX], label[128];
	size_t n = 0, i, j, k;
	int rc;

	v = xcalloc(s->n, sizeof(*v));
	for (i = 0; i < s->n; i++)
		if ((s->v[i].sl.kind == SNAP_XPS ||
		    s->v[i].sl.kind == SNAP_RPS) &&
		    dev_selected(s, s->v[i].sl.dev))
			v[n++] = &s->v[i];
	xmergesort(v, n, sizeof(*v), cmpqline);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n &&
		    strcmp(v[i]->sl.dev, v[j]->sl.dev) == 0 &&
		    v[i]->sl.queue == v[j]->sl.queue &&
		    v[i]->sl.kind == v[j]->sl.kind; j++)
			;
		e = v[j - 1];
		rc = netqueue_find(e->sl.dev, e->sl.kind == SNAP_XPS ? NQ_TX :
		    NQ_RX, e->sl.queue, rel, sizeof(rel));
		if (rc == 0) {
			s->queues = xreallocarray(s->queues, s->nqueues + 1,
			    sizeof(*s->queues));
			s->queues[s->nqueues].e = e;
			s->queues[s->nqueues++].rel = xstrdup(rel);
			continue;
		}
		snapshot_queue_label(e, label, sizeof(label));
		for (k = i; k < j; k++) {
			if (v[k]->sl.optional)
				continue;
			if (rc == -ENODEV)
				problem(s, v[k], "%s: no such interface",
				    label);
			else if (rc == -ENOENT)
				problem(s, v[k], "%s: no such queue", label);
			else
				problem(s, v[k], "%s: the queue has no %s",
				    label, e->sl.kind == SNAP_XPS ?
				    "xps_cpus" : "rps_cpus");
		}
	}
	free(v);
}

/*
 * A balance plan holds only while the CPUs it was made for are still
 * online and not isolated, but for the isolated ones it chose: a
 * problem of its plan line otherwise.
 */
static void
plan_problems(struct snap *s)
{
	struct cpuset *off, *pool, *iso;
	char *list, *why = NULL;

	off = xcpudup(s->plan->want);
	cpuset_andnot(off, s->m->online);
	pool = xcpudup(s->plan->want);
	iso = isolation_leave_out(s->m, pool, NULL, false, &why);
	cpuset_andnot(iso, off);
	if (s->plan->isolated != NULL)
		cpuset_andnot(iso, s->plan->isolated);
	if (!cpuset_empty(off)) {
		list = xformat(off, false);
		problem(s, s->plan, "CPU %s of the plan is offline now", list);
		free(list);
	}
	if (!cpuset_empty(iso)) {
		list = xformat(iso, false);
		problem(s, s->plan, "CPU %s of the plan is isolated now (%s)",
		    list, why);
		free(list);
	}
	free(why);
	cpuset_free(iso);
	cpuset_free(pool);
	cpuset_free(off);
}

/*
 * The CPUs irqaff isolate remembered come out of every line's set, as
 * isolate took them out of the IRQs and RPS (irqaff-isolate(8),
 * ISOLATION AND THE SAVED LAYOUT): an IRQ or default line left with
 * none asks for the CPUs neither offline nor isolated, an rps line for
 * none (RPS off). XPS lines stay: they say which queue a CPU sends on,
 * no interrupt. A plan is applied as it is, or refused (plan_problems()).
 */
static void
leave_out_remembered(struct snap *s)
{
	struct isolated iso;
	struct cpuset *house, *cut;
	struct entry *e;
	size_t i;

	isolation_cpus(&iso, s->m);
	house = xcpudup(s->m->online);
	cpuset_andnot(house, iso.all);
	for (i = 0; i < s->n; i++) {
		e = &s->v[i];
		if (e->want == NULL || e->sl.kind == SNAP_PLAN ||
		    e->sl.kind == SNAP_XPS ||
		    !cpuset_intersects(e->want, iso.remembered))
			continue;
		if (s->left == NULL)
			s->left = xcpuset(s->m->nbits);
		cut = xcpudup(e->want);
		cpuset_and(cut, iso.remembered);
		cpuset_or(s->left, cut);
		cpuset_free(cut);
		cpuset_andnot(e->want, iso.remembered);
		if (cpuset_empty(e->want) && e->sl.kind != SNAP_RPS)
			cpuset_copy(e->want, house);
		s->nleft++;
	}
	cpuset_free(house);
	isolation_cpus_free(&iso);
}

/*
 * Finds the IRQs each line picks, and for each IRQ the last line that
 * picks it. With only, the IRQs it selects keep theirs, the others and
 * the default none. Returns how many lines cannot be applied, each in
 * s->problems in line order, for the command to say.
 *
 * An irq line with names picks the IRQ whose action names are exactly
 * those (in any order); lines naming the same set take as many IRQs, in
 * order of number. With --by-number, or without names, the number is
 * used; but without --by-number a line without names skips an IRQ that
 * has names (its number may now be another device's). A pattern line
 * picks every IRQ it matches. An optional line ("?") that picks none is
 * no problem; with only, neither is any line that picks none, and the
 * problems are those of selected IRQs. A queue line (xps, rps) names its
 * interface and queue, the last line for a queue winning; with only,
 * only the lines of interfaces a dev: item names apply.
 */
size_t
snapshot_resolve(struct snap *s, struct mirqs *mi, const struct irqs *only)
{
	struct entry **ents, *e;
	size_t i, k, ne = 0;

	s->only = only;
	ents = xcalloc(s->n, sizeof(*ents));
	for (i = 0; i < s->n; i++) {
		e = &s->v[i];
		if (e->sl.kind == SNAP_PATTERN) {
			pattern_hits(mi, e);
			if (e->nhit == 0 && !e->sl.optional && only == NULL)
				problem(s, e, "\"%s\" matches no IRQ",
				    text_quoted(e->sl.pattern));
		} else if (e->sl.kind == SNAP_IRQ) {
			if (e->sl.nnames > 0 && !s->by_number)
				ents[ne++] = e;
			else
				number_hit(s, mi, e);
		}
	}
	name_hits(s, mi, ents, ne);
	free(ents);
	queue_hits(s);
	for (i = 0; i < s->n; i++) {
		e = &s->v[i];
		if (e->sl.kind == SNAP_DEFAULT && only == NULL)
			s->dflt = e;
		if (e->sl.kind == SNAP_PLAN)
			s->plan = e;
		for (k = 0; k < e->nhit; k++)
			if (selected(s, mi->nums.v[e->hit[k]]) &&
			    (mi->v[e->hit[k]].by == NULL ||
			    mi->v[e->hit[k]].by->line < e->line))
				mi->v[e->hit[k]].by = e;
	}
	if (s->plan != NULL)
		plan_problems(s);
	else
		leave_out_remembered(s);
	xmergesort(s->problems, s->nproblems, sizeof(*s->problems),
	    cmpproblem);
	return s->nproblems;
}

/* An IRQ's action names, each after a space and quoted, as in its line. */
void
snapshot_put_names(FILE *fp, unsigned int irq)
{
	char **names;
	size_t n, k;

	select_actions(irq, &names, &n);
	for (k = 0; k < n; k++) {
		putc(' ', fp);
		snapline_quote(fp, names[k]);
	}
	select_actions_free(names, n);
}

/*
 * An IRQ line as save and balance's plan write it (snapline_format()):
 * the IRQ, its CPUs and its action names; optional with "?".
 */
void
snapshot_put_irq(FILE *fp, unsigned int irq, const char *cpus,
    bool optional)
{
	struct snapline sl;

	memset(&sl, 0, sizeof(sl));
	sl.kind = SNAP_IRQ;
	sl.optional = optional;
	sl.irq = irq;
	sl.cpus = (char *)cpus;
	select_actions(irq, &sl.names, &sl.nnames);
	snapline_format(fp, &sl);
	select_actions_free(sl.names, sl.nnames);
}

/* A queue line: xps for a tx queue, rps for an rx one. */
void
snapshot_put_queue(FILE *fp, bool tx, const char *dev, unsigned int queue,
    const char *cpus, bool optional)
{
	struct snapline sl;

	memset(&sl, 0, sizeof(sl));
	sl.kind = tx ? SNAP_XPS : SNAP_RPS;
	sl.optional = optional;
	sl.dev = (char *)dev;
	sl.queue = queue;
	sl.cpus = (char *)cpus;
	snapline_format(fp, &sl);
}

/* A queue's mask file at rel into set; 0, or -errno said after label. */
int
snapshot_queue_read(const char *rel, struct cpuset *set, const char *label)
{
	char *buf;
	struct perr pe;
	int rc;

	if ((rc = procfs_read(rel, &buf)) != 0)
		warnc(-rc, "%s: %s", label, procfs_path(rel));
	else {
		if ((rc = cpumask_parse(set, buf, &pe)) != 0)
			warnx("%s: %s: %s", label, procfs_path(rel), pe.msg);
		free(buf);
	}
	return rc;
}
