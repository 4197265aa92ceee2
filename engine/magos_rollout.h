#ifndef MAGOS_ENGINE_MAGOS_ROLLOUT_H
#define MAGOS_ENGINE_MAGOS_ROLLOUT_H

/*
 * The Magos Rollout controller as a pure function (spec §2,
 * magosproject/magos@1afc8e6 internal/controller/rollout/rollout_controller.go).
 *
 * A reconcile takes the Rollout as the informer cache holds it, the
 * Workspaces of its namespace (cache order: by name) and the wall-clock time
 * of the pass already serialised as a metav1.Time, and returns what upstream
 * would write, in upstream order:
 *   1. grants:  Update of each named Workspace adding execution-allowed "true"
 *               in member order;
 *   2. revokes: Update of each named Workspace deleting execution-allowed
 *               levels in order, members in order; a Workspace in
 *               several non-current levels is named once per level, as
 *               upstream revokes it once per level;
 *   3. the status write (RC:updateStatus) of the pass's outcome, only when
 *      something changed.
 * Every Update re-reads the Workspace first (the adapter does that); a
 * Workspace gone by then is skipped, as upstream skips a failed Get.
 *
 * The status helpers (mr_update_status, mr_set_status_condition) are shared
 * with the Project port (engine/magos_project.h), whose updateStatus differs
 * only in having no currentStep and no conflict retry.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/value.h"

/* Annotation keys and values (T/workspace_types.go). */
#define MR_ANN_EXECUTION_ALLOWED "magosproject.io/execution-allowed"
#define MR_ANN_RECONCILE_REQUEST "magosproject.io/reconcile-request"
#define MR_ANN_DETECTED_REVISION "magosproject.io/detected-revision"
#define MR_VALUE_TRUE "true"

/* Return codes. */
enum {
	MR_OK = 0,
	MR_ERECONCILE = -1, /* ReconcileError: the pass returns an error (back-off requeue) */
};

/* What one pass concluded, in the precedence order of spec §2.5. */
enum mr_outcome {
	MR_OUT_NONE,                 /* Rollout not found or being deleted; no writes */
	MR_OUT_NO_STEPS,             /* Ready/NoSteps */
	MR_OUT_NO_WORKSPACES_FOUND,  /* Failed/NoWorkspacesFound */
	MR_OUT_ROLLOUT_COMPLETED,    /* Applied/RolloutCompleted */
	MR_OUT_STEP_FAILED,          /* Failed/StepFailed */
	MR_OUT_LEVEL_PROGRESSING,    /* Reconciling/LevelProgressing */
	MR_OUT_RECONCILE_ERROR,      /* R-ERR: Failed/ReconcileError */
};

/*
 * A level: consecutive steps whose member sets are identical.
 * Invariants: start_idx <= end_idx; members are indices into the Workspace
 * array given to mr_reconcile_rollout(), in that array's order.
 */
struct mr_level {
	size_t start_idx; /* first step index */
	size_t end_idx;   /* last step index */
	char *names;      /* owned: step names joined by ", " */
	size_t *members;  /* owned: nmembers indices */
	size_t nmembers;
};

/* The desired status of a pass, as the arguments of RC:updateStatus. */
struct mr_status_intent {
	const char *phase;   /* static: "Ready", "Failed", "Applied", "Reconciling" */
	const char *reason;  /* static: upstream reason literal */
	char *message;       /* owned: upstream message literal */
	const char *ready;   /* static: "True", "False", "Unknown" */
	int64_t current_step;
};

/*
 * The result of one pass.  Everything is owned by the result (release with
 * mr_result_release()); strings are copies, so nothing here depends on the
 * inputs staying alive, except that level members are indices into them.
 */
struct mr_result {
	enum mr_outcome outcome;
	bool has_status;               /* false only for MR_OUT_NONE */
	struct mr_status_intent want;  /* valid when has_status */
	char *error;                   /* MR_OUT_RECONCILE_ERROR: the error text (= want.message) */
	struct mr_level *levels;       /* levels built (all of them, or those before an empty step) */
	size_t nlevels;
	bool borrowed;                 /* @levels belong to the plan of the pass (valid while it is) */
	long current_level;            /* index into levels, -1 when none is current */
	bool level_transition;         /* R-4 metric: start_idx != stored currentStep */
	char **grant;                  /* Workspace names to grant, in order */
	size_t ngrant;
	char **revoke;                 /* Workspace names to revoke, in order (may repeat) */
	size_t nrevoke;
	/*
	 * Quirk §7 #1: members of the current level that also belong to another
	 * level (overlapping step selectors).  They are granted in one pass and
	 * revoked in the next, forever, while pending.  Names, owned.
	 */
	char **overlapping;
	size_t noverlapping;
	/* The status to write, computed against the given Rollout; NULL when nothing changes. */
	struct val *status;
};

