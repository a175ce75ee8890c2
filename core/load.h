/*
 * Interrupt counts per IRQ and CPU followed between reads of
 * /proc/interrupts: one cell for each CPU an IRQ runs on, so memory grows
 * with IRQs times the CPUs they run on, never with CPUs squared.
 */
#ifndef IRQAFF_LOAD_H
#define IRQAFF_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct irqrow;
struct irqs;
struct machine;

struct counts;

/*
 * One IRQ on one CPU: its count at each of two reads, as the kernel keeps
 * it (an unsigned int per CPU, kstat_irqs), and whether each read had it.
 */
struct cell {
	unsigned int	 irq;
	unsigned int	 cpu;
	uint32_t	 count[2];
	uint8_t		 seen;		/* bit r: read r had this cell */
};

/* An IRQ followed, and which reads had its row (bit r: read r). */
struct rowmark {
	unsigned int	 irq;
	uint8_t		 seen;
};

/* The cells followed, by IRQ then CPU, and the IRQs; v, rows owned. */
struct cells {
	struct cell	*v;
	size_t		 n;
	struct rowmark	*rows;
	size_t		 nrows;
	unsigned int	 nbits;
};

int		 load_cells_follow(struct cells *, const struct machine *,
		    const struct irqs *);
int		 load_cells_read(struct cells *, int, const char *);
uint8_t		 load_rows_seen(const struct cells *, unsigned int);
void		 load_cells_take(struct cells *, int, const struct counts *,
		    const struct irqrow *, size_t *);
void		 load_cells_shift(struct cells *);
bool		 load_cell_delta(const struct cell *, uint32_t *);
size_t		 load_cells_of(const struct cells *, unsigned int,
		    size_t *);
void		 load_cells_free(struct cells *);

#endif
