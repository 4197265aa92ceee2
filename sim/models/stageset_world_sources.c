/*
 * The StageSet world's members and sources: see
 * sim/models/stageset_world_sources.h for the behaviour.
 */
#include "sim/models/stageset_world_sources.h"

#include <assert.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/core/rng.h"
#include "sim/load/ladder_files.h"

#include "sim/models/stageset_world_rec.h"

/* ---------------------------------------------------------------- sources: identity */

static bool direct_kind(const char *kind)
{
	return strcmp(kind, "GitRepository") == 0 || strcmp(kind, "OCIRepository") == 0 ||
	       strcmp(kind, "Bucket") == 0;
}

static bool source_kind(const char *kind)
{
	return direct_kind(kind) || strcmp(kind, SWR_EA_KIND) == 0;
}

static struct swr_source *source_find(const struct sw_world *w, const char *kind, const char *ns,
				  const char *name, size_t *index)
{
	char buf[SWR_ID_STACK];
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
	SF_VERSION_MISSING, SF_VERSION_EMPTY, SF_FILES, SF_UPDATES, SF_OBJECTS, SF_GC,
};

static bool source_cfg_matches(const struct scn_sw_source *e, const struct swr_source *src)
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
	case SF_UPDATES:
		return e->has_updates;
	case SF_OBJECTS:
		return e->has_objects;
	case SF_GC:
		return e->has_gc;
	}
	return false;
}

