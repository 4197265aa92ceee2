/*
 * Expectations of a Scenario: parsing spec.expect, evaluating it over the
 * statistics of the trials and the cluster state of trial 0, and the plain
 * results `magos-sim check` hands to its writers.
 */
#include "sim/plan/expect.h"
#include "sim/plan/variant.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/base/gotime.h"
#include "sim/base/suggest.h"

static const char metric_names[] =
	"trials, findings, completes, timeToComplete, haltProbability, completionProbability, "
	"blastRadius, haltsBefore, detectionLatency, exposure, peakJobs, assert, error";

static const char stat_names[] = "p50, p90, p95, p99, mean, max, min";

/*
 * nearest_metric() - the name of metric_names nearest @k (suggest.h), copied
 * into @buf of @len bytes, or NULL when none is close.
 */
static const char *nearest_metric(const char *k, char *buf, size_t len)
{
	char words[sizeof(metric_names)], *save = NULL;
	const char *best;
	struct sug sg;

	memcpy(words, metric_names, sizeof(metric_names));
	sug_init(&sg, k);
	for (char *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
		sug_offer(&sg, w);
	best = sug_best(&sg);
	if (!best)
		return NULL;
	snprintf(buf, len, "%s", best);
	return buf;
}

const char *exp_metric_names(void)
{
	return metric_names;
}

/* ---------------------------------------------------------------- set */

void exp_set_init(struct exp_set *e)
{
	memset(e, 0, sizeof(*e));
	e->trials = 1;
}

void exp_set_release(struct exp_set *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n; i++) {
		free(e->items[i].name);
		free(e->items[i].phase);
		val_free(e->items[i].object);
	}
	free(e->items);
	free(e->findings);
	memset(e, 0, sizeof(*e));
}

static struct exp_item *add_item(struct exp_set *e, enum exp_kind k, const char *name,
				 struct val_mark mark)
{
	struct exp_item *it;

	e->items = xreallocarray(e->items, e->n + 1, sizeof(*e->items));
	it = &e->items[e->n++];
	memset(it, 0, sizeof(*it));
	it->kind = k;
	it->name = xstrdup(name);
	it->mark = mark;
	return it;
}

/* ---------------------------------------------------------------- parsing */

struct pctx {
	const struct scenario *s;
	struct exp_set *e;
	struct diag *d;
	const char *file;
	int errors;
};

static void perr(struct pctx *c, struct val_mark m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void perr(struct pctx *c, struct val_mark m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(c->d, DIAG_ERROR, c->file, m, fmt, ap);
	va_end(ap);
	c->errors++;
}

/* The text of scalar @v as written, for messages. */
static const char *scalar_text(const struct val *v)
{
	if (v->raw)
		return v->raw;
	if (v->type == VAL_STRING)
		return v->u.s;
	return val_type_name(v->type);
}

/* vtext() - @v as a message quotes it: strings in double quotes, other scalars as written. */
static const char *vtext(const struct val *v, char *buf, size_t len)
{
	if (v->type == VAL_STRING) {
		snprintf(buf, len, "\"%s\"", v->u.s);
		return buf;
	}
	return scalar_text(v);
}

/*
 * parse_limit() - one bound @v of @path in @unit.  EXP_U_RATIO accepts a
 * number 0..1 or "N%" (0..100); EXP_U_COUNT a whole number >= 0, or, when
 * @share_ok, "N%" which switches *@unit to EXP_U_RATIO; EXP_U_MS a Go
 * duration >= 0.  Returns 0 or -1 (error reported).
 */
static int parse_limit(struct pctx *c, const struct val *v, const char *path, enum exp_unit *unit,
		       bool share_ok, double *out)
{
	char err[128] = "", vb[96];

	if (v->type == VAL_STRING && (*unit == EXP_U_RATIO || share_ok)) {
		size_t len = strlen(v->u.s);
		char *end;
		double pct;

		if (len > 1 && v->u.s[len - 1] == '%') {
			pct = strtod(v->u.s, &end);
			if (end != v->u.s + len - 1 || !isfinite(pct)) {
				perr(c, v->mark, "%s: Invalid value: \"%s\": expected a percentage such as 5%%",
				     path, v->u.s);
				return -1;
			}
			if (pct < 0 || pct > 100) {
				perr(c, v->mark,
				     "%s: Invalid value: \"%s\": a %s is between 0%% and 100%%", path,
				     v->u.s, *unit == EXP_U_RATIO ? "probability" : "share");
				return -1;
			}
			*unit = EXP_U_RATIO;
			*out = pct / 100.0;
			return 0;
		}
	}
	switch (*unit) {
	case EXP_U_MS: {
		int64_t ms;

		if (v->type != VAL_STRING) {
			perr(c, v->mark, "%s: Invalid value: %s: expected a duration such as 6h or 15m",
			     path, vtext(v, vb, sizeof(vb)));
			return -1;
		}
		if (gt_parse_duration(v->u.s, &ms, err, sizeof(err)) != 0) {
			perr(c, v->mark, "%s: Invalid value: \"%s\": %s", path, v->u.s, err);
			return -1;
		}
		if (ms < 0) {
			perr(c, v->mark, "%s: Invalid value: \"%s\": a limit cannot be negative", path,
			     v->u.s);
			return -1;
		}
		*out = (double)ms;
		return 0;
	}
	case EXP_U_RATIO:
		if (v->type != VAL_INT && v->type != VAL_FLOAT) {
			perr(c, v->mark, "%s: Invalid value: %s: expected a probability such as 0.05 or 5%%",
			     path, vtext(v, vb, sizeof(vb)));
			return -1;
		}
		*out = val_num(v, 0);
		if (*out < 0 || *out > 1) {
			perr(c, v->mark,
			     "%s: Invalid value: %s: a probability is between 0 and 1 (or 0%% and 100%%)",
			     path, scalar_text(v));
			return -1;
		}
		return 0;
	case EXP_U_COUNT:
		if (v->type != VAL_INT) {
			perr(c, v->mark, "%s: Invalid value: %s: expected a whole number%s", path,
			     vtext(v, vb, sizeof(vb)), share_ok ? " or a share such as 10%" : "");
			return -1;
		}
		if (v->u.i < 0) {
			perr(c, v->mark, "%s: Invalid value: %s: a limit cannot be negative", path,
			     scalar_text(v));
			return -1;
		}
		*out = (double)v->u.i;
		return 0;
	}
	return -1;
}

/*
 * parse_bounds() - a map {min: X, max: Y} (at least one) at @path into @it.
 * Returns 0 or -1.
 */
static int parse_bounds(struct pctx *c, const struct val *m, const char *path,
			struct exp_item *it, enum exp_unit unit, bool share_ok)
{
	enum exp_unit umin = unit, umax = unit;
	char sub[256];
	int rc = 0;

	if (m->type != VAL_MAP || m->u.map.n == 0) {
		perr(c, m->mark, "%s: Invalid value: expected a map with min and/or max", path);
		return -1;
	}
	for (size_t i = 0; i < m->u.map.n; i++) {
		const struct val_kv *kv = &m->u.map.items[i];
		bool is_min = !strcmp(kv->key, "min");

		snprintf(sub, sizeof(sub), "%s.%s", path, kv->key);
		if (!is_min && strcmp(kv->key, "max") != 0) {
			perr(c, kv->key_mark, "unknown field \"%s\"", sub);
			diag_note(c->d, c->file, kv->key_mark, "accepted fields: min, max");
			rc = -1;
			continue;
		}
		if (is_min) {
			if (parse_limit(c, kv->v, sub, &umin, share_ok, &it->min) != 0)
				rc = -1;
			else
				it->has_min = true;
		} else {
			if (parse_limit(c, kv->v, sub, &umax, share_ok, &it->max) != 0)
				rc = -1;
			else
				it->has_max = true;
		}
	}
	if (rc)
		return rc;
	if (it->has_min && it->has_max && umin != umax) {
		perr(c, m->mark, "%s: min and max must both be counts or both be shares", path);
		return -1;
	}
	it->unit = it->has_max ? umax : umin;
	if (it->has_min && it->has_max && it->min > it->max) {
		perr(c, m->mark, "%s: min is greater than max: no value can hold", path);
		return -1;
	}
	return 0;
}

static enum exp_stat stat_of(const char *k)
{
	static const char *const names[] = { "", "p50", "p90", "p95", "p99", "mean", "max", "min" };

	for (int i = 1; i < 8; i++)
		if (!strcmp(k, names[i]))
			return (enum exp_stat)i;
	return EXP_EVERY;
}

/*
 * parse_dist_metric() - timeToComplete, blastRadius, detectionLatency,
 * exposure, peakJobs: {min/max: scalar} (every trial) and/or
 * {p50|p90|p95|p99|mean|max|min: {min, max}}.
 */
static void parse_dist_metric(struct pctx *c, const struct val_kv *mkv, enum exp_kind kind,
			      enum exp_unit unit, bool share_ok)
{
	const struct val *m = mkv->v;
	char path[256], name[128];
	struct exp_item every = { 0 };
	const struct val_kv *first_bound = NULL;
	bool any_bound = false;

	snprintf(path, sizeof(path), "spec.expect.%s", mkv->key);
	if (m->type != VAL_MAP || m->u.map.n == 0) {
		perr(c, m->mark, "%s: Invalid value: expected a map such as {p95: {max: ...}} or {max: ...}",
		     path);
		return;
	}
	/* Scalars under min/max are bounds over every trial; maps are statistics. */
	for (size_t i = 0; i < m->u.map.n; i++) {
		const struct val_kv *kv = &m->u.map.items[i];
		enum exp_stat st = stat_of(kv->key);
		char sub[300];

		snprintf(sub, sizeof(sub), "%s.%s", path, kv->key);
		if ((st == EXP_MIN || st == EXP_MAX) && kv->v->type != VAL_MAP) {
			enum exp_unit u = unit;
			double *dst = st == EXP_MIN ? &every.min : &every.max;

			if (!first_bound)
				first_bound = kv;
			if (parse_limit(c, kv->v, sub, &u, share_ok, dst) == 0) {
				if (any_bound && u != every.unit) {
					perr(c, kv->v->mark,
					     "%s: min and max must both be counts or both be shares", path);
					continue;
				}
				every.unit = u;
				any_bound = true;
				if (st == EXP_MIN)
					every.has_min = true;
				else
					every.has_max = true;
			}
			continue;
		}
		if (st == EXP_EVERY) {
			perr(c, kv->key_mark, "unknown field \"%s\"", sub);
			diag_note(c->d, c->file, kv->key_mark, "accepted fields: %s (each {min, max}), or min and max directly",
				  stat_names);
			continue;
		}
		{
			struct exp_item tmp = { 0 };

			snprintf(name, sizeof(name), "%s.%s", mkv->key, kv->key);
			if (parse_bounds(c, kv->v, sub, &tmp, unit, share_ok) == 0) {
				struct exp_item *it = add_item(c->e, kind, name, kv->key_mark);

				it->stat = st;
				it->unit = tmp.unit;
				it->has_min = tmp.has_min;
				it->has_max = tmp.has_max;
				it->min = tmp.min;
				it->max = tmp.max;
			}
		}
	}
	if (any_bound) {
		struct exp_item *it;

		if (every.has_min && every.has_max && every.min > every.max) {
			perr(c, first_bound->key_mark, "%s: min is greater than max: no value can hold",
			     path);
			return;
		}
		it = add_item(c->e, kind, mkv->key, first_bound->key_mark);
		it->stat = EXP_EVERY;
		it->unit = every.unit;
		it->has_min = every.has_min;
		it->has_max = every.has_max;
		it->min = every.min;
		it->max = every.max;
	}
}

/* Step names of every Rollout and wave names of every FleetRollout (apply events included). */
static void collect_names(const struct obj *o, const char *kind, const char *path,
			  const char ***names, size_t *n)
{
	const struct val *l;

	if (!o || strcmp(o->kind, kind) != 0)
		return;
	l = val_path(o->spec, path);
	if (!l || l->type != VAL_LIST)
		return;
	for (size_t i = 0; i < l->u.list.n; i++) {
		const char *nm = val_str(val_map_get(l->u.list.items[i], "name"), NULL);

		if (!nm)
			continue;
		*names = xreallocarray(*names, *n + 1, sizeof(**names));
		(*names)[(*n)++] = nm;
	}
}

/* Whether @s has a FleetRollout, as an object or in an apply event. */
static bool has_fleet(const struct scenario *s)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (s->objs[i] && !strcmp(s->objs[i]->kind, "FleetRollout"))
			return true;
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].obj && !strcmp(s->events[i].obj->kind, "FleetRollout"))
			return true;
	return false;
}

