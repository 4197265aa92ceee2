#!/bin/sh
# Standard input as an input of every command: "-" and /dev/stdin, from a
# redirected file and from a pipe, plain manifests and a scenario.  lint
# loads each input alone (to find a Scenario) and then the plain manifests
# together: standard input is read once and its bytes serve both loads.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

# The plain manifests of scenarios/checkout/ as one stream, as kubectl prints them.
for f in scenarios/checkout/*.yaml; do
	echo '---'
	cat "$f"
done >"$tmp/plain.yaml"
"$SIM" lint scenarios/checkout/ >"$tmp/want-plain" 2>&1
contains "the plain manifests lint clean as files" "$tmp/want-plain" "6 objects in 3 files checked, no problems found"

for how in "-" /dev/stdin; do
	expect_rc "lint $how from a pipe, plain manifests" 0 sh -c "cat '$tmp/plain.yaml' | '$SIM' lint $how"
	has_line "... checks every object" "$tmp/out" "6 objects in 1 file checked, no problems found"
	expect_rc "lint $how redirected, plain manifests" 0 sh -c "'$SIM' lint $how <'$tmp/plain.yaml'"
	has_line "... checks every object" "$tmp/out" "6 objects in 1 file checked, no problems found"
	expect_rc "lint $how from a pipe, a scenario" 0 sh -c "cat scenarios/three-environments.yaml | '$SIM' lint $how"
	has_line "... checks the scenario" "$tmp/out" "5 objects in 1 file checked, no problems found"
	expect_rc "run $how from a pipe, plain manifests" 0 sh -c "cat '$tmp/plain.yaml' | '$SIM' run -q --json - $how"
	contains "... runs them" "$tmp/out" '"objects":6'
done

# A pipe with a plain stream and a file beside it: the two are one cluster.
expect_rc "lint - with a file beside it, from a pipe" 0 \
	sh -c "cat scenarios/checkout/project.yaml | '$SIM' lint - scenarios/checkout/rollout.yaml scenarios/checkout/workspaces.yaml"
has_line "... sees the Project on stdin with the Rollout in the files" "$tmp/out" "6 objects in 3 files checked, no problems found"

# An error on standard input is reported where it is, once.
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a, labels: {canary: on}}\n' >"$tmp/bad.yaml"
expect_rc "lint - from a pipe reports a refusal" 1 sh -c "cat '$tmp/bad.yaml' | '$SIM' lint -"
contains "... at its line and column" "$tmp/out" "-:3:"
lacks "... and not that the input was empty" "$tmp/out" "no documents"

# A pipe the shell hands over open (bash's `<(cmd)` is /dev/fd/63): read as
# standard input is, once; a named FIFO, which nothing may ever write, is not.
expect_rc "run /dev/fd/3 on a pipe the shell opened" 0 \
	sh -c "cat scenarios/three-environments.yaml | '$SIM' run -q /dev/fd/3 3<&0 0</dev/null"
contains "... runs it" "$tmp/out" "halted    no"
expect_rc "lint reads that pipe twice (alone, then with the plain manifests) and gets the same bytes" 0 \
	sh -c "cat scenarios/checkout/project.yaml | '$SIM' lint /dev/fd/3 scenarios/checkout/rollout.yaml scenarios/checkout/workspaces.yaml 3<&0 0</dev/null"
has_line "... and sees its objects with the files'" "$tmp/out" "6 objects in 3 files checked, no problems found"
# The digest of a shard's or a comparison's inputs reads them as the loader did.
expect_rc "run --shard of standard input" 0 \
	sh -c "cat scenarios/three-environments.yaml | '$SIM' run -q -n 4 --shard 1/2 --json '$tmp/p1.json' -"
"$SIM" run -q -n 4 --shard 1/2 --json "$tmp/p1f.json" scenarios/three-environments.yaml >/dev/null 2>&1
check "... whose digest is the file's" sh -c 'a=$(grep -o "\"digest\": *\"[0-9a-f]*\"" "$1"); [ -n "$a" ] && [ "$a" = "$(grep -o "\"digest\": *\"[0-9a-f]*\"" "$2")" ]' _ "$tmp/p1.json" "$tmp/p1f.json"
expect_rc "compare with standard input as the base" 0 \
	sh -c "cat scenarios/three-environments.yaml | '$SIM' compare -q -n 4 - scenarios/three-environments.yaml"
lacks "... without a false word about reading the inputs again" "$tmp/err" "cannot read the inputs again"
# A pipe's spec.include is under the working directory, as standard input's is.
sim_abs=$(cd "$(dirname "$SIM")" && pwd)/$(basename "$SIM")
expect_rc "a pipe holding a Scenario with spec.include, from the include's directory" 0 \
	sh -c "cd scenarios/compare && cat base.yaml | '$sim_abs' run -q /dev/fd/3 3<&0 0</dev/null"
contains "... reads the include" "$tmp/out" "shop-prod-apply-10m: seed 7"
mkfifo "$tmp/fifo"
expect_rc "a named FIFO is refused, without waiting for a writer" 3 timeout 20 "$SIM" run "$tmp/fifo"
contains "... saying what it is" "$tmp/err" "cannot read: not a regular file (a FIFO)"

finish
