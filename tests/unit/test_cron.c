/*
 * engine/cron: robfig/cron v3.0.1's own tables — parser_test.go (TestRange,
 * TestField, TestAll, TestBits, TestParseScheduleErrors, TestParseSchedule,
 * TestOptionalSecondSchedule, TestNormalizeFields, TestNormalizeFields_Errors,
 * TestStandardSpecSchedule, TestNoDescriptorParser), spec_test.go
 * (TestActivation, TestNext, TestErrors, TestNextWithTz, TestSlash0NoHang)
 * and constantdelay_test.go (TestConstantDelayNext) — plus the exact error
 * texts the webhook shows, checked against robfig 3.0.1 built with Go.
 *
 * robfig's tables run in the test machine's Local zone; ours is UTC
 * (tz_local()), which is what CI machines have.  Named zones come from the
 * system tz database through sim/load/tzif.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/cron.h"
#include "sim/load/tzif.h"
#include "tests/unit/cu_main.h"

static struct tzif_cache cache;

static int setup(void)
{
	tzif_cache_init(&cache, NULL);
	return 0;
}

static int teardown(void)
{
	tzif_cache_release(&cache);
	return 0;
}

static const struct tz_zone *zone(const char *name)
{
	const struct tz_zone *z = NULL;
	char err[TZ_ERRLEN];

	if (tz_load_location(name, tzif_cache_find, &cache, &z, err, sizeof(err)) != 0)
		CU_FAIL_FATAL(err);
	return z;
}

static const unsigned SECOND_PARSER = CRON_SECOND | CRON_MINUTE | CRON_HOUR | CRON_DOM | CRON_MONTH |
				      CRON_DOW_OPTIONAL | CRON_DESCRIPTOR;

static int parse(const char *spec, unsigned options, struct cron_schedule *s, char *err)
{
	return cron_parse(spec, options, tzif_cache_find, &cache, s, err, CRON_ERRLEN);
}

/* ---- parser_test.go ------------------------------------------------------ */

