/*
 * The StageSet controller adapter's records: see sim/wire/stageset_rc_rec.h.
 */
#include "sim/wire/stageset_rc_rec.h"

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
#include "sim/wire/stageset_rc_watch.h"

/* ---------------------------------------------------------------- helpers */

const char *ssrr_nz(const char *s)
{
	return s ? s : "";
}

bool ssrr_streq(const char *a, const char *b)
{
	return strcmp(ssrr_nz(a), ssrr_nz(b)) == 0;
}

int64_t ssrr_sim_ms(const struct ssrc *r, int64_t unix_ms)
{
	return unix_ms - r->start_unix_ms;
}

/* The resource name of @kind for API error texts ("stagesets.stages.metio.wtf"). */
static void resource_of(const char *kind, char *out, size_t len)
{
	static const struct { const char *kind, *res; } known[] = {
		{ "StageSet", "stagesets." SSRR_SS_GROUP },
		{ "StageLedger", "stageledgers." SSRR_SS_GROUP },
		{ "ExternalArtifact", "externalartifacts." SSRR_SOURCE_GROUP },
		{ "GitRepository", "gitrepositories." SSRR_SOURCE_GROUP },
		{ "OCIRepository", "ocirepositories." SSRR_SOURCE_GROUP },
		{ "Bucket", "buckets." SSRR_SOURCE_GROUP },
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

void ssrr_not_found(struct ssc_err *err, const char *kind, const char *name)
{
	char res[128];

	resource_of(kind, res, sizeof(res));
	ssc_err_set(err, SSC_ERR_NOT_FOUND, "%s \"%s\" not found", res, name);
}

/* ---------------------------------------------------------------- members */

struct ssrr_member *ssrr_member_find(const struct ssrc *r, const char *ns, const char *name)
{
	char buf[SSRR_KEY_STACK];
	char *k = kb_join2(buf, sizeof(buf), ns, name);
	size_t pos;
	bool found = si_get(&r->mem_ix, k, &pos);

	kb_drop(k, buf);
	return found ? r->mem[pos] : NULL;
}

static size_t ptr_slot(const struct ssrc *r, const char *key)
{
	uintptr_t h = (uintptr_t)key;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 7) & (r->pcap - 1);
}

struct ssrr_member *ssrr_member_of_key(struct ssrc *r, const char *ns, const char *name)
{
	size_t i;
	struct ssrr_member *m;

	if (r->pcap) {
		for (i = ptr_slot(r, name); r->pkeys[i]; i = (i + 1) & (r->pcap - 1))
			if (r->pkeys[i] == name)
				return r->pvals[i];
	}
	m = ssrr_member_get(r, ns, name);
	if (2 * (r->pn + 1) > r->pcap) {
		const char **ok = r->pkeys;
		struct ssrr_member **ov = r->pvals;
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

struct ssrr_member *ssrr_member_get(struct ssrc *r, const char *ns, const char *name)
{
	struct ssrr_member *m = ssrr_member_find(r, ns, name);
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

char *ssrr_entry_id(const struct ssrr_member *m, const char *stage)
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
static void spec_derived(struct ssrr_member *m)
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
	m->memo = SSRR_MEMO_NONE;
	m->memo_spec = m->memo_steady_spec = false;
	if (!m->spec_ok)
		return;
	m->nids = m->spec.nstages;
	m->ids = xcalloc(m->nids ? m->nids : 1, sizeof(*m->ids));
	m->memo_src = xcalloc(m->nids ? m->nids : 1, sizeof(*m->memo_src));
	m->src_ref = xcalloc(m->nids ? m->nids : 1, sizeof(*m->src_ref));
	for (size_t i = 0; i < m->nids; i++)
		m->ids[i] = ssrr_entry_id(m, m->spec.stages[i].name);
	/*
	 * A held pass is bound to repeat only on what the StageSet and its stage
	 * sources say: dependencies, windows, budgets, a sourced ladder or
	 * version and the kubeconfig Secret (read at R-12, before the approval
	 * gate; its deletion does not touch the StageSet) are read elsewhere.
	 */
	m->memo_spec = m->spec.ndepends_on == 0 && m->spec.nwindows == 0 && !m->spec.has_error_budget &&
		       !m->spec.has_migrations_source && !m->spec.kube_config &&
		       (!m->spec.has_version || (!m->spec.version.has_from_artifact &&
						  !m->spec.version.has_from_object));
	for (size_t i = 0; m->memo_spec && i < m->spec.nstages; i++) {
		const char *kind = m->spec.stages[i].source_ref.kind;

		m->memo_spec = !kind || !kind[0] || strcmp(kind, SSRR_KIND_EA) == 0 || ssrw_direct_kind(kind);
	}
	m->memo_steady_spec = m->memo_spec;
	for (size_t i = 0; m->memo_steady_spec && i < m->spec.nstages; i++) {
		const struct sst_stage *st = &m->spec.stages[i];

		m->memo_steady_spec = !st->has_actions && !st->has_promotion && !st->has_error_budget &&
				      !st->has_ready_checks;
	}
}

bool ssrr_ensure_spec(struct ssrr_member *m, struct api_snap *snap)
{
	const struct obj *o = api_snap_obj(snap);
	char err[256];

	if (m->has_spec && m->spec_gen == o->generation && ssrr_streq(m->spec_uid, o->uid)) {
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
	m->spec_uid = xstrdup(ssrr_nz(o->uid));
	m->spec_gen = o->generation;
	m->has_spec = true;
	m->spec_ok = sst_spec_parse(o->spec, &m->spec, err, sizeof(err)) == 0;
	if (!m->spec_ok)
		sst_spec_release(&m->spec);
	spec_derived(m);
	return true;
}

void ssrr_ensure_prior(struct ssrr_member *m, struct api_snap *snap)
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

struct ssrr_bucket *ssrr_bucket_of(struct ssrc *r, struct strindex *ix, const char *key, bool create)
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

static void bucket_add(struct ssrr_bucket *b, size_t m)
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

static void bucket_del(struct ssrr_bucket *b, size_t m)
{
	for (size_t i = 0; b && i < b->n; i++)
		if (b->m[i] == m) {
			b->m[i] = b->m[--b->n];
			return;
		}
}

void ssrr_strv_clear(char ***v, size_t *n)
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

char *ssrr_ref_key(char *buf, size_t len, const struct sst_source_ref *ref, const char *ss_ns)
{
	const char *kind = ref->kind && ref->kind[0] ? ref->kind : SSRR_KIND_EA;

	return kb_join3(buf, len, kind, ss_ns, ssrr_nz(ref->name));
}

void ssrr_unregister(struct ssrc *r, struct ssrr_member *m)
{
	for (size_t i = 0; i < m->ndeps; i++)
		bucket_del(ssrr_bucket_of(r, &r->dep_ix, m->deps[i], false), m->idx);
	for (size_t i = 0; i < m->nsrcs; i++)
		bucket_del(ssrr_bucket_of(r, &r->src_ix, m->srcs[i], false), m->idx);
	ssrr_strv_clear(&m->deps, &m->ndeps);
	ssrr_strv_clear(&m->srcs, &m->nsrcs);
}

void ssrr_register_member(struct ssrc *r, struct ssrr_member *m)
{
	char buf[SSRR_KEY_STACK];
	char *k;

	ssrr_unregister(r, m);
	if (!m->spec_ok)
		return;
	for (size_t i = 0; i < m->spec.ndepends_on; i++) {
		const struct sst_dependency *d = &m->spec.depends_on[i];
		const char *ns = d->ns && d->ns[0] ? d->ns : m->ns;

		if (strcmp(ns, m->ns) != 0)
			continue; /* W3 lists the changed StageSet's namespace only */
		k = kb_join2(buf, sizeof(buf), ns, ssrr_nz(d->name));
		strv_add(&m->deps, &m->ndeps, k);
		kb_drop(k, buf);
	}
	for (size_t i = 0; i < m->ndeps; i++)
		bucket_add(ssrr_bucket_of(r, &r->dep_ix, m->deps[i], true), m->idx);
	for (size_t i = 0; i < m->spec.nstages; i++) {
		k = ssrr_ref_key(buf, sizeof(buf), &m->spec.stages[i].source_ref, m->ns);
		strv_add(&m->srcs, &m->nsrcs, k);
		kb_drop(k, buf);
	}
	for (size_t i = 0; i < m->nsrcs; i++)
		bucket_add(ssrr_bucket_of(r, &r->src_ix, m->srcs[i], true), m->idx);
	ssrw_arm_sources(r, m);
}
