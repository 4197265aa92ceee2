/*
 * The Magos rules of lint (MS1xx): hazards of a Rollout's steps over the
 * Workspaces of its project, and of the Workspaces themselves, decided the
 * way the controllers decide them (spec magos-controllers.md §2.2-§2.7, §4.4,
 * §4.8, §7 #1, #3, #4, #19): the same label-selector code (engine/labels.h)
 * and the same duration parser (sim/base/gotime.h) as the simulated controllers,
 * so that lint and a run agree on what a step selects.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/magos_rollout.h"
#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint.h"
#include "sim/load/yamlload.h"

#define MAGOS_GROUP "magosproject.io/"
/* Names listed in one message before "…". */
#define MAX_NAMES 5

static bool is_magos(const struct obj *o, const char *kind)
{
	return strcmp(o->kind, kind) == 0 && strncmp(o->api_version, MAGOS_GROUP, 16) == 0;
}

/*
 * The Magos objects lint looks at: the inputs' and those of `apply` events,
 * an applied object replacing the one of the same kind, namespace and name
 * before it (lint looks at the cluster as the manifests describe it, as the
 * FleetRollout rules do).  Objects are borrowed, in input order, then the
 * events' in event order.
 */
struct view {
	const struct obj **objs; /* owned array */
	size_t n;
};

static void view_init(struct view *v, const struct scenario *s)
{
	const struct obj **applied = xcalloc(s->nevents ? s->nevents : 1, sizeof(*applied));
	size_t napplied = 0;

	for (size_t i = 0; i < s->nevents; i++) {
		const struct obj *o = s->events[i].obj;

		if (s->events[i].type == SCN_EV_APPLY && o && o->kind &&
		    strncmp(o->api_version, MAGOS_GROUP, 16) == 0)
			applied[napplied++] = o;
	}
	v->objs = xcalloc(s->nobjs + napplied + 1, sizeof(*v->objs));
	v->n = 0;
	/* input keys are unique (struct scenario): only a later apply can replace one */
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];
		bool replaced = false;

		if (strncmp(o->api_version, MAGOS_GROUP, 16) != 0)
			continue;
		for (size_t j = 0; j < napplied && !replaced; j++)
			replaced = obj_cmp_key(o, applied[j]) == 0;
		if (!replaced)
			v->objs[v->n++] = o;
	}
	for (size_t i = 0; i < napplied; i++) {
		bool replaced = false;

		for (size_t j = i + 1; j < napplied && !replaced; j++)
			replaced = obj_cmp_key(applied[i], applied[j]) == 0;
		if (!replaced)
			v->objs[v->n++] = applied[i];
	}
	free(applied);
}

static void view_release(struct view *v)
{
	free(v->objs);
}

static const char *ws_project(const struct obj *ws)
{
	return val_str(val_path(ws->spec, "projectRef.name"), "");
}

/* The mark of @v, else @fallback. */
static struct val_mark mark_of(const struct val *v, struct val_mark fallback)
{
	return v && v->mark.line ? v->mark : fallback;
}

/* ---- annotation marks --------------------------------------------------------
 * An object keeps its annotations as a plain string map, without marks.  To
 * point a finding at the annotation itself, the object's file is read again
 * and the object found by the mark it was read at.  Files are read at most
 * once per lint_magos() call.
 */
struct reread {
	struct yl_stream *streams; /* owned */
	size_t n;
};

static const struct yl_stream *stream_of(struct reread *rr, const char *file)
{
	struct yl_stream *st;
	struct yl_budget bg;
	struct diag d;

	for (size_t i = 0; i < rr->n; i++)
		if (strcmp(rr->streams[i].file, file) == 0)
			return &rr->streams[i];
	rr->streams = xreallocarray(rr->streams, rr->n + 1, sizeof(*rr->streams));
	st = &rr->streams[rr->n++];
	diag_init(&d);
	/*
	 * The loader read this file already, within the limits the user set;
	 * problems were reported then, so no bound applies here.
	 */
	yl_budget_init(&bg, NULL);
	bg.max_bytes = bg.max_documents = bg.max_alias_nodes = UINT64_MAX;
	(void)yl_load_file_in(file, &bg, st, &d);
	if (!st->file)
		st->file = xstrdup(file);
	diag_release(&d);
	return st;
}

