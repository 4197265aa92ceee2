/*
 * The StageSet world's settings (sim/load/scn_ssworld.h): the keys of
 * spec.models.stagesets that describe the world of the StageSet controller
 * (apply, readiness, readyExprs, regression.effect, actions, restore,
 * anchors, pods, podListErrors, rules[].stage), spec.models.sources, the
 * mapping of the member-model keys onto them, their defaults and release,
 * the note on the sources a run models, and the source a sourceRef names.  The schema tables are wired
 * into spec.models by scn_models.c.
 */
#include "sim/load/scn_ssworld.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/strindex.h"
#include "sim/load/scn_parse.h"


static const char *const op_texts[SCN_SW_NOPS] = {
	"fetch artifact", "decrypt", "resolve postBuild variables", "build", "image verification",
	"conflict policy", "apply", "record inventory",
};

static const char *const op_keys[SCN_SW_NOPS] = {
	"fetch", "decrypt", "postBuild", "build", "imageVerification", "conflictPolicy", "apply",
	"recordInventory",
};

const char *scn_sw_op_text(enum scn_sw_op op)
{
	return (unsigned)op < SCN_SW_NOPS ? op_texts[op] : NULL;
}

const char *scn_sw_op_key(enum scn_sw_op op)
{
	return (unsigned)op < SCN_SW_NOPS ? op_keys[op] : NULL;
}

bool scn_sw_in_windows(const struct scn_sw_windows *w, int64_t t_ms)
{
	for (size_t i = 0; w && i < w->n; i++)
		if (w->items[i].from_ms <= t_ms && t_ms < w->items[i].until_ms)
			return true;
	return false;
}

void scn_sw_windows_release(struct scn_sw_windows *w)
{
	if (!w)
		return;
	free(w->items);
	w->items = NULL;
	w->n = 0;
}

static void failure_init(struct scn_sw_failure *f)
{
	memset(f, 0, sizeof(*f));
	f->op = SCN_SW_OP_APPLY;
	f->cls = SSC_ERR;
}

static void failure_release(struct scn_sw_failure *f)
{
	scn_sw_windows_release(&f->during);
	free(f->message);
	failure_init(f);
}

static void readiness_release(struct scn_sw_readiness *r)
{
	dist_release(&r->delay);
	memset(r, 0, sizeof(*r));
	dist_init_constant(&r->delay, 0);
}

void scn_sw_behaviour_release(struct scn_sw_behaviour *b)
{
	if (!b)
		return;
	dist_release(&b->apply.duration);
	failure_release(&b->apply.failure);
	for (size_t i = 0; i < b->apply.nconflicts; i++) {
		struct scn_sw_conflict *k = &b->apply.conflicts[i];

		free(k->api_version);
		free(k->kind);
		free(k->name);
		free(k->ns);
		scn_sw_windows_release(&k->during);
		free(k->message);
	}
	free(b->apply.conflicts);
	readiness_release(&b->readiness);
	readiness_release(&b->exprs);
	dist_release(&b->regression.after);
	dist_release(&b->regression.duration);
	for (size_t i = 0; i < b->regression.nversions; i++)
		free(b->regression.versions[i]);
	free(b->regression.versions);
	for (size_t i = 0; i < b->nactions; i++) {
		struct scn_sw_action *a = &b->actions[i];

		free(a->name);
		free(a->stage);
		free(a->phase);
		dist_release(&a->duration);
		failure_release(&a->failure);
	}
	free(b->actions);
	dist_release(&b->restore.duration);
	free(b->restore.message);
	memset(b, 0, sizeof(*b));
	dist_init_constant(&b->apply.duration, 0);
	failure_init(&b->apply.failure);
	dist_init_constant(&b->readiness.delay, 0);
	dist_init_constant(&b->exprs.delay, 0);
	dist_init_constant(&b->regression.after, 0);
	dist_init_constant(&b->regression.duration, 0);
	dist_init_constant(&b->restore.duration, 0);
}

void scn_sw_config_init(struct scn_sw_config *c)
{
	struct scn_sw_behaviour *t = &c->top;

	memset(c, 0, sizeof(*c));
	scn_sw_behaviour_release(t); /* zeroed: fills the unset constants */
	t->apply.has_duration = true;
	dist_init_constant(&t->apply.duration, SCN_SW_DEFAULT_APPLY_MS);
	t->apply.has_failure = true;
	t->readiness.has_delay = t->readiness.has_failed = t->readiness.has_never = true;
	dist_init_constant(&t->readiness.delay, SCN_SW_DEFAULT_READY_MS);
	t->exprs.has_delay = t->exprs.has_failed = t->exprs.has_never = true;
	dist_init_constant(&t->exprs.delay, SCN_SW_DEFAULT_EXPRS_MS);
	t->regression.has_probability = t->regression.has_after = t->regression.has_duration = true;
	t->regression.has_effect = true;
	t->regression.effect = SCN_SW_EFFECT_FAILED;
	dist_init_constant(&t->regression.after, SCN_SW_DEFAULT_REGRESSION_AFTER_MS);
	dist_init_constant(&t->regression.duration, SCN_SW_DEFAULT_REGRESSION_MS);
	t->restore.has_duration = t->restore.has_outcome = true;
	t->restore.outcome = SCN_SW_RESTORED;
	dist_init_constant(&t->restore.duration, SCN_SW_DEFAULT_RESTORE_MS);
}

static void anchor_release(struct scn_sw_anchor *a)
{
	free(a->api_version);
	free(a->kind);
	free(a->name);
	free(a->ns);
	scn_sw_windows_release(&a->unreadable);
}

static void files_release(char **paths, char **texts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(paths[i]);
		free(texts[i]);
	}
	free(paths);
	free(texts);
}

static void objects_release(struct scn_sw_objects *o)
{
	for (size_t i = 0; i < o->nstages; i++) {
		struct scn_sw_stage_objects *st = &o->stages[i];

		for (size_t k = 0; k < st->n; k++) {
			free(st->kinds[k]);
			free(st->names[k]);
		}
		free(st->groups);
		free(st->kinds);
		free(st->names);
		free(st->stage);
	}
	free(o->stages);
	memset(o, 0, sizeof(*o));
}

static void source_release(struct scn_sw_source *s)
{
	free(s->kind);
	free(s->ns);
	free(s->name);
	free(s->initial_version);
	dist_release(&s->fetch_duration);
	scn_sw_windows_release(&s->missing);
	scn_sw_windows_release(&s->not_ready);
	scn_sw_windows_release(&s->forbidden);
	scn_sw_windows_release(&s->fetch_errors);
	scn_sw_windows_release(&s->version_missing);
	scn_sw_windows_release(&s->version_empty);
	files_release(s->paths, s->texts, s->nfiles);
	objects_release(&s->objects);
	for (size_t i = 0; i < s->nupdates; i++) {
		files_release(s->updates[i].paths, s->updates[i].texts, s->updates[i].nfiles);
		objects_release(&s->updates[i].objects);
	}
	free(s->updates);
}

static void pods_release(struct scn_sw_pods *p)
{
	free(p->ns);
	obj_strmap_release(&p->labels);
	free(p->restarts);
	for (size_t i = 0; i < p->nwarnings; i++)
		free(p->warnings[i].reason);
	free(p->warnings);
}

void scn_sw_config_release(struct scn_sw_config *c)
{
	if (!c)
		return;
	scn_sw_behaviour_release(&c->top);
	for (size_t i = 0; i < c->nrules; i++) {
		lbl_selector_release(&c->rules[i].selector);
		free(c->rules[i].selector_text);
		free(c->rules[i].stage);
		scn_sw_behaviour_release(&c->rules[i].b);
	}
	free(c->rules);
	for (size_t i = 0; i < c->nanchors; i++)
		anchor_release(&c->anchors[i]);
	free(c->anchors);
	for (size_t i = 0; i < c->nsources; i++)
		source_release(&c->sources[i]);
	free(c->sources);
	for (size_t i = 0; i < c->npods; i++)
		pods_release(&c->pods[i]);
	free(c->pods);
	for (size_t i = 0; i < c->nlist_errors; i++) {
		free(c->list_errors[i].ns);
		free(c->list_errors[i].message);
	}
	free(c->list_errors);
	for (size_t i = 0; i < c->nread_errors; i++) {
		free(c->read_errors[i].ns);
		free(c->read_errors[i].name);
		free(c->read_errors[i].message);
	}
	free(c->read_errors);
	scn_sw_windows_release(&c->store.put_errors);
	scn_sw_windows_release(&c->store.get_errors);
	scn_sw_windows_release(&c->store.corrupt);
	free(c->store.message);
	memset(c, 0, sizeof(*c));
}

