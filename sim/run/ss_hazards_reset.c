/*
 * Reset-scope tokens burned by a pass that stopped early (ss_hazards_reset.h).
 */
#include "sim/run/ss_hazards_reset.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_controller.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/models/stageset_world_stages.h"
#include "sim/wire/fleet_glue.h"
#include "sim/wire/stageset_rc.h"

/* The stage a Ready message names ("stage \"app\" ..."), a new string, or NULL. */
static char *stage_of(const char *msg)
{
	const char *b, *e;

	if (!msg || strncmp(msg, "stage \"", 7) != 0)
		return NULL;
	b = msg + 7;
	e = strchr(b, '"');
	return e ? xstrndup(b, (size_t)(e - b)) : NULL;
}

/*
 * Each StageSet's first status write that recorded lastHandledResetScope,
 * "ns/name" -> its timeline position, in @first: one scan of the timeline
 * for all StageSets (a scan per StageSet made the notice quadratic).
 */
static void first_token_writes(const struct tl *tl, struct strindex *first)
{
	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;
		char buf[256], *k;
		size_t pos;

		tl_get(tl, i, &e);
		if (e.change != TL_STATUS || !e.kind || strcmp(e.kind, "StageSet") != 0 || !e.detail ||
		    !strstr(e.detail, "lastHandledResetScope"))
			continue;
		k = kb_join2(buf, sizeof(buf), e.ns ? e.ns : "", e.name);
		if (!si_get(first, k, &pos))
			si_put(first, k, i);
		kb_drop(k, buf);
	}
}

/* The first status write of @ss that recorded the token with a reason other than Succeeded, into @e; false none. */
static bool burned(const struct tl *tl, const struct strindex *first, const struct obj *ss, struct tl_entry *out)
{
	char buf[256], *k = kb_join2(buf, sizeof(buf), ss->ns, ss->name);
	struct tl_entry e;
	size_t pos;
	bool found = si_get(first, k, &pos);

	kb_drop(k, buf);
	if (!found)
		return false;
	tl_get(tl, pos, &e);
	if (!e.reason || strcmp(e.reason, SSC_REASON_READY) == 0)
		return false; /* the first pass that read a token went through every stage */
	*out = e;
	return true;
}

/* Appends ", prod's Version-scoped action \"smoke\" ran N times" for each such action after stage @after. */
static bool later_runs(const struct sw_world *w, const struct obj *ss, const struct sst_spec *sp, const char *after,
		       char *buf, size_t len)
{
	size_t used = 0;
	bool past = false;

	buf[0] = '\0';
	for (size_t k = 0; k < sp->nstages; k++) {
		const struct sst_stage *st = &sp->stages[k];

		if (!past) {
			past = strcmp(st->name, after) == 0;
			continue;
		}
		for (int ph = 0; ph < 2 && st->has_actions; ph++) {
			const struct sst_actions *list = ph ? &st->post : &st->pre;

			for (size_t i = 0; i < list->n && used < len; i++) {
				uint32_t runs;

				if (sst_action_scope(&list->items[i]) != SST_SCOPE_VERSION)
					continue;
				runs = swst_action_attempts(w, ss->ns, ss->name, st->name, ph ? "post" : "pre",
							    list->items[i].name);
				used += (size_t)snprintf(buf + used, len - used, "%s%s's Version-scoped %s action \"%s\" "
							 "ran %u time%s", used ? ", " : "", st->name,
							 ph ? "post" : "pre", list->items[i].name, runs,
							 runs == 1 ? "" : "s");
			}
		}
	}
	return used > 0;
}

void ss_hazards_reset(struct run_result *r, const struct scenario *s)
{
	const struct ssrc *rc = fleet_glue_ssrc(r->fleet);
	const struct tl *tl = des_timeline(r->world);
	struct strindex first = { 0 };

	if (!rc)
		return;
	first_token_writes(tl, &first);
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *in = s->objs[i], *ss;
		struct tl_entry e;
		struct sst_spec sp;
		char err[256], runs[512], at[GT_DURATION_BUFSZ], *stage, *text;
		struct tl_objref ref;

		if (strcmp(in->kind, "StageSet") != 0 || !(ss = api_get(des_api(r->world), "StageSet", in->ns, in->name)) ||
		    !burned(tl, &first, ss, &e) || !(stage = stage_of(e.message)))
			continue;
		if (!ss->spec || ss->spec->type != VAL_MAP || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0) {
			free(stage);
			continue;
		}
		if (later_runs(ssrc_world(rc), ss, &sp, stage, runs, sizeof(runs))) {
			gt_format_duration(e.t_ms, at, sizeof(at));
			ref = (struct tl_objref){ "StageSet", ss->ns, ss->name, 0 };
			text = xasprintf("StageSet %s/%s: the reset-scope token \"%s\" was recorded as handled at %s by a "
					 "pass that stopped at stage \"%s\" (%s), so the version ledgers of the stages "
					 "after it were never cleared for it: %s in the whole run; stamp reset-scope again, "
					 "with a new value, once the StageSet is Ready",
					 ss->ns, ss->name, obj_strmap_get(&ss->annotations, SSC_ANN_RESET_SCOPE)
								   ? obj_strmap_get(&ss->annotations, SSC_ANN_RESET_SCOPE)
								   : "",
					 at, stage, e.reason, runs);
			tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
			free(text);
		}
		sst_spec_release(&sp);
		free(stage);
	}
	si_release(&first);
}
