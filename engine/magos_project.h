#ifndef MAGOS_ENGINE_MAGOS_PROJECT_H
#define MAGOS_ENGINE_MAGOS_PROJECT_H

/*
 * The Magos Project controller as a pure function (spec §3,
 * magosproject/magos@1afc8e6 internal/controller/project/project_controller.go).
 *
 * A pass takes the Project from the cache, the Rollout of the same name (or
 * NULL), the Workspaces of the namespace (cache order) and metav1.Now() as
 * RFC 3339 text, and returns the writes upstream makes, in its order:
 *   MP_OUT_ADD_FINALIZER:      Update of the Project adding the finalizer; stop.
 *   MP_OUT_DELETING:           status write (Deleting), then Update of the
 *                              Project removing the finalizer.
 *   MP_OUT_MANAGED_BY_ROLLOUT: status write only; no Workspace touched (the
 *                              DefaultParallel grants of before stay: §7 #2).
 *   MP_OUT_DEFAULT_PARALLEL:   status write, then one Update per granted
 *                              Workspace adding execution-allowed "true".
 * Status writes are single attempts (PC:updateStatus has no conflict retry)
 * and happen only on change.
 *
 * The Project never aggregates Workspace phases (§3.3): its status says only
 * which mode orchestrates the project, Deleting, or ReconcileError.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/magos_rollout.h"
#include "engine/objects.h"
#include "engine/value.h"

#define MP_FINALIZER "magosproject.io/finalizer"

enum mp_outcome {
	MP_OUT_NONE,               /* Project not found; no writes */
	MP_OUT_ADD_FINALIZER,      /* the finalizer was missing: add it and stop */
	MP_OUT_DELETING,           /* Deleting/Deleting, then remove the finalizer */
	MP_OUT_MANAGED_BY_ROLLOUT, /* Ready/ManagedByRollout */
	MP_OUT_DEFAULT_PARALLEL,   /* Ready/DefaultParallel + grants */
	MP_OUT_RECONCILE_ERROR,    /* Failed/ReconcileError: never produced here (the
				      cache Get/List of the simulator cannot fail) */
};

/* The result of one pass; owns everything it points to. */
struct mp_result {
	enum mp_outcome outcome;
	bool has_status;               /* a status write is intended (Deleting, both modes) */
	struct mr_status_intent want;  /* current_step unused */
	struct val *status;            /* computed against the given Project; NULL: unchanged */
	char **grant;                  /* DefaultParallel: Workspace names to grant, in list order */
	size_t ngrant;
	size_t workspace_count;        /* project_workspace_count gauge (DefaultParallel only) */
	int managed_by_rollout;        /* project_managed_by_rollout gauge: 1, 0, or -1 untouched */
};

/*
 * mp_workspace_has_pending_work() - the DefaultParallel grant test: phase ""
 * or Pending, or a non-empty detected-revision, or a non-empty
 * reconcile-request.  (Planning, Planned, Applying, Applied, Failed,
 * ValidationFailed and Deleting without those annotations: no.)
 * @ws: borrowed Workspace.
 * Source: magosproject/magos@1afc8e6 internal/controller/project/project_controller.go
 *         reconcileProject (hasPendingWork)
 */
bool mp_workspace_has_pending_work(const struct obj *ws);

/*
 * mp_reconcile_project() - one pass of the Project controller (Reconcile,
 * handleDeletion, reconcileProject).
 * @project: the Project from the cache (borrowed), or NULL when not found.
 * @rollout: the Rollout with the Project's name in its namespace (borrowed),
 *           or NULL when there is none.  Its state does not matter: found is
 *           enough (even a Rollout being deleted still defers).
 * @ws:      @nws Workspaces of the namespace (borrowed), list order; others
 *           are ignored.
 * @now:     RFC 3339 text of metav1.Now().
 * @out:     filled by this call; release with mp_result_release().
 * Returns:  0.  Cannot fail.
 * Source: magosproject/magos@1afc8e6 internal/controller/project/project_controller.go
 *         Reconcile, handleDeletion, reconcileProject, updateStatus
 * Deviations: the Get of the Rollout and the List of Workspaces cannot fail
 *         in the simulator, so the ReconcileError path is never taken; the
 *         unreachable RequeueAfter 10s branch of Reconcile is left out; the
 *         metrics are returned, not kept.
 */
int mp_reconcile_project(const struct obj *project, const struct obj *rollout,
			 const struct obj *const *ws, size_t nws, const char *now,
			 struct mp_result *out);

/*
 * A Project's members (the Workspaces of its namespace whose
 * spec.projectRef.name is its name), in List order, with which of them a
 * DefaultParallel pass would grant (not allowed, pending work): kept
 * current with mp_tally_update() as members change, so a pass costs
 * O(members / 4096 + grants) instead of O(Workspaces).  Opaque.
 */
struct mp_tally;

/*
 * mp_tally_new() - a tally of the members @pos (@npos ascending indices
 * into @ws, the cache List; the caller vouches that they are exactly the
 * Project's members) as they are now.
 * Returns: new; free with mp_tally_free().  Cannot fail (aborts on OOM).
 */
struct mp_tally *mp_tally_new(const struct obj *const *ws, const size_t *pos, size_t npos);

/*
 * mp_tally_update() - the Workspace at List index @pos is now @ws
 * (borrowed, read now only), still a member; an index that is not a
 * member is ignored.  Cost: O(log members).
 */
void mp_tally_update(struct mp_tally *t, size_t pos, const struct obj *ws);

/* mp_tally_free() - frees @t.  Accepts NULL. */
void mp_tally_free(struct mp_tally *t);

/*
 * mp_reconcile_project_tally() - mp_reconcile_project() with the
 * DefaultParallel members read from @t (current, every change told)
 * instead of a walk of every Workspace; @ws is the List @t indexes
 * (current versions: the names are read).  @t and @ws are not read
 * unless the pass reaches DefaultParallel.  Same result.
 */
int mp_reconcile_project_tally(const struct obj *project, const struct obj *rollout,
			       const struct mp_tally *t, const struct obj *const *ws,
			       const char *now, struct mp_result *out);

/* mp_result_release() - frees what @r owns and zeroes it.  Accepts NULL. */
void mp_result_release(struct mp_result *r);

/* mp_outcome_name() - "None", "AddFinalizer", "Deleting", "ManagedByRollout", "DefaultParallel", "ReconcileError". */
const char *mp_outcome_name(enum mp_outcome o);

#endif
