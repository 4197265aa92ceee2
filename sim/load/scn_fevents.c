/*
 * Fleet events of spec.events: publish (the members' source offers a new
 * version from then on), regress (members go not-Ready for a while),
 * drift (an out-of-band edit of the members' rendered workload) and
 * inventory (a StageSet's StageInventory shards deleted, or replaced by a
 * backup).  Their schema, their records (scenario.fevents) and the checks
 * of what they name: the StageSet of a regress, drift or inventory by name,
 * the StageSets a selector matches, the published version, the stages a
 * restored shard belongs to.
 */
#include "sim/load/scn_parse.h"

#include <stdlib.h>
#include <string.h>

#include "engine/stageset.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

/* ---------------------------------------------------------------- schema */

const char *const scnp_faction_names[] = { "publish", "regress", "drift", "inventory", NULL };

const char scnp_inventory_hint[] =
	"a StageSet's StageInventory shards are deleted, or restored from a backup, with an 'inventory' "
	"event: inventory: {namespace: NS, name: STAGESET, delete: true} or {..., restore: "
	"\"<stage>=<entries>:<id>;...\"} (scenarios/README.md, Fleet events)";

static void check_publish_version(struct sch_ctx *c, const struct val *v, const char *path);
static void check_regress(struct sch_ctx *c, const struct val *v, const char *path);
static void check_drift(struct sch_ctx *c, const struct val *v, const char *path);
static void check_inventory(struct sch_ctx *c, const struct val *v, const char *path);

/* A published version: a string; a YAML number is refused (it is no semantic version). */
static const struct sch_node publish_version_node = { .type = SCH_ANY,
						      .check = check_publish_version };

static const struct sch_field publish_fields[] = {
	{ .name = "selector", .schema = &scnp_selector_node, .required = true },
	{ .name = "namespaceSelector", .schema = &scnp_selector_node },
	{ .name = "version", .schema = &publish_version_node, .required = true },
	{ .name = NULL },
};
const struct sch_node scnp_publish_node = { .type = SCH_OBJECT, .fields = publish_fields };

static const char *const ss_kinds[] = { "StageSet", NULL };
static const struct sch_node ss_kind_node = { .type = SCH_STRING, .enum_values = ss_kinds };
static const struct sch_field regress_fields[] = {
	{ .name = "kind", .schema = &ss_kind_node },
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "selector", .schema = &scnp_selector_node },
	{ .name = "for", .schema = &scnp_positive_duration_node, .required = true },
	{ .name = "effect", .schema = &scnp_sw_effect_node },
	{ .name = NULL },
};
const struct sch_node scnp_regress_node = { .type = SCH_OBJECT, .fields = regress_fields,
					    .check = check_regress };
