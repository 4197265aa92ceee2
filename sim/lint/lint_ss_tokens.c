/*
 * MS273: hand-stamped one-shot tokens the StageSet watch drops
 * (lint_ss_tokens.h).
 */
#include "sim/lint/lint_ss_tokens.h"

#include <stdlib.h>
#include <string.h>

#include "engine/stageset_env.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"

static const char *const tokens[] = { SSC_ANN_UPDATE_NOW, SSC_ANN_BUDGET_OVERRIDE, SSC_ANN_RESET_SCOPE };
static const char *const fields[] = { "lastHandledUpdateOverride", "lastHandledBudgetOverride",
				      "lastHandledResetScope" };
/* The annotations whose change the StageSet watch passes (W1), beside a generation change. */
static const char *const watched[] = { SSC_ANN_REQUESTED_AT, SSC_ANN_APPROVED_VERSION, SSC_ANN_ROLLBACK_TO,
				       SSC_ANN_PROMOTE, SSC_ANN_RECONCILE_STAGE };

#define N(a) (sizeof(a) / sizeof((a)[0]))

const char *lss_handled_field(const char *token)
{
	for (size_t i = 0; i < N(tokens); i++)
		if (!strcmp(token, tokens[i]))
			return fields[i];
	return NULL;
}

/* The value event @ev writes to annotation @key, or NULL when it does not write it. */
static const char *written(const struct scn_event *ev, const char *key)
{
	if (ev->type == SCN_EV_ANNOTATE)
		return obj_strmap_get(&ev->set, key);
	return val_str(val_map_get(val_path(ev->merge, "metadata.annotations"), key), NULL);
}

bool lss_unwatched_token(const struct scn_event *ev, const char **token, const char **value)
{
	const char *v;

	*token = *value = NULL;
	if ((ev->type != SCN_EV_ANNOTATE && ev->type != SCN_EV_PATCH) || !ev->target.kind ||
	    strcmp(ev->target.kind, "StageSet") != 0)
		return false;
	if (ev->type == SCN_EV_PATCH && val_map_get(ev->merge, "spec"))
		return false; /* a spec change bumps the generation, which the watch passes */
	for (size_t i = 0; i < N(watched); i++)
		if (written(ev, watched[i]))
			return false;
	for (size_t i = 0; i < N(tokens); i++)
		if ((v = written(ev, tokens[i])) && *v) {
			*token = tokens[i];
			*value = v;
			return true;
		}
	return false;
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

void lint_ss_tokens(struct lint_report *r, const struct scenario *s)
{
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];
		const char *token, *value;
		const struct obj *ss;
		const char *interval, *retry;
		char at[GT_DURATION_BUFSZ], *steady, *held;

		if (!lss_unwatched_token(ev, &token, &value) ||
		    !(ss = stageset(s, ev->target.ns, ev->target.name)))
			continue;
		gt_format_duration(ev->at_ms, at, sizeof(at));
		interval = val_str(val_map_get(ss->spec, "interval"), NULL);
		retry = val_str(val_map_get(ss->spec, "retryInterval"), NULL);
		steady = interval ? xasprintf("spec.interval %s", interval)
				  : xstrdup("the controller's default interval");
		held = retry ? xasprintf("retryInterval %s", retry)
			     : xstrdup("retryInterval (unset: the interval)");
		lint_add(r, "MS273", ev->file, ev->mark,
			 "scenario event %zu at %s stamps %s \"%s\" on StageSet %s/%s and changes nothing the "
			 "StageSet watch passes (no %s, no spec change): the controller drops the change, so "
			 "the StageSet reads the token only at its next pass of another cause (a requeue: "
			 "%s when steady, %s or a window's opening after a hold)",
			 ev->index + 1, at, token, value, ss->ns, ss->name, SSC_ANN_REQUESTED_AT, steady, held);
		free(steady);
		free(held);
	}
}
