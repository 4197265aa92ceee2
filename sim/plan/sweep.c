/*
 * Sweeps: the parameter table, value lists and ranges, and the variant that
 * sets one value (a merge patch over spec.models).
 */
#include "sim/plan/sweep.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/suggest.h"

/*
 * One sweepable parameter: the key of spec.models it sets (a dotted path)
 * and, for a lognormal figure, the path of the duration that must be
 * lognormal in the base.
 */
struct sweep_param {
	const char *name;
	const char *path;      /* under spec.models */
	enum sweep_kind kind;
	const char *lognormal; /* under spec.models, or NULL */
};

static const struct sweep_param params[] = {
	{ "capacity", "jobs.capacity", SWEEP_COUNT, NULL },
	{ "models.podStartup", "jobs.podStartup", SWEEP_DURATION, NULL },
	{ "models.plan.duration", "jobs.plan.duration", SWEEP_DURATION, NULL },
	{ "models.plan.median", "jobs.plan.duration.lognormal.median", SWEEP_DURATION,
	  "jobs.plan.duration" },
	{ "models.plan.p95", "jobs.plan.duration.lognormal.p95", SWEEP_DURATION, "jobs.plan.duration" },
	{ "models.plan.failureProbability", "jobs.plan.failureProbability", SWEEP_RATIO, NULL },
	{ "models.apply.duration", "jobs.apply.duration", SWEEP_DURATION, NULL },
	{ "models.apply.median", "jobs.apply.duration.lognormal.median", SWEEP_DURATION,
	  "jobs.apply.duration" },
	{ "models.apply.p95", "jobs.apply.duration.lognormal.p95", SWEEP_DURATION,
	  "jobs.apply.duration" },
	{ "models.apply.failureProbability", "jobs.apply.failureProbability", SWEEP_RATIO, NULL },
	{ "models.adoption.duration", "stagesets.adoption.duration", SWEEP_DURATION, NULL },
	{ "models.adoption.median", "stagesets.adoption.duration.lognormal.median", SWEEP_DURATION,
	  "stagesets.adoption.duration" },
	{ "models.adoption.p95", "stagesets.adoption.duration.lognormal.p95", SWEEP_DURATION,
	  "stagesets.adoption.duration" },
	{ "models.adoption.failureProbability", "stagesets.adoption.failureProbability",
	  SWEEP_RATIO, NULL },
	{ "models.regression.probability", "stagesets.regression.probability", SWEEP_RATIO, NULL },
	{ "models.regression.duration", "stagesets.regression.duration", SWEEP_DURATION, NULL },
};

#define NPARAMS (sizeof(params) / sizeof(params[0]))

const char *sweep_param_names(void)
{
	return "capacity, models.podStartup, models.plan.duration, models.plan.median, "
	       "models.plan.p95, models.plan.failureProbability, models.apply.duration, "
	       "models.apply.median, models.apply.p95, models.apply.failureProbability, "
	       "models.adoption.duration, models.adoption.median, models.adoption.p95, "
	       "models.adoption.failureProbability, models.regression.probability, "
	       "models.regression.duration";
}

static const struct sweep_param *find_param(const char *name)
{
	for (size_t i = 0; i < NPARAMS; i++)
		if (!strcmp(params[i].name, name))
			return &params[i];
	return NULL;
}

static void set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static const char *kind_word(enum sweep_kind k)
{
	switch (k) {
	case SWEEP_COUNT:
		return "a whole number of at least 1";
	case SWEEP_DURATION:
		return "a duration such as 90s or 5m";
	case SWEEP_RATIO:
		return "a probability from 0 to 1";
	}
	return "?";
}

