/* Workspace controller and RefWatcher wired into the world; see magos_wc.h. */
#include "sim/wire/magos_wc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_refwatcher.h"
#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/core/rng.h"

/* Per-Workspace state of the adapter (not the controller's): RNG streams, hang mark, warnings. */
struct wsstate {
	char *ns, *name;
	struct rng run_rng, poll_rng;
	bool hung;
	char *warned_interval; /* last reconcile-interval value warned about */
	char *warned_poll;     /* last git-poll-interval value warned about */
	bool warned_empty_rev; /* the empty detected-revision hazard was reported */
	/*
	 * getSpecHash of the Workspace version (uid, generation) last seen: the
	 * spec only changes with the generation, and hashing (JSON encoding and
	 * SHA-256) was a sixth of a Magos trial's CPU when done on every pass.
	 */
	char *hash_uid;
	int64_t hash_gen;
	char hash[9];
};

struct mwc {
	struct des *w;
	struct mwc_params p;
	struct ctl *ws_ctl, *rw_ctl;
	struct mrw_registry reg;
	struct wsstate **states; /* open addressing, power-of-two size */
	size_t nstates, cap;
	struct mwc_poll_stats stats;
	/*
	 * A Workspace hit the interval <= 0 hang: upstream the controller's only
	 * worker (MaxConcurrentReconciles 1) never returns, so no Workspace is
	 * reconciled any more.  NULL until then; the culprit's "ns/name".
	 */
	char *hung_by;
	/*
	 * The RefWatcher's pushes not yet popped, by entry id: a snapshot carries
	 * them (mwc_restore_poll()), since upstream's heap keeps stale pushes
	 * that still poll (magos_refwatcher.h).  @seq: the order they were
	 * pushed in, which orders pushes due at one instant.
	 */
	struct pending_polls {
		struct pending_poll { int64_t at; uint64_t seq; } *p;
		size_t n, cap;
	} *pend;
	size_t npend;
	uint64_t poll_seq;
};

static uint64_t fnv(const char *a, const char *b)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *p = (const unsigned char *)a; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	h = (h ^ '/') * 0x100000001b3ull;
	for (const unsigned char *p = (const unsigned char *)b; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h;
}

static struct wsstate *state_lookup(const struct mwc *m, const char *ns, const char *name)
{
	if (!m->cap)
		return NULL;
	for (size_t i = fnv(ns, name) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct wsstate *s = m->states[i];

		if (!s)
			return NULL;
		if (strcmp(s->ns, ns) == 0 && strcmp(s->name, name) == 0)
			return s;
	}
}

static void state_insert(struct mwc *m, struct wsstate *s)
{
	size_t i = fnv(s->ns, s->name) & (m->cap - 1);

	while (m->states[i])
		i = (i + 1) & (m->cap - 1);
	m->states[i] = s;
}

static struct wsstate *state_get(struct mwc *m, const char *ns, const char *name)
{
	struct wsstate *s = state_lookup(m, ns, name);
	char *id;

	if (s)
		return s;
	if (2 * (m->nstates + 1) > m->cap) {
		struct wsstate **old = m->states;
		size_t oldcap = m->cap;

		m->cap = m->cap ? 2 * m->cap : 64;
		m->states = xcalloc(m->cap, sizeof(*m->states));
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				state_insert(m, old[i]);
		free(old);
	}
	s = xcalloc(1, sizeof(*s));
	s->ns = xstrdup(ns);
	s->name = xstrdup(name);
	id = xasprintf("workspace/%s/%s/run-id", ns, name);
	rng_stream(&s->run_rng, des_params(m->w)->seed, m->p.trial, id);
	free(id);
	id = xasprintf("refwatcher/%s/%s", ns, name);
	rng_stream(&s->poll_rng, des_params(m->w)->seed, m->p.trial, id);
	free(id);
	state_insert(m, s);
	m->nstates++;
	return s;
}

/* ---- small helpers ------------------------------------------------------- */

static void notice(struct mwc *m, enum tl_severity sev, const char *text, const char *kind,
		   const char *ns, const char *name)
{
	struct tl_objref ref = { kind, ns, name, 0 };

	tl_notice_add(des_timeline(m->w), des_now(m->w), sev, text, &ref, 1);
}

