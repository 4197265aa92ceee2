/*
 * robfig/cron v3.0.1 schedules.  See cron.h; functions keep robfig's names
 * in snake_case and its statement order.
 */
#include "engine/cron.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/goduration.h"
#include "engine/labels.h"
#include "engine/xalloc.h"

static const char *const month_names[] = { "jan", "feb", "mar", "apr", "may", "jun",
					   "jul", "aug", "sep", "oct", "nov", "dec", NULL };
static const char *const dow_names[] = { "sun", "mon", "tue", "wed", "thu", "fri", "sat", NULL };

const struct cron_bounds cron_seconds = { 0, 59, NULL };
const struct cron_bounds cron_minutes = { 0, 59, NULL };
const struct cron_bounds cron_hours = { 0, 23, NULL };
const struct cron_bounds cron_dom = { 1, 31, NULL };
const struct cron_bounds cron_months = { 1, 12, month_names };
const struct cron_bounds cron_dow = { 0, 6, dow_names };

static const unsigned places[] = { CRON_SECOND, CRON_MINUTE, CRON_HOUR, CRON_DOM, CRON_MONTH, CRON_DOW };
static const char *const defaults[] = { "0", "0", "0", "*", "*", "*" };

/* ---- Go string helpers -------------------------------------------------- */

/* The byte length of the unicode.IsSpace rune at @s, 0 when it is none. */
static size_t space_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	switch (u[0]) {
	case '\t': case '\n': case '\v': case '\f': case '\r': case ' ':
		return 1;
	case 0xC2: /* U+0085, U+00A0 */
		return (u[1] == 0x85 || u[1] == 0xA0) ? 2 : 0;
	case 0xE1: /* U+1680 */
		return (u[1] == 0x9A && u[2] == 0x80) ? 3 : 0;
	case 0xE2: /* U+2000..U+200A, U+2028, U+2029, U+202F, U+205F */
		if (u[1] == 0x80 && ((u[2] >= 0x80 && u[2] <= 0x8A) || u[2] == 0xA8 || u[2] == 0xA9 || u[2] == 0xAF))
			return 3;
		return (u[1] == 0x81 && u[2] == 0x9F) ? 3 : 0;
	case 0xE3: /* U+3000 */
		return (u[1] == 0x80 && u[2] == 0x80) ? 3 : 0;
	default:
		return 0;
	}
}

/* strings.Fields: new array of new strings, count in *@n; free with free_fields(). */
static char **fields_of(const char *s, size_t *n)
{
	char **out = NULL;
	size_t cap = 0;

	*n = 0;
	while (*s) {
		const char *start;
		size_t k;

		while ((k = space_len(s)) > 0)
			s += k;
		if (!*s)
			break;
		start = s;
		while (*s && space_len(s) == 0)
			s++;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			out = xrealloc(out, cap * sizeof(*out));
		}
		out[*n] = xmalloc((size_t)(s - start) + 1);
		memcpy(out[*n], start, (size_t)(s - start));
		out[*n][s - start] = '\0';
		(*n)++;
	}
	return out;
}

