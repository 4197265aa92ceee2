#include "sim/wire/fleet_rc.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fleet_rollout.h"
#include "engine/labels.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/core/timeline.h"

#define KIND_FLEET "FleetRollout"
#define KIND_STAGESET "StageSet"
#define KIND_NAMESPACE "Namespace"

#define UNAVAILABLE "metric source unavailable"

/* What was told once per FleetRollout. */
struct told {
	char *name;
	uint32_t quirks; /* bit (1 << enum fr_quirk) once its note was told */
	char *undecodable; /* the last "cannot decode" text told, "" when none */
	long halt;         /* index in frc.halts of the episode the last pass continued; -1 none */
	/*
	 * The selection and wave assignment of the last full pass, valid while
	 * frc.epoch, the uid and the generation are those it was taken at.
	 */
	bool has_asg;
	char *asg_uid;
	int64_t asg_generation;
	uint64_t asg_epoch;
	size_t *asg_members;
	size_t asg_nmembers;
	struct fr_wave_members *asg_waves;
	size_t asg_nwaves;
	size_t asg_noverlap, asg_first_overlap;
	/* the counts, label inputs and approval candidates over that assignment, NULL when none */
	struct fr_tally *tally;
	/*
	 * The stored status of the last pass as parsed, for the object
	 * version @prior_rv (0: none; a resourceVersion names one version of
	 * one object store-wide): a pass that wrote no status finds it again.
	 */
	uint64_t prior_rv;
	struct fr_status prior;
	/* spec.waves[].soak as decoded for (@soak_uid, @soak_gen); NULL: none yet */
	int64_t *soak;
	char *soak_uid;
	int64_t soak_gen;
};

/*
 * What the last pass saw of one kind's List, per position: the object and
 * its resourceVersion (a store-wide counter, so the pair names one state),
 * and a key of what selection depends on (namespace, name, labels).
 */
struct seen {
	const struct obj **ptr;
	uint64_t *rv;
	char **key;
	struct fr_member_facts *facts; /* StageSets only */
	size_t n;
	/*
	 * The store as of the last refresh: the kind's shape and the
	 * store-wide resourceVersion; @valid once a first refresh listed it.
	 */
	bool valid;
	uint64_t shape;
	uint64_t at_rv;
};

/*
 * The parsed top-level selector of a FleetRollout, for the StageSet map
 * function; valid while (uid, generation) are unchanged (a spec edit bumps
 * the generation, a re-creation changes the uid).
 */
struct sel_cache {
	char *name;
	char *uid;
	int64_t generation;
	bool ok;
	struct lbl_selector sel;
};

struct frc {
	int64_t start_unix_ms;
	char **hosts;
	size_t nhosts;
	frc_metric_fn metric;
	void *metric_ctx;
	struct ctl *ctl;
	struct api_list stagesets; /* scratch lists of one reconcile */
	struct api_list namespaces;
	struct api_list fleets;
	struct api_list maplist;   /* scratch of the map function */
	struct told *told;
	size_t ntold;
	struct sel_cache *sel;
	size_t nsel;
	int64_t pass_now_ms;       /* simulated ms of the running pass (for the gate callback) */
	struct seen seen_ss, seen_ns;
	struct api_changes changes; /* scratch of a refresh */
	uint64_t epoch;            /* bumped when a key in seen_ss or seen_ns changed */
	/* The pass log (frc_gate_log() ...); its strings live in @strs. */
	struct frc_gate_rec *gates;
	size_t ngates, capgates;
	struct frc_halt_rec *halts;
	size_t nhalts;
	struct frc_stamp_rec *stamps;
	size_t nstamps, capstamps;
	char **strs;               /* interned strings, open addressing */
	size_t nstrs, capstrs;
};

/* ---- the pass log ---- */

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* One shared copy of @s for the log (NULL stays NULL); lives until frc_free(). */
static const char *intern(struct frc *f, const char *s)
{
	size_t i;

	if (!s)
		return NULL;
	if ((f->nstrs + 1) * 2 > f->capstrs) {
		char **old = f->strs;
		size_t oldcap = f->capstrs;

		f->capstrs = oldcap ? oldcap * 2 : 64;
		f->strs = xcalloc(f->capstrs, sizeof(char *));
		for (size_t k = 0; k < oldcap; k++) {
			if (!old[k])
				continue;
			i = (size_t)str_hash(old[k]) & (f->capstrs - 1);
			while (f->strs[i])
				i = (i + 1) & (f->capstrs - 1);
			f->strs[i] = old[k];
		}
		free(old);
	}
	i = (size_t)str_hash(s) & (f->capstrs - 1);
	while (f->strs[i] && strcmp(f->strs[i], s) != 0)
		i = (i + 1) & (f->capstrs - 1);
	if (!f->strs[i]) {
		f->strs[i] = xstrdup(s);
		f->nstrs++;
	}
	return f->strs[i];
}

static const char *wave_name_at(const struct obj *fr, size_t wave)
{
	const struct val *waves = val_map_get(fr->spec, "waves");

	if (!waves || waves->type != VAL_LIST || wave >= waves->u.list.n)
		return "";
	return val_str(val_map_get(waves->u.list.items[wave], "name"), "");
}

