/*
 * Scenario loading: inputs → files → YAML documents → one Scenario document
 * plus admitted objects and scripted events.
 *
 * The work is done in passes so that every problem is reported in one run:
 *  1. collect the files (directories expanded, the Scenario's includes added
 *     right after the scenario file) and parse each into documents; the
 *     Scenario document is validated as soon as it is met (its includes are
 *     needed to know which files come next);
 *  2. admit every other document as the API server would (sim/manifest.h);
 *  3. turn the validated `spec.events` into scn_event records, admitting the
 *     `apply` payloads and checking each target against the objects known at
 *     that point of the script.
 */
#include "sim/load/scenario.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/xalloc.h"
#include "engine/stageset.h"
#include "engine/threshold.h"
#include "sim/cluster/admission.h"
#include "sim/base/gotime.h"
#include "sim/load/manifest.h"
#include "sim/cluster/schema.h"
#include "sim/load/yamlload.h"

/* A manifest document waiting for admission. */
struct pending_doc {
	struct val *root;    /* borrowed from a stream in loader.streams */
	const char *file;    /* borrowed from scenario.files */
};

/* A file's identity, to read a file reached twice (by another name) only once. */
struct file_id {
	dev_t dev;
	ino_t ino;
	bool known; /* stat() succeeded */
};

struct loader {
	struct scenario *s;
	struct diag *d;
	struct yl_stream *streams; /* every stream read; released at the end */
	size_t nstreams, capstreams;
	struct file_id *ids;       /* identity of each entry of s->files */
	struct pending_doc *docs;
	size_t ndocs, capdocs;
	struct val *scn;           /* the Scenario document (borrowed from a stream) */
	struct val_mark scn_mark;
	bool *ev_ok;               /* per spec.events item: validated cleanly */
	size_t nev;
	struct man_rejected *rejected; /* identities of refused manifests and apply payloads */
	size_t nrejected;
	/*
	 * spec.metrics entries whose query (and address) could be read, valid or
	 * not: a gate they name is not reported as lacking a series, since the
	 * entry's own errors are already reported.
	 */
	struct claimed_series *claimed;
	size_t nclaimed;
	bool *gen_ok;              /* per spec.generate item: validated cleanly */
	size_t ngen;
	/*
	 * scn_load_static(): plain manifests are not held to what only a run
	 * needs (a synthetic series for every prometheus gate).
	 */
	bool static_only;
	/*
	 * A file had a YAML error and lost documents: a Scenario document may
	 * have been among them, so its absence is not reported again.
	 */
	bool yaml_failed;
};

/* A (query, address) that spec.metrics names; strings borrowed from the Scenario document. */
struct claimed_series {
	const char *query;
	const char *address; /* NULL: any */
	size_t index;        /* in spec.metrics */
	struct val_mark mark;
};

/* Keys of later versions of the Scenario format, refused with a clear message. */
static const char *const future_keys[] = { NULL };

/* ---------------------------------------------------------------- schema */

static const char *const scenario_kinds[] = { SCN_KIND, NULL };

static void check_positive_duration(struct sch_ctx *c, const struct val *v, const char *path);
static void check_nonneg_duration(struct sch_ctx *c, const struct val *v, const char *path);
static void check_ms_duration(struct sch_ctx *c, const struct val *v, const char *path);
static void check_seed(struct sch_ctx *c, const struct val *v, const char *path);
static void check_start(struct sch_ctx *c, const struct val *v, const char *path);
static void check_event(struct sch_ctx *c, const struct val *v, const char *path);
static void check_label_edit(struct sch_ctx *c, const struct val *v, const char *path);
static void check_merge_object(struct sch_ctx *c, const struct val *v, const char *path);
static void check_merge_spec(struct sch_ctx *c, const struct val *v, const char *path);

/*
 * The seed is a uint64; YAML integers are int64, so 0 .. 2^63-1 can be written.
 * SCH_ANY with its own check so that a number too big for int64 (read as a
 * float by sim/yamlload) gets the accepted range as a hint.
 */
static const struct sch_node seed_node = { .type = SCH_ANY, .check = check_seed };
/*
 * Absent keys keep the defaults of scn_init() (read_params() reads what is there): no .dflt.
 * Durations kept as whole ms (the horizon, latencies, event times, windows) use
 * horizon_node or ms_duration_node, which refuse a value that truncation would
 * turn into 0; distribution parameters keep fractions of a ms (dur_ms()) and use
 * nonneg_duration_node.
 */
static const struct sch_node horizon_node = { .type = SCH_ANY, .check = check_positive_duration };
static const struct sch_node nonneg_duration_node = { .type = SCH_ANY,
						      .check = check_nonneg_duration };
static const struct sch_node ms_duration_node = { .type = SCH_ANY, .check = check_ms_duration };
static const struct sch_node start_node = { .type = SCH_STRING, .check = check_start };
static const struct sch_node positive_int_node = { .type = SCH_INTEGER, .has_minimum = true,
						   .minimum = 1 };
static const struct sch_node include_item_node = { .type = SCH_STRING, .min_length = 1 };
static const struct sch_node include_node = { .type = SCH_ARRAY, .items = &include_item_node };

static const struct sch_field api_fields[] = {
	{ .name = "latency", .schema = &ms_duration_node },
	{ .name = "reconcileDuration", .schema = &ms_duration_node },
	{ .name = NULL },
};
static const struct sch_node api_node = { .type = SCH_OBJECT, .fields = api_fields };

static const struct sch_field limits_fields[] = {
	{ .name = "eventBudget", .schema = &positive_int_node },
	{ .name = "eventsPerInstant", .schema = &positive_int_node },
	{ .name = NULL },
};
static const struct sch_node limits_node = { .type = SCH_OBJECT, .fields = limits_fields };

/* Target identity shared by every action but apply. */
#define TARGET_FIELDS                                                         \
	{ .name = "apiVersion", .schema = &sch_string_nonempty },             \
	{ .name = "kind", .schema = &sch_string_nonempty, .required = true },  \
	{ .name = "namespace", .schema = &sch_string },                       \
	{ .name = "name", .schema = &sch_string_nonempty, .required = true }

static const struct sch_field delete_fields[] = { TARGET_FIELDS, { .name = NULL } };
static const struct sch_node delete_node = { .type = SCH_OBJECT, .fields = delete_fields };

static const struct sch_field label_fields[] = {
	TARGET_FIELDS,
	{ .name = "set", .schema = &sch_string_map },
	{ .name = "remove", .schema = &sch_string_list },
	{ .name = NULL },
};
static const struct sch_node label_node = { .type = SCH_OBJECT, .fields = label_fields,
					    .check = check_label_edit };

/* Merge patches keep their nulls (they delete keys), so they are SCH_ANY with a check. */
static const struct sch_node merge_object_node = { .type = SCH_ANY, .check = check_merge_object };
static const struct sch_node merge_status_node = { .type = SCH_ANY, .check = check_merge_spec };

