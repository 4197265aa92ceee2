#ifndef MAGOS_SIM_LINT_FLEET_ADOPTION_H
#define MAGOS_SIM_LINT_FLEET_ADOPTION_H

/*
 * What a FleetRollout counts as adopted, against what its members run:
 *   MS271  a derived FleetRollout (no targetVersion) selects a StageSet whose
 *          error budget reads exhausted within the horizon: a budget hold
 *          keeps the member Ready True with no pendingVersion, which a
 *          derived fleet counts as adopted, so the member's wave can settle
 *          and the fleet complete while it runs its old version
 *          (fleetrollout-controller.md §6 #12; StageSet spec §5 Q-10).
 * The run tells the same when it happens (sim/run/fleet_adoption.h).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_fleet_adoption() - appends to @r the findings of MS271 over the
 * FleetRollouts of @s (the inputs' and those of `apply` events) without a
 * targetVersion or a namespaceSelector, and the StageSets of the inputs
 * their selector matches.  A budget is read every minute of the horizon
 * (at most 20 000 times) from spec.metrics (lsh_budget_at()).  @s
 * borrowed; works on a partially loaded scenario.  Cannot fail (aborts on
 * OOM).  Cost: O(fleets × StageSets × readings × spec.metrics entries) for
 * the StageSets with a budget.
 */
void lint_fleet_adoption(struct lint_report *r, const struct scenario *s);

#endif
