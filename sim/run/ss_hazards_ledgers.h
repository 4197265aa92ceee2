#ifndef MAGOS_SIM_SS_HAZARDS_LEDGERS_H
#define MAGOS_SIM_SS_HAZARDS_LEDGERS_H

/*
 * The StageSet ledger hazards a run ran into, told at its end as timeline
 * notices with the run's numbers and what to change, each one what lint
 * says of the manifests (sim/lint/lint_ss_ledgers.h) as it happened:
 *
 *  - a promote token replayed (StageSet spec §3.13, §5 Q-12, lint's
 *    MS252, MS257): a stages.metio.wtf/promote token for a stage with a
 *    manual promotion gate, handled by a Ready True status after it was
 *    stamped; then a StageFailed status naming that stage, or a
 *    StageProgressing one (the progress hold drops the token alike); then
 *    a Ready True status that applied a new revision (lastAppliedRevisions
 *    changed), with the annotation unchanged since the handling: only the
 *    handled token can have passed the gate (warning);
 *  - a reconcile-stage token replayed (R-16, §3.13, §5 Q-12, lint's
 *    MS275): a stages.metio.wtf/reconcile-stage token recorded by a status
 *    write of status.stages after it was stamped (not a failure's), then a
 *    StageFailed or StageProgressing status naming its stage, with the
 *    annotation unchanged: the passes after it took the token as fresh;
 *    told when the stage's most-run Revision-scoped action ran more often
 *    than the versions tried and the token values handled account for
 *    (one run each; the world's count of its attempts) (warning);
 *  - a soak started over (G-8, §3.13, §5 Q-12, lint's MS277): a Soaking
 *    status of a stage, then a StageFailed or StageProgressing status
 *    naming it before that soak closed, then a Soaking status of it closing
 *    later, with no other revision attempted between
 *    (lastAttemptedRevisions unchanged): the failed entry dropped
 *    promotionState, so the soak began again (warning);
 *  - a restart block forgiven (§3.7.3, §3.13, §5 Q-12, lint's MS278): a
 *    PromotionBlocked status of a restart check, then a StageFailed or
 *    StageProgressing status naming its stage, then a Ready True status
 *    that applied the revision (lastAppliedRevisions written), with no
 *    other revision attempted since the block: the failed entry dropped
 *    the check's restartBaseline, so it let the revision through (warning);
 *  - a failure before the stage loop (R-12, R-15, §5 Q-13, lint's MS253):
 *    a StageFailed status of a connect or decryption failure, which wrote
 *    the first stage with empty ledgers; told with what the wipe cost that
 *    the run shows: the first stage's pre and post actions run more than
 *    once (the StageSet world's count of their attempts), and its soak
 *    closing later than the one it had before the failure (the Soaking
 *    statuses' "soak window closes at" times) (warning);
 *  - onFailure run once for many failures (§3.10.3, §5 Q-15, lint's
 *    MS254): a StageSet whose passes failed two or more times in a row on
 *    one version (the adapter's adoption attempts), the last StageFailed
 *    status naming a stage with onFailure actions, which ran fewer times
 *    than the failures (the world's count of their attempts) (warning);
 *  - a Suspended StageSet behind its generation (R-4, §5 Q-23, lint's
 *    MS255): Suspended status writes of a generation above the
 *    observedGeneration the last status write holding it left, told with
 *    the time suspended (to the next other status write), that
 *    observedGeneration and the highest generation meanwhile (info);
 *  - an event gate without a baseline (§5 Q-17, lint's MS256): the first
 *    PromotionBlocked status of a new revision (one that wrote
 *    lastAttemptedRevisions) by an event check, whose Warning events in the
 *    pods model (spec.models.stagesets.pods) began before the adoption
 *    attempt started; told with the check, the count, when they began and
 *    when the stage was promoted after all (warning).
 *
 * Figures come from the timeline (status writes and annotation changes),
 * the store at the end of the run, the StageSet controller adapter's
 * adoption attempts (sim/wire/stageset_rc.h), the StageSet world's action
 * counts (sim/models/stageset_world_stages.h) and its pods model.
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_ledgers() - adds the notices above to @r's timeline, dated at
 * the end of the run.  Call after the run ended (r->end_ms set).  @s: the
 * scenario run (its inputs' promote annotations are where the timeline
 * starts).  Cannot fail (aborts on OOM).
 * Cost: O(timeline entries + StageSets × stages × actions).
 */
void ss_hazards_ledgers(struct run_result *r, const struct scenario *s);

#endif