/* The first spec.models.sources entry that matches @src and sets @f, else NULL. */
static const struct scn_sw_source *source_cfg(const struct sw_world *w, const struct swr_source *src,
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
static bool source_in(const struct sw_world *w, const struct swr_source *src, enum sfield f,
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

static const char *initial_version(const struct sw_world *w, const struct swr_source *src)
{
	const struct scn_sw_source *e = source_cfg(w, src, SF_INITIAL);

	if (src->seed)
		return src->seed->version;
	return e ? e->initial_version : SCN_SW_DEFAULT_INITIAL_VERSION;
}

static const struct dist *fetch_duration(const struct sw_world *w, const struct swr_source *src)
{
	static const struct dist dflt = { DIST_CONSTANT, { .constant = { SCN_SW_DEFAULT_FETCH_MS } } };
	const struct scn_sw_source *e = source_cfg(w, src, SF_FETCH);

	return e ? &e->fetch_duration : &dflt;
}

/*
 * The revision text of @src at revision @ev (SWR_NONE: the initial one; a
 * publish, or an update past the publishes) carrying @v into @out
 * (SWR_REV_LEN bytes).
 */
static void revision_text(const struct swr_source *src, size_t ev, const char *v, char *out)
{
	char k[SWR_ID_STACK], hex[65];
	char *key = kb_join3(k, sizeof(k), src->kind, src->ns, src->name);

	if (strcmp(src->kind, "OCIRepository") == 0) {
		swr_hexgen(key, "revision", ev == SWR_NONE ? 0 : ev + 1, 64, hex);
		snprintf(out, SWR_REV_LEN, "%.24s@sha256:%s", v, hex);
	} else if (strcmp(src->kind, "Bucket") == 0) {
		swr_hexgen(key, "revision", ev == SWR_NONE ? 0 : ev + 1, 64, hex);
		snprintf(out, SWR_REV_LEN, "sha256:%s", hex);
	} else {
		swr_hexgen(key, "revision", ev == SWR_NONE ? 0 : ev + 1, 40, hex);
		snprintf(out, SWR_REV_LEN, "main@sha1:%s", hex);
	}
	kb_drop(key, k);
}

static struct swr_source *source_get(struct sw_world *w, const char *kind, const char *ns,
				 const char *name, size_t *index)
{
	struct swr_source *src = source_find(w, kind, ns, name, index);
	char buf[SWR_ID_STACK];
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
	for (size_t i = 0; i < w->s.nseeds && !src->seed; i++)
		if (strcmp(w->s.seeds[i].kind, kind) == 0 && strcmp(w->s.seeds[i].ns, ns) == 0 &&
		    strcmp(w->s.seeds[i].name, name) == 0)
			src->seed = &w->s.seeds[i];
	if (src->seed)
		snprintf(src->initial_revision, sizeof(src->initial_revision), "%s", src->seed->revision);
	else
		revision_text(src, SWR_NONE, initial_version(w, src), src->initial_revision);
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
	const char *kind = swr_nz(ref->kind);
	size_t idx;
	struct swr_source *src;

	if (!kind[0] || strcmp(kind, SWR_EA_KIND) == 0 || direct_kind(kind)) {
		source_get(w, kind[0] ? kind : SWR_EA_KIND, ns, swr_nz(ref->name), &idx);
		return idx;
	}
	src = source_get(w, SWR_EA_KIND, ns, swr_nz(ref->name), &idx);
	if (!src->back_kind) {
		src->back_api = xstrdup(swr_nz(ref->api_version));
		src->back_kind = xstrdup(kind);
	}
	return idx;
}

/* ---------------------------------------------------------------- members: sightings */

static void snap_push(struct swr_member *mb, int64_t t_ms, const struct sw_member *m)
{
	struct swr_snap *s;

	if (mb->nsnaps > 0 && t_ms < mb->snaps[mb->nsnaps - 1].from_ms)
		t_ms = mb->snaps[mb->nsnaps - 1].from_ms;
	mb->snaps = xreallocarray(mb->snaps, mb->nsnaps + 1, sizeof(*mb->snaps));
	s = &mb->snaps[mb->nsnaps++];
	s->from_ms = t_ms;
	obj_strmap_copy(&s->labels, m->labels ? m->labels : &swr_empty_map);
	obj_strmap_copy(&s->ns_labels, m->ns_labels ? m->ns_labels : &swr_empty_map);
}

static void invalidate_sources(struct sw_world *w, const struct swr_member *mb)
{
	for (size_t i = 0; i < mb->nsrcs; i++)
		w->src[mb->srcs[i]]->reach_ok = false;
}

static void reach_merge(const struct sw_world *w, struct swr_source *src, const struct swr_member *mb);

/*
 * Records that @mb (index @mi) references source @si.  The StageSet's own
 * short list says whether it is new, so a source many StageSets share is
 * not scanned on every call; a new reference adds its publishes to the
 * source's revisions.
 */
static void link_source(struct sw_world *w, struct swr_member *mb, size_t mi, size_t si)
{
	struct swr_source *src = w->src[si];

	if (!add_index(&mb->srcs, &mb->nsrcs, si))
		return;
	src->refs = xreallocarray(src->refs, src->nrefs + 1, sizeof(*src->refs));
	src->refs[src->nrefs++] = mi;
	if (src->reach_ok)
		reach_merge(w, src, mb);
}

struct swr_member *sws_member_record(struct sw_world *w, const struct sw_member *m, int64_t t_ms)
{
	struct swr_member *mb = swr_member_find(w, m->ns, m->name);
	size_t mi;
	const struct swr_snap *last;

	if (!mb) {
		char buf[SWR_ID_STACK];
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
		char buf[SWR_ID_STACK];
		char *k = kb_join2(buf, sizeof(buf), m->ns, m->name);

		si_get(&w->mem_ix, k, &mi);
		kb_drop(k, buf);
		last = &mb->snaps[mb->nsnaps - 1];
		if (!swr_same_map(&last->labels, m->labels) || !swr_same_map(&last->ns_labels, m->ns_labels)) {
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

void sws_member_seen(struct sw_world *w, const struct sw_member *m, int64_t t_ms)
{
	sws_member_record(w, m, t_ms);
}

/* Whether publish @ev reaches @mb, and from when. */
static bool reaches(const struct sw_world *w, size_t ev, const struct swr_member *mb, int64_t *from_ms)
{
	const struct scn_fevent *e = &w->s.fevents[ev];
	int64_t at = e->at_ms > mb->first_ms ? e->at_ms : mb->first_ms;
	const struct swr_snap *s = swr_snap_at(mb, at);

	/* a resumed run's past publish: what it offered is in the snapshot */
	if (e->type != SCN_FEV_PUBLISH || e->done || !lbl_matches(&e->selector, &s->labels))
		return false;
	if (e->has_ns_selector && !lbl_matches(&e->ns_selector, &s->ns_labels))
		return false;
	*from_ms = at;
	return true;
}

bool sws_publish_reaches(const struct sw_world *w, size_t event, const char *ns, const char *name,
			int64_t *from_ms)
{
	const struct swr_member *mb = swr_member_find(w, ns, name);
	int64_t at;

	if (!mb || event >= w->s.nfevents || !reaches(w, event, mb, &at))
		return false;
	if (from_ms)
		*from_ms = at;
	return true;
}

const char *sws_offered_version(const struct sw_world *w, const char *ns, const char *name,
			       int64_t t_ms)
{
	const struct swr_member *mb = swr_member_find(w, ns, name);
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
	const struct swr_reach *x = a, *y = b;

	if (x->eff_ms != y->eff_ms)
		return x->eff_ms < y->eff_ms ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/*
 * The update whose files @src's initial revision holds: a resumed run's
 * last update that sets files at or before its start (the snapshot's
 * revision came with or after it), NULL: the entry's `files`.
 */
static const struct scn_sw_source_update *files_before(const struct sw_world *w, const struct swr_source *src)
{
	const struct scn_sw_source *upd = source_cfg(w, src, SF_UPDATES);
	const struct scn_sw_source_update *files = NULL;

	for (size_t u = 0; upd && u < upd->nupdates && upd->updates[u].at_ms <= 0; u++)
		if (upd->updates[u].has_files)
			files = &upd->updates[u];
	return files;
}

/*
 * The objects @src's initial revision renders: those of a resumed run's
 * last update that sets objects at or before its start, else the entry's
 * `objects`; NULL when none names any.
 */
static const struct scn_sw_objects *objects_before(const struct sw_world *w, const struct swr_source *src)
{
	const struct scn_sw_source *upd = source_cfg(w, src, SF_UPDATES);
	const struct scn_sw_source *e = source_cfg(w, src, SF_OBJECTS);
	const struct scn_sw_objects *objects = e ? &e->objects : NULL;

	for (size_t u = 0; upd && u < upd->nupdates && upd->updates[u].at_ms <= 0; u++)
		if (upd->updates[u].has_objects)
			objects = &upd->updates[u].objects;
	return objects;
}

/*
 * Sorts @src's revisions and gives each the version it carries (an update
 * keeps the one of the revision before it), the files it holds (those of
 * the last update at or before it) and its revision text.
 */
static void reach_finish(const struct sw_world *w, struct swr_source *src)
{
	const struct scn_sw_source *upd = source_cfg(w, src, SF_UPDATES);
	const char *version = initial_version(w, src);
	const struct scn_sw_source_update *files = files_before(w, src);
	const struct scn_sw_objects *objects = w->s.cfg->any_objects ? objects_before(w, src) : NULL;

	if (src->nreach > 1)
		qsort(src->reach, src->nreach, sizeof(*src->reach), reach_cmp);
	for (size_t i = 0; i < src->nreach; i++) {
		struct swr_reach *r = &src->reach[i];

		if (r->ev < w->s.nfevents) {
			version = w->s.fevents[r->ev].version;
		} else {
			const struct scn_sw_source_update *u = &upd->updates[r->ev - w->s.nfevents];

			if (u->has_files)
				files = u;
			if (u->has_objects)
				objects = &u->objects;
		}
		r->version = version;
		r->files = files;
		r->objects = objects;
		revision_text(src, r->ev, version, r->revision);
	}
}

/*
 * The revisions of @src: per publish the earliest reach over its StageSets,
 * and the source's own updates.
 */
static void reach_update(const struct sw_world *w, struct swr_source *src)
{
	const struct scn_sw_source *upd = source_cfg(w, src, SF_UPDATES);

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
		src->nreach++;
	}
	if (upd) {
		src->reach = xreallocarray(src->reach, src->nreach + upd->nupdates, sizeof(*src->reach));
		for (size_t u = 0; u < upd->nupdates; u++) {
			/* a resumed run's past update: what it gave is in the snapshot */
			if (upd->updates[u].at_ms <= 0)
				continue;
			src->reach[src->nreach].eff_ms = upd->updates[u].at_ms;
			src->reach[src->nreach].ev = w->s.nfevents + u;
			src->nreach++;
		}
	}
	reach_finish(w, src);
	src->reach_ok = true;
}

/* Adds the publishes that reach @mb to the (up to date) revisions of @src. */
static void reach_merge(const struct sw_world *w, struct swr_source *src, const struct swr_member *mb)
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
		src->nreach++;
		changed = true;
	}
	if (changed)
		reach_finish(w, src);
}

/* The publish behind @src's revision at @t_ms (SWR_NONE: the initial revision), and since when. */
static size_t revision_at(const struct sw_world *w, struct swr_source *src, int64_t t_ms,
			  int64_t *since_ms)
{
	size_t i;

	reach_update(w, src);
	for (i = src->nreach; i > 0 && src->reach[i - 1].eff_ms > t_ms; i--)
		;
	if (i == 0) {
		/* a resumed run's seeded source: since the snapshot's artifact time */
		*since_ms = src->seed ? src->seed->since_unix_ms - w->s.start_unix_ms : 0;
		return SWR_NONE;
	}
	*since_ms = src->reach[i - 1].eff_ms;
	return src->reach[i - 1].ev;
}

/* The version @src's revision @ev (SWR_NONE: the initial one) carries. */
static const char *version_of(const struct sw_world *w, const struct swr_source *src, size_t ev)
{
	for (size_t i = 0; ev != SWR_NONE && i < src->nreach; i++)
		if (src->reach[i].ev == ev)
			return src->reach[i].version;
	return initial_version(w, src);
}

static const char *revision_of(const struct swr_source *src, size_t ev)
{
	if (ev == SWR_NONE)
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
static const struct obj *source_object(const struct sw_world *w, struct swr_source *src, size_t ev,
				       int64_t since_ms, bool ready)
{
	char uid[40], hex[65], when[40], url[512], key[SWR_ID_STACK];
	const char *rev = revision_of(src, ev);
	const char *version = version_of(w, src, ev);
	struct obj *o;
	struct val *spec, *st, *art, *conds;
	char *k;

	for (size_t i = 0; i < src->nobjs; i++)
		if (src->objs[i].ev == ev && src->objs[i].ready == ready)
			return src->objs[i].o;
	k = kb_join3(key, sizeof(key), src->kind, src->ns, src->name);
	o = obj_new(SWR_SOURCE_API, src->kind, src->ns, src->name);
	swr_uidgen(k, "uid", 0, uid);
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
	swr_hexgen(k, "digest", ev == SWR_NONE ? 0 : ev + 1, 64, hex);
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
	if (ev == SWR_NONE && src->seed) {
		/* the artifact the snapshot showed */
		if (src->seed->digest)
			put_str(art, "digest", src->seed->digest);
		if (src->seed->path)
			put_str(art, "path", src->seed->path);
		if (src->seed->url)
			put_str(art, "url", src->seed->url);
	}
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

const struct obj *sws_source_get(struct sw_world *w, const char *api_version, const char *kind,
				const char *ns, const char *name, int64_t t_ms, struct ssc_err *err)
{
	struct swr_source *src;
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

size_t sws_source_list(struct sw_world *w, const char *ns, int64_t t_ms,
		      const struct obj *const **out, struct ssc_err *err)
{
	size_t n = 0;

	err->code = SSC_OK;
	err->msg[0] = '\0';
	*out = NULL;
	for (size_t i = 0; i < w->nsrc; i++) {
		struct swr_source *src = w->src[i];
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

size_t sws_source_snapshot(struct sw_world *w, int64_t t_ms, const struct obj ***objs,
			   const char ***versions)
{
	size_t n = 0;

	*objs = xcalloc(w->nsrc ? w->nsrc : 1, sizeof(**objs));
	*versions = xcalloc(w->nsrc ? w->nsrc : 1, sizeof(**versions));
	for (size_t i = 0; i < w->nsrc; i++) {
		struct swr_source *src = w->src[i];
		int64_t since;
		size_t ev = revision_at(w, src, t_ms, &since);

		if (ev == SWR_NONE && !src->seed)
			continue; /* at its initial revision: a resumed run starts it there too */
		(*objs)[n] = source_object(w, src, ev, since, true);
		(*versions)[n++] = version_of(w, src, ev);
	}
	return n;
}

static void window_edges(const struct sw_world *w, const struct swr_source *src, enum sfield f, int64_t t_ms,
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

/* The first change of @kind @ns/@name after @t_ms; `forbidden` edges count when @access. */
static int64_t next_change(struct sw_world *w, const char *kind, const char *ns, const char *name, int64_t t_ms,
			   bool access)
{
	struct swr_source *src;
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
	if (access)
		window_edges(w, src, SF_FORBIDDEN, t_ms, &best);
	return best;
}

int64_t sws_source_next_change(struct sw_world *w, const char *kind, const char *ns, const char *name,
			      int64_t t_ms)
{
	return next_change(w, kind, ns, name, t_ms, true);
}

int64_t sws_source_next_event(struct sw_world *w, const char *kind, const char *ns, const char *name,
			     int64_t t_ms)
{
	return next_change(w, kind, ns, name, t_ms, false);
}

/* The source record behind a resolved artifact: by the object it was read from, else its key. */
static struct swr_source *source_of(struct sw_world *w, const struct ssc_resolved *ra)
{
	const char *slash;
	char ns[256];

	if (ra->source)
		return source_get(w, ra->source->kind, ra->source->ns, ra->source->name, NULL);
	slash = strchr(ra->key, '/');
	if (!slash || (size_t)(slash - ra->key) >= sizeof(ns))
		return source_get(w, SWR_EA_KIND, "", ra->key, NULL);
	memcpy(ns, ra->key, (size_t)(slash - ra->key));
	ns[slash - ra->key] = '\0';
	return source_get(w, SWR_EA_KIND, ns, slash + 1, NULL);
}

static const char *carried(struct sw_world *w, struct swr_source *src, const char *revision)
{
	reach_update(w, src);
	for (size_t i = 0; revision && i < src->nreach; i++)
		if (strcmp(src->reach[i].revision, revision) == 0)
			return src->reach[i].version;
	return initial_version(w, src);
}

const char *sws_revision_version(struct sw_world *w, const struct ssc_resolved *ra)
{
	return carried(w, source_of(w, ra), ra->revision);
}

/* A fetch of @src's artifact at @t_ms: its duration; false with @err in a fetchErrors window. */
static bool fetch(struct sw_world *w, struct swr_source *src, const struct ssc_resolved *ra,
		  int64_t t_ms, int64_t *duration_ms, struct ssc_err *err)
{
	char n[12];
	const char *parts[] = { "source/", src->kind, "/", src->ns, "/", src->name, "/fetch#",
				swr_u32_text(++src->fetches, n), "/duration" };

	*duration_ms = swr_draw_ms(w, fetch_duration(w, src), parts, sizeof(parts) / sizeof(parts[0]));
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (!source_in(w, src, SF_FETCH_ERRORS, t_ms))
		return true;
	err->code = SSC_ERR;
	snprintf(err->msg, sizeof(err->msg), "failed to fetch artifact %s: 503 Service Unavailable",
		 ra->url && ra->url[0] ? ra->url : ra->key);
	return false;
}

/* Files of an artifact (borrowed from the scenario), sorted by path. */
struct files {
	char *const *paths, *const *texts;
	size_t n;
};

/* The files of @src's artifact at @revision (NULL: the initial one). */
static struct files files_of(struct sw_world *w, struct swr_source *src, const char *revision)
{
	const struct scn_sw_source *e = source_cfg(w, src, SF_FILES);
	const struct scn_sw_source_update *u = files_before(w, src);
	struct files f = { NULL, NULL, 0 };
	size_t i;

	reach_update(w, src);
	for (i = 0; revision && i < src->nreach; i++)
		if (strcmp(src->reach[i].revision, revision) == 0) {
			u = src->reach[i].files;
			break;
		}
	if (u) {
		f.paths = u->paths;
		f.texts = u->texts;
		f.n = u->nfiles;
	} else if (e) {
		f.paths = e->paths;
		f.texts = e->texts;
		f.n = e->nfiles;
	}
	return f;
}

/* Whether revision texts @a and @b name the same revision: the same digest after the last ':'. */
static bool same_digest(const char *a, const char *b)
{
	const char *x = strrchr(a, ':'), *y = strrchr(b, ':');

	return x && y && strcmp(x, y) == 0;
}

/*
 * The objects a revision of @src from before a resumed run's start renders
 * (its initial revision, or an update at or before the start), as the
 * original run's revision texts name them; false when @revision is none of
 * those.  A later revision is in src->reach.
 */
static bool objects_past(const struct sw_world *w, const struct swr_source *src, const char *revision,
			 const struct scn_sw_objects **out)
{
	const struct scn_sw_source *upd = source_cfg(w, src, SF_UPDATES);
	const struct scn_sw_source *e = source_cfg(w, src, SF_OBJECTS);
	const struct scn_sw_objects *objects = e ? &e->objects : NULL;
	char text[SWR_REV_LEN];

	revision_text(src, SWR_NONE, "", text);
	if (same_digest(text, revision)) {
		*out = objects;
		return true;
	}
	for (size_t u = 0; upd && u < upd->nupdates && upd->updates[u].at_ms <= 0; u++) {
		if (upd->updates[u].has_objects)
			objects = &upd->updates[u].objects;
		revision_text(src, w->s.nfevents + u, "", text);
		if (same_digest(text, revision)) {
			*out = objects;
			return true;
		}
	}
	return false;
}

/* The objects revision @revision of @src renders for stage @stage, or NULL. */
static const struct scn_sw_stage_objects *objects_at(struct sw_world *w, struct swr_source *src,
						     const char *revision, const char *stage)
{
	const struct scn_sw_objects *o = objects_before(w, src);
	bool found = false;

	reach_update(w, src);
	for (size_t i = 0; revision && i < src->nreach; i++)
		if (strcmp(src->reach[i].revision, revision) == 0) {
			o = src->reach[i].objects;
			found = true;
			break;
		}
	/* a revision a resumed run's snapshot names (a rollback restores one): what it rendered then */
	if (!found && revision)
		objects_past(w, src, revision, &o);
	return scn_sw_objects_of(o, stage);
}

const struct scn_sw_stage_objects *sws_stage_objects(struct sw_world *w, const struct ssc_resolved *ra,
						 const char *stage)
{
	if (!w->s.cfg->any_objects)
		return NULL;
	return objects_at(w, source_of(w, ra), ra->revision, stage);
}

const struct scn_sw_stage_objects *sws_revision_objects(struct sw_world *w, const struct sw_member *m,
						    size_t stage, const char *revision)
{
	if (!w->s.cfg->any_objects || !m->spec || stage >= m->spec->nstages)
		return NULL;
	return objects_at(w, w->src[ref_source(w, &m->spec->stages[stage].source_ref, m->ns)], revision,
			  swr_nz(m->spec->stages[stage].name));
}

int sws_artifact_file(struct sw_world *w, const struct ssc_resolved *ra, const char *path,
		     int64_t t_ms, char **content, int64_t *duration_ms, struct ssc_err *err)
{
	struct swr_source *src = source_of(w, ra);
	struct files files = files_of(w, src, ra->revision);

	*content = NULL;
	if (!fetch(w, src, ra, t_ms, duration_ms, err))
		return -1;
	for (size_t i = 0; i < files.n; i++)
		if (strcmp(files.paths[i], path) == 0) {
			*content = xstrdup(files.texts[i]);
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

size_t sws_ladder_files(struct sw_world *w, const struct ssc_resolved *ra, const char *path,
		       int64_t t_ms,
		       char ***paths, char ***contents, int64_t *duration_ms, struct ssc_err *err)
{
	struct swr_source *src = source_of(w, ra);
	struct files files = files_of(w, src, ra->revision);
	size_t n = 0;

	*paths = NULL;
	*contents = NULL;
	if (!fetch(w, src, ra, t_ms, duration_ms, err))
		return 0;
	for (size_t i = 0; i < files.n; i++) {
		if (!lf_under(files.paths[i], path))
			continue;
		*paths = xreallocarray(*paths, n + 1, sizeof(**paths));
		*contents = xreallocarray(*contents, n + 1, sizeof(**contents));
		(*paths)[n] = xstrdup(files.paths[i]);
		(*contents)[n] = xstrdup(files.texts[i]);
		n++;
	}
	return n;
}

void sws_last_field(const char *path, char *out, size_t len)
{
	const char *end = path + strlen(path), *start;

	while (end > path && strchr("}]'\" ", end[-1]))
		end--;
	start = end;
	while (start > path && !strchr(".[{'\"", start[-1]))
		start--;
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

int sws_object_version(struct sw_world *w, const struct sw_member *m, size_t stage,
		      const struct ssc_resolved *ra, const char *kind, const char *name,
		      const char *field_path, int64_t t_ms, char **version, bool *transient,
		      int64_t *duration_ms, struct ssc_err *err)
{
	struct swr_source *src = source_of(w, ra);
	char *fq, *nq, field[128];

	sws_member_record(w, m, t_ms);
	*version = NULL;
	*transient = false;
	if (!fetch(w, src, ra, t_ms, duration_ms, err)) {
		char *sq = gofmt_quote(swr_stage_name(m, stage));
		char *text = xasprintf("fetch version artifact for stage %s: %s", sq, err->msg);

		swr_set_err(err, err->code, text);
		free(text);
		free(sq);
		*transient = true;
		return -1;
	}
	if (source_in(w, src, SF_VERSION_MISSING, t_ms)) {
		nq = gofmt_quote(name);
		err->code = SSC_ERR;
		if (!field_path || !field_path[0]) {
			snprintf(err->msg, sizeof(err->msg),
				 "%s %s has no app.kubernetes.io/version label; set spec.version.fromObject.fieldPath "
				 "to read the version from a different field",
				 kind, nq);
		} else {
			fq = gofmt_quote(field_path);
			sws_last_field(field_path, field, sizeof(field));
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

bool sws_revision_collected(struct sw_world *w, const struct sw_member *m, size_t stage,
			    const char *revision, int64_t t_ms, struct ssc_err *err)
{
	const struct scn_sw_source *e;
	struct swr_source *src;
	bool any = false;
	int64_t since;

	/* no record is made for a scenario that collects nothing */
	for (size_t i = 0; i < w->s.cfg->nsources && !any; i++)
		any = w->s.cfg->sources[i].has_gc;
	if (!any || !m->spec || stage >= m->spec->nstages)
		return false;
	src = w->src[ref_source(w, &m->spec->stages[stage].source_ref, m->ns)];
	e = source_cfg(w, src, SF_GC);
	if (!e || t_ms < e->gc_ms)
		return false;
	if (strcmp(revision_of(src, revision_at(w, src, t_ms, &since)), swr_nz(revision)) == 0)
		return false;
	/* the producer answers the artifact URL of a collected revision with 404 (artifact.Fetcher) */
	swr_set_err(err, SSC_ERR, "fetch artifact: unexpected status 404");
	return true;
}
