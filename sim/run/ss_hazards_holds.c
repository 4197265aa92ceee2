#include "sim/run/ss_hazards_holds.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "engine/labels.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/lint/lint_ss_holds.h"
#include "sim/wire/fleet_glue.h"
#include "sim/wire/stageset_rc.h"

/* The one-shot window bypass (StageSet spec ): a pass that saw a fresh one passed the windows for it. */
#define UPDATE_NOW "stages.metio.wtf/update-now"
/* The one-shot budget bypass. */
#define BUDGET_OVERRIDE "stages.metio.wtf/budget-override"

/* Go duration of @ms as it is (times of the run), into @buf (GT_DURATION_BUFSZ). */
static const char *at(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

static void notice(struct run_result *r, const struct obj *ss, char *text)
{
	struct tl_objref ref = { "StageSet", ss->ns, ss->name, 0 };

	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
}

/* " (next window opens T)" or " (no window ever opens again)", into @buf of @len bytes. */
static void next_text(const struct lsh_windows *w, char *buf, size_t len)
{
	char t[GT_RFC3339_BUFSZ];

	if (w->next_ms == SST_NO_TIME) {
		snprintf(buf, len, "no window ever opens again");
		return;
	}
	gt_format_rfc3339(w->next_ms, t, sizeof(t));
	snprintf(buf, len, "the next window opens %s", t);
}

/* version changes that started while the windows or the budget held new revisions. */
static void passed_freeze(struct run_result *r, const struct scenario *s, const struct obj *ss,
			  const struct ssrc_member_stat *m, struct tzif_cache *tz)
{
	const char *token = obj_strmap_get(&ss->annotations, UPDATE_NOW);
	bool windows_judged = !token || !*token, budget_judged = !obj_strmap_get(&ss->annotations, BUDGET_OVERRIDE);
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], next[96], when[GT_RFC3339_BUFSZ];

	for (size_t k = 0; k < m->nattempts; k++) {
		const struct ssrc_attempt *t = &m->attempts[k];
		struct lsh_windows w;
		struct lsh_budget bu;
		bool by_window, by_budget;
		char *how, *why;

		if (t->baseline || t->start_ms < 0)
			continue;
		by_window = windows_judged && lsh_windows_at(ss->spec, tz, s->start_unix_ms + t->start_ms, &w) &&
			    !w.allowed && !w.scope_all;
		by_budget = budget_judged && lsh_budget_at(ss->spec, s, t->start_ms, &bu) && bu.frozen;
		if (!by_window && !by_budget)
			continue;
		gt_format_rfc3339(s->start_unix_ms + t->start_ms, when, sizeof(when));
		if (by_window)
			next_text(&w, next, sizeof(next));
		why = by_window && by_budget
			      ? xasprintf("inside its update windows' hold (%s; %s) and with its error budget "
					  "exhausted (remaining %g < freezeThreshold %s)",
					  w.what, next, bu.remaining, bu.freeze_text)
		      : by_window ? xasprintf("inside its update windows' hold (%s; %s)", w.what, next)
				  : xasprintf("with its error budget exhausted (remaining %g < freezeThreshold %s)",
					      bu.remaining, bu.freeze_text);
		switch (t->outcome) {
		case SSRC_SUCCEEDED:
			how = xasprintf("reached %s at %s", t->version, at(t->end_ms, b));
			break;
		case SSRC_IN_FLIGHT:
			how = xasprintf("was still on its way to %s at the end", t->version);
			break;
		default:
			how = xasprintf("ended %s at %s", ssrc_outcome_name(t->outcome), at(t->end_ms, b));
			break;
		}
		notice(r, ss,
		       xasprintf("StageSet %s/%s moved from %s to %s%s while %s held new revisions: the pass "
				 "started at %s (%s), %s, and %s; %s only a new artifact revision of the "
				 "sources, and a version.value edit, a rollback-to stamp or another spec edit "
				 "brings none, so migrations and downgrades pass too; make such changes when "
				 "updates are allowed, or deliver them through the source%s",
				 ss->ns, ss->name, *t->from ? t->from : "(none)", t->version,
				 t->directed ? " (directed by stages.metio.wtf/rollback-to)" : "",
				 by_window && by_budget ? "its update windows and its error budget"
				 : by_window		? "its update windows"
							: "its error budget",
				 at(t->start_ms, a), when, why, how,
				 by_window && by_budget ? "both gate" : by_window ? "the windows gate" : "the budget gates",
				 by_window ? " (windowScope: All holds every change while a window is closed)" : ""));
		free(how);
		free(why);
	}
}

/* a revision held at the end by windows that never allow an update again. */
static void never_opens(struct run_result *r, const struct scenario *s, const struct obj *ss,
			struct tzif_cache *tz)
{
	const struct val *pu = ss->status ? val_map_get(ss->status, "pendingUpdate") : NULL;
	const struct val *revs = pu ? val_map_get(pu, "revisions") : NULL;
	struct lsh_windows w;
	char end[GT_RFC3339_BUFSZ], a[GT_DURATION_BUFSZ];

