/*
 * engine/stageset_promotion: promotion_test.go's tables as they are upstream
 * (TestGatePromotion, _Analysis, _FastTrack, _SoakSurvivesTransientBlock,
 * TestGatePromotionRestartGate, TestGatePromotionEventGate,
 * TestRollbackAborted, TestParsePromote, TestPromoteRequestedPredicate), the
 * restart and event gates over a scripted set of pods and events
 * (restartgate_test.go TestEvaluateRestartChecks, eventgate_test.go
 * TestEvaluateEventChecks), the analysis and fast-track queries, the hold
 * conditions with their exact texts, and the small helpers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset_promotion.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

/* 2026-01-01T12:00:00Z, the `now` of promotion_test.go. */
#define NOW 1767268800000LL
#define MIN 60000LL
#define REV "sha256:abc"

/* ---- fixtures ---------------------------------------------------------------- */

static struct val *tree;
static struct sst_spec spec;

/* The first stage of `stages: [{name: staging, sourceRef: {name: s}, <stage_extra>}]`. */
static const struct sst_stage *stage_with(const char *stage_extra)
{
	char text[4096];
	struct yl_stream s;
	struct diag d;
	char err[256];

	snprintf(text, sizeof(text), "stages: [{name: staging, sourceRef: {name: s}%s%s}]",
		 *stage_extra ? ", " : "", stage_extra);
	diag_init(&d);
	CU_ASSERT_FATAL(yl_load_string("t", text, strlen(text), &s, &d) == 0);
	tree = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	CU_ASSERT_FATAL(sst_spec_parse(tree, &spec, err, sizeof(err)) == 0);
	return &spec.stages[0];
}

static void stage_done(void)
{
	sst_spec_release(&spec);
	val_free(tree);
	tree = NULL;
}

static struct obj *ss_with(const char *promote)
{
	struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", "apps", "app");

	if (promote)
		obj_strmap_set(&o->annotations, SSC_ANN_PROMOTE, promote);
	return o;
}

static struct sst_promotion_state *state(const char *phase, int64_t since, int64_t soak_until)
{
	struct sst_promotion_state *s = xcalloc(1, sizeof(*s));

	s->phase = xstrdup(phase);
	s->since_ms = since;
	s->soak_until_ms = soak_until;
	s->restart_check = xstrdup("");
	s->event_check = xstrdup("");
	s->aborted_revision = xstrdup("");
	return s;
}

/* A prior stage entry at @revision (NULL: "") holding @st (owned by the entry). */
static struct sst_stage_status prior_at(const char *revision, struct sst_promotion_state *st)
{
	struct sst_stage_status p;

	memset(&p, 0, sizeof(p));
	p.name = xstrdup("staging");
	p.applied_revision = xstrdup(revision ? revision : "");
	p.last_handled_promotion = xstrdup("");
	p.promotion_state = st;
	return p;
}

static void gate(const struct obj *ss, const struct sst_stage *st, const struct sst_stage_status *prior,
		 int64_t now, const struct pr_analysis_verdict *v, bool ft, const struct pr_restart_verdict *rv,
		 const struct pr_event_verdict *ev, struct pr_decision *d)
{
	pr_gate_promotion(ss, st, REV, prior, now, v, ft, rv, ev, MIN, d);
}

/* ---- TestGatePromotion -------------------------------------------------------- */

