/*
 * Applying affinity: each file is read, left alone when it already holds
 * the set, else written and read back; a refusal is explained in the
 * kernel's terms. Verbose lines go to standard output, failures to
 * standard error, one line each.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "procfs.h"
#include "xalloc.h"

#define LIST_MAX	4095	/* longer lists go to smp_affinity as a mask */

static size_t written;		/* files changed by this run */

/* What a failed write means (kernel/irq/proc.c, irq_set_affinity()). */
static const char *
explain(int e)
{
	switch (e) {
	case EIO:
	case EPERM:
		return "the affinity of this IRQ is managed by its driver "
		    "or cannot be moved";
	case EINVAL:
		return "the kernel refused the CPU set";
	case ERANGE:
	case EOVERFLOW:
		return "a CPU is beyond the possible ones";
	case ENOSPC:
		return "no free interrupt vectors on the target CPUs";
	case EBUSY:
		return "a previous move of this IRQ is still pending";
	case EACCES:
	case EROFS:
		return "permission denied; irqaff must run as root";
	}
	return NULL;
}

static int
parse_as(struct cpuset *set, const char *text, bool mask)
{
	return mask ? cpumask_parse(set, text, NULL) :
	    cpulist_parse(set, text, NULL);
}

/* One affinity file: where it is, what it holds, and how to say it. */
struct target {
	const char		*label;		/* "irq 24", "default" */
	const char		*rel;
	bool			 mask;		/* holds a mask, not a list */
	struct pfile		 pf;
	struct cpuset		*cur;
	const struct cpuset	*want;
	char			*text;		/* want as a list */
};

/*
 * Opens the list file, or the mask file when there is no list file or
 * the list would be too long for the kernel's page-sized buffer.
 */
static int
target_open(struct target *t, const char *listrel, const char *maskrel,
    int flags)
{
	bool writable = !(flags & APPLY_DRYRUN);
	int rc;

	t->mask = listrel == NULL || strlen(t->text) > LIST_MAX;
	t->rel = t->mask ? maskrel : listrel;
	rc = pfile_open(&t->pf, t->rel, writable);
	if (rc == -ENOENT && !t->mask) {
		t->mask = true;
		t->rel = maskrel;
		rc = pfile_open(&t->pf, t->rel, writable);
	}
	if (rc != 0)
		warnc(-rc, "%s: %s", t->label, procfs_path(t->rel));
	return rc;
}

/* Writes the set and reads it back. */
static enum apply_result
target_write(struct target *t)
{
	char *value, *line;
	int rc;

	value = t->mask ? xformat(t->want, true) : xstrdup(t->text);
	if (asprintf(&line, "%s\n", value) < 0)
		err(1, NULL);
	free(value);
	rc = pfile_write(&t->pf, line);
	free(line);
	if (rc != 0) {
		if (explain(-rc) != NULL)
			warnx("%s: cannot set %s: %s (%s)", t->label, t->text,
			    explain(-rc), strerror(-rc));
		else
			warnc(-rc, "%s: cannot set %s: %s", t->label, t->text,
			    procfs_path(t->rel));
		return APPLY_FAILED;
	}
	if (parse_as(t->cur, t->pf.buf, t->mask) != 0 ||
	    !cpuset_equal(t->cur, t->want)) {
		t->pf.buf[strcspn(t->pf.buf, "\n")] = '\0';
		warnx("%s: wrote %s, but %s reads back \"%s\"", t->label,
		    t->text, procfs_path(t->rel), quoted(t->pf.buf));
		return APPLY_FAILED;
	}
	written++;
	return APPLY_CHANGED;
}

/* listrel may be NULL: a file that takes masks only. */
static enum apply_result
apply_file(struct machine *m, const char *label, const char *listrel,
    const char *maskrel, const struct cpuset *want, int flags)
{
	struct target t = { .label = label, .want = want };
	enum apply_result r = APPLY_FAILED;
	char *was = NULL;
	int rc;

	t.text = xformat(want, false);
	t.cur = xcpuset(m->nbits);
	if (target_open(&t, listrel, maskrel, flags) != 0)
		goto out;
	/* "-" for an empty set, as show prints it */
	if ((rc = parse_as(t.cur, t.pf.buf, t.mask)) == 0 &&
	    !cpuset_empty(t.cur))
		was = xformat(t.cur, false);
	if (rc == 0 && cpuset_equal(t.cur, want)) {
		if (flags & APPLY_VERBOSE)
			printf("%s: %s unchanged\n", label, was ? was : "-");
		r = APPLY_UNCHANGED;
	} else if (flags & APPLY_DRYRUN) {
		printf("%s: %s -> %s\n", label, rc ? "?" : was ? was : "-",
		    t.text);
		r = APPLY_CHANGED;
	} else if ((r = target_write(&t)) == APPLY_CHANGED &&
	    (flags & APPLY_VERBOSE))
		printf("%s: %s -> %s\n", label, rc ? "?" : was ? was : "-",
		    t.text);
	free(was);
	pfile_close(&t.pf);
out:
	free(t.text);
	cpuset_free(t.cur);
	return r;
}

enum apply_result
apply_irq(struct machine *m, unsigned int irq, const struct cpuset *want,
    int flags)
{
	char label[32], list[64], mask[64];

	snprintf(label, sizeof(label), "irq %u", irq);
	snprintf(list, sizeof(list), "proc/irq/%u/smp_affinity_list", irq);
	snprintf(mask, sizeof(mask), "proc/irq/%u/smp_affinity", irq);
	return apply_file(m, label, list, mask, want, flags);
}

/* default_smp_affinity takes masks only (kernel/irq/proc.c). */
enum apply_result
apply_default(struct machine *m, const struct cpuset *want, int flags)
{
	return apply_file(m, "default", NULL, DEFAULT_AFFINITY, want, flags);
}

/* Applies every change; returns how many failed. */
size_t
apply_all(struct machine *m, const struct change *c, size_t n, int flags)
{
	size_t i, failed = 0;

	for (i = 0; i < n; i++)
		failed += apply_irq(m, c[i].irq, c[i].want, flags) ==
		    APPLY_FAILED;
	return failed;
}

/* How many files this run has changed. */
size_t
apply_written(void)
{
	return written;
}
