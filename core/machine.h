/*
 * The machine as the kernel describes it: its CPUs and NUMA nodes, the
 * CPU sets users name, and the affinity an IRQ has.
 */
#ifndef IRQAFF_MACHINE_H
#define IRQAFF_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

struct cpuset;
struct perr;


/* A NUMA node and its CPUs. */
struct node {
	int		 id;
	struct cpuset	*cpus;
};

/*
 * The CPUs, read once per run, and the nodes, read when first asked for;
 * the sets are owned by the struct.
 */
struct machine {
	unsigned int	 nbits;		/* nr_cpu_ids: last possible CPU + 1 */
	struct cpuset	*possible;
	struct cpuset	*online;
	struct cpuset	*isolated;	/* isolated plus nohz_full */
	struct cpuset	*sys_isolated;	/* the isolated file alone */
	struct cpuset	*sys_nohz;	/* the nohz_full file alone */
	struct node	*nodes;
	size_t		 nnodes;
	bool		 nodes_read;
};

/* machine_cpus() flags */
enum {
	CPUS_MASK = 1,		/* a kernel mask even without 0x */
	CPUS_NONEMPTY = 2,	/* at least one CPU */
	CPUS_ONLINE = 4,	/* at least one online CPU */
	CPUS_MOPT = 8,		/* the command reads masks with -m */
};

enum affinity { AFF_REQUESTED, AFF_EFFECTIVE, AFF_HINT };

int		 machine_width(unsigned int *);
int		 machine_load(struct machine *);
void		 machine_free(struct machine *);
struct cpuset	*machine_file(struct machine *, const char *);
const char	*machine_cpus_kind(const char *, int);
int		 machine_cpus(struct machine *, const char *, int,
		    struct cpuset *, struct perr *);
int		 machine_cpus_numbered(struct machine *, const char *, int,
		    struct cpuset *, struct cpuset *, struct perr *);
void		 machine_note_offline(const struct machine *,
		    const struct cpuset *);
const struct cpuset *machine_node(struct machine *, int);
int		 machine_cpu_node(struct machine *, int);
size_t		 machine_nnodes(struct machine *);

int		 machine_affinity_read(unsigned int, enum affinity,
    struct cpuset *,
		    struct perr *);
int		 machine_effective_read(const struct cpuset *, unsigned int,
		    struct cpuset *, struct perr *);
int		 machine_runs_on_read(const struct machine *, unsigned int,
		    struct cpuset *, bool *, struct perr *);
int		 machine_default_read(struct cpuset *, struct perr *);
int		 machine_irq_node(unsigned int);
char		*machine_irq_word(unsigned int, const char *);

/* machine_irq_state() bits, from debugfs; none when it is not mounted */
enum {
	IRQ_KNOWN = 1,		/* debugfs describes the IRQ */
	IRQ_MANAGED = 2,	/* IRQD_AFFINITY_MANAGED: the kernel owns it */
	IRQ_PENDING = 4,	/* IRQD_SETAFFINITY_PENDING: a move waits */
	IRQ_NOMOVE = 8,		/* IRQD_PER_CPU or IRQD_NO_BALANCING */
};

int		 machine_irq_state(unsigned int);

/* Whether user space may move an IRQ (machine_irq_movable()). */
enum movable {
	MOVABLE_UNKNOWN,	/* no debugfs, and the kernel cannot be asked */
	MOVABLE_YES,
	MOVABLE_MANAGED,	/* IRQD_AFFINITY_MANAGED, or a refused PCI MSI */
	MOVABLE_NO,		/* refused: managed, per-CPU or no-balancing */
};

enum movable	 machine_irq_movable(unsigned int);

/* How much machine_movable_words() says. */
enum mvwords {
	MV_BRIEF,	/* "managed" */
	MV_PLAIN,	/* "managed by the kernel" */
	MV_WHY,		/* and why a write failed */
};

const char	*machine_movable_words(enum movable, enum mvwords);

/* When an interrupt controller applies a move (machine_chip_family()). */
enum chip_move { CHIP_AT_ONCE, CHIP_NEXT_IRQ };

struct chip_family {
	const char	*prefix;	/* "PCI-MSIX": PCI-MSIX, PCI-MSIX-DEV */
	enum chip_move	 move;
	bool		 msi;		/* PCI MSI or MSI-X vectors */
};

const struct chip_family *machine_chip_family(const char *);

#endif
