/*
 * The Scenario document (apiVersion magos-sim/v1alpha1, kind Scenario):
 * its schema down to the sections, its core keys (seed, horizon, start,
 * include, api, limits; expect, variants, sweep and models also kept as
 * written for sim/plan), and its processing as soon as the inputs meet it:
 * validated, its run parameters read, each section handed to its file.
 */
#include "sim/load/scn_parse.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"

/* Keys of later versions of the Scenario format, refused with a clear message. */
static const char *const future_keys[] = { NULL };

/* ---------------------------------------------------------------- schema */

static const char *const scenario_kinds[] = { SCN_KIND, NULL };

static void check_seed(struct sch_ctx *c, const struct val *v, const char *path);
static void check_start(struct sch_ctx *c, const struct val *v, const char *path);

/*
 * The seed is a uint64; YAML integers are int64, so 0 .. 2^63-1 can be written.
 * SCH_ANY with its own check so that a number too big for int64 (read as a
 * float by sim/load/yamlload) gets the accepted range as a hint.
 */
static const struct sch_node seed_node = { .type = SCH_ANY, .check = check_seed };
/* Absent keys keep the defaults of scn_init() (read_params() reads what is there): no .dflt. */
static const struct sch_node start_node = { .type = SCH_STRING, .check = check_start };
static const struct sch_node positive_int_node = { .type = SCH_INTEGER, .has_minimum = true,
						   .minimum = 1 };
static const struct sch_node include_item_node = { .type = SCH_STRING, .min_length = 1 };
static const struct sch_node include_node = { .type = SCH_ARRAY, .items = &include_item_node };

static const struct sch_field api_fields[] = {
	{ .name = "latency", .schema = &scnp_ms_duration_node },
	{ .name = "reconcileDuration", .schema = &scnp_ms_duration_node },
	{ .name = NULL },
};
static const struct sch_node api_node = { .type = SCH_OBJECT, .fields = api_fields };

static const struct sch_field limits_fields[] = {
	{ .name = "eventBudget", .schema = &positive_int_node },
	{ .name = "eventsPerInstant", .schema = &positive_int_node },
	{ .name = NULL },
};
static const struct sch_node limits_node = { .type = SCH_OBJECT, .fields = limits_fields };

/*
 * The sections validated on their own, each by its file, after the document
 * (scnp_process_scenario()): one bad item of a list leaves the others usable,
 * and a section that validated cleanly is read.
 */
static const struct sch_node events_node = { .type = SCH_ARRAY };
static const struct sch_node models_any_node = { .type = SCH_ANY };
static const struct sch_node metrics_list_node = { .type = SCH_ARRAY };
static const struct sch_node fleet_any_node = { .type = SCH_ANY };
static const struct sch_node generate_list_node = { .type = SCH_ARRAY };
/* Kept as written and parsed by sim/plan/expect.h, sim/plan/variant.h and sim/plan/sweep.h. */
static const struct sch_node expect_any_node = { .type = SCH_ANY };
static const struct sch_node variants_list_node = { .type = SCH_ARRAY };
static const struct sch_node sweep_any_node = { .type = SCH_OBJECT, .preserve_unknown = true };

static const struct sch_field spec_fields[] = {
	{ .name = "seed", .schema = &seed_node },
	{ .name = "horizon", .schema = &scnp_positive_duration_node },
	{ .name = "start", .schema = &start_node },
	{ .name = "include", .schema = &include_node },
	{ .name = "api", .schema = &api_node },
	{ .name = "limits", .schema = &limits_node },
	{ .name = "events", .schema = &events_node },
	{ .name = "models", .schema = &models_any_node },
	{ .name = "metrics", .schema = &metrics_list_node },
	{ .name = "fleet", .schema = &fleet_any_node },
	{ .name = "generate", .schema = &generate_list_node },
	/* sim/plan/expect.h parses it: it knows the metrics. */
	{ .name = "expect", .schema = &expect_any_node },
	{ .name = "variants", .schema = &variants_list_node },
	{ .name = "sweep", .schema = &sweep_any_node },
	{ .name = NULL },
};
static const struct sch_node spec_node = { .type = SCH_OBJECT, .fields = spec_fields };

static const struct sch_field metadata_fields[] = {
	{ .name = "name", .schema = &sch_string_nonempty, .required = true },
	{ .name = NULL },
};
static const struct sch_node metadata_node = { .type = SCH_OBJECT, .fields = metadata_fields };

static const struct sch_node kind_node = { .type = SCH_STRING, .enum_values = scenario_kinds };

