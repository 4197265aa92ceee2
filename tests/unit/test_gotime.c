/*
 * sim/base/gotime: Go's duration and RFC 3339 syntax.  The expected values are
 * Go's own: the cases of Go's time package tests (parseDurationTests,
 * parseDurationErrorTests, durationTests) and the examples of its docs, plus
 * the spellings our specs use.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sim/base/gotime.h"
#include "tests/unit/cu_main.h"

#define NS INT64_C(1)
#define US (1000 * NS)
#define MS (1000 * US)
#define SEC (1000 * MS)
#define MIN (60 * SEC)
#define HOUR (60 * MIN)

struct dur_case {
	const char *in;
	int64_t ns;
};

static const struct dur_case parse_ok[] = {
	/* simple */
	{ "0", 0 },
	{ "5s", 5 * SEC },
	{ "30s", 30 * SEC },
	{ "1478s", 1478 * SEC },
	/* sign */
	{ "-5s", -5 * SEC },
	{ "+5s", 5 * SEC },
	{ "-0", 0 },
	{ "+0", 0 },
	/* decimal */
	{ "5.0s", 5 * SEC },
	{ "5.6s", 5 * SEC + 600 * MS },
	{ "5.s", 5 * SEC },
	{ ".5s", 500 * MS },
	{ "1.0s", 1 * SEC },
	{ "1.00s", 1 * SEC },
	{ "1.004s", 1 * SEC + 4 * MS },
	{ "1.0040s", 1 * SEC + 4 * MS },
	{ "100.00100s", 100 * SEC + 1 * MS },
	{ "1.0000000001s", 1 * SEC }, /* below 1 ns: the float product truncates */
	{ "0.5ns", 0 },
	/* units */
	{ "10ns", 10 * NS },
	{ "11us", 11 * US },
	{ "12\xc2\xb5s", 12 * US }, /* U+00B5 micro sign */
	{ "12\xce\xbcs", 12 * US }, /* U+03BC greek mu */
	{ "13ms", 13 * MS },
	{ "14s", 14 * SEC },
	{ "15m", 15 * MIN },
	{ "16h", 16 * HOUR },
	/* composite */
	{ "3h30m", 3 * HOUR + 30 * MIN },
	{ "10.5s4m", 4 * MIN + 10 * SEC + 500 * MS },
	{ "-2m3.4s", -(2 * MIN + 3 * SEC + 400 * MS) },
	{ "1h2m3s4ms5us6ns", HOUR + 2 * MIN + 3 * SEC + 4 * MS + 5 * US + 6 * NS },
	{ "1h1m1s1ms1us1ns", HOUR + MIN + SEC + MS + US + NS },
	{ "39h9m14.425s", 39 * HOUR + 9 * MIN + 14 * SEC + 425 * MS },
	{ "1h15m30.918273645s", HOUR + 15 * MIN + 30 * SEC + 918273645 * NS },
	{ "1.5h", 90 * MIN },
	{ "1h30m", 90 * MIN },
	/* large values and precision */
	{ "52763797000ns", 52763797000 * NS },
	{ "0.3333333333333333333h", 20 * MIN },
	{ "9007199254740993ns", (INT64_C(1) << 53) + 1 },
	{ "9223372036854775807ns", INT64_MAX },
	{ "9223372036854775.807us", INT64_MAX },
	{ "9223372036s854ms775us807ns", INT64_MAX },
	{ "2562047h47m16.854775807s", INT64_MAX },
	{ "-9223372036854775808ns", INT64_MIN },
	{ "-9223372036854775.808us", INT64_MIN },
	{ "-9223372036s854ms775us808ns", INT64_MIN },
	{ "-2562047h47m16.854775808s", INT64_MIN },
	{ "0.100000000000000000000h", 6 * MIN },
	{ "0.830103483285477580700h", 49 * MIN + 48 * SEC + 372539827 * NS },
	/* the spellings of our specs and scenarios */
	{ "3m0s", 3 * MIN },
	{ "1h0m0s", HOUR },
	{ "1m30s", 90 * SEC },
	{ "500ms", 500 * MS },
	{ "0s", 0 },
	{ "45m0s", 45 * MIN },
	{ "2m0s", 2 * MIN },
	{ "90s", 90 * SEC },
	{ "24h", 24 * HOUR },
};

