/*
 * Each x86 CPU's interrupt vectors: how many are free, exact from irq
 * debugfs or estimated, and whether a layout fits in them.
 */
#ifndef IRQAFF_VECTORS_H
#define IRQAFF_VECTORS_H

#include <stdbool.h>
#include <stddef.h>

struct change;
struct cpuset;
struct machine;
struct tally;

/*
 * Vectors an x86 CPU has for devices, FIRST_EXTERNAL_VECTOR (0x20) up to
 * FIRST_SYSTEM_VECTOR (LOCAL_TIMER_VECTOR, 0xec) less the system vectors
 * below it: IRQ_MOVE_CLEANUP_VECTOR (0x20, until 6.6), the PIC cascade
 * (0x32) and IA32_SYSCALL_VECTOR (0x80) (arch/x86/include/asm/
 * irq_vectors.h, arch/x86/kernel/apic/vector.c
 * lapic_assign_system_vectors(), 5.10 and 6.1; the cleanup vector
 * went in 6.6, so later ones may have one more).
 */
#define VECTORS_DEVICE	201
/* What an estimate leaves aside, for vectors /proc does not show. */
#define VECTORS_MARGIN	2

/* free: per possible CPU, its free vectors; < 0 for an offline one. */
struct vectors {
	bool		 limited;	/* x86: a fixed number a CPU */
	bool		 exact;		/* from irq debugfs */
	bool		 roomy;		/* estimated: fewer IRQs than vectors */
	unsigned int	 nbits;
	long		*free;
};

bool	 vectors_x86(void);
int	 vectors_load(struct vectors *, const struct machine *);
void	 vectors_free(struct vectors *);
size_t	 vectors_fit(const struct vectors *, struct machine *,
	    const struct change *, size_t, bool *, struct tally *);
long	*vectors_room(const struct machine *);
int	 vectors_held(const struct machine *, unsigned int);
size_t	 vectors_place(struct machine *, struct change *, size_t,
	    const struct cpuset *, struct cpuset **);
size_t	 vectors_place_near(struct machine *, struct change *, size_t,
	    const struct cpuset *const *, const struct cpuset *,
	    struct cpuset **);
bool	 vectors_stuck_in(struct vectors *, const struct machine *,
	    const struct cpuset *);

#endif
