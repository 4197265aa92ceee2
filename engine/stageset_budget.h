#ifndef MAGOS_ENGINE_STAGESET_BUDGET_H
#define MAGOS_ENGINE_STAGESET_BUDGET_H

/*
 * The StageSet's error-budget freezes (internal/controller/errorbudget.go):
 * the one-shot budget-override token, the thresholds with hysteresis, the
 * evaluation of a budget against its metric source (through the env's
 * query, which advances the pass clock), the rollout-wide gate's decision
 * (gateErrorBudget with deferBudget and clearBudgetFreeze) and the per-stage
 * gate (gateStageBudget).
 *
 * Like engine/stageset_windows, the gates write what upstream writes
 * directly into the status (budgetFreeze, observedGeneration) and return
 * the Ready condition, the event and the requeue for the controller to
 * apply through its own setReady / patchStatus.  Events that upstream
 * deduplicates against the prior Ready condition (emitReadyEvent, the
 * onSourceError=Allow and dryRun events) are decided here from the Ready
 * condition in the status passed in, which must be the pass's current one
 * (readyConditionSnapshot before setReady).
 *
 * Times are Unix ms; a freeze's `since` is floored to whole seconds (what
 * metav1.Time stores).
 *
 * Source: metio/stageset-controller@f2c7604 internal/controller/errorbudget.go
 *         (freshBudgetOverride, evaluateBudget, budgetInterval,
 *         gateErrorBudget, gateStageBudget, deferBudget, clearBudgetFreeze,
 *         budgetThresholds, effectiveResume), internal/metricsource
 *         ParseScalar, stageset_controller.go emitReadyEvent's dedup.
 * Deviations: see engine/PROVENANCE.md, section engine/stageset_budget.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"

/* Buffer size of the messages here (texts of the env's errors are up to 511 bytes). */
#define EB_MSGLEN 1024

/*
 * eb_fresh_budget_override() - freshBudgetOverride: the budget-override
 * annotation's token when present and not yet handled
 * (status.lastHandledBudgetOverride).
 * @token: receives the annotation's value (borrowed from @ss), "" when absent.
 * Returns: true when the token is fresh (the caller records it and ships
 *          this pass past every budget freeze).
 */
bool eb_fresh_budget_override(const struct obj *ss, const struct sst_status *st, const char **token);

/*
 * eb_budget_thresholds() - budgetThresholds: freeze and resume thresholds
 * (resume defaults to freeze).
 * Returns: 0; or -1 with upstream's text in @err: `freezeThreshold "x" is not
 *          a number: strconv.ParseFloat: parsing "x": invalid syntax`, the
 *          same for resumeThreshold, or `resumeThreshold "0.05" must be >=
 *          freezeThreshold "0.1" (hysteresis resumes at or above the freeze
 *          point)`.
 */
int eb_budget_thresholds(const struct sst_error_budget *eb, double *freeze, double *resume, char *err,
			 size_t errlen);

/* eb_effective_resume() - effectiveResume: resumeThreshold when set, else freezeThreshold.  Borrowed from @eb. */
const char *eb_effective_resume(const struct sst_error_budget *eb);

/* eb_budget_interval() - budgetInterval: eb.interval when set and > 0, else @retry_ms (r.retryInterval). */
int64_t eb_budget_interval(const struct sst_error_budget *eb, int64_t retry_ms);

/*
 * eb_format_float() - strconv.FormatFloat(@v, 'f', -1, 64): the shortest
 * decimal that reads back as @v, without an exponent ("0.05", "-0.01",
 * "1e+21" is "1000000000000000000000"); "NaN", "+Inf", "-Inf".
 * @buf: at least 400 bytes hold any value.  Returns @buf.
 */
char *eb_format_float(double v, char *buf, size_t len);

/* budgetVerdict: one budget against its source. */
struct eb_verdict {
	double value;
	struct sst_budget_freeze *freeze; /* new (sst_budget_freeze_free); NULL when not frozen */
	bool frozen;                      /* the hysteresis decision, before the dryRun gate */
	bool source_err;                  /* the source could not be read: @source */
	struct ssc_err source;
	bool spec_err;                    /* malformed thresholds: @spec_msg (the query is not made) */
	char spec_msg[512];
};

/*
 * eb_evaluate_budget() - evaluateBudget: parse the thresholds, query the
 * source at the pass clock (env->query; the clock advances by the duration
 * it reports), and decide with hysteresis against @prev (the freeze
 * recorded before: once frozen, frozen until the value reaches resume;
 * otherwise frozen below freeze).  A frozen verdict carries the freeze to
 * record: remaining as FormatFloat prints it, the thresholds as written,
 * since kept from @prev or the clock after the query.
 * @out: filled; release with eb_verdict_release().
 * Errors: cannot fail (outcomes are in @out).
 */
void eb_evaluate_budget(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_error_budget *eb,
			const struct sst_budget_freeze *prev, struct eb_verdict *out);