static void log_gates(struct frc *f, const struct obj *fr, int64_t now_ms, const struct fr_result *r)
{
	const struct val *waves = val_map_get(fr->spec, "waves");

	for (size_t i = 0; i < r->ngates; i++) {
		const struct fr_gate_eval *g = &r->gates[i];
		const struct val *wv = waves && waves->type == VAL_LIST && g->wave < waves->u.list.n
					       ? waves->u.list.items[g->wave]
					       : NULL;
		struct frc_gate_rec *e;

		if (f->ngates == f->capgates) {
			f->capgates = f->capgates ? f->capgates * 2 : 64;
			f->gates = xreallocarray(f->gates, f->capgates, sizeof(*f->gates));
		}
		e = &f->gates[f->ngates++];
		e->fleet = intern(f, fr->name);
		e->t_ms = now_ms;
		e->wave = g->wave;
		e->wave_name = intern(f, wave_name_at(fr, g->wave));
		e->available = g->available;
		e->value = g->value;
		e->verdict = g->verdict;
		e->error = intern(f, g->error);
		e->min = intern(f, val_str(val_path(wv, "gate.threshold.min"), NULL));
		e->max = intern(f, val_str(val_path(wv, "gate.threshold.max"), NULL));
		e->wave_open = g->wave_open;
	}
}

/* A halting pass opens an episode, or extends the one the last pass was in. */
static void log_halt(struct frc *f, struct told *t, const struct obj *fr, int64_t now_ms,
		     const struct fr_input *in, const struct fr_result *r)
{
	const char *msg = r->event_note ? r->event_note : "";
	const char *label = r->version_label ? r->version_label : "";
	size_t wave = 0;
	struct frc_halt_rec *h;

	if (r->outcome != FR_OUT_HALTED) {
		t->halt = -1;
		return;
	}
	for (size_t i = 0; i < r->status.nwaves; i++)
		if (strcmp(r->status.waves[i].name, r->status.current_wave) == 0) {
			wave = i;
			break;
		}
	if (t->halt >= 0) {
		h = &f->halts[t->halt];
		if (h->wave == wave && strcmp(h->message, msg) == 0) {
			h->last_ms = now_ms;
			h->passes++;
			return;
		}
	}
	f->halts = xreallocarray(f->halts, f->nhalts + 1, sizeof(*f->halts));
	t->halt = (long)f->nhalts;
	h = &f->halts[f->nhalts++];
	memset(h, 0, sizeof(*h));
	h->fleet = intern(f, fr->name);
	h->t_ms = h->last_ms = now_ms;
	h->passes = 1;
	h->wave = wave;
	h->wave_name = intern(f, r->status.current_wave);
	/* A gate halt returns right after evaluating that gate as Failing. */
	h->gate = r->ngates > 0 && r->gates[r->ngates - 1].wave == wave &&
		  strcmp(r->gates[r->ngates - 1].verdict, FR_HEALTH_FAILING) == 0;
	h->message = intern(f, msg);
	h->label = intern(f, label);
	h->version = strncmp(label, "version ", 8) == 0 ? intern(f, label + 8) : NULL;
	h->nwaves = r->nwaves;
	h->waves = xcalloc(r->nwaves ? r->nwaves : 1, sizeof(*h->waves));
	for (size_t i = 0; i < r->nwaves; i++) {
		struct frc_wave_list *wl = &h->waves[i];

		wl->name = intern(f, wave_name_at(fr, i));
		wl->nmembers = r->waves[i].n;
		wl->members = xcalloc(wl->nmembers ? wl->nmembers : 1, sizeof(char *));
		for (size_t k = 0; k < wl->nmembers; k++) {
			const struct obj *ss = in->stagesets[r->waves[i].idx[k]];
			char *key = xasprintf("%s/%s", ss->ns, ss->name);

			wl->members[k] = intern(f, key);
			free(key);
		}
	}
}

static void log_stamp(struct frc *f, const char *fleet, const char *wave_name, int64_t now_ms,
		      const struct fr_action *a, const char *ns, const char *name)
{
	struct frc_stamp_rec *e;
	char *key;

	if (f->nstamps == f->capstamps) {
		f->capstamps = f->capstamps ? f->capstamps * 2 : 16;
		f->stamps = xreallocarray(f->stamps, f->capstamps, sizeof(*f->stamps));
	}
	e = &f->stamps[f->nstamps++];
	key = xasprintf("%s/%s", ns, name);
	e->fleet = intern(f, fleet);
	e->t_ms = now_ms;
	e->wave = a->wave;
	e->wave_name = intern(f, wave_name);
	e->member = intern(f, key);
	e->value = intern(f, a->value);
	free(key);
}

const struct frc_gate_rec *frc_gate_log(const struct frc *f, size_t *n)
{
	*n = f ? f->ngates : 0;
	return f ? f->gates : NULL;
}

const struct frc_halt_rec *frc_halt_log(const struct frc *f, size_t *n)
{
	*n = f ? f->nhalts : 0;
	return f ? f->halts : NULL;
}