static void free_fields(char **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

/* fmt's %s of a []string: "[a b c]". */
static void format_fields(char *const *f, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	used += (size_t)snprintf(buf, len, "[");
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", f[i]);
	if (used < len)
		snprintf(buf + used, len - used, "]");
}

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/*
 * strconv.Atoi(@s) on a 64-bit int: an optional sign and decimal digits.
 * Below 19 bytes Go checks the digits only (nothing can overflow); from 19
 * bytes on it goes through ParseInt, which reads left to right and reports
 * a uint64 overflow before a bad byte that follows it, then the int64 range.
 * Returns 0, or -1 with Go's NumError text in @err.
 */
static int go_atoi(const char *s, int64_t *out, char *err, size_t errlen)
{
	const char *p = s;
	bool neg = false;
	uint64_t n = 0;
	const char *what = "invalid syntax";
	char *q;

	if (*p == '+' || *p == '-') {
		neg = *p == '-';
		p++;
	}
	if (*p == '\0')
		goto fail;
	for (; *p; p++) {
		uint64_t d, n1;

		if (*p < '0' || *p > '9')
			goto fail;
		d = (uint64_t)(*p - '0');
		if (n >= UINT64_MAX / 10 + 1) {
			what = "value out of range";
			goto fail;
		}
		n1 = n * 10 + d;
		if (n1 < n * 10) {
			what = "value out of range";
			goto fail;
		}
		n = n1;
	}
	if ((!neg && n >= UINT64_C(1) << 63) || (neg && n > UINT64_C(1) << 63)) {
		what = "value out of range";
		goto fail;
	}
	*out = neg ? (int64_t)(0 - n) : (int64_t)n;
	return 0;
fail:
	q = lbl_go_quote(s);
	snprintf(err, errlen, "strconv.Atoi: parsing %s: %s", q, what);
	free(q);
	return -1;
}

/* ---- parser -------------------------------------------------------------- */

uint64_t cron_get_bits(unsigned min, unsigned max, unsigned step)
{
	uint64_t bits = 0;

	/* If step is 1, use shifts (max <= 63). */
	if (step == 1) {
		uint64_t hi = max >= 63 ? UINT64_MAX : ~(UINT64_MAX << (max + 1));

		return hi & (UINT64_MAX << min);
	}
	for (uint64_t i = min; i <= max; i += step)
		bits |= UINT64_C(1) << i;
	return bits;
}

uint64_t cron_all(const struct cron_bounds *r)
{
	return cron_get_bits(r->min, r->max, 1) | CRON_STAR_BIT;
}

/* mustParseInt: a non-negative decimal int. */
static int must_parse_int(const char *expr, uint64_t *out, char *err, size_t errlen)
{
	int64_t num;
	char aerr[CRON_ERRLEN];

	if (go_atoi(expr, &num, aerr, sizeof(aerr)) != 0) {
		snprintf(err, errlen, "failed to parse int from %s: %s", expr, aerr);
		return CRON_EINVAL;
	}
	if (num < 0) {
		snprintf(err, errlen, "negative number (%lld) not allowed: %s", (long long)num, expr);
		return CRON_EINVAL;
	}
	*out = (uint64_t)num;
	return CRON_OK;
}

/* parseIntOrName: a name of @names (any letter case) or a number. */
static int parse_int_or_name(const char *expr, const struct cron_bounds *r, uint64_t *out, char *err,
			     size_t errlen)
{
	if (r->names) {
		for (size_t i = 0; r->names[i]; i++) {
			const char *n = r->names[i];
			size_t k;

			for (k = 0; n[k] && expr[k]; k++) {
				char c = expr[k];

				if (c >= 'A' && c <= 'Z')
					c = (char)(c - 'A' + 'a');
				if (c != n[k])
					break;
			}
			if (n[k] == '\0' && expr[k] == '\0') {
				*out = r->min + i;
				return CRON_OK;
			}
		}
	}
	return must_parse_int(expr, out, err, errlen);
}

/* strings.Split(@s, @sep) of a one-byte separator: count of parts, new copies. */
static char **split(const char *s, char sep, size_t *n)
{
	size_t k = 1;
	char **out;
	const char *p = s;

	for (const char *c = s; *c; c++)
		k += *c == sep;
	out = xcalloc(k, sizeof(*out));
	for (size_t i = 0; i < k; i++) {
		const char *e = strchr(p, sep);
		size_t len = e ? (size_t)(e - p) : strlen(p);

		out[i] = xmalloc(len + 1);
		memcpy(out[i], p, len);
		out[i][len] = '\0';
		p += len + (e ? 1 : 0);
	}
	*n = k;
	return out;
}

int cron_get_range(const char *expr, const struct cron_bounds *r, uint64_t *bits, char *err, size_t errlen)
{
	uint64_t start = 0, end = 0, step = 0, extra = 0;
	size_t nrs, nlh;
	char **range_and_step = split(expr, '/', &nrs);
	char **low_and_high = split(range_and_step[0], '-', &nlh);
	bool single_digit = nlh == 1;
	int rc = CRON_EINVAL;

	*bits = 0;
	if (strcmp(low_and_high[0], "*") == 0 || strcmp(low_and_high[0], "?") == 0) {
		start = r->min;
		end = r->max;
		extra = CRON_STAR_BIT;
	} else {
		if (parse_int_or_name(low_and_high[0], r, &start, err, errlen) != CRON_OK)
			goto out_free;
		switch (nlh) {
		case 1:
			end = start;
			break;
		case 2:
			if (parse_int_or_name(low_and_high[1], r, &end, err, errlen) != CRON_OK)
				goto out_free;
			break;
		default:
			snprintf(err, errlen, "too many hyphens: %s", expr);
			goto out_free;
		}
	}

	switch (nrs) {
	case 1:
		step = 1;
		break;
	case 2:
		if (must_parse_int(range_and_step[1], &step, err, errlen) != CRON_OK)
			goto out_free;
		/* "N/step" means "N-max/step". */
		if (single_digit)
			end = r->max;
		if (step > 1)
			extra = 0;
		break;
	default:
		snprintf(err, errlen, "too many slashes: %s", expr);
		goto out_free;
	}

	if (start < r->min) {
		snprintf(err, errlen, "beginning of range (%llu) below minimum (%u): %s", (unsigned long long)start,
			 r->min, expr);
		goto out_free;
	}
	if (end > r->max) {
		snprintf(err, errlen, "end of range (%llu) above maximum (%u): %s", (unsigned long long)end, r->max,
			 expr);
		goto out_free;
	}
	if (start > end) {
		snprintf(err, errlen, "beginning of range (%llu) beyond end of range (%llu): %s",
			 (unsigned long long)start, (unsigned long long)end, expr);
		goto out_free;
	}
	if (step == 0) {
		snprintf(err, errlen, "step of range should be a positive number: %s", expr);
		goto out_free;
	}
	/* A step beyond the field's width sets only the start bit, as Go's loop does. */
	*bits = cron_get_bits((unsigned)start, (unsigned)end, step > 64 ? 64 : (unsigned)step) | extra;
	rc = CRON_OK;
out_free:
	free_fields(low_and_high, nlh);
	free_fields(range_and_step, nrs);
	return rc;
}

int cron_get_field(const char *field, const struct cron_bounds *r, uint64_t *bits, char *err, size_t errlen)
{
	size_t n;
	char **ranges = split(field, ',', &n);
	int rc = CRON_OK;

	*bits = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t bit;

		if (ranges[i][0] == '\0')
			continue; /* strings.FieldsFunc drops empty ranges */
		rc = cron_get_range(ranges[i], r, &bit, err, errlen);
		if (rc != CRON_OK)
			break;
		*bits |= bit;
	}
	free_fields(ranges, n);
	return rc;
}

