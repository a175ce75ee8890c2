/*
 * The live view's terminal: its size, keys read one at a time, the
 * signals that end or resize the view, and the state it was found in,
 * given back at the end. Not a terminal: plain lines.
 */
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "cmd/screen.h"
#include "core/xalloc.h"
#include "procfs.h"

#define CSI	"\033["

static volatile sig_atomic_t quit, resized;
static sigset_t waiting;	/* the mask found: signals arrive in ppoll() */
static const int quits[] = { SIGINT, SIGTERM, SIGHUP };

static void
on_quit(int sig)
{
	quit = sig;
}

static void
on_resize(int sig)
{
	(void)sig;
	resized = 1;
}

static size_t
env_size(const char *name, size_t otherwise)
{
	const char *s = getenv(name), *errstr;
	long long v;

	if (s == NULL)
		return otherwise;
	v = strtonum(s, 1, 10000, &errstr);
	return errstr == NULL ? (size_t)v : otherwise;
}

/* The terminal's size, else LINES and COLUMNS, else 24 by 80. */
static void
measure(struct screen *s)
{
	struct winsize ws;

	if (ioctl(fileno(stdout), TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0) {
		s->rows = ws.ws_row;
		s->cols = ws.ws_col;
		return;
	}
	s->rows = env_size("LINES", 24);
	s->cols = env_size("COLUMNS", 80);
}

/*
 * The signals that end the view or resize it caught, and held back but
 * in screen_wait(): none is lost between a test and the wait.
 */
static void
catch_signals(void)
{
	struct sigaction sa;
	sigset_t hold;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&hold);
	sa.sa_handler = on_quit;
	for (i = 0; i < nitems(quits); i++) {
		sigaction(quits[i], &sa, NULL);
		sigaddset(&hold, quits[i]);
	}
	sa.sa_handler = on_resize;
	sigaction(SIGWINCH, &sa, NULL);
	sigaddset(&hold, SIGWINCH);
	sigprocmask(SIG_BLOCK, &hold, &waiting);
}

/* Drawn in place when standard output is a terminal, unless plain. */
void
screen_open(struct screen *s, bool plain)
{
	struct termios raw;

	memset(s, 0, sizeof(*s));
	if (plain || !procfs_tty(stdout))
		return;
	s->on = true;
	measure(s);
	catch_signals();
	/* keys without Enter and without echo; ^C still a signal */
	if (procfs_tty(stdin) && tcgetattr(fileno(stdin), &s->saved) == 0) {
		raw = s->saved;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		s->keys = tcsetattr(fileno(stdin), TCSANOW, &raw) == 0;
	}
	fputs(CSI "?25l" CSI "2J", stdout);
}

/* Up to seconds, for a key, a signal that ends the view or a new size. */
int
screen_wait(struct screen *s, double seconds)
{
	struct pollfd pfd = { .fd = fileno(stdin), .events = POLLIN };
	struct timespec ts;
	char c;
	int n;

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - ts.tv_sec) * 1e9);
	n = ppoll(&pfd, s->keys ? 1 : 0, &ts, &waiting);
	if (quit)
		return SCREEN_QUIT;
	if (resized) {
		resized = 0;
		measure(s);
		return SCREEN_RESIZE;
	}
	if (n > 0 && s->keys) {
		if (procfs_tty_key(&c) != 1)
			s->keys = false;	/* hung up: no more keys */
		else {
			s->key = c;
			return SCREEN_KEY;
		}
	}
	return SCREEN_TIME;
}

void
screen_begin(struct screen *s)
{
	s->used = 0;
	if (s->on)
		fputs(CSI "H", stdout);
}

/* Lines left in the frame: the last row stays empty, for the cursor. */
size_t
screen_room(const struct screen *s)
{
	if (!s->on)
		return SIZE_MAX;
	return s->rows > s->used + 1 ? s->rows - 1 - s->used : 0;
}

/* A line, cut at the screen's width; none past its height. */
void
screen_line(struct screen *s, const char *line)
{
	size_t len = strlen(line);

	if (!s->on) {
		puts(line);
		return;
	}
	if (screen_room(s) == 0)
		return;
	fwrite(line, 1, len < s->cols ? len : s->cols, stdout);
	fputs(CSI "K\n", stdout);
	s->used++;
}

/* The rest of the screen cleared: nothing of a longer frame before. */
void
screen_end(struct screen *s)
{
	if (s->on)
		fputs(CSI "J", stdout);
	fflush(stdout);
}

/*
 * The terminal as it was found. Ended by a signal, the view ends by it
 * too, as any program would: a shell's loop around it stops.
 */
void
screen_close(struct screen *s)
{
	if (!s->on)
		return;
	fputs(CSI "?25h", stdout);
	fflush(stdout);
	if (s->keys)
		tcsetattr(fileno(stdin), TCSADRAIN, &s->saved);
	if (quit) {
		signal(quit, SIG_DFL);
		sigprocmask(SIG_SETMASK, &waiting, NULL);
		raise(quit);
	}
	sigprocmask(SIG_SETMASK, &waiting, NULL);
	s->on = false;
}