/*
 * mr_workspace_fully_applied() - workspaceFullyApplied: phase Applied and no
 * detected-revision key (an empty value counts as present).
 * @ws: borrowed Workspace.
 * Source: magosproject/magos@1afc8e6 internal/controller/rollout/rollout_controller.go
 *         workspaceFullyApplied
 */
bool mr_workspace_fully_applied(const struct obj *ws);

/*
 * mr_workspace_pending() - the "pending work" test of reconcileRollout:
 * not fully applied, or a non-empty reconcile-request, or phase "" / Pending.
 * @ws: borrowed Workspace.
 * Source: magosproject/magos@1afc8e6 internal/controller/rollout/rollout_controller.go
 *         reconcileRollout (Step 2 and Step 4 conditions)
 */
bool mr_workspace_pending(const struct obj *ws);

/* mr_workspace_failed() - phase Failed or ValidationFailed.  @ws borrowed. */
bool mr_workspace_failed(const struct obj *ws);

/* mr_workspace_allowed() - execution-allowed annotation == "true".  @ws borrowed. */
bool mr_workspace_allowed(const struct obj *ws);

/*
 * mr_set_status_condition() - meta.SetStatusCondition for a condition list
 * in the JSON form: finds the entry of @type in @conds (a list, modified in
 * place); absent → appends {type, status, lastTransitionTime: @now, reason,
 * message}; present → updates status (and lastTransitionTime to @now only
 * when status changes), reason, message, and clears a non-zero
 * observedGeneration (the new condition has none).
 * @conds:  list node (asserted).
 * @now:    RFC 3339 text of metav1.Now(), e.g. "2026-01-01T00:00:05Z".
 * Returns: true when anything changed.
 * Source: k8s.io/apimachinery@v0.36.0 pkg/api/meta/conditions.go SetStatusCondition
 */
bool mr_set_status_condition(struct val *conds, const char *type, const char *status,
			     const char *reason, const char *message, const char *now);

/*
 * mr_update_status() - the decision and the new status of RC:updateStatus
 * (and of PC:updateStatus when @with_current_step is false).
 * @latest:  the object as re-read from the cache right before the write (borrowed).
 * @want:    desired phase/reason/message/Ready status (and currentStep).
 * @with_current_step: true for the Rollout (status.currentStep, always
 *           serialised), false for the Project (no such field).
 * @now:     RFC 3339 text of metav1.Now().
 * Returns:  NULL when nothing changes (no write, lastReconcileTime kept);
 *           otherwise a new status map (caller frees) in the field order
 *           and with the omitempty rules of the Go type: phase, currentStep,
 *           reason, message, lastReconcileTime = @now, conditions.
 * Deviations: fields the Go type does not know are dropped from a written
 *           status (Go's decoder ignores them; the API server would prune
 *           them anyway).
 * Source: magosproject/magos@1afc8e6 internal/controller/rollout/rollout_controller.go
 *         updateStatus (the body of the retry closure)
 */
struct val *mr_update_status(const struct obj *latest, const struct mr_status_intent *want,
			     bool with_current_step, const char *now);

