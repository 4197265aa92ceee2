#include "sim/run/run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/magos_workspace.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/cluster/admission.h"
#include "sim/cluster/apiserver.h"
#include "sim/base/diag.h"
#include "sim/base/gotime.h"
#include "sim/base/strindex.h"
#include "sim/lint/lint.h"
#include "sim/observe/kubeget.h"
#include "sim/run/fleet_adoption.h"
#include "sim/run/fleet_hazards.h"
#include "sim/run/fleet_quirks.h"
#include "sim/run/fleet_view_ready.h"
#include "sim/run/magos_policy.h"
#include "sim/run/magos_quirks.h"
#include "sim/run/magos_resume.h"
#include "sim/run/magos_revisions.h"
#include "sim/run/ss_hazards_deps.h"
#include "sim/run/ss_hazards_downgrade.h"
#include "sim/run/ss_hazards_failure.h"
#include "sim/run/ss_hazards_holds.h"
#include "sim/run/ss_hazards_lag.h"
#include "sim/run/ss_hazards_ledgers.h"
#include "sim/run/ss_hazards_pace.h"
#include "sim/run/ss_hazards_reset.h"
#include "sim/run/ss_hazards_restarts.h"
#include "sim/run/ss_hazards_sources.h"
#include "sim/run/ss_hazards_stale.h"
#include "sim/run/ss_hazards_tokens.h"

/* What a scheduled scripted event needs when it fires. */
struct ev_ctx {
	const struct scenario *s;
	size_t index; /* into s->events */
};

/* @resumed_ms: scenario.resumed_ms (the event's `at` is said on the Scenario's own clock). */
static void event_failed(struct des *w, const struct scn_event *ev, int64_t resumed_ms, const char *why)
{
	char at[32];
	char *text;
	struct tl_objref ref = { ev->target.kind, ev->target.ns, ev->target.name, 0 };

	gt_format_duration(ev->at_ms + resumed_ms, at, sizeof(at));
	text = xasprintf("%s:%u:%u: scenario event %zu (%s) at %s did not apply: %s",
			 ev->file ? ev->file : "?", ev->mark.line, ev->mark.col, ev->index + 1,
			 scn_event_type_name(ev->type), at, why);
	tl_notice_add(des_timeline(w), des_now(w), TL_WARNING, text, &ref, 1);
	free(text);
}

/* metadata.labels/annotations of a merge patch, applied to a strmap. */
static void merge_strmap(struct obj_strmap *m, const struct val *patch)
{
	if (!patch)
		return;
	if (patch->type == VAL_NULL) {
		obj_strmap_release(m);
		return;
	}
	if (patch->type != VAL_MAP)
		return;
	for (size_t i = 0; i < patch->u.map.n; i++) {
		const struct val_kv *kv = &patch->u.map.items[i];

		if (kv->v->type == VAL_NULL)
			obj_strmap_del(m, kv->key);
		else if (kv->v->type == VAL_STRING)
			obj_strmap_set(m, kv->key, kv->v->u.s);
	}
}

static struct val *strmap_val(const struct obj_strmap *m)
{
	struct val *v = val_new_map();

	for (size_t i = 0; i < m->n; i++) /* keys unique: no look-up per key */
		val_map_append(v, m->items[i].key, val_new_string(m->items[i].value));
	return v;
}

/* @o as the manifest document the API server would validate. Returns new. */
static struct val *obj_doc(const struct obj *o)
{
	struct val *doc = val_new_map(), *md;

	val_map_set(doc, "apiVersion", val_new_string(o->api_version));
	val_map_set(doc, "kind", val_new_string(o->kind));
	md = val_map_set(doc, "metadata", val_new_map());
	val_map_set(md, "name", val_new_string(o->name));
	if (o->ns[0])
		val_map_set(md, "namespace", val_new_string(o->ns));
	if (o->labels.n)
		val_map_set(md, "labels", strmap_val(&o->labels));
	if (o->annotations.n)
		val_map_set(md, "annotations", strmap_val(&o->annotations));
	if (o->nfinalizers) {
		struct val *f = val_map_set(md, "finalizers", val_new_list());

		for (size_t i = 0; i < o->nfinalizers; i++)
			val_list_push(f, val_new_string(o->finalizers[i]));
	}
	if (o->spec)
		val_map_set(doc, "spec", val_copy(o->spec));
	if (o->status)
		val_map_set(doc, "status", val_copy(o->status));
	for (size_t i = 0; o->rest && o->rest->type == VAL_MAP && i < o->rest->u.map.n; i++)
		val_map_set(doc, o->rest->u.map.items[i].key, val_copy(o->rest->u.map.items[i].v));
	return doc;
}

/*
 * Validates @o as the API server validates an update (schema, defaults, CEL
 * rules).  Returns the admitted object (new, defaults applied), or NULL with
 * *why set to the first problem (new string).
 */
static struct obj *readmit(const struct obj *o, char **why)
{
	struct val *doc = obj_doc(o);
	struct diag d;
	struct obj *out = NULL;
	int rc;

	diag_init(&d);
	rc = adm_admit(o->src.file ? o->src.file : "scenario", doc, &out, &d);
	if (rc > 0) {
		/* A kind the simulator keeps without a schema: nothing to check. */
		out = obj_copy(o);
	} else if (rc < 0) {
		for (size_t i = 0; i < d.n; i++)
			if (d.items[i].sev == DIAG_ERROR) {
				*why = xasprintf("refused as the API server would: %s", d.items[i].msg);
				break;
			}
		if (!*why)
			*why = xstrdup("refused as the API server would");
		obj_free(out);
		out = NULL;
	}
	diag_release(&d);
	val_free(doc);
	return out;
}

static int apply_event(struct api *api, const struct scn_event *ev, char **why)
{
	const struct scn_target *t = &ev->target;
	const struct obj *cur = api_get(api, t->kind, t->ns, t->name);
	struct obj *o;
	struct val *patch;
	int rc;

	switch (ev->type) {
	case SCN_EV_APPLY:
		o = obj_copy(ev->obj);
		if (!cur) {
			/* A create sets what the server owns: status (a subresource),
			 * generation, uid, deletion. */
			val_free(o->status);
			o->status = NULL;
			o->generation = 1;
			if (o->uid)
				o->uid[0] = '\0';
			o->deletion_ms = -1;
			o->src.creation_given = false; /* created now */
			return api_create(api, o);
		}
		o->resource_version = 0;
		return api_update(api, o);
	case SCN_EV_DELETE:
		return api_delete(api, t->kind, t->ns, t->name);
	case SCN_EV_ANNOTATE:
	case SCN_EV_LABEL:
		patch = val_new_map();
		{
			struct val *m = val_map_set(patch, ev->type == SCN_EV_LABEL ? "labels"
									       : "annotations",
						    val_new_map());

			for (size_t i = 0; i < ev->set.n; i++)
				val_map_set(m, ev->set.items[i].key,
					    val_new_string(ev->set.items[i].value));
			for (size_t i = 0; i < ev->nremove; i++)
				val_map_set(m, ev->remove[i], val_new_null());
		}
		rc = api_patch_meta(api, t->kind, t->ns, t->name, patch);
		val_free(patch);
		return rc;
	case SCN_EV_PATCH:
		if (!cur)
			return API_ENOTFOUND;
		/* One write for metadata and spec together, as one PATCH request. */
		o = obj_copy(cur);
		merge_strmap(&o->labels, val_path(ev->merge, "metadata.labels"));
		merge_strmap(&o->annotations, val_path(ev->merge, "metadata.annotations"));
		if (val_map_get_kv(ev->merge, "spec")) {
			val_merge_patch(&o->spec, val_map_get(ev->merge, "spec"));
			if (o->spec && o->spec->type == VAL_NULL) {
				val_free(o->spec);
				o->spec = NULL;
			}
		}
		o->resource_version = 0;
		{
			struct obj *admitted = readmit(o, why);

			if (!admitted) {
				obj_free(o);
				return API_EINVALID;
			}
			/* Defaults the update brings (a field patched to null comes back). */
			val_free(o->spec);
			o->spec = admitted->spec;
			admitted->spec = NULL;
			obj_free(admitted);
		}
		return api_update(api, o);
	case SCN_EV_STATUS:
		if (!cur)
			return API_ENOTFOUND;
		o = obj_copy(cur);
		val_merge_patch(&o->status, ev->merge);
		{
			struct obj *admitted = readmit(o, why);

			obj_free(o);
			if (!admitted)
				return API_EINVALID;
			obj_free(admitted);
		}
		return api_patch_status(api, t->kind, t->ns, t->name, ev->merge);
	}
	return API_EINVALID;
}

