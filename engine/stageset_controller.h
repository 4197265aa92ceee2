#ifndef MAGOS_ENGINE_STAGESET_CONTROLLER_H
#define MAGOS_ENGINE_STAGESET_CONTROLLER_H

/*
 * The StageSet controller's reconcile as a pure function
 * (../shared/specs/stageset-controller.md; metio/stageset-controller@f2c7604
 * internal/controller/stageset_controller.go Reconcile and what it calls).
 *
 * One call is one pass of one worker.  Upstream a pass is synchronous and
 * blocks its worker for as long as its waits take (spec §0.2): artifact
 * fetches, actions with their retries, the kstatus verify wait, the CEL
 * ready-expression poll, metric queries.  Here the pass keeps its own clock:
 * it starts at @in->now_ms and every call into the world (struct ssc_env)
 * says how long it took; the next decision reads the advanced clock where
 * upstream reads time.Now() / r.now().  The pass ends at now_ms + elapsed_ms,
 * which is when the caller writes the status and hands the result to the work
 * queue.  The world is asked about times at or after the pass start; it
 * answers from what it knows of them (models are functions of time).
 *
 * Everything the pass decides comes back in struct ssc_result: the finalizer
 * update, the status (written only when it differs: patch.Helper issues no
 * patch for no change), the requeue, Kubernetes events in order with their
 * times, the StageLedger and StageInventory writes (which wake the StageSet
 * again through watches W2/W4), and notes on the surprising behaviours of
 * spec §5 it ran into.
 *
 * What the pass does to the target cluster and to the StageInventory outside
 * apply_stage (connecting as a ServiceAccount, configuring decryption,
 * reading the stored inventory, pruning, tearing down) goes through the
 * optional struct ssc_cluster; without it every such step succeeds and there
 * is nothing to prune.
 *
 * Time: Unix ms throughout (the caller adds its anchor); metav1.Time values
 * written are floored to whole seconds.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/value.h"

/* ---- conditions.go ------------------------------------------------------ */

#define SSC_CONDITION_READY "Ready"

/* The Ready reasons (COND: wire-stable; the order of AllReasons). */
#define SSC_REASON_SUSPENDED "Suspended"
#define SSC_REASON_INVALID_SPEC "InvalidSpec"
#define SSC_REASON_SOURCE_NOT_READY "SourceNotReady"
#define SSC_REASON_ARTIFACT_NOT_FOUND "ArtifactNotFound"
#define SSC_REASON_RESOLVE_FAILED "ResolveFailed"
#define SSC_REASON_DEPENDENCY_NOT_READY "DependencyNotReady"
#define SSC_REASON_STALLED "Stalled"
#define SSC_REASON_INVALID_VERSION "InvalidVersion"
#define SSC_REASON_DOWNGRADE_NOT_ALLOWED "DowngradeNotAllowed"
#define SSC_REASON_DOWNGRADE_REQUIRES_MIGRATION "DowngradeRequiresMigration"
#define SSC_REASON_MIGRATION_STAGE_NOT_FOUND "MigrationStageNotFound"
#define SSC_REASON_MIGRATION_ARTIFACT_INVALID "MigrationArtifactInvalid"
#define SSC_REASON_MIGRATION_SOURCE_NOT_VERIFIED "MigrationSourceNotVerified"
#define SSC_REASON_MIGRATION_SOURCE_NOT_PINNED "MigrationSourceNotPinned"
#define SSC_REASON_AWAITING_APPROVAL "AwaitingApproval"
#define SSC_REASON_MIGRATION_COVERAGE_MISSING "MigrationCoverageMissing"
#define SSC_REASON_MIGRATION_FAILED "MigrationFailed"
#define SSC_REASON_MIGRATION_DIRTY "MigrationDirty"
#define SSC_REASON_ACTION_DIRTY "ActionDirty"
#define SSC_REASON_PREVIOUS_REVISION_UNAVAILABLE "PreviousRevisionUnavailable"
#define SSC_REASON_UPDATE_DEFERRED "UpdateDeferred"
#define SSC_REASON_STAGE_FAILED "StageFailed"
#define SSC_REASON_STAGE_PROGRESSING "StageProgressing"
#define SSC_REASON_IMAGE_UNVERIFIED "ImageUnverified"
#define SSC_REASON_RBAC_DENIED "RBACDenied"
#define SSC_REASON_SOAKING "Soaking"
#define SSC_REASON_AWAITING_PROMOTION "AwaitingPromotion"
#define SSC_REASON_BUDGET_EXHAUSTED "BudgetExhausted"
#define SSC_REASON_BUDGET_SOURCE_UNAVAILABLE "BudgetSourceUnavailable"
#define SSC_REASON_PROMOTION_BLOCKED "PromotionBlocked"
#define SSC_REASON_READY "Succeeded"

