/*
 * Unit tests of the Monte Carlo and compare pages (reports/html_mc.c), drawn
 * from synthetic trial rows: exact Wilson intervals and quantiles, a page of
 * 100 000 trials that stays small (the CDF is sampled per pixel column, the
 * histograms binned), censored trials marked, markup in names escaped, the
 * same rows giving the same bytes, and the compare table's worse rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/limits.h"
#include "sim/plan/stats.h"
#include "reports/html_mc.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define HORIZON 3600000 /* ms */

/*
 * @n rows: time to complete spread over 10m..50m (plus @slow ms), every 10th
 * trial censored, every 7th halted at a wave named with markup, two waves
 * each.  Free with fx_rows_free().
 */
static struct trial_row *make_rows(size_t n, int64_t slow)
{
	struct trial_row *r = xcalloc(n, sizeof(*r));

	for (size_t i = 0; i < n; i++) {
		int64_t ttc = 600000 + (int64_t)((i * 7919) % 2400) * 1000 + slow;

		r[i].index = (uint32_t)i;
		r[i].seed = i + 1;
		r[i].stop = DES_QUIESCENT;
		r[i].completed = i % 10 != 9;
		r[i].ttc_ms = r[i].completed ? ttc : -1;
		r[i].end_ms = r[i].completed ? ttc : HORIZON;
		r[i].halted = i % 7 == 3;
		r[i].halt_ms = r[i].halted ? 60000 : -1;
		r[i].halt_where = r[i].halted ? xstrdup("wave <b>canary</b>") : NULL;
		r[i].halt_reason = r[i].halted ? xstrdup("Halted (gate)") : NULL;
		r[i].blast_count = r[i].halted ? i % 13 : 0;
		r[i].blast_total = 12;
		r[i].detection_ms = r[i].halted ? (int64_t)(i % 5) * 30000 : -1;
		r[i].exposure_ms = r[i].halted ? (int64_t)(i % 4) * 60000 : 0;
		r[i].nphases = 2;
		r[i].phases = xcalloc(2, sizeof(*r[i].phases));
		for (int k = 0; k < 2; k++) {
			r[i].phases[k].driver = xstrdup("FleetRollout ns/\"fleet\"");
			r[i].phases[k].name = xstrdup(k ? "wave broad" : "wave <b>canary</b>");
			r[i].phases[k].opened_ms = k ? ttc / 2 : 0;
			r[i].phases[k].done_ms = r[i].completed ? (k ? ttc : ttc / 2) : -1;
		}
	}
	return r;
}

/* The page of @n rows (and one variant: the same rows 5m slower) as a new string. */
static char *page(const struct trial_row *rows, const struct trial_row *slow, size_t n,
		  size_t *len)
{
	struct plan_stats st, st2;
	struct rep_mc_set base = { "base", NULL, rows, n, &st };
	struct rep_mc_set var = { "<script>alert(1)</script> & \"slow\"", "desc <i>", slow, n,
				  &st2 };
	struct rep_mc_page pg = { "scn <b>", 7, HORIZON, &base, &var, 1, NULL, NULL, 0 };
	struct fx_cap c;
	char *text;

	plan_stats_compute(rows, n, HORIZON, lim_default(LIM_EXACT_VALUES), &st);
	plan_stats_compute(slow, n, HORIZON, lim_default(LIM_EXACT_VALUES), &st2);
	CU_ASSERT_EQUAL(rep_html_mc(fx_cap_open(&c), &pg), 0);
	text = fx_cap_text(&c);
	*len = c.len;
	plan_stats_release(&st);
	plan_stats_release(&st2);
	return text;
}

