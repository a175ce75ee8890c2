/*
 * top: interrupts as they happen, redrawn in place on a terminal as
 * irqtop does: each online CPU's rate, then the busiest IRQs with the
 * CPUs they may run on and the ones they run on.
 */
#include <err.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/screen.h"
#include "core/activity.h"
#include "core/counts.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

static int top_main(int, char *[]);

const struct command top_command = {
	.name = "top",
	.main = top_main,
	.summary = "watch interrupts live, the busiest IRQs first",
	.synopsis = "[-ab] [-i seconds] [--count count] [-s key] "
	    "[--sample-from file ...] [irqs ...]",
	.options =
	    "  -i, --interval SECS     a screen every SECS (default 2)\n"
	    "      --count COUNT       COUNT screens, then end (plain: 1)\n"
	    "  -s, --sort KEY          rate (default), total, irq or name\n"
	    "  -a, --all               also the IRQs with no interrupt in the "
	    "interval\n"
	    "  -b, --batch             plain lines, as when not on a terminal\n"
	    "      --sample-from FILE  one saved /proc/interrupts a read, not "
	    "the kernel's\n",
};

static const struct option top_opts[] = {
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "sort", required_argument, NULL, 's' },
	{ "all", no_argument, NULL, 'a' },
	{ "batch", no_argument, NULL, 'b' },
	CLI_SAMPLE_LONGOPT,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static const char *const sortkeys[] = { "rate", "total", "irq", "name" };

enum sortkey { SORT_RATE, SORT_TOTAL, SORT_IRQ, SORT_NAME };

struct top {
	struct machine		 m;
	struct activity		 act;
	struct sampling		 sm;
	struct screen		 scr;
	struct irqs		 only;
	bool			 selected, all, batch;
	enum sortkey		 sort;
	const struct act_irq	**shown;
	struct cpuset		*set;
	long long		 wide;		/* activity's, of any read */
	char			*widepath;	/* the file it was read from */
};

#define LABELW	9	/* "SYSTEM/s " */

static int
top_options(int argc, char *argv[], struct top *t)
{
	size_t k;
	int ch, rc;

	while ((ch = cli_getopts(argc, argv, &top_command, "i:s:ab",
	    top_opts)) != -1) {
		switch (ch) {
		case 's':
			for (k = 0; k < nitems(sortkeys); k++)
				if (strcmp(optarg, sortkeys[k]) == 0)
					break;
			if (k == nitems(sortkeys))
				return cli_usage_error(&top_command, "sort key "
				    "\"%s\" is not rate, total, irq or name",
				    text_quoted(optarg));
			t->sort = k;
			break;
		case 'a':
			t->all = true;
			break;
		case 'b':
			t->batch = true;
			break;
		default:
			if ((rc = cli_sampling_option(&top_command, ch, optarg,
			    &t->sm)) != EXIT_OK)
				return rc;
			break;
		}
	}
	if (!t->sm.on) {
		t->sm.on = t->sm.timed = true;
		t->sm.interval = 2;
	}
	return cli_sampling_check(&top_command, &t->sm);
}

/*
 * The title: when, over how long, and every CPU's interrupts a second;
 * on the screen drawn before the first interval, when rates come.
 */
static void
draw_title(struct top *t)
{
	double sum = 0;
	unsigned int cpu, n = 0;
	char *s;

	for (cpu = 0; cpu < t->m.nbits; cpu++)
		if (t->act.cpu[cpu].counted) {
			n++;
			if (t->act.cpu[cpu].rated)
				sum += t->act.cpu[cpu].irqs +
				    t->act.cpu[cpu].system;
		}
	if (t->act.reads < 2 && t->sm.timed)
		s = xasprintf("irqaff top: rates in %.2f s  %u CPUs",
		    t->sm.interval, n);
	else if (t->act.reads < 2)
		s = xasprintf("irqaff top: rates at the next copy  %u CPUs",
		    n);
	else
		s = xasprintf("%s  over %.2f s  %.1f interrupts/s on %u CPUs",
		    t->sm.stamp, t->sm.elapsed, sum / t->sm.elapsed, n);
	screen_line(&t->scr, s);
	free(s);
}

