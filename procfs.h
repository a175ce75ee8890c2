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

/*
 * Every kernel path name irqaff reads or writes, relative to the root (as
 * util-linux keeps pathnames.h). A name with a % is a format for
 * snprintf(); a caller adds at most a file's own name (node, hwirq).
 */
#define PATH_PROC_INTERRUPTS	"proc/interrupts"
#define PATH_PROC_CMDLINE	"proc/cmdline"
#define PATH_PROC		"proc"			/* its PIDs */
#define PATH_PROC_PID_FILE	"proc/%d/%s"		/* comm, environ */
#define PATH_PID_COMM		"proc/%d/comm"
#define PATH_PID_STAT		"proc/%d/stat"
#define PATH_PID_STATUS		"proc/%d/status"
#define PATH_PROC_IRQ		"proc/irq"
#define PATH_PROC_IRQ_N		PATH_PROC_IRQ "/%u"	/* action names */
#define PATH_PROC_IRQ_FILE	PATH_PROC_IRQ "/%u/%s"	/* smp_affinity */
#define PATH_DEFAULT_AFFINITY	PATH_PROC_IRQ "/default_smp_affinity"
#define PATH_SELF_FD		"/proc/self/fd/%d"	/* the host's own */

#define PATH_SYS_IRQ		"sys/kernel/irq"	/* CONFIG_SPARSE_IRQ */
#define PATH_SYS_IRQ_N		PATH_SYS_IRQ "/%u"
#define PATH_SYS_IRQ_FILE	PATH_SYS_IRQ "/%u/%s"	/* chip_name */
#define PATH_DEBUG_IRQS		"sys/kernel/debug/irq/irqs"
#define PATH_DEBUG_IRQ		PATH_DEBUG_IRQS "/%u"
#define PATH_DEBUG_VECTOR	"sys/kernel/debug/irq/domains/VECTOR"

#define PATH_SYS_CPU		"sys/devices/system/cpu"
#define PATH_CPU_POSSIBLE	PATH_SYS_CPU "/possible"
#define PATH_CPU_ONLINE		PATH_SYS_CPU "/online"
#define PATH_CPU_ISOLATED	PATH_SYS_CPU "/isolated"
#define PATH_CPU_NOHZ_FULL	PATH_SYS_CPU "/nohz_full"
#define PATH_STATE_DIR		"var/lib/irqaff"
#define PATH_STATE_ISOLATED	PATH_STATE_DIR "/isolated"	/* isolate */
#define PATH_CPU_TOPOLOGY	PATH_SYS_CPU "/cpu%d/topology/%s"
#define PATH_SYS_NODE		"sys/devices/system/node"
#define PATH_NODE_CPULIST	PATH_SYS_NODE "/node%d/cpulist"

#define PATH_SYS_DEVICES	"sys/devices"
#define PATH_SYS_PCI		"sys/bus/pci/devices"
#define PATH_SYS_NET		"sys/class/net"
#define PATH_SYS_NVME		"sys/class/nvme"
#define PATH_SYS_BLOCK		"sys/class/block"
#define PATH_NET_IF		PATH_SYS_NET "/%s"
#define PATH_NET_DEVICE		PATH_SYS_NET "/%s/device"
#define PATH_NET_QUEUES		PATH_SYS_NET "/%s/queues"
#define PATH_NET_QUEUE_FILE	PATH_SYS_NET "/%s/queues/%s/%s" /* rx-0 */
/* in a device's directory, given as %s */
#define PATH_DEV_IRQ		"%s/irq"
#define PATH_DEV_MSI_IRQS	"%s/msi_irqs"
#define PATH_DEV_NUMA_NODE	"%s/numa_node"
#define PATH_DEV_LOCAL_CPULIST	"%s/local_cpulist"

int		 procfs_init(const char *);
const char	*procfs_path(const char *);
int		 procfs_read(const char *, char **);
int		 procfs_read_bytes(const char *, char **, size_t *);
int		 procfs_int(const char *, int, int, int *);
int		 procfs_head(const char *, char *, size_t, size_t *);
bool		 procfs_exists(const char *);
int		 procfs_dir(const char *, bool, char ***, size_t *);
void		 procfs_dir_free(char **, size_t);
int		 procfs_numbers(const char *, unsigned int **, size_t *);
int		 procfs_realpath(const char *, char *, size_t);
/* Lines read with a cap (see procfs_lines_next()); buf is owned. */
struct lines {
	int	 fd;
	bool	 owned;		/* opened by procfs_lines_open(),
	    closed by us */
	bool	 eof;
	char	*buf;
	size_t	 cap, start, end, max;
};

int		 procfs_lines_open(struct lines *, const char *, size_t);
void		 procfs_lines_fd(struct lines *, int, size_t);
int		 procfs_lines_next(struct lines *, char **, size_t *);
void		 procfs_lines_close(struct lines *);

/* Ordinary files named by the user, not under the root; "-" is stdio. */
FILE		*procfs_file_open(const char *);
int		 procfs_file_lines(struct lines *, const char *, size_t);
int		 procfs_file_mtime(const char *, long long *);
const char	*procfs_file_path(const char *);
int		 procfs_file_replace(const char *, const char *, size_t);
int		 procfs_state_write(const char *, const char *);
int		 procfs_state_remove(const char *);

/* The terminal of the live view: standard input and output. */
bool		 procfs_tty(FILE *);
int		 procfs_tty_key(char *);

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

int		 procfs_pfile_open(struct pfile *, const char *, bool);
int		 procfs_probe(const char *, const char *);
int		 procfs_pfile_write(struct pfile *, const char *);
void		 procfs_pfile_close(struct pfile *);

#endif
