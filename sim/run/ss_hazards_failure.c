#include "sim/run/ss_hazards_failure.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_controller.h"
#include "engine/objects.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/load/scn_ssworld.h"
#include "sim/run/ss_members.h"
#include "sim/wire/stageset_rc.h"

/*
 * A failure whose last pass asked for no requeue is told once its StageSet
 * went this long without a pass (an event may still have woken it sooner).
 */
#define TERMINAL_QUIET_MS INT64_C(60000)

/* What the timeline says of one StageSet's rollbacks. */
struct rb_rec {
	int64_t snap_ms;    /* first status write holding lastAppliedSnapshot, -1 none */
	size_t streak;      /* rollbacks since the last Ready True status (or the start) */
	size_t on_rb;       /* of those, at or after snap_ms: onRollback ran */
	int64_t first_ms, prev_ms, last_ms; /* of the streak; prev_ms -1 with one */
	/* rollbacks with no new revision attempted since the last Ready True (the same revision) */
	bool attempted;       /* a status since the last Ready True wrote lastAttemptedRevisions */
	size_t same_rb, same_on_rb;
	int64_t same_first_ms, same_last_ms;
	/* since the last Ready True status */
	int64_t mig_fail_ms;  /* first MigrationFailed status, -1 none */
	int64_t dirty_ms;     /* first MigrationDirty status after it, -1 none */
	size_t reruns;        /* MigrationStarted events after dirty_ms */
	int64_t rerun_first_ms, rerun_last_ms;
	/* DriftCorrected events of the first apply after a failed attempt */
	int64_t fail_ms;      /* last StageFailed status, -1 none */
	int64_t ok_ms;        /* first Ready True status after fail_ms, -1 none */
	size_t claims;        /* such DriftCorrected events */
	int64_t claim_first_ms, claim_fail_ms; /* the first one, and the failure before it */
};

