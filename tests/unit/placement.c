/*
 * The placement planner's rules, each pinned on both sides of its
 * boundary from fixed inputs: make check runs this program.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/placement.h"

#define NCPU	8

static int failed, ran;

/*
 * A problem on CPUs 0..ncpu-1, all in one set in CPU order unless
 * split gives the first CPU of a second set; loads and homes by item.
 * With limited, each CPU's free vectors (room) and each item's vectors
 * (vec, 0: 1) and the CPU holding them (held).
 */
struct problem {
	int		 ncpu, split;
	uint64_t	 fixed[NCPU];
	size_t		 n;
	uint64_t	 load[16];
	int		 home[16];
	bool		 limited;
	long		 room[NCPU];
	unsigned int	 vec[16];
	int		 held[16];
};

static void
solve(const struct problem *pb, int *cpu, uint64_t *after, bool *fresh)
{
	struct place_cpu pc[NCPU];
	struct place_set sets[2];
	struct place_item it[16];
	struct placement p;
	size_t i;
	int c;

	for (c = 0; c < pb->ncpu; c++)
		pc[c] = (struct place_cpu){ c, (unsigned int)c };
	sets[0] = (struct place_set){ pc, pb->split ? (size_t)pb->split :
	    (size_t)pb->ncpu };
	sets[1] = (struct place_set){ pc + pb->split,
	    (size_t)(pb->ncpu - pb->split) };
	for (i = 0; i < pb->n; i++)
		it[i] = (struct place_item){ pb->load[i], pb->home[i], 0, -1,
		    pb->vec[i] ? pb->vec[i] : 1, pb->limited ? pb->held[i] : -1 };
	p = (struct placement){ NCPU, pb->fixed, after, sets,
	    pb->split ? 2 : 1, it, pb->n, false,
	    pb->limited ? pb->room : NULL };
	placement_plan(&p);
	for (i = 0; i < pb->n; i++)
		cpu[i] = it[i].cpu;
	if (fresh != NULL)
		*fresh = p.fresh;
}

/* The plan's CPUs, by item, against want ("0 1 1"). */
static void
expect(const char *what, const struct problem *pb, const char *want)
{
	char got[128] = "";
	uint64_t after[NCPU];
	int cpu[16];
	size_t i;

	solve(pb, cpu, after, NULL);
	for (i = 0; i < pb->n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%d",
		    i ? " " : "", cpu[i]);
	ran++;
	if (strcmp(got, want) != 0) {
		printf("not ok %d %s: got \"%s\", want \"%s\"\n", ran, what,
		    got, want);
		failed++;
	} else
		printf("ok %d %s\n", ran, what);
}

static void
expect_worth(uint64_t gain, uint64_t a, uint64_t b, bool want)
{
	char what[128];

	ran++;
	snprintf(what, sizeof(what), "a gain of %" PRIu64 " from %" PRIu64
	    " beside %" PRIu64 " is %sworth a move", gain, a, b,
	    want ? "" : "not ");
	if (placement_worth(gain, a, b) != want) {
		printf("not ok %d %s\n", ran, what);
		failed++;
	} else
		printf("ok %d %s\n", ran, what);
}

static void
worth(void)
{
	expect_worth(0, 0, 0, false);
	/* a tenth of the busier CPU's count, beside a busy CPU */
	expect_worth(10000, 100000, 50000, false);
	expect_worth(10001, 100000, 50000, true);
	/* three standard deviations: gain^2 > 9 (a + b) */
	expect_worth(120, 1000, 600, false);
	expect_worth(121, 1000, 600, true);
	/* onto a CPU that counted nothing: the deviations alone */
	expect_worth(30, 100, 0, false);
	expect_worth(31, 100, 0, true);
	expect_worth(31, 100, 8, false);
	expect_worth(301, 10000, 0, true);
	expect_worth(301, 10000, 1, false);
	expect_worth((uint64_t)1 << 33, (uint64_t)1 << 34, 1, true);
}

