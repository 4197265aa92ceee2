/*
 * The writes of the simulated API server and the rules they keep: create,
 * update (main resource and status), merge patches of status and metadata,
 * one label or annotation, delete; resourceVersion, generation and
 * finalizers as sim/cluster/apiserver.h states them, a write that changes
 * nothing as a no-op, and the list-map keys the CRDs require.  Each real
 * change makes a new version, is logged for its kind, recorded on the
 * timeline and emitted to the watchers.
 */
#include "sim/cluster/apiserver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/admission.h"
#include "sim/cluster/api_int.h"

static bool map_or_null(const struct val *v)
{
	return !v || v->type == VAL_MAP;
}

static int64_t trunc_seconds(int64_t ms)
{
	return ms - ((ms % 1000) + 1000) % 1000;
}

/* Replaces @e's version by @s (its reference moves to the entry) and reports MODIFIED. */
static void commit_modified(struct api *a, struct kindtab *k, struct entry *e, struct api_snap *s,
			    enum tl_change change, const char *detail)
{
	struct api_snap *old = e->cur;

	e->cur = s;
	kind_log_append(k, e, s->o->resource_version);
	change_record(a, k, e, s->o, change, detail);
	event_emit(a, API_MODIFIED, old, s);
	api_snap_release(old);
}

/* Removes @e from the store; @final (reference moved here) is the last state reported. */
static void commit_deleted(struct api *a, struct kindtab *k, struct entry *e,
			   struct api_snap *final)
{
	entry_unlink(k, e);
	kind_log_reset(k, final->o->resource_version);
	api_snap_release(e->cur);
	e->cur = NULL; /* freed by the next tidy_order() */
	change_record(a, k, e, final->o, TL_DELETED, NULL);
	event_emit(a, API_DELETED, NULL, final);
	api_snap_release(final);
}

/* A new version of @e with only metadata changed (shares all three subtrees). */
static struct api_snap *snap_from_meta(const struct entry *e, struct obj *o)
{
	return snap_make(o, shval_retain(e->cur->spec), shval_retain(e->cur->status),
			 shval_retain(e->cur->rest));
}

/*
 * The uid of the @n-th object created: "00000000-0000-4000-8000-" and @n in
 * lower-case hex, at least 12 digits (what "%012llx" gives, without
 * vsnprintf(): one object per StageSet of a fleet).  Returns a new string.
 */
static char *uid_text(uint64_t n)
{
	static const char prefix[] = "00000000-0000-4000-8000-";
	char digits[16], *s;
	size_t nd = 0, len = sizeof(prefix) - 1;

	do {
		digits[nd++] = "0123456789abcdef"[n & 15];
		n >>= 4;
	} while (n);
	while (nd < 12)
		digits[nd++] = '0';
	s = xmalloc(len + nd + 1);
	memcpy(s, prefix, len);
	while (nd)
		s[len++] = digits[--nd];
	s[len] = '\0';
	return s;
}

/* api_create(); @shared: @o's spec/status/rest are borrowed (api_create_shared()). */
static int create(struct api *a, struct obj *o, bool shared)
{
	struct kindtab *k;
	struct entry *e;

	if (!o->kind[0] || !o->name[0] || !map_or_null(o->spec) || !map_or_null(o->status) ||
	    !map_or_null(o->rest)) {
		if (shared)
			meta_free(o);
		else
			obj_free(o);
		return API_EINVALID;
	}
	k = kind_get(a, o->kind);
	if (entry_find(k, o->ns, o->name)) {
		if (shared)
			meta_free(o);
		else
			obj_free(o);
		return API_EALREADYEXISTS;
	}
	/* A snapshot (kubectl get -o yaml) keeps its uid, generation and deletion time. */
	++a->uids;
	if (!o->uid || !o->uid[0]) {
		free(o->uid);
		o->uid = uid_text(a->uids);
	}
	if (o->generation < 1)
		o->generation = 1;
	o->resource_version = ++a->rv;
	/* a snapshot's object keeps the creationTimestamp it had (before now) */
	if (!(o->src.creation_given && o->creation_ms <= a->now))
		o->creation_ms = trunc_seconds(a->now);
	if (o->deletion_ms >= 0 && o->nfinalizers == 0)
		o->deletion_ms = -1; /* nothing holds it: the registry would have removed it */
	else if (o->deletion_ms >= 0)
		o->deletion_ms = trunc_seconds(a->now);

	e = entry_new(o->ns, o->name);
	if (shared)
		e->cur = snap_make(o, shval_borrow(o->spec), shval_borrow(o->status),
				   shval_borrow(o->rest));
	else
		e->cur = snap_make(o, shval_new(o->spec), shval_new(o->status), shval_new(o->rest));
	entry_link(a, k, e);
	kind_log_reset(k, o->resource_version);

	change_record(a, k, e, o, TL_CREATED, NULL);
	event_emit(a, API_ADDED, NULL, e->cur);
	return 0;
}

