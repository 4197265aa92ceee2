#ifndef MAGOS_ENGINE_STAGESET_ACTIONS_H
#define MAGOS_ENGINE_STAGESET_ACTIONS_H

/*
 * A stage's actions as the StageSet controller runs and remembers them
 * (metio/stageset-controller@f2c7604):
 *
 *  - the executor (internal/actions Executor.Run / exec): actions in list
 *    order, names already done skipped, up to `retries` retries with a
 *    back-off of min((attempt+1)·500 ms, 5 s), the action's `timeout`
 *    bounding the whole exec like a context deadline.  One attempt is the
 *    world's run_action (struct ssc_env); the pass clock advances by every
 *    attempt's and back-off's duration;
 *  - the per-stage action ledger (actionledger.go): the revision and version
 *    ledgers stamped on the stage status, and the Lifetime names read from
 *    the StageLedger;
 *  - the StageLedger of scope: Lifetime actions (lifetimeledger.go,
 *    anchor.go, internal/actionplan): loaded once per pass, baseline
 *    promotion with its BaselineValid condition, completions recorded with
 *    their completionAnchor witness, and the gate that drops completions
 *    whose witness is gone.
 *
 * Upstream writes the StageLedger through the API server at each change;
 * here the pass changes its own copy (struct act_stage_ledger, `dirty` set)
 * and the caller writes it at the end of the pass (ssc_result.ledger).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/value.h"

/* Event reasons (anchor.go, lifetimeledger.go). */
#define ACT_EVENT_LEDGER_INVALIDATED "LedgerInvalidated"
#define ACT_EVENT_LEDGER_ANCHOR_UNREADABLE "LedgerAnchorUnreadable"
#define ACT_EVENT_LEDGER_ADOPTED "LedgerAdopted"
#define ACT_EVENT_BASELINE_INVALID "BaselineInvalid"

/* StageLedger constants (api/v1/stageledger_types.go). */
#define ACT_LEDGER_API_VERSION "stages.metio.wtf/v1"
#define ACT_LEDGER_KIND "StageLedger"
#define ACT_CONDITION_BASELINE_VALID "BaselineValid"
#define ACT_ORIGIN_EXECUTED "Executed"
#define ACT_ORIGIN_BASELINED "Baselined"

/* ---- the executor -------------------------------------------------------- */

/*
 * act_backoff() - backoff(attempt): (attempt+1)·500 ms, at most 5 s.
 * @attempt: 0-based attempt that just failed.  Returns ms.  Cannot fail.
 * Source: metio/stageset-controller@f2c7604 internal/actions/actions.go backoff.
 */
int64_t act_backoff(int attempt);

/*
 * act_exec() - Executor.exec: one action with its retries and timeout.
 * @env:   the world; run_action is called once per attempt.
 * @clk:   the pass clock, advanced by each attempt's duration and each back-off.
 * @stage: the stage's index in spec.stages (handed to run_action).
 * @phase: "pre", "post", "onFailure", "onRollback" or "migration" (handed to run_action).
 * @a:     the action (borrowed).
 * @err:   set on failure (the class of the last attempt's error).
 * Returns: 0 when an attempt succeeded; -1 with @err otherwise.
 * Retries: retries = max(0, a->retries); an error of class SSC_ERR_NO_RETRY
 *   ends the exec at once.  With a timeout, the deadline is the clock at the
 *   call plus the timeout: an attempt that would end past it ends at the
 *   deadline with "context deadline exceeded" (when the attempt itself
 *   reported success or its own error later than the deadline), and a
 *   back-off that would cross it ends the exec at the deadline with the
 *   attempt's error (the select on ctx.Done()).
 * Source: metio/stageset-controller@f2c7604 internal/actions/actions.go Executor.exec.
 * Deviations: 1. an attempt cut by the deadline reports the bare context
 *   error text; upstream each verb wraps it in its own words (e.g. the http
 *   verb's url error).  The world may report its own text by answering with
 *   a duration that ends at the deadline.
 */
int act_exec(const struct ssc_env *env, struct ssc_clock *clk, size_t stage, const char *phase,
	     const struct sst_action *a, struct ssc_err *err);

/*
 * The record callback of act_run(): called after each success with the
 * action's name; a nonzero return stops the run and its @err is returned as
 * is (not wrapped).
 */
