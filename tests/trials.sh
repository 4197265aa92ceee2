#!/bin/sh
# End-to-end checks of `magos-sim run -n N -j J`: bad counts, identical output
# whatever J, -n 1 equal to a plain run, CSV and JSON files, trials stopped by
# a bound reported and counted, 80-column tables, a quiet stderr off a TTY.
. "$(dirname "$0")/lib.sh"
SCN=scenarios/three-environments.yaml

expect_rc "-n 0 is a usage error" 2 "$SIM" run -n 0 "$SCN"
check "-n 0 says what is expected" grep -q "invalid trial count '0'" "$tmp/err"
expect_rc "-n -3 is a usage error" 2 "$SIM" run -n -3 "$SCN"
expect_rc "-n abc is a usage error" 2 "$SIM" run --trials abc "$SCN"
expect_rc "-n above 10000000 is a usage error" 2 "$SIM" run -n 10000001 "$SCN"
expect_rc "-j 0 is a usage error" 2 "$SIM" run -n 2 -j 0 "$SCN"
expect_rc "-j 257 is a usage error" 2 "$SIM" run -n 2 --jobs 257 "$SCN"
check "-j 257 names the bound" grep -q "from 1 to 256" "$tmp/err"
expect_rc "-j x is a usage error" 2 "$SIM" run -n 2 -j x "$SCN"
expect_rc "-n without a value is a usage error" 2 "$SIM" run "$SCN" -n
expect_rc "--csv to a missing directory is an I/O error" 4 "$SIM" run -n 3 --csv "$tmp/no/such/dir/t.csv" "$SCN"
check "the I/O error names the file" grep -q "cannot write '$tmp/no/such/dir/t.csv'" "$tmp/err"
expect_rc "--json - with --csv - is a usage error" 2 "$SIM" run -n 3 --json - --csv - "$SCN"

# -n 1 is the plain run, byte for byte
"$SIM" run "$SCN" >"$tmp/plain" 2>&1
"$SIM" run -n 1 "$SCN" >"$tmp/n1" 2>&1
check "-n 1 prints exactly what run prints" cmp -s "$tmp/plain" "$tmp/n1"

# -j does not change a byte
expect_rc "-n 40 -j 1 runs" 0 "$SIM" run -n 40 -j 1 --json "$tmp/j1.json" --csv "$tmp/j1.csv" "$SCN"
cp "$tmp/out" "$tmp/j1.txt"
expect_rc "-n 40 -j 2 runs" 0 "$SIM" run -n 40 -j 2 --json "$tmp/j2.json" --csv "$tmp/j2.csv" "$SCN"
check "-j 1 and -j 2 give identical JSON" cmp -s "$tmp/j1.json" "$tmp/j2.json"
check "-j 1 and -j 2 give identical CSV" cmp -s "$tmp/j1.csv" "$tmp/j2.csv"
check "-j 1 and -j 2 give identical tables" cmp -s "$tmp/j1.txt" "$tmp/out"
check "off a TTY no progress bar on stderr" test ! -s "$tmp/err"
check "the CSV has a header and 40 rows" test "$(wc -l <"$tmp/j1.csv")" -eq 41
check "CSV lines end in CRLF" grep -q "$(printf '\r')\$" "$tmp/j1.csv"
check "the JSON names its schema" grep -q '"schema": "magos-sim/trials/v1"' "$tmp/j1.json"
check "the JSON has 40 trials" test "$(grep -c '^    {"index"' "$tmp/j1.json")" -eq 40
check "trial 0 of the JSON has the scenario's seed" grep -q '^    {"index":0,"seed":7,' "$tmp/j1.json"
if command -v python3 >/dev/null 2>&1; then
	check "the JSON parses" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['n']==40 and len(d['trials'])==40 and d['statistics']['ntrials']==40" "$tmp/j1.json"
fi
check "the tables show time to complete" grep -q "^Time to complete (40 trials)" "$tmp/j1.txt"
check "the tables show the critical path" grep -q "critical path: step prod" "$tmp/j1.txt"
check "every table line fits 80 columns" test "$(awk 'length($0) > 80' "$tmp/j1.txt" | wc -l)" -eq 0
check "no colour off a TTY" test "$(grep -c "$(printf '\033')" "$tmp/j1.txt")" -eq 0

