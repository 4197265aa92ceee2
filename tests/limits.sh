#!/bin/sh
# The bounds of docs/limits.md: each one per input stream, each exceeded with
# a clear error naming it, each raised with --limit NAME=N; inputs that are
# not regular files refused at once.  Commands that could block or run long
# on a regression run under timeout(1), so a regression fails instead of
# hanging the suite.  (The corpus of tests/badinput/ holds the inputs that
# fit in a file: 24, 84-87.)
. "$(dirname "$0")/lib.sh"
require_sim
SCN=scenarios/three-environments.yaml
T="timeout 20"

# ---- --limit itself
expect_rc "--limit with an unknown name is a usage error" 2 "$SIM" run --limit nodes=5 "$SCN"
contains "... which lists the limits" "$tmp/err" "unknown limit 'nodes'; the limits are input-bytes, files,"
expect_rc "--limit with a bad value is a usage error" 2 "$SIM" lint --limit documents=x "$SCN"
contains "... which gives the range" "$tmp/err" "documents takes a whole number of documents from 1 to"
expect_rc "--limit below the range is a usage error" 2 "$SIM" check --limit errors=0 "$SCN"
expect_rc "every command takes --limit (merge)" 2 "$SIM" merge --limit files=3
contains "... and gets as far as its own arguments" "$tmp/err" "merge: no partial"

# ---- inputs that are not regular files
mkfifo "$tmp/fifo.yaml"
expect_rc "run: a FIFO as input is refused at once (exit 3)" 3 $T "$SIM" run "$tmp/fifo.yaml"
contains "... saying what it is" "$tmp/err" "fifo.yaml: error: cannot read: not a regular file (a FIFO)"
expect_rc "lint: a FIFO as input is refused at once" 3 $T "$SIM" lint "$tmp/fifo.yaml"
expect_rc "check: a FIFO as input is refused at once" 3 $T "$SIM" check "$tmp/fifo.yaml"
cat >"$tmp/inc-fifo.yaml" <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: inc-fifo}
spec:
  include: [fifo.yaml]
EOF
expect_rc "an include naming a FIFO is refused at once" 3 $T "$SIM" run "$tmp/inc-fifo.yaml"
contains "... at the include" "$tmp/err" 'inc-fifo.yaml:5:13: error: spec.include[0]: "'
contains "... saying what it is" "$tmp/err" 'fifo.yaml" is not a regular file (a FIFO)'
# Files of the kernel's pseudo filesystems say "regular" in st_mode, but may
# block forever (/proc/kmsg: never used here, reading it takes the kernel's
# log away) or never end: refused, whatever the path to them.
if [ -r /proc/self/status ]; then
	ln -s /proc/self/status "$tmp/procfs.yaml"
	expect_rc "a procfs file (through a symlink) as input is refused at once (exit 3)" 3 $T "$SIM" run "$tmp/procfs.yaml"
	contains "... saying what it is" "$tmp/err" \
		"procfs.yaml: error: cannot read: not a regular file (a file of procfs, a kernel pseudo filesystem)"
	expect_rc "... named directly, as well" 3 $T "$SIM" lint /proc/self/status
	contains "... by lint too" "$tmp/out" "/proc/self/status: error: cannot read: not a regular file (a file of procfs,"
	mkdir "$tmp/procdir"
	ln -s /proc/self/status "$tmp/procdir/a.yaml"
	expect_rc "a procfs file as a directory's file is refused" 3 $T "$SIM" run "$tmp/procdir"
	contains "... naming the file" "$tmp/err" "procdir/a.yaml: error: cannot read: not a regular file (a file of procfs,"
	cat >"$tmp/inc-proc.yaml" <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: inc-proc}
