#ifndef MAGOS_ENGINE_STAGESET_CONTROLLER_DEPS_H
#define MAGOS_ENGINE_STAGESET_CONTROLLER_DEPS_H

/*
 * What engine/stageset_controller.c calls in the other modules of the
 * StageSet port that have not landed yet, as the controller was written
 * against them while those modules were being written (PORT-PLAN.md).  Each section names the module
 * that provides it; when a module lands, its section here is deleted and the
 * controller includes the module's own header instead (adapting where the
 * module chose otherwise).  Nothing here is implemented in this file's
 * module: these are declarations only.
 *
 * Conventions assumed throughout: a call into the world advances @clk by the
 * durations the world reports; events go to @ev at clk->now_ms; error texts
 * are Go's err.Error() and ssc_err.code keeps the API class through wrapping
 * (isPermanentAPIError); release functions accept zeroed structs and NULL.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/value.h"

struct ssc_options;

/* ==== E-C, engine/stageset_migrations.h (mig_, migrations.go, migration_approval.go) ==== */

/* migrationPlan. */
struct mig_plan {
	bool version_set;
	char *desired; /* "" when !version_set */
	bool baseline;
	bool downgrade;
	size_t npending;
	void *impl_; /* the pending migrations, anchors, provenance */
};
/*
 * planVersionMigrations: 0 with *@plan; 1 a terminal reason (@reason, @msg:
 * the Ready reason and message); -1 transient (@err), nothing to write.
 */
int mig_plan_version_migrations(const struct ssc_env *env, struct ssc_clock *clk, struct ssc_events *ev,
				const struct obj *ss, const struct sst_spec *spec, const struct sst_status *st,
				const struct ssc_resolved *resolved, const struct ssc_options *opt,
				struct mig_plan *plan, char *reason, size_t reasonlen, char *msg, size_t msglen,
				struct ssc_err *err);
void mig_plan_release(struct mig_plan *plan);
/* pendingDetails: new array (NULL, 0 when nothing is pending). */
void mig_pending_details(const struct mig_plan *plan, const struct sst_spec *spec,
			 struct sst_pending_migration **out, size_t *n);
/* versionApprovalNeeded(mode, plan, current). */
bool mig_version_approval_needed(const char *mode, const struct mig_plan *plan, const char *current);
/* runStageMigrations (and runStageDowngrades): mutates @st's migration ledgers; 0 or -1 with @err. */
int mig_run_stage_migrations(const struct ssc_env *env, struct ssc_clock *clk, struct ssc_events *ev,
			     struct sst_status *st, size_t stage_index, const char *stage, const struct mig_plan *plan,
			     struct ssc_err *err);

/* ==== E-D, engine/stageset_windows.h (win_, internal/window, windows.go) ==== */

/* window.Decision at @now_ms: 0 with *@allowed, *@next_ms (SST_NO_TIME: never changes); -1 with @err text. */
int win_decision(const struct sst_window *w, size_t n, const struct ssc_env *env, int64_t now_ms, bool *allowed,
		 int64_t *next_ms, char *err, size_t errlen);
/* requeueForWindow */
int64_t win_requeue_for_window(int64_t next_ms, int64_t now_ms, int64_t fallback_ms);
/* nextWindowSuffix: "" or " (next window opens <RFC3339>)". */
void win_next_window_suffix(int64_t next_ms, char *buf, size_t len);

/* ==== E-D, engine/stageset_budget.h (eb_, errorbudget.go) ==== */

/* freshBudgetOverride: *@token borrowed from the annotation. */
bool eb_fresh_budget_override(const struct obj *ss, const struct sst_status *st, const char **token);
/* budgetVerdict */
struct eb_verdict {
	double value;
	struct sst_budget_freeze *freeze; /* new; NULL when not frozen */
	bool frozen;
	bool source_err;
	struct ssc_err source;
	bool spec_err;
	char spec_msg[512];
};
/* evaluateBudget (the query through env->query; "now" is clk->now_ms). */
void eb_evaluate_budget(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_error_budget *eb,
			const struct sst_budget_freeze *prev, struct eb_verdict *out);
