#ifndef MAGOS_ENGINE_STAGESET_PROMOTION_H
#define MAGOS_ENGINE_STAGESET_PROMOTION_H

/*
 * The promotion gate of a StageSet stage, as the StageSet controller decides
 * it (metio/stageset-controller@f2c7604 internal/controller/promotion.go,
 * analysis.go, restartgate.go, eventgate.go; spec §3.7, S-1, S-13, S-14).
 *
 * A stage that applied, verified and ran its post actions may advance the
 * rollout only when its promotion gate lets it: a fresh promote token
 * (break-glass), no restart or event breach, an analysis within its failure
 * limit, an elapsed (or fast-tracked) soak, a passing analysis after the
 * soak, and no manual gate.  This module has the three inputs the controller
 * reads from the world on every pass of a stage with `promotion` (analysis
 * queries, the fast-track query, the pod restart and warning event totals),
 * the decision over them (pr_gate_promotion), the Ready condition of a
 * holding stage, and the park of a stage whose revision a gate rolled back.
 *
 * Times are Unix ms at the precision the pass computes them (the status
 * writer floors metav1.Time to whole seconds, as Go's encoding does); nil
 * *metav1.Time is SST_NO_TIME.  Strings of the states this module makes are
 * owned and never NULL ("" for an absent omitempty string).  A NULL
 * `struct sst_stage_status *prior` reads as the zero StageStatus (a stage with
 * no prior entry), as upstream's value copy of a missing entry does.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"

/* PromotionPhase values (api/v1/stageset_types.go). */
#define PR_PHASE_SOAKING "Soaking"
#define PR_PHASE_ANALYZING "Analyzing"
#define PR_PHASE_BLOCKED "Blocked"
#define PR_PHASE_AWAITING_MANUAL "AwaitingManual"
#define PR_PHASE_PROMOTED "Promoted"

/* Ready reasons of a promotion hold (conditions.go). */
#define PR_REASON_SOAKING "Soaking"
#define PR_REASON_AWAITING_PROMOTION "AwaitingPromotion"
#define PR_REASON_PROMOTION_BLOCKED "PromotionBlocked"

/* ---- the promote annotation (promotion.go) -------------------------------- */

/* A parsed `stages.metio.wtf/promote: <stage>@<token>` request (borrowed from the annotation). */
struct pr_promote_request {
	const char *stage; /* not NUL-terminated at the '@': use stage_len */
	size_t stage_len;  /* > 0 when the request is well formed */
	const char *token; /* the text after the first '@' (NUL-terminated, non-empty) */
};

/*
 * pr_parse_promote() - parsePromote: splits the promote annotation of @ss at
 * its first '@'.
 * @out: filled; stage_len 0 and token "" when the annotation is absent, has
 *       no '@', or an empty stage or token ("noat", "@tok", "stage@").
 * Returns: true when a stage and a token were found.  Cannot fail.
 * Source: metio/stageset-controller@f2c7604 internal/controller/promotion.go parsePromote.
 */
bool pr_parse_promote(const struct obj *ss, struct pr_promote_request *out);

/*
 * pr_promote_token_for() - promoteTokenFor: the promote token addressed to
 * stage @stage_name.
 * Returns: a borrowed pointer into @ss's annotation (valid while it is), or
 *          "" when the annotation is absent, malformed or names another stage.
 * Source: metio/stageset-controller@f2c7604 internal/controller/promotion.go promoteTokenFor.
 */
const char *pr_promote_token_for(const struct obj *ss, const char *stage_name);

/*
 * pr_promote_requested_update() - promoteRequestedPredicate.Update: whether
 * the promote annotation differs between @old and @new (an absent one reads
 * as "").  NULL objects never fire.
 * Source: metio/stageset-controller@f2c7604 internal/controller/promotion.go
 *         promoteRequestedPredicate.Update.
 */
bool pr_promote_requested_update(const struct obj *old, const struct obj *new);

/* ---- analysis and fast track (analysis.go) -------------------------------- */

