/*
 * MS270: a promotion analysis that reverts its stage on one unanswered
 * evaluation (lint_ss_sources.h).
 */
#include "sim/lint/lint_ss_sources.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint_ss_ledgers.h"

/*
 * Whether entry @x of spec.metrics answers source @src: a Prometheus entry
 * of the same query and address (or of no address), a webhook entry of the
 * same url (and jsonPath, or of none), as the StageSet world serves them.
 */
static bool serves(const struct scn_series *x, const struct sst_metric_source *src)
{
	if (src->has_prometheus)
		return x->query && src->query && !strcmp(x->query, src->query) &&
		       (!x->address || (src->address && !strcmp(x->address, src->address)));
	if (src->has_webhook)
		return x->url && src->url && !strcmp(x->url, src->url) &&
		       (!x->json_path || (src->json_path && !strcmp(x->json_path, src->json_path)));
	return false;
}

/* The first `unavailable` window of a series answering a check of @an that opens within the horizon. */
static const struct scn_sw_window *outage(const struct scenario *s, const struct sst_promotion *p,
					  const char **check)
{
	for (size_t c = 0; c < p->analysis.nchecks; c++)
		for (size_t i = 0; i < s->nseries; i++) {
			const struct scn_series *x = &s->series[i];

			if (!serves(x, &p->analysis.checks[c].source))
				continue;
			for (size_t k = 0; k < x->unavailable.n; k++)
				if (x->unavailable.items[k].from_ms < s->horizon_ms) {
					*check = p->analysis.checks[c].name;
					return &x->unavailable.items[k];
				}
		}
	return NULL;
}

static void check_stageset(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	struct sst_spec sp;
	char err[256];

	if (!ss->spec || ss->spec->type != VAL_MAP || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	for (size_t i = 0; sp.rollback_on_failure && i < sp.nstages; i++) {
		const struct sst_stage *st = &sp.stages[i];
		const struct sst_promotion *p = &st->promotion;
		const struct scn_sw_window *w;
		const char *check = NULL;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], *when;

		if (!st->has_promotion || !p->has_analysis || p->analysis.dry_run || !p->analysis.nchecks ||
		    strcmp(p->analysis.on_failure, "Rollback") != 0 ||
		    strcmp(p->analysis.on_source_error, "Allow") == 0 ||
		    (p->analysis.has_failure_limit && p->analysis.failure_limit > 0))
			continue;
		w = outage(s, p, &check);
		if (w) {
			gt_format_duration(w->from_ms, a, sizeof(a));
			if (w->until_ms != INT64_MAX)
				gt_format_duration(w->until_ms, b, sizeof(b));
			when = xasprintf("; the scenario's source of check \"%s\" is unavailable from %s%s%s: a "
					 "pass in that window that gates a new revision would revert it",
					 check ? check : "", a, w->until_ms != INT64_MAX ? " to " : "",
					 w->until_ms != INT64_MAX ? b : " on");
		} else {
			when = xstrdup("");
		}
		lint_add(r, "MS270", ss->src.file, st->raw ? st->raw->mark : ss->src.mark,
			 "StageSet %s/%s: stage \"%s\"'s promotion analysis has onFailure Rollback, onSourceError "
			 "%s and failureLimit 0: one evaluation its metric source cannot answer (an HTTP error, "
			 "no sample, a timeout) counts as a failure, so a source outage at a pass that gates a "
			 "new revision rolls the stage back to its last-good revision however healthy the new "
			 "one is, and that revision stays aborted: the stage keeps the old one and the later "
			 "stages never get the new one, until another revision comes%s",
			 ss->ns, ss->name, st->name, *p->analysis.on_source_error ? "Hold" : "Hold (the default)",
			 when);
		free(when);
	}
	sst_spec_release(&sp);
}

void lint_ss_sources(struct lint_report *r, const struct scenario *s)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (scn_is_stageset(s->objs[i]))
			check_stageset(r, s, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && scn_is_stageset(s->events[i].obj))
			check_stageset(r, s, s->events[i].obj);
}
