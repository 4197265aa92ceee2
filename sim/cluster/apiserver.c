#include "sim/cluster/apiserver.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/admission.h"

/*
 * Storage layout.  Per kind: a chained hash table (namespace, name) → entry
 * for lookups, and an array of the same entries kept in list order.  The
 * array is sorted lazily: creations append and deletions only mark the entry
 * dead, and the next api_list() compacts and sorts (loading 10^5 objects in
 * any order then costs one sort, not 10^5 insertions).
 *
 * Versions.  An entry points at its current snapshot.  A snapshot owns a
 * `struct obj` whose metadata strings are its own and whose spec, status and
 * rest point into reference-counted holders (struct shval) that consecutive
 * versions share: a status write copies the metadata (a few small strings)
 * and shares spec; a spec write shares status.  Before a snapshot's object is
 * handed to obj_free() its three shared pointers are cleared, so obj_free()
 * frees only what the snapshot owns.
 */

struct shval {
	uint32_t refs;
	bool borrowed; /* @v belongs to the caller of api_create_shared(): never freed here */
	struct val *v; /* never NULL: a NULL subtree has no holder */
};

struct api_snap {
	uint32_t refs;    /* references to this version: the entry, events, callers */
	uint32_t borrows; /* shallow versions borrowing this one's metadata */
	struct obj *o;
	struct shval *spec, *status, *rest;
	/*
	 * Non-NULL: @o is a shallow copy of meta->o's struct (all metadata
	 * pointers borrowed from it, only scalars such as resource_version and
	 * deletion_ms its own), so releasing frees the struct alone.  meta never
	 * borrows itself (chains are one deep).  When refs drops to 0 the
	 * version releases its spec/status/rest at once; the metadata (obj
	 * strings) and the struct go when borrows drops to 0 too.
	 */
	struct api_snap *meta;
};

struct entry {
	struct entry *next;   /* hash chain */
	struct api_snap *cur; /* NULL once dead */
	const char *ns, *name; /* the key, in key[] (lookups touch no snapshot) */
	uint32_t hash;
	size_t pos; /* index in kindtab.order, set when the order is tidied */
	tl_str tns, tname;
	char key[]; /* "ns\0name\0" */
};

struct watcher {
	api_watch_fn fn;
	void *ctx;
};

struct kindtab {
	char *kind;
	tl_str tkind;
	bool ready_from_condition; /* StageSet, FleetRollout: reason/message from the Ready condition */
	struct entry **buckets;
	size_t nbuckets, n; /* n live entries */
	struct entry **order;
	size_t norder, caporder;
	size_t nsorted; /* order[0, nsorted) is sorted (dead entries included); the rest appended */
	bool dirty;     /* order needs compaction and sorting */
	struct watcher *w;
	size_t nw, capw;
	/*
	 * The change log (api_changes_since()): every modification of an entry
	 * with resourceVersion > log_from, in order.  A creation or deletion
	 * bumps shape and empties the log (positions move), so no logged entry
	 * is ever dead; a log grown past LOG_KEEP_MIN and 4 entries per object
	 * is emptied too (readers then list the kind again).
	 */
	uint64_t shape;
	struct entry **log;
	uint64_t *logrv;
	size_t nlog, caplog;
	uint64_t log_from;
};

#define LOG_KEEP_MIN 4096

struct api {
	struct tl *tl;
	int64_t now;
	api_cause_fn cause_fn;
	void *cause_ctx;
	api_sink_fn sink;
	void *sink_ctx;
	struct kindtab **kinds;
	size_t nkinds;
	uint64_t rv;
	uint64_t uids;
};

/* ---- shared values and snapshots ---- */

static struct shval *shval_new(struct val *v)
{
	struct shval *s;

	if (!v)
		return NULL;
	s = xmalloc(sizeof(*s));
	s->refs = 1;
	s->borrowed = false;
	s->v = v;
	return s;
}

/* A holder of a tree the store must not free (api_create_shared()); NULL for NULL. */
static struct shval *shval_borrow(const struct val *v)
{
	struct shval *s = shval_new((struct val *)v); /* never written through: see the header */

	if (s)
		s->borrowed = true;
	return s;
}

static struct shval *shval_retain(struct shval *s)
{
	if (s)
		s->refs++;
	return s;
}

static void shval_release(struct shval *s)
{
	if (s && --s->refs == 0) {
		if (!s->borrowed)
			val_free(s->v);
		free(s);
	}
}

/* A snapshot of @o, whose spec/status/rest must equal the holders' values (holders retained by the caller). */
static struct api_snap *snap_make(struct obj *o, struct shval *spec, struct shval *status,
				  struct shval *rest)
{
	struct api_snap *s = xmalloc(sizeof(*s));

	s->refs = 1;
	s->borrows = 0;
	s->o = o;
	s->meta = NULL;
	s->spec = spec;
	s->status = status;
	s->rest = rest;
	o->spec = spec ? spec->v : NULL;
	o->status = status ? status->v : NULL;
	o->rest = rest ? rest->v : NULL;
	return s;
}

