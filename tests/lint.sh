#!/bin/sh
# End-to-end checks of `magos-sim lint`: findings printed GNU style with the
# rule id and a fix line, exit codes (0 clean or warnings only, 1 an error
# finding or --strict with warnings, 2 usage, 3 unreadable input), --disable,
# --format json (validated with python3 -m json.tool), inputs a cluster
# accepts (empty documents, unknown kinds), the upstream fixtures, and
# docs/lint-rules.md against the rule table (UPDATE=1 rewrites the doc).
. "$(dirname "$0")/lib.sh"
L=tests/lint

# ---- exit codes ---------------------------------------------------------------
expect_rc "clean manifests pass" 0 "$SIM" lint $L/clean.yaml
has_line "clean: summary line" "$tmp/out" "4 objects in 1 file checked, no problems found"
expect_rc "error findings fail with 1" 1 "$SIM" lint $L/errors.yaml
has_line "MS101 printed GNU style at the step's selector" "$tmp/out" \
	"$L/errors.yaml:21:19: error: Rollout \"default/shop\": steps[2] \"staging\": selector env=staging matches no Workspace of project \"shop\" in namespace default: the controller halts the whole Rollout with NoWorkspacesFound [MS101]"
has_line "a fix line follows" "$tmp/out" \
	"  fix: fix the step's selector or add the Workspace it should select (same namespace, spec.projectRef.name = the Rollout's projectRef)"
has_line "MS107 points at the annotation's value" "$tmp/out" \
	"$L/errors.yaml:29:41: error: Workspace \"default/shop-dev\": annotation magosproject.io/reconcile-interval=\"0\" is not positive: the Workspace controller loops forever computing the next reconcile time and its only worker stops [MS107]"
if grep -q "^$L/errors.yaml:19:19: warning: .*\[MS103\]$" "$tmp/out"; then ok "MS103 warning at the overlapping step"; else bad "MS103 warning at the overlapping step"; fi
has_line "errors: summary line" "$tmp/out" "2 errors, 1 warning, 0 infos in 1 file (4 objects)"
# Findings come in file order: line 19 before 21 before 29.
if [ "$(grep -o '^[^ ]*yaml:[0-9]*' "$tmp/out" | cut -d: -f2 | tr '\n' ' ')" = "19 21 29 " ]; then
	ok "findings sorted by line"; else bad "findings sorted by line"; fi

expect_rc "warnings alone pass" 0 "$SIM" lint $L/warnings.yaml
has_line "MS105 at the Workspace's projectRef" "$tmp/out" \
	"$L/warnings.yaml:35:22: warning: Workspace \"default/shop-test\" of project \"shop\" is selected by no step of Rollout \"default/shop\": nothing ever grants it execution [MS105]"
if grep -q "^$L/warnings.yaml:25:14: warning: .*\[MS109\]$" "$tmp/out"; then ok "MS109 at autoApply"; else bad "MS109 at autoApply"; fi
expect_rc "--strict makes warnings fail" 1 "$SIM" lint --strict $L/warnings.yaml
expect_rc "--disable both warnings passes --strict" 0 "$SIM" lint --strict --disable MS105,MS109 $L/warnings.yaml
has_line "disabled findings are not printed" "$tmp/out" "4 objects in 1 file checked, no problems found"
expect_rc "--disable repeated" 0 "$SIM" lint --strict --disable MS105 --disable MS109 $L/warnings.yaml
expect_rc "--disable one leaves the other" 1 "$SIM" lint --strict --disable MS105 $L/warnings.yaml
lacks "--disable MS105: MS105 gone" "$tmp/out" "[MS105]"
expect_rc "--disable an error rule passes" 0 "$SIM" lint --disable MS101,MS107 $L/errors.yaml

expect_rc "admission refusal fails with 1" 1 "$SIM" lint $L/admission.yaml
if grep -q "^$L/admission.yaml:[0-9]*:[0-9]*: error: Rollout \"default/shop\": .*Rollout name must exactly match the projectRef.*\[MS001\]$" "$tmp/out"; then
	ok "MS001 carries the CEL message"; else bad "MS001 carries the CEL message"; fi
