#ifndef MAGOS_SIM_RUN_FLEET_QUIRKS_H
#define MAGOS_SIM_RUN_FLEET_QUIRKS_H

/*
 * The FleetRollout surprises of spec fleetrollout-controller.md §6 a run
 * ran into, told at its end as timeline notices (warnings) with the run's
 * numbers and what to change:
 *
 *  - a pinned targetVersion spelled differently from the version its
 *    members ended on or hold for approval (§6 #13; lint's MS250): the
 *    fleet compares the text, so they never counted as adopted;
 *  - a FleetRollout that ended Ready False for an early exit
 *    (InvalidSelector, MembersUnassigned, MembersContested,
 *    GateUnsupported) while its status still shows the phase, current wave
 *    and soak deadlines of an earlier full pass (§6 #15).
 */

#include "sim/run/run.h"

/*
 * fq_end_of_run() - adds the notices above to @r's timeline, dated
 * @r->end_ms.  Reads the store, the timeline and the fleet observer; call
 * after fo_finish_run().  Cannot fail (aborts on OOM).  Cost: O(StageSets
 * + FleetRollouts × timeline entries) for the FleetRollouts that ended so.
 */
void fq_end_of_run(struct run_result *r);

#endif
