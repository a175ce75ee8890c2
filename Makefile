PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system

CC ?= cc
FUZZCC ?= clang
PKG_CONFIG ?= pkg-config
SCDOC ?= scdoc
BATS ?= bats
FUZZ_SECONDS ?= 20

# WERROR=1 (CI sets it) makes warnings errors; a packager's newer
# compiler must not break the build.
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -MMD -MP
ifeq ($(WERROR),1)
CFLAGS += -Werror
endif
CFLAGS += $(shell $(PKG_CONFIG) --cflags libbsd-overlay)
LDLIBS += $(shell $(PKG_CONFIG) --libs libbsd-overlay)

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

SRCS = apply.c cli.c convert.c cpuset.c default.c interrupts.c irqaff.c \
	irqsel.c machine.c procfs.c restore.c save.c select.c set.c show.c \
	snapline.c snapshot.c spread.c text.c xalloc.c
# The pure layer: no I/O, no printing; what the fuzzers link.
PURE = cpuset.c interrupts.c irqsel.c snapline.c text.c
OBJS = $(SRCS:.c=.o)
ASAN_OBJS = $(SRCS:%.c=asan/%.o)
FUZZERS = $(patsubst tests/fuzz/%.c,fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))

all: irqaff irqaff.8

irqaff: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

irqaff.8: man/irqaff.8.scd
	$(SCDOC) < man/irqaff.8.scd > $@

asan/%.o: %.c
	@mkdir -p asan
	$(CC) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<

asan/irqaff: $(ASAN_OBJS)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(ASAN_OBJS) $(LDLIBS)

check: irqaff irqaff.8
	IRQAFF_BIN=$(CURDIR)/irqaff $(BATS) tests

asan: asan/irqaff irqaff.8
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1 \
	IRQAFF_BIN=$(CURDIR)/asan/irqaff $(BATS) tests

# libFuzzer harnesses over the pure layer. fuzz-run gives each a fixed
# budget.
fuzz/%: tests/fuzz/%.c tests/fuzz/common.c tests/fuzz/common.h $(PURE) \
    $(PURE:.c=.h)
	@mkdir -p fuzz
	$(FUZZCC) $(filter-out -MMD -MP,$(CFLAGS)) -I. -O1 -g \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $< tests/fuzz/common.c $(PURE) $(LDLIBS)

fuzz: $(FUZZERS)

fuzz-run: fuzz
	@set -e; for f in $(FUZZERS); do \
		n=$${f#fuzz/}; mkdir -p fuzz/corpus/$$n; \
		echo "== $$n ($(FUZZ_SECONDS) s)"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-artifact_prefix=fuzz/$$n- fuzz/corpus/$$n \
			tests/fuzz/corpus/$$n; \
	done

install: irqaff irqaff.8
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 0755 irqaff $(DESTDIR)$(SBINDIR)/irqaff
	install -m 0644 irqaff.8 $(DESTDIR)$(MANDIR)/man8/irqaff.8
	install -m 0644 completions/irqaff.bash $(DESTDIR)$(BASHCOMPDIR)/irqaff
	install -m 0644 completions/_irqaff $(DESTDIR)$(ZSHCOMPDIR)/_irqaff
	install -m 0644 completions/irqaff.fish \
		$(DESTDIR)$(FISHCOMPDIR)/irqaff.fish
	sed 's|@SBINDIR@|$(SBINDIR)|g' systemd/irqaff-restore.service.in \
		> $(DESTDIR)$(SYSTEMDUNITDIR)/irqaff-restore.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/irqaff-restore.service

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/irqaff $(DESTDIR)$(MANDIR)/man8/irqaff.8 \
		$(DESTDIR)$(BASHCOMPDIR)/irqaff $(DESTDIR)$(ZSHCOMPDIR)/_irqaff \
		$(DESTDIR)$(FISHCOMPDIR)/irqaff.fish \
		$(DESTDIR)$(SYSTEMDUNITDIR)/irqaff-restore.service

clean:
	rm -rf irqaff irqaff.8 $(OBJS) $(SRCS:.c=.d) asan fuzz

.PHONY: all check asan fuzz fuzz-run install uninstall clean
.DELETE_ON_ERROR:

-include $(SRCS:.c=.d) $(ASAN_OBJS:.o=.d)
