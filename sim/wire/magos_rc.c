#include "sim/wire/magos_rc.h"

#include <stdlib.h>
#include <string.h>

#include "engine/magos_project.h"
#include "engine/magos_rollout.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"

/* client-go retry.DefaultRetry: Steps 5 (the 10 ms waits take no simulated time here). */
#define STATUS_RETRY_STEPS 5

/*
 * Per Rollout: the last hazard told, so a situation is told once, not
 * every pass; and the plan of its passes (engine/magos_rollout.h mr_plan),
 * valid while the Rollout's (uid, generation), its group and the group's
 * epoch are those it was built for.
 */
struct told {
	char *ns;
	char *name;
	char *text;    /* "" when the Rollout is in no hazardous situation */
	bool no_project; /* told that the Project named by spec.projectRef is missing */
	struct mr_plan *plan;
	char *uid;
	int64_t generation;
	size_t group;
	uint64_t group_epoch;
};

/*
 * The Workspaces one (namespace, projectRef) pair names: the members a
 * Project of that name and every Rollout with that spec.projectRef look
 * at.  @epoch changes whenever the set or a member's labels change (every
 * plan and tally built on the group is then stale).
 */
struct group {
	size_t *pos;   /* List positions, ascending */
	size_t n, cap;
	uint64_t epoch;
	size_t *plans; /* Rollouts (index into told) whose plan is on this group */
	size_t nplans, capplans;
	struct mp_tally *tally; /* the Project's, or NULL */
	uint64_t tally_epoch;
};

/*
 * The Workspace List as the last refresh saw it, per position: the object
 * and its resourceVersion (a store-wide counter, so the pair names one
 * state), its group and its label set (interned ids), from which a change
 * is told apart from one that moves plans.
 */
struct view {
	const struct obj **ptr;
	uint64_t *rv;
	size_t *group;
	size_t *lset;
	size_t n;
	bool valid;
	uint64_t shape;
	uint64_t at_rv;
};

struct mrc {
	struct mrc_params p;
	struct ctl *rollout_ctl;
	struct ctl *project_ctl;
	struct api_list list;    /* scratch for full Lists */
	struct api_list maplist; /* scratch for the map functions */
	struct api_changes changes; /* scratch of a refresh */
	struct told *told;
	size_t ntold;
	struct strindex told_idx;  /* "ns/name" -> index into told */
	struct group *groups;
	size_t ngroups;
	struct strindex group_idx; /* "ns/projectRef" -> index into groups */
	struct strindex lset_idx;  /* label set key -> id */
	struct view view;
	uint64_t epoch;            /* source of group epochs: each bump draws a new one */
};

static void now_text(const struct mrc *m, int64_t now_ms, char *buf, size_t len)
{
	gt_format_rfc3339(m->p.start_unix_ms + now_ms, buf, len);
}

/* ---- the Workspace List, kept from the store's change log ---- */

/* The id of the (namespace, projectRef) group, made on first use. */
static size_t group_id(struct mrc *m, const char *ns, const char *project)
{
	size_t len = strlen(ns) + strlen(project) + 64, id;
	char buf[256], *k = len <= sizeof(buf) ? buf : xmalloc(len);

	*kb_field(kb_field(k, ns), project) = '\0';
	if (!si_get(&m->group_idx, k, &id)) {
		id = m->ngroups++;
		m->groups = xreallocarray(m->groups, m->ngroups, sizeof(*m->groups));
		memset(&m->groups[id], 0, sizeof(m->groups[id]));
		m->groups[id].epoch = ++m->epoch;
		si_put(&m->group_idx, k, id);
	}
	if (k != buf)
		free(k);
	return id;
}

static const char *ws_project(const struct obj *o)
{
	return val_str(val_path(o->spec, "projectRef.name"), "");
}

/* The id of @o's label set (keys and values), made on first use. */
static size_t lset_id(struct mrc *m, const struct obj *o)
{
	size_t len = 16, id;
	char buf[512], *k, *p;

	for (size_t i = 0; i < o->labels.n; i++)
		len += strlen(o->labels.items[i].key) + strlen(o->labels.items[i].value) + 48;
	k = len <= sizeof(buf) ? buf : xmalloc(len);
	p = k;
	for (size_t i = 0; i < o->labels.n; i++)
		p = kb_field(kb_field(p, o->labels.items[i].key), o->labels.items[i].value);
	*p = '\0';
	if (!si_get(&m->lset_idx, k, &id)) {
		id = m->lset_idx.n;
		si_put(&m->lset_idx, k, id);
	}
	if (k != buf)
		free(k);
	return id;
}