/*
 * Whether a Rollout or FleetRollout of @s was loaded with a status phase:
 * a rollout under way (or done) when the run starts, as a kubectl export
 * holds it.  Apply events create theirs without a status.
 */
static bool driver_loaded_with_status(const struct scenario *s)
{
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];

		if (o && (!strcmp(o->kind, "Rollout") || !strcmp(o->kind, "FleetRollout")) &&
		    val_str(val_map_get(o->status, "phase"), NULL))
			return true;
	}
	return false;
}

/*
 * The latest first completion of a Rollout or FleetRollout that snapshot @s
 * carries (SCN_OBSERVER_STATE's completed), ms since the original run's
 * start (@s->origin_unix_ms), or -1 when it carries none.
 */
static int64_t done_before(const struct scenario *s)
{
	int64_t latest = -1;

	for (size_t i = 0; i < s->nobserver; i++) {
		const struct scn_observer_state *e = &s->observer[i];
		const char *v;
		int64_t unix_ms;

		if (strcmp(e->kind, "Rollout") != 0 && strcmp(e->kind, "FleetRollout") != 0)
			continue;
		v = scn_observer_get(s, e->kind, e->ns, e->name, "completed");
		if (v && gt_parse_rfc3339(v, &unix_ms, NULL, 0) == 0 &&
		    unix_ms - s->origin_unix_ms > latest)
			latest = unix_ms - s->origin_unix_ms;
	}
	return latest;
}

static void parse_halts_before(struct pctx *c, const struct val_kv *mkv)
{
	const struct val *m = mkv->v;
	const struct val_kv *kv;
	const char **names = NULL;
	size_t n = 0;
	bool wave, found = false;
	struct exp_item *it;

	if (m->type != VAL_MAP || m->u.map.n != 1 ||
	    (strcmp(m->u.map.items[0].key, "step") && strcmp(m->u.map.items[0].key, "wave"))) {
		perr(c, m->mark,
		     "spec.expect.haltsBefore: Invalid value: expected {step: NAME} or {wave: NAME}");
		return;
	}
	kv = &m->u.map.items[0];
	wave = !strcmp(kv->key, "wave");
	if (kv->v->type != VAL_STRING || !kv->v->u.s[0]) {
		perr(c, kv->v->mark, "spec.expect.haltsBefore.%s: Invalid value: expected a %s name",
		     kv->key, kv->key);
		return;
	}
	for (size_t i = 0; i < c->s->nobjs; i++)
		collect_names(c->s->objs[i], wave ? "FleetRollout" : "Rollout",
			      wave ? "waves" : "strategy.steps", &names, &n);
	for (size_t i = 0; i < c->s->nevents; i++)
		collect_names(c->s->events[i].obj, wave ? "FleetRollout" : "Rollout",
			      wave ? "waves" : "strategy.steps", &names, &n);
	for (size_t i = 0; i < n && !found; i++)
		found = !strcmp(names[i], kv->v->u.s);
	if (!found) {
		perr(c, kv->v->mark, "spec.expect.haltsBefore.%s: no %s named \"%s\"", kv->key,
		     wave ? "wave of a FleetRollout" : "step of a Rollout", kv->v->u.s);
		if (n) {
			size_t len = 0;
			char *list;

			for (size_t i = 0; i < n; i++)
				len += strlen(names[i]) + 2;
			list = xcalloc(len + 1, 1);
			for (size_t i = 0; i < n; i++) {
				/* A name shared by several drivers is listed once. */
				bool dup = false;

				for (size_t j = 0; j < i && !dup; j++)
					dup = !strcmp(names[i], names[j]);
				if (dup)
					continue;
				if (list[0])
					strcat(list, ", ");
				strcat(list, names[i]);
			}
			diag_note(c->d, c->file, kv->v->mark, "known %s: %s", wave ? "waves" : "steps",
				  list);
			free(list);
		} else {
			diag_note(c->d, c->file, kv->v->mark, "the scenario has no %s",
				  wave ? "FleetRollout with named waves" : "Rollout with named steps");
		}
		free(names);
		return;
	}
	free(names);
	it = add_item(c->e, EXP_HALTS_BEFORE, "haltsBefore", mkv->key_mark);
	it->phase = xstrdup(kv->v->u.s);
	it->wave = wave;
}