/* One value of kind @k from @s (whole text); 0, or -1. */
static int parse_value(enum sweep_kind k, const char *s, double *out)
{
	char *end;
	int64_t ms;

	if (!s[0])
		return -1;
	switch (k) {
	case SWEEP_COUNT: {
		unsigned long long v;

		if (s[0] < '0' || s[0] > '9')
			return -1;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno || *end || v < 1 || v > UINT32_MAX)
			return -1;
		*out = (double)v;
		return 0;
	}
	case SWEEP_DURATION:
		if (gt_parse_duration(s, &ms, NULL, 0) != 0 || ms < 0)
			return -1;
		*out = (double)ms;
		return 0;
	case SWEEP_RATIO:
		if ((s[0] < '0' || s[0] > '9') && s[0] != '.')
			return -1;
		errno = 0;
		*out = strtod(s, &end);
		if (errno || *end || !(*out >= 0 && *out <= 1))
			return -1;
		return 0;
	}
	return -1;
}

/* Rounds @v to what kind @k keeps: whole counts, whole ms. */
static double round_kind(enum sweep_kind k, double v)
{
	return k == SWEEP_RATIO ? v : floor(v + 0.5);
}

/*
 * Appends @v unless already there.  @ascending: the values so far came in
 * ascending order and @v is not below them (a range), so only the last can
 * equal it; otherwise every value is compared (a list: at most
 * SWEEP_MAX_VALUES items, so at most 5 * 10^7 comparisons).  The array grows
 * by doubling.
 */
static void push_value(struct sweep *sw, double v, bool ascending)
{
	if (ascending) {
		if (sw->n && sw->values[sw->n - 1] == v)
			return;
	} else {
		for (size_t i = 0; i < sw->n; i++)
			if (sw->values[i] == v)
				return;
	}
	if (sw->n == 0 || (sw->n >= 8 && (sw->n & (sw->n - 1)) == 0))
		sw->values = xreallocarray(sw->values, sw->n ? 2 * sw->n : 8, sizeof(*sw->values));
	sw->values[sw->n++] = v;
}

/*
 * The values text of parameter @p ("1,2,4" or "2m..20m/5") into @sw.
 * 0, or -1 with @err.
 */
static int parse_values(const struct sweep_param *p, const char *text, struct sweep *sw, char *err,
			size_t len)
{
	const char *dots = strstr(text, "..");
	size_t items = 0; /* of a list */
	double v;

	if (!text[0]) {
		set_err(err, len, "sweep '%s': no values given", p->name);
		return -1;
	}
	if (dots) {
		const char *slash = strchr(dots, '/');
		char *from = xstrndup(text, (size_t)(dots - text));
		char *to = slash ? xstrndup(dots + 2, (size_t)(slash - dots - 2)) : xstrdup(dots + 2);
		double a, b;
		unsigned long long steps = 0;
		char *end = NULL;
		int rc = -1;

		if (!slash) {
			set_err(err, len, "sweep '%s': range \"%s\" has no step count: write FROM..TO/STEPS",
				p->name, text);
			goto out_free_bounds;
		}
		if (parse_value(p->kind, from, &a) != 0 || parse_value(p->kind, to, &b) != 0) {
			set_err(err, len, "sweep '%s': range \"%s\": FROM and TO must each be %s",
				p->name, text, kind_word(p->kind));
			goto out_free_bounds;
		}
		errno = 0;
		if (slash[1] >= '0' && slash[1] <= '9')
			steps = strtoull(slash + 1, &end, 10);
		if (!end || *end || errno || steps > SWEEP_MAX_VALUES) {
			set_err(err, len, "sweep '%s': range \"%s\": STEPS must be a whole number from 1 to %d",
				p->name, text, SWEEP_MAX_VALUES);
			goto out_free_bounds;
		}
		if (steps == 0 || b < a || (steps == 1 && a != b)) {
			set_err(err, len,
				"sweep '%s': empty range \"%s\": TO must not be below FROM, and STEPS "
				"must be at least 2 (1 only when FROM equals TO)",
				p->name, text);
			goto out_free_bounds;
		}
		for (unsigned long long k = 0; k < steps; k++)
			push_value(sw, round_kind(p->kind, steps == 1 ? a
							       : a + (b - a) * (double)k / (double)(steps - 1)),
				   true);
		rc = 0;
out_free_bounds:
		free(from);
		free(to);
		return rc;
	}
	for (const char *s = text;;) {
		size_t n = strcspn(s, ",");
		char *item;
		int bad;

		if (++items > SWEEP_MAX_VALUES) {
			set_err(err, len, "sweep '%s': more than %d values", p->name, SWEEP_MAX_VALUES);
			return -1;
		}
		item = xstrndup(s, n);
		bad = parse_value(p->kind, item, &v);

		if (bad) {
			if (!item[0])
				set_err(err, len, "sweep '%s': empty value in \"%s\"", p->name, text);
			else
				set_err(err, len, "sweep '%s': value \"%s\" is not %s", p->name, item,
					kind_word(p->kind));
			free(item);
			return -1;
		}
		free(item);
		push_value(sw, v, false);
		if (!s[n])
			break;
		s += n + 1;
	}
	return 0;
}

