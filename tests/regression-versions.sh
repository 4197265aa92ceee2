#!/bin/sh
# spec.models.stagesets.regression.versions: a modelled regression strikes
# only adoptions of the listed versions (exact text); without the key every
# adopted version may regress.  The gate-halt example with every adoption
# regressing (probability 1) shows the three cases: no list, a list naming the
# published version, a list naming no version the fleet sees.
. "$(dirname "$0")/lib.sh"
base=scenarios/fleet-gate-halt.yaml

mk() { # NAME REGRESSION-FLOW-MAP
	sed "s|      adoption: {duration: 1m}|      adoption: {duration: 1m}\n      regression: $2|" "$base" >"$tmp/$1.yaml"
}
mk all '{probability: 1, after: 1m, duration: 5m}'
mk listed '{probability: 1, after: 1m, duration: 5m, versions: ["4.6.0"]}'
mk none '{probability: 1, after: 1m, duration: 5m, versions: ["9.9.9"]}'

# StageFailed writes before 10m: only the baseline 4.5.0 is adopted before
# 4.6.0 is published at 10m, so these are regressions of 4.5.0.
early() { # NAME
	"$SIM" run --timeline all --no-color "$tmp/$1.yaml" 2>/dev/null |
		grep -cE '^ +[0-9]m[0-9.]*s +StageSet [^ ]+ +status +StageFailed'
}
later() { # NAME: StageFailed writes at 10m or later
	"$SIM" run --timeline all --no-color "$tmp/$1.yaml" 2>/dev/null |
		grep -E ' +StageSet [^ ]+ +status +StageFailed' |
		grep -cvE '^ +[0-9]m[0-9.]*s '
}
ea=$(early all) el=$(early listed) ez=$(early none)
la=$(later all) ll=$(later listed) lz=$(later none)
if [ "$ea" -gt 0 ]; then ok "no list: the baseline 4.5.0 adoptions regress too ($ea before 10m)"
else bad "no list: the baseline 4.5.0 adoptions regress too ($ea before 10m)"; fi
if [ "$el" -eq 0 ] && [ "$ll" -gt 0 ]; then
	ok "versions [4.6.0]: only the 4.6.0 adoptions regress ($ll from 10m, none before)"
else
	bad "versions [4.6.0]: only the 4.6.0 adoptions regress ($el before 10m, $ll from 10m)"
fi
if [ "$ez" -eq 0 ] && [ "$lz" -eq 0 ]; then ok "versions [9.9.9]: nothing the fleet adopts regresses"
else bad "versions [9.9.9]: nothing the fleet adopts regresses ($ez, $lz)"; fi
finish
