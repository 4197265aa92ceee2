/*
 * The StageSet world: see sim/models/stageset_world.h for the behaviour.
 *
 * StageSets and sources are heap records in arrays, found by "ns/name" and
 * "kind/ns/name" through string indexes.  A StageSet keeps its label
 * history (snapshots) so an event is matched against the labels it had at
 * the event's time, the sources it references, and one record per stage
 * name.  A source keeps the StageSets referencing it, its revision history
 * (the publishes that reach it, recomputed when a referencing StageSet
 * changes) and every object it handed out: a pass borrows strings of a
 * source object for its whole length, so none is freed before sw_free().
 */
#include "sim/models/stageset_world.h"

#include <assert.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/core/rng.h"

#define NONE SIZE_MAX
#define SOURCE_API "source.toolkit.fluxcd.io/v1"
#define EA_KIND "ExternalArtifact"
#define WORKLOAD_KIND "Deployment"
#define ID_STACK 256
#define REV_LEN 128 /* a revision text */

/* ---------------------------------------------------------------- records */

/* A StageSet's labels (and its Namespace's) from from_ms on. */
struct snap {
	int64_t from_ms;
	struct obj_strmap labels, ns_labels;
};

/* One stage of a StageSet, by name: the revision it last applied and its rollout. */
struct mstage {
	char *name;
	char *revision;          /* NULL: never applied */
	char *version;           /* what that revision carries (regression.versions), may be NULL */
	uint32_t k;              /* revisions applied (k of rev#k) */
	uint32_t j;              /* applies of the current revision */
	char *try_rev;           /* the revision the last apply tried (written or not) */
	uint32_t try_j;          /* applies of try_rev so far (j of apply#j) */
	int64_t applied_ms;      /* the rollout's start */
	int64_t ready_ms;        /* objects Current from then on; SW_NEVER: never */
	int64_t failed_ms;       /* objects Failed from then on; SW_NEVER: never */
	int64_t exprs_ready_ms, exprs_failed_ms;
	size_t drawn;            /* the current revision's drawn fault (index into member.drawn), or NONE */
	uint32_t restores;       /* restore#n */
};

struct member {
	char *ns, *name;
	int64_t first_ms;        /* first sighting */
	struct snap *snaps;      /* by from_ms; >= 1 */
	size_t nsnaps;
	size_t *srcs;            /* referenced sources (indices), unique */
	size_t nsrcs;
	struct mstage *st;
	size_t nst;
	struct sw_fault *drawn;  /* drawn faults in draw order (stage strings borrowed from st[].name) */
	size_t ndrawn, capdrawn;
	struct sw_fault *faults; /* sw_member_faults() buffer */
	size_t nfaults;
	struct strindex acts;    /* "<stage>/<phase>/<action>" → index into actn */
	uint32_t *actn;
	size_t nactn;
};

/* A publish that reaches a source, from eff_ms on. */
struct reach {
	int64_t eff_ms;
	size_t ev;               /* index into fevents */
	char revision[REV_LEN];
};

/* An object a source handed out. */
struct handed {
	size_t ev;               /* the revision's publish, NONE: the initial revision */
	bool ready;
	struct obj *o;
};

struct source {
	char *kind, *ns, *name;
	char *back_api, *back_kind; /* a producer's ExternalArtifact: spec.sourceRef; else NULL */
	size_t *refs;            /* StageSets referencing it (indices), unique */
	size_t nrefs;
	bool reach_ok;           /* reach is up to date */
	struct reach *reach;     /* sorted by (eff_ms, ev) */
	size_t nreach;
	char initial_revision[REV_LEN];
	struct handed *objs;
	size_t nobjs;
	uint32_t fetches;        /* fetch#n */
};

struct sw_world {
	struct sw_setup s;
	struct member **mem;
	size_t nmem, capmem;
	struct strindex mem_ix;
	struct source **src;
	size_t nsrc, capsrc;
	struct strindex src_ix;
	const struct obj **listed; /* sw_source_list() buffer */
	size_t caplisted;
};

/* ---------------------------------------------------------------- helpers */

static uint64_t fnv1a(const char *s, uint64_t h)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t mix64(uint64_t z)
{
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* @nhex lower-case hex digits derived from (@a, @b, @salt) into @out (NUL-terminated). */
static void hexgen(const char *a, const char *b, uint64_t salt, size_t nhex, char *out)
{
	static const char digits[] = "0123456789abcdef";
	uint64_t h = mix64(fnv1a(b, fnv1a(a, 0xcbf29ce484222325ull)) ^ mix64(salt + 0x9e3779b97f4a7c15ull));

	for (size_t i = 0; i < nhex; i++) {
		uint64_t v = mix64(h + (i / 16 + 1) * 0x9e3779b97f4a7c15ull);

		out[i] = digits[(v >> (4 * (i % 16))) & 0xf];
	}
	out[nhex] = '\0';
}

/* A uid in the API server's form from (@a, @b, @salt). */
static void uidgen(const char *a, const char *b, uint64_t salt, char *out)
{
	char hex[33];

	hexgen(a, b, salt, 32, hex);
	snprintf(out, 37, "%.8s-%.4s-4%.3s-8%.3s-%.12s", hex, hex + 8, hex + 12, hex + 15,
		 hex + 20);
}


static const char *nz(const char *s)
{
	return s ? s : "";
}

static void set_err(struct ssc_err *e, enum ssc_errc code, const char *msg)
{
	e->code = code;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
}

/* ---------------------------------------------------------------- draws */

/*
 * A stream id of up to six parts joined as written (numbers already text),
 * built without printf: the stack buffer @buf, or a new string when longer.
 */
static char *stream_id(char *buf, size_t len, const char *const *parts, size_t n)
{
	size_t total = 1;
	char *id, *p;

	for (size_t i = 0; i < n; i++)
		total += strlen(parts[i]);
	id = total <= len ? buf : xmalloc(total);
	p = id;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(parts[i]);

		memcpy(p, parts[i], l);
		p += l;
	}
	*p = '\0';
	return id;
}

