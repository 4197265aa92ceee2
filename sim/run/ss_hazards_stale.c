/*
 * The StageSet status fields a run left stale, read from its timeline, the
 * store and the adapter's attempts at the end (ss_hazards_stale.h).
 */
#include "sim/run/ss_hazards_stale.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_controller.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/models/stageset_world_gates.h"
#include "sim/run/ss_members.h"
#include "sim/wire/stageset_rc.h"

/* The part of a gate revert's Warning event after the stage and its cause. */
#define REVERTED " failed; rolled back to revision "

/* A soak of the last stage: from its first Soaking status to the success that ended it (-1: none). */
struct st_soak {
	int64_t from_ms, until_ms;
};

/* A change of the approval annotation: its value from @t_ms on (owned; NULL: removed). */
struct st_appr {
	int64_t t_ms;
	char *value;
};

/* The status writes around passes that wrote nothing: the last before them and the first after. */
struct st_quiet {
	int64_t said_ms;       /* the last status write before the first such pass, -1 none */
	const char *said_reason, *said_msg; /* its Ready reason and message (borrowed from the timeline) */
	int64_t next_ms;       /* the first status write after the last such pass, -1 none */
};

/* What the timeline says of one StageSet. */
struct st_rec {
	const char *last;      /* its last stage at the end of the run (borrowed from the store), NULL none */
	/* */
	int64_t soak_from_ms;  /* the open soak of the last stage, -1 none */
	struct st_soak *soaks;
	size_t nsoaks;
	/* */
	int64_t snap_ms;       /* the last success that wrote lastAppliedSnapshot, -1 none */
	int64_t *stale;        /* the successes after it that changed lastAppliedRevisions without it */
	size_t nstale;
	bool told_revert;
	/* */
	int64_t prog_ms;       /* the first status since the last adoption that wrote stages, -1 none */
	const char *prog_reason; /* its reason (borrowed from the timeline) */
	int64_t appr_ms;       /* the last change of the approval annotation, -1 none */
	char *appr_detail;     /* its change, "2.1.0→2.2.0" (owned) */
	int64_t rehold_ms, rehold_prog_ms, rehold_appr_ms, rehold_until_ms; /* the first re-hold, -1 none */
	char *rehold_version, *rehold_prog_reason, *rehold_appr; /* (owned) */
	/* */
	char *appr_value;      /* the approval annotation's value after its last change (owned), NULL none */
	char *held_version;    /* the version of the last AwaitingApproval status (owned), NULL none */
	int64_t held_ms;       /* and its time */
	char *was_held;        /* the version held before held_version (owned), NULL none */
	bool holding;          /* the last status write was AwaitingApproval */
	bool written_since;    /* a status write came after the last approval change */
	int64_t race_ms, race_appr_ms; /* the first AwaitingApproval of an approved version, -1 none */
	char *race_version;    /* (owned) */
	int64_t race_next_ms;  /* the first status of another reason after it, -1 none */
	size_t nraces;
	int64_t stale_ms, stale_appr_ms, stale_held_ms; /* the first approval overtaken by a newer version, -1 none */
	char *stale_approved, *stale_now; /* (owned) */
	bool stale_before;     /* the newer version was held before the approval came */
	/* around the passes that failed at the version plan, and at the StageLedger or StageInventory read */
	struct st_quiet plan, read;
	/* Q-23, pendingVersion */
	char *pend;            /* the version status.pendingVersion names (owned), NULL none */
	int64_t pend_ms;       /* the hold that wrote it */
	int64_t exit_ms;       /* the first status written past it without clearing it, -1 none */
	int64_t exit_hold_ms, exit_until_ms; /* its hold, and the write that cleared it (-1: none) */
	const char *exit_reason; /* its Ready reason (borrowed from the timeline) */
	char *exit_version;    /* (owned) */
	int64_t exit_appr_ms;  /* an approval of exit_version during the episode, -1 none */
	uint32_t nexits;       /* status writes of the episode */
	/* Q-22, reuse */
	int64_t born_ms;       /* the StageSet's creation */
	bool appr_changed;     /* the approval annotation changed in the run */
	char *appr_first;      /* its value before the first change (owned), NULL none */
	struct st_appr *apprs; /* its changes, in timeline order */
	size_t napprs;
};

