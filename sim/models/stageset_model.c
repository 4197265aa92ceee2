/*
 * The StageSet member model: see sim/models/stageset_model.h for the behaviour.
 *
 * Members are heap records (stable pointers) in the order first seen, found
 * by "ns/name" through an open-addressing index.  The work queue is a FIFO
 * of member indices; a member is in it at most once (queued), and a member
 * being reconciled (processing) that is woken is queued again when its pass
 * ends (dirty), as controller-runtime's workqueue does.  A pass that waits
 * for an adoption holds a worker until its end event; every other pass is
 * instantaneous.
 */
#include "sim/models/stageset_model.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/core/rng.h"

#define KIND "StageSet"
#define CONTROLLER "stageset-controller"
#define REASON_STAGE_PROGRESSING "StageProgressing"
#define BACKOFF_BASE_MS INT64_C(5)
#define BACKOFF_MAX_MS INT64_C(1000000)
#define NONE SIZE_MAX

/* What the member's last write showed. */
enum shown { SHOWN_NONE, SHOWN_SUCCEEDED, SHOWN_REGRESSED, SHOWN_FAILED, SHOWN_HELD,
	     SHOWN_REFUSED, SHOWN_PROGRESSING };

/* How a pass ends, for the work queue. */
enum finish { FIN_NONE, FIN_REQUEUE, FIN_ERROR, FIN_STEADY };

struct member {
	char *ns, *name, *key;
	size_t idx;
	struct api_ref ref; /* where the store keeps the member's StageSet */
	struct ssm_adoption *ad;
	size_t nad, capad;
	struct ssm_window *win;
	size_t nwin, capwin;
	uint32_t passes, holds, refusals;
	bool gone;
	/* work queue */
	bool queued, processing, dirty;
	evq_handle ev_timer, ev_end;
	int64_t timer_at;
	uint32_t failures;  /* consecutive passes that returned an error */
	uint32_t attempts;  /* adoption attempts (n of adopt#n) */
	uint32_t requeues;  /* steady requeues drawn (k of requeue#k) */
	/* the pass in progress / the attempt in flight */
	int64_t pass_gen;
	bool pass_timeout;  /* the running pass ends at the verify timeout */
	size_t inflight;    /* index into ad, or NONE */
	bool inflight_fail; /* the failure draw of the attempt in flight */
	bool inflight_versioned;
	/* approval hold tracking */
	char *hold_version;
	int64_t hold_since;
	char *offered_seen; /* offered version the last pass used */
	/*
	 * The same, as the pointer that pass got from offered_for_pass()
	 * (borrowed from the params, which outlive the run, or NULL): equal
	 * pointers mean equal versions, without a strcmp.
	 */
	const char *offered_seen_ptr;
	enum shown shown;
	/*
	 * The plan of the last pass, and the resourceVersion of the object it
	 * read (offered_seen is the other input that is not in the object): a
	 * pass that reads the same object version and the same offered version
	 * reuses it, as ss_plan_compute() is a pure function of those.
	 */
	bool has_plan;
	uint64_t plan_rv;
	uint64_t plan_seq; /* plans computed so far: names the current one */
	struct ss_plan plan;
	/*
	 * offered() of the last pass: valid while the object version (its
	 * labels) and the number of publishes already due are the same.
	 */
	bool has_off;
	uint64_t off_rv;
	size_t off_due;
	const char *off; /* borrowed from the params, NULL when none */
	/*
	 * The last status write found to change nothing: the object version it
	 * was checked on (0: none) and its arguments (strings owned; version
	 * NULL when the write left it alone, pending "" when not set).  The
	 * same write on the same object version changes nothing either.
	 */
	uint64_t nw_rv;
	int64_t nw_gen;
	bool nw_set_pending;
	/*
	 * The same memo when the write's arguments came from a plan: nw_tag
	 * names the plan (its plan_seq) and which write of it (then the strings
	 * below are not kept: nw_strs false), so the check compares no strings.
	 */
	uint64_t nw_tag;
	bool nw_strs;
	char *nw_version, *nw_pending, *nw_status, *nw_reason, *nw_message;
};

/* A scheduled window edge: member and window index. */
struct wedge {
	size_t mi, wi;
};

struct ssm {
	struct des *w;
	struct api *api;
	const struct ssm_params *p;
	uint64_t seed;
	size_t *order; /* publish indices sorted by at_ms (stable) */

	struct member **mem;
	size_t nmem, capmem;
	char **hkeys;
	size_t *hvals;
	size_t hcap, hn;

	size_t *fifo;
	size_t qhead, qlen, qcap;
	bool dispatch_pending, dispatching;
	uint32_t busy, busy_peak;

	struct wedge *edges;
	size_t nedges, capedges;

	struct ssm_member_stat *stats;
	char *succeeded_msg; /* ss_succeeded_message(nstages), made once */
};

/* ---------------------------------------------------------------- index */

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static size_t hslot(const struct ssm *s, const char *key)
{
	size_t i = (size_t)fnv1a(key) & (s->hcap - 1);

	while (s->hkeys[i] && strcmp(s->hkeys[i], key) != 0)
		i = (i + 1) & (s->hcap - 1);
	return i;
}

static struct member *find(const struct ssm *s, const char *key)
{
	size_t i;

	if (!s->hcap)
		return NULL;
	i = hslot(s, key);
	return s->hkeys[i] ? s->mem[s->hvals[i]] : NULL;
}

static void hput(struct ssm *s, char *key, size_t v)
{
	size_t i;

	if (2 * (s->hn + 1) > s->hcap) {
		char **ok = s->hkeys;
		size_t *ov = s->hvals, oc = s->hcap;

		s->hcap = s->hcap ? 2 * s->hcap : 64;
		s->hkeys = xcalloc(s->hcap, sizeof(*s->hkeys));
		s->hvals = xcalloc(s->hcap, sizeof(*s->hvals));
		for (size_t k = 0; k < oc; k++)
			if (ok[k]) {
				i = hslot(s, ok[k]);
				s->hkeys[i] = ok[k];
				s->hvals[i] = ov[k];
			}
		free(ok);
		free(ov);
	}
	i = hslot(s, key);
	s->hkeys[i] = key; /* borrowed from the member */
	s->hvals[i] = v;
	s->hn++;
}

