#!/bin/sh
# Writes a Magos scenario with N Workspaces in one Project to stdout, for the
# benchmarks of BENCHMARKS.md:
#
#   scripts/gen-magos-fleet.sh N STEPS > fleet.yaml
#
# STEPS = 0: no Rollout, the Project grants every Workspace at once
# (DefaultParallel).  STEPS > 0: a Rollout of STEPS steps, Workspace i in step
# i mod STEPS (label `wave`).  Models are the defaults (no failures).  Every
# Workspace reconciles every 12h: with the 3m default a first run of 10 steps
# never completes (each Applied Workspace re-runs at its next tick and the
# Rollout rewinds to it) — true of the real controllers too.
set -eu
n=${1:?usage: gen-magos-fleet.sh N STEPS}
steps=${2:?usage: gen-magos-fleet.sh N STEPS}
cat <<EOF2
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: fleet-$n-$steps}
spec:
  seed: 1
  horizon: 24h
---
apiVersion: magosproject.io/v1alpha1
kind: Project
metadata: {name: fleet, namespace: default}
spec: {}
EOF2
if [ "$steps" -gt 0 ]; then
	printf -- '---\napiVersion: magosproject.io/v1alpha1\nkind: Rollout\nmetadata: {name: fleet, namespace: default}\nspec:\n  projectRef: fleet\n  strategy:\n    steps:\n'
	i=0
	while [ "$i" -lt "$steps" ]; do
		printf '      - {name: wave-%d, selector: {matchLabels: {wave: "%d"}}}\n' "$i" "$i"
		i=$((i + 1))
	done
fi
awk -v n="$n" -v steps="$steps" 'BEGIN {
	for (i = 0; i < n; i++) {
		w = steps > 0 ? i % steps : 0
		printf "---\napiVersion: magosproject.io/v1alpha1\nkind: Workspace\n"
		printf "metadata:\n  name: ws-%05d\n  namespace: default\n  labels: {wave: \"%d\"}\n", i, w
		printf "  annotations: {magosproject.io/reconcile-interval: 12h}\n"
		printf "spec:\n  projectRef: {name: fleet}\n"
		printf "  source: {repoURL: \"https://git.example.com/infra.git\", targetRevision: main, path: \"stacks/%05d\"}\n", i
		printf "  terraform: {version: \"1.14.8\"}\n"
	}
}'
