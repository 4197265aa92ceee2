/*
 * engine/stageset_budget: metio/stageset-controller@f2c7604
 * internal/controller/errorbudget_test.go — TestBudgetThresholds and the
 * gate decisions behind TestReconcile_ErrorBudget_* and
 * TestReconcile_StageErrorBudget_* (a fake querier as upstream's
 * fakeQuerier) — plus upstream's message texts, event deduplication,
 * the pass clock, and strconv.FormatFloat(v, 'f', -1, 64).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/objects.h"
#include "engine/stageset_budget.h"
#include "tests/unit/cu_main.h"

#define MINUTE INT64_C(60000)
#define T0 INT64_C(1767225600000) /* 2026-01-01T00:00:00Z */

/* fakeQuerier: a scriptable value or error, counting calls. */
struct fake_querier {
	double value;
	const char *err; /* NULL: no error */
	int calls;
	int64_t duration_ms;
};

static int fake_query(void *ctx, const struct sst_metric_source *src, int64_t at_ms, double *value,
		      int64_t *duration_ms, struct ssc_err *err)
{
	struct fake_querier *q = ctx;

	(void)src;
	(void)at_ms;
	q->calls++;
	*duration_ms = q->duration_ms;
	if (q->err) {
		ssc_err_set(err, SSC_ERR, "%s", q->err);
		return -1;
	}
	*value = q->value;
	return 0;
}

struct fixture {
	struct fake_querier q;
	struct ssc_env env;
	struct ssc_clock clk;
	struct obj *ss;
	struct sst_spec spec;
	struct sst_status st;
	struct ssc_resolved ra;
};

static void fixture_init(struct fixture *f, const char *freeze, const char *resume)
{
	memset(f, 0, sizeof(*f));
	f->env.ctx = &f->q;
	f->env.query = fake_query;
	f->clk.now_ms = f->clk.start_ms = T0;
	f->ss = obj_new("stages.metio.wtf/v1", "StageSet", "ns", "frozen");
	f->ss->generation = 2;
	f->spec.has_error_budget = true;
	f->spec.error_budget.freeze_threshold = freeze;
	f->spec.error_budget.resume_threshold = resume;
	f->spec.error_budget.on_source_error = "";
	sst_status_init(&f->st);
	strcpy(f->ra.key, "ns/ea");
	f->ra.revision = "sha256:v2";
}

static void fixture_release(struct fixture *f)
{
	obj_free(f->ss);
	sst_status_release(&f->st);
}

static void gate(struct fixture *f, bool override, struct eb_gate *g)
{
	eb_gate_error_budget(&f->env, &f->clk, f->ss, &f->spec, &f->st, &f->ra, 1, override, MINUTE, g);
}

/* setReady as the controller applies it (message undecorated here). */
static void apply_ready(struct sst_status *st, const struct eb_gate *g)
{
	if (!g->set_ready)
		return;
	for (size_t i = 0; i < st->nconditions; i++)
		sst_condition_release(&st->conditions[i]);
	free(st->conditions);
	st->conditions = calloc(1, sizeof(*st->conditions));
	st->nconditions = 1;
	st->conditions[0].type = strdup("Ready");
	st->conditions[0].status = strdup(g->ready_status);
	st->conditions[0].reason = strdup(g->ready_reason);
	st->conditions[0].message = strdup(g->ready_message);
}

/* ---- budgetThresholds ----------------------------------------------------- */

