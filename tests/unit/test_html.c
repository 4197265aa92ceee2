/*
 * Unit tests of the HTML report drawn from synthetic spans: escaping of
 * target and group names, rows against count bands, the critical path, the
 * gate chart and a 100 000-target fleet that must stay small.  (End-to-end
 * runs are in tests/html.sh.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/html.h"
#include "reports/spans.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* Draws @sp for a bare run into a new string. */
static char *draw(const struct sp_set *sp, const char *name)
{
	struct rep_run run = { 0 };
	struct fx_cap c;

	run.name = name;
	run.seed = 7;
	run.stop = "quiescent";
	run.end_ms = sp->end_ms;
	CU_ASSERT_EQUAL(rep_html_sp(fx_cap_open(&c), &run, sp), 0);
	return fx_cap_text(&c);
}

/* One Rollout, one step, two Workspaces: one with a markup name, one with a very long one. */
static void test_rows_and_escaping(void)
{
	static char longname[300];
	struct sp_span s0[] = { { 0, 60000, SP_PLANNING, "Planning", false },
				{ 60000, 120000, SP_APPLYING, "Applying", false },
				{ 120000, 600000, SP_APPLIED, "Applied", true } };
	struct sp_span s1[] = { { 0, 30000, SP_PLANNING, "Planning", false },
				{ 30000, 300000, SP_APPLYING, "Applying", false },
				{ 300000, 600000, SP_APPLIED, "Applied", true } };
	struct sp_target t[2] = { 0 };
	struct sp_group g = { "dev <&> \"x\"", 0, 300000, -1, 300000, -1, 0, 2 };
	struct sp_driver d = { "Rollout", "default", "shop", 300000, -1, &g, 1, 0, 2 };
	struct sp_set sp = { 0 };
	char *html;

	memset(longname, 'w', 260);
	longname[260] = '\0';
	t[0] = (struct sp_target){ .kind = "Workspace", .ns = "default", .name = "a<b>&\"c\"'d",
				   .spans = s0, .nspans = 3 };
	t[1] = (struct sp_target){ .kind = "Workspace", .ns = "default", .name = longname,
				   .spans = s1, .nspans = 3 };
	sp.end_ms = 600000;
	sp.drivers = &d;
	sp.ndrivers = 1;
	sp.targets = t;
	sp.ntargets = 2;

	html = draw(&sp, "x</title><script>alert(1)</script>");
	CU_ASSERT_EQUAL(fx_count(html, "<script>"), 1); /* ours only */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h1>x&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, ">default/a&lt;b&gt;&amp;&quot;c&quot;&#39;d</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<summary>step dev &lt;&amp;&gt; &quot;x&quot; <small>(2)</small></summary>"));
	/* The long name: cut to 30 characters in the label, whole in its title. */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, ">default/wwwwwwwwwwwwwwwwwwwww…</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<title>Workspace default/wwwwwwwwww"));
	CU_ASSERT_EQUAL(fx_count(html, "<g class=\"row"), 2);
	CU_ASSERT_EQUAL(fx_count(html, "class=\"agg\""), 0);
	/* The critical path: the long-named Workspace applied last (5m), not the other (2m). */
	CU_ASSERT_EQUAL(fx_count(html, "<g class=\"row on-crit\">"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<g class=\"row on-crit\"><rect x=\"0\" y=\"36\""));
	/* Bars: planning and applying of each, the applied state as a thin line. */
	CU_ASSERT_EQUAL(fx_count(html, "class=\"ph-planning\"><title>"), 2);
	CU_ASSERT_EQUAL(fx_count(html, "class=\"ph-applying\"><title>"), 2);
	CU_ASSERT_EQUAL(fx_count(html, "height=\"3\" class=\"ph-done\""), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "opened 0, passed 5m"));
	/* Workspaces only: no Gates section, and no fleet entries in the legend. */
	CU_ASSERT_PTR_NULL(strstr(html, "id=\"gates\""));
	CU_ASSERT_PTR_NULL(strstr(html, "soaking (wave)"));
	CU_ASSERT_PTR_NULL(strstr(html, "gate Passing"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, ">planning</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<main>\n"));
	free(html);
}

