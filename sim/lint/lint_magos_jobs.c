/*
 * MS126: scripted events that name a Job no one creates (lint_magos_jobs.h).
 */
#include "sim/lint/lint_magos_jobs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/suggest.h"

static bool is_workspace(const struct obj *o)
{
	return o && !strcmp(o->kind, "Workspace") && o->api_version &&
	       !strncmp(o->api_version, "magosproject.io/", strlen("magosproject.io/"));
}

/* Whether a `patch` event of @s changes the spec of Workspace @ns/@name. */
static bool spec_patched(const struct scenario *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];

		if (ev->type == SCN_EV_PATCH && !strcmp(ev->target.kind, "Workspace") &&
		    !strcmp(ev->target.ns, ns) && !strcmp(ev->target.name, name) &&
		    val_map_get(ev->merge, "spec"))
			return true;
	}
	return false;
}

/* Names made for the suggestion, kept until it is read (struct sug borrows them). */
struct names {
	char **v; /* owned */
	size_t n;
};

/*
 * The Job names Workspace @ws will give (plan and apply), offered to @sg and
 * kept in @keep; true when @name is one of them, or when @ws's spec is
 * patched and @name has the shape of one of its Jobs (another hash).
 */
static bool workspace_job(const struct scenario *s, const struct obj *ws, const char *name,
			  struct sug *sg, struct names *keep)
{
	static const char *const types[] = { "plan", "apply" };
	char hash[9];
	bool found = false, patched = spec_patched(s, ws->ns, ws->name);

	mw_get_spec_hash(ws->spec, hash);
	for (size_t t = 0; t < 2 && !found; t++) {
		char *want = mw_job_name(ws->name, types[t], hash);
		size_t stem = strlen(want) - 8; /* up to the hash */

		found = !strcmp(want, name) || (patched && !strncmp(want, name, stem) &&
						  strlen(name) == strlen(want));
		keep->v = xreallocarray(keep->v, keep->n + 1, sizeof(*keep->v));
		keep->v[keep->n++] = want;
		sug_offer(sg, want);
	}
	return found;
}

/* Whether Job @ns/@name exists before event @upto: in the inputs or applied by an earlier event. */
static bool job_given(const struct scenario *s, const char *ns, const char *name, size_t upto,
		      struct sug *sg)
{
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];

		if (strcmp(o->kind, "Job") || strcmp(o->ns, ns))
			continue;
		sug_offer(sg, o->name);
		if (!strcmp(o->name, name))
			return true;
	}
	for (size_t i = 0; i < upto; i++) {
		const struct scn_event *ev = &s->events[i];

		if (ev->type != SCN_EV_APPLY || !ev->obj || strcmp(ev->obj->kind, "Job") ||
		    strcmp(ev->obj->ns, ns))
			continue;
		sug_offer(sg, ev->obj->name);
		if (!strcmp(ev->obj->name, name))
			return true;
	}
	return false;
}

void lint_magos_jobs(struct lint_report *r, const struct scenario *s)
{
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];
		const char *ns = ev->target.ns, *name = ev->target.name;
		bool found;
		struct sug sg;
		struct names keep = { NULL, 0 };

		if (ev->type == SCN_EV_APPLY || !ev->target.kind || strcmp(ev->target.kind, "Job") ||
		    !name || !ns)
			continue;
		sug_init(&sg, name);
		found = job_given(s, ns, name, i, &sg);
		for (size_t k = 0; k < s->nobjs && !found; k++)
			if (is_workspace(s->objs[k]) && !strcmp(s->objs[k]->ns, ns))
				found = workspace_job(s, s->objs[k], name, &sg, &keep);
		for (size_t k = 0; k < s->nevents && !found; k++)
			if (s->events[k].type == SCN_EV_APPLY && is_workspace(s->events[k].obj) &&
			    !strcmp(s->events[k].obj->ns, ns))
				found = workspace_job(s, s->events[k].obj, name, &sg, &keep);
		if (found)
			goto out_free_names;
		if (sug_best(&sg))
			lint_add(r, "MS126", ev->file, ev->mark,
				 "scenario event %zu (%s) names Job \"%s/%s\", which no input, earlier "
				 "event or Workspace creates (the Workspace controller names its Jobs "
				 "<workspace>-plan-<spec hash> and <workspace>-apply-<spec hash>): it "
				 "will not apply (NotFound); did you mean \"%s\"?",
				 ev->index + 1, scn_event_type_name(ev->type), ns, name, sug_best(&sg));
		else
			lint_add(r, "MS126", ev->file, ev->mark,
				 "scenario event %zu (%s) names Job \"%s/%s\", which no input, earlier "
				 "event or Workspace creates (the Workspace controller names its Jobs "
				 "<workspace>-plan-<spec hash> and <workspace>-apply-<spec hash>): it "
				 "will not apply (NotFound)",
				 ev->index + 1, scn_event_type_name(ev->type), ns, name);
out_free_names:
		for (size_t k = 0; k < keep.n; k++)
			free(keep.v[k]);
		free(keep.v);
	}
}