/* ---------------------------------------------------------------- schema */

static void check_windows_item(struct sch_ctx *c, const struct val *v, const char *path);
static void check_pods_item(struct sch_ctx *c, const struct val *v, const char *path);
static void check_updates(struct sch_ctx *c, const struct val *v, const char *path);
static void check_update_item(struct sch_ctx *c, const struct val *v, const char *path);
static void check_objects(struct sch_ctx *c, const struct val *v, const char *path);
static void check_stage_objects(struct sch_ctx *c, const struct val *v, const char *path);
static void check_anchor(struct sch_ctx *c, const struct val *v, const char *path);
static void check_op_class(struct sch_ctx *c, const struct val *v, const char *path);
static void check_restore(struct sch_ctx *c, const struct val *v, const char *path);
static void check_conflicts(struct sch_ctx *c, const struct val *v, const char *path);

/* {from, until}: a window of simulated time; without `until` it never ends. */
static const struct sch_field window_fields[] = {
	{ .name = "from", .schema = &scnp_ms_duration_node, .required = true },
	{ .name = "until", .schema = &scnp_ms_duration_node },
	{ .name = NULL },
};
static const struct sch_node window_node = { .type = SCH_OBJECT, .fields = window_fields,
					     .check = check_windows_item };
const struct sch_node scnp_sw_windows_node = { .type = SCH_ARRAY, .items = &window_node };

static const char *const ops[] = { "fetch", "decrypt", "postBuild", "build", "imageVerification",
				   "conflictPolicy", "apply", "recordInventory", NULL };
static const struct sch_node op_node = { .type = SCH_STRING, .enum_values = ops };
static const char *const apply_classes[] = { "plain", "terminalFetch", "forbidden", NULL };
static const struct sch_node apply_class_node = { .type = SCH_STRING, .enum_values = apply_classes };
static const char *const action_classes[] = { "plain", "noRetry", "forbidden", NULL };
static const struct sch_node action_class_node = { .type = SCH_STRING,
						   .enum_values = action_classes };