/* What ending a run at completion needs: the last scripted event comes first. */
struct until {
	struct des *w;
	struct obs *obs;
	int64_t last_event_ms; /* -1 without scripted events */
	int64_t run_to_ms;     /* -1, or run_opts.run_to_ms: its probes run first */
};

static void after_last_event(struct des *w, void *ctx, void *arg);

static void on_complete(void *ctx)
{
	struct until *u = ctx;

	if (des_now(u->w) < u->last_event_ms || des_now(u->w) <= u->run_to_ms)
		return;
	/*
	 * A Rollout without steps is idle from its first reconcile on, often at
	 * the instant the world is loaded: the rest of that instant (the
	 * Project deferring to it, its Workspaces awaiting it) still runs, and
	 * the run ends after it if nothing has changed the outcome.
	 */
	if (obs_idle_rollouts(u->obs))
		des_at(u->w, des_now(u->w), INT32_MAX, after_last_event, u, NULL);
	else
		des_request_stop(u->w);
}

/* At the instant of the last scripted event, after everything else of it. */
struct probe_ctx {
	const struct run_opts *o;
};

static void fire_probe(struct des *w, void *ctx, void *arg)
{
	const struct probe_ctx *p = ctx;

	p->o->probe(p->o->probe_ctx, (size_t)(uintptr_t)arg, w);
}

static void after_last_event(struct des *w, void *ctx, void *arg)
{
	struct until *u = ctx;

	if (obs_is_complete(u->obs))
		des_request_stop(w);
}

static void fire_event(struct des *w, void *ctx, void *arg)
{
	const struct ev_ctx *c = ctx;
	size_t index = (size_t)(uintptr_t)arg;
	const struct scn_event *ev = &c->s->events[index];
	char cause[64];
	char *why = NULL;
	int rc;

	snprintf(cause, sizeof(cause), "scenario event %zu (%s)", ev->index + 1,
		 scn_event_type_name(ev->type));

	des_set_cause(w, cause);
	rc = apply_event(des_api(w), ev, &why);
	if (rc != 0)
		event_failed(w, ev, c->s->resumed_ms, why ? why : api_strerror(rc));
	free(why);
}

static void hazard(struct des *w, const struct obj *about, const char *text)
{
	struct tl_objref ref = { about->kind, about->ns, about->name, 0 };

	tl_notice_add(des_timeline(w), des_end(w), TL_WARNING, text, &ref, 1);
}

/* Up to five names of @l's items that @keep selects, "a, b, … (N)". New string. */
static char *names_of(const struct obj *const *items, const bool *pick, size_t n, size_t *count)
{
	char *out = xstrdup("");
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char *next;

		if (!pick[i])
			continue;
		if (k < 5)
			next = xasprintf("%s%s%s", out, k ? ", " : "", items[i]->name);
		else if (k == 5)
			next = xasprintf("%s, …", out);
		else
			next = NULL;
		if (next) {
			free(out);
			out = next;
		}
		k++;
	}
	*count = k;
	return out;
}

/*
 * When Rollout @ns/@name was created: in the run, or before it as a
 * snapshot's state says (ms < 0); OBS_NEVER when not known.
 */
static int64_t created_ms(const struct obs *obs, const char *ns, const char *name)
{
	const struct obs_rollout *ros;
	size_t n;

	ros = obs_rollouts(obs, &n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(ros[i].ns, ns) == 0 && strcmp(ros[i].name, name) == 0)
			return ros[i].created_ms;
	return OBS_NEVER;
}

/* "at 1m40s" of @ms.  Into @buf. */
static const char *at_text(int64_t ms, char *buf, size_t len)
{
	gt_format_duration(ms, buf, len);
	return buf;
}

/*
 * A Rollout without steps: only when its Project exists, which then
 * defers to it; the Workspaces of the project that were never granted never
 * ran, those granted before the Rollout existed did (lint's MS102 says the
 * same of the manifests).
 */
static void no_steps_hazard(struct des *w, const struct obs *obs, const struct obj *r,
			    const char *project, const struct api_list *ws)
{
	bool *never = xcalloc(ws->n ? ws->n : 1, sizeof(*never));
	bool *ran = xcalloc(ws->n ? ws->n : 1, sizeof(*ran));
	size_t nnever, nran;
	char *nn, *rn, *text;

	for (size_t k = 0; k < ws->n; k++) {
		const struct obs_workspace *ow = obs_workspace(obs, ws->items[k]->ns, ws->items[k]->name);
		const char *pr = val_str(val_path(ws->items[k]->spec, "projectRef.name"), "");

		if (strcmp(pr, project) != 0)
			continue;
		if (ow && obs_first(ow->past_granted_ms, ow->granted_ms) != OBS_NEVER)
			ran[k] = true;
		else
			never[k] = true;
	}
	nn = names_of(ws->items, never, ws->n, &nnever);
	rn = names_of(ws->items, ran, ws->n, &nran);
	if (nnever && api_get(des_api(w), "Project", r->ns, project)) {
		char *before = nran ? xasprintf("; granted before the Rollout existed, %s ran", rn)
				    : xstrdup("");

		text = xasprintf("Rollout %s/%s has no steps: it reports Ready/NoSteps and grants "
				 "nothing, and Project %s defers to it, so %zu Workspace%s of the "
				 "project never ran: %s%s",
				 r->ns, r->name, project, nnever, nnever == 1 ? "" : "s", nn, before);
		hazard(w, r, text);
		free(text);
		free(before);
	}
	free(rn);
	free(nn);
	free(ran);
	free(never);
}

/*
 * Workspaces of the project that no step selects: never granted, or granted
 * by something else than the Rollout (the Project before the Rollout existed,
 * spec §7 #2: that grant is never revoked, so they ran outside the order).
 */
static void unselected_hazard(struct des *w, const struct obs *obs, const struct obj *r,
			      const char *project, const struct api_list *ws, const bool *pick)
{
	bool *never = xcalloc(ws->n ? ws->n : 1, sizeof(*never));
	int64_t ro_ms = created_ms(obs, r->ns, r->name);
	size_t count;
	char *names, *text;
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ];

	for (size_t k = 0; k < ws->n; k++) {
		const struct obs_workspace *ow;
		int64_t granted, applied;

		if (!pick[k])
			continue;
		ow = obs_workspace(obs, ws->items[k]->ns, ws->items[k]->name);
		/* before the run too: a snapshot's state carries the grants it saw */
		granted = ow ? obs_first(ow->past_granted_ms, ow->granted_ms) : OBS_NEVER;
		applied = ow ? obs_first(ow->past_applied_ms, ow->applied_ms) : OBS_NEVER;
		if (granted == OBS_NEVER) {
			never[k] = true;
			continue;
		}
		if (ro_ms != OBS_NEVER && granted < ro_ms)
			text = xasprintf("Workspace %s/%s of project %s is selected by no step of Rollout "
					 "%s/%s, but it was granted execution at %s, before the Rollout "
					 "existed (at %s); grants given before the hand-off survive it and "
					 "the Rollout never revokes a Workspace no step selects, so it ran "
					 "outside the Rollout's order%s",
					 ws->items[k]->ns, ws->items[k]->name, project, r->ns, r->name,
					 at_text(granted, t1, sizeof(t1)),
					 at_text(ro_ms, t2, sizeof(t2)),
					 applied != OBS_NEVER ? " (Applied at " : "");
		else
			text = xasprintf("Workspace %s/%s of project %s is selected by no step of Rollout "
					 "%s/%s, but something other than the Rollout granted it "
					 "execution at %s, and the Rollout never revokes a Workspace no "
					 "step selects, so it ran outside the Rollout's order%s",
					 ws->items[k]->ns, ws->items[k]->name, project, r->ns, r->name,
					 at_text(granted, t1, sizeof(t1)),
					 applied != OBS_NEVER ? " (Applied at " : "");
		if (applied != OBS_NEVER) {
			char *full = xasprintf("%s%s)", text, at_text(applied, t2, sizeof(t2)));

			free(text);
			text = full;
		}
		hazard(w, ws->items[k], text);
		free(text);
	}
	names = names_of(ws->items, never, ws->n, &count);
	if (count) {
		text = xasprintf("%zu Workspace%s of project %s %s selected by no step of Rollout "
				 "%s/%s and never granted: %s",
				 count, count == 1 ? "" : "s", project, count == 1 ? "is" : "are",
				 r->ns, r->name, names);
		hazard(w, r, text);
		free(text);
	}
	free(names);
	free(never);
}

