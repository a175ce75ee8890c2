/*
 * floor: the least a careful program must read and write to do what each
 * irqaff command does, on a tree of bench/mktree (bench/README.md says
 * what each one reads and how it differs from irqaff).
 *
 *	floor show TREE		interrupts, then 3 files an IRQ
 *	floor cpus TREE		each CPU's column of interrupts summed, then
 *				each IRQ's effective_affinity_list
 *	floor show1 TREE IRQ	one IRQ: 3 files in proc, 6 in sysfs; when
 *				per_cpu_count is cut, proc/interrupts up to
 *				the IRQ's row
 *	floor set TREE LIST	every IRQ's list: read, write if not LIST,
 *				read back
 *	floor spread TREE	one CPU an IRQ, first threads of cores first
 *	floor save TREE		the layout as a snapshot on stdout
 *	floor restore TREE FILE	a snapshot's lists, as set does
 *	floor check TREE FILE	compare a snapshot; exit 1 on a difference
 *
 * Every file is opened under TREE with openat2(RESOLVE_IN_ROOT), as irqaff
 * opens them; a small file is read with one read(2), a short read being
 * its end. Lists are the kernel's, without strides.
 */
#include <sys/syscall.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXCPUS		8192
#define MAXIRQS		(1 << 20)
#define SMALL		(64 * 1024)	/* the largest small file */
#define CHUNK		(64 * 1024)	/* reads of proc/interrupts */

typedef uint32_t cpuset[MAXCPUS / 32];

static int rootfd = -1;
static int nbits;			/* possible CPUs */
static int failed;

