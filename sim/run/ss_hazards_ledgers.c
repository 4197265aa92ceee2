/*
 * The StageSet ledger hazards of a run, read from its timeline, the store,
 * the adapter's attempts and the world's action counts at the end
 * (ss_hazards_ledgers.h).
 */
#include "sim/run/ss_hazards_ledgers.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset_controller.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/load/scn_ssworld.h"
#include "sim/models/stageset_world_stages.h"
#include "sim/run/ss_members.h"
#include "sim/wire/fleet_glue.h"
#include "sim/wire/stageset_rc.h"

#define SOAK_CLOSES "soak window closes at "

/* A StageFailed status: when, and the stage its message names (owned). */
struct lg_fail {
	int64_t t_ms;
	char *stage;
};

/* What the timeline says of one StageSet's ledgers. */
struct lg_rec {
	/* */
	char *tok;               /* the promote annotation now, NULL none (owned) */
	int64_t tok_ms;          /* when it took that value (0: the inputs) */
	int64_t handled_ms;      /* the first Ready True status after tok_ms, -1 none */
	int64_t tok_fail_ms;     /* a StageFailed or StageProgressing of its stage after handled_ms, -1 none */
	bool tok_progress;       /* that status was a progress hold (StageProgressing) */
	size_t replays;          /* Ready True statuses with a new revision after such a failure */
	char *replay_tok;        /* the first replay: its token (owned), handling, failure and time */
	int64_t replay_handled_ms, replay_fail_ms, replay_ms;
	bool replay_progress;    /* the first replay followed a progress hold, not a failure */
	/* the reconcile-stage token */
	char *rs_tok;            /* the reconcile-stage annotation now, NULL none (owned) */
	int64_t rs_handled_ms;   /* the first status recording it after it took that value, -1 none */
	size_t rs_handled;       /* token values handled in the run */
	int64_t rs_fail_ms;      /* the first StageFailed or StageProgressing of its stage after the handling, -1 none */
	bool rs_progress;        /* that status was a progress hold */
	char *rs_fail_tok;       /* the token then (owned) */
	int64_t rs_fail_handled_ms; /* and when it had been handled */
	/* Q-12, G-8: a soak started over after a failure */
	char *sk_stage, *sk_close;  /* the last Soaking status's stage and soak closing (owned), NULL none */
	int64_t sk_fail_ms;         /* a StageFailed or StageProgressing of that stage before its soak closed, -1 none */
	char *sk_fail_msg;          /* its Ready message (owned) */
	bool sk_new_rev;            /* a status since the failure attempted another revision */
	bool sk_fail_progress;      /* the failure was a progress hold (StageProgressing) */
	bool sk_told_progress;      /* likewise of the first restart */
	int64_t sk_told_fail_ms;    /* the first restart: the failure, -1 none */
	int64_t sk_told_ms;         /* and the Soaking status that started the soak over */
	char *sk_told_stage, *sk_told_before, *sk_told_after, *sk_told_msg; /* owned */
	/* Q-12, §3.7.3: a restart block forgiven after a failure */
	char *rb_stage, *rb_check;  /* the last restart block's stage and check (owned), NULL none */
	char *rb_count;             /* the restarts it observed, as the message says them (owned) */
	int64_t rb_ms, rb_fail_ms;  /* when it blocked; a failure of that stage after it, -1 none */
	int64_t rb_told_ms;         /* the first Succeeded that promoted it after such a failure, -1 none */
	int64_t rb_told_block_ms, rb_told_fail_ms;
	char *rb_told_stage, *rb_told_check, *rb_told_count; /* owned */
	/* */
	int64_t preloop_ms;      /* the first failure before the stage loop, -1 none */
	char *preloop_msg;       /* its Ready message without the stage and the runbook (owned) */
	char *soak_before;       /* the first stage's last soak closing before it (owned), NULL none */
	char *soak_after;        /* and the first after it (owned), NULL none */
	/* */
	struct lg_fail *fails;
	size_t nfails;
	/* */
	int64_t og;              /* status.observedGeneration as the status writes left it */
	int64_t sus_from_ms;     /* the first Suspended status behind the generation, -1 none */
	int64_t sus_until_ms;    /* the first other status after it, -1: suspended to the end */
	int64_t sus_og, sus_gen; /* observedGeneration then, and the highest generation while so */
	bool sus_open;
	/* */
	int64_t ev_ms;           /* the first PromotionBlocked by an event check on a new revision, -1 none */
	char *ev_stage, *ev_check; /* its stage and check (owned) */
	int64_t ev_ok_ms;        /* the first Ready True after it, -1 none */
};

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

/* The stage a Ready message names ("stage \"app\" ..."), a new string, or NULL. */
static char *stage_of(const char *msg)
{
	const char *b, *e;

	if (!msg || strncmp(msg, "stage \"", 7) != 0)
		return NULL;
	b = msg + 7;
	e = strchr(b, '"');
	return e ? xstrndup(b, (size_t)(e - b)) : NULL;
}

