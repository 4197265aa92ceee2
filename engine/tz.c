/*
 * Go's time.Location semantics over a transition table.  See tz.h for the
 * contract; functions keep Go's names in snake_case and its statement order.
 */
#include "engine/tz.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

#define SECONDS_PER_MINUTE 60
#define SECONDS_PER_HOUR 3600
#define SECONDS_PER_DAY 86400

struct tz_zone {
	char *name;
	struct tz_type *types; /* abbr owned */
	size_t ntypes;
	struct tz_transition *tx;
	size_t ntx;
	char *extend; /* "" when none */
	char *ext_abbr[2]; /* the std and dst names of @extend (NULL when absent) */
	bool builtin;
};

static bool tzset_name(const char *s, const char **name, size_t *namelen, const char **rest);

static char utc_name[] = "UTC", no_extend[] = "";
static struct tz_zone utc_zone = { .name = utc_name, .extend = no_extend, .builtin = true };
/* Go names Local "UTC" when it falls back to UTC for want of TZ and /etc/localtime. */
static struct tz_zone local_zone = { .name = utc_name, .extend = no_extend, .builtin = true };

const struct tz_zone *tz_utc(void)
{
	return &utc_zone;
}

const struct tz_zone *tz_local(void)
{
	return &local_zone;
}

const char *tz_name(const struct tz_zone *z)
{
	return z->name;
}

struct tz_zone *tz_zone_new(const char *name, const struct tz_type *types, size_t ntypes,
			    const struct tz_transition *tx, size_t ntx, const char *extend)
{
	struct tz_zone *z = xcalloc(1, sizeof(*z));

	assert(ntypes >= 1);
	z->name = xstrdup(name ? name : "");
	z->types = xcalloc(ntypes, sizeof(*z->types));
	for (size_t i = 0; i < ntypes; i++) {
		z->types[i] = types[i];
		z->types[i].abbr = xstrdup(types[i].abbr ? types[i].abbr : "");
	}
	z->ntypes = ntypes;
	if (ntx == 0) {
		/* LoadLocationFromTZData: a fake transition covering all time. */
		z->tx = xcalloc(1, sizeof(*z->tx));
		z->tx[0].when = TZ_ALPHA;
		z->tx[0].index = 0;
		z->ntx = 1;
	} else {
		z->tx = xcalloc(ntx, sizeof(*z->tx));
		for (size_t i = 0; i < ntx; i++) {
			assert(tx[i].index < ntypes);
			assert(i == 0 || tx[i - 1].when <= tx[i].when);
			z->tx[i] = tx[i];
		}
		z->ntx = ntx;
	}
	z->extend = xstrdup(extend ? extend : "");
	{
		/* Keep the rule string's zone names as C strings for tz_period.abbr. */
		const char *s = z->extend, *n;
		size_t len;

		for (int k = 0; k < 2 && tzset_name(s, &n, &len, &s); k++) {
			z->ext_abbr[k] = xmalloc(len + 1);
			memcpy(z->ext_abbr[k], n, len);
			z->ext_abbr[k][len] = '\0';
			/* Skip the offset that follows the name (digits, signs, colons). */
			while (*s && (*s == '+' || *s == '-' || *s == ':' || (*s >= '0' && *s <= '9')))
				s++;
			if (*s == ',' || *s == ';')
				break;
		}
	}
	return z;
}

struct tz_zone *tz_fixed_zone(const char *name, int32_t offset)
{
	struct tz_type t = { offset, false, name };
	struct tz_transition tx = { TZ_ALPHA, 0 };

	return tz_zone_new(name, &t, 1, &tx, 1, "");
}

void tz_zone_free(struct tz_zone *z)
{
	if (!z || z->builtin)
		return;
	free(z->name);
	for (size_t i = 0; i < z->ntypes; i++)
		free((char *)z->types[i].abbr);
	free(z->types);
	free(z->tx);
	free(z->extend);
	free(z->ext_abbr[0]);
	free(z->ext_abbr[1]);
	free(z);
}

/* ---- calendar ---------------------------------------------------------- */

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

static int64_t floor_mod(int64_t a, int64_t b)
{
	return a - floor_div(a, b) * b;
}

