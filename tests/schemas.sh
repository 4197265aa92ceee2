#!/bin/sh
# Every JSON output validated against the JSON Schema (draft 2020-12) that
# docs/schemas/ ships for it, with Ajv in strict mode (tests/consumers):
# run (every example), trials (plain, sketched, variants, sweep, merged shards),
# compare and lint; each names the tool, its version and its commit.  A
# document the schema must refuse is refused, so the check can fail.
. "$(dirname "$0")/lib.sh"
require_sim
require_consumers ajv ajv-formats
SCHEMAS=docs/schemas
validate() { # NAME SCHEMA FILE...: one check, the validator's lines shown on failure
	lib_n=$1 lib_s=$2
	shift 2
	if node "$CONSUMERS/validate-json.js" "$SCHEMAS/$lib_s" "$@" >"$tmp/v.out" 2>&1; then
		ok "$lib_n"
	else
		bad "$lib_n"
		grep -v '^ok' "$tmp/v.out" | head -n 12
	fi
}

for s in $SCHEMAS/*.schema.json; do
	check "$s is a valid draft 2020-12 schema" node -e '
		const A = require(process.argv[1] + "/node_modules/ajv/dist/2020").default;
		new A({strict: true, allowUnionTypes: true, validateFormats: false})
			.compile(JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")));' \
		"$CONSUMERS" "$s"
done

for f in scenarios/*.yaml tests/html/*.yaml; do
	n=$(basename "$f" .yaml)
	"$SIM" run -q --json "$tmp/run-$n.json" "$f" >/dev/null 2>&1
done
validate "run JSON of every example and HTML test input" run-v1.schema.json "$tmp"/run-*.json

# Runs resumed from snapshots of halted drivers: their halt is before the
# start (t_ms and the blast radius's halt_ms negative), as the schema allows.
"$SIM" run -q --snapshot 22m "$tmp/fleet-halted.yaml" scenarios/fleet-gate-halt.yaml >/dev/null 2>&1
"$SIM" run -q --snapshot 25m "$tmp/magos-halted.yaml" scenarios/staging-failure-halts.yaml >/dev/null 2>&1
# The fleet's gate reads the Scenario's series: resume with its Scenario
# document, without the generate list the snapshot already holds.
awk '/^---$/ { if (p) exit; next } /^apiVersion: magos-sim\// { p = 1 }
	p && /^  generate:/ { g = 1; next } g && /^  [a-z]/ { g = 0 } p && !g' \
	scenarios/fleet-gate-halt.yaml >"$tmp/fleet-scenario.yaml"
"$SIM" run -q --json "$tmp/resumed-fleet.json" "$tmp/fleet-halted.yaml" "$tmp/fleet-scenario.yaml" >/dev/null 2>&1
"$SIM" run -q --json "$tmp/resumed-magos.json" "$tmp/magos-halted.yaml" >/dev/null 2>&1
check "the resumed fleet run carries its halt at its time before the start" \
	grep -q '"t_ms": *-' "$tmp/resumed-fleet.json"
check "the resumed Magos run carries its halt as before the start" \
	grep -q '"before_start": *true' "$tmp/resumed-magos.json"
check "... at its time, as the fleet's" grep -q '"t_ms": *-' "$tmp/resumed-magos.json"
validate "run JSON of runs resumed from halted snapshots" run-v1.schema.json \
	"$tmp/resumed-fleet.json" "$tmp/resumed-magos.json"
# Trials and a comparison of the resumed run: resumed_ms, the halt before the start.
"$SIM" run -q -n 3 --json "$tmp/tr-resumed.json" "$tmp/magos-halted.yaml" >/dev/null 2>&1
"$SIM" compare -q -n 3 --json "$tmp/cmp-resumed.json" "$tmp/magos-halted.yaml" \
	"$tmp/magos-halted.yaml" >/dev/null 2>&1
check "resumed trials say the snapshot's time (25m)" \
	grep -q '"resumed_ms": *1500000' "$tmp/tr-resumed.json"
check "... and the halt before the start" grep -q '"halt_before_start": *true' "$tmp/tr-resumed.json"
check "the resumed comparison says the snapshot's time" \
	grep -q '"resumed_ms": *1500000' "$tmp/cmp-resumed.json"
validate "compare JSON of a resumed run" compare-v1.schema.json "$tmp/cmp-resumed.json"

"$SIM" run -q -n 6 --json "$tmp/tr-plain.json" scenarios/fleet-gate-halt.yaml >/dev/null &&
	"$SIM" run -q -n 6 --limit exact-values=10 --json "$tmp/tr-sketched.json" \
		scenarios/fleet-gate-halt.yaml >/dev/null &&
	"$SIM" run -q -n 6 --json "$tmp/tr-variants.json" scenarios/what-if-canary-soak.yaml >/dev/null &&
	"$SIM" run -q -n 4 --horizon 20m --sweep capacity=1,2 --json "$tmp/tr-sweep.json" \
		scenarios/parallel-cohorts.yaml >/dev/null &&
	"$SIM" run -q -n 6 --shard 1/2 --json "$tmp/part1.json" scenarios/three-environments.yaml >/dev/null &&
	"$SIM" run -q -n 6 --shard 2/2 --json "$tmp/part2.json" scenarios/three-environments.yaml >/dev/null &&
	"$SIM" merge -q --json "$tmp/tr-merged.json" "$tmp/part1.json" "$tmp/part2.json" >/dev/null
check "trials runs wrote their JSON" test -s "$tmp/tr-merged.json"
validate "trials JSON: plain, sketched, variants, sweep (censored), merged" trials-v1.schema.json "$tmp"/tr-*.json

"$SIM" compare -q -n 10 --max-regression p95=10% --json "$tmp/cmp.json" \
	scenarios/compare/base.yaml scenarios/compare/head.yaml >/dev/null 2>&1
validate "compare JSON" compare-v1.schema.json "$tmp/cmp.json"

"$SIM" lint --format json scenarios/ >"$tmp/lint-ok.json" 2>/dev/null
"$SIM" lint --format json scenarios/ci-failing/ tests/lint/ >"$tmp/lint-findings.json" 2>/dev/null
check "lint JSON has findings to validate" grep -q '"rule": "MS' "$tmp/lint-findings.json"
validate "lint JSON, with and without findings" lint-v1.schema.json "$tmp"/lint-*.json

# SARIF 2.1.0 for code scanning, against the SARIF schema (the copy
# @microsoft/jest-sarif ships), and saying what the JSON findings say.
SARIF_SCHEMA=$CONSUMERS/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json
"$SIM" lint --format sarif scenarios/ci-failing/ tests/lint/ >"$tmp/findings.sarif" 2>/dev/null
"$SIM" lint --format sarif scenarios/ >"$tmp/clean.sarif" 2>/dev/null
"$SIM" lint --list-rules --format sarif >"$tmp/rules.sarif" 2>/dev/null
for f in findings clean rules; do
	if node "$CONSUMERS/validate-json.js" "$SARIF_SCHEMA" "$tmp/$f.sarif" >"$tmp/v.out" 2>&1; then
		ok "lint --format sarif ($f) is valid SARIF 2.1.0"
	else
		bad "lint --format sarif ($f) is valid SARIF 2.1.0"
		head -n 8 "$tmp/v.out"
	fi
done
sed 's/"level": "warning"/"level": "severe"/' "$tmp/findings.sarif" >"$tmp/bad-level.sarif"
if node "$CONSUMERS/validate-json.js" "$SARIF_SCHEMA" "$tmp/bad-level.sarif" >/dev/null 2>&1; then
	bad "the SARIF schema refuses a level SARIF does not have"
else ok "the SARIF schema refuses a level SARIF does not have"; fi
pyfacts "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
def say(good, what):
    print(("ok   " if good else "FAIL ") + what)
sarif = json.load(open(tmp + "/findings.sarif"))
lint = json.load(open(tmp + "/lint-findings.json"))
run = sarif["runs"][0]
rules = run["tool"]["driver"]["rules"]
say(len(rules) >= 30 and all(r["help"]["text"] and r["helpUri"].startswith("https://") and
    r["helpUri"].endswith("/lint-rules.md") for r in rules),
    "SARIF: every rule has help text and the docs link (%d rules)" % len(rules))
level = {"error": "error", "warning": "warning", "info": "note"}
# a finding with a fix of its own (not its rule's, which is the rule's help)
# carries it in the message, as the text output does
helps = {r["id"]: r["help"]["text"] for r in rules}
def said(f):
    own = f.get("fix") and f["fix"] != helps.get(f["rule"])
    return "%s (%s)" % (f["message"], f["fix"]) if own else f["message"]
want = [(f["rule"], level[f["severity"]], f["file"], f["line"], f["column"], said(f)) for f in lint["findings"]]
got = []
for r in run["results"]:
    loc = r["locations"][0]["physicalLocation"] if r["locations"] else None
    got.append((r["ruleId"], r["level"], loc and loc["artifactLocation"]["uri"],
                loc["region"]["startLine"] if loc else 0, loc["region"].get("startColumn", 0) if loc else 0,
                r["message"]["text"]))
say(got == want, "SARIF: one result per finding, same rule, level, file, line, column and message (%d)" % len(got))
say(all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"]), "SARIF: ruleIndex points at the rule")
d = run["tool"]["driver"]
say(d["name"] == "magos-sim" and d["version"] and d["properties"]["commit"], "SARIF: the driver names version and commit")
say(json.load(open(tmp + "/rules.sarif"))["runs"][0]["results"] == [] and
    len(json.load(open(tmp + "/rules.sarif"))["runs"][0]["tool"]["driver"]["rules"]) == len(rules),
    "SARIF: --list-rules gives every rule and no result")
PY

# run --events: JSON Lines, one object per transition, each valid against
# event-v1, in timeline order, its wall time spec.start + elapsed.
for n in fleet-gate-halt staging-failure-halts commit-mid-rollout; do
	"$SIM" run --events - "scenarios/$n.yaml" >"$tmp/ev-$n.jsonl" 2>"$tmp/ev-$n.err"
	check "run --events - writes $n's lines" test -s "$tmp/ev-$n.jsonl"
	if node "$CONSUMERS/validate-json.js" --lines "$SCHEMAS/event-v1.schema.json" "$tmp/ev-$n.jsonl" \
		>"$tmp/v.out" 2>&1; then
		ok "every event line of $n is valid against event-v1"
	else
		bad "every event line of $n is valid against event-v1"
		grep -v '^ok' "$tmp/v.out" | head -n 8
	fi
done
"$SIM" run --events "$tmp/ev-file.jsonl" -q scenarios/fleet-gate-halt.yaml >/dev/null
check "run --events FILE writes the same lines as --events -" cmp -s "$tmp/ev-file.jsonl" "$tmp/ev-fleet-gate-halt.jsonl"
expect_rc "--events with -n above 1 is a usage error" 2 "$SIM" run -n 2 --events - scenarios/fleet-gate-halt.yaml
pyfacts "$tmp" <<'PY'
import datetime, json, sys
tmp = sys.argv[1]
def say(good, what):
    print(("ok   " if good else "FAIL ") + what)
for n in ("fleet-gate-halt", "staging-failure-halts", "commit-mid-rollout"):
    ev = [json.loads(l) for l in open(tmp + "/ev-%s.jsonl" % n)]
    js = json.load(open(tmp + "/run-%s.json" % n))
    tl = js["timeline"]
    start = datetime.datetime.fromisoformat(js["scenario"]["start"].replace("Z", "+00:00"))
    same = len(ev) == len(tl) and all(
        (e["elapsed_ms"], e["kind"], e["namespace"], e["name"], e["change"], e["phase"], e["reason"], e["message"]) ==
        (t["t_ms"], t["kind"], t["namespace"], t["name"], t["change"], t["phase"], t["reason"], t["message"])
        for e, t in zip(ev, tl))
    say(same, "%s: one event per timeline transition, in order (%d)" % (n, len(ev)))
    wall = all(datetime.datetime.fromisoformat(e["time"].replace("Z", "+00:00")) ==
               start + datetime.timedelta(milliseconds=e["elapsed_ms"]) for e in ev)
    say(wall, "%s: every event's time is spec.start + elapsed_ms, in UTC" % n)
PY

# Every document says which program wrote it; the schemas insist.
pyfacts "$tmp" <<'PY'
import glob, json, re, subprocess, sys
tmp = sys.argv[1]
ver = subprocess.run([__import__("os").environ.get("MAGOS_SIM", "build/debug/magos-sim"), "version"],
                     capture_output=True, text=True).stdout
m = re.match(r"magos-sim (\S+) \(commit (\S+)\)$", ver.strip())
print(("ok   " if m else "FAIL ") + "version prints name, version and commit: " + ver.strip())
for f in sorted(glob.glob(tmp + "/*.json")):
    t = json.load(open(f)).get("tool")
    good = m and t == {"name": "magos-sim", "version": m.group(1), "commit": m.group(2)}
    print(("ok   " if good else "FAIL ") + f.split("/")[-1] + " names the tool, version and commit")
PY

# The validator refuses what the schemas forbid (so the checks above can fail).
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
d = json.load(open(tmp + "/run-three-environments.json"))
del d["tool"]
json.dump(d, open(tmp + "/bad-notool.json", "w"))
d = json.load(open(tmp + "/tr-plain.json"))
d["trials"][0]["ttc_ms"] = "soon"
json.dump(d, open(tmp + "/bad-ttc.json", "w"))
d = json.load(open(tmp + "/lint-findings.json"))
d["findings"][0]["rule"] = "X1"
json.dump(d, open(tmp + "/bad-rule.json", "w"))
PY
for b in notool:run ttc:trials rule:lint; do
	if node "$CONSUMERS/validate-json.js" "$SCHEMAS/${b#*:}-v1.schema.json" "$tmp/bad-${b%%:*}.json" >/dev/null 2>&1; then
		bad "the ${b#*:} schema refuses bad-${b%%:*}"
	else
		ok "the ${b#*:} schema refuses bad-${b%%:*}"
	fi
done
finish
