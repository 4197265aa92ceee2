#!/bin/sh
# The notices about a run as a whole: told at the run's end (the horizon when
# the run stopped there, not the time of its last event), after the whole
# timeline, and true of the whole timeline: a Workspace approved, applied and
# planned again is not said never to have been approved.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim
require_python "to read the JSON reports"

S=tests/scenarios/approved-then-replanned.yaml
expect_rc "an approved, applied, re-planned Workspace runs to the horizon" 0 \
	"$SIM" run --no-color --until horizon --json "$tmp/a.json" "$S"
if python3 - "$tmp/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ns = [n["text"] for n in d["notices"] if "ended Planned" in n["text"]]
assert ns == ["Workspace default/shop-prod ended Planned: autoApply is false; the approval given "
              "at 2m0s was used (its apply started at 2m0s), then the Workspace was reset at 10m0s "
              "(ScheduledReconcile) and planned again, and that plan (Planned at 11m5s) waits for a "
              "new magosproject.io/approved: \"true\", which nobody gave (an approval is consumed by "
              "the apply it starts)"], ns
PY
then ok "the notice says the approval was given and used, and what planned it again"
else bad "the notice says the approval was given and used, and what planned it again"; fi
# Printed after the horizon line, with the horizon's time.
if awk '/horizon 25m0s reached/ { h = NR } /!! warning/ { w = NR; t = $1 }
	END { exit !(h && w > h && t == "25m0s") }' "$tmp/out"; then
	ok "the warning is printed after the horizon line, at 25m0s"
else bad "the warning is printed after the horizon line, at 25m0s"; show "$tmp/out" 40; fi
if python3 - "$tmp/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
last = max(e["t_ms"] for e in d["timeline"])
ns = [n for n in d["notices"] if "ended Planned" in n["text"]]
assert last < 1500000, last
assert len(ns) == 1 and ns[0]["t_ms"] == 1500000, ns
PY
then ok "the JSON dates it at the horizon, after the last event"; else bad "the JSON dates it at the horizon, after the last event"; fi

# Without an approval the plain words stay.
expect_rc "a plan nobody approves" 0 "$SIM" run -q --json "$tmp/n.json" tests/scenarios/auto-apply-false.yaml
contains "... is said to wait for an approval nobody gave" "$tmp/n.json" \
	"ended Planned: autoApply is false and it waits for magosproject.io/approved: \\\"true\\\", which nobody gave"

# Every end-of-run notice of a run stopped by the horizon carries the horizon.
expect_rc "interval-short runs to its horizon" 0 "$SIM" run -q --json "$tmp/is.json" tests/hazards/interval-short.yaml
if python3 - "$tmp/is.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ns = [n for n in d["notices"] if "did not complete" in n["text"]]
assert ns and all(n["t_ms"] == 3 * 3600000 for n in ns), [(n["t_ms"], n["text"][:40]) for n in ns]
PY
then ok "the scheduled-reset notice is dated at the 3h horizon"; else bad "the scheduled-reset notice is dated at the 3h horizon"; fi

finish