/* The runbook directory decorateMessage links to (RunbookBaseURL). */
#define SSC_RUNBOOK_BASE_URL "https://stageset.projects.metio.wtf/runbooks/"

/*
 * ssc_all_reasons() - AllReasons: the 31 Ready reasons in declaration order.
 * @n: receives the count.
 * Returns: a borrowed static array.
 */
const char *const *ssc_all_reasons(size_t *n);

/* failStage ops that select a reason (stageset_controller.go constants). */
#define SSC_OP_MIGRATION "migration"
#define SSC_OP_MIGRATION_DIRTY "migration halted (dirty)"
#define SSC_OP_IMAGE_VERIFICATION "image verification"
#define SSC_OP_ACTION_DIRTY "action halted (dirty)"

/* ---- one pass ------------------------------------------------------------ */

/* Controller flags that change decisions (cmd/main.go flags). */
struct ssc_options {
	int64_t default_interval_ms;          /* --default-interval; SSC_DEFAULT_INTERVAL_MS */
	bool no_cross_namespace_refs;          /* --no-cross-namespace-refs */
	bool require_verified_migration_sources;
	bool require_pinned_migration_sources;
	bool allowed_action_hosts_set;         /* --allowed-action-hosts configured */
	int64_t max_teardown_wait_ms;          /* --max-teardown-wait; SSC_MAX_TEARDOWN_WAIT_MS; <= 0 means the default */
};

/* ssc_options_default() - the upstream flag defaults. */
struct ssc_options ssc_options_default(void);

/* A stored StageInventory record (inventory.StageRecord): its objects as entry IDs. */
struct ssc_inventory_record {
	const char *name;       /* the stage */
	int position;           /* its index in spec.stages when it was recorded */
	const char *const *ids; /* StageInventory entry IDs ("<group>_<kind>_<ns>_<name>" or any stable text) */
	size_t nids;
};

/*
 * The target cluster and the StageInventory beyond apply_stage (stageRuntime,
 * buildDecryptor, recorder.StageRecords, Applier.Delete,
 * recorder.DeleteStageShards).  Every member may be NULL: that step then
 * succeeds and has nothing to report.  Times and durations as in struct ssc_env.
 */
struct ssc_cluster {
	void *ctx;
	/*
	 * The target connection for ServiceAccount @sa ("" is spec.serviceAccountName's
	 * default identity): 0; 1 with @err when spec.kubeConfig is malformed
	 * (errInvalidKubeConfigSpec: terminal InvalidSpec); -1 with @err for any
	 * other connect failure.
	 */
	int (*connect)(void *ctx, const char *sa, int64_t at_ms, struct ssc_err *err);
	/* buildDecryptor: 0 (also without spec.decryption), or -1 with @err. */
	int (*decryptor)(void *ctx, int64_t at_ms, struct ssc_err *err);
	/*
	 * recorder.StageRecords: the stored records (*@out borrowed until the pass
	 * ends), or -1 with @err.  When NULL the pass reads env->inventory_has and
	 * prunes nothing.
	 */
	int (*records)(void *ctx, int64_t at_ms, const struct ssc_inventory_record **out, size_t *n,
		       struct ssc_err *err);
	/* The entry IDs stage @stage (index) rendered in this pass's apply_stage (borrowed). */
	size_t (*rendered)(void *ctx, size_t stage, const char *const **ids);
	/*
	 * Applier.Delete of @ids under ServiceAccount @sa (live objects that lost
	 * the owner labels or carry stages.metio.wtf/prune: disabled are skipped by
	 * the world): 0, or -1 with @err; *@duration_ms how long it took.
	 */
	int (*delete_objects)(void *ctx, const char *sa, const char *const *ids, size_t n, int64_t at_ms,
			      int64_t *duration_ms, struct ssc_err *err);
	/* recorder.DeleteStageShards for a stage removed from the spec: 0, or -1 with @err. */
	int (*delete_shards)(void *ctx, const char *stage, int64_t at_ms, struct ssc_err *err);
};

