/*
 * The StageSet rules of lint on pacing (MS242..MS249), see lint_ss_pace.h;
 * MS243, MS244 and MS245 are described at their functions below.
 *
 * MS242 (StageSet spec §5; SC:versionApprovalNeeded): the
 * approval gate never holds a baseline, the first version a StageSet
 * adopts ("Baselining (first adoption) and a no-op reconcile are never
 * held").  Members that are new (no status.version) baseline on the
 * controller's 4 workers, one pass each, in the order they were first
 * listed; a `publish` event edits the version every member it reaches
 * offers, so a member whose first pass starts after the publish baselines
 * at the published version, whatever its wave and approvalMode.  A wave
 * after the first cannot open before the publish plus the soaks of the
 * waves before it (those waves settle on the published version, which
 * exists only from the publish); the members of that wave whose first pass
 * starts in that stretch take the version before their wave opens.
 *
 * The start of each new StageSet's first pass is estimated as the worker
 * time of the new StageSets before it (namespace, name order: the order of
 * the initial list) over the 4 workers, at the medians of the StageSet
 * world (lint_ss_hold_ms()); so the count is "about", and only the stretch
 * the soaks make certain is counted.  Every StageSet lint sees counts as
 * listed at 0, those an `apply` event creates later too (an overestimate of
 * the queue before the later ones).
 */
#include "sim/lint/lint_ss_pace.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset_env.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"

/* A string field of a map, "" when absent or not a string. */
static const char *field_str(const struct val *m, const char *key)
{
	const struct val *v = m ? val_map_get(m, key) : NULL;

	return v && v->type == VAL_STRING ? v->u.s : "";
}

/* Rounded to whole seconds, as a Go duration, into @buf (GT_DURATION_BUFSZ). */
static const char *dur(int64_t ms, char *buf)
{
	gt_format_duration((ms + 500) / 1000 * 1000, buf, GT_DURATION_BUFSZ);
	return buf;
}

/* The spec wave @i of @fr (a map), or NULL. */
static const struct val *wave_of(const struct obj *fr, size_t i)
{
	const struct val *l = fr->spec ? val_map_get(fr->spec, "waves") : NULL;
	const struct val *w;

	if (!l || l->type != VAL_LIST || i >= l->u.list.n)
		return NULL;
	w = l->u.list.items[i];
	return w && w->type == VAL_MAP ? w : NULL;
}

/* A wave's soak in ms when it is a Go duration above zero, else 0. */
static int64_t soak_ms(const struct val *wave)
{
	const char *t = field_str(wave, "soak");
	int64_t ms;

	if (!t[0] || gt_parse_duration(t, &ms, NULL, 0) != 0 || ms <= 0)
		return 0;
	return ms;
}

/* The StageSet has adopted no version yet: its next adoption is a baseline. */
static bool is_new(const struct obj *ss)
{
	return field_str(ss->status, "version")[0] == '\0';
}

static bool is_always(const struct obj *ss)
{
	const struct val *v = ss->spec ? val_map_get(ss->spec, "version") : NULL;

	return v && v->type == VAL_MAP && strcmp(field_str(v, "approvalMode"), "Always") == 0;
}

/* The Namespaces of the inputs, sorted by name, for the publishes' namespaceSelector. */
struct nslist {
	const struct obj **items;
	size_t n;
};

static int cmp_ns(const void *pa, const void *pb)
{
	const struct obj *const *a = pa, *const *b = pb;

	return strcmp((*a)->name, (*b)->name);
}

static void nslist_init(struct nslist *l, const struct scenario *s)
{
	l->n = 0;
	l->items = xcalloc(s->nobjs ? s->nobjs : 1, sizeof(*l->items));
	for (size_t i = 0; i < s->nobjs; i++)
		if (s->objs[i]->kind && strcmp(s->objs[i]->kind, "Namespace") == 0)
			l->items[l->n++] = s->objs[i];
	qsort(l->items, l->n, sizeof(*l->items), cmp_ns);
}

/* The labels of Namespace @ns, or NULL (no Namespace object: no labels).  O(log n). */
static const struct obj_strmap *ns_labels(const struct nslist *l, const char *ns)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->items[mid]->name, ns);

		if (c == 0)
			return &l->items[mid]->labels;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Whether publish @p reaches @ss (its selector; its namespaceSelector when given). */
static bool reaches(const struct nslist *nl, const struct scn_fevent *p, const struct obj *ss)
{
	const struct obj_strmap *labels;
	struct obj_strmap none;
	bool m;

	if (!lbl_matches(&p->selector, &ss->labels))
		return false;
	if (!p->has_ns_selector)
		return true;
	labels = ns_labels(nl, ss->ns);
	if (labels)
		return lbl_matches(&p->ns_selector, labels);
	obj_strmap_init(&none);
	m = lbl_matches(&p->ns_selector, &none);
	obj_strmap_release(&none);
	return m;
}

