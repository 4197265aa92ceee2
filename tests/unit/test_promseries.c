/*
 * sim/load/promseries: promtool's expanding notation and the instant-query lookup.
 * The expected values are Prometheus's own: the cases of its parser tests
 * (promql/parser/parse_test.go testSeries, lex_test.go "series
 * descriptions"), the examples of docs/configuration/unit_testing_rules.md,
 * and the lookback rule of promql/engine.go vectorSelectorSingle.  Error
 * texts are what promtool prints after `parse error: `; columns count within
 * the values text.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sim/load/promseries.h"
#include "tests/unit/cu_main.h"

#define M -1e300 /* marks a missing sample in the expectation lists */
#define S -2e300 /* marks a staleness marker */
#define END -3e300

struct ok_case {
	const char *name;
	const char *in;
	double want[24]; /* terminated by END */
};

static const struct ok_case ok_cases[] = {
	/* parse_test.go testSeries (the values after the metric) */
	{ "testSeries 1 2 3", "1 2 3", { 1, 2, 3, END } },
	{ "testSeries -1 2 3", "-1 2 3", { -1, 2, 3, END } },
	{ "testSeries 3-10x4 decrements", "1 2 3-10x4", { 1, 2, 3, -7, -17, -27, -37, END } },
	{ "testSeries 3-0x4 repeats", "1 2 3-0x4", { 1, 2, 3, 3, 3, 3, 3, END } },
	{ "testSeries 1x0 is one sample", "1x0", { 1, END } },
	{ "testSeries 1+1x0 is one sample", "1+1x0", { 1, END } },
	{ "testSeries _x4 is four missing samples", "1 3 _ 5 _x4", { 1, 3, M, 5, M, M, M, M, END } },
	{ "testSeries negative plain value", "1 -1", { 1, -1, END } },
	{ "testSeries explicit plus sign", "1 +1", { 1, 1, END } },
	{ "testSeries mixed signs and a negative start", "1 -1 -3-10x4 7 9 +5",
	  { 1, -1, -3, -13, -23, -33, -43, 7, 9, 5, END } },
	{ "testSeries signs", "1 +1 +4 -6 -2 8", { 1, 1, 4, -6, -2, 8, END } },
	{ "testSeries trailing spaces", "1 2 3    ", { 1, 2, 3, END } },
	{ "TestParseSeriesDesc 0+50x2", "0+50x2", { 0, 50, 100, END } },
	/* unit_testing_rules.md examples */
	{ "docs example 1: -2+4x3", "-2+4x3", { -2, 2, 6, 10, END } },
	{ "docs example 2: 1-2x4", " 1-2x4", { 1, -1, -3, -5, -7, END } },
	{ "docs example 3: 1x4 is N+1 samples", " 1x4", { 1, 1, 1, 1, 1, END } },
	{ "docs example 4: _x3 gives N missing samples, then stale", " 1 _x3 stale", { 1, M, M, M, S, END } },
	/* numbers as PromQL's parser.number reads them */
	{ "Inf and NaN in any case, signed by a separate token", "+Inf Inf -Inf inf INF",
	  { INFINITY, INFINITY, -INFINITY, INFINITY, INFINITY, END } },
	{ "exponent, leading dot, trailing dot", "1e3 .5 5. 2.5e-1", { 1000, 0.5, 5, 0.25, END } },
	{ "leading zero is octal (Go ParseInt base 0)", "010 08 0 00", { 8, 8, 0, 0, END } },
	{ "underscores between digits", "1_000 1_0.5", { 1000, 10.5, END } },
	{ "0x3 is not hexadecimal: 0 repeated", "0x3", { 0, 0, 0, 0, END } },
	{ "Inf+0x2 repeats Inf", "Inf+0x2", { INFINITY, INFINITY, INFINITY, END } },
	{ "stale+1x2: the marker, then NaN", "stale+1x2", { S, NAN, NAN, END } },
	{ "_x0 produces nothing", "1 _x0 2", { 1, 2, END } },
	{ "tabs and newlines separate", "1\t2\n3\r\n4", { 1, 2, 3, 4, END } },
	{ "empty text", "", { END } },
	{ "blank text", "   ", { END } },
};

static bool same(double a, double b)
{
	if (isnan(a) && isnan(b))
		return true;
	return a == b;
}

