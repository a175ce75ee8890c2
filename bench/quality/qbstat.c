/* qbstat: the guest's side of bench/quality: measure, time, send. */
/*
 * Built static: the guest has busybox and little else.
 *
 * qbstat measure SECONDS TAG [FILE]
 *	Read /proc/interrupts twice SECONDS apart and print one line
 *	  QB-STAT TAG key=value ...
 *	mxm, sdm: the busiest CPU's load and the standard deviation of the
 *	  loads over the mean, for the movable IRQs' interrupts over the
 *	  online CPUs that are not isolated (/sys/devices/system/cpu/
 *	  isolated), the mean being all movable interrupts over those CPUs;
 *	mxa, sda: the same over every numbered IRQ and every online CPU;
 *	floor: the busiest movable IRQ's rate over that mean, the least mxm
 *	  any placement of whole IRQs can reach when above 1;
 *	off: movable IRQs with a NUMA node whose effective CPUs leave it
 *	  (each also on a line QB-OFF TAG IRQ node NODE NAME);
 *	iso: the share of movable interrupts counted on isolated CPUs;
 *	rate: movable interrupts a second; nmov: movable IRQs;
 *	strand: 1 when an eligible CPU took under 2 % of that mean while
 *	  another held two busy movable IRQs (each at least a tenth of the
 *	  mean, held where most of its interrupts landed), else 0.
 *	Movable: not kernel-managed, not per-CPU, not no-balancing (the
 *	IRQD_ states in /sys/kernel/debug/irq/irqs/N).
 *	Then QB-CPU TAG with each CPU's movable rate. With FILE, also
 *	write "IRQ COUNT NAME" there for every IRQ: its interrupts in the
 *	window.
 * qbstat time TAG CMD...
 *	Run CMD, print QB-TIME TAG SECONDS STATUS.
 * qbstat affs
 *	Print "N LIST" for every IRQ's smp_affinity_list.
 * qbstat written TAG MAX COUNTS OLD NEW
 *	From two affs outputs and a measure FILE: print
 *	  QB-WRITTEN TAG CHANGED QUIET FOLLOW
 *	the IRQs whose list changed; of them, those counting at most MAX in
 *	COUNTS (absent: 0) that went to the same list as their busy rx/tx
 *	partner, written too (FOLLOW, each on a line QB-FOLLOW), and the
 *	other quiet ones (QUIET, each on a line QB-QUIETW).
 * qbstat pairs TAG
 *	Print QB-PAIRS TAG SPLIT PAIRS: the rx/tx pairs (virtioN-input.Q
 *	and virtioN-output.Q, DEV-rx-Q and DEV-tx-Q) and those whose
 *	smp_affinity_list differ, each also on a line QB-SPLIT.
 * qbstat tx SECONDS RATE CPU IFACE
 *	On CPU, send RATE broadcast frames a second (EtherType 0x88b5, no
 *	IP) out of IFACE for SECONDS: transmit completions for the queue
 *	XPS gives that CPU.
 */
#define _GNU_SOURCE
#include <sys/socket.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <math.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define MAXCPU	64
#define MAXIRQ	1024

struct irq {
	int		n;
	uint64_t	cnt[MAXCPU];
	char		name[48];
};

struct snap {
	int		ncol;
	int		col[MAXCPU];	/* CPU number of each column */
	int		nirq;
	struct irq	irq[MAXIRQ];
};