/* Whether promote annotation value @tok addresses stage @stage ("STAGE@TOKEN"). */
static bool token_for(const char *tok, const char *stage)
{
	size_t n = strlen(stage);

	return tok && strncmp(tok, stage, n) == 0 && tok[n] == '@';
}

/*
 * Annotation @key's value after the change @detail describes (a new
 * string, NULL when removed); @changed false when it does not touch it.
 */
static char *annotation_after(const char *detail, const char *key, bool *changed)
{
	const char *p, *v, *end, *arrow;
	size_t klen = strlen(key);

	*changed = false;
	for (p = detail ? strstr(detail, key) : NULL; p; p = strstr(p + 1, key)) {
		if (p[klen] != '=' && p[klen] != ',' && p[klen] != '\0')
			continue;
		*changed = true;
		if (p > detail && p[-1] == '-')
			return NULL;
		if (p[klen] != '=')
			return NULL;
		v = p + klen + 1;
		end = strstr(v, ", ");
		if (!end)
			end = v + strlen(v);
		arrow = strstr(v, "\xe2\x86\x92");
		if (arrow && arrow < end)
			v = arrow + 3;
		return xstrndup(v, (size_t)(end - v));
	}
	return NULL;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v ? xstrdup(v) : NULL;
}

/* The soak closing a Soaking message of stage @stage names, a new string, or NULL. */
static char *soak_close(const char *msg, const char *stage)
{
	char *named = stage_of(msg);
	const char *p = msg ? strstr(msg, SOAK_CLOSES) : NULL;
	bool ours = named && stage && strcmp(named, stage) == 0;

	free(named);
	if (!ours || !p)
		return NULL;
	p += strlen(SOAK_CLOSES);
	return xstrndup(p, strcspn(p, " ;"));
}

static bool preloop_failure(const char *msg)
{
	const char *q = msg && strncmp(msg, "stage \"", 7) == 0 ? strchr(msg + 7, '"') : NULL;

	return q && (strncmp(q, "\" connect to target cluster: ", 29) == 0 ||
		     strncmp(q, "\" configure decryption: ", 24) == 0);
}

/*
 * Follows one status write of a StageSet into @g's reconcile-stage fields:
 * the token is handled by the first status after it that writes
 * status.stages other than a failure or a progress hold (a success, a
 * promotion hold, a gate interrupt record it on the stage's Ready entry,
 * R-16), and dropped again by a StageFailed or StageProgressing status
 * naming its stage (§3.13).
 */
static void follow_reconcile_stage(struct lg_rec *g, const struct tl_entry *e)
{
	bool failed = e->reason && (strcmp(e->reason, SSC_REASON_STAGE_FAILED) == 0 ||
				    strcmp(e->reason, SSC_REASON_STAGE_PROGRESSING) == 0);
	bool removed;
	char *stage;

	if (!g->rs_tok)
		return;
	if (g->rs_handled_ms < 0 && !failed && e->reason && tl_status_names(e->detail, "stages", &removed) && !removed) {
		g->rs_handled_ms = e->t_ms;
		g->rs_handled++;
		return;
	}
	if (g->rs_handled_ms < 0 || g->rs_fail_ms >= 0 || !failed)
		return;
	stage = stage_of(e->message);
	if (stage && token_for(g->rs_tok, stage)) {
		g->rs_fail_ms = e->t_ms;
		g->rs_progress = strcmp(e->reason, SSC_REASON_STAGE_PROGRESSING) == 0;
		set_str(&g->rs_fail_tok, g->rs_tok);
		g->rs_fail_handled_ms = g->rs_handled_ms;
	}
	free(stage);
}

/* Unix ms of RFC 3339 @t, or INT64_MIN when it does not parse. */
static int64_t unix_of(const char *t)
{
	int64_t ms;

	return t && gt_parse_rfc3339(t, &ms, NULL, 0) == 0 ? ms : INT64_MIN;
}

/*
 * Follows one status write of a StageSet into @g's soak fields: a
 * StageFailed or StageProgressing status naming the stage of the last
 * Soaking status, before that soak closed (@start_unix_ms: the scenario's
 * start), then a Soaking status of the same stage closing later, with no
 * other revision attempted between: the failed entry dropped promotionState
 * and the soak started over (G-8, §3.13).
 */
