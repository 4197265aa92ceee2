#ifndef MAGOS_SIM_RUN_MAGOS_QUIRKS_H
#define MAGOS_SIM_RUN_MAGOS_QUIRKS_H

/*
 * The Magos Workspace surprises of spec magos-controllers.md §7 a run ran
 * into, told at its end as timeline notices (warnings) with the run's
 * numbers and what to change, read from the timeline:
 *
 *  - the Job API refused a plan or apply Job for a negative
 *    spec.plan/apply.timeoutSeconds (§7 #24; lint's MS118): how often, and
 *    for the plan the Failed / ConfigurationChanged loop it makes;
 *  - a Workspace reset to Pending (ScheduledReconcile or RetryApply)
 *    straight from Applying (§7 #13): its apply had finished when its
 *    scheduled reconcile was due, and the same pass reset it, so neither
 *    Applied nor Failed was recorded for that run;
 *  - a Workspace's spec changed while it was Planning or Applying (§7 #12):
 *    it created the new spec's Job while a Job of the old spec was still
 *    running, the two on the same volume and Terraform state;
 *  - a Workspace that ended Planning or Planned without the permission
 *    after its Rollout was deleted (§7 #16): the Project that takes over
 *    grants only Pending ones, and no reset applies to those phases;
 *  - an approval given before the plan it applied (§7 #25: a reset does not
 *    remove magosproject.io/approved), and spec.autoApply changed by a
 *    scenario event while the Workspace waited in Planned (§7 #25: the spec
 *    hash includes it, so it plans again instead of applying);
 *  - a ValidationFailed Workspace under a Project's DefaultParallel grants
 *    (§7 #14): a reconcile-request consumed without a run, and grants
 *    repeated in one instant (a detected-revision: grant, failure path,
 *    revoke, with no time passing until the schedule's next tick).
 *
 * An empty magosproject.io/detected-revision (§7 #20, lint's MS117) is told
 * when the Workspace controller first meets it (sim/wire/magos_wc.c).
 */

#include "sim/load/scenario.h"
#include "sim/world/des.h"

/*
 * mq_end_of_run() - adds the notices above to @w's timeline, dated
 * des_end(@w), the run's end.  Reads the timeline and the store of @w, and the events of
 * @s (borrowed; the scenario run) that a timeline entry names as its cause.
 * Cannot fail (aborts on OOM).  Cost: O(timeline entries) expected, plus
 * the namespace's Rollouts for each Workspace a Rollout deletion may have
 * stranded.
 */
void mq_end_of_run(struct des *w, const struct scenario *s);

/*
 * mq_snap_new() - what a snapshot of @w at des_now(@w) carries for
 * mq_end_of_run() of the run resumed from it, read once from the timeline
 * (and what @w's run was seeded with); @s borrowed for as long as the result
 * lives.  Free with mq_snap_free().  Cost: O(timeline entries).
 */
struct mq_snap;
struct mq_snap *mq_snap_new(struct des *w, const struct scenario *s);

/*
 * mq_snap_state() - of Workspace @ns/@name (SCN_OBSERVER_STATE's
 * lastPlanning and reset* keys, sim/load/scenario.h): when its last run
 * started planning, and its resets to Pending straight from Applying so far
 * (how many, the first's time and reason, how long that run had gone from
 * its plan, -1 when not known).  Returns new "KEY=VALUE ..." text (caller
 * frees), or NULL when there is nothing.
 */
char *mq_snap_state(const struct mq_snap *m, const char *ns, const char *name);

/* mq_snap_free() - frees @m.  Accepts NULL. */
void mq_snap_free(struct mq_snap *m);

#endif
