#!/bin/sh
# Every JSON output validated against the JSON Schema (draft 2020-12) that
# docs/schemas/ ships for it, with Ajv in strict mode (tests/consumers):
# run (every example), trials (plain, variants, sweep, merged shards),
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

"$SIM" run -q -n 6 --json "$tmp/tr-plain.json" scenarios/fleet-gate-halt.yaml >/dev/null &&
	"$SIM" run -q -n 6 --json "$tmp/tr-variants.json" scenarios/what-if-canary-soak.yaml >/dev/null &&
	"$SIM" run -q -n 4 --horizon 20m --sweep capacity=1,2 --json "$tmp/tr-sweep.json" \
		scenarios/parallel-cohorts.yaml >/dev/null &&
	"$SIM" run -q -n 6 --shard 1/2 --json "$tmp/part1.json" scenarios/three-environments.yaml >/dev/null &&
	"$SIM" run -q -n 6 --shard 2/2 --json "$tmp/part2.json" scenarios/three-environments.yaml >/dev/null &&
	"$SIM" merge -q --json "$tmp/tr-merged.json" "$tmp/part1.json" "$tmp/part2.json" >/dev/null
check "trials runs wrote their JSON" test -s "$tmp/tr-merged.json"
validate "trials JSON: plain, variants, sweep (censored), merged" trials-v1.schema.json "$tmp"/tr-*.json

"$SIM" compare -q -n 10 --max-regression p95=10% --json "$tmp/cmp.json" \
	scenarios/compare/base.yaml scenarios/compare/head.yaml >/dev/null 2>&1
validate "compare JSON" compare-v1.schema.json "$tmp/cmp.json"

"$SIM" lint --format json scenarios/ >"$tmp/lint-ok.json" 2>/dev/null
"$SIM" lint --format json scenarios/ci-failing/ tests/lint/ >"$tmp/lint-findings.json" 2>/dev/null
check "lint JSON has findings to validate" grep -q '"rule": "MS' "$tmp/lint-findings.json"
validate "lint JSON, with and without findings" lint-v1.schema.json "$tmp"/lint-*.json

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