/* A gate with a max threshold: a band, and dots coloured by verdict. */
static void test_gate_chart(void)
{
	struct sp_point pts[] = { { 60000, 0.001 }, { 120000, 0.05 }, { 180000, 0.002 } };
	char cname[] = "gate canary";
	struct sp_counter ct = { .name = cname, .driver = 0, .group = 0, .points = pts, .npoints = 3 };
	struct sp_instant in[] = {
		{ 60000, SP_I_GATE, 0, 0, -1, "Passing", NULL, 0.001, true, NULL, "0.01" },
		{ 120000, SP_I_GATE, 0, 0, -1, "Failing", NULL, 0.05, true, NULL, "0.01" },
		{ 120000, SP_I_HALT, 0, 0, -1, "Halted", "wave \"canary\" failed its health gate", 0, false, NULL, NULL },
		{ 180000, SP_I_GATE, 0, 0, -1, "Unknown", "metric source unavailable", 0, false, NULL, "0.01" },
	};
	struct sp_group g = { "canary", 0, -1, -1, -1, 120000, 0, 0 };
	struct sp_driver d = { "FleetRollout", "", "moodle", -1, 120000, &g, 1, 0, 0 };
	struct sp_set sp = { 0 };
	char *html;

	sp.end_ms = 240000;
	sp.drivers = &d;
	sp.ndrivers = 1;
	sp.instants = in;
	sp.ninstants = 4;
	sp.counters = &ct;
	sp.ncounters = 1;
	html = draw(&sp, "gate");
	CU_ASSERT_EQUAL(fx_count(html, "role=\"img\" id=\"gate-"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<title>passing range: max 0.01</title>"));
	CU_ASSERT_EQUAL(fx_count(html, "<circle"), 2); /* the two evaluations with a value */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "class=\"v-fail\"><title>Failing at 2m: 0.05</title></circle>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "class=\"v-unknown\"><title>Unknown at 3m: no value: metric source unavailable</title></line>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<title>halt at 2m: Halted: wave &quot;canary&quot; failed its health gate</title>"));
	/* No targets: the Gantt says so. */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "No Workspaces or StageSets in this run"));
	free(html);
}

/* 100 000 StageSets in 10 waves: count bands, no rows, and a page that stays small. */
static void test_100k(void)
{
	enum { N = 100000, NW = 10 };
	static const char *wn[NW] = { "w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9" };
	struct sp_group g[NW];
	struct sp_driver d = { "FleetRollout", "", "bench", -1, -1, g, NW, 0, N };
	struct sp_set sp = { 0 };
	struct sp_span *spans = xcalloc((size_t)N * 3, sizeof(*spans));
	char (*names)[16] = xcalloc(N, sizeof(*names));
	char *html;

	sp.end_ms = 10 * 3600000LL;
	sp.targets = xcalloc(N, sizeof(*sp.targets));
	sp.ntargets = N;
	for (size_t i = 0; i < N; i++) {
		int64_t w = (int64_t)(i / (N / NW)), t0 = w * 3600000 + (int64_t)(i % 1000) * 1000;
		struct sp_span *s = &spans[3 * i];

		snprintf(names[i], sizeof(names[i]), "app-%zu", i);
		s[0] = (struct sp_span){ 0, t0, SP_AWAITING_APPROVAL, "AwaitingApproval", false };
		s[1] = (struct sp_span){ t0, t0 + 60000, SP_ADOPTING, NULL, false };
		s[2] = (struct sp_span){ t0 + 60000, sp.end_ms, SP_READY, "Succeeded", true };
		sp.targets[i] = (struct sp_target){ .kind = "StageSet", .ns = "tenant", .name = names[i],
						    .group = (long)w, .spans = s, .nspans = 3 };
	}
	for (size_t w = 0; w < NW; w++)
		g[w] = (struct sp_group){ wn[w], (int64_t)w * 3600000, -1, -1, (int64_t)(w + 1) * 3600000, -1,
					  w * (N / NW), N / NW };
	sp.drivers = &d;
	sp.ndrivers = 1;
	html = draw(&sp, "synthetic");
	CU_ASSERT_EQUAL(fx_count(html, "<g class=\"agg\">"), NW);
	CU_ASSERT_EQUAL(fx_count(html, "<g class=\"row"), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "10000 targets (counts by phase)"));
	CU_ASSERT(strlen(html) < 2000000);
	free(html);
	free(sp.targets);
	free(spans);
	free(names);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "rows_and_escaping", test_rows_and_escaping },
		{ "gate_chart", test_gate_chart },
		{ "100k", test_100k },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("html", tests);
}
