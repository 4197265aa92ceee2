/*
 * The StageSet ledger rules of lint (MS252..MS258, MS275, MS277, MS278); see lint_ss_ledgers.h.
 *
 * A stage's modelled behaviour is the one the run gives it:
 * scn_sw_resolve() over the StageSet's labels and the stage's name (actions:
 * the first matching `actions` entry of the first rule that has one, else of
 * the top level, as the world finds it).
 */
#include "sim/lint/lint_ss_ledgers.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset_controller.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/stageset_windows.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/strindex.h"
#include "sim/base/keybuf.h"
#include "sim/cluster/admission.h"
#include "sim/lint/lint_ss_reset.h"
#include "sim/load/scn_ssworld.h"

/* A Go duration of @ms, into @buf (GT_DURATION_BUFSZ). */
static const char *dur(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}


void lint_ss_each_spec(const struct scenario *s,
		       void (*fn)(const struct obj *ss, const struct sst_spec *sp, void *ctx), void *ctx)
{
	struct strindex first = { 0 };
	size_t n, at;
	const struct obj **v = scn_stagesets(s, &n);

	for (size_t i = 0; i < n; i++) {
		char buf[256], *key = kb_join2(buf, sizeof(buf), v[i]->ns, v[i]->name);
		bool is_first = !si_get(&first, key, &at);
		struct sst_spec sp;
		char err[256];

		if (is_first)
			si_put(&first, key, i);
		kb_drop(key, buf);
		if (!is_first || !v[i]->spec || v[i]->spec->type != VAL_MAP ||
		    sst_spec_parse(v[i]->spec, &sp, err, sizeof(err)) != 0)
			continue; /* a re-apply (its first manifest is linted), or a spec MS001 refuses */
		fn(v[i], &sp, ctx);
		sst_spec_release(&sp);
	}
	si_release(&first);
	free(v);
}

int64_t lint_ss_created_ms(const struct scenario *s, const struct obj *ss)
{
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && s->events[i].obj == ss)
			return s->events[i].at_ms;
	return 0;
}

/* The first StageSet @ns/@name of the inputs, else of the apply events (borrowed), or NULL. */
static const struct obj *stageset_named(const struct scenario *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (scn_is_stageset(s->objs[i]) && !strcmp(s->objs[i]->ns, ns) && !strcmp(s->objs[i]->name, name))
			return s->objs[i];
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && scn_is_stageset(s->events[i].obj) &&
		    !strcmp(s->events[i].obj->ns, ns) && !strcmp(s->events[i].obj->name, name))
			return s->events[i].obj;
	return NULL;
}

/* Whether a scripted event targets StageSet @ss. */
static bool targets(const struct scn_event *e, const struct obj *ss)
{
	return e->target.kind && !strcmp(e->target.kind, "StageSet") && e->target.ns && !strcmp(e->target.ns, ss->ns) &&
	       e->target.name && !strcmp(e->target.name, ss->name);
}

/*
 * The first change of what StageSet @ss is offered after @t_ms, as words
 * ("2.1.0 published at 1h0m0s") into @buf, with its time; -1 when none: a
 * publish whose selector matches its labels (a namespaceSelector is taken as
 * matching: lint reads no Namespace labels here), or a spec patch or
 * re-apply of it.
 */
static int64_t next_revision(const struct scenario *s, const struct obj *ss, int64_t t_ms, char *buf, size_t len)
{
	int64_t when = -1;
	char at[GT_DURATION_BUFSZ];

	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];

		if (p->type != SCN_FEV_PUBLISH || p->at_ms <= t_ms || (when >= 0 && p->at_ms >= when) ||
		    !lbl_matches(&p->selector, &ss->labels))
			continue;
		when = p->at_ms;
		snprintf(buf, len, "%s, published at %s", p->version ? p->version : "a version", dur(when, at));
	}
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		bool edits = (e->type == SCN_EV_PATCH && e->merge && val_map_get(e->merge, "spec")) ||
			     (e->type == SCN_EV_APPLY && e->obj != ss && e->obj && !strcmp(e->obj->ns, ss->ns) &&
			      !strcmp(e->obj->name, ss->name) && scn_is_stageset(e->obj));

		if (!edits || e->at_ms <= t_ms || (when >= 0 && e->at_ms >= when) ||
		    (e->type == SCN_EV_PATCH && !targets(e, ss)))
			continue;
		when = e->at_ms;
		snprintf(buf, len, "the spec edit at %s", dur(when, at));
	}
	return when;
}

/* " from 10m0s until 20m0s" (each window of @w, joined by " and"), "" for none, into @buf. */
static void windows_text(const struct scn_sw_windows *w, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < w->n && used < len; i++) {
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

		if (w->items[i].until_ms == INT64_MAX)
			used += (size_t)snprintf(buf + used, len - used, "%s from %s", i ? " and" : "",
						 dur(w->items[i].from_ms, a));
		else
			used += (size_t)snprintf(buf + used, len - used, "%s from %s until %s", i ? " and" : "",
						 dur(w->items[i].from_ms, a), dur(w->items[i].until_ms, b));
	}
}