static void test_range(void)
{
	static const struct {
		const char *expr;
		unsigned min, max;
		uint64_t expected;
		const char *err;
	} c[] = {
		{ "5", 0, 7, 1 << 5, "" },
		{ "0", 0, 7, 1 << 0, "" },
		{ "7", 0, 7, 1 << 7, "" },
		{ "5-5", 0, 7, 1 << 5, "" },
		{ "5-6", 0, 7, 1 << 5 | 1 << 6, "" },
		{ "5-7", 0, 7, 1 << 5 | 1 << 6 | 1 << 7, "" },
		{ "5-6/2", 0, 7, 1 << 5, "" },
		{ "5-7/2", 0, 7, 1 << 5 | 1 << 7, "" },
		{ "5-7/1", 0, 7, 1 << 5 | 1 << 6 | 1 << 7, "" },
		{ "*", 1, 3, 1 << 1 | 1 << 2 | 1 << 3 | CRON_STAR_BIT, "" },
		{ "*/2", 1, 3, 1 << 1 | 1 << 3, "" },
		{ "5--5", 0, 0, 0, "too many hyphens" },
		{ "jan-x", 0, 0, 0, "failed to parse int from" },
		{ "2-x", 1, 5, 0, "failed to parse int from" },
		{ "*/-12", 0, 0, 0, "negative number" },
		{ "*//2", 0, 0, 0, "too many slashes" },
		{ "1", 3, 5, 0, "below minimum" },
		{ "6", 3, 5, 0, "above maximum" },
		{ "5-3", 3, 5, 0, "beyond end of range" },
		{ "*/0", 0, 0, 0, "should be a positive number" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cron_bounds b = { c[i].min, c[i].max, NULL };
		uint64_t bits;
		char err[CRON_ERRLEN] = "";
		int rc = cron_get_range(c[i].expr, &b, &bits, err, sizeof(err));

		if (c[i].err[0]) {
			CU_ASSERT_EQUAL(rc, CRON_EINVAL);
			CU_ASSERT_PTR_NOT_NULL(strstr(err, c[i].err));
		} else {
			CU_ASSERT_EQUAL(rc, CRON_OK);
		}
		CU_ASSERT_EQUAL(bits, c[i].expected);
	}
}

static void test_field(void)
{
	static const struct {
		const char *expr;
		unsigned min, max;
		uint64_t expected;
	} c[] = {
		{ "5", 1, 7, 1 << 5 },
		{ "5,6", 1, 7, 1 << 5 | 1 << 6 },
		{ "5,6,7", 1, 7, 1 << 5 | 1 << 6 | 1 << 7 },
		{ "1,5-7/2,3", 1, 7, 1 << 1 | 1 << 5 | 1 << 7 | 1 << 3 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cron_bounds b = { c[i].min, c[i].max, NULL };
		uint64_t bits;
		char err[CRON_ERRLEN];

		CU_ASSERT_EQUAL(cron_get_field(c[i].expr, &b, &bits, err, sizeof(err)), CRON_OK);
		CU_ASSERT_EQUAL(bits, c[i].expected);
	}
}

static void test_all(void)
{
	CU_ASSERT_EQUAL(cron_all(&cron_minutes), UINT64_C(0xfffffffffffffff) | CRON_STAR_BIT);
	CU_ASSERT_EQUAL(cron_all(&cron_hours), UINT64_C(0xffffff) | CRON_STAR_BIT);
	CU_ASSERT_EQUAL(cron_all(&cron_dom), UINT64_C(0xfffffffe) | CRON_STAR_BIT);
	CU_ASSERT_EQUAL(cron_all(&cron_months), UINT64_C(0x1ffe) | CRON_STAR_BIT);
	CU_ASSERT_EQUAL(cron_all(&cron_dow), UINT64_C(0x7f) | CRON_STAR_BIT);
}

static void test_bits(void)
{
	CU_ASSERT_EQUAL(cron_get_bits(0, 0, 1), 0x1);
	CU_ASSERT_EQUAL(cron_get_bits(1, 1, 1), 0x2);
	CU_ASSERT_EQUAL(cron_get_bits(1, 5, 2), 0x2a);
	CU_ASSERT_EQUAL(cron_get_bits(1, 4, 2), 0xa);
}

static void test_parse_schedule_errors(void)
{
	static const struct { const char *expr, *err; } c[] = {
		{ "* 5 j * * *", "failed to parse int from" },
		{ "@every Xm", "failed to parse duration" },
		{ "@unrecognized", "unrecognized descriptor" },
		{ "* * * *", "expected 5 to 6 fields" },
		{ "", "empty spec string" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cron_schedule s;
		char err[CRON_ERRLEN] = "";

		CU_ASSERT_EQUAL(parse(c[i].expr, SECOND_PARSER, &s, err), CRON_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, c[i].err));
	}
}

static void expect_spec(const struct cron_schedule *s, uint64_t sec, uint64_t min, uint64_t hour, uint64_t dom,
			uint64_t month, uint64_t dow, const struct tz_zone *loc)
{
	CU_ASSERT_FALSE(s->constant_delay);
	CU_ASSERT_EQUAL(s->second, sec);
	CU_ASSERT_EQUAL(s->minute, min);
	CU_ASSERT_EQUAL(s->hour, hour);
	CU_ASSERT_EQUAL(s->dom, dom);
	CU_ASSERT_EQUAL(s->month, month);
	CU_ASSERT_EQUAL(s->dow, dow);
	CU_ASSERT_PTR_EQUAL(s->location, loc);
}

static void expect_every5min(const char *spec, unsigned options, uint64_t sec, const struct tz_zone *loc)
{
	struct cron_schedule s;
	char err[CRON_ERRLEN];

	CU_ASSERT_EQUAL_FATAL(parse(spec, options, &s, err), CRON_OK);
	expect_spec(&s, sec, 1 << 5, cron_all(&cron_hours), cron_all(&cron_dom), cron_all(&cron_months),
		    cron_all(&cron_dow), loc);
}

static void expect_midnight(const char *spec, const struct tz_zone *loc)
{
	struct cron_schedule s;
	char err[CRON_ERRLEN];

	CU_ASSERT_EQUAL_FATAL(parse(spec, SECOND_PARSER, &s, err), CRON_OK);
	expect_spec(&s, 1, 1, 1, cron_all(&cron_dom), cron_all(&cron_months), cron_all(&cron_dow), loc);
}

static void test_parse_schedule(void)
{
	const struct tz_zone *tokyo = zone("Asia/Tokyo");
	struct cron_schedule s;
	char err[CRON_ERRLEN];

	expect_every5min("0 5 * * * *", SECOND_PARSER, 1, tz_local());
	expect_every5min("5 * * * *", CRON_STANDARD, 1, tz_local());
	expect_every5min("CRON_TZ=UTC  0 5 * * * *", SECOND_PARSER, 1, tz_utc());
	expect_every5min("CRON_TZ=UTC  5 * * * *", CRON_STANDARD, 1, tz_utc());
	expect_every5min("CRON_TZ=Asia/Tokyo 0 5 * * * *", SECOND_PARSER, 1, tokyo);
	CU_ASSERT_EQUAL(parse("@every 5m", SECOND_PARSER, &s, err), CRON_OK);
	CU_ASSERT(s.constant_delay);
	CU_ASSERT_EQUAL(s.delay_ns, INT64_C(300000000000));
	expect_midnight("@midnight", tz_local());
	expect_midnight("TZ=UTC  @midnight", tz_utc());
	expect_midnight("TZ=Asia/Tokyo @midnight", tokyo);
	CU_ASSERT_EQUAL_FATAL(parse("@yearly", SECOND_PARSER, &s, err), CRON_OK);
	expect_spec(&s, 1, 1, 1, 1 << 1, 1 << 1, cron_all(&cron_dow), tz_local());
	CU_ASSERT_EQUAL_FATAL(parse("@annually", SECOND_PARSER, &s, err), CRON_OK);
	expect_spec(&s, 1, 1, 1, 1 << 1, 1 << 1, cron_all(&cron_dow), tz_local());
	CU_ASSERT_EQUAL_FATAL(parse("* 5 * * * *", SECOND_PARSER, &s, err), CRON_OK);
	expect_spec(&s, cron_all(&cron_seconds), 1 << 5, cron_all(&cron_hours), cron_all(&cron_dom),
		    cron_all(&cron_months), cron_all(&cron_dow), tz_local());
}

static void test_optional_second_schedule(void)
{
	unsigned opt = CRON_SECOND_OPTIONAL | CRON_MINUTE | CRON_HOUR | CRON_DOM | CRON_MONTH | CRON_DOW |
		       CRON_DESCRIPTOR;

	expect_every5min("0 5 * * * *", opt, 1, tz_local());
	expect_every5min("5 5 * * * *", opt, 1 << 5, tz_local());
	expect_every5min("5 * * * *", opt, 1, tz_local());
}

/* normalizeFields, seen through Parse: the fields a parser reads and the defaults of the others. */
static void test_normalize_fields(void)
{
	struct cron_schedule s;
	char err[CRON_ERRLEN];
	uint64_t star_h = cron_all(&cron_hours), star_dom = cron_all(&cron_dom), star_mon = cron_all(&cron_months),
		 star_dow = cron_all(&cron_dow);

	/* AllFields_NoOptional, _SecondOptional_Provided, _SecondOptional_NotProvided */
	CU_ASSERT_EQUAL_FATAL(parse("0 5 * * * *", CRON_SECOND | CRON_MINUTE | CRON_HOUR | CRON_DOM | CRON_MONTH |
							    CRON_DOW | CRON_DESCRIPTOR, &s, err), CRON_OK);
	expect_spec(&s, 1, 1 << 5, star_h, star_dom, star_mon, star_dow, tz_local());
	CU_ASSERT_EQUAL_FATAL(parse("5 * * * *", CRON_SECOND_OPTIONAL | CRON_MINUTE | CRON_HOUR | CRON_DOM |
							  CRON_MONTH | CRON_DOW, &s, err), CRON_OK);
	expect_spec(&s, 1, 1 << 5, star_h, star_dom, star_mon, star_dow, tz_local());
	/* SubsetFields_NoOptional: [5 15 *] for Hour|Dom|Month is 0 0 5 15 * * */
	CU_ASSERT_EQUAL_FATAL(parse("5 15 *", CRON_HOUR | CRON_DOM | CRON_MONTH, &s, err), CRON_OK);
	expect_spec(&s, 1, 1, 1 << 5, 1 << 15, star_mon, star_dow, tz_local());
	/* SubsetFields_DowOptional_Provided / _NotProvided */
	CU_ASSERT_EQUAL_FATAL(parse("5 15 * 4", CRON_HOUR | CRON_DOM | CRON_MONTH | CRON_DOW_OPTIONAL, &s, err),
			      CRON_OK);
	expect_spec(&s, 1, 1, 1 << 5, 1 << 15, star_mon, 1 << 4, tz_local());
	CU_ASSERT_EQUAL_FATAL(parse("5 15 *", CRON_HOUR | CRON_DOM | CRON_MONTH | CRON_DOW_OPTIONAL, &s, err),
			      CRON_OK);
	expect_spec(&s, 1, 1, 1 << 5, 1 << 15, star_mon, star_dow, tz_local());
	/* SubsetFields_SecondOptional_NotProvided */
	CU_ASSERT_EQUAL_FATAL(parse("5 15 *", CRON_SECOND_OPTIONAL | CRON_HOUR | CRON_DOM | CRON_MONTH, &s, err),
			      CRON_OK);
	expect_spec(&s, 1, 1, 1 << 5, 1 << 15, star_mon, star_dow, tz_local());
}

static void test_normalize_fields_errors(void)
{
	struct cron_schedule s;
	char err[CRON_ERRLEN];

	CU_ASSERT_EQUAL(parse("0 5 * * * *", CRON_SECOND_OPTIONAL | CRON_MINUTE | CRON_HOUR | CRON_DOM | CRON_MONTH |
						     CRON_DOW_OPTIONAL, &s, err), CRON_EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "multiple optionals may not be configured");
	CU_ASSERT_EQUAL(parse("0 5 * *", CRON_SECOND_OPTIONAL | CRON_MINUTE | CRON_HOUR, &s, err), CRON_EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "expected 2 to 3 fields, found 4: [0 5 * *]");
	CU_ASSERT_EQUAL(parse(" ", CRON_SECOND_OPTIONAL | CRON_MINUTE | CRON_HOUR, &s, err), CRON_EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "expected 2 to 3 fields, found 0: []");
	CU_ASSERT_EQUAL(parse("*", CRON_SECOND_OPTIONAL | CRON_MINUTE | CRON_HOUR, &s, err), CRON_EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "expected 2 to 3 fields, found 1: [*]");
}

static void test_standard_spec_schedule(void)
{
	struct cron_schedule s;
	char err[CRON_ERRLEN];

	CU_ASSERT_EQUAL_FATAL(cron_parse_standard("5 * * * *", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	expect_spec(&s, 1, 1 << 5, cron_all(&cron_hours), cron_all(&cron_dom), cron_all(&cron_months),
		    cron_all(&cron_dow), tz_local());
	CU_ASSERT_EQUAL(cron_parse_standard("@every 5m", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_EQUAL(s.delay_ns, INT64_C(300000000000));
	CU_ASSERT_EQUAL(cron_parse_standard("5 j * * *", NULL, NULL, &s, err, sizeof(err)), CRON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "failed to parse int from"));
	CU_ASSERT_EQUAL(cron_parse_standard("* * * *", NULL, NULL, &s, err, sizeof(err)), CRON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected exactly 5 fields"));
}

static void test_no_descriptor_parser(void)
{
	struct cron_schedule s;
	char err[CRON_ERRLEN];

	CU_ASSERT_EQUAL(parse("@every 1m", CRON_MINUTE | CRON_HOUR, &s, err), CRON_EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "parser does not accept descriptors: @every 1m");
}

/* The texts ParseStandard gives (robfig 3.0.1 on Go, byte for byte). */
static void test_parse_standard_error_texts(void)
{
	static const struct { const char *spec, *err; int rc; } c[] = {
		{ "", "empty spec string", CRON_EINVAL },
		{ "xyz", "expected exactly 5 fields, found 1: [xyz]", CRON_EINVAL },
		{ "60 0 * * *", "end of range (60) above maximum (59): 60", CRON_EINVAL },
		{ "0 0 * * XYZ", "failed to parse int from XYZ: strconv.Atoi: parsing \"XYZ\": invalid syntax",
		  CRON_EINVAL },
		{ "@every 1d", "failed to parse duration @every 1d: time: unknown unit \"d\" in duration \"1d\"",
		  CRON_EINVAL },
		{ "@every ", "failed to parse duration @every : time: invalid duration \"\"", CRON_EINVAL },
		{ "@daily ", "unrecognized descriptor: @daily ", CRON_EINVAL },
		{ "TZ=Mars/Olympus * * * * *", "provided bad location Mars/Olympus: unknown time zone Mars/Olympus",
		  CRON_EINVAL },
		{ "CRON_TZ=../etc * * * * *", "provided bad location ../etc: time: invalid location name", CRON_EINVAL },
		{ "*/-12 * * * *", "negative number (-12) not allowed: -12", CRON_EINVAL },
		{ "0 0 0 * *", "beginning of range (0) below minimum (1): 0", CRON_EINVAL },
		{ "5-3 * * * *", "beginning of range (5) beyond end of range (3): 5-3", CRON_EINVAL },
		{ "99999999999999999999 * * * *",
		  "failed to parse int from 99999999999999999999: strconv.Atoi: parsing \"99999999999999999999\": "
		  "value out of range", CRON_EINVAL },
		{ "9999999999999999999x * * * *",
		  "failed to parse int from 9999999999999999999x: strconv.Atoi: parsing \"9999999999999999999x\": "
		  "invalid syntax", CRON_EINVAL },
		{ "1- * * * *", "failed to parse int from : strconv.Atoi: parsing \"\": invalid syntax", CRON_EINVAL },
		{ "@every 1.5h\xC2\xB5", "failed to parse duration @every 1.5h\xC2\xB5: time: unknown unit "
		  "\"h\\xc2\\xb5\" in duration \"1.5h\\xc2\\xb5\"", CRON_EINVAL },
		{ "TZ=UTC", "runtime error: slice bounds out of range [:-1]", CRON_EPANIC },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cron_schedule s;
		char err[CRON_ERRLEN] = "";

		CU_ASSERT_EQUAL(cron_parse_standard(c[i].spec, tzif_cache_find, &cache, &s, err, sizeof(err)), c[i].rc);
		CU_ASSERT_STRING_EQUAL(err, c[i].err);
	}
}

/* What Go accepts that looks odd: Unicode spaces split fields, an empty list matches nothing, "+5". */
static void test_parse_standard_oddities(void)
{
	struct cron_schedule s;
	char err[CRON_ERRLEN];

	CU_ASSERT_EQUAL(cron_parse_standard("5\xE2\x80\x83* * * *", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_EQUAL(s.minute, 1 << 5);
	CU_ASSERT_EQUAL(cron_parse_standard("+5 * * * *", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_EQUAL(s.minute, 1 << 5);
	CU_ASSERT_EQUAL(cron_parse_standard(", * * * *", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_EQUAL(s.minute, 0);
	CU_ASSERT_EQUAL(cron_next(&s, 0, tz_utc()), CRON_NO_TIME);
	CU_ASSERT_EQUAL(cron_parse_standard("TZ= 5 * * * *", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_PTR_EQUAL(s.location, tz_utc());
	CU_ASSERT_EQUAL(cron_parse_standard("CRON_TZ=Local 5 * * * *", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_PTR_EQUAL(s.location, tz_local());
	CU_ASSERT_EQUAL(cron_parse_standard("@every -5s", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_EQUAL(s.delay_ns, INT64_C(1000000000));
	CU_ASSERT_EQUAL(cron_parse_standard("@every 1h30m10.5s", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_EQUAL(s.delay_ns, INT64_C(5410000000000));
	CU_ASSERT_EQUAL(cron_parse_standard("* * * jan-dec/2 sun-sat", NULL, NULL, &s, err, sizeof(err)), CRON_OK);
	CU_ASSERT_EQUAL(s.month, 2730);
	CU_ASSERT_EQUAL(s.dow, 127);
}

/* ---- spec_test.go -------------------------------------------------------- */

/*
 * getTime: "Mon Jul 9 15:00 2012" or "... 15:00:05 2012" in @loc, or
 * "2012-03-11T00:00:00-0500", optionally after "TZ=<zone> " (which sets the
 * time's location); "" is the zero time.  *@tloc receives the location.
 */
static int64_t get_time(const char *v, const struct tz_zone **tloc, const struct tz_zone *deflt)
{
	static const char *const mons[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	char wd[8], mon[8], name[64];
	int y, mo = 0, d, h, mi, s = 0, off, ms = 0, n;
	const struct tz_zone *loc = deflt;

	*tloc = deflt;
	if (v[0] == '\0')
		return CRON_NO_TIME;
	if (strncmp(v, "TZ=", 3) == 0 && sscanf(v + 3, "%63s %n", name, &n) == 1) {
		loc = zone(name);
		*tloc = loc;
		v += 3 + n;
	}
	if (sscanf(v, "%d-%d-%dT%d:%d:%d%d", &y, &mo, &d, &h, &mi, &s, &off) == 7) {
		int sign = off < 0 ? -1 : 1;
		int a = off * sign;

		return (tz_date(y, mo, d, h, mi, s, tz_utc()) - sign * ((a / 100) * 3600 + (a % 100) * 60)) * 1000;
	}
	if (sscanf(v, "%7s %7s %d %d:%d:%d.%d %d", wd, mon, &d, &h, &mi, &s, &ms, &y) == 8 ||
	    sscanf(v, "%7s %7s %d %d:%d:%d %d", wd, mon, &d, &h, &mi, &s, &y) == 7 ||
	    (s = 0, sscanf(v, "%7s %7s %d %d:%d %d", wd, mon, &d, &h, &mi, &y) == 6)) {
		for (int i = 0; i < 12; i++)
			if (strcmp(mon, mons[i]) == 0)
				mo = i + 1;
		return tz_date(y, mo, d, h, mi, s, loc) * 1000 + ms;
	}
	CU_FAIL_FATAL("could not parse time value");
	return 0;
}

static void test_activation(void)
{
	static const struct { const char *time, *spec; bool expected; } c[] = {
		{ "Mon Jul 9 15:00 2012", "0/15 * * * *", true },
		{ "Mon Jul 9 15:45 2012", "0/15 * * * *", true },
		{ "Mon Jul 9 15:40 2012", "0/15 * * * *", false },
		{ "Mon Jul 9 15:05 2012", "5/15 * * * *", true },
		{ "Mon Jul 9 15:20 2012", "5/15 * * * *", true },
		{ "Mon Jul 9 15:50 2012", "5/15 * * * *", true },
		{ "Sun Jul 15 15:00 2012", "0/15 * * Jul *", true },
		{ "Sun Jul 15 15:00 2012", "0/15 * * Jun *", false },
		{ "Sun Jul 15 08:30 2012", "30 08 ? Jul Sun", true },
		{ "Sun Jul 15 08:30 2012", "30 08 15 Jul ?", true },
		{ "Mon Jul 16 08:30 2012", "30 08 ? Jul Sun", false },
		{ "Mon Jul 16 08:30 2012", "30 08 15 Jul ?", false },
		{ "Mon Jul 9 15:00 2012", "@hourly", true },
		{ "Mon Jul 9 15:04 2012", "@hourly", false },
		{ "Mon Jul 9 15:00 2012", "@daily", false },
		{ "Mon Jul 9 00:00 2012", "@daily", true },
		{ "Mon Jul 9 00:00 2012", "@weekly", false },
		{ "Sun Jul 8 00:00 2012", "@weekly", true },
		{ "Sun Jul 8 01:00 2012", "@weekly", false },
		{ "Sun Jul 8 00:00 2012", "@monthly", false },
		{ "Sun Jul 1 00:00 2012", "@monthly", true },
		{ "Sun Jul 15 00:00 2012", "* * 1,15 * Sun", true },
		{ "Fri Jun 15 00:00 2012", "* * 1,15 * Sun", true },
		{ "Wed Aug 1 00:00 2012", "* * 1,15 * Sun", true },
		{ "Sun Jul 15 00:00 2012", "* * */10 * Sun", true },
		{ "Sun Jul 15 00:00 2012", "* * * * Mon", false },
		{ "Mon Jul 9 00:00 2012", "* * 1,15 * *", false },
		{ "Sun Jul 15 00:00 2012", "* * 1,15 * *", true },
		{ "Sun Jul 15 00:00 2012", "* * */2 * Sun", true },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cron_schedule s;
		char err[CRON_ERRLEN];
		const struct tz_zone *loc;
		int64_t t;

		CU_ASSERT_EQUAL_FATAL(cron_parse_standard(c[i].spec, NULL, NULL, &s, err, sizeof(err)), CRON_OK);
		t = get_time(c[i].time, &loc, tz_local());
		CU_ASSERT_EQUAL(cron_next(&s, t - 1000, loc) == t, c[i].expected);
	}
}

static void test_next(void)
{
	static const struct { const char *time, *spec, *expected; } c[] = {
		{ "Mon Jul 9 14:45 2012", "0 0/15 * * * *", "Mon Jul 9 15:00 2012" },
		{ "Mon Jul 9 14:59 2012", "0 0/15 * * * *", "Mon Jul 9 15:00 2012" },
		{ "Mon Jul 9 14:59:59 2012", "0 0/15 * * * *", "Mon Jul 9 15:00 2012" },
		{ "Mon Jul 9 15:45 2012", "0 20-35/15 * * * *", "Mon Jul 9 16:20 2012" },
		{ "Mon Jul 9 23:46 2012", "0 */15 * * * *", "Tue Jul 10 00:00 2012" },
		{ "Mon Jul 9 23:45 2012", "0 20-35/15 * * * *", "Tue Jul 10 00:20 2012" },
		{ "Mon Jul 9 23:35:51 2012", "15/35 20-35/15 * * * *", "Tue Jul 10 00:20:15 2012" },
		{ "Mon Jul 9 23:35:51 2012", "15/35 20-35/15 1/2 * * *", "Tue Jul 10 01:20:15 2012" },
		{ "Mon Jul 9 23:35:51 2012", "15/35 20-35/15 10-12 * * *", "Tue Jul 10 10:20:15 2012" },
		{ "Mon Jul 9 23:35:51 2012", "15/35 20-35/15 1/2 */2 * *", "Thu Jul 11 01:20:15 2012" },
		{ "Mon Jul 9 23:35:51 2012", "15/35 20-35/15 * 9-20 * *", "Wed Jul 10 00:20:15 2012" },
		{ "Mon Jul 9 23:35:51 2012", "15/35 20-35/15 * 9-20 Jul *", "Wed Jul 10 00:20:15 2012" },
		{ "Mon Jul 9 23:35 2012", "0 0 0 9 Apr-Oct ?", "Thu Aug 9 00:00 2012" },
		{ "Mon Jul 9 23:35 2012", "0 0 0 */5 Apr,Aug,Oct Mon", "Tue Aug 1 00:00 2012" },
		{ "Mon Jul 9 23:35 2012", "0 0 0 */5 Oct Mon", "Mon Oct 1 00:00 2012" },
		{ "Mon Jul 9 23:35 2012", "0 0 0 * Feb Mon", "Mon Feb 4 00:00 2013" },
		{ "Mon Jul 9 23:35 2012", "0 0 0 * Feb Mon/2", "Fri Feb 1 00:00 2013" },
		{ "Mon Dec 31 23:59:45 2012", "0 * * * * *", "Tue Jan 1 00:00:00 2013" },
		{ "Mon Jul 9 23:35 2012", "0 0 0 29 Feb ?", "Mon Feb 29 00:00 2016" },
		{ "2012-03-11T00:00:00-0500", "TZ=America/New_York 0 30 2 11 Mar ?", "2013-03-11T02:30:00-0400" },
		{ "2012-03-11T00:00:00-0500", "TZ=America/New_York 0 0 * * * ?", "2012-03-11T01:00:00-0500" },
		{ "2012-03-11T01:00:00-0500", "TZ=America/New_York 0 0 * * * ?", "2012-03-11T03:00:00-0400" },
		{ "2012-03-11T03:00:00-0400", "TZ=America/New_York 0 0 * * * ?", "2012-03-11T04:00:00-0400" },
		{ "2012-03-11T04:00:00-0400", "TZ=America/New_York 0 0 * * * ?", "2012-03-11T05:00:00-0400" },
		{ "2012-03-11T00:00:00-0500", "CRON_TZ=America/New_York 0 0 * * * ?", "2012-03-11T01:00:00-0500" },
		{ "2012-03-11T01:00:00-0500", "CRON_TZ=America/New_York 0 0 * * * ?", "2012-03-11T03:00:00-0400" },
		{ "2012-03-11T03:00:00-0400", "CRON_TZ=America/New_York 0 0 * * * ?", "2012-03-11T04:00:00-0400" },
		{ "2012-03-11T04:00:00-0400", "CRON_TZ=America/New_York 0 0 * * * ?", "2012-03-11T05:00:00-0400" },
		{ "2012-03-11T00:00:00-0500", "TZ=America/New_York 0 0 1 * * ?", "2012-03-11T01:00:00-0500" },
		{ "2012-03-11T01:00:00-0500", "TZ=America/New_York 0 0 1 * * ?", "2012-03-12T01:00:00-0400" },
		{ "2012-03-11T00:00:00-0500", "TZ=America/New_York 0 0 2 * * ?", "2012-03-12T02:00:00-0400" },
		{ "2012-11-04T00:00:00-0400", "TZ=America/New_York 0 30 2 04 Nov ?", "2012-11-04T02:30:00-0500" },
		{ "2012-11-04T01:45:00-0400", "TZ=America/New_York 0 30 1 04 Nov ?", "2012-11-04T01:30:00-0500" },
		{ "2012-11-04T00:00:00-0400", "TZ=America/New_York 0 0 * * * ?", "2012-11-04T01:00:00-0400" },
		{ "2012-11-04T01:00:00-0400", "TZ=America/New_York 0 0 * * * ?", "2012-11-04T01:00:00-0500" },
		{ "2012-11-04T01:00:00-0500", "TZ=America/New_York 0 0 * * * ?", "2012-11-04T02:00:00-0500" },
		{ "2012-11-04T00:00:00-0400", "TZ=America/New_York 0 0 1 * * ?", "2012-11-04T01:00:00-0400" },
		{ "2012-11-04T01:00:00-0400", "TZ=America/New_York 0 0 1 * * ?", "2012-11-04T01:00:00-0500" },
		{ "2012-11-04T01:00:00-0500", "TZ=America/New_York 0 0 1 * * ?", "2012-11-05T01:00:00-0500" },
		{ "2012-11-04T00:00:00-0400", "TZ=America/New_York 0 0 2 * * ?", "2012-11-04T02:00:00-0500" },
		{ "2012-11-04T02:00:00-0500", "TZ=America/New_York 0 0 2 * * ?", "2012-11-05T02:00:00-0500" },
		{ "2012-11-04T00:00:00-0400", "TZ=America/New_York 0 0 3 * * ?", "2012-11-04T03:00:00-0500" },
		{ "2012-11-04T03:00:00-0500", "TZ=America/New_York 0 0 3 * * ?", "2012-11-05T03:00:00-0500" },
		{ "TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 * * * ?", "2012-11-04T01:00:00-0400" },
		{ "TZ=America/New_York 2012-11-04T01:00:00-0400", "0 0 * * * ?", "2012-11-04T01:00:00-0500" },
		{ "TZ=America/New_York 2012-11-04T01:00:00-0500", "0 0 * * * ?", "2012-11-04T02:00:00-0500" },
		{ "TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 1 * * ?", "2012-11-04T01:00:00-0400" },
		{ "TZ=America/New_York 2012-11-04T01:00:00-0400", "0 0 1 * * ?", "2012-11-04T01:00:00-0500" },
		{ "TZ=America/New_York 2012-11-04T01:00:00-0500", "0 0 1 * * ?", "2012-11-05T01:00:00-0500" },
		{ "TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 2 * * ?", "2012-11-04T02:00:00-0500" },
		{ "TZ=America/New_York 2012-11-04T02:00:00-0500", "0 0 2 * * ?", "2012-11-05T02:00:00-0500" },
		{ "TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 3 * * ?", "2012-11-04T03:00:00-0500" },
		{ "TZ=America/New_York 2012-11-04T03:00:00-0500", "0 0 3 * * ?", "2012-11-05T03:00:00-0500" },
		{ "Mon Jul 9 23:35 2012", "0 0 0 30 Feb ?", "" },
		{ "Mon Jul 9 23:35 2012", "0 0 0 31 Apr ?", "" },
		{ "TZ=America/New_York 2012-11-04T00:00:00-0400", "0 0 3 3 * ?", "2012-12-03T03:00:00-0500" },
		/* midnight does not exist on a DST switch day (robfig issue 157) */
		{ "2018-10-17T05:00:00-0400", "TZ=America/Sao_Paulo 0 0 9 10 * ?", "2018-11-10T06:00:00-0500" },
		{ "2018-02-14T05:00:00-0500", "TZ=America/Sao_Paulo 0 0 9 22 * ?", "2018-02-22T07:00:00-0500" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cron_schedule s;
		char err[CRON_ERRLEN], msg[256];
		const struct tz_zone *loc, *eloc;
		int64_t t, want, got;

		CU_ASSERT_EQUAL_FATAL(parse(c[i].spec, SECOND_PARSER, &s, err), CRON_OK);
		t = get_time(c[i].time, &loc, tz_local());
		want = get_time(c[i].expected, &eloc, tz_local());
		got = cron_next(&s, t, loc);
		snprintf(msg, sizeof(msg), "TestNext %s \"%s\": want %" PRId64 " got %" PRId64, c[i].time, c[i].spec,
			 want, got);
		CU_ASSERT_EQUAL(got, want);
		if (got != want)
			CU_FAIL(msg);
	}
}

static void test_errors(void)
{
	static const char *const bad[] = { "xyz", "60 0 * * *", "0 60 * * *", "0 0 * * XYZ" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cron_schedule s;
		char err[CRON_ERRLEN];

		CU_ASSERT_EQUAL(cron_parse_standard(bad[i], NULL, NULL, &s, err, sizeof(err)), CRON_EINVAL);
	}
}

/* getTimeTZ parses with a +0530 offset the Local zone lacks: a fixed zone, which the schedule runs in. */
static void test_next_with_tz(void)
{
	static const struct { const char *time, *spec, *expected; } c[] = {
		{ "2016-01-03T13:09:03+0530", "14 14 * * *", "2016-01-03T14:14:00+0530" },
		{ "2016-01-03T04:09:03+0530", "14 14 * * ?", "2016-01-03T14:14:00+0530" },
		{ "2016-01-03T14:09:03+0530", "14 14 * * *", "2016-01-03T14:14:00+0530" },
		{ "2016-01-03T14:00:00+0530", "14 14 * * ?", "2016-01-03T14:14:00+0530" },
	};
	struct tz_zone *fixed = tz_fixed_zone("", 19800);

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cron_schedule s;
		char err[CRON_ERRLEN];
		const struct tz_zone *loc;
		int64_t t, want;

		CU_ASSERT_EQUAL_FATAL(cron_parse_standard(c[i].spec, NULL, NULL, &s, err, sizeof(err)), CRON_OK);
		t = get_time(c[i].time, &loc, fixed);
		want = get_time(c[i].expected, &loc, fixed);
		CU_ASSERT_EQUAL(cron_next(&s, t, fixed), want);
	}
	tz_zone_free(fixed);
}

static void test_slash0_no_hang(void)
{
	struct cron_schedule s;
	char err[CRON_ERRLEN];

	CU_ASSERT_EQUAL(cron_parse_standard("TZ=America/New_York 15/0 * * * *", tzif_cache_find, &cache, &s, err,
					    sizeof(err)), CRON_EINVAL);
}

/* ---- constantdelay_test.go ------------------------------------------------- */

static void test_constant_delay_next(void)
{
	static const struct { const char *time; int64_t delay_ns; const char *expected; } c[] = {
		{ "Mon Jul 9 14:45 2012", INT64_C(900000000050), "Mon Jul 9 15:00 2012" },
		{ "Mon Jul 9 14:59 2012", INT64_C(900000000000), "Mon Jul 9 15:14 2012" },
		{ "Mon Jul 9 14:59:59 2012", INT64_C(900000000000), "Mon Jul 9 15:14:59 2012" },
		{ "Mon Jul 9 15:45 2012", INT64_C(2100000000000), "Mon Jul 9 16:20 2012" },
		{ "Mon Jul 9 23:46 2012", INT64_C(840000000000), "Tue Jul 10 00:00 2012" },
		{ "Mon Jul 9 23:45 2012", INT64_C(2100000000000), "Tue Jul 10 00:20 2012" },
		{ "Mon Jul 9 23:35:51 2012", INT64_C(2664000000000), "Tue Jul 10 00:20:15 2012" },
		{ "Mon Jul 9 23:35:51 2012", INT64_C(92664000000000), "Thu Jul 11 01:20:15 2012" },
		{ "Mon Jul 9 23:35 2012", INT64_C(7863900000000000), "Thu Oct 9 00:00 2012" },
		{ "Mon Dec 31 23:59:45 2012", INT64_C(15000000000), "Tue Jan 1 00:00:00 2013" },
		{ "Mon Jul 9 14:45 2012", INT64_C(900000000050), "Mon Jul 9 15:00 2012" },
		{ "Mon Jul 9 14:45:00 2012", INT64_C(15000000), "Mon Jul 9 14:45:01 2012" },
		{ "Mon Jul 9 14:45:00.005 2012", INT64_C(900000000000), "Mon Jul 9 15:00 2012" },
		{ "Mon Jul 9 14:45:00.005 2012", INT64_C(900000000050), "Mon Jul 9 15:00 2012" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		/* Every(delay): at least a second, whole seconds. */
		struct cron_schedule s = { .constant_delay = true };
		const struct tz_zone *loc;
		int64_t d = c[i].delay_ns < 1000000000 ? 1000000000 : c[i].delay_ns;

		s.delay_ns = d - d % 1000000000;
		CU_ASSERT_EQUAL(cron_next(&s, get_time(c[i].time, &loc, tz_local()), tz_local()),
				get_time(c[i].expected, &loc, tz_local()));
	}
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "TestRange", test_range },
		{ "TestField", test_field },
		{ "TestAll", test_all },
		{ "TestBits", test_bits },
		{ "TestParseScheduleErrors", test_parse_schedule_errors },
		{ "TestParseSchedule", test_parse_schedule },
		{ "TestOptionalSecondSchedule", test_optional_second_schedule },
		{ "TestNormalizeFields", test_normalize_fields },
		{ "TestNormalizeFields_Errors", test_normalize_fields_errors },
		{ "TestStandardSpecSchedule", test_standard_spec_schedule },
		{ "TestNoDescriptorParser", test_no_descriptor_parser },
		{ "ParseStandard error texts as Go prints them", test_parse_standard_error_texts },
		{ "ParseStandard oddities Go accepts", test_parse_standard_oddities },
		{ "TestActivation", test_activation },
		{ "TestNext", test_next },
		{ "TestErrors", test_errors },
		{ "TestNextWithTz", test_next_with_tz },
		{ "TestSlash0NoHang", test_slash0_no_hang },
		{ "TestConstantDelayNext", test_constant_delay_next },
		CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = { { "cron", setup, teardown, NULL, NULL, tests }, CU_SUITE_INFO_NULL };

	CU_register_suites(suites);
}
