#include "sim/wire/magos_rc.h"

#include <stdlib.h>
#include <string.h>

#include "engine/magos_project.h"
#include "engine/magos_rollout.h"
#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/base/gotime.h"
#include "sim/core/timeline.h"

/* client-go retry.DefaultRetry: Steps 5 (the 10 ms waits take no simulated time here). */
#define STATUS_RETRY_STEPS 5

/* The last hazard told per Rollout, so a situation is told once, not every pass. */
struct told {
	char *ns;
	char *name;
	char *text;    /* "" when the Rollout is in no hazardous situation */
	bool no_project; /* told that the Project named by spec.projectRef is missing */
};

struct mrc {
	struct mrc_params p;
	struct ctl *rollout_ctl;
	struct ctl *project_ctl;
	struct api_list list;    /* scratch for the cache lists of reconciles */
	struct api_list maplist; /* scratch for the map functions */
	struct told *told;
	size_t ntold;
};

static void now_text(const struct mrc *m, int64_t now_ms, char *buf, size_t len)
{
	gt_format_rfc3339(m->p.start_unix_ms + now_ms, buf, len);
}

/* The cache List of Workspaces in @ns, in list order. */
static size_t list_workspaces(struct mrc *m, struct des *w, const char *ns)
{
	return api_list(des_api(w), "Workspace", ns, NULL, NULL, &m->list);
}

/*
 * Re-read a Workspace and Update it with execution-allowed set ("true") or
 * deleted (@value NULL).  A Workspace gone from the cache is skipped and an
 * Update error is ignored, as upstream only logs both.
 */
static void set_permission(struct api *api, const char *ns, const char *name, const char *value)
{
	const struct obj *cur = api_get(api, "Workspace", ns, name);
	struct obj *o;

	if (!cur)
		return;
	o = obj_copy(cur); /* keeps the resourceVersion: a real, conditional PUT */
	if (value)
		obj_strmap_set(&o->annotations, MR_ANN_EXECUTION_ALLOWED, value);
	else
		obj_strmap_del(&o->annotations, MR_ANN_EXECUTION_ALLOWED);
	(void)api_update(api, o);
}

/*
 * updateStatus: re-read the latest version, decide, PUT /status with its
 * resourceVersion; on Conflict try again (@attempts in all).  Errors are
 * only logged upstream, so nothing is returned.
 */
static void write_status(struct api *api, const char *kind, const char *ns, const char *name,
			 const struct mr_status_intent *want, bool with_current_step,
			 const char *now, int attempts)
{
	for (int i = 0; i < attempts; i++) {
		const struct obj *latest = api_get(api, kind, ns, name);
		struct val *st;
		struct obj *o;

		if (!latest)
			return;
		st = mr_update_status(latest, want, with_current_step, now);
		if (!st)
			return;
		o = obj_new(latest->api_version, kind, ns, name);
		o->status = st;
		o->resource_version = latest->resource_version;
		if (api_update_status(api, o) != API_ECONFLICT)
			return;
	}
}

static struct told *told_for(struct mrc *m, const char *ns, const char *name)
{
	struct told *t;

	for (size_t i = 0; i < m->ntold; i++)
		if (strcmp(m->told[i].ns, ns) == 0 && strcmp(m->told[i].name, name) == 0)
			return &m->told[i];
	m->told = xreallocarray(m->told, m->ntold + 1, sizeof(*m->told));
	t = &m->told[m->ntold++];
	t->ns = xstrdup(ns);
	t->name = xstrdup(name);
	t->text = xstrdup("");
	t->no_project = false;
	return t;
}

