/*
 * What else keeps interrupts on a set of CPUs: kernel-managed IRQs the
 * kernel places there, an irqbalance that does not ban them, a kernel
 * command line that says otherwise. Each finding says what to change.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/findings.h"
#include "core/irqinfo.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

/* isolcpus=FLAGS,LIST: what is there, with managed_irq and the CPUs. */
static char *
isolcpus_arg(struct isolation *is)
{
	struct cpuset *all = xcpudup(is->cpus);
	int flags = ISOL_MANAGED_IRQ;
	char *list, *arg;

	if (is->boot.isolcpus != NULL) {
		cpuset_or(all, is->boot.isolcpus);
		flags |= is->boot.isolflags;
	}
	list = xformat(all, false);
	arg = xasprintf("isolcpus=%s%s%s%s", flags & ISOL_NOHZ ? "nohz," : "",
	    flags & ISOL_DOMAIN ? "domain," : "", "managed_irq,", list);
	free(list);
	cpuset_free(all);
	return arg;
}

/* The CPUs of a that are (in) or are not in b, as a list. */
static char *
overlap(const struct cpuset *a, const struct cpuset *b, bool in)
{
	struct cpuset *o = xcpudup(a);
	char *list;

	if (in)
		cpuset_and(o, b);
	else
		cpuset_andnot(o, b);
	list = xformat(o, false);
	cpuset_free(o);
	return list;
}

/* The remedy for kernel-managed IRQs found on the CPUs (on: where). */
static void
note_managed(struct isolation *is, const struct cpuset *on,
    struct findings *out)
{
	char *arg, *list = overlap(is->cpus, on, true);

	if (is->boot.isolcpus != NULL &&
	    (is->boot.isolflags & ISOL_MANAGED_IRQ) &&
	    cpuset_subset(is->cpus, is->boot.isolcpus)) {
		findings_add(out, "managed", "isolcpus=%s already "
		    "covers CPU %s; the kernel still places a managed IRQ "
		    "there when no other CPU of its set is online (best "
		    "effort)", is->boot.isolcpus_arg, list);
		free(list);
		return;
	}
	arg = isolcpus_arg(is);
	findings_add(out, "managed", "kernel-managed IRQs run on CPU "
	    "%s; boot with %s to keep them off (the kernel treats it as "
	    "best effort)", list, arg);
	free(arg);
	free(list);
}

/* The exact line that makes irqbalance keep off the CPUs as well. */
static void
note_irqbalance(struct isolation *is, struct findings *out)
{
	static const char *const why[] = {
		[BAN_AUTO] = ", as no IRQBALANCE_BANNED_CPULIST is set",
		[BAN_LIST] = " (IRQBALANCE_BANNED_CPULIST)",
		[BAN_MASK] = " (IRQBALANCE_BANNED_CPUS)",
	};
	struct irqbalance *ib = &is->ib;
	struct cpuset *all;
	char *banned, *want;

	if (ib->pid == 0 || cpuset_subset(is->cpus, ib->banned))
		return;
	all = xcpudup(ib->banned);
	cpuset_or(all, is->cpus);
	want = xformat(all, false);
	banned = xformat(ib->banned, false);
	findings_add(out, "irqbalance", "runs and bans %s%s%s%s; add "
	    "IRQBALANCE_BANNED_CPULIST=%s to %s and restart it%s",
	    *banned ? "only CPU " : "no CPU", banned,
	    ib->source == BAN_AUTO && *banned ?
	    ", the isolated and nohz_full ones" : "", why[ib->source], want,
	    ib->conf, ib->source == BAN_MASK ? ", and remove "
	    "IRQBALANCE_BANNED_CPUS, which overrides it" : "");
	free(want);
	free(banned);
	cpuset_free(all);
}

/* Where the kernel command line says otherwise. */
static void
note_cmdline(struct isolation *is, struct findings *out)
{
	struct bootargs *b = &is->boot;
	char *house, *list;

	if (b->irqaffinity != NULL &&
	    cpuset_intersects(b->irqaffinity, is->cpus)) {
		house = xformat(is->house, false);
		list = overlap(is->cpus, b->irqaffinity, true);
		findings_add(out, "irqaffinity", "the kernel command "
		    "line's irqaffinity=%s includes CPU %s: IRQs start there "
		    "at boot; irqaffinity=%s would not", b->irqaffinity_arg,
		    list, house);
		free(list);
		free(house);
	}
	if (b->isolcpus != NULL && !cpuset_subset(is->cpus, b->isolcpus)) {
		list = overlap(is->cpus, b->isolcpus, false);
		findings_add(out, "isolcpus", "the kernel command "
		    "line's isolcpus=%s does not include CPU %s",
		    b->isolcpus_arg, list);
		free(list);
	}
	if (b->nohz_full != NULL && !cpuset_subset(is->cpus, b->nohz_full)) {
		list = overlap(is->cpus, b->nohz_full, false);
		findings_add(out, "nohz_full", "the kernel command "
		    "line's nohz_full=%s does not include CPU %s",
		    b->nohz_full_arg, list);
		free(list);
	}
}