/*
 * The per-stage arrays of one pass (resolved sources, substitution digests,
 * which stages were recorded or need their inventory rebuilt, dryRun
 * freezes), kept between the passes of one StageSet so that a pass does not
 * allocate them again.  Owned by the keep; only the controller reads or
 * writes them, and every pass starts them afresh (zeroed, digests ""), so
 * what they hold between passes is no input.  Each array has cap + 1 entries;
 * sub_digests[0..cap) are owned strings or NULL.
 */
struct ssc_scratch {
	size_t cap;
	struct ssc_resolved *resolved;
	char **sub_digests;
	bool *needs_reconstruct, *desired;
	struct sst_budget_freeze **stage_budget_freeze; /* all NULL between passes */
	/*
	 * Stage entries of an earlier pass (nslots, each owned): a pass builds
	 * its stageStatuses in them, reusing their strings, and on success
	 * trades them for the status's previous stages.
	 */
	struct sst_stage_status *statuses;
	size_t nslots;
	/* The priorStages index of an earlier pass (nprior, each owned), assigned over by the next. */
	struct sst_stage_status *prior;
	size_t nprior;
	/* The pass's runtimes map (capruntimes entries; what they point to is borrowed for a pass only). */
	const char **runtimes;
	size_t capruntimes;
};

/*
 * What a caller keeps between the passes of one StageSet so that a pass works
 * on allocations of the pass before instead of copying the prior status in
 * and the result's status out afresh (sst_status_assign()): the pass's
 * working status, the status it lends to its result, its per-stage arrays
 * and stage records, and its Ready snapshot.  What they hold between passes
 * is no input: every pass starts from ssc_input.prior.
 * Zero it (or ssc_keep_init()) before the first pass, give it back after each
 * with ssc_result_keep(), and free it with ssc_keep_release().
 */
struct ssc_keep {
	struct sst_status work;   /* the pass's status as it mutates it (struct pass st) */
	struct sst_status result; /* lent to ssc_result.status for the span of a result */
	struct ssc_scratch scratch; /* the pass's per-stage arrays and stage records */
	struct sst_condition ready_snapshot; /* the pass's readyConditionSnapshot copy (strings owned or NULL) */
};

/* ssc_keep_init() - an empty keep (nothing to reuse yet). */
void ssc_keep_init(struct ssc_keep *k);

/* ssc_keep_release() - frees what @k holds; it is then empty.  Accepts NULL. */
void ssc_keep_release(struct ssc_keep *k);

struct ssc_input {
	const struct obj *ss;           /* the StageSet as the pass read it (cache) */
	const struct sst_spec *spec;    /* its parsed spec (sst_spec_parse of ss->spec) */
	const struct sst_status *prior; /* its parsed status (sst_status_parse of ss->status) */
	struct ssc_keep *keep;          /* optional (NULL: fresh copies): the caller's keep for this StageSet */
	int64_t now_ms;                 /* Unix ms at the pass start */
	int64_t anchor_ms;              /* Unix ms of simulated time 0: ss->deletion_ms + anchor_ms is the deletionTimestamp */
	const struct ssc_options *opt;
	const struct ssc_env *env;
	const struct ssc_cluster *cluster; /* NULL: connect/decrypt succeed, nothing to prune */
};

/* How the pass asks to be run again (controller-runtime reconcileHandler). */
enum ssc_requeue {
	SSC_REQUEUE_NONE,          /* Result{} without error: forget the key */
	SSC_REQUEUE_AFTER,         /* RequeueAfter = requeue_after_ms, exact */
	SSC_REQUEUE_AFTER_JITTERED,/* jitter.JitteredRequeueInterval: the caller draws ×(1 + 0.05·(2U−1)) */
	SSC_REQUEUE_RATE_LIMITED,  /* Requeue: true (rate-limited re-add, failures grow) */
	SSC_REQUEUE_ERROR,         /* an error: rate-limited re-add; any RequeueAfter is ignored */
};

