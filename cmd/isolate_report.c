/*
 * isolate's reports: each IRQ the CPUs keep and the notes, on standard
 * error, or as JSON; and the names and sets both halves print.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/isolate.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/findings.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "lib/text.h"
#include "parse.h"

/* "irq N NAMES: " */
void
isolate_print_name(unsigned int irq)
{
	char *raw = select_names(irq), *name;

	name = xescaped(raw);
	printf("irq %u%s%s: ", irq, *name ? " " : "", name);
	free(name);
	free(raw);
}

void
isolate_json_set(const char *sep, const char *key, const struct cpuset *set)
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

/* What the entry's kind says of its movability, for its words. */
enum movable
isolate_movability(const struct entry *e)
{
	return e->kind == K_MANAGED ? MOVABLE_MANAGED : MOVABLE_NO;
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
		isolate_json_set(",", "requested", e->from);
	if (e->on != NULL)
		isolate_json_set(",", e->guessed ? "requested" : "effective", e->on);
	putchar('}');
}

/* ,"KEY":[the IRQs that pick takes],"findings":...} and the newline. */
void
isolate_json_irqs(const struct isolate *is, const char *key,
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

/* The kernel keeps it on the CPUs; debugfs said it manages it. */
bool
isolate_managed_here(const struct entry *e)
{
	return (e->kind == K_MANAGED || e->result == APPLY_MANAGED) &&
	    e->on != NULL && !e->kept;
}

/* The kernel keeps it on the CPUs and does not say why. */
bool
isolate_unmovable_here(const struct entry *e)
{
	return (e->kind == K_UNMOVABLE || e->result == APPLY_UNMOVABLE) &&
	    e->on != NULL && !e->kept;
}

/* The kernel keeps it there: as above, or kept (isolcpus=managed_irq). */
static bool
stuck_here(const struct entry *e)
{
	return isolate_managed_here(e) || isolate_unmovable_here(e) || e->kept;
}

/*
 * -J: the result every command gives, and the managed IRQs that stay on
 * the CPUs, where they run, with the findings.
 */
void
isolate_print_result(struct isolate *is)
{
	struct qname *q;
	size_t i;

	printf("{\"cpus\":\"%s\",", is->iso.list);
	apply_tally_json(stdout, &is->tl, is->flags);
	q = xcalloc(is->nrq + 1, sizeof(*q));
	for (i = 0; i < is->nrq; i++)
		q[i] = is->rq[i].q;
	result_queues(&is->tq, q, is->nrq);
	free(q);
	isolate_json_irqs(is, "stuck", stuck_here);
}

/* Where the IRQs that test says of run on the CPUs: owned. */
struct cpuset *
isolate_where(const struct isolate *is, bool (*test)(const struct entry *))
{
	struct cpuset *on = xcpuset(is->m.nbits);
	size_t i;

	for (i = 0; i < is->n; i++)
		if (test(&is->e[i]))
			cpuset_or(on, is->e[i].on);
	cpuset_and(on, is->cpus);
	return on;
}

/* isolate's notes, on standard error: what it could not do itself. */
void
isolate_warn_notes(const struct isolate *is)
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
			    machine_movable_words(isolate_movability(e), MV_BRIEF), on);
		else
			warnx("irq %u%s%s: %s, %s CPU %s", e->irq,
			    *name ? " " : "", name,
			    machine_movable_words(isolate_managed_here(e) ?
			    MOVABLE_MANAGED : MOVABLE_NO, MV_PLAIN),
			    e->guessed ? "may run on" : "runs on", on);
		free(name);
		free(raw);
		free(on);
	}
	for (i = 0; i < is->notes.n; i++)
		warnx("%s: %s: %s", strcmp(is->notes.v[i].code,
		    "irqbalance") == 0 ? "warning" : "note",
		    is->notes.v[i].code, is->notes.v[i].text);
}