/* Decimal text of @n into @buf (>= 12 bytes).  Returns @buf. */
static char *u32_text(uint32_t n, char *buf)
{
	char tmp[12];
	size_t l = 0, i = 0;

	do
		tmp[l++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	while (l > 0)
		buf[i++] = tmp[--l];
	buf[i] = '\0';
	return buf;
}

static void seed_stream(const struct sw_world *w, const char *const *parts, size_t n, struct rng *r)
{
	char buf[ID_STACK];
	char *id = stream_id(buf, sizeof(buf), parts, n);

	rng_stream(r, w->s.seed, w->s.trial, id);
	kb_drop(id, buf);
}

/* A duration of @d, drawn from the stream of @parts unless @d is constant. */
static int64_t draw_ms(const struct sw_world *w, const struct dist *d, const char *const *parts,
		       size_t n)
{
	struct rng r = { 0, 1 };
	gsl_rng g;

	if (d->kind != DIST_CONSTANT)
		seed_stream(w, parts, n, &r);
	rng_gsl_wrap(&g, &r);
	return dist_sample_ms(d, &g);
}

/* True with probability @p, drawn from the stream of @parts unless @p is 0 or 1. */
static bool draw_p(const struct sw_world *w, double p, const char *const *parts, size_t n)
{
	struct rng r;

	if (!(p > 0))
		return false;
	if (p >= 1)
		return true;
	seed_stream(w, parts, n, &r);
	return rng_uniform01(&r) < p;
}

/* ---------------------------------------------------------------- members */

static const struct obj_strmap empty_map;

static const struct snap *snap_at(const struct member *mb, int64_t t_ms)
{
	size_t i = mb->nsnaps;

	while (i > 1 && mb->snaps[i - 1].from_ms > t_ms)
		i--;
	return &mb->snaps[i - 1];
}

static bool same_map(const struct obj_strmap *a, const struct obj_strmap *b)
{
	return obj_strmap_equal(a ? a : &empty_map, b ? b : &empty_map);
}

static struct member *member_find(const struct sw_world *w, const char *ns, const char *name)
{
	char buf[ID_STACK];
	char *k = kb_join2(buf, sizeof(buf), ns, name);
	size_t pos;
	bool found = si_get(&w->mem_ix, k, &pos);

	kb_drop(k, buf);
	return found ? w->mem[pos] : NULL;
}

static struct mstage *stage_rec(struct member *mb, const char *name)
{
	for (size_t i = 0; i < mb->nst; i++)
		if (strcmp(mb->st[i].name, name) == 0)
			return &mb->st[i];
	mb->st = xreallocarray(mb->st, mb->nst + 1, sizeof(*mb->st));
	memset(&mb->st[mb->nst], 0, sizeof(mb->st[0]));
	mb->st[mb->nst].name = xstrdup(name);
	mb->st[mb->nst].drawn = NONE;
	mb->st[mb->nst].ready_ms = mb->st[mb->nst].failed_ms = SW_NEVER;
	mb->st[mb->nst].exprs_ready_ms = mb->st[mb->nst].exprs_failed_ms = SW_NEVER;
	return &mb->st[mb->nst++];
}

static const struct mstage *stage_find(const struct member *mb, const char *name)
{
	for (size_t i = 0; mb && i < mb->nst; i++)
		if (strcmp(mb->st[i].name, name) == 0)
			return &mb->st[i];
	return NULL;
}

static const char *stage_name(const struct sw_member *m, size_t stage)
{
	return m->spec && stage < m->spec->nstages ? nz(m->spec->stages[stage].name) : "";
}

/* ---------------------------------------------------------------- sources: identity */

static bool direct_kind(const char *kind)
{
	return strcmp(kind, "GitRepository") == 0 || strcmp(kind, "OCIRepository") == 0 ||
	       strcmp(kind, "Bucket") == 0;
}

static bool source_kind(const char *kind)
{
	return direct_kind(kind) || strcmp(kind, EA_KIND) == 0;
}

static struct source *source_find(const struct sw_world *w, const char *kind, const char *ns,
				  const char *name, size_t *index)
{
	char buf[ID_STACK];
	char *k = kb_join3(buf, sizeof(buf), kind, ns, name);
	size_t pos;
	bool found = si_get(&w->src_ix, k, &pos);

	kb_drop(k, buf);
	if (found && index)
		*index = pos;
	return found ? w->src[pos] : NULL;
}

static const char *first_path_part(const char *kind)
{
	if (strcmp(kind, "GitRepository") == 0)
		return "gitrepository";
	if (strcmp(kind, "OCIRepository") == 0)
		return "ocirepository";
	if (strcmp(kind, "Bucket") == 0)
		return "bucket";
	return "externalartifact";
}

static const char *resource_of(const char *kind)
{
	if (strcmp(kind, "GitRepository") == 0)
		return "gitrepositories";
	if (strcmp(kind, "OCIRepository") == 0)
		return "ocirepositories";
	if (strcmp(kind, "Bucket") == 0)
		return "buckets";
	return "externalartifacts";
}

/* The fields of a spec.models.sources entry, for first-match lookups. */
enum sfield {
	SF_INITIAL, SF_FETCH, SF_MISSING, SF_NOT_READY, SF_FORBIDDEN, SF_FETCH_ERRORS,
	SF_VERSION_MISSING, SF_VERSION_EMPTY, SF_FILES,
};

static bool source_cfg_matches(const struct scn_sw_source *e, const struct source *src)
{
	return (!e->kind || strcmp(e->kind, src->kind) == 0) && (!e->ns || strcmp(e->ns, src->ns) == 0) &&
	       (!e->name || strcmp(e->name, src->name) == 0);
}

static bool sets(const struct scn_sw_source *e, enum sfield f)
{
	switch (f) {
	case SF_INITIAL:
		return e->initial_version != NULL;
	case SF_FETCH:
		return e->has_fetch_duration;
	case SF_MISSING:
		return e->has_missing;
	case SF_NOT_READY:
		return e->has_not_ready;
	case SF_FORBIDDEN:
		return e->has_forbidden;
	case SF_FETCH_ERRORS:
		return e->has_fetch_errors;
	case SF_VERSION_MISSING:
		return e->has_version_missing;
	case SF_VERSION_EMPTY:
		return e->has_version_empty;
	case SF_FILES:
		return e->has_files;
	}
	return false;
}

/* The first spec.models.sources entry that matches @src and sets @f, else NULL. */
static const struct scn_sw_source *source_cfg(const struct sw_world *w, const struct source *src,
					      enum sfield f)
{
	for (size_t i = 0; i < w->s.cfg->nsources; i++) {
		const struct scn_sw_source *e = &w->s.cfg->sources[i];

		if (source_cfg_matches(e, src) && sets(e, f))
			return e;
	}
	return NULL;
}

/* Whether @t_ms lies in @src's windows of field @f. */
static bool source_in(const struct sw_world *w, const struct source *src, enum sfield f,
		      int64_t t_ms)
{
	const struct scn_sw_source *e = source_cfg(w, src, f);

	if (!e)
		return false;
	switch (f) {
	case SF_MISSING:
		return scn_sw_in_windows(&e->missing, t_ms);
	case SF_NOT_READY:
		return scn_sw_in_windows(&e->not_ready, t_ms);
	case SF_FORBIDDEN:
		return scn_sw_in_windows(&e->forbidden, t_ms);
	case SF_FETCH_ERRORS:
		return scn_sw_in_windows(&e->fetch_errors, t_ms);
	case SF_VERSION_MISSING:
		return scn_sw_in_windows(&e->version_missing, t_ms);
	case SF_VERSION_EMPTY:
		return scn_sw_in_windows(&e->version_empty, t_ms);
	default:
		return false;
	}
}

static const char *initial_version(const struct sw_world *w, const struct source *src)
{
	const struct scn_sw_source *e = source_cfg(w, src, SF_INITIAL);

	return e ? e->initial_version : SCN_SW_DEFAULT_INITIAL_VERSION;
}

static const struct dist *fetch_duration(const struct sw_world *w, const struct source *src)
{
	static const struct dist dflt = { DIST_CONSTANT, { .constant = { SCN_SW_DEFAULT_FETCH_MS } } };
	const struct scn_sw_source *e = source_cfg(w, src, SF_FETCH);

	return e ? &e->fetch_duration : &dflt;
}

/* The revision text of @src at publish @ev (NONE: the initial one) into @out (REV_LEN bytes). */
static void revision_text(const struct sw_world *w, const struct source *src, size_t ev, char *out)
{
	char k[ID_STACK], hex[65];
	char *key = kb_join3(k, sizeof(k), src->kind, src->ns, src->name);

	if (strcmp(src->kind, "OCIRepository") == 0) {
		const char *v = ev == NONE ? initial_version(w, src) : w->s.fevents[ev].version;

		hexgen(key, "revision", ev == NONE ? 0 : ev + 1, 64, hex);
		snprintf(out, REV_LEN, "%.24s@sha256:%s", v, hex);
	} else if (strcmp(src->kind, "Bucket") == 0) {
		hexgen(key, "revision", ev == NONE ? 0 : ev + 1, 64, hex);
		snprintf(out, REV_LEN, "sha256:%s", hex);
	} else {
		hexgen(key, "revision", ev == NONE ? 0 : ev + 1, 40, hex);
		snprintf(out, REV_LEN, "main@sha1:%s", hex);
	}
	kb_drop(key, k);
}

static struct source *source_get(struct sw_world *w, const char *kind, const char *ns,
				 const char *name, size_t *index)
{
	struct source *src = source_find(w, kind, ns, name, index);
	char buf[ID_STACK];
	char *k;

	if (src)
		return src;
	src = xcalloc(1, sizeof(*src));
	src->kind = xstrdup(kind);
	src->ns = xstrdup(ns);
	src->name = xstrdup(name);
	if (w->nsrc == w->capsrc) {
		w->capsrc = w->capsrc ? 2 * w->capsrc : 16;
		w->src = xreallocarray(w->src, w->capsrc, sizeof(*w->src));
	}
	w->src[w->nsrc] = src;
	k = kb_join3(buf, sizeof(buf), kind, ns, name);
	si_put(&w->src_ix, k, w->nsrc);
	kb_drop(k, buf);
	if (index)
		*index = w->nsrc;
	w->nsrc++;
	revision_text(w, src, NONE, src->initial_revision);
	return src;
}

/* Appends @x to the @n indices at *@v unless it is there.  Returns whether it was added. */
static bool add_index(size_t **v, size_t *n, size_t x)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i] == x)
			return false;
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = x;
	return true;
}

/* The source @ref of a StageSet in @owner_ns names, created when new; its index. */
static size_t ref_source(struct sw_world *w, const struct sst_source_ref *ref, const char *owner_ns)
{
	const char *ns = ref->ns && ref->ns[0] ? ref->ns : owner_ns;
	const char *kind = nz(ref->kind);
	size_t idx;
	struct source *src;

	if (!kind[0] || strcmp(kind, EA_KIND) == 0 || direct_kind(kind)) {
		source_get(w, kind[0] ? kind : EA_KIND, ns, nz(ref->name), &idx);
		return idx;
	}
	src = source_get(w, EA_KIND, ns, nz(ref->name), &idx);
	if (!src->back_kind) {
		src->back_api = xstrdup(nz(ref->api_version));
		src->back_kind = xstrdup(kind);
	}
	return idx;
}

/* ---------------------------------------------------------------- members: sightings */

static void snap_push(struct member *mb, int64_t t_ms, const struct sw_member *m)
{
	struct snap *s;

	if (mb->nsnaps > 0 && t_ms < mb->snaps[mb->nsnaps - 1].from_ms)
		t_ms = mb->snaps[mb->nsnaps - 1].from_ms;
	mb->snaps = xreallocarray(mb->snaps, mb->nsnaps + 1, sizeof(*mb->snaps));
	s = &mb->snaps[mb->nsnaps++];
	s->from_ms = t_ms;
	obj_strmap_copy(&s->labels, m->labels ? m->labels : &empty_map);
	obj_strmap_copy(&s->ns_labels, m->ns_labels ? m->ns_labels : &empty_map);
}

static void invalidate_sources(struct sw_world *w, const struct member *mb)
{
	for (size_t i = 0; i < mb->nsrcs; i++)
		w->src[mb->srcs[i]]->reach_ok = false;
}

static void reach_merge(const struct sw_world *w, struct source *src, const struct member *mb);

/*
 * Records that @mb (index @mi) references source @si.  The StageSet's own
 * short list says whether it is new, so a source many StageSets share is
 * not scanned on every call; a new reference adds its publishes to the
 * source's revisions.
 */
static void link_source(struct sw_world *w, struct member *mb, size_t mi, size_t si)
{
	struct source *src = w->src[si];

	if (!add_index(&mb->srcs, &mb->nsrcs, si))
		return;
	src->refs = xreallocarray(src->refs, src->nrefs + 1, sizeof(*src->refs));
	src->refs[src->nrefs++] = mi;
	if (src->reach_ok)
		reach_merge(w, src, mb);
}

static struct member *member_seen(struct sw_world *w, const struct sw_member *m, int64_t t_ms)
{
	struct member *mb = member_find(w, m->ns, m->name);
	size_t mi;
	const struct snap *last;

	if (!mb) {
		char buf[ID_STACK];
		char *k = kb_join2(buf, sizeof(buf), m->ns, m->name);

		mb = xcalloc(1, sizeof(*mb));
		mb->ns = xstrdup(m->ns);
		mb->name = xstrdup(m->name);
		mb->first_ms = t_ms;
		snap_push(mb, t_ms, m);
		if (w->nmem == w->capmem) {
			w->capmem = w->capmem ? 2 * w->capmem : 64;
			w->mem = xreallocarray(w->mem, w->capmem, sizeof(*w->mem));
		}
		mi = w->nmem;
		w->mem[w->nmem++] = mb;
		si_put(&w->mem_ix, k, mi);
		kb_drop(k, buf);
	} else {
		char buf[ID_STACK];
		char *k = kb_join2(buf, sizeof(buf), m->ns, m->name);

		si_get(&w->mem_ix, k, &mi);
		kb_drop(k, buf);
		last = &mb->snaps[mb->nsnaps - 1];
		if (!same_map(&last->labels, m->labels) || !same_map(&last->ns_labels, m->ns_labels)) {
			snap_push(mb, t_ms, m);
			invalidate_sources(w, mb);
		}
	}
	if (m->spec) {
		for (size_t i = 0; i < m->spec->nstages; i++)
			link_source(w, mb, mi,
				    ref_source(w, &m->spec->stages[i].source_ref, m->ns));
		if (m->spec->has_migrations_source)
			link_source(w, mb, mi,
				    ref_source(w, &m->spec->migrations_source_ref, m->ns));
	}
	return mb;
}

void sw_member_seen(struct sw_world *w, const struct sw_member *m, int64_t t_ms)
{
	member_seen(w, m, t_ms);
}

