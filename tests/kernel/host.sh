# The host side of the real-kernel tier, sourced by tests/kernel/run and
# bench/quality/run: fetch Debian's kernels and busybox, cross-build irqaff,
# stage and pack an initramfs, boot one guest under qemu (TCG).
#
# Sets here (this folder), top, cache and timeout_s; the sourcing script
# defines qemu_args MACHINE (one argument a line) before boot. A boot is
# named MACHINE@KERNEL, or MACHINE alone for Debian 12's 6.1.
# shellcheck shell=bash
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${IRQAFF_KERNEL_CACHE:-$top/build/kernel}
timeout_s=${IRQAFF_KERNEL_TIMEOUT:-240}

say() { printf '%s\n' "$*"; }
note() { printf '# %s\n' "$*"; }

arch_of() { case $1 in arm64*) echo arm64 ;; *) echo amd64 ;; esac; }
kernel_of() { case $1 in *@*) echo "${1#*@}" ;; *) echo 6.1 ;; esac; }

# Debian's release of each kernel; KERNEL-rt is the same release's
# PREEMPT_RT kernel (linux-image-rt-ARCH).
suite_of() {	# KERNEL
	case $1 in
	5.10) echo bullseye ;;
	6.12|6.12-rt) echo trixie ;;
	*) echo bookworm ;;
	esac
}

# Where a kernel's package is unpacked, with its release in DIR/release.
kdir_of() {	# ARCH KERNEL
	echo "$cache/$1-$2"
}

# What a missing tool means: the boots of that architecture are skipped.
missing_for() {	# ARCH -> the first missing tool, or nothing
	local t
	local tools="cpio readelf dpkg apt-get timeout xz"
	case $1 in
	amd64) tools="$tools qemu-system-x86_64" ;;
	arm64) tools="$tools qemu-system-aarch64 aarch64-linux-gnu-gcc" ;;
	esac
	for t in $tools; do
		command -v "$t" >/dev/null 2>&1 || { echo "$t"; return; }
	done
	if [ "$1" = arm64 ] &&
	    [ ! -e /usr/lib/aarch64-linux-gnu/pkgconfig/libbsd-overlay.pc ]; then
		echo "libbsd-dev:arm64"
	fi
}

