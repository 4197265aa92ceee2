/*
 * The StageSet failure rules of lint (MS226..MS233); see lint_ss_failure.h.
 *
 * A stage's modelled behaviour is the one the run gives it:
 * scn_sw_resolve() over the StageSet's labels and the stage's name, the
 * first rule that sets a field deciding it, else the top level.
 */
#include "sim/lint/lint_ss_failure.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_conflict.h"
#include "engine/stageset_controller.h"
#include "engine/labels.h"
#include "engine/stageset_env.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint_ss_ledgers.h"
#include "sim/load/dist.h"
#include "sim/load/scn_ssworld.h"

/* The controller's error back-off cap (controller-runtime: 5 ms doubling to 1000 s). */
#define BACKOFF_CAP_MS INT64_C(1000000)

/* A string field of a map, NULL when absent or not a string. */
static const char *str_of(const struct val *m, const char *key)
{
	const struct val *v = m && m->type == VAL_MAP ? val_map_get(m, key) : NULL;

	return v && v->type == VAL_STRING ? v->u.s : NULL;
}

/* Where key @key of map @m sits (its value, else the key), @fallback when absent. */
static struct val_mark mark_of(const struct val *m, const char *key, struct val_mark fallback)
{
	const struct val_kv *kv = m && m->type == VAL_MAP ? val_map_get_kv(m, key) : NULL;

	if (kv && kv->v && kv->v->mark.line)
		return kv->v->mark;
	if (kv && kv->key_mark.line)
		return kv->key_mark;
	return fallback;
}

/* A Go duration of @ms, into @buf (GT_DURATION_BUFSZ). */
static const char *dur(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

static int64_t median_ms(const struct dist *d)
{
	double q = dist_quantile(d, 0.5);

	return isfinite(q) && q > 0 ? (int64_t)llround(q) : 0;
}

/*
 * " from 10m until 20m" (each of @w's windows, joined by " and"), or "" for
 * none (always).  Returns a new string.
 */
static char *windows_text(const struct scn_sw_windows *w)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < w->n; i++) {
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], *next;

		if (w->items[i].until_ms == INT64_MAX)
			next = xasprintf("%s%s from %s", out, i ? " and" : "", dur(w->items[i].from_ms, a));
		else
			next = xasprintf("%s%s from %s until %s", out, i ? " and" : "",
					 dur(w->items[i].from_ms, a), dur(w->items[i].until_ms, b));
		free(out);
		out = next;
	}
	return out;
}

static const struct val *stages_of(const struct obj *ss)
{
	const struct val *st = ss->spec && ss->spec->type == VAL_MAP ? val_map_get(ss->spec, "stages") : NULL;

	return st && st->type == VAL_LIST ? st : NULL;
}

static size_t list_len(const struct val *v)
{
	return v && v->type == VAL_LIST ? v->u.list.n : 0;
}

static bool has_exprs(const struct val *st)
{
	const struct val *e = val_path(st, "readyChecks.exprs");

	return e && e->type == VAL_LIST && e->u.list.n > 0;
}

static bool skips_image_verification(const struct obj *ss)
{
	const char *v = obj_strmap_get(&ss->annotations, "stages.metio.wtf/skip-image-verification");

	return v && v[0];
}

/* ---------------------------------------------------------------- MS226 */

/*
 * Whether StageSet @ss may be offered version @v: its inline
 * spec.version.value, a publish event whose selector matches its labels (a
 * namespaceSelector is taken as matching: lint reads no Namespace labels
 * here), or what a modelled source offers before any publish.
 */
static bool version_offered(const struct scenario *s, const struct obj *ss, const char *v)
{
	const char *inline_v = str_of(ss->spec ? val_map_get(ss->spec, "version") : NULL, "value");

	if (inline_v && strcmp(inline_v, v) == 0)
		return true;
	for (size_t i = 0; i < s->nfevents; i++)
		if (s->fevents[i].type == SCN_FEV_PUBLISH && s->fevents[i].version &&
		    strcmp(s->fevents[i].version, v) == 0 && lbl_matches(&s->fevents[i].selector, &ss->labels))
			return true;
	if (strcmp(v, SCN_SW_DEFAULT_INITIAL_VERSION) == 0)
		return true;
	for (size_t i = 0; i < s->models.world.nsources; i++)
		if (s->models.world.sources[i].initial_version &&
		    strcmp(s->models.world.sources[i].initial_version, v) == 0)
			return true;
	return false;
}