/* What a failure of an apply is; `probability` defaults to 1 once the map is given. */
static const struct sch_field apply_failure_fields[] = {
	{ .name = "probability", .schema = &scnp_probability_node },
	{ .name = "during", .schema = &scnp_sw_windows_node },
	{ .name = "op", .schema = &op_node },
	{ .name = "class", .schema = &apply_class_node },
	{ .name = "message", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
static const struct sch_node apply_failure_node = { .type = SCH_OBJECT,
						    .fields = apply_failure_fields,
						    .check = check_op_class };
/* An object with immutable fields a stage renders; every key optional. */
static const struct sch_field conflict_fields[] = {
	{ .name = "apiVersion", .schema = &sch_string_nonempty },
	{ .name = "kind", .schema = &sch_string_nonempty },
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "probability", .schema = &scnp_probability_node },
	{ .name = "during", .schema = &scnp_sw_windows_node },
	{ .name = "forceAnnotation", .schema = &sch_boolean },
	{ .name = "message", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
static const struct sch_node conflict_node = { .type = SCH_OBJECT, .fields = conflict_fields };
static const struct sch_node conflicts_node = { .type = SCH_ARRAY, .items = &conflict_node,
						.check = check_conflicts };
static const struct sch_field apply_fields[] = {
	{ .name = "duration", .schema = &scnp_dist_node },
	{ .name = "failure", .schema = &apply_failure_node },
	{ .name = "conflicts", .schema = &conflicts_node },
	{ .name = NULL },
};
const struct sch_node scnp_sw_apply_node = { .type = SCH_OBJECT, .fields = apply_fields };

static const struct sch_field readiness_fields[] = {
	{ .name = "delay", .schema = &scnp_dist_node },
	{ .name = "failedProbability", .schema = &scnp_probability_node },
	{ .name = "neverProbability", .schema = &scnp_probability_node },
	{ .name = NULL },
};
const struct sch_node scnp_sw_readiness_node = { .type = SCH_OBJECT, .fields = readiness_fields };

static const char *const effects[] = { "Failed", "NotReady", NULL };
const struct sch_node scnp_sw_effect_node = { .type = SCH_STRING, .enum_values = effects };

static const char *const phases[] = { "pre", "post", "onFailure", "onRollback", "migration", NULL };
static const struct sch_node phase_node = { .type = SCH_STRING, .enum_values = phases };
static const struct sch_field action_failure_fields[] = {
	{ .name = "probability", .schema = &scnp_probability_node },
	{ .name = "during", .schema = &scnp_sw_windows_node },
	{ .name = "class", .schema = &action_class_node },
	{ .name = "message", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
static const struct sch_node action_failure_node = { .type = SCH_OBJECT,
						     .fields = action_failure_fields };
static const struct sch_field action_fields[] = {
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "stage", .schema = &sch_string_nonempty },
	{ .name = "phase", .schema = &phase_node },
	{ .name = "duration", .schema = &scnp_dist_node },
	{ .name = "failure", .schema = &action_failure_node },
	{ .name = NULL },
};
static const struct sch_node action_node = { .type = SCH_OBJECT, .fields = action_fields };
const struct sch_node scnp_sw_actions_node = { .type = SCH_ARRAY, .items = &action_node };

static const char *const outcomes[] = { "restored", "previousRevisionUnavailable", "imageUnverified",
					"applyFailed", "transient", NULL };
static const struct sch_node outcome_node = { .type = SCH_STRING, .enum_values = outcomes };
static const struct sch_field restore_fields[] = {
	{ .name = "duration", .schema = &scnp_dist_node },
	{ .name = "outcome", .schema = &outcome_node },
	{ .name = "message", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
const struct sch_node scnp_sw_restore_node = { .type = SCH_OBJECT, .fields = restore_fields,
					       .check = check_restore };

static const struct sch_field store_fields[] = {
	{ .name = "putErrors", .schema = &scnp_sw_windows_node },
	{ .name = "getErrors", .schema = &scnp_sw_windows_node },
	{ .name = "corrupt", .schema = &scnp_sw_windows_node },
	{ .name = "message", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
const struct sch_node scnp_sw_store_node = { .type = SCH_OBJECT, .fields = store_fields };

static const struct sch_field anchor_fields[] = {
	{ .name = "apiVersion", .schema = &sch_string_nonempty },
	{ .name = "kind", .schema = &sch_string_nonempty, .required = true },
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "name", .schema = &sch_string_nonempty, .required = true },
	{ .name = "goneAt", .schema = &scnp_ms_duration_node },
	{ .name = "recreatedAt", .schema = &scnp_ms_duration_node },
	{ .name = "unreadable", .schema = &scnp_sw_windows_node },
	{ .name = NULL },
};
static const struct sch_node anchor_node = { .type = SCH_OBJECT, .fields = anchor_fields,
					     .check = check_anchor };
const struct sch_node scnp_sw_anchors_node = { .type = SCH_ARRAY, .items = &anchor_node };

static const struct sch_node count_node = { .type = SCH_INTEGER, .has_minimum = true,
					    .minimum = 1 };
static const struct sch_node total_node = { .type = SCH_INTEGER, .has_minimum = true,
					    .minimum = 0 };
static const struct sch_field restarts_fields[] = {
	{ .name = "at", .schema = &scnp_ms_duration_node, .required = true },
	{ .name = "total", .schema = &total_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node restarts_item_node = { .type = SCH_OBJECT, .fields = restarts_fields };
static const struct sch_node restarts_node = { .type = SCH_ARRAY, .items = &restarts_item_node };
static const struct sch_field warning_fields[] = {
	{ .name = "at", .schema = &scnp_ms_duration_node, .required = true },
	{ .name = "until", .schema = &scnp_ms_duration_node },
	{ .name = "reason", .schema = &sch_string_nonempty, .required = true },
	{ .name = "count", .schema = &count_node },
	{ .name = NULL },
};
static const struct sch_node warning_item_node = { .type = SCH_OBJECT, .fields = warning_fields,
						   .check = check_windows_item };
static const struct sch_node warnings_node = { .type = SCH_ARRAY, .items = &warning_item_node };
static const struct sch_field pods_fields[] = {
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "labels", .schema = &sch_string_map, .required = true },
	{ .name = "restarts", .schema = &restarts_node },
	{ .name = "warnings", .schema = &warnings_node },
	{ .name = NULL },
};
static const struct sch_node pods_item_node = { .type = SCH_OBJECT, .fields = pods_fields,
						.check = check_pods_item };
const struct sch_node scnp_sw_pods_node = { .type = SCH_ARRAY, .items = &pods_item_node };

static const char *const lists[] = { "pods", "events", "both", NULL };
static const struct sch_node list_node = { .type = SCH_STRING, .enum_values = lists };
static const char *const list_classes[] = { "transient", "forbidden", NULL };
static const struct sch_node list_class_node = { .type = SCH_STRING, .enum_values = list_classes };
static const struct sch_field list_error_fields[] = {
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "list", .schema = &list_node },
	{ .name = "from", .schema = &scnp_ms_duration_node, .required = true },
	{ .name = "until", .schema = &scnp_ms_duration_node },
	{ .name = "class", .schema = &list_class_node },
	{ .name = "message", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
static const struct sch_node list_error_node = { .type = SCH_OBJECT, .fields = list_error_fields,
						 .check = check_windows_item };
const struct sch_node scnp_sw_list_errors_node = { .type = SCH_ARRAY, .items = &list_error_node };

/* sources[].objects: stage name → the objects its render holds besides the workload. */
static const struct sch_node stage_objects_node = { .type = SCH_ARRAY, .items = &sch_string_nonempty,
						    .check = check_stage_objects };
static const struct sch_node objects_node = { .type = SCH_MAP, .items = &stage_objects_node,
					      .check = check_objects };
static const char *const read_error_objects[] = { "StageLedger", "StageInventory", "both", NULL };
static const struct sch_node read_object_node = { .type = SCH_STRING, .enum_values = read_error_objects };
static const struct sch_field read_error_fields[] = {
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "object", .schema = &read_object_node },
	{ .name = "from", .schema = &scnp_ms_duration_node, .required = true },
	{ .name = "until", .schema = &scnp_ms_duration_node },
	{ .name = "message", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
static const struct sch_node read_error_node = { .type = SCH_OBJECT, .fields = read_error_fields,
						 .check = check_windows_item };
const struct sch_node scnp_sw_read_errors_node = { .type = SCH_ARRAY, .items = &read_error_node };

static const struct sch_field update_fields[] = {
	{ .name = "at", .schema = &scnp_positive_duration_node, .required = true },
	{ .name = "files", .schema = &sch_string_map },
	{ .name = "objects", .schema = &objects_node },
	{ .name = NULL },
};
static const struct sch_node update_item_node = { .type = SCH_OBJECT, .fields = update_fields,
						  .check = check_update_item };
static const struct sch_node updates_node = { .type = SCH_ARRAY, .items = &update_item_node,
					      .check = check_updates };

static const char *const source_kinds[] = { "ExternalArtifact", "GitRepository", "OCIRepository",
					    "Bucket", NULL };
static const struct sch_node source_kind_node = { .type = SCH_STRING, .enum_values = source_kinds };
static const struct sch_node version_text_node = { .type = SCH_ANY,
						   .check = scnp_check_version_text };
static const struct sch_field source_fields[] = {
	{ .name = "kind", .schema = &source_kind_node },
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "initialVersion", .schema = &version_text_node },
	{ .name = "fetchDuration", .schema = &scnp_dist_node },
	{ .name = "missing", .schema = &scnp_sw_windows_node },
	{ .name = "notReady", .schema = &scnp_sw_windows_node },
	{ .name = "forbidden", .schema = &scnp_sw_windows_node },
	{ .name = "fetchErrors", .schema = &scnp_sw_windows_node },
	{ .name = "versionMissing", .schema = &scnp_sw_windows_node },
	{ .name = "versionEmpty", .schema = &scnp_sw_windows_node },
	{ .name = "gcAt", .schema = &scnp_ms_duration_node },
	{ .name = "files", .schema = &sch_string_map },
	{ .name = "objects", .schema = &objects_node },
	{ .name = "updates", .schema = &updates_node },
	{ .name = NULL },
};
static const struct sch_node source_node = { .type = SCH_OBJECT, .fields = source_fields };
const struct sch_node scnp_sw_sources_node = { .type = SCH_ARRAY, .items = &source_node };

/* ---------------------------------------------------------------- checks */

/* `until` (when given) later than `from` (or `at`), compared in whole ms as stored. */
static void check_windows_item(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val *from = val_map_get(v, "from");

	scnp_check_until(c, from ? from : val_map_get(v, "at"), from ? "from" : "at", val_map_get(v, "until"),
			 path);
}

static void check_pods_item(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val *labels = val_map_get(v, "labels");
	const struct val *r = val_map_get(v, "restarts");

	if (labels->u.map.n == 0)
		sch_report(c, labels->mark, path,
			   "Invalid value: \"object\": labels must not be empty (a gate's selector is "
			   "never empty)");
	for (size_t i = 1; r && i < r->u.list.n; i++)
		if (scnp_duration_ms(val_map_get(r->u.list.items[i], "at")) <=
		    scnp_duration_ms(val_map_get(r->u.list.items[i - 1], "at"))) {
			sch_report(c, r->u.list.items[i]->mark, path,
				   "Invalid value: \"object\": restarts[%zu].at must be later than "
				   "restarts[%zu].at",
				   i, i - 1);
			break;
		}
}

/* A source's updates come one after another: each `at` later than the one before. */
static void check_updates(struct sch_ctx *c, const struct val *v, const char *path)
{
	for (size_t i = 1; i < v->u.list.n; i++)
		if (scnp_duration_ms(val_map_get(v->u.list.items[i], "at")) <=
		    scnp_duration_ms(val_map_get(v->u.list.items[i - 1], "at"))) {
			sch_report(c, val_map_get(v->u.list.items[i], "at")->mark, path,
				   "Invalid value: \"object\": updates[%zu].at must be later than "
				   "updates[%zu].at (a source's revisions follow one another)",
				   i, i - 1);
			break;
		}
}

/* An update is a new revision: of the files, of the objects, or both. */
static void check_update_item(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (!val_map_get(v, "files") && !val_map_get(v, "objects"))
		sch_report(c, v->mark, path,
			   "Required value: an update sets files, objects or both (what the new revision "
			   "holds)");
}

/*
 * The kinds an `objects` entry may name, with their API groups: what a
 * stage's manifests commonly hold (the StageInventory entry ID is
 * "<group>_<kind>_<namespace>_<name>").
 */
static const struct {
	const char *kind, *group;
} object_kinds[] = {
	{ "ConfigMap", "" },
	{ "CronJob", "batch" },
	{ "DaemonSet", "apps" },
	{ "Deployment", "apps" },
	{ "HorizontalPodAutoscaler", "autoscaling" },
	{ "Ingress", "networking.k8s.io" },
	{ "Job", "batch" },
	{ "NetworkPolicy", "networking.k8s.io" },
	{ "PersistentVolumeClaim", "" },
	{ "PodDisruptionBudget", "policy" },
	{ "Role", "rbac.authorization.k8s.io" },
	{ "RoleBinding", "rbac.authorization.k8s.io" },
	{ "Secret", "" },
	{ "Service", "" },
	{ "ServiceAccount", "" },
	{ "StatefulSet", "apps" },
};
#define NOBJECT_KINDS (sizeof(object_kinds) / sizeof(object_kinds[0]))
#define OBJECT_KINDS_TEXT                                                                               \
	"ConfigMap, CronJob, DaemonSet, Deployment, HorizontalPodAutoscaler, Ingress, Job, NetworkPolicy, " \
	"PersistentVolumeClaim, PodDisruptionBudget, Role, RoleBinding, Secret, Service, ServiceAccount, "   \
	"StatefulSet"

/* The API group of @kind (its first @len bytes), or NULL when not one of object_kinds. */
static const char *object_group(const char *kind, size_t len)
{
	for (size_t i = 0; i < NOBJECT_KINDS; i++)
		if (strlen(object_kinds[i].kind) == len && strncmp(object_kinds[i].kind, kind, len) == 0)
			return object_kinds[i].group;
	return NULL;
}

/* Whether @s is a DNS-1123 label (a stage name's pattern). */
static bool dns_label(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

/* Whether @s is a DNS-1123 subdomain (an object name). */
static bool dns_subdomain(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 253 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')) ||
	    !((s[n - 1] >= 'a' && s[n - 1] <= 'z') || (s[n - 1] >= '0' && s[n - 1] <= '9')))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '.'))
			return false;
	return true;
}

/* The keys of `objects` are stage names. */
static void check_objects(struct sch_ctx *c, const struct val *v, const char *path)
{
	for (size_t i = 0; i < v->u.map.n; i++)
		if (!dns_label(v->u.map.items[i].key))
			sch_report(c, v->u.map.items[i].key_mark, path,
				   "Invalid value: \"%s\": a key of objects is a stage name (lower-case letters, "
				   "digits and '-', at most 63 characters)",
				   v->u.map.items[i].key);
}

/* Each entry "Kind/name", a known kind, no two alike. */
static void check_stage_objects(struct sch_ctx *c, const struct val *v, const char *path)
{
	for (size_t i = 0; i < v->u.list.n; i++) {
		const struct val *x = v->u.list.items[i];
		const char *s = val_str(x, "");
		const char *slash = strchr(s, '/');

		if (!slash || !object_group(s, (size_t)(slash - s)) || !dns_subdomain(slash + 1)) {
			sch_report(c, x->mark, path,
				   "Invalid value: \"%s\": an object is \"Kind/name\", the name a DNS-1123 "
				   "subdomain and the kind one of " OBJECT_KINDS_TEXT,
				   s);
			continue;
		}
		for (size_t k = 0; k < i; k++)
			if (strcmp(val_str(v->u.list.items[k], ""), s) == 0) {
				sch_report(c, x->mark, path, "Duplicate value: \"%s\": objects[%zu] names it already",
					   s, k);
				break;
			}
	}
}

static void check_anchor(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val *gone = val_map_get(v, "goneAt");
	const struct val *back = val_map_get(v, "recreatedAt");

	if (back && !gone)
		sch_report(c, back->mark, path,
			   "Invalid value: \"object\": recreatedAt needs goneAt (a witness is recreated "
			   "after it is gone)");
	else if (back && scnp_duration_ms(back) <= scnp_duration_ms(gone))
		sch_report(c, back->mark, path,
			   "Invalid value: \"object\": recreatedAt must be later than goneAt");
}

/* A message words an outcome: it comes with one. */
static void check_restore(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val_kv *msg = val_map_get_kv(v, "message");

	if (msg && !val_map_get(v, "outcome"))
		sch_report(c, msg->key_mark, path,
			   "Invalid value: \"object\": message words an outcome: give the outcome too");
}

/* The object an entry names, its defaults filled in as the world fills them. */
static void conflict_identity(const struct val *x, const char **av, const char **kind, const char **name,
			      const char **ns)
{
	*kind = val_str(val_map_get(x, "kind"), "Deployment");
	*av = val_str(val_map_get(x, "apiVersion"), strcmp(*kind, "Deployment") == 0 ? "apps/v1" : "v1");
	*name = val_str(val_map_get(x, "name"), "");
	*ns = val_str(val_map_get(x, "namespace"), "");
}

/*
 * A stage renders each object once: two entries naming the same object
 * (apiVersion, kind, name, namespace, defaults filled in) would make one
 * object two.  O(n²) over a list a person writes for one stage.
 */
static void check_conflicts(struct sch_ctx *c, const struct val *v, const char *path)
{
	for (size_t i = 1; i < v->u.list.n; i++) {
		const char *a[4], *b[4];

		conflict_identity(v->u.list.items[i], &a[0], &a[1], &a[2], &a[3]);
		for (size_t j = 0; j < i; j++) {
			conflict_identity(v->u.list.items[j], &b[0], &b[1], &b[2], &b[3]);
			if (strcmp(a[0], b[0]) == 0 && strcmp(a[1], b[1]) == 0 && strcmp(a[2], b[2]) == 0 &&
			    strcmp(a[3], b[3]) == 0) {
				sch_report(c, v->u.list.items[i]->mark, path,
					   "Duplicate value: \"object\": [%zu] names the same object as [%zu] "
					   "(a stage renders each object once)",
					   i, j);
				return;
			}
		}
	}
}

/* A terminal fetch error is one of the fetch, as upstream's failStage reads it. */
static void check_op_class(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val *cls = val_map_get(v, "class");

	if (cls && strcmp(cls->u.s, "terminalFetch") == 0 &&
	    strcmp(val_str(val_map_get(v, "op"), "apply"), "fetch") != 0)
		sch_report(c, cls->mark, path,
			   "Invalid value: \"terminalFetch\": only a fetch failure is terminal (op: "
			   "fetch)");
}

/*
 * The member-model keys beside the world's, in one stagesets map or rule @v
 * at @path: adoption.duration and adoption.failureProbability are the old
 * names of readiness.delay and readiness.failedProbability (one of each
 * pair); `migrations` is refused (a StageSet's ladder is its own
 * spec.migrations).
 */
static void check_member_keys(struct sch_ctx *c, const struct val *v, const char *path)
{
	static const char *const pairs[][2] = { { "duration", "delay" },
						{ "failureProbability", "failedProbability" } };
	const struct val *ad = val_map_get(v, "adoption");
	const struct val *rd = val_map_get(v, "readiness");
	const struct val_kv *mig = val_map_get_kv(v, "migrations");

	for (size_t i = 0; ad && rd && ad->type == VAL_MAP && rd->type == VAL_MAP && i < 2; i++) {
		const struct val_kv *old = val_map_get_kv(ad, pairs[i][0]);

		if (!old || !val_map_get(rd, pairs[i][1]))
			continue;
		sch_report(c, old->key_mark, path,
			   "Invalid value: \"object\": adoption.%s and readiness.%s are one setting; "
			   "give readiness.%s only",
			   pairs[i][0], pairs[i][1], pairs[i][1]);
	}
	if (mig) {
		sch_report(c, mig->key_mark, path,
			   "Forbidden: migrations are not a model any more: the StageSet controller "
			   "runs each StageSet's own spec.migrations (or spec.migrationsSourceRef)");
		sch_note(c, mig->key_mark,
			 "move the ladder into the StageSets' spec.migrations, with its actions and "
			 "down actions");
	}
}

void scnp_sw_check_member_keys(struct sch_ctx *c, const struct val *models, const char *path)
{
	const struct val *ss = val_map_get(models, "stagesets");
	const struct val *rules = val_map_get(ss, "rules");
	char *p;

	if (!ss || ss->type != VAL_MAP)
		return;
	p = xasprintf("%s.stagesets", path);
	check_member_keys(c, ss, p);
	free(p);
	for (size_t i = 0; rules && rules->type == VAL_LIST && i < rules->u.list.n; i++) {
		if (rules->u.list.items[i]->type != VAL_MAP)
			continue;
		p = xasprintf("%s.stagesets.rules[%zu]", path, i);
		check_member_keys(c, rules->u.list.items[i], p);
		free(p);
	}
}

/* ---------------------------------------------------------------- reading */

static int window_cmp(const void *a, const void *b)
{
	const struct scn_sw_window *x = a, *y = b;

	return x->from_ms < y->from_ms ? -1 : x->from_ms > y->from_ms;
}

/* A validated list of windows @l (NULL: none) into @w; sets *@has when given. */
static void read_windows(const struct val *l, struct scn_sw_windows *w, bool *has)
{
	if (!l)
		return;
	if (has)
		*has = true;
	w->items = xcalloc(l->u.list.n ? l->u.list.n : 1, sizeof(*w->items));
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		const struct val *until = val_map_get(x, "until");

		w->items[w->n].from_ms = scnp_duration_ms(val_map_get(x, "from"));
		w->items[w->n++].until_ms = until ? scnp_duration_ms(until) : INT64_MAX;
	}
	qsort(w->items, w->n, sizeof(*w->items), window_cmp);
}

void scnp_sw_read_windows(const struct val *l, struct scn_sw_windows *w)
{
	read_windows(l, w, NULL);
}

static size_t enum_index(const char *const *names, const char *s)
{
	for (size_t i = 0; names[i]; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return 0;
}

static void read_prob(const struct val *v, const char *key, double *p, bool *has)
{
	const struct val *x = val_map_get(v, key);

	if (x) {
		*p = val_num(x, 0);
		if (has)
			*has = true;
	}
}

static char *opt_str(const struct val *v, const char *key)
{
	const char *s = val_str(val_map_get(v, key), NULL);

	return s ? xstrdup(s) : NULL;
}

/* A validated failure map @v (NULL: none) into @f; @apply: an apply's (op, its classes). */
static void read_failure(const struct val *v, struct scn_sw_failure *f, bool *has, bool apply)
{
	static const enum ssc_errc apply_codes[] = { SSC_ERR, SSC_ERR_TERMINAL_FETCH, SSC_ERR_FORBIDDEN };
	static const enum ssc_errc action_codes[] = { SSC_ERR, SSC_ERR_NO_RETRY, SSC_ERR_FORBIDDEN };
	const char *cls = val_str(val_map_get(v, "class"), "plain");

	if (!v)
		return;
	*has = true;
	f->probability = 1;
	read_prob(v, "probability", &f->probability, NULL);
	read_windows(val_map_get(v, "during"), &f->during, NULL);
	f->op = apply ? (enum scn_sw_op)enum_index(ops, val_str(val_map_get(v, "op"), "apply"))
		      : SCN_SW_OP_APPLY;
	f->cls = apply ? apply_codes[enum_index(apply_classes, cls)]
		       : action_codes[enum_index(action_classes, cls)];
	f->message = opt_str(v, "message");
}

/* A validated conflicts list @l (NULL: none) into @a. */
static void read_conflicts(const struct val *l, struct scn_sw_apply *a)
{
	if (!l)
		return;
	a->has_conflicts = true;
	a->conflicts = xcalloc(l->u.list.n ? l->u.list.n : 1, sizeof(*a->conflicts));
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		struct scn_sw_conflict *k = &a->conflicts[a->nconflicts++];

		k->api_version = opt_str(x, "apiVersion");
		k->kind = opt_str(x, "kind");
		k->name = opt_str(x, "name");
		k->ns = opt_str(x, "namespace");
		k->probability = 1;
		read_prob(x, "probability", &k->probability, NULL);
		read_windows(val_map_get(x, "during"), &k->during, NULL);
		k->force_annotation = val_bool(val_map_get(x, "forceAnnotation"), false);
		k->message = opt_str(x, "message");
	}
}

static void read_readiness(const struct val *v, struct scn_sw_readiness *r)
{
	scnp_read_dist(v, "delay", &r->delay, &r->has_delay);
	read_prob(v, "failedProbability", &r->failed_probability, &r->has_failed);
	read_prob(v, "neverProbability", &r->never_probability, &r->has_never);
}

static void read_actions(const struct val *l, struct scn_sw_behaviour *b)
{
	if (!l)
		return;
	b->has_actions = true;
	b->actions = xcalloc(l->u.list.n ? l->u.list.n : 1, sizeof(*b->actions));
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		struct scn_sw_action *a = &b->actions[b->nactions++];

		a->name = opt_str(x, "name");
		a->stage = opt_str(x, "stage");
		a->phase = opt_str(x, "phase");
		dist_init_constant(&a->duration, 0);
		scnp_read_dist(x, "duration", &a->duration, &a->has_duration);
		a->failure.cls = SSC_ERR;
		read_failure(val_map_get(x, "failure"), &a->failure, &a->has_failure, false);
	}
}

/*
 * The world's keys of a validated stagesets map or rule @v into @b (whose
 * unset fields stay unset), the member-model adoption keys mapped onto
 * readiness, regression read as the member model reads it plus `effect`.
 */
static void read_behaviour(const struct val *v, struct scn_sw_behaviour *b)
{
	static const enum scn_sw_restore_outcome outs[] = { SCN_SW_RESTORED, SCN_SW_PREVIOUS_UNAVAILABLE,
							    SCN_SW_IMAGE_UNVERIFIED, SCN_SW_APPLY_FAILED,
							    SCN_SW_TRANSIENT };
	const struct val *ap = val_map_get(v, "apply");
	const struct val *ad = val_map_get(v, "adoption");
	const struct val *reg = val_map_get(v, "regression");
	const struct val *rs = val_map_get(v, "restore");
	const struct val *vs = val_map_get(reg, "versions");
	const struct val *x;

	scnp_read_dist(ap, "duration", &b->apply.duration, &b->apply.has_duration);
	read_failure(val_map_get(ap, "failure"), &b->apply.failure, &b->apply.has_failure, true);
	read_conflicts(val_map_get(ap, "conflicts"), &b->apply);
	scnp_read_dist(ad, "duration", &b->readiness.delay, &b->readiness.has_delay);
	read_prob(ad, "failureProbability", &b->readiness.failed_probability,
		  &b->readiness.has_failed);
	read_readiness(val_map_get(v, "readiness"), &b->readiness);
	read_readiness(val_map_get(v, "readyExprs"), &b->exprs);
	read_prob(reg, "probability", &b->regression.probability, &b->regression.has_probability);
	scnp_read_dist(reg, "duration", &b->regression.duration, &b->regression.has_duration);
	scnp_read_dist(reg, "after", &b->regression.after, &b->regression.has_after);
	if (vs) {
		b->regression.has_versions = true;
		b->regression.versions = xcalloc(vs->u.list.n ? vs->u.list.n : 1, sizeof(char *));
		for (size_t i = 0; i < vs->u.list.n; i++)
			b->regression.versions[b->regression.nversions++] =
				xstrdup(scnp_version_text(vs->u.list.items[i]));
	}
	if ((x = val_map_get(reg, "effect")) != NULL) {
		b->regression.has_effect = true;
		b->regression.effect = (enum scn_sw_effect)enum_index(effects, x->u.s);
	}
	read_actions(val_map_get(v, "actions"), b);
	scnp_read_dist(rs, "duration", &b->restore.duration, &b->restore.has_duration);
	if ((x = val_map_get(rs, "outcome")) != NULL) {
		b->restore.has_outcome = true;
		b->restore.outcome = outs[enum_index(outcomes, x->u.s)];
	}
	if (b->restore.has_outcome)
		b->restore.message = opt_str(rs, "message");
}

static void read_anchors(const struct val *l, struct scn_sw_config *c)
{
	if (!l || l->u.list.n == 0)
		return;
	c->anchors = xcalloc(l->u.list.n, sizeof(*c->anchors));
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		struct scn_sw_anchor *a = &c->anchors[c->nanchors++];
		const struct val *g = val_map_get(x, "goneAt"), *r = val_map_get(x, "recreatedAt");

		a->api_version = opt_str(x, "apiVersion");
		a->kind = opt_str(x, "kind");
		a->ns = opt_str(x, "namespace");
		a->name = opt_str(x, "name");
		a->gone_ms = g ? scnp_duration_ms(g) : INT64_MAX;
		a->recreated_ms = r ? scnp_duration_ms(r) : INT64_MAX;
		read_windows(val_map_get(x, "unreadable"), &a->unreadable, NULL);
	}
}

static void read_pods(const struct val *l, struct scn_sw_config *c)
{
	if (!l || l->u.list.n == 0)
		return;
	c->pods = xcalloc(l->u.list.n, sizeof(*c->pods));
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		const struct val *labels = val_map_get(x, "labels");
		const struct val *r = val_map_get(x, "restarts"), *w = val_map_get(x, "warnings");
		struct scn_sw_pods *p = &c->pods[c->npods++];

		p->ns = opt_str(x, "namespace");
		obj_strmap_init(&p->labels);
		for (size_t k = 0; k < labels->u.map.n; k++)
			obj_strmap_set(&p->labels, labels->u.map.items[k].key,
				       val_str(labels->u.map.items[k].v, ""));
		if (r && r->u.list.n) {
			p->restarts = xcalloc(r->u.list.n, sizeof(*p->restarts));
			for (size_t k = 0; k < r->u.list.n; k++) {
				const struct val *y = r->u.list.items[k];
				int64_t t = val_int(val_map_get(y, "total"), 0);

				p->restarts[p->nrestarts].at_ms = scnp_duration_ms(val_map_get(y, "at"));
				p->restarts[p->nrestarts++].total = t > INT32_MAX ? INT32_MAX : (int32_t)t;
			}
		}
		if (w && w->u.list.n) {
			p->warnings = xcalloc(w->u.list.n, sizeof(*p->warnings));
			for (size_t k = 0; k < w->u.list.n; k++) {
				const struct val *y = w->u.list.items[k];
				const struct val *until = val_map_get(y, "until");
				int64_t n = val_int(val_map_get(y, "count"), 1);

				p->warnings[p->nwarnings].at_ms = scnp_duration_ms(val_map_get(y, "at"));
				p->warnings[p->nwarnings].until_ms = until ? scnp_duration_ms(until) : INT64_MAX;
				p->warnings[p->nwarnings].reason = opt_str(y, "reason");
				p->warnings[p->nwarnings++].count = n > INT32_MAX ? INT32_MAX : (int32_t)n;
			}
		}
	}
}

static void read_list_errors(const struct val *l, struct scn_sw_config *c)
{
	if (!l || l->u.list.n == 0)
		return;
	c->list_errors = xcalloc(l->u.list.n, sizeof(*c->list_errors));
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		const struct val *until = val_map_get(x, "until");
		const char *which = val_str(val_map_get(x, "list"), "both");
		struct scn_sw_list_error *e = &c->list_errors[c->nlist_errors++];

		e->ns = opt_str(x, "namespace");
		e->pods = strcmp(which, "events") != 0;
		e->events = strcmp(which, "pods") != 0;
		e->window.from_ms = scnp_duration_ms(val_map_get(x, "from"));
		e->window.until_ms = until ? scnp_duration_ms(until) : INT64_MAX;
		e->cls = strcmp(val_str(val_map_get(x, "class"), "transient"), "forbidden") == 0
				 ? SSC_ERR_FORBIDDEN
				 : SSC_ERR;
		e->message = opt_str(x, "message");
	}
}

static void read_read_errors(const struct val *l, struct scn_sw_config *c)
{
	if (!l || l->u.list.n == 0)
		return;
	c->read_errors = xcalloc(l->u.list.n, sizeof(*c->read_errors));
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		const struct val *until = val_map_get(x, "until");
		const char *which = val_str(val_map_get(x, "object"), "both");
		struct scn_sw_read_error *e = &c->read_errors[c->nread_errors++];

		e->ns = opt_str(x, "namespace");
		e->name = opt_str(x, "name");
		e->ledger = strcmp(which, "StageInventory") != 0;
		e->inventory = strcmp(which, "StageLedger") != 0;
		e->window.from_ms = scnp_duration_ms(val_map_get(x, "from"));
		e->window.until_ms = until ? scnp_duration_ms(until) : INT64_MAX;
		e->message = opt_str(x, "message");
	}
}

const struct scn_sw_read_error *scn_sw_read_error_at(const struct scn_sw_config *c, const char *ns,
						     const char *name, bool inventory, int64_t t_ms)
{
	for (size_t i = 0; i < c->nread_errors; i++) {
		const struct scn_sw_read_error *e = &c->read_errors[i];

		if ((inventory ? e->inventory : e->ledger) && (!e->ns || strcmp(e->ns, ns) == 0) &&
		    (!e->name || strcmp(e->name, name) == 0) && t_ms >= e->window.from_ms &&
		    t_ms < e->window.until_ms)
			return e;
	}
	return NULL;
}

int64_t scn_sw_read_errors_from(const struct scn_sw_config *c, const char *ns, const char *name, int64_t t_ms)
{
	int64_t first = INT64_MAX;

	for (size_t i = 0; i < c->nread_errors; i++) {
		const struct scn_sw_read_error *e = &c->read_errors[i];

		if ((!e->ns || strcmp(e->ns, ns) == 0) && (!e->name || strcmp(e->name, name) == 0) &&
		    e->window.until_ms > t_ms && e->window.from_ms < first)
			first = e->window.from_ms;
	}
	return first;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The map of path → text @files into *@paths and *@texts (owned, sorted by path), *@n entries. */
static void read_files(const struct val *files, char ***paths, char ***texts, size_t *n)
{
	char **pairs = xcalloc(files->u.map.n ? files->u.map.n : 1, sizeof(char *));

	*n = files->u.map.n;
	*paths = xcalloc(*n ? *n : 1, sizeof(char *));
	*texts = xcalloc(*n ? *n : 1, sizeof(char *));
	/* sorted by path: sort the keys, then look each text up */
	for (size_t k = 0; k < *n; k++)
		pairs[k] = files->u.map.items[k].key;
	qsort(pairs, *n, sizeof(char *), path_cmp);
	for (size_t k = 0; k < *n; k++) {
		(*paths)[k] = xstrdup(pairs[k]);
		(*texts)[k] = xstrdup(val_str(val_map_get(files, pairs[k]), ""));
	}
	free(pairs);
}

static int stage_objects_cmp(const void *a, const void *b)
{
	return strcmp(((const struct scn_sw_stage_objects *)a)->stage,
		      ((const struct scn_sw_stage_objects *)b)->stage);
}

/* The map stage → ["Kind/name", ...] @m (checked) into @o, sorted by stage. */
static void read_objects(const struct val *m, struct scn_sw_objects *o)
{
	o->nstages = m->u.map.n;
	o->stages = xcalloc(o->nstages ? o->nstages : 1, sizeof(*o->stages));
	for (size_t i = 0; i < o->nstages; i++) {
		struct scn_sw_stage_objects *st = &o->stages[i];
		const struct val *l = m->u.map.items[i].v;

		st->stage = xstrdup(m->u.map.items[i].key);
		st->n = l->u.list.n;
		st->groups = xcalloc(st->n ? st->n : 1, sizeof(*st->groups));
		st->kinds = xcalloc(st->n ? st->n : 1, sizeof(*st->kinds));
		st->names = xcalloc(st->n ? st->n : 1, sizeof(*st->names));
		for (size_t k = 0; k < st->n; k++) {
			const char *s = val_str(l->u.list.items[k], "");
			const char *slash = strchr(s, '/');

			st->kinds[k] = xstrndup(s, (size_t)(slash - s));
			st->groups[k] = object_group(s, (size_t)(slash - s));
			st->names[k] = xstrdup(slash + 1);
		}
	}
	if (o->nstages > 1)
		qsort(o->stages, o->nstages, sizeof(*o->stages), stage_objects_cmp);
}

const struct scn_sw_stage_objects *scn_sw_objects_of(const struct scn_sw_objects *o, const char *stage)
{
	struct scn_sw_stage_objects key;

	if (!o || o->nstages == 0)
		return NULL;
	key.stage = (char *)stage;
	return bsearch(&key, o->stages, o->nstages, sizeof(*o->stages), stage_objects_cmp);
}

static void read_sources(const struct val *l, struct scn_sw_config *c, const char *file)
{
	if (!l || l->u.list.n == 0)
		return;
	c->sources = xcalloc(l->u.list.n, sizeof(*c->sources));
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *x = l->u.list.items[i];
		const struct val *files = val_map_get(x, "files");
		const struct val *updates = val_map_get(x, "updates");
		const struct val *iv = val_map_get(x, "initialVersion");
		struct scn_sw_source *s = &c->sources[c->nsources++];

		s->kind = opt_str(x, "kind");
		s->ns = opt_str(x, "namespace");
		s->name = opt_str(x, "name");
		s->initial_version = iv ? xstrdup(scnp_version_text(iv)) : NULL;
		dist_init_constant(&s->fetch_duration, 0);
		scnp_read_dist(x, "fetchDuration", &s->fetch_duration, &s->has_fetch_duration);
		read_windows(val_map_get(x, "missing"), &s->missing, &s->has_missing);
		read_windows(val_map_get(x, "notReady"), &s->not_ready, &s->has_not_ready);
		read_windows(val_map_get(x, "forbidden"), &s->forbidden, &s->has_forbidden);
		read_windows(val_map_get(x, "fetchErrors"), &s->fetch_errors, &s->has_fetch_errors);
		read_windows(val_map_get(x, "versionMissing"), &s->version_missing,
			     &s->has_version_missing);
		read_windows(val_map_get(x, "versionEmpty"), &s->version_empty,
			     &s->has_version_empty);
		if (val_map_get(x, "gcAt")) {
			s->has_gc = true;
			s->gc_ms = scnp_duration_ms(val_map_get(x, "gcAt"));
		}
		if (files) {
			s->has_files = true;
			read_files(files, &s->paths, &s->texts, &s->nfiles);
		}
		if (val_map_get(x, "objects")) {
			s->has_objects = c->any_objects = true;
			read_objects(val_map_get(x, "objects"), &s->objects);
		}
		if (updates && updates->u.list.n) {
			s->has_updates = true;
			s->updates = xcalloc(updates->u.list.n, sizeof(*s->updates));
			for (size_t k = 0; k < updates->u.list.n; k++) {
				const struct val *y = updates->u.list.items[k];
				struct scn_sw_source_update *u = &s->updates[s->nupdates++];

				u->at_ms = scnp_duration_ms(val_map_get(y, "at"));
				u->mark = y->mark;
				if (val_map_get(y, "files")) {
					u->has_files = true;
					read_files(val_map_get(y, "files"), &u->paths, &u->texts, &u->nfiles);
				}
				if (val_map_get(y, "objects")) {
					u->has_objects = c->any_objects = true;
					read_objects(val_map_get(y, "objects"), &u->objects);
				}
			}
		}
		s->file = file;
		s->mark = x->mark;
	}
}

static void read_store(const struct val *v, struct scn_sw_config *c)
{
	if (!v)
		return;
	c->has_store = true;
	read_windows(val_map_get(v, "putErrors"), &c->store.put_errors, NULL);
	read_windows(val_map_get(v, "getErrors"), &c->store.get_errors, NULL);
	read_windows(val_map_get(v, "corrupt"), &c->store.corrupt, NULL);
	c->store.message = opt_str(v, "message");
}

void scnp_sw_read(struct scn_sw_config *c, const struct val *models, const char *file)
{
	const struct val *ss = val_map_get(models, "stagesets");
	const struct val *rules = val_map_get(ss, "rules");

	if (ss) {
		read_behaviour(ss, &c->top);
		read_anchors(val_map_get(ss, "anchors"), c);
		read_pods(val_map_get(ss, "pods"), c);
		read_list_errors(val_map_get(ss, "podListErrors"), c);
		read_read_errors(val_map_get(ss, "ledgerErrors"), c);
		read_store(val_map_get(ss, "rollbackStore"), c);
	}
	if (rules && rules->u.list.n) {
		c->rules = xcalloc(rules->u.list.n, sizeof(*c->rules));
		for (size_t i = 0; i < rules->u.list.n; i++) {
			const struct val *r = rules->u.list.items[i];
			struct scn_sw_rule *sr = &c->rules[c->nrules++];

			sr->selector_text = scnp_read_selector(val_map_get(r, "selector"),
							       &sr->selector);
			sr->stage = opt_str(r, "stage");
			scn_sw_behaviour_release(&sr->b); /* zeroed: every field unset */
			read_behaviour(r, &sr->b);
			sr->file = file;
			sr->mark = r->mark;
		}
	}
	read_sources(val_map_get(models, "sources"), c, file);
}

/* ---------------------------------------------------------------- modelled sources */

static bool direct_source_kind(const char *kind)
{
	return strcmp(kind, "GitRepository") == 0 || strcmp(kind, "OCIRepository") == 0 ||
	       strcmp(kind, "Bucket") == 0;
}

void scnp_sw_ref_source(const struct val *ref, const char *owner_ns, const char **kind, const char **ns,
			const char **name)
{
	*kind = val_str(val_map_get(ref, "kind"), "");
	*ns = val_str(val_map_get(ref, "namespace"), "");
	*name = val_str(val_map_get(ref, "name"), "");
	if (!direct_source_kind(*kind))
		*kind = "ExternalArtifact";
	if (!(*ns)[0])
		*ns = owner_ns;
}

/*
 * The sources the inputs hold, by "Kind/ns/name", and the producers the
 * ExternalArtifacts among them point back at, by "^Kind/ns/name": one
 * index built once, so the count is O(StageSets + objects).
 */
static void index_held(const struct scenario *s, struct strindex *ix)
{
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];
		bool ea = strcmp(o->kind, "ExternalArtifact") == 0;
		char *key;

		if (!ea && !direct_source_kind(o->kind))
			continue;
		key = xasprintf("%s/%s/%s", o->kind, o->ns, o->name);
		si_put(ix, key, i);
		free(key);
		if (ea && val_path(o->spec, "sourceRef.kind")) {
			key = xasprintf("^%s/%s/%s", val_str(val_path(o->spec, "sourceRef.kind"), ""), o->ns,
					val_str(val_path(o->spec, "sourceRef.name"), ""));
			si_put(ix, key, i);
			free(key);
		}
	}
}

