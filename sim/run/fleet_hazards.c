#include "sim/run/fleet_hazards.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_env.h"
#include "engine/objects.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/cluster/apiserver.h"

/* From this long on, a worker bound is a warning (lint's MS222 fires from the same). */
#define WORKER_BOUND_WARN_MS INT64_C(3600000)
/* Below this, a worker bound is not told: a wave of minutes is what anyone expects. */
#define WORKER_BOUND_INFO_MS INT64_C(900000)
/* The wave length the worker-bound notice proposes to split to, as MS222. */
#define WORKER_BOUND_GOAL_MS INT64_C(1800000)

/* Go duration of @ms rounded to whole seconds, into @buf (GT_DURATION_BUFSZ). */
static const char *dur(int64_t ms, char *buf)
{
	gt_format_duration((ms + 500) / 1000 * 1000, buf, GT_DURATION_BUFSZ);
	return buf;
}

/* Go duration of @ms as it is (times of the run), into @buf (GT_DURATION_BUFSZ). */
static const char *at(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

static void notice(struct run_result *r, enum tl_severity sev, const char *fleet, char *text)
{
	struct tl_objref ref = { "FleetRollout", "", fleet, 0 };

	tl_notice_add(des_timeline(r->world), r->end_ms, sev, text, &ref, 1);
	free(text);
}

/* The first time the wave was settled at or after it opened, -1 never. */
static int64_t settled_after_open(const struct fo_wave *wv)
{
	if (wv->opened_ms < 0)
		return -1;
	if (wv->settled_ms >= wv->opened_ms)
		return wv->settled_ms;
	if (wv->last_settled_ms >= wv->opened_ms)
		return wv->last_settled_ms;
	return -1;
}

/* A Ready reason of a member whose adoption failed or got stuck (StageSet spec §4.1). */
static bool failure_reason(const char *reason)
{
	static const char *const failing[] = {
		"StageFailed",   "StageProgressing", "MigrationFailed", "MigrationDirty",
		"ActionDirty",   "ImageUnverified",  "RBACDenied",      "PreviousRevisionUnavailable",
	};

	for (size_t i = 0; reason && i < sizeof(failing) / sizeof(failing[0]); i++)
		if (strcmp(reason, failing[i]) == 0)
			return true;
	return false;
}

/* the wave's adoption passes held the 4 workers long enough to bound it. */
static void worker_bound(struct run_result *r, const struct fo *o, const struct fo_fleet *fl,
			 const struct fo_wave *wv)
{
	int64_t settled = settled_after_open(wv), total = 0, max = 0, wait = 0, bound, took;
	const char *version = fl->ntargets ? fl->targets[fl->ntargets - 1] : NULL;
	size_t n = 0, fit;
	char *advice;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ];
	char e[GT_DURATION_BUFSZ], f[GT_DURATION_BUFSZ], g[GT_DURATION_BUFSZ], h[GT_DURATION_BUFSZ];

	if (wv->opened_ms < 0 || wv->nmembers <= SSC_CONCURRENT_RECONCILES)
		return;
	for (size_t k = 0; k < wv->nmembers; k++) {
		size_t na;
		const struct fo_attempt *at_ = fo_member_attempts(o, wv->members[k], &na);

		for (size_t i = 0; i < na; i++) {
			int64_t end = at_[i].end_ms >= 0 ? at_[i].end_ms : r->end_ms, held;

			/*
			 * The member's adoption of what the wave opened for: the
			 * version the fleet rolls out when it names one (a pass
			 * may start just before the status saying the wave is
			 * open is written), else the first attempt after it opened.
			 */
			if (at_[i].directed || end < wv->opened_ms ||
			    (version ? strcmp(at_[i].version, version) != 0
				     : at_[i].start_ms < wv->opened_ms))
				continue;
			if (settled >= 0 && at_[i].start_ms > settled)
				break; /* a later version's */
			held = end - at_[i].start_ms;
			total += held;
			if (held > max)
				max = held;
			if (at_[i].start_ms - wv->opened_ms > wait)
				wait = at_[i].start_ms - wv->opened_ms;
			n++;
			break;
		}
	}
	if (n <= SSC_CONCURRENT_RECONCILES)
		return;
	bound = total / SSC_CONCURRENT_RECONCILES;
	if (bound < 2 * max || bound < WORKER_BOUND_INFO_MS)
		return; /* the workers were not what made the wave long */
	took = (settled >= 0 ? settled : r->end_ms) - wv->opened_ms;
	fit = (size_t)(WORKER_BOUND_GOAL_MS * SSC_CONCURRENT_RECONCILES / (total / (int64_t)n));
	advice = fit < n ? xasprintf(". At these times a wave of at most %zu members settles within "
				     "%s: split the wave, or shorten what a pass waits for",
				     fit, dur(WORKER_BOUND_GOAL_MS, h))
			 : xstrdup("");
	notice(r, bound >= WORKER_BOUND_WARN_MS ? TL_WARNING : TL_INFO, fl->name,
	       xasprintf("FleetRollout %s: wave \"%s\" (%zu members) %s %s after it opened at %s: "
			 "the StageSet controller reconciles %d StageSets at once, and the %zu "
			 "adoption passes held a worker %s in all (%s each on average, the longest "
			 "%s), so the wave could not settle in less than %s; the last member waited "
			 "%s for a worker, and every other StageSet's requeue waited behind them%s",
			 fl->name, wv->name, wv->nmembers,
			 settled >= 0 ? "settled" : "had not settled by the end of the run,",
			 dur(took, a), at(wv->opened_ms, b), SSC_CONCURRENT_RECONCILES, n,
			 dur(total, c), dur(total / (int64_t)n, d), dur(max, e), dur(bound, f),
			 dur(wait, g), advice));
	free(advice);
}

