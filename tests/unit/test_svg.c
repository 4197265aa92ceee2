/* Unit tests of the SVG writer: exact text of escaping, numbers, durations, ticks and shapes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/svg.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void test_escape(void)
{
	struct fx_cap c;

	svg_escape(fx_cap_open(&c), "a<b>&\"c\" 'd'\x01\tz");
	CU_ASSERT_STRING_EQUAL(fx_cap_text(&c), "a&lt;b&gt;&amp;&quot;c&quot; &#39;d&#39; \tz");
	free(c.buf);

	svg_escape(fx_cap_open(&c), NULL);
	CU_ASSERT_STRING_EQUAL(fx_cap_text(&c), "");
	free(c.buf);
}

static void test_escape_max(void)
{
	struct fx_cap c;

	svg_escape_max(fx_cap_open(&c), "abcdef", 6);
	CU_ASSERT_STRING_EQUAL(fx_cap_text(&c), "abcdef");
	free(c.buf);
	svg_escape_max(fx_cap_open(&c), "abcdefg", 6);
	CU_ASSERT_STRING_EQUAL(fx_cap_text(&c), "abcde…");
	free(c.buf);
	/* A cut never splits a multi-byte character; escapes count as one character. */
	svg_escape_max(fx_cap_open(&c), "ééééé<x", 4);
	CU_ASSERT_STRING_EQUAL(fx_cap_text(&c), "ééé…");
	free(c.buf);
	svg_escape_max(fx_cap_open(&c), "a&b", 3);
	CU_ASSERT_STRING_EQUAL(fx_cap_text(&c), "a&amp;b");
	free(c.buf);
	svg_escape_max(fx_cap_open(&c), "long", 0);
	CU_ASSERT_STRING_EQUAL(fx_cap_text(&c), "long");
	free(c.buf);
}

static void test_fmt_num(void)
{
	char b[SVG_NUM_BUFSZ];

	CU_ASSERT_STRING_EQUAL(svg_fmt_num(3, 2, b, sizeof(b)), "3");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(2.5, 2, b, sizeof(b)), "2.5");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(0.125, 2, b, sizeof(b)), "0.12"); /* binary 0.125 rounds to even */
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(0.126, 2, b, sizeof(b)), "0.13");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(-0.00001, 2, b, sizeof(b)), "0");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(1e-9, 6, b, sizeof(b)), "0");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(-12.25, 1, b, sizeof(b)), "-12.2");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(100, 0, b, sizeof(b)), "100");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(NAN, 2, b, sizeof(b)), "NaN");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(-INFINITY, 2, b, sizeof(b)), "-Inf");
	CU_ASSERT_STRING_EQUAL(svg_fmt_num(2e20, 2, b, sizeof(b)), "2e+20");
}

static void test_fmt_duration(void)
{
	char b[SVG_NUM_BUFSZ];

	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(0, b, sizeof(b)), "0");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(500, b, sizeof(b)), "500ms");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(1500, b, sizeof(b)), "1.5s");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(45000, b, sizeof(b)), "45s");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(90000, b, sizeof(b)), "1m30s");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(60000, b, sizeof(b)), "1m");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(5400000, b, sizeof(b)), "1h30m");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(5415000, b, sizeof(b)), "1h30m");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(3600000 + 5000, b, sizeof(b)), "1h");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(86400000, b, sizeof(b)), "1d");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(93600000, b, sizeof(b)), "1d2h");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(-90000, b, sizeof(b)), "-1m30s");
	CU_ASSERT_STRING_EQUAL(svg_fmt_duration(INT64_MIN, b, sizeof(b)), "-106751991167d7h");
}

