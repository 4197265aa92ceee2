/* Unit tests of sim/plan/expect: parsing spec.expect, evaluating it, object matching. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/plan/expect.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* A small Magos world: Project shop, Rollout shop with steps dev and prod. */
static const char world[] =
	"---\n"
	"apiVersion: magosproject.io/v1alpha1\n"
	"kind: Project\n"
	"metadata: {name: shop, namespace: default}\n"
	"spec: {description: test}\n"
	"---\n"
	"apiVersion: magosproject.io/v1alpha1\n"
	"kind: Rollout\n"
	"metadata: {name: shop, namespace: default}\n"
	"spec:\n"
	"  projectRef: shop\n"
	"  strategy:\n"
	"    steps:\n"
	"      - {name: dev, selector: {matchLabels: {env: dev}}}\n"
	"      - {name: prod, selector: {matchLabels: {env: prod}}}\n"
	"---\n"
	"apiVersion: magosproject.io/v1alpha1\n"
	"kind: Workspace\n"
	"metadata:\n"
	"  name: shop-dev\n"
	"  namespace: default\n"
	"  labels: {env: dev}\n"
	"  annotations: {magosproject.io/reconcile-interval: \"12h\"}\n"
	"spec:\n"
	"  projectRef: {name: shop}\n"
	"  source: {repoURL: https://git.example.com/shop.git, targetRevision: main, path: dev}\n"
	"  terraform: {version: \"1.14.8\"}\n"
	"---\n"
	"apiVersion: magosproject.io/v1alpha1\n"
	"kind: Workspace\n"
	"metadata:\n"
	"  name: shop-prod\n"
	"  namespace: default\n"
	"  labels: {env: prod}\n"
	"  annotations: {magosproject.io/reconcile-interval: \"12h\"}\n"
	"spec:\n"
	"  projectRef: {name: shop}\n"
	"  source: {repoURL: https://git.example.com/shop.git, targetRevision: main, path: prod}\n"
	"  terraform: {version: \"1.14.8\"}\n";

/* Test data is never written through these: the structs just have no const. */
#define S(x) ((char *)(x))

static struct val_mark at(uint32_t line, uint32_t col)
{
	struct val_mark m = { line, col };

	return m;
}
static const char path[] = "s.yaml"; /* the scenario file of load(), by its name in diagnostics */

/*
 * load() - writes a Scenario whose spec.expect is @expect (indented under
 * `  expect:`, starting at line 8) plus the world to a file and loads it.
 * Line numbers in the tests: the first line of @expect is line 8.
 */
static int load(const char *expect, struct scenario *s, struct exp_set *e, struct diag *d)
{
	char *text = xasprintf("apiVersion: magos-sim/v1alpha1\n" /* 1 */
			       "kind: Scenario\n"                /* 2 */
			       "metadata: {name: t}\n"           /* 3 */
			       "spec:\n"                         /* 4 */
			       "  seed: 3\n"                     /* 5 */
			       "  horizon: 2h\n"                 /* 6 */
			       "  expect:\n"                     /* 7 */
			       "%s%s",
			       expect, world);
	const char *paths[1] = { path };
	int rc;

	fx_tmp_enter("test_expect");
	fx_put(path, text);
	free(text);
	diag_init(d);
	scn_init(s);
	rc = scn_load(paths, 1, s, d);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc != 0)
		diag_print(d, stderr, false);
	rc = exp_parse(s, e, d);
	fx_tmp_leave();
	return rc;
}

static void cleanup(struct scenario *s, struct exp_set *e, struct diag *d)
{
	exp_set_release(e);
	scn_release(s);
	diag_release(d);
}

#define ASSERT_DIAG(d, i, want)                                                        \
	do {                                                                           \
		char *l_ = (d)->n > (i) ? diag_format_item((d), (i)) : NULL;           \
		CU_ASSERT_PTR_NOT_NULL(l_);                                            \
		if (l_) {                                                              \
			CU_ASSERT_STRING_EQUAL(l_, (want));                            \
			if (strcmp(l_, (want)))                                        \
				fprintf(stderr, "\n got: %s\nwant: %s\n", l_, (want)); \
		}                                                                      \
		free(l_);                                                              \
	} while (0)

