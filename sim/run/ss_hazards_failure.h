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
 *  - a terminal failure that never requeues (§5 Q-7, lint's MS227): a
 *    StageSet that ended Ready False for a failure (RBACDenied,
 *    ImageUnverified, StageFailed, MigrationDirty, ActionDirty,
 *    PreviousRevisionUnavailable, InvalidSpec, Stalled; not a hold) whose
 *    last pass asked for no requeue and started a minute or more before the
 *    end of the run, or the run ended with nothing left to happen; with
 *    when the modelled apply failure that caused it stopped, when it did
 *    (warning).
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