/*
 * A Go duration annotation in ms: Go's nanoseconds truncated toward zero, a
 * positive value below 1 ms raised to 1 ms.  Returns 0 when it parsed.
 */
static int parse_duration_ms(const char *s, int64_t *ms, int64_t *ns_out)
{
	int64_t ns;

	if (gt_parse_duration_ns(s, &ns, NULL, 0) != 0)
		return -1;
	*ms = ns / 1000000;
	if (ns > 0 && *ms == 0)
		*ms = 1;
	if (ns_out)
		*ns_out = ns;
	return 0;
}

static void format_time(const struct mwc *m, int64_t t_ms, char *buf, size_t len)
{
	gt_format_rfc3339(m->p.anchor_unix_ms + t_ms, buf, len);
}

/* Decodes standard base64 @in (padding optional); returns a new string (NULL when invalid). */
static char *b64_decode(const char *in)
{
	size_t n = strlen(in), o = 0;
	char *out = xmalloc(n + 1);
	uint32_t acc = 0;
	int bits = 0;

	for (size_t i = 0; i < n; i++) {
		char c = in[i];
		int v;

		if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= 'a' && c <= 'z')
			v = c - 'a' + 26;
		else if (c >= '0' && c <= '9')
			v = c - '0' + 52;
		else if (c == '+')
			v = 62;
		else if (c == '/')
			v = 63;
		else if (c == '=')
			break;
		else {
			free(out);
			return NULL;
		}
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (char)((acc >> bits) & 0xff);
		}
	}
	out[o] = '\0';
	return out;
}

/* string(secret.Data["repoURL"]): data is base64 in manifests; stringData is plain. New string or NULL. */
static char *secret_repo_url(const struct obj *s)
{
	const struct val *d = val_map_get(val_map_get(s->rest, "data"), "repoURL");
	const struct val *sd = val_map_get(val_map_get(s->rest, "stringData"), "repoURL");

	if (sd && sd->type == VAL_STRING)
		return xstrdup(sd->u.s);
	if (d && d->type == VAL_STRING)
		return b64_decode(d->u.s);
	return NULL;
}

static bool is_repo_secret(const struct obj *s)
{
	const char *t = obj_strmap_get(&s->labels, MW_LABEL_SECRET_TYPE);

	return t && strcmp(t, MW_SECRET_TYPE_REPOSITORY) == 0;
}

static bool match_repo_secret(const struct obj *o, void *ctx)
{
	(void)ctx;
	return is_repo_secret(o);
}

/* isOwned of Step 2: an ownerReference with the Workspace's UID (@ctx). */
static bool match_owned(const struct obj *o, void *ctx)
{
	return obj_owned_by_uid(o, ctx);
}

/* getRepoCredentials: first repository Secret (by name) whose repoURL matches. */
static const struct obj *find_repo_secret(struct api *api, const char *ns, const char *url)
{
	struct api_list l;
	const struct obj *found = NULL;

	api_list_init(&l);
	api_list(api, "Secret", ns, match_repo_secret, NULL, &l);
	for (size_t i = 0; i < l.n && !found; i++) {
		char *u = secret_repo_url(l.items[i]);

		if (u && strcmp(u, url) == 0)
			found = l.items[i];
		free(u);
	}
	api_list_release(&l);
	return found;
}

/* ---- applying the engine's actions ---------------------------------------- */

static int apply_status(struct mwc *m, const char *ns, const char *name,
			const struct mw_status_req *req, const char *now)
{
	struct api *api = des_api(m->w);
	const struct obj *cur = api_get(api, "Workspace", ns, name);
	struct val *st;
	struct obj *o;

	if (!cur)
		return API_ENOTFOUND;
	st = mw_update_status(cur->status, req, now);
	if (!st)
		return 0;
	o = obj_new(cur->api_version, cur->kind, ns, name);
	o->status = st;
	o->resource_version = cur->resource_version;
	return api_update_status(api, o);
}

