/*
 * Models: the Job runner, policy checks, garbage collection of a deleted
 * Workspace's children, git remotes and the scripted model events.  See
 * sim/models/models.h for the behaviour; this file holds the bookkeeping.
 *
 * Jobs are records in one growing array (never moved out: stats point into
 * them).  A string index maps "ns/name" to the latest record of that name (a
 * Job deleted and created again under the same name, as a Workspace retry
 * does, gets a new record).  The runner queue is a FIFO of record indices;
 * records that left it early (deleted, deadline) are skipped when popped.
 */
#include "sim/models/models.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/base/gotime.h"
#include "sim/base/strindex.h"
#include "sim/core/rng.h"

#define CAUSE_RUNNER "job-runner"
#define CAUSE_GC "garbage-collector"

/* ---------------------------------------------------------------- string index */

/* The position @x maps @key to, or SIZE_MAX (positions are array indices, never SIZE_MAX). */
static size_t index_get(const struct strindex *x, const char *key)
{
	size_t pos;

	return si_get(x, key, &pos) ? pos : SIZE_MAX;
}

/* ---------------------------------------------------------------- state */

struct job {
	struct mdl_job_stat st;
	char *ns, *name, *ws, *uid; /* owned; st points at them */
	size_t wsi;                 /* index into mdl.wss, or SIZE_MAX */
	uint32_t seq;               /* n of the stream ids */
	bool fail_draw;             /* the failure draw said "fail" */
	evq_handle ev_start, ev_end, ev_deadline; /* 0 when none pending */
	/* the instant status.startTime stands for, untruncated (sim ms); -1: none */
	int64_t start_time_ms;
};

/* A scripted violation waiting for the Workspace's next checked plan. */
struct pending_violation {
	char *policy;
	size_t mevent; /* index into scenario.mevents, for warnings */
};

/* Per Workspace (ns/name): stream counters and pending scripted outcomes. */
struct ws_state {
	char *ns, *name;
	uint32_t seen[SCN_JOB_NTYPES];       /* Jobs of each type seen so far */
	uint32_t fail_next[SCN_JOB_NTYPES];  /* pending failNext count */
	uint32_t succeed_next[SCN_JOB_NTYPES];
	struct pending_violation *viol;
	size_t nviol;
	/* the failNext and succeedNext events behind the counts, in the order they fired */
	size_t *armed;
	size_t narmed;
};

/* One commit: from at_ms on, the ref points at sha. */
struct commit {
	int64_t at_ms;
	char sha[41];
};

/* A (repo, canonical ref) with an initial SHA given or commits scripted. */
struct remote_ref {
	const char *url; /* borrowed from the scenario */
	char *ref;       /* canonical, owned */
	bool has_initial;
	char initial[41];
	struct commit *commits; /* sorted by at_ms (stable: file order at equal times) */
	size_t n;
};

struct mdl {
	const struct scenario *s;
	const struct scn_models *cfg;
	struct des *w;
	struct api *api;
	uint64_t seed, trial;

	struct job *jobs;
	size_t njobs, capjobs;
	struct mdl_job_stat *stats; /* rebuilt by mdl_jobs() */
	struct strindex job_index;      /* "ns/name" → latest record */

	struct ws_state *wss;
	size_t nwss;
	struct strindex ws_index; /* "ns/name" → wss index */

	size_t *queue; /* FIFO of job indices (some stale) */
	size_t qhead, qlen, qcap;
	uint32_t running, waiting, peak;
	struct mdl_cap_point *series;
	size_t nseries, capseries;

	struct remote_ref *refs; /* sorted by (url, ref) */
	size_t nrefs;
};

/* ---------------------------------------------------------------- helpers */

static char *key2(const char *ns, const char *name)
{
	return xasprintf("%s/%s", ns, name);
}

static void wall(const struct mdl *m, int64_t t_ms, char *buf, size_t len)
{
	gt_format_rfc3339(m->s->start_unix_ms + t_ms, buf, len);
}

static struct ws_state *ws_get(struct mdl *m, const char *ns, const char *name, size_t *idx)
{
	char *k = key2(ns, name);
	size_t i = index_get(&m->ws_index, k);

	if (i == SIZE_MAX) {
		i = m->nwss;
		m->wss = xreallocarray(m->wss, m->nwss + 1, sizeof(*m->wss));
		memset(&m->wss[i], 0, sizeof(m->wss[i]));
		m->wss[i].ns = xstrdup(ns);
		m->wss[i].name = xstrdup(name);
		m->nwss++;
		si_put(&m->ws_index, k, i);
	}
	free(k);
	if (idx)
		*idx = i;
	return &m->wss[i];
}

/* Takes off @ws's first armed event of @type for Jobs of type @t (one of the counts was used). */
static void disarm(const struct mdl *m, struct ws_state *ws, enum scn_mevent_type type, enum scn_job_type t)
{
	for (size_t i = 0; i < ws->narmed; i++) {
		const struct scn_mevent *e = &m->s->mevents[ws->armed[i]];

		if (e->type == type && e->job == t) {
			memmove(&ws->armed[i], &ws->armed[i + 1], (ws->narmed - i - 1) * sizeof(*ws->armed));
			ws->narmed--;
			return;
		}
	}
}

/* Arms model event @i (a failNext, succeedNext or violate) on its Workspace. */
static void arm(struct mdl *m, size_t i)
{
	const struct scn_mevent *e = &m->s->mevents[i];
	struct ws_state *ws = ws_get(m, e->target.ns, e->target.name, NULL);

	if (e->type == SCN_MEV_VIOLATE) {
		ws->viol = xreallocarray(ws->viol, ws->nviol + 1, sizeof(*ws->viol));
		ws->viol[ws->nviol++] = (struct pending_violation){ xstrdup(e->policy), i };
		return;
	}
	if (e->type == SCN_MEV_FAIL_NEXT)
		ws->fail_next[e->job]++;
	else
		ws->succeed_next[e->job]++;
	ws->armed = xreallocarray(ws->armed, ws->narmed + 1, sizeof(*ws->armed));
	ws->armed[ws->narmed++] = i;
}

