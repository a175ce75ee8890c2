/*
 * What /sys/kernel/irq/N says about one IRQ: a few small files per IRQ in
 * place of the whole /proc/interrupts matrix, which on a large machine
 * is hundreds of megabytes of kernel formatting.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/counts.h"
#include "core/irqinfo.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "lib/interrupts.h"
#include "parse.h"
#include "procfs.h"


/* Kernels without CONFIG_SPARSE_IRQ have no sys/kernel/irq: asked once. */
bool
irqinfo_present(void)
{
	static int present = -1;

	if (present < 0)
		present = procfs_exists(PATH_SYS_IRQ);
	return present;
}

/* The file's first line; NULL when it is empty or unreadable. */
static char *
read_line(unsigned int irq, const char *file)
{
	char rel[64], *buf, *line = NULL;
	size_t len;

	snprintf(rel, sizeof(rel), PATH_SYS_IRQ_FILE, irq, file);
	if (procfs_read(rel, &buf) != 0)
		return NULL;
	if ((len = strcspn(buf, "\n")) > 0)
		line = xstrndup(buf, len);
	free(buf);
	return line;
}

/*
 * per_cpu_count: "%u" for each possible CPU, ","-joined, then "\n"
 * (per_cpu_count_show()). The sum over the online CPUs is what
 * /proc/interrupts counts. sysfs gives one page: on large machines the
 * text is cut, without its newline, and only /proc/interrupts has the
 * total; so does anything else unexpected.
 */
static int
sum_online(const char *s, const struct machine *m, unsigned long long *total)
{
	unsigned long long v, sum = 0;
	int cpu = cpuset_first(m->possible);

	for (;;) {
		if (cpu < 0 || *s < '0' || *s > '9')
			return -EINVAL;
		for (v = 0; *s >= '0' && *s <= '9'; s++)
			if ((v = v * 10 + (*s - '0')) > UINT_MAX)
				return -EINVAL;
		if (cpuset_test(m->online, cpu))
			sum += v;
		cpu = cpuset_next(m->possible, cpu + 1);
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\n' && s[1] == '\0' && cpu < 0)
			break;
		return -EINVAL;
	}
	*total = sum;
	return 0;
}

static void
read_total(const struct machine *m, unsigned int irq, struct irqinfo *in)
{
	char rel[64], *buf;

	snprintf(rel, sizeof(rel), PATH_SYS_IRQ_FILE, irq, "per_cpu_count");
	if (procfs_read(rel, &buf) != 0)
		return;
	in->has_total = sum_online(buf, m, &in->total) == 0;
	free(buf);
}

/* "edge" or "level" (type_show()), as /proc/interrupts words it. */
static char *
read_type(unsigned int irq)
{
	char *t = read_line(irq, "type");

	if (t != NULL && strcmp(t, "edge") == 0)
		memcpy(t, "Edge", 4);
	else if (t != NULL && strcmp(t, "level") == 0)
		memcpy(t, "Level", 5);
	return t;
}

/* actions: ","-joined (actions_show()); /proc/interrupts joins by ", ". */
static char *
read_names(unsigned int irq)
{
	char *a, *s, *p;
	const char *q;
	size_t n = 0;

	if ((a = read_line(irq, "actions")) == NULL)
		return NULL;
	for (q = a; (q = strchr(q, ',')) != NULL; q++)
		n++;
	p = s = xcalloc(1, strlen(a) + n + 1);
	for (q = a; *q != '\0'; q++) {
		*p++ = *q;
		if (*q == ',')
			*p++ = ' ';
	}
	free(a);
	return s;
}

/*
 * 0, or -ENOENT when the kernel has no sys/kernel/irq/N. A cut
 * per_cpu_count leaves has_total false.
 */
int
irqinfo_read(const struct machine *m, unsigned int irq, int what,
    struct irqinfo *in)
{
	char rel[64];

	memset(in, 0, sizeof(*in));
	snprintf(rel, sizeof(rel), PATH_SYS_IRQ_N, irq);
	if (!irqinfo_present() || !procfs_exists(rel))
		return -ENOENT;
	if (what & INFO_TOTAL)
		read_total(m, irq, in);
	if (what & INFO_CHIP)
		in->chip = read_line(irq, "chip_name");
	if (what & INFO_HWIRQ)
		in->hwirq = read_line(irq, "hwirq");
	if (what & INFO_TYPE)
		in->type = read_type(irq);
	if (what & INFO_FLOW)
		in->flow = read_line(irq, "name");
	if (what & INFO_NAMES)
		in->names = read_names(irq);
	return 0;
}

void
irqinfo_free(struct irqinfo *in)
{
	free(in->chip);
	free(in->hwirq);
	free(in->type);
	free(in->flow);
	free(in->names);
	memset(in, 0, sizeof(*in));
}

/*
 * The totals sys/kernel/irq could not give, from proc/interrupts, read up
 * to the last IRQ of v (sorted): known[i] says whether v[i]'s row was
 * there. 0 or a negative errno.
 */
int
irqinfo_totals(const unsigned int *v, size_t n, unsigned long long *total,
    bool *known)
{
	struct counts rd;
	struct irqrow r;
	unsigned int irq;
	size_t at = 0;
	int rc;

	if (n == 0)
		return 0;
	if ((rc = counts_open(&rd, NULL, 0, COUNTS_TOTAL | COUNTS_QUIET)) != 0)
		return rc;
	while (at < n && counts_next(&rd, &irq) == 1) {
		while (at < n && v[at] < irq)
			at++;
		if (at < n && v[at] == irq && counts_row(&rd, &r) == 0) {
			total[at] = r.total;
			known[at] = true;
		}
	}
	return counts_close(&rd);
}
