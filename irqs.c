/*
 * What the commands share: the machine's CPUs, CPU-set and IRQ-selector
 * arguments, and the careful write of one affinity file.
 */
#include <err.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irqaff.h"
#include "procfs.h"

#define POSSIBLE	"sys/devices/system/cpu/possible"
#define LIST_MAX	4095	/* longer lists go to smp_affinity as a mask */

/* A new empty set, or exit: there is nothing to do without memory. */
struct cpuset *
xcpuset(unsigned int nbits)
{
	struct cpuset *s;

	if ((s = cpuset_new(nbits)) == NULL)
		err(EXIT_FAIL, NULL);
	return s;
}

/* A CPU list file at the machine's width; "(null)" (nohz_full) is empty. */
static int
read_list(const char *rel, struct cpuset *set)
{
	struct perr pe;
	char *buf;
	int rc;

	if ((rc = procfs_read(rel, &buf)) != 0)
		return rc;
	if (strncmp(buf, "(null)", 6) == 0)
		cpuset_zero(set);
	else if ((rc = cpulist_parse(set, buf, &pe)) != 0)
		warnx("%s: %s", procfs_path(rel), pe.msg);
	free(buf);
	return rc;
}

struct cpuset *
machine_file(struct machine *m, const char *rel)
{
	struct cpuset *set = xcpuset(m->nbits);

	if (read_list(rel, set) != 0) {
		cpuset_free(set);
		return NULL;
	}
	return set;
}

int
machine_load(struct machine *m)
{
	struct cpuset *wide, *tmp;
	int rc, last;

	memset(m, 0, sizeof(*m));
	wide = xcpuset(CPUSET_MAXBITS);
	rc = read_list(POSSIBLE, wide);
	last = cpuset_last(wide);
	cpuset_free(wide);
	if (rc < 0 && rc != -EINVAL)
		warnc(-rc, "%s", procfs_path(POSSIBLE));
	if (rc != 0)
		return -1;
	if (last < 0) {
		warnx("%s: no CPUs", procfs_path(POSSIBLE));
		return -1;
	}
	m->nbits = last + 1;
	m->possible = machine_file(m, POSSIBLE);
	if ((m->online = machine_file(m, "sys/devices/system/cpu/online")) ==
	    NULL)
		m->online = cpuset_dup(m->possible);
	if ((m->isolated = machine_file(m, "sys/devices/system/cpu/isolated"))
	    == NULL)
		m->isolated = xcpuset(m->nbits);
	if ((tmp = machine_file(m, "sys/devices/system/cpu/nohz_full")) !=
	    NULL) {
		cpuset_or(m->isolated, tmp);
		cpuset_free(tmp);
	}
	if (m->possible == NULL || m->online == NULL)
		err(EXIT_FAIL, NULL);
	return 0;
}

void
machine_free(struct machine *m)
{
	cpuset_free(m->possible);
	cpuset_free(m->online);
	cpuset_free(m->isolated);
}

/* node:K items are NUMA nodes; the rest is one kernel CPU list. */
int
cpus_nodes(struct machine *m, const char *arg, struct cpuset *out,
    struct perr *pe)
{
	struct cpuset *node;
	const char *errstr;
	char *copy, *rest, *item, *p, rel[96];
	size_t size = strlen(arg) + 2;
	long long k;
	int rc = 0;

	if ((copy = strdup(arg)) == NULL || (rest = calloc(1, size)) == NULL)
		err(EXIT_FAIL, NULL);
	node = xcpuset(m->nbits);
	cpuset_zero(out);
	for (p = copy; (item = strsep(&p, ",")) != NULL;) {
		if (strncmp(item, "node:", 5) != 0) {
			strlcat(rest, ",", size);
			strlcat(rest, item, size);
			continue;
		}
		k = strtonum(item + 5, 0, 65535, &errstr);
		if (errstr != NULL) {
			pe->code = EINVAL;
			snprintf(pe->msg, sizeof(pe->msg),
			    "\"%s\" is not a NUMA node", quoted(item));
			rc = -EINVAL;
			break;
		}
		snprintf(rel, sizeof(rel),
		    "sys/devices/system/node/node%lld/cpulist", k);
		if (read_list(rel, node) != 0) {
			pe->code = ENOENT;
			snprintf(pe->msg, sizeof(pe->msg),
			    "NUMA node %lld does not exist", k);
			rc = -ENOENT;
			break;
		}
		cpuset_or(out, node);
	}
	if (rc == 0 && (rc = cpulist_parse(node, rest, pe)) == 0)
		cpuset_or(out, node);
	cpuset_free(node);
	free(copy);
	free(rest);
	return rc;
}

