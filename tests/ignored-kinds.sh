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
expect_rc "run accepts an ImageVerificationPolicy" 0 "$SIM" run "$tmp/ivp.yaml"
has_line "... and says it is ignored, and which kinds are read" "$tmp/err" "$tmp/ivp.yaml:1:1: $note$read"
expect_rc "lint accepts it" 0 "$SIM" lint "$tmp/ivp.yaml"
has_line "... and prints the same note" "$tmp/out" "$tmp/ivp.yaml:1:1: $note$read"
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