/* Whether failure @f may strike at or after @t_ms and before @until_ms (no windows: at any time). */
static bool fails_between(const struct scn_sw_failure *f, int64_t t_ms, int64_t until_ms)
{
	if (!f || f->probability <= 0)
		return false;
	if (f->during.n == 0)
		return true;
	for (size_t i = 0; i < f->during.n; i++)
		if (f->during.items[i].until_ms > t_ms && f->during.items[i].from_ms < until_ms)
			return true;
	return false;
}

/* The first entry of @b's actions that matches action @name of @stage in @phase, or NULL. */
static const struct scn_sw_action *find_action(const struct scn_sw_behaviour *b, const char *name,
					       const char *stage, const char *phase)
{
	for (size_t i = 0; b->has_actions && i < b->nactions; i++) {
		const struct scn_sw_action *a = &b->actions[i];

		if ((!a->name || strcmp(a->name, name) == 0) && (!a->phase || strcmp(a->phase, phase) == 0) &&
		    (!a->stage || strcmp(a->stage, stage) == 0))
			return a;
	}
	return NULL;
}

/* What the world makes of action @name of stage @stage of @ss in @phase, NULL: the defaults. */
static const struct scn_sw_action *world_action(const struct scenario *s, const struct obj *ss, const char *name,
						const char *stage, const char *phase)
{
	const struct scn_sw_config *c = &s->models.world;

	for (size_t i = 0; i < c->nrules; i++)
		if (scn_sw_rule_matches(&c->rules[i], &ss->labels, stage)) {
			const struct scn_sw_action *a = find_action(&c->rules[i].b, name, stage, phase);

			if (a)
				return a;
		}
	return find_action(&c->top, name, stage, phase);
}

/*
 * How stage @st of @ss can fail at or after @t_ms, and before @until_ms,
 * with a failure the controller retries (error back-off), in words as a
 * new string, or NULL: a plain apply failure, objects that become Failed, a
 * pre or post action that fails.  Terminal failures are MS227's.
 */
static char *retried_failure(const struct scenario *s, const struct obj *ss, const struct sst_stage *st,
			     int64_t t_ms, int64_t until_ms)
{
	struct scn_sw_resolved e;
	char p[32], when[160];

	scn_sw_resolve(&s->models.world, &ss->labels, st->name, &e);
	if (e.apply_failure && e.apply_failure->cls == SSC_ERR && e.apply_failure->op != SCN_SW_OP_IMAGE_VERIFICATION &&
	    fails_between(e.apply_failure, t_ms, until_ms)) {
		snprintf(p, sizeof(p), "%g", e.apply_failure->probability);
		windows_text(&e.apply_failure->during, when, sizeof(when));
		return xasprintf("its apply can fail at \"%s\" (apply.failure, probability %s per apply%s)",
				 scn_sw_op_text(e.apply_failure->op), p, when);
	}
	if (e.ready_failed->failed_probability > 0) {
		snprintf(p, sizeof(p), "%g", e.ready_failed->failed_probability);
		return xasprintf("its objects can become Failed after an apply (readiness.failedProbability %s)", p);
	}
	for (int ph = 0; ph < 2 && st->has_actions; ph++) {
		const struct sst_actions *list = ph ? &st->post : &st->pre;

		for (size_t i = 0; i < list->n; i++) {
			const struct scn_sw_action *a =
				world_action(s, ss, list->items[i].name, st->name, ph ? "post" : "pre");

			if (!a || !a->has_failure || a->failure.cls != SSC_ERR || !fails_between(&a->failure, t_ms, until_ms))
				continue;
			snprintf(p, sizeof(p), "%g", a->failure.probability);
			windows_text(&a->failure.during, when, sizeof(when));
			return xasprintf("its %s action \"%s\" can fail (probability %s per attempt%s)",
					 ph ? "post" : "pre", list->items[i].name, p, when);
		}
	}
	return NULL;
}

/*
 * How the verify of stage @st of @ss can hold StageProgressing and then
 * pass, in words as a new string, or NULL: the StageSet world's readiness
 * delay can outlast the stage's verify timeout (its 99th percentile is
 * above it) while the objects do become ready (readiness.neverProbability
 * below 1), and the stage's onTimeout is not Rollback (a Rollback onTimeout
 * fails the stage instead, MS252's case).
 */
static char *progress_hold(const struct scenario *s, const struct obj *ss, const struct sst_spec *sp,
			   const struct sst_stage *st)
{
	struct scn_sw_resolved e;
	int64_t t = ssc_stage_timeout(sp, st), late;
	double q;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

	if (strcmp(ssc_stage_on_timeout(sp, st), "Rollback") == 0)
		return NULL;
	scn_sw_resolve(&s->models.world, &ss->labels, st->name, &e);
	if (!e.ready_delay->has_delay || e.ready_never->never_probability >= 1)
		return NULL;
	q = dist_quantile(&e.ready_delay->delay, 0.99);
	if (!isfinite(q) || q <= (double)t)
		return NULL;
	late = (int64_t)llround(q);
	return xasprintf("its objects can take %s to become ready (readiness.delay, 99th percentile), longer than "
			 "its %s verify timeout, whose end holds the stage StageProgressing until a retry finds it "
			 "ready",
			 dur(late, a), dur(t, b));
}

