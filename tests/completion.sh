#!/bin/sh
# Shell completion (dist/magos-sim.bash, dist/_magos-sim): commands, each
# command's options as its --help lists them, option values, and files.
# The zsh one runs with compadd, _files and _describe replaced by functions
# that print what they were given (zsh's own filter by prefix is not tested).
. "$(dirname "$0")/lib.sh"
require_sim
simdir=$(cd "$(dirname "$SIM")" && pwd)
mkdir "$tmp/w" && touch "$tmp/w/a.yaml" "$tmp/w/b.yml" "$tmp/w/c.json" "$tmp/w/d.txt" && mkdir "$tmp/w/sub"

if command -v bash >/dev/null 2>&1; then
	# comp WORDS...: the completions of the last word, sorted, on one line.
	cat >"$tmp/comp.bash" <<'BASH'
. "$1/dist/magos-sim.bash"
PATH=$2:$PATH
shift 2
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _magos_sim
[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
BASH
	root=$(pwd)
	bc() { # NAME WANT WORDS...
		n=$1 w=$2; shift 2
		got=$(cd "$tmp/w" && bash "$tmp/comp.bash" "$root" "$simdir" "$@")
		if [ "$got" = "$w" ]; then ok "bash: $n"; else bad "bash: $n"; echo "     want: '$w'"; echo "     got:  '$got'"; fi
	}
	bc "commands" "check compare " magos-sim c
	bc "help's commands" "merge " magos-sim help me
	bc "run's options by prefix" "--json " magos-sim run --js
	bc "check's options" "--jobs --junit " magos-sim check --j
	bc "lint's --format values" "json " magos-sim lint --format j
	bc "lint's --format sarif" "sarif " magos-sim lint --format s
	bc "any file after --events" "a.yaml b.yml c.json d.txt sub " magos-sim run --events ""
	bc "--color values" "always auto " magos-sim compare --color a
	bc "--timeline values" "all " magos-sim run --timeline a
	bc "--until values" "complete " magos-sim check --until c
	bc "rule ids for --disable" "MS101 MS102 MS103 MS104 MS105 MS106 MS107 MS108 MS109 " magos-sim lint --disable MS10
	bc "scenario files and folders" "a.yaml b.yml sub " magos-sim run ""
	bc "partials for merge" "c.json sub " magos-sim merge ""
	bc "any file after --json" "a.yaml b.yml c.json d.txt sub " magos-sim run --json ""
	bc "nothing after --seed" "" magos-sim run --seed ""
	# Every option whose value the help calls FILE completes files.
	for cmd in run check lint compare merge; do
		for o in $("$SIM" "$cmd" --help | sed -n 's/^  \(-[a-z], \|    \)\(--[a-z][a-z-]*\) FILE.*/\2/p'); do
			bc "$cmd $o FILE completes files" "a.yaml b.yml c.json d.txt sub " magos-sim "$cmd" "$o" ""
		done
	done
	# Every option of the help is offered.
	for cmd in run check lint compare merge; do
		want=$("$SIM" "$cmd" --help | sed -n 's/^  \(-[a-z], \|    \)\(--[a-z][a-z-]*\).*/\2/p' | sort | tr '\n' ' ')
		bc "every option of $cmd" "$want" magos-sim "$cmd" --
	done
else
	bad "bash is installed"
fi

if command -v zsh >/dev/null 2>&1; then
	cat >"$tmp/comp.zsh" <<'ZSH'
compadd() {
	while [[ $1 == -* && $1 != -- ]]; do [[ $1 == -S ]] && shift; shift; done
	[[ $1 == -- ]] && shift
	local a; for a in "$@"; do [[ $a == ${PREFIX}* ]] && print -r -- "$a"; done
}
_files() { print -r -- "FILES $*"; }
_describe() { local x; for x in "${(@P)4}"; do [[ $x == ${PREFIX}* ]] && print -r -- "${x%%:*}"; done; }
root=$1; path=($2 $path); shift 2
words=("$@"); CURRENT=$#; PREFIX=$words[CURRENT]
source $root/dist/_magos-sim | sort | tr '\n' ' '
ZSH
	zc() {
		n=$1 w=$2; shift 2
		got=$(zsh -f "$tmp/comp.zsh" "$(pwd)" "$simdir" "$@")
		if [ "$got" = "$w" ]; then ok "zsh: $n"; else bad "zsh: $n"; echo "     want: '$w'"; echo "     got:  '$got'"; fi
	}
	zc "commands" "check compare " magos-sim c
	zc "run's options by prefix" "--json " magos-sim run --js
	zc "--color values" "always auto " magos-sim run --color a
	zc "rule ids for --disable" "MS210 MS211 MS212 MS213 MS214 MS215 MS216 MS217 MS218 MS219 " magos-sim lint --disable MS21
	zc "scenario files" "FILES -g *.(yaml|yml) " magos-sim check ""
	zc "partials for merge" "FILES -g *.json " magos-sim merge ""
	zc "any file after --junit" "FILES  " magos-sim check --junit ""
	for cmd in run check lint compare merge; do
		for o in $("$SIM" "$cmd" --help | sed -n 's/^  \(-[a-z], \|    \)\(--[a-z][a-z-]*\) FILE.*/\2/p'); do
			zc "$cmd $o FILE completes files" "FILES  " magos-sim "$cmd" "$o" ""
		done
	done
	for cmd in run check lint compare merge; do
		want=$("$SIM" "$cmd" --help | sed -n 's/^  \(-[a-z], \|    \)\(--[a-z][a-z-]*\).*/\2/p' | sort | tr '\n' ' ')
		zc "every option of $cmd" "$want" magos-sim "$cmd" --
	done
else
	bad "zsh is installed, to test its completion (scripts/install-deps.sh)"
fi
finish
