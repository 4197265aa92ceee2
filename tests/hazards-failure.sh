#!/bin/sh
# The StageSet failure hazards told twice, by `lint` before a run and by
# `run` at its end, and each claim checked against the run of the same
# input: a fixture where it fires and the timeline shows what the message
# says, and one where it must not fire (tests/hazards/failure-*.yaml, each
# saying what it shows).
#   MS226  rollbackOnFailure with a version that fails on every try: rolled
#          back 22 times in 2h with no success between, onRollback on every
#          cycle; with the fix published at 40m the cycle ends (lint still
#          warns of the failing version, the run tells no loop); without
#          rollbackOnFailure nothing is rolled back.
#   MS227  an RBAC denial of the apply: Ready False RBACDenied, no pass after
#          it although the denial stops at 5m; a plain failure in the same
#          window is retried and succeeds.  A rollback whose restore finds
#          the previous revision gone: PreviousRevisionUnavailable, and the
#          run ends there with nothing left to happen.
. "$(dirname "$0")/lib.sh"
require_python
H=tests/hazards

# lint_of FIXTURE: findings as "RULE SEVERITY MESSAGE" lines in $tmp/FIXTURE.lint
lint_of() {
	"$SIM" lint --format json "$H/$1.yaml" >"$tmp/$1.lintjson" 2>"$tmp/$1.linterr"
	python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["rule"], f["severity"], f["message"])' "$tmp/$1.lintjson" >"$tmp/$1.lint"
}
# run_of FIXTURE: the run to the horizon as JSON in $tmp/FIXTURE.json
run_of() {
	"$SIM" run -q --until horizon --json "$tmp/$1.json" "$H/$1.yaml" >"$tmp/$1.out" 2>"$tmp/$1.err" ||
		{ bad "$1 runs"; show "$tmp/$1.err"; }
}

# ---- MS226: the whole-run rollback never parks ----------------------------------
lint_of failure-rollback-loop
contains "rollback loop: MS226" "$tmp/failure-rollback-loop.lint" \
	'MS226 warning StageSet default/web sets rollbackOnFailure and its stage "app" fails on every try: a revision carrying version 1.1.0 regresses to Failed as soon as it is ready'
contains "rollback loop: MS226 names onRollback" "$tmp/failure-rollback-loop.lint" \
	'its onRollback (1 action) runs on every cycle once a revision has succeeded'
run_of failure-rollback-loop
pyfacts "$tmp/failure-rollback-loop.json" <<'EOF2'
import json, sys
from hazards_facts import *
d = json.load(open(sys.argv[1]))
ev = lambda reason: [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "web"
                     and e["change"] == "event" and e["reason"] == reason]
rb, hook = ev("RolledBack"), ev("OnRollbackAction")
st = member_ready(d, "default", "web")
check("rollback loop: 1.0.0 succeeds at 1m1.005s", st[0] == (61005, "Succeeded"), st[:2])
check("rollback loop: no success after the first rollback",
      rb and not [t for t, r in st if r == "Succeeded" and t >= rb[0]])
check("rollback loop: rolled back 22 times (%d)" % len(rb), len(rb) == 22)
check("rollback loop: onRollback ran with every rollback", hook == rb)
check("rollback loop: the next pass applied the revision again before each rollback",
      all(t in ev("DriftCorrected") for t in rb[1:]))
n = notice(d, "rollbackOnFailure rolled back")
check("rollback loop: the run tells it", n is not None and n["severity"] == "warning")
check("rollback loop: with the timeline's count and times",
      n is not None and "rolled back 22 times from 12m8.942s to 1h46m2.657s with no success between" in n["text"]
      and rb[0] == 728942 and rb[-1] == 6362657, n and n["text"])
check("rollback loop: the last cycle's length is the timeline's (%d ms)" % (rb[-1] - rb[-2]),
      n is not None and rb[-1] - rb[-2] == 1063000 and "the last cycle took 17m43s" in n["text"])
check("rollback loop: onRollback's count is the timeline's",
      n is not None and "onRollback (1 action) ran %d times" % len(hook) in n["text"])
check("rollback loop: names the failing stage",
      n is not None and 're-applied the failing revision main@sha1:' in n["text"] and 'of stage "app"' in n["text"])
EOF2

lint_of failure-rollback-fixed
contains "rollback fixed: MS226 for 1.1.0 all the same" "$tmp/failure-rollback-fixed.lint" \
	'MS226 warning StageSet default/web sets rollbackOnFailure'
run_of failure-rollback-fixed
pyfacts "$tmp/failure-rollback-fixed.json" <<'EOF2'
import json, sys
from hazards_facts import *
d = json.load(open(sys.argv[1]))
rb = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "event"
      and e["reason"] == "RolledBack"]
