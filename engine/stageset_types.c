/*
 * The StageSet API types: spec parse, status parse / render / equal / copy.
 * See engine/stageset_types.h.
 */
#include "engine/stageset_types.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/goduration.h"
#include "engine/objects.h"
#include "engine/xalloc.h"

/* ---- Go text forms -------------------------------------------------------- */

/* Unix day number of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

const char *sst_format_time(int64_t unix_ms, char *buf, size_t len)
{
	int64_t secs = floor_div(unix_ms, 1000);
	int64_t days = floor_div(secs, 86400);
	int64_t rem = secs - days * 86400;
	int64_t y;
	int m, d;
	civil_from_days(days, &y, &m, &d);
	if (y >= 0 && y <= 9999 && len >= 21) {
		/* without printf: every status condition renders one */
		const int f[5] = { m, d, (int)(rem / 3600), (int)(rem % 3600 / 60), (int)(rem % 60) };
		static const char sep[5] = { '-', 'T', ':', ':', 'Z' };
		char *p = buf;

		*p++ = (char)('0' + y / 1000);
		*p++ = (char)('0' + y / 100 % 10);
		*p++ = (char)('0' + y / 10 % 10);
		*p++ = (char)('0' + y % 10);
		*p++ = '-';
		for (int i = 0; i < 5; i++) {
			*p++ = (char)('0' + f[i] / 10);
			*p++ = (char)('0' + f[i] % 10);
			*p++ = sep[i];
		}
		*p = '\0';
		return buf;
	}
	snprintf(buf, len, "%04" PRId64 "-%02d-%02dT%02d:%02d:%02dZ", y, m, d, (int)(rem / 3600),
		 (int)(rem % 3600 / 60), (int)(rem % 60));
	return buf;
}

static int digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

/* RFC 3339 (time.RFC3339, as metav1.Time unmarshals) to Unix ms; -1 on bad text. */
static int parse_time(const char *s, int64_t *out)
{
	const char *p = s;
	int y, mo, d, h, mi, se, oh = 0, om = 0, sign = 0;
	int64_t ms = 0;
	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' ||
	    digits(&p, 2, &d) || (*p != 'T' && *p != 't') || !*p++ || digits(&p, 2, &h) ||
	    *p++ != ':' || digits(&p, 2, &mi) || *p++ != ':' || digits(&p, 2, &se))
		return -1;
	if (*p == '.') {
		int n = 0, scale = 100;
		p++;
		while (*p >= '0' && *p <= '9') {
			if (n < 3)
				ms += (*p - '0') * scale;
			scale /= 10;
			n++;
			p++;
		}
		if (n == 0)
			return -1;
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		sign = *p == '+' ? 1 : -1;
		p++;
		if (digits(&p, 2, &oh) || *p++ != ':' || digits(&p, 2, &om))
			return -1;
	} else {
		return -1;
	}
	if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59)
		return -1;
	int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se -
		       sign * (oh * 3600 + om * 60);
	*out = secs * 1000 + ms;
	return 0;
}

/*
 * time.ParseDuration (engine/goduration), to ms truncated toward zero; -1 on
 * bad text.  (A copy of its own here summed the components in float64 and
 * lost a millisecond on texts such as "1.001s".)
 */
static int parse_duration(const char *s, int64_t *out)
{
	int64_t ns;

	if (godur_parse(s, &ns, NULL, 0) != 0)
		return -1;
	*out = ns / 1000000;
	return 0;
}

/* ---- spec parse ----------------------------------------------------------- */

/* What a parse allocated: arrays, and selectors to release. */
struct arena {
	void **ptrs;
	size_t n, cap;
	struct lbl_selector **sels;
	size_t nsels, capsels;
};

struct parser {
	struct arena *a;
	char *err;
	size_t errlen;
	bool failed;
};

static void *arena_alloc(struct parser *p, size_t count, size_t size)
{
	struct arena *a = p->a;
	if (count == 0)
		return NULL;
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 16;
		a->ptrs = xreallocarray(a->ptrs, a->cap, sizeof(*a->ptrs));
	}
	void *m = xcalloc(count, size);
	a->ptrs[a->n++] = m;
	return m;
}

static void arena_selector(struct parser *p, struct lbl_selector *s)
{
	struct arena *a = p->a;
	if (a->nsels == a->capsels) {
		a->capsels = a->capsels ? a->capsels * 2 : 8;
		a->sels = xreallocarray(a->sels, a->capsels, sizeof(*a->sels));
	}
	a->sels[a->nsels++] = s;
}

static void pathf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct parser *p, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct parser *p, const char *path, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	if (!p->err || p->errlen == 0)
		return;
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pathf(p->err, p->errlen, "%s: %s", path, what);
}

/* Formats a field path into @buf, truncated (a path is for a diagnostic only). */
static void pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/*
 * Appends @s to the path being built in @buf (@len bytes) at *@at, cut
 * where snprintf() would cut it: at most @len - 1 bytes, always terminated.
 */
static void path_add(char *buf, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);

	if (*at + 1 >= len)
		return;
	if (n > len - 1 - *at)
		n = len - 1 - *at;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = '\0';
}

/*
 * A child path "parent.key" or "parent[i]", as pathf("%s.%s") and
 * pathf("%s[%zu]") would write it: every field of every parse builds one, so
 * they are joined without vsnprintf().
 */
static void sub(char *buf, size_t len, const char *parent, const char *key)
{
	size_t at = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	path_add(buf, len, &at, parent);
	path_add(buf, len, &at, ".");
	path_add(buf, len, &at, key);
}

static void idx(char *buf, size_t len, const char *parent, size_t i)
{
	char num[24], *d = num + sizeof(num);
	size_t at = 0;

	*--d = '\0';
	*--d = ']';
	do
		*--d = (char)('0' + i % 10);
	while ((i /= 10) != 0);
	*--d = '[';
	if (len == 0)
		return;
	buf[0] = '\0';
	path_add(buf, len, &at, parent);
	path_add(buf, len, &at, d);
}

static const struct val *get_typed(struct parser *p, const struct val *m, const char *key,
				   const char *path, enum val_type t)
{
	const struct val *v = val_map_get(m, key);
	if (!v || v->type == VAL_NULL)
		return NULL;
	if (v->type != t) {
		char f[512];
		sub(f, sizeof(f), path, key);
		fail(p, f, "expected %s, got %s", val_type_name(t), val_type_name(v->type));
		return NULL;
	}
	return v;
}

/* A string field; @dflt when absent. */
static const char *str_field(struct parser *p, const struct val *m, const char *key,
			     const char *path, const char *dflt)
{
	const struct val *v = get_typed(p, m, key, path, VAL_STRING);
	return v ? v->u.s : dflt;
}

static const char *req_str(struct parser *p, const struct val *m, const char *key, const char *path)
{
	const char *s = str_field(p, m, key, path, NULL);
	if (!s && !p->failed) {
		char f[512];
		sub(f, sizeof(f), path, key);
		fail(p, f, "required");
	}
	return s ? s : "";
}

static bool bool_field(struct parser *p, const struct val *m, const char *key, const char *path,
		       bool *has)
{
	const struct val *v = get_typed(p, m, key, path, VAL_BOOL);
	if (has)
		*has = v != NULL;
	return v ? v->u.b : false;
}

static int64_t int_field(struct parser *p, const struct val *m, const char *key, const char *path,
			 bool *has)
{
	const struct val *v = val_map_get(m, key);
	if (has)
		*has = false;
	if (!v || v->type == VAL_NULL)
		return 0;
	if (v->type == VAL_FLOAT && v->u.f == (double)(int64_t)v->u.f) {
		if (has)
			*has = true;
		return (int64_t)v->u.f;
	}
	if (v->type != VAL_INT) {
		char f[512];
		sub(f, sizeof(f), path, key);
		fail(p, f, "expected integer, got %s", val_type_name(v->type));
		return 0;
	}
	if (has)
		*has = true;
	return v->u.i;
}

static const struct val *map_field(struct parser *p, const struct val *m, const char *key,
				   const char *path)
{
	return get_typed(p, m, key, path, VAL_MAP);
}

static const struct val *list_field(struct parser *p, const struct val *m, const char *key,
				    const char *path)
{
	return get_typed(p, m, key, path, VAL_LIST);
}

static struct sst_duration dur_field(struct parser *p, const struct val *m, const char *key,
				     const char *path)
{
	struct sst_duration d = { false, 0 };
	const char *s = str_field(p, m, key, path, NULL);
	if (!s)
		return d;
	if (parse_duration(s, &d.ms) != 0) {
		char f[512];
		sub(f, sizeof(f), path, key);
		fail(p, f, "time: invalid duration \"%s\"", s);
		return d;
	}
	d.set = true;
	return d;
}

static int64_t time_field(struct parser *p, const struct val *m, const char *key, const char *path)
{
	int64_t t;
	const char *s = str_field(p, m, key, path, NULL);
	if (!s)
		return SST_NO_TIME;
	if (parse_time(s, &t) != 0) {
		char f[512];
		sub(f, sizeof(f), path, key);
		fail(p, f, "not an RFC 3339 time: \"%s\"", s);
		return SST_NO_TIME;
	}
	return t;
}

/* Checks that every element of list @l is a map; returns its length. */
static size_t map_list(struct parser *p, const struct val *l, const char *path)
{
	if (!l)
		return 0;
	for (size_t i = 0; i < l->u.list.n; i++) {
		if (l->u.list.items[i]->type != VAL_MAP) {
			char f[512];
			idx(f, sizeof(f), path, i);
			fail(p, f, "expected object, got %s", val_type_name(l->u.list.items[i]->type));
			return 0;
		}
	}
	return l->u.list.n;
}

static void parse_source_ref(struct parser *p, const struct val *m, const char *path,
			     struct sst_source_ref *r)
{
	r->api_version = str_field(p, m, "apiVersion", path, "");
	r->kind = str_field(p, m, "kind", path, "");
	r->name = req_str(p, m, "name", path);
	r->ns = str_field(p, m, "namespace", path, "");
}

static const char *secret_name(struct parser *p, const struct val *m, const char *path)
{
	char f[512];
	sub(f, sizeof(f), path, "secretRef");
	const struct val *s = map_field(p, m, "secretRef", path);
	return s ? req_str(p, s, "name", f) : NULL;
}

static void parse_metric_source(struct parser *p, const struct val *m, const char *path,
				struct sst_metric_source *s)
{
	char f[512];
	memset(s, 0, sizeof(*s));
	s->raw = m;
	if (!m)
		return;
	const struct val *pr = map_field(p, m, "prometheus", path);
	const struct val *wh = map_field(p, m, "webhook", path);
	if (pr) {
		sub(f, sizeof(f), path, "prometheus");
		s->has_prometheus = true;
		s->address = req_str(p, pr, "address", f);
		s->query = req_str(p, pr, "query", f);
		s->secret_ref = secret_name(p, pr, f);
	}
	if (wh) {
		sub(f, sizeof(f), path, "webhook");
		s->has_webhook = true;
		s->url = req_str(p, wh, "url", f);
		s->json_path = req_str(p, wh, "jsonPath", f);
		if (!s->secret_ref)
			s->secret_ref = secret_name(p, wh, f);
	}
}