# Debian packages PKGs, from the host's apt, downloaded into DIR/deb and
# unpacked into DIR/root, never installed.
fetch_debs() {	# DIR PKG...
	local d=$1 f
	shift
	mkdir -p "$d/deb" || return 1
	# _apt cannot write to most checkouts: download in a private dir.
	(cd "$d/deb" && apt-get download -q "$@") >"$d/download.log" 2>&1 ||
		{ echo "apt-get download failed (see $d/download.log)"; return 1; }
	for f in "$d"/deb/*.deb; do
		dpkg -x "$f" "$d/root" || { echo "dpkg -x $f failed"; return 1; }
	done
}

# busybox-static for ARCH, from the host's release; the path of busybox.
# Debian 12 ships bin/busybox, 13 usr/bin/busybox (merged /usr).
busybox_of() {	# ARCH
	local f
	for f in "$cache/busybox-$1/root/bin/busybox" \
	    "$cache/busybox-$1/root/usr/bin/busybox"; do
		[ -x "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}
fetch_busybox() {	# ARCH
	local suffix=
	busybox_of "$1" >/dev/null && return 0
	[ "$1" = arm64 ] && suffix=:arm64
	rm -rf "$cache/busybox-$1"
	fetch_debs "$cache/busybox-$1" "busybox-static$suffix" || return 1
	busybox_of "$1" >/dev/null || { echo "busybox-static has no busybox"; return 1; }
}

# jq for ARCH with its libraries, from the host's release, unpacked into
# $cache/jq-ARCH, never installed: the scenarios run the man pages' jq
# examples. A guest without it skips them.
jq_of() {	# ARCH
	[ -x "$cache/jq-$1/root/usr/bin/jq" ] && echo "$cache/jq-$1/root/usr/bin/jq"
}
fetch_jq() {	# ARCH
	local suffix=
	jq_of "$1" >/dev/null && return 0
	[ "$1" = arm64 ] && suffix=:arm64
	rm -rf "$cache/jq-$1"
	fetch_debs "$cache/jq-$1" "jq$suffix" "libjq1$suffix" "libonig5$suffix" ||
		return 1
	jq_of "$1" >/dev/null || { echo "the jq package has no usr/bin/jq"; return 1; }
}

# Debian's kernel KERNEL for ARCH, from its own release whatever the host
# runs, with a private apt configuration under $cache/apt-SUITE-ARCH (its
# own sources.list naming the host's mirror, lists and cache; the host's
# apt is untouched), unpacked once into kdir_of ARCH KERNEL.
fetch_kernel() {	# ARCH KERNEL
	local a=$1 k=$2 suite d apt kpkg mirror meta=linux-image-$1
	suite=$(suite_of "$k")
	case $k in *-rt) meta=linux-image-rt-$a ;; esac
	d=$(kdir_of "$a" "$k")
	apt=$cache/apt-$suite-$a
	if [ -s "$d/release" ] && [ -e "$d/root/boot/vmlinuz-$(cat "$d/release")" ]; then
		return 0
	fi
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" \
		"$apt/parts" || return 1
	# the host's own Debian mirror, whatever apt is configured with
	# shellcheck disable=SC2016 # $(URI) is apt's, not the shell's
	mirror=$(apt-get indextargets --format '$(URI)' 2>/dev/null |
		sed -n 's|/dists/.*||p' | grep -v -- '-security$' | head -n 1)
	[ -n "$mirror" ] || { echo "no Debian mirror in the host's apt"; return 1; }
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
		>"$apt/sources.list"
	local o=(-o "Dir::Etc::sourcelist=$apt/sources.list"
		-o "Dir::Etc::sourceparts=$apt/parts"
		-o "Dir::State::lists=$apt/lists" -o "Dir::Cache=$apt/cache"
		-o APT::Architecture="$a" -o APT::Architectures="$a"
		-o Acquire::Languages=none)
	apt-get -q "${o[@]}" update >"$apt/update.log" 2>&1 ||
		{ echo "apt-get update for $suite failed (see $apt/update.log)"; return 1; }
	kpkg=$(apt-cache "${o[@]}" depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\).*/\1/p' | head -n 1)
	[ -n "$kpkg" ] || { echo "no $meta in $suite"; return 1; }
	rm -rf "$d" && mkdir -p "$d/deb" || return 1
	(cd "$d/deb" && apt-get -q "${o[@]}" download "$kpkg") \
		>"$d/download.log" 2>&1 ||
		{ echo "apt-get download failed (see $d/download.log)"; return 1; }
	dpkg -x "$d"/deb/*.deb "$d/root" || { echo "dpkg -x failed"; return 1; }
	echo "${kpkg#linux-image-}" >"$d/release"
}

# irqaff for ARCH: the tree's own for amd64; for arm64 a cross build in a
# copy of the sources, so the tree's objects stay the host's.
build_irqaff() {	# ARCH -> path
	if [ "$1" = amd64 ]; then
		[ -x "$top/irqaff" ] || make -C "$top" irqaff >&2 || return 1
		echo "$top/irqaff"
		return
	fi
	local src=$cache/arm64/src
	mkdir -p "$src"
	# cp -p: an unchanged source keeps its time, so its object stays; the
	# floors are the folders the Makefile builds from.
	(cd "$top" && cp -pR Makefile ./*.c ./*.h lib core cmd "$src/") || return 1
	make -C "$src" CC=aarch64-linux-gnu-gcc \
		PKG_CONFIG="env PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config" \
		irqaff >"$cache/arm64/build.log" 2>&1 ||
		{ sed "s/^/#   /" "$cache/arm64/build.log" >&2; return 1; }
	echo "$src/irqaff"
}

# A kernel's modules directory: lib/modules, or usr/lib/modules where
# the package is merged-/usr (Debian 13).
mods_of() {	# KDIR
	local rel
	rel=$(cat "$1/release")
	if [ -d "$1/root/lib/modules/$rel" ]; then
		echo "$1/root/lib/modules/$rel"
	else
		echo "$1/root/usr/lib/modules/$rel"
	fi
}

# A module, uncompressed (Debian 13's are .ko.xz), on stdout.
module_cat() {	# PATH
	case $1 in *.xz) xz -dc "$1" ;; *) cat "$1" ;; esac
}

# The modules NAMEs need, dependencies first, as paths under the modules
# directory; a module built in is none.
module_order() {	# KDIR NAME...
	local mods
	mods=$(mods_of "$1")
	shift
	local -A path=() seen=()
	local f b
	while read -r f; do
		b=${f##*/}; b=${b%.xz}; b=${b%.ko}; path[${b//-/_}]=$f
	done < <(find "$mods/kernel" -name '*.ko' -o -name '*.ko.xz')
	visit() {
		local m=${1//-/_} d
		[ -n "${seen[$m]:-}" ] && return
		seen[$m]=1
		[ -n "${path[$m]:-}" ] || return 0	# built in
		for d in $(module_cat "${path[$m]}" | tr '\0' '\n' |
		    sed -n 's/^depends=//p' | head -n 1 | tr ',' ' '); do
			visit "$d"
		done
		echo "${path[$m]}"
	}
	for f in "$@"; do visit "$f"; done
}

# Shared libraries FILE needs, found in DIRs, with the interpreter, copied
# to DEST/DIR. With $libroot set, ROOT/DIR is looked in first (packages
# unpacked there).
copy_libs() {	# FILE DEST DIR...
	local file=$1 dest=$2 r
	shift 2
	local -A seen=()
	local queue=("$file") f lib d interp
	interp=$(readelf -l "$file" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
	if [ -n "$interp" ]; then
		mkdir -p "$dest${interp%/*}"
		for d in "$@"; do
			[ -e "$d/${interp##*/}" ] &&
				{ cp -L "$d/${interp##*/}" "$dest$interp"; break; }
		done
	fi
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]}; queue=("${queue[@]:1}")
		for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			[ -n "${seen[$lib]:-}" ] && continue
			seen[$lib]=1
			for d in "$@"; do
				for r in ${libroot:+"$libroot"} ''; do
					[ -e "$r$d/$lib" ] || continue
					mkdir -p "$dest$d"
					cp -L "$r$d/$lib" "$dest$d/$lib"
					queue+=("$r$d/$lib")
					break 2
				done
			done
			[ -e "$dest$d/$lib" ] || { echo "library $lib not found" >&2; return 1; }
		done
	done
}

# The scenarios into DIR: all, or those IRQAFF_KERNEL_SCENARIOS names
# (comma-separated beginnings of their file names, "85" or "85-system").
copy_scenarios() {	# DIR
	local f w want=${IRQAFF_KERNEL_SCENARIOS:-} keep
	for f in "$here"/scenarios/*.sh; do
		keep=${want:+no}
		for w in ${want//,/ }; do
			case ${f##*/} in "$w"*) keep= ;; esac
		done
		[ -z "$keep" ] || continue
		cp "$f" "$1/" || return 1
	done
	[ -n "$(ls "$1")" ] || { note "no scenario begins with $IRQAFF_KERNEL_SCENARIOS"; return 1; }
}