/*
 * Whether FleetRollout @fleet ended InProgress with wave @wave current and
 * not settled (its status in the store at the end of the run).
 */
static bool open_unsettled(struct run_result *r, const char *fleet, const char *wave)
{
	const struct obj *fr = api_get(des_api(r->world), "FleetRollout", "", fleet);
	const struct val *st = fr ? fr->status : NULL;
	const struct val *waves = st ? val_map_get(st, "waves") : NULL;

	if (!st || strcmp(val_str(val_map_get(st, "phase"), ""), "InProgress") != 0 ||
	    strcmp(val_str(val_map_get(st, "currentWave"), ""), wave) != 0)
		return false;
	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++) {
		const struct val *wv = waves->u.list.items[i];
		const struct val *settled = val_map_get(wv, "settled");

		if (strcmp(val_str(val_map_get(wv, "name"), ""), wave) == 0)
			return !(settled && settled->type == VAL_BOOL && settled->u.b);
	}
	return false;
}

/*
 * A wave that is open and unsettled at the end because members failed, with
 * no halt of it since it last settled (or opened): nothing halts it.
 */
static void never_settled(struct run_result *r, const struct fo *o, const struct fo_fleet *fl,
			  const struct fo_wave *wv, bool rollback)
{
	size_t nfail = 0, adopted = 0;
	const char *first = NULL, *first_reason = NULL;
	const char *version = fl->ntargets ? fl->targets[fl->ntargets - 1] : NULL;
	char a[GT_DURATION_BUFSZ], *tail;
	int64_t since;

	if (wv->opened_ms < 0 || !open_unsettled(r, fl->name, wv->name))
		return;
	since = wv->last_settled_ms >= 0 ? wv->last_settled_ms : wv->opened_ms;
	for (size_t i = 0; i < fl->nhalts; i++)
		if (strcmp(fl->halts[i].wave, wv->name) == 0 && fl->halts[i].t_ms >= since)
			return; /* it did halt: what a halt does is told elsewhere */
	for (size_t k = 0; k < wv->nmembers; k++) {
		const char *reason = fo_member_ready_reason(o, wv->members[k]);

		if (!failure_reason(reason))
			continue;
		if (!nfail++) {
			first = wv->members[k];
			first_reason = reason;
		}
	}
	if (!nfail)
		return;
	if (version)
		adopted = wv->adoption[fl->ntargets - 1].adopted;
	tail = adopted ? xasprintf("; %zu %s of the wave %s %s", adopted,
				   adopted == 1 ? "member" : "members", adopted == 1 ? "keeps" : "keep",
				   version)
		       : xstrdup("");
	notice(r, TL_WARNING, fl->name,
	       xasprintf("FleetRollout %s: wave \"%s\" was open and not settled at the end of the "
			 "run (%s %s): %zu of its %zu members ended not Ready for a failure (e.g. %s: %s); the FleetRollout "
			 "halts only a settled wave (a failing gate after the soak, a settled member "
			 "regressing), so it did not halt%s and stayed InProgress with Ready True to "
			 "the end of the run%s. Alert on members Ready False while the fleet is "
			 "InProgress, and roll back by hand (stages.metio.wtf/rollback-to) what "
			 "should not keep the version",
			 fl->name, wv->name, wv->last_settled_ms >= 0 ? "it last settled at" : "open since",
			 at(since, a), nfail, wv->nmembers, first,
			 first_reason,
			 rollback ? " and stamped no rollback-to (onRegression Rollback acts only "
				    "on a halt)"
				  : "",
			 tail));
	free(tail);
}

