/*
 * MS120 and MS121: a Workspace's policy validation, as its manifests and
 * its Project's set it, against the field docs (lint_magos_policy.h).
 */
#include "sim/lint/lint_magos_policy.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/admission.h"

static bool is_magos(const struct obj *o, const char *kind)
{
	return adm_in_group(o, ADM_GROUP_MAGOS, kind);
}

static bool non_nil(const struct val *v)
{
	return v && v->type != VAL_NULL;
}

/*
 * The Workspaces and Projects as the inputs and `apply` events leave them
 * (an apply event's object replaces the input of the same name), and the
 * ValidatingPolicies the inputs and events create.
 */
struct policy_scan {
	struct strindex ws, projects; /* "ns/name" → index into @wsv, @projv */
	const struct obj **wsv, **projv; /* owned arrays of borrowed objects */
	size_t nws, nproj;
	size_t npolicies;
	const char *first_policy; /* borrowed */
};

static void put(struct strindex *x, const struct obj **v, size_t *n, const struct obj *o)
{
	char buf[256], *k = kb_join2(buf, sizeof(buf), o->ns, o->name);
	size_t pos;

	if (si_get(x, k, &pos)) {
		v[pos] = o;
	} else {
		v[*n] = o;
		si_put(x, k, (*n)++);
	}
	kb_drop(k, buf);
}

static void add_object(struct policy_scan *p, const struct obj *o)
{
	if (!o)
		return;
	if (is_magos(o, "Workspace")) {
		put(&p->ws, p->wsv, &p->nws, o);
	} else if (is_magos(o, "Project")) {
		put(&p->projects, p->projv, &p->nproj, o);
	} else if (strcmp(o->kind, "ValidatingPolicy") == 0) {
		if (!p->npolicies++)
			p->first_policy = o->name;
	}
}

static const struct obj *project_of(const struct policy_scan *p, const struct obj *ws)
{
	const char *name = val_str(val_path(ws->spec, "projectRef.name"), "");
	char buf[256], *k = kb_join2(buf, sizeof(buf), ws->ns, name);
	size_t pos;
	bool found = si_get(&p->projects, k, &pos);

	kb_drop(k, buf);
	return found ? p->projv[pos] : NULL;
}

static struct val_mark mark_of(const struct val *v, const struct obj *o)
{
	return v && v->mark.line ? v->mark : o->src.mark;
}

/* What the inputs hold of ValidatingPolicies, for the messages. */
static char *policies_text(const struct policy_scan *p)
{
	if (!p->npolicies)
		return xstrdup("no ValidatingPolicy is in the inputs either");
	if (p->npolicies == 1)
		return xasprintf("so ValidatingPolicy \"%s\" of the inputs is never checked",
				 p->first_policy);
	return xasprintf("so none of the %zu ValidatingPolicies of the inputs (\"%s\", ...) is "
			 "ever checked",
			 p->npolicies, p->first_policy);
}

static void check_workspace(struct lint_report *r, const struct policy_scan *p, const struct obj *ws)
{
	const struct val *valid = val_map_get(ws->spec, "validation");
	const struct val *wsel = val_map_get(valid, "policySelector");
	const struct obj *project = project_of(p, ws);
	const struct val *pvalid = project ? val_map_get(project->spec, "validation") : NULL;
	const struct val *psel = val_map_get(pvalid, "policySelector");
	char *pols, *effective;

	if (non_nil(valid) && non_nil(wsel)) {
		if (!lbl_val_is_empty_selector(wsel))
			return;
		pols = policies_text(p);
		lint_add(r, "MS120", ws->src.file, mark_of(wsel, ws),
			 "Workspace \"%s/%s\": its validation.policySelector is {}, which the field's "
			 "doc says matches every ValidatingPolicy, but the Workspace controller turns "
			 "the empty selector into \"\", which means no validation: its plan Jobs get no "
			 "MAGOS_POLICY_SELECTOR and its plans never end ValidationFailed, %s%s",
			 ws->ns, ws->name, pols,
			 non_nil(psel) ? ", and its Project's policySelector is not used either" : "");
		free(pols);
		return;
	}
	if (!project || !non_nil(pvalid) || !non_nil(psel))
		return;
	if (lbl_val_is_empty_selector(psel)) {
		pols = policies_text(p);
		lint_add(r, "MS120", project->src.file, mark_of(psel, project),
			 "Workspace \"%s/%s\" %s Project \"%s/%s\"'s validation.policySelector, which "
			 "is {}: the field's doc says {} matches every ValidatingPolicy, but the "
			 "Workspace controller turns the empty selector into \"\", which means no "
			 "validation: the Workspace's plan Jobs get no MAGOS_POLICY_SELECTOR and its "
			 "plans never end ValidationFailed, %s",
			 ws->ns, ws->name,
			 non_nil(valid) ? "sets validation without a policySelector and so falls back to"
					: "falls back to",
			 project->ns, project->name, pols);
		free(pols);
		return;
	}
	if (!non_nil(valid))
		return;
	effective = mw_resolve_effective_policy_selector(ws, project);
	if (*effective)
		lint_add(r, "MS121", ws->src.file, mark_of(valid, ws),
			 "Workspace \"%s/%s\": spec.validation is set without a policySelector; the "
			 "field's doc says a non-nil validation overrides the Project's default, but "
			 "the Workspace controller falls back to Project \"%s/%s\"'s policySelector "
			 "whenever the Workspace's own is nil, so its plans are checked against the "
			 "Project's policies (selector \"%s\") and fail ValidationFailed on their "
			 "violations",
			 ws->ns, ws->name, project->ns, project->name, effective);
	free(effective);
}

void lint_magos_policy(struct lint_report *r, const struct scenario *s)
{
	struct policy_scan p;
	size_t cap = s->nobjs + s->nevents + 1;

	memset(&p, 0, sizeof(p));
	p.wsv = xcalloc(cap, sizeof(*p.wsv));
	p.projv = xcalloc(cap, sizeof(*p.projv));
	for (size_t i = 0; i < s->nobjs; i++)
		add_object(&p, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY)
			add_object(&p, s->events[i].obj);
	for (size_t i = 0; i < p.nws; i++)
		check_workspace(r, &p, p.wsv[i]);
	si_release(&p.ws);
	si_release(&p.projects);
	free(p.wsv);
	free(p.projv);
}