/* Go duration of @ms, into @buf (GT_DURATION_BUFSZ). */
static const char *at(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

/* Whether status write detail @detail ("status: conditions, version") sets field @f (not "-f"). */
static bool has_field(const char *detail, const char *f)
{
	bool removed = false;

	return tl_status_names(detail, f, &removed) && !removed;
}

/* Whether Ready message @msg names stage @stage first ("stage \"prod\" ..."). */
static bool names_stage(const char *msg, const char *stage)
{
	size_t n = strlen(stage);

	return msg && strncmp(msg, "stage \"", 7) == 0 && strncmp(msg + 7, stage, n) == 0 && msg[7 + n] == '"';
}

/* The last stage's name of StageSet @ns/@name at the end of the run (borrowed), NULL none. */
static const char *last_stage(const struct run_result *r, const char *ns, const char *name)
{
	const struct obj *ss = api_get(des_api(r->world), "StageSet", ns, name);
	const struct val *st = ss && ss->spec ? val_map_get(ss->spec, "stages") : NULL;

	if (!st || st->type != VAL_LIST || st->u.list.n == 0)
		return NULL;
	return val_str(val_map_get(st->u.list.items[st->u.list.n - 1], "name"), NULL);
}

/* The successful attempt of @m that ended at @t_ms (its Succeeded status), or NULL. */
static const struct ssrc_attempt *succeeded_at(const struct ssrc_member_stat *m, int64_t t_ms)
{
	for (size_t i = 0; i < m->nattempts; i++)
		if (m->attempts[i].outcome == SSRC_SUCCEEDED && m->attempts[i].end_ms == t_ms)
			return &m->attempts[i];
	return NULL;
}

/* The attempt of @m in flight at @t_ms, or NULL. */
static const struct ssrc_attempt *attempt_at(const struct ssrc_member_stat *m, int64_t t_ms)
{
	const struct ssrc_attempt *a = NULL;

	for (size_t i = 0; i < m->nattempts; i++)
		if (m->attempts[i].start_ms <= t_ms && (m->attempts[i].end_ms < 0 || m->attempts[i].end_ms >= t_ms))
			a = &m->attempts[i];
	return a;
}

/* ---------------------------------------------------------------- */

static void last_stage_soak(struct run_result *r, const struct ssrc_member_stat *m, const struct st_rec *g)
{
	const struct obj *ss = api_get(des_api(r->world), "StageSet", m->ns, m->name);
	const struct ssrc_attempt *a = NULL;
	const struct st_soak *k = NULL;
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ], *was, *until, *more, *text;

	for (size_t i = 0; i < g->nsoaks; i++) {
		const struct ssrc_attempt *x = attempt_at(m, g->soaks[i].from_ms);

		if (!x || !strcmp(x->version, x->from))
			continue;
		if (!a || (!*a->from && *x->from)) {
			a = x;
			k = &g->soaks[i];
		}
		if (*a->from)
			break; /* the first soak from an earlier version */
	}
	if (!a || !ss)
		return;
	was = *a->from ? xasprintf("status.version still said %s and lastAppliedRevisions named %s's revisions",
				   a->from, a->from)
		       : xstrdup("status.version and lastAppliedRevisions stayed empty (a first adoption)");
	until = k->until_ms >= 0 ? xasprintf("until the success at %s ended it (%s)", at(k->until_ms, t1),
					     at(k->until_ms - k->from_ms, d))
				 : xasprintf("for %s, to the end of the run at %s", at(r->end_ms - k->from_ms, d),
					     at(r->end_ms, t1));
	more = g->nsoaks > 1 ? xasprintf(" (%zu soaks of the last stage in the run)", g->nsoaks) : xstrdup("");
	text = xasprintf("StageSet %s/%s: %s was applied and verified on every stage by %s, when its last stage "
			 "\"%s\" began to soak; %s, %s, with pendingVersion empty and Ready False (Soaking)%s: only "
			 "the success after the last stage's soak writes them; judge progress by the Ready condition "
			 "and status.stages, or drop the soak from the last stage",
			 m->ns, m->name, a->version, at(k->from_ms, t0), g->last, was, until, more);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_INFO, text, &ref, 1);
	free(text);
	free(more);
	free(until);
	free(was);
}

/* ---------------------------------------------------------------- */

/* The versions of the successes @g->stale, in words ("2.1.0 at 32m2s and 2.2.0 at 1h2m"), a new string. */
static char *stale_successes(const struct ssrc_member_stat *m, const struct st_rec *g)
{
	char *out = xstrdup(""), t[GT_DURATION_BUFSZ];

	for (size_t i = 0; i < g->nstale; i++) {
		const struct ssrc_attempt *a = succeeded_at(m, g->stale[i]);
		char *next = xasprintf("%s%s%s at %s", out, i == 0 ? "" : i + 1 == g->nstale ? " and " : ", ",
				       a ? a->version : "a rollout", at(g->stale[i], t));

		free(out);
		out = next;
	}
	return out;
}

static void stale_revert(struct run_result *r, const struct ssrc_member_stat *m, struct st_rec *g,
			 const struct tl_entry *e)
{
	const char *rev = strstr(e->message, REVERTED), *q = strchr(e->message + 7, '"');
	const struct ssrc_attempt *snap;
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], *stage, *since, *text;

	if (g->told_revert || g->nstale == 0 || !rev || !q)
		return;
	g->told_revert = true; /* the first revert: the later ones read the same snapshot */
	stage = xstrndup(e->message + 7, (size_t)(q - e->message - 7));
	snap = succeeded_at(m, g->snap_ms);
	since = stale_successes(m, g);
	text = xasprintf("StageSet %s/%s: stage \"%s\" was rolled back at %s to revision %s, which "
			 "status.lastAppliedSnapshot has held since the success of %s at %s: the later successes "
			 "(%s), with rollbackOnFailure off, did not refresh the snapshot, and nothing cleared it, "
			 "so the revert went back past them; keep rollbackOnFailure on while a gate has onFailure: "
			 "Rollback, or set the gate's onFailure to Hold when switching it off",
			 m->ns, m->name, stage, at(e->t_ms, t0), rev + strlen(REVERTED),
			 snap ? snap->version : "a rollout", at(g->snap_ms, t1), since);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(since);
	free(stage);
}

/* ---------------------------------------------------------------- */

/*
 * The Ready reasons of StageSet @m's status writes from @from_ms until
 * @until_ms (-1: the end), distinct, in words ("Soaking, AwaitingPromotion"),
 * a new string.
 */