	if (!revs || revs->type != VAL_MAP || revs->u.map.n == 0)
		return;
	if (!lsh_windows_at(ss->spec, tz, s->start_unix_ms + r->end_ms, &w) || w.allowed ||
	    w.next_ms != SST_NO_TIME)
		return;
	gt_format_rfc3339(s->start_unix_ms + r->end_ms, end, sizeof(end));
	notice(r, ss,
	       xasprintf("StageSet %s/%s ended the run (%s, %s) holding a new revision back for its update "
			 "windows (%s), and they never allow an update again: the revision is deferred for "
			 "good, re-checked every retryInterval; correct the Allow window (its from/to, its "
			 "schedule) or remove it",
			 ss->ns, ss->name, at(r->end_ms, a), end, w.what));
}

/* A Ready reason written while a stage holds the new revision at its promotion gate (H-1). */
static bool promotion_hold(const char *reason)
{
	return reason && (!strcmp(reason, "Soaking") || !strcmp(reason, "AwaitingPromotion") ||
			  !strcmp(reason, "PromotionBlocked"));
}

/* The stage a promotion hold's message names (`stage "X" ...`), into @buf; "" when none. */
static void held_stage(const char *msg, char *buf, size_t len)
{
	const char *p = msg ? strstr(msg, "stage \"") : NULL, *e;

	buf[0] = '\0';
	if (!p)
		return;
	p += 7;
	e = strchr(p, '"');
	if (e && (size_t)(e - p) < len) {
		memcpy(buf, p, (size_t)(e - p));
		buf[e - p] = '\0';
	}
}

/* How many stages of StageSet @m's spec (at the end of the run) follow stage @stage; 0 when none or not found. */
static size_t later_stages(struct run_result *r, const struct ssrc_member_stat *m, const char *stage)
{
	const struct obj *ss = api_get(des_api(r->world), "StageSet", m->ns, m->name);
	const struct val *st = ss && ss->spec ? val_map_get(ss->spec, "stages") : NULL;

	for (size_t i = 0; st && st->type == VAL_LIST && i < st->u.list.n; i++)
		if (!strcmp(val_str(val_map_get(st->u.list.items[i], "name"), ""), stage))
			return st->u.list.n - i - 1;
	return 0;
}

static int cmp_member(const void *pa, const void *pb)
{
	const struct ssrc_member_stat *a = *(const struct ssrc_member_stat *const *)pa;
	const struct ssrc_member_stat *b = *(const struct ssrc_member_stat *const *)pb;
	int c = strcmp(a->ns, b->ns);

	return c ? c : strcmp(a->name, b->name);
}

/*
 * The members' StageSet status writes in timeline order, each with its
 * member's place in the (ns, name) order, and the same positions grouped
 * by member: the notices below that follow every member's statuses read
 * these instead of each walking the whole timeline and looking the member
 * up again.
 */
struct member_writes {
	const struct ssrc_member_stat **idx; /* the members, sorted by cmp_member() */
	size_t n;                            /* members */
	size_t *pos;                         /* timeline positions of the writes */
	size_t *who;                         /* each write's member, an index into idx */
	size_t count;                        /* writes */
	size_t *by_member;                   /* the positions again, member by member (in idx order) */
	size_t *first;                       /* member k's are by_member[first[k] .. first[k + 1]) */
	size_t *place;                       /* member m[i]'s index into idx */
};

/* Fills @w from one walk of @tl for the @n members @m (borrowed; release_member_writes() frees). */
static void index_member_writes(const struct tl *tl, const struct ssrc_member_stat *m, size_t n,
				struct member_writes *w)
{
	size_t cap = 0, *fill;

	memset(w, 0, sizeof(*w));
	w->idx = xcalloc(n, sizeof(*w->idx));
	w->n = n;
	for (size_t i = 0; i < n; i++)
		w->idx[i] = &m[i];
	qsort(w->idx, n, sizeof(*w->idx), cmp_member);
	for (size_t i = 0, count = tl_count(tl); i < count; i++) {
		struct tl_entry e;
		struct ssrc_member_stat key, *kp = &key;
		const struct ssrc_member_stat **hit;

		tl_get(tl, i, &e);
		if (e.change != TL_STATUS || strcmp(e.kind, "StageSet"))
			continue;
		key.ns = e.ns;
		key.name = e.name;
		if (!(hit = bsearch(&kp, w->idx, n, sizeof(*w->idx), cmp_member)))
			continue;
		if (w->count == cap) {
			cap = cap ? 2 * cap : 64;
			w->pos = xreallocarray(w->pos, cap, sizeof(*w->pos));
			w->who = xreallocarray(w->who, cap, sizeof(*w->who));
		}
		w->pos[w->count] = i;
		w->who[w->count++] = (size_t)(hit - w->idx);
	}
	w->first = xcalloc(n + 1, sizeof(*w->first));
	w->by_member = xcalloc(w->count ? w->count : 1, sizeof(*w->by_member));
	w->place = xcalloc(n ? n : 1, sizeof(*w->place));
	for (size_t i = 0; i < n; i++)
		w->place[w->idx[i] - m] = i;
	for (size_t i = 0; i < w->count; i++)
		w->first[w->who[i] + 1]++;
	for (size_t k = 0; k < n; k++)
		w->first[k + 1] += w->first[k];
	fill = xcalloc(n ? n : 1, sizeof(*fill));
	for (size_t i = 0; i < w->count; i++)
		w->by_member[w->first[w->who[i]] + fill[w->who[i]]++] = w->pos[i];
	free(fill);
}

