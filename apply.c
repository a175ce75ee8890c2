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
	else if (!t->pf.regular) {
		warnx("%s: %s: not a regular file; left alone", t->label,
		    procfs_path(t->rel));
		rc = -EPERM;
	}
	return rc;
}

/*
 * Writes the set and reads it back. A file that could only be opened for
 * reading means no file can be written (not root, a read-only tree):
 * one line says so, and the run stops.
 */
static enum apply_result
target_write(struct target *t, int flags, struct tally *tl)
{
	char *value, *line;
	int rc;

	if (t->pf.werr != 0) {
		warnx("%s: cannot write %s: %s; %s", t->label,
		    procfs_path(t->rel), strerror(t->pf.werr),
		    t->pf.werr == EROFS ? "no IRQ can be changed" :
		    "changing affinity needs root");
		tl->stop = true;
		return APPLY_FAILED;
	}
	value = t->mask ? xformat(t->want, true) : t->text;
	if (asprintf(&line, "%s\n", value) < 0)
		err(1, NULL);
	if (value != t->text)
		free(value);
	rc = pfile_write(&t->pf, line);
	free(line);
	/* the kernel's refusal to move a managed IRQ: EIO, EPERM since 6.12 */
	if ((rc == -EIO || rc == -EPERM) && !(flags & APPLY_NAMED))
		return APPLY_MANAGED;
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
	return APPLY_CHANGED;
}

/* listrel may be NULL: a file that takes masks only. */
static enum apply_result
apply_file(struct machine *m, const char *label, const char *listrel,
    const char *maskrel, const struct cpuset *want, int flags,
    struct tally *tl)
{
	struct target t = { .label = label, .want = want };
	enum apply_result r = APPLY_FAILED;
	char *was = NULL;

	t.text = xformat(want, false);
	t.cur = xcpuset(m->nbits);
	if (target_open(&t, listrel, maskrel, flags) != 0)
		goto out;
	/*
	 * Never write what does not hold what it should; the kernel's files
	 * always hold at least a newline.
	 */
	if (t.pf.len == 0 || parse_as(t.cur, t.pf.buf, t.mask) != 0) {
		t.pf.buf[strcspn(t.pf.buf, "\n")] = '\0';
		warnx("%s: %s holds \"%s\", not a CPU %s; left alone", label,
		    procfs_path(t.rel), quoted(t.pf.buf),
		    t.mask ? "mask" : "list");
		goto close;
	}
	/* "-" for an empty set, as show prints it; formatted only to print */
	if ((flags & (APPLY_VERBOSE | APPLY_DRYRUN)) && !cpuset_empty(t.cur))
		was = xformat(t.cur, false);
	if (cpuset_equal(t.cur, want)) {
		if (flags & APPLY_VERBOSE)
			printf("%s: %s unchanged\n", label, was ? was : "-");
		r = APPLY_UNCHANGED;
	} else if (flags & APPLY_DRYRUN) {
		printf("%s: %s -> %s\n", label, was ? was : "-", t.text);
		r = APPLY_CHANGED;
	} else if ((r = target_write(&t, flags, tl)) == APPLY_CHANGED &&
	    (flags & APPLY_VERBOSE))
		printf("%s: %s -> %s\n", label, was ? was : "-", t.text);
	else if (r == APPLY_MANAGED && (flags & APPLY_VERBOSE))
		printf("%s: managed by the kernel, left alone\n", label);
	free(was);
close:
	pfile_close(&t.pf);
out:
	free(t.text);
	cpuset_free(t.cur);
	if (r == APPLY_CHANGED)
		tl->changed++;
	else if (r == APPLY_UNCHANGED)
		tl->unchanged++;
	else if (r == APPLY_MANAGED)
		tl->managed++;
	else
		tl->failed++;
	return r;
}

enum apply_result
apply_irq(struct machine *m, unsigned int irq, const struct cpuset *want,
    int flags, struct tally *tl)
{
	char label[32], list[64], mask[64], *text;

	snprintf(label, sizeof(label), "irq %u", irq);
	if (irq_state(irq) & IRQ_MANAGED) {
		if (flags & APPLY_NAMED) {
			text = xformat(want, false);
			warnx("%s: cannot set %s: %s (managed by the kernel)",
			    label, text, explain(EPERM));
			free(text);
			tl->failed++;
			return APPLY_FAILED;
		}
		if (flags & (APPLY_VERBOSE | APPLY_DRYRUN))
			printf("%s: managed by the kernel, left alone\n", label);
		tl->managed++;
		return APPLY_MANAGED;
	}
	snprintf(list, sizeof(list), "proc/irq/%u/smp_affinity_list", irq);
	snprintf(mask, sizeof(mask), "proc/irq/%u/smp_affinity", irq);
	return apply_file(m, label, list, mask, want, flags, tl);
}

/* default_smp_affinity takes masks only (kernel/irq/proc.c). */
enum apply_result
apply_default(struct machine *m, const struct cpuset *want, int flags,
    struct tally *tl)
{
	return apply_file(m, "default", NULL, DEFAULT_AFFINITY, want, flags,
	    tl);
}

/* Applies every change, until one shows that none can be made. */
void
apply_all(struct machine *m, const struct change *c, size_t n, int flags,
    struct tally *tl)
{
	size_t i;

	for (i = 0; i < n && !tl->stop; i++)
		apply_irq(m, c[i].irq, c[i].want,
		    flags | (c[i].named ? APPLY_NAMED : 0), tl);
	tl->failed += n - i;
}

/* Without -v, one line for the IRQs left to the kernel. */
void
apply_note(const struct tally *tl, int flags)
{
	if (tl->managed == 0 || (flags & (APPLY_VERBOSE | APPLY_DRYRUN)))
		return;
	warnx("note: %zu kernel-managed IRQ%s left to the kernel",
	    tl->managed, tl->managed == 1 ? "" : "s");
}
