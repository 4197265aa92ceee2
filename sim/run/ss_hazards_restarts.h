#ifndef MAGOS_SIM_SS_HAZARDS_RESTARTS_H
#define MAGOS_SIM_SS_HAZARDS_RESTARTS_H

/*
 * Restarts a promoted stage's restart gate forgave (StageSet spec §3.7.3,
 * §5 Q-17), told at the end of a run as a timeline notice (a warning) per
 * restart check; what lint's MS258 says of the inputs
 * (sim/lint/lint_ss_ledgers.h) as it happened:
 *
 *  - the pods model (spec.models.stagesets.pods) raises the restarts of a
 *    group a restart check selects (stage without a manual gate) by more
 *    than its maxRestarts at T; the StageSet's last status write at or
 *    before T was Ready True (Succeeded: every stage promoted), and its next
 *    one after T is Ready True again without a new attempted revision (no
 *    lastAttemptedRevisions in it): that pass refreshed the gate's
 *    baseline over the restarts and nothing blocked them.  Told with the
 *    first such rise, the pass that took it in, and how many more followed.
 *
 * Figures come from the timeline (StageSet status writes), the store at the
 * end of the run (the StageSet's spec) and the scenario's pods model.
 * Cost: O(timeline entries + StageSets × checks × restart steps).
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_restarts() - adds the notices above to @r's timeline, dated
 * at the end of the run.  Call after the run ended.  @s: the scenario run
 * (its pods model).  Cannot fail (aborts on OOM).
 */
void ss_hazards_restarts(struct run_result *r, const struct scenario *s);

#endif