static void test_parse_all(void)
{
	struct scenario s;
	struct exp_set e;
	struct diag d;
	int rc = load("    trials: 20\n"
		      "    completes: true\n"
		      "    timeToComplete: {p95: {max: 6h}, mean: {min: 1m, max: 2h}}\n"
		      "    haltProbability: {max: 0.05}\n"
		      "    completionProbability: {min: 99%}\n"
		      "    blastRadius: {max: 10%, p95: {max: 3}}\n"
		      "    haltsBefore: {step: prod}\n"
		      "    detectionLatency: {p95: {max: 15m}, max: 2h}\n"
		      "    # exposure needs a FleetRollout: test_parse_exposure_magos\n"
		      "    peakJobs: {max: 4}\n"
		      "    assert:\n"
		      "      - at: 30m\n"
		      "        object: {kind: Rollout, metadata: {name: shop}}\n"
		      "    error:\n"
		      "      - object: {kind: Workspace, status: {phase: Failed}}\n",
		      &s, &e, &d);

	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(d.nerrors, 0);
	CU_ASSERT_EQUAL(e.trials, 20);
	CU_ASSERT_EQUAL_FATAL(e.n, 13);
	CU_ASSERT_EQUAL(e.items[0].kind, EXP_COMPLETES);
	CU_ASSERT(e.items[0].want);
	CU_ASSERT_STRING_EQUAL(e.items[1].name, "timeToComplete.p95");
	CU_ASSERT_EQUAL(e.items[1].stat, EXP_P95);
	CU_ASSERT(e.items[1].has_max && !e.items[1].has_min);
	CU_ASSERT_DOUBLE_EQUAL(e.items[1].max, 6 * 3600000.0, 0);
	CU_ASSERT_EQUAL(e.items[1].mark.line, 10);
	CU_ASSERT_EQUAL(e.items[1].mark.col, 22);
	CU_ASSERT_STRING_EQUAL(e.items[2].name, "timeToComplete.mean");
	CU_ASSERT_DOUBLE_EQUAL(e.items[2].min, 60000.0, 0);
	CU_ASSERT_DOUBLE_EQUAL(e.items[2].max, 7200000.0, 0);
	CU_ASSERT_EQUAL(e.items[3].kind, EXP_HALT_PROB);
	CU_ASSERT_DOUBLE_EQUAL(e.items[3].max, 0.05, 1e-12);
	CU_ASSERT_EQUAL(e.items[4].kind, EXP_COMPLETE_PROB);
	CU_ASSERT_DOUBLE_EQUAL(e.items[4].min, 0.99, 1e-12);
	/* blastRadius: in file order, the every-trial bound (at `max`) before the p95 map. */
	CU_ASSERT_STRING_EQUAL(e.items[5].name, "blastRadius");
	CU_ASSERT_EQUAL(e.items[5].stat, EXP_EVERY);
	CU_ASSERT_EQUAL(e.items[5].unit, EXP_U_RATIO);
	CU_ASSERT_DOUBLE_EQUAL(e.items[5].max, 0.1, 1e-12);
	CU_ASSERT_STRING_EQUAL(e.items[6].name, "blastRadius.p95");
	CU_ASSERT_EQUAL(e.items[6].unit, EXP_U_COUNT);
	CU_ASSERT_DOUBLE_EQUAL(e.items[6].max, 3, 0);
	CU_ASSERT_EQUAL(e.items[7].kind, EXP_HALTS_BEFORE);
	CU_ASSERT_STRING_EQUAL(e.items[7].phase, "prod");
	CU_ASSERT(!e.items[7].wave);
	CU_ASSERT_EQUAL(e.items[8].kind, EXP_DETECTION);
	CU_ASSERT_STRING_EQUAL(e.items[8].name, "detectionLatency.p95");
	CU_ASSERT_EQUAL(e.items[9].kind, EXP_DETECTION);
	CU_ASSERT_EQUAL(e.items[9].stat, EXP_EVERY);
	CU_ASSERT_DOUBLE_EQUAL(e.items[9].max, 7200000.0, 0);
	CU_ASSERT_EQUAL(e.items[10].kind, EXP_PEAK_JOBS);
	CU_ASSERT_EQUAL(e.items[11].kind, EXP_ASSERT);
	CU_ASSERT(e.items[11].has_at);
	CU_ASSERT_EQUAL(e.items[11].at_ms, 1800000);
	CU_ASSERT_STRING_EQUAL(e.items[11].name, "assert[0]");
	CU_ASSERT_EQUAL(e.items[11].mark.line, 19);
	CU_ASSERT_EQUAL(e.items[12].kind, EXP_ERROR);
	CU_ASSERT(!e.items[12].has_at);
	cleanup(&s, &e, &d);
}

