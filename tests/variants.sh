#!/bin/sh
# End-to-end checks of variants and sweeps (`run -n N` on a scenario with
# spec.variants, --variant, --sweep, spec.sweep): the worked example pinned
# with its seed and -n 200, a capacity sweep on a Magos example pinned as a
# table and as CSV, the JSON's variants array, identical output whatever -j,
# and bad input (exit 2 for the command line, 3 for the scenario).
# UPDATE=1 rewrites the pinned files on purpose.
. "$(dirname "$0")/lib.sh"
EX=scenarios/what-if-canary-soak.yaml
MAGOS=scenarios/parallel-cohorts.yaml
GOLD=tests/variants

# pinned NAME FILE GOLDEN: FILE equals tests/variants/GOLDEN (UPDATE=1 rewrites it).
pinned() {
	if [ "${UPDATE:-0}" = 1 ]; then cp "$2" "$GOLD/$3"; fi
	if cmp -s "$2" "$GOLD/$3"; then ok "$1"; else
		bad "$1"; diff "$GOLD/$3" "$2" | head -20 | sed 's/^/     /'
	fi
}

# scenario NAME TEXT: writes a scenario file into $tmp.
scenario() { printf '%s\n' "$2" >"$tmp/$1"; }

# ---- the worked example: base and three variants on the same seeds
expect_rc "the example's variants run" 0 "$SIM" run -n 200 "$EX"
pinned "the variant table is pinned (seed 11, -n 200)" "$tmp/out" canary-soak.txt
check "nothing on stderr" test ! -s "$tmp/err"
check "the table fits 80 columns" test "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/out")" -le 80
check "every variant has a delta line" test "$(grep -c '^  vs base' "$tmp/out")" -eq 6

expect_rc "the example's base, one trial" 0 "$SIM" run "$EX"
check "... members hold 1.4.0 until the publish: broad and rest await approval at 20m" \
	sh -c "grep -q '20m0s  wave broad  *members  4 AwaitingApproval' '$tmp/out' && grep -q '20m0s  wave rest  *members  10 AwaitingApproval' '$tmp/out'"
expect_rc "the example's trials as CSV" 0 "$SIM" run -n 200 --csv "$tmp/base.csv" "$EX"
check "... no trial of the base halts on wave rest (nothing adopts before its wave opens)" \
	sh -c "! grep ',base.\$' '$tmp/base.csv' | cut -d, -f10 | grep -q 'wave rest'"
check "... the base's 200 rows, then each variant's, named in the last column" \
	test "$(tr -d '\r' <"$tmp/base.csv" | awk -F, 'NR > 1 { print $NF }' | uniq -c | awk '{ $1 = $1; print }' | tr '\n' '|')" = \
	"200 base|200 soak 15m instead of 30m|200 add a pilot wave|200 failure rate 5%|"
check "... the header names the column" sh -c "head -n 1 '$tmp/base.csv' | tr -d '\r' | grep -q ',job_wait_ms,bound_note,variant\$'"
pyfacts "$tmp/base.csv" <<'PY'
import csv, sys
from facts import check
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
base = [r for r in rows if r["variant"] == "base"]
for name in ("soak 15m instead of 30m", "add a pilot wave", "failure rate 5%"):
    v = [r for r in rows if r["variant"] == name]
    check("CSV: variant %r has each trial's index and seed, as the base (common random numbers)" % name,
          [(r["index"], r["seed"]) for r in v] == [(r["index"], r["seed"]) for r in base], len(v))
PY
expect_rc "a scenario without variants" 0 "$SIM" run -n 5 --csv "$tmp/plain.csv" scenarios/three-environments.yaml
check "... keeps its columns: no variant column" sh -c "head -n 1 '$tmp/plain.csv' | tr -d '\r' | grep -q ',job_wait_ms,bound_note\$'"