/*
 * Whether the inputs hold the source @ref (of a StageSet in @owner_ns)
 * names; *@key receives its "Kind/ns/name" (new, caller frees).
 */
static bool held(const struct strindex *ix, const struct val *ref, const char *owner_ns, char **key)
{
	const char *kind = val_str(val_map_get(ref, "kind"), "");
	const char *name = val_str(val_map_get(ref, "name"), "");
	const char *ns = val_str(val_map_get(ref, "namespace"), "");
	bool producer = kind[0] && strcmp(kind, "ExternalArtifact") != 0 && !direct_source_kind(kind);
	size_t pos;
	char *probe;
	bool found;

	if (!ns[0])
		ns = owner_ns;
	*key = xasprintf("%s/%s/%s", producer || !kind[0] ? "ExternalArtifact" : kind, ns, name);
	if (!producer)
		return si_get(ix, *key, &pos);
	probe = xasprintf("^%s/%s/%s", kind, ns, name);
	found = si_get(ix, probe, &pos);
	free(probe);
	return found;
}

/* Counts the sources @o names that the inputs do not hold, new ones into @seen. */
static void count_modelled(const struct strindex *ix, const struct obj *o, struct strindex *seen,
			   size_t *n)
{
	const struct val *stages = val_map_get(o->spec, "stages");
	const struct val *refs[64];
	size_t nrefs = 0;

	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n && nrefs < 63; i++)
		refs[nrefs++] = val_map_get(stages->u.list.items[i], "sourceRef");
	if (val_path(o->spec, "migrationsSourceRef.sourceRef"))
		refs[nrefs++] = val_path(o->spec, "migrationsSourceRef.sourceRef");
	for (size_t i = 0; i < nrefs; i++) {
		char *key;
		size_t pos;

		if (!refs[i] || refs[i]->type != VAL_MAP)
			continue;
		if (!held(ix, refs[i], o->ns, &key) && !si_get(seen, key, &pos)) {
			si_put(seen, key, *n);
			(*n)++;
		}
		free(key);
	}
}