/*
 * @r's members by name → the index of their first step (what a scan of the
 * steps in order finds first), into @x (empty on entry).  O(members) expected.
 */
static void first_steps(const struct obs_rollout *r, struct strindex *x)
{
	for (size_t j = 0; j < r->nsteps; j++)
		for (size_t m = 0; m < r->steps[j].nmembers; m++) {
			size_t had;

			if (!si_get(x, r->steps[j].members[m], &had))
				si_put(x, r->steps[j].members[m], j);
		}
}

/* The step of @name in the index of first_steps(), or SIZE_MAX. */
static size_t step_of(const struct strindex *first, const char *name)
{
	size_t j;

	return si_get(first, name, &j) ? j : SIZE_MAX;
}

/*
 * The timeline's Workspace entries grouped by object: for "ns/name", the
 * indices of its entries in timeline order.  Built in one pass, so that the
 * end-of-run checks read one Workspace's history without scanning the whole
 * timeline once per Workspace.
 */
struct ws_history {
	struct strindex idx; /* "ns/name" → position in @at */
	size_t **at;         /* per Workspace, its entry indices */
	size_t *n, *cap;
	size_t nws;
};

static void ws_history_build(const struct tl *tl, struct ws_history *h)
{
	size_t capws = 0;

	memset(h, 0, sizeof(*h));
	for (size_t e = 0, n = tl_count(tl); e < n; e++) {
		struct tl_entry en;
		char *key;
		size_t pos;

		tl_get(tl, e, &en);
		if (strcmp(en.kind, "Workspace") != 0)
			continue;
		key = kb_join2(NULL, 0, en.ns, en.name);
		if (!si_get(&h->idx, key, &pos)) {
			pos = h->nws++;
			if (pos == capws) {
				capws = capws ? 2 * capws : 64;
				h->at = xrealloc(h->at, capws * sizeof(*h->at));
				h->n = xrealloc(h->n, capws * sizeof(*h->n));
				h->cap = xrealloc(h->cap, capws * sizeof(*h->cap));
			}
			h->at[pos] = NULL;
			h->n[pos] = h->cap[pos] = 0;
			si_put(&h->idx, key, pos);
		}
		free(key);
		if (h->n[pos] == h->cap[pos]) {
			h->cap[pos] = h->cap[pos] ? 2 * h->cap[pos] : 8;
			h->at[pos] = xrealloc(h->at[pos], h->cap[pos] * sizeof(**h->at));
		}
		h->at[pos][h->n[pos]++] = e;
	}
}

/* The entry indices of Workspace @ns/@name in timeline order (*@n of them; none: NULL, 0). */
static const size_t *ws_history_of(const struct ws_history *h, const char *ns, const char *name,
				   size_t *n)
{
	char *key = kb_join2(NULL, 0, ns, name);
	size_t pos;
	bool found = si_get(&h->idx, key, &pos);

	free(key);
	*n = found ? h->n[pos] : 0;
	return found ? h->at[pos] : NULL;
}

static void ws_history_release(struct ws_history *h)
{
	for (size_t i = 0; i < h->nws; i++)
		free(h->at[i]);
	free(h->at);
	free(h->n);
	free(h->cap);
	si_release(&h->idx);
	memset(h, 0, sizeof(*h));
}

/*
 * Workspaces of a later step that started planning before their step opened:
 * granted before the Rollout existed (spec §7 #2, the Project's
 * DefaultParallel grants survive the hand-off), or by something else than
 * the Rollout.  Read from what the run observed (call after obs_finish()).
 */
static void early_start_hazards(struct des *w, const struct obs *obs)
{
	const struct obs_rollout *ros;
	size_t nro;

	ros = obs_rollouts(obs, &nro);
	for (size_t i = 0; i < nro; i++) {
		const struct obs_rollout *r = &ros[i];
		int64_t ro_ms = created_ms(obs, r->ns, r->name);
		struct strindex first = { 0 };

		first_steps(r, &first);
		for (size_t j = 1; j < r->nsteps; j++) {
			const struct obs_step *st = &r->steps[j];

			for (size_t m = 0; m < st->nmembers; m++) {
				const struct obs_workspace *ow = obs_workspace(obs, r->ns, st->members[m]);
				bool earlier = false;
				char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ];
				char *opened, *how, *text;
				struct tl_objref ref = { "Workspace", r->ns, st->members[m], 0 };

				/* before the run too: a snapshot's state carries what it saw */
				int64_t planning = ow ? obs_first(ow->past_planning_ms, ow->planning_ms)
						      : OBS_NEVER;
				int64_t granted = ow ? obs_first(ow->past_granted_ms, ow->granted_ms)
						     : OBS_NEVER;
				int64_t open = obs_first(st->past_opened_ms, st->opened_ms);

				/* a member of an earlier step opens with that step */
				earlier = step_of(&first, st->members[m]) < j;
				if (earlier || planning == OBS_NEVER || (open != OBS_NEVER && planning >= open))
					continue;
				opened = open != OBS_NEVER
						 ? xasprintf("opened at %s", at_text(open, t2, sizeof(t2)))
						 : xstrdup("never opened");
				if (granted != OBS_NEVER && ro_ms != OBS_NEVER && granted < ro_ms)
					how = xasprintf("it was granted execution at %s, before the "
							"Rollout existed (at %s), and grants given before "
							"the hand-off survive it",
							at_text(granted, t1, sizeof(t1)),
							at_text(ro_ms, t3, sizeof(t3)));
				else
					how = xstrdup("something other than the Rollout granted it "
						      "execution");
				text = xasprintf("Workspace %s/%s of step %s of Rollout %s/%s started "
						 "planning at %s, but its step %s: %s",
						 r->ns, st->members[m], st->name, r->ns, r->name,
						 at_text(planning, t1, sizeof(t1)), opened, how);
				tl_notice_add(des_timeline(w), des_end(w), TL_WARNING, text, &ref, 1);
				free(text);
				free(how);
				free(opened);
			}
		}
		si_release(&first);
	}
}

/*
 * A Rollout that did not complete while the scheduled reconcile reset
 * Workspaces of its earlier steps (Pending/ScheduledReconcile, spec §4.6 rule
 * 2) as a Workspace of a later step was planning or applying: each such
 * reset re-opened the earlier step and revoked the later ones in the middle
 * of their run (lint's MS115 says when the modelled durations make it so).
 * Resets while the later steps wait (an approval, a failure) are not
 * counted: they are not what kept the Rollout from completing.  Call after
 * obs_finish().
 */
