# shellcheck shell=bash
#
# tree.bash: build fake /proc and /sys trees for irqaff's bats tests.
#
#   make_root [OPTIONS]   build a tree in $ROOT, export ROOT and IRQAFF_ROOT
#   set_online LIST       make exactly LIST online in the current tree
#   kmask NBITS LIST      print LIST as a kernel mask ("%*pb")
#   klist LIST [NBITS]    print LIST normalised as a kernel list ("%*pbl")
#   _cpus_of LIST [NBITS] print the CPUs of LIST, one a line, ascending
#                         (NBITS is only needed for "N", the last CPU)
#   irq_dir IRQ           print $ROOT/proc/irq/IRQ
#   list_of IRQ           print IRQ's smp_affinity_list path, no newline
#   lists IRQ...          print each IRQ's smp_affinity_list, one a line
#   irq_total IRQ         print IRQ's total count over the online CPUs
#   add_count IRQ COL N...  the kernel counting N more interrupts of IRQ on
#                         the CPU of proc/interrupts' column COL (1 is the
#                         first), for each triple, in one atomic rewrite
#   settle_effective      an effective CPU not in its IRQ's requested ones
#                         becomes the first of those, as the kernel moves it
#   tree_sum [DIR]        print one hash of every name, mode, link and byte
#   install_interrupts FILE  install a real /proc/interrupts dump (tests/fixtures)
#   snapshot_interrupts FILE  save the tree's proc/interrupts as it is now,
#                         for --sample-from (edit the copy for what the
#                         kernel would show at another time)
#
# Interrupt counts are deterministic: IRQ i has counted (i + 1) * 10000 + c
# on CPU c, so its total is (i + 1) * 10000 * online + (sum of online CPUs).
# Arch rows: NMI counts c + 1 on CPU c, LOC 1000 * (c + 1), ERR and MIS 0.
#
# Every IRQ has a sys/kernel/irq/N/ (kernel/irq/irqdesc.c, irq_sysfs_add();
# CONFIG_SPARSE_IRQ, on every distribution kernel; make_root --no-sysirq
# leaves out sys/kernel/irq, as a kernel without it). A file that is not
# empty ends in "\n":
#   per_cpu_count  per_cpu_count_show(): "%u" for each possible CPU in
#                  order, ","-joined; an offline CPU counts 0 here. sysfs
#                  gives one page: text past 4095 bytes is cut there, and
#                  then has no "\n" (scnprintf(), sysfs_emit_at()).
#                  set_online rewrites it, as proc/interrupts.
#   chip_name      chip_name_show(): the chip proc/interrupts shows
#   hwirq          hwirq_show(): the hwirq number; empty without one
#   type           type_show(): "level" or "edge": the row's Level or Edge
#                  where it has one, else edge for a flow name ending in
#                  "edge" ("2-edge", "ioapic-edge"), else level
#   wakeup         wakeup_show(): "disabled"
#   name           name_show(): desc->name, the flow ("edge" of "2-edge",
#                  "fasteoi"); empty without one
#   actions        actions_show(): the action names, ","-joined; empty
#                  without any
# make_root takes them from --chip, --hwirq ("N-flow", "N Level", "N" or
# "") and the names; install_interrupts from the dump's rows, split as
# irqaff splits them (tests/fixtures/interrupts/README).
#
# More make_root options, each with the kernel code it mirrors; IRQS is
# IRQs in CPU list syntax ("27-29,31"), each of the tree's, and adds up
# when repeated; --hint applies to the latest --irq, as --affinity does:
# --cmdline TEXT       proc/cmdline: TEXT "\n" (fs/proc/cmdline.c)
# --irqbalance-env V=X environ + "V=X\0" (fs/proc/base.c environ_read())
# --irqbalance-args 'A B' cmdline + "A\0B\0" (fs/proc/base.c get_mm_cmdline())
# --managed IRQS       IRQD_AFFINITY_MANAGED (kernel/irq/irqdesc.c alloc_descs)
# --unmovable IRQS     IRQD_NO_BALANCING: user space cannot move them, not
#                      managed (IRQF_NOBALANCING: the timer, IRQ 0)
# --no-debugfs         no debugfs even with --managed (Debian's kernel:
#                      CONFIG_GENERIC_IRQ_DEBUGFS off)
# --kernel VERSION     what differs between Debian's kernels, as booted
#                      (tests/kernel): 6.1, the default, as above; 6.12
#                      names a device's MSI chip PCI-MSIX-BDF (IR-PCI-
#                      MSIX-BDF) with the vector index as hwirq
#                      (kernel/irq/msi.c, a domain per device since 6.2)
#                      and refuses a move of an IRQ user space cannot move
#                      with EPERM, not EIO (kernel/irq/proc.c
#                      write_irq_affinity()); 5.10 has no nohz_full file
#                      (Debian builds it without CONFIG_NO_HZ_FULL;
#                      drivers/base/cpu.c) and takes no --nohz-full
# --pending IRQS       IRQD_SETAFFINITY_PENDING (kernel/irq/manage.c)
# --vectors N          sys/kernel/debug/irq/domains/VECTOR, N vectors a
#                      CPU for devices (_tree_write_vectors)
# --arm64              arm64's arch rows in proc/interrupts (IPI0 and
#                      Err, arch/arm64/kernel/smp.c arch_show_interrupts()),
#                      not x86's NMI, LOC, ERR and MIS
# --debugfs            sys/kernel/debug/irq/irqs/N (kernel/irq/debugfs.c)
# --idle IRQS          counts 0 (kernel/irq/proc.c show_interrupts())
# --hint LIST          affinity_hint "%*pb" (irq_affinity_hint_proc_show())
# --no-effective       no effective_affinity* (!GENERIC_IRQ_EFFECTIVE_AFF_MASK)
# --driver DRIVER      the latest --nic's vector names (_tree_nic_name)
# --virtnet-affinity   the latest --virtio-nic's IRQs, hints and XPS as
#                      virtio_net sets them (_tree_virtnet_affinity)
# --queues             queue directories for --nic and --virtio-nic
#                      (net/core/net-sysfs.c; see _tree_write_queues)
# --xps NAME:K=LIST    tx-K's xps_cpus, --rps NAME:K=LIST rx-K's rps_cpus
#                      (imply --queues)
# Both --irqbalance options imply --irqbalance, whose proc/4242/environ is
# "LANG=C.UTF-8\0PATH=/usr/local/sbin:...:/bin\0" then the --irqbalance-env
# entries. An --idle IRQ counts 0 in proc/interrupts, per_cpu_count,
# spurious and irq_total, set_online or not. --managed and --pending imply
# --debugfs (unless --no-debugfs; a --managed, --unmovable or --no-debugfs
# tree also takes writes as the kernel does: see _tree_kernel_writes):
# a file for every IRQ, as irq_debug_show() prints an x86
# vector up to its masks (the irq_domain part is left out):
#   handler:  handle_FLOW_irq; handle_fasteoi_irq without a flow
#   device:   the PCI function of a device's IRQ, else (null)
#   status:   0x00000100 (IRQ_LEVEL) for a level IRQ not MSI, else 0
#   istate:   0x00004000 (IRQS_SYSFS), 0 with --no-sysirq
#   ddepth:   1 if shut down, else 0; "wdepth:   0"
#   dstate:   the bits, then their names indented by 12 spaces, in the
#             order of irqdata_states[]: IRQD_LEVEL as status; ACTIVATED
#             and IRQ_STARTED, or if shut down (no action; managed with
#             none of its CPUs online, also MANAGED_SHUTDOWN) IRQ_DISABLED
#             and IRQ_MASKED; AFFINITY_SET for an --affinity or --pending
#             IRQ not managed; SETAFFINITY_PENDING; AFFINITY_MANAGED;
#             NO_BALANCING for an --unmovable IRQ (before SINGLE_TARGET);
#             and
#             SINGLE_TARGET, AFFINITY_ON_ACTIVATE and HANDLE_ENFORCE_IRQCTX
#             on every IRQ (arch/x86/kernel/apic/vector.c)
#   node:     proc/irq/N/node
#   affinity: and "effectiv:" its lists; no effectiv: with --no-effective
#   pending:  a --pending IRQ's list, else empty ("pending:  \n"); the
#             tree keeps no older list, so affinity: is that list too
#
# The state of the last make_root lives in _T_* globals of the calling shell:
# set_online needs make_root to have run in the same test (or setup), not in
# setup_file. The public functions run with errexit off (see _tree_fast) and
# check their own errors.

