/*
 * Restarts a promoted stage's restart gate forgave (ss_hazards_restarts.h).
 */
#include "sim/run/ss_hazards_restarts.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset_controller.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/load/scn_ssworld.h"

/* One status write of a StageSet (strings borrowed from the timeline). */
struct st_write {
	int64_t t_ms;
	const char *reason, *detail;
};

/* The status writes of StageSet @ns/@name, in time order (new array of *@n). */
static struct st_write *writes_of(const struct tl *tl, const char *ns, const char *name, size_t *n)
{
	struct st_write *v = NULL;

	*n = 0;
	for (size_t i = 0, count = tl_count(tl); i < count; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (e.change != TL_STATUS || !e.kind || strcmp(e.kind, "StageSet") != 0 || strcmp(e.ns ? e.ns : "", ns) ||
		    strcmp(e.name, name) != 0)
			continue;
		v = xreallocarray(v, *n + 1, sizeof(*v));
		v[(*n)++] = (struct st_write){ e.t_ms, e.reason, e.detail };
	}
	return v;
}

static bool ready(const struct st_write *w)
{
	return w->reason && strcmp(w->reason, SSC_REASON_READY) == 0;
}

/* A rise at @t_ms the gate forgave: when the pass that took it in wrote, and since when it was Ready; false if not. */
static bool forgiven(const struct st_write *v, size_t n, int64_t t_ms, int64_t *taken_ms, int64_t *since_ms)
{
	size_t last = n, next = n;

	for (size_t i = 0; i < n; i++) {
		if (v[i].t_ms <= t_ms)
			last = i;
		else if (next == n)
			next = i;
	}
	if (last == n || next == n || !ready(&v[last]) || !ready(&v[next]) ||
	    (v[next].detail && strstr(v[next].detail, "lastAttemptedRevisions")))
		return false;
	*taken_ms = v[next].t_ms;
	*since_ms = v[last].t_ms;
	for (size_t i = last; i > 0 && ready(&v[i - 1]); i--)
		*since_ms = v[i - 1].t_ms;
	return true;
}

static void check_of(struct run_result *r, const struct scenario *s, const struct obj *ss, const struct sst_stage *st,
		     const struct sst_restart_check *chk, const struct st_write *v, size_t n)
{
	const struct scn_sw_config *w = &s->models.world;
	int64_t first = -1, taken = -1, since = -1, t2, s2;
	int32_t rise = 0;
	size_t more = 0;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], *later, *text;
	struct tl_objref ref = { "StageSet", ss->ns, ss->name, 0 };

	for (size_t g = 0; g < w->npods; g++) {
		const struct scn_sw_pods *p = &w->pods[g];
		int32_t before = 0;

		if ((p->ns && strcmp(p->ns, ss->ns) != 0) || !lbl_matches(&chk->selector, &p->labels))
			continue;
		for (size_t j = 0; j < p->nrestarts; before = p->restarts[j++].total) {
			int64_t t = p->restarts[j].at_ms;

			if (t > r->end_ms || p->restarts[j].total - before <= chk->max_restarts ||
			    !forgiven(v, n, t, &t2, &s2))
				continue;
			if (first < 0 || t < first) {
				more += first >= 0;
				first = t;
				taken = t2;
				since = s2;
				rise = p->restarts[j].total - before;
			} else {
				more++;
			}
		}
	}
	if (first < 0)
		return;
	gt_format_duration(first, a, sizeof(a));
	gt_format_duration(since, b, sizeof(b));
	gt_format_duration(taken, c, sizeof(c));
	later = more ? xasprintf(" (nor the %zu later rise%s)", more, more > 1 ? "s" : "") : xstrdup("");
	text = xasprintf("StageSet %s/%s: the pods of restart check \"%s\" (stage \"%s\", maxRestarts %d) restarted %d "
			 "times at %s while the stage was promoted (Ready True since %s); the pass at %s took them into "
			 "the gate's baseline and nothing blocked them%s; watch the restarts of promoted workloads with "
			 "a monitor of their own",
			 ss->ns, ss->name, chk->name ? chk->name : "", st->name, (int)chk->max_restarts, (int)rise, a,
			 b, c, later);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(later);
}

void ss_hazards_restarts(struct run_result *r, const struct scenario *s)
{
	const struct tl *tl = des_timeline(r->world);

	if (s->models.world.npods == 0)
		return;
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *in = s->objs[i], *ss;
		struct st_write *v;
		struct sst_spec sp;
		char err[256];
		size_t n;

		if (strcmp(in->kind, "StageSet") != 0 ||
		    !(ss = api_get(des_api(r->world), "StageSet", in->ns, in->name)) || !ss->spec ||
		    ss->spec->type != VAL_MAP || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
			continue;
		v = writes_of(tl, ss->ns, ss->name, &n);
		for (size_t k = 0; k < sp.nstages; k++) {
			const struct sst_stage *st = &sp.stages[k];

			if (!st->has_promotion || !st->promotion.has_restart_gate || st->promotion.require_manual)
				continue;
			for (size_t c = 0; c < st->promotion.restart_gate.nchecks; c++)
				check_of(r, s, ss, st, &st->promotion.restart_gate.checks[c], v, n);
		}
		free(v);
		sst_spec_release(&sp);
	}
}
