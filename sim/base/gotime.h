#ifndef MAGOS_SIM_GOTIME_H
#define MAGOS_SIM_GOTIME_H

/*
 * Go's time syntax on an integer clock.
 *
 * Simulated time is int64_t milliseconds since scenario start.  Scenario
 * files and real manifests write durations as Go's time.ParseDuration reads
 * them ("90s", "1h30m") and timestamps as RFC 3339; timelines print durations
 * the way Go's Duration.String() does, so what the user reads matches what
 * the controllers log.
 *
 * Go works in nanoseconds.  The parsers here compute the exact Go value in
 * int64 nanoseconds (same grammar, same overflow limits, same float64 rounding
 * of long fractions) and the millisecond variants convert it the way Go's
 * Duration.Milliseconds() does: truncation toward zero, so "1.9ms" is 1 ms and
 * "-1.9ms" is -1 ms.  Callers that must not lose sub-millisecond parts use
 * the _ns variants.
 *
 * Wall clock: a scenario may anchor simulated time 0 at a wall-clock instant
 * (anchor_unix_ms).  Simulated t then corresponds to wall time
 * anchor_unix_ms + t, and everything stored in a metav1.Time is that wall
 * time truncated to whole seconds (see gt_metav1_store()).
 *
 * No function here uses the C library's time zone, locale or timegm(): the
 * calendar is proleptic Gregorian, computed from day counts.
 */

#include <stddef.h>
#include <stdint.h>

/* Return codes: 0 on success, one of these otherwise. */
enum {
	GT_EINVAL = -1, /* syntax error, unknown unit, out-of-range field */
	GT_ERANGE = -2, /* value does not fit (Go: int64 nanoseconds) */
};

/* Buffer size that always holds a formatted duration (either variant) and its NUL. */
#define GT_DURATION_BUFSZ 40
/* Buffer size that always holds gt_format_rfc3339{,_nano}() output and its NUL. */
#define GT_RFC3339_BUFSZ 48

/*
 * gt_parse_duration_ns() - parse a duration exactly as Go's time.ParseDuration
 * (engine/goduration.h: godur_parse(), whose codes GT_EINVAL and GT_ERANGE are).
 * @s:      NUL-terminated text: [-+]?([0-9]*(\.[0-9]*)?unit)+ with unit one of
 *          ns us µs (U+00B5) μs (U+03BC) ms s m h; "0", "+0" and "-0" alone
 *          are valid without a unit.
 * @out_ns: receives the duration in nanoseconds; untouched on error.
 * @err:    receives the error text (may be NULL; truncated to @errlen bytes
 *          including the NUL).  The texts are Go's, byte for byte:
 *          `time: invalid duration "x"`, `time: missing unit in duration "1"`,
 *          `time: unknown unit "d" in duration "1d"`; bytes outside printable
 *          ASCII are quoted as \xHH and '"' and '\' get a backslash, as Go does.
 * Returns: 0; GT_EINVAL on a syntax error or unknown unit; GT_ERANGE when the
 *          value exceeds int64 nanoseconds (Go's limit, about 2562047h47m16.854s;
 *          Go reports this as an invalid duration and so does @err).
 */
int gt_parse_duration_ns(const char *s, int64_t *out_ns, char *err, size_t errlen);

/*
 * gt_parse_duration() - gt_parse_duration_ns(), converted to milliseconds.
 * @out_ms: receives the value in ms, truncated toward zero like Go's
 *          Duration.Milliseconds() ("1500us" is 1 ms, "-1500us" is -1 ms).
 * Returns and errors: as gt_parse_duration_ns().
 */
int gt_parse_duration(const char *s, int64_t *out_ms, char *err, size_t errlen);

/*
 * gt_format_duration_ns() - Go's Duration.String() of @ns nanoseconds.
 * @buf, @len: output buffer; always NUL-terminated when @len > 0, truncated if
 *          too small (GT_DURATION_BUFSZ is always enough).
 * Examples: 0s, 1ns, 1.1µs (U+00B5), 2.2ms, 1h15m30.918273645s, -1m30s,
 *          -2562047h47m16.854775808s.
 * Returns: the length of the full text (without the NUL), like snprintf.
 * Errors:  cannot fail.
 */
size_t gt_format_duration_ns(int64_t ns, char *buf, size_t len);

