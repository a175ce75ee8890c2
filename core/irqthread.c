/*
 * IRQ threads from proc/PID: kernel threads named irq/N-NAME, or
 * irq/N-s-NAME for a forced secondary (kernel/irq/manage.c
 * setup_irq_thread()), with their allowed CPUs.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/irqthread.h"
#include "core/xalloc.h"
#include "parse.h"
#include "procfs.h"

#define PF_KTHREAD	0x00200000	/* include/linux/sched.h */
#define COMM_MAX	64		/* fs/proc/array.c tcomm[64] */
#define STAT_HEAD	512		/* past the flags, whatever the name */
#define STATUS_LINE	65536		/* Cpus_allowed_list of 8192 CPUs */

/*
 * N of "irq/N-...". 5.10 cuts a name to 15 bytes (TASK_COMM_LEN); 5.19
 * and later show a kernel thread's whole name up to 63 (get_kthread_comm()),
 * so only the number at the start is relied on. -1 for any other name.
 */
static long long
irq_of_name(const char *name)
{
	const char *errstr;
	char digits[16];
	size_t len;
	long long v;

	if (strncmp(name, "irq/", 4) != 0)
		return -1;
	name += 4;
	len = strspn(name, "0123456789");
	if (len == 0 || len >= sizeof(digits) || name[len] != '-' ||
	    (len > 1 && name[0] == '0'))
		return -1;
	memcpy(digits, name, len);
	digits[len] = '\0';
	v = strtonum(digits, 0, INT_MAX, &errstr);
	return errstr != NULL ? -1 : v;
}

/*
 * A kernel thread: PF_KTHREAD in stat's ninth field (fs/proc/array.c
 * do_task_stat()), counted after the name's last ')' since a name may hold
 * one. A process that names itself irq/... is no IRQ thread.
 */
static bool
is_kthread(int pid)
{
	char rel[64], buf[STAT_HEAD], *p, *end;
	unsigned long long flags;
	size_t len;
	int i;

	snprintf(rel, sizeof(rel), PATH_PID_STAT, pid);
	if (procfs_head(rel, buf, sizeof(buf), &len) != 0 ||
	    (p = strrchr(buf, ')')) == NULL)
		return false;
	p++;
	/* state, ppid, pgrp, session, tty_nr, tpgid, then flags */
	for (i = 0; i < 6; i++) {
		p += strspn(p, " ");
		p += strcspn(p, " ");
	}
	p += strspn(p, " ");
	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	flags = strtoull(p, &end, 10);
	if (errno != 0 || (*end != ' ' && *end != '\n' && *end != '\0'))
		return false;
	return (flags & PF_KTHREAD) != 0;
}

/* Cpus_allowed_list of proc/PID/status, or NULL. */
static struct cpuset *
allowed(int pid, unsigned int nbits)
{
	static const char key[] = "Cpus_allowed_list:";
	struct cpuset *set = NULL;
	struct lines l;
	char rel[64], *line;
	size_t len;

	snprintf(rel, sizeof(rel), PATH_PID_STATUS, pid);
	if (procfs_lines_open(&l, rel, STATUS_LINE) != 0)
		return NULL;
	while (procfs_lines_next(&l, &line, &len) == 1) {
		if (strncmp(line, key, sizeof(key) - 1) != 0)
			continue;
		set = xcpuset(nbits);
		if (strlen(line) != len || cpulist_parse(set,
		    line + sizeof(key) - 1 + strspn(line + sizeof(key) - 1,
		    " \t"), NULL) != 0) {
			cpuset_free(set);
			set = NULL;
		}
		break;
	}
	procfs_lines_close(&l);
	return set;
}

static int
cmpthread(const void *a, const void *b)
{
	const struct irqthread *x = a, *y = b;
	int c;

	if (x->irq != y->irq)
		return x->irq < y->irq ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * Every IRQ thread under the root. Memory: one entry a thread, and the
 * PIDs while they are read. 0, or the -errno of listing proc.
 */
int
irqthread_load(unsigned int nbits, struct irqthreads *out)
{
	char rel[64], comm[COMM_MAX + 1];
	unsigned int *pids;
	struct irqthread *t;
	long long irq;
	size_t npids, i, len;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = procfs_numbers(PATH_PROC, &pids, &npids)) != 0)
		return rc;
	for (i = 0; i < npids; i++) {
		snprintf(rel, sizeof(rel), PATH_PID_COMM, (int)pids[i]);
		if (procfs_head(rel, comm, sizeof(comm), &len) != 0)
			continue;
		comm[strcspn(comm, "\n")] = '\0';
		if ((irq = irq_of_name(comm)) < 0 || !is_kthread(pids[i]))
			continue;
		out->v = xreallocarray(out->v, out->n + 1, sizeof(*out->v));
		t = &out->v[out->n++];
		t->irq = irq;
		t->pid = pids[i];
		t->name = xstrdup(comm);
		t->cpus = allowed(pids[i], nbits);
	}
	free(pids);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmpthread);
	return 0;
}

/* How many threads IRQ has; *first is the index of the first. */
size_t
irqthread_of(const struct irqthreads *ts, unsigned int irq, size_t *first)
{
	size_t lo = 0, hi = ts->n, n;

	while (lo < hi) {
		n = lo + (hi - lo) / 2;
		if (ts->v[n].irq < irq)
			lo = n + 1;
		else
			hi = n;
	}
	*first = lo;
	for (n = lo; n < ts->n && ts->v[n].irq == irq; n++)
		;
	return n - lo;
}

/*
 * Whether a thread may run on its IRQ's effective CPUs and no others,
 * the online ones compared: it copies them when it next runs after a
 * move (irq_thread_check_affinity()); a thread pinned with taskset or
 * tuna keeps its own until the IRQ moves again. Unknown sets follow.
 */
bool
irqthread_follows(const struct irqthread *t, const struct cpuset *eff,
    const struct cpuset *online)
{
	struct cpuset *a, *b;
	bool same;

	if (t->cpus == NULL || eff == NULL || cpuset_empty(eff))
		return true;
	a = xcpudup(t->cpus);
	b = xcpudup(eff);
	cpuset_and(a, online);
	cpuset_and(b, online);
	same = cpuset_equal(a, b);
	cpuset_free(a);
	cpuset_free(b);
	return same;
}

void
irqthread_free(struct irqthreads *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++) {
		free(ts->v[i].name);
		cpuset_free(ts->v[i].cpus);
	}
	free(ts->v);
	ts->v = NULL;
	ts->n = 0;
}