/* Frees an object whose spec/status/rest are borrowed from holders. */
static void obj_free_meta(struct obj *o)
{
	if (!o)
		return;
	o->spec = o->status = o->rest = NULL;
	obj_free(o);
}

const struct obj *api_snap_obj(const struct api_snap *s)
{
	return s->o;
}

struct api_snap *api_snap_retain(struct api_snap *s)
{
	s->refs++;
	return s;
}

/* Frees what is left of a version nobody references or borrows from. */
static void snap_destroy(struct api_snap *s)
{
	struct api_snap *owner = s->meta;

	if (owner)
		free(s->o); /* the struct only: every pointer in it is borrowed */
	else
		obj_free_meta(s->o);
	free(s);
	if (owner && --owner->borrows == 0 && owner->refs == 0)
		snap_destroy(owner);
}

void api_snap_release(struct api_snap *s)
{
	if (!s || --s->refs > 0)
		return;
	shval_release(s->spec);
	shval_release(s->status);
	shval_release(s->rest);
	s->spec = s->status = s->rest = NULL;
	if (s->borrows == 0)
		snap_destroy(s);
}

/*
 * A new version of @cur with the same metadata, sharing everything: the
 * object struct is copied (scalars are the new version's own, to be changed by
 * the caller), its strings and maps borrowed from the version that owns them.
 * Costs two allocations, whatever the object's size.
 */
static struct api_snap *snap_shallow(struct api_snap *cur)
{
	struct api_snap *owner = cur->meta ? cur->meta : cur;
	struct obj *o = xmalloc(sizeof(*o));
	struct api_snap *s;

	*o = *cur->o;
	s = snap_make(o, shval_retain(cur->spec), shval_retain(cur->status),
		      shval_retain(cur->rest));
	s->meta = owner;
	owner->borrows++;
	return s;
}

static char **copy_finalizers(char *const *f, size_t n)
{
	char **r = n ? xcalloc(n, sizeof(*r)) : NULL;

	for (size_t i = 0; i < n; i++)
		r[i] = xstrdup(f[i]);
	return r;
}

/* A copy of @c's metadata; spec/status/rest point at @c's (borrowed until snap_make). */
static struct obj *clone_meta(const struct obj *c)
{
	struct obj *o = obj_new(c->api_version, c->kind, c->ns, c->name);

	free(o->uid);
	o->uid = xstrdup(c->uid);
	obj_strmap_copy(&o->labels, &c->labels);
	obj_strmap_copy(&o->annotations, &c->annotations);
	o->finalizers = copy_finalizers(c->finalizers, c->nfinalizers);
	o->nfinalizers = c->nfinalizers;
	o->generation = c->generation;
	o->resource_version = c->resource_version;
	o->creation_ms = c->creation_ms;
	o->deletion_ms = c->deletion_ms;
	o->spec = c->spec;
	o->status = c->status;
	o->rest = c->rest;
	o->src = c->src;
	return o;
}

/* ---- kinds and entries ---- */

static uint32_t hash_key(const char *ns, const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)ns; *p; p++)
		h = (h ^ *p) * 16777619u;
	h = (h ^ '/') * 16777619u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static struct kindtab *find_kind(const struct api *a, const char *kind)
{
	for (size_t i = 0; i < a->nkinds; i++) {
		if (strcmp(a->kinds[i]->kind, kind) == 0)
			return a->kinds[i];
	}
	return NULL;
}

static struct kindtab *get_kind(struct api *a, const char *kind)
{
	struct kindtab *k = find_kind(a, kind);

	if (k)
		return k;
	k = xcalloc(1, sizeof(*k));
	k->kind = xstrdup(kind);
	k->tkind = a->tl ? tl_intern(a->tl, kind) : 0;
	k->ready_from_condition = strcmp(kind, "StageSet") == 0 || strcmp(kind, "FleetRollout") == 0;
	k->nbuckets = 64;
	k->buckets = xcalloc(k->nbuckets, sizeof(*k->buckets));
	a->kinds = xreallocarray(a->kinds, a->nkinds + 1, sizeof(*a->kinds));
	a->kinds[a->nkinds++] = k;
	return k;
}

static struct entry *find_entry(const struct kindtab *k, const char *ns, const char *name)
{
	uint32_t h;

	if (!k)
		return NULL;
	h = hash_key(ns, name);
	for (struct entry *e = k->buckets[h & (k->nbuckets - 1)]; e; e = e->next) {
		if (e->hash == h && strcmp(e->name, name) == 0 && strcmp(e->ns, ns) == 0)
			return e;
	}
	return NULL;
}

static void grow_buckets(struct kindtab *k)
{
	size_t nb = k->nbuckets * 2;
	struct entry **b = xcalloc(nb, sizeof(*b));

	for (size_t i = 0; i < k->nbuckets; i++) {
		struct entry *e = k->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (nb - 1)];
			b[e->hash & (nb - 1)] = e;
		}
	}
	free(k->buckets);
	k->buckets = b;
	k->nbuckets = nb;
}

