#!/bin/sh
# MS126: a scripted event that names a Job no one creates.  lint computes the
# names the Workspace controller gives its Jobs (<workspace>-plan-<spec hash>,
# <workspace>-apply-<spec hash>), so a typo in one shows before the run, with
# the name meant; the run says the same event did not apply (NotFound).
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

S=tests/hazards/failed-no-condition.yaml
expect_rc "the plan Job's real name lints clean" 0 "$SIM" lint "$S"
lacks "... without MS126" "$tmp/out" "MS126"

sed 's/name: shop-prod-plan-2bf06f4b,/name: shop-prod-plan-2bf06f4,/' "$S" >"$tmp/typo.yaml"
expect_rc "a typo in it is a warning" 0 "$SIM" lint "$tmp/typo.yaml"
has_line "... MS126 at the event, with the name meant" "$tmp/out" \
	"$tmp/typo.yaml:20:11: warning: scenario event 1 (status) names Job \"default/shop-prod-plan-2bf06f4\", which no input, earlier event or Workspace creates (the Workspace controller names its Jobs <workspace>-plan-<spec hash> and <workspace>-apply-<spec hash>): it will not apply (NotFound); did you mean \"shop-prod-plan-2bf06f4b\"? [MS126]"
expect_rc "lint --strict fails on it" 1 "$SIM" lint --strict "$tmp/typo.yaml"
expect_rc "the run of the typo runs" 0 "$SIM" run -q --json "$tmp/typo.json" "$tmp/typo.yaml"
contains "... and says the event did not apply (NotFound)" "$tmp/typo.json" "typo.yaml:20:11: scenario event 1 (status) at 4m30s did not apply: NotFound"

# A Job of the inputs, and a Job an earlier apply event creates, are found.
sed 's/name: shop-prod-plan-2bf06f4b,/name: hand-made,/' "$S" >"$tmp/applied.yaml"
cat >>"$tmp/applied.yaml" <<'YAML'
---
apiVersion: batch/v1
kind: Job
metadata: {name: hand-made, namespace: default}
spec: {backoffLimit: 0}
YAML
expect_rc "a Job of the inputs is found" 0 "$SIM" lint "$tmp/applied.yaml"
lacks "... without MS126" "$tmp/out" "MS126"

finish
