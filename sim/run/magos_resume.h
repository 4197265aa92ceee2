#ifndef MAGOS_SIM_RUN_MAGOS_RESUME_H
#define MAGOS_SIM_RUN_MAGOS_RESUME_H

/*
 * A Workspace run again because the RefWatcher was seeded from a branch
 * name (spec magos-controllers.md §7 #18), told at the end of a run as a
 * timeline notice (a warning) per Workspace; what lint's MS122 says of the
 * inputs (sim/lint/lint_magos_resume.h) as it happened:
 *
 *  - a Workspace of the inputs with a status.observedRevision that is not a
 *    commit SHA and no RefWatcher memory (lmr_seeded_from_branch()), whose
 *    first detected-revision annotation by a RefWatcher poll came with no
 *    scenario `commit` event on its repoURL at or before it: the SHA read
 *    is the head the branch had all along.  Told with the poll's time and
 *    SHA, the NewRevisionDetected reset it caused and, when the run got
 *    there, the apply that recorded it as observedRevision.
 *
 * Figures come from the timeline (metadata updates and status writes) and
 * the commit events of the scenario.  Cost: one pass over the timeline per
 * such Workspace.
 */

#include "sim/load/scenario.h"
#include "sim/world/des.h"

/*
 * mres_end_of_run() - adds the notices above to @w's timeline, dated
 * des_end(@w), the run's end.  @s: the scenario run (borrowed).  Cannot fail (aborts on
 * OOM).
 */
void mres_end_of_run(struct des *w, const struct scenario *s);

#endif
