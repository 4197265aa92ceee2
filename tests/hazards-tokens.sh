#!/bin/sh
# One-shot tokens stamped by hand, which the StageSet watch drops (StageSet
# spec §2.1 W1, §5 Q-25), told by `lint` before a run and by `run` at its
# end, each claim checked against the run of the same input
# (tests/hazards/tokens-*.yaml, each saying what it shows).
#   MS273  update-now stamped at 10m without requestedAt, on a StageSet whose
#          update window opens at 1h: nothing happens until the window's
#          pass, which records the token at 1h1m1s; with requestedAt beside
#          it: read at once, deployed at 11m1s, nothing told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

lint_of tokens-unwatched
contains "hand stamp: MS273 is a warning at the event" "$tmp/tokens-unwatched.lintjson" '"line": 19'
contains "hand stamp: MS273 says why" "$tmp/tokens-unwatched.lint" \
	'MS273 warning scenario event 1 at 10m0s stamps stages.metio.wtf/update-now "hotfix-1" on StageSet shop/shop and changes nothing the StageSet watch passes (no reconcile.fluxcd.io/requestedAt, no spec change): the controller drops the change, so the StageSet reads the token only at its next pass of another cause'
run_of tokens-unwatched
pyfacts "$tmp/tokens-unwatched.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
ss = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
between = [e["time"] for e in ss if 600000 <= e["t_ms"] < 3600000]
check("hand stamp: no StageSet status between the stamp (10m) and the window (1h)", between == [], between)
handled = [e["t_ms"] for e in ss if "lastHandledUpdateOverride" in (e["detail"] or "")]
check("hand stamp: the token is first recorded at 1h1m1s", handled[:1] == [3661000], handled)
t = [n["text"] for n in d["notices"]]
check("hand stamp: the run says when the token was read",
      any("scenario event 1 at 10m0s stamped stages.metio.wtf/update-now \"hotfix-1\" without "
          "reconcile.fluxcd.io/requestedAt" in x and
          "the first pass that recorded it as handled ended at 1h1m1s, 51m1s after the stamp" in x
          for x in t), t)
PY

lint_clean tokens-requested "with requestedAt"
run_of tokens-requested
pyfacts "$tmp/tokens-requested.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
ss = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
ok = [e["t_ms"] for e in ss if e["reason"] == "Succeeded"]
check("with requestedAt: deployed at 11m1s, before the window", ok[:1] == [661000], ok)
check("with requestedAt: nothing told", not any("stamped" in n["text"] for n in d["notices"]))
PY
finish
