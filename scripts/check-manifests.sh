#!/bin/sh
# Validates the Kubernetes manifests the project ships against the schemas
# the real API server applies, offline (tests/consumers/check-k8s.js):
#   - the CRD kinds of every example (scenarios/**: Rollout, Project,
#     Workspace, FleetRollout, StageSet, and the items of kind: List
#     snapshots) against the pinned upstream CRDs, SHARED/fixtures/upstream/
#     crds, with unknown fields refused as `kubectl apply --validate=strict`
#     refuses them;
#   - the built-in kinds (the Indexed Job of scripts/k8s-trials-job.yaml)
#     against the Kubernetes API schemas (kubernetes-models).
# Kinds of third parties with no CRD here (a Kyverno policy) are skipped.
# A manifest with an unknown field is refused too, so the check can fail.
#
# It reads ../shared, which `make check` must not, so CI (.ci/run) runs it
# beside the tests.  Needs node and the npm packages of tests/consumers
# (MAGOS_CONSUMERS=1 scripts/install-deps.sh).
#
# Usage: scripts/check-manifests.sh [SHARED_DIR]   (default ../shared)
# Prints the validator's lines and "script-totals: P passed, F failed";
# exits 1 on any failure.
set -u
cd "$(dirname "$0")/.."
shared=${1:-../shared}
crds=$shared/fixtures/upstream/crds
check=tests/consumers/check-k8s.js
pass=0
fail=0
if [ ! -d "$crds" ]; then
	echo "check-manifests: no CRDs at $crds" >&2
	exit 2
fi
if ! command -v node >/dev/null 2>&1 || [ ! -d tests/consumers/node_modules/kubernetes-models ]; then
	echo "check-manifests: node and tests/consumers/node_modules needed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2046
node "$check" --crds "$crds" $(find scenarios -name '*.yaml' | sort) scripts/k8s-trials-job.yaml >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
pass=$(grep -c '^ok ' "$tmp/out")
fail=$(grep -c '^FAIL' "$tmp/out")
[ "$rc" -eq 0 ] || [ "$fail" -gt 0 ] || fail=1
# The CRD kinds really were checked: every kind of both engines.
for k in Rollout Project Workspace FleetRollout StageSet; do
	if grep -q "^ok   .* $k/" "$tmp/out"; then pass=$((pass + 1)); else
		echo "FAIL no $k was checked against its CRD"
		fail=$((fail + 1))
	fi
done
# An unknown field and a wrong type are refused.
cat >"$tmp/bad.yaml" <<'YAML'
apiVersion: magosproject.io/v1alpha1
kind: Workspace
metadata: {name: w, namespace: default}
spec:
  projectRef: {name: p}
  source: {repoURL: https://git.example.com/p.git, targetRevision: main, path: p}
  terraform: {version: "1.14.8"}
  autoApplyy: true
---
apiVersion: stages.metio.wtf/v1
kind: FleetRollout
metadata: {name: f}
spec:
  waves: "all"
YAML
node "$check" --crds "$crds" "$tmp/bad.yaml" >"$tmp/bad.out" 2>&1
if [ "$(grep -c '^FAIL' "$tmp/bad.out")" -eq 2 ]; then
	echo "ok   an unknown field and a wrong type are refused"
	pass=$((pass + 1))
else
	echo "FAIL an unknown field and a wrong type are refused"
	sed 's/^/     /' "$tmp/bad.out"
	fail=$((fail + 1))
fi
echo "script-totals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
