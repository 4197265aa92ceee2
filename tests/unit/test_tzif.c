/*
 * sim/load/tzif: zones read from the system's tz database
 * (/usr/share/zoneinfo, Debian package tzdata) give the offsets Go gives:
 * Europe/Berlin's DST switch of 2026-03-29 01:00 UTC, America/New_York,
 * Australia/Lord_Howe's half-hour DST, Asia/Kolkata; LoadLocation's error
 * texts; a malformed file.
 */
#include <stdio.h>
#include <string.h>

#include "engine/tz.h"
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

static int32_t offset_at(const char *name, int64_t sec)
{
	struct tz_period p;

	tz_lookup(zone(name), sec, &p);
	return p.offset;
}

static void test_berlin(void)
{
	struct tz_period p;

	CU_ASSERT_EQUAL(offset_at("Europe/Berlin", 1774745999), 3600); /* 2026-03-29 00:59:59 UTC */
	CU_ASSERT_EQUAL(offset_at("Europe/Berlin", 1774746000), 7200); /* 01:00:00 UTC: CEST */
	tz_lookup(zone("Europe/Berlin"), 1774746000, &p);
	CU_ASSERT_STRING_EQUAL(p.abbr, "CEST");
	CU_ASSERT_EQUAL(p.start, 1774746000);
	CU_ASSERT_EQUAL(offset_at("Europe/Berlin", 1792890000), 3600); /* 2026-10-25 01:00 UTC: CET */
	/* 1900: before the first DST, CET; 1893 and earlier: local mean time +0:53:28 */
	CU_ASSERT_EQUAL(offset_at("Europe/Berlin", -2208988800), 3600);
	CU_ASSERT_EQUAL(offset_at("Europe/Berlin", -2524521600), 3208);
	/* 2100: past the file's table, the footer rule */
	CU_ASSERT_EQUAL(offset_at("Europe/Berlin", 4118803200), 7200); /* 2100-07-09 */
	CU_ASSERT_EQUAL(tz_date(2026, 3, 29, 2, 30, 0, zone("Europe/Berlin")), 1774747800);
}

static void test_new_york(void)
{
	CU_ASSERT_EQUAL(offset_at("America/New_York", 1772953199), -18000); /* 2026-03-08 06:59:59 UTC */
	CU_ASSERT_EQUAL(offset_at("America/New_York", 1772953200), -14400); /* 07:00 UTC: EDT */
	CU_ASSERT_EQUAL(tz_date(2026, 3, 8, 2, 30, 0, zone("America/New_York")), 1772951400);
	CU_ASSERT_EQUAL(tz_date(2026, 11, 1, 1, 30, 0, zone("America/New_York")), 1793511000);
}

static void test_lord_howe(void)
{
	CU_ASSERT_EQUAL(offset_at("Australia/Lord_Howe", 1775314799), 39600);
	CU_ASSERT_EQUAL(offset_at("Australia/Lord_Howe", 1775314800), 37800);
	CU_ASSERT_EQUAL(offset_at("Australia/Lord_Howe", 1791041399), 37800);
	CU_ASSERT_EQUAL(offset_at("Australia/Lord_Howe", 1791041400), 39600);
}

static void test_kolkata(void)
{
	struct tz_period p;

	CU_ASSERT_EQUAL(offset_at("Asia/Kolkata", 1780252200), 19800);
	tz_lookup(zone("Asia/Kolkata"), 1780252200, &p);
	CU_ASSERT_STRING_EQUAL(p.abbr, "IST");
	CU_ASSERT_EQUAL(tz_date(2026, 6, 1, 0, 0, 0, zone("Asia/Kolkata")), 1780252200);
}

static void test_errors(void)
{
	const struct tz_zone *z;
	char err[TZ_ERRLEN];

	CU_ASSERT_EQUAL(tz_load_location("Mars/Olympus", tzif_cache_find, &cache, &z, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "unknown time zone Mars/Olympus");
	/* remembered: the same text the second time */
	err[0] = '\0';
	CU_ASSERT_EQUAL(tz_load_location("Mars/Olympus", tzif_cache_find, &cache, &z, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "unknown time zone Mars/Olympus");
	CU_ASSERT_EQUAL(tz_load_location("Europe", tzif_cache_find, &cache, &z, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "is a directory");
	CU_ASSERT_EQUAL(tz_load_location("zone1970.tab", tzif_cache_find, &cache, &z, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "malformed time zone information");
}

static void test_parse_malformed(void)
{
	static const unsigned char not_tzif[] = "TZxf2";
	/* A v1 header claiming one transition and no data after it. */
	static const unsigned char short_v1[44] = { 'T', 'Z', 'i', 'f', 0, [35] = 1, [39] = 1 };
	char err[TZ_ERRLEN];

	CU_ASSERT_PTR_NULL(tzif_parse("x", not_tzif, sizeof(not_tzif), err, sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err, "malformed time zone information");
	CU_ASSERT_PTR_NULL(tzif_parse("x", short_v1, sizeof(short_v1), err, sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err, "malformed time zone information");
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "Europe/Berlin: DST switch 2026-03-29 01:00 UTC, LMT, footer rule", test_berlin },
		{ "America/New_York: switch and Date in gap and overlap", test_new_york },
		{ "Australia/Lord_Howe: half-hour DST", test_lord_howe },
		{ "Asia/Kolkata: +05:30", test_kolkata },
		{ "LoadLocation errors: unknown, directory, not a TZif file", test_errors },
		{ "LoadLocationFromTZData: malformed data", test_parse_malformed },
		CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = { { "tzif", setup, teardown, NULL, NULL, tests }, CU_SUITE_INFO_NULL };

	CU_register_suites(suites);
}
