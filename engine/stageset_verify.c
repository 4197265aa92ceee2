/*
 * A stage's verify outcome.  See engine/stageset_verify.h.
 */
#include "engine/stageset_verify.h"

#include <stdio.h>
#include <string.h>

#include "engine/gofmt.h"

bool vs_wait_set_empty(const struct sst_stage *stage, size_t napplied)
{
	size_t checks = stage->has_ready_checks ? stage->ready_checks.nchecks : 0;
	bool disable_wait = stage->has_ready_checks && stage->ready_checks.disable_wait;
	return checks == 0 && (disable_wait || napplied == 0);
}

static void advance(struct ssc_clock *clk, int64_t ms)
{
	if (ms > 0)
		clk->now_ms += ms;
}

void vs_verify_stage(const struct ssc_env *env, struct ssc_clock *clk, size_t index,
		     const struct sst_stage *stage, size_t napplied, int64_t timeout_ms,
		     struct vs_outcome *out)
{
	char t[GOFMT_DURATION_LEN]; /* the timeout as Go prints it, written only for a message that says it */
	bool disable_wait = stage->has_ready_checks && stage->ready_checks.disable_wait;

	memset(out, 0, sizeof(*out));

	if (!vs_wait_set_empty(stage, napplied)) {
		struct ssc_wait_outcome w;
		memset(&w, 0, sizeof(w));
		env->wait_stage(env->ctx, index, !disable_wait && napplied > 0, timeout_ms, clk->now_ms, &w);
		advance(clk, w.duration_ms);
		if (w.result == SSC_WAIT_DELETED) {
			out->deleted = true;
			return;
		}
		if (w.result != SSC_WAIT_READY) {
			/* Fail-fast on a Failed object; otherwise the clock ran out on progressing objects. */
			out->progressing = !w.stalled;
			if (out->progressing) {
				gofmt_duration_ms(timeout_ms, t);
				snprintf(out->cause, sizeof(out->cause),
					 "%s (waited %s: stage readyChecks.timeout, else stages[].timeout, else spec.timeout)",
					 w.err.msg, t);
			} else {
				snprintf(out->cause, sizeof(out->cause), "%s", w.err.msg);
			}
			return;
		}
	}

	if (stage->has_ready_checks && stage->ready_checks.nexprs > 0) {
		struct ssc_wait_outcome w;
		bool in_flight = false;
		memset(&w, 0, sizeof(w));
		env->ready_exprs(env->ctx, index, timeout_ms, clk->now_ms, &w, &in_flight);
		advance(clk, w.duration_ms);
		switch (w.result) {
		case SSC_WAIT_READY:
			break;
		case SSC_WAIT_DELETED:
			out->deleted = true;
			return;
		case SSC_WAIT_FAILED:
			snprintf(out->cause, sizeof(out->cause), "%s",
				 w.err.msg[0] ? w.err.msg : "readyChecks.exprs failed");
			return;
		case SSC_WAIT_TIMEOUT:
			out->progressing = in_flight;
			gofmt_duration_ms(timeout_ms, t);
			snprintf(out->cause, sizeof(out->cause),
				 "%sreadyChecks.exprs not satisfied within %s: context deadline exceeded",
				 in_flight ? "readyChecks.exprs objects are still progressing: " : "", t);
			return;
		}
	}
	out->ready = true;
}
