/*
 * timeit [-r ROUNDS] [-w WARMUPS]: time a set of commands interleaved,
 * each run measured by the wait4() of its own child.
 *
 * Standard input has one command a line, five tab-separated fields:
 *
 *	LABEL	MAXRUNS	STDIN	PREPARE	COMMAND
 *
 * MAXRUNS is 0 to run in every round, else the number of timed runs to
 * stop at (for slow tools); STDIN is a file for the command's standard
 * input, or "-" for /dev/null; PREPARE is a command run untimed just
 * before every run of COMMAND (to reset a tree), or "-". Commands are
 * words split at blanks and run with execvp(3), no shell.
 *
 * WARMUPS rounds (default 1) run every command untimed, then ROUNDS
 * rounds (default 5) time every command once each, the order turned by
 * one place every round. Standard output of the commands goes to
 * /dev/null, standard error stays. Prints one line per command:
 *
 *	LABEL	RUNS	WALL_MS	CPU_MS	MAXRSS_KB	STATUS
 *
 * WALL_MS is the median wall time (clock_gettime(CLOCK_MONOTONIC) from
 * before posix_spawnp() to after wait4()), CPU_MS the median user +
 * system time, MAXRSS_KB the largest ru_maxrss; STATUS is "ok", or how
 * the first failed run ended (a command that failed runs no more). Linux
 * counts in ru_maxrss the resident size of timeit at the exec (fs/exec.c
 * exec_mmap()), about 1.7 MB: timeit keeps small.
 */
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXCMDS		64
#define MAXWORDS	64
#define MAXRUNS		1000

extern char **environ;

struct cmd {
	char	*label;
	int	 maxruns;
	char	*input;			/* NULL: /dev/null */
	char	*prep[MAXWORDS];	/* prep[0] NULL: none */
	char	*argv[MAXWORDS];
	int	 nruns;
	double	 wall[MAXRUNS], cpu[MAXRUNS];
	long	 maxrss;
	char	 status[64];		/* empty while every run is ok */
};

static struct cmd cmds[MAXCMDS];
static int ncmds;

static void
die(const char *what)
{
	fprintf(stderr, "timeit: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Splits s at blanks into v, NULL-terminated; "-" alone is no command. */
static int
words(char *s, char **v)
{
	int n = 0;
	char *w;

	while ((w = strsep(&s, " ")) != NULL) {
		if (*w == '\0')
			continue;
		if (n == MAXWORDS - 1)
			return -1;
		v[n++] = w;
	}
	v[n] = NULL;
	if (n == 1 && strcmp(v[0], "-") == 0)
		v[0] = NULL;
	return n;
}

static void
parse(char *line, int lineno)
{
	struct cmd *c = &cmds[ncmds];
	char *f[5];
	int i;

	line[strcspn(line, "\n")] = '\0';
	for (i = 0; i < 5; i++)
		if ((f[i] = strsep(&line, "\t")) == NULL)
			break;
	if (i < 5 || line != NULL || ncmds == MAXCMDS) {
		fprintf(stderr, "timeit: line %d: not five tab-separated "
		    "fields, or too many commands\n", lineno);
		exit(2);
	}
	if ((c->label = strdup(f[0])) == NULL)
		die("strdup");
	c->maxruns = atoi(f[1]);
	if (strcmp(f[2], "-") != 0 && (c->input = strdup(f[2])) == NULL)
		die("strdup");
	if ((f[3] = strdup(f[3])) == NULL || (f[4] = strdup(f[4])) == NULL)
		die("strdup");
	if (words(f[3], c->prep) < 0 || words(f[4], c->argv) <= 0 ||
	    c->argv[0] == NULL) {
		fprintf(stderr, "timeit: line %d: bad command\n", lineno);
		exit(2);
	}
	ncmds++;
}

/*
 * Runs argv with stdin from input, stdout to /dev/null; its wait status,
 * its usage in *ru. posix_spawnp() is fork and exec without copying
 * timeit's page tables, whose cost would land on the child.
 */
static int
run(char *const argv[], const char *input, struct rusage *ru)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status;

	if ((errno = posix_spawn_file_actions_init(&fa)) != 0 ||
	    (errno = posix_spawn_file_actions_addopen(&fa, 0,
	    input ? input : "/dev/null", O_RDONLY, 0)) != 0 ||
	    (errno = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
	    O_WRONLY, 0)) != 0)
		die("posix_spawn_file_actions");
	if ((errno = posix_spawnp(&pid, argv[0], &fa, NULL, argv,
	    environ)) != 0) {
		fprintf(stderr, "timeit: %s: %s\n", argv[0], strerror(errno));
		posix_spawn_file_actions_destroy(&fa);
		memset(ru, 0, sizeof(*ru));
		return 127 << 8;
	}
	posix_spawn_file_actions_destroy(&fa);
	while (wait4(pid, &status, 0, ru) == -1)
		if (errno != EINTR)
			die("wait4");
	return status;
}

