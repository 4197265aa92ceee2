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
#include "sim/cluster/admission.h"
#include "sim/lint/lint.h"
#include "sim/lint/lint_marks.h"
#include "sim/load/dist.h"

/* Names listed in one message before "…". */
#define MAX_NAMES 5

static bool is_magos(const struct obj *o, const char *kind)
{
	return adm_in_group(o, ADM_GROUP_MAGOS, kind);
}

/*
 * An object with a position: an apply event's among the applies (a later
 * one wins), or an event's index, or a view index.
 */
struct applied {
	const struct obj *o;
	size_t order;
};

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
	/* sorted indices (owned arrays of borrowed objects): */
	const struct obj **projects;   /* Projects by (namespace, name) */
	size_t nprojects;
	const struct obj **rollouts;   /* Rollouts by (namespace, spec.projectRef) */
	size_t nrollouts;
	const struct obj **workspaces; /* Workspaces by (namespace, name) */
	size_t nworkspaces;
	struct applied *by_key;        /* every object with its view index, by key (unique) */
};

static const char *ro_project(const struct obj *ro)
{
	return val_str(val_map_get(ro->spec, "projectRef"), "");
}

static int cmp_ns_name(const void *pa, const void *pb)
{
	const struct obj *a = *(const struct obj *const *)pa, *b = *(const struct obj *const *)pb;
	int c = strcmp(a->ns, b->ns);

	return c ? c : strcmp(a->name, b->name);
}

static int cmp_ns_project(const void *pa, const void *pb)
{
	const struct obj *a = *(const struct obj *const *)pa, *b = *(const struct obj *const *)pb;
	int c = strcmp(a->ns, b->ns);

	return c ? c : strcmp(ro_project(a), ro_project(b));
}

static int cmp_applied(const void *pa, const void *pb)
{
	const struct applied *a = pa, *b = pb;
	int c = obj_cmp_key(a->o, b->o);

	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The last apply of @o's key, or NULL (@a sorted by key, then order). */
static const struct applied *applied_find(const struct applied *a, size_t n, const struct obj *o)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj_cmp_key(a[mid].o, o) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && obj_cmp_key(a[lo - 1].o, o) == 0 ? &a[lo - 1] : NULL;
}

/* The first of @a (@n sorted by key, then order) with @o's key, or NULL. */
static const struct applied *applied_first(const struct applied *a, size_t n, const struct obj *o)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj_cmp_key(a[mid].o, o) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && obj_cmp_key(a[lo].o, o) == 0 ? &a[lo] : NULL;
}

/*
 * When each object of the view first exists (v->at_ms): 0 for the key of an
 * input, else the time of the first `apply` event of its key, else 0.  Both
 * are found through sorted copies, O(n log n) in all.
 */
static void first_seen(struct view *v, const struct scenario *s)
{
	struct applied *inputs = xcalloc(s->nobjs ? s->nobjs : 1, sizeof(*inputs));
	struct applied *applies = xcalloc(s->nevents ? s->nevents : 1, sizeof(*applies));
	size_t napplies = 0;

	for (size_t i = 0; i < s->nobjs; i++)
		inputs[i] = (struct applied){ s->objs[i], i };
	qsort(inputs, s->nobjs, sizeof(*inputs), cmp_applied);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && s->events[i].obj && s->events[i].obj->kind)
			applies[napplies++] = (struct applied){ s->events[i].obj, i };
	qsort(applies, napplies, sizeof(*applies), cmp_applied);
	v->at_ms = xcalloc(v->n ? v->n : 1, sizeof(*v->at_ms));
	for (size_t i = 0; i < v->n; i++) {
		const struct applied *first;

		if (applied_first(inputs, s->nobjs, v->objs[i]))
			v->at_ms[i] = 0;
		else if ((first = applied_first(applies, napplies, v->objs[i])))
			v->at_ms[i] = s->events[first->order].at_ms;
		else
			v->at_ms[i] = 0;
	}
	free(applies);
	free(inputs);
}

static void view_init(struct view *v, const struct scenario *s)
{
	struct applied *applied = xcalloc(s->nevents ? s->nevents : 1, sizeof(*applied));
	size_t napplied = 0;

	for (size_t i = 0; i < s->nevents; i++) {
		const struct obj *o = s->events[i].obj;

		if (s->events[i].type == SCN_EV_APPLY && o && o->kind && adm_in_group(o, ADM_GROUP_MAGOS, NULL)) {
			applied[napplied].o = o;
			applied[napplied].order = napplied;
			napplied++;
		}
	}
	v->objs = xcalloc(s->nobjs + napplied + 1, sizeof(*v->objs));
	v->n = 0;
	/* input keys are unique (struct scenario): only a later apply can replace one */
	{
		struct applied *sorted = xcalloc(napplied ? napplied : 1, sizeof(*sorted));

		memcpy(sorted, applied, napplied * sizeof(*sorted));
		qsort(sorted, napplied, sizeof(*sorted), cmp_applied);
		for (size_t i = 0; i < s->nobjs; i++) {
			const struct obj *o = s->objs[i];

			if (!adm_in_group(o, ADM_GROUP_MAGOS, NULL))
				continue;
			if (!applied_find(sorted, napplied, o))
				v->objs[v->n++] = o;
		}
		/* an apply stays when no later apply has its key */
		for (size_t i = 0; i < napplied; i++)
			if (applied_find(sorted, napplied, applied[i].o)->order == applied[i].order)
				v->objs[v->n++] = applied[i].o;
		free(sorted);
	}
	free(applied);

	v->projects = xcalloc(v->n + 1, sizeof(*v->projects));
	v->rollouts = xcalloc(v->n + 1, sizeof(*v->rollouts));
	v->workspaces = xcalloc(v->n + 1, sizeof(*v->workspaces));
	v->nprojects = v->nrollouts = v->nworkspaces = 0;
	for (size_t i = 0; i < v->n; i++) {
		const struct obj *o = v->objs[i];

		if (is_magos(o, "Project"))
			v->projects[v->nprojects++] = o;
		else if (is_magos(o, "Rollout"))
			v->rollouts[v->nrollouts++] = o;
		else if (is_magos(o, "Workspace"))
			v->workspaces[v->nworkspaces++] = o;
	}
	qsort(v->projects, v->nprojects, sizeof(*v->projects), cmp_ns_name);
	qsort(v->rollouts, v->nrollouts, sizeof(*v->rollouts), cmp_ns_project);
	qsort(v->workspaces, v->nworkspaces, sizeof(*v->workspaces), cmp_ns_name);

	v->by_key = xcalloc(v->n ? v->n : 1, sizeof(*v->by_key));
	for (size_t i = 0; i < v->n; i++)
		v->by_key[i] = (struct applied){ v->objs[i], i };
	qsort(v->by_key, v->n, sizeof(*v->by_key), cmp_applied);
	v->s = s;
	first_seen(v, s);
}