static void test_budget_thresholds(void)
{
	static const struct {
		const char *freeze, *resume;
		double want_freeze, want_resume;
		const char *err;
	} c[] = {
		{ "0.1", NULL, 0.1, 0.1, NULL },                     /* resume defaults to freeze */
		{ "0", "0.05", 0, 0.05, NULL },                      /* explicit resume */
		{ "0.1", "0.05", 0, 0,
		  "resumeThreshold \"0.05\" must be >= freezeThreshold \"0.1\" (hysteresis resumes at or above the freeze "
		  "point)" },                                        /* resume below freeze rejected */
		{ "x", NULL, 0, 0,
		  "freezeThreshold \"x\" is not a number: strconv.ParseFloat: parsing \"x\": invalid syntax" },
		{ "0", "y", 0, 0,
		  "resumeThreshold \"y\" is not a number: strconv.ParseFloat: parsing \"y\": invalid syntax" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct sst_error_budget eb = { .freeze_threshold = c[i].freeze, .resume_threshold = c[i].resume };
		double f = -1, r = -1;
		char err[512] = "";
		int rc = eb_budget_thresholds(&eb, &f, &r, err, sizeof(err));

		if (c[i].err) {
			CU_ASSERT_EQUAL(rc, -1);
			CU_ASSERT_STRING_EQUAL(err, c[i].err);
		} else {
			CU_ASSERT_EQUAL(rc, 0);
			CU_ASSERT_DOUBLE_EQUAL(f, c[i].want_freeze, 0);
			CU_ASSERT_DOUBLE_EQUAL(r, c[i].want_resume, 0);
		}
	}
}

/* ---- gateErrorBudget ------------------------------------------------------ */

static void test_freezes_when_exhausted(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	f.q.value = 0.05;
	gate(&f, false, &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_STRING_EQUAL(g.ready_status, "False");
	CU_ASSERT_STRING_EQUAL(g.ready_reason, "BudgetExhausted");
	CU_ASSERT_STRING_EQUAL(g.ready_message, "error budget exhausted: remaining 0.05 < freezeThreshold 0.1; "
						"new-revision rollouts are frozen until it recovers to 0.1");
	CU_ASSERT(g.event);
	CU_ASSERT(g.event_warning);
	CU_ASSERT_STRING_EQUAL(g.event_reason, "BudgetExhausted");
	CU_ASSERT_EQUAL(g.requeue_ms, MINUTE); /* no interval: the retry interval */
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.st.budget_freeze);
	CU_ASSERT_STRING_EQUAL(f.st.budget_freeze->remaining, "0.05");
	CU_ASSERT_STRING_EQUAL(f.st.budget_freeze->freeze_threshold, "0.1");
	CU_ASSERT_STRING_EQUAL(f.st.budget_freeze->resume_threshold, "0.1");
	CU_ASSERT_EQUAL(f.st.budget_freeze->since_ms, T0);
	CU_ASSERT_FALSE(f.st.budget_freeze->dry_run);
	CU_ASSERT_EQUAL(f.st.observed_generation, 2);
	/* A second pass still frozen: the Ready reason has not changed, no second event. */
	apply_ready(&f.st, &g);
	gate(&f, false, &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_FALSE(g.event);
	fixture_release(&f);
}

static void test_allows_when_healthy(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	f.q.value = 0.9;
	{
		char rem[] = "0", thr[] = "0.1";
		struct sst_budget_freeze prev = { rem, thr, thr, T0, false };

		f.st.budget_freeze = sst_budget_freeze_dup(&prev);
	}
	gate(&f, false, &g);
	CU_ASSERT_FALSE(g.deferred);
	CU_ASSERT_FALSE(g.set_ready);
	CU_ASSERT_FALSE(g.event);
	CU_ASSERT_PTR_NULL(f.st.budget_freeze);
	fixture_release(&f);
}

/* With nothing new to roll out the source is not even queried (drift correction flows). */
static void test_steady_pass_not_queried(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	f.q.value = 0;
	sst_strmap_set(&f.st.last_applied_revisions, "ns/ea", "sha256:v2");
	gate(&f, false, &g);
	CU_ASSERT_FALSE(g.deferred);
	CU_ASSERT_EQUAL(f.q.calls, 0);
	fixture_release(&f);
}

static void test_freezes_inside_open_window(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	f.q.value = 0.0;
	gate(&f, false, &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_STRING_EQUAL(g.ready_reason, "BudgetExhausted");
	CU_ASSERT_STRING_EQUAL(f.st.budget_freeze->remaining, "0");
	fixture_release(&f);
}

static void test_hysteresis(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0", "0.05");
	f.q.value = -0.01; /* overspent: freeze */
	gate(&f, false, &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_STRING_EQUAL(f.st.budget_freeze->remaining, "-0.01");
	CU_ASSERT_STRING_EQUAL(f.st.budget_freeze->resume_threshold, "0.05");

	f.q.value = 0.02; /* above freeze, below resume: stays frozen, since kept */
	f.clk.now_ms += MINUTE;
	gate(&f, false, &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_EQUAL(f.st.budget_freeze->since_ms, T0);
	CU_ASSERT_STRING_EQUAL(g.ready_message, "error budget exhausted: remaining 0.02 < freezeThreshold 0; "
						"new-revision rollouts are frozen until it recovers to 0.05");

	f.q.value = 0.06; /* recovered: resume */
	f.clk.now_ms += MINUTE;
	gate(&f, false, &g);
	CU_ASSERT_FALSE(g.deferred);
	CU_ASSERT_PTR_NULL(f.st.budget_freeze);
	fixture_release(&f);
}

static void test_dry_run_records_but_proceeds(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	f.spec.error_budget.dry_run = true;
	f.q.value = 0.01;
	gate(&f, false, &g);
	CU_ASSERT_FALSE(g.deferred);
	CU_ASSERT_FALSE(g.set_ready);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.st.budget_freeze);
	CU_ASSERT(f.st.budget_freeze->dry_run);
	CU_ASSERT(g.event);
	CU_ASSERT_FALSE(g.event_warning);
	CU_ASSERT_STRING_EQUAL(g.event_reason, "BudgetExhausted");
	CU_ASSERT_STRING_EQUAL(g.event_note,
			       "error-budget freeze would activate (dryRun): remaining 0.01 < freezeThreshold 0.1");
	fixture_release(&f);
}

static void test_source_error_allow_proceeds(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	f.q.err = "prometheus down";
	gate(&f, false, &g);
	CU_ASSERT_FALSE(g.deferred);
	CU_ASSERT(g.source_error);
	CU_ASSERT(g.event);
	CU_ASSERT(g.event_warning);
	CU_ASSERT_STRING_EQUAL(g.event_reason, "BudgetSourceUnavailable");
	CU_ASSERT_STRING_EQUAL(g.event_note,
			       "error-budget source unavailable; proceeding (onSourceError=Allow): prometheus down");
	fixture_release(&f);
}

static void test_source_error_hold_blocks(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	f.spec.error_budget.on_source_error = "Hold";
	f.spec.error_budget.interval = (struct sst_duration){ true, 5 * MINUTE };
	f.q.err = "prometheus down";
	gate(&f, false, &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_STRING_EQUAL(g.ready_reason, "BudgetSourceUnavailable");
	CU_ASSERT_STRING_EQUAL(g.ready_message,
			       "error-budget source unavailable and onSourceError=Hold: prometheus down");
	CU_ASSERT_EQUAL(g.requeue_ms, 5 * MINUTE);
	fixture_release(&f);
}

static void test_override_forces_apply(void)
{
	struct fixture f;
	struct eb_gate g;
	const char *token;

	fixture_init(&f, "0.1", NULL);
	obj_strmap_set(&f.ss->annotations, SSC_ANN_BUDGET_OVERRIDE, "tok-1");
	CU_ASSERT(eb_fresh_budget_override(f.ss, &f.st, &token));
	CU_ASSERT_STRING_EQUAL(token, "tok-1");
	f.q.value = 0.0;
	gate(&f, true, &g);
	CU_ASSERT_FALSE(g.deferred);
	CU_ASSERT_EQUAL(f.q.calls, 0);
	/* One-shot: once handled, the same token is not fresh. */
	free(f.st.last_handled_budget_override);
	f.st.last_handled_budget_override = strdup(token);
	CU_ASSERT_FALSE(eb_fresh_budget_override(f.ss, &f.st, &token));
	fixture_release(&f);
}

static void test_deployed_stays_ready_when_frozen(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	sst_strmap_set(&f.st.last_applied_revisions, "ns/ea", "sha256:v1");
	f.q.value = 0.0;
	gate(&f, false, &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_STRING_EQUAL(g.ready_status, "True");
	CU_ASSERT_STRING_EQUAL(g.ready_reason, "Succeeded");
	CU_ASSERT_STRING_EQUAL(g.ready_message, "Deployed; error budget exhausted: remaining 0 < freezeThreshold 0.1; "
						"new-revision rollouts are frozen until it recovers to 0.1");
	CU_ASSERT(g.event); /* Ready was absent: Normal Succeeded with the undecorated message */
	CU_ASSERT_FALSE(g.event_warning);
	CU_ASSERT_STRING_EQUAL(g.event_reason, "Succeeded");
	CU_ASSERT_PTR_NOT_NULL(f.st.budget_freeze);
	apply_ready(&f.st, &g);
	gate(&f, false, &g); /* already Ready True Succeeded: no event */
	CU_ASSERT_FALSE(g.event);
	fixture_release(&f);
}

static void test_invalid_thresholds_fallback(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "x", NULL);
	gate(&f, false, &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_STRING_EQUAL(g.ready_reason, "InvalidSpec");
	CU_ASSERT_STRING_EQUAL(g.ready_message, "spec.errorBudget: freezeThreshold \"x\" is not a number: "
						"strconv.ParseFloat: parsing \"x\": invalid syntax");
	CU_ASSERT_EQUAL(g.requeue_ms, MINUTE);
	CU_ASSERT_EQUAL(f.q.calls, 0);
	fixture_release(&f);
}

/* The query takes time: the pass clock advances and since is the clock after it, in whole seconds. */
static void test_query_advances_clock(void)
{
	struct fixture f;
	struct eb_gate g;

	fixture_init(&f, "0.1", NULL);
	f.q.value = 0.0;
	f.q.duration_ms = 2500;
	gate(&f, false, &g);
	CU_ASSERT_EQUAL(f.clk.now_ms, T0 + 2500);
	CU_ASSERT_EQUAL(f.st.budget_freeze->since_ms, T0 + 2000);
	fixture_release(&f);
}

/* ---- gateStageBudget ------------------------------------------------------ */

static struct sst_stage budget_stage(const char *freeze)
{
	struct sst_stage s;

	memset(&s, 0, sizeof(s));
	s.name = "stage-b";
	s.has_error_budget = true;
	s.error_budget.freeze_threshold = freeze;
	s.error_budget.on_source_error = "";
	return s;
}

static void test_stage_freezes_entry_then_resumes(void)
{
	struct fixture f;
	struct sst_stage stage = budget_stage("0.1");
	struct sst_stage_status prior;
	struct eb_stage_gate g;

	fixture_init(&f, "0.1", NULL);
	memset(&prior, 0, sizeof(prior));
	f.q.value = 0.0;
	eb_gate_stage_budget(&f.env, &f.clk, &stage, NULL, MINUTE, &g);
	CU_ASSERT(g.hold);
	CU_ASSERT_STRING_EQUAL(g.reason, "BudgetExhausted");
	CU_ASSERT_STRING_EQUAL(g.msg, "stage \"stage-b\" error budget exhausted: remaining 0 < freezeThreshold 0.1; "
				      "the new revision is held from entering this stage until it recovers to 0.1");
	CU_ASSERT_EQUAL(g.requeue_ms, MINUTE);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g.freeze);
	prior.budget_freeze = g.freeze; /* the held stage records it */
	g.freeze = NULL;
	eb_stage_gate_release(&g);

	f.q.value = 0.9; /* recovered */
	eb_gate_stage_budget(&f.env, &f.clk, &stage, &prior, MINUTE, &g);
	CU_ASSERT_FALSE(g.hold);
	CU_ASSERT_PTR_NULL(g.freeze);
	eb_stage_gate_release(&g);
	sst_budget_freeze_free(prior.budget_freeze);
	fixture_release(&f);
}

static void test_stage_source_error_allow_clears_frozen_gauge(void)
{
	struct fixture f;
	struct sst_stage stage = budget_stage("0.1");
	struct eb_stage_gate g;

	fixture_init(&f, "0.1", NULL);
	f.q.err = "prometheus unreachable";
	eb_gate_stage_budget(&f.env, &f.clk, &stage, NULL, MINUTE, &g);
	CU_ASSERT_FALSE(g.hold);
	CU_ASSERT(g.source_err);
	CU_ASSERT_STRING_EQUAL(g.source_msg, "prometheus unreachable");
	eb_stage_gate_release(&g);

	stage.error_budget.on_source_error = "Hold";
	eb_gate_stage_budget(&f.env, &f.clk, &stage, NULL, MINUTE, &g);
	CU_ASSERT(g.hold);
	CU_ASSERT_STRING_EQUAL(g.reason, "BudgetSourceUnavailable");
	CU_ASSERT_STRING_EQUAL(g.msg, "stage \"stage-b\" error-budget source unavailable and onSourceError=Hold: "
				      "prometheus unreachable");
	eb_stage_gate_release(&g);
	fixture_release(&f);
}

/* A dryRun stage records the would-freeze without holding; malformed thresholds are reported. */
static void test_stage_dry_run_and_spec_error(void)
{
	struct fixture f;
	struct sst_stage stage = budget_stage("0.1");
	struct eb_stage_gate g;

	fixture_init(&f, "0.1", NULL);
	stage.error_budget.dry_run = true;
	f.q.value = 0.0;
	eb_gate_stage_budget(&f.env, &f.clk, &stage, NULL, MINUTE, &g);
	CU_ASSERT_FALSE(g.hold);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g.freeze);
	CU_ASSERT(g.freeze->dry_run);
	eb_stage_gate_release(&g);

	stage = budget_stage("0.1");
	stage.error_budget.resume_threshold = "0.05";
	eb_gate_stage_budget(&f.env, &f.clk, &stage, NULL, MINUTE, &g);
	CU_ASSERT(g.spec_err);
	CU_ASSERT_FALSE(g.hold);
	CU_ASSERT_STRING_EQUAL(g.spec_msg, "resumeThreshold \"0.05\" must be >= freezeThreshold \"0.1\" "
					   "(hysteresis resumes at or above the freeze point)");
	eb_stage_gate_release(&g);
	fixture_release(&f);
}

static void test_budget_interval(void)
{
	struct sst_error_budget eb = { .interval = { false, 0 } };

	CU_ASSERT_EQUAL(eb_budget_interval(&eb, 42), 42);
	eb.interval = (struct sst_duration){ true, 0 };
	CU_ASSERT_EQUAL(eb_budget_interval(&eb, 42), 42);
	eb.interval = (struct sst_duration){ true, 5 * MINUTE };
	CU_ASSERT_EQUAL(eb_budget_interval(&eb, 42), 5 * MINUTE);
}

/* strconv.FormatFloat(v, 'f', -1, 64) */
static void test_format_float(void)
{
	static const struct { double v; const char *want; } c[] = {
		{ 0.05, "0.05" },
		{ -0.01, "-0.01" },
		{ 0, "0" },
		{ 1, "1" },
		{ 100, "100" },
		{ 1e21, "1000000000000000000000" },
		{ 1e-7, "0.0000001" },
		{ 123456789.125, "123456789.125" },
		{ 0.1 + 0.2, "0.30000000000000004" },
		{ 1.0 / 3, "0.3333333333333333" },
		{ 2.5e-5, "0.000025" },
	};
	char buf[400];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CU_ASSERT_STRING_EQUAL(eb_format_float(c[i].v, buf, sizeof(buf)), c[i].want);
	CU_ASSERT_STRING_EQUAL(eb_format_float(-0.0, buf, sizeof(buf)), "-0");
	CU_ASSERT_STRING_EQUAL(eb_format_float(NAN, buf, sizeof(buf)), "NaN");
	CU_ASSERT_STRING_EQUAL(eb_format_float(-INFINITY, buf, sizeof(buf)), "-Inf");
	CU_ASSERT_STRING_EQUAL(eb_format_float(INFINITY, buf, sizeof(buf)), "+Inf");
	eb_format_float(1.7976931348623157e308, buf, sizeof(buf));
	CU_ASSERT_EQUAL(strlen(buf), 309);
	CU_ASSERT_EQUAL(strncmp(buf, "17976931348623157000", 20), 0);
	eb_format_float(5e-324, buf, sizeof(buf));
	CU_ASSERT_EQUAL(strlen(buf), 326);
	CU_ASSERT_EQUAL(buf[325], '5');
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "TestBudgetThresholds", test_budget_thresholds },
		{ "gateErrorBudget: freezes when exhausted", test_freezes_when_exhausted },
		{ "gateErrorBudget: allows when healthy", test_allows_when_healthy },
		{ "gateErrorBudget: a steady pass is not queried", test_steady_pass_not_queried },
		{ "gateErrorBudget: freezes inside open window", test_freezes_inside_open_window },
		{ "gateErrorBudget: hysteresis", test_hysteresis },
		{ "gateErrorBudget: dryRun records but proceeds", test_dry_run_records_but_proceeds },
		{ "gateErrorBudget: source error, Allow proceeds", test_source_error_allow_proceeds },
		{ "gateErrorBudget: source error, Hold blocks", test_source_error_hold_blocks },
		{ "gateErrorBudget: override forces apply", test_override_forces_apply },
		{ "gateErrorBudget: deployed stays ready when frozen", test_deployed_stays_ready_when_frozen },
		{ "gateErrorBudget: malformed thresholds fallback", test_invalid_thresholds_fallback },
		{ "evaluateBudget: the query advances the pass clock", test_query_advances_clock },
		{ "gateStageBudget: freezes entry then resumes", test_stage_freezes_entry_then_resumes },
		{ "gateStageBudget: source error Allow clears frozen gauge", test_stage_source_error_allow_clears_frozen_gauge },
		{ "gateStageBudget: dryRun and malformed thresholds (Q-30)", test_stage_dry_run_and_spec_error },
		{ "budgetInterval", test_budget_interval },
		{ "strconv.FormatFloat 'f' -1", test_format_float },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("stageset_budget", tests);
}