static void parse_error_budget(struct parser *p, const struct val *m, const char *path,
			       struct sst_error_budget *b)
{
	char f[512];
	b->raw = m;
	sub(f, sizeof(f), path, "source");
	const struct val *src = map_field(p, m, "source", path);
	if (!src && !p->failed)
		fail(p, f, "required");
	parse_metric_source(p, src, f, &b->source);
	b->freeze_threshold = req_str(p, m, "freezeThreshold", path);
	b->resume_threshold = str_field(p, m, "resumeThreshold", path, NULL);
	b->on_source_error = str_field(p, m, "onSourceError", path, "");
	b->interval = dur_field(p, m, "interval", path);
	b->dry_run = bool_field(p, m, "dryRun", path, NULL);
}

static const char *const verbs[] = { "patch", "http", "wait", "job", "delete", "apply" };

static void parse_action(struct parser *p, const struct val *m, const char *path,
			 struct sst_action *a)
{
	bool has;
	a->raw = m;
	a->name = req_str(p, m, "name", path);
	a->scope = str_field(p, m, "scope", path, "");
	a->timeout = dur_field(p, m, "timeout", path);
	a->retries = (int32_t)int_field(p, m, "retries", path, &has);
	a->has_retries = has;
	a->verb = "action";
	a->verb_count = 0;
	a->body = NULL;
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		const struct val *v = map_field(p, m, verbs[i], path);
		if (!v)
			continue;
		if (a->verb_count++ == 0) {
			a->verb = verbs[i];
			a->body = v;
		}
	}
	const struct val *an = map_field(p, m, "completionAnchor", path);
	if (an) {
		char f[512];
		sub(f, sizeof(f), path, "completionAnchor");
		a->has_anchor = true;
		a->anchor_api_version = req_str(p, an, "apiVersion", f);
		a->anchor_kind = req_str(p, an, "kind", f);
		a->anchor_name = req_str(p, an, "name", f);
	}
}

static void parse_actions(struct parser *p, const struct val *m, const char *key,
			  const char *path, struct sst_actions *out)
{
	char f[512];
	sub(f, sizeof(f), path, key);
	const struct val *l = list_field(p, m, key, path);
	size_t n = map_list(p, l, f);
	struct sst_action *items = arena_alloc(p, n, sizeof(*items));
	for (size_t i = 0; i < n && !p->failed; i++) {
		char e[512];
		idx(e, sizeof(e), f, i);
		parse_action(p, l->u.list.items[i], e, &items[i]);
	}
	out->items = items;
	out->n = n;
}

static void parse_selector(struct parser *p, const struct val *m, const char *path,
			   struct lbl_selector *sel, const struct val **raw)
{
	char e[256];
	*raw = map_field(p, m, "selector", path);
	/* An invalid selector is the gate's to report (from selector_raw); here it selects nothing. */
	if (lbl_selector_from_val(*raw, sel, e, sizeof(e)) != 0)
		sel->nothing = true;
	arena_selector(p, sel);
}

static void parse_promotion(struct parser *p, const struct val *m, const char *path,
			    struct sst_promotion *pr)
{
	char f[512], e[512];
	pr->soak = dur_field(p, m, "soak", path);
	pr->require_manual = bool_field(p, m, "requireManualPromotion", path, NULL);

	const struct val *an = map_field(p, m, "analysis", path);
	if (an) {
		sub(f, sizeof(f), path, "analysis");
		pr->has_analysis = true;
		const struct val *l = list_field(p, an, "checks", f);
		char lf[512];
		sub(lf, sizeof(lf), f, "checks");
		size_t n = map_list(p, l, lf);
		struct sst_analysis_check *c = arena_alloc(p, n, sizeof(*c));
		for (size_t i = 0; i < n && !p->failed; i++) {
			const struct val *cm = l->u.list.items[i];
			idx(e, sizeof(e), lf, i);
			c[i].name = req_str(p, cm, "name", e);
			char sf[600];
			sub(sf, sizeof(sf), e, "source");
			parse_metric_source(p, map_field(p, cm, "source", e), sf, &c[i].source);
			const struct val *th = map_field(p, cm, "threshold", e);
			sub(sf, sizeof(sf), e, "threshold");
			c[i].threshold.min = str_field(p, th, "min", sf, NULL);
			c[i].threshold.max = str_field(p, th, "max", sf, NULL);
		}
		pr->analysis.checks = c;
		pr->analysis.nchecks = n;
		pr->analysis.interval = dur_field(p, an, "interval", f);
		bool has;
		pr->analysis.failure_limit = (int32_t)int_field(p, an, "failureLimit", f, &has);
		pr->analysis.has_failure_limit = has;
		pr->analysis.on_failure = str_field(p, an, "onFailure", f, "");
		pr->analysis.on_source_error = str_field(p, an, "onSourceError", f, "");
		pr->analysis.dry_run = bool_field(p, an, "dryRun", f, NULL);
	}

	const struct val *ft = map_field(p, m, "fastTrack", path);
	if (ft) {
		sub(f, sizeof(f), path, "fastTrack");
		pr->has_fast_track = true;
		char sf[600];
		sub(sf, sizeof(sf), f, "source");
		parse_metric_source(p, map_field(p, ft, "source", f), sf, &pr->fast_track.source);
		pr->fast_track.max = req_str(p, ft, "max", f);
		pr->fast_track.after = dur_field(p, ft, "after", f);
	}

	const struct val *rg = map_field(p, m, "restartGate", path);
	if (rg) {
		sub(f, sizeof(f), path, "restartGate");
		pr->has_restart_gate = true;
		pr->restart_gate.on_failure = str_field(p, rg, "onFailure", f, "");
		const struct val *l = list_field(p, rg, "checks", f);
		char lf[512];
		sub(lf, sizeof(lf), f, "checks");
		size_t n = map_list(p, l, lf);
		struct sst_restart_check *c = arena_alloc(p, n, sizeof(*c));
		for (size_t i = 0; i < n && !p->failed; i++) {
			const struct val *cm = l->u.list.items[i];
			idx(e, sizeof(e), lf, i);
			c[i].name = req_str(p, cm, "name", e);
			parse_selector(p, cm, e, &c[i].selector, &c[i].selector_raw);
			c[i].max_restarts = (int32_t)int_field(p, cm, "maxRestarts", e, NULL);
			c[i].on_failure = str_field(p, cm, "onFailure", e, "");
		}
		pr->restart_gate.checks = c;
		pr->restart_gate.nchecks = n;
	}

	const struct val *eg = map_field(p, m, "eventGate", path);
	if (eg) {
		sub(f, sizeof(f), path, "eventGate");
		pr->has_event_gate = true;
		pr->event_gate.on_failure = str_field(p, eg, "onFailure", f, "");
		const struct val *l = list_field(p, eg, "checks", f);
		char lf[512];
		sub(lf, sizeof(lf), f, "checks");
		size_t n = map_list(p, l, lf);
		struct sst_event_check *c = arena_alloc(p, n, sizeof(*c));
		for (size_t i = 0; i < n && !p->failed; i++) {
			const struct val *cm = l->u.list.items[i];
			idx(e, sizeof(e), lf, i);
			c[i].name = req_str(p, cm, "name", e);
			parse_selector(p, cm, e, &c[i].selector, &c[i].selector_raw);
			const struct val *rl = list_field(p, cm, "reasons", e);
			size_t nr = rl ? rl->u.list.n : 0;
			const char **rs = arena_alloc(p, nr, sizeof(*rs));
			for (size_t j = 0; j < nr; j++) {
				const struct val *rv = rl->u.list.items[j];
				if (rv->type != VAL_STRING) {
					char rf[600];
					pathf(rf, sizeof(rf), "%s.reasons[%zu]", e, j);
					fail(p, rf, "expected string, got %s", val_type_name(rv->type));
					break;
				}
				rs[j] = rv->u.s;
			}
			c[i].reasons = rs;
			c[i].nreasons = nr;
			c[i].max_events = (int32_t)int_field(p, cm, "maxEvents", e, NULL);
			c[i].on_failure = str_field(p, cm, "onFailure", e, "");
		}
		pr->event_gate.checks = c;
		pr->event_gate.nchecks = n;
	}
}

static void parse_stage(struct parser *p, const struct val *m, const char *path, struct sst_stage *s)
{
	char f[512];
	s->raw = m;
	s->name = req_str(p, m, "name", path);
	s->migration_anchor = str_field(p, m, "migrationAnchor", path, "");
	sub(f, sizeof(f), path, "sourceRef");
	const struct val *sr = map_field(p, m, "sourceRef", path);
	if (!sr && !p->failed)
		fail(p, f, "required");
	parse_source_ref(p, sr, f, &s->source_ref);
	s->path = str_field(p, m, "path", path, "");
	s->service_account = str_field(p, m, "serviceAccountName", path, "");
	s->prune = bool_field(p, m, "prune", path, &s->has_prune);
	s->timeout = dur_field(p, m, "timeout", path);
	s->on_timeout = str_field(p, m, "onTimeout", path, "");
	s->force = bool_field(p, m, "force", path, NULL);
	s->conflict_policy = map_field(p, m, "conflictPolicy", path);
	s->apply_helm_hook_resources =
		bool_field(p, m, "applyHelmHookResources", path, &s->has_apply_helm_hook_resources);
	s->patches = list_field(p, m, "patches", path);
	s->post_build = map_field(p, m, "postBuild", path);

	const struct val *ac = map_field(p, m, "actions", path);
	if (ac) {
		sub(f, sizeof(f), path, "actions");
		s->has_actions = true;
		parse_actions(p, ac, "pre", f, &s->pre);
		parse_actions(p, ac, "post", f, &s->post);
		parse_actions(p, ac, "onFailure", f, &s->on_failure);
	}
	const struct val *rc = map_field(p, m, "readyChecks", path);
	if (rc) {
		sub(f, sizeof(f), path, "readyChecks");
		s->has_ready_checks = true;
		s->ready_checks.timeout = dur_field(p, rc, "timeout", f);
		s->ready_checks.disable_wait = bool_field(p, rc, "disableWait", f, NULL);
		s->ready_checks.checks = list_field(p, rc, "checks", f);
		s->ready_checks.exprs = list_field(p, rc, "exprs", f);
		char lf[512];
		sub(lf, sizeof(lf), f, "checks");
		s->ready_checks.nchecks = map_list(p, s->ready_checks.checks, lf);
		sub(lf, sizeof(lf), f, "exprs");
		s->ready_checks.nexprs = map_list(p, s->ready_checks.exprs, lf);
	}
	const struct val *pr = map_field(p, m, "promotion", path);
	if (pr) {
		sub(f, sizeof(f), path, "promotion");
		s->has_promotion = true;
		parse_promotion(p, pr, f, &s->promotion);
	}
	const struct val *eb = map_field(p, m, "errorBudget", path);
	if (eb) {
		sub(f, sizeof(f), path, "errorBudget");
		s->has_error_budget = true;
		parse_error_budget(p, eb, f, &s->error_budget);
	}
}