/* normalizeFields: the six fields in place order, defaults for those not read. */
static int normalize_fields(char **fields, size_t n, unsigned options, char *expanded[6], char *err,
			    size_t errlen)
{
	int optionals = 0;
	size_t max = 0, min, k = 0;
	char fmt[256];
	bool prepend_second = false, append_dow = false;

	if (options & CRON_SECOND_OPTIONAL) {
		options |= CRON_SECOND;
		optionals++;
	}
	if (options & CRON_DOW_OPTIONAL) {
		options |= CRON_DOW;
		optionals++;
	}
	if (optionals > 1) {
		snprintf(err, errlen, "multiple optionals may not be configured");
		return CRON_EINVAL;
	}
	for (size_t i = 0; i < 6; i++)
		if (options & places[i])
			max++;
	min = max - (size_t)optionals;

	if (n < min || n > max) {
		format_fields(fields, n, fmt, sizeof(fmt));
		if (min == max)
			snprintf(err, errlen, "expected exactly %zu fields, found %zu: %s", min, n, fmt);
		else
			snprintf(err, errlen, "expected %zu to %zu fields, found %zu: %s", min, max, n, fmt);
		return CRON_EINVAL;
	}

	/* Populate the optional field if not provided. */
	if (min < max && n == min) {
		if (options & CRON_DOW_OPTIONAL)
			append_dow = true;
		else if (options & CRON_SECOND_OPTIONAL)
			prepend_second = true;
	}

	for (size_t i = 0; i < 6; i++) {
		const char *v = defaults[i];

		if (options & places[i]) {
			if (i == 0 && prepend_second)
				v = defaults[0];
			else if (i == 5 && append_dow)
				v = defaults[5];
			else
				v = fields[k++];
		}
		expanded[i] = xstrdup(v);
	}
	return CRON_OK;
}