static void reread_release(struct reread *rr)
{
	for (size_t i = 0; i < rr->n; i++)
		yl_stream_release(&rr->streams[i]);
	free(rr->streams);
}

/* The map below @v (itself included) that starts at @m, or NULL. */
static const struct val *map_at(const struct val *v, struct val_mark m)
{
	const struct val *found = NULL;

	if (!v)
		return NULL;
	if (v->type == VAL_MAP) {
		if (v->mark.line == m.line && v->mark.col == m.col)
			return v;
		for (size_t i = 0; !found && i < v->u.map.n; i++)
			found = map_at(v->u.map.items[i].v, m);
	} else if (v->type == VAL_LIST) {
		for (size_t i = 0; !found && i < v->u.list.n; i++)
			found = map_at(v->u.list.items[i], m);
	}
	return found;
}

/*
 * The map read at @m: a document root, an item of a `kind: List`, or an
 * object applied by an event of the Scenario document.
 */
static const struct val *node_at(const struct yl_stream *st, struct val_mark m)
{
	const struct val *found = NULL;

	for (size_t i = 0; !found && i < st->n; i++)
		found = map_at(st->docs[i].root, m);
	return found;
}

/* Where the value of annotation @key of @o is written, else where @o starts. */
static struct val_mark annotation_mark(struct reread *rr, const struct obj *o, const char *key)
{
	const struct yl_stream *st;
	const struct val *node, *v;

	if (!o->src.file || !o->src.mark.line)
		return o->src.mark;
	st = stream_of(rr, o->src.file);
	node = node_at(st, o->src.mark);
	v = val_map_get(val_path(node, "metadata.annotations"), key);
	return mark_of(v, o->src.mark);
}

/* ---- helpers ----------------------------------------------------------------- */

/* "a, b, c" of the picked names, at most MAX_NAMES then ", …".  New string. */
static char *names_of(const struct obj *const *ws, const bool *pick, size_t n)
{
	char *out = xstrdup("");
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char *next;

		if (!pick[i])
			continue;
		if (k < MAX_NAMES)
			next = xasprintf("%s%s%s", out, k ? ", " : "", ws[i]->name);
		else if (k == MAX_NAMES)
			next = xasprintf("%s, …", out);
		else
			next = NULL;
		if (next) {
			free(out);
			out = next;
		}
		k++;
	}
	return out;
}

/* A selector as the controller prints it, "{}" for the empty one.  New string. */
static char *selector_text(const struct lbl_selector *sel)
{
	char *s = lbl_selector_string(sel);

	if (!s[0]) {
		free(s);
		s = xstrdup("{}");
	}
	return s;
}

static int cmp_by_name(const void *pa, const void *pb)
{
	const struct obj *a = *(const struct obj *const *)pa, *b = *(const struct obj *const *)pb;

	return strcmp(a->name, b->name);
}

/* One step as lint sees it. */
struct step {
	const struct val *node;     /* the step map */
	const char *name;           /* steps[i].name, "" when absent */
	struct val_mark mark;       /* of its selector (else of the step) */
	bool valid;                 /* the selector converted */
	char *sel;                  /* selector text (owned), valid steps only */
	bool *member;               /* over the namespace's Workspaces: selected and of the project */
	size_t nmembers;
	size_t level;               /* level index (consecutive identical member sets merge) */
};

static bool same_members(const struct step *a, const struct step *b, size_t n)
{
	return memcmp(a->member, b->member, n * sizeof(*a->member)) == 0;
}

/* The Workspaces of namespace @ns, in the informer cache's order (by name).  New array. */
static const struct obj **workspaces_in(const struct view *s, const char *ns, size_t *n)
{
	const struct obj **ws = xcalloc(s->n ? s->n : 1, sizeof(*ws));

	*n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (is_magos(s->objs[i], "Workspace") && strcmp(s->objs[i]->ns, ns) == 0)
			ws[(*n)++] = s->objs[i];
	qsort(ws, *n, sizeof(*ws), cmp_by_name);
	return ws;
}

static bool project_exists(const struct view *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (is_magos(s->objs[i], "Project") && strcmp(s->objs[i]->ns, ns) == 0 &&
		    strcmp(s->objs[i]->name, name) == 0)
			return true;
	return false;
}