static void test_parse_ns(void)
{
	size_t i;

	for (i = 0; i < sizeof(parse_ok) / sizeof(parse_ok[0]); i++) {
		int64_t got = -42;
		char err[128] = "untouched";
		int rc = gt_parse_duration_ns(parse_ok[i].in, &got, err, sizeof(err));

		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_EQUAL(got, parse_ok[i].ns);
		CU_ASSERT_STRING_EQUAL(err, "untouched");
		if (rc != 0 || got != parse_ok[i].ns)
			fprintf(stderr, "\n  parse %s: rc %d got %lld want %lld (%s)\n",
				parse_ok[i].in, rc, (long long)got, (long long)parse_ok[i].ns,
				err);
	}
}

static void test_parse_ms_truncates(void)
{
	static const struct {
		const char *in;
		int64_t ms;
	} cases[] = {
		{ "1.9ms", 1 },  { "-1.9ms", -1 }, { "999us", 0 },   { "-999999ns", 0 },
		{ "1500us", 1 }, { "-1500us", -1 }, { "1.5s", 1500 }, { ".5s", 500 },
		{ "3m0s", 180000 }, { "1h0m0s", 3600000 }, { "1m30s", 90000 },
		{ "1h1m1s1ms1us1ns", 3661001 }, { "-9223372036854775808ns", -9223372036854 },
		{ "2562047h47m16.854775807s", 9223372036854 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t got = -42;

		CU_ASSERT_EQUAL(gt_parse_duration(cases[i].in, &got, NULL, 0), 0);
		CU_ASSERT_EQUAL(got, cases[i].ms);
		if (got != cases[i].ms)
			fprintf(stderr, "\n  parse ms %s: got %lld want %lld\n", cases[i].in,
				(long long)got, (long long)cases[i].ms);
	}
}

static const struct {
	const char *in;
	int rc;
	const char *err;
} parse_bad[] = {
	{ "", GT_EINVAL, "time: invalid duration \"\"" },
	{ "3", GT_EINVAL, "time: missing unit in duration \"3\"" },
	{ "1", GT_EINVAL, "time: missing unit in duration \"1\"" },
	{ "1h30", GT_EINVAL, "time: missing unit in duration \"1h30\"" },
	{ "-", GT_EINVAL, "time: invalid duration \"-\"" },
	{ "+", GT_EINVAL, "time: invalid duration \"+\"" },
	{ "s", GT_EINVAL, "time: invalid duration \"s\"" },
	{ ".", GT_EINVAL, "time: invalid duration \".\"" },
	{ "-.", GT_EINVAL, "time: invalid duration \"-.\"" },
	{ ".s", GT_EINVAL, "time: invalid duration \".s\"" },
	{ "+.s", GT_EINVAL, "time: invalid duration \"+.s\"" },
	{ "--5s", GT_EINVAL, "time: invalid duration \"--5s\"" },
	{ " 5s", GT_EINVAL, "time: invalid duration \" 5s\"" },
	{ "00", GT_EINVAL, "time: missing unit in duration \"00\"" },
	{ "1d", GT_EINVAL, "time: unknown unit \"d\" in duration \"1d\"" },
	{ "5S", GT_EINVAL, "time: unknown unit \"S\" in duration \"5S\"" },
	{ "5 s", GT_EINVAL, "time: unknown unit \" s\" in duration \"5 s\"" },
	{ "1\xc2\xb5", GT_EINVAL,
	  "time: unknown unit \"\\xc2\\xb5\" in duration \"1\\xc2\\xb5\"" },
	{ "5\"s", GT_EINVAL, "time: unknown unit \"\\\"s\" in duration \"5\\\"s\"" },
	{ "\x85\x85", GT_EINVAL, "time: invalid duration \"\\x85\\x85\"" },
	{ "\xff" "ff", GT_EINVAL, "time: invalid duration \"\\xffff\"" },
	{ "hello \xff" "ff world", GT_EINVAL, "time: invalid duration \"hello \\xffff world\"" },
	{ "\xef\xbf\xbd", GT_EINVAL, "time: invalid duration \"\\xef\\xbf\\xbd\"" },
	/* overflow: Go says "invalid duration"; we also say which kind */
	{ "9223372036854775810ns", GT_ERANGE, "time: invalid duration \"9223372036854775810ns\"" },
	{ "9223372036854775808ns", GT_ERANGE, "time: invalid duration \"9223372036854775808ns\"" },
	{ "-9223372036854775809ns", GT_ERANGE,
	  "time: invalid duration \"-9223372036854775809ns\"" },
	{ "9223372036854776us", GT_ERANGE, "time: invalid duration \"9223372036854776us\"" },
	{ "3000000h", GT_ERANGE, "time: invalid duration \"3000000h\"" },
	{ "2562048h", GT_ERANGE, "time: invalid duration \"2562048h\"" },
	{ "9223372036854775.808us", GT_ERANGE,
	  "time: invalid duration \"9223372036854775.808us\"" },
	{ "9223372036854ms775us808ns", GT_ERANGE,
	  "time: invalid duration \"9223372036854ms775us808ns\"" },
	{ "99999999999999999999s", GT_ERANGE, "time: invalid duration \"99999999999999999999s\"" },
};

static void test_parse_errors(void)
{
	size_t i;

	for (i = 0; i < sizeof(parse_bad) / sizeof(parse_bad[0]); i++) {
		int64_t ns = 7, ms = 7;
		char err[160] = "";
		int rc = gt_parse_duration_ns(parse_bad[i].in, &ns, err, sizeof(err));

		CU_ASSERT_EQUAL(rc, parse_bad[i].rc);
		CU_ASSERT_EQUAL(ns, 7);
		CU_ASSERT_STRING_EQUAL(err, parse_bad[i].err);
		if (rc != parse_bad[i].rc || strcmp(err, parse_bad[i].err) != 0)
			fprintf(stderr, "\n  bad %s: rc %d err [%s]\n", parse_bad[i].in, rc, err);
		err[0] = '\0';
		CU_ASSERT_EQUAL(gt_parse_duration(parse_bad[i].in, &ms, err, sizeof(err)),
				parse_bad[i].rc);
		CU_ASSERT_EQUAL(ms, 7);
		CU_ASSERT_STRING_EQUAL(err, parse_bad[i].err);
	}
}

static void test_parse_error_buffer(void)
{
	int64_t ns;
	char err[12];

	/* NULL buffer and a short one: truncated, terminated, same code. */
	CU_ASSERT_EQUAL(gt_parse_duration_ns("1d", &ns, NULL, 0), GT_EINVAL);
	memset(err, 'x', sizeof(err));
	CU_ASSERT_EQUAL(gt_parse_duration_ns("1d", &ns, err, sizeof(err)), GT_EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "time: unkno");
	memset(err, 'x', sizeof(err));
	CU_ASSERT_EQUAL(gt_parse_duration_ns("1d", &ns, err, 1), GT_EINVAL);
	CU_ASSERT_EQUAL(err[0], '\0');
	CU_ASSERT_EQUAL(err[1], 'x');
}

static const struct dur_case format_ns_cases[] = {
	{ "0s", 0 },
	{ "1ns", 1 * NS },
	{ "1.1\xc2\xb5s", 1100 * NS },
	{ "1.5\xc2\xb5s", 1500 * NS },
	{ "2.2ms", 2200 * US },
	{ "3.3s", 3300 * MS },
	{ "4m5s", 4 * MIN + 5 * SEC },
	{ "4m5.001s", 4 * MIN + 5001 * MS },
	{ "5h6m7.001s", 5 * HOUR + 6 * MIN + 7001 * MS },
	{ "8m0.000000001s", 8 * MIN + 1 * NS },
	{ "2562047h47m16.854775807s", INT64_MAX },
	{ "-2562047h47m16.854775808s", INT64_MIN },
	{ "1h15m30.918273645s", HOUR + 15 * MIN + 30 * SEC + 918273645 * NS },
	{ "1h2m0.3s", HOUR + 2 * MIN + 300 * MS },
	{ "300ms", 300 * MS },
	{ "1\xc2\xb5s", 1 * US },
	{ "999ns", 999 * NS },
	{ "-1ns", -1 * NS },
	{ "-1m30s", -90 * SEC },
	{ "10h0m0s", 10 * HOUR },
	{ "1h10m10s", HOUR + 10 * MIN + 10 * SEC },
};

static void test_format_ns(void)
{
	size_t i;

	for (i = 0; i < sizeof(format_ns_cases) / sizeof(format_ns_cases[0]); i++) {
		char buf[GT_DURATION_BUFSZ];
		size_t n = gt_format_duration_ns(format_ns_cases[i].ns, buf, sizeof(buf));

		CU_ASSERT_STRING_EQUAL(buf, format_ns_cases[i].in);
		CU_ASSERT_EQUAL(n, strlen(format_ns_cases[i].in));
	}
}

static void test_format_ms(void)
{
	static const struct {
		int64_t ms;
		const char *out;
	} cases[] = {
		{ 0, "0s" },
		{ 1, "1ms" },
		{ 500, "500ms" },
		{ 999, "999ms" },
		{ 1000, "1s" },
		{ 1500, "1.5s" },
		{ 1001, "1.001s" },
		{ 1010, "1.01s" },
		{ 30000, "30s" },
		{ 90000, "1m30s" },
		{ 120000, "2m0s" },
		{ 180000, "3m0s" },
		{ 2700000, "45m0s" },
		{ 3600000, "1h0m0s" },
		{ 9900500, "2h45m0.5s" },
		{ -90000, "-1m30s" },
		{ -1, "-1ms" },
		{ -500, "-500ms" },
		{ 86400000, "24h0m0s" },
		/* Go's limit, the largest whole ms inside it, and beyond. */
		{ 9223372036854, "2562047h47m16.854s" },
		{ INT64_MAX, "2562047788015h12m55.807s" },
		{ INT64_MIN, "-2562047788015h12m55.808s" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[GT_DURATION_BUFSZ], nsbuf[GT_DURATION_BUFSZ];

		CU_ASSERT_EQUAL(gt_format_duration(cases[i].ms, buf, sizeof(buf)),
				strlen(cases[i].out));
		CU_ASSERT_STRING_EQUAL(buf, cases[i].out);
		/* Inside Go's range the ms text is the ns text of the same value. */
		if (cases[i].ms <= 9223372036854 && cases[i].ms >= -9223372036854) {
			gt_format_duration_ns(cases[i].ms * MS, nsbuf, sizeof(nsbuf));
			CU_ASSERT_STRING_EQUAL(buf, nsbuf);
		}
	}
}

static void test_format_truncation(void)
{
	char buf[5];

	memset(buf, 'x', sizeof(buf));
	CU_ASSERT_EQUAL(gt_format_duration(9900500, buf, sizeof(buf)), 9);
	CU_ASSERT_STRING_EQUAL(buf, "2h45");
	CU_ASSERT_EQUAL(gt_format_duration(9900500, NULL, 0), 9);
	memset(buf, 'x', sizeof(buf));
	CU_ASSERT_EQUAL(gt_format_duration_ns(1100, buf, 1), 6); /* "1.1µs" is 6 bytes */
	CU_ASSERT_EQUAL(buf[0], '\0');
	CU_ASSERT_EQUAL(buf[1], 'x');
}

/* Every formatted value parses back to itself (Go guarantees the same). */
static void test_round_trip(void)
{
	uint64_t x = 88172645463325252u;
	int i;

	for (i = 0; i < 20000; i++) {
		char buf[GT_DURATION_BUFSZ];
		int64_t ns, back_ns = 0, ms, back_ms = 0;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* spread over all magnitudes: shift a random value by a random amount */
		ns = (int64_t)(x >> (x % 64));
		if (x & 1)
			ns = -ns;
		gt_format_duration_ns(ns, buf, sizeof(buf));
		CU_ASSERT_EQUAL_FATAL(gt_parse_duration_ns(buf, &back_ns, NULL, 0), 0);
		CU_ASSERT_EQUAL_FATAL(back_ns, ns);
		ms = ns / 1000000;
		gt_format_duration(ms, buf, sizeof(buf));
		CU_ASSERT_EQUAL_FATAL(gt_parse_duration(buf, &back_ms, NULL, 0), 0);
		CU_ASSERT_EQUAL_FATAL(back_ms, ms);
	}
}

static void test_rfc3339_parse(void)
{
	static const struct {
		const char *in;
		int64_t sec;
		int32_t nsec;
	} cases[] = {
		{ "1970-01-01T00:00:00Z", 0, 0 },
		{ "2026-04-26T10:00:00Z", 1777197600, 0 },
		{ "2026-04-26T10:00:00+05:30", 1777177800, 0 },
		{ "2026-04-26T10:00:00-08:00", 1777226400, 0 },
		{ "2026-04-26T10:00:00+00:00", 1777197600, 0 },
		{ "2026-04-26T10:00:00-00:00", 1777197600, 0 },
		{ "2024-02-29T23:59:59Z", 1709251199, 0 },
		{ "2000-02-29T12:34:56Z", 951827696, 0 },
		{ "1900-03-01T00:00:00Z", -2203891200, 0 },
		{ "0000-01-01T00:00:00Z", -62167219200, 0 },
		{ "0000-02-29T00:00:00Z", -62167219200 + 59 * 86400, 0 },
		{ "9999-12-31T23:59:59Z", 253402300799, 0 },
		{ "2026-04-26T10:00:00.5Z", 1777197600, 500000000 },
		{ "2026-04-26T10:00:00.123456789Z", 1777197600, 123456789 },
		{ "2026-04-26T10:00:00.1234567899Z", 1777197600, 123456789 },
		{ "2026-04-26T10:00:00.000000001+01:00", 1777194000, 1 },
		/* Go's parser accepts 24 h and 60 min offsets */
		{ "2026-04-26T10:00:00+24:00", 1777197600 - 86400, 0 },
		{ "2026-04-26T10:00:00-01:60", 1777197600 + 7200, 0 },
		{ "1969-12-31T23:59:59.5Z", -1, 500000000 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t sec = -7;
		int32_t nsec = -7;
		char err[128] = "";
		int rc = gt_parse_rfc3339_ns(cases[i].in, &sec, &nsec, err, sizeof(err));

		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_EQUAL(sec, cases[i].sec);
		CU_ASSERT_EQUAL(nsec, cases[i].nsec);
		if (rc || sec != cases[i].sec || nsec != cases[i].nsec)
			fprintf(stderr, "\n  rfc3339 %s: rc %d %lld.%09d (%s)\n", cases[i].in, rc,
				(long long)sec, (int)nsec, err);
	}
}

static void test_rfc3339_parse_ms(void)
{
	int64_t ms = 0;

	CU_ASSERT_EQUAL(gt_parse_rfc3339("2026-04-26T10:00:00.1239Z", &ms, NULL, 0), 0);
	CU_ASSERT_EQUAL(ms, INT64_C(1777197600123));
	/* Before the epoch the sub-ms part still rounds toward the past. */
	CU_ASSERT_EQUAL(gt_parse_rfc3339("1969-12-31T23:59:59.9995Z", &ms, NULL, 0), 0);
	CU_ASSERT_EQUAL(ms, -1);
	CU_ASSERT_EQUAL(gt_parse_rfc3339("1969-12-31T23:59:59.5Z", &ms, NULL, 0), 0);
	CU_ASSERT_EQUAL(ms, -500);
	CU_ASSERT_EQUAL(gt_parse_rfc3339_ns("1970-01-01T00:00:00Z", &ms, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(ms, 0);
}

static void test_rfc3339_errors(void)
{
	static const struct {
		const char *in;
		const char *err;
	} cases[] = {
		{ "2026-02-30T00:00:00Z", "parsing time \"2026-02-30T00:00:00Z\": day out of range" },
		{ "2023-02-29T00:00:00Z", "parsing time \"2023-02-29T00:00:00Z\": day out of range" },
		{ "1900-02-29T00:00:00Z", "parsing time \"1900-02-29T00:00:00Z\": day out of range" },
		{ "2026-04-31T00:00:00Z", "parsing time \"2026-04-31T00:00:00Z\": day out of range" },
		{ "2026-04-00T00:00:00Z", "parsing time \"2026-04-00T00:00:00Z\": day out of range" },
		{ "2026-13-01T00:00:00Z", "parsing time \"2026-13-01T00:00:00Z\": month out of range" },
		{ "2026-00-01T00:00:00Z", "parsing time \"2026-00-01T00:00:00Z\": month out of range" },
		{ "2026-04-26T24:00:00Z", "parsing time \"2026-04-26T24:00:00Z\": hour out of range" },
		{ "2026-04-26T10:60:00Z",
		  "parsing time \"2026-04-26T10:60:00Z\": minute out of range" },
		{ "2026-12-31T23:59:60Z",
		  "parsing time \"2026-12-31T23:59:60Z\": second out of range" },
		{ "2026-04-26T10:00:00+25:00",
		  "parsing time \"2026-04-26T10:00:00+25:00\": time zone offset hour out of range" },
		{ "2026-04-26T10:00:00+01:61",
		  "parsing time \"2026-04-26T10:00:00+01:61\": time zone offset minute out of range" },
		{ "2026-04-26t10:00:00Z", "parsing time \"2026-04-26t10:00:00Z\" as "
					  "\"2006-01-02T15:04:05Z07:00\": not RFC 3339" },
	};
	static const char *const syntax[] = {
		"",
		"2026-04-26",
		"2026-04-26T10:00:00",
		"2026-04-26T10:00:00z",
		"2026-04-26 10:00:00Z",
		"2026-04-26T10:00Z",
		"2026-4-26T10:00:00Z",
		"26-04-26T10:00:00Z",
		"2026-04-26T10:00:00.Z",
		"2026-04-26T10:00:00,5Z",
		"2026-04-26T10:00:00+0100",
		"2026-04-26T10:00:00+01:00:00",
		"2026-04-26T10:00:00ZZ",
		"2026-04-26T10:00:00Z ",
		"2026-04-26T1a:00:00Z",
		"+2026-04-26T10:00:00Z",
		"2026-04-26T10:00:00 +01:00",
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t ms = 7;
		char err[160] = "";

		CU_ASSERT_EQUAL(gt_parse_rfc3339(cases[i].in, &ms, err, sizeof(err)), GT_EINVAL);
		CU_ASSERT_EQUAL(ms, 7);
		CU_ASSERT_STRING_EQUAL(err, cases[i].err);
		if (strcmp(err, cases[i].err) != 0)
			fprintf(stderr, "\n  rfc3339 bad %s: [%s]\n", cases[i].in, err);
	}
	for (i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++) {
		int64_t ms = 7;
		char err[160] = "";

		CU_ASSERT_EQUAL(gt_parse_rfc3339(syntax[i], &ms, err, sizeof(err)), GT_EINVAL);
		CU_ASSERT_EQUAL(ms, 7);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "not RFC 3339"));
		CU_ASSERT_EQUAL(strncmp(err, "parsing time \"", 14), 0);
	}
}

static void test_rfc3339_format(void)
{
	static const struct {
		int64_t ms;
		const char *sec;
		const char *nano;
	} cases[] = {
		{ 0, "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z" },
		{ INT64_C(1777197600000), "2026-04-26T10:00:00Z", "2026-04-26T10:00:00Z" },
		{ INT64_C(1777197600500), "2026-04-26T10:00:00Z", "2026-04-26T10:00:00.5Z" },
		{ INT64_C(1777197600120), "2026-04-26T10:00:00Z", "2026-04-26T10:00:00.12Z" },
		{ INT64_C(1777197600123), "2026-04-26T10:00:00Z", "2026-04-26T10:00:00.123Z" },
		{ INT64_C(1777197600001), "2026-04-26T10:00:00Z", "2026-04-26T10:00:00.001Z" },
		{ INT64_C(1709251199999), "2024-02-29T23:59:59Z", "2024-02-29T23:59:59.999Z" },
		{ INT64_C(951827696000), "2000-02-29T12:34:56Z", "2000-02-29T12:34:56Z" },
		{ -1, "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.999Z" },
		{ -500, "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.5Z" },
		{ -1000, "1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z" },
		{ INT64_C(-2203891200000), "1900-03-01T00:00:00Z", "1900-03-01T00:00:00Z" },
		{ INT64_C(-62167219200000), "0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z" },
		{ INT64_C(-62167219200001), "-0001-12-31T23:59:59Z", "-0001-12-31T23:59:59.999Z" },
		{ INT64_C(253402300799000), "9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z" },
		{ INT64_C(253402300800000), "10000-01-01T00:00:00Z", "10000-01-01T00:00:00Z" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[GT_RFC3339_BUFSZ];

		CU_ASSERT_EQUAL(gt_format_rfc3339(cases[i].ms, buf, sizeof(buf)),
				strlen(cases[i].sec));
		CU_ASSERT_STRING_EQUAL(buf, cases[i].sec);
		CU_ASSERT_EQUAL(gt_format_rfc3339_nano(cases[i].ms, buf, sizeof(buf)),
				strlen(cases[i].nano));
		CU_ASSERT_STRING_EQUAL(buf, cases[i].nano);
	}
}

/*
 * The formatter writes its digits by hand: it agrees with printf's
 * "%04lld-%02d-%02dT%02d:%02d:%02dZ" of the broken-down time (struct tm from
 * gmtime_r, which covers these years) at varying times of day from 1902 to
 * 2100, whole seconds and with milliseconds.
 */
static void test_rfc3339_format_vs_printf(void)
{
	for (int64_t sec = INT64_C(-2147483648); sec < INT64_C(4102444800); sec += 86400 * 7 + 3607) {
		for (int k = 0; k < 3; k++) {
			int64_t ms = sec * 1000 + (k == 0 ? 0 : k == 1 ? 7 : 990);
			time_t t = (time_t)sec;
			struct tm tm;
			char want[64], got[GT_RFC3339_BUFSZ];
			int n;

			gmtime_r(&t, &tm);
			n = snprintf(want, sizeof(want), "%04d-%02d-%02dT%02d:%02d:%02d",
				     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
				     tm.tm_min, tm.tm_sec);
			gt_format_rfc3339(ms, got, sizeof(got));
			want[n] = 'Z';
			want[n + 1] = '\0';
			CU_ASSERT_STRING_EQUAL_FATAL(got, want);
			if (k) {
				snprintf(want + n, sizeof(want) - (size_t)n, k == 1 ? ".007Z" : ".99Z");
				gt_format_rfc3339_nano(ms, got, sizeof(got));
				CU_ASSERT_STRING_EQUAL_FATAL(got, want);
			}
		}
	}
}

/* Every third day from 1600 to 2399, at varying times of day, round-trips. */
static void test_rfc3339_round_trip(void)
{
	int64_t day;

	for (day = -135140; day < 157000; day += 3) {
		char buf[GT_RFC3339_BUFSZ];
		int64_t ms = day * 86400000 + (day * 7919 % 86400000 + 86400000) % 86400000,
			back = 0;

		gt_format_rfc3339_nano(ms, buf, sizeof(buf));
		CU_ASSERT_EQUAL_FATAL(gt_parse_rfc3339(buf, &back, NULL, 0), 0);
		CU_ASSERT_EQUAL_FATAL(back, ms);
	}
	{
		char buf[GT_RFC3339_BUFSZ];

		/* Extremes do not crash and keep their shape. */
		gt_format_rfc3339(INT64_MAX, buf, sizeof(buf));
		CU_ASSERT_STRING_EQUAL(buf, "292278994-08-17T07:12:55Z");
		gt_format_rfc3339(INT64_MIN, buf, sizeof(buf));
		CU_ASSERT_STRING_EQUAL(buf, "-292275055-05-16T16:47:04Z");
	}
}

static void test_truncate(void)
{
	CU_ASSERT_EQUAL(gt_truncate_to_second(0), 0);
	CU_ASSERT_EQUAL(gt_truncate_to_second(999), 0);
	CU_ASSERT_EQUAL(gt_truncate_to_second(1000), 1000);
	CU_ASSERT_EQUAL(gt_truncate_to_second(1999), 1000);
	CU_ASSERT_EQUAL(gt_truncate_to_second(-1), -1000);
	CU_ASSERT_EQUAL(gt_truncate_to_second(-999), -1000);
	CU_ASSERT_EQUAL(gt_truncate_to_second(-1000), -1000);
	CU_ASSERT_EQUAL(gt_truncate_to_second(-1001), -2000);
	CU_ASSERT_EQUAL(gt_truncate_to_second(INT64_MAX), INT64_C(9223372036854775000));
	CU_ASSERT_EQUAL(gt_truncate_to_second(INT64_MIN), INT64_C(-9223372036854775000));
	CU_ASSERT_EQUAL(gt_truncate_to_second(INT64_MIN + 807), INT64_C(-9223372036854775000));
	CU_ASSERT_EQUAL(gt_truncate_to_second(INT64_MIN + 808), INT64_C(-9223372036854775000));
	CU_ASSERT_EQUAL(gt_truncate_to_second(INT64_MIN + 809), INT64_C(-9223372036854775000));
}

static void test_metav1_store(void)
{
	const int64_t whole = INT64_C(1777197600000); /* 2026-04-26T10:00:00Z */
	const int64_t odd = whole + 250;                /* anchor 250 ms past a second */

	CU_ASSERT_EQUAL(gt_metav1_store(whole, 0), 0);
	CU_ASSERT_EQUAL(gt_metav1_store(whole, 1999), 1000);
	CU_ASSERT_EQUAL(gt_metav1_store(whole, 90500), 90000);
	/* Truncation happens on the wall time, not on the simulated time. */
	CU_ASSERT_EQUAL(gt_metav1_store(odd, 0), -250);
	CU_ASSERT_EQUAL(gt_metav1_store(odd, 749), -250);
	CU_ASSERT_EQUAL(gt_metav1_store(odd, 750), 750);
	CU_ASSERT_EQUAL(gt_metav1_store(odd, 1999), 1750);
	/* Anchor 0 (no wall clock): plain truncation, floor for negatives. */
	CU_ASSERT_EQUAL(gt_metav1_store(0, 12345), 12000);
	CU_ASSERT_EQUAL(gt_metav1_store(0, -1), -1000);
}

static CU_TestInfo gotime_tests[] = {
	{ "parse ns: Go's parseDurationTests and ours", test_parse_ns },
	{ "parse ms truncates toward zero", test_parse_ms_truncates },
	{ "parse errors: Go's texts", test_parse_errors },
	{ "parse error buffer truncation", test_parse_error_buffer },
	{ "format ns: Go's durationTests", test_format_ns },
	{ "format ms", test_format_ms },
	{ "format truncation", test_format_truncation },
	{ "format/parse round trip", test_round_trip },
	{ "rfc3339 parse", test_rfc3339_parse },
	{ "rfc3339 parse ms", test_rfc3339_parse_ms },
	{ "rfc3339 errors", test_rfc3339_errors },
	{ "rfc3339 format", test_rfc3339_format },
	{ "rfc3339 format agrees with printf over 1902-2100", test_rfc3339_format_vs_printf },
	{ "rfc3339 round trip", test_rfc3339_round_trip },
	{ "truncate to second", test_truncate },
	{ "metav1 store", test_metav1_store },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("gotime", gotime_tests);
}
