/*
 * sim/plan/trials: seeds, rows read off real runs, and the pool giving the same
 * rows (and the same JSON and CSV bytes) whatever the thread count.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/limits.h"
#include "sim/plan/stats.h"
#include "sim/plan/trials.h"
#include "reports/plan_json.h"
#include "reports/plan_text.h"
#include "sim/base/diag.h"
#include "sim/core/rng.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void test_seed_zero_is_base(void)
{
	CU_ASSERT_EQUAL(trials_seed(7, 0), 7);
	CU_ASSERT_EQUAL(trials_seed(0, 0), 0);
	CU_ASSERT_EQUAL(trials_seed(UINT64_MAX, 0), UINT64_MAX);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void test_seeds_differ(void)
{
	enum { N = 20000 };
	uint64_t *s = malloc(2 * N * sizeof(*s));
	size_t dup = 0;

	/* indices 0..N-1 of base 7 and of base 8: all 2N distinct */
	for (uint32_t i = 0; i < N; i++) {
		s[i] = trials_seed(7, i);
		s[N + i] = trials_seed(8, i);
	}
	qsort(s, 2 * N, sizeof(*s), cmp_u64);
	for (size_t i = 1; i < 2 * N; i++)
		dup += s[i] == s[i - 1];
	CU_ASSERT_EQUAL(dup, 0);
	free(s);
	/* nearby indices and bases land far apart (many bits differ) */
	CU_ASSERT(__builtin_popcountll(trials_seed(7, 1) ^ trials_seed(7, 2)) > 16);
	CU_ASSERT(__builtin_popcountll(trials_seed(7, 1) ^ trials_seed(8, 1)) > 16);
	/* the mix is part of the product: `run --seed` with a trial's seed reproduces it */
	CU_ASSERT_EQUAL(trials_seed(7, 1), trials_seed(7, 1));
	CU_ASSERT_NOT_EQUAL(trials_seed(7, 1), 7);
	CU_ASSERT_NOT_EQUAL(trials_seed(7, 1), 8);
}

/* fx_scn_load() of the one file @path. */
static int load(const char *path, struct scenario *s)
{
	return fx_scn_load(&path, 1, s, NULL);
}

/* The JSON and CSV of @n rows, as one string (new). */
static char *render(const struct scenario *s, const struct trial_row *rows, size_t n)
{
	struct plan_stats st;
	struct rep_plan p = { s->name, NULL, 0, s->seed, s->horizon_ms, 0, rows, n, &st, NULL, false, 0, 0 };
	struct fx_cap c;
	FILE *f = fx_cap_open(&c);

	plan_stats_compute(rows, n, s->horizon_ms, lim_default(LIM_EXACT_VALUES), &st);
	CU_ASSERT_EQUAL(rep_plan_json(f, &p), 0);
	CU_ASSERT_EQUAL(rep_plan_csv(f, rows, n), 0);
	plan_stats_release(&st);
	return fx_cap_text(&c);
}

static void test_jobs_do_not_change_results(void)
{
	struct scenario s;
	struct trials_opts o = { 0 };
	struct trial_row *r1 = NULL, *r4 = NULL;
	char *a, *b;

	CU_ASSERT_EQUAL_FATAL(load("scenarios/three-environments.yaml", &s), 0);
	o.n = 12;
	o.jobs = 1;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &r1), 0);
	o.jobs = 4;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &r4), 0);
	for (uint32_t i = 0; i < o.n; i++) {
		CU_ASSERT_EQUAL(r1[i].index, i);
		CU_ASSERT_EQUAL(r4[i].index, i);
		CU_ASSERT_EQUAL(r1[i].seed, trials_seed(7, i));
		CU_ASSERT_EQUAL(r1[i].ttc_ms, r4[i].ttc_ms);
		CU_ASSERT_EQUAL(r1[i].events, r4[i].events);
		CU_ASSERT_EQUAL(r1[i].nphases, 3);
	}
	/* the trials differ from one another (their seeds do) */
	CU_ASSERT_NOT_EQUAL(r1[1].ttc_ms, r1[2].ttc_ms);
	a = render(&s, r1, o.n);
	b = render(&s, r4, o.n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"schema\": \"magos-sim/trials/v1\""));
	free(a);
	free(b);
	fx_rows_free(r1, o.n);
	fx_rows_free(r4, o.n);
	scn_release(&s);
}