/* Which rule ended the pass (for observers and tests; spec §2.2). */
enum ssc_exit {
	SSC_EXIT_NOT_FOUND, SSC_EXIT_DELETE, SSC_EXIT_FINALIZER, SSC_EXIT_SUSPENDED,
	SSC_EXIT_INVALID_SPEC, SSC_EXIT_DEPENDENCY, SSC_EXIT_RESOLUTION, SSC_EXIT_WINDOW,
	SSC_EXIT_BUDGET, SSC_EXIT_KUBECONFIG, SSC_EXIT_PLAN, SSC_EXIT_APPROVAL,
	SSC_EXIT_LEDGER_ERROR, SSC_EXIT_PARK, SSC_EXIT_PROMOTION_HOLD, SSC_EXIT_STAGE_BUDGET_HOLD,
	SSC_EXIT_PROGRESS_HOLD, SSC_EXIT_GATE_UNEVALUABLE, SSC_EXIT_GATE_DENIED,
	SSC_EXIT_DELETED_MID_VERIFY, SSC_EXIT_STAGE_FAILURE, SSC_EXIT_DUPLICATE_CLAIMS,
	SSC_EXIT_PRUNE_ERROR, SSC_EXIT_SUCCEEDED,
};

/* Surprising behaviours of spec §5 a pass ran into (a note each, plain words). */
struct ssc_quirk_note {
	int quirk;   /* the spec's Q number */
	char *text;  /* owned */
};

struct ssc_result {
	enum ssc_exit exit;
	int64_t elapsed_ms;        /* how long the pass held its worker */
	bool add_finalizer;        /* an Update adding SSC_FINALIZER (no status write) */
	bool remove_finalizer;     /* deletion done or force-dropped */
	bool write_status;         /* a status patch is due (status differs from prior) */
	struct sst_status status;  /* the status after the pass (equal to prior when no write) */
	enum ssc_requeue requeue;
	int64_t requeue_after_ms;  /* for AFTER and AFTER_JITTERED (before jitter) */
	char error[512];           /* for SSC_REQUEUE_ERROR: the error text (logs, notices) */
	struct ssc_events events;
	struct val *ledger;        /* new StageLedger (whole object tree: spec+status) to write, or NULL */
	bool ledger_create;        /* it did not exist */
	/* StageInventory shards this pass wrote (stage names, owned): a create or change wakes the StageSet (W2). */
	char **inventory_written; size_t ninventory_written;
	char **inventory_deleted; size_t ninventory_deleted;
	/* The stage the pass was busy with when it ended (index), or SIZE_MAX. */
	size_t stage;
	/*
	 * For observers (no decision reads them): when the pass got past the
	 * approval gate with a version plan, the version it goes on
	 * towards (owned; the plan's desired version, equal to the prior
	 * status.version on a steady pass), and whether the plan is a baseline
	 * or a downgrade; NULL and false otherwise.
	 */
	char *desired;
	bool baseline, downgrade;
	struct ssc_quirk_note *quirks; size_t nquirks;
};

/*
 * ssc_reconcile() - one StageSetReconciler.Reconcile pass.
 * @in:  the inputs (borrowed; @in->ss must have @in->spec and @in->prior from it).
 * @out: filled (previous content ignored); release with ssc_result_release(),
 *       or with ssc_result_keep() when @in->keep was given.  With a keep,
 *       out->status is the keep's (moved in; the caller may swap it for
 *       another status before giving the result back).
 * Errors: cannot fail (a failure is an outcome in @out); aborts on OOM.
 * Source: metio/stageset-controller@f2c7604 internal/controller/stageset_controller.go
 *         Reconcile, failResolution, setReady, readyConditionSnapshot,
 *         emitReadyEvent, patchStatus, decorateMessage, effectiveInterval,
 *         retryInterval, steadyInterval, failReason, stageHasPendingLifetime,
 *         actionFailureOp, failStage, runOnFailure, runOnRollback,
 *         indexStageStatuses, mergeStageStatuses, emitVersionSkips,
 *         reportDrift, reconcileDelete, teardownDropDecision,
 *         teardownFailure, teardownTimedOut, dependenciesReady,
 *         hasDependencyCycle, versionAtLeast, orNoneVersion, stageTimeout,
 *         stageOnTimeout; inventory/plan.go ComputePlan, DuplicateClaims;
 *         reconcile_stage.go, errors.go.
 * Deviations: engine/PROVENANCE.md "engine/stageset_controller".
 */