static void unlink_entry(struct kindtab *k, struct entry *e)
{
	struct entry **pp = &k->buckets[e->hash & (k->nbuckets - 1)];

	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	e->next = NULL;
	k->n--;
	k->dirty = true;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *x = *(struct entry *const *)pa;
	const struct entry *y = *(struct entry *const *)pb;
	int c = strcmp(x->ns, y->ns);

	return c ? c : strcmp(x->name, y->name);
}

/*
 * Restores (namespace, name) order: drops deleted entries, sorts only what
 * was appended since the last time and merges it in — a store that keeps
 * creating Jobs would otherwise re-sort every object of the kind per list.
 */
static void tidy_order(struct kindtab *k)
{
	size_t j = 0, sorted = 0, ntail;
	struct entry **tail;

	if (!k->dirty)
		return;
	for (size_t i = 0; i < k->norder; i++) {
		if (k->order[i]->cur) {
			if (i < k->nsorted)
				sorted++;
			k->order[j++] = k->order[i];
		} else {
			free(k->order[i]);
		}
	}
	k->norder = j;
	ntail = k->norder - sorted;
	if (ntail) {
		size_t a = 0, b = 0, out = 0;

		qsort(k->order + sorted, ntail, sizeof(*k->order), cmp_entry);
		tail = xmalloc(ntail * sizeof(*tail));
		memcpy(tail, k->order + sorted, ntail * sizeof(*tail));
		/* Merge from the back so the sorted prefix is never overwritten unread. */
		a = sorted;
		b = ntail;
		out = k->norder;
		while (b > 0) {
			if (a > 0 && cmp_entry(&k->order[a - 1], &tail[b - 1]) > 0)
				k->order[--out] = k->order[--a];
			else
				k->order[--out] = tail[--b];
		}
		free(tail);
	}
	k->nsorted = k->norder;
	k->dirty = false;
	for (size_t i = 0; i < k->norder; i++)
		k->order[i]->pos = i;
}

/* A creation or deletion: positions move, the log starts again after @rv. */
static void log_reset(struct kindtab *k, uint64_t rv)
{
	k->shape++;
	k->nlog = 0;
	k->log_from = rv;
}

static void log_append(struct kindtab *k, struct entry *e, uint64_t rv)
{
	if (k->nlog >= LOG_KEEP_MIN && k->nlog / 4 >= k->n) {
		k->nlog = 0; /* readers this far behind list again: O(1) per write amortised */
		k->log_from = rv - 1;
	}
	if (k->nlog == k->caplog) {
		k->caplog = k->caplog ? k->caplog * 2 : 64;
		k->log = xreallocarray(k->log, k->caplog, sizeof(*k->log));
		k->logrv = xreallocarray(k->logrv, k->caplog, sizeof(*k->logrv));
	}
	k->log[k->nlog] = e;
	k->logrv[k->nlog++] = rv;
}

/* ---- store life ---- */

struct api *api_new(struct tl *tl)
{
	struct api *a = xcalloc(1, sizeof(*a));

	a->tl = tl;
	return a;
}

void api_free(struct api *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nkinds; i++) {
		struct kindtab *k = a->kinds[i];

		for (size_t j = 0; j < k->norder; j++) {
			api_snap_release(k->order[j]->cur);
			free(k->order[j]);
		}
		free(k->order);
		free(k->log);
		free(k->logrv);
		free(k->buckets);
		free(k->w);
		free(k->kind);
		free(k);
	}
	free(a->kinds);
	free(a);
}

void api_set_now(struct api *a, int64_t now_ms)
{
	assert(now_ms >= a->now);
	a->now = now_ms;
}

int64_t api_now(const struct api *a)
{
	return a->now;
}

void api_set_cause(struct api *a, api_cause_fn fn, void *ctx)
{
	a->cause_fn = fn;
	a->cause_ctx = ctx;
}

void api_set_sink(struct api *a, api_sink_fn fn, void *ctx)
{
	a->sink = fn;
	a->sink_ctx = ctx;
}

void api_watch(struct api *a, const char *kind, api_watch_fn fn, void *ctx)
{
	struct kindtab *k = get_kind(a, kind);

	if (k->nw == k->capw) {
		k->capw = k->capw ? k->capw * 2 : 4;
		k->w = xreallocarray(k->w, k->capw, sizeof(*k->w));
	}
	k->w[k->nw].fn = fn;
	k->w[k->nw].ctx = ctx;
	k->nw++;
}

void api_dispatch(struct api *a, const struct api_event *ev)
{
	const struct obj *o = ev->new ? ev->new->o : ev->old->o;
	struct kindtab *k = find_kind(a, o->kind);
	const struct obj *old = ev->old ? ev->old->o : NULL;
	const struct obj *new = ev->new ? ev->new->o : NULL;

	if (!k)
		return;
	/* k->w may grow while a watcher runs (a watch registered from a callback): index, not pointer */
	for (size_t i = 0; i < k->nw; i++)
		k->w[i].fn(k->w[i].ctx, ev->type, old, new);
}

