/*
 * Go duration and RFC 3339 syntax on int64 clocks.  See sim/base/gotime.h.
 *
 * The duration parser is the engine's (engine/goduration.h), the quoting of
 * error texts time's quote() (engine/gofmt.h).
 */
#include "sim/base/gotime.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/goduration.h"
#include "engine/strbuf.h"

#define NS_PER_US UINT64_C(1000)
#define NS_PER_MS UINT64_C(1000000)
#define NS_PER_S UINT64_C(1000000000)
#define NS_PER_M (60 * NS_PER_S)
#define NS_PER_H (60 * NS_PER_M)

/* ---- durations ---------------------------------------------------------- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

_Static_assert((int)GT_EINVAL == (int)GODUR_EINVAL && (int)GT_ERANGE == (int)GODUR_ERANGE,
	       "gt_parse_duration_ns() passes godur_parse()'s codes on");

int gt_parse_duration_ns(const char *s, int64_t *out_ns, char *err, size_t errlen)
{
	return godur_parse(s, out_ns, err, errlen);
}

int gt_parse_duration(const char *s, int64_t *out_ms, char *err, size_t errlen)
{
	int64_t ns;
	int rc = gt_parse_duration_ns(s, &ns, err, errlen);

	if (rc == 0)
		*out_ms = ns / (int64_t)NS_PER_MS; /* C division truncates toward zero */
	return rc;
}

/*
 * Writes backwards from *@w (exclusive) into @arr.  Puts the @prec lowest
 * decimal digits of @v as ".ddd" with trailing zeros (and then the point)
 * omitted; returns @v / 10^@prec.
 */
static uint64_t put_frac(char *arr, size_t *w, uint64_t v, int prec)
{
	bool print = false;
	int i;

	for (i = 0; i < prec; i++) {
		char digit = (char)(v % 10);

		print = print || digit != 0;
		if (print)
			arr[--*w] = (char)('0' + digit);
		v /= 10;
	}
	if (print)
		arr[--*w] = '.';
	return v;
}

