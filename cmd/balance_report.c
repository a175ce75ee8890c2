/*
 * balance's reports: the plan and the CPU loads for people, in a plan
 * file for restore, and as JSON beside the result. Decides nothing.
 */
#include <err.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/balance.h"
#include "cmd/cli.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/snapshot.h"
#include "core/xalloc.h"
#include "core/xpsfollow.h"
#include "lib/snapline.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static double
rate(const struct balance *b, uint64_t count)
{
	return count / b->sm.elapsed;
}

/* The CPUs of the load table: the eligible, and any other with a load. */
static bool
shown(const struct balance *b, int cpu)
{
	return cpuset_test(b->elig, cpu) || (cpuset_test(b->m.online, cpu) &&
	    (b->p.before[cpu] > 0 || b->p.after[cpu] > 0));
}

static bool
moves(const struct balitem *it)
{
	return it->why != BAL_KEEP;
}

static const char *const why_word[] = {
	[BAL_KEEP] = "keep", [BAL_MOVE] = "move", [BAL_PAIR] = "pair"
};

static const char *const still_word[] = {
	[BAL_MOVES] = NULL, [BAL_IDLE] = "idle", [BAL_EVEN] = "even",
	[BAL_ONE] = "one-irq"
};

/* "no IRQ to move", and why. */
static void
print_still(const struct balance *b)
{
	char *raw, *name;

	switch (b->p.still) {
	case BAL_MOVES:
		return;
	case BAL_IDLE:
		printf("no IRQ to move: the IRQs it may move are quiet (at "
		    "most %d interrupts each in %.1f s)\n", PLACEMENT_QUIET,
		    b->sm.elapsed);
		return;
	case BAL_EVEN:
		printf("no IRQ to move: already even (no move lowers the "
		    "busiest CPU beyond the noise)\n");
		return;
	case BAL_ONE:
		raw = select_names(b->p.one_irq);
		name = xescaped(raw);
		printf("no IRQ to move: the busiest CPU, %d, holds irq %u "
		    "(%s) at %.1f/s, above the mean of the CPUs alone; %s\n",
		    b->p.one_cpu, b->p.one_irq, name,
		    rate(b, b->p.one_count), b->p.one_item ?
		    "one IRQ cannot be split" :
		    machine_irq_movable(b->p.one_irq) >= MOVABLE_MANAGED ?
		    "user space cannot move it" : "it is not selected");
		free(name);
		free(raw);
		return;
	}
}

static int
listlen(const struct cpuset *set)
{
	char *list = xformat(set, false);
	int len = strlen(list);

	free(list);
	return len;
}

static void
print_plan(const struct balance *b, const struct change *c,
    const struct xq *xq, size_t nx)
{
	const struct balitem *it;
	char *name, *raw, *new, *old, r[32];
	int wr = 4, wo = 3, wn = 3, wi = 3, len;
	size_t i, shown_n = 0;

	for (i = 0; i < b->p.n; i++) {
		it = &b->p.it[i];
		if (!b->verbose && !moves(it))
			continue;
		shown_n++;
		len = snprintf(r, sizeof(r), "%.1f", rate(b, it->count));
		wr = len > wr ? len : wr;
		len = listlen(it->old);
		wo = len > wo ? len : wo;
		len = listlen(it->want);
		wn = len > wn ? len : wn;
		len = snprintf(r, sizeof(r), "%u", it->irq);
		wi = len > wi ? len : wi;
	}
	print_still(b);
	if (shown_n > 0)
		printf("%*s %*s %*s %*s NAME\n", wi, "IRQ", wr, "RATE", wo,
		    "OLD", wn, "NEW");
	for (i = 0; i < b->p.n; i++) {
		it = &b->p.it[i];
		if (!b->verbose && !moves(it))
			continue;
		raw = select_names(it->irq);
		name = xescaped(raw);
		old = xformat(it->old, false);
		new = xformat(it->want, false);
		if (it->rated)
			snprintf(r, sizeof(r), "%.1f", rate(b, it->count));
		else
			strlcpy(r, "-", sizeof(r));
		printf("%*u %*s %*s %*s %s\n", wi, it->irq, wr, r, wo,
		    *old ? old : "-", wn, *new ? new : "-", name);
		free(old);
		free(new);
		free(name);
		free(raw);
	}
	for (i = 0; i < nx; i++) {
		old = xformat(xq[i].old, false);
		new = xformat(c[xq[i].ci].want, false);
		if (b->verbose || strcmp(old, new) != 0)
			printf("xps %s: %s -> %s\n", xq[i].label,
			    *old ? old : "-", new);
		free(old);
		free(new);
	}
}