/* analysisVerdict: one evaluation of a stage's promotion analysis. */
struct pr_analysis_verdict {
	struct sst_analysis_result *result; /* new (release with pr_analysis_verdict_release) */
	bool breached;                      /* some value was outside its threshold (or the threshold did not parse) */
	bool source_err;                    /* some source could not be read */
	int32_t metric_source_errors;       /* stageset_metric_source_errors_total increments of this evaluation (count) */
};

/*
 * pr_evaluate_promotion_analysis() - evaluatePromotionAnalysis: queries every
 * check of @stage's promotion.analysis once, in order, through env->query
 * (no short-circuit), advancing @clk by each query's duration.
 * @env, @clk: the world and the pass clock.
 * @stage: a stage whose promotion has an analysis (asserted).
 * @out:   filled (previous content ignored).  result->time_ms is the clock at
 *         the start; per check {name, value: FormatFloat(v,'f',-1,64), ok} for
 *         a value, {name, error: <query error>} for a query error (source_err),
 *         {name, value, error: `threshold min "x" is not a number: ...`} for a
 *         malformed threshold (breached); result->passed when every check is ok.
 *         out->metric_source_errors counts the failed queries (upstream
 *         increments stageset_metric_source_errors_total once for each; the
 *         caller adds them to its own count).
 * Errors: cannot fail (a query error is an outcome); aborts on OOM.
 * Source: metio/stageset-controller@f2c7604 internal/controller/analysis.go
 *         evaluatePromotionAnalysis; internal/metricsource ThresholdSatisfied.
 */
void pr_evaluate_promotion_analysis(const struct ssc_env *env, struct ssc_clock *clk,
				    const struct sst_stage *stage, struct pr_analysis_verdict *out);

/* pr_analysis_verdict_release() - frees @v's result; @v is then zeroed.  Accepts a zeroed @v and NULL. */
void pr_analysis_verdict_release(struct pr_analysis_verdict *v);

/*
 * pr_fast_track_after() - fastTrackAfter: @p's fastTrack.after in ms, 0 when
 * unset.  @p must have a fastTrack.
 * Source: metio/stageset-controller@f2c7604 internal/controller/analysis.go fastTrackAfter.
 */
int64_t pr_fast_track_after(const struct sst_promotion *p);

/*
 * pr_evaluate_fast_track() - evaluateFastTrack: whether @stage's fast-track
 * metric allows an early promotion now: fastTrack.max parses
 * (strconv.ParseFloat), the query through env->query succeeds (@clk advances
 * by its duration) and value <= max.  A bad max asks nothing.
 * @stage: a stage whose promotion has a fastTrack (asserted).
 * Returns: the verdict; never an error (fail-safe toward the full soak).
 * Source: metio/stageset-controller@f2c7604 internal/controller/analysis.go evaluateFastTrack.
 */
bool pr_evaluate_fast_track(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_stage *stage);

/*
 * pr_analysis_interval() - analysisInterval: @p's analysis.interval when @p
 * has an analysis whose interval is set and > 0, else @retry_ms (the
 * StageSet's retryInterval, ms).
 * Source: metio/stageset-controller@f2c7604 internal/controller/analysis.go analysisInterval.
 */
int64_t pr_analysis_interval(const struct sst_promotion *p, int64_t retry_ms);

/*
 * pr_abort_capable() - abortCapable: whether @p can roll a stage back: a
 * non-dryRun analysis with onFailure Rollback, or a restart or event gate
 * with onFailure Rollback at gate level or on any check.  NULL: false.
 * Source: metio/stageset-controller@f2c7604 internal/controller/analysis.go abortCapable.
 */
bool pr_abort_capable(const struct sst_promotion *p);

/*
 * pr_rollback_aborted() - rollbackAborted (S-1): whether stage @stage is
 * parked on @revision: it is abort-capable, its @prior promotionState is
 * Blocked with abortedRevision == @revision, and no fresh promote token
 * (one that differs from prior.lastHandledPromotion) is addressed to it.
 * Source: metio/stageset-controller@f2c7604 internal/controller/analysis.go rollbackAborted.
 */
bool pr_rollback_aborted(const struct obj *ss, const struct sst_stage *stage,
			 const struct sst_stage_status *prior, const char *revision);