static const struct sch_field patch_fields[] = {
	TARGET_FIELDS,
	{ .name = "merge", .schema = &merge_object_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node patch_node = { .type = SCH_OBJECT, .fields = patch_fields };

static const struct sch_field status_fields[] = {
	TARGET_FIELDS,
	{ .name = "merge", .schema = &merge_status_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node status_node = { .type = SCH_OBJECT, .fields = status_fields };

/* Action keys of an event, in enum scn_event_type order. */
static const char *const action_names[] = { "apply", "delete", "annotate", "label", "patch",
					    "status", NULL };
/* Action keys of a model event, in enum scn_mevent_type order. */
static const char *const maction_names[] = { "commit", "failNext", "succeedNext", "violate",
					     "reconcileRequest", "approve", NULL };
/* Action keys of a fleet event, in enum scn_fevent_type order. */
static const char *const faction_names[] = { "publish", "regress", NULL };

static void check_sha(struct sch_ctx *c, const struct val *v, const char *path);

/* A Workspace named by a model event: kind (only Workspace), namespace, name. */
static const char *const ws_kinds[] = { "Workspace", NULL };
static const struct sch_node ws_kind_node = { .type = SCH_STRING, .enum_values = ws_kinds };
#define WS_TARGET_FIELDS                                                      \
	{ .name = "kind", .schema = &ws_kind_node },                          \
	{ .name = "namespace", .schema = &sch_string },                       \
	{ .name = "name", .schema = &sch_string_nonempty, .required = true }

static const struct sch_node sha_node = { .type = SCH_STRING, .check = check_sha };
static const struct sch_field commit_fields[] = {
	{ .name = "repoURL", .schema = &sch_string_nonempty, .required = true },
	{ .name = "ref", .schema = &sch_string },
	{ .name = "sha", .schema = &sha_node },
	{ .name = NULL },
};
static const struct sch_node commit_node = { .type = SCH_OBJECT, .fields = commit_fields };

static const char *const job_types[] = { "plan", "apply", NULL };
static const struct sch_node job_type_node = { .type = SCH_STRING, .enum_values = job_types };
static const struct sch_field next_fields[] = {
	WS_TARGET_FIELDS,
	{ .name = "job", .schema = &job_type_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node next_node = { .type = SCH_OBJECT, .fields = next_fields };

static const struct sch_field violate_fields[] = {
	WS_TARGET_FIELDS,
	{ .name = "policy", .schema = &sch_string_nonempty, .required = true },
	{ .name = NULL },
};
static const struct sch_node violate_node = { .type = SCH_OBJECT, .fields = violate_fields };

static const struct sch_field rrequest_fields[] = {
	WS_TARGET_FIELDS,
	{ .name = "value", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
static const struct sch_node rrequest_node = { .type = SCH_OBJECT, .fields = rrequest_fields };

static const struct sch_field approve_fields[] = { WS_TARGET_FIELDS, { .name = NULL } };
static const struct sch_node approve_node = { .type = SCH_OBJECT, .fields = approve_fields };

/* Fleet events; their pieces are defined with the fleet-side schema below. */
static void check_version_text(struct sch_ctx *c, const struct val *v, const char *path);
static void check_regress(struct sch_ctx *c, const struct val *v, const char *path);
static const struct sch_node selector_node;
static const struct sch_node version_text_node;
static void check_publish_version(struct sch_ctx *c, const struct val *v, const char *path);
/* A published version: a string; a YAML number is refused (it is no semantic version). */
static const struct sch_node publish_version_node = { .type = SCH_ANY,
						      .check = check_publish_version };

static const struct sch_field publish_fields[] = {
	{ .name = "selector", .schema = &selector_node, .required = true },
	{ .name = "namespaceSelector", .schema = &selector_node },
	{ .name = "version", .schema = &publish_version_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node publish_node = { .type = SCH_OBJECT, .fields = publish_fields };

static const char *const ss_kinds[] = { "StageSet", NULL };
static const struct sch_node ss_kind_node = { .type = SCH_STRING, .enum_values = ss_kinds };
static const struct sch_field regress_fields[] = {
	{ .name = "kind", .schema = &ss_kind_node },
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "selector", .schema = &selector_node },
	{ .name = "for", .schema = &horizon_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node regress_node = { .type = SCH_OBJECT, .fields = regress_fields,
					      .check = check_regress };

static const struct sch_field event_fields[] = {
	{ .name = "at", .schema = &ms_duration_node, .required = true },
	{ .name = "apply", .schema = &sch_any_object },
	{ .name = "delete", .schema = &delete_node },
	{ .name = "annotate", .schema = &label_node },
	{ .name = "label", .schema = &label_node },
	{ .name = "patch", .schema = &patch_node },
	{ .name = "status", .schema = &status_node },
	{ .name = "commit", .schema = &commit_node },
	{ .name = "failNext", .schema = &next_node },
	{ .name = "succeedNext", .schema = &next_node },
	{ .name = "violate", .schema = &violate_node },
	{ .name = "reconcileRequest", .schema = &rrequest_node },
	{ .name = "approve", .schema = &approve_node },
	{ .name = "publish", .schema = &publish_node },
	{ .name = "regress", .schema = &regress_node },
	{ .name = NULL },
};
static const struct sch_node event_node = { .type = SCH_OBJECT, .fields = event_fields,
					    .check = check_event };
/* Events are validated one by one (process_scenario()) to know which ones are usable. */
static const struct sch_node events_node = { .type = SCH_ARRAY };

/* ---------------------------------------------------------------- models schema */

static void check_dist(struct sch_ctx *c, const struct val *v, const char *path);
static void check_dist_object(struct sch_ctx *c, const struct val *v, const char *path);
static void check_probability(struct sch_ctx *c, const struct val *v, const char *path);
static void check_selector(struct sch_ctx *c, const struct val *v, const char *path);
static void check_window(struct sch_ctx *c, const struct val *v, const char *path);
static void check_sha_map(struct sch_ctx *c, const struct val *v, const char *path);

/* Validated on its own (process_scenario()) so that read_models() knows it is clean. */
static const struct sch_node models_any_node = { .type = SCH_ANY };

static const struct sch_node probability_node = { .type = SCH_NUMBER, .has_minimum = true,
						  .minimum = 0, .check = check_probability };
static const struct sch_node number_node = { .type = SCH_NUMBER };
static const struct sch_node dur_list_node = { .type = SCH_ARRAY, .items = &nonneg_duration_node,
					       .min_items = 1 };
static const struct sch_node edges_node = { .type = SCH_ARRAY, .items = &nonneg_duration_node,
					    .min_items = 2 };
static const struct sch_node weights_node = { .type = SCH_ARRAY, .items = &number_node,
					      .min_items = 1 };

static const struct sch_field uniform_fields[] = {
	{ .name = "min", .schema = &nonneg_duration_node, .required = true },
	{ .name = "max", .schema = &nonneg_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_field exponential_fields[] = {
	{ .name = "mean", .schema = &nonneg_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_field lognormal_fields[] = {
	{ .name = "median", .schema = &nonneg_duration_node },
	{ .name = "p95", .schema = &nonneg_duration_node },
	{ .name = "mu", .schema = &number_node },
	{ .name = "sigma", .schema = &number_node },
	{ .name = NULL },
};
static const struct sch_field normal_fields[] = {
	{ .name = "mean", .schema = &nonneg_duration_node, .required = true },
	{ .name = "sd", .schema = &nonneg_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_field gamma_fields[] = {
	{ .name = "shape", .schema = &number_node },
	{ .name = "scale", .schema = &nonneg_duration_node },
	{ .name = "mean", .schema = &nonneg_duration_node },
	{ .name = "sd", .schema = &nonneg_duration_node },
	{ .name = NULL },
};
static const struct sch_field weibull_fields[] = {
	{ .name = "shape", .schema = &number_node, .required = true },
	{ .name = "scale", .schema = &nonneg_duration_node, .required = true },
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
	{ .name = "constant", .schema = &nonneg_duration_node },
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
static const struct sch_node dist_node = { .type = SCH_ANY, .check = check_dist };

static const struct sch_field job_model_fields[] = {
	{ .name = "duration", .schema = &dist_node },
	{ .name = "failureProbability", .schema = &probability_node },
	{ .name = NULL },
};
static const struct sch_node job_model_node = { .type = SCH_OBJECT, .fields = job_model_fields };

static const struct sch_field selector_fields[] = {
	{ .name = "matchExpressions", .schema = &(const struct sch_node){
		.type = SCH_ARRAY,
		.items = &(const struct sch_node){
			.type = SCH_OBJECT,
			.fields = (const struct sch_field[]){
				{ .name = "key", .schema = &sch_string, .required = true },
				{ .name = "operator", .schema = &sch_string, .required = true },
				{ .name = "values", .schema = &sch_string_list },
				{ .name = NULL } } } } },
	{ .name = "matchLabels", .schema = &sch_string_map },
	{ .name = NULL },
};
static const struct sch_node selector_node = { .type = SCH_OBJECT, .fields = selector_fields,
					       .check = check_selector };

static const struct sch_field rule_fields[] = {
	{ .name = "selector", .schema = &selector_node, .required = true },
	{ .name = "plan", .schema = &job_model_node },
	{ .name = "apply", .schema = &job_model_node },
	{ .name = NULL },
};
static const struct sch_node rule_node = { .type = SCH_OBJECT, .fields = rule_fields };
static const struct sch_node rules_node = { .type = SCH_ARRAY, .items = &rule_node };

static const struct sch_node capacity_node = { .type = SCH_INTEGER, .has_minimum = true,
					       .minimum = 1 };
static const struct sch_field jobs_fields[] = {
	{ .name = "capacity", .schema = &capacity_node },
	{ .name = "podStartup", .schema = &ms_duration_node },
	{ .name = "plan", .schema = &job_model_node },
	{ .name = "apply", .schema = &job_model_node },
	{ .name = "rules", .schema = &rules_node },
	{ .name = NULL },
};
static const struct sch_node jobs_node = { .type = SCH_OBJECT, .fields = jobs_fields };

static const struct sch_field policy_model_fields[] = {
	{ .name = "name", .schema = &sch_string_nonempty, .required = true },
	{ .name = "violationProbability", .schema = &probability_node },
	{ .name = NULL },
};
static const struct sch_node policy_model_node = { .type = SCH_OBJECT,
						   .fields = policy_model_fields };
static const struct sch_node policies_node = { .type = SCH_ARRAY, .items = &policy_model_node };

static const struct sch_field window_fields[] = {
	{ .name = "from", .schema = &ms_duration_node, .required = true },
	{ .name = "until", .schema = &ms_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node window_node = { .type = SCH_OBJECT, .fields = window_fields,
					     .check = check_window };
static const struct sch_node windows_node = { .type = SCH_ARRAY, .items = &window_node };
static const struct sch_node sha_map_node = { .type = SCH_MAP, .items = &sch_string,
					      .check = check_sha_map };
static const struct sch_field repo_fields[] = {
	{ .name = "url", .schema = &sch_string_nonempty, .required = true },
	{ .name = "head", .schema = &sch_string_nonempty },
	{ .name = "refs", .schema = &sha_map_node },
	{ .name = "unreachable", .schema = &windows_node },
	{ .name = NULL },
};
static const struct sch_node repo_node = { .type = SCH_OBJECT, .fields = repo_fields };
static const struct sch_node repos_node = { .type = SCH_ARRAY, .items = &repo_node };
static const struct sch_field git_fields[] = {
	{ .name = "repositories", .schema = &repos_node },
	{ .name = NULL },
};
static const struct sch_node git_node = { .type = SCH_OBJECT, .fields = git_fields };

/* ---------------------------------------------------------------- fleet-side schema */

static void check_semver_text(struct sch_ctx *c, const struct val *v, const char *path);
static void check_series_values(struct sch_ctx *c, const struct val *v, const char *path);
static void check_host_pattern(struct sch_ctx *c, const struct val *v, const char *path);
static void check_generate(struct sch_ctx *c, const struct val *v, const char *path);
static void check_weight_sum(struct sch_ctx *c, const struct val *v, const char *path);

/* A version as written: a string, or a plain number kept as its text (`1.10`). */
static const struct sch_node version_text_node = { .type = SCH_ANY, .check = check_version_text };
static const struct sch_node semver_node = { .type = SCH_ANY, .check = check_semver_text };
static const struct sch_node version_list_node = { .type = SCH_ARRAY,
						   .items = &version_text_node };

static const struct sch_field adoption_fields[] = {
	{ .name = "duration", .schema = &dist_node },
	{ .name = "failureProbability", .schema = &probability_node },
	{ .name = NULL },
};
static const struct sch_node adoption_node = { .type = SCH_OBJECT, .fields = adoption_fields };

static const struct sch_field regression_fields[] = {
	{ .name = "probability", .schema = &probability_node },
	{ .name = "duration", .schema = &dist_node },
	{ .name = "after", .schema = &dist_node },
	{ .name = "versions", .schema = &version_list_node },
	{ .name = NULL },
};
static const struct sch_node regression_node = { .type = SCH_OBJECT,
						 .fields = regression_fields };

static const struct sch_field migration_fields[] = {
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "to", .schema = &semver_node, .required = true },
	{ .name = "down", .schema = &sch_boolean },
	{ .name = NULL },
};
static const struct sch_node migration_node = { .type = SCH_OBJECT, .fields = migration_fields };
static const struct sch_node migrations_node = { .type = SCH_ARRAY, .items = &migration_node };

static const struct sch_field ss_rule_fields[] = {
	{ .name = "selector", .schema = &selector_node, .required = true },
	{ .name = "adoption", .schema = &adoption_node },
	{ .name = "regression", .schema = &regression_node },
	{ .name = "migrations", .schema = &migrations_node },
	{ .name = NULL },
};
static const struct sch_node ss_rule_node = { .type = SCH_OBJECT, .fields = ss_rule_fields };
static const struct sch_node ss_rules_node = { .type = SCH_ARRAY, .items = &ss_rule_node };

static const struct sch_field stagesets_fields[] = {
	{ .name = "adoption", .schema = &adoption_node },
	{ .name = "regression", .schema = &regression_node },
	{ .name = "migrations", .schema = &migrations_node },
	{ .name = "rules", .schema = &ss_rules_node },
	{ .name = NULL },
};
static const struct sch_node stagesets_node = { .type = SCH_OBJECT, .fields = stagesets_fields };

/* spec.metrics: validated entry by entry (process_scenario()). */
static const struct sch_node metrics_list_node = { .type = SCH_ARRAY };
static const struct sch_node series_values_node = { .type = SCH_ANY,
						    .check = check_series_values };
static const struct sch_field series_fields[] = {
	{ .name = "query", .schema = &sch_string_nonempty, .required = true },
	{ .name = "address", .schema = &sch_string_nonempty },
	{ .name = "interval", .schema = &horizon_node },
	{ .name = "values", .schema = &series_values_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node series_node = { .type = SCH_OBJECT, .fields = series_fields };

/* spec.fleet: validated on its own so that read_fleet() knows it is clean. */
static const struct sch_node fleet_any_node = { .type = SCH_ANY };
static const struct sch_node expect_any_node = { .type = SCH_ANY };
/* Kept as written and parsed by plan/variant.h and plan/sweep.h. */
static const struct sch_node variants_list_node = { .type = SCH_ARRAY };
static const struct sch_node sweep_any_node = { .type = SCH_OBJECT, .preserve_unknown = true };
static const struct sch_node host_pattern_node = { .type = SCH_STRING, .min_length = 1,
						   .check = check_host_pattern };
static const struct sch_node host_patterns_node = { .type = SCH_ARRAY,
						    .items = &host_pattern_node };
static const struct sch_field fleet_fields[] = {
	{ .name = "allowedActionHosts", .schema = &host_patterns_node },
	{ .name = NULL },
};
static const struct sch_node fleet_node = { .type = SCH_OBJECT, .fields = fleet_fields };

/* spec.generate: validated entry by entry. */
static const struct sch_node generate_list_node = { .type = SCH_ARRAY };
static const struct sch_node gen_count_node = { .type = SCH_INTEGER, .has_minimum = true,
						.minimum = 1 };
static const struct sch_node gen_first_node = { .type = SCH_INTEGER, .has_minimum = true,
						.minimum = 0 };
static const struct sch_node weight_node = { .type = SCH_NUMBER, .has_minimum = true,
					     .minimum = 0 };
static const struct sch_field mix_fields[] = {
	{ .name = "labels", .schema = &sch_string_map, .required = true },
	{ .name = "weight", .schema = &weight_node },
	{ .name = NULL },
};
static const struct sch_node mix_item_node = { .type = SCH_OBJECT, .fields = mix_fields };
static const struct sch_node mix_node = { .type = SCH_ARRAY, .items = &mix_item_node,
					  .min_items = 1, .check = check_weight_sum };
static const struct sch_node template_node = { .type = SCH_OBJECT, .preserve_unknown = true };
static const struct sch_field generate_fields[] = {
	{ .name = "count", .schema = &gen_count_node, .required = true },
	{ .name = "firstIndex", .schema = &gen_first_node },
	{ .name = "namespace", .schema = &sch_string_nonempty, .required = true },
	{ .name = "name", .schema = &sch_string_nonempty, .required = true },
	{ .name = "labels", .schema = &sch_string_map },
	{ .name = "labelMix", .schema = &mix_node },
	{ .name = "namespaceLabels", .schema = &sch_string_map },
	{ .name = "template", .schema = &template_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node generate_node = { .type = SCH_OBJECT, .fields = generate_fields,
					       .check = check_generate };

static const struct sch_field models_fields[] = {
	{ .name = "jobs", .schema = &jobs_node },
	{ .name = "policies", .schema = &policies_node },
	{ .name = "git", .schema = &git_node },
	{ .name = "stagesets", .schema = &stagesets_node },
	{ .name = NULL },
};
static const struct sch_node models_node = { .type = SCH_OBJECT, .fields = models_fields };

static const struct sch_field spec_fields[] = {
	{ .name = "seed", .schema = &seed_node },
	{ .name = "horizon", .schema = &horizon_node },
	{ .name = "start", .schema = &start_node },
	{ .name = "include", .schema = &include_node },
	{ .name = "api", .schema = &api_node },
	{ .name = "limits", .schema = &limits_node },
	{ .name = "events", .schema = &events_node },
	{ .name = "models", .schema = &models_any_node },
	{ .name = "metrics", .schema = &metrics_list_node },
	{ .name = "fleet", .schema = &fleet_any_node },
	{ .name = "generate", .schema = &generate_list_node },
	/* Kept as written and parsed by plan/expect.h, which knows the metrics. */
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

static int64_t duration_ms(const struct val *v)
{
	int64_t ms = 0;

	gt_parse_duration(val_str(v, ""), &ms, NULL, 0);
	return ms;
}

/* How check_duration() bounds a duration. */
enum dur_rule {
	DUR_NONNEG,   /* >= 0, fractions of a ms kept (distribution parameters) */
	DUR_MS,       /* 0 or >= 1ms: kept in whole ms, a positive value must not truncate to 0 */
	DUR_POSITIVE, /* >= 1ms: kept in whole ms, 0 not allowed */
};

/*
 * check_duration() - @v is a Go duration string within @rule.  Written here
 * rather than with SCH_DURATION so that a bare number (YAML's `90`) gets
 * advice about units instead of about quoting.
 */
static void check_duration(struct sch_ctx *c, const struct val *v, const char *path,
			   enum dur_rule rule)
{
	char err[160];
	int64_t ns = 0;
	char *q = sch_quote(v);

	if (v->type != VAL_STRING) {
		sch_report(c, v->mark, path,
			   "Invalid value: %s: must be a duration such as \"90s\", \"5m\" or \"1h30m\"",
			   q);
		if (v->type == VAL_INT || v->type == VAL_FLOAT)
			sch_note(c, v->mark, "a duration needs a unit: ns, us, ms, s, m or h");
	} else if (gt_parse_duration_ns(v->u.s, &ns, err, sizeof(err)) != 0) {
		sch_report_duration_error(c, v, path, err);
	} else if (rule == DUR_POSITIVE && ns <= 0) {
		sch_report(c, v->mark, path, "Invalid value: %s: must be greater than 0", q);
	} else if (ns < 0) {
		sch_report(c, v->mark, path, "Invalid value: %s: must be greater than or equal to 0",
			   q);
	} else if (rule != DUR_NONNEG && ns > 0 && ns < 1000000) {
		sch_report(c, v->mark, path, "Invalid value: %s: must be %sat least 1ms", q,
			   rule == DUR_MS ? "0 or " : "");
		sch_note(c, v->mark,
			 "simulated time counts whole milliseconds: %s would become 0", q);
	}
	free(q);
}

static void check_positive_duration(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_duration(c, v, path, DUR_POSITIVE);
}

static void check_nonneg_duration(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_duration(c, v, path, DUR_NONNEG);
}

static void check_ms_duration(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_duration(c, v, path, DUR_MS);
}

/* check_seed() - an integer 0 .. 2^63-1 (what YAML can write of the uint64 seed). */
static void check_seed(struct sch_ctx *c, const struct val *v, const char *path)
{
	char *q = sch_quote(v);

	if (v->type == VAL_INT) {
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
				 "a seed is an integer from 0 to 9223372036854775807 (the largest "
				 "YAML integer)");
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

/*
 * every_action() - the @i-th action key of an event: object actions, model
 * actions, then fleet actions; NULL past the end.
 */
static const char *every_action(size_t i)
{
	size_t n = sizeof(action_names) / sizeof(action_names[0]) - 1;
	size_t nm = sizeof(maction_names) / sizeof(maction_names[0]) - 1;

	if (i < n)
		return action_names[i];
	if (i < n + nm)
		return maction_names[i - n];
	return faction_names[i - n - nm];
}

static void check_event(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val_kv *first = NULL;
	size_t n = 0;

	for (size_t i = 0; every_action(i); i++) {
		const struct val_kv *kv = val_map_get_kv(v, every_action(i));

		if (!kv)
			continue;
		if (n++ == 0) {
			first = kv;
			continue;
		}
		sch_report(c, kv->key_mark, path,
			   "more than one action: '%s' and '%s'; an event does exactly one thing",
			   first->key, kv->key);
		sch_note(c, kv->key_mark, "write a second event with the same 'at' instead");
		return;
	}
	if (n == 0) {
		sch_report(c, v->mark, path, "no action");
		sch_note(c, v->mark,
			 "accepted actions: apply, delete, annotate, label, patch, status, commit, "
			 "failNext, succeedNext, violate, reconcileRequest, approve, publish, regress");
	}
}

static void check_label_edit(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val *set = val_map_get(v, "set");
	const struct val *rm = val_map_get(v, "remove");
	size_t plen = strlen(path);
	bool labels = plen >= 5 && strcmp(path + plen - 5, "label") == 0;
	char err[LBL_ERRLEN];

	if ((!set || set->u.map.n == 0) && (!rm || rm->u.list.n == 0)) {
		sch_report(c, v->mark, path, "nothing to do: give 'set' or 'remove'");
		return;
	}
	for (size_t i = 0; set && i < set->u.map.n; i++) {
		const struct val_kv *kv = &set->u.map.items[i];
		char *sub = xasprintf("%s.set", path);

		struct val *key = val_new_string(kv->key);
		char *qk = sch_quote(key);

		if (!adm_is_qualified_name(kv->key)) {
			sch_report(c, kv->key_mark, sub, "Invalid value: %s: not a valid %s key", qk,
				   labels ? "label" : "annotation");
			if (lbl_validate_key(kv->key, err, sizeof(err)) != LBL_OK)
				sch_note(c, kv->key_mark, "%s", err);
		} else if (labels && !adm_is_label_value(kv->v->u.s)) {
			char *qv = sch_quote(kv->v);

			sch_report(c, kv->v->mark, sub,
				   "Invalid value: %s: not a valid value for label %s", qv, qk);
			if (lbl_validate_value(kv->v->u.s, err, sizeof(err)) != LBL_OK)
				sch_note(c, kv->v->mark, "%s", err);
			free(qv);
		}
		free(qk);
		val_free(key);
		free(sub);
	}
}

static bool check_is_map(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (v->type == VAL_MAP)
		return true;
	char *q = sch_quote(v);
	sch_report(c, v->mark, path, "Invalid value: %s: must be an object (a JSON merge patch)",
		   q);
	free(q);
	return false;
}

static void check_merge_object(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (!check_is_map(c, v, path))
		return;
	for (size_t i = 0; i < v->u.map.n; i++) {
		const struct val_kv *kv = &v->u.map.items[i];
		char *sub = xasprintf("%s.%s", path, kv->key);

		if (strcmp(kv->key, "spec") == 0) {
			check_is_map(c, kv->v, sub);
		} else if (strcmp(kv->key, "metadata") == 0) {
			if (check_is_map(c, kv->v, sub)) {
				for (size_t j = 0; j < kv->v->u.map.n; j++) {
					const struct val_kv *m = &kv->v->u.map.items[j];

					if (strcmp(m->key, "labels") != 0 &&
					    strcmp(m->key, "annotations") != 0) {
						sch_report(c, m->key_mark, sub,
							   "cannot patch '%s'", m->key);
						sch_note(c, m->key_mark,
							 "a patch may change metadata.labels, "
							 "metadata.annotations and spec");
					} else if (m->v->type != VAL_MAP && m->v->type != VAL_NULL) {
						char *q = sch_quote(m->v);
						sch_report(c, m->v->mark, sub,
							   "Invalid value: %s: '%s' must be an object",
							   q, m->key);
						free(q);
					}
				}
			}
		} else {
			sch_report(c, kv->key_mark, path, "cannot patch '%s'", kv->key);
			if (strcmp(kv->key, "status") == 0)
				sch_note(c, kv->key_mark, "use a 'status' event to change status");
			else
				sch_note(c, kv->key_mark,
					 "a patch may change metadata.labels, metadata.annotations "
					 "and spec");
		}
		free(sub);
	}
}

static void check_merge_spec(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_is_map(c, v, path);
}

/* ---------------------------------------------------------------- models checks */

/* dur_ms() - a validated duration string as ms, keeping sub-ms parts (for distribution parameters). */
static double dur_ms(const struct val *v)
{
	int64_t ns = 0;

	gt_parse_duration_ns(val_str(v, "0s"), &ns, NULL, 0);
	return (double)ns / 1e6;
}

static bool is_sha(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == 40;
}

static void report_sha(struct sch_ctx *c, const struct val *v, const char *path)
{
	sch_report(c, v->mark, path,
		   "Invalid value: \"%s\": must be 40 lower-case hexadecimal digits (a full commit "
		   "SHA)",
		   val_str(v, ""));
}

static void check_sha(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (!is_sha(val_str(v, "")))
		report_sha(c, v, path);
}

static void check_sha_map(struct sch_ctx *c, const struct val *v, const char *path)
{
	for (size_t i = 0; i < v->u.map.n; i++) {
		const struct val_kv *kv = &v->u.map.items[i];

		if (!is_sha(val_str(kv->v, ""))) {
			char *sub = xasprintf("%s.%s", path, kv->key);

			report_sha(c, kv->v, sub);
			free(sub);
		}
	}
}

static void check_probability(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (val_num(v, 0) > 1) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, path,
			   "Invalid value: %s: %s in body should be less than or equal to 1", q, path);
		sch_note(c, v->mark, "a probability is a ratio from 0 to 1: write 0.05 for 5%%");
		free(q);
	}
}

static void check_selector(struct sch_ctx *c, const struct val *v, const char *path)
{
	struct lbl_selector sel;
	char err[LBL_ERRLEN];

	if (lbl_selector_from_val(v, &sel, err, sizeof(err)) != LBL_OK)
		sch_report(c, v->mark, path, "Invalid value: \"object\": %s", err);
	lbl_selector_release(&sel);
}

static void check_window(struct sch_ctx *c, const struct val *v, const char *path)
{
	/* Compared as stored (whole ms), so that truncation cannot empty a window. */
	if (duration_ms(val_map_get(v, "until")) <= duration_ms(val_map_get(v, "from")))
		sch_report(c, val_map_get(v, "until")->mark, path,
			   "Invalid value: \"object\": until must be later than from");
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
		check_duration(c, v, path, DUR_NONNEG);
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

/* ---------------------------------------------------------------- fleet-side checks */

/* version_text() - a version as written: a string, or a plain number's source text; else NULL. */
static const char *version_text(const struct val *v)
{
	if (!v)
		return NULL;
	if (v->type == VAL_STRING)
		return v->u.s;
	if ((v->type == VAL_INT || v->type == VAL_FLOAT) && v->raw)
		return v->raw;
	return NULL;
}

static void check_version_text(struct sch_ctx *c, const struct val *v, const char *path)
{
	const char *t = version_text(v);
	char *q;

	if (t && t[0])
		return;
	q = sch_quote(v);
	if (t)
		sch_report(c, v->mark, path, "Invalid value: \"\": must not be empty");
	else
		sch_report(c, v->mark, path,
			   "Invalid value: \"%s\": must be a version such as \"1.10.0\": %s",
			   val_type_name(v->type), q);
	free(q);
}

/*
 * A YAML number as a published version: 4.6 is no semantic version (the
 * members would offer "4.6"), and 4.10 reads as 4.1 to every other YAML
 * tool; a StageSet's spec.version.value is a string the cluster would refuse
 * unquoted.  Refused with a note to quote it.
 */
static void check_publish_version(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (v->type == VAL_INT || v->type == VAL_FLOAT) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, path,
			   "Invalid value: %s: a YAML number, not a semantic version", q);
		sch_note(c, v->mark,
			 "quote it, and give the semantic version the members offer, such as "
			 "\"1.10.0\"; unquoted, YAML reads %s as a number", q);
		free(q);
		return;
	}
	check_version_text(c, v, path);
}

static void check_semver_text(struct sch_ctx *c, const struct val *v, const char *path)
{
	const char *t = version_text(v);
	struct ss_semver sv;
	char err[128];

	if (!t || !t[0]) {
		check_version_text(c, v, path);
		return;
	}
	if (ss_semver_parse(t, &sv, err, sizeof(err)) != SS_OK) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, path, "Invalid value: %s: %s", q, err);
		sch_note(c, v->mark, "a migration's 'to' is a semantic version such as 2.0.0");
		free(q);
	}
}

/* file_line() - line @n (1-based) of file @path without its line end; new, or NULL. */
static char *file_line(const char *path, uint32_t n)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	uint32_t k = 0;
	ssize_t len;

	if (!f)
		return NULL;
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (++k < n)
			continue;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		fclose(f);
		return line;
	}
	free(line);
	fclose(f);
	return NULL;
}

/* utf8_count() - characters (code points) in the first @n bytes of @s. */
static uint32_t utf8_count(const char *s, size_t n)
{
	uint32_t k = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			k++;
	return k;
}

/*
 * values_mark() - where, in the file, the bad token of a series text @text
 * (scalar @v of @file) sits: the scalar's own column plus the token's
 * character offset, when the scalar is plain or single/double-quoted on one
 * line and its text appears there verbatim (no escapes); otherwise the
 * scalar's position.  Columns count characters, as libyaml's marks do.
 */
static struct val_mark values_mark(const char *file, const struct val *v, const char *text,
				   const struct ps_error *e)
{
	struct val_mark m = v->mark;
	size_t n = strlen(text), at = 0;
	uint32_t col = 1, shift;
	char *line;

	if (!file || m.line == 0 || m.col == 0 || e->line != 1 || strchr(text, '\n'))
		return m;
	line = file_line(file, m.line);
	if (!line)
		return m;
	for (; line[at] && col < m.col; at++)
		if (((unsigned char)line[at + 1] & 0xC0) != 0x80)
			col++;
	if (col != m.col)
		goto out_free_line;
	if ((line[at] == '"' || line[at] == '\'') && strncmp(line + at + 1, text, n) == 0 &&
	    line[at + 1 + n] == line[at])
		shift = 1;
	else if (strchr("\"'|>", line[at]) == NULL && strncmp(line + at, text, n) == 0)
		shift = 0;
	else
		goto out_free_line;
	m.col += shift + utf8_count(text, e->offset);
out_free_line:
	free(line);
	return m;
}

/* looks_like_duration() - @s starts with digits followed by a Go/Prometheus duration unit. */
static bool looks_like_duration(const char *s)
{
	size_t d = strspn(s, "0123456789.");

	return d > 0 && strchr("smhdwy", s[d]) && s[d] != '\0';
}

static void check_series_values(struct sch_ctx *c, const struct val *v, const char *path)
{
	const char *t = version_text(v); /* a string, or a plain number as written */
	struct ps_series ser;
	struct ps_error e;
	char *q;

	if (!t) {
		q = sch_quote(v);
		sch_report(c, v->mark, path,
			   "Invalid value: \"%s\": must be a string in promtool's expanding "
			   "notation: %s",
			   val_type_name(v->type), q);
		sch_note(c, v->mark, "e.g. values: \"0.001x30 0.05x10 _x5 stale\"");
		free(q);
		return;
	}
	if (!t[0]) {
		sch_report(c, v->mark, path, "Invalid value: \"\": must not be empty");
		sch_note(c, v->mark, "e.g. values: \"0.001x30 0.05x10 _x5 stale\"");
		return;
	}
	if (ps_parse(t, &ser, &e) != PS_OK) {
		struct val_mark m = values_mark(c->file, v, t, &e);

		q = sch_quote(v);
		sch_report(c, m, path, "Invalid value: %s: %s", q, e.msg);
		if (e.offset < strlen(t) && looks_like_duration(t + e.offset))
			sch_note(c, m, "series values are numbers; promtool reads no durations "
				       "there (the sample spacing is 'interval')");
		free(q);
	}
	ps_series_release(&ser);
}

static void check_host_pattern(struct sch_ctx *c, const struct val *v, const char *path)
{
	bool matched;

	if (thr_path_match(v->u.s, "", &matched) == THR_EBADPATTERN) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, path, "Invalid value: %s: syntax error in pattern", q);
		sch_note(c, v->mark,
			 "patterns use Go's path.Match syntax: '*', '?', '[a-z]', '\\' escapes");
		free(q);
	}
}

static void check_regress(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val_kv *name = val_map_get_kv(v, "name");
	const struct val_kv *sel = val_map_get_kv(v, "selector");

	if (name && sel) {
		sch_report(c, sel->key_mark, path,
			   "Invalid value: \"object\": give 'name' or 'selector', not both");
	} else if (!name && !sel) {
		sch_report(c, v->mark, path, "Required value: give 'name' or 'selector'");
		sch_note(c, v->mark,
			 "e.g. regress: {namespace: tenant-a, name: moodle, for: 30m} or "
			 "regress: {selector: {matchLabels: {ring: \"0\"}}, for: 30m}");
	}
}

static void check_weight_sum(struct sch_ctx *c, const struct val *v, const char *path)
{
	double sum = 0;

	for (size_t i = 0; i < v->u.list.n; i++)
		sum += val_num(val_map_get(v->u.list.items[i], "weight"), 1);
	if (!(sum > 0))
		sch_report(c, v->mark, path, "Invalid value: \"array\": the weights add up to 0");
}

/* check_pattern() - a pattern scalar of spec.generate expands; true when it does. */
static bool check_pattern(struct sch_ctx *c, const struct val *v, const char *path)
{
	char err[128];
	char *x = scn_expand_pattern(v->u.s, 0, err, sizeof(err));
	char *q;

	if (x) {
		free(x);
		return true;
	}
	q = sch_quote(v);
	sch_report(c, v->mark, path, "Invalid value: %s: %s", q, err);
	sch_note(c, v->mark,
		 "write {i} for the index, {i:03} for it zero-padded to 3 digits, {{ and }} "
		 "for literal braces");
	free(q);
	return false;
}

static void check_label_patterns(struct sch_ctx *c, const struct val *m, const char *path)
{
	for (size_t i = 0; m && m->type == VAL_MAP && i < m->u.map.n; i++) {
		char *sub = xasprintf("%s.%s", path, m->u.map.items[i].key);

		check_pattern(c, m->u.map.items[i].v, sub);
		free(sub);
	}
}

static void check_generate(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val *count = val_map_get(v, "count");
	const struct val *ns = val_map_get(v, "namespace");
	const struct val *name = val_map_get(v, "name");
	const struct val *mix = val_map_get(v, "labelMix");
	bool ok = true;
	char *sub;

	if (count->u.i > SCN_MAX_GENERATE) {
		sch_report(c, count->mark, path,
			   "Invalid value: %" PRId64 ": count must be at most %d", count->u.i,
			   SCN_MAX_GENERATE);
		ok = false;
	}
	sub = xasprintf("%s.namespace", path);
	ok = check_pattern(c, ns, sub) && ok;
	free(sub);
	sub = xasprintf("%s.name", path);
	ok = check_pattern(c, name, sub) && ok;
	free(sub);
	sub = xasprintf("%s.labels", path);
	check_label_patterns(c, val_map_get(v, "labels"), sub);
	free(sub);
	sub = xasprintf("%s.namespaceLabels", path);
	check_label_patterns(c, val_map_get(v, "namespaceLabels"), sub);
	free(sub);
	for (size_t i = 0; mix && i < mix->u.list.n; i++) {
		sub = xasprintf("%s.labelMix[%zu].labels", path, i);
		check_label_patterns(c, val_map_get(mix->u.list.items[i], "labels"), sub);
		free(sub);
	}
	if (ok && count->u.i > 1) {
		/* Two indices give the same identity when neither pattern uses {i}. */
		char *n0 = scn_expand_pattern(ns->u.s, 0, NULL, 0);
		char *n1 = scn_expand_pattern(ns->u.s, 1, NULL, 0);
		char *m0 = scn_expand_pattern(name->u.s, 0, NULL, 0);
		char *m1 = scn_expand_pattern(name->u.s, 1, NULL, 0);

		if (strcmp(n0, n1) == 0 && strcmp(m0, m1) == 0) {
			sch_report(c, name->mark, path,
				   "Invalid value: \"object\": %" PRId64 " StageSets would all be "
				   "named \"%s/%s\"",
				   count->u.i, n0, m0);
			sch_note(c, name->mark,
				 "put {i} in namespace or name, e.g. namespace: tenant-{i:03}");
		}
		free(n0);
		free(n1);
		free(m0);
		free(m1);
	}
}

/* ---------------------------------------------------------------- files */

static char *join_path(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	if (name[0] == '/' || n == 0 || strcmp(dir, ".") == 0)
		return xstrdup(name);
	return xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

/* dir_of() - the directory part of @path ("." when there is none).  Returns new. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_yaml_ext(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void load_file(struct loader *L, const char *path);
static void load_includes(struct loader *L, const char *scn_file);

static void push_doc(struct loader *L, struct val *root, const char *file)
{
	if (L->ndocs == L->capdocs) {
		L->capdocs = L->capdocs ? 2 * L->capdocs : 16;
		L->docs = xreallocarray(L->docs, L->capdocs, sizeof(*L->docs));
	}
	L->docs[L->ndocs++] = (struct pending_doc){ root, file };
}

static bool is_scenario_doc(const struct val *root)
{
	const char *av = val_str(val_map_get(root, "apiVersion"), NULL);
	const char *kind = val_str(val_map_get(root, "kind"), NULL);

	return (kind && strcmp(kind, SCN_KIND) == 0) ||
	       (av && strncmp(av, "magos-sim/", strlen("magos-sim/")) == 0);
}

static void process_scenario(struct loader *L, struct val *root, const char *file);

/* load_file() - reads @path (a regular file) unless it was read already. */
static void load_file(struct loader *L, const char *path)
{
	struct scenario *s = L->s;
	struct yl_stream *st;
	struct file_id id = { 0 };
	struct stat sb;
	const char *file;
	bool holds_scenario = false;
	int rc;

	if (stat(path, &sb) == 0) {
		id = (struct file_id){ sb.st_dev, sb.st_ino, true };
		for (size_t i = 0; i < s->nfiles; i++) {
			if (L->ids[i].known && L->ids[i].dev == id.dev && L->ids[i].ino == id.ino)
				return;
		}
	}
	s->files = xreallocarray(s->files, s->nfiles + 1, sizeof(*s->files));
	L->ids = xreallocarray(L->ids, s->nfiles + 1, sizeof(*L->ids));
	s->files[s->nfiles] = xstrdup(path);
	L->ids[s->nfiles] = id;
	file = s->files[s->nfiles++];

	if (L->nstreams == L->capstreams) {
		L->capstreams = L->capstreams ? 2 * L->capstreams : 8;
		L->streams = xreallocarray(L->streams, L->capstreams, sizeof(*L->streams));
	}
	st = &L->streams[L->nstreams++];
	rc = yl_load_file(file, st, L->d);
	if (rc != 0)
		L->yaml_failed = true;
	if (rc == 0 && st->n == 0)
		diag_error(L->d, file, (struct val_mark){ 1, 1 },
			   "no documents: the file is empty or holds only comments");
	for (size_t i = 0; i < st->n; i++) {
		struct val *root = st->docs[i].root;

		if (root->type != VAL_MAP || !is_scenario_doc(root)) {
			push_doc(L, root, file);
			continue;
		}
		if (L->scn) {
			diag_error(L->d, file, st->docs[i].mark,
				   "a second Scenario document; the inputs may hold only one");
			diag_note(L->d, s->scenario_file, L->scn_mark,
				  "the first Scenario document is here");
			continue;
		}
		L->scn = root;
		L->scn_mark = st->docs[i].mark;
		s->scenario_file = file;
		s->has_scenario_doc = true;
		holds_scenario = true;
		process_scenario(L, root, file);
	}
	if (holds_scenario)
		load_includes(L, file);
}

/* load_dir() - reads the *.yaml / *.yml regular files of @dir, sorted by name. */
static void load_dir(struct loader *L, const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	if (!dp) {
		diag_error(L->d, dir, (struct val_mark){ 0, 0 }, "cannot read: %s", strerror(errno));
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		struct stat sb;
		char *p;

		if (de->d_name[0] == '.' || !has_yaml_ext(de->d_name))
			continue;
		p = join_path(dir, de->d_name);
		if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			free(p);
			continue;
		}
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = p;
	}
	closedir(dp);
	if (n == 0) {
		diag_error(L->d, dir, (struct val_mark){ 0, 0 },
			   "no *.yaml or *.yml files in this directory");
		return;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++)
		load_file(L, names[i]);
	free_strv(names, n);
}

/* load_input() - one command-line input: a file or a directory. */
static void load_input(struct loader *L, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) != 0) {
		diag_error(L->d, path, (struct val_mark){ 0, 0 }, "cannot read: %s", strerror(errno));
		return;
	}
	if (S_ISDIR(sb.st_mode))
		load_dir(L, path);
	else
		load_file(L, path);
}

static bool has_glob_chars(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* load_includes() - the files named by spec.include of the Scenario in @scn_file. */
static void load_includes(struct loader *L, const char *scn_file)
{
	const struct val *inc = val_path(L->scn, "spec.include");
	char *dir;

	if (!inc || inc->type != VAL_LIST)
		return;
	dir = dir_of(scn_file);
	for (size_t i = 0; i < inc->u.list.n; i++) {
		const struct val *item = inc->u.list.items[i];
		const char *pat = val_str(item, NULL);
		char *full;

		if (!pat || !pat[0])
			continue; /* reported by the schema */
		full = join_path(dir, pat);
		if (!has_glob_chars(pat)) {
			struct stat sb;

			if (stat(full, &sb) != 0) {
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: cannot read \"%s\": %s", i, full,
					   strerror(errno));
				diag_note(L->d, scn_file, item->mark,
					  "include paths are relative to the scenario file's "
					  "directory");
			} else if (S_ISDIR(sb.st_mode)) {
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: \"%s\" is a directory", i, full);
				diag_note(L->d, scn_file, item->mark,
					  "include its files with a pattern such as \"%s/*.yaml\"",
					  pat);
			} else {
				load_file(L, full);
			}
		} else {
			glob_t g;
			size_t nfiles = 0;
			int rc = glob(full, 0, NULL, &g);

			if (rc == 0) {
				char **v = xcalloc(g.gl_pathc ? g.gl_pathc : 1, sizeof(*v));

				for (size_t j = 0; j < g.gl_pathc; j++) {
					struct stat sb;

					if (stat(g.gl_pathv[j], &sb) == 0 && S_ISREG(sb.st_mode))
						v[nfiles++] = xstrdup(g.gl_pathv[j]);
				}
				globfree(&g);
				qsort(v, nfiles, sizeof(*v), cmp_str);
				for (size_t j = 0; j < nfiles; j++)
					load_file(L, v[j]);
				free_strv(v, nfiles);
			}
			if (nfiles == 0) {
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: pattern \"%s\" matches no file", i,
					   full);
				diag_note(L->d, scn_file, item->mark,
					  "include paths are relative to the scenario file's "
					  "directory");
			}
		}
		free(full);
	}
	free(dir);
}

/* ---------------------------------------------------------------- the Scenario document */

static const char *const spec_key_list =
	"seed, horizon, start, include, api, limits, events, models, metrics, fleet, generate, expect, "
	"variants, sweep";

static int cmp_window(const void *a, const void *b)
{
	const struct scn_git_window *x = a, *y = b;

	return x->from_ms < y->from_ms ? -1 : x->from_ms > y->from_ms;
}

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
	v = val_map_get(spec, "horizon");
	if (v && v->type == VAL_STRING && gt_parse_duration(v->u.s, &ms, NULL, 0) == 0 && ms > 0)
		s->horizon_ms = ms;
	v = val_map_get(spec, "start");
	if (v && v->type == VAL_STRING && gt_parse_rfc3339(v->u.s, &ms, NULL, 0) == 0)
		s->start_unix_ms = ms;
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

/* read_versions() - the version texts of a validated list @l into a new array. */
static char **read_versions(const struct val *l, size_t *n)
{
	char **v = xcalloc(l->u.list.n ? l->u.list.n : 1, sizeof(*v));

	for (size_t i = 0; i < l->u.list.n; i++)
		v[i] = xstrdup(version_text(l->u.list.items[i]));
	*n = l->u.list.n;
	return v;
}

/* read_adoption() - the fields of a validated adoption map @v (NULL: none) into @a. */
static void read_adoption(struct scn_adoption_model *a, const struct val *v)
{
	const struct val *d = val_map_get(v, "duration");
	const struct val *f = val_map_get(v, "failureProbability");

	if (d) {
		dist_release(&a->duration);
		read_dist(d, &a->duration);
		a->has_duration = true;
	}
	if (f) {
		a->failure_probability = val_num(f, 0);
		a->has_failure = true;
	}
}

/* read_regression() - the fields of a validated regression map @v (NULL: none) into @r. */
static void read_regression(struct scn_regression_model *r, const struct val *v)
{
	const struct val *p = val_map_get(v, "probability");
	const struct val *d = val_map_get(v, "duration");
	const struct val *a = val_map_get(v, "after");
	const struct val *vs = val_map_get(v, "versions");

	if (p) {
		r->probability = val_num(p, 0);
		r->has_probability = true;
	}
	if (d) {
		dist_release(&r->duration);
		read_dist(d, &r->duration);
		r->has_duration = true;
	}
	if (a) {
		dist_release(&r->after);
		read_dist(a, &r->after);
		r->has_after = true;
	}
	if (vs) {
		r->versions = read_versions(vs, &r->nversions);
		r->has_versions = true;
	}
}

/* read_migrations() - a validated migrations list @l into a new array of *@n entries. */
static struct scn_migration *read_migrations(const struct val *l, size_t *n)
{
	struct scn_migration *m = xcalloc(l->u.list.n ? l->u.list.n : 1, sizeof(*m));

	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		const char *to = version_text(val_map_get(x, "to"));
		const char *name = val_str(val_map_get(x, "name"), NULL);

		m[i].to = xstrdup(to);
		m[i].name = name ? xstrdup(name) : xasprintf("to-%s", to);
		m[i].down = val_bool(val_map_get(x, "down"), false);
	}
	*n = l->u.list.n;
	return m;
}

/* read_stagesets() - validated spec.models.stagesets @v into @m (defaults already there). */
static void read_stagesets(struct scn_stageset_models *m, const struct val *v, const char *file)
{
	const struct val *rules = val_map_get(v, "rules");
	const struct val *mig = val_map_get(v, "migrations");

	read_adoption(&m->adoption, val_map_get(v, "adoption"));
	read_regression(&m->regression, val_map_get(v, "regression"));
	if (mig)
		m->migrations = read_migrations(mig, &m->nmigrations);
	if (!rules || rules->u.list.n == 0)
		return;
	m->rules = xcalloc(rules->u.list.n, sizeof(*m->rules));
	for (size_t i = 0; i < rules->u.list.n; i++) {
		const struct val *r = rules->u.list.items[i];
		struct scn_stageset_rule *sr = &m->rules[m->nrules++];

		lbl_selector_from_val(val_map_get(r, "selector"), &sr->selector, NULL, 0);
		sr->selector_text = lbl_selector_string(&sr->selector);
		dist_init_constant(&sr->adoption.duration, 0);
		dist_init_constant(&sr->regression.duration, 0);
		dist_init_constant(&sr->regression.after, 0);
		read_adoption(&sr->adoption, val_map_get(r, "adoption"));
		read_regression(&sr->regression, val_map_get(r, "regression"));
		mig = val_map_get(r, "migrations");
		if (mig) {
			sr->migrations = read_migrations(mig, &sr->nmigrations);
			sr->has_migrations = true;
		}
		sr->file = file;
		sr->mark = r->mark;
	}
}

/* read_fleet() - validated spec.fleet @v into @f. */
static void read_fleet(struct scn_fleet *f, const struct val *v)
{
	const struct val *hosts = val_map_get(v, "allowedActionHosts");

	if (!hosts || hosts->u.list.n == 0)
		return;
	f->allowed_action_hosts = xcalloc(hosts->u.list.n, sizeof(*f->allowed_action_hosts));
	for (size_t i = 0; i < hosts->u.list.n; i++)
		f->allowed_action_hosts[f->nallowed_action_hosts++] =
			xstrdup(val_str(hosts->u.list.items[i], ""));
}

/* read_job_model() - the fields of a validated plan/apply map @v (NULL: none) into @m. */
static void read_job_model(struct scn_job_model *m, const struct val *v)
{
	const struct val *d = val_map_get(v, "duration");
	const struct val *f = val_map_get(v, "failureProbability");

	if (d) {
		dist_release(&m->duration);
		read_dist(d, &m->duration);
		m->has_duration = true;
	}
	if (f) {
		m->failure_probability = val_num(f, 0);
		m->has_failure = true;
	}
}

/* read_models() - spec.models @v, validated without error, into @m (defaults already there). */
static void read_models(struct scn_models *m, const struct val *v, const char *file)
{
	const struct val *jobs = val_map_get(v, "jobs");
	const struct val *rules = val_map_get(jobs, "rules");
	const struct val *pols = val_map_get(v, "policies");
	const struct val *repos = val_path(v, "git.repositories");
	const struct val *x;
	int64_t ms;

	m->given = true;
	x = val_map_get(jobs, "capacity");
	if (x)
		m->capacity = x->u.i > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)x->u.i;
	x = val_map_get(jobs, "podStartup");
	if (x && gt_parse_duration(x->u.s, &ms, NULL, 0) == 0)
		m->pod_startup_ms = ms;
	read_job_model(&m->job[SCN_JOB_PLAN], val_map_get(jobs, "plan"));
	read_job_model(&m->job[SCN_JOB_APPLY], val_map_get(jobs, "apply"));
	if (val_map_get(v, "stagesets"))
		read_stagesets(&m->stagesets, val_map_get(v, "stagesets"), file);
	if (rules && rules->u.list.n) {
		m->rules = xcalloc(rules->u.list.n, sizeof(*m->rules));
		for (size_t i = 0; i < rules->u.list.n; i++) {
			const struct val *r = rules->u.list.items[i];
			struct scn_job_rule *jr = &m->rules[m->nrules++];

			lbl_selector_from_val(val_map_get(r, "selector"), &jr->selector, NULL, 0);
			jr->selector_text = lbl_selector_string(&jr->selector);
			for (int t = 0; t < SCN_JOB_NTYPES; t++)
				dist_init_constant(&jr->job[t].duration, 0);
			read_job_model(&jr->job[SCN_JOB_PLAN], val_map_get(r, "plan"));
			read_job_model(&jr->job[SCN_JOB_APPLY], val_map_get(r, "apply"));
			jr->file = file;
			jr->mark = r->mark;
		}
	}
	if (pols && pols->u.list.n) {
		m->policies = xcalloc(pols->u.list.n, sizeof(*m->policies));
		for (size_t i = 0; i < pols->u.list.n; i++) {
			const struct val *p = pols->u.list.items[i];
			struct scn_policy_model *pm = &m->policies[m->npolicies++];

			pm->name = xstrdup(val_str(val_map_get(p, "name"), ""));
			pm->violation_probability = val_num(val_map_get(p, "violationProbability"), 0);
		}
	}
	if (repos && repos->u.list.n) {
		m->repos = xcalloc(repos->u.list.n, sizeof(*m->repos));
		for (size_t i = 0; i < repos->u.list.n; i++) {
			const struct val *r = repos->u.list.items[i];
			const struct val *refs = val_map_get(r, "refs");
			const struct val *un = val_map_get(r, "unreachable");
			struct scn_git_repo *g = &m->repos[m->nrepos++];

			g->url = xstrdup(val_str(val_map_get(r, "url"), ""));
			g->head = xstrdup(val_str(val_map_get(r, "head"), SCN_DEFAULT_GIT_HEAD));
			if (refs && refs->u.map.n) {
				g->refs = xcalloc(refs->u.map.n, sizeof(*g->refs));
				for (size_t j = 0; j < refs->u.map.n; j++) {
					struct scn_git_ref *gr = &g->refs[g->nrefs++];

					gr->ref = xstrdup(refs->u.map.items[j].key);
					snprintf(gr->sha, sizeof(gr->sha), "%s",
						 val_str(refs->u.map.items[j].v, ""));
				}
			}
			if (un && un->u.list.n) {
				g->unreachable = xcalloc(un->u.list.n, sizeof(*g->unreachable));
				for (size_t j = 0; j < un->u.list.n; j++) {
					const struct val *w = un->u.list.items[j];
					struct scn_git_window *gw = &g->unreachable[g->nunreachable++];

					gw->from_ms = duration_ms(val_map_get(w, "from"));
					gw->until_ms = duration_ms(val_map_get(w, "until"));
				}
				qsort(g->unreachable, g->nunreachable, sizeof(*g->unreachable),
				      cmp_window);
			}
		}
	}
}

/*
 * process_metrics() - validates each entry of spec.metrics on its own,
 * claims the (query, address) of every entry whose query is a string, and
 * reads the entries that validated into s->series; then reports entries
 * that repeat a (query, address).
 */
static void process_metrics(struct loader *L, const struct val *metrics, struct sch_ctx *c)
{
	struct scenario *s = L->s;
	size_t n = metrics->u.list.n;

	if (n == 0)
		return;
	s->series = xcalloc(n, sizeof(*s->series));
	L->claimed = xcalloc(n, sizeof(*L->claimed));
	for (size_t i = 0; i < n; i++) {
		struct val *item = metrics->u.list.items[i];
		char path[48];
		size_t before = c->nerrors;
		const struct val *q, *a, *iv;
		struct scn_series *ser;

		snprintf(path, sizeof(path), "spec.metrics[%zu]", i);
		sch_validate(&series_node, item, path, c);
		q = val_map_get(item, "query");
		a = val_map_get(item, "address");
		if (q && q->type == VAL_STRING)
			L->claimed[L->nclaimed++] = (struct claimed_series){
				q->u.s, a && a->type == VAL_STRING ? a->u.s : NULL, i, q->mark
			};
		if (c->nerrors != before)
			continue;
		ser = &s->series[s->nseries++];
		ser->query = xstrdup(q->u.s);
		ser->address = a ? xstrdup(a->u.s) : NULL;
		iv = val_map_get(item, "interval");
		ser->interval_ms = iv ? duration_ms(iv) : SCN_DEFAULT_SERIES_INTERVAL_MS;
		ser->values = xstrdup(version_text(val_map_get(item, "values")));
		ps_parse(ser->values, &ser->series, NULL);
		ser->file = s->scenario_file;
		ser->mark = q->mark;
	}
	for (size_t i = 0; i < L->nclaimed; i++) {
		const struct claimed_series *x = &L->claimed[i];

		for (size_t j = 0; j < i; j++) {
			const struct claimed_series *y = &L->claimed[j];

			if (strcmp(x->query, y->query) != 0 ||
			    (x->address == NULL) != (y->address == NULL) ||
			    (x->address && strcmp(x->address, y->address) != 0))
				continue;
			char *qq = sch_abbrev(x->query);

			diag_error(L->d, s->scenario_file, x->mark,
				   "spec.metrics[%zu].query: Duplicate value: \"%s\"%s%s%s", x->index,
				   qq, x->address ? " (address \"" : "", x->address ? x->address : "",
				   x->address ? "\")" : "");
			diag_note(L->d, s->scenario_file, y->mark,
				  "spec.metrics[%zu] gives a series for it already", y->index);
			free(qq);
			break;
		}
	}
}

/*
 * process_scenario() - validates the Scenario document @root (the keys of
 * later format versions are reported and removed first, so they are not also
 * reported as unknown), reads its parameters, and validates each event on its
 * own so that build_events() knows which ones are usable.
 */
static void process_scenario(struct loader *L, struct val *root, const char *file)
{
	struct sch_ctx c = { .d = L->d, .file = file, .root = root };
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
	read_params(L->s, root);
	if (spec && spec->type == VAL_MAP && val_map_get(spec, "expect")) {
		L->s->expect = val_copy(val_map_get(spec, "expect"));
		L->s->expect_file = file;
	}
	if (spec && spec->type == VAL_MAP) {
		/* Raw copies for plan/variant.h and plan/sweep.h (they re-read models). */
		L->s->variants = val_copy(val_map_get(spec, "variants"));
		L->s->sweep = val_copy(val_map_get(spec, "sweep"));
		L->s->models_raw = val_copy(val_map_get(spec, "models"));
	}

	models = val_path(root, "spec.models");
	if (models) {
		size_t before = c.nerrors;

		sch_validate(&models_node, models, "spec.models", &c);
		if (c.nerrors == before && models->type == VAL_MAP)
			read_models(&L->s->models, models, file);
	}

	fleet = val_path(root, "spec.fleet");
	if (fleet) {
		size_t before = c.nerrors;

		sch_validate(&fleet_node, fleet, "spec.fleet", &c);
		if (c.nerrors == before && fleet->type == VAL_MAP)
			read_fleet(&L->s->fleet, fleet);
	}

	metrics = val_path(root, "spec.metrics");
	if (metrics && metrics->type == VAL_LIST)
		process_metrics(L, metrics, &c);

	gen = val_path(root, "spec.generate");
	if (gen && gen->type == VAL_LIST) {
		L->ngen = gen->u.list.n;
		L->gen_ok = xcalloc(L->ngen ? L->ngen : 1, sizeof(*L->gen_ok));
		for (size_t i = 0; i < L->ngen; i++) {
			char path[48];
			size_t before = c.nerrors;

			snprintf(path, sizeof(path), "spec.generate[%zu]", i);
			sch_validate(&generate_node, gen->u.list.items[i], path, &c);
			L->gen_ok[i] = c.nerrors == before;
		}
	}

	events = val_path(root, "spec.events");
	if (!events || events->type != VAL_LIST)
		return;
	L->nev = events->u.list.n;
	L->ev_ok = xcalloc(L->nev ? L->nev : 1, sizeof(*L->ev_ok));
	for (size_t i = 0; i < L->nev; i++) {
		char path[48];
		size_t before = c.nerrors;

		snprintf(path, sizeof(path), "spec.events[%zu]", i);
		sch_validate(&event_node, events->u.list.items[i], path, &c);
		L->ev_ok[i] = c.nerrors == before;
	}
}

/* ---------------------------------------------------------------- events */

/*
 * namespaced() - whether objects of @kind live in a namespace: from the
 * supported kind @av names (with @av NULL, the supported kind of that name), else from any object of that kind the inputs or
 * the apply events define, else true (such a target is not found anyway).
 */
static bool namespaced(const struct scenario *s, const char *kind, const char *av)
{
	const struct adm_kind *k = av ? adm_find_kind(av, kind) : adm_find_kind_named(kind);

	if (k)
		return k->namespaced;
	for (size_t i = 0; i < s->nobjs; i++) {
		if (strcmp(s->objs[i]->kind, kind) == 0)
			return s->objs[i]->ns[0] != '\0';
	}
	for (size_t i = 0; i < s->nevents; i++) {
		const struct obj *o = s->events[i].obj;

		if (o && strcmp(o->kind, kind) == 0)
			return o->ns[0] != '\0';
	}
	return true;
}

/*
 * was_rejected() - whether a manifest or an apply payload claimed this
 * identity and was refused: a reference to it is then not reported as "not
 * found" (the object's own errors say why it is missing).
 */
static bool was_rejected(const struct loader *L, const char *kind, const char *ns,
			 const char *name)
{
	for (size_t i = 0; i < L->nrejected; i++) {
		const struct man_rejected *r = &L->rejected[i];

		if (strcmp(r->kind, kind) == 0 && strcmp(r->ns, ns) == 0 &&
		    strcmp(r->name, name) == 0)
			return true;
	}
	return false;
}

static bool target_is(const struct obj *o, const struct scn_target *t)
{
	return strcmp(o->kind, t->kind) == 0 && strcmp(o->ns, t->ns) == 0 &&
	       strcmp(o->name, t->name) == 0;
}

/* find_obj() - the last object with @t's identity in @objs, or NULL. */
static const struct obj *find_obj(struct obj *const *objs, size_t n, const struct scn_target *t)
{
	for (size_t i = n; i-- > 0;) {
		if (target_is(objs[i], t))
			return objs[i];
	}
	return NULL;
}

/* ref_text() - "Kind \"ns/name\"" or "Kind \"name\"" into @buf. */
static const char *ref_text(const struct scn_target *t, char *buf, size_t len)
{
	if (t->ns[0])
		snprintf(buf, len, "%s \"%s/%s\"", t->kind, t->ns, t->name);
	else
		snprintf(buf, len, "%s \"%s\"", t->kind, t->name);
	return buf;
}

static void target_release(struct scn_target *t)
{
	free(t->api_version);
	free(t->kind);
	free(t->ns);
	free(t->name);
}

static void event_release(struct scn_event *e)
{
	target_release(&e->target);
	obj_free(e->obj);
	obj_strmap_release(&e->set);
	free_strv(e->remove, e->nremove);
	val_free(e->merge);
}

const char *scn_event_type_name(enum scn_event_type t)
{
	if ((size_t)t < sizeof(action_names) / sizeof(action_names[0]) - 1)
		return action_names[t];
	return "?";
}

const char *scn_mevent_type_name(enum scn_mevent_type t)
{
	if ((size_t)t < sizeof(maction_names) / sizeof(maction_names[0]) - 1)
		return maction_names[t];
	return "?";
}

const char *scn_job_type_name(enum scn_job_type t)
{
	return t == SCN_JOB_PLAN ? "plan" : t == SCN_JOB_APPLY ? "apply" : "?";
}

const char *scn_canonical_ref(const char *ref, const char *head)
{
	if (strncmp(ref, "refs/heads/", 11) == 0)
		return ref + 11;
	if (strncmp(ref, "refs/tags/", 10) == 0)
		return ref + 10;
	if (ref[0] == '\0' || strcmp(ref, "HEAD") == 0)
		return head;
	return ref;
}

const char *scn_git_head(const struct scn_models *m, const char *url)
{
	for (size_t i = 0; i < m->nrepos; i++)
		if (strcmp(m->repos[i].url, url) == 0)
			return m->repos[i].head;
	return SCN_DEFAULT_GIT_HEAD;
}

const char *scn_fevent_type_name(enum scn_fevent_type t)
{
	if ((size_t)t < sizeof(faction_names) / sizeof(faction_names[0]) - 1)
		return faction_names[t];
	return "?";
}

const struct scn_series *scn_find_series(const struct scenario *s, const char *query,
					 const char *address)
{
	const struct scn_series *any = NULL;

	for (size_t i = 0; i < s->nseries; i++) {
		const struct scn_series *x = &s->series[i];

		if (strcmp(x->query, query) != 0)
			continue;
		if (x->address && address && strcmp(x->address, address) == 0)
			return x;
		if (!x->address && !any)
			any = x;
	}
	return any;
}

void scn_stageset_model_for(const struct scn_models *m, const struct obj_strmap *labels,
			    struct scn_stageset_model *out)
{
	const struct scn_stageset_models *ss = &m->stagesets;
	const struct scn_adoption_model *ad = NULL, *af = NULL;
	const struct scn_regression_model *rp = NULL, *rd = NULL, *ra = NULL, *rv = NULL;
	const struct scn_stageset_rule *mig = NULL;

	for (size_t i = 0; i < ss->nrules; i++) {
		const struct scn_stageset_rule *r = &ss->rules[i];

		if (!lbl_matches(&r->selector, labels))
			continue;
		if (!ad && r->adoption.has_duration)
			ad = &r->adoption;
		if (!af && r->adoption.has_failure)
			af = &r->adoption;
		if (!rp && r->regression.has_probability)
			rp = &r->regression;
		if (!rd && r->regression.has_duration)
			rd = &r->regression;
		if (!ra && r->regression.has_after)
			ra = &r->regression;
		if (!rv && r->regression.has_versions)
			rv = &r->regression;
		if (!mig && r->has_migrations)
			mig = r;
	}
	ad = ad ? ad : &ss->adoption;
	af = af ? af : &ss->adoption;
	rp = rp ? rp : &ss->regression;
	rd = rd ? rd : &ss->regression;
	ra = ra ? ra : &ss->regression;
	rv = rv ? rv : &ss->regression;
	out->adoption_duration = &ad->duration;
	out->adoption_failure_probability = af->failure_probability;
	out->regression_probability = rp->probability;
	out->regression_duration = &rd->duration;
	out->regression_after = &ra->after;
	out->regression_all_versions = !rv->has_versions;
	out->regression_versions = rv->versions;
	out->nregression_versions = rv->nversions;
	out->migrations = mig ? mig->migrations : ss->migrations;
	out->nmigrations = mig ? mig->nmigrations : ss->nmigrations;
}

char *scn_expand_pattern(const char *pattern, uint64_t i, char *err, size_t errlen)
{
	char *out = xmalloc(strlen(pattern) * 7 + 1); /* "{i}" (3 bytes) gives at most 20 */
	size_t n = 0;

	for (const char *p = pattern; *p;) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			out[n++] = *p;
			p += 2;
		} else if (p[0] == '}') {
			if (err)
				snprintf(err, errlen, "a lone '}' at byte %zu",
					 (size_t)(p - pattern) + 1);
			goto out_free;
		} else if (p[0] == '{') {
			const char *end = strchr(p, '}');
			int width = -1;

			if (end && end - p == 2 && p[1] == 'i')
				width = 0;
			else if (end && end - p == 5 && strncmp(p, "{i:0", 4) == 0 && p[4] >= '1' &&
				 p[4] <= '9')
				width = p[4] - '0';
			if (width < 0) {
				if (err && end)
					snprintf(err, errlen, "unknown placeholder \"%.*s\"",
						 (int)(end - p + 1), p);
				else if (err)
					snprintf(err, errlen, "'{' at byte %zu is not closed",
						 (size_t)(p - pattern) + 1);
				goto out_free;
			}
			n += (size_t)sprintf(out + n, "%0*" PRIu64, width, i);
			p = end + 1;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = '\0';
	return out;
out_free:
	free(out);
	return NULL;
}

/* ---------------------------------------------------------------- lifecycle */

void scn_init(struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->seed = SCN_DEFAULT_SEED;
	s->horizon_ms = SCN_DEFAULT_HORIZON_MS;
	s->start_unix_ms = SCN_DEFAULT_START_UNIX_MS;
	s->api_latency_ms = SCN_DEFAULT_API_LATENCY_MS;
	s->reconcile_ms = SCN_DEFAULT_RECONCILE_MS;
	s->event_budget = SCN_DEFAULT_EVENT_BUDGET;
	s->events_per_instant = SCN_DEFAULT_EVENTS_PER_INSTANT;
	s->models.pod_startup_ms = SCN_DEFAULT_POD_STARTUP_MS;
	dist_init_constant(&s->models.job[SCN_JOB_PLAN].duration, SCN_DEFAULT_PLAN_MS);
	dist_init_constant(&s->models.job[SCN_JOB_APPLY].duration, SCN_DEFAULT_APPLY_MS);
	for (int t = 0; t < SCN_JOB_NTYPES; t++) {
		s->models.job[t].has_duration = true;
		s->models.job[t].has_failure = true;
	}
	dist_init_constant(&s->models.stagesets.adoption.duration, SCN_DEFAULT_ADOPTION_MS);
	s->models.stagesets.adoption.has_duration = true;
	s->models.stagesets.adoption.has_failure = true;
	dist_init_constant(&s->models.stagesets.regression.duration, SCN_DEFAULT_REGRESSION_MS);
	dist_init_constant(&s->models.stagesets.regression.after, SCN_DEFAULT_REGRESSION_AFTER_MS);
	s->models.stagesets.regression.has_probability = true;
	s->models.stagesets.regression.has_duration = true;
	s->models.stagesets.regression.has_after = true;
}

static void migrations_release(struct scn_migration *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].name);
		free(m[i].to);
	}
	free(m);
}

static void regression_release(struct scn_regression_model *r)
{
	dist_release(&r->duration);
	dist_release(&r->after);
	free_strv(r->versions, r->nversions);
}

static void stagesets_release(struct scn_stageset_models *m)
{
	dist_release(&m->adoption.duration);
	regression_release(&m->regression);
	migrations_release(m->migrations, m->nmigrations);
	for (size_t i = 0; i < m->nrules; i++) {
		struct scn_stageset_rule *r = &m->rules[i];

		lbl_selector_release(&r->selector);
		free(r->selector_text);
		dist_release(&r->adoption.duration);
		regression_release(&r->regression);
		migrations_release(r->migrations, r->nmigrations);
	}
	free(m->rules);
}

static void fevent_release(struct scn_fevent *e)
{
	if (e->by_selector)
		lbl_selector_release(&e->selector);
	if (e->has_ns_selector)
		lbl_selector_release(&e->ns_selector);
	free(e->selector_text);
	free(e->ns_selector_text);
	free(e->version);
	target_release(&e->target);
}

static void models_release(struct scn_models *m)
{
	for (int t = 0; t < SCN_JOB_NTYPES; t++)
		dist_release(&m->job[t].duration);
	for (size_t i = 0; i < m->nrules; i++) {
		lbl_selector_release(&m->rules[i].selector);
		free(m->rules[i].selector_text);
		for (int t = 0; t < SCN_JOB_NTYPES; t++)
			dist_release(&m->rules[i].job[t].duration);
	}
	free(m->rules);
	for (size_t i = 0; i < m->npolicies; i++)
		free(m->policies[i].name);
	free(m->policies);
	for (size_t i = 0; i < m->nrepos; i++) {
		free(m->repos[i].url);
		free(m->repos[i].head);
		for (size_t j = 0; j < m->repos[i].nrefs; j++)
			free(m->repos[i].refs[j].ref);
		free(m->repos[i].refs);
		free(m->repos[i].unreachable);
	}
	free(m->repos);
	stagesets_release(&m->stagesets);
}

static void mevent_release(struct scn_mevent *e)
{
	target_release(&e->target);
	free(e->policy);
	free(e->value);
	free(e->repo_url);
	free(e->ref);
	free(e->sha);
}

void scn_release(struct scenario *s)
{
	if (!s)
		return;
	free(s->name);
	for (size_t i = 0; i < s->nobjs; i++)
		obj_free(s->objs[i]);
	free(s->objs);
	for (size_t i = 0; i < s->nevents; i++)
		event_release(&s->events[i]);
	free(s->events);
	for (size_t i = 0; i < s->nmevents; i++)
		mevent_release(&s->mevents[i]);
	free(s->mevents);
	for (size_t i = 0; i < s->nfevents; i++)
		fevent_release(&s->fevents[i]);
	free(s->fevents);
	for (size_t i = 0; i < s->nseries; i++) {
		free(s->series[i].query);
		free(s->series[i].address);
		free(s->series[i].values);
		ps_series_release(&s->series[i].series);
	}
	free(s->series);
	free_strv(s->fleet.allowed_action_hosts, s->fleet.nallowed_action_hosts);
	models_release(&s->models);
	free_strv(s->ignored, s->nignored);
	free_strv(s->files, s->nfiles);
	val_free(s->expect);
	val_free(s->variants);
	val_free(s->sweep);
	val_free(s->models_raw);
	memset(s, 0, sizeof(*s));
}

int scn_models_parse(const struct val *v, const char *file, const char *path,
		     struct scn_models *out, struct diag *d)
{
	struct scenario dflt;
	struct val *work = val_copy(v);
	struct sch_ctx c = { .d = d, .file = file, .root = work };
	int rc = 0;

	scn_init(&dflt);
	*out = dflt.models;
	if (work && (sch_validate(&models_node, work, path, &c) != 0 || c.nerrors))
		rc = -1;
	else if (work && work->type == VAL_MAP)
		read_models(out, work, file);
	val_free(work);
	return rc;
}

void scn_models_release(struct scn_models *m)
{
	if (m)
		models_release(m);
}

/* base_name() - @path's last component without its extension ("a/b.yaml" → "b").  New. */
static char *base_name(const char *path)
{
	char *copy = xstrdup(path), *b, *dot, *res;
	size_t n = strlen(copy);

	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	b = strrchr(copy, '/');
	b = b && b[1] ? b + 1 : copy;
	if (strcmp(b, ".") == 0 || strcmp(b, "..") == 0) {
		/* "." names the working directory; ".." is not worth resolving. */
		char cwd[4096];
		bool dot_dir = strcmp(b, ".") == 0;

		free(copy);
		if (dot_dir && getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/") != 0)
			return base_name(cwd);
		return xstrdup("scenario");
	}
	dot = strrchr(b, '.');
	if (dot && dot != b)
		*dot = '\0';
	res = xstrdup(b);
	free(copy);
	return res;
}

/* ---------------------------------------------------------------- building events */

static const char *borrow_file(const struct scenario *s, const char *name)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		if (strcmp(s->files[i], name) == 0)
			return s->files[i];
	}
	return NULL;
}

/* read_target() - the identity written in an action map @a (validated). */
static void read_target(const struct scenario *s, const struct val *a, struct scn_target *t)
{
	const char *av = val_str(val_map_get(a, "apiVersion"), NULL);
	const char *ns = val_str(val_map_get(a, "namespace"), "");

	t->api_version = av ? xstrdup(av) : NULL;
	t->kind = xstrdup(val_str(val_map_get(a, "kind"), ""));
	t->name = xstrdup(val_str(val_map_get(a, "name"), ""));
	if (!namespaced(s, t->kind, av))
		t->ns = xstrdup("");
	else
		t->ns = xstrdup(ns[0] ? ns : "default");
}

static void read_label_edit(const struct val *a, struct scn_event *e)
{
	const struct val *set = val_map_get(a, "set");
	const struct val *rm = val_map_get(a, "remove");

	for (size_t i = 0; set && set->type == VAL_MAP && i < set->u.map.n; i++)
		obj_strmap_set(&e->set, set->u.map.items[i].key,
			       val_str(set->u.map.items[i].v, ""));
	if (rm && rm->type == VAL_LIST && rm->u.list.n) {
		e->remove = xcalloc(rm->u.list.n, sizeof(*e->remove));
		for (size_t i = 0; i < rm->u.list.n; i++)
			e->remove[e->nremove++] = xstrdup(val_str(rm->u.list.items[i], ""));
	}
}

/*
 * Orders pointers into one array of events by (at, position in the array):
 * the order the runtime fires them in.
 */
static int cmp_event_firing(const void *a, const void *b)
{
	const struct scn_event *x = *(const struct scn_event *const *)a;
	const struct scn_event *y = *(const struct scn_event *const *)b;

	if (x->at_ms != y->at_ms)
		return x->at_ms < y->at_ms ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * check_targets() - every non-apply event must name an object that the
 * inputs define or that an apply event firing before it creates.  The
 * script is walked in firing order; problems are reported in file order.
 * @marks: per event, where its action sits; @evidx: its index in spec.events.
 */
static void check_targets(struct loader *L, const struct val_mark *marks, const size_t *evidx)
{
	struct scenario *s = L->s;
	size_t n = s->nevents ? s->nevents : 1;
	const struct scn_event **order = xcalloc(n, sizeof(*order));
	struct obj **created = xcalloc(n, sizeof(*created));
	const struct obj **found = xcalloc(n, sizeof(*found));
	size_t ncreated = 0;
	char ref[512];

	for (size_t i = 0; i < s->nevents; i++)
		order[i] = &s->events[i];
	qsort(order, s->nevents, sizeof(*order), cmp_event_firing);
	for (size_t k = 0; k < s->nevents; k++) {
		const struct scn_event *e = order[k];
		size_t i = (size_t)(e - s->events);

		if (e->type == SCN_EV_APPLY) {
			created[ncreated++] = e->obj;
			continue;
		}
		found[i] = find_obj(s->objs, s->nobjs, &e->target);
		if (!found[i])
			found[i] = find_obj(created, ncreated, &e->target);
	}
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const char *action = scn_event_type_name(e->type);
		const struct obj *o = found[i];

		if (e->type == SCN_EV_APPLY)
			continue;
		if (!o && was_rejected(L, e->target.kind, e->target.ns, e->target.name)) {
			continue;
		} else if (!o) {
			diag_error(L->d, e->file, marks[i], "spec.events[%zu].%s: %s not found",
				   evidx[i], action, ref_text(&e->target, ref, sizeof(ref)));
			diag_note(L->d, e->file, marks[i],
				  "no input defines it and no 'apply' event creates it earlier");
		} else if (e->target.api_version &&
			   strcmp(e->target.api_version, o->api_version) != 0) {
			diag_error(L->d, e->file, marks[i],
				   "spec.events[%zu].%s.apiVersion: Invalid value: \"%s\": %s is "
				   "defined with apiVersion \"%s\"",
				   evidx[i], action, e->target.api_version,
				   ref_text(&e->target, ref, sizeof(ref)), o->api_version);
		}
	}
	free(found);
	free(created);
	free(order);
}

/* build_mevent() - the model event of validated spec.events[@i] @ev, appended to s->mevents. */
static void build_mevent(struct loader *L, const struct val *ev, size_t i, const char *hz)
{
	struct scenario *s = L->s;
	const struct val *at = val_map_get(ev, "at");
	const struct val_kv *act = NULL;
	struct scn_mevent *e = &s->mevents[s->nmevents];
	size_t type = 0;

	for (; maction_names[type]; type++) {
		act = val_map_get_kv(ev, maction_names[type]);
		if (act)
			break;
	}
	if (!act)
		return; /* cannot happen: check_event() passed */
	memset(e, 0, sizeof(*e));
	e->type = (enum scn_mevent_type)type;
	e->at_ms = duration_ms(at);
	e->index = i;
	e->file = s->scenario_file;
	e->mark = act->key_mark;
	if (e->at_ms > s->horizon_ms)
		diag_warning(L->d, e->file, at->mark,
			     "spec.events[%zu].at: \"%s\" is after the horizon (%s); the event will "
			     "not happen",
			     i, at->u.s, hz);
	if (e->type == SCN_MEV_COMMIT) {
		const char *sha = val_str(val_map_get(act->v, "sha"), NULL);
		const char *ref = val_str(val_map_get(act->v, "ref"), NULL);

		e->repo_url = xstrdup(val_str(val_map_get(act->v, "repoURL"), ""));
		e->ref = ref ? xstrdup(ref) : NULL; /* resolved by check_mevents() */
		e->sha = sha ? xstrdup(sha) : NULL;
	} else {
		const char *ns = val_str(val_map_get(act->v, "namespace"), "");

		e->target.kind = xstrdup("Workspace");
		e->target.ns = xstrdup(ns[0] ? ns : "default");
		e->target.name = xstrdup(val_str(val_map_get(act->v, "name"), ""));
		if (e->type == SCN_MEV_FAIL_NEXT || e->type == SCN_MEV_SUCCEED_NEXT)
			e->job = strcmp(val_str(val_map_get(act->v, "job"), ""), "apply") == 0 ?
					 SCN_JOB_APPLY :
					 SCN_JOB_PLAN;
		if (e->type == SCN_MEV_VIOLATE)
			e->policy = xstrdup(val_str(val_map_get(act->v, "policy"), ""));
		if (e->type == SCN_MEV_RECONCILE_REQUEST && val_map_get(act->v, "value"))
			e->value = xstrdup(val_str(val_map_get(act->v, "value"), ""));
	}
	s->nmevents++;
}

/*
 * known_obj() - an object with this identity that the inputs define or that
 * an apply event at or before @at_ms creates (object events fire before model
 * events of the same instant), or NULL.
 */
static const struct obj *known_obj(const struct scenario *s, const char *kind, const char *ns,
				   const char *name, int64_t at_ms)
{
	const struct scn_target t = { NULL, (char *)kind, (char *)ns, (char *)name };
	const struct obj *o = find_obj(s->objs, s->nobjs, &t);

	for (size_t i = 0; !o && i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];

		if (e->type == SCN_EV_APPLY && e->at_ms <= at_ms && target_is(e->obj, &t))
			o = e->obj;
	}
	return o;
}

/* Workspaces the run can ever hold: the inputs' and those of apply events. */
static void each_workspace(const struct scenario *s,
			   void (*fn)(const struct obj *ws, void *ctx), void *ctx)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "Workspace") == 0)
			fn(s->objs[i], ctx);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].obj && strcmp(s->events[i].obj->kind, "Workspace") == 0)
			fn(s->events[i].obj, ctx);
}

