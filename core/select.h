/*
 * Which IRQs: the ones the kernel has, their action names, the IRQs of
 * a device, and what a selector picks among them.
 */
#ifndef IRQAFF_SELECT_H
#define IRQAFF_SELECT_H

#include <stdbool.h>
#include <stddef.h>

/* A set of IRQ numbers, sorted, without repeats; v is owned. */
struct irqs {
	unsigned int	*v;
	size_t		 n;
};

/*
 * The sysfs directories that list devices by name, each entry a link to
 * the device under sys/devices, in the order a name is looked up. A disk
 * (or partition) has its controller's IRQs, which the list has under the
 * controller's own name.
 */
enum devclass_kind { DEVCLASS_NAMED, DEVCLASS_DISK, DEVCLASS_ADDRESS };

struct devclass {
	const char		*dir;
	enum devclass_kind	 kind;
};

extern const struct devclass	device_classes[];
extern const size_t		ndevice_classes;

void	 irqs_free(struct irqs *);
bool	 irqs_find(const struct irqs *, unsigned int, size_t *);
int	 irqs_all(struct irqs *);
int	 irqs_select(const char *, struct irqs *);
int	 irqs_select_many(int, char *[], struct irqs *);
int	 irqs_select_queues(const char *, struct irqs *);
int	 irq_actions(unsigned int, char ***, size_t *);
void	 irq_actions_free(char **, size_t);
char	*irq_names(unsigned int);
int	 device_irqs(const char *, struct irqs *, char **);

#endif