static bool rollout_exists(const struct view *s, const char *ns, const char *project)
{
	for (size_t i = 0; i < s->n; i++)
		if (is_magos(s->objs[i], "Rollout") && strcmp(s->objs[i]->ns, ns) == 0 &&
		    strcmp(val_str(val_map_get(s->objs[i]->spec, "projectRef"), ""), project) == 0)
			return true;
	return false;
}

/* Converts the selector of @st; a missing or null selector is the empty one (as Go's zero value). */
static void convert_step(struct lint_report *r, const struct obj *ro, struct step *st,
			 struct lbl_selector *sel, size_t index)
{
	const struct val *sv = val_map_get(st->node, "selector");
	char err[LBL_ERRLEN];

	st->valid = true;
	memset(sel, 0, sizeof(*sel));
	if (!sv || sv->type == VAL_NULL)
		return;
	if (lbl_selector_from_val(sv, sel, err, sizeof(err)) != LBL_OK) {
		st->valid = false;
		lint_add(r, "MS111", ro->src.file, st->mark,
			 "Rollout \"%s/%s\": steps[%zu] \"%s\": selector is invalid: %s; the controller "
			 "fails every pass with ReconcileError and grants nothing",
			 ro->ns, ro->name, index, st->name, err);
	}
}

bool lint_unselected_workspaces(const struct val *steps, const char *project,
				const struct obj *const *ws, size_t n, bool *out)
{
	size_t nsteps = steps && steps->type == VAL_LIST ? steps->u.list.n : 0;
	bool all_valid = true;

	for (size_t k = 0; k < n; k++)
		out[k] = strcmp(ws_project(ws[k]), project) == 0;
	for (size_t i = 0; i < nsteps; i++) {
		const struct val *sv = val_map_get(steps->u.list.items[i], "selector");
		struct lbl_selector sel;

		memset(&sel, 0, sizeof(sel)); /* absent or null: the empty selector */
		if (sv && sv->type != VAL_NULL && lbl_selector_from_val(sv, &sel, NULL, 0) != LBL_OK) {
			all_valid = false;
			continue;
		}
		for (size_t k = 0; k < n; k++)
			if (out[k] && lbl_matches(&sel, &ws[k]->labels))
				out[k] = false;
		lbl_selector_release(&sel);
	}
	return all_valid;
}

/* ---- the Rollout rules ------------------------------------------------------- */

