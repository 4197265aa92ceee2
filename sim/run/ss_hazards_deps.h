#ifndef MAGOS_SIM_SS_HAZARDS_DEPS_H
#define MAGOS_SIM_SS_HAZARDS_DEPS_H

/*
 * A dependency's own rollout flipping a deployed dependent, told at the end
 * of a run as a timeline notice (a warning) per dependent, with the run's
 * times; what lint's MS272 says of the inputs (sim/lint/lint_ss_deps.h) as
 * it happened (StageSet spec §5 Q-24):
 *
 *  - a StageSet whose last status was Ready True (reason Succeeded:
 *    verified, or deployed and held) turned Ready False DependencyNotReady
 *    with no change of its own spec in between, and stayed so until its
 *    next Succeeded status (or the end of the run): the notice names the
 *    dependency, how long the dependent was not ready and what the
 *    dependency's status said meanwhile.
 *
 * Only the first such stretch of each dependent is told, with the count
 * of them.  Cost: one pass over the timeline, plus one per stretch for the
 * dependency's statuses.
 */

#include "sim/run/run.h"

/*
 * ss_hazards_deps() - adds the notices above to @r's timeline, dated at the
 * end of the run.  Call after the run ended.  Cannot fail (aborts on OOM).
 */
void ss_hazards_deps(struct run_result *r);

#endif
