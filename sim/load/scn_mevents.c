/*
 * Model events of spec.events: the actions that act on the models rather
 * than write an object (commit, failNext, succeedNext, violate,
 * reconcileRequest, approve).  Their schema, their records
 * (scenario.mevents) and the checks of what they name: the Workspace, the
 * ValidatingPolicy, the ref a commit goes to.
 */
#include "sim/load/scn_parse.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

/* ---------------------------------------------------------------- schema */

const char *const scnp_maction_names[] = { "commit", "failNext", "succeedNext", "violate",
					   "reconcileRequest", "approve", NULL };

/* A Workspace named by a model event: kind (only Workspace), namespace, name. */
static const char *const ws_kinds[] = { "Workspace", NULL };
static const struct sch_node ws_kind_node = { .type = SCH_STRING, .enum_values = ws_kinds };
#define WS_TARGET_FIELDS                                                      \
	{ .name = "kind", .schema = &ws_kind_node },                          \
	{ .name = "namespace", .schema = &sch_string },                       \
	{ .name = "name", .schema = &sch_string_nonempty, .required = true }

static const struct sch_field commit_fields[] = {
	{ .name = "repoURL", .schema = &sch_string_nonempty, .required = true },
	{ .name = "ref", .schema = &sch_string },
	{ .name = "sha", .schema = &scnp_sha_node },
	{ .name = NULL },
};
const struct sch_node scnp_commit_node = { .type = SCH_OBJECT, .fields = commit_fields };

static const char *const job_types[] = { "plan", "apply", NULL };
static const struct sch_node job_type_node = { .type = SCH_STRING, .enum_values = job_types };
static const struct sch_field next_fields[] = {
	WS_TARGET_FIELDS,
	{ .name = "job", .schema = &job_type_node, .required = true },
	{ .name = NULL },
};
const struct sch_node scnp_next_node = { .type = SCH_OBJECT, .fields = next_fields };

static const struct sch_field violate_fields[] = {
	WS_TARGET_FIELDS,
	{ .name = "policy", .schema = &sch_string_nonempty, .required = true },
	{ .name = NULL },
};
const struct sch_node scnp_violate_node = { .type = SCH_OBJECT, .fields = violate_fields };

static const struct sch_field rrequest_fields[] = {
	WS_TARGET_FIELDS,
	{ .name = "value", .schema = &sch_string_nonempty },
	{ .name = NULL },
};
const struct sch_node scnp_rrequest_node = { .type = SCH_OBJECT, .fields = rrequest_fields };

static const struct sch_field approve_fields[] = { WS_TARGET_FIELDS, { .name = NULL } };
const struct sch_node scnp_approve_node = { .type = SCH_OBJECT, .fields = approve_fields };

/* ---------------------------------------------------------------- building */

void scnp_build_mevent(struct loader *L, const struct event_head *h)
{
	const struct val_kv *act = h->act;
	struct scn_mevent *e = &L->s->mevents[L->s->nmevents++];

	*e = (struct scn_mevent){ .type = (enum scn_mevent_type)h->type, .at_ms = h->at_ms,
				  .index = h->index, .file = h->file, .mark = act->key_mark };
	if (e->type == SCN_MEV_COMMIT) {
		const char *sha = val_str(val_map_get(act->v, "sha"), NULL);
		const char *ref = val_str(val_map_get(act->v, "ref"), NULL);

		e->repo_url = xstrdup(val_str(val_map_get(act->v, "repoURL"), ""));
		e->ref = ref ? xstrdup(ref) : NULL; /* resolved by scnp_check_mevents() */
		e->sha = sha ? xstrdup(sha) : NULL;
	} else {
		const char *ns = val_str(val_map_get(act->v, "namespace"), "");

		e->target.kind = xstrdup("Workspace");
		e->target.ns = xstrdup(ns[0] ? ns : "default");
		e->target.name = xstrdup(val_str(val_map_get(act->v, "name"), ""));
		if (e->type == SCN_MEV_FAIL_NEXT || e->type == SCN_MEV_SUCCEED_NEXT)
			e->job = strcmp(val_str(val_map_get(act->v, "job"), ""), "apply") == 0 ?
					 SCN_JOB_APPLY :
					 SCN_JOB_PLAN;
		if (e->type == SCN_MEV_VIOLATE)
			e->policy = xstrdup(val_str(val_map_get(act->v, "policy"), ""));
		if (e->type == SCN_MEV_RECONCILE_REQUEST && val_map_get(act->v, "value"))
			e->value = xstrdup(val_str(val_map_get(act->v, "value"), ""));
	}
}