static void parse_prob(struct pctx *c, const struct val_kv *mkv, enum exp_kind kind)
{
	char path[128];
	struct exp_item tmp = { 0 };

	snprintf(path, sizeof(path), "spec.expect.%s", mkv->key);
	if (parse_bounds(c, mkv->v, path, &tmp, EXP_U_RATIO, false) == 0) {
		struct exp_item *it = add_item(c->e, kind, mkv->key, mkv->key_mark);

		it->unit = EXP_U_RATIO;
		it->has_min = tmp.has_min;
		it->has_max = tmp.has_max;
		it->min = tmp.min;
		it->max = tmp.max;
	}
}

/* assert: / error: lists of {at, object}. */
static void parse_objects(struct pctx *c, const struct val_kv *mkv, enum exp_kind kind)
{
	const struct val *l = mkv->v;

	if (l->type != VAL_LIST) {
		perr(c, l->mark, "spec.expect.%s: Invalid value: expected a list of {at, object}",
		     mkv->key);
		return;
	}
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *e = l->u.list.items[i];
		const struct val *at, *obj;
		char path[96];
		int64_t ms = 0;
		bool ok = true;
		struct exp_item *it;

		snprintf(path, sizeof(path), "spec.expect.%s[%zu]", mkv->key, i);
		if (e->type != VAL_MAP) {
			perr(c, e->mark, "%s: Invalid value: expected a map with object and an optional at",
			     path);
			continue;
		}
		for (size_t k = 0; k < e->u.map.n; k++) {
			const struct val_kv *kv = &e->u.map.items[k];

			if (strcmp(kv->key, "at") && strcmp(kv->key, "object")) {
				perr(c, kv->key_mark, "unknown field \"%s.%s\"", path, kv->key);
				diag_note(c->d, c->file, kv->key_mark, "accepted fields: at, object");
				ok = false;
			}
		}
		at = val_map_get(e, "at");
		if (at) {
			enum exp_unit u = EXP_U_MS;
			double d;
			char sub[128];

			snprintf(sub, sizeof(sub), "%s.at", path);
			if (parse_limit(c, at, sub, &u, false, &d) != 0)
				ok = false;
			ms = (int64_t)d;
		}
		obj = val_map_get(e, "object");
		if (!obj) {
			perr(c, e->mark, "%s.object: Required value", path);
			continue;
		}
		if (obj->type != VAL_MAP) {
			perr(c, obj->mark, "%s.object: Invalid value: expected a partial manifest (a map)",
			     path);
			continue;
		}
		if (!val_str(val_map_get(obj, "kind"), NULL)) {
			perr(c, obj->mark, "%s.object.kind: Required value: the kind of the object to look for",
			     path);
			ok = false;
		}
		{
			const struct val *av = val_map_get(obj, "apiVersion");
			const struct val *md = val_map_get(obj, "metadata");

			if (av && av->type != VAL_STRING) {
				perr(c, av->mark, "%s.object.apiVersion: Invalid value: expected a string",
				     path);
				ok = false;
			}
			if (md && md->type != VAL_MAP) {
				perr(c, md->mark, "%s.object.metadata: Invalid value: expected a map", path);
				ok = false;
			}
		}
		if (!ok)
			continue;
		snprintf(path, sizeof(path), "%s[%zu]", mkv->key, i);
		it = add_item(c->e, kind, path, e->mark);
		it->has_at = at != NULL;
		it->at_ms = ms;
		it->object = val_copy(obj);
	}
}

/* findings: a list of lint rule ids. */
static void parse_findings(struct pctx *c, const struct val_kv *mkv)
{
	const struct val *l = mkv->v;

	if (l->type != VAL_LIST) {
		perr(c, l->mark, "spec.expect.findings: Invalid value: expected a list of lint rule ids such as [MS203]");
		return;
	}
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *v = l->u.list.items[i];
		const struct lint_rule *rule = v->type == VAL_STRING ? lint_rule(v->u.s) : NULL;
		char vb[96];

		if (!rule) {
			perr(c, v->mark, "spec.expect.findings[%zu]: Invalid value: %s: not a lint rule id", i,
			     vtext(v, vb, sizeof(vb)));
			/* Not the id range: it grows with every new rule. */
			diag_note(c->d, c->file, v->mark,
				  "`magos-sim lint --list-rules` lists the rule ids (MS001, MS101, ...)");
			continue;
		}
		c->e->findings = xreallocarray(c->e->findings, c->e->nfindings + 1,
					       sizeof(*c->e->findings));
		c->e->findings[c->e->nfindings].rule = rule;
		c->e->findings[c->e->nfindings++].mark = v->mark;
	}
}

int exp_parse(const struct scenario *s, struct exp_set *out, struct diag *d)
{
	struct pctx c = { .s = s, .e = out, .d = d, .file = s->expect_file };
	const struct val *m = s->expect;
	const struct val_kv *objkv[2] = { NULL, NULL };
	char near_buf[64];

	exp_set_init(out);
	out->file = s->expect_file;
	out->resumed_ms = s->resumed_ms;
	out->resumed = s->resumed;
	out->origin_unix_ms = s->origin_unix_ms;
	out->start_unix_ms = s->start_unix_ms;
	out->from_snapshot = !s->resumed && driver_loaded_with_status(s);
	out->done_before_ms = s->resumed ? done_before(s) : -1;
	if (!m)
		return 0;
	if (m->type != VAL_MAP) {
		perr(&c, m->mark, "spec.expect: Invalid value: expected a map of metric: limit");
		diag_note(d, c.file, m->mark, "accepted metrics: %s", metric_names);
		return -1;
	}
	for (size_t i = 0; i < m->u.map.n; i++) {
		const struct val_kv *kv = &m->u.map.items[i];
		const char *k = kv->key;
		char vb[96];

		if (!strcmp(k, "trials")) {
			if (kv->v->type != VAL_INT || kv->v->u.i < 1 || kv->v->u.i > EXP_MAX_TRIALS)
				perr(&c, kv->v->mark,
				     "spec.expect.trials: Invalid value: %s: expected a whole number from 1 to %d",
				     vtext(kv->v, vb, sizeof(vb)), EXP_MAX_TRIALS);
			else
				out->trials = (uint32_t)kv->v->u.i;
		} else if (!strcmp(k, "findings")) {
			parse_findings(&c, kv);
		} else if (!strcmp(k, "completes")) {
			struct exp_item *it;

			if (kv->v->type != VAL_BOOL) {
				perr(&c, kv->v->mark,
				     "spec.expect.completes: Invalid value: %s: expected true or false",
				     vtext(kv->v, vb, sizeof(vb)));
				continue;
			}
			it = add_item(out, EXP_COMPLETES, "completes", kv->key_mark);
			it->want = kv->v->u.b;
		} else if (!strcmp(k, "timeToComplete")) {
			parse_dist_metric(&c, kv, EXP_TTC, EXP_U_MS, false);
		} else if (!strcmp(k, "haltProbability")) {
			parse_prob(&c, kv, EXP_HALT_PROB);
		} else if (!strcmp(k, "completionProbability")) {
			parse_prob(&c, kv, EXP_COMPLETE_PROB);
		} else if (!strcmp(k, "blastRadius")) {
			parse_dist_metric(&c, kv, EXP_BLAST, EXP_U_COUNT, true);
		} else if (!strcmp(k, "haltsBefore")) {
			parse_halts_before(&c, kv);
		} else if (!strcmp(k, "detectionLatency")) {
			parse_dist_metric(&c, kv, EXP_DETECTION, EXP_U_MS, false);
		} else if (!strcmp(k, "exposure")) {
			/*
			 * Target-time on a version a FleetRollout approved: a Magos
			 * Rollout has no such exposure, and a 0s that passes every
			 * limit would say nothing.
			 */
			if (!has_fleet(s)) {
				perr(&c, kv->key_mark,
				     "spec.expect.exposure: does not apply: exposure is measured for FleetRollouts and this scenario has none");
				diag_note(d, c.file, kv->key_mark,
					  "for a Magos Rollout, bound blastRadius or timeToComplete instead");
				continue;
			}
			parse_dist_metric(&c, kv, EXP_EXPOSURE, EXP_U_MS, false);
		} else if (!strcmp(k, "peakJobs")) {
			parse_dist_metric(&c, kv, EXP_PEAK_JOBS, EXP_U_COUNT, false);
		} else if (!strcmp(k, "assert")) {
			objkv[0] = kv;
		} else if (!strcmp(k, "error")) {
			objkv[1] = kv;
		} else {
			const char *near = nearest_metric(k, near_buf, sizeof(near_buf));

			perr(&c, kv->key_mark, "spec.expect: unknown metric \"%s\"", k);
			if (near)
				diag_note(d, c.file, kv->key_mark, "did you mean \"%s\"?", near);
			diag_note(d, c.file, kv->key_mark, "accepted metrics: %s", metric_names);
		}
	}
	if (objkv[0])
		parse_objects(&c, objkv[0], EXP_ASSERT);
	if (objkv[1])
		parse_objects(&c, objkv[1], EXP_ERROR);
	/* File order (stable insertion sort: items at one place keep their order). */
	for (size_t i = 1; i < out->n; i++) {
		struct exp_item x = out->items[i];
		size_t j = i;

		while (j > 0 && (out->items[j - 1].mark.line > x.mark.line ||
				 (out->items[j - 1].mark.line == x.mark.line &&
				  out->items[j - 1].mark.col > x.mark.col))) {
			out->items[j] = out->items[j - 1];
			j--;
		}
		out->items[j] = x;
	}
	return c.errors ? -1 : 0;
}