static void emit(struct api *a, enum api_event_type type, struct api_snap *old,
		 struct api_snap *new)
{
	struct api_event ev = { type, old, new };

	if (old)
		api_snap_retain(old);
	if (new)
		api_snap_retain(new);
	if (a->sink) {
		a->sink(a->sink_ctx, &ev);
		return;
	}
	api_dispatch(a, &ev);
	api_snap_release(old);
	api_snap_release(new);
}

/* ---- timeline details ---- */

#define DETAIL_MAX 240

/* A bounded text buffer: appends past DETAIL_MAX are cut and marked with "...". */
struct sbuf {
	char s[DETAIL_MAX + 4];
	size_t n;
	bool cut;
};

static void sb_put(struct sbuf *b, const char *s)
{
	size_t len = strlen(s);

	if (b->cut)
		return;
	if (b->n + len > DETAIL_MAX) {
		len = DETAIL_MAX - b->n;
		b->cut = true;
	}
	memcpy(b->s + b->n, s, len);
	b->n += len;
	if (b->cut) {
		memcpy(b->s + b->n, "...", 3);
		b->n += 3;
	}
	b->s[b->n] = '\0';
}

/* Starts a "section: " or appends ", " within the current one. */
static void sb_item(struct sbuf *b, const char *section, bool *opened)
{
	if (!*opened) {
		if (b->n)
			sb_put(b, "; ");
		sb_put(b, section);
		sb_put(b, ": ");
		*opened = true;
	} else {
		sb_put(b, ", ");
	}
}

static void diff_strmap(struct sbuf *b, const char *section, const struct obj_strmap *x,
			const struct obj_strmap *y)
{
	size_t i = 0, j = 0;
	bool opened = false;

	while (i < x->n || j < y->n) {
		int c = i == x->n ? 1 : j == y->n ? -1 : strcmp(x->items[i].key, y->items[j].key);

		if (c < 0) {
			sb_item(b, section, &opened);
			sb_put(b, "-");
			sb_put(b, x->items[i++].key);
		} else if (c > 0) {
			sb_item(b, section, &opened);
			sb_put(b, "+");
			sb_put(b, y->items[j].key);
			sb_put(b, "=");
			sb_put(b, y->items[j++].value);
		} else {
			if (strcmp(x->items[i].value, y->items[j].value) != 0) {
				sb_item(b, section, &opened);
				sb_put(b, x->items[i].key);
				sb_put(b, "=");
				sb_put(b, x->items[i].value);
				sb_put(b, "\xe2\x86\x92"); /* → */
				sb_put(b, y->items[j].value);
			}
			i++;
			j++;
		}
	}
}

static bool has_string(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v[i], s) == 0)
			return true;
	}
	return false;
}

static bool finalizers_equal(const struct obj *x, const struct obj *y)
{
	if (x->nfinalizers != y->nfinalizers)
		return false;
	for (size_t i = 0; i < x->nfinalizers; i++) {
		if (strcmp(x->finalizers[i], y->finalizers[i]) != 0)
			return false;
	}
	return true;
}

static void diff_finalizers(struct sbuf *b, const struct obj *x, const struct obj *y)
{
	bool opened = false;

	for (size_t i = 0; i < x->nfinalizers; i++) {
		if (!has_string(y->finalizers, y->nfinalizers, x->finalizers[i])) {
			sb_item(b, "finalizers", &opened);
			sb_put(b, "-");
			sb_put(b, x->finalizers[i]);
		}
	}
	for (size_t i = 0; i < y->nfinalizers; i++) {
		if (!has_string(x->finalizers, x->nfinalizers, y->finalizers[i])) {
			sb_item(b, "finalizers", &opened);
			sb_put(b, "+");
			sb_put(b, y->finalizers[i]);
		}
	}
	if (!opened && !finalizers_equal(x, y)) {
		sb_item(b, "finalizers", &opened);
		sb_put(b, "reordered");
	}
}

/* Top-level keys of two maps (either may be NULL) that differ; "phase A→B" for phase. */
static void diff_map_keys(struct sbuf *b, const char *section, const struct val *x,
			  const struct val *y)
{
	bool opened = false;
	size_t nx = x && x->type == VAL_MAP ? x->u.map.n : 0;
	size_t ny = y && y->type == VAL_MAP ? y->u.map.n : 0;

	for (size_t i = 0; i < ny; i++) {
		const struct val_kv *kv = &y->u.map.items[i];
		const struct val *old = val_map_get(x, kv->key);

		if (old && val_equal(old, kv->v))
			continue;
		sb_item(b, section, &opened);
		sb_put(b, kv->key);
		if (strcmp(kv->key, "phase") == 0 && kv->v->type == VAL_STRING) {
			sb_put(b, " ");
			sb_put(b, val_str(old, ""));
			sb_put(b, "\xe2\x86\x92");
			sb_put(b, kv->v->u.s);
		}
	}
	for (size_t i = 0; i < nx; i++) {
		if (!val_map_get(y, x->u.map.items[i].key)) {
			sb_item(b, section, &opened);
			sb_put(b, "-");
			sb_put(b, x->u.map.items[i].key);
		}
	}
}