static const struct sch_field drift_fields[] = {
	{ .name = "kind", .schema = &ss_kind_node },
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "selector", .schema = &scnp_selector_node },
	{ .name = "stage", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
const struct sch_node scnp_drift_node = { .type = SCH_OBJECT, .fields = drift_fields,
					  .check = check_drift };
static const struct sch_field inventory_fields[] = {
	{ .name = "kind", .schema = &ss_kind_node },
	{ .name = "namespace", .schema = &sch_string_nonempty },
	{ .name = "name", .schema = &sch_string_nonempty, .required = true },
	{ .name = "delete", .schema = &sch_boolean },
	{ .name = "restore", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
const struct sch_node scnp_inventory_node = { .type = SCH_OBJECT, .fields = inventory_fields,
					      .check = check_inventory };

/* ---------------------------------------------------------------- checks */

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
	scnp_check_version_text(c, v, path);
}

/* A regress or drift names its StageSets by name or by selector, one of the two; @example for the note. */
static void name_or_selector(struct sch_ctx *c, const struct val *v, const char *path, const char *example)
{
	const struct val_kv *name = val_map_get_kv(v, "name");
	const struct val_kv *sel = val_map_get_kv(v, "selector");

	if (name && sel) {
		sch_report(c, sel->key_mark, path,
			   "Invalid value: \"object\": give 'name' or 'selector', not both");
	} else if (!name && !sel) {
		sch_report(c, v->mark, path, "Required value: give 'name' or 'selector'");
		sch_note(c, v->mark, "%s", example);
	}
}

static void check_regress(struct sch_ctx *c, const struct val *v, const char *path)
{
	name_or_selector(c, v, path,
			 "e.g. regress: {namespace: tenant-a, name: moodle, for: 30m} or "
			 "regress: {selector: {matchLabels: {ring: \"0\"}}, for: 30m}");
}

static void check_drift(struct sch_ctx *c, const struct val *v, const char *path)
{
	name_or_selector(c, v, path,
			 "e.g. drift: {namespace: tenant-a, name: moodle} or "
			 "drift: {selector: {matchLabels: {ring: \"0\"}}, stage: app}");
}

/*
 * An inventory event deletes the shards (`delete: true`) or replaces them
 * with a backup (`restore`), one of the two.  A backup is the shard list a
 * snapshot writes (SCN_INVENTORY_ANNOTATION): only its shards are
 * StageInventory objects; the renders, live objects, survivors and running
 * revisions it may also carry are the simulator's bookkeeping of other
 * objects, which no restore of StageInventories brings back.  A shard
 * given by its count alone lists the workload, so its count is 1.
 */
static void check_inventory(struct sch_ctx *c, const struct val *v, const char *path)
{
	static const char example[] = "e.g. inventory: {namespace: tenant-a, name: moodle, delete: true} or "
				      "inventory: {namespace: tenant-a, name: moodle, restore: "
				      "\"app=2:apps_Deployment_tenant-a_moodle-app;_ConfigMap_tenant-a_cm-a\"}";
	const struct val_kv *del = val_map_get_kv(v, "delete");
	const struct val_kv *res = val_map_get_kv(v, "restore");
	struct scn_inventory_shard *items = NULL;
	size_t n = 0;

	if (del && res) {
		sch_report(c, res->key_mark, path,
			   "Invalid value: \"object\": give 'delete: true' or 'restore', not both (a restore "
			   "replaces every shard the StageSet has)");
		return;
	}
	if (!del && !res) {
		sch_report(c, v->mark, path, "Required value: give 'delete: true' or 'restore'");
		sch_note(c, v->mark, "%s", example);
		return;
	}
	if (del) {
		if (del->v->type == VAL_BOOL && !del->v->u.b) {
			sch_report(c, del->v->mark, path,
				   "Invalid value: false: 'delete' deletes the shards and only 'true' is accepted; "
				   "leave the event out to keep them");
		}
		return;
	}
	if (res->v->type != VAL_STRING)
		return; /* the field's schema reports it */
	if (!scnp_parse_inventory("", "", res->v->u.s, &items, &n)) {
		sch_report(c, res->v->mark, path,
			   "Invalid value: \"%s\": not a list of StageInventory shards "
			   "\"<stage>=<entries>[:<id>;<id>...]\" joined by \",\"",
			   res->v->u.s);
		sch_note(c, res->v->mark,
			 "entry IDs are \"<group>_<Kind>_<namespace>_<name>\" (the workload's first), the shape "
			 "a snapshot's " SCN_INVENTORY_ANNOTATION " writes; %s",
			 example);
		free(items); /* the array a failed parse may leave, empty */
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct scn_inventory_shard *e = &items[i];
		bool dup = false;

		for (size_t k = 0; k < i && !dup; k++)
			dup = strcmp(items[k].stage, e->stage) == 0 && items[k].what == SCN_INV_SHARD;
		if (e->what != SCN_INV_SHARD) {
			sch_report(c, res->v->mark, path,
				   "Invalid value: \"%s\": item %zu (stage \"%s\") is not a StageInventory "
				   "shard: a restore brings back StageInventory objects (\"<stage>=<entries>"
				   "[:<ids>]\"), not the renders, live objects, survivors or running revisions "
				   "a snapshot also records",
				   res->v->u.s, i + 1, e->stage);
			break;
		}
		if (dup) {
			sch_report(c, res->v->mark, path,
				   "Invalid value: \"%s\": stage \"%s\" has two shards; give one per stage",
				   res->v->u.s, e->stage);
			break;
		}
		if (e->entries == 0) {
			sch_report(c, res->v->mark, path,
				   "Invalid value: \"%s\": \"%s=0\" restores no shard; leave stage \"%s\" "
				   "out (a restore replaces every shard the StageSet has)",
				   res->v->u.s, e->stage, e->stage);
			break;
		}
		if (!e->ids && e->entries != 1) {
			sch_report(c, res->v->mark, path,
				   "Invalid value: \"%s\": the shard of stage \"%s\" counts %lld entries and "
				   "lists none: list its %lld entry IDs after \":\" (a count alone is the "
				   "workload's shard, 1 entry)",
				   res->v->u.s, e->stage, (long long)e->entries, (long long)e->entries);
			break;
		}
	}
	for (size_t i = 0; i < n; i++)
		scnp_inventory_item_clear(&items[i]);
	free(items);
}

/* ---------------------------------------------------------------- building */

void scnp_build_fevent(struct loader *L, const struct event_head *h)
{
	const struct val_kv *act = h->act;
	struct scn_fevent *e = &L->s->fevents[L->s->nfevents++];

	*e = (struct scn_fevent){ .type = (enum scn_fevent_type)h->type, .at_ms = h->at_ms,
				  .index = h->index, .file = h->file, .mark = act->key_mark };
	if (val_map_get(act->v, "selector")) {
		e->by_selector = true;
		e->selector_text =
			scnp_read_selector(val_map_get(act->v, "selector"), &e->selector);
	}
	if (e->type == SCN_FEV_PUBLISH) {
		const struct val *nsel = val_map_get(act->v, "namespaceSelector");

		if (nsel) {
			e->has_ns_selector = true;
			e->ns_selector_text = scnp_read_selector(nsel, &e->ns_selector);
		}
		e->version = xstrdup(scnp_version_text(val_map_get(act->v, "version")));
	} else {
		const char *ns = val_str(val_map_get(act->v, "namespace"), NULL);
		const char *name = val_str(val_map_get(act->v, "name"), NULL);

		if (e->type == SCN_FEV_INVENTORY) {
			const char *restore = val_str(val_map_get(act->v, "restore"), NULL);

			/* checked by check_inventory(): it parses */
			if (restore)
				scnp_parse_inventory(ns ? ns : "default", name, restore, &e->inv_restore,
						     &e->ninv_restore);
		} else if (e->type == SCN_FEV_REGRESS) {
			e->for_ms = scnp_duration_ms(val_map_get(act->v, "for"));
			e->effect = strcmp(val_str(val_map_get(act->v, "effect"), "Failed"), "NotReady") == 0
					    ? SCN_SW_EFFECT_NOT_READY
					    : SCN_SW_EFFECT_FAILED;
		} else {
			const char *stage = val_str(val_map_get(act->v, "stage"), NULL);

			e->stage = stage ? xstrdup(stage) : NULL;
		}
		e->target.kind = xstrdup("StageSet");
		if (name) {
			e->target.ns = xstrdup(ns ? ns : "default");
			e->target.name = xstrdup(name);
		} else {
			e->target.ns = ns ? xstrdup(ns) : NULL;
		}
	}
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
 * The last definition of StageSet @ns/@name by @at_ms: an apply event at or
 * before then, else the inputs' object; NULL when neither holds it.
 */
static const struct obj *stageset_by(const struct scenario *s, const char *ns, const char *name, int64_t at_ms)
{
	for (size_t j = s->nevents; j-- > 0;) {
		const struct obj *o = s->events[j].obj;

		if (o && s->events[j].at_ms <= at_ms && scn_is_stageset(o) && strcmp(o->ns, ns) == 0 &&
		    strcmp(o->name, name) == 0)
			return o;
	}
	for (size_t j = 0; j < s->nobjs; j++) {
		const struct obj *o = s->objs[j];

		if (scn_is_stageset(o) && strcmp(o->ns, ns) == 0 && strcmp(o->name, name) == 0)
			return o;
	}
	return NULL;
}

/*
 * Each shard inventory event @e restores belongs to a stage of its
 * StageSet as defined by then: the controller keeps a shard of a stage
 * that is not in its spec only to tear that stage down, which a restore
 * of a stage never run cannot ask for.  An error at the event otherwise,
 * naming the stages there are.
 */
static void check_restored_stages(struct loader *L, const struct scn_fevent *e)
{
	const struct obj *ss = stageset_by(L->s, e->target.ns, e->target.name, e->at_ms);
	const struct val *stages = ss ? val_map_get(ss->spec, "stages") : NULL;

	if (!stages || stages->type != VAL_LIST)
		return; /* the StageSet's own errors say what is wrong */
	for (size_t i = 0; i < e->ninv_restore; i++) {
		const char *stage = e->inv_restore[i].stage;
		struct strbuf names = { 0 };
		bool found = false;
		char *text;

		for (size_t k = 0; k < stages->u.list.n && !found; k++)
			found = strcmp(val_str(val_map_get(stages->u.list.items[k], "name"), ""), stage) == 0;
		if (found)
			continue;
		for (size_t k = 0; k < stages->u.list.n; k++)
			strbuf_add_free(&names, xasprintf("%s\"%s\"", k ? ", " : "",
							  val_str(val_map_get(stages->u.list.items[k], "name"), "")));
		text = strbuf_take(&names);
		diag_error(L->d, e->file, e->mark,
			   "spec.events[%zu].inventory.restore: stage \"%s\" is not a stage of StageSet %s/%s "
			   "(its stages: %s); a shard is restored for a stage the StageSet runs",
			   e->index, stage, e->target.ns, e->target.name, text);
		free(text);
	}
}

void scnp_check_fevents(struct loader *L)
{
	struct scenario *s = L->s;
	struct ns_index nsx;
	/* a refused spec.generate item (already reported) may be what a target needed */
	bool gen_refused = false;
	/* a refused StageSet (already reported) may be what a selector matched */
	bool ss_refused = scnp_kind_refused(L, "StageSet");

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
			    scnp_missing(L, "StageSet", e->target.ns, e->target.name, e->at_ms))
				scnp_report_not_found(L, e->file, e->mark, e->index, action,
						      &e->target);
			else if (!gen_refused && e->type != SCN_FEV_REGRESS &&
				 scnp_missing(L, "StageSet", e->target.ns, e->target.name, e->at_ms - 1))
				/*
				 * Created by an apply of this very instant: the StageSet events
				 * are scheduled before the object events, so this one would
				 * find no StageSet and do nothing.
				 */
				diag_error(L->d, e->file, e->mark,
					   "spec.events[%zu].%s: StageSet %s/%s is created by an 'apply' "
					   "event of the same instant, which fires after this event: "
					   "give this event a later 'at' than the apply",
					   e->index, action, e->target.ns ? e->target.ns : "default",
					   e->target.name);
			else if (e->type == SCN_FEV_INVENTORY)
				check_restored_stages(L, e);
			continue;
		}
		for (size_t j = 0; !any && j < s->nobjs; j++)
			any = fevent_matches(&nsx, e, s->objs[j]);
		for (size_t j = 0; !any && j < s->nevents; j++)
			any = s->events[j].obj && s->events[j].at_ms <= e->at_ms &&
			      fevent_matches(&nsx, e, s->events[j].obj);
		if (!any && !ss_refused)
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

/* ---------------------------------------------------------------- release */

void scnp_fevent_release(struct scn_fevent *e)
{
	if (e->by_selector)
		lbl_selector_release(&e->selector);
	if (e->has_ns_selector)
		lbl_selector_release(&e->ns_selector);
	free(e->selector_text);
	free(e->ns_selector_text);
	free(e->version);
	free(e->stage);
	for (size_t i = 0; i < e->ninv_restore; i++)
		scnp_inventory_item_clear(&e->inv_restore[i]);
	free(e->inv_restore);
	scnp_target_release(&e->target);
}

const char *scn_fevent_type_name(enum scn_fevent_type t)
{
	return scnp_name_at(scnp_faction_names, (size_t)t);
}
