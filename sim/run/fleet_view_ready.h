#ifndef MAGOS_SIM_RUN_FLEET_VIEW_READY_H
#define MAGOS_SIM_RUN_FLEET_VIEW_READY_H

/*
 * Where `stagesetctl fleet` and the FleetRollout controller read a member's
 * readiness differently (fleetrollout-controller.md §6 #16), told at the end
 * of a run as a timeline notice (a warning) per member:
 *
 *  - while a FleetRollout was InProgress, a member of it that the CLI and
 *    the controller count adopted (no pendingVersion without targetVersion;
 *    status.version equal to targetVersion when pinned) was Ready True
 *    with status.pendingUpdate set (a window or budget deferral, StageSet
 *    spec §5 Q-9): the CLI, which reads Ready and observedGeneration only,
 *    prints it "✓ … Ready" (the view of `run --at` shows the same), while
 *    the controller counts it not ready, so its wave does not settle.  The
 *    notice gives the first such stretch, its length and the member's
 *    status message (a warning);
 *  - while a FleetRollout was InProgress, a member of it was adopted and
 *    not Ready without having been Ready since its adoption, which a status
 *    write of the run made (pendingVersion cleared by the approval gate; or
 *    status.version reaching targetVersion): the CLI marks every adopted
 *    member that is not Ready "not Ready (regressed)", so it calls a member
 *    still rolling out (soaking, verifying, failing its first try) a
 *    regression.  The notice gives the first such stretch, the adoption and
 *    the member's Ready reason and message then (info).
 *
 * No lint rule tells them: what the view prints depends on the members'
 * statuses at the moment looked at.  A member's adoption at its first
 * status write (a new member, which has no pendingVersion until a hold
 * sets one) is not taken for an adoption of the run.
 *
 * The statuses are the timeline's StageSet status entries: Ready True is
 * reason Succeeded; pendingUpdate and pendingVersion are set and cleared
 * as their status fields appear in an entry's detail ("pendingUpdate",
 * "-pendingUpdate"); status.version at an entry is the fleet observer's
 * (fo_member_version_at(), sim/observe/fleetobs.h).  Members are the StageSets the fleet's selector
 * matches in the store at the end (fleets with a namespaceSelector left
 * out), in the first wave whose selector matches.
 */

#include "sim/run/run.h"

/*
 * fleet_view_ready_end_of_run() - adds the notices above to @r's timeline,
 * dated at the end of the run.  Call after the run ended, before r->fobs
 * is freed.  Cannot fail (aborts on OOM).
 * Cost: O(timeline entries × fleets' members × log version changes).
 */
void fleet_view_ready_end_of_run(struct run_result *r);

#endif