/* What collect_refs() gathers: the distinct refs Workspaces on one repository track. */
struct tracked {
	const char *url;
	const char *head;
	const char **refs; /* canonical, borrowed */
	size_t n;
	size_t nws;        /* Workspaces on the repository */
};

static bool is_sha_ref(const char *ref)
{
	return strlen(ref) == 40;
}

static void collect_refs(const struct obj *ws, void *ctx)
{
	struct tracked *t = ctx;
	const char *url = val_str(val_path(ws->spec, "source.repoURL"), "");
	const char *rev = val_str(val_path(ws->spec, "source.targetRevision"), "");
	const char *c;

	if (strcmp(url, t->url) != 0)
		return;
	t->nws++;
	if (is_sha_ref(rev))
		return; /* pinned: resolves to itself, no commit moves it */
	c = scn_canonical_ref(rev, t->head);
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->refs[i], c) == 0)
			return;
	t->refs = xreallocarray(t->refs, t->n + 1, sizeof(*t->refs));
	t->refs[t->n++] = c;
}

/*
 * check_mevents() - every model event's Workspace must exist by then, a
 * violate event's policy must be a ValidatingPolicy of the run, and a commit
 * without `ref` takes the one ref the Workspaces on its repository track.
 */
static void check_mevents(struct loader *L)
{
	struct scenario *s = L->s;
	char ref[512];

	for (size_t i = 0; i < s->nmevents; i++) {
		struct scn_mevent *e = &s->mevents[i];
		const char *action = scn_mevent_type_name(e->type);

		if (e->type == SCN_MEV_COMMIT) {
			struct tracked t = { e->repo_url, scn_git_head(&s->models, e->repo_url), NULL,
					     0, 0 };

			each_workspace(s, collect_refs, &t);
			if (!e->ref && t.n > 1) {
				char *list = xstrdup("");

				for (size_t j = 0; j < t.n; j++) {
					char *next = xasprintf("%s%s%s", list, j ? ", " : "",
							       t.refs[j]);

					free(list);
					list = next;
				}
				diag_error(L->d, e->file, e->mark,
					   "spec.events[%zu].commit.ref: Required value: the Workspaces "
					   "on \"%s\" track several refs (%s)",
					   e->index, e->repo_url, list);
				diag_note(L->d, e->file, e->mark,
					  "say which one the commit goes to, e.g. ref: %s", t.refs[0]);
				free(list);
			} else if (!e->ref) {
				e->ref = xstrdup(t.n ? t.refs[0] : t.head);
			}
			if (t.nws == 0) {
				diag_warning(L->d, e->file, e->mark,
					     "spec.events[%zu].commit: no Workspace uses repository "
					     "\"%s\"; no RefWatcher will see this commit",
					     e->index, e->repo_url);
			} else if (e->ref) {
				bool tracked = false;
				const char *c = scn_canonical_ref(e->ref, t.head);

				for (size_t j = 0; j < t.n; j++)
					tracked = tracked || strcmp(t.refs[j], c) == 0;
				if (!tracked)
					diag_warning(L->d, e->file, e->mark,
						     "spec.events[%zu].commit: no Workspace on \"%s\" "
						     "tracks ref \"%s\"; no RefWatcher will see this "
						     "commit",
						     e->index, e->repo_url, e->ref);
			}
			free(t.refs);
			continue;
		}
		if (!known_obj(s, "Workspace", e->target.ns, e->target.name, e->at_ms) &&
		    !was_rejected(L, "Workspace", e->target.ns, e->target.name)) {
			diag_error(L->d, e->file, e->mark, "spec.events[%zu].%s: %s not found", e->index,
				   action, ref_text(&e->target, ref, sizeof(ref)));
			diag_note(L->d, e->file, e->mark,
				  "no input defines it and no 'apply' event creates it earlier");
		}
		if (e->type == SCN_MEV_VIOLATE &&
		    !known_obj(s, "ValidatingPolicy", "", e->policy, e->at_ms) &&
		    !was_rejected(L, "ValidatingPolicy", "", e->policy)) {
			diag_error(L->d, e->file, e->mark,
				   "spec.events[%zu].violate.policy: ValidatingPolicy \"%s\" not found",
				   e->index, e->policy);
			diag_note(L->d, e->file, e->mark,
				  "a violation names a policies.kyverno.io/v1 ValidatingPolicy of the "
				  "inputs");
		}
	}
}

