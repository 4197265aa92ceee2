/*
 * The StageSet controller in the world: see sim/wire/stageset_rc.h.
 *
 * StageSets are heap records (stable pointers) in the order first seen,
 * found by "ns/name" through a string index.  Each keeps the parsed spec of
 * its last (uid, generation) with a retained store snapshot (the parse
 * borrows the snapshot's spec tree), the parsed status of the last status
 * tree read (also retained), its inventory shards, its adoption attempts and
 * the index keys it is registered under.  Two indexes answer the watches'
 * map functions: dependents by dependency (W3) and StageSets by the sources
 * their stages name (W5, W6); both are supersets checked against the
 * candidate's current spec on look-up.  Modelled sources (those the store
 * does not hold) have one pending timer each at their next change.
 *
 * env.c-style callbacks (struct ssc_env) live in the second half; a pass's
 * context (struct pass_env) is on the reconcile's stack, so nothing a pass
 * asks outlives it but the world's own objects.
 */
#include "sim/wire/stageset_rc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/sha256.h"
#include "engine/stageset_types.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/rng.h"
#include "sim/core/timeline.h"
#include "sim/load/tzif.h"
#include "sim/load/yamlload.h"
#include "sim/wire/fleet_rc.h"

#define KIND_SS "StageSet"
#define KIND_NS "Namespace"
#define KIND_EA "ExternalArtifact"
#define KIND_LEDGER "StageLedger"
#define SS_API "stages.metio.wtf/v1"
#define SS_GROUP "stages.metio.wtf"
#define SOURCE_GROUP "source.toolkit.fluxcd.io"
#define NONE SIZE_MAX
#define KEY_STACK 256
#define MS_PER_S INT64_C(1000)

/* ---------------------------------------------------------------- records */

/* One stage's StageInventory shard as the controller last wrote it. */
struct inv_rec {
	char *stage;
	int position;
	int64_t entries;
	char *id;              /* its one entry ID (the world renders one object per stage) */
};

struct member {
	char *ns, *name, *key;
	size_t idx;
	struct api_ref ref;
	/* the parsed spec of (uid, generation), borrowing spec_snap's spec tree */
	struct api_snap *spec_snap;
	char *spec_uid;
	int64_t spec_gen;
	bool has_spec;
	bool spec_ok;
	struct sst_spec spec;
	/* the parsed status of st_snap's status tree */
	struct api_snap *st_snap;
	bool has_prior;
	struct sst_status prior;
	/* index keys this StageSet is registered under (owned) */
	char **deps;           /* "ns/name" of same-namespace dependencies (W3) */
	size_t ndeps;
	char **srcs;           /* "Kind/ns/name" of its stage refs, ns its own (W5, W6) */
	size_t nsrcs;
	/* the world */
	bool world_seen;
	uint64_t seen_rv;      /* the object version last told (labels cannot change without a new one) */
	struct obj_strmap seen_labels, seen_ns_labels;
	/* inventory shards, by stage name */
	struct inv_rec *inv;
	size_t ninv;
	/* passes, requeues, attempts */
	uint32_t passes;
	uint32_t requeues;
	struct ssrc_attempt *att;
	size_t natt, capatt;
	bool open;             /* the last attempt is in flight (StageProgressing) */
	size_t faults_told;    /* fault windows announced on the timeline */
	int64_t deletion_ms;   /* a scheduled deletion, -1 none */
	bool gone;
	/* per spec: each stage's StageInventory entry ID, and whether a held pass may be reused */
	char **ids;
	size_t nids;
	bool memo_spec;
	/*
	 * The last pass, when it stopped before the stages without writing or
	 * emitting anything (AwaitingApproval, a refused plan): the object
	 * version and time it read, its exit and requeue, and per stage the
	 * resourceVersion of its source in the store (0: modelled).  A pass of
	 * the same object version whose sources have not changed since gets
	 * the same result (memo_reuse()).
	 */
	bool memo_steady_spec; /* and a steady pass too: no actions, promotion, budgets or ready checks */
	int memo;              /* MEMO_NONE, MEMO_HELD, MEMO_STEADY */
	uint64_t memo_rv;
	int64_t memo_t;
	enum ssc_exit memo_exit;
	enum ssc_requeue memo_requeue;
	int64_t memo_after;
	int64_t memo_elapsed;
	uint64_t *memo_src;
	struct api_ref *src_ref; /* per stage: where the store keeps its source (api_get_ref() memo) */
	int64_t memo_until;    /* the first change of a modelled source after memo_t, as of memo_epoch */
	uint64_t memo_epoch;
	/* the pass in flight (one at a time per key), kept for the next */
	struct pass_end *pe;
};

/* A set of member indices under one index key. */
struct bucket {
	size_t *m;
	size_t n, cap;
};

/* A modelled source's pending wake-up. */
struct src_timer {
	char *kind, *ns, *name;
	char *back_kind;       /* a producer's kind when the source is its ExternalArtifact */
	evq_handle h;          /* 0: none pending */
	int64_t at_ms;         /* when the pending one fires (change + latency) */
};

/* What a member's last pass can stand for (struct member, memo). */
enum { MEMO_NONE, MEMO_HELD, MEMO_STEADY };

/* What one pass hands from its start to its end (ctl_result.pass); one per member, reused. */
struct pass_end {
	struct member *m;
	int64_t start_ms;      /* simulated ms */
	struct ssc_result res;
	bool memo;             /* the result is the last pass's (memo_reuse()), not a new ssc_reconcile() */
	struct api_snap *read; /* the object version the pass read (retained) */
	const char *prior_version; /* status.version as read (borrowed from the member's parse; valid
				    * only until pass_end_fn() replaces the parse with the status written) */
	bool stayed;               /* the pass ended on the version it read (res.desired == prior_version) */
	bool directed;         /* desired == rollback-to annotation */
};

struct ssrc {
	struct des *w;
	struct api *api;
	struct ctl *ctl;
	struct sw_world *world;
	int64_t start_unix_ms;
	int64_t latency_ms;
	uint64_t seed, trial;
	struct ssc_options opt;
	char **hosts;
	size_t nhosts;
	struct tzif_cache tz;

	struct member **mem;
	size_t nmem, capmem;
	struct strindex mem_ix;
	/* the work queue's key strings (stable per key) → member, for the passes */
	const char **pkeys;
	struct member **pvals;
	size_t pcap, pn;
	struct ssrc_member_stat *stats;
	size_t capstats;

	struct strindex dep_ix;   /* dependency "ns/name" → bucket */
	struct strindex src_ix;   /* "Kind/ns/name" → bucket */
	struct bucket *buckets;
	size_t nbuckets, capbuckets;

	struct strindex timer_ix; /* world source "Kind/ns/name" → timer */
	struct src_timer *timers;
	size_t ntimers, captimers;

	/* scheduled StageSet deletions ("ns/name" → ms) */
	struct strindex del_ix;
	int64_t *del_ms;

	uint32_t told_quirks[2]; /* bit q: quirk Q-q told */
	/*
	 * The texts of the fault notices scheduled (on_fault_notice()): kept
	 * here and freed with the adapter, as a notice due after the run's end
	 * never fires.
	 */
	char **fault_texts;
	size_t nfault_texts, capfault_texts;
	uint64_t world_epoch;    /* bumped whenever the world is told about a StageSet (reach may move) */
	int busy_peak;

	/* scratch of a pass */
	const struct obj **listed;
	size_t caplisted;
	struct api_list scratch;
	struct ssc_inventory_record *recs;
	size_t caprecs;
	const char **rec_ids;
	size_t caprec_ids;
};

bool ssrc_reuse_passes = true;

/* ---------------------------------------------------------------- helpers */

static const char *nz(const char *s)
{
	return s ? s : "";
}

static bool streq(const char *a, const char *b)
{
	return strcmp(nz(a), nz(b)) == 0;
}


static int64_t sim_ms(const struct ssrc *r, int64_t unix_ms)
{
	return unix_ms - r->start_unix_ms;
}

/* The resource name of @kind for API error texts ("stagesets.stages.metio.wtf"). */
static void resource_of(const char *kind, char *out, size_t len)
{
	static const struct { const char *kind, *res; } known[] = {
		{ "StageSet", "stagesets." SS_GROUP },
		{ "StageLedger", "stageledgers." SS_GROUP },
		{ "ExternalArtifact", "externalartifacts." SOURCE_GROUP },
		{ "GitRepository", "gitrepositories." SOURCE_GROUP },
		{ "OCIRepository", "ocirepositories." SOURCE_GROUP },
		{ "Bucket", "buckets." SOURCE_GROUP },
		{ "Secret", "secrets" },
		{ "Namespace", "namespaces" },
	};
	size_t i, n = 0;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(known[i].kind, kind) == 0) {
			snprintf(out, len, "%s", known[i].res);
			return;
		}
	/* Another kind: its lower-case plural, as the REST mapper guesses it. */
	for (i = 0; kind[i] && n + 2 < len; i++)
		out[n++] = (char)(kind[i] >= 'A' && kind[i] <= 'Z' ? kind[i] - 'A' + 'a' : kind[i]);
	if (n + 1 < len)
		out[n++] = 's';
	out[n] = '\0';
}

static void not_found(struct ssc_err *err, const char *kind, const char *name)
{
	char res[128];

	resource_of(kind, res, sizeof(res));
	ssc_err_set(err, SSC_ERR_NOT_FOUND, "%s \"%s\" not found", res, name);
}

/* ---------------------------------------------------------------- members */

static struct member *member_find(const struct ssrc *r, const char *ns, const char *name)
{
	char buf[KEY_STACK];
	char *k = kb_join2(buf, sizeof(buf), ns, name);
	size_t pos;
	bool found = si_get(&r->mem_ix, k, &pos);

	kb_drop(k, buf);
	return found ? r->mem[pos] : NULL;
}

static struct member *member_get(struct ssrc *r, const char *ns, const char *name);

static size_t ptr_slot(const struct ssrc *r, const char *key)
{
	uintptr_t h = (uintptr_t)key;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 7) & (r->pcap - 1);
}

/*
 * The member of a work-queue key: the queue hands every pass of one key the
 * same name string, so its address finds the member without hashing text.
 */
static struct member *member_of_key(struct ssrc *r, const char *ns, const char *name)
{
	size_t i;
	struct member *m;

	if (r->pcap) {
		for (i = ptr_slot(r, name); r->pkeys[i]; i = (i + 1) & (r->pcap - 1))
			if (r->pkeys[i] == name)
				return r->pvals[i];
	}
	m = member_get(r, ns, name);
	if (2 * (r->pn + 1) > r->pcap) {
		const char **ok = r->pkeys;
		struct member **ov = r->pvals;
		size_t oc = r->pcap;

		r->pcap = oc ? 2 * oc : 64;
		r->pkeys = xcalloc(r->pcap, sizeof(*r->pkeys));
		r->pvals = xcalloc(r->pcap, sizeof(*r->pvals));
		for (size_t k = 0; k < oc; k++)
			if (ok[k]) {
				for (i = ptr_slot(r, ok[k]); r->pkeys[i]; i = (i + 1) & (r->pcap - 1))
					;
				r->pkeys[i] = ok[k];
				r->pvals[i] = ov[k];
			}
		free(ok);
		free(ov);
	}
	for (i = ptr_slot(r, name); r->pkeys[i]; i = (i + 1) & (r->pcap - 1))
		;
	r->pkeys[i] = name;
	r->pvals[i] = m;
	r->pn++;
	return m;
}

