#!/bin/sh
# Writes a FleetRollout scenario with a generated fleet to stdout, for the
# benchmarks of BENCHMARKS.md:
#
#   scripts/gen-fleet.sh N NAMESPACES WAVES > fleet.yaml
#
# N StageSets `app-<s>` (label app: bench) spread over NAMESPACES Namespaces
# `tenant-<i>` (label tenant: "true"), ceil(N / NAMESPACES) or one fewer per
# namespace; within each slot s the namespaces are shared out over WAVES
# waves by the label mix `wave: "<k>"` (equal weights, so namespaces in index
# order fill wave 0, then wave 1, ...).  One FleetRollout in derived mode:
# wave k selects `wave: "<k>"` and soaks 5m; wave 0 also has a Prometheus
# gate (max 0.01) whose series stays at 0.001 for the whole horizon.
#
# Members take the default model (no failures, no regressions, 4
# stageset-controller workers, 15m verify wait, 10m steady requeue) but for
# the adoption duration: uniform 0.5s-1.5s instead of the constant 2m,
# because each of the 4 workers adopts one member at a time, so the default
# would need N/2 minutes per version (83 h for 10 000 members).
#
# The members start on 1.0.0 (their spec.version.value: the baseline,
# adopted without approval).  1.1.0 is published at P, when the baseline
# should be done (N/4 x 1s x 1.25 rounded up to whole minutes, at least 10m;
# every member then holds it for approval), and the FleetRollout is created
# by an apply event at P + 1m and rolls it out.  Created after the baseline,
# its Completed is the rollout of 1.1.0: a run ends at the first Completed
# it sees, and a FleetRollout present from the start would complete on the
# baseline.  Horizon: 2P + 2h.
set -eu
usage='usage: gen-fleet.sh N NAMESPACES WAVES'
n=${1:?$usage}
ns=${2:?$usage}
waves=${3:?$usage}
case "$n$ns$waves" in
*[!0-9]*) echo "$usage" >&2; exit 2 ;;
esac
if [ "$n" -lt 1 ] || [ "$ns" -lt 1 ] || [ "$waves" -lt 1 ] || [ "$ns" -gt "$n" ] || [ "$waves" -gt "$ns" ]; then
	echo "gen-fleet.sh: need 1 <= WAVES <= NAMESPACES <= N" >&2
	exit 2
fi
# P = ceil(N x 1.25 s / 4 / 60 s) minutes, at least 10
publish=$(( (n * 125 + 400 * 60 - 1) / (400 * 60) ))
[ "$publish" -ge 10 ] || publish=10
horizon=$((2 * publish + 120))
# About 50 events per member (10 000 members: 496 555); 200 leaves room.
budget=$((n * 200))
[ "$budget" -ge 1000000 ] || budget=1000000
q='sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m]))'
cat <<EOF
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: fleet-$n-$ns-$waves}
spec:
  seed: 1
  horizon: ${horizon}m
  limits: {eventBudget: $budget}
  metrics:
    - query: '$q'
      interval: 1m
      values: "0.001x$((horizon + 10))"
  models:
    stagesets:
      adoption: {duration: {uniform: {min: 500ms, max: 1500ms}}}
  events:
    - at: ${publish}m
      publish: {selector: {matchLabels: {app: bench}}, version: "1.1.0"}
    - at: $((publish + 1))m
      apply:
        apiVersion: stages.metio.wtf/v1
        kind: FleetRollout
        metadata: {name: bench}
        spec:
          selector: {matchLabels: {app: bench}}
          namespaceSelector: {matchLabels: {tenant: "true"}}
          waves:
EOF
awk -v waves="$waves" -v q="$q" 'BEGIN {
	for (k = 0; k < waves; k++) {
		printf "            - name: wave-%d\n", k
		printf "              selector: {matchLabels: {wave: \"%d\"}}\n", k
		printf "              soak: 5m\n"
		if (k == 0) {
			printf "              gate:\n"
			printf "                source:\n"
			printf "                  prometheus:\n"
			printf "                    address: http://prometheus.monitoring:9090\n"
			printf "                    query: '\''%s'\''\n", q
			printf "                threshold: {max: \"0.01\"}\n"
		}
	}
}'
echo "  generate:"
# Slot s holds StageSet app-<s> of the first min(NAMESPACES, N - s*NAMESPACES)
# namespaces.
awk -v n="$n" -v ns="$ns" -v waves="$waves" 'BEGIN {
	width = length(ns - 1 "")
	for (s = 0; s * ns < n; s++) {
		count = n - s * ns
		if (count > ns)
			count = ns
		printf "    - count: %d\n", count
		printf "      namespace: \"tenant-{i:0%d}\"\n", width
		printf "      name: app-%d\n", s
		printf "      labels: {app: bench}\n"
		printf "      namespaceLabels: {tenant: \"true\"}\n"
		printf "      labelMix:\n"
		for (k = 0; k < waves; k++)
			printf "        - {labels: {wave: \"%d\"}}\n", k
		printf "      template:\n"
		printf "        version: {value: \"1.0.0\", approvalMode: Always}\n"
		printf "        stages: [{name: app, sourceRef: {kind: GitRepository, name: app}}]\n"
	}
}'
