#!/bin/sh
# A FleetRollout gate whose query has no series in spec.metrics: the API
# server accepts the manifest and lint does not ask for series (only a run
# reads them), while run and check refuse the input.  check reports it as
# MS004 (gate-series-missing) with a fix about spec.metrics, not as MS001
# (admission-refused) with kubectl's dry run, whether the manifest comes
# from a file or from standard input.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

cat >"$tmp/fleet.yaml" <<'YAML'
apiVersion: stages.metio.wtf/v1
kind: FleetRollout
metadata: {name: moodle}
spec:
  targetVersion: "4.6.0"
  selector: {matchLabels: {app: moodle}}
  waves:
    - name: canary
      selector: {matchLabels: {ring: "0"}}
      soak: 10m
      gate:
        source:
          prometheus:
            address: http://prometheus.monitoring:9090
            query: 'sum(rate(http_requests_total{app="moodle",code=~"5.."}[5m]))'
        threshold: {max: "0.01"}
    - name: rest
      selector: {matchLabels: {ring: "1"}}
YAML

expect_rc "lint accepts a gate without a series" 0 "$SIM" lint "$tmp/fleet.yaml"
lacks "... and says nothing of series" "$tmp/out" "MS004"

expect_rc "run refuses it" 3 "$SIM" run "$tmp/fleet.yaml"
contains "... at the query, saying what is missing" "$tmp/err" \
	"fleet.yaml:15:20: error: FleetRollout \"moodle\": wave \"canary\": no series in spec.metrics for the gate query"
contains "... and what to add" "$tmp/err" \
	"fleet.yaml:15:20: note: every prometheus gate reads a synthetic series: add a Scenario document"

for how in file stdin; do
	if [ $how = file ]; then
		expect_rc "check refuses it ($how)" 3 "$SIM" check --no-color "$tmp/fleet.yaml"
	else
		expect_rc "check refuses it ($how)" 3 sh -c "cat '$tmp/fleet.yaml' | '$SIM' check --no-color -"
	fi
	contains "... as MS004" "$tmp/out" ":15:20: MS004: FleetRollout \"moodle\": wave \"canary\": no series in spec.metrics for the gate query"
	contains "... with the fix about spec.metrics" "$tmp/out" \
		"(add an entry with the gate's exact query (and address, when the gate names one) to spec.metrics of a Scenario document that includes the manifests (scenarios/README.md, *Gate series*))"
	lacks "... not as an admission refusal" "$tmp/out" "MS001"
	lacks "... nor with kubectl's dry run" "$tmp/out" "dry-run"
done

expect_rc "lint --list-rules names MS004" 0 "$SIM" lint --list-rules
contains "... gate-series-missing" "$tmp/out" "MS004  error    gate-series-missing"

finish
