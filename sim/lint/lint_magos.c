/*
 * The Magos rules of lint (MS1xx): hazards of a Rollout's steps over the
 * Workspaces of its project, and of the Workspaces themselves, decided the
 * way the controllers decide them (spec magos-controllers.md §2.2-§2.7, §4.4,
 * §4.8, §7 #1, #3, #4, #19): the same label-selector code (engine/labels.h)
 * and the same duration parser (sim/base/gotime.h) as the simulated controllers,
 * so that lint and a run agree on what a step selects.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/magos_rollout.h"
#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint.h"
#include "sim/load/dist.h"
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
	int64_t *at_ms;          /* owned: when each object first exists, 0 for the inputs */
	size_t n;
	const struct scenario *s; /* borrowed: the models the duration rules read */
};

/* When the object of @o's key first exists: 0 for an input, else its first `apply` event. */
static int64_t first_seen_ms(const struct scenario *s, const struct obj *o)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (obj_cmp_key(s->objs[i], o) == 0)
			return 0;
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && s->events[i].obj &&
		    obj_cmp_key(s->events[i].obj, o) == 0)
			return s->events[i].at_ms;
	return 0;
}

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
	v->s = s;
	v->at_ms = xcalloc(v->n ? v->n : 1, sizeof(*v->at_ms));
	for (size_t i = 0; i < v->n; i++)
		v->at_ms[i] = first_seen_ms(s, v->objs[i]);
}

static void view_release(struct view *v)
{
	free(v->objs);
	free(v->at_ms);
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

/* The view index of @o (a pointer of the view), or SIZE_MAX. */
static size_t index_of(const struct view *v, const struct obj *o)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->objs[i] == o)
			return i;
	return SIZE_MAX;
}

static const struct obj *project_of(const struct view *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (is_magos(s->objs[i], "Project") && strcmp(s->objs[i]->ns, ns) == 0 &&
		    strcmp(s->objs[i]->name, name) == 0)
			return s->objs[i];
	return NULL;
}

/*
 * Grants the project's Project gives before the Rollout takes over
 * (spec §3.2, §3.4, §7 #2): the Project reports DefaultParallel while no
 * Rollout of its name exists and grants every pending Workspace (no phase or
 * Pending).  Said only with a margin of HANDOFF_MARGIN_MS between the moment
 * both exist and the Rollout's creation, so that the Project's passes
 * certainly ran first.
 */
#define HANDOFF_MARGIN_MS 1000

/*
 * When pending Workspace @ws holds execution-allowed before Rollout @ro
 * exists, in ms of the run, or -1 when it does not: its manifest carries the
 * annotation (from its creation), or the Project of the Rollout's name exists
 * before the Rollout and grants it as DefaultParallel.  @revoked: the Rollout
 * revokes the grant on its first pass (a Workspace of a later level), so a
 * manifest's grant counts only with the margin too; the Rollout never
 * revokes a Workspace no step selects, nor does one without steps.
 */
static int64_t granted_before_ms(const struct view *s, const struct obj *ro, const struct obj *ws,
				 bool revoked)
{
	const char *allowed = obj_strmap_get(&ws->annotations, MW_ANN_EXECUTION_ALLOWED);
	const char *phase = val_str(val_map_get(ws->status, "phase"), "");
	const struct obj *pr = project_of(s, ro->ns, ro->name);
	size_t iro = index_of(s, ro), iws = index_of(s, ws), ipr;
	int64_t both;

	if (iro == SIZE_MAX || iws == SIZE_MAX)
		return -1;
	if (phase[0] && strcmp(phase, "Pending") != 0)
		return -1; /* not pending: a grant starts no run */
	if (allowed && strcmp(allowed, "true") == 0 &&
	    (revoked ? s->at_ms[iws] + HANDOFF_MARGIN_MS <= s->at_ms[iro]
		     : s->at_ms[iws] <= s->at_ms[iro]))
		return s->at_ms[iws];
	if (!pr || (ipr = index_of(s, pr)) == SIZE_MAX)
		return -1;
	both = s->at_ms[ipr] > s->at_ms[iws] ? s->at_ms[ipr] : s->at_ms[iws];
	return both + HANDOFF_MARGIN_MS <= s->at_ms[iro] ? both : -1;
}