/* Tell the hazard of this pass, if any, when it differs from the last one told. */
static void tell_hazard(struct mrc *m, struct des *w, const char *ns, const char *name,
			const struct mr_result *r)
{
	struct told *t = told_for(m, ns, name);
	struct tl_objref ref = { "Rollout", ns, name, 0 };
	char *text = NULL, *names;

	switch (r->outcome) {
	case MR_OUT_NO_WORKSPACES_FOUND:
		text = xasprintf("Rollout %s/%s: %s (currentStep %lld): every step must match at "
				 "least one Workspace of the project, so the whole Rollout freezes "
				 "(no grants, no revokes, completion hidden) until one does",
				 ns, name, r->want.message, (long long)r->want.current_step);
		break;
	case MR_OUT_RECONCILE_ERROR:
		text = xasprintf("Rollout %s/%s: a step selector is invalid: %s; the Rollout "
				 "grants nothing and the controller retries with back-off until the "
				 "Rollout is fixed",
				 ns, name, r->error);
		break;
	case MR_OUT_LEVEL_PROGRESSING:
		if (!r->noverlapping)
			break;
		names = xstrjoin((const char *const *)r->overlapping, r->noverlapping, ", ");
		text = xasprintf("Rollout %s/%s: Workspace(s) %s belong to the current level "
				 "[%s] and to another level (overlapping step selectors): they are "
				 "granted in one pass and revoked in the next while pending",
				 ns, name, names, r->levels[r->current_level].names);
		free(names);
		break;
	default:
		break;
	}
	if (!text)
		text = xstrdup("");
	if (strcmp(text, t->text) != 0) {
		if (text[0])
			tl_notice_add(des_timeline(w), des_now(w),
				      r->outcome == MR_OUT_RECONCILE_ERROR ? TL_ERROR : TL_WARNING,
				      text, &ref, 1);
		free(t->text);
		t->text = text;
	} else {
		free(text);
	}
}

/*
 * The Rollout never reads its Project (§2.1): a projectRef naming no Project
 * still orchestrates the Workspaces that name it, but nothing else knows.
 * Told once per appearance of the situation.
 */
static void tell_missing_project(struct mrc *m, struct des *w, const char *ns, const char *name)
{
	struct api *api = des_api(w);
	const struct obj *ro = api_get(api, "Rollout", ns, name);
	const char *project = ro ? val_str(val_map_get(ro->spec, "projectRef"), "") : "";
	struct told *t = told_for(m, ns, name);
	bool missing = ro && !api_get(api, "Project", ns, project);
	struct tl_objref ref = { "Rollout", ns, name, 0 };
	char *text;

	if (missing && !t->no_project) {
		text = xasprintf("Rollout %s/%s: spec.projectRef names Project %s, which does not "
				 "exist; the Rollout does not check and still orchestrates the "
				 "Workspaces whose projectRef is %s",
				 ns, name, project, project);
		tl_notice_add(des_timeline(w), des_now(w), TL_WARNING, text, &ref, 1);
		free(text);
	}
	t->no_project = missing;
}

/* RC:Reconcile */
static struct ctl_result reconcile_rollout(void *ctx, struct des *w, const char *ns,
					   const char *name, int64_t now_ms)
{
	struct mrc *m = ctx;
	struct api *api = des_api(w);
	const struct obj *ro = api_get(api, "Rollout", ns, name);
	struct ctl_result res = { 0, false, 0 };
	struct mr_result r;
	char now[GT_RFC3339_BUFSZ];
	size_t n;

	if (!ro)
		return res;
	now_text(m, now_ms, now, sizeof(now));
	n = list_workspaces(m, w, ns);
	if (mr_reconcile_rollout(ro, m->list.items, n, now, &r) != MR_OK)
		res.err = -1;
	/* ro and the listed objects may go stale from the first write on: use r only */
	for (size_t i = 0; i < r.ngrant; i++)
		set_permission(api, ns, r.grant[i], MR_VALUE_TRUE);
	for (size_t i = 0; i < r.nrevoke; i++)
		set_permission(api, ns, r.revoke[i], NULL);
	if (r.has_status)
		write_status(api, "Rollout", ns, name, &r.want, true, now, STATUS_RETRY_STEPS);
	if (r.outcome != MR_OUT_NONE) {
		tell_hazard(m, w, ns, name, &r);
		tell_missing_project(m, w, ns, name);
	}
	mr_result_release(&r);
	return res;
}