static void lint_rollout(struct lint_report *r, const struct view *s, const struct obj *ro)
{
	const struct val *pv = val_map_get(ro->spec, "projectRef");
	const char *project = val_str(pv, "");
	const struct val *steps = val_path(ro->spec, "strategy.steps");
	const struct obj **ws;
	size_t nws, nsteps, nlevels = 0;
	struct step *st;
	bool *in_project, *unselected;

	if (!project_exists(s, ro->ns, project))
		lint_add(r, "MS106", ro->src.file, mark_of(pv, ro->src.mark),
			 "Rollout \"%s/%s\": spec.projectRef names Project \"%s\", which does not exist "
			 "in namespace %s",
			 ro->ns, ro->name, project, ro->ns);
	if (!steps || steps->type != VAL_LIST)
		return; /* admission requires the list; nothing to say about a refused object */
	nsteps = steps->u.list.n;
	if (nsteps == 0) {
		lint_add(r, "MS102", ro->src.file, mark_of(steps, ro->src.mark),
			 "Rollout \"%s/%s\": spec.strategy.steps is empty: the Rollout reports "
			 "Ready/NoSteps and grants nothing, and Project \"%s\" defers to it, so no "
			 "Workspace of the project ever runs",
			 ro->ns, ro->name, project);
		return;
	}

	ws = workspaces_in(s, ro->ns, &nws);
	in_project = xcalloc(nws ? nws : 1, sizeof(*in_project));
	unselected = xcalloc(nws ? nws : 1, sizeof(*unselected));
	for (size_t k = 0; k < nws; k++)
		in_project[k] = strcmp(ws_project(ws[k]), project) == 0;
	st = xcalloc(nsteps, sizeof(*st));

	for (size_t i = 0; i < nsteps; i++) {
		struct step *p = &st[i];
		struct lbl_selector sel;
		bool *foreign;
		size_t nforeign = 0;

		p->node = steps->u.list.items[i];
		p->name = val_str(val_map_get(p->node, "name"), "");
		p->mark = mark_of(val_map_get(p->node, "selector"), mark_of(p->node, ro->src.mark));
		p->member = xcalloc(nws ? nws : 1, sizeof(*p->member));
		convert_step(r, ro, p, &sel, i);
		if (!p->valid)
			continue;
		p->sel = selector_text(&sel);
		foreign = xcalloc(nws ? nws : 1, sizeof(*foreign));
		for (size_t k = 0; k < nws; k++) {
			if (!lbl_matches(&sel, &ws[k]->labels))
				continue;
			if (in_project[k]) {
				p->member[k] = true;
				p->nmembers++;
			} else {
				foreign[k] = true;
				nforeign++;
			}
		}
		if (nforeign) {
			char *names = names_of(ws, foreign, nws);

			lint_add(r, "MS110", ro->src.file, p->mark,
				 "Rollout \"%s/%s\": steps[%zu] \"%s\": selector %s also matches %zu "
				 "Workspace%s of other projects (%s), which the Rollout of project \"%s\" "
				 "ignores",
				 ro->ns, ro->name, i, p->name, p->sel, nforeign, nforeign == 1 ? "" : "s",
				 names, project);
			free(names);
		}
		if (!p->nmembers)
			lint_add(r, "MS101", ro->src.file, p->mark,
				 "Rollout \"%s/%s\": steps[%zu] \"%s\": selector %s matches no Workspace of "
				 "project \"%s\" in namespace %s: the controller halts the whole Rollout "
				 "with NoWorkspacesFound",
				 ro->ns, ro->name, i, p->name, p->sel, project, ro->ns);
		free(foreign);
		lbl_selector_release(&sel);
	}

	/*
	 * Levels as builds them: a step joins the previous level when its
	 * member set is identical to the previous step's.  Empty and invalid steps
	 * stop the real controller; here they only stay out of the comparisons.
	 */
	for (size_t i = 0; i < nsteps; i++) {
		if (!st[i].valid || !st[i].nmembers)
			continue;
		if (i > 0 && st[i - 1].valid && st[i - 1].nmembers && same_members(&st[i - 1], &st[i], nws))
			st[i].level = st[i - 1].level;
		else
			st[i].level = nlevels++;
	}
	for (size_t j = 0; j < nsteps; j++) {
		bool told_repeat = false;

		if (!st[j].valid || !st[j].nmembers)
			continue;
		for (size_t i = 0; i < j; i++) {
			bool *common;
			size_t ncommon = 0;
			char *names;

			if (!st[i].valid || !st[i].nmembers || st[i].level == st[j].level)
				continue;
			if (same_members(&st[i], &st[j], nws)) {
				if (!told_repeat)
					lint_add(r, "MS104", ro->src.file, st[j].mark,
						 "Rollout \"%s/%s\": steps[%zu] \"%s\" selects the same "
						 "Workspaces as steps[%zu] \"%s\" but is not next to it: "
						 "they form two levels, and their Workspaces are granted "
						 "and revoked in turn while pending",
						 ro->ns, ro->name, j, st[j].name, i, st[i].name);
				told_repeat = true;
				continue;
			}
			common = xcalloc(nws ? nws : 1, sizeof(*common));
			for (size_t k = 0; k < nws; k++)
				if (st[i].member[k] && st[j].member[k]) {
					common[k] = true;
					ncommon++;
				}
			if (ncommon) {
				names = names_of(ws, common, nws);
				lint_add(r, "MS103", ro->src.file, st[j].mark,
					 "Rollout \"%s/%s\": steps[%zu] \"%s\" and steps[%zu] \"%s\" both "
					 "select %s but form different levels: %s granted in one pass "
					 "and revoked in the next while pending",
					 ro->ns, ro->name, j, st[j].name, i, st[i].name, names,
					 ncommon == 1 ? "it is" : "they are");
				free(names);
			}
			free(common);
		}
	}

	/* Workspaces of the project that no step selects (only when every selector converted). */
	if (!lint_unselected_workspaces(steps, project, ws, nws, unselected))
		memset(unselected, 0, (nws ? nws : 1) * sizeof(*unselected));
	for (size_t k = 0; k < nws; k++)
		if (unselected[k])
			lint_add(r, "MS105", ws[k]->src.file,
				 mark_of(val_path(ws[k]->spec, "projectRef.name"), ws[k]->src.mark),
				 "Workspace \"%s/%s\" of project \"%s\" is selected by no step of Rollout "
				 "\"%s/%s\": nothing ever grants it execution",
				 ws[k]->ns, ws[k]->name, project, ro->ns, ro->name);

	for (size_t i = 0; i < nsteps; i++) {
		free(st[i].member);
		free(st[i].sel);
	}
	free(st);
	free(unselected);
	free(in_project);
	free(ws);
}