/* ---------------------------------------------------------------- object matching */

static bool scalar_equal(const struct val *p, const struct val *a)
{
	if ((p->type == VAL_INT || p->type == VAL_FLOAT) &&
	    (a->type == VAL_INT || a->type == VAL_FLOAT))
		return val_num(p, 0) == val_num(a, 0);
	return val_equal(p, a);
}

/*
 * subset_diff() - exp_subset() that also says where the first mismatch is:
 * @path (of @pathlen bytes) receives its dotted path, *@want and *@got the
 * nodes compared there (*@got NULL: absent).
 */
static bool subset_diff(const struct val *p, const struct val *a, char *path, size_t pathlen,
			const struct val **want, const struct val **got)
{
	size_t used = strlen(path);

	*want = p;
	*got = a;
	if (!a)
		return p->type == VAL_NULL;
	if (p->type == VAL_MAP) {
		if (a->type != VAL_MAP)
			return false;
		for (size_t i = 0; i < p->u.map.n; i++) {
			const struct val_kv *kv = &p->u.map.items[i];

			snprintf(path + used, pathlen - used, "%s%s", used ? "." : "", kv->key);
			if (!subset_diff(kv->v, val_map_get(a, kv->key), path, pathlen, want, got))
				return false;
		}
		path[used] = '\0';
		return true;
	}
	if (p->type == VAL_LIST) {
		if (a->type != VAL_LIST || a->u.list.n != p->u.list.n)
			return false;
		for (size_t i = 0; i < p->u.list.n; i++) {
			snprintf(path + used, pathlen - used, "[%zu]", i);
			if (!subset_diff(p->u.list.items[i], a->u.list.items[i], path, pathlen, want,
					 got))
				return false;
		}
		path[used] = '\0';
		return true;
	}
	return scalar_equal(p, a);
}

/* A value as a mismatch message shows it: strings quoted, collections by kind. */
static void value_text(const struct val *v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "absent");
	else if (v->type == VAL_MAP)
		snprintf(buf, len, "a map");
	else if (v->type == VAL_LIST)
		snprintf(buf, len, "a list of %zu", v->u.list.n);
	else if (v->type == VAL_STRING)
		snprintf(buf, len, "\"%s\"", v->u.s);
	else if (v->type == VAL_BOOL)
		snprintf(buf, len, "%s", v->u.b ? "true" : "false");
	else if (v->type == VAL_INT)
		snprintf(buf, len, "%lld", (long long)v->u.i);
	else if (v->type == VAL_FLOAT)
		snprintf(buf, len, "%g", v->u.f);
	else
		snprintf(buf, len, "null");
}

bool exp_subset(const struct val *partial, const struct val *actual)
{
	char path[512] = "";
	const struct val *want, *got;

	return subset_diff(partial, actual, path, sizeof(path), &want, &got);
}

static struct val *strmap_val(const struct obj_strmap *m)
{
	struct val *v = val_new_map();

	for (size_t i = 0; i < m->n; i++)
		val_map_set(v, m->items[i].key, val_new_string(m->items[i].value));
	return v;
}

struct val *exp_obj_val(const struct obj *o)
{
	struct val *v = val_new_map(), *md = val_new_map();
	char rv[32];

	val_map_set(v, "apiVersion", val_new_string(o->api_version));
	val_map_set(v, "kind", val_new_string(o->kind));
	val_map_set(md, "name", val_new_string(o->name));
	if (o->ns[0])
		val_map_set(md, "namespace", val_new_string(o->ns));
	val_map_set(md, "labels", strmap_val(&o->labels));
	val_map_set(md, "annotations", strmap_val(&o->annotations));
	if (o->nfinalizers) {
		struct val *f = val_map_set(md, "finalizers", val_new_list());

		for (size_t i = 0; i < o->nfinalizers; i++)
			val_list_push(f, val_new_string(o->finalizers[i]));
	}
	val_map_set(md, "generation", val_new_int(o->generation));
	snprintf(rv, sizeof(rv), "%llu", (unsigned long long)o->resource_version);
	val_map_set(md, "resourceVersion", val_new_string(rv));
	val_map_set(v, "metadata", md);
	if (o->spec)
		val_map_set(v, "spec", val_copy(o->spec));
	if (o->status)
		val_map_set(v, "status", val_copy(o->status));
	if (o->rest && o->rest->type == VAL_MAP)
		for (size_t i = 0; i < o->rest->u.map.n; i++)
			if (!val_map_get(v, o->rest->u.map.items[i].key))
				val_map_set(v, o->rest->u.map.items[i].key,
					    val_copy(o->rest->u.map.items[i].v));
	return v;
}

/* Whether @o has the identity @partial names (kind, apiVersion, name, namespace where given). */
static bool identity_matches(const struct val *partial, const struct obj *o)
{
	const char *av = val_str(val_map_get(partial, "apiVersion"), NULL);
	const char *kind = val_str(val_map_get(partial, "kind"), NULL);
	const char *name = val_str(val_path(partial, "metadata.name"), NULL);
	const char *ns = val_str(val_path(partial, "metadata.namespace"), NULL);

	return (!kind || !strcmp(kind, o->kind)) && (!av || !strcmp(av, o->api_version)) &&
	       (!name || !strcmp(name, o->name)) && (!ns || !strcmp(ns, o->ns));
}

bool exp_object_matches(const struct val *partial, const struct obj *o)
{
	struct val *v;
	bool ok;

	if (!identity_matches(partial, o))
		return false;
	v = exp_obj_val(o);
	ok = exp_subset(partial, v);
	val_free(v);
	return ok;
}

/* ---------------------------------------------------------------- probes */