static void interval_reset_hazards(struct des *w, const struct obs *obs)
{
	const struct tl *tl = des_timeline(w);
	const struct obs_rollout *ros;
	size_t nro, n = tl_count(tl);

	ros = obs_rollouts(obs, &nro);
	for (size_t i = 0; i < nro; i++) {
		const struct obs_rollout *r = &ros[i];
		size_t total = 0, shown = 0, nmem = 0;
		char *per = xstrdup("");
		struct tl_objref ref = { "Rollout", r->ns, r->name, 0 };
		const char **name, **phase;
		size_t *step, *count;
		bool *was_reset, *rerun;
		struct strindex first = { 0 }, which = { 0 };

		if (obs_first(r->past_completed_ms, r->completed_ms) != OBS_NEVER || r->nsteps < 2) {
			free(per);
			continue;
		}
		first_steps(r, &first);
		for (size_t j = 0; j < r->nsteps; j++)
			nmem += r->steps[j].nmembers;
		name = xcalloc(nmem + 1, sizeof(*name));
		phase = xcalloc(nmem + 1, sizeof(*phase));
		step = xcalloc(nmem + 1, sizeof(*step));
		count = xcalloc(nmem + 1, sizeof(*count));
		was_reset = xcalloc(nmem + 1, sizeof(*was_reset));
		rerun = xcalloc(nmem + 1, sizeof(*rerun));
		nmem = 0;
		for (size_t j = 0; j < r->nsteps; j++)
			for (size_t m = 0; m < r->steps[j].nmembers; m++) {
				if (step_of(&first, r->steps[j].members[m]) != j)
					continue; /* counted with its first step */
				si_put(&which, r->steps[j].members[m], nmem);
				name[nmem] = r->steps[j].members[m];
				step[nmem++] = j;
			}
		for (size_t e = 0; e < n; e++) {
			struct tl_entry en;
			size_t k;
			bool reset, running_later = false;

			tl_get(tl, e, &en);
			if (strcmp(en.kind, "Workspace") != 0 || strcmp(en.ns, r->ns) != 0)
				continue;
			if (!si_get(&which, en.name, &k))
				continue;
			phase[k] = en.phase;
			reset = en.phase && strcmp(en.phase, "Pending") == 0 && en.reason &&
				strcmp(en.reason, "ScheduledReconcile") == 0;
			if (en.phase && strcmp(en.phase, "Applied") == 0)
				rerun[k] = false;
			if (!reset || was_reset[k]) {
				was_reset[k] = reset;
				continue;
			}
			was_reset[k] = true;
			rerun[k] = true;
			/*
			 * A later Workspace that is itself re-running after a reset of
			 * its own is not the Rollout's progress: both were reset on
			 * their grids, and what holds the Rollout is elsewhere.
			 */
			for (size_t l = 0; l < nmem && !running_later; l++)
				running_later = step[l] > step[k] && phase[l] && !rerun[l] &&
						(strcmp(phase[l], "Planning") == 0 ||
						 strcmp(phase[l], "Applying") == 0);
			if (running_later)
				count[k]++;
		}
		for (size_t k = 0; k < nmem; k++) {
			char *next;

			if (!count[k])
				continue;
			next = shown < 5 ? xasprintf("%s%s%s %zu time%s", per, shown ? ", " : "", name[k],
						     count[k], count[k] == 1 ? "" : "s")
					 : NULL;
			if (next) {
				free(per);
				per = next;
			}
			shown++;
			total += count[k];
		}
		if (total) {
			char *text = xasprintf("Rollout %s/%s did not complete: the scheduled reconcile "
					       "reset Workspaces of earlier steps %zu time%s while a "
					       "later step was planning or applying (%s%s), each time "
					       "re-opening their step and revoking the later ones; set "
					       "magosproject.io/reconcile-interval on them above the "
					       "time the later steps take (lint's MS115 gives it)",
					       r->ns, r->name, total, total == 1 ? "" : "s", per,
					       shown > 5 ? ", …" : "");

			tl_notice_add(des_timeline(w), des_end(w), TL_WARNING, text, &ref, 1);
			free(text);
		}
		si_release(&which);
		si_release(&first);
		free(rerun);
		free(was_reset);
		free(count);
		free(step);
		free(phase);
		free(name);
		free(per);
	}
}

/* Whether Job @job's status has the condition Failed=True (batchv1.JobFailed). */
static bool job_has_failed_condition(const struct obj *job)
{
	const struct val *conds = val_map_get(job->status, "conditions");

	for (size_t i = 0; conds && conds->type == VAL_LIST && i < conds->u.list.n; i++) {
		const struct val *c = conds->u.list.items[i];

		if (!strcmp(val_str(val_map_get(c, "type"), ""), "Failed") &&
		    !strcmp(val_str(val_map_get(c, "status"), ""), "True"))
			return true;
	}
	return false;
}

/*
 * A Workspace that ended Failed on a Job whose status counts a failed pod
 * but has no Failed=True condition: the Workspace controller retries a
 * failed plan (RetryPlan) or apply (RetryApply) on its reconcile grid only
 * when the Job has that condition (workspace_controller.go
 * reconcileWorkspace), so the Workspace stays Failed and its step with it.
 * A Job the cluster fails always has it; a scripted status that sets only
 * `failed` does not.  Told once per Workspace, naming the Job.
 */
static void failed_job_hazards(struct des *w)
{
	struct api *api = des_api(w);
	struct api_list ws;

	api_list_init(&ws);
	api_list(api, "Workspace", NULL, NULL, NULL, &ws);
	for (size_t k = 0; k < ws.n; k++) {
		const struct obj *o = ws.items[k];
		const char *phase = val_str(val_map_get(o->status, "phase"), "");
		const char *reason = NULL;
		const struct obj *job = NULL;
		char hash[9];
		char *plan, *apply, *text;
		const struct obj *P, *A;

		if (strcmp(phase, "Failed") != 0)
			continue;
		mw_get_spec_hash(o->spec, hash);
		plan = mw_job_name(o->name, "plan", hash);
		apply = mw_job_name(o->name, "apply", hash);
		P = api_get(api, "Job", o->ns, plan);
		A = api_get(api, "Job", o->ns, apply);
		if (A && !val_map_get(A->status, "completionTime") &&
		    val_int(val_map_get(A->status, "failed"), 0) > 0 && !job_has_failed_condition(A)) {
			job = A;
			reason = "RetryApply";
		} else if (!A && P && val_int(val_map_get(P->status, "failed"), 0) > 0 &&
			   !job_has_failed_condition(P)) {
			job = P;
			reason = "RetryPlan";
		}
		if (job) {
			text = xasprintf("Workspace %s/%s ended Failed and was never retried: its Job "
					 "%s has status.failed %lld but no Failed=True condition, and "
					 "the Workspace controller retries a failed Job (%s, on the "
					 "reconcile grid) only when the Job has that condition; a Job "
					 "the cluster fails has it (reason BackoffLimitExceeded): give "
					 "a scripted Job status `conditions: [{type: Failed, status: "
					 "\"True\"}]` as well",
					 o->ns, o->name, job->name,
					 (long long)val_int(val_map_get(job->status, "failed"), 0), reason);
			hazard(w, o, text);
			free(text);
		}
		free(apply);
		free(plan);
	}
	api_list_release(&ws);
}

#define NEW_REVISION_PREFIX "RefWatcher detected new revision "

/* When Workspace @ns/@name first said it detected revision @sha, or -1. */
static int64_t detected_ms(const struct tl *tl, const struct ws_history *h, const char *ns,
			   const char *name, const char *sha)
{
	size_t n;
	const size_t *at = ws_history_of(h, ns, name, &n);

	for (size_t i = 0; i < n; i++) {
		struct tl_entry en;

		tl_get(tl, at[i], &en);
		if (en.reason && strcmp(en.reason, "NewRevisionDetected") == 0 && en.message &&
		    strncmp(en.message, NEW_REVISION_PREFIX, strlen(NEW_REVISION_PREFIX)) == 0 &&
		    strcmp(en.message + strlen(NEW_REVISION_PREFIX), sha) == 0)
			return en.t_ms;
	}
	return -1;
}

/*
 * For one Rollout and one revision: when each member of its steps, in step
 * order (a member of several steps once per step), first detected the
 * revision (@t, -1 never), and the running maximum of those times (@max).
 * The first of the members of steps before j that detected it after T is
 * the first i < (members of steps before j) with max[i] > T: max only grows,
 * and it passes T exactly where a member's own time does.
 */
struct detections {
	const char *sha;
	int64_t *t, *max;
};

static const struct detections *detections_of(const struct tl *tl, const struct ws_history *h,
					      const struct obs_rollout *r, const char *sha,
					      struct detections **d, size_t *nd, size_t nall)
{
	struct detections *x;
	size_t i = 0;
	int64_t hi = -1;

	for (size_t k = 0; k < *nd; k++)
		if (strcmp((*d)[k].sha, sha) == 0)
			return &(*d)[k];
	*d = xreallocarray(*d, *nd + 1, sizeof(**d));
	x = &(*d)[(*nd)++];
	x->sha = sha;
	x->t = xcalloc(nall + 1, sizeof(*x->t));
	x->max = xcalloc(nall + 1, sizeof(*x->max));
	for (size_t l = 0; l < r->nsteps; l++)
		for (size_t k = 0; k < r->steps[l].nmembers; k++, i++) {
			x->t[i] = detected_ms(tl, h, r->ns, r->steps[l].members[k], sha);
			if (x->t[i] > hi)
				hi = x->t[i];
			x->max[i] = hi;
		}
	return x;
}

/*
 * A Workspace of a later step that started planning a new revision before a
 * Workspace of an earlier step, which tracks the same revision, had seen it
 * (spec §7 #5: each Workspace's RefWatcher polls on its own timer, and the
 * later one, once pending, is granted while the earlier steps are still
 * Applied).  Told once per Workspace and revision.  Call after obs_finish().
 * Reads each Workspace's entries from @h; O(entries + members × revisions).
 */