/* ---- the Workspace rules ----------------------------------------------------- */

static void lint_workspace(struct lint_report *r, const struct view *s, const struct obj *ws,
			   struct reread *rr)
{
	const char *iv = obj_strmap_get(&ws->annotations, MW_ANN_RECONCILE_INTERVAL);
	const struct val *aa = val_map_get(ws->spec, "autoApply");
	const char *pi;
	int64_t ns;

	if (iv) {
		if (gt_parse_duration_ns(iv, &ns, NULL, 0) != 0)
			lint_add(r, "MS108", ws->src.file,
				 annotation_mark(rr, ws, MW_ANN_RECONCILE_INTERVAL),
				 "Workspace \"%s/%s\": annotation %s=\"%s\" is not a Go duration: the "
				 "controller silently uses the default 3m0s",
				 ws->ns, ws->name, MW_ANN_RECONCILE_INTERVAL, iv);
		else if (ns <= 0)
			lint_add(r, "MS107", ws->src.file,
				 annotation_mark(rr, ws, MW_ANN_RECONCILE_INTERVAL),
				 "Workspace \"%s/%s\": annotation %s=\"%s\" is not positive: the "
				 "Workspace controller loops forever computing the next reconcile time "
				 "and its only worker stops",
				 ws->ns, ws->name, MW_ANN_RECONCILE_INTERVAL, iv);
	}
	if ((pi = obj_strmap_get(&ws->annotations, MW_ANN_GIT_POLL_INTERVAL)) &&
	    (gt_parse_duration_ns(pi, &ns, NULL, 0) != 0 || ns <= 0))
		lint_add(r, "MS113", ws->src.file, annotation_mark(rr, ws, MW_ANN_GIT_POLL_INTERVAL),
			 "Workspace \"%s/%s\": annotation %s=\"%s\" is not a Go duration above "
			 "zero: the RefWatcher silently polls at its default interval instead",
			 ws->ns, ws->name, MW_ANN_GIT_POLL_INTERVAL, pi);
	if (!rollout_exists(s, ws->ns, ws_project(ws)) &&
	    !project_exists(s, ws->ns, ws_project(ws))) {
		lint_add(r, "MS112", ws->src.file,
			 mark_of(val_path(ws->spec, "projectRef.name"), ws->src.mark),
			 "Workspace \"%s/%s\" names project \"%s\", which has neither a Project nor "
			 "a Rollout in namespace %s: nothing ever grants it execution",
			 ws->ns, ws->name, ws_project(ws), ws->ns);
		return;
	}
	if (aa && aa->type == VAL_BOOL && !aa->u.b && rollout_exists(s, ws->ns, ws_project(ws)))
		lint_add(r, "MS109", ws->src.file, mark_of(aa, ws->src.mark),
			 "Workspace \"%s/%s\": autoApply is false in project \"%s\", which a Rollout "
			 "orchestrates: each plan waits in Planned for magosproject.io/approved: "
			 "\"true\", and the Rollout's level waits with it",
			 ws->ns, ws->name, ws_project(ws));
}

void lint_magos(struct lint_report *r, const struct scenario *s)
{
	struct reread rr = { NULL, 0 };
	struct view v;

	view_init(&v, s);
	for (size_t i = 0; i < v.n; i++) {
		const struct obj *o = v.objs[i];

		if (is_magos(o, "Rollout"))
			lint_rollout(r, &v, o);
		else if (is_magos(o, "Workspace"))
			lint_workspace(r, &v, o, &rr);
	}
	view_release(&v);
	reread_release(&rr);
}
