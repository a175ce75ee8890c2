/*
 * Text for people and programs: names escaped for messages, JSON
 * strings and errno names. No I/O but the stream given.
 */
#ifndef IRQAFF_TEXT_H
#define IRQAFF_TEXT_H

#include <stddef.h>
#include <stdio.h>

const char	*text_quoted(const char *);
char		*text_escaped(const char *);
void		 text_json_string(FILE *, const char *);
const char	*text_errno_name(int);
size_t		 text_distance(const char *, const char *);

#endif
