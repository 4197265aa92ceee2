#!/bin/sh
# A run resumed from a plain kubectl snapshot, which carries no RefWatcher
# memory (Magos spec §7 #18), told by `lint` before the run and by `run` at
# its end, each claim checked against the run of the same input
# (tests/hazards/resume-*.yaml, each saying what it shows).
#   MS122  shop-dev comes Applied with observedRevision "main": the
#          RefWatcher's first poll (55.535s) writes detected-revision with
#          the head the branch had all along, and shop-dev resets
#          NewRevisionDetected and plans and applies again (Applied at
#          1m45.535s); resumed from the simulator's snapshot, it stays
#          Applied and nothing is told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"
HAZARD_RUN_ARGS="--until horizon"

lint_of resume-kubectl
contains "plain snapshot: MS122 at status.observedRevision" "$tmp/resume-kubectl.lintjson" '"line": 115'
contains "plain snapshot: MS122 says why" "$tmp/resume-kubectl.lint" \
	'MS122 warning Workspace default/shop-dev comes with status.observedRevision "main", not a commit SHA (every run but a revision run records the branch name), and without the RefWatcher'"'"'s memory (state.magos-sim.io/refwatcher, which only a snapshot of the simulator carries)'
contains "plain snapshot: MS122 says what follows" "$tmp/resume-kubectl.lint" \
	'so its first poll (within its git-poll-interval 1m) reads the head of "main" as a new revision and the Workspace resets NewRevisionDetected for a new run with no new commit'
run_of resume-kubectl
facts_of resume-kubectl <<'PY'
ws = [e for e in d["timeline"] if e["kind"] == "Workspace" and e["name"] == "shop-dev"]
det = [(e["t_ms"], e["cause"], e["detail"]) for e in ws if e["change"] == "updated"
       and "+magosproject.io/detected-revision=" in (e["detail"] or "")]
check("plain snapshot: the RefWatcher's first poll writes detected-revision at 55.535s",
      det[:1] and det[0][0] == 55535 and det[0][1].startswith("refwatcher poll"), det)
reset = [e["t_ms"] for e in ws if e["change"] == "status" and e["reason"] == "NewRevisionDetected"]
check("plain snapshot: shop-dev resets NewRevisionDetected at 55.535s", reset == [55535], reset)
runs = [(e["t_ms"], e["phase"]) for e in ws if e["change"] == "status" and e["phase"] in ("Planning", "Applying", "Applied")
        and e["reason"] in ("PlanJobCreated", "ApplyJobCreated", "ApplySucceeded")]
check("plain snapshot: it plans, applies and is Applied again at 1m45.535s",
      runs == [(55535, "Planning"), (75535, "Applying"), (105535, "Applied")], runs)
n = told(d, "plain snapshot", 'Workspace default/shop-dev: the RefWatcher, with no memory of it in the inputs, seeded the SHA it last saw from status.observedRevision "main" (a branch name), so its first poll at 55.535s took the head ')
check("plain snapshot: with the SHA the poll read and the run it caused",
      n is not None and det and det[0][2].split("=", 1)[1] in n["text"] and
      "it reset NewRevisionDetected at 55.535s and ran again, Applied at 1m45.535s" in n["text"], n and n["text"])
PY

lint_clean resume-simulator "simulator snapshot"
run_of resume-simulator
facts_of resume-simulator <<'PY'
ws = [e for e in d["timeline"] if e["kind"] == "Workspace" and e["name"] == "shop-dev"]
check("simulator snapshot: no detected-revision, no status write after the load",
      [e["change"] for e in ws] == ["created"], [(e["time"], e["change"], e["detail"]) for e in ws])
check("simulator snapshot: nothing told", not [n for n in d["notices"] if "RefWatcher" in n["text"]], d["notices"])
PY
finish
