# bash completion for irqaff(8)
#
# Commands, their options, IRQ numbers and action names (asked of irqaff
# itself), dev: devices, interfaces with queues, node: NUMA nodes and the
# columns of show, cpus and queues. It
# needs only bash, not the bash-completion package. The root is --root or
# IRQAFF_ROOT.

_irqaff_commands='show set spread balance default isolate explain cpus top
queues xps rps save restore check mask list'
_irqaff_columns='IRQ AFFINITY EFFECTIVE NODE TOTAL NAME HINT ONLINE CHIP
HWIRQ TYPE FLOW DEVICE MANAGED MOVABLE RATE PENDING STUCK THREAD THREAD-CPUS'
_irqaff_cpus_columns='CPU NODE STATE IRQS TOTAL RATE TOP SYSTEM'
_irqaff_queues_columns='DEV QUEUE IRQ AFFINITY CPUS XPS RPS ALIGNED PENDING'

# The options of one command, as its --help lists them.
_irqaff_options()
{
	local -a o
	case $1 in
	show)
		o=(-m --mask -J --json -n --noheadings -o --output -s --sort
			-a --all -q --quiet -i --interval --count
			--sample-from) ;;
	set)
		o=(-n --dry-run -v --verbose -J --json -m --mask -q --quiet) ;;
	spread)
		o=(-n --dry-run -v --verbose -J --json -c --cpus -x --exclude
			--linear --include-isolated --xps -q --quiet) ;;
	balance)
		o=(-n --dry-run -v --verbose -J --json -i --interval
			--sample-from -c --cpus --include-isolated --xps --plan
			-q --quiet) ;;
	default)
		o=(-m --mask -n --dry-run -v --verbose -J --json) ;;
	isolate)
		o=(-n --dry-run -v --verbose -q --quiet -J --json -m --mask
			--check --accept --again --undo) ;;
	explain)
		o=(-v --verbose -J --json) ;;
	cpus)
		o=(-o --output -n --noheadings -J --json -i --interval
			--count --sample-from --irqs) ;;
	top)
		o=(-i --interval --count -s --sort -a --all -b --batch
			--sample-from) ;;
	queues)
		o=(-J --json -n --noheadings -o --output) ;;
	xps | rps)
		o=(-n --dry-run -v --verbose -J --json) ;;
	save)
		o=(--only --optional) ;;
	restore)
		o=(-n --dry-run -t --test -v --verbose -q --quiet -J --json
			--by-number --only) ;;
	check)
		o=(-q --quiet -J --json --by-number --only) ;;
	mask | list)
		o=(-b --bits) ;;
	*)
		return 0 ;;
	esac
	printf '%s\n' "${o[@]}" -h --help
}

# Options that take a value, per command.
_irqaff_takes_value()
{
	case $1:$2 in
	show:-o | show:--output | save:-o | save:--output) return 0 ;;
	show:-s | show:--sort) return 0 ;;
	spread:-c | spread:--cpus | spread:-x | spread:--exclude) return 0 ;;
	balance:-i | balance:--interval | balance:-c | balance:--cpus)
		return 0 ;;
	mask:-b | mask:--bits | list:-b | list:--bits) return 0 ;;
	cpus:-o | cpus:--output | cpus:-i | cpus:--interval) return 0 ;;
	cpus:-c | cpus:--count | show:-i | show:--interval) return 0 ;;
	show:-c | show:--count | queues:-o | queues:--output) return 0 ;;
	save:--only | restore:--only | check:--only) return 0 ;;
	cpus:--irqs) return 0 ;;
	top:-i | top:--interval | top:--count | top:-s | top:--sort)
		return 0 ;;
	show:--sample-from | cpus:--sample-from | balance:--sample-from | \
		top:--sample-from)
		return 0 ;;
	balance:--plan) return 0 ;;
	esac
	return 1
}

