# shellcheck shell=bash
#
# commands.bash: the command table as irqaff --help prints it, which the
# man page and the help texts are checked against (help.bats, man.bats).

# commands: the commands irqaff --help lists, one a line.
commands() {
	irqaff --help | sed -n '/^Commands/,/^$/s/^  \([a-z]*\) .*/\1/p'
}