# a trial's seed reproduces it with a plain run
seed=$(sed -n 3p "$tmp/j1.csv" | cut -d, -f2)
ttc=$(sed -n 3p "$tmp/j1.csv" | cut -d, -f7)
"$SIM" run --seed "$seed" --json "$tmp/one.json" "$SCN" >/dev/null 2>&1
check "run --seed with trial 1's seed reproduces its time to complete" \
	grep -q "\"time_to_complete_ms\": *$ttc" "$tmp/one.json"
# ... and so does the same seed written as spec.seed (trial seeds reach 2^64-1,
# above what a YAML integer holds)
sed "s/^  seed: 7\$/  seed: $seed/" "$SCN" >"$tmp/seeded.yaml"
"$SIM" run --json "$tmp/seeded.json" "$tmp/seeded.yaml" >/dev/null 2>&1
check "spec.seed with trial 1's seed reproduces its time to complete" \
	grep -q "\"time_to_complete_ms\": *$ttc" "$tmp/seeded.json"
check "... and the seed is kept whole ($seed)" grep -q "\"seed\": *\"$seed\"" "$tmp/seeded.json"

expect_rc "-q prints the outcome only" 0 "$SIM" run -q -n 10 "$SCN"
check "-q leaves out the steps table" test "$(grep -c "Steps and waves" "$tmp/out")" -eq 0
expect_rc "--json - writes the document to stdout" 0 "$SIM" run -n 5 --json - "$SCN"
check "--json - prints no tables" test "$(head -c 1 "$tmp/out")" = "{"
expect_rc "--csv with one run writes its row" 0 "$SIM" run --csv "$tmp/one.csv" "$SCN"
check "one run's CSV has a header and one row" test "$(wc -l <"$tmp/one.csv")" -eq 2

# a halting scenario: halts grouped by where and reason
expect_rc "a halting scenario runs" 0 "$SIM" run -n 10 scenarios/staging-failure-halts.yaml
check "halts are grouped by where and reason" grep -q "step staging  *StepFailed  *10 100.0%" "$tmp/out"

# trials stopped by the event budget: named on stderr, counted, never dropped
cat >"$tmp/budget.yaml" <<YAML
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: tiny-budget}
spec:
  limits: {eventBudget: 2}
  include: [$(pwd)/scenarios/payments-platform/workspaces.yaml]
YAML
expect_rc "trials stopped by a bound still exit 0" 0 "$SIM" run -n 3 -j 2 --json "$tmp/b.json" "$tmp/budget.yaml"
check "each bounded trial is named with its seed" grep -q "trial 0 (seed 1) stopped by the event budget" "$tmp/err"
check "without hot keys the warning names the bound" grep -q "event budget of 2 events exhausted at 0s" "$tmp/err"
check "the tables count them" grep -q "^bounded    3 trials stopped" "$tmp/out"
check "the tables list them" grep -q "^  trial 2 (seed [0-9]*): event budget" "$tmp/out"
check "the JSON counts them" grep -q '"nbound":3' "$tmp/b.json"
sed 's/^  seed: 7$/  seed: 7\n  limits: {eventBudget: 152}/' "$SCN" >"$tmp/b152.yaml"
expect_rc "a budget hit mid-rollout" 0 "$SIM" run -n 1 --csv "$tmp/b152.csv" "$tmp/b152.yaml"
check "its row names the hot objects" grep -q "hot objects: Workspace default/shop-staging x1" "$tmp/b152.csv"

# harm measured at a halt: the CSV and the JSON agree (empty / null without a halt)
FLEET=scenarios/what-if-canary-soak.yaml
expect_rc "fleet trials with CSV and JSON" 0 "$SIM" run -n 40 --variant "failure rate 5%" \
	--csv "$tmp/fl.csv" --json "$tmp/fl.json" "$FLEET"
check "a trial without a halt has empty blast_count and exposure_ms in the CSV" \
	test "$(sed -n 3p "$tmp/fl.csv" | cut -d, -f8,12,13,15 | tr -d '\r')" = "0,,16,"
check "... and the JSON says null for both, numbers for a halting trial" python3 -c '
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
assert len(rows) == len(d["trials"]) == 40
for t, r in zip(d["trials"], rows):
    for k in ("blast_count", "exposure_ms"):
        want = "" if t[k] is None else str(t[k])
        assert r[k] == want, (t["index"], k, r[k], t[k])
    assert (t["blast_count"] is None) == (not t["halted"])