/* trials_each()'s taker: into the statistics, checking the index order. */
struct each_sink {
	struct plan_acc *acc;
	uint32_t next; /* the index expected next */
	bool in_order;
};

static void take_each(void *ctx, struct trial_row *row)
{
	struct each_sink *k = ctx;

	k->in_order &= row->index == k->next;
	k->next++;
	plan_acc_add(k->acc, row);
	trial_row_release(row);
}

/* The tables of the statistics trials_each() streams at @jobs threads (new). */
static char *streamed(const struct scenario *s, uint32_t n, unsigned jobs, size_t exact_values,
		      bool *sketched)
{
	struct trials_opts o = { 0 };
	struct each_sink k = { plan_acc_new(s->horizon_ms, exact_values), 0, true };
	struct plan_stats st;
	struct rep_plan p = { s->name, NULL, 0, s->seed, s->horizon_ms, 0, NULL, n, &st, NULL, false, 0, 0 };
	struct rep_plan_text_opts to = { false, 80, false };
	struct fx_cap c;
	FILE *f;

	o.n = n;
	o.jobs = jobs;
	CU_ASSERT_EQUAL_FATAL(trials_each(s, &o, take_each, &k), 0);
	CU_ASSERT_TRUE(k.in_order);
	CU_ASSERT_EQUAL(k.next, n);
	plan_acc_finish(k.acc, &st);
	plan_acc_free(k.acc);
	*sketched = st.sketched;
	f = fx_cap_open(&c);
	CU_ASSERT_EQUAL(rep_plan_text(f, &p, &to), 0);
	plan_stats_release(&st);
	return fx_cap_text(&c);
}

/*
 * Rows streamed into the statistics come in index order at any -j, so the
 * tables are the same bytes at -j 1, 2 and 3, exact or sketched;
 * the sketch says so, and exact streaming matches the rows kept.
 */
static void test_streamed_stats_same_at_any_jobs(void)
{
	struct scenario s;
	struct trial_row *rows = NULL;
	struct trials_opts o = { 0 };
	struct plan_stats st;
	bool sk1, sk2, sk3;
	char *a, *b, *c, *kept;

	CU_ASSERT_EQUAL_FATAL(load("scenarios/three-environments.yaml", &s), 0);
	/* sketched from the first row */
	a = streamed(&s, 40, 1, 0, &sk1);
	b = streamed(&s, 40, 2, 0, &sk2);
	c = streamed(&s, 40, 3, 0, &sk3);
	CU_ASSERT_TRUE(sk1 && sk2 && sk3);
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_STRING_EQUAL(a, c);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "sketched   percentiles estimated within 0.39%"));
	free(a);
	free(b);
	free(c);
	/* sketched after 100 values (about 12 trials): the switch is at the same row at any -j */
	a = streamed(&s, 40, 1, 100, &sk1);
	b = streamed(&s, 40, 2, 100, &sk2);
	CU_ASSERT_TRUE(sk1 && sk2);
	CU_ASSERT_STRING_EQUAL(a, b);
	free(a);
	free(b);
	/* exact: the same bytes as the statistics of the rows kept */
	a = streamed(&s, 40, 2, lim_default(LIM_EXACT_VALUES), &sk1);
	CU_ASSERT_FALSE(sk1);
	CU_ASSERT_PTR_NULL(strstr(a, "sketched"));
	o.n = 40;
	o.jobs = 2;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &rows), 0);
	plan_stats_compute(rows, 40, s.horizon_ms, lim_default(LIM_EXACT_VALUES), &st);
	{
		struct rep_plan p = { s.name, NULL, 0, s.seed, s.horizon_ms, 0, NULL, 40, &st, NULL, false, 0, 0 };
		struct rep_plan_text_opts to = { false, 80, false };
		struct fx_cap cap;
		FILE *f = fx_cap_open(&cap);

		CU_ASSERT_EQUAL(rep_plan_text(f, &p, &to), 0);
		kept = fx_cap_text(&cap);
	}
	CU_ASSERT_STRING_EQUAL(a, kept);
	free(a);
	free(kept);
	plan_stats_release(&st);
	fx_rows_free(rows, 40);
	scn_release(&s);
}