/* MS114: Workspace @ws is granted at @g_ms, before Rollout @ro; @what says what follows. */
static void handoff(struct lint_report *r, const struct view *s, const struct obj *ro,
		    const struct obj *ws, int64_t g_ms, const char *what)
{
	char at[GT_DURATION_BUFSZ], ro_at[GT_DURATION_BUFSZ];
	const char *allowed = obj_strmap_get(&ws->annotations, MW_ANN_EXECUTION_ALLOWED);
	char *by;

	gt_format_duration(g_ms, at, sizeof(at));
	gt_format_duration(s->at_ms[index_of(s, ro)], ro_at, sizeof(ro_at));
	if (allowed && strcmp(allowed, "true") == 0)
		by = xasprintf("carries %s: \"true\" in its manifest", MW_ANN_EXECUTION_ALLOWED);
	else
		by = xasprintf("is granted execution by Project \"%s\" (DefaultParallel) at %s", ro->name,
			       at);
	lint_add(r, "MS114", ws->src.file, ws->src.mark,
		 "Workspace \"%s/%s\" %s, before Rollout \"%s/%s\" exists (at %s), and grants given "
		 "before the hand-off survive it: %s",
		 ws->ns, ws->name, by, ro->ns, ro->name, ro_at, what);
	free(by);
}

/*
 * MS102: a Rollout without steps (R-1: Ready/NoSteps, no Workspace touched).
 * Said only when its Project exists (it then defers: ManagedByRollout, §3.2)
 * and some Workspace of the project holds no grant from before: those never
 * run.  No Project: MS106 tells it.  No Workspace, or every one granted
 * before: the upstream no-op, nothing to say.
 */
static void empty_steps(struct lint_report *r, const struct view *s, const struct obj *ro,
			const struct obj **ws, const bool *in_project, size_t nws)
{
	const struct val *steps = val_path(ro->spec, "strategy.steps");
	const char *project = val_str(val_map_get(ro->spec, "projectRef"), "");
	bool *frozen = xcalloc(nws ? nws : 1, sizeof(*frozen));
	bool *ran = xcalloc(nws ? nws : 1, sizeof(*ran));
	size_t nfrozen = 0, nran = 0;

	for (size_t k = 0; k < nws; k++) {
		if (!in_project[k])
			continue;
		if (granted_before_ms(s, ro, ws[k], false) >= 0) {
			ran[k] = true;
			nran++;
		} else {
			frozen[k] = true;
			nfrozen++;
		}
	}
	if (project_of(s, ro->ns, project) && strcmp(project, ro->name) == 0 && nfrozen) {
		char *names = names_of(ws, frozen, nws), *before = xstrdup("");

		if (nran) {
			char *rn = names_of(ws, ran, nws);

			free(before);
			before = xasprintf("; %s, granted before the Rollout existed, still run%s", rn,
					   nran == 1 ? "s" : "");
			free(rn);
		}
		lint_add(r, "MS102", ro->src.file, mark_of(steps, ro->src.mark),
			 "Rollout \"%s/%s\": spec.strategy.steps is empty: the Rollout reports "
			 "Ready/NoSteps and grants nothing, and Project \"%s\" defers to it "
			 "(ManagedByRollout), so %zu Workspace%s of the project (%s) never run%s%s",
			 ro->ns, ro->name, project, nfrozen, nfrozen == 1 ? "" : "s", names,
			 nfrozen == 1 ? "s" : "", before);
		free(before);
		free(names);
	}
	free(ran);
	free(frozen);
}

/* A Workspace's git-poll-interval in ms: the annotation, else (absent or not above zero) 30s. */
#define DEFAULT_GIT_POLL_MS 30000
static int64_t git_poll_ms(const struct obj *ws)
{
	const char *pi = obj_strmap_get(&ws->annotations, MW_ANN_GIT_POLL_INTERVAL);
	int64_t ns;

	if (pi && gt_parse_duration_ns(pi, &ns, NULL, 0) == 0 && ns > 0)
		return ns / 1000000 ? ns / 1000000 : 1;
	return DEFAULT_GIT_POLL_MS;
}