static void put_uint(char *arr, size_t *w, uint64_t v)
{
	do {
		arr[--*w] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
}

static void put_str_back(char *arr, size_t *w, const char *s)
{
	size_t n = strlen(s);

	*w -= n;
	memcpy(arr + *w, s, n);
}

/* Copies @n bytes of @s into @buf, snprintf-style. */
static size_t emit(const char *s, size_t n, char *buf, size_t len)
{
	if (len > 0) {
		size_t k = n < len - 1 ? n : len - 1;

		memcpy(buf, s, k);
		buf[k] = '\0';
	}
	return n;
}

/*
 * Go's Duration.format on the magnitude @u, either in ns (@per_s = 1e9) or
 * in ms (@per_s = 1000): below a second the largest sub-second unit with a
 * fraction, otherwise [h][m]s with the seconds' fraction trimmed.
 */
static size_t format_mag(uint64_t u, bool neg, bool in_ns, char *buf, size_t len)
{
	char arr[48];
	size_t w = sizeof(arr);
	uint64_t per_s = in_ns ? NS_PER_S : 1000;

	if (u < per_s) {
		int prec;

		if (u == 0)
			return emit("0s", 2, buf, len);
		if (!in_ns) {
			prec = 0;
			put_str_back(arr, &w, "ms");
		} else if (u < NS_PER_US) {
			prec = 0;
			put_str_back(arr, &w, "ns");
		} else if (u < NS_PER_MS) {
			prec = 3;
			put_str_back(arr, &w, "\xc2\xb5s"); /* U+00B5, as Go prints */
		} else {
			prec = 6;
			put_str_back(arr, &w, "ms");
		}
		u = put_frac(arr, &w, u, prec);
		put_uint(arr, &w, u);
	} else {
		arr[--w] = 's';
		u = put_frac(arr, &w, u, in_ns ? 9 : 3);
		put_uint(arr, &w, u % 60); /* u is whole seconds */
		u /= 60;
		if (u > 0) {
			arr[--w] = 'm';
			put_uint(arr, &w, u % 60);
			u /= 60;
			if (u > 0) { /* hours; Go stops here because days vary */
				arr[--w] = 'h';
				put_uint(arr, &w, u);
			}
		}
	}
	if (neg)
		arr[--w] = '-';
	return emit(arr + w, sizeof(arr) - w, buf, len);
}

/* |@x| as uint64, exact for INT64_MIN. */
static uint64_t magnitude(int64_t x)
{
	return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

size_t gt_format_duration_ns(int64_t ns, char *buf, size_t len)
{
	return format_mag(magnitude(ns), ns < 0, true, buf, len);
}

size_t gt_format_duration(int64_t ms, char *buf, size_t len)
{
	return format_mag(magnitude(ms), ms < 0, false, buf, len);
}

/* ---- calendar ------------------------------------------------------------ */

/*
 * Day numbers count from 1970-01-01 (day 0) in the proleptic Gregorian
 * calendar.  Both directions shift the year to start on March 1, so the leap
 * day is the last day of the shifted year, and split years into 400-year
 * eras of 146097 days, which repeat exactly.
 */
static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	if (m <= 2)
		y--; /* January and February belong to the previous March-year */
	era = floor_div(y, 400);
	yoe = y - era * 400;                                   /* 0..399 */
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1; /* 0..365, from March 1 */
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;           /* 0..146096 */
	return era * 146097 + doe - 719468; /* 719468: days from 0000-03-01 to 1970-01-01 */
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = floor_div(z, 146097);
	doe = z - era * 146097;                                      /* 0..146096 */
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* 0..399 */
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);               /* 0..365 */
	mp = (5 * doy + 2) / 153;                                    /* 0 = March */
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static bool is_leap(int64_t y)
{
	return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static int days_in_month(int64_t y, int m)
{
	static const int dim[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return m == 2 && is_leap(y) ? 29 : dim[m - 1];
}

/* ---- RFC 3339 ------------------------------------------------------------ */

#define RFC3339_LAYOUT "2006-01-02T15:04:05Z07:00"

static int rfc_error(char *err, size_t errlen, const char *s, const char *what)
{
	struct strbuf b = { 0 };

	if (!err || !errlen)
		return GT_EINVAL;
	strbuf_add(&b, "parsing time ");
	strbuf_add_free(&b, gofmt_time_quote(s));
	if (what) {
		strbuf_add(&b, ": ");
		strbuf_add(&b, what);
	} else {
		strbuf_add(&b, " as \"" RFC3339_LAYOUT "\": not RFC 3339");
	}
	snprintf(err, errlen, "%s", b.s);
	strbuf_release(&b);
	return GT_EINVAL;
}

/* Reads exactly @n digits at @p; -1 if any is not a digit. */
static int digits(const char *p, int n)
{
	int x = 0, i;

	for (i = 0; i < n; i++) {
		if (!is_digit(p[i]))
			return -1;
		x = x * 10 + (p[i] - '0');
	}
	return x;
}

int gt_parse_rfc3339_ns(const char *s, int64_t *unix_sec, int32_t *nsec, char *err,
			size_t errlen)
{
	int year, month, day, hour, min, sec, off = 0;
	int32_t frac = 0;
	const char *p;
	size_t n = strlen(s);
	int64_t t;

	/* Shape first: "2006-01-02T15:04:05" with every digit a digit. */
	if (n < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':')
		return rfc_error(err, errlen, s, NULL);
	year = digits(s, 4);
	month = digits(s + 5, 2);
	day = digits(s + 8, 2);
	hour = digits(s + 11, 2);
	min = digits(s + 14, 2);
	sec = digits(s + 17, 2);
	if (year < 0 || month < 0 || day < 0 || hour < 0 || min < 0 || sec < 0)
		return rfc_error(err, errlen, s, NULL);
	p = s + 19;
	/* Fraction: at least one digit; digits past the ninth are read and dropped. */
	if (p[0] == '.' && is_digit(p[1])) {
		int k = 0;

		for (p++; is_digit(*p); p++, k++)
			if (k < 9)
				frac = frac * 10 + (*p - '0');
		for (; k < 9; k++)
			frac *= 10;
	}
	if (strcmp(p, "Z") != 0) {
		int oh, om;

		if (strlen(p) != 6 || (p[0] != '+' && p[0] != '-') || p[3] != ':')
			return rfc_error(err, errlen, s, NULL);
		oh = digits(p + 1, 2);
		om = digits(p + 4, 2);
		if (oh < 0 || om < 0)
			return rfc_error(err, errlen, s, NULL);
		/* Go's slow path takes offsets up to 24 h and 60 min ("some people
		 * do write offsets of 24 hours"), so time.Parse accepts them. */
		if (oh > 24)
			return rfc_error(err, errlen, s, "time zone offset hour out of range");
		if (om > 60)
			return rfc_error(err, errlen, s, "time zone offset minute out of range");
		off = (oh * 60 + om) * 60 * (p[0] == '-' ? -1 : 1);
	}
	if (month < 1 || month > 12)
		return rfc_error(err, errlen, s, "month out of range");
	if (day < 1 || day > days_in_month(year, month))
		return rfc_error(err, errlen, s, "day out of range");
	if (hour > 23)
		return rfc_error(err, errlen, s, "hour out of range");
	if (min > 59)
		return rfc_error(err, errlen, s, "minute out of range");
	if (sec > 59)
		return rfc_error(err, errlen, s, "second out of range");
	t = days_from_civil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec;
	*unix_sec = t - off; /* local time minus its offset east of UTC */
	if (nsec)
		*nsec = frac;
	return 0;
}

int gt_parse_rfc3339(const char *s, int64_t *unix_ms, char *err, size_t errlen)
{
	int64_t sec;
	int32_t nsec;
	int rc = gt_parse_rfc3339_ns(s, &sec, &nsec, err, errlen);

	if (rc == 0)
		*unix_ms = sec * 1000 + nsec / 1000000; /* nsec >= 0: this is the floor */
	return rc;
}

/* @v (>= 0) in decimal with at least @width digits at @p; returns the end. */
static char *put_digits(char *p, uint64_t v, int width)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n < width)
		tmp[n++] = '0';
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

/*
 * Formatted by hand, not with snprintf: the controllers stamp a time on
 * almost every status write (a tenth of a Magos trial's instructions went
 * to printf here).
 */
static size_t format_rfc3339(int64_t unix_ms, bool with_ms, char *buf, size_t len)
{
	char arr[GT_RFC3339_BUFSZ], *p = arr;
	int64_t sec = floor_div(unix_ms, 1000), days = floor_div(sec, 86400), y;
	int ms = (int)(unix_ms % 1000), sod = (int)(sec - days * 86400);
	int m, d;

	if (ms < 0)
		ms += 1000; /* the ms past sec, which is the floor */

	civil_from_days(days, &y, &m, &d);
	/* Go: negative years as '-' and at least four digits. */
	if (y < 0)
		*p++ = '-';
	p = put_digits(p, (uint64_t)(y < 0 ? -y : y), 4);
	*p++ = '-';
	p = put_digits(p, (uint64_t)m, 2);
	*p++ = '-';
	p = put_digits(p, (uint64_t)d, 2);
	*p++ = 'T';
	p = put_digits(p, (uint64_t)(sod / 3600), 2);
	*p++ = ':';
	p = put_digits(p, (uint64_t)(sod / 60 % 60), 2);
	*p++ = ':';
	p = put_digits(p, (uint64_t)(sod % 60), 2);
	if (with_ms && ms) {
		*p++ = '.';
		p = put_digits(p, (uint64_t)ms, 3);
		while (p[-1] == '0')
			p--;
	}
	*p++ = 'Z';
	return emit(arr, (size_t)(p - arr), buf, len);
}

size_t gt_format_rfc3339(int64_t unix_ms, char *buf, size_t len)
{
	return format_rfc3339(unix_ms, false, buf, len);
}

size_t gt_format_rfc3339_nano(int64_t unix_ms, char *buf, size_t len)
{
	return format_rfc3339(unix_ms, true, buf, len);
}

/* ---- metav1.Time ----------------------------------------------------------- */

int64_t gt_truncate_to_second(int64_t ms)
{
	int64_t r = ms % 1000;

	if (r < 0) {
		if (ms < INT64_MIN + 1000 + r) /* floor would be below INT64_MIN */
			return ms - r;
		r += 1000;
	}
	return ms - r;
}

int64_t gt_metav1_store(int64_t anchor_unix_ms, int64_t t_ms)
{
	return gt_truncate_to_second(anchor_unix_ms + t_ms) - anchor_unix_ms;
}
