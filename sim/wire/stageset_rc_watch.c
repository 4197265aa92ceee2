/*
 * What the StageSet controller adapter watches and tells the world: see
 * sim/wire/stageset_rc_watch.h.
 */
#include "sim/wire/stageset_rc_watch.h"

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
#include "sim/models/stageset_world_gates.h"
#include "sim/models/stageset_world_sources.h"
#include "sim/models/stageset_world_stages.h"
#include "sim/wire/fleet_rc.h"
#include "sim/wire/stageset_rc_env.h"
#include "sim/wire/stageset_rc_inv.h"
#include "sim/wire/stageset_rc_rec.h"

/* ---------------------------------------------------------------- the world's view of a member */

const struct obj_strmap *ssrw_ns_labels(const struct ssrc *r, const char *ns)
{
	const struct obj *n = api_get(r->api, SSRR_KIND_NS, "", ns);

	return n ? &n->labels : NULL;
}

void ssrw_fill_sw_member(const struct ssrc *r, const struct ssrr_member *m, const struct obj *o,
			   struct sw_member *sm)
{
	sm->ns = m->ns;
	sm->name = m->name;
	sm->labels = &o->labels;
	sm->ns_labels = NULL; /* filled where the world reads it (publish reach), not for a reused pass */
	sm->annotations = &o->annotations;
	sm->spec = m->spec_ok ? &m->spec : NULL;
}

/*
 * The snapshot's items of StageSet @m: shards[*first .. *end) (each
 * object's items are contiguous; none: an empty range).  O(1) expected.
 */
static void items_of(const struct ssrc *r, const struct ssrr_member *m, size_t *first, size_t *end)
{
	char buf[256], *key = kb_join2(buf, sizeof(buf), m->ns, m->name);

	if (!si_get(&r->shard_ix, key, first))
		*first = r->nshards;
	kb_drop(key, buf);
	for (*end = *first; *end < r->nshards && strcmp(r->shards[*end].ns, m->ns) == 0 &&
			    strcmp(r->shards[*end].name, m->name) == 0;
	     ++*end)
		;
}

/* The snapshot's "running:" item of stage @stage among shards[@first .. @end), or NULL. */
static const struct scn_inventory_shard *running_of(const struct ssrc *r, size_t first, size_t end,
						     const char *stage)
{
	for (size_t i = first; i < end; i++)
		if (r->shards[i].what == SCN_INV_RUNNING && strcmp(r->shards[i].stage, stage) == 0)
			return &r->shards[i];
	return NULL;
}

/* Whether the snapshot's items shards[@first .. @end) say stage @stage has no shard ("<stage>=0"). */
static bool shard_gone(const struct ssrc *r, size_t first, size_t end, const char *stage)
{
	for (size_t i = first; i < end; i++)
		if (r->shards[i].what == SCN_INV_SHARD && r->shards[i].entries == 0 &&
		    strcmp(r->shards[i].stage, stage) == 0)
			return true;
	return false;
}

/*
 * seed_stages() - a StageSet first seen with a status (a snapshot's, or one
 * written before the run): each stage of status.stages with an
 * appliedRevision runs that revision in the world, ready, as the cluster
 * had it (swst_seed_stage()); its version is the stage's ledgerVersion,
 * else status.version; and its inventory shard is there.  The shards a
 * snapshot of the simulator carries (ssrc_params.shards) come first: they
 * are what the controller wrote, which a failed stage's status leaves out,
 * with the entry IDs, renders and live objects besides workloads it had.
 */
