/*
 * Which IRQs: the ones the kernel has (the numbered directories of
 * proc/irq), their action names, the IRQs of a device, and what a
 * selector picks among them.
 */
#include <err.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/irqsel.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

void
select_free(struct irqs *s)
{
	size_t i;

	for (i = 0; i < s->ndevs; i++)
		free(s->devs[i]);
	free(s->devs);
	free(s->alone);
	free(s->v);
	*s = (struct irqs){ 0 };
}

/* Whether the selection's item named v[i] by its number alone. */
bool
select_alone(const struct irqs *s, size_t i)
{
	return s->alone != NULL && s->alone[i];
}

/* Whether the selection has the item dev:NAME. */
bool
select_dev_named(const struct irqs *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ndevs; i++)
		if (strcmp(s->devs[i], name) == 0)
			return true;
	return false;
}

/* Binary search; *at, when given, is the index of irq. */
bool
select_find(const struct irqs *s, unsigned int irq, size_t *at)
{
	size_t lo = 0, hi = s->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->v[mid] == irq) {
			if (at != NULL)
				*at = mid;
			return true;
		}
		if (s->v[mid] < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Every IRQ the kernel has. 0, or a negative errno after saying why. */
int
select_all(struct irqs *out)
{
	int rc;

	*out = (struct irqs){ 0 };
	if ((rc = procfs_numbers(PATH_PROC_IRQ, &out->v, &out->n)) != 0) {
		out->v = NULL;
		out->n = 0;
		warnc(-rc, "%s", procfs_path(PATH_PROC_IRQ));
	}
	return rc;
}

/* The action names of an IRQ, sorted: the directories in proc/irq/N. */
int
select_actions(unsigned int irq, char ***names, size_t *n)
{
	char rel[64];
	int rc;

	snprintf(rel, sizeof(rel), PATH_PROC_IRQ_N, irq);
	if ((rc = procfs_dir(rel, true, names, n)) != 0) {
		*names = NULL;
		*n = 0;
	}
	return rc;
}

void
select_actions_free(char **names, size_t n)
{
	procfs_dir_free(names, n);
}

/* The action names joined by ", ", as /proc/interrupts shows them. */
char *
select_names(unsigned int irq)
{
	char **names, *s;
	size_t n, i, len = 1;

	select_actions(irq, &names, &n);
	for (i = 0; i < n; i++)
		len += strlen(names[i]) + 2;
	s = xcalloc(1, len);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strlcat(s, ", ", len);
		strlcat(s, names[i], len);
	}
	select_actions_free(names, n);
	return s;
}

/*
 * Names before addresses, which spread and show prefer them to. A PCI
 * address holds a ':', which no interface name may (net/core/dev.c
 * dev_valid_name()), so the addresses' place changes no lookup.
 */
const struct devclass select_classes[] = {
	{ PATH_SYS_NET, DEVCLASS_NAMED },
	{ PATH_SYS_NVME, DEVCLASS_NAMED },
	{ PATH_SYS_BLOCK, DEVCLASS_DISK },
	{ PATH_SYS_PCI, DEVCLASS_ADDRESS },
};
const size_t select_nclasses = nitems(select_classes);

/* A directory that holds a device's interrupts: msi_irqs or irq. */
static bool
has_irqs(const char *dir)
{
	char rel[PATH_MAX + 16];

	snprintf(rel, sizeof(rel), PATH_DEV_MSI_IRQS, dir);
	if (procfs_exists(rel))
		return true;
	snprintf(rel, sizeof(rel), PATH_DEV_IRQ, dir);
	return procfs_exists(rel);
}

/*
 * The directory of the device whose interrupts serve the one listed at
 * rel: the first that has any of the device and its parents, walking up
 * its path under sys/devices as sysfs-rules.rst says to find a parent.
 * An interface's parent is the PCI function (.../0000:3b:00.0/net/eth0),
 * or a virtio device on one (.../0000:00:03.0/virtio2/net/eth0: drivers/
 * virtio/virtio_pci_common.c requests the vectors on the function, named
 * "virtio2-config", "virtio2-input.0"); an NVMe disk's is its controller
 * (.../0000:3d:00.0/nvme/nvme0/nvme0n1). False, buf undefined, if none
 * has.
 */