static void test_parse_no_expect(void)
{
	struct scenario s;
	struct exp_set e;
	struct diag d;

	CU_ASSERT_EQUAL(load("    {}\n", &s, &e, &d), 0);
	CU_ASSERT_EQUAL(e.n, 0);
	CU_ASSERT_EQUAL(e.trials, 1);
	cleanup(&s, &e, &d);
}

static void test_parse_errors(void)
{
	struct scenario s;
	struct exp_set e;
	struct diag d;
	int rc = load("    timeToCompleat: {p95: {max: 6h}}\n"           /* 8 */
		      "    haltProbability: {max: 1.5}\n"                /* 9 */
		      "    blastRadius: {p95: {max: 120%}}\n"            /* 10 */
		      "    peakJobs: {max: -1}\n"                        /* 11 */
		      "    detectionLatency: {p95: {max: 15mm}}\n"       /* 12 */
		      "    haltsBefore: {step: prd}\n"                   /* 13 */
		      "    timeToComplete: {p96: {max: 1h}}\n"           /* 14 */
		      "    trials: 0\n",                                 /* 15 */
		      &s, &e, &d);

	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_EQUAL(d.nerrors, 8);
	ASSERT_DIAG(&d, 0, "s.yaml:8:5: error: spec.expect: unknown metric \"timeToCompleat\"");
	ASSERT_DIAG(&d, 1, "s.yaml:8:5: note: did you mean \"timeToComplete\"?");
	ASSERT_DIAG(&d, 2,
		    "s.yaml:8:5: note: accepted metrics: trials, findings, completes, timeToComplete, "
		    "haltProbability, completionProbability, blastRadius, haltsBefore, "
		    "detectionLatency, exposure, peakJobs, assert, error");
	ASSERT_DIAG(&d, 3,
		    "s.yaml:9:28: error: spec.expect.haltProbability.max: Invalid value: 1.5: a "
		    "probability is between 0 and 1 (or 0% and 100%)");
	ASSERT_DIAG(&d, 4,
		    "s.yaml:10:30: error: spec.expect.blastRadius.p95.max: Invalid value: \"120%\": "
		    "a share is between 0% and 100%");
	ASSERT_DIAG(&d, 5,
		    "s.yaml:11:21: error: spec.expect.peakJobs.max: Invalid value: -1: a limit "
		    "cannot be negative");
	ASSERT_DIAG(&d, 6,
		    "s.yaml:12:35: error: spec.expect.detectionLatency.p95.max: Invalid value: "
		    "\"15mm\": time: unknown unit \"mm\" in duration \"15mm\"");
	ASSERT_DIAG(&d, 7, "s.yaml:13:25: error: spec.expect.haltsBefore.step: no step of a Rollout named \"prd\"");
	ASSERT_DIAG(&d, 8, "s.yaml:13:25: note: known steps: dev, prod");
	ASSERT_DIAG(&d, 9, "s.yaml:14:22: error: unknown field \"spec.expect.timeToComplete.p96\"");
	ASSERT_DIAG(&d, 11,
		    "s.yaml:15:13: error: spec.expect.trials: Invalid value: 0: expected a whole "
		    "number from 1 to 100000");
	CU_ASSERT_EQUAL(e.n, 0);
	cleanup(&s, &e, &d);
}

