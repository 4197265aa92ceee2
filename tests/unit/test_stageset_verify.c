/*
 * engine/stageset_verify: verifyStage's outcome over scripted waits, the
 * cases of upstream verifystage_test.go and readychecks_test.go
 * (TestEvalReadyExprs_*) named after their test functions, with the exact
 * cause texts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_verify.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

#define T0 1784462400000LL

struct world {
	struct ssc_wait_outcome wait, exprs;
	bool in_flight;
	int waited, polled;
	bool with_applied;
	int64_t wait_at, exprs_at, wait_timeout, exprs_timeout;
};

static void w_wait(void *ctx, size_t stage, bool with_applied, int64_t timeout_ms, int64_t at_ms,
		   struct ssc_wait_outcome *out)
{
	struct world *w = ctx;
	w->waited++;
	w->with_applied = with_applied;
	w->wait_at = at_ms;
	w->wait_timeout = timeout_ms;
	*out = w->wait;
}

static void w_exprs(void *ctx, size_t stage, int64_t timeout_ms, int64_t at_ms, struct ssc_wait_outcome *out,
		    bool *in_flight)
{
	struct world *w = ctx;
	w->polled++;
	w->exprs_at = at_ms;
	w->exprs_timeout = timeout_ms;
	*out = w->exprs;
	*in_flight = w->in_flight;
}

static struct val *tree;
static struct sst_spec spec;

static const struct sst_stage *stage_of(const char *yaml_text)
{
	struct yl_stream s;
	struct diag d;
	char err[256];
	diag_init(&d);
	CU_ASSERT_FATAL(yl_load_string("t", yaml_text, strlen(yaml_text), &s, &d) == 0);
	tree = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	CU_ASSERT_FATAL(sst_spec_parse(tree, &spec, err, sizeof(err)) == 0);
	return &spec.stages[0];
}

static void done(void)
{
	sst_spec_release(&spec);
	val_free(tree);
}

static void run(struct world *w, const struct sst_stage *st, size_t napplied, int64_t timeout, struct ssc_clock *clk,
		struct vs_outcome *out)
{
	struct ssc_env env;
	memset(&env, 0, sizeof(env));
	env.ctx = w;
	env.wait_stage = w_wait;
	env.ready_exprs = w_exprs;
	vs_verify_stage(&env, clk, 0, st, napplied, timeout, out);
}

static const char *plain = "stages: [{name: app, sourceRef: {name: s}}]";
static const char *with_exprs =
	"stages: [{name: app, sourceRef: {name: s}, readyChecks: {exprs: [{apiVersion: apps/v1, kind: Deployment, current: 'true'}]}}]";

static void test_timed_out_while_progressing_holds(void)
{
	struct world w = { 0 };
	struct ssc_clock clk = { T0, T0 };
	struct vs_outcome o;
	const struct sst_stage *st = stage_of(plain);
	w.wait.result = SSC_WAIT_TIMEOUT;
	w.wait.duration_ms = 900000;
	ssc_err_set(&w.wait.err, SSC_ERR, "timeout waiting for: [DaemonSet/ns/mirror status: 'InProgress']");
	run(&w, st, 3, 900000, &clk, &o);
	CU_ASSERT(!o.deleted && !o.ready && o.progressing);
	CU_ASSERT_STRING_EQUAL(o.cause, "timeout waiting for: [DaemonSet/ns/mirror status: 'InProgress'] (waited 15m0s: stage readyChecks.timeout, else stages[].timeout, else spec.timeout)");
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 900000);
	CU_ASSERT(w.with_applied);
	done();
}

static void test_stalled_object_fails(void)
{
	struct world w = { 0 };
	struct ssc_clock clk = { T0, T0 };
	struct vs_outcome o;
	const struct sst_stage *st = stage_of(plain);
	w.wait.result = SSC_WAIT_FAILED;
	w.wait.stalled = true;
	w.wait.duration_ms = 4000;
	ssc_err_set(&w.wait.err, SSC_ERR, "failed early: Job/ns/migrate");
	run(&w, st, 1, 60000, &clk, &o);
	CU_ASSERT(!o.progressing && !o.deleted && !o.ready);
	CU_ASSERT_STRING_EQUAL(o.cause, "failed early: Job/ns/migrate");
	/* A timed-out wait with a Failed object now is not progressing either (Stalled decides). */
	w.wait.result = SSC_WAIT_TIMEOUT;
	run(&w, st, 1, 60000, &clk, &o);
	CU_ASSERT(!o.progressing && strstr(o.cause, "waited") == NULL);
	done();
}