/*
 * gt_format_duration() - Go's Duration.String() of @ms milliseconds.
 * Same text as gt_format_duration_ns(@ms * 1000000) wherever that product fits
 * in int64; beyond Go's range the same format continues (more hours).
 * Examples: 0s, 500ms, 1.5s, 30s, 1m30s, 3m0s, 45m0s, 1h0m0s, 2h45m0.5s.
 * Returns: the length of the full text (without the NUL), like snprintf.
 * Errors:  cannot fail.
 */
size_t gt_format_duration(int64_t ms, char *buf, size_t len);

/*
 * gt_parse_rfc3339_ns() - parse an RFC 3339 timestamp as Go's
 * time.Parse(time.RFC3339, s) does (which also accepts RFC3339Nano text).
 * @s:        "YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm)"; 'T' and 'Z'
 *            upper case; year 0000..9999; fields range-checked against the
 *            calendar (no Feb 30, no hour 24, no leap second 60); offset hours
 *            0..24 and minutes 0..60 (Go's limits); fraction digits beyond the
 *            ninth ignored.  Go's parser also takes a few lax forms (a
 *            one-digit hour, ',' before the fraction); those are rejected
 *            here, and the syntax-error text differs from Go's (range errors
 *            use Go's words).
 * @unix_sec: receives seconds since 1970-01-01T00:00:00Z (negative before).
 * @nsec:     receives 0..999999999, the sub-second part (may be NULL).
 * @err:      receives a message (may be NULL), e.g.
 *            `parsing time "2026-02-30T00:00:00Z": day out of range`.
 * Returns:   0, or GT_EINVAL (outputs untouched).
 */
int gt_parse_rfc3339_ns(const char *s, int64_t *unix_sec, int32_t *nsec, char *err,
			size_t errlen);

/*
 * gt_parse_rfc3339() - gt_parse_rfc3339_ns() as Unix milliseconds.
 * @unix_ms: receives ms since the epoch; the sub-millisecond part is dropped
 *           toward the past (floor), as Go's Time.UnixMilli() does.
 * Returns:  0, or GT_EINVAL.
 */
int gt_parse_rfc3339(const char *s, int64_t *unix_ms, char *err, size_t errlen);

/*
 * gt_format_rfc3339() - UTC time in whole seconds, "2026-04-26T10:00:00Z", as a
 * metav1.Time is serialised.
 * @unix_ms: ms since the epoch; the sub-second part is dropped toward the past.
 * @buf, @len: output, NUL-terminated when @len > 0 (GT_RFC3339_BUFSZ is enough).
 * Returns:  the length of the full text, like snprintf.  Years outside
 *           0..9999 print with more digits or a '-' sign, as Go's Format does.
 * Errors:   cannot fail.
 */
size_t gt_format_rfc3339(int64_t unix_ms, char *buf, size_t len);

/*
 * gt_format_rfc3339_nano() - as gt_format_rfc3339() plus the millisecond
 * fraction with trailing zeros trimmed, like Go's time.RFC3339Nano:
 * "2026-04-26T10:00:00.5Z", "2026-04-26T10:00:00.123Z", "2026-04-26T10:00:00Z".
 * Returns:  the length of the full text, like snprintf.
 * Errors:   cannot fail.
 */
size_t gt_format_rfc3339_nano(int64_t unix_ms, char *buf, size_t len);

/*
 * gt_truncate_to_second() - @ms rounded down (toward -inf) to a multiple of
 * 1000: what storing a time in a metav1.Time does to a wall-clock time
 * (-1 is -1000, 1999 is 1000).
 * Errors:   cannot fail; inputs below -9223372036854775000, whose floor is
 *           not representable, return -9223372036854775000.
 */
int64_t gt_truncate_to_second(int64_t ms);

/*
 * gt_metav1_store() - the simulated time a metav1.Time written at simulated
 * time @t_ms reads back as.
 * @anchor_unix_ms: wall-clock time of simulated time 0, ms since the epoch.
 * @t_ms:           simulated time, ms since scenario start.
 * Returns: gt_truncate_to_second(anchor_unix_ms + t_ms) - anchor_unix_ms: the
 *          truncation is done on the wall time, so with an anchor that is not
 *          a whole second the stored time is not a multiple of 1000 simulated
 *          ms, and it can be up to 999 ms earlier than @t_ms (and negative).
 * Errors:  cannot fail (the sum is assumed to fit in int64).
 */
int64_t gt_metav1_store(int64_t anchor_unix_ms, int64_t t_ms);

#endif