int api_create(struct api *a, struct obj *o)
{
	return create(a, o, false);
}

int api_create_shared(struct api *a, const struct obj *src)
{
	struct obj meta = *src;
	struct obj *o;

	meta.spec = meta.status = meta.rest = NULL;
	o = obj_copy(&meta); /* the metadata, as obj_copy(src) copies it */
	o->spec = src->spec;
	o->status = src->status;
	o->rest = src->rest;
	return create(a, o, true);
}

/* After a metadata change of a deleting object: gone when no finalizer is left. */
static void commit_meta(struct api *a, struct kindtab *k, struct entry *e, struct api_snap *s,
			const char *detail)
{
	if (s->o->deletion_ms >= 0 && s->o->nfinalizers == 0)
		commit_deleted(a, k, e, s);
	else
		commit_modified(a, k, e, s, TL_UPDATED, detail);
}

/*
 * The CRD rule the API server checks on every write and a controller can
 * break: unique list-map keys (sim/cluster/admission.h adm_write_refusal()).  A
 * refused write leaves a warning notice with the API server's message, once
 * per object and message (a controller retrying with back-off repeats it).
 * @part: "spec" or "status"; @v its new value (borrowed).
 * Returns: 0 when accepted; API_EINVALID.
 */
static int refuse_duplicate_keys(struct api *a, const char *kind, const char *ns,
				 const char *name, const char *part, const struct val *v)
{
	char *why = adm_write_refusal(kind, name, part, v);
	char *text;
	struct tl_objref ref = { kind, ns ? ns : "", name, 0 };
	bool seen = false;

	if (!why)
		return 0;
	text = xasprintf("%s write refused by the API server: %s",
			 part, why);
	for (size_t i = a->tl ? tl_notice_count(a->tl) : 0; i-- > 0 && !seen;) {
		struct tl_notice n;

		tl_notice_get(a->tl, i, &n);
		seen = strcmp(n.text, text) == 0;
	}
	if (a->tl && !seen)
		tl_notice_add(a->tl, a->now, TL_WARNING, text, &ref, 1);
	free(text);
	free(why);
	return API_EINVALID;
}

int api_update(struct api *a, struct obj *o)
{
	struct kindtab *k = find_kind(a, o->kind);
	struct entry *e = entry_find(k, o->ns, o->name);
	const struct obj *c;
	struct shval *spec, *rest;
	bool spec_same, rest_same;
	struct sbuf b = { .n = 0 };
	int err = 0;

	if (!e) {
		err = API_ENOTFOUND;
		goto out_free_obj;
	}
	c = e->cur->o;
	if (o->resource_version && o->resource_version != c->resource_version) {
		err = API_ECONFLICT;
		goto out_free_obj;
	}
	if (!map_or_null(o->spec) || !map_or_null(o->rest)) {
		err = API_EINVALID;
		goto out_free_obj;
	}
	/* no new finalizers on an object being deleted (the API server forbids it) */
	if (c->deletion_ms >= 0) {
		for (size_t i = 0; i < o->nfinalizers; i++) {
			if (!meta_has_finalizer(c, o->finalizers[i])) {
				err = API_EINVALID;
				goto out_free_obj;
			}
		}
	}
	spec_same = val_equal(o->spec, c->spec);
	rest_same = val_equal(o->rest, c->rest);
	if (spec_same && rest_same && obj_strmap_equal(&o->labels, &c->labels) &&
	    obj_strmap_equal(&o->annotations, &c->annotations) && meta_finalizers_equal(o, c))
		goto out_free_obj; /* no-op */
	err = spec_same ? 0 : refuse_duplicate_keys(a, o->kind, o->ns, o->name, "spec", o->spec);
	if (err)
		goto out_free_obj;

	diff_meta(&b, c, o);
	if (!rest_same)
		diff_map_keys(&b, "fields", c->rest, o->rest);

	/* o becomes the new version: identity and server-owned fields from the current one */
	free(o->uid);
	o->uid = xstrdup(c->uid);
	free(o->api_version);
	o->api_version = xstrdup(c->api_version);
	o->creation_ms = c->creation_ms;
	o->deletion_ms = c->deletion_ms;
	o->generation = c->generation + (spec_same ? 0 : 1);
	o->resource_version = ++a->rv;
	val_free(o->status);
	o->status = NULL;
	if (spec_same) {
		val_free(o->spec);
		spec = shval_retain(e->cur->spec);
	} else {
		spec = shval_new(o->spec);
		if (b.n)
			sb_put(&b, "; ");
		char gen[48];

		snprintf(gen, sizeof(gen), "spec (generation %lld)", (long long)o->generation);
		sb_put(&b, gen);
	}
	if (rest_same) {
		val_free(o->rest);
		rest = shval_retain(e->cur->rest);
	} else {
		rest = shval_new(o->rest);
	}
	commit_meta(a, k, e, snap_make(o, spec, shval_retain(e->cur->status), rest), b.s);
	return 0;

out_free_obj:
	obj_free(o);
	return err;
}