static void check_objects(const struct exp_item *it, struct des *w, struct exp_objcheck *oc)
{
	struct api_list l;
	const char *kind = val_str(val_map_get(it->object, "kind"), "");
	const char *ns = val_str(val_path(it->object, "metadata.namespace"), NULL);

	api_list_init(&l);
	api_list(des_api(w), kind, ns, NULL, NULL, &l);
	oc->nkind = oc->nmatched = 0;
	oc->mismatch[0] = '\0';
	for (size_t i = 0; i < l.n; i++) {
		struct val *v;
		char path[256] = "", wantv[96], gotv[96];
		const struct val *want, *got;

		if (!identity_matches(it->object, l.items[i]))
			continue;
		oc->nkind++;
		v = exp_obj_val(l.items[i]);
		if (subset_diff(it->object, v, path, sizeof(path), &want, &got)) {
			oc->nmatched++;
		} else if (!oc->mismatch[0]) {
			/* The first object's first difference: what a reader fixes first. */
			value_text(want, wantv, sizeof(wantv));
			value_text(got, gotv, sizeof(gotv));
			snprintf(oc->mismatch, sizeof(oc->mismatch), "%s is %s, expected %s", path,
				 gotv, wantv);
		}
		val_free(v);
	}
	api_list_release(&l);
	oc->done = true;
	oc->pass = it->kind == EXP_ASSERT ? oc->nmatched > 0 : oc->nmatched == 0;
}

static void on_probe(void *ctx, size_t i, struct des *w)
{
	struct exp_probes *p = ctx;
	size_t k = p->item[i];

	check_objects(&p->e->items[k], w, &p->checks[k]);
	p->checks[k].at_ms = des_now(w);
}

void exp_probes_init(struct exp_probes *p, const struct exp_set *e)
{
	memset(p, 0, sizeof(*p));
	p->e = e;
	p->checks = xcalloc(e->n ? e->n : 1, sizeof(*p->checks));
	p->times = xcalloc(e->n ? e->n : 1, sizeof(*p->times));
	p->item = xcalloc(e->n ? e->n : 1, sizeof(*p->item));
	for (size_t i = 0; i < e->n; i++) {
		const struct exp_item *it = &e->items[i];

		if ((it->kind != EXP_ASSERT && it->kind != EXP_ERROR) || !it->has_at)
			continue;
		/* the original run's instant, on this run's clock; the snapshot is this run's 0 */
		if (it->at_ms < e->resumed_ms) {
			p->checks[i].before_start = true;
			continue;
		}
		p->times[p->n] = it->at_ms - e->resumed_ms;
		p->item[p->n++] = i;
	}
}

void exp_probes_attach(struct exp_probes *p, struct run_opts *o)
{
	if (!p->n)
		return;
	o->probe_ms = p->times;
	o->nprobes = p->n;
	o->probe = on_probe;
	o->probe_ctx = p;
}

void exp_probes_finish(struct exp_probes *p, struct des *world, int64_t end_ms,
		       enum des_stop stop)
{
	for (size_t i = 0; i < p->e->n; i++) {
		const struct exp_item *it = &p->e->items[i];

		if ((it->kind != EXP_ASSERT && it->kind != EXP_ERROR) || p->checks[i].done ||
		    p->checks[i].before_start)
			continue;
		if (!world)
			continue;
		if (it->has_at && it->at_ms - p->e->resumed_ms > end_ms && stop != DES_QUIESCENT) {
			p->checks[i].unreached = true;
			p->checks[i].end_ms = end_ms;
			p->checks[i].stop = stop;
			continue;
		}
		check_objects(it, world, &p->checks[i]);
		p->checks[i].at_ms = end_ms;
		p->checks[i].at_end = true;
	}
}

void exp_probes_release(struct exp_probes *p)
{
	if (!p)
		return;
	free(p->checks);
	free(p->times);
	free(p->item);
	memset(p, 0, sizeof(*p));
}

/* ---------------------------------------------------------------- results */

void exp_report_init(struct exp_scenario_report *r, const char *input)
{
	memset(r, 0, sizeof(*r));
	r->input = xstrdup(input);
}

void exp_report_release(struct exp_scenario_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->items[i].id);
		free(r->items[i].measured);
		free(r->items[i].limit);
		free(r->items[i].message);
		free(r->items[i].file);
	}
	free(r->items);
	free(r->input);
	free(r->name);
	memset(r, 0, sizeof(*r));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct exp_result *exp_report_add(struct exp_scenario_report *r, const char *id,
				  enum exp_outcome outcome, const char *measured,
				  const char *limit, const char *message, const char *file,
				  struct val_mark mark)
{
	struct exp_result *x;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->items = xreallocarray(r->items, r->cap, sizeof(*r->items));
	}
	x = &r->items[r->n++];
	x->id = xstrdup(id);
	x->outcome = outcome;
	x->measured = dup_or_null(measured);
	x->limit = dup_or_null(limit);
	x->message = xstrdup(message);
	x->file = dup_or_null(file);
	x->mark = mark;
	x->input_error = false;
	if (outcome == EXP_FAILED)
		r->nfailed++;
	else if (outcome == EXP_WARNED)
		r->nwarned++;
	else if (outcome == EXP_SKIPPED)
		r->nskipped++;
	return x;
}

void exp_report_mark_input_error(struct exp_scenario_report *r, struct exp_result *x)
{
	if (x->outcome != EXP_FAILED || x->input_error)
		return;
	x->input_error = true;
	r->nerrors++;
}

void exp_report_add_skipped(struct exp_scenario_report *r, const struct exp_set *e,
			    const char *why)
{
	for (size_t i = 0; e && i < e->n; i++) {
		char *msg = xasprintf("not evaluated: %s", why);

		exp_report_add(r, e->items[i].name, EXP_SKIPPED, NULL, NULL, msg, e->file,
			       e->items[i].mark);
		free(msg);
	}
}

/* The index in @e->findings of @rule, or -1. */
static long expected_rule(const struct exp_set *e, const struct lint_rule *rule)
{
	for (size_t i = 0; e && i < e->nfindings; i++)
		if (e->findings[i].rule == rule)
			return (long)i;
	return -1;
}

void exp_report_add_lint(struct exp_scenario_report *r, const struct lint_report *l,
			 const struct exp_set *e)
{
	bool *seen = xcalloc(e && e->nfindings ? e->nfindings : 1, sizeof(*seen));

	for (size_t i = 0; i < l->n; i++) {
		const struct lint_finding *f = &l->items[i];
		enum exp_outcome oc = f->sev == LINT_ERROR   ? EXP_FAILED
				      : f->sev == LINT_WARNING ? EXP_WARNED
							       : EXP_NOTED;
		long k = expected_rule(e, f->rule);
		struct exp_result *x;
		char *msg;

		if (k >= 0) {
			/* The scenario shows this hazard on purpose: finding it is the check. */
			seen[k] = true;
			msg = xasprintf("expected (spec.expect.findings): %s", f->msg);
			oc = EXP_PASSED;
		} else if (lint_finding_fix(f) && lint_finding_fix(f)[0]) {
			msg = xasprintf("%s (%s)", f->msg, lint_finding_fix(f));
		} else {
			msg = xstrdup(f->msg);
		}
		x = exp_report_add(r, f->rule->id, oc, NULL, NULL, msg, f->file, f->mark);
		/* The loader's refusals are what makes an input invalid. */
		if (r->invalid && (!strcmp(f->rule->id, "MS001") || !strcmp(f->rule->id, "MS002")))
			exp_report_mark_input_error(r, x);
		free(msg);
	}
	{
		/* What the errors limit kept back: said once, after the findings, as the loader's last note. */
		char *more = lint_hidden_text(l);

		if (more) {
			struct exp_result *x = exp_report_add(r, l->nhidden_errors ? "MS002" : "MS003",
							      l->nhidden_errors ? EXP_FAILED : EXP_WARNED,
							      NULL, NULL, more, NULL, (struct val_mark){ 0, 0 });

			if (r->invalid && l->nhidden_errors)
				exp_report_mark_input_error(r, x);
		}
		free(more);
	}
	for (size_t k = 0; e && k < e->nfindings; k++) {
		char *msg;

		if (seen[k] || expected_rule(e, e->findings[k].rule) != (long)k)
			continue;
		msg = xasprintf("rule %s (%s) is expected to report a finding (spec.expect.findings), but it did not",
				e->findings[k].rule->id, e->findings[k].rule->name);
		exp_report_add(r, e->findings[k].rule->id, EXP_FAILED, "no finding",
			       "at least one finding", msg, e->file, e->findings[k].mark);
		free(msg);
	}
	free(seen);
}