bool tz_is_leap(int64_t year)
{
	return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

/* daysBefore: days in a non-leap year before month @m (1..13). */
static int days_before(int m)
{
	int adj = m >= 3 ? -2 : 0;

	return (214 * m - 211) / 7 + adj;
}

static int days_in(int m, int64_t year)
{
	if (m == 2 && tz_is_leap(year))
		return 29;
	return days_before(m + 1) - days_before(m);
}

/* Days since 1970-01-01 of year-month-01 (month 1..12), by eras of 400 years. */
int64_t tz_days_from_civil(int64_t year, int month, int64_t day)
{
	int64_t y = year - (month <= 2);
	int64_t era = floor_div(y, 400);
	int64_t yoe = y - era * 400;
	int64_t mp = (month + 9) % 12;
	int64_t doy = (153 * mp + 2) / 5;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468 + (day - 1);
}

/* The civil date of @days since 1970-01-01. */
static void civil_from_days(int64_t days, int64_t *year, int *month, int *day)
{
	int64_t z = days + 719468;
	int64_t era = floor_div(z, 146097);
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int d = (int)(doy - (153 * mp + 2) / 5 + 1);
	int m = (int)(mp < 10 ? mp + 3 : mp - 9);

	*year = yoe + era * 400 + (m <= 2);
	*month = m;
	*day = d;
}

/* The UTC year of Unix second @sec and its 1-based day of the year. */
static void year_yday(int64_t sec, int64_t *year, int *yday)
{
	int64_t days = floor_div(sec, SECONDS_PER_DAY);
	int month, day;

	civil_from_days(days, year, &month, &day);
	*yday = (int)(days - tz_days_from_civil(*year, 1, 1)) + 1;
}

/* ---- tzset: the POSIX TZ rule string ------------------------------------ */

enum rule_kind { RULE_JULIAN, RULE_DOY, RULE_MONTH_WEEK_DAY };

struct rule {
	enum rule_kind kind;
	int day, week, mon;
	int time; /* transition time, seconds */
};

/* tzsetName: the zone name at the start of @s; *@rest after it.  Returns false on a bad name. */
static bool tzset_name(const char *s, const char **name, size_t *namelen, const char **rest)
{
	size_t i;

	if (*s == '\0')
		return false;
	if (s[0] != '<') {
		for (i = 0; s[i]; i++) {
			switch (s[i]) {
			case '0': case '1': case '2': case '3': case '4':
			case '5': case '6': case '7': case '8': case '9':
			case ',': case '-': case '+':
				if (i < 3)
					return false;
				*name = s;
				*namelen = i;
				*rest = s + i;
				return true;
			}
		}
		if (i < 3)
			return false;
		*name = s;
		*namelen = i;
		*rest = s + i;
		return true;
	}
	for (i = 0; s[i]; i++) {
		if (s[i] == '>') {
			*name = s + 1;
			*namelen = i - 1;
			*rest = s + i + 1;
			return true;
		}
	}
	return false;
}

/* tzsetNum: a number in [@min, @max] at the start of @s. */
static bool tzset_num(const char *s, int min, int max, int *num, const char **rest)
{
	int n = 0;
	size_t i;

	if (*s == '\0')
		return false;
	for (i = 0; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9') {
			if (i == 0 || n < min)
				return false;
			*num = n;
			*rest = s + i;
			return true;
		}
		n = n * 10 + (s[i] - '0');
		if (n > max)
			return false;
	}
	if (n < min)
		return false;
	*num = n;
	*rest = s + i;
	return true;
}

/* tzsetOffset: [+-]hh[:mm[:ss]] in seconds (hours up to 24*7, as tzcode allows). */
static bool tzset_offset(const char *s, int *offset, const char **rest)
{
	bool neg = false;
	int hours, mins, secs, off;

	if (*s == '\0')
		return false;
	if (s[0] == '+') {
		s++;
	} else if (s[0] == '-') {
		s++;
		neg = true;
	}
	if (!tzset_num(s, 0, 24 * 7, &hours, &s))
		return false;
	off = hours * SECONDS_PER_HOUR;
	if (s[0] != ':') {
		*offset = neg ? -off : off;
		*rest = s;
		return true;
	}
	if (!tzset_num(s + 1, 0, 59, &mins, &s))
		return false;
	off += mins * SECONDS_PER_MINUTE;
	if (s[0] != ':') {
		*offset = neg ? -off : off;
		*rest = s;
		return true;
	}
	if (!tzset_num(s + 1, 0, 59, &secs, &s))
		return false;
	off += secs;
	*offset = neg ? -off : off;
	*rest = s;
	return true;
}