static struct member *member_get(struct ssrc *r, const char *ns, const char *name)
{
	struct member *m = member_find(r, ns, name);
	size_t pos;

	if (m)
		return m;
	m = xcalloc(1, sizeof(*m));
	m->ns = xstrdup(ns);
	m->name = xstrdup(name);
	m->key = xasprintf("%s/%s", ns, name);
	m->idx = r->nmem;
	m->deletion_ms = -1;
	obj_strmap_init(&m->seen_labels);
	obj_strmap_init(&m->seen_ns_labels);
	if (si_get(&r->del_ix, m->key, &pos))
		m->deletion_ms = r->del_ms[pos];
	if (r->nmem == r->capmem) {
		r->capmem = r->capmem ? 2 * r->capmem : 64;
		r->mem = xreallocarray(r->mem, r->capmem, sizeof(*r->mem));
	}
	r->mem[r->nmem++] = m;
	si_put(&r->mem_ix, m->key, m->idx);
	return m;
}

static bool direct_kind(const char *kind);

/* The Deployment the world renders for @stage of @m: its StageInventory entry ID. */
static char *entry_id(const struct member *m, const char *stage)
{
	return xasprintf("apps_Deployment_%s_%s-%s", m->ns, m->name, stage);
}

/*
 * What follows from a new spec: the stages' entry IDs, and whether a held
 * pass can be reused (memo_reuse()): nothing before the approval gate reads
 * the clock or a world that changes by itself — no dependsOn, update
 * windows, error budget or sourced ladder, an inline version (or none), and
 * stage sources that are ExternalArtifacts by name or Flux sources (a
 * producer ref lists every ExternalArtifact of the namespace).
 */
static void spec_derived(struct member *m)
{
	for (size_t i = 0; i < m->nids; i++)
		free(m->ids[i]);
	free(m->ids);
	free(m->memo_src);
	free(m->src_ref);
	m->ids = NULL;
	m->nids = 0;
	m->memo_src = NULL;
	m->src_ref = NULL;
	m->memo = MEMO_NONE;
	m->memo_spec = m->memo_steady_spec = false;
	if (!m->spec_ok)
		return;
	m->nids = m->spec.nstages;
	m->ids = xcalloc(m->nids ? m->nids : 1, sizeof(*m->ids));
	m->memo_src = xcalloc(m->nids ? m->nids : 1, sizeof(*m->memo_src));
	m->src_ref = xcalloc(m->nids ? m->nids : 1, sizeof(*m->src_ref));
	for (size_t i = 0; i < m->nids; i++)
		m->ids[i] = entry_id(m, m->spec.stages[i].name);
	m->memo_spec = m->spec.ndepends_on == 0 && m->spec.nwindows == 0 && !m->spec.has_error_budget &&
		       !m->spec.has_migrations_source &&
		       (!m->spec.has_version || (!m->spec.version.has_from_artifact &&
						  !m->spec.version.has_from_object));
	for (size_t i = 0; m->memo_spec && i < m->spec.nstages; i++) {
		const char *kind = m->spec.stages[i].source_ref.kind;

		m->memo_spec = !kind || !kind[0] || strcmp(kind, KIND_EA) == 0 || direct_kind(kind);
	}
	m->memo_steady_spec = m->memo_spec;
	for (size_t i = 0; m->memo_steady_spec && i < m->spec.nstages; i++) {
		const struct sst_stage *st = &m->spec.stages[i];

		m->memo_steady_spec = !st->has_actions && !st->has_promotion && !st->has_error_budget &&
				      !st->has_ready_checks;
	}
}

/*
 * The spec of @o (the current version, whose snapshot is @snap) parsed for
 * @m, once per (uid, generation).  Returns whether the parse changed (a new
 * spec), so the caller can re-register the indexes.
 */
static bool ensure_spec(struct member *m, struct api_snap *snap)
{
	const struct obj *o = api_snap_obj(snap);
	char err[256];

	if (m->has_spec && m->spec_gen == o->generation && streq(m->spec_uid, o->uid)) {
		/*
		 * The same spec; a newer version shares its tree, so hold that one
		 * instead and let the store free the older version.
		 */
		if (snap != m->spec_snap && api_snap_obj(m->spec_snap)->spec == o->spec) {
			api_snap_retain(snap);
			api_snap_release(m->spec_snap);
			m->spec_snap = snap;
		}
		return false;
	}
	if (m->has_spec) {
		sst_spec_release(&m->spec);
		api_snap_release(m->spec_snap);
		free(m->spec_uid);
	}
	memset(&m->spec, 0, sizeof(m->spec));
	m->spec_snap = api_snap_retain(snap);
	m->spec_uid = xstrdup(nz(o->uid));
	m->spec_gen = o->generation;
	m->has_spec = true;
	m->spec_ok = sst_spec_parse(o->spec, &m->spec, err, sizeof(err)) == 0;
	if (!m->spec_ok)
		sst_spec_release(&m->spec);
	spec_derived(m);
	return true;
}

/* The status of @snap parsed for @m, unless it is the tree parsed last. */
static void ensure_prior(struct member *m, struct api_snap *snap)
{
	const struct obj *o = api_snap_obj(snap);

	if (m->has_prior && api_snap_obj(m->st_snap)->status == o->status) {
		/* the same tree (a metadata write shares it): keep the parse */
		api_snap_release(m->st_snap);
		m->st_snap = api_snap_retain(snap);
		return;
	}
	if (m->has_prior) {
		sst_status_release(&m->prior);
		api_snap_release(m->st_snap);
	}
	sst_status_parse(o->status, &m->prior);
	m->st_snap = api_snap_retain(snap);
	m->has_prior = true;
}

/* ---------------------------------------------------------------- indexes */

static struct bucket *bucket_of(struct ssrc *r, struct strindex *ix, const char *key, bool create)
{
	size_t pos;

	if (si_get(ix, key, &pos))
		return &r->buckets[pos];
	if (!create)
		return NULL;
	if (r->nbuckets == r->capbuckets) {
		r->capbuckets = r->capbuckets ? 2 * r->capbuckets : 64;
		r->buckets = xreallocarray(r->buckets, r->capbuckets, sizeof(*r->buckets));
	}
	memset(&r->buckets[r->nbuckets], 0, sizeof(r->buckets[0]));
	si_put(ix, key, r->nbuckets);
	return &r->buckets[r->nbuckets++];
}

static void bucket_add(struct bucket *b, size_t m)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->m[i] == m)
			return;
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4;
		b->m = xreallocarray(b->m, b->cap, sizeof(*b->m));
	}
	b->m[b->n++] = m;
}

static void bucket_del(struct bucket *b, size_t m)
{
	for (size_t i = 0; b && i < b->n; i++)
		if (b->m[i] == m) {
			b->m[i] = b->m[--b->n];
			return;
		}
}