/*
 * Why stage @st fails on every try in the world @e, as a new string, or NULL
 * when it need not: a plain failure (one the controller retries through
 * error back-off) that is certain.  A terminal one ends the cycle (MS227).
 */
static char *certain_failure(const struct scenario *s, const struct obj *ss, const struct val *st,
			     const struct scn_sw_resolved *e)
{
	const struct scn_sw_failure *f = e->apply_failure;

	if (f && f->probability >= 1 && f->during.n == 0 && f->cls == SSC_ERR &&
	    f->op != SCN_SW_OP_IMAGE_VERIFICATION) /* terminal, or skipped by the annotation */
		return xasprintf("every apply fails at \"%s\" (apply.failure.probability 1)",
				 scn_sw_op_text(f->op));
	if (e->ready_failed->failed_probability >= 1)
		return xstrdup("its objects become Failed after every apply of a new revision "
			       "(readiness.failedProbability 1)");
	if (has_exprs(st) && e->ready_failed->failed_probability <= 0 && e->ready_never->never_probability <= 0 &&
	    e->exprs_failed->failed_probability >= 1)
		return xstrdup("its ready-check expressions fail after every apply of a new revision "
			       "(readyExprs.failedProbability 1)");
	if (e->reg_p->probability >= 1 && e->reg_effect->effect == SCN_SW_EFFECT_FAILED &&
	    median_ms(&e->reg_after->after) == 0 && e->ready_never->never_probability <= 0) {
		const struct scn_sw_regression *v = e->reg_versions;
		char *which, *out;

		if (v->has_versions) {
			which = NULL;
			for (size_t i = 0; i < v->nversions; i++) {
				char *next;

				if (!version_offered(s, ss, v->versions[i]))
					continue;
				next = which ? xasprintf("%s or %s", which, v->versions[i])
					     : xasprintf("a revision carrying version %s", v->versions[i]);
				free(which);
				which = next;
			}
			if (!which)
				return NULL; /* no version it strikes is ever offered */
		} else {
			which = xstrdup("every revision");
		}
		out = xasprintf("%s regresses to Failed as soon as it is ready (regression.probability 1, "
				"after 0s)",
				which);
		free(which);
		return out;
	}
	return NULL;
}

/* MS226 (StageSet spec §3.11.2, §5 Q-5): the whole-run rollback never parks. */
static void rule_rollback_loop(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *stages = stages_of(ss);
	const struct val *onrb = ss->spec ? val_map_get(ss->spec, "onRollback") : NULL;
	size_t nonrb = onrb && onrb->type == VAL_LIST ? onrb->u.list.n : 0;
	char cap[GT_DURATION_BUFSZ];

	if (!val_bool(ss->spec ? val_map_get(ss->spec, "rollbackOnFailure") : NULL, false) || !stages)
		return;
	for (size_t k = 0; k < stages->u.list.n; k++) {
		const struct val *st = stages->u.list.items[k];
		const char *name = str_of(st, "name");
		struct scn_sw_resolved e;
		char *why, *rb;

		if (!name)
			continue;
		scn_sw_resolve(&s->models.world, &ss->labels, name, &e);
		if (e.restore_outcome->outcome != SCN_SW_RESTORED)
			return; /* a restore that fails ends or changes the cycle (MS227 tells the terminal ones) */
		why = certain_failure(s, ss, st, &e);
		if (!why)
			continue;
		rb = nonrb ? xasprintf("its onRollback (%zu action%s) runs on every cycle once a revision "
				       "has succeeded (the snapshot then exists)",
				       nonrb, nonrb == 1 ? "" : "s")
			   : xstrdup("every cycle emits a RolledBack event");
		lint_add(r, "MS226", ss->src.file, mark_of(ss->spec, "rollbackOnFailure", ss->src.mark),
			 "StageSet %s/%s sets rollbackOnFailure and its stage \"%s\" fails on every try: %s; "
			 "each failed run is rolled back to the last-applied revisions, and the next pass "
			 "applies the same revision again, after an error back-off that doubles from 5ms up "
			 "to %s, for as long as the source offers it: the controller never parks a "
			 "whole-run rollback; %s",
			 ss->ns, ss->name, name, why, dur(BACKOFF_CAP_MS, cap), rb);
		free(why);
		free(rb);
		return; /* one finding per StageSet: the first stage that fails stops the run */
	}
}

