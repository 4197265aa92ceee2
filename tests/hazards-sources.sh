#!/bin/sh
# What a StageSet does when a gate's metric source cannot answer (StageSet
# spec §5 Q-16), told by `lint` before a run and by `run` at its end, each
# claim checked against the run of the same input
# (tests/hazards/sources-*.yaml, each saying what it shows).
#   MS270  a promotion analysis with onFailure Rollback, onSourceError Hold
#          and failureLimit 0: a 4-minute Prometheus outage at the end of the
#          soak rolls canary back from a healthy 2.1.0, which stays aborted;
#          with failureLimit 2 the outage is ridden out and 2.1.0 promotes,
#          nothing told; a revert by a real breach is not called a source
#          error.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

# ---- MS270: one unanswered evaluation reverts the stage ----------------------
lint_of sources-analysis-revert
contains "outage: MS270 is a warning at the stage" "$tmp/sources-analysis-revert.lintjson" '"line": 41'
contains "outage: MS270 says why" "$tmp/sources-analysis-revert.lint" \
	'MS270 warning StageSet shop/shop: stage "canary"'"'"'s promotion analysis has onFailure Rollback, onSourceError Hold (the default) and failureLimit 0: one evaluation its metric source cannot answer (an HTTP error, no sample, a timeout) counts as a failure, so a source outage at a pass that gates a new revision rolls the stage back to its last-good revision however healthy the new one is'
contains "outage: MS270 names the scenario's outage" "$tmp/sources-analysis-revert.lint" \
	'the scenario'"'"'s source of check "error-rate" is unavailable from 1h10m0s to 1h14m0s: a pass in that window that gates a new revision would revert it'
run_of sources-analysis-revert
pyfacts "$tmp/sources-analysis-revert.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
ss = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "shop"]
rb = [e for e in ss if e["change"] == "event" and e["reason"] == "PromotionBlocked"
      and "promotion analysis failed; rolled back to revision" in (e["message"] or "")]
check("outage: canary is rolled back once, inside the outage (70m to 74m)",
      len(rb) == 1 and 70 * 60000 <= rb[0]["t_ms"] < 74 * 60000, [e["time"] for e in rb])
ok = [e["t_ms"] for e in ss if e["change"] == "status" and e["reason"] == "Succeeded"]
check("outage: no rollout verified after the revert (2.1.0 stays aborted)",
      rb and not [t for t in ok if t > rb[0]["t_ms"]], ok)
t = [n["text"] for n in d["notices"]]
check("outage: the run says the revert came from the unread check, at its time",
      any('stage "canary" was rolled back at %s to revision' % rb[0]["time"] in x
          and 'could not read check "error-rate" (metric source unavailable: source returned '
              'HTTP 503), not because a check breached its threshold' in x
          and "verified no rollout after it to the end of the run" in x for x in t), t)
PY

lint_clean sources-analysis-tolerant "failureLimit 2"
run_of sources-analysis-tolerant
pyfacts "$tmp/sources-analysis-tolerant.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
ss = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "shop"]
check("failureLimit 2: nothing is rolled back",
      not [e for e in ss if "rolled back" in (e["message"] or "")])
ok = [e["t_ms"] for e in ss if e["change"] == "status" and e["reason"] == "Succeeded"]
check("failureLimit 2: 2.1.0 is verified after the outage", [t for t in ok if t >= 74 * 60000], ok)
check("failureLimit 2: nothing told of a revert",
      not any("was rolled back" in n["text"] for n in d["notices"]))
PY

lint_of sources-analysis-breach
contains "breach: MS270 fires on the configuration alone" "$tmp/sources-analysis-breach.lint" \
	'MS270 warning StageSet shop/shop: stage "canary"'"'"'s promotion analysis has onFailure Rollback'
run_of sources-analysis-breach
pyfacts "$tmp/sources-analysis-breach.json" <<'PY'
import json, sys
from facts import check
d = json.load(open(sys.argv[1]))
rb = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "event"
      and "promotion analysis failed; rolled back to revision" in (e["message"] or "")]
check("breach: canary is rolled back", len(rb) == 1, rb)
check("breach: the run does not call it a source error",
      not any("could not read check" in n["text"] for n in d["notices"]))
PY
finish
