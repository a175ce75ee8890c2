/*
 * mktree [-CRS] DIR CPUS IRQS: a large fake /proc and /sys tree in the layout
 * of tests/test_helper/tree.bash, fast enough for 8192 CPUs and 4096 IRQs.
 *
 * The tree is what
 *
 *	make_root --dir DIR --cpus CPUS --sockets S --threads T --nodes K \
 *	    --legacy L --nic ethD:Q:NODE ... \
 *	    --irq N=irqdevJ --chip IR-PCI-MSI --hwirq H-edge --irq-node NODE ...
 *
 * would build (bench/check-mktree compares the two on a small tree):
 * all CPUs online, S = 2 sockets and T = 2 threads where CPUS allows,
 * K = 8 nodes from 256 CPUs up (2 below, 1 for tiny trees), L = 16 legacy
 * IRQs, four NICs with about half of the remaining IRQs from IRQ 24 on,
 * then "irqdevJ" MSI IRQs after them. proc/interrupts is written through
 * one buffered stream: at 8192 x 4096 it is over 300 MB.
 *
 * -C leaves out the cpuN directories (online, topology/): at 8192 CPUs
 * they are 90000 files, which show and set never read. -S leaves out
 * sys/kernel/irq, as make_root --no-sysirq. -R gives proc/interrupts
 * random 32-bit counts (a fixed seed) instead of (IRQ + 1) * 10000 + CPU:
 * far from their neighbours and most of them 10^8 or more, the dearest
 * counts for cpus and for -i to keep; per_cpu_count keeps the formula.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NNICS	4

static const char *legacy[][2] = {
	{ "timer", "2-edge" }, { "i8042", "1-edge" }, { "cascade", "0-edge" },
	{ "ttyS1", "3-edge" }, { "ttyS0", "4-edge" }, { "parport1", "5-edge" },
	{ "floppy", "6-edge" }, { "parport0", "7-edge" }, { "rtc0", "8-edge" },
	{ "acpi", "9-fasteoi" }, { "snd_hda_intel", "10-fasteoi" },
	{ "ehci_hcd:usb1", "11-fasteoi" }, { "i8042", "12-edge" },
	{ "fpu", "13-edge" }, { "ata_piix", "14-edge" },
	{ "ata_piix", "15-edge" },
};

struct irq {
	unsigned int	 num;
	char		 name[32];
	const char	*chip;
	char		 hw[32];
	int		 node;
};

static const char *root;
static unsigned int ncpus, nnodes, nsockets, nthreads, ncores;
static struct irq *irqs;
static size_t nirqs;
static unsigned int nicq, nicfirst[NNICS], nnics;
static int nocpudirs, nosysirq, randomcounts;

static void
die(const char *what)
{
	fprintf(stderr, "mktree: %s: %s\n", what, strerror(errno));
	exit(1);
}

static const char *
path(const char *fmt, ...)
{
	static char buf[PATH_MAX];
	char rel[PATH_MAX - 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(buf, sizeof(buf), "%s/%s", root, rel);
	return buf;
}

static void
mkdirs(const char *p)
{
	char buf[PATH_MAX], *s;

	snprintf(buf, sizeof(buf), "%s", p);
	for (s = buf + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			die(buf);
		*s = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		die(buf);
}

static void
put(const char *p, const char *data, size_t len)
{
	FILE *fp;

	if ((fp = fopen(p, "w")) == NULL)
		die(p);
	if (fwrite(data, 1, len, fp) != len || fclose(fp) != 0)
		die(p);
}

static void
putf(const char *p, const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(p, buf, n);
}

static void
putline(const char *p, const char *s)
{
	FILE *fp;

	if ((fp = fopen(p, "w")) == NULL)
		die(p);
	if (fputs(s, fp) == EOF || fputc('\n', fp) == EOF || fclose(fp) != 0)
		die(p);
}

/* A set is a byte per CPU. */
static char *
newset(void)
{
	char *s;

	if ((s = calloc(ncpus, 1)) == NULL)
		die("calloc");
	return s;
}