expect_rc "YAML that does not parse is exit 3" 3 "$SIM" lint $L/broken.yaml
if grep -q "^$L/broken.yaml:4:1: error: .*\[MS002\]$" "$tmp/out"; then ok "MS002 at the syntax error"; else bad "MS002 at the syntax error"; fi
# An unknown field: the fix names the fields accepted at that level, and the nearest one.
expect_rc "unknown scenario fields are exit 3" 3 "$SIM" lint $L/unknown-keys.yaml
has_line "MS002 at the unknown field, the message alone" "$tmp/out" \
	"$L/unknown-keys.yaml:8:3: error: unknown field \"spec.horizn\" [MS002]"
has_line "its fix names the nearest field and those accepted there" "$tmp/out" \
	"  fix: rename it to \"horizon\", the nearest of the fields spec accepts: seed, horizon, start, include, api, limits, events, models, metrics, fleet, generate, expect, variants, sweep"
has_line "no near field: the fix lists those accepted" "$tmp/out" \
	"  fix: use one of the fields spec.models accepts: jobs, policies, git, stagesets, sources, or remove it"
expect_rc "unknown fields as JSON" 3 "$SIM" lint --format json $L/unknown-keys.yaml
if python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; assert f[0]["fix"].startswith("rename it to \"horizon\", the nearest"), f' "$tmp/out"; then
	ok "json: the finding's own fix"; else bad "json: the finding's own fix"; fi
expect_rc "unknown fields as SARIF" 3 "$SIM" lint --format sarif $L/unknown-keys.yaml
contains "sarif: the result message holds its fix" "$tmp/out" \
	'"text": "unknown field \"spec.models.workspace\" (use one of the fields spec.models accepts: jobs, policies, git, stagesets, sources, or remove it)"'
# A note about the load as a whole (the sources modelled) is no part of the error before it.
expect_rc "a bad sources object is exit 3" 3 "$SIM" lint $L/sources-bad-object.yaml
has_line "the bad sources object: the error's message alone" "$tmp/out" \
	"$L/sources-bad-object.yaml:16:17: error: spec.models.sources[0].objects.app: Invalid value: \"Configmap/cm-a\": an object is \"Kind/name\", the name a DNS-1123 subdomain and the kind one of ConfigMap, CronJob, DaemonSet, Deployment, HorizontalPodAutoscaler, Ingress, Job, NetworkPolicy, PersistentVolumeClaim, PodDisruptionBudget, Role, RoleBinding, Secret, Service, ServiceAccount, StatefulSet [MS002]"
expect_rc "a bad sources object as JSON" 3 "$SIM" lint --format json $L/sources-bad-object.yaml
if python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; assert len(f) == 1 and f[0]["message"].endswith("ServiceAccount, StatefulSet") and "modelled" not in f[0]["message"], f' "$tmp/out"; then
	ok "json: the bad sources object's finding holds no note about the sources modelled"; else
	bad "json: the bad sources object's finding holds no note about the sources modelled"; show "$tmp/out"; fi
expect_rc "a bad sources object as SARIF" 3 "$SIM" lint --format sarif $L/sources-bad-object.yaml
if python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["results"]; assert len(r) == 1 and "ServiceAccount, StatefulSet" in r[0]["message"]["text"] and "modelled" not in r[0]["message"]["text"], r' "$tmp/out"; then
	ok "sarif: the bad sources object's result holds no note about the sources modelled"; else
	bad "sarif: the bad sources object's result holds no note about the sources modelled"; show "$tmp/out"; fi
"$SIM" run $L/sources-bad-object.yaml >"$tmp/out" 2>&1
has_line "run tells the sources modelled on a line of its own" "$tmp/out" \
	"$L/sources-bad-object.yaml:5:1: note: 1 source the StageSets name is not in the inputs and is modelled: Ready, with a new revision at each publish that reaches a StageSet using it; spec.models.sources makes it missing, not Ready, Forbidden or unfetchable for a while, or gives it new revisions apart from any publish (updates)"
expect_rc "a missing file is exit 3" 3 "$SIM" lint "$tmp/nope.yaml"
expect_rc "unreadable input wins over other errors" 3 "$SIM" lint $L/errors.yaml "$tmp/nope.yaml"
expect_rc "empty documents and unknown kinds load, and leave nothing to simulate" 3 "$SIM" lint $L/odd.yaml
has_line "odd: the one error is that nothing is left to simulate" "$tmp/out" "1 error, 0 warnings, 0 infos in 1 file (2 objects: 0 admitted, 2 ignored, of kinds not simulated)"
# The summary counts the objects refused and ignored, not only those admitted.
expect_rc "refused manifests" 3 "$SIM" lint $L/refused.yaml
has_line "refused: summary says what became of each object" "$tmp/out" \
	"5 errors, 0 warnings, 0 infos in 1 file (7 objects: 1 admitted, 5 refused, 1 ignored, of kinds not simulated)"