# COMP_WORDS with the ":" and "=" that COMP_WORDBREAKS split off joined
# back, into _irqaff_w and _irqaff_cw; _irqaff_trim is what readline does
# not replace (the current word up to its last break character).
_irqaff_join_words()
{
	local i w raw
	_irqaff_w=()
	_irqaff_cw=0
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 1)) && [[ $w =~ ^[:=]+$ ||
			${COMP_WORDS[i - 1]} =~ ^[:=]+$ ]]; then
			_irqaff_w[${#_irqaff_w[@]} - 1]+=$w
		else
			_irqaff_w+=("$w")
		fi
		if ((i == COMP_CWORD)); then
			_irqaff_cw=$((${#_irqaff_w[@]} - 1))
		fi
	done
	if ((COMP_CWORD >= ${#COMP_WORDS[@]})); then
		_irqaff_w+=('')
		_irqaff_cw=$((${#_irqaff_w[@]} - 1))
	fi
	raw=${COMP_WORDS[COMP_CWORD]-}
	if [[ $raw =~ ^[:=]+$ ]]; then
		_irqaff_trim=${_irqaff_w[_irqaff_cw]}
	else
		_irqaff_trim=${_irqaff_w[_irqaff_cw]%"$raw"}
	fi
}

# COMPREPLY: the candidates that start with $1, less _irqaff_trim, but
# none whose last item is already an item of the list before it (eth0,
# IRQ,NAME): no repeats.
_irqaff_reply()
{
	local cur=$1 c last typed
	shift
	COMPREPLY=()
	for c in "$@"; do
		if [[ $c == "$cur"* ]]; then
			last=${c##*,}
			typed=${c%"$last"}
			typed=${typed##*[=:]}
			typed=${typed#+}
			if [[ -n $last && ,${typed^^} == *,"${last^^}",* ]]; then
				continue
			fi
			COMPREPLY+=("${c#"$_irqaff_trim"}")
		fi
	done
	if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *[:,] ]]; then
		compopt -o nospace 2>/dev/null || true
	fi
	return 0
}

# The root directory irqaff will use, as a prefix for paths.
_irqaff_prefix()
{
	if [[ -n $_irqaff_root ]]; then
		printf '%s\n' "${_irqaff_root%/}"
	else
		printf '%s\n' "${IRQAFF_ROOT%/}"
	fi
}

# IRQ numbers when $1 is a digit, else action names, one a line, from
# irqaff show.
_irqaff_irqs()
{
	local irq names name
	local -a root_opt=()
	local -A seen=()
	local -a nums=() actions=()

	if [[ -n $_irqaff_root ]]; then
		root_opt=(--root "$_irqaff_root")
	fi
	while read -r irq names; do
		[[ $irq =~ ^[0-9]+$ ]] || continue
		if [[ $1 == [0-9] ]]; then
			nums+=("$irq")
			continue
		fi
		[[ $names == - ]] && continue
		while [[ -n $names ]]; do
			name=${names%%, *}
			if [[ $name == "$names" ]]; then
				names=
			else
				names=${names#*, }
			fi
			if [[ -n $name && $name != *[[:space:]]* &&
				-z ${seen[$name]-} ]]; then
				seen[$name]=1
				actions+=("$name")
			fi
		done
	done < <("${_irqaff_w[0]}" "${root_opt[@]}" show -a -n -o IRQ,NAME \
		2>/dev/null)
	if ((${#nums[@]} + ${#actions[@]} > 0)); then
		printf '%s\n' "${nums[@]}" "${actions[@]}"
	fi
}

# Network interfaces, NVMe controllers and disks that have a device.
_irqaff_devices()
{
	local p d
	p=$(_irqaff_prefix)
	for d in "$p"/sys/class/net/* "$p"/sys/class/nvme/* "$p"/sys/block/*; do
		if [[ -e $d/device ]]; then
			printf '%s\n' "${d##*/}"
		fi
	done
}

# Network interfaces with queues; with $1 (tx or rx) and $2, only those
# with at least $2 queues of that kind, else only those with a device
# (queues: lo and ifb0 have no IRQs to show).
_irqaff_interfaces()
{
	local p d
	local -a qs
	p=$(_irqaff_prefix)
	for d in "$p"/sys/class/net/*; do
		[[ -d $d/queues ]] || continue
		if [[ -n ${1-} ]]; then
			qs=("$d/queues/$1"-*)
			[[ -d ${qs[0]} && ${#qs[@]} -ge $2 ]] || continue
		else
			[[ -e $d/device ]] || continue
		fi
		printf '%s\n' "${d##*/}"
	done
}

# The CPUs the kernel isolates (isolcpus=, nohz_full=), each list once.
_irqaff_isolated()
{
	local p f l
	p=$(_irqaff_prefix)
	for f in isolated nohz_full; do
		read -r l 2>/dev/null <"$p/sys/devices/system/cpu/$f" || continue
		[[ $l == [0-9]* ]] && printf '%s\n' "$l"
	done | sort -u
}

_irqaff_nodes()
{
	local p d
	p=$(_irqaff_prefix)
	for d in "$p"/sys/devices/system/node/node*; do
		if [[ ${d##*/node} =~ ^[0-9]+$ ]]; then
			printf '%s\n' "${d##*/node}"
		fi
	done | sort -n
}

# The last item of a comma-separated list: $1 the word, sets head, tail.
_irqaff_split()
{
	if [[ $1 == *,* ]]; then
		_irqaff_head=${1%,*},
	else
		_irqaff_head=
	fi
	_irqaff_tail=${1#"$_irqaff_head"}
}

# $1 the word, $2 a fixed part in front of the list (--only=).
_irqaff_complete_irqs()
{
	local cur=$1 lead=${2-} body x
	local -a c=()
	body=${cur#"$lead"}
	# cpu: takes the rest of the word, a CPU set with commas of its own
	if [[ $body == cpu:* ]]; then
		_irqaff_complete_cpus "$cur" "${lead}cpu:"
		return 0
	elif [[ $body == *,cpu:* ]]; then
		_irqaff_complete_cpus "$cur" "$lead${body%%,cpu:*},cpu:"
		return 0
	fi
	_irqaff_split "$body"
	_irqaff_head=$lead$_irqaff_head
	if [[ $_irqaff_tail == dev:* ]]; then
		while read -r x; do
			c+=("${_irqaff_head}dev:$x")
		done < <(_irqaff_devices)
	else
		# numbers for a digit, else names: not thousands of both at once
		while IFS= read -r x; do
			c+=("$_irqaff_head$x")
		done < <(_irqaff_irqs "${_irqaff_tail:0:1}")
		if [[ $_irqaff_tail != [0-9]* ]]; then
			c+=("${_irqaff_head}all" "${_irqaff_head}dev:"
				"${_irqaff_head}cpu:")
		fi
	fi
	_irqaff_reply "$cur" "${c[@]}"
}

# $1 the word, $2 a fixed part in front of the set (cpu: in an IRQ list),
# $3 "noall" for isolate: the CPUs the kernel isolates, not all or N.
_irqaff_complete_cpus()
{
	local cur=$1 lead=${2-} x
	local -a c=()
	_irqaff_split "${cur#"$lead"}"
	_irqaff_head=$lead$_irqaff_head
	if [[ $_irqaff_tail != node:* && ${3-} == noall ]]; then
		# isolate: the CPUs the kernel isolates, not all or N
		while read -r x; do
			c+=("$_irqaff_head$x")
		done < <(_irqaff_isolated)
	elif [[ $_irqaff_tail != node:* ]]; then
		c+=("${_irqaff_head}all" "${_irqaff_head}N")
	fi
	while read -r x; do
		c+=("${_irqaff_head}node:$x")
	done < <(_irqaff_nodes)
	_irqaff_reply "$cur" "${c[@]}"
}

# $1 the word, $2 a fixed part in front of the list (--output=), $3 the
# columns (show's by default).
_irqaff_complete_columns()
{
	local cur=$1 lead=${2-} cols=${3-$_irqaff_columns} body head x
	local -a c=()
	body=${cur#"$lead"}
	if [[ $body == *,* ]]; then
		head=$lead${body%,*},
	elif [[ $body == +* ]]; then
		head=$lead+
	else
		head=$lead
	fi
	for x in $cols; do
		c+=("$head$x")
	done
	_irqaff_reply "$cur" "${c[@]}"
}

# A comma-separated list of interfaces with queues: $1 the word.
_irqaff_complete_interfaces()
{
	local x
	local -a c=()
	_irqaff_split "$1"
	while read -r x; do
		c+=("$_irqaff_head$x")
	done < <(_irqaff_interfaces)
	_irqaff_reply "$1" "${c[@]}"
}

# xps and rps: an interface, or after DEV: its tx (xps) or rx (rps)
# queues, from DEV's queues directory. $1 the word, $2 tx or rx. XPS
# chooses among transmit queues, so xps offers interfaces with two or
# more (the kernel does not even read xps_cpus of a single-queue device);
# RPS serves most a NIC with one receive queue, so rps offers any.
_irqaff_complete_queues()
{
	local cur=$1 kind=$2 dev p d q
	local -a c=() qs=()
	if [[ $cur != *:* ]]; then
		# shellcheck disable=SC2046
		_irqaff_reply "$cur" $(_irqaff_interfaces "$kind" \
			"$([[ $kind == tx ]] && echo 2 || echo 1)")
		return 0
	fi
	dev=${cur%%:*}
	_irqaff_split "${cur#*:}"
	p=$(_irqaff_prefix)
	if [[ $dev != */* && $dev != . && $dev != .. ]]; then
		for d in "$p/sys/class/net/$dev/queues/$kind"-*; do
			if [[ -d $d ]]; then
				qs+=("${d##*/}")
			fi
		done
	fi
	# in queue order: tx-2 before tx-10
	while read -r q; do
		[[ -n $q ]] && c+=("$dev:$_irqaff_head$q")
	done < <(printf '%s\n' "${qs[@]}" | sort -t- -k2n)
	_irqaff_reply "$cur" "${c[@]}"
}

_irqaff_complete_files()
{
	mapfile -t COMPREPLY < <(compgen -f -- "$1" | LC_ALL=C sort)
	compopt -o filenames 2>/dev/null || true
	return 0
}

_irqaff()
{
	local _irqaff_w _irqaff_cw _irqaff_trim _irqaff_root=''
	local _irqaff_head _irqaff_tail
	local cur prev cmd='' w i npos=0

	_irqaff_join_words
	cur=${_irqaff_w[_irqaff_cw]}
	prev=
	if ((_irqaff_cw > 0)); then
		prev=${_irqaff_w[_irqaff_cw - 1]}
	fi

	for ((i = 1; i < _irqaff_cw; i++)); do
		w=${_irqaff_w[i]}
		if [[ -z $cmd ]]; then
			case $w in
			--root)
				if ((i + 1 < _irqaff_cw)); then
					_irqaff_root=${_irqaff_w[i + 1]}
				fi
				i=$((i + 1)) ;;
			--root=*) _irqaff_root=${w#--root=} ;;
			-*) ;;
			*) cmd=$w ;;
			esac
		elif _irqaff_takes_value "$cmd" "$w"; then
			i=$((i + 1))
		elif [[ $w != -* ]]; then
			npos=$((npos + 1))
		fi
	done

	if [[ -z $cmd ]]; then
		if [[ $prev == --root ]]; then
			mapfile -t COMPREPLY < <(compgen -d -- "$cur" | LC_ALL=C sort)
			compopt -o filenames 2>/dev/null || true
		elif [[ $cur == --root=* ]]; then
			mapfile -t COMPREPLY < <(compgen -d -- "${cur#--root=}" | LC_ALL=C sort)
			if [[ -z $_irqaff_trim ]]; then
				COMPREPLY=("${COMPREPLY[@]/#/--root=}")
			fi
			compopt -o filenames 2>/dev/null || true
		elif [[ $cur == -* ]]; then
			_irqaff_reply "$cur" --root --help --version
		else
			# shellcheck disable=SC2086
			_irqaff_reply "$cur" $_irqaff_commands help
		fi
		return 0
	fi
	if [[ $cmd == help ]]; then
		if ((npos == 0)); then
			# shellcheck disable=SC2086
			_irqaff_reply "$cur" $_irqaff_commands
		fi
		return 0
	fi

	case $cmd:$prev in
	show:-o | show:--output | show:-s | show:--sort)
		_irqaff_complete_columns "$cur"
		return 0 ;;
	spread:-c | spread:--cpus | spread:-x | spread:--exclude | \
		balance:-c | balance:--cpus)
		_irqaff_complete_cpus "$cur"
		return 0 ;;
	save:-o | save:--output | show:--sample-from | cpus:--sample-from | \
		balance:--sample-from | balance:--plan | top:--sample-from)
		_irqaff_complete_files "$cur"
		return 0 ;;
	save:--only | restore:--only | check:--only | cpus:--irqs)
		_irqaff_complete_irqs "$cur"
		return 0 ;;
	cpus:-o | cpus:--output)
		_irqaff_complete_columns "$cur" '' "$_irqaff_cpus_columns"
		return 0 ;;
	queues:-o | queues:--output)
		_irqaff_complete_columns "$cur" '' "$_irqaff_queues_columns"
		return 0 ;;
	top:-s | top:--sort)
		_irqaff_reply "$cur" rate total irq name
		return 0 ;;
	mask:-b | mask:--bits | list:-b | list:--bits | cpus:-i | \
		cpus:--interval | cpus:-c | cpus:--count | show:-i | \
		show:--interval | show:-c | show:--count | balance:-i | \
		balance:--interval | top:-i | top:--interval | top:--count)
		COMPREPLY=()
		return 0 ;;
	esac
	case $cmd:$cur in
	show:--output=*)
		_irqaff_complete_columns "$cur" --output=
		return 0 ;;
	show:--sort=*)
		_irqaff_complete_columns "$cur" --sort=
		return 0 ;;
	cpus:--output=*)
		_irqaff_complete_columns "$cur" --output= "$_irqaff_cpus_columns"
		return 0 ;;
	queues:--output=*)
		_irqaff_complete_columns "$cur" --output= \
			"$_irqaff_queues_columns"
		return 0 ;;
	save:--only=* | restore:--only=* | check:--only=*)
		_irqaff_complete_irqs "$cur" --only=
		return 0 ;;
	cpus:--irqs=*)
		_irqaff_complete_irqs "$cur" --irqs=
		return 0 ;;
	top:--sort=*)
		_irqaff_reply "$cur" --sort=rate --sort=total --sort=irq \
			--sort=name
		return 0 ;;
	*:-*)
		# shellcheck disable=SC2046
		_irqaff_reply "$cur" $(_irqaff_options "$cmd")
		return 0 ;;
	esac

	case $cmd:$npos in
	show:0 | set:0 | spread:0 | balance:0 | explain:0 | top:*)
		_irqaff_complete_irqs "$cur" ;;
	set:1 | default:0 | cpus:0 | xps:1 | rps:1)
		_irqaff_complete_cpus "$cur" ;;
	isolate:0)
		_irqaff_complete_cpus "$cur" '' noall ;;
	restore:0 | check:0 | save:0)
		_irqaff_complete_files "$cur" ;;
	queues:0)
		_irqaff_complete_interfaces "$cur" ;;
	xps:0)
		_irqaff_complete_queues "$cur" tx ;;
	rps:0)
		_irqaff_complete_queues "$cur" rx ;;
	*)
		COMPREPLY=() ;;
	esac
	return 0
}

complete -F _irqaff irqaff
