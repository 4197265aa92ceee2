/*
 * spec.events: the schema of an event (an `at` and exactly one action key),
 * the checks of the object actions (label edits, merge patches), which
 * object an event names (targets), and the building of every event record:
 * object events here, model and fleet events in scn_mevents.c and
 * scn_fevents.c.  Object events are checked against the objects the run
 * holds when they fire.
 */
#include "sim/load/scn_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/cluster/admission.h"

/* ---------------------------------------------------------------- schema */

static void check_event(struct sch_ctx *c, const struct val *v, const char *path);
static void check_label_edit(struct sch_ctx *c, const struct val *v, const char *path);
static void check_merge_object(struct sch_ctx *c, const struct val *v, const char *path);
static void check_merge_spec(struct sch_ctx *c, const struct val *v, const char *path);

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

/* Action keys of an object event, in enum scn_event_type order. */
static const char *const action_names[] = { "apply", "delete", "annotate", "label", "patch",
					    "status", NULL };

/* Every action key of an event, by family: object, model, fleet actions. */
enum { ACT_OBJECT, ACT_MODEL, ACT_FLEET, ACT_NFAMILIES };
static const char *const *const action_families[ACT_NFAMILIES] = {
	action_names, scnp_maction_names, scnp_faction_names
};

static const struct sch_field event_fields[] = {
	{ .name = "at", .schema = &scnp_ms_duration_node, .required = true },
	{ .name = "apply", .schema = &sch_any_object },
	{ .name = "delete", .schema = &delete_node },
	{ .name = "annotate", .schema = &label_node },
	{ .name = "label", .schema = &label_node },
	{ .name = "patch", .schema = &patch_node },
	{ .name = "status", .schema = &status_node },
	{ .name = "commit", .schema = &scnp_commit_node },
	{ .name = "failNext", .schema = &scnp_next_node },
	{ .name = "succeedNext", .schema = &scnp_next_node },
	{ .name = "violate", .schema = &scnp_violate_node },
	{ .name = "reconcileRequest", .schema = &scnp_rrequest_node },
	{ .name = "approve", .schema = &scnp_approve_node },
	{ .name = "publish", .schema = &scnp_publish_node },
	{ .name = "regress", .schema = &scnp_regress_node },
	{ .name = "drift", .schema = &scnp_drift_node },
	{ .name = "inventory", .schema = &scnp_inventory_node },
	{ .name = NULL },
};
static const struct sch_node event_node = { .type = SCH_OBJECT, .fields = event_fields,
					    .check = check_event };

/* ---------------------------------------------------------------- checks */

/*
 * every_action() - the @i-th action key of an event: object actions, model
 * actions, then fleet actions; NULL past the end.
 */