static void revision_order_hazards(struct des *w, const struct obs *obs, const struct ws_history *h)
{
	const struct tl *tl = des_timeline(w);
	const struct obs_rollout *ros;
	size_t nro;

	ros = obs_rollouts(obs, &nro);
	for (size_t i = 0; i < nro; i++) {
		const struct obs_rollout *r = &ros[i];
		struct strindex first = { 0 };
		struct detections *d = NULL;
		size_t nd = 0, nall = 0, before = 0; /* members of the steps before j */
		size_t *step_at;                     /* the step of each position in step order */

		for (size_t j = 0; j < r->nsteps; j++)
			nall += r->steps[j].nmembers;
		step_at = xcalloc(nall + 1, sizeof(*step_at));
		for (size_t j = 0, p = 0; j < r->nsteps; j++)
			for (size_t m = 0; m < r->steps[j].nmembers; m++)
				step_at[p++] = j;
		first_steps(r, &first);
		for (size_t j = 1; j < r->nsteps; j++) {
			before += r->steps[j - 1].nmembers;
			for (size_t m = 0; m < r->steps[j].nmembers; m++) {
				const char *name = r->steps[j].members[m];
				const char *sha = NULL, *told = NULL;
				size_t nat;
				const size_t *at;

				if (step_of(&first, name) != j)
					continue;
				at = ws_history_of(h, r->ns, name, &nat);
				for (size_t q = 0; q < nat; q++) {
					struct tl_entry en;
					const char *late = NULL, *late_step = NULL;
					int64_t late_ms = -1;
					const struct detections *x;
					size_t lo = 0, hi = before;

					tl_get(tl, at[q], &en);
					if (en.reason && strcmp(en.reason, "NewRevisionDetected") == 0 &&
					    en.message &&
					    strncmp(en.message, NEW_REVISION_PREFIX,
						    strlen(NEW_REVISION_PREFIX)) == 0) {
						sha = en.message + strlen(NEW_REVISION_PREFIX);
						continue;
					}
					if (!sha || !en.phase || strcmp(en.phase, "Planning") != 0)
						continue;
					/* the run of @sha starts: has every earlier Workspace seen it? */
					x = detections_of(tl, h, r, sha, &d, &nd, nall);
					while (lo < hi) { /* the first position before j with max > t */
						size_t mid = lo + (hi - lo) / 2;

						if (x->max[mid] > en.t_ms)
							hi = mid;
						else
							lo = mid + 1;
					}
					if (lo < before) {
						size_t l = step_at[lo], k = lo;

						for (size_t e = 0; e < l; e++)
							k -= r->steps[e].nmembers;
						late = r->steps[l].members[k];
						late_step = r->steps[l].name;
						late_ms = x->t[lo];
					}
					if (late && told != sha) {
						char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ];
						struct tl_objref ref = { "Workspace", r->ns, name, 0 };
						char *text = xasprintf(
							"Workspace %s/%s of step %s of Rollout %s/%s started planning "
							"revision %.7s at %s, before %s of the earlier step %s had "
							"seen it (at %s): each Workspace's RefWatcher polls on its "
							"own timer, and a later step's Workspace that sees a commit "
							"first is granted while the earlier steps are still Applied; "
							"give the later steps' Workspaces a longer "
							"magosproject.io/git-poll-interval than the earlier ones' so "
							"that they usually see a commit last",
							r->ns, name, r->steps[j].name, r->ns, r->name, sha,
							at_text(en.t_ms, t1, sizeof(t1)), late, late_step,
							at_text(late_ms, t2, sizeof(t2)));

						tl_notice_add(des_timeline(w), des_end(w), TL_WARNING, text,
							      &ref, 1);
						free(text);
						told = sha;
					}
					sha = NULL;
				}
			}
		}
		for (size_t k = 0; k < nd; k++) {
			free(d[k].t);
			free(d[k].max);
		}
		free(d);
		free(step_at);
		si_release(&first);
	}
}

#define APPROVED_GIVEN "+magosproject.io/approved=true"

/*
 * What a Workspace that ended Planned, with autoApply false and no approval
 * on it, waits for, read from its whole history (@h): the plan it ended on
 * (the last entry into Planned), and whether an approval was given and used
 * before that plan (an Applying after it), so that a Workspace approved,
 * applied and then planned again (a scheduled reconcile, a new revision) is
 * not said never to have been approved.  New string.
 */
static char *planned_waiting_text(const struct tl *tl, const struct ws_history *h,
				  const struct obj *o)
{
	size_t n;
	const size_t *at = ws_history_of(h, o->ns, o->name, &n);
	int64_t planned_ms = -1, given_ms = -1, applied_ms = -1, rerun_ms = -1;
	int64_t last_given_ms = -1, last_used_ms = -1, reset_ms = -1;
	const char *rerun_reason = NULL, *prev = NULL, *reset_reason = NULL;
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ];
	char t4[GT_DURATION_BUFSZ];

	for (size_t i = 0; i < n; i++) {
		struct tl_entry en;

		tl_get(tl, at[i], &en);
		if (en.detail && strstr(en.detail, APPROVED_GIVEN))
			given_ms = en.t_ms;
		if (en.phase && !strcmp(en.phase, "Applying") && given_ms >= 0 &&
		    (!prev || strcmp(prev, "Applying") != 0)) {
			last_given_ms = given_ms;
			last_used_ms = en.t_ms;
			given_ms = -1;
		}
		if (en.phase && !strcmp(en.phase, "Pending") && (!prev || strcmp(prev, "Pending")) &&
		    en.reason) {
			rerun_ms = en.t_ms;
			rerun_reason = en.reason;
		}
		if (en.phase && !strcmp(en.phase, "Planned") && (!prev || strcmp(prev, "Planned"))) {
			planned_ms = en.t_ms;
			applied_ms = last_used_ms;
			reset_ms = rerun_ms > last_used_ms ? rerun_ms : -1;
			reset_reason = reset_ms >= 0 ? rerun_reason : NULL;
		}
		if (en.phase)
			prev = en.phase;
	}
	if (applied_ms < 0 || planned_ms <= applied_ms)
		return xasprintf("Workspace %s/%s ended Planned: autoApply is false and it waits for "
				 "magosproject.io/approved: \"true\", which nobody gave",
				 o->ns, o->name);
	if (!reset_reason)
		return xasprintf("Workspace %s/%s ended Planned: autoApply is false; the approval "
				 "given at %s was used (its apply started at %s), and the plan it "
				 "ended on (Planned at %s) waits for a new "
				 "magosproject.io/approved: \"true\", which nobody gave (an "
				 "approval is consumed by the apply it starts)",
				 o->ns, o->name, at_text(last_given_ms, t1, sizeof(t1)),
				 at_text(applied_ms, t2, sizeof(t2)), at_text(planned_ms, t4, sizeof(t4)));
	return xasprintf("Workspace %s/%s ended Planned: autoApply is false; the approval given "
			 "at %s was used (its apply started at %s), then the Workspace was reset "
			 "at %s (%s) and planned again, and that plan (Planned at %s) waits for a "
			 "new magosproject.io/approved: \"true\", which nobody gave (an approval "
			 "is consumed by the apply it starts)",
			 o->ns, o->name, at_text(last_given_ms, t1, sizeof(t1)),
			 at_text(applied_ms, t2, sizeof(t2)), at_text(reset_ms, t3, sizeof(t3)),
			 reset_reason, at_text(planned_ms, t4, sizeof(t4)));
}

/*
 * What the run ended on that a reader would otherwise not see: a Rollout
 * without steps, Workspaces no step selects or nothing grants, a plan waiting
 * for an approval nobody gives, Workspaces that started before their step,
 * a failed Job the controller never retries, scheduled resets that kept a
 * Rollout from completing.  Spec §7 #2, #3, #9,
 * #15; the engines behave as upstream, these only say so.  Call after
 * obs_finish() (the steps' members are known then).
 */
