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
#include "core/snapshot.h"
#include "core/xalloc.h"
#include "core/xpsfollow.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

/* The busiest eligible CPU's load over their mean, or -1 with no load. */
static double
imbalance(const struct balance *b, const uint64_t *load)
{
	uint64_t max = 0, sum = 0;
	unsigned int n = 0;
	int c;

	for (c = cpuset_first(b->elig); c >= 0;
	    c = cpuset_next(b->elig, c + 1)) {
		sum += load[c];
		n++;
		if (load[c] > max)
			max = load[c];
	}
	return sum == 0 ? -1 : (double)max * n / sum;
}

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
	    (b->before[cpu] > 0 || b->after[cpu] > 0));
}

static bool
moves(const struct item *it)
{
	char s[16];

	snprintf(s, sizeof(s), "%d", it->cpu);
	return strcmp(it->old, s) != 0;
}

static void
print_plan(const struct balance *b, const struct xq *xq, size_t nx)
{
	char *name, *raw, *old, *new, r[32];
	int wr = 4, wo = 3, wn = 3, wi = 3, len;
	size_t i, shown_n = 0;

	for (i = 0; i < b->n; i++) {
		if (!b->verbose && !moves(&b->it[i]))
			continue;
		shown_n++;
		len = snprintf(r, sizeof(r), "%.1f", rate(b, b->it[i].count));
		wr = len > wr ? len : wr;
		len = strlen(b->it[i].old);
		wo = len > wo ? len : wo;
		len = snprintf(r, sizeof(r), "%d", b->it[i].cpu);
		wn = len > wn ? len : wn;
		len = snprintf(r, sizeof(r), "%u", b->it[i].irq);
		wi = len > wi ? len : wi;
	}
	if (shown_n == 0)
		printf("no IRQ to move\n");
	else
		printf("%*s %*s %*s %*s NAME\n", wi, "IRQ", wr, "RATE", wo,
		    "OLD", wn, "NEW");
	/* in IRQ order, for people */
	for (i = 0; i < b->n; i++) {
		if (!b->verbose && !moves(&b->it[i]))
			continue;
		raw = select_names(b->it[i].irq);
		name = xescaped(raw);
		old = b->it[i].old;
		if (b->it[i].rated)
			snprintf(r, sizeof(r), "%.1f", rate(b, b->it[i].count));
		else
			strlcpy(r, "-", sizeof(r));
		printf("%*u %*s %*s %*d %s\n", wi, b->it[i].irq, wr, r, wo,
		    *old ? old : "-", wn, b->it[i].cpu, name);
		free(name);
		free(raw);
	}
	for (i = 0; i < nx; i++) {
		old = xformat(xq[i].old, false);
		new = xformat(b->it[xq[i].ci].want, false);
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
		len = snprintf(s, sizeof(s), "%.1f", rate(b, b->before[c]));
		wb = len > wb ? len : wb;
		len = snprintf(s, sizeof(s), "%.1f", rate(b, b->after[c]));
		wa = len > wa ? len : wa;
	}
	printf("\n%*s %*s %*s\n", wc, "CPU", wb, "BEFORE", wa, "AFTER");
	for (c = 0; c < (int)b->m.nbits; c++)
		if (shown(b, c))
			printf("%*d %*.1f %*.1f\n", wc, c, wb,
			    rate(b, b->before[c]), wa, rate(b, b->after[c]));
	ib = imbalance(b, b->before);
	ia = imbalance(b, b->after);
	list = xformat(b->elig, false);
	if (ib < 0 && ia < 0)
		printf("\nimbalance: - (no interrupts on CPUs %s)\n", list);
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

/* The rates and loads beside the result: "plan", "loads", "imbalance". */
static void
print_json_plan(const struct balance *b)
{
	const struct item *it;
	char *list, *name;
	const char *sep = "";
	size_t i;
	int c;

	list = xformat(b->elig, false);
	printf(",\"interval\":%.3f,\"cpus\":\"%s\",", b->sm.elapsed, list);
	free(list);
	list = xformat(b->left, false);
	printf("\"isolated\":\"%s\",\"imbalance\":{", list);
	free(list);
	json_imbalance("before", imbalance(b, b->before));
	putchar(',');
	json_imbalance("after", imbalance(b, b->after));
	printf("},\"plan\":[");
	for (i = 0; i < b->n; i++) {
		it = &b->it[i];
		name = select_names(it->irq);
		printf("%s{\"irq\":%u,\"name\":", sep, it->irq);
		text_json_string(stdout, name);
		if (it->rated)
			printf(",\"count\":%" PRIu64 ",\"rate\":%.1f",
			    it->count, rate(b, it->count));
		else
			printf(",\"count\":null,\"rate\":null");
		printf(",\"old\":\"%s\",\"new\":\"%d\"}", it->old, it->cpu);
		sep = ",";
		free(name);
	}
	printf("],\"loads\":[");
	sep = "";
	for (c = 0; c < (int)b->m.nbits; c++) {
		if (!shown(b, c))
			continue;
		printf("%s{\"cpu\":%d,\"eligible\":%s,\"before\":{\"count\":%"
		    PRIu64 ",\"rate\":%.1f},\"after\":{\"count\":%" PRIu64
		    ",\"rate\":%.1f}}", sep, c,
		    cpuset_test(b->elig, c) ? "true" : "false", b->before[c],
		    rate(b, b->before[c]), b->after[c], rate(b, b->after[c]));
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
	for (i = 0; i < bj->b->nfreed; i++)
		printf("%s%u", i > 0 ? "," : "", bj->b->freed[i]);
	putchar(']');
	if (bj->b->xps)
		xpsfollow_json(stdout, bj->c, bj->xq, bj->nx);
}

/*
 * --plan FILE: the plan as a snapshot (irqaff.conf(5)) that restore
 * applies as it is, measuring nothing: a plan line with the CPUs it was
 * made for, a line for each IRQ and with --xps for each queue, the rates
 * and loads as comments. "-" is standard output. 0, or -1 after saying
 * why.
 */
static int
plan_write(const struct balance *b, const struct xq *xq, size_t nx)
{
	char *text = NULL, *list;
	size_t len = 0, i;
	FILE *fp;
	int rc = 0, c;

	fp = xmemstream(&text, &len);
	list = xformat(b->elig, false);
	fprintf(fp, "# irqaff balance plan, rates over %.3f s\n"
	    "# restore applies it as it is; see irqaff.conf(5)\nplan %s\n",
	    b->sm.elapsed, list);
	free(list);
	for (i = 0; i < b->n; i++) {
		fprintf(fp, "%u %d", b->it[i].irq, b->it[i].cpu);
		snapshot_put_names(fp, b->it[i].irq);
		if (b->it[i].rated)
			fprintf(fp, " # %.1f/s,", rate(b, b->it[i].count));
		else
			fprintf(fp, " # no rate,");
		fprintf(fp, " was %s\n", *b->it[i].old ? b->it[i].old : "-");
	}
	for (i = 0; i < nx; i++) {
		fputs("xps ", fp);
		snapshot_put_dev(fp, xq[i].dev);
		fprintf(fp, " %s %d\n", xq[i].queue, b->it[xq[i].ci].cpu);
	}
	for (c = 0; c < (int)b->m.nbits; c++)
		if (shown(b, c))
			fprintf(fp, "# CPU %d: %.1f/s -> %.1f/s\n", c,
			    rate(b, b->before[c]), rate(b, b->after[c]));
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
balance_show_plan(const struct balance *b, const struct xq *xq, size_t nx)
{
	if (b->planfile != NULL && plan_write(b, xq, nx) != 0)
		return -1;
	if (b->json || (b->planfile != NULL && strcmp(b->planfile, "-") == 0))
		return 0;
	print_plan(b, xq, nx);
	print_loads(b);
	return fflush(stdout) == 0 ? 0 : -1;
}