static void test_ticks_num(void)
{
	double t[32], step;
	size_t n;

	n = svg_ticks_num(0, 10, 6, t, 32, &step);
	CU_ASSERT_EQUAL(n, 6);
	CU_ASSERT_DOUBLE_EQUAL(step, 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[5], 10, 1e-12);

	/* Step 0.02 would need 0..0.1, six ticks: 0.05 it is. */
	n = svg_ticks_num(0.013, 0.087, 5, t, 32, &step);
	CU_ASSERT_DOUBLE_EQUAL(step, 0.05, 1e-12);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 0.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[2], 0.1, 1e-12);
	n = svg_ticks_num(0.013, 0.087, 6, t, 32, &step);
	CU_ASSERT_DOUBLE_EQUAL(step, 0.02, 1e-12);
	CU_ASSERT_EQUAL(n, 6);

	n = svg_ticks_num(-3, 47, 12, t, 32, &step);
	CU_ASSERT_DOUBLE_EQUAL(step, 5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[0], -5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[n - 1], 50, 1e-12);
	CU_ASSERT_EQUAL(n, 12);
	n = svg_ticks_num(-3, 47, 11, t, 32, &step);
	CU_ASSERT_DOUBLE_EQUAL(step, 10, 1e-12);
	CU_ASSERT_EQUAL(n, 7);

	/* A single value is widened to a unit around it. */
	n = svg_ticks_num(4, 4, 3, t, 32, &step);
	CU_ASSERT_DOUBLE_EQUAL(step, 0.5, 1e-12);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 3.5, 1e-12);

	/* Capacity bounds the output. */
	n = svg_ticks_num(0, 100, 100, t, 4, &step);
	CU_ASSERT_EQUAL(n, 4);
}

static void test_ticks_time(void)
{
	int64_t t[64], step;
	size_t n;

	n = svg_ticks_time(0, 3600000, 7, t, 64, &step);
	CU_ASSERT_EQUAL(step, 600000);
	CU_ASSERT_EQUAL(n, 7);
	CU_ASSERT_EQUAL(t[6], 3600000);

	n = svg_ticks_time(0, 5400000, 8, t, 64, &step);
	CU_ASSERT_EQUAL(step, 900000);
	CU_ASSERT_EQUAL(n, 7);
	n = svg_ticks_time(0, 3600001, 7, t, 64, &step);
	CU_ASSERT_EQUAL(step, 900000);
	CU_ASSERT_EQUAL(n, 6);

	n = svg_ticks_time(0, 3 * 86400000LL, 10, t, 64, &step);
	CU_ASSERT_EQUAL(step, 43200000);
	CU_ASSERT_EQUAL(n, 7);

	n = svg_ticks_time(0, 800, 5, t, 64, &step);
	CU_ASSERT_EQUAL(step, 200);
	CU_ASSERT_EQUAL(n, 5);
	n = svg_ticks_time(-1500, 1500, 4, t, 64, &step);
	/* Steps of 1s would need -2s..2s, five ticks: 2s steps from -2s. */
	CU_ASSERT_EQUAL(step, 2000);
	CU_ASSERT_EQUAL(t[0], -2000);
	CU_ASSERT_EQUAL(n, 3);

	/* Not starting at a multiple: the first tick is at or before lo. */
	n = svg_ticks_time(61000, 299000, 6, t, 64, &step);
	CU_ASSERT_EQUAL(step, 60000);
	CU_ASSERT_EQUAL(t[0], 60000);
	CU_ASSERT_EQUAL(t[n - 1], 300000);

	/* A year: multiples of 28 days. */
	n = svg_ticks_time(0, 365 * 86400000LL, 5, t, 64, &step);
	CU_ASSERT_EQUAL(step % 2419200000LL, 0);
	CU_ASSERT(n <= 6);
	CU_ASSERT(t[n - 1] >= 365 * 86400000LL);

	/* An empty range still gives ticks. */
	n = svg_ticks_time(0, 0, 5, t, 64, &step);
	CU_ASSERT_EQUAL(step, 1);
	CU_ASSERT_EQUAL(n, 2);
}