/* parseDescriptor: the predefined schedules and "@every <duration>". */
static int parse_descriptor(const char *descriptor, const struct tz_zone *loc, struct cron_schedule *s,
			    char *err, size_t errlen)
{
	static const char every[] = "@every ";

	memset(s, 0, sizeof(*s));
	s->location = loc;
	s->second = UINT64_C(1) << cron_seconds.min;
	s->minute = UINT64_C(1) << cron_minutes.min;
	s->hour = UINT64_C(1) << cron_hours.min;
	s->dom = cron_all(&cron_dom);
	s->month = cron_all(&cron_months);
	s->dow = cron_all(&cron_dow);
	if (strcmp(descriptor, "@yearly") == 0 || strcmp(descriptor, "@annually") == 0) {
		s->dom = UINT64_C(1) << cron_dom.min;
		s->month = UINT64_C(1) << cron_months.min;
		return CRON_OK;
	}
	if (strcmp(descriptor, "@monthly") == 0) {
		s->dom = UINT64_C(1) << cron_dom.min;
		return CRON_OK;
	}
	if (strcmp(descriptor, "@weekly") == 0) {
		s->dow = UINT64_C(1) << cron_dow.min;
		return CRON_OK;
	}
	if (strcmp(descriptor, "@daily") == 0 || strcmp(descriptor, "@midnight") == 0)
		return CRON_OK;
	if (strcmp(descriptor, "@hourly") == 0) {
		s->hour = cron_all(&cron_hours);
		return CRON_OK;
	}

	if (has_prefix(descriptor, every)) {
		int64_t d;
		char derr[CRON_ERRLEN];

		if (godur_parse(descriptor + strlen(every), &d, derr, sizeof(derr)) != 0) {
			snprintf(err, errlen, "failed to parse duration %s: %s", descriptor, derr);
			return CRON_EINVAL;
		}
		/* Every: at least a second, truncated to whole seconds. */
		memset(s, 0, sizeof(*s));
		s->constant_delay = true;
		if (d < 1000000000)
			d = 1000000000;
		s->delay_ns = d - d % 1000000000;
		return CRON_OK;
	}

	snprintf(err, errlen, "unrecognized descriptor: %s", descriptor);
	return CRON_EINVAL;
}

int cron_parse(const char *spec, unsigned options, tz_find_fn find, void *ctx, struct cron_schedule *out,
	       char *err, size_t errlen)
{
	const struct tz_zone *loc = tz_local();
	char *owned = NULL, **fields = NULL, *expanded[6] = { 0 };
	size_t nfields = 0;
	uint64_t bits[6] = { 0 };
	static const struct cron_bounds *const b[6] = { &cron_seconds, &cron_minutes, &cron_hours,
							&cron_dom, &cron_months, &cron_dow };
	int rc = CRON_EINVAL;

	if (errlen > 0)
		err[0] = '\0';
	if (spec[0] == '\0') {
		snprintf(err, errlen, "empty spec string");
		return CRON_EINVAL;
	}

	/* Extract the time zone if present. */
	if (has_prefix(spec, "TZ=") || has_prefix(spec, "CRON_TZ=")) {
		const char *sp = strchr(spec, ' ');
		const char *eq = strchr(spec, '=');
		char *name, lerr[TZ_ERRLEN];
		const char *rest;
		size_t k;

		if (!sp) {
			/* spec[eq+1 : -1]: Go panics. */
			snprintf(err, errlen, "runtime error: slice bounds out of range [:-1]");
			return CRON_EPANIC;
		}
		name = xmalloc((size_t)(sp - eq));
		memcpy(name, eq + 1, (size_t)(sp - eq - 1));
		name[sp - eq - 1] = '\0';
		if (tz_load_location(name, find, ctx, &loc, lerr, sizeof(lerr)) != 0) {
			snprintf(err, errlen, "provided bad location %s: %s", name, lerr);
			free(name);
			return CRON_EINVAL;
		}
		free(name);
		/* strings.TrimSpace(spec[i:]) */
		rest = sp;
		while ((k = space_len(rest)) > 0)
			rest += k;
		owned = xstrdup(rest);
		for (size_t end = strlen(owned); end > 0;) {
			/* trailing Unicode spaces: find the start of the last rune */
			size_t st = end - 1;

			while (st > 0 && ((unsigned char)owned[st] & 0xC0) == 0x80)
				st--;
			if (space_len(owned + st) != end - st)
				break;
			owned[st] = '\0';
			end = st;
		}
		spec = owned;
	}

	/* Named schedules (descriptors), if configured. */
	if (spec[0] == '@') {
		if (!(options & CRON_DESCRIPTOR)) {
			snprintf(err, errlen, "parser does not accept descriptors: %s", spec);
			goto out_free;
		}
		rc = parse_descriptor(spec, loc, out, err, errlen);
		goto out_free;
	}

	fields = fields_of(spec, &nfields);
	if (normalize_fields(fields, nfields, options, expanded, err, errlen) != CRON_OK)
		goto out_free;
	for (int i = 0; i < 6; i++) {
		if (cron_get_field(expanded[i], b[i], &bits[i], err, errlen) != CRON_OK)
			goto out_free;
	}
	memset(out, 0, sizeof(*out));
	out->second = bits[0];
	out->minute = bits[1];
	out->hour = bits[2];
	out->dom = bits[3];
	out->month = bits[4];
	out->dow = bits[5];
	out->location = loc;
	rc = CRON_OK;
out_free:
	for (int i = 0; i < 6; i++)
		free(expanded[i]);
	free_fields(fields, nfields);
	free(owned);
	return rc;
}