# This file's directory, tests/test_helper.
_T_HELPERS=${BASH_SOURCE[0]%/*}

# Kernel cpu list syntax (lib/bitmap-str.c, bitmap_parselist()): items
# "a", "a-b" or "a-b:used/group", comma separated; "N" is the last bit.
_T_LIST_ITEM='^([0-9]+|N)(-([0-9]+|N)(:([0-9]+)/([0-9]+))?)?$'

# _tree_fast FUNC ARGS...: run FUNC without the DEBUG trap that bats sets
# for its stack traces and functions inherit under set -T: it runs before
# every command and makes these loops a hundred times slower.
_tree_fast() {
	local _tf_opts=$- _tf_rc=0
	set +T
	"$@" || _tf_rc=$?
	if [[ $_tf_opts == *T* ]]; then
		set -T
	fi
	return "$_tf_rc"
}

_tree_err() {
	printf 'tree.bash: %s\n' "$*" >&2
	return 1
}

# _parse_list LIST [NBITS]: split LIST into the regions _PL_S (start),
# _PL_E (end), _PL_U (used) and _PL_G (group); a plain range has used =
# group = its length.
_parse_list() {
	local list=${1%$'\n'} nbits=${2:-} item a b u g
	local -a items=()
	_PL_S=() _PL_E=() _PL_U=() _PL_G=()
	if [[ -z $list ]]; then
		return 0
	fi
	if [[ $list == ,* || $list == *, || $list == *,,* ]]; then
		_tree_err "CPU list \"$1\": empty item"
		return 1
	fi
	IFS=, read -ra items <<<"$list"
	for item in "${items[@]}"; do
		if ! [[ $item =~ $_T_LIST_ITEM ]]; then
			_tree_err "CPU list \"$1\": bad item \"$item\""
			return 1
		fi
		a=${BASH_REMATCH[1]} b=${BASH_REMATCH[3]:-${BASH_REMATCH[1]}}
		u=${BASH_REMATCH[5]} g=${BASH_REMATCH[6]}
		if [[ ($a == N || $b == N) && -z $nbits ]]; then
			_tree_err "CPU list \"$1\": N needs a width"
			return 1
		fi
		[[ $a == N ]] && a=$((nbits - 1))
		[[ $b == N ]] && b=$((nbits - 1))
		a=$((10#$a)) b=$((10#$b))
		if [[ -z $u ]]; then
			u=$((b - a + 1)) g=$((b - a + 1))
		fi
		u=$((10#$u)) g=$((10#$g))
		if ((a > b || g == 0 || u > g)); then
			_tree_err "CPU list \"$1\": bad region \"$item\""
			return 1
		fi
		if [[ -n $nbits ]] && ((b >= nbits)); then
			_tree_err "CPU list \"$1\": CPU $b is not below $nbits"
			return 1
		fi
		_PL_S+=("$a") _PL_E+=("$b") _PL_U+=("$u") _PL_G+=("$g")
	done
}

# _cpus_into SET LIST [NBITS]: set SET[c]=1 for every CPU c of LIST.
_cpus_into() {
	local -n _ci_set=$1
	local _ci_i _ci_s _ci_e _ci_c
	_parse_list "$2" "${3:-}" || return
	for ((_ci_i = 0; _ci_i < ${#_PL_S[@]}; _ci_i++)); do
		for ((_ci_s = _PL_S[_ci_i]; _ci_s <= _PL_E[_ci_i]; \
			_ci_s += _PL_G[_ci_i])); do
			_ci_e=$((_ci_s + _PL_U[_ci_i] - 1))
			((_ci_e > _PL_E[_ci_i])) && _ci_e=${_PL_E[_ci_i]}
			for ((_ci_c = _ci_s; _ci_c <= _ci_e; _ci_c++)); do
				_ci_set[_ci_c]=1
			done
		done
	done
}

_cpus_of() {
	_tree_fast _tree_cpus_of "$@"
}

_tree_cpus_of() {
	local -a set=()
	_cpus_into set "$1" "${2:-}" || return
	if ((${#set[@]})); then
		printf '%s\n' "${!set[@]}"
	fi
}

# _klist_into VAR CPU...: ascending CPUs as a kernel list (lib/bitmap-str.c,
# bitmap_print_list: "a-b" for runs of two or more).
_klist_into() {
	local -n _kl_out=$1
	shift
	local _kl_s=-2 _kl_p=-2 _kl_c _kl_acc=''
	for _kl_c in "$@" -1; do
		if ((_kl_p >= 0 && _kl_c == _kl_p + 1)); then
			_kl_p=$_kl_c
			continue
		fi
		if ((_kl_p >= 0 && _kl_s == _kl_p)); then
			_kl_acc+=",$_kl_s"
		elif ((_kl_p >= 0)); then
			_kl_acc+=",$_kl_s-$_kl_p"
		fi
		_kl_s=$_kl_c _kl_p=$_kl_c
	done
	_kl_out=${_kl_acc#,}
}

klist() {
	_tree_fast _tree_klist "$@"
}

_tree_klist() {
	local -a set=()
	local out
	_cpus_into set "$1" "${2:-}" || return
	_klist_into out "${!set[@]}"
	printf '%s\n' "$out"
}

# _words_set_range WORDS A B: set bits A..B in the 32-bit words WORDS.
_words_set_range() {
	local -n _wr=$1
	local _wr_a=$2 _wr_b=$3 _wr_w _wr_lo _wr_hi
	for ((_wr_w = _wr_a >> 5; _wr_w <= _wr_b >> 5; _wr_w++)); do
		_wr_lo=$((_wr_a > _wr_w * 32 ? _wr_a - _wr_w * 32 : 0))
		_wr_hi=$((_wr_b < _wr_w * 32 + 31 ? _wr_b - _wr_w * 32 : 31))
		_wr[_wr_w]=$((_wr[_wr_w] |
			(((1 << (_wr_hi - _wr_lo + 1)) - 1) << _wr_lo)))
	done
}

# _mask_into VAR NBITS LIST. The kernel's "%*pb" (lib/vsprintf.c,
# bitmap_string()): 32-bit chunks, highest first, comma separated, lower
# case; the highest chunk has ceil(r / 4) digits where r = NBITS mod 32 (32
# if that is 0), the others 8.
_mask_into() {
	local -n _mk_out=$1
	local nbits=$2 i s e r rest=''
	local -a _mk_words=() rev=()
	if ! [[ $nbits =~ ^[0-9]+$ ]] || ((nbits == 0)); then
		_tree_err "mask width \"$nbits\" is not a positive number"
		return 1
	fi
	_parse_list "$3" "$nbits" || return
	local nw=$(((nbits + 31) / 32)) zeros
	# the words stay unset until set (0 in arithmetic), and only the set
	# ones are visited: a CPU of 8192 is 1 word, not 256
	for ((i = 0; i < ${#_PL_S[@]}; i++)); do
		for ((s = _PL_S[i]; s <= _PL_E[i]; s += _PL_G[i])); do
			e=$((s + _PL_U[i] - 1))
			((e > _PL_E[i])) && e=${_PL_E[i]}
			if ((e >= s)); then
				_words_set_range _mk_words "$s" "$e"
			fi
		done
	done
	r=$((nbits % 32))
	((r)) || r=32
	if ((nw > 1)); then
		printf -v zeros '%*s' $((nw - 1)) ''
		read -ra rev <<<"${zeros// /0 }"
		for i in "${!_mk_words[@]}"; do
			((i == nw - 1)) || rev[nw - 2 - i]=${_mk_words[i]}
		done
		printf -v rest ',%08x' "${rev[@]}"
	fi
	printf -v _mk_out '%0*x%s' $(((r + 3) / 4)) "${_mk_words[nw - 1]:-0}" \
		"$rest"
}

kmask() {
	_tree_fast _tree_kmask "$@"
}

_tree_kmask() {
	local out
	_mask_into out "$1" "${2:-}" || return
	printf '%s\n' "$out"
}

# _tree_mask VAR LIST: a mask of the tree's width, cached by list (the
# key has a prefix: an associative array takes no empty key).
_tree_mask() {
	local -n _tm_out=$1
	local _tm_m
	if [[ -z ${_T_MASKS[k$2]+set} ]]; then
		_mask_into _tm_m "$_T_NCPUS" "$2" || return
		_T_MASKS[k$2]=$_tm_m
	fi
	_tm_out=${_T_MASKS[k$2]}
}

# _tree_mkdirs DIR...: one mkdir for them all.
_tree_mkdirs() {
	if (($#)); then
		printf '%s\0' "$@" | xargs -0 mkdir -p --
	fi
}

_tree_reset() {
	declare -g _T_NCPUS=0 _T_NNODES=1 _T_NR_IRQS='' _T_LISTFILES=1
	declare -ga _T_SOCK=() _T_CORE=() _T_NODE_OF=() _T_ON=() _T_NODE_LIST=()
	declare -ga _T_CHIP=() _T_HW=() _T_NAMES=() _T_INODE=() _T_AFF=() _T_EFF=()
	declare -ga _T_DEV_KIND=() _T_DEV_NAME=() _T_DEV_Q=() _T_DEV_NODE=()
	declare -ga _T_DEV_FIRST=() _T_DEV_BDF=() _T_DEV_VIRTIO=()
	declare -ga _T_DEV_DRIVER=() _T_DEV_VAFF=()
	declare -gA _T_XPS=() _T_RPS=()
	declare -g _T_QUEUES=0 _T_CURDEV=''
	declare -gA _T_MASKS=()
	declare -g _T_IRQBALANCE=0 _T_ALL='' _T_ONLINE_LIST='' _T_CUR=''
	declare -g _T_SYSIRQ=1 _T_DEBUGFS=0 _T_EFFFILES=1 _T_CMDLINE=''
	declare -g _T_HAS_CMDLINE=0
	declare -ga _T_HINT=() _T_IDLE=() _T_MANAGED=() _T_PENDING=()
	declare -ga _T_IB_ENV=() _T_IB_ARGS=() _T_UNMOVABLE=()
	declare -g _T_NODEBUGFS=0 _T_KERNEL=6.1 _T_REFUSE=EIO
	declare -g _T_VECTORS='' _T_ARM64=0
	declare -gA _T_THREAD=()
	declare -g _T_THREADIRQS=0
	unset IRQAFF_KERNEL IRQAFF_TREE_FAULT
	unset -f irqaff
}

# _tree_irq_add NUM NAMES CHIP TOKEN NODE: NAMES are "|"-separated.
_tree_irq_add() {
	if ! [[ $1 =~ ^[0-9]+$ ]]; then
		_tree_err "IRQ \"$1\" is not a number"
		return 1
	fi
	local irq=$((10#$1))
	if [[ -n ${_T_CHIP[irq]+set} ]]; then
		_tree_err "IRQ $irq is defined twice"
		return 1
	fi
	_T_NAMES[irq]=$2 _T_CHIP[irq]=$3 _T_HW[irq]=$4 _T_INODE[irq]=$5
}

# Legacy ISA IRQs as an x86 IO-APIC machine shows them: name and token.
_T_LEGACY=(
	'timer|2-edge' 'i8042|1-edge' 'cascade|0-edge' 'ttyS1|3-edge'
	'ttyS0|4-edge' 'parport1|5-edge' 'floppy|6-edge' 'parport0|7-edge'
	'rtc0|8-edge' 'acpi|9-fasteoi' 'snd_hda_intel|10-fasteoi'
	'ehci_hcd:usb1|11-fasteoi' 'i8042|12-edge' 'fpu|13-edge'
	'ata_piix|14-edge' 'ata_piix|15-edge'
)

_tree_add_legacy() {
	local i name tok
	for ((i = 0; i < $1; i++)); do
		name="irq$i" tok="$i-edge"
		if ((i < ${#_T_LEGACY[@]})); then
			name=${_T_LEGACY[i]%|*} tok=${_T_LEGACY[i]#*|}
		fi
		_tree_irq_add "$i" "$name" IO-APIC "$tok" 0 || return
	done
}

# _tree_free_run VAR COUNT: the first IRQ >= 24 that starts COUNT free ones.
_tree_free_run() {
	local -n _fr_out=$1
	local _fr_first=24 _fr_i
	for ((_fr_i = 0; _fr_i < $2; _fr_i++)); do
		if [[ -n ${_T_CHIP[_fr_first + _fr_i]+set} ]]; then
			_fr_first=$((_fr_first + _fr_i + 1)) _fr_i=-1
		fi
	done
	_fr_out=$_fr_first
}

# _tree_dev_nvec VAR D: how many MSI-X vectors device D uses: one per
# queue and one more (a NIC's link vector, the NVMe admin queue, a virtio
# device's config vector); a virtio-net queue pair is two queues, and so
# is a queue of a NIC whose --driver gives rx and tx vectors apart.
_tree_dev_nvec() {
	local -n _dn_out=$1
	_dn_out=$((_T_DEV_Q[$2] + 1))
	if [[ ${_T_DEV_KIND[$2]} == virtio-nic ||
		${_T_DEV_DRIVER[$2]:-} == @(split|ixgbe-tx|gve|e1000e|vmxnet3-split) ]]; then
		_dn_out=$((2 * _T_DEV_Q[$2] + 1))
	fi
}

# _tree_dev_irqs DEV: register a PCI device's MSI-X vectors. Their hwirq
# is index | requester id << 11 | domain << 27 (drivers/pci/msi/
# irqdomain.c, pci_msi_domain_calc_hwirq()), hence "524288-edge" on bus 01.
# The requester id is bus << 8 | slot << 3 | function.
# virtio_pci names vector 0 "virtioN-config" and each queue's vector
# "virtioN-" and the queue's name (drivers/virtio/virtio_pci_common.c,
# vp_request_msix_vectors(), vp_find_one_vq_msix()); virtio_net's queues
# are input.K and output.K in turn (drivers/net/virtio_net.c,
# virtnet_find_vqs()), virtio_blk's req.K (drivers/block/virtio_blk.c,
# init_vq()). A guest has no interrupt remapping: the chip is PCI-MSI.
# A --nic names its vectors as its --driver does (_tree_nic_name).
_tree_dev_irqs() {
	local d=$1 i n name base bdf=${_T_DEV_BDF[$1]} kind=${_T_DEV_KIND[$1]}
	local dev=${_T_DEV_NAME[$1]} first=${_T_DEV_FIRST[$1]} chip=IR-PCI-MSI
	local bus=$((16#${bdf:5:2})) dom=$((16#${bdf:0:4})) v
	local devfn=$((16#${bdf:8:2} << 3 | ${bdf:11:1}))
	base=$((dom << 27 | (bus << 8 | devfn) << 11))
	[[ $kind == virtio-* ]] && chip=PCI-MSI v=virtio${_T_DEV_VIRTIO[d]}
	[[ $_T_KERNEL == 6.12 ]] && chip=${chip}X-$bdf base=0
	_tree_dev_nvec n "$d"
	for ((i = 0; i < n; i++)); do
		if [[ $kind == nvme ]]; then
			name="${dev}q$i"
		elif [[ $kind == virtio-* ]] && ((i == 0)); then
			name=$v-config
		elif [[ $kind == virtio-nic ]] && ((i % 2)); then
			name=$v-input.$((i / 2))
		elif [[ $kind == virtio-nic ]]; then
			name=$v-output.$((i / 2 - 1))
		elif [[ $kind == virtio-blk ]]; then
			name=$v-req.$((i - 1))
		else
			_tree_nic_name name "$d" "$i"
		fi
		_tree_irq_add $((first + i)) "$name" "$chip" \
			"$((base + i))-edge" "${_T_DEV_NODE[d]}" || return
	done
}

# _tree_nic_name VAR D I: the action name of vector I of NIC D, Q
# queues, BDF its PCI address, as its --driver requests it:
#   ixgbe  NAME, then NAME-TxRx-K (the default: igb_request_msix();
#          ixgbe_request_msix_irqs() names them so, its NAME vector last)
#   i40e   i40e-BDF:misc, then i40e-NAME-TxRx-K (i40e_setup_misc_vector(),
#          i40e_vsi_request_irq_msix() with i40e_vsi_open()'s basename)
#   ice    the same with "ice-" (ice_req_irq_msix_misc(), ice_vsi_open())
#   split  NAME, then NAME-rx-K and NAME-tx-K, a vector each (igb and
#          ixgbe without queue pairs: igb_request_msix())
#   ixgbe-tx  NAME, then NAME-TxRx-K for K < Q, then NAME-tx-K for K from
#          Q to 2Q-1: ixgbe with more tx queues than rx, whose tx-only
#          vectors go on counting (ixgbe_request_msix_irqs()); no rx-K
#   ena    ena-mgmnt@pci:BDF, then NAME-Tx-Rx-K (ena_setup_mgmnt_intr(),
#          ena_setup_io_intr())
#   mlx5   mlx5_async0@pci:BDF, then mlx5_compK@pci:BDF (mlx5 pci_irq.c
#          irq_set_name(), "%s@pci:%s")
#   gve    gve-ntfy-blkK@pci:BDF for K < 2Q, the first Q serving tx-K and
#          the next rx-(K-Q), then gve-mgmnt@pci:BDF, the last vector
#          (gve_alloc_notify_blocks(), gve_tx_idx_to_ntfy())
#   bnx2x  NAME, then NAME-fp-K (bnx2x_req_msix_irqs())
#   vmxnet3 NAME-rxtx-K, then NAME-event-Q (vmxnet3_request_irqs() as
#          vmxnet3_probe() sets it up for as many rx as tx queues)
#   vmxnet3-split  vmxnet3 sharing no vector (VMXNET3_INTR_DONTSHARE):
#          NAME-tx-K, then NAME-rx-(Q+K), then NAME-event-2Q, each
#          numbered by its vector (vmxnet3_request_irqs())
#   e1000e NAME-rx-0, NAME-tx-0, then NAME, its "other" vector for link
#          events (e1000_request_msix()); one queue only
_tree_nic_name() {
	local -n _nn_out=$1
	local d=$2 i=$3 q=${_T_DEV_Q[$2]} dev=${_T_DEV_NAME[$2]}
	local bdf=${_T_DEV_BDF[$2]} drv=${_T_DEV_DRIVER[$2]:-ixgbe}
	case $drv:$((i == 0)) in
	gve:*)
		_nn_out=gve-ntfy-blk$i@pci:$bdf
		((i < 2 * q)) || _nn_out=gve-mgmnt@pci:$bdf ;;
	i40e:1 | ice:1) _nn_out=$drv-$bdf:misc ;;
	i40e:0 | ice:0) _nn_out=$drv-$dev-TxRx-$((i - 1)) ;;
	ena:1) _nn_out=ena-mgmnt@pci:$bdf ;;
	ena:0) _nn_out=$dev-Tx-Rx-$((i - 1)) ;;
	mlx5:1) _nn_out=mlx5_async0@pci:$bdf ;;
	mlx5:0) _nn_out=mlx5_comp$((i - 1))@pci:$bdf ;;
	ixgbe-tx:0)
		_nn_out=$dev-TxRx-$((i - 1))
		((i <= q)) || _nn_out=$dev-tx-$((i - 1)) ;;
	split:0)
		_nn_out=$dev-rx-$((i - 1))
		((i <= q)) || _nn_out=$dev-tx-$((i - 1 - q)) ;;
	e1000e:*)
		case $i in
		0) _nn_out=$dev-rx-0 ;;
		1) _nn_out=$dev-tx-0 ;;
		*) _nn_out=$dev ;;
		esac ;;
	vmxnet3-split:*)
		_nn_out=$dev-tx-$i
		((i < q)) || _nn_out=$dev-rx-$i
		((i < 2 * q)) || _nn_out=$dev-event-$i ;;
	bnx2x:0) _nn_out=$dev-fp-$((i - 1)) ;;
	vmxnet3:*)
		_nn_out=$dev-rxtx-$i
		((i < q)) || _nn_out=$dev-event-$i ;;
	*:1) _nn_out=$dev ;;
	*) _nn_out=$dev-TxRx-$((i - 1)) ;;
	esac
}

# _tree_dev_spec KIND SPEC: parse NAME:QUEUES[:NODE[:FIRSTIRQ]].
_tree_dev_spec() {
	local kind=$1 spec=$2 name q node first re
	re='^([^:/]+):([0-9]+)(:(-1|[0-9]+)?(:([0-9]+))?)?$'
	if ! [[ $spec =~ $re ]]; then
		_tree_err "--$kind \"$spec\": not NAME:QUEUES[:NODE[:FIRSTIRQ]]"
		return 1
	fi
	name=${BASH_REMATCH[1]} q=$((10#${BASH_REMATCH[2]}))
	node=${BASH_REMATCH[4]:-0} first=${BASH_REMATCH[6]}
	if ((q == 0)); then
		_tree_err "--$kind \"$spec\": no queues"
		return 1
	fi
	local d=${#_T_DEV_KIND[@]}
	_T_DEV_KIND[d]=$kind _T_DEV_NAME[d]=$name _T_DEV_Q[d]=$q
	_T_DEV_NODE[d]=$node _T_DEV_FIRST[d]=${first:+$((10#$first))}
	_T_CURDEV=$d
	printf -v "_T_DEV_BDF[d]" '%04x:%02x:00.0' $(((0x3b + d) >> 8)) \
		$(((0x3b + d) & 0xff))
	if [[ $kind == virtio-* ]]; then
		_tree_virtio_spec "$d"
	fi
}

# _tree_virtio_spec D: number virtio device D after those before it
# (virtio0, virtio1, ... in probe order, drivers/virtio/virtio.c
# register_virtio_device()) and put its PCI function on bus 0 from slot 3,
# as QEMU's pc machine does.
_tree_virtio_spec() {
	local k vi=0
	for ((k = 0; k < $1; k++)); do
		[[ ${_T_DEV_KIND[k]} != virtio-* ]] || vi=$((vi + 1))
	done
	_T_DEV_VIRTIO[$1]=$vi
	printf -v "_T_DEV_BDF[$1]" '0000:00:%02x.%d' $(((3 + vi) % 32)) \
		$(((3 + vi) / 32))
}

# _tree_topology CPUS SOCKETS THREADS NODES: place the CPUs the way x86
# enumerates them: the first thread of every core, socket by socket, then
# the second threads in the same order; nodes split the cores evenly.
_tree_topology() {
	local n=$1 s=$2 t=$3 k=$4 c cores th so co idx
	if ((s < 1 || t < 1 || k < 1 || n % (s * t))); then
		_tree_err "$n CPUs do not split into $s sockets of $t threads"
		return 1
	fi
	cores=$((n / (s * t)))
	if (((s * cores) % k || (k % s && s % k))); then
		_tree_err "$((s * cores)) cores in $s sockets do not split into $k nodes"
		return 1
	fi
	for ((th = 0; th < t; th++)); do
		for ((so = 0; so < s; so++)); do
			for ((co = 0; co < cores; co++)); do
				idx=$((so * cores + co))
				c=$((th * s * cores + idx))
				_T_SOCK[c]=$so _T_CORE[c]=$co
				_T_NODE_OF[c]=$((idx * k / (s * cores)))
			done
		done
	done
}

# _tree_write_topology: cpuN/topology of the online CPUs. Offline CPUs have
# none, and drop out of their siblings' lists (drivers/base/topology.c is a
# CPU hotplug state; arch/x86/kernel/smpboot.c remove_siblinginfo()).
_tree_write_topology() {
	local base=$ROOT/sys/devices/system/cpu c key t list
	local sib pkg smask pmask
	local -A core_of=() pkg_of=() core_list=() pkg_list=()
	local -a dirs=() gone=() m=()
	for ((c = 0; c < _T_NCPUS; c++)); do
		if [[ -z ${_T_ON[c]+set} ]]; then
			gone+=("$base/cpu$c/topology")
			continue
		fi
		core_of[${_T_SOCK[c]}.${_T_CORE[c]}]+=" $c"
		pkg_of[${_T_SOCK[c]}]+=" $c"
		dirs+=("$base/cpu$c/topology")
	done
	if ((${#gone[@]})); then
		rm -rf -- "${gone[@]}"
	fi
	_tree_mkdirs "${dirs[@]}"
	for key in "${!core_of[@]}"; do
		read -ra m <<<"${core_of[$key]}"
		_klist_into list "${m[@]}"
		core_list[$key]=$list
	done
	for key in "${!pkg_of[@]}"; do
		read -ra m <<<"${pkg_of[$key]}"
		_klist_into list "${m[@]}"
		pkg_list[$key]=$list
	done
	for c in "${!_T_ON[@]}"; do
		t=$base/cpu$c/topology
		sib=${core_list[${_T_SOCK[c]}.${_T_CORE[c]}]}
		pkg=${pkg_list[${_T_SOCK[c]}]}
		_tree_mask smask "$sib"
		_tree_mask pmask "$pkg"
		printf '%s\n' "${_T_SOCK[c]}" >"$t/physical_package_id"
		printf '%s\n' "${_T_CORE[c]}" >"$t/core_id"
		printf '0\n' >"$t/die_id"
		printf '%s\n' "$sib" >"$t/thread_siblings_list"
		printf '%s\n' "$sib" >"$t/core_cpus_list"
		printf '%s\n' "$smask" >"$t/thread_siblings"
		printf '%s\n' "$smask" >"$t/core_cpus"
		printf '%s\n' "$pkg" >"$t/core_siblings_list"
		printf '%s\n' "$pkg" >"$t/package_cpus_list"
		printf '%s\n' "$pmask" >"$t/core_siblings"
		printf '%s\n' "$pmask" >"$t/package_cpus"
	done
}

# _tree_write_nodes: nodeK/cpulist and cpumap hold the node's online CPUs
# (x86 numa_remove_cpu() on offline).
_tree_write_nodes() {
	local base=$ROOT/sys/devices/system/node c k list mask
	local -a members=() m=()
	for c in "${!_T_ON[@]}"; do
		members[_T_NODE_OF[c]]+=" $c"
	done
	for ((k = 0; k < _T_NNODES; k++)); do
		m=()
		read -ra m <<<"${members[k]:-}"
		_klist_into list "${m[@]}"
		_tree_mask mask "$list"
		_T_NODE_LIST[k]=$list
		printf '%s\n' "$list" >"$base/node$k/cpulist"
		printf '%s\n' "$mask" >"$base/node$k/cpumap"
	done
}

# _tree_write_pci_local: local_cpulist and local_cpus, the online CPUs of
# the device's node, or all online CPUs for node -1
# (drivers/pci/pci-sysfs.c, local_cpus_show()).
_tree_write_pci_local() {
	local d list mask dir
	for d in "${!_T_DEV_BDF[@]}"; do
		dir=$ROOT/sys/bus/pci/devices/${_T_DEV_BDF[d]}
		if ((_T_DEV_NODE[d] < 0)); then
			list=$_T_ONLINE_LIST
		else
			list=${_T_NODE_LIST[_T_DEV_NODE[d]]}
		fi
		_tree_mask mask "$list"
		printf '%s\n' "$list" >"$dir/local_cpulist"
		printf '%s\n' "$mask" >"$dir/local_cpus"
	done
}

# _tree_prec: width of the IRQ column, from nr_irqs (kernel/irq/proc.c,
# show_interrupts()).
_tree_prec() {
	local -n _tp_out=$1
	local _tp_nr=${_T_NR_IRQS:-0} _tp_j=1000 _tp_irqs=("${!_T_CHIP[@]}")
	if [[ -z $_T_NR_IRQS && ${#_tp_irqs[@]} -gt 0 ]]; then
		_tp_nr=$((_tp_irqs[-1] + 1))
	fi
	for ((_tp_out = 3; _tp_out < 10 && _tp_j <= _tp_nr; _tp_out++)); do
		_tp_j=$((_tp_j * 10))
	done
}

# _tree_names VAR IRQ: VAR becomes the array of IRQ's non-empty action
# names, kept as "first|second" in _T_NAMES.
_tree_names() {
	local -n _tnames_out=$1
	local _tnames_all=${_T_NAMES[$2]} _tnames_n
	_tnames_out=()
	while [[ -n $_tnames_all ]]; do
		_tnames_n=${_tnames_all%%|*}
		if [[ $_tnames_all == *'|'* ]]; then
			_tnames_all=${_tnames_all#*|}
		else
			_tnames_all=
		fi
		[[ -z $_tnames_n ]] || _tnames_out+=("$_tnames_n")
	done
}

# _tree_irq_tail IRQ PREC: what follows the counts in IRQ's row (kernel/
# irq/proc.c, show_interrupts()): " %8s" chip, " %*lu" hwirq (blank without
# a domain), "-%-8s" flow handler name (or " %-8s" Level/Edge where the arch
# shows levels), then "  first" and ", next" action names.
_tree_irq_tail() {
	local irq=$1 prec=$2 tok=${_T_HW[$1]} n sep='  '
	local -a acts
	printf ' %8s' "${_T_CHIP[irq]}"
	if [[ $tok =~ ^([0-9]+)-(.*)$ ]]; then
		printf ' %*s-%-8s' "$prec" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
	elif [[ $tok =~ ^([0-9]+)\ (.*)$ ]]; then
		printf ' %*s %-8s' "$prec" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
	elif [[ -z $tok || $tok =~ ^[0-9]+$ ]]; then
		printf ' %*s' "$prec" "$tok"
	else
		printf ' %s' "$tok"
	fi
	_tree_names acts "$irq"
	for n in "${acts[@]}"; do
		printf '%s%s' "$sep" "$n"
		sep=', '
	done
	printf '\n'
}

# _tree_write_interrupts: proc/interrupts for the online CPUs, in the
# format of kernel/irq/proc.c show_interrupts() and arch/x86/kernel/irq.c
# arch_show_interrupts(): "%*d: ", then "%10u " per online CPU, then the
# tail. A count is IRQ + 1 then the CPU as four digits (see the top), so a
# row's cells are one prefix (padding and IRQ + 1) on fixed suffixes; an
# --idle IRQ's row counts 0.
_tree_write_interrupts() {
	local prec irq c p pad idle IFS=''
	local -a on=("${!_T_ON[@]}") sfx=() nmi=() loc=() sfx_row=() zero=()
	_tree_prec prec
	for c in "${on[@]}"; do
		printf -v "sfx[c]" '%04d ' "$c"
		nmi[c]=$((c + 1)) loc[c]=$((1000 * (c + 1))) zero[c]=0
	done
	printf -v idle '%10u ' "${zero[@]}"
	{
		printf '%*s' $((prec + 8)) ''
		printf 'CPU%-8d' "${on[@]}"
		printf '\n'
		for irq in "${!_T_CHIP[@]}"; do
			if [[ -n ${_T_IDLE[irq]+set} ]]; then
				printf '%*d: %s' "$prec" "$irq" "$idle"
				_tree_irq_tail "$irq" "$prec"
				continue
			fi
			p=$((irq + 1))
			printf -v pad '%*s' $((6 - ${#p})) ''
			sfx_row=("${sfx[@]/#/$pad$p}")
			printf '%*d: %s' "$prec" "$irq" "${sfx_row[*]}"
			_tree_irq_tail "$irq" "$prec"
		done
		if ((_T_ARM64)); then
			printf '%*s: ' "$prec" IPI0
			printf '%10u ' "${nmi[@]}"
			printf '      Rescheduling interrupts\n'
			printf '%*s: %10u\n' "$prec" Err 0
		else
			printf '%*s: ' "$prec" NMI
			printf '%10u ' "${nmi[@]}"
			printf '  Non-maskable interrupts\n'
			printf '%*s: ' "$prec" LOC
			printf '%10u ' "${loc[@]}"
			printf '  Local timer interrupts\n'
			printf '%*s: %10u\n' "$prec" ERR 0 "$prec" MIS 0
		fi
	} >"$ROOT/proc/interrupts"
}

# _tree_write_online: every file that depends on which CPUs are online.
_tree_write_online() {
	local cpu=$ROOT/sys/devices/system/cpu c list
	local -a off=()
	for ((c = 0; c < _T_NCPUS; c++)); do
		if [[ -z ${_T_ON[c]+set} ]]; then
			off+=("$c")
		fi
	done
	_klist_into _T_ONLINE_LIST "${!_T_ON[@]}"
	_klist_into list "${off[@]}"
	printf '%s\n' "$_T_ONLINE_LIST" >"$cpu/online"
	printf '%s\n' "$list" >"$cpu/offline"
	for ((c = 1; c < _T_NCPUS; c++)); do
		printf '%d\n' "${_T_ON[c]:-0}" >"$cpu/cpu$c/online"
	done
	_tree_write_topology
	_tree_write_nodes
	_tree_write_pci_local
	_tree_write_interrupts
}

# _tree_effective IRQ: the CPU the IRQ is delivered to, the (IRQ mod k)th
# of the k online CPUs in its affinity (all online CPUs if none is). A
# managed IRQ with none online was shut down on its last CPU and keeps it
# (kernel/irq/cpuhotplug.c migrate_one_irq(): irq_shutdown_and_deactivate()
# leaves the masks alone): the first CPU of its affinity. A
# managed IRQ avoids the CPUs of an isolcpus=managed_irq,... on --cmdline
# while its set has another online CPU (kernel/irq/manage.c
# irq_do_set_affinity(), the HK_TYPE_MANAGED_IRQ housekeeping mask).
_tree_effective() {
	local irq=$1 c arg
	local -a set=() cand=() house=() iso=()
	_cpus_into set "${_T_AFF[irq]:-$_T_ALL}" "$_T_NCPUS" || return
	for c in "${!set[@]}"; do
		if [[ -n ${_T_ON[c]+set} ]]; then
			cand+=("$c")
		fi
	done
	if ((${#cand[@]} == 0)) && [[ -n ${_T_MANAGED[irq]+set} ]]; then
		cand=("${!set[@]}")
		printf -v "_T_EFF[irq]" '%d' "${cand[0]}"
		return
	fi
	if ((${#cand[@]} == 0)); then
		cand=("${!_T_ON[@]}")
	fi
	if [[ -n ${_T_MANAGED[irq]+set} &&
		" $_T_CMDLINE " =~ [[:space:]]isolcpus=([^[:space:]]*managed_irq,[^[:space:]]*) ]]; then
		arg=${BASH_REMATCH[1]}
		while [[ $arg == [a-z_]*,* ]]; do
			arg=${arg#*,}
		done
		_cpus_into iso "$arg" "$_T_NCPUS" || return
		for c in "${cand[@]}"; do
			[[ -n ${iso[c]+set} ]] || house+=("$c")
		done
		((${#house[@]} == 0)) || cand=("${house[@]}")
	fi
	printf -v "_T_EFF[irq]" '%d' "${cand[irq % ${#cand[@]}]}"
}

# _tree_norm VAR LIST: LIST as the kernel would print it back.
_tree_norm() {
	local -n _tn_out=$1
	local -a _tn_set=()
	if [[ $2 == "$_T_ALL" || ($2 =~ ^(0|[1-9][0-9]*)$ && $2 -lt $_T_NCPUS) ]]; then
		_tn_out=$2
		return
	fi
	_cpus_into _tn_set "$2" "$_T_NCPUS" || return
	_klist_into _tn_out "${!_tn_set[@]}"
}

# _tree_write_irqs: proc/irq/default_smp_affinity and proc/irq/N/ (kernel/
# irq/proc.c register_irq_proc(), register_handler_proc()). An action name
# becomes a directory unless it cannot be one.
_tree_write_irqs() {
	local irq d n aff eff amask emask hmask zero allmask online=${#_T_ON[@]}
	local sum=0 c total
	local -a dirs=() acts on=("${!_T_ON[@]}")
	for c in "${on[@]}"; do
		sum=$((sum + c))
	done
	_tree_mask allmask "$_T_ALL"
	_tree_mask zero ''
	printf '%s\n' "$allmask" >"$ROOT/proc/irq/default_smp_affinity"
	((_T_SYSIRQ == 0)) || dirs+=("$ROOT/sys/kernel/irq")
	for irq in "${!_T_CHIP[@]}"; do
		dirs+=("$ROOT/proc/irq/$irq")
		((_T_SYSIRQ == 0)) || dirs+=("$ROOT/sys/kernel/irq/$irq")
		_tree_names acts "$irq"
		for n in "${acts[@]}"; do
			if [[ $n != */* && $n != . && $n != .. ]]; then
				dirs+=("$ROOT/proc/irq/$irq/$n")
			fi
		done
	done
	_tree_mkdirs "${dirs[@]}"
	for irq in "${!_T_CHIP[@]}"; do
		d=$ROOT/proc/irq/$irq
		_tree_norm aff "${_T_AFF[irq]:-$_T_ALL}" || return
		if [[ -z ${_T_EFF[irq]:-} && -z ${_T_AFF[irq]:-} &&
			-z ${_T_MANAGED[irq]+set} ]]; then
			_T_EFF[irq]=${on[irq % ${#on[@]}]}
		elif [[ -z ${_T_EFF[irq]:-} ]]; then
			_tree_effective "$irq" || return
		fi
		_tree_norm eff "${_T_EFF[irq]}" || return
		_tree_mask amask "$aff"
		_tree_mask emask "$eff"
		printf '%s\n' "$amask" >"$d/smp_affinity"
		if ((_T_EFFFILES)); then
			printf '%s\n' "$emask" >"$d/effective_affinity"
		fi
		if ((_T_LISTFILES)); then
			printf '%s\n' "$aff" >"$d/smp_affinity_list"
		fi
		if ((_T_LISTFILES && _T_EFFFILES)); then
			printf '%s\n' "$eff" >"$d/effective_affinity_list"
		fi
		hmask=$zero
		if [[ -n ${_T_HINT[irq]+set} ]]; then
			_tree_mask hmask "${_T_HINT[irq]}" || return
		fi
		printf '%s\n' "$hmask" >"$d/affinity_hint"
		printf '%s\n' "${_T_INODE[irq]}" >"$d/node"
		# kernel/irq/proc.c irq_spurious_proc_show(); the count wraps at
		# 100000 (kernel/irq/spurious.c note_interrupt()).
		total=$(((irq + 1) * 10000 * online + sum))
		[[ -z ${_T_IDLE[irq]+set} ]] || total=0
		printf 'count %u\nunhandled %u\nlast_unhandled %u ms\n' \
			$((total % 100000)) 0 0 >"$d/spurious"
		((_T_SYSIRQ == 0)) || _tree_write_sysirq "$irq"
	done
	_tree_write_counts 0
	_tree_drop_unused
}

# _tree_drop_unused: proc/interrupts without the rows of --idle IRQs that
# have no name (no action): kernel/irq/proc.c show_interrupts() skips an
# IRQ with no action and no count. Its sys/kernel/irq/N stays, counting 0.
_tree_drop_unused() {
	local irq list=' '
	local -a acts=()
	for irq in "${!_T_IDLE[@]}"; do
		_tree_names acts "$irq"
		((${#acts[@]})) || list+="$irq: "
	done
	[[ $list != ' ' ]] || return 0
	awk -v drop="$list" 'index(drop, " " $1 " ") == 0' \
		"$ROOT/proc/interrupts" >"$ROOT/proc/interrupts.new" &&
		mv -- "$ROOT/proc/interrupts.new" "$ROOT/proc/interrupts"
}

# _tree_write_sysirq IRQ: sys/kernel/irq/IRQ/ but per_cpu_count, from
# the IRQ's chip, --hwirq token and names (see the top of this file).
_tree_write_sysirq() {
	local irq=$1 d=$ROOT/sys/kernel/irq/$1 acts IFS=,
	local -a names
	_tree_tok "$irq"
	_tree_names names "$irq"
	acts="${names[*]}"
	printf '%s' "${_T_CHIP[irq]:+${_T_CHIP[irq]}$'\n'}" >"$d/chip_name"
	printf '%s' "${_TK_HW:+$_TK_HW$'\n'}" >"$d/hwirq"
	printf '%s\n' "$_TK_TYPE" >"$d/type"
	printf 'disabled\n' >"$d/wakeup"
	printf '%s' "${_TK_FLOW:+$_TK_FLOW$'\n'}" >"$d/name"
	printf '%s' "${acts:+$acts$'\n'}" >"$d/actions"
}

# _tree_tok IRQ: split IRQ's --hwirq token into _TK_HW (the number, or
# empty), _TK_FLOW (the flow name, or empty) and _TK_TYPE, "level" or
# "edge" (see the top of this file).
_tree_tok() {
	local tok=${_T_HW[$1]} type=''
	_TK_HW='' _TK_FLOW=''
	if [[ $tok =~ ^([0-9]+)-(.*)$ ]]; then
		_TK_HW=${BASH_REMATCH[1]} _TK_FLOW=${BASH_REMATCH[2]}
	elif [[ $tok =~ ^([0-9]+)\ (.*)$ ]]; then
		_TK_HW=${BASH_REMATCH[1]} type=${BASH_REMATCH[2]}
	elif [[ $tok =~ ^[0-9]+$ ]]; then
		_TK_HW=$tok
	fi
	case $type in
	Level) _TK_TYPE=level ;;
	Edge) _TK_TYPE=edge ;;
	*) [[ $_TK_FLOW == *edge ]] && _TK_TYPE=edge || _TK_TYPE=level ;;
	esac
}

# The irq_data state bits _tree_write_debugfs may set, in the order
# kernel/irq/debugfs.c irqdata_states[] names them, as "NAME BIT" (include/
# linux/irq.h, after IRQD_MSI_NOMASK_QUIRK went in 6.7).
_T_IRQD_BITS=(
	'IRQD_LEVEL 13' 'IRQD_ACTIVATED 9' 'IRQD_IRQ_STARTED 22'
	'IRQD_IRQ_DISABLED 16' 'IRQD_IRQ_MASKED 17' 'IRQD_NO_BALANCING 10'
	'IRQD_SINGLE_TARGET 24' 'IRQD_AFFINITY_SET 12'
	'IRQD_SETAFFINITY_PENDING 8' 'IRQD_AFFINITY_MANAGED 21'
	'IRQD_AFFINITY_ON_ACTIVATE 28' 'IRQD_MANAGED_SHUTDOWN 23' 'IRQD_HANDLE_ENFORCE_IRQCTX 27'
)

# _tree_write_debugfs: sys/kernel/debug/irq/irqs/N for every IRQ, as
# irq_debug_show() prints it up to the masks (see the top of this file).
_tree_write_debugfs() {
	local dir=$ROOT/sys/kernel/debug/irq/irqs irq d i n b aff eff pend
	local status istate=0 depth state on
	local -a devs=() cpus=() acts=() flags=()
	local -A has=()
	mkdir -p -- "$dir"
	# IRQS_SYSFS: irq_sysfs_add() made sys/kernel/irq/N
	((_T_SYSIRQ == 0)) || istate=$((0x4000))
	for d in "${!_T_DEV_BDF[@]}"; do
		_tree_dev_nvec n "$d"
		for ((i = 0; i < n; i++)); do
			devs[_T_DEV_FIRST[d] + i]=${_T_DEV_BDF[d]}
		done
	done
	for irq in "${!_T_CHIP[@]}"; do
		_tree_tok "$irq"
		_tree_norm aff "${_T_AFF[irq]:-$_T_ALL}" || return
		_tree_norm eff "${_T_EFF[irq]}" || return
		_tree_names acts "$irq"
		# x86_vector_alloc_irqs() sets these on every vector
		has=([IRQD_SINGLE_TARGET]=1 [IRQD_AFFINITY_ON_ACTIVATE]=1
			[IRQD_HANDLE_ENFORCE_IRQCTX]=1)
		status=0 depth=0 on=1 pend=''
		if [[ $_TK_TYPE == level && ${_T_CHIP[irq]} != *MSI* ]]; then
			status=$((1 << 8)) has[IRQD_LEVEL]=1
		fi
		if [[ -n ${_T_MANAGED[irq]+set} ]]; then
			has[IRQD_AFFINITY_MANAGED]=1 on=0 cpus=()
			_cpus_into cpus "$aff" "$_T_NCPUS" || return
			for i in "${!cpus[@]}"; do
				[[ -z ${_T_ON[i]+set} ]] || on=1
			done
		elif [[ -n ${_T_AFF[irq]:-} ]] ||
			[[ -n ${_T_PENDING[irq]+set} ]]; then
			has[IRQD_AFFINITY_SET]=1
		fi
		[[ -z ${_T_UNMOVABLE[irq]+set} ]] || has[IRQD_NO_BALANCING]=1
		if [[ -n ${_T_PENDING[irq]+set} ]]; then
			has[IRQD_SETAFFINITY_PENDING]=1 pend=$aff
		fi
		# shut down: freed (no action left), or managed and none of
		# its CPUs online (irq_shutdown_and_deactivate())
		if ((on == 0)); then
			has[IRQD_MANAGED_SHUTDOWN]=1
		fi
		if ((on == 0 || ${#acts[@]} == 0)); then
			has[IRQD_IRQ_DISABLED]=1 has[IRQD_IRQ_MASKED]=1 depth=1
		else
			has[IRQD_ACTIVATED]=1 has[IRQD_IRQ_STARTED]=1
		fi
		state=0 flags=()
		for b in "${_T_IRQD_BITS[@]}"; do
			if [[ -n ${has[${b% *}]+set} ]]; then
				state=$((state | 1 << ${b#* }))
				flags+=("${b% *}")
			fi
		done
		{
			printf 'handler:  handle_%s_irq\n' \
				"${_TK_FLOW:-fasteoi}"
			printf 'device:   %s\n' "${devs[irq]:-(null)}"
			printf 'status:   0x%08x\n' "$status"
			printf 'istate:   0x%08x\n' "$istate"
			printf 'ddepth:   %u\nwdepth:   0\n' "$depth"
			printf 'dstate:   0x%08x\n' "$state"
			printf '            %s\n' "${flags[@]}"
			printf 'node:     %d\n' "${_T_INODE[irq]}"
			printf 'affinity: %s\n' "$aff"
			((_T_EFFFILES == 0)) || printf 'effectiv: %s\n' "$eff"
			printf 'pending:  %s\n' "$pend"
		} >"$dir/$irq"
	done
}

# _tree_write_counts META: each numbered row of proc/interrupts gives its
# sys/kernel/irq/N/per_cpu_count; with META 1 also N's other files, the
# row split as interrupts.c splits it (the awk below follows
# interrupts_parse() step by step).
_tree_write_counts() {
	((_T_SYSIRQ)) || return 0
	awk -v ncpus="$_T_NCPUS" -v dir="$ROOT/sys/kernel/irq" -v meta="$1" \
		"$_T_SYSIRQ_AWK" "$ROOT/proc/interrupts"
}

# shellcheck disable=SC2016 # awk's $1, not the shell's
_T_SYSIRQ_AWK='
# pad, trigger, split_rest, split_hwirq, pad_fits, split_words: those of
# interrupts.c; split_at is its split(); tail the end of interrupts_parse().
# Positions count from 1; a position 0 is C NULL.
function isspace(c) { return c != "" && index(" \t\n\v\f\r", c) > 0 }
function isdigit(c) { return c != "" && index("0123456789", c) > 0 }
function ch(i) { return substr(L, i, 1) }
function blanks(p, e) { while (p < e && isspace(ch(p))) p++; return p }
function pad(p, e, n) {
	for (; n > 0; n--) {
		if (p >= e) return e
		if (ch(p) != " ") return 0
		p++
	}
	return p
}
function trigger(p, e,   i, w) {
	for (i = 1; i <= 2; i++) {
		w = i == 1 ? "Level" : "Edge"
		if (e - p >= length(w) && substr(L, p, length(w)) == w &&
		    (p + length(w) == e || ch(p + length(w)) == " "))
			return length(w)
	}
	return 0
}
function split_rest(p, e,   n, k, f) {
	n = 0
	if (p < e && ch(p) == " " && (k = trigger(p + 1, e)) > 0) {
		Rtype = substr(L, p + 1, k)
		if (!(p = pad(p + 1 + k, e, 8 - k))) return -1
		n++
	}
	if (p < e && ch(p) == "-") {
		f = ++p
		while (p < e && !isspace(ch(p))) p++
		if (p == f) return -1
		Rflow = substr(L, f, p - f)
		if (p - f < 8 && !(p = pad(p, e, 8 - (p - f)))) return -1
		n++
	}
	if (p < e) {
		if (e - p < 3 || ch(p) != " " || ch(p + 1) != " " ||
		    isspace(ch(p + 2)))
			return -1
		Rnames = substr(L, p + 2, e - p - 2)
	}
	return n
}
function split_hwirq(p, kind,   num, d, n, rest) {
	if (kind == 0) {
		for (num = p; num < Tend && ch(num) == " "; num++) ;
		for (d = num; d < Tend && isdigit(ch(d)); d++) ;
		n = d - num
		if (n == 0 || num - p != 1 + (Tprec > n ? Tprec - n : 0) ||
		    (d < Tend && ch(d) != " " && ch(d) != "-"))
			return -1
		Rhw = substr(L, num, n)
		rest = split_rest(d, Tend)
		return rest < 0 ? -1 : rest + 1
	}
	if (kind == 1 && (p >= Tend || !(p = pad(p, Tend, Tprec + 1))))
		return -1
	return split_rest(p, Tend)
}
function pad_fits(len, lead) {
	if (len >= 8) return lead == 1 || lead == 2
	return lead == 10 - len || lead == 9 - len
}
function split_at(bare,   s, e, k, n, most) {
	s = Tchip
	most = -1
	for (e = s + 1; e <= Tend; e++) {
		if (ch(e - 1) == " " && (bare || ch(e - 2) == " ")) break
		if (isspace(ch(e - 1)) ||
		    (e < Tend && ch(e) != " " && ch(e) != "-"))
			continue
		if (!bare && !pad_fits(e - s, s - Tstart)) continue
		if (e == Tend && index(substr(L, s, e - s), " ")) continue
		for (k = 0; k < 3; k++) {
			Rhw = Rtype = Rflow = Rnames = ""
			if ((n = split_hwirq(e, k)) > most) {
				most = n
				Chip = substr(L, s, e - s)
				Hw = Rhw; Type = Rtype; Flow = Rflow; Names = Rnames
			}
		}
	}
	return most >= 0
}
function split_words(   p, e, q, k, f) {
	e = Tend
	for (p = Tchip; p < e && !isspace(ch(p)); p++) ;
	Chip = substr(L, Tchip, p - Tchip)
	p = blanks(p, e)
	for (q = p; q < e && isdigit(ch(q)); q++) ;
	if (q > p && (q == e || ch(q) == "-" || isspace(ch(q)))) {
		Hw = substr(L, p, q - p)
		p = blanks(q, e)
	}
	if ((k = trigger(p, e)) > 0) {
		Type = substr(L, p, k)
		p = blanks(p + k, e)
	}
	if (e - p > 1 && ch(p) == "-" && !isspace(ch(p + 1))) {
		f = ++p
		while (p < e && !isspace(ch(p))) p++
		Flow = substr(L, f, p - f)
		p = blanks(p, e)
	}
	Names = substr(L, p, e - p)
}
function tail(   p, q, i) {
	L = $0
	Tprec = index(L, ":") - 1
	p = Tprec + 2
	for (i = 0; i < Ncols; i++) {
		q = blanks(p, length(L) + 1)
		if (!isdigit(ch(q))) break
		for (p = q; isdigit(ch(p)); p++) ;
	}
	Tstart = p
	for (Tend = length(L) + 1; Tend > p && isspace(ch(Tend - 1)); Tend--) ;
	Tchip = blanks(p, Tend)
	Chip = Hw = Type = Flow = Names = ""
	if (Tchip < Tend && !split_at(0) && !split_at(1)) split_words()
}
function put(f, s) {
	printf "%s", (s == "" ? "" : s "\n") > f
	close(f)
}
function put_counts(f,   c, s, len) {
	len = 0
	for (c = 0; c < ncpus && len < 4095; c++) {
		s = (c ? "," : "") (c in Cnt ? Cnt[c] : 0)
		if (len + length(s) > 4095) s = substr(s, 1, 4095 - len)
		printf "%s", s > f
		len += length(s)
	}
	if (len < 4095) printf "\n" > f
	close(f)
}
NR == 1 {
	for (Ncols = 0; Ncols < NF; Ncols++) Col[Ncols] = substr($(Ncols + 1), 4) + 0
	next
}
$1 ~ /^[0-9]+:$/ {
	split("", Cnt)
	for (i = 0; i < Ncols && $(i + 2) ~ /^[0-9]+$/; i++) Cnt[Col[i]] = $(i + 2)
	d = dir "/" ($1 + 0)
	put_counts(d "/per_cpu_count")
	if (!meta) next
	tail()
	gsub(/, /, ",", Names)
	put(d "/chip_name", Chip)
	put(d "/hwirq", Hw)
	t = Flow ~ /edge$/ ? "edge" : "level"
	put(d "/type", Type == "Level" ? "level" : Type == "Edge" ? "edge" : t)
	put(d "/wakeup", "disabled")
	put(d "/name", Flow)
	put(d "/actions", Names)
}
'
# _tree_dev_sub VAR D: the class device of device D, under its PCI
# function: net/NAME, nvme/NAME, or under the virtio device on a virtio
# function virtioN/net/NAME or virtioN/block/NAME.
_tree_dev_sub() {
	local -n _ds_out=$1
	local name=${_T_DEV_NAME[$2]} v=virtio${_T_DEV_VIRTIO[$2]:-}
	case ${_T_DEV_KIND[$2]} in
	nvme) _ds_out=nvme/$name ;;
	virtio-nic) _ds_out=$v/net/$name ;;
	virtio-blk) _ds_out=$v/block/$name ;;
	*) _ds_out=net/$name ;;
	esac
}

# _tree_write_devices: PCI devices laid out as sysfs does: the device
# under sys/devices, a sys/bus/pci/devices link to it, and the class
# entry a link to the device's net/NAME or nvme/NAME directory. Links are
# relative, from the link's directory up to the nearest common one (fs/
# kernfs/symlink.c, kernfs_get_target_path()).
_tree_write_devices() {
	local d bdf dev kind class cls id i n sub
	local -a dirs=()
	for d in "${!_T_DEV_BDF[@]}"; do
		dev=$ROOT/sys/devices/pci0000:00/${_T_DEV_BDF[d]}
		_tree_dev_sub sub "$d"
		dirs+=("$dev/msi_irqs" "$dev/$sub")
		# a disk: nvme0n1, vda (bench/mktree.c makes NICs alone)
		if [[ ${_T_DEV_KIND[d]} == @(nvme|virtio-blk) ]]; then
			dirs+=("$ROOT/sys/class/block" "$ROOT/sys/block")
		fi
	done
	dirs+=("$ROOT/sys/bus/pci/devices" "$ROOT/sys/class/net"
		"$ROOT/sys/class/nvme")
	_tree_mkdirs "${dirs[@]}"
	for d in "${!_T_DEV_BDF[@]}"; do
		bdf=${_T_DEV_BDF[d]} kind=${_T_DEV_KIND[d]}
		dev=$ROOT/sys/devices/pci0000:00/$bdf
		# QEMU's virtio functions are transitional: 0x1000 + type - 1
		case $kind in
		nvme) class=nvme cls=0x010802 id=0x144d:0xa808 ;;
		virtio-nic) class=net cls=0x020000 id=0x1af4:0x1000 ;;
		virtio-blk) class=block cls=0x010000 id=0x1af4:0x1001 ;;
		*) class=net cls=0x020000 id=0x8086:0x1572 ;;
		esac
		printf '%s\n' "${id%:*}" >"$dev/vendor"
		printf '%s\n' "${id#*:}" >"$dev/device"
		printf '%s\n' "$cls" >"$dev/class"
		printf '%s\n' "${_T_DEV_NODE[d]}" >"$dev/numa_node"
		printf '%s\n' "${_T_DEV_FIRST[d]}" >"$dev/irq"
		# drivers/pci/msi/sysfs.c msi_mode_show()
		_tree_dev_nvec n "$d"
		for ((i = 0; i < n; i++)); do
			printf 'msix\n' >"$dev/msi_irqs/$((_T_DEV_FIRST[d] + i))"
		done
		ln -s "../../../devices/pci0000:00/$bdf" \
			"$ROOT/sys/bus/pci/devices/$bdf"
		_tree_dev_sub sub "$d"
		ln -s "../../devices/pci0000:00/$bdf/$sub" \
			"$ROOT/sys/class/$class/${_T_DEV_NAME[d]}"
		if [[ $kind == virtio-* ]]; then
			_tree_write_virtio "$d" "$class"
		else
			ln -s "../../../$bdf" "$dev/$sub/device"
		fi
		if [[ $kind == nvme ]]; then
			_tree_write_nvme_disk "$d"
		fi
	done
	_tree_write_bridges
}