/* The command line's values go into sentences: escaped once, here. */
static void
read_cmdline(struct machine *m, struct bootargs *boot)
{
	char **args[] = { &boot->irqaffinity_arg, &boot->isolcpus_arg,
	    &boot->nohz_full_arg };
	char *buf, *raw;
	size_t i;

	if (procfs_read(PATH_PROC_CMDLINE, &buf) != 0)
		return;
	xparsed(bootargs_parse(buf, m->nbits, boot));
	free(buf);
	for (i = 0; i < nitems(args); i++) {
		if ((raw = *args[i]) == NULL)
			continue;
		*args[i] = xescaped(raw);
		free(raw);
	}
}

/*
 * The CPUs isolcpus=managed_irq,LIST keeps managed IRQs off where no
 * sysfs file shows them (HK_TYPE_MANAGED_IRQ has none), as the kernel
 * took it (kernel/sched/isolation.c housekeeping_setup()): none when the
 * list names a CPU past the last possible one (bootargs_parse() leaves
 * out a list that does not parse at the machine's width); with domain or
 * nohz the isolated or nohz_full file holds the list as taken, and a
 * kernel without CONFIG_NO_HZ_FULL (Debian's 5.10) refuses the whole
 * argument with nohz.
 */
static struct cpuset *
managed_irq_only(const struct bootargs *b)
{
	if (b->isolcpus == NULL || !(b->isolflags & ISOL_MANAGED_IRQ) ||
	    (b->isolflags & (ISOL_DOMAIN | ISOL_NOHZ)))
		return NULL;
	return b->isolcpus;
}

/*
 * The CPUs the kernel isolates, as it reports them: the isolated file
 * (isolcpus= with domain), the nohz_full file (nohz_full=; absent on a
 * kernel built without CONFIG_NO_HZ_FULL, which ignores the parameter),
 * and from the command line only isolcpus=managed_irq without domain,
 * which no file shows; and those irqaff isolate remembered, none when
 * its file cannot be used, said as a warning.
 */
void
isolation_cpus(struct isolated *iso, struct machine *m)
{
	struct bootargs boot;
	const struct cpuset *mi;
	struct perr pe;

	memset(&boot, 0, sizeof(boot));
	read_cmdline(m, &boot);
	iso->isolcpus = xcpudup(m->sys_isolated);
	iso->nohz = xcpudup(m->sys_nohz);
	if ((mi = managed_irq_only(&boot)) != NULL)
		cpuset_or(iso->isolcpus, mi);
	iso->all = xcpudup(iso->isolcpus);
	cpuset_or(iso->all, iso->nohz);
	if (isolation_remembered(m, &iso->remembered, &pe) != 0)
		warnx("warning: %s; taken as no CPU isolated by irqaff "
		    "isolate", pe.msg);
	if (iso->remembered == NULL)
		iso->remembered = xcpuset(m->nbits);
	cpuset_or(iso->all, iso->remembered);
	bootargs_free(&boot);
}

/* The state file's one line: a CPU list of possible CPUs, not empty. */
static int
parse_state(struct machine *m, const char *buf, struct cpuset *set,
    struct perr *pe)
{
	const char *nl = strchr(buf, '\n');
	int cpu;

	if (nl != NULL && nl[1] != '\0')
		return perr_set(pe, EINVAL, "holds more than one line");
	if (cpulist_parse(set, buf, pe) != 0)
		return -EINVAL;
	if (cpuset_empty(set))
		return perr_set(pe, EINVAL, "holds no CPU");
	for (cpu = cpuset_first(set); cpu >= 0; cpu = cpuset_next(set,
	    cpu + 1))
		if (!cpuset_test(m->possible, cpu))
			return perr_set(pe, EINVAL, "CPU %d is not possible",
			    cpu);
	return 0;
}

/*
 * The CPUs isolate remembered (isolation_remember()): 0 with *setp owned,
 * or NULL when there is no file (never isolated, or --undo since). A file
 * that is not one line with a list of possible CPUs (one remembered on a
 * machine with more, or damaged) is -EINVAL; one that cannot be read,
 * its -errno; pe then says why, naming the file.
 */
