#ifndef MAGOS_SIM_LINT_SS_PACE_H
#define MAGOS_SIM_LINT_SS_PACE_H

/*
 * The StageSet rules of lint on pacing (MS242..MS249): how the StageSet
 * controller's approval gate and its 4 workers decide what a FleetRollout's
 * waves really pace (../shared/specs/stageset-controller.md §5 ).
 *
 *   MS242  new members baseline on the 4 workers one pass each; a publish
 *          that reaches members of a later wave before they have baselined
 *          becomes their first version, which no approval holds, so they
 *          take it before their wave opens.
 *   MS243  from a publish until their wave opens, the members of the later
 *          waves hold AwaitingApproval and poll every minute, each poll
 *          holding a worker for the reconcile duration: told when that asks
 *          half the 4 workers' time or more.
 *   MS244  a dependsOn naming a StageSet of another namespace: the
 *          dependent sees it ready only at its own retry.
 *   MS245  a stage sourceRef naming a source of another namespace: its
 *          changes are seen only at the StageSet's next pass.
 *
 * Timing reads the StageSet world the run would use at the medians of its
 * durations (lint_ss_hold_ms(), the estimate of MS222).
 */

#include <stddef.h>

#include "engine/fleet_rollout.h"
#include "sim/lint/lint.h"

/*
 * lint_ss_pace_fleet() - adds the pacing findings of one FleetRollout.
 * @r:     report to append to.
 * @s:     the scenario (events, StageSet world); borrowed.
 * @fr:    the FleetRollout; borrowed.
 * @ss:    every StageSet lint looks at, sorted by (namespace, name), @nss of
 *         them; borrowed.
 * @res:   the FleetRollout's engine pass over @ss, through its wave
 *         assignment (res->waves one per spec wave, indices into @ss).
 * Errors: cannot fail (aborts on OOM).
 * Cost:   O(StageSets × stages + publishes × members).
 */
void lint_ss_pace_fleet(struct lint_report *r, const struct scenario *s, const struct obj *fr,
			const struct obj *const *ss, size_t nss, const struct fr_result *res);

/*
 * lint_ss_pace() - adds the pacing findings that concern every StageSet,
 * selected by a fleet or not.
 * @ss: every StageSet lint looks at, sorted by (namespace, name), @nss of
 *      them; borrowed.
 * Errors: cannot fail (aborts on OOM).  Cost: O(StageSets + dependsOn entries).
 */
void lint_ss_pace(struct lint_report *r, const struct scenario *s, const struct obj *const *ss,
		  size_t nss);

#endif
