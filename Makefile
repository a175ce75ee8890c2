PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
PKG_CONFIG ?= pkg-config
SCDOC ?= scdoc
BATS ?= bats

CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP
CFLAGS += $(shell $(PKG_CONFIG) --cflags libbsd-overlay)
LDLIBS += $(shell $(PKG_CONFIG) --libs libbsd-overlay)

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

SRCS = irqaff.c irqs.c parse.c procfs.c set.c show.c
OBJS = $(SRCS:.c=.o)
ASAN_OBJS = $(SRCS:%.c=asan/%.o)

all: irqaff

irqaff: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

asan/%.o: %.c
	@mkdir -p asan
	$(CC) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<

asan/irqaff: $(ASAN_OBJS)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(ASAN_OBJS) $(LDLIBS)

check: irqaff
	IRQAFF_BIN=$(CURDIR)/irqaff $(BATS) tests

asan: asan/irqaff
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1 \
	IRQAFF_BIN=$(CURDIR)/asan/irqaff $(BATS) tests

install: irqaff
	install -d $(DESTDIR)$(SBINDIR)
	install -m 0755 irqaff $(DESTDIR)$(SBINDIR)/irqaff

clean:
	rm -rf irqaff $(OBJS) $(SRCS:.c=.d) asan

.PHONY: all check asan install clean

-include $(SRCS:.c=.d) $(ASAN_OBJS:.o=.d)