void sweep_release(struct sweep *sw)
{
	if (!sw)
		return;
	free(sw->param);
	free(sw->values);
	memset(sw, 0, sizeof(*sw));
}

/* The "unknown sweep parameter" error of @name, with the nearest parameter when one is close. */
static void unknown_param(const char *name, char *err, size_t len)
{
	struct sug sg;

	sug_init(&sg, name);
	for (size_t i = 0; i < NPARAMS; i++)
		sug_offer(&sg, params[i].name);
	if (sug_best(&sg))
		set_err(err, len, "unknown sweep parameter '%s': did you mean '%s'? accepted: %s", name,
			sug_best(&sg), sweep_param_names());
	else
		set_err(err, len, "unknown sweep parameter '%s'; accepted: %s", name,
			sweep_param_names());
}

/* Parameter @name with @values text into @out; 0 or -1 with @err. */
static int parse_named(const char *name, const char *values, struct sweep *out, char *err,
		       size_t len)
{
	const struct sweep_param *p = find_param(name);

	memset(out, 0, sizeof(*out));
	if (!p) {
		unknown_param(name, err, len);
		return -1;
	}
	out->param = xstrdup(p->name);
	out->kind = p->kind;
	if (parse_values(p, values, out, err, len) != 0) {
		sweep_release(out);
		return -1;
	}
	return 0;
}

int sweep_parse(const char *arg, struct sweep *out, char *err, size_t len)
{
	const char *eq = strchr(arg, '=');
	char *name;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!eq) {
		set_err(err, len, "sweep \"%s\": expected PARAM=v1,v2,... or PARAM=FROM..TO/STEPS",
			arg);
		return -1;
	}
	name = xstrndup(arg, (size_t)(eq - arg));
	rc = parse_named(name, eq + 1, out, err, len);
	free(name);
	return rc;
}

/* The text of a scalar list item as the user wrote it. */
static const char *scalar_text(const struct val *v)
{
	if (v->raw)
		return v->raw;
	return v->type == VAL_STRING ? v->u.s : NULL;
}

