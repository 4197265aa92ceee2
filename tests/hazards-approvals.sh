#!/bin/sh
# The approval bookkeeping of a StageSet that surprises, told twice, by
# `lint` before a run and by `run` at its end, and each claim checked against
# the run of the same input: a fixture where it fires and the timeline (and
# a snapshot of the cluster) shows what the message says, and one where it
# must not fire (tests/hazards/approvals-*.yaml, each saying what it shows).
#   MS279  2.1.0 (1h) held for approval; the source is not Ready from 1h20m
#          until 2h and 2.1.0 is approved at 1h30m: the snapshot at 1h45m
#          holds Ready SourceNotReady beside pendingVersion 2.1.0 and the
#          approval, until 2.1.0 is adopted at 2h1m1s.  Approved at 1h10m,
#          before the outage, 2.1.0 is adopted at 1h11m1s and nothing is told.
#          The same through the kubeconfig Secret, deleted at 1h20m and
#          applied again at 2h: StageFailed from 1h20m, with pendingVersion
#          2.1.0, also when every pass is run.  And through the dependency
#          check: 3.1.0 published to the dependency db alone at 1h20m, which
#          soaks it 30m: app DependencyNotReady with pendingVersion 2.1.0 from
#          1h20m until 1h52m3s.
#   MS280  the manifest approves 2.1.0, spec.version.value is 2.0.0: 2.0.0 is
#          adopted on the first pass unheld and 2.1.0 (1h) at 1h1m1s with no
#          AwaitingApproval and no approval event.  A manifest approving
#          2.0.0, the version it starts at, holds 2.1.0 to the end, and
#          nothing is told.  A version that comes back: 2.1.0 approved and
#          adopted, approvalMode Never from 1h for 2.0.1, Always again from
#          1h30m: 2.1.0 published again at 2h is adopted at 2h1m1s on the old
#          approval; with the approval removed at 40m it is held.
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"
HAZARD_RUN_ARGS="--until horizon"

# ---- MS279: pendingVersion left by passes that stop before the approval gate ----
lint_of approvals-pending-exit
contains "pending exit: MS279" "$tmp/approvals-pending-exit.lint" \
	'MS279 warning 2.1.0, published at 1h0m0s, is held AwaitingApproval on StageSet shop/shop (approvalMode Always), which writes status.pendingVersion 2.1.0; then the sources model makes stage "app"'"'"'s GitRepository shop/shop not Ready from 1h20m0s until 2h0m0s: those passes stop at source resolution (SourceNotReady), before the approval gate, the one writer of pendingVersion, so status.pendingVersion goes on naming 2.1.0 beside Ready False SourceNotReady, also once the approval at 1h30m0s has come, until a pass gets through again'