static bool
irq_dir(const char *rel, char *buf, size_t size)
{
	char *slash;

	if (procfs_realpath(rel, buf, size) != 0)
		return false;
	while (strncmp(buf, PATH_SYS_DEVICES "/",
	    strlen(PATH_SYS_DEVICES "/")) == 0) {
		if (has_irqs(buf))
			return true;
		if ((slash = strrchr(buf, '/')) == NULL)
			break;
		*slash = '\0';
	}
	return false;
}

/* A device's legacy interrupt line, when it has no MSI. */
static void
legacy_irq(const char *dir, struct irqs *out)
{
	char rel[PATH_MAX + 16];
	int irq;

	snprintf(rel, sizeof(rel), PATH_DEV_IRQ, dir);
	if (procfs_int(rel, 1, INT_MAX, &irq) != 0)
		return;
	out->v = xcalloc(1, sizeof(*out->v));
	out->v[0] = irq;
	out->n = 1;
}

/*
 * The IRQs of a network interface, NVMe controller, disk or PCI address:
 * the msi_irqs entries or else the legacy irq of the device, or of the
 * device above it that has its interrupts (see irq_dir()). *dirp, when
 * given, becomes the directory they were found in, or the device's own
 * if none was (the caller frees it). 0, or -ENOENT silently.
 */
int
select_device_irqs(const char *name, struct irqs *out, char **dirp)
{
	char dir[512], idir[PATH_MAX], rel[PATH_MAX + 16];
	size_t i;
	bool found;

	*out = (struct irqs){ 0 };
	for (i = 0; i < select_nclasses; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", select_classes[i].dir,
		    name);
		if (procfs_exists(dir))
			break;
	}
	if (i == select_nclasses)
		return -ENOENT;
	found = irq_dir(dir, idir, sizeof(idir));
	if (dirp != NULL)
		*dirp = xstrdup(found ? idir : dir);
	if (!found)
		return 0;
	snprintf(rel, sizeof(rel), PATH_DEV_MSI_IRQS, idir);
	if (procfs_numbers(rel, &out->v, &out->n) == 0 && out->n > 0)
		return 0;
	select_free(out);
	legacy_irq(idir, out);
	return 0;
}

/* The action names of every IRQ, read once, when a glob needs them. */
struct names {
	char	**v;
	size_t	  n;
	bool	  read;
};

static bool
glob_matches(const char *glob, unsigned int irq, struct names *nm)
{
	size_t k;

	if (!nm->read) {
		select_actions(irq, &nm->v, &nm->n);
		nm->read = true;
	}
	for (k = 0; k < nm->n; k++)
		if (fnmatch(glob, nm->v[k], 0) == 0)
			return true;
	return false;
}

/* A cpu: item's CPUs, and room to read an IRQ's. */
struct oncpus {
	struct cpuset	*want;
	struct cpuset	*set;
	struct cpuset	*online;
};

/*
 * Whether an IRQ runs on one of the CPUs: its effective CPUs, or its
 * requested ones when the kernel has no effective_affinity files; online
 * ones only, none for a parked managed IRQ (machine_effective_read()).
 */
static bool
runs_on(unsigned int irq, struct oncpus *on)
{
	struct perr pe;
	int rc;

	if ((rc = machine_effective_read(on->online, irq, on->set,
	    &pe)) == -ENOENT &&
	    (rc = machine_affinity_read(irq, AFF_REQUESTED, on->set,
	    &pe)) == 0)
		cpuset_and(on->set, on->online);
	/* -ENOENT: the IRQ is gone */
	if (rc != 0 && rc != -ENOENT)
		warnx("irq %u: %s", irq, pe.msg);
	return rc == 0 && cpuset_intersects(on->set, on->want);
}

/*
 * The CPUs of a cpu: item, the text after "cpu:", read as every CPU set
 * operand is. 0, or after saying why -EINVAL for a bad set, -EIO when
 * the machine's CPUs cannot be known.
 */
static int
oncpus_read(const char *arg, const char *text, struct oncpus *on)
{
	struct machine m;
	struct perr pe;
	int rc = 0;

	if (machine_load(&m) != 0) {
		machine_free(&m);
		return -EIO;
	}
	on->want = xcpuset(m.nbits);
	on->set = xcpuset(m.nbits);
	on->online = xcpudup(m.online);
	if (machine_cpus(&m, text, CPUS_NONEMPTY, on->want, &pe) != 0) {
		warnx("IRQ list \"%s\": %s", text_quoted(arg), pe.msg);
		rc = -EINVAL;
	}
	machine_free(&m);
	return rc;
}

