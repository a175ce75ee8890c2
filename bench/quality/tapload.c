/* tapload: steady receive load for a guest's multi-queue virtio-net. */
/*
 * tapload [-d SECONDS] [-n COUNT] TAP=R0,R1,... ...
 *	Send broadcast frames of a local experimental EtherType (0x88b5), no
 *	IP, on each multi-queue TAP (up, made before) through an AF_PACKET
 *	socket: R_i frames a second tagged for queue i, for at most SECONDS
 *	(default 60) and COUNT frames a queue (default SECONDS times the
 *	rate). Writing into a tap's own fd would inject the frame into the
 *	host, not the guest. A TAP with one rate is a single-queue tap: not
 *	steered.
 *
 * An eBPF steering program makes each tap hand a frame to queue (last
 * byte of its source MAC) mod queues (tun_ebpf_select_queue(),
 * drivers/net/tun.c); qemu reads tap queue i for the guest's receive
 * queue i (in the order the tap lists its queues, which detaching and
 * attaching them reorders). qemu takes any steering program off at each
 * device reset (virtio_net_disable_rss()), so it is set again every
 * second, through a queue of tapload's own that it detaches at once
 * (TUNSETQUEUE): a detached queue gets no frames but may still steer.
 * The first queue attached sets the whole tap's flags (tun_set_iff()),
 * and a detached one stays counted: tapload attaches its queue before
 * qemu opens the tap, with the flags qemu asks for (IFF_VNET_HDR, its
 * default), prints "tapload: ready", and waits 2 s before sending.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define MAXTAPS	8
#define MAXQ	16

struct tap {
	char	name[IFNAMSIZ];
	int	fd;	/* AF_PACKET */
	int	tun;	/* a detached queue of the tap */
	int	nq;
	double	rate[MAXQ];
	long	sent[MAXQ];
	long	max[MAXQ];
};

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int
tun_open(const char *name)
{
	struct ifreq ifr;
	int fd;

	if ((fd = open("/dev/net/tun", O_RDWR)) == -1)
		err(1, "/dev/net/tun");
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_MULTI_QUEUE | IFF_VNET_HDR;
	if ((size_t)snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s",
	    name) >= sizeof(ifr.ifr_name))
		errx(2, "%s: name too long", name);
	if (ioctl(fd, TUNSETIFF, &ifr) == -1)
		err(1, "%s: TUNSETIFF", name);
	ifr.ifr_flags = IFF_DETACH_QUEUE;
	if (ioctl(fd, TUNSETQUEUE, &ifr) == -1)
		err(1, "%s: TUNSETQUEUE", name);
	return fd;
}

