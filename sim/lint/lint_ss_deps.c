/*
 * MS272: a dependency's own rollout flips its deployed dependents
 * (lint_ss_deps.h).
 */
#include "sim/lint/lint_ss_deps.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint_ss_ledgers.h"

static const struct obj *stageset(const struct scenario *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (scn_is_stageset(s->objs[i]) && !strcmp(s->objs[i]->ns, ns) && !strcmp(s->objs[i]->name, name))
			return s->objs[i];
	return NULL;
}

static const struct obj_strmap *ns_labels(const struct scenario *s, const char *ns)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (!strcmp(s->objs[i]->kind, "Namespace") && !strcmp(s->objs[i]->name, ns))
			return &s->objs[i]->labels;
	return NULL;
}

bool lint_ss_publish_reaches(const struct scenario *s, const struct scn_fevent *p, const struct obj *ss)
{
	const struct obj_strmap *nl;

	if (p->type != SCN_FEV_PUBLISH || !lbl_matches(&p->selector, &ss->labels))
		return false;
	if (!p->has_ns_selector)
		return true;
	nl = ns_labels(s, ss->ns);
	return nl && lbl_matches(&p->ns_selector, nl);
}

/* What keeps @dep not ready for long while it rolls out, in words ("" when nothing stands out). */
static char *slow_part(const struct obj *dep)
{
	const struct val *stages = val_map_get(dep->spec, "stages");

	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n; i++) {
		const struct val *st = stages->u.list.items[i];
		const char *soak = val_str(val_path(st, "promotion.soak"), "");
		int64_t ms;

		if (*soak && gt_parse_duration(soak, &ms, NULL, 0) == 0 && ms > 0)
			return xasprintf(" (its stage \"%s\" soaks %s before promotion)",
					 val_str(val_map_get(st, "name"), ""), soak);
	}
	if (!strcmp(val_str(val_path(dep->spec, "version.approvalMode"), ""), "Always"))
		return xstrdup(" (with approvalMode Always it waits for an approval first)");
	return xstrdup("");
}

static void check_dependent(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *deps = val_map_get(ss->spec, "dependsOn");

	for (size_t i = 0; deps && deps->type == VAL_LIST && i < deps->u.list.n; i++) {
		const struct val *d = deps->u.list.items[i];
		const char *ns = val_str(val_map_get(d, "namespace"), ss->ns);
		const struct obj *dep = stageset(s, *ns ? ns : ss->ns, val_str(val_map_get(d, "name"), ""));
		const struct scn_fevent *p = NULL;
		char at[GT_DURATION_BUFSZ], *slow;

		if (!dep || dep == ss)
			continue;
		for (size_t k = 0; k < s->nfevents && !p; k++)
			if (s->fevents[k].at_ms < s->horizon_ms && lint_ss_publish_reaches(s, &s->fevents[k], dep) &&
			    !lint_ss_publish_reaches(s, &s->fevents[k], ss))
				p = &s->fevents[k];
		if (!p)
			continue;
		gt_format_duration(p->at_ms, at, sizeof(at));
		slow = slow_part(dep);
		lint_add(r, "MS272", ss->src.file, d->mark.line ? d->mark : ss->src.mark,
			 "StageSet %s/%s dependsOn %s/%s, and scenario event %zu at %s publishes %s to %s/%s and "
			 "not to %s/%s: the controller checks dependencies on every pass, and %s/%s is not "
			 "ready while it rolls that version out%s, so %s/%s, if deployed by then, turns Ready "
			 "False DependencyNotReady on its next pass although it has nothing to roll out, and "
			 "skips its own drift correction until %s/%s is Ready again",
			 ss->ns, ss->name, dep->ns, dep->name, p->index + 1, at, p->version ? p->version : "",
			 dep->ns, dep->name, ss->ns, ss->name, dep->ns, dep->name, slow, ss->ns, ss->name,
			 dep->ns, dep->name);
		free(slow);
	}
}

void lint_ss_deps(struct lint_report *r, const struct scenario *s)
{
	if (!s->nfevents)
		return;
	for (size_t i = 0; i < s->nobjs; i++)
		if (scn_is_stageset(s->objs[i]))
			check_dependent(r, s, s->objs[i]);
}
