#ifndef MAGOS_SIM_RUN_FLEET_VIEW_READY_H
#define MAGOS_SIM_RUN_FLEET_VIEW_READY_H

/*
 * Where `stagesetctl fleet` and the FleetRollout controller read a member's
 * readiness differently (fleetrollout-controller.md §6 #16), told at the end
 * of a run as a timeline notice (a warning) per member:
 *
 *  - while a FleetRollout without targetVersion was InProgress, a member of
 *    it was Ready True with no pendingVersion but with status.pendingUpdate
 *    set (a window or budget deferral, StageSet spec §5 Q-9): the CLI,
 *    which reads Ready and observedGeneration only, prints it "✓ … Ready"
 *    (the view of `run --at` shows the same), while the controller counts
 *    it not ready, so its wave does not settle.  The notice gives the first
 *    such stretch, its length and the member's status message.
 *
 * No lint rule tells it: what the view prints depends on the members'
 * statuses at the moment looked at.  Pinned fleets are left out (adoption
 * there is status.version, which the timeline does not carry), and so is
 * the CLI's "(regressed)" for members never ready.
 *
 * The statuses are the timeline's StageSet status entries: Ready True is
 * reason Succeeded; pendingUpdate and pendingVersion are set and cleared
 * as their status fields appear in an entry's detail ("pendingUpdate",
 * "-pendingUpdate").  Members are the StageSets the fleet's selector
 * matches in the store at the end (fleets with a namespaceSelector left
 * out), in the first wave whose selector matches.
 */

#include "sim/run/run.h"

/*
 * fleet_view_ready_end_of_run() - adds the notices above to @r's timeline,
 * dated at the end of the run.  Call after the run ended.  Cannot fail
 * (aborts on OOM).  Cost: O(timeline entries × derived fleets' members).
 */
void fleet_view_ready_end_of_run(struct run_result *r);

#endif