/* The promotion gates of @st in words ("soak 1h0m0s, manual promotion"), into @buf; false for none. */
static bool gates_of(const struct sst_stage *st, char *buf, size_t len)
{
	const struct sst_promotion *p = &st->promotion;
	char d[GT_DURATION_BUFSZ];
	size_t used = 0;

	buf[0] = '\0';
	if (!st->has_promotion)
		return false;
#define ADD(...) used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__)
	if (p->soak.set && p->soak.ms > 0)
		ADD("soak %s", dur(p->soak.ms, d));
	if (p->require_manual)
		ADD("%smanual promotion", used ? ", " : "");
	if (p->has_analysis)
		ADD("%sanalysis", used ? ", " : "");
	if (p->has_restart_gate)
		ADD("%srestart gate", used ? ", " : "");
	if (p->has_event_gate)
		ADD("%sevent gate", used ? ", " : "");
#undef ADD
	return used > 0;
}

static const struct sst_stage *stage_named(const struct sst_spec *sp, const char *name, size_t len)
{
	for (size_t i = 0; i < sp->nstages; i++)
		if (strlen(sp->stages[i].name) == len && strncmp(sp->stages[i].name, name, len) == 0)
			return &sp->stages[i];
	return NULL;
}

/* ---------------------------------------------------------------- MS252 */

/*
 * One promote token: stamped on @ss at @t_ms (@file/@mark where), @value
 * "stage@token".  Told when the stage has a promotion gate, a later
 * revision comes after the token, and the world can fail the stage then.
 */
static void promote_token(struct lint_report *r, const struct scenario *s, const struct obj *ss, const char *value,
			  int64_t t_ms, const char *how, const char *file, struct val_mark mark)
{
	const char *at = strchr(value, '@');
	const struct sst_stage *st;
	struct sst_spec sp;
	char err[256], gates[160], next[160], when[GT_DURATION_BUFSZ];
	char *why;
	int64_t next_ms;

	if (!at || at == value || !at[1] || !ss->spec || ss->spec->type != VAL_MAP ||
	    sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return; /* not a request (parsePromote ignores it), or a spec MS001 refuses */
	st = stage_named(&sp, value, (size_t)(at - value));
	next_ms = next_revision(s, ss, t_ms, next, sizeof(next));
	if (!st || !gates_of(st, gates, sizeof(gates)) || next_ms < 0)
		goto release_spec;
	why = retried_failure(s, ss, st, next_ms, INT64_MAX);
	if (why)
		lint_add(r, "MS252", file, mark,
			 "%s at %s stamps stages.metio.wtf/promote \"%s\" on StageSet %s/%s, whose stage \"%s\" "
			 "holds each revision at its promotion gate (%s), and %s: a failed stage's status entry is "
			 "written without lastHandledPromotion while the annotation stays, so when that stage fails "
			 "on a later revision (%s) the pass after the failure takes this handled token as fresh and "
			 "promotes that revision past the gate with no operator",
			 how, dur(t_ms, when), value, ss->ns, ss->name, st->name, gates, why, next);
	free(why);
	why = progress_hold(s, ss, &sp, st);
	if (why)
		lint_add(r, "MS257", file, mark,
			 "%s at %s stamps stages.metio.wtf/promote \"%s\" on StageSet %s/%s, whose stage \"%s\" "
			 "holds each revision at its promotion gate (%s), and %s: the progress hold writes the "
			 "stage's status entry without lastHandledPromotion while the annotation stays, so when a "
			 "later revision (%s) outlasts the timeout there the retry that finds it ready takes this "
			 "handled token as fresh and promotes that revision past the gate with no operator",
			 how, dur(t_ms, when), value, ss->ns, ss->name, st->name, gates, why, next);
	free(why);
release_spec:
	sst_spec_release(&sp);
}

static void rule_promote_replay(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const char *v = obj_strmap_get(&ss->annotations, SSC_ANN_PROMOTE);

	if (v)
		promote_token(r, s, ss, v, lint_ss_created_ms(s, ss), "the manifest", ss->src.file, ss->src.mark);
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const char *tok = e->type == SCN_EV_ANNOTATE ? obj_strmap_get(&e->set, SSC_ANN_PROMOTE) : NULL;

		if (tok && targets(e, ss))
			promote_token(r, s, ss, tok, e->at_ms, "the annotate event", e->file, e->mark);
	}
}

/* ---------------------------------------------------------------- MS275 */

/*
 * The Revision-scoped pre and post actions of @st in words ("\"seed\"",
 * "\"seed\" and 2 more") into @buf; false for none.  Those are what the
 * revision ledger, which a reconcile-stage token empties, keeps.
 */
static bool revision_actions(const struct sst_stage *st, char *buf, size_t len)
{
	const char *first = NULL;
	size_t n = 0;

	buf[0] = '\0';
	for (int ph = 0; ph < 2 && st->has_actions; ph++) {
		const struct sst_actions *list = ph ? &st->post : &st->pre;

		for (size_t i = 0; i < list->n; i++)
			if (sst_action_scope(&list->items[i]) == SST_SCOPE_REVISION && n++ == 0)
				first = list->items[i].name;
	}
	if (n == 1)
		snprintf(buf, len, "\"%s\"", first);
	else if (n > 1)
		snprintf(buf, len, "\"%s\" and %zu more", first, n - 1);
	return n > 0;
}

/*
 * When annotation @key, as @ss has it from @t_ms, is next set or removed by
 * an annotate event: ms, INT64_MAX when never.
 */