/*
 * Marks what one selector item picks, and in alone an IRQ it names by
 * its number alone; returns how many it picked.
 */
static size_t
pick_item(const struct irqsel *it, const struct irqs *all, bool *pick,
    bool *alone, struct names *names, struct oncpus *on)
{
	struct irqs dev;
	size_t i, at, hits = 0;
	bool hit;

	if (it->kind == SEL_DEV) {
		if (select_device_irqs(it->arg, &dev, NULL) != 0)
			return 0;
		for (i = 0; i < dev.n; i++)
			if (select_find(all, dev.v[i], &at)) {
				pick[at] = true;
				hits++;
			}
		select_free(&dev);
		return hits;
	}
	for (i = 0; i < all->n; i++) {
		if (it->kind == SEL_ALL)
			hit = true;
		else if (it->kind == SEL_RANGE)
			hit = all->v[i] >= it->lo && all->v[i] <= it->hi;
		else if (it->kind == SEL_CPU)
			hit = runs_on(all->v[i], on);
		else
			hit = glob_matches(it->arg, all->v[i], &names[i]);
		pick[i] |= hit;
		alone[i] |= hit && it->kind == SEL_RANGE && it->lo == it->hi;
		hits += hit;
	}
	return hits;
}

/* The longest start that every action name of the IRQs shares. */
static char *
common_start(const struct irqs *dev, bool *same)
{
	char **v, *start = NULL;
	size_t n, i, k, len;

	*same = true;
	for (i = 0; i < dev->n; i++) {
		select_actions(dev->v[i], &v, &n);
		for (k = 0; k < n; k++) {
			if (start == NULL) {
				start = xstrdup(v[k]);
				continue;
			}
			*same &= strcmp(start, v[k]) == 0;
			for (len = 0; start[len] == v[k][len] &&
			    start[len] != '\0'; len++)
				continue;
			start[len] = '\0';
		}
		select_actions_free(v, n);
	}
	return start;
}

/*
 * The device a glob may have meant, in name: the glob's plain start,
 * without the separators that end it (eth0 for eth0-* or eth0), else its
 * start up to the first '-' (eth0 for eth0-TxRx-*). False if none is.
 */
static bool
glob_device(const char *glob, char *name, size_t size, struct irqs *dev)
{
	size_t len = strcspn(glob, "*?[\\"), pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			len = strcspn(name, "-");
		while (len > 0 && strchr("-_.:", glob[len - 1]) != NULL)
			len--;
		if (len == 0 || len >= size)
			return false;
		memcpy(name, glob, len);
		name[len] = '\0';
		if (strchr(name, '/') == NULL &&
		    select_device_irqs(name, dev, NULL) == 0)
			return true;
	}
	return false;
}

/*
 * A glob that matches no IRQ but names a device, as eth0-* or eth0 for an
 * interface whose IRQs are virtio1-input.0, ...: the hint to write after
 * the error, else "".
 */
static void
near_miss(const char *glob, char *hint, size_t size)
{
	char name[NAME_MAX + 1], qname[264], *start = NULL;
	struct irqs dev;
	bool same;

	hint[0] = '\0';
	if (!glob_device(glob, name, sizeof(name), &dev))
		return;
	/* eth0-TxRx-9 of an igb eth0 is a queue it lacks: no hint */
	if (dev.n > 0 && (start = common_start(&dev, &same)) != NULL &&
	    strncmp(start, name, strlen(name)) != 0) {
		strlcpy(qname, text_quoted(name), sizeof(qname));
		if (*start == '\0')
			snprintf(hint, size, "; %s's IRQs have other names: "
			    "try dev:%s", qname, qname);
		else
			snprintf(hint, size, "; %s's IRQs are named %s%s: "
			    "try dev:%s", qname, text_quoted(start), same ? ""
			    : "*", qname);
	}
	free(start);
	select_free(&dev);
}

/* How pick_irqs() takes an item that picks nothing. */
enum {
	SELECT_QUEUES = 1,	/* a dev: item may name an interface's queues */
	SELECT_QUERY = 2,	/* a question: a note, no error */
	SELECT_QUIET = 4,	/* with SELECT_QUERY: not even a note */
};