int
isolation_remembered(struct machine *m, struct cpuset **setp,
    struct perr *pe)
{
	struct cpuset *set;
	struct perr why;
	char *buf;
	int rc;

	*setp = NULL;
	if ((rc = procfs_read(PATH_STATE_ISOLATED, &buf)) == -ENOENT)
		return 0;
	if (rc != 0)
		return perr_set(pe, -rc, "%s: %s",
		    procfs_path(PATH_STATE_ISOLATED), strerror(-rc));
	set = xcpuset(m->nbits);
	rc = parse_state(m, buf, set, &why);
	free(buf);
	if (rc != 0) {
		cpuset_free(set);
		return perr_set(pe, EINVAL, "%s: %s",
		    procfs_path(PATH_STATE_ISOLATED), why.msg);
	}
	*setp = set;
	return 0;
}

/* Remembers the CPUs isolate kept free, for set, spread and balance. */
int
isolation_remember(const struct cpuset *cpus)
{
	char *list = xformat(cpus, false), *text;
	int rc;

	text = xasprintf("%s\n", list);
	rc = procfs_state_write(PATH_STATE_ISOLATED, text);
	if (rc != 0)
		warnc(-rc, "%s", procfs_path(PATH_STATE_ISOLATED));
	free(text);
	free(list);
	return rc;
}

/* Forgets them (isolate --undo). */
int
isolation_forget(void)
{
	int rc;

	if ((rc = procfs_state_remove(PATH_STATE_ISOLATED)) != 0)
		warnc(-rc, "%s", procfs_path(PATH_STATE_ISOLATED));
	return rc;
}

/*
 * What keeps the CPUs of set isolated: "isolcpus=", "nohz_full=", "irqaff
 * isolate" (remembered), comma-separated.
 */
char *
isolation_why(const struct isolated *iso, const struct cpuset *set)
{
	bool i = cpuset_intersects(set, iso->isolcpus);
	bool n = cpuset_intersects(set, iso->nohz);
	bool r = cpuset_intersects(set, iso->remembered);

	if (!i && !n && !r)
		n = true;
	return xasprintf("%s%s%s%s%s", i ? "isolcpus=" : "",
	    i && (n || r) ? ", " : "", n ? "nohz_full=" : "", n && r ? ", " :
	    "", r ? "irqaff isolate" : "");
}

/*
 * A pool without its isolated and nohz_full CPUs, unless they are named
 * by number (numbered, may be NULL) or include is set: the CPUs taken
 * out of pool are returned, and *why says what isolates them. Both
 * owned by the caller.
 */
struct cpuset *
isolation_leave_out(struct machine *m, struct cpuset *pool,
    const struct cpuset *numbered, bool include, char **why)
{
	struct isolated iso;
	struct cpuset *left = xcpudup(pool);

	isolation_cpus(&iso, m);
	cpuset_and(left, iso.all);
	if (numbered != NULL)
		cpuset_andnot(left, numbered);
	if (include)
		cpuset_zero(left);
	cpuset_andnot(pool, left);
	*why = isolation_why(&iso, left);
	isolation_cpus_free(&iso);
	return left;
}

/*
 * set without the CPUs irqaff isolate remembered, as every writer but set
 * leaves them out (irqaff-isolate(8)); the CPUs taken out are returned,
 * owned, empty when none.
 */
struct cpuset *
isolation_take_remembered(struct machine *m, struct cpuset *set)
{
	struct isolated iso;
	struct cpuset *left = xcpudup(set);

	isolation_cpus(&iso, m);
	cpuset_and(left, iso.remembered);
	cpuset_andnot(set, left);
	isolation_cpus_free(&iso);
	return left;
}

/* The isolated CPUs of a set IRQs are given, said once, if any. */
void
isolation_warn(const struct isolated *iso, const struct cpuset *want)
{
	struct cpuset *over = xcpudup(want);
	char *list, *of, *why;

	cpuset_and(over, iso->all);
	if (!cpuset_empty(over)) {
		list = xformat(over, false);
		of = xformat(want, false);
		why = isolation_why(iso, over);
		warnx("warning: CPU %s%s%s %s isolated (%s): IRQs there "
		    "interrupt the tasks isolated on them", list,
		    cpuset_equal(over, want) ? "" : " of ",
		    cpuset_equal(over, want) ? "" : of,
		    cpuset_count(over) == 1 ? "is" : "are", why);
		free(why);
		free(of);
		free(list);
	}
	cpuset_free(over);
}

/*
 * Where an IRQ requested on req and running on on (its effective CPUs, or
 * req when they are unknown) stands against cpus. One requested elsewhere
 * but still running there has a move pending: x86 without interrupt
 * remapping moves it at its next interrupt. explain and isolate --check
 * both ask this, so that they call the same IRQ the same.
 */