st = member_ready(d, "default", "web")
check("rollback fixed: rolled back again and again before the fix (%d times)" % len(rb), len(rb) >= 2)
check("rollback fixed: 1.1.1 succeeds after the last rollback",
      [t for t, r in st if r == "Succeeded" and t > rb[-1]], st[-2:])
check("rollback fixed: no rollback-loop notice", notice(d, "rollbackOnFailure rolled back") is None)
EOF2

lint_of failure-no-rollback
lacks "no rollbackOnFailure: no MS226" "$tmp/failure-no-rollback.lint" "MS226"
run_of failure-no-rollback
pyfacts "$tmp/failure-no-rollback.json" <<'EOF2'
import json, sys
from hazards_facts import *
d = json.load(open(sys.argv[1]))
st = member_ready(d, "default", "web")
check("no rollbackOnFailure: 1.1.0 fails (StageFailed at 12m6.942s)", (726942, "StageFailed") in st, st)
check("no rollbackOnFailure: nothing rolled back",
      not [e for e in d["timeline"] if e["change"] == "event" and e["reason"] in ("RolledBack", "OnRollbackAction")])
check("no rollbackOnFailure: no rollback-loop notice", notice(d, "rollbackOnFailure rolled back") is None)
EOF2

# ---- MS227: terminal failures are not requeued ----------------------------------
lint_of failure-terminal
contains "terminal: MS227" "$tmp/failure-terminal.lint" \
	'MS227 warning StageSet default/web: an apply of stage "app" can be denied (apply.failure.class forbidden), with probability 1 per apply from 0s until 5m0s: the controller writes Ready False RBACDenied and does not requeue this failure'
lacks "terminal: not for api" "$tmp/failure-terminal.lint" "default/api"
run_of failure-terminal
pyfacts "$tmp/failure-terminal.json" <<'EOF2'
import json, sys
from hazards_facts import *
d = json.load(open(sys.argv[1]))
web, api = member_ready(d, "default", "web"), member_ready(d, "default", "api")
check("terminal: web RBACDenied at 1.005s and nothing after (%s)" % web, web == [(1005, "RBACDenied")])
check("terminal: api succeeds, and the run goes on to the horizon",
      (121005, "Succeeded") in api and d["run"]["end_ms"] == 3600000 and d["run"]["stop"] == "horizon")
n = notice(d, "StageSet default/web ended Ready False RBACDenied")
check("terminal: the run tells it", n is not None and n["severity"] == "warning")
check("terminal: with the pass and the end of the denial",
      n is not None and "no pass looked at it after the one that started at 5ms, 1h0m0s before the end of the run: "
      "the controller does not requeue this failure, although the modelled failure of that apply stopped at 5m0s" in n["text"],
      n and n["text"])
check("terminal: not for api", notice(d, "default/api") is None)
EOF2

lint_of failure-retried
lacks "retried: no MS227" "$tmp/failure-retried.lint" "MS227"
run_of failure-retried
pyfacts "$tmp/failure-retried.json" <<'EOF2'
import json, sys
from hazards_facts import *
d = json.load(open(sys.argv[1]))
st = member_ready(d, "default", "web")
check("retried: StageFailed at 1.005s, then the retry succeeds at 7m43.675s (%s)" % st,
      st[0] == (1005, "StageFailed") and (463675, "Succeeded") in st)
check("retried: no terminal notice", notice(d, "does not requeue") is None)
EOF2

lint_of failure-restore-terminal
contains "restore terminal: MS227" "$tmp/failure-restore-terminal.lint" \
	'MS227 warning StageSet default/web sets rollbackOnFailure, its stage "app" can fail and the modelled restore of its last-applied revision ends PreviousRevisionUnavailable'
lacks "restore terminal: no MS226 (the first rollback ends the cycle)" "$tmp/failure-restore-terminal.lint" "MS226"
run_of failure-restore-terminal
pyfacts "$tmp/failure-restore-terminal.json" <<'EOF2'
import json, sys
from hazards_facts import *
d = json.load(open(sys.argv[1]))
st = member_ready(d, "default", "web")
check("restore terminal: PreviousRevisionUnavailable at 12m7.942s, the last status (%s)" % st[-1:],
      st[-1] == (727942, "PreviousRevisionUnavailable"))
check("restore terminal: the run ends there with nothing left to happen",
      d["run"]["stop"] == "quiescent" and d["run"]["end_ms"] == 727942, d["run"])
n = notice(d, "StageSet default/web ended Ready False PreviousRevisionUnavailable")
check("restore terminal: the run tells it",
      n is not None and "the run ended after its pass that started at 11m5.942s, with nothing left to happen: "
      "the controller does not requeue this failure" in n["text"], n and n["text"])
check("restore terminal: no rollback-loop notice", notice(d, "rollbackOnFailure rolled back") is None)
EOF2

finish