static struct member *member_get(struct ssm *s, const char *ns, const char *name)
{
	size_t lns = strlen(ns), lname = strlen(name);
	char buf[256], *key = lns + lname + 2 <= sizeof(buf) ? buf : xmalloc(lns + lname + 2);
	struct member *mb;

	/* "ns/name", built without printf: every watch event of a StageSet looks its member up */
	memcpy(key, ns, lns);
	key[lns] = '/';
	memcpy(key + lns + 1, name, lname + 1);
	mb = find(s, key);
	if (mb) {
		if (key != buf)
			free(key);
		return mb;
	}
	if (key == buf)
		key = xstrdup(buf);
	mb = xcalloc(1, sizeof(*mb));
	mb->ns = xstrdup(ns);
	mb->name = xstrdup(name);
	mb->key = key;
	mb->idx = s->nmem;
	mb->inflight = NONE;
	mb->hold_since = -1;
	if (s->nmem == s->capmem) {
		s->capmem = s->capmem ? 2 * s->capmem : 64;
		s->mem = xreallocarray(s->mem, s->capmem, sizeof(*s->mem));
	}
	s->mem[s->nmem++] = mb;
	hput(s, mb->key, mb->idx);
	return mb;
}

/* The current version of @mb's StageSet, NULL when absent (api_get() without hashing). */
static const struct obj *member_obj(const struct ssm *s, struct member *mb)
{
	return api_get_ref(s->api, KIND, mb->ns, mb->name, &mb->ref);
}

/* ---------------------------------------------------------------- inputs */

static bool cmp_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static bool targets(const struct lbl_selector *sel, const char *member, const struct member *mb,
		    const struct obj_strmap *labels)
{
	if (sel)
		return lbl_matches(sel, labels);
	return member && strcmp(member, mb->key) == 0;
}

/* offered() - the version of the last publish matching @mb (labels @labels) at or before now. */
static const char *offered(const struct ssm *s, const struct member *mb,
			   const struct obj_strmap *labels)
{
	int64_t now = des_now(s->w);
	const char *v = NULL;

	for (size_t k = 0; k < s->p->npublish; k++) {
		const struct ssm_publish *pb = &s->p->publish[s->order[k]];

		if (pb->at_ms > now)
			break;
		if (targets(pb->selector, pb->member, mb, labels))
			v = pb->version;
	}
	return v;
}

/* offered() for the pass of @mb over its object @o, remembered while it cannot change. */
static const char *offered_for_pass(const struct ssm *s, struct member *mb, const struct obj *o)
{
	int64_t now = des_now(s->w);
	size_t due = 0;

	while (due < s->p->npublish && s->p->publish[s->order[due]].at_ms <= now)
		due++;
	if (!mb->has_off || mb->off_rv != o->resource_version || mb->off_due != due) {
		mb->off = offered(s, mb, &o->labels);
		mb->off_rv = o->resource_version;
		mb->off_due = due;
		mb->has_off = true;
	}
	return mb->off;
}

enum field { F_ADOPT, F_FAILURE, F_REGRESSION, F_REGRESSION_VERSIONS, F_MIGRATIONS };

/* rule() - the first rule matching @labels that sets @f, else the defaults. */
static const struct ssm_rule *rule(const struct ssm *s, const struct obj_strmap *labels, enum field f)
{
	for (size_t i = 0; i < s->p->nrules; i++) {
		const struct ssm_rule *r = &s->p->rules[i];
		bool has = f == F_ADOPT ? r->has_adopt : f == F_FAILURE ? r->has_failure
			 : f == F_REGRESSION ? r->has_regression
			 : f == F_REGRESSION_VERSIONS ? r->has_regression_versions : r->has_migrations;

		if (has && lbl_matches(&r->selector, labels))
			return r;
	}
	return &s->p->defaults;
}

static enum ss_approval_mode approval_mode(const char *s)
{
	if (strcmp(s, "Always") == 0)
		return SS_APPROVAL_ALWAYS;
	if (strcmp(s, "OnMigrations") == 0)
		return SS_APPROVAL_ON_MIGRATIONS;
	return SS_APPROVAL_NEVER;
}

static bool regressed(const struct member *mb, int64_t t)
{
	for (size_t i = 0; i < mb->nwin; i++)
		if (mb->win[i].start_ms <= t && t < mb->win[i].end_ms)
			return true;
	return false;
}

/*
 * Seeds @r with the stream "stageset/<ns>/<name>/<what>#<n>" followed by
 * @tail ("" for none): the text xasprintf() would make, built without
 * printf (a steady requeue draws one per member pass).
 */
