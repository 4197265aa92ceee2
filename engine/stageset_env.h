#ifndef MAGOS_ENGINE_STAGESET_ENV_H
#define MAGOS_ENGINE_STAGESET_ENV_H

/*
 * What a StageSet reconcile pass talks to outside the controller, shared by
 * the modules of the StageSet port (engine/stageset_*.h): the world as
 * callbacks (struct ssc_env), upstream's error classes, the constants of
 * stageset_controller.go, the pass clock, and the list of Kubernetes events a
 * pass emits.  See engine/stageset_controller.h for how a pass uses them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/labels.h"
#include "engine/objects.h"
#include "engine/stageset_types.h"

struct tz_zone; /* engine/tz.h */
struct ssc_rollback_store; /* below */

/* Constants (SC, VS, ACT). */
#define SSC_FINALIZER "stages.metio.wtf/finalizer"
#define SSC_CONCURRENT_RECONCILES 4
#define SSC_DEFAULT_INTERVAL_MS INT64_C(600000)      /* --default-interval */
#define SSC_PERMANENT_RETRY_MS INT64_C(60000)       /* permanentRetryInterval */
#define SSC_DEFAULT_STAGE_TIMEOUT_MS INT64_C(900000) /* defaultStageTimeout */
#define SSC_JITTER_FRACTION 0.05                     /* defaultIntervalJitterFraction */
#define SSC_MAX_TEARDOWN_WAIT_MS INT64_C(3600000)    /* defaultMaxTeardownWait */
#define SSC_KSTATUS_POLL_MS INT64_C(2000)
#define SSC_DELETION_POLL_MS INT64_C(5000)
#define SSC_MAX_MIGRATION_FAILURES 5
#define SSC_MAX_ACTION_FAILURES 5

/* Annotations read (§1.12). */
#define SSC_ANN_APPROVED_VERSION "stages.metio.wtf/approved-version"
#define SSC_ANN_ROLLBACK_TO "stages.metio.wtf/rollback-to"
#define SSC_ANN_PROMOTE "stages.metio.wtf/promote"
#define SSC_ANN_RECONCILE_STAGE "stages.metio.wtf/reconcile-stage"
#define SSC_ANN_REQUESTED_AT "reconcile.fluxcd.io/requestedAt"
#define SSC_ANN_UPDATE_NOW "stages.metio.wtf/update-now"
#define SSC_ANN_BUDGET_OVERRIDE "stages.metio.wtf/budget-override"
#define SSC_ANN_RESET_SCOPE "stages.metio.wtf/reset-scope"
#define SSC_ANN_SKIP_IMAGE_VERIFICATION "stages.metio.wtf/skip-image-verification"

/* ---- the world the pass talks to ---------------------------------------- */

/* How a call into the world failed; upstream's error classes (ERR). */
enum ssc_errc {
	SSC_OK = 0,
	SSC_ERR,           /* any other error: text in the message */
	SSC_ERR_NOT_FOUND, /* apierrors.IsNotFound */
	SSC_ERR_FORBIDDEN, /* apierrors.IsForbidden (isPermanentAPIError, rbacDenialMessage) */
	SSC_ERR_NO_MATCH,  /* kind not registered (meta.IsNoMatchError) */
	SSC_ERR_TERMINAL_FETCH, /* terminalFetchError: scheme/host/address/digest/size/duplicate entry */
	SSC_ERR_NO_RETRY,  /* an action error the executor does not retry (unsupported, forbidden host/address, HTTP 4xx) */
	SSC_ERR_UNAUTHORIZED, /* apierrors.IsUnauthorized (teardownDropDecision: the tenant identity is gone) */
};

/* The outcome of a call: an error class and its text (empty on success). */
struct ssc_err {
	enum ssc_errc code;
	char msg[512];
};