/* tzsetRule: Jn, n or Mm.w.d, with an optional /time (default 02:00). */
static bool tzset_rule(const char *s, struct rule *r, const char **rest)
{
	int off;

	memset(r, 0, sizeof(*r));
	if (*s == '\0')
		return false;
	if (s[0] == 'J') {
		if (!tzset_num(s + 1, 1, 365, &r->day, &s))
			return false;
		r->kind = RULE_JULIAN;
	} else if (s[0] == 'M') {
		if (!tzset_num(s + 1, 1, 12, &r->mon, &s) || s[0] != '.')
			return false;
		if (!tzset_num(s + 1, 1, 5, &r->week, &s) || s[0] != '.')
			return false;
		if (!tzset_num(s + 1, 0, 6, &r->day, &s))
			return false;
		r->kind = RULE_MONTH_WEEK_DAY;
	} else {
		if (!tzset_num(s, 0, 365, &r->day, &s))
			return false;
		r->kind = RULE_DOY;
	}
	if (s[0] != '/') {
		r->time = 2 * SECONDS_PER_HOUR;
		*rest = s;
		return true;
	}
	if (!tzset_offset(s + 1, &off, &s))
		return false;
	r->time = off;
	*rest = s;
	return true;
}

/* tzruleTime: seconds since the start of @year (UTC) at which @r takes effect under offset @off. */
static int64_t tzrule_time(int64_t year, const struct rule *r, int off)
{
	int64_t s = 0;

	switch (r->kind) {
	case RULE_JULIAN:
		s = (int64_t)(r->day - 1) * SECONDS_PER_DAY;
		if (tz_is_leap(year) && r->day >= 60)
			s += SECONDS_PER_DAY;
		break;
	case RULE_DOY:
		s = (int64_t)r->day * SECONDS_PER_DAY;
		break;
	case RULE_MONTH_WEEK_DAY: {
		/* Zeller's congruence: the weekday of the first day of r->mon. */
		int64_t m1 = (r->mon + 9) % 12 + 1;
		int64_t yy0 = year, yy1, yy2, dow, d;

		if (r->mon <= 2)
			yy0--;
		yy1 = yy0 / 100;
		yy2 = yy0 % 100;
		dow = ((26 * m1 - 2) / 10 + 1 + yy2 + yy2 / 4 + yy1 / 4 - 2 * yy1) % 7;
		if (dow < 0)
			dow += 7;
		d = r->day - dow;
		if (d < 0)
			d += 7;
		for (int i = 1; i < r->week; i++) {
			if (d + 7 >= days_in(r->mon, year))
				break;
			d += 7;
		}
		d += days_before(r->mon);
		if (tz_is_leap(year) && r->mon > 2)
			d++;
		s = d * SECONDS_PER_DAY;
		break;
	}
	}
	return s + r->time - off;
}

/* The result of tzset(). */
struct tzset_result {
	const char *name;
	size_t namelen;
	int offset;
	int64_t start, end;
	bool is_dst;
};

/*
 * tzset: the period of @sec under the rule string @s; @last_tx_sec is the
 * start of the last table period (the no-DST rule's start).  Returns false
 * when @s does not parse (the caller then keeps the table's answer).
 */
