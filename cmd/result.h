/*
 * What every command that writes shares: its -n, -v and -J, and its
 * result: the notes, the exit status and, with -J, one JSON object on
 * one line.
 */
#ifndef IRQAFF_RESULT_H
#define IRQAFF_RESULT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/apply.h"

/*
 * -v and -J, beside core/apply.h's flags. With -J nothing but the object
 * is printed.
 */
enum {
	APPLY_VERBOSE = 2, APPLY_JSON = 8
};

/* -n, -v and -J for a command's table of long options. */
#define APPLY_LONGOPTS \
	{ "dry-run", no_argument, NULL, 'n' }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "json", no_argument, NULL, 'J' }

/* A queue of a result, as JSON names it: "eth0" and "tx-0". */
struct qname {
	const char	*dev;
	char		 queue[32];
};

/* The IRQs a plan leaves out, user space unable to move them. */
struct leftout {
	unsigned int		*irq;
	enum apply_result	*why;
	size_t			 n, cap, managed;
};

int	 result_option(int, int *);
void	 result_tally(struct tally *, int);
void	 result_tally_json(struct tally *, int);
void	 result_start(int);
int	 result_status(const struct tally *, const struct tally *, int);
void	 result_json(struct tally *, int, void (*)(void *), void *);
int	 result_print(struct tally *, const struct tally *, int,
	    void (*)(void *), void *);
void	 result_queues(const struct tally *, const struct qname *, size_t);
void	 result_leftout_add(struct leftout *, unsigned int, bool);
void	 result_leftout_note(const struct leftout *);
void	 result_leftout_tally(const struct leftout *, struct tally *, int);
void	 result_leftout_free(struct leftout *);
void	 result_xps_stale_note(struct machine *, const struct change *,
	    size_t);

#endif
