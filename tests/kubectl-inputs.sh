#!/bin/sh
# Inputs as kubectl and the API machinery read them: JSON manifests on the
# command line and in directories, a byte-order mark, YAML 1.1 booleans, the
# kinds of the pinned CRDs, and a `kubectl get -o yaml` snapshot whose times
# are read against the snapshot's own time.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

# jq_true NAME FILE EXPR: EXPR (Python, over the JSON document d) holds.
jq_true() {
	if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$2" "$3"; then
		ok "$1"
	else bad "$1"; fi
}

# A JSON manifest given on the command line and found in a directory.
mkdir "$tmp/dir"
cat >"$tmp/dir/ns.json" <<'JSON'
{
  "apiVersion": "v1",
  "kind": "Namespace",
  "metadata": {"name": "from-json", "labels": {"ring": "canary"}}
}
JSON
expect_rc "a .json file on the command line is read" 0 "$SIM" lint "$tmp/dir/ns.json"
contains "the .json file's object is counted" "$tmp/out" "1 object"
expect_rc "a directory's .json files are read" 0 "$SIM" lint "$tmp/dir"
contains "the directory's .json object is counted" "$tmp/out" "1 object"

# A UTF-8 byte-order mark before the first key.
printf '\357\273\277apiVersion: v1\nkind: Namespace\nmetadata: {name: bom}\n' >"$tmp/bom.yaml"
expect_rc "a byte-order mark is accepted" 0 "$SIM" lint "$tmp/bom.yaml"

