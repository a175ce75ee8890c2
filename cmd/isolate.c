/*
 * isolate: keep a set of CPUs free of interrupts, or check that it is.
 * Movable IRQs and the default affinity leave the CPUs; kernel-managed
 * IRQs, irqbalance and the kernel command line are reported, since only
 * a reboot or their own configuration moves them.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/findings.h"
#include "core/irqinfo.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

static int isolate_main(int, char *[]);
static void isolate_help(FILE *);

const struct command isolate_command = {
	"isolate", isolate_main, "keep interrupts off a set of CPUs",
	"[-nvqJm] [--check [--accept]] cpus | --again | --undo",
	"  -n, --dry-run  print the plan, write nothing\n"
	"  -v, --verbose  print a line for every IRQ\n"
	"  -q, --quiet    no notes; with --check, no output at all\n"
	"  -J, --json     print the result as JSON\n"
	"  -m, --mask     read cpus as a kernel mask (ff,00000000)\n"
	"      --check    write nothing; exit 0 when no interrupt runs there\n"
	"      --accept   with --check, exit 0 also when only pending moves and\n"
	"                 IRQs user space cannot move remain\n"
	"      --again    isolate the CPUs remembered again (the boot unit);\n"
	"                 none remembered: nothing to do\n"
	"      --undo     forget the CPUs isolate remembered: set, spread and\n"
	"                 balance use them again\n",
	isolate_help
};

enum { OPT_CHECK = 256, OPT_ACCEPT, OPT_UNDO, OPT_AGAIN };

static const struct option isolate_opts[] = {
	APPLY_LONGOPTS,
	{ "quiet", no_argument, NULL, 'q' },
	{ "mask", no_argument, NULL, 'm' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "accept", no_argument, NULL, OPT_ACCEPT },
	{ "undo", no_argument, NULL, OPT_UNDO },
	{ "again", no_argument, NULL, OPT_AGAIN },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void
isolate_help(FILE *fp)
{
	fprintf(fp, "\nWith --check, isolate exits with 0 when no IRQ runs on "
	    "cpus or is requested\nthere, the default affinity avoids them "
	    "and irqbalance, when it runs, bans\nthem; else 1.\n");
}

/* What the run does with an IRQ. */
enum kind {
	K_OFF,		/* not on the CPUs: left alone */
	K_MOVE,		/* movable, on the CPUs */
	K_MANAGED,	/* the kernel's; on the CPUs when on is set */
	K_FAILED,	/* its affinity could not be read */
	K_UNMOVABLE,	/* user space cannot move it; as K_MANAGED */
	K_PENDING,	/* --check: movable, requested off, effective on */
	K_KEPT,		/* --check: not movable, all its CPUs isolcpus=managed_irq */
};

/* One IRQ of the plan; the sets are owned. */
struct entry {
	unsigned int		 irq;
	enum kind		 kind;
	struct cpuset		*from, *to;	/* K_MOVE */
	struct cpuset		*on;		/* where it runs, if on the CPUs */
	bool			 guessed;	/* on is requested, not effective */
	bool			 kept;		/* as K_KEPT, while isolating */
	char			*was;		/* K_OFF with -v */
	enum apply_result	 result;
};

struct isolate {
	struct machine		 m;
	struct cpuset		*cpus;		/* to keep free */
	bool			 check, accept, json, quiet, dryrun, undo, again;
	int			 flags;
	struct entry		*e;
	size_t			 n;
	struct cpuset		*dfrom, *dto;	/* the default affinity */
	struct tally		 tl;
	struct findings		 notes;
	struct isolation	 iso;
};