/* ------------------------------------------------------------------ MS242 */

/*
 * MS242 for one publish @p: the members of the waves after the first that
 * start their first pass between the publish and the earliest their wave
 * can open.  @start: each StageSet's estimated first-pass start (ms, -1 not
 * new); @wave_of_ss: its first wave in this fleet (SIZE_MAX none).
 */
static void baseline_publish(struct lint_report *r, const struct nslist *nl, const struct obj *fr,
			     const struct obj *const *ss, const struct fr_result *res,
			     const struct scn_fevent *p, const int64_t *start, const size_t *wave_of_ss,
			     int64_t last_ms, int64_t done_ms, int64_t mean_ms)
{
	size_t count = 0, first = SIZE_MAX, nwaves = 0;
	size_t first_wave = SIZE_MAX;
	int64_t open_min = 0;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ],
		d[GT_DURATION_BUFSZ], e[GT_DURATION_BUFSZ];

	for (size_t wv = 1; wv < res->nwaves; wv++) {
		/* the earliest wave wv can open: the publish, then each earlier wave's soak */
		int64_t open_ms = p->at_ms;
		size_t here = 0;

		for (size_t j = 0; j < wv; j++)
			open_ms += soak_ms(wave_of(fr, j));
		for (size_t k = 0; k < res->waves[wv].n; k++) {
			size_t i = res->waves[wv].idx[k];

			if (wave_of_ss[i] != wv || start[i] < p->at_ms || start[i] >= open_ms ||
			    !is_always(ss[i]) || !reaches(nl, p, ss[i]))
				continue;
			if (first == SIZE_MAX) {
				first = i;
				first_wave = wv;
				open_min = open_ms;
			}
			here++;
		}
		count += here;
		nwaves += here > 0;
	}
	if (count == 0)
		return;
	lint_add(r, "MS242", p->file, p->mark,
		 "FleetRollout %s: the publish of %s at %s reaches members that have not adopted a "
		 "version yet: the StageSet controller gives each new StageSet a first pass on its "
		 "%d workers (%s a pass at the median modelled durations, the last first pass "
		 "starting about %s after the start), and a first version is never held for approval "
		 "(approvalMode Always holds only a change from a deployed version), so about %zu "
		 "%s of %zu later %s (e.g. %s/%s of wave \"%s\", which opens no sooner than %s) "
		 "take %s as their first version before their wave opens; publish after the "
		 "members have baselined (from about %s here), or give them a status.version",
		 fr->name, p->version, dur(p->at_ms, a), SSC_CONCURRENT_RECONCILES, dur(mean_ms, b),
		 dur(last_ms, c), count, count == 1 ? "member" : "members", nwaves,
		 nwaves == 1 ? "wave" : "waves", ss[first]->ns, ss[first]->name,
		 field_str(wave_of(fr, first_wave), "name"), dur(open_min, d), p->version,
		 dur(done_ms, e));
}

/* ------------------------------------------------------------------ MS243 */

/* The held polls are worth telling from this share of the workers' time (the run's notice too). */
#define POLL_SHARE_TOLD 0.5
/* The requeue of a held member (SC:permanentRetryInterval). */
#define HELD_REQUEUE_MS INT64_C(60000)

/*
 * MS243 (StageSet spec §5; SC:Reconcile's approval gate): from a
 * publish until their wave opens, the members of the later waves hold
 * AwaitingApproval and each is requeued every minute, without jitter; each
 * such pass holds a worker for the reconcile duration (everything a pass
 * does before the approval gate is answered at once by the StageSet world).
 */
