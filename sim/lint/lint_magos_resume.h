#ifndef MAGOS_SIM_LINT_MAGOS_RESUME_H
#define MAGOS_SIM_LINT_MAGOS_RESUME_H

/*
 * A run resumed without the RefWatcher's memory:
 *   MS122  a Workspace of the inputs comes with a status.observedRevision
 *          that is not a commit SHA (the branch name every run but a
 *          revision run records) and without the RefWatcher memory a
 *          snapshot of the simulator carries (state.magos-sim.io/refwatcher):
 *          the RefWatcher seeds the SHA it last saw from observedRevision,
 *          as a restarted RefWatcher does, so its first poll reads the
 *          branch's head as a new revision and the Workspace plans and
 *          applies again with no new commit (Magos spec §7 #18).
 * The run tells the same when it happens (sim/run/magos_resume.h).
 */

#include <stdbool.h>

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lmr_seeded_from_branch() - whether Workspace @ws of @s's inputs is one
 * MS122 is about (as above).  @observed receives its
 * status.observedRevision (borrowed from @ws) when true.  Cannot fail.
 */
bool lmr_seeded_from_branch(const struct scenario *s, const struct obj *ws, const char **observed);

/*
 * lint_magos_resume() - appends to @r the findings of MS122 over the
 * Workspaces of @s's inputs (borrowed), at their status.observedRevision.
 * Works on a partially loaded scenario.  Cannot fail (aborts on OOM).
 * Cost: O(Workspaces × restored RefWatcher entries).
 */
void lint_magos_resume(struct lint_report *r, const struct scenario *s);

#endif