expect_rc "refused manifests, their findings disabled" 3 "$SIM" lint --disable MS001,MS002 $L/refused.yaml
has_line "refused, disabled: still counted" "$tmp/out" \
	"1 of 7 objects in 1 file checked (5 refused, 1 ignored, of kinds not simulated), no problems found"
# A refused Workspace: the step that would select it is not also MS101 (a cascade).
expect_rc "a refused Workspace fails with 1" 1 "$SIM" lint $L/refused-workspace.yaml
contains "its refusal is MS001" "$tmp/out" "Workspace \"default/shop-prod\": unknown field \"spec.bogus\" [MS001]"
lacks "the step that would select it is no MS101" "$tmp/out" "steps[1] \"prod\""
contains "a step that would select nothing anyway still is" "$tmp/out" "steps[2] \"qa\": selector env=qa matches no Workspace"
# A refused StageSet (a type error; an unknown field in a spec.generate template):
# a publish selector that would match it is not also "no StageSet matches" (MS003).
expect_rc "a refused StageSet fails with 1" 1 "$SIM" lint $L/refused-stageset.yaml
contains "its refusal is MS001" "$tmp/out" "StageSet \"shop/shop\": spec.version: Invalid value"
lacks "the publish that would match it is no MS003" "$tmp/out" "no StageSet of the inputs matches"
has_line "refused StageSet: summary" "$tmp/out" "1 error, 0 warnings, 0 infos in 1 file (2 objects: 1 admitted, 1 refused)"
expect_rc "a refused generated StageSet fails with 1" 1 "$SIM" lint $L/refused-stageset-generate.yaml
contains "its refusal is MS001" "$tmp/out" "StageSet \"tenant-00/shop\": unknown field \"spec.bogus\""
lacks "the publish that would match it is no MS003" "$tmp/out" "no StageSet of the inputs matches"
# ... nor a FleetRollout that selects none of the StageSets, nor a wave none of its members.
expect_rc "a refused fleet member fails with 1" 1 "$SIM" lint $L/refused-stageset-fleet.yaml
lacks "a refused member: no MS217" "$tmp/out" "[MS217]"
lacks "a refused member: no MS212" "$tmp/out" "[MS212]"
contains "a refused member: the admitted one's findings stay" "$tmp/out" "FleetRollout both selects StageSet shop/other without spec.version.approvalMode Always"
# A StageSet spec the controller refuses at its first pass (ValidateSpec): MS284 with its message.
S=$L/stageset-invalid-spec.yaml
expect_rc "a StageSet the controller refuses fails with 1" 1 "$SIM" lint $S
has_line "MS284 at a four-field schedule" "$tmp/out" \
	"$S:16:17: error: StageSet shop/cron: schedule \"0 16 * *\": expected exactly 5 fields, found 4: [0 16 * *]; the controller reports Ready False InvalidSpec from its first pass and never reconciles it [MS284]"
has_line "MS284 at an unknown time zone" "$tmp/out" \
	"$S:32:17: error: StageSet shop/zone: timeZone \"Europe/Berlinn\": unknown time zone Europe/Berlinn; the controller reports Ready False InvalidSpec from its first pass and never reconciles it [MS284]"
has_line "MS284 at the second stage of a duplicate name" "$tmp/out" \
	"$S:45:13: error: StageSet shop/stages: stage name \"app\" is not unique; stage names must be unique within the StageSet; the controller reports Ready False InvalidSpec from its first pass and never reconciles it [MS284]"
has_line "MS284 at the StageSet when the message names no field it can place" "$tmp/out" \
	"$S:48:1: error: StageSet shop/source: spec.migrationsSourceRef must reference a source in the StageSet's own namespace; cross-namespace migration sources are not allowed; the controller reports Ready False InvalidSpec from its first pass and never reconciles it [MS284]"
