/*
 * MS259: a reset-scope token stamped while the first stage fails
 * (lint_ss_reset.h).
 */
#include "sim/lint/lint_ss_reset.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/load/scn_ssworld.h"

/* The value event @ev writes to annotation @key on its target, or NULL. */
static const char *written(const struct scn_event *ev, const char *key)
{
	if (ev->type == SCN_EV_ANNOTATE)
		return obj_strmap_get(&ev->set, key);
	if (ev->type == SCN_EV_PATCH)
		return val_str(val_map_get(val_path(ev->merge, "metadata.annotations"), key), NULL);
	return NULL;
}

static const struct obj *stageset(const struct scenario *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];

		if (!strcmp(o->kind, "StageSet") && !strcmp(o->ns, ns) && !strcmp(o->name, name))
			return o;
	}
	return NULL;
}

/* Why the world fails @stage of @ss at @t_ms for certain (lint_ss_reset.h). */
bool lint_ss_failing_at(const struct scenario *s, const struct obj *ss, const char *stage, int64_t t_ms, char *buf,
			size_t len)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];
	struct scn_sw_resolved e;

	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *f = &s->fevents[i];
		bool hits = f->by_selector ? lbl_matches(&f->selector, &ss->labels) &&
						     (!f->target.ns || !strcmp(f->target.ns, ss->ns))
					   : f->target.name && !strcmp(f->target.name, ss->name) && f->target.ns &&
						     !strcmp(f->target.ns, ss->ns);

		if (f->type != SCN_FEV_REGRESS || f->done || !hits || t_ms < f->at_ms || t_ms >= f->at_ms + f->for_ms)
			continue;
		gt_format_duration(f->at_ms, a, sizeof(a));
		gt_format_duration(f->for_ms, b, sizeof(b));
		snprintf(buf, len, "the regress event at %s fails its workload for %s", a, b);
		return true;
	}
	scn_sw_resolve(&s->models.world, &ss->labels, stage, &e);
	if (e.apply_failure && e.apply_failure->probability >= 1 && e.apply_failure->during.n > 0 &&
	    scn_sw_in_windows(&e.apply_failure->during, t_ms)) {
		snprintf(buf, len, "its apply fails at \"%s\" then (apply.failure, probability 1)",
			 scn_sw_op_text(e.apply_failure->op));
		return true;
	}
	return false;
}

/* The Version-scoped pre and post actions of the stages after the first, as "prod: \"smoke\"" into @buf. */
static bool later_version_actions(const struct sst_spec *sp, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 1; k < sp->nstages; k++) {
		const struct sst_stage *st = &sp->stages[k];
		bool named = false;

		for (int ph = 0; ph < 2 && st->has_actions; ph++) {
			const struct sst_actions *list = ph ? &st->post : &st->pre;

			for (size_t i = 0; i < list->n && used < len; i++) {
				if (sst_action_scope(&list->items[i]) != SST_SCOPE_VERSION)
					continue;
				used += (size_t)snprintf(buf + used, len - used, "%s%s%s\"%s\"", used ? (named ? ", " : "; ") : "",
							 named ? "" : st->name, named ? "" : ": ", list->items[i].name);
				named = true;
			}
		}
	}
	return used > 0;
}

void lint_ss_reset(struct lint_report *r, const struct scenario *s)
{
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];
		const char *token = written(ev, SSC_ANN_RESET_SCOPE);
		const struct obj *ss;
		struct sst_spec sp;
		char err[256], why[160], acts[256], at[GT_DURATION_BUFSZ];

		if (!token || !*token || ev->done || !ev->target.kind || strcmp(ev->target.kind, "StageSet") != 0 ||
		    !(ss = stageset(s, ev->target.ns, ev->target.name)) || !ss->spec || ss->spec->type != VAL_MAP ||
		    sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
			continue;
		if (sp.nstages > 1 && later_version_actions(&sp, acts, sizeof(acts)) &&
		    lint_ss_failing_at(s, ss, sp.stages[0].name, ev->at_ms, why, sizeof(why))) {
			gt_format_duration(ev->at_ms, at, sizeof(at));
			lint_add(r, "MS259", ev->file, ev->mark,
				 "scenario event %zu at %s stamps stages.metio.wtf/reset-scope \"%s\" on StageSet %s/%s "
				 "while %s, so the pass that reads the token stops at its first stage \"%s\": it records "
				 "the token as handled, but the status it writes keeps the version ledgers of the later "
				 "stages, and no later pass clears them, so their Version-scoped actions (%s) do not run "
				 "again",
				 ev->index + 1, at, token, ss->ns, ss->name, why, sp.stages[0].name, acts);
		}
		sst_spec_release(&sp);
	}
}