int api_update_spec(struct api *a, const char *kind, const char *ns, const char *name,
		    struct val *spec)
{
	struct kindtab *k = find_kind(a, kind);
	struct entry *e = entry_find(k, ns ? ns : "", name);
	const struct obj *c;
	struct api_snap *s;
	struct sbuf b = { .n = 0 };
	char gen[48];
	int err = 0;

	if (!e) {
		err = API_ENOTFOUND;
		goto out_free_spec;
	}
	c = e->cur->o;
	if (!map_or_null(spec)) {
		err = API_EINVALID;
		goto out_free_spec;
	}
	if (val_equal(spec, c->spec))
		goto out_free_spec; /* no-op */
	err = refuse_duplicate_keys(a, c->kind, c->ns, c->name, "spec", spec);
	if (err)
		goto out_free_spec;
	/* as api_update(): metadata, status and rest unchanged, so the detail is the spec alone */
	s = snap_shallow(e->cur);
	shval_release(s->spec);
	s->spec = shval_new(spec);
	s->o->spec = spec;
	s->o->generation++;
	s->o->resource_version = ++a->rv;
	snprintf(gen, sizeof(gen), "spec (generation %lld)", (long long)s->o->generation);
	sb_put(&b, gen);
	commit_meta(a, k, e, s, b.s);
	return 0;

out_free_spec:
	val_free(spec);
	return err;
}

/* Stores @status (stolen; NULL allowed) as @e's new status unless equal to the current one. */
static void write_status(struct api *a, struct kindtab *k, struct entry *e, struct val *status)
{
	const struct obj *c = e->cur->o;
	struct api_snap *s;
	struct sbuf b = { .n = 0 };

	if (val_equal(status, c->status)) {
		val_free(status);
		return;
	}
	diff_map_keys(&b, "status", c->status, status);
	s = snap_shallow(e->cur);
	shval_release(s->status);
	s->status = shval_new(status);
	s->o->status = status;
	s->o->resource_version = ++a->rv;
	commit_modified(a, k, e, s, TL_STATUS, b.s);
}

int api_update_status(struct api *a, struct obj *o)
{
	struct kindtab *k = find_kind(a, o->kind);
	struct entry *e = entry_find(k, o->ns, o->name);
	struct val *status;
	int err = 0;

	if (!e) {
		err = API_ENOTFOUND;
		goto out_free_obj;
	}
	if (o->resource_version && o->resource_version != e->cur->o->resource_version) {
		err = API_ECONFLICT;
		goto out_free_obj;
	}
	if (!map_or_null(o->status)) {
		err = API_EINVALID;
		goto out_free_obj;
	}
	err = refuse_duplicate_keys(a, o->kind, o->ns, o->name, "status", o->status);
	if (err)
		goto out_free_obj;
	status = o->status;
	o->status = NULL;
	obj_free(o);
	write_status(a, k, e, status);
	return 0;

out_free_obj:
	obj_free(o);
	return err;
}

int api_patch_status(struct api *a, const char *kind, const char *ns, const char *name,
		     const struct val *patch)
{
	struct kindtab *k = find_kind(a, kind);
	struct entry *e = entry_find(k, ns ? ns : "", name);
	struct val *status;

	if (!e)
		return API_ENOTFOUND;
	status = merged_copy(e->cur->o->status, patch);
	if (status && status->type == VAL_NULL) {
		val_free(status);
		status = NULL;
	}
	if (!map_or_null(status) ||
	    refuse_duplicate_keys(a, kind, ns, name, "status", status) != 0) {
		val_free(status);
		return API_EINVALID;
	}
	write_status(a, k, e, status);
	return 0;
}