/* fmt_value() - @v in @unit as text into @buf. */
static void fmt_value(double v, enum exp_unit unit, char *buf, size_t len)
{
	switch (unit) {
	case EXP_U_MS:
		gt_format_duration((int64_t)llround(v), buf, len);
		return;
	case EXP_U_COUNT:
		snprintf(buf, len, "%.6g", v);
		return;
	case EXP_U_RATIO:
		snprintf(buf, len, "%.6g%%", v * 100.0);
		return;
	}
}

static char *fmt_limit(const struct exp_item *it)
{
	char a[64], b[64];

	if (it->has_min)
		fmt_value(it->min, it->unit, a, sizeof(a));
	if (it->has_max)
		fmt_value(it->max, it->unit, b, sizeof(b));
	if (it->has_min && it->has_max)
		return xasprintf(">= %s and <= %s", a, b);
	if (it->has_min)
		return xasprintf(">= %s", a);
	return xasprintf("<= %s", b);
}

/* What a metric is called in a message. */
static const char *metric_text(enum exp_kind k, enum exp_unit u)
{
	switch (k) {
	case EXP_TTC: return "time to complete";
	case EXP_HALT_PROB: return "halt probability";
	case EXP_COMPLETE_PROB: return "completion probability";
	case EXP_BLAST: return u == EXP_U_RATIO ? "blast radius share" : "blast radius";
	case EXP_DETECTION: return "detection latency";
	case EXP_EXPOSURE: return "exposure";
	case EXP_PEAK_JOBS: return "peak jobs";
	default: return "value";
	}
}

static const char *stat_text(enum exp_stat st)
{
	static const char *const t[] = { "", "p50", "p90", "p95", "p99", "mean", "largest", "smallest" };

	return t[st];
}

/* The distribution an item reads. */
static const struct plan_dist *dist_of(const struct exp_item *it, const struct plan_stats *st)
{
	switch (it->kind) {
	case EXP_TTC: return &st->ttc;
	case EXP_BLAST: return it->unit == EXP_U_RATIO ? &st->blast_share : &st->blast_count;
	case EXP_DETECTION: return &st->detection;
	case EXP_EXPOSURE: return &st->exposure;
	case EXP_PEAK_JOBS: return &st->peak_jobs;
	default: return NULL;
	}
}

/*
 * compare() - checks @v (censored: only known to exceed @horizon) against
 * the item's bounds and reports the result.
 */
static void compare(struct exp_scenario_report *r, const struct exp_item *it, const char *file,
		    const char *what, double v, bool censored, int64_t horizon_ms,
		    const char *extra)
{
	char mv[96], lim_s[64];
	char *limit = fmt_limit(it), *msg;
	bool pass = true;
	const char *why = "";

	if (censored) {
		char h[GT_DURATION_BUFSZ];

		gt_format_duration(horizon_ms, h, sizeof(h));
		snprintf(mv, sizeof(mv), "> %s (horizon)", h);
		v = (double)horizon_ms;
	} else {
		fmt_value(v, it->unit, mv, sizeof(mv));
	}
	/*
	 * A censored value exceeds the horizon: it meets a min up to the horizon
	 * and exceeds a max at or below it.  A max above the horizon is not known
	 * to be exceeded, nor met: it fails as unshown, said as such.
	 */
	if (it->has_max && censored && (double)horizon_ms < it->max) {
		char h[GT_DURATION_BUFSZ];

		fmt_value(it->max, it->unit, lim_s, sizeof(lim_s));
		gt_format_duration(horizon_ms, h, sizeof(h));
		msg = xasprintf("%s not known: not done by the horizon %s, which ends before the "
				"limit %s; give a horizon of at least %s to tell%s",
				what, h, limit, lim_s, extra);
		exp_report_add(r, it->name, EXP_FAILED, mv, limit, msg, file, it->mark);
		free(msg);
		free(limit);
		return;
	}
	if (it->has_max && (censored || v > it->max)) {
		pass = false;
		fmt_value(it->max, it->unit, lim_s, sizeof(lim_s));
		why = "exceeds";
	} else if (it->has_min && v < it->min && !(censored && (double)horizon_ms >= it->min)) {
		pass = false;
		fmt_value(it->min, it->unit, lim_s, sizeof(lim_s));
		why = "is below";
	}
	if (pass)
		msg = xasprintf("%s %s is within the limit %s%s", what, mv, limit, extra);
	else
		msg = xasprintf("%s %s %s the limit %s%s", what, mv, why, lim_s, extra);
	exp_report_add(r, it->name, pass ? EXP_PASSED : EXP_FAILED, mv, limit, msg, file, it->mark);
	free(msg);
	free(limit);
}

/*
 * The trials a percentile needs to say anything beyond the single largest
 * or smallest value: a pQ has 1 in 1/(1-Q) trials above it, so fewer trials
 * than that read it as the largest of them (p50: 2, p90: 10, p95: 20, p99: 100).
 */
static size_t trials_needed(enum exp_stat stat)
{
	static const size_t need[] = { [EXP_P50] = 2, [EXP_P90] = 10, [EXP_P95] = 20,
				       [EXP_P99] = 100 };

	return need[stat];
}

/*
 * A warning beside a percentile limit checked on fewer trials than the
 * percentile needs (trials_needed()): its result is the largest value of a
 * few trials (of one trial, that trial's value), not the percentile.
 */
static void few_trials_warning(struct exp_scenario_report *r, const struct exp_item *it,
			       const char *file, const char *what, size_t ntrials)
{
	size_t need = trials_needed(it->stat);
	char *msg;

	if (ntrials >= need)
		return;
	msg = xasprintf("%s over %zu trial%s is %s, not a %s: a %s needs at least %zu trials to "
			"mean anything; set spec.expect.trials or give check -n %zu or more",
			what, ntrials, ntrials == 1 ? "" : "s",
			ntrials == 1 ? "that trial's value" : "near the largest of them",
			stat_text(it->stat), stat_text(it->stat), need, need);
	exp_report_add(r, it->name, EXP_WARNED, NULL, NULL, msg, file, it->mark);
	free(msg);
}

/*
 * Where timeToComplete counts from in a run that did not start with the
 * rollout (exp_set.resumed, from_snapshot), as words for its result after
 * "; ", or NULL when it counts from the scenario's start.  Returns new.
 */
static char *ttc_origin(const struct exp_set *e)
{
	char at[GT_RFC3339_BUFSZ], taken[GT_DURATION_BUFSZ];

	if (e->resumed) {
		gt_format_rfc3339(e->origin_unix_ms, at, sizeof(at));
		gt_format_duration(e->resumed_ms, taken, sizeof(taken));
		return xasprintf("the whole rollout's, counted from the original run's start, %s, "
				 "as that run counts it; the snapshot was taken at %s of it",
				 at, taken);
	}
	if (e->from_snapshot) {
		gt_format_rfc3339(e->start_unix_ms, at, sizeof(at));
		return xasprintf("what is left, counted from the snapshot, %s: its Rollouts and "
				 "FleetRollouts do not record when the rollout under way began", at);
	}
	return NULL;
}