static void held_polls(struct lint_report *r, const struct scenario *s, const struct nslist *nl,
		       const struct obj *fr,
		       const struct obj *const *ss, const struct fr_result *res,
		       const struct scn_fevent *p, const int64_t *start, const size_t *wave_of_ss)
{
	size_t n = 0, first = SIZE_MAX;
	int64_t need, have = SSC_CONCURRENT_RECONCILES * HELD_REQUEUE_MS;
	double share;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ],
		d[GT_DURATION_BUFSZ], e[GT_DURATION_BUFSZ];
	char *tail;

	if (s->reconcile_ms <= 0)
		return;
	for (size_t wv = 1; wv < res->nwaves; wv++)
		for (size_t k = 0; k < res->waves[wv].n; k++) {
			size_t i = res->waves[wv].idx[k];

			/* a member whose first pass comes after the publish baselines instead (MS242) */
			if (wave_of_ss[i] != wv || start[i] >= p->at_ms || !is_always(ss[i]) ||
			    !reaches(nl, p, ss[i]))
				continue;
			if (first == SIZE_MAX)
				first = i;
			n++;
		}
	need = (int64_t)n * s->reconcile_ms;
	share = (double)need / (double)have;
	if (n == 0 || share < POLL_SHARE_TOLD)
		return;
	tail = share >= 1
		       ? xasprintf("the held polls alone keep every worker busy: each comes round "
				   "only every %s, and every other pass (the open wave's adoptions, "
				   "retries, soak and window requeues) waits its turn behind up to %s "
				   "of them",
				   dur(need / SSC_CONCURRENT_RECONCILES, d),
				   dur(need / SSC_CONCURRENT_RECONCILES, e))
		       : xasprintf("every other pass (the open wave's adoptions, retries, soak and "
				   "window requeues) shares the workers with them");
	lint_add(r, "MS243", p->file, p->mark,
		 "FleetRollout %s: the publish of %s at %s leaves %zu members of its later waves "
		 "(e.g. %s/%s) AwaitingApproval until their wave opens, and the StageSet controller "
		 "requeues each held member every 1m, without jitter; each such pass holds a worker "
		 "for spec.api.reconcileDuration %s, so they ask %s of worker time a minute of the "
		 "%d workers' %s (%.0f%%): %s; hold fewer members at once (publish to a wave's "
		 "members when it opens, or split the fleet) or shorten the pass",
		 fr->name, p->version, dur(p->at_ms, a), n, ss[first]->ns, ss[first]->name,
		 dur(s->reconcile_ms, b), dur(need, c), SSC_CONCURRENT_RECONCILES,
		 dur(have, d), share * 100, tail);
	free(tail);
}

void lint_ss_pace_fleet(struct lint_report *r, const struct scenario *s, const struct obj *fr,
			const struct obj *const *ss, size_t nss, const struct fr_result *res)
{
	const char *target = field_str(fr->spec, "targetVersion");
	int64_t *start, cum = 0, nnew = 0, last = 0;
	size_t *wave_of_ss;
	struct nslist nl;
	bool any = false;

	if (!res->waves || res->nwaves < 2)
		return;
	for (size_t i = 0; i < s->nfevents && !any; i++)
		any = s->fevents[i].type == SCN_FEV_PUBLISH && s->fevents[i].at_ms > 0;
	if (!any)
		return;

	nslist_init(&nl, s);
	start = xcalloc(nss ? nss : 1, sizeof(*start));
	wave_of_ss = xcalloc(nss ? nss : 1, sizeof(*wave_of_ss));
	for (size_t i = 0; i < nss; i++) {
		wave_of_ss[i] = SIZE_MAX;
		start[i] = -1;
		if (!is_new(ss[i]))
			continue;
		/* Passes start 4 at a time in list order: the worker time before it, over 4. */
		start[i] = cum / SSC_CONCURRENT_RECONCILES;
		last = start[i];
		cum += lint_ss_hold_ms(s, ss[i], NULL);
		nnew++;
	}
	for (size_t wv = res->nwaves; wv-- > 0;)
		for (size_t k = 0; k < res->waves[wv].n; k++)
			wave_of_ss[res->waves[wv].idx[k]] = wv; /* the first wave wins */

	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];

		/* A publish at 0 is seen by every first pass: it is the members' first version. */
		if (p->type != SCN_FEV_PUBLISH || p->at_ms <= 0 || !p->version)
			continue;
		/* A pinned fleet rolls out its targetVersion only. */
		if (target[0] && strcmp(target, p->version) != 0)
			continue;
		baseline_publish(r, &nl, fr, ss, res, p, start, wave_of_ss, last,
				 cum / SSC_CONCURRENT_RECONCILES, nnew ? cum / nnew : 0);
		held_polls(r, s, &nl, fr, ss, res, p, start, wave_of_ss);
	}
	free(wave_of_ss);
	free(start);
	free(nl.items);
}

/* ------------------------------------------------------------------ MS244 */

/* A duration field of @spec in ms; @fallback when absent; *@set whether it was given. */
static int64_t spec_ms(const struct val *spec, const char *key, int64_t fallback, bool *set)
{
	const char *t = field_str(spec, key);
	int64_t ms;

	*set = t[0] && gt_parse_duration(t, &ms, NULL, 0) == 0;
	return *set ? ms : fallback;
}

/*
 * MS244 (StageSet spec §5 Q-24, §2.1 W3; SC:dependenciesReady): a
 * dependsOn entry naming a StageSet of another namespace.  The controller
 * wakes only the dependents of a StageSet's own namespace, so this one
 * sees its dependency become ready only at its own requeue after a
 * DependencyNotReady pass: retryInterval, jittered ±5%.  A retryInterval of
 * zero or less is MS225's (no timed retry at all).
 */