expect_rc "the JSON of the variants" 0 "$SIM" run -n 20 --json "$tmp/v.json" "$EX"
check "the JSON names the variants in order" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = [v["name"] for v in d["variants"]]
assert names == ["soak 15m instead of 30m", "add a pilot wave", "failure rate 5%"], names
assert d["variants"][0]["description"] == "the canary wave soaks 15m before broad opens"
assert d["variants"][2]["description"] == "adoptions fail five times as often"
for v in d["variants"]:
    assert v["statistics"]["ntrials"] == 20
assert d["n"] == 20 and len(d["trials"]) == 20
' "$tmp/v.json"

expect_rc "--variant runs one variant as the scenario" 0 "$SIM" run --variant "add a pilot wave" --timeline none "$EX"
check "... with its extra wave" grep -q "wave pilot" "$tmp/out"
expect_rc "the base has no pilot wave" 0 "$SIM" run --timeline none "$EX"
check "... indeed" sh -c "! grep -q 'wave pilot' '$tmp/out'"
expect_rc "--variant with an unknown name is a usage error" 2 "$SIM" run --variant nope "$EX"
check "... that lists the variants" grep -q "unknown variant 'nope'; the variants are 'soak 15m instead of 30m', 'add a pilot wave', 'failure rate 5%'" "$tmp/err"

# ---- a capacity sweep on a Magos example
expect_rc "capacity sweep" 0 "$SIM" run -n 20 -j 1 --sweep capacity=1,2,4,8 --csv "$tmp/cap.csv" "$MAGOS"
pinned "the capacity sweep table is pinned" "$tmp/out" capacity-sweep.txt
pinned "the capacity sweep CSV is pinned" "$tmp/cap.csv" capacity-sweep.csv
check "the CSV has a header and one row per value" test "$(wc -l <"$tmp/cap.csv")" -eq 5
cp "$tmp/out" "$tmp/cap-j1.txt"
expect_rc "capacity sweep on 2 threads" 0 "$SIM" run -n 20 -j 2 --sweep capacity=1..8/4 --csv "$tmp/cap2.csv" "$MAGOS"
check "a range gives the rounded values 1, 3, 6, 8" test "$(cut -d, -f1 "$tmp/cap2.csv" | tr -d '\r' | tr '\n' ' ')" = "capacity 1 3 6 8 "
expect_rc "the same sweep on 1 thread" 0 "$SIM" run -n 20 -j 1 --sweep capacity=1..8/4 --csv "$tmp/cap1.csv" "$MAGOS"
check "-j does not change the sweep" cmp -s "$tmp/cap1.csv" "$tmp/cap2.csv"

# spec.sweep does the same from the scenario
sed 's/^  models:$/  sweep: {parameter: capacity, values: [1, 2, 4, 8]}\n  models:/' "$MAGOS" >"$tmp/swept.yaml"
expect_rc "spec.sweep runs with -n" 0 "$SIM" run -n 20 -j 1 "$tmp/swept.yaml"
check "spec.sweep prints the same table" cmp -s "$tmp/out" "$tmp/cap-j1.txt"

# ---- a sweep on a fleet scenario shows the columns that apply
expect_rc "a regression sweep on the fleet example" 0 "$SIM" run -n 20 --sweep models.regression.probability=0.02,0.1 "$EX"
check "... has the fleet columns" grep -q "^value  *ttc p50  *ttc p95  *complete  *halt blast mean detect p50 member-min\$" "$tmp/out"
check "... and not the Jobs ones" sh -c "! grep -q 'jobs p95' '$tmp/out'"
check "... with numbers: blast 1 and 1.4, detection 4m33s and 4m32s, exposure 19.7 and 31.4 member-minutes" \
	sh -c "grep -qE '^0.02 .* 20.0%  +1  +4m33s  +19.7\$' '$tmp/out' && grep -qE '^0.1 .* 30.0%  +1.4  +4m32s  +31.4\$' '$tmp/out'"