static void release_member_writes(struct member_writes *w)
{
	free(w->place);
	free(w->first);
	free(w->by_member);
	free(w->who);
	free(w->pos);
	free(w->idx);
}

/* What one StageSet's statuses showed last, while the timeline is walked. */
struct seen {
	const char *reason, *message; /* the last status's Ready reason and message (borrowed from the timeline) */
	int64_t t_ms;                 /* its time */
	bool told;                    /* this stretch of "Deployed; …" was told */
};

/*
 * Ready True "Deployed; …" (a window or budget deferral of a deployed
 * StageSet) written right after a promotion hold of a stage: the stages up
 * to the held one ran the new revision, the later ones the old.
 */
static void half_rolled(struct run_result *r, const struct member_writes *w)
{
	const struct tl *tl = des_timeline(r->world);
	struct seen *seen = xcalloc(w->n, sizeof(*seen));

	for (size_t i = 0; i < w->count; i++) {
		struct tl_entry e;
		const struct ssrc_member_stat *const *hit = &w->idx[w->who[i]];
		struct seen *sn = &seen[w->who[i]];

		tl_get(tl, w->pos[i], &e);
		if (e.reason && !strcmp(e.reason, "Succeeded") && e.message && !strncmp(e.message, "Deployed; ", 10)) {
			if (!sn->told && promotion_hold(sn->reason)) {
				const struct ssrc_member_stat *mm = *hit;
				const struct ssrc_attempt *held = NULL, *done = NULL;
				char stage[128], a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
				char *until;
				struct tl_objref ref = { "StageSet", mm->ns, mm->name, 0 };
				char *text;

				for (size_t k = 0; k < mm->nattempts; k++) {
					const struct ssrc_attempt *t = &mm->attempts[k];

					if (t->start_ms <= sn->t_ms && t->outcome == SSRC_HELD && t->end_ms == sn->t_ms)
						held = t;
					if (held && !done && t->start_ms >= e.t_ms && t->outcome == SSRC_SUCCEEDED &&
					    !strcmp(t->version, held->version))
						done = t;
				}
				held_stage(sn->message, stage, sizeof(stage));
				if (held && later_stages(r, mm, stage) > 0) {
					until = done ? xasprintf("until %s", at(done->end_ms, c))
						     : xstrdup("to the end of the run");
					text = xasprintf(
						"StageSet %s/%s reported Ready True '%s' at %s while its rollout from %s "
						"to %s stood half done: stage \"%s\" held %s at its promotion gate "
						"(%s at %s), the stages after it kept %s and status.version stayed %s "
						"%s; windows and budgets are checked before the plan on every pass, "
						"and a FleetRollout or a dependsOn dependent reading Ready takes it "
						"as deployed; "
						"compare status.stages' applied revisions, or keep promotion gates "
						"clear of the windows' closing times",
						mm->ns, mm->name, e.message, at(e.t_ms, a), *held->from ? held->from : "(none)",
						held->version, stage, held->version, sn->reason, at(sn->t_ms, b),
						*held->from ? held->from : "the old revision",
						*held->from ? held->from : "(none)", until);
					tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
					free(text);
					free(until);
					sn->told = true;
				}
			}
			continue; /* the hold before it stays the one to judge by */
		}
		sn->reason = e.reason;
		sn->message = e.message;
		sn->t_ms = e.t_ms;
		sn->told = false;
	}
	free(seen);
}

/* ---- a stale pendingVersion ---- */

#define AWAITING_LEAD "version transition to "

/* The version an AwaitingApproval message names ("version transition to X is awaiting approval…"), new, or NULL. */
static char *awaited_version(const struct tl_entry *e)
{
	const char *p = e->reason && !strcmp(e->reason, "AwaitingApproval") && e->message &&
				!strncmp(e->message, AWAITING_LEAD, strlen(AWAITING_LEAD))
			? e->message + strlen(AWAITING_LEAD)
			: NULL;

	return p ? xstrndup(p, strcspn(p, " ")) : NULL;
}

/* The version the scenario's publishes offer StageSet @ss at @t_ms (the latest reaching it by then), NULL none. */
static const char *offered_at(struct run_result *r, const struct scenario *s, const struct obj *ss, int64_t t_ms)
{
	const struct obj *ns = api_get(des_api(r->world), "Namespace", "", ss->ns);
	const char *v = NULL;

	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];

		if (p->type == SCN_FEV_PUBLISH && p->at_ms <= t_ms && lbl_matches(&p->selector, &ss->labels) &&
		    (!p->has_ns_selector || (ns && lbl_matches(&p->ns_selector, &ns->labels))))
			v = p->version;
	}
	return v;
}