const struct frc_stamp_rec *frc_stamp_log(const struct frc *f, size_t *n)
{
	*n = f ? f->nstamps : 0;
	return f ? f->stamps : NULL;
}

/* ---- gates (MS:HTTPQuerier.Query as the simulator answers it) ---- */

static void set_err(char *err, size_t errlen, const char *msg)
{
	if (errlen > 0)
		snprintf(err, errlen, "%s", msg);
}

int frc_metric_from_series(const struct ps_series *s, int64_t interval_ms, int64_t t_ms,
			   double *value, char *err, size_t errlen)
{
	double v = 0;

	if (!s || ps_sample(s, interval_ms, t_ms, &v) == 0) {
		set_err(err, errlen, UNAVAILABLE ": query returned 0 samples, want exactly 1 (the "
			"query must reduce to a single scalar)");
		return -1;
	}
	if (isnan(v) || isinf(v)) {
		if (errlen > 0)
			snprintf(err, errlen, "%s: sample value is %s (a misconfigured query returns "
				 "NaN/Inf)", UNAVAILABLE, isnan(v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf"));
		return -1;
	}
	*value = v;
	return 0;
}

/* A dotted-quad IPv4 literal into @b; false for anything else. */
static bool ipv4_literal(const char *h, unsigned b[4])
{
	for (int i = 0; i < 4; i++) {
		unsigned v = 0;
		int digits = 0;

		while (*h >= '0' && *h <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(*h++ - '0');
			digits++;
		}
		if (digits == 0 || digits > 3 || v > 255)
			return false;
		b[i] = v;
		if (i < 3 && *h++ != '.')
			return false;
	}
	return *h == '\0';
}

/*
 * MS:ForbiddenIP at dial time, for what the simulator can tell without a
 * resolver: an IPv4 literal that is loopback, link-local unicast, multicast
 * (224/4, which holds the link-local multicast block) or unspecified, and
 * the name localhost.
 */
static bool forbidden_host(const char *host)
{
	unsigned b[4];

	if (strcmp(host, "localhost") == 0 || strcmp(host, "localhost.") == 0)
		return true;
	if (!ipv4_literal(host, b))
		return false;
	return b[0] == 127 || (b[0] == 169 && b[1] == 254) || (b[0] >= 224 && b[0] <= 239) ||
	       (b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0);
}

int frc_check_source(const char *address, const char *what, const char *const *hosts, size_t nhosts,
		     char *err, size_t errlen)
{
	char host[256];
	char *q;

	if (thr_url_hostname(address, host, sizeof(host)) != THR_OK) {
		q = lbl_go_quote(address);
		if (errlen > 0)
			snprintf(err, errlen, "%s: invalid %s %s", UNAVAILABLE, what, q);
		free(q);
		return -1;
	}
	if (!thr_host_allowed(hosts, nhosts, host)) {
		size_t n = strlen(host);

		if (n > 0 && host[n - 1] == '.')
			host[n - 1] = '\0';
		if (errlen > 0)
			snprintf(err, errlen, "%s: %s not in --allowed-action-hosts", UNAVAILABLE, host);
		return -1;
	}
	if (forbidden_host(host)) {
		if (errlen > 0)
			snprintf(err, errlen, "%s: %s", UNAVAILABLE,
				 strncmp(host, "localhost", 9) == 0 ? "127.0.0.1" : host);
		return -1;
	}
	return 0;
}

/* fr_gate_fn: the source checks, then the metric lookup. */
static int gate_value(void *ctx, size_t wave, const struct val *gate, double *value, char *err,
		      size_t errlen)
{
	struct frc *f = ctx;
	const struct val *src = val_map_get(gate, "source");
	const struct val *prom = val_map_get(src, "prometheus");
	const struct val *hook = val_map_get(src, "webhook");
	const char *address, *query, *what;

	(void)wave;
	if (prom && prom->type != VAL_NULL) {
		address = val_str(val_map_get(prom, "address"), "");
		query = val_str(val_map_get(prom, "query"), "");
		what = "prometheus address";
	} else if (hook && hook->type != VAL_NULL) {
		address = val_str(val_map_get(hook, "url"), "");
		query = val_str(val_map_get(hook, "jsonPath"), "");
		what = "webhook url";
	} else {
		set_err(err, errlen, "metric source has no provider");
		return -1;
	}
	if (frc_check_source(address, what, (const char *const *)f->hosts, f->nhosts, err, errlen) != 0)
		return -1;
	if (!f->metric)
		return frc_metric_from_series(NULL, 1, f->pass_now_ms, value, err, errlen);
	if (f->metric(f->metric_ctx, address, query, f->pass_now_ms, value, err, errlen) != 0)
		return -1;
	return 0;
}

/* ---- notices ---- */

static struct told *told_for(struct frc *f, const char *name)
{
	struct told *t;

	for (size_t i = 0; i < f->ntold; i++)
		if (strcmp(f->told[i].name, name) == 0)
			return &f->told[i];
	f->told = xreallocarray(f->told, f->ntold + 1, sizeof(*f->told));
	t = &f->told[f->ntold++];
	t->name = xstrdup(name);
	t->quirks = 0;
	t->undecodable = xstrdup("");
	t->halt = -1;
	t->has_asg = false;
	t->asg_uid = NULL;
	t->asg_members = NULL;
	t->asg_nmembers = 0;
	t->asg_waves = NULL;
	t->asg_nwaves = 0;
	t->tally = NULL;
	t->prior_rv = 0;
	memset(&t->prior, 0, sizeof(t->prior));
	t->soak = NULL;
	t->soak_uid = NULL;
	t->soak_gen = 0;
	return t;
}

static void notice(struct des *w, enum tl_severity sev, const char *name, const char *text)
{
	struct tl_objref ref = { KIND_FLEET, "", name, 0 };

	tl_notice_add(des_timeline(w), des_now(w), sev, text, &ref, 1);
}

/* ---- the stored status <-> struct fr_status ---- */

static char *str_or_empty(const struct val *v)
{
	return xstrdup(val_str(v, ""));
}

/* FleetRolloutStatus as the controller decodes it from the stored object. */
static void parse_status(const struct val *st, struct fr_status *out)
{
	const struct val *waves = val_map_get(st, "waves");
	const struct val *conds = val_map_get(st, "conditions");

	memset(out, 0, sizeof(*out));
	out->observed_generation = val_int(val_map_get(st, "observedGeneration"), 0);
	out->phase = str_or_empty(val_map_get(st, "phase"));
	out->current_wave = str_or_empty(val_map_get(st, "currentWave"));
	if (waves && waves->type == VAL_LIST && waves->u.list.n > 0) {
		out->nwaves = waves->u.list.n;
		out->waves = xcalloc(out->nwaves, sizeof(*out->waves));
		for (size_t i = 0; i < out->nwaves; i++) {
			const struct val *e = waves->u.list.items[i];
			struct fr_wave_status *ws = &out->waves[i];
			const char *until = val_str(val_map_get(e, "soakUntil"), NULL);

			ws->name = str_or_empty(val_map_get(e, "name"));
			ws->total = (int32_t)val_int(val_map_get(e, "total"), 0);
			ws->at_target = (int32_t)val_int(val_map_get(e, "atTarget"), 0);
			ws->ready = (int32_t)val_int(val_map_get(e, "ready"), 0);
			ws->settled = val_bool(val_map_get(e, "settled"), false);
			ws->health = str_or_empty(val_map_get(e, "health"));
			if (until && gt_parse_rfc3339(until, &ws->soak_until_ms, NULL, 0) == 0) {
				ws->has_soak_until = true;
				ws->soak_until = xstrdup(until);
			}
		}
	}
	for (size_t i = 0; conds && conds->type == VAL_LIST && i < conds->u.list.n; i++) {
		const struct val *c = conds->u.list.items[i];

		if (strcmp(val_str(val_map_get(c, "type"), ""), "Ready") != 0)
			continue;
		out->has_ready = true;
		out->ready.status = str_or_empty(val_map_get(c, "status"));
		out->ready.reason = str_or_empty(val_map_get(c, "reason"));
		out->ready.message = str_or_empty(val_map_get(c, "message"));
		out->ready.last_transition_time = str_or_empty(val_map_get(c, "lastTransitionTime"));
		out->ready.observed_generation = val_int(val_map_get(c, "observedGeneration"), 0);
		break;
	}
}

/* Set @key of @m to @v, or delete it when @v is NULL (omitempty). */
static void put(struct val *m, const char *key, struct val *v)
{
	if (v)
		val_map_set(m, key, v);
	else
		val_map_del(m, key);
}

static struct val *str_unless_empty(const char *s)
{
	return s && s[0] ? val_new_string(s) : NULL;
}

static struct val *int_unless_zero(int64_t i)
{
	return i ? val_new_int(i) : NULL;
}

static struct val *ready_condition(const struct fr_condition *c)
{
	struct val *v = val_new_map();

	val_map_set(v, "type", val_new_string("Ready"));
	val_map_set(v, "status", val_new_string(c->status ? c->status : ""));
	put(v, "observedGeneration", int_unless_zero(c->observed_generation));
	val_map_set(v, "lastTransitionTime",
		    val_new_string(c->last_transition_time ? c->last_transition_time : ""));
	val_map_set(v, "reason", val_new_string(c->reason ? c->reason : ""));
	val_map_set(v, "message", val_new_string(c->message ? c->message : ""));
	return v;
}

/*
 * The stored status after the pass: @old (borrowed, may be NULL) with the
 * fields FleetRolloutStatus owns replaced (omitempty as the JSON tags say)
 * and the Ready condition replaced in place or appended; other fields and
 * condition types stay.  Returns new.
 */
static struct val *status_val(const struct val *old, const struct fr_status *s)
{
	struct val *st = val_new_map();
	struct val *conds;

	if (old && old->type == VAL_MAP) {
		/*
		 * val_copy(old) but for the waves, replaced or deleted below
		 * anyway: a null holds their place in the key order.
		 */
		st->mark = old->mark;
		st->u.map.cap = old->u.map.n;
		st->u.map.items = xcalloc(old->u.map.n ? old->u.map.n : 1, sizeof(struct val_kv));
		for (size_t i = 0; i < old->u.map.n; i++) {
			const struct val_kv *kv = &old->u.map.items[i];

			val_map_append_kv(st, kv, strcmp(kv->key, "waves") == 0 ? val_new_null()
										: val_copy(kv->v));
		}
	}

	put(st, "observedGeneration", int_unless_zero(s->observed_generation));
	put(st, "phase", str_unless_empty(s->phase));
	put(st, "currentWave", str_unless_empty(s->current_wave));
	if (s->nwaves > 0) {
		struct val *waves = val_new_list();

		for (size_t i = 0; i < s->nwaves; i++) {
			const struct fr_wave_status *ws = &s->waves[i];
			struct val *e = val_new_map();

			val_map_set(e, "name", val_new_string(ws->name ? ws->name : ""));
			put(e, "total", int_unless_zero(ws->total));
			put(e, "atTarget", int_unless_zero(ws->at_target));
			put(e, "ready", int_unless_zero(ws->ready));
			put(e, "settled", ws->settled ? val_new_bool(true) : NULL);
			if (ws->has_soak_until && ws->soak_until) {
				/* fr_reconcile() formatted it from soak_until_ms */
				val_map_set(e, "soakUntil", val_new_string(ws->soak_until));
			} else if (ws->has_soak_until) {
				char *t = fr_format_time(ws->soak_until_ms);

				val_map_set(e, "soakUntil", val_new_string(t));
				free(t);
			}
			put(e, "health", str_unless_empty(ws->health));
			val_list_push(waves, e);
		}
		val_map_set(st, "waves", waves);
	} else {
		val_map_del(st, "waves");
	}
	if (!s->has_ready)
		return st;
	conds = val_map_get(st, "conditions");
	if (!conds || conds->type != VAL_LIST)
		conds = val_map_set(st, "conditions", val_new_list());
	for (size_t i = 0; i < conds->u.list.n; i++) {
		if (strcmp(val_str(val_map_get(conds->u.list.items[i], "type"), ""), "Ready") == 0) {
			val_free(conds->u.list.items[i]);
			conds->u.list.items[i] = ready_condition(&s->ready);
			return st;
		}
	}
	val_list_push(conds, ready_condition(&s->ready));
	return st;
}

/* ---- the reconcile (FC:Reconcile) ---- */

/*
 * spec.waves[].soak as the controller decodes it (metav1.Duration; nil ⇒ 0).
 * Returns a new array (one per wave, at least one element), or NULL with
 * *@bad a new text when one does not decode.
 */
static int64_t *wave_soaks(const struct obj *fr, char **bad)
{
	const struct val *waves = val_map_get(fr->spec, "waves");
	size_t n = (waves && waves->type == VAL_LIST) ? waves->u.list.n : 0;
	int64_t *soak = xcalloc(n ? n : 1, sizeof(*soak));

	*bad = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct val *v = val_map_get(waves->u.list.items[i], "soak");
		char e[256];

		if (!v || v->type == VAL_NULL)
			continue;
		if (v->type != VAL_STRING || gt_parse_duration(v->u.s, &soak[i], e, sizeof(e)) != 0) {
			*bad = xasprintf("FleetRollout %s: spec.waves[%zu].soak does not decode as a "
					 "duration (%s), so the controller cannot read the object "
					 "and never reconciles it",
					 fr->name, i, v->type == VAL_STRING ? e : "not a string");
			free(soak);
			return NULL;
		}
	}
	return soak;
}

/* Room sel_key_into() needs for @o, the terminating NUL included. */
static size_t sel_key_len(const struct obj *o)
{
	size_t len = strlen(o->ns) + strlen(o->name) + 48;

	for (size_t i = 0; i < o->labels.n; i++)
		len += strlen(o->labels.items[i].key) + strlen(o->labels.items[i].value) + 48;
	return len;
}

/*
 * Namespace, name and labels, each length-prefixed (unambiguous), into @k
 * (sel_key_len(@o) bytes at least).  Built without printf: a key is made
 * for every StageSet change the adapter sees.
 */
static void sel_key_into(const struct obj *o, char *k)
{
	char *p = kb_field(kb_field(k, o->ns), o->name);

	for (size_t i = 0; i < o->labels.n; i++)
		p = kb_field(kb_field(p, o->labels.items[i].key), o->labels.items[i].value);
	*p = '\0';
}

/* Every tally of every FleetRollout learns that StageSet @i now has the facts @m. */
static void tallies_update(struct frc *f, size_t i, const struct fr_member_facts *m)
{
	for (size_t k = 0; k < f->ntold; k++)
		fr_tally_update(f->told[k].tally, i, m);
}

/*
 * Position @i of @s now holds @o: read again unless (pointer,
 * resourceVersion) are what was read; returns true when the key changed.
 */
static bool seen_put(struct frc *f, struct seen *s, size_t i, const struct obj *o, bool facts)
{
	bool changed = false;
	char buf[512], *k;
	size_t len;

	if (s->ptr[i] == o && s->rv[i] == o->resource_version)
		return false;
	len = sel_key_len(o);
	k = len <= sizeof(buf) ? buf : xmalloc(len);
	sel_key_into(o, k);
	if (!s->key[i] || strcmp(k, s->key[i]) != 0) {
		changed = true;
		free(s->key[i]);
		s->key[i] = k == buf ? xstrdup(buf) : k;
	} else if (k != buf) {
		free(k);
	}
	s->ptr[i] = o;
	s->rv[i] = o->resource_version;
	if (facts) {
		fr_member_facts_of(o, &s->facts[i]);
		tallies_update(f, i, &s->facts[i]);
	}
	return changed;
}

/*
 * Bring @s up to the store's List of @kind: from the store's change log
 * when it reaches back to the last refresh and no object of the kind was
 * created or removed since (O(changes)), else from a full List (O(n)).
 * Only objects whose (pointer, resourceVersion) changed are read again; a
 * changed count or key bumps @f->epoch (the cached selections go stale).
 * @facts: keep member facts (and tell the tallies).
 */
static void seen_refresh(struct frc *f, struct api *api, struct seen *s, const char *kind,
			 struct api_list *scratch, bool facts)
{
	uint64_t shape = api_kind_shape(api, kind);
	bool changed = false;
	size_t n;

	if (s->valid && shape == s->shape &&
	    api_changes_since(api, kind, s->at_rv, &f->changes) == 0) {
		for (size_t c = 0; c < f->changes.n; c++)
			if (seen_put(f, s, f->changes.pos[c], f->changes.items[c], facts))
				changed = true;
		goto out_mark;
	}
	n = api_list(api, kind, NULL, NULL, NULL, scratch);
	changed = n != s->n;
	if (n > s->n) {
		s->ptr = xreallocarray(s->ptr, n, sizeof(*s->ptr));
		s->rv = xreallocarray(s->rv, n, sizeof(*s->rv));
		s->key = xreallocarray(s->key, n, sizeof(*s->key));
		if (facts)
			s->facts = xreallocarray(s->facts, n, sizeof(*s->facts));
		for (size_t i = s->n; i < n; i++) {
			s->ptr[i] = NULL;
			s->rv[i] = 0;
			s->key[i] = NULL;
		}
	}
	for (size_t i = n; i < s->n; i++) {
		free(s->key[i]);
		s->key[i] = NULL;
	}
	s->n = n;
	for (size_t i = 0; i < n; i++)
		if (seen_put(f, s, i, scratch->items[i], facts))
			changed = true;
out_mark:
	s->valid = true;
	s->shape = shape;
	s->at_rv = api_resource_version(api);
	if (changed)
		f->epoch++;
}

static void seen_release(struct seen *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->key[i]);
	free(s->key);
	free(s->ptr);
	free(s->rv);
	free(s->facts);
	memset(s, 0, sizeof(*s));
}