static char *reasons_between(const struct tl *tl, const struct ssrc_member_stat *m, int64_t from_ms,
			     int64_t until_ms)
{
	char *out = xstrdup("");

	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;
		char *next;

		tl_get(tl, i, &e);
		if (e.t_ms < from_ms || (until_ms >= 0 && e.t_ms >= until_ms) || e.change != TL_STATUS || !e.reason ||
		    strcmp(e.kind, "StageSet") || strcmp(e.ns, m->ns) || strcmp(e.name, m->name))
			continue;
		{
			size_t k = strlen(e.reason);
			const char *p = strstr(out, e.reason);

			if (p && (p == out || p[-1] == ' ') && (p[k] == '\0' || p[k] == ','))
				continue; /* told already */
		}
		next = xasprintf("%s%s%s", out, *out ? ", " : "", e.reason);
		free(out);
		out = next;
	}
	return out;
}

static void removed_stages(struct run_result *r, const struct ssrc_member_stat *m)
{
	const struct tl *tl = des_timeline(r->world);

	for (size_t i = 0; i < m->norphans; i++) {
		const struct ssrc_orphan *o = &m->orphans[i];
		struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
		char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ], *held, *until, *text;

		if (o->pruned_ms == o->removed_ms)
			continue; /* pruned by the pass that found it gone: nothing kept */
		held = reasons_between(tl, m, o->removed_ms, o->pruned_ms);
		until = o->pruned_ms >= 0 ? xasprintf("until the full success at %s (%s later)", at(o->pruned_ms, t1),
						      at(o->pruned_ms - o->removed_ms, d))
					  : xasprintf("for %s, to the end of the run at %s", at(r->end_ms - o->removed_ms, d),
						      at(r->end_ms, t1));
		text = xasprintf("StageSet %s/%s: stage \"%s\" left the spec (the pass ending at %s ran without it "
				 "and status.stages dropped it), but its StageInventory, and the objects it lists, "
				 "were kept %s, while the passes held%s%s: the controller prunes only at a full success; "
				 "remove a stage while the StageSet is steady, or expect its objects to live until the "
				 "rollout under way completes",
				 m->ns, m->name, o->stage, at(o->removed_ms, t0), until, *held ? " at " : "", held);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
		free(until);
		free(held);
	}
}

/*
 * The kind, namespace and name of StageInventory entry ID @id
 * ("<group>_<Kind>_<ns>_<name>") into @kind, @ns and @name; false when it
 * is not one.
 */
static bool split_id(const char *id, char *kind, char *ns, char *name, size_t len)
{
	const char *k = strchr(id, '_'), *n, *o;

	n = k ? strchr(k + 1, '_') : NULL;
	o = n ? strchr(n + 1, '_') : NULL;
	if (!o || (size_t)(n - k - 1) >= len || (size_t)(o - n - 1) >= len || strlen(o + 1) >= len)
		return false;
	snprintf(kind, len, "%.*s", (int)(n - k - 1), k + 1);
	snprintf(ns, len, "%.*s", (int)(o - n - 1), n + 1);
	snprintf(name, len, "%s", o + 1);
	return true;
}

/* How a pass that ended with exit @reason (ssc_exit_name()) ended, in words. */
static const char *pass_end_words(const char *reason)
{
	if (!strcmp(reason, "PromotionHold"))
		return "held at a promotion gate";
	if (!strcmp(reason, "StageProgressing"))
		return "held while a stage was still becoming ready";
	if (!strcmp(reason, "StageFailure"))
		return "failed";
	if (!strcmp(reason, "StageBudgetHold"))
		return "held at a stage's error budget";
	return "ended short of a full success";
}

/*
 * Objects dropped from a kept stage's render that no StageInventory lists
 * any more (R-20, §5 Q-28, lint's MS282): the pass that applied the render
 * rewrote the stage's shard without them and then ended short of a full
 * success, so no prune deleted them, and no later prune sees them.
 */
static void dropped_objects(struct run_result *r, const struct ssrc_member_stat *m)
{
	for (size_t i = 0; i < m->nsurvivors; i++) {
		const struct ssrc_survivor *o = &m->survivors[i];
		struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
		char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ], kind[128], ns[128], name[256];
		char *until, *text;

		if (!split_id(o->id, kind, ns, name, sizeof(kind)))
			continue;
		/* the duration is the object's time in no StageInventory, from the pass that dropped it */
		until = o->deleted_ms != SSRC_STILL_LIVE
				? xasprintf("until a pass deleted it at %s (%s later)", at(o->deleted_ms, t0),
					    at(o->deleted_ms - o->dropped_ms, d))
				: xasprintf("for %s, to the end of the run at %s, and for good",
					    at(r->end_ms - o->dropped_ms, d), at(r->end_ms, t1));
		text = xasprintf("StageSet %s/%s: %s %s/%s left stage \"%s\"'s render, and the pass ending at %s "
				 "applied that render, rewrote the stage's StageInventory without it and then %s "
				 "(%s): the controller prunes only at a full success, and that prune reads the "
				 "StageInventory as the pass left it, so %s %s/%s stays in the cluster, listed by no "
				 "StageInventory, %s; delete it by hand, or drop an object from a stage's render only "
				 "in a revision that passes every stage's promotion gate in its first pass (no soak, "
				 "manual or analysis gate on that stage or a later one)",
				 m->ns, m->name, kind, ns, name, o->stage, at(o->dropped_ms, t0), pass_end_words(o->reason),
				 o->reason, kind, ns, name, until);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
		free(until);
	}
}

/* ---------------------------------------------------------------- */

#define AWAITING "version transition to "
#define APPROVED_KEY "stages.metio.wtf/approved-version="