static void test_parse_wave_and_objects(void)
{
	struct scenario s;
	struct exp_set e;
	struct diag d;
	int rc = load("    haltsBefore: {wave: broad}\n"                       /* 8 */
		      "    completes: \"yes\"\n"                               /* 9 */
		      "    assert:\n"                                          /* 10 */
		      "      - at: soon\n"                                     /* 11 */
		      "        object: {kind: Rollout}\n"                      /* 12 */
		      "      - object: {metadata: {name: x}}\n"                /* 13 */
		      "      - when: 1h\n",                                    /* 14 */
		      &s, &e, &d);

	CU_ASSERT_EQUAL(rc, -1);
	ASSERT_DIAG(&d, 0, "s.yaml:8:25: error: spec.expect.haltsBefore.wave: no wave of a FleetRollout named \"broad\"");
	ASSERT_DIAG(&d, 1, "s.yaml:8:25: note: the scenario has no FleetRollout with named waves");
	ASSERT_DIAG(&d, 2, "s.yaml:9:16: error: spec.expect.completes: Invalid value: \"yes\": expected true or false");
	CU_ASSERT_EQUAL(d.items[3].mark.line, 11);
	CU_ASSERT_EQUAL(d.items[3].mark.col, 13);
	ASSERT_DIAG(&d, 4, "s.yaml:13:17: error: spec.expect.assert[1].object.kind: Required value: the kind of the object to look for");
	ASSERT_DIAG(&d, 5, "s.yaml:14:9: error: unknown field \"spec.expect.assert[2].when\"");
	CU_ASSERT_EQUAL(e.n, 0);
	cleanup(&s, &e, &d);
}

/* Exposure is target-time on a FleetRollout's approved version: a Magos-only scenario has none. */
static void test_parse_exposure_magos(void)
{
	struct scenario s;
	struct exp_set e;
	struct diag d;
	int rc = load("    exposure: {max: 2h}\n"   /* 8 */
		      "    completes: true\n",      /* 9 */
		      &s, &e, &d);

	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_EQUAL(d.nerrors, 1);
	ASSERT_DIAG(&d, 0,
		    "s.yaml:8:5: error: spec.expect.exposure: does not apply: exposure is measured for "
		    "FleetRollouts and this scenario has none");
	ASSERT_DIAG(&d, 1, "s.yaml:8:5: note: for a Magos Rollout, bound blastRadius or timeToComplete instead");
	CU_ASSERT_EQUAL_FATAL(e.n, 1);
	CU_ASSERT_EQUAL(e.items[0].kind, EXP_COMPLETES);
	cleanup(&s, &e, &d);
}

/* ---------------------------------------------------------------- evaluation */

static void stats_init(struct plan_stats *st, size_t n)
{
	memset(st, 0, sizeof(*st));
	st->ntrials = n;
	st->horizon_ms = 24 * 3600000LL;
	st->complete.n = st->halt.n = n;
}

static struct exp_item item(enum exp_kind k, const char *name, enum exp_stat stat,
			    enum exp_unit u, bool has_min, double min, bool has_max, double max)
{
	struct exp_item it;

	memset(&it, 0, sizeof(it));
	it.kind = k;
	it.name = (char *)name;
	it.stat = stat;
	it.unit = u;
	it.has_min = has_min;
	it.min = min;
	it.has_max = has_max;
	it.max = max;
	it.mark.line = 12;
	it.mark.col = 5;
	return it;
}

