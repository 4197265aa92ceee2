#ifndef MAGOS_SIM_SS_HAZARDS_FAILURE_H
#define MAGOS_SIM_SS_HAZARDS_FAILURE_H

/*
 * The StageSet failure hazards a run ran into, told at its end as timeline
 * notices with the run's numbers and what to change, each one what lint
 * says of the manifests (sim/lint/lint_ss_failure.h) as it happened:
 *
 *  - a rollback loop (StageSet spec §3.11.2, §5 Q-5, lint's MS226): a
 *    StageSet rolled back twice or more with no Ready True Succeeded status
 *    between, each time re-applying the same failing revision on the next
 *    pass; told with the count, the first and last rollback, the last
 *    cycle's length, the failing stage and revision, and how often
 *    onRollback ran (a rollback runs it when a snapshot was restored, i.e.
 *    at or after the first status write holding lastAppliedSnapshot)
 *    (warning);
 *  - a rollback to the same revision (§3.11.2, §5 Q-4, lint's MS230): a
 *    RolledBack event with no status since the last Ready True having
 *    written lastAttemptedRevisions (no new revision was attempted: a
 *    steady pass found the running workload failing); told with the count,
 *    the first and last, and how often onRollback ran (warning).  Such
 *    rollbacks do not count towards the rollback loop above;
 *  - DriftCorrected Warnings that were no drift (§3.13, §5 Q-14, lint's
 *    MS231): those emitted after a StageFailed status up to the status of
 *    the next success (the failed entry recorded the new revision as
 *    applied, so the real apply looked like a correction); told with the
 *    count and the first (warning);
 *  - a migration run again after MigrationDirty (§3.4, §5 Q-6, lint's
 *    MS229): a StageSet whose status went MigrationFailed, then
 *    MigrationDirty, and that showed MigrationStarted events after that
 *    (each pass a later event ran), with no Ready True between; told with
 *    the times and the count (warning);
 *  - a terminal failure that never requeues (§5 Q-7, lint's MS227): a
 *    StageSet that ended Ready False for a failure (RBACDenied,
 *    ImageUnverified, StageFailed, MigrationDirty, ActionDirty,
 *    PreviousRevisionUnavailable, InvalidSpec, Stalled; not a hold) whose
 *    last pass asked for no requeue and started a minute or more before the
 *    end of the run, or the run ended with nothing left to happen; with
 *    when the modelled apply failure that caused it stopped, when it did
 *    (warning).
 *  - otherwise, a StageSet that ended Ready False InvalidSpec (R-6,
 *    lint's MS284): the controller refuses its spec on every pass, so
 *    nothing of it was reconciled since; told with the controller's
 *    message (warning).
 *  - a verify that outlasted its timeout (§3.9, §5 Q-2, lint's MS228):
 *    a stage's kstatus wait and its ready-check expression poll, each
 *    given the stage's whole timeout T, took longer than T together; told
 *    with how many did and the longest (its stage, start, length, T and
 *    whether it ended ready) (warning).
 *
 * Figures come from the timeline (RolledBack events, status writes), the
 * store at the end of the run and the StageSet controller adapter's pass
 * records (sim/wire/stageset_rc.h).
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_failure() - adds the notices above to @r's timeline, dated at
 * the end of the run.  Call after the run ended (r->end_ms set).  @s: the
 * scenario run (its StageSet world names the modelled failure windows).
 * Cannot fail (aborts on OOM).
 * Cost: O(timeline entries + StageSets).
 */
void ss_hazards_failure(struct run_result *r, const struct scenario *s);

#endif