static void parse_version(struct parser *p, const struct val *m, const char *path,
			  struct sst_version *v)
{
	char f[512];
	v->value = str_field(p, m, "value", path, "");
	const struct val *fa = map_field(p, m, "fromArtifact", path);
	if (fa) {
		sub(f, sizeof(f), path, "fromArtifact");
		v->has_from_artifact = true;
		v->fa_stage = req_str(p, fa, "stage", f);
		v->fa_path = req_str(p, fa, "path", f);
	}
	const struct val *fo = map_field(p, m, "fromObject", path);
	if (fo) {
		sub(f, sizeof(f), path, "fromObject");
		v->has_from_object = true;
		v->fo_stage = str_field(p, fo, "stage", f, "");
		v->fo_kind = req_str(p, fo, "kind", f);
		v->fo_name = req_str(p, fo, "name", f);
		v->fo_api_version = str_field(p, fo, "apiVersion", f, "");
		v->fo_field_path = str_field(p, fo, "fieldPath", f, "");
	}
	v->require_migration_coverage = bool_field(p, m, "requireMigrationCoverage", path, NULL);
	v->approval_mode = str_field(p, m, "approvalMode", path, "");
	v->allow_downgrade = bool_field(p, m, "allowDowngrade", path, NULL);
}

int sst_spec_parse(const struct val *spec, struct sst_spec *out, char *err, size_t errlen)
{
	struct arena *a = xcalloc(1, sizeof(*a));
	struct parser p = { a, err, errlen, false };
	const char *path = "spec";
	char f[512], e[512];

	memset(out, 0, sizeof(*out));
	out->arena_ = a;
	if (err && errlen)
		err[0] = '\0';
	if (!spec || spec->type != VAL_MAP) {
		fail(&p, path, "expected object, got %s", spec ? val_type_name(spec->type) : "nothing");
		goto out_failed;
	}
	/* Interval is a plain metav1.Duration: zero reads as absent (omitempty). */
	out->interval = dur_field(&p, spec, "interval", path);
	if (out->interval.set && out->interval.ms == 0)
		out->interval.set = false;
	out->retry_interval = dur_field(&p, spec, "retryInterval", path);
	out->drift_detection_interval = dur_field(&p, spec, "driftDetectionInterval", path);
	out->timeout = dur_field(&p, spec, "timeout", path);
	out->on_timeout = str_field(&p, spec, "onTimeout", path, "");
	out->suspend = bool_field(&p, spec, "suspend", path, NULL);

	const struct val *dl = list_field(&p, spec, "dependsOn", path);
	size_t nd = map_list(&p, dl, "spec.dependsOn");
	struct sst_dependency *deps = arena_alloc(&p, nd, sizeof(*deps));
	for (size_t i = 0; i < nd && !p.failed; i++) {
		idx(e, sizeof(e), "spec.dependsOn", i);
		deps[i].name = req_str(&p, dl->u.list.items[i], "name", e);
		deps[i].ns = str_field(&p, dl->u.list.items[i], "namespace", e, "");
		deps[i].min_version = str_field(&p, dl->u.list.items[i], "minVersion", e, "");
	}
	out->depends_on = deps;
	out->ndepends_on = nd;

	out->service_account = str_field(&p, spec, "serviceAccountName", path, "");
	out->kube_config = map_field(&p, spec, "kubeConfig", path);
	out->decryption = map_field(&p, spec, "decryption", path);
	const struct val *ver = map_field(&p, spec, "version", path);
	if (ver) {
		out->has_version = true;
		parse_version(&p, ver, "spec.version", &out->version);
	}

	const struct val *ml = list_field(&p, spec, "migrations", path);
	size_t nm = map_list(&p, ml, "spec.migrations");
	struct sst_migration *migs = arena_alloc(&p, nm, sizeof(*migs));
	for (size_t i = 0; i < nm && !p.failed; i++) {
		const struct val *mm = ml->u.list.items[i];
		idx(e, sizeof(e), "spec.migrations", i);
		migs[i].raw = mm;
		migs[i].name = req_str(&p, mm, "name", e);
		migs[i].to = req_str(&p, mm, "to", e);
		migs[i].from = str_field(&p, mm, "from", e, "");
		migs[i].stage = str_field(&p, mm, "stage", e, "");
		parse_actions(&p, mm, "actions", e, &migs[i].actions);
		parse_actions(&p, mm, "down", e, &migs[i].down);
	}
	out->migrations = migs;
	out->nmigrations = nm;

	const struct val *msr = map_field(&p, spec, "migrationsSourceRef", path);
	if (msr) {
		out->has_migrations_source = true;
		const struct val *sr = map_field(&p, msr, "sourceRef", "spec.migrationsSourceRef");
		if (!sr && !p.failed)
			fail(&p, "spec.migrationsSourceRef.sourceRef", "required");
		parse_source_ref(&p, sr, "spec.migrationsSourceRef.sourceRef", &out->migrations_source_ref);
		out->migrations_source_path = str_field(&p, msr, "path", "spec.migrationsSourceRef", "");
	}
	out->rollback_on_failure = bool_field(&p, spec, "rollbackOnFailure", path, NULL);
	parse_actions(&p, spec, "onRollback", path, &out->on_rollback);

	const struct val *wl = list_field(&p, spec, "updateWindows", path);
	size_t nw = map_list(&p, wl, "spec.updateWindows");
	struct sst_window *wins = arena_alloc(&p, nw, sizeof(*wins));
	for (size_t i = 0; i < nw && !p.failed; i++) {
		const struct val *wm = wl->u.list.items[i];
		idx(e, sizeof(e), "spec.updateWindows", i);
		wins[i].type = req_str(&p, wm, "type", e);
		wins[i].schedule = str_field(&p, wm, "schedule", e, "");
		wins[i].duration = dur_field(&p, wm, "duration", e);
		wins[i].time_zone = str_field(&p, wm, "timeZone", e, "");
		wins[i].from_ms = time_field(&p, wm, "from", e);
		wins[i].to_ms = time_field(&p, wm, "to", e);
	}
	out->windows = wins;
	out->nwindows = nw;
	out->window_scope = str_field(&p, spec, "windowScope", path, "");

	const struct val *eb = map_field(&p, spec, "errorBudget", path);
	if (eb) {
		out->has_error_budget = true;
		parse_error_budget(&p, eb, "spec.errorBudget", &out->error_budget);
	}

	const struct val *sl = list_field(&p, spec, "stages", path);
	if (!sl && !p.failed)
		fail(&p, "spec.stages", "required");
	size_t ns = map_list(&p, sl, "spec.stages");
	struct sst_stage *stages = arena_alloc(&p, ns, sizeof(*stages));
	for (size_t i = 0; i < ns && !p.failed; i++) {
		idx(f, sizeof(f), "spec.stages", i);
		parse_stage(&p, sl->u.list.items[i], f, &stages[i]);
	}
	out->stages = stages;
	out->nstages = ns;
	if (p.failed)
		goto out_failed;
	return 0;

out_failed:
	sst_spec_release(out);
	out->arena_ = NULL;
	return -1;
}

void sst_spec_release(struct sst_spec *s)
{
	if (!s)
		return;
	struct arena *a = s->arena_;
	if (a) {
		for (size_t i = 0; i < a->nsels; i++)
			lbl_selector_release(a->sels[i]);
		for (size_t i = 0; i < a->n; i++)
			free(a->ptrs[i]);
		free(a->ptrs);
		free(a->sels);
		free(a);
	}
	memset(s, 0, sizeof(*s));
}

enum sst_scope sst_action_scope(const struct sst_action *a)
{
	if (a->scope && strcmp(a->scope, "Version") == 0)
		return SST_SCOPE_VERSION;
	if (a->scope && strcmp(a->scope, "Lifetime") == 0)
		return SST_SCOPE_LIFETIME;
	return SST_SCOPE_REVISION;
}

/* ---- small helpers ------------------------------------------------------- */

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

/* Index of @key in @m, or of the slot it would be inserted at (with *found false). */
static size_t strmap_find(const struct sst_strmap *m, const char *key, bool *found)
{
	return obj_key_search(m->keys, m->n, sizeof(*m->keys), 0, key, found);
}

const char *sst_strmap_get(const struct sst_strmap *m, const char *key)
{
	bool found;
	size_t i = strmap_find(m, key, &found);
	return found ? m->values[i] : NULL;
}

void sst_strmap_set(struct sst_strmap *m, const char *key, const char *value)
{
	bool found;
	size_t i = strmap_find(m, key, &found);
	if (found) {
		sst_str_assign(&m->values[i], value);
		return;
	}
	m->keys = xreallocarray(m->keys, m->n + 1, sizeof(*m->keys));
	m->values = xreallocarray(m->values, m->n + 1, sizeof(*m->values));
	memmove(m->keys + i + 1, m->keys + i, (m->n - i) * sizeof(*m->keys));
	memmove(m->values + i + 1, m->values + i, (m->n - i) * sizeof(*m->values));
	m->keys[i] = xstrdup(key);
	m->values[i] = dup_or_empty(value);
	m->n++;
}

void sst_strmap_assign_pairs(struct sst_strmap *m, size_t n, const char *(*key)(const void *ctx, size_t i),
			     const char *(*value)(const void *ctx, size_t i), const void *ctx)
{
	bool stack[64] = { false }, *hit = m->n <= 64 ? stack : xcalloc(m->n, sizeof(*hit));
	size_t kept = 0;

	/* the entries whose key is among the pairs stay (their values are set below), the rest go */
	for (size_t i = 0; i < n; i++) {
		bool found;
		size_t at = strmap_find(m, key(ctx, i), &found);

		if (found)
			hit[at] = true;
	}
	for (size_t i = 0; i < m->n; i++) {
		if (!hit[i]) {
			free(m->keys[i]);
			free(m->values[i]);
			continue;
		}
		m->keys[kept] = m->keys[i];
		m->values[kept] = m->values[i];
		kept++;
	}
	if (hit != stack)
		free(hit);
	m->n = kept;
	if (kept == 0) { /* as sst_strmap_release() leaves it */
		free(m->keys);
		free(m->values);
		m->keys = m->values = NULL;
	}
	for (size_t i = 0; i < n; i++)
		sst_strmap_set(m, key(ctx, i), value(ctx, i));
}

void sst_strmap_release(struct sst_strmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->keys[i]);
		free(m->values[i]);
	}
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

static void strmap_copy(struct sst_strmap *dst, const struct sst_strmap *src)
{
	memset(dst, 0, sizeof(*dst));
	if (src->n == 0)
		return;
	dst->keys = xcalloc(src->n, sizeof(*dst->keys));
	dst->values = xcalloc(src->n, sizeof(*dst->values));
	for (size_t i = 0; i < src->n; i++) {
		dst->keys[i] = xstrdup(src->keys[i]);
		dst->values[i] = xstrdup(src->values[i]);
	}
	dst->n = src->n;
}

void sst_string_list_push(struct sst_string_list *l, const char *s)
{
	l->items = xreallocarray(l->items, l->n + 1, sizeof(*l->items));
	l->items[l->n++] = dup_or_empty(s);
}

bool sst_string_list_has(const struct sst_string_list *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i], s) == 0)
			return true;
	return false;
}

void sst_string_list_release(struct sst_string_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static void string_list_copy(struct sst_string_list *dst, const struct sst_string_list *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++)
		sst_string_list_push(dst, src->items[i]);
}

const struct sst_condition *sst_ready_condition(const struct sst_status *s)
{
	for (size_t i = 0; i < s->nconditions; i++)
		if (strcmp(s->conditions[i].type, "Ready") == 0)
			return &s->conditions[i];
	return NULL;
}

/* ---- status: init, release, copy ----------------------------------------- */

