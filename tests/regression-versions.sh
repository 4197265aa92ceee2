#!/bin/sh
# spec.models.stagesets.regression.versions: a modelled regression strikes
# only adoptions of the listed versions (exact text); without the key every
# adopted version may regress.  The gate-halt example with every adoption
# regressing (probability 1) shows the three cases: no list, a list naming the
# published version, a list naming no version the fleet sees.  A regression
# is a fault window of the member's workload (an info notice at its onset);
# the StageSet controller sees it only at a verify inside the window, so the
# last case makes the window span the next periodic pass (10m later).
. "$(dirname "$0")/lib.sh"
base=scenarios/fleet-gate-halt.yaml

mk() { # NAME REGRESSION-FLOW-MAP
	sed "s|      adoption: {duration: 1m}|      adoption: {duration: 1m}\n      regression: $2|" "$base" >"$tmp/$1.yaml"
}
mk all '{probability: 1, after: 1m, duration: 5m}'
mk listed '{probability: 1, after: 1m, duration: 5m, versions: ["4.6.0"]}'
mk none '{probability: 1, after: 1m, duration: 5m, versions: ["9.9.9"]}'
mk long '{probability: 1, after: 1m, duration: 30m, versions: ["4.6.0"]}'

# Drawn fault windows before 10m: only the baseline 4.5.0 is adopted before
# 4.6.0 is published at 10m, so these are regressions of 4.5.0.
faults() { # NAME -> "EARLY LATER"
	"$SIM" run --json "$tmp/$1.json" "$tmp/$1.yaml" >/dev/null 2>&1
	python3 -c '
import json, sys
n = [x for x in json.load(open(sys.argv[1]))["notices"] if "(drawn regression)" in x["text"]]
print(sum(1 for x in n if x["t_ms"] < 600000), sum(1 for x in n if x["t_ms"] >= 600000))' "$tmp/$1.json"
}
set -- $(faults all); ea=$1 la=$2
set -- $(faults listed); el=$1 ll=$2
set -- $(faults none); ez=$1 lz=$2
if [ "$ea" -gt 0 ] && [ "$la" -gt 0 ]; then ok "no list: the baseline 4.5.0 adoptions regress too ($ea before 10m)"
else bad "no list: the baseline 4.5.0 adoptions regress too ($ea before 10m, $la from 10m)"; fi
if [ "$el" -eq 0 ] && [ "$ll" -gt 0 ]; then
	ok "versions [4.6.0]: only the 4.6.0 adoptions regress ($ll from 10m, none before)"
else
	bad "versions [4.6.0]: only the 4.6.0 adoptions regress ($el before 10m, $ll from 10m)"
fi
if [ "$ez" -eq 0 ] && [ "$lz" -eq 0 ]; then ok "versions [9.9.9]: nothing the fleet adopts regresses"
else bad "versions [9.9.9]: nothing the fleet adopts regresses ($ez, $lz)"; fi

# A 5m window between two verifies goes unseen; a 30m one is seen at the
# next verify: StageFailed, and the canary wave's gate halts the fleet.
sf() { "$SIM" run --timeline all --no-color "$tmp/$1.yaml" 2>/dev/null | grep -cE ' +StageSet [^ ]+ +status +StageFailed'; }
s5=$(sf listed) s30=$(sf long)
if [ "$s5" -eq 0 ] && [ "$s30" -gt 0 ]; then ok "a fault the next verify overlaps is seen ($s30 StageFailed), a short one is not"
else bad "a fault the next verify overlaps is seen ($s30 StageFailed), a short one is not ($s5)"; fi
finish