static const struct sch_field scenario_fields[] = {
	{ .name = "apiVersion", .schema = &sch_string, .required = true },
	{ .name = "kind", .schema = &kind_node, .required = true },
	{ .name = "metadata", .schema = &metadata_node, .required = true },
	{ .name = "spec", .schema = &spec_node, .dflt = "{}" },
	{ .name = NULL },
};
static const struct sch_node scenario_node = { .type = SCH_OBJECT, .fields = scenario_fields };

/*
 * big_seed() - a plain integer above 2^63-1 and at most 2^64-1 (the trial
 * seeds `run -n` prints in its CSV and JSON reach there), which the YAML
 * reader keeps as a float with its text: its value into @out, 0; else -1.
 */
static int big_seed(const struct val *v, uint64_t *out)
{
	unsigned long long u;
	char *end;

	if (v->type != VAL_FLOAT || !v->raw || !v->raw[0] ||
	    v->raw[strspn(v->raw, "0123456789")] != '\0')
		return -1;
	errno = 0;
	u = strtoull(v->raw, &end, 10);
	if (errno || *end)
		return -1;
	*out = (uint64_t)u;
	return 0;
}

/* check_seed() - an integer 0 .. 2^64-1, the range of the seeds trials print. */
static void check_seed(struct sch_ctx *c, const struct val *v, const char *path)
{
	char *q = sch_quote(v);
	uint64_t big;

	if (v->type == VAL_FLOAT && big_seed(v, &big) == 0) {
		/* accepted: above what a YAML integer holds, within the seed's range */
	} else if (v->type == VAL_INT) {
		if (v->u.i < 0)
			sch_report(c, v->mark, path,
				   "Invalid value: %s: %s in body should be greater than or equal to 0",
				   q, path);
	} else {
		sch_report(c, v->mark, path,
			   "Invalid value: \"%s\": %s in body must be of type integer: %s",
			   val_type_name(v->type), path, q);
		if (v->type == VAL_FLOAT && v->raw && v->raw[strspn(v->raw, "+-0123456789")] == '\0')
			sch_note(c, v->mark,
				 "a seed is an integer from 0 to 18446744073709551615, as "
				 "the trial seeds of run -n's CSV and JSON");
	}
	free(q);
}

static void check_start(struct sch_ctx *c, const struct val *v, const char *path)
{
	char err[160];
	int64_t ms;

	if (gt_parse_rfc3339(val_str(v, ""), &ms, err, sizeof(err)) != 0) {
		sch_report(c, v->mark, path, "Invalid value: \"%s\": %s", val_str(v, ""), err);
		sch_note(c, v->mark, "expected an RFC 3339 time such as 2026-01-01T00:00:00Z");
	}
}

/* ---------------------------------------------------------------- the Scenario document */

static const char *const spec_key_list =
	"seed, horizon, start, include, api, limits, events, models, metrics, fleet, generate, expect, "
	"variants, sweep";

/* read_params() - the run parameters of a validated (possibly faulty) Scenario @root. */
static void read_params(struct scenario *s, const struct val *root)
{
	const struct val *spec = val_map_get(root, "spec");
	const struct val *v;
	int64_t ms;

	v = val_path(root, "metadata.name");
	if (v && v->type == VAL_STRING && v->u.s[0]) {
		free(s->name);
		s->name = xstrdup(v->u.s);
	}
	v = val_map_get(spec, "seed");
	if (v && v->type == VAL_INT && v->u.i >= 0)
		s->seed = (uint64_t)v->u.i;
	else if (v)
		(void)big_seed(v, &s->seed);
	v = val_map_get(spec, "horizon");
	if (v && v->type == VAL_STRING && gt_parse_duration(v->u.s, &ms, NULL, 0) == 0 && ms > 0)
		s->horizon_ms = ms;
	v = val_map_get(spec, "start");
	if (v && v->type == VAL_STRING && gt_parse_rfc3339(v->u.s, &ms, NULL, 0) == 0) {
		s->start_unix_ms = ms;
		s->clock = SCN_CLOCK_START;
	}
	v = val_path(spec, "api.latency");
	if (v && v->type == VAL_STRING && gt_parse_duration(v->u.s, &ms, NULL, 0) == 0 && ms >= 0)
		s->api_latency_ms = ms;
	v = val_path(spec, "api.reconcileDuration");
	if (v && v->type == VAL_STRING && gt_parse_duration(v->u.s, &ms, NULL, 0) == 0 && ms >= 0)
		s->reconcile_ms = ms;
	v = val_path(spec, "limits.eventBudget");
	if (v && v->type == VAL_INT && v->u.i > 0)
		s->event_budget = (uint64_t)v->u.i;
	v = val_path(spec, "limits.eventsPerInstant");
	if (v && v->type == VAL_INT && v->u.i > 0)
		s->events_per_instant = (uint64_t)v->u.i;
}