struct seen_progress {
	uint32_t calls, last, n;
	bool increasing;
};

static void on_progress(void *ctx, uint32_t done, uint32_t n)
{
	struct seen_progress *p = ctx;

	p->increasing &= done == p->last + 1;
	p->calls++;
	p->last = done;
	p->n = n;
}

static void test_progress_counts_every_trial(void)
{
	struct scenario s;
	struct trials_opts o = { 0 };
	struct trial_row *rows = NULL;

	CU_ASSERT_EQUAL_FATAL(load("scenarios/three-environments.yaml", &s), 0);
	o.n = 7;
	o.progress = on_progress;
	for (unsigned j = 1; j <= 3; j += 2) {
		struct seen_progress p = { 0, 0, 0, true };

		o.jobs = j;
		o.progress_ctx = &p;
		CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &rows), 0);
		/* once per trial, from the calling thread, counting up to n */
		CU_ASSERT_EQUAL(p.calls, 7);
		CU_ASSERT_EQUAL(p.last, 7);
		CU_ASSERT_EQUAL(p.n, 7);
		CU_ASSERT_TRUE(p.increasing);
		fx_rows_free(rows, o.n);
	}
	/* more threads than trials, and a shard that starts at 5 */
	o.n = 2;
	o.jobs = 8;
	o.first = 5;
	o.progress = NULL;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &rows), 0);
	CU_ASSERT_EQUAL(rows[0].index, 5);
	CU_ASSERT_EQUAL(rows[1].index, 6);
	CU_ASSERT_EQUAL(rows[1].seed, trials_seed(7, 6));
	fx_rows_free(rows, o.n);
	scn_release(&s);
}

static void test_trial_zero_is_the_run(void)
{
	struct scenario s;
	struct trials_opts o = { 0 };
	struct trial_row *rows = NULL;
	struct run_result r;

	CU_ASSERT_EQUAL_FATAL(load("scenarios/three-environments.yaml", &s), 0);
	run_scenario(&s, NULL, &r);
	o.n = 2;
	o.jobs = 2;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &rows), 0);
	CU_ASSERT_EQUAL(rows[0].seed, r.seed);
	CU_ASSERT_TRUE(rows[0].completed);
	/* `run` says: completed in 30m5.716s after 335 events (the world binds its three claims) */
	CU_ASSERT_EQUAL(rows[0].ttc_ms, r.summary.time_to_complete_ms);
	CU_ASSERT_EQUAL(rows[0].ttc_ms, 1805716);
	CU_ASSERT_EQUAL(rows[0].events, 335);
	CU_ASSERT_EQUAL(rows[0].stop, DES_STOPPED);
	CU_ASSERT_FALSE(rows[0].halted);
	CU_ASSERT_EQUAL(rows[0].blast_count, 0);
	CU_ASSERT_EQUAL(rows[0].blast_total, 3);
	CU_ASSERT_EQUAL(rows[0].peak_jobs, 1);
	CU_ASSERT_STRING_EQUAL(rows[0].phases[0].driver, "Rollout default/shop");
	CU_ASSERT_STRING_EQUAL(rows[0].phases[2].name, "step prod");
	CU_ASSERT_EQUAL(rows[0].phases[2].done_ms, rows[0].ttc_ms);
	CU_ASSERT_PTR_NULL(rows[0].bound_note);
	run_result_release(&r);
	fx_rows_free(rows, o.n);
	scn_release(&s);
}