/* A resolved stage source (artifact.ResolvedArtifact). */
struct ssc_resolved {
	char key[320];         /* "<ns>/<name>" of the ExternalArtifact (Key()) */
	const char *url, *revision, *digest; /* borrowed from the source object */
	int verified, pinned;  /* *bool: -1 nil, 0 false, 1 true */
	const struct obj *source; /* the object the artifact was read from (borrowed) */
};

/* What one stage's fetch → decrypt → postBuild → build → image gate → conflict policy → apply → record did. */
struct ssc_apply_outcome {
	const char *failed_op;   /* NULL: applied; else "fetch artifact", "decrypt", "resolve postBuild variables",
	                            "build", "image verification", "conflict policy", "apply", "record inventory" */
	struct ssc_err err;      /* when failed_op is set */
	int64_t duration_ms;     /* >= 0 */
	size_t nobjects;         /* objects rendered (StageInventory entries) */
	size_t nchanged;         /* objects SSA created or configured (drift when the revision is unchanged) */
	char changed_names[512]; /* "Kind/name, Kind/name" of the changed objects, for DriftCorrected */
	bool image_skipped;      /* the skip-image-verification annotation was honoured (event) */
	char substitution_digest[80]; /* substitutionDigest of the postBuild inputs */
};

/* What the verify of one stage found (VS:verifyStage before message assembly). */
enum ssc_wait_result {
	SSC_WAIT_READY,       /* every object Current (or nothing to wait for) */
	SSC_WAIT_TIMEOUT,     /* still in progress when the timeout ran out */
	SSC_WAIT_FAILED,      /* an object is kstatus-Failed (fail-fast) */
	SSC_WAIT_DELETED,     /* the StageSet got a deletionTimestamp during the wait (5 s poll) */
};
struct ssc_wait_outcome {
	enum ssc_wait_result result;
	int64_t duration_ms;  /* how long the wait blocked */
	struct ssc_err err;   /* the waiter's error text: "timeout waiting for: [...]" or the failure */
	bool stalled;         /* Stalled(): some object in the wait set is Failed now */
};

/*
 * The world.  Every function gets @ctx and @at_ms, the pass's clock (Unix ms)
 * when upstream makes that call, and must not write anything the pass would
 * read later in the same pass (the pass works on the state read at its start,
 * as the upstream pass does on its cached objects).
 */
struct ssc_env {
	void *ctx;

	/* Get through the API reader: the object or NULL with err (NotFound, Forbidden, NoMatch, other). */
	const struct obj *(*get)(void *ctx, const char *api_version, const char *kind, const char *ns,
				 const char *name, int64_t at_ms, struct ssc_err *err);
	/* List @kind in @ns (ExternalArtifacts for producer refs): count, *out borrowed; err as for get. */
	size_t (*list)(void *ctx, const char *api_version, const char *kind, const char *ns, int64_t at_ms,
		       const struct obj *const **out, struct ssc_err *err);

	/* A file of an artifact (fromArtifact version, sourced ladders): new text in *content, or err (NotFound: no such file; other: fetch error, transient). */
	int (*artifact_file)(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms,
			     char **content, int64_t *duration_ms, struct ssc_err *err);
	/* The files of a sourced ladder under @path, sorted by path: count of (path, content) pairs (new), or err. */
	size_t (*ladder_files)(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms,
			       char ***paths, char ***contents, int64_t *duration_ms, struct ssc_err *err);
	/* Build stage @stage (index) at @ra and read the version object's field or label (fromObject): new text, or err with the upstream detail text; transient fetch errors as SSC_ERR with transient=true. */
	int (*object_version)(void *ctx, size_t stage, const struct ssc_resolved *ra, const char *kind,
			      const char *name, const char *api_version, const char *field_path,
			      int64_t at_ms, char **version, bool *transient, int64_t *duration_ms,
			      struct ssc_err *err);

	/* One attempt of an action (dispatch): duration and error (class NO_RETRY stops the retries). */
	void (*run_action)(void *ctx, size_t stage, const char *phase, const struct sst_action *a,
			   int attempt, int64_t at_ms, int64_t *duration_ms, struct ssc_err *err);

