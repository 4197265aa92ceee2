#include "engine/magos_project.h"

#include <stdlib.h>
#include <string.h>

#include "engine/bitset.h"
#include "engine/xalloc.h"

bool mp_workspace_has_pending_work(const struct obj *ws)
{
	const char *phase = val_str(val_map_get(ws->status, "phase"), "");
	const char *rev = obj_strmap_get(&ws->annotations, MR_ANN_DETECTED_REVISION);
	const char *req = obj_strmap_get(&ws->annotations, MR_ANN_RECONCILE_REQUEST);

	if (phase[0] == '\0' || strcmp(phase, "Pending") == 0)
		return true;
	if (rev && rev[0])
		return true;
	if (req && req[0])
		return true;
	return false;
}

static void want(struct mp_result *out, enum mp_outcome o, const char *phase, const char *reason,
		 char *message, const char *ready)
{
	out->outcome = o;
	out->has_status = true;
	out->want.phase = phase;
	out->want.reason = reason;
	out->want.message = message;
	out->want.ready = ready;
	out->want.current_step = 0;
}

/* The grant test of reconcileProject's loop, for a member of the project. */
static bool grantable(const struct obj *w)
{
	return !mr_workspace_allowed(w) && mp_workspace_has_pending_work(w);
}

struct mp_tally {
	size_t *pos;         /* the members' indices into the List, ascending */
	size_t n;
	struct bs_set grant; /* members (index into @pos) a pass would grant */
};

struct mp_tally *mp_tally_new(const struct obj *const *ws, const size_t *pos, size_t npos)
{
	struct mp_tally *t = xcalloc(1, sizeof(*t));

	t->pos = xmalloc((npos ? npos : 1) * sizeof(*t->pos));
	if (npos)
		memcpy(t->pos, pos, npos * sizeof(*pos));
	t->n = npos;
	bs_init(&t->grant, npos);
	for (size_t k = 0; k < npos; k++)
		bs_put(&t->grant, k, grantable(ws[pos[k]]));
	return t;
}

void mp_tally_update(struct mp_tally *t, size_t pos, const struct obj *ws)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->pos[mid] == pos) {
			bs_put(&t->grant, mid, grantable(ws));
			return;
		}
		if (t->pos[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
}

void mp_tally_free(struct mp_tally *t)
{
	if (!t)
		return;
	free(t->pos);
	bs_release(&t->grant);
	free(t);
}

int mp_reconcile_project_tally(const struct obj *project, const struct obj *rollout,
			       const struct mp_tally *t, const struct obj *const *ws,
			       const char *now, struct mp_result *out)
{
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	out->managed_by_rollout = -1;

	/* 1. not found */
	if (!project) {
		out->outcome = MP_OUT_NONE;
		return 0;
	}
	/* 2. finalizer first, even before looking at a deletion */
	if (!obj_has_finalizer(project, MP_FINALIZER)) {
		out->outcome = MP_OUT_ADD_FINALIZER;
		return 0;
	}
	/* 3. handleDeletion: status, then the finalizer goes (Workspaces stay) */
	if (project->deletion_ms >= 0) {
		want(out, MP_OUT_DELETING, "Deleting", "Deleting",
		     xstrdup("Project is being deleted"), "False");
		goto out_status;
	}
	/* 4. a Rollout of the same name takes over; nothing is revoked (issue #7) */
	if (rollout) {
		out->managed_by_rollout = 1;
		want(out, MP_OUT_MANAGED_BY_ROLLOUT, "Ready", "ManagedByRollout",
		     xasprintf("Project orchestration is deferred to Rollout %s", rollout->name),
		     "True");
		goto out_status;
	}
	/*
	 * 5. DefaultParallel: status first, then grant every member with
	 * pending work that lacks permission, in List order.
	 */
	out->managed_by_rollout = 0;
	want(out, MP_OUT_DEFAULT_PARALLEL, "Ready", "DefaultParallel",
	     xstrdup("Project is orchestrating workspaces in parallel"), "True");
	out->workspace_count = t->n;
	for (size_t k = bs_next(&t->grant, 0); k != BS_NONE; k = bs_next(&t->grant, k + 1)) {
		if (out->ngrant == cap) {
			cap = cap ? cap * 2 : 4;
			out->grant = xreallocarray(out->grant, cap, sizeof(*out->grant));
		}
		out->grant[out->ngrant++] = xstrdup(ws[t->pos[k]]->name);
	}

out_status:
	out->status = mr_update_status(project, &out->want, false, now);
	return 0;
}

int mp_reconcile_project(const struct obj *project, const struct obj *rollout,
			 const struct obj *const *ws, size_t nws, const char *now,
			 struct mp_result *out)
{
	struct mp_tally *t;
	size_t *pos, npos = 0;
	int rc;

	if (!project)
		return mp_reconcile_project_tally(NULL, rollout, NULL, ws, now, out);
	/* the members: same namespace, projectRef naming the Project */
	pos = xmalloc((nws ? nws : 1) * sizeof(*pos));
	for (size_t i = 0; i < nws; i++) {
		const struct obj *w = ws[i];

		if (strcmp(w->ns, project->ns) != 0)
			continue;
		if (strcmp(val_str(val_path(w->spec, "projectRef.name"), ""), project->name) != 0)
			continue;
		pos[npos++] = i;
	}
	t = mp_tally_new(ws, pos, npos);
	rc = mp_reconcile_project_tally(project, rollout, t, ws, now, out);
	mp_tally_free(t);
	free(pos);
	return rc;
}

void mp_result_release(struct mp_result *r)
{
	if (!r)
		return;
	free(r->want.message);
	for (size_t i = 0; i < r->ngrant; i++)
		free(r->grant[i]);
	free(r->grant);
	val_free(r->status);
	memset(r, 0, sizeof(*r));
	r->managed_by_rollout = -1;
}

const char *mp_outcome_name(enum mp_outcome o)
{
	switch (o) {
	case MP_OUT_NONE:
		return "None";
	case MP_OUT_ADD_FINALIZER:
		return "AddFinalizer";
	case MP_OUT_DELETING:
		return "Deleting";
	case MP_OUT_MANAGED_BY_ROLLOUT:
		return "ManagedByRollout";
	case MP_OUT_DEFAULT_PARALLEL:
		return "DefaultParallel";
	case MP_OUT_RECONCILE_ERROR:
		return "ReconcileError";
	}
	return "unknown";
}
