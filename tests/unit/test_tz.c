/*
 * engine/tz: Go's Location.lookup, tzset rule strings, civil time and
 * time.Date in gaps and overlaps, on zones built from rule strings and
 * small transition tables.  Expected instants are what Go 1.19 (whose zone
 * code is the same as 1.26's) prints for the same zones.
 */
#include <string.h>

#include "engine/tz.h"
#include "tests/unit/cu_main.h"

/* A zone from a rule string only: one type and Go's fake transition. */
static struct tz_zone *rule_zone(const char *name, const char *abbr, int32_t offset, const char *extend)
{
	struct tz_type t = { offset, false, abbr };

	return tz_zone_new(name, &t, 1, NULL, 0, extend);
}

static void check_lookup(const struct tz_zone *z, int64_t sec, int32_t offset, const char *abbr, bool dst)
{
	struct tz_period p;

	tz_lookup(z, sec, &p);
	CU_ASSERT_EQUAL(p.offset, offset);
	CU_ASSERT_STRING_EQUAL(p.abbr, abbr);
	CU_ASSERT_EQUAL(p.is_dst, dst);
	CU_ASSERT(p.start <= sec && sec < p.end);
}

/* Europe/Berlin switches to CEST at 2026-03-29 01:00 UTC and back at 2026-10-25 01:00 UTC. */
static void test_berlin_rule(void)
{
	struct tz_zone *z = rule_zone("Europe/Berlin", "CET", 3600, "CET-1CEST,M3.5.0,M10.5.0/3");
	struct tz_civil c;

	check_lookup(z, 1774745999, 3600, "CET", false);
	check_lookup(z, 1774746000, 7200, "CEST", true);
	check_lookup(z, 1792889999, 7200, "CEST", true);
	check_lookup(z, 1792890000, 3600, "CET", false);

	tz_civil(z, 1774746000, &c);
	CU_ASSERT_EQUAL(c.year, 2026);
	CU_ASSERT_EQUAL(c.month, 3);
	CU_ASSERT_EQUAL(c.day, 29);
	CU_ASSERT_EQUAL(c.hour, 3);
	CU_ASSERT_EQUAL(c.min, 0);
	CU_ASSERT_EQUAL(c.weekday, 0);
	CU_ASSERT_EQUAL(c.yday, 88);
	tz_civil(z, 1792890000, &c);
	CU_ASSERT_EQUAL(c.hour, 2); /* 02:59:59 CEST is followed by 02:00:00 CET */
	CU_ASSERT_EQUAL(c.yday, 298);

	/* Date in the gap goes forward (CEST), in the overlap takes the second (CET) occurrence. */
	CU_ASSERT_EQUAL(tz_date(2026, 3, 29, 2, 30, 0, z), 1774747800);
	CU_ASSERT_EQUAL(tz_date(2026, 10, 25, 2, 30, 0, z), 1792891800);
	CU_ASSERT_EQUAL(tz_date(2026, 3, 29, 1, 59, 0, z), 1774745940);
	CU_ASSERT_EQUAL(tz_date(2026, 3, 29, 3, 0, 0, z), 1774746000);
	tz_zone_free(z);
}

/* West of UTC the gap goes backwards and the overlap takes the first (EDT) occurrence. */
static void test_new_york_rule(void)
{
	struct tz_zone *z = rule_zone("America/New_York", "EST", -18000, "EST5EDT,M3.2.0,M11.1.0");

	CU_ASSERT_EQUAL(tz_date(2026, 3, 8, 2, 30, 0, z), 1772951400);  /* 01:30 EST */
	CU_ASSERT_EQUAL(tz_date(2026, 11, 1, 1, 30, 0, z), 1793511000); /* 01:30 EDT */
	check_lookup(z, 1772951400, -18000, "EST", false);
	check_lookup(z, 1793511000, -14400, "EDT", true);
	tz_zone_free(z);
}

