#!/bin/sh
# "Did you mean": a near miss of a name the command knows is answered with
# that name, wherever a user writes one (a spec.expect metric, a --sweep
# parameter, a rule id for lint --disable, which takes ids in any case).
. "$(dirname "$0")/lib.sh"
require_sim
SC=scenarios/three-environments.yaml

cat >"$tmp/expect.yaml" <<'YAML'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: expect-typo}
spec:
  expect:
    haltProbabilty: {max: 0.1}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
YAML
expect_rc "check: a misspelt spec.expect metric makes the input invalid" 3 "$SIM" check --no-color "$tmp/expect.yaml"
has_line "... the error names it" "$tmp/err" "$tmp/expect.yaml:6:5: error: spec.expect: unknown metric \"haltProbabilty\""
has_line "... and the metric it is closest to" "$tmp/err" "$tmp/expect.yaml:6:5: note: did you mean \"haltProbability\"?"

expect_rc "run --sweep capcity= is a usage error" 2 "$SIM" run -n 2 --sweep capcity=1,2 "$SC"
contains "... that suggests capacity" "$tmp/err" "magos-sim run: unknown sweep parameter 'capcity': did you mean 'capacity'? accepted: capacity, "
expect_rc "run --sweep of something far from every parameter" 2 "$SIM" run -n 2 --sweep speed=1,2 "$SC"
contains "... lists them without a guess" "$tmp/err" "magos-sim run: unknown sweep parameter 'speed'; accepted: capacity, "

expect_rc "lint --disable ms108 takes the id in lower case" 0 "$SIM" lint --disable ms108 "$SC"
expect_rc "lint --disable MS1088 is a usage error" 2 "$SIM" lint --disable MS1088 "$SC"
contains "... that suggests MS108" "$tmp/err" "magos-sim lint: unknown rule 'MS1088' in --disable (did you mean MS108?); rules: MS001, "

finish