pack_initrd() {	# DIR FILE
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$2"
}

# The initramfs's files in DIR for ARCH's KERNEL: busybox, irqaff, jq
# when fetched, libraries, modules (uncompressed: busybox's insmod reads no
# .xz), /init, the assertion library, the scenarios and the man pages'
# sources (their examples).
stage_initrd() {	# ARCH KERNEL IRQAFF DIR
	local a=$1 bin=$3 s=$4 d rel libdirs wanted
	d=$(kdir_of "$a" "$2")
	rel=$(cat "$d/release")
	rm -rf "$s" && mkdir -p "$s"/{bin,sbin,proc,sys,dev,tmp,run,lib/modules,scenarios,man} || return 1
	cp "$(busybox_of "$a")" "$s/bin/busybox" || return 1
	cp "$bin" "$s/bin/irqaff"
	cp "$here/init" "$s/init"
	cp "$here/lib.sh" "$s/lib.sh"
	copy_scenarios "$s/scenarios" || return 1
	cp "$top"/man/*.scd "$s/man/" || return 1
	chmod 0755 "$s/init" "$s/bin/irqaff"
	case $a in
	amd64)
		libdirs="/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu"
		wanted="virtio_pci virtio_blk virtio_net virtio_console nvme e1000e" ;;
	arm64)
		libdirs="/usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu"
		wanted="virtio_pci virtio_blk virtio_net virtio_console nvme" ;;
	esac
	# shellcheck disable=SC2086
	copy_libs "$bin" "$s" $libdirs || return 1
	if jq_of "$a" >/dev/null; then
		cp "$(jq_of "$a")" "$s/bin/jq" || return 1
		# shellcheck disable=SC2086
		libroot=$cache/jq-$a/root copy_libs "$s/bin/jq" "$s" $libdirs ||
			return 1
	fi
	local m b
	# shellcheck disable=SC2086
	for m in $(module_order "$d" $wanted); do
		b=${m##*/}; b=${b%.xz}
		module_cat "$m" >"$s/lib/modules/$b" || return 1
		echo "$b" >>"$s/lib/modules/order"
	done
	cp "$d/root/boot/config-$rel" "$s/config"
}