void scnp_sw_note_sources(struct loader *L)
{
	const struct scenario *s = L->s;
	struct strindex seen = { 0 }, ix = { 0 };
	size_t n = 0;

	/*
	 * Only where the scenario models sources: a run that names none takes
	 * every source as Ready with the publishes' revisions, the documented
	 * default, and says nothing on stderr about it.
	 */
	if (!s->scenario_file || !val_path(L->scn, "spec.models.sources"))
		return;
	index_held(s, &ix);
	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "StageSet") == 0)
			count_modelled(&ix, s->objs[i], &seen, &n);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].obj && strcmp(s->events[i].obj->kind, "StageSet") == 0)
			count_modelled(&ix, s->events[i].obj, &seen, &n);
	si_release(&seen);
	si_release(&ix);
	if (n == 0)
		return;
	diag_note_alone(L->d, s->scenario_file, L->scn_mark,
		        "%zu source%s the StageSets name %s not in the inputs and %s modelled: Ready, with a new "
		        "revision at each publish that reaches a StageSet using %s; spec.models.sources makes "
		        "%s missing, not Ready, Forbidden or unfetchable for a while, or gives %s new revisions "
		        "apart from any publish (updates)",
		        n, n == 1 ? "" : "s", n == 1 ? "is" : "are", n == 1 ? "is" : "are", n == 1 ? "it" : "them",
		        n == 1 ? "it" : "them", n == 1 ? "it" : "them");
}