static void follow_soak(struct lg_rec *g, const struct tl_entry *e, int64_t start_unix_ms)
{
	bool removed;
	char *stage = stage_of(e->message);

	if (g->sk_fail_ms >= 0 && tl_status_names(e->detail, "lastAttemptedRevisions", &removed))
		g->sk_new_rev = true;
	if (e->reason && strcmp(e->reason, SSC_REASON_SOAKING) == 0 && stage) {
		char *when = soak_close(e->message, stage);

		if (when && g->sk_fail_ms >= 0 && g->sk_told_fail_ms < 0 && !g->sk_new_rev && g->sk_stage &&
		    strcmp(g->sk_stage, stage) == 0 && unix_of(when) > unix_of(g->sk_close)) {
			g->sk_told_fail_ms = g->sk_fail_ms;
			g->sk_told_ms = e->t_ms;
			set_str(&g->sk_told_stage, stage);
			set_str(&g->sk_told_before, g->sk_close);
			set_str(&g->sk_told_after, when);
			set_str(&g->sk_told_msg, g->sk_fail_msg);
			g->sk_told_progress = g->sk_fail_progress;
		}
		if (when) {
			set_str(&g->sk_stage, stage);
			set_str(&g->sk_close, when);
		}
		g->sk_fail_ms = -1;
		free(when);
	} else if (e->reason && (strcmp(e->reason, SSC_REASON_STAGE_FAILED) == 0 ||
				 strcmp(e->reason, SSC_REASON_STAGE_PROGRESSING) == 0)) {
		if (g->sk_fail_ms < 0 && stage && g->sk_stage && strcmp(stage, g->sk_stage) == 0 &&
		    e->t_ms + start_unix_ms < unix_of(g->sk_close)) {
			g->sk_fail_ms = e->t_ms;
			g->sk_new_rev = false;
			g->sk_fail_progress = strcmp(e->reason, SSC_REASON_STAGE_PROGRESSING) == 0;
			set_str(&g->sk_fail_msg, e->message);
		}
	} else if (e->reason) {
		/* another exit (a success, another hold): the soak is over or no longer the one followed */
		g->sk_fail_ms = -1;
		set_str(&g->sk_stage, NULL);
		set_str(&g->sk_close, NULL);
	}
	free(stage);
}

/* Follows one status write or metadata update of a StageSet into @g (@stage0: its first stage's name, or NULL). */
#define RESTART_CHECK "\" restart check \""

/*
 * Follows one status write of a StageSet into @g's restart-block fields: a
 * PromotionBlocked status of a restart check, then a StageFailed or
 * StageProgressing status naming its stage, then a Succeeded status that
 * applied the revision (lastAppliedRevisions written) with no other
 * revision attempted since the block: the failed entry dropped
 * promotionState and its restartBaseline, and the block was forgiven.
 */
static void follow_restart_block(struct lg_rec *g, const struct tl_entry *e)
{
	bool removed;
	const char *c;
	char *stage;

	if (!e->reason)
		return;
	if (g->rb_stage && strcmp(e->reason, SSC_REASON_PROMOTION_BLOCKED) != 0 &&
	    tl_status_names(e->detail, "lastAttemptedRevisions", &removed)) {
		set_str(&g->rb_stage, NULL); /* another revision: another gate */
		g->rb_fail_ms = -1;
	}
	stage = stage_of(e->message);
	if (strcmp(e->reason, SSC_REASON_PROMOTION_BLOCKED) == 0 && stage &&
	    (c = strstr(e->message, RESTART_CHECK)) != NULL) {
		const char *name = c + strlen(RESTART_CHECK), *end = strchr(name, '"');
		const char *n = end && !strncmp(end, "\" observed ", 11) ? end + 11 : NULL;

		if (end && n && (!g->rb_stage || g->rb_fail_ms >= 0 || strcmp(g->rb_stage, stage) != 0)) {
			set_str(&g->rb_stage, stage);
			free(g->rb_check);
			g->rb_check = xstrndup(name, (size_t)(end - name));
			free(g->rb_count);
			g->rb_count = xstrndup(n, strcspn(n, " "));
			g->rb_ms = e->t_ms;
			g->rb_fail_ms = -1;
		}
	} else if (g->rb_stage && g->rb_fail_ms < 0 && stage && strcmp(stage, g->rb_stage) == 0 &&
		   (strcmp(e->reason, SSC_REASON_STAGE_FAILED) == 0 ||
		    strcmp(e->reason, SSC_REASON_STAGE_PROGRESSING) == 0)) {
		g->rb_fail_ms = e->t_ms;
	} else if (g->rb_stage && g->rb_fail_ms >= 0 && strcmp(e->reason, SSC_REASON_READY) == 0 &&
		   tl_status_names(e->detail, "lastAppliedRevisions", &removed)) {
		if (g->rb_told_ms < 0) {
			g->rb_told_ms = e->t_ms;
			g->rb_told_block_ms = g->rb_ms;
			g->rb_told_fail_ms = g->rb_fail_ms;
			set_str(&g->rb_told_stage, g->rb_stage);
			set_str(&g->rb_told_check, g->rb_check);
			set_str(&g->rb_told_count, g->rb_count);
		}
		set_str(&g->rb_stage, NULL);
		g->rb_fail_ms = -1;
	}
	free(stage);
}