static void
busy(void)
{
	struct problem pb;

	/* CPU 0: 9000 + 1000, CPU 1: 7000: the move gains 1000, a tenth */
	pb = (struct problem){ .ncpu = 2, .n = 3, .load = { 9000, 1000, 7000 },
	    .home = { 0, 0, 1 } };
	expect("a move that lowers the busier CPU by a tenth is not made",
	    &pb, "0 0 1");
	pb.load[0] = 8999;
	pb.load[1] = 1001;
	expect("a move that lowers it by more is made", &pb, "0 1 1");

	/* the busiest CPU first, its move that gains most */
	pb = (struct problem){ .ncpu = 4, .n = 4,
	    .load = { 4000, 3000, 2000, 1000 }, .home = { 0, 0, 0, 1 } };
	expect("off the busiest CPU, the move that lowers it most, then the "
	    "lighter IRQ of equal gains", &pb, "2 0 3 1");

	/* a CPU left idle beside one with two busy IRQs */
	pb = (struct problem){ .ncpu = 3, .n = 3, .load = { 1000, 150, 1100 },
	    .home = { 0, 0, 1 } };
	expect("an idle CPU takes a busy IRQ that a tenth would keep", &pb,
	    "0 2 1");
	pb.load[1] = 10;
	expect("but not one within the noise of a count", &pb, "0 0 1");

	/* CPU 1 (600 + 300) is not the busiest: evening it out with CPU 2
	 * would not lower the busiest, and the next run's noise undoes it */
	pb = (struct problem){ .ncpu = 3, .n = 4,
	    .load = { 1000, 600, 300, 400 }, .home = { 0, 1, 1, 2 } };
	expect("no move off a CPU below the busiest", &pb, "0 1 1 2");
	pb.load[0] = 800;
	expect("but off the busiest, the same move is made", &pb, "0 1 2 2");

	/* homeless IRQs heaviest first; ties by load, IRQs, then order */
	pb = (struct problem){ .ncpu = 2, .n = 3, .load = { 500, 500, 500 },
	    .home = { 0, 0, -1 } };
	pb.load[0] = 500;
	pb.load[1] = 500;
	pb.fixed[1] = 1000;
	expect("a load tie goes to the CPU with fewer IRQs", &pb, "0 0 1");
	pb = (struct problem){ .ncpu = 2, .n = 2, .load = { 500, 500 },
	    .home = { -1, -1 } };
	expect("and with as many IRQs to the first in order", &pb, "0 1");

	/* each in its set: CPU 1 is busier than 2 and 3, but its */
	pb = (struct problem){ .ncpu = 4, .split = 2, .n = 2,
	    .load = { 1000, 1000 }, .home = { 0, 0 }, .fixed = { 0, 500 } };
	expect("an IRQ moves only within its set", &pb, "1 0");
}

static void
fresh(void)
{
	struct problem pb = { .ncpu = 2, .n = 4,
	    .load = { 7000, 5000, 6000, 4000 }, .home = { 0, 0, 1, 1 } };
	uint64_t after[NCPU];
	int cpu[16];
	bool f;

	/* 12000 beside 10000; afresh 11000: a twelfth lower, kept */
	solve(&pb, cpu, after, &f);
	ran++;
	printf("%sok %d a plan afresh a twelfth better is not taken\n",
	    f || cpu[0] != 0 || cpu[1] != 0 ? (failed++, "not ") : "", ran);
	/* 6000 beside 4000: no single move helps, afresh 5000 */
	pb.load[0] = pb.load[1] = 3000;
	pb.load[2] = pb.load[3] = 2000;
	solve(&pb, cpu, after, &f);
	ran++;
	printf("%sok %d single moves cannot undo what a plan afresh can\n",
	    f ? "" : (failed++, "not "), ran);
	/* low rates, where the noise and not a tenth decides: 600/400 */
	pb.load[0] = pb.load[1] = 300;
	pb.load[2] = pb.load[3] = 200;
	solve(&pb, cpu, after, &f);
	ran++;
	printf("%sok %d at low rates 600/400 becomes 500/500 afresh\n",
	    f && cpu[0] != cpu[1] ? "" : (failed++, "not "), ran);
	/* 580/400: afresh 490/490 gains 90, within 3 * sqrt(580 + 490) */
	pb.load[0] = pb.load[1] = 290;
	solve(&pb, cpu, after, &f);
	ran++;
	printf("%sok %d but 580/400 is kept: 490/490 is within the noise\n",
	    f || cpu[0] != 0 || cpu[1] != 0 ? (failed++, "not ") : "", ran);
}