static void test_shapes(void)
{
	struct fx_cap c;
	FILE *f = fx_cap_open(&c);

	svg_open(f, "g1", 200, 100, "Gate <q>", "a & b");
	svg_rect(f, 1.25, 2, 10.04, -3, "ph-applying", "ws \"a\"");
	svg_line(f, 0, 0, 5.55, 5, "m-halt", NULL);
	svg_circle(f, 3, 4, 2.5, "v-pass", NULL);
	svg_text(f, 10, 20, "end", "lbl", "x<y", 0);
	svg_text(f, 10, 20, "start", NULL, "abcdef", 4);
	{
		double xs[] = { 0, 1.5, 3 }, ys[] = { 10, 5, 0.05 };

		svg_polyline(f, xs, ys, 3, "series");
		svg_polyline(f, xs, ys, 0, "series");
	}
	svg_close(f);
	CU_ASSERT_STRING_EQUAL(
		fx_cap_text(&c),
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" id=\"g1\" "
		"aria-labelledby=\"g1-title\" width=\"200\" height=\"100\" viewBox=\"0 0 200 100\">\n"
		"<title id=\"g1-title\">Gate &lt;q&gt;</title>\n"
		"<desc>a &amp; b</desc>\n"
		"<rect x=\"1.2\" y=\"2\" width=\"10\" height=\"0\" class=\"ph-applying\">"
		"<title>ws &quot;a&quot;</title></rect>\n"
		"<line x1=\"0\" y1=\"0\" x2=\"5.5\" y2=\"5\" class=\"m-halt\"/>\n"
		"<circle cx=\"3\" cy=\"4\" r=\"2.5\" class=\"v-pass\"/>\n"
		"<text x=\"10\" y=\"20\" text-anchor=\"end\" class=\"lbl\">x&lt;y</text>\n"
		"<text x=\"10\" y=\"20\">abc…</text>\n"
		"<polyline points=\"0,10 1.5,5 3,0.1\" class=\"series\"/>\n"
		"</svg>\n");
	free(c.buf);
}

static void test_axes(void)
{
	struct fx_cap c;
	struct svg_frame fr = { 50, 410, 10, 110 };
	const char *s;

	svg_axis_time(fx_cap_open(&c), &fr, 0, 5400000, "time");
	s = fx_cap_text(&c);
	/* 360 px: at most 5 ticks -> 30 min steps: 0, 30m, 1h, 1h30m. */
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ">0</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ">30m</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ">1h</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<text x=\"410\" y=\"125\" text-anchor=\"middle\" class=\"lbl\">1h30m</text>"));
	CU_ASSERT_PTR_NULL(strstr(s, ">2h</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<text x=\"410\" y=\"139\" text-anchor=\"end\" class=\"cap\">time</text>"));
	free(c.buf);

	svg_axis_num(fx_cap_open(&c), &fr, 0, 0.1, "ratio", false);
	s = fx_cap_text(&c);
	/* 100 px: at most 4 ticks -> step 0.05: labels 0, 0.05, 0.1 with two decimals at most. */
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "class=\"lbl\">0</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<text x=\"44\" y=\"64\" text-anchor=\"end\" class=\"lbl\">0.05</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "class=\"lbl\">0.1</text>"));
	CU_ASSERT_PTR_NULL(strstr(s, "0.15"));
	free(c.buf);

	/* Counts: 0..2 would tick at 0.5; whole numbers only. */
	svg_axis_num(fx_cap_open(&c), &fr, 0, 2, "jobs", true);
	s = fx_cap_text(&c);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "class=\"lbl\">1</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "class=\"lbl\">2</text>"));
	CU_ASSERT_PTR_NULL(strstr(s, "0.5"));
	free(c.buf);
}

static void test_legend(void)
{
	struct fx_cap c;
	struct svg_legend_item it[] = { { "ph-planning", "planning" }, { "ph-applying", "applying" },
					{ "v-fail", "gate Failing" } };
	double y;

	/* Each entry is 14 + 6.6 * chars + 14 px: 80.8, 80.8, 107.2; the third wraps at 200. */
	y = svg_legend(fx_cap_open(&c), 10, 20, 200, it, 3);
	CU_ASSERT_DOUBLE_EQUAL(y, 36, 1e-9);
	CU_ASSERT_PTR_NOT_NULL(strstr(fx_cap_text(&c), "<rect x=\"10\" y=\"27\" width=\"10\" height=\"10\" class=\"v-fail\"/>"));
	free(c.buf);
}

static void test_css(void)
{
	struct fx_cap c;
	const char *s;

	svg_css(fx_cap_open(&c));
	s = fx_cap_text(&c);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "prefers-color-scheme:dark"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "@media print"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ".ph-soaking{"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ".m-rollback{"));
	free(c.buf);
}