/* Kernel "%*pbl": ranges of two or more as a-b. */
static char *
klist(const char *set)
{
	size_t cap = (size_t)ncpus * 11 + 16, len = 0;
	unsigned int c, e;
	char *out;

	if ((out = malloc(cap)) == NULL)
		die("malloc");
	out[0] = '\0';
	for (c = 0; c < ncpus; c++) {
		if (!set[c])
			continue;
		for (e = c; e + 1 < ncpus && set[e + 1]; e++)
			;
		if (e == c)
			len += snprintf(out + len, cap - len, "%s%u",
			    len ? "," : "", c);
		else
			len += snprintf(out + len, cap - len, "%s%u-%u",
			    len ? "," : "", c, e);
		c = e;
	}
	return out;
}

/* Kernel "%*pb" at the tree's width. */
static char *
kmask(const char *set)
{
	unsigned int nw = (ncpus + 31) / 32, w, b, r, v;
	size_t cap = (size_t)nw * 9 + 16, len = 0;
	char *out;

	if ((out = malloc(cap)) == NULL)
		die("malloc");
	r = ncpus % 32;
	if (r == 0)
		r = 32;
	for (w = nw; w-- > 0;) {
		v = 0;
		for (b = 0; b < 32 && w * 32 + b < ncpus; b++)
			if (set[w * 32 + b])
				v |= 1U << b;
		if (w == nw - 1)
			len += snprintf(out + len, cap - len, "%0*x",
			    (int)((r + 3) / 4), v);
		else
			len += snprintf(out + len, cap - len, ",%08x", v);
	}
	return out;
}

static char *
list_of_range(unsigned int lo, unsigned int hi)
{
	char *set = newset(), *s;
	unsigned int c;

	for (c = lo; c <= hi && c < ncpus; c++)
		set[c] = 1;
	s = klist(set);
	free(set);
	return s;
}

/* tree.bash _tree_topology(): x86 enumeration order. */
static void
cpu_place(unsigned int c, unsigned int *sock, unsigned int *core,
    unsigned int *node)
{
	unsigned int idx = c % (nsockets * ncores);

	*sock = idx / ncores;
	*core = idx % ncores;
	*node = (unsigned long long)idx * nnodes / (nsockets * ncores);
}