void sst_condition_release(struct sst_condition *c)
{
	if (!c)
		return;
	free(c->type);
	free(c->status);
	free(c->reason);
	free(c->message);
}

void sst_condition_copy(struct sst_condition *d, const struct sst_condition *s)
{
	d->type = dup_or_empty(s->type);
	d->status = dup_or_empty(s->status);
	d->reason = dup_or_empty(s->reason);
	d->message = dup_or_empty(s->message);
	d->observed_generation = s->observed_generation;
	d->last_transition_ms = s->last_transition_ms;
}

void sst_budget_freeze_free(struct sst_budget_freeze *b)
{
	if (!b)
		return;
	free(b->remaining);
	free(b->freeze_threshold);
	free(b->resume_threshold);
	free(b);
}

struct sst_budget_freeze *sst_budget_freeze_dup(const struct sst_budget_freeze *b)
{
	if (!b)
		return NULL;
	struct sst_budget_freeze *d = xcalloc(1, sizeof(*d));
	d->remaining = dup_or_empty(b->remaining);
	d->freeze_threshold = dup_or_empty(b->freeze_threshold);
	d->resume_threshold = dup_or_empty(b->resume_threshold);
	d->since_ms = b->since_ms;
	d->dry_run = b->dry_run;
	return d;
}

static void analysis_free(struct sst_analysis_result *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nchecks; i++) {
		free(a->checks[i].name);
		free(a->checks[i].value);
		free(a->checks[i].error);
	}
	free(a->checks);
	free(a);
}

static struct sst_analysis_result *analysis_dup(const struct sst_analysis_result *a)
{
	if (!a)
		return NULL;
	struct sst_analysis_result *d = xcalloc(1, sizeof(*d));
	d->time_ms = a->time_ms;
	d->passed = a->passed;
	if (a->nchecks)
		d->checks = xcalloc(a->nchecks, sizeof(*d->checks));
	for (size_t i = 0; i < a->nchecks; i++) {
		d->checks[i].name = dup_or_empty(a->checks[i].name);
		d->checks[i].value = dup_or_empty(a->checks[i].value);
		d->checks[i].error = dup_or_empty(a->checks[i].error);
		d->checks[i].ok = a->checks[i].ok;
	}
	d->nchecks = a->nchecks;
	return d;
}

void sst_promotion_state_free(struct sst_promotion_state *p)
{
	if (!p)
		return;
	free(p->phase);
	free(p->restart_check);
	for (size_t i = 0; i < p->nrestart_baseline; i++)
		free(p->restart_baseline[i].name);
	free(p->restart_baseline);
	free(p->event_check);
	free(p->aborted_revision);
	analysis_free(p->last_analysis);
	free(p);
}

struct sst_promotion_state *sst_promotion_state_dup(const struct sst_promotion_state *p)
{
	if (!p)
		return NULL;
	struct sst_promotion_state *d = xcalloc(1, sizeof(*d));
	d->phase = dup_or_empty(p->phase);
	d->since_ms = p->since_ms;
	d->soak_until_ms = p->soak_until_ms;
	d->analysis_failures = p->analysis_failures;
	d->restart_check = dup_or_empty(p->restart_check);
	d->observed_restarts = p->observed_restarts;
	if (p->nrestart_baseline)
		d->restart_baseline = xcalloc(p->nrestart_baseline, sizeof(*d->restart_baseline));
	for (size_t i = 0; i < p->nrestart_baseline; i++) {
		d->restart_baseline[i].name = dup_or_empty(p->restart_baseline[i].name);
		d->restart_baseline[i].restarts = p->restart_baseline[i].restarts;
	}
	d->nrestart_baseline = p->nrestart_baseline;
	d->event_check = dup_or_empty(p->event_check);
	d->observed_events = p->observed_events;
	d->aborted_revision = dup_or_empty(p->aborted_revision);
	d->last_analysis = analysis_dup(p->last_analysis);
	return d;
}

void sst_stage_status_release(struct sst_stage_status *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->phase);
	free(s->applied_revision);
	free(s->message);
	sst_string_list_release(&s->executed_actions);
	free(s->ledger_revision);
	sst_string_list_release(&s->executed_version_actions);
	free(s->ledger_version);
	free(s->last_handled_reconcile_at);
	sst_promotion_state_free(s->promotion_state);
	free(s->last_handled_promotion);
	sst_budget_freeze_free(s->budget_freeze);
	memset(s, 0, sizeof(*s));
}

void sst_stage_status_copy(struct sst_stage_status *d, const struct sst_stage_status *s)
{
	memset(d, 0, sizeof(*d));
	d->name = dup_or_empty(s->name);
	d->phase = dup_or_empty(s->phase);
	d->applied_revision = dup_or_empty(s->applied_revision);
	d->entries_count = s->entries_count;
	d->shards = s->shards;
	d->message = dup_or_empty(s->message);
	string_list_copy(&d->executed_actions, &s->executed_actions);
	d->ledger_revision = dup_or_empty(s->ledger_revision);
	string_list_copy(&d->executed_version_actions, &s->executed_version_actions);
	d->ledger_version = dup_or_empty(s->ledger_version);
	d->last_handled_reconcile_at = dup_or_empty(s->last_handled_reconcile_at);
	d->promotion_state = sst_promotion_state_dup(s->promotion_state);
	d->last_handled_promotion = dup_or_empty(s->last_handled_promotion);
	d->budget_freeze = sst_budget_freeze_dup(s->budget_freeze);
}

static void pending_migration_release(struct sst_pending_migration *m)
{
	free(m->name);
	free(m->to);
	free(m->from);
	free(m->stage);
	sst_string_list_release(&m->actions);
	free(m->digest);
}

static void artifact_ref_release(struct sst_artifact_ref *r)
{
	free(r->stage);
	free(r->url);
	free(r->digest);
	free(r->revision);
	free(r->substitution_digest);
}

void sst_status_init(struct sst_status *s)
{
	memset(s, 0, sizeof(*s));
	s->last_handled_reconcile_at = xstrdup("");
	s->version = xstrdup("");
	s->pending_version = xstrdup("");
	s->last_handled_update_override = xstrdup("");
	s->last_handled_reset_scope = xstrdup("");
	s->last_handled_budget_override = xstrdup("");
}

void sst_status_release(struct sst_status *s)
{
	if (!s)
		return;
	free(s->last_handled_reconcile_at);
	for (size_t i = 0; i < s->nconditions; i++)
		sst_condition_release(&s->conditions[i]);
	free(s->conditions);
	sst_strmap_release(&s->last_attempted_revisions);
	sst_strmap_release(&s->last_applied_revisions);
	for (size_t i = 0; i < s->nstages; i++)
		sst_stage_status_release(&s->stages[i]);
	free(s->stages);
	free(s->version);
	free(s->pending_version);
	for (size_t i = 0; i < s->npending_migrations; i++)
		pending_migration_release(&s->pending_migrations[i]);
	free(s->pending_migrations);
	sst_string_list_release(&s->executed_migrations);
	sst_string_list_release(&s->executed_migration_actions);
	for (size_t i = 0; i < s->nlast_applied_snapshot; i++)
		artifact_ref_release(&s->last_applied_snapshot[i]);
	free(s->last_applied_snapshot);
	if (s->pending_update) {
		sst_strmap_release(&s->pending_update->revisions);
		free(s->pending_update);
	}
	free(s->last_handled_update_override);
	free(s->last_handled_reset_scope);
	sst_budget_freeze_free(s->budget_freeze);
	free(s->last_handled_budget_override);
	memset(s, 0, sizeof(*s));
}

void sst_status_copy(struct sst_status *d, const struct sst_status *s)
{
	memset(d, 0, sizeof(*d));
	d->last_handled_reconcile_at = dup_or_empty(s->last_handled_reconcile_at);
	if (s->nconditions)
		d->conditions = xcalloc(s->nconditions, sizeof(*d->conditions));
	for (size_t i = 0; i < s->nconditions; i++)
		sst_condition_copy(&d->conditions[i], &s->conditions[i]);
	d->nconditions = s->nconditions;
	d->observed_generation = s->observed_generation;
	strmap_copy(&d->last_attempted_revisions, &s->last_attempted_revisions);
	strmap_copy(&d->last_applied_revisions, &s->last_applied_revisions);
	if (s->nstages)
		d->stages = xcalloc(s->nstages, sizeof(*d->stages));
	for (size_t i = 0; i < s->nstages; i++)
		sst_stage_status_copy(&d->stages[i], &s->stages[i]);
	d->nstages = s->nstages;
	d->version = dup_or_empty(s->version);
	d->pending_version = dup_or_empty(s->pending_version);
	if (s->npending_migrations)
		d->pending_migrations = xcalloc(s->npending_migrations, sizeof(*d->pending_migrations));
	for (size_t i = 0; i < s->npending_migrations; i++) {
		const struct sst_pending_migration *m = &s->pending_migrations[i];
		struct sst_pending_migration *n = &d->pending_migrations[i];
		n->name = dup_or_empty(m->name);
		n->to = dup_or_empty(m->to);
		n->from = dup_or_empty(m->from);
		n->stage = dup_or_empty(m->stage);
		string_list_copy(&n->actions, &m->actions);
		n->digest = dup_or_empty(m->digest);
	}
	d->npending_migrations = s->npending_migrations;
	string_list_copy(&d->executed_migrations, &s->executed_migrations);
	string_list_copy(&d->executed_migration_actions, &s->executed_migration_actions);
	d->migration_failure_count = s->migration_failure_count;
	d->action_failure_count = s->action_failure_count;
	if (s->nlast_applied_snapshot)
		d->last_applied_snapshot =
			xcalloc(s->nlast_applied_snapshot, sizeof(*d->last_applied_snapshot));
	for (size_t i = 0; i < s->nlast_applied_snapshot; i++) {
		const struct sst_artifact_ref *r = &s->last_applied_snapshot[i];
		struct sst_artifact_ref *n = &d->last_applied_snapshot[i];
		n->stage = dup_or_empty(r->stage);
		n->url = dup_or_empty(r->url);
		n->digest = dup_or_empty(r->digest);
		n->revision = dup_or_empty(r->revision);
		n->substitution_digest = dup_or_empty(r->substitution_digest);
	}
	d->nlast_applied_snapshot = s->nlast_applied_snapshot;
	if (s->pending_update) {
		d->pending_update = xcalloc(1, sizeof(*d->pending_update));
		strmap_copy(&d->pending_update->revisions, &s->pending_update->revisions);
		d->pending_update->next_window_opens_ms = s->pending_update->next_window_opens_ms;
	}
	d->last_handled_update_override = dup_or_empty(s->last_handled_update_override);
	d->last_handled_reset_scope = dup_or_empty(s->last_handled_reset_scope);
	d->budget_freeze = sst_budget_freeze_dup(s->budget_freeze);
	d->last_handled_budget_override = dup_or_empty(s->last_handled_budget_override);
}

/* ---- status: assign (a copy that reuses the target's allocations) -------- */

void sst_str_assign_differs(char **d, const char *s)
{
	size_t ns, nd;

	if (!s)
		s = "";
	if (*d) {
		if (strcmp(*d, s) == 0)
			return;
		ns = strlen(s);
		nd = strlen(*d);
		if (nd >= ns) {
			memmove(*d, s, ns + 1); /* @s may point into *@d */
			return;
		}
		free(*d);
	}
	*d = xstrdup(s);
}