typedef int (*act_record_fn)(void *arg, const char *name, struct ssc_err *err);

/* The set of names act_run() skips: done(@arg, name) says whether name is done. */
typedef bool (*act_done_fn)(const void *arg, const char *name);

/*
 * act_run() - Executor.Run: @acts in list order, skipping names @done says
 * are done, recording each success through @record (NULL: none).
 * @done:  NULL: nothing is done.
 * Returns: 0, or -1 with @err: an action's failure wrapped as
 *          "action \"<name>\": <err>" (code kept), or a record error as is.
 * Source: metio/stageset-controller@f2c7604 internal/actions/actions.go Executor.Run.
 */
int act_run(const struct ssc_env *env, struct ssc_clock *clk, size_t stage, const char *phase,
	    const struct sst_actions *acts, act_done_fn done, const void *done_arg,
	    act_record_fn record, void *record_arg, struct ssc_err *err);

/* ---- the per-stage action ledger (actionledger.go) ------------------------ */

/*
 * actionLedger.  Invariants: strings owned and never NULL ("" for an
 * unversioned StageSet's version); the lists are in execution order.
 */
struct act_ledger {
	const char *revision;               /* the revision `executed` belongs to (borrowed) */
	struct sst_string_list executed;    /* Revision-scoped names done at `revision` */
	const char *version;                /* the version episode `versioned` belongs to (borrowed) */
	struct sst_string_list versioned;   /* Version-scoped names done in `version` */
	struct sst_string_list lifetime_done; /* Lifetime names complete in the StageLedger (gate only) */
};

/*
 * act_ledger_init() - an empty ledger of @revision and @version (NULL is
 * ""), borrowed: they must outlive the ledger (a stage's ledger lives for
 * that stage of one pass; its revision is the resolved source's and its
 * version the pass's plan's, so copying them cost two allocations a stage).
 */
void act_ledger_init(struct act_ledger *l, const char *revision, const char *version);
/* act_ledger_release() - frees what @l owns.  Accepts NULL. */
void act_ledger_release(struct act_ledger *l);

/*
 * act_ledger_done() - whether @name is in doneSet() (executed ∪ versioned ∪
 * lifetime_done).  An act_done_fn over a struct act_ledger.
 * Source: metio/stageset-controller@f2c7604 internal/controller/actionledger.go actionLedger.doneSet.
 */
bool act_ledger_done(const void *ledger, const char *name);

/*
 * act_ledger_record() - recordFn's routing: @name goes to `versioned` when
 * its scope among @stage's pre+post actions is Version, else to `executed`
 * (an unlisted name, e.g. an onFailure action, goes to `executed`).
 * Source: metio/stageset-controller@f2c7604 internal/controller/actionledger.go
 *         actionLedger.recordFn, internal/actionplan ActionScopes.
 * Deviations: 1. ActionScopes is a map, so a name listed in both pre and post
 *   takes the post action's scope; so does this (the last match wins).
 */
void act_ledger_record(struct act_ledger *l, const struct sst_stage *stage, const char *name);

/*
 * act_ledger_stamp() - stamp(): replaces @s's executedActions, ledgerRevision,
 * executedVersionActions and ledgerVersion by copies of @l's, reusing the
 * strings @s holds (sst_string_list_assign(), sst_str_assign()); @s's
 * fields are owned strings or NULL.
 * Source: metio/stageset-controller@f2c7604 internal/controller/actionledger.go actionLedger.stamp.
 */
void act_ledger_stamp(const struct act_ledger *l, struct sst_stage_status *s);

/*
 * act_version_scoped_action_names() - versionScopedActionNames: appends to
 * @out the names of @stage's pre then post actions of scope Version.
 */
void act_version_scoped_action_names(const struct sst_stage *stage, struct sst_string_list *out);

/* act_stage_lifetime_action_names() - stageLifetimeActionNames: likewise for scope Lifetime. */
void act_stage_lifetime_action_names(const struct sst_stage *stage, struct sst_string_list *out);

/* act_spec_has_lifetime_actions() - specHasLifetimeActions. */
bool act_spec_has_lifetime_actions(const struct sst_spec *spec);

/* act_is_lifetime_action() - isLifetimeAction: (@stage, @action) names a Lifetime pre/post action of @spec. */
bool act_is_lifetime_action(const struct sst_spec *spec, const char *stage, const char *action);