/*
 * The version an AwaitingApproval message @msg holds ("version transition
 * to 2.1.0 ..."), its length in *@n; NULL when @msg is none.
 */
static const char *awaited(const char *msg, size_t *n)
{
	if (!msg || strncmp(msg, AWAITING, strlen(AWAITING)) != 0)
		return NULL;
	msg += strlen(AWAITING);
	*n = strcspn(msg, " ");
	return msg;
}

/* Records that @g's StageSet held @ver (steals it) at @t_ms, the version held before kept in was_held. */
static void held(struct st_rec *g, char *ver, int64_t t_ms)
{
	if (g->held_version && strcmp(g->held_version, ver)) {
		free(g->was_held);
		g->was_held = g->held_version;
	} else {
		free(g->held_version);
	}
	g->held_version = ver;
	g->held_ms = t_ms;
}

/* Follows status write @e of an approval hold or of stage progress, and approval changes, into @g. */
static void follow_approval(const struct ssrc_member_stat *m, struct st_rec *g, const struct tl_entry *e)
{
	const char *v;
	size_t n;

	if (e->change == TL_UPDATED) {
		const char *p = e->detail ? strstr(e->detail, APPROVED_KEY) : NULL;

		if (p) {
			const char *arrow;

			p += strlen(APPROVED_KEY);
			if (!g->appr_changed) {
				const char *to = strstr(p, "\xe2\x86\x92");
				size_t len = strcspn(p, ",");

				g->appr_changed = true;
				g->appr_first = to && (size_t)(to - p) < len ? xstrndup(p, (size_t)(to - p)) : NULL;
			}
			g->appr_ms = e->t_ms;
			free(g->appr_detail);
			g->appr_detail = xstrndup(p, strcspn(p, ","));
			arrow = strstr(g->appr_detail, "\xe2\x86\x92");
			free(g->appr_value);
			g->appr_value = xstrdup(arrow ? arrow + 3 : g->appr_detail);
			g->apprs = xreallocarray(g->apprs, g->napprs + 1, sizeof(*g->apprs));
			g->apprs[g->napprs++] = (struct st_appr){ e->t_ms, xstrdup(g->appr_value) };
		} else if (e->detail && (p = strstr(e->detail, "-stages.metio.wtf/approved-version"))) {
			if (!g->appr_changed) {
				/* "-key=old" when the timeline gives the value removed; else it is not known */
				size_t len = strcspn(p, ",");
				const char *eq = memchr(p, '=', len);

				g->appr_changed = true;
				g->appr_first = eq ? xstrndup(eq + 1, len - (size_t)(eq + 1 - p)) : NULL;
			}
			g->appr_ms = e->t_ms;
			free(g->appr_value);
			g->appr_value = NULL;
			g->apprs = xreallocarray(g->apprs, g->napprs + 1, sizeof(*g->apprs));
			g->apprs[g->napprs++] = (struct st_appr){ e->t_ms, NULL };
		}
		return;
	}
	if (g->rehold_ms >= 0 && g->rehold_until_ms < 0 && e->reason &&
	    strcmp(e->reason, SSC_REASON_AWAITING_APPROVAL) != 0)
		g->rehold_until_ms = e->t_ms;
	if (!e->reason)
		return;
	if (!strcmp(e->reason, SSC_REASON_READY)) {
		if (has_field(e->detail, "version"))
			g->prog_ms = -1; /* adopted: the next transition starts afresh */
		return;
	}
	if (strcmp(e->reason, SSC_REASON_AWAITING_APPROVAL) != 0) {
		if (g->prog_ms < 0 && has_field(e->detail, "stages")) {
			g->prog_ms = e->t_ms;
			g->prog_reason = e->reason;
		}
		return;
	}
	if (g->rehold_ms < 0 && g->prog_ms >= 0 && (v = awaited(e->message, &n)) != NULL) {
		const struct ssrc_attempt *a = attempt_at(m, g->prog_ms);

		if (!a || strlen(a->version) != n || strncmp(a->version, v, n) != 0)
			return; /* a hold of another version than the one under way: the gate's ordinary work */
		if (g->appr_ms <= g->prog_ms)
			return; /* no approval changed since the stages were reached: a hold of its own cause */
		g->rehold_ms = e->t_ms;
		g->rehold_prog_ms = g->prog_ms;
		g->rehold_version = xstrndup(v, n);
		g->rehold_prog_reason = xstrdup(g->prog_reason);
		g->rehold_appr_ms = g->appr_ms;
		g->rehold_appr = g->appr_detail ? xstrdup(g->appr_detail) : NULL;
	}
}

static void approval_rehold(struct run_result *r, const struct ssrc_member_stat *m, const struct st_rec *g)
{
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ];
	char *after, *until, *text;

	if (g->rehold_ms < 0)
		return;
	after = g->rehold_appr ? xasprintf(", after stages.metio.wtf/approved-version changed at %s (%s)",
					   at(g->rehold_appr_ms, t2), g->rehold_appr)
			       : xstrdup("");
	until = g->rehold_until_ms >= 0 ? xasprintf("until %s", at(g->rehold_until_ms, t3))
					: xstrdup("to the end of the run");
	text = xasprintf("StageSet %s/%s: the transition to %s had passed the approval gate and reached its stages "
			 "(%s at %s) when the pass at %s held it AwaitingApproval again%s: the gate runs on every "
			 "pass, so %s stayed half-applied, the stages it reached on it and the later ones on the old "
			 "version, %s; approve the next version only once the rollout under way has completed",
			 m->ns, m->name, g->rehold_version, g->rehold_prog_reason, at(g->rehold_prog_ms, t0),
			 at(g->rehold_ms, t1), after, g->rehold_version, until);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(until);
	free(after);
}