/*
 * Resizes the array *@items of @size-byte elements from *@n to @want
 * elements: the elements past @want are first released by @release, new
 * ones are zeroed (all their strings NULL, which the assigns below fill).
 */
static void *assign_resize(void *items, size_t *n, size_t want, size_t size, void (*release)(void *))
{
	char *a = items;

	if (*n == want)
		return items;
	for (size_t i = want; i < *n; i++)
		release(a + i * size);
	if (want == 0) {
		free(a);
		*n = 0;
		return NULL;
	}
	a = xreallocarray(a, want, size);
	if (want > *n)
		memset(a + *n * size, 0, (want - *n) * size);
	*n = want;
	return a;
}

static void strmap_assign(struct sst_strmap *d, const struct sst_strmap *s)
{
	if (d->n != s->n) {
		for (size_t i = s->n; i < d->n; i++) {
			free(d->keys[i]);
			free(d->values[i]);
		}
		if (s->n == 0) {
			free(d->keys);
			free(d->values);
			d->keys = d->values = NULL;
		} else {
			d->keys = xreallocarray(d->keys, s->n, sizeof(*d->keys));
			d->values = xreallocarray(d->values, s->n, sizeof(*d->values));
			for (size_t i = d->n; i < s->n; i++)
				d->keys[i] = d->values[i] = NULL;
		}
		d->n = s->n;
	}
	for (size_t i = 0; i < s->n; i++) {
		sst_str_assign(&d->keys[i], s->keys[i]);
		sst_str_assign(&d->values[i], s->values[i]);
	}
}

static void str_release_v(void *p)
{
	free(*(char **)p);
}

void sst_string_list_assign(struct sst_string_list *d, const struct sst_string_list *s)
{
	d->items = assign_resize(d->items, &d->n, s->n, sizeof(*d->items), str_release_v);
	for (size_t i = 0; i < s->n; i++)
		sst_str_assign(&d->items[i], s->items[i]);
}

static void condition_release_v(void *p)
{
	sst_condition_release(p);
}

void sst_condition_assign(struct sst_condition *d, const struct sst_condition *s)
{
	sst_str_assign(&d->type, s->type);
	sst_str_assign(&d->status, s->status);
	sst_str_assign(&d->reason, s->reason);
	sst_str_assign(&d->message, s->message);
	d->observed_generation = s->observed_generation;
	d->last_transition_ms = s->last_transition_ms;
}

static void budget_freeze_assign(struct sst_budget_freeze **d, const struct sst_budget_freeze *s)
{
	if (!s) {
		sst_budget_freeze_free(*d);
		*d = NULL;
		return;
	}
	if (!*d)
		*d = xcalloc(1, sizeof(**d));
	sst_str_assign(&(*d)->remaining, s->remaining);
	sst_str_assign(&(*d)->freeze_threshold, s->freeze_threshold);
	sst_str_assign(&(*d)->resume_threshold, s->resume_threshold);
	(*d)->since_ms = s->since_ms;
	(*d)->dry_run = s->dry_run;
}

static void restart_baseline_release_v(void *p)
{
	free(((struct sst_restart_baseline *)p)->name);
}

static void promotion_state_assign(struct sst_promotion_state **dp, const struct sst_promotion_state *s)
{
	struct sst_promotion_state *d;

	if (!s) {
		sst_promotion_state_free(*dp);
		*dp = NULL;
		return;
	}
	if (!*dp)
		*dp = xcalloc(1, sizeof(**dp));
	d = *dp;
	sst_str_assign(&d->phase, s->phase);
	d->since_ms = s->since_ms;
	d->soak_until_ms = s->soak_until_ms;
	d->analysis_failures = s->analysis_failures;
	sst_str_assign(&d->restart_check, s->restart_check);
	d->observed_restarts = s->observed_restarts;
	d->restart_baseline = assign_resize(d->restart_baseline, &d->nrestart_baseline, s->nrestart_baseline,
					    sizeof(*d->restart_baseline), restart_baseline_release_v);
	for (size_t i = 0; i < s->nrestart_baseline; i++) {
		sst_str_assign(&d->restart_baseline[i].name, s->restart_baseline[i].name);
		d->restart_baseline[i].restarts = s->restart_baseline[i].restarts;
	}
	sst_str_assign(&d->event_check, s->event_check);
	d->observed_events = s->observed_events;
	sst_str_assign(&d->aborted_revision, s->aborted_revision);
	/* an analysis result is rare and small: copied afresh */
	analysis_free(d->last_analysis);
	d->last_analysis = analysis_dup(s->last_analysis);
}

static void stage_status_release_v(void *p)
{
	sst_stage_status_release(p);
}

void sst_stage_status_assign(struct sst_stage_status *d, const struct sst_stage_status *s)
{
	sst_str_assign(&d->name, s->name);
	sst_str_assign(&d->phase, s->phase);
	sst_str_assign(&d->applied_revision, s->applied_revision);
	d->entries_count = s->entries_count;
	d->shards = s->shards;
	sst_str_assign(&d->message, s->message);
	sst_string_list_assign(&d->executed_actions, &s->executed_actions);
	sst_str_assign(&d->ledger_revision, s->ledger_revision);
	sst_string_list_assign(&d->executed_version_actions, &s->executed_version_actions);
	sst_str_assign(&d->ledger_version, s->ledger_version);
	sst_str_assign(&d->last_handled_reconcile_at, s->last_handled_reconcile_at);
	promotion_state_assign(&d->promotion_state, s->promotion_state);
	sst_str_assign(&d->last_handled_promotion, s->last_handled_promotion);
	budget_freeze_assign(&d->budget_freeze, s->budget_freeze);
}

static void pending_migration_release_v(void *p)
{
	pending_migration_release(p);
}

static void artifact_ref_release_v(void *p)
{
	artifact_ref_release(p);
}

void sst_status_assign(struct sst_status *d, const struct sst_status *s)
{
	if (d == s)
		return;
	sst_str_assign(&d->last_handled_reconcile_at, s->last_handled_reconcile_at);
	d->conditions = assign_resize(d->conditions, &d->nconditions, s->nconditions, sizeof(*d->conditions),
				      condition_release_v);
	for (size_t i = 0; i < s->nconditions; i++)
		sst_condition_assign(&d->conditions[i], &s->conditions[i]);
	d->observed_generation = s->observed_generation;
	strmap_assign(&d->last_attempted_revisions, &s->last_attempted_revisions);
	strmap_assign(&d->last_applied_revisions, &s->last_applied_revisions);
	d->stages = assign_resize(d->stages, &d->nstages, s->nstages, sizeof(*d->stages), stage_status_release_v);
	for (size_t i = 0; i < s->nstages; i++)
		sst_stage_status_assign(&d->stages[i], &s->stages[i]);
	sst_str_assign(&d->version, s->version);
	sst_str_assign(&d->pending_version, s->pending_version);
	d->pending_migrations = assign_resize(d->pending_migrations, &d->npending_migrations,
					      s->npending_migrations, sizeof(*d->pending_migrations),
					      pending_migration_release_v);
	for (size_t i = 0; i < s->npending_migrations; i++) {
		const struct sst_pending_migration *m = &s->pending_migrations[i];
		struct sst_pending_migration *n = &d->pending_migrations[i];

		sst_str_assign(&n->name, m->name);
		sst_str_assign(&n->to, m->to);
		sst_str_assign(&n->from, m->from);
		sst_str_assign(&n->stage, m->stage);
		sst_string_list_assign(&n->actions, &m->actions);
		sst_str_assign(&n->digest, m->digest);
	}
	sst_string_list_assign(&d->executed_migrations, &s->executed_migrations);
	sst_string_list_assign(&d->executed_migration_actions, &s->executed_migration_actions);
	d->migration_failure_count = s->migration_failure_count;
	d->action_failure_count = s->action_failure_count;
	d->last_applied_snapshot = assign_resize(d->last_applied_snapshot, &d->nlast_applied_snapshot,
						 s->nlast_applied_snapshot, sizeof(*d->last_applied_snapshot),
						 artifact_ref_release_v);
	for (size_t i = 0; i < s->nlast_applied_snapshot; i++) {
		const struct sst_artifact_ref *r = &s->last_applied_snapshot[i];
		struct sst_artifact_ref *n = &d->last_applied_snapshot[i];

		sst_str_assign(&n->stage, r->stage);
		sst_str_assign(&n->url, r->url);
		sst_str_assign(&n->digest, r->digest);
		sst_str_assign(&n->revision, r->revision);
		sst_str_assign(&n->substitution_digest, r->substitution_digest);
	}
	if (!s->pending_update) {
		if (d->pending_update) {
			sst_strmap_release(&d->pending_update->revisions);
			free(d->pending_update);
			d->pending_update = NULL;
		}
	} else {
		if (!d->pending_update)
			d->pending_update = xcalloc(1, sizeof(*d->pending_update));
		strmap_assign(&d->pending_update->revisions, &s->pending_update->revisions);
		d->pending_update->next_window_opens_ms = s->pending_update->next_window_opens_ms;
	}
	sst_str_assign(&d->last_handled_update_override, s->last_handled_update_override);
	sst_str_assign(&d->last_handled_reset_scope, s->last_handled_reset_scope);
	budget_freeze_assign(&d->budget_freeze, s->budget_freeze);
	sst_str_assign(&d->last_handled_budget_override, s->last_handled_budget_override);
}

/* ---- status parse --------------------------------------------------------- */

static char *rd_str(const struct val *m, const char *key)
{
	return dup_or_empty(val_str(val_map_get(m, key), ""));
}

static int64_t rd_int(const struct val *m, const char *key)
{
	const struct val *v = val_map_get(m, key);
	if (v && v->type == VAL_FLOAT)
		return (int64_t)v->u.f;
	return val_int(v, 0);
}

static int64_t rd_time(const struct val *m, const char *key)
{
	int64_t t;
	const char *s = val_str(val_map_get(m, key), NULL);
	if (!s || parse_time(s, &t) != 0)
		return SST_NO_TIME;
	return t;
}

static const struct val *rd_list(const struct val *m, const char *key)
{
	const struct val *v = val_map_get(m, key);
	return v && v->type == VAL_LIST ? v : NULL;
}

static const struct val *rd_map(const struct val *m, const char *key)
{
	const struct val *v = val_map_get(m, key);
	return v && v->type == VAL_MAP ? v : NULL;
}

static void rd_strmap(const struct val *m, const char *key, struct sst_strmap *out)
{
	const struct val *v = rd_map(m, key);
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; v && i < v->u.map.n; i++)
		if (v->u.map.items[i].v->type == VAL_STRING)
			sst_strmap_set(out, v->u.map.items[i].key, v->u.map.items[i].v->u.s);
}

static void rd_string_list(const struct val *m, const char *key, struct sst_string_list *out)
{
	const struct val *l = rd_list(m, key);
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; l && i < l->u.list.n; i++)
		if (l->u.list.items[i]->type == VAL_STRING)
			sst_string_list_push(out, l->u.list.items[i]->u.s);
}

/* The maps of list @key of @m, as a count and a borrowed array (non-maps skipped by the caller). */
static size_t rd_maps(const struct val *m, const char *key, struct val *const **items)
{
	const struct val *l = rd_list(m, key);
	*items = l ? (struct val *const *)l->u.list.items : NULL;
	return l ? l->u.list.n : 0;
}