static void end_of_run_hazards(struct des *w, const struct obs *obs)
{
	struct api *api = des_api(w);
	struct api_list ro, ws;
	struct ws_history h;

	api_list_init(&ro);
	api_list_init(&ws);
	api_list(api, "Rollout", NULL, NULL, NULL, &ro);
	for (size_t i = 0; i < ro.n; i++) {
		const struct obj *r = ro.items[i];
		const char *project = val_str(val_map_get(r->spec, "projectRef"), "");
		const struct val *steps = val_path(r->spec, "strategy.steps");
		size_t nsteps = steps && steps->type == VAL_LIST ? steps->u.list.n : 0;
		bool *pick;

		api_list(api, "Workspace", r->ns, NULL, NULL, &ws);
		if (nsteps == 0) {
			no_steps_hazard(w, obs, r, project, &ws);
			continue;
		}
		pick = xcalloc(ws.n ? ws.n : 1, sizeof(*pick));
		/* the rule of lint's MS105, so that lint and a run agree */
		if (lint_unselected_workspaces(steps, project, ws.items, ws.n, pick))
			unselected_hazard(w, obs, r, project, &ws, pick);
		free(pick);
	}
	early_start_hazards(w, obs);
	failed_job_hazards(w);
	interval_reset_hazards(w, obs);
	ws_history_build(des_timeline(w), &h);
	revision_order_hazards(w, obs, &h);
	api_list(api, "Workspace", NULL, NULL, NULL, &ws);
	for (size_t k = 0; k < ws.n; k++) {
		const struct obj *o = ws.items[k];
		const char *phase = val_str(val_map_get(o->status, "phase"), "");
		const char *approved = obj_strmap_get(&o->annotations, "magosproject.io/approved");
		const char *project = val_str(val_path(o->spec, "projectRef.name"), "");
		char *text = NULL;

		if (!strcmp(phase, "Planned") && !val_bool(val_map_get(o->spec, "autoApply"), true) &&
		    !(approved && !strcmp(approved, "true")))
			text = planned_waiting_text(des_timeline(w), &h, o);
		else if (!api_get(api, "Project", o->ns, project) &&
			 !api_get(api, "Rollout", o->ns, project))
			text = xasprintf("Workspace %s/%s names project %s, which has neither a Project "
					 "nor a Rollout: nothing grants it execution",
					 o->ns, o->name, project);
		if (text) {
			hazard(w, o, text);
			free(text);
		}
	}
	ws_history_release(&h);
	api_list_release(&ws);
	api_list_release(&ro);
}

/*
 * message_gate_value() - the metric a gate halt's Ready message carries:
 * upstream writes "wave %q failed its health gate: metric %.4g is outside
 * the threshold" (engine/fleet_rollout.c), so the value rounded to 4
 * significant digits, as Go's %g prints it (1.235e+06, +Inf, NaN).
 * Returns: true and *@v, or false when @msg is not of that form.
 */
static bool message_gate_value(const char *msg, double *v)
{
	static const char pre[] = " failed its health gate: metric ",
			  post[] = " is outside the threshold";
	const char *p = msg ? strstr(msg, pre) : NULL;
	char *end;

	if (!p)
		return false;
	p += sizeof(pre) - 1;
	if (*p == ' ' || *p == '\0')
		return false; /* strtod would skip the space */
	*v = strtod(p, &end);
	return end != p && strcmp(end, post) == 0;
}

/*
 * The first halt of the whole run may be one before the start that the
 * snapshot dates: a FleetRollout's it carried (fo_fleet.past_halts), or a
 * Rollout's loaded Failed (obs_rollout.past_halt_ms: carried, or its Ready
 * condition's lastTransitionTime).  The summary gives the earliest of them,
 * before the start at its time (<= 0), told the same for both engines,
 * unless it already has a halt loaded that way whose time the snapshot does
 * not say: that one cannot be ordered against them, and stays.
 */
static void carried_halt(struct run_result *r)
{
	const struct fo_fleet *fl = NULL, *all;
	const struct obs_rollout *ro = NULL, *rall;
	struct oc_summary *s = &r->summary;
	size_t n, nr = 0;

	all = fo_fleets(r->fobs, &n);
	for (size_t i = 0; i < n; i++)
		if (all[i].npast_halts && (!fl || all[i].past_halts[0].t_ms < fl->past_halts[0].t_ms))
			fl = &all[i];
	rall = r->obs ? obs_rollouts(r->obs, &nr) : NULL;
	for (size_t i = 0; i < nr; i++)
		if (rall[i].halted_before_start && rall[i].past_halt_ms != OBS_NEVER &&
		    (!ro || rall[i].past_halt_ms < ro->past_halt_ms))
			ro = &rall[i];
	if (s->halted && s->halt_before_start && s->halt_name && s->halt_kind) {
		bool dated = false;

		if (!strcmp(s->halt_kind, "FleetRollout"))
			for (size_t i = 0; i < n && !dated; i++)
				dated = all[i].npast_halts && !strcmp(all[i].name, s->halt_name);
		else
			for (size_t i = 0; i < nr && !dated; i++)
				dated = rall[i].halted_before_start && rall[i].past_halt_ms != OBS_NEVER &&
					s->halt_ns && !strcmp(rall[i].ns, s->halt_ns) &&
					!strcmp(rall[i].name, s->halt_name);
		if (!dated)
			return;
	}
	if (ro && (!fl || ro->past_halt_ms <= fl->past_halts[0].t_ms)) {
		s->halted = true;
		s->halt_before_start = true;
		s->halt_ms = ro->past_halt_ms;
		s->halt_kind = "Rollout";
		s->halt_ns = ro->ns;
		s->halt_name = ro->name;
		s->halt_reason = ro->halt_reason;
		s->halt_message = ro->halt_message;
		return;
	}
	if (!fl)
		return;
	s->halted = true;
	s->halt_before_start = true;
	s->halt_ms = fl->past_halts[0].t_ms;
	s->halt_kind = "FleetRollout";
	s->halt_ns = "";
	s->halt_name = fl->name;
	s->halt_reason = fl->past_halts[0].reason;
	s->halt_message = fl->past_halts[0].message;
}

/*
 * The value a FleetRollout's gate read when it halted the run first: the
 * Halted message prints it with %.4g (0.0100001 → "0.01", which looks inside
 * max "0.01"), so the summary shows it in full beside the message.  A halt
 * before the start has its reading in the pass log of the run that halted:
 * the summary gives the message's value then (halt_value_rounded).
 */
static void gate_halt_value(struct run_result *r)
{
	const struct frc *f = fleet_glue_frc(r->fleet);
	const struct frc_halt_rec *h;
	const struct frc_gate_rec *g;
	size_t nh, ng;

	if (!r->summary.halted || !r->summary.halt_kind ||
	    strcmp(r->summary.halt_kind, "FleetRollout") != 0)
		return;
	if (r->summary.halt_before_start) {
		/* the reading is in the pass log of the run that halted: the message has it rounded */
		if (message_gate_value(r->summary.halt_message, &r->summary.halt_value))
			r->summary.has_halt_value = r->summary.halt_value_rounded = true;
		return;
	}
	if (!f)
		return;
	h = frc_halt_log(f, &nh);
	g = frc_gate_log(f, &ng);
	for (size_t i = 0; i < nh; i++) {
		if (!h[i].gate || h[i].t_ms != r->summary.halt_ms ||
		    strcmp(h[i].fleet, r->summary.halt_name) != 0)
			continue;
		for (size_t k = 0; k < ng; k++)
			if (g[k].t_ms == h[i].t_ms && g[k].wave == h[i].wave && g[k].available &&
			    strcmp(g[k].fleet, h[i].fleet) == 0 && strcmp(g[k].verdict, "Failing") == 0) {
				r->summary.has_halt_value = true;
				r->summary.halt_value = g[k].value;
				r->summary.halt_min = g[k].min;
				r->summary.halt_max = g[k].max;
				return;
			}
	}
}

/* Samples of a series looked at per Completed spell, at most (a longer spell is looked at up to there). */
#define COMPLETED_GATE_MAX_SAMPLES 100000

/* Whether a gate evaluation of @fleet's wave @wave in [@from, @to] failed. */
static bool gate_failed_in(const struct frc_gate_rec *g, size_t ng, const char *fleet, size_t wave,
			   int64_t from, int64_t to)
{
	for (size_t k = 0; k < ng; k++)
		if (g[k].wave == wave && g[k].t_ms >= from && g[k].t_ms <= to &&
		    strcmp(g[k].fleet, fleet) == 0 && strcmp(g[k].verdict, "Failing") == 0)
			return true;
	return false;
}

/* The last gate evaluation of @fleet's wave @wave at or before @t, or -1. */
static int64_t last_query_ms(const struct frc_gate_rec *g, size_t ng, const char *fleet,
			     size_t wave, int64_t t)
{
	int64_t last = -1;

	for (size_t k = 0; k < ng; k++)
		if (g[k].wave == wave && g[k].t_ms <= t && strcmp(g[k].fleet, fleet) == 0)
			last = g[k].t_ms;
	return last;
}

