/*
 * Update windows of the StageSet port.  See stageset_windows.h; functions
 * keep upstream's names in snake_case and its statement order.
 */
#include "engine/stageset_windows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cron.h"
#include "engine/gofmt.h"
#include "engine/labels.h"
#include "engine/tz.h"
#include "engine/xalloc.h"

#define REASON_READY "Succeeded"
#define REASON_INVALID_SPEC "InvalidSpec"
#define REASON_UPDATE_DEFERRED "UpdateDeferred"

/* The env's time_zone callback as time.LoadLocation's fallback (tz_find_fn). */
struct zone_finder {
	const struct ssc_env *env;
};

static const struct tz_zone *find_zone(void *ctx, const char *name, char *err, size_t errlen)
{
	const struct zone_finder *f = ctx;
	struct ssc_err e;
	const struct tz_zone *z;

	memset(&e, 0, sizeof(e));
	if (!f->env || !f->env->time_zone) {
		snprintf(err, errlen, "unknown time zone %s", name);
		return NULL;
	}
	z = f->env->time_zone(f->env->ctx, name, &e);
	if (!z) {
		if (e.msg[0])
			snprintf(err, errlen, "%s", e.msg);
		else
			snprintf(err, errlen, "unknown time zone %s", name);
	}
	return z;
}

/* evalAbsolute: [from, to). */
static int eval_absolute(const struct sst_window *w, int64_t now_ms, bool *active, int64_t *next_ms, char *err,
			 size_t errlen)
{
	int64_t from, to;

	if (w->from_ms == SST_NO_TIME || w->to_ms == SST_NO_TIME) {
		snprintf(err, errlen, "absolute update window requires both from and to");
		return WIN_EINVAL;
	}
	from = w->from_ms;
	to = w->to_ms;
	if (!(to > from)) {
		snprintf(err, errlen, "absolute update window to must be after from");
		return WIN_EINVAL;
	}
	if (now_ms < from) {
		*active = false;
		*next_ms = from;
	} else if (now_ms < to) {
		*active = true;
		*next_ms = to;
	} else {
		/* wholly in the past */
		*active = false;
		*next_ms = SST_NO_TIME;
	}
	return WIN_OK;
}

/* evalRecurring: the schedule's starts in the window's zone, each held open for the duration. */
static int eval_recurring(const struct sst_window *w, const struct ssc_env *env, int64_t now_ms, bool *active,
			  int64_t *next_ms, char *err, size_t errlen)
{
	struct zone_finder finder = { env };
	const struct tz_zone *loc = tz_utc();
	struct cron_schedule sched;
	char sub[CRON_ERRLEN];
	int64_t dur, candidate, latest;
	int rc;

	if (w->schedule[0] == '\0' || !w->duration.set) {
		snprintf(err, errlen, "recurring update window requires both schedule and duration");
		return WIN_EINVAL;
	}
	if (w->time_zone[0] != '\0') {
		if (tz_load_location(w->time_zone, find_zone, &finder, &loc, sub, sizeof(sub)) != 0) {
			char *q = gofmt_quote(w->time_zone);

			snprintf(err, errlen, "timeZone %s: %s", q, sub);
			free(q);
			return WIN_EINVAL;
		}
	}
	rc = cron_parse_standard(w->schedule, find_zone, &finder, &sched, sub, sizeof(sub));
	if (rc == CRON_EPANIC) {
		snprintf(err, errlen, "%s", sub);
		return WIN_EPANIC;
	}
	if (rc != CRON_OK) {
		char *q = gofmt_quote(w->schedule);

		snprintf(err, errlen, "schedule %s: %s", q, sub);
		free(q);
		return WIN_EINVAL;
	}
	dur = w->duration.ms;
	if (dur <= 0) {
		snprintf(err, errlen, "recurring update window duration must be positive");
		return WIN_EINVAL;
	}

	/*
	 * A start covering now began in (now-dur, now]; Next is strictly after,
	 * so Next(now-dur) is the first such start.  Times are in loc (nowL).
	 */
	candidate = cron_next(&sched, now_ms - dur, loc);
	/* A schedule that matches nothing within five years never fires: permanently inactive. */
	if (candidate == CRON_NO_TIME) {
		*active = false;
		*next_ms = SST_NO_TIME;
		return WIN_OK;
	}
	if (candidate > now_ms) {
		*active = false;
		*next_ms = candidate; /* boundary = next start */
		return WIN_OK;
	}

	/* Active: walk to the latest start still <= now, so the boundary is the furthest covering end. */
	latest = candidate;
	for (int i = 0; i < WIN_MAX_COVERING_STARTS; i++) {
		int64_t next = cron_next(&sched, latest, loc);

		if (next == CRON_NO_TIME || !(next > latest) || next > now_ms)
			break;
		latest = next;
	}
	*active = true;
	*next_ms = latest + dur;
	return WIN_OK;
}