static void test_no_promotion_gate_advances(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_decision d;

	gate(ss, stage_with(""), NULL, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_PTR_NULL(d.state);
	CU_ASSERT_STRING_EQUAL(d.handled, "");
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_soak_holds_on_first_sight(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_decision d;

	gate(ss, stage_with("promotion: {soak: 10m}"), NULL, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_SOAKING);
	CU_ASSERT_EQUAL(d.state->since_ms, NOW);
	CU_ASSERT_EQUAL(d.state->soak_until_ms, NOW + 10 * MIN);
	CU_ASSERT(d.requeue_ms > 0 && d.requeue_ms <= 10 * MIN);
	CU_ASSERT_EQUAL(d.requeue_ms, 10 * MIN);
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_soak_continues_from_prior_since(void)
{
	struct obj *ss = ss_with(NULL);
	struct sst_stage_status prior = prior_at(REV, state(PR_PHASE_SOAKING, NOW - 9 * MIN, SST_NO_TIME));
	struct pr_decision d;

	gate(ss, stage_with("promotion: {soak: 10m}"), &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_EQUAL(d.state->since_ms, NOW - 9 * MIN);
	CU_ASSERT_EQUAL(d.requeue_ms, MIN);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_soak_elapsed_promotes(void)
{
	struct obj *ss = ss_with(NULL);
	struct sst_stage_status prior = prior_at(REV, state(PR_PHASE_SOAKING, NOW - 11 * MIN, SST_NO_TIME));
	struct pr_decision d;

	gate(ss, stage_with("promotion: {soak: 10m}"), &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_PROMOTED);
	CU_ASSERT_EQUAL(d.state->since_ms, NOW);
	CU_ASSERT_EQUAL(d.requeue_ms, 0);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_new_revision_restarts_the_soak(void)
{
	struct obj *ss = ss_with(NULL);
	struct sst_stage_status prior = prior_at("sha256:OLD", state(PR_PHASE_PROMOTED, NOW - 60 * MIN, SST_NO_TIME));
	struct pr_decision d;

	gate(ss, stage_with("promotion: {soak: 10m}"), &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_EQUAL(d.state->since_ms, NOW);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_already_promoted_short_circuits(void)
{
	struct obj *ss = ss_with(NULL);
	struct sst_promotion_state *ps = state(PR_PHASE_PROMOTED, SST_NO_TIME, SST_NO_TIME);
	struct sst_stage_status prior;
	struct pr_decision d;

	ps->analysis_failures = 7; /* the prior state comes back unchanged */
	prior = prior_at(REV, ps);
	gate(ss, stage_with("promotion: {soak: 10m}"), &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_PROMOTED);
	CU_ASSERT_EQUAL(d.state->analysis_failures, 7);
	CU_ASSERT_PTR_NOT_EQUAL(d.state, ps);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_manual_gate_awaits_without_a_token(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_decision d;

	gate(ss, stage_with("promotion: {requireManualPromotion: true}"), NULL, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_AWAITING_MANUAL);
	CU_ASSERT_EQUAL(d.state->since_ms, NOW);
	CU_ASSERT_EQUAL(d.requeue_ms, MIN);
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_manual_gate_promotes_on_a_fresh_token(void)
{
	struct obj *ss = ss_with("staging@tok1");
	struct pr_decision d;

	gate(ss, stage_with("promotion: {requireManualPromotion: true}"), NULL, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_PROMOTED);
	CU_ASSERT_STRING_EQUAL(d.handled, "tok1");
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_already_handled_token_does_not_repromote(void)
{
	struct obj *ss = ss_with("staging@tok1");
	struct sst_stage_status prior = prior_at(REV, NULL);
	struct pr_decision d;

	free(prior.last_handled_promotion);
	prior.last_handled_promotion = xstrdup("tok1");
	gate(ss, stage_with("promotion: {requireManualPromotion: true}"), &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_AWAITING_MANUAL);
	CU_ASSERT_STRING_EQUAL(d.handled, "tok1");
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_token_for_another_stage_is_ignored(void)
{
	struct obj *ss = ss_with("prod@tok1");
	struct pr_decision d;

	gate(ss, stage_with("promotion: {requireManualPromotion: true}"), NULL, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.handled, "");
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_promote_breaks_a_soak_early(void)
{
	struct obj *ss = ss_with("staging@brk");
	struct sst_stage_status prior = prior_at(REV, state(PR_PHASE_SOAKING, NOW, SST_NO_TIME));
	struct pr_decision d;

	gate(ss, stage_with("promotion: {soak: 1h}"), &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_PROMOTED);
	CU_ASSERT_STRING_EQUAL(d.handled, "brk");
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_soak_then_manual(void)
{
	struct obj *ss = ss_with(NULL);
	const struct sst_stage *st = stage_with("promotion: {soak: 10m, requireManualPromotion: true}");
	struct sst_stage_status prior = prior_at(REV, state(PR_PHASE_SOAKING, NOW - MIN, SST_NO_TIME));
	struct pr_decision d;

	gate(ss, st, &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_SOAKING);
	pr_decision_release(&d);
	prior.promotion_state->since_ms = NOW - 11 * MIN;
	gate(ss, st, &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_AWAITING_MANUAL);
	pr_decision_release(&d);
	/* A later pass keeps the manual gate's since. */
	sst_promotion_state_free(prior.promotion_state);
	prior.promotion_state = state(PR_PHASE_AWAITING_MANUAL, NOW - 3 * MIN, SST_NO_TIME);
	gate(ss, st, &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_AWAITING_MANUAL);
	CU_ASSERT_EQUAL(d.state->since_ms, NOW - 3 * MIN);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

/* ---- TestGatePromotion_Analysis ------------------------------------------------ */

static struct sst_analysis_result pass_result = { SST_NO_TIME, true, NULL, 0 };
static struct sst_analysis_result fail_result = { SST_NO_TIME, false, NULL, 0 };

static void test_analysis_passing_promotes(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_analysis_verdict pass = { &pass_result, false, false, 0 };
	struct pr_decision d;

	gate(ss, stage_with("promotion: {analysis: {checks: [{name: err}]}}"), NULL, NOW, &pass, false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_FALSE(d.rollback);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_PROMOTED);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.state->last_analysis);
	CU_ASSERT(d.state->last_analysis->passed);
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_analysis_breach_beyond_limit_blocks(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_analysis_verdict breach = { &fail_result, true, false, 0 };
	struct pr_decision d;

	gate(ss, stage_with("promotion: {analysis: {checks: [{name: err}], interval: 2m}}"), NULL, NOW, &breach, false,
	     NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_FALSE(d.rollback);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_BLOCKED);
	CU_ASSERT_EQUAL(d.state->analysis_failures, 1);
	CU_ASSERT_EQUAL(d.requeue_ms, 2 * MIN); /* analysisInterval */
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_analysis_breach_within_limit_holds_analyzing(void)
{
	struct obj *ss = ss_with(NULL);
	const struct sst_stage *st = stage_with("promotion: {analysis: {checks: [{name: err}], failureLimit: 2}}");
	struct pr_analysis_verdict breach = { &fail_result, true, false, 0 };
	struct sst_promotion_state *ps = state(PR_PHASE_ANALYZING, SST_NO_TIME, SST_NO_TIME);
	struct sst_stage_status prior;
	struct pr_decision d;

	gate(ss, st, NULL, NOW, &breach, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_ANALYZING);
	CU_ASSERT_EQUAL(d.state->analysis_failures, 1);
	pr_decision_release(&d);
	ps->analysis_failures = 2;
	prior = prior_at(REV, ps);
	gate(ss, st, &prior, NOW, &breach, false, NULL, NULL, &d);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_BLOCKED);
	CU_ASSERT_EQUAL(d.state->analysis_failures, 3);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_analysis_rollback_signals_rollback(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_analysis_verdict breach = { &fail_result, true, false, 0 };
	struct pr_decision d;

	gate(ss, stage_with("promotion: {analysis: {checks: [{name: err}], onFailure: Rollback}}"), NULL, NOW, &breach,
	     false, NULL, NULL, &d);
	CU_ASSERT(d.rollback);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_BLOCKED);
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_analysis_dry_run_never_holds(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_analysis_verdict breach = { &fail_result, true, false, 0 };
	struct pr_decision d;

	gate(ss, stage_with("promotion: {analysis: {checks: [{name: err}], dryRun: true}}"), NULL, NOW, &breach, false,
	     NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_FALSE(d.rollback);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_PROMOTED);
	CU_ASSERT_EQUAL(d.state->analysis_failures, 1);
	CU_ASSERT_PTR_NOT_NULL(d.state->last_analysis);
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_analysis_source_error_holds_by_default(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_analysis_verdict src_err = { &fail_result, false, true, 0 };
	struct pr_decision d;

	gate(ss, stage_with("promotion: {analysis: {checks: [{name: err}]}}"), NULL, NOW, &src_err, false, NULL, NULL,
	     &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_BLOCKED);
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_analysis_source_error_allow_promotes(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_analysis_verdict src_err = { &fail_result, false, true, 0 };
	struct pr_decision d;

	gate(ss, stage_with("promotion: {analysis: {checks: [{name: err}], onSourceError: Allow}}"), NULL, NOW, &src_err,
	     false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_EQUAL(d.state->analysis_failures, 0);
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

static void test_analysis_soak_holds_even_when_passing(void)
{
	struct obj *ss = ss_with(NULL);
	struct pr_analysis_verdict pass = { &pass_result, false, false, 0 };
	struct sst_stage_status prior = prior_at(REV, state(PR_PHASE_SOAKING, NOW - MIN, SST_NO_TIME));
	struct pr_decision d;

	gate(ss, stage_with("promotion: {soak: 10m, analysis: {checks: [{name: err}]}}"), &prior, NOW, &pass, false,
	     NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_SOAKING);
	CU_ASSERT_PTR_NOT_NULL(d.state->last_analysis);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

/* ---- TestGatePromotion_FastTrack ----------------------------------------------- */

static const char *fast_track_stage = "promotion: {soak: 10m, fastTrack: {source: {prometheus: {address: "
				      "'http://p', query: q}}, max: '1', after: 2m}}";

static void fast_track_case(int64_t soaking_for, bool ok, bool want_promoted)
{
	struct obj *ss = ss_with(NULL);
	struct sst_stage_status prior = prior_at(REV, state(PR_PHASE_SOAKING, NOW - soaking_for, SST_NO_TIME));
	struct pr_decision d;

	gate(ss, stage_with(fast_track_stage), &prior, NOW, NULL, ok, NULL, NULL, &d);
	CU_ASSERT_EQUAL(d.promoted, want_promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, want_promoted ? PR_PHASE_PROMOTED : PR_PHASE_SOAKING);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_fast_track_healthy_after_minimum(void)
{
	fast_track_case(3 * MIN, true, true);
}

static void test_fast_track_healthy_before_minimum(void)
{
	fast_track_case(1 * MIN, true, false);
	fast_track_case(2 * MIN, true, true); /* `after` reached exactly: !now.Before(since+after) */
}

static void test_fast_track_unhealthy_waits(void)
{
	fast_track_case(3 * MIN, false, false);
}

static void test_fast_track_full_soak_elapsed(void)
{
	fast_track_case(11 * MIN, false, true);
}

/* ---- TestGatePromotion_SoakSurvivesTransientBlock -------------------------------- */

static void test_soak_survives_analysis_block(void)
{
	int64_t t0 = NOW, deadline = NOW + 60 * MIN;
	struct obj *ss = ss_with(NULL);
	struct pr_analysis_verdict pass = { &pass_result, false, false, 0 };
	struct sst_promotion_state *ps = state(PR_PHASE_BLOCKED, t0 + 30 * MIN, deadline);
	struct sst_stage_status prior;
	struct pr_decision d;

	ps->analysis_failures = 4;
	prior = prior_at(REV, ps);
	gate(ss, stage_with("promotion: {soak: 1h, analysis: {checks: [{name: err}], failureLimit: 3}}"), &prior,
	     t0 + 40 * MIN, &pass, false, NULL, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_SOAKING);
	CU_ASSERT_EQUAL(d.state->soak_until_ms, deadline);
	CU_ASSERT_EQUAL(d.state->since_ms, t0);
	CU_ASSERT_EQUAL(d.requeue_ms, 20 * MIN);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

static void test_soak_survives_restart_block_after_deadline(void)
{
	int64_t deadline = NOW + 60 * MIN;
	struct obj *ss = ss_with(NULL);
	struct sst_promotion_state *ps = state(PR_PHASE_BLOCKED, NOW + 30 * MIN, deadline);
	struct sst_stage_status prior;
	struct pr_decision d;

	free(ps->restart_check);
	ps->restart_check = xstrdup("api");
	prior = prior_at(REV, ps);
	gate(ss, stage_with("promotion: {soak: 1h}"), &prior, deadline + 5 * MIN, NULL, false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

/* A breach mid-soak carries the deadline and keeps the Blocked clock. */
static void test_block_carries_soak_until(void)
{
	int64_t deadline = NOW + 60 * MIN;
	struct obj *ss = ss_with(NULL);
	struct sst_promotion_state *ps = state(PR_PHASE_BLOCKED, NOW - 5 * MIN, deadline);
	struct sst_stage_status prior = prior_at(REV, ps);
	struct pr_restart_verdict rv = { (char *)"api", 2, false };
	struct pr_decision d;

	gate(ss, stage_with("promotion: {soak: 1h}"), &prior, NOW, NULL, false, &rv, NULL, &d);
	stage_done();
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_BLOCKED);
	CU_ASSERT_EQUAL(d.state->soak_until_ms, deadline);
	CU_ASSERT_EQUAL(d.state->since_ms, NOW - 5 * MIN);
	pr_decision_release(&d);
	/* Another revision: neither carried nor kept. */
	free(prior.applied_revision);
	prior.applied_revision = xstrdup("sha256:OLD");
	gate(ss, stage_with("promotion: {soak: 1h}"), &prior, NOW, NULL, false, &rv, NULL, &d);
	stage_done();
	CU_ASSERT_EQUAL(d.state->soak_until_ms, SST_NO_TIME);
	CU_ASSERT_EQUAL(d.state->since_ms, NOW);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	obj_free(ss);
}

/* ---- TestGatePromotionRestartGate / EventGate ------------------------------------- */

static void test_restart_breach_blocks(void)
{
	struct obj *ss = ss_with(NULL), *tok = ss_with("staging@tok");
	const struct sst_stage *st = stage_with("promotion: {}");
	struct pr_restart_verdict rv = { (char *)"api", 3, false }, rb = { (char *)"api", 3, true };
	struct pr_decision d;

	/* restart breach blocks promotion */
	gate(ss, st, NULL, NOW, NULL, false, &rv, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_BLOCKED);
	CU_ASSERT_STRING_EQUAL(d.state->restart_check, "api");
	CU_ASSERT_EQUAL(d.state->observed_restarts, 3);
	CU_ASSERT_EQUAL(d.requeue_ms, MIN);
	pr_decision_release(&d);
	/* no breach advances */
	gate(ss, st, NULL, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT(d.promoted);
	pr_decision_release(&d);
	/* manual promote overrides a restart breach */
	gate(tok, st, NULL, NOW, NULL, false, &rv, NULL, &d);
	CU_ASSERT(d.promoted);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_PROMOTED);
	pr_decision_release(&d);
	/* onFailure=Rollback signals a rollback */
	gate(ss, st, NULL, NOW, NULL, false, &rb, NULL, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT(d.rollback);
	CU_ASSERT_STRING_EQUAL(d.state->restart_check, "api");
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
	obj_free(tok);
}

static void test_event_breach_blocks(void)
{
	struct obj *ss = ss_with(NULL);
	const struct sst_stage *st = stage_with("promotion: {}");
	struct pr_event_verdict ev = { (char *)"api", 4, false }, rb = { (char *)"api", 4, true };
	struct pr_decision d;

	gate(ss, st, NULL, NOW, NULL, false, NULL, &ev, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT_FALSE(d.rollback);
	CU_ASSERT_STRING_EQUAL(d.state->phase, PR_PHASE_BLOCKED);
	CU_ASSERT_STRING_EQUAL(d.state->event_check, "api");
	CU_ASSERT_EQUAL(d.state->observed_events, 4);
	pr_decision_release(&d);
	gate(ss, st, NULL, NOW, NULL, false, NULL, &rb, &d);
	CU_ASSERT_FALSE(d.promoted);
	CU_ASSERT(d.rollback);
	pr_decision_release(&d);
	stage_done();
	obj_free(ss);
}

/* ---- TestRollbackAborted ------------------------------------------------------------ */

static bool aborted(const struct obj *ss, const char *stage_extra, const struct sst_stage_status *prior,
		    const char *rev)
{
	bool r = pr_rollback_aborted(ss, stage_with(stage_extra), prior, rev);

	stage_done();
	return r;
}

static void test_rollback_aborted(void)
{
	const char *rollback = "promotion: {analysis: {onFailure: Rollback, checks: [{name: err}]}}";
	const char *hold = "promotion: {analysis: {checks: [{name: err}]}}";
	const char *restart_gate = "promotion: {restartGate: {onFailure: Rollback, checks: [{name: api}]}}";
	const char *per_check = "promotion: {restartGate: {checks: [{name: api, onFailure: Rollback}]}}";
	const char *event_gate = "promotion: {eventGate: {onFailure: Rollback, checks: [{name: api}]}}";
	const char *hold_gate = "promotion: {restartGate: {checks: [{name: api}]}}";
	const char *dry_run = "promotion: {analysis: {onFailure: Rollback, dryRun: true, checks: [{name: err}]}}";
	struct obj *ss = ss_with(NULL), *promote = ss_with("staging@go");
	struct sst_promotion_state *ps = state(PR_PHASE_BLOCKED, SST_NO_TIME, SST_NO_TIME);
	struct sst_stage_status prior;

	free(ps->aborted_revision);
	ps->aborted_revision = xstrdup("sha256:new");
	prior = prior_at("sha256:old", ps);
	CU_ASSERT(aborted(ss, rollback, &prior, "sha256:new"));
	CU_ASSERT_FALSE(aborted(ss, rollback, &prior, "sha256:newer"));
	CU_ASSERT_FALSE(aborted(promote, rollback, &prior, "sha256:new"));
	CU_ASSERT_FALSE(aborted(ss, hold, &prior, "sha256:new"));
	CU_ASSERT(aborted(ss, restart_gate, &prior, "sha256:new"));
	CU_ASSERT(aborted(ss, per_check, &prior, "sha256:new"));
	CU_ASSERT(aborted(ss, event_gate, &prior, "sha256:new"));
	CU_ASSERT_FALSE(aborted(ss, hold_gate, &prior, "sha256:new"));
	CU_ASSERT_FALSE(aborted(promote, restart_gate, &prior, "sha256:new"));
	CU_ASSERT_FALSE(aborted(ss, dry_run, &prior, "sha256:new"));
	/* A handled token is not fresh: the park holds. */
	free(prior.last_handled_promotion);
	prior.last_handled_promotion = xstrdup("go");
	CU_ASSERT(aborted(promote, rollback, &prior, "sha256:new"));
	/* No prior entry, or not Blocked: no park. */
	CU_ASSERT_FALSE(aborted(ss, rollback, NULL, "sha256:new"));
	free(ps->phase);
	ps->phase = xstrdup(PR_PHASE_SOAKING);
	CU_ASSERT_FALSE(aborted(ss, rollback, &prior, "sha256:new"));
	sst_stage_status_release(&prior);
	obj_free(ss);
	obj_free(promote);
}

static void test_abort_capable_and_interval(void)
{
	const struct sst_stage *st;

	CU_ASSERT_FALSE(pr_abort_capable(NULL));
	st = stage_with("promotion: {eventGate: {checks: [{name: a}, {name: b, onFailure: Rollback}]}}");
	CU_ASSERT(pr_abort_capable(&st->promotion));
	CU_ASSERT_EQUAL(pr_analysis_interval(&st->promotion, 90000), 90000);
	stage_done();
	st = stage_with("promotion: {analysis: {checks: [{name: a}], interval: 30s}}");
	CU_ASSERT_FALSE(pr_abort_capable(&st->promotion));
	CU_ASSERT_EQUAL(pr_analysis_interval(&st->promotion, 90000), 30000);
	stage_done();
	st = stage_with("promotion: {analysis: {checks: [{name: a}], interval: 0s}}");
	CU_ASSERT_EQUAL(pr_analysis_interval(&st->promotion, 90000), 90000);
	stage_done();
}

/* ---- TestParsePromote / TestPromoteRequestedPredicate ----------------------------- */

static void test_parse_promote(void)
{
	static const struct {
		const char *in, *stage, *tok;
	} cases[] = {
		{ NULL, "", "" },         { "", "", "" },       { "staging@abc", "staging", "abc" },
		{ "staging@a@b", "staging", "a@b" }, { "noat", "", "" }, { "@tok", "", "" },
		{ "stage@", "", "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct obj *ss = ss_with(cases[i].in);
		struct pr_promote_request r;
		bool ok = pr_parse_promote(ss, &r);

		CU_ASSERT_EQUAL(ok, *cases[i].stage != '\0');
		CU_ASSERT_EQUAL(r.stage_len, strlen(cases[i].stage));
		CU_ASSERT(strncmp(r.stage, cases[i].stage, r.stage_len) == 0);
		CU_ASSERT_STRING_EQUAL(r.token, cases[i].tok);
		obj_free(ss);
	}
	struct obj *ss = ss_with("staging@abc");
	CU_ASSERT_STRING_EQUAL(pr_promote_token_for(ss, "staging"), "abc");
	CU_ASSERT_STRING_EQUAL(pr_promote_token_for(ss, "prod"), "");
	CU_ASSERT_STRING_EQUAL(pr_promote_token_for(ss, "stag"), "");
	obj_free(ss);
}

static void test_promote_requested_predicate(void)
{
	struct obj *a = ss_with("staging@a"), *b = ss_with("staging@b"), *a2 = ss_with("staging@a"),
		   *none = ss_with(NULL), *xy = ss_with("x@y");

	CU_ASSERT(pr_promote_requested_update(a, b));
	CU_ASSERT_FALSE(pr_promote_requested_update(a, a2));
	CU_ASSERT_FALSE(pr_promote_requested_update(NULL, xy));
	CU_ASSERT(pr_promote_requested_update(none, xy));
	obj_free(a);
	obj_free(b);
	obj_free(a2);
	obj_free(none);
	obj_free(xy);
}

/* ---- a scripted world: metric sources, pods, events -------------------------------- */

struct pod {
	const char *uid;
	const char *app; /* label app=<app> */
	int32_t restarts;
	bool terminating;
};

struct event {
	const char *pod_uid, *reason, *type;
	int32_t count;
};

struct world {
	/* query: by prometheus query text "v=<number>" or "err=<text>" */
	int queries;
	int64_t query_at[8];
	struct pod pods[8];
	size_t npods;
	struct event events[8];
	size_t nevents;
	enum ssc_errc pod_err, event_err; /* SSC_OK: no error */
	int pod_lists, event_lists;
};

static int w_query(void *ctx, const struct sst_metric_source *src, int64_t at_ms, double *value,
		   int64_t *duration_ms, struct ssc_err *err)
{
	struct world *w = ctx;

	w->query_at[w->queries++ % 8] = at_ms;
	*duration_ms = 1500;
	if (strncmp(src->query, "err=", 4) == 0) {
		ssc_err_set(err, SSC_ERR, "%s", src->query + 4);
		return -1;
	}
	*value = strtod(src->query + 2, NULL);
	return 0;
}

static bool pod_selected(const struct pod *p, const struct lbl_selector *sel)
{
	struct obj_strmap labels;
	bool m;

	obj_strmap_init(&labels);
	obj_strmap_set(&labels, "app", p->app);
	m = lbl_matches(sel, &labels);
	obj_strmap_release(&labels);
	return m;
}

static int w_pod_restarts(void *ctx, const char *ns, const struct lbl_selector *sel, int64_t at_ms,
			  int32_t *total, struct ssc_err *err)
{
	struct world *w = ctx;

	w->pod_lists++;
	if (w->pod_err != SSC_OK) {
		ssc_err_set(err, w->pod_err, "list pods: pods is forbidden: cannot list pods in \"%s\"", ns);
		return -1;
	}
	*total = 0;
	for (size_t i = 0; i < w->npods; i++)
		if (!w->pods[i].terminating && pod_selected(&w->pods[i], sel))
			*total += w->pods[i].restarts;
	return 0;
}

static int w_warning_events(void *ctx, const char *ns, const struct lbl_selector *sel,
			    const char *const *reasons, size_t nreasons, int64_t at_ms, int32_t *total,
			    struct ssc_err *err)
{
	struct world *w = ctx;

	w->event_lists++;
	if (w->event_err != SSC_OK) {
		ssc_err_set(err, w->event_err, "list events: the server is currently unable to handle the request");
		return -1;
	}
	*total = 0;
	for (size_t e = 0; e < w->nevents; e++) {
		const struct event *ev = &w->events[e];
		bool live = false, listed = false;

		for (size_t i = 0; i < w->npods; i++)
			if (strcmp(w->pods[i].uid, ev->pod_uid) == 0 && !w->pods[i].terminating &&
			    pod_selected(&w->pods[i], sel))
				live = true;
		for (size_t r = 0; r < nreasons; r++)
			if (strcmp(reasons[r], ev->reason) == 0)
				listed = true;
		if (live && listed && strcmp(ev->type, "Warning") == 0)
			*total += ev->count > 1 ? ev->count : 1;
	}
	return 0;
}

static struct ssc_env env_of(struct world *w)
{
	struct ssc_env e;

	memset(&e, 0, sizeof(e));
	e.ctx = w;
	e.query = w_query;
	e.pod_restarts = w_pod_restarts;
	e.warning_events = w_warning_events;
	return e;
}

/* ---- evaluatePromotionAnalysis, evaluateFastTrack ----------------------------------- */

static void test_evaluate_promotion_analysis(void)
{
	struct world w;
	struct ssc_env env;
	struct ssc_clock clk = { NOW, NOW };
	struct pr_analysis_verdict v;
	const struct sst_stage *st;

	memset(&w, 0, sizeof(w));
	env = env_of(&w);
	st = stage_with("promotion: {analysis: {checks: ["
			"{name: ok, source: {prometheus: {address: 'http://p', query: 'v=0.005'}}, threshold: {max: '0.01'}},"
			"{name: high, source: {prometheus: {address: 'http://p', query: 'v=0.5'}}, threshold: {max: '0.01'}},"
			"{name: down, source: {prometheus: {address: 'http://p', query: 'err=connection refused'}}, threshold: {max: '1'}},"
			"{name: bad, source: {prometheus: {address: 'http://p', query: 'v=-0.01'}}, threshold: {min: 'x'}}"
			"]}}");
	pr_evaluate_promotion_analysis(&env, &clk, st, &v);
	CU_ASSERT_EQUAL(w.queries, 4); /* no short-circuit */
	CU_ASSERT_EQUAL(w.query_at[0], NOW);
	CU_ASSERT_EQUAL(w.query_at[3], NOW + 4500);
	CU_ASSERT_EQUAL(clk.now_ms, NOW + 6000);
	CU_ASSERT(v.breached);
	CU_ASSERT(v.source_err);
	CU_ASSERT_EQUAL(v.metric_source_errors, 1);
	CU_ASSERT_EQUAL(v.result->time_ms, NOW);
	CU_ASSERT_FALSE(v.result->passed);
	CU_ASSERT_EQUAL_FATAL(v.result->nchecks, 4);
	CU_ASSERT_STRING_EQUAL(v.result->checks[0].name, "ok");
	CU_ASSERT_STRING_EQUAL(v.result->checks[0].value, "0.005");
	CU_ASSERT(v.result->checks[0].ok);
	CU_ASSERT_STRING_EQUAL(v.result->checks[1].value, "0.5");
	CU_ASSERT_FALSE(v.result->checks[1].ok);
	CU_ASSERT_STRING_EQUAL(v.result->checks[2].value, "");
	CU_ASSERT_STRING_EQUAL(v.result->checks[2].error, "connection refused");
	CU_ASSERT_STRING_EQUAL(v.result->checks[3].value, "-0.01");
	CU_ASSERT_STRING_EQUAL(v.result->checks[3].error,
			       "threshold min \"x\" is not a number: strconv.ParseFloat: parsing \"x\": invalid syntax");
	CU_ASSERT_FALSE(v.result->checks[3].ok);
	pr_analysis_verdict_release(&v);
	CU_ASSERT_PTR_NULL(v.result);
	stage_done();

	/* Every check within its bounds (inclusive): passed, no breach. */
	st = stage_with("promotion: {analysis: {checks: ["
			"{name: a, source: {prometheus: {address: 'http://p', query: 'v=1'}}, threshold: {min: '1', max: '2'}},"
			"{name: b, source: {prometheus: {address: 'http://p', query: 'v=2'}}, threshold: {min: '1', max: '2'}}]}}");
	pr_evaluate_promotion_analysis(&env, &clk, st, &v);
	CU_ASSERT(v.result->passed);
	CU_ASSERT_FALSE(v.breached);
	CU_ASSERT_FALSE(v.source_err);
	CU_ASSERT_EQUAL(v.metric_source_errors, 0);
	CU_ASSERT_STRING_EQUAL(v.result->checks[1].error, "");
	pr_analysis_verdict_release(&v);
	stage_done();
}

/* Values print as Go's FormatFloat(v, 'f', -1, 64). */
static void test_analysis_value_format(void)
{
	static const struct {
		const char *q, *want;
	} cases[] = {
		{ "v=0.1", "0.1" },         { "v=100", "100" },        { "v=1e21", "1000000000000000000000" },
		{ "v=1.5e-7", "0.00000015" }, { "v=-0", "-0" },        { "v=0.30000000000000004", "0.30000000000000004" },
		{ "v=123456.789", "123456.789" }, { "v=1e-10", "0.0000000001" }, { "v=5e-324", NULL },
		{ "v=inf", "+Inf" },        { "v=nan", "NaN" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char extra[512];
		struct world w;
		struct ssc_env env;
		struct ssc_clock clk = { NOW, NOW };
		struct pr_analysis_verdict v;

		memset(&w, 0, sizeof(w));
		env = env_of(&w);
		snprintf(extra, sizeof(extra),
			 "promotion: {analysis: {checks: [{name: c, source: {prometheus: {address: 'http://p', query: '%s'}}, "
			 "threshold: {max: '1'}}]}}",
			 cases[i].q);
		pr_evaluate_promotion_analysis(&env, &clk, stage_with(extra), &v);
		if (cases[i].want) {
			CU_ASSERT_STRING_EQUAL(v.result->checks[0].value, cases[i].want);
		} else {
			/* The smallest denormal: "0." then 323 zeros then "5". */
			char want[400] = "0.";

			memset(want + 2, '0', 323);
			strcpy(want + 325, "5");
			CU_ASSERT_STRING_EQUAL(v.result->checks[0].value, want);
		}
		pr_analysis_verdict_release(&v);
		stage_done();
	}
}

static void test_evaluate_fast_track(void)
{
	static const struct {
		const char *max, *q;
		bool want;
		int queries;
	} cases[] = {
		{ "1", "v=0.5", true, 1 },   { "1", "v=1", true, 1 },  { "1", "v=1.01", false, 1 },
		{ "1", "err=timeout", false, 1 }, { "one", "v=0", false, 0 }, { "1e400", "v=0", false, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char extra[512];
		struct world w;
		struct ssc_env env;
		struct ssc_clock clk = { NOW, NOW };

		memset(&w, 0, sizeof(w));
		env = env_of(&w);
		snprintf(extra, sizeof(extra),
			 "promotion: {soak: 10m, fastTrack: {source: {prometheus: {address: 'http://p', query: '%s'}}, "
			 "max: '%s'}}",
			 cases[i].q, cases[i].max);
		CU_ASSERT_EQUAL(pr_evaluate_fast_track(&env, &clk, stage_with(extra)), cases[i].want);
		CU_ASSERT_EQUAL(w.queries, cases[i].queries);
		CU_ASSERT_EQUAL(clk.now_ms, NOW + 1500 * cases[i].queries);
		CU_ASSERT_EQUAL(pr_fast_track_after(&spec.stages[0].promotion), 0);
		stage_done();
	}
}

/* ---- TestEvaluateRestartChecks --------------------------------------------------------- */

static const char *api_check0 = "promotion: {restartGate: {checks: [{name: api, selector: {matchLabels: {app: api}}}]}}";
static const char *api_check2 =
	"promotion: {restartGate: {checks: [{name: api, selector: {matchLabels: {app: api}}, maxRestarts: 2}]}}";

/* A prior entry promoted with the given per-check baselines (names[i] at restarts[i]). */
static struct sst_stage_status promoted_at(const char *rev, size_t n, const char *const *names,
					   const int32_t *restarts)
{
	struct sst_promotion_state *ps = state(PR_PHASE_PROMOTED, NOW - 60 * MIN, SST_NO_TIME);

	ps->restart_baseline = xcalloc(n ? n : 1, sizeof(*ps->restart_baseline));
	for (size_t i = 0; i < n; i++) {
		ps->restart_baseline[i].name = xstrdup(names[i]);
		ps->restart_baseline[i].restarts = restarts[i];
	}
	ps->nrestart_baseline = n;
	return prior_at(rev, ps);
}

static int restart_eval(struct world *w, const char *stage_extra, const struct sst_stage_status *prior,
			struct pr_restart_observation *obs, struct ssc_err *err)
{
	struct ssc_env env = env_of(w);
	struct ssc_clock clk = { NOW, NOW };
	int rc = pr_evaluate_restart_checks(&env, &clk, "apps", stage_with(stage_extra), prior, obs, err);

	stage_done();
	return rc;
}

static void test_restart_within_tolerance_only_selected(void)
{
	struct world w = { .pods = { { "u1", "api", 0, false }, { "u2", "web", 9, false } }, .npods = 2 };
	const char *api = "api";
	int32_t zero = 0;
	struct sst_stage_status prior = promoted_at("rev-1", 1, &api, &zero);
	struct pr_restart_observation obs;
	struct ssc_err err;

	CU_ASSERT_EQUAL(restart_eval(&w, api_check0, &prior, &obs, &err), 0);
	CU_ASSERT_PTR_NULL(obs.verdict);
	pr_restart_observation_release(&obs);
	/* terminating pods are ignored */
	w.pods[1] = (struct pod){ "u3", "api", 9, true };
	CU_ASSERT_EQUAL(restart_eval(&w, api_check0, &prior, &obs, &err), 0);
	CU_ASSERT_PTR_NULL(obs.verdict);
	pr_restart_observation_release(&obs);
	sst_stage_status_release(&prior);
}

static void test_restart_breach_sums_and_limits(void)
{
	struct world w = { .pods = { { "u1", "api", 2, false }, { "u2", "api", 1, false } }, .npods = 2 };
	const char *api = "api";
	int32_t zero = 0;
	struct sst_stage_status prior = promoted_at("rev-1", 1, &api, &zero);
	struct pr_restart_observation obs;
	struct ssc_err err;

	/* breach sums restarts across selected pods */
	CU_ASSERT_EQUAL(restart_eval(&w, api_check0, &prior, &obs, &err), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(obs.verdict);
	CU_ASSERT_STRING_EQUAL(obs.verdict->check, "api");
	CU_ASSERT_EQUAL(obs.verdict->observed, 3);
	CU_ASSERT_FALSE(obs.verdict->rollback);
	pr_restart_observation_release(&obs);
	/* at the limit is not a breach */
	w.npods = 1;
	CU_ASSERT_EQUAL(restart_eval(&w, api_check2, &prior, &obs, &err), 0);
	CU_ASSERT_PTR_NULL(obs.verdict);
	pr_restart_observation_release(&obs);
	sst_stage_status_release(&prior);
}

static void test_restart_first_breaching_group_wins(void)
{
	struct world w = { .pods = { { "u1", "api", 0, false }, { "u2", "worker", 5, false }, { "u3", "db", 9, false } },
			   .npods = 3 };
	const char *names[] = { "api", "worker", "db" };
	int32_t zeros[] = { 0, 0, 0 };
	struct sst_stage_status prior = promoted_at("rev-1", 3, names, zeros);
	struct pr_restart_observation obs;
	struct ssc_err err;

	CU_ASSERT_EQUAL(restart_eval(&w,
				     "promotion: {restartGate: {checks: ["
				     "{name: api, selector: {matchLabels: {app: api}}},"
				     "{name: worker, selector: {matchLabels: {app: worker}}, maxRestarts: 2},"
				     "{name: db, selector: {matchLabels: {app: db}}}]}}",
				     &prior, &obs, &err),
			0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(obs.verdict);
	CU_ASSERT_STRING_EQUAL(obs.verdict->check, "worker");
	CU_ASSERT_EQUAL(obs.verdict->observed, 5);
	CU_ASSERT_EQUAL(obs.nbaseline, 3);
	CU_ASSERT_EQUAL(obs.ntotals, 3);
	CU_ASSERT_EQUAL(obs.totals[2].restarts, 9);
	pr_restart_observation_release(&obs);
	sst_stage_status_release(&prior);
}

static void test_restart_on_failure_default_and_override(void)
{
	struct world w = { .pods = { { "u1", "api", 1, false } }, .npods = 1 };
	const char *api = "api";
	int32_t zero = 0;
	struct sst_stage_status prior = promoted_at("rev-1", 1, &api, &zero);
	struct pr_restart_observation obs;
	struct ssc_err err;

	CU_ASSERT_EQUAL(restart_eval(&w,
				     "promotion: {restartGate: {onFailure: Rollback, checks: [{name: api, selector: "
				     "{matchLabels: {app: api}}}]}}",
				     &prior, &obs, &err),
			0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(obs.verdict);
	CU_ASSERT(obs.verdict->rollback);
	pr_restart_observation_release(&obs);
	CU_ASSERT_EQUAL(restart_eval(&w,
				     "promotion: {restartGate: {onFailure: Rollback, checks: [{name: api, selector: "
				     "{matchLabels: {app: api}}, onFailure: Hold}]}}",
				     &prior, &obs, &err),
			0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(obs.verdict);
	CU_ASSERT_FALSE(obs.verdict->rollback);
	pr_restart_observation_release(&obs);
	sst_stage_status_release(&prior);
}

static void test_restart_baselines(void)
{
	struct world w = { .pods = { { "u1", "api", 9, false } }, .npods = 1 };
	const char *api = "api";
	int32_t nine = 9, zero = 0, two = 2;
	struct sst_stage_status never = prior_at("", NULL), prior;
	struct pr_restart_observation obs;
	struct ssc_err err;

	/* a never-gated stage baselines instead of charging pod history */
	CU_ASSERT_EQUAL(restart_eval(&w, api_check0, &never, &obs, &err), 0);
	CU_ASSERT_PTR_NULL(obs.verdict);
	CU_ASSERT_EQUAL_FATAL(obs.nbaseline, 1);
	CU_ASSERT_STRING_EQUAL(obs.baseline[0].name, "api");
	CU_ASSERT_EQUAL(obs.baseline[0].restarts, 9);
	pr_restart_observation_release(&obs);
	CU_ASSERT_EQUAL(restart_eval(&w, api_check0, NULL, &obs, &err), 0); /* no entry at all: the same */
	CU_ASSERT_PTR_NULL(obs.verdict);
	pr_restart_observation_release(&obs);
	sst_stage_status_release(&never);

	/* restarts accrued since the baseline breach */
	w.pods[0].restarts = 12;
	prior = promoted_at("rev-1", 1, &api, &nine);
	CU_ASSERT_EQUAL(restart_eval(&w, api_check2, &prior, &obs, &err), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(obs.verdict);
	CU_ASSERT_EQUAL(obs.verdict->observed, 3);
	pr_restart_observation_release(&obs);

	/* a total below the baseline clamps to zero */
	w.pods[0].restarts = 1;
	CU_ASSERT_EQUAL(restart_eval(&w, api_check0, &prior, &obs, &err), 0);
	CU_ASSERT_PTR_NULL(obs.verdict);
	pr_restart_observation_release(&obs);
	sst_stage_status_release(&prior);

	/* the baseline spans a revision change */
	w.pods[0].restarts = 3;
	prior = promoted_at("rev-0", 1, &api, &zero);
	CU_ASSERT_EQUAL(restart_eval(&w, api_check0, &prior, &obs, &err), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(obs.verdict);
	CU_ASSERT_EQUAL(obs.verdict->observed, 3);
	pr_restart_observation_release(&obs);
	sst_stage_status_release(&prior);

	/* live totals are reported alongside the baseline */
	w.pods[0].restarts = 7;
	prior = promoted_at("rev-1", 1, &api, &two);
	CU_ASSERT_EQUAL(restart_eval(&w,
				     "promotion: {restartGate: {checks: [{name: api, selector: {matchLabels: {app: api}}, "
				     "maxRestarts: 99}]}}",
				     &prior, &obs, &err),
			0);
	CU_ASSERT_EQUAL(obs.totals[0].restarts, 7);
	CU_ASSERT_EQUAL(obs.baseline[0].restarts, 2);
	pr_restart_observation_release(&obs);
	sst_stage_status_release(&prior);
}

static void test_prior_restart_baseline_last_wins(void)
{
	const char *names[] = { "api", "db", "api" };
	int32_t counts[] = { 1, 2, 3 };
	struct sst_stage_status prior = promoted_at("rev-1", 3, names, counts);
	int32_t r = -1;

	CU_ASSERT(pr_prior_restart_baseline(&prior, "api", &r));
	CU_ASSERT_EQUAL(r, 3);
	CU_ASSERT_FALSE(pr_prior_restart_baseline(&prior, "web", &r));
	CU_ASSERT_FALSE(pr_prior_restart_baseline(NULL, "api", &r));
	sst_stage_status_release(&prior);
}

static void test_restart_list_error_and_guards(void)
{
	struct world w = { .pods = { { "u1", "api", 4, false } }, .npods = 1, .pod_err = SSC_ERR_FORBIDDEN };
	struct pr_restart_observation obs;
	struct ssc_err err;

	CU_ASSERT_EQUAL(restart_eval(&w, api_check0, NULL, &obs, &err), -1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_FORBIDDEN);
	CU_ASSERT_STRING_EQUAL(err.msg, "restart check \"api\": list pods: pods is forbidden: cannot list pods in \"apps\"");
	CU_ASSERT_PTR_NULL(obs.verdict);
	CU_ASSERT_EQUAL(obs.nbaseline, 0);
	/* An empty or absent selector counts 0 without listing. */
	w.pod_err = SSC_OK;
	w.pod_lists = 0;
	CU_ASSERT_EQUAL(restart_eval(&w, "promotion: {restartGate: {checks: [{name: a}, {name: b, selector: {}}]}}",
				     NULL, &obs, &err),
			0);
	CU_ASSERT_EQUAL(w.pod_lists, 0);
	CU_ASSERT_EQUAL(obs.totals[0].restarts, 0);
	CU_ASSERT_EQUAL(obs.totals[1].restarts, 0);
	pr_restart_observation_release(&obs);
	/* A selector that does not convert is an error, as LabelSelectorAsSelector's. */
	CU_ASSERT_EQUAL(restart_eval(&w,
				     "promotion: {restartGate: {checks: [{name: a, selector: {matchExpressions: "
				     "[{key: app, operator: Foo}]}}]}}",
				     NULL, &obs, &err),
			-1);
	CU_ASSERT_STRING_EQUAL(err.msg, "restart check \"a\": invalid selector: \"Foo\" is not a valid label selector operator");
	CU_ASSERT_EQUAL(w.pod_lists, 0);
	/* No gate: nothing asked, nothing observed. */
	CU_ASSERT_EQUAL(restart_eval(&w, "promotion: {soak: 1m}", NULL, &obs, &err), 0);
	CU_ASSERT_EQUAL(obs.ntotals, 0);
}

/* ---- TestEvaluateEventChecks --------------------------------------------------------- */

static int event_eval(struct world *w, const char *stage_extra, struct pr_event_verdict **v, struct ssc_err *err)
{
	struct ssc_env env = env_of(w);
	struct ssc_clock clk = { NOW, NOW };
	int rc = pr_evaluate_event_checks(&env, &clk, "apps", stage_with(stage_extra), v, err);

	stage_done();
	return rc;
}

static const char *fs_check =
	"promotion: {eventGate: {checks: [{name: api, selector: {matchLabels: {app: api}}, reasons: [FailedScheduling]}]}}";

static void test_event_checks(void)
{
	struct world w = { .pods = { { "uid-api", "api", 0, false }, { "uid-web", "web", 0, false } }, .npods = 2 };
	struct pr_event_verdict *v;
	struct ssc_err err;

	/* matching warning events over the limit breach */
	w.events[0] = (struct event){ "uid-api", "FailedScheduling", "Warning", 3 };
	w.nevents = 1;
	CU_ASSERT_EQUAL(event_eval(&w, fs_check, &v, &err), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_STRING_EQUAL(v->check, "api");
	CU_ASSERT_EQUAL(v->observed, 3);
	pr_event_verdict_free(v);

	/* non-allowed reason, Normal type and other pods are ignored; a stale UID too */
	w.events[0] = (struct event){ "uid-api", "Unhealthy", "Warning", 9 };
	w.events[1] = (struct event){ "uid-api", "FailedScheduling", "Normal", 9 };
	w.events[2] = (struct event){ "uid-web", "FailedScheduling", "Warning", 9 };
	w.events[3] = (struct event){ "uid-OLD", "FailedScheduling", "Warning", 9 };
	w.nevents = 4;
	CU_ASSERT_EQUAL(event_eval(&w, fs_check, &v, &err), 0);
	CU_ASSERT_PTR_NULL(v);

	/* events on a terminating pod are ignored */
	w.pods[1] = (struct pod){ "uid-old", "api", 0, true };
	w.events[0] = (struct event){ "uid-old", "FailedScheduling", "Warning", 9 };
	w.nevents = 1;
	CU_ASSERT_EQUAL(event_eval(&w, fs_check, &v, &err), 0);
	CU_ASSERT_PTR_NULL(v);

	/* at the limit is not a breach; an unset count counts one */
	w.events[0] = (struct event){ "uid-api", "FailedScheduling", "Warning", 1 };
	w.events[1] = (struct event){ "uid-api", "FailedScheduling", "Warning", 0 };
	w.nevents = 2;
	CU_ASSERT_EQUAL(event_eval(&w,
				   "promotion: {eventGate: {checks: [{name: api, selector: {matchLabels: {app: api}}, "
				   "reasons: [FailedScheduling], maxEvents: 2}]}}",
				   &v, &err),
			0);
	CU_ASSERT_PTR_NULL(v);

	/* gate onFailure default and per-check override */
	w.events[0] = (struct event){ "uid-api", "OOMKilling", "Warning", 1 };
	w.nevents = 1;
	CU_ASSERT_EQUAL(event_eval(&w,
				   "promotion: {eventGate: {onFailure: Rollback, checks: [{name: api, selector: "
				   "{matchLabels: {app: api}}, reasons: [OOMKilling]}]}}",
				   &v, &err),
			0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT(v->rollback);
	pr_event_verdict_free(v);
	CU_ASSERT_EQUAL(event_eval(&w,
				   "promotion: {eventGate: {onFailure: Rollback, checks: [{name: api, selector: "
				   "{matchLabels: {app: api}}, reasons: [OOMKilling], onFailure: Hold}]}}",
				   &v, &err),
			0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_FALSE(v->rollback);
	pr_event_verdict_free(v);

	/* a list error names the check and keeps its class */
	w.event_err = SSC_ERR;
	CU_ASSERT_EQUAL(event_eval(&w, fs_check, &v, &err), -1);
	CU_ASSERT_PTR_NULL(v);
	CU_ASSERT_EQUAL(err.code, SSC_ERR);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "event check \"api\": list events: the server is currently unable to handle the request");
	/* the first breach wins: later checks are not read */
	w.event_err = SSC_OK;
	w.event_lists = 0;
	CU_ASSERT_EQUAL(event_eval(&w,
				   "promotion: {eventGate: {checks: ["
				   "{name: first, selector: {matchLabels: {app: api}}, reasons: [OOMKilling]},"
				   "{name: second, selector: {matchLabels: {app: api}}, reasons: [OOMKilling]}]}}",
				   &v, &err),
			0);
	CU_ASSERT_STRING_EQUAL(v->check, "first");
	CU_ASSERT_EQUAL(w.event_lists, 1);
	pr_event_verdict_free(v);
}

/* ---- promotionHoldCondition -------------------------------------------------------------- */

static void hold_case(const struct sst_promotion_state *st, const char *want_reason, const char *want_msg)
{
	struct obj *ss = ss_with(NULL);
	const char *reason;
	char *msg;

	pr_promotion_hold_condition(ss, "staging", st, &reason, &msg);
	CU_ASSERT_STRING_EQUAL(reason, want_reason);
	CU_ASSERT_STRING_EQUAL(msg, want_msg);
	free(msg);
	obj_free(ss);
}

static void test_promotion_hold_condition(void)
{
	struct sst_promotion_state *s;

	hold_case(NULL, "Soaking", "stage \"staging\" is soaking before promotion");
	s = state(PR_PHASE_SOAKING, NOW, NOW + 10 * MIN + 999);
	hold_case(s, "Soaking", "stage \"staging\" is soaking before promotion; soak window closes at 2026-01-01T12:10:00Z");
	free(s->phase);
	s->phase = xstrdup(PR_PHASE_ANALYZING);
	hold_case(s, "Soaking", "stage \"staging\" is running promotion analysis before advancing");
	free(s->phase);
	s->phase = xstrdup(PR_PHASE_AWAITING_MANUAL);
	hold_case(s, "AwaitingPromotion",
		  "stage \"staging\" is healthy and awaiting a manual promotion; run: stagesetctl promote app "
		  "--namespace apps --stage staging");
	free(s->phase);
	s->phase = xstrdup(PR_PHASE_BLOCKED);
	s->analysis_failures = 2;
	hold_case(s, "PromotionBlocked",
		  "stage \"staging\" promotion analysis is failing (2 failure(s)); the rollout will not advance past it");
	free(s->aborted_revision);
	s->aborted_revision = xstrdup("rev-2");
	hold_case(s, "PromotionBlocked",
		  "stage \"staging\" promotion analysis failed (2 failure(s)); rolled back to its last-good revision");
	free(s->event_check);
	s->event_check = xstrdup("oom");
	s->observed_events = 4;
	hold_case(s, "PromotionBlocked",
		  "stage \"staging\" event check \"oom\" observed 4 warning event(s) over its limit; rolled back to its "
		  "last-good revision");
	free(s->restart_check);
	s->restart_check = xstrdup("api");
	s->observed_restarts = 3;
	hold_case(s, "PromotionBlocked",
		  "stage \"staging\" restart check \"api\" observed 3 pod restart(s) over its limit; rolled back to its "
		  "last-good revision");
	free(s->aborted_revision);
	s->aborted_revision = xstrdup("");
	hold_case(s, "PromotionBlocked",
		  "stage \"staging\" restart check \"api\" observed 3 pod restart(s) over its limit; the rollout will not "
		  "advance past it");
	free(s->restart_check);
	s->restart_check = xstrdup("");
	hold_case(s, "PromotionBlocked",
		  "stage \"staging\" event check \"oom\" observed 4 warning event(s) over its limit; the rollout will not "
		  "advance past it");
	/* An unknown or Promoted phase reads as Soaking (the default branch). */
	free(s->phase);
	s->phase = xstrdup(PR_PHASE_PROMOTED);
	s->soak_until_ms = SST_NO_TIME;
	hold_case(s, "Soaking", "stage \"staging\" is soaking before promotion");
	sst_promotion_state_free(s);
}

static void test_small_helpers(void)
{
	struct sst_promotion_state *prior = state(PR_PHASE_SOAKING, NOW - MIN, NOW + MIN);
	struct sst_promotion_state *s = state(PR_PHASE_BLOCKED, NOW, SST_NO_TIME);

	CU_ASSERT_EQUAL(pr_analysis_failure_count(NULL), 0);
	prior->analysis_failures = 5;
	CU_ASSERT_EQUAL(pr_analysis_failure_count(prior), 5);
	CU_ASSERT(pr_past_soak(PR_PHASE_ANALYZING));
	CU_ASSERT(pr_past_soak(PR_PHASE_AWAITING_MANUAL));
	CU_ASSERT(pr_past_soak(PR_PHASE_PROMOTED));
	CU_ASSERT_FALSE(pr_past_soak(PR_PHASE_BLOCKED));
	CU_ASSERT_FALSE(pr_past_soak(PR_PHASE_SOAKING));
	CU_ASSERT_FALSE(pr_past_soak(NULL));
	pr_carry_soak_until(s, prior, false);
	CU_ASSERT_EQUAL(s->soak_until_ms, SST_NO_TIME);
	pr_carry_soak_until(s, prior, true);
	CU_ASSERT_EQUAL(s->soak_until_ms, NOW + MIN);
	CU_ASSERT_EQUAL(pr_phase_since(prior, true, PR_PHASE_SOAKING, NOW), NOW - MIN);
	CU_ASSERT_EQUAL(pr_phase_since(prior, false, PR_PHASE_SOAKING, NOW), NOW);
	CU_ASSERT_EQUAL(pr_phase_since(prior, true, PR_PHASE_BLOCKED, NOW), NOW);
	CU_ASSERT_EQUAL(pr_phase_since(NULL, true, PR_PHASE_BLOCKED, NOW), NOW);
	prior->since_ms = SST_NO_TIME;
	CU_ASSERT_EQUAL(pr_phase_since(prior, true, PR_PHASE_SOAKING, NOW), NOW);
	sst_promotion_state_free(prior);
	sst_promotion_state_free(s);
}

/* The soak requeue is clamped to [5 s, 1 h] (requeueForWindow). */
static void test_soak_requeue_clamped(void)
{
	struct obj *ss = ss_with(NULL);
	struct sst_stage_status prior = prior_at(REV, state(PR_PHASE_SOAKING, NOW - 10 * MIN + 2000, SST_NO_TIME));
	struct pr_decision d;

	gate(ss, stage_with("promotion: {soak: 10m}"), &prior, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_EQUAL(d.requeue_ms, 5000);
	pr_decision_release(&d);
	stage_done();
	gate(ss, stage_with("promotion: {soak: 3h}"), NULL, NOW, NULL, false, NULL, NULL, &d);
	CU_ASSERT_EQUAL(d.requeue_ms, 60 * MIN);
	pr_decision_release(&d);
	sst_stage_status_release(&prior);
	stage_done();
	obj_free(ss);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "gatePromotion: no promotion gate advances", test_no_promotion_gate_advances },
		{ "gatePromotion: soak holds on first sight", test_soak_holds_on_first_sight },
		{ "gatePromotion: soak continues from prior since (same revision)", test_soak_continues_from_prior_since },
		{ "gatePromotion: soak elapsed promotes", test_soak_elapsed_promotes },
		{ "gatePromotion: new revision restarts the soak", test_new_revision_restarts_the_soak },
		{ "gatePromotion: already promoted at this revision short-circuits", test_already_promoted_short_circuits },
		{ "gatePromotion: manual gate awaits without a token", test_manual_gate_awaits_without_a_token },
		{ "gatePromotion: manual gate promotes on a fresh token", test_manual_gate_promotes_on_a_fresh_token },
		{ "gatePromotion: an already-handled token does not re-promote", test_already_handled_token_does_not_repromote },
		{ "gatePromotion: a token for another stage is ignored", test_token_for_another_stage_is_ignored },
		{ "gatePromotion: promote breaks a soak early (break-glass)", test_promote_breaks_a_soak_early },
		{ "gatePromotion: soak then manual", test_soak_then_manual },
		{ "gatePromotion: soak requeue clamped to [5s, 1h]", test_soak_requeue_clamped },
		{ "gatePromotion_Analysis: passing analysis promotes", test_analysis_passing_promotes },
		{ "gatePromotion_Analysis: breach beyond failureLimit blocks", test_analysis_breach_beyond_limit_blocks },
		{ "gatePromotion_Analysis: breach within failureLimit holds Analyzing and counts up",
		  test_analysis_breach_within_limit_holds_analyzing },
		{ "gatePromotion_Analysis: onFailure=Rollback signals rollback", test_analysis_rollback_signals_rollback },
		{ "gatePromotion_Analysis: dryRun never holds", test_analysis_dry_run_never_holds },
		{ "gatePromotion_Analysis: source error holds by default", test_analysis_source_error_holds_by_default },
		{ "gatePromotion_Analysis: source error with onSourceError=Allow promotes",
		  test_analysis_source_error_allow_promotes },
		{ "gatePromotion_Analysis: soak holds even when analysis already passes",
		  test_analysis_soak_holds_even_when_passing },
		{ "gatePromotion_FastTrack: healthy after minimum soak promotes early", test_fast_track_healthy_after_minimum },
		{ "gatePromotion_FastTrack: healthy but before minimum soak keeps soaking",
		  test_fast_track_healthy_before_minimum },
		{ "gatePromotion_FastTrack: unhealthy metric waits out the full soak", test_fast_track_unhealthy_waits },
		{ "gatePromotion_FastTrack: full soak elapsed promotes regardless", test_fast_track_full_soak_elapsed },
		{ "gatePromotion_SoakSurvivesTransientBlock: analysis breach mid-soak resumes the soak",
		  test_soak_survives_analysis_block },
		{ "gatePromotion_SoakSurvivesTransientBlock: restart breach recovered after deadline promotes",
		  test_soak_survives_restart_block_after_deadline },
		{ "gatePromotion: a block carries soakUntil and its since at the same revision", test_block_carries_soak_until },
		{ "gatePromotionRestartGate", test_restart_breach_blocks },
		{ "gatePromotionEventGate", test_event_breach_blocks },
		{ "rollbackAborted", test_rollback_aborted },
		{ "abortCapable, analysisInterval", test_abort_capable_and_interval },
		{ "parsePromote, promoteTokenFor", test_parse_promote },
		{ "promoteRequestedPredicate", test_promote_requested_predicate },
		{ "evaluatePromotionAnalysis: every check queried, values, errors, malformed threshold",
		  test_evaluate_promotion_analysis },
		{ "evaluatePromotionAnalysis: values as FormatFloat(v, 'f', -1, 64)", test_analysis_value_format },
		{ "evaluateFastTrack", test_evaluate_fast_track },
		{ "evaluateRestartChecks: within tolerance, only selected and live pods count",
		  test_restart_within_tolerance_only_selected },
		{ "evaluateRestartChecks: breach sums restarts; at the limit is not a breach", test_restart_breach_sums_and_limits },
		{ "evaluateRestartChecks: first breaching group wins across multiple checks",
		  test_restart_first_breaching_group_wins },
		{ "evaluateRestartChecks: gate onFailure default and per-check override",
		  test_restart_on_failure_default_and_override },
		{ "evaluateRestartChecks: baselines (never gated, accrued, clamped, across revisions, totals)",
		  test_restart_baselines },
		{ "priorRestartBaseline: the last entry of a name wins", test_prior_restart_baseline_last_wins },
		{ "evaluateRestartChecks: list error, empty and invalid selectors", test_restart_list_error_and_guards },
		{ "evaluateEventChecks", test_event_checks },
		{ "promotionHoldCondition: every message", test_promotion_hold_condition },
		{ "analysisFailureCount, pastSoak, carrySoakUntil, phaseSince", test_small_helpers },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("stageset_promotion", tests);
}