static void record(struct api *a, const struct kindtab *k, const struct entry *e,
		   const struct obj *o, enum tl_change change, const char *detail)
{
	struct tl_rec r;
	const struct val *src = o->status;

	if (!a->tl)
		return;
	memset(&r, 0, sizeof(r));
	r.t_ms = a->now;
	r.resource_version = o->resource_version;
	r.generation = o->generation < 0 ? 0
		       : o->generation > (int64_t)UINT32_MAX ? UINT32_MAX
							      : (uint32_t)o->generation;
	r.kind = k->tkind;
	r.ns = e->tns;
	r.name = e->tname;
	r.change = (uint8_t)change;
	r.detail = detail && *detail ? tl_intern(a->tl, detail) : 0;
	r.phase = tl_intern(a->tl, val_str(val_map_get(o->status, "phase"), NULL));
	if (k->ready_from_condition)
		src = obj_ready_condition(o);
	r.reason = tl_intern(a->tl, val_str(val_map_get(src, "reason"), NULL));
	r.message = tl_intern(a->tl, val_str(val_map_get(src, "message"), NULL));
	r.cause = a->cause_fn ? a->cause_fn(a->cause_ctx) : 0;
	tl_append_rec(a->tl, &r);
}

/* ---- writes ---- */

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
	log_append(k, e, s->o->resource_version);
	record(a, k, e, s->o, change, detail);
	emit(a, API_MODIFIED, old, s);
	api_snap_release(old);
}

/* Removes @e from the store; @final (reference moved here) is the last state reported. */
static void commit_deleted(struct api *a, struct kindtab *k, struct entry *e,
			   struct api_snap *final)
{
	unlink_entry(k, e);
	log_reset(k, final->o->resource_version);
	api_snap_release(e->cur);
	e->cur = NULL; /* freed by the next tidy_order() */
	record(a, k, e, final->o, TL_DELETED, NULL);
	emit(a, API_DELETED, NULL, final);
	api_snap_release(final);
}

/* A new version of @e with only metadata changed (shares all three subtrees). */
static struct api_snap *snap_from_meta(const struct entry *e, struct obj *o)
{
	return snap_make(o, shval_retain(e->cur->spec), shval_retain(e->cur->status),
			 shval_retain(e->cur->rest));
}

