/*
 * The only file in irqaff that makes system calls on the file system.
 * Every name is relative to the root opened by procfs_init().
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* For messages only; the next call overwrites the result. */
const char *
procfs_path(const char *rel)
{
	static char buf[PATH_MAX + 64];

	snprintf(buf, sizeof(buf), "%s/%s", rootname, rel);
	return buf;
}

/*
 * Reads until a short read: procfs, sysfs and regular files return all
 * they have when the buffer is large enough, which saves the read(2) that
 * would only return 0. A NUL ends the text, so /dev/full reads as empty.
 */
static int
read_all(int fd, char **bufp, size_t *lenp, bool positional)
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
		if (memchr(buf + len, '\0', n) != NULL) {
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

int
procfs_read(const char *rel, char **bufp)
{
	int fd, rc;

	if ((fd = openat(rootfd, rel, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	rc = read_all(fd, bufp, NULL, false);
	close(fd);
	return rc;
}

bool
procfs_exists(const char *rel)
{
	return faccessat(rootfd, rel, F_OK, 0) == 0;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
procfs_dir_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool
is_dir(int dfd, const struct dirent *de)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return de->d_type == DT_DIR;
	return fstatat(dfd, de->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

static int
dir_open(const char *rel, DIR **dp)
{
	int fd;

	if ((fd = openat(rootfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if ((*dp = fdopendir(fd)) == NULL) {
		close(fd);
		return -errno;
	}
	return 0;
}

/* Sorted names in a directory; with dirs_only, subdirectories alone. */
int
procfs_dir(const char *rel, bool dirs_only, char ***namesp, size_t *np)
{
	struct dirent *de;
	char **names = NULL, **tmp;
	size_t n = 0;
	DIR *d;
	int rc;

	if ((rc = dir_open(rel, &d)) != 0)
		return rc;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (dirs_only && !is_dir(dirfd(d), de))
			continue;
		if ((tmp = reallocarray(names, n + 1, sizeof(*names))) == NULL)
			goto nomem;
		names = tmp;
		if ((names[n] = strdup(de->d_name)) == NULL)
			goto nomem;
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), cmpstr);
	*namesp = names;
	*np = n;
	return 0;
nomem:
	closedir(d);
	procfs_dir_free(names, n);
	return -ENOMEM;
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
	struct dirent *de;
	unsigned int *num = NULL, *tmp;
	size_t n = 0;
	const char *errstr;
	long long v;
	DIR *d;
	int rc;

	if ((rc = dir_open(rel, &d)) != 0)
		return rc;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (strspn(de->d_name, "0123456789") != strlen(de->d_name))
			continue;
		v = strtonum(de->d_name, 0, INT_MAX, &errstr);
		if (errstr != NULL)
			continue;
		if ((tmp = reallocarray(num, n + 1, sizeof(*num))) == NULL) {
			closedir(d);
			free(num);
			return -ENOMEM;
		}
		num = tmp;
		num[n++] = v;
	}
	closedir(d);
	if (n > 0)
		qsort(num, n, sizeof(*num), cmpuint);
	*nump = num;
	*np = n;
	return 0;
}

/*
 * For streaming large files such as proc/interrupts line by line. glibc
 * ignores setvbuf()'s size without a buffer and reads 4 KB at a time, so
 * the buffer is given; it is static: one stream at a time.
 */
FILE *
procfs_fopen(const char *rel)
{
	static char sbuf[1 << 16];
	FILE *fp;
	int fd;

	if ((fd = openat(rootfd, rel, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if ((fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		return NULL;
	}
	setvbuf(fp, sbuf, _IOFBF, sizeof(sbuf));
	return fp;
}

/*
 * Opens for reading and writing when asked; where only reading is
 * allowed (not root, read-only file system) the file is still read, and
 * the reason is kept for a later pfile_write().
 */
int
pfile_open(struct pfile *pf, const char *rel, bool writable)
{
	int rc;

	pf->buf = NULL;
	pf->len = 0;
	pf->werr = writable ? 0 : EBADF;
	pf->fd = -1;
	if (writable)
		pf->fd = openat(rootfd, rel, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (pf->fd < 0 && writable && (errno == EACCES || errno == EROFS ||
	    errno == EPERM))
		pf->werr = errno;
	else if (pf->fd < 0 && writable)
		return -errno;
	if (pf->fd < 0 &&
	    (pf->fd = openat(rootfd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return -errno;
	if ((rc = read_all(pf->fd, &pf->buf, &pf->len, true)) != 0) {
		pfile_close(pf);
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
pfile_write(struct pfile *pf, const char *value)
{
	size_t len = strlen(value), old = pf->len;
	ssize_t n;

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
	return read_all(pf->fd, &pf->buf, &pf->len, true);
}

void
pfile_close(struct pfile *pf)
{
	if (pf->fd >= 0)
		close(pf->fd);
	pf->fd = -1;
	free(pf->buf);
	pf->buf = NULL;
}

/* A file named on the command line, as given: not under the root. */
FILE *
file_open(const char *path)
{
	if (strcmp(path, "-") == 0)
		return stdin;
	return fopen(path, "re");
}

/*
 * Replaces path with data: written to path.tmp-XXXXXX in the same
 * directory, synced, then renamed over it, so a failed write leaves any
 * old file whole. The new file keeps the old one's mode.
 */
int
file_replace(const char *path, const char *data, size_t len)
{
	struct stat st;
	char tmp[PATH_MAX];
	mode_t mode, mask;
	ssize_t n;
	int fd, e;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		return -errno;
	while (len > 0) {
		if ((n = write(fd, data, len)) < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		data += n;
		len -= n;
	}
	if (fchmod(fd, mode) != 0 || fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	return 0;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -e;
}