/* ---------------------------------------------------------------- */

/* Records the first stale approval of @g: @approved (copied) stamped at @appr_ms, while @now (copied) was held. */
static void stale(struct st_rec *g, int64_t t_ms, int64_t appr_ms, const char *approved, const char *now)
{
	g->stale_ms = t_ms;
	g->stale_appr_ms = appr_ms;
	g->stale_held_ms = g->held_ms;
	g->stale_approved = xstrdup(approved);
	g->stale_now = xstrdup(now);
}

/* Follows status write @e of @g's StageSet against the approvals stamped on it. */
static void follow_race(struct st_rec *g, const struct tl_entry *e)
{
	const char *v;
	size_t n;
	char *ver;

	if (e->change == TL_UPDATED) {
		if (g->appr_ms == e->t_ms)
			g->written_since = false;
		/* an approval of the version held before, stamped while a newer one is held */
		if (g->stale_ms < 0 && g->holding && g->appr_ms == e->t_ms && g->appr_value && g->was_held &&
		    !strcmp(g->appr_value, g->was_held) && strcmp(g->appr_value, g->held_version)) {
			stale(g, e->t_ms, e->t_ms, g->was_held, g->held_version);
			g->stale_before = true;
		}
		return;
	}
	g->holding = e->reason && !strcmp(e->reason, SSC_REASON_AWAITING_APPROVAL);
	if (g->race_ms >= 0 && g->race_next_ms < 0 && !g->holding)
		g->race_next_ms = e->t_ms;
	if (g->written_since || g->appr_ms < 0) {
		/* only the first status after an approval can show a pass that raced it */
		if (g->holding && (v = awaited(e->message, &n)) != NULL)
			held(g, xstrndup(v, n), e->t_ms);
		return;
	}
	g->written_since = true;
	if (!e->reason || strcmp(e->reason, SSC_REASON_AWAITING_APPROVAL) || !(v = awaited(e->message, &n)))
		return;
	ver = xstrndup(v, n);
	if (g->appr_value && !strcmp(g->appr_value, ver) && g->appr_ms < e->t_ms) {
		/* the pass read the StageSet before the approval of the very version it held */
		if (g->nraces++ == 0) {
			g->race_ms = e->t_ms;
			g->race_appr_ms = g->appr_ms;
			g->race_version = xstrdup(ver);
		}
	} else if (g->stale_ms < 0 && g->held_version && g->appr_value && strcmp(g->held_version, ver) &&
		   !strcmp(g->appr_value, g->held_version) && g->appr_ms > g->held_ms) {
		/* approved what was held, but the source had moved on to a newer version */
		stale(g, e->t_ms, g->appr_ms, g->held_version, ver);
	}
	held(g, ver, e->t_ms);
}

static void approval_races(struct run_result *r, const struct ssrc_member_stat *m, const struct st_rec *g)
{
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], *text, *next, *more;

	if (g->race_ms >= 0) {
		next = g->race_next_ms >= 0 ? xasprintf("the next pass went on: its status came at %s", at(g->race_next_ms, t2))
					    : xstrdup("no other status came to the end of the run");
		more = g->nraces > 1 ? xasprintf(" (%zu such holds in the run)", g->nraces) : xstrdup("");
		text = xasprintf("StageSet %s/%s: the pass ending at %s wrote AwaitingApproval for %s although "
				 "stages.metio.wtf/approved-version had been set to %s at %s: that pass had read the "
				 "StageSet before the approval, which only the next pass saw (%s)%s; a FleetRollout or "
				 "a person looking in between sees an approved member held",
				 m->ns, m->name, at(g->race_ms, t0), g->race_version, g->race_version,
				 at(g->race_appr_ms, t1), next, more);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_INFO, text, &ref, 1);
		free(text);
		free(more);
		free(next);
	}
	if (g->stale_ms >= 0 && g->stale_before) {
		text = xasprintf("StageSet %s/%s: stages.metio.wtf/approved-version was set to %s at %s, a version it "
				 "had held for approval before, while it held %s (since %s): an approval names one "
				 "version exactly, so this one approves nothing pending, and the pass it wakes finds %s "
				 "still unapproved; approve the version pendingVersion names when the approval lands",
				 m->ns, m->name, g->stale_approved, at(g->stale_appr_ms, t1), g->stale_now,
				 at(g->stale_held_ms, t0), g->stale_now);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
	} else if (g->stale_ms >= 0) {
		text = xasprintf("StageSet %s/%s: %s, held for approval at %s, was approved at %s, but by the next "
				 "pass its source offered %s, which it held AwaitingApproval at %s: an approval names one "
				 "version exactly, so a source that moves between the hold and the approval makes it "
				 "stale; approve the version pendingVersion names when the approval lands",
				 m->ns, m->name, g->stale_approved, at(g->stale_held_ms, t0), at(g->stale_appr_ms, t1),
				 g->stale_now, at(g->stale_ms, t2));
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
	}
}

/* ---------------------------------------------------------------- */

