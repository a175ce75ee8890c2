/*
 * A write(2) that fails on purpose, for the tests: preloaded into irqaff,
 * it makes writes to the files named in $IRQAFF_FAULT fail with an errno,
 * or, with "drop", succeed without changing them (ftruncate(2) too). The spec is
 * "PATH:ERRNO[,PATH:ERRNO...]", each PATH the file's full name, ERRNO
 * one of the names below; $IRQAFF_TREE_FAULT, the same, is the tree's
 * own (make_root), after the test's. With $IRQAFF_KERNEL set, an IRQ's
 * smp_affinity and smp_affinity_list act as the kernel's
 * (kernel/irq/proc.c write_irq_affinity()): fstat(2) gives no size,
 * fstatfs(2) says procfs, and
 * a value that does not parse fails with EINVAL and changes nothing;
 * proc/interrupts and irq debugfs's VECTOR domain read as seq_files do.
 * Nothing else is touched.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/types.h>
#include <unistd.h>

static const struct {
	const char	*name;
	int		 code;
} codes[] = {
	{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EPERM", EPERM },
	{ "EBUSY", EBUSY }, { "EINVAL", EINVAL }, { "EACCES", EACCES },
	{ "ERANGE", ERANGE }, { "drop", 0 },
};

/* The file behind fd, into path; false when it cannot be known. */
static bool
path_of(int fd, char *path, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, size - 1)) < 0)
		return false;
	path[n] = '\0';
	return true;
}

/* The errno a spec gives writes to path: -1 none, 0 drop, else it. */
static int
spec_for(const char *env, const char *path)
{
	char *spec, *item, *p, *colon;
	size_t i;
	int code = -1;

	if (env == NULL || (spec = strdup(env)) == NULL)
		return -1;
	for (p = spec; code < 0 && (item = strsep(&p, ",")) != NULL;) {
		if ((colon = strrchr(item, ':')) == NULL)
			continue;
		*colon++ = '\0';
		if (strcmp(item, path) != 0)
			continue;
		for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
			if (strcmp(colon, codes[i].name) == 0)
				code = codes[i].code;
	}
	free(spec);
	return code;
}

/* The errno for writes to this file: -1 none, 0 drop, else the code. */
static int
fault_for(int fd)
{
	char path[PATH_MAX];
	int code;

	if (getenv("IRQAFF_FAULT") == NULL &&
	    getenv("IRQAFF_TREE_FAULT") == NULL)
		return -1;
	if (!path_of(fd, path, sizeof(path)))
		return -1;
	if ((code = spec_for(getenv("IRQAFF_FAULT"), path)) < 0)
		code = spec_for(getenv("IRQAFF_TREE_FAULT"), path);
	return code;
}

/*
 * With $IRQAFF_KERNEL: 1 for an IRQ's smp_affinity, 2 for its
 * smp_affinity_list, else 0.
 */
static int
kernel_file(int fd)
{
	char path[PATH_MAX], *p, *q;

	if (getenv("IRQAFF_KERNEL") == NULL || !path_of(fd, path, sizeof(path)))
		return 0;
	if ((p = strstr(path, "/proc/irq/")) == NULL)
		return 0;
	p += strlen("/proc/irq/");
	for (q = p; *q >= '0' && *q <= '9'; q++)
		continue;
	if (q == p || *q != '/')
		return 0;
	if (strcmp(q, "/smp_affinity") == 0)
		return 1;
	return strcmp(q, "/smp_affinity_list") == 0 ? 2 : 0;
}

/* Whether the kernel's parser would take the value at all. */
static bool
parses(const char *buf, size_t len, bool list)
{
	const char *ok = list ? "0123456789,-:/N\n" :
	    "0123456789abcdefABCDEF,\n";
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] == '\0' || strchr(ok, buf[i]) == NULL)
			return false;
	return true;
}

ssize_t
write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);
	int code, kind;

	if (real == NULL)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT,
		    "write");
	if ((code = fault_for(fd)) >= 0) {
		if (code == 0)
			return len;
		errno = code;
		return -1;
	}
	if ((kind = kernel_file(fd)) != 0 && !parses(buf, len, kind == 2)) {
		errno = EINVAL;
		return -1;
	}
	return real(fd, buf, len);
}

int
ftruncate(int fd, off_t len)
{
	static int (*real)(int, off_t);

	if (real == NULL)
		real = (int (*)(int, off_t))dlsym(RTLD_NEXT, "ftruncate");
	if (fault_for(fd) == 0)
		return 0;
	return real(fd, len);
}

int
fstat(int fd, struct stat *st)
{
	static int (*real)(int, struct stat *);
	int rc;

	if (real == NULL)
		real = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
	if ((rc = real(fd, st)) == 0 && kernel_file(fd) != 0)
		st->st_size = 0;
	return rc;
}

int
fstatfs(int fd, struct statfs *sf)
{
	static int (*real)(int, struct statfs *);
	int rc;

	if (real == NULL)
		real = (int (*)(int, struct statfs *))dlsym(RTLD_NEXT,
		    "fstatfs");
	if ((rc = real(fd, sf)) == 0 && kernel_file(fd) != 0)
		sf->f_type = 0x9fa0;	/* PROC_SUPER_MAGIC */
	return rc;
}

/* With $IRQAFF_KERNEL: a seq_file the kernel prints a record at a time. */
static bool
seq_file(int fd)
{
	static const char *const ends[] = { "/proc/interrupts",
	    "/irq/domains/VECTOR" };
	char path[PATH_MAX];
	size_t i, n, e;

	if (getenv("IRQAFF_KERNEL") == NULL || !path_of(fd, path, sizeof(path)))
		return false;
	n = strlen(path);
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (n >= (e = strlen(ends[i])) &&
		    strcmp(path + n - e, ends[i]) == 0)
			return true;
	return false;
}

/*
 * A seq_file's read(2) into a buffer of a page or more stops at the
 * page's last whole line (fs/seq_file.c seq_read_iter()): a short read
 * that is not the end of the file.
 */
ssize_t
read(int fd, void *buf, size_t len)
{
	static ssize_t (*real)(int, void *, size_t);
	const size_t page = 4096;
	off_t at;
	ssize_t n;
	char *nl;

	if (real == NULL)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT,
		    "read");
	if (len < page || !seq_file(fd) || (at = lseek(fd, 0, SEEK_CUR)) < 0)
		return real(fd, buf, len);
	if ((n = real(fd, buf, page)) < (ssize_t)page ||
	    (nl = memrchr(buf, '\n', n)) == NULL)
		return n;
	n = nl + 1 - (char *)buf;
	if (lseek(fd, at + n, SEEK_SET) < 0)
		return -1;
	return n;
}