static void notice(struct mdl *m, enum tl_severity sev, const char *kind, const char *ns,
		   const char *name, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void notice(struct mdl *m, enum tl_severity sev, const char *kind, const char *ns,
		   const char *name, const char *fmt, ...)
{
	char text[1024];
	struct tl_objref ref = { kind, ns, name, 0 };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	tl_notice_add(des_timeline(m->w), des_now(m->w), sev, text, kind ? &ref : NULL, kind ? 1 : 0);
}

static void series_point(struct mdl *m)
{
	int64_t now = des_now(m->w);
	struct mdl_cap_point *last = m->nseries ? &m->series[m->nseries - 1] : NULL;

	if (m->running > m->peak)
		m->peak = m->running;
	if (last && last->running == m->running && last->waiting == m->waiting)
		return;
	if (!last || last->t_ms != now) {
		if (m->nseries == m->capseries) {
			m->capseries = m->capseries ? 2 * m->capseries : 64;
			m->series = xreallocarray(m->series, m->capseries, sizeof(*m->series));
		}
		last = &m->series[m->nseries++];
	}
	*last = (struct mdl_cap_point){ now, m->running, m->waiting };
}

/* stream() - the stream of one draw of job @j: "job/<ns>/<ws>/<type>#<n>/<what>". */
static void stream(const struct mdl *m, const struct job *j, const char *what, struct rng *r)
{
	char id[768];

	snprintf(id, sizeof(id), "job/%s/%s/%s#%u/%s", j->ns, j->ws[0] ? j->ws : j->name,
		 scn_job_type_name(j->st.type), j->seq, what);
	rng_stream(r, m->seed, m->trial, id);
}

/* env_value() - the value of env var @name in the Job's pod template, or NULL. */
static const char *env_value(const struct obj *o, const char *name)
{
	const struct val *cs = val_path(o->spec, "template.spec.containers");

	for (size_t i = 0; cs && cs->type == VAL_LIST && i < cs->u.list.n; i++) {
		const struct val *env = val_map_get(cs->u.list.items[i], "env");

		for (size_t k = 0; env && env->type == VAL_LIST && k < env->u.list.n; k++) {
			const struct val *e = env->u.list.items[k];

			if (strcmp(val_str(val_map_get(e, "name"), ""), name) == 0)
				return val_str(val_map_get(e, "value"), "");
		}
	}
	return NULL;
}

static enum scn_job_type job_type_of(const struct obj *o)
{
	const char *t = obj_strmap_get(&o->labels, MDL_LABEL_JOB_TYPE);

	if (!t)
		t = env_value(o, "MAGOS_JOB_TYPE");
	return t && strcmp(t, "apply") == 0 ? SCN_JOB_APPLY : SCN_JOB_PLAN;
}

/* ---------------------------------------------------------------- status writes */

static void patch_status(struct mdl *m, const struct job *j, struct val *patch)
{
	des_set_cause(m->w, CAUSE_RUNNER);
	api_patch_status(m->api, "Job", j->ns, j->name, patch);
	val_free(patch);
}

static struct val *condition(struct mdl *m, const char *type, const char *reason,
			     const char *message)
{
	struct val *c = val_new_map();
	char t[GT_RFC3339_BUFSZ];

	wall(m, des_now(m->w), t, sizeof(t));
	val_map_set(c, "type", val_new_string(type));
	val_map_set(c, "status", val_new_string("True"));
	if (reason)
		val_map_set(c, "reason", val_new_string(reason));
	if (message)
		val_map_set(c, "message", val_new_string(message));
	val_map_set(c, "lastProbeTime", val_new_string(t));
	val_map_set(c, "lastTransitionTime", val_new_string(t));
	return c;
}

/* finish_status() - the final status patch: active removed, one condition. */
static void finish_status(struct mdl *m, const struct job *j, bool ok, const char *reason,
			  const char *message)
{
	struct val *p = val_new_map();
	struct val *conds = val_new_list();
	char t[GT_RFC3339_BUFSZ];

	val_map_set(p, "active", val_new_null());
	if (ok) {
		wall(m, des_now(m->w), t, sizeof(t));
		val_map_set(p, "succeeded", val_new_int(1));
		val_map_set(p, "completionTime", val_new_string(t));
		val_list_push(conds, condition(m, "Complete", NULL, NULL));
	} else {
		val_map_set(p, "failed", val_new_int(1));
		val_list_push(conds, condition(m, "Failed", reason, message));
	}
	val_map_set(p, "conditions", conds);
	patch_status(m, j, p);
}

/* ---------------------------------------------------------------- the runner */

static void on_start(struct des *w, void *ctx, void *arg);
static void on_end(struct des *w, void *ctx, void *arg);
static void on_deadline(struct des *w, void *ctx, void *arg);

static void cancel(struct mdl *m, evq_handle *h)
{
	if (*h)
		des_cancel(m->w, *h);
	*h = 0;
}

/* admit_waiting() - hand free slots to waiting Jobs, first seen first. */
static void admit_waiting(struct mdl *m)
{
	int64_t now = des_now(m->w);

	while (m->qlen && (m->cfg->capacity == 0 || m->running < m->cfg->capacity)) {
		size_t ji = m->queue[m->qhead];
		struct job *j = &m->jobs[ji];

		m->qhead = (m->qhead + 1) % m->qcap;
		m->qlen--;
		if (j->st.state != MDL_JOB_WAITING)
			continue; /* left the queue early */
		m->waiting--;
		m->running++;
		j->st.state = MDL_JOB_STARTING;
		j->st.slot_ms = now;
		j->ev_start = des_at(m->w, now + m->cfg->pod_startup_ms, DES_PRIO_SCRIPT, on_start, m,
				     (void *)(uintptr_t)ji);
	}
	series_point(m);
}

static void enqueue(struct mdl *m, size_t ji)
{
	if (m->qlen == m->qcap) {
		size_t cap = m->qcap ? 2 * m->qcap : 64;
		size_t *q = xcalloc(cap, sizeof(*q));

		for (size_t i = 0; i < m->qlen; i++)
			q[i] = m->queue[(m->qhead + i) % m->qcap];
		free(m->queue);
		m->queue = q;
		m->qcap = cap;
		m->qhead = 0;
	}
	m->queue[(m->qhead + m->qlen) % m->qcap] = ji;
	m->qlen++;
	m->waiting++;
}

/* leave() - @j stops holding a slot or waiting; new state @st, at now. */
static void leave(struct mdl *m, struct job *j, enum mdl_job_state st)
{
	if (j->st.state == MDL_JOB_WAITING)
		m->waiting--;
	else if (j->st.state == MDL_JOB_STARTING || j->st.state == MDL_JOB_RUNNING)
		m->running--;
	cancel(m, &j->ev_start);
	cancel(m, &j->ev_end);
	cancel(m, &j->ev_deadline);
	j->st.state = st;
	j->st.end_ms = des_now(m->w);
	admit_waiting(m);
}

static bool live(const struct job *j)
{
	return j->st.state == MDL_JOB_WAITING || j->st.state == MDL_JOB_STARTING ||
	       j->st.state == MDL_JOB_RUNNING;
}

static void on_start(struct des *w, void *ctx, void *arg)
{
	struct mdl *m = ctx;
	size_t ji = (size_t)(uintptr_t)arg;
	struct job *j = &m->jobs[ji];

	(void)w;
	j->ev_start = 0;
	j->st.state = MDL_JOB_RUNNING;
	j->st.start_ms = des_now(m->w);
	j->ev_end = des_at(m->w, j->st.start_ms + j->st.duration_ms, DES_PRIO_SCRIPT, on_end, m,
			   (void *)(uintptr_t)ji);
}

static void on_deadline(struct des *w, void *ctx, void *arg)
{
	struct mdl *m = ctx;
	struct job *j = &m->jobs[(size_t)(uintptr_t)arg];

	(void)w;
	j->ev_deadline = 0;
	leave(m, j, MDL_JOB_DEADLINE);
	finish_status(m, j, false, "DeadlineExceeded", "Job was active longer than specified deadline");
	{
		/* The Workspace only says PlanFailed/ApplyFailed: say why here. */
		char dl[GT_DURATION_BUFSZ], need[GT_DURATION_BUFSZ];

		gt_format_duration(j->st.deadline_ms - j->st.seen_ms, dl, sizeof(dl));
		gt_format_duration(j->st.duration_ms, need, sizeof(need));
		notice(m, TL_WARNING, "Workspace", j->st.ns, j->st.workspace,
		       "job %s/%s exceeded its activeDeadlineSeconds (DeadlineExceeded after %s; "
		       "it needed %s to run): the Workspace reports %s, and a retry times out "
		       "too unless the run fits spec.%s.timeoutSeconds",
		       j->st.ns, j->st.name, dl, need,
		       j->st.type == SCN_JOB_PLAN ? "PlanFailed" : "ApplyFailed",
		       j->st.type == SCN_JOB_PLAN ? "plan" : "apply");
	}
}

/* policy_message() - the message a violation of ValidatingPolicy @p reports. */
static char *policy_message(const struct obj *p)
{
	const struct val *vs = val_path(p->spec, "validations");
	const struct val *v0 = vs && vs->type == VAL_LIST && vs->u.list.n ? vs->u.list.items[0] : NULL;
	const char *msg = val_str(val_map_get(v0, "message"), NULL);

	if (msg && msg[0])
		return xstrdup(msg);
	return xasprintf("failed expression: %s", val_str(val_map_get(v0, "expression"), ""));
}

static double policy_probability(const struct mdl *m, const char *name)
{
	for (size_t i = 0; i < m->cfg->npolicies; i++)
		if (strcmp(m->cfg->policies[i].name, name) == 0)
			return m->cfg->policies[i].violation_probability;
	return 0;
}

struct sel_ctx {
	const struct lbl_selector *sel;
};

static bool match_policy(const struct obj *o, void *ctx)
{
	const struct sel_ctx *c = ctx;

	return o->deletion_ms < 0 && lbl_matches(c->sel, &o->labels);
}

/*
 * policy_check() - cmd/job validatePolicies for plan @j of Job object @o
 * whose Terraform plan succeeded.  Writes podLog when a policy matched.
 * Returns: 1 when violations fail the plan, 0 when it passes, -1 when the
 * selector does not parse (the plan fails without a result).
 */
static int policy_check(struct mdl *m, struct job *j, const struct obj *o, bool succeed)
{
	const char *selstr = env_value(o, "MAGOS_POLICY_SELECTOR");
	struct ws_state *ws = j->wsi != SIZE_MAX ? &m->wss[j->wsi] : NULL;
	struct lbl_selector sel;
	struct sel_ctx sc = { &sel };
	struct api_list pols;
	struct val *viol, *result, *log;
	struct obj *upd;
	char err[LBL_ERRLEN];
	size_t nviol = 0;

	if (!selstr || !selstr[0])
		goto out_drop_scripted;
	if (mdl_parse_selector(selstr, &sel, err, sizeof(err)) != 0) {
		notice(m, TL_WARNING, "Job", j->ns, j->name,
		       "plan Job %s/%s: MAGOS_POLICY_SELECTOR \"%s\" does not parse (%s); listing "
		       "ValidatingPolicies fails and so does the plan",
		       j->ns, j->name, selstr, err);
		return -1;
	}
	api_list_init(&pols);
	api_list(m->api, "ValidatingPolicy", NULL, match_policy, &sc, &pols);
	lbl_selector_release(&sel);
	if (pols.n == 0) {
		api_list_release(&pols);
		goto out_drop_scripted;
	}
	viol = val_new_list();
	for (size_t i = 0; i < pols.n; i++) {
		const struct obj *p = pols.items[i];
		bool hit = false;

		for (size_t k = 0; ws && k < ws->nviol; k++) {
			if (strcmp(ws->viol[k].policy, p->name) == 0) {
				free(ws->viol[k].policy);
				ws->viol[k] = ws->viol[--ws->nviol];
				hit = true;
				break;
			}
		}
		if (!hit && !succeed) {
			struct rng r;
			char what[320];

			snprintf(what, sizeof(what), "policy/%s", p->name);
			stream(m, j, what, &r);
			hit = rng_uniform01(&r) < policy_probability(m, p->name);
		}
		if (hit) {
			struct val *e = val_new_map();
			char *msg = policy_message(p);

			val_map_set(e, "policy", val_new_string(p->name));
			val_map_set(e, "message", val_new_string(msg));
			free(msg);
			val_list_push(viol, e);
			nviol++;
		}
	}
	api_list_release(&pols);
	result = val_new_map();
	val_map_set(result, "passed", val_new_bool(nviol == 0));
	if (nviol) {
		val_map_set(result, "violations", viol);
	} else {
		val_free(viol);
		val_map_set(result, "violations", val_new_null());
	}
	log = val_new_map();
	val_map_set(log, "result", result);
	upd = obj_copy(o);
	if (!upd->rest)
		upd->rest = val_new_map();
	val_map_set(upd->rest, "podLog", log);
	upd->resource_version = 0;
	des_set_cause(m->w, CAUSE_RUNNER);
	api_update(m->api, upd);
	j->st.nviolations = nviol;
	/* scripted violations of policies this plan did not check cannot happen */
out_drop_scripted:
	while (ws && ws->nviol) {
		struct pending_violation *pv = &ws->viol[--ws->nviol];

		notice(m, TL_WARNING, "Workspace", ws->ns, ws->name,
		       "scenario event %zu (violate): the plan Job %s/%s did not check "
		       "ValidatingPolicy \"%s\" (MAGOS_POLICY_SELECTOR \"%s\"); the violation is "
		       "dropped",
		       m->s->mevents[pv->mevent].index + 1, j->ns, j->name, pv->policy,
		       selstr ? selstr : "");
		free(pv->policy);
	}
	return nviol ? 1 : 0;
}

static void on_end(struct des *w, void *ctx, void *arg)
{
	struct mdl *m = ctx;
	struct job *j = &m->jobs[(size_t)(uintptr_t)arg];
	struct ws_state *ws = j->wsi != SIZE_MAX ? &m->wss[j->wsi] : NULL;
	enum scn_job_type t = j->st.type;
	const struct obj *o = api_get(m->api, "Job", j->ns, j->name);
	bool fail, succeed = false;
	int pc = 0;

	(void)w;
	j->ev_end = 0;
	if (ws && ws->fail_next[t]) {
		ws->fail_next[t]--;
		disarm(m, ws, SCN_MEV_FAIL_NEXT, t);
		fail = true;
	} else if (ws && ws->succeed_next[t]) {
		ws->succeed_next[t]--;
		disarm(m, ws, SCN_MEV_SUCCEED_NEXT, t);
		succeed = true;
		fail = false;
	} else {
		fail = j->fail_draw;
	}
	if (!fail && t == SCN_JOB_PLAN && o)
		pc = policy_check(m, j, o, succeed);
	if (pc != 0)
		fail = true;
	leave(m, j, fail ? MDL_JOB_FAILED : MDL_JOB_SUCCEEDED);
	if (fail)
		finish_status(m, j, false, "BackoffLimitExceeded",
			      "Job has reached the specified backoff limit");
	else
		finish_status(m, j, true, NULL, NULL);
}

static bool finished(const struct obj *o)
{
	return val_int(val_path(o->status, "succeeded"), 0) > 0 ||
	       val_int(val_path(o->status, "failed"), 0) > 0;
}

/*
 * resumed_start() - whether @o is a Job a snapshot caught running: not
 * finished, with status.startTime at or before now; its start in simulated
 * ms into @ms, to the millisecond when the snapshot says it
 * (SCN_JOB_START_ANNOTATION, scn_job_start()), and status.startTime as
 * stored (whole seconds) into @stored_ms.  A startTime that does not parse
 * is a Job the Job controller has not synced yet (it starts afresh).
 */
static bool resumed_start(const struct mdl *m, const struct obj *o, int64_t *ms, int64_t *stored_ms)
{
	const char *st = val_str(val_map_get(o->status, "startTime"), NULL);
	int64_t unix_ms, exact;

	if (!st || gt_parse_rfc3339(st, &unix_ms, NULL, 0) != 0)
		return false;
	if (!scn_job_start(m->s, o->ns, o->name, &exact))
		exact = unix_ms;
	if (exact - m->s->start_unix_ms > des_now(m->w))
		return false;
	*ms = exact - m->s->start_unix_ms;
	*stored_ms = unix_ms - m->s->start_unix_ms;
	return true;
}

/*
 * resume() - job @ji of a snapshot, running since @start_ms (its startTime,
 * to the millisecond when known): it holds a runner slot from then on (the
 * snapshot does not say whether its pod waited for one, so it is taken as
 * running, over the capacity if need be), its container started pod
 * startup later, and it ends after the duration drawn already (conditioned
 * on the time spent running).  The deadline counts from @stored_ms,
 * status.startTime in whole seconds, as the Job controller counts it.  No
 * status write: the Job's status is the snapshot's.
 */
static void resume(struct mdl *m, size_t ji, int64_t start_ms, int64_t stored_ms, int64_t deadline_s)
{
	struct job *j = &m->jobs[ji];
	int64_t now = des_now(m->w), run_at = start_ms + m->cfg->pod_startup_ms;

	m->running++;
	j->st.resumed = true;
	j->st.slot_ms = start_ms;
	j->start_time_ms = start_ms;
	if (run_at > now) {
		j->st.state = MDL_JOB_STARTING;
		j->ev_start = des_at(m->w, run_at, DES_PRIO_SCRIPT, on_start, m, (void *)(uintptr_t)ji);
	} else {
		j->st.state = MDL_JOB_RUNNING;
		j->st.start_ms = run_at;
		j->ev_end = des_at(m->w, run_at + j->st.duration_ms > now ? run_at + j->st.duration_ms : now,
				   DES_PRIO_SCRIPT, on_end, m, (void *)(uintptr_t)ji);
	}
	if (deadline_s >= 0) {
		j->st.deadline_ms = stored_ms + deadline_s * 1000;
		if (j->st.deadline_ms < now)
			j->st.deadline_ms = now;
		j->ev_deadline = des_at(m->w, j->st.deadline_ms, DES_PRIO_SCRIPT, on_deadline, m,
					(void *)(uintptr_t)ji);
	}
	series_point(m);
}

/* job_seen() - the Job controller's first sync of a new Job @o. */
static void job_seen(struct mdl *m, const struct obj *o)
{
	int64_t now = des_now(m->w);
	const char *ws = obj_strmap_get(&o->labels, MDL_LABEL_WORKSPACE);
	const struct obj *wso = ws ? api_get(m->api, "Workspace", o->ns, ws) : NULL;
	struct obj_strmap nolabels;
	const struct dist *dur;
	double pfail;
	struct rng r;
	gsl_rng g;
	struct job *j;
	size_t ji = m->njobs;
	char *k = key2(o->ns, o->name);
	char t[GT_RFC3339_BUFSZ];
	const struct val *dl = val_path(o->spec, "activeDeadlineSeconds");
	/* Absent (or beyond any clock): no deadline. */
	int64_t deadline_s = dl && dl->type == VAL_INT && dl->u.i <= MDL_MAX_DURATION_MS / 1000
				     ? dl->u.i
				     : -1;
	struct val *p;
	int64_t started_ms = 0, stored_ms = 0;
	bool started;

	if (m->njobs == m->capjobs) {
		m->capjobs = m->capjobs ? 2 * m->capjobs : 64;
		m->jobs = xreallocarray(m->jobs, m->capjobs, sizeof(*m->jobs));
	}
	j = &m->jobs[m->njobs++];
	memset(j, 0, sizeof(*j));
	j->ns = xstrdup(o->ns);
	j->name = xstrdup(o->name);
	j->ws = xstrdup(ws ? ws : "");
	j->uid = xstrdup(o->uid ? o->uid : "");
	j->wsi = SIZE_MAX;
	j->st.ns = j->ns;
	j->st.name = j->name;
	j->st.workspace = j->ws;
	j->st.type = job_type_of(o);
	j->st.seen_ms = now;
	j->st.slot_ms = j->st.start_ms = j->st.end_ms = j->st.deadline_ms = -1;
	j->start_time_ms = -1;
	si_put(&m->job_index, k, ji);
	free(k);
	if (finished(o) || o->deletion_ms >= 0) {
		j->st.state = MDL_JOB_FOREIGN;
		return;
	}
	if (ws)
		j->seq = ++ws_get(m, o->ns, ws, &j->wsi)->seen[j->st.type];
	else
		j->seq = 1;

	obj_strmap_init(&nolabels);
	scn_job_model_for(m->cfg, j->st.type, wso ? &wso->labels : &nolabels, &dur, &pfail);
	stream(m, j, "duration", &r);
	rng_gsl_wrap(&g, &r);
	started = resumed_start(m, o, &started_ms, &stored_ms);
	if (started && started_ms + m->cfg->pod_startup_ms < now) {
		/* the container has run for (now - its start): the rest of a run that long */
		double d = dist_sample_beyond(dur, &g, (double)(now - started_ms - m->cfg->pod_startup_ms));

		j->st.duration_ms = !(d > 0) ? 0 : d >= 9223372036854775808.0 ? INT64_MAX : llround(d);
	} else {
		j->st.duration_ms = dist_sample_ms(dur, &g);
	}
	/*
	 * A heavy-tailed distribution can draw beyond any clock: cap a run at
	 * Go's longest duration (about 292 years), which also keeps every
	 * "now + duration" below INT64_MAX.
	 */
	if (j->st.duration_ms > MDL_MAX_DURATION_MS)
		j->st.duration_ms = MDL_MAX_DURATION_MS;
	stream(m, j, "failure", &r);
	j->fail_draw = rng_uniform01(&r) < pfail;

	if (started) {
		resume(m, ji, started_ms, stored_ms, deadline_s);
		return;
	}
	j->start_time_ms = now;
	/* startTime as stored (whole seconds); the deadline counts from it */
	wall(m, now, t, sizeof(t));
	p = val_new_map();
	val_map_set(p, "active", val_new_int(1));
	val_map_set(p, "startTime", val_new_string(t));
	patch_status(m, j, p);
	/* Job validation allows 0: the Job is past its deadline at once. */
	if (deadline_s >= 0) {
		j->st.deadline_ms = gt_metav1_store(m->s->start_unix_ms, now) + deadline_s * 1000;
		if (j->st.deadline_ms < now)
			j->st.deadline_ms = now;
		j->ev_deadline = des_at(m->w, j->st.deadline_ms, DES_PRIO_SCRIPT, on_deadline, m,
					(void *)(uintptr_t)ji);
	}
	j->st.state = MDL_JOB_WAITING;
	enqueue(m, ji);
	admit_waiting(m);
}

static void job_deleted(struct mdl *m, const struct obj *o)
{
	char *k = key2(o->ns, o->name);
	size_t ji = index_get(&m->job_index, k);

	free(k);
	if (ji == SIZE_MAX)
		return;
	if (live(&m->jobs[ji]) && strcmp(m->jobs[ji].uid, o->uid ? o->uid : "") == 0)
		leave(m, &m->jobs[ji], MDL_JOB_DELETED);
}

/*
 * job_finished_elsewhere() - someone else wrote a finished status on a Job
 * the runner still runs (a scenario event patching the status subresource,
 * as `kubectl patch job --subresource=status` does): the runner takes it as
 * the outcome, stops the run and frees the slot; its own end never comes.
 */
static void job_finished_elsewhere(struct mdl *m, const struct obj *o)
{
	char *k = key2(o->ns, o->name);
	size_t ji = index_get(&m->job_index, k);
	struct job *j;

	free(k);
	if (ji == SIZE_MAX)
		return;
	j = &m->jobs[ji];
	if (!live(j) || strcmp(j->uid, o->uid ? o->uid : "") != 0)
		return;
	leave(m, j, val_int(val_path(o->status, "succeeded"), 0) > 0 ? MDL_JOB_SUCCEEDED
								    : MDL_JOB_FAILED);
}

static void watch_job(void *ctx, enum api_event_type type, const struct obj *old,
		      const struct obj *new)
{
	struct mdl *m = ctx;

	(void)old;
	if (type == API_ADDED)
		job_seen(m, new);
	else if (type == API_DELETED)
		job_deleted(m, new);
	else if (type == API_MODIFIED && finished(new))
		job_finished_elsewhere(m, new);
}

/* ---------------------------------------------------------------- volume binding */

/*
 * watch_pvc() - a claim seen without status.phase (the one the Workspace
 * controller creates, or a snapshot's written without its status) is
 * bound at once: status {phase: Bound, accessModes, capacity: {storage}}
 * from its spec, as the PersistentVolume controller writes it for a
 * dynamically provisioned volume.  A model choice (models.h): upstream's
 * ensurePVC reads nothing of the claim but its existence.
 */
static void watch_pvc(void *ctx, enum api_event_type type, const struct obj *old,
		      const struct obj *new)
{
	struct mdl *m = ctx;
	const struct val *modes, *storage;
	struct val *p, *cap;

	(void)old;
	if (type != API_ADDED || new->deletion_ms >= 0 || val_map_get(new->status, "phase"))
		return;
	modes = val_map_get(new->spec, "accessModes");
	storage = val_path(new->spec, "resources.requests.storage");
	p = val_new_map();
	val_map_set(p, "phase", val_new_string("Bound"));
	if (modes)
		val_map_set(p, "accessModes", val_copy(modes));
	if (storage) {
		cap = val_map_set(p, "capacity", val_new_map());
		val_map_set(cap, "storage", val_copy(storage));
	}
	des_set_cause(m->w, CAUSE_RUNNER);
	api_patch_status(m->api, "PersistentVolumeClaim", new->ns, new->name, p);
	val_free(p);
}

/* ---------------------------------------------------------------- garbage collection */

/* A dependent of the deleted owner whose uid is @ctx. */
static bool owned_by(const struct obj *o, void *ctx)
{
	return obj_owned_by_uid(o, ctx);
}

/*
 * collect() - the garbage collector's background propagation: every @kind
 * object of @ns with an ownerReference to @uid is deleted once its owner is
 * gone.
 */
static void collect(struct mdl *m, const char *kind, const char *ns, const char *uid)
{
	struct api_list l;
	char **names;
	size_t n;

	api_list_init(&l);
	n = api_list(m->api, kind, ns, owned_by, (void *)uid, &l);
	names = xcalloc(n ? n : 1, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = xstrdup(l.items[i]->name);
	api_list_release(&l);
	des_set_cause(m->w, CAUSE_GC);
	for (size_t i = 0; i < n; i++) {
		api_delete(m->api, kind, ns, names[i]);
		free(names[i]);
	}
	free(names);
}

/* A loaded object none of whose owners (by uid) is among the loaded objects. */
static bool all_owners_gone(const struct obj *o, const struct strindex *uids)
{
	const struct val *l = o->owner_refs;
	size_t any = 0, pos;

	for (size_t i = 0; l && l->type == VAL_LIST && i < l->u.list.n; i++) {
		const char *uid = val_str(val_map_get(l->u.list.items[i], "uid"), "");

		if (!uid[0])
			return false; /* a reference without a uid names nothing we can look for */
		if (si_get(uids, uid, &pos))
			return false;
		any++;
	}
	return any > 0;
}

void mdl_collect_orphans(struct mdl *m)
{
	const struct scenario *s = m->s;
	struct strindex uids = { 0 };
	struct tl_objref *refs = NULL;
	char *text = xstrdup(""), *next;
	size_t n = 0;

	for (size_t i = 0; i < s->nobjs; i++)
		if (s->objs[i]->uid && s->objs[i]->uid[0])
			si_put(&uids, s->objs[i]->uid, i);
	des_set_cause(m->w, CAUSE_GC);
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];
		const struct val *ref;

		if (!o->owner_refs || !all_owners_gone(o, &uids))
			continue;
		ref = o->owner_refs->u.list.items[0];
		if (n < 5) {
			next = xasprintf("%s%s%s %s%s%s (owner %s %s, uid %s)", text, n ? ", " : "",
					 o->kind, o->ns, o->ns[0] ? "/" : "", o->name,
					 val_str(val_map_get(ref, "kind"), "?"),
					 val_str(val_map_get(ref, "name"), "?"),
					 val_str(val_map_get(ref, "uid"), ""));
			free(text);
			text = next;
		}
		refs = xreallocarray(refs, n + 1, sizeof(*refs));
		refs[n++] = (struct tl_objref){ o->kind, o->ns, o->name, 0 };
		/* (the names are the scenario's: they outlive the deletion) */
		api_delete(m->api, o->kind, o->ns, o->name);
	}
	des_set_cause(m->w, NULL);
	if (n) {
		next = xasprintf("the garbage collector deletes %zu loaded object%s whose owners are "
				 "in none of the inputs (no object has the uid of any of its "
				 "ownerReferences), with background propagation, as a cluster's "
				 "does: %s%s",
				 n, n == 1 ? "" : "s", text, n > 5 ? ", …" : "");
		tl_notice_add(des_timeline(m->w), des_now(m->w), TL_INFO, next, refs, n);
		free(next);
	}
	free(text);
	free(refs);
	si_release(&uids);
}

