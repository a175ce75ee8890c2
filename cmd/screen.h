/*
 * The live view's terminal: redrawn in place, a key at a time, or plain
 * lines when it is not a terminal.
 */
#ifndef IRQAFF_SCREEN_H
#define IRQAFF_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <termios.h>

struct screen {
	bool		 on;		/* drawn in place on a terminal */
	bool		 keys;		/* keys read from the terminal */
	struct termios	 saved, raw;
	size_t		 rows, cols;
	size_t		 used;		/* lines of the frame drawn */
	char		 key;		/* the last one read */
};

/* screen_wait() */
enum { SCREEN_TIME, SCREEN_QUIT, SCREEN_RESIZE, SCREEN_KEY };

void	 screen_open(struct screen *, bool);
int	 screen_wait(struct screen *, double);
void	 screen_begin(struct screen *);
size_t	 screen_room(const struct screen *);
void	 screen_line(struct screen *, const char *);
void	 screen_end(struct screen *);
void	 screen_close(struct screen *);

#endif