static void member_stream(const struct ssm *s, const struct member *mb, const char *what,
			  uint32_t n, const char *tail, struct rng *r)
{
	char buf[256], num[16], *p = buf;
	size_t lns = strlen(mb->ns), lname = strlen(mb->name), lwhat = strlen(what);
	size_t ltail = strlen(tail), lnum = 0;

	do
		num[lnum++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	if (lns + lname + lwhat + ltail + lnum + 13 > sizeof(buf)) {
		char *id;

		while (lnum > 0) /* digits back in order, for the long way */
			*p++ = num[--lnum];
		*p = '\0';
		id = xasprintf("stageset/%s/%s/%s#%s%s", mb->ns, mb->name, what, buf, tail);
		rng_stream(r, s->seed, s->p->trial, id);
		free(id);
		return;
	}
	memcpy(p, "stageset/", 9), p += 9;
	memcpy(p, mb->ns, lns), p += lns;
	*p++ = '/';
	memcpy(p, mb->name, lname), p += lname;
	*p++ = '/';
	memcpy(p, what, lwhat), p += lwhat;
	*p++ = '#';
	while (lnum > 0)
		*p++ = num[--lnum];
	memcpy(p, tail, ltail + 1);
	rng_stream(r, s->seed, s->p->trial, buf);
}

static void stream(const struct ssm *s, const struct member *mb, uint32_t n, const char *what,
		   struct rng *r)
{
	char tail[64];

	if (strlen(what) + 2 <= sizeof(tail)) {
		tail[0] = '/';
		memcpy(tail + 1, what, strlen(what) + 1);
		member_stream(s, mb, "adopt", n, tail, r);
	} else {
		char *t = xasprintf("/%s", what);

		member_stream(s, mb, "adopt", n, t, r);
		free(t);
	}
}

static int64_t sample_ms(const struct ssm *s, const struct member *mb, uint32_t n, const char *what,
			 const struct dist *d)
{
	struct rng r;
	gsl_rng g;

	stream(s, mb, n, what, &r);
	rng_gsl_wrap(&g, &r);
	return dist_sample_ms(d, &g);
}

static bool draw(const struct ssm *s, const struct member *mb, uint32_t n, const char *what, double p)
{
	struct rng r;

	if (p <= 0)
		return false;
	stream(s, mb, n, what, &r);
	return rng_uniform01(&r) < p;
}

/*
 * may_regress() - whether an adoption of @version can regress under @r's
 * regression.versions: every version when no list is set, else only the
 * listed ones (exact text; an adoption with no version matches none).
 */
static bool may_regress(const struct ssm_rule *r, const char *version)
{
	if (!r->has_regression_versions)
		return true;
	if (!version)
		return false;
	for (size_t i = 0; i < r->nregression_versions; i++)
		if (!strcmp(r->regression_versions[i], version))
			return true;
	return false;
}

/* ---------------------------------------------------------------- status writes */

static void cause_pass(struct ssm *s, const struct member *mb)
{
	des_set_cause_reconcile(s->w, CONTROLLER, mb->ns, mb->name);
}

/* Status field @key is the string @want, or absent when @want is "" (the patch deletes it). */
static bool field_is(const struct val *st, const char *key, const char *want)
{
	const struct val *v = val_map_get(st, key);

	if (!want || !want[0])
		return v == NULL;
	return v && v->type == VAL_STRING && strcmp(v->u.s, want) == 0;
}

static bool str_field_is(const struct val *m, const char *key, const char *want)
{
	const struct val *v = val_map_get(m, key);

	return v && v->type == VAL_STRING && strcmp(v->u.s, want) == 0;
}

static bool int_field_is(const struct val *m, const char *key, int64_t want)
{
	const struct val *v = val_map_get(m, key);

	return v && v->type == VAL_INT && v->u.i == want;
}

/*
 * Whether the write_status() below would change nothing in @o's status (the
 * store would then drop it as a no-op): checked on the stored status
 * instead of building and merging the patch, which is most of a steady
 * re-verify's cost.  False whenever in doubt (the write then runs and the
 * store decides).  The Ready condition must be exactly the six fields the
 * write sets, with the same values (its lastTransitionTime is then kept).
 */
static bool status_write_is_noop(const struct obj *o, int64_t gen, const char *version,
				 bool set_pending, const char *pending, const char *status,
				 const char *reason, const char *message)
{
	const struct val *st = o->status, *old, *conds;
	bool listed = false;

	if (!st || st->type != VAL_MAP || !int_field_is(st, "observedGeneration", gen))
		return false;
	if (version && !field_is(st, "version", version))
		return false;
	if (set_pending && !field_is(st, "pendingVersion", pending))
		return false;
	old = obj_ready_condition(o);
	conds = val_map_get(st, "conditions");
	if (!old || old->type != VAL_MAP || old->u.map.n != 6 || !conds || conds->type != VAL_LIST)
		return false;
	for (size_t i = 0; i < conds->u.list.n && !listed; i++)
		listed = conds->u.list.items[i] == old;
	return listed && str_field_is(old, "type", "Ready") && str_field_is(old, "status", status) &&
	       int_field_is(old, "observedGeneration", gen) &&
	       val_map_get(old, "lastTransitionTime") != NULL &&
	       str_field_is(old, "reason", reason) && str_field_is(old, "message", message);
}

static bool opt_eq(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (!a || strcmp(a, b) == 0);
}

/* Replace *@dst by a copy of @src unless equal (NULL stays NULL). */
static void keep_str(char **dst, const char *src)
{
	if (opt_eq(*dst, src))
		return;
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

/*
 * write_status() - one status write: observedGeneration @gen, version (when
 * @version is not NULL), pendingVersion (when @set_pending; "" deletes it)
 * and the Ready condition (@message already decorated).  @tag, when not 0,
 * names the arguments after @gen (the same tag always comes with the same
 * strings: see plan_tag()), so the no-op memo is checked without comparing
 * them.
 */
static void write_status(struct ssm *s, struct member *mb, uint64_t tag, int64_t gen,
			 const char *version, bool set_pending, const char *pending,
			 const char *status, const char *reason, const char *message)
{
	const struct obj *o = member_obj(s, mb);
	const struct val *old, *conds;
	struct val *p, *list, *c;
	char t[GT_RFC3339_BUFSZ];
	const char *pend = set_pending && pending ? pending : "";

	if (!o)
		return;
	if (mb->nw_rv == o->resource_version && mb->nw_gen == gen &&
	    (tag ? mb->nw_tag == tag
		 : mb->nw_strs && mb->nw_set_pending == set_pending &&
			   opt_eq(mb->nw_version, version) && opt_eq(mb->nw_pending, pend) &&
			   opt_eq(mb->nw_status, status) && opt_eq(mb->nw_reason, reason) &&
			   opt_eq(mb->nw_message, message)))
		return; /* checked on this very object version: nothing to change */
	if (status_write_is_noop(o, gen, version, set_pending, pending, status, reason, message)) {
		mb->nw_rv = o->resource_version;
		mb->nw_gen = gen;
		mb->nw_tag = tag;
		mb->nw_strs = !tag;
		if (tag)
			return;
		mb->nw_set_pending = set_pending;
		keep_str(&mb->nw_version, version);
		keep_str(&mb->nw_pending, pend);
		keep_str(&mb->nw_status, status);
		keep_str(&mb->nw_reason, reason);
		keep_str(&mb->nw_message, message);
		return;
	}
	p = val_new_map();
	val_map_set(p, "observedGeneration", val_new_int(gen));
	if (version)
		val_map_set(p, "version", version[0] ? val_new_string(version) : val_new_null());
	if (set_pending)
		val_map_set(p, "pendingVersion",
			    pending && pending[0] ? val_new_string(pending) : val_new_null());
	old = obj_ready_condition(o);
	c = val_new_map();
	val_map_set(c, "type", val_new_string("Ready"));
	val_map_set(c, "status", val_new_string(status));
	val_map_set(c, "observedGeneration", val_new_int(gen));
	if (old && strcmp(val_str(val_map_get(old, "status"), ""), status) == 0 &&
	    strcmp(val_str(val_map_get(old, "reason"), ""), reason) == 0 &&
	    strcmp(val_str(val_map_get(old, "message"), ""), message) == 0 &&
	    val_map_get(old, "lastTransitionTime")) {
		val_map_set(c, "lastTransitionTime", val_copy(val_map_get(old, "lastTransitionTime")));
	} else {
		gt_format_rfc3339(s->p->anchor_unix_ms + des_now(s->w), t, sizeof(t));
		val_map_set(c, "lastTransitionTime", val_new_string(t));
	}
	val_map_set(c, "reason", val_new_string(reason));
	val_map_set(c, "message", val_new_string(message));
	list = val_new_list();
	conds = val_map_get(o->status, "conditions");
	for (size_t i = 0; conds && conds->type == VAL_LIST && i < conds->u.list.n; i++) {
		const struct val *e = conds->u.list.items[i];

		if (e == old)
			val_list_push(list, c), c = NULL;
		else
			val_list_push(list, val_copy(e));
	}
	if (c)
		val_list_push(list, c);
	val_map_set(p, "conditions", list);
	api_patch_status(s->api, KIND, mb->ns, mb->name, p);
	val_free(p);
}

static char *workload(const struct member *mb)
{
	return xasprintf("Deployment/%s/%s", mb->ns, mb->name);
}

/* The verify failure: failStage(stage, "verify", cause). */
static void write_failed(struct ssm *s, struct member *mb, int64_t gen, bool set_pending)
{
	char *q = lbl_go_quote(s->p->stage);
	char *wl = workload(mb);
	char *raw = xasprintf("stage %s verify: failed early: %s", q, wl);
	char *msg = ss_decorate_message(SS_REASON_STAGE_FAILED, raw);

	write_status(s, mb, 0, gen, NULL, set_pending, "", "False", SS_REASON_STAGE_FAILED, msg);
	free(msg);
	free(raw);
	free(wl);
	free(q);
}

/* @tag: as write_status(), naming @version (the other arguments are the same for every member). */
static void write_succeeded(struct ssm *s, struct member *mb, uint64_t tag, int64_t gen,
			    const char *version)
{
	if (!s->succeeded_msg)
		s->succeeded_msg = ss_succeeded_message(s->p->nstages);
	write_status(s, mb, tag, gen, version, true, "", "True", SS_REASON_SUCCEEDED,
		     s->succeeded_msg);
}

static void write_progressing(struct ssm *s, struct member *mb, int64_t gen)
{
	char d[GT_DURATION_BUFSZ];
	char *q = lbl_go_quote(s->p->stage);
	char *wl = workload(mb);
	char *raw;
	char *msg;

	gt_format_duration(s->p->verify_timeout_ms, d, sizeof(d));
	raw = xasprintf("stage %s is applied and still becoming ready: timeout waiting for: %s "
			"(waited %s: stage readyChecks.timeout, else stages[].timeout, else spec.timeout)",
			q, wl, d);
	msg = ss_decorate_message(REASON_STAGE_PROGRESSING, raw);
	write_status(s, mb, 0, gen, NULL, true, "", "False", REASON_STAGE_PROGRESSING, msg);
	free(msg);
	free(raw);
	free(wl);
	free(q);
}

/* ---------------------------------------------------------------- work queue */

static void dispatch(struct ssm *s);

static void on_dispatch(struct des *w, void *ctx, void *arg)
{
	struct ssm *s = ctx;

	(void)w;
	(void)arg;
	s->dispatch_pending = false;
	dispatch(s);
}

/* kick() - run the dispatcher at this instant, after the triggers of this instant (reconcile priority). */
static void kick(struct ssm *s)
{
	if (!s->dispatch_pending && !s->dispatching && s->qlen) {
		s->dispatch_pending = true;
		des_at(s->w, des_now(s->w), DES_PRIO_RECONCILE, on_dispatch, s, NULL);
	}
}

static void wake(struct ssm *s, struct member *mb)
{
	if (mb->gone)
		return;
	if (mb->processing) {
		mb->dirty = true;
		return;
	}
	if (mb->queued)
		return;
	if (s->qlen == s->qcap) {
		size_t nc = s->qcap ? 2 * s->qcap : 64;
		size_t *q = xcalloc(nc, sizeof(*q));

		for (size_t i = 0; i < s->qlen; i++)
			q[i] = s->fifo[(s->qhead + i) % s->qcap];
		free(s->fifo);
		s->fifo = q;
		s->qcap = nc;
		s->qhead = 0;
	}
	s->fifo[(s->qhead + s->qlen) % s->qcap] = mb->idx;
	s->qlen++;
	mb->queued = true;
	kick(s);
}

static void on_timer(struct des *w, void *ctx, void *arg)
{
	struct ssm *s = ctx;
	struct member *mb = arg;

	(void)w;
	mb->ev_timer = 0;
	wake(s, mb);
}

/* requeue_after() - AddAfter: the earlier of a pending timer and now + @delay wins. */
static void requeue_after(struct ssm *s, struct member *mb, int64_t delay)
{
	int64_t at = des_now(s->w) + (delay > 0 ? delay : 0);

	if (mb->ev_timer) {
		if (mb->timer_at <= at)
			return;
		des_reschedule(s->w, mb->ev_timer, at, DES_PRIO_DELIVERY);
	} else {
		mb->ev_timer = des_at(s->w, at, DES_PRIO_DELIVERY, on_timer, s, mb);
	}
	mb->timer_at = at;
}

static int64_t backoff(uint32_t failures)
{
	int64_t d = BACKOFF_BASE_MS;

	for (uint32_t i = 1; i < failures && d < BACKOFF_MAX_MS; i++)
		d *= 2;
	return d < BACKOFF_MAX_MS ? d : BACKOFF_MAX_MS;
}

static int64_t steady_delay(struct ssm *s, struct member *mb)
{
	struct rng r;
	double u, j = s->p->interval_jitter;

	mb->requeues++;
	member_stream(s, mb, "requeue", mb->requeues, "", &r);
	u = rng_uniform01(&r);
	return llround((double)s->p->interval_ms * (1.0 - j + 2.0 * j * u));
}

/* finish() - the pass of @mb ends: free its worker, requeue as @how says, queue it again if woken meanwhile. */
static void finish(struct ssm *s, struct member *mb, enum finish how, int64_t delay)
{
	assert(mb->processing);
	mb->processing = false;
	mb->ev_end = 0;
	s->busy--;
	if (how == FIN_ERROR) {
		mb->failures++;
		requeue_after(s, mb, backoff(mb->failures));
	} else {
		mb->failures = 0;
		if (how == FIN_REQUEUE)
			requeue_after(s, mb, delay);
		else if (how == FIN_STEADY && s->p->interval_ms > 0)
			requeue_after(s, mb, steady_delay(s, mb));
	}
	if (mb->dirty) {
		mb->dirty = false;
		wake(s, mb);
	}
}

/* ---------------------------------------------------------------- adoption */

static void end_attempt(struct member *mb, enum ssm_outcome o, int64_t now)
{
	if (mb->inflight == NONE)
		return;
	mb->ad[mb->inflight].outcome = o;
	mb->ad[mb->inflight].end_ms = now;
	mb->inflight = NONE;
}

static void on_window_start(struct des *w, void *ctx, void *arg);
static void on_window_end(struct des *w, void *ctx, void *arg);

static void add_window(struct ssm *s, struct member *mb, int64_t start, int64_t dur, bool scripted)
{
	struct ssm_window *win;

	if (dur <= 0)
		return;
	if (mb->nwin == mb->capwin) {
		mb->capwin = mb->capwin ? 2 * mb->capwin : 4;
		mb->win = xreallocarray(mb->win, mb->capwin, sizeof(*mb->win));
	}
	win = &mb->win[mb->nwin];
	win->start_ms = start;
	win->end_ms = start + dur < start ? INT64_MAX : start + dur;
	win->scripted = scripted;
	win->version = NULL;
	if (s->nedges == s->capedges) {
		s->capedges = s->capedges ? 2 * s->capedges : 16;
		s->edges = xreallocarray(s->edges, s->capedges, sizeof(*s->edges));
	}
	s->edges[s->nedges] = (struct wedge){ mb->idx, mb->nwin };
	des_at(s->w, start, DES_PRIO_SCRIPT, on_window_start, s, (void *)(uintptr_t)s->nedges);
	if (win->end_ms != INT64_MAX)
		des_at(s->w, win->end_ms, DES_PRIO_SCRIPT, on_window_end, s,
		       (void *)(uintptr_t)s->nedges);
	s->nedges++;
	mb->nwin++;
}

static void on_pass_end(struct des *w, void *ctx, void *arg);

/* pass_end() - the verify wait of the attempt in flight ends now. */
static void pass_end(struct ssm *s, struct member *mb)
{
	int64_t now = des_now(s->w);
	const struct obj *o = member_obj(s, mb);
	struct ssm_adoption *ad;
	uint32_t n;

	if (mb->inflight == NONE || !o) {
		end_attempt(mb, SSM_ABANDONED, now);
		finish(s, mb, FIN_NONE, 0);
		return;
	}
	cause_pass(s, mb);
	ad = &mb->ad[mb->inflight];
	if (mb->pass_timeout) {
		write_progressing(s, mb, mb->pass_gen);
		mb->shown = SHOWN_PROGRESSING;
		finish(s, mb, FIN_REQUEUE, s->p->retry_interval_ms);
		return;
	}
	if (regressed(mb, now) || mb->inflight_fail) {
		end_attempt(mb, regressed(mb, now) ? SSM_REGRESSED : SSM_FAILED, now);
		write_failed(s, mb, mb->pass_gen, true);
		mb->shown = regressed(mb, now) ? SHOWN_REGRESSED : SHOWN_FAILED;
		finish(s, mb, FIN_ERROR, 0);
		return;
	}
	n = ad->attempt;
	write_succeeded(s, mb, 0, mb->pass_gen, mb->inflight_versioned ? ad->version : NULL);
	mb->shown = SHOWN_SUCCEEDED;
	end_attempt(mb, SSM_SUCCEEDED, now);
	{
		const struct ssm_rule *r = rule(s, &o->labels, F_REGRESSION);
		const struct ssm_rule *rv = rule(s, &o->labels, F_REGRESSION_VERSIONS);

		/* The draw has its own stream: skipping it leaves the other draws alone. */
		if (may_regress(rv, mb->inflight_versioned ? ad->version : NULL) &&
		    draw(s, mb, n, "regression", r->regression_probability)) {
			int64_t onset = sample_ms(s, mb, n, "regression-onset", &r->regression_onset);
			int64_t dur = sample_ms(s, mb, n, "regression-duration", &r->regression_duration);

			add_window(s, mb, now + onset, dur, false);
		}
	}
	finish(s, mb, FIN_STEADY, 0);
}

static void on_pass_end(struct des *w, void *ctx, void *arg)
{
	(void)w;
	pass_end(ctx, arg);
	dispatch(ctx);
}

/* wait_for() - the pass blocks in the verify wait of the attempt in flight. */
static void wait_for(struct ssm *s, struct member *mb)
{
	int64_t now = des_now(s->w);
	int64_t due = mb->ad[mb->inflight].ready_ms;
	int64_t to = s->p->verify_timeout_ms;
	int64_t end = due;

	mb->pass_timeout = false;
	if (to > 0 && due - now > to) {
		end = now + to;
		mb->pass_timeout = true;
	}
	if (end <= now) {
		pass_end(s, mb);
		return;
	}
	mb->ev_end = des_at(s->w, end, DES_PRIO_RECONCILE, on_pass_end, s, mb);
}

static void start_attempt(struct ssm *s, struct member *mb, const struct obj *o,
			  const struct ss_plan *plan, const char *status_version, bool approval)
{
	int64_t now = des_now(s->w);
	struct ssm_adoption *ad;
	uint32_t n = ++mb->attempts;
	int64_t d;

	if (mb->nad == mb->capad) {
		mb->capad = mb->capad ? 2 * mb->capad : 2; /* a baseline and one upgrade, usually */
		mb->ad = xreallocarray(mb->ad, mb->capad, sizeof(*mb->ad));
	}
	ad = &mb->ad[mb->nad];
	memset(ad, 0, sizeof(*ad));
	ad->version = xstrdup(plan->desired);
	ad->from = xstrdup(status_version);
	ad->attempt = n;
	ad->baseline = plan->outcome == SS_OUT_PROCEED_BASELINE;
	ad->downgrade = plan->outcome == SS_OUT_PROCEED_DOWNGRADE;
	ad->directed = plan->directed;
	ad->held_ms = -1;
	ad->approved_ms = -1;
	if (approval) {
		ad->approved_ms = now;
		if (mb->hold_version && strcmp(mb->hold_version, plan->desired) == 0)
			ad->held_ms = mb->hold_since;
	}
	ad->start_ms = now;
	d = sample_ms(s, mb, n, "duration", &rule(s, &o->labels, F_ADOPT)->adopt);
	ad->ready_ms = now + d < now ? INT64_MAX : now + d;
	ad->end_ms = -1;
	ad->outcome = SSM_IN_FLIGHT;
	mb->inflight = mb->nad++;
	mb->inflight_fail = draw(s, mb, n, "failure", rule(s, &o->labels, F_FAILURE)->failure_probability);
	mb->inflight_versioned = plan->versioned;
}

/*
 * What a pass reads of StageSet @o for the plan (ss_member), @off the
 * offered version (NULL: spec.version.value); strings borrowed from @o.
 */
static void member_input(const struct ssm *s, const struct obj *o, const char *off,
			 struct ss_member *in)
{
	const struct val *ver = val_map_get(o->spec, "version");
	const struct val *ready = obj_ready_condition(o);
	const struct ssm_rule *mr = rule(s, &o->labels, F_MIGRATIONS);

	if (!off)
		off = val_str(val_map_get(ver, "value"), NULL);
	memset(in, 0, sizeof(*in));
	in->versioned = ver && ver->type == VAL_MAP;
	in->offered = off;
	in->approval_mode = approval_mode(val_str(val_map_get(ver, "approvalMode"), ""));
	in->allow_downgrade = val_bool(val_map_get(ver, "allowDowngrade"), false);
	in->require_migration_coverage = val_bool(val_map_get(ver, "requireMigrationCoverage"), false);
	in->migrations = mr->migrations;
	in->nmigrations = mr->nmigrations;
	in->status_version = val_str(val_map_get(o->status, "version"), "");
	in->pending_version = val_str(val_map_get(o->status, "pendingVersion"), "");
	in->approved_version = obj_strmap_get(&o->annotations, SS_ANN_APPROVED_VERSION);
	in->rollback_to = obj_strmap_get(&o->annotations, SS_ANN_ROLLBACK_TO);
	in->prev_ready_status = ready ? val_str(val_map_get(ready, "status"), NULL) : NULL;
	in->prev_ready_reason = ready ? val_str(val_map_get(ready, "reason"), NULL) : NULL;
}

/* The writes whose arguments a plan fixes, for plan_tag(). */
enum { TAG_PLAN_HOLD = 1, TAG_PLAN_SUCCEEDED = 2 };

/*
 * A write_status() tag for write @which of the current plan of @mb: its
 * strings come from the plan (or are constants), and a plan is never
 * changed once computed, so (plan_seq, @which) names them; never 0.
 */
static uint64_t plan_tag(const struct member *mb, unsigned which)
{
	return mb->plan_seq << 2 | which;
}

/* run_pass() - one StageSet reconcile of @mb, holding a worker. */
static void run_pass(struct ssm *s, struct member *mb)
{
	int64_t now = des_now(s->w);
	const struct obj *o = member_obj(s, mb);
	struct ss_member in;
	const struct ss_plan *plan;
	const char *off;
	bool approval, reuse, same_off;
	int64_t requeue;

	mb->passes++;
	if (!o || o->deletion_ms >= 0) {
		end_attempt(mb, SSM_ABANDONED, now);
		finish(s, mb, FIN_NONE, 0);
		return;
	}
	cause_pass(s, mb);
	mb->pass_gen = o->generation;
	off = offered_for_pass(s, mb, o);
	same_off = off == mb->offered_seen_ptr || cmp_eq(off, mb->offered_seen);
	reuse = mb->has_plan && mb->plan_rv == o->resource_version && same_off;
	mb->offered_seen_ptr = off;
	if (!same_off) {
		free(mb->offered_seen);
		mb->offered_seen = off ? xstrdup(off) : NULL;
	}
	if (!reuse) {
		member_input(s, o, off, &in);
		ss_plan_release(&mb->plan);
		ss_plan_compute(&in, &mb->plan);
		mb->plan_seq++;
		mb->has_plan = true;
		mb->plan_rv = o->resource_version;
	}
	plan = &mb->plan;

	switch (plan->outcome) {
	case SS_OUT_REFUSED:
	case SS_OUT_AWAITING_APPROVAL:
		end_attempt(mb, SSM_SUPERSEDED, now);
		if (plan->outcome == SS_OUT_AWAITING_APPROVAL) {
			mb->holds++;
			if (!cmp_eq(mb->hold_version, plan->desired)) {
				free(mb->hold_version);
				mb->hold_version = xstrdup(plan->desired);
				mb->hold_since = now;
			}
			mb->shown = SHOWN_HELD;
		} else {
			mb->refusals++;
			mb->shown = SHOWN_REFUSED;
		}
		requeue = plan->requeue_after_ms;
		write_status(s, mb, plan_tag(mb, TAG_PLAN_HOLD), mb->pass_gen, NULL, true,
			     plan->pending_version, plan->ready_status, plan->reason, plan->message);
		finish(s, mb, FIN_REQUEUE, requeue);
		break;
	case SS_OUT_UNVERSIONED:
	case SS_OUT_PROCEED_NO_CHANGE:
		end_attempt(mb, SSM_SUPERSEDED, now);
		if (regressed(mb, now)) {
			write_failed(s, mb, mb->pass_gen, true);
			mb->shown = SHOWN_REGRESSED;
			finish(s, mb, FIN_ERROR, 0);
			break;
		}
		write_succeeded(s, mb, plan_tag(mb, TAG_PLAN_SUCCEEDED), mb->pass_gen,
				plan->versioned ? plan->desired : NULL);
		mb->shown = SHOWN_SUCCEEDED;
		finish(s, mb, FIN_STEADY, 0);
		break;
	default: /* baseline, upgrade, downgrade */
		member_input(s, o, off, &in); /* the status version and approval mode, as the plan read them */
		approval = ss_version_approval_needed(in.approval_mode, plan, in.status_version);
		if (mb->inflight != NONE && strcmp(mb->ad[mb->inflight].version, plan->desired) != 0)
			end_attempt(mb, SSM_SUPERSEDED, now);
		if (mb->inflight == NONE)
			start_attempt(s, mb, o, plan, in.status_version, approval);
		free(mb->hold_version);
		mb->hold_version = NULL;
		mb->hold_since = -1;
		wait_for(s, mb);
		break;
	}
}

static void dispatch(struct ssm *s)
{
	if (s->dispatching)
		return;
	s->dispatching = true;
	while (s->qlen && (s->p->workers == 0 || s->busy < s->p->workers)) {
		struct member *mb = s->mem[s->fifo[s->qhead]];

		s->qhead = (s->qhead + 1) % s->qcap;
		s->qlen--;
		mb->queued = false;
		if (mb->gone)
			continue;
		mb->processing = true;
		if (++s->busy > s->busy_peak)
			s->busy_peak = s->busy;
		run_pass(s, mb);
	}
	s->dispatching = false;
}

/* ---------------------------------------------------------------- events */

static void on_window_start(struct des *w, void *ctx, void *arg)
{
	struct ssm *s = ctx;
	const struct wedge *e = &s->edges[(uintptr_t)arg];
	struct member *mb = s->mem[e->mi];
	struct ssm_window *win = &mb->win[e->wi];
	const struct obj *o = member_obj(s, mb);

	(void)w;
	if (!o)
		return;
	win->version = xstrdup(val_str(val_map_get(o->status, "version"), ""));
	if (mb->shown == SHOWN_SUCCEEDED && mb->inflight == NONE && !mb->processing) {
		char *cause = xasprintf("workload %s", mb->key);

		des_set_cause(s->w, cause);
		free(cause);
		write_failed(s, mb, o->generation, false);
		mb->shown = SHOWN_REGRESSED;
	}
}

static void on_window_end(struct des *w, void *ctx, void *arg)
{
	struct ssm *s = ctx;
	const struct wedge *e = &s->edges[(uintptr_t)arg];
	struct member *mb = s->mem[e->mi];

	(void)w;
	if (mb->shown == SHOWN_REGRESSED && !regressed(mb, des_now(s->w)))
		wake(s, mb);
}

static void on_scripted_regression(struct des *w, void *ctx, void *arg)
{
	struct ssm *s = ctx;
	const struct ssm_regression *rg = &s->p->regressions[(uintptr_t)arg];
	struct api_list l;

	(void)w;
	api_list_init(&l);
	api_list(s->api, KIND, NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		char *key = xasprintf("%s/%s", l.items[i]->ns, l.items[i]->name);
		struct member *mb = find(s, key);

		free(key);
		if (mb && !mb->gone && targets(rg->selector, rg->member, mb, &l.items[i]->labels))
			add_window(s, mb, des_now(s->w), rg->duration_ms, true);
	}
	api_list_release(&l);
}

static void on_publish(struct des *w, void *ctx, void *arg)
{
	struct ssm *s = ctx;
	const struct ssm_publish *pb = &s->p->publish[(uintptr_t)arg];
	struct api_list l;

	(void)w;
	api_list_init(&l);
	api_list(s->api, KIND, NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		char *key = xasprintf("%s/%s", l.items[i]->ns, l.items[i]->name);
		struct member *mb = find(s, key);

		free(key);
		if (!mb || mb->gone || !targets(pb->selector, pb->member, mb, &l.items[i]->labels))
			continue;
		if (!cmp_eq(offered(s, mb, &l.items[i]->labels), mb->offered_seen))
			wake(s, mb);
	}
	api_list_release(&l);
}

static bool ann_changed(const struct obj *a, const struct obj *b, const char *key)
{
	const char *x = obj_strmap_get(&a->annotations, key);
	const char *y = obj_strmap_get(&b->annotations, key);

	return (x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0);
}

static void watch_stageset(void *ctx, enum api_event_type type, const struct obj *old,
			   const struct obj *new)
{
	struct ssm *s = ctx;
	struct member *mb = member_get(s, new->ns, new->name);

	switch (type) {
	case API_ADDED:
		mb->gone = false;
		wake(s, mb);
		break;
	case API_MODIFIED:
		if (old->generation != new->generation ||
		    ann_changed(old, new, SS_ANN_APPROVED_VERSION) ||
		    ann_changed(old, new, SS_ANN_ROLLBACK_TO) ||
		    (!obj_strmap_equal(&old->labels, &new->labels) &&
		     !cmp_eq(offered(s, mb, &new->labels), mb->offered_seen)))
			wake(s, mb);
		break;
	case API_DELETED:
		mb->gone = true;
		if (mb->ev_timer) {
			des_cancel(s->w, mb->ev_timer);
			mb->ev_timer = 0;
		}
		if (mb->processing && mb->ev_end) {
			des_cancel(s->w, mb->ev_end);
			end_attempt(mb, SSM_ABANDONED, des_now(s->w));
			finish(s, mb, FIN_NONE, 0);
			kick(s);
		} else if (!mb->processing) {
			end_attempt(mb, SSM_ABANDONED, des_now(s->w));
		}
		break;
	}
}

/* ---------------------------------------------------------------- lifecycle */

void ssm_params_init(struct ssm_params *p)
{
	memset(p, 0, sizeof(*p));
	dist_init_constant(&p->defaults.adopt, 0);
	dist_init_constant(&p->defaults.regression_onset, 0);
	dist_init_constant(&p->defaults.regression_duration, 0);
	p->workers = 4;
	p->verify_timeout_ms = 15 * 60 * 1000;
	p->retry_interval_ms = 10 * 60 * 1000;
	p->interval_ms = 10 * 60 * 1000;
	p->interval_jitter = 0.05;
	p->stage = "app";
	p->nstages = 1;
}

struct ssm *ssm_new(struct des *w, const struct ssm_params *p)
{
	struct ssm *s = xcalloc(1, sizeof(*s));

	s->w = w;
	s->api = des_api(w);
	s->p = p;
	s->seed = des_params(w)->seed;
	s->order = xcalloc(p->npublish ? p->npublish : 1, sizeof(*s->order));
	for (size_t i = 0; i < p->npublish; i++)
		s->order[i] = i;
	/* insertion sort by time: stable, so equal times keep array order */
	for (size_t i = 1; i < p->npublish; i++) {
		size_t v = s->order[i], k = i;

		for (; k > 0 && p->publish[s->order[k - 1]].at_ms > p->publish[v].at_ms; k--)
			s->order[k] = s->order[k - 1];
		s->order[k] = v;
	}
	for (size_t i = 0; i < p->npublish; i++)
		des_at(w, p->publish[i].at_ms, DES_PRIO_SCRIPT, on_publish, s, (void *)(uintptr_t)i);
	for (size_t i = 0; i < p->nregressions; i++)
		des_at(w, p->regressions[i].at_ms, DES_PRIO_SCRIPT, on_scripted_regression, s,
		       (void *)(uintptr_t)i);
	api_watch(s->api, KIND, watch_stageset, s);
	return s;
}

void ssm_free(struct ssm *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nmem; i++) {
		struct member *mb = s->mem[i];

		for (size_t k = 0; k < mb->nad; k++) {
			free((char *)mb->ad[k].version);
			free((char *)mb->ad[k].from);
		}
		for (size_t k = 0; k < mb->nwin; k++)
			free((char *)mb->win[k].version);
		free(mb->ad);
		free(mb->win);
		free(mb->hold_version);
		free(mb->offered_seen);
		ss_plan_release(&mb->plan);
		free(mb->nw_version);
		free(mb->nw_pending);
		free(mb->nw_status);
		free(mb->nw_reason);
		free(mb->nw_message);
		free(mb->ns);
		free(mb->name);
		free(mb->key);
		free(mb);
	}
	free(s->mem);
	free(s->hkeys);
	free(s->hvals);
	free(s->fifo);
	free(s->edges);
	free(s->order);
	free(s->succeeded_msg);
	free(s->stats);
	free(s);
}

static void fill_stat(const struct member *mb, struct ssm_member_stat *st)
{
	st->ns = mb->ns;
	st->name = mb->name;
	st->adoptions = mb->ad;
	st->nadoptions = mb->nad;
	st->windows = mb->win;
	st->nwindows = mb->nwin;
	st->passes = mb->passes;
	st->holds = mb->holds;
	st->refusals = mb->refusals;
}

size_t ssm_members(const struct ssm *m, const struct ssm_member_stat **out)
{
	struct ssm *s = (struct ssm *)m; /* the stats array is a cache */

	s->stats = xreallocarray(s->stats, s->nmem ? s->nmem : 1, sizeof(*s->stats));
	for (size_t i = 0; i < s->nmem; i++)
		fill_stat(s->mem[i], &s->stats[i]);
	*out = s->stats;
	return s->nmem;
}

const struct ssm_member_stat *ssm_member(const struct ssm *m, const char *ns, const char *name)
{
	const struct ssm_member_stat *all;
	char *key = xasprintf("%s/%s", ns, name);
	const struct member *mb = find(m, key);

	free(key);
	if (!mb)
		return NULL;
	ssm_members(m, &all);
	return &all[mb->idx];
}

const char *ssm_offered(const struct ssm *m, const char *ns, const char *name)
{
	const struct obj *o = api_get(m->api, KIND, ns, name);
	char *key = xasprintf("%s/%s", ns, name);
	const struct member *mb = find(m, key);
	struct member tmp;

	if (!mb) {
		memset(&tmp, 0, sizeof(tmp));
		tmp.key = key;
		mb = &tmp;
	}
	{
		const char *v = o ? offered(m, mb, &o->labels) : NULL;

		free(key);
		return v;
	}
}

uint32_t ssm_busy_peak(const struct ssm *m)
{
	return m->busy_peak;
}

const char *ssm_outcome_name(enum ssm_outcome o)
{
	switch (o) {
	case SSM_IN_FLIGHT: return "in-flight";
	case SSM_SUCCEEDED: return "succeeded";
	case SSM_FAILED: return "failed";
	case SSM_REGRESSED: return "regressed";
	case SSM_SUPERSEDED: return "superseded";
	case SSM_ABANDONED: return "abandoned";
	}
	return "unknown";
}