/* The soak of wave @name in FleetRollout @fleet's spec, ms; -1 none. */
static int64_t wave_soak_ms(struct run_result *r, const char *fleet, const char *name,
			    bool *rollback)
{
	const struct obj *fr = api_get(des_api(r->world), "FleetRollout", "", fleet);
	const struct val *waves = fr && fr->spec ? val_map_get(fr->spec, "waves") : NULL;
	int64_t ms;

	*rollback = fr && fr->spec &&
		    strcmp(val_str(val_map_get(fr->spec, "onRegression"), ""), "Rollback") == 0 &&
		    val_str(val_map_get(fr->spec, "previousVersion"), "")[0];
	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++) {
		const struct val *wv = waves->u.list.items[i];

		if (strcmp(val_str(val_map_get(wv, "name"), ""), name) != 0)
			continue;
		if (gt_parse_duration(val_str(val_map_get(wv, "soak"), ""), &ms, NULL, 0) != 0)
			return -1;
		return ms;
	}
	return -1;
}

/* Regression halts of a soaking wave: each one restarted its soak. */
static void soak_restarts(struct run_result *r, const struct fo_fleet *fl, const struct fo_wave *wv,
			  int64_t soak_ms, bool rollback)
{
	size_t n = 0, len = 0;
	char times[256], end[96], a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
	/* before the run too: a snapshot carries the first settle and the halts before it */
	int64_t first_settled = fo_first(wv->past_settled_ms, wv->settled_ms);
	int64_t passed = fo_first(wv->past_passed_ms, wv->passed_ms);
	int64_t completed = fo_first(fl->past_completed_ms, fl->completed_ms);

	times[0] = '\0';
	for (size_t i = 0; i < fl->npast_halts + fl->nhalts; i++) {
		const struct fo_halt *h = i < fl->npast_halts ? &fl->past_halts[i]
							      : &fl->halts[i - fl->npast_halts];

		if (h->gate || strcmp(h->wave, wv->name) != 0 || first_settled == FO_NEVER ||
		    h->t_ms < first_settled || (passed != FO_NEVER && h->t_ms >= passed) ||
		    (completed != FO_NEVER && h->t_ms >= completed))
			continue; /* not during the wave's soak */
		if (n < 4 && len < sizeof(times) - GT_DURATION_BUFSZ - 3)
			len += (size_t)snprintf(times + len, sizeof(times) - len, "%s%s",
						n ? ", " : "", at(h->t_ms, a));
		else if (n == 4)
			len += (size_t)snprintf(times + len, sizeof(times) - len, ", …");
		n++;
	}
	if (!n || soak_ms <= 0 || wv->soaks < 2)
		return;
	if (passed != FO_NEVER)
		snprintf(end, sizeof(end), "passed at %s", at(passed, c));
	else
		snprintf(end, sizeof(end), "its soak had not ended by the end of the run");
	notice(r, TL_WARNING, fl->name,
	       xasprintf("FleetRollout %s: wave \"%s\"'s soak of %s restarted %zu %s: a member "
			 "was no longer Ready during it, and the regression %s at %s (each one "
			 "pass%s) cleared the soak deadline, so the next pass started the soak over; "
			 "the wave first settled at %s and %s. Fix what makes the members flap, or "
			 "make the soak shorter than the time they stay healthy",
			 fl->name, wv->name, dur(soak_ms, a), n, n == 1 ? "time" : "times",
			 n == 1 ? "halt" : "halts", times,
			 rollback ? ", each stamping rollback-to on the wave" : "",
			 at(first_settled, b), end));
}