static void view_release(struct view *v)
{
	free(v->objs);
	free(v->projects);
	free(v->rollouts);
	free(v->workspaces);
	free(v->by_key);
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

/* "a, b, c" of the Workspaces @idx (@n ascending indices into @ws), as names_of().  New string. */
static char *names_at(const struct obj *const *ws, const size_t *idx, size_t n)
{
	char *out = xstrdup("");

	for (size_t k = 0; k < n && k <= MAX_NAMES; k++) {
		char *next = k < MAX_NAMES
				     ? xasprintf("%s%s%s", out, k ? ", " : "", ws[idx[k]]->name)
				     : xasprintf("%s, …", out);

		free(out);
		out = next;
	}
	return out;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
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

/* One step as lint sees it. */
struct step {
	const struct val *node;     /* the step map */
	const char *name;           /* steps[i].name, "" when absent */
	struct val_mark mark;       /* of its selector (else of the step) */
	bool valid;                 /* the selector converted */
	char *sel;                  /* selector text (owned), valid steps only */
	size_t set;                 /* its member set (index into the msets), valid steps only */
	size_t nmembers;
	size_t level;               /* level index (consecutive identical member sets merge) */
};

/*
 * A distinct member set of a Rollout's steps (over the namespace's
 * Workspaces: selected and of the project), kept once however many steps
 * select it, with the steps that do (ascending) and, once needed, the other
 * sets that share a Workspace with it.  Steps compare by set index, so the
 * rules cost O(steps + distinct sets x their overlaps + findings) instead
 * of O(steps² x Workspaces).
 */
struct mset {
	size_t *member;  /* its Workspaces, ascending indices into the namespace's; owned */
	size_t nmember;
	uint64_t hash;
	size_t *steps;   /* ascending */
	size_t nsteps, capsteps;
	size_t *overlap; /* other sets sharing a Workspace, ascending; owned */
	size_t noverlap;
	bool overlap_known;
};

struct msets {
	struct mset *v;
	size_t n, cap;
	size_t *table;   /* open addressing: set index + 1, 0 = empty */
	size_t tcap;
};

static uint64_t member_hash(const size_t *m, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint64_t)(m[i] + 1)) * 1099511628211ULL;
	return h;
}

static void msets_rehash(struct msets *ms)
{
	ms->tcap = ms->tcap ? ms->tcap * 2 : 64;
	free(ms->table);
	ms->table = xcalloc(ms->tcap, sizeof(*ms->table));
	for (size_t i = 0; i < ms->n; i++) {
		size_t at = (size_t)ms->v[i].hash & (ms->tcap - 1);

		while (ms->table[at])
			at = (at + 1) & (ms->tcap - 1);
		ms->table[at] = i + 1;
	}
}

/*
 * The index of the set of the @n Workspaces @m (ascending; copied when new),
 * and step @step recorded as one of its steps.
 */
static size_t msets_intern(struct msets *ms, const size_t *m, size_t n, size_t step)
{
	uint64_t h = member_hash(m, n);
	size_t at, id;
	struct mset *e;

	if ((ms->n + 1) * 2 > ms->tcap)
		msets_rehash(ms);
	at = (size_t)h & (ms->tcap - 1);
	while (ms->table[at]) {
		e = &ms->v[ms->table[at] - 1];
		if (e->hash == h && e->nmember == n && (n == 0 || memcmp(e->member, m, n * sizeof(*m)) == 0))
			break;
		at = (at + 1) & (ms->tcap - 1);
	}
	if (ms->table[at]) {
		id = ms->table[at] - 1;
	} else {
		if (ms->n == ms->cap) {
			ms->cap = ms->cap ? ms->cap * 2 : 8;
			ms->v = xreallocarray(ms->v, ms->cap, sizeof(*ms->v));
		}
		id = ms->n++;
		e = &ms->v[id];
		memset(e, 0, sizeof(*e));
		e->member = xmalloc((n ? n : 1) * sizeof(*e->member));
		if (n) /* an empty set may come as NULL, which memcpy() must not be given */
			memcpy(e->member, m, n * sizeof(*m));
		e->nmember = n;
		e->hash = h;
		ms->table[at] = id + 1;
	}
	e = &ms->v[id];
	if (e->nsteps == e->capsteps) {
		e->capsteps = e->capsteps ? e->capsteps * 2 : 4;
		e->steps = xreallocarray(e->steps, e->capsteps, sizeof(*e->steps));
	}
	e->steps[e->nsteps++] = step;
	return id;
}