/*
 * A metric spike a Completed FleetRollout did not see: a Completed fleet is
 * never requeued (spec §6 #21) and queries its gates only when an event
 * wakes it, so a gate's series can leave its threshold and come back
 * unseen.  Told for the first such spell of each gate in each Completed
 * stretch: the spell (from the series, sampled as the gate reads it) during
 * which no evaluation of that gate failed.
 */
static void completed_gate_hazards(struct run_result *r, const struct scenario *s)
{
	const struct frc *f = fleet_glue_frc(r->fleet);
	const struct tl *tl = des_timeline(r->world);
	const struct frc_gate_rec *g;
	struct api_list fl;
	size_t ng;

	if (!f)
		return;
	g = frc_gate_log(f, &ng);
	api_list_init(&fl);
	api_list(des_api(r->world), "FleetRollout", NULL, NULL, NULL, &fl);
	for (size_t i = 0; i < fl.n; i++) {
		const struct obj *o = fl.items[i];
		const struct val *waves = val_map_get(o->spec, "waves");
		int64_t from = -1;

		for (size_t e = 0, n = tl_count(tl); e <= n; e++) {
			struct tl_entry en;
			int64_t to;

			if (e < n) {
				tl_get(tl, e, &en);
				if (strcmp(en.kind, "FleetRollout") != 0 || strcmp(en.name, o->name) != 0 ||
				    en.change != TL_STATUS || !en.phase)
					continue;
				if (strcmp(en.phase, "Completed") == 0) {
					if (from < 0)
						from = en.t_ms;
					continue;
				}
				to = en.t_ms;
			} else {
				to = r->end_ms;
			}
			if (from < 0)
				continue;
			for (size_t w = 0; waves && waves->type == VAL_LIST && w < waves->u.list.n; w++) {
				const struct val *wv = waves->u.list.items[w];
				const struct val *pm = val_path(wv, "gate.source.prometheus");
				const char *min = val_str(val_path(wv, "gate.threshold.min"), NULL);
				const char *max = val_str(val_path(wv, "gate.threshold.max"), NULL);
				const struct scn_series *se;
				int64_t t0, out_from = -1, out_to = -1;
				double peak = 0;
				size_t steps = 0;

				if (!pm || !(se = scn_find_series(s, val_str(val_map_get(pm, "query"), ""),
								  val_str(val_map_get(pm, "address"), NULL))))
					continue;
				t0 = (from + se->interval_ms - 1) / se->interval_ms * se->interval_ms;
				for (int64_t t = t0; t < to && steps < COMPLETED_GATE_MAX_SAMPLES;
				     t += se->interval_ms, steps++) {
					double v;
					bool ok;

					if (frc_metric_from_series(&se->series, se->interval_ms, t + se->offset_ms, &v,
								   NULL, 0) ||
					    thr_satisfied(min, max, v, &ok, NULL, 0) != THR_OK)
						continue;
					if (!ok && out_from < 0) {
						out_from = t;
						peak = v;
					} else if (!ok && fabs(v) > fabs(peak)) {
						peak = v;
					}
					if (ok && out_from >= 0) {
						out_to = t;
						break;
					}
				}
				if (out_from < 0)
					continue;
				if (out_to < 0)
					out_to = to;
				if (!gate_failed_in(g, ng, o->name, w, out_from, out_to)) {
					char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
					char q[GT_DURATION_BUFSZ];
					int64_t lq = last_query_ms(g, ng, o->name, w, out_to);
					char *text;
					struct tl_objref ref = { "FleetRollout", o->ns, o->name, 0 };

					if (lq >= 0)
						at_text(lq, q, sizeof(q));
					text = xasprintf(
						"FleetRollout %s: the metric of wave \"%s\"'s gate left its "
						"threshold (%s%s%s%s%s%s%s) from %s to %s, reaching %g, after the "
						"fleet Completed at %s; a Completed FleetRollout is never requeued "
						"and queries its gates only when an event wakes it (%s%s), so "
						"nothing halted; alert on the metric outside the FleetRollout",
						o->name, val_str(val_map_get(wv, "name"), ""),
						min ? "min \"" : "", min ? min : "", min ? "\"" : "",
						min && max ? ", " : "", max ? "max \"" : "", max ? max : "",
						max ? "\"" : "", at_text(out_from, a, sizeof(a)),
						out_to >= r->end_ms ? "the end of the run" : at_text(out_to, b, sizeof(b)),
						peak, at_text(from, c, sizeof(c)),
						lq >= 0 ? "its last query was at " : "it never queried it",
						lq >= 0 ? q : "");
					tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING,
						      text, &ref, 1);
					free(text);
				}
			}
			from = -1;
		}
	}
	api_list_release(&fl);
}

/*
 * restore_queues() - the work queues a snapshot of the simulator carries
 * (scenario.queue): each such controller starts with the snapshot's entries,
 * in their order, each ready when it was to be (relative to the clock's
 * start), instead of one entry per object from the informers' initial list.
 */
static void restore_queues(struct des *w, const struct scenario *s)
{
	struct ctl *const *ctls;
	size_t n = des_controllers(w, &ctls);

	for (size_t c = 0; c < n; c++) {
		const char *name = ctl_name(ctls[c]);

		for (size_t k = 0; k < SCN_NQUEUE_CONTROLLERS; k++)
			if (s->queue_restored[k] && strcmp(scn_queue_controller(k), name) == 0)
				ctl_restore_queue(ctls[c]);
		for (size_t i = 0; i < s->nqueue; i++) {
			const struct scn_queue_entry *e = &s->queue[i];

			if (strcmp(scn_queue_controller(e->controller), name) != 0)
				continue;
			if (e->in_flight)
				/* ranked first: in flight before every entry (kubeget.h) */
				ctl_resume_pass(ctls[c], e->ns, e->name, e->ready_unix_ms - s->start_unix_ms,
						e->priority, e->has_next, e->next_unix_ms - s->start_unix_ms,
						e->next_priority);
			else
				ctl_add(ctls[c], e->ns, e->name, e->ready_unix_ms - s->start_unix_ms,
					e->priority);
			ctl_set_failures(ctls[c], e->ns, e->name, e->failures);
		}
	}
}

/* A restored RefWatcher push (scenario.refwatcher[entry].polls[poll]). */
struct rw_push {
	size_t entry, poll;
	uint64_t order;
};