/* ---------------------------------------------------------------- MS227 */

/* Whether stage @st can fail at all in the world @e (the rollback's trigger). */
static bool can_fail(const struct val *st, const struct scn_sw_resolved *e)
{
	return (e->apply_failure && e->apply_failure->probability > 0) ||
	       e->ready_failed->failed_probability > 0 ||
	       (has_exprs(st) && e->exprs_failed->failed_probability > 0) ||
	       (e->reg_p->probability > 0 && e->reg_effect->effect == SCN_SW_EFFECT_FAILED);
}

static void terminal_apply(struct lint_report *r, const struct obj *ss, const struct val *st,
			   const char *name, const struct scn_sw_failure *f)
{
	const char *reason, *what;
	char *when, p[32];

	if (!f || f->probability <= 0)
		return;
	if (f->cls == SSC_ERR_FORBIDDEN) {
		reason = SSC_REASON_RBAC_DENIED;
		what = "be denied (apply.failure.class forbidden)";
	} else if (f->op == SCN_SW_OP_IMAGE_VERIFICATION && !skips_image_verification(ss)) {
		reason = SSC_REASON_IMAGE_UNVERIFIED;
		what = "fail its image verification (apply.failure.op imageVerification)";
	} else if (f->cls == SSC_ERR_TERMINAL_FETCH) {
		reason = SSC_REASON_STAGE_FAILED;
		what = "fail its fetch terminally (apply.failure.class terminalFetch)";
	} else {
		return;
	}
	when = windows_text(&f->during);
	snprintf(p, sizeof(p), "%g", f->probability);
	lint_add(r, "MS227", ss->src.file, mark_of(st, "name", ss->src.mark),
		 "StageSet %s/%s: an apply of stage \"%s\" can %s, with probability %s per apply%s: the "
		 "controller writes Ready False %s and does not requeue this failure, so the StageSet "
		 "stays so until an event wakes it (a spec edit, a new source revision, a "
		 "reconcile request)%s",
		 ss->ns, ss->name, name, what, p, when, reason,
		 f->during.n && f->during.items[f->during.n - 1].until_ms != INT64_MAX
			 ? ", also after the modelled failures end"
			 : "");
	free(when);
}

static void terminal_restore(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *stages = stages_of(ss);

	if (!val_bool(ss->spec ? val_map_get(ss->spec, "rollbackOnFailure") : NULL, false) || !stages)
		return;
	for (size_t k = 0; k < stages->u.list.n; k++) {
		const struct val *st = stages->u.list.items[k];
		const char *name = str_of(st, "name");
		struct scn_sw_resolved e;
		const char *reason;

		if (!name)
			continue;
		scn_sw_resolve(&s->models.world, &ss->labels, name, &e);
		if (e.restore_outcome->outcome == SCN_SW_PREVIOUS_UNAVAILABLE)
			reason = SSC_REASON_PREVIOUS_REVISION_UNAVAILABLE;
		else if (e.restore_outcome->outcome == SCN_SW_IMAGE_UNVERIFIED)
			reason = SSC_REASON_IMAGE_UNVERIFIED;
		else
			continue;
		if (!can_fail(st, &e))
			continue;
		lint_add(r, "MS227", ss->src.file, mark_of(ss->spec, "rollbackOnFailure", ss->src.mark),
			 "StageSet %s/%s sets rollbackOnFailure, its stage \"%s\" can fail and the "
			 "modelled restore of its last-applied revision ends %s (restore.outcome): the "
			 "controller writes Ready False %s and does not requeue, so the StageSet stays so "
			 "until an event wakes it (a spec edit, a new source revision, a reconcile request)",
			 ss->ns, ss->name, name, reason, reason);
		return;
	}
}

static void rule_terminal(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *stages = stages_of(ss);

	for (size_t k = 0; stages && k < stages->u.list.n; k++) {
		const struct val *st = stages->u.list.items[k];
		const char *name = str_of(st, "name");
		struct scn_sw_resolved e;

		if (!name)
			continue;
		scn_sw_resolve(&s->models.world, &ss->labels, name, &e);
		terminal_apply(r, ss, st, name, e.apply_failure);
	}
	terminal_restore(r, s, ss);
}

