#ifndef MAGOS_SIM_STAGESET_WORLD_STAGES_H
#define MAGOS_SIM_STAGESET_WORLD_STAGES_H

/*
 * The StageSet world's stages (see sim/models/stageset_world.h for the model
 * as a whole): how an apply rolls out, becomes ready or fails, what actions
 * and restores do, and the faults of the running workload.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/models/stageset_world.h"

/* ---- stages -------------------------------------------------------------- */

/*
 * swst_apply_stage() - env apply_stage of stage @stage (index into the spec's
 * stages) at @ra, starting at @t_ms: a drawn duration; a failure (drawn per
 * apply, in its `during` windows) names its op, class and message (an
 * image-verification failure is skipped when the StageSet carries a
 * non-empty stages.metio.wtf/skip-image-verification, which sets
 * image_skipped).  Unless the failure comes before the objects are written
 * (every op but "record inventory"), a revision other than the one the
 * stage last applied starts a rollout at @t_ms + duration: nchanged 1 and
 * the object in changed_names; the same revision changes nothing.
 * nobjects is 1, plus the objects of apply.conflicts other than the
 * workload.  Conflict handling (engine/stageset_conflict.h, from the
 * stage's force and conflictPolicy) runs after a drawn failure of an
 * earlier op and before one of apply or record inventory: its refusal
 * fails op "conflict policy"; a new revision over objects applied before
 * meets the immutable-field conflicts drawn for it ("rev#<k>/conflict#<i>",
 * the revision's first apply in `during`), and a Fail object fails op
 * "apply" (nothing written), a Recreate one is created anew (in
 * changed_names), a KeepExisting one is skipped; a KeepExisting workload
 * keeps running what it ran (the revision counts as applied, no rollout).
 * substitution_digest is left empty (the wire's).
 */
void swst_apply_stage(struct sw_world *w, const struct sw_member *m, size_t stage,
		    const struct ssc_resolved *ra, int64_t t_ms, struct ssc_apply_outcome *out);

/*
 * swst_stage_steady() - whether swst_apply_stage() of stage @stage of @m at
 * @t_ms, of the revision the stage applied last, would be a steady
 * re-apply: the apply draws nothing then (a constant duration, no failure
 * possible at @t_ms) and the objects are Current, without a fault, when it
 * ends (the verify's first poll finds them ready).  Reads only, unless
 * @commit: then it also counts the apply as swst_apply_stage() does, so a
 * caller that checked every stage first can stand in for the applies of a
 * pass whose inputs are those of the pass before.
 * *@duration_ms: the apply's duration when true.
 */
bool swst_stage_steady(struct sw_world *w, const struct sw_member *m, size_t stage, int64_t t_ms, bool commit,
		     int64_t *duration_ms);

/*
 * swst_seed_stage() - what a snapshot's StageSet @m says of its stage
 * @stage (a name): it runs @revision (status.stages[].appliedRevision),
 * carrying @version (may be NULL), rolled out, Current and past its ready
 * checks since before anything the run looks at (@t_ms, its first sighting,
 * or earlier: a pass in flight at the snapshot is made again as of its
 * start, before the run's 0), without a fault: the workload
 * the cluster runs, which the run starts from.  A later apply of the same
 * revision changes nothing (no rollout, no drift), one of another revision
 * rolls out as rev#2.  Only for a stage the run has not applied yet;
 * otherwise nothing happens.
 */
void swst_seed_stage(struct sw_world *w, const struct sw_member *m, const char *stage,
		     const char *revision, const char *version, int64_t t_ms);

/*
 * swst_running() - the revision stage @stage (a name) of StageSet @ns/@name
 * runs in the world now, and the version it carries (may be NULL): what a
 * restore put back differs from status.stages[].appliedRevision after a
 * whole-run rollback (StageSet spec §5 Q-27).  Both borrowed from @w until
 * its next apply or restore of that stage.  Returns false (nothing set)
 * when the stage never ran a revision.  Cannot fail.
 */
bool swst_running(const struct sw_world *w, const char *ns, const char *name, const char *stage,
		  const char **revision, const char **version);

/*
 * swst_wait_stage() - env wait_stage: the kstatus wait of stage @stage's
 * objects from @t_ms, polling every SW_POLL_MS (the first at once), until
 * Current (READY), Failed (FAILED: "failed early due to stalled resources:
 * [Deployment/<ns>/<name> status: 'Failed']", stalled) or @timeout_ms
 * (TIMEOUT: "timeout waiting for: [... status: 'InProgress']", stalled when
 * Failed at the deadline).  @with_applied does not change the answer: the
 * readyChecks.checks objects are taken to follow the stage's workload.  A
 * stage never applied is ready.  Never DELETED (the wire's).
 */