/* Whether publish @ev reaches @mb, and from when. */
static bool reaches(const struct sw_world *w, size_t ev, const struct member *mb, int64_t *from_ms)
{
	const struct scn_fevent *e = &w->s.fevents[ev];
	int64_t at = e->at_ms > mb->first_ms ? e->at_ms : mb->first_ms;
	const struct snap *s = snap_at(mb, at);

	if (e->type != SCN_FEV_PUBLISH || !lbl_matches(&e->selector, &s->labels))
		return false;
	if (e->has_ns_selector && !lbl_matches(&e->ns_selector, &s->ns_labels))
		return false;
	*from_ms = at;
	return true;
}

bool sw_publish_reaches(const struct sw_world *w, size_t event, const char *ns, const char *name,
			int64_t *from_ms)
{
	const struct member *mb = member_find(w, ns, name);
	int64_t at;

	if (!mb || event >= w->s.nfevents || !reaches(w, event, mb, &at))
		return false;
	if (from_ms)
		*from_ms = at;
	return true;
}

const char *sw_offered_version(const struct sw_world *w, const char *ns, const char *name,
			       int64_t t_ms)
{
	const struct member *mb = member_find(w, ns, name);
	const char *best = NULL;
	int64_t best_at = INT64_MIN, at;

	for (size_t i = 0; mb && i < w->s.nfevents; i++)
		if (reaches(w, i, mb, &at) && at <= t_ms && at >= best_at) {
			best_at = at;
			best = w->s.fevents[i].version;
		}
	return best;
}

/* ---------------------------------------------------------------- sources: revisions */