static void group_touch(struct mrc *m, size_t g)
{
	m->groups[g].epoch = ++m->epoch;
}

static void group_insert(struct group *g, size_t pos)
{
	size_t at = g->n;

	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 8;
		g->pos = xreallocarray(g->pos, g->cap, sizeof(*g->pos));
	}
	while (at > 0 && g->pos[at - 1] > pos)
		at--;
	memmove(&g->pos[at + 1], &g->pos[at], (g->n - at) * sizeof(*g->pos));
	g->pos[at] = pos;
	g->n++;
}

static void group_remove(struct group *g, size_t pos)
{
	for (size_t i = 0; i < g->n; i++) {
		if (g->pos[i] != pos)
			continue;
		memmove(&g->pos[i], &g->pos[i + 1], (g->n - i - 1) * sizeof(*g->pos));
		g->n--;
		return;
	}
}

/*
 * Position @i of the view now holds @o.  A change of group or labels makes
 * the groups involved stale; any other change (status, annotations) is
 * told to the plans and the tally of its group.
 */
static void view_put(struct mrc *m, size_t i, const struct obj *o)
{
	struct view *v = &m->view;
	size_t g, l;

	if (v->ptr[i] == o && v->rv[i] == o->resource_version)
		return;
	g = group_id(m, o->ns, ws_project(o));
	l = lset_id(m, o);
	if (g != v->group[i]) {
		group_remove(&m->groups[v->group[i]], i);
		group_touch(m, v->group[i]);
		group_insert(&m->groups[g], i);
		group_touch(m, g);
	} else if (l != v->lset[i]) {
		group_touch(m, g);
	} else {
		struct group *gr = &m->groups[g];

		for (size_t k = 0; k < gr->nplans; k++)
			mr_plan_update(m->told[gr->plans[k]].plan, i, o);
		if (gr->tally)
			mp_tally_update(gr->tally, i, o);
	}
	v->ptr[i] = o;
	v->rv[i] = o->resource_version;
	v->group[i] = g;
	v->lset[i] = l;
}

/*
 * Bring the view up to the store's Workspace List: from the change log
 * when it reaches back to the last refresh and no Workspace was created or
 * removed since (O(changes)), else from a full List, after which every
 * group is stale.  The store is read at the pass, not when watch events
 * arrive: they come after the API latency, and a pass in between sees the
 * store already changed.
 */
static void view_refresh(struct mrc *m, struct api *api)
{
	struct view *v = &m->view;
	uint64_t shape = api_kind_shape(api, "Workspace");
	size_t n;

	if (v->valid && shape == v->shape &&
	    api_changes_since(api, "Workspace", v->at_rv, &m->changes) == 0) {
		for (size_t c = 0; c < m->changes.n; c++)
			view_put(m, m->changes.pos[c], m->changes.items[c]);
		goto out_mark;
	}
	n = api_list(api, "Workspace", NULL, NULL, NULL, &m->list);
	v->ptr = xreallocarray(v->ptr, n ? n : 1, sizeof(*v->ptr));
	v->rv = xreallocarray(v->rv, n ? n : 1, sizeof(*v->rv));
	v->group = xreallocarray(v->group, n ? n : 1, sizeof(*v->group));
	v->lset = xreallocarray(v->lset, n ? n : 1, sizeof(*v->lset));
	v->n = n;
	for (size_t g = 0; g < m->ngroups; g++) {
		m->groups[g].n = 0;
		m->groups[g].nplans = 0;
		group_touch(m, g);
	}
	for (size_t i = 0; i < n; i++) {
		const struct obj *o = m->list.items[i];
		size_t g = group_id(m, o->ns, ws_project(o));

		v->ptr[i] = o;
		v->rv[i] = o->resource_version;
		v->group[i] = g;
		v->lset[i] = lset_id(m, o);
		group_insert(&m->groups[g], i); /* ascending: appends */
		group_touch(m, g);
	}
out_mark:
	v->valid = true;
	v->shape = shape;
	v->at_rv = api_resource_version(api);
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
	size_t len = strlen(ns) + strlen(name) + 64, i;
	char buf[256], *k = len <= sizeof(buf) ? buf : xmalloc(len);
	struct told *t;

	*kb_field(kb_field(k, ns), name) = '\0';
	if (si_get(&m->told_idx, k, &i)) {
		t = &m->told[i];
	} else {
		i = m->ntold++;
		m->told = xreallocarray(m->told, m->ntold, sizeof(*m->told));
		t = &m->told[i];
		memset(t, 0, sizeof(*t));
		t->ns = xstrdup(ns);
		t->name = xstrdup(name);
		t->text = xstrdup("");
		si_put(&m->told_idx, k, i);
	}
	if (k != buf)
		free(k);
	return t;
}