/* api_create(); @shared: @o's spec/status/rest are borrowed (api_create_shared()). */
static int create(struct api *a, struct obj *o, bool shared)
{
	struct kindtab *k;
	struct entry *e;
	size_t nslen, namelen;

	if (!o->kind[0] || !o->name[0] || !map_or_null(o->spec) || !map_or_null(o->status) ||
	    !map_or_null(o->rest)) {
		if (shared)
			obj_free_meta(o);
		else
			obj_free(o);
		return API_EINVALID;
	}
	k = get_kind(a, o->kind);
	if (find_entry(k, o->ns, o->name)) {
		if (shared)
			obj_free_meta(o);
		else
			obj_free(o);
		return API_EALREADYEXISTS;
	}
	/* A snapshot (kubectl get -o yaml) keeps its uid, generation and deletion time. */
	++a->uids;
	if (!o->uid || !o->uid[0]) {
		free(o->uid);
		o->uid = xasprintf("00000000-0000-4000-8000-%012llx", (unsigned long long)a->uids);
	}
	if (o->generation < 1)
		o->generation = 1;
	o->resource_version = ++a->rv;
	o->creation_ms = trunc_seconds(a->now);
	if (o->deletion_ms >= 0 && o->nfinalizers == 0)
		o->deletion_ms = -1; /* nothing holds it: the registry would have removed it */
	else if (o->deletion_ms >= 0)
		o->deletion_ms = trunc_seconds(a->now);

	nslen = strlen(o->ns);
	namelen = strlen(o->name);
	e = xcalloc(1, sizeof(*e) + nslen + namelen + 2);
	memcpy(e->key, o->ns, nslen + 1);
	memcpy(e->key + nslen + 1, o->name, namelen + 1);
	e->ns = e->key;
	e->name = e->key + nslen + 1;
	if (shared)
		e->cur = snap_make(o, shval_borrow(o->spec), shval_borrow(o->status),
				   shval_borrow(o->rest));
	else
		e->cur = snap_make(o, shval_new(o->spec), shval_new(o->status), shval_new(o->rest));
	e->hash = hash_key(o->ns, o->name);
	if (a->tl) {
		e->tns = tl_intern(a->tl, o->ns);
		e->tname = tl_intern(a->tl, o->name);
	}
	if (k->n + 1 > k->nbuckets)
		grow_buckets(k);
	e->next = k->buckets[e->hash & (k->nbuckets - 1)];
	k->buckets[e->hash & (k->nbuckets - 1)] = e;
	k->n++;
	if (k->norder == k->caporder) {
		k->caporder = k->caporder ? k->caporder * 2 : 64;
		k->order = xreallocarray(k->order, k->caporder, sizeof(*k->order));
	}
	k->order[k->norder++] = e;
	k->dirty = true;
	log_reset(k, o->resource_version);

	record(a, k, e, o, TL_CREATED, NULL);
	emit(a, API_ADDED, NULL, e->cur);
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

struct api_snap *api_get_snap(const struct api *a, const char *kind, const char *ns,
			      const char *name)
{
	struct entry *e = find_entry(find_kind(a, kind), ns ? ns : "", name);

	return e ? e->cur : NULL;
}

const struct obj *api_get(const struct api *a, const char *kind, const char *ns, const char *name)
{
	struct api_snap *s = api_get_snap(a, kind, ns, name);

	return s ? s->o : NULL;
}

/*
 * Entries are freed only by tidy_order() after a removal, and a removal (as
 * a creation) bumps the kind's shape: with the same shape, the remembered
 * entry is still the one the key maps to, and still allocated.
 */
const struct obj *api_get_ref(const struct api *a, const char *kind, const char *ns,
			      const char *name, struct api_ref *ref)
{
	const struct kindtab *k;
	const struct entry *e;

	if (ref->api == a && ref->kind &&
	    ((const struct kindtab *)ref->kind)->shape == ref->shape) {
		e = ref->entry;
		return e && e->cur ? e->cur->o : NULL;
	}
	k = find_kind(a, kind);
	e = find_entry(k, ns ? ns : "", name);
	ref->api = a;
	ref->kind = k;
	ref->entry = e;
	ref->shape = k ? k->shape : 0;
	return e && e->cur ? e->cur->o : NULL;
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
 * break: unique list-map keys (sim/admission.h adm_write_refusal()).  A
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
	struct entry *e = find_entry(k, o->ns, o->name);
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
			if (!has_string(c->finalizers, c->nfinalizers, o->finalizers[i])) {
				err = API_EINVALID;
				goto out_free_obj;
			}
		}
	}
	spec_same = val_equal(o->spec, c->spec);
	rest_same = val_equal(o->rest, c->rest);
	if (spec_same && rest_same && obj_strmap_equal(&o->labels, &c->labels) &&
	    obj_strmap_equal(&o->annotations, &c->annotations) && finalizers_equal(o, c))
		goto out_free_obj; /* no-op */
	err = spec_same ? 0 : refuse_duplicate_keys(a, o->kind, o->ns, o->name, "spec", o->spec);
	if (err)
		goto out_free_obj;

	diff_strmap(&b, "labels", &c->labels, &o->labels);
	diff_strmap(&b, "annotations", &c->annotations, &o->annotations);
	diff_finalizers(&b, c, o);
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
	struct entry *e = find_entry(k, o->ns, o->name);
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

/* Whether map @m holds a key twice (val_merge_patch() then applies them in turn). */
static bool dup_keys(const struct val *m)
{
	for (size_t i = 1; i < m->u.map.n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(m->u.map.items[i].key, m->u.map.items[j].key))
				return true;
	return false;
}

/* The index of @key's first entry in map @m, or @m's count when absent. */
static size_t first_key(const struct val *m, const char *key, size_t below)
{
	for (size_t j = 0; j < below; j++)
		if (!strcmp(m->u.map.items[j].key, key))
			return j;
	return below;
}

/*
 * merged_copy() - what val_copy(@old) followed by val_merge_patch(&copy,
 * @patch) gives, node for node (marks, raw texts and key order included),
 * without copying the parts the patch replaces nor comparing them: a member's
 * status write replaces most of its status, and the copy, the comparisons and
 * the frees of the replaced parts were most of the write's cost.
 * Returns a new tree.  Cannot fail (aborts on OOM).
 */
static struct val *merged_copy(const struct val *old, const struct val *patch)
{
	struct val *m;
	size_t n = 0;

