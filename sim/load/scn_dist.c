/*
 * A `duration` field of the models (spec.models jobs and stagesets, and
 * their rules): a Go duration string, the constant shorthand, or a map with
 * exactly one distribution key.  Its schema, its checks (a pair of
 * parameters where two forms exist, histogram bins against weights,
 * dist_validate()) and its reading into a struct dist (sim/load/dist.h).
 */
#include "sim/load/scn_parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"

static void check_dist(struct sch_ctx *c, const struct val *v, const char *path);
static void check_dist_object(struct sch_ctx *c, const struct val *v, const char *path);

static const struct sch_node number_node = { .type = SCH_NUMBER };
static const struct sch_node dur_list_node = { .type = SCH_ARRAY,
					       .items = &scnp_nonneg_duration_node,
					       .min_items = 1 };
static const struct sch_node edges_node = { .type = SCH_ARRAY,
					    .items = &scnp_nonneg_duration_node, .min_items = 2 };
static const struct sch_node weights_node = { .type = SCH_ARRAY, .items = &number_node,
					      .min_items = 1 };

static const struct sch_field uniform_fields[] = {
	{ .name = "min", .schema = &scnp_nonneg_duration_node, .required = true },
	{ .name = "max", .schema = &scnp_nonneg_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_field exponential_fields[] = {
	{ .name = "mean", .schema = &scnp_nonneg_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_field lognormal_fields[] = {
	{ .name = "median", .schema = &scnp_nonneg_duration_node },
	{ .name = "p95", .schema = &scnp_nonneg_duration_node },
	{ .name = "mu", .schema = &number_node },
	{ .name = "sigma", .schema = &number_node },
	{ .name = NULL },
};
static const struct sch_field normal_fields[] = {
	{ .name = "mean", .schema = &scnp_nonneg_duration_node, .required = true },
	{ .name = "sd", .schema = &scnp_nonneg_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_field gamma_fields[] = {
	{ .name = "shape", .schema = &number_node },
	{ .name = "scale", .schema = &scnp_nonneg_duration_node },
	{ .name = "mean", .schema = &scnp_nonneg_duration_node },
	{ .name = "sd", .schema = &scnp_nonneg_duration_node },
	{ .name = NULL },
};
static const struct sch_field weibull_fields[] = {
	{ .name = "shape", .schema = &number_node, .required = true },
	{ .name = "scale", .schema = &scnp_nonneg_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_field histogram_fields[] = {
	{ .name = "edges", .schema = &edges_node, .required = true },
	{ .name = "weights", .schema = &weights_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node uniform_node = { .type = SCH_OBJECT, .fields = uniform_fields };
static const struct sch_node exponential_node = { .type = SCH_OBJECT,
						  .fields = exponential_fields };
static const struct sch_node lognormal_node = { .type = SCH_OBJECT, .fields = lognormal_fields };
static const struct sch_node normal_node = { .type = SCH_OBJECT, .fields = normal_fields };
static const struct sch_node gamma_node = { .type = SCH_OBJECT, .fields = gamma_fields };
static const struct sch_node weibull_node = { .type = SCH_OBJECT, .fields = weibull_fields };
static const struct sch_node histogram_node = { .type = SCH_OBJECT, .fields = histogram_fields };

/* Distribution kinds, in enum dist_kind order. */
static const char *const dist_names[] = { "constant", "uniform", "exponential", "lognormal",
					  "normal", "gamma", "weibull", "empirical",
					  "histogram", NULL };
static const struct sch_field dist_fields[] = {
	{ .name = "constant", .schema = &scnp_nonneg_duration_node },
	{ .name = "uniform", .schema = &uniform_node },
	{ .name = "exponential", .schema = &exponential_node },
	{ .name = "lognormal", .schema = &lognormal_node },
	{ .name = "normal", .schema = &normal_node },
	{ .name = "gamma", .schema = &gamma_node },
	{ .name = "weibull", .schema = &weibull_node },
	{ .name = "empirical", .schema = &dur_list_node },
	{ .name = "histogram", .schema = &histogram_node },
	{ .name = NULL },
};
/* The map form; a plain duration string is the constant shorthand (check_dist()). */
static const struct sch_node dist_object_node = { .type = SCH_OBJECT, .fields = dist_fields,
						  .check = check_dist_object };
const struct sch_node scnp_dist_node = { .type = SCH_ANY, .check = check_dist };

/* dur_ms() - a validated duration string as ms, keeping sub-ms parts (for distribution parameters). */
static double dur_ms(const struct val *v)
{
	int64_t ns = 0;

	gt_parse_duration_ns(val_str(v, "0s"), &ns, NULL, 0);
	return (double)ns / 1e6;
}

/*
 * read_dist() - the distribution of a validated `duration` value @v: a
 * duration string (constant) or a map with one distribution key.  Durations
 * are in ms; lognormal mu/sigma are of ln(seconds), so mu moves by ln(1000).
 * Fills @d (release with dist_release()).  Returns the kind key's entry, or
 * NULL for the string form.
 */
static const struct val_kv *read_dist(const struct val *v, struct dist *d)
{
	const struct val_kv *kv = NULL;
	const struct val *p;

	dist_init_constant(d, 0);
	if (v->type == VAL_STRING) {
		dist_init_constant(d, dur_ms(v));
		return NULL;
	}
	for (size_t i = 0; dist_names[i] && !kv; i++)
		kv = val_map_get_kv(v, dist_names[i]);
	if (!kv)
		return NULL;
	p = kv->v;
	if (strcmp(kv->key, "constant") == 0) {
		dist_init_constant(d, dur_ms(p));
	} else if (strcmp(kv->key, "uniform") == 0) {
		dist_init_uniform(d, dur_ms(val_map_get(p, "min")), dur_ms(val_map_get(p, "max")));
	} else if (strcmp(kv->key, "exponential") == 0) {
		dist_init_exponential(d, dur_ms(val_map_get(p, "mean")));
	} else if (strcmp(kv->key, "lognormal") == 0) {
		if (val_map_get(p, "median"))
			dist_init_lognormal_median_p95(d, dur_ms(val_map_get(p, "median")),
						       dur_ms(val_map_get(p, "p95")));
		else
			dist_init_lognormal(d, val_num(val_map_get(p, "mu"), 0) + log(1000.0),
					    val_num(val_map_get(p, "sigma"), 0));
	} else if (strcmp(kv->key, "normal") == 0) {
		dist_init_normal(d, dur_ms(val_map_get(p, "mean")), dur_ms(val_map_get(p, "sd")));
	} else if (strcmp(kv->key, "gamma") == 0) {
		if (val_map_get(p, "shape"))
			dist_init_gamma(d, val_num(val_map_get(p, "shape"), 0),
					dur_ms(val_map_get(p, "scale")));
		else
			dist_init_gamma_mean_sd(d, dur_ms(val_map_get(p, "mean")),
						dur_ms(val_map_get(p, "sd")));
	} else if (strcmp(kv->key, "weibull") == 0) {
		dist_init_weibull(d, val_num(val_map_get(p, "shape"), 0),
				  dur_ms(val_map_get(p, "scale")));
	} else if (strcmp(kv->key, "empirical") == 0) {
		size_t n = p->type == VAL_LIST ? p->u.list.n : 0;
		double *xs = xcalloc(n ? n : 1, sizeof(*xs));

		for (size_t i = 0; i < n; i++)
			xs[i] = dur_ms(p->u.list.items[i]);
		dist_init_empirical(d, xs, n);
		free(xs);
	} else if (strcmp(kv->key, "histogram") == 0) {
		const struct val *e = val_map_get(p, "edges"), *w = val_map_get(p, "weights");
		size_t ne = e && e->type == VAL_LIST ? e->u.list.n : 0;
		size_t nw = w && w->type == VAL_LIST ? w->u.list.n : 0;
		double *xe = xcalloc(ne ? ne : 1, sizeof(*xe));
		double *xw = xcalloc(nw ? nw : 1, sizeof(*xw));

		for (size_t i = 0; i < ne; i++)
			xe[i] = dur_ms(e->u.list.items[i]);
		for (size_t i = 0; i < nw; i++)
			xw[i] = val_num(w->u.list.items[i], 0);
		dist_init_histogram(d, xe, xw, ne ? ne - 1 : 0);
		free(xe);
		free(xw);
	}
	return kv;
}

static void check_dist(struct sch_ctx *c, const struct val *v, const char *path)
{
	char *q;

	if (v->type == VAL_STRING) {
		scnp_check_nonneg_duration(c, v, path);
		return;
	}
	if (v->type == VAL_MAP) {
		/* sch_validate() prunes and defaults in place; the tree here is read-only. */
		struct val *copy = val_copy(v);

		sch_validate(&dist_object_node, copy, path, c);
		val_free(copy);
		return;
	}
	q = sch_quote(v);
	sch_report(c, v->mark, path, "Invalid value: %s: must be a duration or a distribution", q);
	if (v->type == VAL_INT || v->type == VAL_FLOAT)
		sch_note(c, v->mark, "a duration needs a unit: ns, us, ms, s, m or h");
	else
		sch_note(c, v->mark,
			 "e.g. 90s, {uniform: {min: 1m, max: 3m}}, {lognormal: {median: 2m, p95: 6m}}");
	free(q);
}

/* needs_pair() - one of two parameter pairs (@a, @b) or (@x, @y) of @v, complete and alone. */
static bool needs_pair(struct sch_ctx *c, const struct val *v, const char *path, const char *a,
		       const char *b, const char *x, const char *y)
{
	bool ha = val_map_get(v, a), hb = val_map_get(v, b);
	bool hx = val_map_get(v, x), hy = val_map_get(v, y);

	if ((ha && hb && !hx && !hy) || (hx && hy && !ha && !hb))
		return true;
	sch_report(c, v->mark, path, "Invalid value: \"object\": give %s and %s, or %s and %s", a,
		   b, x, y);
	return false;
}

static void check_dist_object(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val_kv *first = NULL;
	struct dist d;
	char err[160];
	char *sub;

	for (size_t i = 0; i < v->u.map.n; i++) {
		const struct val_kv *kv = &v->u.map.items[i];

		if (!first) {
			first = kv;
			continue;
		}
		sch_report(c, kv->key_mark, path,
			   "more than one distribution: '%s' and '%s'; give exactly one", first->key,
			   kv->key);
		return;
	}
	if (!first) {
		sch_report(c, v->mark, path, "Invalid value: \"object\": no distribution given");
		sch_note(c, v->mark,
			 "accepted: constant, uniform, exponential, lognormal, normal, gamma, "
			 "weibull, empirical, histogram");
		return;
	}
	sub = xasprintf("%s.%s", path, first->key);
	if (strcmp(first->key, "lognormal") == 0 &&
	    !needs_pair(c, first->v, sub, "median", "p95", "mu", "sigma"))
		goto out_free_sub;
	if (strcmp(first->key, "gamma") == 0 &&
	    !needs_pair(c, first->v, sub, "shape", "scale", "mean", "sd"))
		goto out_free_sub;
	if (strcmp(first->key, "histogram") == 0) {
		const struct val *e = val_map_get(first->v, "edges");
		const struct val *w = val_map_get(first->v, "weights");

		if (e->u.list.n != w->u.list.n + 1) {
			sch_report(c, w->mark, sub,
				   "Invalid value: \"object\": %zu edges make %zu bins, but %zu "
				   "weights are given",
				   e->u.list.n, e->u.list.n - 1, w->u.list.n);
			goto out_free_sub;
		}
	}
	read_dist(v, &d);
	if (dist_validate(&d, err, sizeof(err)) != 0)
		sch_report(c, first->v->mark, sub, "Invalid value: %s: %s",
			   first->v->type == VAL_STRING ? "\"string\"" :
			   first->v->type == VAL_LIST	? "\"array\"" :
							  "\"object\"",
			   err);
	dist_release(&d);
out_free_sub:
	free(sub);
}

void scnp_read_dist(const struct val *v, const char *key, struct dist *d, bool *has)
{
	const struct val *x = val_map_get(v, key);

	if (x) {
		dist_release(d);
		read_dist(x, d);
		*has = true;
	}
}