static void watch_workspace(void *ctx, enum api_event_type type, const struct obj *old,
			    const struct obj *new)
{
	struct mdl *m = ctx;

	(void)old;
	if (type != API_DELETED || !new->uid || !new->uid[0])
		return;
	collect(m, "Job", new->ns, new->uid);
	collect(m, "PersistentVolumeClaim", new->ns, new->uid);
}

/* ---------------------------------------------------------------- git remotes */

static uint64_t fnv1a(const char *s, uint64_t h)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV_BASIS 0xcbf29ce484222325ull

/* The low @digits hex digits of @v, lower case, most significant first ("%0*llx" without printf). */
static void put_hex(char *out, uint64_t v, int digits)
{
	for (int i = digits - 1; i >= 0; i--, v >>= 4)
		out[i] = "0123456789abcdef"[v & 15];
}

/* derive_sha() - 40 hex digits from the NUL-separated @parts. */
static void derive_sha(char *out, const char *a, const char *b, const char *c)
{
	uint64_t h = FNV_BASIS;
	const char *parts[3] = { a, b, c };

	for (int i = 0; i < 3; i++) {
		h = fnv1a(parts[i] ? parts[i] : "", h);
		h ^= 0xff;
		h *= 0x100000001b3ull;
	}
	for (int w = 0; w < 3; w++) {
		uint64_t z = (h += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		if (w < 2)
			put_hex(out + 16 * w, z, 16);
		else
			put_hex(out + 32, z >> 32, 8);
	}
	out[40] = '\0';
}

static int cmp_ref(const void *a, const void *b)
{
	const struct remote_ref *x = a, *y = b;
	int c = strcmp(x->url, y->url);

	return c ? c : strcmp(x->ref, y->ref);
}

static struct remote_ref *find_ref(const struct mdl *m, const char *url, const char *ref)
{
	struct remote_ref key = { .url = url, .ref = (char *)ref };

	if (!m->nrefs)
		return NULL;
	return bsearch(&key, m->refs, m->nrefs, sizeof(*m->refs), cmp_ref);
}

/* ref_entry() - the entry of (@url, canonical @ref), added when missing (before sorting). */
static struct remote_ref *ref_entry(struct mdl *m, const char *url, const char *ref)
{
	for (size_t i = 0; i < m->nrefs; i++)
		if (strcmp(m->refs[i].url, url) == 0 && strcmp(m->refs[i].ref, ref) == 0)
			return &m->refs[i];
	m->refs = xreallocarray(m->refs, m->nrefs + 1, sizeof(*m->refs));
	memset(&m->refs[m->nrefs], 0, sizeof(m->refs[0]));
	m->refs[m->nrefs].url = url;
	m->refs[m->nrefs].ref = xstrdup(ref);
	return &m->refs[m->nrefs++];
}

static int cmp_commit(const void *a, const void *b)
{
	const struct commit *x = a, *y = b;

	return x->at_ms < y->at_ms ? -1 : x->at_ms > y->at_ms;
}

static void build_remotes(struct mdl *m)
{
	const struct scn_models *cfg = m->cfg;

	for (size_t i = 0; i < cfg->nrepos; i++) {
		const struct scn_git_repo *g = &cfg->repos[i];

		for (size_t k = 0; k < g->nrefs; k++) {
			struct remote_ref *r =
				ref_entry(m, g->url, scn_canonical_ref(g->refs[k].ref, g->head));

			r->has_initial = true;
			memcpy(r->initial, g->refs[k].sha, sizeof(r->initial));
		}
	}
	for (size_t i = 0; i < m->s->nmevents; i++) {
		const struct scn_mevent *e = &m->s->mevents[i];
		struct remote_ref *r;
		char nth[32];

		if (e->type != SCN_MEV_COMMIT)
			continue;
		r = ref_entry(m, e->repo_url,
			      scn_canonical_ref(e->ref, scn_git_head(cfg, e->repo_url)));
		r->commits = xreallocarray(r->commits, r->n + 1, sizeof(*r->commits));
		r->commits[r->n].at_ms = e->at_ms;
		snprintf(nth, sizeof(nth), "commit %zu", r->n + 1);
		if (e->sha)
			snprintf(r->commits[r->n].sha, 41, "%s", e->sha);
		else
			derive_sha(r->commits[r->n].sha, r->url, r->ref, nth);
		r->n++;
	}
	/* commits in time order; mergesort-free stable sort: insertion (few commits per ref) */
	for (size_t i = 0; i < m->nrefs; i++) {
		struct remote_ref *r = &m->refs[i];

		for (size_t a = 1; a < r->n; a++) {
			struct commit c = r->commits[a];
			size_t b = a;

			for (; b > 0 && cmp_commit(&r->commits[b - 1], &c) > 0; b--)
				r->commits[b] = r->commits[b - 1];
			r->commits[b] = c;
		}
	}
	if (m->nrefs)
		qsort(m->refs, m->nrefs, sizeof(*m->refs), cmp_ref);
}

bool mdl_job_start_time(const struct mdl *m, const char *ns, const char *name, int64_t *ms)
{
	char *k = key2(ns, name);
	size_t i = index_get(&m->job_index, k);

	free(k);
	if (i == SIZE_MAX || !live(&m->jobs[i]) || m->jobs[i].start_time_ms < 0)
		return false;
	*ms = m->jobs[i].start_time_ms;
	return true;
}

char *mdl_armed_text(const struct mdl *m, const char *ns, const char *name)
{
	char *k = key2(ns, name), *text = NULL;
	size_t i = index_get(&m->ws_index, k);
	const struct ws_state *ws = i == SIZE_MAX ? NULL : &m->wss[i];

	free(k);
	for (size_t a = 0; ws && a < ws->narmed + ws->nviol; a++) {
		size_t ev = a < ws->narmed ? ws->armed[a] : ws->viol[a - ws->narmed].mevent;
		char *next = xasprintf("%s%s%zu", text ? text : "", text ? "," : "", m->s->mevents[ev].index + 1);

		free(text);
		text = next;
	}
	return text;
}

int mdl_git_resolve(const struct mdl *m, const char *repo_url, const char *ref, int64_t now_ms,
		    char *sha_out)
{
	const char *head = scn_git_head(m->cfg, repo_url);
	const struct remote_ref *r;
	const char *c;

	for (size_t i = 0; i < m->cfg->nrepos; i++) {
		const struct scn_git_repo *g = &m->cfg->repos[i];

		if (strcmp(g->url, repo_url) != 0)
			continue;
		for (size_t k = 0; k < g->nunreachable; k++)
			if (now_ms >= g->unreachable[k].from_ms && now_ms < g->unreachable[k].until_ms)
				return -1;
	}
	if (strlen(ref) == 40) {
		memcpy(sha_out, ref, 41);
		return 0;
	}
	c = scn_canonical_ref(ref, head);
	r = find_ref(m, repo_url, c);
	if (r) {
		const struct commit *last = NULL;

		for (size_t i = 0; i < r->n && r->commits[i].at_ms <= now_ms; i++)
			last = &r->commits[i];
		if (last) {
			memcpy(sha_out, last->sha, 41);
			return 0;
		}
		if (r->has_initial) {
			memcpy(sha_out, r->initial, 41);
			return 0;
		}
	}
	derive_sha(sha_out, repo_url, c, "initial");
	return 0;
}

/* ---------------------------------------------------------------- model events */

static void event_warning(struct mdl *m, const struct scn_mevent *e, const char *why)
{
	char at[GT_DURATION_BUFSZ];

	gt_format_duration(e->at_ms + m->s->resumed_ms, at, sizeof(at));
	notice(m, TL_WARNING, e->target.kind, e->target.ns, e->target.name,
	       "%s:%u:%u: scenario event %zu (%s) at %s did not apply: %s", e->file ? e->file : "?",
	       e->mark.line, e->mark.col, e->index + 1, scn_mevent_type_name(e->type), at, why);
}

static void fire_mevent(struct des *w, void *ctx, void *arg)
{
	struct mdl *m = ctx;
	size_t i = (size_t)(uintptr_t)arg;
	const struct scn_mevent *e = &m->s->mevents[i];
	char cause[64], value[GT_RFC3339_BUFSZ + 8], sha[41];
	int rc = 0;

	snprintf(cause, sizeof(cause), "scenario event %zu (%s)", e->index + 1,
		 scn_mevent_type_name(e->type));
	des_set_cause(w, cause);
	switch (e->type) {
	case SCN_MEV_COMMIT:
		if (mdl_git_resolve(m, e->repo_url, e->ref, des_now(w), sha) != 0)
			snprintf(sha, sizeof(sha), "?");
		notice(m, TL_INFO, NULL, NULL, NULL, "commit %.12s on %s %s (%s)", sha, e->repo_url,
		       e->ref, cause);
		return;
	case SCN_MEV_FAIL_NEXT:
	case SCN_MEV_SUCCEED_NEXT:
	case SCN_MEV_VIOLATE:
		arm(m, i);
		return;
	case SCN_MEV_RECONCILE_REQUEST:
		if (e->value)
			snprintf(value, sizeof(value), "%s", e->value);
		else
			gt_format_rfc3339_nano(m->s->start_unix_ms + des_now(w), value, sizeof(value));
		rc = api_set_annotation(m->api, "Workspace", e->target.ns, e->target.name,
					MDL_ANN_RECONCILE_REQUEST, value);
		break;
	case SCN_MEV_APPROVE:
		rc = api_set_annotation(m->api, "Workspace", e->target.ns, e->target.name,
					MDL_ANN_APPROVED, "true");
		break;
	}
	if (rc != 0)
		event_warning(m, e, api_strerror(rc));
}

void mdl_schedule_events(struct mdl *m)
{
	/* a resumed run's past is in the snapshot (a commit stays in its remote's history) */
	for (size_t i = 0; i < m->s->nmevents; i++)
		if (!m->s->mevents[i].done)
			des_at(m->w, m->s->mevents[i].at_ms, DES_PRIO_SCRIPT, fire_mevent, m,
			       (void *)(uintptr_t)i);
}

/* ---------------------------------------------------------------- lifecycle and stats */

struct mdl *mdl_new(const struct scenario *s, struct des *w, uint64_t trial)
{
	struct mdl *m = xcalloc(1, sizeof(*m));

	m->s = s;
	m->cfg = &s->models;
	m->w = w;
	m->api = des_api(w);
	m->seed = des_params(w)->seed;
	m->trial = trial;
	m->series = xcalloc(1, sizeof(*m->series));
	m->capseries = 1;
	m->series[m->nseries++] = (struct mdl_cap_point){ 0, 0, 0 };
	build_remotes(m);
	/* a resumed run's: what had fired before the snapshot and not met its Job */
	for (size_t i = 0; i < s->narmed; i++)
		if (s->armed[i].mevent < s->nmevents)
			arm(m, s->armed[i].mevent);
	api_watch(m->api, "Job", watch_job, m);
	api_watch(m->api, "Workspace", watch_workspace, m);
	api_watch(m->api, "PersistentVolumeClaim", watch_pvc, m);
	return m;
}

void mdl_free(struct mdl *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->njobs; i++) {
		free(m->jobs[i].ns);
		free(m->jobs[i].name);
		free(m->jobs[i].ws);
		free(m->jobs[i].uid);
	}
	free(m->jobs);
	free(m->stats);
	si_release(&m->job_index);
	for (size_t i = 0; i < m->nwss; i++) {
		free(m->wss[i].ns);
		free(m->wss[i].name);
		for (size_t k = 0; k < m->wss[i].nviol; k++)
			free(m->wss[i].viol[k].policy);
		free(m->wss[i].viol);
		free(m->wss[i].armed);
	}
	free(m->wss);
	si_release(&m->ws_index);
	free(m->queue);
	free(m->series);
	for (size_t i = 0; i < m->nrefs; i++) {
		free(m->refs[i].ref);
		free(m->refs[i].commits);
	}
	free(m->refs);
	free(m);
}

