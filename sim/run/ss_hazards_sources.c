/*
 * Reverts of a promotion analysis that an unanswered evaluation caused
 * (ss_hazards_sources.h).
 */
#include "sim/run/ss_hazards_sources.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_types.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/cluster/apiserver.h"
#include "sim/models/stageset_world_gates.h"

/* The part of the controller's event message after the quoted stage name. */
#define REVERTED " promotion analysis failed; rolled back to revision "

/*
 * Reads each check of @p at @t_ms from @s's series; *@unread is the first
 * check that got no answer (NULL: all answered) with its error in @why.
 * Returns whether some check answered outside its threshold.
 */
static bool read_checks(const struct scenario *s, const struct sst_promotion *p, int64_t t_ms,
			const char **unread, char *why, size_t whylen)
{
	bool breached = false;

	*unread = NULL;
	for (size_t c = 0; c < p->analysis.nchecks; c++) {
		const struct sst_analysis_check *ck = &p->analysis.checks[c];
		const struct sst_metric_source *src = &ck->source;
		char err[512] = "";
		double v = 0;
		bool ok = false;
		int rc;

		if (src->has_prometheus)
			rc = swg_metric_prometheus(s->series, s->nseries, src->query ? src->query : "",
						   src->address, t_ms, &v, err, sizeof(err));
		else if (src->has_webhook)
			rc = swg_metric_webhook(s->series, s->nseries, src->url ? src->url : "",
						src->json_path, t_ms, &v, err, sizeof(err));
		else
			continue;
		if (rc != 0) {
			if (!*unread) {
				*unread = ck->name ? ck->name : "";
				snprintf(why, whylen, "%s", err);
			}
			continue;
		}
		if (thr_satisfied(ck->threshold.min, ck->threshold.max, v, &ok, err, sizeof(err)) != THR_OK ||
		    !ok)
			breached = true;
	}
	return breached;
}

/* Whether the StageSet @ns/@name reported a rollout verified (Succeeded) after @t_ms. */
static bool succeeded_after(const struct tl *tl, size_t from, const char *ns, const char *name, int64_t t_ms)
{
	for (size_t i = from, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (e.t_ms > t_ms && e.change == TL_STATUS && !strcmp(e.kind, "StageSet") &&
		    !strcmp(e.ns, ns) && !strcmp(e.name, name) && e.reason && !strcmp(e.reason, "Succeeded"))
			return true;
	}
	return false;
}

/* The revert of event @e (at timeline index @i) of stage @stage, told when no check breached. */
static void tell_revert(struct run_result *r, const struct scenario *s, size_t i, const struct tl_entry *e,
			const char *stage, const char *revision)
{
	const struct obj *ss = api_get(des_api(r->world), "StageSet", e->ns, e->name);
	struct sst_spec sp;
	char err[256], why[512], t[GT_DURATION_BUFSZ];
	const char *unread = NULL;

	if (!ss || !ss->spec || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	for (size_t k = 0; k < sp.nstages; k++) {
		const struct sst_stage *st = &sp.stages[k];
		struct tl_objref ref = { "StageSet", e->ns, e->name, 0 };
		char *text;

		if (strcmp(st->name, stage) != 0 || !st->has_promotion || !st->promotion.has_analysis)
			continue;
		if (read_checks(s, &st->promotion, e->t_ms, &unread, why, sizeof(why)) || !unread)
			break;
		gt_format_duration(e->t_ms, t, sizeof(t));
		text = xasprintf("StageSet %s/%s: stage \"%s\" was rolled back at %s to revision %s because its "
				 "promotion analysis could not read check \"%s\" (%s), not because a check "
				 "breached its threshold: with onSourceError %s and failureLimit %d one "
				 "unanswered evaluation is a failure%s; set promotion.analysis.failureLimit "
				 "above 0 (e.g. 2) or onSourceError: Allow",
				 e->ns, e->name, stage, t, revision, unread, why,
				 *st->promotion.analysis.on_source_error ? st->promotion.analysis.on_source_error
									 : "Hold (the default)",
				 st->promotion.analysis.has_failure_limit ? st->promotion.analysis.failure_limit : 0,
				 succeeded_after(des_timeline(r->world), i + 1, e->ns, e->name, e->t_ms)
					 ? ""
					 : ", and the StageSet verified no rollout after it to the end of the run: "
					   "the reverted revision stays aborted until another one comes");
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
		break;
	}
	sst_spec_release(&sp);
}

void ss_hazards_sources(struct run_result *r, const struct scenario *s)
{
	const struct tl *tl = des_timeline(r->world);

	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;
		const char *end, *rev;
		char stage[256];

		tl_get(tl, i, &e);
		if (e.change != TL_EVENT || strcmp(e.kind, "StageSet") || !e.reason ||
		    strcmp(e.reason, "PromotionBlocked") || !e.message || strncmp(e.message, "stage \"", 7) != 0)
			continue;
		end = strstr(e.message + 7, "\"" REVERTED);
		if (!end || (size_t)(end - e.message - 7) >= sizeof(stage))
			continue;
		memcpy(stage, e.message + 7, (size_t)(end - e.message - 7));
		stage[end - e.message - 7] = '\0';
		rev = end + 1 + strlen(REVERTED);
		tell_revert(r, s, i, &e, stage, rev);
	}
}