/* Follows status write @e around @n passes that wrote nothing, from @first_ms to @last_ms, into @q. */
static void follow_quiet(uint32_t n, int64_t first_ms, int64_t last_ms, struct st_quiet *q, const struct tl_entry *e)
{
	if (!n || e->change != TL_STATUS)
		return;
	if (e->t_ms <= first_ms) {
		q->said_ms = e->t_ms;
		q->said_reason = e->reason;
		q->said_msg = e->message;
	} else if (e->t_ms > last_ms && q->next_ms < 0) {
		q->next_ms = e->t_ms;
	}
}

/*
 * What the status said through passes that wrote nothing (@q), and the
 * next write after them, in words: two new strings into *@said and *@next.
 */
static void quiet_words(const struct st_quiet *q, char **said, char **next)
{
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ];
	char *msg = q->said_msg ? xstrdup(q->said_msg) : NULL;
	size_t n;

	if (msg && (n = strcspn(msg, "(")) > 0 && msg[n] == '(' && n > 1 && msg[n - 1] == ' ')
		msg[n - 1] = '\0'; /* without the runbook link */
	*said = q->said_ms >= 0 ? xasprintf("its status said %s \"%s\" (written at %s)", q->said_reason ? q->said_reason : "",
					    msg ? msg : "", at(q->said_ms, t0))
				: xstrdup("it had no status");
	*next = q->next_ms >= 0 ? xasprintf("the next status write came at %s", at(q->next_ms, t1))
				: xstrdup("no status write came after them to the end of the run");
	free(msg);
}

static void silent_errors(struct run_result *r, const struct ssrc_member_stat *m, const struct st_rec *g)
{
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ];
	char *said, *next, *text;

	if (!m->silent_errors)
		return;
	quiet_words(&g->plan, &said, &next);
	text = xasprintf("StageSet %s/%s: %u pass%s from %s to %s failed at the version plan with a "
			 "transient error (%s) and wrote nothing: all that time %s, with observedGeneration and "
			 "pendingVersion as they were, while the controller retried in back-off; %s; watch the "
			 "source's Ready condition and the controller's reconcile errors during such outages, not the "
			 "StageSet's status",
			 m->ns, m->name, m->silent_errors, m->silent_errors == 1 ? "" : "es", at(m->silent_first_ms, t0),
			 at(m->silent_last_ms, t1), m->silent_error, said, next);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(next);
	free(said);
}

/*
 * The passes that failed reading the StageLedger or the
 * StageInventory: the error is returned before any status write, so
 * the status stays as the last write left it (lint's MS283).  Which read
 * failed shows in the error: the inventory's reads "list StageInventory: ...".
 */
static void read_errors(struct run_result *r, const struct ssrc_member_stat *m, const struct st_rec *g)
{
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ];
	char *said, *next, *text;
	bool inventory;

	if (!m->read_errors)
		return;
	inventory = strncmp(m->read_error, SWG_INVENTORY_LIST_ERROR, strlen(SWG_INVENTORY_LIST_ERROR)) == 0;
	quiet_words(&g->read, &said, &next);
	text = xasprintf("StageSet %s/%s: %u pass%s from %s to %s failed reading %s with an API error (%s) and "
			 "wrote nothing: all that time %s, Ready, its message, observedGeneration and pendingVersion "
			 "as that write left them, while the controller retried in error back-off (5ms doubling up to "
			 "16m40s); %s; during such outages read the controller's reconcile errors (\"Reconciler "
			 "error\" in its log) and the API server's health, not the StageSet's status",
			 m->ns, m->name, m->read_errors, m->read_errors == 1 ? "" : "es", at(m->read_first_ms, t0),
			 at(m->read_last_ms, t1),
			 inventory ? "its StageInventory (the List of every pass)"
				   : "its StageLedger (the Get of every pass, Lifetime actions or not)",
			 m->read_error, said, next);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(next);
	free(said);
}

/* ---------------------------------------------------------------- Q-23 pendingVersion */

/*
 * Follows status write @e of @g's StageSet against status.pendingVersion:
 * an AwaitingApproval hold writes it, a pass through the approval gate
 * clears it (its write then names the field), and any other write leaves it
 * as it was: the pass stopped before the gate.  The holds of an update
 * window or an error budget are left out: they are
 * told of their own.
 */
static void follow_pending(struct st_rec *g, const struct tl_entry *e)
{
	bool removed = false;

	if (e->change != TL_STATUS || !e->reason)
		return;
	if (!strcmp(e->reason, SSC_REASON_AWAITING_APPROVAL) && e->message &&
	    !strncmp(e->message, AWAITING, strlen(AWAITING))) {
		const char *v = e->message + strlen(AWAITING);

		if (g->exit_ms >= 0 && g->exit_until_ms < 0)
			g->exit_until_ms = e->t_ms;
		free(g->pend);
		g->pend = xstrndup(v, strcspn(v, " "));
		g->pend_ms = e->t_ms;
		return;
	}
	if (tl_status_names(e->detail, "pendingVersion", &removed)) {
		if (g->exit_ms >= 0 && g->exit_until_ms < 0)
			g->exit_until_ms = e->t_ms;
		free(g->pend);
		g->pend = NULL;
		return;
	}
	if (!g->pend || !strcmp(e->reason, SSC_REASON_READY) || !strcmp(e->reason, SSC_REASON_UPDATE_DEFERRED) ||
	    !strcmp(e->reason, SSC_REASON_BUDGET_EXHAUSTED) || !strcmp(e->reason, SSC_REASON_BUDGET_SOURCE_UNAVAILABLE))
		return; /* none held; or an update window's or a budget's hold, Q-9's and Q-10's */
	if (g->exit_ms < 0) {
		g->exit_ms = e->t_ms;
		g->exit_hold_ms = g->pend_ms;
		g->exit_reason = e->reason;
		g->exit_version = xstrdup(g->pend);
		if (g->appr_ms > g->pend_ms && g->appr_value && !strcmp(g->appr_value, g->pend))
			g->exit_appr_ms = g->appr_ms; /* approved between the hold and this pass */
	}
	if (g->exit_until_ms < 0 && !strcmp(g->pend, g->exit_version))
		g->nexits++;
}

