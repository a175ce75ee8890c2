# The host side of the real-kernel tier, sourced by tests/kernel/run and
# bench/quality/run: fetch Debian's packages, build and pack an initramfs,
# boot one guest under qemu (TCG).
#
# Sets here (this folder), top, cache and timeout_s; the sourcing script
# defines qemu_args BOOT (the machine, one argument a line) before boot.
# shellcheck shell=bash
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${IRQAFF_KERNEL_CACHE:-$top/build/kernel}
timeout_s=${IRQAFF_KERNEL_TIMEOUT:-240}

say() { printf '%s\n' "$*"; }
note() { printf '# %s\n' "$*"; }

arch_of() { case $1 in arm64*) echo arm64 ;; *) echo amd64 ;; esac; }

# What a missing tool means: the boots of that architecture are skipped.
missing_for() {	# ARCH -> the first missing tool, or nothing
	local t
	local tools="cpio readelf dpkg timeout"
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

# Debian's kernel and busybox-static for ARCH, unpacked once into
# $cache/ARCH/root; the kernel release is in $cache/ARCH/release.
fetch_packages() {	# ARCH
	local a=$1 d=$cache/$1 kpkg suffix=
	[ "$a" = arm64 ] && suffix=:arm64
	if [ -s "$d/release" ] && [ -d "$d/root/lib/modules/$(cat "$d/release")" ] &&
	    [ -x "$d/root/bin/busybox" ]; then
		return 0
	fi
	command -v apt-get >/dev/null || { echo "apt-get missing"; return 1; }
	kpkg=$(apt-cache depends "linux-image-$a$suffix" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\).*/\1/p' | head -n 1)
	[ -n "$kpkg" ] || { echo "no linux-image-$a$suffix in apt (apt-get update?)"; return 1; }
	rm -rf "$d"
	fetch_debs "$d" "$kpkg$suffix" "busybox-static$suffix" || return 1
	echo "${kpkg#linux-image-}" >"$d/release"
}

# Debian packages PKGs downloaded into DIR/deb and unpacked into DIR/root,
# never installed.
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

# The modules NAMEs need, dependencies first, as paths under lib/modules.
module_order() {	# ARCH NAME...
	local mods
	mods=$cache/$1/root/lib/modules/$(cat "$cache/$1/release")
	shift
	local -A path=() seen=()
	local f b
	while read -r f; do
		b=${f##*/}; b=${b%.ko}; path[${b//-/_}]=$f
	done < <(find "$mods/kernel" -name '*.ko')
	visit() {
		local m=${1//-/_} d
		[ -n "${seen[$m]:-}" ] && return
		seen[$m]=1
		[ -n "${path[$m]:-}" ] || return 0	# built in
		for d in $(tr '\0' '\n' <"${path[$m]}" |
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

# The initramfs for ARCH, $cache/ARCH/initrd: busybox, irqaff, libraries,
# modules, /init, the assertion library and the scenarios.
build_initrd() {	# ARCH IRQAFF
	stage_initrd "$1" "$2" "$cache/$1/initrd.d" &&
		pack_initrd "$cache/$1/initrd.d" "$cache/$1/initrd"
}

pack_initrd() {	# DIR FILE
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$2"
}

# The initramfs's files in DIR.
stage_initrd() {	# ARCH IRQAFF DIR
	local a=$1 bin=$2 d=$cache/$1 s=$3
	local rel libdirs wanted
	rel=$(cat "$d/release")
	rm -rf "$s" && mkdir -p "$s"/{bin,sbin,proc,sys,dev,tmp,run,lib/modules,scenarios} || return 1
	cp "$d/root/bin/busybox" "$s/bin/busybox"
	cp "$bin" "$s/bin/irqaff"
	cp "$here/init" "$s/init"
	cp "$here/lib.sh" "$s/lib.sh"
	cp "$here"/scenarios/*.sh "$s/scenarios/"
	chmod 0755 "$s/init" "$s/bin/irqaff"
	case $a in
	amd64)
		libdirs="/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu"
		wanted="virtio_pci virtio_blk virtio_net nvme e1000e" ;;
	arm64)
		libdirs="/usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu"
		wanted="virtio_pci virtio_blk virtio_net nvme" ;;
	esac
	# shellcheck disable=SC2086
	copy_libs "$bin" "$s" $libdirs || return 1
	local m
	# shellcheck disable=SC2086
	for m in $(module_order "$a" $wanted); do
		cp "$m" "$s/lib/modules/"
		echo "${m##*/}" >>"$s/lib/modules/order"
	done
	cp "$d/root/boot/config-$rel" "$s/config"
}

# Boot BOOT, leave its console in $cache/log/BOOT.log. The caller may set
# boot_initrd (another initramfs), boot_logdir and boot_prefix (an array:
# a command qemu runs under, such as ip netns exec NS).
boot() {	# BOOT MODE
	local b=$1 mode=$2 a qemu console extra=() append='' line
	a=$(arch_of "$b")
	case $a in
	amd64) qemu=qemu-system-x86_64 console=ttyS0 ;;
	arm64) qemu=qemu-system-aarch64 console=ttyAMA0 ;;
	esac
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		case $line in
		"-append "*) append="$append ${line#-append }" ;;
		*) read -ra words <<<"$line"; extra+=("${words[@]}") ;;
		esac
	done < <(qemu_args "$b")
	local logdir=${boot_logdir:-$cache/log}
	mkdir -p "$logdir"
	local log=$logdir/$b.log start end
	start=$(date +%s)
	timeout -k 10 "$timeout_s" ${boot_prefix[@]+"${boot_prefix[@]}"} \
		"$qemu" -accel tcg -nodefaults -display none \
		-no-reboot -serial "file:$log" \
		-kernel "$cache/$a/root/boot/vmlinuz-$(cat "$cache/$a/release")" \
		-initrd "${boot_initrd:-$cache/$a/initrd}" \
		-append "console=$console panic=-1 quiet loglevel=3 irqaff_boot=$b irqaff_mode=$mode$append ${IRQAFF_KERNEL_APPEND:-}" \
		"${extra[@]}" >"$logdir/$b.qemu" 2>&1
	local rc=$?
	end=$(date +%s)
	# shellcheck disable=SC2034 # read by the caller
	boot_seconds=$((end - start))
	[ $rc = 124 ] && note "$b: timed out after ${timeout_s}s"
	return $rc
}