static void test_eval_ttc_and_probs(void)
{
	struct plan_stats st;
	struct exp_item items[6];
	struct exp_set e = { .file = "ci.yaml", .trials = 40, .items = items, .n = 6 };
	struct exp_scenario_report r;

	stats_init(&st, 40);
	st.ttc.n = 40;
	st.ttc.p[PLAN_P95] = (7 * 3600 + 12 * 60) * 1000.0; /* 7h12m */
	st.ttc.p[PLAN_P50] = 3600000.0;
	st.ttc.p_censored[PLAN_P99] = true;
	st.ttc.ncensored = 1;
	st.ttc.max = 9 * 3600000.0;
	st.halt.k = 3;
	st.halt.p = 3 / 40.0;
	st.complete.k = 39;
	st.complete.p = 39 / 40.0;
	items[0] = item(EXP_TTC, "timeToComplete.p95", EXP_P95, EXP_U_MS, false, 0, true, 6 * 3600000.0);
	items[1] = item(EXP_TTC, "timeToComplete.p50", EXP_P50, EXP_U_MS, false, 0, true, 6 * 3600000.0);
	items[2] = item(EXP_TTC, "timeToComplete.p99", EXP_P99, EXP_U_MS, false, 0, true, 48 * 3600000.0);
	items[3] = item(EXP_HALT_PROB, "haltProbability", EXP_EVERY, EXP_U_RATIO, false, 0, true, 0.05);
	items[4] = item(EXP_COMPLETE_PROB, "completionProbability", EXP_EVERY, EXP_U_RATIO, true, 0.9, false, 0);
	items[5] = item(EXP_COMPLETES, "completes", EXP_EVERY, EXP_U_MS, false, 0, false, 0);
	items[5].want = true;

	exp_report_init(&r, "ci.yaml");
	exp_evaluate(&e, &st, NULL, 0, NULL, &r);
	CU_ASSERT_EQUAL_FATAL(r.n, 7);
	CU_ASSERT_EQUAL(r.nfailed, 4);
	CU_ASSERT_EQUAL(r.items[0].outcome, EXP_FAILED);
	CU_ASSERT_STRING_EQUAL(r.items[0].message,
			       "p95 time to complete 7h12m0s exceeds the limit 6h0m0s (p95 over 40 trials)");
	CU_ASSERT_STRING_EQUAL(r.items[0].measured, "7h12m0s");
	CU_ASSERT_STRING_EQUAL(r.items[0].limit, "<= 6h0m0s");
	CU_ASSERT_STRING_EQUAL(r.items[0].file, "ci.yaml");
	CU_ASSERT_EQUAL(r.items[0].mark.line, 12);
	CU_ASSERT_EQUAL(r.items[1].outcome, EXP_PASSED);
	CU_ASSERT_STRING_EQUAL(r.items[1].message,
			       "p50 time to complete 1h0m0s is within the limit <= 6h0m0s (p50 over 40 trials)");
	/* A censored percentile is beyond the horizon: it fails any max. */
	CU_ASSERT_EQUAL(r.items[2].outcome, EXP_FAILED);
	CU_ASSERT_STRING_EQUAL(r.items[2].measured, "> 24h0m0s (horizon)");
	/* 40 trials are enough for a p95, not for a p99: a warning beside it. */
	CU_ASSERT_EQUAL(r.items[3].outcome, EXP_WARNED);
	CU_ASSERT_STRING_EQUAL(r.items[3].id, "timeToComplete.p99");
	CU_ASSERT_STRING_EQUAL(r.items[3].message,
			       "p99 time to complete over 40 trials is near the largest of them, not a p99: "
			       "a p99 needs at least 100 trials to mean anything; set spec.expect.trials "
			       "or give check -n 100 or more");
	CU_ASSERT_EQUAL(r.items[4].outcome, EXP_FAILED);
	CU_ASSERT_STRING_EQUAL(r.items[4].message,
			       "halt probability 7.5% exceeds the limit 5% (3 of 40 trials)");
	CU_ASSERT_EQUAL(r.items[5].outcome, EXP_PASSED);
	CU_ASSERT_EQUAL(r.items[6].outcome, EXP_FAILED);
	CU_ASSERT_STRING_EQUAL(r.items[6].message,
			       "expected every trial to complete, but 1 of 40 did not (by the horizon)");
	CU_ASSERT(r.fig.have);
	CU_ASSERT_EQUAL(r.fig.halted, 3);
	exp_report_release(&r);
}

/* A percentile over one trial says so, and a warning says it needs more. */
static void test_eval_percentile_one_trial(void)
{
	struct plan_stats st;
	struct exp_item items[1];
	struct exp_set e = { .file = "ci.yaml", .trials = 1, .items = items, .n = 1 };
	struct exp_scenario_report r;

	stats_init(&st, 1);
	st.ttc.n = 1;
	for (int k = 0; k < 4; k++)
		st.ttc.p[k] = 505889.0; /* 8m25.889s */
	st.ttc.min = st.ttc.max = st.ttc.mean = 505889.0;
	st.complete.k = st.complete.n = 1;
	items[0] = item(EXP_TTC, "timeToComplete.p95", EXP_P95, EXP_U_MS, false, 0, true, 1800000.0);

	exp_report_init(&r, "ci.yaml");
	exp_evaluate(&e, &st, NULL, 0, NULL, &r);
	CU_ASSERT_EQUAL_FATAL(r.n, 2);
	CU_ASSERT_EQUAL(r.nfailed, 0);
	CU_ASSERT_EQUAL(r.items[0].outcome, EXP_PASSED);
	CU_ASSERT_STRING_EQUAL(r.items[0].message,
			       "p95 time to complete 8m25.889s is within the limit <= 30m0s (p95 over 1 trial)");
	CU_ASSERT_EQUAL(r.items[1].outcome, EXP_WARNED);
	CU_ASSERT_STRING_EQUAL(r.items[1].message,
			       "p95 time to complete over 1 trial is that trial's value, not a p95: a p95 "
			       "needs at least 20 trials to mean anything; set spec.expect.trials or give "
			       "check -n 20 or more");
	CU_ASSERT_EQUAL(r.items[1].mark.line, 12);
	exp_report_release(&r);
}