static int64_t token_end(const struct scenario *s, const struct obj *ss, const char *key, int64_t t_ms)
{
	int64_t end = INT64_MAX;

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		bool touches = false;

		if (e->type != SCN_EV_ANNOTATE || e->at_ms <= t_ms || e->at_ms >= end || !targets(e, ss))
			continue;
		touches = obj_strmap_get(&e->set, key) != NULL;
		for (size_t k = 0; !touches && k < e->nremove; k++)
			touches = strcmp(e->remove[k], key) == 0;
		if (touches)
			end = e->at_ms;
	}
	return end;
}

/*
 * MS275 (StageSet spec R-16, §3.13, §5 Q-12): one reconcile-stage token,
 * stamped on @ss at @t_ms (@file/@mark where), @value "stage@token".  Told
 * when the stage has Revision-scoped actions and the world can fail the
 * stage, or hold it StageProgressing, at or after the token: the failed or
 * held entry is written without lastHandledReconcileAt, so every pass after
 * it takes the handled token as fresh and runs those actions again.
 */
static void reconcile_stage_token(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				  const char *value, int64_t t_ms, const char *how, const char *file,
				  struct val_mark mark)
{
	const char *at = strchr(value, '@');
	const struct sst_stage *st;
	struct sst_spec sp;
	char err[256], acts[192], when[GT_DURATION_BUFSZ];
	char *why;

	if (!at || at == value || !at[1] || !ss->spec || ss->spec->type != VAL_MAP ||
	    sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return; /* not a request (parseReconcileStage ignores it), or a spec MS001 refuses */
	st = stage_named(&sp, value, (size_t)(at - value));
	if (!st || !revision_actions(st, acts, sizeof(acts)))
		goto release_spec;
	why = retried_failure(s, ss, st, t_ms, token_end(s, ss, SSC_ANN_RECONCILE_STAGE, t_ms));
	if (!why)
		why = progress_hold(s, ss, &sp, st);
	if (why)
		lint_add(r, "MS275", file, mark,
			 "%s at %s stamps stages.metio.wtf/reconcile-stage \"%s\" on StageSet %s/%s, whose stage "
			 "\"%s\" has Revision-scoped actions (%s), and %s: a failed (or StageProgressing) stage's "
			 "status entry is written without lastHandledReconcileAt while the annotation stays, so "
			 "every pass after such a failure takes this handled token as fresh again, treats the "
			 "stage's revision ledger as empty and runs those actions again for the revision they "
			 "completed for",
			 how, dur(t_ms, when), value, ss->ns, ss->name, st->name, acts, why);
	free(why);
release_spec:
	sst_spec_release(&sp);
}

static void rule_reconcile_stage_replay(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const char *v = obj_strmap_get(&ss->annotations, SSC_ANN_RECONCILE_STAGE);

	if (v)
		reconcile_stage_token(r, s, ss, v, lint_ss_created_ms(s, ss), "the manifest", ss->src.file, ss->src.mark);
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const char *tok = e->type == SCN_EV_ANNOTATE ? obj_strmap_get(&e->set, SSC_ANN_RECONCILE_STAGE) : NULL;

		if (tok && targets(e, ss))
			reconcile_stage_token(r, s, ss, tok, e->at_ms, "the annotate event", e->file, e->mark);
	}
}

/* ---------------------------------------------------------------- MS277 */

/*
 * MS277 (StageSet spec G-8, §3.13, §5 Q-12): the first stage of @ss with a
 * promotion gate, when it soaks: each publish that reaches @ss after its
 * creation starts a soak there, whose hold requeues the StageSet at the
 * soak's end or at most an hour later (requeueForWindow); a pass at one of
 * those polls that the world fails for certain (lint_ss_failing_at()) writes
 * the stage's entry without promotionState, so the soak starts over once a
 * pass finds the stage healthy again.  The soak's start is taken at the
 * publish (the first pass applies within moments).  Passes of other causes
 * are not counted.
 */
static void rule_soak_restarts(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct sst_stage *st = NULL;
	struct sst_spec sp;
	char err[256], why[256], a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
	char d[GT_DURATION_BUFSZ];
	int64_t created = lint_ss_created_ms(s, ss);

	if (!ss->spec || ss->spec->type != VAL_MAP || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	for (size_t i = 0; i < sp.nstages && !st; i++)
		if (sp.stages[i].has_promotion)
			st = &sp.stages[i];
	if (!st || !st->promotion.soak.set || st->promotion.soak.ms <= 0)
		goto release_spec;
	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];
		int64_t until = p->at_ms + st->promotion.soak.ms, poll = p->at_ms;

		if (p->type != SCN_FEV_PUBLISH || p->at_ms <= created || !lbl_matches(&p->selector, &ss->labels))
			continue;
		for (;;) {
			poll += win_requeue_for_window(until, poll, 0);
			if (poll >= until || poll >= s->horizon_ms)
				break;
			if (!lint_ss_failing_at(s, ss, st->name, poll, why, sizeof(why)))
				continue;
			lint_add(r, "MS277", p->file, p->mark,
				 "the publish of %s at %s starts a %s soak at stage \"%s\" of StageSet %s/%s, whose "
				 "hold requeues it at most an hour apart, and at the pass of %s %s: the stage fails "
				 "there, and a failed stage's status entry is written without promotionState, so once "
				 "a pass finds it healthy again its soak starts over from that pass instead of ending "
				 "at %s",
				 p->version ? p->version : "a version", dur(p->at_ms, a), dur(st->promotion.soak.ms, b),
				 st->name, ss->ns, ss->name, dur(poll, c), why, dur(until, d));
			goto release_spec; /* one finding per StageSet */
		}
	}
