/* The change-review JSON document (schema in reports/compare_json.h). */
#include "reports/compare_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include "reports/tool.h"

static const char *const unit_name[] = {
	[CMP_UNIT_MS] = "ms",
	[CMP_UNIT_RATIO] = "ratio",
	[CMP_UNIT_COUNT] = "count",
};

/* A figure in @unit: null for NaN, an integer for ms, else a real. */
static json_t *fig(double v, enum cmp_unit unit)
{
	json_t *j;

	if (!isfinite(v))
		return json_null();
	if (unit == CMP_UNIT_MS)
		return json_integer((json_int_t)llround(v));
	j = json_real(v);
	return j ? j : json_null();
}

static json_t *side(const char *name, const char *const *files, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(files[i]));
	return json_pack("{s:s?,s:o}", "name", name, "files", a);
}

static json_t *u64(uint64_t v)
{
	char buf[32];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

int rep_cmp_json(FILE *f, const struct rep_cmp *c)
{
	const struct cmp_result *r = c->r;
	json_t *doc = json_object(), *ms = json_array(), *ls = json_array();
	int rc;

	errno = 0;
	json_object_set_new(doc, "schema", json_string("magos-sim/compare/v1"));
	json_object_set_new(doc, "tool", json_pack("{s:s,s:s,s:s}", "name", tool_name(), "version", tool_version(), "commit", tool_commit()));
	json_object_set_new(doc, "base", side(c->base_name, c->base_files, c->nbase_files));
	json_object_set_new(doc, "head", side(c->head_name, c->head_files, c->nhead_files));
	json_object_set_new(doc, "n", json_integer((json_int_t)r->n));
	json_object_set_new(doc, "seed", u64(r->seed));
	json_object_set_new(doc, "horizon_ms", json_integer((json_int_t)r->horizon_ms));
	json_object_set_new(doc, "resumed_ms", json_integer((json_int_t)c->resumed_ms));
	json_object_set_new(doc, "resamples", json_integer((json_int_t)r->resamples));
	json_object_set_new(doc, "nbound", json_pack("{s:I,s:I}", "base", (json_int_t)r->nbound[0],
						     "head", (json_int_t)r->nbound[1]));
	for (int k = 0; k < CMP_NMETRICS; k++) {
		const struct cmp_metric *m = &r->m[k];
		json_t *o = json_object();

		json_object_set_new(o, "key", json_string(m->key));
		json_object_set_new(o, "method", json_string(cmp_method_name(m->method)));
		json_object_set_new(o, "unit", json_string(unit_name[m->unit]));
		json_object_set_new(o, "base", m->base_censored ? json_string(">horizon")
								: fig(m->base, m->unit));
		json_object_set_new(o, "head", m->head_censored ? json_string(">horizon")
								: fig(m->head, m->unit));
		json_object_set_new(o, "delta", fig(m->delta, m->unit));
		json_object_set_new(o, "delta_pct", fig(m->delta_pct, CMP_UNIT_RATIO));
		json_object_set_new(o, "ci95",
				    isnan(m->lo) ? json_null()
						 : json_pack("[o,o]", fig(m->lo, m->unit),
							     fig(m->hi, m->unit)));
		json_object_set_new(o, "p_value", fig(m->p_value, CMP_UNIT_RATIO));
		json_object_set_new(o, "npairs", json_integer((json_int_t)m->npairs));
		json_object_set_new(o, "significant", json_boolean(m->significant));
		json_object_set_new(o, "worse", json_boolean(m->worse));
		json_array_append_new(ms, o);
	}
	json_object_set_new(doc, "metrics", ms);
	for (size_t i = 0; i < c->nlimits; i++)
		json_array_append_new(ls, json_pack("{s:s,s:s,s:b}", "limit", c->limits[i].text,
						    "metric", r->m[c->limits[i].metric].key, "failed",
						    cmp_limit_failed(r, &c->limits[i])));
	json_object_set_new(doc, "limits", ls);
	json_object_set_new(doc, "failed", json_boolean(rep_cmp_failed(c) > 0));
	rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(doc);
	if (rc != 0 || fputc('\n', f) == EOF || ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
