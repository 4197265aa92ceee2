#include "engine/magos_rollout.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bitset.h"
#include "engine/labels.h"
#include "engine/xalloc.h"

/* Phases and the condition type (T/common_types.go). */
#define PHASE_PENDING "Pending"
#define PHASE_APPLIED "Applied"
#define PHASE_FAILED "Failed"
#define PHASE_VALIDATION_FAILED "ValidationFailed"
#define COND_READY "Ready"

static const char *ws_phase(const struct obj *ws)
{
	return val_str(val_map_get(ws->status, "phase"), "");
}

static const char *ws_project(const struct obj *ws)
{
	return val_str(val_path(ws->spec, "projectRef.name"), "");
}

bool mr_workspace_fully_applied(const struct obj *ws)
{
	if (strcmp(ws_phase(ws), PHASE_APPLIED) != 0)
		return false;
	/* presence is what counts: an empty value still means "not applied" */
	if (obj_strmap_get(&ws->annotations, MR_ANN_DETECTED_REVISION))
		return false;
	return true;
}

bool mr_workspace_pending(const struct obj *ws)
{
	const char *rr = obj_strmap_get(&ws->annotations, MR_ANN_RECONCILE_REQUEST);
	const char *phase = ws_phase(ws);

	return !mr_workspace_fully_applied(ws) || (rr && rr[0]) || phase[0] == '\0' ||
	       strcmp(phase, PHASE_PENDING) == 0;
}

bool mr_workspace_failed(const struct obj *ws)
{
	const char *phase = ws_phase(ws);

	return strcmp(phase, PHASE_FAILED) == 0 || strcmp(phase, PHASE_VALIDATION_FAILED) == 0;
}

bool mr_workspace_allowed(const struct obj *ws)
{
	const char *v = obj_strmap_get(&ws->annotations, MR_ANN_EXECUTION_ALLOWED);

	return v && strcmp(v, MR_VALUE_TRUE) == 0;
}

/* Sets string field @key of map @m to @v; true when it changed. */
static bool set_str(struct val *m, const char *key, const char *v)
{
	const char *cur = val_str(val_map_get(m, key), NULL);

	if (cur && strcmp(cur, v) == 0)
		return false;
	val_map_set(m, key, val_new_string(v));
	return true;
}

bool mr_set_status_condition(struct val *conds, const char *type, const char *status,
			     const char *reason, const char *message, const char *now)
{
	struct val *c = NULL, *og;
	bool changed = false;

	assert(conds && conds->type == VAL_LIST);
	for (size_t i = 0; i < conds->u.list.n; i++) {
		const char *t = val_str(val_map_get(conds->u.list.items[i], "type"), "");

		if (strcmp(t, type) == 0) {
			c = conds->u.list.items[i];
			break;
		}
	}
	if (!c || c->type != VAL_MAP) {
		c = val_new_map();
		val_map_set(c, "type", val_new_string(type));
		val_map_set(c, "status", val_new_string(status));
		val_map_set(c, "lastTransitionTime", val_new_string(now));
		val_map_set(c, "reason", val_new_string(reason));
		val_map_set(c, "message", val_new_string(message));
		val_list_push(conds, c);
		return true;
	}
	if (set_str(c, "status", status)) {
		val_map_set(c, "lastTransitionTime", val_new_string(now));
		changed = true;
	}
	if (set_str(c, "reason", reason))
		changed = true;
	if (set_str(c, "message", message))
		changed = true;
	og = val_map_get(c, "observedGeneration");
	if (og && val_int(og, 0) != 0) {
		/* the new condition carries 0, which omitempty leaves out */
		val_map_del(c, "observedGeneration");
		changed = true;
	}
	return changed;
}

/* Whether string field @key of map @m is not @v (what set_str() would change). */
static bool str_differs(const struct val *m, const char *key, const char *v)
{
	const char *cur = val_str(val_map_get(m, key), NULL);

	return !cur || strcmp(cur, v) != 0;
}

/*
 * Whether mr_set_status_condition() would change a copy of @conds (which,
 * when not a list, mr_update_status() replaces with an empty one, where it
 * would append): the same tests, without the copy.
 */