release_spec:
	sst_spec_release(&sp);
}

/* ---------------------------------------------------------------- MS253 */

/*
 * What stage 0 of @sp keeps in its ledgers that a wipe undoes, in words
 * into @buf; false for nothing.  Its Revision-scoped actions run again;
 * Version-scoped ones are baselined again on a first adoption (recorded,
 * not run), and Lifetime ones keep a ledger of their own, so neither is
 * claimed.
 */
static bool stage0_keeps(const struct sst_spec *sp, char *buf, size_t len)
{
	const struct sst_stage *st = sp->nstages ? &sp->stages[0] : NULL;
	char d[GT_DURATION_BUFSZ];
	size_t used = 0, nact = 0;
	const char *first = NULL;

	buf[0] = '\0';
	if (!st)
		return false;
	for (int ph = 0; ph < 2 && st->has_actions; ph++) {
		const struct sst_actions *list = ph ? &st->post : &st->pre;

		for (size_t i = 0; i < list->n; i++)
			if (sst_action_scope(&list->items[i]) == SST_SCOPE_REVISION && nact++ == 0)
				first = list->items[i].name;
	}
	if (nact == 1)
		used += (size_t)snprintf(buf, len, "its completed Revision-scoped action \"%s\" runs again", first);
	else if (nact > 1)
		used += (size_t)snprintf(buf, len, "its %zu completed Revision-scoped actions (\"%s\" and more) run "
					 "again", nact, first);
	if (st->has_promotion && st->promotion.soak.set && st->promotion.soak.ms > 0)
		snprintf(buf + used, used < len ? len - used : 0, "%sits %s soak starts over", used ? " and " : "",
			 dur(st->promotion.soak.ms, d));
	return buf[0] != '\0';
}

/* The Secret @ss reads before its stage loop, and which field names it; NULL: none. */
static const char *preloop_secret(const struct obj *ss, const char **field)
{
	const char *kc = val_str(val_path(ss->spec, "kubeConfig.secretRef.name"), "");
	const char *dc = val_str(val_path(ss->spec, "decryption.secretRef.name"), "");

	if (*kc) {
		*field = "spec.kubeConfig.secretRef";
		return kc;
	}
	if (*dc) {
		*field = "spec.decryption.secretRef";
		return dc;
	}
	return NULL;
}

/*
 * MS253 (StageSet spec, §5 Q-13): a delete event of the Secret
 * a StageSet connects or decrypts with.  Every pass until the Secret is
 * back fails before the stage loop, and that failure writes the first
 * stage's entry with empty ledgers: once the Secret is back, the stage's
 * completed Revision-scoped actions run again and its soak starts over.
 */
static void rule_preloop_wipe(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const char *field = NULL, *secret = preloop_secret(ss, &field);
	struct sst_spec sp;
	char err[256], keeps[256], at[GT_DURATION_BUFSZ], back[96] = "";

	if (!secret || ss->spec->type != VAL_MAP || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	if (!stage0_keeps(&sp, keeps, sizeof(keeps)))
		goto release_spec;
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];

		if (e->type != SCN_EV_DELETE || !e->target.kind || strcmp(e->target.kind, "Secret") ||
		    strcmp(e->target.ns ? e->target.ns : "", ss->ns) || strcmp(e->target.name, secret) ||
		    e->at_ms < lint_ss_created_ms(s, ss))
			continue;
		back[0] = '\0';
		for (size_t k = 0; k < s->nevents; k++) {
			const struct scn_event *a = &s->events[k];
			char t[GT_DURATION_BUFSZ];

			if (a->type == SCN_EV_APPLY && a->obj && !strcmp(a->obj->kind, "Secret") &&
			    !strcmp(a->obj->ns, ss->ns) && !strcmp(a->obj->name, secret) && a->at_ms >= e->at_ms) {
				snprintf(back, sizeof(back), " (the apply at %s brings it back)", dur(a->at_ms, t));
				break;
			}
		}
		lint_add(r, "MS253", e->file, e->mark,
			 "the delete event at %s removes Secret %s/%s, which StageSet %s/%s reads before its "
			 "stages (%s): a pass while it is gone fails before the stage loop, and that failure "
			 "writes the first stage \"%s\" with empty ledgers and no applied revision, so once the "
			 "Secret is back%s %s",
			 dur(e->at_ms, at), ss->ns, secret, ss->ns, ss->name, field, sp.stages[0].name, back, keeps);
		break; /* one finding per StageSet */
	}
release_spec:
	sst_spec_release(&sp);
}

/* ---------------------------------------------------------------- MS254 */

/* Where key @key of map @group of stage @name of @ss sits (else the StageSet). */
struct val_mark lint_ss_stage_key_mark(const struct obj *ss, const char *name, const char *group, const char *key)
{
	const struct val *stages = val_map_get(ss->spec, "stages");

	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n; i++) {
		const struct val *st = stages->u.list.items[i];
		const struct val *g = st && st->type == VAL_MAP ? val_map_get(st, group) : NULL;
		const struct val_kv *kv = g && g->type == VAL_MAP ? val_map_get_kv(g, key) : NULL;

		if (strcmp(val_str(val_map_get(st, "name"), ""), name) == 0 && kv && kv->key_mark.line)
			return kv->key_mark;
	}
	return ss->src.mark;
}