size_t mdl_jobs(const struct mdl *m, const struct mdl_job_stat **out)
{
	struct mdl *mm = (struct mdl *)m; /* the stats array is a cache */

	free(mm->stats);
	mm->stats = xcalloc(m->njobs ? m->njobs : 1, sizeof(*mm->stats));
	for (size_t i = 0; i < m->njobs; i++)
		mm->stats[i] = m->jobs[i].st;
	*out = mm->stats;
	return m->njobs;
}

size_t mdl_capacity_series(const struct mdl *m, const struct mdl_cap_point **out)
{
	*out = m->series;
	return m->nseries;
}

uint32_t mdl_capacity_peak(const struct mdl *m)
{
	return m->peak;
}

uint32_t mdl_capacity(const struct mdl *m)
{
	return m->cfg->capacity;
}

/* ---------------------------------------------------------------- selector strings */

struct lexer {
	const char *p;
	char *err;
	size_t len;
};

static void skip_blanks(struct lexer *lx)
{
	while (*lx->p == ' ' || *lx->p == '\t')
		lx->p++;
}

/* A key or value token: everything up to a blank or one of the operator characters. */
static char *token(struct lexer *lx)
{
	const char *b;

	skip_blanks(lx);
	b = lx->p;
	while (*lx->p && !strchr(" \t,=!()<>", *lx->p))
		lx->p++;
	return xstrndup(b, (size_t)(lx->p - b));
}

