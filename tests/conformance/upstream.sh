#!/bin/sh
# make conformance: magos-sim against the upstream manifests and CRDs of
# ../shared/fixtures/upstream (read there, never copied into the repository;
# $MAGOS_SHARED names another place).  scripts/run-tests.sh --conformance runs
# it only when that folder is there, and says so plainly when it is not.
. "$(dirname "$0")/../lib.sh"
UPSTREAM=${MAGOS_SHARED:-../shared}/fixtures/upstream
SAMPLES=$UPSTREAM/magos-samples
require_sim

# ---- run -----------------------------------------------------------------------
# The upstream sample manifests load unchanged, as a bare directory.
expect_rc "upstream magos samples run unchanged" 0 "$SIM" run "$SAMPLES"
if grep -q "7 objects" "$tmp/out"; then ok "upstream samples: 7 objects"; else bad "upstream samples: 7 objects"; fi
expect_rc "lint accepts the upstream samples" 0 "$SIM" lint "$SAMPLES"

# Spec §2.8 / §6.6 #31 end to end, real controllers and default models: the
# merged level, then prod, then completion.
"$SIM" run --json "$tmp/samples.json" -q "$SAMPLES" >/dev/null 2>&1
if command -v python3 >/dev/null 2>&1; then
	if python3 - "$tmp/samples.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
seq = []
for e in d["timeline"]:
    if e["kind"] == "Rollout" and e["change"] == "status":
        item = (e["phase"], e["reason"], e["message"])
        if not seq or seq[-1] != item:
            seq.append(item)
assert seq == [("Reconciling", "LevelProgressing", "Executing level [deploy-dev, deploy-staging]"),
               ("Reconciling", "LevelProgressing", "Executing level [deploy-prod]"),
               ("Applied", "RolloutCompleted", "All steps completed successfully")], seq
s = d["summary"]
assert s["completed"] and s["time_to_complete_ms"] == 100000, s["time_to_complete_ms"]
steps = [(x["name"], x["opened_ms"], x["completed_ms"]) for x in s["rollouts"][0]["steps"]]
assert steps == [("deploy-dev", 0, 50000), ("deploy-staging", 0, 50000), ("deploy-prod", 50000, 100000)], steps
PY
	then ok "upstream samples: the §2.8 status sequence and completion at 1m40s"; else bad "upstream samples: the §2.8 status sequence and completion at 1m40s"; fi
fi

# ---- lint ---------------------------------------------------------------------
for d in "$UPSTREAM/magos-samples" "$UPSTREAM/crds"; do
	"$SIM" lint "$d" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -le 3 ]; then ok "upstream $(basename "$d") lints without crashing"; else bad "upstream $(basename "$d") lints without crashing (exit $rc)"; fi
done
expect_rc "upstream magos samples have no findings" 0 "$SIM" lint "$UPSTREAM/magos-samples"
nfiles=0
nbad=0
for f in "$UPSTREAM"/*/*.yaml; do
	nfiles=$((nfiles + 1))
	"$SIM" lint --format json "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -gt 3 ] || ! python3 -m json.tool "$tmp/out" >/dev/null 2>&1; then
		nbad=$((nbad + 1))
		echo "     upstream $f alone: exit $rc"
	fi
done
if [ "$nfiles" -ge 12 ] && [ "$nbad" -eq 0 ]; then ok "every upstream file alone gives valid JSON ($nfiles files)"; else
	bad "every upstream file alone gives valid JSON ($nbad of $nfiles failed)"; fi

# ---- every field of the pinned CRDs is known --------------------------------------
# One object per kind with every spec and status field of the CRD set (a value
# of its type): the simulator's schemas must know each (no "unknown field";
# required values, enums, bounds and CEL rules may still object), so no field
# of a real manifest is refused as a typo (scenarios/README.md, *Every field
# is acted on*).
if command -v python3 >/dev/null 2>&1; then
	python3 - "$UPSTREAM/crds" "$tmp/every-field.yaml" <<'PY'
import os, sys, yaml
def value(node):
    t = node.get("type")
    if "enum" in node:
        return node["enum"][0]
    if t == "object" and "properties" in node:
        return {k: value(c) for k, c in node["properties"].items()}
    if t == "object":
        return {"k": "v"} if node.get("additionalProperties") else {}
    if t == "array":
        return [value(node.get("items", {}))]
    if t == "integer":
        return 1
    if t == "boolean":
        return True
    if node.get("format") == "date-time":
        return "2026-01-01T00:00:00Z"
    return "x"
docs = []
for f in sorted(os.listdir(sys.argv[1])):
    crd = yaml.safe_load(open(os.path.join(sys.argv[1], f)))
    for v in crd["spec"]["versions"]:
        props = v["schema"]["openAPIV3Schema"]["properties"]
        obj = {"apiVersion": crd["spec"]["group"] + "/" + v["name"], "kind": crd["spec"]["names"]["kind"],
               "metadata": {"name": "every-field"}}
        if crd["spec"]["scope"] == "Namespaced":
            obj["metadata"]["namespace"] = "default"
        for top in ("spec", "status"):
            if top in props:
                obj[top] = value(props[top])
        docs.append(obj)
yaml.safe_dump_all(docs, open(sys.argv[2], "w"))
PY
	n=$(grep -c '^kind: ' "$tmp/every-field.yaml")
	"$SIM" lint "$tmp/every-field.yaml" >"$tmp/out" 2>"$tmp/err"
	if [ "$n" -ge 5 ] && ! grep -q "unknown field" "$tmp/err"; then ok "every field of the $n pinned CRDs is known to the simulator's schemas"; else
		grep "unknown field" "$tmp/err" | head -n 10
		bad "every field of the $n pinned CRDs is known to the simulator's schemas"; fi
fi

finish