static struct sst_budget_freeze *rd_budget(const struct val *m)
{
	if (!m)
		return NULL;
	struct sst_budget_freeze *b = xcalloc(1, sizeof(*b));
	b->remaining = rd_str(m, "remaining");
	b->freeze_threshold = rd_str(m, "freezeThreshold");
	b->resume_threshold = rd_str(m, "resumeThreshold");
	b->since_ms = rd_time(m, "since");
	b->dry_run = val_bool(val_map_get(m, "dryRun"), false);
	return b;
}

static struct sst_promotion_state *rd_promotion(const struct val *m)
{
	struct val *const *items;
	size_t n;
	if (!m)
		return NULL;
	struct sst_promotion_state *p = xcalloc(1, sizeof(*p));
	p->phase = rd_str(m, "phase");
	p->since_ms = rd_time(m, "since");
	p->soak_until_ms = rd_time(m, "soakUntil");
	p->analysis_failures = (int32_t)rd_int(m, "analysisFailures");
	p->restart_check = rd_str(m, "restartCheck");
	p->observed_restarts = (int32_t)rd_int(m, "observedRestarts");
	n = rd_maps(m, "restartBaseline", &items);
	if (n)
		p->restart_baseline = xcalloc(n, sizeof(*p->restart_baseline));
	for (size_t i = 0; i < n; i++) {
		if (items[i]->type != VAL_MAP)
			continue;
		struct sst_restart_baseline *b = &p->restart_baseline[p->nrestart_baseline++];
		b->name = rd_str(items[i], "name");
		b->restarts = (int32_t)rd_int(items[i], "restarts");
	}
	p->event_check = rd_str(m, "eventCheck");
	p->observed_events = (int32_t)rd_int(m, "observedEvents");
	p->aborted_revision = rd_str(m, "abortedRevision");
	const struct val *la = rd_map(m, "lastAnalysis");
	if (la) {
		struct sst_analysis_result *a = xcalloc(1, sizeof(*a));
		a->time_ms = rd_time(la, "time");
		a->passed = val_bool(val_map_get(la, "passed"), false);
		n = rd_maps(la, "checks", &items);
		if (n)
			a->checks = xcalloc(n, sizeof(*a->checks));
		for (size_t i = 0; i < n; i++) {
			if (items[i]->type != VAL_MAP)
				continue;
			struct sst_analysis_check_result *c = &a->checks[a->nchecks++];
			c->name = rd_str(items[i], "name");
			c->value = rd_str(items[i], "value");
			c->ok = val_bool(val_map_get(items[i], "ok"), false);
			c->error = rd_str(items[i], "error");
		}
		p->last_analysis = a;
	}
	return p;
}

static void rd_stage(const struct val *m, struct sst_stage_status *s)
{
	memset(s, 0, sizeof(*s));
	s->name = rd_str(m, "name");
	s->phase = rd_str(m, "phase");
	s->applied_revision = rd_str(m, "appliedRevision");
	s->entries_count = rd_int(m, "entriesCount");
	s->shards = (int32_t)rd_int(m, "shards");
	s->message = rd_str(m, "message");
	rd_string_list(m, "executedActions", &s->executed_actions);
	s->ledger_revision = rd_str(m, "ledgerRevision");
	rd_string_list(m, "executedVersionActions", &s->executed_version_actions);
	s->ledger_version = rd_str(m, "ledgerVersion");
	s->last_handled_reconcile_at = rd_str(m, "lastHandledReconcileAt");
	s->promotion_state = rd_promotion(rd_map(m, "promotionState"));
	s->last_handled_promotion = rd_str(m, "lastHandledPromotion");
	s->budget_freeze = rd_budget(rd_map(m, "budgetFreeze"));
}

void sst_condition_parse(const struct val *m, struct sst_condition *c)
{
	c->type = rd_str(m, "type");
	c->status = rd_str(m, "status");
	c->observed_generation = rd_int(m, "observedGeneration");
	c->last_transition_ms = rd_time(m, "lastTransitionTime");
	c->reason = rd_str(m, "reason");
	c->message = rd_str(m, "message");
}

void sst_status_parse(const struct val *status, struct sst_status *out)
{
	struct val *const *items;
	size_t n;
	const struct val *m = status && status->type == VAL_MAP ? status : NULL;

	memset(out, 0, sizeof(*out));
	out->last_handled_reconcile_at = rd_str(m, "lastHandledReconcileAt");
	n = rd_maps(m, "conditions", &items);
	if (n)
		out->conditions = xcalloc(n, sizeof(*out->conditions));
	for (size_t i = 0; i < n; i++)
		if (items[i]->type == VAL_MAP)
			sst_condition_parse(items[i], &out->conditions[out->nconditions++]);
	out->observed_generation = rd_int(m, "observedGeneration");
	rd_strmap(m, "lastAttemptedRevisions", &out->last_attempted_revisions);
	rd_strmap(m, "lastAppliedRevisions", &out->last_applied_revisions);
	n = rd_maps(m, "stages", &items);
	if (n)
		out->stages = xcalloc(n, sizeof(*out->stages));
	for (size_t i = 0; i < n; i++)
		if (items[i]->type == VAL_MAP)
			rd_stage(items[i], &out->stages[out->nstages++]);
	out->version = rd_str(m, "version");
	out->pending_version = rd_str(m, "pendingVersion");
	n = rd_maps(m, "pendingMigrations", &items);
	if (n)
		out->pending_migrations = xcalloc(n, sizeof(*out->pending_migrations));
	for (size_t i = 0; i < n; i++) {
		if (items[i]->type != VAL_MAP)
			continue;
		struct sst_pending_migration *pm = &out->pending_migrations[out->npending_migrations++];
		pm->name = rd_str(items[i], "name");
		pm->to = rd_str(items[i], "to");
		pm->from = rd_str(items[i], "from");
		pm->stage = rd_str(items[i], "stage");
		rd_string_list(items[i], "actions", &pm->actions);
		pm->digest = rd_str(items[i], "digest");
	}
	rd_string_list(m, "executedMigrations", &out->executed_migrations);
	rd_string_list(m, "executedMigrationActions", &out->executed_migration_actions);
	out->migration_failure_count = (int32_t)rd_int(m, "migrationFailureCount");
	out->action_failure_count = (int32_t)rd_int(m, "actionFailureCount");
	n = rd_maps(m, "lastAppliedSnapshot", &items);
	if (n)
		out->last_applied_snapshot = xcalloc(n, sizeof(*out->last_applied_snapshot));
	for (size_t i = 0; i < n; i++) {
		if (items[i]->type != VAL_MAP)
			continue;
		struct sst_artifact_ref *r = &out->last_applied_snapshot[out->nlast_applied_snapshot++];
		r->stage = rd_str(items[i], "stage");
		r->url = rd_str(items[i], "url");
		r->digest = rd_str(items[i], "digest");
		r->revision = rd_str(items[i], "revision");
		r->substitution_digest = rd_str(items[i], "substitutionDigest");
	}
	const struct val *pu = rd_map(m, "pendingUpdate");
	if (pu) {
		out->pending_update = xcalloc(1, sizeof(*out->pending_update));
		rd_strmap(pu, "revisions", &out->pending_update->revisions);
		out->pending_update->next_window_opens_ms = rd_time(pu, "nextWindowOpens");
	}
	out->last_handled_update_override = rd_str(m, "lastHandledUpdateOverride");
	out->last_handled_reset_scope = rd_str(m, "lastHandledResetScope");
	out->budget_freeze = rd_budget(rd_map(m, "budgetFreeze"));
	out->last_handled_budget_override = rd_str(m, "lastHandledBudgetOverride");
}

/* ---- status render (encoding/json) ---------------------------------------- */

/*
 * The renderings below build each map afresh, every key once and in
 * declaration order: fields are appended without looking for the key
 * (val_map_append()), which val_map_set() would not find anyway.
 */
static void put_str(struct val *m, const char *key, const char *s, bool omitempty)
{
	if (omitempty && (!s || !*s))
		return;
	val_map_append(m, key, val_new_string(s ? s : ""));
}

static void put_int(struct val *m, const char *key, int64_t v, bool omitempty)
{
	if (omitempty && v == 0)
		return;
	val_map_append(m, key, val_new_int(v));
}

static void put_bool(struct val *m, const char *key, bool b)
{
	if (b)
		val_map_append(m, key, val_new_bool(true));
}

/* A *metav1.Time with omitempty (nil omitted). */
static void put_time_ptr(struct val *m, const char *key, int64_t ms)
{
	char buf[32];
	if (ms == SST_NO_TIME)
		return;
	val_map_append(m, key, val_new_string(sst_format_time(ms, buf, sizeof(buf))));
}

/* A plain metav1.Time: the zero time marshals as null. */
static void put_time(struct val *m, const char *key, int64_t ms)
{
	char buf[32];
	if (ms == SST_NO_TIME)
		val_map_append(m, key, val_new_null());
	else
		val_map_append(m, key, val_new_string(sst_format_time(ms, buf, sizeof(buf))));
}

static void put_strmap(struct val *m, const char *key, const struct sst_strmap *sm)
{
	if (sm->n == 0)
		return;
	struct val *o = val_new_map();
	for (size_t i = 0; i < sm->n; i++)
		val_map_append(o, sm->keys[i], val_new_string(sm->values[i]));
	val_map_append(m, key, o);
}

static void put_string_list(struct val *m, const char *key, const struct sst_string_list *l)
{
	if (l->n == 0)
		return;
	struct val *o = val_new_list();
	for (size_t i = 0; i < l->n; i++)
		val_list_push(o, val_new_string(l->items[i]));
	val_map_append(m, key, o);
}

struct val *sst_condition_to_val(const struct sst_condition *c)
{
	struct val *o = val_new_map();
	put_str(o, "type", c->type, false);
	put_str(o, "status", c->status, false);
	put_int(o, "observedGeneration", c->observed_generation, true);
	put_time(o, "lastTransitionTime", c->last_transition_ms);
	put_str(o, "reason", c->reason, false);
	put_str(o, "message", c->message, false);
	return o;
}

static struct val *budget_to_val(const struct sst_budget_freeze *b)
{
	struct val *o = val_new_map();
	put_str(o, "remaining", b->remaining, true);
	put_str(o, "freezeThreshold", b->freeze_threshold, true);
	put_str(o, "resumeThreshold", b->resume_threshold, true);
	put_time_ptr(o, "since", b->since_ms);
	put_bool(o, "dryRun", b->dry_run);
	return o;
}