static bool condition_would_change(const struct val *conds, const char *type, const char *status,
				   const char *reason, const char *message)
{
	const struct val *c = NULL, *og;

	if (!conds || conds->type != VAL_LIST)
		return true;
	for (size_t i = 0; i < conds->u.list.n; i++) {
		const char *t = val_str(val_map_get(conds->u.list.items[i], "type"), "");

		if (strcmp(t, type) == 0) {
			c = conds->u.list.items[i];
			break;
		}
	}
	if (!c || c->type != VAL_MAP)
		return true;
	if (str_differs(c, "status", status) || str_differs(c, "reason", reason) ||
	    str_differs(c, "message", message))
		return true;
	og = val_map_get(c, "observedGeneration");
	return og && val_int(og, 0) != 0;
}

struct val *mr_update_status(const struct obj *latest, const struct mr_status_intent *want,
			     bool with_current_step, const char *now)
{
	const struct val *st = latest->status;
	const struct val *old_conds = val_map_get(st, "conditions");
	const char *phase = val_str(val_map_get(st, "phase"), "");
	const char *reason = val_str(val_map_get(st, "reason"), "");
	const char *message = val_str(val_map_get(st, "message"), "");
	int64_t step = val_int(val_map_get(st, "currentStep"), 0);
	struct val *conds, *out;
	bool needs = false;

	if (strcmp(phase, want->phase) != 0 || strcmp(reason, want->reason) != 0 ||
	    strcmp(message, want->message) != 0) {
		phase = want->phase;
		reason = want->reason;
		message = want->message;
		needs = true;
	}
	if (with_current_step && step != want->current_step) {
		step = want->current_step;
		needs = true;
	}
	/* the common pass changes nothing: tell it without copying the conditions */
	if (!needs && !condition_would_change(old_conds, COND_READY, want->ready, want->reason,
					      want->message))
		return NULL;
	conds = old_conds && old_conds->type == VAL_LIST ? val_copy(old_conds) : val_new_list();
	if (mr_set_status_condition(conds, COND_READY, want->ready, want->reason, want->message,
				    now))
		needs = true;
	if (!needs) {
		val_free(conds);
		return NULL;
	}

	/* Go's encoding of the status struct: field order, omitempty. */
	out = val_new_map();
	if (phase[0])
		val_map_set(out, "phase", val_new_string(phase));
	if (with_current_step)
		val_map_set(out, "currentStep", val_new_int(step));
	if (reason[0])
		val_map_set(out, "reason", val_new_string(reason));
	if (message[0])
		val_map_set(out, "message", val_new_string(message));
	val_map_set(out, "lastReconcileTime", val_new_string(now));
	val_map_set(out, "conditions", conds);
	return out;
}

static void push_name(char ***arr, size_t *n, size_t *cap, const char *name)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		*arr = xreallocarray(*arr, *cap, sizeof(**arr));
	}
	(*arr)[(*n)++] = xstrdup(name);
}

static void set_want(struct mr_result *out, enum mr_outcome o, const char *phase,
		     const char *reason, char *message, const char *ready, int64_t step)
{
	out->outcome = o;
	out->has_status = true;
	out->want.phase = phase;
	out->want.reason = reason;
	out->want.message = message;
	out->want.ready = ready;
	out->want.current_step = step;
}

/* Same member set: both are index lists into one array, in its order. */
static bool same_members(const size_t *a, size_t na, const size_t *b, size_t nb)
{
	return na == nb && (na == 0 || memcmp(a, b, na * sizeof(*a)) == 0);
}

/* ---- the plan: R-2 once per (Rollout spec, Workspace List), R-3..R-7 from counts ---- */

/* What a pass reads of one Workspace (mr_workspace_pending, _failed, _allowed). */
enum { F_PENDING = 1, F_FAILED = 2, F_ALLOWED = 4 };

/* A Workspace that belongs to at least one level.  Sorted by @pos. */
struct slot {
	size_t pos;        /* index into the Workspace array */
	size_t memb;       /* its memberships: memb[memb .. memb + nlev) */
	uint32_t nlev;
	uint8_t facts;     /* F_* as last told */
};

/* One membership: level @level, member @local of it (levels[level].members[local]). */
struct memb {
	size_t level;
	size_t local;
};

/*
 * Per level: how many members are pending and failed, which are allowed
 * (for R-7) and which are grantable (pending and not allowed, R-6), as
 * sets of member indices; and, computed on first need, the members that
 * other levels share (the §7 #1 report when the level is current).
 */
struct lstate {
	size_t npending;
	size_t nfailed;
	struct bs_set allowed;
	struct bs_set grant;
	bool overlap_known;
	size_t *overlap; /* positions, in report order */
	size_t noverlap;
};