static void test_eval_blast_and_bounds(void)
{
	struct plan_stats st;
	struct exp_item items[4];
	struct exp_set e = { .file = "ci.yaml", .trials = 1, .items = items, .n = 4 };
	struct exp_scenario_report r;

	stats_init(&st, 1);
	st.nbound = 1;
	st.blast_count.n = 1;
	st.blast_count.max = st.blast_count.min = 2;
	st.blast_share.n = 1;
	st.blast_share.max = st.blast_share.min = 2 / 3.0;
	items[0] = item(EXP_BLAST, "blastRadius", EXP_EVERY, EXP_U_COUNT, false, 0, true, 1);
	items[1] = item(EXP_BLAST, "blastRadius", EXP_EVERY, EXP_U_RATIO, false, 0, true, 0.7);
	items[2] = item(EXP_DETECTION, "detectionLatency.p95", EXP_P95, EXP_U_MS, false, 0, true, 900000);
	items[3] = item(EXP_PEAK_JOBS, "peakJobs", EXP_EVERY, EXP_U_COUNT, true, 1, false, 0);

	exp_report_init(&r, "ci.yaml");
	exp_evaluate(&e, &st, NULL, 0, NULL, &r);
	CU_ASSERT_EQUAL_FATAL(r.n, 5);
	CU_ASSERT_STRING_EQUAL(r.items[0].id, "bounds");
	CU_ASSERT_EQUAL(r.items[0].outcome, EXP_FAILED);
	CU_ASSERT_STRING_EQUAL(r.items[1].message, "blast radius 2 exceeds the limit 1");
	CU_ASSERT_EQUAL(r.items[2].outcome, EXP_PASSED);
	CU_ASSERT_STRING_EQUAL(r.items[2].measured, "66.6667%");
	/* No trial detected anything: nothing to measure is a failure, not a pass. */
	CU_ASSERT_EQUAL(r.items[3].outcome, EXP_FAILED);
	CU_ASSERT_STRING_EQUAL(r.items[3].message,
			       "p95 detection latency: no trial has a value (nothing to measure)");
	CU_ASSERT_EQUAL(r.items[4].outcome, EXP_FAILED);
	CU_ASSERT_EQUAL(r.nfailed, 4);
	exp_report_release(&r);
}

static void test_eval_halts_before(void)
{
	struct plan_stats st;
	struct exp_item items[2];
	struct exp_set e = { .file = "f.yaml", .trials = 2, .items = items, .n = 2 };
	struct exp_scenario_report r;
	struct trial_phase ph0[2] = { { S("FleetRollout /m"), S("wave canary"), 0, 600000 },
				      { S("FleetRollout /m"), S("wave broad"), 600000, -1 } };
	struct trial_phase ph1[2] = { { S("FleetRollout /m"), S("wave canary"), 0, -1 },
				      { S("FleetRollout /m"), S("wave broad"), -1, -1 } };
	struct trial_row rows[2];

	memset(rows, 0, sizeof(rows));
	rows[0].index = 0;
	rows[0].halted = true;
	rows[0].halt_ms = 900000;
	rows[0].halt_where = S("wave broad");
	rows[0].phases = ph0;
	rows[0].nphases = 2;
	rows[1].index = 1;
	rows[1].halted = true;
	rows[1].halt_ms = 300000;
	rows[1].phases = ph1;
	rows[1].nphases = 2;
	stats_init(&st, 2);
	items[0] = item(EXP_HALTS_BEFORE, "haltsBefore", EXP_EVERY, EXP_U_MS, false, 0, false, 0);
	items[0].phase = S("broad");
	items[0].wave = true;
	items[1] = items[0];
	items[1].phase = S("rest"); /* never opened in either trial */

	exp_report_init(&r, "f.yaml");
	exp_evaluate(&e, &st, rows, 2, NULL, &r);
	CU_ASSERT_EQUAL_FATAL(r.n, 2);
	CU_ASSERT_EQUAL(r.items[0].outcome, EXP_FAILED);
	CU_ASSERT_STRING_EQUAL(r.items[0].message,
			       "trial 0 halted at 15m0s in wave broad, after wave broad opened at "
			       "10m0s (1 of 2 halted trials did)");
	CU_ASSERT_EQUAL(r.items[1].outcome, EXP_PASSED);
	CU_ASSERT_STRING_EQUAL(r.items[1].message, "2 of 2 trials halted, each before wave rest opened");
	exp_report_release(&r);
}

