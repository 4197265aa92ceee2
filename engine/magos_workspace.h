#ifndef MAGOS_ENGINE_MAGOS_WORKSPACE_H
#define MAGOS_ENGINE_MAGOS_WORKSPACE_H

/*
 * The Magos Workspace controller (spec §4), as a pure function.
 *
 * A reconcile pass is mw_reconcile(): it reads one Workspace snapshot, its
 * plan and apply Jobs for the current spec hash, the other Jobs it owns, its
 * PVC, the Project (for the policy selector) and the repository credential
 * Secret, plus the time and a few values the adapter pre-computes (parsed
 * durations, formatted timestamps, one random value).  It returns the writes
 * upstream would make, in upstream order, as a list of actions; the adapter
 * applies them through the store and reports a failed write back with
 * mw_error_status() where upstream checks the error.
 *
 * Status writes are requests, not finished objects: upstream's updateStatus
 * re-reads the latest object and writes only on change, so the adapter reads
 * the store's status when it reaches the action and asks mw_update_status()
 * for the new status (or NULL: no write).
 *
 * Times inside the engine are simulated ms.  Status timestamps are strings the
 * adapter formats (metav1.Time, RFC 3339 whole seconds); the schedule fields
 * (nextReconcileTime, observedReconcileInterval) are returned as values and
 * written by the adapter (updateNextReconcileTime).
 *
 * Source: magosproject/magos@1afc8e6 internal/controller/workspace/workspace_controller.go
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/value.h"

/* Annotation keys, label keys and fixed values (T/workspace_types.go, WC constants). */
#define MW_FINALIZER "magosproject.io/finalizer"
#define MW_ANN_EXECUTION_ALLOWED "magosproject.io/execution-allowed"
#define MW_ANN_RECONCILE_REQUEST "magosproject.io/reconcile-request"
#define MW_ANN_RECONCILE_INTERVAL "magosproject.io/reconcile-interval"
#define MW_ANN_DETECTED_REVISION "magosproject.io/detected-revision"
#define MW_ANN_GIT_POLL_INTERVAL "magosproject.io/git-poll-interval"
#define MW_ANN_APPROVED "magosproject.io/approved"
#define MW_LABEL_WORKSPACE "magosproject.io/workspace"
#define MW_LABEL_JOB_TYPE "magosproject.io/job-type"
#define MW_LABEL_RUN_ID "magosproject.io/run-id"
#define MW_LABEL_SECRET_TYPE "magosproject.io/secret-type"
#define MW_SECRET_TYPE_REPOSITORY "repository"

/* DefaultReconciliationInterval (3 min) and DefaultJobTimeoutSeconds (24 h). */
#define MW_DEFAULT_INTERVAL_MS (3 * 60 * 1000)
#define MW_DEFAULT_JOB_TIMEOUT_S 86400

/* Return codes. */
enum {
	MW_OK = 0,
	MW_EHANG = -1, /* computeNextReconcileTime would loop forever (interval <= 0, spec §7 #19) */
};

/* What the pass ended with. */
enum mw_outcome {
	MW_OUT_DONE,   /* pass complete; see mw_result.schedule / requeue */
	MW_OUT_ERROR,  /* a checked write failed: the adapter took the error path */
	MW_OUT_HANG,   /* the real controller would hang here (interval <= 0); see hang_msg */
};

/*
 * The "in-memory" status fields upstream carries across one pass (the fields
 * updateStatus copies from the in-memory object when non-empty).  Strings and
 * violations owned by whoever holds the struct.
 */
struct mw_mem {
	char *observed_revision; /* NULL or "" = not set */
	char *run_id;
	char *run_trigger;
	struct val *violations; /* list of {policy, message}; NULL = nil */
};

/* One updateStatus call. */
struct mw_status_req {
	const char *phase;   /* static literal */
	const char *reason;  /* static literal */
	char *message;       /* owned */
	const char *cond;    /* "True", "False" or "Unknown" */
	struct mw_mem mem;   /* in-memory fields at the call (owned copies) */
};

enum mw_act_type {
	MW_ACT_ADD_FINALIZER,    /* controllerutil.AddFinalizer + r.Update */
	MW_ACT_REMOVE_FINALIZER, /* controllerutil.RemoveFinalizer + r.Update */
	MW_ACT_UPDATE_DEL_ANN,   /* delete(annotations[key]) + r.Update (full update, can conflict) */
	MW_ACT_PATCH_META,       /* r.Patch(MergeFrom): patch = {"annotations": {k: null, ...}} */
	MW_ACT_STATUS,           /* r.updateStatus (Status().Update, only on change) */
	MW_ACT_CREATE,           /* r.Create(obj): a Job or the PVC */
	MW_ACT_DELETE_JOB,       /* r.Delete(job, Background); errors ignored */
};

/* What a failed write does to the pass. */
enum mw_on_fail {
	MW_FAIL_IGNORE,          /* error logged and ignored: carry on */
	MW_FAIL_RETURN,          /* return the error (outer Reconcile, no status write) */
	MW_FAIL_RECONCILE_ERROR, /* inner pass returns it: outer writes Failed/ReconcileError */
};