/* Follows a change of the approval annotation into the open pendingVersion episode of @g. */
static void follow_pending_approval(struct st_rec *g, const struct tl_entry *e)
{
	if (e->change == TL_UPDATED && g->appr_ms == e->t_ms && g->exit_ms >= 0 && g->exit_until_ms < 0 &&
	    g->exit_appr_ms < 0 && g->appr_value && !strcmp(g->appr_value, g->exit_version))
		g->exit_appr_ms = e->t_ms;
}

static void pending_after_exit(struct run_result *r, const struct ssrc_member_stat *m, const struct st_rec *g)
{
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ];
	char *until, *appr, *text;

	if (g->exit_ms < 0)
		return;
	until = g->exit_until_ms >= 0 ? xasprintf("until the status written at %s", at(g->exit_until_ms, t2))
				      : xstrdup("to the end of the run");
	appr = g->exit_appr_ms >= 0 ? xasprintf(", also after %s was approved at %s", g->exit_version,
						at(g->exit_appr_ms, t3))
				    : xstrdup("");
	text = xasprintf("StageSet %s/%s: status.pendingVersion still named %s, held for approval at %s, when the "
			 "pass ending at %s wrote Ready %s, and it went on naming it (%u status write%s) %s%s: only "
			 "the approval gate writes pendingVersion, and those passes stopped before it; read "
			 "pendingVersion only while Ready says AwaitingApproval",
			 m->ns, m->name, g->exit_version, at(g->exit_hold_ms, t0), at(g->exit_ms, t1), g->exit_reason,
			 g->nexits, g->nexits == 1 ? "" : "s", until, appr);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(appr);
	free(until);
}

/* ---------------------------------------------------------------- Q-22 reuse */

/*
 * The value of the approval annotation of @g's StageSet when the attempt
 * starting at @t_ms read it (borrowed; NULL none), and when it was set
 * into @set_ms: -1 for the value it was created with (its manifest's).
 * @end: the StageSet at the end of the run (NULL: deleted).
 */
static const char *approval_when(const struct st_rec *g, const struct obj *end, int64_t t_ms, int64_t *set_ms)
{
	const char *v = g->appr_changed ? g->appr_first
					: end ? obj_strmap_get(&end->annotations, "stages.metio.wtf/approved-version")
					      : NULL;

	*set_ms = -1;
	for (size_t i = 0; i < g->napprs && g->apprs[i].t_ms < t_ms; i++) {
		v = g->apprs[i].value;
		*set_ms = g->apprs[i].t_ms;
	}
	return v;
}

static void approval_reused(struct run_result *r, const struct ssrc_member_stat *m, const struct st_rec *g)
{
	const struct obj *ss = api_get(des_api(r->world), "StageSet", m->ns, m->name);
	const struct val *mode = ss && ss->spec ? val_path(ss->spec, "version.approvalMode") : NULL;
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };

	if (strcmp(val_str(mode, ""), "Always") != 0)
		return;
	for (size_t i = 0; i < m->nattempts; i++) {
		const struct ssrc_attempt *a = &m->attempts[i], *before = NULL;
		bool adopted = false; /* the approved version was adopted once already, before @before */
		bool manifest;        /* the approval is the one the StageSet was created with */
		char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], *how, *text;
		const char *v;
		int64_t set_ms;

		if (a->baseline || !*a->from || !strcmp(a->from, a->version))
			continue;
		v = approval_when(g, ss, a->start_ms, &set_ms);
		if (!v || strcmp(v, a->version) != 0)
			continue;
		manifest = set_ms < 0;
		if (manifest)
			set_ms = g->born_ms;
		for (size_t k = 0; k < i; k++)
			if (m->attempts[k].outcome == SSRC_SUCCEEDED && m->attempts[k].end_ms >= set_ms &&
			    strcmp(m->attempts[k].version, a->version) != 0)
				before = &m->attempts[k];
		if (!before)
			continue; /* the approval was given for this transition */
		for (size_t k = 0; k < i && !adopted; k++)
			adopted = m->attempts[k].outcome == SSRC_SUCCEEDED && m->attempts[k].end_ms >= set_ms &&
				  m->attempts[k].end_ms < before->end_ms && !strcmp(m->attempts[k].version, a->version);
		if (!adopted && !manifest)
			continue; /* stamped ahead of this transition (a FleetRollout's target), not reused */
		how = before->baseline ? xstrdup(" (a first adoption, never held)")
				       : xasprintf(" (the transition from %s)", *before->from ? before->from : "none");
		text = xasprintf("StageSet %s/%s: the transition from %s to %s that began at %s passed the approval gate "
				 "on stages.metio.wtf/approved-version \"%s\", set at %s%s, before the StageSet adopted "
				 "%s at %s%s: the controller never clears the annotation, so that approval was reused "
				 "and nobody approved this transition; remove the annotation once the version it "
				 "approves is adopted, and keep it out of the manifest",
				 m->ns, m->name, a->from, a->version, at(a->start_ms, t0), a->version, at(set_ms, t1),
				 manifest ? " (its manifest's)" : "", before->version,
				 at(before->end_ms, t2), how);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
		free(how);
		return; /* the first reuse tells it */
	}
}

