# fish completion for irqaff(8): commands, options, IRQ numbers and action
# names (asked of irqaff itself), dev: devices, interfaces with queues,
# node: NUMA nodes, columns.

set -l commands show set spread balance default isolate explain cpus top \
    queues xps rps save restore check mask list

# The root irqaff will use: --root, else IRQAFF_ROOT.
function __irqaff_root
    set -l tokens (commandline -opc)
    set -l i (contains -i -- --root $tokens)
    if test -n "$i"; and test (count $tokens) -gt $i
        echo $tokens[(math $i + 1)]
        return
    end
    for t in $tokens
        if string match -q -- '--root=*' $t
            string replace -- '--root=' '' $t
            return
        end
    end
    echo $IRQAFF_ROOT
end

# The command and how many arguments it has before the current token.
function __irqaff_position
    set -l tokens (commandline -opc)
    set -l cmd
    set -l n 0
    set -l skip 0
    for t in $tokens[2..-1]
        if test $skip -eq 1
            set skip 0
        else if test -z "$cmd"
            switch $t
                case --root
                    set skip 1
                case '-*'
                case '*'
                    set cmd $t
            end
        else
            switch "$cmd:$t"
                case 'show:-o' 'show:--output' 'save:-o' 'save:--output' \
                    'show:-s' 'show:--sort' \
                    'show:-i' 'show:--interval' 'show:-c' 'show:--count' \
                    'spread:-c' 'spread:--cpus' 'spread:-x' 'spread:--exclude' \
                    'balance:-i' 'balance:--interval' 'balance:-c' 'balance:--cpus' \
                    'mask:-b' 'mask:--bits' 'list:-b' 'list:--bits' \
                    'cpus:-o' 'cpus:--output' 'cpus:-i' 'cpus:--interval' \
                    'cpus:-c' 'cpus:--count' 'queues:-o' 'queues:--output' \
                    'save:--only' 'restore:--only' 'check:--only' \
                    'show:--sample-from' 'cpus:--sample-from' \
                    'balance:--sample-from' 'top:-i' 'top:--interval' \
                    'top:--count' 'top:-s' 'top:--sort' 'top:--sample-from'
                    set skip 1
                case '*:-*'
                case '*'
                    set n (math $n + 1)
            end
        end
    end
    if test $skip -eq 1
        # the current token is an option's value
        set n value
    end
    echo $cmd $n
end

# True when the current token is argument $2 (from 0) of command $1.
function __irqaff_arg
    test "$(__irqaff_position)" = "$argv[1] $argv[2]"
end

# The items of a list before the current one ("IRQ,+NAME," or "tx-0,"),
# upper-cased: what is not to be offered again.
function __irqaff_typed
    string split , -- (string trim -c '+,' -- "$argv[1]") | string upper
end

# The current token up to its last comma, and an --only= it starts with,
# to put in front of each item.
function __irqaff_head
    string match -r -- '^(?:--only=)?(?:.*,)?' (commandline -ct)
end

function __irqaff_irqs
    # cpu: takes the rest of the token, a CPU set with commas of its own
    set -l lead (string match -r -- '^(?:--only=)?(?:cpu:|.*?,cpu:)' \
        "$(commandline -ct)")
    if test -n "$lead"
        __irqaff_cpus $lead
        return
    end
    set -l head (__irqaff_head)
    set -l root (__irqaff_root)
    set -l tail (string replace -- "$head" '' (commandline -ct))
    if string match -q -- 'dev:*' $tail
        for d in $root/sys/class/net/* $root/sys/class/nvme/* $root/sys/block/*
            test -e $d/device; and echo "$head"dev:(basename $d)
        end
        return
    end
    set -l opt
    test -n "$root"; and set opt --root $root
    # numbers after a digit, else names: not thousands of both at once
    set -l digit (string match -qr '^[0-9]' -- "$tail"; and echo 1)
    irqaff $opt show -a -n -o IRQ,NAME 2>/dev/null | while read -l irq rest
        string match -qr '^[0-9]+$' -- $irq; or continue
        if test -n "$digit"
            echo "$head$irq"
            continue
        end
        test "$rest" = -; and continue
        for name in (string split ', ' -- $rest)
            echo "$head$name"
        end
    end
    test -n "$digit"; and return
    echo "$head"all
    echo "$head"dev:
    echo "$head"cpu:
end

# $argv[1], when given: a fixed part in front of the set (cpu: in an IRQ
# list); the current token up to its last comma after it goes before each
# item. $argv[2] noall for isolate: the CPUs the kernel isolates (isolcpus=,
# nohz_full=) in place of all and N.
function __irqaff_cpus
    set -l lead "$argv[1]"
    set -l rest (string sub -s (math (string length -- "$lead") + 1) -- \
        "$(commandline -ct)")
    set -l head "$lead"(string match -r -- '^.*,' "$rest"; or echo '')
    set -l root (__irqaff_root)
    if test "$argv[2]" = noall
        for f in isolated nohz_full
            test -r $root/sys/devices/system/cpu/$f; or continue
            string match -r -- '^[0-9].*' <$root/sys/devices/system/cpu/$f
        end | sort -u | string replace -r -- '^' "$head"
    else
        echo "$head"all
        echo "$head"N
    end
    for d in $root/sys/devices/system/node/node*
        set -l k (string replace -r '.*/node' '' -- $d)
        string match -qr '^[0-9]+$' -- $k; and echo "$head"node:$k
    end