static void
write_cpus(void)
{
	char *all = list_of_range(0, ncpus - 1), *set, *list, *mask;
	char **corelist, **coremask, **pkglist, **pkgmask, *p;
	unsigned int c, s, co, k, n, key, nkeys = nsockets * ncores;
	char **nodesets;

	mkdirs(path("sys/devices/system/cpu"));
	mkdirs(path("sys/devices/system/node"));
	mkdirs(path("proc/irq"));
	putline(path("sys/devices/system/cpu/possible"), all);
	putline(path("sys/devices/system/cpu/present"), all);
	putline(path("sys/devices/system/cpu/kernel_max"), "8191");
	putline(path("sys/devices/system/cpu/isolated"), "");
	/* "(null)" right-aligned in nr_cpu_ids columns, as the kernel */
	if ((p = malloc(ncpus + 8)) == NULL)
		die("malloc");
	snprintf(p, ncpus + 8, "%*s", (int)ncpus, "(null)");
	putline(path("sys/devices/system/cpu/nohz_full"), p);
	free(p);
	putline(path("sys/devices/system/cpu/online"), all);
	putline(path("sys/devices/system/cpu/offline"), "");
	if (nnodes > 1)
		putf(path("sys/devices/system/node/possible"), "0-%u\n",
		    nnodes - 1);
	else
		putf(path("sys/devices/system/node/possible"), "0\n");
	if (nnodes > 1)
		putf(path("sys/devices/system/node/online"), "0-%u\n",
		    nnodes - 1);
	else
		putf(path("sys/devices/system/node/online"), "0\n");

	corelist = calloc(nkeys, sizeof(*corelist));
	coremask = calloc(nkeys, sizeof(*coremask));
	pkglist = calloc(nsockets, sizeof(*pkglist));
	pkgmask = calloc(nsockets, sizeof(*pkgmask));
	nodesets = calloc(nnodes, sizeof(*nodesets));
	if (!corelist || !coremask || !pkglist || !pkgmask || !nodesets)
		die("calloc");
	for (key = 0; key < nkeys && !nocpudirs; key++) {
		set = newset();
		for (n = 0; n < nthreads; n++)
			set[n * nkeys + key] = 1;
		corelist[key] = klist(set);
		coremask[key] = kmask(set);
		free(set);
	}
	for (s = 0; s < nsockets && !nocpudirs; s++) {
		set = newset();
		for (c = 0; c < ncpus; c++)
			if (c % nkeys / ncores == s)
				set[c] = 1;
		pkglist[s] = klist(set);
		pkgmask[s] = kmask(set);
		free(set);
	}
	for (k = 0; k < nnodes; k++)
		nodesets[k] = newset();
	for (c = 0; c < ncpus; c++) {
		cpu_place(c, &s, &co, &k);
		nodesets[k][c] = 1;
		key = s * ncores + co;
		if (nocpudirs)
			continue;
		mkdirs(path("sys/devices/system/cpu/cpu%u/topology", c));
		if (c > 0)
			putf(path("sys/devices/system/cpu/cpu%u/online", c),
			    "1\n");
#define T(f) path("sys/devices/system/cpu/cpu%u/topology/" f, c)
		putf(T("physical_package_id"), "%u\n", s);
		putf(T("core_id"), "%u\n", co);
		putf(T("die_id"), "0\n");
		putline(T("thread_siblings_list"), corelist[key]);
		putline(T("core_cpus_list"), corelist[key]);
		putline(T("thread_siblings"), coremask[key]);
		putline(T("core_cpus"), coremask[key]);
		putline(T("core_siblings_list"), pkglist[s]);
		putline(T("package_cpus_list"), pkglist[s]);
		putline(T("core_siblings"), pkgmask[s]);
		putline(T("package_cpus"), pkgmask[s]);
#undef T
	}
	for (k = 0; k < nnodes; k++) {
		list = klist(nodesets[k]);
		mask = kmask(nodesets[k]);
		mkdirs(path("sys/devices/system/node/node%u", k));
		putline(path("sys/devices/system/node/node%u/cpulist", k),
		    list);
		putline(path("sys/devices/system/node/node%u/cpumap", k),
		    mask);
		/* PCI devices on node k: local_cpulist, local_cpus */
		for (n = 0; n < nnics; n++) {
			if (n % nnodes != k)
				continue;
			p = (char *)path("sys/devices/pci0000:00/%04x:%02x:00.0",
			    (0x3b + n) >> 8, (0x3b + n) & 0xff);
			mkdirs(p);
			putline(path("sys/devices/pci0000:00/%04x:%02x:00.0/"
			    "local_cpulist", (0x3b + n) >> 8, (0x3b + n) & 0xff),
			    list);
			putline(path("sys/devices/pci0000:00/%04x:%02x:00.0/"
			    "local_cpus", (0x3b + n) >> 8, (0x3b + n) & 0xff),
			    mask);
		}
		free(list);
		free(mask);
		free(nodesets[k]);
	}
	for (key = 0; key < nkeys; key++) {
		free(corelist[key]);
		free(coremask[key]);
	}
	for (s = 0; s < nsockets; s++) {
		free(pkglist[s]);
		free(pkgmask[s]);
	}
	free(corelist);
	free(coremask);
	free(pkglist);
	free(pkgmask);
	free(nodesets);
	free(all);
}

static void
write_procs(void)
{
	mkdirs(path("proc/1"));
	putline(path("proc/1/comm"), "systemd");
	put(path("proc/1/cmdline"), "/sbin/init", sizeof("/sbin/init"));
}

