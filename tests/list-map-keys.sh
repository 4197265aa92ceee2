#!/bin/sh
# End to end: a FleetRollout with two waves of the same name (spec §6 #19).
# The loader admits it (spec.waves is a plain list in the CRD), lint flags it
# (MS211), and in `run` the simulated API server refuses every status write
# (status.waves is a list-map keyed by name), as the real one does: the run
# says so once, with the API server's message, and the FleetRollout keeps no
# status (the controller errors and backs off on every pass).
. "$(dirname "$0")/lib.sh"
IN=tests/scenarios/fleet-duplicate-waves.yaml

MSG='status write refused by the API server: FleetRollout.stages.metio.wtf "web" is invalid: status.waves[1]: Duplicate value: map[string]interface {}{"name":"canary"}'

"$SIM" run -q --json "$tmp/run.json" "$IN" >"$tmp/out" 2>"$tmp/err"
check "duplicate wave names: the run is accepted (exit 0)" [ $? -eq 0 ]
check "nothing on stderr" [ ! -s "$tmp/err" ]
if command -v python3 >/dev/null 2>&1; then
	check "one warning notice with the API server's message" python3 - "$tmp/run.json" "$MSG" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = [x for x in d["notices"] if "refused" in x["text"]]
assert len(n) == 1, n
assert n[0]["severity"] == "warning" and n[0]["text"] == sys.argv[2], n[0]
assert n[0]["t_ms"] == 0, n[0]
assert [(o["kind"], o["name"]) for o in n[0]["objects"]] == [("FleetRollout", "web")], n[0]
PY
	check "the FleetRollout never gets a status" python3 - "$tmp/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
st = [e for e in d["timeline"] if e["kind"] == "FleetRollout" and e["change"] == "status"]
assert st == [], st
assert d["summary"]["completed"] is False, d["summary"]["completed"]
PY
fi
"$SIM" run --no-color --timeline none "$IN" >"$tmp/text" 2>&1
check "the text report names the cause under warnings" \
	grep -q '^          │ FleetRollout.stages.metio.wtf "web" is invalid: status.waves\[1\]:$' "$tmp/text"
check "the report fits 80 columns" fits "$tmp/text" 80
"$SIM" lint "$IN" >"$tmp/lint" 2>&1
check "lint flags the same input (MS211)" grep -q "MS211" "$tmp/lint"

echo "list-map-keys: $pass passed, $fail failed"
finish