/* r.Update of the in-memory Workspace after a metadata edit. */
static int apply_update(struct mwc *m, const char *ns, const char *name,
			const struct mw_action *a)
{
	struct api *api = des_api(m->w);
	const struct obj *cur = api_get(api, "Workspace", ns, name);
	struct obj *o;

	if (!cur)
		return API_ENOTFOUND;
	o = obj_copy(cur);
	if (a->type == MW_ACT_ADD_FINALIZER)
		obj_add_finalizer(o, MW_FINALIZER);
	else if (a->type == MW_ACT_REMOVE_FINALIZER)
		obj_remove_finalizer(o, MW_FINALIZER);
	else
		obj_strmap_del(&o->annotations, a->key);
	return api_update(api, o);
}

/* r.Create of a Job or the PVC, with the Job API's validation the engines can trip. */
static int apply_create(struct mwc *m, struct mw_action *a, char **errtext)
{
	struct obj *o = a->obj;
	bool job = strcmp(o->kind, "Job") == 0;
	const char *res = job ? "jobs.batch" : "persistentvolumeclaims";
	int64_t deadline = val_int(val_map_get(o->spec, "activeDeadlineSeconds"), 0);
	char *name = xstrdup(o->name);
	int rc;

	if (job && deadline < 0) {
		*errtext = xasprintf("Job.batch \"%s\" is invalid: spec.activeDeadlineSeconds: "
				     "Invalid value: %" PRId64 ": must be greater than or equal to 0",
				     name, deadline);
		free(name);
		return API_EINVALID;
	}
	a->obj = NULL;
	rc = api_create(des_api(m->w), o);
	if (rc == API_EALREADYEXISTS)
		*errtext = xasprintf("%s \"%s\" already exists", res, name);
	else if (rc != 0)
		*errtext = xasprintf("%s \"%s\": %s", res, name, api_strerror(rc));
	free(name);
	return rc;
}

static int apply_action(struct mwc *m, const char *ns, const char *name, struct mw_action *a,
			const char *now, char **errtext)
{
	struct api *api = des_api(m->w);
	int rc = 0;

	switch (a->type) {
	case MW_ACT_ADD_FINALIZER:
	case MW_ACT_REMOVE_FINALIZER:
	case MW_ACT_UPDATE_DEL_ANN:
		rc = apply_update(m, ns, name, a);
		break;
	case MW_ACT_PATCH_META:
		rc = api_patch_meta(api, "Workspace", ns, name, a->patch);
		break;
	case MW_ACT_STATUS:
		rc = apply_status(m, ns, name, &a->st, now);
		break;
	case MW_ACT_CREATE:
		return apply_create(m, a, errtext);
	case MW_ACT_DELETE_JOB:
		rc = api_delete(api, "Job", ns, a->key);
		break;
	}
	if (rc != 0)
		*errtext = xasprintf("workspaces.magosproject.io \"%s\": %s", name,
				     api_strerror(rc));
	return rc;
}

/* Warn once per value about an annotation the controllers silently ignore. */
static void warn_duration(struct mwc *m, struct wsstate *s, char **warned, const struct obj *ws,
			  const char *key, const char *value, const char *what)
{
	char *text;

	if (*warned && strcmp(*warned, value) == 0)
		return;
	free(*warned);
	*warned = xstrdup(value);
	text = xasprintf("workspace %s/%s: annotation %s=\"%s\" %s", ws->ns, ws->name, key, value,
			 what);
	notice(m, TL_WARNING, text, "Workspace", ws->ns, ws->name);
	free(text);
	(void)s;
}

static void fill_sched(struct mwc *m, struct wsstate *s, const struct obj *ws,
		       struct mw_sched *sc, char *ibuf, size_t ilen)
{
	const char *a = obj_strmap_get(&ws->annotations, MW_ANN_RECONCILE_INTERVAL);
	const char *next = val_str(val_map_get(ws->status, "nextReconcileTime"), NULL);
	const char *obs = val_str(val_map_get(ws->status, "observedReconcileInterval"), "");
	int64_t ms, ns = (int64_t)MW_DEFAULT_INTERVAL_MS * 1000000;
	int64_t unix_ms;