static void
add_irq(unsigned int num, const char *name, const char *chip, const char *hw,
    int node)
{
	struct irq *q = &irqs[nirqs++];

	q->num = num;
	snprintf(q->name, sizeof(q->name), "%s", name);
	q->chip = chip;
	snprintf(q->hw, sizeof(q->hw), "%s", hw);
	q->node = node;
}

static void
plan_irqs(unsigned int total)
{
	unsigned int i, d, nleg, next, rest;
	char name[32], hw[32];
	unsigned int bus, base;

	if ((irqs = calloc(total + 1, sizeof(*irqs))) == NULL)
		die("calloc");
	nleg = total < 16 ? total : 16;
	for (i = 0; i < nleg; i++)
		add_irq(i, legacy[i][0], "IO-APIC", legacy[i][1], 0);
	rest = total - nleg;
	next = 24;
	if (rest >= 2 * NNICS) {
		nnics = NNICS;
		nicq = rest / (2 * NNICS) - 1;
		if (nicq == 0)
			nicq = 1;
		for (d = 0; d < nnics; d++) {
			nicfirst[d] = next;
			bus = (0x3b + d) & 0xff;
			base = ((bus << 8) & 0xffff) << 11;
			for (i = 0; i <= nicq; i++) {
				if (i == 0)
					snprintf(name, sizeof(name), "eth%u", d);
				else
					snprintf(name, sizeof(name),
					    "eth%u-TxRx-%u", d, i - 1);
				snprintf(hw, sizeof(hw), "%u-edge", base + i);
				add_irq(next++, name, "IR-PCI-MSI", hw,
				    d % nnodes);
			}
		}
		rest -= nnics * (nicq + 1);
	}
	for (i = 0; i < rest; i++) {
		snprintf(name, sizeof(name), "irqdev%u", i);
		snprintf(hw, sizeof(hw), "%u-edge", 1048576 + i);
		add_irq(next++, name, "IR-PCI-MSI", hw, i % nnodes);
	}
}

static void
write_devices(void)
{
	unsigned int d, i;
	char bdf[16];

	mkdirs(path("sys/bus/pci/devices"));
	mkdirs(path("sys/class/net"));
	mkdirs(path("sys/class/nvme"));
	for (d = 0; d < nnics; d++) {
		snprintf(bdf, sizeof(bdf), "%04x:%02x:00.0", (0x3b + d) >> 8,
		    (0x3b + d) & 0xff);
#define D(f) path("sys/devices/pci0000:00/%s/" f, bdf)
		mkdirs(D("msi_irqs"));
		mkdirs(path("sys/devices/pci0000:00/%s/net/eth%u", bdf, d));
		putline(D("vendor"), "0x8086");
		putline(D("device"), "0x1572");
		putline(D("class"), "0x020000");
		putf(D("numa_node"), "%u\n", d % nnodes);
		putf(D("irq"), "%u\n", nicfirst[d]);
		for (i = 0; i <= nicq; i++)
			putline(path("sys/devices/pci0000:00/%s/msi_irqs/%u",
			    bdf, nicfirst[d] + i), "msix");
#undef D
		char target[128];
		snprintf(target, sizeof(target), "../../../devices/pci0000:00/%s",
		    bdf);
		if (symlink(target, path("sys/bus/pci/devices/%s", bdf)) != 0)
			die("symlink");
		snprintf(target, sizeof(target),
		    "../../devices/pci0000:00/%s/net/eth%u", bdf, d);
		if (symlink(target, path("sys/class/net/eth%u", d)) != 0)
			die("symlink");
		snprintf(target, sizeof(target), "../../../%s", bdf);
		if (symlink(target, path("sys/devices/pci0000:00/%s/net/eth%u/"
		    "device", bdf, d)) != 0)
			die("symlink");
	}
}

