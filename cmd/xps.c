/*
 * xps and rps: give the transmit queues' xps_cpus or the receive queues'
 * rps_cpus of a network interface one CPU set, every mask file checked
 * before the first write.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/result.h"
#include "core/apply.h"
#include "core/isolation.h"
#include "core/machine.h"
#include "core/netqueue.h"
#include "core/xalloc.h"
#include "lib/queuename.h"
#include "lib/text.h"
#include "parse.h"
#include "procfs.h"

static int xps_main(int, char *[]);
static void xps_help(FILE *);

#define QUEUE_OPTIONS \
	"  -n, --dry-run  print what would change, write nothing\n" \
	"  -v, --verbose  print a line for every queue\n" \
	"  -J, --json     print the result as JSON\n"

const struct command xps_command = {
	.name = "xps",
	.main = xps_main,
	.summary = "give transmit queues the CPUs that send on them",
	.synopsis = "[-nvJ] dev[:queues] cpus",
	.options = QUEUE_OPTIONS,
	.more_help = xps_help,
};

const struct command rps_command = {
	.name = "rps",
	.main = xps_main,
	.summary = "give receive queues the CPUs that process their "
	    "packets",
	.synopsis = "[-nvJ] dev[:queues] cpus",
	.options = QUEUE_OPTIONS,
	.more_help = xps_help,
};

static const struct option xps_opts[] = {
	APPLY_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void
xps_help(FILE *fp)
{
	fprintf(fp, "\nQueues: numbers as a kernel list (eth0:0-3,6), or "
	    "names (eth0:tx-0-3\nfor xps, eth0:rx-0-3 for rps); every queue "
	    "without. cpus may also be none,\nto clear the masks.\n");
}

/*
 * The queues of one kind that QUEUES names ("0-3,6", "tx-0-3" for xps,
 * "rx-0-3" for rps; NULL: all of them), marked in sel by their index in
 * nif->q. EXIT_OK, or after saying why EXIT_USAGE for a bad list,
 * EXIT_FAIL for a queue the interface lacks (it matches nothing).
 */
static int
pick_queues(const struct command *cmd, const struct netif *nif,
    enum nqkind kind, const char *arg, const char *list, bool *sel)
{
	const char *prefix = kind == NQ_TX ? "tx-" : "rx-";
	struct cpuset *set;
	struct perr pe;
	unsigned int last = 0;
	size_t i;
	int n, rc = 0;

	for (i = 0; i < nif->nq; i++)
		if (nif->q[i].kind == kind && nif->q[i].n > last)
			last = nif->q[i].n;
	if (list == NULL) {
		for (i = 0; i < nif->nq; i++)
			sel[i] = nif->q[i].kind == kind;
		return EXIT_OK;
	}
	if (strncmp(list, prefix, 3) == 0)
		list += 3;
	set = xcpuset(last + 1);
	if (*list != '\0' && (rc = cpulist_parse(set, list, &pe)) == -ERANGE) {
		cpuset_free(set);
		set = xcpuset(QUEUENAME_MAX + 1);
		rc = cpulist_parse(set, list, &pe);
	}
	if (*list == '\0' || rc != 0 || cpuset_empty(set)) {
		warnx("%s: queues \"%s\": %s", cmd->name, text_quoted(arg),
		    *list == '\0' || rc == 0 ? "no queue selected" :
		    rc == -ERANGE ? "a number is beyond the last queue "
		    "number 65535" : pe.msg);
		cpuset_free(set);
		return EXIT_USAGE;
	}
	for (n = cpuset_first(set); n >= 0; n = cpuset_next(set, n + 1)) {
		if (netqueue_ifqueue(nif, kind, n) == NULL) {
			warnx("%s: queues \"%s\": interface %s has no %s%d",
			    cmd->name, text_quoted(arg), text_quoted(nif->name),
			    prefix, n);
			cpuset_free(set);
			return EXIT_FAIL;
		}
		sel[netqueue_ifqueue(nif, kind, n) - nif->q] = true;
	}
	cpuset_free(set);
	return EXIT_OK;
}

/*
 * The interface of DEV[:QUEUES] and the queues picked, each mask file a
 * regular file holding a mask of the machine's width. EXIT_OK, EXIT_USAGE
 * for a bad operand, EXIT_FAIL for one that matches nothing (no such
 * interface or queue) or a file that cannot be read; said.
 */
static int
read_queues(const struct command *cmd, struct machine *m, enum nqkind kind,
    const char *arg, struct netif *nif, bool **selp)
{
	char *dev, *list;
	bool *sel = NULL, any = false;
	size_t i;
	int rc, status = EXIT_OK;

	dev = xstrdup(arg);
	/* the kernel allows no ':' in an interface's name (dev_valid_name) */
	if ((list = strchr(dev, ':')) != NULL)
		*list++ = '\0';
	rc = netqueue_ifread_held(m, dev, nif);
	if (rc == -ENODEV || *dev == '\0') {
		warnx("%s: interface \"%s\" does not exist", cmd->name,
		    text_quoted(dev));
		status = netqueue_ifname_ok(dev) ? EXIT_FAIL : EXIT_USAGE;
		goto out;
	}
	if (rc != 0 && rc != -ENOENT) {
		status = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < nif->nq; i++)
		any |= nif->q[i].kind == kind;
	if (!any) {
		warnx("%s: interface %s has no %s queues", cmd->name,
		    text_quoted(dev), kind == NQ_TX ? "transmit" : "receive");
		status = EXIT_FAIL;
		goto out;
	}
	sel = xcalloc(nif->nq, sizeof(*sel));
	if ((status = pick_queues(cmd, nif, kind, arg, list, sel)) !=
	    EXIT_OK)
		goto out;
	for (i = 0; i < nif->nq; i++)
		if (sel[i] && netqueue_check(nif, &nif->q[i]) != 0)
			status = EXIT_FAIL;
out:
	free(dev);
	if (status != EXIT_OK) {
		free(sel);
		sel = NULL;
	}
	*selp = sel;
	return status;
}