static void
print_loads(const struct balance *b)
{
	char s[32];
	int wc = 3, wb = 6, wa = 5, len, c;
	double ib, ia;
	char *list;

	for (c = 0; c < (int)b->m.nbits; c++) {
		if (!shown(b, c))
			continue;
		len = snprintf(s, sizeof(s), "%d", c);
		wc = len > wc ? len : wc;
		len = snprintf(s, sizeof(s), "%.1f", rate(b, b->p.before[c]));
		wb = len > wb ? len : wb;
		len = snprintf(s, sizeof(s), "%.1f", rate(b, b->p.after[c]));
		wa = len > wa ? len : wa;
	}
	printf("\n%*s %*s %*s\n", wc, "CPU", wb, "BEFORE", wa, "AFTER");
	for (c = 0; c < (int)b->m.nbits; c++)
		if (shown(b, c))
			printf("%*d %*.1f %*.1f\n", wc, c, wb,
			    rate(b, b->p.before[c]), wa,
			    rate(b, b->p.after[c]));
	ib = balplan_imbalance(&b->p, b->p.before);
	ia = balplan_imbalance(&b->p, b->p.after);
	list = xformat(b->elig, false);
	if (ib == -1 && ia == -1)
		printf("\nimbalance: - (no interrupts on CPUs %s)\n", list);
	else if (ib == -2 || ia == -2)
		printf("\nimbalance: - (fewer than %d interrupts on the "
		    "busiest of CPUs %s: too few to compare)\n",
		    BALPLAN_FIGURE, list);
	else
		printf("\nimbalance: %.2f -> %.2f (the busiest of CPUs %s "
		    "over their mean)\n", ib < 0 ? 0 : ib, ia < 0 ? 0 : ia,
		    list);
	free(list);
}

static void
json_imbalance(const char *key, double v)
{
	if (v < 0)
		printf("\"%s\":null", key);
	else
		printf("\"%s\":%.3f", key, v);
}

/* "plan": each IRQ, its rate, its CPUs and why. */
static void
print_json_items(const struct balance *b)
{
	const struct balitem *it;
	char *name, *old, *new;
	const char *sep = "";
	size_t i;

	printf(",\"plan\":[");
	for (i = 0; i < b->p.n; i++) {
		it = &b->p.it[i];
		name = select_names(it->irq);
		printf("%s{\"irq\":%u,\"name\":", sep, it->irq);
		text_json_string(stdout, name);
		if (it->rated)
			printf(",\"count\":%" PRIu64 ",\"rate\":%.1f",
			    it->count, rate(b, it->count));
		else
			printf(",\"count\":null,\"rate\":null");
		old = xformat(it->old, false);
		new = xformat(it->want, false);
		printf(",\"old\":\"%s\",\"new\":\"%s\",\"reason\":\"%s\"}",
		    old, new, why_word[it->why]);
		free(old);
		free(new);
		sep = ",";
		free(name);
	}
	putchar(']');
}

/* The rates and loads beside the result: "plan", "loads", "imbalance". */
static void
print_json_plan(const struct balance *b)
{
	const char *sep = "";
	char *list;
	int c;

	list = xformat(b->elig, false);
	printf(",\"interval\":%.3f,\"cpus\":\"%s\",", b->sm.elapsed, list);
	free(list);
	list = xformat(b->p.left, false);
	printf("\"isolated\":\"%s\",\"imbalance\":{", list);
	free(list);
	json_imbalance("before", balplan_imbalance(&b->p, b->p.before));
	putchar(',');
	json_imbalance("after", balplan_imbalance(&b->p, b->p.after));
	printf("},\"no_move\":");
	if (still_word[b->p.still] == NULL)
		printf("null");
	else
		printf("\"%s\"", still_word[b->p.still]);
	if (b->p.still == BAL_ONE)
		printf(",\"busiest\":{\"cpu\":%d,\"irq\":%u,\"count\":%"
		    PRIu64 ",\"rate\":%.1f,\"planned\":%s}", b->p.one_cpu,
		    b->p.one_irq, b->p.one_count, rate(b, b->p.one_count),
		    b->p.one_item ? "true" : "false");
	print_json_items(b);
	printf(",\"loads\":[");
	for (c = 0; c < (int)b->m.nbits; c++) {
		if (!shown(b, c))
			continue;
		printf("%s{\"cpu\":%d,\"eligible\":%s,\"before\":{\"count\":%"
		    PRIu64 ",\"rate\":%.1f},\"after\":{\"count\":%" PRIu64
		    ",\"rate\":%.1f}}", sep, c,
		    cpuset_test(b->elig, c) ? "true" : "false",
		    b->p.before[c], rate(b, b->p.before[c]), b->p.after[c],
		    rate(b, b->p.after[c]));
		sep = ",";
	}
	putchar(']');
}

