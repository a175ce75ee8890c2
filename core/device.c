/*
 * Which device owns an IRQ, as the sysfs class folders list devices:
 * show's DEVICE column and the one device of spread's IRQs, both built
 * on select_device_irqs(), which the dev: selector uses.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "core/device.h"
#include "core/select.h"
#include "core/xalloc.h"
#include "procfs.h"

/* Does the device own every selected IRQ? Sets *dirp if so. */
static bool
owns_all(const char *name, const struct irqs *irqs, char **dirp)
{
	struct irqs dev = { 0 };
	char *dir = NULL;
	size_t i;
	bool all;

	if (select_device_irqs(name, &dev, &dir) != 0)
		return false;
	for (i = 0, all = dev.n > 0; all && i < irqs->n; i++)
		all = select_find(&dev, irqs->v[i], NULL);
	select_free(&dev);
	if (all)
		*dirp = dir;
	else
		free(dir);
	return all;
}

/*
 * The sysfs directory of the one device all the IRQs belong to, or NULL:
 * a device the selection named, else the first that owns them all;
 * *namep its name as found (an interface's, not its bus device's).
 */
char *
device_owner(const struct irqs *irqs, char **namep)
{
	char **names, *dir = NULL;
	size_t n, i, k;

	for (i = 0; dir == NULL && i < irqs->ndevs; i++)
		if (owns_all(irqs->devs[i], irqs, &dir))
			*namep = xstrdup(irqs->devs[i]);
	for (i = 0; dir == NULL && i < select_nclasses; i++) {
		/* a disk's IRQs are its controller's, found under its name */
		if (select_classes[i].kind == DEVCLASS_DISK ||
		    procfs_dir(select_classes[i].dir, false, &names, &n) != 0)
			continue;
		for (k = 0; dir == NULL && k < n; k++)
			if (owns_all(names[k], irqs, &dir))
				*namep = xstrdup(names[k]);
		if (n > 0)
			procfs_dir_free(names, n);
	}
	return dir;
}

static void
find_devices(struct devmap *dm, const char *dir, bool named)
{
	struct irqs irqs;
	struct devirq *d;
	char **names;
	size_t n, i, k;

	if (procfs_dir(dir, false, &names, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (select_device_irqs(names[i], &irqs, NULL) != 0)
			continue;
		dm->v = xreallocarray(dm->v, dm->n + irqs.n, sizeof(*dm->v));
		for (k = 0; k < irqs.n; k++) {
			d = &dm->v[dm->n];
			*d = (struct devirq){ irqs.v[k], dm->n, named,
			    xstrdup(names[i]) };
			dm->n++;
		}
		select_free(&irqs);
	}
	procfs_dir_free(names, n);
}

static int
cmpdevice(const void *a, const void *b)
{
	const struct devirq *x = a, *y = b;

	if (x->irq != y->irq)
		return (x->irq > y->irq) - (x->irq < y->irq);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Which device each IRQ belongs to: an interface or NVMe name, the last
 * found, over the first PCI address; so the classes are read from the
 * list's end, and a disk's are left to its controller. Memory follows
 * the number of IRQs.
 */
void
device_map(struct devmap *dm)
{
	const struct devclass *c;
	size_t i;

	dm->v = NULL;
	dm->n = 0;
	for (i = select_nclasses; i-- > 0;) {
		c = &select_classes[i];
		if (c->kind != DEVCLASS_DISK)
			find_devices(dm, c->dir, c->kind == DEVCLASS_NAMED);
	}
	if (dm->n > 0)
		qsort(dm->v, dm->n, sizeof(*dm->v), cmpdevice);
}

/* The device that owns irq, by the rule above, or NULL. */
const char *
device_of(const struct devmap *dm, unsigned int irq)
{
	const struct devirq *d = dm->v, *end = d + dm->n;
	const char *name = NULL;
	size_t lo = 0, hi = dm->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (d += lo; d < end && d->irq == irq; d++)
		if (name == NULL || d->named)
			name = d->name;
	return name;
}

void
device_map_free(struct devmap *dm)
{
	size_t i;

	for (i = 0; i < dm->n; i++)
		free(dm->v[i].name);
	free(dm->v);
}