void ssc_reconcile(const struct ssc_input *in, struct ssc_result *out);

/* ssc_result_release() - frees what @r owns and zeroes it.  Accepts NULL. */
void ssc_result_release(struct ssc_result *r);

/*
 * ssc_result_keep() - ssc_result_release() of a result of a pass given @k,
 * but r->status (whatever status it then holds) goes back to @k for the next
 * pass to reuse instead of being freed.  @r is zeroed.
 */
void ssc_result_keep(struct ssc_result *r, struct ssc_keep *k);

/*
 * ssc_watch_update() - stageSetWatchPredicate's Update: whether a change of a
 * StageSet from @old to @new wakes it (W1): generation changed; requestedAt
 * present on @new and absent on @old or different; reconcile-stage,
 * approved-version, rollback-to or promote changed (absent reads as "").
 * Source: stageset_controller.go stageSetWatchPredicate; controller-runtime
 *         GenerationChangedPredicate; fluxcd/pkg/runtime
 *         ReconcileRequestedPredicate; reconcile_stage.go
 *         reconcileStageRequestedPredicate; migration_approval.go
 *         migrationApprovalPredicate; promotion.go promoteRequestedPredicate.
 */
bool ssc_watch_update(const struct obj *old, const struct obj *new);

/*
 * ssc_depends_on() - whether StageSet @dependent names @ns/@name in its
 * dependsOn (namespace defaulting to its own), for mapStageSetDependents (W3:
 * only dependents in the changed StageSet's namespace are woken).
 */
bool ssc_depends_on(const struct sst_spec *dependent, const char *dependent_ns, const char *ns,
		    const char *name);

/* Intervals (§2.3), ms. */
int64_t ssc_effective_interval(const struct sst_spec *s, const struct ssc_options *o);
int64_t ssc_retry_interval(const struct sst_spec *s, const struct ssc_options *o);
int64_t ssc_steady_interval(const struct sst_spec *s, const struct ssc_options *o);
int64_t ssc_stage_timeout(const struct sst_spec *s, const struct sst_stage *st);

/*
 * ssc_stage_on_timeout() - stageOnTimeout: the stage's onTimeout, else the
 * StageSet's, else "Hold".  Returns a borrowed string.
 */
const char *ssc_stage_on_timeout(const struct sst_spec *s, const struct sst_stage *st);

/* ssc_exit_name() - "Succeeded", "AwaitingApproval", ... a short stable name of @e. */
const char *ssc_exit_name(enum ssc_exit e);

/* ---- helpers the other StageSet modules and the tests share ------------- */

/*
 * ssc_set_ready() - setReady: fluxcd conditions.Set of the Ready condition
 * with @message decorated (ssc_decorate_message).  observedGeneration on the
 * condition becomes @generation; lastTransitionTime becomes @now_ms floored
 * to whole seconds when the condition is new or its status, reason or message
 * change (spec Q-29), and is kept otherwise.  Conditions are then ordered as
 * Flux orders them (Stalled, Reconciling, Ready first, the rest by type).
 * @status: "True" or "False".
 * Cannot fail.
 * Source: stageset_controller.go setReady; fluxcd/pkg/runtime v0.111.0
 *         conditions.Set, lexicographicLess.
 */
void ssc_set_ready(struct sst_status *st, int64_t generation, int64_t now_ms, const char *status,
		   const char *reason, const char *message);

/*
 * ssc_emit_ready_event() - emitReadyEvent: appends the Ready-change event
 * (Normal for "True", Warning otherwise; reason = @reason, note = @message,
 * undecorated) unless @prev (the Ready condition before setReady; NULL when
 * there was none) has the same status and reason.
 */