static void seed_stages(struct ssrc *r, struct ssrr_member *m, const struct sw_member *sm,
			const struct obj *o, int64_t t_ms)
{
	const struct val *stages = val_map_get(o->status, "stages");
	const char *version = val_str(val_map_get(o->status, "version"), NULL);
	size_t first, end;

	items_of(r, m, &first, &end);
	for (size_t i = first; i < end; i++) {
		const struct scn_inventory_shard *e = &r->shards[i];

		if (e->what == SCN_INV_SHARD)
			ssri_add_shard(m, e->stage, e->entries, e->ids, e->nids);
		else if (e->what == SCN_INV_SURVIVOR)
			ssri_restore_survivor(m, e->stage, e->ids[0], e->dropped_unix_ms - r->start_unix_ms, e->reason,
					      e->has_deleted ? e->deleted_unix_ms - r->start_unix_ms : SSRC_STILL_LIVE);
		else if (e->what != SCN_INV_RUNNING) /* read with the stages below */
			ssri_restore(m, e->stage, e->ids, e->nids, e->what == SCN_INV_LIVE);
	}

	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n; i++) {
		const struct val *st = stages->u.list.items[i];
		const char *lv = val_str(val_map_get(st, "ledgerVersion"), NULL);
		const char *name = val_str(val_map_get(st, "name"), "");
		int64_t entries = val_int(val_map_get(st, "entriesCount"), 0);
		const struct scn_inventory_shard *run = running_of(r, first, end, name);

		/*
		 * The revision the stage runs: a whole-run rollback's status names
		 * the failed revision, and the snapshot then says the one it put back
		 */
		if (run)
			swst_seed_stage(r->world, sm, name, run->ids[0], run->nids > 1 ? run->ids[1] : NULL, t_ms);
		else
			swst_seed_stage(r->world, sm, name, val_str(val_map_get(st, "appliedRevision"), NULL),
					lv && lv[0] ? lv : version, t_ms);
		/*
		 * Its StageInventory shard: the snapshot holds no StageInventory
		 * (accepted and ignored), status.stages[].entriesCount says the
		 * shard is there and how many entries it records, unless the
		 * snapshot's items say it is gone ("<stage>=0").
		 */
		if (!shard_gone(r, first, end, name))
			ssri_add_shard(m, name, entries, NULL, 0);
	}
}

void ssrw_world_see(struct ssrc *r, struct ssrr_member *m, const struct obj *o, int64_t t_ms,
		      bool spec_changed)
{
	struct sw_member sm;
	static const struct obj_strmap empty = { 0 };
	const struct obj_strmap *nsl;

	if (m->world_seen && !spec_changed && o->resource_version == m->seen_rv)
		return;
	m->seen_rv = o->resource_version;
	ssrw_fill_sw_member(r, m, o, &sm);
	sm.ns_labels = ssrw_ns_labels(r, m->ns);
	nsl = sm.ns_labels ? sm.ns_labels : &empty;
	if (m->world_seen && !spec_changed && obj_strmap_equal(&m->seen_labels, &o->labels) &&
	    obj_strmap_equal(&m->seen_ns_labels, nsl))
		return;
	sws_member_seen(r->world, &sm, t_ms);
	if (!m->world_seen)
		seed_stages(r, m, &sm, o, t_ms);
	r->world_epoch++;
	m->world_seen = true;
	/*
	 * The publishes that reach @m's sources are known from now on (the
	 * world reaches a source through the StageSets it has seen): a new
	 * revision is an update of the source object, which W5/W6 deliver,
	 * whatever @m's spec.version says.  An inline version also gets the
	 * publish as its spec edit (ssrw_on_publish()) when the value
	 * changes; both are delivered at the same instant, before the
	 * reconciles, and the work queue holds the key once.
	 */
	ssrw_arm_sources(r, m);
	/* a spec change usually keeps the labels: copy only what differs */
	if (!obj_strmap_equal(&m->seen_labels, &o->labels)) {
		obj_strmap_release(&m->seen_labels);
		obj_strmap_copy(&m->seen_labels, &o->labels);
	}
	if (!obj_strmap_equal(&m->seen_ns_labels, nsl)) {
		obj_strmap_release(&m->seen_ns_labels);
		obj_strmap_copy(&m->seen_ns_labels, nsl);
	}
}

/* ---------------------------------------------------------------- publishes to inline versions */

static bool inline_version(const struct ssrr_member *m)
{
	return m->spec_ok && m->spec.has_version && m->spec.version.value &&
	       m->spec.version.value[0] && !m->spec.version.has_from_artifact &&
	       !m->spec.version.has_from_object;
}