/* Lord Howe: a half-hour DST in the southern hemisphere (tzset flips the labels). */
static void test_lord_howe_rule(void)
{
	struct tz_zone *z = rule_zone("Australia/Lord_Howe", "+1030", 37800, "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0");
	struct tz_civil c;

	check_lookup(z, 1775314799, 39600, "+11", true);
	check_lookup(z, 1775314800, 37800, "+1030", false);
	check_lookup(z, 1791041399, 37800, "+1030", false);
	check_lookup(z, 1791041400, 39600, "+11", true);
	tz_civil(z, 1775314800, &c);
	CU_ASSERT_EQUAL(c.hour, 1);
	CU_ASSERT_EQUAL(c.min, 30);
	CU_ASSERT_EQUAL(tz_date(2026, 10, 4, 2, 15, 0, z), 1791042300);
	CU_ASSERT_EQUAL(tz_date(2026, 4, 5, 1, 45, 0, z), 1775315700);
	CU_ASSERT_EQUAL(tz_date(2026, 1, 15, 12, 0, 0, z), 1768438800);
	CU_ASSERT_EQUAL(tz_date(2026, 7, 15, 12, 0, 0, z), 1784079000);
	tz_zone_free(z);
}

/* A rule without DST: the period runs from the last transition to the end of time. */
static void test_kolkata_rule(void)
{
	struct tz_zone *z = rule_zone("Asia/Kolkata", "IST", 19800, "IST-5:30");
	struct tz_period p;

	tz_lookup(z, 1780252200, &p);
	CU_ASSERT_EQUAL(p.offset, 19800);
	CU_ASSERT_STRING_EQUAL(p.abbr, "IST");
	CU_ASSERT_EQUAL(p.start, TZ_ALPHA);
	CU_ASSERT_EQUAL(p.end, TZ_OMEGA);
	CU_ASSERT_EQUAL(tz_date(2026, 6, 1, 0, 0, 0, z), 1780252200);
	tz_zone_free(z);
}

/* A transition table: before the first transition lookupFirstZone's rules apply. */
static void test_transition_table(void)
{
	struct tz_type types[] = { { 4000, false, "LMT" }, { 3600, false, "CET" }, { 7200, true, "CEST" } };
	struct tz_transition tx[] = { { 0, 1 }, { 1000, 2 }, { 2000, 1 } };
	struct tz_zone *z = tz_zone_new("T", types, 3, tx, 3, NULL);
	struct tz_period p;

	/* Type 0 is unused by transitions: it rules before the first one. */
	tz_lookup(z, -5, &p);
	CU_ASSERT_STRING_EQUAL(p.abbr, "LMT");
	CU_ASSERT_EQUAL(p.start, TZ_ALPHA);
	CU_ASSERT_EQUAL(p.end, 0);
	tz_lookup(z, 1500, &p);
	CU_ASSERT_STRING_EQUAL(p.abbr, "CEST");
	CU_ASSERT_EQUAL(p.start, 1000);
	CU_ASSERT_EQUAL(p.end, 2000);
	tz_lookup(z, 99999, &p); /* no extend: the last type forever */
	CU_ASSERT_STRING_EQUAL(p.abbr, "CET");
	CU_ASSERT_EQUAL(p.end, TZ_OMEGA);
	tz_zone_free(z);

	/* Type 0 used and the first transition to DST: the nearest earlier standard type. */
	{
		struct tz_type t2[] = { { 3600, false, "CET" }, { 7200, true, "CEST" } };
		struct tz_transition x2[] = { { 100, 1 }, { 200, 0 } };

		z = tz_zone_new("T2", t2, 2, x2, 2, "");
		tz_lookup(z, 50, &p);
		CU_ASSERT_STRING_EQUAL(p.abbr, "CET");
		tz_zone_free(z);
	}
}