static void follow(struct lg_rec *g, const struct tl_entry *e, const char *stage0, int64_t start_unix_ms)
{
	bool changed;

	if (e->change == TL_UPDATED) {
		char *v = annotation_after(e->detail, SSC_ANN_PROMOTE, &changed);

		if (changed) {
			free(g->tok);
			g->tok = v;
			g->tok_ms = e->t_ms;
			g->handled_ms = g->tok_fail_ms = -1;
		}
		v = annotation_after(e->detail, SSC_ANN_RECONCILE_STAGE, &changed);
		if (changed) {
			free(g->rs_tok);
			g->rs_tok = v;
			g->rs_handled_ms = -1;
		}
		return;
	}
	follow_reconcile_stage(g, e);
	follow_soak(g, e, start_unix_ms);
	follow_restart_block(g, e);
	if (e->detail && strstr(e->detail, "observedGeneration"))
		g->og = e->generation;
	if (e->reason && strcmp(e->reason, SSC_REASON_SUSPENDED) == 0) {
		if (g->sus_open || (g->sus_from_ms < 0 && e->generation > g->og)) {
			if (!g->sus_open) {
				g->sus_from_ms = e->t_ms;
				g->sus_og = g->og;
				g->sus_open = true;
			}
			if (e->generation > g->sus_gen)
				g->sus_gen = e->generation;
		}
		return;
	}
	if (g->sus_open) {
		g->sus_until_ms = e->t_ms;
		g->sus_open = false;
	}
	if (g->ev_ms >= 0 && g->ev_ok_ms < 0 && e->reason && strcmp(e->reason, SSC_REASON_READY) == 0)
		g->ev_ok_ms = e->t_ms;
	if (g->ev_ms < 0 && e->reason && strcmp(e->reason, SSC_REASON_PROMOTION_BLOCKED) == 0 && e->detail &&
	    strstr(e->detail, "lastAttemptedRevisions") && e->message && strstr(e->message, "\" event check \"")) {
		const char *c = strstr(e->message, "\" event check \"") + 15;
		const char *end = strchr(c, '"');

		char *stage = stage_of(e->message);

		if (stage && end) {
			g->ev_ms = e->t_ms;
			g->ev_stage = stage;
			g->ev_check = xstrndup(c, (size_t)(end - c));
		} else {
			free(stage);
		}
	}
	if (e->reason && strcmp(e->reason, SSC_REASON_READY) == 0) {
		if (g->tok && g->handled_ms < 0) {
			g->handled_ms = e->t_ms;
		} else if (g->tok_fail_ms >= 0 && e->detail && strstr(e->detail, "lastAppliedRevisions")) {
			if (g->replays++ == 0) {
				set_str(&g->replay_tok, g->tok);
				g->replay_handled_ms = g->handled_ms;
				g->replay_fail_ms = g->tok_fail_ms;
				g->replay_ms = e->t_ms;
				g->replay_progress = g->tok_progress;
			}
			g->tok_fail_ms = -1;
		}
	} else if (e->reason && strcmp(e->reason, SSC_REASON_STAGE_FAILED) == 0) {
		char *stage = stage_of(e->message);

		if (stage && g->handled_ms >= 0 && g->tok_fail_ms < 0 && token_for(g->tok, stage)) {
			g->tok_fail_ms = e->t_ms;
			g->tok_progress = false;
		}
		if (stage) {
			g->fails = xreallocarray(g->fails, g->nfails + 1, sizeof(*g->fails));
			g->fails[g->nfails++] = (struct lg_fail){ e->t_ms, stage };
		}
		if (g->preloop_ms < 0 && preloop_failure(e->message)) {
			const char *b = strchr(e->message + 7, '"') + 2; /* past `stage "NAME" ` */
			const char *end = strstr(b, " (runbook: ");

			g->preloop_ms = e->t_ms;
			free(g->preloop_msg);
			g->preloop_msg = xstrndup(b, end ? (size_t)(end - b) : strlen(b));
		}
	} else if (e->reason && strcmp(e->reason, SSC_REASON_STAGE_PROGRESSING) == 0) {
		/* The progress hold replaces the stage's entry without lastHandledPromotion too. */
		char *stage = stage_of(e->message);

		if (stage && g->handled_ms >= 0 && g->tok_fail_ms < 0 && token_for(g->tok, stage)) {
			g->tok_fail_ms = e->t_ms;
			g->tok_progress = true;
		}
		free(stage);
	} else if (e->reason && strcmp(e->reason, SSC_REASON_SOAKING) == 0) {
		char *when = soak_close(e->message, stage0);

		if (when && g->preloop_ms < 0)
			set_str(&g->soak_before, when);
		else if (when && !g->soak_after && strcmp(when, g->soak_before ? g->soak_before : "") != 0)
			set_str(&g->soak_after, when);
		free(when);
	}
}

/* The first stage's name of StageSet @ns/@name at the end of the run (borrowed), NULL none. */
static const char *first_stage(const struct run_result *r, const char *ns, const char *name)
{
	const struct obj *ss = api_get(des_api(r->world), "StageSet", ns, name);
	const struct val *st = ss && ss->spec ? val_map_get(ss->spec, "stages") : NULL;

	if (!st || st->type != VAL_LIST || st->u.list.n == 0)
		return NULL;
	return val_str(val_map_get(st->u.list.items[0], "name"), NULL);
}

static void scan(struct run_result *r, const struct strindex *idx, struct lg_rec *recs,
		 const struct ssrc_member_stat *ms, int64_t start_unix_ms)
{
	const struct tl *tl = des_timeline(r->world);
	struct tl_entry e;
	size_t k;

	for (size_t i = 0; ssm_next(tl, &i, SSM_CHANGE(TL_STATUS) | SSM_CHANGE(TL_UPDATED), idx, &e, &k);)
		follow(&recs[k], &e, first_stage(r, ms[k].ns, ms[k].name), start_unix_ms);
}