	sc->interval_ms = MW_DEFAULT_INTERVAL_MS;
	if (a) {
		if (parse_duration_ms(a, &ms, &ns) == 0) {
			sc->interval_ms = ms;
		} else {
			ns = (int64_t)MW_DEFAULT_INTERVAL_MS * 1000000;
			warn_duration(m, s, &s->warned_interval, ws, MW_ANN_RECONCILE_INTERVAL, a,
				      "is not a Go duration; the controller silently uses the "
				      "default 3m0s");
		}
	}
	gt_format_duration_ns(ns, ibuf, ilen);
	sc->interval_str = ibuf;
	sc->has_next = next && *next && gt_parse_rfc3339(next, &unix_ms, NULL, 0) == 0;
	sc->next_ms = sc->has_next ? unix_ms - m->p.anchor_unix_ms : 0;
	sc->observed_ok = *obs && parse_duration_ms(obs, &sc->observed_ms, NULL) == 0;
}

/* Whether status map @st holds @key as the string @want. */
static bool status_says(const struct val *st, const char *key, const char *want)
{
	const struct val *v = st && st->type == VAL_MAP ? val_map_get(st, key) : NULL;

	return v && v->type == VAL_STRING && strcmp(v->u.s, want) == 0;
}

/* updateNextReconcileTime: nextReconcileTime and observedReconcileInterval, unconditionally. */
static void write_schedule(struct mwc *m, const char *ns, const char *name,
			   const struct mw_result *r)
{
	struct api *api = des_api(m->w);
	const struct obj *cur = api_get(api, "Workspace", ns, name);
	char buf[GT_RFC3339_BUFSZ];
	struct obj *o;

	if (!cur)
		return;
	format_time(m, r->next_ms, buf, sizeof(buf));
	if (status_says(cur->status, "nextReconcileTime", buf) &&
	    status_says(cur->status, "observedReconcileInterval", r->interval_str))
		return; /* the store would find the new status equal and write nothing */
	o = obj_new(cur->api_version, cur->kind, ns, name);
	o->status = cur->status ? val_copy(cur->status) : val_new_map();
	val_map_set(o->status, "nextReconcileTime", val_new_string(buf));
	val_map_set(o->status, "observedReconcileInterval", val_new_string(r->interval_str));
	o->resource_version = cur->resource_version;
	api_update_status(api, o);
}