static struct val *promotion_to_val(const struct sst_promotion_state *p)
{
	struct val *o = val_new_map();
	put_str(o, "phase", p->phase, true);
	put_time_ptr(o, "since", p->since_ms);
	put_time_ptr(o, "soakUntil", p->soak_until_ms);
	put_int(o, "analysisFailures", p->analysis_failures, true);
	put_str(o, "restartCheck", p->restart_check, true);
	put_int(o, "observedRestarts", p->observed_restarts, true);
	if (p->nrestart_baseline) {
		struct val *l = val_new_list();
		for (size_t i = 0; i < p->nrestart_baseline; i++) {
			struct val *b = val_new_map();
			put_str(b, "name", p->restart_baseline[i].name, false);
			put_int(b, "restarts", p->restart_baseline[i].restarts, true);
			val_list_push(l, b);
		}
		val_map_append(o, "restartBaseline", l);
	}
	put_str(o, "eventCheck", p->event_check, true);
	put_int(o, "observedEvents", p->observed_events, true);
	put_str(o, "abortedRevision", p->aborted_revision, true);
	if (p->last_analysis) {
		const struct sst_analysis_result *a = p->last_analysis;
		struct val *ao = val_new_map();
		put_time_ptr(ao, "time", a->time_ms);
		put_bool(ao, "passed", a->passed);
		if (a->nchecks) {
			struct val *l = val_new_list();
			for (size_t i = 0; i < a->nchecks; i++) {
				struct val *c = val_new_map();
				put_str(c, "name", a->checks[i].name, false);
				put_str(c, "value", a->checks[i].value, true);
				put_bool(c, "ok", a->checks[i].ok);
				put_str(c, "error", a->checks[i].error, true);
				val_list_push(l, c);
			}
			val_map_append(ao, "checks", l);
		}
		val_map_append(o, "lastAnalysis", ao);
	}
	return o;
}

static struct val *stage_to_val(const struct sst_stage_status *s)
{
	struct val *o = val_new_map();
	put_str(o, "name", s->name, false);
	put_str(o, "phase", s->phase, true);
	put_str(o, "appliedRevision", s->applied_revision, true);
	put_int(o, "entriesCount", s->entries_count, true);
	put_int(o, "shards", s->shards, true);
	put_str(o, "message", s->message, true);
	put_string_list(o, "executedActions", &s->executed_actions);
	put_str(o, "ledgerRevision", s->ledger_revision, true);
	put_string_list(o, "executedVersionActions", &s->executed_version_actions);
	put_str(o, "ledgerVersion", s->ledger_version, true);
	put_str(o, "lastHandledReconcileAt", s->last_handled_reconcile_at, true);
	if (s->promotion_state)
		val_map_append(o, "promotionState", promotion_to_val(s->promotion_state));
	put_str(o, "lastHandledPromotion", s->last_handled_promotion, true);
	if (s->budget_freeze)
		val_map_append(o, "budgetFreeze", budget_to_val(s->budget_freeze));
	return o;
}

/*
 * The renderings of the status fields that are lists or objects (NULL when
 * the field is absent), shared by sst_status_to_val() and the patch.
 */
static struct val *conditions_to_val(const struct sst_status *s)
{
	struct val *l;

	if (!s->nconditions)
		return NULL;
	l = val_new_list();
	for (size_t i = 0; i < s->nconditions; i++)
		val_list_push(l, sst_condition_to_val(&s->conditions[i]));
	return l;
}

static struct val *stages_to_val(const struct sst_status *s)
{
	struct val *l;

	if (!s->nstages)
		return NULL;
	l = val_new_list();
	for (size_t i = 0; i < s->nstages; i++)
		val_list_push(l, stage_to_val(&s->stages[i]));
	return l;
}

static struct val *pending_migrations_to_val(const struct sst_status *s)
{
	struct val *l;

	if (!s->npending_migrations)
		return NULL;
	l = val_new_list();
	for (size_t i = 0; i < s->npending_migrations; i++) {
		const struct sst_pending_migration *m = &s->pending_migrations[i];
		struct val *pm = val_new_map();
		put_str(pm, "name", m->name, false);
		put_str(pm, "to", m->to, false);
		put_str(pm, "from", m->from, true);
		put_str(pm, "stage", m->stage, true);
		put_string_list(pm, "actions", &m->actions);
		put_str(pm, "digest", m->digest, true);
		val_list_push(l, pm);
	}
	return l;
}

static struct val *snapshot_to_val(const struct sst_status *s)
{
	struct val *l;

	if (!s->nlast_applied_snapshot)
		return NULL;
	l = val_new_list();
	for (size_t i = 0; i < s->nlast_applied_snapshot; i++) {
		const struct sst_artifact_ref *r = &s->last_applied_snapshot[i];
		struct val *ro = val_new_map();
		put_str(ro, "stage", r->stage, false);
		put_str(ro, "url", r->url, false);
		put_str(ro, "digest", r->digest, false);
		put_str(ro, "revision", r->revision, true);
		put_str(ro, "substitutionDigest", r->substitution_digest, true);
		val_list_push(l, ro);
	}
	return l;
}

static struct val *pending_update_to_val(const struct sst_status *s)
{
	struct val *pu;

	if (!s->pending_update)
		return NULL;
	pu = val_new_map();
	put_strmap(pu, "revisions", &s->pending_update->revisions);
	put_time_ptr(pu, "nextWindowOpens", s->pending_update->next_window_opens_ms);
	return pu;
}

/* val_map_append(@m, @key, @v) unless @v is NULL (an absent field). */
static void put_val(struct val *m, const char *key, struct val *v)
{
	if (v)
		val_map_append(m, key, v);
}

struct val *sst_status_to_val(const struct sst_status *s)
{
	struct val *o = val_new_map();
	put_str(o, "lastHandledReconcileAt", s->last_handled_reconcile_at, true);
	put_val(o, "conditions", conditions_to_val(s));
	put_int(o, "observedGeneration", s->observed_generation, true);
	put_strmap(o, "lastAttemptedRevisions", &s->last_attempted_revisions);
	put_strmap(o, "lastAppliedRevisions", &s->last_applied_revisions);
	put_val(o, "stages", stages_to_val(s));
	put_str(o, "version", s->version, true);
	put_str(o, "pendingVersion", s->pending_version, true);
	put_val(o, "pendingMigrations", pending_migrations_to_val(s));
	put_string_list(o, "executedMigrations", &s->executed_migrations);
	put_string_list(o, "executedMigrationActions", &s->executed_migration_actions);
	put_int(o, "migrationFailureCount", s->migration_failure_count, true);
	put_int(o, "actionFailureCount", s->action_failure_count, true);
	put_val(o, "lastAppliedSnapshot", snapshot_to_val(s));
	put_val(o, "pendingUpdate", pending_update_to_val(s));
	put_str(o, "lastHandledUpdateOverride", s->last_handled_update_override, true);
	put_str(o, "lastHandledResetScope", s->last_handled_reset_scope, true);
	if (s->budget_freeze)
		val_map_append(o, "budgetFreeze", budget_to_val(s->budget_freeze));
	put_str(o, "lastHandledBudgetOverride", s->last_handled_budget_override, true);
	return o;
}

/*
 * Field-by-field equality with the rendering's rules, so a comparison
 * renders nothing: a string is "" when NULL, an omitempty zero is absent
 * (which equals ""/0), a metav1.Time is its whole second (SST_NO_TIME only
 * equals itself), a nil pointer differs from a pointer to a zero struct
 * (`{}` is not absent), lists compare in order.
 */
static bool eq_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static int64_t whole_second(int64_t ms)
{
	return ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
}

static bool eq_time(int64_t a, int64_t b)
{
	if (a == SST_NO_TIME || b == SST_NO_TIME)
		return a == b;
	return whole_second(a) == whole_second(b);
}

static bool eq_strmap(const struct sst_strmap *a, const struct sst_strmap *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!eq_str(a->keys[i], b->keys[i]) || !eq_str(a->values[i], b->values[i]))
			return false;
	return true;
}

static bool eq_list(const struct sst_string_list *a, const struct sst_string_list *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!eq_str(a->items[i], b->items[i]))
			return false;
	return true;
}

static bool eq_condition(const struct sst_condition *a, const struct sst_condition *b)
{
	return eq_str(a->type, b->type) && eq_str(a->status, b->status) &&
	       a->observed_generation == b->observed_generation &&
	       eq_time(a->last_transition_ms, b->last_transition_ms) && eq_str(a->reason, b->reason) &&
	       eq_str(a->message, b->message);
}

static bool eq_budget(const struct sst_budget_freeze *a, const struct sst_budget_freeze *b)
{
	if (!a || !b)
		return a == b;
	return eq_str(a->remaining, b->remaining) && eq_str(a->freeze_threshold, b->freeze_threshold) &&
	       eq_str(a->resume_threshold, b->resume_threshold) && eq_time(a->since_ms, b->since_ms) &&
	       a->dry_run == b->dry_run;
}

static bool eq_analysis(const struct sst_analysis_result *a, const struct sst_analysis_result *b)
{
	if (!a || !b)
		return a == b;
	if (!eq_time(a->time_ms, b->time_ms) || a->passed != b->passed || a->nchecks != b->nchecks)
		return false;
	for (size_t i = 0; i < a->nchecks; i++)
		if (!eq_str(a->checks[i].name, b->checks[i].name) ||
		    !eq_str(a->checks[i].value, b->checks[i].value) || a->checks[i].ok != b->checks[i].ok ||
		    !eq_str(a->checks[i].error, b->checks[i].error))
			return false;
	return true;
}

static bool eq_promotion(const struct sst_promotion_state *a, const struct sst_promotion_state *b)
{
	if (!a || !b)
		return a == b;
	if (!eq_str(a->phase, b->phase) || !eq_time(a->since_ms, b->since_ms) ||
	    !eq_time(a->soak_until_ms, b->soak_until_ms) || a->analysis_failures != b->analysis_failures ||
	    !eq_str(a->restart_check, b->restart_check) || a->observed_restarts != b->observed_restarts ||
	    a->nrestart_baseline != b->nrestart_baseline || !eq_str(a->event_check, b->event_check) ||
	    a->observed_events != b->observed_events || !eq_str(a->aborted_revision, b->aborted_revision))
		return false;
	for (size_t i = 0; i < a->nrestart_baseline; i++)
		if (!eq_str(a->restart_baseline[i].name, b->restart_baseline[i].name) ||
		    a->restart_baseline[i].restarts != b->restart_baseline[i].restarts)
			return false;
	return eq_analysis(a->last_analysis, b->last_analysis);
}

static bool eq_stage(const struct sst_stage_status *a, const struct sst_stage_status *b)
{
	return eq_str(a->name, b->name) && eq_str(a->phase, b->phase) &&
	       eq_str(a->applied_revision, b->applied_revision) && a->entries_count == b->entries_count &&
	       a->shards == b->shards && eq_str(a->message, b->message) &&
	       eq_list(&a->executed_actions, &b->executed_actions) &&
	       eq_str(a->ledger_revision, b->ledger_revision) &&
	       eq_list(&a->executed_version_actions, &b->executed_version_actions) &&
	       eq_str(a->ledger_version, b->ledger_version) &&
	       eq_str(a->last_handled_reconcile_at, b->last_handled_reconcile_at) &&
	       eq_promotion(a->promotion_state, b->promotion_state) &&
	       eq_str(a->last_handled_promotion, b->last_handled_promotion) &&
	       eq_budget(a->budget_freeze, b->budget_freeze);
}

