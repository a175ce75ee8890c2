/*
 * What else keeps interrupts on a set of CPUs: kernel-managed IRQs the
 * kernel places there, an irqbalance that does not ban them, a kernel
 * command line that says otherwise. Each finding says what to change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/findings.h"
#include "core/isolation.h"
#include "core/machine.h"
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

/* The remedy for kernel-managed IRQs found on the CPUs. */
static void
note_managed(struct isolation *is, struct findings *out)
{
	char *arg;

	if (is->boot.isolcpus != NULL &&
	    (is->boot.isolflags & ISOL_MANAGED_IRQ) &&
	    cpuset_subset(is->cpus, is->boot.isolcpus)) {
		findings_add(out, "managed", "isolcpus=%s already "
		    "covers CPU %s; the kernel still places a managed IRQ "
		    "there when no other CPU of its set is online (best "
		    "effort)", is->boot.isolcpus_arg, is->list);
		return;
	}
	arg = isolcpus_arg(is);
	findings_add(out, "managed", "kernel-managed IRQs run on CPU "
	    "%s; boot with %s to keep them off (the kernel treats it as "
	    "best effort)", is->list, arg);
	free(arg);
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
	char *house;

	if (b->irqaffinity != NULL &&
	    cpuset_intersects(b->irqaffinity, is->cpus)) {
		house = xformat(is->house, false);
		findings_add(out, "irqaffinity", "the kernel command "
		    "line's irqaffinity=%s includes CPU %s: IRQs start there "
		    "at boot; irqaffinity=%s would not", b->irqaffinity_arg,
		    is->list, house);
		free(house);
	}
	if (b->isolcpus != NULL && !cpuset_subset(is->cpus, b->isolcpus))
		findings_add(out, "isolcpus", "the kernel command "
		    "line's isolcpus=%s does not include CPU %s",
		    b->isolcpus_arg, is->list);
	if (b->nohz_full != NULL && !cpuset_subset(is->cpus, b->nohz_full))
		findings_add(out, "nohz_full", "the kernel command "
		    "line's nohz_full=%s does not include CPU %s",
		    b->nohz_full_arg, is->list);
}

/* The command line's values go into sentences: escaped once, here. */
static void
read_cmdline(struct isolation *is)
{
	char **args[] = { &is->boot.irqaffinity_arg, &is->boot.isolcpus_arg,
	    &is->boot.nohz_full_arg };
	char *buf, *raw;
	size_t i;

	if (procfs_read(PATH_PROC_CMDLINE, &buf) != 0)
		return;
	xparsed(bootargs_parse(buf, is->m->nbits, &is->boot));
	free(buf);
	for (i = 0; i < nitems(args); i++) {
		if ((raw = *args[i]) == NULL)
			continue;
		*args[i] = xescaped(raw);
		free(raw);
	}
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
	read_cmdline(is);
}

/* The findings, in order; managed: a kernel-managed IRQ runs there. */
void
isolation_notes(struct isolation *is, bool managed, struct findings *out)
{
	if (managed)
		note_managed(is, out);
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
