#ifndef MAGOS_SIM_SS_HAZARDS_PACE_H
#define MAGOS_SIM_SS_HAZARDS_PACE_H

/*
 * The StageSet pacing hazards a run ran into, told at its end as timeline
 * notices with the run's numbers and what to change, each one what lint
 * says of the manifests (MS242..MS249) as it happened:
 *
 *  - a baseline the fleet did not pace (StageSet spec §5 Q-22, lint's
 *    MS242): members of a FleetRollout wave whose first adoption was a
 *    version a `publish` event offered, started after that publish and
 *    before their wave opened (or with the wave never open): a first
 *    version is never held for approval, so the wave did not pace them
 *    (warning);
 *  - held members' polls (§5, lint's MS243): the members of a
 *    FleetRollout's later waves that ended passes AwaitingApproval (each
 *    requeued after 1m, without jitter), when those passes held the 4
 *    workers half the time or more between the first and the last of them,
 *    over 5 minutes or more (warning);
 *  - a dependency in another namespace (§5 Q-24, lint's MS244): a StageSet
 *    DependencyNotReady whose dependency of another namespace went Ready
 *    (Succeeded) and which moved on (a status without that reason) a minute
 *    or more later, W3 waking only the dependency's own namespace (info;
 *    the longest such wait of each dependsOn entry);
 *  - a source in another namespace (§5 Q-25, lint's MS245): a StageSet
 *    SourceNotReady because of a source of another namespace that
 *    spec.models.sources makes not ready, which moved on a minute or more
 *    after that window ended (info; the first such source of a StageSet).
 *
 * Figures come from the StageSet controller's adoption attempts and
 * approval passes (sim/wire/stageset_rc.h ssrc_members()), the fleet
 * observer's waves (sim/observe/fleetobs.h) and the timeline's StageSet
 * status entries.
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_pace() - adds the notices above to @r's timeline, dated at the
 * end of the run.  Call after fo_finish_run().  @s: the scenario run.
 * Cannot fail (aborts on OOM).
 */
void ss_hazards_pace(struct run_result *r, const struct scenario *s);

#endif