static void test_polygon_box(void)
{
	struct fx_cap c;
	FILE *f = fx_cap_open(&c);
	double xs[] = { 0, 10, 10 }, ys[] = { 0, 0, 5 }, q[5] = { 1, 2, 3, 4, 5 };

	svg_polygon(f, xs, ys, 3, "band", "t<");
	svg_polygon(f, xs, ys, 0, "band", NULL);
	svg_box_h(f, 10, 8, q, "s1", "p50 3");
	svg_box_h(f, 10, 8, q, NULL, NULL);
	CU_ASSERT_STRING_EQUAL(fx_cap_text(&c),
			       "<polygon points=\"0,0 10,0 10,5\" class=\"band\"><title>t&lt;</title>"
			       "</polygon>\n"
			       "<g class=\"boxplot\"><title>p50 3</title>\n"
			       "<line x1=\"1\" y1=\"10\" x2=\"2\" y2=\"10\" class=\"whisk\"/>\n"
			       "<line x1=\"4\" y1=\"10\" x2=\"5\" y2=\"10\" class=\"whisk\"/>\n"
			       "<line x1=\"1\" y1=\"8\" x2=\"1\" y2=\"12\" class=\"whisk\"/>\n"
			       "<line x1=\"5\" y1=\"8\" x2=\"5\" y2=\"12\" class=\"whisk\"/>\n"
			       "<rect x=\"2\" y=\"6\" width=\"2\" height=\"8\" class=\"box s1\"/>\n"
			       "<line x1=\"3\" y1=\"6\" x2=\"3\" y2=\"14\" class=\"med\"/>\n"
			       "</g>\n"
			       "<g class=\"boxplot\">\n"
			       "<line x1=\"1\" y1=\"10\" x2=\"2\" y2=\"10\" class=\"whisk\"/>\n"
			       "<line x1=\"4\" y1=\"10\" x2=\"5\" y2=\"10\" class=\"whisk\"/>\n"
			       "<line x1=\"1\" y1=\"8\" x2=\"1\" y2=\"12\" class=\"whisk\"/>\n"
			       "<line x1=\"5\" y1=\"8\" x2=\"5\" y2=\"12\" class=\"whisk\"/>\n"
			       "<rect x=\"2\" y=\"6\" width=\"2\" height=\"8\" class=\"box\"/>\n"
			       "<line x1=\"3\" y1=\"6\" x2=\"3\" y2=\"14\" class=\"med\"/>\n"
			       "</g>\n");
	free(c.buf);
}

static void test_step_cdf(void)
{
	/* Four values and one more trial beyond them (censored): the curve ends at 4/5. */
	double v[] = { 10, 20, 20, 40 }, xs[8], ys[8];
	struct svg_scale x = { 0, 40, 0, 40 }, y = { 0, 1, 100, 0 };
	size_t n = svg_step_cdf(v, 4, 5, &x, &y, 10, xs, ys, 8);

	CU_ASSERT_EQUAL_FATAL(n, 5);
	CU_ASSERT_DOUBLE_EQUAL(xs[0], 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(xs[4], 40, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(ys[0], 100, 1e-9); /* nothing <= 0 */
	CU_ASSERT_DOUBLE_EQUAL(ys[1], 80, 1e-9);  /* 1 of 5 <= 10 */
	CU_ASSERT_DOUBLE_EQUAL(ys[2], 40, 1e-9);  /* 3 of 5 <= 20 */
	CU_ASSERT_DOUBLE_EQUAL(ys[3], 40, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(ys[4], 20, 1e-9); /* 4 of 5: the censored one never counts */
	/* The last column is always sampled, even off the step. */
	x.r1 = 35;
	n = svg_step_cdf(v, 4, 4, &x, &y, 10, xs, ys, 8);
	CU_ASSERT_EQUAL(n, 5);
	CU_ASSERT_DOUBLE_EQUAL(xs[4], 35, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(ys[4], 0, 1e-9);
	/* Bounded by the caller's room and by the width, never by the values. */
	CU_ASSERT_EQUAL(svg_step_cdf(v, 4, 4, &x, &y, 10, xs, ys, 2), 2);
	CU_ASSERT_EQUAL(svg_step_cdf(v, 4, 0, &x, &y, 10, xs, ys, 8), 0);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "escape", test_escape },
		{ "escape_max", test_escape_max },
		{ "fmt_num", test_fmt_num },
		{ "fmt_duration", test_fmt_duration },
		{ "ticks_num", test_ticks_num },
		{ "ticks_time", test_ticks_time },
		{ "shapes", test_shapes },
		{ "axes", test_axes },
		{ "legend", test_legend },
		{ "css", test_css },
		{ "polygon_box", test_polygon_box },
		{ "step_cdf", test_step_cdf },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("svg", tests);
}
