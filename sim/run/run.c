#include "sim/run/run.h"

#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/xalloc.h"
#include "sim/cluster/admission.h"
#include "sim/cluster/apiserver.h"
#include "sim/base/diag.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint.h"

/* What a scheduled scripted event needs when it fires. */
struct ev_ctx {
	const struct scenario *s;
	size_t index; /* into s->events */
};

static void event_failed(struct des *w, const struct scn_event *ev, size_t index, const char *why)
{
	char at[32];
	char *text;
	struct tl_objref ref = { ev->target.kind, ev->target.ns, ev->target.name, 0 };

	gt_format_duration(ev->at_ms, at, sizeof(at));
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
		val_map_add(v, m->items[i].key, val_new_string(m->items[i].value));
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
};

static void on_complete(void *ctx)
{
	struct until *u = ctx;

	if (des_now(u->w) >= u->last_event_ms)
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
		event_failed(w, ev, index, why ? why : api_strerror(rc));
	free(why);
}

static void hazard(struct des *w, const struct obj *about, const char *text)
{
	struct tl_objref ref = { about->kind, about->ns, about->name, 0 };

	tl_notice_add(des_timeline(w), des_now(w), TL_WARNING, text, &ref, 1);
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
 * What the run ended on that a reader would otherwise not see: a Rollout
 * without steps, Workspaces no step selects or nothing grants, a plan waiting
 * for an approval nobody gives.  Spec §7 #3, #15; the engines behave as
 * upstream, these only say so.
 */
static void end_of_run_hazards(struct des *w)
{
	struct api *api = des_api(w);
	struct api_list ro, ws;

	api_list_init(&ro);
	api_list_init(&ws);
	api_list(api, "Rollout", NULL, NULL, NULL, &ro);
	for (size_t i = 0; i < ro.n; i++) {
		const struct obj *r = ro.items[i];
		const char *project = val_str(val_map_get(r->spec, "projectRef"), "");
		const struct val *steps = val_path(r->spec, "strategy.steps");
		size_t nsteps = steps && steps->type == VAL_LIST ? steps->u.list.n : 0;
		bool *pick, all_valid;
		size_t count;
		char *names, *text;

		api_list(api, "Workspace", r->ns, NULL, NULL, &ws);
		if (nsteps == 0) {
			text = xasprintf("Rollout %s/%s has no steps: it reports Ready/NoSteps and grants "
					 "nothing, and its Project defers to it, so no Workspace of project "
					 "%s runs",
					 r->ns, r->name, project);
			hazard(w, r, text);
			free(text);
			continue;
		}
		pick = xcalloc(ws.n ? ws.n : 1, sizeof(*pick));
		/* the rule of lint's MS105, so that lint and a run agree */
		all_valid = lint_unselected_workspaces(steps, project, ws.items, ws.n, pick);
		names = names_of(ws.items, pick, ws.n, &count);
		if (count && all_valid) {
			text = xasprintf("%zu Workspace%s of project %s %s selected by no step of Rollout "
					 "%s/%s and never granted: %s",
					 count, count == 1 ? "" : "s", project, count == 1 ? "is" : "are",
					 r->ns, r->name, names);
			hazard(w, r, text);
			free(text);
		}
		free(names);
		free(pick);
	}
	api_list(api, "Workspace", NULL, NULL, NULL, &ws);
	for (size_t k = 0; k < ws.n; k++) {
		const struct obj *o = ws.items[k];
		const char *phase = val_str(val_map_get(o->status, "phase"), "");
		const char *approved = obj_strmap_get(&o->annotations, "magosproject.io/approved");
		const char *project = val_str(val_path(o->spec, "projectRef.name"), "");
		char *text = NULL;

		if (!strcmp(phase, "Planned") && !val_bool(val_map_get(o->spec, "autoApply"), true) &&
		    !(approved && !strcmp(approved, "true")))
			text = xasprintf("Workspace %s/%s ended Planned: autoApply is false and it waits "
					 "for magosproject.io/approved: \"true\", which nobody gave",
					 o->ns, o->name);
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
	api_list_release(&ws);
	api_list_release(&ro);
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
	r->obs = obs_new(r->world, p.api_latency_ms);
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
		obs_on_complete(r->obs, on_complete, until);
		if (until->last_event_ms >= 0)
			des_at(r->world, until->last_event_ms, INT32_MAX, after_last_event, until, NULL);
	}

	/* The models first: the Job runner and the git remotes the controllers use. */
	r->models = mdl_new(s, r->world, 0);
	/* The controllers start with the objects in place, as informers start with a list. */
	r->mrc = mrc_register(r->world, &(struct mrc_params){ .start_unix_ms = s->start_unix_ms });
	r->mwc = mwc_register(r->world, &(struct mwc_params){
						.anchor_unix_ms = s->start_unix_ms,
						.trial = 0,
						.models = r->models,
						.git_resolve = mdl_git_resolve,
					});
	r->fleet = fleet_glue_start(r->world, s, 0);

	/* Only events up to the horizon ever fire, all inside des_run below. */
	ctx = xcalloc(1, sizeof(*ctx));
	ctx->s = s;
	for (size_t i = 0; i < s->nevents; i++)
		des_at(r->world, s->events[i].at_ms, DES_PRIO_SCRIPT, fire_event, ctx,
		       (void *)(uintptr_t)i);
	/* After the object events: an apply fires before a model event of its instant. */
	mdl_schedule_events(r->models);
	/* Just before after_last_event (INT32_MAX): everything else of the instant has run. */
	pctx.o = o;
	for (size_t i = 0; o && o->probe && i < o->nprobes; i++)
		des_at(r->world, o->probe_ms[i], INT32_MAX - 1, fire_probe, &pctx,
		       (void *)(uintptr_t)i);

	lim.max_events = s->event_budget;
	lim.max_events_per_ms = s->events_per_instant;
	if (o) {
		lim.tick = o->tick;
		lim.tick_ctx = o->tick_ctx;
	}
	r->stop = des_run(r->world, r->horizon_ms, &lim);
	r->end_ms = r->stop == DES_HORIZON ? r->horizon_ms : des_now(r->world);
	if (r->stop == DES_STOPPED)
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_INFO,
			      "the change completed: run ended here (--until horizon runs on)", NULL,
			      0);
	free(ctx);
	free(until);
	end_of_run_hazards(r->world);
	obs_finish(r->obs, r->world);
	fo_finish_run(r->fobs, fleet_glue_frc(r->fleet), fleet_glue_ssm(r->fleet), r->end_ms);
	oc_summarize(des_timeline(r->world), &r->summary);
	return 0;
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