/*
 * MS254 (StageSet spec §3.10.3, §5 Q-15): onFailure's completions are
 * recorded in the revision's ledger, so a stage that fails again on the
 * same revision (each retry of a retried failure) does not run them again.
 */
static void rule_on_failure_once(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	struct sst_spec sp;
	char err[256];

	if (!ss->spec || ss->spec->type != VAL_MAP || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	for (size_t k = 0; k < sp.nstages; k++) {
		const struct sst_stage *st = &sp.stages[k];
		char *why;

		if (!st->has_actions || st->on_failure.n == 0)
			continue;
		why = retried_failure(s, ss, st, lint_ss_created_ms(s, ss), INT64_MAX);
		if (!why)
			continue;
		lint_add(r, "MS254", ss->src.file, lint_ss_stage_key_mark(ss, st->name, "actions", "onFailure"),
			 "StageSet %s/%s: stage \"%s\" has onFailure action%s \"%s\"%s and %s: onFailure's "
			 "completions are recorded in the revision's ledger, so they run at the first failure of "
			 "each revision only; the retries that fail the same revision again (error back-off, "
			 "5ms doubling up to 16m40s) run no onFailure",
			 ss->ns, ss->name, st->name, st->on_failure.n == 1 ? "" : "s", st->on_failure.items[0].name,
			 st->on_failure.n > 1 ? " and more" : "", why);
		free(why);
	}
	sst_spec_release(&sp);
}

/* ---------------------------------------------------------------- MS255 */

#define SUSPEND_READERS                                                                              \
	"readers that trust a status only while status.observedGeneration equals metadata.generation "   \
	"(kstatus, a Flux Kustomization's health check, kubectl wait on observedGeneration) see it in "  \
	"progress, not suspended, for as long as it stays suspended"

/*
 * MS255 (StageSet spec R-4, §5 Q-23): a StageSet suspended by its manifest
 * or by a patch event.  The early exit of R-4 writes the Ready condition
 * alone, so status.observedGeneration stays behind the generation.
 */
static void rule_suspend_generation(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *sus = ss->spec && ss->spec->type == VAL_MAP ? val_map_get(ss->spec, "suspend") : NULL;

	if (val_bool(sus, false))
		lint_add(r, "MS255", ss->src.file, sus->mark.line ? sus->mark : ss->src.mark,
			 "StageSet %s/%s is suspended from the start (spec.suspend true): its Suspended passes "
			 "write the Ready condition alone, never status.observedGeneration, which does not "
			 "reach metadata.generation until it is resumed: " SUSPEND_READERS,
			 ss->ns, ss->name);
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const struct val *spec = e->type == SCN_EV_PATCH && e->merge ? val_map_get(e->merge, "spec") : NULL;
		char at[GT_DURATION_BUFSZ];

		if (!spec || spec->type != VAL_MAP || !targets(e, ss) || !val_bool(val_map_get(spec, "suspend"), false))
			continue;
		lint_add(r, "MS255", e->file, e->mark,
			 "the patch event at %s suspends StageSet %s/%s (spec.suspend true): the Suspended pass "
			 "writes the Ready condition (with the current generation on the condition) but leaves "
			 "status.observedGeneration at the generation the controller last reconciled, while the "
			 "suspend, a spec edit, raised metadata.generation: " SUSPEND_READERS,
			 dur(e->at_ms, at), ss->ns, ss->name);
	}
}

/* ---------------------------------------------------------------- MS256 */

/*
 * MS256 (StageSet spec §3.7, §5 Q-17): the event gate keeps no baseline, so
 * Warning events that its pods carry when a new revision arrives, from
 * before it, count against that revision at its first evaluation.  Told for
 * the first later revision (a publish or a spec edit) at whose arrival the
 * pods model holds more such events than an event check's maxEvents, when
 * the check holds on failure (onFailure Rollback reverts instead).
 */