static void asg_drop(struct told *t)
{
	free(t->asg_uid);
	free(t->asg_members);
	for (size_t i = 0; i < t->asg_nwaves; i++)
		free(t->asg_waves[i].idx);
	free(t->asg_waves);
	t->has_asg = false;
	t->asg_uid = NULL;
	t->asg_members = NULL;
	t->asg_nmembers = 0;
	t->asg_waves = NULL;
	t->asg_nwaves = 0;
	fr_tally_free(t->tally);
	t->tally = NULL;
}

/* The target of one action, copied before any write makes the listed pointers stale. */
struct patch_to {
	char *ns;
	char *name;
	const char *key;
	char *value;
};

static struct ctl_result reconcile(void *ctx, struct des *w, const char *ns, const char *name,
				   int64_t now_ms)
{
	struct frc *f = ctx;
	struct api *api = des_api(w);
	const struct obj *fr = api_get(api, KIND_FLEET, "", name);
	struct ctl_result res = { 0 };
	struct told *t;
	struct fr_input in;
	struct fr_assignment asg;
	struct fr_result r;
	struct patch_to *to;
	const char **to_wave;
	char now_text[GT_RFC3339_BUFSZ];
	char *bad = NULL;
	int64_t *soak;
	size_t nto;

	(void)ns;
	if (!fr)
		return res; /* client.IgnoreNotFound */
	t = told_for(f, name);
	if (t->soak && t->soak_gen == fr->generation &&
	    strcmp(t->soak_uid, fr->uid ? fr->uid : "") == 0) {
		soak = t->soak; /* a (uid, generation) names one spec */
		goto have_soak;
	}
	soak = wave_soaks(fr, &bad);
	if (!soak) {
		if (strcmp(bad, t->undecodable) != 0) {
			notice(w, TL_ERROR, name, bad);
			free(t->undecodable);
			t->undecodable = bad;
		} else {
			free(bad);
		}
		return res;
	}
	free(t->undecodable);
	t->undecodable = xstrdup("");
	free(t->soak);
	free(t->soak_uid);
	t->soak = soak;
	t->soak_uid = xstrdup(fr->uid ? fr->uid : "");
	t->soak_gen = fr->generation;
have_soak:
	if (t->prior_rv != fr->resource_version) {
		if (t->prior_rv)
			fr_status_release(&t->prior);
		parse_status(fr->status, &t->prior);
		t->prior_rv = fr->resource_version;
	}
	gt_format_rfc3339(f->start_unix_ms + now_ms, now_text, sizeof(now_text));
	memset(&in, 0, sizeof(in));
	in.fr = fr;
	in.prior = &t->prior;
	/* the Lists, kept current from the store's change log (same items, same order) */
	seen_refresh(f, api, &f->seen_ss, KIND_STAGESET, &f->stagesets, true);
	seen_refresh(f, api, &f->seen_ns, KIND_NAMESPACE, &f->namespaces, false);
	in.stagesets = f->seen_ss.ptr;
	in.nstagesets = f->seen_ss.n;
	in.namespaces = f->seen_ns.ptr;
	in.nnamespaces = f->seen_ns.n;
	in.nothers = api_list(api, KIND_FLEET, NULL, NULL, NULL, &f->fleets);
	in.others = f->fleets.items;
	in.facts = f->seen_ss.facts;
	if (t->has_asg && (t->asg_epoch != f->epoch || t->asg_generation != fr->generation ||
			   strcmp(t->asg_uid, fr->uid ? fr->uid : "") != 0))
		asg_drop(t);
	if (t->has_asg) {
		asg.members = t->asg_members;
		asg.nmembers = t->asg_nmembers;
		asg.waves = t->asg_waves;
		asg.nwaves = t->asg_nwaves;
		asg.noverlap = t->asg_noverlap;
		asg.first_overlap = t->asg_first_overlap;
		in.assignment = &asg;
		if (!t->tally)
			t->tally = fr_tally_new(fr, &asg, in.facts, in.nstagesets);
		in.tally = t->tally;
	}
	in.wave_soak_ms = soak;
	in.now_ms = f->start_unix_ms + now_ms;
	in.now_text = now_text;
	in.gate = gate_value;
	in.gate_ctx = f;
	f->pass_now_ms = now_ms;
	fr_reconcile(&in, &r); /* no patch callback: every patch is applied below */
	if (!t->has_asg && r.version_label) {
		/* S4 assigned every member: keep the selection and assignment */
		t->has_asg = true;
		t->asg_uid = xstrdup(fr->uid ? fr->uid : "");
		t->asg_generation = fr->generation;
		t->asg_epoch = f->epoch;
		t->asg_members = xmalloc((r.nmembers ? r.nmembers : 1) * sizeof(size_t));
		if (r.nmembers > 0)
			memcpy(t->asg_members, r.members, r.nmembers * sizeof(size_t));
		t->asg_nmembers = r.nmembers;
		t->asg_nwaves = r.nwaves;
		t->asg_waves = xcalloc(r.nwaves ? r.nwaves : 1, sizeof(*t->asg_waves));
		for (size_t i = 0; i < r.nwaves; i++) {
			size_t n = r.waves[i].n;

			t->asg_waves[i].n = n;
			t->asg_waves[i].idx = xmalloc((n ? n : 1) * sizeof(size_t));
			if (n > 0)
				memcpy(t->asg_waves[i].idx, r.waves[i].idx, n * sizeof(size_t));
		}
		t->asg_noverlap = r.noverlap;
		t->asg_first_overlap = r.first_overlap;
	}
	log_gates(f, fr, now_ms, &r);
	log_halt(f, t, fr, now_ms, &in, &r);

	/* copy the targets: the listed objects go stale from the first write on */
	nto = r.nactions;
	to = xcalloc(nto ? nto : 1, sizeof(*to));
	to_wave = xcalloc(nto ? nto : 1, sizeof(*to_wave));
	for (size_t i = 0; i < nto; i++) {
		const struct obj *ss = in.stagesets[r.actions[i].member];

		to_wave[i] = intern(f, wave_name_at(fr, r.actions[i].wave));

		to[i].ns = xstrdup(ss->ns);
		to[i].name = xstrdup(ss->name);
		to[i].key = r.actions[i].annotation;
		to[i].value = xstrdup(r.actions[i].value);
	}
	fr = NULL;

	/* reconcile(): approvals or rollback stamps, in order; an error stops there */
	for (size_t i = 0; i < nto && res.err == 0; i++)
		if (api_set_annotation(api, KIND_STAGESET, to[i].ns, to[i].name, to[i].key,
				       to[i].value) != 0)
			res.err = -1;
		else if (r.actions[i].kind == FR_ACT_ROLLBACK)
			log_stamp(f, name, to_wave[i], now_ms, &r.actions[i], to[i].ns, to[i].name);
	if (res.err == 0 && r.event_halted)
		notice(w, TL_WARNING, name, r.event_note);

	/* helper.Patch: always; writes only what changed */
	if (r.status_changed) {
		const struct obj *cur = api_get(api, KIND_FLEET, "", name);

		if (cur) {
			struct obj *o = obj_new(cur->api_version, KIND_FLEET, "", name);

			o->status = status_val(cur->status, &r.status);
			if (api_update_status(api, o) != 0 && res.err == 0)
				res.err = -1;
		}
	}

	for (size_t i = 0; i < r.nquirks; i++) {
		uint32_t bit = UINT32_C(1) << (unsigned)r.quirks[i].quirk;

		if (t->quirks & bit)
			continue;
		t->quirks |= bit;
		notice(w, TL_INFO, name, r.quirks[i].text);
	}
	if (res.err == 0)
		res.requeue_after_ms = r.requeue_after_ms;

	for (size_t i = 0; i < nto; i++) {
		free(to[i].ns);
		free(to[i].name);
		free(to[i].value);
	}
	free(to);
	free(to_wave);
	fr_result_release(&r);
	return res;
}