# _tree_write_bridges: the functions every PC has before its devices, a
# host bridge and an ISA bridge, as QEMU's q35 guest shows them: no
# msi_irqs and irq 0 (drivers/pci/pci-sysfs.c irq_show(): pdev->irq,
# 0 for a function without an interrupt pin).
_tree_write_bridges() {
	local bdf cls id dev
	for bdf in 0000:00:00.0/0x060000/0x8086:0x29c0 \
		0000:00:1f.0/0x060100/0x8086:0x2918; do
		IFS=/ read -r bdf cls id <<<"$bdf"
		dev=$ROOT/sys/devices/pci0000:00/$bdf
		mkdir -p -- "$dev"
		printf '%s\n' "${id%:*}" >"$dev/vendor"
		printf '%s\n' "${id#*:}" >"$dev/device"
		printf '%s\n' "$cls" >"$dev/class"
		printf -- '-1\n' >"$dev/numa_node"
		printf '0\n' >"$dev/irq"
		ln -s "../../../devices/pci0000:00/$bdf" \
			"$ROOT/sys/bus/pci/devices/$bdf"
	done
}

# _tree_kept VAR LIST [EXCL]: what the kernel keeps of LIST written to a
# queue's mask: its online CPUs (xps_cpus: __netif_set_xps_queue();
# rps_cpus: store_rps_map()), less EXCL, for rps_cpus the isolated and
# nohz_full CPUs (housekeeping_cpumask(HK_TYPE_DOMAIN), HK_TYPE_WQ).
_tree_kept() {
	local -n _tk_out=$1
	local _tk_c _tk_list=''
	local -a _tk_set=() _tk_ex=()
	if [[ -z $2 ]] || { ((${#_T_ON[@]} == _T_NCPUS)) && [[ -z ${3:-} ]]; }; then
		_tk_out=$2
		return
	fi
	_cpus_into _tk_set "$2" "$_T_NCPUS" || return
	[[ -z ${3:-} ]] || _cpus_into _tk_ex "$3" "$_T_NCPUS" || return
	for _tk_c in "${!_tk_set[@]}"; do
		if [[ -n ${_T_ON[_tk_c]:-} && -z ${_tk_ex[_tk_c]+set} ]]; then
			_tk_list+=,$_tk_c
		fi
	done
	_tk_out=${_tk_list#,}
}

# _tree_write_queues EXCL: with --queues, each NIC's queues as net-sysfs.c
# registers them (netdev_register_kobject()): queues/rx-K/rps_cpus and
# queues/tx-K/xps_cpus for K below its queue count, each a "%*pb" mask
# of the tree's width, nr_cpu_ids bits (show_rps_map(), xps_queue_show():
# "%*pb\n"), empty but for --rps and --xps, of whose CPUs they hold what
# the kernel keeps (_tree_kept; EXCL: the isolated and nohz_full CPUs).
# On a NIC with one queue the kernel has xps_cpus but fails its read with
# ENOENT (xps_cpus_show(), !netif_is_multiqueue()); the tree leaves it
# out, which reads the same.
# The other queue files (tx_timeout, byte_queue_limits/, ...) are left
# out.
_tree_write_queues() {
	local d k dir sub mask kept ex=$1
	local -a dirs=()
	for d in "${!_T_DEV_KIND[@]}"; do
		[[ ${_T_DEV_KIND[d]} == @(nic|virtio-nic) ]] || continue
		_tree_dev_sub sub "$d"
		dir=$ROOT/sys/devices/pci0000:00/${_T_DEV_BDF[d]}/$sub/queues
		for ((k = 0; k < _T_DEV_Q[d]; k++)); do
			dirs+=("$dir/rx-$k" "$dir/tx-$k")
		done
	done
	_tree_mkdirs "${dirs[@]}"
	for d in "${!_T_DEV_KIND[@]}"; do
		[[ ${_T_DEV_KIND[d]} == @(nic|virtio-nic) ]] || continue
		_tree_dev_sub sub "$d"
		dir=$ROOT/sys/devices/pci0000:00/${_T_DEV_BDF[d]}/$sub/queues
		for ((k = 0; k < _T_DEV_Q[d]; k++)); do
			_tree_kept kept "${_T_RPS[${_T_DEV_NAME[d]}:$k]:-}" "$ex"
			_tree_mask mask "$kept"
			printf '%s\n' "$mask" >"$dir/rx-$k/rps_cpus"
			((_T_DEV_Q[d] > 1)) || continue
			_tree_kept kept "${_T_XPS[${_T_DEV_NAME[d]}:$k]:-}"
			_tree_mask mask "$kept"
			printf '%s\n' "$mask" >"$dir/tx-$k/xps_cpus"
		done
	done
}

# _tree_write_block NAME PATH: a disk's sys/block entry (the kernel
# without CONFIG_SYSFS_DEPRECATED: block/genhd.c, block_depr links);
# PATH is the disk's directory under sys/devices.
_tree_write_block() {
	ln -s "../devices/$2" "$ROOT/sys/block/$1"
}

# _tree_write_virtio D CLASS: the virtio device between a virtio PCI
# function and its class device, as a QEMU guest's sysfs has it:
#   sys/devices/pci0000:00/0000:00:03.0/virtio0/net/eth0
#   sys/class/net/eth0/device -> ../../../virtio0
#   sys/devices/pci0000:00/0000:00:04.0/virtio1/block/vda
#   sys/block/vda -> ../devices/pci0000:00/0000:00:04.0/virtio1/block/vda
#   sys/block/vda/device -> ../../../virtio1
# The virtio device has no numa_node, no msi_irqs and no irq: those are
# the function's (drivers/virtio/virtio.c virtio_dev_groups; udevadm info
# /dev/vda in a guest gives P: /devices/pci0000:00/0000:00:06.0/virtio2/
# block/vda).
_tree_write_virtio() {
	local d=$1 class=$2 bdf=${_T_DEV_BDF[$1]} name=${_T_DEV_NAME[$1]}
	local v=virtio${_T_DEV_VIRTIO[$1]} dir type=0x0001
	dir=$ROOT/sys/devices/pci0000:00/$bdf/$v
	[[ $class == block ]] && type=0x0002
	printf '%s\n' "$type" >"$dir/device"
	printf '0x1af4\n' >"$dir/vendor"
	mkdir -p -- "$ROOT/sys/bus/virtio/devices"
	ln -s "../../../devices/pci0000:00/$bdf/$v" \
		"$ROOT/sys/bus/virtio/devices/$v"
	ln -s "../../../$v" "$dir/$class/$name/device"
	if [[ $class == block ]]; then
		_tree_write_block "$name" "pci0000:00/$bdf/$v/block/$name"
	fi
}

# _tree_write_nvme_disk D: namespace 1 of NVMe controller D, a disk
# under the controller's class device whose device is that controller,
# as the kernel lays it out without native multipath:
#   sys/block/nvme0n1 -> ../devices/pci0000:00/0000:3c:00.0/nvme/nvme0/nvme0n1
#   sys/block/nvme0n1/device -> ../../nvme0
# (drivers/nvme/host/core.c nvme_alloc_ns(): device_add_disk(ctrl->device)).
_tree_write_nvme_disk() {
	local bdf=${_T_DEV_BDF[$1]} name=${_T_DEV_NAME[$1]} sub
	sub=pci0000:00/$bdf/nvme/$name/${name}n1
	mkdir -p -- "$ROOT/sys/devices/$sub"
	ln -s "../../$name" "$ROOT/sys/devices/$sub/device"
	ln -s "../../devices/$sub" "$ROOT/sys/class/block/${name}n1"
	_tree_write_block "${name}n1" "$sub"
}

_T_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# _tree_write_procs: init, proc/cmdline with --cmdline, and with
# --irqbalance a running irqbalance: its process, its environment and its
# socket in its runtime directory, irqbalance<PID>.sock (irqbalance.c
# init_socket()). An empty file stands for the socket: irqaff does not
# check the type.
_tree_write_procs() {
	mkdir -p -- "$ROOT/proc/1"
	printf 'systemd\n' >"$ROOT/proc/1/comm"
	printf '/sbin/init\0' >"$ROOT/proc/1/cmdline"
	if ((_T_HAS_CMDLINE)); then
		printf '%s\n' "$_T_CMDLINE" >"$ROOT/proc/cmdline"
	fi
	if ((_T_IRQBALANCE)); then
		mkdir -p -- "$ROOT/proc/4242" "$ROOT/run/irqbalance"
		printf 'irqbalance\n' >"$ROOT/proc/4242/comm"
		printf '%s\0' /usr/sbin/irqbalance --foreground \
			"${_T_IB_ARGS[@]}" >"$ROOT/proc/4242/cmdline"
		printf '%s\0' LANG=C.UTF-8 "PATH=$_T_PATH" "${_T_IB_ENV[@]}" \
			>"$ROOT/proc/4242/environ"
		: >"$ROOT/run/irqbalance/irqbalance4242.sock"
	fi
}

# write_task PID NAME CPUS [FLAGS]: a task in proc/PID as fs/proc shows
# it: comm (comm_show(): the name, "\n"), status (proc_pid_status():
# "Name:\t" the name with "\n" and "\\" escaped, ..., Cpus_allowed
# "%*pb", Cpus_allowed_list "%*pbl"), stat (do_task_stat(): "PID (NAME)
# S" and flags, the ninth field) and cmdline (empty for a kernel thread:
# get_mm_cmdline() without mm). FLAGS defaults to an IRQ thread's:
# PF_KTHREAD | PF_NOFREEZE | PF_FORKNOEXEC (0x208040); a user process
# has no PF_KTHREAD (0x400100: PF_RANDOMIZE | PF_SUPERPRIV) and a
# cmdline. CPUS is a list of the tree's CPUs.
write_task() {
	local pid=$1 name=$2 pflags=${4:-2129984} d=$ROOT/proc/$1 cpulist mask esc
	_tree_norm cpulist "$3" || return
	_tree_mask mask "$cpulist" || return
	esc=${name//\\/\\\\}
	esc=${esc//$'\n'/\\n}
	mkdir -p -- "$d"
	printf '%s\n' "$name" >"$d/comm"
	if (((pflags & 0x200000) == 0)); then
		printf '%s\0' "$name" >"$d/cmdline"
	else
		: >"$d/cmdline"
	fi
	printf 'Name:\t%s\nUmask:\t0000\nState:\tS (sleeping)\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t2\nTracerPid:\t0\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t64\nGroups:\t \nNStgid:\t%d\nNSpid:\t%d\nNSpgid:\t0\nNSsid:\t0\nThreads:\t1\nSigQ:\t0/63448\nSigPnd:\t0000000000000000\nShdPnd:\t0000000000000000\nSigBlk:\t0000000000000000\nSigIgn:\tffffffffffffffff\nSigCgt:\t0000000000000000\nCapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\nSpeculation_Store_Bypass:\tthread vulnerable\nSpeculationIndirectBranch:\tconditional enabled\nCpus_allowed:\t%s\nCpus_allowed_list:\t%s\nMems_allowed:\t00000000,00000001\nMems_allowed_list:\t0\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t0\n' \
		"$esc" "$pid" "$pid" "$pid" "$pid" "$mask" "$cpulist" >"$d/status"
	printf '%d (%s) S 2 0 0 0 -1 %u 0 0 0 0 0 0 0 0 -51 0 1 0 42 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 %d 50 1 0 0 0 0 0 0 0 0 0 0 0\n' \
		"$pid" "$name" "$pflags" "${cpulist%%[,-]*}" >"$d/stat"
}

# _tree_threads SPEC...: each --irq-thread IRQS[:CPUS] into _T_THREAD,
# CPUS for a thread pinned there, empty for one that follows its IRQ.
_tree_threads() {
	local spec irqs cpus irq
	local -a set=()
	for spec; do
		irqs=${spec%%:*} cpus='' set=()
		[[ $spec != *:* ]] || cpus=${spec#*:}
		if [[ -n $cpus ]]; then
			_parse_list "$cpus" "$_T_NCPUS" || return
		fi
		_tree_irq_set set --irq-thread "$irqs" || return
		for irq in "${!set[@]}"; do
			_T_THREAD[$irq]=$cpus
		done
	done
}

# _tree_write_threads: with --threadirqs or --irq-thread, a kernel thread
# irq/N-NAME for each action of the IRQs (kernel/irq/manage.c
# setup_irq_thread()), PID 1000 + 8 N + the action's index, on its IRQ's
# effective CPUs (irq_thread_check_affinity()) or those --irq-thread pins
# it to. 5.10 cuts the name to 15 bytes (TASK_COMM_LEN); 5.19 and later
# show a kernel thread's whole name (get_kthread_comm()).
_tree_write_threads() {
	local irq k name cpus eff
	local -a acts=()
	for irq in "${!_T_CHIP[@]}"; do
		if ((!_T_THREADIRQS)) && [[ -z ${_T_THREAD[$irq]+set} ]]; then
			continue
		fi
		_tree_names acts "$irq"
		_tree_norm eff "${_T_EFF[irq]}" || return
		cpus=${_T_THREAD[$irq]:-$eff}
		for k in "${!acts[@]}"; do
			name=irq/$irq-${acts[k]}
			[[ $_T_KERNEL != 5.10 ]] || name=${name:0:15}
			write_task $((1000 + 8 * irq + k)) "$name" "$cpus" || return
		done
	done
}

# _tree_write_cpus ISOLATED NOHZ: the online-independent CPU files.
_tree_write_cpus() {
	local cpu=$ROOT/sys/devices/system/cpu node=$ROOT/sys/devices/system/node
	local c k nodes
	local -a dirs=()
	for ((c = 0; c < _T_NCPUS; c++)); do
		dirs+=("$cpu/cpu$c")
	done
	for ((k = 0; k < _T_NNODES; k++)); do
		dirs+=("$node/node$k")
	done
	_tree_mkdirs "${dirs[@]}" "$ROOT/proc/irq"
	printf '%s\n' "$_T_ALL" >"$cpu/possible"
	printf '%s\n' "$_T_ALL" >"$cpu/present"
	printf '8191\n' >"$cpu/kernel_max"
	printf '%s\n' "$1" >"$cpu/isolated"
	# drivers/base/cpu.c print_cpus_nohz_full(): "%*pbl" of a NULL mask,
	# "(null)" right-aligned in nr_cpu_ids columns (lib/vsprintf.c
	# check_pointer(); Debian's 6.1 on 16 CPUs: 10 blanks, then "(null)")
	if [[ $_T_KERNEL == 5.10 ]]; then
		:
	elif [[ -n $2 ]]; then
		printf '%s\n' "$2" >"$cpu/nohz_full"
	else
		printf '%*s\n' "$_T_NCPUS" '(null)' >"$cpu/nohz_full"
	fi
	nodes=0
	((_T_NNODES > 1)) && nodes=0-$((_T_NNODES - 1))
	printf '%s\n' "$nodes" >"$node/possible"
	printf '%s\n' "$nodes" >"$node/online"
}

# _tree_place_devices: give every device its IRQs, those with a fixed
# first IRQ before those that take the next free run from 24.
_tree_place_devices() {
	local d pass n
	for pass in fixed free; do
		for d in "${!_T_DEV_KIND[@]}"; do
			if [[ $pass == fixed && -z ${_T_DEV_FIRST[d]} ]] ||
				[[ $pass == free && -n ${_T_DEV_FIRST[d]} ]]; then
				continue
			fi
			if ((_T_DEV_NODE[d] >= _T_NNODES)); then
				_tree_err "${_T_DEV_NAME[d]}: no node ${_T_DEV_NODE[d]}"
				return 1
			fi
			if [[ $pass == free ]]; then
				_tree_dev_nvec n "$d"
				_tree_free_run "_T_DEV_FIRST[$d]" "$n"
			fi
			_tree_dev_irqs "$d" || return
		done
	done
}

# _tree_num VAR OPTION VALUE MIN: VAR=VALUE if VALUE is a number >= MIN.
_tree_num() {
	local -n _tn_var=$1
	if ! [[ $3 =~ ^[0-9]+$ ]] || ((10#$3 < $4)); then
		_tree_err "make_root: $2 \"$3\" is not a number >= $4"
		return 1
	fi
	_tn_var=$((10#$3))
}

# _tree_irq_opt OPTION VALUE: --chip and the like, for the latest --irq.
_tree_irq_opt() {
	local irq=$_T_CUR
	if [[ -z $irq ]]; then
		_tree_err "make_root: $1 needs an --irq before it"
		return 1
	fi
	case $1 in
	--chip) _T_CHIP[irq]=$2 ;;
	--hwirq) _T_HW[irq]=$2 ;;
	--irq-node) _T_INODE[irq]=$2 ;;
	--affinity) _T_AFF[irq]=$2 ;;
	--effective) _T_EFF[irq]=$2 ;;
	--hint) _T_HINT[irq]=$2 ;;
	esac
}

# _tree_driver_opt DRIVER: --driver, for the latest --nic (see
# _tree_nic_name).
_tree_driver_opt() {
	local d=$_T_CURDEV
	if [[ -z $d || ${_T_DEV_KIND[d]} != nic ]]; then
		_tree_err "make_root: --driver needs a --nic before it"
		return 1
	fi
	if [[ $1 != @(ixgbe|i40e|ice|split|ixgbe-tx|ena|mlx5|gve|bnx2x|vmxnet3|vmxnet3-split|e1000e) ]]; then
		_tree_err "make_root: --driver \"$1\": not ixgbe, i40e, ice," \
			"split, ixgbe-tx, ena, mlx5, gve, bnx2x, vmxnet3, vmxnet3-split" \
			"or e1000e"
		return 1
	fi
	if [[ $1 == e1000e ]] && ((_T_DEV_Q[d] != 1)); then
		_tree_err "make_root: --driver e1000e: one queue only"
		return 1
	fi
	_T_DEV_DRIVER[d]=$1
}

# _tree_queue_opt --xps|--rps NAME:K=LIST: the CPUs of queue tx-K or rx-K
# of NIC NAME; checked once every device is known (_tree_queue_check).
_tree_queue_opt() {
	if ! [[ $2 =~ ^([^:/]+):([0-9]+)=(.*)$ ]]; then
		_tree_err "make_root: $1 \"$2\": not NAME:QUEUE=LIST"
		return 1
	fi
	local key=${BASH_REMATCH[1]}:$((10#${BASH_REMATCH[2]}))
	if [[ $1 == --xps ]]; then
		_T_XPS[$key]=${BASH_REMATCH[3]}
	else
		_T_RPS[$key]=${BASH_REMATCH[3]}
	fi
	_T_QUEUES=1
}

# _tree_queue_check OPTION SET: each NAME:K of SET (_T_XPS or _T_RPS) is a
# queue of a NIC with a list of the tree's CPUs, and an xps_cpus is there.
_tree_queue_check() {
	local -n _qc_set=$2
	local key name k d found
	for key in "${!_qc_set[@]}"; do
		name=${key%:*} k=${key##*:} found=''
		for d in "${!_T_DEV_KIND[@]}"; do
			if [[ ${_T_DEV_NAME[d]} == "$name" &&
				${_T_DEV_KIND[d]} == @(nic|virtio-nic) ]]; then
				found=$d
			fi
		done
		if [[ -z $found ]] || ((k >= _T_DEV_Q[found])); then
			_tree_err "make_root: $1 $key: no such queue"
			return 1
		fi
		if [[ $1 == --xps ]] && ((_T_DEV_Q[found] == 1)); then
			_tree_err "make_root: $1 $key: one queue, no xps_cpus"
			return 1
		fi
		_parse_list "${_qc_set[$key]}" "$_T_NCPUS" || return
	done
}

# _tree_irq_spec NUM[=NAME1|NAME2...]: an --irq.
_tree_irq_spec() {
	local num=${1%%=*} names=''
	if [[ $1 == *=* ]]; then
		names=${1#*=}
	fi
	[[ $num =~ ^[0-9]+$ ]] && num=$((10#$num))
	_tree_irq_add "$num" "$names" IO-APIC "$num-edge" 0 || return
	_T_CUR=$num
}

_T_FLAG_OPTS=' --no-list-files --no-sysirq --irqbalance --debugfs
 --no-debugfs --no-effective --queues --virtnet-affinity --arm64
 --threadirqs '
_T_VALUE_OPTS=' --dir --cpus --nodes --sockets --threads --nr-irqs --offline
 --isolated --nohz-full --legacy --irq --chip --hwirq --irq-node --affinity
 --effective --hint --nic --nvme --virtio-nic --virtio-blk --cmdline
 --irqbalance-env --irqbalance-args --managed --unmovable --pending --idle
 --driver --xps --rps --kernel --vectors --irq-thread '

# _tree_options ARGS...: parse make_root's options into the _T_* state
# and the caller's locals.
_tree_options() {
	local legacy
	local -a words
	while (($#)); do
		if [[ $_T_FLAG_OPTS == *[[:space:]]"$1"[[:space:]]* ]]; then
			case $1 in
			--no-list-files) _T_LISTFILES=0 ;;
			--no-sysirq) _T_SYSIRQ=0 ;;
			--irqbalance) _T_IRQBALANCE=1 ;;
			--debugfs) _T_DEBUGFS=1 ;;
			--no-debugfs) _T_NODEBUGFS=1 ;;
			--no-effective) _T_EFFFILES=0 ;;
			--queues) _T_QUEUES=1 ;;
			--arm64) _T_ARM64=1 ;;
			--threadirqs) _T_THREADIRQS=1 ;;
			--virtnet-affinity)
				if [[ -z $_T_CURDEV ||
					${_T_DEV_KIND[_T_CURDEV]} != virtio-nic ]]; then
					_tree_err "make_root: --virtnet-affinity" \
						"needs a --virtio-nic before it"
					return 1
				fi
				_T_DEV_VAFF[_T_CURDEV]=1 _T_QUEUES=1 ;;
			esac
			shift
			continue
		fi
		if [[ $_T_VALUE_OPTS != *[[:space:]]"$1"[[:space:]]* ]]; then
			_tree_err "make_root: unknown option \"$1\""
			return 1
		elif (($# < 2)); then
			_tree_err "make_root: $1 needs a value"
			return 1
		fi
		case $1 in
		--dir) dir=$2 ;;
		--cpus) _tree_num ncpus "$1" "$2" 1 || return ;;
		--nodes) _tree_num nodes "$1" "$2" 1 || return ;;
		--sockets) _tree_num sockets "$1" "$2" 1 || return ;;
		--threads) _tree_num threads "$1" "$2" 1 || return ;;
		--nr-irqs) _tree_num _T_NR_IRQS "$1" "$2" 1 || return ;;
		--vectors) _tree_num _T_VECTORS "$1" "$2" 0 || return ;;
		--offline) offline+=,$2 ;;
		--isolated) isolated+=,$2 ;;
		--nohz-full) nohz+=,$2 ;;
		--legacy)
			_tree_num legacy "$1" "$2" 0 || return
			_tree_add_legacy "$legacy" || return
			;;
		--irq) _tree_irq_spec "$2" || return ;;
		--nic) _tree_dev_spec nic "$2" || return ;;
		--nvme) _tree_dev_spec nvme "$2" || return ;;
		# NAME:QUEUES[:NODE[:FIRSTIRQ]] as --nic; see _tree_write_virtio
		--virtio-nic) _tree_dev_spec virtio-nic "$2" || return ;;
		--virtio-blk) _tree_dev_spec virtio-blk "$2" || return ;;
		--driver) _tree_driver_opt "$2" || return ;;
		--xps | --rps) _tree_queue_opt "$1" "$2" || return ;;
		--cmdline) _T_CMDLINE=$2 _T_HAS_CMDLINE=1 ;;
		--kernel)
			if [[ $2 != @(5.10|6.1|6.12) ]]; then
				_tree_err "make_root: --kernel $2: 5.10, 6.1 or 6.12"
				return 1
			fi
			_T_KERNEL=$2
			[[ $2 == 6.12 ]] && _T_REFUSE=EPERM
			;;
		--irqbalance-env)
			if [[ $2 != [!=]*=* ]]; then
				_tree_err "make_root: $1 \"$2\" is not" \
					VAR=VALUE
				return 1
			fi
			_T_IB_ENV+=("$2") _T_IRQBALANCE=1
			;;
		--irqbalance-args)
			IFS=' ' read -ra words <<<"$2"
			_T_IB_ARGS+=("${words[@]}") _T_IRQBALANCE=1
			;;
		# IRQ lists: checked once every IRQ is known (_tree_irq_sets)
		--managed) managed+=,$2 _T_DEBUGFS=1 ;;
		--unmovable) unmovable+=,$2 ;;
		--pending) pending+=,$2 _T_DEBUGFS=1 ;;
		--idle) idle+=,$2 ;;
		# IRQS[:CPUS]: checked once every IRQ is known (_tree_threads)
		--irq-thread) irqthreads+=("$2") ;;
		*) _tree_irq_opt "$1" "$2" || return ;;
		esac
		shift 2
	done
}