void swst_wait_stage(struct sw_world *w, const struct sw_member *m, size_t stage, bool with_applied,
		   int64_t timeout_ms, int64_t t_ms, struct ssc_wait_outcome *out);

/*
 * swst_ready_exprs() - env ready_exprs: the CEL poll of stage @stage, as
 * swst_wait_stage() but over the expressions' own times: FAILED "readyCheck
 * failed for <Kind> <ns>/<name>" (Kind of the stage's first expression),
 * TIMEOUT "context deadline exceeded" with *@in_flight true.
 */
void swst_ready_exprs(struct sw_world *w, const struct sw_member *m, size_t stage, int64_t timeout_ms,
		    int64_t t_ms, struct ssc_wait_outcome *out, bool *in_flight);

/*
 * swst_restore_stage() - env restore_stage of stage @stage to @ref: the
 * stage's restore outcome after a drawn duration.  0 restored (the stage
 * runs @ref->revision, ready at once); 1 terminal PreviousRevisionUnavailable
 * or ImageUnverified with upstream's message; 2 the re-apply failed (@err);
 * -1 transient (@err).  A re-fetch (@from_store false) of a revision the
 * producer has garbage-collected (sws_revision_collected()) is terminal
 * PreviousRevisionUnavailable where the outcome would restore; the rollback
 * store's copy (@from_store) is fetched from nowhere, so
 * previousRevisionUnavailable and the producer's GC do not apply to it.
 */
int swst_restore_stage(struct sw_world *w, const struct sw_member *m, size_t stage,
		     const struct sst_artifact_ref *ref, bool from_store, int64_t t_ms, int64_t *duration_ms,
		     char *reason, size_t reasonlen, char *msg, size_t msglen, struct ssc_err *err);

/*
 * swst_run_action() - env run_action: one attempt of action @a of stage
 * @stage (SIZE_MAX: none, onRollback) in @phase ("pre", "post",
 * "onFailure", "onRollback", "migration"): the first `actions` entry of the
 * first rule that has a matching one, else of the top level, decides its
 * duration and failure; default SCN_SW_DEFAULT_ACTION_MS, success.
 * @attempt is not used (every attempt counts in the stream id).
 */
void swst_run_action(struct sw_world *w, const struct sw_member *m, size_t stage, const char *phase,
		   const struct sst_action *a, int attempt, int64_t t_ms, int64_t *duration_ms,
		   struct ssc_err *err);


/* ---- observation ----------------------------------------------------------- */

/*
 * swst_member_faults() - the fault windows of @ns/@name known so far (scripted
 * ones from the regress events that reach it, drawn ones of the revisions
 * applied so far), by start time.
 * @out: receives a borrowed array, valid until the next call for this
 *       StageSet or sw_free().
 * Returns: the count (0 for a StageSet never seen).
 */
size_t swst_member_faults(struct sw_world *w, const char *ns, const char *name,
			const struct sw_fault **out);

/*
 * swst_drift_reaches() - whether drift event @e (one of the scenario's fleet
 * events, SCN_FEV_DRIFT) edits a workload of StageSet @ns/@name: by name, or
 * by selector over its labels at the event's time as the world has seen
 * them; the same test the apply's drift check makes.
 * Returns: false for a StageSet never seen or an event that is not a drift.
 */
bool swst_drift_reaches(const struct sw_world *w, const struct scn_fevent *e, const char *ns,
			const char *name);

/*
 * swst_action_attempts() - how many attempts of action @action of stage
 * @stage ("-" for onRollback) in @phase ("pre", "post", "onFailure",
 * "onRollback", "migration") StageSet @ns/@name has run so far, each retry
 * counted; 0 for an action or a StageSet never run.
 */
uint32_t swst_action_attempts(const struct sw_world *w, const char *ns, const char *name, const char *stage,
			      const char *phase, const char *action);

/*
 * swst_stage_ready_at() - when stage @stage of @ns/@name becomes (or became)
 * Current after its last applied revision: ms, SW_NEVER for never/Failed,
 * -1 when never applied.
 */
int64_t swst_stage_ready_at(const struct sw_world *w, const char *ns, const char *name,
			  const char *stage);

#endif