/* ---- restart and event gates (restartgate.go, eventgate.go) --------------- */

/* restartVerdict: the first restart check over its limit. */
struct pr_restart_verdict {
	char *check;      /* owned */
	int32_t observed; /* restarts over the baseline */
	bool rollback;    /* the check's effective onFailure is Rollback */
};

/* restartObservation: one pass of the restart gate. */
struct pr_restart_observation {
	struct pr_restart_verdict *verdict;   /* owned; NULL: every check within tolerance */
	struct sst_restart_baseline *baseline; /* owned; per check in order: the baseline measured against */
	struct sst_restart_baseline *totals;   /* owned; per check in order: the live total */
	size_t nbaseline, ntotals;
};

/*
 * pr_evaluate_restart_checks() - evaluateRestartChecks: per check of
 * @stage's restartGate, in order, the live restart total of the pods its
 * selector picks in namespace @ns (env->pod_restarts; an empty selector
 * counts 0 without asking), the baseline carried in @prior's promotionState
 * (any revision; the total itself when the check was never observed), and
 * excess = max(total - baseline, 0).  The first check whose excess exceeds
 * maxRestarts is the verdict (rollback when the check's onFailure, else the
 * gate's, is Rollback); every check is read so the lists are complete.
 * @stage: without a restartGate the observation is empty and 0 is returned.
 * @out:   filled on success (previous content ignored); zeroed on error.
 * @err:   on error: `restart check "<c>": <cause>`, the cause being the
 *         world's text (podRestartTotal's, e.g. `list pods: ...`) or
 *         `invalid selector: <LabelSelectorAsSelector error>`; the code keeps
 *         the world's class (Forbidden / NoMatch decide RBACDenied upstream).
 * Returns: 0, or -1 with @err.
 * Source: metio/stageset-controller@f2c7604 internal/controller/restartgate.go
 *         evaluateRestartChecks, priorRestartBaseline, podRestartTotal (its
 *         selector guards; the list and sum are the world's).
 */
int pr_evaluate_restart_checks(const struct ssc_env *env, struct ssc_clock *clk, const char *ns,
			       const struct sst_stage *stage, const struct sst_stage_status *prior,
			       struct pr_restart_observation *out, struct ssc_err *err);

/* pr_restart_observation_release() - frees what @o owns; @o is then zeroed.  Accepts zeroed and NULL. */
void pr_restart_observation_release(struct pr_restart_observation *o);

/*
 * pr_prior_restart_baseline() - priorRestartBaseline lookup: the restarts
 * recorded for check @check in @prior's promotionState.restartBaseline (the
 * last entry of that name, as Go's map keeps the last write).
 * Returns: true with *@restarts, false when @prior has no such entry.
 * Source: metio/stageset-controller@f2c7604 internal/controller/restartgate.go priorRestartBaseline.
 */
bool pr_prior_restart_baseline(const struct sst_stage_status *prior, const char *check, int32_t *restarts);

/* eventVerdict: the first event check over its limit. */
struct pr_event_verdict {
	char *check;      /* owned */
	int32_t observed; /* matching warning events */
	bool rollback;
};

/*
 * pr_evaluate_event_checks() - evaluateEventChecks: per check of @stage's
 * eventGate, in order, the count of Warning events with a listed reason on
 * the live selected pods of namespace @ns (env->warning_events; an empty
 * selector counts 0 without asking); the first check whose count exceeds
 * maxEvents is the verdict.
 * @out: receives a new verdict (free with pr_event_verdict_free()), or NULL
 *       when every check is within tolerance or @stage has no eventGate.
 * @err: on error `event check "<c>": <cause>` (the world's text, e.g.
 *       `list events: ...`, or `invalid selector: ...`), class kept.
 * Returns: 0, or -1 with @err (*@out NULL).
 * Source: metio/stageset-controller@f2c7604 internal/controller/eventgate.go
 *         evaluateEventChecks, podWarningEventTotal (selector guards).
 */
int pr_evaluate_event_checks(const struct ssc_env *env, struct ssc_clock *clk, const char *ns,
			     const struct sst_stage *stage, struct pr_event_verdict **out, struct ssc_err *err);

