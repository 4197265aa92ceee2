#!/bin/sh
# Keeps the layers of DESIGN §1 apart:
#   engine/  pure: libc only; no I/O, clock, randomness, libyaml, jansson, GSL, exit
#   sim/     engine/, libyaml (loader), GSL (rng/dist); never jansson
#   plan/    sim/, engine/, GSL, pthreads; never jansson or libyaml
#   cli/     everything (the commands)
#   reports/ plan/*.h, sim/timeline.h, sim/outcome.h, sim/observe.h, sim/gotime.h, jansson, GSL statistics, engine/xalloc.h;
#            no engine internals
# Prints one line per violation and "script-totals: P passed, F failed".
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0
check() { # NAME FILES-GLOB REGEX
	name=$1 files=$2 pattern=$3
	# shellcheck disable=SC2086
	hits=$(grep -nE "$pattern" $files 2>/dev/null | grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)' || true)
	if [ -z "$hits" ]; then pass=$((pass + 1)); echo "ok   $name"
	else fail=$((fail + 1)); echo "FAIL $name"; echo "$hits" | sed 's/^/     /'; fi
}
check "engine/ includes no library, clock, thread or I/O header" "engine/*.[ch]" \
	'#include *[<"](yaml\.h|jansson\.h|gsl/|time\.h|pthread\.h|unistd\.h|fcntl\.h|sys/)'
check "engine/ calls no I/O, clock, randomness or exit" "engine/*.c" \
	'(^|[^a-z_])(printf|fprintf|fopen|fwrite|puts|rand|srand|random|clock_gettime|time|exit|getenv) *\('
check "engine/ includes only engine/ headers" "engine/*.[ch]" '#include *"(sim|reports)/'
check "sim/ never includes jansson" "sim/*.[ch]" '#include *[<"]jansson\.h'
check "libyaml only in the YAML loader" "$(ls sim/*.[ch] engine/*.[ch] reports/*.[ch] | grep -v '^sim/yamlload\.c$' | tr '\n' ' ')" \
	'#include *[<"]yaml\.h'
check "GSL in sim/ only for rng and dist" "$(ls sim/*.[ch] | grep -vE '^sim/(rng|dist)\.[ch]$' | tr '\n' ' ')" \
	'#include *[<"]gsl/'
check "sim/ and engine/ never include the commands" "sim/*.[ch] engine/*.[ch] reports/*.[ch]" '#include *"cli/'
check "plan/ never includes jansson, libyaml or the commands" "plan/*.[ch]" '#include *([<"](jansson|yaml)\.h|"cli/)'
check "sim/ and engine/ never include plan/" "sim/*.[ch] engine/*.[ch]" '#include *"plan/'
check "reports/ does not reach into the engine (xalloc aside)" "reports/*.[ch]" '#include *"engine/([^x]|x[^a])'
echo "script-totals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