assert sum(t["halted"] for t in d["trials"]) == 5
' "$tmp/fl.json" "$tmp/fl.csv"
expect_rc "the same trials as tables" 0 "$SIM" run -n 40 --variant "failure rate 5%" "$FLEET"
check "exposure is in member-minutes, labelled" grep -q "^Exposure, member-minutes on the bad version (40 trials; 0 without a halt)" "$tmp/out"
check "... with its mean as a number of member-minutes" grep -q "^  mean 14.5 (95 % CI 1.5 .. 27.5)   min 0.0   max 158.6" "$tmp/out"
check "the definitions are stated under the tables" grep -q "blast radius and exposure are measured at the first halt and count 0" "$tmp/out"
check "... with the halt share" grep -q "(the mean over halting trials times the halt share, 12.5%)" "$tmp/out"
check "detection says it is over halted trials" grep -q "^Detection latency, fault onset to halt (5 trials; halted trials only)" "$tmp/out"
expect_rc "fewer trials" 0 "$SIM" run -n 20 --variant "failure rate 5%" "$FLEET"
check "a confidence interval of a count does not go below 0" grep -q "^  mean 1 (95 % CI 0 .. 2.0)   min 0   max 6" "$tmp/out"
check "the tables fit 80 columns" test "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/out")" -le 80

# a shard with no trials says so
expect_rc "an empty shard" 0 "$SIM" run -n 2 --shard 1/3 --json "$tmp/empty.json" "$SCN"
check "... says there are no trials in it" grep -q "run: shard 1/3: no trials in this slice of 2 (0 written to '$tmp/empty.json')" "$tmp/err"
check "... and not a range" sh -c "! grep -q 'trials 0..0' '$tmp/err'"
expect_rc "a shard with one trial" 0 "$SIM" run -n 2 --shard 3/3 --json "$tmp/one.json" "$SCN"
check "... names it" grep -q "run: shard 3/3: trials 1..1 of 2 written to" "$tmp/err"

# --- a halt before the start of a resumed run: trials say so, as the one run does ---
# staging-failure-halts halts at 12m50.15s; a 13m snapshot resumed with its
# Scenario document has the halt 9.85s before its start.
mkdir -p "$tmp/hb"
sed -n 1,71p scenarios/staging-failure-halts.yaml >"$tmp/hb/scn.yaml"
"$SIM" run -q --snapshot 13m "$tmp/hb/snap.yaml" scenarios/staging-failure-halts.yaml >/dev/null
"$SIM" run -q --json "$tmp/hb-one.json" "$tmp/hb/" >/dev/null 2>&1
expect_rc "-n of the resumed halted run" 0 "$SIM" run --no-color -n 20 --json "$tmp/hb-tr.json" "$tmp/hb/"
contains "-n text: the halts were before the start" "$tmp/out" \
	"           20 of them before the start (the snapshot was taken halted;"
"$SIM" run -q -n 20 --shard 1/2 --json "$tmp/hb-p1.json" "$tmp/hb/" >/dev/null 2>&1
"$SIM" run -q -n 20 --shard 2/2 --json "$tmp/hb-p2.json" "$tmp/hb/" >/dev/null 2>&1
"$SIM" merge -q --no-color --json "$tmp/hb-merged.json" "$tmp/hb-p1.json" "$tmp/hb-p2.json" >"$tmp/hb-merged.txt" 2>&1
contains "merged shards say it too" "$tmp/hb-merged.txt" "20 of them before the start"
pyfacts "$tmp" <<'PY'
import json, sys
from facts import check
t = sys.argv[1]
one = json.load(open(t + '/hb-one.json'))['summary']['halt']
check("the one run: a halt 9.85s before the start", (one['t_ms'], one['before_start']) == (-9850, True), one)
for name in ('hb-tr', 'hb-merged'):
    d = json.load(open(t + '/' + name + '.json'))
    tr = d['trials'][0]
    check(name + ": trial 0 halts at 0, before the start",
          (tr['halt_ms'], tr['halt_before_start']) == (0, True), tr)
    check(name + ": every trial says so", all(r['halt_before_start'] for r in d['trials']))
    check(name + ": resumed_ms is the snapshot's 13m", d['scenario']['resumed_ms'] == 780000)
PY
finish