/*
 * mr_reconcile_rollout() - one pass of the Rollout controller (Reconcile +
 * reconcileRollout).
 * @rollout: the Rollout from the cache (borrowed), or NULL when not found.
 * @ws:      @nws Workspaces (borrowed), the cache list of the Rollout's
 *           namespace in list order; Workspaces of other namespaces are
 *           ignored.  Level members index this array.
 * @now:     RFC 3339 text of metav1.Now() (whole seconds) for the status.
 * @out:     filled by this call (previous content ignored); release with
 *           mr_result_release() whatever the return value.
 * Returns:  MR_OK, or MR_ERECONCILE when a step selector does not convert
 *           (outcome MR_OUT_RECONCILE_ERROR, status Failed/ReconcileError
 *           with the apimachinery error text, currentStep unchanged): the
 *           caller returns an error so controller-runtime backs off.
 * Cost:     O(steps × (workspaces × selector size)) plus the level scan
 *           (a throw-away mr_plan_new() and mr_reconcile_rollout_plan()).
 * Source: magosproject/magos@1afc8e6 internal/controller/rollout/rollout_controller.go
 *         Reconcile, reconcileRollout
 * Deviations:
 *  - member sets are compared as index sequences into @ws instead of UID
 *    sets: both come from the same list, so they are equal exactly when the
 *    UID sets are;
 *  - a missing or null step selector is the empty selector (matches every
 *    Workspace of the project), as Go's zero-value LabelSelector is;
 *  - List errors cannot happen (the cache is the store), so the only
 *    ReconcileError is an invalid selector;
 *  - metrics are returned (current_level, level_transition), not kept.
 */
int mr_reconcile_rollout(const struct obj *rollout, const struct obj *const *ws, size_t nws,
			 const char *now, struct mr_result *out);

/*
 * A Rollout's plan: the levels R-2 resolves its steps into, which depend
 * only on the Rollout's namespace and spec (steps, projectRef) and on the
 * Workspace List (identity, order, namespace, spec.projectRef.name,
 * labels), kept with per-level counts of what R-3..R-7 read of the members
 * (pending, failed, allowed), so that a pass over an unchanged List costs
 * O(levels / 64 + grants + revokes) instead of O(steps x Workspaces).
 * Build it with mr_plan_new(), tell it of every change of a member's
 * status or annotations with mr_plan_update(), and build a new one when
 * the Rollout's (uid, generation) or anything the levels depend on
 * changes.  Opaque.
 */
struct mr_plan;

/*
 * mr_plan_new() - R-1 and R-2 of a pass, and the member facts as they are now.
 * @rollout: the Rollout (borrowed; read now only).
 * @ws:      @nws Workspaces (borrowed; read now only), the cache List in
 *           list order; the plan refers to them by index.
 * @cand:    NULL, or @ncand ascending indices into @ws that hold every
 *           Workspace of the Rollout's namespace whose projectRef names
 *           its project (others among them are ignored): the plan then
 *           looks only at those.
 * Returns:  new; free with mr_plan_free().  Cannot fail (aborts on OOM).
 * Cost:     O(steps x candidates x selector size + memberships log).
 */
struct mr_plan *mr_plan_new(const struct obj *rollout, const struct obj *const *ws, size_t nws,
			    const size_t *cand, size_t ncand);

/*
 * mr_plan_update() - Workspace @pos (the index it had for mr_plan_new())
 * is now @ws (borrowed, read now only), with the same namespace,
 * projectRef and labels (the caller vouches; a change of those needs a
 * new plan).  A Workspace in no level is ignored.
 * Cost: O(log members + levels of @pos).
 */
void mr_plan_update(struct mr_plan *p, size_t pos, const struct obj *ws);

/* mr_plan_free() - frees @p.  Accepts NULL. */
void mr_plan_free(struct mr_plan *p);

/*
 * mr_reconcile_rollout_plan() - mr_reconcile_rollout() over a plan: the
 * same result, decided from @p's levels and counts.
 * @rollout: as for mr_reconcile_rollout(); the plan is not read when it
 *           is NULL or being deleted, and may then be NULL.
 * @p:       a plan of @rollout's (uid, generation) over the current List,
 *           every change told (it keeps, per level, the report of
 *           overlapping members once computed).
 * @ws:      the List the plan indexes, current versions (names are read).
 * Returns:  as mr_reconcile_rollout(); @out->levels are borrowed from @p
 *           (@out->borrowed), valid until @p is freed.
 * Cost:     O(levels / 64 + grants + revokes + overlapping members), plus
 *           the overlap report's O(memberships log) on the first pass that
 *           needs it for a level.
 */
int mr_reconcile_rollout_plan(const struct obj *rollout, struct mr_plan *p,
			      const struct obj *const *ws, const char *now, struct mr_result *out);

/* mr_result_release() - frees what @r owns and zeroes it.  Accepts NULL. */
void mr_result_release(struct mr_result *r);

/* mr_outcome_name() - "None", "NoSteps", "NoWorkspacesFound", ... (the reason literal). */
const char *mr_outcome_name(enum mr_outcome o);

#endif