/*
 * What a StageSet may ask that the simulated world cannot answer, refused at
 * its file:line:col: spec.kubeConfig.configMapRef (fluxcd/pkg/auth mints a
 * cloud provider's token for a remote cluster; nothing here stands for the
 * cloud's IAM).
 */
static void refuse_unsimulated(struct loader *L, const struct obj *o)
{
	const struct val *cm = val_path(o->spec, "kubeConfig.configMapRef");

	if (!o->src.file || !cm)
		return;
	diag_error(L->d, o->src.file, cm->mark,
		   "StageSet %s/%s: spec.kubeConfig.configMapRef: Forbidden: cloud-provider authentication "
		   "(aws, azure, gcp, generic) is not simulated",
		   o->ns, o->name);
	diag_note(L->d, o->src.file, cm->mark,
		  "give spec.kubeConfig.secretRef: the kubeconfig Secret in the StageSet's namespace is read "
		  "as upstream reads it, and the remote cluster is the simulated one");
}

void scnp_sw_refuse_unsimulated(struct loader *L)
{
	const struct scenario *s = L->s;

	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "StageSet") == 0)
			refuse_unsimulated(L, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].obj && strcmp(s->events[i].obj->kind, "StageSet") == 0)
			refuse_unsimulated(L, s->events[i].obj);
}

