#ifndef MAGOS_ENGINE_TZ_H
#define MAGOS_ENGINE_TZ_H

/*
 * Go's time.Location over a table of zone transitions: the UTC offset in
 * force at an instant, the civil date and clock of an instant in a zone, and
 * time.Date's resolution of a wall-clock reading to an instant, including
 * what Date really does in a daylight-saving gap or overlap.
 *
 * A zone is what a TZif file holds (RFC 8536; sim/load/tzif reads them):
 * local time types (offset, DST flag, abbreviation), transitions (a UTC
 * instant and the type in force from it on), and the POSIX TZ rule string
 * ("CET-1CEST,M3.5.0,M10.5.0/3") that extends the table past its last
 * transition.  Built-in: UTC, Local (see tz_local()) and fixed zones.
 *
 * Time is Unix seconds (int64) here; callers holding Unix ms split off the
 * sub-second part themselves (Go keeps it apart too, as Time.nsec).  The
 * calendar is proleptic Gregorian, computed from day counts; nothing reads
 * the C library's time zone.
 *
 * Source: Go 1.26 src/time/zoneinfo.go (Location.lookup, lookupFirstZone,
 *         firstZoneUsed, tzset, tzsetName, tzsetOffset, tzsetRule, tzsetNum,
 *         tzruleTime, FixedZone, LoadLocation's name checks),
 *         src/time/time.go (Date, norm, Time.Date/Clock/Weekday/YearDay via
 *         absolute days, daysBefore, daysIn, isLeap),
 *         src/time/zoneinfo_read.go (LoadLocationFromTZData's fake
 *         transition for a table without transitions).
 * Deviations: Go's one-entry lookup cache is left out (it returns what the
 *         search returns); Local is UTC (tz_local()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The beginning and end of time for zone periods (Go's alpha and omega). */
#define TZ_ALPHA INT64_MIN
#define TZ_OMEGA INT64_MAX

/* Buffer size that holds every error text of this module for names up to 200 bytes. */
#define TZ_ERRLEN 256

/* A local time type (Go's zone). */
struct tz_type {
	int32_t offset;   /* seconds east of UTC */
	bool is_dst;
	const char *abbr; /* "CET", "+0530"; copied by tz_zone_new() */
};

/* A transition (Go's zoneTrans): from @when on, type @index is in force. */
struct tz_transition {
	int64_t when;   /* Unix seconds; TZ_ALPHA for "since the beginning" */
	uint8_t index;  /* into the zone's types */
};

/* A zone (Go's Location); opaque, immutable once built. */
struct tz_zone;

/*
 * tz_zone_new() - a zone from a transition table, as
 * LoadLocationFromTZData builds a Location.
 * @name:   the zone's name ("Europe/Berlin"), copied.
 * @types:  @ntypes >= 1 local time types (asserted), copied.
 * @tx:     @ntx transitions in ascending order of @when, each index <
 *          @ntypes (asserted), copied.  With @ntx == 0 the zone gets Go's
 *          fake transition {TZ_ALPHA, 0}, so type 0 is in force forever.
 * @extend: the POSIX TZ rule string of the TZif footer, "" or NULL when
 *          none; copied.  A string Go cannot parse is kept and ignored by
 *          tz_lookup(), as Go ignores it.
 * Returns: a new zone; caller frees with tz_zone_free().
 * Errors:  cannot fail (aborts on out-of-memory).
 */
struct tz_zone *tz_zone_new(const char *name, const struct tz_type *types, size_t ntypes,
			    const struct tz_transition *tx, size_t ntx, const char *extend);

/* tz_zone_free() - frees a zone from tz_zone_new() or tz_fixed_zone().  Accepts NULL and the built-ins (ignored). */
void tz_zone_free(struct tz_zone *z);

/* tz_utc() - Go's time.UTC: no types; every lookup is "UTC", offset 0, [TZ_ALPHA, TZ_OMEGA).  Static. */
const struct tz_zone *tz_utc(void);

/*
 * tz_local() - Go's time.Local as the controller's container has it: no TZ
 * variable and no /etc/localtime in the distroless image, so Go falls back
 * to UTC rules and names the zone "UTC".  A distinct zone all the same,
 * because robfig/cron treats a schedule whose location is Local as "the
 * location of the time given to Next" and compares the pointer.  Static.
 */
const struct tz_zone *tz_local(void);

