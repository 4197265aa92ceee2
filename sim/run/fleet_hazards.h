#ifndef MAGOS_SIM_FLEET_HAZARDS_H
#define MAGOS_SIM_FLEET_HAZARDS_H

/*
 * The FleetRollout and StageSet hazards a run ran into, told at its end as
 * timeline notices with the run's numbers and what to change, each one what
 * lint says of the manifests (MS222..MS225) as it happened:
 *
 *  - the worker bound (StageSet spec §5 Q-1): a wave of more members than
 *    the StageSet controller's SSC_CONCURRENT_RECONCILES workers, whose
 *    adoption passes held a worker so long in all that the wave could not
 *    settle sooner than that time over the workers, at least twice its
 *    longest pass and at least 15m (info; a warning from an hour on, where
 *    lint's MS222 fires);
 *  - a wave that never settled (fleet spec §2.3.3, §2.3.4): opened, never
 *    settled after opening and never halted, with members Ready False for a
 *    failure (StageFailed, StageProgressing, MigrationFailed, MigrationDirty,
 *    ActionDirty, ImageUnverified, RBACDenied, PreviousRevisionUnavailable)
 *    at the end: the FleetRollout halts only a settled wave, so nothing was
 *    halted or rolled back (warning);
 *  - a soak restarted by flaps (fleet spec §2.5, §6 #1): regression halts
 *    of a wave while it soaked (after it first settled, before it passed
 *    and before the fleet Completed), each of which cleared the soak
 *    deadline the next pass set anew (warning);
 *  - a StageSet whose spec.retryInterval turns the timed retry off (zero or
 *    negative, StageSet spec §5 Q-19) that ended Ready False in a hold only
 *    a timed retry ends (SourceNotReady, ArtifactNotFound,
 *    DependencyNotReady, StageProgressing, PromotionBlocked,
 *    AwaitingPromotion, BudgetExhausted, BudgetSourceUnavailable) since a
 *    minute or more before the end: no pass looked again (warning; lint's
 *    MS225).
 *
 * Figures come from the fleet observer (sim/observe/fleetobs.h): wave
 * times, halts, the members' adoption attempts and last Ready reasons.
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * fleet_hazards() - adds the notices above to @r's timeline, dated at the
 * end of the run.  Call after fo_finish_run().  @s: the scenario run.
 * Cannot fail (aborts on OOM).
 */
void fleet_hazards(struct run_result *r, const struct scenario *s);

#endif