/* ---------------------------------------------------------------- matching */

static void test_subset(void)
{
	struct val *a = fx_yaml("{a: 1, b: {c: [1, 2, {d: x, e: y}], f: true}, g: 2.0}");
	struct val *p1 = fx_yaml("{b: {c: [1, 2, {d: x}]}}");
	struct val *p2 = fx_yaml("{b: {c: [1, 2]}}");             /* list length differs */
	struct val *p3 = fx_yaml("{a: 1.0, g: 2}");               /* numbers compare by value */
	struct val *p4 = fx_yaml("{b: {f: \"true\"}}");           /* string is not a boolean */
	struct val *p5 = fx_yaml("{h: 1}");                        /* missing key */
	struct val *p6 = fx_yaml("{h: null}");                     /* absent matches null */

	CU_ASSERT(exp_subset(p1, a));
	CU_ASSERT(!exp_subset(p2, a));
	CU_ASSERT(exp_subset(p3, a));
	CU_ASSERT(!exp_subset(p4, a));
	CU_ASSERT(!exp_subset(p5, a));
	CU_ASSERT(exp_subset(p6, a));
	val_free(a);
	val_free(p1);
	val_free(p2);
	val_free(p3);
	val_free(p4);
	val_free(p5);
	val_free(p6);
}

static void test_object_matches(void)
{
	struct obj *o = obj_new("magosproject.io/v1alpha1", "Workspace", "default", "w1");
	struct val *p1 = fx_yaml("{kind: Workspace, metadata: {name: w1, labels: {env: prod}}, status: {phase: Applied}}");
	struct val *p2 = fx_yaml("{apiVersion: stages.metio.wtf/v1, kind: Workspace}");
	struct val *p3 = fx_yaml("{kind: Workspace, status: {phase: Failed}}");

	obj_strmap_set(&o->labels, "env", "prod");
	o->status = fx_yaml("{phase: Applied, reason: X}");
	CU_ASSERT(exp_object_matches(p1, o));
	CU_ASSERT(!exp_object_matches(p2, o));
	CU_ASSERT(!exp_object_matches(p3, o));
	obj_free(o);
	val_free(p1);
	val_free(p2);
	val_free(p3);
}

