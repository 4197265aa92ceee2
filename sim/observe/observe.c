#include "sim/observe/observe.h"

#include <stdlib.h>
#include <string.h>

#include "engine/fleet_view.h"
#include "engine/labels.h"
#include "engine/objects.h"
#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/des.h"
#include "sim/base/gotime.h"
#include "sim/base/strindex.h"
#include "sim/load/scenario.h"

#define GRANT_KEY "magosproject.io/execution-allowed"

/* The observer: records by "ns/name" in arrays, found through string indexes. */
struct obs {
	struct des *w;
	int64_t latency_ms;
	int64_t anchor_unix_ms; /* wall-clock time of simulated 0 (a snapshot's Job start times) */
	struct obs_rollout *ro;
	size_t nro, capro;
	struct obs_workspace *ws;
	size_t nws, capws;
	struct strindex ro_idx, ws_idx;
	/* Completion, kept incrementally (every change checks it in O(1)). */
	size_t ro_live, ro_done, ws_live, ws_applied;
	size_t ro_idle; /* of ro_done: Ready/NoSteps without steps (rollout_idle()) */
	size_t ws_busy; /* Workspaces granted, planning or applying (ws_busy()) */
	/* FleetRollouts: completion only (their waves come with the fleet reports). */
	struct strindex fr_idx;
	bool *fr_exists, *fr_completed;
	size_t nfr, capfr, fr_live, fr_done;
	void (*on_complete)(void *);
	void *on_complete_ctx;
	bool complete_fired; /* complete at the last check */
	char **fleet_views;  /* obs_finish(): one per FleetRollout */
	size_t nfleet_views;
};

static bool complete_now(const struct obs *o)
{
	size_t live = o->ro_live + o->fr_live, done = o->ro_done + o->fr_done;

	/* An idle Rollout waits for nothing, but what was granted before it still runs. */
	if (live)
		return done == live && (o->ro_idle == 0 || o->ws_busy == 0);
	return o->ws_live > 0 && o->ws_applied == o->ws_live;
}

/* Calls the completion callback on every change that makes the run complete. */
static void check_complete(struct obs *o)
{
	bool done;

	if (!o->on_complete)
		return;
	done = complete_now(o);
	if (done && !o->complete_fired)
		o->on_complete(o->on_complete_ctx);
	o->complete_fired = done;
}

bool obs_is_complete(const struct obs *o)
{
	return complete_now(o);
}

size_t obs_idle_rollouts(const struct obs *o)
{
	return o->ro_idle;
}

static void seed_from_store(struct obs *o);
static size_t fr_slot(struct obs *o, const char *name);

void obs_on_complete(struct obs *o, void (*fn)(void *ctx), void *ctx)
{
	o->on_complete = fn;
	o->on_complete_ctx = ctx;
	seed_from_store(o);
}

static char *key_of(const char *ns, const char *name)
{
	return xstrjoin((const char *const[]){ ns, name }, 2, "/");
}

static const char *str_at(const struct val *root, const char *path)
{
	return val_str(val_path(root, path), NULL);
}