bool sst_status_equal(const struct sst_status *a, const struct sst_status *b)
{
	if (!eq_str(a->last_handled_reconcile_at, b->last_handled_reconcile_at) ||
	    a->nconditions != b->nconditions || a->observed_generation != b->observed_generation ||
	    !eq_strmap(&a->last_attempted_revisions, &b->last_attempted_revisions) ||
	    !eq_strmap(&a->last_applied_revisions, &b->last_applied_revisions) || a->nstages != b->nstages ||
	    !eq_str(a->version, b->version) || !eq_str(a->pending_version, b->pending_version) ||
	    a->npending_migrations != b->npending_migrations ||
	    !eq_list(&a->executed_migrations, &b->executed_migrations) ||
	    !eq_list(&a->executed_migration_actions, &b->executed_migration_actions) ||
	    a->migration_failure_count != b->migration_failure_count ||
	    a->action_failure_count != b->action_failure_count ||
	    a->nlast_applied_snapshot != b->nlast_applied_snapshot ||
	    !eq_str(a->last_handled_update_override, b->last_handled_update_override) ||
	    !eq_str(a->last_handled_reset_scope, b->last_handled_reset_scope) ||
	    !eq_budget(a->budget_freeze, b->budget_freeze) ||
	    !eq_str(a->last_handled_budget_override, b->last_handled_budget_override))
		return false;
	for (size_t i = 0; i < a->nconditions; i++)
		if (!eq_condition(&a->conditions[i], &b->conditions[i]))
			return false;
	for (size_t i = 0; i < a->nstages; i++)
		if (!eq_stage(&a->stages[i], &b->stages[i]))
			return false;
	for (size_t i = 0; i < a->npending_migrations; i++) {
		const struct sst_pending_migration *x = &a->pending_migrations[i], *y = &b->pending_migrations[i];

		if (!eq_str(x->name, y->name) || !eq_str(x->to, y->to) || !eq_str(x->from, y->from) ||
		    !eq_str(x->stage, y->stage) || !eq_list(&x->actions, &y->actions) ||
		    !eq_str(x->digest, y->digest))
			return false;
	}
	for (size_t i = 0; i < a->nlast_applied_snapshot; i++) {
		const struct sst_artifact_ref *x = &a->last_applied_snapshot[i], *y = &b->last_applied_snapshot[i];

		if (!eq_str(x->stage, y->stage) || !eq_str(x->url, y->url) || !eq_str(x->digest, y->digest) ||
		    !eq_str(x->revision, y->revision) || !eq_str(x->substitution_digest, y->substitution_digest))
			return false;
	}
	if (!a->pending_update || !b->pending_update)
		return a->pending_update == b->pending_update;
	return eq_strmap(&a->pending_update->revisions, &b->pending_update->revisions) &&
	       eq_time(a->pending_update->next_window_opens_ms, b->pending_update->next_window_opens_ms);
}

/* ---- status patch ---------------------------------------------------------- */

/* An RFC 7386 merge patch turning map @from into map @to (either may be NULL); new, NULL when equal. */
static struct val *json_merge_diff(const struct val *from, const struct val *to)
{
	struct val *p;

	if (!to || to->type != VAL_MAP || !from || from->type != VAL_MAP)
		return val_equal(from, to) ? NULL : (to ? val_copy(to) : val_new_null());
	p = val_new_map();
	for (size_t i = 0; i < from->u.map.n; i++)
		if (!val_map_get(to, from->u.map.items[i].key))
			val_map_set(p, from->u.map.items[i].key, val_new_null());
	for (size_t i = 0; i < to->u.map.n; i++) {
		const struct val_kv *kv = &to->u.map.items[i];
		const struct val *old = val_map_get(from, kv->key);

		if (!old) {
			val_map_set(p, kv->key, val_copy(kv->v));
		} else if (old->type == VAL_MAP && kv->v->type == VAL_MAP) {
			struct val *sub = json_merge_diff(old, kv->v);

			if (sub)
				val_map_set(p, kv->key, sub);
		} else if (!val_equal(old, kv->v)) {
			val_map_set(p, kv->key, val_copy(kv->v));
		}
	}
	if (p->u.map.n == 0) {
		val_free(p);
		return NULL;
	}
	return p;
}

/* @key of the patch: the rendering @to has (a new tree, NULL when the field is absent) or null. */
static void patch_put(struct val *p, const char *key, struct val *to)
{
	val_map_set(p, key, to ? to : val_new_null());
}

static struct val *str_or_absent(const char *s)
{
	return s && *s ? val_new_string(s) : NULL;
}

static struct val *int_or_absent(int64_t v)
{
	return v ? val_new_int(v) : NULL;
}

static struct val *list_or_absent(const struct sst_string_list *l)
{
	struct val *o;

	if (l->n == 0)
		return NULL;
	o = val_new_list();
	for (size_t i = 0; i < l->n; i++)
		val_list_push(o, val_new_string(l->items[i]));
	return o;
}

/* The rendering of strmap @sm as a field: a new map, NULL when empty (absent). */
static struct val *strmap_to_val(const struct sst_strmap *sm)
{
	struct val *o;

	if (sm->n == 0)
		return NULL;
	o = val_new_map();
	for (size_t i = 0; i < sm->n; i++)
		val_map_set(o, sm->keys[i], val_new_string(sm->values[i]));
	return o;
}

/*
 * A strmap field of both statuses: the RFC 7386 difference of the two
 * renderings (the keys @a has and @b lacks as null, in @a's order, then
 * the keys of @b that are new or changed, in @b's order; nothing when
 * equal), else @b's rendering or null.  Built from the maps, not from
 * their renderings.
 */
static void patch_strmap(struct val *p, const char *key, const struct sst_strmap *a,
			 const struct sst_strmap *b)
{
	struct val *d;

	if (a->n == 0 || b->n == 0) {
		patch_put(p, key, strmap_to_val(b));
		return;
	}
	d = val_new_map();
	for (size_t i = 0; i < a->n; i++)
		if (!sst_strmap_get(b, a->keys[i]))
			val_map_set(d, a->keys[i], val_new_null());
	for (size_t i = 0; i < b->n; i++) {
		const char *old = sst_strmap_get(a, b->keys[i]);

		if (!old || strcmp(old, b->values[i]) != 0)
			val_map_set(d, b->keys[i], val_new_string(b->values[i]));
	}
	if (d->u.map.n == 0) {
		val_free(d);
		return;
	}
	val_map_set(p, key, d);
}

/* An object field both renderings may hold (@fa, @fb: new or NULL; taken): the key-wise difference, else @fb or null. */
static void patch_object(struct val *p, const char *key, struct val *fa, struct val *fb)
{
	if (fa && fb) {
		struct val *d = json_merge_diff(fa, fb);

		if (d)
			val_map_set(p, key, d);
		val_free(fb);
	} else {
		patch_put(p, key, fb);
	}
	val_free(fa);
}

struct val *sst_status_patch(const struct sst_status *a, const struct sst_status *b)
{
	struct val *p = val_new_map();
	bool conds = a->nconditions != b->nconditions, stages = a->nstages != b->nstages;
	bool pm = a->npending_migrations != b->npending_migrations;
	bool snap = a->nlast_applied_snapshot != b->nlast_applied_snapshot;

	if (!eq_str(a->last_handled_reconcile_at, b->last_handled_reconcile_at))
		patch_put(p, "lastHandledReconcileAt", str_or_absent(b->last_handled_reconcile_at));
	for (size_t i = 0; !conds && i < a->nconditions; i++)
		conds = !eq_condition(&a->conditions[i], &b->conditions[i]);
	if (conds)
		patch_put(p, "conditions", conditions_to_val(b));
	if (a->observed_generation != b->observed_generation)
		patch_put(p, "observedGeneration", int_or_absent(b->observed_generation));
	if (!eq_strmap(&a->last_attempted_revisions, &b->last_attempted_revisions))
		patch_strmap(p, "lastAttemptedRevisions", &a->last_attempted_revisions, &b->last_attempted_revisions);
	if (!eq_strmap(&a->last_applied_revisions, &b->last_applied_revisions))
		patch_strmap(p, "lastAppliedRevisions", &a->last_applied_revisions, &b->last_applied_revisions);
	for (size_t i = 0; !stages && i < a->nstages; i++)
		stages = !eq_stage(&a->stages[i], &b->stages[i]);
	if (stages)
		patch_put(p, "stages", stages_to_val(b));
	if (!eq_str(a->version, b->version))
		patch_put(p, "version", str_or_absent(b->version));
	if (!eq_str(a->pending_version, b->pending_version))
		patch_put(p, "pendingVersion", str_or_absent(b->pending_version));
	for (size_t i = 0; !pm && i < a->npending_migrations; i++) {
		const struct sst_pending_migration *x = &a->pending_migrations[i], *y = &b->pending_migrations[i];

		pm = !eq_str(x->name, y->name) || !eq_str(x->to, y->to) || !eq_str(x->from, y->from) ||
		     !eq_str(x->stage, y->stage) || !eq_list(&x->actions, &y->actions) ||
		     !eq_str(x->digest, y->digest);
	}
	if (pm)
		patch_put(p, "pendingMigrations", pending_migrations_to_val(b));
	if (!eq_list(&a->executed_migrations, &b->executed_migrations))
		patch_put(p, "executedMigrations", list_or_absent(&b->executed_migrations));
	if (!eq_list(&a->executed_migration_actions, &b->executed_migration_actions))
		patch_put(p, "executedMigrationActions", list_or_absent(&b->executed_migration_actions));
	if (a->migration_failure_count != b->migration_failure_count)
		patch_put(p, "migrationFailureCount", int_or_absent(b->migration_failure_count));
	if (a->action_failure_count != b->action_failure_count)
		patch_put(p, "actionFailureCount", int_or_absent(b->action_failure_count));
	for (size_t i = 0; !snap && i < a->nlast_applied_snapshot; i++) {
		const struct sst_artifact_ref *x = &a->last_applied_snapshot[i], *y = &b->last_applied_snapshot[i];

		snap = !eq_str(x->stage, y->stage) || !eq_str(x->url, y->url) || !eq_str(x->digest, y->digest) ||
		       !eq_str(x->revision, y->revision) || !eq_str(x->substitution_digest, y->substitution_digest);
	}
	if (snap)
		patch_put(p, "lastAppliedSnapshot", snapshot_to_val(b));
	if ((!a->pending_update || !b->pending_update)
		    ? a->pending_update != b->pending_update
		    : !eq_strmap(&a->pending_update->revisions, &b->pending_update->revisions) ||
			      !eq_time(a->pending_update->next_window_opens_ms, b->pending_update->next_window_opens_ms))
		patch_object(p, "pendingUpdate", pending_update_to_val(a), pending_update_to_val(b));
	if (!eq_str(a->last_handled_update_override, b->last_handled_update_override))
		patch_put(p, "lastHandledUpdateOverride", str_or_absent(b->last_handled_update_override));
	if (!eq_str(a->last_handled_reset_scope, b->last_handled_reset_scope))
		patch_put(p, "lastHandledResetScope", str_or_absent(b->last_handled_reset_scope));
	if (!eq_budget(a->budget_freeze, b->budget_freeze))
		patch_object(p, "budgetFreeze", a->budget_freeze ? budget_to_val(a->budget_freeze) : NULL,
			     b->budget_freeze ? budget_to_val(b->budget_freeze) : NULL);
	if (!eq_str(a->last_handled_budget_override, b->last_handled_budget_override))
		patch_put(p, "lastHandledBudgetOverride", str_or_absent(b->last_handled_budget_override));
	if (p->u.map.n == 0) {
		val_free(p);
		return NULL;
	}
	return p;
}

int sst_parse_duration(const char *text, int64_t *ms)
{
	return parse_duration(text, ms);
}

int sst_parse_time(const char *text, int64_t *ms)
{
	return parse_time(text, ms);
}
