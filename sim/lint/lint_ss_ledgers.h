#ifndef MAGOS_SIM_LINT_SS_LEDGERS_H
#define MAGOS_SIM_LINT_SS_LEDGERS_H

/*
 * The StageSet ledger rules of lint (MS252..MS258, of the range
 * MS252..MS269 kept for them, and MS275, MS277, MS278 of the later ones): what a failure or an early exit does to the
 * bookkeeping the controller keeps in status (the handled promote token
 * and the action ledgers of status.stages, status.observedGeneration), and
 * what a promotion gate takes for its baseline, with the StageSet world of
 * the scenario
 * (spec.models.stagesets, resolved per StageSet and stage as the run
 * resolves it, scn_sw_resolve()).  Each rule is a consequence of a quirk of
 * ../shared/specs/stageset-controller.md §5 that the rule's row in
 * sim/lint/lint.c names:
 *
 *  - MS252: a promote token stamped for a gated stage that the world
 *    can fail afterwards, with a later revision to come: the failed entry
 *    drops lastHandledPromotion while the annotation stays, so the retry
 *    takes the handled token as fresh and promotes the later revision past
 *    the gate with no operator;
 *  - MS253: a Secret that a StageSet's spec.kubeConfig or
 *    spec.decryption reads is deleted by a scenario event while the first
 *    stage has completed actions or a soak: the failure before the stage
 *    loop writes that stage with empty ledgers, so its actions run again
 *    and its soak restarts once the Secret is back;
 *  - MS254: a stage with onFailure actions that the world can fail
 *    more than once on one revision (a retried failure): onFailure's
 *    completions go into the revision's ledger, so only the first failure
 *    of each revision runs them;
 *  - MS255: a StageSet suspended by its manifest or a patch event:
 *    the Suspended exit writes the Ready condition alone, so
 *    status.observedGeneration stays behind the generation the suspend
 *    raised, and readers that compare the two see it in progress;
 *  - MS256: an event gate check whose Warning events the pods model
 *    holds, from before, when a later revision arrives: the gate keeps no
 *    baseline, so the new revision is held PromotionBlocked at once;
 *  - MS257: MS252's token where the stage's verify can hold
 *    StageProgressing instead of failing (the world's readiness delay can
 *    outlast the verify timeout, onTimeout not Rollback): the progress hold
 *    drops lastHandledPromotion just as a failure does, so the retry that
 *    finds the later revision ready promotes it with no operator;
 *  - MS258: a restart check whose pods the pods model restarts over
 *    its maxRestarts while the stage is promoted (its revision held for its
 *    soak and an interval, no new one for an interval after): the gate
 *    refreshes its baseline at every pass of a promoted stage, so those
 *    restarts are taken in and never block.
 *  - MS275: a reconcile-stage token for a stage with
 *    Revision-scoped actions that the world can fail (or hold
 *    StageProgressing) afterwards: the failed entry drops
 *    lastHandledReconcileAt while the annotation stays, so every pass after
 *    the failure takes the handled token as fresh, empties the stage's
 *    revision ledger and runs its completed actions again.
 *  - MS277 (Q-12, G-8): a publish starts a soak at the first gated stage
 *    and the world fails that stage for certain at one of the soak's hourly
 *    polls: the failed entry drops promotionState, so the soak starts over
 *    once the stage is healthy again.
 *  - MS278 (Q-12, §3.7.3): a restart check that the pods model breaches
 *    while the stage gates a new revision, blocking it, and a certain
 *    failure of the stage afterwards: the failed entry drops
 *    promotionState and its restartBaseline, so the next healthy pass
 *    baselines the restarts and promotes the blocked revision.
 *
 * What is linted: every StageSet of the inputs and of `apply` events, and
 * the scenario's annotate, delete, patch and publish events that reach
 * them.
 */

#include "engine/stageset_types.h"
#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_ledgers() - appends the findings of MS252..MS258, MS275, MS277
 * and MS278 over the StageSets of @s (borrowed) to @r.  Works on a partially loaded scenario
 * (a StageSet whose spec does not parse is skipped: MS001 tells it).
 * Cannot fail (aborts on OOM).
 * Cost: O(StageSets × (stages × world rules + events)).
 */
void lint_ss_ledgers(struct lint_report *r, const struct scenario *s);

/*
 * lint_ss_stage_key_mark() - where key @key of group @group (e.g. "promotion",
 * "soak") of the stage named @name of StageSet @ss is written, for a
 * finding to point at; @ss's own mark when the stage or key is absent or
 * has no position.  @ss and the strings are borrowed.  Cannot fail.
 */
struct val_mark lint_ss_stage_key_mark(const struct obj *ss, const char *name, const char *group, const char *key);

/*
 * lint_ss_created_ms() - when StageSet @ss (borrowed from @s) comes into
 * being, in ms of the run: 0 for an input, else the time of the `apply`
 * event that carries it.  Cost: O(events).  Cannot fail.
 */
int64_t lint_ss_created_ms(const struct scenario *s, const struct obj *ss);

/*
 * lint_ss_each_spec() - calls @fn for each StageSet of @s once, at its first
 * manifest (the inputs before the `apply` events, as scn_stagesets()
 * lists them: a later apply of the same namespace/name is a re-apply, linted
 * by its first), with its spec parsed (@sp, released after the call); a
 * manifest whose spec does not parse (MS001 refuses it) is skipped.  @ss and
 * @sp are borrowed for the call; @ctx is passed through.  Cost: O(n) expected
 * over the StageSets, besides what @fn costs.
 */
void lint_ss_each_spec(const struct scenario *s,
		       void (*fn)(const struct obj *ss, const struct sst_spec *sp, void *ctx), void *ctx);

#endif