static void strv_clear(char ***v, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

static void strv_add(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

/* The index key of a stage ref as the watches map it: "<kind or ExternalArtifact>/<ss ns>/<name>". */
static char *ref_key(char *buf, size_t len, const struct sst_source_ref *ref, const char *ss_ns)
{
	const char *kind = ref->kind && ref->kind[0] ? ref->kind : KIND_EA;

	return kb_join3(buf, len, kind, ss_ns, nz(ref->name));
}

static void unregister(struct ssrc *r, struct member *m)
{
	for (size_t i = 0; i < m->ndeps; i++)
		bucket_del(bucket_of(r, &r->dep_ix, m->deps[i], false), m->idx);
	for (size_t i = 0; i < m->nsrcs; i++)
		bucket_del(bucket_of(r, &r->src_ix, m->srcs[i], false), m->idx);
	strv_clear(&m->deps, &m->ndeps);
	strv_clear(&m->srcs, &m->nsrcs);
}

static void arm_sources(struct ssrc *r, struct member *m);

/* @m's dependsOn (same namespace) and stage refs into the indexes, replacing the old keys. */
static void register_member(struct ssrc *r, struct member *m)
{
	char buf[KEY_STACK];
	char *k;

	unregister(r, m);
	if (!m->spec_ok)
		return;
	for (size_t i = 0; i < m->spec.ndepends_on; i++) {
		const struct sst_dependency *d = &m->spec.depends_on[i];
		const char *ns = d->ns && d->ns[0] ? d->ns : m->ns;

		if (strcmp(ns, m->ns) != 0)
			continue; /* W3 lists the changed StageSet's namespace only */
		k = kb_join2(buf, sizeof(buf), ns, nz(d->name));
		strv_add(&m->deps, &m->ndeps, k);
		kb_drop(k, buf);
	}
	for (size_t i = 0; i < m->ndeps; i++)
		bucket_add(bucket_of(r, &r->dep_ix, m->deps[i], true), m->idx);
	for (size_t i = 0; i < m->spec.nstages; i++) {
		k = ref_key(buf, sizeof(buf), &m->spec.stages[i].source_ref, m->ns);
		strv_add(&m->srcs, &m->nsrcs, k);
		kb_drop(k, buf);
	}
	for (size_t i = 0; i < m->nsrcs; i++)
		bucket_add(bucket_of(r, &r->src_ix, m->srcs[i], true), m->idx);
	arm_sources(r, m);
}

/* ---------------------------------------------------------------- the world's view of a member */

static const struct obj_strmap *ns_labels(const struct ssrc *r, const char *ns)
{
	const struct obj *n = api_get(r->api, KIND_NS, "", ns);

	return n ? &n->labels : NULL;
}

static void fill_sw_member(const struct ssrc *r, const struct member *m, const struct obj *o,
			   struct sw_member *sm)
{
	sm->ns = m->ns;
	sm->name = m->name;
	sm->labels = &o->labels;
	sm->ns_labels = NULL; /* filled where the world reads it (publish reach), not for a reused pass */
	sm->annotations = &o->annotations;
	sm->spec = m->spec_ok ? &m->spec : NULL;
}

/* Tells the world about @o (labels, Namespace labels, sources) when something it keeps changed. */
static void world_see(struct ssrc *r, struct member *m, const struct obj *o, int64_t t_ms,
		      bool spec_changed)
{
	struct sw_member sm;
	static const struct obj_strmap empty = { 0 };
	const struct obj_strmap *nsl;

	if (m->world_seen && !spec_changed && o->resource_version == m->seen_rv)
		return;
	m->seen_rv = o->resource_version;
	fill_sw_member(r, m, o, &sm);
	sm.ns_labels = ns_labels(r, m->ns);
	nsl = sm.ns_labels ? sm.ns_labels : &empty;
	if (m->world_seen && !spec_changed && obj_strmap_equal(&m->seen_labels, &o->labels) &&
	    obj_strmap_equal(&m->seen_ns_labels, nsl))
		return;
	sw_member_seen(r->world, &sm, t_ms);
	r->world_epoch++;
	m->world_seen = true;
	obj_strmap_release(&m->seen_labels);
	obj_strmap_release(&m->seen_ns_labels);
	obj_strmap_copy(&m->seen_labels, &o->labels);
	obj_strmap_copy(&m->seen_ns_labels, nsl);
}

/* ---------------------------------------------------------------- publishes to inline versions */

static bool inline_version(const struct member *m)
{
	return m->spec_ok && m->spec.has_version && m->spec.version.value &&
	       m->spec.version.value[0] && !m->spec.version.has_from_artifact &&
	       !m->spec.version.has_from_object;
}

/* A GitOps delivery of the offered version: spec.version.value edited (cause "source"). */
static void deliver_version(struct ssrc *r, struct member *m, const struct obj *o, int64_t t_ms)
{
	const char *offered;
	struct obj *u;
	struct val *ver;

	if (!inline_version(m))
		return;
	offered = sw_offered_version(r->world, m->ns, m->name, t_ms);
	if (!offered || strcmp(offered, m->spec.version.value) == 0)
		return;
	u = obj_copy(o);
	u->resource_version = 0;
	ver = val_map_get(u->spec, "version");
	if (!ver || ver->type != VAL_MAP) {
		obj_free(u);
		return;
	}
	val_map_set(ver, "value", val_new_string(offered));
	des_set_cause(r->w, "source");
	api_update(r->api, u);
}

static void on_publish(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	size_t ev = (size_t)(uintptr_t)arg;
	int64_t now = des_now(w), from;
	size_t n = api_list(r->api, KIND_SS, NULL, NULL, NULL, &r->scratch);
	char **keys = xcalloc(n ? n : 1, sizeof(*keys));
	size_t nk = 0;

	/* the keys first: the edits below make the listed pointers stale */
	for (size_t i = 0; i < n; i++) {
		const struct obj *o = r->scratch.items[i];

		if (sw_publish_reaches(r->world, ev, o->ns, o->name, &from) && from <= now)
			keys[nk++] = xasprintf("%s\t%s", o->ns, o->name);
	}
	for (size_t i = 0; i < nk; i++) {
		char *tab = strchr(keys[i], '\t');
		struct api_snap *snap;
		struct member *m;

		*tab = '\0';
		snap = api_get_snap(r->api, KIND_SS, keys[i], tab + 1);
		if (snap) {
			m = member_get(r, keys[i], tab + 1);
			if (ensure_spec(m, snap))
				register_member(r, m);
			deliver_version(r, m, api_snap_obj(snap), now);
		}
		free(keys[i]);
	}
	free(keys);
}

/* ---------------------------------------------------------------- modelled sources (W5, W6) */

static void enqueue_refs(struct ssrc *r, const char *key, const struct obj *ea);

static void arm_timer(struct ssrc *r, struct src_timer *t, int64_t after_ms);

static void on_source_timer(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	struct src_timer *t = &r->timers[(size_t)(uintptr_t)arg];
	char buf[KEY_STACK];
	char *k;

	t->h = 0;
	if (api_get(r->api, t->kind, t->ns, t->name))
		return; /* the store holds it now: its own events wake */
	k = kb_join3(buf, sizeof(buf), t->kind, t->ns, t->name);
	enqueue_refs(r, k, NULL);
	kb_drop(k, buf);
	if (t->back_kind) {
		k = kb_join3(buf, sizeof(buf), t->back_kind, t->ns, t->name);
		enqueue_refs(r, k, NULL);
		kb_drop(k, buf);
	}
	arm_timer(r, t, des_now(w) - r->latency_ms);
}

/* Schedules @t at its source's next change after @after_ms (ms), plus the API latency. */
static void arm_timer(struct ssrc *r, struct src_timer *t, int64_t after_ms)
{
	int64_t next = sw_source_next_change(r->world, t->kind, t->ns, t->name, after_ms), at;

	if (next == SW_NEVER)
		return;
	at = next + r->latency_ms;
	if (at < des_now(r->w))
		at = des_now(r->w);
	if (t->h) {
		if (t->at_ms <= at)
			return;
		des_cancel(r->w, t->h);
	}
	t->at_ms = at;
	t->h = des_at(r->w, at, DES_PRIO_DELIVERY, on_source_timer, r,
		      (void *)(uintptr_t)(size_t)(t - r->timers));
}

static struct src_timer *timer_for(struct ssrc *r, const char *kind, const char *ns, const char *name,
				   const char *back_kind)
{
	char buf[KEY_STACK];
	char *k = kb_join3(buf, sizeof(buf), kind, ns, name);
	size_t pos;
	struct src_timer *t;

	if (si_get(&r->timer_ix, k, &pos)) {
		kb_drop(k, buf);
		t = &r->timers[pos];
		if (back_kind && !t->back_kind)
			t->back_kind = xstrdup(back_kind);
		return t;
	}
	if (r->ntimers == r->captimers) {
		r->captimers = r->captimers ? 2 * r->captimers : 16;
		r->timers = xreallocarray(r->timers, r->captimers, sizeof(*r->timers));
	}
	t = &r->timers[r->ntimers];
	memset(t, 0, sizeof(*t));
	t->kind = xstrdup(kind);
	t->ns = xstrdup(ns);
	t->name = xstrdup(name);
	t->back_kind = back_kind ? xstrdup(back_kind) : NULL;
	si_put(&r->timer_ix, k, r->ntimers++);
	kb_drop(k, buf);
	return t;
}

static bool direct_kind(const char *kind)
{
	return strcmp(kind, "GitRepository") == 0 || strcmp(kind, "OCIRepository") == 0 ||
	       strcmp(kind, "Bucket") == 0;
}

/* Arms the wake-ups of the modelled sources @m's stages name. */
static void arm_sources(struct ssrc *r, struct member *m)
{
	int64_t now = des_now(r->w);

	for (size_t i = 0; m->spec_ok && i < m->spec.nstages; i++) {
		const struct sst_source_ref *ref = &m->spec.stages[i].source_ref;
		const char *kind = nz(ref->kind);
		const char *ns = ref->ns && ref->ns[0] ? ref->ns : m->ns;
		struct src_timer *t;

		if (!kind[0] || strcmp(kind, KIND_EA) == 0)
			t = timer_for(r, KIND_EA, ns, nz(ref->name), NULL);
		else if (direct_kind(kind))
			t = timer_for(r, kind, ns, nz(ref->name), NULL);
		else
			t = timer_for(r, KIND_EA, ns, nz(ref->name), kind);
		if (api_get(r->api, t->kind, t->ns, t->name))
			continue;
		arm_timer(r, t, now - r->latency_ms);
	}
}

/* ---------------------------------------------------------------- watches */

/* Group of an apiVersion ("" for the core group). */
static void group_of(const char *api_version, char *out, size_t len)
{
	const char *slash = strchr(nz(api_version), '/');
	size_t n = slash ? (size_t)(slash - api_version) : 0;

	if (n >= len)
		n = len - 1;
	memcpy(out, nz(api_version), n);
	out[n] = '\0';
}

/*
 * Whether the current spec of member @mi still has a stage ref behind
 * index key @key; for an ExternalArtifact @ea (may be NULL: a modelled one)
 * a producer ref must match its back-pointer's group too.
 */
static bool still_refs(const struct ssrc *r, size_t mi, const char *key, const struct obj *ea)
{
	const struct member *m = r->mem[mi];
	char buf[KEY_STACK];
	bool hit = false;

	if (!m->spec_ok || m->gone)
		return false;
	for (size_t i = 0; i < m->spec.nstages && !hit; i++) {
		const struct sst_source_ref *ref = &m->spec.stages[i].source_ref;
		char *k = ref_key(buf, sizeof(buf), ref, m->ns);

		hit = strcmp(k, key) == 0;
		kb_drop(k, buf);
		if (hit && ea && ref->kind && ref->kind[0] && strcmp(ref->kind, KIND_EA) != 0 &&
		    !direct_kind(ref->kind)) {
			const struct val *sr = val_map_get(ea->spec, "sourceRef");
			char want[128], got[128];

			group_of(ref->api_version, want, sizeof(want));
			group_of(val_str(val_map_get(sr, "apiVersion"), ""), got, sizeof(got));
			hit = strcmp(want, got) == 0;
		}
	}
	return hit;
}

/* Enqueues (priority 0, now) the StageSets behind source index key @key. */
static void enqueue_refs(struct ssrc *r, const char *key, const struct obj *ea)
{
	struct bucket *b = bucket_of(r, &r->src_ix, key, false);

	for (size_t i = 0; b && i < b->n; i++)
		if (still_refs(r, b->m[i], key, ea))
			ctl_add(r->ctl, r->mem[b->m[i]]->ns, r->mem[b->m[i]]->name, 0, 0);
}

/* W5: an ExternalArtifact event. */
static void map_external_artifact(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	struct ssrc *r = ctx;
	char buf[KEY_STACK];
	char *k = kb_join3(buf, sizeof(buf), KIND_EA, o->ns, o->name);
	struct bucket *b = bucket_of(r, &r->src_ix, k, false);
	const struct val *sr = val_map_get(o->spec, "sourceRef");

	(void)w;
	for (size_t i = 0; b && i < b->n; i++)
		if (still_refs(r, b->m[i], k, NULL))
			ctl_keys_add(out, r->mem[b->m[i]]->ns, r->mem[b->m[i]]->name);
	kb_drop(k, buf);
	if (sr && sr->type == VAL_MAP) {
		const char *bk = val_str(val_map_get(sr, "kind"), ""), *bn = val_str(val_map_get(sr, "name"), "");

		if (!bk[0] || strcmp(bk, KIND_EA) == 0 || direct_kind(bk))
			return;
		k = kb_join3(buf, sizeof(buf), bk, o->ns, bn);
		b = bucket_of(r, &r->src_ix, k, false);
		for (size_t i = 0; b && i < b->n; i++)
			if (still_refs(r, b->m[i], k, o))
				ctl_keys_add(out, r->mem[b->m[i]]->ns, r->mem[b->m[i]]->name);
		kb_drop(k, buf);
	}
}

/* W6: a GitRepository, OCIRepository or Bucket event. */
static void map_producer(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	struct ssrc *r = ctx;
	char buf[KEY_STACK];
	char *k = kb_join3(buf, sizeof(buf), o->kind, o->ns, o->name);
	struct bucket *b = bucket_of(r, &r->src_ix, k, false);

	(void)w;
	for (size_t i = 0; b && i < b->n; i++)
		if (still_refs(r, b->m[i], k, NULL))
			ctl_keys_add(out, r->mem[b->m[i]]->ns, r->mem[b->m[i]]->name);
	kb_drop(k, buf);
}

/* W3: the dependents of @o in its namespace. */
static void map_dependents(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	struct ssrc *r = ctx;
	char buf[KEY_STACK];
	char *k;
	struct bucket *b;

	if (r->dep_ix.n == 0)
		return; /* no StageSet names a dependency */
	k = kb_join2(buf, sizeof(buf), o->ns, o->name);
	b = bucket_of(r, &r->dep_ix, k, false);

	(void)w;
	kb_drop(k, buf);
	for (size_t i = 0; b && i < b->n; i++) {
		const struct member *d = r->mem[b->m[i]];

		if (d->spec_ok && !d->gone && ssc_depends_on(&d->spec, d->ns, o->ns, o->name))
			ctl_keys_add(out, d->ns, d->name);
	}
}

/* W4: a StageLedger wakes the StageSet of the same name. */
static void map_same_name(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	(void)ctx;
	(void)w;
	ctl_keys_add(out, o->ns, o->name);
}

/* W1's update predicate. */
static bool pred_stageset(void *ctx, enum api_event_type type, const struct obj *old,
			  const struct obj *new)
{
	(void)ctx;
	return type != API_MODIFIED || ssc_watch_update(old, new);
}

static void close_attempt(struct member *m, int64_t end_ms, enum ssrc_outcome o);

/*
 * The adapter's own StageSet watch (registered before the controller's, so
 * the indexes are current when the map functions run): the spec cache and
 * the indexes, the world's sightings, publishes to a StageSet first seen
 * late, and the end of a deleted StageSet.
 */
static void on_stageset(void *ctx, enum api_event_type type, const struct obj *old,
			const struct obj *new)
{
	struct ssrc *r = ctx;
	int64_t now = des_now(r->w), t = now - r->latency_ms;
	struct api_snap *snap;
	struct member *m;
	bool first, changed;

	/* a status write, an annotation: nothing the indexes or the world keep */
	if (type == API_MODIFIED && old->generation == new->generation &&
	    obj_strmap_equal(&old->labels, &new->labels) && new->deletion_ms == old->deletion_ms &&
	    streq(old->uid, new->uid))
		return;
	snap = api_get_snap(r->api, KIND_SS, new->ns, new->name);
	m = member_get(r, new->ns, new->name);
	first = !m->world_seen;
	if (t < 0)
		t = 0;
	if (!snap || type == API_DELETED) {
		if (!snap) {
			unregister(r, m);
			m->gone = true;
			if (m->open)
				close_attempt(m, now, SSRC_ABANDONED);
		}
		return;
	}
	m->gone = false;
	changed = ensure_spec(m, snap);
	if (changed)
		register_member(r, m);
	world_see(r, m, api_snap_obj(snap), first ? t : now, changed);
	if (first)
		deliver_version(r, m, api_snap_obj(snap), now);
}

/* A Namespace's labels are part of what a publish matches: tell the world about its StageSets. */
static void on_namespace(void *ctx, enum api_event_type type, const struct obj *old,
			 const struct obj *new)
{
	struct ssrc *r = ctx;
	size_t n;

	if (type != API_MODIFIED || obj_strmap_equal(&old->labels, &new->labels))
		return;
	n = api_list(r->api, KIND_SS, new->name, NULL, NULL, &r->scratch);
	for (size_t i = 0; i < n; i++) {
		struct member *m = member_find(r, new->name, r->scratch.items[i]->name);

		if (m && m->world_seen)
			world_see(r, m, r->scratch.items[i], des_now(r->w), true);
	}
}

/* ---------------------------------------------------------------- attempts */

static void close_attempt(struct member *m, int64_t end_ms, enum ssrc_outcome o)
{
	struct ssrc_attempt *a;

	if (!m->open || !m->natt)
		return;
	a = &m->att[m->natt - 1];
	a->end_ms = end_ms;
	a->outcome = o;
	m->open = false;
}

static char *owned_strs_push(const char *s)
{
	return xstrdup(nz(s));
}

static struct ssrc_attempt *open_attempt(struct member *m, const struct pass_end *pe)
{
	struct ssrc_attempt *a;

	if (m->natt == m->capatt) {
		m->capatt = m->capatt ? 2 * m->capatt : 2;
		m->att = xreallocarray(m->att, m->capatt, sizeof(*m->att));
	}
	a = &m->att[m->natt++];
	memset(a, 0, sizeof(*a));
	a->version = owned_strs_push(pe->res.desired);
	a->from = owned_strs_push(pe->prior_version);
	a->baseline = pe->res.baseline;
	a->downgrade = pe->res.downgrade;
	a->directed = pe->directed;
	a->start_ms = pe->start_ms;
	a->end_ms = -1;
	a->outcome = SSRC_IN_FLIGHT;
	m->open = true;
	return a;
}

/* What one pass did to @m's attempts, at its end @end_ms. */
static void track_attempt(struct member *m, const struct pass_end *pe, int64_t end_ms)
{
	const struct ssc_result *res = &pe->res;
	bool towards = res->desired && strcmp(res->desired, nz(pe->prior_version)) != 0;
	struct ssrc_attempt *a = m->open ? &m->att[m->natt - 1] : NULL;

	if (a && !(towards && strcmp(a->version, res->desired) == 0)) {
		close_attempt(m, pe->start_ms, SSRC_SUPERSEDED);
		a = NULL;
	}
	if (!towards)
		return;
	if (!a)
		a = open_attempt(m, pe);
	a->passes++;
	switch (res->exit) {
	case SSC_EXIT_SUCCEEDED:
		close_attempt(m, end_ms, SSRC_SUCCEEDED);
		break;
	case SSC_EXIT_PROGRESS_HOLD:
		break; /* the objects are still rolling out: the next pass goes on */
	case SSC_EXIT_PARK:
	case SSC_EXIT_PROMOTION_HOLD:
	case SSC_EXIT_STAGE_BUDGET_HOLD:
	case SSC_EXIT_GATE_UNEVALUABLE:
		close_attempt(m, end_ms, SSRC_HELD);
		break;
	case SSC_EXIT_DELETED_MID_VERIFY:
		close_attempt(m, end_ms, SSRC_ABANDONED);
		break;
	default:
		close_attempt(m, end_ms, SSRC_FAILED);
		break;
	}
}

/* ---------------------------------------------------------------- the env */

struct pass_env {
	struct ssrc *r;
	struct member *m;
	const struct obj *ss;
	struct sw_member sm;
	int64_t deletion_ms;   /* a deletion due during the pass (sim ms), -1 none */
	char **rendered;       /* per stage index, the entry ID apply_stage rendered (the member's) */
	size_t nstages;
};

static const struct obj *env_get(void *ctx, const char *api_version, const char *kind, const char *ns,
				 const char *name, int64_t at_ms, struct ssc_err *err)
{
	struct pass_env *pe = ctx;
	const struct obj *o = api_get(pe->r->api, kind, ns, name);

	(void)api_version;
	if (o)
		return o;
	if (strcmp(kind, KIND_EA) == 0 || direct_kind(kind))
		return sw_source_get(pe->r->world, api_version, kind, ns, name, sim_ms(pe->r, at_ms), err);
	not_found(err, kind, name);
	return NULL;
}

static size_t env_list(void *ctx, const char *api_version, const char *kind, const char *ns, int64_t at_ms,
		       const struct obj *const **out, struct ssc_err *err)
{
	struct pass_env *pe = ctx;
	struct ssrc *r = pe->r;
	const struct obj *const *modelled = NULL;
	size_t n = api_list(r->api, kind, ns, NULL, NULL, &r->scratch), nm = 0, total;

	(void)api_version;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (strcmp(kind, KIND_EA) == 0)
		nm = sw_source_list(r->world, ns, sim_ms(r, at_ms), &modelled, err);
	if (err->code != SSC_OK)
		return 0;
	total = n + nm;
	if (total > r->caplisted) {
		r->caplisted = total;
		r->listed = xreallocarray(r->listed, r->caplisted, sizeof(*r->listed));
	}
	memcpy(r->listed, r->scratch.items, n * sizeof(*r->listed));
	for (size_t i = 0; i < nm; i++) {
		const struct val *msr = val_map_get(modelled[i]->spec, "sourceRef");
		bool shadowed = false;

		/* a stored ExternalArtifact of that name or back-pointer wins */
		for (size_t k = 0; k < n && !shadowed; k++) {
			const struct val *sr = val_map_get(r->scratch.items[k]->spec, "sourceRef");

			shadowed = strcmp(r->scratch.items[k]->name, modelled[i]->name) == 0 ||
				   (sr && msr &&
				    streq(val_str(val_map_get(sr, "kind"), ""), val_str(val_map_get(msr, "kind"), "")) &&
				    streq(val_str(val_map_get(sr, "name"), ""), val_str(val_map_get(msr, "name"), "")));
		}
		if (!shadowed)
			r->listed[n++] = modelled[i];
	}
	*out = r->listed;
	return n;
}

static int env_artifact_file(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms,
			     char **content, int64_t *duration_ms, struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	return sw_artifact_file(pe->r->world, ra, path, sim_ms(pe->r, at_ms), content, duration_ms, err);
}

static size_t env_ladder_files(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms,
			       char ***paths, char ***contents, int64_t *duration_ms, struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	return sw_ladder_files(pe->r->world, ra, path, sim_ms(pe->r, at_ms), paths, contents, duration_ms,
			       err);
}

static int env_object_version(void *ctx, size_t stage, const struct ssc_resolved *ra, const char *kind,
			      const char *name, const char *api_version, const char *field_path,
			      int64_t at_ms, char **version, bool *transient, int64_t *duration_ms,
			      struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	(void)api_version;
	return sw_object_version(pe->r->world, &pe->sm, stage, ra, kind, name, field_path,
				 sim_ms(pe->r, at_ms), version, transient, duration_ms, err);
}

/* A Go duration string of a verb's body (wait.timeout), or -1. */
static int64_t body_duration(const struct val *body, const char *key)
{
	int64_t ms;

	if (sst_parse_duration(val_str(val_map_get(body, key), ""), &ms) != 0)
		return -1;
	return ms;
}

/*
 * The verbs' own bounds on one attempt (actions.go): an http request's 30 s
 * client timeout, an expression wait's timeout (default 5m), and, without
 * the action's own timeout, a job's 10m and an apply wait's 5m.  The world
 * says how long the attempt would take; past the bound it is cut there and
 * fails as the verb does.  A plain wait takes its duration.
 */
static void verb_bounds(const struct sst_action *a, int64_t *took, struct ssc_err *err)
{
	const char *verb = nz(a->verb);
	int64_t limit = -1;

	if (strcmp(verb, "wait") == 0) {
		int64_t d = body_duration(a->body, "duration");

		if (d >= 0) {
			*took = d;
			err->code = SSC_OK;
			err->msg[0] = '\0';
			return;
		}
		limit = body_duration(a->body, "timeout");
		if (limit < 0)
			limit = 5 * 60 * MS_PER_S;
		if (*took > limit) {
			const struct val *tg = val_map_get(a->body, "target");
			char *qe = lbl_go_quote(val_str(val_map_get(a->body, "expr"), ""));

			*took = limit;
			ssc_err_set(err, SSC_ERR, "wait for %s on %s/%s did not complete: context deadline exceeded",
				    qe, val_str(val_map_get(tg, "namespace"), ""), val_str(val_map_get(tg, "name"), ""));
			free(qe);
		}
		return;
	}
	if (strcmp(verb, "http") == 0) {
		const char *method = val_str(val_map_get(a->body, "method"), "POST");
		char m[16];
		size_t i;

		if (*took <= 30 * MS_PER_S)
			return;
		*took = 30 * MS_PER_S;
		/* net/url.Error: the method as Go spells it ("Post", "Get") */
		for (i = 0; method[i] && i + 1 < sizeof(m); i++)
			m[i] = (char)(i == 0 ? method[i] : (method[i] >= 'A' && method[i] <= 'Z' ? method[i] - 'A' + 'a'
											   : method[i]));
		m[i] = '\0';
		ssc_err_set(err, SSC_ERR,
			    "%s \"%s\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)", m,
			    val_str(val_map_get(a->body, "url"), ""));
		return;
	}
	if (a->timeout.set)
		return; /* the executor's own deadline (engine/stageset_actions) */
	if (strcmp(verb, "job") == 0 && *took > 10 * 60 * MS_PER_S) {
		*took = 10 * 60 * MS_PER_S;
		ssc_err_set(err, SSC_ERR, "job %s did not complete: context deadline exceeded", nz(a->name));
	} else if (strcmp(verb, "apply") == 0 && val_bool(val_map_get(a->body, "wait"), false) &&
		   *took > 5 * 60 * MS_PER_S) {
		*took = 5 * 60 * MS_PER_S;
		ssc_err_set(err, SSC_ERR, "apply: timeout waiting for: context deadline exceeded");
	}
}

static void env_run_action(void *ctx, size_t stage, const char *phase, const struct sst_action *a, int attempt,
			   int64_t at_ms, int64_t *duration_ms, struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	err->code = SSC_OK;
	err->msg[0] = '\0';
	sw_run_action(pe->r->world, &pe->sm, stage, phase, a, attempt, sim_ms(pe->r, at_ms), duration_ms, err);
	if (err->code != SSC_OK && *duration_ms >= 0)
		return;
	verb_bounds(a, duration_ms, err);
}

/* substitutionDigest over postBuild.substitute (sorted keys, length-prefixed pairs), "" when empty. */
static void substitution_digest(const struct sst_stage *st, char *out, size_t len)
{
	const struct val *sub = val_map_get(st->post_build, "substitute");
	const char **keys;
	size_t n = 0;
	struct sha256_ctx c;
	unsigned char d[SHA256_DIGEST_LEN];
	char hex[2 * SHA256_DIGEST_LEN + 1];

	out[0] = '\0';
	if (!sub || sub->type != VAL_MAP || sub->u.map.n == 0)
		return;
	keys = xcalloc(sub->u.map.n, sizeof(*keys));
	for (size_t i = 0; i < sub->u.map.n; i++)
		keys[n++] = sub->u.map.items[i].key;
	for (size_t i = 1; i < n; i++) /* insertion sort: a handful of keys */
		for (size_t k = i; k > 0 && strcmp(keys[k - 1], keys[k]) > 0; k--) {
			const char *t = keys[k];

			keys[k] = keys[k - 1];
			keys[k - 1] = t;
		}
	sha256_init(&c);
	for (size_t i = 0; i < n; i++) {
		const char *v = val_str(val_map_get(sub, keys[i]), "");
		char head[64];
		int hl = snprintf(head, sizeof(head), "%zu:", strlen(keys[i]));

		sha256_update(&c, head, (size_t)hl);
		sha256_update(&c, keys[i], strlen(keys[i]));
		hl = snprintf(head, sizeof(head), "=%zu:", strlen(v));
		sha256_update(&c, head, (size_t)hl);
		sha256_update(&c, v, strlen(v));
		sha256_update(&c, "\n", 1);
	}
	sha256_final(&c, d);
	sha256_hex(d, hex);
	snprintf(out, len, "%s", hex);
	free(keys);
}

static void env_apply_stage(void *ctx, size_t stage, const struct ssc_resolved *ra, int64_t at_ms,
			    struct ssc_apply_outcome *out)
{
	struct pass_env *pe = ctx;

	sw_apply_stage(pe->r->world, &pe->sm, stage, ra, sim_ms(pe->r, at_ms), out);
	if (pe->m->spec_ok && stage < pe->m->spec.nstages)
		substitution_digest(&pe->m->spec.stages[stage], out->substitution_digest,
				    sizeof(out->substitution_digest));
}

/* The first 5 s deletion poll at or after @due_ms of a wait started at @start_ms. */
static int64_t deletion_seen(int64_t start_ms, int64_t due_ms)
{
	int64_t k;

	if (due_ms <= start_ms)
		return start_ms;
	k = (due_ms - start_ms + SSC_DELETION_POLL_MS - 1) / SSC_DELETION_POLL_MS;
	return start_ms + k * SSC_DELETION_POLL_MS;
}

static void env_wait_stage(void *ctx, size_t stage, bool with_applied, int64_t timeout_ms, int64_t at_ms,
			   struct ssc_wait_outcome *out)
{
	struct pass_env *pe = ctx;
	int64_t t = sim_ms(pe->r, at_ms);

	sw_wait_stage(pe->r->world, &pe->sm, stage, with_applied, timeout_ms, t, out);
	if (pe->deletion_ms >= 0 && pe->deletion_ms < t + out->duration_ms) {
		int64_t seen = deletion_seen(t, pe->deletion_ms);

		if (seen < t + out->duration_ms) {
			out->result = SSC_WAIT_DELETED;
			out->duration_ms = seen - t;
			out->stalled = false;
			ssc_err_set(&out->err, SSC_ERR, "StageSet is being deleted");
		}
	}
}

static void env_ready_exprs(void *ctx, size_t stage, int64_t timeout_ms, int64_t at_ms,
			    struct ssc_wait_outcome *out, bool *in_flight)
{
	struct pass_env *pe = ctx;

	sw_ready_exprs(pe->r->world, &pe->sm, stage, timeout_ms, sim_ms(pe->r, at_ms), out, in_flight);
}

/* The bearer-token Secret of a metric source (applyBearer): 0, or -1 with @err. */
static int bearer_secret(const struct pass_env *pe, const char *name, struct ssc_err *err)
{
	const struct obj *s = api_get(pe->r->api, "Secret", pe->m->ns, name);
	const struct val *data, *sdata;
	char *qn;

	if (!name || !name[0])
		return 0;
	qn = lbl_go_quote(name);
	if (!s) {
		ssc_err_set(err, SSC_ERR, "metric source unavailable: reading secret %s: secrets \"%s\" not found", qn,
			    name);
		free(qn);
		return -1;
	}
	data = val_map_get(s->rest, "data");
	sdata = val_map_get(s->rest, "stringData");
	if (!val_str(val_map_get(data, "token"), "")[0] && !val_str(val_map_get(sdata, "token"), "")[0]) {
		ssc_err_set(err, SSC_ERR, "metric source unavailable: secret %s has no non-empty \"token\" key", qn);
		free(qn);
		return -1;
	}
	free(qn);
	return 0;
}

static int env_query(void *ctx, const struct sst_metric_source *src, int64_t at_ms, double *value,
		     int64_t *duration_ms, struct ssc_err *err)
{
	struct pass_env *pe = ctx;
	struct ssrc *r = pe->r;
	char text[512];

	*duration_ms = 0;
	if (src->has_prometheus || src->has_webhook) {
		const char *address = src->has_prometheus ? nz(src->address) : nz(src->url);

		if (frc_check_source(address, src->has_prometheus ? "prometheus address" : "webhook url",
				     (const char *const *)r->hosts, r->nhosts, text, sizeof(text)) != 0) {
			ssc_err_set(err, SSC_ERR, "%s", text);
			return -1;
		}
		if (bearer_secret(pe, src->secret_ref, err) != 0)
			return -1;
	}
	return sw_query(r->world, src, sim_ms(r, at_ms), value, duration_ms, err);
}

static int env_pod_restarts(void *ctx, const char *ns, const struct lbl_selector *sel, int64_t at_ms,
			    int32_t *total, struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	return sw_pod_restarts(pe->r->world, ns, sel, sim_ms(pe->r, at_ms), total, err);
}

static int env_warning_events(void *ctx, const char *ns, const struct lbl_selector *sel,
			      const char *const *reasons, size_t nreasons, int64_t at_ms, int32_t *total,
			      struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	return sw_warning_events(pe->r->world, ns, sel, reasons, nreasons, sim_ms(pe->r, at_ms), total, err);
}

static int env_restore_stage(void *ctx, size_t stage, const struct sst_artifact_ref *ref, int64_t at_ms,
			     int64_t *duration_ms, char *reason, size_t reasonlen, char *msg, size_t msglen,
			     struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	return sw_restore_stage(pe->r->world, &pe->sm, stage, ref, sim_ms(pe->r, at_ms), duration_ms, reason,
				reasonlen, msg, msglen, err);
}

static const struct inv_rec *inv_find(const struct member *m, const char *stage)
{
	for (size_t i = 0; i < m->ninv; i++)
		if (strcmp(m->inv[i].stage, stage) == 0)
			return &m->inv[i];
	return NULL;
}

static bool env_inventory_has(void *ctx, const char *stage, int64_t *entries)
{
	struct pass_env *pe = ctx;
	const struct inv_rec *rec = inv_find(pe->m, stage);

	*entries = rec ? rec->entries : 0;
	return rec != NULL;
}

static const struct obj *env_ledger(void *ctx, int64_t at_ms, struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	(void)at_ms;
	(void)err;
	return api_get(pe->r->api, KIND_LEDGER, pe->m->ns, pe->m->name);
}

static const struct tz_zone *env_time_zone(void *ctx, const char *name, struct ssc_err *err)
{
	struct pass_env *pe = ctx;
	char text[256] = "";
	const struct tz_zone *z = tzif_cache_find(&pe->r->tz, name, text, sizeof(text));

	if (!z)
		ssc_err_set(err, SSC_ERR, "%s", text);
	return z;
}

static int env_anchor_uid(void *ctx, const char *api_version, const char *kind, const char *ns, const char *name,
			  int64_t at_ms, char *uid, size_t uidlen, struct ssc_err *err)
{
	struct pass_env *pe = ctx;

	return sw_anchor_uid(pe->r->world, api_version, kind, ns, name, sim_ms(pe->r, at_ms), uid, uidlen, err);
}

/*
 * A file of a sourced migration ladder as sigs.k8s.io/yaml's first step
 * reads it.  The project's YAML loader stands in for go-yaml v2: plain
 * scalars resolve with the core schema and a syntax error keeps libyaml's
 * problem text (go-yaml v2 is a port of libyaml and words it the same),
 * prefixed as go-yaml prefixes it.
 */
static int env_parse_ladder_file(void *ctx, const char *path, const char *text, struct val **out, char *err,
				 size_t errlen)
{
	struct yl_stream s;
	struct diag d;
	int rc;

	(void)ctx;
	*out = NULL;
	diag_init(&d);
	rc = yl_load_string(path, text, strlen(text), &s, &d);
	if (rc != 0 || diag_has_errors(&d)) {
		const char *msg = d.n ? d.items[0].msg : "invalid document";

		snprintf(err, errlen, "yaml: line %u: %s", d.n ? d.items[0].mark.line : 0u, msg);
		yl_stream_release(&s);
		diag_release(&d);
		return -1;
	}
	if (s.n > 0)
		*out = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	return 0;
}

/* ---------------------------------------------------------------- the cluster (inventory, prune) */

/* Whether Secret @s holds a non-empty @key (in data, or stringData as written). */
static bool secret_has_key(const struct obj *s, const char *key)
{
	return val_str(val_map_get(val_map_get(s->rest, "data"), key), "")[0] ||
	       val_str(val_map_get(val_map_get(s->rest, "stringData"), key), "")[0];
}

/*
 * The target connection (resolveTarget).  Without spec.kubeConfig the
 * controller's cluster, under spec.serviceAccountName's minted token, which
 * cannot fail here (the API server's RBAC is not simulated).  A secretRef
 * reads the kubeconfig Secret in the StageSet's namespace as
 * kubeconfigBytes() does, with its error texts; a Secret that holds the key
 * connects, and the remote cluster is this world's store (the kubeconfig
 * itself is not parsed).  configMapRef (cloud-provider authentication) is
 * refused at load (sim/load/scn_ssworld.c), so it does not reach a pass.
 */
static int cl_connect(void *ctx, const char *sa, int64_t at_ms, struct ssc_err *err)
{
	struct pass_env *pe = ctx;
	const struct val *kc = pe->m->spec.kube_config, *ref;
	const struct obj *s;
	const char *name, *key;
	char *qn, *qk;

	(void)sa;
	(void)at_ms;
	if (!kc)
		return 0;
	ref = val_map_get(kc, "secretRef");
	if (!ref) {
		ssc_err_set(err, SSC_ERR, "invalid spec.kubeConfig: spec.kubeConfig sets neither secretRef nor "
					  "configMapRef");
		return 1;
	}
	name = val_str(val_map_get(ref, "name"), "");
	key = val_str(val_map_get(ref, "key"), "");
	if (!key[0])
		key = "value";
	s = api_get(pe->r->api, "Secret", pe->m->ns, name);
	qn = lbl_go_quote(name);
	if (!s) {
		ssc_err_set(err, SSC_ERR, "kubeConfig secret %s: secrets \"%s\" not found", qn, name);
		free(qn);
		return -1;
	}
	if (!secret_has_key(s, key)) {
		qk = lbl_go_quote(key);
		ssc_err_set(err, SSC_ERR, "kubeConfig secret %s has no non-empty key %s", qn, qk);
		free(qk);
		free(qn);
		return -1;
	}
	free(qn);
	return 0;
}

/*
 * buildDecryptor: without spec.decryption nothing; a provider other than
 * sops is refused with upstream's text; a secretRef must name a Secret of the
 * StageSet's namespace (the key material itself is not read: the world's
 * rendered files are not encrypted).
 */
static int cl_decryptor(void *ctx, int64_t at_ms, struct ssc_err *err)
{
	struct pass_env *pe = ctx;
	const struct val *d = pe->m->spec.decryption, *ref;
	const char *provider, *name;
	char *q;

	(void)at_ms;
	if (!d)
		return 0;
	provider = val_str(val_map_get(d, "provider"), "");
	if (strcmp(provider, "sops") != 0) {
		q = lbl_go_quote(provider);
		ssc_err_set(err, SSC_ERR, "spec.decryption.provider %s is not supported (only sops)", q);
		free(q);
		return -1;
	}
	ref = val_map_get(d, "secretRef");
	if (!ref)
		return 0;
	name = val_str(val_map_get(ref, "name"), "");
	if (api_get(pe->r->api, "Secret", pe->m->ns, name))
		return 0;
	q = lbl_go_quote(name);
	ssc_err_set(err, SSC_ERR, "decryption: read key secret %s: secrets \"%s\" not found", q, name);
	free(q);
	return -1;
}

static int cl_records(void *ctx, int64_t at_ms, const struct ssc_inventory_record **out, size_t *n,
		      struct ssc_err *err)
{
	struct pass_env *pe = ctx;
	struct ssrc *r = pe->r;
	const struct member *m = pe->m;

	(void)at_ms;
	(void)err;
	if (m->ninv > r->caprecs) {
		r->caprecs = m->ninv;
		r->recs = xreallocarray(r->recs, r->caprecs, sizeof(*r->recs));
	}
	if (m->ninv > r->caprec_ids) {
		r->caprec_ids = m->ninv;
		r->rec_ids = xreallocarray(r->rec_ids, r->caprec_ids, sizeof(*r->rec_ids));
	}
	for (size_t i = 0; i < m->ninv; i++) {
		r->rec_ids[i] = m->inv[i].id;
		r->recs[i].name = m->inv[i].stage;
		r->recs[i].position = m->inv[i].position;
		r->recs[i].ids = &r->rec_ids[i];
		r->recs[i].nids = 1;
	}
	*out = r->recs;
	*n = m->ninv;
	return 0;
}

static size_t cl_rendered(void *ctx, size_t stage, const char *const **ids)
{
	struct pass_env *pe = ctx;

	if (stage >= pe->nstages || !pe->rendered[stage]) {
		*ids = NULL;
		return 0;
	}
	*ids = (const char *const *)&pe->rendered[stage];
	return 1;
}

static int cl_delete_objects(void *ctx, const char *sa, const char *const *ids, size_t n, int64_t at_ms,
			     int64_t *duration_ms, struct ssc_err *err)
{
	(void)ctx;
	(void)sa;
	(void)ids;
	(void)n;
	(void)at_ms;
	(void)err;
	*duration_ms = 0;
	return 0;
}

static int cl_delete_shards(void *ctx, const char *stage, int64_t at_ms, struct ssc_err *err)
{
	(void)ctx;
	(void)stage;
	(void)at_ms;
	(void)err;
	return 0;
}

/* ---------------------------------------------------------------- the end of a pass */

static void notice(struct ssrc *r, enum tl_severity sev, const struct member *m, const char *text)
{
	struct tl_objref ref = { KIND_SS, m->ns, m->name, 0 };

	tl_notice_add(des_timeline(r->w), des_now(r->w), sev, text, &ref, 1);
}

/*
 * A Kubernetes Event of the pass on the timeline, about the StageSet (or
 * its StageLedger), as `kubectl get events` lists it: type, reason, note.
 */
static void record_event(struct ssrc *r, const struct member *m, const struct ssc_event *e)
{
	struct tl *tl = des_timeline(r->w);
	char buf[KEY_STACK + 64];
	struct tl_rec rec;

	snprintf(buf, sizeof(buf), "reconcile " SSRC_CONTROLLER " %s", m->key);
	memset(&rec, 0, sizeof(rec));
	rec.t_ms = des_now(r->w);
	rec.kind = tl_intern(tl, e->on_ledger ? KIND_LEDGER : KIND_SS);
	rec.ns = tl_intern(tl, m->ns);
	rec.name = tl_intern(tl, m->name);
	rec.change = TL_EVENT;
	rec.phase = tl_intern(tl, e->warning ? "Warning" : "Normal");
	rec.reason = tl_intern(tl, e->reason);
	rec.message = tl_intern(tl, e->note);
	rec.cause = tl_intern(tl, buf);
	tl_append_rec(tl, &rec);
}

/* W2: a shard write reaches the StageSet after the API latency. */
static void on_shard_event(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	struct member *m = arg;

	(void)w;
	ctl_add(r->ctl, m->ns, m->name, 0, 0);
}

/* The shards this pass wrote or deleted; returns whether any changed. */
static bool write_shards(struct member *m, const struct pass_end *pe)
{
	bool changed = false;

	for (size_t i = 0; i < pe->res.ninventory_written; i++) {
		const char *stage = pe->res.inventory_written[i];
		int pos = -1;
		struct inv_rec *rec = (struct inv_rec *)inv_find(m, stage);

		for (size_t k = 0; m->spec_ok && k < m->spec.nstages; k++)
			if (strcmp(m->spec.stages[k].name, stage) == 0)
				pos = (int)k;
		if (rec && rec->position == pos)
			continue; /* CreateOrUpdate of the same shard: no write */
		if (!rec) {
			m->inv = xreallocarray(m->inv, m->ninv + 1, sizeof(*m->inv));
			rec = &m->inv[m->ninv++];
			rec->stage = xstrdup(stage);
			rec->id = entry_id(m, stage);
			rec->entries = 1;
		}
		rec->position = pos;
		changed = true;
	}
	for (size_t i = 0; i < pe->res.ninventory_deleted; i++)
		for (size_t k = 0; k < m->ninv; k++)
			if (strcmp(m->inv[k].stage, pe->res.inventory_deleted[i]) == 0) {
				free(m->inv[k].stage);
				free(m->inv[k].id);
				m->inv[k] = m->inv[--m->ninv];
				changed = true;
				break;
			}
	return changed;
}

static void write_ledger(struct ssrc *r, const struct member *m, const struct val *ledger)
{
	const struct obj *cur = api_get(r->api, KIND_LEDGER, m->ns, m->name);
	struct obj *o;

	if (!cur) {
		o = obj_new(SS_API, KIND_LEDGER, m->ns, m->name);
		o->spec = val_copy(val_map_get(ledger, "spec"));
		if (!o->spec || o->spec->type != VAL_MAP) {
			val_free(o->spec);
			o->spec = val_new_map();
		}
		api_create(r->api, o);
	} else {
		o = obj_copy(cur);
		o->resource_version = 0;
		val_free(o->spec);
		o->spec = val_copy(val_map_get(ledger, "spec"));
		if (!o->spec || o->spec->type != VAL_MAP) {
			val_free(o->spec);
			o->spec = val_new_map();
		}
		api_update(r->api, o);
	}
	o = obj_new(SS_API, KIND_LEDGER, m->ns, m->name);
	o->status = val_copy(val_map_get(ledger, "status"));
	if (o->status && o->status->type != VAL_MAP) {
		val_free(o->status);
		o->status = NULL;
	}
	api_update_status(r->api, o);
}

/* The fault windows of @m not yet told, as info notices at their onset. */
static void on_fault_notice(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	char *text = arg;
	char *tab = strchr(text, '\t'), *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
	struct tl_objref ref;

	if (!tab || !tab2)
		return;
	*tab = *tab2 = '\0';
	ref = (struct tl_objref){ KIND_SS, text, tab + 1, 0 };
	tl_notice_add(des_timeline(w), des_now(w), TL_INFO, tab2 + 1, &ref, 1);
	(void)r; /* the text is the adapter's (fault_texts) */
}

static void tell_faults(struct ssrc *r, struct member *m)
{
	const struct sw_fault *f;
	size_t n = sw_member_faults(r->world, m->ns, m->name, &f);
	char dur[32];

	for (size_t i = m->faults_told; i < n; i++) {
		int64_t at = f[i].start_ms > des_now(r->w) ? f[i].start_ms : des_now(r->w);
		char *text;

		if (f[i].end_ms == SW_NEVER)
			snprintf(dur, sizeof(dur), "for good");
		else
			ssc_format_duration(f[i].end_ms - f[i].start_ms, dur, sizeof(dur));
		text = xasprintf("%s\t%s\tfault: the workload of %s%s%s %s %s%s (%s); the controller notices "
				 "it at its next verify",
				 m->ns, m->name, f[i].stage ? "stage \"" : "every stage", f[i].stage ? f[i].stage : "",
				 f[i].stage ? "\"" : "", f[i].effect == SCN_SW_EFFECT_FAILED ? "is Failed" : "is not ready",
				 f[i].end_ms == SW_NEVER ? "" : "for ", dur,
				 f[i].scripted ? "regress event" : "drawn regression");
		if (r->nfault_texts == r->capfault_texts) {
			r->capfault_texts = r->capfault_texts ? 2 * r->capfault_texts : 8;
			r->fault_texts = xreallocarray(r->fault_texts, r->capfault_texts, sizeof(*r->fault_texts));
		}
		r->fault_texts[r->nfault_texts++] = text;
		des_at(r->w, at, DES_PRIO_SCRIPT, on_fault_notice, r, text);
	}
	m->faults_told = n;
}

static void pass_drop(void *ctx, void *pass);

/* The store's resourceVersion of stage @i's source, 0 when the store does not hold it (modelled). */
static uint64_t source_rv(const struct ssrc *r, struct member *m, size_t i, const char **kind,
			  const char **ns)
{
	const struct sst_source_ref *ref = &m->spec.stages[i].source_ref;
	const struct obj *o;

	*kind = ref->kind && ref->kind[0] ? ref->kind : KIND_EA;
	*ns = ref->ns && ref->ns[0] ? ref->ns : m->ns;
	o = api_get_ref(r->api, *kind, *ns, nz(ref->name), &m->src_ref[i]);
	return o ? o->resource_version : 0;
}

/*
 * What the memo's sources were at its pass (memo_t): per stage the store's
 * version of it (or, when the store held none, the kind's shape), and the
 * first change of a modelled one after that, as the world knows it now.
 */
static void memo_sources(struct ssrc *r, struct member *m)
{
	m->memo_until = SW_NEVER;
	for (size_t i = 0; i < m->spec.nstages; i++) {
		const char *kind, *ns;

		m->memo_src[i] = source_rv(r, m, i, &kind, &ns);
		if (!m->memo_src[i]) {
			int64_t c = sw_source_next_change(r->world, kind, ns,
							  nz(m->spec.stages[i].source_ref.name), m->memo_t);

			if (c < m->memo_until)
				m->memo_until = c;
		}
	}
	m->memo_epoch = r->world_epoch;
}

/*
 * Keeps what the next pass of @m will be when it is bound to be quiet: the
 * pass that just ended wrote no ledger and deleted no shard, noted no quirk,
 * and either held before the stages (AwaitingApproval, a refused plan) or
 * applied and verified every stage (Succeeded) on a spec without actions,
 * promotion, budgets or ready checks, staying on the version it read (a pass
 * that moved status.version is not its own successor: the next one plans
 * from the new version, and the annotations may ask for another, as a
 * rollback-to below the old version does).  Such a pass, run again on its own
 * status (its write, when it wrote, being the object's only change since the
 * read: @own_rv, else 0) with the same sources, writes and emits nothing:
 * the hold and the success tail set the same fields to the same values.  A
 * pass that wrote nothing stands for the next one the same way.
 */
static void memo_record(struct ssrc *r, struct member *m, const struct pass_end *pe, bool shards_changed,
			uint64_t own_rv)
{
	const struct ssc_result *res = &pe->res;
	bool quiet = !res->ledger && res->ninventory_deleted == 0 && res->nquirks == 0 &&
		     !res->add_finalizer && !res->remove_finalizer && (!res->write_status || own_rv);

	m->memo = MEMO_NONE;
	if (!quiet)
		return;
	if (m->memo_spec && (res->exit == SSC_EXIT_APPROVAL || res->exit == SSC_EXIT_PLAN) &&
	    res->requeue == SSC_REQUEUE_AFTER && res->elapsed_ms == 0 && !res->desired &&
	    res->ninventory_written == 0 && !shards_changed)
		m->memo = MEMO_HELD;
	else if (m->memo_steady_spec && res->exit == SSC_EXIT_SUCCEEDED &&
		 res->requeue == SSC_REQUEUE_AFTER_JITTERED && !api_get(r->api, KIND_LEDGER, m->ns, m->name) &&
		 pe->stayed)
		m->memo = MEMO_STEADY;
	if (m->memo == MEMO_NONE)
		return;
	m->memo_rv = res->write_status ? own_rv : api_snap_obj(pe->read)->resource_version;
	m->memo_t = pe->start_ms;
	m->memo_exit = res->exit;
	m->memo_requeue = res->requeue;
	m->memo_after = res->requeue_after_ms;
	m->memo_elapsed = res->elapsed_ms;
	memo_sources(r, m);
}

/*
 * Whether a pass of @o at @now_ms would give the result kept in @m: the
 * same object version, no stage source changed since (the store's at the
 * same version, a modelled one with no change in between), and for a
 * steady pass every stage's re-apply steady again (sw_stage_steady()) at
 * the times the pass would make them, for the same time in all; then the
 * applies are counted in the world as the pass would have counted them.
 */
static bool memo_reuse(struct ssrc *r, struct member *m, const struct obj *o, const struct sw_member *sm,
		       int64_t now_ms)
{
	int64_t t = now_ms, d;

	if (!ssrc_reuse_passes || m->memo == MEMO_NONE || o->resource_version != m->memo_rv)
		return false;
	for (size_t i = 0; i < m->spec.nstages; i++) {
		const char *kind, *ns;

		if (source_rv(r, m, i, &kind, &ns) != m->memo_src[i])
			return false;
	}
	if (m->memo_epoch != r->world_epoch) {
		/* StageSets told to the world since can move a modelled source's revisions */
		int64_t until = m->memo_until;

		memo_sources(r, m);
		if (until < m->memo_until)
			m->memo_until = until;
	}
	if (m->memo_until <= now_ms)
		return false;
	if (m->memo == MEMO_HELD)
		return true;
	if (api_get(r->api, KIND_LEDGER, m->ns, m->name))
		return false;
	for (size_t i = 0; i < m->spec.nstages; i++) {
		if (!sw_stage_steady(r->world, sm, i, t, false, &d))
			return false;
		t += d;
	}
	if (t - now_ms != m->memo_elapsed)
		return false;
	t = now_ms;
	for (size_t i = 0; i < m->spec.nstages; i++) {
		sw_stage_steady(r->world, sm, i, t, true, &d);
		t += d;
	}
	return true;
}

static void pass_end_fn(void *ctx, struct des *w, const char *ns, const char *name, int64_t now_ms,
			struct ctl_result *res)
{
	struct ssrc *r = ctx;
	struct pass_end *pe = res->pass;
	struct member *m = pe->m;
	const struct obj *cur;
	bool shards_changed;
	uint64_t own_rv;
	int err = 0;

	res->pass = NULL;
	/* what needs the status as read, before the write below replaces its parse */
	pe->stayed = pe->res.desired && strcmp(pe->res.desired, nz(pe->prior_version)) == 0;
	track_attempt(m, pe, now_ms);
	/* R-3 / R-2: the finalizer */
	if (pe->res.add_finalizer || pe->res.remove_finalizer) {
		cur = api_get(r->api, KIND_SS, ns, name);
		if (cur) {
			struct obj *u = obj_copy(cur);

			u->resource_version = 0;
			if (pe->res.add_finalizer)
				obj_add_finalizer(u, SSC_FINALIZER);
			else
				obj_remove_finalizer(u, SSC_FINALIZER);
			if (api_update(r->api, u) != 0)
				err = -1;
		}
	}
	/* patchStatus: the difference to what the pass read */
	own_rv = 0;
	if (pe->res.write_status && (cur = api_get(r->api, KIND_SS, ns, name))) {
		/* m->prior is the parse of the status the pass read (pe->read's) */
		struct val *patch = sst_status_patch(&m->prior, &pe->res.status);
		bool untouched = cur->resource_version == api_snap_obj(pe->read)->resource_version;

		if (patch && api_patch_status(r->api, KIND_SS, ns, name, patch) != 0)
			err = -1;
		/* nobody wrote between the read and this write: the version now is the pass's own */
		cur = api_get(r->api, KIND_SS, ns, name);
		if (!err && untouched && cur) {
			struct api_snap *now = api_get_snap(r->api, KIND_SS, ns, name);

			own_rv = cur->resource_version;
			/*
			 * The stored status is the one the pass computed: it is the
			 * parse the next pass needs, so keep it instead of parsing it
			 * back (and hold the current version, not an older one).
			 */
			sst_status_release(&m->prior);
			m->prior = pe->res.status;
			sst_status_init(&pe->res.status);
			api_snap_retain(now);
			api_snap_release(m->st_snap);
			m->st_snap = now;
			m->has_prior = true;
		}
		val_free(patch);
	}
	if (pe->res.ledger)
		write_ledger(r, m, pe->res.ledger);
	shards_changed = write_shards(m, pe);
	if (shards_changed)
		des_at(w, now_ms + r->latency_ms, DES_PRIO_DELIVERY, on_shard_event, r, m);
	for (size_t i = 0; i < pe->res.events.n; i++)
		record_event(r, m, &pe->res.events.items[i]);
	for (size_t i = 0; i < pe->res.nquirks; i++) {
		int q = pe->res.quirks[i].quirk;

		if (q >= 0 && q < 64) {
			uint32_t bit = UINT32_C(1) << (q % 32);

			if (r->told_quirks[q / 32] & bit)
				continue;
			r->told_quirks[q / 32] |= bit;
		}
		notice(r, TL_INFO, m, pe->res.quirks[i].text);
	}
	if (!pe->memo)
		tell_faults(r, m); /* a memo pass drew nothing new */
	if (!pe->memo)
		memo_record(r, m, pe, shards_changed, own_rv);

	res->err = 0;
	res->requeue = false;
	res->requeue_after_ms = 0;
	if (err) {
		res->err = -1;
	} else {
		switch (pe->res.requeue) {
		case SSC_REQUEUE_NONE:
			break;
		case SSC_REQUEUE_AFTER:
			res->requeue_after_ms = pe->res.requeue_after_ms;
			break;
		case SSC_REQUEUE_AFTER_JITTERED: {
			struct rng g;
			char id[KEY_STACK + 32];
			char *p = id;
			uint32_t k = ++m->requeues;
			char num[12];
			size_t nd = 0, lk = strlen(m->key);
			double u;

			if (lk + 32 > sizeof(id)) {
				char *long_id = xasprintf("stageset/%s/requeue#%u", m->key, k);

				rng_stream(&g, r->seed, r->trial, long_id);
				free(long_id);
			} else {
				memcpy(p, "stageset/", 9);
				p += 9;
				memcpy(p, m->key, lk);
				p += lk;
				memcpy(p, "/requeue#", 9);
				p += 9;
				do
					num[nd++] = (char)('0' + k % 10);
				while ((k /= 10) > 0);
				while (nd > 0)
					*p++ = num[--nd];
				*p = '\0';
				rng_stream(&g, r->seed, r->trial, id);
			}
			u = rng_uniform01(&g);
			res->requeue_after_ms =
				llround((double)pe->res.requeue_after_ms * (1.0 - SSC_JITTER_FRACTION +
									     2.0 * SSC_JITTER_FRACTION * u));
			break;
		}
		case SSC_REQUEUE_RATE_LIMITED:
			res->requeue = true;
			break;
		case SSC_REQUEUE_ERROR:
			res->err = -1;
			break;
		}
	}
	pass_drop(r, pe);
}

/* Releases what the pass in @pass holds; the struct stays with its member for the next pass. */
static void pass_drop(void *ctx, void *pass)
{
	struct pass_end *pe = pass;

	(void)ctx;
	if (!pe)
		return;
	if (!pe->memo)
		ssc_result_release(&pe->res);
	api_snap_release(pe->read);
	pe->read = NULL;
}

/* ---------------------------------------------------------------- the reconcile */

static struct ctl_result reconcile(void *ctx, struct des *w, const char *ns, const char *name, int64_t now_ms)
{
	struct ssrc *r = ctx;
	struct ctl_result res = { 0 };
	struct member *m = member_of_key(r, ns, name);
	struct api_snap *snap = api_get_snap_ref(r->api, KIND_SS, ns, name, &m->ref);
	const struct obj *o;
	struct pass_env env_ctx;
	struct ssc_env env;
	struct ssc_cluster cl;
	struct ssc_input in;
	struct pass_end *pe;
	const char *rb;
	bool changed;

	if (!snap)
		return res; /* R-1: not found */
	o = api_snap_obj(snap);
	m->gone = false;
	m->passes++;
	if (ctl_busy(r->ctl) > r->busy_peak)
		r->busy_peak = ctl_busy(r->ctl);
	changed = ensure_spec(m, snap);
	if (changed)
		register_member(r, m);
	if (!m->spec_ok)
		return res; /* the API server refuses such objects: nothing a pass could decode */
	world_see(r, m, o, now_ms, changed);

	if (!m->pe)
		m->pe = xcalloc(1, sizeof(*m->pe));
	pe = m->pe;
	pe->m = m;
	pe->start_ms = now_ms;
	pe->read = api_snap_retain(snap);
	pe->prior_version = "";
	memset(&env_ctx, 0, sizeof(env_ctx));
	fill_sw_member(r, m, o, &env_ctx.sm);
	pe->memo = memo_reuse(r, m, o, &env_ctx.sm, now_ms);
	if (pe->memo) {
		/* the same inputs as the pass before: its result, without running it again */
		memset(&pe->res, 0, sizeof(pe->res));
		pe->res.exit = m->memo_exit;
		pe->res.stage = SIZE_MAX;
		pe->res.elapsed_ms = m->memo_elapsed;
		pe->res.requeue = m->memo_requeue;
		pe->res.requeue_after_ms = m->memo_after;
		pe->directed = false;
		res.busy_ms = pe->res.elapsed_ms;
		res.pass = pe;
		return res;
	}

	ensure_prior(m, snap);
	pe->prior_version = m->prior.version;
	env_ctx.sm.ns_labels = ns_labels(r, m->ns);
	env_ctx.r = r;
	env_ctx.m = m;
	env_ctx.ss = o;
	env_ctx.deletion_ms = o->deletion_ms < 0 && m->deletion_ms >= now_ms ? m->deletion_ms : -1;
	env_ctx.rendered = m->ids;
	env_ctx.nstages = m->nids;

	memset(&env, 0, sizeof(env));
	env.ctx = &env_ctx;
	env.get = env_get;
	env.list = env_list;
	env.artifact_file = env_artifact_file;
	env.ladder_files = env_ladder_files;
	env.object_version = env_object_version;
	env.run_action = env_run_action;
	env.apply_stage = env_apply_stage;
	env.wait_stage = env_wait_stage;
	env.ready_exprs = env_ready_exprs;
	env.query = env_query;
	env.pod_restarts = env_pod_restarts;
	env.warning_events = env_warning_events;
	env.restore_stage = env_restore_stage;
	env.inventory_has = env_inventory_has;
	env.ledger = env_ledger;
	env.time_zone = env_time_zone;
	env.anchor_uid = env_anchor_uid;
	env.parse_ladder_file = env_parse_ladder_file;

	memset(&cl, 0, sizeof(cl));
	cl.ctx = &env_ctx;
	cl.connect = cl_connect;
	cl.decryptor = cl_decryptor;
	cl.records = cl_records;
	cl.rendered = cl_rendered;
	cl.delete_objects = cl_delete_objects;
	cl.delete_shards = cl_delete_shards;

	memset(&in, 0, sizeof(in));
	in.ss = o;
	in.spec = &m->spec;
	in.prior = &m->prior;
	in.now_ms = r->start_unix_ms + now_ms;
	in.anchor_ms = r->start_unix_ms;
	in.opt = &r->opt;
	in.env = &env;
	in.cluster = &cl;
	ssc_reconcile(&in, &pe->res);

	rb = obj_strmap_get(&o->annotations, SSC_ANN_ROLLBACK_TO);
	pe->directed = pe->res.desired && rb && strcmp(rb, pe->res.desired) == 0;
	res.busy_ms = pe->res.elapsed_ms;
	res.pass = pe;
	(void)w;
	return res;
}

/* ---------------------------------------------------------------- public */

struct ssrc *ssrc_register(struct des *w, const struct ssrc_params *p)
{
	struct ssrc *r = xcalloc(1, sizeof(*r));
	size_t n;

	r->w = w;
	r->api = des_api(w);
	r->world = p->world;
	r->start_unix_ms = p->start_unix_ms;
	r->latency_ms = des_params(w)->api_latency_ms;
	r->seed = p->seed;
	r->trial = p->trial;
	r->opt = p->opt;
	r->nhosts = p->nallowed_action_hosts;
	r->hosts = xcalloc(r->nhosts ? r->nhosts : 1, sizeof(*r->hosts));
	for (size_t i = 0; i < r->nhosts; i++)
		r->hosts[i] = xstrdup(p->allowed_action_hosts[i]);
	r->opt.allowed_action_hosts_set = r->nhosts > 0;
	tzif_cache_init(&r->tz, NULL);
	api_list_init(&r->scratch);
	r->del_ms = xcalloc(p->ndeletions ? p->ndeletions : 1, sizeof(*r->del_ms));
	for (size_t i = 0; i < p->ndeletions; i++) {
		size_t pos;

		if (si_get(&r->del_ix, p->deletion_keys[i], &pos)) {
			if (p->deletion_ms[i] < r->del_ms[pos])
				r->del_ms[pos] = p->deletion_ms[i];
			continue;
		}
		r->del_ms[i] = p->deletion_ms[i];
		si_put(&r->del_ix, p->deletion_keys[i], i);
	}

	/* the adapter's own watches first: the indexes are current when the map functions run */
	api_watch(r->api, KIND_SS, on_stageset, r);
	api_watch(r->api, KIND_NS, on_namespace, r);

	r->ctl = ctl_new(w, SSRC_CONTROLLER, reconcile, r);
	ctl_set_workers(r->ctl, SSC_CONCURRENT_RECONCILES);
	ctl_set_end(r->ctl, pass_end_fn, pass_drop);
	ctl_for(r->ctl, KIND_SS, pred_stageset, NULL);
	ctl_watches(r->ctl, KIND_SS, map_dependents, r, NULL, NULL);
	ctl_watches(r->ctl, KIND_LEDGER, map_same_name, r, NULL, NULL);
	ctl_watches(r->ctl, KIND_EA, map_external_artifact, r, NULL, NULL);
	ctl_watches(r->ctl, "GitRepository", map_producer, r, NULL, NULL);
	ctl_watches(r->ctl, "OCIRepository", map_producer, r, NULL, NULL);
	ctl_watches(r->ctl, "Bucket", map_producer, r, NULL, NULL);

	/* the StageSets already stored: the world sees them at 0, their sources are armed */
	n = api_list(r->api, KIND_SS, NULL, NULL, NULL, &r->scratch);
	{
		char **keys = xcalloc(n ? n : 1, sizeof(*keys));

		for (size_t i = 0; i < n; i++)
			keys[i] = xasprintf("%s\t%s", r->scratch.items[i]->ns, r->scratch.items[i]->name);
		for (size_t i = 0; i < n; i++) {
			char *tab = strchr(keys[i], '\t');
			struct api_snap *snap;
			struct member *m;

			*tab = '\0';
			snap = api_get_snap(r->api, KIND_SS, keys[i], tab + 1);
			m = member_get(r, keys[i], tab + 1);
			if (ensure_spec(m, snap))
				register_member(r, m);
			world_see(r, m, api_snap_obj(snap), 0, true);
			free(keys[i]);
		}
		free(keys);
	}
	for (size_t i = 0; i < p->nfevents; i++)
		if (p->fevents[i].type == SCN_FEV_PUBLISH)
			des_at(w, p->fevents[i].at_ms, DES_PRIO_SCRIPT, on_publish, r, (void *)(uintptr_t)i);
	return r;
}

static void member_free(struct member *m)
{
	free(m->ns);
	free(m->name);
	free(m->key);
	if (m->has_spec) {
		if (m->spec_ok)
			sst_spec_release(&m->spec);
		api_snap_release(m->spec_snap);
		free(m->spec_uid);
	}
	if (m->has_prior) {
		sst_status_release(&m->prior);
		api_snap_release(m->st_snap);
	}
	strv_clear(&m->deps, &m->ndeps);
	strv_clear(&m->srcs, &m->nsrcs);
	obj_strmap_release(&m->seen_labels);
	obj_strmap_release(&m->seen_ns_labels);
	for (size_t i = 0; i < m->ninv; i++) {
		free(m->inv[i].stage);
		free(m->inv[i].id);
	}
	free(m->inv);
	for (size_t i = 0; i < m->natt; i++) {
		free((char *)m->att[i].version);
		free((char *)m->att[i].from);
	}
	free(m->att);
	for (size_t i = 0; i < m->nids; i++)
		free(m->ids[i]);
	free(m->ids);
	free(m->memo_src);
	free(m->src_ref);
	free(m->pe);
	free(m);
}

void ssrc_free(struct ssrc *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfault_texts; i++)
		free(r->fault_texts[i]);
	free(r->fault_texts);
	for (size_t i = 0; i < r->nmem; i++)
		member_free(r->mem[i]);
	free(r->mem);
	si_release(&r->mem_ix);
	free(r->stats);
	free(r->pkeys);
	free(r->pvals);
	for (size_t i = 0; i < r->nbuckets; i++)
		free(r->buckets[i].m);
	free(r->buckets);
	si_release(&r->dep_ix);
	si_release(&r->src_ix);
	for (size_t i = 0; i < r->ntimers; i++) {
		free(r->timers[i].kind);
		free(r->timers[i].ns);
		free(r->timers[i].name);
		free(r->timers[i].back_kind);
	}
	free(r->timers);
	si_release(&r->timer_ix);
	si_release(&r->del_ix);
	free(r->del_ms);
	for (size_t i = 0; i < r->nhosts; i++)
		free(r->hosts[i]);
	free(r->hosts);
	tzif_cache_release(&r->tz);
	free(r->listed);
	api_list_release(&r->scratch);
	free(r->recs);
	free(r->rec_ids);
	free(r);
}

struct ctl *ssrc_ctl(const struct ssrc *r)
{
	return r->ctl;
}

struct sw_world *ssrc_world(const struct ssrc *r)
{
	return r->world;
}

const char *ssrc_outcome_name(enum ssrc_outcome o)
{
	switch (o) {
	case SSRC_IN_FLIGHT: return "in-flight";
	case SSRC_SUCCEEDED: return "succeeded";
	case SSRC_FAILED: return "failed";
	case SSRC_HELD: return "held";
	case SSRC_SUPERSEDED: return "superseded";
	case SSRC_ABANDONED: return "abandoned";
	}
	return "?";
}

size_t ssrc_members(const struct ssrc *r, const struct ssrc_member_stat **out)
{
	struct ssrc *rw = (struct ssrc *)r;

	if (!r) {
		*out = NULL;
		return 0;
	}
	if (rw->capstats < r->nmem) {
		rw->capstats = r->nmem;
		rw->stats = xreallocarray(rw->stats, rw->capstats, sizeof(*rw->stats));
	}
	for (size_t i = 0; i < r->nmem; i++) {
		const struct member *m = r->mem[i];

		rw->stats[i] = (struct ssrc_member_stat){ m->ns, m->name, m->att, m->natt, m->passes };
	}
	*out = rw->stats;
	return r->nmem;
}

int ssrc_busy_peak(const struct ssrc *r)
{
	return r ? r->busy_peak : 0;
}
