/*
 * The live view's terminal: its size, keys read one at a time, the
 * signals that end, stop or resize the view, and the state it was found
 * in, given back at the end and while stopped. Not a terminal: plain
 * lines.
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

static volatile sig_atomic_t quit, resized, stopped;
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

static void
on_stop(int sig)
{
	(void)sig;
	stopped = 1;
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

static void
catch(int sig, void (*handler)(int), sigset_t *hold)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(sig, &sa, NULL);
	sigaddset(hold, sig);
}

/*
 * The signals that end, stop or resize the view caught, and held back
 * but in screen_wait(): none is lost between a test and the wait.
 */
static void
catch_signals(void)
{
	sigset_t hold;
	size_t i;

	sigemptyset(&hold);
	for (i = 0; i < nitems(quits); i++)
		catch(quits[i], on_quit, &hold);
	catch(SIGWINCH, on_resize, &hold);
	catch(SIGTSTP, on_stop, &hold);
	sigprocmask(SIG_BLOCK, &hold, &waiting);
}

static void
take_terminal(struct screen *s)
{
	if (s->keys)
		tcsetattr(fileno(stdin), TCSADRAIN, &s->raw);
	fputs(CSI "?25l" CSI "2J", stdout);
}

static void
give_terminal(struct screen *s)
{
	fputs(CSI "?25h", stdout);
	fflush(stdout);
	if (s->keys)
		tcsetattr(fileno(stdin), TCSADRAIN, &s->saved);
}

/*
 * ^Z: the terminal as it was found while stopped, as the shell expects
 * it; taken again when continued.
 */
static void
suspend(struct screen *s)
{
	sigset_t tstp;

	give_terminal(s);
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	signal(SIGTSTP, SIG_DFL);
	sigprocmask(SIG_UNBLOCK, &tstp, NULL);
	raise(SIGTSTP);
	sigprocmask(SIG_BLOCK, &tstp, NULL);
	catch(SIGTSTP, on_stop, &tstp);
	stopped = 0;
	take_terminal(s);
}

/* Drawn in place when standard output is a terminal, unless plain. */
void
screen_open(struct screen *s, bool plain)
{
	memset(s, 0, sizeof(*s));
	if (plain || !procfs_tty(stdout))
		return;
	s->on = true;
	measure(s);
	catch_signals();
	/* keys without Enter and without echo; ^C and ^Z still signals */
	if (procfs_tty(stdin) && tcgetattr(fileno(stdin), &s->saved) == 0) {
		s->raw = s->saved;
		s->raw.c_lflag &= ~(ICANON | ECHO);
		s->raw.c_cc[VMIN] = 1;
		s->raw.c_cc[VTIME] = 0;
		s->keys = tcsetattr(fileno(stdin), TCSANOW, &s->raw) == 0;
	}
	fputs(CSI "?25l" CSI "2J", stdout);
}

/*
 * Up to seconds, for a key, a signal that ends the view, or a new size
 * (after a stop too: the frame is drawn anew).
 */
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
	if (stopped) {
		suspend(s);
		resized = 1;	/* drawn anew, at its size then */
	}
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
	give_terminal(s);
	if (quit) {
		signal(quit, SIG_DFL);
		sigprocmask(SIG_SETMASK, &waiting, NULL);
		raise(quit);
	}
	sigprocmask(SIG_SETMASK, &waiting, NULL);
	s->on = false;
}