static void eval_dist(struct exp_scenario_report *r, const struct exp_set *e,
		      const struct exp_item *it, const char *file, const struct plan_stats *st)
{
	const struct plan_dist *d = dist_of(it, st);
	char what[96], extra[64] = "";
	double v;
	bool cens = false;
	/* a resumed run's time to complete is the whole rollout's: on the original run's clock */
	int64_t shift = it->kind == EXP_TTC && e->resumed ? e->resumed_ms : 0;
	char *origin = it->kind == EXP_TTC ? ttc_origin(e) : NULL, *tail;

	if (it->stat == EXP_EVERY)
		snprintf(what, sizeof(what), "%s%s", metric_text(it->kind, it->unit),
			 st->ntrials > 1 ? " (every trial)" : "");
	else
		snprintf(what, sizeof(what), "%s %s", stat_text(it->stat),
			 metric_text(it->kind, it->unit));
	if (d && d->n == 0 && it->kind == EXP_TTC && st->complete.n > 0 &&
	    st->complete.k == st->complete.n) {
		/*
		 * Every trial completed and none took time: its Rollouts have no
		 * steps (Ready/NoSteps, a no-op upstream) or were complete when the
		 * run started.  Nothing was waited for, so the time is 0: any max
		 * passes, a min above 0 does not.
		 */
		snprintf(extra, sizeof(extra), " (%zu trial%s with nothing to complete)",
			 st->complete.n, st->complete.n == 1 ? "" : "s");
		if (e->resumed && e->done_before_ms >= 0) {
			/* complete before the snapshot: the whole rollout's time is when, as carried */
			tail = xasprintf(" (%zu trial%s with nothing to complete: complete before the "
					 "snapshot; %s)", st->complete.n, st->complete.n == 1 ? "" : "s",
					 origin);
			compare(r, it, file, what, (double)e->done_before_ms, false,
				st->horizon_ms + shift, tail);
			free(tail);
		} else {
			compare(r, it, file, what, 0, false, st->horizon_ms, extra);
		}
		free(origin);
		return;
	}
	if (!d || d->n == 0) {
		char *limit = fmt_limit(it);
		char *msg = xasprintf("%s: no trial has a value (nothing to measure)", what);

		exp_report_add(r, it->name, EXP_FAILED, "none", limit, msg, file, it->mark);
		free(msg);
		free(limit);
		free(origin);
		return;
	}
	switch (it->stat) {
	case EXP_P50: case EXP_P90: case EXP_P95: case EXP_P99: {
		int k = (int)it->stat - (int)EXP_P50;

		v = d->p[k];
		cens = d->p_censored[k];
		break;
	}
	case EXP_MEAN:
		v = d->mean;
		/* The mean of the uncensored values understates a censored set. */
		cens = d->ncensored > 0;
		break;
	case EXP_MAX:
		v = d->max;
		cens = d->ncensored > 0;
		break;
	case EXP_MIN:
		v = d->min;
		cens = d->ncensored == d->n;
		break;
	case EXP_EVERY:
	default:
		/* Every trial: a max limit reads the largest value, a min limit the smallest. */
		if (it->has_max) {
			v = d->max;
			cens = d->ncensored > 0;
			if (!cens && it->has_min && d->min < it->min)
				v = d->min;
		} else {
			v = d->min;
			cens = d->ncensored == d->n;
		}
		break;
	}
	if (it->stat >= EXP_P50 && it->stat <= EXP_P99)
		snprintf(extra, sizeof(extra), "%s over %zu trial%s", stat_text(it->stat),
			 st->ntrials, st->ntrials == 1 ? "" : "s");
	else if (st->ntrials > 1)
		snprintf(extra, sizeof(extra), "%zu trials", st->ntrials);
	tail = extra[0] || origin ? xasprintf(" (%s%s%s)", extra, extra[0] && origin ? "; " : "",
					      origin ? origin : "")
				  : xstrdup("");
	compare(r, it, file, what, v + (double)shift, cens, st->horizon_ms + shift, tail);
	free(tail);
	free(origin);
	if (it->stat >= EXP_P50 && it->stat <= EXP_P99)
		few_trials_warning(r, it, file, what, st->ntrials);
}

static void eval_prop(struct exp_scenario_report *r, const struct exp_item *it, const char *file,
		      const struct plan_prop *pp)
{
	char extra[96];

	snprintf(extra, sizeof(extra), " (%zu of %zu trials)", pp->k, pp->n);
	compare(r, it, file, metric_text(it->kind, it->unit), pp->p, false, 0, extra);
}

static void eval_completes(struct exp_scenario_report *r, const struct exp_item *it,
			   const char *file, const struct plan_stats *st)
{
	char mv[64], *msg;
	bool pass = it->want ? st->complete.k == st->complete.n && st->complete.n > 0
			     : st->complete.k == 0;

	snprintf(mv, sizeof(mv), "%zu of %zu trials completed", st->complete.k, st->complete.n);
	if (pass)
		msg = xasprintf("%s, as expected", mv);
	else if (it->want)
		msg = xasprintf("expected every trial to complete, but %zu of %zu did not (by the horizon)",
				st->complete.n - st->complete.k, st->complete.n);
	else
		msg = xasprintf("expected the change never to complete, but %s", mv);
	exp_report_add(r, it->name, pass ? EXP_PASSED : EXP_FAILED, mv,
		       it->want ? "completes" : "does not complete", msg, file, it->mark);
	free(msg);
}

/* Whether @ph is step/wave @name ("step prod", "wave canary" as sim/plan/trials.h names them). */
static bool phase_named(const struct trial_phase *ph, const char *name, bool wave)
{
	return ph->name && !strncmp(ph->name, wave ? "wave " : "step ", 5) &&
	       !strcmp(ph->name + 5, name);
}

static void eval_halts_before(struct exp_scenario_report *r, const struct exp_item *it,
			      const char *file, const struct trial_row *rows, size_t nrows)
{
	size_t halted = 0, late = 0;
	const struct trial_row *first_late = NULL;
	const struct trial_phase *first_ph = NULL;
	const char *what = it->wave ? "wave" : "step";
	char mv[96], lim[160], *msg;

	for (size_t i = 0; i < nrows; i++) {
		const struct trial_row *row = &rows[i];

		if (!row->halted)
			continue;
		halted++;
		/* Phases of every driver with that name: the halt must precede each opening. */
		for (size_t k = 0; k < row->nphases; k++) {
			const struct trial_phase *ph = &row->phases[k];

			if (!phase_named(ph, it->phase, it->wave))
				continue;
			if (ph->opened_ms >= 0 && ph->opened_ms <= row->halt_ms) {
				late++;
				if (!first_late) {
					first_late = row;
					first_ph = ph;
				}
				break;
			}
		}
	}
	snprintf(mv, sizeof(mv), "%zu of %zu halted trials halted after %s %s opened", late,
		 halted, what, it->phase);
	snprintf(lim, sizeof(lim), "every halt before %s %s opens", what, it->phase);
	if (!late) {
		msg = xasprintf("%zu of %zu trials halted, each before %s %s opened", halted, nrows,
				what, it->phase);
	} else {
		char h[GT_DURATION_BUFSZ], o[GT_DURATION_BUFSZ];

		gt_format_duration(first_late->halt_ms, h, sizeof(h));
		gt_format_duration(first_ph->opened_ms, o, sizeof(o));
		msg = xasprintf("trial %u halted at %s%s%s, after %s %s opened at %s (%zu of %zu halted trials did)",
				first_late->index, h, first_late->halt_where ? " in " : "",
				first_late->halt_where ? first_late->halt_where : "", what,
				it->phase, o, late, halted);
	}
	exp_report_add(r, it->name, late ? EXP_FAILED : EXP_PASSED, mv, lim, msg, file, it->mark);
	free(msg);
}

/* "Workspace default/shop-prod" for messages. */
static char *object_text(const struct val *partial)
{
	const char *kind = val_str(val_map_get(partial, "kind"), "?");
	const char *name = val_str(val_path(partial, "metadata.name"), NULL);
	const char *ns = val_str(val_path(partial, "metadata.namespace"), NULL);

	if (!name)
		return xasprintf("%s%s%s", kind, ns ? " in namespace " : "", ns ? ns : "");
	return xasprintf("%s \"%s%s%s\"", kind, ns ? ns : "", ns ? "/" : "", name);
}