/* ---- watches (FC:SetupWithManager, FC:mapStageSetToFleets) ---- */

/* The parsed top-level selector of @fr, cached per (uid, generation); NULL: it does not parse. */
static const struct lbl_selector *fleet_selector(struct frc *f, const struct obj *fr)
{
	struct sel_cache *c = NULL;
	const struct val *v;

	for (size_t i = 0; i < f->nsel; i++)
		if (strcmp(f->sel[i].name, fr->name) == 0) {
			c = &f->sel[i];
			break;
		}
	if (!c) {
		f->sel = xreallocarray(f->sel, f->nsel + 1, sizeof(*f->sel));
		c = &f->sel[f->nsel++];
		memset(c, 0, sizeof(*c));
		c->name = xstrdup(fr->name);
		c->uid = xstrdup("");
		c->generation = -1;
	}
	if (c->generation != fr->generation || strcmp(c->uid, fr->uid ? fr->uid : "") != 0) {
		lbl_selector_release(&c->sel);
		free(c->uid);
		c->uid = xstrdup(fr->uid ? fr->uid : "");
		c->generation = fr->generation;
		v = val_map_get(fr->spec, "selector");
		/* a value-typed LabelSelector: absent or null is the empty selector */
		if (!v || v->type == VAL_NULL)
			c->ok = true;
		else
			c->ok = lbl_selector_from_val(v, &c->sel, NULL, 0) == LBL_OK;
	}
	return c->ok ? &c->sel : NULL;
}