static int by_push_order(const void *a, const void *b)
{
	const struct rw_push *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * restore_refwatcher() - the RefWatcher's registry a snapshot of the
 * simulator carries (scenario.refwatcher): each entry as it was, and its
 * pending pushes in the order they were pushed, so that pushes due at one
 * instant pop as they would have.
 */
static void restore_refwatcher(struct mwc *m, const struct scenario *s)
{
	struct rw_push *push = NULL;
	size_t n = 0;

	if (!mwc_refwatcher_ctl(m) || !s->nrefwatcher)
		return;
	for (size_t i = 0; i < s->nrefwatcher; i++) {
		const struct scn_refwatcher_entry *e = &s->refwatcher[i];

		mwc_restore_entry(m, e->ns, e->name, e->url, e->ref, e->interval_ms, e->last_sha);
		push = xreallocarray(push, n + e->npolls + 1, sizeof(*push));
		for (size_t k = 0; k < e->npolls; k++)
			push[n++] = (struct rw_push){ i, k, e->polls[k].order };
	}
	qsort(push, n, sizeof(*push), by_push_order);
	for (size_t i = 0; i < n; i++) {
		const struct scn_refwatcher_entry *e = &s->refwatcher[push[i].entry];
		int64_t at = e->polls[push[i].poll].at_unix_ms - s->start_unix_ms;

		mwc_restore_poll(m, e->ns, e->name, at > 0 ? at : 0);
	}
	free(push);
}

int run_scenario(const struct scenario *s, const struct run_opts *o, struct run_result *r)
{
	struct des_params p = des_params_default();
	struct des_limits lim = { 0 };
	struct ev_ctx *ctx;
	struct until *until = NULL;
	struct api *api;
	struct probe_ctx pctx;

	memset(r, 0, sizeof(*r));
	r->seed = o && o->seed_set ? o->seed : s->seed;
	r->horizon_ms = o && o->horizon_set ? o->horizon_ms : s->horizon_ms;
	p.seed = r->seed;
	p.api_latency_ms = s->api_latency_ms;
	p.reconcile_ms = s->reconcile_ms;
	r->world = des_new(&p);
	api = des_api(r->world);
	r->obs = obs_new(r->world, p.api_latency_ms, s->start_unix_ms);
	r->fobs = fo_new(r->world, p.api_latency_ms, s->start_unix_ms);

	des_set_cause(r->world, "load");
	for (size_t i = 0; i < s->nobjs; i++) {
		/* the loaded trees are shared, not copied per trial: the scenario outlives the world */
		int rc = api_create_shared(api, s->objs[i]);

		/* The loader already rejected duplicates and invalid objects. */
		if (rc != 0)
			abort();
	}
	des_set_cause(r->world, NULL);
	obs_loaded(r->obs, s);
	fo_seed(r->fobs, s);
	/*
	 * Armed once the whole world is loaded: completion is judged on all of
	 * it, and only once every scripted event had its turn.
	 */
	if (!(o && o->until_horizon)) {
		until = xcalloc(1, sizeof(*until));
		until->w = r->world;
		until->obs = r->obs;
		until->last_event_ms = -1;
		for (size_t i = 0; i < s->nevents; i++)
			if (s->events[i].at_ms > until->last_event_ms)
				until->last_event_ms = s->events[i].at_ms;
		for (size_t i = 0; i < s->nmevents; i++)
			if (s->mevents[i].at_ms > until->last_event_ms)
				until->last_event_ms = s->mevents[i].at_ms;
		for (size_t i = 0; i < s->nfevents; i++)
			if (s->fevents[i].at_ms > until->last_event_ms)
				until->last_event_ms = s->fevents[i].at_ms;
		until->run_to_ms = o && o->run_to_set ? o->run_to_ms : -1;
		obs_on_complete(r->obs, on_complete, until);
		if (until->last_event_ms >= 0)
			des_at(r->world, until->last_event_ms, INT32_MAX, after_last_event, until, NULL);
		if (until->run_to_ms > until->last_event_ms)
			des_at(r->world, until->run_to_ms, INT32_MAX, after_last_event, until, NULL);
	}

	/* The models first: the Job runner and the git remotes the controllers use. */
	r->models = mdl_new(s, r->world, 0);
	/* Dependents whose owners are in none of the inputs are gone before anything lists them. */
	mdl_collect_orphans(r->models);
	/* The controllers start with the objects in place, as informers start with a list. */
	r->mrc = mrc_register(r->world, &(struct mrc_params){ .start_unix_ms = s->start_unix_ms });
	r->mwc = mwc_register(r->world, &(struct mwc_params){
						.anchor_unix_ms = s->start_unix_ms,
						.trial = 0,
						.models = r->models,
						.git_resolve = mdl_git_resolve,
					});
	/* a probe may take a snapshot: StageSet passes keep what they began with */
	r->fleet = fleet_glue_start(r->world, s, 0, o && o->nprobes > 0);
	restore_queues(r->world, s);
	restore_refwatcher(r->mwc, s);

	/* Only events up to the horizon ever fire, all inside des_run below. */
	ctx = xcalloc(1, sizeof(*ctx));
	ctx->s = s;
	for (size_t i = 0; i < s->nevents; i++)
		if (!s->events[i].done) /* a resumed run's past: in the snapshot */
			des_at(r->world, s->events[i].at_ms, DES_PRIO_SCRIPT, fire_event, ctx,
			       (void *)(uintptr_t)i);
	/* After the object events: an apply fires before a model event of its instant. */
	mdl_schedule_events(r->models);
	/* Just before after_last_event (INT32_MAX): everything else of the instant has run. */
	pctx.o = o;
	for (size_t i = 0; o && o->probe && i < o->nprobes; i++)
		des_at(r->world, o->probe_ms[i], INT32_MAX - 1, fire_probe, &pctx,
		       (void *)(uintptr_t)i);

	lim.max_events = scn_event_budget(s);
	if (scn_event_budget_capped(s))
		lim.budget_from = "the objects ask for more, limit run-events caps it; raise it with "
				  "--limit run-events=N";
	lim.max_events_per_ms = s->events_per_instant;
	if (o) {
		lim.tick = o->tick;
		lim.tick_ctx = o->tick_ctx;
	}
	r->stop = des_run(r->world, r->horizon_ms, &lim);
	r->end_ms = r->stop == DES_HORIZON ? r->horizon_ms : des_now(r->world);
	/* The notices about the run as a whole are told at its end, after the timeline. */
	des_set_end(r->world, r->end_ms);
	if (r->stop == DES_STOPPED)
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_INFO,
			      o && o->run_to_set && r->end_ms == o->run_to_ms ?
				      "the change completed: run went on to the time looked at "
				      "(--at, --snapshot) and ended here (--until horizon runs on)" :
				      "the change completed: run ended here (--until horizon runs on)",
			      NULL, 0);
	free(ctx);
	free(until);
	obs_finish(r->obs, r->world);
	end_of_run_hazards(r->world, r->obs);
	mq_end_of_run(r->world, s);
	mpol_end_of_run(r->world);
	mrev_end_of_run(r->world, s);
	mres_end_of_run(r->world, s);
	completed_gate_hazards(r, s);
	fo_finish_run(r->fobs, fleet_glue_frc(r->fleet), fleet_glue_ssrc(r->fleet), r->end_ms);
	fleet_hazards(r, s);
	fq_end_of_run(r);
	fleet_adoption_end_of_run(r);
	fleet_view_ready_end_of_run(r);
	ss_hazards_failure(r, s);
	ss_hazards_holds(r, s);
	ss_hazards_ledgers(r, s);
	ss_hazards_pace(r, s);
	ss_hazards_sources(r, s);
	ss_hazards_deps(r);
	ss_hazards_downgrade(r, s);
	ss_hazards_restarts(r, s);
	ss_hazards_reset(r, s);
	ss_hazards_tokens(r, s);
	ss_hazards_stale(r);
	ss_hazards_lag(r, s);
	oc_summarize(des_timeline(r->world), &r->summary);
	carried_halt(r);
	gate_halt_value(r);
	return 0;
}

void run_snapshot_state(struct val *list, const struct run_result *r, struct des *w,
			const struct scenario *s)
{
	struct val *items = val_map_get(list, "items");
	struct mrev_snap *m = mrev_snap_new(w, s);
	struct mq_snap *mq = mq_snap_new(w, s);

	for (size_t i = 0; items && i < items->u.list.n; i++) {
		const struct val *it = items->u.list.items[i];
		const char *kind = val_str(val_map_get(it, "kind"), "");
		const char *ns = val_str(val_path(it, "metadata.namespace"), "");
		const char *name = val_str(val_path(it, "metadata.name"), "");
		char *seen, *revs = NULL, *quirks = NULL, *text;

		if (!strcmp(kind, "FleetRollout")) {
			seen = fo_state(r->fobs, fleet_glue_frc(r->fleet), fleet_glue_ssrc(r->fleet), name);
			if (seen)
				kg_annotate(list, i, SCN_STATE_PREFIX SCN_OBSERVER_STATE, seen);
			free(seen);
			continue;
		}
		if (strcmp(kind, "Workspace") != 0 && strcmp(kind, "Rollout") != 0)
			continue;
		seen = obs_state(r->obs, kind, ns, name);
		if (!strcmp(kind, "Workspace")) {
			revs = mrev_snap_state(m, ns, name);
			quirks = mq_snap_state(mq, ns, name);
		}
		if (seen || revs || quirks) {
			text = xasprintf("%s%s%s%s%s", seen ? seen : "", seen && revs ? " " : "",
					 revs ? revs : "", (seen || revs) && quirks ? " " : "",
					 quirks ? quirks : "");
			/* replaces the item: @it is stale after this */
			kg_annotate(list, i, SCN_STATE_PREFIX SCN_OBSERVER_STATE, text);
			free(text);
		}
		free(seen);
		free(revs);
		free(quirks);
	}
	mrev_snap_free(m);
	mq_snap_free(mq);
}

void run_result_release(struct run_result *r)
{
	if (!r)
		return;
	obs_free(r->obs);
	fo_free(r->fobs);
	des_free(r->world);
	/* The adapters' and models' state outlives the controllers the world owns. */
	mrc_free(r->mrc);
	mwc_free(r->mwc);
	mdl_free(r->models);
	fleet_glue_free(r->fleet);
	memset(r, 0, sizeof(*r));
}
