/*
 * Which IRQs: the ones the kernel has, their action names, the IRQs of
 * a device, and what a selector picks among them.
 */
#ifndef IRQAFF_SELECT_H
#define IRQAFF_SELECT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A set of IRQ numbers, sorted, without repeats; all owned. A selection
 * (select_irqs()) also keeps what its items named: alone[i] when an item
 * was v[i]'s number and nothing else ("24", not "24-31" or a name), and
 * the device of each dev: item, in the order given.
 */
struct irqs {
	unsigned int	*v;
	size_t		 n;
	bool		*alone;		/* NULL: no item was a number */
	char		**devs;
	size_t		 ndevs;
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

extern const struct devclass	select_classes[];
extern const size_t		select_nclasses;

void	 select_free(struct irqs *);
bool	 select_find(const struct irqs *, unsigned int, size_t *);
bool	 select_alone(const struct irqs *, size_t);
bool	 select_dev_named(const struct irqs *, const char *);
int	 select_all(struct irqs *);
int	 select_irqs(const char *, struct irqs *);
int	 select_many(int, char *[], struct irqs *);
int	 select_query_many(int, char *[], struct irqs *, bool);
int	 select_queues(const char *, struct irqs *);
int	 select_actions(unsigned int, char ***, size_t *);
void	 select_actions_free(char **, size_t);
char	*select_names(unsigned int);
int	 select_device_irqs(const char *, struct irqs *, char **);

#endif