	/* Everything from fetch to record inventory for stage @stage (index) at @ra. */
	void (*apply_stage)(void *ctx, size_t stage, const struct ssc_resolved *ra, int64_t at_ms,
			    struct ssc_apply_outcome *out);
	/* The kstatus wait of stage @stage's wait set (@with_applied: the applied objects are in it), timeout @timeout_ms. */
	void (*wait_stage)(void *ctx, size_t stage, bool with_applied, int64_t timeout_ms, int64_t at_ms,
			   struct ssc_wait_outcome *out);
	/* The CEL ready-expression poll of stage @stage (only called when it has exprs): outcome as for the wait; TIMEOUT with @in_flight when the last poll saw inProgress. */
	void (*ready_exprs)(void *ctx, size_t stage, int64_t timeout_ms, int64_t at_ms,
			    struct ssc_wait_outcome *out, bool *in_flight);

	/* A metric source's scalar at @at_ms (Querier.Query): 0 and *value, or nonzero with err. */
	int (*query)(void *ctx, const struct sst_metric_source *src, int64_t at_ms, double *value,
		     int64_t *duration_ms, struct ssc_err *err);
	/* Sum of restartCount over live pods of @ns matching @sel (podRestartTotal), or err. */
	int (*pod_restarts)(void *ctx, const char *ns, const struct lbl_selector *sel, int64_t at_ms,
			    int32_t *total, struct ssc_err *err);
	/* Warning events on live selected pods of @ns with a listed reason, Σ max(count,1) (podWarningEventTotal), or err. */
	int (*warning_events)(void *ctx, const char *ns, const struct lbl_selector *sel,
			      const char *const *reasons, size_t nreasons, int64_t at_ms, int32_t *total,
			      struct ssc_err *err);

	/* Re-apply stage @stage from snapshot @ref (rollbackStageObjects + verifiedRollbackObjects + apply + record);
	 * @from_store: the objects are the rollback store's copy (rollback_store->get found them and they decode),
	 * so there is no re-fetch, decrypt, postBuild or rebuild (nothing the producer's GC can fail), only the
	 * image gate, the apply and the record; else the previous revision is re-fetched from the producer:
	 * 0 restored; 1 terminal with @reason ("PreviousRevisionUnavailable"/"ImageUnverified") and @msg;
	 * 2 the re-apply itself failed, with the apply error in @err (attemptRollback words it as terminal,
	 *   rollbackStageToSnapshot returns it as a transient error); -1 transient (err). */
	int (*restore_stage)(void *ctx, size_t stage, const struct sst_artifact_ref *ref, bool from_store,
			     int64_t at_ms, int64_t *duration_ms, char *reason, size_t reasonlen, char *msg, size_t msglen,
			     struct ssc_err *err);

	/* Whether stage @stage has a stored StageInventory record (StageRecords), and its entries count. */
	bool (*inventory_has)(void *ctx, const char *stage, int64_t *entries);

	/* The StageLedger of the same name (NULL when none), for Lifetime actions (borrowed). */
	const struct obj *(*ledger)(void *ctx, int64_t at_ms, struct ssc_err *err);
	/*
	 * An IANA time zone for update windows (time.LoadLocation), or NULL with
	 * err (unknown zone).  The zone's rules are engine/tz.h's; borrowed.
	 */
	const struct tz_zone *(*time_zone)(void *ctx, const char *name, struct ssc_err *err);

	/* The uid of a completionAnchor witness, or err (NotFound = gone). */
	int (*anchor_uid)(void *ctx, const char *api_version, const char *kind, const char *ns,
			  const char *name, int64_t at_ms, char *uid, size_t uidlen, struct ssc_err *err);