/* ---------------------------------------------------------------- MS228 */

/*
 * MS228 (StageSet spec §3.9, §5 Q-2): the kstatus wait and the ready-check
 * expression poll each get the stage's whole timeout T, so a stage's verify
 * can block 2·T.  Told for a stage with expressions (and the kstatus wait
 * on) whose modelled verify outlasts T: at the medians, the objects Current
 * within T and the expressions holding (or the poll giving up at T) after
 * more than T in all; or expressions that may never hold.
 */
static void rule_double_timeout(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *stages = stages_of(ss);

	for (size_t k = 0; stages && k < stages->u.list.n; k++) {
		const struct val *st = stages->u.list.items[k];
		const char *name = str_of(st, "name");
		int64_t t = lint_stage_timeout_ms(ss->spec, st), w, x, v;
		struct scn_sw_resolved e;
		char tt[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], half[GT_DURATION_BUFSZ];
		char ws[GT_DURATION_BUFSZ], xs[GT_DURATION_BUFSZ], vs[GT_DURATION_BUFSZ];
		char *why;

		if (!name || !has_exprs(st) || val_bool(val_path(st, "readyChecks.disableWait"), false))
			continue;
		scn_sw_resolve(&s->models.world, &ss->labels, name, &e);
		w = median_ms(&e.ready_delay->delay);
		x = median_ms(&e.exprs_delay->delay);
		if (w >= t)
			continue; /* the kstatus wait runs out first: the expressions are never polled */
		v = w + (x < t ? x : t);
		if (v > t && x < t)
			why = xasprintf("at the medians of the StageSet world its objects are Current %s after "
					"the apply and its expressions hold %s later, so a verify succeeds after %s, "
					"past its %s timeout",
					dur(w, ws), dur(x, xs), dur(v, vs), dur(t, tt));
		else if (v > t)
			why = xasprintf("at the medians of the StageSet world its objects are Current %s after "
					"the apply and its expressions take %s more, so the poll gives up at %s, "
					"%s after the apply",
					dur(w, ws), dur(x, xs), dur(t, tt), dur(v, vs));
		else if (e.exprs_never->never_probability > 0)
			why = xasprintf("expressions that never hold (readyExprs.neverProbability %g) keep it "
					"%s after the apply at the median, past its %s timeout",
					e.exprs_never->never_probability, dur(w + t, vs), dur(t, tt));
		else
			continue;
		lint_add(r, "MS228", ss->src.file, mark_of(st, "name", ss->src.mark),
			 "StageSet %s/%s: the verify of stage \"%s\" can block %s, not %s: its kstatus wait "
			 "and its ready-check expression poll each get the whole %s timeout, and the pass "
			 "holds its worker that long; %s; to bound the verify at %s set readyChecks.timeout "
			 "to %s, or count %s per stage when sizing waves and windows",
			 ss->ns, ss->name, name, dur(2 * t, t2), dur(t, tt), dur(t, tt), why, dur(t, tt),
			 dur(t / 2, half), dur(2 * t, t2));
		free(why);
	}
}

/* ---------------------------------------------------------------- MS229 */

/* What decides migration action @name of stage @stage of @ss: a rule's list, else the top level's. */
static const struct scn_sw_action *migration_action(const struct scenario *s, const struct obj *ss,
						    const char *name, const char *stage)
{
	const struct scn_sw_config *c = &s->models.world;

	for (size_t i = 0; i < c->nrules; i++)
		if (scn_sw_rule_matches(&c->rules[i], &ss->labels, stage)) {
			const struct scn_sw_action *a = scn_sw_find_action(&c->rules[i].b, name, stage, "migration");

			if (a)
				return a;
		}
	return scn_sw_find_action(&c->top, name, stage, "migration");
}

/*
 * MS229 (StageSet spec §3.4, §5 Q-6): a migration action the world can make
 * fail.  Five consecutive failed passes (error back-off 5, 10, 20, 40 ms
 * between them) reach MigrationDirty, which only removes the requeue:
 * nothing checks the counter before running, so any later trigger runs the
 * destructive action again.
 */