static void msets_release(struct msets *ms)
{
	for (size_t i = 0; i < ms->n; i++) {
		free(ms->v[i].member);
		free(ms->v[i].steps);
		free(ms->v[i].overlap);
	}
	free(ms->v);
	free(ms->table);
	memset(ms, 0, sizeof(*ms));
}

/*
 * The sets that share a Workspace with set @id, ascending, computed once:
 * through each Workspace's sets (@by_ws, @nby_ws), so a set is compared
 * only with the sets it meets.
 */
static const struct mset *overlaps_of(struct msets *ms, size_t id, size_t *const *by_ws,
				      const size_t *nby_ws, size_t *stamp)
{
	struct mset *e = &ms->v[id];
	size_t cap = 0;

	if (e->overlap_known)
		return e;
	for (size_t x = 0; x < e->nmember; x++) {
		size_t k = e->member[x];

		for (size_t t = 0; t < nby_ws[k]; t++) {
			size_t o = by_ws[k][t];

			if (o == id || stamp[o] == id + 1)
				continue;
			stamp[o] = id + 1;
			if (e->noverlap == cap) {
				cap = cap ? cap * 2 : 4;
				e->overlap = xreallocarray(e->overlap, cap, sizeof(*e->overlap));
			}
			e->overlap[e->noverlap++] = o;
		}
	}
	if (e->noverlap > 1) /* qsort() takes no NULL array, even of 0 elements */
		qsort(e->overlap, e->noverlap, sizeof(*e->overlap), cmp_size);
	e->overlap_known = true;
	return e;
}