static int
read_line(const char *path, char *buf, size_t len)
{
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fgets(buf, len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static uint64_t
cpulist(const char *s)
{
	uint64_t m = 0;
	char *end;
	long a, b;

	while (*s != '\0') {
		a = strtol(s, &end, 10);
		if (end == s)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < MAXCPU; a++)
			m |= UINT64_C(1) << a;
		s = *end == ',' ? end + 1 : end;
	}
	return m;
}

static uint64_t
cpulist_file(const char *path)
{
	char buf[512];

	return read_line(path, buf, sizeof(buf)) == 0 ? cpulist(buf) : 0;
}

static void
take(struct snap *s)
{
	FILE *f;
	char *line = NULL, *p, *end;
	size_t cap = 0;
	long n;
	int c;

	if ((f = fopen("/proc/interrupts", "r")) == NULL)
		err(1, "/proc/interrupts");
	s->ncol = s->nirq = 0;
	if (getline(&line, &cap, f) > 0)
		for (p = line; (p = strstr(p, "CPU")) != NULL &&
		    s->ncol < MAXCPU; p += 3)
			s->col[s->ncol++] = atoi(p + 3);
	while (getline(&line, &cap, f) > 0 && s->nirq < MAXIRQ) {
		for (p = line; *p == ' '; p++)
			;
		n = strtol(p, &end, 10);
		if (end == p || *end != ':')
			continue;
		s->irq[s->nirq].n = n;
		p = end + 1;
		for (c = 0; c < s->ncol; c++) {
			s->irq[s->nirq].cnt[c] = strtoull(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		for (; c < s->ncol; c++)
			s->irq[s->nirq].cnt[c] = 0;
		/* the last word: the action's name */
		p[strcspn(p, "\n")] = '\0';
		while ((end = strrchr(p, ' ')) != NULL && end[1] == '\0')
			*end = '\0';
		snprintf(s->irq[s->nirq].name, sizeof(s->irq[0].name), "%s",
		    end != NULL ? end + 1 : p);
		s->nirq++;
	}
	free(line);
	fclose(f);
}

static int
movable(int n)
{
	char path[64], buf[256];
	FILE *f;
	int ok = 1;

	snprintf(path, sizeof(path), "/sys/kernel/debug/irq/irqs/%d", n);
	if ((f = fopen(path, "r")) == NULL)
		return 1;
	while (fgets(buf, sizeof(buf), f) != NULL)
		if (strstr(buf, "IRQD_AFFINITY_MANAGED") != NULL ||
		    strstr(buf, "IRQD_PER_CPU") != NULL ||
		    strstr(buf, "IRQD_NO_BALANCING") != NULL)
			ok = 0;
	fclose(f);
	return ok;
}

/* The busiest CPU's load and the loads' standard deviation, each over
 * TOTAL's mean over CPUS; returns that mean. */
static double
shape(const double *load, uint64_t cpus, double total, double *mx,
    double *sd)
{
	double mean, var = 0, top = 0;
	int cpu, n = 0;

	for (cpu = 0; cpu < MAXCPU; cpu++)
		if (cpus >> cpu & 1) {
			n++;
			if (load[cpu] > top)
				top = load[cpu];
		}
	mean = n ? total / n : 0;
	*mx = *sd = 0;
	if (mean <= 0)
		return 0;
	for (cpu = 0; cpu < MAXCPU; cpu++)
		if (cpus >> cpu & 1)
			var += (load[cpu] - mean) * (load[cpu] - mean);
	*mx = top / mean;
	*sd = sqrt(var / n) / mean;
	return mean;
}

static int
measure(double secs, const char *tag, const char *file)
{
	static struct snap a, b;
	static double hrate[MAXIRQ];
	static int hcpu[MAXIRQ];
	double mov[MAXCPU] = { 0 }, all[MAXCPU] = { 0 };
	double top = 0, onisol = 0, sum, mean, dt, t0;
	double mxm = 0, sdm = 0, mxa = 0, sda = 0, floor = 0, rm = 0;
	uint64_t online, isol, elig, eff, nodecpus, d;
	char path[96], buf[64];
	int i, j, c, cpu, nmov = 0, off = 0, node, strand = 0;
	int busy[MAXCPU] = { 0 };
	uint64_t most, tot;
	FILE *cf = NULL;

	if (file != NULL && (cf = fopen(file, "w")) == NULL)
		err(1, "%s", file);
	online = cpulist_file("/sys/devices/system/cpu/online");
	isol = cpulist_file("/sys/devices/system/cpu/isolated");
	elig = online & ~isol;
	take(&a);
	t0 = now();
	usleep((useconds_t)(secs * 1e6));
	take(&b);
	dt = now() - t0;
	for (i = 0; i < b.nirq; i++) {
		double r = 0;
		int mv;

		for (j = 0; j < a.nirq && a.irq[j].n != b.irq[i].n; j++)
			;
		if (j == a.nirq)
			continue;
		mv = movable(b.irq[i].n);
		hcpu[i] = -1;
		hrate[i] = 0;
		most = tot = 0;
		for (c = 0; c < b.ncol && c < a.ncol; c++) {
			d = b.irq[i].cnt[c] - a.irq[j].cnt[c];
			if (d > UINT32_MAX / 2)
				d = 0;
			tot += d;
			cpu = b.col[c];
			if (mv && d > most) {
				most = d;
				hcpu[i] = cpu;
			}
			all[cpu] += d / dt;
			r += d / dt;
			if (mv) {
				mov[cpu] += d / dt;
				if (isol >> cpu & 1)
					onisol += d / dt;
			}
		}
		if (cf != NULL)
			fprintf(cf, "%d %llu %s\n", b.irq[i].n,
			    (unsigned long long)tot, b.irq[i].name);
		if (r > 0 || !mv)
			printf("QB-IRQ %s %d %.0f %s%s\n", tag, b.irq[i].n, r,
			    b.irq[i].name, mv ? "" : " (not movable)");
		if (!mv)
			continue;
		nmov++;
		hrate[i] = r;
		rm += r;
		if (r > top)
			top = r;
		snprintf(path, sizeof(path), "/proc/irq/%d/node", b.irq[i].n);
		if (read_line(path, buf, sizeof(buf)) != 0)
			continue;
		node = atoi(buf);
		if (node < 0)
			continue;
		snprintf(path, sizeof(path),
		    "/sys/devices/system/node/node%d/cpulist", node);
		nodecpus = cpulist_file(path);
		snprintf(path, sizeof(path),
		    "/proc/irq/%d/effective_affinity_list", b.irq[i].n);
		eff = cpulist_file(path);
		if (eff != 0 && (eff & ~nodecpus) != 0) {
			off++;
			printf("QB-OFF %s %d node %d %s\n", tag, b.irq[i].n,
			    node, b.irq[i].name);
		}
	}
	if (cf != NULL && fclose(cf) == EOF)
		err(1, "%s", file);
	/*
	 * movable: over the mean an even share would give each eligible
	 * CPU, counting what landed on isolated CPUs too (iso says how much)
	 */
	mean = shape(mov, elig, rm, &mxm, &sdm);
	if (mean > 0)
		floor = top / mean;
	for (i = 0; i < b.nirq && mean > 0; i++)
		if (hcpu[i] >= 0 && hrate[i] >= mean / 10)
			busy[hcpu[i]]++;
	for (cpu = 0; cpu < MAXCPU && mean > 0; cpu++)
		if ((elig >> cpu & 1) && mov[cpu] < mean / 50)
			for (c = 0; c < MAXCPU; c++)
				if ((elig >> c & 1) && busy[c] >= 2)
					strand = 1;
	for (sum = 0, cpu = 0; cpu < MAXCPU; cpu++)
		if (online >> cpu & 1)
			sum += all[cpu];
	shape(all, online, sum, &mxa, &sda);
	printf("QB-STAT %s mxm=%.3f sdm=%.3f mxa=%.3f sda=%.3f floor=%.3f "
	    "off=%d iso=%.3f rate=%.0f nmov=%d strand=%d secs=%.2f\n", tag,
	    mxm, sdm, mxa, sda, floor, off, rm > 0 ? onisol / rm : 0, rm, nmov,
	    strand, dt);
	printf("QB-CPU %s", tag);
	for (cpu = 0; cpu < MAXCPU; cpu++)
		if (online >> cpu & 1)
			printf(" %.0f", mov[cpu]);
	printf("\n");
	return 0;
}

static int
timecmd(const char *tag, char **argv)
{
	double t0;
	pid_t pid;
	int st;

	t0 = now();
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		execvp(argv[0], argv);
		err(127, "%s", argv[0]);
	}
	if (waitpid(pid, &st, 0) == -1)
		err(1, "waitpid");
	printf("QB-TIME %s %.3f %d\n", tag, now() - t0,
	    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}

static int
numeric(const struct dirent *e)
{
	return isdigit((unsigned char)e->d_name[0]);
}

static int
bynum(const struct dirent **a, const struct dirent **b)
{
	return atoi((*a)->d_name) - atoi((*b)->d_name);
}

static int
affs(void)
{
	struct dirent **ent;
	char path[96], buf[512];
	int i, n;

	if ((n = scandir("/proc/irq", &ent, numeric, bynum)) == -1)
		err(1, "/proc/irq");
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list",
		    atoi(ent[i]->d_name));
		if (read_line(path, buf, sizeof(buf)) == 0)
			printf("%s %s\n", ent[i]->d_name, buf);
		free(ent[i]);
	}
	free(ent);
	return 0;
}

/* Read "N WORD" lines into n[] and w[] (up to MAXIRQ); returns how many. */
static int
read_nw(const char *path, int *n, char (*w)[512])
{
	FILE *f;
	char line[600];
	int k = 0;

	if ((f = fopen(path, "r")) == NULL)
		err(1, "%s", path);
	while (k < MAXIRQ && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%d %511s", &n[k], w[k]) == 2)
			k++;
	fclose(f);
	return k;
}

/*
 * The rx/tx partner's name of NAME into BUF (virtioN-input.Q and
 * virtioN-output.Q, DEV-rx-Q and DEV-tx-Q); 1 for the receive side, 2 for
 * the transmit side, 0 if it has none.
 */
static int
partner(const char *name, char *buf, size_t len)
{
	const char *p;
	size_t k;
	int nic, q, n;

	if (sscanf(name, "virtio%d-input.%d%n", &nic, &q, &n) == 2 &&
	    name[n] == '\0') {
		snprintf(buf, len, "virtio%d-output.%d", nic, q);
		return 1;
	}
	if (sscanf(name, "virtio%d-output.%d%n", &nic, &q, &n) == 2 &&
	    name[n] == '\0') {
		snprintf(buf, len, "virtio%d-input.%d", nic, q);
		return 2;
	}
	for (p = name; (p = strchr(p, '-')) != NULL; p++)
		if ((strncmp(p, "-rx-", 4) == 0 || strncmp(p, "-tx-", 4) == 0) &&
		    p[4] != '\0' && strspn(p + 4, "0123456789") ==
		    strlen(p + 4)) {
			k = (size_t)(p - name);
			snprintf(buf, len, "%.*s-%s-%s", (int)k, name,
			    p[1] == 'r' ? "tx" : "rx", p + 4);
			return p[1] == 'r' ? 1 : 2;
		}
	return 0;
}

/* NEW's list of IRQ N, and whether OLD's differs; NULL when absent. */
static const char *
newlist(int n, int no, const int *on, char (*ow)[512], int nnew,
    const int *nn, char (*nw)[512], int *changed)
{
	int i, j;

	for (i = 0; i < nnew && nn[i] != n; i++)
		;
	if (i == nnew)
		return NULL;
	for (j = 0; j < no && on[j] != n; j++)
		;
	*changed = j == no || strcmp(ow[j], nw[i]) != 0;
	return nw[i];
}

static int
written(const char *tag, long max, const char *counts, const char *old,
    const char *new)
{
	static int cn[MAXIRQ], on[MAXIRQ], nn[MAXIRQ];
	static long cc[MAXIRQ];
	static char cname[MAXIRQ][48], ow[MAXIRQ][512], nw[MAXIRQ][512];
	char line[600], pname[64];
	const char *mine, *theirs;
	int nc = 0, no, nnew, i, j, ch, pch, changed = 0, quiet = 0;
	int follow = 0;
	long cnt;
	FILE *f;

	if ((f = fopen(counts, "r")) == NULL)
		err(1, "%s", counts);
	while (nc < MAXIRQ && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%d %ld %47s", &cn[nc], &cc[nc],
		    cname[nc]) == 3)
			nc++;
	fclose(f);
	no = read_nw(old, on, ow);
	nnew = read_nw(new, nn, nw);
	for (i = 0; i < nnew; i++) {
		mine = newlist(nn[i], no, on, ow, nnew, nn, nw, &ch);
		if (!ch)
			continue;
		changed++;
		cnt = 0;
		for (j = 0; j < nc && cn[j] != nn[i]; j++)
			;
		if (j < nc)
			cnt = cc[j];
		if (cnt > max)
			continue;
		/* quiet, written to go with a busy partner that moved */
		if (j < nc && partner(cname[j], pname, sizeof(pname))) {
			int k;

			for (k = 0; k < nc && strcmp(cname[k], pname) != 0;
			    k++)
				;
			theirs = k < nc && cc[k] > max ? newlist(cn[k], no, on, ow, nnew, nn,
			    nw, &pch) : NULL;
			if (theirs != NULL && pch && strcmp(theirs, mine) == 0) {
				follow++;
				printf("QB-FOLLOW %s %d count %ld -> %s with "
				    "%s\n", tag, nn[i], cnt, mine, pname);
				continue;
			}
		}
		quiet++;
		printf("QB-QUIETW %s %d count %ld -> %s\n", tag, nn[i], cnt,
		    mine);
	}
	printf("QB-WRITTEN %s %d %d %d\n", tag, changed, quiet, follow);
	return 0;
}

static int
pairs(const char *tag)
{
	static struct snap s;
	char path[96], la[512], lb[512], want[64];
	int i, j, np = 0, split = 0;

	take(&s);
	for (i = 0; i < s.nirq; i++) {
		if (partner(s.irq[i].name, want, sizeof(want)) != 1)
			continue;
		for (j = 0; j < s.nirq && strcmp(s.irq[j].name, want) != 0;
		    j++)
			;
		if (j == s.nirq)
			continue;
		np++;
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list",
		    s.irq[i].n);
		if (read_line(path, la, sizeof(la)) != 0)
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list",
		    s.irq[j].n);
		if (read_line(path, lb, sizeof(lb)) != 0)
			continue;
		if (strcmp(la, lb) != 0) {
			split++;
			printf("QB-SPLIT %s %s %s %s %s\n", tag,
			    s.irq[i].name, la, want, lb);
		}
	}
	printf("QB-PAIRS %s %d %d\n", tag, split, np);
	return 0;
}

