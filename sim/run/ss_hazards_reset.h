#ifndef MAGOS_SIM_SS_HAZARDS_RESET_H
#define MAGOS_SIM_SS_HAZARDS_RESET_H

/*
 * A reset-scope token recorded by a pass that stopped before the later
 * stages (StageSet spec R-16, §5 Q-11), told at the end of a run as a
 * timeline notice (a warning) per StageSet; what lint's MS259 says of the
 * inputs (sim/lint/lint_ss_reset.h) as it happened:
 *
 *  - the first status write of a StageSet that records
 *    lastHandledResetScope with a Ready reason other than Succeeded whose
 *    message names the stage it stopped at, when a stage after that one
 *    has Version-scoped pre or post actions: their ledgers kept what they
 *    held, and the token counts as handled from then on.  Told with the
 *    token, the time, the reason and how many times each such action ran in
 *    the whole run (the StageSet world's count of its attempts).
 *
 * Figures come from the timeline (status writes), the store at the end of
 * the run (the spec and the token) and the StageSet world's action counts
 * (sim/models/stageset_world_stages.h).  Cost: O(timeline entries +
 * StageSets × stages × actions).
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_reset() - adds the notices above to @r's timeline, dated at
 * the end of the run.  Call after the run ended.  @s: the scenario run
 * (its inputs' StageSets).  Cannot fail (aborts on OOM).
 */
void ss_hazards_reset(struct run_result *r, const struct scenario *s);

#endif
