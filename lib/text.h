/*
 * Text for people and programs: the sentence a parser returns, names
 * escaped for messages, and JSON strings. No I/O but the stream given.
 */
#ifndef IRQAFF_TEXT_H
#define IRQAFF_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Why a parser refused its input: an errno and one line naming the token. */
struct perr {
	int	code;
	char	msg[640];
};

/* Room for a token quoted by visquote() in a message. */
#define TOKBUF	104

int		 perr_set(struct perr *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
const char	*visquote(char *, size_t, const char *, size_t);
const char	*quoted(const char *);
char		*escaped(const char *);
void		 json_string(FILE *, const char *);
const char	*errno_name(int);
int		 perr_errno(const struct perr *);

#endif
