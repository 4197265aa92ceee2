#!/bin/sh
# `check` and the number of trials a percentile limit is read over: the
# result says how many ("p95 over 1 trial"), a percentile checked on fewer
# trials than it needs warns beside its result without failing the check,
# and spec.expect.trials or check -n give it enough.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

# The checkout manifests with a Scenario that limits the p95 time to complete.
{
	cat <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: p95}
spec:
  seed: 3
  models:
    jobs:
      plan: {duration: {lognormal: {median: 20s, p95: 1m}}}
      apply: {duration: {lognormal: {median: 30s, p95: 1m30s}}}
  expect:
    timeToComplete: {p95: {max: 2h}, p50: {max: 2h}}
YAML
	for f in scenarios/checkout/*.yaml; do
		echo '---'
		cat "$f"
	done
} >"$tmp/p95.yaml"

expect_rc "check with the default trials passes" 0 "$SIM" check --no-color "$tmp/p95.yaml"
contains "the p95 says it is over 1 trial" "$tmp/out" "(p95 over 1 trial)"
contains "a warning says 1 trial is no p95" "$tmp/out" "WARN  $tmp/p95.yaml:11:22: timeToComplete.p95: p95 time"
contains "... in these words" "$tmp/out" \
	"p95.yaml:11:22: timeToComplete.p95: p95 time to complete over 1 trial is that trial's value, not a p95: a p95 needs at least 20 trials to mean anything; set spec.expect.trials or give check -n 20 or more"
contains "... and the p50 its 2 trials" "$tmp/out" "a p50 needs at least 2 trials"

expect_rc "check -n 20 passes" 0 "$SIM" check --no-color -n 20 "$tmp/p95.yaml"
contains "the p95 is over 20 trials" "$tmp/out" "(p95 over 20 trials)"
lacks "no warning with enough trials" "$tmp/out" "WARN"

sed 's/^  expect:$/  expect:\n    trials: 20/' "$tmp/p95.yaml" >"$tmp/p95-20.yaml"
expect_rc "spec.expect.trials: 20 passes" 0 "$SIM" check --no-color "$tmp/p95-20.yaml"
contains "... over 20 trials" "$tmp/out" "(p95 over 20 trials)"
lacks "... without a warning" "$tmp/out" "WARN"

finish