static struct ctl_result reconcile_workspace(void *ctx, struct des *w, const char *ns,
					     const char *name, int64_t now)
{
	struct mwc *m = ctx;
	struct api *api = des_api(w);
	struct ctl_result res = { 0 };
	struct wsstate *s = state_get(m, ns, name);
	const struct obj *ws;
	struct mw_input in;
	struct mw_result r;
	struct api_list jobs;
	char hash[9], *pname, *aname, *pvc, ibuf[GT_DURATION_BUFSZ], nowbuf[GT_RFC3339_BUFSZ];
	char stamp[32];
	struct rng peek;
	size_t k = 0;

	if (s->hung || m->hung_by)
		return res;
	ws = api_get(api, "Workspace", ns, name);
	if (!ws)
		return res;

	memset(&in, 0, sizeof(in));
	if (!s->hash_uid || strcmp(s->hash_uid, ws->uid ? ws->uid : "") != 0 || s->hash_gen != ws->generation) {
		mw_get_spec_hash(ws->spec, s->hash);
		free(s->hash_uid);
		s->hash_uid = xstrdup(ws->uid ? ws->uid : "");
		s->hash_gen = ws->generation;
	}
	memcpy(hash, s->hash, sizeof(hash));
	in.spec_hash = s->hash;
	pname = mw_job_name(name, "plan", hash);
	aname = mw_job_name(name, "apply", hash);
	pvc = mw_pvc_name(name);
	api_list_init(&jobs);
	/*
	 * The owner's Jobs, as Step 2 finds them (an ownerReference with the
	 * Workspace's UID).  Every Job a Workspace owns is one this controller
	 * created, named "<ws>-plan-<h>" or "<ws>-apply-<h>", so a name-prefix
	 * range holds them all: listing every Job of the namespace per
	 * reconcile made large fleets quadratic.  (A Job someone else created
	 * with an ownerReference to the Workspace under another name would be
	 * deleted upstream and is left here.)
	 */
	{
		char *prefix = xstrjoin((const char *const[]){ name, "" }, 2, "-");

		api_list_prefix(api, "Job", ns, prefix, match_owned, (void *)ws->uid, &jobs);
		free(prefix);
	}

	in.ws = ws;
	in.plan_job = api_get(api, "Job", ns, pname);
	in.apply_job = api_get(api, "Job", ns, aname);
	in.jobs = jobs.items;
	in.njobs = jobs.n;
	in.pvc = api_get(api, "PersistentVolumeClaim", ns, pvc);
	in.project = api_get(api, "Project", ns, val_str(val_path(ws->spec, "projectRef.name"), ""));
	in.repo_secret = find_repo_secret(api, ns, val_str(val_path(ws->spec, "source.repoURL"), ""));
	fill_sched(m, s, ws, &in.sched, ibuf, sizeof(ibuf));
	{
		/*
		 * Spec §7 #20: the Rollout counts the key's mere presence as
		 * pending; an empty value differs from every observedRevision, so
		 * each Applied run resets (NewRevisionDetected) and runs again; and
		 * a successful apply removes the key only when non-empty.
		 */
		const char *rev = obj_strmap_get(&ws->annotations, MW_ANN_DETECTED_REVISION);

		if (rev && !rev[0] && !s->warned_empty_rev) {
			char *text = xasprintf(
				"workspace %s/%s: annotation %s is present but empty: the "
				"Workspace re-runs after every apply (NewRevisionDetected), nothing "
				"removes the key, and a Rollout waits on it forever (remove the "
				"annotation)",
				ns, name, MW_ANN_DETECTED_REVISION);

			notice(m, TL_WARNING, text, "Workspace", ns, name);
			free(text);
			s->warned_empty_rev = true;
		} else if (!rev || rev[0]) {
			s->warned_empty_rev = false;
		}
	}
	in.now_ms = now;
	format_time(m, now, nowbuf, sizeof(nowbuf));
	in.now_rfc3339 = nowbuf;
	/* "2026-04-26T10:00:00Z" → "20260426T100000" */
	for (const char *c = nowbuf; *c && *c != 'Z' && k + 1 < sizeof(stamp); c++)
		if (*c != '-' && *c != ':')
			stamp[k++] = *c;
	stamp[k] = '\0';
	in.run_id_stamp = stamp;
	peek = s->run_rng;
	in.run_id_rand = rng_next_u32(&peek);

	mw_result_init(&r);
	mw_reconcile(&in, &r);
	/* The store may change under `in` from here on: nothing below reads it. */
	api_list_release(&jobs);
	if (r.used_run_rand)
		s->run_rng = peek;

	for (size_t i = 0; i < r.n; i++) {
		struct mw_action *a = &r.acts[i];
		char *err = NULL;
		int rc = apply_action(m, ns, name, a, nowbuf, &err);

		if (rc == 0 || a->on_fail == MW_FAIL_IGNORE) {
			free(err);
			continue;
		}
		if (a->on_fail == MW_FAIL_RECONCILE_ERROR) {
			struct mw_status_req st;

			mw_error_status(a, err, &st);
			apply_status(m, ns, name, &st, nowbuf);
			mw_status_req_release(&st);
		}
		free(err);
		res.err = rc < 0 ? rc : -1;
		goto out_release;
	}
	if (r.outcome == MW_OUT_HANG) {
		s->hung = true;
		m->hung_by = xasprintf("%s/%s", ns, name);
		notice(m, TL_ERROR, r.hang_msg, "Workspace", ns, name);
	} else if (r.schedule) {
		write_schedule(m, ns, name, &r);
		res.requeue_after_ms = r.requeue_after_ms;
	}

out_release:
	mw_result_release(&r);
	free(pname);
	free(aname);
	free(pvc);
	return res;
}

/*
 * Owns(Job), Owns(PVC): handler.EnqueueRequestForOwner with
 * OnlyControllerOwner, the controller ownerReference of kind Workspace in
 * the magosproject.io group names the Workspace to reconcile.
 */
