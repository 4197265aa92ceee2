/*
 * Revisions a Workspace recorded as applied without planning them
 * (magos_revisions.h).
 */
#include "sim/run/magos_revisions.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keytab.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/run/magos_jobname.h"

/* A time that did not happen (times may be before the run's start: < 0). */
#define NONE INT64_MIN

/*
 * One Workspace as the timeline went; strings borrow the timeline's, or the
 * scenario's for what a snapshot carried (SCN_OBSERVER_STATE).  Times are ms
 * of the run, < 0 before its start (a snapshot's history), NONE when none.
 */
struct wsr {
	const char *ns, *name;
	int64_t container_ms;  /* its last plan Job's container start, NONE before one */
	char sha[64];          /* the detected-revision value, "" when none */
	int64_t seen_ms;
	const char *seen_phase;
	int64_t run_container_ms; /* container start of the run it was seen in */
	/* the first absorbed revision */
	bool absorbed;
	char absorbed_sha[64];
	int64_t absorbed_seen_ms, absorbed_container_ms, applied_ms, commit_ms;
	const char *absorbed_phase;
	int64_t next_plan_ms;  /* a plan container start after @applied_ms, NONE: none */
	char *own;             /* @name when it is this record's copy (of a Job's name), else NULL */
};

/* The Workspaces followed, in the order first met; initialise with revs_init(). */
struct revs {
	struct keytab t; /* of struct wsr */
};

static void revs_init(struct revs *q)
{
	kt_init(&q->t, sizeof(struct wsr));
}

/* The record of Workspace @ns/@name, a new one when it had none (may move the others). */
static struct wsr *ws_at(struct revs *q, const char *ns, const char *name)
{
	bool added;
	struct wsr *r = kt_item(&q->t, kt_at(&q->t, ns, name, &added));

	if (added) {
		r->ns = ns;
		r->name = name;
		r->container_ms = NONE;
		r->run_container_ms = NONE;
		r->next_plan_ms = NONE;
	}
	return r;
}

/*
 * The new value of annotation detected-revision in an update's @detail
 * ("annotations: +K=V", "K=OLD→NEW") into @out; false when the update does
 * not set it.
 */
static bool detected_set(const char *detail, char *out, size_t len)
{
	const char *key = MW_ANN_DETECTED_REVISION "=";
	const char *p = detail ? strstr(detail, key) : NULL, *end, *arrow;

	if (!p || (p != detail && p[-1] != '+' && p[-1] != ' '))
		return false;
	p += strlen(key);
	end = strstr(p, ", ");
	if (!end)
		end = p + strlen(p);
	arrow = strstr(p, "\xe2\x86\x92");
	if (arrow && arrow < end)
		p = arrow + 3;
	snprintf(out, len, "%.*s", (int)(end - p), p);
	return true;
}

static bool detected_removed(const char *detail)
{
	return detail && strstr(detail, "-" MW_ANN_DETECTED_REVISION) != NULL;
}

static void workspace_update(struct wsr *w, const struct tl_entry *e)
{
	char sha[64];

	if (detected_set(e->detail, sha, sizeof(sha))) {
		snprintf(w->sha, sizeof(w->sha), "%s", sha);
		w->seen_ms = e->t_ms;
		w->seen_phase = e->phase;
		w->run_container_ms = w->container_ms;
		return;
	}
	if (!detected_removed(e->detail))
		return;
	/* Step 8 removes it after recording Applied; a run that saw it mid-way absorbed it */
	if (!w->absorbed && w->sha[0] && e->phase && !strcmp(e->phase, "Applied") && w->seen_phase &&
	    (!strcmp(w->seen_phase, "Planning") || !strcmp(w->seen_phase, "Applying")) &&
	    w->run_container_ms != NONE) {
		w->absorbed = true;
		snprintf(w->absorbed_sha, sizeof(w->absorbed_sha), "%s", w->sha);
		w->absorbed_seen_ms = w->seen_ms;
		w->absorbed_phase = w->seen_phase;
		w->absorbed_container_ms = w->run_container_ms;
		w->applied_ms = e->t_ms;
	}
	w->sha[0] = '\0';
}

