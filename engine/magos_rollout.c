#include "engine/magos_rollout.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

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

static void push_name(char ***arr, size_t *n, const char *name)
{
	*arr = xreallocarray(*arr, *n + 1, sizeof(**arr));
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

int mr_reconcile_rollout(const struct obj *rollout, const struct obj *const *ws, size_t nws,
			 const char *now, struct mr_result *out)
{
	const struct val *steps;
	const char *project;
	size_t nsteps;
	int64_t stored_step;
	size_t *prev = NULL, nprev = 0;
	struct mr_level *cur;
	bool *in_current = NULL;
	bool *in_project = NULL;
	int rc = MR_OK;

	memset(out, 0, sizeof(*out));
	out->current_level = -1;

	/* not found, or being deleted: nothing to clean up. */
	if (!rollout || rollout->deletion_ms >= 0) {
		out->outcome = MR_OUT_NONE;
		return MR_OK;
	}
	stored_step = val_int(val_map_get(rollout->status, "currentStep"), 0);
	steps = val_path(rollout->spec, "strategy.steps");
	nsteps = steps && steps->type == VAL_LIST ? steps->u.list.n : 0;
	project = val_str(val_map_get(rollout->spec, "projectRef"), "");

	/* nothing to orchestrate. */
	if (nsteps == 0) {
		set_want(out, MR_OUT_NO_STEPS, "Ready", "NoSteps",
			 xstrdup("No steps defined in strategy"), "True", stored_step);
		goto out_status;
	}

	/*
	 * Namespace and projectRef do not depend on the step: decide them once
	 * per Workspace rather than once per (step, Workspace).
	 */
	in_project = xmalloc((nws ? nws : 1) * sizeof(*in_project));
	for (size_t j = 0; j < nws; j++)
		in_project[j] = strcmp(ws[j]->ns, rollout->ns) == 0 &&
				strcmp(ws_project(ws[j]), project) == 0;

	/* resolve the steps into levels. */
	for (size_t i = 0; i < nsteps; i++) {
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
			out->error = xstrdup(err);
			set_want(out, MR_OUT_RECONCILE_ERROR, "Failed", "ReconcileError",
				 xstrdup(err), "False", stored_step);
			rc = MR_ERECONCILE;
			goto out_status;
		}
		val_free(empty);
		/* Room for every Workspace at once: growing one by one copied O(n²). */
		members = xmalloc((nws ? nws : 1) * sizeof(*members));
		for (size_t j = 0; j < nws; j++) {
			if (!in_project[j] || !lbl_matches(&sel, &ws[j]->labels))
				continue;
			members[nmembers++] = j;
		}
		lbl_selector_release(&sel);

		if (nmembers == 0) {
			free(members);
			set_want(out, MR_OUT_NO_WORKSPACES_FOUND, "Failed", "NoWorkspacesFound",
				 xasprintf("No workspaces found matching selector for step %s; "
					   "halting to prevent skipping environments",
					   sname),
				 "False", (int64_t)i);
			goto out_status;
		}

		if (out->nlevels > 0 && same_members(members, nmembers, prev, nprev)) {
			struct mr_level *last = &out->levels[out->nlevels - 1];
			char *names = xasprintf("%s, %s", last->names, sname);

			last->end_idx = i;
			free(last->names);
			last->names = names;
			free(members);
		} else {
			struct mr_level *l;

			out->levels = xreallocarray(out->levels, out->nlevels + 1,
						    sizeof(*out->levels));
			l = &out->levels[out->nlevels++];
			l->start_idx = i;
			l->end_idx = i;
			l->names = xstrdup(sname);
			l->members = members;
			l->nmembers = nmembers;
		}
		/* prev is the last level's member list: identical to this step's set */
		prev = out->levels[out->nlevels - 1].members;
		nprev = out->levels[out->nlevels - 1].nmembers;
	}

	/* the first level with pending work is current. */
	for (size_t li = 0; li < out->nlevels && out->current_level < 0; li++) {
		const struct mr_level *l = &out->levels[li];

		for (size_t k = 0; k < l->nmembers; k++) {
			if (mr_workspace_pending(ws[l->members[k]])) {
				out->current_level = (long)li;
				break;
			}
		}
	}
	if (out->current_level < 0) {
		set_want(out, MR_OUT_ROLLOUT_COMPLETED, "Applied", "RolloutCompleted",
			 xstrdup("All steps completed successfully"), "True", (int64_t)nsteps);
		goto out_status;
	}

	/* */
	cur = &out->levels[out->current_level];
	out->level_transition = (int64_t)cur->start_idx != stored_step;

	/* any failed member halts; no grants, no revocations. */
	for (size_t k = 0; k < cur->nmembers; k++) {
		if (mr_workspace_failed(ws[cur->members[k]])) {
			set_want(out, MR_OUT_STEP_FAILED, "Failed", "StepFailed",
				 xasprintf("One or more workspaces failed in level [%s]",
					   cur->names),
				 "False", (int64_t)cur->start_idx);
			goto out_status;
		}
	}

	/* grant pending members that lack permission (decided on the snapshot). */
	in_current = xcalloc(nws ? nws : 1, sizeof(*in_current));
	for (size_t k = 0; k < cur->nmembers; k++) {
		const struct obj *w = ws[cur->members[k]];

		in_current[cur->members[k]] = true;
		if (mr_workspace_failed(w)) /* dead code upstream: R-5 returned */
			continue;
		if (mr_workspace_pending(w) && !mr_workspace_allowed(w))
			push_name(&out->grant, &out->ngrant, w->name);
	}

	/* revoke from every other level, earlier and later alike. */
	for (size_t li = 0; li < out->nlevels; li++) {
		const struct mr_level *l = &out->levels[li];

		if ((long)li == out->current_level)
			continue;
		for (size_t k = 0; k < l->nmembers; k++) {
			const struct obj *w = ws[l->members[k]];

			if (in_current[l->members[k]]) {
				in_current[l->members[k]] = false; /* report each name once */
				push_name(&out->overlapping, &out->noverlapping, w->name);
			}
			if (mr_workspace_allowed(w))
				push_name(&out->revoke, &out->nrevoke, w->name);
		}
	}
	free(in_current);

	/* */
	set_want(out, MR_OUT_LEVEL_PROGRESSING, "Reconciling", "LevelProgressing",
		 xasprintf("Executing level [%s]", cur->names), "Unknown",
		 (int64_t)cur->start_idx);

out_status:
	free(in_project);
	out->status = mr_update_status(rollout, &out->want, true, now);
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
	for (size_t i = 0; i < r->nlevels; i++) {
		free(r->levels[i].names);
		free(r->levels[i].members);
	}
	free(r->levels);
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
