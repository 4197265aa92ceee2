#!/bin/sh
# What a run resumed from a snapshot of the simulator reports: under -n, the
# remaining time as wall-clock bounds that hold every trial's end.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

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
finish