# YAML 1.1 booleans: true where a boolean is typed, refused where a string is required.
cat >"$tmp/y11.yaml" <<'YAML'
apiVersion: magosproject.io/v1alpha1
kind: Workspace
metadata: {name: web, namespace: default, labels: {env: dev}}
spec:
  projectRef: {name: web}
  source: {repoURL: https://example.com/web.git, targetRevision: main}
  terraform: {version: "1.14.8"}
  autoApply: no
YAML
expect_rc "autoApply: no is accepted" 0 "$SIM" lint "$tmp/y11.yaml"
sed 's/labels: {env: dev}/labels: {env: dev, canary: yes}/' "$tmp/y11.yaml" >"$tmp/y11-label.yaml"
expect_rc "a label canary: yes is refused" 1 "$SIM" lint "$tmp/y11-label.yaml"
contains "the refusal names the label" "$tmp/out" 'metadata.labels.canary in body must be of type string: yes'

# The kinds of the pinned CRDs: StageLedger is read by the StageSet
# controller (kept), the others by no simulated controller (ignored).
cat >"$tmp/crds.yaml" <<'YAML'
apiVersion: stages.metio.wtf/v1
kind: StageLedger
metadata: {name: web, namespace: shop}
---
apiVersion: stages.metio.wtf/v1
kind: StageInventory
metadata: {name: web, namespace: shop}
---
apiVersion: stages.metio.wtf/v1
kind: ImageVerificationPolicy
metadata: {name: signed}
YAML
expect_rc "StageLedger, StageInventory, ImageVerificationPolicy are known" 0 "$SIM" lint "$tmp/crds.yaml"
"$SIM" run "$tmp/crds.yaml" >"$tmp/out" 2>"$tmp/err"
contains "the others are accepted and ignored" "$tmp/err" "2 objects of kinds the simulated controllers do not read are accepted and ignored: StageInventory \"shop/web\" (stages.metio.wtf/v1), ImageVerificationPolicy \"signed\" (stages.metio.wtf/v1)"
contains "the StageLedger is kept" "$tmp/out" "StageLedger shop/web     created"

# A snapshot: the clock starts at its latest timestamp, said on a line of
# its own under the first, so that both fit 80 columns.
cat >"$tmp/snap.yaml" <<'YAML'
apiVersion: v1
kind: List
metadata: {resourceVersion: ""}
items:
- apiVersion: v1
  kind: Namespace
  metadata:
    name: shop
    uid: 6f1d1c1e-4a43-4a57-9d0e-0d1f5b7c2a01
    resourceVersion: "412"
    creationTimestamp: "2026-11-30T09:12:44Z"
    managedFields:
    - {manager: kubectl-client-side-apply, operation: Update, apiVersion: v1, time: "2026-11-30T14:02:07Z"}
- apiVersion: v1
  kind: Namespace
  metadata: {name: older, creationTimestamp: "2026-11-29T08:00:00Z"}
YAML
expect_rc "a snapshot runs" 0 "$SIM" run "$tmp/snap.yaml"
if sed -n 2p "$tmp/out" | grep -q '^clock starts 2026-11-30T14:02:07Z (the latest timestamp in the inputs)$'; then
	ok "the line under the first says the clock starts at the snapshot's latest time"
else
	bad "the line under the first says the clock starts at the snapshot's latest time"; show "$tmp/out" 2
fi
check "... and every line fits 80 columns" fits "$tmp/out" 80
# A header longer than 80 columns breaks after a comma, and keeps every fact.
expect_rc "the fleet snapshot example runs" 0 "$SIM" run scenarios/snapshot-moodle-fleet.yaml
check "... its report fits 80 columns" fits "$tmp/out" 80
check "... the header broken after a comma, the rest indented" test "$(sed -n 1,3p "$tmp/out")" = \
"moodle-fleet-from-snapshot: seed 3, horizon 2h0m0s, 13 objects,
  0 scripted events
clock starts 2026-03-02T08:15:02Z (the latest timestamp in the inputs)"
"$SIM" run --json "$tmp/snap.json" "$tmp/snap.yaml" >/dev/null 2>&1
jq_true "the JSON report starts at the snapshot's time" "$tmp/snap.json" \
	'd["scenario"]["start"] == "2026-11-30T14:02:07Z"'
# spec.start wins over the snapshot's times, and gets no clock line.
cat >"$tmp/start.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: pinned}
spec: {start: "2026-12-01T00:00:00Z"}
YAML
expect_rc "a snapshot with spec.start runs" 0 "$SIM" run "$tmp/start.yaml" "$tmp/snap.yaml"
lacks "spec.start is not overridden by the snapshot" "$tmp/out" "clock starts"
# --now overrides both, and says so.
expect_rc "--now runs" 0 "$SIM" run --now 2026-11-30T15:00:00+01:00 --json "$tmp/now.json" "$tmp/start.yaml" "$tmp/snap.yaml"
jq_true "--now sets the clock (in UTC)" "$tmp/now.json" 'd["scenario"]["start"] == "2026-11-30T14:00:00Z"'
"$SIM" run --now 2026-11-30T15:00:00+01:00 "$tmp/snap.yaml" >"$tmp/out" 2>"$tmp/err"
if sed -n 2p "$tmp/out" | grep -q '^clock starts 2026-11-30T14:00:00Z (--now)$'; then ok "the clock line names --now"; else bad "the clock line names --now"; show "$tmp/out" 2; fi
# (--now is before the times the snapshot holds: a warning names the latest)
contains "a --now before the snapshot's times is warned about" "$tmp/err" "warning: Namespace \"shop\": metadata.managedFields[0].time 2026-11-30T14:02:07Z is later than the clock's start 2026-11-30T14:00:00Z (--now)"
# With trials, the remaining time also as UTC wall-clock times.
"$SIM" run -n 20 --now 2026-11-30T14:00:00Z scenarios/commit-mid-rollout.yaml >"$tmp/out" 2>&1
if sed -n 2p "$tmp/out" | grep -q '^clock starts 2026-11-30T14:00:00Z (--now)$'; then ok "trials name the clock under the first line"; else bad "trials name the clock under the first line"; show "$tmp/out" 3; fi
has=$(grep -cE '^  done between 2026-11-30 14:[0-9]{2} UTC and 2026-11-30 14:[0-9]{2} UTC$|^  p50 2026-11-30 14:[0-9]{2} UTC, p90 2026-11-30 14:[0-9]{2} UTC$' "$tmp/out")
if [ "$has" -eq 2 ]; then ok "trials give the wall-clock range and percentiles"; else bad "trials give the wall-clock range and percentiles"; show "$tmp/out" 16; fi
"$SIM" run -n 20 scenarios/commit-mid-rollout.yaml >"$tmp/out" 2>&1
# spec.start written is an instant the user gave, as --now is (tests/resume-report.sh
# has the default start, which gives none)
contains "spec.start alone gives the wall-clock lines too, from spec.start" "$tmp/out" "  done between 2026-03-02 "
expect_rc "a bad --now is a usage error" 2 "$SIM" run --now yesterday "$tmp/snap.yaml"
contains "the bad --now is named" "$tmp/err" "invalid --now 'yesterday'"

# Only the times the cluster wrote set the clock: a time in spec or in an
# annotation (what a user wrote, here a day later) is not the snapshot's, nor
# a time to come in status (a key starting "next" or ending "Until").
cat >"$tmp/spec-time.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Namespace
  metadata:
    name: shop
    creationTimestamp: "2026-11-30T09:12:44Z"
    annotations: {example.com/freeze-until: "2026-12-01T14:02:07Z"}
  status: {phase: Active, since: "2026-11-30T14:02:07Z", nextCheck: "2026-12-01T00:00:00Z", quietUntil: "2026-12-01T00:00:00Z"}
- apiVersion: stages.metio.wtf/v1
  kind: StageLedger
  metadata: {name: web, namespace: shop, creationTimestamp: "2026-11-30T10:00:00Z"}
  spec: {notBefore: "2026-12-01T14:02:07Z"}
YAML
"$SIM" run "$tmp/spec-time.yaml" >"$tmp/out" 2>"$tmp/err"
if sed -n 2p "$tmp/out" | grep -q '^clock starts 2026-11-30T14:02:07Z (the latest timestamp in the inputs)$'; then
	ok "times in spec and annotations do not set the clock, status times do"
else
	bad "times in spec and annotations do not set the clock, status times do"; show "$tmp/out" 2
fi
# A Namespace and a StageLedger are read, but no controller reconciles them.
has_line "... with a warning that there is nothing to simulate" "$tmp/err" \
	"$tmp/spec-time.yaml:1:1: warning: nothing to simulate: the inputs hold no Rollout, Workspace or Project (magosproject.io) and no FleetRollout or StageSet (stages.metio.wtf), only 2 objects the controllers read but do not reconcile"

# A snapshot of a finished rollout: already complete, no time to complete,
# left out of the time-to-complete statistics (not counted as 0 s).
sed -e '/^  events:$/,/^---$/{/^---$/!d}' \
	-e 's/^metadata: {name: moodle}$/metadata: {name: moodle}\nstatus: {phase: Completed, observedGeneration: 1}/' \
	scenarios/fleet-standing-policy.yaml >"$tmp/done.yaml"
expect_rc "a completed FleetRollout runs" 0 "$SIM" run --json "$tmp/done.json" "$tmp/done.yaml"
contains "it is reported as already complete" "$tmp/out" "completed already: every Rollout/FleetRollout was complete when"
lacks "it is not reported as completed in 0s" "$tmp/out" "time to complete 0s"
jq_true "the JSON says already complete, with no time" "$tmp/done.json" \
	'd["summary"]["already_complete"] is True and d["summary"]["time_to_complete_ms"] is None and d["summary"]["completed"] is True'
expect_rc "trials of it run" 0 "$SIM" run -n 3 "$tmp/done.yaml"
contains "no trial counts in the time-to-complete statistics, and -n says why" "$tmp/out" "Time to complete: none, every trial was complete when it started"
# The same rollout from the start does take time.
expect_rc "the rollout from the start runs" 0 "$SIM" run --json "$tmp/fresh.json" scenarios/fleet-standing-policy.yaml
jq_true "from the start it takes time" "$tmp/fresh.json" \
	'd["summary"]["already_complete"] is False and d["summary"]["time_to_complete_ms"] > 0'

finish