/* Go duration of @ms as it is (times of the run), into @buf (GT_DURATION_BUFSZ). */
static const char *at(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

/* Go duration of @ms rounded to whole seconds, into @buf (GT_DURATION_BUFSZ). */
static const char *dur(int64_t ms, char *buf)
{
	gt_format_duration((ms + 500) / 1000 * 1000, buf, GT_DURATION_BUFSZ);
	return buf;
}

static void notice(struct run_result *r, const char *ns, const char *name, size_t count, char *text)
{
	struct tl_objref ref = { "StageSet", ns, name, count };

	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
}

/* The first entry of status.stages in phase Failed, or NULL. */
static const struct val *failed_stage(const struct val *status)
{
	const struct val *st = status ? val_map_get(status, "stages") : NULL;

	for (size_t i = 0; st && st->type == VAL_LIST && i < st->u.list.n; i++)
		if (strcmp(val_str(val_map_get(st->u.list.items[i], "phase"), ""), "Failed") == 0)
			return st->u.list.items[i];
	return NULL;
}

static size_t list_len(const struct val *v)
{
	return v && v->type == VAL_LIST ? v->u.list.n : 0;
}

/* ---------------------------------------------------------------- */

/* Follows the timeline's StageSet status writes and RolledBack events into @recs (@idx: "ns/name" → index). */
static void scan_rollbacks(struct run_result *r, const struct strindex *idx, struct rb_rec *recs)
{
	const struct tl *tl = des_timeline(r->world);
	struct tl_entry e;
	size_t k;

	for (size_t i = 0; ssm_next(tl, &i, SSM_CHANGE(TL_STATUS) | SSM_CHANGE(TL_EVENT), idx, &e, &k);) {
		if (e.change == TL_STATUS) {
			if (recs[k].snap_ms < 0 && e.detail && strstr(e.detail, "lastAppliedSnapshot"))
				recs[k].snap_ms = e.t_ms;
			recs[k].attempted = recs[k].attempted ||
					    (e.detail && strstr(e.detail, "lastAttemptedRevisions"));
			if (e.reason && strcmp(e.reason, SSC_REASON_STAGE_FAILED) == 0) {
				recs[k].fail_ms = e.t_ms;
				recs[k].ok_ms = -1;
			} else if (e.reason && strcmp(e.reason, SSC_REASON_READY) == 0 && recs[k].fail_ms >= 0 &&
				   recs[k].ok_ms < 0) {
				recs[k].ok_ms = e.t_ms;
			}
			if (e.reason && strcmp(e.reason, SSC_REASON_READY) == 0) {
				recs[k].attempted = false;
				recs[k].streak = recs[k].on_rb = 0; /* a success ends the cycle */
				recs[k].mig_fail_ms = recs[k].dirty_ms = -1; /* and resets the count */
				recs[k].reruns = 0;
			} else if (e.reason && strcmp(e.reason, SSC_REASON_MIGRATION_FAILED) == 0 &&
				   recs[k].mig_fail_ms < 0) {
				recs[k].mig_fail_ms = e.t_ms;
			} else if (e.reason && strcmp(e.reason, SSC_REASON_MIGRATION_DIRTY) == 0 &&
				   recs[k].dirty_ms < 0) {
				recs[k].dirty_ms = e.t_ms;
			}
			continue;
		}
		if (e.reason && strcmp(e.reason, "DriftCorrected") == 0) {
			/* the pass that follows a failure, up to the status of its success */
			if (recs[k].fail_ms >= 0 && (recs[k].ok_ms < 0 || recs[k].ok_ms == e.t_ms)) {
				if (recs[k].claims++ == 0) {
					recs[k].claim_first_ms = e.t_ms;
					recs[k].claim_fail_ms = recs[k].fail_ms;
				}
			}
			continue;
		}
		if (e.reason && strcmp(e.reason, "MigrationStarted") == 0 && recs[k].dirty_ms >= 0 &&
		    e.t_ms > recs[k].dirty_ms) {
			if (recs[k].reruns++ == 0)
				recs[k].rerun_first_ms = e.t_ms;
			recs[k].rerun_last_ms = e.t_ms;
			continue;
		}
		if (!e.reason || strcmp(e.reason, "RolledBack") != 0)
			continue;
		if (!recs[k].attempted) {
			if (recs[k].same_rb++ == 0)
				recs[k].same_first_ms = e.t_ms;
			recs[k].same_last_ms = e.t_ms;
			if (recs[k].snap_ms != -1 && recs[k].snap_ms <= e.t_ms)
				recs[k].same_on_rb++;
			continue; /* not a new revision's failure: Q-4, not Q-5 */
		}
		if (recs[k].streak == 0) {
			recs[k].first_ms = e.t_ms;
			recs[k].prev_ms = -1;
		} else {
			recs[k].prev_ms = recs[k].last_ms;
		}
		recs[k].last_ms = e.t_ms;
		recs[k].streak++;
		if (recs[k].snap_ms != -1 && recs[k].snap_ms <= e.t_ms)
			recs[k].on_rb++;
	}
}

/* rolled back twice or more with no success between. */
static void rollback_loop(struct run_result *r, const struct obj *ss, const struct rb_rec *rec)
{
	const struct val *fs = failed_stage(ss->status);
	size_t nonrb = list_len(ss->spec ? val_map_get(ss->spec, "onRollback") : NULL);
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
	char *what, *onrb;

	if (rec->streak < 2)
		return;
	what = fs ? xasprintf("the failing revision %s of stage \"%s\"",
			      val_str(val_map_get(fs, "appliedRevision"), "(none)"),
			      val_str(val_map_get(fs, "name"), ""))
		  : xstrdup("the same revision");
	onrb = nonrb ? xasprintf("onRollback (%zu action%s) ran %zu time%s", nonrb, nonrb == 1 ? "" : "s",
				 rec->on_rb, rec->on_rb == 1 ? "" : "s")
		     : xasprintf("no onRollback actions are set");
	notice(r, ss->ns, ss->name, rec->streak,
	       xasprintf("StageSet %s/%s: rollbackOnFailure rolled back %zu times from %s to %s with no "
			 "success between, and each next pass re-applied %s (the last cycle took %s; "
			 "the error back-off doubles up to 16m40s); %s; the controller never parks a "
			 "whole-run rollback: fix or withdraw the revision, or remove rollbackOnFailure",
			 ss->ns, ss->name, rec->streak, at(rec->first_ms, a), at(rec->last_ms, b), what,
			 dur(rec->last_ms - rec->prev_ms, c), onrb));
	free(what);
	free(onrb);
}

/* ---------------------------------------------------------------- */

/* rolled back to the same revision after a steady-state fault. */
static void steady_rollback(struct run_result *r, const struct obj *ss, const struct rb_rec *rec)
{
	size_t nonrb = list_len(ss->spec ? val_map_get(ss->spec, "onRollback") : NULL);
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];
	char *onrb;

	if (rec->same_rb == 0)
		return;
	onrb = nonrb ? xasprintf("onRollback (%zu action%s) ran %zu time%s", nonrb, nonrb == 1 ? "" : "s",
				 rec->same_on_rb, rec->same_on_rb == 1 ? "" : "s")
		     : xasprintf("no onRollback actions are set");
	notice(r, ss->ns, ss->name, rec->same_rb,
	       xasprintf("StageSet %s/%s: rollbackOnFailure rolled back %zu time%s (from %s to %s) with no "
			 "new revision attempted: a pass that re-verified the running revision found its "
			 "workload failing, and the controller rolled back to the snapshot of the same "
			 "revision; %s; keep onRollback free of effects that assume a revision change, or "
			 "drop rollbackOnFailure where steady-state faults are expected",
			 ss->ns, ss->name, rec->same_rb, rec->same_rb == 1 ? "" : "s", at(rec->same_first_ms, a),
			 at(rec->same_last_ms, b), onrb));
	free(onrb);
}