void ssc_emit_ready_event(struct ssc_events *ev, int64_t at_ms, const struct sst_condition *prev,
			  const char *status, const char *reason, const char *message);

/*
 * ssc_decorate_message() - decorateMessage: @message + " (runbook:
 * <base><lower-case reason>/)" for every reason but Succeeded and Suspended.
 * Returns: a new string; caller frees.
 */
char *ssc_decorate_message(const char *reason, const char *message);

/* ssc_is_permanent_api_error() - isPermanentAPIError: Forbidden or kind not registered. */
bool ssc_is_permanent_api_error(const struct ssc_err *e);

/*
 * ssc_rbac_denial_message() - rbacDenialMessage(@context, @e): the operator
 * message for a permanent API error (Forbidden / NoMatch), else
 * "<context>: <err>".
 * Returns: a new string; caller frees.
 */
char *ssc_rbac_denial_message(const char *context, const struct ssc_err *e);

/* ssc_terminal_fetch_error() - terminalFetchError: class SSC_ERR_TERMINAL_FETCH. */
bool ssc_terminal_fetch_error(const struct ssc_err *e);

/* ssc_is_cross_namespace_ref() - isCrossNamespaceRef: @ref names a namespace other than @owner_ns. */
bool ssc_is_cross_namespace_ref(const struct sst_source_ref *ref, const char *owner_ns);

/*
 * ssc_scrubbed_cross_namespace_message() - scrubbedCrossNamespaceMessage:
 * `cross-namespace <kind or ExternalArtifact> "<name>" is not reachable;
 * check the source CR's status in "<ns>"`.
 * Returns: a new string; caller frees.
 */
char *ssc_scrubbed_cross_namespace_message(const struct sst_source_ref *ref, const char *ns);

/*
 * ssc_fail_reason() - failReason: the Ready reason of a failed stage op and
 * whether it is terminal (no back-off).  Returns a borrowed reason.
 */
const char *ssc_fail_reason(const char *op, const struct ssc_err *cause, bool *terminal);

/*
 * ssc_parse_reconcile_stage() - parseReconcileStage: "<stage>@<token>" of the
 * reconcile-stage annotation split at the first '@'; both "" when absent or
 * malformed (no '@', empty stage or token).
 * @stage, @token: receive new strings; caller frees.
 */
void ssc_parse_reconcile_stage(const struct obj *ss, char **stage, char **token);

/*
 * ssc_merge_stage_statuses() - mergeStageStatuses: in spec order, this pass's
 * entry of a stage (the last one of that name in @processed) else its prior
 * entry (the last of that name in @prior); stages without either and entries
 * of stages no longer in the spec are left out.
 * @out, @nout: receive a new array of deep copies; free each with
 *              sst_stage_status_release() and the array with free().
 */
void ssc_merge_stage_statuses(const struct sst_spec *spec, const struct sst_status *prior,
			      const struct sst_stage_status *processed, size_t nprocessed,
			      struct sst_stage_status **out, size_t *nout);

/*
 * ssc_version_at_least() - versionAtLeast: whether @have >= @min as
 * Masterminds versions.  An unparseable @have is simply not at the floor.
 * Returns: 0, or -1 when @min is not a version (@err receives the library's
 *          text, @errlen bytes).
 */
int ssc_version_at_least(const char *have, const char *min, bool *ok, char *err, size_t errlen);

/*
 * ssc_teardown_drop_decision() - teardownDropDecision: whether a failed
 * teardown step force-drops the finalizer.
 * @deletion_ms: the deletionTimestamp (Unix ms), SST_NO_TIME when none.
 * @max_wait_ms: --max-teardown-wait (<= 0: the 1 h default).
 * @reason:      receives "timed_out", "permanent" or "unauthorized" (borrowed) on a drop.
 * @elapsed_ms:  receives how long the deletion has been pending (0 without a timestamp).
 */
bool ssc_teardown_drop_decision(int64_t deletion_ms, int64_t now_ms, int64_t max_wait_ms,
				const struct ssc_err *cause, const char **reason, int64_t *elapsed_ms);

#endif
