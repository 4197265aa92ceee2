/* Go's time.ParseDuration: see engine/goduration.h. */
#include "engine/goduration.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/strbuf.h"

#define TWO63 (UINT64_C(1) << 63)

/*
 * Go's error text into @err (@errlen bytes): @what, the quoted @unit (@nunit
 * bytes) and " in duration " when @unit is not NULL, then the quoted @orig.
 * Returns @code.
 */
static int fail(char *err, size_t errlen, int code, const char *what, const char *unit,
		size_t nunit, const char *orig)
{
	struct strbuf b = { 0 };

	if (!err || !errlen)
		return code;
	strbuf_add(&b, what);
	if (unit) {
		struct strbuf u = { 0 };

		strbuf_addn(&u, unit, nunit);
		strbuf_add_free(&b, gofmt_time_quote(u.s));
		strbuf_release(&u);
		strbuf_add(&b, " in duration ");
	}
	strbuf_add_free(&b, gofmt_time_quote(orig));
	snprintf(err, errlen, "%s", b.s);
	strbuf_release(&b);
	return code;
}

static int invalid(char *err, size_t errlen, int code, const char *orig)
{
	return fail(err, errlen, code, "time: invalid duration ", NULL, 0, orig);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The unit table of Go's time package (unitMap), in nanoseconds; 0 for unknown. */
static uint64_t unit_ns(const char *u, size_t n)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 },
		{ "us", UINT64_C(1000) },
		{ "\xc2\xb5s", UINT64_C(1000) }, /* U+00B5 micro sign */
		{ "\xce\xbcs", UINT64_C(1000) }, /* U+03BC greek small letter mu */
		{ "ms", UINT64_C(1000000) },
		{ "s", UINT64_C(1000000000) },
		{ "m", UINT64_C(60000000000) },
		{ "h", UINT64_C(3600000000000) },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n && memcmp(units[i].name, u, n) == 0)
			return units[i].ns;
	return 0;
}

int godur_parse(const char *s, int64_t *out_ns, char *err, size_t errlen)
{
	const char *orig = s;
	uint64_t d = 0; /* magnitude so far; may reach 1<<63 for the negative limit */
	bool neg = false;

	if (*s == '-' || *s == '+') {
		neg = *s == '-';
		s++;
	}
	if (strcmp(s, "0") == 0) {
		*out_ns = 0;
		return 0;
	}
	if (*s == '\0')
		return invalid(err, errlen, GODUR_EINVAL, orig);
	while (*s) {
		uint64_t v = 0, f = 0, unit;
		double scale = 1;
		bool pre, post = false;
		const char *start, *u;

		if (!(*s == '.' || is_digit(*s)))
			return invalid(err, errlen, GODUR_EINVAL, orig);
		/* Integer part; Go's leadingInt fails (as a syntax error) past 1<<63. */
		for (start = s; is_digit(*s); s++) {
			if (v > TWO63 / 10)
				return invalid(err, errlen, GODUR_ERANGE, orig);
			v = v * 10 + (uint64_t)(*s - '0');
			if (v > TWO63)
				return invalid(err, errlen, GODUR_ERANGE, orig);
		}
		pre = s != start;
		/* Fraction (leadingFraction): digits that would overflow are read and ignored. */
		if (*s == '.') {
			bool overflow = false;

			s++;
			for (start = s; is_digit(*s); s++) {
				uint64_t y;

				if (overflow)
					continue;
				if (f > (TWO63 - 1) / 10) {
					overflow = true;
					continue;
				}
				y = f * 10 + (uint64_t)(*s - '0');
				if (y > TWO63) {
					overflow = true;
					continue;
				}
				f = y;
				scale *= 10;
			}
			post = s != start;
		}
		if (!pre && !post)
			return invalid(err, errlen, GODUR_EINVAL, orig);
		/* The unit runs to the next digit or '.', whatever bytes those are. */
		for (u = s; *s && *s != '.' && !is_digit(*s); s++)
			;
		if (s == u)
			return fail(err, errlen, GODUR_EINVAL, "time: missing unit in duration ", NULL,
				    0, orig);
		unit = unit_ns(u, (size_t)(s - u));
		if (unit == 0)
			return fail(err, errlen, GODUR_EINVAL, "time: unknown unit ", u,
				    (size_t)(s - u), orig);
		if (v > TWO63 / unit)
			return invalid(err, errlen, GODUR_ERANGE, orig);
		v *= unit;
		if (f > 0) {
			/*
			 * Go: v += uint64(float64(f) * (float64(unit) / scale)).
			 * The product is below one unit (<= 3.6e12), so the
			 * conversion is in range; it truncates, as Go's does.
			 */
			v += (uint64_t)((double)f * ((double)unit / scale));
			if (v > TWO63)
				return invalid(err, errlen, GODUR_ERANGE, orig);
		}
		d += v;
		if (d > TWO63)
			return invalid(err, errlen, GODUR_ERANGE, orig);
	}
	if (neg) {
		/* d <= 1<<63: the negation is INT64_MIN at worst, computed unsigned. */
		*out_ns = d == TWO63 ? INT64_MIN : -(int64_t)d;
		return 0;
	}
	if (d > TWO63 - 1)
		return invalid(err, errlen, GODUR_ERANGE, orig);
	*out_ns = (int64_t)d;
	return 0;
}