/* ---------------------------------------------------------------- */

/* DriftCorrected Warnings that were the first real apply after a failed attempt. */
static void failed_claims(struct run_result *r, const struct obj *ss, const struct rb_rec *rec)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

	if (rec->claims == 0)
		return;
	notice(r, ss->ns, ss->name, rec->claims,
	       xasprintf("StageSet %s/%s: %zu DriftCorrected Warning%s came from the first apply after a "
			 "failed attempt (the first at %s, after the StageFailed at %s), not from drift: "
			 "the failed stage's status recorded the new revision as applied, so its real apply "
			 "looked like a correction of the same revision, and a stage errorBudget would not "
			 "have been consulted for it; do not alert on such a DriftCorrected",
			 ss->ns, ss->name, rec->claims, rec->claims == 1 ? "" : "s", at(rec->claim_first_ms, a),
			 at(rec->claim_fail_ms, b)));
}

/* ---------------------------------------------------------------- */

/* MigrationDirty reached, and the migration ran again after it. */
static void dirty_rerun(struct run_result *r, const struct obj *ss, const struct rb_rec *rec)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ];
	char e[GT_DURATION_BUFSZ];

	if (rec->dirty_ms < 0 || rec->reruns == 0)
		return;
	notice(r, ss->ns, ss->name, rec->reruns,
	       xasprintf("StageSet %s/%s reached MigrationDirty at %s, %s after its first failed migration "
			 "pass at %s, and the migration ran again %zu time%s after it (from %s to %s), "
			 "each time a later event woke the StageSet: Dirty only stops the retries, nothing "
			 "checks the count before running; make the migration's actions idempotent, hold "
			 "later revisions (approvalMode OnMigrations) until it is fixed, and after fixing it "
			 "request a reconcile (flux reconcile or stagesetctl reconcile), which resets the "
			 "count",
			 ss->ns, ss->name, at(rec->dirty_ms, a),
			 at(rec->dirty_ms - (rec->mig_fail_ms >= 0 ? rec->mig_fail_ms : rec->dirty_ms), b),
			 at(rec->mig_fail_ms >= 0 ? rec->mig_fail_ms : rec->dirty_ms, c), rec->reruns,
			 rec->reruns == 1 ? "" : "s", at(rec->rerun_first_ms, d), at(rec->rerun_last_ms, e)));
}

/* ---------------------------------------------------------------- */

/*
 * Whether a Ready False @reason is a failure (not a hold, which MS225's
 * notice tells when its timed retry is off; not Suspended, which is meant).
 */