run_of approvals-pending-exit
snapshot_of approvals-pending-exit 1h45m pend145 "pending exit"
facts_of approvals-pending-exit "$tmp/pend145.yaml" <<'EOF2'
st = [(e["t_ms"], e["reason"], e["detail"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("pending exit: held at 1h, SourceNotReady at 1h20m without touching pendingVersion, adopted at 2h1m1s clearing it",
      [x[:2] for x in st] == [(61005, "Succeeded"), (3600000, "AwaitingApproval"), (4800000, "SourceNotReady"), (7261000, "Succeeded")]
      and "pendingVersion" in st[1][2] and "pendingVersion" not in st[2][2] and "-pendingVersion" in st[3][2], st)
snap = stageset_snapshot(sys.argv[2])
status = snap[snap.index("\n  status:"):]
check("pending exit: at 1h45m pendingVersion is 2.1.0", re.search(r"\n    pendingVersion: 2\.1\.0\n", status) is not None, status)
check("pending exit: at 1h45m Ready says SourceNotReady", "reason: SourceNotReady" in status, status)
check("pending exit: at 1h45m 2.1.0 is approved", re.search(r"stages\.metio\.wtf/approved-version: \"?2\.1\.0", snap) is not None)
n = notice(d, "StageSet shop/shop: status.pendingVersion still named 2.1.0, held for approval at 1h0m0s, when the pass ending at 1h20m0s wrote Ready SourceNotReady")
check("pending exit: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
check("pending exit: until the success, after the approval",
      n is not None and "until the status written at 2h1m1s, also after 2.1.0 was approved at 1h30m0s" in n["text"], n and n["text"])
EOF2

lint_of approvals-pending-kubeconfig
contains "pending kubeconfig: MS279" "$tmp/approvals-pending-kubeconfig.lint" \
	'MS279 warning 2.1.0, published at 1h0m0s, is held AwaitingApproval on StageSet shop/shop (approvalMode Always), which writes status.pendingVersion 2.1.0; then the delete event at 1h20m0s removes Secret shop/prod-kubeconfig, which spec.kubeConfig.secretRef names, until the apply at 2h0m0s: those passes fail to connect to the target cluster (StageFailed), before the approval gate, the one writer of pendingVersion, so status.pendingVersion goes on naming 2.1.0 beside Ready False StageFailed, also once the approval at 1h30m0s has come, until a pass gets through again'
run_of approvals-pending-kubeconfig
MAGOS_SIM_RUN_EVERY_PASS=1 "$SIM" run -q $HAZARD_RUN_ARGS --json "$tmp/kc-every.json" "$H/approvals-pending-kubeconfig.yaml" >/dev/null 2>&1 ||
	bad "pending kubeconfig: runs with every pass"
snapshot_of approvals-pending-kubeconfig 1h45m kc145 "pending kubeconfig"
facts_of approvals-pending-kubeconfig "$tmp/kc-every.json" "$tmp/kc145.yaml" <<'EOF2'
every = json.load(open(sys.argv[2]))
s = stageset_statuses(d)
check("pending kubeconfig: held at 1h, StageFailed at 1h20m without touching pendingVersion, adopted after 2h clearing it",
      [x[:2] for x in s][:3] == [(61005, "Succeeded"), (3600000, "AwaitingApproval"), (4800000, "StageFailed")]
      and "pendingVersion" not in s[2][2] and s[3][1] == "Succeeded" and s[3][0] > 7200000 and "-pendingVersion" in s[3][2], s)
check("pending kubeconfig: the same timeline with every pass run (a held pass reads the Secret)",
      d["timeline"] == every["timeline"], (s, stageset_statuses(every)))
snap = stageset_snapshot(sys.argv[3])
status = snap[snap.index("\n  status:"):]
check("pending kubeconfig: at 1h45m pendingVersion 2.1.0 beside StageFailed",
      re.search(r"\n    pendingVersion: 2\.1\.0\n", status) is not None and "reason: StageFailed" in status, status)
n = notice(d, "StageSet shop/shop: status.pendingVersion still named 2.1.0, held for approval at 1h0m0s, when the pass ending at 1h20m0s wrote Ready StageFailed")
check("pending kubeconfig: the run tells it, with the approval",
      n is not None and "also after 2.1.0 was approved at 1h30m0s" in n["text"], [x["text"] for x in d["notices"]])
EOF2

lint_of approvals-pending-dependency
contains "pending dependency: MS279" "$tmp/approvals-pending-dependency.lint" \
	'MS279 warning 2.1.0, published at 1h0m0s, is held AwaitingApproval on StageSet shop/app (approvalMode Always), which writes status.pendingVersion 2.1.0; then scenario event 2 at 1h20m0s publishes 3.1.0 to its dependency shop/db alone, which is not ready while it rolls that version out, soaking it for at least 30m0s (schema 30m0s): those passes stop at the dependency check (DependencyNotReady), before the approval gate, the one writer of pendingVersion, so status.pendingVersion goes on naming 2.1.0 beside Ready False DependencyNotReady, also once the approval at 1h30m0s has come, until a pass gets through again'
run_of approvals-pending-dependency
snapshot_of approvals-pending-dependency 1h45m dep145 "pending dependency"
facts_of approvals-pending-dependency "$tmp/dep145.yaml" <<'EOF2'
s = [(e["t_ms"], e["reason"], e["detail"] or "") for e in d["timeline"]
     if e["kind"] == "StageSet" and e["name"] == "app" and e["change"] == "status"]
check("pending dependency: app held at 1h, DependencyNotReady at 1h20m without touching pendingVersion, 2.1.0 adopted at 1h52m3s",
      [x[:2] for x in s][-3:] == [(3600000, "AwaitingApproval"), (4800000, "DependencyNotReady"), (6723000, "Succeeded")]
      and "pendingVersion" not in s[-2][2] and "-pendingVersion" in s[-1][2], s)
db = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["name"] == "db" and e["change"] == "status"]
check("pending dependency: db soaks 3.1.0 from 1h21m1s to 1h51m2s", db[-2:] == [(4861000, "Soaking"), (6662000, "Succeeded")], db)
snap = open(sys.argv[2]).read()
app = snap[snap.index("name: app\n"):]
status = app[app.index("\n  status:"):]
check("pending dependency: at 1h45m app's pendingVersion is 2.1.0 beside DependencyNotReady",
      re.search(r"\n    pendingVersion: 2\.1\.0\n", status) is not None and "reason: DependencyNotReady" in status, status[:600])
n = notice(d, "StageSet shop/app: status.pendingVersion still named 2.1.0, held for approval at 1h0m0s, when the pass ending at 1h20m0s wrote Ready DependencyNotReady")
check("pending dependency: the run tells it, with the approval",
      n is not None and "until the status written at 1h52m3s, also after 2.1.0 was approved at 1h30m0s" in n["text"],
      [x["text"] for x in d["notices"]])
EOF2

lint_of approvals-pending-approved
lacks "pending approved: no MS279" "$tmp/approvals-pending-approved.lint" 'MS279'
run_of approvals-pending-approved
facts_of approvals-pending-approved <<'EOF2'
st = [(e["t_ms"], e["reason"], e["detail"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("pending approved: 2.1.0 adopted at 1h11m1s, clearing pendingVersion, before the outage's SourceNotReady",
      [x[:2] for x in st][1:4] == [(3600000, "AwaitingApproval"), (4261000, "Succeeded"), (4800000, "SourceNotReady")]
      and "-pendingVersion" in st[2][2], st)
check("pending approved: the run tells nothing", notice(d, "status.pendingVersion still named") is None)
EOF2

# ---- MS280: an approval from before reused ----------------------------------------
lint_of approvals-reused
contains "reused: MS280" "$tmp/approvals-reused.lint" \
	'MS280 warning StageSet shop/shop (approvalMode Always) comes with stages.metio.wtf/approved-version "2.1.0" in its manifest, an approval from before, while its spec.version.value is 2.0.0: its first pass adopts 2.0.0 without asking (a first adoption is never held), and the controller never clears the annotation, so when 2.1.0 is published at 1h0m0s the old approval lets the transition 2.0.0 to 2.1.0 through with nobody approving it'
run_of approvals-reused
facts_of approvals-reused <<'EOF2'
st = [(e["t_ms"], e["reason"], e["detail"] or "") for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("reused: 2.0.0 baselined at 1m1.005s, 2.1.0 adopted at 1h1m1s, never held",
      [x[:2] for x in st] == [(61005, "Succeeded"), (3661000, "Succeeded")] and st[1][2].endswith(", version"), st)
check("reused: no approval event in the run",
      not [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "updated" and "approved-version" in (e["detail"] or "")])
check("reused: 2.0.0 was baselined", [e for e in d["timeline"] if e["change"] == "event" and (e["message"] or "").startswith("baselined at 2.0.0")] != [])
n = notice(d, 'StageSet shop/shop: the transition from 2.0.0 to 2.1.0 that began at 1h0m0s passed the approval gate on stages.metio.wtf/approved-version "2.1.0", set at 0s (its manifest\'s), before the StageSet adopted 2.0.0 at 1m1.005s (a first adoption, never held)')
check("reused: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
EOF2

lint_of approvals-reused-back
contains "reused back: MS280" "$tmp/approvals-reused-back.lint" \
	'MS280 warning the publish at 2h0m0s offers 2.1.0 again to StageSet shop/shop, whose approvalMode is Always again (the patch at 1h30m0s), while stages.metio.wtf/approved-version still says "2.1.0" from 35m0s: 2.1.0, adopted with that approval (published at 30m0s), gave way to 2.0.1, published at 1h10m0s while approvalMode was Never (the patch at 1h0m0s) and adopted without an approval, and the controller never clears the annotation, so the old approval lets the transition 2.0.1 to 2.1.0 through with nobody approving it'
run_of approvals-reused-back
run_of approvals-reused-cleared
facts_of approvals-reused-back "$tmp/approvals-reused-cleared.json" <<'EOF2'
c = json.load(open(sys.argv[2]))
s = stageset_statuses(d)
check("reused back: 2.1.0 held at 30m, adopted at 36m1s; 2.0.1 at 1h11m1s unheld; 2.1.0 again at 2h1m1s unheld",
      [x[:2] for x in s if x[1] != "Succeeded" or "version" in x[2].replace("status: ", "").split(", ")] ==
      [(61005, "Succeeded"), (1800000, "AwaitingApproval"), (2161000, "Succeeded"), (4261000, "Succeeded"), (7261000, "Succeeded")], s)
check("reused back: one approval event in the run, at 35m",
      [e["t_ms"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "updated" and "approved-version" in (e["detail"] or "")] == [2100000])
n = notice(d, 'StageSet shop/shop: the transition from 2.0.1 to 2.1.0 that began at 2h0m0s passed the approval gate on stages.metio.wtf/approved-version "2.1.0", set at 35m0s, before the StageSet adopted 2.0.1 at 1h11m1s')
check("reused back: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
check("reused cleared: 2.1.0 published again at 2h is held to the end", [x[:2] for x in stageset_statuses(c)][-1] == (7200000, "AwaitingApproval"), stageset_statuses(c))
check("reused cleared: the run tells nothing", notice(c, "passed the approval gate on") is None)
EOF2
lint_of approvals-reused-cleared
lacks "reused cleared: no MS280" "$tmp/approvals-reused-cleared.lint" 'MS280'

lint_of approvals-reused-current
lacks "reused current: no MS280" "$tmp/approvals-reused-current.lint" 'MS280'
run_of approvals-reused-current
facts_of approvals-reused-current <<'EOF2'
st = [(e["t_ms"], e["reason"]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"]
check("reused current: 2.1.0 held from 1h to the end", st == [(61005, "Succeeded"), (3600000, "AwaitingApproval")], st)
check("reused current: the run tells nothing", notice(d, "passed the approval gate on") is None)
EOF2
finish
