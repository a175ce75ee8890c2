/*
 * All file-system access, relative to one root directory opened at start
 * (as lscpu --sysroot does). Functions return 0 or a negative errno and
 * never print; procfs_path() gives the full name for messages.
 */
#ifndef IRQAFF_PROCFS_H
#define IRQAFF_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PROCFS_MAXFILE	(1U << 20)

int		 procfs_init(const char *);
const char	*procfs_path(const char *);
int		 procfs_read(const char *, char **);
int		 procfs_read_bytes(const char *, char **, size_t *);
bool		 procfs_exists(const char *);
int		 procfs_dir(const char *, bool, char ***, size_t *);
void		 procfs_dir_free(char **, size_t);
int		 procfs_numbers(const char *, unsigned int **, size_t *);
int		 procfs_realpath(const char *, char *, size_t);
/* Lines read with a cap (see lines_next()); buf is owned. */
struct lines {
	int	 fd;
	bool	 owned;		/* opened by lines_open(), closed by us */
	bool	 eof;
	char	*buf;
	size_t	 cap, start, end, max;
};

int		 lines_open(struct lines *, const char *, size_t);
void		 lines_fd(struct lines *, int, size_t);
int		 lines_next(struct lines *, char **, size_t *);
void		 lines_close(struct lines *);

/* Ordinary files named by the user, not under the root; "-" is stdio. */
FILE		*file_open(const char *);
int		 file_replace(const char *, const char *, size_t);

/*
 * An open affinity file: its contents as read at open, and after a write
 * what reads back. Each write is one write(2) of the whole value.
 */
struct pfile {
	int	 fd;
	int	 werr;		/* why it could only be opened read-only */
	bool	 regular;	/* a regular file: read, and writable */
	char	*buf;
	size_t	 len;
};

int		 pfile_open(struct pfile *, const char *, bool);
int		 procfs_probe(const char *, const char *);
int		 pfile_write(struct pfile *, const char *);
void		 pfile_close(struct pfile *);

#endif
