# The one place the version is kept: irqaff --version, the man pages and
# debian/changelog agree with it (tests/package/version.bats).
VERSION = 0.1.0

PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
# The systemd units, each made from systemd/NAME.in: the boot units, and
# the balance timer with its service (installed, not enabled).
SERVICES = irqaff-restore.service irqaff-isolate.service \
	irqaff-balance.service irqaff-balance.timer irqaff-hotplug.service
# CPU hotplug: a udev rule that starts irqaff-hotplug.service, which runs
# hooks/irqaff-cpu.in, installed as LIBEXECDIR/irqaff/cpu-hotplug. udev
# reads rules under /usr/local/lib too.
LIBEXECDIR ?= $(PREFIX)/libexec
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# The interface hooks go where ifupdown, networkd-dispatcher and
# NetworkManager look, under /etc whatever PREFIX is: ifupdown reads only
# /etc/network.
SYSCONFDIR ?= /etc
HOOKS = network/if-up.d/irqaff networkd-dispatcher/configured.d/irqaff \
	NetworkManager/dispatcher.d/90-irqaff
# The JSON schemas of the -J outputs (irqaff(8), JSON RESULTS).
SCHEMADIR ?= $(DATADIR)/irqaff/schemas
SCHEMAS = balance check cpus default explain isolate isolate-check \
	queue-result queues restore result show

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