check "... and says what member-min is" grep -q "member-min: exposure," "$tmp/out"
expect_rc "a capacity sweep on a scenario without Jobs" 0 "$SIM" run -n 5 --sweep capacity=1,2 "$EX"
check "... warns that capacity changes nothing" grep -q "warning: sweep of capacity: no trial of the base ran a Job .* so capacity changes nothing" "$tmp/err"
expect_rc "a capacity sweep on a Magos scenario does not warn" 0 "$SIM" run -n 5 --sweep capacity=1,2 "$MAGOS"
check "... indeed" test ! -s "$tmp/err"
check "... and keeps the Jobs columns" grep -q "jobs p95 queue mean\$" "$tmp/out"

# ---- --shard keeps the variants and the sweep (merged in tests/shards.sh); a second --sweep would silently drop one
expect_rc "--shard on a scenario with variants" 0 "$SIM" run -n 20 --shard 1/2 --json "$tmp/p.json" "$EX"
check "... writes every variant's slice" grep -q '"kind": "variant", "name": "soak 15m instead of 30m"' "$tmp/p.json"
expect_rc "--shard on a scenario with spec.sweep" 0 "$SIM" run -n 20 --shard 1/2 --json "$tmp/p.json" "$tmp/swept.yaml"
check "... writes every value's slice" grep -q '"kind": "sweep", "name": "capacity=8"' "$tmp/p.json"
expect_rc "--sweep twice is a usage error" 2 "$SIM" run -n 5 --sweep capacity=1,2 --sweep capacity=4 "$MAGOS"
check "... that says so" grep -q "run: --sweep given twice: one parameter per run" "$tmp/err"

# ---- bad input
expect_rc "an unknown sweep parameter" 2 "$SIM" run -n 5 --sweep capasity=1,2 "$MAGOS"
check "... suggests the nearest and lists the accepted ones" grep -q "unknown sweep parameter 'capasity': did you mean 'capacity'? accepted: capacity, models.podStartup" "$tmp/err"
expect_rc "an empty range" 2 "$SIM" run -n 5 --sweep capacity=8..2/4 "$MAGOS"
check "... is named empty" grep -q "empty range \"8..2/4\"" "$tmp/err"
expect_rc "zero steps" 2 "$SIM" run -n 5 --sweep models.apply.duration=1m..2m/0 "$MAGOS"
expect_rc "a non-numeric value" 2 "$SIM" run -n 5 --sweep capacity=1,two "$MAGOS"
check "... is quoted" grep -q "value \"two\" is not a whole number of at least 1" "$tmp/err"
expect_rc "a duration that is not one" 2 "$SIM" run -n 5 --sweep models.apply.duration=5 "$MAGOS"
expect_rc "a probability above 1" 2 "$SIM" run -n 5 --sweep models.apply.failureProbability=0.5,2 "$MAGOS"
expect_rc "a median of a duration that is not lognormal" 2 "$SIM" run -n 5 --sweep models.apply.median=2m,4m "$MAGOS"
check "... says what it needs" grep -q "needs spec.models.jobs.apply.duration to be lognormal" "$tmp/err"
expect_rc "--variant with --sweep" 2 "$SIM" run --variant x --sweep capacity=1 "$EX"

HEAD='apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: bad}
spec:'
FR='---
apiVersion: stages.metio.wtf/v1
kind: FleetRollout
metadata: {name: shop}
spec:
  targetVersion: "1.5.0"
  selector: {matchLabels: {app: shop}}
  waves:
    - name: all
      selector: {}'
