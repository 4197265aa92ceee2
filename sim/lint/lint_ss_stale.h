#ifndef MAGOS_SIM_LINT_SS_STALE_H
#define MAGOS_SIM_LINT_SS_STALE_H

/*
 * The StageSet stale-status rules of lint (MS262..MS267, of the range
 * MS262..MS269 kept for them, and MS279, MS280, MS283): fields of a StageSet's status that the
 * controller leaves behind what the cluster runs, read from the manifests
 * and the scenario's events.  Each rule is a consequence of a quirk of
 * ../shared/specs/stageset-controller.md §5 that the rule's row in
 * sim/lint/lint.c names:
 *
 *  - MS262: the last stage of a StageSet has a promotion soak: no
 *    stage comes after it, yet the success tail, which alone writes
 *    status.version and status.lastAppliedRevisions, runs only once the
 *    soak has ended, so for the whole soak those fields name the version
 *    before the one every stage already runs, while pendingVersion is
 *    already empty (info);
 *  - MS263: a scenario event switches spec.rollbackOnFailure off on
 *    a StageSet that had it, while a stage's promotion gate reverts on
 *    failure (onFailure Rollback) and a later version reaches it: the
 *    success tail then no longer refreshes status.lastAppliedSnapshot, but
 *    nothing clears it and gate reverts (S-14) still read it, so a revert
 *    goes back to the revision of the last success before the switch,
 *    past every version adopted since (warning);
 *  - MS264: a scenario event drops a stage from a StageSet's stages
 *    while a published version cannot yet have passed the promotion soaks
 *    of the stages kept (their sum after the publish): the prune,
 *    which alone deletes the removed stage's objects, runs only at a full
 *    success, so they stay until that rollout completes (warning).  Manual
 *    promotion and the other gates are left out: how long they hold is the
 *    run's to tell;
 *  - MS265: under approvalMode Always a scenario event changes
 *    stages.metio.wtf/approved-version while the transition the previous
 *    value approved (started by a publish of that version, or by the
 *    approval if later) cannot yet have passed the soaks of its stages:
 *    the approval gate runs on every pass, so the transition is held again
 *    half-applied, while status says it awaits approval (warning);
 *  - MS266: the source a StageSet's version plan fetches (the
 *    fromArtifact or fromObject stage's, else migrationsSourceRef) has
 *    fetch-error windows in spec.models.sources: every pass in them fails
 *    at the plan with a transient error, which writes nothing, so status
 *    says what the last pass before said (warning).  Told once per
 *    StageSet, at its manifest;
 *  - MS267: under approvalMode Always a scenario event approves a
 *    version that a later publish replaced before the approval: the gate
 *    compares exactly, so the newer version stays held (warning).
 *  - MS279: under approvalMode Always a publish is held for
 *    approval (status.pendingVersion names it), and before its approval or
 *    the next publish the sources model makes a stage's source not Ready,
 *    absent or Forbidden, an event deletes the kubeConfig Secret, or a
 *    publish to a dependency alone holds that one not ready for long (its
 *    soaks, or an approval under Always): those passes stop at the
 *    dependency check, source resolution or the target connection, before
 *    the approval gate that alone writes pendingVersion, so it goes on
 *    naming the held version, approved or not (warning);
 *  - MS283: the StageSet world fails the reads of a StageSet's
 *    StageLedger or StageInventory (spec.models.stagesets.ledgerErrors)
 *    while a pass comes (its first, a publish that reaches it, or a window
 *    longer than its steady or retry interval +5%): every pass Gets the
 *    StageLedger, Lifetime actions or not, and Lists the
 *    StageInventory, and an error there returns before any status
 *    write, so status says what the last write before said (warning).
 *    Scripted patches and annotations that would wake it are not read;
 *  - MS280: under approvalMode Always the manifest carries
 *    approved-version V while its inline spec.version.value is another
 *    version: the first adoption is never held, and the annotation is never
 *    cleared, so a later publish of V passes the gate with nobody approving
 *    it; or V, approved and adopted, gives way to a version adopted while
 *    approvalMode was patched off, and is published again once it is
 *    Always again (warning).  A version read from an artifact is left to
 *    the run.
 *
 * What is linted: every StageSet of the inputs and of `apply` events, and
 * the scenario's annotate, patch, apply and publish events that reach them,
 * and the sources model (spec.models.sources); for MS279 also the delete
 * events of Secrets.
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_stale() - appends the findings of MS262..MS267, MS279, MS280 and MS283 over the
 * StageSets of @s (borrowed) to @r.  Works on a partially loaded scenario
 * (a StageSet whose spec does not parse is skipped: MS001 tells it).
 * Cannot fail (aborts on OOM).
 * Cost: O(StageSets × (stages + events + ledgerErrors × publishes)).
 */
void lint_ss_stale(struct lint_report *r, const struct scenario *s);

#endif