/*
 * check_models() - what spec.models names must exist: each policy a
 * ValidatingPolicy of the run; names and repository URLs unique.
 */
static void check_models(struct loader *L)
{
	const struct val *pols = val_path(L->scn, "spec.models.policies");
	const struct val *repos = val_path(L->scn, "spec.models.git.repositories");
	const char *file = L->s->scenario_file;

	for (size_t i = 0; pols && pols->type == VAL_LIST && i < pols->u.list.n; i++) {
		const struct val *n = val_map_get(pols->u.list.items[i], "name");
		const char *name = val_str(n, NULL);

		if (!name)
			continue;
		for (size_t j = 0; j < i; j++) {
			if (strcmp(val_str(val_path(pols->u.list.items[j], "name"), ""), name) == 0) {
				diag_error(L->d, file, n->mark,
					   "spec.models.policies[%zu].name: Duplicate value: \"%s\"", i,
					   name);
				break;
			}
		}
		if (!known_obj(L->s, "ValidatingPolicy", "", name, INT64_MAX) &&
		    !was_rejected(L, "ValidatingPolicy", "", name)) {
			diag_error(L->d, file, n->mark,
				   "spec.models.policies[%zu].name: ValidatingPolicy \"%s\" not found",
				   i, name);
			diag_note(L->d, file, n->mark,
				  "a policy model names a policies.kyverno.io/v1 ValidatingPolicy of "
				  "the inputs");
		}
	}
	for (size_t i = 0; repos && repos->type == VAL_LIST && i < repos->u.list.n; i++) {
		const struct val *u = val_map_get(repos->u.list.items[i], "url");
		const char *url = val_str(u, NULL);

		for (size_t j = 0; url && j < i; j++) {
			if (strcmp(val_str(val_path(repos->u.list.items[j], "url"), ""), url) == 0) {
				diag_error(L->d, file, u->mark,
					   "spec.models.git.repositories[%zu].url: Duplicate value: "
					   "\"%s\"",
					   i, url);
				break;
			}
		}
	}
}

