# bash completion for magos-sim: commands, each command's options (read from
# `magos-sim COMMAND --help`, so they never fall behind the program), the
# values of the options that take a word, and files: scenarios (*.yaml,
# *.yml and directories) as inputs, partial results (*.json) for merge, any
# file after an option that writes one.  Needs no bash-completion helpers.
# shellcheck shell=bash

_magos_sim_words() {
	# $1: the program, $2: the command; prints its long options, one a line.
	# (the option lines of the help: "  -s, --seed N" or "      --json FILE")
	"$1" "$2" --help 2>/dev/null | sed -n 's/^  \(-[a-z], \|    \)\(--[a-z][a-z-]*\).*/\2/p'
}

_magos_sim() {
	local cur prev prog cmd i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	prog=${COMP_WORDS[0]}
	COMPREPLY=()
	cmd=""
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break;;
		esac
	done
	if [ -z "$cmd" ]; then
		mapfile -t COMPREPLY < <(compgen -W "run check lint compare merge version help --help --version" -- "$cur")
		return
	fi
	case $cmd in
	help)
		[ "$COMP_CWORD" -eq 2 ] &&
			mapfile -t COMPREPLY < <(compgen -W "run check lint compare merge version help" -- "$cur")
		return;;
	version) return;;
	esac
	case $prev in
	--color) mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur"); return;;
	--timeline) mapfile -t COMPREPLY < <(compgen -W "changes all none" -- "$cur"); return;;
	--until) mapfile -t COMPREPLY < <(compgen -W "complete horizon" -- "$cur"); return;;
	--format)
		mapfile -t COMPREPLY < <(compgen -W "text json sarif markdown" -- "$cur"); return;;
	--disable)
		mapfile -t COMPREPLY < <(compgen -W "$("$prog" lint --list-rules 2>/dev/null |
			grep -o '^MS[0-9]*')" -- "$cur"); return;;
	--sweep)
		mapfile -t COMPREPLY < <(compgen -W "capacity= models.podStartup= models.plan.duration=
			models.plan.median= models.plan.p95= models.plan.failureProbability=
			models.apply.duration= models.apply.median= models.apply.p95=
			models.apply.failureProbability= models.adoption.duration=
			models.adoption.median= models.adoption.p95= models.adoption.failureProbability=
			models.regression.probability= models.regression.duration=" -- "$cur")
		compopt -o nospace 2>/dev/null; return;;
	--json | --csv | --html | --trace | --mermaid | --junit | --summary | --markdown | --events)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return;;
	-s | --seed | -n | --trials | -j | --jobs | --horizon | --width | --shard | --variant | \
		--max-regression | --now | --at | --snapshot)
		return;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_magos_sim_words "$prog" "$cmd")" -- "$cur")
		return
	fi
	# Inputs: directories, and the files the command reads (-X needs extglob).
	local pat='!*.@(yaml|yml)' had_extglob=1
	[ "$cmd" = merge ] && pat='!*.json'
	shopt -q extglob || { had_extglob=0; shopt -s extglob; }
	mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X "$pat" -- "$cur")
	[ "$had_extglob" = 1 ] || shopt -u extglob
	compopt -o filenames 2>/dev/null
}

complete -F _magos_sim magos-sim