end

# The columns $argv after the token's last comma, but those typed.
function __irqaff_column_list
    set -l head (string match -r -- '^\+?(?:.*,)?' (commandline -ct))
    set -l typed (__irqaff_typed "$head")
    for c in $argv
        contains -- $c $typed; or echo "$head$c"
    end
end

function __irqaff_columns
    __irqaff_column_list IRQ AFFINITY EFFECTIVE NODE TOTAL NAME HINT ONLINE \
        CHIP HWIRQ TYPE FLOW DEVICE MANAGED MOVABLE RATE PENDING STUCK \
        THREAD THREAD-CPUS
end

function __irqaff_cpus_columns
    __irqaff_column_list CPU NODE STATE IRQS TOTAL RATE TOP SYSTEM
end

# Network interfaces with queues, after the token's last comma; with
# $argv[1] (tx or rx), only those with at least $argv[2] queues of it,
# else only those with a device (queues: lo and ifb0 have no IRQs).
function __irqaff_interfaces
    set -l head (string match -r -- '^.*,' (commandline -ct); or echo '')
    set -l typed (__irqaff_typed "$head")
    set -l root (__irqaff_root)
    for d in $root/sys/class/net/*
        set -l name (basename $d)
        contains -- (string upper -- $name) $typed; and continue
        test -d $d/queues; or continue
        if set -q argv[1]
            set -l qs $d/queues/$argv[1]-*/
            test (count $qs) -ge $argv[2]; or continue
        else
            test -e $d/device; or continue
        end
        echo "$head$name"
    end
end

# xps and rps: an interface, or after DEV: its $argv[1] (tx or rx)
# queues, in order, but those typed. xps offers interfaces with two
# transmit queues or more (XPS chooses among them), rps any with one.
function __irqaff_queue_arg
    set -l token (commandline -ct)
    if not string match -q -- '*:*' $token
        if test "$argv[1]" = tx
            __irqaff_interfaces tx 2
        else
            __irqaff_interfaces rx 1
        end
        return
    end
    set -l dev (string split -m 1 : -- $token)[1]
    string match -qr '^(\.\.?|.*/.*)$' -- $dev; and return
    set -l rest (string split -m 1 : -- $token)[2]
    set -l head (string match -r -- '^.*,' "$rest"; or echo '')
    set -l typed (__irqaff_typed "$head")
    set -l root (__irqaff_root)
    for d in $root/sys/class/net/$dev/queues/$argv[1]-*
        set -l q (basename $d)
        contains -- (string upper -- $q) $typed; or echo $q
    end | sort -t- -k2n | while read -l q
        echo "$dev:$head$q"
    end
end

function __irqaff_queues_columns
    __irqaff_column_list DEV QUEUE IRQ AFFINITY CPUS XPS RPS ALIGNED PENDING
end

complete -c irqaff -f

# Before the command.
set -l nocmd "not __fish_seen_subcommand_from $commands help"
complete -c irqaff -n $nocmd -l root -x -a '(__fish_complete_directories)' \
    -d 'read and write a /proc and /sys tree under a directory'
