/*
 * The machine as the kernel describes it: its CPUs and NUMA nodes, the
 * CPU sets users name, and the affinity an IRQ has. Functions say what
 * went wrong themselves, except those that return a sentence in struct
 * perr for the caller to place.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/machine.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

/*
 * A CPU list file; "(null)" (an empty nohz_full: "%*pbl" of a NULL mask,
 * padded to nr_cpu_ids columns by lib/vsprintf.c check_pointer()) is the
 * empty set.
 */
static int
read_list(const char *rel, struct cpuset *set)
{
	struct perr pe;
	char *buf;
	int rc;

	if ((rc = procfs_read(rel, &buf)) != 0)
		return rc;
	if (strncmp(buf + strspn(buf, " "), "(null)", 6) == 0)
		cpuset_zero(set);
	else if ((rc = cpulist_parse(set, buf, &pe)) != 0)
		warnx("%s: %s", procfs_path(rel), pe.msg);
	free(buf);
	return rc;
}

/* nr_cpu_ids: the last possible CPU plus one. 0 or -1, said why. */
int
machine_width(unsigned int *nbits)
{
	struct cpuset *wide = xcpuset(CPUSET_MAXBITS);
	int rc, last;

	rc = read_list(PATH_CPU_POSSIBLE, wide);
	last = cpuset_last(wide);
	cpuset_free(wide);
	if (rc < 0 && rc != -EINVAL)
		warnc(-rc, "%s", procfs_path(PATH_CPU_POSSIBLE));
	if (rc != 0)
		return -1;
	if (last < 0) {
		warnx("%s: no CPUs", procfs_path(PATH_CPU_POSSIBLE));
		return -1;
	}
	*nbits = last + 1;
	return 0;
}

/* A CPU list file at the machine's width, or NULL. */
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

/* 0, or -1 when the possible CPUs cannot be known (said why). */
int
machine_load(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	if (machine_width(&m->nbits) != 0)
		return -1;
	if ((m->possible = machine_file(m, PATH_CPU_POSSIBLE)) == NULL)
		return -1;
	if ((m->online = machine_file(m, PATH_CPU_ONLINE)) == NULL)
		m->online = xcpudup(m->possible);
	if ((m->sys_isolated = machine_file(m, PATH_CPU_ISOLATED)) == NULL)
		m->sys_isolated = xcpuset(m->nbits);
	if ((m->sys_nohz = machine_file(m, PATH_CPU_NOHZ_FULL)) == NULL)
		m->sys_nohz = xcpuset(m->nbits);
	m->isolated = xcpudup(m->sys_isolated);
	cpuset_or(m->isolated, m->sys_nohz);
	return 0;
}

void
machine_free(struct machine *m)
{
	size_t i;

	for (i = 0; i < m->nnodes; i++)
		cpuset_free(m->nodes[i].cpus);
	free(m->nodes);
	cpuset_free(m->possible);
	cpuset_free(m->online);
	cpuset_free(m->isolated);
	cpuset_free(m->sys_isolated);
	cpuset_free(m->sys_nohz);
	memset(m, 0, sizeof(*m));
}

/* Every nodeN directory with a readable cpulist (drivers/base/node.c). */
static void
read_nodes(struct machine *m)
{
	const char *errstr;
	struct cpuset *cpus;
	char **names, rel[96];
	size_t n, i;
	long long id;

	m->nodes_read = true;
	if (procfs_dir(PATH_SYS_NODE, true, &names, &n) != 0)
		return;
	m->nodes = xcalloc(n, sizeof(*m->nodes));
	for (i = 0; i < n; i++) {
		if (strncmp(names[i], "node", 4) != 0)
			continue;
		id = strtonum(names[i] + 4, 0, 65535, &errstr);
		if (errstr != NULL)
			continue;
		snprintf(rel, sizeof(rel), PATH_NODE_CPULIST, (int)id);
		if ((cpus = machine_file(m, rel)) == NULL)
			continue;
		m->nodes[m->nnodes++] = (struct node){ id, cpus };
	}
	procfs_dir_free(names, n);
}

