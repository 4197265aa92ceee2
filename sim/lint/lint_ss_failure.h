#ifndef MAGOS_SIM_LINT_SS_FAILURE_H
#define MAGOS_SIM_LINT_SS_FAILURE_H

/*
 * The StageSet failure rules of lint (MS226..MS231, of the range
 * MS226..MS233 kept for them): what a StageSet's own spec, with the
 * StageSet world of the scenario (spec.models.stagesets, resolved per
 * StageSet and stage as the run resolves it, scn_sw_resolve()), makes of a
 * failure of one of its stages.  Each rule is a consequence of a
 * quirk of ../shared/specs/stageset-controller.md §5 that the rule's row in
 * sim/lint/lint.c names:
 *
 *  - MS226: rollbackOnFailure with a stage that fails on every try:
 *    the whole-run rollback never parks, so the next pass applies the same
 *    revision again, forever, with onRollback on every cycle;
 *  - MS227: a stage whose modelled apply can fail terminally
 *    (RBACDenied, ImageUnverified, a terminal fetch), or a rollback whose
 *    modelled restore is terminal (PreviousRevisionUnavailable,
 *    ImageUnverified): the controller does not requeue, so the StageSet
 *    stays Ready False until an event, also after the cause is gone;
 *  - MS228: a stage with ready-check expressions whose modelled
 *    verify outlasts its timeout T: the kstatus wait and the expression
 *    poll each get the whole T, so a verify can block 2·T;
 *  - MS229: a migration action that can fail: MigrationDirty comes
 *    after five failed passes within moments and is no halt: any later
 *    trigger runs the destructive action again;
 *  - MS230: rollbackOnFailure with a workload that can fault in
 *    steady state: the steady pass fails the run and the controller rolls
 *    back to the same revision, running onRollback, while the fault lasts;
 *  - MS231: a stage whose failure is retried on the same revision
 *    (a plain apply failure; a failed verify under rollbackOnFailure): the
 *    failed entry records the new revision as applied, so the real apply is
 *    reported as DriftCorrected and the stage's errorBudget is skipped.
 *
 * What is linted: every StageSet of the inputs and of `apply` events.
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_failure() - appends the findings of MS226..MS231 over the
 * StageSets of @s (borrowed) to @r.  Works on a partially loaded scenario.
 * Cannot fail (aborts on OOM).
 * Cost: O(StageSets × stages × world rules).
 */
void lint_ss_failure(struct lint_report *r, const struct scenario *s);

#endif