complete -c irqaff -n $nocmd -s h -l help -d 'show the list of commands'
complete -c irqaff -n $nocmd -l version -d 'show the version'
complete -c irqaff -n $nocmd -a show -d 'show the affinity of IRQs'
complete -c irqaff -n $nocmd -a set -d 'give IRQs a set of CPUs'
complete -c irqaff -n $nocmd -a spread \
    -d 'give each IRQ of a device its own CPU'
complete -c irqaff -n $nocmd -a balance \
    -d 'put the busiest IRQs on the least-loaded CPUs, by measured rate'
complete -c irqaff -n $nocmd -a default \
    -d 'show or set the affinity of new IRQs'
complete -c irqaff -n $nocmd -a isolate -d 'keep interrupts off a set of CPUs'
complete -c irqaff -n $nocmd -a explain -d 'say why IRQs run where they run'
complete -c irqaff -n $nocmd -a cpus \
    -d 'show where interrupts land, CPU by CPU'
complete -c irqaff -n $nocmd -a top \
    -d 'watch interrupts live, the busiest IRQs first'
complete -c irqaff -n $nocmd -a queues \
    -d 'show network queues, their IRQs and XPS/RPS'
complete -c irqaff -n $nocmd -a xps \
    -d 'give transmit queues the CPUs that send on them'
complete -c irqaff -n $nocmd -a rps \
    -d 'give receive queues the CPUs that process their packets'
complete -c irqaff -n $nocmd -a save \
    -d "write a snapshot of every IRQ's affinity"
complete -c irqaff -n $nocmd -a restore -d 'apply a snapshot'
complete -c irqaff -n $nocmd -a check \
    -d 'compare the machine with a snapshot'
complete -c irqaff -n $nocmd -a mask -d 'print CPU lists as kernel masks'
complete -c irqaff -n $nocmd -a list -d 'print kernel masks as CPU lists'
complete -c irqaff -n $nocmd -a help -d 'describe a command'
complete -c irqaff -n '__irqaff_arg help 0' -a "$commands"

# Every command.
complete -c irqaff -n "__fish_seen_subcommand_from $commands" -s h -l help \
    -d 'show help'

set -l c '__fish_seen_subcommand_from show'
complete -c irqaff -n $c -s m -l mask -d 'print CPU sets as kernel masks'
complete -c irqaff -n $c -s J -l json -d 'print JSON'
complete -c irqaff -n $c -s n -l noheadings -d 'print no header line'
complete -c irqaff -n $c -s o -l output -x -a '(__irqaff_columns)' \
    -d 'columns to print'
complete -c irqaff -n $c -s s -l sort -x -a '(__irqaff_columns)' \
    -d 'sort the rows by a column'
complete -c irqaff -n $c -s a -l all \
    -d 'also IRQs with no row in /proc/interrupts'
complete -c irqaff -n $c -s q -l quiet -d 'no note for an item that picks no IRQ'
complete -c irqaff -n $c -s i -l interval -x \
    -d 'sample for a number of seconds and add RATE'
complete -c irqaff -n $c -l count -x \
    -d 'number of samples, each headed by its time'
complete -c irqaff -n $c -l sample-from -r -F \
    -d 'read a saved /proc/interrupts, once a read'
complete -c irqaff -n '__irqaff_arg show 0' -a '(__irqaff_irqs)'

set c '__fish_seen_subcommand_from set'
complete -c irqaff -n $c -s n -l dry-run \
    -d 'print what would change, write nothing'
complete -c irqaff -n $c -s v -l verbose -d 'print a line for every IRQ'
complete -c irqaff -n $c -s J -l json -d 'print the result as JSON'
complete -c irqaff -n $c -s m -l mask -d 'read cpus as a kernel mask'
complete -c irqaff -n $c -s q -l quiet -d 'no irqbalance or isolated-CPU warning'
complete -c irqaff -n '__irqaff_arg set 0' -a '(__irqaff_irqs)'
complete -c irqaff -n '__irqaff_arg set 1' -a '(__irqaff_cpus)'

set c '__fish_seen_subcommand_from spread'
complete -c irqaff -n $c -s n -l dry-run -d 'print the plan, write nothing'
complete -c irqaff -n $c -s v -l verbose -d 'print a line for every IRQ'
complete -c irqaff -n $c -s J -l json -d 'print the result as JSON'
complete -c irqaff -n $c -s c -l cpus -x -a '(__irqaff_cpus)' \
    -d 'the CPUs to use'