/* The CPUs of a NUMA node, or NULL when it has none the kernel shows. */
const struct cpuset *
machine_node(struct machine *m, int id)
{
	size_t i;

	if (!m->nodes_read)
		read_nodes(m);
	for (i = 0; i < m->nnodes; i++)
		if (m->nodes[i].id == id)
			return m->nodes[i].cpus;
	return NULL;
}

/* The node of a CPU, or -1. */
int
machine_cpu_node(struct machine *m, int cpu)
{
	size_t i;

	if (!m->nodes_read)
		read_nodes(m);
	for (i = 0; i < m->nnodes; i++)
		if (cpu >= 0 && cpuset_test(m->nodes[i].cpus, cpu))
			return m->nodes[i].id;
	return -1;
}

size_t
machine_nnodes(struct machine *m)
{
	if (!m->nodes_read)
		read_nodes(m);
	return m->nnodes;
}

/*
 * node:K items are NUMA nodes; the rest is one kernel CPU list, whose
 * items that do not start with "all" name CPUs by number (numbered).
 */
static int
cpus_nodes(struct machine *m, const char *arg, struct cpuset *out,
    struct cpuset *numbered, struct perr *pe)
{
	struct cpuset *node = xcpuset(m->nbits);
	const char *errstr;
	char *copy = xstrdup(arg), *rest, *whole, *dst, *item, *p, rel[96];
	size_t size = strlen(arg) + 2;
	long long k;
	int rc = 0;

	rest = xcalloc(1, size);
	whole = xcalloc(1, size);
	cpuset_zero(out);
	for (p = copy; rc == 0 && (item = strsep(&p, ",")) != NULL;) {
		if (strncmp(item, "node:", 5) != 0) {
			dst = strncasecmp(item, "all", 3) == 0 ? whole : rest;
			strlcat(dst, ",", size);
			strlcat(dst, item, size);
			continue;
		}
		k = strtonum(item + 5, 0, 65535, &errstr);
		if (errstr != NULL) {
			rc = perr_set(pe, EINVAL,
			    "\"%s\" is not a NUMA node", text_quoted(item));
			break;
		}
		snprintf(rel, sizeof(rel), PATH_NODE_CPULIST, (int)k);
		if (read_list(rel, node) != 0)
			rc = perr_set(pe, ENOENT,
			    "NUMA node %lld does not exist", k);
		else
			cpuset_or(out, node);
	}
	if (rc == 0 && (rc = cpulist_parse(node, rest, pe)) == 0) {
		cpuset_or(out, node);
		if (numbered != NULL)
			cpuset_copy(numbered, node);
	}
	if (rc == 0 && *whole && (rc = cpulist_parse(node, whole, pe)) == 0)
		cpuset_or(out, node);
	cpuset_free(node);
	free(copy);
	free(rest);
	free(whole);
	return rc;
}

int
machine_cpus(struct machine *m, const char *arg, int flags,
    struct cpuset *out, struct perr *pe)
{
	return machine_cpus_numbered(m, arg, flags, out, NULL, pe);
}

/*
 * Every CPU-set operand: a kernel list with node:K items, a mask when it
 * starts with 0x or CPUS_MASK is given, or "none". With CPUS_ONLINE it
 * must name an online CPU: the kernel would otherwise fall back to its
 * default affinity in silence. The sentence in pe names the operand.
 * numbered, when given, gets the CPUs named by number: a mask's, and
 * those of list items other than node:K and all.
 */
/*
 * taskset's habit, a mask where a list is expected ("ff"): how to say it
 * as a mask, or "" when arg does not look like one.
 */
static void
mask_hint(const char *arg, int flags, char *buf, size_t size)
{
	const char *opt = flags & CPUS_MOPT ? " or use -m" : "";

	*buf = '\0';
	if (arg[strspn(arg, "0123456789abcdefABCDEF,")] != '\0' ||
	    strpbrk(arg, "abcdefABCDEF") == NULL)
		return;
	if (strchr(arg, ',') != NULL && *opt)
		snprintf(buf, size, "; for a kernel mask, use -m");
	else if (strchr(arg, ',') == NULL)
		snprintf(buf, size, "; for a mask, write 0x%s%s", arg, opt);
}