static void commit_meta_clone(struct api *a, struct kindtab *k, struct entry *e, struct obj *n)
{
	const struct obj *c = e->cur->o;
	struct sbuf b = { .n = 0 };

	if (obj_strmap_equal(&n->labels, &c->labels) &&
	    obj_strmap_equal(&n->annotations, &c->annotations) && meta_finalizers_equal(n, c)) {
		meta_free(n);
		return;
	}
	diff_meta(&b, c, n);
	n->resource_version = ++a->rv;
	commit_meta(a, k, e, snap_from_meta(e, n), b.s);
}

int api_patch_meta(struct api *a, const char *kind, const char *ns, const char *name,
		   const struct val *patch)
{
	struct kindtab *k = find_kind(a, kind);
	struct entry *e = entry_find(k, ns ? ns : "", name);
	const struct val *p;
	struct obj *n;

	if (!e)
		return API_ENOTFOUND;
	if (!patch || patch->type != VAL_MAP)
		return API_EINVALID;
	for (size_t i = 0; i < patch->u.map.n; i++) {
		const char *key = patch->u.map.items[i].key;

		if (strcmp(key, "labels") != 0 && strcmp(key, "annotations") != 0 &&
		    strcmp(key, "finalizers") != 0)
			return API_EINVALID;
	}
	n = meta_clone(e->cur->o);
	if (((p = val_map_get(patch, "labels")) && !patch_strmap(&n->labels, p)) ||
	    ((p = val_map_get(patch, "annotations")) && !patch_strmap(&n->annotations, p)) ||
	    ((p = val_map_get(patch, "finalizers")) && !patch_finalizers(n, p)))
		goto out_invalid;
	if (n->deletion_ms >= 0) {
		for (size_t i = 0; i < n->nfinalizers; i++) {
			if (!meta_has_finalizer(e->cur->o, n->finalizers[i]))
				goto out_invalid;
		}
	}
	commit_meta_clone(a, k, e, n);
	return 0;

out_invalid:
	meta_free(n);
	return API_EINVALID;
}

static int set_one(struct api *a, const char *kind, const char *ns, const char *name,
		   bool annotation, const char *key, const char *value)
{
	struct kindtab *k = find_kind(a, kind);
	struct entry *e = entry_find(k, ns ? ns : "", name);
	const struct obj *c;
	const char *have;
	struct obj *n;

	if (!e)
		return API_ENOTFOUND;
	c = e->cur->o;
	have = obj_strmap_get(annotation ? &c->annotations : &c->labels, key);
	if (value ? have && strcmp(have, value) == 0 : !have)
		return 0; /* no-op: skip the clone */
	n = meta_clone(c);
	if (value)
		obj_strmap_set(annotation ? &n->annotations : &n->labels, key, value);
	else
		obj_strmap_del(annotation ? &n->annotations : &n->labels, key);
	commit_meta_clone(a, k, e, n);
	return 0;
}

int api_set_annotation(struct api *a, const char *kind, const char *ns, const char *name,
		       const char *key, const char *value)
{
	return set_one(a, kind, ns, name, true, key, value);
}

int api_set_label(struct api *a, const char *kind, const char *ns, const char *name,
		  const char *key, const char *value)
{
	return set_one(a, kind, ns, name, false, key, value);
}

int api_delete(struct api *a, const char *kind, const char *ns, const char *name)
{
	struct kindtab *k = find_kind(a, kind);
	struct entry *e = entry_find(k, ns ? ns : "", name);
	struct api_snap *s;

	if (!e)
		return API_ENOTFOUND;
	if (e->cur->o->deletion_ms >= 0)
		return 0; /* already being deleted */
	s = snap_shallow(e->cur);
	s->o->resource_version = ++a->rv;
	if (s->o->nfinalizers == 0) {
		commit_deleted(a, k, e, s);
		return 0;
	}
	s->o->deletion_ms = trunc_seconds(a->now);
	/* The registry bumps generation when it first sets deletionTimestamp
	 * (apiserver registry/rest BeforeDelete): controllers that compare
	 * observedGeneration see the deletion as a change of intent. */
	s->o->generation++;
	commit_modified(a, k, e, s, TL_DELETING, "deletionTimestamp set");
	return 0;
}