	/*
	 * One file of a sourced migration ladder (@path, @text) parsed as the
	 * first step of sigs.k8s.io/yaml.UnmarshalStrict does it: go-yaml v2
	 * UnmarshalStrict into an interface{} (YAML 1.1 resolution of plain
	 * scalars to null, bool, int or float; quoted scalars stay strings;
	 * duplicate keys refused; JSON is YAML).  0 and *out a new tree (NULL for
	 * an empty or null document), or -1 and @err (size @errlen) the parser's
	 * text, e.g. `yaml: line 1: did not find expected ',' or ']'`.  Instant
	 * (the fetch that brought the text took the time).  engine/ holds no YAML
	 * parser; engine/stageset_migrations.h decodes the tree.
	 */
	int (*parse_ladder_file)(void *ctx, const char *path, const char *text, struct val **out, char *err,
				 size_t errlen);

	/* The controller's rollback store (StageSetReconciler.RollbackStore), or NULL: none configured. */
	const struct ssc_rollback_store *rollback_store;
};

/* What the rollback store's Get found (the controller's RollbackStore.Get, then decodeObjects). */
enum ssc_store_get {
	SSC_STORE_FOUND,   /* found, and the bytes decode to objects */
	SSC_STORE_MISSING, /* found=false: a clean miss */
	SSC_STORE_CORRUPT, /* found, but the bytes do not decode (a corrupt snapshot) */
	SSC_STORE_ERROR,   /* Get returned an error (an outage) */
};

/*
 * The rollback store as the controller reaches it (rollback.go RollbackStore:
 * Put and Get of bytes under a key, rollbackstore.Key's format): the world
 * keeps what was put and decides whether a call succeeds.  Both calls are
 * instant on the pass clock and must not change what the pass reads later
 * but what the store holds.
 */
struct ssc_rollback_store {
	void *ctx;
	/*
	 * Put of the rendered objects of the stage's apply just done under @key
	 * (the objects are the world's: what that apply rendered): 0 stored, or
	 * -1 with @err (the backend's text).
	 */
	int (*put)(void *ctx, const char *key, int64_t at_ms, struct ssc_err *err);
	/*
	 * Get of @key: SSC_STORE_FOUND, SSC_STORE_MISSING, SSC_STORE_CORRUPT with
	 * the decoder's text in @err->msg (class SSC_ERR), or SSC_STORE_ERROR with @err.
	 */
	enum ssc_store_get (*get)(void *ctx, const char *key, int64_t at_ms, struct ssc_err *err);
};


/*
 * The pass clock: Unix ms.  A module that blocks (an action, a wait, a query)
 * advances it by the duration the world reports; decisions read it where
 * upstream calls time.Now() or r.now().
 */
struct ssc_clock {
	int64_t now_ms;
	int64_t start_ms;
};

/* A Kubernetes event (events.k8s.io; reason = action). */
struct ssc_event {
	int64_t at_ms;
	bool warning;   /* Warning, else Normal */
	char *reason;   /* owned */
	char *note;     /* owned, the undecorated message */
	bool on_ledger; /* emitted on the StageLedger object (BaselineInvalid) */
};

/* The events of a pass, in emission order. */
struct ssc_events {
	struct ssc_event *items;
	size_t n, cap;
};

/*
 * ssc_events_add() - appends an event at @at_ms with a printf-style note.
 * Cannot fail (aborts on OOM).
 */
void ssc_events_add(struct ssc_events *ev, int64_t at_ms, bool warning, const char *reason,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * ssc_events_take() - appends an event at @at_ms whose note is @note, which
 * it takes (a caller that has formatted the note itself: no second format).
 * @note: heap string, owned by the events afterwards; NULL is taken as "".
 * Cannot fail (aborts on OOM).
 */
void ssc_events_take(struct ssc_events *ev, int64_t at_ms, bool warning, const char *reason, char *note);

/* ssc_events_release() - frees the events; @ev is empty again.  Accepts NULL. */
void ssc_events_release(struct ssc_events *ev);

/* ssc_err_set() - sets @e to @code with a printf-style message (truncated to fit). */
void ssc_err_set(struct ssc_err *e, enum ssc_errc code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