int cron_parse_standard(const char *spec, tz_find_fn find, void *ctx, struct cron_schedule *out, char *err,
			size_t errlen)
{
	return cron_parse(spec, CRON_STANDARD, find, ctx, out, err, errlen);
}

/* ---- Next ---------------------------------------------------------------- */

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

/* dayMatches: both restrictions must hold when either field has a star, else either. */
static bool day_matches(const struct cron_schedule *s, const struct tz_civil *c)
{
	bool dom_match = ((UINT64_C(1) << c->day) & s->dom) > 0;
	bool dow_match = ((UINT64_C(1) << c->weekday) & s->dow) > 0;

	if ((s->dom & CRON_STAR_BIT) || (s->dow & CRON_STAR_BIT))
		return dom_match && dow_match;
	return dom_match || dow_match;
}

/* t.AddDate(0, months, days) for t in @loc (Unix seconds). */
static int64_t add_date(int64_t t, int months, int days, const struct tz_zone *loc)
{
	struct tz_civil c;

	tz_civil(loc, t, &c);
	return tz_date(c.year, (int64_t)c.month + months, (int64_t)c.day + days, c.hour, c.min, c.sec, loc);
}

static int64_t spec_next(const struct cron_schedule *s, int64_t t_ms, const struct tz_zone *t_loc)
{
	/* A schedule without a location runs in the location of the time given. */
	const struct tz_zone *loc = s->location == tz_local() ? t_loc : s->location;
	bool added = false;
	int64_t t, year_limit;
	struct tz_civil c;

	/* Start at the earliest possible time (the upcoming second). */
	t = floor_div(t_ms, 1000) + 1;

	/* If no time is found within five years, return zero. */
	tz_civil(loc, t, &c);
	year_limit = c.year + 5;

wrap:
	tz_civil(loc, t, &c);
	if (c.year > year_limit)
		return CRON_NO_TIME;

	/* Find the first applicable month; if it is this month, do nothing. */
	while (((UINT64_C(1) << c.month) & s->month) == 0) {
		/* If a month has to be added, reset the other parts to 0. */
		if (!added) {
			added = true;
			t = tz_date(c.year, c.month, 1, 0, 0, 0, loc);
		}
		t = add_date(t, 1, 0, loc);
		tz_civil(loc, t, &c);
		/* Wrapped around. */
		if (c.month == 1)
			goto wrap;
	}

	/* Now get a day in that month; midnight may not exist (DST), see the hour fix-up. */
	while (!day_matches(s, &c)) {
		if (!added) {
			added = true;
			t = tz_date(c.year, c.month, c.day, 0, 0, 0, loc);
		}
		t = add_date(t, 0, 1, loc);
		tz_civil(loc, t, &c);
		/* Notice if the hour is no longer midnight due to DST: +1h if it is 23, -1h if it is 1. */
		if (c.hour != 0) {
			if (c.hour > 12)
				t += (int64_t)(24 - c.hour) * 3600;
			else
				t -= (int64_t)c.hour * 3600;
			tz_civil(loc, t, &c);
		}
		if (c.day == 1)
			goto wrap;
	}

	while (((UINT64_C(1) << c.hour) & s->hour) == 0) {
		if (!added) {
			added = true;
			t = tz_date(c.year, c.month, c.day, c.hour, 0, 0, loc);
		}
		t += 3600;
		tz_civil(loc, t, &c);
		if (c.hour == 0)
			goto wrap;
	}

	while (((UINT64_C(1) << c.min) & s->minute) == 0) {
		if (!added) {
			added = true;
			/* Truncate(time.Minute): on the absolute time, not the wall clock. */
			t = floor_div(t, 60) * 60;
		}
		t += 60;
		tz_civil(loc, t, &c);
		if (c.min == 0)
			goto wrap;
	}

	while (((UINT64_C(1) << c.sec) & s->second) == 0) {
		if (!added) {
			added = true;
			/* Truncate(time.Second): t is already whole seconds. */
		}
		t += 1;
		tz_civil(loc, t, &c);
		if (c.sec == 0)
			goto wrap;
	}

	return t * 1000;
}

int64_t cron_next(const struct cron_schedule *s, int64_t t_ms, const struct tz_zone *t_loc)
{
	if (s->constant_delay) {
		/* Rounded so that the next activation is on the second. */
		return t_ms - (t_ms - floor_div(t_ms, 1000) * 1000) + s->delay_ns / 1000000;
	}
	return spec_next(s, t_ms, t_loc);
}
