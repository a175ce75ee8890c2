/*
 * save: every IRQ's requested affinity, with its action names, in the
 * snapshot format (lib/snapline.c), then the XPS and RPS CPUs of every queue
 * of the interfaces that have a device (lo, veth and bridges have none,
 * and no stable names); with --only, the selected IRQs' and the queues
 * of the interfaces its dev: items name, not the default. --optional
 * marks each IRQ and queue line "?", for devices that may be absent when
 * it is restored. The snapshot is made in memory first, then written:
 * all or nothing.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/select.h"
#include "core/snapshot.h"
#include "core/xalloc.h"
#include "lib/snapline.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static int save_main(int, char *[]);

const struct command save_command = {
	.name = "save",
	.main = save_main,
	.summary = "write a snapshot of every IRQ's affinity",
	.synopsis = "[--only irqs] [--optional] [file]",
	.options =
	    "      --only IRQS  save these IRQs only, not the default\n"
	    "      --optional   mark IRQ and queue lines ?: they may match "
	    "nothing\n",
};

enum { OPT_ONLY = 256, OPT_OPTIONAL };

static const struct option save_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "optional", no_argument, NULL, OPT_OPTIONAL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * One IRQ's line, after mark ("?" or ""); an IRQ that went away since
 * proc/irq was read is skipped.
 */
static int
save_irq(FILE *fp, unsigned int irq, struct cpuset *set, const char *mark)
{
	struct perr pe;
	char *list;
	enum movable mv;
	int rc;

	if ((rc = machine_affinity_read(irq, AFF_REQUESTED, set,
	    &pe)) == -ENOENT)
		return 0;
	if (rc != 0) {
		warnx("%s", pe.msg);
		return rc;
	}
	/* the kernel's to place: a comment, not an entry */
	list = xformat(set, false);
	if (*list == '\0') {
		fprintf(fp, "# %u has no CPUs:", irq);
		snapshot_put_names(fp, irq);
	} else if ((mv = machine_irq_movable(irq)) == MOVABLE_MANAGED ||
	    mv == MOVABLE_NO) {
		fprintf(fp, "# %s: ", machine_movable_words(mv, MV_PLAIN));
		snapshot_put_irq(fp, irq, list, false);
	} else
		snapshot_put_irq(fp, irq, list, *mark != '\0');
	free(list);
	putc('\n', fp);
	return 0;
}

/*
 * One line per queue of an interface that has a device. A mask the
 * kernel will not read (ENOENT: xps_cpus of a single-queue device) gives
 * no line; an interface gone since it was listed, none at all.
 */
static int
save_netif(FILE *fp, struct machine *m, const char *name, const char *mark)
{
	struct netif nif;
	const struct netqueue *q;
	char *list;
	size_t i;
	int rc;

	if ((rc = netqueue_ifread(m, name, &nif)) != 0)
		return rc == -ENODEV || rc == -ENOENT ? 0 : rc;
	for (i = 0, rc = 0; nif.device != NULL && i < nif.nq; i++) {
		q = &nif.q[i];
		if (q->cpus == NULL) {
			if (q->err != -ENOENT) {
				rc = q->err;
				break;
			}
			continue;
		}
		list = xformat(q->cpus, false);
		snapshot_put_queue(fp, q->kind == NQ_TX, nif.name, q->n,
		    *list != '\0' ? list : "none", *mark != '\0');
		putc('\n', fp);
		free(list);
	}
	netqueue_iffree(&nif);
	return rc;
}

/* The queues of every interface, or with --only of those it names. */
static int
save_queues(FILE *fp, struct machine *m, const struct irqs *only,
    const char *mark)
{
	char **names;
	size_t n, i;
	int rc;

	if ((rc = netqueue_ifnames(&names, &n)) != 0)
		return rc;
	for (i = 0; rc == 0 && i < n; i++)
		if (only == NULL || select_dev_named(only, names[i]))
			rc = save_netif(fp, m, names[i], mark);
	procfs_dir_free(names, n);
	return rc;
}

/* The IRQs of only, or else the default and every IRQ. */
static int
save_irqs(FILE *fp, struct machine *m, const struct irqs *only,
    const char *mark)
{
	struct cpuset *set = xcpuset(m->nbits);
	struct irqs irqs = { 0 };
	struct perr pe;
	char *list;
	size_t i;
	int rc;

	fprintf(fp, "# irqaff snapshot, %u CPUs\n"
	    "# IRQ CPUS \"NAME\"...; see irqaff.conf(5)\n",
	    m->nbits);
	if (only != NULL) {
		for (i = 0, rc = 0; rc == 0 && i < only->n; i++)
			rc = save_irq(fp, only->v[i], set, mark);
		cpuset_free(set);
		return rc;
	}
	if ((rc = machine_default_read(set, &pe)) != 0)
		warnx("%s", pe.msg);
	else {
		list = xformat(set, false);
		fprintf(fp, "default %s\n", list);
		free(list);
		rc = select_all(&irqs);
	}
	for (i = 0; rc == 0 && i < irqs.n; i++)
		rc = save_irq(fp, irqs.v[i], set, mark);
	select_free(&irqs);
	cpuset_free(set);
	return rc;
}

static int
save_main(int argc, char *argv[])
{
	struct machine m;
	struct irqs only = { 0 };
	const char *out = NULL, *only_arg = NULL, *mark = "";
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int ch, rc, status = EXIT_OK;

	while ((ch = cli_getopts(argc, argv, &save_command, "o:", save_opts)) !=
	    -1)
		if (ch == 'o')
			out = optarg;
		else if (ch == OPT_ONLY)
			only_arg = optarg;
		else if (ch == OPT_OPTIONAL)
			mark = "?";
	/* -o FILE, --output FILE: the old spellings of the operand */
	if (argc - optind >= 1 && out == NULL)
		out = argv[optind++];
	if (argc - optind != 0)
		return cli_usage_error(&save_command, "unexpected argument %s",
		    text_quoted(argv[optind]));
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	if (only_arg != NULL &&
	    (status = cli_exit_status(select_queues(only_arg,
	    &only))) != EXIT_OK) {
		machine_free(&m);
		return status;
	}
	fp = xmemstream(&text, &len);
	if ((rc = save_irqs(fp, &m, only_arg != NULL ? &only : NULL,
	    mark)) == 0)
		rc = save_queues(fp, &m, only_arg != NULL ? &only : NULL,
		    mark);
	xmemclose(fp);
	if (rc != 0)
		status = EXIT_FAIL;
	else if (out != NULL && strcmp(out, "-") != 0) {
		if ((rc = procfs_file_replace(out, text, len)) != 0) {
			warnc(-rc, "%s", text_quoted(out));
			status = EXIT_FAIL;
		}
	} else
		fwrite(text, 1, len, stdout);
	free(text);
	select_free(&only);
	machine_free(&m);
	return status;
}
