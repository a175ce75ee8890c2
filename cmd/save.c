/*
 * save: every IRQ's requested affinity, with its action names, in the
 * snapshot format (lib/snapline.c), then the XPS and RPS CPUs of every queue
 * of the interfaces that have a device (lo, veth and bridges have none,
 * and no stable names); with --only, the selected IRQs' and the queues
 * of the interfaces its dev: items name, not the default. --optional
 * marks each IRQ and queue line "?", for devices that may be absent when
 * it is restored; --optional=IRQS only those IRQs' lines and the queues
 * of the interfaces its dev: items name. The snapshot is made in memory
 * first, then written: all or nothing.
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
	.synopsis = "[--only irqs] [--optional[=irqs]] [file]",
	.options =
	    "      --only IRQS        save these IRQs only, not the default\n"
	    "      --optional[=IRQS]  mark IRQ and queue lines ?, or those "
	    "of IRQS:\n"
	    "                         they may match nothing\n",
};

enum { OPT_ONLY = 256, OPT_OPTIONAL };

static const struct option save_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "optional", optional_argument, NULL, OPT_OPTIONAL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Which lines are optional: none, all, or those of sel. */
struct marks {
	bool		 all;
	struct irqs	*sel;
};

static bool
marked_irq(const struct marks *mk, unsigned int irq)
{
	return mk->all || (mk->sel != NULL && select_find(mk->sel, irq, NULL));
}

static bool
marked_netif(const struct marks *mk, const char *name)
{
	return mk->all || (mk->sel != NULL && select_dev_named(mk->sel, name));
}

/*
 * One IRQ's line, "?" first when marked; an IRQ that went away since
 * proc/irq was read is skipped.
 */
static int
save_irq(FILE *fp, unsigned int irq, struct cpuset *set,
    const struct marks *mk)
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
		snapshot_put_irq(fp, irq, list, marked_irq(mk, irq));
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
save_netif(FILE *fp, struct machine *m, const char *name,
    const struct marks *mk)
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
		    *list != '\0' ? list : "none", marked_netif(mk, nif.name));
		putc('\n', fp);
		free(list);
	}
	netqueue_iffree(&nif);
	return rc;
}

/* The queues of every interface, or with --only of those it names. */
static int
save_queues(FILE *fp, struct machine *m, const struct irqs *only,
    const struct marks *mk)
{
	char **names;
	size_t n, i;
	int rc;

	if ((rc = netqueue_ifnames(&names, &n)) != 0)
		return rc;
	for (i = 0; rc == 0 && i < n; i++)
		if (only == NULL || select_dev_named(only, names[i]))
			rc = save_netif(fp, m, names[i], mk);
	procfs_dir_free(names, n);
	return rc;
}

/* The IRQs of only, or else the default and every IRQ. */
static int
save_irqs(FILE *fp, struct machine *m, const struct irqs *only,
    const struct marks *mk)
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
			rc = save_irq(fp, only->v[i], set, mk);
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
		rc = save_irq(fp, irqs.v[i], set, mk);
	select_free(&irqs);
	cpuset_free(set);
	return rc;
}

/* The whole snapshot, made in memory first: to out, or else stdout. */
static int
save_write(struct machine *m, const struct irqs *only,
    const struct marks *mk, const char *out)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int rc, status = EXIT_OK;

	fp = xmemstream(&text, &len);
	if ((rc = save_irqs(fp, m, only, mk)) == 0)
		rc = save_queues(fp, m, only, mk);
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
	return status;
}

static int
save_main(int argc, char *argv[])
{
	struct machine m;
	struct irqs only = { 0 }, opt = { 0 };
	struct marks mk = { 0 };
	const char *out = NULL, *only_arg = NULL, *opt_arg = NULL;
	int ch, status = EXIT_OK;

	while ((ch = cli_getopts(argc, argv, &save_command, "o:", save_opts)) !=
	    -1)
		if (ch == 'o')
			out = optarg;
		else if (ch == OPT_ONLY)
			only_arg = optarg;
		else if (ch == OPT_OPTIONAL) {
			mk.all = optarg == NULL;
			opt_arg = optarg;
		}
	/* -o FILE, --output FILE: the old spellings of the operand */
	if (argc - optind >= 1 && out == NULL)
		out = argv[optind++];
	if (argc - optind != 0)
		return cli_usage_error(&save_command, "unexpected argument %s",
		    text_quoted(argv[optind]));
	/* "--optional dev:eth2" means the IRQs, not a file of that name */
	if (mk.all && out != NULL && (strncmp(out, "dev:", 4) == 0 ||
	    strncmp(out, "cpu:", 4) == 0))
		return cli_usage_error(&save_command, "%s is IRQs, not a "
		    "file: --optional=IRQS marks those, ./NAME names a file",
		    text_quoted(out));
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	if (only_arg != NULL &&
	    (status = cli_exit_status(select_queues(only_arg,
	    &only))) != EXIT_OK) {
		machine_free(&m);
		return status;
	}
	if (opt_arg != NULL &&
	    (status = cli_exit_status(select_queues(opt_arg, &opt))) !=
	    EXIT_OK) {
		select_free(&only);
		machine_free(&m);
		return status;
	}
	if (opt_arg != NULL)
		mk.sel = &opt;
	status = save_write(&m, only_arg != NULL ? &only : NULL, &mk, out);
	select_free(&only);
	select_free(&opt);
	machine_free(&m);
	return status;
}