/* ---------------------------------------------------------------- fleet events */

/*
 * build_fevent() - the fleet event of validated spec.events[@i] @ev, appended
 * to s->fevents.  Returns false when @ev is not a fleet event.
 */
static bool build_fevent(struct loader *L, const struct val *ev, size_t i, const char *hz)
{
	struct scenario *s = L->s;
	const struct val *at = val_map_get(ev, "at");
	const struct val_kv *act = NULL;
	struct scn_fevent *e = &s->fevents[s->nfevents];
	size_t type = 0;

	for (; faction_names[type]; type++) {
		act = val_map_get_kv(ev, faction_names[type]);
		if (act)
			break;
	}
	if (!act)
		return false;
	memset(e, 0, sizeof(*e));
	e->type = (enum scn_fevent_type)type;
	e->at_ms = duration_ms(at);
	e->index = i;
	e->file = s->scenario_file;
	e->mark = act->key_mark;
	if (e->at_ms > s->horizon_ms)
		diag_warning(L->d, e->file, at->mark,
			     "spec.events[%zu].at: \"%s\" is after the horizon (%s); the event will "
			     "not happen",
			     i, at->u.s, hz);
	if (val_map_get(act->v, "selector")) {
		e->by_selector = true;
		lbl_selector_from_val(val_map_get(act->v, "selector"), &e->selector, NULL, 0);
		e->selector_text = lbl_selector_string(&e->selector);
	}
	if (e->type == SCN_FEV_PUBLISH) {
		const struct val *nsel = val_map_get(act->v, "namespaceSelector");

		if (nsel) {
			e->has_ns_selector = true;
			lbl_selector_from_val(nsel, &e->ns_selector, NULL, 0);
			e->ns_selector_text = lbl_selector_string(&e->ns_selector);
		}
		e->version = xstrdup(version_text(val_map_get(act->v, "version")));
	} else {
		const char *ns = val_str(val_map_get(act->v, "namespace"), NULL);
		const char *name = val_str(val_map_get(act->v, "name"), NULL);

		e->for_ms = duration_ms(val_map_get(act->v, "for"));
		e->target.kind = xstrdup("StageSet");
		if (name) {
			e->target.ns = xstrdup(ns ? ns : "default");
			e->target.name = xstrdup(name);
		} else {
			e->target.ns = ns ? xstrdup(ns) : NULL;
		}
	}
	s->nfevents++;
	return true;
}

