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