static unsigned int
prec_of(void)
{
	unsigned long long nr = nirqs ? irqs[nirqs - 1].num + 1 : 0, j = 1000;
	unsigned int prec;

	for (prec = 3; prec < 10 && j <= nr; prec++)
		j *= 10;
	return prec;
}

/* tree.bash _tree_irq_tail() */
static void
irq_tail(FILE *fp, const struct irq *q, unsigned int prec)
{
	const char *dash = strchr(q->hw, '-');

	fprintf(fp, " %8s", q->chip);
	fprintf(fp, " %*.*s-%-8s", (int)prec, (int)(dash - q->hw), q->hw,
	    dash + 1);
	fprintf(fp, "  %s\n", q->name);
}

/* xorshift64 from a fixed seed: the same tree every time. */
static unsigned long long
random32(void)
{
	static unsigned long long x = 0x9e3779b97f4a7c15ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x & 0xffffffff;
}

static void
write_interrupts(void)
{
	unsigned int prec = prec_of(), c;
	char *row, *p;
	size_t i;
	FILE *fp;

	if ((fp = fopen(path("proc/interrupts"), "w")) == NULL)
		die("proc/interrupts");
	setvbuf(fp, NULL, _IOFBF, 1 << 20);
	if ((row = malloc((size_t)ncpus * 24 + 1)) == NULL)
		die("malloc");
	fprintf(fp, "%*s", (int)prec + 8, "");
	for (c = 0; c < ncpus; c++)
		fprintf(fp, "CPU%-8u", c);
	fputc('\n', fp);
	for (i = 0; i < nirqs; i++) {
		fprintf(fp, "%*u: ", (int)prec, irqs[i].num);
		for (c = 0, p = row; c < ncpus; c++)
			p += sprintf(p, "%10llu ", randomcounts ? random32() :
			    (irqs[i].num + 1ULL) * 10000 + c);
		fwrite(row, 1, p - row, fp);
		irq_tail(fp, &irqs[i], prec);
	}
	fprintf(fp, "%*s: ", (int)prec, "NMI");
	for (c = 0; c < ncpus; c++)
		fprintf(fp, "%10u ", c + 1);
	fprintf(fp, "  Non-maskable interrupts\n");
	fprintf(fp, "%*s: ", (int)prec, "LOC");
	for (c = 0; c < ncpus; c++)
		fprintf(fp, "%10u ", 1000 * (c + 1));
	fprintf(fp, "  Local timer interrupts\n");
	fprintf(fp, "%*s: %10u\n%*s: %10u\n", (int)prec, "ERR", 0,
	    (int)prec, "MIS", 0);
	if (fclose(fp) != 0)
		die("proc/interrupts");
	free(row);
}

static void
write_irqs(void)
{
	char *set = newset(), *all, *allmask, *zero, *eff, *effmask;
	unsigned long long sum = 0, total;
	unsigned int c, e;
	size_t i;

	for (c = 0; c < ncpus; c++)
		sum += c;
	all = list_of_range(0, ncpus - 1);
	memset(set, 1, ncpus);
	allmask = kmask(set);
	memset(set, 0, ncpus);
	zero = kmask(set);
	putline(path("proc/irq/default_smp_affinity"), allmask);
	for (i = 0; i < nirqs; i++) {
		const struct irq *q = &irqs[i];

		mkdirs(path("proc/irq/%u/%s", q->num, q->name));
		e = q->num % ncpus;
		set[e] = 1;
		effmask = kmask(set);
		set[e] = 0;
		if ((eff = malloc(16)) == NULL)
			die("malloc");
		snprintf(eff, 16, "%u", e);
#define F(f) path("proc/irq/%u/" f, q->num)
		putline(F("smp_affinity"), allmask);
		putline(F("effective_affinity"), effmask);
		putline(F("smp_affinity_list"), all);
		putline(F("effective_affinity_list"), eff);
		putline(F("affinity_hint"), zero);
		putf(F("node"), "%d\n", q->node);
		total = (q->num + 1ULL) * 10000 * ncpus + sum;
		putf(F("spurious"), "count %llu\nunhandled 0\n"
		    "last_unhandled 0 ms\n", total % 100000);
#undef F
		free(eff);
		free(effmask);
	}
	free(set);
	free(all);
	free(allmask);
	free(zero);
}