	if (!patch || patch->type != VAL_MAP)
		return patch ? val_copy(patch) : val_new_null();
	if (dup_keys(patch)) {
		m = old && old->type == VAL_MAP ? val_copy(old) : NULL;
		val_merge_patch(&m, patch);
		return m;
	}
	m = val_new_map();
	if (!old || old->type != VAL_MAP)
		old = NULL;
	m->u.map.cap = (old ? old->u.map.n : 0) + patch->u.map.n;
	m->u.map.items = xcalloc(m->u.map.cap ? m->u.map.cap : 1, sizeof(struct val_kv));
	if (old) {
		m->mark = old->mark;
		m->raw = old->raw ? xstrdup(old->raw) : NULL;
	}
	/* The old keys in order: kept, merged with the patch's value, or deleted by its null. */
	for (size_t i = 0; old && i < old->u.map.n; i++) {
		const struct val_kv *okv = &old->u.map.items[i];
		const struct val *pv = val_map_get(patch, okv->key);
		struct val *v;

		if (pv && first_key(old, okv->key, i) != i)
			pv = NULL; /* a repeated key: the patch went to its first entry */
		if (pv && pv->type == VAL_NULL)
			continue;
		v = pv ? merged_copy(okv->v, pv) : val_copy(okv->v);
		m->u.map.items[n].key = xstrdup(okv->key);
		m->u.map.items[n].key_mark = okv->key_mark;
		m->u.map.items[n].v = v;
		n++;
	}
	/* Then the patch's new keys in its order (val_map_set() appends them). */
	for (size_t i = 0; i < patch->u.map.n; i++) {
		const struct val_kv *pkv = &patch->u.map.items[i];

		if (pkv->v->type == VAL_NULL || (old && val_map_get(old, pkv->key)))
			continue;
		m->u.map.items[n].key = xstrdup(pkv->key);
		m->u.map.items[n].key_mark = (struct val_mark){ 0, 0 };
		m->u.map.items[n].v = merged_copy(NULL, pkv->v);
		n++;
	}
	/* Sized as val_copy() sizes a map: this tree is kept as the stored status. */
	m->u.map.n = m->u.map.cap = n;
	if (n < (old ? old->u.map.n : 0) + patch->u.map.n)
		m->u.map.items = xreallocarray(m->u.map.items, n ? n : 1, sizeof(struct val_kv));
	return m;
}