# The floors, bottom up: parse.c and lib/ are pure (no I/O, no printing:
# what the fuzzers link), procfs.c makes every file-system call, core/ is
# the machine as the kernel shows it, cmd/ the commands and their kit.
PURE = parse.c $(sort $(wildcard lib/*.c))
SRCS = $(PURE) procfs.c $(sort $(wildcard core/*.c)) \
	$(sort $(wildcard cmd/*.c)) irqaff.c
B = build
OBJS = $(SRCS:%.c=$(B)/%.o)
ASAN_OBJS = $(SRCS:%.c=$(B)/asan/%.o)
FUZZERS = $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c)) \
	$(B)/fuzz/fuzz_interrupts_swar
CPPFLAGS += -I. -DIRQAFF_VERSION='"$(VERSION)"'

# The man pages: irqaff(8), the overview, at the top; one page for each
# command, irqaff-COMMAND(8), and irqaff.conf(5) in $(B).
CMDPAGES = $(patsubst man/%.scd,$(B)/%,$(wildcard man/irqaff-*.8.scd))
MANPAGES = irqaff.8 $(CMDPAGES) $(B)/irqaff.conf.5

all: irqaff man

man: $(MANPAGES)

irqaff: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

# scdoc writes tables (tbl(1) input) but not the first line '\" t that
# asks man and lintian to run tbl: without it lintian warns "tbl
# preprocessor failed".
MANPAGE = { printf '%s\n' "'\\\" t"; \
	sed 's/@VERSION@/$(VERSION)/' $< | $(SCDOC); } > $@

irqaff.8: man/irqaff.8.scd Makefile
	$(MANPAGE)

$(B)/irqaff.conf.5: man/irqaff.conf.5.scd Makefile
	@mkdir -p $(@D)
	$(MANPAGE)

$(B)/irqaff-%.8: man/irqaff-%.8.scd Makefile
	@mkdir -p $(@D)
	$(MANPAGE)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The version is compiled into irqaff.o.
$(B)/irqaff.o $(B)/asan/irqaff.o: Makefile

$(B)/asan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(B)/asan/irqaff: $(ASAN_OBJS)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(ASAN_OBJS) $(LDLIBS)

# The tests' fault injector: write(2) failing for chosen files.
$(B)/fault.so: tests/fault/fault.c
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) -shared -fPIC -o $@ $< -ldl

# C tests of the floors below the commands (tests/unit/*.c), each
# linked with every object but main's.
UNITS = $(patsubst tests/unit/%.c,$(B)/unit/%,$(wildcard tests/unit/*.c))
$(B)/unit/%: tests/unit/%.c $(filter-out $(B)/irqaff.o,$(OBJS))
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(filter-out -MMD -MP,$(CFLAGS)) $(LDFLAGS) -o $@ \
		$^ $(LDLIBS)

# The tests run side by side, JOBS at a time in each file and JOBS files
# at a time (bats --jobs, which needs GNU parallel; JOBS=1 runs them one
# after the other), so that a long file never holds the short ones up:
# each test has its own trees, and a file whose tests share state says so
# (BATS_NO_PARALLELIZE_WITHIN_FILE). Everything make install reads is
# built first, so that install.bats's make builds nothing. The trees go
# to TESTTMP, /dev/shm where it is a tmpfs with 4 GB free (the suite
# writes about a million small files, ten times dearer on a disk), else
# TMPDIR or /tmp. The wall time is printed last: tests/README.md keeps
# the measured one.
JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 2 )))
BATS_JOBS = $(if $(filter-out 1,$(JOBS)),--jobs $(JOBS))
TESTTMP ?= $(shell d=/dev/shm; [ -d $$d ] && [ -w $$d ] && \
	[ "$$(stat -f -c %T $$d 2>/dev/null)" = tmpfs ] && \
	[ "$$(df -Pk $$d | awk 'NR == 2 { print $$4 }')" -gt 4194304 ] && \
	echo $$d)
BATS_ENV = $(if $(TESTTMP),TMPDIR=$(TESTTMP))
# The groups of tests/, each a floor of the code (tests/README.md); make
# check GROUP=core runs one (bats tests/core does too).
GROUP ?= parse core commands package harness
# Tests tagged valgrind:full (most of commands/valgrind.bats) are make
# check-valgrind's: make check runs that file's four representative ones.
CHECK_TAGS = --filter-tags '!valgrind:full'

check: irqaff $(MANPAGES) $(B)/fault.so $(UNITS)
	@start=$$(date +%s); rc=0; \
	( set -x; tests/layers && \
	for u in $(UNITS); do $$u || exit; done && \
	$(BATS_ENV) IRQAFF_BIN=$(CURDIR)/irqaff $(BATS) $(BATS_JOBS) \
		$(CHECK_TAGS) $(addprefix tests/,$(GROUP)) ) || rc=$$?; \
	echo "make check: $$(( $$(date +%s) - start )) s wall," \
		"trees in $(or $(TESTTMP),$${TMPDIR:-/tmp})," \
		"JOBS=$(JOBS), status $$rc"; exit $$rc

# Every command under valgrind (commands/valgrind.bats whole); CI runs it
# after make check.
check-valgrind: irqaff $(B)/fault.so
	$(BATS_ENV) IRQAFF_BIN=$(CURDIR)/irqaff $(BATS) $(BATS_JOBS) \
		tests/commands/valgrind.bats

# make check ROUNDS times in a row with every core busy (stress-ng in
# the background, stopped at the end), to shake out tests that depend on
# timing: stops at the first failing round and says which. Not in CI.
ROUNDS ?= 10
check-stress: irqaff $(MANPAGES) $(B)/fault.so $(UNITS)
	@command -v stress-ng >/dev/null || \
		{ echo "check-stress: stress-ng is not installed" >&2; exit 1; }
	@stress-ng --cpu $$(nproc) --quiet & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null' EXIT INT TERM; \
	i=0; while [ $$i -lt $(ROUNDS) ]; do \
		i=$$((i + 1)); echo "== check-stress: round $$i of $(ROUNDS)"; \
		if ! $(MAKE) --no-print-directory check; then \
			echo "check-stress: round $$i of $(ROUNDS) failed"; exit 1; \
		fi; \
	done; echo "check-stress: $(ROUNDS) of $(ROUNDS) rounds passed"

# Debian 12's kernels under qemu (TCG) with scenarios inside the guests;
# tests/kernel/README.md. Skips, exit 0, where qemu is missing.
check-kernel: irqaff
	tests/kernel/run

# How well balance places IRQs on a booted kernel beside spread and
# irqbalance (bench/README.md): root, qemu, about 15 minutes; not a test.
# BENCH_IRQAFF=PATH measures another irqaff binary.
bench-quality: irqaff
	bench/quality/run $(if $(BENCH_IRQAFF),-b $(BENCH_IRQAFF))

# Every sanitizer report goes to a file under $(B)/asan/log as well as
# failing its test: a test's stderr is often captured and not shown, and a
# report (LeakSanitizer's own fatal errors included) must never go unread.
ASAN_LOG = $(CURDIR)/$(B)/asan/log
asan: $(B)/asan/irqaff $(MANPAGES) $(B)/fault.so
	@rm -rf $(ASAN_LOG) && mkdir -p $(ASAN_LOG)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:log_path=$(ASAN_LOG)/asan \
	UBSAN_OPTIONS=print_stacktrace=1:log_path=$(ASAN_LOG)/ubsan \
	$(BATS_ENV) IRQAFF_BIN=$(CURDIR)/$(B)/asan/irqaff $(BATS) $(BATS_JOBS) \
		$(addprefix tests/,$(GROUP)); rc=$$?; \
	for f in $(ASAN_LOG)/*; do [ -e "$$f" ] || continue; \
		echo "asan: report $$f:"; cat "$$f"; rc=1; done; exit $$rc

# libFuzzer harnesses over the pure layer. fuzz-run gives each a fixed
# budget.
$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/common.c tests/fuzz/common.h $(PURE) \
    $(PURE:.c=.h)
	@mkdir -p $(@D)
	$(FUZZCC) $(CPPFLAGS) $(filter-out -MMD -MP,$(CFLAGS)) -O1 -g \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $< tests/fuzz/common.c $(PURE) $(LDLIBS)

# The portable word-wise count summing, which an x86 build never takes:
# the same harness and corpus with __SSE2__ unset.
$(B)/fuzz/fuzz_interrupts_swar: tests/fuzz/fuzz_interrupts.c \
    tests/fuzz/common.c tests/fuzz/common.h $(PURE) $(PURE:.c=.h)
	@mkdir -p $(@D)
	$(FUZZCC) $(CPPFLAGS) $(filter-out -MMD -MP,$(CFLAGS)) -O1 -g \
		-U__SSE2__ \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $< tests/fuzz/common.c $(PURE) $(LDLIBS)

fuzz: $(FUZZERS)

fuzz-run: fuzz
	@set -e; for f in $(FUZZERS); do \
		n=$${f##*/}; mkdir -p $(B)/fuzz/corpus/$$n; \
		echo "== $$n ($(FUZZ_SECONDS) s)"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-artifact_prefix=$(B)/fuzz/$$n- $(B)/fuzz/corpus/$$n \
			tests/fuzz/corpus/$${n%_swar}; \
	done

install: irqaff $(MANPAGES)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR) \
		$(DESTDIR)$(LIBEXECDIR)/irqaff $(DESTDIR)$(UDEVRULESDIR) \
		$(DESTDIR)$(SCHEMADIR)
	install -m 0755 irqaff $(DESTDIR)$(SBINDIR)/irqaff
	install -m 0644 irqaff.8 $(CMDPAGES) $(DESTDIR)$(MANDIR)/man8
	install -m 0644 $(B)/irqaff.conf.5 \
		$(DESTDIR)$(MANDIR)/man5/irqaff.conf.5
	install -m 0644 completions/irqaff.bash $(DESTDIR)$(BASHCOMPDIR)/irqaff
	install -m 0644 completions/_irqaff $(DESTDIR)$(ZSHCOMPDIR)/_irqaff
	install -m 0644 completions/irqaff.fish \
		$(DESTDIR)$(FISHCOMPDIR)/irqaff.fish
	for u in $(SERVICES); do \
		sed -e 's|@SBINDIR@|$(SBINDIR)|g' \
			-e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' systemd/$$u.in \
			> $(DESTDIR)$(SYSTEMDUNITDIR)/$$u && \
		chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$u || exit 1; \
	done
	for h in $(HOOKS); do \
		install -d $(DESTDIR)$(SYSCONFDIR)/$${h%/*} && \
		sed 's|@SBINDIR@|$(SBINDIR)|g' hooks/irqaff-ifup.in \
			> $(DESTDIR)$(SYSCONFDIR)/$$h && \
		chmod 0755 $(DESTDIR)$(SYSCONFDIR)/$$h || exit 1; \
	done
	sed 's|@SBINDIR@|$(SBINDIR)|g' hooks/irqaff-cpu.in \
		> $(DESTDIR)$(LIBEXECDIR)/irqaff/cpu-hotplug
	chmod 0755 $(DESTDIR)$(LIBEXECDIR)/irqaff/cpu-hotplug
	install -m 0644 udev/60-irqaff-cpu.rules $(DESTDIR)$(UDEVRULESDIR)
	install -m 0644 $(SCHEMAS:%=schemas/%.json) $(DESTDIR)$(SCHEMADIR)
	install -d $(DESTDIR)$(SYSCONFDIR)/default
	test -e $(DESTDIR)$(SYSCONFDIR)/default/irqaff || \
		install -m 0644 debian/irqaff.default \
		$(DESTDIR)$(SYSCONFDIR)/default/irqaff
	@echo "irqaff: installed; to restore the saved layout at boot run" \
		"systemctl daemon-reload and systemctl enable" \
		"irqaff-restore.service irqaff-isolate.service"

# Removes exactly the files install put, given the same variables; the
# directories stay, as other packages share them, but for irqaff's own
# under LIBEXECDIR and DATADIR. SYSCONFDIR/default/irqaff (the units'
# settings, every line commented) goes only as install put it: install
# keeps one that is there, uninstall one that was edited.
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/irqaff $(DESTDIR)$(MANDIR)/man8/irqaff.8 \
		$(CMDPAGES:$(B)/%=$(DESTDIR)$(MANDIR)/man8/%) \
		$(DESTDIR)$(MANDIR)/man5/irqaff.conf.5 \
		$(DESTDIR)$(BASHCOMPDIR)/irqaff $(DESTDIR)$(ZSHCOMPDIR)/_irqaff \
		$(DESTDIR)$(FISHCOMPDIR)/irqaff.fish \
		$(SERVICES:%=$(DESTDIR)$(SYSTEMDUNITDIR)/%)
	rm -f $(HOOKS:%=$(DESTDIR)$(SYSCONFDIR)/%) \
		$(DESTDIR)$(LIBEXECDIR)/irqaff/cpu-hotplug \
		$(DESTDIR)$(UDEVRULESDIR)/60-irqaff-cpu.rules \
		$(SCHEMAS:%=$(DESTDIR)$(SCHEMADIR)/%.json)
	! cmp -s debian/irqaff.default $(DESTDIR)$(SYSCONFDIR)/default/irqaff || \
		rm -f $(DESTDIR)$(SYSCONFDIR)/default/irqaff
	rmdir $(DESTDIR)$(LIBEXECDIR)/irqaff 2>/dev/null || true
	rmdir $(DESTDIR)$(SCHEMADIR) $(DESTDIR)$(SCHEMADIR)/.. 2>/dev/null || true

# The Debian package, built from a copy of this tree in $(B)/deb: the
# .deb lands there, not in the parent directory.
deb:
	rm -rf $(B)/deb
	mkdir -p $(B)/deb/irqaff
	tar -c --exclude=./build --exclude=./.git . | tar -x -C $(B)/deb/irqaff
	cd $(B)/deb/irqaff && dpkg-buildpackage -us -uc -b

# Builds the package, runs lintian, installs it on this machine, checks
# it and purges it (root; skips where dpkg-buildpackage is missing).
check-deb:
	$(BATS) tests/deb

# Debian 13 in a chroot made with debootstrap: the README's set-up line,
# .ci/run's install step, check and check-deb (root; tests/trixie/run).
check-trixie:
	tests/trixie/run

# build/kernel holds make check-kernel's downloads (130 MB) and
# build/trixie check-trixie's Debian 13 root and packages (2 GB); both
# stay: rm -rf either fetches it again.
clean:
	rm -rf irqaff irqaff.8 $(filter-out $(B)/kernel $(B)/trixie $(B)/trixie.%, \
		$(wildcard $(B)/*))

.PHONY: all man check check-valgrind check-stress check-deb check-kernel check-trixie bench-quality asan fuzz \
	fuzz-run install uninstall \
	clean deb
.DELETE_ON_ERROR:

-include $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d)