/* The Namespaces of the inputs sorted by name, for fevent_matches(). */
struct ns_index {
	const struct obj **v;
	size_t n;
};

static int cmp_obj_name(const void *a, const void *b)
{
	return strcmp((*(const struct obj *const *)a)->name, (*(const struct obj *const *)b)->name);
}

static void ns_index_init(struct ns_index *x, const struct scenario *s)
{
	x->v = xcalloc(s->nobjs ? s->nobjs : 1, sizeof(*x->v));
	x->n = 0;
	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "Namespace") == 0)
			x->v[x->n++] = s->objs[i];
	if (x->n)
		qsort(x->v, x->n, sizeof(*x->v), cmp_obj_name);
}

/* ns_find() - the Namespace object @name of the inputs, or NULL.  Cost: O(log n). */
static const struct obj *ns_find(const struct ns_index *x, const char *name)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(x->v[mid]->name, name);

		if (c == 0)
			return x->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * fevent_matches() - whether StageSet @o is one that fleet event @e acts on,
 * judged with the labels the inputs give (the run may relabel).
 */
static bool fevent_matches(const struct ns_index *nsx, const struct scn_fevent *e,
			   const struct obj *o)
{
	if (strcmp(o->kind, "StageSet") != 0)
		return false;
	if (e->target.ns && strcmp(o->ns, e->target.ns) != 0)
		return false;
	if (!lbl_matches(&e->selector, &o->labels))
		return false;
	if (e->has_ns_selector) {
		const struct obj *ns = ns_find(nsx, o->ns);

		if (!ns || !lbl_matches(&e->ns_selector, &ns->labels))
			return false;
	}
	return true;
}