/*
 * The part of *wantp the kernel will keep (netqueue_kept()) replaces it,
 * with a note when that is less; EXIT_USAGE, said, when none of a set
 * of CPUs would be kept.
 */
static int
keep(const struct command *cmd, struct machine *m, enum nqkind kind,
    const char *arg, struct cpuset **wantp)
{
	struct cpuset *kept, *out, *mine = NULL;
	char *list;

	kept = netqueue_kept(m, kind, *wantp);
	/* and as isolate took its CPUs out of RPS, rps leaves them out */
	if (kind == NQ_RX &&
	    !cpuset_empty(mine = isolation_take_remembered(m, kept))) {
		list = xformat(mine, false);
		warnx("note: %s: CPU %s isolated by irqaff isolate: left out "
		    "(isolate --undo gives them back)", cmd->name, list);
		free(list);
		cpuset_andnot(*wantp, mine);
	}
	cpuset_free(mine);
	if (cpuset_equal(kept, *wantp)) {
		cpuset_free(kept);
		return EXIT_OK;
	}
	if (cpuset_empty(kept)) {
		warnx("%s: CPUs \"%s\": none would be kept: the kernel keeps "
		    "%s", cmd->name, text_quoted(arg), netqueue_keeps(kind));
		cpuset_free(kept);
		return EXIT_USAGE;
	}
	out = xcpudup(*wantp);
	cpuset_andnot(out, kept);
	list = xformat(out, false);
	warnx("note: %s: CPU %s left out: the kernel keeps %s", cmd->name,
	    list, netqueue_keeps(kind));
	free(list);
	cpuset_free(out);
	cpuset_free(*wantp);
	*wantp = kept;
	return EXIT_OK;
}

/* -J: the "queues" member. */
struct queues_result {
	const struct tally	*tq;
	const struct qname	*q;
	size_t			 n;
};

static void
queues_member(void *arg)
{
	const struct queues_result *qr = arg;

	result_queues(qr->tq, qr->q, qr->n);
}

/* Each queue picked, in order; the outcomes in tq, named in q. */
static void
write_queues(struct machine *m, const struct netif *nif, const bool *sel,
    const struct cpuset *want, int flags, struct tally *tq,
    struct qname *q)
{
	char rel[PATH_MAX], label[NAME_MAX + 40];
	size_t i, k;

	for (i = k = 0; i < nif->nq; i++) {
		if (!sel[i])
			continue;
		q[k].dev = nif->name;
		netqueue_name(&nif->q[i], q[k].queue, sizeof(q[k].queue));
		snprintf(label, sizeof(label), "%s %s", text_quoted(nif->name),
		    q[k++].queue);
		netqueue_path(nif, &nif->q[i], rel, sizeof(rel));
		if (tq->stop)
			apply_tally_skip(tq, APPLY_NOIRQ, want);
		else
			apply_mask(m, label, rel, want, flags, tq);
	}
}

static int
xps_main(int argc, char *argv[])
{
	const struct command *cmd = strcmp(argv[0], "rps") == 0 ?
	    &rps_command : &xps_command;
	enum nqkind kind = cmd == &rps_command ? NQ_RX : NQ_TX;
	struct machine m;
	struct netif nif = { 0 };
	struct cpuset *want;
	struct perr pe;
	struct tally tq = { 0 };
	struct queues_result qr = { &tq, NULL, 0 };
	struct qname *q = NULL;
	bool *sel = NULL;
	int ch, flags = APPLY_NAMED, status;

	while ((ch = cli_getopts(argc, argv, cmd, "nvJ", xps_opts)) != -1)
		result_option(ch, &flags);
	if (argc - optind != 2)
		return cli_usage_error(cmd,
		    "expected an interface and a CPU set");
	if (machine_load(&m) != 0)
		return EXIT_FAIL;
	want = xcpuset(m.nbits);
	if (machine_cpus(&m, argv[optind + 1], 0, want, &pe) != 0) {
		warnx("%s", pe.msg);
		status = EXIT_USAGE;
		goto out;
	}
	if ((status = read_queues(cmd, &m, kind, argv[optind], &nif, &sel)) !=
	    EXIT_OK)
		goto out;
	if ((status = keep(cmd, &m, kind, argv[optind + 1], &want)) !=
	    EXIT_OK)
		goto out;
	result_start(flags);
	result_tally(&tq, flags);
	qr.q = q = xcalloc(nif.nq, sizeof(*q));
	qr.n = nif.nq;
	write_queues(&m, &nif, sel, want, flags, &tq, q);
	status = result_print(NULL, &tq, flags, queues_member, &qr);
	apply_tally_free(&tq);
out:
	free(q);
	free(sel);
	netqueue_iffree(&nif);
	cpuset_free(want);
	machine_free(&m);
	return status;
}