/*
 * What the kernel's grammar lets pass in a file but an operand never
 * means: an empty item ("4,", ",4", "4,,5"), as in an IRQ list, and
 * blanks, which bitmap_parselist() takes as commas ("4 5").
 */
static int
operand_shape(const char *arg, struct perr *why)
{
	size_t len = strlen(arg);

	if (arg[strcspn(arg, " \t\v\f\r")] != '\0')
		return perr_set(why, EINVAL, "a blank in it: separate items "
		    "with commas");
	if (len > 0 && (arg[0] == ',' || arg[len - 1] == ',' ||
	    strstr(arg, ",,") != NULL))
		return perr_set(why, EINVAL, "empty item");
	return 0;
}

/* How a CPU-set operand is read, as its messages name it: "list", "mask". */
const char *
machine_cpus_kind(const char *arg, int flags)
{
	return (flags & CPUS_MASK) || strncasecmp(arg, "0x", 2) == 0 ?
	    "mask" : "list";
}

int
machine_cpus_numbered(struct machine *m, const char *arg, int flags,
    struct cpuset *out, struct cpuset *numbered, struct perr *pe)
{
	const char *kind = machine_cpus_kind(arg, flags);
	bool mask = strcmp(kind, "mask") == 0;
	struct perr why;
	char hint[96];
	int rc;

	if (numbered != NULL)
		cpuset_zero(numbered);
	/* the kernel stops at a newline; an argument is used whole */
	if (strcspn(arg, "\n") + 1 < strlen(arg))
		rc = perr_set(&why, EINVAL, "a newline before the end");
	else if ((rc = operand_shape(arg, &why)) != 0)
		;
	else if (strcmp(arg, "none") == 0) {
		/* no CPU: what clears a queue's XPS or RPS */
		cpuset_zero(out);
		rc = 0;
	} else if (mask) {
		rc = cpumask_parse(out, arg, &why);
		if (rc == 0 && numbered != NULL)
			cpuset_copy(numbered, out);
	} else
		rc = cpus_nodes(m, arg, out, numbered, &why);
	if (rc == 0 && (flags & (CPUS_NONEMPTY | CPUS_ONLINE)) &&
	    cpuset_empty(out))
		rc = perr_set(&why, EINVAL, "selects no CPU");
	else if (rc == 0 && (flags & CPUS_ONLINE) &&
	    !cpuset_intersects(out, m->online))
		rc = perr_set(&why, EINVAL, "selects no online CPU");
	if (rc != 0) {
		mask_hint(mask ? "" : arg, flags, hint, sizeof(hint));
		return perr_set(pe, why.code, "CPU %s \"%s\": %s%s", kind,
		    text_quoted(arg), why.msg, hint);
	}
	return 0;
}

/* One note for the offline CPUs of a set about to be written. */
void
machine_note_offline(const struct machine *m, const struct cpuset *set)
{
	struct cpuset *off = xcpudup(set);
	char *list;

	cpuset_andnot(off, m->online);
	if (!cpuset_empty(off)) {
		list = xformat(off, false);
		warnx("note: CPU %s %s offline", list,
		    cpuset_count(off) == 1 ? "is" : "are");
		free(list);
	}
	cpuset_free(off);
}

/* A set from a file, as a list or a mask; the sentence names the file. */
static int
parse_set(const char *rel, const char *buf, bool list, struct cpuset *set,
    struct perr *pe)
{
	struct perr why;
	int rc;

	rc = list ? cpulist_parse(set, buf, &why) :
	    cpumask_parse(set, buf, &why);
	if (rc != 0)
		return perr_set(pe, why.code, "%s: %s", procfs_path(rel),
		    why.msg);
	return 0;
}

static int
read_set(const char *rel, bool list, struct cpuset *set, struct perr *pe)
{
	char *buf;
	int rc;

	if ((rc = procfs_read(rel, &buf)) != 0)
		return perr_set(pe, -rc, "%s: %s", procfs_path(rel),
		    strerror(-rc));
	rc = parse_set(rel, buf, list, set, pe);
	free(buf);
	return rc;
}