/*
 * a window or budget deferral (Ready True "Deployed; …") of StageSet
 * @m while status.pendingVersion named a version the publishes no longer
 * offered: told with the first such stretch, up to the next status that
 * wrote pendingVersion.
 */
static void pending_stale(struct run_result *r, const struct scenario *s, const struct ssrc_member_stat *m,
			  const struct member_writes *mw, size_t k)
{
	const size_t *pos = &mw->by_member[mw->first[k]];
	size_t npos = mw->first[k + 1] - mw->first[k];
	const struct obj *ss = api_get(des_api(r->world), "StageSet", m->ns, m->name);
	const struct tl *tl = des_timeline(r->world);
	char *pv = NULL, *stale = NULL, *held_msg = NULL;
	const char *offered = NULL, *defer_msg = NULL;
	int64_t pv_ms = -1, held_ms = -1, from_ms = -1, to_ms = -1;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ];

	if (!ss || !s->nfevents || !npos)
		return;
	for (size_t i = 0; i < npos && to_ms < 0; i++) {
		struct tl_entry e;
		char *v;
		bool removed = false, named;

		tl_get(tl, pos[i], &e);
		named = tl_status_names(e.detail, "pendingVersion", &removed);
		v = awaited_version(&e);
		if (from_ms >= 0 && (named || v)) {
			to_ms = e.t_ms; /* the next write of pendingVersion ends it */
		} else if (v && (!pv || strcmp(pv, v))) {
			free(pv);
			pv = v;
			v = NULL;
			pv_ms = e.t_ms;
		} else if (named && removed) {
			free(pv);
			pv = NULL;
		} else if (pv && from_ms < 0 && e.reason && !strcmp(e.reason, "Succeeded") && e.message &&
			   !strncmp(e.message, "Deployed; ", 10) && (offered = offered_at(r, s, ss, e.t_ms)) &&
			   strcmp(offered, pv)) {
			from_ms = e.t_ms;
			stale = xstrdup(pv);
			held_ms = pv_ms;
			defer_msg = e.message;
		}
		free(v);
	}
	if (from_ms >= 0) {
		held_msg = to_ms >= 0 ? xasprintf("until %s (%s)", at(to_ms, c), at(to_ms - from_ms, d))
				      : xasprintf("for %s, to the end of the run at %s", at(r->end_ms - from_ms, d),
						  at(r->end_ms, c));
		notice(r, ss,
		       xasprintf("StageSet %s/%s: status.pendingVersion named %s, held for approval since %s, from %s %s "
				 "while its source offered %s: those passes were deferred before the approval gate "
				 "(Ready True '%s'), and only the approval gate writes pendingVersion, so stagesetctl "
				 "and a FleetRollout without targetVersion (which approves what pendingVersion names) "
				 "took %s for the version waiting; approve the version the source offers, not "
				 "status.pendingVersion, while a window or budget holds",
				 m->ns, m->name, stale, at(held_ms, a), at(from_ms, b), held_msg, offered, defer_msg,
				 stale));
	}
	free(held_msg);
	free(stale);
	free(pv);
}

/* A stretch of time a StageSet showed Ready True "Deployed; …" for its error budget. */
struct stretch {
	int64_t from_ms, to_ms; /* to_ms INT64_MAX while it lasted to the end */
	const char *message;    /* the first status's message (borrowed from the timeline) */
};

struct stretches {
	struct stretch *v;
	size_t n, cap;
};

/* A deployed StageSet's budget hold (R-11 rollout-wide, H-2 per stage): Ready True, "Deployed; …". */
static bool budget_hold(const struct tl_entry *e)
{
	return e->reason && !strcmp(e->reason, "Succeeded") && e->message && !strncmp(e->message, "Deployed; ", 10) &&
	       strstr(e->message, "error budget exhausted");
}

/* The version StageSet @m last reached at or before @t_ms (its succeeded attempts), "" when none. */
static const char *version_at(const struct ssrc_member_stat *m, int64_t t_ms)
{
	const char *v = "";

	for (size_t k = 0; k < m->nattempts; k++)
		if (m->attempts[k].outcome == SSRC_SUCCEEDED && m->attempts[k].end_ms >= 0 &&
		    m->attempts[k].end_ms <= t_ms)
			v = m->attempts[k].version;
	return v;
}

/*
 * a StageSet moved to another version while a StageSet it dependsOn
 * was held by its error budget (Ready True "Deployed; …error budget
 * exhausted…", no pendingUpdate).
 */