static void test_parse_ok(void)
{
	for (size_t c = 0; c < sizeof(ok_cases) / sizeof(ok_cases[0]); c++) {
		const struct ok_case *k = &ok_cases[c];
		struct ps_series s;
		struct ps_error e;
		int rc = ps_parse(k->in, &s, &e);
		if (rc != PS_OK)
			fprintf(stderr, "\n%s: %d:%d: %s\n", k->name, e.line, e.col, e.msg);
		CU_ASSERT_EQUAL_FATAL(rc, PS_OK);
		size_t n = 0;
		while (k->want[n] != END)
			n++;
		if (s.nsamples != n)
			fprintf(stderr, "\n%s: %llu samples, want %zu\n", k->name, (unsigned long long)s.nsamples, n);
		CU_ASSERT_EQUAL(s.nsamples, n);
		for (size_t i = 0; i < n && i < s.nsamples; i++) {
			double v = 12345;
			enum ps_kind kind = ps_at(&s, i, &v);
			bool good;
			if (k->want[i] == M)
				good = kind == PS_MISSING;
			else if (k->want[i] == S)
				good = kind == PS_STALE;
			else
				good = kind == PS_VALUE && same(v, k->want[i]);
			if (!good)
				fprintf(stderr, "\n%s: sample %zu kind %d value %g\n", k->name, i, kind, v);
			CU_ASSERT(good);
		}
		ps_series_release(&s);
	}
}

struct err_case {
	const char *name;
	const char *in;
	int line, col;
	const char *msg;
};

static const struct err_case err_cases[] = {
	/* parse_test.go testSeries failures, with promtool's texts and positions */
	{ "testSeries 1+1 lacks the repetition", "1+1", 1, 4, "unexpected end of input in series values" },
	{ "testSeries -3-3 -3", "-3-3 -3", 1, 5, "unexpected \" \" in series values" },
	{ "testSeries -3 -3-3", "-3 -3-3", 1, 8, "unexpected end of input in series values" },
	{ "testSeries _-2: a missing sample cannot increment", "-3 _-2", 1, 5,
	  "unexpected <op:-> in series values" },
	{ "testSeries 3+3x4-4", "-3 3+3x4-4", 1, 9, "unexpected <op:-> in series values" },
	{ "testSeries _a4", "1 3 _ 5 _a4", 1, 10, "unexpected identifier \"a4\" in series values" },
	/* words */
	{ "a word other than stale", "1 foo", 1, 3,
	  "unexpected identifier \"foo\" in series values, expected number or \"stale\"" },
	{ "stalex3 is one word", "stalex3", 1, 1,
	  "unexpected identifier \"stalex3\" in series values, expected number or \"stale\"" },
	{ "Infinity is not a keyword", "Infinity", 1, 1,
	  "unexpected identifier \"Infinity\" in series values, expected number or \"stale\"" },
	/* durations are not values in a series */
	{ "a duration is a bad number", "1m", 1, 1, "bad number syntax: \"1\"" },
	{ "a compound duration later in the text", "5 1h30m", 1, 3, "bad number syntax: \"1\"" },
	{ "a trailing underscore at the end", "1_", 1, 1, "bad number syntax: \"1_\"" },
	{ "a double dot", "1..2", 1, 1, "bad number syntax: \"1..\"" },
	{ "a trailing underscore before a blank", "1_ 2", 1, 1,
	  "error parsing number: strconv.ParseFloat: parsing \"1_\": invalid syntax" },
	{ "a bare exponent", "1e x", 1, 1, "error parsing number: strconv.ParseFloat: parsing \"1e\": invalid syntax" },
	{ "an overflowing value", "1 1e400", 1, 3,
	  "error parsing number: strconv.ParseFloat: parsing \"1e400\": value out of range" },
	/* characters */
	{ "an operator character", "1 * 2", 1, 3, "unexpected character in series sequence: '*'" },
	{ "a comma", "1,2", 1, 2, "unexpected character in series sequence: ','" },
	{ "a quote", "'1'", 1, 1, "unexpected character in series sequence: '\\''" },
	{ "a lone x", "1 x 2", 1, 3, "unexpected \"x\" in series values" },
	{ "x without a count", "1x", 1, 3, "unexpected end of input in series values" },
	{ "x with a negative count", "1x-3", 1, 3, "unexpected <op:-> in series values" },
	{ "repetition of a fraction", "1x1.5", 1, 3,
	  "invalid repetition in series values: strconv.ParseUint: parsing \"1.5\": invalid syntax" },
	{ "repetition beyond uint64", "_x99999999999999999999", 1, 3,
	  "invalid repetition in series values: strconv.ParseUint: parsing \"99999999999999999999\": value out of range" },
	{ "two items without a blank", "1x2x3", 1, 4, "unexpected \"x\" in series values" },
	{ "a long number after an item is cut to 10 characters", "_12345678901234", 1, 2,
	  "unexpected \"1234567890\"... in series values" },
	{ "line and column after a newline", "1 2\n3 x", 2, 3, "unexpected \"x\" in series values" },
	{ "a newline where a repetition count belongs", "1+1\n2", 1, 4, "unexpected \"\\n\" in series values" },
	{ "native histograms", "1 {{schema:1}}", 1, 3, "native histogram series values are not supported" },
	/* our refusals where promtool would allocate without bound */
	{ "arithmetic beyond the computed-sample cap", "0+1x5000000", 1, 5,
	  "series values need more than 4194304 computed samples" },
	{ "more samples than int64", "1x9223372036854775807 1", 1, 3,
	  "series values expand to more than 9223372036854775807 samples" },
};