static void map_stageset_to_fleets(void *ctx, struct des *w, const struct obj *o,
				   struct ctl_keys *out)
{
	struct frc *f = ctx;
	size_t n = api_list(des_api(w), KIND_FLEET, NULL, NULL, NULL, &f->maplist);

	for (size_t i = 0; i < n; i++) {
		const struct obj *fr = f->maplist.items[i];
		const struct lbl_selector *sel = fleet_selector(f, fr);

		if (sel && lbl_matches(sel, &o->labels))
			ctl_keys_add(out, "", fr->name);
	}
}

struct frc *frc_register(struct des *w, const struct frc_params *p)
{
	struct frc *f = xcalloc(1, sizeof(*f));

	f->start_unix_ms = p->start_unix_ms;
	f->nhosts = p->nallowed_action_hosts;
	f->hosts = xcalloc(f->nhosts ? f->nhosts : 1, sizeof(*f->hosts));
	for (size_t i = 0; i < f->nhosts; i++)
		f->hosts[i] = xstrdup(p->allowed_action_hosts[i]);
	f->metric = p->metric;
	f->metric_ctx = p->metric_ctx;
	api_list_init(&f->stagesets);
	api_list_init(&f->namespaces);
	api_list_init(&f->fleets);
	api_list_init(&f->maplist);
	api_changes_init(&f->changes);

