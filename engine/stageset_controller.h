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

/* ---- one pass ------------------------------------------------------------ */

/* Controller flags that change decisions (cmd/main.go flags). */
struct ssc_options {
	int64_t default_interval_ms;          /* --default-interval; SSC_DEFAULT_INTERVAL_MS */
	bool no_cross_namespace_refs;          /* --no-cross-namespace-refs */
	bool require_verified_migration_sources;
	bool require_pinned_migration_sources;
	bool allowed_action_hosts_set;         /* --allowed-action-hosts configured */
	int64_t max_teardown_wait_ms;          /* --max-teardown-wait; SSC_MAX_TEARDOWN_WAIT_MS */
};

/* ssc_options_default() - the upstream flag defaults. */
struct ssc_options ssc_options_default(void);

struct ssc_input {
	const struct obj *ss;           /* the StageSet as the pass read it (cache) */
	const struct sst_spec *spec;    /* its parsed spec (sst_spec_parse of ss->spec) */
	const struct sst_status *prior; /* its parsed status (sst_status_parse of ss->status) */
	int64_t now_ms;                 /* Unix ms at the pass start */
	const struct ssc_options *opt;
	const struct ssc_env *env;
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
	struct ssc_quirk_note *quirks; size_t nquirks;
};

/*
 * ssc_reconcile() - one StageSetReconciler.Reconcile pass.
 * @in:  the inputs (borrowed; @in->ss must have @in->spec and @in->prior from it).
 * @out: filled (previous content ignored); release with ssc_result_release().
 * Errors: cannot fail (a failure is an outcome in @out); aborts on OOM.
 * Source: metio/stageset-controller@f2c7604 internal/controller/stageset_controller.go
 *         Reconcile, failResolution, setReady, emitReadyEvent, patchStatus,
 *         decorateMessage, effectiveInterval, retryInterval, steadyInterval,
 *         failReason, actionFailureOp, failStage, runOnFailure, runOnRollback,
 *         mergeStageStatuses, emitVersionSkips, reportDrift, reconcileDelete,
 *         teardownDropDecision, dependenciesReady, hasDependencyCycle,
 *         stageTimeout, stageOnTimeout; reconcile_stage.go, errors.go.
 */
void ssc_reconcile(const struct ssc_input *in, struct ssc_result *out);

/* ssc_result_release() - frees what @r owns and zeroes it.  Accepts NULL. */
void ssc_result_release(struct ssc_result *r);

/*
 * ssc_watch_update() - stageSetWatchPredicate's Update: whether a change of a
 * StageSet from @old to @new wakes it (W1): generation changed; requestedAt
 * present on @new and different; reconcile-stage, approved-version,
 * rollback-to or promote changed.
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

/* ssc_exit_name() - "Succeeded", "AwaitingApproval", ... a short stable name of @e. */
const char *ssc_exit_name(enum ssc_exit e);

#endif