static const char *every_action(size_t i)
{
	for (size_t f = 0; f < ACT_NFAMILIES; f++)
		for (size_t k = 0; action_families[f][k]; k++)
			if (i-- == 0)
				return action_families[f][k];
	return NULL;
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
		struct strbuf names = { 0 };
		char *text;

		/* the list is the action keys themselves, so a new action is in it */
		for (size_t i = 0; every_action(i); i++) {
			strbuf_add(&names, i ? ", " : "");
			strbuf_add(&names, every_action(i));
		}
		text = strbuf_take(&names);
		sch_report(c, v->mark, path, "no action");
		sch_note(c, v->mark, "accepted actions: %s", text);
		free(text);
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

/* ---------------------------------------------------------------- records */

void scnp_event_release(struct scn_event *e)
{
	scnp_target_release(&e->target);
	obj_free(e->obj);
	obj_strmap_release(&e->set);
	scnp_free_strv(e->remove, e->nremove);
	val_free(e->merge);
}

const char *scn_event_type_name(enum scn_event_type t)
{
	return scnp_name_at(action_names, (size_t)t);
}

/* ---------------------------------------------------------------- building */

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
 * read_head() - the head of validated spec.events[@i] @ev into @h.
 * Returns: the family of its action (ACT_*), or ACT_NFAMILIES when it has
 *          none (cannot happen: check_event() passed).  A time after the
 *          horizon (@hz, its text) is warned about at the event's `at`.
 */
static size_t read_head(struct loader *L, const struct val *ev, size_t i, const char *hz,
			 struct event_head *h)
{
	const struct val *at = val_map_get(ev, "at");

	*h = (struct event_head){ .index = i, .file = L->s->scenario_file };
	for (size_t f = 0; f < ACT_NFAMILIES; f++) {
		for (size_t k = 0; action_families[f][k]; k++) {
			h->act = val_map_get_kv(ev, action_families[f][k]);
			if (!h->act)
				continue;
			h->type = k;
			h->at_ms = scnp_duration_ms(at);
			if (h->at_ms > L->s->horizon_ms)
				diag_warning(L->d, h->file, at->mark,
					     "spec.events[%zu].at: \"%s\" is after the horizon "
					     "(%s); the event will not happen",
					     i, at->u.s, hz);
			return f;
		}
	}
	return ACT_NFAMILIES;
}

void scnp_events_validate(struct loader *L, struct val *events, struct sch_ctx *c)
{
	L->nev = events->u.list.n;
	L->ev_ok = scnp_validate_each(&event_node, events, "spec.events", c);
}

void scnp_build_events(struct loader *L)
{
	struct scenario *s = L->s;
	const struct val *events = val_path(L->scn, "spec.events");
	const char *file = s->scenario_file;
	const struct val_kv **acts; /* per entry of s->events, its action */
	char hz[GT_DURATION_BUFSZ];

	if (!events || events->type != VAL_LIST || L->nev == 0)
		return;
	s->events = xcalloc(L->nev, sizeof(*s->events));
	s->mevents = xcalloc(L->nev, sizeof(*s->mevents));
	s->fevents = xcalloc(L->nev, sizeof(*s->fevents));
	acts = xcalloc(L->nev, sizeof(*acts));
	gt_format_duration(s->horizon_ms, hz, sizeof(hz));
	for (size_t i = 0; i < L->nev; i++) {
		const struct val *ev = events->u.list.items[i];
		struct scn_event *e = &s->events[s->nevents];
		const struct val_kv *act;
		struct event_head h;
		size_t family;

		if (!L->ev_ok[i])
			continue;
		family = read_head(L, ev, i, hz, &h);
		if (family == ACT_MODEL)
			scnp_build_mevent(L, &h);
		else if (family == ACT_FLEET)
			scnp_build_fevent(L, &h);
		if (family != ACT_OBJECT)
			continue;
		act = h.act;
		*e = (struct scn_event){ .type = (enum scn_event_type)h.type, .at_ms = h.at_ms,
					 .index = i, .file = file,
					 .mark = val_map_get(ev, "at")->mark };
		switch (e->type) {
		case SCN_EV_APPLY: {
			int rc = adm_admit(file, act->v, &e->obj, L->d);

			if (rc == ADM_IGNORED) {
				char *what = adm_describe_ignored(act->v);

				diag_note(L->d, file, act->key_mark,
					  "spec.events[%zu].apply: %s is of a kind the simulated "
					  "controllers do not read; the event is ignored",
					  i, what);
				if (strcmp(val_str(val_map_get(act->v, "kind"), ""), SCNP_INVENTORY_KIND) == 0)
					diag_note(L->d, file, act->key_mark, "%s", scnp_inventory_hint);
				free(what);
				continue;
			}
			if (rc != 0) {
				struct man_rejected r = { 0 };

				/* Reported; the event is dropped, and so are "not found"s about it. */
				obj_strmap_init(&r.labels);
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
			scnp_read_target(s, act->v, &e->target);
			break;
		case SCN_EV_ANNOTATE:
		case SCN_EV_LABEL:
			scnp_read_target(s, act->v, &e->target);
			read_label_edit(act->v, e);
			break;
		case SCN_EV_PATCH:
		case SCN_EV_STATUS:
			scnp_read_target(s, act->v, &e->target);
			e->merge = val_copy(val_map_get(act->v, "merge"));
			break;
		}
		acts[s->nevents++] = act;
	}
	scnp_check_targets(L, acts);
	scnp_check_mevents(L);
	scnp_check_fevents(L);
	free(acts);
}