/*
 * A CPU-set argument: a kernel list with node:K items, or a mask when it
 * starts with 0x or as_mask is set. It must name an online CPU: the
 * kernel would otherwise fall back to its default affinity in silence.
 */
int
cpus_arg(struct machine *m, const char *arg, bool as_mask, struct cpuset *out)
{
	struct cpuset *off;
	struct perr pe;
	const char *kind = "list";
	char *list;
	int rc;

	if (as_mask || strncasecmp(arg, "0x", 2) == 0) {
		kind = "mask";
		rc = cpumask_parse(out, arg, &pe);
	} else
		rc = cpus_nodes(m, arg, out, &pe);
	if (rc != 0) {
		warnx("CPU %s \"%s\": %s", kind, quoted(arg), pe.msg);
		return -1;
	}
	if (!cpuset_intersects(out, m->online)) {
		warnx("CPU %s \"%s\": %s", kind, quoted(arg),
		    cpuset_empty(out) ? "selects no CPU" :
		    "selects no online CPU");
		return -1;
	}
	off = cpuset_dup(out);
	if (off == NULL)
		err(EXIT_FAIL, NULL);
	cpuset_andnot(off, m->online);
	if (!cpuset_empty(off)) {
		if ((list = cpulist_format(off)) == NULL)
			err(EXIT_FAIL, NULL);
		warnx("note: CPU %s %s offline", list,
		    cpuset_count(off) == 1 ? "is" : "are");
		free(list);
	}
	cpuset_free(off);
	return 0;
}

void
irqs_free(struct irqs *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* The action names of an IRQ, one directory each in proc/irq/N. */
static int
irq_actions(unsigned int irq, char ***names, size_t *n)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "proc/irq/%u", irq);
	return procfs_dir(rel, true, names, n);
}

char *
irq_names(unsigned int irq)
{
	char **names, *s;
	size_t n, i, len = 1;

	if (irq_actions(irq, &names, &n) != 0)
		n = 0;
	for (i = 0; i < n; i++)
		len += strlen(names[i]) + 2;
	if ((s = calloc(1, len)) == NULL)
		err(EXIT_FAIL, NULL);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strlcat(s, ", ", len);
		strlcat(s, names[i], len);
	}
	if (n > 0)
		procfs_dir_free(names, n);
	return s;
}

/* A glob against each whole action name of a ", "-joined list. */
bool
name_matches(const char *glob, const char *names, size_t len)
{
	char *copy, *p, *name;
	bool hit = false;

	if ((copy = strndup(names, len)) == NULL)
		err(EXIT_FAIL, NULL);
	for (p = copy; !hit && (name = strsep(&p, ",")) != NULL;) {
		name += *name == ' ' && name != copy;
		hit = fnmatch(glob, name, 0) == 0;
	}
	free(copy);
	return hit;
}

static const char *const device_dirs[] = {
	"sys/bus/pci/devices/%s",
	"sys/class/net/%s/device",
	"sys/class/nvme/%s/device",
};

/*
 * The IRQs of a network interface, NVMe controller or PCI address: its
 * msi_irqs entries, or its legacy irq. *dirp names the device directory.
 */
int
device_irqs(const char *name, struct irqs *out, char **dirp)
{
	char rel[512], *buf;
	const char *errstr;
	size_t i;
	int rc = -ENOENT;
	long long irq;

	for (i = 0; i < nitems(device_dirs); i++) {
		snprintf(rel, sizeof(rel), device_dirs[i], name);
		if (procfs_exists(rel))
			break;
	}
	if (i == nitems(device_dirs))
		return -ENOENT;
	if (dirp != NULL && (*dirp = strdup(rel)) == NULL)
		err(EXIT_FAIL, NULL);
	strlcat(rel, "/msi_irqs", sizeof(rel));
	if ((rc = procfs_numbers(rel, &out->v, &out->n)) == 0 && out->n > 0)
		return 0;
	rel[strlen(rel) - strlen("/msi_irqs")] = '\0';
	strlcat(rel, "/irq", sizeof(rel));
	out->v = NULL;
	out->n = 0;
	if (procfs_read(rel, &buf) != 0)
		return 0;
	buf[strcspn(buf, "\n")] = '\0';
	irq = strtonum(buf, 1, INT_MAX, &errstr);
	free(buf);
	if (errstr == NULL) {
		if ((out->v = malloc(sizeof(*out->v))) == NULL)
			err(EXIT_FAIL, NULL);
		out->v[0] = irq;
		out->n = 1;
	}
	return 0;
}