/* The first commit event of the scenario on the repo and ref @ws tracks, or NULL. */
static const struct scn_mevent *commit_for(const struct scenario *s, const struct obj *ws)
{
	const char *url = val_str(val_path(ws->spec, "source.repoURL"), "");
	const char *rev = val_str(val_path(ws->spec, "source.targetRevision"), "");
	const char *head = scn_git_head(&s->models, url);

	for (size_t i = 0; i < s->nmevents; i++) {
		const struct scn_mevent *e = &s->mevents[i];

		if (e->type == SCN_MEV_COMMIT && e->repo_url && strcmp(e->repo_url, url) == 0 &&
		    strcmp(scn_canonical_ref(e->ref, head), scn_canonical_ref(rev, head)) == 0)
			return e;
	}
	return NULL;
}

static bool same_source(const struct obj *a, const struct obj *b)
{
	return strcmp(val_str(val_path(a->spec, "source.repoURL"), ""),
		      val_str(val_path(b->spec, "source.repoURL"), "")) == 0 &&
	       strcmp(val_str(val_path(a->spec, "source.targetRevision"), ""),
		      val_str(val_path(b->spec, "source.targetRevision"), "")) == 0;
}

/*
 * MS116: a commit the scenario lands on a ref that Workspaces of two levels
 * track, where the later level's Workspace polls at least as often as the
 * earlier one's.  Each RefWatcher polls on its own timer from a random
 * offset (§4.11), so the later one sees the commit first about as often as
 * not; pending, it is granted while the earlier levels are still Applied
 * and plans the commit before them (spec §7 #5).
 */
static void revision_order(struct lint_report *r, const struct view *v, const struct obj *ro,
			   const struct obj **ws, size_t nws, const struct step *st, size_t nsteps)
{
	for (size_t k = 0; k < nws; k++) {
		size_t lk = SIZE_MAX;
		const char *sk = "";
		const struct scn_mevent *c;

		for (size_t i = 0; i < nsteps && lk == SIZE_MAX; i++)
			if (st[i].valid && st[i].member[k]) {
				lk = st[i].level;
				sk = st[i].name;
			}
		if (lk == SIZE_MAX || !(c = commit_for(v->s, ws[k])))
			continue;
		for (size_t e = 0; e < nws; e++) {
			size_t le = SIZE_MAX;
			const char *se = "";
			char pk[GT_DURATION_BUFSZ], pe[GT_DURATION_BUFSZ], at[GT_DURATION_BUFSZ];

			for (size_t i = 0; i < nsteps && le == SIZE_MAX; i++)
				if (st[i].valid && st[i].member[e]) {
					le = st[i].level;
					se = st[i].name;
				}
			if (le == SIZE_MAX || le >= lk || !same_source(ws[e], ws[k]) ||
			    git_poll_ms(ws[k]) > git_poll_ms(ws[e]))
				continue;
			gt_format_duration(git_poll_ms(ws[k]), pk, sizeof(pk));
			gt_format_duration(git_poll_ms(ws[e]), pe, sizeof(pe));
			gt_format_duration(c->at_ms, at, sizeof(at));
			lint_add(r, "MS116", ws[k]->src.file, ws[k]->src.mark,
				 "Workspace \"%s/%s\" (step \"%s\" of Rollout \"%s/%s\") polls for "
				 "commits every %s, as often as or more often than \"%s\" of the earlier "
				 "step \"%s\" (every %s), and both track the ref the commit at %s lands "
				 "on; each polls from a random offset, and if it sees the commit first "
				 "while the earlier steps are all Applied, it is the first pending "
				 "Workspace, is granted, and plans the commit before them",
				 ws[k]->ns, ws[k]->name, sk, ro->ns, ro->name, pk, ws[e]->name, se, pe, at);
			break; /* one finding per Workspace */
		}
	}
}

/*
 * MS115: a Workspace of a level before the last stays Applied for less than
 * its reconcile interval: at the next tick of its grid (§4.4) the scheduled
 * reconcile resets it to Pending (§4.6 rule 2), the Rollout finds its level
 * pending again, re-opens it and revokes the later levels.  When
 * the later levels need at least that interval to run, the Rollout cannot
 * reach a pass where every Workspace is Applied in one go.  The time a level
 * needs is the longest of its members' pod start + plan + pod start + apply
 * at the medians of the modelled durations, without waiting for runners or
 * approvals (so a lower bound of the median).
 */