static void cross_namespace_deps(struct lint_report *r, const struct obj *const *ss, size_t nss)
{
	for (size_t i = 0; i < nss; i++) {
		const struct obj *o = ss[i];
		const struct val *deps = o->spec ? val_map_get(o->spec, "dependsOn") : NULL;
		bool iset, rset;
		int64_t interval, retry;
		char a[GT_DURATION_BUFSZ];

		if (!deps || deps->type != VAL_LIST)
			continue;
		interval = spec_ms(o->spec, "interval", 0, &iset);
		if (interval <= 0)
			interval = SSC_DEFAULT_INTERVAL_MS;
		retry = spec_ms(o->spec, "retryInterval", interval, &rset);
		if (retry <= 0)
			continue;
		for (size_t k = 0; k < deps->u.list.n; k++) {
			const struct val *d = deps->u.list.items[k];
			const char *ns = field_str(d, "namespace");

			if (!ns[0] || strcmp(ns, o->ns) == 0)
				continue;
			lint_add(r, "MS244", o->src.file, d && d->mark.line ? d->mark : o->src.mark,
				 "StageSet %s/%s depends on %s/%s in another namespace: the controller "
				 "wakes a StageSet's dependents only in its own namespace, so %s sees "
				 "%s become ready only at its next pass (its own retry after a "
				 "DependencyNotReady pass, up to %s ±5%% later: %s; or an event of its "
				 "own), and stays DependencyNotReady until then; keep the two in one "
				 "namespace, or set a shorter spec.retryInterval on %s (e.g. 30s)",
				 o->ns, o->name, ns, field_str(d, "name"), o->name,
				 field_str(d, "name"), dur(retry, a),
				 rset ? "its retryInterval" : iset ? "its interval, which retryInterval "
								    "follows when unset"
								  : "the controller's default interval, "
								    "which retryInterval follows when unset",
				 o->name);
		}
	}
}

/* ------------------------------------------------------------------ MS245 */

/*
 * MS245 (StageSet spec §5 Q-25, §2.1 W5, W6): a stage's sourceRef naming a
 * source of another namespace.  Source events wake only the StageSets of
 * the source's own namespace, so this one sees a new revision, or the
 * source ready again, only at its next pass: spec.interval when steady,
 * retryInterval after a SourceNotReady hold (each ±5%).
 */
static void cross_namespace_sources(struct lint_report *r, const struct obj *const *ss, size_t nss)
{
	for (size_t i = 0; i < nss; i++) {
		const struct obj *o = ss[i];
		const struct val *stages = o->spec ? val_map_get(o->spec, "stages") : NULL;
		bool iset, rset;
		int64_t interval, retry;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], held[96];

		if (!stages || stages->type != VAL_LIST)
			continue;
		interval = spec_ms(o->spec, "interval", 0, &iset);
		if (interval <= 0)
			interval = SSC_DEFAULT_INTERVAL_MS;
		retry = spec_ms(o->spec, "retryInterval", interval, &rset);
		if (retry <= 0)
			snprintf(held, sizeof(held), "never (retryInterval turns the timed retry off)");
		else if (rset)
			snprintf(held, sizeof(held), "up to %s ±5%% later (its retryInterval)",
				 dur(retry, b));
		else
			snprintf(held, sizeof(held), "the same (retryInterval follows it)");
		for (size_t k = 0; k < stages->u.list.n; k++) {
			const struct val *st = stages->u.list.items[k];
			const struct val *ref = st && st->type == VAL_MAP ? val_map_get(st, "sourceRef")
									   : NULL;
			const char *ns = field_str(ref, "namespace");

			if (!ns[0] || strcmp(ns, o->ns) == 0)
				continue;
			lint_add(r, "MS245", o->src.file, ref && ref->mark.line ? ref->mark : o->src.mark,
				 "StageSet %s/%s stage \"%s\" reads %s %s/%s in another namespace: a "
				 "source wakes only the StageSets of its own namespace, so %s sees a "
				 "new revision of it, or the source ready again, only at its next pass: "
				 "up to %s ±5%% later when steady (%s), %s after a "
				 "SourceNotReady hold; keep the source in the StageSet's namespace, or "
				 "shorten spec.interval and spec.retryInterval",
				 o->ns, o->name, field_str(st, "name"),
				 field_str(ref, "kind")[0] ? field_str(ref, "kind") : "ExternalArtifact",
				 ns, field_str(ref, "name"), o->name, dur(interval, a),
				 iset ? "its interval" : "the controller's default interval", held);
		}
	}
}

void lint_ss_pace(struct lint_report *r, const struct scenario *s, const struct obj *const *ss,
		  size_t nss)
{
	(void)s;
	cross_namespace_deps(r, ss, nss);
	cross_namespace_sources(r, ss, nss);
}