static int reach_cmp(const void *a, const void *b)
{
	const struct reach *x = a, *y = b;

	if (x->eff_ms != y->eff_ms)
		return x->eff_ms < y->eff_ms ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The publishes that reach @src: per event the earliest reach over its StageSets. */
static void reach_update(const struct sw_world *w, struct source *src)
{
	if (src->reach_ok)
		return;
	src->nreach = 0;
	for (size_t ev = 0; ev < w->s.nfevents; ev++) {
		int64_t best = SW_NEVER, at;

		if (w->s.fevents[ev].type != SCN_FEV_PUBLISH)
			continue;
		for (size_t r = 0; r < src->nrefs; r++)
			if (reaches(w, ev, w->mem[src->refs[r]], &at) && at < best)
				best = at;
		if (best == SW_NEVER)
			continue;
		src->reach = xreallocarray(src->reach, src->nreach + 1, sizeof(*src->reach));
		src->reach[src->nreach].eff_ms = best;
		src->reach[src->nreach].ev = ev;
		revision_text(w, src, ev, src->reach[src->nreach].revision);
		src->nreach++;
	}
	if (src->nreach > 1)
		qsort(src->reach, src->nreach, sizeof(*src->reach), reach_cmp);
	src->reach_ok = true;
}

/* Adds the publishes that reach @mb to the (up to date) revisions of @src. */
static void reach_merge(const struct sw_world *w, struct source *src, const struct member *mb)
{
	bool changed = false;

	for (size_t ev = 0; ev < w->s.nfevents; ev++) {
		int64_t at;
		size_t i;

		if (!reaches(w, ev, mb, &at))
			continue;
		for (i = 0; i < src->nreach && src->reach[i].ev != ev; i++)
			;
		if (i < src->nreach) {
			if (at < src->reach[i].eff_ms) {
				src->reach[i].eff_ms = at;
				changed = true;
			}
			continue;
		}
		src->reach = xreallocarray(src->reach, src->nreach + 1, sizeof(*src->reach));
		src->reach[src->nreach].eff_ms = at;
		src->reach[src->nreach].ev = ev;
		revision_text(w, src, ev, src->reach[src->nreach].revision);
		src->nreach++;
		changed = true;
	}
	if (changed)
		qsort(src->reach, src->nreach, sizeof(*src->reach), reach_cmp);
}

/* The publish behind @src's revision at @t_ms (NONE: the initial revision), and since when. */
static size_t revision_at(const struct sw_world *w, struct source *src, int64_t t_ms,
			  int64_t *since_ms)
{
	size_t i;

	reach_update(w, src);
	for (i = src->nreach; i > 0 && src->reach[i - 1].eff_ms > t_ms; i--)
		;
	if (i == 0) {
		*since_ms = 0;
		return NONE;
	}
	*since_ms = src->reach[i - 1].eff_ms;
	return src->reach[i - 1].ev;
}

static const char *revision_of(const struct source *src, size_t ev)
{
	if (ev == NONE)
		return src->initial_revision;
	for (size_t i = 0; i < src->nreach; i++)
		if (src->reach[i].ev == ev)
			return src->reach[i].revision;
	return src->initial_revision;
}

/* ---------------------------------------------------------------- sources: objects */

static void put_str(struct val *m, const char *k, const char *v)
{
	val_map_set(m, k, val_new_string(v));
}

static struct val *ready_condition(const char *status, const char *reason, const char *msg,
				   const char *when)
{
	struct val *c = val_new_map();

	put_str(c, "type", "Ready");
	put_str(c, "status", status);
	val_map_set(c, "observedGeneration", val_new_int(1));
	put_str(c, "lastTransitionTime", when);
	put_str(c, "reason", reason);
	put_str(c, "message", msg);
	return c;
}

static const char *not_ready_reason(const char *kind)
{
	if (strcmp(kind, "GitRepository") == 0)
		return "GitOperationFailed";
	if (strcmp(kind, "OCIRepository") == 0)
		return "OCIArtifactPullFailed";
	if (strcmp(kind, "Bucket") == 0)
		return "BucketOperationFailed";
	return "FetchFailed";
}

/* The object @src shows for revision @ev (since @since_ms), Ready or not. */
static const struct obj *source_object(const struct sw_world *w, struct source *src, size_t ev,
				       int64_t since_ms, bool ready)
{
	char uid[40], hex[65], when[40], url[512], key[ID_STACK];
	const char *rev = revision_of(src, ev);
	const char *version = ev == NONE ? initial_version(w, src) : w->s.fevents[ev].version;
	struct obj *o;
	struct val *spec, *st, *art, *conds;
	char *k;

	for (size_t i = 0; i < src->nobjs; i++)
		if (src->objs[i].ev == ev && src->objs[i].ready == ready)
			return src->objs[i].o;
	k = kb_join3(key, sizeof(key), src->kind, src->ns, src->name);
	o = obj_new(SOURCE_API, src->kind, src->ns, src->name);
	uidgen(k, "uid", 0, uid);
	free(o->uid);
	o->uid = xstrdup(uid);
	spec = val_new_map();
	if (src->back_kind) {
		struct val *sr = val_new_map();

		put_str(sr, "apiVersion", src->back_api);
		put_str(sr, "kind", src->back_kind);
		put_str(sr, "name", src->name);
		val_map_set(spec, "sourceRef", sr);
	} else if (strcmp(src->kind, "GitRepository") == 0) {
		struct val *ref = val_new_map();

		snprintf(url, sizeof(url), "https://git.example.com/%s/%s.git", src->ns, src->name);
		put_str(spec, "url", url);
		put_str(spec, "interval", "1m0s");
		put_str(ref, "branch", "main");
		val_map_set(spec, "ref", ref);
	} else if (strcmp(src->kind, "OCIRepository") == 0) {
		struct val *ref = val_new_map();

		snprintf(url, sizeof(url), "oci://registry.example.com/%s/%s", src->ns, src->name);
		put_str(spec, "url", url);
		put_str(spec, "interval", "1m0s");
		put_str(ref, "semver", ">=0.0.0");
		val_map_set(spec, "ref", ref);
	} else if (strcmp(src->kind, "Bucket") == 0) {
		put_str(spec, "bucketName", src->name);
		put_str(spec, "endpoint", "s3.example.com");
		put_str(spec, "interval", "1m0s");
	}
	o->spec = spec;

	sst_format_time(w->s.start_unix_ms + since_ms, when, sizeof(when));
	st = val_new_map();
	conds = val_new_list();
	if (ready) {
		char text[160];

		snprintf(text, sizeof(text), "stored artifact for revision '%s'", rev);
		val_list_push(conds, ready_condition("True", "Succeeded", text, when));
	} else {
		val_list_push(conds, ready_condition("False", not_ready_reason(src->kind),
						     "simulated source outage", when));
	}
	val_map_set(st, "conditions", conds);
	art = val_new_map();
	hexgen(k, "digest", ev == NONE ? 0 : ev + 1, 64, hex);
	snprintf(url, sizeof(url),
		 "http://source-controller.flux-system.svc.cluster.local./%s/%s/%s/%.12s.tar.gz",
		 first_path_part(src->kind), src->ns, src->name, hex);
	put_str(art, "path",
		url + strlen("http://source-controller.flux-system.svc.cluster.local./"));
	put_str(art, "url", url);
	put_str(art, "revision", rev);
	{
		char digest[80];

		snprintf(digest, sizeof(digest), "sha256:%s", hex);
		put_str(art, "digest", digest);
	}
	put_str(art, "lastUpdateTime", when);
	if (strcmp(src->kind, "OCIRepository") == 0) {
		struct val *meta = val_new_map();

		put_str(meta, "org.opencontainers.image.version", version);
		val_map_set(art, "metadata", meta);
	}
	val_map_set(st, "artifact", art);
	val_map_set(st, "observedGeneration", val_new_int(1));
	o->status = st;
	kb_drop(k, key);

	src->objs = xreallocarray(src->objs, src->nobjs + 1, sizeof(*src->objs));
	src->objs[src->nobjs].ev = ev;
	src->objs[src->nobjs].ready = ready;
	src->objs[src->nobjs].o = o;
	src->nobjs++;
	return o;
}

static void forbidden_text(struct ssc_err *err, const char *verb, const char *resource,
			   const char *group, const char *ns, const char *name)
{
	err->code = SSC_ERR_FORBIDDEN;
	if (name)
		snprintf(err->msg, sizeof(err->msg),
			 "%s.%s \"%s\" is forbidden: User \"system:serviceaccount:%s:default\" cannot %s "
			 "resource \"%s\" in API group \"%s\" in the namespace \"%s\"",
			 resource, group, name, ns, verb, resource, group, ns);
	else
		snprintf(err->msg, sizeof(err->msg),
			 "%s%s%s is forbidden: User \"system:serviceaccount:%s:default\" cannot %s resource "
			 "\"%s\" in API group \"%s\" in the namespace \"%s\"",
			 resource, group[0] ? "." : "", group, ns, verb, resource, group, ns);
}

const struct obj *sw_source_get(struct sw_world *w, const char *api_version, const char *kind,
				const char *ns, const char *name, int64_t t_ms, struct ssc_err *err)
{
	struct source *src;
	int64_t since;
	size_t ev;

	(void)api_version;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (!source_kind(kind)) {
		err->code = SSC_ERR_NOT_FOUND;
		snprintf(err->msg, sizeof(err->msg), "%s \"%s\" not found", kind, name);
		return NULL;
	}
	src = source_get(w, kind, ns, name, NULL);
	if (source_in(w, src, SF_FORBIDDEN, t_ms)) {
		forbidden_text(err, "get", resource_of(kind), "source.toolkit.fluxcd.io", ns, name);
		return NULL;
	}
	if (source_in(w, src, SF_MISSING, t_ms)) {
		err->code = SSC_ERR_NOT_FOUND;
		snprintf(err->msg, sizeof(err->msg), "%s.source.toolkit.fluxcd.io \"%s\" not found",
			 resource_of(kind), name);
		return NULL;
	}
	ev = revision_at(w, src, t_ms, &since);
	return source_object(w, src, ev, since, !source_in(w, src, SF_NOT_READY, t_ms));
}

size_t sw_source_list(struct sw_world *w, const char *ns, int64_t t_ms,
		      const struct obj *const **out, struct ssc_err *err)
{
	size_t n = 0;

	err->code = SSC_OK;
	err->msg[0] = '\0';
	*out = NULL;
	for (size_t i = 0; i < w->nsrc; i++) {
		struct source *src = w->src[i];
		int64_t since;
		size_t ev;

		if (!src->back_kind || strcmp(src->ns, ns) != 0)
			continue;
		if (source_in(w, src, SF_FORBIDDEN, t_ms)) {
			forbidden_text(err, "list", "externalartifacts", "source.toolkit.fluxcd.io",
				       ns, NULL);
			return 0;
		}
		if (source_in(w, src, SF_MISSING, t_ms))
			continue;
		if (n == w->caplisted) {
			w->caplisted = w->caplisted ? 2 * w->caplisted : 8;
			w->listed = xreallocarray(w->listed, w->caplisted, sizeof(*w->listed));
		}
		ev = revision_at(w, src, t_ms, &since);
		w->listed[n++] = source_object(w, src, ev, since,
					       !source_in(w, src, SF_NOT_READY, t_ms));
	}
	*out = w->listed;
	return n;
}

static void window_edges(const struct sw_world *w, const struct source *src, enum sfield f, int64_t t_ms,
			 int64_t *best)
{
	const struct scn_sw_source *e = source_cfg(w, src, f);
	const struct scn_sw_windows *ws;

	if (!e)
		return;
	ws = f == SF_MISSING ? &e->missing : f == SF_NOT_READY ? &e->not_ready : &e->forbidden;
	for (size_t i = 0; i < ws->n; i++) {
		if (ws->items[i].from_ms > t_ms && ws->items[i].from_ms < *best)
			*best = ws->items[i].from_ms;
		if (ws->items[i].until_ms > t_ms && ws->items[i].until_ms < *best)
			*best = ws->items[i].until_ms;
	}
}

int64_t sw_source_next_change(struct sw_world *w, const char *kind, const char *ns, const char *name,
			      int64_t t_ms)
{
	struct source *src;
	int64_t best = SW_NEVER;

	if (!source_kind(kind))
		return SW_NEVER;
	src = source_get(w, kind, ns, name, NULL);
	reach_update(w, src);
	for (size_t i = 0; i < src->nreach; i++)
		if (src->reach[i].eff_ms > t_ms && src->reach[i].eff_ms < best)
			best = src->reach[i].eff_ms;
	window_edges(w, src, SF_MISSING, t_ms, &best);
	window_edges(w, src, SF_NOT_READY, t_ms, &best);
	window_edges(w, src, SF_FORBIDDEN, t_ms, &best);
	return best;
}

/* The source record behind a resolved artifact: by the object it was read from, else its key. */
static struct source *source_of(struct sw_world *w, const struct ssc_resolved *ra)
{
	const char *slash;
	char ns[256];

	if (ra->source)
		return source_get(w, ra->source->kind, ra->source->ns, ra->source->name, NULL);
	slash = strchr(ra->key, '/');
	if (!slash || (size_t)(slash - ra->key) >= sizeof(ns))
		return source_get(w, EA_KIND, "", ra->key, NULL);
	memcpy(ns, ra->key, (size_t)(slash - ra->key));
	ns[slash - ra->key] = '\0';
	return source_get(w, EA_KIND, ns, slash + 1, NULL);
}

static const char *carried(struct sw_world *w, struct source *src, const char *revision)
{
	reach_update(w, src);
	for (size_t i = 0; revision && i < src->nreach; i++)
		if (strcmp(src->reach[i].revision, revision) == 0)
			return w->s.fevents[src->reach[i].ev].version;
	return initial_version(w, src);
}

const char *sw_revision_version(struct sw_world *w, const struct ssc_resolved *ra)
{
	return carried(w, source_of(w, ra), ra->revision);
}

/* A fetch of @src's artifact at @t_ms: its duration; false with @err in a fetchErrors window. */
static bool fetch(struct sw_world *w, struct source *src, const struct ssc_resolved *ra,
		  int64_t t_ms, int64_t *duration_ms, struct ssc_err *err)
{
	char n[12];
	const char *parts[] = { "source/", src->kind, "/", src->ns, "/", src->name, "/fetch#",
				u32_text(++src->fetches, n), "/duration" };

	*duration_ms = draw_ms(w, fetch_duration(w, src), parts, sizeof(parts) / sizeof(parts[0]));
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (!source_in(w, src, SF_FETCH_ERRORS, t_ms))
		return true;
	err->code = SSC_ERR;
	snprintf(err->msg, sizeof(err->msg), "failed to fetch artifact %s: 503 Service Unavailable",
		 ra->url && ra->url[0] ? ra->url : ra->key);
	return false;
}

static const struct scn_sw_source *files_of(const struct sw_world *w, const struct source *src)
{
	return source_cfg(w, src, SF_FILES);
}

int sw_artifact_file(struct sw_world *w, const struct ssc_resolved *ra, const char *path,
		     int64_t t_ms, char **content, int64_t *duration_ms, struct ssc_err *err)
{
	struct source *src = source_of(w, ra);
	const struct scn_sw_source *files = files_of(w, src);

	*content = NULL;
	if (!fetch(w, src, ra, t_ms, duration_ms, err))
		return -1;
	for (size_t i = 0; files && i < files->nfiles; i++)
		if (strcmp(files->paths[i], path) == 0) {
			*content = xstrdup(files->texts[i]);
			return 0;
		}
	if (source_in(w, src, SF_VERSION_MISSING, t_ms)) {
		err->code = SSC_ERR_NOT_FOUND;
		snprintf(err->msg, sizeof(err->msg), "open %s: no such file or directory", path);
		return -1;
	}
	if (source_in(w, src, SF_VERSION_EMPTY, t_ms))
		*content = xstrdup("");
	else
		*content = xasprintf("%s\n", carried(w, src, ra->revision));
	return 0;
}

/* Whether @file lies under @dir ("" and "." hold everything). */
static bool under(const char *file, const char *dir)
{
	size_t l;

	while (dir[0] == '.' && dir[1] == '/')
		dir += 2;
	if (!dir[0] || strcmp(dir, ".") == 0)
		return true;
	l = strlen(dir);
	while (l > 0 && dir[l - 1] == '/')
		l--;
	return strncmp(file, dir, l) == 0 && (file[l] == '\0' || file[l] == '/');
}

size_t sw_ladder_files(struct sw_world *w, const struct ssc_resolved *ra, const char *path,
		       int64_t t_ms,
		       char ***paths, char ***contents, int64_t *duration_ms, struct ssc_err *err)
{
	struct source *src = source_of(w, ra);
	const struct scn_sw_source *files = files_of(w, src);
	size_t n = 0;

	*paths = NULL;
	*contents = NULL;
	if (!fetch(w, src, ra, t_ms, duration_ms, err))
		return 0;
	for (size_t i = 0; files && i < files->nfiles; i++) {
		if (!under(files->paths[i], path))
			continue;
		*paths = xreallocarray(*paths, n + 1, sizeof(**paths));
		*contents = xreallocarray(*contents, n + 1, sizeof(**contents));
		(*paths)[n] = xstrdup(files->paths[i]);
		(*contents)[n] = xstrdup(files->texts[i]);
		n++;
	}
	return n;
}

/* The last name of a JSONPath such as "{.metadata.labels.version}" or ".spec['v']", for k8s's "<name> is not found". */
static void last_field(const char *path, char *out, size_t len)
{
	const char *end = path + strlen(path), *start;

	while (end > path && strchr("}]'\" ", end[-1]))
		end--;
	start = end;
	while (start > path && !strchr(".[{'\"", start[-1]))
		start--;
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

int sw_object_version(struct sw_world *w, const struct sw_member *m, size_t stage,
		      const struct ssc_resolved *ra, const char *kind, const char *name,
		      const char *field_path, int64_t t_ms, char **version, bool *transient,
		      int64_t *duration_ms, struct ssc_err *err)
{
	struct source *src = source_of(w, ra);
	char *fq, *nq, field[128];

	member_seen(w, m, t_ms);
	*version = NULL;
	*transient = false;
	if (!fetch(w, src, ra, t_ms, duration_ms, err)) {
		char *sq = lbl_go_quote(stage_name(m, stage));
		char *text = xasprintf("fetch version artifact for stage %s: %s", sq, err->msg);

		set_err(err, err->code, text);
		free(text);
		free(sq);
		*transient = true;
		return -1;
	}
	if (source_in(w, src, SF_VERSION_MISSING, t_ms)) {
		nq = lbl_go_quote(name);
		err->code = SSC_ERR;
		if (!field_path || !field_path[0]) {
			snprintf(err->msg, sizeof(err->msg),
				 "%s %s has no app.kubernetes.io/version label; set spec.version.fromObject.fieldPath "
				 "to read the version from a different field",
				 kind, nq);
		} else {
			fq = lbl_go_quote(field_path);
			last_field(field_path, field, sizeof(field));
			snprintf(err->msg, sizeof(err->msg),
				 "evaluating fieldPath %s on %s %s: %s is not found", fq,
				 kind, nq, field);
			free(fq);
		}
		free(nq);
		return -1;
	}
	*version = xstrdup(source_in(w, src, SF_VERSION_EMPTY, t_ms) ? "" : carried(w, src, ra->revision));
	return 0;
}

/* ---------------------------------------------------------------- rules */

/* What decides a StageSet's stage: each field from the first matching rule that sets it, else the top level. */
struct eff {
	const struct dist *apply_duration;
	const struct scn_sw_failure *apply_failure;
	const struct scn_sw_readiness *ready_delay, *ready_failed, *ready_never;
	const struct scn_sw_readiness *exprs_delay, *exprs_failed, *exprs_never;
	const struct scn_sw_regression *reg_p, *reg_after, *reg_duration, *reg_versions, *reg_effect;
	const struct scn_sw_restore *restore_duration, *restore_outcome;
};

static bool rule_matches(const struct scn_sw_rule *r, const struct obj_strmap *labels,
			 const char *stage)
{
	if (r->stage && (!stage || strcmp(r->stage, stage) != 0))
		return false;
	return lbl_matches(&r->selector, labels ? labels : &empty_map);
}

static void take(const struct scn_sw_behaviour *b, struct eff *e)
{
#define TAKE(field, has, value)                                                                  \
	do {                                                                                     \
		if (!e->field && (has))                                                          \
			e->field = (value);                                                      \
	} while (0)
	TAKE(apply_duration, b->apply.has_duration, &b->apply.duration);
	TAKE(apply_failure, b->apply.has_failure, &b->apply.failure);
	TAKE(ready_delay, b->readiness.has_delay, &b->readiness);
	TAKE(ready_failed, b->readiness.has_failed, &b->readiness);
	TAKE(ready_never, b->readiness.has_never, &b->readiness);
	TAKE(exprs_delay, b->exprs.has_delay, &b->exprs);
	TAKE(exprs_failed, b->exprs.has_failed, &b->exprs);
	TAKE(exprs_never, b->exprs.has_never, &b->exprs);
	TAKE(reg_p, b->regression.has_probability, &b->regression);
	TAKE(reg_after, b->regression.has_after, &b->regression);
	TAKE(reg_duration, b->regression.has_duration, &b->regression);
	TAKE(reg_versions, b->regression.has_versions, &b->regression);
	TAKE(reg_effect, b->regression.has_effect, &b->regression);
	TAKE(restore_duration, b->restore.has_duration, &b->restore);
	TAKE(restore_outcome, b->restore.has_outcome, &b->restore);
#undef TAKE
}

static void resolve(const struct sw_world *w, const struct obj_strmap *labels, const char *stage,
		    struct eff *e)
{
	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < w->s.cfg->nrules; i++)
		if (rule_matches(&w->s.cfg->rules[i], labels, stage))
			take(&w->s.cfg->rules[i].b, e);
	take(&w->s.cfg->top, e);
	if (!e->reg_versions)
		e->reg_versions = &w->s.cfg->top.regression; /* no list anywhere: every version */
}

/* ---------------------------------------------------------------- faults */

/* What a regress event does to the objects. */
static enum scn_sw_effect scripted_effect(const struct scn_fevent *e)
{
	return e->effect;
}

/* The window of regress event @ev on @mb, if it reaches it. */
static bool scripted_window(const struct sw_world *w, size_t ev, const struct member *mb,
			    int64_t *start, int64_t *end)
{
	const struct scn_fevent *e = &w->s.fevents[ev];

	if (e->type != SCN_FEV_REGRESS)
		return false;
	if (!e->by_selector) {
		if (!e->target.name || strcmp(e->target.name, mb->name) != 0 ||
		    strcmp(nz(e->target.ns), mb->ns) != 0)
			return false;
	} else {
		if (e->at_ms < mb->first_ms || (e->target.ns && strcmp(e->target.ns, mb->ns) != 0) ||
		    !lbl_matches(&e->selector, &snap_at(mb, e->at_ms)->labels))
			return false;
	}
	*start = e->at_ms;
	*end = e->for_ms > SW_NEVER - e->at_ms ? SW_NEVER : e->at_ms + e->for_ms;
	return true;
}

/* The effect a fault has on @ms at @t_ms: 0 none, else 1 + enum scn_sw_effect (Failed wins). */
static int fault_at(const struct sw_world *w, const struct member *mb, const struct mstage *ms,
		    int64_t t_ms)
{
	int got = 0;
	int64_t a, b;

	for (size_t i = 0; i < w->s.nfevents; i++)
		if (scripted_window(w, i, mb, &a, &b) && a <= t_ms && t_ms < b) {
			if (scripted_effect(&w->s.fevents[i]) == SCN_SW_EFFECT_FAILED)
				return 1 + SCN_SW_EFFECT_FAILED;
			got = 1 + SCN_SW_EFFECT_NOT_READY;
		}
	for (size_t i = 0; i < mb->ndrawn; i++) {
		const struct sw_fault *f = &mb->drawn[i];

		if (f->stage != ms->name || f->start_ms > t_ms || t_ms >= f->end_ms)
			continue;
		if (f->effect == SCN_SW_EFFECT_FAILED)
			return 1 + SCN_SW_EFFECT_FAILED;
		got = 1 + SCN_SW_EFFECT_NOT_READY;
	}
	return got;
}

static void consider(int64_t *best, int64_t x, int64_t after)
{
	if (x > after && x < *best)
		*best = x;
}

/* The next time after @t_ms at which a fault of @ms starts or ends. */
static int64_t fault_change(const struct sw_world *w, const struct member *mb,
			    const struct mstage *ms, int64_t t_ms)
{
	int64_t best = SW_NEVER, a, b;

	for (size_t i = 0; i < w->s.nfevents; i++)
		if (scripted_window(w, i, mb, &a, &b)) {
			consider(&best, a, t_ms);
			consider(&best, b, t_ms);
		}
	for (size_t i = 0; i < mb->ndrawn; i++)
		if (mb->drawn[i].stage == ms->name) {
			consider(&best, mb->drawn[i].start_ms, t_ms);
			consider(&best, mb->drawn[i].end_ms, t_ms);
		}
	return best;
}

/* ---------------------------------------------------------------- stages: apply */

/* The parts of a stream id "stageset/<ns>/<name>/<stage>" into @p (6 entries). */
static void member_parts(const struct member *mb, const char *stage, const char **p)
{
	p[0] = "stageset/";
	p[1] = mb->ns;
	p[2] = "/";
	p[3] = mb->name;
	p[4] = "/";
	p[5] = stage;
}

/* A draw of a revision's rollout: "stageset/<ns>/<name>/<stage>/rev#<k>/<what>". */
struct rev_id {
	const char *parts[12];
	char k[12];
};

static size_t rev_parts(struct rev_id *id, const struct member *mb, const char *stage, uint32_t k,
			const char *what)
{
	member_parts(mb, stage, id->parts);
	id->parts[6] = "/rev#";
	id->parts[7] = u32_text(k, id->k);
	id->parts[8] = "/";
	id->parts[9] = what;
	return 10;
}

static int64_t rev_ms(const struct sw_world *w, const struct member *mb, const char *stage,
		      uint32_t k, const char *what, const struct dist *d)
{
	struct rev_id id;
	size_t n = rev_parts(&id, mb, stage, k, what);

	return draw_ms(w, d, id.parts, n);
}

static bool rev_p(const struct sw_world *w, const struct member *mb, const char *stage, uint32_t k,
		  const char *what, double p)
{
	struct rev_id id;
	size_t n = rev_parts(&id, mb, stage, k, what);

	return draw_p(w, p, id.parts, n);
}

static int64_t add_ms(int64_t a, int64_t b)
{
	return a == SW_NEVER || b == SW_NEVER || b > SW_NEVER - a ? SW_NEVER : a + b;
}

static bool version_may_regress(const struct scn_sw_regression *r, const char *version)
{
	if (!r->has_versions)
		return true;
	for (size_t i = 0; version && i < r->nversions; i++)
		if (strcmp(r->versions[i], version) == 0)
			return true;
	return false;
}

/* Ends the drawn fault of @ms's current revision at @t_ms (another revision takes over). */
static void end_drawn(struct member *mb, struct mstage *ms, int64_t t_ms)
{
	struct sw_fault *f;

	if (ms->drawn == NONE)
		return;
	f = &mb->drawn[ms->drawn];
	if (f->end_ms > t_ms)
		f->end_ms = t_ms > f->start_ms ? t_ms : f->start_ms;
	ms->drawn = NONE;
}

static void push_drawn(struct member *mb, struct mstage *ms, int64_t start, int64_t end,
		       enum scn_sw_effect effect)
{
	if (mb->ndrawn == mb->capdrawn) {
		mb->capdrawn = mb->capdrawn ? 2 * mb->capdrawn : 4;
		mb->drawn = xreallocarray(mb->drawn, mb->capdrawn, sizeof(*mb->drawn));
	}
	/* its own copy of the version: a later rollout of the stage frees ms->version */
	mb->drawn[mb->ndrawn] = (struct sw_fault){ start, end, effect, ms->name, false, 0,
				 ms->version ? xstrdup(ms->version) : NULL };
	ms->drawn = mb->ndrawn++;
}

/* The rollout of a new revision @rev of @ms, written at @at_ms. */
static void start_rollout(const struct sw_world *w, struct member *mb, struct mstage *ms,
			  const struct eff *e, const char *rev, const char *version, int64_t at_ms)
{
	uint32_t k = ++ms->k;
	int64_t delay;
	bool failed, never;

	end_drawn(mb, ms, at_ms);
	free(ms->revision);
	free(ms->version);
	ms->revision = xstrdup(rev);
	ms->version = xstrdup(version);
	ms->applied_ms = at_ms;
	delay = rev_ms(w, mb, ms->name, k, "ready-delay", &e->ready_delay->delay);
	failed = rev_p(w, mb, ms->name, k, "ready-failed", e->ready_failed->failed_probability);
	never = !failed && rev_p(w, mb, ms->name, k, "ready-never", e->ready_never->never_probability);
	ms->ready_ms = failed || never ? SW_NEVER : add_ms(at_ms, delay);
	ms->failed_ms = failed ? add_ms(at_ms, delay) : SW_NEVER;
	ms->exprs_ready_ms = ms->exprs_failed_ms = SW_NEVER;
	if (ms->ready_ms == SW_NEVER)
		return;
	delay = rev_ms(w, mb, ms->name, k, "exprs-delay", &e->exprs_delay->delay);
	failed = rev_p(w, mb, ms->name, k, "exprs-failed", e->exprs_failed->failed_probability);
	never = !failed && rev_p(w, mb, ms->name, k, "exprs-never", e->exprs_never->never_probability);
	if (failed)
		ms->exprs_failed_ms = add_ms(ms->ready_ms, delay);
	else if (!never)
		ms->exprs_ready_ms = add_ms(ms->ready_ms, delay);
	if (version_may_regress(e->reg_versions, version) &&
	    rev_p(w, mb, ms->name, k, "regression", e->reg_p->probability)) {
		int64_t after = rev_ms(w, mb, ms->name, k, "regression-after",
				       &e->reg_after->after);
		int64_t dur = rev_ms(w, mb, ms->name, k, "regression-duration",
				     &e->reg_duration->duration);
		int64_t start = add_ms(ms->ready_ms, after);

		if (dur > 0 && start != SW_NEVER)
			push_drawn(mb, ms, start, add_ms(start, dur), e->reg_effect->effect);
	}
}

static const char *revision_key(const struct ssc_resolved *ra)
{
	return ra->revision && ra->revision[0] ? ra->revision : nz(ra->digest);
}

/* The version a StageSet runs with @ra: the inline value, else what the revision carries. */
static const char *applied_version(struct sw_world *w, const struct sw_member *m,
				   const struct ssc_resolved *ra)
{
	if (m->spec && m->spec->has_version && m->spec->version.value && m->spec->version.value[0])
		return m->spec->version.value;
	return sw_revision_version(w, ra);
}

static const char *class_word(enum ssc_errc c)
{
	switch (c) {
	case SSC_ERR_FORBIDDEN:
		return ": forbidden";
	case SSC_ERR_TERMINAL_FETCH:
		return ": artifact digest mismatch";
	case SSC_ERR_NO_RETRY:
		return ": HTTP 400 Bad Request";
	default:
		return "";
	}
}

void sw_apply_stage(struct sw_world *w, const struct sw_member *m, size_t stage,
		    const struct ssc_resolved *ra, int64_t t_ms, struct ssc_apply_outcome *out)
{
	struct member *mb = member_seen(w, m, t_ms);
	const char *sname = stage_name(m, stage);
	struct mstage *ms = stage_rec(mb, sname);
	const char *rev = revision_key(ra);
	const char *skip = m->annotations ? obj_strmap_get(m->annotations,
							   SSC_ANN_SKIP_IMAGE_VERIFICATION) : NULL;
	bool same = ms->revision && strcmp(ms->revision, rev) == 0;
	bool written = true;
	struct eff e;
	struct rev_id id;
	char j[12];
	size_t n;

	memset(out, 0, sizeof(*out));
	resolve(w, m->labels, sname, &e);
	if (!ms->try_rev || strcmp(ms->try_rev, rev) != 0) {
		free(ms->try_rev);
		ms->try_rev = xstrdup(rev);
		ms->try_j = 0;
	}
	ms->try_j++;
	n = rev_parts(&id, mb, sname, same ? ms->k : ms->k + 1, "apply#");
	id.parts[n++] = u32_text(ms->try_j, j);
	id.parts[n] = "/duration";
	out->duration_ms = draw_ms(w, e.apply_duration, id.parts, n + 1);
	out->nobjects = 1;
	out->image_skipped = skip && skip[0];

	const struct scn_sw_failure *f = e.apply_failure;
	id.parts[n] = "/failure";
	if (f && f->probability > 0 && (f->during.n == 0 || scn_sw_in_windows(&f->during, t_ms)) &&
	    !(f->op == SCN_SW_OP_IMAGE_VERIFICATION && out->image_skipped) &&
	    draw_p(w, f->probability, id.parts, n + 1)) {
		out->failed_op = scn_sw_op_text(f->op);
		out->err.code = f->cls;
		if (f->message)
			snprintf(out->err.msg, sizeof(out->err.msg), "%s", f->message);
		else
			snprintf(out->err.msg, sizeof(out->err.msg), "simulated %s failure%s",
				 out->failed_op, class_word(f->cls));
		written = f->op == SCN_SW_OP_RECORD_INVENTORY;
	}
	if (!written)
		return;
	if (same) {
		ms->j = ms->try_j;
		return;
	}
	start_rollout(w, mb, ms, &e, rev, applied_version(w, m, ra), t_ms + out->duration_ms);
	ms->j = ms->try_j;
	out->nchanged = 1;
	snprintf(out->changed_names, sizeof(out->changed_names), WORKLOAD_KIND "/%s-%s", mb->name,
		 sname);
}

bool sw_stage_steady(struct sw_world *w, const struct sw_member *m, size_t stage, int64_t t_ms, bool commit,
		     int64_t *duration_ms)
{
	struct member *mb = member_find(w, m->ns, m->name);
	const char *sname = stage_name(m, stage);
	struct mstage *ms = mb ? (struct mstage *)stage_find(mb, sname) : NULL;
	const struct scn_sw_failure *f;
	struct eff e;
	int64_t d, end;

	if (!ms || !ms->revision || !ms->try_rev || strcmp(ms->try_rev, ms->revision) != 0)
		return false;
	resolve(w, m->labels, sname, &e);
	if (e.apply_duration->kind != DIST_CONSTANT)
		return false;
	f = e.apply_failure;
	if (f && f->probability > 0 && (f->during.n == 0 || scn_sw_in_windows(&f->during, t_ms)))
		return false;
	{
		gsl_rng g;
		struct rng r = { 0, 1 };

		rng_gsl_wrap(&g, &r);
		d = dist_sample_ms(e.apply_duration, &g);
	}
	end = add_ms(t_ms, d);
	/* what the verify's first poll finds: Current, no fault */
	if (end < ms->ready_ms || end >= ms->failed_ms || fault_at(w, mb, ms, end) != 0)
		return false;
	if (commit) {
		ms->try_j++;
		ms->j = ms->try_j;
	}
	*duration_ms = d;
	return true;
}

/* ---------------------------------------------------------------- stages: waits */

enum kstatus { KS_IN_PROGRESS, KS_CURRENT, KS_FAILED };

/* What a wait polls: the objects (or the expressions) of one stage. */
struct probe {
	const struct sw_world *w;
	const struct member *mb;
	const struct mstage *ms;
	bool exprs;
};

static enum kstatus probe_at(const struct probe *p, int64_t t_ms)
{
	int f = fault_at(p->w, p->mb, p->ms, t_ms);
	int64_t ready = p->exprs ? p->ms->exprs_ready_ms : p->ms->ready_ms;
	int64_t failed = p->exprs ? p->ms->exprs_failed_ms : p->ms->failed_ms;

	if (f == 1 + SCN_SW_EFFECT_FAILED || t_ms >= failed)
		return KS_FAILED;
	if (f == 1 + SCN_SW_EFFECT_NOT_READY)
		return KS_IN_PROGRESS;
	return t_ms >= ready ? KS_CURRENT : KS_IN_PROGRESS;
}

static int64_t probe_change(const struct probe *p, int64_t t_ms)
{
	int64_t best = fault_change(p->w, p->mb, p->ms, t_ms);

	consider(&best, p->exprs ? p->ms->exprs_ready_ms : p->ms->ready_ms, t_ms);
	consider(&best, p->exprs ? p->ms->exprs_failed_ms : p->ms->failed_ms, t_ms);
	return best;
}

/*
 * Polls @p from @t_ms every SW_POLL_MS (the first poll at once) until it is
 * not in progress or the next poll would be at or past @t_ms + @timeout_ms.
 * Returns the status found and *@at_ms the poll that found it, or
 * KS_IN_PROGRESS with *@at_ms the deadline.
 */
static enum kstatus poll(const struct probe *p, int64_t t_ms, int64_t timeout_ms, int64_t *at_ms)
{
	int64_t deadline = add_ms(t_ms, timeout_ms > 0 ? timeout_ms : 1);
	int64_t s = t_ms;

	for (;;) {
		enum kstatus st = probe_at(p, s);
		int64_t c;

		if (st != KS_IN_PROGRESS) {
			*at_ms = s;
			return st;
		}
		c = probe_change(p, s);
		if (c >= deadline)
			break;
		s = t_ms + (c - t_ms + SW_POLL_MS - 1) / SW_POLL_MS * SW_POLL_MS;
		if (s >= deadline)
			break;
	}
	*at_ms = deadline;
	return KS_IN_PROGRESS;
}

static void wait_ready(struct ssc_wait_outcome *out)
{
	memset(out, 0, sizeof(*out));
	out->result = SSC_WAIT_READY;
}

void sw_wait_stage(struct sw_world *w, const struct sw_member *m, size_t stage, bool with_applied,
		   int64_t timeout_ms, int64_t t_ms, struct ssc_wait_outcome *out)
{
	struct member *mb = member_seen(w, m, t_ms);
	const struct mstage *ms = stage_find(mb, stage_name(m, stage));
	struct probe p = { w, mb, ms, false };
	enum kstatus st;
	int64_t at;

	(void)with_applied;
	wait_ready(out);
	if (!ms || !ms->revision)
		return;
	st = poll(&p, t_ms, timeout_ms, &at);
	out->duration_ms = at - t_ms;
	if (st == KS_CURRENT)
		return;
	if (st == KS_FAILED) {
		out->result = SSC_WAIT_FAILED;
		out->stalled = true;
		snprintf(out->err.msg, sizeof(out->err.msg),
			 "failed early due to stalled resources: [" WORKLOAD_KIND "/%s/%s-%s status: 'Failed']",
			 mb->ns, mb->name, ms->name);
	} else {
		out->result = SSC_WAIT_TIMEOUT;
		out->duration_ms = timeout_ms > 0 ? timeout_ms : 0;
		out->stalled = probe_at(&p, add_ms(t_ms, out->duration_ms)) == KS_FAILED;
		snprintf(out->err.msg, sizeof(out->err.msg),
			 "timeout waiting for: [" WORKLOAD_KIND "/%s/%s-%s status: 'InProgress']", mb->ns,
			 mb->name, ms->name);
	}
	out->err.code = SSC_ERR;
}

/* The kind of @stage's first readyChecks.exprs entry ("" when none is readable). */
static const char *exprs_kind(const struct sw_member *m, size_t stage)
{
	const struct val *l;

	if (!m->spec || stage >= m->spec->nstages || !m->spec->stages[stage].has_ready_checks)
		return "";
	l = m->spec->stages[stage].ready_checks.exprs;
	if (!l || l->type != VAL_LIST || l->u.list.n == 0)
		return "";
	return val_str(val_map_get(l->u.list.items[0], "kind"), "");
}

void sw_ready_exprs(struct sw_world *w, const struct sw_member *m, size_t stage, int64_t timeout_ms,
		    int64_t t_ms, struct ssc_wait_outcome *out, bool *in_flight)
{
	struct member *mb = member_seen(w, m, t_ms);
	const struct mstage *ms = stage_find(mb, stage_name(m, stage));
	struct probe p = { w, mb, ms, true };
	enum kstatus st;
	int64_t at;

	wait_ready(out);
	*in_flight = false;
	if (!ms || !ms->revision)
		return;
	st = poll(&p, t_ms, timeout_ms, &at);
	out->duration_ms = at - t_ms;
	if (st == KS_CURRENT)
		return;
	out->err.code = SSC_ERR;
	if (st == KS_FAILED) {
		out->result = SSC_WAIT_FAILED;
		out->stalled = true;
		snprintf(out->err.msg, sizeof(out->err.msg), "readyCheck failed for %s %s/%s-%s",
			 exprs_kind(m, stage), mb->ns, mb->name, ms->name);
	} else {
		out->result = SSC_WAIT_TIMEOUT;
		out->duration_ms = timeout_ms > 0 ? timeout_ms : 0;
		snprintf(out->err.msg, sizeof(out->err.msg), "context deadline exceeded");
		*in_flight = true;
	}
}

/* ---------------------------------------------------------------- stages: restore */

int sw_restore_stage(struct sw_world *w, const struct sw_member *m, size_t stage,
		     const struct sst_artifact_ref *ref, int64_t t_ms, int64_t *duration_ms, char *reason,
		     size_t reasonlen, char *msg, size_t msglen, struct ssc_err *err)
{
	struct member *mb = member_seen(w, m, t_ms);
	const char *sname = stage_name(m, stage);
	struct mstage *ms = stage_rec(mb, sname);
	const struct scn_sw_restore *r;
	struct eff e;
	const char *parts[9];
	char n[12], *sq;
	const char *rev = ref->revision && ref->revision[0] ? ref->revision : nz(ref->digest);
	int rc = 0;

	resolve(w, m->labels, sname, &e);
	member_parts(mb, sname, parts);
	parts[6] = "/restore#";
	parts[7] = u32_text(++ms->restores, n);
	parts[8] = "/duration";
	*duration_ms = draw_ms(w, &e.restore_duration->duration, parts, 9);
	r = e.restore_outcome;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (reasonlen)
		reason[0] = '\0';
	if (msglen)
		msg[0] = '\0';
	sq = lbl_go_quote(sname);
	switch (r->outcome) {
	case SCN_SW_RESTORED: {
		int64_t at = t_ms + *duration_ms;

		end_drawn(mb, ms, at);
		if (!ms->revision || strcmp(ms->revision, rev) != 0) {
			ms->k++;
			free(ms->revision);
			ms->revision = xstrdup(rev);
			free(ms->version);
			ms->version = NULL;
		}
		ms->applied_ms = at;
		ms->ready_ms = ms->exprs_ready_ms = at;
		ms->failed_ms = ms->exprs_failed_ms = SW_NEVER;
		free(ms->try_rev);
		ms->try_rev = NULL;
		ms->try_j = 0;
		break;
	}
	case SCN_SW_PREVIOUS_UNAVAILABLE:
		snprintf(reason, reasonlen, "PreviousRevisionUnavailable");
		snprintf(msg, msglen,
			 "cannot roll back: revision %s for stage %s is no longer fetchable (%s)", rev,
			 sq, r->message ? r->message : "artifact not found");
		rc = 1;
		break;
	case SCN_SW_IMAGE_UNVERIFIED:
		snprintf(reason, reasonlen, "ImageUnverified");
		snprintf(msg, msglen,
			 "cannot roll back stage %s: its previous revision references an image that fails "
			 "verification now (%s)",
			 sq, r->message ? r->message : "no matching signatures");
		rc = 1;
		break;
	case SCN_SW_APPLY_FAILED:
		set_err(err, SSC_ERR, r->message ? r->message : "simulated apply failure");
		rc = 2;
		break;
	case SCN_SW_TRANSIENT:
		set_err(err, SSC_ERR, r->message ? r->message : "rollback store unavailable");
		rc = -1;
		break;
	}
	free(sq);
	return rc;
}

/* ---------------------------------------------------------------- actions */

static bool action_matches(const struct scn_sw_action *a, const char *name, const char *stage,
			   const char *phase)
{
	return (!a->name || strcmp(a->name, name) == 0) && (!a->phase || strcmp(a->phase, phase) == 0) &&
	       (!a->stage || (stage && strcmp(a->stage, stage) == 0));
}

static const struct scn_sw_action *find_action(const struct scn_sw_behaviour *b, const char *name,
					       const char *stage, const char *phase)
{
	for (size_t i = 0; b->has_actions && i < b->nactions; i++)
		if (action_matches(&b->actions[i], name, stage, phase))
			return &b->actions[i];
	return NULL;
}

static const char *action_message(enum ssc_errc c)
{
	switch (c) {
	case SSC_ERR_NO_RETRY:
		return "simulated action failure: HTTP 400 Bad Request";
	case SSC_ERR_FORBIDDEN:
		return "simulated action failure: forbidden";
	default:
		return "simulated action failure";
	}
}

void sw_run_action(struct sw_world *w, const struct sw_member *m, size_t stage, const char *phase,
		   const struct sst_action *a, int attempt, int64_t t_ms, int64_t *duration_ms,
		   struct ssc_err *err)
{
	static const struct dist dflt = { DIST_CONSTANT, { .constant = { SCN_SW_DEFAULT_ACTION_MS } } };
	struct member *mb = member_seen(w, m, t_ms);
	const char *sname = stage == SIZE_MAX ? NULL : stage_name(m, stage);
	const char *aname = nz(a->name);
	const struct scn_sw_action *entry = NULL;
	const struct scn_sw_failure *f;
	char buf[ID_STACK], nb[12];
	char *k;
	size_t pos;
	const char *parts[12];

	(void)attempt;
	for (size_t i = 0; i < w->s.cfg->nrules && !entry; i++)
		if (rule_matches(&w->s.cfg->rules[i], m->labels, sname))
			entry = find_action(&w->s.cfg->rules[i].b, aname, sname, phase);
	if (!entry)
		entry = find_action(&w->s.cfg->top, aname, sname, phase);

	k = kb_join3(buf, sizeof(buf), sname ? sname : "-", phase, aname);
	if (!si_get(&mb->acts, k, &pos)) {
		pos = mb->nactn;
		mb->actn = xreallocarray(mb->actn, mb->nactn + 1, sizeof(*mb->actn));
		mb->actn[mb->nactn++] = 0;
		si_put(&mb->acts, k, pos);
	}
	kb_drop(k, buf);
	member_parts(mb, sname ? sname : "-", parts);
	parts[6] = "/";
	parts[7] = phase;
	parts[8] = "/";
	parts[9] = aname;
	parts[10] = "#";
	parts[11] = u32_text(++mb->actn[pos], nb);
	{
		const char *all[13];

		memcpy(all, parts, sizeof(parts));
		all[12] = "/duration";
		*duration_ms = draw_ms(w, entry && entry->has_duration ? &entry->duration : &dflt, all, 13);
		all[12] = "/failure";
		err->code = SSC_OK;
		err->msg[0] = '\0';
		f = entry && entry->has_failure ? &entry->failure : NULL;
		if (f && f->probability > 0 && (f->during.n == 0 || scn_sw_in_windows(&f->during, t_ms)) &&
		    draw_p(w, f->probability, all, 13))
			set_err(err, f->cls, f->message ? f->message : action_message(f->cls));
	}
}

/* ---------------------------------------------------------------- gates: metrics */

#define UNAVAILABLE "metric source unavailable"

static void fmt_err(char *err, size_t errlen, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
static void fmt_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Go's %v of a NaN or infinite float64. */
static const char *go_special(double v)
{
	return isnan(v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf");
}

/* Whether entry @x serves a query of @query at @address (NULL: an entry without address). */
static bool serves(const struct scn_series *x, const char *query, const char *address)
{
	if (!x->query || strcmp(x->query, query) != 0)
		return false;
	if (!address)
		return x->address == NULL;
	return x->address && strcmp(x->address, address) == 0;
}

int sw_metric_prometheus(const struct scn_series *series, size_t n, const char *query,
			 const char *address, int64_t t_ms, double *value, char *err, size_t errlen)
{
	size_t samples = 0, group = 0;
	double v = 0, x;
	const char *at = address;

	for (size_t i = 0; address && i < n && group == 0; i++)
		group += serves(&series[i], query, address);
	if (group == 0)
		at = NULL;
	for (size_t i = 0; i < n; i++)
		if (serves(&series[i], query, at) && scn_sw_in_windows(&series[i].unavailable, t_ms)) {
			fmt_err(err, errlen, UNAVAILABLE ": source returned HTTP 503");
			return -1;
		}
	for (size_t i = 0; i < n; i++) {
		if (!serves(&series[i], query, at))
			continue;
		if (ps_sample(&series[i].series, series[i].interval_ms, t_ms, &x) == 1) {
			if (samples++ == 0)
				v = x;
		}
	}
	if (samples != 1) {
		fmt_err(err, errlen,
			UNAVAILABLE ": query returned %zu samples, want exactly 1 (the query must reduce to a "
				    "single scalar)",
			samples);
		return -1;
	}
	if (isnan(v) || isinf(v)) {
		fmt_err(err, errlen,
			UNAVAILABLE ": sample value is %s (a misconfigured query returns NaN/Inf)",
			go_special(v));
		return -1;
	}
	*value = v;
	return 0;
}

/* The last field name of a jsonPath, for k8s's "<name> is not found". */
static void last_field(const char *path, char *out, size_t len);

/* Whether entry @x serves a webhook source at @url with @json_path. */
static bool serves_hook(const struct scn_series *x, const char *url, const char *json_path)
{
	return x->url && strcmp(x->url, url) == 0 && (!x->json_path || strcmp(x->json_path, json_path) == 0);
}

int sw_metric_webhook(const struct scn_series *series, size_t n, const char *url,
		      const char *json_path, int64_t t_ms, double *value, char *err, size_t errlen)
{
	size_t values = 0;
	double v = 0, x;
	char *jq = lbl_go_quote(json_path);
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		if (serves_hook(&series[i], url, json_path) && scn_sw_in_windows(&series[i].unavailable, t_ms)) {
			fmt_err(err, errlen, UNAVAILABLE ": source returned HTTP 503");
			goto out_free_quote;
		}
	for (size_t i = 0; i < n; i++)
		if (serves_hook(&series[i], url, json_path) &&
		    ps_sample(&series[i].series, series[i].interval_ms, t_ms, &x) == 1 && values++ == 0)
			v = x;
	if (values == 0) {
		char field[128];

		last_field(json_path, field, sizeof(field));
		fmt_err(err, errlen, UNAVAILABLE ": jsonPath %s matched nothing: %s is not found",
			jq, field);
	} else if (values > 1) {
		fmt_err(err, errlen,
			UNAVAILABLE ": jsonPath %s resolved to %zu values, want exactly 1 (it must select a single "
				    "scalar)",
			jq, values);
	} else if (isnan(v) || isinf(v)) {
		fmt_err(err, errlen, UNAVAILABLE ": value is %s", go_special(v));
	} else {
		*value = v;
		rc = 0;
	}
out_free_quote:
	free(jq);
	return rc;
}

int sw_query(const struct sw_world *w, const struct sst_metric_source *src, int64_t t_ms,
	     double *value, int64_t *duration_ms, struct ssc_err *err)
{
	*duration_ms = 0;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (src->has_prometheus) {
		if (sw_metric_prometheus(w->s.series, w->s.nseries, nz(src->query), src->address, t_ms, value,
					 err->msg, sizeof(err->msg)) == 0)
			return 0;
		err->code = SSC_ERR;
		return -1;
	}
	if (src->has_webhook) {
		if (sw_metric_webhook(w->s.series, w->s.nseries, nz(src->url), nz(src->json_path), t_ms, value,
				      err->msg, sizeof(err->msg)) == 0)
			return 0;
		err->code = SSC_ERR;
		return -1;
	}
	set_err(err, SSC_ERR, "metric source has no provider");
	return -1;
}

/* ---------------------------------------------------------------- gates: pods and events */

static bool list_fails(const struct sw_world *w, const char *ns, bool events, int64_t t_ms,
		       struct ssc_err *err, const char *what)
{
	for (size_t i = 0; i < w->s.cfg->nlist_errors; i++) {
		const struct scn_sw_list_error *le = &w->s.cfg->list_errors[i];
		char inner[400];

		if ((events ? !le->events : !le->pods) || (le->ns && strcmp(le->ns, ns) != 0) ||
		    t_ms < le->window.from_ms || t_ms >= le->window.until_ms)
			continue;
		if (le->message)
			snprintf(inner, sizeof(inner), "%s", le->message);
		else if (le->cls == SSC_ERR_FORBIDDEN)
			snprintf(inner, sizeof(inner),
				 "%s is forbidden: User \"system:serviceaccount:%s:default\" cannot list resource "
				 "\"%s\" in API group \"\" in the namespace \"%s\"",
				 what, ns, what, ns);
		else
			snprintf(inner, sizeof(inner),
				 "the server is currently unable to handle the request (get %s)",
				 what);
		err->code = le->cls;
		snprintf(err->msg, sizeof(err->msg), "list %s: %s", what, inner);
		return true;
	}
	return false;
}

static bool pods_selected(const struct scn_sw_pods *p, const char *ns,
			  const struct lbl_selector *sel)
{
	return (!p->ns || strcmp(p->ns, ns) == 0) && lbl_matches(sel, &p->labels);
}

static int32_t sat_add(int32_t a, int64_t b)
{
	int64_t s = (int64_t)a + b;

	return s > INT32_MAX ? INT32_MAX : (int32_t)s;
}

int sw_pod_restarts(const struct sw_world *w, const char *ns, const struct lbl_selector *sel,
		    int64_t t_ms, int32_t *total, struct ssc_err *err)
{
	*total = 0;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (list_fails(w, ns, false, t_ms, err, "pods"))
		return -1;
	for (size_t i = 0; i < w->s.cfg->npods; i++) {
		const struct scn_sw_pods *p = &w->s.cfg->pods[i];
		int32_t got = 0;

		if (!pods_selected(p, ns, sel))
			continue;
		for (size_t k = 0; k < p->nrestarts && p->restarts[k].at_ms <= t_ms; k++)
			got = p->restarts[k].total;
		*total = sat_add(*total, got);
	}
	return 0;
}

int sw_warning_events(const struct sw_world *w, const char *ns, const struct lbl_selector *sel,
		      const char *const *reasons, size_t nreasons, int64_t t_ms, int32_t *total,
		      struct ssc_err *err)
{
	bool any = false;

	*total = 0;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (list_fails(w, ns, false, t_ms, err, "pods"))
		return -1;
	for (size_t i = 0; i < w->s.cfg->npods && !any; i++)
		any = pods_selected(&w->s.cfg->pods[i], ns, sel);
	if (!any)
		return 0;
	if (list_fails(w, ns, true, t_ms, err, "events"))
		return -1;
	for (size_t i = 0; i < w->s.cfg->npods; i++) {
		const struct scn_sw_pods *p = &w->s.cfg->pods[i];

		if (!pods_selected(p, ns, sel))
			continue;
		for (size_t k = 0; k < p->nwarnings; k++) {
			const struct scn_sw_warning *e = &p->warnings[k];
			bool listed = false;

			if (t_ms < e->at_ms || t_ms >= e->until_ms)
				continue;
			for (size_t r = 0; r < nreasons && !listed; r++)
				listed = strcmp(reasons[r], e->reason) == 0;
			if (listed)
				*total = sat_add(*total, e->count > 1 ? e->count : 1);
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- anchors */

int sw_anchor_uid(const struct sw_world *w, const char *api_version, const char *kind,
		  const char *ns,
		  const char *name, int64_t t_ms, char *uid, size_t uidlen, struct ssc_err *err)
{
	const struct scn_sw_anchor *a = NULL;
	char buf[ID_STACK], u[40];
	char *k;
	uint64_t gen = 0;

	err->code = SSC_OK;
	err->msg[0] = '\0';
	for (size_t i = 0; i < w->s.cfg->nanchors && !a; i++) {
		const struct scn_sw_anchor *x = &w->s.cfg->anchors[i];

		if ((!x->api_version || strcmp(x->api_version, api_version) == 0) && strcmp(x->kind, kind) == 0 &&
		    strcmp(x->name, name) == 0 && (!x->ns || strcmp(x->ns, ns) == 0))
			a = x;
	}
	if (a && scn_sw_in_windows(&a->unreadable, t_ms)) {
		err->code = SSC_ERR_FORBIDDEN;
		snprintf(err->msg, sizeof(err->msg),
			 "%s \"%s\" is forbidden: User \"system:serviceaccount:%s:default\" cannot get this %s", kind,
			 name, ns, kind);
		return -1;
	}
	if (a && t_ms >= a->gone_ms) {
		if (t_ms < a->recreated_ms) {
			err->code = SSC_ERR_NOT_FOUND;
			snprintf(err->msg, sizeof(err->msg), "%s \"%s\" not found", kind, name);
			return -1;
		}
		gen = 1;
	}
	k = kb_join3(buf, sizeof(buf), kind, ns, name);
	uidgen(k, "anchor", gen, u);
	kb_drop(k, buf);
	snprintf(uid, uidlen, "%s", u);
	return 0;
}

/* ---------------------------------------------------------------- observation */

static int fault_cmp(const void *a, const void *b)
{
	const struct sw_fault *x = a, *y = b;

	if (x->start_ms != y->start_ms)
		return x->start_ms < y->start_ms ? -1 : 1;
	if (x->scripted != y->scripted)
		return x->scripted ? -1 : 1;
	return x->event < y->event ? -1 : x->event > y->event;
}

size_t sw_member_faults(struct sw_world *w, const char *ns, const char *name,
			const struct sw_fault **out)
{
	struct member *mb = member_find(w, ns, name);
	size_t n = 0;
	int64_t a, b;

	*out = NULL;
	if (!mb)
		return 0;
	mb->faults = xreallocarray(mb->faults, w->s.nfevents + mb->ndrawn + 1, sizeof(*mb->faults));
	for (size_t i = 0; i < w->s.nfevents; i++)
		if (scripted_window(w, i, mb, &a, &b))
			mb->faults[n++] = (struct sw_fault){ a, b,
					   scripted_effect(&w->s.fevents[i]), NULL, true, i,
							      NULL };
	for (size_t i = 0; i < mb->ndrawn; i++)
		if (mb->drawn[i].end_ms > mb->drawn[i].start_ms)
			mb->faults[n++] = mb->drawn[i];
	qsort(mb->faults, n, sizeof(*mb->faults), fault_cmp);
	mb->nfaults = n;
	*out = mb->faults;
	return n;
}

int64_t sw_stage_ready_at(const struct sw_world *w, const char *ns, const char *name,
			  const char *stage)
{
	const struct mstage *ms = stage_find(member_find(w, ns, name), stage);

	return ms && ms->revision ? ms->ready_ms : -1;
}

/* ---------------------------------------------------------------- lifecycle */

struct sw_world *sw_new(const struct sw_setup *s)
{
	struct sw_world *w = xcalloc(1, sizeof(*w));

	w->s = *s;
	return w;
}

static void member_free(struct member *mb)
{
	for (size_t i = 0; i < mb->nsnaps; i++) {
		obj_strmap_release(&mb->snaps[i].labels);
		obj_strmap_release(&mb->snaps[i].ns_labels);
	}
	free(mb->snaps);
	free(mb->srcs);
	for (size_t i = 0; i < mb->nst; i++) {
		free(mb->st[i].name);
		free(mb->st[i].revision);
		free(mb->st[i].version);
		free(mb->st[i].try_rev);
	}
	free(mb->st);
	for (size_t i = 0; i < mb->ndrawn; i++)
		free((char *)mb->drawn[i].version);
	free(mb->drawn);
	free(mb->faults);
	si_release(&mb->acts);
	free(mb->actn);
	free(mb->ns);
	free(mb->name);
	free(mb);
}

static void source_free(struct source *src)
{
	free(src->kind);
	free(src->ns);
	free(src->name);
	free(src->back_api);
	free(src->back_kind);
	free(src->refs);
	free(src->reach);
	for (size_t i = 0; i < src->nobjs; i++)
		obj_free(src->objs[i].o);
	free(src->objs);
	free(src);
}

void sw_free(struct sw_world *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nmem; i++)
		member_free(w->mem[i]);
	free(w->mem);
	si_release(&w->mem_ix);
	for (size_t i = 0; i < w->nsrc; i++)
		source_free(w->src[i]);
	free(w->src);
	si_release(&w->src_ix);
	free(w->listed);
	free(w);
}