static void budget_invisible(struct run_result *r, const struct member_writes *w)
{
	const struct tl *tl = des_timeline(r->world);
	const struct ssrc_member_stat *const *idx = w->idx;
	size_t n = w->n;
	struct stretches *st = xcalloc(n, sizeof(*st));
	bool any = false;

	for (size_t i = 0; i < w->count; i++) {
		struct tl_entry e;
		struct stretches *x = &st[w->who[i]];
		bool open;

		tl_get(tl, w->pos[i], &e);
		open = x->n && x->v[x->n - 1].to_ms == INT64_MAX;
		if (budget_hold(&e) && !open) {
			if (x->n == x->cap) {
				x->cap = x->cap ? 2 * x->cap : 4;
				x->v = xreallocarray(x->v, x->cap, sizeof(*x->v));
			}
			x->v[x->n++] = (struct stretch){ e.t_ms, INT64_MAX, e.message };
			any = true;
		} else if (!budget_hold(&e) && open) {
			x->v[x->n - 1].to_ms = e.t_ms;
		}
	}
	for (size_t a = 0; any && a < n; a++) {
		const struct ssrc_member_stat *ma = idx[a];
		const struct obj *oa = api_get(des_api(r->world), "StageSet", ma->ns, ma->name);
		const struct val *deps = oa && oa->spec ? val_map_get(oa->spec, "dependsOn") : NULL;

		for (size_t dd = 0; deps && deps->type == VAL_LIST && dd < deps->u.list.n; dd++) {
			const struct val *it = deps->u.list.items[dd];
			const char *dns = val_str(val_map_get(it, "namespace"), "");
			struct ssrc_member_stat key = { .ns = *dns ? dns : ma->ns, .name = val_str(val_map_get(it, "name"), "") };
			const struct ssrc_member_stat *kp = &key, **hit = bsearch(&kp, idx, n, sizeof(*idx), cmp_member);
			size_t b;

			if (!hit || (b = (size_t)(hit - idx)) == a || !st[b].n)
				continue;
			for (size_t k = 0; k < ma->nattempts; k++) {
				const struct ssrc_attempt *t = &ma->attempts[k];

				for (size_t h = 0; !t->baseline && t->start_ms >= 0 && h < st[b].n; h++) {
					const struct stretch *x = &st[b].v[h];
					char a1[GT_DURATION_BUFSZ], a2[GT_DURATION_BUFSZ], a3[GT_DURATION_BUFSZ];
					char *until, *how;
					struct tl_objref ref[2] = { { "StageSet", ma->ns, ma->name, 0 },
								    { "StageSet", idx[b]->ns, idx[b]->name, 0 } };
					char *text;

					if (t->start_ms < x->from_ms || t->start_ms >= x->to_ms)
						continue;
					until = x->to_ms == INT64_MAX ? xstrdup("to the end of the run")
								     : xasprintf("until %s", at(x->to_ms, a2));
					how = t->outcome == SSRC_SUCCEEDED
						      ? xasprintf("reached it at %s", at(t->end_ms, a3))
						      : xasprintf("its attempt %s", ssrc_outcome_name(t->outcome));
					text = xasprintf(
						"StageSet %s/%s moved from %s to %s while %s/%s, which it dependsOn, was held "
						"by its error budget: the pass started at %s and %s, and %s/%s showed Ready "
						"True '%s' from %s %s, on version %s; a budget hold sets no pendingUpdate, "
						"and dependsOn waits only for that (and for Ready), so the dependent rolled "
						"out against its dependency's old revision; give the dependents the same "
						"errorBudget, or a dependsOn minVersion the old version does not satisfy",
						ma->ns, ma->name, *t->from ? t->from : "(none)", t->version, idx[b]->ns,
						idx[b]->name, at(t->start_ms, a1), how, idx[b]->ns, idx[b]->name, x->message,
						at(x->from_ms, a3), until,
						*version_at(idx[b], t->start_ms) ? version_at(idx[b], t->start_ms) : "(none)");
					tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, ref, 2);
					free(text);
					free(until);
					free(how);
					break;
				}
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		free(st[i].v);
	free(st);
}

/*
 * The soak deadline a Soaking status of stage @stage names ("stage \"X\" is
 * soaking before promotion; soak window closes at T"), Unix ms; false for
 * another status or stage.
 */
static bool soak_deadline(const struct tl_entry *e, const char *stage, int64_t *unix_ms)
{
	static const char mark[] = "soak window closes at ";
	char want[160], t[32];
	const char *p;
	size_t k;

	if (!e->reason || strcmp(e->reason, "Soaking") || !e->message)
		return false;
	snprintf(want, sizeof(want), "stage \"%s\" is soaking before promotion; ", stage);
	if (strncmp(e->message, want, strlen(want)) || !(p = strstr(e->message, mark)))
		return false;
	p += sizeof(mark) - 1;
	for (k = 0; k + 1 < sizeof(t) && p[k] && p[k] != ' '; k++)
		t[k] = p[k];
	t[k] = '\0';
	return gt_parse_rfc3339(t, unix_ms, NULL, 0) == 0;
}

/*
 * a soak edited while the stage soaked kept its deadline: the last
 * Soaking status of the stage before the edit names a deadline after it, no
 * later one names another before it, and the stage soaked on to it.
 */
static void soak_edits(struct run_result *r, const struct scenario *s)
{
	const struct tl *tl = des_timeline(r->world);
	struct lsh_soak_edit *v;
	size_t n = lsh_soak_edits(s, &v), count = tl_count(tl);

	for (size_t i = 0; i < n; i++) {
		const struct scn_event *ev = v[i].event;
		int64_t before = INT64_MIN, moved = INT64_MIN, d, last_soaking = -1, after = -1;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], e1[GT_DURATION_BUFSZ];
		char f[GT_DURATION_BUFSZ], g[GT_DURATION_BUFSZ], h[GT_DURATION_BUFSZ], h2[GT_DURATION_BUFSZ];
		struct tl_objref ref = { "StageSet", v[i].ss->ns, v[i].ss->name, 0 };
		int64_t start, deadline;
		char *text;

		for (size_t k = 0; k < count; k++) {
			struct tl_entry e;

			tl_get(tl, k, &e);
			if (e.change != TL_STATUS || strcmp(e.kind, "StageSet") || strcmp(e.ns, v[i].ss->ns) ||
			    strcmp(e.name, v[i].ss->name))
				continue;
			if (e.t_ms < ev->at_ms) {
				before = soak_deadline(&e, v[i].stage, &d) ? d : INT64_MIN;
				continue;
			}
			if (before == INT64_MIN)
				break; /* not soaking when the edit came */
			if (soak_deadline(&e, v[i].stage, &d)) {
				if (d != before) {
					moved = d;
					break;
				}
				last_soaking = e.t_ms;
			} else if (after < 0) {
				after = e.t_ms;
				break;
			}
		}
		deadline = before == INT64_MIN ? 0 : before - s->start_unix_ms;
		if (before == INT64_MIN || moved != INT64_MIN || deadline <= ev->at_ms || after < deadline)
			continue; /* not soaking at the edit, or the deadline moved, or it ended sooner */
		start = deadline - v[i].old_ms;
		text = xasprintf("StageSet %s/%s: the %s at %s changed the soak of stage \"%s\" from %s to %s "
				 "while it soaked (since %s, until %s): the soak kept its deadline (the controller "
				 "takes its start as soakUntil - soak), so the stage stayed Soaking%s to %s (the "
				 "next status came at %s), not to %s; promote a soaking stage with "
				 "stages.metio.wtf/promote: <stage>@<token>, and edit a soak for the next revision",
				 v[i].ss->ns, v[i].ss->name, scn_event_type_name(ev->type), at(ev->at_ms, a),
				 v[i].stage, at(v[i].old_ms, b), v[i].new_ms ? at(v[i].new_ms, c) : "none",
				 at(start, e1), at(deadline, f),
				 last_soaking >= 0 ? " (its status after the edit still named the old deadline)" : "",
				 at(deadline, g), at(after, h),
				 start + v[i].new_ms <= ev->at_ms ? "the edit (the new soak had run out by then)"
								  : at(start + v[i].new_ms, h2));
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
	}
	free(v);
}

/* Whether a status shows the pass held by a gate after the windows (@budget_too: or after the budget). */
static bool later_gate(const struct tl_entry *e, bool budget_too)
{
	if (!e->reason)
		return false;
	if (!strcmp(e->reason, "AwaitingApproval"))
		return true;
	return budget_too && (!strcmp(e->reason, "BudgetExhausted") || !strcmp(e->reason, "BudgetSourceUnavailable") ||
			      (!strcmp(e->reason, "Succeeded") && e->message &&
			       !strncmp(e->message, "Deployed; error budget exhausted", 32)));
}

/* Whether a status shows the hold the token was meant to pass (@window: the windows', else the budget's). */
static bool token_gate(const struct tl_entry *e, bool window)
{
	if (!e->reason || !e->message)
		return false;
	if (window)
		return strstr(e->message, "delivery held by update window") != NULL;
	return later_gate(e, true) && strcmp(e->reason, "AwaitingApproval");
}

/*
 * a one-shot token (update-now, budget-override) stamped by a
 * scenario event was spent by a pass that a later gate held (approval;
 * for update-now also the budget), and a later pass met the hold the token
 * was meant to pass.
 */
static void tokens_burned(struct run_result *r, const struct scenario *s, const struct ssrc_member_stat *m,
			  size_t n)
{
	const struct tl *tl = des_timeline(r->world);
	size_t count = tl_count(tl);

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];
		const char *un = obj_strmap_get(&ev->set, UPDATE_NOW), *bo = obj_strmap_get(&ev->set, BUDGET_OVERRIDE);
		bool window = un != NULL;
		int64_t spent = -1, again = -1;
		const char *spent_reason = NULL, *again_msg = NULL;
		const struct ssrc_member_stat *mm = NULL;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ];
		char *until, *text;
		struct tl_objref ref;

		if (ev->type != SCN_EV_ANNOTATE || (!un && !bo) || strcmp(ev->target.kind, "StageSet"))
			continue;
		for (size_t k = 0; k < n && !mm; k++)
			if (!strcmp(m[k].ns, ev->target.ns) && !strcmp(m[k].name, ev->target.name))
				mm = &m[k];
		if (!mm)
			continue;
		for (size_t k = 0; k < count; k++) {
			struct tl_entry e;

			tl_get(tl, k, &e);
			if (e.t_ms < ev->at_ms || e.change != TL_STATUS || strcmp(e.kind, "StageSet") ||
			    strcmp(e.ns, mm->ns) || strcmp(e.name, mm->name))
				continue;
			if (spent < 0) {
				if (!later_gate(&e, window))
					break; /* the pass that saw it went elsewhere */
				spent = e.t_ms;
				spent_reason = e.reason;
				continue;
			}
			if (token_gate(&e, window)) {
				again = e.t_ms;
				again_msg = e.message;
				break;
			}
			if (!later_gate(&e, window))
				break; /* something else came first */
		}
		if (again < 0)
			continue;
		for (size_t k = 0; k < mm->nattempts; k++) /* no adoption between the token and the hold */
			if (mm->attempts[k].start_ms >= ev->at_ms && mm->attempts[k].start_ms <= again)
				again = -1;
		if (again < 0)
			continue;
		until = NULL;
		for (size_t k = 0; k < mm->nattempts && !until; k++)
			if (mm->attempts[k].start_ms > again && mm->attempts[k].outcome == SSRC_SUCCEEDED)
				until = xasprintf("it moved only at %s (to %s)", at(mm->attempts[k].end_ms, d),
						  mm->attempts[k].version);
		if (!until)
			until = xstrdup("it had not moved by the end of the run");
		text = xasprintf("StageSet %s/%s: the %s token \"%s\" stamped at %s was spent by the pass at %s, "
				 "which %s held (%s); the pass at %s met the %s again ('%s'), and %s; the controller "
				 "records a fresh token as handled even when a later gate holds the pass: clear "
				 "that gate first, or stamp a fresh token after it opened",
				 mm->ns, mm->name, window ? UPDATE_NOW : BUDGET_OVERRIDE, window ? un : bo,
				 at(ev->at_ms, a), at(spent, b),
				 !strcmp(spent_reason, "AwaitingApproval") ? "the approval gate" : "the error budget",
				 spent_reason, at(again, c), window ? "update window" : "error budget", again_msg, until);
		ref = (struct tl_objref){ "StageSet", mm->ns, mm->name, 0 };
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
		free(until);
	}
}