complete -c irqaff -n $c -s x -l exclude -x -a '(__irqaff_cpus)' \
    -d 'CPUs not to use'
complete -c irqaff -n $c -l linear -d 'plain CPU order, not cores first'
complete -c irqaff -n $c -l include-isolated \
    -d 'also use isolated and nohz_full CPUs'
complete -c irqaff -n $c -l xps -d 'also set the XPS CPUs of their tx queues'
complete -c irqaff -n $c -s q -l quiet -d 'no irqbalance warning, pool line or notes'
complete -c irqaff -n '__irqaff_arg spread 0' -a '(__irqaff_irqs)'

set c '__fish_seen_subcommand_from balance'
complete -c irqaff -n $c -s n -l dry-run -d 'print the plan, write nothing'
complete -c irqaff -n $c -s v -l verbose \
    -d 'list every IRQ of the plan, moved or not'
complete -c irqaff -n $c -s J -l json \
    -d 'print the plan and the result as JSON'
complete -c irqaff -n $c -s i -l interval -x \
    -d 'measure the rates over a number of seconds'
complete -c irqaff -n $c -l sample-from -r -F \
    -d 'read a saved /proc/interrupts, once a read'
complete -c irqaff -n $c -s c -l cpus -x -a '(__irqaff_cpus)' \
    -d 'the CPUs to use'
complete -c irqaff -n $c -l include-isolated \
    -d 'also use isolated and nohz_full CPUs'
complete -c irqaff -n $c -l xps -d 'also move the XPS of their tx queues'
complete -c irqaff -n $c -l plan -r -F \
    -d 'also write the plan for restore to apply'
complete -c irqaff -n $c -s q -l quiet -d 'no irqbalance warning or notes'
complete -c irqaff -n '__irqaff_arg balance 0' -a '(__irqaff_irqs)'

set c '__fish_seen_subcommand_from default'
complete -c irqaff -n $c -s m -l mask \
    -d 'print, and read cpus, as a kernel mask'
complete -c irqaff -n $c -s n -l dry-run \
    -d 'print what would change, write nothing'
complete -c irqaff -n $c -s v -l verbose -d 'print the change'
complete -c irqaff -n $c -s J -l json \
    -d 'print the set, or the result, as JSON'
complete -c irqaff -n '__irqaff_arg default 0' -a '(__irqaff_cpus)'

set c '__fish_seen_subcommand_from isolate'
complete -c irqaff -n $c -s n -l dry-run -d 'print the plan, write nothing'
complete -c irqaff -n $c -s v -l verbose -d 'print a line for every IRQ'
complete -c irqaff -n $c -s q -l quiet \
    -d 'no notes; with --check, no output at all'
complete -c irqaff -n $c -s J -l json -d 'print the result as JSON'
complete -c irqaff -n $c -s m -l mask -d 'read cpus as a kernel mask'
complete -c irqaff -n $c -l check \
    -d 'write nothing; exit 0 when no interrupt runs there'
complete -c irqaff -n $c -l accept \
    -d 'with --check, let pending moves and unmovable IRQs pass'
complete -c irqaff -n $c -l again -d 'isolate the remembered CPUs again'
complete -c irqaff -n $c -l undo -d 'forget the CPUs isolate remembered'
complete -c irqaff -n '__irqaff_arg isolate 0' -a '(__irqaff_cpus "" noall)'

set c '__fish_seen_subcommand_from explain'
complete -c irqaff -n $c -s v -l verbose \
    -d 'also list the IRQs with nothing to explain'
complete -c irqaff -n $c -s J -l json -d 'print the findings as JSON'
complete -c irqaff -n '__irqaff_arg explain 0' -a '(__irqaff_irqs)'

set c '__fish_seen_subcommand_from cpus'
complete -c irqaff -n $c -s o -l output -x -a '(__irqaff_cpus_columns)' \
    -d 'columns to print'
complete -c irqaff -n $c -s n -l noheadings -d 'print no header line'
complete -c irqaff -n $c -s J -l json -d 'print JSON'
complete -c irqaff -n $c -s i -l interval -x \
    -d 'sample for a number of seconds: add RATE, rank TOP by rate'