static void rule_dirty(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *migs = ss->spec ? val_map_get(ss->spec, "migrations") : NULL;
	const struct val *stages = stages_of(ss);
	const char *first = stages && stages->u.list.n ? str_of(stages->u.list.items[0], "name") : NULL;

	for (size_t i = 0; migs && migs->type == VAL_LIST && i < migs->u.list.n; i++) {
		const struct val *mg = migs->u.list.items[i];
		const struct val *acts = val_map_get(mg, "actions");
		const char *stage = str_of(mg, "stage") ? str_of(mg, "stage") : first;

		for (size_t k = 0; acts && acts->type == VAL_LIST && k < acts->u.list.n; k++) {
			const char *name = str_of(acts->u.list.items[k], "name");
			const struct scn_sw_action *a = name ? migration_action(s, ss, name, stage) : NULL;
			char p[32], d[GT_DURATION_BUFSZ], when[GT_DURATION_BUFSZ];
			int64_t each;

			if (!a || !a->has_failure || a->failure.probability <= 0)
				continue;
			each = a->has_duration ? median_ms(&a->duration) : SCN_SW_DEFAULT_ACTION_MS;
			snprintf(p, sizeof(p), "%g", a->failure.probability);
			lint_add(r, "MS229", ss->src.file, mark_of(acts->u.list.items[k], "name", ss->src.mark),
				 "StageSet %s/%s: action \"%s\" of migration \"%s\" can fail (probability %s "
				 "per attempt): five failed passes in a row, 5, 10, 20 and 40ms of back-off "
				 "apart, reach MigrationDirty (at its %s median attempt, about %s after the "
				 "first when every attempt fails), and Dirty only stops the retries: nothing "
				 "checks the count before running, so any later trigger (a new revision, a spec "
				 "edit, a FleetRollout approval) runs the action again, until a reconcile "
				 "request resets the count",
				 ss->ns, ss->name, name, str_of(mg, "name") ? str_of(mg, "name") : "", p,
				 dur(each, d), dur(5 * each + 75, when));
		}
	}
}

/* ---------------------------------------------------------------- MS230 */

/* Whether regress event @ev reaches StageSet @ss (by name, or by selector and namespace). */
static bool regress_reaches(const struct scn_fevent *ev, const struct obj *ss)
{
	if (ev->type != SCN_FEV_REGRESS)
		return false;
	if (!ev->by_selector)
		return ev->target.name && strcmp(ev->target.name, ss->name) == 0 &&
		       strcmp(ev->target.ns ? ev->target.ns : "default", ss->ns) == 0;
	return (!ev->target.ns || strcmp(ev->target.ns, ss->ns) == 0) && lbl_matches(&ev->selector, &ss->labels);
}

/*
 * MS230 (StageSet spec §3.11.2, §5 Q-4): every pass re-verifies every stage,
 * so a fault of the running workload (kstatus Failed) seen by a steady pass
 * fails the run, and rollbackOnFailure "rolls back" to the snapshot of the
 * same revision and runs onRollback, on every retry while the fault lasts.
 * Told when the world can fault a steady workload: a drawn regression with
 * effect Failed that starts after the verify (its onset median above 0s),
 * or a regress event with effect Failed that reaches the StageSet.
 */
static void rule_steady_rollback(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *stages = stages_of(ss);
	size_t nonrb = list_len(ss->spec ? val_map_get(ss->spec, "onRollback") : NULL);
	char *why = NULL, *onrb;

	if (!val_bool(ss->spec ? val_map_get(ss->spec, "rollbackOnFailure") : NULL, false) || !stages)
		return;
	for (size_t i = 0; i < s->nfevents && !why; i++) {
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

		if (regress_reaches(&s->fevents[i], ss) && s->fevents[i].effect == SCN_SW_EFFECT_FAILED)
			why = xasprintf("the regress event at %s makes its workload Failed for %s",
					dur(s->fevents[i].at_ms, a), dur(s->fevents[i].for_ms, b));
	}
	for (size_t k = 0; k < stages->u.list.n && !why; k++) {
		const char *name = str_of(stages->u.list.items[k], "name");
		struct scn_sw_resolved e;
		char p[32], a[GT_DURATION_BUFSZ];

		if (!name)
			continue;
		scn_sw_resolve(&s->models.world, &ss->labels, name, &e);
		if (e.reg_p->probability <= 0 || e.reg_effect->effect != SCN_SW_EFFECT_FAILED ||
		    median_ms(&e.reg_after->after) <= 0)
			continue;
		snprintf(p, sizeof(p), "%g", e.reg_p->probability);
		why = xasprintf("a ready revision of stage \"%s\" regresses to Failed with probability %s, "
				"%s after it is ready at the median",
				name, p, dur(median_ms(&e.reg_after->after), a));
	}
	if (!why)
		return;
	onrb = nonrb ? xasprintf("runs its onRollback (%zu action%s) each time", nonrb, nonrb == 1 ? "" : "s")
		     : xstrdup("emits RolledBack each time");
	lint_add(r, "MS230", ss->src.file, mark_of(ss->spec, "rollbackOnFailure", ss->src.mark),
		 "StageSet %s/%s sets rollbackOnFailure and %s: every pass re-verifies every stage, so "
		 "the next steady pass fails the run, and the controller rolls back to the snapshot of "
		 "the same revision and %s, on every retry while the fault lasts",
		 ss->ns, ss->name, why, onrb);
	free(why);
	free(onrb);
}