static _Noreturn void
die(const char *what)
{
	fprintf(stderr, "floor: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int
open_in(const char *rel, int flags)
{
	struct open_how how = {
		.flags = flags | O_CLOEXEC | O_NOCTTY,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	return syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
}

/* A small file whole in buf, NUL-terminated; its length, or -1. */
static ssize_t
slurp(const char *rel, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if ((fd = open_in(rel, O_RDONLY)) == -1)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* slurp() of a file that must be there, without its newline. */
static char *
need(const char *rel, char *buf, size_t size)
{
	if (slurp(rel, buf, size) < 0)
		die(rel);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* A kernel list ("0-3,8") into set; -1 if it is not one. */
static int
list_parse(const char *s, uint32_t *set)
{
	char *end;
	long a, b;

	memset(set, 0, sizeof(cpuset));
	while (*s != '\0' && *s != '\n') {
		a = b = strtol(s, &end, 10);
		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (a < 0 || b < a || b >= MAXCPUS)
			return -1;
		for (; a <= b; a++)
			set[a / 32] |= 1U << a % 32;
		s = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* The kernel's "%*pb" of set at nbits (lib/vsprintf.c bitmap_string()). */
static void
mask_format(const uint32_t *set, char *out)
{
	int w = (nbits + 31) / 32 - 1, r = nbits % 32 ? nbits % 32 : 32;

	out += sprintf(out, "%0*x", (r + 3) / 4, set[w]);
	while (w-- > 0)
		out += sprintf(out, ",%08x", set[w]);
}

/* possible is "0-N" (or "0"): nbits is N + 1. */
static void
read_possible(void)
{
	char buf[64], *dash;

	need("sys/devices/system/cpu/possible", buf, sizeof(buf));
	dash = strchr(buf, '-');
	nbits = (dash ? atoi(dash + 1) : atoi(buf)) + 1;
	if (nbits < 1 || nbits > MAXCPUS) {
		errno = ERANGE;
		die("sys/devices/system/cpu/possible");
	}
}

static int
cmpint(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The IRQs of proc/irq, ascending; *np of them. */
static int *
irq_list(size_t *np)
{
	static int v[MAXIRQS];
	struct dirent *e;
	size_t n = 0;
	DIR *d;
	int fd;

	if ((fd = open_in("proc/irq", O_RDONLY | O_DIRECTORY)) == -1 ||
	    (d = fdopendir(fd)) == NULL)
		die("proc/irq");
	while ((e = readdir(d)) != NULL && n < MAXIRQS)
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			v[n++] = atoi(e->d_name);
	closedir(d);
	qsort(v, n, sizeof(*v), cmpint);
	*np = n;
	return v;
}

/*
 * rel gets value: read, write when different (and cut a longer regular
 * file, as procfs needs not), read back; 0 when it holds value after.
 */
static int
put(const char *rel, const char *value)
{
	static char old[SMALL];
	size_t len = strlen(value);
	ssize_t n;
	int fd, ok;

	if ((fd = open_in(rel, O_RDWR)) == -1)
		return -1;
	if ((n = pread(fd, old, sizeof(old), 0)) < 0) {
		close(fd);
		return -1;
	}
	if ((size_t)n == len && memcmp(old, value, len) == 0) {
		close(fd);
		return 0;
	}
	ok = write(fd, value, len) == (ssize_t)len &&
	    ((size_t)n <= len || ftruncate(fd, len) == 0) &&
	    pread(fd, old, sizeof(old), 0) == (ssize_t)len &&
	    memcmp(old, value, len) == 0;
	close(fd);
	return ok ? 0 : -1;
}

static void
set_irq(int irq, const char *line)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "proc/irq/%d/smp_affinity_list", irq);
	if (put(rel, line) != 0) {
		fprintf(stderr, "floor: irq %d: %s\n", irq, strerror(errno));
		failed = 1;
	}
}

static int
cmd_set(const char *list)
{
	char line[SMALL];
	size_t i, n;
	int *irqs;

	snprintf(line, sizeof(line), "%s\n", list);
	irqs = irq_list(&n);
	for (i = 0; i < n; i++)
		set_irq(irqs[i], line);
	return failed;
}

/* proc/interrupts as it streams by: the header, then row by row. */
enum { HEAD, LEAD, NUM, COUNTS, TAIL, SKIP };

struct rows {
	int			 state;
	int			 ncols, col, inword;
	unsigned long		 irq;
	unsigned long long	 total, cur;
	char			 tail[1024];
	size_t			 taillen;
	long			 want;		/* show1: the one row wanted */
	long long		 found;		/* its total, or -1 */
	int			*cpu;		/* cpus: column to CPU */
	unsigned long long	*sum;		/* cpus: column sums */
};

/* One IRQ's line of show: its files, its total, the rest of its row. */
static void
show_row(struct rows *r)
{
	static char aff[SMALL], eff[SMALL];
	char rel[64], node[32];

	if (r->sum != NULL)
		return;
	if (r->want >= 0) {
		if ((long)r->irq == r->want)
			r->found = r->total;
		return;
	}
	while (r->taillen > 0 && r->tail[r->taillen - 1] == ' ')
		r->taillen--;
	r->tail[r->taillen] = '\0';
	snprintf(rel, sizeof(rel), "proc/irq/%lu/smp_affinity_list", r->irq);
	if (slurp(rel, aff, sizeof(aff)) < 0)
		strcpy(aff, "-");
	snprintf(rel, sizeof(rel), "proc/irq/%lu/effective_affinity_list",
	    r->irq);
	if (slurp(rel, eff, sizeof(eff)) < 0)
		strcpy(eff, "-");
	snprintf(rel, sizeof(rel), "proc/irq/%lu/node", r->irq);
	if (slurp(rel, node, sizeof(node)) < 0)
		strcpy(node, "-");
	aff[strcspn(aff, "\n")] = eff[strcspn(eff, "\n")] = '\0';
	node[strcspn(node, "\n")] = '\0';
	printf("%lu %s %s %s %llu %s\n", r->irq, aff, eff, node, r->total,
	    r->tail);
}

/*
 * The counts of a row from p on, to the first byte that is not one of
 * them: the newline, the tail, or the blank after the last count. Each
 * count goes to its column's sum for cpus, to the row's total otherwise.
 */
static const char *
counts(struct rows *r, const char *p, const char *end)
{
	unsigned long long cur = r->cur, total = r->total;
	int inword = r->inword, col = r->col;
	unsigned int d;

	for (; p < end; p++) {
		if ((d = (unsigned char)*p - '0') < 10) {
			cur = cur * 10 + d;
			inword = 1;
			continue;
		}
		if (inword) {
			if (r->sum != NULL)
				r->sum[col] += cur;
			else
				total += cur;
			cur = 0;
			inword = 0;
			col++;
		}
		if (*p != ' ' || col == r->ncols)
			break;
	}
	r->cur = cur;
	r->total = total;
	r->inword = inword;
	r->col = col;
	return p;
}

/* One byte outside the counts. */
static void
other_byte(struct rows *r, int c)
{
	switch (r->state) {
	case HEAD:
		if (c != ' ' && c != '\n' && !r->inword && r->ncols < MAXCPUS)
			r->ncols++;
		r->inword = c != ' ' && c != '\n';
		if (r->cpu != NULL && c >= '0' && c <= '9' && r->ncols > 0)
			r->cpu[r->ncols - 1] = r->cpu[r->ncols - 1] * 10 +
			    (c - '0');
		if (c == '\n')
			r->state = LEAD;
		break;
	case LEAD:
		if (c >= '0' && c <= '9') {
			r->irq = c - '0';
			r->state = NUM;
		} else if (c != ' ' && c != '\n')
			r->state = SKIP;
		break;
	case NUM:
		if (c >= '0' && c <= '9')
			r->irq = r->irq * 10 + (c - '0');
		else if (c == ':') {
			r->state = COUNTS;
			r->col = r->inword = 0;
			r->total = r->cur = r->taillen = 0;
		} else
			r->state = c == '\n' ? LEAD : SKIP;
		break;
	case COUNTS:		/* the byte counts() stopped at */
	case TAIL:
		if (c == '\n') {
			show_row(r);
			r->state = LEAD;
			break;
		}
		r->state = TAIL;
		if ((c != ' ' || r->taillen > 0) &&
		    r->taillen < sizeof(r->tail) - 1)
			r->tail[r->taillen++] = c;
		break;
	default:
		if (c == '\n')
			r->state = LEAD;
		break;
	}
}

static void
feed(struct rows *r, const char *p, size_t n)
{
	const char *end = p + n, *nl;

	while (p < end) {
		if (r->state == COUNTS && (p = counts(r, p, end)) == end)
			break;
		if (r->state == SKIP) {
			if ((nl = memchr(p, '\n', end - p)) == NULL)
				break;
			p = nl;
		}
		other_byte(r, *p++);
	}
}

static int
cmd_show(void)
{
	static char buf[CHUNK];
	static struct rows r;
	ssize_t n;
	int fd;

	if ((fd = open_in("proc/interrupts", O_RDONLY)) == -1)
		die("proc/interrupts");
	r.want = -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		feed(&r, buf, n);
	if (n < 0)
		die("proc/interrupts");
	close(fd);
	return 0;
}

/* A kernel list ("0-3,8"): one more IRQ for each of its CPUs. */
static void
list_count(const char *s, int *n)
{
	char *end;
	long a, b;

	while (*s != '\0' && *s != '\n') {
		a = b = strtol(s, &end, 10);
		if (end == s)
			return;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (a < 0 || b < a || b >= MAXCPUS)
			return;
		for (; a <= b; a++)
			n[a]++;
		s = *end == ',' ? end + 1 : end;
	}
}

/*
 * Each CPU's column of proc/interrupts summed over the numbered rows
 * (TOTAL), and how many IRQs' effective_affinity_list name it (IRQS).
 */
static int
cmd_cpus(void)
{
	static char buf[CHUNK], eff[SMALL];
	static unsigned long long sum[MAXCPUS];
	static int cpu[MAXCPUS], nirqs[MAXCPUS];
	static struct rows r;
	char rel[64];
	ssize_t n;
	size_t i, nirq;
	int fd, k, *irqs;

	if ((fd = open_in("proc/interrupts", O_RDONLY)) == -1)
		die("proc/interrupts");
	r.want = -1;
	r.cpu = cpu;
	r.sum = sum;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		feed(&r, buf, n);
	if (n < 0)
		die("proc/interrupts");
	close(fd);
	irqs = irq_list(&nirq);
	for (i = 0; i < nirq; i++) {
		snprintf(rel, sizeof(rel),
		    "proc/irq/%d/effective_affinity_list", irqs[i]);
		if (slurp(rel, eff, sizeof(eff)) > 0)
			list_count(eff, nirqs);
	}
	for (k = 0; k < r.ncols; k++)
		printf("%d %d %llu\n", cpu[k], cpu[k] < MAXCPUS ?
		    nirqs[cpu[k]] : 0, sum[k]);
	return fflush(stdout) == 0 ? 0 : 1;
}

/*
 * The sum of per_cpu_count over the online CPUs, or -1 when sysfs cut the
 * text at a page (at 4095 bytes, without its newline).
 */
static long long
per_cpu_total(const char *text, const uint32_t *online)
{
	long long total = 0, v;
	const char *p = text;
	char *end;
	int cpu;

	if (strchr(text, '\n') == NULL)
		return -1;
	for (cpu = 0; *p != '\0' && *p != '\n'; cpu++) {
		v = strtoll(p, &end, 10);
		if (cpu < MAXCPUS && online[cpu / 32] & 1U << cpu % 32)
			total += v;
		p = *end == ',' ? end + 1 : end;
		if (end == p && *p != '\0' && *p != '\n')
			break;
	}
	return total;
}

/*
 * A per_cpu_count cut at a page: the total from proc/interrupts, read up
 * to the IRQ's row and no further, as irqaff does.
 */
static long long
matrix_total(int irq)
{
	static char buf[CHUNK];
	static struct rows r;
	ssize_t n;
	int fd;

	if ((fd = open_in("proc/interrupts", O_RDONLY)) == -1)
		die("proc/interrupts");
	r.want = irq;
	r.found = -1;
	while (r.found < 0 && (n = read(fd, buf, sizeof(buf))) > 0)
		feed(&r, buf, n);
	close(fd);
	return r.found;
}

static int
cmd_show1(int irq)
{
	static const char *const proc[] = { "smp_affinity_list",
	    "effective_affinity_list", "node" };
	static const char *const sys[] = { "per_cpu_count", "actions",
	    "chip_name", "hwirq", "type", "name" };
	static char val[9][SMALL];
	char rel[96];
	cpuset online;
	long long total;
	size_t i;

	if (list_parse(need("sys/devices/system/cpu/online", val[0],
	    sizeof(val[0])), online) != 0)
		return 1;
	for (i = 0; i < 9; i++) {
		if (i < 3)
			snprintf(rel, sizeof(rel), "proc/irq/%d/%s", irq,
			    proc[i]);
		else
			snprintf(rel, sizeof(rel), "sys/kernel/irq/%d/%s",
			    irq, sys[i - 3]);
		if (slurp(rel, val[i], sizeof(val[i])) < 0)
			strcpy(val[i], "-");
	}
	if ((total = per_cpu_total(val[3], online)) < 0)
		total = matrix_total(irq);
	printf("%d %lld", irq, total);
	for (i = 0; i < 9; i++)
		if (i != 3)
			printf(" %.*s", (int)strcspn(val[i], "\n"), val[i]);
	printf("\n");
	return 0;
}

/* A CPU's place in spread's order: thread rank, package, number. */
struct slot {
	int	rank, pkg, cpu;
};

static int
cmpslot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->pkg != y->pkg)
		return x->pkg < y->pkg ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

#define HAS(set, c)	((set)[(c) / 32] & 1U << (c) % 32)

/* The online CPUs that are neither isolated nor nohz_full. */
static void
spread_pool(uint32_t *pool)
{
	static char buf[SMALL];
	cpuset iso, nohz;
	size_t w;

	if (list_parse(need("sys/devices/system/cpu/online", buf,
	    sizeof(buf)), pool) != 0)
		die("online");
	if (list_parse(need("sys/devices/system/cpu/isolated", buf,
	    sizeof(buf)), iso) != 0)
		memset(iso, 0, sizeof(iso));
	if (slurp("sys/devices/system/cpu/nohz_full", buf, sizeof(buf)) < 0 ||
	    list_parse(buf, nohz) != 0)
		memset(nohz, 0, sizeof(nohz));
	for (w = 0; w < MAXCPUS / 32; w++)
		pool[w] &= ~(iso[w] | nohz[w]);
}

/*
 * Each pool CPU's rank among its core's threads and its package, each
 * core's and each package's list read once (as irqaff's spread.c).
 */
static void
spread_rank(const uint32_t *pool, struct slot *s)
{
	static char buf[SMALL];
	cpuset core, pkg, ranked = { 0 }, placed = { 0 };
	char rel[96];
	int cpu, c, k, id;

	for (cpu = 0; cpu < nbits; cpu++) {
		if (!HAS(pool, cpu))
			continue;
		if (!HAS(ranked, cpu)) {
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/"
			    "cpu%d/topology/thread_siblings_list", cpu);
			if (list_parse(need(rel, buf, sizeof(buf)), core) != 0)
				die(rel);
			core[cpu / 32] |= 1U << cpu % 32;
			for (c = 0, k = 0; c < nbits; c++)
				if (HAS(core, c) && HAS(pool, c)) {
					if (!HAS(ranked, c))
						s[c].rank = k;
					ranked[c / 32] |= 1U << c % 32;
					k++;
				}
		}
		if (HAS(placed, cpu))
			continue;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/"
		    "topology/physical_package_id", cpu);
		id = atoi(need(rel, buf, sizeof(buf)));
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/"
		    "topology/core_siblings_list", cpu);
		if (list_parse(need(rel, buf, sizeof(buf)), pkg) != 0)
			die(rel);
		pkg[cpu / 32] |= 1U << cpu % 32;
		for (c = 0; c < nbits; c++)
			if (HAS(pkg, c) && HAS(pool, c) && !HAS(placed, c)) {
				s[c].pkg = id;
				placed[c / 32] |= 1U << c % 32;
			}
	}
}

static int
cmd_spread(void)
{
	static struct slot s[MAXCPUS];
	char line[32];
	cpuset pool;
	size_t i, n, nirqs;
	int *irqs, cpu;

	read_possible();
	spread_pool(pool);
	spread_rank(pool, s);
	for (cpu = 0, n = 0; cpu < nbits; cpu++)
		if (HAS(pool, cpu)) {
			s[n] = s[cpu];
			s[n++].cpu = cpu;
		}
	if (n == 0)
		return 1;
	qsort(s, n, sizeof(*s), cmpslot);
	irqs = irq_list(&nirqs);
	for (i = 0; i < nirqs; i++) {
		snprintf(line, sizeof(line), "%d\n", s[i % n].cpu);
		set_irq(irqs[i], line);
	}
	return failed;
}

/* A snapshot's name, quoted: '"' and '\' escaped, the rest as it is. */
static void
print_name(const char *s, size_t n)
{
	putchar(' ');
	putchar('"');
	for (; n > 0; s++, n--) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static int
cmd_save(void)
{
	static char list[SMALL], acts[SMALL];
	char rel[96], *p, *q;
	size_t i, n;
	int *irqs;

	read_possible();
	printf("# floor snapshot, %d CPUs\n", nbits);
	printf("default 0x%s\n", need("proc/irq/default_smp_affinity", list,
	    sizeof(list)));
	irqs = irq_list(&n);
	for (i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "proc/irq/%d/smp_affinity_list",
		    irqs[i]);
		if (slurp(rel, list, sizeof(list)) < 0)
			continue;
		snprintf(rel, sizeof(rel), "sys/kernel/irq/%d/actions", irqs[i]);
		if (slurp(rel, acts, sizeof(acts)) < 0)
			acts[0] = '\0';
		printf("%d %.*s", irqs[i], (int)strcspn(list, "\n"), list);
		acts[strcspn(acts, "\n")] = '\0';
		for (p = acts; *p != '\0'; p = *q ? q + 1 : q) {
			q = p + strcspn(p, ",");
			print_name(p, q - p);
		}
		putchar('\n');
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

/* A snapshot's word or quoted name at *pp into out (decoded); its length. */
static size_t
token(char **pp, char *out, size_t size)
{
	char *p = *pp;
	size_t n = 0;
	int k, v;

	if (*p != '"') {
		while (*p != '\0' && strchr(" \t\r#\"", *p) == NULL && n < size)
			out[n++] = *p++;
		*pp = p;
		return n;
	}
	for (p++; *p != '\0' && *p != '"' && n < size; n++) {
		if (*p != '\\') {
			out[n] = *p++;
			continue;
		}
		if (*++p == 'n' || *p == 't')
			out[n] = *p++ == 'n' ? '\n' : '\t';
		else if (*p >= '0' && *p <= '7') {
			for (k = 0, v = 0; k < 3 && *p >= '0' && *p <= '7'; k++)
				v = v * 8 + (*p++ - '0');
			out[n] = v;
		} else if (*p != '\0')
			out[n] = *p++;
	}
	*pp = *p == '"' ? p + 1 : p;
	return n;
}

/* The default line: compare the mask, or write it. */
static void
snap_default(char *cpus, int restore, int *drift)
{
	static char want[SMALL], have[SMALL];
	const char *rel = "proc/irq/default_smp_affinity";
	cpuset set;

	if (list_parse(cpus, set) != 0) {
		fprintf(stderr, "floor: default: bad list %s\n", cpus);
		*drift = 1;
		return;
	}
	mask_format(set, want);
	strcat(want, "\n");
	if (restore ? put(rel, want) != 0 :
	    slurp(rel, have, sizeof(have)) < 0 || strcmp(have, want) != 0)
		*drift = 1;
}

/* "IRQ CPUS NAME...": the names must be the IRQ's actions. */
static void
snap_irq(int irq, char *p, const char *cpus, int restore, int *drift)
{
	static char want[SMALL], have[SMALL];
	char rel[96];
	size_t n = 0;

	for (p += strspn(p, " \t\r"); *p != '\0' && *p != '#' &&
	    n < sizeof(want) - 2; p += strspn(p, " \t\r")) {
		if (n > 0)
			want[n++] = ',';
		n += token(&p, want + n, sizeof(want) - 2 - n);
	}
	want[n] = '\0';
	snprintf(rel, sizeof(rel), "sys/kernel/irq/%d/actions", irq);
	if (slurp(rel, have, sizeof(have)) < 0 ||
	    strncmp(have, want, n) != 0 || have[n] != (n ? '\n' : '\0')) {
		fprintf(stderr, "floor: irq %d is not \"%s\"\n", irq, want);
		*drift = 1;
		return;
	}
	snprintf(want, sizeof(want), "%s\n", cpus);
	if (restore) {
		set_irq(irq, want);
		return;
	}
	snprintf(rel, sizeof(rel), "proc/irq/%d/smp_affinity_list", irq);
	if (slurp(rel, have, sizeof(have)) < 0 || strcmp(have, want) != 0)
		*drift = 1;
}

static void
snap_line(char *p, int restore, int *drift)
{
	char word[32], cpus[SMALL / 2];
	size_t n;
	char *end;
	long irq;

	p += strspn(p, " \t\r");
	if (*p == '\0' || *p == '#')
		return;
	n = token(&p, word, sizeof(word) - 1);
	word[n] = '\0';
	p += strspn(p, " \t\r");
	cpus[token(&p, cpus, sizeof(cpus) - 1)] = '\0';
	if (strcmp(word, "default") == 0) {
		snap_default(cpus, restore, drift);
		return;
	}
	irq = strtol(word, &end, 10);
	if (*end != '\0' || end == word || irq < 0 || irq >= MAXIRQS) {
		fprintf(stderr, "floor: \"%s\": no IRQ number\n", word);
		*drift = 1;
		return;
	}
	snap_irq(irq, p, cpus, restore, drift);
}

/* restore (or check) the snapshot FILE, line by line. */
static int
cmd_snap(const char *file, int restore)
{
	char *buf = NULL, *line, *next;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, drift = 0;

	read_possible();
	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1)
		die(file);
	do {
		if (cap - len < CHUNK + 1 &&
		    (buf = realloc(buf, cap += 4 * CHUNK)) == NULL)
			die("realloc");
		if ((n = read(fd, buf + len, CHUNK)) < 0)
			die(file);
		len += n;
	} while (n > 0);
	close(fd);
	buf[len] = '\0';
	for (line = buf; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		snap_line(line, restore, &drift);
	}
	free(buf);
	return drift || failed;
}

int
main(int argc, char *argv[])
{
	static char obuf[1 << 16];

	if (argc < 3) {
		fprintf(stderr, "usage: floor show|show1|cpus|set|spread|"
		    "save|restore|check TREE [ARG]\n");
		return 2;
	}
	if ((rootfd = open(argv[2], O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		die(argv[2]);
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (strcmp(argv[1], "show") == 0 && argc == 3)
		return cmd_show();
	if (strcmp(argv[1], "cpus") == 0 && argc == 3)
		return cmd_cpus();
	if (strcmp(argv[1], "show1") == 0 && argc == 4)
		return cmd_show1(atoi(argv[3]));
	if (strcmp(argv[1], "set") == 0 && argc == 4)
		return cmd_set(argv[3]);
	if (strcmp(argv[1], "spread") == 0 && argc == 3)
		return cmd_spread();
	if (strcmp(argv[1], "save") == 0 && argc == 3)
		return cmd_save();
	if (strcmp(argv[1], "restore") == 0 && argc == 4)
		return cmd_snap(argv[3], 1);
	if (strcmp(argv[1], "check") == 0 && argc == 4)
		return cmd_snap(argv[3], 0);
	fprintf(stderr, "floor: bad command or arguments\n");
	return 2;
}
