/*
 * A write(2) that fails on purpose, for the tests: preloaded into irqaff,
 * it makes writes to the files named in $IRQAFF_FAULT fail with an errno,
 * or, with "drop", succeed without changing them (ftruncate(2) too). The spec is
 * "PATH:ERRNO[,PATH:ERRNO...]", each PATH the file's full name, ERRNO
 * one of the names below. Nothing else is touched.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char	*name;
	int		 code;
} codes[] = {
	{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EPERM", EPERM },
	{ "EBUSY", EBUSY }, { "EINVAL", EINVAL }, { "EACCES", EACCES },
	{ "ERANGE", ERANGE }, { "drop", 0 },
};

/* The errno for writes to this file: -1 none, 0 drop, else the code. */
static int
fault_for(int fd)
{
	char link[64], path[PATH_MAX], *spec, *item, *p, *colon;
	const char *env = getenv("IRQAFF_FAULT");
	ssize_t n;
	size_t i;
	int code = -1;

	if (env == NULL)
		return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof(path) - 1)) < 0)
		return -1;
	path[n] = '\0';
	if ((spec = strdup(env)) == NULL)
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

ssize_t
write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);
	int code;

	if (real == NULL)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT,
		    "write");
	if (fd > 2 && (code = fault_for(fd)) >= 0) {
		if (code == 0)
			return len;
		errno = code;
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