/* One StageSet stage's failed reverts (Warning PromotionBlocked "... could not be reverted: ..."). */
struct failed_revert {
	const char *ns, *name; /* borrowed from the timeline */
	char stage[128];
	const char *note;      /* the first event's note */
	int64_t first_ms, last_ms;
	size_t count;
};

/*
 * a gate with onFailure Rollback that could not revert its stage
 * (S-14: no snapshot without rollbackOnFailure, or an unusable one): the
 * Warning PromotionBlocked events the controller emitted on every pass,
 * counted per stage.
 */
static void reverts_impossible(struct run_result *r, const struct ssrc_member_stat *m, size_t n)
{
	const struct tl *tl = des_timeline(r->world);
	size_t count = tl_count(tl), nf = 0, cap = 0;
	struct failed_revert *f = NULL;

	for (size_t i = 0; i < count; i++) {
		struct tl_entry e;
		char stage[128];
		size_t k;

		tl_get(tl, i, &e);
		if (e.change != TL_EVENT || strcmp(e.kind, "StageSet") || !e.reason ||
		    strcmp(e.reason, "PromotionBlocked") || !e.message ||
		    !strstr(e.message, "but the stage could not be reverted: "))
			continue;
		held_stage(e.message, stage, sizeof(stage));
		for (k = 0; k < nf; k++)
			if (!strcmp(f[k].ns, e.ns) && !strcmp(f[k].name, e.name) && !strcmp(f[k].stage, stage))
				break;
		if (k == nf) {
			if (nf == cap) {
				cap = cap ? 2 * cap : 4;
				f = xreallocarray(f, cap, sizeof(*f));
			}
			f[nf] = (struct failed_revert){ e.ns, e.name, "", e.message, e.t_ms, e.t_ms, 0 };
			snprintf(f[nf].stage, sizeof(f[nf].stage), "%s", stage);
			nf++;
		}
		f[k].last_ms = e.t_ms;
		f[k].count++;
	}
	for (size_t k = 0; k < nf; k++) {
		const char *version = "";
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];
		struct tl_objref ref = { "StageSet", f[k].ns, f[k].name, 0 };
		char *text;

		for (size_t i = 0; i < n; i++) /* the version its last attempt up to then rolled out */
			if (!strcmp(m[i].ns, f[k].ns) && !strcmp(m[i].name, f[k].name))
				for (size_t j = 0; j < m[i].nattempts; j++)
					if (m[i].attempts[j].start_ms <= f[k].first_ms)
						version = m[i].attempts[j].version;
		struct ssrc_member_stat who = { .ns = f[k].ns, .name = f[k].name };
		size_t later = later_stages(r, &who, f[k].stage);

		text = xasprintf("StageSet %s/%s warned %zu time(s), from %s to %s, one Warning PromotionBlocked "
				 "event a pass: '%s'; stage \"%s\" was not reverted and kept %s%s%s; the revert needs the last-good snapshot, which the controller keeps "
				 "only with spec.rollbackOnFailure: set it, or use onFailure: Hold",
				 f[k].ns, f[k].name, f[k].count, at(f[k].first_ms, a), at(f[k].last_ms, b), f[k].note,
				 f[k].stage, *version ? "the new revision, " : "the new revision", version,
				 later ? ", and the stages after it did not move" : "");
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
	}
	free(f);
}