complete -c irqaff -n $c -l count -x \
    -d 'number of samples, each headed by its time'
complete -c irqaff -n $c -l sample-from -r -F \
    -d 'read a saved /proc/interrupts, once a read'
complete -c irqaff -n $c -l irqs -x -a '(__irqaff_irqs)' \
    -d 'count only these IRQs'
complete -c irqaff -n '__irqaff_arg cpus 0' -a '(__irqaff_cpus)'

set c '__fish_seen_subcommand_from top'
complete -c irqaff -n $c -s i -l interval -x \
    -d 'a screen every number of seconds'
complete -c irqaff -n $c -l count -x -d 'number of screens, then exit'
complete -c irqaff -n $c -s s -l sort -x -a 'rate total irq name' \
    -d 'sort the IRQs'
complete -c irqaff -n $c -s a -l all \
    -d 'also the IRQs with no interrupt in the interval'
complete -c irqaff -n $c -s b -l batch \
    -d 'plain lines, as when not on a terminal'
complete -c irqaff -n $c -l sample-from -r -F \
    -d 'read a saved /proc/interrupts, once a read'
complete -c irqaff -n 'string match -qr "^top [0-9]+\$" -- (__irqaff_position)' \
    -a '(__irqaff_irqs)'

set c '__fish_seen_subcommand_from queues'
complete -c irqaff -n $c -s J -l json -d 'print JSON'
complete -c irqaff -n $c -s n -l noheadings -d 'print no header line'
complete -c irqaff -n $c -s o -l output -x -a '(__irqaff_queues_columns)' \
    -d 'columns to print'
complete -c irqaff -n '__irqaff_arg queues 0' -a '(__irqaff_interfaces)'

set c '__fish_seen_subcommand_from xps rps'
complete -c irqaff -n $c -s n -l dry-run \
    -d 'print what would change, write nothing'
complete -c irqaff -n $c -s v -l verbose -d 'print a line for every queue'
complete -c irqaff -n $c -s J -l json -d 'print the result as JSON'
complete -c irqaff -n '__irqaff_arg xps 0' -a '(__irqaff_queue_arg tx)'
complete -c irqaff -n '__irqaff_arg xps 1' -a '(__irqaff_cpus)'
complete -c irqaff -n '__irqaff_arg rps 0' -a '(__irqaff_queue_arg rx)'
complete -c irqaff -n '__irqaff_arg rps 1' -a '(__irqaff_cpus)'

set c '__fish_seen_subcommand_from save'
complete -c irqaff -n '__irqaff_arg save 0' -F
complete -c irqaff -n $c -l only -x -a '(__irqaff_irqs)' \
    -d 'save these IRQs only, not the default'
complete -c irqaff -n $c -l optional \
    -d 'mark IRQ and queue lines ?, or those of IRQS (=IRQS)'

set c '__fish_seen_subcommand_from restore'
complete -c irqaff -n $c -s n -l dry-run \
    -d 'print what would change, write nothing'
complete -c irqaff -n $c -s t -l test \
    -d 'check the file against this machine, apply nothing'
complete -c irqaff -n $c -s v -l verbose -d 'print a line for every IRQ'
complete -c irqaff -n $c -s q -l quiet -d 'no irqbalance warning'
complete -c irqaff -n $c -s J -l json -d 'print the result as JSON'
complete -c irqaff -n $c -l by-number -d 'match IRQs by number, not by name'
complete -c irqaff -n $c -l only -x -a '(__irqaff_irqs)' \
    -d 'apply to these IRQs only, not the default'
complete -c irqaff -n '__irqaff_arg restore 0' -F

set c '__fish_seen_subcommand_from check'
complete -c irqaff -n $c -s q -l quiet \
    -d 'print no differences: the exit status is the answer'
complete -c irqaff -n $c -s J -l json -d 'print the differences as JSON'
complete -c irqaff -n $c -l by-number -d 'match IRQs by number, not by name'
complete -c irqaff -n $c -l only -x -a '(__irqaff_irqs)' \
    -d 'compare these IRQs only, not the default'
complete -c irqaff -n '__irqaff_arg check 0' -F

set c '__fish_seen_subcommand_from mask list'
complete -c irqaff -n $c -s b -l bits -x -d 'width of the set'
