#ifndef MAGOS_SIM_SS_HAZARDS_TOKENS_H
#define MAGOS_SIM_SS_HAZARDS_TOKENS_H

/*
 * Hand-stamped one-shot tokens the StageSet watch dropped, told at the end
 * of a run as a timeline notice (a warning) per scenario event; what lint's
 * MS273 says of the inputs (sim/lint/lint_ss_tokens.h) as it happened
 * (StageSet spec §2.1 W1, §5 Q-25):
 *
 *  - a scenario event stamped update-now, budget-override or reset-scope on
 *    a StageSet without a change the watch passes
 *    (lss_unwatched_token()): the notice says when the StageSet first
 *    recorded the token as handled (its status field, lss_handled_field(),
 *    written by the pass that read it) and how long after the stamp, or
 *    that it never did in the run.
 *
 * Cost: one pass over the timeline per such event.
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_tokens() - adds the notices above to @r's timeline, dated at
 * the end of the run.  Call after the run ended.  @s: the scenario run.
 * Cannot fail (aborts on OOM).
 */
void ss_hazards_tokens(struct run_result *r, const struct scenario *s);

#endif