void eb_verdict_release(struct eb_verdict *v);
int64_t eb_budget_interval(const struct sst_error_budget *eb, int64_t retry_ms);
const char *eb_effective_resume(const struct sst_error_budget *eb);
/* stageBudgetGate */
struct eb_stage_gate {
	bool hold;
	struct sst_budget_freeze *freeze; /* new or NULL */
	const char *reason;               /* static */
	char msg[1024];
	int64_t requeue_ms;
	bool spec_err;
	char spec_msg[512];
	bool source_err;
	char source_msg[512];
};
void eb_gate_stage_budget(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_stage *stage,
			  const struct sst_stage_status *prior, int64_t retry_ms, struct eb_stage_gate *out);
void eb_stage_gate_release(struct eb_stage_gate *g);

/* ==== E-E, engine/stageset_promotion.h (pr_, promotion.go, analysis.go, restartgate.go, eventgate.go) ==== */

struct pr_analysis_verdict {
	struct sst_analysis_result *result; /* new */
	bool breached, source_err;
};
void pr_evaluate_promotion_analysis(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_stage *stage,
				    struct pr_analysis_verdict *out);
void pr_analysis_verdict_release(struct pr_analysis_verdict *v); /* accepts zeroed */
bool pr_evaluate_fast_track(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_stage *stage);

struct pr_restart_verdict {
	char *check;
	int32_t observed;
	bool rollback;
};
struct pr_restart_observation {
	struct pr_restart_verdict *verdict; /* NULL: within tolerance */
	struct sst_restart_baseline *baseline, *totals;
	size_t nbaseline, ntotals;
};
/* evaluateRestartChecks: 0, or -1 with @err (the list error, wrapped `restart check "<c>": list pods: ...`). */
int pr_evaluate_restart_checks(const struct ssc_env *env, struct ssc_clock *clk, const char *ns,
			       const struct sst_stage *stage, const struct sst_stage_status *prior,
			       struct pr_restart_observation *out, struct ssc_err *err);
void pr_restart_observation_release(struct pr_restart_observation *o); /* accepts zeroed */

struct pr_event_verdict {
	char *check;
	int32_t observed;
	bool rollback;
};
/* evaluateEventChecks: 0 with *@out (NULL: no breach), or -1 with @err. */
int pr_evaluate_event_checks(const struct ssc_env *env, struct ssc_clock *clk, const char *ns,
			     const struct sst_stage *stage, struct pr_event_verdict **out, struct ssc_err *err);
void pr_event_verdict_free(struct pr_event_verdict *v); /* accepts NULL */

/* gatePromotion's five results. */
struct pr_decision {
	bool promoted;
	struct sst_promotion_state *state; /* new or NULL */
	int64_t requeue_ms;
	char *handled;                     /* new */
	bool rollback;
};
void pr_gate_promotion(const struct obj *ss, const struct sst_stage *stage, const char *revision,
		       const struct sst_stage_status *prior, int64_t now_ms, const struct pr_analysis_verdict *verdict,
		       bool fast_track_ok, const struct pr_restart_verdict *restart, const struct pr_event_verdict *event,
		       int64_t retry_ms, struct pr_decision *out);
void pr_decision_release(struct pr_decision *d); /* accepts zeroed */
/* promotionHoldCondition: *@reason static, *@msg new. */
void pr_promotion_hold_condition(const struct obj *ss, const char *stage, const struct sst_promotion_state *state,
				 const char **reason, char **msg);
/* rollbackAborted */
bool pr_rollback_aborted(const struct obj *ss, const struct sst_stage *stage, const struct sst_stage_status *prior,
			 const char *revision);

/* ==== E-E, engine/stageset_validate.h (ssv_, webhook.go ValidateSpec) ==== */

/* ValidateSpec: 0, or -1 with *@err (new) the first error's text. */
int ssv_validate_spec(const struct obj *ss, const struct sst_spec *spec, char **err);

#endif