static bool tzset(const char *s, int64_t last_tx_sec, int64_t sec, struct tzset_result *out)
{
	const char *std_name, *dst_name;
	size_t std_len, dst_len;
	int std_offset, dst_offset = 0;
	bool std_is_dst = false, dst_is_dst = true;
	struct rule start_rule, end_rule;
	int64_t year, ysec, ystart, start_sec, end_sec;
	int yday;

	if (!tzset_name(s, &std_name, &std_len, &s) || !tzset_offset(s, &std_offset, &s))
		return false;
	/* The string's offsets are added to local time to get UTC; ours go the other way. */
	std_offset = -std_offset;

	if (s[0] == '\0' || s[0] == ',') {
		/* No daylight saving time. */
		*out = (struct tzset_result){ std_name, std_len, std_offset, last_tx_sec, TZ_OMEGA, false };
		return true;
	}

	if (!tzset_name(s, &dst_name, &dst_len, &s))
		return false;
	if (s[0] == '\0' || s[0] == ',') {
		dst_offset = std_offset + SECONDS_PER_HOUR;
	} else {
		if (!tzset_offset(s, &dst_offset, &s))
			return false;
		dst_offset = -dst_offset;
	}

	if (s[0] == '\0') {
		/* Default DST rules per tzcode. */
		s = ",M3.2.0,M11.1.0";
	}
	/* The TZ definition does not mention ';' here but tzcode accepts it. */
	if (s[0] != ',' && s[0] != ';')
		return false;
	s++;
	if (!tzset_rule(s, &start_rule, &s) || s[0] != ',')
		return false;
	s++;
	if (!tzset_rule(s, &end_rule, &s) || s[0] != '\0')
		return false;

	/* The start of the UTC year of sec, and the seconds since then. */
	year_yday(sec, &year, &yday);
	ysec = (int64_t)(yday - 1) * SECONDS_PER_DAY + sec % SECONDS_PER_DAY;
	ystart = sec - ysec;

	start_sec = tzrule_time(year, &start_rule, std_offset);
	end_sec = tzrule_time(year, &end_rule, dst_offset);
	if (end_sec < start_sec) {
		/* Southern hemisphere: the labels flip, as in Go. */
		int64_t t = start_sec;
		const char *n = std_name;
		size_t l = std_len;
		int o = std_offset;
		bool d = std_is_dst;

		start_sec = end_sec;
		end_sec = t;
		std_name = dst_name;
		std_len = dst_len;
		dst_name = n;
		dst_len = l;
		std_offset = dst_offset;
		dst_offset = o;
		std_is_dst = dst_is_dst;
		dst_is_dst = d;
	}

	/*
	 * Exact close to a switch, otherwise cut at the year's start and at
	 * ystart + 365 days (also in leap years), as Go returns them.
	 */
	if (ysec < start_sec)
		*out = (struct tzset_result){ std_name, std_len, std_offset, ystart, start_sec + ystart, std_is_dst };
	else if (ysec >= end_sec)
		*out = (struct tzset_result){ std_name, std_len, std_offset, end_sec + ystart,
					      ystart + 365 * SECONDS_PER_DAY, std_is_dst };
	else
		*out = (struct tzset_result){ dst_name, dst_len, dst_offset, start_sec + ystart, end_sec + ystart,
					      dst_is_dst };
	return true;
}

/* ---- lookup ------------------------------------------------------------ */

/* firstZoneUsed: whether some transition uses type 0. */
static bool first_zone_used(const struct tz_zone *z)
{
	for (size_t i = 0; i < z->ntx; i++)
		if (z->tx[i].index == 0)
			return true;
	return false;
}

/* lookupFirstZone: the type in force before the first transition (tzcode's rules). */
static size_t lookup_first_zone(const struct tz_zone *z)
{
	if (!first_zone_used(z))
		return 0;
	if (z->ntx > 0 && z->types[z->tx[0].index].is_dst) {
		for (int zi = (int)z->tx[0].index - 1; zi >= 0; zi--)
			if (!z->types[zi].is_dst)
				return (size_t)zi;
	}
	for (size_t zi = 0; zi < z->ntypes; zi++)
		if (!z->types[zi].is_dst)
			return zi;
	return 0;
}

/*
 * The names tzset() hands out point into the rule string without a
 * terminator; tz_period.abbr must be a C string, so the zone keeps copies
 * of the rule's two names (tz_zone_new()).
 */
static const char *intern_abbr(const struct tz_zone *z, const char *name, size_t len)
{
	for (int k = 0; k < 2; k++)
		if (z->ext_abbr[k] && strlen(z->ext_abbr[k]) == len && memcmp(z->ext_abbr[k], name, len) == 0)
			return z->ext_abbr[k];
	return "";
}