static int
tx(double secs, double rate, int cpu, const char *ifname)
{
	struct sockaddr_ll sll;
	unsigned char frame[60];
	struct timespec next;
	cpu_set_t set;
	double t0, el;
	long sent = 0, due;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) == -1)
		err(1, "CPU %d", cpu);
	if ((fd = socket(AF_PACKET, SOCK_RAW, 0)) == -1)
		err(1, "socket");
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	if ((sll.sll_ifindex = if_nametoindex(ifname)) == 0)
		err(1, "%s", ifname);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) == -1)
		err(1, "%s: bind", ifname);
	make_frame(frame);
	t0 = now();
	clock_gettime(CLOCK_MONOTONIC, &next);
	while ((el = now() - t0) < secs) {
		for (due = (long)(rate * el); sent < due; sent++)
			if (send(fd, frame, sizeof(frame), 0) == -1 &&
			    errno != ENOBUFS)
				err(1, "%s: send", ifname);
		next_tick(&next);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "measure") == 0)
		return measure(atof(argv[2]), argv[3],
		    argc == 5 ? argv[4] : NULL);
	if (argc >= 4 && strcmp(argv[1], "time") == 0)
		return timecmd(argv[2], argv + 3);
	if (argc == 2 && strcmp(argv[1], "affs") == 0)
		return affs();
	if (argc == 7 && strcmp(argv[1], "written") == 0)
		return written(argv[2], atol(argv[3]), argv[4], argv[5],
		    argv[6]);
	if (argc == 3 && strcmp(argv[1], "pairs") == 0)
		return pairs(argv[2]);
	if (argc == 6 && strcmp(argv[1], "tx") == 0)
		return tx(atof(argv[2]), atof(argv[3]), atoi(argv[4]),
		    argv[5]);
	fprintf(stderr, "usage: qbstat measure SECONDS TAG [FILE]\n"
	    "       qbstat time TAG CMD...\n"
	    "       qbstat affs\n"
	    "       qbstat written TAG MAX COUNTS OLD NEW\n"
	    "       qbstat pairs TAG\n"
	    "       qbstat tx SECONDS RATE CPU IFACE\n");
	return 2;
}
