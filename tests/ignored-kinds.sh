#!/bin/sh
# Kinds the pinned CRDs define that no simulated controller reads: accepted
# and ignored, and lint says so as run does; an unknown kind of a simulated
# group (a StageInventory of a version the CRD does not serve) is an error
# whose note lists those kinds beside the supported ones.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
require_sim

printf 'apiVersion: stages.metio.wtf/v1\nkind: ImageVerificationPolicy\nmetadata: {name: web, namespace: shop}\n' >"$tmp/ivp.yaml"
note="note: 1 object of kinds the simulated controllers do not read is accepted and ignored: ImageVerificationPolicy \"shop/web\" (stages.metio.wtf/v1)"
# With nothing else to simulate, the note says which kinds are read.
read="; so the inputs hold no object to simulate: the kinds read are Project (magosproject.io/v1alpha1), Rollout (magosproject.io/v1alpha1), Workspace (magosproject.io/v1alpha1), FleetRollout (stages.metio.wtf/v1), StageSet (stages.metio.wtf/v1), Namespace (v1), Secret (v1), ValidatingPolicy (policies.kyverno.io/v1), StageLedger (stages.metio.wtf/v1), GitRepository (source.toolkit.fluxcd.io/v1), OCIRepository (source.toolkit.fluxcd.io/v1), Bucket (source.toolkit.fluxcd.io/v1), ExternalArtifact (source.toolkit.fluxcd.io/v1), Job (batch/v1), PersistentVolumeClaim (v1)"
# Alone it leaves no object at all: nothing to simulate is an error.
nothing="error: nothing to simulate: the inputs hold no objects; \`kubectl get\` prints an empty List when it finds no resources: check its namespace (-n, -A) and context"
expect_rc "run accepts an ImageVerificationPolicy, and alone it is nothing to simulate" 3 "$SIM" run "$tmp/ivp.yaml"
has_line "... and says it is ignored, and which kinds are read" "$tmp/err" "$tmp/ivp.yaml:1:1: $note$read"
has_line "... then that nothing is left to simulate" "$tmp/err" "$tmp/ivp.yaml:1:1: $nothing"
expect_rc "lint accepts it, and says the same" 3 "$SIM" lint "$tmp/ivp.yaml"
has_line "... and prints the same note" "$tmp/out" "$tmp/ivp.yaml:1:1: $note$read"
has_line "... and the same error" "$tmp/out" "$tmp/ivp.yaml:1:1: $nothing [MS002]"
printf 'apiVersion: v1\nkind: List\nitems: []\n' >"$tmp/empty-list.yaml"
expect_rc "an empty List (kubectl get found nothing) is nothing to simulate" 3 "$SIM" run - <"$tmp/empty-list.yaml"
expect_rc "... check refuses it too, not passing on nothing" 3 "$SIM" check "$tmp/empty-list.yaml"
contains "... with the same words" "$tmp/out" "nothing to simulate: the inputs hold no objects"
printf -- '---\napiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n' | cat "$tmp/ivp.yaml" - >"$tmp/ivp-ns.yaml"
expect_rc "beside an object to simulate" 0 "$SIM" run "$tmp/ivp-ns.yaml"
has_line "... the note names only what is ignored" "$tmp/err" "$tmp/ivp-ns.yaml:1:1: $note"

printf 'apiVersion: stages.metio.wtf/v1alpha1\nkind: StageInventory\nmetadata: {name: web, namespace: shop}\n' >"$tmp/inv.yaml"
expect_rc "a v1alpha1 StageInventory is refused" 3 "$SIM" run "$tmp/inv.yaml"
has_line "... with the kinds accepted and ignored listed" "$tmp/err" \
	"$tmp/inv.yaml:2:7: note: accepted and ignored (their CRDs define them; no simulated controller reads them): VariableSet (magosproject.io/v1alpha1), ImageVerificationPolicy (stages.metio.wtf/v1), StageInventory (stages.metio.wtf/v1)"
expect_rc "lint refuses it too" 1 "$SIM" lint "$tmp/inv.yaml"
contains "... naming the v1 StageInventory" "$tmp/out" "StageInventory (stages.metio.wtf/v1)"

finish