/* ---------------------------------------------------------------- */

/*
 * The promotion gates of stage @name of @sp in words, into @buf; false
 * unless the stage requires a manual promotion (only a promote token opens
 * that gate).
 */
static bool gates_of(const struct sst_spec *sp, const char *name, char *buf, size_t len)
{
	char d[GT_DURATION_BUFSZ];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sp->nstages; i++) {
		const struct sst_stage *st = &sp->stages[i];
		const struct sst_promotion *p = &st->promotion;

		if (strcmp(st->name, name) != 0 || !st->has_promotion || !p->require_manual)
			continue; /* a gate that may open by itself (a soak ending) is no proof of a replay */
#define ADD(...) used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__)
		if (p->soak.set && p->soak.ms > 0)
			ADD("soak %s", at(p->soak.ms, d));
		if (p->require_manual)
			ADD("%smanual promotion", used ? ", " : "");
		if (p->has_analysis)
			ADD("%sanalysis", used ? ", " : "");
		if (p->has_restart_gate)
			ADD("%srestart gate", used ? ", " : "");
		if (p->has_event_gate)
			ADD("%sevent gate", used ? ", " : "");
#undef ADD
	}
	return used > 0;
}

static void promote_replayed(struct run_result *r, const struct obj *ss, const struct sst_spec *sp,
			     const struct lg_rec *g)
{
	const char *tok = g->replay_tok;
	char gates[160], *stage, a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];

	if (!g->replays || !tok || !strchr(tok, '@'))
		return;
	stage = xstrndup(tok, (size_t)(strchr(tok, '@') - tok));
	if (gates_of(sp, stage, gates, sizeof(gates)) && g->replay_progress)
		notice(r, ss,
		       xasprintf("StageSet %s/%s: the promote token \"%s\", handled at %s, promoted a later revision "
				 "again after stage \"%s\" held StageProgressing at %s (its verify timeout ran out): the "
				 "progress hold's entry dropped lastHandledPromotion, so the pass at %s took the token as "
				 "fresh and passed the stage's gate (%s) with no operator%s; remove "
				 "stages.metio.wtf/promote once a promotion took, and give the stage a verify timeout its "
				 "objects meet",
				 ss->ns, ss->name, tok, at(g->replay_handled_ms, a), stage, at(g->replay_fail_ms, b),
				 at(g->replay_ms, c), gates,
				 g->replays > 1 ? " (and again after later failures or holds)" : ""));
	else if (gates_of(sp, stage, gates, sizeof(gates)))
		notice(r, ss,
		       xasprintf("StageSet %s/%s: the promote token \"%s\", handled at %s, promoted a later revision "
				 "again after stage \"%s\" failed at %s: the failed entry dropped lastHandledPromotion, so "
				 "the pass at %s took the token as fresh and passed the stage's gate (%s) with no "
				 "operator%s; remove stages.metio.wtf/promote once a promotion took",
				 ss->ns, ss->name, tok, at(g->replay_handled_ms, a), stage, at(g->replay_fail_ms, b),
				 at(g->replay_ms, c), gates,
				 g->replays > 1 ? " (and again after later failures)" : ""));
	free(stage);
}

/* ---------------------------------------------------------------- */

/* The most attempts the world counted of one of stage @st's Revision-scoped pre and post actions, and its name. */
static void action_runs(const struct sw_world *w, const struct obj *ss, const struct sst_stage *st, uint32_t *most,
			const char **most_name)
{
	*most = 0;
	*most_name = NULL;
	for (int ph = 0; ph < 2 && st->has_actions; ph++) {
		const struct sst_actions *list = ph ? &st->post : &st->pre;

		for (size_t i = 0; i < list->n; i++) {
			uint32_t k;

			if (sst_action_scope(&list->items[i]) != SST_SCOPE_REVISION)
				continue; /* a first adoption baselines Version-scoped ones; Lifetime ones keep their own ledger */
			k = swst_action_attempts(w, ss->ns, ss->name, st->name, ph ? "post" : "pre", list->items[i].name);
			if (k > *most) {
				*most = k;
				*most_name = list->items[i].name;
			}
		}
	}
}

static void preloop_wipe(struct run_result *r, const struct sw_world *w, const struct obj *ss,
			 const struct sst_spec *sp, const struct lg_rec *g)
{
	char a[GT_DURATION_BUFSZ], *acts = NULL, *soak = NULL, *why;
	const char *most_name;
	uint32_t most;

	if (g->preloop_ms < 0 || sp->nstages == 0)
		return;
	action_runs(w, ss, &sp->stages[0], &most, &most_name);
	if (most > 1)
		acts = xasprintf("its action \"%s\" had run %u times in all", most_name, most);
	if (g->soak_before && g->soak_after)
		soak = xasprintf("its soak started over (closing at %s instead of %s)", g->soak_after, g->soak_before);
	if (!acts && !soak)
		return; /* the wipe cost nothing the run shows */
	why = acts && soak ? xasprintf("%s and %s", acts, soak) : xstrdup(acts ? acts : soak);
	notice(r, ss,
	       xasprintf("StageSet %s/%s failed before its stages at %s (%s), which wrote stage \"%s\" with "
			 "empty ledgers and no applied revision, so once it passed again %s; keep the Secrets it "
			 "connects or decrypts with in place (update them rather than delete and re-create)",
			 ss->ns, ss->name, at(g->preloop_ms, a), g->preloop_msg, sp->stages[0].name, why));
	free(why);
	free(acts);
	free(soak);
}

