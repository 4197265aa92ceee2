#ifndef MAGOS_SIM_RUN_MAGOS_REVISIONS_H
#define MAGOS_SIM_RUN_MAGOS_REVISIONS_H

/*
 * A revision absorbed mid-run (spec magos-controllers.md §7 #17), told at
 * the end of a run as a timeline notice (a warning) per Workspace, with the
 * run's times and what to do:
 *
 *  - the RefWatcher annotated magosproject.io/detected-revision while the
 *    Workspace was Planning or Applying, for a commit (a scenario `commit`
 *    event on the Workspace's repoURL) that landed after its plan Job's
 *    container started, and the apply that ended that run removed the
 *    annotation and recorded the SHA as status.observedRevision (Step 8):
 *    the plan Job was given the branch, not the SHA, and had checked it out
 *    before the commit existed, so the commit counts as applied although no
 *    plan of it ran; nothing plans it until a run of another cause.
 *
 * No lint rule tells it: whether a commit lands while a run is under way
 * depends on when the run started and how long its Jobs take, which only
 * the run shows.
 *
 * The plan container starts when its Job's status first shows startTime,
 * plus spec.models.jobs.podStartup; the commit is the last commit event on
 * the Workspace's repoURL (and ref, when the event names one) at or before
 * the annotation, or the one whose sha it names.
 */

#include "sim/load/scenario.h"
#include "sim/world/des.h"

/*
 * mrev_end_of_run() - adds the notices above to @w's timeline, dated
 * des_end(@w), the run's end.  Reads @w's store and timeline and the commit events of @s
 * (borrowed; the scenario run).  Cannot fail (aborts on OOM).  Cost:
 * O(timeline entries + absorbed revisions × commit events) expected.
 */
void mrev_end_of_run(struct des *w, const struct scenario *s);

#endif