static void
idle(void)
{
	struct problem pb;

	pb = (struct problem){ .ncpu = 3, .n = 4, .load = { 0, 0, 0, 0 },
	    .home = { 0, 0, -1, -1 } };
	expect("idle IRQs are not placed, homeless or not", &pb,
	    "-1 -1 -1 -1");
}

/* A count of 9 is noise (3 * sqrt(9)), 10 is not. */
static void
quiet(void)
{
	struct problem pb;

	pb = (struct problem){ .ncpu = 2, .n = 3, .load = { 1000, 1000, 9 },
	    .home = { 0, 0, 0 } };
	expect("an IRQ that counted 9 is quiet: not placed", &pb, "1 0 -1");
	pb.load[2] = 10;
	expect("one that counted 10 is busy: placed, at home", &pb, "1 0 0");
	/* CPU 1 is not the busiest: only a quiet CPU may take its IRQ */
	pb = (struct problem){ .ncpu = 3, .n = 3, .fixed = { 0, 0, 9 },
	    .load = { 5000, 1000, 1000 }, .home = { 0, 1, 1 } };
	expect("a CPU that counted 9 takes an IRQ off one not the busiest",
	    &pb, "0 2 1");
	pb.fixed[2] = 10;
	expect("one that counted 10 does not", &pb, "0 1 1");
}

/* Within each CPU's free interrupt vectors (room). */
static void
room(void)
{
	struct problem pb;

	/* CPU 1 is the best target, but has no vector free */
	pb = (struct problem){ .ncpu = 3, .n = 2, .load = { 6000, 3000 },
	    .home = { 0, 0 }, .fixed = { 0, 0, 1000 }, .limited = true,
	    .room = { 0, 0, 1 }, .held = { 0, 0 } };
	expect("a CPU with no vector free is skipped for the next best", &pb,
	    "0 2");
	pb.room[1] = 1;
	expect("one with a vector free takes the move", &pb, "0 1");
	/* three moves off CPU 0, room for exactly two */
	pb = (struct problem){ .ncpu = 3, .n = 3,
	    .load = { 3000, 3000, 3000 }, .home = { 0, 0, 0 },
	    .limited = true, .room = { 0, 1, 1 }, .held = { 0, 0, 0 } };
	expect("CPUs with exactly the vectors the moves need take them", &pb,
	    "1 2 0");
	pb.room[2] = 0;
	expect("one vector short, one move fewer", &pb, "1 0 0");
	/* a pair takes two vectors */
	pb = (struct problem){ .ncpu = 2, .n = 2, .load = { 6000, 3000 },
	    .home = { 0, 0 }, .limited = true, .room = { 0, 1 },
	    .vec = { 2, 1 }, .held = { 0, 0 } };
	expect("a pair does not fit in one vector; a single IRQ does", &pb,
	    "0 1");
	/* where an IRQ holds its vector it needs none */
	pb = (struct problem){ .ncpu = 2, .n = 2, .load = { 3000, 3000 },
	    .home = { 0, -1 }, .limited = true, .room = { 0, 0 },
	    .held = { 0, 1 } };
	expect("a full CPU takes the IRQ that holds its vector there", &pb,
	    "0 1");
	pb.held[1] = -1;
	pb.fixed[0] = 500;
	expect("with no room anywhere, the best CPU, to be refused", &pb,
	    "0 1");
}

static void
round_robin(void)
{
	/* config (left), rx0 tx0 rx1 tx1, a combined queue, over CPUs 4 2 */
	const long pair[] = { -2, 10, 10, 11, 11, -1 };
	const int order[] = { 4, 2 };
	char got[64] = "";
	int cpu[6];
	size_t i;

	placement_round_robin(pair, 6, order, 2, cpu);
	for (i = 0; i < 6; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%d",
		    i ? " " : "", cpu[i]);
	ran++;
	if (strcmp(got, "-1 4 4 2 2 4") != 0) {
		printf("not ok %d spread's round robin: got \"%s\"\n", ran,
		    got);
		failed++;
	} else
		printf("ok %d spread's round robin keeps a pair on one CPU and "
		    "leaves what it is told to\n", ran);
}

int
main(void)
{
	worth();
	quiet();
	busy();
	fresh();
	idle();
	room();
	round_robin();
	printf("%d passed, %d failed\n", ran - failed, failed);
	return failed != 0;
}