static void test_row_of_a_rollout_halt(void)
{
	struct scenario s;
	struct trials_opts o = { 0 };
	struct trial_row *rows = NULL;

	CU_ASSERT_EQUAL_FATAL(load("scenarios/staging-failure-halts.yaml", &s), 0);
	o.n = 1;
	o.jobs = 1;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &rows), 0);
	CU_ASSERT_TRUE(rows[0].halted);
	CU_ASSERT_STRING_EQUAL(rows[0].halt_where, "step staging");
	CU_ASSERT_STRING_EQUAL(rows[0].halt_reason, "StepFailed");
	CU_ASSERT_EQUAL(rows[0].blast_count, 2);
	CU_ASSERT_EQUAL(rows[0].blast_total, 3);
	CU_ASSERT_EQUAL(rows[0].detection_ms, 0);
	CU_ASSERT_EQUAL(rows[0].exposure_ms, 0);
	fx_rows_free(rows, o.n);
	scn_release(&s);
}

static void test_row_of_a_fleet_halt(void)
{
	struct scenario s;
	struct trials_opts o = { 0 };
	struct trial_row *rows = NULL;

	CU_ASSERT_EQUAL_FATAL(load("scenarios/fleet-gate-halt.yaml", &s), 0);
	o.n = 1;
	o.jobs = 1;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &rows), 0);
	CU_ASSERT_TRUE(rows[0].halted);
	CU_ASSERT_STRING_EQUAL(rows[0].halt_where, "wave canary");
	CU_ASSERT_STRING_EQUAL(rows[0].halt_reason, "Halted (gate)");
	CU_ASSERT_EQUAL(rows[0].blast_count, 1);
	CU_ASSERT_EQUAL(rows[0].blast_total, 12);
	CU_ASSERT_EQUAL(rows[0].peak_adopting, 4);
	CU_ASSERT_EQUAL(rows[0].peak_jobs, 0);
	CU_ASSERT(rows[0].exposure_ms > 0);
	CU_ASSERT_EQUAL(rows[0].nphases, 3);
	CU_ASSERT_STRING_EQUAL(rows[0].phases[0].driver, "FleetRollout moodle");
	CU_ASSERT_STRING_EQUAL(rows[0].phases[0].name, "wave canary");
	fx_rows_free(rows, o.n);
	scn_release(&s);
}

/* A scenario of the payments Workspaces with an event budget of 2: every trial hits it. */
static void test_bound_is_reported(void)
{
	char dir[] = "/tmp/test_trials.XXXXXX", path[512], cwd[400];
	struct scenario s;
	struct trials_opts o = { 0 };
	struct trial_row *rows = NULL;
	struct plan_stats st;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof(cwd)));
	snprintf(path, sizeof(path), "%s/budget.yaml", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f,
		"apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata: {name: tiny-budget}\n"
		"spec:\n  limits: {eventBudget: 2}\n  include: [%s/scenarios/payments-platform/workspaces.yaml]\n",
		cwd);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(load(path, &s), 0);
	o.n = 3;
	o.jobs = 2;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &rows), 0);
	for (uint32_t i = 0; i < o.n; i++) {
		CU_ASSERT_EQUAL(rows[i].stop, DES_BUDGET);
		CU_ASSERT_FALSE(rows[i].completed);
		CU_ASSERT_PTR_NOT_NULL(rows[i].bound_note);
	}
	plan_stats_compute(rows, o.n, s.horizon_ms, lim_default(LIM_EXACT_VALUES), &st);
	CU_ASSERT_EQUAL(st.nbound, 3);
	CU_ASSERT_EQUAL(st.ttc.ncensored, 3);
	CU_ASSERT_EQUAL(st.complete.k, 0);
	plan_stats_release(&st);
	fx_rows_free(rows, o.n);
	scn_release(&s);
	unlink(path);
	rmdir(dir);
}

static void test_duration_format(void)
{
	char b[16];

	rep_plan_duration(850, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "850ms");
	rep_plan_duration(12345, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "12.3s");
	rep_plan_duration(1805716, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "30m06s");
	rep_plan_duration(8 * 3600000LL, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "8h");
	rep_plan_duration(8 * 3600000LL + 120000, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "8h02m");
	/* No day unit (Go durations have none): hours past a day. */
	rep_plan_duration(76 * 3600000LL, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "76h");
	rep_plan_duration(26 * 3600000LL + 20 * 60000, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "26h");
	rep_plan_duration(24 * 3600000LL - 1, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "24h");
	rep_plan_duration(-26 * 3600000LL, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "-26h");
	rep_plan_duration(-1500, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "-1.5s");
}

