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
#include "core/isolplan.h"
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

/* An IRQ and where it runs, or with --check also its kind. */
static void
json_irq(const struct isoplan *is, const struct isoirq *e)
{
	char *name = select_names(e->irq);

	printf("{\"irq\":%u,\"name\":", e->irq);
	text_json_string(stdout, name);
	free(name);
	if (is->check || e->kind == IK_UNMOVABLE || e->kept ||
	    e->result == APPLY_UNMOVABLE)
		printf(",\"kind\":\"%s\"", isoplan_kind_name(e));
	if (is->check && e->from != NULL && !e->guessed)
		isolate_json_set(",", "requested", e->from);
	if (e->on != NULL)
		isolate_json_set(",", e->guessed ? "requested" : "effective", e->on);
	putchar('}');
}

/* ,"KEY":[the IRQs that pick takes],"findings":...} and the newline. */
void
isolate_json_irqs(const struct isoplan *is, const char *key,
    bool (*pick)(const struct isoirq *))
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

/*
 * -J: the result every command gives, and the managed IRQs that stay on
 * the CPUs, where they run, with the findings.
 */
void
isolate_print_result(struct isoplan *is)
{
	struct qname *q;
	size_t i;

	printf("{\"cpus\":\"%s\",", is->iso.list);
	result_tally_json(&is->tl, is->flags);
	q = xcalloc(is->nrq + 1, sizeof(*q));
	for (i = 0; i < is->nrq; i++) {
		q[i].dev = is->rq[i].dev;
		strlcpy(q[i].queue, is->rq[i].queue, sizeof(q[i].queue));
	}
	result_queues(&is->tq, q, is->nrq);
	free(q);
	isolate_json_irqs(is, "stuck", isoplan_stuck_here);
}

/* isolate's notes, on standard error: what it could not do itself. */
void
isolate_warn_notes(const struct isoplan *is)
{
	const struct isoirq *e;
	char *on, *raw, *name;
	size_t i;

	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		if (!isoplan_stuck_here(e))
			continue;
		on = xformat(e->on, false);
		raw = select_names(e->irq);
		name = xescaped(raw);
		if (e->kept)
			warnx("irq %u%s%s: %s, kept on isolated CPU %s "
			    "(managed_irq)", e->irq, *name ? " " : "", name,
			    machine_movable_words(isoplan_movability(e), MV_BRIEF), on);
		else
			warnx("irq %u%s%s: %s, %s CPU %s", e->irq,
			    *name ? " " : "", name,
			    machine_movable_words(isoplan_managed_here(e) ?
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