static int
isolate_options(int argc, char *argv[], struct isolate *is, int *cpus)
{
	int ch;

	while ((ch = cli_getopts(argc, argv, &isolate_command, "nvqJm",
	    isolate_opts)) != -1) {
		switch (ch) {
		case 'q':
			is->quiet = true;
			break;
		case 'm':
			*cpus |= CPUS_MASK;
			break;
		case OPT_CHECK:
			is->check = true;
			break;
		case OPT_ACCEPT:
			is->accept = true;
			break;
		case OPT_UNDO:
			is->undo = true;
			break;
		case OPT_AGAIN:
			is->again = true;
			break;
		default:
			result_option(ch, &is->flags);
			break;
		}
	}
	is->dryrun = is->flags & APPLY_DRYRUN;
	is->json = is->flags & APPLY_JSON;
	if (is->undo && (argc - optind != 0 || is->check || is->flags ||
	    *cpus))
		return cli_usage_error(&isolate_command,
		    "--undo takes no CPU set and no other option");
	if (is->undo)
		return EXIT_OK;
	if (is->again && (argc - optind != 0 || is->check || *cpus))
		return cli_usage_error(&isolate_command,
		    "--again takes no CPU set, nor --check or -m");
	if (argc - optind != (is->again ? 0 : 1))
		return cli_usage_error(&isolate_command,
		    "expected one CPU set");
	if (is->check && (is->dryrun || (is->flags & APPLY_VERBOSE)))
		return cli_usage_error(&isolate_command,
		    "--check writes nothing; -n and -v do not apply");
	if (is->accept && !is->check)
		return cli_usage_error(&isolate_command,
		    "--accept goes with --check");
	if (is->json)
		is->flags = (is->flags & ~APPLY_VERBOSE) | APPLY_JSON;
	return EXIT_OK;
}

/*
 * The CPUs must leave an online CPU for everything else. What else bears
 * on them is read here too, before anything is planned.
 */