/* PC:Reconcile */
static struct ctl_result reconcile_project(void *ctx, struct des *w, const char *ns,
					   const char *name, int64_t now_ms)
{
	struct mrc *m = ctx;
	struct api *api = des_api(w);
	const struct obj *pr = api_get(api, "Project", ns, name);
	const struct obj *ro;
	struct ctl_result res = { 0, false, 0 };
	struct mp_result r;
	char now[GT_RFC3339_BUFSZ];
	struct obj *o;
	size_t n;

	if (!pr)
		return res;
	now_text(m, now_ms, now, sizeof(now));
	ro = api_get(api, "Rollout", ns, name);
	n = list_workspaces(m, w, ns);
	mp_reconcile_project(pr, ro, m->list.items, n, now, &r);
	switch (r.outcome) {
	case MP_OUT_NONE:
	case MP_OUT_RECONCILE_ERROR:
		break;
	case MP_OUT_ADD_FINALIZER:
		o = obj_copy(pr);
		obj_add_finalizer(o, MP_FINALIZER);
		if (api_update(api, o) != 0)
			res.err = -1;
		break;
	case MP_OUT_DELETING:
		write_status(api, "Project", ns, name, &r.want, false, now, 1);
		pr = api_get(api, "Project", ns, name);
		if (!pr) {
			res.err = -1; /* the Update would answer NotFound */
			break;
		}
		o = obj_copy(pr);
		obj_remove_finalizer(o, MP_FINALIZER);
		if (api_update(api, o) != 0)
			res.err = -1;
		break;
	case MP_OUT_MANAGED_BY_ROLLOUT:
	case MP_OUT_DEFAULT_PARALLEL:
		write_status(api, "Project", ns, name, &r.want, false, now, 1);
		for (size_t i = 0; i < r.ngrant; i++)
			set_permission(api, ns, r.grant[i], MR_VALUE_TRUE);
		break;
	}
	mp_result_release(&r);
	return res;
}

static bool rollout_of_project(const struct obj *o, void *ctx)
{
	return strcmp(val_str(val_map_get(o->spec, "projectRef"), ""), (const char *)ctx) == 0;
}

/* RC:findRolloutsForWorkspace */
static void find_rollouts_for_workspace(void *ctx, struct des *w, const struct obj *o,
					struct ctl_keys *out)
{
	struct mrc *m = ctx;
	const char *project = val_str(val_path(o->spec, "projectRef.name"), "");
	size_t n = api_list(des_api(w), "Rollout", o->ns, rollout_of_project, (void *)project,
			    &m->maplist);

	for (size_t i = 0; i < n; i++)
		ctl_keys_add(out, m->maplist.items[i]->ns, m->maplist.items[i]->name);
}

/* PC:findProjectsForWorkspace */
static void find_projects_for_workspace(void *ctx, struct des *w, const struct obj *o,
					struct ctl_keys *out)
{
	const char *project = val_str(val_path(o->spec, "projectRef.name"), "");

	(void)ctx;
	(void)w;
	/* admission requires a non-empty projectRef.name (minLength 1) */
	if (project[0])
		ctl_keys_add(out, o->ns, project);
}

/* PC:findProjectsForRollout */
static void find_projects_for_rollout(void *ctx, struct des *w, const struct obj *o,
				      struct ctl_keys *out)
{
	(void)ctx;
	(void)w;
	ctl_keys_add(out, o->ns, o->name);
}

struct mrc *mrc_register(struct des *w, const struct mrc_params *p)
{
	struct mrc *m = xcalloc(1, sizeof(*m));

	m->p = *p;
	api_list_init(&m->list);
	api_list_init(&m->maplist);

	/* RC:SetupWithManager */
	m->rollout_ctl = ctl_new(w, MRC_ROLLOUT_CONTROLLER, reconcile_rollout, m);
	ctl_for(m->rollout_ctl, "Rollout", NULL, NULL);
	ctl_watches(m->rollout_ctl, "Workspace", find_rollouts_for_workspace, m,
		    ctl_pred_rv_changed, NULL);

	/* PC:SetupWithManager */
	m->project_ctl = ctl_new(w, MRC_PROJECT_CONTROLLER, reconcile_project, m);
	ctl_for(m->project_ctl, "Project", NULL, NULL);
	ctl_watches(m->project_ctl, "Workspace", find_projects_for_workspace, m,
		    ctl_pred_rv_changed, NULL);
	ctl_watches(m->project_ctl, "Rollout", find_projects_for_rollout, m, ctl_pred_rv_changed,
		    NULL);
	return m;
}

void mrc_free(struct mrc *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ntold; i++) {
		free(m->told[i].ns);
		free(m->told[i].name);
		free(m->told[i].text);
	}
	free(m->told);
	api_list_release(&m->list);
	api_list_release(&m->maplist);
	free(m);
}

struct ctl *mrc_rollout_ctl(const struct mrc *m)
{
	return m->rollout_ctl;
}

struct ctl *mrc_project_ctl(const struct mrc *m)
{
	return m->project_ctl;
}
