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

/* Room for a token quoted by text_visquote() in a message. */
#define TOKBUF	104

int		 text_perr_set(struct perr *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
const char	*text_visquote(char *, size_t, const char *, size_t);
const char	*text_quoted(const char *);
char		*text_escaped(const char *);
void		 text_json_string(FILE *, const char *);
const char	*text_errno_name(int);
int		 text_perr_errno(const struct perr *);

#endif
