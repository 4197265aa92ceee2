#ifndef MAGOS_ENGINE_STAGESET_VERIFY_H
#define MAGOS_ENGINE_STAGESET_VERIFY_H

/*
 * A stage's readiness after its apply, as the StageSet controller's
 * verifyStage decides it (metio/stageset-controller@f2c7604
 * internal/controller/verifystage.go, readychecks.go): the kstatus wait over
 * the wait set, then the CEL readyChecks.exprs poll, each with a full,
 * fresh timeout (spec Q-2), both abandoned when the StageSet is being
 * deleted.  The waits themselves are the world's (env->wait_stage,
 * env->ready_exprs); this module assembles the outcome and its texts and
 * advances the pass clock by the time each wait blocked.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/stageset_env.h"
#include "engine/stageset_types.h"

/* verifyOutcome. */
struct vs_outcome {
	bool ready;       /* cause == nil: the stage is ready */
	bool progressing; /* ran out of clock while still converging (a hold), else a failure */
	bool deleted;     /* the StageSet got a deletionTimestamp mid-wait: the gates were abandoned */
	char cause[1024]; /* the cause's Error() text when neither ready nor deleted, else "" */
};

/*
 * vs_wait_set_empty() - whether the wait set of @stage is empty:
 * readyCheckObjects (readyChecks.checks) plus, unless readyChecks.disableWait,
 * the @napplied objects of the apply's change set.  An empty set skips the
 * kstatus wait.
 * Source: metio/stageset-controller@f2c7604 internal/controller/readychecks.go
 *         readyCheckObjects; stageset_controller.go Reconcile (waitSet, disableWait).
 */
bool vs_wait_set_empty(const struct sst_stage *stage, size_t napplied);

/*
 * vs_verify_stage() - verifyStage.
 * @env:      the world: wait_stage (only when the wait set is not empty),
 *            ready_exprs (only when the stage has readyChecks.exprs and the
 *            kstatus wait passed).
 * @clk:      the pass clock, advanced by each wait's duration.
 * @index:    the stage's index in spec.stages (handed to the world).
 * @stage:    the stage (borrowed).
 * @napplied: objects in the apply's change set (0: nothing applied).
 * @timeout_ms: the stage's verify timeout T (ssc_stage_timeout), ms.
 * @out:      filled.
 * Outcomes: the wait DELETED ⇒ deleted.  The kstatus wait failing otherwise ⇒
 *   progressing = !stalled; a progressing cause is "<err> (waited <T>: stage
 *   readyChecks.timeout, else stages[].timeout, else spec.timeout)" with T in
 *   Go duration form, a stalled one the wait's error text as is.  The exprs:
 *   FAILED ⇒ the world's error text ("readyCheck failed for <Kind>
 *   <ns>/<name>"), not progressing; TIMEOUT ⇒ "readyChecks.exprs not
 *   satisfied within <T>: context deadline exceeded", progressing (and
 *   prefixed "readyChecks.exprs objects are still progressing: ") iff the
 *   last poll saw something in flight.
 * Errors: cannot fail.
 * Source: metio/stageset-controller@f2c7604 internal/controller/verifystage.go
 *         verifyStage, watchForDeletion; readychecks.go evalReadyExprs.
 * Deviations: 1. the heartbeat log lines are not produced.  2. a FAILED exprs
 *   answer with an empty text gets "readyChecks.exprs failed" (upstream
 *   always has a text; compile errors are the world's to word).
 */
void vs_verify_stage(const struct ssc_env *env, struct ssc_clock *clk, size_t index,
		     const struct sst_stage *stage, size_t napplied, int64_t timeout_ms,
		     struct vs_outcome *out);

#endif