static const char *const affinity_files[] = {
	[AFF_REQUESTED] = "smp_affinity",
	[AFF_EFFECTIVE] = "effective_affinity",
	[AFF_HINT] = "affinity_hint",
};

/*
 * An IRQ's affinity from its _list file, else, when that cannot be read,
 * from the mask file. Returns 0 or a negative errno (-ENOENT: neither
 * file exists).
 */
int
machine_affinity_read(unsigned int irq, enum affinity what, struct cpuset *set,
    struct perr *pe)
{
	static const char *const forms[] = { "_list", "" };
	char rel[96], *buf;
	int rc, first = 0;
	size_t i;

	for (i = 0; i < nitems(forms); i++) {
		snprintf(rel, sizeof(rel), PATH_PROC_IRQ_FILE "%s", irq,
		    affinity_files[what], forms[i]);
		if ((rc = procfs_read(rel, &buf)) == 0) {
			rc = parse_set(rel, buf, i == 0, set, pe);
			free(buf);
			return rc;
		}
		/* the list file's failure, unless it was only missing */
		if (i == 0 || first == -ENOENT) {
			first = rc;
			perr_set(pe, -rc, "%s: %s", procfs_path(rel),
			    strerror(-rc));
		}
	}
	return first;
}

/*
 * Whether an IRQ's effective CPU says nothing of where it runs: a managed
 * IRQ none of whose requested CPUs is online (all offline, or never
 * present) is shut down (kernel/irq/cpuhotplug.c migrate_one_irq(),
 * irq_startup_managed() at boot), and x86 leaves its vector on the first
 * online CPU, which effective_affinity_list then reads. An IRQ user space
 * may move would have been given every online CPU instead: one the kernel
 * cannot be asked about (no debugfs, no root) counts as managed.
 */
static bool
parked(const struct cpuset *online, unsigned int irq,
    const struct cpuset *like)
{
	struct cpuset *req = xcpudup(like);
	enum movable mv;
	bool yes = false;

	if (machine_affinity_read(irq, AFF_REQUESTED, req, NULL) == 0 &&
	    !cpuset_intersects(req, online)) {
		mv = machine_irq_movable(irq);
		yes = mv == MOVABLE_MANAGED || mv == MOVABLE_UNKNOWN;
	}
	cpuset_free(req);
	return yes;
}

/*
 * The online CPUs of an IRQ's effective affinity, none for a parked
 * managed IRQ (parked()); the one rule every command follows. 0 or a
 * negative errno, as machine_affinity_read() (-ENOENT: the kernel has no
 * effective_affinity files).
 */
int
machine_effective_read(const struct cpuset *online, unsigned int irq,
    struct cpuset *set, struct perr *pe)
{
	int rc;

	if ((rc = machine_affinity_read(irq, AFF_EFFECTIVE, set, pe)) != 0)
		return rc;
	cpuset_and(set, online);
	if (!cpuset_empty(set) && parked(online, irq, set))
		cpuset_zero(set);
	return 0;
}

/*
 * Where an IRQ runs: machine_effective_read(), or the online CPUs of its
 * requested affinity where the kernel has no effective_affinity
 * (*guessed, when given). A managed IRQ whose CPUs all went offline is
 * shut down: it runs nowhere, the empty set. 0 or a negative errno, as
 * machine_affinity_read().
 */
int
machine_runs_on_read(const struct machine *m, unsigned int irq,
    struct cpuset *set, bool *guessed, struct perr *pe)
{
	bool g = false;
	int rc;

	if ((rc = machine_effective_read(m->online, irq, set, pe)) ==
	    -ENOENT) {
		g = true;
		if ((rc = machine_affinity_read(irq, AFF_REQUESTED, set,
		    pe)) == 0)
			cpuset_and(set, m->online);
	}
	if (guessed != NULL)
		*guessed = g;
	return rc;
}

/* default_smp_affinity: a mask file only (kernel/irq/proc.c). */
int
machine_default_read(struct cpuset *set, struct perr *pe)
{
	return read_set(PATH_DEFAULT_AFFINITY, false, set, pe);
}

