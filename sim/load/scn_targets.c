/*
 * Which object an event (or a model) names: the identity written in an
 * action, its lookup among the objects the run holds when the event fires
 * (the inputs' and those of apply events firing earlier), and the "not
 * found" report, which stays silent about an identity whose manifest or
 * apply payload was refused (its own errors say why it is missing).
 */
#include "sim/load/scn_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/admission.h"

/*
 * namespaced() - whether objects of @kind live in a namespace: from the
 * supported kind @av names (with @av NULL, the supported kind of that name),
 * else from any object of that kind the inputs or the apply events define,
 * else true (such a target is not found anyway).
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

/*
 * created_in_run() - whether the Workspace controller creates objects of
 * @kind during a run (its Jobs, "<ws>-plan-<hash>" and "<ws>-apply-<hash>",
 * and its PVC "<ws>-data"): an event may name one the inputs do not hold,
 * and a target missing when the event fires is a warning of the run.
 */
static bool created_in_run(const char *kind)
{
	return strcmp(kind, "Job") == 0 || strcmp(kind, "PersistentVolumeClaim") == 0;
}

void scnp_target_release(struct scn_target *t)
{
	free(t->api_version);
	free(t->kind);
	free(t->ns);
	free(t->name);
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

bool scnp_missing(const struct loader *L, const char *kind, const char *ns, const char *name,
		  int64_t at_ms)
{
	return !known_obj(L->s, kind, ns, name, at_ms) && !was_rejected(L, kind, ns, name);
}

bool scnp_kind_refused(const struct loader *L, const char *kind)
{
	for (size_t i = 0; i < L->nrejected; i++)
		if (strcmp(L->rejected[i].kind, kind) == 0)
			return true;
	for (size_t k = 0; k < L->ngen; k++)
		if (!L->gen_ok[k])
			return true;
	return false;
}

void scnp_report_not_found(struct loader *L, const char *file, struct val_mark mark,
			   size_t index, const char *action, const struct scn_target *t)
{
	char ref[512];

	diag_error(L->d, file, mark, "spec.events[%zu].%s: %s not found", index, action,
		   ref_text(t, ref, sizeof(ref)));
	diag_note(L->d, file, mark, "no input defines it and no 'apply' event creates it earlier");
	if (strcmp(t->kind, SCNP_INVENTORY_KIND) == 0)
		diag_note(L->d, file, mark, "%s", scnp_inventory_hint);
}

void scnp_read_target(const struct scenario *s, const struct val *a, struct scn_target *t)
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

void scnp_check_targets(struct loader *L, const struct val_kv *const *acts)
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
		const char *action = acts[i]->key;
		struct val_mark mark = acts[i]->key_mark;
		const struct obj *o = found[i];

		if (e->type == SCN_EV_APPLY)
			continue;
		if (!o && was_rejected(L, e->target.kind, e->target.ns, e->target.name)) {
			continue;
		} else if (!o && created_in_run(e->target.kind)) {
			/* named as the controller names it; checked when the event fires */
			continue;
		} else if (!o) {
			scnp_report_not_found(L, e->file, mark, e->index, action, &e->target);
		} else if (e->target.api_version &&
			   strcmp(e->target.api_version, o->api_version) != 0) {
			diag_error(L->d, e->file, mark,
				   "spec.events[%zu].%s.apiVersion: Invalid value: \"%s\": %s is "
				   "defined with apiVersion \"%s\"",
				   e->index, action, e->target.api_version,
				   ref_text(&e->target, ref, sizeof(ref)), o->api_version);
		}
	}
	free(found);
	free(created);
	free(order);
}