static bool is(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* ---- Workspaces ---------------------------------------------------------- */

static struct obs_workspace *ws_get(struct obs *o, const char *ns, const char *name)
{
	char *key = key_of(ns, name);
	size_t pos;
	struct obs_workspace *w;

	if (si_get(&o->ws_idx, key, &pos)) {
		free(key);
		return &o->ws[pos];
	}
	if (o->nws == o->capws) {
		o->capws = o->capws ? o->capws * 2 : 16;
		o->ws = xreallocarray(o->ws, o->capws, sizeof(*o->ws));
	}
	w = &o->ws[o->nws];
	memset(w, 0, sizeof(*w));
	w->ns = xstrdup(ns);
	w->name = xstrdup(name);
	w->granted_ms = w->planning_ms = w->applying_ms = w->applied_ms = w->failed_ms = -1;
	w->past_granted_ms = w->past_planning_ms = w->past_applying_ms = w->past_applied_ms =
		w->past_failed_ms = OBS_NEVER;
	si_put(&o->ws_idx, key, o->nws++);
	free(key);
	return w;
}

static void set_str(char **dst, const char *src)
{
	if (is(*dst, src))
		return;
	free(*dst);
	*dst = xstrdup(src);
}

/* Keeps the policy violations of the Workspace's last ValidationFailed run. */
static void record_violations(struct obs_workspace *w, const struct val *list)
{
	if (!list || list->type != VAL_LIST || list->u.list.n == 0)
		return;
	for (size_t i = 0; i < w->nviolations; i++)
		free(w->violations[i]);
	free(w->violations);
	w->nviolations = list->u.list.n;
	w->violations = xcalloc(w->nviolations, sizeof(char *));
	for (size_t i = 0; i < w->nviolations; i++) {
		const struct val *v = list->u.list.items[i];

		w->violations[i] = xasprintf("%s: %s", val_str(val_map_get(v, "policy"), "?"),
					     val_str(val_map_get(v, "message"), ""));
	}
}

/*
 * job_of() - the @type Job ("plan" or "apply") of Workspace @ws the store
 * holds now, the latest created of them (a Job of an older spec goes at
 * Step 2), or NULL; borrowed until the next write to the store.  Found by
 * its name "<workspace>-<type>-<hash>" and its labels, not by the hash of
 * the spec, which a cluster's controller computed.
 */
static const struct obj *job_of(struct obs *o, const struct obj *ws, const char *type)
{
	struct api_list jl;
	const struct obj *best = NULL;
	char *prefix = xasprintf("%s-%s-", ws->name, type);

	api_list_init(&jl);
	api_list_prefix(des_api(o->w), "Job", ws->ns, prefix, NULL, NULL, &jl);
	free(prefix);
	for (size_t i = 0; i < jl.n; i++) {
		const struct obj *j = jl.items[i];

		if (!is(obj_strmap_get(&j->labels, "magosproject.io/workspace"), ws->name) ||
		    !is(obj_strmap_get(&j->labels, "magosproject.io/job-type"), type))
			continue;
		if (!best || j->creation_ms > best->creation_ms)
			best = j;
	}
	api_list_release(&jl);
	return best;
}

/* A time the objects wrote (RFC 3339), as ms of this run (at most 0), or OBS_NEVER. */
static int64_t written_at(const struct obs *o, const char *v)
{
	int64_t unix_ms;

	if (!v || gt_parse_rfc3339(v, &unix_ms, NULL, 0) != 0)
		return OBS_NEVER;
	unix_ms -= o->anchor_unix_ms;
	return unix_ms < 0 ? unix_ms : 0;
}

/*
 * When Job @j was created (the controller creates it as the Workspace enters
 * Planning or Applying): its creationTimestamp, else its status.startTime;
 * ms of this run, at most 0, or OBS_NEVER.
 */
static int64_t job_created(const struct obs *o, const struct obj *j)
{
	if (!j)
		return OBS_NEVER;
	if (j->src.creation_given)
		return j->creation_ms < 0 ? j->creation_ms : 0;
	return written_at(o, str_at(j->status, "startTime"));
}

/*
 * Since when @obj's Ready condition has had status @status (its
 * lastTransitionTime: meta.SetStatusCondition moves it only when the status
 * changes), ms of this run, at most 0; OBS_NEVER when it has not.
 */
static int64_t ready_since(const struct obs *o, const struct obj *obj, const char *status)
{
	const struct val *conds = val_map_get(obj->status, "conditions");

	for (size_t i = 0; conds && conds->type == VAL_LIST && i < conds->u.list.n; i++) {
		const struct val *c = conds->u.list.items[i];

		if (is(val_str(val_map_get(c, "type"), NULL), "Ready"))
			return is(val_str(val_map_get(c, "status"), NULL), status)
				       ? written_at(o, val_str(val_map_get(c, "lastTransitionTime"), NULL))
				       : OBS_NEVER;
	}
	return OBS_NEVER;
}

/*
 * Whether Rollout @ro is idle: Ready/NoSteps while its spec still has no
 * steps.  The upstream controller (rollout_controller.go: reconcileRollout)
 * sets Ready/NoSteps for a Rollout without steps and returns without a
 * requeue: only an edit of the Rollout wakes it again, and outcome.c counts
 * it as nothing to wait for.  (A status left over from before steps were
 * added does not count: the controller is about to replace it.)
 */
static bool rollout_idle(const struct obj *ro)
{
	const struct val *steps;

	if (!is(str_at(ro->status, "phase"), "Ready") || !is(str_at(ro->status, "reason"), "NoSteps"))
		return false;
	steps = val_path(ro->spec, "strategy.steps");
	return !steps || steps->type != VAL_LIST || steps->u.list.n == 0;
}

/* Whether Rollout @ro has nothing left to do now: Applied/RolloutCompleted, or idle. */
static bool rollout_done(const struct obj *ro)
{
	return (is(str_at(ro->status, "phase"), "Applied") &&
		is(str_at(ro->status, "reason"), "RolloutCompleted")) ||
	       rollout_idle(ro);
}

/* Whether Workspace @ws is running or about to: granted, or Planning / Applying. */
static bool ws_busy(const struct obj *ws)
{
	const char *phase = str_at(ws->status, "phase");

	return is(obj_strmap_get(&ws->annotations, GRANT_KEY), "true") || is(phase, "Planning") ||
	       is(phase, "Applying");
}

static void on_workspace(void *ctx, enum api_event_type type, const struct obj *old,
			 const struct obj *new)
{
	struct obs *o = ctx;
	int64_t t = des_now(o->w) - o->latency_ms;
	const struct obj *cur = new ? new : old;
	struct obs_workspace *w = ws_get(o, cur->ns, cur->name);
	const char *phase = str_at(cur->status, "phase");
	const char *was = old ? str_at(old->status, "phase") : NULL;

	if (type == API_DELETED) {
		if (w->exists) {
			o->ws_live--;
			o->ws_applied -= is(w->last_phase, "Applied");
			o->ws_busy -= w->busy_now;
		}
		w->exists = false;
		w->busy_now = false;
		check_complete(o);
		return;
	}
	if (!w->exists)
		o->ws_live++;
	else
		o->ws_applied -= is(w->last_phase, "Applied");
	o->ws_applied += is(phase, "Applied");
	{
		bool busy = ws_busy(cur);

		o->ws_busy += (size_t)busy - (size_t)(w->exists && w->busy_now);
		w->busy_now = busy;
	}
	w->exists = true;
	set_str(&w->project, str_at(cur->spec, "projectRef.name"));
	if (w->granted_ms < 0 && is(obj_strmap_get(&cur->annotations, GRANT_KEY), "true"))
		w->granted_ms = t;
	if (phase && !is(phase, was)) {
		if (is(phase, "Planning")) {
			w->runs++;
			if (w->planning_ms < 0)
				w->planning_ms = t;
		}
		else if (is(phase, "Applying") && w->applying_ms < 0)
			w->applying_ms = t;
		else if (is(phase, "Applied") && w->applied_ms < 0 && w->applying_ms >= 0)
			w->applied_ms = t;
		else if ((is(phase, "Failed") || is(phase, "ValidationFailed")) && w->failed_ms < 0)
			w->failed_ms = t;
	}
	set_str(&w->last_phase, phase);
	record_violations(w, val_map_get(cur->status, "policyViolations"));
	check_complete(o);
}

/* ---- Rollouts -------------------------------------------------------------- */

static void steps_release(struct obs_rollout *r)
{
	for (size_t i = 0; i < r->nsteps; i++) {
		free(r->steps[i].name);
		for (size_t j = 0; j < r->steps[i].nmembers; j++)
			free(r->steps[i].members[j]);
		free(r->steps[i].members);
	}
	free(r->steps);
	r->steps = NULL;
	r->nsteps = 0;
}

/* Follows spec.strategy.steps; a step keeps its times while its name and index stay. */
static void sync_steps(struct obs_rollout *r, const struct obj *ro)
{
	const struct val *steps = val_path(ro->spec, "strategy.steps");
	size_t n = steps && steps->type == VAL_LIST ? steps->u.list.n : 0;
	struct obs_step *ns;

	if (n == r->nsteps) {
		bool same = true;

		for (size_t i = 0; i < n && same; i++)
			same = is(r->steps[i].name, val_str(val_map_get(steps->u.list.items[i], "name"), ""));
		if (same)
			return;
	}
	ns = xcalloc(n ? n : 1, sizeof(*ns));
	for (size_t i = 0; i < n; i++) {
		ns[i].name = xstrdup(val_str(val_map_get(steps->u.list.items[i], "name"), ""));
		ns[i].opened_ms = ns[i].completed_ms = -1;
		ns[i].past_opened_ms = ns[i].past_completed_ms = OBS_NEVER;
		if (i < r->nsteps && is(r->steps[i].name, ns[i].name)) {
			ns[i].opened_ms = r->steps[i].opened_ms;
			ns[i].completed_ms = r->steps[i].completed_ms;
			ns[i].past_opened_ms = r->steps[i].past_opened_ms;
			ns[i].past_completed_ms = r->steps[i].past_completed_ms;
		}
	}
	steps_release(r);
	r->steps = ns;
	r->nsteps = n;
}

static struct obs_rollout *ro_get(struct obs *o, const char *ns, const char *name)
{
	char *key = key_of(ns, name);
	size_t pos;
	struct obs_rollout *r;

	if (si_get(&o->ro_idx, key, &pos)) {
		free(key);
		return &o->ro[pos];
	}
	if (o->nro == o->capro) {
		o->capro = o->capro ? o->capro * 2 : 4;
		o->ro = xreallocarray(o->ro, o->capro, sizeof(*o->ro));
	}
	r = &o->ro[o->nro];
	memset(r, 0, sizeof(*r));
	r->ns = xstrdup(ns);
	r->name = xstrdup(name);
	r->completed_ms = r->halt_ms = -1;
	r->created_ms = r->past_completed_ms = r->past_halt_ms = OBS_NEVER;
	r->halt_step = -1;
	si_put(&o->ro_idx, key, o->nro++);
	free(key);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The Workspaces of the Project that had begun applying by now. */
static void take_blast(struct obs *o, struct obs_rollout *r)
{
	for (size_t i = 0; i < o->nws; i++) {
		const struct obs_workspace *w = &o->ws[i];

		if (!w->exists || strcmp(w->ns, r->ns) != 0 || !is(w->project, r->project))
			continue;
		r->blast_total++;
		/* before the run too: what a snapshot carries or its objects tell */
		if (w->applying_ms >= 0 || w->past_applying_ms != OBS_NEVER ||
		    w->past_applied_ms != OBS_NEVER || w->applied_before) {
			r->blast = xreallocarray(r->blast, r->nblast + 1, sizeof(char *));
			r->blast[r->nblast++] = xstrdup(w->name);
		}
	}
	if (r->nblast)
		qsort(r->blast, r->nblast, sizeof(char *), cmp_str);
}

/* Opens the steps the `Executing level [a, b]` message names, from @first on. */
static void open_level(struct obs_rollout *r, int64_t first, const char *msg, int64_t t)
{
	const char *p = msg ? strchr(msg, '[') : NULL;
	size_t i = (size_t)first;

	if (first < 0 || i >= r->nsteps)
		return;
	if (r->steps[i].opened_ms < 0)
		r->steps[i].opened_ms = t;
	if (!p)
		return;
	/* Names in order after the first; stop at the first that does not match. */
	p++;
	for (;; i++) {
		size_t len = i < r->nsteps ? strlen(r->steps[i].name) : 0;

		if (i >= r->nsteps || strncmp(p, r->steps[i].name, len) != 0 ||
		    (p[len] != ',' && p[len] != ']'))
			break;
		if (r->steps[i].opened_ms < 0)
			r->steps[i].opened_ms = t;
		if (p[len] == ']')
			break;
		p += len + 1;
		while (*p == ' ')
			p++;
	}
}

static void on_rollout(void *ctx, enum api_event_type type, const struct obj *old,
		       const struct obj *new)
{
	struct obs *o = ctx;
	int64_t t = des_now(o->w) - o->latency_ms;
	const struct obj *cur = new ? new : old;
	struct obs_rollout *r = ro_get(o, cur->ns, cur->name);
	const char *phase = str_at(cur->status, "phase");
	const char *reason = str_at(cur->status, "reason");
	int64_t step = val_int(val_map_get(cur->status, "currentStep"), -1);

	if (type == API_DELETED) {
		if (r->exists) {
			o->ro_live--;
			o->ro_done -= r->done_now;
			o->ro_idle -= r->idle_now;
		}
		r->exists = false;
		r->done_now = false;
		r->idle_now = false;
		check_complete(o);
		return;
	}
	if (!r->exists) {
		r->exists = true;
		o->ro_live++;
	}
	if (r->created_ms == OBS_NEVER)
		r->created_ms = t;
	{
		bool done = rollout_done(cur), idle = rollout_idle(cur);

		o->ro_done += (size_t)done - (size_t)r->done_now;
		r->done_now = done;
		o->ro_idle += (size_t)idle - (size_t)r->idle_now;
		r->idle_now = idle;
	}
	set_str(&r->project, str_at(cur->spec, "projectRef"));
	sync_steps(r, cur);
	if (is(phase, "Reconciling") && is(reason, "LevelProgressing")) {
		for (int64_t i = 0; i < step && (size_t)i < r->nsteps; i++) {
			/* a step done before the run (a snapshot's) opened then too */
			if (r->steps[i].opened_ms < 0)
				r->steps[i].opened_ms = t;
			if (r->steps[i].completed_ms < 0)
				r->steps[i].completed_ms = t;
		}
		open_level(r, step, str_at(cur->status, "message"), t);
	} else if (is(phase, "Applied") && is(reason, "RolloutCompleted")) {
		for (size_t i = 0; i < r->nsteps; i++) {
			if (r->steps[i].opened_ms < 0)
				r->steps[i].opened_ms = t;
			if (r->steps[i].completed_ms < 0)
				r->steps[i].completed_ms = t;
		}
		if (r->completed_ms < 0)
			r->completed_ms = t;
	} else if (is(phase, "Failed") && !r->halted) {
		r->halted = true;
		r->halt_ms = t;
		r->halt_step = step >= 0 && (size_t)step < r->nsteps ? (int)step : -1;
		r->halt_reason = xstrdup(reason);
		r->halt_message = xstrdup(str_at(cur->status, "message"));
		take_blast(o, r);
	}
	check_complete(o);
}

int64_t obs_first(int64_t past_ms, int64_t run_ms)
{
	if (past_ms != OBS_NEVER)
		return past_ms;
	return run_ms >= 0 ? run_ms : OBS_NEVER;
}

int64_t obs_halt_at(const struct obs_rollout *r)
{
	return r->halted_before_start && r->past_halt_ms != OBS_NEVER ? r->past_halt_ms : r->halt_ms;
}

/* A carried TIME (validated by the loader) as ms of this run, or OBS_NEVER when absent. */
static int64_t past_of(const struct obs *o, const char *v)
{
	int64_t unix_ms;

	if (!v || !strcmp(v, "-") || gt_parse_rfc3339(v, &unix_ms, NULL, 0) != 0)
		return OBS_NEVER;
	return unix_ms - o->anchor_unix_ms;
}

/*
 * The history a snapshot carries of Workspace @e: its first instants, and
 * the plans it started (runs), which this run goes on counting.  One in
 * Planning when loaded is among them: the run's first delivery of it,
 * already Planning, counts it again (on_workspace()), so it is left out here.
 */
static void seed_workspace(struct obs *o, const struct scn_observer_state *e, const struct scenario *s)
{
	struct obs_workspace *w = ws_get(o, e->ns, e->name);
	const struct obj *ws = api_get(des_api(o->w), "Workspace", e->ns, e->name);
	const char *runs = scn_observer_get(s, "Workspace", e->ns, e->name, "runs");

#define PAST(key) past_of(o, scn_observer_get(s, "Workspace", e->ns, e->name, key))
	w->past_granted_ms = PAST("granted");
	w->past_planning_ms = PAST("planning");
	w->past_applying_ms = PAST("applying");
	w->past_applied_ms = PAST("applied");
	w->past_failed_ms = PAST("failed");
#undef PAST
	if (runs) {
		/* validated by the loader: a whole number from -1 up */
		long n = strtol(runs, NULL, 10);

		if (n > 0 && ws && is(str_at(ws->status, "phase"), "Planning"))
			n--;
		w->runs = n > 0 ? (unsigned)n : 0;
	}
}

/* The history a snapshot carries of Rollout @e: creation, completion, steps, blast radius. */
static void seed_rollout(struct obs *o, const struct scn_observer_state *e, const struct scenario *s)
{
	const struct obj *ro = api_get(des_api(o->w), "Rollout", e->ns, e->name);
	struct obs_rollout *r;
	const char *v;

	if (!ro)
		return;
	r = ro_get(o, e->ns, e->name);
	set_str(&r->project, str_at(ro->spec, "projectRef"));
	sync_steps(r, ro);
	if ((v = scn_observer_get(s, "Rollout", e->ns, e->name, "created")) != NULL)
		r->created_ms = past_of(o, v);
	r->past_completed_ms = past_of(o, scn_observer_get(s, "Rollout", e->ns, e->name, "completed"));
	/*
	 * the halt of a Rollout loaded halted, as the run that halted it timed
	 * it; and one that halted before the snapshot and no longer shows it
	 * (it recovered: upstream keeps nothing of it, the Ready condition
	 * turned True again), as that run recorded it
	 */
	v = scn_observer_get(s, "Rollout", e->ns, e->name, "halted");
	if (v && !r->halted) {
		r->halted = r->halted_before_start = true;
		r->halt_ms = 0;
		r->halt_step = -1;
	}
	if (v && r->halted_before_start) {
		/* the first halt's step and words, where carried, over a later halt's status */
		const char *step = scn_observer_get(s, "Rollout", e->ns, e->name, "haltStep");
		const char *why = scn_observer_get(s, "Rollout", e->ns, e->name, "haltReason");
		const char *msg = scn_observer_get(s, "Rollout", e->ns, e->name, "haltMessage");

		r->past_halt_ms = past_of(o, v);
		if (step) {
			/* the loader checked it is a step of the Rollout or -1 */
			long at = strtol(step, NULL, 10);

			r->halt_step = at >= 0 && (size_t)at < r->nsteps ? (int)at : -1;
		}
		if (why) {
			free(r->halt_reason);
			r->halt_reason = xstrdup(why);
		}
		if (msg) {
			free(r->halt_message);
			r->halt_message = xstrdup(msg);
		}
	}
	/* "OPENED/COMPLETED" per step in spec order (the loader matched their count) */
	v = scn_observer_get(s, "Rollout", e->ns, e->name, "steps");
	for (size_t i = 0; v && *v && i < r->nsteps; i++) {
		const char *slash = strchr(v, '/'), *comma = strchr(v, ',');
		char *a = xstrndup(v, (size_t)(slash - v));
		char *b = comma ? xstrndup(slash + 1, (size_t)(comma - slash - 1)) : xstrdup(slash + 1);

		r->steps[i].past_opened_ms = past_of(o, a);
		r->steps[i].past_completed_ms = past_of(o, b);
		free(a);
		free(b);
		v = comma ? comma + 1 : "";
	}
	/* a halted Rollout's blast radius, as the run that halted it measured it */
	v = scn_observer_get(s, "Rollout", e->ns, e->name, "blast");
	if (v && r->halted_before_start) {
		const char *total = scn_observer_get(s, "Rollout", e->ns, e->name, "blastTotal");

		for (size_t k = 0; k < r->nblast; k++)
			free(r->blast[k]);
		free(r->blast);
		r->blast = NULL;
		r->nblast = 0;
		while (*v) {
			const char *comma = strchr(v, ',');
			size_t len = comma ? (size_t)(comma - v) : strlen(v);

			r->blast = xreallocarray(r->blast, r->nblast + 1, sizeof(char *));
			r->blast[r->nblast++] = xstrndup(v, len);
			v += len + (comma ? 1 : 0);
		}
		if (total)
			r->blast_total = (size_t)strtoull(total, NULL, 10);
		r->blast_known = true;
	}
}

/* Whether the snapshot carries the observer's state of @kind @obj (indexed by obs_loaded()). */
static bool carried_for(const struct strindex *carried, const char *kind, const struct obj *obj)
{
	char *key = xasprintf("%s/%s/%s", kind, obj->ns, obj->name);
	size_t pos;
	bool found = si_get(carried, key, &pos);

	free(key);
	return found;
}

/* The earliest of @n times (OBS_NEVER: none), or OBS_NEVER. */
static int64_t earliest(const int64_t *t, size_t n)
{
	int64_t best = OBS_NEVER;

	for (size_t i = 0; i < n; i++)
		if (t[i] != OBS_NEVER && (best == OBS_NEVER || t[i] < best))
			best = t[i];
	return best;
}

/*
 * What a plain snapshot (no SCN_OBSERVER_STATE) tells of Workspace @ws
 * before the run: the Workspace entered Planning (Applying) when the
 * controller created the plan (apply) Job of its run that the snapshot
 * holds; it is Applied since its Ready condition turned True (Applied is
 * reached by ApplySucceeded only, spec §4.9), Failed since it turned False.
 * An Applied Workspace, or one whose apply failed, whose apply Job is not
 * in the snapshot had begun applying at a time not told (applied_before).
 * observedGeneration tells nothing here: the Workspace controller never
 * sets it (spec §1.1), on the status or on the condition.
 */
static void derive_workspace(struct obs *o, const struct obj *ws)
{
	const char *phase = str_at(ws->status, "phase");
	const struct obj *apply;
	struct obs_workspace *w;

	if (!phase)
		return; /* no controller wrote its status: it has no history */
	w = ws_get(o, ws->ns, ws->name);
	apply = job_of(o, ws, "apply");
	w->past_planning_ms = job_created(o, job_of(o, ws, "plan"));
	w->past_applying_ms = job_created(o, apply);
	if (is(phase, "Applied")) {
		w->past_applied_ms = ready_since(o, ws, "True");
		if (w->past_applied_ms == OBS_NEVER && apply)
			w->past_applied_ms = written_at(o, str_at(apply->status, "completionTime"));
	} else if (is(phase, "Failed") || is(phase, "ValidationFailed")) {
		w->past_failed_ms = ready_since(o, ws, "False");
	}
	w->applied_before = w->past_applying_ms == OBS_NEVER &&
			    (is(phase, "Applied") || is(str_at(ws->status, "reason"), "ApplyFailed"));
}

/* Whether steps @a and @b select the same Workspaces (@sel: a flag per Workspace and step). */
static bool same_members(const bool *sel, size_t nws, size_t a, size_t b)
{
	for (size_t k = 0; k < nws; k++)
		if (sel[a * nws + k] != sel[b * nws + k])
			return false;
	return true;
}

/*
 * What a plain snapshot tells of Rollout @ro before the run (its Workspaces
 * derived first; @wl: the Workspaces of its namespace): created at its
 * creationTimestamp; the levels before status.currentStep completed (all of
 * them when Applied/RolloutCompleted), and the level at it opened
 * (LevelProgressing or StepFailed).  A level (steps selecting the same
 * Workspaces, R-2.4) completed when the last of its members became Applied,
 * and opened when the level before it completed, or at the first thing one
 * of its members did if that was earlier (the first level: at the Rollout's
 * creation).  A time the objects do not tell stays OBS_NEVER.
 */
static void derive_rollout(struct obs *o, const struct obj *ro, const struct api_list *wl)
{
	const char *phase = str_at(ro->status, "phase"), *reason = str_at(ro->status, "reason");
	const struct val *steps;
	int64_t cur = val_int(val_map_get(ro->status, "currentStep"), -1);
	int64_t prev_done;
	size_t done = 0, open = 0, nws = wl->n;
	struct obs_rollout *r;
	bool *sel;

	if (!phase && !(ro->src.creation_given && ro->creation_ms < 0))
		return; /* new: no history */
	r = ro_get(o, ro->ns, ro->name);
	set_str(&r->project, str_at(ro->spec, "projectRef"));
	sync_steps(r, ro);
	if (ro->src.creation_given)
		r->created_ms = ro->creation_ms < 0 ? ro->creation_ms : 0;
	if (is(phase, "Applied") && is(reason, "RolloutCompleted")) {
		done = open = r->nsteps;
		r->past_completed_ms = ready_since(o, ro, "True");
	} else if (((is(phase, "Reconciling") && is(reason, "LevelProgressing")) ||
		    (is(phase, "Failed") && is(reason, "StepFailed"))) &&
		   cur >= 0 && (size_t)cur < r->nsteps) {
		done = (size_t)cur;
		open = done + 1;
	}
	if (!open)
		return;
	steps = val_path(ro->spec, "strategy.steps");
	sel = xcalloc(r->nsteps * (nws ? nws : 1), sizeof(*sel));
	for (size_t i = 0; i < r->nsteps; i++) {
		struct lbl_selector ls;
		char err[LBL_ERRLEN];

		if (lbl_selector_from_val(val_map_get(steps->u.list.items[i], "selector"), &ls, err,
					  sizeof(err)) != LBL_OK)
			continue;
		for (size_t k = 0; k < nws; k++)
			sel[i * nws + k] = is(str_at(wl->items[k]->spec, "projectRef.name"), r->project) &&
					   lbl_matches(&ls, &wl->items[k]->labels);
		lbl_selector_release(&ls);
	}
	prev_done = r->created_ms;
	for (size_t a = 0, b; a < open; a = b) {
		int64_t first = OBS_NEVER, last = OBS_NEVER, opened;
		bool all_applied = true;

		/* the level: the steps from @a on that select what step @a selects */
		for (b = a + 1; b < r->nsteps && same_members(sel, nws, a, b); b++)
			;
		for (size_t k = 0; k < nws; k++) {
			const struct obs_workspace *w;
			int64_t t[5];

			if (!sel[a * nws + k])
				continue;
			w = ws_get(o, wl->items[k]->ns, wl->items[k]->name);
			t[0] = w->past_granted_ms, t[1] = w->past_planning_ms, t[2] = w->past_applying_ms;
			t[3] = w->past_applied_ms, t[4] = w->past_failed_ms;
			t[0] = earliest(t, 5);
			first = earliest((int64_t[]){ first, t[0] }, 2);
			if (w->past_applied_ms == OBS_NEVER)
				all_applied = false;
			else if (last == OBS_NEVER || w->past_applied_ms > last)
				last = w->past_applied_ms;
		}
		opened = earliest((int64_t[]){ prev_done, first }, 2);
		prev_done = b <= done && all_applied ? last : OBS_NEVER;
		for (size_t i = a; i < b; i++) {
			r->steps[i].past_opened_ms = opened;
			if (i < done)
				r->steps[i].past_completed_ms = prev_done;
		}
	}
	free(sel);
}

/*
 * Whether Workspace @ws (derived first) had begun applying by @halt (ms,
 * <= 0): 1 yes, 0 no, -1 when its objects do not tell.  It began when its
 * apply Job was created; without that Job, before it became Applied or its
 * apply failed (applied_before).  No apply Job, not Applied, not applying
 * and status.observedRevision empty (Step 8 writes it on every successful
 * apply): it had not begun by the snapshot.  A Job created after the halt
 * tells of this run of it only: an earlier apply is not told.
 */
static int began_applying_by(struct obs *o, const struct obj *ws, int64_t halt)
{
	const struct obs_workspace *w;
	const char *phase = str_at(ws->status, "phase");
	const char *seen = str_at(ws->status, "observedRevision");

	if (!phase)
		return 0; /* no controller wrote its status: it never ran */
	w = ws_get(o, ws->ns, ws->name);
	if (w->past_applying_ms != OBS_NEVER)
		return w->past_applying_ms <= halt ? 1 : -1;
	if (w->applied_before) {
		int64_t end = is(phase, "Applied") ? w->past_applied_ms : w->past_failed_ms;

		return end != OBS_NEVER && end <= halt ? 1 : -1;
	}
	return is(phase, "Applying") || (seen && *seen) ? -1 : 0;
}

/*
 * The blast radius of Rollout @ro loaded Failed from a plain snapshot (@wl:
 * the Workspaces of its namespace, derived first), where its Workspaces'
 * times decide it against the dated halt: blast_known, else left not known.
 */
static void derive_blast(struct obs *o, const struct obj *ro, const struct api_list *wl)
{
	struct obs_rollout *r;
	size_t pos, nblast = 0;
	char **blast;
	char *key;

	key = key_of(ro->ns, ro->name);
	if (!si_get(&o->ro_idx, key, &pos)) {
		free(key);
		return;
	}
	free(key);
	r = &o->ro[pos];
	if (!r->halted_before_start || r->blast_known || r->past_halt_ms == OBS_NEVER)
		return;
	blast = xcalloc(wl->n ? wl->n : 1, sizeof(*blast));
	for (size_t k = 0; k < wl->n; k++) {
		int began;

		if (!is(str_at(wl->items[k]->spec, "projectRef.name"), r->project))
			continue;
		began = began_applying_by(o, wl->items[k], r->past_halt_ms);
		if (began < 0)
			goto out_free_blast;
		if (began)
			blast[nblast++] = xstrdup(wl->items[k]->name);
	}
	if (nblast)
		qsort(blast, nblast, sizeof(char *), cmp_str);
	r->blast = blast;
	r->nblast = nblast;
	r->blast_known = true;
	return;
out_free_blast:
	for (size_t k = 0; k < nblast; k++)
		free(blast[k]);
	free(blast);
}

void obs_loaded(struct obs *o, const struct scenario *s)
{
	struct api *api = des_api(o->w);
	struct api_list l, ws;
	struct strindex carried = { 0 };

	api_list_init(&l);
	api_list_init(&ws);
	api_list(api, "Rollout", NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		const struct obj *ro = l.items[i];
		struct obs_rollout *r;
		int64_t step = val_int(val_map_get(ro->status, "currentStep"), -1);

		if (!is(str_at(ro->status, "phase"), "Failed"))
			continue;
		r = ro_get(o, ro->ns, ro->name);
		set_str(&r->project, str_at(ro->spec, "projectRef"));
		sync_steps(r, ro);
		r->halted = r->halted_before_start = true;
		r->halt_ms = 0;
		/* Ready is False in phase Failed only: it turned False at the halt */
		r->past_halt_ms = ready_since(o, ro, "False");
		r->halt_step = step >= 0 && (size_t)step < r->nsteps ? (int)step : -1;
		free(r->halt_reason);
		free(r->halt_message);
		r->halt_reason = xstrdup(str_at(ro->status, "reason"));
		r->halt_message = xstrdup(str_at(ro->status, "message"));
		/* who had begun applying by then is history the store does not keep */
		for (size_t k = 0; k < r->nblast; k++)
			free(r->blast[k]);
		free(r->blast);
		r->blast = NULL;
		r->nblast = r->blast_total = 0;
		api_list(api, "Workspace", ro->ns, NULL, NULL, &ws);
		for (size_t k = 0; k < ws.n; k++)
			r->blast_total += is(str_at(ws.items[k]->spec, "projectRef.name"), r->project);
	}
	for (size_t i = 0; s && i < s->nobserver; i++) {
		char *key = xasprintf("%s/%s/%s", s->observer[i].kind, s->observer[i].ns,
				      s->observer[i].name);

		si_put(&carried, key, i);
		free(key);
		if (!strcmp(s->observer[i].kind, "Workspace"))
			seed_workspace(o, &s->observer[i], s);
		else if (!strcmp(s->observer[i].kind, "Rollout"))
			seed_rollout(o, &s->observer[i], s);
	}
	/* what a plain snapshot's objects tell of the time before the run */
	api_list(api, "Workspace", NULL, NULL, NULL, &ws);
	for (size_t i = 0; i < ws.n; i++)
		if (!carried_for(&carried, "Workspace", ws.items[i]))
			derive_workspace(o, ws.items[i]);
	api_list(api, "Rollout", NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		if (carried_for(&carried, "Rollout", l.items[i]))
			continue;
		api_list(api, "Workspace", l.items[i]->ns, NULL, NULL, &ws);
		derive_rollout(o, l.items[i], &ws);
		derive_blast(o, l.items[i], &ws);
	}
	api_list_release(&ws);
	api_list_release(&l);
	si_release(&carried);
}

/*
 * The counters start from what the store holds now (the loaded world), so the
 * first watch deliveries of a run, which arrive one object at a time, never
 * look like a completed world that is only partly known yet.
 */
static void seed_from_store(struct obs *o)
{
	struct api *api = des_api(o->w);
	struct api_list l;

	api_list_init(&l);
	api_list(api, "Rollout", NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		struct obs_rollout *r = ro_get(o, l.items[i]->ns, l.items[i]->name);

		if (!r->exists) {
			r->exists = true;
			o->ro_live++;
			r->done_now = rollout_done(l.items[i]);
			r->idle_now = rollout_idle(l.items[i]);
			o->ro_done += r->done_now;
			o->ro_idle += r->idle_now;
		}
	}
	api_list(api, "FleetRollout", NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		size_t k = fr_slot(o, l.items[i]->name);

		if (!o->fr_exists[k]) {
			o->fr_exists[k] = true;
			o->fr_live++;
			o->fr_completed[k] = is(str_at(l.items[i]->status, "phase"), "Completed");
			o->fr_done += o->fr_completed[k];
		}
	}
	api_list(api, "Workspace", NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		struct obs_workspace *w = ws_get(o, l.items[i]->ns, l.items[i]->name);

		if (!w->exists) {
			w->exists = true;
			o->ws_live++;
			set_str(&w->last_phase, str_at(l.items[i]->status, "phase"));
			o->ws_applied += is(w->last_phase, "Applied");
			w->busy_now = ws_busy(l.items[i]);
			o->ws_busy += w->busy_now;
		}
	}
	api_list_release(&l);
}

/* The FleetRollout's slot in the completion arrays (cluster-scoped: by name). */
static size_t fr_slot(struct obs *o, const char *name)
{
	size_t pos;

	if (si_get(&o->fr_idx, name, &pos))
		return pos;
	if (o->nfr == o->capfr) {
		o->capfr = o->capfr ? o->capfr * 2 : 4;
		o->fr_exists = xreallocarray(o->fr_exists, o->capfr, sizeof(bool));
		o->fr_completed = xreallocarray(o->fr_completed, o->capfr, sizeof(bool));
	}
	o->fr_exists[o->nfr] = o->fr_completed[o->nfr] = false;
	si_put(&o->fr_idx, name, o->nfr);
	return o->nfr++;
}

static void on_fleet(void *ctx, enum api_event_type type, const struct obj *old,
		     const struct obj *new)
{
	struct obs *o = ctx;
	const struct obj *cur = new ? new : old;
	size_t i = fr_slot(o, cur->name);

	if (type == API_DELETED) {
		if (o->fr_exists[i]) {
			o->fr_live--;
			o->fr_done -= o->fr_completed[i];
		}
		o->fr_exists[i] = false;
		o->fr_completed[i] = false;
		check_complete(o);
		return;
	}
	if (!o->fr_exists[i]) {
		o->fr_exists[i] = true;
		o->fr_live++;
	}
	{
		/* fr_completed: Completed now. */
		bool done = is(str_at(cur->status, "phase"), "Completed");

		o->fr_done += (size_t)done - (size_t)o->fr_completed[i];
		o->fr_completed[i] = done;
	}
	check_complete(o);
}

struct obs *obs_new(struct des *w, int64_t latency_ms, int64_t anchor_unix_ms)
{
	struct obs *o = xcalloc(1, sizeof(*o));

	o->w = w;
	o->latency_ms = latency_ms;
	o->anchor_unix_ms = anchor_unix_ms;
	api_watch(des_api(w), "Workspace", on_workspace, o);
	api_watch(des_api(w), "Rollout", on_rollout, o);
	api_watch(des_api(w), "FleetRollout", on_fleet, o);
	return o;
}

static int cmp_ws(const void *a, const void *b)
{
	const struct obs_workspace *x = a, *y = b;
	int c = strcmp(x->ns, y->ns);

	return c ? c : strcmp(x->name, y->name);
}

static int cmp_ro(const void *a, const void *b)
{
	const struct obs_rollout *x = a, *y = b;
	int c = strcmp(x->ns, y->ns);

	return c ? c : strcmp(x->name, y->name);
}

void obs_finish(struct obs *o, struct des *w)
{
	struct api *api = des_api(w);
	struct api_list wl;

	if (o->nws)
		qsort(o->ws, o->nws, sizeof(*o->ws), cmp_ws);
	if (o->nro)
		qsort(o->ro, o->nro, sizeof(*o->ro), cmp_ro);
	si_release(&o->ws_idx);
	si_release(&o->ro_idx);
	for (size_t i = 0; i < o->nws; i++) {
		char *key = key_of(o->ws[i].ns, o->ws[i].name);

		si_put(&o->ws_idx, key, i);
		free(key);
	}
	for (size_t i = 0; i < o->nro; i++) {
		char *key = key_of(o->ro[i].ns, o->ro[i].name);

		si_put(&o->ro_idx, key, i);
		free(key);
	}

	/* The fleet views from the final objects. */
	{
		struct api_list fl, ss, ns;

		api_list_init(&fl);
		api_list_init(&ss);
		api_list_init(&ns);
		api_list(api, "FleetRollout", NULL, NULL, NULL, &fl);
		api_list(api, "StageSet", NULL, NULL, NULL, &ss);
		api_list(api, "Namespace", NULL, NULL, NULL, &ns);
		o->fleet_views = xcalloc(fl.n ? fl.n : 1, sizeof(char *));
		for (size_t i = 0; i < fl.n; i++)
			o->fleet_views[o->nfleet_views++] =
				fv_write_fleet_view(fl.items[i], ss.items, ss.n, ns.items, ns.n);
		api_list_release(&fl);
		api_list_release(&ss);
		api_list_release(&ns);
	}

	/* Step members from the final labels and selectors. */
	api_list_init(&wl);
	for (size_t i = 0; i < o->nro; i++) {
		struct obs_rollout *r = &o->ro[i];
		const struct obj *ro = api_get(api, "Rollout", r->ns, r->name);
		const struct val *steps = ro ? val_path(ro->spec, "strategy.steps") : NULL;

		api_list(api, "Workspace", r->ns, NULL, NULL, &wl);
		for (size_t s = 0; s < r->nsteps; s++) {
			struct lbl_selector sel;
			char err[LBL_ERRLEN];
			const struct val *sv;

			if (!steps || steps->type != VAL_LIST || s >= steps->u.list.n)
				break;
			sv = val_map_get(steps->u.list.items[s], "selector");
			if (lbl_selector_from_val(sv, &sel, err, sizeof(err)) != LBL_OK)
				continue;
			for (size_t k = 0; k < wl.n; k++) {
				const struct obj *ws = wl.items[k];

				if (!is(str_at(ws->spec, "projectRef.name"), r->project) ||
				    !lbl_matches(&sel, &ws->labels))
					continue;
				r->steps[s].members = xreallocarray(r->steps[s].members,
								    r->steps[s].nmembers + 1,
								    sizeof(char *));
				r->steps[s].members[r->steps[s].nmembers++] = xstrdup(ws->name);
			}
			lbl_selector_release(&sel);
		}
	}
	api_list_release(&wl);
}

const struct obs_rollout *obs_rollouts(const struct obs *o, size_t *n)
{
	*n = o->nro;
	return o->ro;
}

char *const *obs_fleet_views(const struct obs *o, size_t *n)
{
	*n = o->nfleet_views;
	return o->fleet_views;
}

const struct obs_workspace *obs_workspaces(const struct obs *o, size_t *n)
{
	*n = o->nws;
	return o->ws;
}

const struct obs_workspace *obs_workspace(const struct obs *o, const char *ns, const char *name)
{
	char *key = key_of(ns, name);
	size_t pos;
	bool found = si_get(&o->ws_idx, key, &pos);

	free(key);
	return found ? &o->ws[pos] : NULL;
}

/* Appends " KEY=TIME" to @b when @ms (of this run) is a time. */
static void put_time(char **b, const struct obs *o, const char *key, int64_t ms)
{
	char t[GT_RFC3339_BUFSZ], *next;

	if (ms == OBS_NEVER)
		return;
	gt_format_rfc3339_nano(o->anchor_unix_ms + ms, t, sizeof(t));
	next = xasprintf("%s%s%s=%s", *b, **b ? " " : "", key, t);
	free(*b);
	*b = next;
}

/* Appends " KEY=VALUE" to @b, @v percent-encoded as SCN_OBSERVER_STATE's values. */
static void put_text(char **b, const char *key, const char *v)
{
	size_t n = strlen(v), k = 0;
	char *enc = xmalloc(3 * n + 1), *next;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];

		if (c <= ' ' || c == '%' || c >= 0x7f)
			k += (size_t)sprintf(enc + k, "%%%02X", c);
		else
			enc[k++] = (char)c;
	}
	enc[k] = '\0';
	next = xasprintf("%s%s%s=%s", *b, **b ? " " : "", key, enc);
	free(enc);
	free(*b);
	*b = next;
}