/* ---------------------------------------------------------------- resolution */

static const struct obj_strmap no_labels;

bool scn_sw_rule_matches(const struct scn_sw_rule *r, const struct obj_strmap *labels,
			 const char *stage)
{
	if (r->stage && (!stage || strcmp(r->stage, stage) != 0))
		return false;
	return lbl_matches(&r->selector, labels ? labels : &no_labels);
}

static void take(const struct scn_sw_behaviour *b, struct scn_sw_resolved *e)
{
#define TAKE(field, has, value)                                                                  \
	do {                                                                                     \
		if (!e->field && (has))                                                          \
			e->field = (value);                                                      \
	} while (0)
	TAKE(apply_duration, b->apply.has_duration, &b->apply.duration);
	TAKE(apply_failure, b->apply.has_failure, &b->apply.failure);
	TAKE(apply_conflicts, b->apply.has_conflicts, &b->apply);
	TAKE(ready_delay, b->readiness.has_delay, &b->readiness);
	TAKE(ready_failed, b->readiness.has_failed, &b->readiness);
	TAKE(ready_never, b->readiness.has_never, &b->readiness);
	TAKE(exprs_delay, b->exprs.has_delay, &b->exprs);
	TAKE(exprs_failed, b->exprs.has_failed, &b->exprs);
	TAKE(exprs_never, b->exprs.has_never, &b->exprs);
	TAKE(reg_p, b->regression.has_probability, &b->regression);
	TAKE(reg_after, b->regression.has_after, &b->regression);
	TAKE(reg_duration, b->regression.has_duration, &b->regression);
	TAKE(reg_versions, b->regression.has_versions, &b->regression);
	TAKE(reg_effect, b->regression.has_effect, &b->regression);
	TAKE(restore_duration, b->restore.has_duration, &b->restore);
	TAKE(restore_outcome, b->restore.has_outcome, &b->restore);
#undef TAKE
}