struct mr_plan {
	/*
	 * Where stopped: MR_OUT_NONE when every step resolved into a
	 * level; else MR_OUT_NO_STEPS, MR_OUT_NO_WORKSPACES_FOUND (at step
	 * @stop_step, message @stop_msg) or MR_OUT_RECONCILE_ERROR (error
	 * text @stop_msg).
	 */
	enum mr_outcome stop;
	char *stop_msg;
	int64_t stop_step;
	size_t nsteps;
	struct mr_level *levels; /* owned unless given away (mr_reconcile_rollout) */
	size_t nlevels;
	struct lstate *ls;       /* nlevels */
	struct slot *slots;
	size_t nslots;
	struct memb *memb;
	bool any_overlap;        /* some slot is in several levels */
	struct bs_set pending_levels; /* levels with npending > 0 */
	struct bs_set allowed_levels; /* levels with an allowed member */
};

static uint8_t facts_of(const struct obj *ws)
{
	return (uint8_t)((mr_workspace_pending(ws) ? F_PENDING : 0) |
			 (mr_workspace_failed(ws) ? F_FAILED : 0) |
			 (mr_workspace_allowed(ws) ? F_ALLOWED : 0));
}

/* Counts of one membership with facts @f, added (@sign 1) or taken away (-1). */
static void count(struct mr_plan *p, const struct memb *m, uint8_t f, int sign)
{
	struct lstate *l = &p->ls[m->level];
	bool on = sign > 0;

	if (f & F_PENDING)
		l->npending += (size_t)(ptrdiff_t)sign;
	if (f & F_FAILED)
		l->nfailed += (size_t)(ptrdiff_t)sign;
	if (f & F_ALLOWED)
		bs_put(&l->allowed, m->local, on);
	if ((f & F_PENDING) && !(f & F_ALLOWED))
		bs_put(&l->grant, m->local, on);
	bs_put(&p->pending_levels, m->level, l->npending > 0);
	bs_put(&p->allowed_levels, m->level, l->allowed.count > 0);
}

/* A growable ", "-joined list of step names: joined in one pass, not one copy per step. */
struct names {
	char *s;
	size_t len, cap;
};