/*
 * One stretch of RBACDenied from a promotion gate's list on a steady
 * StageSet @mm: from @from_ms (status @msg) to @to_ms (-1: the end of the
 * run); it was last Ready True "Applied and verified" at @steady_ms.
 */
static void tell_denied(struct run_result *r, const struct ssrc_member_stat *mm, int64_t steady_ms, int64_t from_ms,
			int64_t to_ms, const char *msg)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], head[200];
	struct tl_objref ref = { "StageSet", mm->ns, mm->name, 0 };
	const char *cut = strstr(msg, " \xe2\x80\x94 "); /* the runbook hint after the dash */
	size_t hl = cut ? (size_t)(cut - msg) : strlen(msg);
	char *until = to_ms >= 0 ? xasprintf("to %s", at(to_ms, c)) : xstrdup("to the end of the run");
	char *text;

	snprintf(head, sizeof(head), "%.*s", (int)(hl < sizeof(head) ? hl : sizeof(head) - 1), msg);
	text = xasprintf("StageSet %s/%s, deployed and steady (Ready True 'Applied and verified' at %s), was Ready "
			 "False RBACDenied from %s %s: '%s'; nothing rolled out, its promotion gate reads pods (and "
			 "events) on every pass, also of a promoted stage, and a FleetRollout reads that as a "
			 "regression, a dependsOn dependent as not ready; grant the ServiceAccount list on pods and "
			 "events",
			 mm->ns, mm->name, at(steady_ms, a), at(from_ms, b), until, head);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(until);
}