int sweep_from_scenario(const struct scenario *s, struct sweep *out, struct diag *d)
{
	const struct val *sw = s->sweep, *pv, *vv;
	const char *file = s->scenario_file;
	char err[1024];

	memset(out, 0, sizeof(*out));
	if (!sw)
		return 1;
	for (size_t i = 0; i < sw->u.map.n; i++) {
		const struct val_kv *kv = &sw->u.map.items[i];

		if (strcmp(kv->key, "parameter") != 0 && strcmp(kv->key, "values") != 0) {
			diag_error(d, file, kv->key_mark, "unknown field \"spec.sweep.%s\"", kv->key);
			diag_note(d, file, kv->key_mark, "accepted fields: parameter, values");
			return -1;
		}
	}
	pv = val_map_get(sw, "parameter");
	vv = val_map_get(sw, "values");
	if (!pv || pv->type != VAL_STRING || !vv) {
		diag_error(d, file, sw->mark, "spec.sweep: %s: Required value",
			   !pv ? "parameter" : pv->type != VAL_STRING ? "parameter (a string)" : "values");
		return -1;
	}
	if (vv->type == VAL_STRING) {
		if (parse_named(pv->u.s, vv->u.s, out, err, sizeof(err)) != 0)
			goto out_error;
		return 0;
	}
	if (vv->type != VAL_LIST || vv->u.list.n == 0) {
		diag_error(d, file, vv->mark,
			   "spec.sweep.values: expected a non-empty list or a range \"FROM..TO/STEPS\"");
		return -1;
	}
	if (vv->u.list.n > SWEEP_MAX_VALUES) {
		diag_error(d, file, vv->mark, "spec.sweep.values: more than %d values", SWEEP_MAX_VALUES);
		return -1;
	}
	/* A list: each item checked on its own, so the error points at it. */
	for (size_t i = 0; i < vv->u.list.n; i++) {
		const struct val *it = vv->u.list.items[i];
		const char *t = scalar_text(it);
		struct sweep one;

		if (!t || it->type == VAL_MAP || it->type == VAL_LIST) {
			sweep_release(out);
			diag_error(d, file, it->mark, "spec.sweep.values[%zu]: expected a scalar", i);
			return -1;
		}
		if (parse_named(pv->u.s, t, &one, err, sizeof(err)) != 0) {
			sweep_release(out);
			vv = it;
			pv = strncmp(err, "unknown", 7) ? it : pv;
			diag_error(d, file, pv->mark, "spec.sweep: %s", err);
			return -1;
		}
		if (!out->param) {
			out->param = xstrdup(one.param);
			out->kind = one.kind;
		}
		push_value(out, one.values[0], false);
		sweep_release(&one);
	}
	return 0;

out_error:
	diag_error(d, file, strncmp(err, "unknown", 7) ? vv->mark : pv->mark, "spec.sweep: %s", err);
	return -1;
}

void sweep_value_text(const struct sweep *sw, size_t i, char *buf, size_t len)
{
	double v = sw->values[i];

	switch (sw->kind) {
	case SWEEP_COUNT:
		snprintf(buf, len, "%.0f", v);
		return;
	case SWEEP_DURATION:
		gt_format_duration((int64_t)v, buf, len);
		return;
	case SWEEP_RATIO:
		snprintf(buf, len, "%g", v);
		return;
	}
}

/* The map at dotted @path under @root, made (as maps) where missing.  Borrowed. */
static struct val *make_path(struct val *root, const char *path, char **last)
{
	char *copy = xstrdup(path), *save = NULL, *tok, *next;
	struct val *cur = root;

	tok = strtok_r(copy, ".", &save);
	while ((next = strtok_r(NULL, ".", &save)) != NULL) {
		struct val *child = val_map_get(cur, tok);

		if (!child || child->type != VAL_MAP)
			child = val_map_set(cur, tok, val_new_map());
		cur = child;
		tok = next;
	}
	*last = xstrdup(tok);
	free(copy);
	return cur;
}

int sweep_variant(const struct scenario *base, const struct sweep *sw, size_t i,
		  struct var_def *out, char *err, size_t len)
{
	const struct sweep_param *p = find_param(sw->param);
	struct val *leaf_parent, *v;
	char text[64], *key;

	memset(out, 0, sizeof(*out));
	if (!p) {
		unknown_param(sw->param, err, len);
		return -1;
	}
	if (p->lognormal) {
		const struct val *dv = val_path(base->models_raw, p->lognormal);
		const struct val *ln = val_map_get(dv, "lognormal");

		if (!ln || !val_map_get(ln, "median") || !val_map_get(ln, "p95")) {
			set_err(err, len,
				"sweep '%s' needs spec.models.%s to be lognormal with median and p95",
				p->name, p->lognormal);
			return -1;
		}
	}
	sweep_value_text(sw, i, text, sizeof(text));
	switch (sw->kind) {
	case SWEEP_COUNT:
		v = val_new_int((int64_t)sw->values[i]);
		break;
	case SWEEP_DURATION:
		v = val_new_string(text);
		break;
	default:
		v = val_new_float(sw->values[i]);
		break;
	}
	out->models = val_new_map();
	leaf_parent = make_path(out->models, p->path, &key);
	val_map_set(leaf_parent, key, v);
	free(key);
	out->name = xasprintf("%s=%s", p->name, text);
	out->where = xasprintf("--sweep %s", out->name);
	out->file = base->scenario_file;
	return 0;
}
