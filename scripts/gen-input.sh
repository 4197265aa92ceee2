#!/bin/sh
# Writes a scenario with one large input-side structure to stdout, for the
# input-side rows of BENCHMARKS.md (issue 15: each loads in well under a
# second at N = 100 000):
#
#   scripts/gen-input.sh WHAT N > input.yaml
#
# WHAT is one of
#   annotations  one Workspace with N annotations (N keys in one mapping)
#   labels       one Workspace with N labels (and a Rollout step selecting it)
#   expressions  a Rollout whose one step has N matchExpressions (NotIn, all
#                true of the one Workspace)
#   steps        a Rollout of N steps, each selecting its own Workspace (a
#                step that selects none halts the Rollout: N Workspaces too)
#   generated    spec.generate of N StageSets in N/10 namespaces (at least
#                one), a FleetRollout of one wave present from the start (it
#                approves every member in its first pass); horizon 2s
# Run the first two and the last with `magos-sim run -q`, the middle two with
# `magos-sim lint` (scripts/bench.sh does, BENCH_INPUT selecting the sizes).
# N from 1 to 1 000 000.
set -eu
usage='usage: gen-input.sh annotations|labels|expressions|steps|generated N'
what=${1:?$usage}
n=${2:?$usage}
case "$n" in
'' | *[!0-9]*) echo "$usage" >&2; exit 2 ;;
esac
if [ "$n" -lt 1 ] || [ "$n" -gt 1000000 ]; then
	echo "gen-input.sh: N must be 1..1000000" >&2
	exit 2
fi
magos_head() {
	cat <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: input-$what-$n}
spec:
  seed: 1
  horizon: ${1}
---
apiVersion: magosproject.io/v1alpha1
kind: Project
metadata: {name: p, namespace: default}
spec: {}
EOF
}
workspace() { # NAME, then the labels/annotations block on stdin
	printf -- '---\napiVersion: magosproject.io/v1alpha1\nkind: Workspace\nmetadata:\n  name: %s\n  namespace: default\n' "$1"
	cat
	printf 'spec:\n  projectRef: {name: p}\n'
	printf '  source: {repoURL: "https://git.example.com/infra.git", targetRevision: main, path: "stacks/%s"}\n' "$1"
	printf '  terraform: {version: "1.14.8"}\n'
}
case "$what" in
annotations)
	magos_head 1h
	awk -v n="$n" 'BEGIN { print "  annotations:"; for (i = 0; i < n; i++) printf "    example.com/k%d: \"v%d\"\n", i, i }' | workspace ws-0
	;;
labels)
	magos_head 1h
	printf -- '---\napiVersion: magosproject.io/v1alpha1\nkind: Rollout\nmetadata: {name: p, namespace: default}\nspec:\n  projectRef: p\n  strategy:\n    steps:\n      - {name: all, selector: {matchLabels: {k0: v0}}}\n'
	awk -v n="$n" 'BEGIN { print "  labels:"; for (i = 0; i < n; i++) printf "    k%d: v%d\n", i, i }' | workspace ws-0
	;;
expressions)
	magos_head 1h
	printf -- '---\napiVersion: magosproject.io/v1alpha1\nkind: Rollout\nmetadata: {name: p, namespace: default}\nspec:\n  projectRef: p\n  strategy:\n    steps:\n      - name: all\n        selector:\n          matchExpressions:\n'
	awk -v n="$n" 'BEGIN { for (i = n - 1; i >= 0; i--) printf "            - {key: k%d, operator: NotIn, values: [x]}\n", i }'
	printf '  labels: {k0: v0}\n' | workspace ws-0
	;;
steps)
	magos_head 1h
	printf -- '---\napiVersion: magosproject.io/v1alpha1\nkind: Rollout\nmetadata: {name: p, namespace: default}\nspec:\n  projectRef: p\n  strategy:\n    steps:\n'
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "      - {name: s%d, selector: {matchLabels: {step: \"%d\"}}}\n", i, i }'
	awk -v n="$n" 'BEGIN {
		for (i = 0; i < n; i++) {
			printf "---\napiVersion: magosproject.io/v1alpha1\nkind: Workspace\n"
			printf "metadata: {name: ws-%d, namespace: default, labels: {step: \"%d\"}, annotations: {magosproject.io/reconcile-interval: 87600h}}\n", i, i
			printf "spec:\n  projectRef: {name: p}\n"
			printf "  source: {repoURL: \"https://git.example.com/infra.git\", targetRevision: main, path: \"stacks/%d\"}\n", i
			printf "  terraform: {version: \"1.14.8\"}\n"
		}
	}'
	;;
generated)
	ns=$((n / 10))
	[ "$ns" -ge 1 ] || ns=1
	cat <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: input-generated-$n}
spec:
  seed: 1
  horizon: 2s
  limits: {eventBudget: $((n * 20 + 1000000))}
  models:
    stagesets:
      apply: {duration: 100ms}
      readiness: {delay: 0s}
  generate:
    - count: $n
      namespace: "tenant-{i}"
      name: app
      labels: {app: bench}
      namespaceLabels: {tenant: "true"}
      template:
        version: {value: "1.1.0", approvalMode: Always}
        stages: [{name: app, sourceRef: {kind: GitRepository, name: app}}]
---
apiVersion: stages.metio.wtf/v1
kind: FleetRollout
metadata: {name: bench}
spec:
  selector: {matchLabels: {app: bench}}
  namespaceSelector: {matchLabels: {tenant: "true"}}
  waves:
    - {name: all, selector: {matchLabels: {app: bench}}}
EOF
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