/*
 * Says why an item picked nothing: an error, or with SELECT_QUERY a note
 * for a name or number that may be a typo, nothing for cpu: and all,
 * whose answer "none" is no mistake.
 */
static void
nothing_picked(const char *arg, const struct irqsel *it,
    const struct oncpus *on, int flags)
{
	const char *pfx = flags & SELECT_QUERY ? "note: " : "";
	char *list, hint[640];

	if ((flags & SELECT_QUERY) && ((flags & SELECT_QUIET) ||
	    it->kind == SEL_CPU || it->kind == SEL_ALL))
		return;
	if (it->kind == SEL_RANGE && it->lo == it->hi)
		warnx("%sIRQ %u does not exist", pfx, it->lo);
	else if (it->kind == SEL_RANGE)
		warnx("%sIRQ list \"%s\": no IRQ in %u-%u", pfx,
		    text_quoted(arg), it->lo, it->hi);
	else if (it->kind == SEL_DEV)
		warnx("%sIRQ list \"%s\": device %s has no IRQs or does not "
		    "exist", pfx, text_quoted(arg), text_quoted(it->arg));
	else if (it->kind == SEL_GLOB) {
		near_miss(it->arg, hint, sizeof(hint));
		warnx("%sIRQ list \"%s\": \"%s\" matches no IRQ%s", pfx,
		    text_quoted(arg), text_quoted(it->arg), hint);
	} else if (it->kind == SEL_CPU) {
		list = xformat(on->want, false);
		warnx("IRQ list \"%s\": no IRQ runs on CPU %s",
		    text_quoted(arg), list);
		free(list);
	} else
		warnx("IRQ list \"%s\": there are no IRQs", text_quoted(arg));
}

static void
add_dev(struct irqs *s, const char *name)
{
	s->devs = xreallocarray(s->devs, s->ndevs + 1, sizeof(*s->devs));
	s->devs[s->ndevs++] = xstrdup(name);
}

/* Whether a dev: item names a network interface (sys/class/net/NAME). */
static bool
is_netif(const char *name)
{
	char rel[PATH_MAX];

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    strchr(name, '/') != NULL || strlen(name) > NAME_MAX)
		return false;
	snprintf(rel, sizeof(rel), PATH_NET_IF, name);
	return procfs_exists(rel);
}

/* The selection: the IRQs picked, those named alone, the dev: items. */
static void
keep_picked(struct irqs *out, const struct irqs *all, const bool *pick,
    const bool *alone, const struct irqsel *sel, size_t nsel)
{
	size_t i, k;

	out->v = xcalloc(all->n + 1, sizeof(*out->v));
	out->alone = xcalloc(all->n + 1, sizeof(*out->alone));
	for (i = k = 0; i < all->n; i++)
		if (pick[i]) {
			out->alone[k] = alone[i];
			out->v[k++] = all->v[i];
		}
	out->n = k;
	for (i = 0; i < nsel; i++)
		if (sel[i].kind == SEL_DEV)
			add_dev(out, sel[i].arg);
}

/*
 * The IRQs a selector picks among those that exist; every item must
 * pick one, but with SELECT_QUEUES a dev: item that names a network
 * interface, whose queues it then selects, and with SELECT_QUERY any
 * (nothing_picked() notes it). 0, or after saying why -EINVAL for a bad
 * selector, -ENOENT for one that picks nothing, another negative errno
 * when proc/irq or the machine's CPUs are unreadable.
 */
