/*
 * irqbalance as the machine shows it: its socket and process, the
 * environment it was started with, its configuration file and its
 * command line. Nothing here talks to the daemon.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/apply.h"
#include "core/irqbalance.h"
#include "core/machine.h"
#include "core/xalloc.h"
#include "parse.h"
#include "procfs.h"

#define IRQBALANCE_DIR	"run/irqbalance"	/* irqbalance.h SOCKET_TMPFS */
#define IRQBALANCE_SOCK	"irqbalance"		/* SOCKET_PATH */
#define VAR_LIST	"IRQBALANCE_BANNED_CPULIST"
#define VAR_MASK	"IRQBALANCE_BANNED_CPUS"

/* Its EnvironmentFile=: Debian's, then Red Hat's and SUSE's. */
static const char *const conf_files[] = {
	"etc/default/irqbalance", "etc/sysconfig/irqbalance",
};

/*
 * The PID of the live irqbalance whose socket NAME is, or 0. It listens
 * on irqbalancePID.sock (irqbalance.c init_socket()), and PID must still
 * be a process named irqbalance: a daemon killed with SIGKILL leaves its
 * socket behind. The file's type is not checked; the process is the proof.
 */
static int
socket_pid(const char *name)
{
	const char *errstr, *num;
	char digits[16], rel[64], *buf;
	size_t len;
	long long pid;
	bool found;

	if (strncmp(name, IRQBALANCE_SOCK, strlen(IRQBALANCE_SOCK)) != 0)
		return 0;
	num = name + strlen(IRQBALANCE_SOCK);
	len = strspn(num, "0123456789");
	if (len == 0 || len >= sizeof(digits) || num[0] == '0' ||
	    strcmp(num + len, ".sock") != 0)
		return 0;
	memcpy(digits, num, len);
	digits[len] = '\0';
	pid = strtonum(digits, 1, INT_MAX, &errstr);
	if (errstr != NULL)
		return 0;
	snprintf(rel, sizeof(rel), PATH_PROC_PID_FILE, (int)pid, "comm");
	if (procfs_read(rel, &buf) != 0)
		return 0;
	found = strcmp(buf, "irqbalance\n") == 0 ||
	    strcmp(buf, "irqbalance") == 0;
	free(buf);
	return found ? pid : 0;
}

/*
 * From the sockets in its runtime directory (systemd's RuntimeDirectory=,
 * removed when it stops): one directory and a file per socket, where
 * reading every process's name cost thousands.
 */
static int
running_pid(void)
{
	char **names;
	size_t n, i;
	int pid = 0;

	if (procfs_dir(IRQBALANCE_DIR, false, &names, &n) != 0)
		return 0;
	for (i = 0; i < n && pid == 0; i++)
		pid = socket_pid(names[i]);
	procfs_dir_free(names, n);
	return pid;
}

bool
irqbalance_running(void)
{
	return running_pid() != 0;
}

static void
say(void)
{
	warnx("warning: irqbalance is running and may move these IRQs again; "
	    "keep it off them with IRQBALANCE_BANNED_CPULIST or its --banirq "
	    "option, or stop it (systemctl disable --now irqbalance)");
}

/* The value of VAR in NUL-separated KEY=VALUE strings; NULL if unset. */
static const char *
env_value(const char *env, size_t len, const char *var)
{
	size_t vlen = strlen(var);
	const char *p, *end = env + len;

	for (p = env; p < end; p += strlen(p) + 1)
		if (strncmp(p, var, vlen) == 0 && p[vlen] == '=')
			return p + vlen + 1;
	return NULL;
}

/*
 * An EnvironmentFile= line's value (systemd.exec(5)): KEY=VALUE, the
 * value's quotes removed; '#' and ';' lines are comments.
 */
static char *
conf_value(const char *buf, const char *var)
{
	size_t vlen = strlen(var), len;
	const char *p, *v;

	for (p = buf; *p != '\0'; p += strcspn(p, "\n"), p += *p == '\n') {
		p += strspn(p, " \t");
		if (strncmp(p, var, vlen) != 0)
			continue;
		v = p + vlen + strspn(p + vlen, " \t");
		if (*v++ != '=')
			continue;
		v += strspn(v, " \t");
		len = strcspn(v, "\n");
		while (len > 0 && (v[len - 1] == ' ' || v[len - 1] == '\t'))
			len--;
		if (len >= 2 && (v[0] == '"' || v[0] == '\'') &&
		    v[len - 1] == v[0]) {
			v++;
			len -= 2;
		}
		return xstrndup(v, len);
	}
	return NULL;
}

/*
 * Its banned CPUs, as cputree.c setup_banned_cpus() finds them: a mask
 * in IRQBALANCE_BANNED_CPUS, else a list in IRQBALANCE_BANNED_CPULIST,
 * else the isolated and nohz_full CPUs; an empty variable is unset.
 */