/* A CPU row's cell: the CPU, or a rate ("-" before it has one). */
static void
cpu_cell(struct top *t, FILE *fp, int width, unsigned int cpu, int what)
{
	const struct act_cpu *c = &t->act.cpu[cpu];

	if (what == 0)
		fprintf(fp, "%*u", width, cpu);
	else if (!c->rated)
		fprintf(fp, "%*s", width, "-");
	else
		fprintf(fp, "%*.1f", width, (what == 1 ? c->irqs : c->system) /
		    t->sm.elapsed);
}

/* The widest cell of the CPU rows, and a space. */
static int
cpu_width(const struct top *t)
{
	unsigned int cpu;
	int w = 4, len;
	double most = 0;

	for (cpu = 0; cpu < t->m.nbits; cpu++)
		if (t->act.cpu[cpu].rated) {
			if (t->act.cpu[cpu].irqs > most)
				most = t->act.cpu[cpu].irqs;
			if (t->act.cpu[cpu].system > most)
				most = t->act.cpu[cpu].system;
		}
	if (most > 0 &&
	    (len = snprintf(NULL, 0, "%.1f", most / t->sm.elapsed)) > w)
		w = len;
	if ((len = snprintf(NULL, 0, "%u", t->m.nbits - 1)) > w)
		w = len;
	return w + 1;
}

/*
 * One block of the CPU rows, per CPUs from the CPU from on: their
 * numbers, the numbered rows' rate, the other rows' (LOC:, RES:,
 * IPI0: ...). The CPU after the block.
 */
static unsigned int
draw_block(struct top *t, unsigned int from, unsigned int per, int width)
{
	static const char *const label[] = { "CPU", "IRQS/s", "SYSTEM/s" };
	unsigned int cpu = from, k;
	size_t len;
	char *line;
	FILE *fp;
	int what;

	for (what = 0; what < 3; what++) {
		fp = xmemstream(&line, &len);
		fprintf(fp, "%-*s", LABELW - 1, label[what]);
		for (cpu = from, k = 0; cpu < t->m.nbits && k < per; cpu++)
			if (t->act.cpu[cpu].counted) {
				cpu_cell(t, fp, width, cpu, what);
				k++;
			}
		xmemclose(fp);
		screen_line(&t->scr, line);
		free(line);
	}
	return cpu;
}

/*
 * The CPUs of the last read in blocks as wide as the screen, on half of
 * it at most; a line says how many more there are.
 */
static void
draw_cpus(struct top *t)
{
	unsigned int cpu, n = 0, per = t->m.nbits, blocks, fit, b;
	size_t half = screen_room(&t->scr) / 2;
	int width = cpu_width(t);
	char *line;

	for (cpu = 0; cpu < t->m.nbits; cpu++)
		n += t->act.cpu[cpu].counted;
	if (n == 0)
		return;
	if (t->scr.on)
		per = t->scr.cols > LABELW + (size_t)width ?
		    (t->scr.cols - LABELW) / width : 1;
	fit = blocks = (n + per - 1) / per;
	if (t->scr.on && 3 * (size_t)blocks > half)
		fit = half >= 4 ? (half - 1) / 3 : 0;
	for (b = 0, cpu = 0; b < fit; b++)
		cpu = draw_block(t, cpu, per, width);
	if (fit < blocks) {
		n -= fit * per;
		line = xasprintf("(and %u more CPU%s: a taller window, or -b)",
		    n, n == 1 ? "" : "s");
		screen_line(&t->scr, line);
		free(line);
	}
}