/*
 * a deployed, steady StageSet (its last status Ready True
 * "Applied and verified …") turned Ready False RBACDenied because a
 * promotion gate could not list pods or events (H-6), though nothing rolled
 * out: from that status to the next one that is not RBACDenied.
 */
static void gate_reads_denied(struct run_result *r, const struct member_writes *w)
{
	const struct tl *tl = des_timeline(r->world);
	const struct ssrc_member_stat *const *idx = w->idx;
	size_t n = w->n;
	struct seen *seen = xcalloc(n, sizeof(*seen));
	int64_t *since = xcalloc(n, sizeof(*since));
	const char **msg = xcalloc(n, sizeof(*msg));

	for (size_t i = 0; i < n; i++)
		since[i] = -1;
	for (size_t i = 0; i < w->count; i++) {
		struct tl_entry e;
		size_t k = w->who[i];
		bool denied;

		tl_get(tl, w->pos[i], &e);
		denied = e.reason && !strcmp(e.reason, "RBACDenied") && e.message &&
			 !strncmp(e.message, "RBAC denied reading ", 20) && strstr(e.message, " gate");
		if (denied && since[k] < 0 && seen[k].reason && !strcmp(seen[k].reason, "Succeeded") &&
		    seen[k].message && !strncmp(seen[k].message, "Applied and verified", 20)) {
			since[k] = e.t_ms;
			msg[k] = e.message;
		} else if (!denied && since[k] >= 0) {
			tell_denied(r, idx[k], seen[k].t_ms, since[k], e.t_ms, msg[k]);
			since[k] = -1;
		}
		if (!denied) {
			seen[k].reason = e.reason;
			seen[k].message = e.message;
			seen[k].t_ms = e.t_ms;
		}
	}
	for (size_t k = 0; k < n; k++)
		if (since[k] >= 0)
			tell_denied(r, idx[k], seen[k].t_ms, since[k], -1, msg[k]);
	free(msg);
	free(since);
	free(seen);
}

void ss_hazards_holds(struct run_result *r, const struct scenario *s)
{
	const struct ssrc *c = r->fleet ? fleet_glue_ssrc(r->fleet) : NULL;
	const struct ssrc_member_stat *m = NULL;
	size_t n = c ? ssrc_members(c, &m) : 0;
	struct tzif_cache tz;
	struct member_writes mw;

	if (!n)
		return;
	tzif_cache_init(&tz, NULL);
	index_member_writes(des_timeline(r->world), m, n, &mw);
	for (size_t i = 0; i < n; i++) {
		const struct obj *ss = api_get(des_api(r->world), "StageSet", m[i].ns, m[i].name);
		if (!ss)
			continue;
		passed_freeze(r, s, ss, &m[i], &tz);
		never_opens(r, s, ss, &tz);
		pending_stale(r, s, &m[i], &mw, mw.place[i]);
	}
	half_rolled(r, &mw);
	budget_invisible(r, &mw);
	soak_edits(r, s);
	tokens_burned(r, s, m, n);
	reverts_impossible(r, m, n);
	gate_reads_denied(r, &mw);
	release_member_writes(&mw);
	tzif_cache_release(&tz);
}
