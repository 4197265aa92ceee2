#ifndef MAGOS_SIM_LINT_SS_TOKENS_H
#define MAGOS_SIM_LINT_SS_TOKENS_H

/*
 * One-shot tokens stamped by hand, which the controller does not watch:
 *   MS273  a scenario `annotate` or `patch` event sets
 *          stages.metio.wtf/update-now, budget-override or reset-scope on a
 *          StageSet and changes nothing the StageSet watch passes
 *          (generation, reconcile.fluxcd.io/requestedAt, approved-version,
 *          rollback-to, promote, reconcile-stage): the watch drops the
 *          change, so the StageSet reads the token only at its next pass of
 *          another cause (StageSet spec §2.1 W1, §5 Q-25).
 * The run tells the same when it happens (sim/run/ss_hazards_tokens.h).
 */

#include <stdbool.h>

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lss_unwatched_token() - whether scenario event @ev stamps a one-shot token
 * on a StageSet that the StageSet watch drops (as above).  @token and
 * @value receive the first such annotation key and its value (borrowed from
 * @ev).  Returns false for any other event.  Cannot fail.
 */
bool lss_unwatched_token(const struct scn_event *ev, const char **token, const char **value);

/*
 * lss_handled_field() - the status field in which the controller records
 * @token as handled ("lastHandledUpdateOverride" for update-now, ...), or
 * NULL for another key.  Static string.
 */
const char *lss_handled_field(const char *token);

/*
 * lint_ss_tokens() - appends to @r the findings of MS273 over the events of
 * @s, naming the StageSet's interval and retryInterval as its inputs set
 * them.  @s borrowed; works on a partially loaded scenario.  Cannot fail
 * (aborts on OOM).  Cost: O(events × objects).
 */
void lint_ss_tokens(struct lint_report *r, const struct scenario *s);

#endif