has_line "invalid specs: summary" "$tmp/out" "4 errors, 0 warnings, 0 infos in 1 file (5 objects)"
expect_rc "the update-window example lints clean" 0 "$SIM" lint scenarios/stageset-update-window.yaml
# Plain manifest files are one cluster: the Rollout sees the Workspaces of the other file.
expect_rc "manifest files are linted together" 0 "$SIM" lint $L/split/rollout.yaml $L/split/workspaces.yaml
expect_rc "a directory is linted as one" 0 "$SIM" lint $L/split
expect_rc "alone, the Rollout's step matches nothing" 1 "$SIM" lint $L/split/rollout.yaml
# A scenario file is its own world; the plain manifests beside it are another.
expect_rc "a scenario and manifests side by side" 0 "$SIM" lint scenarios/payments-platform.yaml $L/split/workspaces.yaml $L/split/rollout.yaml
if grep -q "^scenarios/payments-platform/legacy.yaml:[0-9]*:[0-9]*: warning: Workspace \"default/payments-legacy\" .*\[MS105\]$" "$tmp/out"; then
	ok "the scenario's included manifests are linted"; else bad "the scenario's included manifests are linted"; fi

# A plain FleetRollout with a Prometheus gate: the API server accepts it; only a run needs a series.
expect_rc "a plain gated FleetRollout lints clean" 0 "$SIM" lint $L/gated-fleet.yaml
has_line "gated fleet: nothing to say" "$tmp/out" "1 object in 1 file checked, no problems found"
expect_rc "run still wants the gate's series" 3 "$SIM" run $L/gated-fleet.yaml
if grep -q "no series in spec.metrics" "$tmp/err"; then ok "run names the missing series"; else bad "run names the missing series"; fi
# A directory of scenarios: each scenario on its own, its includes with it, never all as one.
expect_rc "lint scenarios/ (deliberate hazards are errors)" 1 "$SIM" lint scenarios/
lacks "scenarios/: no 'second Scenario document'" "$tmp/out" "second Scenario document"
lacks "scenarios/: no duplicate objects across scenarios" "$tmp/out" "already exists"
if grep -q "^scenarios/payments-platform/legacy.yaml:[0-9]*:[0-9]*: warning: .*\[MS105\]$" "$tmp/out"; then
	ok "scenarios/: an included manifest is linted with its scenario"; else bad "scenarios/: an included manifest is linted with its scenario"; fi
if [ "$(grep -c '\[MS105\]$' "$tmp/out")" = 1 ]; then ok "scenarios/: the included manifest once"; else bad "scenarios/: the included manifest once"; fi
expect_rc "scenarios/ci lints clean" 0 "$SIM" lint scenarios/ci

# Variants are linted: their own findings carry the variant's name, the base's are not repeated,
# and a series only a variant's gate reads is not "unread".
V=$L/variant-gate.yaml
expect_rc "a variant's errors fail lint" 1 "$SIM" lint $V
has_line "variant: MS201" "$tmp/out" \
	"$V:22:15: error: variant \"gated\": FleetRollout shop selects StageSet default/shop that no wave selector matches; the controller stops with MembersUnassigned and approves nothing [MS201]"
if grep -q "^$V:27:45: error: variant \"gated\": .*\"ftp://\".*\[MS216\]$" "$tmp/out"; then ok "variant: MS216 at the address"; else bad "variant: MS216 at the address"; fi
if grep -q "^$V:28:38: error: variant \"gated\": .*\"1%\".*\[MS205\]$" "$tmp/out"; then ok "variant: MS205 at the bound"; else bad "variant: MS205 at the bound"; fi
lacks "variant: the series its gate reads is not unread" "$tmp/out" "spec.metrics[0]: no FleetRollout gate reads"
has_line "variant: a series nobody reads still is" "$tmp/out" \
	"$V:14:14: warning: spec.metrics[1]: no FleetRollout gate reads this series [MS003]"
has_line "variant: summary" "$tmp/out" "3 errors, 2 warnings, 0 infos in 1 file (2 objects)"
expect_rc "what-if-canary-soak's variants lint clean of errors" 0 "$SIM" lint scenarios/what-if-canary-soak.yaml
lacks "what-if-canary-soak: no variant errors" "$tmp/out" "error: variant \""
# A variant's waves come from its patch, so the timing rules speak of them with the variant's numbers.
contains "what-if-canary-soak: the 5% variant's failure odds" "$tmp/out" \
	'warning: variant "failure rate 5%": FleetRollout shop: 16 members in 3 waves (the first: wave "canary") may fail to become ready on a new version (e.g. tenant-00/shop: 0.05 per rollout'