/*
 * check_fevents() - a regress event's StageSet must exist by then; a publish
 * of a text that is not a semantic version, and a selector no StageSet of the
 * inputs matches, are warnings (the run may still make sense of them).
 */
static void check_fevents(struct loader *L)
{
	struct scenario *s = L->s;
	struct ns_index nsx;
	char ref[512];
	bool gen_refused = false;

	/* a refused spec.generate item (already reported) may be what a target needed */
	for (size_t k = 0; k < L->ngen; k++)
		gen_refused = gen_refused || !L->gen_ok[k];
	ns_index_init(&nsx, s);
	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *e = &s->fevents[i];
		const char *action = scn_fevent_type_name(e->type);
		bool any = gen_refused;

		if (e->type == SCN_FEV_PUBLISH) {
			struct ss_semver sv;
			char err[128];

			if (ss_semver_parse(e->version, &sv, err, sizeof(err)) != SS_OK)
				diag_warning(L->d, e->file, e->mark,
					     "spec.events[%zu].publish.version: \"%s\" is not a "
					     "semantic version (%s); the members offered it will report "
					     "Ready False InvalidVersion",
					     e->index, e->version, err);
		}
		if (!e->by_selector) {
			if (!gen_refused &&
			    !known_obj(s, "StageSet", e->target.ns, e->target.name, e->at_ms) &&
			    !was_rejected(L, "StageSet", e->target.ns, e->target.name)) {
				diag_error(L->d, e->file, e->mark, "spec.events[%zu].%s: %s not found",
					   e->index, action, ref_text(&e->target, ref, sizeof(ref)));
				diag_note(L->d, e->file, e->mark,
					  "no input defines it and no 'apply' event creates it "
					  "earlier");
			}
			continue;
		}
		for (size_t j = 0; !any && j < s->nobjs; j++)
			any = fevent_matches(&nsx, e, s->objs[j]);
		for (size_t j = 0; !any && j < s->nevents; j++)
			any = s->events[j].obj && s->events[j].at_ms <= e->at_ms &&
			      fevent_matches(&nsx, e, s->events[j].obj);
		if (!any)
			diag_warning(L->d, e->file, e->mark,
				     "spec.events[%zu].%s: no StageSet of the inputs%s%s%s matches "
				     "selector \"%s\"%s%s%s",
				     e->index, action, e->target.ns ? " in namespace \"" : "",
				     e->target.ns ? e->target.ns : "", e->target.ns ? "\"" : "",
				     e->selector_text,
				     e->has_ns_selector ? " in namespaces matching \"" : "",
				     e->has_ns_selector ? e->ns_selector_text : "",
				     e->has_ns_selector ? "\"" : "");
	}
	free(nsx.v);
}

/* ---------------------------------------------------------------- generate */

/* set_marked() - @key of map @m := @v (stolen), key and value at @mark.  Returns @v. */
static struct val *set_marked(struct val *m, const char *key, struct val *v, struct val_mark mark)
{
	val_map_set(m, key, v);
	val_map_get_kv(m, key)->key_mark = mark;
	if (v->mark.line == 0)
		v->mark = mark;
	return v;
}

static struct val *marked_string(const char *text, struct val_mark mark)
{
	struct val *v = val_new_string(text);

	v->mark = mark;
	return v;
}

/* add_labels() - the entries of label map @src, values expanded with @idx, into map @dst. */
static void add_labels(struct val *dst, const struct val *src, uint64_t idx)
{
	for (size_t i = 0; src && src->type == VAL_MAP && i < src->u.map.n; i++) {
		const struct val_kv *kv = &src->u.map.items[i];
		char *x = scn_expand_pattern(val_str(kv->v, ""), idx, NULL, 0);

		set_marked(dst, kv->key, marked_string(x ? x : "", kv->v->mark), kv->key_mark);
		val_map_get(dst, kv->key)->mark = kv->v->mark;
		free(x);
	}
}

/* object_doc() - a new manifest tree: apiVersion, kind, metadata {name, namespace?, labels?}. */
static struct val *object_doc(const char *api_version, const char *kind, struct val_mark mark)
{
	struct val *doc = val_new_map();

	doc->mark = mark;
	set_marked(doc, "apiVersion", marked_string(api_version, mark), mark);
	set_marked(doc, "kind", marked_string(kind, mark), mark);
	set_marked(doc, "metadata", val_new_map(), mark)->mark = mark;
	return doc;
}

/*
 * mix_blocks() - how many of @count objects each labelMix entry gets:
 * quotas count × weight / total, rounded down, then the objects left over
 * one each to the entries with the largest fractional parts (ties: the
 * earlier entry) — Hamilton's largest-remainder method.  Returns a new
 * array of @mix->u.list.n counts.
 */
static uint64_t *mix_blocks(const struct val *mix, uint64_t count)
{
	size_t n = mix->u.list.n;
	uint64_t *blocks = xcalloc(n, sizeof(*blocks));
	double *frac = xcalloc(n, sizeof(*frac));
	double total = 0;
	uint64_t given = 0;

	for (size_t i = 0; i < n; i++)
		total += val_num(val_map_get(mix->u.list.items[i], "weight"), 1);
	for (size_t i = 0; i < n; i++) {
		double q = (double)count * val_num(val_map_get(mix->u.list.items[i], "weight"), 1) /
			   total;
		double f = floor(q);

		blocks[i] = (uint64_t)f;
		frac[i] = q - f;
		given += blocks[i];
	}
	while (given < count) {
		size_t best = 0;

		for (size_t i = 1; i < n; i++)
			if (frac[i] > frac[best])
				best = i;
		blocks[best]++;
		frac[best] = -1;
		given++;
	}
	free(frac);
	return blocks;
}

/*
 * generate_objects() - the StageSets and Namespaces of every spec.generate
 * entry that validated, admitted into @set after the manifests.  An entry
 * stops at its first refused object, so a bad template or pattern is
 * reported once.
 */
static void generate_objects(struct loader *L, struct man_set *set)
{
	const struct val *gen = val_path(L->scn, "spec.generate");
	const char *file = L->s->scenario_file;
	size_t before = set->n;

	for (size_t k = 0; gen && gen->type == VAL_LIST && k < L->ngen; k++) {
		const struct val *g = gen->u.list.items[k];
		const struct val *nsv = val_map_get(g, "namespace");
		const struct val *namev = val_map_get(g, "name");
		const struct val *labels = val_map_get(g, "labels");
		const struct val *mix = val_map_get(g, "labelMix");
		const struct val *nslabels = val_map_get(g, "namespaceLabels");
		const struct val *tmpl = val_map_get(g, "template");
		uint64_t count, first, *blocks = NULL;
		size_t entry = 0;
		uint64_t left = 0;

		if (!L->gen_ok[k])
			continue;
		count = (uint64_t)val_int(val_map_get(g, "count"), 0);
		first = (uint64_t)val_int(val_map_get(g, "firstIndex"), 0);
		if (mix) {
			blocks = mix_blocks(mix, count);
			left = blocks[0];
		}
		for (uint64_t j = 0; j < count; j++) {
			uint64_t idx = first + j;
			char *ns = scn_expand_pattern(nsv->u.s, idx, NULL, 0);
			char *name = scn_expand_pattern(namev->u.s, idx, NULL, 0);
			struct val *doc, *meta, *lab;
			int rc = 0;

			if (!man_find(set, "Namespace", "", ns)) {
				doc = object_doc("v1", "Namespace", g->mark);
				meta = val_map_get(doc, "metadata");
				set_marked(meta, "name", marked_string(ns, nsv->mark), nsv->mark);
				if (nslabels && nslabels->u.map.n) {
					lab = set_marked(meta, "labels", val_new_map(), nslabels->mark);
					add_labels(lab, nslabels, idx);
				}
				rc = man_load_doc(file, doc, set, L->d);
				val_free(doc);
			}
			if (rc == 0) {
				doc = object_doc("stages.metio.wtf/v1", "StageSet", g->mark);
				meta = val_map_get(doc, "metadata");
				set_marked(meta, "name", marked_string(name, namev->mark), namev->mark);
				set_marked(meta, "namespace", marked_string(ns, nsv->mark), nsv->mark);
				if (mix)
					while (left == 0 && entry + 1 < mix->u.list.n)
						left = blocks[++entry];
				if ((labels && labels->u.map.n) || mix) {
					lab = set_marked(meta, "labels", val_new_map(),
							 labels ? labels->mark : g->mark);
					add_labels(lab, labels, idx);
					if (mix)
						add_labels(lab,
							   val_map_get(mix->u.list.items[entry],
								       "labels"),
							   idx);
				}
				if (mix)
					left--;
				set_marked(doc, "spec", val_copy(tmpl),
					   val_map_get_kv(g, "template")->key_mark);
				rc = man_load_doc(file, doc, set, L->d);
				val_free(doc);
			}
			free(ns);
			free(name);
			if (rc != 0) {
				diag_note(L->d, file, g->mark,
					  "spec.generate[%zu]: stopped at the first refused object "
					  "(index %" PRIu64 ", %" PRIu64 " of %" PRIu64 ")",
					  k, idx, j + 1, count);
				break;
			}
		}
		free(blocks);
	}
	L->s->ngenerated = set->n - before;
}