static int64_t median_run_ms(const struct scn_models *m, const struct obj *ws)
{
	const struct dist *plan, *apply;
	double pf, ms;

	scn_job_model_for(m, SCN_JOB_PLAN, &ws->labels, &plan, &pf);
	scn_job_model_for(m, SCN_JOB_APPLY, &ws->labels, &apply, &pf);
	ms = 2.0 * (double)m->pod_startup_ms + dist_quantile(plan, 0.5) + dist_quantile(apply, 0.5);
	return ms >= 0 && ms < 1e15 ? (int64_t)(ms + 0.5) : 0;
}

/* A round interval at least @ms: 5m, 10m, 15m, 30m, 1h, 2h, 3h, 6h, 12h, 24h, then whole days. */
static void suggest_interval(int64_t ms, char *buf, size_t len)
{
	static const struct {
		int64_t ms;
		const char *text;
	} nice[] = { { 300000, "5m" },	  { 600000, "10m" },   { 900000, "15m" },
		     { 1800000, "30m" },  { 3600000, "1h" },   { 7200000, "2h" },
		     { 10800000, "3h" },  { 21600000, "6h" },  { 43200000, "12h" },
		     { 86400000, "24h" } };

	for (size_t i = 0; i < sizeof(nice) / sizeof(nice[0]); i++)
		if (nice[i].ms >= ms) {
			snprintf(buf, len, "%s", nice[i].text);
			return;
		}
	snprintf(buf, len, "%lldh", (long long)((ms + 86400000 - 1) / 86400000 * 24));
}

static void interval_too_short(struct lint_report *r, const struct view *s, const struct obj *ro,
			       const struct obj **ws, size_t nws, const struct step *st,
			       size_t nsteps, size_t nlevels, struct reread *rr)
{
	int64_t *level_ms, *after_ms;
	const char **level_name;

	if (nlevels < 2)
		return;
	level_ms = xcalloc(nlevels, sizeof(*level_ms));
	after_ms = xcalloc(nlevels, sizeof(*after_ms));
	level_name = xcalloc(nlevels, sizeof(*level_name));
	for (size_t i = 0; i < nsteps; i++) {
		if (!st[i].valid || !st[i].nmembers)
			continue;
		if (!level_name[st[i].level])
			level_name[st[i].level] = st[i].name;
		for (size_t k = 0; k < nws; k++) {
			int64_t run;

			if (!st[i].member[k])
				continue;
			run = median_run_ms(&s->s->models, ws[k]);
			if (run > level_ms[st[i].level])
				level_ms[st[i].level] = run;
		}
	}
	for (size_t l = nlevels - 1; l-- > 0;)
		after_ms[l] = after_ms[l + 1] + level_ms[l + 1];
	for (size_t k = 0; k < nws; k++) {
		const char *iv = obj_strmap_get(&ws[k]->annotations, MW_ANN_RECONCILE_INTERVAL);
		int64_t interval = MW_DEFAULT_INTERVAL_MS, ns;
		size_t lv = SIZE_MAX;
		const char *step_name = "";
		char ivt[GT_DURATION_BUFSZ], aft[GT_DURATION_BUFSZ], hint[32];
		char *parts = xstrdup("");

		for (size_t i = 0; i < nsteps && lv == SIZE_MAX; i++)
			if (st[i].valid && st[i].member[k]) {
				lv = st[i].level;
				step_name = st[i].name;
			}
		if (lv == SIZE_MAX || lv + 1 >= nlevels) {
			free(parts);
			continue;
		}
		if (iv && gt_parse_duration_ns(iv, &ns, NULL, 0) == 0) {
			if (ns <= 0) { /* MS107 */
				free(parts);
				continue;
			}
			interval = ns / 1000000;
		}
		if (after_ms[lv] < interval) {
			free(parts);
			continue;
		}
		for (size_t l = lv + 1; l < nlevels; l++) {
			char d[GT_DURATION_BUFSZ];
			char *next;

			gt_format_duration(level_ms[l], d, sizeof(d));
			next = xasprintf("%s%s%s: %s", parts, l > lv + 1 ? ", " : "",
					 level_name[l] ? level_name[l] : "", d);
			free(parts);
			parts = next;
		}
		gt_format_duration(interval, ivt, sizeof(ivt));
		gt_format_duration(after_ms[lv], aft, sizeof(aft));
		suggest_interval(2 * after_ms[lv], hint, sizeof(hint));
		lint_add(r, "MS115", ws[k]->src.file,
			 iv ? annotation_mark(rr, ws[k], MW_ANN_RECONCILE_INTERVAL) : ws[k]->src.mark,
			 "Workspace \"%s/%s\" (step \"%s\" of Rollout \"%s/%s\") stays Applied for less "
			 "than its %s reconcile interval: the scheduled reconcile then resets it to "
			 "Pending, which re-opens step \"%s\" and revokes the later steps; those take "
			 "%s at the median modelled durations (%s), so the Rollout cannot complete in "
			 "one pass: it goes back to step \"%s\" at every reset and completes only when "
			 "a reset happens to leave the later steps Applied, much later or never; set %s "
			 "on it above %s (e.g. %s)",
			 ws[k]->ns, ws[k]->name, step_name, ro->ns, ro->name, ivt, step_name, aft, parts,
			 step_name, MW_ANN_RECONCILE_INTERVAL, aft, hint);
		free(parts);
	}
	free(level_name);
	free(after_ms);
	free(level_ms);
}