static bool failure_reason(const char *reason)
{
	static const char *const failing[] = {
		SSC_REASON_RBAC_DENIED,  SSC_REASON_IMAGE_UNVERIFIED, SSC_REASON_STAGE_FAILED,
		SSC_REASON_MIGRATION_DIRTY, SSC_REASON_ACTION_DIRTY,
		SSC_REASON_PREVIOUS_REVISION_UNAVAILABLE, SSC_REASON_INVALID_SPEC, SSC_REASON_STALLED,
	};

	for (size_t i = 0; i < sizeof(failing) / sizeof(failing[0]); i++)
		if (strcmp(reason, failing[i]) == 0)
			return true;
	return false;
}

/*
 * When the apply failure of stage @stage had a window around @pass_ms that
 * closed by @until_ms: its end (ms), else -1.
 */
static int64_t cause_end(const struct scenario *s, const struct obj *ss, const char *stage, int64_t pass_ms,
			 int64_t until_ms)
{
	struct scn_sw_resolved e;
	const struct scn_sw_failure *f;

	if (!stage)
		return -1;
	scn_sw_resolve(&s->models.world, &ss->labels, stage, &e);
	f = e.apply_failure;
	for (size_t i = 0; f && i < f->during.n; i++) {
		const struct scn_sw_window *w = &f->during.items[i];

		if (w->from_ms <= pass_ms && pass_ms < w->until_ms && w->until_ms <= until_ms &&
		    !scn_sw_in_windows(&f->during, w->until_ms))
			return w->until_ms;
	}
	return -1;
}

static bool terminal_stuck(struct run_result *r, const struct scenario *s, const struct obj *ss,
			   const struct ssrc_member_stat *m)
{
	const struct val *c = obj_ready_condition(ss);
	const char *reason = val_str(val_map_get(c, "reason"), ""), *msg = val_str(val_map_get(c, "message"), "");
	const struct val *fs = failed_stage(ss->status);
	bool quiet = r->stop == DES_QUIESCENT; /* nothing would ever have woken it */
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], e[GT_DURATION_BUFSZ];
	char *when, *gone;
	int64_t end = -1;

	if (!c || strcmp(val_str(val_map_get(c, "status"), ""), "False") != 0 || !failure_reason(reason) ||
	    m->passes == 0 || !m->last_no_requeue || (!quiet && r->end_ms - m->last_pass_ms < TERMINAL_QUIET_MS))
		return false;
	if (strcmp(reason, SSC_REASON_RBAC_DENIED) == 0 || strcmp(reason, SSC_REASON_IMAGE_UNVERIFIED) == 0 ||
	    strcmp(reason, SSC_REASON_STAGE_FAILED) == 0)
		end = cause_end(s, ss, fs ? val_str(val_map_get(fs, "name"), NULL) : NULL, m->last_pass_ms,
				quiet ? r->horizon_ms : r->end_ms);
	if (quiet) {
		when = xasprintf("and the run ended after its pass that started at %s, with nothing left to happen",
				 at(m->last_pass_ms, a));
		gone = end >= 0 ? xasprintf(", although the modelled failure of that apply stops at %s",
					    at(end, e))
				: xstrdup("");
	} else {
		when = xasprintf("and no pass looked at it after the one that started at %s, %s before the end of the run",
				 at(m->last_pass_ms, a), dur(r->end_ms - m->last_pass_ms, b));
		gone = end >= 0 ? xasprintf(", although the modelled failure of that apply stopped at %s",
					    at(end, e))
				: xstrdup("");
	}
	notice(r, ss->ns, ss->name, 0,
	       xasprintf("StageSet %s/%s ended Ready False %s (%s), %s: the controller does not requeue "
			 "this failure%s; after fixing the cause, wake it (flux reconcile or stagesetctl "
			 "reconcile, which stamp reconcile.fluxcd.io/requestedAt), or it stays so until "
			 "an event",
			 ss->ns, ss->name, reason, msg, when, gone));
	free(when);
	free(gone);
	return true;
}