/*
 * act_stage_anchor() - stageAnchors(stage)[name]: the pre or post action
 * named @name that declares a completionAnchor (the last one in pre, post
 * order, as the map keeps it), or NULL.
 */
const struct sst_action *act_stage_anchor(const struct sst_stage *stage, const char *name);

/* ---- the StageLedger (lifetimeledger.go, anchor.go, actionplan) ----------- */

struct act_ledger_ref { char *stage, *action; };

/* LedgerCompletion; strings owned, "" when absent. */
struct act_completion {
	char *stage, *action, *origin, *digest;
	bool has_anchor; /* AnchorWitness present */
	char *anchor_api_version, *anchor_kind, *anchor_name, *anchor_uid;
	int64_t completed_at_ms; /* Unix ms, whole seconds; SST_NO_TIME for a zero time */
};

/* A StageLedger as the pass holds it. */
struct act_stage_ledger {
	bool created;      /* did not exist: the pass creates it (ssc_result.ledger_create) */
	bool dirty;        /* changed by the pass: the caller writes it */
	int64_t generation;
	struct act_ledger_ref *baseline; size_t nbaseline;       /* spec.baseline */
	struct act_completion *completed; size_t ncompleted;     /* status.completedActions */
	struct sst_condition *conditions; size_t nconditions;    /* status.conditions */
};

/*
 * act_stage_ledger_parse() - reads a StageLedger object into @out (filled;
 * release with act_stage_ledger_release()).  Fields of the wrong type are
 * absent.  Cannot fail.
 */
void act_stage_ledger_parse(const struct obj *o, struct act_stage_ledger *out);
/* act_stage_ledger_release() - frees what @l owns.  Accepts NULL. */
void act_stage_ledger_release(struct act_stage_ledger *l);
/* act_stage_ledger_free() - releases and frees a ledger from act_load_lifetime_ledger().  Accepts NULL. */
void act_stage_ledger_free(struct act_stage_ledger *l);

/*
 * act_stage_ledger_to_val() - the ledger as Go's encoding/json writes it:
 * {"spec": {baseline?}, "status": {completedActions?, conditions?}}.
 * Returns: a new tree; caller frees with val_free().
 */
struct val *act_stage_ledger_to_val(const struct act_stage_ledger *l);

/* act_stage_ledger_is_completed() - StageLedger.IsCompleted. */
bool act_stage_ledger_is_completed(const struct act_stage_ledger *l, const char *stage,
				   const char *action);

/*
 * act_load_lifetime_ledger() - loadLifetimeLedger as a decision over
 * env->ledger: the ledger read (a copy), or a new empty one (`created`,
 * `dirty`) when none exists and @spec has Lifetime actions, or none.
 * @out: set to a new ledger (free with act_stage_ledger_free()) or NULL.
 * Returns: 0; or -1 with @err when reading the ledger failed other than NotFound.
 * Source: metio/stageset-controller@f2c7604 internal/controller/lifetimeledger.go loadLifetimeLedger.
 * Deviations: 1. the Create cannot fail here; the caller creates the object
 *   at the end of the pass (ledger_create).
 */
int act_load_lifetime_ledger(const struct ssc_env *env, const struct ssc_clock *clk,
			     const struct sst_spec *spec, struct act_stage_ledger **out,
			     struct ssc_err *err);

/*
 * act_promote_baseline() - promoteBaseline: each spec.baseline entry that is
 * a Lifetime action of @spec and not yet completed is added as Baselined at
 * the clock (whole seconds); unresolvable entries go to the BaselineValid
 * condition (act_reconcile_baseline_condition).  Sets `dirty` on a change.
 * @l:       the ledger, or NULL (nothing happens).
 * @ss_name: the StageSet's name (for the condition message).
 * @ev:      gets the BaselineInvalid Warning event (on_ledger) on a transition.
 * Source: metio/stageset-controller@f2c7604 internal/controller/lifetimeledger.go promoteBaseline.
 * Deviations: 1. the status Update cannot fail (written at the end of the pass).
 */
void act_promote_baseline(struct act_stage_ledger *l, const struct sst_spec *spec,
			  const char *ss_name, const struct ssc_clock *clk, struct ssc_events *ev);