int win_eval_window(const struct sst_window *w, const struct ssc_env *env, int64_t now_ms, bool *active,
		    int64_t *next_ms, char *err, size_t errlen)
{
	bool recurring = (w->schedule && w->schedule[0] != '\0') || w->duration.set;
	bool absolute = w->from_ms != SST_NO_TIME || w->to_ms != SST_NO_TIME;

	*active = false;
	*next_ms = SST_NO_TIME;
	if (recurring && absolute) {
		snprintf(err, errlen, "update window is both recurring (schedule/duration) and absolute (from/to)");
		return WIN_EINVAL;
	}
	if (absolute)
		return eval_absolute(w, now_ms, active, next_ms, err, errlen);
	if (recurring)
		return eval_recurring(w, env, now_ms, active, next_ms, err, errlen);
	snprintf(err, errlen, "update window sets neither a schedule+duration nor from+to");
	return WIN_EINVAL;
}

/* decisionAt: the aggregate decision at @t and the earliest window boundary after it. */
static int decision_at(const struct sst_window *w, size_t n, const struct ssc_env *env, int64_t t, bool *allowed,
		       int64_t *earliest, char *err, size_t errlen)
{
	bool deny_active = false, allow_active = false, has_allow = false;
	int64_t next = SST_NO_TIME;

	for (size_t i = 0; i < n; i++) {
		bool active;
		int64_t boundary;
		int rc = win_eval_window(&w[i], env, t, &active, &boundary, err, errlen);

		if (rc != WIN_OK) {
			*allowed = false;
			*earliest = SST_NO_TIME;
			return rc;
		}
		const char *type = w[i].type ? w[i].type : "";

		if (strcmp(type, WIN_TYPE_DENY) == 0) {
			deny_active = deny_active || active;
		} else if (strcmp(type, WIN_TYPE_ALLOW) == 0) {
			has_allow = true;
			allow_active = allow_active || active;
		}
		if (boundary != SST_NO_TIME && (next == SST_NO_TIME || boundary < next))
			next = boundary;
	}
	*allowed = !deny_active && (!has_allow || allow_active);
	*earliest = next;
	return WIN_OK;
}

int win_decision(const struct sst_window *w, size_t n, const struct ssc_env *env, int64_t now_ms, bool *allowed,
		 int64_t *next_ms, char *err, size_t errlen)
{
	int64_t earliest, cur;
	int rc;

	*next_ms = SST_NO_TIME;
	if (n == 0) {
		*allowed = true;
		return WIN_OK;
	}
	rc = decision_at(w, n, env, now_ms, allowed, &earliest, err, errlen);
	if (rc != WIN_OK) {
		*allowed = false;
		return rc;
	}
	/*
	 * The next change is where the aggregate flips, not merely the earliest
	 * boundary: walk boundary by boundary, at most 2n+2 of them; on the cap
	 * fall back to the earliest (a harmless early re-check).
	 */
	cur = now_ms;
	for (size_t i = 0; i < 2 * n + 2; i++) {
		bool ignored, flipped;
		int64_t boundary, unused;

		rc = decision_at(w, n, env, cur, &ignored, &boundary, err, errlen);
		if (rc != WIN_OK)
			goto fail;
		if (boundary == SST_NO_TIME)
			return WIN_OK; /* the decision never changes again */
		rc = decision_at(w, n, env, boundary, &flipped, &unused, err, errlen);
		if (rc != WIN_OK)
			goto fail;
		if (flipped != *allowed) {
			*next_ms = boundary;
			return WIN_OK;
		}
		cur = boundary;
	}
	*next_ms = earliest;
	return WIN_OK;
fail:
	*allowed = false;
	*next_ms = SST_NO_TIME;
	return rc;
}

int win_validate(const struct sst_window *w, size_t n, const struct ssc_env *env, int64_t now_ms, char *err,
		 size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		bool active;
		int64_t next;
		int rc = win_eval_window(&w[i], env, now_ms, &active, &next, err, errlen);

		if (rc != WIN_OK)
			return rc;
	}
	return WIN_OK;
}

/* ---- internal/controller/windows.go ------------------------------------ */

void win_next_window_suffix(int64_t next_ms, char *buf, size_t len)
{
	char t[32];

	if (next_ms == SST_NO_TIME) {
		if (len > 0)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, len, " (next window opens %s)", sst_format_time(next_ms, t, sizeof(t)));
}