/* ---------------------------------------------------------------- MS231 */

/*
 * The object apply.conflicts entry @k (NULL: the workload) of a stage of
 * StageSet @ss stands for, as the StageSet world renders it
 * (sim/models/stageset_world_stages.c): defaults Deployment @wname (the
 * workload's name, "<stageset>-<stage>"; apps/v1, else v1) in the
 * StageSet's namespace.  @o borrows from @k, @ss and @wname.
 */
static void conflict_object(const struct obj *ss, const char *wname, const struct scn_sw_conflict *k,
			    struct scf_object *o)
{
	o->kind = k && k->kind ? k->kind : "Deployment";
	o->api_version = k && k->api_version ? k->api_version
					     : strcmp(o->kind, "Deployment") == 0 ? "apps/v1" : "v1";
	o->name = k && k->name ? k->name : wname;
	o->ns = k && k->ns ? k->ns : ss->ns;
	o->force_annotation = k && k->force_annotation;
}

/*
 * The first apply.conflicts entry of @ap that stage @k of @sp fails on: one a
 * new revision can change (probability > 0) whose object the stage's
 * conflict handling (force, conflictPolicy, the force annotation) leaves at
 * Fail, so the apply fails at op "apply" with error back-off.  NULL when
 * none does, or when conflict handling refuses every apply (op "conflict
 * policy": no apply ever goes through).  @o receives the object.
 */
static const struct scn_sw_conflict *failing_conflict(const struct obj *ss, const struct sst_spec *sp,
						       size_t k, const struct scn_sw_apply *ap,
						       struct scf_object *o, char *wname, size_t wlen)
{
	size_t n = 1 + ap->nconflicts;
	struct scf_object *objs = xcalloc(n, sizeof(*objs));
	enum scf_action *act = xcalloc(n, sizeof(*act));
	const struct scn_sw_conflict *found = NULL;
	char err[512];

	/*
	 * The workload, then each entry's object: an entry that names the
	 * workload is decided as the world decides the workload (its force
	 * annotation, the rule that matches it), a second time changing nothing.
	 */
	snprintf(wname, wlen, "%s-%s", ss->name, sp->stages[k].name);
	conflict_object(ss, wname, NULL, &objs[0]);
	for (size_t i = 0; i < ap->nconflicts; i++)
		conflict_object(ss, wname, &ap->conflicts[i], &objs[1 + i]);
	if (scf_resolve_conflict_handling(objs, n, &sp->stages[k], act, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < ap->nconflicts && !found; i++) {
			if (ap->conflicts[i].probability <= 0 || act[1 + i] != SCF_FAIL)
				continue;
			found = &ap->conflicts[i];
			*o = objs[1 + i];
		}
	}
	free(act);
	free(objs);
	return found;
}

/*
 * MS231 (StageSet spec §3.11, §3.13, §5 Q-14): a failed stage's status
 * entry records the new revision as applied even when nothing was, so the
 * retry's real apply is reported as a DriftCorrected Warning and the
 * stage's own errorBudget gate (entry of a new revision) is skipped.  Told
 * for a stage whose modelled apply can fail and be retried (a plain
 * failure), or whose new revision can change an apply.conflicts object its
 * conflict handling leaves at Fail (every retry fails the same way until
 * the policy or the force changes, and the apply that then goes through is
 * the DriftCorrected one).
 */