/* ---------------------------------------------------------------- gates and series */

/* claimed_for() - the first spec.metrics entry a gate (@query, @address) reads, or NULL. */
static const struct claimed_series *claimed_for(const struct loader *L, const char *query,
						const char *address)
{
	const struct claimed_series *any = NULL;

	for (size_t i = 0; i < L->nclaimed; i++) {
		const struct claimed_series *c = &L->claimed[i];

		if (strcmp(c->query, query) != 0)
			continue;
		if (c->address && address && strcmp(c->address, address) == 0)
			return c;
		if (!c->address && !any)
			any = c;
	}
	return any;
}

/* Per spec.metrics entry: whether a gate reads it (check_gates()). */
struct gate_scan {
	struct loader *L;
	bool *used; /* per claimed entry */
};

/*
 * warn_threshold() - a bound of @wave's gate threshold that Go's ParseFloat
 * refuses makes the verdict Unknown on every pass (lint MS205): a warning,
 * since the run still shows what happens (the wave holds).
 */
static void warn_threshold(struct loader *L, const struct val *wave, const char *file,
			   const char *fname, const char *wname)
{
	const struct val *th = val_path(wave, "gate.threshold");
	static const char *const names[] = { "min", "max" };
	bool noted = false;

	for (size_t k = 0; k < 2; k++) {
		const struct val *b = val_map_get(th, names[k]);
		char err[THR_ERRLEN];
		char *q;
		int rc;

		/* (the CRD makes it a string; an empty one is a bound too, and fails) */
		if (!b || b->type != VAL_STRING)
			continue;
		rc = thr_parse_float(b->u.s, NULL);
		if (rc == THR_OK)
			continue;
		q = sch_quote(b);
		diag_warning(L->d, file, b->mark,
			     "FleetRollout \"%s\": wave \"%s\": gate threshold %s %s is not a number "
			     "(%s); the gate's verdict is Unknown on every pass and the wave holds",
			     fname, wname, names[k], q,
			     thr_parse_float_error(b->u.s, rc, err, sizeof(err)));
		if (!noted)
			diag_note(L->d, file, b->mark,
				  "bounds are read by Go's strconv.ParseFloat: a plain or "
				  "hexadecimal float such as \"0.01\", \"1e-2\", \"0x1p-7\", "
				  "\"Inf\"; no units or percent signs (1%% is \"0.01\")");
		noted = true;
		free(q);
	}
}

/* check_fleet_gates() - the prometheus gates of FleetRollout @o (from @file). */
static void check_fleet_gates(struct gate_scan *g, const struct obj *o, const char *file)
{
	struct loader *L = g->L;
	const struct scn_fleet *fleet = &L->s->fleet;
	const struct val *waves = val_map_get(o->spec, "waves");
	char *fname = sch_abbrev(o->name);

	for (size_t w = 0; waves && waves->type == VAL_LIST && w < waves->u.list.n; w++) {
		const struct val *wave = waves->u.list.items[w];
		const struct val *prom = val_path(wave, "gate.source.prometheus");
		const struct val *q = val_map_get(prom, "query");
		const struct val *a = val_map_get(prom, "address");
		const char *address = val_str(a, NULL);
		char *wname = sch_abbrev(val_str(val_map_get(wave, "name"), ""));
		const struct claimed_series *c;
		char host[256];

		warn_threshold(L, wave, file, fname, wname);
		if (!prom || !q || q->type != VAL_STRING || val_map_get(prom, "secretRef")) {
			free(wname);
			continue; /* webhook gate, no gate, or GateUnsupported: never queried */
		}
		c = claimed_for(L, q->u.s, address);
		if (c) {
			g->used[c - L->claimed] = true;
		} else if ((!L->static_only || L->s->has_scenario_doc) &&
			   (L->s->has_scenario_doc || !L->yaml_failed)) {
			/*
			 * (a run's requirement, not the API server's: scn_load_static()
			 * skips it; so does a YAML error that may have cost the Scenario
			 * document, already reported)
			 */
			char *qq = sch_quote(q);
			const struct claimed_series *other = NULL;

			diag_error(L->d, file, q->mark,
				   "FleetRollout \"%s\": wave \"%s\": no series in spec.metrics for the "
				   "gate query %s",
				   fname, wname, qq);
			for (size_t i = 0; !other && i < L->nclaimed; i++)
				if (strcmp(L->claimed[i].query, q->u.s) == 0)
					other = &L->claimed[i];
			if (other)
				diag_note(L->d, L->s->scenario_file, other->mark,
					  "spec.metrics[%zu] has this query for address \"%s\", not "
					  "\"%s\"",
					  other->index, other->address, address ? address : "");
			else if (L->s->has_scenario_doc)
				diag_note(L->d, file, q->mark,
					  "every prometheus gate reads a synthetic series: add an entry "
					  "with this exact query to the Scenario's spec.metrics");
			else
				diag_note(L->d, file, q->mark,
					  "every prometheus gate reads a synthetic series: add a Scenario "
					  "document (apiVersion: magos-sim/v1alpha1) whose spec.metrics "
					  "has an entry with this exact query");
			free(qq);
		}
		if (address && thr_url_hostname(address, host, sizeof(host)) != THR_OK) {
			diag_warning(L->d, file, a->mark,
				     "FleetRollout \"%s\": wave \"%s\": gate address \"%s\" is not an "
				     "http(s) URL with a host; the gate's verdict is Unknown on every "
				     "pass and the wave holds",
				     fname, wname, address);
		} else if (address &&
			   !thr_host_allowed((const char *const *)fleet->allowed_action_hosts,
					     fleet->nallowed_action_hosts, host)) {
			diag_warning(L->d, file, a->mark,
				     "FleetRollout \"%s\": wave \"%s\": gate host \"%s\" is not in "
				     "spec.fleet.allowedActionHosts; the gate's verdict is Unknown on "
				     "every pass and the wave holds",
				     fname, wname, host);
		}
		free(wname);
	}
	free(fname);
}

/*
 * check_gates() - every prometheus gate of every FleetRollout the run can
 * hold (the inputs' and those of apply events) has a series; gate addresses
 * the controller would refuse are warnings; a series no gate reads is a
 * warning.
 */
static void check_gates(struct loader *L)
{
	struct scenario *s = L->s;
	struct gate_scan g = { L, xcalloc(L->nclaimed ? L->nclaimed : 1, sizeof(bool)) };

	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "FleetRollout") == 0)
			check_fleet_gates(&g, s->objs[i], s->objs[i]->src.file);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].obj && strcmp(s->events[i].obj->kind, "FleetRollout") == 0)
			check_fleet_gates(&g, s->events[i].obj, s->events[i].file);
	/* a refused FleetRollout (already reported) may be the one whose gate reads it */
	for (size_t i = 0; i < L->nrejected; i++)
		if (strcmp(L->rejected[i].kind, "FleetRollout") == 0)
			memset(g.used, 1, (L->nclaimed ? L->nclaimed : 1) * sizeof(bool));
	for (size_t i = 0; i < L->nclaimed; i++)
		if (!g.used[i])
			diag_warning(L->d, s->scenario_file, L->claimed[i].mark,
				     "spec.metrics[%zu]: no FleetRollout gate reads this series",
				     L->claimed[i].index);
	free(g.used);
}

/*
 * build_events() - scn_event records from the events of the Scenario that
 * validated; apply payloads are admitted here.
 */
static void build_events(struct loader *L)
{
	struct scenario *s = L->s;
	const struct val *events = val_path(L->scn, "spec.events");
	const char *file = s->scenario_file;
	struct val_mark *marks;
	size_t *evidx;
	char hz[GT_DURATION_BUFSZ];

	if (!events || events->type != VAL_LIST || L->nev == 0)
		return;
	s->events = xcalloc(L->nev, sizeof(*s->events));
	s->mevents = xcalloc(L->nev, sizeof(*s->mevents));
	s->fevents = xcalloc(L->nev, sizeof(*s->fevents));
	marks = xcalloc(L->nev, sizeof(*marks));
	evidx = xcalloc(L->nev, sizeof(*evidx));
	gt_format_duration(s->horizon_ms, hz, sizeof(hz));
	for (size_t i = 0; i < L->nev; i++) {
		const struct val *ev = events->u.list.items[i];
		const struct val *at = val_map_get(ev, "at");
		struct scn_event *e = &s->events[s->nevents];
		const struct val_kv *act = NULL;
		size_t type = 0;

		if (!L->ev_ok[i])
			continue;
		for (; action_names[type]; type++) {
			act = val_map_get_kv(ev, action_names[type]);
			if (act)
				break;
		}
		if (!act) {
			if (!build_fevent(L, ev, i, hz))
				build_mevent(L, ev, i, hz);
			continue;
		}
		memset(e, 0, sizeof(*e));
		e->type = (enum scn_event_type)type;
		e->at_ms = duration_ms(at);
		e->index = i;
		e->file = file;
		e->mark = at->mark;
		if (e->at_ms > s->horizon_ms) {
			diag_warning(L->d, file, at->mark,
				     "spec.events[%zu].at: \"%s\" is after the horizon (%s); the "
				     "event will not happen",
				     i, at->u.s, hz);
		}
		switch (e->type) {
		case SCN_EV_APPLY: {
			int rc = adm_admit(file, act->v, &e->obj, L->d);

			if (rc == ADM_IGNORED) {
				char *what = adm_describe_ignored(act->v);

				diag_note(L->d, file, act->key_mark,
					  "spec.events[%zu].apply: %s is of a kind the simulated "
					  "controllers do not read; the event is ignored",
					  i, what);
				free(what);
				continue;
			}
			if (rc != 0) {
				struct man_rejected r;

				/* Reported; the event is dropped, and so are "not found"s about it. */
				if (adm_identity(act->v, &r.kind, &r.ns, &r.name)) {
					L->rejected = xreallocarray(L->rejected, L->nrejected + 1,
								    sizeof(*L->rejected));
					L->rejected[L->nrejected++] = r;
				}
				continue;
			}
		}
			e->target.api_version = xstrdup(e->obj->api_version);
			e->target.kind = xstrdup(e->obj->kind);
			e->target.ns = xstrdup(e->obj->ns);
			e->target.name = xstrdup(e->obj->name);
			break;
		case SCN_EV_DELETE:
			read_target(s, act->v, &e->target);
			break;
		case SCN_EV_ANNOTATE:
		case SCN_EV_LABEL:
			read_target(s, act->v, &e->target);
			read_label_edit(act->v, e);
			break;
		case SCN_EV_PATCH:
		case SCN_EV_STATUS:
			read_target(s, act->v, &e->target);
			e->merge = val_copy(val_map_get(act->v, "merge"));
			break;
		}
		marks[s->nevents] = act->key_mark;
		evidx[s->nevents] = i;
		s->nevents++;
	}
	check_targets(L, marks, evidx);
	check_mevents(L);
	check_fevents(L);
	free(evidx);
	free(marks);
}

/* ---------------------------------------------------------------- scn_load */

static int load(const char *const *paths, size_t npaths, struct scenario *out, struct diag *d,
		bool static_only)
{
	struct loader L = { .s = out, .d = d, .static_only = static_only };
	struct man_set set;
	size_t nerr0 = d->nerrors;

	scn_init(out);
	for (size_t i = 0; i < npaths; i++)
		load_input(&L, paths[i]);
	if (npaths == 0)
		diag_error(d, NULL, (struct val_mark){ 0, 0 }, "no input files");

	/* Pass 2: admit the manifests, in input order. */
	man_set_init(&set);
	for (size_t i = 0; i < L.ndocs; i++)
		man_load_doc(L.docs[i].file, L.docs[i].root, &set, d);
	if (L.scn)
		generate_objects(&L, &set);
	out->objs = man_take(&set, &out->nobjs);
	L.rejected = set.rejected;
	L.nrejected = set.nrejected;
	set.rejected = NULL;
	set.nrejected = 0;
	if (set.nignored) {
		char *list = xstrdup("");

		out->ignored = xcalloc(set.nignored, sizeof(*out->ignored));
		for (size_t i = 0; i < set.nignored; i++) {
			char *next = xasprintf("%s%s%s", list, i ? ", " : "", set.ignored[i].text);

			free(list);
			list = next;
			out->ignored[out->nignored++] = xstrdup(set.ignored[i].text);
		}
		diag_note(d, set.ignored[0].file, set.ignored[0].mark,
			  "%zu object%s of kinds the simulated controllers do not read %s accepted "
			  "and ignored: %s",
			  set.nignored, set.nignored == 1 ? "" : "s", set.nignored == 1 ? "is" : "are",
			  list);
		free(list);
	}
	for (size_t i = 0; i < out->nobjs; i++) {
		const char *f = out->objs[i]->src.file;

		/* The set names only files read here, so the lookup always succeeds. */
		out->objs[i]->src.file = f ? borrow_file(out, f) : NULL;
	}
	man_set_release(&set);

	if (!out->name)
		out->name = base_name(npaths ? paths[0] : "scenario");

	/* Pass 3: events and what the models name. */
	if (L.scn) {
		build_events(&L);
		check_models(&L);
	}
	check_gates(&L);

	for (size_t i = 0; i < L.nstreams; i++)
		yl_stream_release(&L.streams[i]);
	free(L.streams);
	free(L.ids);
	free(L.docs);
	free(L.ev_ok);
	free(L.gen_ok);
	free(L.claimed);
	man_rejected_release(L.rejected, L.nrejected);
	return d->nerrors > nerr0 ? -1 : 0;
}

int scn_load(const char *const *paths, size_t npaths, struct scenario *out, struct diag *d)
{
	return load(paths, npaths, out, d, false);
}

int scn_load_static(const char *const *paths, size_t npaths, struct scenario *out,
		    struct diag *d)
{
	return load(paths, npaths, out, d, true);
}
