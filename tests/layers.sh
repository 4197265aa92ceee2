#!/bin/sh
# The layering rules of docs/architecture.md, as a test: the tree passes
# scripts/check-layers.sh, and a copy of it with one wrong include (or call)
# fails it, naming the file.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."

out=$(sh scripts/check-layers.sh 2>&1)
rc=$?
check "the tree keeps its layers" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || printf '%s\n' "$out" | grep -A5 '^FAIL'

# wrong FILE LINE: a copy of the tree with LINE appended to FILE; the check
# must fail and name FILE.
wrong() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t"
	cp -R engine sim reports scripts "$tmp/t/"
	printf '%s\n' "$2" >>"$tmp/t/$1"
	o=$(sh "$tmp/t/scripts/check-layers.sh" "$tmp/t" 2>&1)
	r=$?
	[ "$r" -ne 0 ] && printf '%s\n' "$o" | grep -q "$1"
}
check "an upward include fails it (core -> load)" wrong sim/core/evq.c '#include "sim/load/scenario.h"'
check "an upward include fails it (cluster -> world)" wrong sim/cluster/apiserver.h '#include "sim/world/des.h"'
check "an include of the commands fails it" wrong sim/plan/trials.c '#include "sim/cli/cmd.h"'
check "engine/ including sim/ fails it" wrong engine/labels.c '#include "sim/base/diag.h"'
check "reports/ reaching into the engine fails it" wrong reports/text.c '#include "engine/labels.h"'
check "reports/ reaching into the models fails it" wrong reports/spans.c '#include "sim/models/models.h"'
check "reports/ reaching into the world fails it" wrong reports/trace.c '#include "sim/world/des.h"'
check "engine/ doing I/O fails it" wrong engine/value.c 'static void f(void) { printf("x"); }'
check "libyaml outside the loader fails it" wrong sim/load/scenario.c '#include <yaml.h>'
check "jansson outside reports/ fails it" wrong sim/observe/observe.c '#include <jansson.h>'
check "an include from no layer fails it" wrong sim/run/run.c '#include "sim/plan/trials.h"'
newfolder() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/sim/extra"
	cp -R engine sim reports scripts "$tmp/t/"
	: >"$tmp/t/sim/extra/x.c"
	o=$(sh "$tmp/t/scripts/check-layers.sh" "$tmp/t" 2>&1)
	r=$?
	[ "$r" -ne 0 ] && printf '%s\n' "$o" | grep -q 'sim/extra'
}
check "a sim/ folder outside the layer list fails it" newfolder
check "wrong include in a comment is not counted" sh -c '
	rm -rf "$1/t" && mkdir -p "$1/t" && cp -R engine sim reports scripts "$1/t/" &&
	printf "/* #include \"sim/load/scenario.h\" */\n" >>"$1/t/sim/core/evq.c" &&
	sh "$1/t/scripts/check-layers.sh" "$1/t" >/dev/null' _ "$tmp"

finish