/* pr_event_verdict_free() - frees @v.  Accepts NULL. */
void pr_event_verdict_free(struct pr_event_verdict *v);

/* ---- the decision (promotion.go) ------------------------------------------ */

/* gatePromotion's five results. */
struct pr_decision {
	bool promoted;
	struct sst_promotion_state *state; /* new, or NULL (no promotion configured) */
	int64_t requeue_ms;                /* while holding; 0 when promoted */
	char *handled;                     /* new: the promote token to record as handled */
	bool rollback;                     /* a gate with onFailure Rollback wants the stage reverted */
};

/*
 * pr_gate_promotion() - gatePromotion (§3.7.1, G-1 ... G-11): whether the
 * applied, healthy stage @stage at @revision may advance the rollout.
 * @ss:        the StageSet (its promote annotation).
 * @prior:     the stage's entry before this pass (NULL: none).
 * @now_ms:    the pass clock, Unix ms.
 * @verdict:   this pass's analysis evaluation, or NULL when the stage has
 *             none (non-NULL requires an analysis: asserted).
 * @fast_track_ok: pr_evaluate_fast_track()'s answer (false without fastTrack).
 * @restart, @event: the breaches of this pass, or NULL.
 * @retry_ms:  the StageSet's retryInterval (ms).
 * @out:       filled (previous content ignored); the state never carries a
 *             restart baseline (the caller stamps it, S-14); a G-2 state is a
 *             copy of the prior one.
 * Errors: cannot fail; aborts on OOM.
 * Source: metio/stageset-controller@f2c7604 internal/controller/promotion.go
 *         gatePromotion (the soak requeue through win_requeue_for_window()).
 */
void pr_gate_promotion(const struct obj *ss, const struct sst_stage *stage, const char *revision,
		       const struct sst_stage_status *prior, int64_t now_ms,
		       const struct pr_analysis_verdict *verdict, bool fast_track_ok,
		       const struct pr_restart_verdict *restart, const struct pr_event_verdict *event,
		       int64_t retry_ms, struct pr_decision *out);

/* pr_decision_release() - frees what @d owns; @d is then zeroed.  Accepts zeroed and NULL. */
void pr_decision_release(struct pr_decision *d);

/*
 * pr_promotion_hold_condition() - promotionHoldCondition: the Ready reason
 * and message of a rollout held at stage @stage with promotion @state (NULL
 * reads as Soaking): AwaitingPromotion, PromotionBlocked (restart check,
 * event check or analysis; the rolled-back variants when abortedRevision is
 * set) or Soaking (analysis running; soak window with its RFC 3339 close).
 * @reason: receives a static string.
 * @msg:    receives a new string (caller frees), spec §3.7.1's texts exactly.
 * Source: metio/stageset-controller@f2c7604 internal/controller/promotion.go promotionHoldCondition.
 */
void pr_promotion_hold_condition(const struct obj *ss, const char *stage,
				 const struct sst_promotion_state *state, const char **reason, char **msg);

/* pr_analysis_failure_count() - analysisFailureCount: @state's analysisFailures, 0 for NULL. */
int32_t pr_analysis_failure_count(const struct sst_promotion_state *state);

/*
 * pr_past_soak() - pastSoak: whether @phase is only reached after the soak
 * (Analyzing, AwaitingManual, Promoted; Blocked is not: it can be reached
 * mid-soak).  NULL: false.
 */
bool pr_past_soak(const char *phase);

/*
 * pr_carry_soak_until() - carrySoakUntil: copies @prior's soakUntil onto @s
 * when @same_revision and @prior has one, so a block during the soak
 * neither skips nor restarts it.
 */
void pr_carry_soak_until(struct sst_promotion_state *s, const struct sst_promotion_state *prior,
			 bool same_revision);

/*
 * pr_phase_since() - phaseSince: @prior's since when @same_revision and
 * @prior is in @phase with a since, else @now_ms.
 */
int64_t pr_phase_since(const struct sst_promotion_state *prior, bool same_revision, const char *phase,
		       int64_t now_ms);

#endif
