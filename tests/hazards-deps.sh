#!/bin/sh
# A dependency's own rollout flipping its deployed dependents (StageSet spec
# §5 Q-24), told by `lint` before a run and by `run` at its end, each claim
# checked against the run of the same input (tests/hazards/deps-*.yaml, each
# saying what it shows).
#   MS272  2.1.0 published to db alone: app, deployed since 32m3s, is Ready
#          False DependencyNotReady from 40m0s until db's 30m soak ends;
#          published to both: app waits for db on a rollout of its own,
#          nothing told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

lint_of deps-flip
contains "db alone: MS272 is a warning at app's dependsOn entry" "$tmp/deps-flip.lintjson" '"line": 43'
contains "db alone: MS272 says why" "$tmp/deps-flip.lint" \
	'MS272 warning StageSet shop/app dependsOn shop/db, and scenario event 1 at 40m0s publishes 2.1.0 to shop/db and not to shop/app: the controller checks dependencies on every pass, and shop/db is not ready while it rolls that version out (its stage "schema" soaks 30m before promotion), so shop/app, if deployed by then, turns Ready False DependencyNotReady on its next pass although it has nothing to roll out'
HAZARD_RUN_ARGS="--until horizon" run_of deps-flip
pyfacts "$tmp/deps-flip.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
app = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "app"]
st = [(e["t_ms"], e["reason"]) for e in app if e["change"] == "status"]
spec = [e["t_ms"] for e in app if (e["detail"] or "").startswith("spec")]
check("db alone: app is verified at 32m3.005s, DependencyNotReady at 40m0s, verified at 1h11m3s",
      st[1:] == [(1923005, "Succeeded"), (2400000, "DependencyNotReady"), (4263000, "Succeeded")], st)
check("db alone: app's own spec never changes", spec == [], spec)
t = [n["text"] for n in d["notices"]]
check("db alone: the run says app was flipped by db's rollout, for how long",
      any("StageSet shop/app, deployed (Ready True since 32m3.005s) with no change of its own, was Ready "
          "False DependencyNotReady from 40m0s to 1h11m3s (31m3s) while its dependency shop/db rolled "
          "out (shop/db: its spec changed at 40m0s, Soaking at 41m1s, Ready again at 1h11m2s)" in x
          for x in t), t)
PY

lint_of deps-together
# (MS262, an info, tells db's soak on its last stage: true here, and no dependency's)
if ! grep -v '^MS262 info ' "$tmp/deps-together.lint" | grep -q .; then ok "both: lint finds nothing but MS262"; else
	bad "both: lint finds nothing but MS262"; show "$tmp/deps-together.lint"; fi
HAZARD_RUN_ARGS="--until horizon" run_of deps-together
pyfacts "$tmp/deps-together.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
app = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "app"]
spec = [e["t_ms"] for e in app if (e["detail"] or "").startswith("spec")]
check("both: app's spec changes at 40m0s (its own rollout)", spec == [2400000], spec)
check("both: nothing told of a dependency flip",
      not any("DependencyNotReady from" in n["text"] for n in d["notices"]))
PY
finish