struct mw_action {
	enum mw_act_type type;
	enum mw_on_fail on_fail;
	char *key;            /* UPDATE_DEL_ANN: annotation key; DELETE_JOB: Job name (owned) */
	struct val *patch;    /* PATCH_META (owned) */
	struct obj *obj;      /* CREATE (owned; the adapter may steal it and set NULL) */
	struct mw_status_req st; /* STATUS */
	struct mw_mem mem;    /* in-memory fields before this action (for the error path) */
};

/*
 * Schedule inputs the adapter parses (Go duration syntax lives in sim/base/gotime).
 * interval_ms:   reconcile-interval annotation parsed with time.ParseDuration,
 *                or MW_DEFAULT_INTERVAL_MS when absent or invalid; may be <= 0.
 * interval_str:  Go Duration.String() of that interval (e.g. "3m0s"), borrowed.
 * has_next:      status.nextReconcileTime is set (and parsed).
 * next_ms:       its value, simulated ms.
 * observed_ok:   status.observedReconcileInterval parsed as a Go duration.
 * observed_ms:   its value (only when observed_ok).
 * The engine reads status.observedReconcileInterval itself for the string comparison.
 */
struct mw_sched {
	int64_t interval_ms;
	const char *interval_str;
	bool has_next;
	int64_t next_ms;
	bool observed_ok;
	int64_t observed_ms;
};

/* Everything one pass reads.  All pointers borrowed for the duration of mw_reconcile(). */
struct mw_input {
	const struct obj *ws;            /* the Workspace; NULL: not found */
	const struct obj *plan_job;      /* Job <ws>-plan-<h>, NULL: NotFound */
	const struct obj *apply_job;     /* Job <ws>-apply-<h>, NULL: NotFound */
	const struct obj *const *jobs;   /* Jobs of the namespace; Step 2 deletes those with an
					  * ownerReference of the Workspace's UID (others are skipped) */
	size_t njobs;
	const struct obj *pvc;           /* PVC <ws>-data or NULL */
	const struct obj *project;       /* Project spec.projectRef.name or NULL */
	const struct obj *repo_secret;   /* credential Secret matching repoURL or NULL */
	struct mw_sched sched;
	int64_t now_ms;                  /* simulated ms */
	const char *now_rfc3339;         /* metav1.Now() as stored, e.g. "2026-04-26T10:00:00Z" */
	const char *run_id_stamp;        /* now as "YYYYMMDDTHHMMSS" (UTC) */
	uint32_t run_id_rand;            /* 32 random bits for newRunID (see Deviations) */
	/*
	 * mw_get_spec_hash() of ws->spec when the caller already has it (it
	 * depends on the spec only, so an adapter may keep it per generation);
	 * NULL: computed here.  Borrowed, 8 hex digits.
	 */
	const char *spec_hash;
};

/* The writes of one pass, in order, and the outcome. */
struct mw_result {
	struct mw_action *acts;
	size_t n, cap;
	enum mw_outcome outcome;
	/* Success path of the outer Reconcile (updateNextReconcileTime + RequeueAfter). */
	bool schedule;
	int64_t next_ms;          /* status.nextReconcileTime to write, simulated ms (untruncated) */
	char *interval_str;       /* status.observedReconcileInterval to write (owned) */
	int64_t requeue_after_ms; /* > 0: requeue after this; <= 0: none */
	bool used_run_rand;       /* a run ID was minted from run_id_rand */
	char *hang_msg;           /* MW_OUT_HANG: what to tell the user (owned) */
	char spec_hash[9];        /* getSpecHash of the Workspace */
};

/* mw_result_init() / mw_result_release(): a caller-owned result; release accepts NULL. */
void mw_result_init(struct mw_result *r);
void mw_result_release(struct mw_result *r);

/* mw_mem_release() - frees what @m owns and zeroes it.  Accepts NULL. */
void mw_mem_release(struct mw_mem *m);

/*
 * mw_get_spec_hash() - first 8 hex digits of SHA-256 of the JSON encoding of
 * @spec (the Workspace spec map, borrowed; NULL encodes the zero spec).
 * @out: 9 bytes, NUL-terminated.
 * Source: WC getSpecHash.
 * Deviations: the JSON encoding reproduces encoding/json of the typed
 *   WorkspaceSpec (struct field order, omitempty, sorted map keys, HTML-safe
 *   string escaping); fields the Go type does not have are dropped as Go's
 *   decoder drops them.  Not checked against a Go build: only equality of
 *   hashes matters to behaviour.
 */
void mw_get_spec_hash(const struct val *spec, char out[9]);

/*
 * mw_job_name() - "<ws>-plan-<h>" or "<ws>-apply-<h>" for @type "plan" /
 * "apply".  Returns a new string; caller frees.
 */
char *mw_job_name(const char *ws_name, const char *type, const char *hash);