static void rule_event_baseline(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	struct sst_spec sp;
	char err[256], next[160];
	int64_t t = 0;

	if (!ss->spec || ss->spec->type != VAL_MAP || s->models.world.npods == 0 ||
	    sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	while ((t = next_revision(s, ss, t, next, sizeof(next))) >= 0) {
		bool told = false;

		for (size_t k = 0; k < sp.nstages && !told; k++) {
			const struct sst_stage *st = &sp.stages[k];

			for (size_t i = 0; st->has_promotion && st->promotion.has_event_gate &&
					   i < st->promotion.event_gate.nchecks && !told;
			     i++) {
				const struct sst_event_check *c = &st->promotion.event_gate.checks[i];
				int64_t first, n = scn_sw_warning_events_at(&s->models.world, ss->ns, c, t,
									    &first);
				char from[GT_DURATION_BUFSZ];

				const char *of = c->on_failure && *c->on_failure ? c->on_failure
										: st->promotion.event_gate.on_failure;

				if (n <= c->max_events || first >= t || (of && strcmp(of, "Rollback") == 0))
					continue; /* a Rollback verdict reverts instead of holding (MS240 tells when it cannot) */
				lint_add(r, "MS256", ss->src.file,
					 lint_ss_stage_key_mark(ss, st->name, "promotion", "eventGate"),
					 "StageSet %s/%s: the event check \"%s\" of stage \"%s\" counts the Warning "
					 "events its pods carry, with no baseline, and when a later revision arrives "
					 "(%s) the pods model holds %lld of them (from %s on), over its maxEvents %d: "
					 "they predate that revision, yet its first evaluation counts them and holds it "
					 "PromotionBlocked until they expire",
					 ss->ns, ss->name, c->name ? c->name : "", st->name, next, (long long)n,
					 dur(first, from), (int)c->max_events);
				told = true;
			}
		}
		if (told)
			break; /* one finding per StageSet: the first revision it strikes */
	}
	sst_spec_release(&sp);
}

/* ---------------------------------------------------------------- entry */

/* ---------------------------------------------------------------- MS258 */

/* The last change of what @ss is offered at or before @t_ms (as next_revision() finds them), else its creation. */
static int64_t last_revision(const struct scenario *s, const struct obj *ss, int64_t t_ms)
{
	int64_t when = lint_ss_created_ms(s, ss), next;
	char buf[160];

	while ((next = next_revision(s, ss, when, buf, sizeof(buf))) >= 0 && next <= t_ms)
		when = next;
	return when;
}

/*
 * One rise of the restarts a restart check of a StageSet's stage sees: the
 * pods model's restart count for pods the check selects going up by @rise
 * at @at_ms.  @interval_ms is the StageSet's interval (the controller's
 * default when unset), @soak_ms the stage's soak (0 when unset).
 */
struct restart_rise {
	const struct sst_stage *st;
	const struct sst_restart_check *chk;
	int64_t at_ms, interval_ms, soak_ms;
	int32_t rise;
};

/*
 * Tells of @rr for StageSet @ss into @r when the rule's conditions hold;
 * returns whether it told (the walk then leaves the check: one finding per
 * check).
 */
typedef bool (*restart_rise_fn)(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				const struct restart_rise *rr);

/*
 * Calls @tell for each rise of restarts (above the check's maxRestarts)
 * that a restart check of a stage of @ss without a manual gate sees in the
 * pods model of its namespace, in the order of checks, pod groups and
 * restarts, until @tell tells once for that check.  Nothing when @ss has
 * no spec that parses or the world models no pods.
 */
static void walk_restart_rises(struct lint_report *r, const struct scenario *s, const struct obj *ss,
			       restart_rise_fn tell)
{
	const struct scn_sw_config *w = &s->models.world;
	struct sst_spec sp;
	char err[256];

	if (!ss->spec || ss->spec->type != VAL_MAP || w->npods == 0 || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	for (size_t k = 0; k < sp.nstages; k++) {
		const struct sst_stage *st = &sp.stages[k];
		const struct sst_promotion *pr = &st->promotion;
		struct restart_rise rr = {
			.st = st,
			.interval_ms = sp.interval.set && sp.interval.ms > 0 ? sp.interval.ms : SSC_DEFAULT_INTERVAL_MS,
			.soak_ms = pr->soak.set && pr->soak.ms > 0 ? pr->soak.ms : 0,
		};

		if (!st->has_promotion || !pr->has_restart_gate || pr->require_manual)
			continue;
		for (size_t i = 0; i < pr->restart_gate.nchecks; i++) {
			bool told = false;

			rr.chk = &pr->restart_gate.checks[i];
			for (size_t g = 0; g < w->npods && !told; g++) {
				const struct scn_sw_pods *p = &w->pods[g];
				int32_t before = 0;

				if ((p->ns && strcmp(p->ns, ss->ns) != 0) || !lbl_matches(&rr.chk->selector, &p->labels))
					continue;
				for (size_t j = 0; j < p->nrestarts && !told; before = p->restarts[j++].total) {
					rr.at_ms = p->restarts[j].at_ms;
					rr.rise = p->restarts[j].total - before;
					told = rr.rise > rr.chk->max_restarts && tell(r, s, ss, &rr);
				}
			}
		}
	}
	sst_spec_release(&sp);
}

/*
 * MS258 (StageSet spec §3.7.3, §5 Q-17): the restart gate refreshes its
 * baseline (promotionState.restartBaseline) at every pass of a stage
 * promoted at its revision, so restarts that happen while it stays
 * promoted are taken in at the next pass and never block.  Told for a
 * restart check (of a stage without a manual gate, which would keep it
 * unpromoted) whose pods the pods model restarts more than its maxRestarts
 * at a time T when the stage has had its revision for its soak and one
 * interval (promoted, a pass gone by), with no new revision for an
 * interval after T (a pass takes them in first).  One finding per check.
 */
static bool tell_restarts_promoted(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				   const struct restart_rise *rr)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], buf[160];
	int64_t t = rr->at_ms, t0 = last_revision(s, ss, t);
	int64_t t1 = next_revision(s, ss, t, buf, sizeof(buf));

	if (t < t0 + rr->soak_ms + rr->interval_ms || (t1 >= 0 && t1 < t + rr->interval_ms))
		return false;
	lint_add(r, "MS258", ss->src.file, lint_ss_stage_key_mark(ss, rr->st->name, "promotion", "restartGate"),
		 "StageSet %s/%s: the restart check \"%s\" of stage \"%s\" (maxRestarts %d) "
		 "selects pods the pods model restarts %d times at %s, when the stage has held its "
		 "revision (new at %s) past its %s%s interval: the restart gate refreshes its "
		 "baseline at every pass of a promoted stage, so the pass after %s takes these "
		 "restarts in, nothing blocks or tells them, and Ready stays True; the gate judges "
		 "restarts only between a new revision's arrival and its promotion",
		 ss->ns, ss->name, rr->chk->name ? rr->chk->name : "", rr->st->name, (int)rr->chk->max_restarts,
		 (int)rr->rise, dur(t, a), dur(t0, b), rr->soak_ms ? "soak and one " : "", dur(rr->interval_ms, c), a);
	return true;
}