static void lint_rollout(struct lint_report *r, const struct view *s, const struct obj *ro,
			 struct reread *rr)
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
	ws = workspaces_in(s, ro->ns, &nws);
	in_project = xcalloc(nws ? nws : 1, sizeof(*in_project));
	unselected = xcalloc(nws ? nws : 1, sizeof(*unselected));
	for (size_t k = 0; k < nws; k++)
		in_project[k] = strcmp(ws_project(ws[k]), project) == 0;
	if (nsteps == 0) {
		empty_steps(r, s, ro, ws, in_project, nws);
		free(unselected);
		free(in_project);
		free(ws);
		return;
	}
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
	for (size_t k = 0; k < nws; k++) {
		int64_t g = -1;
		size_t first_level = SIZE_MAX, lv = SIZE_MAX;
		const char *step_name = "";

		for (size_t i = 0; i < nsteps; i++) {
			if (!st[i].valid || !st[i].nmembers)
				continue;
			if (first_level == SIZE_MAX)
				first_level = st[i].level;
			if (st[i].member[k] && lv == SIZE_MAX) {
				lv = st[i].level;
				step_name = st[i].name;
			}
		}
		if (in_project[k])
			g = granted_before_ms(s, ro, ws[k],
					      !unselected[k] && lv != SIZE_MAX && lv != first_level);
		if (g >= 0 && unselected[k])
			handoff(r, s, ro, ws[k], g,
				"no step selects it, so the Rollout never revokes that grant: it plans "
				"and applies outside the Rollout's order");
		else if (g >= 0 && lv != SIZE_MAX && lv != first_level) {
			char *what = xasprintf("it starts planning before its step \"%s\" opens (the "
					       "Rollout revokes the grant on its first pass that reaches "
					       "the revoke step, but a started Job runs on)",
					       step_name);

			handoff(r, s, ro, ws[k], g, what);
			free(what);
		} else if (unselected[k])
			lint_add(r, "MS105", ws[k]->src.file,
				 mark_of(val_path(ws[k]->spec, "projectRef.name"), ws[k]->src.mark),
				 "Workspace \"%s/%s\" of project \"%s\" is selected by no step of Rollout "
				 "\"%s/%s\": nothing ever grants it execution",
				 ws[k]->ns, ws[k]->name, project, ro->ns, ro->name);
	}
	interval_too_short(r, s, ro, ws, nws, st, nsteps, nlevels, rr);
	revision_order(r, s, ro, ws, nws, st, nsteps);

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
			lint_rollout(r, &v, o, &rr);
		else if (is_magos(o, "Workspace"))
			lint_workspace(r, &v, o, &rr);
	}
	view_release(&v);
	reread_release(&rr);
}