/* When the commit @w saw landed, per the scenario's commit events on @repo; NONE when none matches. */
static int64_t commit_time(const struct scenario *s, const struct wsr *w, const char *repo, const char *ref)
{
	int64_t at = NONE;

	for (size_t i = 0; i < s->nmevents; i++) {
		const struct scn_mevent *m = &s->mevents[i];

		if (m->type != SCN_MEV_COMMIT || !m->repo_url || strcmp(m->repo_url, repo) != 0 ||
		    (m->ref && ref && strcmp(m->ref, ref) != 0))
			continue;
		if (m->sha && !strcmp(m->sha, w->absorbed_sha))
			return m->at_ms;
		if (!m->sha && m->at_ms <= w->absorbed_seen_ms && (at == NONE || m->at_ms > at))
			at = m->at_ms;
	}
	return at;
}

static void tell(struct des *w, const struct wsr *r)
{
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ], t4[GT_DURATION_BUFSZ];
	struct tl_objref ref = { "Workspace", r->ns, r->name, 0 };
	char *next = r->next_plan_ms != NONE
			     ? xasprintf("its next plan started at %s",
					 (gt_format_duration(r->next_plan_ms, t4, sizeof(t4)), t4))
			     : xstrdup("no plan started again to the end of the run");
	char *text;

	gt_format_duration(r->commit_ms, t1, sizeof(t1));
	gt_format_duration(r->absorbed_seen_ms, t2, sizeof(t2));
	gt_format_duration(r->applied_ms, t3, sizeof(t3));
	text = xasprintf("Workspace %s/%s: revision %.12s, committed at %s after its plan Job had "
			 "checked out the branch, was seen by the RefWatcher at %s while it was %s, and "
			 "the apply that ended that run at %s recorded it as status.observedRevision and "
			 "removed the detected-revision annotation: the commit counts as applied although "
			 "no plan of it ran (the Jobs get the branch, not the SHA), and %s; ask for a run "
			 "(magosproject.io/reconcile-request) after such a run ends",
			 r->ns, r->name, r->absorbed_sha, t1, t2, r->absorbed_phase, t3, next);
	tl_notice_add(des_timeline(w), des_end(w), TL_WARNING, text, &ref, 1);
	free(text);
	free(next);
}

static void revs_release(struct revs *q)
{
	for (size_t i = 0; i < q->t.n; i++)
		free(((struct wsr *)kt_item(&q->t, i))->own);
	kt_release(&q->t);
}

/* A carried TIME (validated by the loader) as ms of this run, NONE when absent. */
static int64_t past_of(const struct scenario *s, const char *v)
{
	int64_t unix_ms;

	if (!v || gt_parse_rfc3339(v, &unix_ms, NULL, 0) != 0)
		return NONE;
	return unix_ms - s->start_unix_ms;
}

/* What a snapshot carried of each Workspace (SCN_OBSERVER_STATE) into @q. */
static void revs_seed(struct revs *q, const struct scenario *s)
{
	for (size_t i = 0; i < s->nobserver; i++) {
		const struct scn_observer_state *e = &s->observer[i];
		struct wsr *r;
		const char *v;

		if (strcmp(e->kind, "Workspace") != 0)
			continue;
#define GET(key) scn_observer_get(s, "Workspace", e->ns, e->name, key)
		if (!GET("planContainer") && !GET("revision") && !GET("absorbed"))
			continue;
		r = ws_at(q, e->ns, e->name);
		r->container_ms = past_of(s, GET("planContainer"));
		if ((v = GET("revision")) != NULL) {
			snprintf(r->sha, sizeof(r->sha), "%s", v);
			r->seen_ms = past_of(s, GET("revisionSeen"));
			r->seen_phase = GET("revisionPhase");
			r->run_container_ms = past_of(s, GET("revisionContainer"));
		}
		if ((v = GET("absorbed")) != NULL) {
			r->absorbed = true;
			snprintf(r->absorbed_sha, sizeof(r->absorbed_sha), "%s", v);
			r->absorbed_seen_ms = past_of(s, GET("absorbedSeen"));
			r->absorbed_phase = GET("absorbedPhase");
			r->absorbed_container_ms = past_of(s, GET("absorbedContainer"));
			r->applied_ms = past_of(s, GET("absorbedApplied"));
			r->next_plan_ms = past_of(s, GET("absorbedNextPlan"));
		}
#undef GET
	}
}

/*
 * The timeline of @w after what @q was seeded with: detected-revision set and
 * removed on Workspaces, and their plan Jobs' container starts.  @all: every
 * Workspace's container starts (what a snapshot carries), not only those of
 * Workspaces with an annotation update already.
 */
