/*
 * The policy validation a Workspace's plan Jobs ran, against the field docs
 * (magos_policy.h).
 */
#include "sim/run/magos_policy.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/admission.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/run/magos_jobname.h"

enum pol_case {
	POL_EMPTY_OWN,     /* the Workspace's own policySelector is {} */
	POL_EMPTY_PROJECT, /* the Project's policySelector, which applies, is {} */
	POL_INHERITED,     /* validation set without a selector: the Project's applies */
};

/* One Workspace whose validation a notice may concern; strings borrow the store's. */
struct polws {
	const char *ns, *name, *project;
	enum pol_case what;
	char *selector;         /* owned: the selector string that applies */
	size_t nsucceeded;      /* plan Jobs that succeeded */
	size_t nchecked;        /* plan Jobs that wrote a policy result */
	int64_t succeeded_ms, checked_ms; /* the first of each, -1 none */
};

static bool non_nil(const struct val *v)
{
	return v && v->type != VAL_NULL;
}

/* Which case of magos_policy.h @ws is in; false for none. */
static bool classify(struct api *a, const struct obj *ws, struct polws *out)
{
	const struct val *valid = val_map_get(ws->spec, "validation");
	const struct val *wsel = val_map_get(valid, "policySelector");
	const char *pname = val_str(val_path(ws->spec, "projectRef.name"), "");
	const struct obj *project = api_get(a, "Project", ws->ns, pname);
	const struct val *psel = project ? val_path(project->spec, "validation.policySelector") : NULL;

	memset(out, 0, sizeof(*out));
	out->ns = ws->ns;
	out->name = ws->name;
	out->project = pname;
	out->succeeded_ms = out->checked_ms = -1;
	if (non_nil(valid) && non_nil(wsel)) {
		out->what = POL_EMPTY_OWN;
		return lbl_val_is_empty_selector(wsel);
	}
	if (!project || !non_nil(val_map_get(project->spec, "validation")) || !non_nil(psel))
		return false;
	if (lbl_val_is_empty_selector(psel)) {
		out->what = POL_EMPTY_PROJECT;
		return true;
	}
	if (!non_nil(valid))
		return false;
	out->what = POL_INHERITED;
	out->selector = mw_resolve_effective_policy_selector(ws, project);
	if (*out->selector)
		return true;
	free(out->selector);
	out->selector = NULL;
	return false;
}

static void job_entry(struct polws *v, size_t n, const struct strindex *idx, const struct tl_entry *e)
{
	char wname[256], buf[256], *k;
	size_t pos;
	bool found;
	struct polws *p;

	if (!e->detail || !mjn_workspace(e->name, "plan", wname, sizeof(wname)))
		return;
	k = kb_join2(buf, sizeof(buf), e->ns, wname);
	found = si_get(idx, k, &pos);
	kb_drop(k, buf);
	if (!found || pos >= n)
		return;
	p = &v[pos];
	if (e->change == TL_UPDATED && strstr(e->detail, "podLog")) {
		if (!p->nchecked++)
			p->checked_ms = e->t_ms;
	} else if (e->change == TL_STATUS && strncmp(e->detail, "status: succeeded", 17) == 0) {
		if (!p->nsucceeded++)
			p->succeeded_ms = e->t_ms;
	}
}

static void tell(struct des *w, const struct polws *p, char *text)
{
	struct tl_objref ref = { "Workspace", p->ns, p->name, 0 };

	tl_notice_add(des_timeline(w), des_end(w), TL_WARNING, text, &ref, 1);
	free(text);
}

static void tell_unchecked(struct des *w, const struct polws *p, const struct api_list *pols)
{
	char t[GT_DURATION_BUFSZ];
	char *unchecked = pols->n == 1
				  ? xasprintf("the cluster's ValidatingPolicy \"%s\" was not checked",
					      pols->items[0]->name)
				  : xasprintf("none of the %zu ValidatingPolicies in the cluster was "
					      "checked",
					      pols->n);
	char *whose = p->what == POL_EMPTY_OWN
			      ? xstrdup("its validation.policySelector")
			      : xasprintf("Project %s/%s's validation.policySelector, which it falls "
					  "back to,",
					  p->ns, p->project);

	gt_format_duration(p->succeeded_ms, t, sizeof(t));
	tell(w, p,
	     xasprintf("Workspace %s/%s: %zu plan%s passed without policy validation, the first at "
		       "%s: %s is {}, which the controller turns into no MAGOS_POLICY_SELECTOR, so "
		       "%s, although the field's doc says {} matches every ValidatingPolicy; select "
		       "the policies by a label they carry",
		       p->ns, p->name, p->nsucceeded, p->nsucceeded == 1 ? "" : "s", t, whose,
		       unchecked));
	free(unchecked);
	free(whose);
}

static void tell_inherited(struct des *w, const struct polws *p)
{
	char t[GT_DURATION_BUFSZ];

	gt_format_duration(p->checked_ms, t, sizeof(t));
	tell(w, p,
	     xasprintf("Workspace %s/%s: %zu of its plans %s checked against Project %s/%s's "
		       "policies (selector \"%s\"), the first at %s, although its spec.validation is "
		       "set without a policySelector, which the field's doc says overrides the "
		       "Project's default: the controller falls back to the Project's selector "
		       "whenever the Workspace's own is nil; give the Workspace its own "
		       "policySelector",
		       p->ns, p->name, p->nchecked, p->nchecked == 1 ? "was" : "were", p->ns,
		       p->project, p->selector, t));
}

static bool magos_workspace(const struct obj *o, void *ctx)
{
	(void)ctx;
	return adm_in_group(o, ADM_GROUP_MAGOS, NULL);
}

void mpol_end_of_run(struct des *w)
{
	struct api *a = des_api(w);
	const struct tl *tl = des_timeline(w);
	struct api_list wss, pols;
	struct strindex idx;
	struct polws *v;
	size_t n = 0, npolicies;

	api_list_init(&wss);
	api_list_init(&pols);
	memset(&idx, 0, sizeof(idx));
	api_list(a, "Workspace", NULL, magos_workspace, NULL, &wss);
	npolicies = api_list(a, "ValidatingPolicy", NULL, NULL, NULL, &pols);
	v = xcalloc(wss.n + 1, sizeof(*v));
	for (size_t i = 0; i < wss.n; i++) {
		char buf[256], *k;

		if (!classify(a, wss.items[i], &v[n]))
			continue;
		k = kb_join2(buf, sizeof(buf), v[n].ns, v[n].name);
		si_put(&idx, k, n);
		kb_drop(k, buf);
		n++;
	}
	for (size_t i = 0, ne = n ? tl_count(tl) : 0; i < ne; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (strcmp(e.kind, "Job") == 0)
			job_entry(v, n, &idx, &e);
	}
	for (size_t i = 0; i < n; i++) {
		if (v[i].what == POL_INHERITED) {
			if (v[i].nchecked)
				tell_inherited(w, &v[i]);
		} else if (npolicies && v[i].nsucceeded && !v[i].nchecked) {
			tell_unchecked(w, &v[i], &pols);
		}
		free(v[i].selector);
	}
	free(v);
	si_release(&idx);
	api_list_release(&pols);
	api_list_release(&wss);
}