static bool
find_irq(const struct irqs *all, unsigned int irq, size_t *at)
{
	size_t lo = 0, hi = all->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (all->v[mid] == irq) {
			*at = mid;
			return true;
		}
		if (all->v[mid] < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * Marks what one selector item picks among the IRQs that exist; returns
 * how many it picked.
 */
static size_t
select_item(const struct irqsel *it, const struct irqs *all, bool *pick,
    char ***names)
{
	struct irqs dev = { NULL, 0 };
	size_t i, at, hits = 0, nn, k;
	char **nv;

	switch (it->kind) {
	case SEL_ALL:
		for (i = 0; i < all->n; i++)
			pick[i] = true;
		return all->n;
	case SEL_RANGE:
		for (i = 0; i < all->n; i++)
			if (all->v[i] >= it->lo && all->v[i] <= it->hi) {
				pick[i] = true;
				hits++;
			}
		return hits;
	case SEL_DEV:
		if (device_irqs(it->arg, &dev, NULL) != 0)
			return 0;
		for (i = 0; i < dev.n; i++)
			if (find_irq(all, dev.v[i], &at)) {
				pick[at] = true;
				hits++;
			}
		irqs_free(&dev);
		return hits;
	case SEL_GLOB:
		for (i = 0; i < all->n; i++) {
			if (names[i] == NULL) {
				if (irq_actions(all->v[i], &nv, &nn) != 0 ||
				    nn == 0) {
					nv = calloc(1, sizeof(*nv));
					nn = 0;
				}
				if ((names[i] = reallocarray(nv, nn + 1,
				    sizeof(*nv))) == NULL)
					err(EXIT_FAIL, NULL);
				names[i][nn] = NULL;
			}
			for (k = 0; names[i][k] != NULL; k++)
				if (fnmatch(it->arg, names[i][k], 0) == 0) {
					pick[i] = true;
					hits++;
					break;
				}
		}
		return hits;
	}
	return 0;
}

static void
names_free(char ***names, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		for (k = 0; names[i][k] != NULL; k++)
			free(names[i][k]);
		free(names[i]);
	}
	free(names);
}

/*
 * Resolves an IRQ selector against proc/irq. Every item must pick at
 * least one IRQ. Returns an exit status.
 */
int
irqs_select(const char *arg, struct irqs *out)
{
	struct irqs all;
	struct irqsel *sel;
	struct perr pe;
	size_t nsel, i, k;
	char ***names;
	bool *pick;
	int rc, status = EXIT_OK;

	out->v = NULL;
	out->n = 0;
	if ((rc = irqsel_parse(arg, &sel, &nsel, &pe)) != 0) {
		if (rc == -ENOMEM)
			err(EXIT_FAIL, NULL);
		warnx("IRQ list \"%s\": %s", quoted(arg), pe.msg);
		return EXIT_USAGE;
	}
	if ((rc = procfs_numbers("proc/irq", &all.v, &all.n)) != 0) {
		warnc(-rc, "%s", procfs_path("proc/irq"));
		irqsel_free(sel, nsel);
		return EXIT_FAIL;
	}
	if ((pick = calloc(all.n + 1, sizeof(*pick))) == NULL ||
	    (names = calloc(all.n + 1, sizeof(*names))) == NULL)
		err(EXIT_FAIL, NULL);
	for (i = 0; i < nsel; i++) {
		if (select_item(&sel[i], &all, pick, names) > 0)
			continue;
		if (sel[i].kind == SEL_RANGE && sel[i].lo == sel[i].hi)
			warnx("IRQ %u does not exist", sel[i].lo);
		else if (sel[i].kind == SEL_RANGE)
			warnx("IRQ list \"%s\": no IRQ in %u-%u", quoted(arg),
			    sel[i].lo, sel[i].hi);
		else if (sel[i].kind == SEL_DEV)
			warnx("IRQ list \"%s\": device %s has no IRQs or "
			    "does not exist", quoted(arg), quoted(sel[i].arg));
		else if (sel[i].kind == SEL_GLOB)
			warnx("IRQ list \"%s\": \"%s\" matches no IRQ",
			    quoted(arg), quoted(sel[i].arg));
		else
			warnx("IRQ list \"%s\": there are no IRQs",
			    quoted(arg));
		status = EXIT_USAGE;
		break;
	}
	if (status == EXIT_OK) {
		if ((out->v = calloc(all.n + 1, sizeof(*out->v))) == NULL)
			err(EXIT_FAIL, NULL);
		for (i = k = 0; i < all.n; i++)
			if (pick[i])
				out->v[k++] = all.v[i];
		out->n = k;
	}
	names_free(names, all.n);
	free(pick);
	irqs_free(&all);
	irqsel_free(sel, nsel);
	return status;
}

/* What a failed write means, in the kernel's terms (kernel/irq/proc.c). */
static const char *
explain(int e)
{
	switch (e) {
	case EIO:
	case EPERM:
		return "the affinity of this IRQ is managed by its driver "
		    "or cannot be moved";
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

static char *
format(const struct cpuset *s, bool mask)
{
	char *t;

	if ((t = mask ? cpumask_format(s) : cpulist_format(s)) == NULL)
		err(EXIT_FAIL, NULL);
	return t;
}

static char *
with_newline(const char *s)
{
	char *t;

	if (asprintf(&t, "%s\n", s) < 0)
		err(EXIT_FAIL, NULL);
	return t;
}

static int
parse_as(struct cpuset *set, const char *text, bool mask)
{
	return mask ? cpumask_parse(set, text, NULL) :
	    cpulist_parse(set, text, NULL);
}

enum { UNCHANGED, CHANGED, FAILED };

/*
 * Reads the file, leaves it alone when it already holds the set, writes
 * it otherwise and reads it back. listrel may be NULL: masks only.
 */
static int
write_one(struct machine *m, const char *label, const char *listrel,
    const char *maskrel, const struct cpuset *want, int flags)
{
	struct cpuset *cur = xcpuset(m->nbits);
	struct pfile pf;
	const char *rel, *was;
	char *text, *line, *now, *curtext = NULL;
	bool mask = listrel == NULL;
	int rc, result = FAILED;

	text = format(want, false);
	if (!mask && strlen(text) > LIST_MAX)
		mask = true;
	rel = mask ? maskrel : listrel;
	rc = pfile_open(&pf, rel, !(flags & APPLY_DRYRUN));
	if (rc == -ENOENT && !mask) {
		mask = true;
		rel = maskrel;
		rc = pfile_open(&pf, rel, !(flags & APPLY_DRYRUN));
	}
	if (rc != 0) {
		warnc(-rc, "%s: %s", label, procfs_path(rel));
		goto out;
	}
	/* "-" for an empty set, as show prints it */
	if ((rc = parse_as(cur, pf.buf, mask)) != 0)
		was = "?";
	else if (cpuset_empty(cur))
		was = "-";
	else
		was = curtext = format(cur, false);
	if (rc == 0 && cpuset_equal(cur, want)) {
		if (flags & APPLY_VERBOSE)
			printf("%s: %s unchanged\n", label, was);
		result = UNCHANGED;
	} else if (flags & APPLY_DRYRUN) {
		printf("%s: %s -> %s\n", label, was, text);
		result = CHANGED;
	} else {
		line = with_newline(mask ? (now = format(want, true)) : text);
		if (mask)
			free(now);
		if ((rc = pfile_write(&pf, line)) != 0) {
			if (explain(-rc) != NULL)
				warnx("%s: cannot set %s: %s (%s)", label, text,
				    explain(-rc), strerror(-rc));
			else
				warnc(-rc, "%s: cannot set %s: %s", label,
				    text, procfs_path(rel));
		} else if (parse_as(cur, pf.buf, mask) != 0 ||
		    !cpuset_equal(cur, want)) {
			pf.buf[strcspn(pf.buf, "\n")] = '\0';
			warnx("%s: wrote %s, but %s reads back \"%s\"", label,
			    text, procfs_path(rel), quoted(pf.buf));
		} else {
			if (flags & APPLY_VERBOSE)
				printf("%s: %s -> %s\n", label, was, text);
			result = CHANGED;
		}
		free(line);
	}
	free(curtext);
	pfile_close(&pf);
out:
	free(text);
	cpuset_free(cur);
	return result;
}

/* 0 all done, 1 nothing done, 3 some done and some failed. */
int
apply_status(size_t failed, size_t total)
{
	if (failed == 0)
		return EXIT_OK;
	return failed == total ? EXIT_FAIL : EXIT_PARTIAL;
}

int
apply(struct machine *m, const struct change *c, size_t n, int flags)
{
	char label[32], list[64], mask[64];
	size_t i, failed = 0;

	for (i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "irq %u", c[i].irq);
		snprintf(list, sizeof(list), "proc/irq/%u/smp_affinity_list",
		    c[i].irq);
		snprintf(mask, sizeof(mask), "proc/irq/%u/smp_affinity",
		    c[i].irq);
		if (write_one(m, label, list, mask, c[i].want, flags) ==
		    FAILED)
			failed++;
	}
	if (fflush(stdout) != 0)
		err(EXIT_FAIL, "standard output");
	return apply_status(failed, n);
}

int
apply_file(struct machine *m, const char *label, const char *rel, bool mask,
    const struct cpuset *want, int flags)
{
	int r;

	r = write_one(m, label, mask ? NULL : rel, rel, want, flags);
	if (fflush(stdout) != 0)
		err(EXIT_FAIL, "standard output");
	return r == FAILED ? EXIT_FAIL : EXIT_OK;
}