int api_patch_status(struct api *a, const char *kind, const char *ns, const char *name,
		     const struct val *patch)
{
	struct kindtab *k = find_kind(a, kind);
	struct entry *e = find_entry(k, ns ? ns : "", name);
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

/* Applies a merge patch of a string map to @m; false when the patch has another shape. */
static bool patch_strmap(struct obj_strmap *m, const struct val *p)
{
	if (p->type == VAL_NULL) {
		obj_strmap_release(m);
		obj_strmap_init(m);
		return true;
	}
	if (p->type != VAL_MAP)
		return false;
	for (size_t i = 0; i < p->u.map.n; i++) {
		const struct val *v = p->u.map.items[i].v;

		if (v->type != VAL_NULL && v->type != VAL_STRING)
			return false;
	}
	for (size_t i = 0; i < p->u.map.n; i++) {
		const struct val_kv *kv = &p->u.map.items[i];

		if (kv->v->type == VAL_NULL)
			obj_strmap_del(m, kv->key);
		else
			obj_strmap_set(m, kv->key, kv->v->u.s);
	}
	return true;
}

static bool patch_finalizers(struct obj *o, const struct val *p)
{
	if (p->type != VAL_NULL && p->type != VAL_LIST)
		return false;
	if (p->type == VAL_LIST) {
		for (size_t i = 0; i < p->u.list.n; i++) {
			if (p->u.list.items[i]->type != VAL_STRING)
				return false;
		}
	}
	for (size_t i = 0; i < o->nfinalizers; i++)
		free(o->finalizers[i]);
	free(o->finalizers);
	o->finalizers = NULL;
	o->nfinalizers = 0;
	if (p->type == VAL_LIST && p->u.list.n) {
		o->finalizers = xcalloc(p->u.list.n, sizeof(*o->finalizers));
		for (size_t i = 0; i < p->u.list.n; i++)
			o->finalizers[o->nfinalizers++] = xstrdup(p->u.list.items[i]->u.s);
	}
	return true;
}

/* Commits metadata-only clone @n of @e's version (or discards it when nothing changed). */
static void commit_meta_clone(struct api *a, struct kindtab *k, struct entry *e, struct obj *n)
{
	const struct obj *c = e->cur->o;
	struct sbuf b = { .n = 0 };

	if (obj_strmap_equal(&n->labels, &c->labels) &&
	    obj_strmap_equal(&n->annotations, &c->annotations) && finalizers_equal(n, c)) {
		obj_free_meta(n);
		return;
	}
	diff_strmap(&b, "labels", &c->labels, &n->labels);
	diff_strmap(&b, "annotations", &c->annotations, &n->annotations);
	diff_finalizers(&b, c, n);
	n->resource_version = ++a->rv;
	commit_meta(a, k, e, snap_from_meta(e, n), b.s);
}

int api_patch_meta(struct api *a, const char *kind, const char *ns, const char *name,
		   const struct val *patch)
{
	struct kindtab *k = find_kind(a, kind);
	struct entry *e = find_entry(k, ns ? ns : "", name);
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
	n = clone_meta(e->cur->o);
	if (((p = val_map_get(patch, "labels")) && !patch_strmap(&n->labels, p)) ||
	    ((p = val_map_get(patch, "annotations")) && !patch_strmap(&n->annotations, p)) ||
	    ((p = val_map_get(patch, "finalizers")) && !patch_finalizers(n, p)))
		goto out_invalid;
	if (n->deletion_ms >= 0) {
		for (size_t i = 0; i < n->nfinalizers; i++) {
			if (!has_string(e->cur->o->finalizers, e->cur->o->nfinalizers,
					n->finalizers[i]))
				goto out_invalid;
		}
	}
	commit_meta_clone(a, k, e, n);
	return 0;

out_invalid:
	obj_free_meta(n);
	return API_EINVALID;
}

static int set_one(struct api *a, const char *kind, const char *ns, const char *name,
		   bool annotation, const char *key, const char *value)
{
	struct kindtab *k = find_kind(a, kind);
	struct entry *e = find_entry(k, ns ? ns : "", name);
	const struct obj *c;
	const char *have;
	struct obj *n;

	if (!e)
		return API_ENOTFOUND;
	c = e->cur->o;
	have = obj_strmap_get(annotation ? &c->annotations : &c->labels, key);
	if (value ? have && strcmp(have, value) == 0 : !have)
		return 0; /* no-op: skip the clone */
	n = clone_meta(c);
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
	struct entry *e = find_entry(k, ns ? ns : "", name);
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

/* ---- reads ---- */

void api_list_init(struct api_list *l)
{
	memset(l, 0, sizeof(*l));
}

void api_list_release(struct api_list *l)
{
	if (!l)
		return;
	free(l->items);
	memset(l, 0, sizeof(*l));
}

size_t api_list(struct api *a, const char *kind, const char *ns, api_match_fn match, void *ctx,
		struct api_list *out)
{
	struct kindtab *k = find_kind(a, kind);
	size_t i = 0;

	out->n = 0;
	if (!k)
		return 0;
	tidy_order(k);
	if (ns) {
		size_t lo = 0, hi = k->norder;

		/* first entry of namespace @ns */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(k->order[mid]->ns, ns) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		i = lo;
	}
	for (; i < k->norder; i++) {
		const struct obj *o = k->order[i]->cur->o;

		if (ns && strcmp(o->ns, ns) != 0)
			break;
		if (match && !match(o, ctx))
			continue;
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 16;
			out->items = xreallocarray(out->items, out->cap, sizeof(*out->items));
		}
		out->items[out->n++] = o;
	}
	return out->n;
}

size_t api_list_prefix(struct api *a, const char *kind, const char *ns, const char *prefix,
		       api_match_fn match, void *ctx, struct api_list *out)
{
	struct kindtab *k = find_kind(a, kind);
	size_t lo = 0, hi, plen = strlen(prefix);

	out->n = 0;
	if (!k)
		return 0;
	tidy_order(k);
	hi = k->norder;
	/* first entry not before (ns, prefix) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct obj *o = k->order[mid]->cur->o;
		int c = strcmp(o->ns, ns);

		if (c < 0 || (c == 0 && strcmp(o->name, prefix) < 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < k->norder; i++) {
		const struct obj *o = k->order[i]->cur->o;

		if (strcmp(o->ns, ns) != 0 || strncmp(o->name, prefix, plen) != 0)
			break;
		if (match && !match(o, ctx))
			continue;
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 16;
			out->items = xreallocarray(out->items, out->cap, sizeof(*out->items));
		}
		out->items[out->n++] = o;
	}
	return out->n;
}

size_t api_count(const struct api *a, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nkinds; i++) {
		if (!kind || strcmp(a->kinds[i]->kind, kind) == 0)
			n += a->kinds[i]->n;
	}
	return n;
}

uint64_t api_resource_version(const struct api *a)
{
	return a->rv;
}

const char *api_strerror(int err)
{
	switch (err) {
	case API_OK:
		return "OK";
	case API_ENOTFOUND:
		return "NotFound";
	case API_EALREADYEXISTS:
		return "AlreadyExists";
	case API_ECONFLICT:
		return "Conflict";
	case API_EINVALID:
		return "Invalid";
	}
	return "unknown";
}

uint64_t api_kind_shape(const struct api *a, const char *kind)
{
	const struct kindtab *k = find_kind(a, kind);

	return k ? k->shape : 0;
}

void api_changes_init(struct api_changes *c)
{
	memset(c, 0, sizeof(*c));
}

void api_changes_release(struct api_changes *c)
{
	if (!c)
		return;
	free(c->items);
	free(c->pos);
	memset(c, 0, sizeof(*c));
}

int api_changes_since(struct api *a, const char *kind, uint64_t since, struct api_changes *out)
{
	struct kindtab *k = find_kind(a, kind);
	size_t lo = 0, hi;

	out->n = 0;
	if (!k)
		return 0; /* never stored: nothing ever changed */
	if (since < k->log_from)
		return -1;
	tidy_order(k);
	/* the first logged change after @since */
	hi = k->nlog;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->logrv[mid] <= since)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < k->nlog; i++) {
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 16;
			out->items = xreallocarray(out->items, out->cap, sizeof(*out->items));
			out->pos = xreallocarray(out->pos, out->cap, sizeof(*out->pos));
		}
		out->items[out->n] = k->log[i]->cur->o;
		out->pos[out->n++] = k->log[i]->pos;
	}
	return 0;
}