/*
 * spec.limits asks for a budget; `--limit run-events` is what the command
 * line allows one run.  Asking for more is an error naming both, so that a
 * scenario cannot make a run (or each of a command's trials) go on without
 * end; the budget by the objects is capped instead (scn_event_budget()).
 */
static void check_event_limits(struct loader *L, struct val *spec, const char *file)
{
	static const char *const keys[] = { "eventBudget", "eventsPerInstant" };
	uint64_t max = L->lim->v[LIM_RUN_EVENTS];

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		char path[40];
		const struct val *v;

		snprintf(path, sizeof(path), "limits.%s", keys[k]);
		v = val_path(spec, path);
		if (!v || v->type != VAL_INT || v->u.i <= 0 || (uint64_t)v->u.i <= max)
			continue;
		diag_error(L->d, file, v->mark,
			   "spec.limits.%s: Invalid value: %" PRId64 ": more than the %llu events "
			   "one run may take %s",
			   keys[k], v->u.i, (unsigned long long)max, lim_hint(LIM_RUN_EVENTS));
	}
}

/*
 * The keys of later format versions are reported and removed first, so that
 * they are not also reported as unknown; then the document is validated down
 * to its sections, and each section by its own file.
 */
void scnp_process_scenario(struct loader *L, struct val *root, const char *file)
{
	/* .user: the section checks read the load's bounds (sim/base/limits.h). */
	struct sch_ctx c = { .d = L->d, .file = file, .root = root, .user = L };
	const struct val_kv *av = val_map_get_kv(root, "apiVersion");
	struct val *spec = val_map_get(root, "spec");
	struct val *events, *models, *fleet, *metrics, *gen;

	if (av && av->v->type == VAL_STRING && strcmp(av->v->u.s, SCN_API_VERSION) != 0) {
		diag_error(L->d, file, av->v->mark,
			   "apiVersion: Unsupported value: \"%s\": supported values: \"%s\"",
			   av->v->u.s, SCN_API_VERSION);
	}
	if (spec && spec->type == VAL_MAP) {
		for (size_t i = 0; future_keys[i]; i++) {
			const struct val_kv *kv = val_map_get_kv(spec, future_keys[i]);

			if (!kv)
				continue;
			diag_error(L->d, file, kv->key_mark,
				   "'%s' is not supported by this version of magos-sim",
				   future_keys[i]);
			diag_note(L->d, file, kv->key_mark, "accepted keys in spec: %s",
				  spec_key_list);
			val_map_del(spec, future_keys[i]);
		}
	}
	sch_validate(&scenario_node, root, "", &c);
	/*
	 * Validation prunes a null `spec:` and defaults it to {}: the node read
	 * above may be freed, so look it up again.
	 */
	spec = val_map_get(root, "spec");
	read_params(L->s, root);
	if (spec && spec->type == VAL_MAP)
		check_event_limits(L, spec, file);
	if (spec && spec->type == VAL_MAP && val_map_get(spec, "expect")) {
		L->s->expect = val_copy(val_map_get(spec, "expect"));
		L->s->expect_file = file;
	}
	if (spec && spec->type == VAL_MAP) {
		/* Raw copies for sim/plan/variant.h and sim/plan/sweep.h (they re-read models). */
		L->s->variants = val_copy(val_map_get(spec, "variants"));
		L->s->sweep = val_copy(val_map_get(spec, "sweep"));
		L->s->models_raw = val_copy(val_map_get(spec, "models"));
	}

	models = val_path(root, "spec.models");
	if (models)
		scnp_models_process(L, models, &c);
	fleet = val_path(root, "spec.fleet");
	if (fleet)
		scnp_fleet_process(L, fleet, &c);
	metrics = val_path(root, "spec.metrics");
	if (metrics && metrics->type == VAL_LIST)
		scnp_metrics_process(L, metrics, &c);
	gen = val_path(root, "spec.generate");
	if (gen && gen->type == VAL_LIST)
		scnp_generate_validate(L, gen, &c);
	events = val_path(root, "spec.events");
	if (events && events->type == VAL_LIST)
		scnp_events_validate(L, events, &c);
}