static void rule_failed_claims(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct val *stages = stages_of(ss);
	bool rollback = val_bool(ss->spec ? val_map_get(ss->spec, "rollbackOnFailure") : NULL, false);
	struct sst_spec sp;
	char perr[256];
	/* the stages as the controller reads them, for conflict handling (a spec it refuses: none) */
	bool parsed = ss->spec && ss->spec->type == VAL_MAP &&
		      sst_spec_parse(ss->spec, &sp, perr, sizeof(perr)) == 0;

	for (size_t k = 0; stages && k < stages->u.list.n; k++) {
		const struct val *st = stages->u.list.items[k];
		const char *name = str_of(st, "name");
		const struct val *eb = st && st->type == VAL_MAP ? val_map_get(st, "errorBudget") : NULL;
		const struct scn_sw_failure *f;
		const struct scn_sw_conflict *cf = NULL;
		struct scn_sw_resolved e;
		struct scf_object co;
		char *cause, wname[320];

		if (!name)
			continue;
		scn_sw_resolve(&s->models.world, &ss->labels, name, &e);
		if (parsed && e.apply_conflicts && k < sp.nstages && !strcmp(sp.stages[k].name, name))
			cf = failing_conflict(ss, &sp, k, e.apply_conflicts, &co, wname, sizeof(wname));
		f = e.apply_failure;
		if (f && f->probability > 0 && f->cls == SSC_ERR && f->op != SCN_SW_OP_IMAGE_VERIFICATION) {
			char p[32];

			snprintf(p, sizeof(p), "%g", f->probability);
			cause = xasprintf("an apply of stage \"%s\" can fail at \"%s\" (probability %s per apply), "
					  "and the failed stage's status records the new revision as applied although "
					  "nothing was: the retry's real apply",
					  name, scn_sw_op_text(f->op), p);
		} else if (cf) {
			char p[32];

			snprintf(p, sizeof(p), "%g", cf->probability);
			cause = xasprintf("a new revision of stage \"%s\" can change an immutable field of %s "
					  "%s/%s (probability %s per revision, spec.models.stagesets.apply."
					  "conflicts) and its conflict handling is Fail, so the apply fails and "
					  "every retry of that revision meets the conflict again; the failed "
					  "stage's status records the new revision as applied although nothing "
					  "was: the apply that goes through once the conflict is resolved "
					  "(conflictPolicy Recreate, or force)",
					  name, co.kind, co.ns, co.name, p);
		} else if (rollback && e.restore_outcome->outcome == SCN_SW_RESTORED &&
			   (e.ready_failed->failed_probability > 0 ||
			    (has_exprs(st) && e.exprs_failed->failed_probability > 0) ||
			    (e.reg_p->probability > 0 && e.reg_effect->effect == SCN_SW_EFFECT_FAILED &&
			     median_ms(&e.reg_after->after) == 0))) {
			/* a new revision that fails its verify: a steady fault restores the same revision */
			cause = xasprintf("stage \"%s\" can fail and rollbackOnFailure restores the previous "
					  "revision, while the failed stage's status keeps the new revision as "
					  "applied: the next pass's apply of the new revision",
					  name);
		} else {
			continue;
		}
		lint_add(r, "MS231", ss->src.file, mark_of(st, "name", ss->src.mark),
			 "StageSet %s/%s: %s is then reported as a DriftCorrected Warning (no drift "
			 "happened)%s",
			 ss->ns, ss->name, cause,
			 eb && eb->type == VAL_MAP ? ", and the stage's errorBudget is not consulted for that "
						      "revision (it gates only a revision other than the one "
						      "recorded)"
						    : "");
		free(cause);
	}
	if (parsed)
		sst_spec_release(&sp);
}

/* ---------------------------------------------------------------- entry */

void lint_ss_failure(struct lint_report *r, const struct scenario *s)
{
	size_t n;
	const struct obj **ss = scn_stagesets(s, &n);

	for (size_t i = 0; i < n; i++) {
		rule_rollback_loop(r, s, ss[i]);
		rule_terminal(r, s, ss[i]);
		rule_double_timeout(r, s, ss[i]);
		rule_dirty(r, s, ss[i]);
		rule_steady_rollback(r, s, ss[i]);
		rule_failed_claims(r, s, ss[i]);
	}
	free(ss);
}