static void test_builtin_and_fixed(void)
{
	struct tz_period p;
	struct tz_zone *f = tz_fixed_zone("", 19800);
	struct tz_civil c;

	tz_lookup(tz_utc(), 12345, &p);
	CU_ASSERT_STRING_EQUAL(p.abbr, "UTC");
	CU_ASSERT_EQUAL(p.offset, 0);
	CU_ASSERT_EQUAL(p.start, TZ_ALPHA);
	CU_ASSERT_EQUAL(p.end, TZ_OMEGA);
	tz_lookup(tz_local(), 12345, &p);
	CU_ASSERT_EQUAL(p.offset, 0);
	CU_ASSERT_PTR_NOT_EQUAL(tz_local(), tz_utc());

	tz_lookup(f, 0, &p);
	CU_ASSERT_EQUAL(p.offset, 19800);
	CU_ASSERT_EQUAL(p.start, TZ_ALPHA);
	CU_ASSERT_EQUAL(p.end, TZ_OMEGA);
	tz_civil(f, 0, &c);
	CU_ASSERT_EQUAL(c.hour, 5);
	CU_ASSERT_EQUAL(c.min, 30);
	CU_ASSERT_EQUAL(c.weekday, 4); /* 1970-01-01 was a Thursday */
	tz_zone_free(f);
}

/* time.Date normalises out-of-range fields. */
static void test_date_normalises(void)
{
	CU_ASSERT_EQUAL(tz_date(2026, 13, 1, 0, 0, 0, tz_utc()), 1798761600);  /* 2027-01-01 */
	CU_ASSERT_EQUAL(tz_date(2026, 3, 0, 0, 0, 0, tz_utc()), 1772236800);   /* 2026-02-28 */
	CU_ASSERT_EQUAL(tz_date(2026, 1, 1, -1, 0, 0, tz_utc()), 1767222000);  /* 2025-12-31 23:00 */
	CU_ASSERT_EQUAL(tz_date(2024, 2, 29, 25, 61, 61, tz_utc()), 1709258521);
}

static const struct tz_zone *find_none(void *ctx, const char *name, char *err, size_t errlen)
{
	(void)ctx;
	(void)name;
	(void)err;
	(void)errlen;
	return NULL;
}

static void test_load_location_names(void)
{
	const struct tz_zone *z = NULL;
	char err[TZ_ERRLEN];

	CU_ASSERT_EQUAL(tz_load_location("", find_none, NULL, &z, err, sizeof(err)), 0);
	CU_ASSERT_PTR_EQUAL(z, tz_utc());
	CU_ASSERT_EQUAL(tz_load_location("UTC", find_none, NULL, &z, err, sizeof(err)), 0);
	CU_ASSERT_PTR_EQUAL(z, tz_utc());
	CU_ASSERT_EQUAL(tz_load_location("Local", find_none, NULL, &z, err, sizeof(err)), 0);
	CU_ASSERT_PTR_EQUAL(z, tz_local());
	CU_ASSERT_EQUAL(tz_load_location("../etc/passwd", find_none, NULL, &z, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "time: invalid location name");
	CU_ASSERT_EQUAL(tz_load_location("/etc/localtime", find_none, NULL, &z, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "time: invalid location name");
	CU_ASSERT_EQUAL(tz_load_location("Mars/Olympus", find_none, NULL, &z, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "unknown time zone Mars/Olympus");
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "lookup and Date: Europe/Berlin rule (DST switch 2026-03-29 01:00 UTC)", test_berlin_rule },
		{ "lookup and Date: America/New_York rule (gap backwards, overlap first)", test_new_york_rule },
		{ "lookup and Date: Australia/Lord_Howe half-hour DST", test_lord_howe_rule },
		{ "lookup: Asia/Kolkata rule without DST", test_kolkata_rule },
		{ "lookup: transition table and lookupFirstZone", test_transition_table },
		{ "UTC, Local and FixedZone", test_builtin_and_fixed },
		{ "Date normalises months, days and hours", test_date_normalises },
		{ "LoadLocation: UTC, Local and refused names", test_load_location_names },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("tz", tests);
}