/* End to end: a run with probes, object expectations at 0s and at the end. */
static void test_objects_in_run(void)
{
	struct scenario s;
	struct exp_set e;
	struct diag d;
	struct run_opts o = { 0 };
	struct run_result rr = { 0 };
	struct exp_probes p;
	struct exp_scenario_report r;
	struct plan_stats st;
	int rc = load("    assert:\n"
		      "      - at: 0s\n"
		      "        object: {kind: Workspace, metadata: {name: shop-prod}, status: {phase: Applied}}\n"
		      "      - object: {kind: Workspace, metadata: {name: shop-prod}, status: {phase: Applied}}\n"
		      "      - at: 100h\n"
		      "        object: {kind: Rollout, metadata: {name: shop, namespace: default}}\n"
		      "    error:\n"
		      "      - object: {kind: Workspace, status: {phase: Failed}}\n",
		      &s, &e, &d);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(e.n, 4);
	exp_probes_init(&p, &e);
	CU_ASSERT_EQUAL(p.n, 2);
	exp_probes_attach(&p, &o);
	run_scenario(&s, &o, &rr);
	exp_probes_finish(&p, rr.world, rr.end_ms, rr.stop);
	stats_init(&st, 1);
	exp_report_init(&r, path);
	exp_evaluate(&e, &st, NULL, 0, &p, &r);
	CU_ASSERT_EQUAL_FATAL(r.n, 4);
	CU_ASSERT_EQUAL(r.items[0].outcome, EXP_FAILED); /* not applied at 0s */
	CU_ASSERT_STRING_EQUAL(r.items[0].message,
			       "Workspace \"shop-prod\" does not match at 0s: status.phase is \"Pending\", expected \"Applied\" (1 object with that identity)");
	CU_ASSERT_EQUAL(r.items[1].outcome, EXP_PASSED); /* applied at the end */
	/* beyond the run (it ended when the change completed): not the state at 100h */
	CU_ASSERT_EQUAL(r.items[2].outcome, EXP_FAILED);
	CU_ASSERT(p.checks[2].unreached && !p.checks[2].done);
	CU_ASSERT_STRING_EQUAL(r.items[2].measured, "not evaluated");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.items[2].message, "not evaluated: the run ended at "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.items[2].message, "before the expectation's time 100h0m0s"));
	CU_ASSERT_EQUAL(r.items[3].outcome, EXP_PASSED);
	CU_ASSERT_EQUAL(r.nfailed, 2);
	exp_report_release(&r);
	run_result_release(&rr);
	exp_probes_release(&p);
	cleanup(&s, &e, &d);
}

/* expect.findings: listed rules pass and must fire; others keep their severity. */
static void test_findings(void)
{
	struct scenario s;
	struct exp_set e;
	struct diag d;
	struct lint_report l;
	struct exp_scenario_report r;
	int rc = load("    findings: [MS105, MS101]\n", &s, &e, &d);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(e.nfindings, 2);
	CU_ASSERT_STRING_EQUAL(e.findings[0].rule->id, "MS105");
	CU_ASSERT_EQUAL(e.findings[1].mark.line, 8);
	CU_ASSERT_EQUAL(e.findings[1].mark.col, 23);
	lint_report_init(&l);
	lint_add(&l, "MS105", "m.yaml", at(3, 1), "workspace w is in no step");
	lint_add(&l, "MS107", "m.yaml", at(5, 2), "interval 0");
	exp_report_init(&r, "x");
	exp_report_add_lint(&r, &l, &e);
	CU_ASSERT_EQUAL_FATAL(r.n, 3);
	CU_ASSERT_EQUAL(r.items[0].outcome, EXP_PASSED);
	CU_ASSERT_STRING_EQUAL(r.items[0].message,
			       "expected (spec.expect.findings): workspace w is in no step");
	CU_ASSERT_EQUAL(r.items[1].outcome, EXP_FAILED); /* MS107 is an error, not listed */
	CU_ASSERT_EQUAL(r.items[2].outcome, EXP_FAILED); /* MS101 listed, never fired */
	CU_ASSERT_STRING_EQUAL(r.items[2].id, "MS101");
	CU_ASSERT_EQUAL(r.items[2].mark.line, 8);
	CU_ASSERT_EQUAL(r.nfailed, 2);
	exp_report_release(&r);
	lint_report_release(&l);
	cleanup(&s, &e, &d);
}

static CU_TestInfo tests[] = {
	{ "expected lint findings", test_findings },
	{ "parse every metric", test_parse_all },
	{ "parse an empty expect", test_parse_no_expect },
	{ "parse errors at file:line:col", test_parse_errors },
	{ "parse waves and object lists", test_parse_wave_and_objects },
	{ "exposure needs a FleetRollout", test_parse_exposure_magos },
	{ "evaluate time to complete and probabilities", test_eval_ttc_and_probs },
	{ "evaluate blast radius, bounds and missing values", test_eval_blast_and_bounds },
	{ "a percentile over one trial says so, and warns", test_eval_percentile_one_trial },
	{ "evaluate haltsBefore over trial rows", test_eval_halts_before },
	{ "subset match", test_subset },
	{ "object match", test_object_matches },
	{ "object expectations in a run", test_objects_in_run },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("expect", tests);
}
