#ifndef MAGOS_SIM_SS_HAZARDS_HOLDS_H
#define MAGOS_SIM_SS_HAZARDS_HOLDS_H

/*
 * The StageSet hold hazards a run ran into, told at its end as timeline
 * notices with the run's numbers and what to change, each one what lint
 * says of the inputs (sim/lint/lint_ss_holds.h) as it happened:
 *
 *  - a version change that passed a closed update window (StageSet spec
 *    §5 Q-8; lint's MS234): an adoption attempt (a pass past the
 *    approval gate towards another version, sim/wire/stageset_rc.h) that
 *    started while the StageSet's update windows held new revisions
 *    (windowScope Updates), on a StageSet without an update-now token:
 *    the windows let it through because its sources' revisions had not
 *    changed (warning);
 *  - a StageSet that ended with a revision held by update windows that
 *    never allow an update again (§5 Q-20; lint's MS235): status.
 *    pendingUpdate set, and the windows' decision at the end of the run
 *    "not allowed" with no next change (warning);
 *  - a half-rolled StageSet reported deployed (§5 Q-9; MS236): Ready True
 *    "Deployed; …" (a window or budget deferral) written right after a
 *    promotion hold (Soaking, AwaitingPromotion, PromotionBlocked) of a
 *    stage that has later stages: those kept the old revision (warning);
 *  - a stale pendingVersion (§5 Q-9; MS276): Ready True "Deployed; …" (a
 *    window or budget deferral) while status.pendingVersion named the
 *    version of the last AwaitingApproval status and the scenario's
 *    publishes offered another by then; told with the first such stretch,
 *    to the next status that wrote pendingVersion (warning);
 *  - a budget hold invisible to dependents (§5 Q-10; MS237): a StageSet's
 *    adoption attempt that started while a StageSet it dependsOn showed
 *    Ready True "Deployed; …error budget exhausted…" (warning);
 *  - a soak edited while it ran (§5 Q-21; MS238): a scenario event that
 *    changed a stage's soak while its Soaking status named a later
 *    deadline, which its statuses kept (warning);
 *  - a one-shot token spent by a later gate (§5 Q-11; MS239): a scenario
 *    event's update-now (budget-override) whose first pass the approval
 *    gate (or the budget) held, and a following pass the window (budget)
 *    held again, with no adoption between (warning);
 *  - a gate revert that could not happen (§5 Q-18; MS240): the Warning
 *    PromotionBlocked events "... could not be reverted: ...", counted per
 *    stage (warning).
 *
 * The windows and budgets judged are those of the StageSet's spec at the
 * end of the run, evaluated with the port's window code (lsh_windows_at())
 * and the scenario's series (lsh_budget_at()).  Figures come from the
 * timeline and the StageSet controller's adoption attempts
 * (sim/wire/stageset_rc.h ssrc_members()).
 *
 * Cost: one pass over the timeline that indexes the members' status writes
 * (read by the hazards that follow them), one more for the failed reverts,
 * plus one per scenario event that edits a soak or stamps a token.
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_holds() - adds the notices above to @r's timeline, dated at the
 * end of the run.  Call after the run ended.  @s: the scenario run.
 * Cannot fail (aborts on OOM).
 */
void ss_hazards_holds(struct run_result *r, const struct scenario *s);

#endif