static char *done_or_null(char *b)
{
	if (*b)
		return b;
	free(b);
	return NULL;
}

char *obs_state(const struct obs *o, const char *kind, const char *ns, const char *name)
{
	char *key = key_of(ns, name), *b = xstrdup("");
	size_t pos;

	if (is(kind, "Workspace") && si_get(&o->ws_idx, key, &pos)) {
		const struct obs_workspace *w = &o->ws[pos];

		put_time(&b, o, "granted", obs_first(w->past_granted_ms, w->granted_ms));
		put_time(&b, o, "planning", obs_first(w->past_planning_ms, w->planning_ms));
		put_time(&b, o, "applying", obs_first(w->past_applying_ms, w->applying_ms));
		put_time(&b, o, "applied", obs_first(w->past_applied_ms, w->applied_ms));
		put_time(&b, o, "failed", obs_first(w->past_failed_ms, w->failed_ms));
		if (w->runs) {
			char n[16];

			snprintf(n, sizeof(n), "%u", w->runs);
			put_text(&b, "runs", n);
		}
	} else if (is(kind, "Rollout") && si_get(&o->ro_idx, key, &pos)) {
		const struct obs_rollout *r = &o->ro[pos];

		put_time(&b, o, "created", r->created_ms);
		put_time(&b, o, "completed", obs_first(r->past_completed_ms, r->completed_ms));
		if (r->nsteps) {
			char *steps = xstrdup(""), *next;

			for (size_t i = 0; i < r->nsteps; i++) {
				char t[2][GT_RFC3339_BUFSZ];
				int64_t at[2] = { obs_first(r->steps[i].past_opened_ms, r->steps[i].opened_ms),
						  obs_first(r->steps[i].past_completed_ms,
							    r->steps[i].completed_ms) };

				for (int k = 0; k < 2; k++) {
					if (at[k] == OBS_NEVER)
						snprintf(t[k], sizeof(t[k]), "-");
					else
						gt_format_rfc3339_nano(o->anchor_unix_ms + at[k], t[k],
								       sizeof(t[k]));
				}
				next = xasprintf("%s%s%s/%s", steps, i ? "," : "", t[0], t[1]);
				free(steps);
				steps = next;
			}
			put_text(&b, "steps", steps);
			free(steps);
		}
		/*
		 * the halt's time and blast radius where known: measured by a run
		 * (this one or the one it resumed), or told by a plain snapshot
		 */
		if (r->halted && (!r->halted_before_start || r->past_halt_ms != OBS_NEVER))
			put_time(&b, o, "halted", obs_halt_at(r));
		if (r->halted && (!r->halted_before_start || r->blast_known)) {
			char *names = xstrdup(""), *next, total[32];

			for (size_t i = 0; i < r->nblast; i++) {
				next = xasprintf("%s%s%s", names, i ? "," : "", r->blast[i]);
				free(names);
				names = next;
			}
			put_text(&b, "blast", names);
			snprintf(total, sizeof(total), "%zu", r->blast_total);
			put_text(&b, "blastTotal", total);
			free(names);
		}
		/* what the halt was, for a resumed run whose Rollout no longer shows it */
		if (r->halted) {
			char step[24];

			snprintf(step, sizeof(step), "%d", r->halt_step);
			put_text(&b, "haltStep", step);
			if (r->halt_reason)
				put_text(&b, "haltReason", r->halt_reason);
			if (r->halt_message)
				put_text(&b, "haltMessage", r->halt_message);
		}
	}
	free(key);
	return done_or_null(b);
}

void obs_free(struct obs *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nws; i++) {
		free(o->ws[i].ns);
		free(o->ws[i].name);
		free(o->ws[i].project);
		free(o->ws[i].last_phase);
		for (size_t j = 0; j < o->ws[i].nviolations; j++)
			free(o->ws[i].violations[j]);
		free(o->ws[i].violations);
	}
	free(o->ws);
	for (size_t i = 0; i < o->nro; i++) {
		struct obs_rollout *r = &o->ro[i];

		free(r->ns);
		free(r->name);
		free(r->project);
		steps_release(r);
		free(r->halt_reason);
		free(r->halt_message);
		for (size_t j = 0; j < r->nblast; j++)
			free(r->blast[j]);
		free(r->blast);
	}
	free(o->ro);
	si_release(&o->ws_idx);
	si_release(&o->ro_idx);
	si_release(&o->fr_idx);
	for (size_t i = 0; i < o->nfleet_views; i++)
		free(o->fleet_views[i]);
	free(o->fleet_views);
	free(o->fr_exists);
	free(o->fr_completed);
	free(o);
}