int64_t win_requeue_for_window(int64_t next_ms, int64_t now_ms, int64_t fallback_ms)
{
	int64_t d;

	if (next_ms == SST_NO_TIME)
		return fallback_ms;
	d = next_ms - now_ms;
	if (d < 5000)
		return 5000;
	if (d > 3600000)
		return 3600000;
	return d;
}

static int64_t floor_sec(int64_t ms)
{
	int64_t s = ms / 1000;

	if (ms % 1000 < 0)
		s--;
	return s * 1000;
}

static void pending_update_free(struct sst_pending_update *pu)
{
	if (!pu)
		return;
	sst_strmap_release(&pu->revisions);
	free(pu);
}

static void clear_pending_update(struct sst_status *st)
{
	pending_update_free(st->pending_update);
	st->pending_update = NULL;
}

static void set_string(char **dst, const char *src)
{
	free(*dst);
	*dst = xstrdup(src);
}

void win_gate_update_windows(const struct obj *ss, const struct sst_spec *spec, struct sst_status *st,
			     const struct ssc_resolved *resolved, size_t n, const struct ssc_env *env, int64_t now_ms,
			     int64_t retry_ms, struct win_gate *out)
{
	const char *token = obj_strmap_get(&ss->annotations, SSC_ANN_UPDATE_NOW);
	bool allowed, new_revision = false, was_deferring;
	int64_t next_change;
	char err[WIN_ERRLEN], suffix[64], msg[WIN_ERRLEN];
	struct sst_pending_update *pu;
	int rc;

	memset(out, 0, sizeof(*out));

	/* Emergency override: apply the held rollout once, regardless of windows. */
	if (token && token[0] != '\0' && strcmp(token, st->last_handled_update_override) != 0) {
		set_string(&st->last_handled_update_override, token);
		clear_pending_update(st);
		return;
	}
	if (spec->nwindows == 0) {
		clear_pending_update(st);
		return;
	}

	rc = win_decision(spec->windows, spec->nwindows, env, now_ms, &allowed, &next_change, err, sizeof(err));
	if (rc == WIN_EPANIC) {
		out->deferred = true;
		out->panicked = true;
		snprintf(out->ready_message, sizeof(out->ready_message), "%s", err);
		return;
	}
	if (rc != WIN_OK) {
		/* Malformed windows normally fail admission; this is the fallback. */
		out->deferred = true;
		out->set_ready = true;
		out->ready_status = "False";
		out->ready_reason = REASON_INVALID_SPEC;
		snprintf(out->ready_message, sizeof(out->ready_message), "update window: %s", err);
		st->observed_generation = ss->generation;
		out->requeue_ms = 0; /* Result{} */
		return;
	}

	for (size_t i = 0; i < n; i++) {
		const char *applied = sst_strmap_get(&st->last_applied_revisions, resolved[i].key);

		if (strcmp(applied ? applied : "", resolved[i].revision) != 0)
			new_revision = true;
	}

	/* windowScope=All freezes everything; the default holds only new rollouts. */
	if (allowed || (!new_revision && strcmp(spec->window_scope ? spec->window_scope : "", "All") != 0)) {
		clear_pending_update(st);
		return;
	}

	/* The event fires only on entering a deferral, not on every re-check while it holds. */
	was_deferring = st->pending_update != NULL;

	pu = xcalloc(1, sizeof(*pu));
	pu->next_window_opens_ms = SST_NO_TIME;
	if (new_revision)
		for (size_t i = 0; i < n; i++)
			sst_strmap_set(&pu->revisions, resolved[i].key, resolved[i].revision);
	if (next_change != SST_NO_TIME)
		pu->next_window_opens_ms = floor_sec(next_change);
	clear_pending_update(st);
	st->pending_update = pu;
	st->observed_generation = ss->generation;

	win_next_window_suffix(next_change, suffix, sizeof(suffix));
	snprintf(msg, sizeof(msg), "delivery held by update window%s", suffix);
	out->deferred = true;
	out->set_ready = true;
	if (st->last_applied_revisions.n > 0) {
		/* Already deployed: a deliberate wait, not a failure. */
		out->ready_status = "True";
		out->ready_reason = REASON_READY;
		snprintf(out->ready_message, sizeof(out->ready_message), "Deployed; %s", msg);
	} else {
		out->ready_status = "False";
		out->ready_reason = REASON_UPDATE_DEFERRED;
		snprintf(out->ready_message, sizeof(out->ready_message), "%s", msg);
	}
	if (!was_deferring) {
		out->event = true;
		snprintf(out->event_note, sizeof(out->event_note), "%s", msg);
	}
	out->requeue_ms = win_requeue_for_window(next_change, now_ms, retry_ms);
}
