/* What tapload (host) and qbstat (guest) share: the clock, the pace, the frame. */
#include <string.h>
#include <time.h>

static inline double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep to the next 1 ms step after *next. */
static inline void
next_tick(struct timespec *next)
{
	next->tv_nsec += 1000000L;
	if (next->tv_nsec >= 1000000000L) {
		next->tv_nsec -= 1000000000L;
		next->tv_sec++;
	}
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL);
}

/* A 60-byte broadcast from a locally administered MAC, EtherType 0x88b5
 * (local experimental): no IP, dropped by any stack that gets it. */
static inline void
make_frame(unsigned char frame[60])
{
	memset(frame, 0, 60);
	memset(frame, 0xff, 6);
	frame[6] = 0x02;
	frame[12] = 0x88;
	frame[13] = 0xb5;
}