static void map_owner(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	const struct val *ref = obj_controller_ref(o);
	const char *av = val_str(val_map_get(ref, "apiVersion"), "");

	(void)ctx;
	(void)w;
	if (ref && strcmp(val_str(val_map_get(ref, "kind"), ""), "Workspace") == 0 &&
	    strncmp(av, "magosproject.io/", strlen("magosproject.io/")) == 0)
		ctl_keys_add(out, o->ns, val_str(val_map_get(ref, "name"), ""));
}

/* findWorkspacesForSecret. */
static void map_secret(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	struct api_list l;
	char *url;

	(void)ctx;
	if (!is_repo_secret(o))
		return;
	url = secret_repo_url(o);
	if (!url)
		return;
	api_list_init(&l);
	api_list(des_api(w), "Workspace", o->ns, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++)
		if (strcmp(val_str(val_path(l.items[i]->spec, "source.repoURL"), ""), url) == 0)
			ctl_keys_add(out, l.items[i]->ns, l.items[i]->name);
	api_list_release(&l);
	free(url);
}

/* ---- RefWatcher ----------------------------------------------------------- */

void mwc_default_sha(const char *repo_url, const char *ref, char out[41])
{
	uint64_t h = fnv(repo_url, ref);

	for (int i = 0; i < 5; i++) {
		uint64_t z = h + (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		snprintf(out + 8 * i, 9, "%08" PRIx32, (uint32_t)(z >> 32));
	}
}

static void poll_fire(struct des *w, void *ctx, void *arg);

static struct pending_polls *pending_of(struct mwc *m, size_t id)
{
	if (id >= m->npend) {
		size_t n = id + 1 > 2 * m->npend ? id + 1 : 2 * m->npend;

		m->pend = xreallocarray(m->pend, n, sizeof(*m->pend));
		memset(m->pend + m->npend, 0, (n - m->npend) * sizeof(*m->pend));
		m->npend = n;
	}
	return &m->pend[id];
}

static void schedule_poll(struct mwc *m, const struct mrw_entry *e, int64_t at)
{
	struct pending_polls *q = pending_of(m, e->id);

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 2;
		q->p = xreallocarray(q->p, q->cap, sizeof(*q->p));
	}
	q->p[q->n++] = (struct pending_poll){ at, m->poll_seq++ };
	des_at(m->w, at, DES_PRIO_SCRIPT, poll_fire, m, (void *)(uintptr_t)e->id);
}

/* The push of entry @id popped at @now: of those due now, the first pushed (the DES fires them in that order). */
static void pending_pop(struct mwc *m, size_t id, int64_t now)
{
	struct pending_polls *q = id < m->npend ? &m->pend[id] : NULL;
	size_t best = SIZE_MAX;

	for (size_t i = 0; q && i < q->n; i++)
		if (q->p[i].at == now && (best == SIZE_MAX || q->p[i].seq < q->p[best].seq))
			best = i;
	if (best != SIZE_MAX)
		q->p[best] = q->p[--q->n];
}

static void poll_fire(struct des *w, void *ctx, void *arg)
{
	struct mwc *m = ctx;
	struct mrw_entry *e = mrw_by_id(&m->reg, (size_t)(uintptr_t)arg);
	char sha[41] = "", cause[300];
	int64_t now = des_now(w), delay;
	enum mrw_poll outcome;
	int rc;

	pending_pop(m, (size_t)(uintptr_t)arg, now);
	/* A push whose key is no longer registered is skipped (dispatchDue). */
	if (!e || !e->present)
		return;
	if (m->p.git_resolve) {
		rc = m->p.git_resolve(m->p.models, e->url, e->ref, now, sha);
	} else {
		mwc_default_sha(e->url, e->ref, sha);
		rc = 0;
	}
	outcome = mrw_poll_remote(e, rc, sha, now, &delay);
	if (outcome == MRW_POLL_CHANGED) {
		bool ok = api_get(des_api(w), "Workspace", e->ns, e->name) != NULL;

		snprintf(cause, sizeof(cause), "refwatcher poll %s/%s", e->ns, e->name);
		des_set_cause(w, cause);
		if (ok)
			ok = api_set_annotation(des_api(w), "Workspace", e->ns, e->name,
						MW_ANN_DETECTED_REVISION, sha) == 0;
		delay = mrw_patch_done(e, ok, sha, now);
		outcome = ok ? MRW_POLL_CHANGED : MRW_POLL_ERROR;
	}
	switch (outcome) {
	case MRW_POLL_ERROR: m->stats.error++; break;
	case MRW_POLL_UNCHANGED: m->stats.unchanged++; break;
	case MRW_POLL_SEEDED: m->stats.seeded++; break;
	case MRW_POLL_CHANGED: m->stats.changed++; break;
	}
	schedule_poll(m, e, now + delay);
}

