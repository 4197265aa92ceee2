#include "engine/magos_project.h"

#include <stdlib.h>
#include <string.h>

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

int mp_reconcile_project(const struct obj *project, const struct obj *rollout,
			 const struct obj *const *ws, size_t nws, const char *now,
			 struct mp_result *out)
{
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
	/* 5. DefaultParallel: status first, then grant every member with pending work */
	out->managed_by_rollout = 0;
	want(out, MP_OUT_DEFAULT_PARALLEL, "Ready", "DefaultParallel",
	     xstrdup("Project is orchestrating workspaces in parallel"), "True");
	for (size_t i = 0; i < nws; i++) {
		const struct obj *w = ws[i];

		if (strcmp(w->ns, project->ns) != 0)
			continue;
		if (strcmp(val_str(val_path(w->spec, "projectRef.name"), ""), project->name) != 0)
			continue;
		out->workspace_count++;
		if (mr_workspace_allowed(w))
			continue;
		if (mp_workspace_has_pending_work(w)) {
			out->grant = xreallocarray(out->grant, out->ngrant + 1, sizeof(*out->grant));
			out->grant[out->ngrant++] = xstrdup(w->name);
		}
	}

out_status:
	out->status = mr_update_status(project, &out->want, false, now);
	return 0;
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