enum place
isolation_place(const struct cpuset *req, const struct cpuset *on,
    const struct cpuset *cpus)
{
	if (cpuset_intersects(req, cpus))
		return PLACE_ON;
	if (on != NULL && cpuset_intersects(on, cpus))
		return PLACE_PENDING;
	return PLACE_OFF;
}

/*
 * An IRQ requested on req that runs on eff outside it has a move pending;
 * explain, show and queues say so by this one rule.
 */
bool
isolation_move_pending(const struct cpuset *req, const struct cpuset *eff)
{
	return eff != NULL && !cpuset_empty(eff) && !cpuset_subset(eff, req);
}

void
isolation_cpus_free(struct isolated *iso)
{
	cpuset_free(iso->all);
	cpuset_free(iso->isolcpus);
	cpuset_free(iso->nohz);
	cpuset_free(iso->remembered);
	memset(iso, 0, sizeof(*iso));
}

void
isolation_load(struct isolation *is, struct machine *m,
    const struct cpuset *cpus)
{
	memset(is, 0, sizeof(*is));
	is->m = m;
	is->cpus = cpus;
	is->house = xcpudup(m->online);
	cpuset_andnot(is->house, cpus);
	is->list = xformat(cpus, false);
	irqbalance_load(m, &is->ib);
	read_cmdline(m, &is->boot);
}

/*
 * The findings, in order; managed: where kernel-managed IRQs run on the
 * CPUs, NULL or empty when none does.
 */
void
isolation_notes(struct isolation *is, const struct cpuset *managed,
    struct findings *out)
{
	if (managed != NULL && !cpuset_empty(managed))
		note_managed(is, managed, out);
	note_irqbalance(is, out);
	note_cmdline(is, out);
}

/* irqbalance does not run, or keeps off the CPUs. */
bool
isolation_irqbalance_ok(const struct isolation *is)
{
	return is->ib.pid == 0 || cpuset_subset(is->cpus, is->ib.banned);
}

void
isolation_free(struct isolation *is)
{
	cpuset_free(is->house);
	free(is->list);
	irqbalance_free(&is->ib);
	bootargs_free(&is->boot);
	memset(is, 0, sizeof(*is));
}

/* Where the IRQ runs: its online effective CPUs, else requested ones. */
struct cpuset *
isolation_runs_on(struct machine *m, unsigned int irq, bool *guessed)
{
	struct cpuset *set = xcpuset(m->nbits);
	struct perr pe;

	if (machine_runs_on_read(m, irq, set, guessed, &pe) != 0) {
		warnx("irq %u: %s", irq, pe.msg);
		cpuset_free(set);
		return NULL;
	}
	return set;
}

/*
 * The kernel keeps a managed IRQ off isolcpus=managed_irq CPUs when its
 * set has an online housekeeping CPU (irq_do_set_affinity(),
 * kernel/irq/manage.c); else it stays there, firing only for work issued
 * on them, as NVMe's one queue per CPU. Whether the IRQ is managed only
 * debugfs says: any IRQ user space cannot move is taken as one.
 */
bool
isolation_by_kernel(const struct isolation *is)
{
	const struct bootargs *b = &is->boot;

	return b->isolcpus != NULL && (b->isolflags & ISOL_MANAGED_IRQ) &&
	    cpuset_subset(is->cpus, b->isolcpus);
}

/* Whether every online CPU of req is one isolcpus= isolates. */
bool
isolation_all_isolated(const struct isolation *is, const struct cpuset *req)
{
	struct cpuset *house = xcpudup(req);
	bool none;

	cpuset_and(house, is->m->online);
	cpuset_andnot(house, is->boot.isolcpus);
	none = cpuset_empty(house);
	cpuset_free(house);
	return none;
}

/*
 * An action in sys/kernel/irq/N/actions or a proc/irq/N/NAME directory
 * (register_handler_proc(); IRQ 0's timer is set up before procfs): an
 * IRQ without one fires nothing (show_interrupts() skips it), so it is
 * left out of what runs on the CPUs, as explain leaves it.
 */
bool
isolation_has_handler(struct machine *m, unsigned int irq)
{
	struct irqinfo in;
	char **names;
	size_t n;
	bool yes = false;

	if (irqinfo_read(m, irq, INFO_NAMES, &in) == 0) {
		yes = in.names != NULL;
		irqinfo_free(&in);
	}
	if (!yes) {
		select_actions(irq, &names, &n);
		yes = n > 0;
		select_actions_free(names, n);
	}
	return yes;
}
