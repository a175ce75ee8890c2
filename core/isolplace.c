/*
 * Where isolate puts an IRQ whose own CPUs are all kept free: a set of
 * the CPUs that remain, node-local first.
 */
#include <stdlib.h>

#include "core/isolplan.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "parse.h"

/*
 * An IRQ that would keep no online CPU goes to the housekeeping CPUs of
 * its node, or all of them when its node has none.
 */
static struct cpuset *
fallback(struct isoplan *is, unsigned int irq)
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

void
isoplan_place(struct isoplan *is)
{
	struct isoirq *e;
	size_t i;

	for (i = 0; i < is->n; i++) {
		e = &is->e[i];
		if (e->kind == IK_MOVE && e->to == NULL) {
			e->to = fallback(is, e->irq);
			e->placed = true;
		}
	}
}
