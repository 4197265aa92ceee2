#!/bin/sh
# The worked fleet examples of scenarios/fleet-*.yaml show what their opening
# comments promise.  Each example runs with --json; python3 then checks the
# facts the comment states (times, phases, reasons, messages, Warnings, what
# the members do) against the report.  The times are exact: a scenario and
# its seed give the same run on any machine, so a changed time means the
# comment is out of date.
# Run from the repository root; MAGOS_SIM names the program (make check sets it).
. "$(dirname "$0")/lib.sh"

EXAMPLES="fleet-moodle fleet-gate-halt fleet-member-regression fleet-rollback-pinned
fleet-rollback-derived fleet-unassigned fleet-contested fleet-standing-policy"

for name in $EXAMPLES; do
	run_example "$name"
	if head -1 "scenarios/$name.yaml" | grep -q "^# $name: "; then ok "$name opens with its comment"; else
		bad "$name opens with its comment"; fi
done

expect_rc "check scenarios/*.yaml exits 0" 0 "$SIM" check scenarios/*.yaml

# The terminal report of a fleet reads at hundreds of members: member writes
# summarised per wave, adoption over time, repeats collapsed, the fleet view
# shortened to what differs, rollback outcomes by reason, and a value or a
# reason after every summary label.  Exact lines, so a change shows here.
for name in $EXAMPLES; do
	"$SIM" run "scenarios/$name.yaml" >"$tmp/$name.txt" 2>&1
done
t=$tmp/fleet-moodle.txt
n=$(wc -l <"$t")
if [ "$n" -lt 200 ]; then ok "fleet-moodle: 300 members in under 200 lines ($n)"; else
	bad "fleet-moodle: 300 members in under 200 lines ($n)"; fi
contains "fleet-moodle: the publish is one line per wave" "$t" \
	"        1h0m0s  wave broad                  members  120 AwaitingApproval"
contains "fleet-moodle: the approvals are one line per wave" "$t" \
	"      1h54m30s  wave broad                  members  120 approved 4.6.0"
contains "fleet-moodle: half of broad adopted and Ready" "$t" \
	"   2h2m18.007s  wave broad                  adopted  60/120 at 4.6.0, 60 ready"
contains "fleet-moodle: all of broad adopted and Ready" "$t" \
	"   2h10m1.142s  wave broad                  adopted  120/120 at 4.6.0, 120 ready"
lacks "fleet-moodle: no member printed one by one" "$t" "StageSet moodle-tenant-"
contains "fleet-moodle: the adoption table's header" "$t" \
	"  WAVE           AT TARGET      HALF AT       ALL AT   HALF READY    ALL READY"
contains "fleet-moodle: broad's adoption row, exact as the waves table" "$t" \
	"  broad            120/120  2h2m18.007s  2h10m1.142s  2h2m18.007s  2h10m1.142s"
contains "fleet-moodle: the waves table's time, the same" "$t" "  broad              1h54m30s  2h10m1.142s"
contains "fleet-moodle: the fleet view sums up broad" "$t" "    ✓ 120 members at 4.6.0, Ready"
"$SIM" run --timeline all scenarios/fleet-moodle.yaml >"$tmp/moodle-all.txt" 2>&1
n=$(grep -c "✓ moodle-tenant-" "$tmp/moodle-all.txt")
if [ "$n" -eq 300 ]; then ok "fleet-moodle --timeline all: every member in the view"; else
	bad "fleet-moodle --timeline all: every member in the view ($n)"; fi
contains "fleet-moodle --timeline all: member writes one by one" "$tmp/moodle-all.txt" \
	"StageSet moodle-tenant-120/app status   Succeeded"
t=$tmp/fleet-gate-halt.txt
contains "fleet-gate-halt: the Halted warning of every pass is one line" "$t" \
	"                … repeated ×40 every 30s until 40m30s"
n=$(grep -c "!! warning" "$t")
if [ "$n" -eq 1 ]; then ok "fleet-gate-halt: one warning printed"; else bad "fleet-gate-halt: one warning printed ($n)"; fi
contains "fleet-gate-halt: blast on its label's line" "$t" \
	"blast     1 of 12 members (8.3%) of FleetRollout moodle had adopted 4.6.0 by the"
contains "fleet-gate-halt: detection says why there is none" "$t" \
	"detection none: no regression onset in this run (no member on 4.6.0 regressed or"
contains "fleet-gate-halt: exposure (adoption to the halt) on its label's line" "$t" \
	"exposure  10.0 member-minutes on 4.6.0 before the halt (each blast member from"
contains "fleet-gate-halt: after the halt the canary was never remediated" "$t" \
	"          its adoption to 21m0s); after the halt: 1 member never left it (not"
"$SIM" run --until horizon scenarios/fleet-gate-halt.yaml >"$tmp/gate-horizon.txt" 2>&1
contains "fleet-gate-halt --until horizon: the same exposure (the stop rule plays no part)" "$tmp/gate-horizon.txt" \
	"exposure  10.0 member-minutes on 4.6.0 before the halt"
t=$tmp/fleet-rollback-pinned.txt
n=$(grep -c "│ annotations: +stages.metio.wtf/rollback-to=4.5.0" "$t")
if [ "$n" -eq 4 ]; then ok "fleet-rollback-pinned: each stamp on its member's line"; else
	bad "fleet-rollback-pinned: each stamp on its member's line ($n)"; fi
contains "fleet-rollback-pinned: the rollback's stamps counted" "$t" \
	"  │ rollback 25m0s wave canary → 4.5.0: stamped rollback-to on 4 members"
contains "fleet-rollback-pinned: a refusal with its reason" "$t" \
	"    │ refused (DowngradeRequiresMigration) 1: one-way/moodle (25m0s)"
contains "fleet-rollback-pinned: the other refusal with its reason" "$t" \
	"    │ refused (DowngradeNotAllowed) 1: strict/moodle (25m0s)"
contains "fleet-rollback-pinned: the stall, by name" "$t" \
	"    │ not downgraded, not refused 2: tenant-00/moodle, tenant-01/moodle"
contains "fleet-rollback-pinned: a refusal stays visible in the timeline" "$t" \
	"StageSet strict/moodle    status   DowngradeNotAllowed"
contains "fleet-rollback-pinned: the onset is tenant-00's regression, not a refusal the halt caused" "$t" \
	"detection 0s, from the fault onset at 25m0s (tenant-00/moodle began a regression"
contains "fleet-rollback-pinned: the fleet view gives the Ready reason" "$t" \
	"    ⚠ one-way/moodle               4.6.0  not Ready: DowngradeRequiresMigration"
contains "fleet-rollback-pinned: a member waiting for the rollback's approval says so" "$t" \
	"    ⚠ tenant-01/moodle             4.6.0  not Ready: AwaitingApproval"
t=$tmp/fleet-member-regression.txt
contains "fleet-member-regression: the recovery after StageFailed is shown" "$t" \
	"         40m0s  StageSet tenant-00/moodle status   Succeeded"
contains "fleet-member-regression: the scripted regress is a regression window" "$t" \
	"detection 0s, from the fault onset at 25m0s (tenant-00/moodle began a regression"
# The same rollback with 60 generated tenants: past 5 of a kind per wave and
# instant, the rest is counted; the rollback names the first 3 per outcome.
sed 's/count: 10$/count: 60/' scenarios/fleet-rollback-pinned.yaml >"$tmp/big.yaml"
"$SIM" run "$tmp/big.yaml" >"$tmp/big.txt" 2>&1
t=$tmp/big.txt
n=$(grep -c "│ annotations: +stages.metio.wtf/rollback-to=4.5.0" "$t")
if [ "$n" -eq 5 ]; then ok "a big rollback: 5 stamps one by one"; else
	bad "a big rollback: 5 stamps one by one ($n)"; fi
contains "a big rollback: the other 9 stamps counted" "$t" "                │ 9 more stamped rollback-to=4.5.0"
contains "a big rollback: the other 7 holds counted" "$t" \
	"         25m0s  wave canary               members  7 more AwaitingApproval"
contains "a big rollback: the stalled members, the first few by name" "$t" \
	"    │ not downgraded, not refused 12: tenant-00/moodle, tenant-01/moodle,"
contains "a big rollback: the rest of the stalled counted" "$t" "    │ tenant-02/moodle, … 9 more"
contains "a big rollback: the fleet view sums up canary with the Ready reason" "$t" \
	"    ⚠ 12 more at 4.6.0, not Ready: AwaitingApproval"
contains "a big rollback: the refusing member shows its reason" "$t" \
	"    ⚠ strict/moodle                4.6.0  not Ready: DowngradeNotAllowed"
t=$tmp/fleet-rollback-derived.txt
n=$(wc -l <"$t")
if [ "$n" -lt 250 ]; then ok "fleet-rollback-derived: the oscillation in under 250 lines ($n)"; else
	bad "fleet-rollback-derived: the oscillation in under 250 lines ($n)"; fi
contains "fleet-rollback-derived: the downgrades with their times" "$t" \
	"    │ downgraded 2: tenant-00/moodle (40m0s), tenant-01/moodle (26m0s)"
contains "fleet-rollback-derived: a repeat names the one entry it repeats" "$t" \
	"                … tenant-01/moodle update repeated ×47 every 2m0s until 1h59m0s"
contains "fleet-rollback-derived: the oscillating member's writes collapse" "$t" \
	"                … tenant-01/moodle status repeated ×94 every 1m0s until 2h0m0s"
t=$tmp/fleet-standing-policy.txt
contains "fleet-standing-policy: no blast radius, no exposure" "$t" \
	"exposure  0 member-minutes: no member had adopted 4.6.0 by the halt"
contains "fleet-standing-policy: which settle canary passed on" "$t" \
	"      soaked 3 times; it first passed on the settle begun at 1m0s"
contains "fleet-standing-policy: a wave settled before it opened says why" "$t" \
	"      settled before it opened: on the version its members ran then"
contains "fleet-standing-policy: the next version's approvals as one line" "$t" \
	"       4h31m0s  wave broad               members  3 approved 4.7.0"
contains "fleet-standing-policy: the first version's adoption table" "$t" \
	"  adoption of 4.6.0: when half and all of each wave were at it / Ready on it"
contains "fleet-standing-policy: the second version's adoption table" "$t" \
	"  adoption of 4.7.0: when half and all of each wave were at it / Ready on it"
# Every report fits its width: 80 and 120 columns, both timelines; colour
# changes no text.
for name in $EXAMPLES; do
	"$SIM" run --color always "scenarios/$name.yaml" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$tmp/c.txt"
	if cmp -s "$tmp/c.txt" "$tmp/$name.txt"; then ok "$name: colour changes no text"; else
		bad "$name: colour changes no text"; fi
	if fits "$tmp/$name.txt" 80; then ok "$name fits 80 columns"; else bad "$name fits 80 columns"; fi
	"$SIM" run --width 120 "scenarios/$name.yaml" >"$tmp/w.txt" 2>&1
	if fits "$tmp/w.txt" 120; then ok "$name fits 120 columns"; else bad "$name fits 120 columns"; fi
	"$SIM" run --timeline all "scenarios/$name.yaml" >"$tmp/w.txt" 2>&1
	if fits "$tmp/w.txt" 80; then ok "$name --timeline all fits 80 columns"; else
		bad "$name --timeline all fits 80 columns"; fi
done

pyfacts "$tmp" <<'PY'
import sys

from facts import check, load, status_changes

tmp = sys.argv[1]


def levels(d, name):
    return status_changes(d, "FleetRollout", name)


def member(d, ns, change="status", since=0, until=None):
    """(t_ms, reason, detail) of the timeline entries of StageSet ns/* ."""
    return [(e["t_ms"], e["reason"], e["detail"] or "") for e in d["timeline"]
            if e["kind"] == "StageSet" and e["namespace"] == ns and e["change"] == change
            and e["t_ms"] >= since and (until is None or e["t_ms"] <= until)]


def last_reason(d, ns):
    rows = member(d, ns)
    return rows[-1][1] if rows else None


def warnings(d):
    return [n["t_ms"] for n in d["notices"] if n["severity"] == "warning"]


def view(d):
    v = d["summary"]["fleet_views"]
    return "\n".join(v)


def summary(name, d, completed, ttc, halt_ms, halt_msg=None):
    s = d["summary"]
    check(name + ": completed %s" % completed, s["completed"] is completed, s["completed"])
    check(name + ": time_to_complete_ms %r" % (ttc,), s["time_to_complete_ms"] == ttc, s["time_to_complete_ms"])
    if halt_ms is None:
        check(name + ": not halted", s["halted"] is False and s["halt"] is None, s["halt"])
    else:
        h = s["halt"] or {}
        check(name + ": halted at %d" % halt_ms,
              s["halted"] is True and h.get("t_ms") == halt_ms and h.get("reason") == "Halted"
              and (halt_msg is None or h.get("message") == halt_msg), h)


def P(t, wave, label="version 4.6.0"):
    return (t, "InProgress", "Progressing", 'rolling out %s; wave "%s" open' % (label, wave))


def C(t, n, label="version 4.6.0"):
    return (t, "Completed", "Completed", "all %d wave(s) have adopted %s" % (n, label))


REG = 'wave "%s" regressed: a member is no longer adopted and Ready'
GATE = 'wave "%s" failed its health gate: metric %s is outside the threshold'
BACK = '; rolling wave "%s" back to %s'
CUR = "the current version"

# 1. fleet-moodle --------------------------------------------------------------
n = "fleet-moodle"
d = load(tmp, n)
if d:
    summary(n, d, True, 12508183, None)
    got = levels(d, "moodle")
    check(n + ": pilot, canary, broad, rest open in order, then Completed",
          got == [P(3900000, "pilot"), P(4823000, "canary"), P(6870000, "broad"), P(11401000, "rest"),
                  C(12508183, 4, CUR)], got)
    ss = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
    base = [e["t_ms"] for e in ss if e["t_ms"] < 3600000 and e["reason"] == "Succeeded"]
    check(n + ": 301 members adopt 4.5.0 as a baseline, the last at 37m59.79s",
          len(base) == 301 and max(base) == 2279790, (len(base), max(base or [0])))
    held = [e["t_ms"] for e in ss if e["reason"] == "AwaitingApproval"]
    check(n + ": all 301 hold 4.6.0 at 1h", len(held) == 301 and set(held) == {3600000}, (len(held), set(held)))
    ring = lambda ns: ("pilot" if ns == "moodle-pilot" else "0" if int(ns[-3:]) < 30
                       else "1" if int(ns[-3:]) < 150 else "2")
    done = {}
    for e in ss:
        if e["t_ms"] > 3900000 and e["reason"] == "Succeeded":
            done.setdefault(ring(e["namespace"]), []).append(e["t_ms"])
    got = {k: (len(v), max(v)) for k, v in done.items()}
    check(n + ": waves settle at 1h5m23.924s, 1h24m30.488s, 2h10m1.142s, 3h28m28.183s",
          got == {"pilot": (1, 3923924), "0": (30, 5070488), "1": (120, 7801142), "2": (150, 12508183)}, got)
    v = view(d)
    check(n + ": fleet view 1/1, 30/30, 120/120, 150/150 adopted and ready",
          all(s in v for s in ("wave pilot   1/1 adopted, 1 ready   settled, health: Passing",
                               "wave canary   30/30 adopted, 30 ready   settled, health: Passing",
                               "wave broad   120/120 adopted, 120 ready   settled",
                               "wave rest   150/150 adopted, 150 ready   settled")), v[:400])
    check(n + ": no warnings", warnings(d) == [], warnings(d))
    fl = d["summary"]["fleets"][0]
    ad = {w["name"]: w["adoption"] for w in fl["waves"]}
    got = ad["broad"]["targets"]
    check(n + ": broad adopted 4.6.0: first 1h54m50.368s, half 2h2m18.007s, all 2h10m1.142s",
          fl["targets"] == ["4.6.0"] and ad["broad"]["members"] == 120 and
          [(x["version"], x["adopted"], x["ready"], x["first_ms"], x["half_ms"], x["all_ms"],
            x["ready_half_ms"], x["ready_all_ms"]) for x in got] ==
          [("4.6.0", 120, 120, 6890368, 7338007, 7801142, 7338007, 7801142)], (fl["targets"], got))
    got = [(p["t_ms"], p["adopted"], p["ready"]) for p in ad["broad"]["progress"]]
    check(n + ": broad's progress: first member, then each quarter",
          [x[1] for x in got] == [1, 30, 60, 90, 120] and got[-1][0] == 7801142, got)

# 2. fleet-gate-halt -------------------------------------------------------------
n = "fleet-gate-halt"
d = load(tmp, n)
if d:
    msg = GATE % ("canary", "0.05235")
    summary(n, d, True, 3840000, 1260000, msg)
    got = levels(d, "moodle")
    check(n + ": canary, Halted at 21m with the %.4g value, broad at 41m, rest, Completed",
          got == [P(0, "canary"), (1260000, "Halted", "Halted", msg), P(2460000, "broad"),
                  P(3720000, "rest"), C(3840000, 3)], got)
    w = warnings(d)
    check(n + ": 41 Warnings, two at 21m0s, then every 30s to 40m30s",
          w == [1260000] + list(range(1260000, 2430001, 30000)), w)
    wt = [x["text"] for x in d["notices"] if x["severity"] == "warning"]
    check(n + ": every Warning carries the Halted message", set(wt) == {msg}, set(wt))
    ap = [t for t in (member(d, "tenant-01", "updated")) if "approved-version=4.6.0" in t[2]]
    check(n + ": broad approved only at 41m", [t[0] for t in ap] == [2460000], ap)

# 3. fleet-member-regression -------------------------------------------------------
n = "fleet-member-regression"
d = load(tmp, n)
if d:
    summary(n, d, True, 5580000, 1500000, REG % "canary")
    got = levels(d, "moodle")
    check(n + ": one-pass regression halt at 25m, soak restarted at 40m, broad 1h10m",
          got == [P(0, "canary"), (1500000, "Halted", "Halted", REG % "canary"), P(1500000, "canary"),
                  P(4200000, "broad"), P(5460000, "rest"), C(5580000, 3)], got)
    check(n + ": one Warning", warnings(d) == [1500000], warnings(d))
    got = [(t, r) for t, r, _ in member(d, "tenant-00")]
    check(n + ": tenant-00 Succeeded 11m, StageFailed 25m, Succeeded 40m",
          (660000, "Succeeded") in got and (1500000, "StageFailed") in got
          and [x for x in got if x[0] > 1500000][:1] == [(2400000, "Succeeded")], got)

# 4. fleet-rollback-pinned --------------------------------------------------------
n = "fleet-rollback-pinned"
d = load(tmp, n)
if d:
    msg = REG % "canary" + BACK % ("canary", "4.5.0")
    summary(n, d, False, None, 1500000, msg)
    check(n + ": runs to the horizon", d["run"]["stop"] == "horizon" and d["run"]["end_ms"] == 10800000, d["run"])
    got = levels(d, "moodle")
    check(n + ": Halted with the rollback suffix, then InProgress canary for good",
          got == [P(0, "canary"), (1500000, "Halted", "Halted", msg), P(1500000, "canary")], got)
    canary = ("one-way", "strict", "tenant-00", "tenant-01")
    st = {ns: [t for t, _, det in member(d, ns, "updated") if "+stages.metio.wtf/rollback-to=4.5.0" in det]
          for ns in canary + ("tenant-02",)}
    check(n + ": rollback-to=4.5.0 stamped on the four canary members at 25m, nowhere else",
          st == {"one-way": [1500000], "strict": [1500000], "tenant-00": [1500000], "tenant-01": [1500000],
                 "tenant-02": []}, st)
    got = {ns: last_reason(d, ns) for ns in canary}
    check(n + ": members answer AwaitingApproval, DowngradeNotAllowed, DowngradeRequiresMigration",
          got == {"tenant-00": "AwaitingApproval", "tenant-01": "AwaitingApproval",
                  "strict": "DowngradeNotAllowed", "one-way": "DowngradeRequiresMigration"}, got)
    late = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["t_ms"] > 1500000
            and e["change"] == "status" and e["namespace"] in canary]
    check(n + ": nothing moves after 25m (no canary status write)", late == [], late[:2])
    v = view(d)
    check(n + ": fleet view: canary 4/4 at 4.6.0, 0 ready, all marked regressed",
          "wave canary   4/4 at 4.6.0, 0 ready" in v and v.count("4.6.0  not Ready (regressed)") == 4, v[:400])
    check(n + ": one Warning", warnings(d) == [1500000], warnings(d))
    fl = d["summary"]["fleets"][0]
    check(n + ": rollback outcomes: 4 stamped, 2 refused (one per reason), 2 neither",
          fl["rollback_outcomes"] == {"stamped": 4, "downgraded": 0, "neither": 2,
                                      "refused": {"DowngradeRequiresMigration": 1, "DowngradeNotAllowed": 1}},
          fl["rollback_outcomes"])
    got = sorted((r["member"], r["outcome"], r["refused_reason"]) for r in fl["rollbacks"])
    check(n + ": every stamp with its outcome",
          got == [("one-way/moodle", "refused", "DowngradeRequiresMigration"),
                  ("strict/moodle", "refused", "DowngradeNotAllowed"),
                  ("tenant-00/moodle", "neither", None), ("tenant-01/moodle", "neither", None)], got)

# 5. fleet-rollback-derived -------------------------------------------------------
n = "fleet-rollback-derived"
d = load(tmp, n)
if d:
    msg = REG % "canary" + BACK % ("canary", "4.5.0")
    summary(n, d, False, None, 1500000, msg)
    check(n + ": runs to the horizon", d["run"]["stop"] == "horizon" and d["run"]["end_ms"] == 7200000, d["run"])
    got = levels(d, "moodle")
    mixed = P(0, "canary", "mixed versions")[1:]
    v46 = P(0, "canary")[1:]
    check(n + ": InProgress at 11m, Halted at 25m, then version 4.6.0 / mixed versions alternating every minute",
          got[:4] == [P(660000, "canary"), (1500000, "Halted", "Halted", msg), P(1500000, "canary"),
                      P(1500000, "canary", "mixed versions")]
          and [r[0] for r in got[4:]] == list(range(1560000, 7200001, 60000))
          and all(r[1:] == (v46 if i % 2 == 0 else mixed) for i, r in enumerate(got[4:])), got[:6])
    flips = [(t, det) for t, _, det in member(d, "tenant-01", "updated", 1500000)
             if "approved-version=" in det]
    check(n + ": the fleet approves tenant-01 4.5.0 and 4.6.0 in turn, every minute",
          flips[:3] == [(1500000, "annotations: stages.metio.wtf/approved-version=4.6.0→4.5.0"),
                        (1560000, "annotations: stages.metio.wtf/approved-version=4.5.0→4.6.0"),
                        (1620000, "annotations: stages.metio.wtf/approved-version=4.6.0→4.5.0")]
          and len(flips) == 96, (len(flips), flips[:3]))
    t0 = [(t, r) for t, r, _ in member(d, "tenant-00", "status", 1500001, 2400000)]
    check(n + ": tenant-00's downgrade fails at 26m while unhealthy, succeeds at 40m",
          t0 == [(1560000, "StageFailed"), (2400000, "Succeeded"), (2400000, "AwaitingApproval")], t0)
    got = {ns: last_reason(d, ns) for ns in ("strict", "one-way")}
    check(n + ": the refusers keep refusing",
          got == {"strict": "DowngradeNotAllowed", "one-way": "DowngradeRequiresMigration"}, got)
    check(n + ": one Warning", warnings(d) == [1500000], warnings(d))

# 6. fleet-unassigned -------------------------------------------------------------
n = "fleet-unassigned"
d = load(tmp, n)
if d:
    summary(n, d, True, 4500000, None)
    got = levels(d, "moodle")
    check(n + ": MembersUnassigned with phase empty, then the rollout from 20m",
          got == [(0, None, "MembersUnassigned",
                   "2 selected StageSet(s) match no wave: tenant-12/moodle, tenant-13/moodle"),
                  P(1200000, "canary"), P(3060000, "broad"), P(4320000, "rest"), C(4500000, 3)], got)
    ap = [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "updated"
          and "approved-version" in (e["detail"] or "")]
    check(n + ": nothing approved before 20m", ap and min(ap) == 1200000, ap[:1])

# 7. fleet-contested ---------------------------------------------------------------
n = "fleet-contested"
d = load(tmp, n)
if d:
    summary(n, d, True, 5040000, None)
    c = "2 selected StageSet(s) are governed by another FleetRollout: " \
        "tenant-10/moodle (also governed by FleetRollout %s), tenant-11/moodle (also governed by FleetRollout %s)"
    got = levels(d, "moodle")
    check(n + ": moodle MembersContested, then rolls out from 30m",
          got == [(0, None, "MembersContested", c % ("moodle-eu", "moodle-eu")), P(1800000, "canary"),
                  P(3660000, "broad"), P(4920000, "rest"), C(5040000, 3)], got)
    got = levels(d, "moodle-eu")
    check(n + ": moodle-eu MembersContested naming moodle, then its wave at 30m, Completed 31m",
          got == [(0, None, "MembersContested", c % ("moodle", "moodle")), P(1800000, "eu"),
                  C(1860000, 1)], got)
    check(n + ": both drivers complete", d["summary"]["drivers"] == 2 and d["summary"]["drivers_completed"] == 2)

# 8. fleet-standing-policy --------------------------------------------------------
n = "fleet-standing-policy"
d = load(tmp, n)
if d:
    summary(n, d, True, 3660000, 7200000, REG % "canary")
    check(n + ": the run ends at 6h", d["run"]["end_ms"] == 21600000, d["run"])
    got = levels(d, "moodle")
    H = lambda t: (t, "Halted", "Halted", REG % "canary")
    want = [P(0, "canary", CUR), P(1860000, "broad", CUR), C(3660000, 3, CUR),
            H(7200000), P(7200000, "canary"), P(9060000, "broad"), P(12720000, "rest"), C(12840000, 3, CUR),
            H(14400000), P(14400000, "canary", "version 4.7.0"), P(16260000, "broad", "version 4.7.0"),
            P(19920000, "rest", "version 4.7.0"), C(20040000, 3, CUR)]
    check(n + ": three rollouts, each new version first halting once", got == want, got)
    check(n + ": two Warnings, at 2h and 4h", warnings(d) == [7200000, 14400000], warnings(d))
PY
finish