	f->ctl = ctl_new(w, FRC_CONTROLLER, reconcile, f);
	ctl_for(f->ctl, KIND_FLEET, NULL, NULL);
	ctl_watches(f->ctl, KIND_STAGESET, map_stageset_to_fleets, f, NULL, NULL);
	return f;
}

void frc_free(struct frc *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nhosts; i++)
		free(f->hosts[i]);
	free(f->hosts);
	for (size_t i = 0; i < f->ntold; i++) {
		free(f->told[i].name);
		free(f->told[i].undecodable);
		asg_drop(&f->told[i]);
		if (f->told[i].prior_rv)
			fr_status_release(&f->told[i].prior);
		free(f->told[i].soak);
		free(f->told[i].soak_uid);
	}
	seen_release(&f->seen_ss);
	seen_release(&f->seen_ns);
	api_changes_release(&f->changes);
	free(f->told);
	for (size_t i = 0; i < f->nsel; i++) {
		free(f->sel[i].name);
		free(f->sel[i].uid);
		lbl_selector_release(&f->sel[i].sel);
	}
	free(f->sel);
	free(f->gates);
	for (size_t i = 0; i < f->nhalts; i++) {
		for (size_t k = 0; k < f->halts[i].nwaves; k++)
			free(f->halts[i].waves[k].members);
		free(f->halts[i].waves);
	}
	free(f->halts);
	free(f->stamps);
	for (size_t i = 0; i < f->capstrs; i++)
		free(f->strs[i]);
	free(f->strs);
	api_list_release(&f->stagesets);
	api_list_release(&f->namespaces);
	api_list_release(&f->fleets);
	api_list_release(&f->maplist);
	free(f);
}

struct ctl *frc_ctl(const struct frc *f)
{
	return f->ctl;
}