# The initramfs for ARCH's KERNEL, beside the kernel: KDIR/initrd.
build_initrd() {	# ARCH KERNEL IRQAFF
	local d
	d=$(kdir_of "$1" "$2")
	stage_initrd "$1" "$2" "$3" "$d/initrd.d" &&
		pack_initrd "$d/initrd.d" "$d/initrd"
}

# Boot BOOT, leave its console in $cache/log/BOOT.log. The caller may set
# boot_initrd (another initramfs), boot_logdir and boot_prefix (an array:
# a command qemu runs under, such as ip netns exec NS).
boot() {	# BOOT MODE
	local b=$1 mode=$2 a k qemu console extra=() append='' line kd
	local machine=${1%@*}
	a=$(arch_of "$b")
	k=$(kernel_of "$b")
	kd=$(kdir_of "$a" "$k")
	case $a in
	amd64) qemu=qemu-system-x86_64 console=ttyS0 ;;
	arm64) qemu=qemu-system-aarch64 console=ttyAMA0 ;;
	esac
	# 6.12 under TCG: "Oops: int3" in sched_clock_cpu(), whose static key
	# late_initcall sched_clock_init_late() flips as the other CPUs run
	# it. With the TSC unstable from the start that key is never flipped.
	case $a@$k in amd64@6.12|amd64@6.12-rt) append=" tsc=unstable" ;; esac
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		case $line in
		"-append "*) append="$append ${line#-append }" ;;
		*) read -ra words <<<"$line"; extra+=("${words[@]}") ;;
		esac
	done < <(qemu_args "$machine")
	local logdir=${boot_logdir:-$cache/log}
	mkdir -p "$logdir"
	local log=$logdir/$b.log start end
	start=$(date +%s)
	timeout -k 10 "$timeout_s" ${boot_prefix[@]+"${boot_prefix[@]}"} \
		"$qemu" -accel tcg -nodefaults -display none \
		-no-reboot -serial "file:$log" \
		-kernel "$kd/root/boot/vmlinuz-$(cat "$kd/release")" \
		-initrd "${boot_initrd:-$kd/initrd}" \
		-append "console=$console panic=-1 quiet loglevel=3 irqaff_boot=$machine irqaff_mode=$mode$append ${IRQAFF_KERNEL_APPEND:-}" \
		"${extra[@]}" >"$logdir/$b.qemu" 2>&1
	local rc=$?
	end=$(date +%s)
	# shellcheck disable=SC2034 # read by the caller
	boot_seconds=$((end - start))
	[ $rc = 124 ] && note "$b: timed out after ${timeout_s}s"
	return $rc
}
