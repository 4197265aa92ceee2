#ifndef MAGOS_SIM_RUN_MAGOS_POLICY_H
#define MAGOS_SIM_RUN_MAGOS_POLICY_H

/*
 * A Workspace's plan-time policy validation as its plan Jobs ran it, against
 * what the field docs promise (spec magos-controllers.md §7 #21; lint's
 * MS120, MS121), told at the end of a run as timeline notices (warnings):
 *
 *  - the policySelector that applies to the Workspace (its own, or its
 *    Project's) is {} and ValidatingPolicies exist, yet its plan Jobs
 *    succeeded without writing a policy result: the controller passed them
 *    no MAGOS_POLICY_SELECTOR, so nothing was checked;
 *  - the Workspace sets spec.validation without a policySelector, and its
 *    plan Jobs wrote policy results all the same: the Project's selector
 *    applied.
 *
 * A plan Job that checked policies writes its result (MAGOS_RESULT, the
 * Job's podLog) before it ends; the timeline shows that write as an update
 * of the Job's podLog field, and the Job's end as a status change naming
 * succeeded or failed.  Which selector applies is read from the
 * Workspaces and Projects as the run left them.
 */

#include "sim/world/des.h"

/*
 * mpol_end_of_run() - adds the notices above to @w's timeline, dated
 * des_end(@w), the run's end.  Reads @w's store and timeline.  Cannot fail (aborts on
 * OOM).  Cost: O(Workspaces + timeline entries) expected.
 */
void mpol_end_of_run(struct des *w);

#endif