static void names_add(struct names *b, const char *name)
{
	size_t n = strlen(name), need = b->len + (b->len ? 2 : 0) + n + 1;

	if (need > b->cap) {
		b->cap = b->cap ? b->cap : 32;
		while (b->cap < need)
			b->cap *= 2;
		b->s = xrealloc(b->s, b->cap);
	}
	if (b->len) {
		memcpy(b->s + b->len, ", ", 2);
		b->len += 2;
	}
	memcpy(b->s + b->len, name, n + 1);
	b->len += n;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Slots, memberships and counts of the levels built (every member's facts read now). */
static void plan_index(struct mr_plan *p, const struct obj *const *ws)
{
	size_t total = 0, *pos, npos = 0, *fill;

	for (size_t l = 0; l < p->nlevels; l++)
		total += p->levels[l].nmembers;
	pos = xmalloc((total ? total : 1) * sizeof(*pos));
	for (size_t l = 0; l < p->nlevels; l++)
		for (size_t k = 0; k < p->levels[l].nmembers; k++)
			pos[npos++] = p->levels[l].members[k];
	qsort(pos, npos, sizeof(*pos), cmp_size);
	p->slots = xcalloc(npos ? npos : 1, sizeof(*p->slots));
	for (size_t i = 0; i < npos; i++) {
		if (p->nslots && p->slots[p->nslots - 1].pos == pos[i]) {
			p->slots[p->nslots - 1].nlev++;
			p->any_overlap = true;
			continue;
		}
		p->slots[p->nslots].pos = pos[i];
		p->slots[p->nslots].nlev = 1;
		p->slots[p->nslots].facts = facts_of(ws[pos[i]]);
		p->nslots++;
	}
	free(pos);
	/* memberships, grouped by slot, levels in order */
	p->memb = xmalloc((total ? total : 1) * sizeof(*p->memb));
	fill = xmalloc((p->nslots ? p->nslots : 1) * sizeof(*fill));
	for (size_t s = 0, at = 0; s < p->nslots; s++) {
		p->slots[s].memb = at;
		fill[s] = at;
		at += p->slots[s].nlev;
	}
	p->ls = xcalloc(p->nlevels ? p->nlevels : 1, sizeof(*p->ls));
	bs_init(&p->pending_levels, p->nlevels);
	bs_init(&p->allowed_levels, p->nlevels);
	for (size_t l = 0; l < p->nlevels; l++) {
		const struct mr_level *lv = &p->levels[l];

		bs_init(&p->ls[l].allowed, lv->nmembers);
		bs_init(&p->ls[l].grant, lv->nmembers);
		/* members and slots are both in position order: walk them together */
		for (size_t k = 0, s = 0; k < lv->nmembers; k++) {
			struct memb *m;

			while (p->slots[s].pos != lv->members[k])
				s++;
			m = &p->memb[fill[s]++];
			m->level = l;
			m->local = k;
			count(p, m, p->slots[s].facts, 1);
		}
	}
	free(fill);
}

struct mr_plan *mr_plan_new(const struct obj *rollout, const struct obj *const *ws, size_t nws,
			    const size_t *cand, size_t ncand)
{
	struct mr_plan *p = xcalloc(1, sizeof(*p));
	const struct val *steps = val_path(rollout->spec, "strategy.steps");
	const char *project = val_str(val_map_get(rollout->spec, "projectRef"), "");
	size_t *in = NULL, nin = 0, *prev = NULL, nprev = 0, cap = 0;
	struct names names = { 0 };

	p->stop = MR_OUT_NONE;
	p->nsteps = steps && steps->type == VAL_LIST ? steps->u.list.n : 0;
	/* nothing to orchestrate. */
	if (p->nsteps == 0) {
		p->stop = MR_OUT_NO_STEPS;
		goto out_index;
	}

	/*
	 * Namespace and projectRef do not depend on the step: decide them once
	 * per Workspace rather than once per (step, Workspace).
	 */
	in = xmalloc(((cand ? ncand : nws) ? (cand ? ncand : nws) : 1) * sizeof(*in));
	for (size_t c = 0; c < (cand ? ncand : nws); c++) {
		size_t j = cand ? cand[c] : c;

		if (strcmp(ws[j]->ns, rollout->ns) == 0 && strcmp(ws_project(ws[j]), project) == 0)
			in[nin++] = j;
	}

	/* resolve the steps into levels. */
	for (size_t i = 0; i < p->nsteps; i++) {
		const struct val *step = steps->u.list.items[i];
		const char *sname = val_str(val_map_get(step, "name"), "");
		const struct val *selv = val_map_get(step, "selector");
		struct val *empty = NULL;
		struct lbl_selector sel;
		char err[LBL_ERRLEN];
		size_t *members = NULL, nmembers = 0;

		/* A value-typed field: absent or null decodes to the empty selector. */
		if (!selv || selv->type == VAL_NULL)
			selv = empty = val_new_map();
		if (lbl_selector_from_val(selv, &sel, err, sizeof(err)) != LBL_OK) {
			val_free(empty);
			p->stop = MR_OUT_RECONCILE_ERROR;
			p->stop_msg = xstrdup(err);
			break;
		}
		val_free(empty);
		/* Room for every Workspace at once: growing one by one copied O(n²). */
		members = xmalloc((nin ? nin : 1) * sizeof(*members));
		for (size_t c = 0; c < nin; c++)
			if (lbl_matches(&sel, &ws[in[c]]->labels))
				members[nmembers++] = in[c];
		lbl_selector_release(&sel);

		if (nmembers == 0) {
			free(members);
			p->stop = MR_OUT_NO_WORKSPACES_FOUND;
			p->stop_step = (int64_t)i;
			p->stop_msg = xasprintf("No workspaces found matching selector for step %s; "
						"halting to prevent skipping environments",
						sname);
			break;
		}

		if (p->nlevels > 0 && same_members(members, nmembers, prev, nprev)) {
			p->levels[p->nlevels - 1].end_idx = i;
			names_add(&names, sname);
			free(members);
		} else {
			struct mr_level *l;

			if (p->nlevels > 0)
				p->levels[p->nlevels - 1].names = names.s;
			names = (struct names){ 0 };
			names_add(&names, sname);
			if (p->nlevels == cap) {
				cap = cap ? cap * 2 : 4;
				p->levels = xreallocarray(p->levels, cap, sizeof(*p->levels));
			}
			l = &p->levels[p->nlevels++];
			l->start_idx = i;
			l->end_idx = i;
			l->names = NULL;
			l->members = members;
			l->nmembers = nmembers;
		}
		/* prev is the last level's member list: identical to this step's set */
		prev = p->levels[p->nlevels - 1].members;
		nprev = p->levels[p->nlevels - 1].nmembers;
	}
	if (p->nlevels > 0)
		p->levels[p->nlevels - 1].names = names.s;
	free(in);

out_index:
	plan_index(p, ws);
	return p;
}

/* The slot of position @pos, or NULL. */
static struct slot *slot_of(struct mr_plan *p, size_t pos)
{
	size_t lo = 0, hi = p->nslots;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->slots[mid].pos == pos)
			return &p->slots[mid];
		if (p->slots[mid].pos < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void mr_plan_update(struct mr_plan *p, size_t pos, const struct obj *ws)
{
	struct slot *s = slot_of(p, pos);
	uint8_t f;

	if (!s)
		return;
	f = facts_of(ws);
	if (f == s->facts)
		return;
	for (uint32_t k = 0; k < s->nlev; k++) {
		count(p, &p->memb[s->memb + k], s->facts, -1);
		count(p, &p->memb[s->memb + k], f, 1);
	}
	s->facts = f;
}

static void levels_free(struct mr_level *levels, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(levels[i].names);
		free(levels[i].members);
	}
	free(levels);
}

void mr_plan_free(struct mr_plan *p)
{
	if (!p)
		return;
	levels_free(p->levels, p->levels ? p->nlevels : 0);
	for (size_t l = 0; l < p->nlevels; l++) {
		bs_release(&p->ls[l].allowed);
		bs_release(&p->ls[l].grant);
		free(p->ls[l].overlap);
	}
	free(p->ls);
	free(p->slots);
	free(p->memb);
	free(p->stop_msg);
	bs_release(&p->pending_levels);
	bs_release(&p->allowed_levels);
	free(p);
}

/*
 * The members of level @cur that another level also holds, in the order
 * R-7 meets them (levels in order, members in order, each once): computed
 * on the first pass that needs it, from the levels alone.
 */
static const struct lstate *overlap_of(struct mr_plan *p, size_t cur)
{
	struct lstate *l = &p->ls[cur];
	bool *in_current;
	size_t cap = 0;

	if (l->overlap_known || !p->any_overlap) {
		return l;
	}
	in_current = xcalloc(p->nslots ? p->nslots : 1, sizeof(*in_current));
	for (size_t k = 0; k < p->levels[cur].nmembers; k++) {
		struct slot *s = slot_of(p, p->levels[cur].members[k]);

		in_current[s - p->slots] = s->nlev > 1;
	}
	for (size_t li = 0; li < p->nlevels; li++) {
		const struct mr_level *lv = &p->levels[li];

		if (li == cur)
			continue;
		for (size_t k = 0; k < lv->nmembers; k++) {
			struct slot *s = slot_of(p, lv->members[k]);

			if (s->nlev < 2 || !in_current[s - p->slots])
				continue;
			in_current[s - p->slots] = false; /* report each name once */
			if (l->noverlap == cap) {
				cap = cap ? cap * 2 : 4;
				l->overlap = xreallocarray(l->overlap, cap, sizeof(*l->overlap));
			}
			l->overlap[l->noverlap++] = lv->members[k];
		}
	}
	free(in_current);
	l->overlap_known = true;
	return l;
}

int mr_reconcile_rollout_plan(const struct obj *rollout, struct mr_plan *p,
			      const struct obj *const *ws, const char *now, struct mr_result *out)
{
	int64_t stored_step;
	const struct mr_level *cur;
	const struct lstate *cs;
	size_t capg = 0, capr = 0, capo = 0;
	int rc = MR_OK;

	memset(out, 0, sizeof(*out));
	out->current_level = -1;

	/* not found, or being deleted: nothing to clean up. */
	if (!rollout || rollout->deletion_ms >= 0) {
		out->outcome = MR_OUT_NONE;
		return MR_OK;
	}
	stored_step = val_int(val_map_get(rollout->status, "currentStep"), 0);
	out->levels = p->levels;
	out->nlevels = p->nlevels;
	out->borrowed = true;

	switch (p->stop) {
	case MR_OUT_NO_STEPS: /* */
		set_want(out, MR_OUT_NO_STEPS, "Ready", "NoSteps",
			 xstrdup("No steps defined in strategy"), "True", stored_step);
		goto out_status;
	case MR_OUT_RECONCILE_ERROR:
		out->error = xstrdup(p->stop_msg);
		set_want(out, MR_OUT_RECONCILE_ERROR, "Failed", "ReconcileError",
			 xstrdup(p->stop_msg), "False", stored_step);
		rc = MR_ERECONCILE;
		goto out_status;
	case MR_OUT_NO_WORKSPACES_FOUND: /* */
		set_want(out, MR_OUT_NO_WORKSPACES_FOUND, "Failed", "NoWorkspacesFound",
			 xstrdup(p->stop_msg), "False", p->stop_step);
		goto out_status;
	default:
		break;
	}

	/* the first level with pending work is current. */
	{
		size_t first = bs_next(&p->pending_levels, 0);

		if (first == BS_NONE) {
			set_want(out, MR_OUT_ROLLOUT_COMPLETED, "Applied", "RolloutCompleted",
				 xstrdup("All steps completed successfully"), "True",
				 (int64_t)p->nsteps);
			goto out_status;
		}
		out->current_level = (long)first;
	}

	/* */
	cur = &p->levels[out->current_level];
	cs = &p->ls[out->current_level];
	out->level_transition = (int64_t)cur->start_idx != stored_step;

	/* any failed member halts; no grants, no revocations. */
	if (cs->nfailed > 0) {
		set_want(out, MR_OUT_STEP_FAILED, "Failed", "StepFailed",
			 xasprintf("One or more workspaces failed in level [%s]", cur->names),
			 "False", (int64_t)cur->start_idx);
		goto out_status;
	}

	/*
	 * grant pending members that lack permission (decided on the
	 * snapshot; a failed member, which upstream skips here, cannot be in
	 * the level after R-5).
	 */
	for (size_t k = bs_next(&cs->grant, 0); k != BS_NONE; k = bs_next(&cs->grant, k + 1))
		push_name(&out->grant, &out->ngrant, &capg, ws[cur->members[k]]->name);

	/*
	 * revoke from every other level, earlier and later alike: the
	 * allowed members of each, levels in order, members in order.
	 */
	for (size_t li = bs_next(&p->allowed_levels, 0); li != BS_NONE;
	     li = bs_next(&p->allowed_levels, li + 1)) {
		const struct bs_set *a = &p->ls[li].allowed;

		if ((long)li == out->current_level)
			continue;
		for (size_t k = bs_next(a, 0); k != BS_NONE; k = bs_next(a, k + 1))
			push_name(&out->revoke, &out->nrevoke, &capr,
				  ws[p->levels[li].members[k]]->name);
	}
	cs = overlap_of(p, (size_t)out->current_level);
	for (size_t k = 0; k < cs->noverlap; k++)
		push_name(&out->overlapping, &out->noverlapping, &capo, ws[cs->overlap[k]]->name);

	/* */
	set_want(out, MR_OUT_LEVEL_PROGRESSING, "Reconciling", "LevelProgressing",
		 xasprintf("Executing level [%s]", cur->names), "Unknown",
		 (int64_t)cur->start_idx);

out_status:
	out->status = mr_update_status(rollout, &out->want, true, now);
	return rc;
}

int mr_reconcile_rollout(const struct obj *rollout, const struct obj *const *ws, size_t nws,
			 const char *now, struct mr_result *out)
{
	struct mr_plan *p;
	int rc;

	if (!rollout || rollout->deletion_ms >= 0)
		return mr_reconcile_rollout_plan(rollout, NULL, ws, now, out);
	p = mr_plan_new(rollout, ws, nws, NULL, 0);
	rc = mr_reconcile_rollout_plan(rollout, p, ws, now, out);
	/* the result takes the levels over: the plan goes with this call */
	out->borrowed = false;
	p->levels = NULL;
	mr_plan_free(p);
	return rc;
}

static void free_names(char **a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

void mr_result_release(struct mr_result *r)
{
	if (!r)
		return;
	if (!r->borrowed)
		levels_free(r->levels, r->nlevels);
	free(r->want.message);
	free(r->error);
	free_names(r->grant, r->ngrant);
	free_names(r->revoke, r->nrevoke);
	free_names(r->overlapping, r->noverlapping);
	val_free(r->status);
	memset(r, 0, sizeof(*r));
	r->current_level = -1;
}

const char *mr_outcome_name(enum mr_outcome o)
{
	switch (o) {
	case MR_OUT_NONE:
		return "None";
	case MR_OUT_NO_STEPS:
		return "NoSteps";
	case MR_OUT_NO_WORKSPACES_FOUND:
		return "NoWorkspacesFound";
	case MR_OUT_ROLLOUT_COMPLETED:
		return "RolloutCompleted";
	case MR_OUT_STEP_FAILED:
		return "StepFailed";
	case MR_OUT_LEVEL_PROGRESSING:
		return "LevelProgressing";
	case MR_OUT_RECONCILE_ERROR:
		return "ReconcileError";
	}
	return "unknown";
}
