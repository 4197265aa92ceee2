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

/*
 * mrev_snap_new() - what a snapshot of @w at des_now(@w) carries for
 * mrev_end_of_run() of the run resumed from it, read once from the timeline
 * (and what @w's run was seeded with); @s borrowed for as long as the
 * result lives.  Free with mrev_snap_free().  Cost: O(timeline entries).
 */
struct mrev_snap;
struct mrev_snap *mrev_snap_new(struct des *w, const struct scenario *s);

/*
 * mrev_snap_state() - of Workspace @ns/@name (SCN_OBSERVER_STATE's
 * planContainer, revision* and absorbed* keys, sim/load/scenario.h): its
 * last plan Job's container start, the revision the RefWatcher annotated
 * and when, in what phase and run, and a revision it absorbed already, as
 * wall-clock times (the scenario's start_unix_ms is the run's 0).  Returns
 * new "KEY=VALUE ..." text (caller frees), or NULL when there is nothing.
 */
char *mrev_snap_state(const struct mrev_snap *m, const char *ns, const char *name);

/* mrev_snap_free() - frees @m.  Accepts NULL. */
void mrev_snap_free(struct mrev_snap *m);

#endif