/* A GitOps delivery of the offered version: spec.version.value edited (cause "source"). */
static void deliver_version(struct ssrc *r, struct ssrr_member *m, const struct obj *o, int64_t t_ms)
{
	const char *offered;
	const struct val *ver = val_map_get(o->spec, "version");
	struct val *spec, *nver;

	if (!inline_version(m))
		return;
	offered = sws_offered_version(r->world, m->ns, m->name, t_ms);
	if (!offered || strcmp(offered, m->spec.version.value) == 0)
		return;
	if (!ver || ver->type != VAL_MAP)
		return;
	/*
	 * Only spec.version.value changes: the new spec shares every other part
	 * with the stored one (which is never written), and the store's new
	 * version shares the rest of the object.
	 */
	spec = val_copy_top(o->spec);
	nver = val_map_set(spec, "version", val_copy_top(ver));
	val_map_set(nver, "value", val_new_string(offered));
	des_set_cause(r->w, "source");
	api_update_spec(r->api, SSRR_KIND_SS, o->ns, o->name, spec);
}

void ssrw_on_publish(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	size_t ev = (size_t)(uintptr_t)arg;
	int64_t now = des_now(w), from;
	size_t n = api_list(r->api, SSRR_KIND_SS, NULL, NULL, NULL, &r->scratch);
	char **keys = xcalloc(n ? n : 1, sizeof(*keys));
	size_t nk = 0;

	/* the keys first: the edits below make the listed pointers stale */
	for (size_t i = 0; i < n; i++) {
		const struct obj *o = r->scratch.items[i];

		if (sws_publish_reaches(r->world, ev, o->ns, o->name, &from) && from <= now)
			keys[nk++] = xasprintf("%s\t%s", o->ns, o->name);
	}
	for (size_t i = 0; i < nk; i++) {
		char *tab = strchr(keys[i], '\t');
		struct api_snap *snap;
		struct ssrr_member *m;

		*tab = '\0';
		snap = api_get_snap(r->api, SSRR_KIND_SS, keys[i], tab + 1);
		if (snap) {
			m = ssrr_member_get(r, keys[i], tab + 1);
			if (ssrr_ensure_spec(m, snap))
				ssrr_register_member(r, m);
			deliver_version(r, m, api_snap_obj(snap), now);
		}
		free(keys[i]);
	}
	free(keys);
}

/* ---------------------------------------------------------------- modelled sources (W5, W6) */

static void enqueue_refs(struct ssrc *r, const char *key, const struct obj *ea);

static void arm_timer(struct ssrc *r, struct ssrr_timer *t, int64_t after_ms);

