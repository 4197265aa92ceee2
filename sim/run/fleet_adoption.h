#ifndef MAGOS_SIM_RUN_FLEET_ADOPTION_H
#define MAGOS_SIM_RUN_FLEET_ADOPTION_H

/*
 * What a FleetRollout counted as adopted against what its members ran,
 * told at the end of a run as timeline notices (warnings); what lint says
 * of the inputs (sim/lint/lint_fleet_adoption.h) as it happened:
 *
 *  - a FleetRollout without targetVersion (derived) opened a later wave, or
 *    completed, while a member of an earlier wave was held by its error
 *    budget (its last status Ready True "Deployed; error budget exhausted:
 *    …", with no pendingVersion): the fleet counted it adopted although it
 *    still ran its old version (fleetrollout-controller.md §6 #12; StageSet
 *    spec §5 Q-10; lint's MS271).  The notice says when the member next
 *    verified a rollout, if it did.
 *
 * A member is a StageSet the fleet's selector matches in the store at the
 * end of the run (fleets with a namespaceSelector are left out, as lint
 * leaves them), in the first wave whose selector matches it; the fleet's
 * passes are its status entries on the timeline.
 */

#include "sim/run/run.h"

/*
 * fleet_adoption_end_of_run() - adds the notices above to @r's timeline,
 * dated at the end of the run.  Call after the run ended.  Cannot fail
 * (aborts on OOM).  Cost: O(timeline entries × derived fleets), plus a
 * fleet's members at each of its own status entries.
 */
void fleet_adoption_end_of_run(struct run_result *r);

#endif
