/*
 * The only file in irqaff that makes system calls on the file system.
 * Every name is relative to the root opened by procfs_init().
 */
#include <sys/types.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#define LIBBSD_NETBSD_VIS	/* strnvisx() as NetBSD and FreeBSD have it */
#include <vis.h>

#include "procfs.h"

static int	rootfd = -1;
static char	rootname[PATH_MAX];

int
procfs_init(const char *root)
{
	size_t len;

	if (root == NULL || *root == '\0')
		root = "/";
	if (rootfd >= 0)
		close(rootfd);
	if ((rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (strlcpy(rootname, root, sizeof(rootname)) >= sizeof(rootname))
		return -ENAMETOOLONG;
	len = strlen(rootname);
	while (len > 0 && rootname[len - 1] == '/')
		rootname[--len] = '\0';
	return 0;
}

/*
 * Opens a name under the root as if the root were "/": absolute symlinks
 * and ".." stay inside it (openat2(2) RESOLVE_IN_ROOT, Linux 5.6), so
 * nothing outside the tree is read or written through a link. Kernels
 * without openat2 get plain openat(2).
 */
static int
root_open(const char *rel, int flags)
{
	static bool no_openat2;
	struct open_how how = {
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	/* openat2() refuses O_PATH with flags that do not apply to it */
	flags |= O_CLOEXEC | ((flags & O_PATH) ? 0 : O_NOCTTY);
	how.flags = flags;
	if (!no_openat2) {
		fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
		if (fd >= 0 || errno != ENOSYS)
			return fd;
		no_openat2 = true;
	}
	return openat(rootfd, rel, flags);
}

/*
 * The full name for a message, escaped with vis(3) so that no byte of it
 * reaches a terminal raw; the next call overwrites the result.
 */
const char *
procfs_path(const char *rel)
{
	static char path[PATH_MAX + 64], buf[4 * sizeof(path)];
	int len;

	len = snprintf(path, sizeof(path), "%s/%s", rootname, rel);
	if (len < 0 || (size_t)len >= sizeof(path))
		len = strlen(path);
	strnvisx(buf, sizeof(buf), path, len,
	    VIS_CSTYLE | VIS_OCTAL | VIS_NL | VIS_TAB);
	return buf;
}

/*
 * Reads until a short read: procfs, sysfs and regular files return all
 * they have when the buffer is large enough, which saves the read(2) that
 * would only return 0. A NUL ends text, so /dev/full reads as empty;
 * binary keeps NULs (proc/PID/environ) and *lenp counts them.
 */
static int
read_all(int fd, char **bufp, size_t *lenp, bool positional, bool binary)
{
	size_t size = 4096, len = 0;
	char *buf = NULL, *tmp;
	ssize_t n;

	for (;;) {
		if ((tmp = realloc(buf, size + 1)) == NULL) {
			free(buf);
			return -ENOMEM;
		}
		buf = tmp;
		if (positional)
			n = pread(fd, buf + len, size - len, len);
		else
			n = read(fd, buf + len, size - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			free(buf);
			return n;
		}
		if (!binary && memchr(buf + len, '\0', n) != NULL) {
			len += strlen(buf + len);
			break;
		}
		len += n;
		if (len < size)
			break;
		if (size >= PROCFS_MAXFILE) {
			free(buf);
			return -EFBIG;
		}
		size *= 2;
	}
	buf[len] = '\0';
	*bufp = buf;
	if (lenp != NULL)
		*lenp = len;
	return 0;
}

/* O_NONBLOCK: a fifo in a tree reads as empty, it does not hang */
static int
read_file(const char *rel, char **bufp, size_t *lenp, bool binary)
{
	int fd, rc;

	if ((fd = root_open(rel, O_RDONLY | O_NONBLOCK)) < 0)
		return -errno;
	rc = read_all(fd, bufp, lenp, false, binary);
	close(fd);
	return rc;
}

int
procfs_read(const char *rel, char **bufp)
{
	return read_file(rel, bufp, NULL, false);
}

/* A file of NUL-separated strings, NULs and all, with one more at the end. */
int
procfs_read_bytes(const char *rel, char **bufp, size_t *lenp)
{
	return read_file(rel, bufp, lenp, true);
}

/*
 * At most size - 1 bytes of a file's start into buf, NUL-terminated, in
 * *lenp: a file of any length costs buf, never more. 0 or -errno.
 */
int
procfs_head(const char *rel, char *buf, size_t size, size_t *lenp)
{
	size_t len = 0;
	ssize_t n;
	int fd, rc = 0;

	if (size == 0)
		return -EINVAL;
	if ((fd = root_open(rel, O_RDONLY | O_NONBLOCK)) < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = -errno;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return rc;
}

/*
 * A decimal number alone on a file's first line, as sysfs writes one
 * (sysfs_emit(buf, "%d\n")), within [min, max]. Reads 63 bytes at most:
 * a longer line is no number. 0, -EINVAL when the file holds none, or
 * the -errno of the read.
 */
int
procfs_int(const char *rel, int min, int max, int *vp)
{
	const char *errstr;
	char buf[64];
	size_t len = 0;
	ssize_t n = 0;
	long long v;
	int fd, rc;

	if ((fd = root_open(rel, O_RDONLY | O_NONBLOCK)) < 0)
		return -errno;
	while (len < sizeof(buf) - 1 && memchr(buf, '\n', len) == NULL) {
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc != 0)
		return rc;
	if (n > 0 && memchr(buf, '\n', len) == NULL)
		return -EINVAL;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	v = strtonum(buf, min, max, &errstr);
	if (errstr != NULL)
		return -EINVAL;
	*vp = v;
	return 0;
}

bool
procfs_exists(const char *rel)
{
	int fd;

	if ((fd = root_open(rel, O_PATH)) < 0)
		return false;
	close(fd);
	return true;
}

void
procfs_dir_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * A directory read with getdents64(2) itself: fdopendir() and readdir()
 * add three system calls to each directory, and an IRQ has one.
 */
struct dirread {
	int	 fd;
	size_t	 pos, len;
	char	 buf[16384];
};

static int
dir_open(struct dirread *d, const char *rel)
{
	if ((d->fd = root_open(rel, O_RDONLY | O_DIRECTORY)) < 0)
		return -errno;
	d->pos = d->len = 0;
	return 0;
}

/* 1 and the next entry but "." and "..", 0 at the end, or -errno. */
static int
dir_next(struct dirread *d, const struct dirent64 **dep)
{
	const struct dirent64 *de;
	ssize_t n;

	for (;;) {
		if (d->pos >= d->len) {
			if ((n = getdents64(d->fd, d->buf, sizeof(d->buf))) < 0)
				return -errno;
			if (n == 0)
				return 0;
			d->pos = 0;
			d->len = n;
		}
		de = (const struct dirent64 *)(d->buf + d->pos);
		d->pos += de->d_reclen;
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			*dep = de;
			return 1;
		}
	}
}

/* A link in directory rel is followed under the root, never the host's. */
static bool
is_dir(const char *rel, const struct dirent64 *de)
{
	char path[PATH_MAX];
	struct stat st;
	bool dir;
	int fd;

	if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return de->d_type == DT_DIR;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", rel, de->d_name) >=
	    sizeof(path) || (fd = root_open(path, O_PATH)) < 0)
		return false;
	dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
	close(fd);
	return dir;
}

/*
 * What a listing of directory rel keeps of an entry: 1 after writing its
 * element, 0 to pass it over, or -errno.
 */
typedef int	keep_fn(const char *, const struct dirent64 *, bool, void *);

struct listing {
	keep_fn	*keep;
	void	(*drop)(void *);	/* an element, on failure */
	size_t	 size;
	int	(*cmp)(const void *, const void *);
};

/* The entries of a directory that l->keep() makes elements of, sorted. */
static int
dir_list(const char *rel, bool dirs_only, const struct listing *l,
    void **vp, size_t *np)
{
	const struct dirent64 *de = NULL;
	struct dirread *d;
	union { char *name; unsigned int num; } e;
	char *v = NULL, *tmp;
	size_t n = 0, i;
	int rc;

	if ((d = malloc(sizeof(*d))) == NULL)
		return -ENOMEM;
	if ((rc = dir_open(d, rel)) != 0) {
		free(d);
		return rc;
	}
	while ((rc = dir_next(d, &de)) == 1) {
		if ((rc = l->keep(rel, de, dirs_only, &e)) < 0)
			break;
		if (rc == 0)
			continue;
		if ((tmp = reallocarray(v, n + 1, l->size)) == NULL) {
			l->drop(&e);
			rc = -ENOMEM;
			break;
		}
		v = tmp;
		memcpy(v + n++ * l->size, &e, l->size);
	}
	close(d->fd);
	free(d);
	if (rc != 0) {
		for (i = 0; i < n; i++)
			l->drop(v + i * l->size);
		free(v);
		return rc;
	}
	if (n > 0)
		qsort(v, n, l->size, l->cmp);
	*vp = v;
	*np = n;
	return 0;
}

static int
keep_name(const char *rel, const struct dirent64 *de, bool dirs_only, void *e)
{
	if (dirs_only && !is_dir(rel, de))
		return 0;
	if ((*(char **)e = strdup(de->d_name)) == NULL)
		return -ENOMEM;
	return 1;
}

static void
drop_name(void *e)
{
	free(*(char **)e);
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in a directory; with dirs_only, subdirectories alone. */
int
procfs_dir(const char *rel, bool dirs_only, char ***namesp, size_t *np)
{
	static const struct listing l = {
		keep_name, drop_name, sizeof(char *), cmpstr
	};
	void *v;
	int rc;

	if ((rc = dir_list(rel, dirs_only, &l, &v, np)) == 0)
		*namesp = v;
	return rc;
}

static int
keep_number(const char *rel, const struct dirent64 *de, bool dirs_only,
    void *e)
{
	const char *errstr;
	long long v;

	(void)rel;
	(void)dirs_only;
	if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
	    strspn(de->d_name, "0123456789") != strlen(de->d_name))
		return 0;
	if (de->d_name[0] == '0' && de->d_name[1] != '\0')
		return 0;	/* the kernel writes no leading zero: not 024 */
	v = strtonum(de->d_name, 0, INT_MAX, &errstr);
	if (errstr != NULL)
		return 0;
	*(unsigned int *)e = v;
	return 1;
}

static void
drop_number(void *e)
{
	(void)e;
}

static int
cmpuint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/* The entries of a directory whose names are decimal numbers, sorted. */
int
procfs_numbers(const char *rel, unsigned int **nump, size_t *np)
{
	static const struct listing l = {
		keep_number, drop_number, sizeof(unsigned int), cmpuint
	};
	void *v;
	int rc;

	if ((rc = dir_list(rel, false, &l, &v, np)) == 0)
		*nump = v;
	return rc;
}

/*
 * Lines with a cap, over a file under the root or a descriptor given:
 * memory follows the longest line allowed, never the file, and running
 * out of memory is an error, never the end of the file.
 */
int
procfs_lines_open(struct lines *l, const char *rel, size_t max)
{
	int fd;

	if ((fd = root_open(rel, O_RDONLY | O_NONBLOCK)) < 0)
		return -errno;
	procfs_lines_fd(l, fd, max);
	l->owned = true;
	return 0;
}

void
procfs_lines_fd(struct lines *l, int fd, size_t max)
{
	memset(l, 0, sizeof(*l));
	l->fd = fd;
	l->max = max;
}

static int
lines_fill(struct lines *l)
{
	size_t cap;
	ssize_t n;
	char *tmp;

	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
	}
	if (l->end + 1 >= l->cap) {
		cap = l->cap == 0 ? 65536 : 2 * l->cap;
		if (cap > l->max + 2 && l->max + 2 > l->cap)
			cap = l->max + 2;
		if ((tmp = realloc(l->buf, cap)) == NULL)
			return -ENOMEM;
		l->buf = tmp;
		l->cap = cap;
	}
	do
		n = read(l->fd, l->buf + l->end, l->cap - l->end - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		l->eof = true;
	l->end += n;
	return 0;
}

/*
 * The next line without its newline, NUL-terminated; *lenp counts any NUL
 * bytes inside. Returns 1, 0 at the end, -EFBIG for a line over the cap,
 * or another negative errno.
 */
int
procfs_lines_next(struct lines *l, char **linep, size_t *lenp)
{
	char *nl;
	int rc;

	for (;;) {
		if (l->end > l->start &&
		    (nl = memchr(l->buf + l->start, '\n', l->end - l->start))) {
			*nl = '\0';
			*linep = l->buf + l->start;
			*lenp = nl - *linep;
			l->start = nl + 1 - l->buf;
			return *lenp > l->max ? -EFBIG : 1;
		}
		if (l->end - l->start > l->max)
			return -EFBIG;
		if (l->eof && l->end == l->start)
			return 0;
		if (l->eof) {
			l->buf[l->end] = '\0';
			*linep = l->buf + l->start;
			*lenp = l->end - l->start;
			l->start = l->end;
			return 1;
		}
		if ((rc = lines_fill(l)) != 0)
			return rc;
	}
}

void
procfs_lines_close(struct lines *l)
{
	if (l->owned && l->fd >= 0)
		close(l->fd);
	free(l->buf);
	memset(l, 0, sizeof(*l));
	l->fd = -1;
}

/*
 * Opens for reading and writing when asked; where only reading is
 * allowed (not root, read-only file system) the file is still read, and
 * the reason is kept for a later procfs_pfile_write(). Only a regular file is
 * ever written: procfs and sysfs attributes are regular files, and a
 * device or fifo in their place is not ours (pf->regular says which).
 */
int
procfs_pfile_open(struct pfile *pf, const char *rel, bool writable)
{
	struct stat st;
	int rc;

	memset(pf, 0, sizeof(*pf));
	pf->werr = writable ? 0 : EBADF;
	pf->fd = -1;
	if (writable && (pf->fd = root_open(rel, O_RDWR | O_NONBLOCK)) < 0) {
		if (errno != EACCES && errno != EROFS && errno != EPERM &&
		    errno != ENXIO)
			return -errno;
		pf->werr = errno;
	}
	if (pf->fd < 0 && (pf->fd = root_open(rel, O_RDONLY | O_NONBLOCK)) < 0)
		return -errno;
	if (fstat(pf->fd, &st) != 0) {
		rc = -errno;
		procfs_pfile_close(pf);
		return rc;
	}
	if (!(pf->regular = S_ISREG(st.st_mode)))
		return 0;
	if ((rc = read_all(pf->fd, &pf->buf, &pf->len, true, false)) != 0) {
		procfs_pfile_close(pf);
		return rc;
	}
	return 0;
}

/*
 * One write(2) of the whole value. The contents were read with pread(2),
 * so the offset is still 0; procfs refuses pwrite(2) with ESPIPE. procfs
 * ignores truncation; a regular file in a test tree needs it, so it is cut
 * to the new length when the old contents were longer. Then the file is
 * read back into pf->buf.
 */
int
procfs_pfile_write(struct pfile *pf, const char *value)
{
	size_t len = strlen(value), old = pf->len;
	ssize_t n;

	if (!pf->regular)
		return -EBADF;
	if (pf->werr != 0)
		return -pf->werr;
	do
		n = write(pf->fd, value, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	if (old > len && ftruncate(pf->fd, len) != 0 && errno != EINVAL)
		return -errno;
	free(pf->buf);
	pf->buf = NULL;
	pf->len = 0;
	return read_all(pf->fd, &pf->buf, &pf->len, true, false);
}

/*
 * One write(2) of a value the kernel must refuse, to learn how it
 * refuses: 0 when it was taken, else -errno. Only an empty-looking
 * regular file on procfs is written: any other (a copy of /proc, a test
 * tree, a file emptied by mistake) would keep the value, and -ENOTSUP
 * says so.
 */
int
procfs_probe(const char *rel, const char *value)
{
	struct statfs sf;
	struct stat st;
	ssize_t n;
	int fd, rc;

	if ((fd = root_open(rel, O_WRONLY | O_NONBLOCK)) < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || fstatfs(fd, &sf) != 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_size != 0 ||
	    sf.f_type != PROC_SUPER_MAGIC)
		rc = -ENOTSUP;
	else {
		do
			n = write(fd, value, strlen(value));
		while (n < 0 && errno == EINTR);
		rc = n < 0 ? -errno : 0;
	}
	close(fd);
	return rc;
}

void
procfs_pfile_close(struct pfile *pf)
{
	if (pf->fd >= 0)
		close(pf->fd);
	pf->fd = -1;
	free(pf->buf);
	pf->buf = NULL;
}

/* A file named on the command line, as given: not under the root. */
FILE *
procfs_file_open(const char *path)
{
	if (strcmp(path, "-") == 0)
		return stdin;
	return fopen(path, "re");
}

/* Lines of a file named on the command line, with a cap, as given. */
int
procfs_file_lines(struct lines *l, const char *path, size_t max)
{
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return -errno;
	procfs_lines_fd(l, fd, max);
	l->owned = true;
	return 0;
}

bool
procfs_tty(FILE *fp)
{
	return isatty(fileno(fp)) == 1;
}

/* A key from standard input: 1, 0 at its end, or -errno. */
int
procfs_tty_key(char *c)
{
	ssize_t n;

	while ((n = read(STDIN_FILENO, c, 1)) < 0 && errno == EINTR)
		continue;
	return n < 0 ? -errno : (int)n;
}

/* A file's modification time, in nanoseconds since the epoch. */
int
procfs_file_mtime(const char *path, long long *ns)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return -errno;
	*ns = (long long)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	return 0;
}

/* A file's name as given, escaped as procfs_path() escapes. */
const char *
procfs_file_path(const char *path)
{
	static char buf[4 * PATH_MAX + 4];

	strnvisx(buf, sizeof(buf), path, strnlen(path, PATH_MAX),
	    VIS_CSTYLE | VIS_OCTAL | VIS_NL | VIS_TAB);
	return buf;
}

static int
write_all(int fd, const char *data, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, data, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		data += n;
		len -= n;
	}
	return 0;
}

/* A device or a FIFO cannot be replaced: it is written in place. */
static int
write_through(const char *path, const char *data, size_t len)
{
	int fd, rc;

	if ((fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0)
		return -errno;
	rc = write_all(fd, data, len);
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/*
 * Where a new file named path goes: at the end of its chain of dangling
 * symbolic links, each relative to its own directory; path if no link.
 */
static int
link_dest(const char *path, char *buf, size_t size)
{
	char link[PATH_MAX];
	struct stat st;
	const char *slash;
	size_t dir;
	ssize_t n;
	int hops;

	if (strlcpy(buf, path, size) >= size)
		return -ENAMETOOLONG;
	for (hops = 0; lstat(buf, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		if (hops == 40)		/* Linux's limit */
			return -ELOOP;
		if ((n = readlink(buf, link, sizeof(link) - 1)) < 0)
			return -errno;
		link[n] = '\0';
		slash = strrchr(buf, '/');
		dir = link[0] != '/' && slash != NULL ? slash - buf + 1 : 0;
		if (dir + n >= size)
			return -ENAMETOOLONG;
		memcpy(buf + dir, link, n + 1);
	}
	return 0;
}

/*
 * A save killed by SIGKILL leaves its path.tmp-XXXXXX behind. Such files
 * beside path are removed: regular files whose names end in exactly six
 * of mkstemp(3)'s letters and digits, untouched for ten minutes, so that
 * a save running now keeps its own. Errors are ignored.
 */
static void
remove_stale(const char *path)
{
	const char *slash = strrchr(path, '/'), *base, *x;
	char dir[PATH_MAX];
	struct dirent *de;
	struct stat st;
	time_t old = time(NULL) - 10 * 60;
	size_t len;
	DIR *d;

	base = slash == NULL ? path : slash + 1;
	len = slash == NULL ? 0 : (size_t)(base - path);
	if (len >= sizeof(dir))
		return;
	memcpy(dir, path, len);
	dir[len] = '\0';
	if ((d = opendir(len == 0 ? "." : dir)) == NULL)
		return;
	len = strlen(base);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, base, len) != 0)
			continue;
		x = de->d_name + len;
		if (strncmp(x, ".tmp-", 5) != 0 || strlen(x + 5) != 6 ||
		    strspn(x + 5, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != 6)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    st.st_mtime < old)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

/* Writes tmp (a mkostemp(3) template), syncs it, renames it to dest. */
static int
replace_with(char *tmp, const char *dest, mode_t mode, const char *data,
    size_t len)
{
	int fd, rc;

	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		return -errno;
	if ((rc = write_all(fd, data, len)) == 0 &&
	    (fchmod(fd, mode) != 0 || fsync(fd) != 0))
		rc = -errno;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, dest) != 0)
		rc = -errno;
	if (rc != 0)
		unlink(tmp);
	return rc;
}

/*
 * Replaces path with data: written to path.tmp-XXXXXX in the same
 * directory, synced, then renamed over it, so a failed write leaves any
 * old file whole. The new file keeps the old one's mode. A symbolic link
 * stays one: its target is replaced. A device or FIFO is written through.
 * INT, TERM, HUP and QUIT wait until the temporary file is gone; SIGXFSZ
 * is ignored then, so that a write past the size limit fails with EFBIG.
 */
static int	replace_guarded(const char *, mode_t, const char *, size_t);

/* The mode open(2) gives a new file under the process's umask. */
static mode_t
new_file_mode(void)
{
	mode_t mask;

	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

int
procfs_file_replace(const char *path, const char *data, size_t len)
{
	struct stat st;
	char dest[PATH_MAX];
	mode_t mode;
	int rc;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (!S_ISREG(st.st_mode))
			return write_through(path, data, len);
		if (realpath(path, dest) == NULL)
			return -errno;
		mode = st.st_mode & 07777;
	} else if (errno != ENOENT)
		return -errno;
	else {
		if ((rc = link_dest(path, dest, sizeof(dest))) != 0)
			return rc;
		mode = new_file_mode();
	}
	return replace_guarded(dest, mode, data, len);
}

/*
 * dest replaced with data through dest.tmp-XXXXXX, with INT, TERM, HUP
 * and QUIT held and SIGXFSZ ignored meanwhile (procfs_file_replace()).
 */
static int
replace_guarded(const char *dest, mode_t mode, const char *data, size_t len)
{
	struct sigaction ign, oxfsz;
	sigset_t block, omask;
	char tmp[PATH_MAX + 16];
	int rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", dest) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	remove_stale(dest);

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigprocmask(SIG_BLOCK, &block, &omask);
	sigaction(SIGXFSZ, &ign, &oxfsz);
	rc = replace_with(tmp, dest, mode, data, len);
	sigaction(SIGXFSZ, &oxfsz, NULL);
	sigprocmask(SIG_SETMASK, &omask, NULL);
	return rc;
}

/*
 * What a name under the root resolves to, as root_open() resolves it,
 * written to buf relative to the root with no link, "." or "..": the
 * kernel's name for the file opened (proc(5), /proc/self/fd) less the
 * root's. "." is the root itself; -EXDEV a file outside it.
 */
int
procfs_realpath(const char *rel, char *buf, size_t size)
{
	char link[32], root[PATH_MAX], path[PATH_MAX];
	const char *tail;
	size_t len;
	ssize_t n;
	int fd, rc;

	if ((fd = root_open(rel, O_PATH)) < 0)
		return -errno;
	snprintf(link, sizeof(link), PATH_SELF_FD, fd);
	n = readlink(link, path, sizeof(path));
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc != 0)
		return rc;
	if ((size_t)n == sizeof(path))
		return -ENAMETOOLONG;
	path[n] = '\0';
	snprintf(link, sizeof(link), PATH_SELF_FD, rootfd);
	if ((n = readlink(link, root, sizeof(root))) < 0)
		return -errno;
	if ((size_t)n == sizeof(root))
		return -ENAMETOOLONG;
	root[n] = '\0';
	len = n == 1 ? 0 : (size_t)n;	/* "/" */
	if (strncmp(path, root, len) != 0 ||
	    (path[len] != '/' && path[len] != '\0'))
		return -EXDEV;
	tail = path[len] == '\0' || path[len + 1] == '\0' ? "." :
	    path + len + 1;
	if (strlcpy(buf, tail, size) >= size)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The directory of irqaff's state under the root, made when make is set,
 * as an O_PATH descriptor: each level is resolved as root_open() resolves
 * it, so a link in var or var/lib stays in the tree. -errno on failure.
 */
static int
state_dir(bool make)
{
	static const char *const dirs[] = { "var", "var/lib", PATH_STATE_DIR };
	const char *base;
	size_t i;
	int fd, pfd;

	for (i = 0; make && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		pfd = i == 0 ? dup(rootfd) :
		    root_open(dirs[i - 1], O_PATH | O_DIRECTORY);
		if (pfd < 0)
			return -errno;
		base = i == 0 ? dirs[i] : strrchr(dirs[i], '/') + 1;
		if (mkdirat(pfd, base, 0755) != 0 && errno != EEXIST) {
			fd = -errno;
			close(pfd);
			return fd;
		}
		close(pfd);
	}
	if ((fd = root_open(PATH_STATE_DIR, O_PATH | O_DIRECTORY)) < 0)
		return -errno;
	return fd;
}

/*
 * Replaces irqaff's own state file rel (in PATH_STATE_DIR) under the root
 * with text, as procfs_file_replace() does, making its directories first;
 * a link in its place is replaced, not followed. 0 or -errno.
 */
int
procfs_state_write(const char *rel, const char *text)
{
	char dest[64];
	struct stat st;
	mode_t mode;
	int dfd, rc;

	if ((dfd = state_dir(true)) < 0)
		return dfd;
	snprintf(dest, sizeof(dest), PATH_SELF_FD "/%s", dfd,
	    strrchr(rel, '/') + 1);
	if (lstat(dest, &st) == 0 && S_ISREG(st.st_mode))
		mode = st.st_mode & 07777;
	else {
		mode = new_file_mode();
	}
	rc = replace_guarded(dest, mode, text, strlen(text));
	close(dfd);
	return rc;
}

/* Removes a state file under the root; one already gone is fine. */
int
procfs_state_remove(const char *rel)
{
	int dfd, rc = 0;

	if ((dfd = state_dir(false)) < 0)
		return dfd == -ENOENT ? 0 : dfd;
	if (unlinkat(dfd, strrchr(rel, '/') + 1, 0) != 0 && errno != ENOENT)
		rc = -errno;
	close(dfd);
	return rc;
}