/* A Ready reason whose requeue is retryInterval (StageSet spec §2.2). */
static bool retried_hold(const char *reason)
{
	static const char *const holds[] = {
		"SourceNotReady",  "ArtifactNotFound", "DependencyNotReady", "StageProgressing",
		"PromotionBlocked", "AwaitingPromotion", "BudgetExhausted",  "BudgetSourceUnavailable",
	};

	for (size_t i = 0; i < sizeof(holds) / sizeof(holds[0]); i++)
		if (strcmp(reason, holds[i]) == 0)
			return true;
	return false;
}

static bool retry_off(const struct obj *o, void *ctx)
{
	const char *t = val_str(o->spec ? val_map_get(o->spec, "retryInterval") : NULL, NULL);
	int64_t ms;

	(void)ctx;
	return t && gt_parse_duration(t, &ms, NULL, 0) == 0 && ms <= 0;
}

/*
 * a StageSet whose retryInterval turns the timed retry off ended Ready
 * False in a hold that only a timed retry ends, and no pass came after.
 */
static void retry_disabled(struct run_result *r, const struct scenario *s)
{
	struct api_list l;

	api_list_init(&l);
	api_list(des_api(r->world), "StageSet", NULL, retry_off, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		const struct obj *ss = l.items[i];
		const struct val *c = obj_ready_condition(ss);
		const char *reason = val_str(val_map_get(c, "reason"), "");
		const char *since = val_str(val_map_get(c, "lastTransitionTime"), NULL);
		int64_t unix_ms, at_ms;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];
		struct tl_objref ref = { "StageSet", ss->ns, ss->name, 0 };
		char *text;

		if (!c || strcmp(val_str(val_map_get(c, "status"), ""), "False") != 0 ||
		    !retried_hold(reason) || !since || gt_parse_rfc3339(since, &unix_ms, NULL, 0) != 0)
			continue;
		at_ms = unix_ms - s->start_unix_ms;
		if (r->end_ms - at_ms < 60000)
			continue; /* not yet long enough to tell a missing retry from a late one */
		text = xasprintf("StageSet %s/%s ended Ready False %s, held since %s (%s before the "
				 "end of the run), and its retryInterval %s turns the timed retry of "
				 "that hold off: only an event wakes it (a spec edit, an approval, a "
				 "watched source changing), not what the hold waits for; remove "
				 "retryInterval (it then follows spec.interval) or set it above zero, "
				 "e.g. 1m",
				 ss->ns, ss->name, reason, at(at_ms < 0 ? 0 : at_ms, a),
				 dur(r->end_ms - at_ms, b),
				 val_str(val_map_get(ss->spec, "retryInterval"), ""));
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
	}
	api_list_release(&l);
}

void fleet_hazards(struct run_result *r, const struct scenario *s)
{
	size_t nf;
	const struct fo_fleet *fl = r->fobs ? fo_fleets(r->fobs, &nf) : NULL;

	retry_disabled(r, s);
	for (size_t f = 0; fl && f < nf; f++)
		for (size_t w = 0; w < fl[f].nwaves; w++) {
			bool rollback;
			int64_t soak = wave_soak_ms(r, fl[f].name, fl[f].waves[w].name, &rollback);

			worker_bound(r, r->fobs, &fl[f], &fl[f].waves[w]);
			never_settled(r, r->fobs, &fl[f], &fl[f].waves[w], rollback);
			soak_restarts(r, &fl[f], &fl[f].waves[w], soak, rollback);
		}
}