spec:
  include: [procdir/*.yaml]
EOF
	sed 's|procdir/\*.yaml|procfs.yaml|' "$tmp/inc-proc.yaml" >"$tmp/inc-proc2.yaml"
	expect_rc "a procfs file as a pattern's include is refused" 3 $T "$SIM" run "$tmp/inc-proc.yaml"
	contains "... naming it" "$tmp/err" "procdir/a.yaml: error: cannot read: not a regular file (a file of procfs,"
	expect_rc "a procfs file as an include's path is refused" 3 $T "$SIM" run "$tmp/inc-proc2.yaml"
	contains "... naming it" "$tmp/err" "procfs.yaml: error: cannot read: not a regular file (a file of procfs,"
	expect_rc "a procfs file as a merge partial is refused" 3 $T "$SIM" merge "$tmp/procfs.yaml"
	contains "... saying so" "$tmp/err" "merge: '$tmp/procfs.yaml': cannot read: not a regular file (a file of procfs, a kernel pseudo filesystem)"
else
	ok "no /proc/self/status here: the pseudo filesystems are not tested"
fi
if [ -r /sys/kernel/mm/transparent_hugepage/enabled ]; then
	expect_rc "a sysfs file as input is refused" 3 $T "$SIM" run /sys/kernel/mm/transparent_hugepage/enabled
	contains "... saying so" "$tmp/err" "error: cannot read: not a regular file (a file of sysfs, a kernel pseudo filesystem)"
fi
expect_rc "standard input is read when named -" 0 $T sh -c "'$SIM' run -q - <'$SCN'"
contains "... and runs the scenario" "$tmp/out" "completed yes"

# ---- files, bytes, documents
mkdir "$tmp/many"
for i in 1 2 3 4 5; do
	printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: ns%s}\n' "$i" >"$tmp/many/ns$i.yaml"
done
expect_rc "files: more files than the limit is an error" 3 "$SIM" lint --limit files=3 "$tmp/many"
contains "... naming the limit (lint prints findings on stdout)" "$tmp/out" \
	"the inputs name more than 3 files (limit files; raise it with --limit files=N)"
expect_rc "files: within the limit is fine" 0 "$SIM" lint --limit files=5 "$tmp/many"
expect_rc "input-bytes: over the limit (all files together) is an error" 3 \
	"$SIM" run --limit input-bytes=100 "$tmp/many"
contains "... naming the limit" "$tmp/err" "the inputs hold more than 100 bytes in all (limit input-bytes;"
awk 'BEGIN { for (i = 0; i < 20; i++) printf "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: n%d}\n", i }' \
	>"$tmp/docs.yaml"
expect_rc "documents: over the limit is an error" 3 "$SIM" run --limit documents=10 "$tmp/docs.yaml"
contains "... at the first document beyond it" "$tmp/err" \
	"docs.yaml:41:1: error: the inputs hold more than 10 YAML documents in all (limit documents;"
expect_rc "documents: raised, the same input runs" 0 "$SIM" run -q --limit documents=20 "$tmp/docs.yaml"

# yaml-nodes: every node of every input, two files counted together
# (15 nodes in cm1.yaml, 19 in cm2.yaml); `[1,1,...]` is a node per two bytes
mkdir "$tmp/nodes"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1}\ndata: {a: "1", b: "2"}\n' >"$tmp/nodes/cm1.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm2}\ndata: [1,1,1,1,1,1,1,1]\n' >"$tmp/nodes/cm2.yaml"
# (ConfigMaps alone are nothing to simulate: the one error left once they load)
expect_rc "yaml-nodes: the nodes of all the inputs within the limit load" 3 "$SIM" lint --limit yaml-nodes=34 "$tmp/nodes"
lacks "... no bound is passed" "$tmp/out" "YAML nodes"
contains "... they load, and hold nothing to simulate" "$tmp/out" "error: nothing to simulate: the inputs hold no objects"
expect_rc "yaml-nodes: one node more than the limit is an error (exit 3)" 3 "$SIM" run --limit yaml-nodes=33 "$tmp/nodes"
contains "... at the node beyond it, in the second file" "$tmp/err" \
	"nodes/cm2.yaml:4:22: error: the inputs hold more than 33 YAML nodes in all (limit yaml-nodes; raise it with --limit yaml-nodes=N)"
cat >"$tmp/nodes-alias.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata: {name: cm3}
data: {a: &x [1, 2, 3, 4], b: *x}
EOF
expect_rc "yaml-nodes: alias copies count too (18 nodes, then 5 by the alias)" 3 "$SIM" run --limit yaml-nodes=20 "$tmp/nodes-alias.yaml"
contains "... at the alias" "$tmp/err" "nodes-alias.yaml:4:31: error: the inputs hold more than 20 YAML nodes in all"
cat >"$tmp/nodes-merge.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata: {name: cm4}
data:
  base: &b {a: "1", b: "2", c: "3"}
  copy: {<<: *b}
EOF
expect_rc "yaml-nodes: merge-key copies count too (29 nodes, then 3 by the merge)" 3 "$SIM" lint --limit yaml-nodes=32 "$tmp/nodes-merge.yaml"
lacks "... within the bound" "$tmp/out" "YAML nodes"
contains "... the ConfigMap loads, and is nothing to simulate" "$tmp/out" "error: nothing to simulate: the inputs hold no objects"
expect_rc "... one node fewer is an error" 3 "$SIM" run --limit yaml-nodes=31 "$tmp/nodes-merge.yaml"
contains "... at the last key the merge copies" "$tmp/err" "nodes-merge.yaml:5:29: error: the inputs hold more than 31 YAML nodes in all"
# lint's fix of an input past a bound names the bound, its value and how to raise it
expect_rc "lint: an input past yaml-nodes" 3 "$SIM" lint --limit yaml-nodes=31 "$tmp/nodes-merge.yaml"
contains "... its fix names the bound, the value and how to raise it" "$tmp/out" \
	"fix: the input passes the yaml-nodes limit of 31 nodes (docs/limits.md): the loader holds every node in memory; give fewer or smaller inputs; when it is meant to be this large, raise the limit with --limit yaml-nodes=N (N above 31)"
expect_rc "lint: an alias bomb" 3 "$SIM" lint tests/badinput/24-alias-bomb.yaml
contains "... its fix says what multiplies" "$tmp/out" \
	"fix: the input passes the alias-nodes limit of 1000000 nodes (docs/limits.md): each alias and merge key (<<) copies the nodes of its anchor"
contains "... and how to raise the limit" "$tmp/out" "raise the limit with --limit alias-nodes=N (N above 1000000)"
awk 'BEGIN { printf "a: "; for (i = 0; i < 600; i++) printf "["; for (i = 0; i < 600; i++) printf "]"; print "" }' >"$tmp/deep.yaml"
expect_rc "lint: nesting past the fixed depth" 3 "$SIM" lint "$tmp/deep.yaml"
contains "... its fix says the bound is fixed" "$tmp/out" \
	"fix: YAML nested deeper than 512 collections is refused whatever the options (a fixed bound, docs/limits.md"

# series-samples: a+bxN is a, then N computed samples; the computed ones count
series_scn() { # VALUES FILE
	printf 'apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata: {name: ser}\nspec:\n  horizon: 1h\n  metrics:\n    - query: q\n      interval: 1s\n      values: "%s"\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ser}\n' "$1" >"$2"
}
series_scn "1+1x4194304" "$tmp/ser-fits.yaml"
series_scn "1+1x4194305" "$tmp/ser-over.yaml"
expect_rc "series-samples: 1+1x4194304 computes 4194304 samples, the limit" 0 "$SIM" run -q "$tmp/ser-fits.yaml"
expect_rc "series-samples: 1+1x4194305, one more, is an error" 3 "$SIM" run -q "$tmp/ser-over.yaml"
contains "... naming the bound" "$tmp/err" 'ser-over.yaml:9:20: error: spec.metrics[0].values: Invalid value: "1+1x4194305": the series of spec.metrics need more than 4194304 computed samples together (4194304 were left for this one) (limit series-samples; raise it with --limit series-samples=N)'
contains "... and saying what counts" "$tmp/err" "note: a+bxN is N+1 samples, a and then N computed ones (a+b ... a+N*b, until they stop changing): each computed one counts, so a lone a+bx4194304 is the most that fits"

# ---- include patterns are walked within a bound
mkdir -p "$tmp/tree/a/b" "$tmp/tree/c"
for d in a a/b c; do
	for i in 1 2 3 4; do : >"$tmp/tree/$d/x$i.txt"; done
done
cp "$tmp/many/ns1.yaml" "$tmp/tree/a/b/ns1.yaml"
cat >"$tmp/tree/glob.yaml" <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: glob}
spec:
  include: ['*/*/*.yaml']
EOF
expect_rc "include-scan: a pattern walking more entries than the limit is an error" 3 \
	"$SIM" run --limit include-scan=5 "$tmp/tree/glob.yaml"
contains "... naming the pattern and the limit" "$tmp/err" "examines more than 5 directory entries"
expect_rc "include-scan: within the limit the pattern is read" 0 \
	"$SIM" run -q --limit include-scan=100 "$tmp/tree/glob.yaml"
cat >"$tmp/tree/rel.yaml" <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: rel}
spec:
  include: [a/b/ns1.yaml]
EOF
expect_rc "a relative include is resolved under the scenario's directory" 0 \
	"$SIM" run -q --json "$tmp/rel.json" "$tmp/tree/rel.yaml"
check "... from any working directory" sh -c "cd / && '$PWD/$SIM' run -q '$tmp/tree/rel.yaml' >/dev/null"
cat >"$tmp/tree/abs.yaml" <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: abs}
spec:
  include: [$tmp/tree/a/none.yaml]
EOF
expect_rc "an absolute include that does not exist" 3 "$SIM" run -q "$tmp/tree/abs.yaml"
contains "... says it is used as written, not under the scenario's directory" "$tmp/err" \
	"note: an absolute include path is used as written, not under the scenario file's directory: check that it exists on this machine, or write it relative to the scenario file"

# ---- diagnostics
expect_rc "errors: a raised limit prints more errors" 3 "$SIM" run --limit errors=300 tests/badinput/86-errors-capped.yaml
lacks "... all of them" "$tmp/err" "more errors not shown"
expect_rc "errors: a lowered limit prints fewer" 3 "$SIM" run --limit errors=2 tests/badinput/86-errors-capped.yaml
check "... two lines and the count" test "$(wc -l <"$tmp/err")" -eq 3
contains "... which says how many more" "$tmp/err" "magos-sim: note: and 258 more errors not shown (limit errors; raise it with --limit errors=N)"
expect_rc "lint: the findings past the limit are counted" 3 "$SIM" lint --limit errors=2 tests/badinput/86-errors-capped.yaml
contains "... said once" "$tmp/out" "magos-sim: note: and 258 more errors not shown (limit errors; raise it with --limit errors=N)"
lacks "... not as a finding of its own" "$tmp/out" "not shown (limit errors; raise it with --limit errors=N) [MS002]"
check "... after the findings it did not keep" sh -c "tail -n 2 '$tmp/out' | head -n 1 | grep -q '^magos-sim: note: and 258 more errors not shown'"
contains "... and the total counts every error, kept or not" "$tmp/out" "260 errors, 0 warnings, 0 infos in 1 file (130 objects: 0 admitted, 130 refused)"
expect_rc "lint --format json: the summary counts them too" 3 "$SIM" lint --limit errors=2 --format json tests/badinput/86-errors-capped.yaml
contains "... errors, not_shown" "$tmp/out" '"errors": 260'
contains "... how many are not among the findings" "$tmp/out" '"not_shown": {'

# A bound that stops the reading is printed past the errors limit too: it
# says why the rest was not read.  120 files of two errors each, then the
# file over the files bound; 150 such documents, then the one over the
# documents bound.
mkdir "$tmp/dups" "$tmp/more"
for i in $(seq 101 220); do printf 'a: 1\na: 2\n' >"$tmp/dups/f$i.yaml"; done
for i in 1 2 3; do printf 'a: 1\n' >"$tmp/more/g$i.yaml"; done
expect_rc "files: the bound is told past the errors limit" 3 "$SIM" run --limit files=122 "$tmp/dups" "$tmp/more"
contains "... the file over it" "$tmp/err" "more/g3.yaml: error: the inputs name more than 122 files (limit files; raise it with --limit files=N)"
check "... before the count of those not shown" sh -c "tail -n 1 '$tmp/err' | grep -q '^magos-sim: note: and 24 more errors not shown'"
awk 'BEGIN { for (i = 0; i < 150; i++) printf "%sa: 1\na: 2\n", i ? "---\n" : "" }' >"$tmp/dupdocs.yaml"
expect_rc "documents: the bound is told past the errors limit" 3 "$SIM" lint --limit documents=140 "$tmp/dupdocs.yaml"
contains "... the document over it" "$tmp/out" "dupdocs.yaml:420:1: error: the inputs hold more than 140 YAML documents in all"

# ---- a large spec.generate: linted and run whole
# The lint rules and the run's hazard checks find a member's dependencies,
# first manifest and token writes through indexes, not by a scan of every
# other member or of the whole timeline for each one (the figures, and the
# command that measures them, are in BENCHMARKS.md: speed is measured there,
# not timed here, on a shared machine).
gen_fleet() { # N FILE: a Scenario generating N StageSets
	cat >"$2" <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: gen-$1}
spec:
  seed: 1
  horizon: 1h
  generate:
    - count: $1
      namespace: "tenant-{i}"
      name: moodle
      labels: {app: moodle}
      labelMix:
        - {labels: {ring: "0"}, weight: 1}
        - {labels: {ring: "1"}, weight: 3}
      template:
        version: {value: "4.5.0", approvalMode: Always}
        stages:
          - name: app
            sourceRef: {kind: GitRepository, name: moodle}
EOF
}
gen_fleet 40000 "$tmp/gen40k.yaml"
gen_fleet 20000 "$tmp/gen20k.yaml"
expect_rc "lint of a 40 000-member spec.generate" 0 "$SIM" lint "$tmp/gen40k.yaml"
contains "... having linted them all" "$tmp/out" "80000 objects in 1 file checked"
expect_rc "run of a 20 000-member spec.generate" 0 "$SIM" run -q "$tmp/gen20k.yaml"

# ---- out of memory: one line, exit 5, no core dump
# (ASan reserves terabytes of address space: ulimit -v cannot apply there.)
case "$SIM" in
*/san/*) echo "skip out-of-memory checks: the sanitizer build cannot run under ulimit -v" ;;
*)
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ns%d, labels: {a: b}}\n", i }' \
		>"$tmp/big.yaml"
	(cd "$tmp" && ulimit -c unlimited 2>/dev/null; ulimit -v 150000 && exec "$OLDPWD/$SIM" run -q big.yaml) \
		>"$tmp/out" 2>"$tmp/err"
	expect_status "out of memory exits 5" 5 $?
	# Which request meets the limit first depends on the heap's layout: the
	# simulator's own name their size, libyaml's cannot (sim/load/yamlload.c).
	check "... with one line naming what was being built" grep -Eqx \
		'magos-sim: out of memory while loading big.yaml( \(a request for [0-9]+ bytes failed\))?' "$tmp/err"
	check "... that is the only line" test "$(wc -l <"$tmp/err")" -eq 1
	check "... and no core dump" test -z "$(find "$tmp" -maxdepth 1 -name 'core*')"
	;;
esac

# ---- many trials in bounded memory: the statistics stream (docs/limits.md,
# "Memory of many trials").  A Rollout of 60 steps that never open: each
# trial's row holds 60 phases (about 6 KB), so 15 000 rows kept would take
# about 90 MB; streamed, the run needs a few MB whatever -n is.
awk 'BEGIN {
	print "apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata: {name: many-steps}\nspec:\n  horizon: 1s\n---"
	print "apiVersion: magosproject.io/v1alpha1\nkind: Project\nmetadata: {name: p, namespace: default}\nspec: {}\n---"
	print "apiVersion: magosproject.io/v1alpha1\nkind: Rollout\nmetadata: {name: p, namespace: default}\nspec:\n  projectRef: p\n  strategy:\n    steps:"
	for (i = 0; i < 60; i++) printf "    - {name: s%d, selector: {matchLabels: {k: v%d}}}\n", i, i
}' >"$tmp/many-steps.yaml"
case "$SIM" in
*/san/*) echo "skip the memory bound of many trials: the sanitizer build cannot run under ulimit -v" ;;
*)
	(ulimit -v 80000 && exec "$SIM" run -q -n 15000 -j 1 --limit exact-values=1000 "$tmp/many-steps.yaml") \
		>"$tmp/out" 2>"$tmp/err"
	expect_status "15 000 trials of 60 steps run in 80 MB of address space (their rows alone: 90 MB)" 0 $?
	contains "... with every trial counted" "$tmp/out" "halted     15000 of 15000, 100.0%"
	contains "... saying the percentiles come from the sketch" "$tmp/out" \
		"sketched   percentiles estimated within 0.39%: the trials' values passed"
	;;
esac
# Sketched statistics are the same bytes at any -j: the rows reach them in trial order.
SK="--limit exact-values=500 -n 300 scenarios/three-environments.yaml"
# shellcheck disable=SC2086
expect_rc "300 trials sketched after 500 values, -j 1" 0 "$SIM" run -j 1 --json "$tmp/sk1.json" $SK
cp "$tmp/out" "$tmp/sk1.txt"
contains "... the tables say so" "$tmp/sk1.txt" "the exact budget of 500 (docs/limits.md)"
# shellcheck disable=SC2086
expect_rc "... and -j 2" 0 "$SIM" run -j 2 --json "$tmp/sk2.json" $SK
check "... the same tables" cmp -s "$tmp/sk1.txt" "$tmp/out"
check "... the same JSON" cmp -s "$tmp/sk1.json" "$tmp/sk2.json"
contains "... which names the sketch and its error" "$tmp/sk1.json" '"sketch":{"relative_error":0.00390625,"exact_values":500}'
# shellcheck disable=SC2086
expect_rc "... the same trials within the default budget" 0 "$SIM" run -j 2 -n 300 scenarios/three-environments.yaml
lacks "... are exact" "$tmp/out" "sketched"
# merge of shards with the same budget prints what the unsharded run does
for k in 1 2 3; do
	# shellcheck disable=SC2086
	"$SIM" run -q --shard "$k/3" --json "$tmp/sk-part$k.json" $SK 2>/dev/null || bad "run --shard $k/3 $SK"
done
expect_rc "merge of 3 shards with the same budget" 0 "$SIM" merge --limit exact-values=500 \
	"$tmp/sk-part2.json" "$tmp/sk-part1.json" "$tmp/sk-part3.json"
check "... prints exactly the sketched tables of the unsharded run" cmp -s "$tmp/sk1.txt" "$tmp/out"

# ---- a long horizon ends at the event budget (a few seconds in the release
# build; the debug and sanitizer builds are several times slower)
# (Under the sanitizers a million events take minutes on a busy machine: the
# bound is timed in the other builds only.)
case "$SIM" in
*/san/*) ok "a 100-year horizon: not timed under the sanitizers" ;;
*)
	expect_rc "a 100-year horizon run on to the horizon stops at the event budget" 0 \
		timeout 300 "$SIM" run -q --horizon 876000h --until horizon scenarios/fleet-rollback-derived.yaml
	contains "... saying so" "$tmp/out" "after 1000000 events:"
	contains "... naming the budget" "$tmp/out" "the event budget was spent"
	contains "... pointing at the warnings, which -q prints too" "$tmp/out" "cut short by the event budget bound (see warnings below)"
	contains "... where the budget's notice is" "$tmp/out" "event budget of 1000000 events exhausted at"
	;;
esac

# ---- events: one run, and all the trials of a command (counts, never a clock)
sed 's/^  seed: 7$/  seed: 7\n  limits: {eventBudget: 5000, eventsPerInstant: 4000}/' "$SCN" >"$tmp/budget5000.yaml"
grep -q "eventBudget: 5000" "$tmp/budget5000.yaml" || bad "the scenario with a budget was not made"
expect_rc "run-events: a scenario asking more events than the limit is invalid (exit 3)" 3 \
	"$SIM" run --limit run-events=1000 "$tmp/budget5000.yaml"
contains "... at the key, naming both the key and the limit" "$tmp/err" \
	"budget5000.yaml:27:25: error: spec.limits.eventBudget: Invalid value: 5000: more than the 1000 events one run may take (limit run-events; raise it with --limit run-events=N)"
contains "... eventsPerInstant as well" "$tmp/err" \
	"budget5000.yaml:27:49: error: spec.limits.eventsPerInstant: Invalid value: 4000: more than the 1000 events one run may take (limit run-events;"
expect_rc "check: the same scenario is invalid there too" 3 "$SIM" check -n 1 --limit run-events=1000 "$tmp/budget5000.yaml"
expect_rc "run-events: raised to what the scenario asks, it runs" 0 \
	"$SIM" run -q --limit run-events=5000 "$tmp/budget5000.yaml"
expect_rc "run-events: the budget by the objects is capped by the limit" 0 \
	"$SIM" run --limit run-events=50 "$SCN"
contains "... and the run stops there" "$tmp/out" "after 50 events: the event budget was spent"
contains "... saying the limit set it" "$tmp/out" "limit run-events caps it"
expect_rc "total-events: run -n stops at the trial that passes it (exit 3)" 3 \
	"$SIM" run -q -n 20 -j 1 --limit total-events=1000 "$SCN"
contains "... naming the trial, the limit, -n and how to raise it" "$tmp/err" \
	"magos-sim run: error: trial 3 takes the events of the trials past 1000: the trials up to it ran 1203 (-n 20; each run may take 1000000 events: the budget by the objects) (limit total-events; raise it with --limit total-events=N)"
check "... and prints no statistics" test ! -s "$tmp/out"
cp "$tmp/err" "$tmp/total-j1.err"
expect_rc "total-events: the same trial at -j 3" 3 "$SIM" run -q -n 20 -j 3 --limit total-events=1000 "$SCN"
check "... the same bytes" cmp -s "$tmp/total-j1.err" "$tmp/err"
expect_rc "total-events: raised, the same trials run" 0 "$SIM" run -q -n 20 --limit total-events=7000 "$SCN"
sed 's/^  expect:$/  expect:\n    trials: 50/' "$SCN" >"$tmp/trials50.yaml"
expect_rc "total-events: check stops at the trial that passes it (exit 3)" 3 \
	"$SIM" check -j 2 --limit total-events=1000 "$tmp/trials50.yaml"
contains "... naming spec.expect.trials" "$tmp/err" \
	"magos-sim check: error: trial 3 takes the events of the trials past 1000: the trials up to it ran 1206 (spec.expect.trials: 50;"
check "... and reports no checks" test ! -s "$tmp/out"
expect_rc "total-events: trial 0 of check counts too" 3 "$SIM" check --limit total-events=100 "$tmp/trials50.yaml"
contains "... and can pass it alone" "$tmp/err" "error: trial 0 takes the events of the trials past 100: the trials up to it ran 338"
expect_rc "total-events: compare -n stops there too" 3 \
	"$SIM" compare -n 20 --limit total-events=1000 "$SCN" "$SCN"
contains "... saying so" "$tmp/err" "magos-sim compare: error: trial 3 takes the events of the trials past 1000"

# A sweep has at most 10 000 values, as a range or as a list.
vals=$(awk 'BEGIN { for (i = 1; i <= 10001; i++) printf "%s%d", (i > 1 ? "," : ""), i }')
expect_rc "a sweep list of 10 001 values: refused" 2 "$SIM" run -q --sweep "capacity=$vals" scenarios/parallel-cohorts.yaml
contains "... saying so" "$tmp/err" "sweep 'capacity': more than 10000 values"
expect_rc "a sweep range of 10 001 steps: refused" 2 "$SIM" run -q --sweep "capacity=1..20000/10001" scenarios/parallel-cohorts.yaml
contains "... saying so" "$tmp/err" "STEPS must be a whole number from 1 to 10000"

finish