static void on_source_timer(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	struct ssrr_timer *t = &r->timers[(size_t)(uintptr_t)arg];
	char buf[SSRR_KEY_STACK];
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
static void arm_timer(struct ssrc *r, struct ssrr_timer *t, int64_t after_ms)
{
	int64_t next = sws_source_next_event(r->world, t->kind, t->ns, t->name, after_ms), at;

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

static struct ssrr_timer *timer_for(struct ssrc *r, const char *kind, const char *ns, const char *name,
				   const char *back_kind)
{
	char buf[SSRR_KEY_STACK];
	char *k = kb_join3(buf, sizeof(buf), kind, ns, name);
	size_t pos;
	struct ssrr_timer *t;

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

bool ssrw_direct_kind(const char *kind)
{
	return strcmp(kind, "GitRepository") == 0 || strcmp(kind, "OCIRepository") == 0 ||
	       strcmp(kind, "Bucket") == 0;
}

void ssrw_arm_sources(struct ssrc *r, struct ssrr_member *m)
{
	int64_t now = des_now(r->w);

	for (size_t i = 0; m->spec_ok && i < m->spec.nstages; i++) {
		const struct sst_source_ref *ref = &m->spec.stages[i].source_ref;
		const char *kind = ssrr_nz(ref->kind);
		const char *ns = ref->ns && ref->ns[0] ? ref->ns : m->ns;
		struct ssrr_timer *t;

		if (!kind[0] || strcmp(kind, SSRR_KIND_EA) == 0)
			t = timer_for(r, SSRR_KIND_EA, ns, ssrr_nz(ref->name), NULL);
		else if (ssrw_direct_kind(kind))
			t = timer_for(r, kind, ns, ssrr_nz(ref->name), NULL);
		else
			t = timer_for(r, SSRR_KIND_EA, ns, ssrr_nz(ref->name), kind);
		if (api_get(r->api, t->kind, t->ns, t->name))
			continue;
		arm_timer(r, t, now - r->latency_ms);
	}
}

/* ---------------------------------------------------------------- watches */

/* Group of an apiVersion ("" for the core group). */
static void group_of(const char *api_version, char *out, size_t len)
{
	const char *slash = strchr(ssrr_nz(api_version), '/');
	size_t n = slash ? (size_t)(slash - api_version) : 0;

	if (n >= len)
		n = len - 1;
	memcpy(out, ssrr_nz(api_version), n);
	out[n] = '\0';
}

/*
 * Whether the current spec of member @mi still has a stage ref behind
 * index key @key; for an ExternalArtifact @ea (may be NULL: a modelled one)
 * a producer ref must match its back-pointer's group too.
 */
static bool still_refs(const struct ssrc *r, size_t mi, const char *key, const struct obj *ea)
{
	const struct ssrr_member *m = r->mem[mi];
	char buf[SSRR_KEY_STACK];
	bool hit = false;

	if (!m->spec_ok || m->gone)
		return false;
	for (size_t i = 0; i < m->spec.nstages && !hit; i++) {
		const struct sst_source_ref *ref = &m->spec.stages[i].source_ref;
		char *k = ssrr_ref_key(buf, sizeof(buf), ref, m->ns);

		hit = strcmp(k, key) == 0;
		kb_drop(k, buf);
		if (hit && ea && ref->kind && ref->kind[0] && strcmp(ref->kind, SSRR_KIND_EA) != 0 &&
		    !ssrw_direct_kind(ref->kind)) {
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
	struct ssrr_bucket *b = ssrr_bucket_of(r, &r->src_ix, key, false);

	for (size_t i = 0; b && i < b->n; i++)
		if (still_refs(r, b->m[i], key, ea))
			ctl_add(r->ctl, r->mem[b->m[i]]->ns, r->mem[b->m[i]]->name, 0, 0);
}

void ssrw_map_external_artifact(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	struct ssrc *r = ctx;
	char buf[SSRR_KEY_STACK];
	char *k = kb_join3(buf, sizeof(buf), SSRR_KIND_EA, o->ns, o->name);
	struct ssrr_bucket *b = ssrr_bucket_of(r, &r->src_ix, k, false);
	const struct val *sr = val_map_get(o->spec, "sourceRef");

	(void)w;
	for (size_t i = 0; b && i < b->n; i++)
		if (still_refs(r, b->m[i], k, NULL))
			ctl_keys_add(out, r->mem[b->m[i]]->ns, r->mem[b->m[i]]->name);
	kb_drop(k, buf);
	if (sr && sr->type == VAL_MAP) {
		const char *bk = val_str(val_map_get(sr, "kind"), ""), *bn = val_str(val_map_get(sr, "name"), "");

		if (!bk[0] || strcmp(bk, SSRR_KIND_EA) == 0 || ssrw_direct_kind(bk))
			return;
		k = kb_join3(buf, sizeof(buf), bk, o->ns, bn);
		b = ssrr_bucket_of(r, &r->src_ix, k, false);
		for (size_t i = 0; b && i < b->n; i++)
			if (still_refs(r, b->m[i], k, o))
				ctl_keys_add(out, r->mem[b->m[i]]->ns, r->mem[b->m[i]]->name);
		kb_drop(k, buf);
	}
}

void ssrw_map_producer(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	struct ssrc *r = ctx;
	char buf[SSRR_KEY_STACK];
	char *k = kb_join3(buf, sizeof(buf), o->kind, o->ns, o->name);
	struct ssrr_bucket *b = ssrr_bucket_of(r, &r->src_ix, k, false);

	(void)w;
	for (size_t i = 0; b && i < b->n; i++)
		if (still_refs(r, b->m[i], k, NULL))
			ctl_keys_add(out, r->mem[b->m[i]]->ns, r->mem[b->m[i]]->name);
	kb_drop(k, buf);
}

void ssrw_map_dependents(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	struct ssrc *r = ctx;
	char buf[SSRR_KEY_STACK];
	char *k;
	struct ssrr_bucket *b;

	if (r->dep_ix.n == 0)
		return; /* no StageSet names a dependency */
	k = kb_join2(buf, sizeof(buf), o->ns, o->name);
	b = ssrr_bucket_of(r, &r->dep_ix, k, false);

	(void)w;
	kb_drop(k, buf);
	for (size_t i = 0; b && i < b->n; i++) {
		const struct ssrr_member *d = r->mem[b->m[i]];

		if (d->spec_ok && !d->gone && ssc_depends_on(&d->spec, d->ns, o->ns, o->name))
			ctl_keys_add(out, d->ns, d->name);
	}
}

void ssrw_map_same_name(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	(void)ctx;
	(void)w;
	ctl_keys_add(out, o->ns, o->name);
}

bool ssrw_pred_stageset(void *ctx, enum api_event_type type, const struct obj *old,
			  const struct obj *new)
{
	(void)ctx;
	return type != API_MODIFIED || ssc_watch_update(old, new);
}

static void close_attempt(struct ssrr_member *m, int64_t end_ms, enum ssrc_outcome o);

void ssrw_on_stageset(void *ctx, enum api_event_type type, const struct obj *old,
			const struct obj *new)
{
	struct ssrc *r = ctx;
	int64_t now = des_now(r->w), t = now - r->latency_ms;
	struct api_snap *snap;
	struct ssrr_member *m;
	bool first, changed;

	/* a status write, an annotation: nothing the indexes or the world keep */
	if (type == API_MODIFIED && old->generation == new->generation &&
	    obj_strmap_equal(&old->labels, &new->labels) && new->deletion_ms == old->deletion_ms &&
	    ssrr_streq(old->uid, new->uid))
		return;
	snap = api_get_snap(r->api, SSRR_KIND_SS, new->ns, new->name);
	m = ssrr_member_get(r, new->ns, new->name);
	first = !m->world_seen;
	if (t < 0)
		t = 0;
	if (!snap || type == API_DELETED) {
		if (!snap) {
			ssrr_unregister(r, m);
			m->gone = true;
			if (m->open)
				close_attempt(m, now, SSRC_ABANDONED);
		}
		return;
	}
	m->gone = false;
	changed = ssrr_ensure_spec(m, snap);
	if (changed)
		ssrr_register_member(r, m);
	ssrw_world_see(r, m, api_snap_obj(snap), first ? t : now, changed);
	if (first)
		deliver_version(r, m, api_snap_obj(snap), now);
}

void ssrw_on_namespace(void *ctx, enum api_event_type type, const struct obj *old,
			 const struct obj *new)
{
	struct ssrc *r = ctx;
	size_t n;

	if (type != API_MODIFIED || obj_strmap_equal(&old->labels, &new->labels))
		return;
	n = api_list(r->api, SSRR_KIND_SS, new->name, NULL, NULL, &r->scratch);
	for (size_t i = 0; i < n; i++) {
		struct ssrr_member *m = ssrr_member_find(r, new->name, r->scratch.items[i]->name);

		if (m && m->world_seen)
			ssrw_world_see(r, m, r->scratch.items[i], des_now(r->w), true);
	}
}

/* ---------------------------------------------------------------- attempts */

static void close_attempt(struct ssrr_member *m, int64_t end_ms, enum ssrc_outcome o)
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
	return xstrdup(ssrr_nz(s));
}

static struct ssrc_attempt *open_attempt(struct ssrr_member *m, const struct ssrr_pass *pe)
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

void ssrw_track_attempt(struct ssrr_member *m, const struct ssrr_pass *pe, int64_t end_ms)
{
	const struct ssc_result *res = &pe->res;
	bool towards = res->desired && strcmp(res->desired, ssrr_nz(pe->prior_version)) != 0;
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