/* The first word of an IRQ's file in /proc/irq/N, owned, or NULL. */
char *
machine_irq_word(unsigned int irq, const char *file)
{
	char rel[96], *buf, *word = NULL;
	size_t len;

	snprintf(rel, sizeof(rel), PATH_PROC_IRQ_FILE, irq, file);
	if (procfs_read(rel, &buf) != 0)
		return NULL;
	/* a copy: the read buffer is 4 KB, 16 MB over 4096 rows */
	if ((len = strcspn(buf, " \t\n")) > 0)
		word = xstrndup(buf, len);
	free(buf);
	return word;
}

/*
 * The node of an IRQ's descriptor, its device's for MSI vectors
 * (kernel/irq/proc.c irq_node_proc_show()); -1 when unknown.
 */
int
machine_irq_node(unsigned int irq)
{
	char rel[64];
	int node;

	snprintf(rel, sizeof(rel), PATH_PROC_IRQ_FILE, irq, "node");
	return procfs_int(rel, 0, 65535, &node) == 0 ? node : -1;
}

/*
 * How every message says that user space cannot move an IRQ (managed,
 * per-CPU or no-balancing), as briefly as asked.
 */
const char *
machine_movable_words(enum movable mv, enum mvwords how)
{
	if (how == MV_WHY && mv == MOVABLE_MANAGED)
		return "managed by the kernel, it cannot be moved by user "
		    "space";
	if (how == MV_WHY && mv == MOVABLE_NO)
		return "it cannot be moved by user space (per-CPU or "
		    "no-balancing)";
	if (how == MV_WHY)
		return "it cannot be moved by user space (kernel-managed, "
		    "per-CPU or no-balancing)";
	if (mv == MOVABLE_MANAGED)
		return how == MV_BRIEF ? "managed" : "managed by the kernel";
	return "cannot be moved by user space";
}

/* A flag of debugfs's state lists, as a whole word on its line. */
static bool
has_flag(const char *buf, const char *flag)
{
	size_t len = strlen(flag);
	const char *p;

	for (p = buf; (p = strstr(p, flag)) != NULL; p += len)
		if ((p == buf || p[-1] == ' ' || p[-1] == '\t' ||
		    p[-1] == '\n') && (p[len] == '\n' || p[len] == '\0' ||
		    p[len] == ' '))
			return true;
	return false;
}

/*
 * What debugfs says of an IRQ (kernel/irq/debugfs.c prints the irq_data
 * state flags by name, one a line): 0 when debugfs is not mounted.
 */
int
machine_irq_state(unsigned int irq)
{
	static int mounted = -1;	/* asked once, not once per IRQ */
	char rel[64], *buf;
	int state = IRQ_KNOWN;

	if (mounted < 0)
		mounted = procfs_exists(PATH_DEBUG_IRQS);
	if (!mounted)
		return 0;
	snprintf(rel, sizeof(rel), PATH_DEBUG_IRQ, irq);
	if (procfs_read(rel, &buf) != 0)
		return 0;
	if (has_flag(buf, "IRQD_AFFINITY_MANAGED"))
		state |= IRQ_MANAGED;
	if (has_flag(buf, "IRQD_SETAFFINITY_PENDING"))
		state |= IRQ_PENDING;
	if (has_flag(buf, "IRQD_PER_CPU") || has_flag(buf, "IRQD_NO_BALANCING"))
		state |= IRQ_NOMOVE;
	free(buf);
	return state;
}

/*
 * Interrupt controller families, by the start of the chip's name, first
 * match wins. Since 6.2 an MSI domain per device names its chip
 * PREFIX-DEVICE ("PCI-MSIX-0000:00:05.0", "IR-PCI-MSIX-0000:00:05.0";
 * kernel/irq/msi.c msi_create_device_irq_domain()); before it, one name
 * for every device ("PCI-MSI", "IR-PCI-MSI", "ITS-MSI"). x86 without
 * interrupt remapping moves an IO-APIC, HPET or MSI interrupt at its next
 * interrupt (irq_move_irq(): no IRQ_MOVE_PCNTXT, or
 * irqd_can_move_in_process_context() false); remapped (IR-) ones and the
 * ARM GIC and its ITS move at once.
 */