/* ---------------------------------------------------------------- scan */

static void follow(struct run_result *r, const struct ssrc_member_stat *m, struct st_rec *g,
		   const struct tl_entry *e)
{
	follow_approval(m, g, e);
	follow_pending(g, e);
	follow_pending_approval(g, e);
	follow_quiet(m->silent_errors, m->silent_first_ms, m->silent_last_ms, &g->plan, e);
	follow_quiet(m->read_errors, m->read_first_ms, m->read_last_ms, &g->read, e);
	if (e->change == TL_STATUS || e->change == TL_UPDATED)
		follow_race(g, e);
	if (e->change == TL_UPDATED)
		return;
	if (e->change == TL_EVENT) {
		if (e->reason && !strcmp(e->reason, SSC_REASON_PROMOTION_BLOCKED) && e->message &&
		    !strncmp(e->message, "stage \"", 7))
			stale_revert(r, m, g, e);
		return;
	}
	if (e->reason && !strcmp(e->reason, SSC_REASON_SOAKING) && g->last && names_stage(e->message, g->last)) {
		if (g->soak_from_ms < 0)
			g->soak_from_ms = e->t_ms;
		return;
	}
	if (e->reason && !strcmp(e->reason, SSC_REASON_READY) && has_field(e->detail, "lastAppliedRevisions")) {
		if (g->soak_from_ms >= 0 && has_field(e->detail, "version")) {
			g->soaks = xreallocarray(g->soaks, g->nsoaks + 1, sizeof(*g->soaks));
			g->soaks[g->nsoaks++] = (struct st_soak){ g->soak_from_ms, e->t_ms };
		}
		if (has_field(e->detail, "lastAppliedSnapshot")) {
			g->snap_ms = e->t_ms;
			g->nstale = 0;
		} else if (g->snap_ms >= 0) {
			g->stale = xreallocarray(g->stale, g->nstale + 1, sizeof(*g->stale));
			g->stale[g->nstale++] = e->t_ms;
		}
	}
	g->soak_from_ms = -1; /* any other status ends the last stage's soak */
}

void ss_hazards_stale(struct run_result *r)
{
	const struct ssrc_member_stat *ms;
	struct strindex idx = { 0 };
	size_t n = ssm_index(r, &ms, &idx);
	const struct tl *tl = des_timeline(r->world);
	const unsigned changes = SSM_CHANGE(TL_STATUS) | SSM_CHANGE(TL_EVENT) | SSM_CHANGE(TL_UPDATED) |
				 SSM_CHANGE(TL_CREATED);
	struct tl_entry e;
	struct st_rec *recs;
	size_t pos;

	if (n == 0)
		return;
	recs = xcalloc(n, sizeof(*recs));
	for (size_t i = 0; i < n; i++) {
		recs[i].last = last_stage(r, ms[i].ns, ms[i].name);
		recs[i].soak_from_ms = recs[i].snap_ms = -1;
		recs[i].prog_ms = recs[i].appr_ms = recs[i].rehold_ms = recs[i].rehold_until_ms = -1;
		recs[i].plan.said_ms = recs[i].plan.next_ms = recs[i].read.said_ms = recs[i].read.next_ms = -1;
		recs[i].race_ms = recs[i].race_next_ms = recs[i].stale_ms = -1;
		recs[i].exit_ms = recs[i].exit_until_ms = recs[i].exit_appr_ms = -1;
	}
	for (size_t i = 0; ssm_next(tl, &i, changes, &idx, &e, &pos);) {
		if (e.change == TL_CREATED)
			recs[pos].born_ms = e.t_ms;
		else
			follow(r, &ms[pos], &recs[pos], &e);
	}
	for (size_t i = 0; i < n; i++) {
		if (recs[i].soak_from_ms >= 0) {
			recs[i].soaks = xreallocarray(recs[i].soaks, recs[i].nsoaks + 1, sizeof(*recs[i].soaks));
			recs[i].soaks[recs[i].nsoaks++] = (struct st_soak){ recs[i].soak_from_ms, -1 };
		}
		if (recs[i].nsoaks)
			last_stage_soak(r, &ms[i], &recs[i]);
		if (ms[i].norphans)
			removed_stages(r, &ms[i]);
		if (ms[i].nsurvivors)
			dropped_objects(r, &ms[i]);
		approval_rehold(r, &ms[i], &recs[i]);
		silent_errors(r, &ms[i], &recs[i]);
		read_errors(r, &ms[i], &recs[i]);
		approval_races(r, &ms[i], &recs[i]);
		pending_after_exit(r, &ms[i], &recs[i]);
		approval_reused(r, &ms[i], &recs[i]);
		free(recs[i].pend);
		free(recs[i].exit_version);
		free(recs[i].appr_first);
		for (size_t k = 0; k < recs[i].napprs; k++)
			free(recs[i].apprs[k].value);
		free(recs[i].apprs);
		free(recs[i].appr_value);
		free(recs[i].held_version);
		free(recs[i].was_held);
		free(recs[i].race_version);
		free(recs[i].stale_approved);
		free(recs[i].stale_now);
		free(recs[i].appr_detail);
		free(recs[i].rehold_version);
		free(recs[i].rehold_prog_reason);
		free(recs[i].rehold_appr);
		free(recs[i].soaks);
		free(recs[i].stale);
	}
	free(recs);
	si_release(&idx);
}