static void test_parse_errors(void)
{
	for (size_t c = 0; c < sizeof(err_cases) / sizeof(err_cases[0]); c++) {
		const struct err_case *k = &err_cases[c];
		struct ps_series s;
		struct ps_error e;
		int rc = ps_parse(k->in, &s, &e);
		CU_ASSERT_EQUAL(rc, PS_ESYNTAX);
		if (e.line != k->line || e.col != k->col || strcmp(e.msg, k->msg) != 0)
			fprintf(stderr, "\n%s: got %d:%d: %s\n  want %d:%d: %s\n", k->name, e.line, e.col, e.msg,
				k->line, k->col, k->msg);
		CU_ASSERT_EQUAL(e.line, k->line);
		CU_ASSERT_EQUAL(e.col, k->col);
		CU_ASSERT_STRING_EQUAL(e.msg, k->msg);
		CU_ASSERT_EQUAL(s.nsamples, 0);
		CU_ASSERT_PTR_NULL(s.runs);
		ps_series_release(&s);
	}
}

static void test_arithmetic_is_repeated_addition(void)
{
	struct ps_series s;
	CU_ASSERT_EQUAL_FATAL(ps_parse("0.1+0.1x9", &s, NULL), PS_OK);
	double want = 0.1, v = 0;
	for (int i = 1; i <= 9; i++)
		want += 0.1;
	CU_ASSERT_EQUAL(ps_at(&s, 9, &v), PS_VALUE);
	CU_ASSERT_EQUAL(v, want);           /* 0.9999999999999999 */
	CU_ASSERT_NOT_EQUAL(v, 0.1 + 9 * 0.1); /* not a + k*b */
	ps_series_release(&s);

	/* -0+0x2: the sum turns -0 into +0, while -0x2 keeps -0 */
	CU_ASSERT_EQUAL_FATAL(ps_parse("-0+0x2 -0x1", &s, NULL), PS_OK);
	CU_ASSERT_EQUAL(ps_at(&s, 0, &v), PS_VALUE);
	CU_ASSERT(signbit(v));
	CU_ASSERT_EQUAL(ps_at(&s, 1, &v), PS_VALUE);
	CU_ASSERT(!signbit(v));
	CU_ASSERT_EQUAL(ps_at(&s, 4, &v), PS_VALUE);
	CU_ASSERT(signbit(v));
	ps_series_release(&s);
}

static void test_long_runs_cost_nothing(void)
{
	struct ps_series s;
	double v = 0;
	CU_ASSERT_EQUAL_FATAL(ps_parse("0.001x1000000000000 _x1000000000 1e308+1e308x5 7", &s, NULL), PS_OK);
	CU_ASSERT_EQUAL(s.nsamples, UINT64_C(1000000000001) + 1000000000 + 6 + 1);
	CU_ASSERT_EQUAL(s.ncomputed, 1); /* 1e308+1e308 overflows to Inf, then Inf is a fixpoint */
	CU_ASSERT_EQUAL(ps_at(&s, UINT64_C(999999999999), &v), PS_VALUE);
	CU_ASSERT_EQUAL(v, 0.001);
	CU_ASSERT_EQUAL(ps_at(&s, UINT64_C(1000000000001), NULL), PS_MISSING);
	CU_ASSERT_EQUAL(ps_at(&s, UINT64_C(1001000000001), &v), PS_VALUE);
	CU_ASSERT_EQUAL(v, 1e308);
	CU_ASSERT_EQUAL(ps_at(&s, UINT64_C(1001000000003), &v), PS_VALUE);
	CU_ASSERT(isinf(v) && v > 0);
	CU_ASSERT_EQUAL(ps_at(&s, s.nsamples - 1, &v), PS_VALUE);
	CU_ASSERT_EQUAL(v, 7);
	CU_ASSERT_EQUAL(ps_at(&s, s.nsamples, NULL), PS_MISSING);
	ps_series_release(&s);
	ps_series_release(NULL);
}

#define MIN_MS INT64_C(60000)