scenario unknown-target.yaml "$HEAD
  variants:
    - name: typo
      patches:
        - target: {kind: FleetRollout, name: shops}
          merge: {spec: {targetVersion: \"1.6.0\"}}
$FR"
expect_rc "a patch of an object that does not exist" 3 "$SIM" run -n 5 "$tmp/unknown-target.yaml"
check "... names it and the variant at file:line:col" grep -q "unknown-target.yaml:8:19: error: spec.variants\[0\].patches\[0\].target: variant 'typo': no FleetRollout \"shops\" in the inputs" "$tmp/err"
check "... and lists the objects of that kind" grep -q "note: FleetRollout objects in the inputs: \"shop\"" "$tmp/err"

scenario invalid-patch.yaml "$HEAD
  variants:
    - name: no waves
      patches:
        - target: {kind: FleetRollout, name: shop}
          merge: {spec: {waves: 3}}
$FR"
expect_rc "a patch that makes the manifest invalid" 3 "$SIM" run -n 5 "$tmp/invalid-patch.yaml"
check "... names the variant and the admission message" grep -q "error: spec.variants\[0\].patches\[0\]: variant 'no waves': the patched FleetRollout \"shop\" is invalid: FleetRollout \"shop\": spec.waves: Invalid value" "$tmp/err"

scenario no-series.yaml "$HEAD
  variants:
    - name: gated
      patches:
        - target: {kind: FleetRollout, name: shop}
          merge:
            spec:
              waves:
                - name: all
                  selector: {}
                  gate:
                    source: {prometheus: {address: http://prom:9090, query: up}}
                    threshold: {max: \"1\"}
$FR"
expect_rc "a patched gate without a series" 3 "$SIM" run -n 5 "$tmp/no-series.yaml"
check "... names the wave and the query at the patch's line" grep -q "no-series.yaml:15:77: error: spec.variants\[0\].patches\[0\]: variant 'gated': FleetRollout \"shop\": wave \"all\": no series in spec.metrics for the gate query \"up\"" "$tmp/err"

scenario bad-model.yaml "$HEAD
  variants:
    - name: typo
      models: {stagesets: {adoptoin: {duration: 5m}}}
$FR"
expect_rc "an unknown model key" 3 "$SIM" run -n 5 "$tmp/bad-model.yaml"
check "... lists the accepted keys" grep -q "bad-model.yaml:7:28: error: unknown field \"spec.variants\[0\].models.stagesets.adoptoin\"" "$tmp/err"
check "... in a note" grep -q "note: accepted fields: adoption, regression, migrations, rules" "$tmp/err"

scenario base-name.yaml "$HEAD
  variants:
    - name: base
      models: {stagesets: {adoption: {failureProbability: 0.5}}}
$FR"
expect_rc "a variant named base" 3 "$SIM" run -n 5 "$tmp/base-name.yaml"
check "... is refused at file:line:col" grep -q "base-name.yaml:6:13: error: spec.variants\[0\].name: Invalid value: \"base\": the name of the unchanged scenario's row" "$tmp/err"

scenario empty-variant.yaml "$HEAD
  variants:
    - name: nothing
      description: forgot the change
$FR"
expect_rc "a variant with neither patches nor models runs" 0 "$SIM" run -n 3 "$tmp/empty-variant.yaml"
check "... with a warning" grep -q "empty-variant.yaml:6:7: warning: spec.variants\[0\]: variant 'nothing' has neither patches nor models: it runs the base unchanged" "$tmp/err"

scenario bad-sweep.yaml "$HEAD
  sweep: {parameter: capacity, values: \"4..2/3\"}
$FR"
expect_rc "an empty range in spec.sweep" 3 "$SIM" run -n 5 "$tmp/bad-sweep.yaml"
check "... at its line" grep -q "bad-sweep.yaml:5:40: error: spec.sweep: sweep 'capacity': empty range" "$tmp/err"

# A single run is the base: it says so, and how to run the variants (not under -q).
"$SIM" run --timeline none "$EX" >/dev/null 2>"$tmp/one.err"
check "one run of a scenario with variants notes how to run them" \
	grep -qx "magos-sim run: note: one run of the base; the scenario's variants run with -n N (--variant NAME runs one)" "$tmp/one.err"
"$SIM" run -q "$EX" >/dev/null 2>"$tmp/oneq.err"
check "... but not under -q" test ! -s "$tmp/oneq.err"

finish