static int
pick_irqs(const char *arg, struct irqs *out, int flags)
{
	struct irqs all;
	struct oncpus on = { NULL, NULL, NULL };
	struct irqsel *sel;
	struct names *names;
	struct perr pe;
	size_t nsel, i;
	bool *pick, *alone;
	int rc;

	*out = (struct irqs){ 0 };
	if ((rc = xparsed(irqsel_parse(arg, &sel, &nsel, &pe))) != 0) {
		warnx("IRQ list \"%s\": %s", text_quoted(arg), pe.msg);
		return -EINVAL;
	}
	/* only the last item can be cpu: */
	if ((sel[nsel - 1].kind == SEL_CPU &&
	    (rc = oncpus_read(arg, sel[nsel - 1].arg, &on)) != 0) ||
	    (rc = select_all(&all)) != 0) {
		cpuset_free(on.want);
		cpuset_free(on.set);
		cpuset_free(on.online);
		irqsel_free(sel, nsel);
		return rc;
	}
	pick = xcalloc(all.n, sizeof(*pick));
	alone = xcalloc(all.n, sizeof(*alone));
	names = xcalloc(all.n, sizeof(*names));
	for (i = 0; rc == 0 && i < nsel; i++)
		if (pick_item(&sel[i], &all, pick, alone, names, &on) == 0 &&
		    !((flags & SELECT_QUEUES) && sel[i].kind == SEL_DEV &&
		    is_netif(sel[i].arg))) {
			nothing_picked(arg, &sel[i], &on, flags);
			if (!(flags & SELECT_QUERY))
				rc = -ENOENT;
		}
	if (rc == 0)
		keep_picked(out, &all, pick, alone, sel, nsel);
	for (i = 0; i < all.n; i++)
		select_actions_free(names[i].v, names[i].n);
	free(names);
	free(alone);
	free(pick);
	cpuset_free(on.want);
	cpuset_free(on.set);
	cpuset_free(on.online);
	select_free(&all);
	irqsel_free(sel, nsel);
	return rc;
}

/* Adds one selection to another: two sorted sets, and what they named. */
static void
merge(struct irqs *out, const struct irqs *one)
{
	struct irqs sum = { NULL, 0, NULL, out->devs, out->ndevs };
	size_t i, j, k;
	bool a;

	sum.v = xcalloc(out->n + one->n + 1, sizeof(*sum.v));
	sum.alone = xcalloc(out->n + one->n + 1, sizeof(*sum.alone));
	for (i = j = k = 0; i < out->n || j < one->n; k++) {
		if (j == one->n || (i < out->n && out->v[i] < one->v[j])) {
			a = select_alone(out, i);
			sum.v[k] = out->v[i++];
		} else if (i == out->n || one->v[j] < out->v[i]) {
			a = select_alone(one, j);
			sum.v[k] = one->v[j++];
		} else {
			a = select_alone(out, i) || select_alone(one, j);
			sum.v[k] = out->v[i++];
			j++;
		}
		sum.alone[k] = a;
	}
	sum.n = k;
	for (i = 0; i < one->ndevs; i++)
		add_dev(&sum, one->devs[i]);
	out->devs = NULL;
	out->ndevs = 0;
	select_free(out);
	*out = sum;
}

/*
 * Several IRQ-list operands, as users type them (explain nvme0q1 nvme0q2):
 * one union. Every operand is checked, each error said; the first bad
 * selector's -EINVAL is returned, else the first other error.
 */
static int
pick_many(int argc, char *argv[], struct irqs *out, int flags)
{
	struct irqs one;
	int n, rc, first = 0;

	*out = (struct irqs){ 0 };
	for (n = 0; n < argc; n++) {
		if ((rc = pick_irqs(argv[n], &one, flags)) != 0) {
			if (first == 0 || (rc == -EINVAL && first != -EINVAL))
				first = rc;
			continue;
		}
		merge(out, &one);
		select_free(&one);
	}
	if (first != 0)
		select_free(out);
	return first;
}

int
select_many(int argc, char *argv[], struct irqs *out)
{
	return pick_many(argc, argv, out, 0);
}

/*
 * As select_many(), for commands that only read (show, explain): a
 * selection may be empty, the answer to a question, which its caller
 * prints and then exits 1, as grep. A name or number that picks nothing
 * gets a note unless quiet; a bad selector is still -EINVAL.
 */
int
select_query_many(int argc, char *argv[], struct irqs *out, bool quiet)
{
	return pick_many(argc, argv, out,
	    SELECT_QUERY | (quiet ? SELECT_QUIET : 0));
}

int
select_irqs(const char *arg, struct irqs *out)
{
	return pick_irqs(arg, out, 0);
}

/*
 * As select_irqs(), for the commands that take queue lines (--only of
 * save, restore and check): a dev: item for an interface without IRQs of
 * its own (a USB or platform NIC) selects its queues and no IRQ.
 */
int
select_queues(const char *arg, struct irqs *out)
{
	return pick_irqs(arg, out, SELECT_QUEUES);
}