/*
 * tz_fixed_zone() - Go's FixedZone(@name, @offset): one type, in force
 * forever.
 * Returns: a new zone; caller frees with tz_zone_free().
 */
struct tz_zone *tz_fixed_zone(const char *name, int32_t offset);

/* tz_name() - the zone's name (Location.String()); borrowed, valid as long as @z. */
const char *tz_name(const struct tz_zone *z);

/* The zone period around an instant (Location.lookup's results). */
struct tz_period {
	const char *abbr;      /* borrowed from the zone (or static for UTC) */
	int32_t offset;        /* seconds east of UTC */
	int64_t start, end;    /* Unix seconds, [start, end); TZ_ALPHA / TZ_OMEGA when open */
	bool is_dst;
};

/*
 * tz_lookup() - Location.lookup(@sec): the type in force at Unix second
 * @sec and the bounds Go reports for it.  Past the last transition the
 * extend rule decides; its periods are, as in Go, exact near a DST switch
 * and otherwise cut at the start and end of the UTC year (Date only needs
 * them near a switch).
 * Cost: O(log transitions).
 */
void tz_lookup(const struct tz_zone *z, int64_t sec, struct tz_period *out);

/* A civil date and clock reading in a zone. */
struct tz_civil {
	int64_t year;
	int month;   /* 1..12 */
	int day;     /* 1..31 */
	int hour, min, sec;
	int weekday; /* 0 Sunday .. 6 Saturday */
	int yday;    /* 1..366 */
	int32_t offset;
};

/*
 * tz_civil() - what Go's t.In(@z) reports for the instant @sec through
 * Date(), Clock(), Weekday(), YearDay(), and the zone offset.
 */
void tz_civil(const struct tz_zone *z, int64_t sec, struct tz_civil *out);

/*
 * tz_date() - Go's time.Date(@year, @month, @day, @hour, @min, @sec, 0, @z)
 * as Unix seconds.  Fields out of range are normalised as Go does (month 13
 * is January of the next year, day 0 the last day of the month before,
 * hour -1 the last hour of the day before).
 *
 * A wall time that does not exist (spring-forward gap) or exists twice
 * (fall-back overlap) resolves as Go's Date resolves it, which Go documents
 * as "not guaranteed" but which is deterministic: the offset in force at the
 * wall reading taken as a UTC instant is tried first; when that offset puts
 * the instant outside its own period, the offset in force at the resulting
 * instant is used instead — but only when the first offset is not zero.  In
 * Europe/Berlin 2026-03-29 02:30 (a gap) becomes 03:30 CEST (01:30 UTC) and
 * 2026-10-25 02:30 (an overlap) becomes 02:30 CET, the second occurrence; in
 * America/New_York, west of UTC, the gap reading 2026-03-08 02:30 goes
 * backwards to 01:30 EST (06:30 UTC) and the overlap 2026-11-01 01:30 is
 * 01:30 EDT, the first occurrence.
 */
int64_t tz_date(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t min, int64_t sec,
		const struct tz_zone *z);

/*
 * The zone lookup time.LoadLocation falls back to: the zone named @name, or
 * NULL with the error text in @err (Go's: "unknown time zone X", "is a
 * directory", "malformed time zone information").  The zone is borrowed and
 * must outlive its use.
 */
typedef const struct tz_zone *(*tz_find_fn)(void *ctx, const char *name, char *err, size_t errlen);

/*
 * tz_load_location() - time.LoadLocation(@name): "" and "UTC" are tz_utc(),
 * "Local" is tz_local(), a name containing ".." or starting with '/' or '\'
 * is refused ("time: invalid location name"), anything else is asked of
 * @find.
 * @out: receives the zone (borrowed).
 * @err: receives the error text (NUL-terminated, truncated to @errlen).
 * Returns: 0, or -1 with @err.
 */
int tz_load_location(const char *name, tz_find_fn find, void *ctx, const struct tz_zone **out, char *err,
		     size_t errlen);

/* ---- calendar helpers (proleptic Gregorian, as Go's) ---------------------- */

/* tz_days_from_civil() - days since 1970-01-01 of @year-@month-01 plus (@day - 1); @month 1..12. */
int64_t tz_days_from_civil(int64_t year, int month, int64_t day);

/* tz_is_leap() - Go's isLeap. */
bool tz_is_leap(int64_t year);

#endif