static void revs_pass(struct revs *q, struct des *w, const struct scenario *s, bool all)
{
	const struct tl *tl = des_timeline(w);

	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;
		char wname[256];

		tl_get(tl, i, &e);
		if (!strcmp(e.kind, "Workspace") && e.change == TL_UPDATED) {
			workspace_update(ws_at(q, e.ns, e.name), &e);
		} else if (!strcmp(e.kind, "Job") && e.change == TL_STATUS && e.detail &&
			   strstr(e.detail, "startTime") && mjn_workspace(e.name, "plan", wname, sizeof(wname))) {
			struct wsr *r = kt_get(&q->t, e.ns, wname);

			if (!r && !all)
				continue; /* a Workspace with no annotation update yet: nothing to relate */
			if (!r) {
				char *own = xstrdup(wname);

				r = ws_at(q, e.ns, own);
				r->own = own;
			}
			r->container_ms = e.t_ms + s->models.pod_startup_ms;
			if (r->absorbed && r->next_plan_ms == NONE && e.t_ms >= r->applied_ms)
				r->next_plan_ms = r->container_ms;
		}
	}
}

void mrev_end_of_run(struct des *w, const struct scenario *s)
{
	struct revs q;

	revs_init(&q);
	revs_seed(&q, s);
	if (s->nmevents)
		revs_pass(&q, w, s, false);
	for (size_t i = 0; i < q.t.n; i++) {
		struct wsr *r = kt_item(&q.t, i);
		const struct obj *o;

		if (!r->absorbed || !(o = api_get(des_api(w), "Workspace", r->ns, r->name)))
			continue;
		r->commit_ms = commit_time(s, r, val_str(val_path(o->spec, "source.repoURL"), ""),
					   val_str(val_path(o->spec, "source.targetRevision"), NULL));
		if (r->commit_ms != NONE && r->commit_ms > r->absorbed_container_ms)
			tell(w, r);
	}
	revs_release(&q);
}

/* Appends " KEY=VALUE" to @b: a time of the run (NONE: nothing) or text, percent-encoded. */
static void put(char **b, const char *key, const char *text, int64_t ms, const struct scenario *s)
{
	char t[GT_RFC3339_BUFSZ], *enc, *next;
	size_t k = 0;

	if (!text && ms == NONE)
		return;
	if (!text) {
		gt_format_rfc3339_nano(s->start_unix_ms + ms, t, sizeof(t));
		text = t;
	}
	enc = xmalloc(3 * strlen(text) + 1);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p >= 0x7f)
			k += (size_t)sprintf(enc + k, "%%%02X", *p);
		else
			enc[k++] = (char)*p;
	}
	enc[k] = '\0';
	next = xasprintf("%s%s%s=%s", *b, **b ? " " : "", key, enc);
	free(enc);
	free(*b);
	*b = next;
}

struct mrev_snap {
	struct revs q;
	const struct scenario *s;
};

struct mrev_snap *mrev_snap_new(struct des *w, const struct scenario *s)
{
	struct mrev_snap *m = xcalloc(1, sizeof(*m));

	m->s = s;
	revs_init(&m->q);
	revs_seed(&m->q, s);
	if (s->nmevents)
		revs_pass(&m->q, w, s, true);
	return m;
}

void mrev_snap_free(struct mrev_snap *m)
{
	if (!m)
		return;
	revs_release(&m->q);
	free(m);
}

char *mrev_snap_state(const struct mrev_snap *m, const char *ns, const char *name)
{
	const struct scenario *s = m->s;
	const struct wsr *r = kt_get(&m->q.t, ns, name);
	char *b = NULL;

	if (r) {

		b = xstrdup("");
		put(&b, "planContainer", NULL, r->container_ms, s);
		if (r->sha[0]) {
			put(&b, "revision", r->sha, NONE, s);
			put(&b, "revisionSeen", NULL, r->seen_ms, s);
			if (r->seen_phase)
				put(&b, "revisionPhase", r->seen_phase, NONE, s);
			put(&b, "revisionContainer", NULL, r->run_container_ms, s);
		}
		if (r->absorbed) {
			put(&b, "absorbed", r->absorbed_sha, NONE, s);
			put(&b, "absorbedSeen", NULL, r->absorbed_seen_ms, s);
			if (r->absorbed_phase)
				put(&b, "absorbedPhase", r->absorbed_phase, NONE, s);
			put(&b, "absorbedContainer", NULL, r->absorbed_container_ms, s);
			put(&b, "absorbedApplied", NULL, r->applied_ms, s);
			put(&b, "absorbedNextPlan", NULL, r->next_plan_ms, s);
		}
		if (!*b) {
			free(b);
			b = NULL;
		}
	}
	return b;
}