static void test_csv_quoting(void)
{
	static char where[] = "wave \"a\", b", note[] = "line\nbreak";
	struct trial_row r;
	struct fx_cap c;
	FILE *f = fx_cap_open(&c);
	char *buf;

	memset(&r, 0, sizeof(r));
	r.index = 4;
	r.seed = 99;
	r.stop = DES_LOOP;
	r.ttc_ms = -1;
	r.halt_ms = 5;
	r.detection_ms = -1;
	r.halted = true;
	r.halt_where = where;
	r.bound_note = note;
	CU_ASSERT_EQUAL(rep_plan_csv(f, &r, 1), 0);
	buf = fx_cap_text(&c);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\n4,99,loop,0,0,0,,1,5,\"wave \"\"a\"\", b\",,0,0,,0,0,0,0,\"line\nbreak\"\r\n"));
	CU_ASSERT_EQUAL(strncmp(buf, "index,seed,stop,", 16), 0);
	free(buf);
}

static void test_variants_csv(void)
{
	struct trial_row r[2];
	struct rep_csv_set sets[2];
	struct fx_cap c;
	FILE *f = fx_cap_open(&c);
	char *buf;

	memset(r, 0, sizeof(r));
	r[0].seed = 7;
	r[1].index = 1;
	r[1].seed = 8;
	for (int i = 0; i < 2; i++)
		r[i].ttc_ms = r[i].halt_ms = r[i].detection_ms = -1;
	sets[0] = (struct rep_csv_set){ "base", r, 2 };
	sets[1] = (struct rep_csv_set){ "soak, 15m", r, 2 };
	CU_ASSERT_EQUAL(rep_variants_csv(f, sets, 2), 0);
	buf = fx_cap_text(&c);
	/* one header with the column at the end; every row names its set (quoted when needed) */
	CU_ASSERT_STRING_EQUAL(buf,
		"index,seed,stop,end_ms,events,completed,ttc_ms,halted,halt_ms,halt_where,"
		"halt_reason,blast_count,blast_total,detection_ms,exposure_ms,peak_jobs,"
		"peak_adopting,job_wait_ms,bound_note,variant\r\n"
		"0,7,quiescent,0,0,0,,0,,,,,0,,,0,0,0,,base\r\n"
		"1,8,quiescent,0,0,0,,0,,,,,0,,,0,0,0,,base\r\n"
		"0,7,quiescent,0,0,0,,0,,,,,0,,,0,0,0,,\"soak, 15m\"\r\n"
		"1,8,quiescent,0,0,0,,0,,,,,0,,,0,0,0,,\"soak, 15m\"\r\n");
	free(buf);
}

static CU_TestInfo trials_tests[] = {
	{ "trial 0 has the base seed", test_seed_zero_is_base },
	{ "seeds of nearby indices and bases differ", test_seeds_differ },
	{ "-j 1 and -j 4 give the same rows and bytes", test_jobs_do_not_change_results },
	{ "streamed statistics: the same bytes at any -j, exact or sketched",
	  test_streamed_stats_same_at_any_jobs },
	{ "trial 0 is the single run", test_trial_zero_is_the_run },
	{ "progress once per trial; shards and surplus threads", test_progress_counts_every_trial },
	{ "a Rollout halt: where, reason, blast radius", test_row_of_a_rollout_halt },
	{ "a fleet halt: where, reason, blast radius, adopting", test_row_of_a_fleet_halt },
	{ "trials stopped by the event budget are counted and named", test_bound_is_reported },
	{ "short durations for tables", test_duration_format },
	{ "CSV quoting (RFC 4180)", test_csv_quoting },
	{ "CSV of the base and its variants: a last column names the set", test_variants_csv },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	rng_gsl_init();
	CU_ADD_SUITE("plan_trials", trials_tests);
}