static void test_deletion_mid_wait_abandons(void)
{
	struct world w = { 0 };
	struct ssc_clock clk = { T0, T0 };
	struct vs_outcome o;
	const struct sst_stage *st = stage_of(with_exprs);
	w.wait.result = SSC_WAIT_DELETED;
	w.wait.duration_ms = 5000;
	run(&w, st, 1, 3600000, &clk, &o);
	CU_ASSERT(o.deleted && !o.ready && o.cause[0] == '\0');
	CU_ASSERT_EQUAL(w.polled, 0);
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 5000);
	/* ... and during the expression poll. */
	w.wait.result = SSC_WAIT_READY;
	w.exprs.result = SSC_WAIT_DELETED;
	run(&w, st, 1, 3600000, &clk, &o);
	CU_ASSERT(o.deleted && o.cause[0] == '\0');
	done();
}

static void test_empty_wait_set_is_ready(void)
{
	struct world w = { 0 };
	struct ssc_clock clk = { T0, T0 };
	struct vs_outcome o;
	const struct sst_stage *st = stage_of(plain);
	run(&w, st, 0, 60000, &clk, &o);
	CU_ASSERT(o.ready && !o.progressing && !o.deleted);
	CU_ASSERT_EQUAL(w.waited, 0);
	done();
	/* disableWait with no readyChecks.checks: nothing to wait for. */
	st = stage_of("stages: [{name: app, sourceRef: {name: s}, readyChecks: {disableWait: true}}]");
	CU_ASSERT(vs_wait_set_empty(st, 5));
	run(&w, st, 5, 60000, &clk, &o);
	CU_ASSERT(o.ready && w.waited == 0);
	done();
	/* disableWait with checks: the checks alone are waited on. */
	st = stage_of("stages: [{name: app, sourceRef: {name: s}, readyChecks: {disableWait: true, checks: [{kind: Deployment, name: web}]}}]");
	CU_ASSERT(!vs_wait_set_empty(st, 5));
	run(&w, st, 5, 60000, &clk, &o);
	CU_ASSERT(o.ready && w.waited == 1 && !w.with_applied);
	done();
}

static void test_eval_ready_exprs(void)
{
	struct world w = { 0 };
	struct ssc_clock clk = { T0, T0 };
	struct vs_outcome o;
	const struct sst_stage *st = stage_of(with_exprs);

	/* CurrentSatisfied; each gate gets a full fresh timeout (spec Q-2). */
	w.wait.duration_ms = 30000;
	w.exprs.duration_ms = 2000;
	run(&w, st, 2, 300000, &clk, &o);
	CU_ASSERT(o.ready);
	CU_ASSERT_EQUAL(w.exprs_at, T0 + 30000);
	CU_ASSERT_EQUAL(w.exprs_timeout, 300000);
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 32000);

	/* CurrentFalseTimesOut / NoInProgressStaysAFailure / InProgressFalseStaysAFailure. */
	w.exprs.result = SSC_WAIT_TIMEOUT;
	w.in_flight = false;
	run(&w, st, 2, 300000, &clk, &o);
	CU_ASSERT(!o.ready && !o.progressing);
	CU_ASSERT_STRING_EQUAL(o.cause, "readyChecks.exprs not satisfied within 5m0s: context deadline exceeded");

	/* InProgressTimesOutAsProgressing. */
	w.in_flight = true;
	run(&w, st, 2, 300000, &clk, &o);
	CU_ASSERT(o.progressing);
	CU_ASSERT_STRING_EQUAL(o.cause, "readyChecks.exprs objects are still progressing: readyChecks.exprs not satisfied within 5m0s: context deadline exceeded");

	/* FailedTrips: never progressing. */
	w.exprs.result = SSC_WAIT_FAILED;
	ssc_err_set(&w.exprs.err, SSC_ERR, "readyCheck failed for Deployment ns/web");
	run(&w, st, 2, 300000, &clk, &o);
	CU_ASSERT(!o.progressing && !o.ready);
	CU_ASSERT_STRING_EQUAL(o.cause, "readyCheck failed for Deployment ns/web");
	done();
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "verifyStage: timed out while progressing holds", test_timed_out_while_progressing_holds },
		{ "verifyStage: stalled object fails", test_stalled_object_fails },
		{ "verifyStage: deletion mid-wait abandons", test_deletion_mid_wait_abandons },
		{ "verifyStage: empty wait set is ready", test_empty_wait_set_is_ready },
		{ "evalReadyExprs: satisfied, times out, in progress, failed trips", test_eval_ready_exprs },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("stageset_verify", tests);
}