# make_root [OPTIONS]: see the top of this file and tests/harness/tree.bats.
make_root() {
	_tree_fast _tree_cached_root "$@"
}

# _tree_cached_root [OPTIONS]: make_root through a cache of the trees
# built in this bats run, keyed by the options less --dir: a tree built
# once is copied (cp -a) with the _T_* state it left, which is a tenth of
# the processes and time of building it again. A --dir that exists
# already, or anything but whole options, is built as asked.
_tree_cached_root() {
	local dir=${BATS_TEST_TMPDIR:+$BATS_TEST_TMPDIR/root} key cache
	local -a args=() all=("$@")
	while (($#)); do
		if [[ $_T_FLAG_OPTS == *[[:space:]]"$1"[[:space:]]* ]]; then
			args+=("$1")
			shift
		elif [[ $_T_VALUE_OPTS != *[[:space:]]"$1"[[:space:]]* ]] ||
			(($# < 2)); then
			_tree_make_root "${all[@]}"
			return
		elif [[ $1 == --dir ]]; then
			dir=$2
			shift 2
		else
			args+=("$1" "$2")
			shift 2
		fi
	done
	if [[ -z $dir || -z ${BATS_RUN_TMPDIR:-} || -e $dir ]]; then
		_tree_make_root "${all[@]}"
		return
	fi
	[[ $dir == /* ]] || dir=$PWD/$dir
	key=$(printf '%s\0' "${args[@]}" | md5sum) || return
	cache=$BATS_RUN_TMPDIR/irqaff-trees/${key%% *}
	if [[ ! -f $cache/state ]]; then
		_tree_make_root "${args[@]}" --dir "$dir" || return
		_tree_cache_save "$cache"
		return 0
	fi
	_tree_reset
	mkdir -p -- "$dir" && cp -a -- "$cache/tree/." "$dir" || return
	# shellcheck disable=SC1091 # written by _tree_cache_save
	source "$cache/state" || return
	export ROOT=$dir IRQAFF_ROOT=$dir
	_tree_kernel_writes
}

# _tree_cache_save DIR: keep $ROOT and the _T_* state in DIR for
# _tree_cached_root, unless a test beside this one did it first (the
# rename is atomic; the loser's copy goes).
_tree_cache_save() {
	local tmp=$1.$BASHPID.$RANDOM
	local -a vars=()
	mapfile -t vars <<<"$(compgen -v _T; compgen -v _PL_)"
	if mkdir -p -- "$tmp" && cp -a -- "$ROOT" "$tmp/tree" &&
		declare -p "${vars[@]}" | sed 's/^declare -/declare -g -/' \
			>"$tmp/state" && mv -T -- "$tmp" "$1" 2>/dev/null; then
		return 0
	fi
	rm -rf -- "$tmp"
}

_tree_make_root() {
	local dir=${BATS_TEST_TMPDIR:+$BATS_TEST_TMPDIR/root} ncpus=4 nodes=1
	local sockets='' threads=1 offline='' isolated='' nohz='' c
	local managed='' pending='' idle='' unmovable=''
	local -a set=() irqs=() irqthreads=()
	_tree_reset
	_tree_options "$@" || return
	if [[ -z $dir ]]; then
		_tree_err "make_root: no --dir and no BATS_TEST_TMPDIR"
		return 1
	fi
	[[ $dir == /* ]] || dir=$PWD/$dir
	if [[ -e $dir && -n $(find "$dir" -mindepth 1 -maxdepth 1 -print -quit) ]]; then
		_tree_err "make_root: $dir is not empty"
		return 1
	fi
	if ((ncpus > 8192)); then
		_tree_err "make_root: at most 8192 CPUs"
		return 1
	fi
	_T_NCPUS=$ncpus _T_NNODES=$nodes _T_ALL=0
	((ncpus > 1)) && _T_ALL=0-$((ncpus - 1))
	_tree_topology "$ncpus" "${sockets:-$nodes}" "$threads" "$nodes" || return
	_cpus_into set "${offline#,}" "$ncpus" || return
	for ((c = 0; c < ncpus; c++)); do
		[[ -n ${set[c]+set} ]] || _T_ON[c]=1
	done
	if ((${#_T_ON[@]} == 0)); then
		_tree_err "make_root: no CPU is online"
		return 1
	fi
	_tree_norm isolated "${isolated#,}" || return
	_tree_norm nohz "${nohz#,}" || return
	if [[ $_T_KERNEL == 5.10 && -n $nohz ]]; then
		_tree_err "make_root: 5.10 has no nohz_full"
		return 1
	fi
	_tree_place_devices || return
	_tree_virtnet_affinity
	irqs=("${!_T_CHIP[@]}")
	if [[ -n $_T_NR_IRQS ]] && ((${#irqs[@]} && irqs[-1] >= _T_NR_IRQS)); then
		_tree_err "make_root: IRQ ${irqs[-1]} is not below --nr-irqs $_T_NR_IRQS"
		return 1
	fi
	_tree_irq_set _T_MANAGED --managed "${managed#,}" || return
	_tree_irq_set _T_UNMOVABLE --unmovable "${unmovable#,}" || return
	_tree_irq_set _T_PENDING --pending "${pending#,}" || return
	((_T_NODEBUGFS == 0)) || _T_DEBUGFS=0
	_tree_irq_set _T_IDLE --idle "${idle#,}" || return
	_tree_threads "${irqthreads[@]}" || return
	_tree_queue_check --xps _T_XPS || return
	_tree_queue_check --rps _T_RPS || return
	for c in "${!_T_HINT[@]}"; do
		_parse_list "${_T_HINT[c]}" "$ncpus" || return
	done

	export ROOT=$dir IRQAFF_ROOT=$dir
	mkdir -p -- "$ROOT"
	_tree_write_cpus "$isolated" "$nohz"
	_tree_write_procs
	_tree_write_devices
	c=$isolated${isolated:+${nohz:+,}}$nohz
	((_T_QUEUES == 0)) || _tree_write_queues "$c"
	_tree_write_online
	_tree_write_irqs || return
	_tree_write_threads
	((_T_DEBUGFS == 0)) || _tree_write_debugfs
	[[ -z $_T_VECTORS ]] || _tree_write_vectors
	_tree_kernel_writes
}

# _tree_write_vectors: sys/kernel/debug/irq/domains/VECTOR, as
# kernel/irq/irqdomain.c irq_domain_debug_show_one() prints the domain
# and arch/x86/kernel/apic/vector.c x86_vector_debug_show() its matrix
# (kernel/irq/matrix.c irq_matrix_debug_show()), each online CPU with
# --vectors N for devices: act its IRQs not managed, man one for each
# managed IRQ whose CPUs include it (irq_matrix_reserve_managed()), mac
# the managed ones it runs, avl N - act - man; its vectors from 33 on.
_tree_write_vectors() {
	local dir=$ROOT/sys/kernel/debug/irq/domains irq c n=0 tot=0 avl=0 v
	local -A act=() man=() mac=()
	local -a set=()
	mkdir -p -- "$dir"
	for irq in "${!_T_CHIP[@]}"; do
		[[ -n ${_T_EFF[irq]:-} ]] || _tree_effective "$irq" || return
		c=${_T_EFF[irq]%%[,-]*}
		if [[ -n ${_T_MANAGED[irq]+set} ]]; then
			mac[$c]=$((${mac[$c]:-0} + 1))
			_cpus_into set "${_T_AFF[irq]:-$_T_ALL}" "$_T_NCPUS" ||
				return
			for c in "${!set[@]}"; do
				[[ -z ${_T_ON[c]+set} ]] ||
					man[$c]=$((${man[$c]:-0} + 1))
			done
		else
			act[$c]=$((${act[$c]:-0} + 1))
		fi
		n=$((n + 1))
	done
	{
		printf 'name:   VECTOR\n size:   0\n mapped: %d\n' "$n"
		printf ' flags:  0x00000003\n'
		for c in "${!_T_ON[@]}"; do
			avl=$((avl + _T_VECTORS - ${act[$c]:-0} - ${man[$c]:-0}))
			tot=$((tot + ${act[$c]:-0} + ${mac[$c]:-0}))
		done
		printf 'Online bitmaps: %6u\nGlobal available: %6u\n' \
			"${#_T_ON[@]}" "$avl"
		printf 'Global reserved:  %6u\nTotal allocated:  %6u\n' 0 "$tot"
		printf 'System: 38: 0-19,32,50,128,236,240-242,244,246-255\n'
		printf '%*s| CPU | avl | man | mac | act | vectors\n' 1 ' '
		for c in "${!_T_ON[@]}"; do
			v=$((${act[$c]:-0} + ${mac[$c]:-0}))
			if ((v == 0)); then
				v=''
			elif ((v == 1)); then
				v=33
			else
				v=33-$((32 + v))
			fi
			printf '%*s %4d  %4u  %4u  %4u %4u  %s\n' 1 ' ' "$c" \
				$((_T_VECTORS - ${act[$c]:-0} - ${man[$c]:-0})) \
				"${man[$c]:-0}" "${mac[$c]:-0}" "${act[$c]:-0}" "$v"
		done
	} >"$dir/VECTOR"
}

# _tree_kernel_writes: with --managed, --unmovable or --no-debugfs, the
# tree's affinity files take writes as the kernel's do (kernel/irq/proc.c
# write_irq_affinity()): EIO (EPERM with --kernel 6.12) for an
# IRQ user space cannot move, before the value is parsed; EINVAL for a
# value that does not parse, nothing changed; no size. tests/fault/fault.c does it, preloaded by a function
# irqaff that stands for the binary until the next make_root.
_tree_kernel_writes() {
	local irq spec='' f
	((${#_T_MANAGED[@]} + ${#_T_UNMOVABLE[@]} + _T_NODEBUGFS)) || return 0
	for irq in "${!_T_MANAGED[@]}" "${!_T_UNMOVABLE[@]}"; do
		for f in smp_affinity smp_affinity_list; do
			spec+=,$ROOT/proc/irq/$irq/$f:$_T_REFUSE
		done
	done
	export IRQAFF_KERNEL=1 IRQAFF_TREE_FAULT=${spec#,}
	# shellcheck disable=SC2317 # called by the tests
	irqaff() {
		LD_PRELOAD=$_T_HELPERS/../../build/fault.so \
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
			command irqaff "$@"
	}
}

# _tree_virtnet_affinity: each --virtio-nic with --virtnet-affinity as
# virtio_net leaves it (drivers/net/virtio_net.c, virtnet_set_affinity()):
# the online CPUs cut in order into one group per queue pair, stride
# online/pairs CPUs and the first online%pairs groups one more, each the
# affinity and hint of input.K and output.K (vp_set_vq_affinity():
# irq_set_affinity_hint()) and tx-K's XPS, unless --affinity, --hint or
# --xps says otherwise. Seen in a Debian 6.1 guest of 16 CPUs and 4
# pairs: 0-3, 4-7, 8-11, 12-15.
_tree_virtnet_affinity() {
	local d i j k irq list q stride extra
	local -a on=("${!_T_ON[@]}")
	for d in "${!_T_DEV_VAFF[@]}"; do
		q=${_T_DEV_Q[d]} k=0
		stride=$((${#on[@]} / q)) extra=$((${#on[@]} % q))
		if ((stride == 0)); then
			stride=1 extra=0
		fi
		for ((i = 0; i < q; i++)); do
			list=''
			for ((j = 0; j < stride + (i < extra); j++)); do
				list+=,${on[k]}
				k=$(((k + 1) % ${#on[@]}))
			done
			_tree_norm list "${list#,}" || return
			for irq in $((_T_DEV_FIRST[d] + 1 + 2 * i)) \
				$((_T_DEV_FIRST[d] + 2 + 2 * i)); do
				: "${_T_AFF[irq]:=$list}" "${_T_HINT[irq]:=$list}"
			done
			if ((q > 1)); then
				: "${_T_XPS[${_T_DEV_NAME[d]}:$i]:=$list}"
			fi
		done
	done
}

# _tree_irq_set SET OPTION LIST: SET[irq]=1 for each IRQ of LIST (CPU list
# syntax), each one of the tree's.
_tree_irq_set() {
	local _is_irq
	_cpus_into "$1" "$3" || return
	local -n _is_set=$1
	for _is_irq in "${!_is_set[@]}"; do
		if [[ -z ${_T_CHIP[_is_irq]+set} ]]; then
			_tree_err "make_root: $2: no IRQ $_is_irq in the tree"
			return 1
		fi
	done
}

# set_online LIST: make exactly the CPUs of LIST online, and rewrite what
# depends on it (cpu/online, offline, cpuN/online and topology, node and
# PCI cpulists, proc/interrupts, per_cpu_count). proc/irq/ is left alone,
# as it is.
set_online() {
	_tree_fast _tree_set_online "$@"
}

_tree_set_online() {
	local c
	local -a set=()
	if ((_T_NCPUS == 0)); then
		_tree_err "set_online: no make_root in this shell"
		return 1
	fi
	_cpus_into set "$1" "$_T_NCPUS" || return
	if ((${#set[@]} == 0)); then
		_tree_err "set_online: no CPU would be online"
		return 1
	fi
	_T_ON=()
	for c in "${!set[@]}"; do
		_T_ON[c]=1
	done
	_tree_write_online
	_tree_write_counts 0
	_tree_drop_unused
}

irq_dir() {
	printf '%s/proc/irq/%s\n' "$ROOT" "$1"
}

# list_of IRQ: the path of IRQ's smp_affinity_list, for assert_file and
# the like.
list_of() {
	printf '%s/smp_affinity_list' "$(irq_dir "$1")"
}

# irq_total IRQ: the IRQ's row total, from the formula at the top and the
# tree's current online file; 0 for an --idle IRQ.
irq_total() {
	_tree_fast _tree_irq_total "$@"
}

_tree_irq_total() {
	local irq=$1 c sum=0 n=0 line
	local -a set=()
	if [[ ! -d $ROOT/proc/irq/$irq ]]; then
		_tree_err "irq_total: no IRQ \"$irq\" in $ROOT"
		return 1
	fi
	if [[ -n ${_T_IDLE[10#$irq]+set} ]]; then
		printf '0\n'
		return
	fi
	read -r line <"$ROOT/sys/devices/system/cpu/online"
	_cpus_into set "$line" || return
	for c in "${!set[@]}"; do
		sum=$((sum + c)) n=$((n + 1))
	done
	printf '%d\n' $(((10#$irq + 1) * 10000 * n + sum))
}

# add_count IRQ COL N [IRQ COL N]...: N more interrupts of IRQ on
# proc/interrupts' column COL (1 is the first), in the kernel's " %10u"
# fields, wrapping at 2^32 as the kernel's unsigned int does; N written
# =V makes the count V (a count that went down, or one about to wrap).
# The file is replaced at once (rename), so a reader sees the old counts
# or all the new ones. per_cpu_count gets them too when the tree has it
# (column COL is the COL-th online CPU there).
add_count() {
	local f=$ROOT/proc/interrupts s line col spec='' a
	local -a on=() args=("$@")
	if (($# == 0 || $# % 3)); then
		_tree_err "add_count: IRQ COLUMN N triples expected"
		return 1
	fi
	for ((a = 0; a < $#; a += 3)); do
		spec+=" ${args[a]}:${args[a + 1]}:${args[a + 2]}"
	done
	awk -v spec="$spec" '
		BEGIN {
			k = split(spec, t, " ")
			for (i = 1; i <= k; i++) {
				split(t[i], p, ":")
				if (p[3] ~ /^=/)
					to[p[1] ":", p[2]] = substr(p[3], 2)
				add[p[1] ":", p[2]] += p[3]
			}
		}
		{
			for (key in add) {
				split(key, q, SUBSEP)
				if ($1 != q[1])
					continue
				w = index($0, ":") + 1 + 11 * (q[2] - 1)
				v = (key in to ? to[key] : substr($0, w, 11) + add[key]) % 4294967296
				$0 = substr($0, 1, w - 1) sprintf(" %10u", v) substr($0, w + 11)
			}
			print
		}' "$f" >"$f.new" && mv "$f.new" "$f" || return
	# per_cpu_count after: proc/interrupts is what irqaff samples
	for ((a = 0; a < $#; a += 3)); do
		s=$ROOT/sys/kernel/irq/${args[a]}/per_cpu_count
		[[ -f $s ]] || continue
		if ((${#on[@]} == 0)); then
			read -r line <"$ROOT/sys/devices/system/cpu/online"
			# not mapfile < <(...): a process substitution is $!
			read -ra on <<<"$(_cpus_of "$line" | tr '\n' ' ')"
		fi
		col=$((${on[args[a + 1] - 1]} + 1))
		awk -F, -v OFS=, -v col="$col" -v n="${args[a + 2]}" \
			'{ $col = (n ~ /^=/ ? substr(n, 2) : $col + n) % 4294967296; print }' \
			"$s" >"$s.new" && mv "$s.new" "$s" || return
	done
}

# settle_effective: what the kernel does once an IRQ's affinity is
# written: an effective CPU no longer in the requested ones becomes the
# first of those (x86 delivers to one CPU of the mask: kernel/irq/
# manage.c irq_do_set_affinity(), arch/x86/kernel/apic/vector.c).
settle_effective() {
	local d list eff c
	for d in "$ROOT"/proc/irq/[0-9]*; do
		[[ -f $d/effective_affinity_list ]] || continue
		read -r list <"$d/smp_affinity_list"
		read -r eff <"$d/effective_affinity_list"
		if _cpus_of "$list" | grep -qx -- "$eff"; then
			continue
		fi
		c=$(_cpus_of "$list" | head -n 1)
		printf '%s\n' "$c" >"$d/effective_affinity_list"
		printf '%s\n' "$(kmask "$_T_NCPUS" "$c")" >"$d/effective_affinity"
	done
}

# tree_sum [DIR]: one hash over every entry's type, mode, path and link
# target and every regular file's contents (not times: a write of the same
# bytes does not show).
tree_sum() {
	local dir=${1:-$ROOT} sum
	sum=$(cd "$dir" && find . -printf '%y %m %p %l\n' -type f \
		-exec sha256sum -- {} + | LC_ALL=C sort | sha256sum) || return
	printf '%s\n' "${sum%% *}"
}

# install_interrupts FILE: make FILE, less the "# " lines it starts with,
# the tree's proc/interrupts, and give each of its numbered rows a
# proc/irq/N directory: affinity all online CPUs, delivered to the first,
# node 0; and a sys/kernel/irq/N from the row (see the top of this file:
# counts of the CPUs the header names, 0 for the others). For dumps of
# real machines (tests/fixtures/interrupts/); run make_root first, with as
# many CPUs as the dump's header names.
install_interrupts() {
	_tree_fast _tree_install_interrupts "$@"
}

_tree_install_interrupts() {
	local file=$1 irq d first amask emask zero
	local -a irqs=() dirs=() on=("${!_T_ON[@]}")
	if ((_T_NCPUS == 0)); then
		_tree_err "install_interrupts: no make_root in this shell"
		return 1
	fi
	if [[ ! -f $file || ! -r $file ]]; then
		_tree_err "install_interrupts: cannot read \"$file\""
		return 1
	fi
	awk 'body || !/^# / { body = 1; print }' "$file" \
		>"$ROOT/proc/interrupts" || return
	mapfile -t irqs < <(awk -F: '/^ *[0-9]+:/ { print $1 + 0 }' \
		"$ROOT/proc/interrupts") || return
	for irq in "${irqs[@]}"; do
		dirs+=("$ROOT/proc/irq/$irq")
		((_T_SYSIRQ == 0)) || dirs+=("$ROOT/sys/kernel/irq/$irq")
	done
	_tree_mkdirs "${dirs[@]}"
	_tree_write_counts 1 || return
	first=${on[0]}
	_tree_mask amask "$_T_ONLINE_LIST"
	_tree_mask emask "$first"
	_tree_mask zero ''
	for irq in "${irqs[@]}"; do
		d=$ROOT/proc/irq/$irq
		printf '%s\n' "$amask" >"$d/smp_affinity"
		printf '%s\n' "$emask" >"$d/effective_affinity"
		if ((_T_LISTFILES)); then
			printf '%s\n' "$_T_ONLINE_LIST" >"$d/smp_affinity_list"
			printf '%s\n' "$first" >"$d/effective_affinity_list"
		fi
		printf '%s\n' "$zero" >"$d/affinity_hint"
		printf '0\n' >"$d/node"
	done
}

# snapshot_interrupts FILE: a copy of the tree's proc/interrupts now, as
# "cp /proc/interrupts FILE" saves the kernel's, for irqaff --sample-from:
# the counts a later read would see come from add_count on the tree (or an
# edit of the copy), with no irqaff running in the background.
snapshot_interrupts() {
	if (($# != 1)); then
		_tree_err "snapshot_interrupts: FILE expected"
		return 1
	fi
	cp -- "$ROOT/proc/interrupts" "$1"
}

# lists IRQ...: each IRQ's smp_affinity_list, one a line.
lists() {
	local irq
	for irq in "$@"; do
		cat "$(irq_dir "$irq")/smp_affinity_list"
	done
}