static const struct chip_family families[] = {
	{ "IR-PCI-MSIX", CHIP_AT_ONCE, true },
	{ "IR-PCI-MSI", CHIP_AT_ONCE, true },
	{ "IR-", CHIP_AT_ONCE, false },
	{ "ITS-PCI-MSIX", CHIP_AT_ONCE, true },
	{ "ITS-PCI-MSI", CHIP_AT_ONCE, true },
	{ "ITS-MSI", CHIP_AT_ONCE, true },
	{ "ITS-", CHIP_AT_ONCE, false },
	{ "GIC", CHIP_AT_ONCE, false },
	{ "PCI-MSIX", CHIP_NEXT_IRQ, true },
	{ "PCI-MSI", CHIP_NEXT_IRQ, true },
	{ "IO-APIC", CHIP_NEXT_IRQ, false },
	{ "HPET-MSI", CHIP_NEXT_IRQ, false },
	{ "DMAR-MSI", CHIP_NEXT_IRQ, false },
};

/*
 * The family of a chip name: one of the table's prefixes, the whole name
 * or followed by "-"; NULL for a chip not known here.
 */
const struct chip_family *
machine_chip_family(const char *chip)
{
	size_t i, len;
	char c;

	for (i = 0; chip != NULL && i < nitems(families); i++) {
		len = strlen(families[i].prefix);
		if (strncmp(chip, families[i].prefix, len) != 0)
			continue;
		c = chip[len];
		if (c == '\0' || c == '\n' || c == '-' ||
		    families[i].prefix[len - 1] == '-' ||
		    strcmp(families[i].prefix, "GIC") == 0)
			return &families[i];
	}
	return NULL;
}

/*
 * Whether an IRQ is a PCI MSI or MSI-X vector, by its chip's family. The
 * kernel refuses a user move of one when its driver asked for managed
 * affinity (pci_alloc_irq_vectors_affinity()); the timer, the cascade and
 * per-CPU IRQs it refuses are on other chips.
 */
static bool
pci_msi(unsigned int irq)
{
	const struct chip_family *f;
	char rel[64], *chip = NULL;
	bool yes;

	snprintf(rel, sizeof(rel), PATH_SYS_IRQ_FILE, irq, "chip_name");
	if (procfs_read(rel, &chip) < 0)
		return false;
	chip[strcspn(chip, "\n")] = '\0';
	f = machine_chip_family(chip);
	yes = (f != NULL && f->msi) || strstr(chip, "PCI-MSI") != NULL;
	free(chip);
	return yes;
}

/*
 * Whether user space may move an IRQ: debugfs says, else the kernel,
 * asked with a value it cannot parse. write_irq_affinity()
 * (kernel/irq/proc.c) returns EIO (EPERM since 6.12) before parsing when
 * !irq_can_set_affinity_usr() or no_irq_affinity; for a movable IRQ
 * cpumask_parse_user() fails on "x" (bitmap_parse(): hex_to_bin() < 0,
 * as bitmap_parselist()'s bitmap_getnum() would), -EINVAL, and it
 * returns before irq_set_affinity(): nothing changes. An empty value
 * would parse as no CPU and let the kernel choose: never written.
 * Five system calls: open, fstat, fstatfs, write, close.
 */
enum movable
machine_irq_movable(unsigned int irq)
{
	char rel[64];
	int state, rc;

	if ((state = machine_irq_state(irq)) != 0)
		return state & IRQ_MANAGED ? MOVABLE_MANAGED :
		    state & IRQ_NOMOVE ? MOVABLE_NO : MOVABLE_YES;
	snprintf(rel, sizeof(rel), PATH_PROC_IRQ_FILE, irq, "smp_affinity");
	rc = procfs_probe(rel, "x\n");
	if (rc == -EIO || rc == -EPERM)
		return pci_msi(irq) ? MOVABLE_MANAGED : MOVABLE_NO;
	return rc == -EINVAL ? MOVABLE_YES : MOVABLE_UNKNOWN;
}