static int
by_irq(const void *a, const void *b)
{
	const struct act_irq *x = *(const struct act_irq *const *)a;
	const struct act_irq *y = *(const struct act_irq *const *)b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

static int
by_name(const void *a, const void *b)
{
	const struct act_irq *x = *(const struct act_irq *const *)a;
	const struct act_irq *y = *(const struct act_irq *const *)b;

	int c = strcmp(x->name, y->name);

	return c != 0 ? c : by_irq(a, b);
}

static int
by_total(const void *a, const void *b)
{
	const struct act_irq *x = *(const struct act_irq *const *)a;
	const struct act_irq *y = *(const struct act_irq *const *)b;

	if (x->total != y->total)
		return (x->total < y->total) - (x->total > y->total);
	return by_irq(a, b);
}

/* Busiest first; an IRQ new in this read has counted none. */
static int
by_rate(const void *a, const void *b)
{
	const struct act_irq *x = *(const struct act_irq *const *)a;
	const struct act_irq *y = *(const struct act_irq *const *)b;
	if (x->delta != y->delta)
		return (x->delta < y->delta) - (x->delta > y->delta);
	return by_irq(a, b);
}

/* The IRQs of the table in order: ties in IRQ order. */
static size_t
pick(struct top *t)
{
	static int (*const cmp[])(const void *, const void *) = {
		[SORT_RATE] = by_rate, [SORT_TOTAL] = by_total,
		[SORT_IRQ] = by_irq, [SORT_NAME] = by_name,
	};
	const struct act_irq *ai;
	size_t i, n = 0;

	t->shown = xreallocarray(t->shown, t->act.nirq + 1,
	    sizeof(*t->shown));
	for (i = 0; i < t->act.nirq; i++) {
		ai = &t->act.irq[i];
		if ((t->all || ai->delta > 0) &&
		    (!t->selected || select_find(&t->only, ai->irq, NULL)))
			t->shown[n++] = ai;
	}
	qsort(t->shown, n, sizeof(*t->shown), cmp[t->sort]);
	return n;
}

enum { T_IRQ, T_RATE, T_TOTAL, T_AFF, T_EFF, T_NAME, NT };

/* A row's cells, owned; "-" for what it lacks. */
static void
row_cells(struct top *t, const struct act_irq *ai, char *cell[NT])
{
	cell[T_IRQ] = xasprintf("%u", ai->irq);
	cell[T_RATE] = ai->rated ? xasprintf("%.1f", ai->delta /
	    t->sm.elapsed) : xstrdup("-");
	cell[T_TOTAL] = xasprintf("%llu", ai->total);
	cell[T_AFF] = machine_affinity_read(ai->irq, AFF_REQUESTED, t->set,
	    NULL) == 0 ? xformat(t->set, false) : xstrdup("-");
	cell[T_EFF] = machine_effective_read(t->m.online, ai->irq, t->set,
	    NULL) == 0 && !cpuset_empty(t->set) ? xformat(t->set, false) :
	    xstrdup("-");
	cell[T_NAME] = ai->name[0] != '\0' ? xescaped(ai->name) : xstrdup("-");
}

/* IRQ, RATE, TOTAL, AFFINITY, EFFECTIVE, NAME: as many as fit. */
static void
draw_irqs(struct top *t)
{
	static const char *const head[NT] = { "IRQ", "RATE", "TOTAL",
	    "AFFINITY", "EFFECTIVE", "NAME" };
	size_t i, k, n = pick(t), room = screen_room(&t->scr);
	int width[NT];
	char *(*cell)[NT], *line;

	if (n >= room)
		n = room > 0 ? room - 1 : 0;
	cell = xcalloc(n + 1, sizeof(*cell));
	for (k = 0; k < NT; k++)
		width[k] = strlen(head[k]);
	for (i = 0; i < n; i++) {
		row_cells(t, t->shown[i], cell[i]);
		for (k = 0; k < NT; k++)
			if ((int)strlen(cell[i][k]) > width[k])
				width[k] = strlen(cell[i][k]);
	}
	for (i = 0; i <= n; i++) {
		const char *const *c = i == 0 ? head : (const char **)cell[i - 1];

		line = xasprintf("%*s %*s %*s %-*s %-*s %s", width[T_IRQ],
		    c[T_IRQ], width[T_RATE], c[T_RATE], width[T_TOTAL],
		    c[T_TOTAL], width[T_AFF], c[T_AFF], width[T_EFF], c[T_EFF],
		    c[T_NAME]);
		screen_line(&t->scr, line);
		free(line);
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < NT; k++)
			free(cell[i][k]);
	free(cell);
}

/*
 * Between the CPUs and the IRQs on a terminal that gives keys: the IRQs'
 * order and the keys that change it, the order first, as it is cut at
 * the screen's width. Elsewhere a blank line, between screens too.
 */
static void
draw_order(struct top *t)
{
	static const char *const order[] = {
		[SORT_RATE] = "by rate, busiest first",
		[SORT_TOTAL] = "by total, largest first",
		[SORT_IRQ] = "by IRQ", [SORT_NAME] = "by name" };
	char *s;

	if (!t->scr.keys) {
		screen_line(&t->scr, "");
		return;
	}
	s = xasprintf("IRQs %s  keys: r rate, t total, i IRQ, n name, q quit",
	    order[t->sort]);
	screen_line(&t->scr, s);
	free(s);
}

static void
draw(struct top *t)
{
	screen_begin(&t->scr);
	draw_title(t);
	draw_cpus(t);
	draw_order(t);
	draw_irqs(t);
	screen_end(&t->scr);
}

/*
 * On a terminal, keys and resizes until the next read is due: q ends
 * the view, the first letter of a sort key sorts by it (irqtop's keys).
 */
static bool
wait_next(struct top *t)
{
	double left;
	size_t k;
	int ev;

	while (t->scr.on && (left = cli_sampling_left(&t->sm)) > 0) {
		if ((ev = screen_wait(&t->scr, left)) == SCREEN_QUIT ||
		    (ev == SCREEN_KEY && t->scr.key == 'q'))
			return false;
		for (k = 0; ev == SCREEN_KEY && k < nitems(sortkeys); k++)
			if (t->scr.key == sortkeys[k][0])
				t->sort = k;
		if (ev != SCREEN_TIME)
			draw(t);
	}
	return true;
}

/* A read, and the first row left out of any, said at the end. */
static int
read_counts(struct top *t)
{
	if (activity_read(&t->act, t->sm.src) != 0)
		return -1;
	if (t->wide < 0 && t->act.wide >= 0) {
		t->wide = t->act.wide;
		t->widepath = xstrdup(counts_path(t->sm.src));
	}
	return 0;
}

static int
run(struct top *t)
{
	long long n, count = t->sm.count;

	/* plain, one screen as cpus -i takes one sample; live, until q */
	if (count == 0 && (t->sm.nfrom > 0 || !t->scr.on))
		count = 1;
	cli_sampling_begin(&t->sm);
	if (read_counts(t) != 0)
		return EXIT_FAIL;
	if (t->scr.on)
		draw(t);
	for (n = 0; count == 0 || n < count; n++) {
		if (!wait_next(t))
			break;
		cli_sampling_next(&t->sm, false);
		if (read_counts(t) != 0)
			return EXIT_FAIL;
		if (n > 0 && !t->scr.on)
			putchar('\n');
		draw(t);
		if (fflush(stdout) != 0)
			break;
	}
	return EXIT_OK;
}

static int
top_main(int argc, char *argv[])
{
	struct top t;
	int status;

	memset(&t, 0, sizeof(t));
	t.wide = -1;
	if ((status = top_options(argc, argv, &t)) != EXIT_OK ||
	    machine_load(&t.m) != 0) {
		cli_sampling_free(&t.sm);
		return status != EXIT_OK ? status : EXIT_FAIL;
	}
	/* as grep: a selection that picks nothing is exit 1 */
	if ((t.selected = argc > optind) && ((status = cli_exit_status(
	    select_query_many(argc - optind, argv + optind, &t.only,
	    false))) != EXIT_OK || t.only.n == 0)) {
		status = status != EXIT_OK ? status : EXIT_FAIL;
		goto out;
	}
	activity_init(&t.act, t.m.nbits);
	t.set = xcpuset(t.m.nbits);
	screen_open(&t.scr, t.batch);
	status = run(&t);
	screen_close(&t.scr);
	/* "%10u": the kernel cannot have printed it; said once, at the end */
	if (t.wide >= 0)
		warnx("%s: IRQ %lld: a count wider than 32 bits; its row is "
		    "left out", t.widepath, t.wide);
	free(t.widepath);
	cpuset_free(t.set);
	free(t.shown);
	activity_free(&t.act);
out:
	select_free(&t.only);
	machine_free(&t.m);
	cli_sampling_free(&t.sm);
	return status;
}