/* Forget @t's plan (and its place in its group's list). */
static void plan_drop(struct mrc *m, struct told *t)
{
	struct group *g;
	size_t self = (size_t)(t - m->told);

	if (!t->plan)
		return;
	g = &m->groups[t->group];
	for (size_t k = 0; k < g->nplans; k++) {
		if (g->plans[k] != self)
			continue;
		g->plans[k] = g->plans[--g->nplans];
		break;
	}
	mr_plan_free(t->plan);
	t->plan = NULL;
	free(t->uid);
	t->uid = NULL;
}

/* @t's plan for Rollout @ro (not being deleted) over the current view, rebuilt when stale. */
static struct mr_plan *plan_for(struct mrc *m, struct told *t, const struct obj *ro)
{
	size_t g = group_id(m, ro->ns, val_str(val_map_get(ro->spec, "projectRef"), ""));
	struct group *gr;

	if (t->plan && t->group == g && t->group_epoch == m->groups[g].epoch &&
	    t->generation == ro->generation && strcmp(t->uid, ro->uid) == 0)
		return t->plan;
	plan_drop(m, t);
	gr = &m->groups[g];
	t->plan = mr_plan_new(ro, m->view.ptr, m->view.n, gr->pos, gr->n);
	t->uid = xstrdup(ro->uid);
	t->generation = ro->generation;
	t->group = g;
	t->group_epoch = gr->epoch;
	if (gr->nplans == gr->capplans) {
		gr->capplans = gr->capplans ? gr->capplans * 2 : 2;
		gr->plans = xreallocarray(gr->plans, gr->capplans, sizeof(*gr->plans));
	}
	gr->plans[gr->nplans++] = (size_t)(t - m->told);
	return t->plan;
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
	struct ctl_result res = { 0 };
	struct mr_result r;
	char now[GT_RFC3339_BUFSZ];
	struct mr_plan *plan = NULL;
	struct told *t;

	if (!ro)
		return res;
	now_text(m, now_ms, now, sizeof(now));
	view_refresh(m, api);
	t = told_for(m, ns, name);
	if (ro->deletion_ms < 0)
		plan = plan_for(m, t, ro);
	if (mr_reconcile_rollout_plan(ro, plan, m->view.ptr, now, &r) != MR_OK)
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

/*
 * The tally of Project @pr's members over the current view (rebuilt when
 * its group is stale); NULL when a pass of @pr would not read it.
 */
static const struct mp_tally *project_tally(struct mrc *m, struct api *api, const struct obj *pr)
{
	struct group *g;
	size_t id;

	if (!obj_has_finalizer(pr, MP_FINALIZER) || pr->deletion_ms >= 0)
		return NULL;
	view_refresh(m, api);
	id = group_id(m, pr->ns, pr->name);
	g = &m->groups[id];
	if (!g->tally || g->tally_epoch != g->epoch) {
		mp_tally_free(g->tally);
		g->tally = mp_tally_new(m->view.ptr, g->pos, g->n);
		g->tally_epoch = g->epoch;
	}
	return g->tally;
}

/* PC:Reconcile */
static struct ctl_result reconcile_project(void *ctx, struct des *w, const char *ns,
					   const char *name, int64_t now_ms)
{
	struct mrc *m = ctx;
	struct api *api = des_api(w);
	const struct obj *pr = api_get(api, "Project", ns, name);
	const struct obj *ro;
	struct ctl_result res = { 0 };
	struct mp_result r;
	char now[GT_RFC3339_BUFSZ];
	const struct mp_tally *tally;
	struct obj *o;

	if (!pr)
		return res;
	now_text(m, now_ms, now, sizeof(now));
	ro = api_get(api, "Rollout", ns, name);
	tally = project_tally(m, api, pr); /* refreshes the view first */
	mp_reconcile_project_tally(pr, ro, tally, m->view.ptr, now, &r);
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
	api_changes_init(&m->changes);

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
		mr_plan_free(m->told[i].plan);
		free(m->told[i].uid);
	}
	free(m->told);
	si_release(&m->told_idx);
	for (size_t g = 0; g < m->ngroups; g++) {
		free(m->groups[g].pos);
		free(m->groups[g].plans);
		mp_tally_free(m->groups[g].tally);
	}
	free(m->groups);
	si_release(&m->group_idx);
	si_release(&m->lset_idx);
	free(m->view.ptr);
	free(m->view.rv);
	free(m->view.group);
	free(m->view.lset);
	api_changes_release(&m->changes);
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
