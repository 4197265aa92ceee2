/*
 * Fleet events of spec.events: publish (the members' source offers a new
 * version from then on), regress (members go not-Ready for a while) and
 * drift (an out-of-band edit of the members' rendered workload).  Their
 * schema, their records (scenario.fevents) and the checks of what they
 * name: the StageSet of a regress or drift by name, the StageSets a
 * selector matches, the published version.
 */
#include "sim/load/scn_parse.h"

#include <stdlib.h>
#include <string.h>

#include "engine/stageset.h"
#include "engine/xalloc.h"

/* ---------------------------------------------------------------- schema */

const char *const scnp_faction_names[] = { "publish", "regress", "drift", NULL };

static void check_publish_version(struct sch_ctx *c, const struct val *v, const char *path);
static void check_regress(struct sch_ctx *c, const struct val *v, const char *path);
static void check_drift(struct sch_ctx *c, const struct val *v, const char *path);

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

		if (e->type == SCN_FEV_REGRESS) {
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

void scnp_check_fevents(struct loader *L)
{
	struct scenario *s = L->s;
	struct ns_index nsx;
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
			    scnp_missing(L, "StageSet", e->target.ns, e->target.name, e->at_ms))
				scnp_report_not_found(L, e->file, e->mark, e->index, action,
						      &e->target);
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
	scnp_target_release(&e->target);
}

const char *scn_fevent_type_name(enum scn_fevent_type t)
{
	return scnp_name_at(scnp_faction_names, (size_t)t);
}