/* The first index of @a (@n objects sorted by @cmp) not before the key object @key. */
static size_t lower_bound(const struct obj *const *a, size_t n, const struct obj *key,
			  int (*cmp)(const void *, const void *))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(&a[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The Workspaces of namespace @ns, in the informer cache's order (by name).  New array. */
static const struct obj **workspaces_in(const struct view *s, const char *ns, size_t *n)
{
	const struct obj **ws = xcalloc(s->nworkspaces ? s->nworkspaces : 1, sizeof(*ws));
	struct obj key = { .ns = (char *)ns, .name = (char *)"" };
	size_t i = lower_bound(s->workspaces, s->nworkspaces, &key, cmp_ns_name);

	*n = 0;
	for (; i < s->nworkspaces && strcmp(s->workspaces[i]->ns, ns) == 0; i++)
		ws[(*n)++] = s->workspaces[i];
	return ws;
}

static bool project_exists(const struct view *s, const char *ns, const char *name)
{
	struct obj key = { .ns = (char *)ns, .name = (char *)name };
	size_t i = lower_bound(s->projects, s->nprojects, &key, cmp_ns_name);

	return i < s->nprojects && cmp_ns_name(&s->projects[i], &(const struct obj *){ &key }) == 0;
}

static bool rollout_exists(const struct view *s, const char *ns, const char *project)
{
	struct val spec = { .type = VAL_MAP }, pv = { .type = VAL_STRING };
	struct val_kv kv = { .key = (char *)"projectRef", .v = &pv };
	struct obj key = { .ns = (char *)ns, .spec = &spec };
	size_t i;

	pv.u.s = (char *)project;
	spec.u.map.items = &kv;
	spec.u.map.n = spec.u.map.cap = 1;
	i = lower_bound(s->rollouts, s->nrollouts, &key, cmp_ns_project);
	return i < s->nrollouts && cmp_ns_project(&s->rollouts[i], &(const struct obj *){ &key }) == 0;
}

/* ---- the label index --------------------------------------------------------- */

/*
 * Which Workspaces carry a label: one posting per label of each Workspace,
 * sorted by key, value, then Workspace index, so the Workspaces carrying
 * key=value are one ascending run found in O(log n).  A selector's
 * candidates are the shortest run among its matchLabels (and one-valued In)
 * requirements: every Workspace it matches carries that label, so checking
 * the whole selector on the candidates alone selects what a scan over all
 * Workspaces would, in the same order, at O(candidates) instead of
 * O(Workspaces) per selector.
 */
struct posting {
	const char *key;   /* borrowed from the Workspace's labels */
	const char *value;
	size_t ws;         /* index into the namespace's Workspaces */
};

struct lbl_index {
	struct posting *v; /* owned */
	size_t n;
};

static int cmp_posting(const void *pa, const void *pb)
{
	const struct posting *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (!c)
		c = strcmp(a->value, b->value);
	return c ? c : (a->ws > b->ws) - (a->ws < b->ws);
}

/* Indexes the labels of the @n Workspaces @ws (borrowed: they outlive @ix). */
static void lbl_index_build(struct lbl_index *ix, const struct obj *const *ws, size_t n)
{
	size_t total = 0;

	for (size_t k = 0; k < n; k++)
		total += ws[k]->labels.n;
	ix->v = xmalloc((total ? total : 1) * sizeof(*ix->v));
	ix->n = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < ws[k]->labels.n; i++)
			ix->v[ix->n++] = (struct posting){ ws[k]->labels.items[i].key,
							   ws[k]->labels.items[i].value, k };
	if (ix->n > 1)
		qsort(ix->v, ix->n, sizeof(*ix->v), cmp_posting);
}

static void lbl_index_release(struct lbl_index *ix)
{
	free(ix->v);
	memset(ix, 0, sizeof(*ix));
}

/* The first posting of @ix not before (@key, @value, @ws). */
static size_t lbl_index_lower(const struct lbl_index *ix, const char *key, const char *value,
			      size_t ws)
{
	struct posting k = { key, value, ws };
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_posting(&ix->v[mid], &k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The candidates of @sel: sets *@first and *@n to the shortest run of
 * postings among its one-valued Equals/In requirements (none for a selector
 * that matches nothing) and returns true; returns false when it has no such
 * requirement (only NotIn, Exists, DoesNotExist, several-valued In, or none),
 * and then every Workspace is a candidate.
 */
static bool lbl_index_candidates(const struct lbl_index *ix, const struct lbl_selector *sel,
				 const struct posting **first, size_t *n)
{
	bool found = false;

	*first = ix->v;
	*n = 0;
	if (sel->nothing)
		return true;
	for (size_t i = 0; i < sel->n; i++) {
		const struct lbl_req *q = &sel->reqs[i];
		size_t lo, hi;

		if ((q->op != LBL_OP_EQUALS && q->op != LBL_OP_IN) || q->nvalues != 1)
			continue;
		lo = lbl_index_lower(ix, q->key, q->values[0], 0);
		hi = lbl_index_lower(ix, q->key, q->values[0], SIZE_MAX);
		if (!found || hi - lo < *n) {
			*first = ix->v + lo;
			*n = hi - lo;
		}
		found = true;
	}
	return found;
}

/*
 * The Workspaces of @ws that @sel matches, ascending, into *@out (grown as
 * needed, capacity *@cap); returns their count.
 */
static size_t lbl_index_select(const struct lbl_index *ix, const struct lbl_selector *sel,
			       const struct obj *const *ws, size_t nws, size_t **out, size_t *cap)
{
	const struct posting *c;
	size_t nc, n = 0;
	bool narrowed = lbl_index_candidates(ix, sel, &c, &nc);

	if (!narrowed)
		nc = nws;
	for (size_t t = 0; t < nc; t++) {
		size_t k = narrowed ? c[t].ws : t;

		if (!lbl_matches(sel, &ws[k]->labels))
			continue;
		if (n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*out = xreallocarray(*out, *cap, sizeof(**out));
		}
		(*out)[n++] = k;
	}
	return n;
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
	struct lbl_index ix;
	size_t *sel_ws = NULL, cap = 0;

	for (size_t k = 0; k < n; k++)
		out[k] = strcmp(ws_project(ws[k]), project) == 0;
	lbl_index_build(&ix, ws, n);
	for (size_t i = 0; i < nsteps; i++) {
		const struct val *sv = val_map_get(steps->u.list.items[i], "selector");
		struct lbl_selector sel;

		memset(&sel, 0, sizeof(sel)); /* absent or null: the empty selector */
		if (sv && sv->type != VAL_NULL && lbl_selector_from_val(sv, &sel, NULL, 0) != LBL_OK) {
			all_valid = false;
			continue;
		}
		for (size_t t = 0, m = lbl_index_select(&ix, &sel, ws, n, &sel_ws, &cap); t < m; t++)
			out[sel_ws[t]] = false;
		lbl_selector_release(&sel);
	}
	free(sel_ws);
	lbl_index_release(&ix);
	return all_valid;
}

/* ---- the Rollout rules ------------------------------------------------------- */

/* A finding of step j about an earlier step: MS104 (@set SIZE_MAX) or MS103 with set @set. */
struct pair {
	size_t step;
	size_t set;
};

/* Stores @k at (*@v)[@at], growing *@v (capacity *@cap) by doubling when @at is past it. */
static void idx_put(size_t **v, size_t *cap, size_t at, size_t k)
{
	if (at >= *cap) {
		while (at >= *cap)
			*cap = *cap ? *cap * 2 : 16;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[at] = k;
}

static void pairs_add(struct pair **v, size_t *n, size_t *cap, size_t step, size_t set)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[(*n)++] = (struct pair){ step, set };
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return x->step < y->step ? -1 : x->step > y->step;
}

/* The view index of @o (a pointer of the view), or SIZE_MAX.  O(log n): keys are unique. */
static size_t index_of(const struct view *v, const struct obj *o)
{
	const struct applied *a = applied_first(v->by_key, v->n, o);

	return a && a->o == o ? a->order : SIZE_MAX;
}

/* The Project @ns/@name of the view, or NULL.  O(log n). */
static const struct obj *project_of(const struct view *s, const char *ns, const char *name)
{
	struct obj key = { .ns = (char *)ns, .name = (char *)name };
	size_t i = lower_bound(s->projects, s->nprojects, &key, cmp_ns_name);

	return i < s->nprojects && cmp_ns_name(&s->projects[i], &(const struct obj *){ &key }) == 0
		       ? s->projects[i]
		       : NULL;
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

		/* A ref is resolved only once the scenario loaded without errors (lint
		 * reads a broken one too): an unresolved commit matches nothing. */
		if (e->type == SCN_MEV_COMMIT && e->repo_url && e->ref &&
		    strcmp(e->repo_url, url) == 0 &&
		    strcmp(scn_canonical_ref(e->ref, head), scn_canonical_ref(rev, head)) == 0)
			return e;
	}
	return NULL;
}

/*
 * MS116: a commit the scenario lands on a ref that Workspaces of two levels
 * track, where the later level's Workspace polls at least as often as the
 * earlier one's.  Each RefWatcher polls on its own timer from a random
 * offset (§4.11), so the later one sees the commit first about as often as
 * not; pending, it is granted while the earlier levels are still Applied
 * and plans the commit before them (spec §7 #5).
 *
 * For each Workspace k of a step that a commit reaches, the finding names
 * the first Workspace e (in the namespace's order) of an earlier level with
 * the same source that polls at most as often.  Found by a sweep over the
 * Workspaces of each source in level order, with a Fenwick tree of the
 * least e per poll interval: O(n log n), not a comparison of every pair.
 */
struct rev_ws {
	size_t k;       /* index into the namespace's Workspaces */
	size_t level;   /* of its first step */
	const char *url, *rev;
	int64_t poll;   /* git_poll_ms() */
	size_t rank;    /* of poll among its source's distinct intervals, longest first */
};

static int cmp_rev_ws(const void *pa, const void *pb)
{
	const struct rev_ws *a = pa, *b = pb;
	int c = strcmp(a->url, b->url);

	if (!c)
		c = strcmp(a->rev, b->rev);
	if (c)
		return c;
	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

static int cmp_poll_desc(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a > b ? -1 : a < b;
}

/* Fenwick tree of minima over ranks 0..@n-1: @f[r] lowered to @val at rank @r. */
static void fen_lower(size_t *f, size_t n, size_t r, size_t val)
{
	for (size_t i = r + 1; i <= n; i += i & (~i + 1))
		if (val < f[i - 1])
			f[i - 1] = val;
}

/* The least value at ranks 0..@r, SIZE_MAX when none. */
static size_t fen_min(const size_t *f, size_t r)
{
	size_t m = SIZE_MAX;

	for (size_t i = r + 1; i > 0; i -= i & (~i + 1))
		if (f[i - 1] < m)
			m = f[i - 1];
	return m;
}

static void revision_order(struct lint_report *r, const struct view *v, const struct obj *ro,
			   const struct obj **ws, size_t nws, const struct step *st,
			   const size_t *first_step)
{
	struct rev_ws *w = xcalloc(nws ? nws : 1, sizeof(*w));
	const struct scn_mevent **commit = xcalloc(nws ? nws : 1, sizeof(*commit));
	size_t *earlier = xmalloc((nws ? nws : 1) * sizeof(*earlier));
	size_t *fen = xmalloc((nws ? nws : 1) * sizeof(*fen));
	int64_t *polls = xmalloc((nws ? nws : 1) * sizeof(*polls));
	size_t nw = 0;

	for (size_t k = 0; k < nws; k++) {
		earlier[k] = SIZE_MAX;
		if (first_step[k] == SIZE_MAX)
			continue;
		w[nw++] = (struct rev_ws){ k, st[first_step[k]].level,
					   val_str(val_path(ws[k]->spec, "source.repoURL"), ""),
					   val_str(val_path(ws[k]->spec, "source.targetRevision"), ""),
					   git_poll_ms(ws[k]), 0 };
		commit[k] = commit_for(v->s, ws[k]);
	}
	if (nw > 1)
		qsort(w, nw, sizeof(*w), cmp_rev_ws);
	for (size_t g = 0, g_end; g < nw; g = g_end) {
		size_t npolls = 0, nranks = 0;

		for (g_end = g; g_end < nw && strcmp(w[g_end].url, w[g].url) == 0 &&
				strcmp(w[g_end].rev, w[g].rev) == 0;
		     g_end++)
			polls[npolls++] = w[g_end].poll;
		qsort(polls, npolls, sizeof(*polls), cmp_poll_desc);
		for (size_t i = 0; i < npolls; i++)
			if (i == 0 || polls[i] != polls[nranks - 1])
				polls[nranks++] = polls[i];
		for (size_t i = g; i < g_end; i++) {
			size_t lo = 0, hi = nranks;

			while (lo < hi) { /* the rank of w[i].poll in the descending polls */
				size_t mid = lo + (hi - lo) / 2;

				if (polls[mid] > w[i].poll)
					lo = mid + 1;
				else
					hi = mid;
			}
			w[i].rank = lo;
		}
		for (size_t i = 0; i < nranks; i++)
			fen[i] = SIZE_MAX;
		/* per level: ask for the Workspaces of earlier levels, then add this level's */
		for (size_t b = g, b_end; b < g_end; b = b_end) {
			for (b_end = b; b_end < g_end && w[b_end].level == w[b].level; b_end++)
				if (commit[w[b_end].k])
					earlier[w[b_end].k] = fen_min(fen, w[b_end].rank);
			for (size_t i = b; i < b_end; i++)
				fen_lower(fen, nranks, w[i].rank, w[i].k);
		}
	}
	for (size_t k = 0; k < nws; k++) {
		size_t e = earlier[k];
		const char *sk, *se;
		char pk[GT_DURATION_BUFSZ], pe[GT_DURATION_BUFSZ], at[GT_DURATION_BUFSZ];

		if (e == SIZE_MAX)
			continue;
		sk = st[first_step[k]].name;
		se = st[first_step[e]].name;
		gt_format_duration(git_poll_ms(ws[k]), pk, sizeof(pk));
		gt_format_duration(git_poll_ms(ws[e]), pe, sizeof(pe));
		gt_format_duration(commit[k]->at_ms, at, sizeof(at));
		lint_add(r, "MS116", ws[k]->src.file, ws[k]->src.mark,
			 "Workspace \"%s/%s\" (step \"%s\" of Rollout \"%s/%s\") polls for "
			 "commits every %s, as often as or more often than \"%s\" of the earlier "
			 "step \"%s\" (every %s), and both track the ref the commit at %s lands "
			 "on; each polls from a random offset, and if it sees the commit first "
			 "while the earlier steps are all Applied, it is the first pending "
			 "Workspace, is granted, and plans the commit before them",
			 ws[k]->ns, ws[k]->name, sk, ro->ns, ro->name, pk, ws[e]->name, se, pe, at);
	}
	free(polls);
	free(fen);
	free(earlier);
	free(commit);
	free(w);
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

/* Appends the text @add to @buf (@len used, @cap allocated; grown by doubling). */
static void buf_append(char **buf, size_t *len, size_t *cap, const char *add)
{
	size_t n = strlen(add);

	if (*len + n + 1 > *cap) {
		while (*len + n + 1 > *cap)
			*cap = *cap ? *cap * 2 : 64;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, add, n + 1);
	*len += n;
}

/*
 * @ms: the Rollout's member sets; @first_step: per Workspace, the first step
 * selecting it, SIZE_MAX for none.  A level's time is its set's, each set's
 * the longest of its members': O(Workspaces + the sets' members).
 */
static void interval_too_short(struct lint_report *r, const struct view *s, const struct obj *ro,
			       const struct obj **ws, size_t nws, const struct step *st,
			       size_t nsteps, size_t nlevels, const struct msets *ms,
			       const size_t *first_step, struct lint_reread *rr)
{
	int64_t *level_ms, *after_ms, *run_ms, *set_ms;
	const char **level_name;

	if (nlevels < 2)
		return;
	level_ms = xcalloc(nlevels, sizeof(*level_ms));
	after_ms = xcalloc(nlevels, sizeof(*after_ms));
	level_name = xcalloc(nlevels, sizeof(*level_name));
	run_ms = xcalloc(nws ? nws : 1, sizeof(*run_ms));
	set_ms = xcalloc(ms->n ? ms->n : 1, sizeof(*set_ms));
	for (size_t k = 0; k < nws; k++)
		if (first_step[k] != SIZE_MAX)
			run_ms[k] = median_run_ms(&s->s->models, ws[k]);
	for (size_t id = 0; id < ms->n; id++)
		for (size_t x = 0; x < ms->v[id].nmember; x++)
			if (run_ms[ms->v[id].member[x]] > set_ms[id])
				set_ms[id] = run_ms[ms->v[id].member[x]];
	for (size_t i = 0; i < nsteps; i++) {
		if (!st[i].valid || !st[i].nmembers)
			continue;
		if (!level_name[st[i].level])
			level_name[st[i].level] = st[i].name;
		if (set_ms[st[i].set] > level_ms[st[i].level])
			level_ms[st[i].level] = set_ms[st[i].set];
	}
	free(set_ms);
	free(run_ms);
	for (size_t l = nlevels - 1; l-- > 0;)
		after_ms[l] = after_ms[l + 1] + level_ms[l + 1];
	for (size_t k = 0; k < nws; k++) {
		const char *iv = obj_strmap_get(&ws[k]->annotations, MW_ANN_RECONCILE_INTERVAL);
		int64_t interval = MW_DEFAULT_INTERVAL_MS, ns;
		size_t lv = SIZE_MAX, len = 0, cap = 0;
		const char *step_name = "";
		char ivt[GT_DURATION_BUFSZ], aft[GT_DURATION_BUFSZ], hint[32];
		char *parts = NULL;

		buf_append(&parts, &len, &cap, "");
		if (first_step[k] != SIZE_MAX) {
			lv = st[first_step[k]].level;
			step_name = st[first_step[k]].name;
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

			gt_format_duration(level_ms[l], d, sizeof(d));
			if (l > lv + 1)
				buf_append(&parts, &len, &cap, ", ");
			buf_append(&parts, &len, &cap, level_name[l] ? level_name[l] : "");
			buf_append(&parts, &len, &cap, ": ");
			buf_append(&parts, &len, &cap, d);
		}
		gt_format_duration(interval, ivt, sizeof(ivt));
		gt_format_duration(after_ms[lv], aft, sizeof(aft));
		suggest_interval(2 * after_ms[lv], hint, sizeof(hint));
		lint_add(r, "MS115", ws[k]->src.file,
			 iv ? lint_annotation_mark(rr, ws[k], MW_ANN_RECONCILE_INTERVAL) : ws[k]->src.mark,
			 "Workspace \"%s/%s\" (step \"%s\" of Rollout \"%s/%s\") stays Applied for less "
			 "than its %s reconcile interval: the scheduled reconcile then resets it to "
			 "Pending, which re-opens step \"%s\" and revokes the later steps; those take "
			 "%s at the median modelled durations%s%s%s, so the Rollout cannot complete in "
			 "one pass: it goes back to step \"%s\" at every reset and completes only when "
			 "a reset happens to leave the later steps Applied, much later or never; set %s "
			 "on it to %s or more (twice their time, rounded up)",
			 ws[k]->ns, ws[k]->name, step_name, ro->ns, ro->name, ivt, step_name, aft,
			 /* one later step: its time is the total, said once */
			 lv + 2 < nlevels ? " (" : "", lv + 2 < nlevels ? parts : "",
			 lv + 2 < nlevels ? ")" : "", step_name, MW_ANN_RECONCILE_INTERVAL, hint);
		free(parts);
	}
	free(level_name);
	free(after_ms);
	free(level_ms);
}

/*
 * Whether a Workspace manifest of namespace @ns refused at load claims to be
 * of @project and to carry labels @sel matches (or its project or labels
 * cannot be read): a step that would select it matches nothing only because
 * the refusal, which MS001 already reports, left it out.
 */
static bool refused_would_match(const struct scenario *sc, const char *ns, const char *project,
				const struct lbl_selector *sel)
{
	for (size_t i = 0; sc && i < sc->nrefused_ws; i++) {
		const struct man_rejected *w = &sc->refused_ws[i];

		if (strcmp(w->ns, ns) == 0 && (!w->project || strcmp(w->project, project) == 0) &&
		    (!w->labels_known || lbl_matches(sel, &w->labels)))
			return true;
	}
	return false;
}

static void lint_rollout(struct lint_report *r, const struct view *s, const struct obj *ro,
			 struct lint_reread *rr)
{
	const struct val *pv = val_map_get(ro->spec, "projectRef");
	const char *project = val_str(pv, "");
	const struct val *steps = val_path(ro->spec, "strategy.steps");
	const struct obj **ws;
	size_t nws, nsteps, nlevels = 0;
	struct step *st;
	bool *in_project, *unselected, *set_seen;
	struct msets ms = { 0 };
	struct lbl_index ix;
	size_t **by_ws, *nby_ws, *stamp, *first_step, first_level = SIZE_MAX;
	size_t *matched = NULL, *member = NULL, *foreign = NULL;
	size_t capmatched = 0, capmember = 0, capforeign = 0;
	struct pair *pairs = NULL;
	size_t cappairs = 0;

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
	lbl_index_build(&ix, ws, nws);

	for (size_t i = 0; i < nsteps; i++) {
		struct step *p = &st[i];
		struct lbl_selector sel;
		size_t nmatched, nforeign = 0;

		p->node = steps->u.list.items[i];
		p->name = val_str(val_map_get(p->node, "name"), "");
		p->mark = mark_of(val_map_get(p->node, "selector"), mark_of(p->node, ro->src.mark));
		convert_step(r, ro, p, &sel, i);
		if (!p->valid)
			continue;
		p->sel = selector_text(&sel);
		nmatched = lbl_index_select(&ix, &sel, ws, nws, &matched, &capmatched);
		for (size_t t = 0; t < nmatched; t++) {
			size_t k = matched[t];

			if (in_project[k])
				idx_put(&member, &capmember, p->nmembers++, k);
			else
				idx_put(&foreign, &capforeign, nforeign++, k);
		}
		if (nforeign) {
			char *names = names_at(ws, foreign, nforeign);

			lint_add(r, "MS110", ro->src.file, p->mark,
				 "Rollout \"%s/%s\": steps[%zu] \"%s\": selector %s also matches %zu "
				 "Workspace%s of other projects (%s), which the Rollout of project \"%s\" "
				 "ignores",
				 ro->ns, ro->name, i, p->name, p->sel, nforeign, nforeign == 1 ? "" : "s",
				 names, project);
			free(names);
		}
		if (!p->nmembers && !refused_would_match(s->s, ro->ns, project, &sel))
			lint_add(r, "MS101", ro->src.file, p->mark,
				 "Rollout \"%s/%s\": steps[%zu] \"%s\": selector %s matches no Workspace of "
				 "project \"%s\" in namespace %s: the controller halts the whole Rollout "
				 "with NoWorkspacesFound",
				 ro->ns, ro->name, i, p->name, p->sel, project, ro->ns);
		else
			p->set = msets_intern(&ms, member, p->nmembers, i);
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
		if (i > 0 && st[i - 1].valid && st[i - 1].nmembers && st[i - 1].set == st[i].set)
			st[i].level = st[i - 1].level;
		else
			st[i].level = nlevels++;
	}

	/* Each Workspace's member sets, ascending, for the overlap of a set with the others. */
	by_ws = xcalloc(nws ? nws : 1, sizeof(*by_ws));
	nby_ws = xcalloc(nws ? nws : 1, sizeof(*nby_ws));
	for (size_t id = 0; id < ms.n; id++)
		for (size_t x = 0; x < ms.v[id].nmember; x++)
			nby_ws[ms.v[id].member[x]]++;
	for (size_t k = 0; k < nws; k++) {
		by_ws[k] = xmalloc((nby_ws[k] ? nby_ws[k] : 1) * sizeof(**by_ws));
		nby_ws[k] = 0;
	}
	for (size_t id = 0; id < ms.n; id++)
		for (size_t x = 0; x < ms.v[id].nmember; x++) {
			size_t k = ms.v[id].member[x];

			by_ws[k][nby_ws[k]++] = id;
		}
	stamp = xcalloc(ms.n ? ms.n : 1, sizeof(*stamp));

	/*
	 * Per step j, in ascending order of the earlier step i it concerns: the
	 * first earlier step selecting the same set in another level (MS104,
	 * once), and every earlier step of another set sharing a Workspace with
	 * it (MS103), as a pairwise comparison of the steps would find them.
	 */
	for (size_t j = 0; j < nsteps; j++) {
		const struct mset *mj;
		size_t first, npairs = 0;

		if (!st[j].valid || !st[j].nmembers)
			continue;
		mj = overlaps_of(&ms, st[j].set, by_ws, nby_ws, stamp);
		first = mj->steps[0];
		if (first < j && st[first].level != st[j].level)
			pairs_add(&pairs, &npairs, &cappairs, first, SIZE_MAX);
		for (size_t t = 0; t < mj->noverlap; t++) {
			const struct mset *mo = &ms.v[mj->overlap[t]];

			for (size_t u = 0; u < mo->nsteps && mo->steps[u] < j; u++)
				pairs_add(&pairs, &npairs, &cappairs, mo->steps[u], mj->overlap[t]);
		}
		if (npairs > 1)
			qsort(pairs, npairs, sizeof(*pairs), cmp_pair);
		for (size_t t = 0; t < npairs; t++) {
			size_t i = pairs[t].step;
			const struct mset *mo;
			size_t ncommon = 0;
			char *names;

			if (pairs[t].set == SIZE_MAX) {
				lint_add(r, "MS104", ro->src.file, st[j].mark,
					 "Rollout \"%s/%s\": steps[%zu] \"%s\" selects the same "
					 "Workspaces as steps[%zu] \"%s\" but is not next to it: "
					 "they form two levels, and their Workspaces are granted "
					 "and revoked in turn while pending",
					 ro->ns, ro->name, j, st[j].name, i, st[i].name);
				continue;
			}
			mo = &ms.v[pairs[t].set];
			for (size_t a = 0, b = 0; a < mo->nmember && b < mj->nmember;) {
				if (mo->member[a] < mj->member[b])
					a++;
				else if (mo->member[a] > mj->member[b])
					b++;
				else {
					idx_put(&member, &capmember, ncommon++, mo->member[a]);
					a++;
					b++;
				}
			}
			names = names_at(ws, member, ncommon);
			lint_add(r, "MS103", ro->src.file, st[j].mark,
				 "Rollout \"%s/%s\": steps[%zu] \"%s\" and steps[%zu] \"%s\" both "
				 "select %s but form different levels: %s granted in one pass "
				 "and revoked in the next while pending",
				 ro->ns, ro->name, j, st[j].name, i, st[i].name, names,
				 ncommon == 1 ? "it is" : "they are");
			free(names);
		}
	}

	/* Workspaces of the project that no step selects (only when every selector converted). */
	if (!lint_unselected_workspaces(steps, project, ws, nws, unselected))
		memset(unselected, 0, (nws ? nws : 1) * sizeof(*unselected));
	/*
	 * Each Workspace's first step (SIZE_MAX: none selects it), through the
	 * first step of each member set: O(steps + Workspaces + the sets' members).
	 */
	first_step = xmalloc((nws ? nws : 1) * sizeof(*first_step));
	set_seen = xcalloc(ms.n ? ms.n : 1, sizeof(*set_seen));
	for (size_t k = 0; k < nws; k++)
		first_step[k] = SIZE_MAX;
	for (size_t i = 0; i < nsteps; i++) {
		if (!st[i].valid || !st[i].nmembers)
			continue;
		if (first_level == SIZE_MAX)
			first_level = st[i].level;
		if (set_seen[st[i].set])
			continue;
		set_seen[st[i].set] = true;
		for (size_t x = 0; x < ms.v[st[i].set].nmember; x++)
			if (first_step[ms.v[st[i].set].member[x]] == SIZE_MAX)
				first_step[ms.v[st[i].set].member[x]] = i;
	}
	free(set_seen);
	for (size_t k = 0; k < nws; k++) {
		int64_t g = -1;
		size_t lv = first_step[k] == SIZE_MAX ? SIZE_MAX : st[first_step[k]].level;
		const char *step_name = first_step[k] == SIZE_MAX ? "" : st[first_step[k]].name;

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
	interval_too_short(r, s, ro, ws, nws, st, nsteps, nlevels, &ms, first_step, rr);
	revision_order(r, s, ro, ws, nws, st, first_step);
	free(first_step);

	for (size_t i = 0; i < nsteps; i++)
		free(st[i].sel);
	for (size_t k = 0; k < nws; k++)
		free(by_ws[k]);
	free(by_ws);
	free(nby_ws);
	free(stamp);
	free(pairs);
	msets_release(&ms);
	free(st);
	lbl_index_release(&ix);
	free(matched);
	free(member);
	free(foreign);
	free(unselected);
	free(in_project);
	free(ws);
}

/* ---- the Workspace rules ----------------------------------------------------- */

static void lint_workspace(struct lint_report *r, const struct view *s, const struct obj *ws,
			   struct lint_reread *rr)
{
	const char *iv = obj_strmap_get(&ws->annotations, MW_ANN_RECONCILE_INTERVAL);
	const struct val *aa = val_map_get(ws->spec, "autoApply");
	const char *pi;
	int64_t ns;

	if (iv) {
		if (gt_parse_duration_ns(iv, &ns, NULL, 0) != 0)
			lint_add(r, "MS108", ws->src.file,
				 lint_annotation_mark(rr, ws, MW_ANN_RECONCILE_INTERVAL),
				 "Workspace \"%s/%s\": annotation %s=\"%s\" is not a Go duration: the "
				 "controller silently uses the default 3m0s",
				 ws->ns, ws->name, MW_ANN_RECONCILE_INTERVAL, iv);
		else if (ns <= 0)
			lint_add(r, "MS107", ws->src.file,
				 lint_annotation_mark(rr, ws, MW_ANN_RECONCILE_INTERVAL),
				 "Workspace \"%s/%s\": annotation %s=\"%s\" is not positive: the "
				 "Workspace controller loops forever computing the next reconcile time "
				 "and its only worker stops",
				 ws->ns, ws->name, MW_ANN_RECONCILE_INTERVAL, iv);
	}
	if ((pi = obj_strmap_get(&ws->annotations, MW_ANN_GIT_POLL_INTERVAL)) &&
	    (gt_parse_duration_ns(pi, &ns, NULL, 0) != 0 || ns <= 0))
		lint_add(r, "MS113", ws->src.file, lint_annotation_mark(rr, ws, MW_ANN_GIT_POLL_INTERVAL),
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
	struct lint_reread rr = { NULL, 0 };
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
	lint_reread_release(&rr);
}
