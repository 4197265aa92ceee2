/*
 * engine/threshold: Go's strconv.ParseFloat (cases from Go's atof_test.go
 * table), path.Match (Go's match_test.go table), fmt %g (fmt_test.go),
 * and the metric-source threshold / allowlist cases of spec §5.D (M11,
 * M12, M13, M16) and §2.3.7.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/threshold.h"
#include "tests/unit/cu_main.h"

struct pf_case {
	const char *in;
	double out;
	int rc;
};

#define INF HUGE_VAL

/* strconv atof_test.go atoftests (float64), with the values written as C literals. */
static const struct pf_case pf_cases[] = {
	{ "", 0, THR_ESYNTAX },
	{ "1", 1, THR_OK },
	{ "+1", 1, THR_OK },
	{ "1x", 0, THR_ESYNTAX },
	{ "1.1.", 0, THR_ESYNTAX },
	{ "1e23", 1e23, THR_OK },
	{ "1E23", 1e23, THR_OK },
	{ "100000000000000000000000", 1e23, THR_OK },
	{ "1e-100", 1e-100, THR_OK },
	{ "123456700", 1.234567e+08, THR_OK },
	{ "99999999999999974834176", 9.999999999999997e+22, THR_OK },
	{ "100000000000000000000001", 1.0000000000000001e+23, THR_OK },
	{ "100000000000000016777216", 1.0000000000000003e+23, THR_OK },
	{ "-1", -1, THR_OK },
	{ "-0.1", -0.1, THR_OK },
	{ "625e-3", 0.625, THR_OK },
	{ ".5", 0.5, THR_OK },
	{ "5.", 5, THR_OK },
	{ "1e-3", 0.001, THR_OK },
	/* hexadecimal */
	{ "0x1p0", 1, THR_OK },
	{ "0x1p-1", 0.5, THR_OK },
	{ "0x1ep-1", 15, THR_OK },
	{ "-0x1_ep-1", -15, THR_OK },
	{ "0x1p-200", 6.223015277861142e-61, THR_OK },
	{ "0x1fFe2.p0", 131042, THR_OK },
	{ "0x1fFe2.P0", 131042, THR_OK },
	{ "0X0.fp4", 15, THR_OK },
	{ "0x1e2", 0, THR_ESYNTAX },
	{ "1p2", 0, THR_ESYNTAX },
	{ "0x1p-2", 0.25, THR_OK },
	{ "0x.1p-2", 0.015625, THR_OK },
	/* zeros and huge exponents */
	{ "0e+01234567890123456789", 0, THR_OK },
	{ "0x0p+01234567890123456789", 0, THR_OK },
	{ "0e348", 0, THR_OK },
	/* NaN and Inf */
	{ "nan", NAN, THR_OK },
	{ "NaN", NAN, THR_OK },
	{ "NAN", NAN, THR_OK },
	{ "inf", INF, THR_OK },
	{ "-Inf", -INF, THR_OK },
	{ "+INF", INF, THR_OK },
	{ "-Infinity", -INF, THR_OK },
	{ "+INFINITY", INF, THR_OK },
	{ "Infinity", INF, THR_OK },
	{ "+nan", 0, THR_ESYNTAX },
	{ "-NaN", 0, THR_ESYNTAX },
	{ "infin", 0, THR_ESYNTAX },
	{ "infx", 0, THR_ESYNTAX },
	{ "nanx", 0, THR_ESYNTAX },
	/* largest float64 and beyond */
	{ "1.7976931348623157e308", 1.7976931348623157e308, THR_OK },
	{ "0x1.fffffffffffffp1023", 1.7976931348623157e308, THR_OK },
	{ "1.7976931348623159e308", INF, THR_ERANGE },
	{ "-1.7976931348623159e308", -INF, THR_ERANGE },
	{ "0x1p1024", INF, THR_ERANGE },
	{ "1.7976931348623158e308", 1.7976931348623157e308, THR_OK },
	{ "1.797693134862315808e308", INF, THR_ERANGE },
	{ "0x1.fffffffffffff8p1023", INF, THR_ERANGE },
	{ "1e308", 1e308, THR_OK },
	{ "2e308", INF, THR_ERANGE },
	{ "1e400", INF, THR_ERANGE },
	{ "-1e400000", -INF, THR_ERANGE },
	{ "0x1p2000000000", INF, THR_ERANGE },
	/* denormals and underflow (not an error in Go) */
	{ "1e-310", 1e-310, THR_OK },
	{ "5e-324", 5e-324, THR_OK },
	{ "4e-324", 5e-324, THR_OK },
	{ "2e-324", 0, THR_OK },
	{ "1e-350", 0, THR_OK },
	{ "1e-400000", 0, THR_OK },
	{ "1e-4294967296", 0, THR_OK },
	{ "1e+4294967296", INF, THR_ERANGE },
	{ "1e-18446744073709551616", 0, THR_OK },
	{ "0x1p-18446744073709551616", 0, THR_OK },
	/* parse errors */
	{ "1e", 0, THR_ESYNTAX },
	{ "1e-", 0, THR_ESYNTAX },
	{ ".e-1", 0, THR_ESYNTAX },
	{ ".", 0, THR_ESYNTAX },
	{ "-", 0, THR_ESYNTAX },
	{ "0x", 0, THR_ESYNTAX },
	{ "0x.", 0, THR_ESYNTAX },
	{ "0x1", 0, THR_ESYNTAX },
	{ "0x.1", 0, THR_ESYNTAX },
	{ "0x1p", 0, THR_ESYNTAX },
	{ "0x1p+", 0, THR_ESYNTAX },
	{ "0x.1p-", 0, THR_ESYNTAX },
	{ " 1", 0, THR_ESYNTAX },
	{ "1 ", 0, THR_ESYNTAX },
	{ "0b101", 0, THR_ESYNTAX },
	{ "0.5%", 0, THR_ESYNTAX },
	/* round half to even */
	{ "1.00000000000000011102230246251565404236316680908203125", 1, THR_OK },
	{ "1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002, THR_OK },
	{ "0x1.00000000000008p0", 1, THR_OK },
	{ "0x1.000000000000081p0", 1.0000000000000002, THR_OK },
	/* underscores */
	{ "1_23.50_0_0e+1_2", 1.235e+14, THR_OK },
	{ "-_123.5e+12", 0, THR_ESYNTAX },
	{ "+_123.5e+12", 0, THR_ESYNTAX },
	{ "_123.5e+12", 0, THR_ESYNTAX },
	{ "1__23.5e+12", 0, THR_ESYNTAX },
	{ "123_.5e+12", 0, THR_ESYNTAX },
	{ "123._5e+12", 0, THR_ESYNTAX },
	{ "123.5_e+12", 0, THR_ESYNTAX },
	{ "123.5__0e+12", 0, THR_ESYNTAX },
	{ "123.5e_+12", 0, THR_ESYNTAX },
	{ "123.5e+_12", 0, THR_ESYNTAX },
	{ "123.5e_-12", 0, THR_ESYNTAX },
	{ "123.5e-_12", 0, THR_ESYNTAX },
	{ "123.5e+1__2", 0, THR_ESYNTAX },
	{ "123.5e+12_", 0, THR_ESYNTAX },
	{ "0x_1_2.3_4_5p+1_2", 74565, THR_OK },
	{ "-_0x12.345p+12", 0, THR_ESYNTAX },
	{ "_0x12.345p+12", 0, THR_ESYNTAX },
	{ "0x__12.345p+12", 0, THR_ESYNTAX },
	{ "0x1__2.345p+12", 0, THR_ESYNTAX },
	{ "0x12_.345p+12", 0, THR_ESYNTAX },
	{ "0x12._345p+12", 0, THR_ESYNTAX },
	{ "0x12.3__45p+12", 0, THR_ESYNTAX },
	{ "0x12.345_p+12", 0, THR_ESYNTAX },
	{ "0x12.345p_+12", 0, THR_ESYNTAX },
	{ "0x12.345p+_12", 0, THR_ESYNTAX },
	{ "0x12.345p+1__2", 0, THR_ESYNTAX },
	{ "0x12.345p+12_", 0, THR_ESYNTAX },
	{ "1_000", 1000, THR_OK },
	{ "0.000_1", 0.0001, THR_OK },
};

static void test_parse_float(void)
{
	for (size_t i = 0; i < sizeof(pf_cases) / sizeof(pf_cases[0]); i++) {
		const struct pf_case *c = &pf_cases[i];
		double f = -12345;
		int rc = thr_parse_float(c->in, &f);
		bool same = isnan(c->out) ? isnan(f) : (f == c->out && signbit(f) == signbit(c->out));

		if (rc != c->rc || !same)
			fprintf(stderr, "\nParseFloat(%s) = %.17g rc %d, want %.17g rc %d\n", c->in, f, rc,
				c->out, c->rc);
		CU_ASSERT_EQUAL(rc, c->rc);
		CU_ASSERT_TRUE(same);
	}
}

static void test_parse_float_zero_sign(void)
{
	double f = 1;

	CU_ASSERT_EQUAL(thr_parse_float("-0", &f), THR_OK);
	CU_ASSERT_TRUE(f == 0 && signbit(f));
	CU_ASSERT_EQUAL(thr_parse_float("-0x0.00p-01234567890123456789", &f), THR_OK);
	CU_ASSERT_TRUE(f == 0 && signbit(f));
	CU_ASSERT_EQUAL(thr_parse_float("+0e+0", &f), THR_OK);
	CU_ASSERT_TRUE(f == 0 && !signbit(f));
	CU_ASSERT_EQUAL(thr_parse_float("2.2250738585072012e-308", &f), THR_OK);
	CU_ASSERT_EQUAL(f, 2.2250738585072014e-308);
	CU_ASSERT_EQUAL(thr_parse_float("4.630813248087435e+307", &f), THR_OK);
	CU_ASSERT_EQUAL(f, 4.630813248087435e+307);
}

static void test_parse_float_error_text(void)
{
	char buf[THR_ERRLEN];

	CU_ASSERT_STRING_EQUAL(thr_parse_float_error("abc", THR_ESYNTAX, buf, sizeof(buf)),
			       "strconv.ParseFloat: parsing \"abc\": invalid syntax");
	CU_ASSERT_STRING_EQUAL(thr_parse_float_error("1e400", THR_ERANGE, buf, sizeof(buf)),
			       "strconv.ParseFloat: parsing \"1e400\": value out of range");
	CU_ASSERT_STRING_EQUAL(thr_parse_float_error("a\"b", THR_ESYNTAX, buf, sizeof(buf)),
			       "strconv.ParseFloat: parsing \"a\\\"b\": invalid syntax");
}

/* §5.D M12 / M13 and §2.3.7: inclusive bounds, absent = unbounded, bad bound = error. */
struct th_case {
	const char *rule, *min, *max;
	double value;
	int rc;
	bool ok;
	const char *err;
};

static const struct th_case th_cases[] = {
	{ "M12 no bounds: 5 passes", NULL, NULL, 5, THR_OK, true, NULL },
	{ "M12 max 0.01: 0.005 passes", NULL, "0.01", 0.005, THR_OK, true, NULL },
	{ "M12 max 0.01: 0.02 fails", NULL, "0.01", 0.02, THR_OK, false, NULL },
	{ "M12 max 0.01: 0.01 passes (inclusive)", NULL, "0.01", 0.01, THR_OK, true, NULL },
	{ "M12 min 0.05: 0.1 passes", "0.05", NULL, 0.1, THR_OK, true, NULL },
	{ "M12 min 0.05: 0.01 fails", "0.05", NULL, 0.01, THR_OK, false, NULL },
	{ "M12 min 0.05: 0.05 passes (inclusive)", "0.05", NULL, 0.05, THR_OK, true, NULL },
	{ "M12 min 0 max 1: 0.5 passes", "0", "1", 0.5, THR_OK, true, NULL },
	{ "M12 min 0 max 1: -0.1 fails", "0", "1", -0.1, THR_OK, false, NULL },
	{ "M12 min 0 max 1: 1.5 fails", "0", "1", 1.5, THR_OK, false, NULL },
	{ "M13 unparseable min is an error", "abc", "1", 0.5, THR_ESYNTAX, false,
	  "threshold min \"abc\" is not a number: strconv.ParseFloat: parsing \"abc\": invalid syntax" },
	{ "M13 unparseable max is an error", NULL, "1%", 0.5, THR_ESYNTAX, false,
	  "threshold max \"1%\" is not a number: strconv.ParseFloat: parsing \"1%\": invalid syntax" },
	{ "M13 empty max string is an error (§6 #23)", NULL, "", 0.5, THR_ESYNTAX, false,
	  "threshold max \"\" is not a number: strconv.ParseFloat: parsing \"\": invalid syntax" },
	{ "M13 out-of-range bound is an error", "1e400", NULL, 0.5, THR_ERANGE, false,
	  "threshold min \"1e400\" is not a number: strconv.ParseFloat: parsing \"1e400\": value out of range" },
	{ "§1.4 a failing min hides a malformed max", "1", "bad", 0.5, THR_OK, false, NULL },
	{ "§1.4 a passing min reaches the malformed max", "0", "bad", 0.5, THR_ESYNTAX, false,
	  "threshold max \"bad\" is not a number: strconv.ParseFloat: parsing \"bad\": invalid syntax" },
	{ "§2.3.7 a NaN bound never fails", "NaN", "nan", 1e9, THR_OK, true, NULL },
	{ "§2.3.7 exponent bound 1e-3", NULL, "1e-3", 0.0011, THR_OK, false, NULL },
	{ "§2.3.7 .5 bound", NULL, ".5", 0.5, THR_OK, true, NULL },
	{ "§2.3.7 +Inf max never fails", NULL, "+Inf", 1e300, THR_OK, true, NULL },
	{ "§2.3.7 -Inf min never fails", "-inf", NULL, -1e300, THR_OK, true, NULL },
	{ "§2.3.7 hex bound 0x1p-2", NULL, "0x1p-2", 0.25, THR_OK, true, NULL },
	{ "§2.3.7 hex bound 0x1p-2 exceeded", NULL, "0x1p-2", 0.2500001, THR_OK, false, NULL },
	{ "§2.3.7 underscores in a bound", NULL, "1_000", 999, THR_OK, true, NULL },
};

static void test_threshold_satisfied(void)
{
	for (size_t i = 0; i < sizeof(th_cases) / sizeof(th_cases[0]); i++) {
		const struct th_case *c = &th_cases[i];
		char err[THR_ERRLEN] = "";
		bool ok = !c->ok;
		int rc = thr_satisfied(c->min, c->max, c->value, &ok, err, sizeof(err));

		if (rc != c->rc || ok != c->ok)
			fprintf(stderr, "\n%s: rc %d ok %d\n", c->rule, rc, ok);
		CU_ASSERT_EQUAL(rc, c->rc);
		CU_ASSERT_EQUAL(ok, c->ok);
		if (c->err)
			CU_ASSERT_STRING_EQUAL(err, c->err);
	}
}

/* path/match_test.go matchTests, plus the '*' that does not cross '/'. */
struct pm_case {
	const char *pattern, *s;
	bool match;
	int rc;
};

static const struct pm_case pm_cases[] = {
	{ "abc", "abc", true, THR_OK },
	{ "*", "abc", true, THR_OK },
	{ "*c", "abc", true, THR_OK },
	{ "a*", "a", true, THR_OK },
	{ "a*", "abc", true, THR_OK },
	{ "a*", "ab/c", false, THR_OK },
	{ "a*/b", "abc/b", true, THR_OK },
	{ "a*/b", "a/c/b", false, THR_OK },
	{ "a*b*c*d*e*/f", "axbxcxdxe/f", true, THR_OK },
	{ "a*b*c*d*e*/f", "axbxcxdxexxx/f", true, THR_OK },
	{ "a*b*c*d*e*/f", "axbxcxdxe/xxx/f", false, THR_OK },
	{ "a*b*c*d*e*/f", "axbxcxdxexxx/fff", false, THR_OK },
	{ "a*b?c*x", "abxbbxdbxebxczzx", true, THR_OK },
	{ "a*b?c*x", "abxbbxdbxebxczzy", false, THR_OK },
	{ "ab[c]", "abc", true, THR_OK },
	{ "ab[b-d]", "abc", true, THR_OK },
	{ "ab[e-g]", "abc", false, THR_OK },
	{ "ab[^c]", "abc", false, THR_OK },
	{ "ab[^b-d]", "abc", false, THR_OK },
	{ "ab[^e-g]", "abc", true, THR_OK },
	{ "a\\*b", "a*b", true, THR_OK },
	{ "a\\*b", "ab", false, THR_OK },
	{ "a?b", "a\xe2\x98\xba" "b", true, THR_OK },
	{ "a[^a]b", "a\xe2\x98\xba" "b", true, THR_OK },
	{ "a???b", "a\xe2\x98\xba" "b", false, THR_OK },
	{ "a[^a][^a][^a]b", "a\xe2\x98\xba" "b", false, THR_OK },
	{ "[a-\xce\xb6]*", "\xce\xb1", true, THR_OK },
	{ "*[a-\xce\xb6]", "A", false, THR_OK },
	{ "a?b", "a/b", false, THR_OK },
	{ "a*b", "a/b", false, THR_OK },
	{ "[\\]a]", "]", true, THR_OK },
	{ "[\\-]", "-", true, THR_OK },
	{ "[x\\-]", "x", true, THR_OK },
	{ "[x\\-]", "-", true, THR_OK },
	{ "[x\\-]", "z", false, THR_OK },
	{ "[\\-x]", "x", true, THR_OK },
	{ "[\\-x]", "-", true, THR_OK },
	{ "[\\-x]", "a", false, THR_OK },
	{ "[]a]", "]", false, THR_EBADPATTERN },
	{ "[-]", "-", false, THR_EBADPATTERN },
	{ "[x-]", "x", false, THR_EBADPATTERN },
	{ "[x-]", "-", false, THR_EBADPATTERN },
	{ "[x-]", "z", false, THR_EBADPATTERN },
	{ "[-x]", "x", false, THR_EBADPATTERN },
	{ "[-x]", "-", false, THR_EBADPATTERN },
	{ "[-x]", "a", false, THR_EBADPATTERN },
	{ "\\", "a", false, THR_EBADPATTERN },
	{ "[a-b-c]", "a", false, THR_EBADPATTERN },
	{ "[", "a", false, THR_EBADPATTERN },
	{ "[^", "a", false, THR_EBADPATTERN },
	{ "[^bc", "a", false, THR_EBADPATTERN },
	{ "a[", "a", false, THR_EBADPATTERN },
	{ "a[", "ab", false, THR_EBADPATTERN },
	{ "a[", "x", false, THR_EBADPATTERN },
	{ "a/b[", "x", false, THR_EBADPATTERN },
	{ "*x", "xxx", true, THR_OK },
	/* host allowlist shapes */
	{ "*.example.com", "prom.example.com", true, THR_OK },
	{ "*.example.com", "example.com", false, THR_OK },
	{ "*.example.com", "a.b.example.com", true, THR_OK },
	{ "prometheus-?", "prometheus-1", true, THR_OK },
	{ "Prometheus", "prometheus", false, THR_OK },
	{ "", "", true, THR_OK },
	{ "", "a", false, THR_OK },
};

static void test_path_match(void)
{
	for (size_t i = 0; i < sizeof(pm_cases) / sizeof(pm_cases[0]); i++) {
		const struct pm_case *c = &pm_cases[i];
		bool m = !c->match;
		int rc = thr_path_match(c->pattern, c->s, &m);

		if (rc != c->rc || m != c->match)
			fprintf(stderr, "\nMatch(%s, %s) = %d rc %d\n", c->pattern, c->s, m, rc);
		CU_ASSERT_EQUAL(rc, c->rc);
		CU_ASSERT_EQUAL(m, c->match);
	}
}

/* §5.D M11 (address checks) and M16 (allowlist). */
static void test_url_hostname(void)
{
	struct {
		const char *address;
		int rc;
		const char *host;
	} cases[] = {
		{ "http://prometheus.monitoring:9090", THR_OK, "prometheus.monitoring" },
		{ "https://prom.example.com/", THR_OK, "prom.example.com" },
		{ "HTTP://Prom.Example.com./api", THR_OK, "Prom.Example.com." },
		{ "http://user:pw@prom:80/x?q=1#f", THR_OK, "prom" },
		{ "http://[::1]:9090/", THR_OK, "::1" },
		{ "http://[fe80::1]", THR_OK, "fe80::1" },
		{ "http://prom?x=a/b", THR_OK, "prom" },
		{ "://nope", THR_EURL, "" },
		{ "ftp://prom/", THR_EURL, "" },
		{ "http:///path", THR_EURL, "" },
		{ "http:prom", THR_EURL, "" },
		{ "prom:9090", THR_EURL, "" },
		{ "http://prom:abc/", THR_EURL, "" },
		{ "http://pr om/", THR_EURL, "" },
		{ "http://[::1/", THR_EURL, "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char host[128] = "x";
		int rc = thr_url_hostname(cases[i].address, host, sizeof(host));

		if (rc != cases[i].rc || strcmp(host, cases[i].host) != 0)
			fprintf(stderr, "\nhostname(%s) = %s rc %d\n", cases[i].address, host, rc);
		CU_ASSERT_EQUAL(rc, cases[i].rc);
		CU_ASSERT_STRING_EQUAL(host, cases[i].host);
	}
}

static void test_host_allowed(void)
{
	const char *list[] = { "prom.example.com", "*.internal", "[" };
	const char *star[] = { "*" };

	/* M16: empty list allows any host */
	CU_ASSERT_TRUE(thr_host_allowed(NULL, 0, "anything.example"));
	/* listed host */
	CU_ASSERT_TRUE(thr_host_allowed(list, 3, "prom.example.com"));
	/* one trailing '.' removed */
	CU_ASSERT_TRUE(thr_host_allowed(list, 3, "prom.example.com."));
	CU_ASSERT_FALSE(thr_host_allowed(list, 3, "prom.example.com.."));
	/* glob */
	CU_ASSERT_TRUE(thr_host_allowed(list, 3, "metrics.internal"));
	/* unlisted */
	CU_ASSERT_FALSE(thr_host_allowed(list, 3, "evil.example.com"));
	/* a bad pattern matches nothing, not even "[" */
	CU_ASSERT_FALSE(thr_host_allowed(list, 3, "["));
	/* `*` allows every host name (no '/' in a host) */
	CU_ASSERT_TRUE(thr_host_allowed(star, 1, "prom.example.com"));
	/* case-sensitive */
	CU_ASSERT_FALSE(thr_host_allowed(list, 3, "PROM.example.com"));
}

/* fmt_test.go %g rows with a precision, and the spec's examples for %.4g. */
static void test_format_g(void)
{
	struct {
		int prec;
		double v;
		const char *want;
	} cases[] = {
		{ 2, 12345.678, "1.2e+04" },
		{ 3, 0.00012345, "0.000123" },
		{ 4, 1, "1" },
		{ 4, 123456, "1.235e+05" },
		{ 2, 0.5, "0.5" },
		{ 2, 1.0, "1" },
		{ 1, 100, "1e+02" },
		{ 3, 0.0, "0" },
		{ 3, -1.0, "-1" },
		{ 4, 0.5, "0.5" },
		{ 4, 0.12345, "0.1235" },
		{ 4, 12346, "1.235e+04" },
		{ 4, 12345, "1.234e+04" }, /* exactly half: to even */
		{ 4, 0.00001, "1e-05" },
		{ 4, 0.0001, "0.0001" },
		{ 4, 1234, "1234" },
		{ 4, 1200, "1200" },
		{ 4, 9999.5, "1e+04" },
		{ 4, 0.05, "0.05" },
		{ 4, 1e100, "1e+100" },
		{ 4, -0.0, "-0" },
		{ 4, 5e-324, "4.941e-324" },
		{ 4, HUGE_VAL, "+Inf" },
		{ 4, -HUGE_VAL, "-Inf" },
		{ 4, NAN, "NaN" },
		{ 0, 123, "1e+02" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[THR_GBUFSZ];

		thr_format_g(cases[i].v, cases[i].prec, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want) != 0)
			fprintf(stderr, "\n%%.%dg: %s, want %s\n", cases[i].prec, buf, cases[i].want);
		CU_ASSERT_STRING_EQUAL(buf, cases[i].want);
	}
}

static CU_TestInfo tests[] = {
	{ "strconv.ParseFloat table (atof_test.go)", test_parse_float },
	{ "strconv.ParseFloat signed zeros and hard cases", test_parse_float_zero_sign },
	{ "strconv.ParseFloat error texts", test_parse_float_error_text },
	{ "§5.D M12/M13 ThresholdSatisfied", test_threshold_satisfied },
	{ "path.Match table (match_test.go)", test_path_match },
	{ "§5.D M11 address host", test_url_hostname },
	{ "§5.D M16 --allowed-action-hosts", test_host_allowed },
	{ "fmt %g with a precision (fmt_test.go, spec §1.8)", test_format_g },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("threshold", tests);
}