/* ---------------------------------------------------------------- */

/* The distinct versions of @m's adoption attempts. */
static size_t versions_tried(const struct ssrc_member_stat *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nattempts; i++) {
		size_t k = 0;

		while (k < i && strcmp(m->attempts[k].version, m->attempts[i].version) != 0)
			k++;
		n += k == i;
	}
	return n;
}

/*
 * A handled reconcile-stage token whose stage then failed (or held
 * StageProgressing): every pass after it took the token as fresh and ran
 * the stage's Revision-scoped actions again.  Told when the most-run of
 * them ran more often than the versions tried and the token values handled
 * account for (one run each).
 */
static void reconcile_stage_replayed(struct run_result *r, const struct sw_world *w, const struct obj *ss,
				     const struct sst_spec *sp, const struct ssrc_member_stat *m,
				     const struct lg_rec *g)
{
	const char *tok = g->rs_fail_tok, *sep = tok ? strchr(tok, '@') : NULL, *most_name;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];
	size_t expected = versions_tried(m) + g->rs_handled;
	uint32_t most;

	if (g->rs_fail_ms < 0 || !sep)
		return;
	for (size_t k = 0; k < sp->nstages; k++) {
		const struct sst_stage *st = &sp->stages[k];

		if (strlen(st->name) != (size_t)(sep - tok) || strncmp(st->name, tok, (size_t)(sep - tok)) != 0)
			continue;
		action_runs(w, ss, st, &most, &most_name);
		if (most <= expected)
			return;
		notice(r, ss,
		       xasprintf("StageSet %s/%s: the reconcile-stage token \"%s\", handled at %s, was taken as "
				 "fresh again after stage \"%s\" %s at %s: that entry dropped "
				 "lastHandledReconcileAt, so the passes after it treated the stage's revision ledger "
				 "as empty, and its Revision-scoped action \"%s\" ran %u times in all, where the "
				 "%zu version%s tried and the %zu token%s handled account for %zu; remove "
				 "stages.metio.wtf/reconcile-stage once the stage was reconciled",
				 ss->ns, ss->name, tok, at(g->rs_fail_handled_ms, a), st->name,
				 g->rs_progress ? "held StageProgressing" : "failed", at(g->rs_fail_ms, b), most_name,
				 most, versions_tried(m), versions_tried(m) == 1 ? "" : "s", g->rs_handled,
				 g->rs_handled == 1 ? "" : "s", expected));
		return;
	}
}

/* ---------------------------------------------------------------- Q-12, G-8 */

/* A soak that started over after a failure of its stage during it. */
static void soak_restarted(struct run_result *r, const struct obj *ss, const struct lg_rec *g)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
	const char *msg = g->sk_told_msg ? g->sk_told_msg : "";
	size_t cut = strstr(msg, " (runbook: ") ? (size_t)(strstr(msg, " (runbook: ") - msg) : strlen(msg);

	if (g->sk_told_fail_ms < 0)
		return;
	notice(r, ss,
	       xasprintf("StageSet %s/%s: stage \"%s\" was soaking towards %s when it %s at %s ('%.*s'); that "
			 "status entry dropped its promotionState, so the pass at %s that found it healthy again "
			 "started the soak over, closing at %s, %s later: the revision waited its whole soak "
			 "again; expect a failure during a soak to restart it, or shorten the soak by the wait "
			 "you accept",
			 ss->ns, ss->name, g->sk_told_stage, g->sk_told_before,
			 g->sk_told_progress ? "held StageProgressing" : "failed", at(g->sk_told_fail_ms, a),
			 (int)cut, msg, at(g->sk_told_ms, b), g->sk_told_after,
			 at(unix_of(g->sk_told_after) - unix_of(g->sk_told_before), c)));
}

/* ---------------------------------------------------------------- Q-12, §3.7.3 */

/* A restart check's block forgiven by a failure of its stage. */
static void restarts_forgiven(struct run_result *r, const struct obj *ss, const struct lg_rec *g)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];

	if (g->rb_told_ms < 0)
		return;
	notice(r, ss,
	       xasprintf("StageSet %s/%s: the restart check \"%s\" of stage \"%s\" blocked its revision at %s "
			 "(%s pod restart(s) over its limit), the stage failed at %s, and the pass at %s applied "
			 "the revision through every stage: the failed entry dropped promotionState and its "
			 "restartBaseline, so the check took the restarts so far as its baseline and let the "
			 "blocked revision through; roll a blocked revision back rather than wait for the gate",
			 ss->ns, ss->name, g->rb_told_check, g->rb_told_stage, at(g->rb_told_block_ms, a),
			 g->rb_told_count, at(g->rb_told_fail_ms, b), at(g->rb_told_ms, c)));
}