void scn_sw_resolve(const struct scn_sw_config *c, const struct obj_strmap *labels,
		    const char *stage, struct scn_sw_resolved *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->nrules; i++)
		if (scn_sw_rule_matches(&c->rules[i], labels, stage))
			take(&c->rules[i].b, out);
	take(&c->top, out);
	if (!out->reg_versions)
		out->reg_versions = &c->top.regression; /* no list anywhere: every version */
}

const struct scn_sw_action *scn_sw_find_action(const struct scn_sw_behaviour *b, const char *name,
					       const char *stage, const char *phase)
{
	for (size_t i = 0; b->has_actions && i < b->nactions; i++) {
		const struct scn_sw_action *a = &b->actions[i];

		if ((!a->name || strcmp(a->name, name) == 0) &&
		    (!a->phase || strcmp(a->phase, phase) == 0) &&
		    (!a->stage || (stage && strcmp(a->stage, stage) == 0)))
			return a;
	}
	return NULL;
}

int64_t scn_sw_warning_events_at(const struct scn_sw_config *c, const char *ns,
				 const struct sst_event_check *ec, int64_t t_ms, int64_t *first)
{
	int64_t total = 0;

	*first = INT64_MAX;
	for (size_t i = 0; i < c->npods; i++) {
		const struct scn_sw_pods *p = &c->pods[i];

		if ((p->ns && strcmp(p->ns, ns) != 0) || !lbl_matches(&ec->selector, &p->labels))
			continue;
		for (size_t k = 0; k < p->nwarnings; k++) {
			const struct scn_sw_warning *e = &p->warnings[k];
			bool listed = false;

			for (size_t r = 0; r < ec->nreasons && !listed; r++)
				listed = strcmp(ec->reasons[r], e->reason) == 0;
			if (!listed || t_ms < e->at_ms || t_ms >= e->until_ms)
				continue;
			total += e->count > 1 ? e->count : 1;
			if (e->at_ms < *first)
				*first = e->at_ms;
		}
	}
	return total;
}

bool scn_sw_regresses(const struct scn_sw_resolved *r, const char *version)
{
	if (!version || !r->reg_versions->has_versions)
		return true;
	for (size_t i = 0; i < r->reg_versions->nversions; i++)
		if (strcmp(r->reg_versions->versions[i], version) == 0)
			return true;
	return false;
}

/* ---------------------------------------------------------------- source files */

static bool source_matches(const struct scn_sw_source *e, const char *kind, const char *ns, const char *name)
{
	return (!e->kind || strcmp(e->kind, kind) == 0) && (!e->ns || strcmp(e->ns, ns) == 0) &&
	       (!e->name || strcmp(e->name, name) == 0);
}

const struct scn_sw_source *scn_sw_source_updates(const struct scn_sw_config *c, const char *kind,
						  const char *ns, const char *name)
{
	for (size_t i = 0; i < c->nsources; i++)
		if (c->sources[i].has_updates && source_matches(&c->sources[i], kind, ns, name))
			return &c->sources[i];
	return NULL;
}

const struct scn_sw_objects *scn_sw_source_objects(const struct scn_sw_config *c, const char *kind,
						  const char *ns, const char *name)
{
	for (size_t i = 0; i < c->nsources; i++)
		if (c->sources[i].has_objects && source_matches(&c->sources[i], kind, ns, name))
			return &c->sources[i].objects;
	return NULL;
}

void scn_sw_source_files_at(const struct scn_sw_config *c, const char *kind, const char *ns,
			    const char *name, int64_t t_ms, char *const **paths, char *const **texts,
			    size_t *n)
{
	const struct scn_sw_source *u = scn_sw_source_updates(c, kind, ns, name);

	*paths = *texts = NULL;
	*n = 0;
	for (size_t k = u ? u->nupdates : 0; k > 0; k--)
		if (u->updates[k - 1].at_ms <= t_ms && u->updates[k - 1].has_files) {
			*paths = u->updates[k - 1].paths;
			*texts = u->updates[k - 1].texts;
			*n = u->updates[k - 1].nfiles;
			return;
		}
	for (size_t i = 0; i < c->nsources; i++)
		if (c->sources[i].has_files && source_matches(&c->sources[i], kind, ns, name)) {
			*paths = c->sources[i].paths;
			*texts = c->sources[i].texts;
			*n = c->sources[i].nfiles;
			return;
		}
}
