/*
 * engine/gofmt: every function against what Go printed for the same input
 * (tests/unit/gofmt/table.h, written by tests/unit/gofmt/gen.go), and the
 * cases Go cannot print (durations beyond its range) by hand.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/gofmt/table.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_duration(void)
{
	char out[GOFMT_DURATION_LEN];

	for (size_t i = 0; i < N(dur_ns); i++) {
		gofmt_duration(dur_ns[i].ns, out);
		if (strcmp(out, dur_ns[i].want) != 0)
			fprintf(stderr, "Duration(%lld): got %s, Go %s\n", (long long)dur_ns[i].ns, out,
				dur_ns[i].want);
		CU_ASSERT_STRING_EQUAL(out, dur_ns[i].want);
	}
}

static void test_duration_ms(void)
{
	char out[GOFMT_DURATION_LEN];

	for (size_t i = 0; i < N(dur_ms); i++) {
		gofmt_duration_ms(dur_ms[i].ms, out);
		if (strcmp(out, dur_ms[i].want) != 0)
			fprintf(stderr, "Duration(%lld ms): got %s, Go %s\n", (long long)dur_ms[i].ms, out,
				dur_ms[i].want);
		CU_ASSERT_STRING_EQUAL(out, dur_ms[i].want);
	}
	/* beyond Go's range the same form goes on, without overflow */
	CU_ASSERT_STRING_EQUAL(gofmt_duration_ms(INT64_MAX, out), "2562047788015h12m55.807s");
	CU_ASSERT_STRING_EQUAL(gofmt_duration_ms(INT64_MIN, out), "-2562047788015h12m55.808s");
	CU_ASSERT_STRING_EQUAL(gofmt_duration_ms(INT64_C(9223372036855), out), "2562047h47m16.855s");
}

static void test_uint(void)
{
	char out[GOFMT_UINT_LEN];

	/* strconv.FormatUint(v, 10) */
	CU_ASSERT_STRING_EQUAL(gofmt_uint(0, out), "0");
	CU_ASSERT_STRING_EQUAL(gofmt_uint(7, out), "7");
	CU_ASSERT_STRING_EQUAL(gofmt_uint(10, out), "10");
	CU_ASSERT_STRING_EQUAL(gofmt_uint(1000000, out), "1000000");
	CU_ASSERT_STRING_EQUAL(gofmt_uint(UINT64_MAX, out), "18446744073709551615");
	CU_ASSERT_PTR_EQUAL(gofmt_uint(UINT64_MAX, out), out);
}

static void test_float(void)
{
	char out[GOFMT_FLOAT_LEN];

	for (size_t i = 0; i < N(floats); i++) {
		gofmt_float(floats[i].v, floats[i].fmt, floats[i].bits, out);
		if (strcmp(out, floats[i].want) != 0)
			fprintf(stderr, "FormatFloat(%.17g, '%c', -1, %d): got %s, Go %s\n", floats[i].v,
				floats[i].fmt, floats[i].bits, out, floats[i].want);
		CU_ASSERT_STRING_EQUAL(out, floats[i].want);
	}
}

static void test_float_special(void)
{
	char out[GOFMT_FLOAT_LEN];

	CU_ASSERT_STRING_EQUAL(gofmt_float(strtod("nan", NULL), 'g', 64, out), "NaN");
	CU_ASSERT_STRING_EQUAL(gofmt_float(strtod("inf", NULL), 'f', 64, out), "+Inf");
	CU_ASSERT_STRING_EQUAL(gofmt_float(-strtod("inf", NULL), 'e', 64, out), "-Inf");
	/* a double too large for a float32 is +Inf at 32 bits */
	CU_ASSERT_STRING_EQUAL(gofmt_float(1e300, 'g', 32, out), "+Inf");
}

static void test_json_float(void)
{
	char out[GOFMT_FLOAT_LEN];

	for (size_t i = 0; i < N(json_floats); i++) {
		gofmt_json_float(json_floats[i].v, out);
		if (strcmp(out, json_floats[i].want) != 0)
			fprintf(stderr, "json.Marshal(%.17g): got %s, Go %s\n", json_floats[i].v, out,
				json_floats[i].want);
		CU_ASSERT_STRING_EQUAL(out, json_floats[i].want);
	}
}

static void check_str(const char *what, size_t i, char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		fprintf(stderr, "%s of strs[%zu]: got %s, Go %s\n", what, i, got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

static void test_quotes(void)
{
	for (size_t i = 0; i < N(strs); i++) {
		check_str("strconv.Quote", i, gofmt_quote(strs[i].s), strs[i].quote);
		check_str("time's quote", i, gofmt_time_quote(strs[i].s), strs[i].time_quote);
		check_str("json.Marshal", i, gofmt_json_string(strs[i].s), strs[i].json);
	}
}

static CU_TestInfo tests[] = {
	{ "time.Duration.String", test_duration },
	{ "time.Duration.String of ms, beyond Go's range too", test_duration_ms },
	{ "strconv.FormatUint(v, 10)", test_uint },
	{ "strconv.FormatFloat(v, 'e'/'f'/'g', -1, 32/64)", test_float },
	{ "FormatFloat of NaN, infinities and float32 overflow", test_float_special },
	{ "encoding/json float64", test_json_float },
	{ "strconv.Quote, time's quote, encoding/json strings", test_quotes },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("gofmt", tests);
}