static void test_wilson_quantile(void)
{
	double lo, hi, v[] = { 1, 2, 3, 4 };

	rep_mc_wilson(5, 10, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(lo, 0.2366, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(hi, 0.7634, 1e-4);
	rep_mc_wilson(0, 10, &lo, &hi);
	CU_ASSERT_EQUAL(lo, 0);
	CU_ASSERT_DOUBLE_EQUAL(hi, 0.2775, 1e-4);
	rep_mc_wilson(10, 10, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(lo, 0.7225, 1e-4);
	CU_ASSERT_EQUAL(hi, 1);
	rep_mc_wilson(0, 0, &lo, &hi);
	CU_ASSERT_EQUAL(lo, 0);
	CU_ASSERT_EQUAL(hi, 1);
	CU_ASSERT_DOUBLE_EQUAL(rep_mc_quantile(v, 4, 0.5), 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rep_mc_quantile(v, 4, 0.05), 1.15, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rep_mc_quantile(v, 4, 1), 4, 1e-12);
	CU_ASSERT_EQUAL(rep_mc_quantile(v, 0, 0.5), 0);
}

static void test_big_page(void)
{
	const size_t n = 100000;
	struct trial_row *rows = make_rows(n, 0), *slow = make_rows(n, 300000);
	size_t len, len2;
	char *a = page(rows, slow, n, &len), *b = page(rows, slow, n, &len2);

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* Small whatever the trial count, and the same bytes from the same rows. */
	CU_ASSERT(len < 120000);
	CU_ASSERT(len == len2 && !memcmp(a, b, len));
	/* Both curves, each with its censored tenth marked past the horizon. */
	CU_ASSERT_EQUAL(fx_count(a, "<g class=\"cdf\">"), 2);
	CU_ASSERT_EQUAL(fx_count(a, "class=\"cens-dot s"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "base: 100000 trials, 90000 completed, 10000 censored"));
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "base: 10000 of 100000 trials (10%) not completed by 1h"));
	/* The halt bar with its interval; the box plots of both waves. */
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "wave &lt;b&gt;canary&lt;/b&gt; · Halted (gate): 14286 of "
					 "100000 trials (14.3%; 95 % 14.1% – 14.5%)"));
	CU_ASSERT_EQUAL(fx_count(a, "<g class=\"boxplot\">"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "id=\"detection\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "id=\"exposure\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "<td class=\"cens\">&gt; 1h</td>"));
	/* Nothing from a name reaches the page as markup. */
	CU_ASSERT_PTR_NULL(strstr(a, "<script>alert"));
	CU_ASSERT_PTR_NULL(strstr(a, "<b>"));
	CU_ASSERT_PTR_NULL(strstr(a, "<i>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;slow&quot;"));
	/* The variant row: 5m slower at the median. */
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "<small>Δ +5m00s</small>"));
	free(a);
	free(b);
	fx_rows_free(rows, n);
	fx_rows_free(slow, n);
}

static void test_one_trial_all_censored(void)
{
	struct trial_row *rows = make_rows(10, 0);
	struct plan_stats st;
	struct rep_mc_set base = { "base", NULL, rows + 9, 1, &st }; /* row 9 is censored */
	struct rep_mc_page pg = { "", 1, HORIZON, &base, NULL, 0, NULL, NULL, 0 };
	struct fx_cap c;
	char *buf;

	plan_stats_compute(rows + 9, 1, HORIZON, lim_default(LIM_EXACT_VALUES), &st);
	CU_ASSERT_EQUAL(rep_html_mc(fx_cap_open(&c), &pg), 0);
	buf = fx_cap_text(&c);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "no trial completed by the horizon"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "base: 1 of 1 trials (100%) not completed by 1h"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "No trial halted (0 of 1;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "<h1>scenario</h1>"));
	free(buf);
	plan_stats_release(&st);
	fx_rows_free(rows, 10);
}

static void test_sweep_and_compare(void)
{
	const size_t n = 60;
	struct trial_row *rows = make_rows(n, 0), *slow = make_rows(n, 600000);
	struct plan_stats st, st2;
	struct rep_mc_set base = { "base", NULL, rows, n, &st };
	struct rep_mc_set sw[2] = { { "1", NULL, rows, n, &st }, { "2", NULL, slow, n, &st2 } };
	struct rep_mc_page pg = { "s", 1, HORIZON, &base, NULL, 0, "capacity", sw, 2 };
	struct cmp_result r;
	struct fx_cap c;
	char *buf;

	plan_stats_compute(rows, n, HORIZON, lim_default(LIM_EXACT_VALUES), &st);
	plan_stats_compute(slow, n, HORIZON, lim_default(LIM_EXACT_VALUES), &st2);
	CU_ASSERT_EQUAL(rep_html_mc(fx_cap_open(&c), &pg), 0);
	buf = fx_cap_text(&c);
	/* Capacity: time to complete and queueing delay, a dot per value on each. */
	/* cdf, 2 sweeps, halts, blast, box, detection, exposure */
	CU_ASSERT_EQUAL(fx_count(buf, "<svg "), 2 + 1 + 1 + 1 + 1 + 1 + 1);
	CU_ASSERT_EQUAL(fx_count(buf, "class=\"sw-dot\""), 4);
	/* Every 10th trial censored: p95 of time to complete is "> horizon". */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "capacity=1: p50 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, ", p95 &gt; 1h (60 trials)"));
	free(buf);

	cmp_compute(rows, slow, n, HORIZON, 1, 200, &r);
	base.name = "scn";
	sw[1].name = "scn";
	CU_ASSERT_EQUAL(rep_html_compare(fx_cap_open(&c), &base, &sw[1], &r), 0);
	buf = fx_cap_text(&c);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "<tr class=\"worse\"><td>time to complete p50</td>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, ">base: scn</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, ">head: scn</text>"));
	CU_ASSERT_EQUAL(fx_count(buf, "<g class=\"cdf\">"), 2);
	free(buf);
	plan_stats_release(&st);
	plan_stats_release(&st2);
	fx_rows_free(rows, n);
	fx_rows_free(slow, n);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "wilson_quantile", test_wilson_quantile },
		{ "big_page", test_big_page },
		{ "one_trial_all_censored", test_one_trial_all_censored },
		{ "sweep_and_compare", test_sweep_and_compare },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("html_mc", tests);
}
