/*
 * Findings: a code a program can match and a sentence for people, as
 * isolate and explain report them.
 */
#ifndef IRQAFF_FINDINGS_H
#define IRQAFF_FINDINGS_H

#include <stddef.h>
#include <stdio.h>

struct finding {
	const char	*code;		/* static */
	char		*text;		/* owned; names in it escaped */
};

struct findings {
	struct finding	*v;
	size_t		 n;
};

void	 findings_add(struct findings *, const char *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 findings_json(FILE *, const struct findings *);
void	 findings_free(struct findings *);

#endif