/* ---------------------------------------------------------------- */

/* The longest run of consecutive failed attempts towards one version in @m: its first index and length. */
static size_t failed_run(const struct ssrc_member_stat *m, size_t *first)
{
	size_t best = 0, i = 0;

	*first = 0;
	while (i < m->nattempts) {
		size_t j = i;

		while (j < m->nattempts && m->attempts[j].outcome == SSRC_FAILED &&
		       strcmp(m->attempts[j].version, m->attempts[i].version) == 0)
			j++;
		if (j - i > best) {
			best = j - i;
			*first = i;
		}
		i = j > i ? j : i + 1;
	}
	return best;
}

static void on_failure_once(struct run_result *r, const struct sw_world *w, const struct obj *ss,
			    const struct sst_spec *sp, const struct ssrc_member_stat *m, const struct lg_rec *g)
{
	size_t first, n = failed_run(m, &first);
	const struct ssrc_attempt *a0, *a1;
	const char *stage = NULL;
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

	if (n < 2)
		return;
	a0 = &m->attempts[first];
	a1 = &m->attempts[first + n - 1];
	for (size_t i = 0; i < g->nfails; i++)
		if (g->fails[i].t_ms >= a0->start_ms && g->fails[i].t_ms <= a1->end_ms)
			stage = g->fails[i].stage;
	for (size_t k = 0; stage && k < sp->nstages; k++) {
		const struct sst_stage *st = &sp->stages[k];
		uint32_t runs;

		if (strcmp(st->name, stage) != 0 || !st->has_actions || st->on_failure.n == 0)
			continue;
		runs = swst_action_attempts(w, ss->ns, ss->name, st->name, "onFailure", st->on_failure.items[0].name);
		if (runs == 0 || runs >= n)
			return;
		notice(r, ss,
		       xasprintf("StageSet %s/%s: %zu passes in a row failed on version %s (from %s until %s; stage "
				 "\"%s\" failed), and its onFailure action \"%s\" ran %u time%s in the whole run: "
				 "onFailure's completions are recorded in the revision's ledger, so only the first "
				 "failure of a revision runs it; alert on Ready StageFailed rather than through onFailure",
				 ss->ns, ss->name, n, a0->version, at(a0->start_ms, a), at(a1->end_ms, b), st->name,
				 st->on_failure.items[0].name, runs, runs == 1 ? "" : "s"));
		return;
	}
}

/* ---------------------------------------------------------------- */

static void suspend_generation(struct run_result *r, const struct obj *ss, const struct lg_rec *g)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], *until;

	if (g->sus_from_ms < 0)
		return;
	until = g->sus_until_ms >= 0 ? xasprintf("until %s", at(g->sus_until_ms, b)) : xstrdup("to the end of the run");
	{
		struct tl_objref ref = { "StageSet", ss->ns, ss->name, 0 };
		char *text = xasprintf(
			"StageSet %s/%s was Suspended from %s %s with status.observedGeneration %lld while its "
			"generation was up to %lld (the Ready condition's own observedGeneration was current): "
			"readers that compare status.observedGeneration with the generation (kstatus, a Flux "
			"Kustomization's health check) took it for in progress, not suspended; judge a "
			"suspended StageSet by its Ready condition",
			ss->ns, ss->name, at(g->sus_from_ms, a), until, (long long)g->sus_og, (long long)g->sus_gen);

		tl_notice_add(des_timeline(r->world), r->end_ms, TL_INFO, text, &ref, 1);
		free(text);
	}
	free(until);
}

/* ---------------------------------------------------------------- */

static void event_baseline(struct run_result *r, const struct scenario *s, const struct obj *ss,
			   const struct sst_spec *sp, const struct ssrc_member_stat *m, const struct lg_rec *g)
{
	const struct ssrc_attempt *a = NULL;
	char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], *after;

	if (g->ev_ms < 0)
		return;
	for (size_t i = 0; i < m->nattempts; i++)
		if (m->attempts[i].start_ms <= g->ev_ms && (m->attempts[i].end_ms < 0 || m->attempts[i].end_ms >= g->ev_ms))
			a = &m->attempts[i];
	for (size_t k = 0; a && k < sp->nstages; k++) {
		const struct sst_stage *st = &sp->stages[k];

		if (strcmp(st->name, g->ev_stage) != 0 || !st->has_promotion || !st->promotion.has_event_gate)
			continue;
		for (size_t i = 0; i < st->promotion.event_gate.nchecks; i++) {
			const struct sst_event_check *c = &st->promotion.event_gate.checks[i];
			int64_t first, n;

			if (strcmp(c->name ? c->name : "", g->ev_check) != 0)
				continue;
			n = scn_sw_warning_events_at(&s->models.world, ss->ns, c, g->ev_ms, &first);
			if (n <= c->max_events || first >= a->start_ms)
				return; /* events of the new revision's own: what the gate is for */
			after = g->ev_ok_ms >= 0 ? xasprintf("it was promoted at %s, once they had expired", at(g->ev_ok_ms, t2))
						 : xstrdup("it was still blocked at the end of the run");
			notice(r, ss,
			       xasprintf("StageSet %s/%s: the event check \"%s\" of stage \"%s\" blocked %s at %s, in "
					 "the first pass of that revision, on %lld Warning events of its pods that the "
					 "pods model raised from %s on, before the revision's pass started (%s): the "
					 "event gate keeps no baseline; %s; select only the new revision's pods or "
					 "raise maxEvents above what the running pods keep",
					 ss->ns, ss->name, g->ev_check, st->name, a->version, at(g->ev_ms, t0),
					 (long long)n, at(first, t1), at(a->start_ms, t2), after));
			free(after);
			return;
		}
	}
}

