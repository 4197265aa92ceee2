#!/bin/sh
# What a run resumed from a snapshot of the simulator reports: under -n, the
# remaining time as wall-clock bounds that hold every trial's end; a
# snapshot already complete said to be so and left out of the time to
# complete (text, JSON, HTML, sharded and merged).
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim
jq_true() {
	if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$2" "$3"; then
		ok "$1"
	else bad "$1"; fi
}

# checkout with Jobs of a narrow spread: resumed at 1m, the trials end
# within one minute of each other, a few seconds apart.
mkdir "$tmp/co"
cp scenarios/checkout/*.yaml "$tmp/co/"
cat >"$tmp/spread.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: checkout-spread}
spec:
  models:
    jobs:
      plan: {duration: {uniform: {min: 10s, max: 12s}}}
      apply: {duration: {uniform: {min: 20s, max: 23s}}}
YAML
cp "$tmp/spread.yaml" "$tmp/co/"
"$SIM" run -q --snapshot 1m "$tmp/s60.yaml" "$tmp/co" >/dev/null

# --- -n: "done between" holds the fastest and the slowest trial ---
"$SIM" run -n 40 --now 2026-01-01T00:01:00Z "$tmp/spread.yaml" "$tmp/s60.yaml" >"$tmp/n40.txt" 2>&1
"$SIM" run -n 40 --now 2026-01-01T00:01:00Z --json "$tmp/n40.json" "$tmp/spread.yaml" "$tmp/s60.yaml" >/dev/null 2>&1
pyfacts "$tmp/n40.txt" "$tmp/n40.json" <<'PY'
import datetime, json, re, sys
from facts import check
text = open(sys.argv[1]).read()
ends = sorted(t['ttc_ms'] for t in json.load(open(sys.argv[2]))['trials'] if t['completed'])
start = datetime.datetime(2026, 1, 1, 0, 1, tzinfo=datetime.timezone.utc)
def at(ms):
    return start + datetime.timedelta(milliseconds=ms)
def parse(s):
    return datetime.datetime.strptime(s, '%Y-%m-%d %H:%M:%S').replace(tzinfo=datetime.timezone.utc)
check("the trials end within one minute of each other, not on whole seconds",
      ends and ends[-1] - ends[0] < 60000 and ends[-1] % 1000 != 0, ends[:1] + ends[-1:])
m = re.search(r'^  done between (\S+ \S+) UTC and (\S+ \S+) UTC$', text, re.M)
check("a spread under 10 minutes gives the bounds in seconds", m is not None, text[:800])
if m:
    lo, hi = parse(m.group(1)), parse(m.group(2))
    check("the lower bound is the fastest trial's end rounded down",
          lo <= at(ends[0]) and at(ends[0]) - lo < datetime.timedelta(seconds=1), (m.group(1), at(ends[0])))
    check("the upper bound is the slowest trial's end rounded up, not below it",
          hi >= at(ends[-1]) and hi - at(ends[-1]) < datetime.timedelta(seconds=1), (m.group(2), at(ends[-1])))
    pcs = re.findall(r'p(?:50|90|95|99) (\S+ \S+) UTC', text)
    check("the four percentiles are in seconds, inside the bounds",
          len(pcs) == 4 and all(lo <= parse(p) <= hi for p in pcs), pcs)
PY
# the snapshot example, 200 trials over 20 minutes: whole minutes, the last
# trial's end (14:27:05) rounded up
"$SIM" run -n 200 --now 2026-11-30T14:02:07Z scenarios/snapshot-shop-network.yaml >"$tmp/shop.txt" 2>&1
has_line "a spread of 10 minutes or more gives minutes, the upper bound rounded up" "$tmp/shop.txt" \
	"  done between 2026-11-30 14:06 UTC and 2026-11-30 14:28 UTC"

# --- -n on a snapshot already complete: said so, no time to complete ---
"$SIM" run -q --snapshot 31m "$tmp/te31.yaml" scenarios/three-environments.yaml >/dev/null
pyfacts scenarios/three-environments.yaml "$tmp/te-scn.yaml" <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d.get('kind') == 'Scenario']
yaml.safe_dump_all(docs, open(sys.argv[2], 'w'))
PY
te() { "$SIM" run --now 2026-03-02T09:31:00Z "$@" "$tmp/te-scn.yaml" "$tmp/te31.yaml"; }
te -q >"$tmp/te1.txt" 2>&1
contains "the single run says it is complete already" "$tmp/te1.txt" "completed already: every Rollout/FleetRollout was complete when"
te -n 8 --json "$tmp/te8.json" --html "$tmp/te8.html" >"$tmp/te8.txt" 2>&1
has_line "-n says how many trials were complete at the start" "$tmp/te8.txt" \
	"already    8 of 8 trials: every Rollout/FleetRollout was complete when the"
has_line "... and that there is no time to complete, instead of an empty table" "$tmp/te8.txt" \
	"Time to complete: none, every trial was complete when it started"
lacks "no wall-clock range of a time there is not" "$tmp/te8.txt" "done between"
lacks "no step durations of 0s: the steps were done before the run" "$tmp/te8.txt" "Steps and waves"
pyfacts "$tmp/te8.json" docs/schemas/trials-v1.schema.json <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
st, rows = d['statistics'], d['trials']
check("JSON: the statistics count 8 already complete, none in the time to complete",
      st['already_complete'] == 8 and st['nothing_to_complete'] == 0 and st['ttc']['n'] == 0
      and st['complete']['k'] == 8, (st['already_complete'], st['ttc']))
check("JSON: each trial completed, already_complete, with no ttc_ms",
      all(r['completed'] and r['already_complete'] and not r['nothing_to_complete']
          and r['ttc_ms'] is None for r in rows), rows[0])
check("JSON: no step durations", st['phases'] == [], st['phases'])
try:
    import jsonschema
except ImportError:
    jsonschema = None
if jsonschema:
    errs = list(jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).iter_errors(d))
    check("JSON: valid against docs/schemas/trials-v1.schema.json", not errs, [e.message for e in errs[:2]])
PY
contains "HTML: the statistics say the trials were already complete" "$tmp/te8.html" \
	"8 of 8 trials already complete: every Rollout/FleetRollout was complete when the run started"
contains "HTML: the chart draws no curve of a time there is not, and says why" "$tmp/te8.html" \
	"no time to complete: every trial was complete when it started"
lacks "HTML: not drawn as trials censored at the horizon" "$tmp/te8.html" 'class="cens-dot'

# sharded and merged: a partial carries the flag, and the merge counts them
te -q -n 8 --shard 1/2 --json "$tmp/p1.json" >/dev/null 2>&1
te -q -n 8 --shard 2/2 --json "$tmp/p2.json" >/dev/null 2>&1
expect_rc "the shards of an already complete snapshot merge" 0 "$SIM" merge --json "$tmp/m.json" "$tmp/p1.json" "$tmp/p2.json"
has_line "the merged report says so as the unsharded one does" "$tmp/out" \
	"already    8 of 8 trials: every Rollout/FleetRollout was complete when the"
jq_true "the merged JSON counts them as the unsharded one does" "$tmp/m.json" \
	'd["statistics"]["already_complete"] == 8 and d["statistics"]["ttc"]["n"] == 0'
sed 's/"already_complete":true/"already_complete":true,"nothing_to_complete":true/' "$tmp/p1.json" >"$tmp/p1-bad.json"
expect_rc "a partial row with two reasons for no time is refused" 3 "$SIM" merge "$tmp/p1-bad.json" "$tmp/p2.json"
contains "the error names the row and the fields" "$tmp/err" "row 0: 'already_complete' is true but 'completed' is true and 'ttc_ms' -1"
finish