lacks "what-if-canary-soak: a 15m canary soak ends before the 20m30s falter" "$tmp/out" \
	'variant "soak 15m instead of 30m": FleetRollout shop wave "canary" soaks'
contains "what-if-canary-soak: the base's 30m canary soak does not" "$tmp/out" \
	'warning: FleetRollout shop wave "canary" soaks 30m0s, and 2 of its 2 members may regress sooner once ready'

# A variant's error is told once, naming the variant once (not again as the variant's finding).
VB=tests/badinput/99-variant-bad-duration.yaml
expect_rc "a variant's bad duration is exit 3" 3 "$SIM" lint $VB
n=$(grep -c "podStartup" "$tmp/out")
if [ "$n" = 1 ]; then ok "a variant's bad duration: one finding"; else bad "a variant's bad duration: one finding ($n)"; fi
VB=tests/badinput/99-variants-every-error.yaml
expect_rc "variants' errors are exit 3" 3 "$SIM" lint $VB
n=$(grep -c "no Workspace \"default/shop-qa\"" "$tmp/out")
if [ "$n" = 1 ]; then ok "variants' errors: a missing target once"; else bad "variants' errors: a missing target once ($n)"; fi
lacks "variants' errors: the variant named once" "$tmp/out" "variant \"v"
has_line "variants' errors: a refused patch, named once" "$tmp/out" \
	"$VB:25:19: error: spec.variants[2].patches[0]: variant 'v3': the patched Workspace \"default/shop-prod\" is invalid: Workspace \"default/shop-prod\": spec.projectRef.name: Required value [MS002]"
has_line "variants' errors: 4 errors" "$tmp/out" "4 errors, 0 warnings, 0 infos in 1 file (4 objects)"

# MS002's fix fits the kind of error: a path, YAML syntax, a Scenario field.
printf 'apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  horizon: -5m\n  models:\n    jobs:\n      plan: {duration: {lognormal: {median: 1m, p95: 30s}}}\n      apply: {duration: {normal: {mean: 1m}}}\n' >"$tmp/fields.yaml"
expect_rc "bad Scenario fields are exit 3" 3 "$SIM" lint "$tmp/fields.yaml"
lacks "Scenario fields: no advice on paths and YAML" "$tmp/out" "names a readable file or directory"
if [ "$(grep -c '^  fix: write a value of the kind the message accepts; scenarios/README.md, The Scenario document' "$tmp/out")" = 1 ] &&
	[ "$(grep -c '^  fix: write a value of the kind the message accepts; scenarios/README.md, Models' "$tmp/out")" = 1 ] &&
	[ "$(grep -c '^  fix: add the field the message names' "$tmp/out")" = 1 ]; then
	ok "Scenario fields: a fix for a bad value, a model's bad value, a missing field"
else bad "Scenario fields: a fix for a bad value, a model's bad value, a missing field"; sed 's/^/     /' "$tmp/out"; fi
expect_rc "a taken variant name" 3 "$SIM" lint $VB
has_line "a taken name: its fix" "$tmp/out" \
	"  fix: give the entry a name no other entry of the list has; the message names the one that has it"
expect_rc "YAML syntax" 3 "$SIM" lint $L/broken.yaml
has_line "YAML syntax: its fix" "$tmp/out" \
	"  fix: correct the YAML at the place named: an unclosed bracket or quote, a missing ':', a tab, an indentation out of line"
mkdir "$tmp/empty"
expect_rc "an empty directory" 3 "$SIM" lint "$tmp/empty"
has_line "an empty directory: its fix" "$tmp/out" \
	"  fix: check that the path exists and names a readable file, or a directory holding *.yaml, *.yml or *.json files"

# ---- usage --------------------------------------------------------------------
expect_rc "no file is a usage error" 2 "$SIM" lint
expect_rc "unknown rule in --disable is a usage error" 2 "$SIM" lint --disable MS101,MS999 $L/clean.yaml
if grep -q "unknown rule 'MS999' in --disable; rules: MS001, MS002, MS003, MS004, MS101" "$tmp/err"; then
	ok "the usage error lists the rule ids"; else bad "the usage error lists the rule ids"; fi