/* r6 = ctx; r0 = skb byte 11 (the source MAC's last); return r0 */
static int
steering_prog(void)
{
	struct bpf_insn insn[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 6,
		    .src_reg = 1 },
		{ .code = BPF_LD | BPF_ABS | BPF_B, .imm = 11 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	static char log[4096];
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uintptr_t)insn;
	attr.insn_cnt = sizeof(insn) / sizeof(insn[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd == -1)
		err(1, "BPF_PROG_LOAD: %s", log);
	return fd;
}

static void
steer(struct tap *t, int prog)
{
	if (ioctl(t->tun, TUNSETSTEERINGEBPF, &prog) == -1)
		err(1, "%s: TUNSETSTEERINGEBPF", t->name);
}

static void
parse_tap(struct tap *t, char *arg, double secs, long count)
{
	char *eq, *p, *end;

	if ((eq = strchr(arg, '=')) == NULL)
		errx(2, "%s: want TAP=R0,R1,...", arg);
	*eq = '\0';
	if ((size_t)snprintf(t->name, sizeof(t->name), "%s", arg) >=
	    sizeof(t->name))
		errx(2, "%s: name too long", arg);
	t->nq = 0;
	for (p = strtok(eq + 1, ","); p != NULL; p = strtok(NULL, ",")) {
		if (t->nq == MAXQ)
			errx(2, "%s: more than %d queues", arg, MAXQ);
		t->rate[t->nq] = strtod(p, &end);
		if (*end != '\0' || t->rate[t->nq] < 0 ||
		    t->rate[t->nq] > 1e6)
			errx(2, "%s: bad rate %s", arg, p);
		t->max[t->nq] = count >= 0 ? count :
		    (long)(t->rate[t->nq] * secs);
		t->sent[t->nq++] = 0;
	}
}

static void
open_packet(struct tap *t)
{
	struct sockaddr_ll sll;

	if ((t->fd = socket(AF_PACKET, SOCK_RAW, 0)) == -1)
		err(1, "socket");
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = 0;	/* send only */
	if ((sll.sll_ifindex = if_nametoindex(t->name)) == 0)
		err(1, "%s", t->name);
	if (bind(t->fd, (struct sockaddr *)&sll, sizeof(sll)) == -1)
		err(1, "%s: bind", t->name);
}

static int
send_load(int argc, char **argv)
{
	struct tap taps[MAXTAPS];
	unsigned char frame[60];
	struct timespec next;
	double secs = 60, t0, el;
	long count = -1, due, total = 0, dropped = 0;
	char *end;
	int c, i, q, ntaps, live, prog;
	long tick;

	while ((c = getopt(argc, argv, "d:n:")) != -1) {
		switch (c) {
		case 'd':
			secs = strtol(optarg, &end, 10);
			if (*end != '\0' || secs < 1 || secs > 86400)
				errx(2, "-d %s: want 1 to 86400", optarg);
			break;
		case 'n':
			count = strtol(optarg, &end, 10);
			if (*end != '\0' || count < 0 || count > 1000000000)
				errx(2, "-n %s: want 0 to 1000000000", optarg);
			break;
		default:
			fprintf(stderr, "usage: tapload [-d SECONDS] [-n COUNT] "
			    "TAP=R0,R1,... ...\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > MAXTAPS)
		errx(2, "send: 1 to %d TAP=RATES", MAXTAPS);
	ntaps = argc;
	prog = steering_prog();
	for (i = 0; i < ntaps; i++) {
		parse_tap(&taps[i], argv[i], secs, count);
		open_packet(&taps[i]);
		taps[i].tun = taps[i].nq > 1 ? tun_open(taps[i].name) : -1;
	}
	make_frame(frame);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("tapload: ready\n");
	fflush(stdout);
	sleep(2);
	t0 = now();
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (live = 1, tick = 0; live && !stop; tick++) {
		el = now() - t0;
		if (el >= secs)
			break;
		if (tick % 1000 == 0)
			for (i = 0; i < ntaps; i++)
				if (taps[i].tun != -1)
					steer(&taps[i], prog);
		live = 0;
		for (i = 0; i < ntaps; i++) {
			frame[10] = i;
			for (q = 0; q < taps[i].nq; q++) {
				due = (long)(taps[i].rate[q] * el);
				if (due > taps[i].max[q])
					due = taps[i].max[q];
				if (taps[i].sent[q] < taps[i].max[q])
					live = 1;
				frame[11] = q;
				for (; taps[i].sent[q] < due; taps[i].sent[q]++) {
					if (send(taps[i].fd, frame,
					    sizeof(frame), 0) == -1) {
						if (errno != ENOBUFS &&
						    errno != ENETDOWN &&
						    errno != ENXIO)
							err(1, "%s: send",
							    taps[i].name);
						dropped++;
					}
				}
			}
		}
		next_tick(&next);
	}
	for (i = 0; i < ntaps; i++)
		for (q = 0; q < taps[i].nq; q++)
			total += taps[i].sent[q];
	printf("tapload: %ld frames in %.1f s (%ld not sent)\n", total,
	    now() - t0, dropped);
	return 0;
}

int
main(int argc, char **argv)
{
	return send_load(argc, argv);
}