/* sysfs hands out one page: scnprintf() cuts the text at 4095 bytes. */
#define PAGE_TEXT	4095

/* tree.bash _tree_write_counts(): all CPUs are online here. */
static void
write_counts(const struct irq *q, char *buf)
{
	size_t len = 0;
	unsigned int c;
	int n;

	for (c = 0; c < ncpus && len < PAGE_TEXT; c++) {
		n = snprintf(buf + len, PAGE_TEXT + 1 - len, "%s%llu",
		    c ? "," : "", (q->num + 1ULL) * 10000 + c);
		len = len + n > PAGE_TEXT ? PAGE_TEXT : len + n;
	}
	if (len < PAGE_TEXT)
		buf[len++] = '\n';
	put(path("sys/kernel/irq/%u/per_cpu_count", q->num), buf, len);
}

/* sys/kernel/irq/N (kernel/irq/irqdesc.c); tree.bash _tree_write_sysirq(). */
static void
write_sysirq(void)
{
	char buf[PAGE_TEXT + 1], hw[32];
	const char *dash;
	size_t i, fl;

	if (nosysirq)
		return;
	mkdirs(path("sys/kernel/irq"));
	for (i = 0; i < nirqs; i++) {
		const struct irq *q = &irqs[i];

		dash = strchr(q->hw, '-');
		snprintf(hw, sizeof(hw), "%.*s", (int)(dash - q->hw), q->hw);
#define F(f) path("sys/kernel/irq/%u/" f, q->num)
		mkdirs(path("sys/kernel/irq/%u", q->num));
		write_counts(q, buf);
		putline(F("chip_name"), q->chip);
		putline(F("hwirq"), hw);
		fl = strlen(dash + 1);
		putline(F("type"), fl >= 4 && strcmp(dash + 1 + fl - 4, "edge")
		    == 0 ? "edge" : "level");
		putline(F("wakeup"), "disabled");
		putline(F("name"), dash + 1);
		putline(F("actions"), q->name);
#undef F
	}
}

static unsigned int
number(const char *s, unsigned int min, unsigned int max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < min || v > max) {
		fprintf(stderr, "mktree: \"%s\" is not a number from %u to "
		    "%u\n", s, min, max);
		exit(2);
	}
	return v;
}

static int
usage(void)
{
	fprintf(stderr, "usage: mktree [-CRS] DIR CPUS IRQS\n");
	return 2;
}

int
main(int argc, char *argv[])
{
	int ch;

	while ((ch = getopt(argc, argv, "CRS")) != -1) {
		if (ch == 'C')
			nocpudirs = 1;
		else if (ch == 'R')
			randomcounts = 1;
		else if (ch == 'S')
			nosysirq = 1;
		else
			return usage();
	}
	argc -= optind;
	argv += optind;
	if (argc != 3)
		return usage();
	root = argv[0];
	ncpus = number(argv[1], 1, 8192);
	nirqs = 0;
	nsockets = ncpus % 4 == 0 ? 2 : 1;
	nthreads = ncpus % 2 == 0 ? 2 : 1;
	ncores = ncpus / (nsockets * nthreads);
	nnodes = ncpus >= 256 ? 8 : ncpus >= 4 ? 2 : 1;
	if ((nsockets * ncores) % nnodes != 0)
		nnodes = nsockets;
	mkdirs(root);
	plan_irqs(number(argv[2], 0, 1 << 20));
	write_cpus();
	write_procs();
	write_devices();
	write_interrupts();
	write_irqs();
	write_sysirq();
	return 0;
}
