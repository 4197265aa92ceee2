#ifndef MAGOS_SIM_LINT_FLEET_QUIRKS_H
#define MAGOS_SIM_LINT_FLEET_QUIRKS_H

/*
 * The FleetRollout surprises of spec fleetrollout-controller.md §6 that the
 * manifests and the scenario's events show before anything runs:
 *   MS250  a pinned targetVersion that is the same semantic version as what
 *          the members are offered, spelled differently (§6 #13): the fleet
 *          and the StageSets compare the text, so no member adopts it;
 *   MS251  an `annotate` or `patch` event that stamps
 *          stages.metio.wtf/approved-version on a member of a pinned fleet
 *          with another version than its target (§6 #14): the fleet
 *          overwrites it on its next pass with the member's wave open.
 * The run tells the same when it happens (sim/run/fleet_quirks.h).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_fleet_quirks() - appends to @r the findings of MS250 for the
 * FleetRollouts of @s (the inputs' and those of `apply` events), against
 * the versions the scenario offers: the StageSets' spec.version.value (the
 * inputs', generated and applied), the `publish` events' versions and the
 * modelled sources' initialVersion; and of MS251 for the events that stamp
 * an approved-version on a StageSet a pinned fleet selects by spec.selector
 * (fleets with a namespaceSelector are not looked at).  @s borrowed; works on a partially
 * loaded scenario.  Cannot fail.  Cost: O(objects + events + sources)
 * expected, plus O(fleets) per approving event.
 */
void lint_fleet_quirks(struct lint_report *r, const struct scenario *s);

#endif