/* Why a run ended before an expectation's `at`, for its message. */
static const char *stop_text(enum des_stop stop)
{
	switch (stop) {
	case DES_STOPPED:
		return "the change completed, and `check` ends a run there";
	case DES_HORIZON:
		return "the horizon";
	case DES_BUDGET:
		return "the event budget stopped it";
	case DES_LOOP:
		return "a zero-delay loop stopped it";
	case DES_QUIESCENT:
		return "nothing was left to happen";
	}
	return "?";
}

/*
 * @resumed_ms: exp_set.resumed_ms; the message gives times on the Scenario's
 * clock (the original run's), where the expectation's `at` is.
 */
static void eval_object(struct exp_scenario_report *r, const struct exp_item *it,
			const char *file, const struct exp_probes *p, size_t idx, int64_t resumed_ms)
{
	const struct exp_objcheck *oc = p ? &p->checks[idx] : NULL;
	char *ot = object_text(it->object), *msg, mv[96], when[GT_DURATION_BUFSZ + 16];
	const char *lim = it->kind == EXP_ASSERT ? "an object matches" : "no object matches";

	if (oc && oc->before_start) {
		char at[GT_DURATION_BUFSZ], start[GT_DURATION_BUFSZ];

		gt_format_duration(it->at_ms, at, sizeof(at));
		gt_format_duration(resumed_ms, start, sizeof(start));
		msg = xasprintf("%s: not evaluated: the expectation's time %s is before the snapshot "
				"this run resumes from (taken at %s of the original run): the state "
				"then is not in the snapshot; check it on the original run, or give an "
				"`at` of %s or later",
				ot, at, start, start);
		exp_report_add(r, it->name, EXP_FAILED, "not evaluated", lim, msg, file, it->mark);
		free(msg);
		free(ot);
		return;
	}
	if (oc && oc->unreached) {
		char end[GT_DURATION_BUFSZ], at[GT_DURATION_BUFSZ], hz[GT_DURATION_BUFSZ];

		gt_format_duration(oc->end_ms + resumed_ms, end, sizeof(end));
		gt_format_duration(it->at_ms, at, sizeof(at));
		gt_format_duration(r->fig.horizon_ms + resumed_ms, hz, sizeof(hz));
		if (it->at_ms > r->fig.horizon_ms + resumed_ms)
			msg = xasprintf("%s: not evaluated: the run ended at %s (%s), before the "
					"expectation's time %s, which is after the horizon %s: give "
					"an `at` within it, or a later spec.horizon",
					ot, end, stop_text(oc->stop), at, hz);
		else
			msg = xasprintf("%s: not evaluated: the run ended at %s (%s), before the "
					"expectation's time %s%s",
					ot, end, stop_text(oc->stop), at,
					oc->stop == DES_STOPPED ?
						": give an earlier `at`, leave `at` out for the final "
						"state, or run `check --until horizon`" : "");
		exp_report_add(r, it->name, EXP_FAILED, "not evaluated", lim, msg, file, it->mark);
		free(msg);
		free(ot);
		return;
	}
	if (!oc || !oc->done) {
		msg = xasprintf("%s: not evaluated (trial 0 did not run)", ot);
		exp_report_add(r, it->name, EXP_FAILED, "not evaluated", lim, msg, file, it->mark);
		free(msg);
		free(ot);
		return;
	}
	gt_format_duration(oc->at_ms + resumed_ms, when, sizeof(when));
	if (oc->at_end)
		strcat(when, " (end of run)");
	snprintf(mv, sizeof(mv), "%zu of %zu matched at %s", oc->nmatched, oc->nkind, when);
	if (it->kind == EXP_ASSERT)
		msg = oc->pass ? xasprintf("%s matches at %s", ot, when)
			       : oc->nkind ? xasprintf("%s does not match at %s: %s (%zu object%s with that identity)",
						       ot, when, oc->mismatch, oc->nkind, oc->nkind == 1 ? "" : "s")
					   : xasprintf("no %s exists at %s", ot, when);
	else
		msg = oc->pass ? xasprintf("no %s matches at %s, as expected", ot, when)
			       : xasprintf("%s matches at %s, but it should not", ot, when);
	exp_report_add(r, it->name, oc->pass ? EXP_PASSED : EXP_FAILED, mv, lim, msg, file,
		       it->mark);
	free(msg);
	free(ot);
}

/*
 * The key figures; a resumed run's times to complete are the whole
 * rollout's, as eval_dist() reads them: with none in the run (complete when
 * loaded), the completion the snapshot carries.
 */
static void fill_figures(struct exp_figures *f, const struct exp_set *e, const struct plan_stats *st)
{
	int64_t shift = e->resumed ? e->resumed_ms : 0;

	memset(f, 0, sizeof(*f));
	f->have = st->ntrials > 0;
	f->ntrials = st->ntrials;
	f->horizon_ms = st->horizon_ms + shift;
	f->ttc_p50 = st->ttc.p[PLAN_P50] + (double)shift;
	f->ttc_p95 = st->ttc.p[PLAN_P95] + (double)shift;
	if (st->ttc.n == 0) {
		f->ttc_p50 = st->ttc.p[PLAN_P50];
		f->ttc_p95 = st->ttc.p[PLAN_P95];
		if (e->resumed && e->done_before_ms >= 0)
			f->ttc_p50 = f->ttc_p95 = (double)e->done_before_ms;
	}
	f->ttc_from = e->resumed ? "counted from the original run's start"
		      : e->from_snapshot ? "counted from the snapshot" : NULL;
	f->ttc_p50_censored = st->ttc.p_censored[PLAN_P50];
	f->ttc_p95_censored = st->ttc.p_censored[PLAN_P95];
	f->completed = st->complete.k;
	f->halted = st->halt.k;
	f->blast_max = st->blast_count.n ? st->blast_count.max : 0;
	f->blast_share_max = st->blast_share.n ? st->blast_share.max : 0;
}

void exp_evaluate(const struct exp_set *e, const struct plan_stats *st,
		  const struct trial_row *rows, size_t nrows, const struct exp_probes *p,
		  struct exp_scenario_report *out)
{
	const char *file = e->file;

	fill_figures(&out->fig, e, st);
	if (st->nbound > 0) {
		char mv[64], *msg;

		snprintf(mv, sizeof(mv), "%zu of %zu trials", st->nbound, st->ntrials);
		msg = xasprintf("%s were stopped by the zero-delay loop or event budget bound (see `magos-sim run`)",
				mv);
		exp_report_add(out, "bounds", EXP_FAILED, mv, "no run stopped by a bound", msg, file,
			       (struct val_mark){ 0, 0 });
		free(msg);
	}
	for (size_t i = 0; i < e->n; i++) {
		const struct exp_item *it = &e->items[i];

		switch (it->kind) {
		case EXP_COMPLETES:
			eval_completes(out, it, file, st);
			break;
		case EXP_HALT_PROB:
			eval_prop(out, it, file, &st->halt);
			break;
		case EXP_COMPLETE_PROB:
			eval_prop(out, it, file, &st->complete);
			break;
		case EXP_HALTS_BEFORE:
			eval_halts_before(out, it, file, rows, nrows);
			break;
		case EXP_ASSERT:
		case EXP_ERROR:
			eval_object(out, it, file, p, i, e->resumed_ms);
			break;
		default:
			eval_dist(out, e, it, file, st);
			break;
		}
	}
}

int exp_lint_variants(struct lint_report *r, const struct scenario *s, struct diag *d)
{
	struct var_set vs;
	int rc = 0;

	if (var_parse(s, &vs, d) != 0)
		rc = -1;
	for (size_t i = 0; i < vs.n; i++) {
		struct var_scenario v = { 0 };
		struct lint_report vr;

		/* (var_parse() told its errors; applying it would tell them again) */
		if (vs.v[i].invalid)
			continue;
		/* An error of applying names the variant already: @d's, not a prefixed finding. */
		if (var_apply(s, &vs.v[i], &v, d) != 0) {
			rc = -1;
			continue;
		}
		lint_report_init(&vr);
		lint_scenario(&vr, &v.s);
		lint_drop_read_series(r, &v.s);
		lint_merge_variant(r, &vr, vs.v[i].name);
		var_scenario_release(&v);
		lint_report_release(&vr);
	}
	var_set_release(&vs);
	return rc;
}