/* ---------------------------------------------------------------- entry */

static void rec_release(struct lg_rec *g)
{
	free(g->tok);
	free(g->replay_tok);
	free(g->rs_tok);
	free(g->rs_fail_tok);
	free(g->sk_stage);
	free(g->sk_close);
	free(g->sk_fail_msg);
	free(g->sk_told_stage);
	free(g->sk_told_before);
	free(g->sk_told_after);
	free(g->sk_told_msg);
	free(g->rb_stage);
	free(g->rb_check);
	free(g->rb_count);
	free(g->rb_told_stage);
	free(g->rb_told_check);
	free(g->rb_told_count);
	free(g->preloop_msg);
	free(g->soak_before);
	free(g->soak_after);
	free(g->ev_stage);
	free(g->ev_check);
	for (size_t i = 0; i < g->nfails; i++)
		free(g->fails[i].stage);
	free(g->fails);
}

void ss_hazards_ledgers(struct run_result *r, const struct scenario *s)
{
	const struct ssrc *rc = fleet_glue_ssrc(r->fleet);
	const struct ssrc_member_stat *ms;
	struct strindex idx = { 0 };
	size_t n = ssm_index(r, &ms, &idx);
	struct lg_rec *recs;

	if (n == 0)
		return;
	recs = xcalloc(n, sizeof(*recs));
	for (size_t i = 0; i < n; i++) {
		recs[i].handled_ms = recs[i].tok_fail_ms = recs[i].preloop_ms = -1;
		recs[i].sus_from_ms = recs[i].sus_until_ms = -1;
		recs[i].ev_ms = recs[i].ev_ok_ms = -1;
		recs[i].rs_handled_ms = recs[i].rs_fail_ms = -1;
		recs[i].sk_fail_ms = recs[i].sk_told_fail_ms = -1;
		recs[i].rb_fail_ms = recs[i].rb_told_ms = -1;
	}
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];
		const char *v = o && o->kind && !strcmp(o->kind, "StageSet") ? obj_strmap_get(&o->annotations, SSC_ANN_PROMOTE)
									      : NULL;
		size_t k;

		if (!o || !o->kind || strcmp(o->kind, "StageSet") != 0)
			continue;
		if (ssm_find(&idx, o->ns, o->name, &k)) {
			if (v)
				set_str(&recs[k].tok, v); /* the inputs' token, from the start */
			set_str(&recs[k].rs_tok, obj_strmap_get(&o->annotations, SSC_ANN_RECONCILE_STAGE));
			recs[k].og = val_int(o->status ? val_map_get(o->status, "observedGeneration") : NULL, 0);
		}
	}
	scan(r, &idx, recs, ms, s->start_unix_ms);
	for (size_t i = 0; i < n; i++) {
		const struct obj *ss = api_get(des_api(r->world), "StageSet", ms[i].ns, ms[i].name);
		struct sst_spec sp;
		char err[256];

		if (ss && recs[i].sus_from_ms >= 0)
			suspend_generation(r, ss, &recs[i]);
		if (!recs[i].replays && recs[i].preloop_ms < 0 && recs[i].nfails == 0 && recs[i].ev_ms < 0 &&
		    recs[i].rs_fail_ms < 0 && recs[i].sk_told_fail_ms < 0 && recs[i].rb_told_ms < 0) {
			rec_release(&recs[i]);
			continue; /* nothing to tell: no spec to read (most StageSets of a large fleet) */
		}
		if (ss && ss->spec && ss->spec->type == VAL_MAP && sst_spec_parse(ss->spec, &sp, err, sizeof(err)) == 0) {
			promote_replayed(r, ss, &sp, &recs[i]);
			preloop_wipe(r, ssrc_world(rc), ss, &sp, &recs[i]);
			on_failure_once(r, ssrc_world(rc), ss, &sp, &ms[i], &recs[i]);
			reconcile_stage_replayed(r, ssrc_world(rc), ss, &sp, &ms[i], &recs[i]);
			soak_restarted(r, ss, &recs[i]);
			restarts_forgiven(r, ss, &recs[i]);
			event_baseline(r, s, ss, &sp, &ms[i], &recs[i]);
			sst_spec_release(&sp);
		}
		rec_release(&recs[i]);
	}
	free(recs);
	si_release(&idx);
}