/* ---------------------------------------------------------------- checks */

/* Workspaces the run can ever hold: the inputs' and those of apply events. */
static void each_workspace(const struct scenario *s,
			   void (*fn)(const struct obj *ws, void *ctx), void *ctx)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "Workspace") == 0)
			fn(s->objs[i], ctx);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].obj && strcmp(s->events[i].obj->kind, "Workspace") == 0)
			fn(s->events[i].obj, ctx);
}

/* What collect_refs() gathers: the distinct refs Workspaces on one repository track. */
struct tracked {
	const char *url;
	const char *head;
	const char **refs; /* canonical, borrowed */
	size_t n;
	size_t nws;        /* Workspaces on the repository */
};

static bool is_sha_ref(const char *ref)
{
	return strlen(ref) == 40;
}

static void collect_refs(const struct obj *ws, void *ctx)
{
	struct tracked *t = ctx;
	const char *url = val_str(val_path(ws->spec, "source.repoURL"), "");
	const char *rev = val_str(val_path(ws->spec, "source.targetRevision"), "");
	const char *c;

	if (strcmp(url, t->url) != 0)
		return;
	t->nws++;
	if (is_sha_ref(rev))
		return; /* pinned: resolves to itself, no commit moves it */
	c = scn_canonical_ref(rev, t->head);
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->refs[i], c) == 0)
			return;
	t->refs = xreallocarray(t->refs, t->n + 1, sizeof(*t->refs));
	t->refs[t->n++] = c;
}

void scnp_check_mevents(struct loader *L)
{
	struct scenario *s = L->s;

	for (size_t i = 0; i < s->nmevents; i++) {
		struct scn_mevent *e = &s->mevents[i];
		const char *action = scn_mevent_type_name(e->type);

		if (e->type == SCN_MEV_COMMIT) {
			struct tracked t = { e->repo_url, scn_git_head(&s->models, e->repo_url), NULL,
					     0, 0 };

			each_workspace(s, collect_refs, &t);
			if (!e->ref && t.n > 1) {
				char *list = xstrjoin(t.refs, t.n, ", ");

				diag_error(L->d, e->file, e->mark,
					   "spec.events[%zu].commit.ref: Required value: the Workspaces "
					   "on \"%s\" track several refs (%s)",
					   e->index, e->repo_url, list);
				diag_note(L->d, e->file, e->mark,
					  "say which one the commit goes to, e.g. ref: %s", t.refs[0]);
				free(list);
			} else if (!e->ref) {
				e->ref = xstrdup(t.n ? t.refs[0] : t.head);
			}
			if (t.nws == 0) {
				diag_warning(L->d, e->file, e->mark,
					     "spec.events[%zu].commit: no Workspace uses repository "
					     "\"%s\"; no RefWatcher will see this commit",
					     e->index, e->repo_url);
			} else if (e->ref) {
				bool tracked = false;
				const char *c = scn_canonical_ref(e->ref, t.head);

				for (size_t j = 0; j < t.n; j++)
					tracked = tracked || strcmp(t.refs[j], c) == 0;
				if (!tracked)
					diag_warning(L->d, e->file, e->mark,
						     "spec.events[%zu].commit: no Workspace on \"%s\" "
						     "tracks ref \"%s\"; no RefWatcher will see this "
						     "commit",
						     e->index, e->repo_url, e->ref);
			}
			free(t.refs);
			continue;
		}
		if (scnp_missing(L, "Workspace", e->target.ns, e->target.name, e->at_ms))
			scnp_report_not_found(L, e->file, e->mark, e->index, action, &e->target);
		if (e->type == SCN_MEV_VIOLATE &&
		    scnp_missing(L, "ValidatingPolicy", "", e->policy, e->at_ms)) {
			diag_error(L->d, e->file, e->mark,
				   "spec.events[%zu].violate.policy: ValidatingPolicy \"%s\" not found",
				   e->index, e->policy);
			diag_note(L->d, e->file, e->mark,
				  "a violation names a policies.kyverno.io/v1 ValidatingPolicy of the "
				  "inputs");
		}
	}
}

/* ---------------------------------------------------------------- release */

void scnp_mevent_release(struct scn_mevent *e)
{
	scnp_target_release(&e->target);
	free(e->policy);
	free(e->value);
	free(e->repo_url);
	free(e->ref);
	free(e->sha);
}

const char *scn_mevent_type_name(enum scn_mevent_type t)
{
	return scnp_name_at(scnp_maction_names, (size_t)t);
}