/* ---------------------------------------------------------------- MS278 */

/*
 * The first instant after @after_ms and before @before_ms (-1: no bound)
 * at which the world fails stage @stage of @ss for certain
 * (lint_ss_failing_at(): a regress event's start, an apply failure
 * window's start), with why into @why; -1 when none.
 */
static int64_t fails_later(const struct scenario *s, const struct obj *ss, const char *stage, int64_t after_ms,
			   int64_t before_ms, char *why, size_t len)
{
	int64_t best = -1;
	struct scn_sw_resolved e;
	char buf[256];

	for (size_t i = 0; i < s->nfevents; i++) {
		int64_t t = s->fevents[i].at_ms;

		if (s->fevents[i].type != SCN_FEV_REGRESS || t <= after_ms || (before_ms >= 0 && t >= before_ms) ||
		    (best >= 0 && t >= best) || !lint_ss_failing_at(s, ss, stage, t, buf, sizeof(buf)))
			continue;
		best = t;
		snprintf(why, len, "%s", buf);
	}
	scn_sw_resolve(&s->models.world, &ss->labels, stage, &e);
	for (size_t i = 0; e.apply_failure && i < e.apply_failure->during.n; i++) {
		int64_t t = e.apply_failure->during.items[i].from_ms;

		if (t <= after_ms || (before_ms >= 0 && t >= before_ms) || (best >= 0 && t >= best) ||
		    !lint_ss_failing_at(s, ss, stage, t, buf, sizeof(buf)))
			continue;
		best = t;
		snprintf(why, len, "%s", buf);
	}
	return best;
}

/*
 * MS278 (StageSet spec §3.7.3, §3.13, §5 Q-12): a restart check counts a
 * stage's pod restarts from promotionState.restartBaseline, which a failed
 * (or StageProgressing) entry drops; the next pass then takes the count so
 * far as its baseline.  Told for a restart check (of a stage without a
 * manual gate) whose pods the pods model restarts more than its maxRestarts
 * while the stage gates a new revision (within its soak and one interval of
 * the revision, as MS258 reckons promotion), blocking it, when the world
 * then fails the stage for certain before the next revision: the block is
 * forgiven and the revision promoted.  One finding per check.
 */
static bool tell_restarts_forgiven(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				   const struct restart_rise *rr)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], buf[160], why[256];
	int64_t t = rr->at_ms, t0 = last_revision(s, ss, t);
	int64_t t1 = next_revision(s, ss, t, buf, sizeof(buf)), f;

	if (t0 <= lint_ss_created_ms(s, ss) || t >= t0 + rr->soak_ms + rr->interval_ms ||
	    (f = fails_later(s, ss, rr->st->name, t, t1, why, sizeof(why))) < 0)
		return false;
	lint_add(r, "MS278", ss->src.file, lint_ss_stage_key_mark(ss, rr->st->name, "promotion", "restartGate"),
		 "StageSet %s/%s: the restart check \"%s\" of stage \"%s\" (maxRestarts %d) "
		 "selects pods the pods model restarts %d times at %s, while the stage gates the "
		 "revision new at %s, which it holds PromotionBlocked; at %s %s: a failed stage's "
		 "status entry is written without promotionState, whose restartBaseline the check "
		 "counts from, so the pass that finds the stage healthy again takes those restarts "
		 "as its baseline, the check passes and the revision goes on past the gate",
		 ss->ns, ss->name, rr->chk->name ? rr->chk->name : "", rr->st->name, (int)rr->chk->max_restarts,
		 (int)rr->rise, dur(t, a), dur(t0, b), dur(f, c), why);
	return true;
}

void lint_ss_ledgers(struct lint_report *r, const struct scenario *s)
{
	size_t n;
	const struct obj **ss = scn_stagesets(s, &n);

	for (size_t i = 0; i < n; i++) {
		if (lint_ss_created_ms(s, ss[i]) > 0 && stageset_named(s, ss[i]->ns, ss[i]->name) != ss[i])
			continue; /* a re-apply of a StageSet linted already */
		rule_promote_replay(r, s, ss[i]);
		rule_reconcile_stage_replay(r, s, ss[i]);
		rule_soak_restarts(r, s, ss[i]);
		rule_preloop_wipe(r, s, ss[i]);
		rule_on_failure_once(r, s, ss[i]);
		rule_suspend_generation(r, s, ss[i]);
		rule_event_baseline(r, s, ss[i]);
		walk_restart_rises(r, s, ss[i], tell_restarts_promoted);
		walk_restart_rises(r, s, ss[i], tell_restarts_forgiven);
	}
	free(ss);
}