struct sample_case {
	const char *name;
	const char *in;
	int64_t interval, t;
	int want_rc;
	double want;
};

static const struct sample_case sample_cases[] = {
	{ "sample 0 sits at time 0", "1 2 3", MIN_MS, 0, 1, 1 },
	{ "between samples the older one holds", "1 2 3", MIN_MS, 59999, 1, 1 },
	{ "a sample exactly at t is used", "1 2 3", MIN_MS, 60000, 1, 2 },
	{ "before scenario start: no sample", "1 2 3", MIN_MS, -1, 0, 0 },
	{ "last sample still inside the lookback", "1 2 3", MIN_MS, 120000 + 299999, 1, 3 },
	{ "lookback is left-open: exactly 5m old is out", "1 2 3", MIN_MS, 120000 + 300000, 0, 0 },
	{ "missing samples are skipped back to an older one", "1 _x4", MIN_MS, 240000, 1, 1 },
	{ "skipping stops at the lookback edge", "1 _x5", MIN_MS, 300000, 0, 0 },
	{ "several missing runs are crossed", "4 _ _x2 _", MIN_MS, 240000, 1, 4 },
	{ "a staleness marker gives no sample", "1 stale 3", MIN_MS, 60000, 0, 0 },
	{ "a staleness marker hides older samples", "1 stale 3", MIN_MS, 119999, 0, 0 },
	{ "a sample after the marker is seen", "1 stale 3", MIN_MS, 120000, 1, 3 },
	{ "a marker behind missing samples still hides", "1 stale _x3", MIN_MS, 200000, 0, 0 },
	{ "recovery after an outage", "0.01x2 _x10 0.02", MIN_MS, 12 * 60000 + 1, 0, 0 },
	{ "recovery after an outage: the new sample", "0.01x2 _x10 0.02", MIN_MS, 13 * 60000, 1, 0.02 },
	{ "NaN is returned as it is", "NaN", MIN_MS, 0, 1, NAN },
	{ "-Inf is returned as it is", "-Inf", MIN_MS, 10, 1, -INFINITY },
	{ "an empty series has no sample", "", MIN_MS, 0, 0, 0 },
	{ "15s interval: sample 3 at 45s", "0+1x10", 15000, 45000, 1, 3 },
	{ "after the end the last sample holds for the lookback", "0+1x10", 15000, 150000 + 299999, 1, 10 },
	{ "the stale+b NaNs after the marker are samples", "stale+1x2", MIN_MS, 60000, 1, NAN },
};

static void test_sample(void)
{
	for (size_t c = 0; c < sizeof(sample_cases) / sizeof(sample_cases[0]); c++) {
		const struct sample_case *k = &sample_cases[c];
		struct ps_series s;
		double v = 12345;
		CU_ASSERT_EQUAL_FATAL(ps_parse(k->in, &s, NULL), PS_OK);
		int rc = ps_sample(&s, k->interval, k->t, &v);
		bool good = rc == k->want_rc && (rc == 0 ? v == 12345 : same(v, k->want));
		if (!good)
			fprintf(stderr, "\n%s: rc %d value %g\n", k->name, rc, v);
		CU_ASSERT(good);
		ps_series_release(&s);
	}
}

static void test_sample_lookback(void)
{
	struct ps_series s;
	double v = 0;
	CU_ASSERT_EQUAL_FATAL(ps_parse("5 _x20", &s, NULL), PS_OK);
	CU_ASSERT_EQUAL(ps_sample_lookback(&s, 1000, 9999, 10000, &v), 1);
	CU_ASSERT_EQUAL(v, 5);
	CU_ASSERT_EQUAL(ps_sample_lookback(&s, 1000, 10000, 10000, &v), 0);
	CU_ASSERT_EQUAL(ps_sample_lookback(&s, 1000, 10000, 10001, &v), 1);
	/* t far past the end of a long series: no overflow, no sample */
	CU_ASSERT_EQUAL(ps_sample(&s, 1000, INT64_MAX, &v), 0);
	ps_series_release(&s);
	CU_ASSERT_EQUAL(ps_sample(NULL, 1000, 0, &v), 0);
}

static CU_TestInfo tests[] = {
	{ "parse: promtool's examples and parser tests", test_parse_ok },
	{ "parse errors: promtool's messages and columns", test_parse_errors },
	{ "a+bxN is repeated addition, -0 and +0 as Go computes", test_arithmetic_is_repeated_addition },
	{ "long runs are stored as runs", test_long_runs_cost_nothing },
	{ "instant query: lookback, stale, missing", test_sample },
	{ "instant query with an explicit lookback", test_sample_lookback },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("promseries", tests);
}