static int
isolate_cpus(struct isolate *is, const char *arg, int flags)
{
	struct perr pe;

	is->cpus = xcpuset(is->m.nbits);
	if (machine_cpus(&is->m, arg, flags | CPUS_NONEMPTY, is->cpus,
	    &pe) != 0) {
		warnx("%s", pe.msg);
		return EXIT_USAGE;
	}
	isolation_load(&is->iso, &is->m, is->cpus);
	if (cpuset_empty(is->iso.house)) {
		warnx("CPU %s \"%s\": leaves no online CPU for interrupts",
		    flags & CPUS_MASK ? "mask" : "list", text_quoted(arg));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * An IRQ that would keep no online CPU goes to the housekeeping CPUs of
 * its node, or all of them when its node has none.
 */
static struct cpuset *
fallback(struct isolate *is, unsigned int irq)
{
	const struct cpuset *node;
	struct cpuset *to = xcpudup(is->iso.house);
	int id;

	if ((id = machine_irq_node(irq)) >= 0 &&
	    (node = machine_node(&is->m, id)) != NULL &&
	    cpuset_intersects(node, is->iso.house))
		cpuset_and(to, node);
	return to;
}

/* Where the IRQ runs: its online effective CPUs, else requested ones. */
static struct cpuset *
runs_on(struct isolate *is, unsigned int irq, bool *guessed)
{
	struct cpuset *set = xcpuset(is->m.nbits);
	struct perr pe;
	int rc;

	if ((rc = machine_runs_on_read(&is->m, irq, set, guessed, &pe)) != 0) {
		warnx("irq %u: %s", irq, pe.msg);
		cpuset_free(set);
		return NULL;
	}
	return set;
}

static void
entry_free(struct entry *e)
{
	cpuset_free(e->from);
	cpuset_free(e->to);
	cpuset_free(e->on);
	free(e->was);
}

/*
 * The kernel keeps a managed IRQ off isolcpus=managed_irq CPUs when its
 * set has an online housekeeping CPU (irq_do_set_affinity(),
 * kernel/irq/manage.c); else it stays there, firing only for work issued
 * on them, as NVMe's one queue per CPU. Whether the IRQ is managed only
 * debugfs says: any IRQ user space cannot move is taken as one.
 */
static bool
kernel_isolates(const struct isolate *is)
{
	const struct bootargs *b = &is->iso.boot;

	return b->isolcpus != NULL && (b->isolflags & ISOL_MANAGED_IRQ) &&
	    cpuset_subset(is->cpus, b->isolcpus);
}

static bool
all_isolated(const struct isolate *is, const struct cpuset *req)
{
	struct cpuset *house = xcpudup(req);
	bool none;

	cpuset_and(house, is->m.online);
	cpuset_andnot(house, is->iso.boot.isolcpus);
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
static bool
has_handler(const struct isolate *is, unsigned int irq)
{
	struct irqinfo in;
	char **names;
	size_t n;
	bool yes = false;

	if (irqinfo_read(&is->m, irq, INFO_NAMES, &in) == 0) {
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

/*
 * With --check: is the IRQ requested or run on the CPUs, and whose is it?
 * A movable IRQ requested elsewhere but last run there has a move pending
 * (x86 without interrupt remapping moves at the next interrupt). One that
 * user space cannot move counts where it runs: a per-CPU IRQ (arm64's
 * timer, PMU, IPIs) has no effective CPU and a request nobody can mend.
 */
static void
check_irq(struct isolate *is, struct entry *e)
{
	enum place place;
	enum movable mv;
	struct perr pe;

	e->from = xcpuset(is->m.nbits);
	if (machine_affinity_read(e->irq, AFF_REQUESTED, e->from, &pe) != 0) {
		warnx("irq %u: %s", e->irq, pe.msg);
		e->kind = K_FAILED;
		is->tl.failed++;
		return;
	}
	if ((e->on = runs_on(is, e->irq, &e->guessed)) == NULL) {
		e->kind = K_FAILED;
		is->tl.failed++;
		return;
	}
	place = isolation_place(e->from, e->on, is->cpus);
	if (place == PLACE_OFF || !has_handler(is, e->irq))
		return;
	mv = machine_irq_movable(e->irq);
	if (mv < MOVABLE_MANAGED)
		e->kind = place == PLACE_ON ? K_MOVE : K_PENDING;
	else if (!cpuset_intersects(e->on, is->cpus))
		return;
	else if (kernel_isolates(is) && all_isolated(is, e->from))
		e->kind = K_KEPT;
	else
		e->kind = mv == MOVABLE_MANAGED ? K_MANAGED : K_UNMOVABLE;
}

/* An IRQ user space cannot move: where it runs, if on the CPUs. */
static void
plan_managed(struct isolate *is, struct entry *e, enum kind kind)
{
	struct cpuset *req = xcpuset(is->m.nbits);
	struct perr pe;

	e->kind = kind;
	e->on = runs_on(is, e->irq, &e->guessed);
	if (e->on != NULL && (!cpuset_intersects(e->on, is->cpus) ||
	    !has_handler(is, e->irq))) {
		cpuset_free(e->on);
		e->on = NULL;
	}
	e->kept = e->on != NULL && kernel_isolates(is) &&
	    machine_affinity_read(e->irq, AFF_REQUESTED, req, &pe) == 0 &&
	    all_isolated(is, req);
	cpuset_free(req);
}

/* The new affinity of an IRQ on the CPUs: the rest of its own CPUs. */
static void
plan_irq(struct isolate *is, struct entry *e)
{
	struct perr pe;
	enum movable mv;

	if (machine_irq_state(e->irq) & IRQ_MANAGED) {
		plan_managed(is, e, K_MANAGED);
		return;
	}
	e->from = xcpuset(is->m.nbits);
	if (machine_affinity_read(e->irq, AFF_REQUESTED, e->from, &pe) != 0) {
		warnx("irq %u: %s", e->irq, pe.msg);
		e->kind = K_FAILED;
		apply_tally_add(&is->tl, is->flags, e->irq, APPLY_FAILED, NULL,
		    NULL, text_perr_errno(&pe), pe.msg);
		return;
	}
	if (!cpuset_intersects(e->from, is->cpus)) {
		if (is->flags & APPLY_VERBOSE)
			e->was = xformat(e->from, false);
		return;
	}
	/* without debugfs the kernel is asked, for the IRQs on the CPUs */
	if ((mv = machine_irq_movable(e->irq)) >= MOVABLE_MANAGED) {
		cpuset_free(e->from);
		e->from = NULL;
		plan_managed(is, e, mv == MOVABLE_MANAGED ? K_MANAGED :
		    K_UNMOVABLE);
		return;
	}
	e->kind = K_MOVE;
	e->to = xcpudup(e->from);
	cpuset_andnot(e->to, is->cpus);
	if (!cpuset_intersects(e->to, is->m.online)) {
		cpuset_free(e->to);
		e->to = fallback(is, e->irq);
	}
}

static void
plan_default(struct isolate *is)
{
	struct perr pe;

	is->dfrom = xcpuset(is->m.nbits);
	if (machine_default_read(is->dfrom, &pe) != 0) {
		warnx("%s", pe.msg);
		cpuset_free(is->dfrom);
		is->dfrom = NULL;
		apply_tally_add(&is->tl, is->flags, -1, APPLY_FAILED, NULL,
		    NULL, text_perr_errno(&pe), pe.msg);
		return;
	}
	is->dto = xcpudup(is->dfrom);
	cpuset_andnot(is->dto, is->cpus);
	if (!cpuset_intersects(is->dto, is->m.online))
		cpuset_copy(is->dto, is->iso.house);
}

/* Every IRQ read before the first write. */
static int
plan(struct isolate *is)
{
	struct irqs irqs = { 0 };
	size_t i;
	int rc;

	if ((rc = select_all(&irqs)) != 0)
		return cli_exit_status(rc);
	is->e = xcalloc(irqs.n, sizeof(*is->e));
	is->n = irqs.n;
	for (i = 0; i < irqs.n; i++) {
		is->e[i].irq = irqs.v[i];
		if (is->check)
			check_irq(is, &is->e[i]);
		else
			plan_irq(is, &is->e[i]);
	}
	select_free(&irqs);
	plan_default(is);
	return EXIT_OK;
}

/*
 * The default first, so that IRQs set up meanwhile avoid the CPUs too.
 * An IRQ off the CPUs counts as unchanged.
 */
static void
apply_plan(struct isolate *is)
{
	struct entry *e;
	size_t i;

	if (is->dfrom != NULL)
		apply_default(&is->m, is->dto, is->flags, &is->tl);
	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		if (e->kind == K_OFF) {
			if (e->was != NULL)
				printf("irq %u: %s unchanged\n", e->irq,
				    *e->was ? e->was : "-");
			apply_tally_add(&is->tl, is->flags, e->irq,
			    APPLY_UNCHANGED, NULL, NULL, 0, NULL);
		} else if (e->kind == K_MANAGED || e->kind == K_UNMOVABLE) {
			if ((is->flags & (APPLY_VERBOSE | APPLY_DRYRUN)) &&
			    !is->json)
				printf("irq %u: %s, left alone\n", e->irq,
				    e->kind == K_MANAGED ? "managed by the "
				    "kernel" : "cannot be moved by user space");
			apply_tally_add(&is->tl, is->flags, e->irq, e->kind ==
			    K_MANAGED ? APPLY_MANAGED : APPLY_UNMOVABLE, NULL,
			    NULL, 0, NULL);
		}
		if (e->kind != K_MOVE)
			continue;
		if (is->tl.stop) {
			e->result = APPLY_FAILED;
			apply_tally_skip(&is->tl, is->flags, e->irq, e->to);
		} else
			e->result = apply_irq(&is->m, e->irq, e->to,
			    is->flags, &is->tl);
		/* a refusal is the kernel's: it may keep the IRQ here */
		if ((e->result == APPLY_MANAGED ||
		    e->result == APPLY_UNMOVABLE) &&
		    (e->on = runs_on(is, e->irq, &e->guessed)) != NULL &&
		    !cpuset_intersects(e->on, is->cpus)) {
			cpuset_free(e->on);
			e->on = NULL;
		}
	}
}

/* The kernel keeps it on the CPUs; debugfs said it manages it. */
static bool
managed_here(const struct entry *e)
{
	return (e->kind == K_MANAGED || e->result == APPLY_MANAGED) &&
	    e->on != NULL && !e->kept;
}

/* The kernel keeps it on the CPUs and does not say why. */
static bool
unmovable_here(const struct entry *e)
{
	return (e->kind == K_UNMOVABLE || e->result == APPLY_UNMOVABLE) &&
	    e->on != NULL && !e->kept;
}

/* The kernel keeps it there: as above, or kept (isolcpus=managed_irq). */
static bool
stuck_here(const struct entry *e)
{
	return managed_here(e) || unmovable_here(e) || e->kept;
}

/* Where the IRQs that test says of run on the CPUs: owned. */
static struct cpuset *
where(const struct isolate *is, bool (*test)(const struct entry *))
{
	struct cpuset *on = xcpuset(is->m.nbits);
	size_t i;

	for (i = 0; i < is->n; i++)
		if (test(&is->e[i]))
			cpuset_or(on, is->e[i].on);
	cpuset_and(on, is->cpus);
	return on;
}

/* Each note names only the CPUs it is about. */
static void
find_notes(struct isolate *is)
{
	struct cpuset *on;
	char *from, *list;

	if (is->check && is->dfrom != NULL &&
	    cpuset_intersects(is->dfrom, is->cpus)) {
		from = xformat(is->dfrom, false);
		on = xcpudup(is->dfrom);
		cpuset_and(on, is->cpus);
		list = xformat(on, false);
		findings_add(&is->notes, "default", "default_smp_affinity "
		    "%s includes CPU %s: new IRQs start there", from, list);
		free(list);
		cpuset_free(on);
		free(from);
	}
	/* no isolcpus=managed_irq advice: it may not be managed */
	on = where(is, unmovable_here);
	if (!cpuset_empty(on)) {
		list = xformat(on, false);
		findings_add(&is->notes, "unmovable", "IRQs that user space "
		    "cannot move run on CPU %s: kernel-managed, per-CPU or "
		    "no-balancing, which the kernel does not say without irq "
		    "debugfs", list);
		free(list);
	}
	cpuset_free(on);
	on = where(is, managed_here);
	isolation_notes(&is->iso, on, &is->notes);
	cpuset_free(on);
}

/* "irq N NAMES: " */
static void
print_name(unsigned int irq)
{
	char *raw = select_names(irq), *name;

	name = xescaped(raw);
	printf("irq %u%s%s: ", irq, *name ? " " : "", name);
	free(name);
	free(raw);
}

static void
json_set(const char *sep, const char *key, const struct cpuset *set)
{
	char *s = xformat(set, false);

	printf("%s\"%s\":\"%s\"", sep, key, s);
	free(s);
}

static const char *
kind_name(const struct entry *e)
{
	if (e->kept)
		return "isolated";
	if (e->result == APPLY_UNMOVABLE)
		return "unmovable";
	switch (e->kind) {
	case K_MOVE:
		return "movable";
	case K_MANAGED:
		return "managed";
	case K_UNMOVABLE:
		return "unmovable";
	case K_PENDING:
		return "pending";
	case K_KEPT:
		return "isolated";
	default:
		return "unknown";
	}
}

/* An IRQ and where it runs, or with --check also its kind. */
static void
json_irq(const struct isolate *is, const struct entry *e)
{
	char *name = select_names(e->irq);

	printf("{\"irq\":%u,\"name\":", e->irq);
	text_json_string(stdout, name);
	free(name);
	if (is->check || e->kind == K_UNMOVABLE || e->kept ||
	    e->result == APPLY_UNMOVABLE)
		printf(",\"kind\":\"%s\"", kind_name(e));
	if (is->check && e->from != NULL && !e->guessed)
		json_set(",", "requested", e->from);
	if (e->on != NULL)
		json_set(",", e->guessed ? "requested" : "effective", e->on);
	putchar('}');
}

/* An IRQ --check reports: one that runs or may run on the CPUs. */
static bool
on_cpus(const struct entry *e)
{
	return e->kind != K_OFF;
}

/* ,"KEY":[the IRQs that pick takes],"findings":...} and the newline. */
static void
json_irqs(const struct isolate *is, const char *key,
    bool (*pick)(const struct entry *))
{
	const char *sep = "";
	size_t i;

	printf(",\"%s\":[", key);
	for (i = 0; i < is->n; i++) {
		if (!pick(&is->e[i]))
			continue;
		fputs(sep, stdout);
		json_irq(is, &is->e[i]);
		sep = ",";
	}
	printf("],\"findings\":");
	findings_json(stdout, &is->notes);
	printf("}\n");
}

/* --check -J: the IRQs on the CPUs, the default, the findings. */
static void
print_json(const struct isolate *is, bool clean, bool fixed)
{
	printf("{\"cpus\":\"%s\",\"isolated\":%s,\"accepted\":%s",
	    is->iso.list, clean ? "true" : "false", clean || fixed ? "true" :
	    "false");
	if (is->dfrom != NULL)
		json_set(",", "default", is->dfrom);
	json_irqs(is, "irqs", on_cpus);
}

/*
 * -J: the result every command gives, and the managed IRQs that stay on
 * the CPUs, where they run, with the findings.
 */
static void
print_result(struct isolate *is)
{
	printf("{\"cpus\":\"%s\",", is->iso.list);
	apply_tally_json(stdout, &is->tl, is->flags);
	json_irqs(is, "stuck", stuck_here);
}

/* One IRQ of --check's report, after its name. */
static void
print_kind(const struct isolate *is, const struct entry *e)
{
	char *list = xformat(e->on, false), *req = xformat(e->from, false);
	const char *what = e->kind == K_MANAGED ? "managed" :
	    "cannot be moved by user space";
	char *on;

	/* an IRQ not started has no effective CPU */
	on = xasprintf("%s%s", *list ? "CPU " : "no CPU", list);
	switch (e->kind) {
	case K_MOVE:
		if (e->guessed)
			printf("movable, may run on %s\n", on);
		else if (cpuset_intersects(e->on, is->cpus))
			printf("movable, on %s\n", on);
		else
			printf("movable, requested CPU %s, on %s\n", req, on);
		break;
	case K_PENDING:
		printf("movable, move pending to CPU %s, on %s\n", req, on);
		break;
	case K_KEPT:
		printf("%s, kept on isolated %s (managed_irq)\n",
		    machine_irq_movable(e->irq) == MOVABLE_MANAGED ? "managed" :
		    "cannot be moved by user space", on);
		break;
	default:
		printf("%s, %s %s\n", what, e->guessed ? "may run on" : "on",
		    on);
		break;
	}
	free(on);
	free(list);
	free(req);
}

/* --check's report: the IRQs on the CPUs, the findings, a verdict. */
static void
print_check(const struct isolate *is, bool clean, bool fixed)
{
	const struct entry *e;
	size_t i;

	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		if (e->kind == K_OFF || e->kind == K_FAILED)
			continue;
		print_name(e->irq);
		print_kind(is, e);
	}
	for (i = 0; i < is->notes.n; i++)
		printf("%s: %s\n", is->notes.v[i].code, is->notes.v[i].text);
	if (clean)
		printf("CPU %s: isolated from interrupts\n", is->iso.list);
	else if (fixed)
		printf("CPU %s: not isolated from interrupts, but user space "
		    "can do no more\n", is->iso.list);
	else
		printf("CPU %s: not isolated from interrupts\n", is->iso.list);
}

/* isolate's notes, on standard error: what it could not do itself. */
static void
warn_notes(const struct isolate *is)
{
	const struct entry *e;
	char *on, *raw, *name;
	size_t i;

	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		if (!stuck_here(e))
			continue;
		on = xformat(e->on, false);
		raw = select_names(e->irq);
		name = xescaped(raw);
		if (e->kept)
			warnx("irq %u%s%s: %s, kept on isolated CPU %s "
			    "(managed_irq)", e->irq, *name ? " " : "", name,
			    e->kind == K_MANAGED ? "managed" :
			    "cannot be moved by user space", on);
		else
			warnx("irq %u%s%s: %s, %s CPU %s", e->irq,
			    *name ? " " : "", name, managed_here(e) ?
			    "managed by the kernel" :
			    "cannot be moved by user space", e->guessed ?
			    "may run on" : "runs on", on);
		free(name);
		free(raw);
		free(on);
	}
	for (i = 0; i < is->notes.n; i++)
		warnx("%s: %s: %s", strcmp(is->notes.v[i].code,
		    "irqbalance") == 0 ? "warning" : "note",
		    is->notes.v[i].code, is->notes.v[i].text);
}

/*
 * Clean: nothing on the CPUs, nothing to put IRQs back there; with
 * fixed, nothing but pending moves and IRQs user space cannot move,
 * which --accept lets pass. An IRQ the kernel keeps on CPUs that
 * isolcpus=managed_irq isolates entirely is no failure.
 */
static bool
is_clean(const struct isolate *is, bool fixed)
{
	enum kind k;
	size_t i;

	for (i = 0; i < is->n; i++) {
		k = is->e[i].kind;
		if (k == K_OFF || k == K_KEPT)
			continue;
		if (!fixed || (k != K_PENDING && k != K_MANAGED &&
		    k != K_UNMOVABLE))
			return false;
	}
	if (is->dfrom == NULL || cpuset_intersects(is->dfrom, is->cpus))
		return false;
	return isolation_irqbalance_ok(&is->iso);
}

static int
run_check(struct isolate *is)
{
	bool clean = is_clean(is, false), fixed = is_clean(is, true);

	if (is->json)
		print_json(is, clean, fixed);
	else if (!is->quiet)
		print_check(is, clean, fixed);
	return clean || (is->accept && fixed) ? EXIT_OK : EXIT_FAIL;
}

static int
run_isolate(struct isolate *is)
{
	if (!is->dryrun)
		cli_applying();
	apply_plan(is);
	/* set, spread and balance leave them out from now on */
	if (!is->dryrun && isolation_remember(is->cpus) != 0)
		is->tl.failed++;
	find_notes(is);
	if (is->json)
		print_result(is);
	else if (!is->quiet)
		warn_notes(is);
	return cli_exit_applied(&is->tl);
}

static void
isolate_free(struct isolate *is)
{
	size_t i;

	for (i = 0; i < is->n; i++)
		entry_free(&is->e[i]);
	free(is->e);
	cpuset_free(is->cpus);
	cpuset_free(is->dfrom);
	cpuset_free(is->dto);
	findings_free(&is->notes);
	apply_tally_free(&is->tl);
	isolation_free(&is->iso);
	machine_free(&is->m);
}

static int
isolate_main(int argc, char *argv[])
{
	struct isolate is;
	struct cpuset *again = NULL;
	char *list = NULL;
	int status, cpus = 0;

	memset(&is, 0, sizeof(is));
	if ((status = isolate_options(argc, argv, &is, &cpus)) != EXIT_OK)
		return status;
	if (is.undo)
		return isolation_forget() == 0 ? EXIT_OK : EXIT_FAIL;
	if (machine_load(&is.m) != 0)
		return EXIT_FAIL;
	if (is.again && (again = isolation_remembered(&is.m)) == NULL) {
		machine_free(&is.m);
		return EXIT_OK;
	}
	if (again != NULL) {
		list = xformat(again, false);
		cpuset_free(again);
	}
	if ((status = isolate_cpus(&is, list != NULL ? list : argv[optind],
	    cpus)) == EXIT_OK &&
	    (status = plan(&is)) == EXIT_OK) {
		if (is.check) {
			find_notes(&is);
			status = run_check(&is);
		} else
			status = run_isolate(&is);
	}
	isolate_free(&is);
	free(list);
	return status;
}