/* eb_verdict_release() - frees what @v owns.  Accepts a zeroed verdict. */
void eb_verdict_release(struct eb_verdict *v);

/* What gateErrorBudget decided, for the controller to apply. */
struct eb_gate {
	bool deferred;            /* the pass ends here (patchStatus, then return the requeue) */
	int64_t requeue_ms;       /* RequeueAfter (the budget interval, or 1m for the InvalidSpec fallback) */
	bool set_ready;           /* setReady(ready_status, ready_reason, ready_message) */
	const char *ready_status; /* "True" or "False" (static) */
	const char *ready_reason; /* "Succeeded", "BudgetExhausted", "BudgetSourceUnavailable", "InvalidSpec" */
	char ready_message[EB_MSGLEN + 16];
	bool event;               /* emit an event now (already deduplicated as upstream does) */
	bool event_warning;       /* Warning, else Normal */
	const char *event_reason; /* static */
	char event_note[EB_MSGLEN];
	bool source_error;        /* the source failed (MetricSourceErrorsTotal upstream) */
};

/*
 * eb_gate_error_budget() - gateErrorBudget's decision for the pass.
 * @ss, @spec, @st: the StageSet, its spec and the status being built;
 *       @st->budget_freeze is cleared or replaced and
 *       @st->observed_generation stamped as upstream does.
 * @resolved, @n: the pass's resolved stage artifacts (new-revision test).
 * @override: a fresh budget-override was consumed this pass.
 * @retry_ms: r.retryInterval(ss).
 * @out: filled.
 * Behaviour: no errorBudget, an override, or no new revision: the freeze
 *       is cleared and the pass goes on (the source is not queried).
 *       Malformed thresholds: Ready False InvalidSpec "spec.errorBudget:
 *       <err>", requeue 1m, deferred.  Source error with onSourceError=Hold:
 *       deferred with BudgetSourceUnavailable; with Allow: a Warning event
 *       unless Ready's reason already is BudgetSourceUnavailable, the freeze
 *       cleared, the pass goes on.  Not frozen: cleared.  Frozen and dryRun:
 *       the freeze recorded, a Normal BudgetExhausted event unless Ready's
 *       reason already is BudgetExhausted, the pass goes on.  Frozen:
 *       deferred with BudgetExhausted (deferBudget: Ready True "Deployed; "
 *       + message when already deployed), the event only when Ready's status
 *       or reason changes.
 * Errors: cannot fail; aborts on out-of-memory.
 * Deviations: the budget metrics (BudgetRemaining, BudgetFrozen,
 *       MetricSourceErrorsTotal) are not kept; @out->source_error says when
 *       upstream counts a source error.
 */
void eb_gate_error_budget(const struct ssc_env *env, struct ssc_clock *clk, const struct obj *ss,
			  const struct sst_spec *spec, struct sst_status *st, const struct ssc_resolved *resolved,
			  size_t n, bool override, int64_t retry_ms, struct eb_gate *out);

/* stageBudgetGate: how a stage's own errorBudget resolves for one pass. */
struct eb_stage_gate {
	bool hold;                        /* hold the rollout at this stage (errHoldForBudget) */
	struct sst_budget_freeze *freeze; /* new or NULL: the freeze to record on the stage status */
	const char *reason;               /* static: "BudgetExhausted" or "BudgetSourceUnavailable" when holding */
	char msg[EB_MSGLEN];
	int64_t requeue_ms;               /* RequeueAfter when holding: the budget interval */
	bool spec_err;                    /* malformed thresholds (see below) */
	char spec_msg[512];
	bool source_err;                  /* unreadable under onSourceError=Allow: proceed, but event it */
	char source_msg[512];
};

/*
 * eb_gate_stage_budget() - gateStageBudget for spec stage @stage (which has
 * an errorBudget; the caller checks there is a new revision and no
 * override), with @prior the stage's status from before the pass (its
 * budgetFreeze is the hysteresis state; NULL when the stage has none).
 * @out: filled; release with eb_stage_gate_release().
 *
 * With spec_err set upstream's caller sets Ready False InvalidSpec
 * `stage "<name>" errorBudget: <spec_msg>`, stamps observedGeneration,
 * patches and returns Result{RequeueAfter: 1m} with a nil error from the
 * stage loop — which does not end the pass: the loop's caller sees no
 * error and carries on to prune and success (spec Q-30).  The controller
 * decides what to do with it; this function only reports it.
 *
 * Errors: cannot fail; aborts on out-of-memory.
 * Deviations: the StageBudgetFrozen and MetricSourceErrorsTotal metrics
 *       are not kept.
 */
void eb_gate_stage_budget(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_stage *stage,
			  const struct sst_stage_status *prior, int64_t retry_ms, struct eb_stage_gate *out);

/* eb_stage_gate_release() - frees what @g owns.  Accepts a zeroed gate. */
void eb_stage_gate_release(struct eb_stage_gate *g);

#endif