static void
set_banned(struct machine *m, struct irqbalance *ib, const char *mask,
    const char *list)
{
	ib->banned = xcpuset(m->nbits);
	if (mask != NULL && *mask != '\0' &&
	    cpumask_parse(ib->banned, mask, NULL) == 0)
		ib->source = BAN_MASK;
	else if (list != NULL && *list != '\0' &&
	    cpulist_parse(ib->banned, list, NULL) == 0)
		ib->source = BAN_LIST;
	else {
		cpuset_copy(ib->banned, m->isolated);
		ib->source = BAN_AUTO;
	}
}

/* Its environment when it can be read (root), else its configuration. */
static void
read_banned(struct machine *m, struct irqbalance *ib)
{
	char rel[64], *buf, *mask, *list;
	size_t len, i;

	snprintf(rel, sizeof(rel), PATH_PROC_PID_FILE, ib->pid, "environ");
	if (procfs_read_bytes(rel, &buf, &len) == 0 && len > 0) {
		ib->from = xstrdup("its environment");
		set_banned(m, ib, env_value(buf, len, VAR_MASK),
		    env_value(buf, len, VAR_LIST));
		free(buf);
		return;
	}
	for (i = 0; i < nitems(conf_files); i++) {
		if (procfs_read(conf_files[i], &buf) != 0)
			continue;
		ib->from = xstrdup(procfs_path(conf_files[i]));
		mask = conf_value(buf, VAR_MASK);
		list = conf_value(buf, VAR_LIST);
		set_banned(m, ib, mask, list);
		free(mask);
		free(list);
		free(buf);
		return;
	}
	set_banned(m, ib, NULL, NULL);
}

static void
add_banirq(struct irqbalance *ib, const char *arg)
{
	const char *errstr;
	long long irq;

	irq = strtonum(arg, 0, INT_MAX, &errstr);
	if (errstr != NULL)
		return;
	ib->banirq = xreallocarray(ib->banirq, ib->nbanirq + 1,
	    sizeof(*ib->banirq));
	ib->banirq[ib->nbanirq++] = irq;
}

/* --banirq=N, --banirq N, -iN and -i N on its command line. */
static void
read_banirq(struct irqbalance *ib)
{
	char rel[64], *buf, *p, *end;
	const char *arg;
	size_t len;

	snprintf(rel, sizeof(rel), PATH_PROC_PID_FILE, ib->pid, "cmdline");
	if (procfs_read_bytes(rel, &buf, &len) != 0)
		return;
	end = buf + len;
	for (p = buf; p < end; p += strlen(p) + 1) {
		arg = NULL;
		if (strncmp(p, "--banirq=", 9) == 0)
			arg = p + 9;
		else if (strncmp(p, "-i", 2) == 0 && p[2] != '\0')
			arg = p + 2;
		else if ((strcmp(p, "--banirq") == 0 || strcmp(p, "-i") == 0) &&
		    p + strlen(p) + 1 < end) {
			p += strlen(p) + 1;
			arg = p;
		} else if (strcmp(p, "--") == 0)
			break;
		if (arg != NULL)
			add_banirq(ib, arg);
	}
	free(buf);
}

/*
 * The one rule of every writer, dry runs too: warn when irqbalance runs
 * and may move one of the IRQs, those its --banirq names left out.
 */
void
irqbalance_warn_changes(const struct change *c, size_t n)
{
	struct irqbalance ib;
	size_t i;

	memset(&ib, 0, sizeof(ib));
	if ((ib.pid = running_pid()) == 0)
		return;
	read_banirq(&ib);
	for (i = 0; i < n && irqbalance_bans(&ib, c[i].irq); i++)
		;
	if (i < n)
		say();
	irqbalance_free(&ib);
}

/* What the running irqbalance bans; pid 0 and nothing else when none. */
void
irqbalance_load(struct machine *m, struct irqbalance *ib)
{
	bool other;

	memset(ib, 0, sizeof(*ib));
	other = !procfs_exists(conf_files[0]) && procfs_exists(conf_files[1]);
	ib->conf = xstrdup(procfs_path(conf_files[other]));
	if ((ib->pid = running_pid()) == 0)
		return;
	read_banned(m, ib);
	read_banirq(ib);
}

/* Is IRQ one of its --banirq IRQs? */
bool
irqbalance_bans(const struct irqbalance *ib, unsigned int irq)
{
	size_t i;

	for (i = 0; i < ib->nbanirq; i++)
		if (ib->banirq[i] == irq)
			return true;
	return false;
}

void
irqbalance_free(struct irqbalance *ib)
{
	cpuset_free(ib->banned);
	free(ib->from);
	free(ib->conf);
	free(ib->banirq);
	memset(ib, 0, sizeof(*ib));
}
