#ifndef MAGOS_ENGINE_GODURATION_H
#define MAGOS_ENGINE_GODURATION_H

/*
 * Go's time.ParseDuration (Go 1.26 src/time/format.go: ParseDuration,
 * leadingInt, leadingFraction), one copy for the engine ports that read a
 * duration (the cron descriptor "@every", engine/cron.c) and for the
 * simulator's own inputs (sim/base/gotime.h).  Pure: no I/O.
 *
 * The checks run in Go's order (sign, the lone "0", per component the
 * digits, the fraction, the unit, the overflow checks against 1<<63 on the
 * unsigned magnitude), because the error a user sees depends on which check
 * fires first, and the fraction is added through Go's float64 product,
 * whose rounding is part of the result.
 */

#include <stddef.h>
#include <stdint.h>

/* Return codes of godur_parse(): 0 on success, one of these otherwise. */
enum {
	GODUR_EINVAL = -1, /* syntax error, missing or unknown unit */
	GODUR_ERANGE = -2, /* the value does not fit int64 nanoseconds */
};

/*
 * godur_parse() - @s parsed exactly as time.ParseDuration parses it.
 * @s:      NUL-terminated text: [-+]?([0-9]*(\.[0-9]*)?unit)+ with unit one of
 *          ns us µs (U+00B5) μs (U+03BC) ms s m h; "0", "+0" and "-0" alone
 *          are valid without a unit.
 * @out_ns: receives the duration in nanoseconds; untouched on error.
 * @err:    receives Go's error text byte for byte (may be NULL; cut to
 *          @errlen bytes with the NUL): `time: invalid duration "x"`,
 *          `time: missing unit in duration "1"`, `time: unknown unit "d" in
 *          duration "1d"`, quoted as time's quote() does (gofmt_time_quote()).
 * Returns: 0; GODUR_EINVAL on a syntax error or a missing or unknown unit;
 *          GODUR_ERANGE past int64 nanoseconds (about 2562047h47m16.854s; Go
 *          says "invalid duration" then too, and so does @err).
 */
int godur_parse(const char *s, int64_t *out_ns, char *err, size_t errlen);

#endif
