#ifndef MAGOS_ENGINE_CRON_H
#define MAGOS_ENGINE_CRON_H

/*
 * Cron schedules as robfig/cron v3.0.1 parses and steps them (the version
 * metio/stageset-controller pins): ParseStandard's five fields (minute,
 * hour, day of month, month, day of week) with ranges, steps, lists, month
 * and weekday names, '*' and '?'; the descriptors @yearly, @annually,
 * @monthly, @weekly, @daily, @midnight, @hourly and "@every <Go duration>";
 * the "TZ=<zone> " and "CRON_TZ=<zone> " prefixes; and
 * SpecSchedule.Next / ConstantDelaySchedule.Next with their five-year
 * give-up and their handling of daylight-saving switches in the schedule's
 * location.  The general Parser with its field options is here too, so
 * robfig's own test tables (six-field specs) can be ported.
 *
 * Times are Unix ms with a location (engine/tz.h), as a Go time.Time is an
 * instant with a location; CRON_NO_TIME is Go's zero Time, which Next
 * returns when nothing matches within five years.
 *
 * Source: robfig/cron v3.0.1 parser.go (Parse, normalizeFields,
 *         ParseStandard, getField, getRange, parseIntOrName, mustParseInt,
 *         getBits, all, parseDescriptor), spec.go (bounds, SpecSchedule.Next,
 *         dayMatches), constantdelay.go (Every, ConstantDelaySchedule.Next);
 *         Go 1.26 time.ParseDuration (for @every) and strconv.Atoi (field
 *         numbers), with their error texts.
 * Deviations: see engine/PROVENANCE.md, section engine/cron.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/tz.h"

/* Go's zero time.Time (January 1, year 1, UTC), as Unix ms. */
#define CRON_NO_TIME INT64_MIN

/* The bit robfig sets in a field written with '*' or '?' (and no step > 1). */
#define CRON_STAR_BIT (UINT64_C(1) << 63)

/* Buffer size that holds every error text for specs up to 200 bytes. */
#define CRON_ERRLEN 512

/* Return codes. */
enum {
	CRON_OK = 0,
	CRON_EINVAL = -1, /* Parse returned an error: the text is in err */
	CRON_EPANIC = -2, /* Parse panics in Go: a TZ=/CRON_TZ= prefix with no space after it */
};

/* ParseOption: which fields a Parser reads, and whether descriptors are allowed. */
enum cron_option {
	CRON_SECOND = 1 << 0,
	CRON_SECOND_OPTIONAL = 1 << 1,
	CRON_MINUTE = 1 << 2,
	CRON_HOUR = 1 << 3,
	CRON_DOM = 1 << 4,
	CRON_MONTH = 1 << 5,
	CRON_DOW = 1 << 6,
	CRON_DOW_OPTIONAL = 1 << 7,
	CRON_DESCRIPTOR = 1 << 8,
};

/* The options of ParseStandard's parser. */
#define CRON_STANDARD (CRON_MINUTE | CRON_HOUR | CRON_DOM | CRON_MONTH | CRON_DOW | CRON_DESCRIPTOR)

/* A field's bounds (spec.go bounds); names NULL or a NULL-terminated list indexed by value - min. */
struct cron_bounds {
	unsigned min, max;
	const char *const *names; /* lower-case names, names[i] is value min + i */
};

extern const struct cron_bounds cron_seconds, cron_minutes, cron_hours, cron_dom, cron_months, cron_dow;

/* A parsed schedule: a SpecSchedule or a ConstantDelaySchedule. */
struct cron_schedule {
	bool constant_delay;
	/* SpecSchedule: bit n set when value n matches (plus CRON_STAR_BIT). */
	uint64_t second, minute, hour, dom, month, dow;
	/* SpecSchedule's Location: tz_local() when the spec named none (borrowed). */
	const struct tz_zone *location;
	/* ConstantDelaySchedule's Delay, ns: whole seconds, at least one. */
	int64_t delay_ns;
};

/*
 * cron_parse() - Parser{@options}.Parse(@spec).
 * @find, @ctx: how a TZ=/CRON_TZ= zone name is found (time.LoadLocation
 *       through tz_load_location(); "Local" and "UTC" need no @find).
 * @out: filled on success.
 * @err: receives robfig's error text on failure, e.g. "empty spec string",
 *       "expected exactly 5 fields, found 4: [* * * *]",
 *       "failed to parse int from j: strconv.Atoi: parsing \"j\": invalid syntax",
 *       "end of range (60) above maximum (59): 60",
 *       "failed to parse duration @every Xm: time: invalid duration \"Xm\"",
 *       "unrecognized descriptor: @fortnightly",
 *       "provided bad location Mars/Olympus: unknown time zone Mars/Olympus".
 * Returns: CRON_OK; CRON_EINVAL; CRON_EPANIC when Go panics (a TZ prefix
 *          without a space: robfig slices spec[eq+1:-1]), with @err
 *          "runtime error: slice bounds out of range [:-1]".
 * Deviations: NewParser's panic on two optional fields is the error
 *          normalizeFields would give ("multiple optionals may not be
 *          configured").
 */
int cron_parse(const char *spec, unsigned options, tz_find_fn find, void *ctx, struct cron_schedule *out,
	       char *err, size_t errlen);

/* cron_parse_standard() - ParseStandard(@spec): cron_parse() with CRON_STANDARD. */
int cron_parse_standard(const char *spec, tz_find_fn find, void *ctx, struct cron_schedule *out, char *err,
			size_t errlen);

/*
 * cron_next() - Schedule.Next(t): the first activation strictly after the
 * instant @t_ms, where t is in location @t_loc (a schedule without its own
 * location runs in @t_loc).
 * SpecSchedule: searches month, day, hour, minute, second in the
 * schedule's location, resetting lower fields as robfig does; a day whose
 * midnight does not exist (DST) is entered at the hour robfig adjusts to; a
 * wall time in a spring-forward gap is skipped, one in a fall-back overlap
 * can match twice.  Returns CRON_NO_TIME when no match lies within five
 * years (e.g. "0 0 30 2 *").
 * ConstantDelaySchedule: @t_ms rounded down to the second plus the delay.
 * Returns: Unix ms (whole seconds), or CRON_NO_TIME.
 */
int64_t cron_next(const struct cron_schedule *s, int64_t t_ms, const struct tz_zone *t_loc);

/* ---- parser pieces, exported for robfig's own test tables ---------------- */

/* getRange: the bits of one "number | number-number [/ number]" expression (or '*'/'?'). */
int cron_get_range(const char *expr, const struct cron_bounds *r, uint64_t *bits, char *err, size_t errlen);
/* getField: the bits of a comma-separated list of ranges. */
int cron_get_field(const char *field, const struct cron_bounds *r, uint64_t *bits, char *err, size_t errlen);
/* getBits: bits min..max stepping by step (step >= 1). */
uint64_t cron_get_bits(unsigned min, unsigned max, unsigned step);
/* all: every bit of @r plus CRON_STAR_BIT. */
uint64_t cron_all(const struct cron_bounds *r);

#endif