/*
 * A StageSet that ended Ready False InvalidSpec: the controller refuses its
 * spec on every pass and retries it only after the long permanent
 * back-off, so nothing of it was reconciled since; a check of its status
 * otherwise fails with no word of why.
 */
static void invalid_spec(struct run_result *r, const struct obj *ss, const struct ssrc_member_stat *m)
{
	const struct val *c = obj_ready_condition(ss);

	if (!c || strcmp(val_str(val_map_get(c, "status"), ""), "False") != 0 ||
	    strcmp(val_str(val_map_get(c, "reason"), ""), SSC_REASON_INVALID_SPEC) != 0 || m->passes == 0)
		return;
	notice(r, ss->ns, ss->name, 0,
	       xasprintf("StageSet %s/%s ended Ready False InvalidSpec (%s): the controller refuses its spec "
			 "on every pass, before the dependencies, sources and stages, so no stage of it was "
			 "reconciled since it did; correct the spec (lint's MS284 tells it of the inputs)",
			 ss->ns, ss->name, val_str(val_map_get(c, "message"), "")));
}

/* ---------------------------------------------------------------- */

/* a stage's verify (kstatus wait, then the expression poll) outlasted its timeout. */
static void long_verify(struct run_result *r, const struct obj *ss, const struct ssrc_member_stat *m)
{
	int64_t t = m->long_verify_timeout_ms;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ];
	char e[GT_DURATION_BUFSZ];

	if (m->long_verifies == 0)
		return;
	notice(r, ss->ns, ss->name, m->long_verifies,
	       xasprintf("StageSet %s/%s: %u verif%s outlasted the stage's timeout; the longest, of "
			 "stage \"%s\" from %s, took %s against its %s timeout and ended %s: the kstatus "
			 "wait and the ready-check expression poll each get the whole timeout, so a stage "
			 "can block %s and the pass holds its worker that long; to bound the verify at %s "
			 "set readyChecks.timeout to %s, or count %s per stage when sizing waves and "
			 "windows",
			 ss->ns, ss->name, m->long_verifies, m->long_verifies == 1 ? "y" : "ies",
			 m->long_verify_stage, at(m->long_verify_at_ms, a), at(m->long_verify_ms, b), dur(t, c),
			 m->long_verify_ready ? "ready" : "not ready", dur(2 * t, d), dur(t, c), dur(t / 2, e),
			 dur(2 * t, d)));
}

/* ---------------------------------------------------------------- entry */

void ss_hazards_failure(struct run_result *r, const struct scenario *s)
{
	const struct ssrc_member_stat *ms;
	struct strindex idx = { 0 };
	size_t n = ssm_index(r, &ms, &idx);
	struct rb_rec *recs;

	if (n == 0)
		return;
	recs = xcalloc(n, sizeof(*recs));
	for (size_t i = 0; i < n; i++) {
		recs[i].snap_ms = -1;
		recs[i].mig_fail_ms = recs[i].dirty_ms = -1;
		recs[i].fail_ms = recs[i].ok_ms = -1;
	}
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];
		size_t k;

		if (!o || !o->kind || strcmp(o->kind, "StageSet") != 0 || !o->status ||
		    !list_len(val_map_get(o->status, "lastAppliedSnapshot")))
			continue;
		if (ssm_find(&idx, o->ns, o->name, &k))
			recs[k].snap_ms = INT64_MIN; /* the loaded status holds one */
	}
	scan_rollbacks(r, &idx, recs);
	for (size_t i = 0; i < n; i++) {
		const struct obj *ss = api_get(des_api(r->world), "StageSet", ms[i].ns, ms[i].name);

		if (!ss)
			continue; /* deleted: nothing stays stuck */
		rollback_loop(r, ss, &recs[i]);
		dirty_rerun(r, ss, &recs[i]);
		steady_rollback(r, ss, &recs[i]);
		failed_claims(r, ss, &recs[i]);
		if (!terminal_stuck(r, s, ss, &ms[i]))
			invalid_spec(r, ss, &ms[i]);
		long_verify(r, ss, &ms[i]);
	}
	free(recs);
	si_release(&idx);
}
