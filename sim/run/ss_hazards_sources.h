#ifndef MAGOS_SIM_SS_HAZARDS_SOURCES_H
#define MAGOS_SIM_SS_HAZARDS_SOURCES_H

/*
 * What a StageSet did when a gate's metric source could not answer, told
 * at the end of a run as timeline notices (warnings) with the run's
 * numbers and what to change; what lint says of the inputs
 * (sim/lint/lint_ss_sources.h) as it happened:
 *
 *  - a stage rolled back by its promotion analysis (Warning PromotionBlocked
 *    "stage X promotion analysis failed; rolled back to revision R") at a
 *    time the scenario's series answered none of the analysis's checks
 *    outside their thresholds, and did not answer at least one (an
 *    `unavailable` window, no sample): the revert came from the unanswered
 *    evaluation, which onSourceError Hold with failureLimit 0 counts as a
 *    failure (StageSet spec §5 Q-16; lint's MS270).
 *
 * The checks are those of the StageSet's spec at the end of the run, read
 * at the time of the event from spec.metrics as the StageSet world serves
 * them (sim/models/stageset_world_gates.h).
 *
 * Cost: one pass over the timeline, plus the checks of each such revert.
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_sources() - adds the notices above to @r's timeline, dated at
 * the end of the run.  Call after the run ended.  @s: the scenario run.
 * Cannot fail (aborts on OOM).
 */
void ss_hazards_sources(struct run_result *r, const struct scenario *s);

#endif