void tz_lookup(const struct tz_zone *z, int64_t sec, struct tz_period *out)
{
	size_t lo, hi;
	const struct tz_type *t;

	if (z->ntypes == 0) {
		*out = (struct tz_period){ "UTC", 0, TZ_ALPHA, TZ_OMEGA, false };
		return;
	}

	if (z->ntx == 0 || sec < z->tx[0].when) {
		t = &z->types[lookup_first_zone(z)];
		*out = (struct tz_period){ t->abbr, t->offset, TZ_ALPHA, z->ntx > 0 ? z->tx[0].when : TZ_OMEGA,
					   t->is_dst };
		return;
	}

	/* Binary search for the entry with the largest time <= sec. */
	out->end = TZ_OMEGA;
	lo = 0;
	hi = z->ntx;
	while (hi - lo > 1) {
		size_t m = lo + (hi - lo) / 2;
		int64_t lim = z->tx[m].when;

		if (sec < lim) {
			out->end = lim;
			hi = m;
		} else {
			lo = m;
		}
	}
	t = &z->types[z->tx[lo].index];
	out->abbr = t->abbr;
	out->offset = t->offset;
	out->start = z->tx[lo].when;
	out->is_dst = t->is_dst;

	/* At the end of the known transitions the extend string rules. */
	if (lo == z->ntx - 1 && z->extend[0] != '\0') {
		struct tzset_result r;

		if (tzset(z->extend, out->start, sec, &r)) {
			out->abbr = intern_abbr(z, r.name, r.namelen);
			out->offset = r.offset;
			out->start = r.start;
			out->end = r.end;
			out->is_dst = r.is_dst;
		}
	}
}

/* ---- civil time -------------------------------------------------------- */

void tz_civil(const struct tz_zone *z, int64_t sec, struct tz_civil *out)
{
	struct tz_period p;
	int64_t local, days, rem;

	tz_lookup(z, sec, &p);
	local = sec + p.offset;
	days = floor_div(local, SECONDS_PER_DAY);
	rem = local - days * SECONDS_PER_DAY;
	civil_from_days(days, &out->year, &out->month, &out->day);
	out->hour = (int)(rem / SECONDS_PER_HOUR);
	out->min = (int)(rem % SECONDS_PER_HOUR / SECONDS_PER_MINUTE);
	out->sec = (int)(rem % SECONDS_PER_MINUTE);
	out->weekday = (int)floor_mod(days + 4, 7); /* 1970-01-01 was a Thursday */
	out->yday = (int)(days - tz_days_from_civil(out->year, 1, 1)) + 1;
	out->offset = p.offset;
}

/* norm: hi*base + lo == nhi*base + nlo with 0 <= nlo < base. */
static void norm(int64_t *hi, int64_t *lo, int64_t base)
{
	if (*lo < 0) {
		int64_t n = (-*lo - 1) / base + 1;

		*hi -= n;
		*lo += n * base;
	}
	if (*lo >= base) {
		int64_t n = *lo / base;

		*hi += n;
		*lo -= n * base;
	}
}

int64_t tz_date(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t min, int64_t sec,
		const struct tz_zone *z)
{
	int64_t m = month - 1, unix, utc;
	struct tz_period p;

	/* Normalize month, overflowing into year; then sec, min, hour into day. */
	norm(&year, &m, 12);
	norm(&min, &sec, 60);
	norm(&hour, &min, 60);
	norm(&day, &hour, 24);

	unix = tz_days_from_civil(year, (int)m + 1, day) * SECONDS_PER_DAY + hour * SECONDS_PER_HOUR +
	       min * SECONDS_PER_MINUTE + sec;

	/*
	 * The offset for the wall reading taken as UTC first; if that offset
	 * puts the instant outside its own period, the offset in force at the
	 * instant instead.  Go skips the second look when the first offset is 0.
	 */
	tz_lookup(z, unix, &p);
	if (p.offset != 0) {
		int32_t offset = p.offset;

		utc = unix - offset;
		if (utc < p.start || utc >= p.end) {
			tz_lookup(z, utc, &p);
			offset = p.offset;
		}
		unix -= offset;
	}
	return unix;
}

/* ---- LoadLocation ------------------------------------------------------ */

int tz_load_location(const char *name, tz_find_fn find, void *ctx, const struct tz_zone **out, char *err,
		     size_t errlen)
{
	const struct tz_zone *z;

	if (errlen > 0)
		err[0] = '\0';
	if (name[0] == '\0' || strcmp(name, "UTC") == 0) {
		*out = tz_utc();
		return 0;
	}
	if (strcmp(name, "Local") == 0) {
		*out = tz_local();
		return 0;
	}
	if (strstr(name, "..") || name[0] == '/' || name[0] == '\\') {
		/* No valid IANA name contains "..", and none begins with a slash. */
		snprintf(err, errlen, "time: invalid location name");
		return -1;
	}
	z = find ? find(ctx, name, err, errlen) : NULL;
	if (!z) {
		if (errlen > 0 && err[0] == '\0')
			snprintf(err, errlen, "unknown time zone %s", name);
		return -1;
	}
	*out = z;
	return 0;
}