static void
note_failure(struct cmd *c, const char *what, int status)
{
	if (c->status[0] != '\0')
		return;
	if (WIFSIGNALED(status))
		snprintf(c->status, sizeof(c->status), "%ssignal %d", what,
		    WTERMSIG(status));
	else
		snprintf(c->status, sizeof(c->status), "%sexit %d", what,
		    WEXITSTATUS(status));
}

static double
ms(const struct timeval *tv)
{
	return tv->tv_sec * 1e3 + tv->tv_usec / 1e3;
}

/* One run of c, its prepare first; timed unless warm-up. */
static void
once(struct cmd *c, int timed)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;

	if (c->status[0] != '\0' ||
	    (timed && c->maxruns > 0 && c->nruns >= c->maxruns))
		return;
	if (c->prep[0] != NULL &&
	    (status = run(c->prep, NULL, &ru)) != 0) {
		note_failure(c, "prepare ", status);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	status = run(c->argv, c->input, &ru);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (status != 0) {
		note_failure(c, "", status);
		return;
	}
	if (ru.ru_maxrss > c->maxrss)
		c->maxrss = ru.ru_maxrss;
	if (!timed || c->nruns == MAXRUNS)
		return;
	c->wall[c->nruns] = (t1.tv_sec - t0.tv_sec) * 1e3 +
	    (t1.tv_nsec - t0.tv_nsec) / 1e6;
	c->cpu[c->nruns] = ms(&ru.ru_utime) + ms(&ru.ru_stime);
	c->nruns++;
}

static int
cmpdouble(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmpdouble);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int
number(const char *s, int max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < 0 || v > max) {
		fprintf(stderr, "timeit: \"%s\" is not a number from 0 to "
		    "%d\n", s, max);
		exit(2);
	}
	return v;
}

int
main(int argc, char *argv[])
{
	static char line[8192];
	int ch, rounds = 5, warmups = 1, r, i, lineno = 0;
	struct cmd *c;

	while ((ch = getopt(argc, argv, "r:w:")) != -1) {
		if (ch == 'r')
			rounds = number(optarg, MAXRUNS);
		else if (ch == 'w')
			warmups = number(optarg, MAXRUNS);
		else {
			fprintf(stderr, "usage: timeit [-r rounds] "
			    "[-w warmups] < commands\n");
			return 2;
		}
	}
	while (fgets(line, sizeof(line), stdin) != NULL) {
		lineno++;
		if (line[0] != '\n' && line[0] != '#')
			parse(line, lineno);
	}
	for (r = 0; r < warmups + rounds; r++)
		for (i = 0; i < ncmds; i++)
			once(&cmds[(i + r) % ncmds], r >= warmups);
	for (i = 0; i < ncmds; i++) {
		c = &cmds[i];
		printf("%s\t%d\t%.2f\t%.2f\t%ld\t%s\n", c->label, c->nruns,
		    median(c->wall, c->nruns), median(c->cpu, c->nruns),
		    c->maxrss, c->status[0] ? c->status : "ok");
	}
	return 0;
}