expect_rc "unknown --format is a usage error" 2 "$SIM" lint --format xml $L/clean.yaml
expect_rc "markdown is for --list-rules only" 2 "$SIM" lint --format markdown $L/clean.yaml
expect_rc "--help exits 0" 0 "$SIM" lint --help

# ---- colour -------------------------------------------------------------------
expect_rc "--color always" 1 "$SIM" lint --color always $L/errors.yaml
if grep -q "$(printf '\033')\[" "$tmp/out"; then ok "--color always colours"; else bad "--color always colours"; fi
expect_rc "--color never" 1 "$SIM" lint --color never $L/errors.yaml
if grep -q "$(printf '\033')" "$tmp/out"; then bad "--color never is plain"; else ok "--color never is plain"; fi

# ---- JSON ---------------------------------------------------------------------
expect_rc "--format json exit code as text" 1 "$SIM" lint --format json $L/errors.yaml
if python3 -m json.tool "$tmp/out" >/dev/null 2>&1; then ok "json: valid (json.tool)"; else bad "json: valid (json.tool)"; fi
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
assert [x["rule"] for x in f] == ["MS103", "MS101", "MS107"], f
assert f[1] == {"rule": "MS101", "name": "step-matches-nothing", "severity": "error",
                "file": "tests/lint/errors.yaml", "line": 21, "column": 19,
                "message": f[1]["message"], "fix": f[1]["fix"]}, f[1]
assert f[1]["message"].endswith("with NoWorkspacesFound"), f[1]
assert d["summary"] == {"errors": 2, "warnings": 1, "infos": 0, "files": 1, "objects": 4}, d["summary"]
PY
then ok "json: findings and summary"; else bad "json: findings and summary"; fi
expect_rc "--format json of a clean input" 0 "$SIM" lint --format json $L/clean.yaml
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["findings"] == [] and d["summary"]["objects"] == 4' "$tmp/out"; then
	ok "json: clean input has no findings"; else bad "json: clean input has no findings"; fi
expect_rc "--list-rules --format json" 0 "$SIM" lint --list-rules --format json
if python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); ids=[x["id"] for x in r]; assert ids == sorted(ids) and "MS101" in ids and all(x["fix"] for x in r)' "$tmp/out"; then
	ok "json: the rule list"; else bad "json: the rule list"; fi

# ---- the rules document -------------------------------------------------------
if [ "${UPDATE:-0}" = 1 ]; then
	"$SIM" lint --list-rules --format markdown >docs/lint-rules.md
fi
"$SIM" lint --list-rules --format markdown >"$tmp/rules.md"
if cmp -s "$tmp/rules.md" docs/lint-rules.md; then ok "docs/lint-rules.md matches the rule table"; else
	bad "docs/lint-rules.md matches the rule table (regenerate: UPDATE=1 MAGOS_SIM=... sh tests/lint.sh)"
	diff docs/lint-rules.md "$tmp/rules.md" | head -10 | sed 's/^/     /'
fi
n=$("$SIM" lint --list-rules --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
if [ "$(grep -c '^| MS[0-9]' docs/lint-rules.md)" = "$n" ]; then ok "the doc lists every rule ($n)"; else bad "the doc lists every rule ($n)"; fi

# A note at another place than its finding keeps that place in the text.
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n' >"$tmp/dup.yaml"
expect_rc "an object defined twice" 1 "$SIM" lint "$tmp/dup.yaml"
has_line "... points at the first definition too" "$tmp/out" "$tmp/dup.yaml:5:1: error: Namespace \"a\" already exists: the same kind and name appear twice; $tmp/dup.yaml:1:1: first defined here [MS001]"
# A YAML 1.1 scalar where a string is required: the fix is to quote it.
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: yes}\n---\napiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata: {name: n}\n' >"$tmp/y11.yaml"
expect_rc "names YAML reads as booleans" 3 "$SIM" lint "$tmp/y11.yaml"
has_line "... an object's: the fix says to quote it" "$tmp/out" '  fix: YAML reads yes as a boolean: quote it ("yes") if a string is meant; the cluster rejects the unquoted form too'
has_line "... the Scenario's too" "$tmp/out" '  fix: YAML reads n as a boolean: quote it ("n") if a string is meant; the cluster rejects the unquoted form too'

finish