static struct ctl_result reconcile_refwatcher(void *ctx, struct des *w, const char *ns,
					      const char *name, int64_t now)
{
	struct mwc *m = ctx;
	struct ctl_result res = { 0 };
	const struct obj *ws = api_get(des_api(w), "Workspace", ns, name);
	const char *a;
	bool ok = false;
	int64_t ms = 0, interval, jitter = 0;
	struct mrw_entry *e;
	struct wsstate *s;
	enum mrw_upsert up;

	if (!ws || ws->deletion_ms >= 0) {
		mrw_remove_entry(&m->reg, ns, name);
		return res;
	}
	s = state_get(m, ns, name);
	a = obj_strmap_get(&ws->annotations, MW_ANN_GIT_POLL_INTERVAL);
	if (a) {
		ok = parse_duration_ms(a, &ms, NULL) == 0;
		if (!ok || ms <= 0)
			warn_duration(m, s, &s->warned_poll, ws, MW_ANN_GIT_POLL_INTERVAL, a,
				      ok ? "is not positive; the RefWatcher silently uses its default "
					   "poll interval"
					 : "is not a Go duration; the RefWatcher silently uses its "
					   "default poll interval");
	}
	interval = mrw_parse_poll_interval(ok, ms, m->p.default_poll_interval_ms);
	if (!mrw_find(&m->reg, ns, name)) {
		if (interval <= (int64_t)UINT32_MAX)
			jitter = rng_bounded_u32(&s->poll_rng, (uint32_t)interval);
		else
			jitter = (int64_t)(rng_uniform01(&s->poll_rng) * (double)interval);
	}
	up = mrw_upsert_entry(&m->reg, ns, name, val_str(val_path(ws->spec, "source.repoURL"), ""),
			      val_str(val_path(ws->spec, "source.targetRevision"), ""), interval,
			      val_str(val_map_get(ws->status, "observedRevision"), ""), now, jitter,
			      &e);
	if (up == MRW_UPSERT_NEW || up == MRW_UPSERT_MOVED)
		schedule_poll(m, e, e->next_poll_at);
	return res;
}

/* ---- the RefWatcher's memory in a snapshot ---------------------------------- */

/* @v percent-encoded: bytes <= ' ', '%', ',' and >= 0x7f as %XX (the loader decodes them).  Caller frees. */
static char *encoded(const char *v)
{
	char *out = xmalloc(3 * strlen(v) + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)v; *p; p++)
		if (*p <= ' ' || *p == '%' || *p == ',' || *p >= 0x7f)
			o += sprintf(o, "%%%02X", *p);
		else
			*o++ = (char)*p;
	*o = '\0';
	return out;
}

