PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
# The interface hooks go where ifupdown, networkd-dispatcher and
# NetworkManager look, under /etc whatever PREFIX is: ifupdown reads only
# /etc/network.
SYSCONFDIR ?= /etc
HOOKS = network/if-up.d/irqaff networkd-dispatcher/configured.d/irqaff \
	NetworkManager/dispatcher.d/90-irqaff

# Each completion goes where its shell looks without being told, for
# PREFIX=/usr (a package) and PREFIX=/usr/local (an administrator's
# install) alike; BASHCOMPDIR=, ZSHCOMPDIR= and FISHCOMPDIR= on the command
# line override the rules below.
# bash-completion and fish name their directory in a .pc file; zsh has
# none. $(call compdir,PKG,ARGS,DEFAULT) is PKG's completionsdir, or
# DEFAULT when pkg-config, PKG or the variable is missing. Each DEFAULT is
# what Debian's .pc file answers, so on Debian an install lays out the same
# files whether or not the shells are installed.
compdir = $(strip $(or $(shell $(PKG_CONFIG) $(2) \
	--variable=completionsdir $(1) 2>/dev/null),$(3)))
# ARGS for the .pc file's directory moved from the shell's prefix to ours.
ourprefix = --define-variable=prefix=$(PREFIX) \
	--define-variable=datadir=$(DATADIR)

# bash-completion reads DIR/bash-completion/completions for each DIR in
# $XDG_DATA_DIRS (/usr/local/share:/usr/share when unset) and in
# $XDG_DATA_HOME (~/.local/share): so, for any PREFIX, the one under
# DATADIR.
BASHCOMPDIR ?= $(call compdir,bash-completion,$(ourprefix),\
	$(DATADIR)/bash-completion/completions)

# zsh: Debian and Ubuntu leave /usr/share/zsh/site-functions out of fpath
# and give packages /usr/share/zsh/vendor-completions; their zsh, like
# upstream's, reads /usr/local/share/zsh/site-functions. So PREFIX=/usr
# means vendor-completions (packagers for other distributions pass
# ZSHCOMPDIR=/usr/share/zsh/site-functions), and any other PREFIX
# upstream's site-functions under DATADIR (outside /usr/local, a user adds
# it to fpath).
ifeq ($(PREFIX),/usr)
ZSHCOMPDIR ?= $(DATADIR)/zsh/vendor-completions
else
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
endif

# fish reads its own vendor directory, the one its .pc file names, and
# DIR/fish/vendor_completions.d for each DIR in $XDG_DATA_HOME and
# $XDG_DATA_DIRS; but with XDG_DATA_DIRS unset (a console or ssh login) it
# reads none under /usr/local (fish 3.6; fish-shell issue 11349). So
# PREFIX=/usr/local means fish's own directory, outside PREFIX, as its .pc
# file gives it; any other PREFIX the one under DATADIR, which is fish's
# own for /usr and read for ~/.local.
ifeq ($(PREFIX),/usr/local)
FISHCOMPDIR ?= $(call compdir,fish,,/usr/share/fish/vendor_completions.d)
else
FISHCOMPDIR ?= $(call compdir,fish,$(ourprefix),\
	$(DATADIR)/fish/vendor_completions.d)
endif

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

SRCS = apply.c bootargs.c cli.c columns.c convert.c cpus.c cpuset.c default.c \
	explain.c findings.c interrupts.c irqaff.c irqbalance.c irqinfo.c \
	irqsel.c isolate.c isolation.c machine.c netqueue.c procfs.c \
	queuename.c queues.c restore.c save.c select.c set.c show.c \
	snapline.c snapshot.c spread.c text.c xalloc.c xps.c
# The pure layer: no I/O, no printing; what the fuzzers link.
PURE = bootargs.c cpuset.c interrupts.c irqsel.c queuename.c snapline.c \
	text.c
OBJS = $(SRCS:.c=.o)
ASAN_OBJS = $(SRCS:%.c=asan/%.o)
FUZZERS = $(patsubst tests/fuzz/%.c,fuzz/%,$(wildcard tests/fuzz/fuzz_*.c)) \
	fuzz/fuzz_interrupts_swar

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

# The tests' fault injector: write(2) failing for chosen files.
tests/fault.so: tests/fault/fault.c
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) -shared -fPIC -o $@ $< -ldl

check: irqaff irqaff.8 tests/fault.so
	IRQAFF_BIN=$(CURDIR)/irqaff $(BATS) tests

# Debian 12's kernels under qemu (TCG) with scenarios inside the guests;
# tests/kernel/README.md. Skips, exit 0, where qemu is missing.
check-kernel: irqaff
	tests/kernel/run

asan: asan/irqaff irqaff.8 tests/fault.so
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

# The portable word-wise count summing, which an x86 build never takes:
# the same harness and corpus with __SSE2__ unset.
fuzz/fuzz_interrupts_swar: tests/fuzz/fuzz_interrupts.c tests/fuzz/common.c \
    tests/fuzz/common.h $(PURE) $(PURE:.c=.h)
	@mkdir -p fuzz
	$(FUZZCC) $(filter-out -MMD -MP,$(CFLAGS)) -I. -O1 -g -U__SSE2__ \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $< tests/fuzz/common.c $(PURE) $(LDLIBS)

fuzz: $(FUZZERS)

fuzz-run: fuzz
	@set -e; for f in $(FUZZERS); do \
		n=$${f#fuzz/}; mkdir -p fuzz/corpus/$$n; \
		echo "== $$n ($(FUZZ_SECONDS) s)"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-artifact_prefix=fuzz/$$n- fuzz/corpus/$$n \
			tests/fuzz/corpus/$${n%_swar}; \
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
	for h in $(HOOKS); do \
		install -d $(DESTDIR)$(SYSCONFDIR)/$${h%/*} && \
		sed 's|@SBINDIR@|$(SBINDIR)|g' hooks/irqaff-ifup.in \
			> $(DESTDIR)$(SYSCONFDIR)/$$h && \
		chmod 0755 $(DESTDIR)$(SYSCONFDIR)/$$h || exit 1; \
	done

# Removes exactly the files install put, given the same variables; the
# directories stay, as other packages share them.
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/irqaff $(DESTDIR)$(MANDIR)/man8/irqaff.8 \
		$(DESTDIR)$(BASHCOMPDIR)/irqaff $(DESTDIR)$(ZSHCOMPDIR)/_irqaff \
		$(DESTDIR)$(FISHCOMPDIR)/irqaff.fish \
		$(DESTDIR)$(SYSTEMDUNITDIR)/irqaff-restore.service
	rm -f $(HOOKS:%=$(DESTDIR)$(SYSCONFDIR)/%)

clean:
	rm -rf irqaff irqaff.8 $(OBJS) $(SRCS:.c=.d) asan fuzz tests/fault.so

.PHONY: all check check-kernel asan fuzz fuzz-run install uninstall clean
.DELETE_ON_ERROR:

-include $(SRCS:.c=.d) $(ASAN_OBJS:.o=.d)