static int fail(struct lexer *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct lexer *lx, const char *fmt, ...)
{
	va_list ap;

	if (lx->len) {
		va_start(ap, fmt);
		vsnprintf(lx->err, lx->len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void req_add_value(struct lbl_req *r, char *v)
{
	r->values = xreallocarray(r->values, r->nvalues + 1, sizeof(*r->values));
	r->values[r->nvalues++] = v;
}

static int parse_req(struct lexer *lx, struct lbl_req *r)
{
	char msg[LBL_ERRLEN];
	bool neg;

	skip_blanks(lx);
	neg = *lx->p == '!';
	if (neg)
		lx->p++;
	r->key = token(lx);
	if (!r->key[0])
		return fail(lx, "found '%c', expected: identifier", *lx->p ? *lx->p : ' ');
	if (lbl_validate_key(r->key, msg, sizeof(msg)) != LBL_OK)
		return fail(lx, "invalid label key \"%s\": %s", r->key, msg);
	skip_blanks(lx);
	if (neg || *lx->p == ',' || *lx->p == '\0') {
		r->op = neg ? LBL_OP_DOES_NOT_EXIST : LBL_OP_EXISTS;
		return 0;
	}
	if (*lx->p == '=' || (lx->p[0] == '!' && lx->p[1] == '=')) {
		r->op = *lx->p == '=' ? LBL_OP_EQUALS : LBL_OP_NOT_IN;
		lx->p += *lx->p == '=' && lx->p[1] == '=' ? 2 : *lx->p == '=' ? 1 : 2;
		req_add_value(r, token(lx));
	} else if (*lx->p == '<' || *lx->p == '>') {
		return fail(lx, "operator '%c' is not a label selector operator", *lx->p);
	} else {
		char *word = token(lx);

		if (strcmp(word, "in") == 0 || strcmp(word, "notin") == 0) {
			r->op = word[0] == 'i' ? LBL_OP_IN : LBL_OP_NOT_IN;
			free(word);
			skip_blanks(lx);
			if (*lx->p != '(')
				return fail(lx, "found '%c', expected: '('", *lx->p ? *lx->p : ' ');
			lx->p++;
			for (;;) {
				req_add_value(r, token(lx));
				skip_blanks(lx);
				if (*lx->p == ',') {
					lx->p++;
					continue;
				}
				if (*lx->p == ')') {
					lx->p++;
					break;
				}
				return fail(lx, "found '%c', expected: ',' or ')'",
					    *lx->p ? *lx->p : ' ');
			}
		} else {
			int rc = fail(lx, "found '%s', expected: in, notin, =, ==, !=", word);

			free(word);
			return rc;
		}
	}
	for (size_t i = 0; i < r->nvalues; i++)
		if (lbl_validate_value(r->values[i], msg, sizeof(msg)) != LBL_OK)
			return fail(lx, "invalid label value \"%s\": %s", r->values[i], msg);
	return 0;
}

int mdl_parse_selector(const char *s, struct lbl_selector *out, char *err, size_t len)
{
	struct lexer lx = { s, err, len };

	memset(out, 0, sizeof(*out));
	skip_blanks(&lx);
	if (!*lx.p)
		return 0;
	for (;;) {
		struct lbl_req r = { 0 };
		size_t b;

		if (parse_req(&lx, &r) != 0) {
			free(r.key);
			for (size_t i = 0; i < r.nvalues; i++)
				free(r.values[i]);
			free(r.values);
			lbl_selector_release(out);
			return -1;
		}
		/* keep requirements sorted by key, stably (the struct's invariant) */
		out->reqs = xreallocarray(out->reqs, out->n + 1, sizeof(*out->reqs));
		for (b = out->n; b > 0 && strcmp(out->reqs[b - 1].key, r.key) > 0; b--)
			out->reqs[b] = out->reqs[b - 1];
		out->reqs[b] = r;
		out->n++;
		skip_blanks(&lx);
		if (*lx.p == '\0')
			return 0;
		if (*lx.p != ',') {
			int rc = fail(&lx, "found '%c', expected: ','", *lx.p);

			lbl_selector_release(out);
			return rc;
		}
		lx.p++;
	}
}