static int by_seq(const void *a, const void *b)
{
	const struct pending_poll *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * ctl_state_fn of the RefWatcher: its registry entry and pending pushes
 * (SCN_REFWATCHER_STATE_FORMAT, sim/load/scenario.h).
 */
static char *refwatcher_state(void *ctx, struct des *w, const char *ns, const char *name,
			      int64_t anchor_unix_ms)
{
	struct mwc *m = ctx;
	const struct mrw_entry *e = mrw_find(&m->reg, ns, name);
	struct pending_polls *q;
	char *sha, *url, *ref, *polls = xstrdup(""), *text;

	(void)w;
	if (!e)
		goto no_entry;
	q = pending_of(m, e->id);
	if (q->n)
		qsort(q->p, q->n, sizeof(*q->p), by_seq);
	for (size_t i = 0; i < q->n; i++) {
		char when[GT_RFC3339_BUFSZ], *more;

		gt_format_rfc3339_nano(anchor_unix_ms + q->p[i].at, when, sizeof(when));
		more = xasprintf("%s%s%s#%" PRIu64, polls, i ? "," : "", when, q->p[i].seq);
		free(polls);
		polls = more;
	}
	sha = encoded(e->last_sha);
	url = encoded(e->url);
	ref = encoded(e->ref);
	text = xasprintf("lastSHA=%s url=%s ref=%s intervalMs=%" PRId64 " polls=%s", sha, url, ref,
			 e->interval_ms, polls);
	free(sha);
	free(url);
	free(ref);
	free(polls);
	return text;
no_entry:
	free(polls);
	return NULL;
}

void mwc_restore_entry(struct mwc *m, const char *ns, const char *name, const char *url,
		       const char *ref, int64_t interval_ms, const char *last_sha)
{
	struct mrw_entry *e = NULL;

	/* as it was: lastSHA from the snapshot, not observedRevision; its pushes come from mwc_restore_poll() */
	mrw_upsert_entry(&m->reg, ns, name, url, ref, interval_ms, last_sha, des_now(m->w), 0, &e);
}

void mwc_restore_poll(struct mwc *m, const char *ns, const char *name, int64_t at_ms)
{
	struct mrw_entry *e = mrw_find(&m->reg, ns, name);

	if (!e)
		return;
	if (at_ms > e->next_poll_at)
		e->next_poll_at = at_ms;
	schedule_poll(m, e, at_ms);
}

/* ---- registration -------------------------------------------------------- */

struct mwc *mwc_register(struct des *w, const struct mwc_params *p)
{
	struct mwc *m = xcalloc(1, sizeof(*m));

	m->w = w;
	if (p)
		m->p = *p;
	if (m->p.default_poll_interval_ms <= 0)
		m->p.default_poll_interval_ms = MRW_DEFAULT_POLL_INTERVAL_MS;
	mrw_registry_init(&m->reg);

	m->ws_ctl = ctl_new(w, "workspace-controller", reconcile_workspace, m);
	ctl_for(m->ws_ctl, "Workspace", NULL, NULL);
	ctl_watches(m->ws_ctl, "Job", map_owner, NULL, NULL, NULL);
	ctl_watches(m->ws_ctl, "PersistentVolumeClaim", map_owner, NULL, NULL, NULL);
	ctl_watches(m->ws_ctl, "Secret", map_secret, NULL, ctl_pred_rv_changed, NULL);

	if (!m->p.no_refwatcher) {
		m->rw_ctl = ctl_new(w, "refwatcher", reconcile_refwatcher, m);
		ctl_for(m->rw_ctl, "Workspace", NULL, NULL);
		ctl_set_state(m->rw_ctl, refwatcher_state);
	}
	return m;
}

void mwc_free(struct mwc *m)
{
	if (!m)
		return;
	free(m->hung_by);
	for (size_t i = 0; i < m->cap; i++) {
		struct wsstate *s = m->states[i];

		if (!s)
			continue;
		free(s->ns);
		free(s->name);
		free(s->warned_interval);
		free(s->warned_poll);
		free(s->hash_uid);
		free(s);
	}
	free(m->states);
	mrw_registry_release(&m->reg);
	for (size_t i = 0; i < m->npend; i++)
		free(m->pend[i].p);
	free(m->pend);
	free(m);
}

struct ctl *mwc_workspace_ctl(const struct mwc *m)
{
	return m->ws_ctl;
}

struct ctl *mwc_refwatcher_ctl(const struct mwc *m)
{
	return m->rw_ctl;
}

bool mwc_is_hung(const struct mwc *m, const char *ns, const char *name)
{
	const struct wsstate *s = state_lookup(m, ns, name);

	return m->hung_by || (s && s->hung);
}

struct mwc_poll_stats mwc_poll_stats(const struct mwc *m)
{
	return m->stats;
}