void
balance_members(void *arg)
{
	const struct balance_json *bj = arg;
	size_t i;

	print_json_plan(bj->b);
	printf(",\"freed\":[");
	for (i = 0; i < bj->b->p.nfreed; i++)
		printf("%s%u", i > 0 ? "," : "", bj->b->p.freed[i]);
	putchar(']');
	if (bj->b->xps)
		xpsfollow_json(stdout, bj->c, bj->xq, bj->nx);
}

/*
 * The plan line: the CPUs the plan was made for, and those of them that
 * are isolated (--include-isolated, or named by --cpus), chosen so.
 */
static void
plan_line(FILE *fp, const struct balance *b)
{
	struct snapline sl;

	memset(&sl, 0, sizeof(sl));
	sl.kind = SNAP_PLAN;
	sl.cpus = xformat(b->elig, false);
	if (!cpuset_empty(b->p.isolated))
		sl.isolated = xformat(b->p.isolated, false);
	snapline_format(fp, &sl);
	putc('\n', fp);
	snapline_free(&sl);
}

/*
 * --plan FILE: the plan as a snapshot (irqaff.conf(5)) that restore
 * applies as it is, measuring nothing: a plan line with the CPUs it was
 * made for, a line for each IRQ and with --xps for each queue, the rates
 * and loads as comments. "-" is standard output. 0, or -1 after saying
 * why.
 */
static int
plan_write(struct balance *b, const struct change *c,
    const struct xq *xq, size_t nx)
{
	const struct balitem *it;
	char *text = NULL, *old, *new;
	size_t len = 0, i;
	enum nqkind kind;
	unsigned int q;
	FILE *fp;
	int rc = 0, cpu;

	fp = xmemstream(&text, &len);
	fprintf(fp, "# irqaff balance plan, rates over %.3f s\n"
	    "# restore applies it as it is; see irqaff.conf(5)\n",
	    b->sm.elapsed);
	plan_line(fp, b);
	for (i = 0; i < b->p.n; i++) {
		it = &b->p.it[i];
		new = xformat(it->want, false);
		old = xformat(it->old, false);
		snapshot_put_irq(fp, it->irq, new, false);
		if (it->rated)
			fprintf(fp, " # %.1f/s,", rate(b, it->count));
		else
			fprintf(fp, " # no rate,");
		fprintf(fp, " was %s\n", *old ? old : "-");
		free(old);
		free(new);
	}
	for (i = 0; i < nx; i++) {
		new = xformat(c[xq[i].ci].want, false);
		if (netqueue_parse(xq[i].queue, &kind, &q))
			snapshot_put_queue(fp, kind == NQ_TX, xq[i].dev, q, new,
			    false);
		putc('\n', fp);
		free(new);
	}
	for (cpu = 0; cpu < (int)b->m.nbits; cpu++)
		if (shown(b, cpu))
			fprintf(fp, "# CPU %d: %.1f/s -> %.1f/s\n", cpu,
			    rate(b, b->p.before[cpu]),
			    rate(b, b->p.after[cpu]));
	xmemclose(fp);
	if (strcmp(b->planfile, "-") == 0)
		fwrite(text, 1, len, stdout);
	else if ((rc = procfs_file_replace(b->planfile, text, len)) != 0)
		warnc(-rc, "%s", text_quoted(b->planfile));
	free(text);
	return rc != 0 ? -1 : 0;
}

/* The plan for people, or with --plan FILE in FILE; 0, or -1 if said. */
int
balance_show_plan(struct balance *b, const struct change *c,
    const struct xq *xq, size_t nx)
{
	if (b->planfile != NULL && plan_write(b, c, xq, nx) != 0)
		return -1;
	if (b->json || (b->planfile != NULL && strcmp(b->planfile, "-") == 0))
		return 0;
	print_plan(b, c, xq, nx);
	print_loads(b);
	return fflush(stdout) == 0 ? 0 : -1;
}