/*
 * act_reconcile_baseline_condition() - reconcileBaselineCondition: sets the
 * BaselineValid condition (True AllResolved, or False Unresolved naming
 * @unresolved "stage/action" entries joined by ", ") with
 * apimeta.SetStatusCondition's rules (lastTransitionTime kept when the status
 * is unchanged); nothing when the ledger has no baseline and no such
 * condition.  Emits BaselineInvalid (Warning, on_ledger) when the new status
 * is False and the prior was absent or differed in status or message.
 * Returns: whether the condition changed.
 */
bool act_reconcile_baseline_condition(struct act_stage_ledger *l, const char *ss_name,
				      const struct sst_string_list *unresolved,
				      const struct ssc_clock *clk, struct ssc_events *ev);

/*
 * act_record_lifetime_completion() - recordLifetimeCompletion: appends an
 * Executed completion of (@stage, @action) at the clock unless one exists;
 * with @anchor (the action declaring a completionAnchor, or NULL) the
 * witness's uid is read through env->anchor_uid in @ns.
 * Returns: 0; or -1 with @err: @l NULL ("scope: Lifetime action has no
 *          StageLedger to record into", as an internal error), or the anchor
 *          unreadable: "completionAnchor <Kind> <ns>/<name> for action
 *          \"<stage>\"/\"<action>\" could not be read at completion (it must
 *          exist so its UID can be recorded): <err>".
 * Source: metio/stageset-controller@f2c7604 internal/controller/lifetimeledger.go recordLifetimeCompletion.
 * Deviations: 1. the status Update cannot fail (written at the end of the
 *   pass); 2. the NewInternalError wrapping of the nil-ledger guard is
 *   rendered as "Internal error occurred: <text>" (its Error() text).
 */
int act_record_lifetime_completion(const struct ssc_env *env, const struct ssc_clock *clk,
				   struct act_stage_ledger *l, const char *ns, const char *stage,
				   const char *action, const struct sst_action *anchor,
				   struct ssc_err *err);

/* EvaluateLifetimeGate's verdict for one stage; lists owned. */
struct act_lifetime_gate {
	struct sst_string_list done;        /* complete (unanchored, witness present, or unreadable: fail open) */
	struct sst_string_list invalidated; /* witness gone (NotFound, or a different uid) */
	struct sst_string_list unreadable;  /* witness read failed other than NotFound (also in done) */
};
void act_lifetime_gate_release(struct act_lifetime_gate *g);

/*
 * act_evaluate_lifetime_gate() - EvaluateLifetimeGate: the completions of
 * @stage in ledger order, each anchored one classified by reading its
 * witness in @ns (ClassifyAnchor).  @l NULL gives an empty gate.
 * Source: metio/stageset-controller@f2c7604 internal/actionplan/actionplan.go
 *         EvaluateLifetimeGate, ClassifyAnchor, ReadAnchorObject.
 */
void act_evaluate_lifetime_gate(const struct ssc_env *env, const struct ssc_clock *clk,
				const struct act_stage_ledger *l, const char *ns, const char *stage,
				struct act_lifetime_gate *out);

/*
 * act_drop_completions() - dropCompletions: removes @stage's completions
 * named in @actions.  Returns whether anything changed (then sets `dirty`).
 */
bool act_drop_completions(struct act_stage_ledger *l, const char *stage,
			  const struct sst_string_list *actions);

/*
 * act_gate_lifetime_stage() - the stage loop's Lifetime block: evaluates the
 * gate, copies gate.done into @led->lifetime_done, emits one
 * LedgerAnchorUnreadable Warning per unreadable name, drops the invalidated
 * completions and, when that changed the ledger, one LedgerInvalidated Normal
 * event per invalidated name.  @gate (may be NULL) receives the verdict
 * (the caller releases it): actionFailureOp reads it.
 * Source: metio/stageset-controller@f2c7604 internal/controller/stageset_controller.go
 *         Reconcile (the block after stageRuntime).
 * Deviations: 1. the ledger Update cannot fail, so "invalidate lifetime
 *   completion" never fails the stage.
 */
void act_gate_lifetime_stage(const struct ssc_env *env, const struct ssc_clock *clk,
			     struct act_stage_ledger *l, const char *ns, const char *stage,
			     struct act_ledger *led, struct act_lifetime_gate *gate,
			     struct ssc_events *ev);

#endif