/* mw_pvc_name() - "<ws>-data".  Returns a new string; caller frees. */
char *mw_pvc_name(const char *ws_name);

/*
 * mw_compute_next_reconcile_time() - the schedule grid of spec §4.4.
 * @s:        parsed inputs; @observed: status.observedReconcileInterval (NULL = "").
 * @now_ms:   simulated time.
 * @next_ms:  receives N; @due receives whether the grid tick N had passed.
 * Returns: MW_OK, or MW_EHANG when the loop `while N <= now: N += I` would
 *          never end (I <= 0 with N <= now): upstream hangs the worker.
 * Source: WC computeNextReconcileTime.
 */
int mw_compute_next_reconcile_time(const struct mw_sched *s, const char *observed, int64_t now_ms,
				   int64_t *next_ms, bool *due);

/*
 * mw_new_run_id() - "<stamp>-<8 lowercase hex of rand>", e.g.
 * "20260426T100000-0badcafe".  Returns a new string.
 * Source: WC newRunID.  Deviations: the 32 bits come from the adapter (a
 *   per-Workspace PCG32 stream) instead of crypto/rand.
 */
char *mw_new_run_id(const char *stamp, uint32_t rand);

/*
 * mw_run_trigger_from_reset_reason() - "configuration", "manual",
 * "scheduled", "revision", "retry" or "unknown".  Static string.
 * Source: WC runTriggerFromResetReason.
 */
const char *mw_run_trigger_from_reset_reason(const char *reason);

/*
 * mw_resolve_effective_policy_selector() - spec §4.12: the Workspace's
 * spec.validation.policySelector when non-nil, else the Project's (@project may
 * be NULL: not found), else none; converted with LabelSelectorAsSelector and
 * printed with String().  A conversion error and the empty selector `{}` both
 * give "" (no validation).
 * Returns: a new string ("" = no validation); caller frees.
 * Source: WC resolveEffectivePolicySelector.
 */
char *mw_resolve_effective_policy_selector(const struct obj *ws, const struct obj *project);

/*
 * mw_construct_job_for_workspace() - the Job object of the JOB CONTRACT.
 * @type: "plan" or "apply"; @name: the Job name; @run_id: its run-id label.
 * @project, @repo_secret: as in struct mw_input.
 * Returns: a new object (batch/v1 Job, namespace of @ws); caller frees.
 * Source: WC constructJobForWorkspace.
 * The Job carries the controller ownerReference of @ws (SetControllerReference)
 * and the label magosproject.io/workspace.
 * Deviations: the container is named "terraform" as the JOB CONTRACT says
 *   (upstream "job"), without image, volumes or mounts.
 */
struct obj *mw_construct_job_for_workspace(const struct obj *ws, const char *name,
					   const char *type, const char *plan_file,
					   const char *run_id, const struct obj *project,
					   const struct obj *repo_secret);

/*
 * mw_update_status() - the body of updateStatus's retry closure.
 * @latest: the stored status (borrowed; NULL or a map).
 * @req:    the request.
 * @now:    metav1.Now() as stored (RFC 3339 text), for lastReconcileTime and
 *          the Ready condition's lastTransitionTime.
 * Returns: a new status map to write, or NULL when nothing changes (no write,
 *          lastReconcileTime untouched).
 * Semantics: phase/reason/message together; observedRevision, currentRunID,
 *   currentRunTrigger copied when non-empty; policyViolations cleared for
 *   Pending and Planning, otherwise copied (and forcing a write) when the
 *   in-memory list is non-nil; the Ready condition as meta.SetStatusCondition.
 * Source: WC updateStatus.
 */
struct val *mw_update_status(const struct val *latest, const struct mw_status_req *req,
			     const char *now);

/*
 * mw_reconcile() - one pass of WC:Reconcile for @in, into @out (initialised
 * with mw_result_init(); emptied first).
 * Order of actions and their failure handling are upstream's.  When an action
 * with on_fail != MW_FAIL_IGNORE fails, the adapter stops applying actions,
 * and for MW_FAIL_RECONCILE_ERROR applies the status mw_error_status() gives;
 * both return the error to the work queue (back-off); no schedule write.
 * Returns: MW_OK, or MW_EHANG (out->outcome MW_OUT_HANG, out->hang_msg set;
 *          the actions before the hang are in @out and should be applied).
 * Source: WC Reconcile, handleDeletion, reconcileWorkspace, ensurePVC.
 * Deviations: see engine/PROVENANCE.md (Workspace section).
 */
int mw_reconcile(const struct mw_input *in, struct mw_result *out);

/*
 * mw_error_status() - the status request of Reconcile's error path
 * (Failed/ReconcileError/<@errtext>, Ready False) after action @failed failed.
 * @out: filled; release its fields with mw_status_req_release().
 */
void mw_error_status(const struct mw_action *failed, const char *errtext,
		     struct mw_status_req *out);

/* mw_status_req_release() - frees what @r owns.  Accepts NULL. */
void mw_status_req_release(struct mw_status_req *r);

#endif
