/*
 * The store of the simulated API server: its life, the tables of each kind
 * (hash table, list order, watchers, change log) and every read.  The
 * layout is described in sim/cluster/api_int.h; versions are api_snap.c's,
 * writes api_write.c's.
 */
#include "sim/cluster/apiserver.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/api_int.h"

#define LOG_KEEP_MIN 4096

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

struct kindtab *kind_get(struct api *a, const char *kind)
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

struct entry *entry_find(const struct kindtab *k, const char *ns, const char *name)
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

struct entry *entry_new(const char *ns, const char *name)
{
	size_t nslen = strlen(ns), namelen = strlen(name);
	struct entry *e = xcalloc(1, sizeof(*e) + nslen + namelen + 2);

	memcpy(e->key, ns, nslen + 1);
	memcpy(e->key + nslen + 1, name, namelen + 1);
	e->ns = e->key;
	e->name = e->key + nslen + 1;
	return e;
}

void entry_link(struct api *a, struct kindtab *k, struct entry *e)
{
	e->hash = hash_key(e->ns, e->name);
	if (a->tl) {
		e->tns = tl_intern(a->tl, e->ns);
		e->tname = tl_intern(a->tl, e->name);
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
}

void entry_unlink(struct kindtab *k, struct entry *e)
{
	struct entry **pp = &k->buckets[e->hash & (k->nbuckets - 1)];

	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	e->next = NULL;
	k->n--;
	k->dirty = true;
}

/* api_list_prefix() scans at most this many entries appended since the last tidy. */
#define TAIL_SCAN_MAX 256

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

void kind_log_reset(struct kindtab *k, uint64_t rv)
{
	k->shape++;
	k->nlog = 0;
	k->log_from = rv;
}

void kind_log_append(struct kindtab *k, struct entry *e, uint64_t rv)
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

/* ---- watches ---- */

void api_watch(struct api *a, const char *kind, api_watch_fn fn, void *ctx)
{
	struct kindtab *k = kind_get(a, kind);

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

void event_emit(struct api *a, enum api_event_type type, struct api_snap *old,
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

/* ---- reads ---- */

struct api_snap *api_get_snap(const struct api *a, const char *kind, const char *ns,
			      const char *name)
{
	struct entry *e = entry_find(find_kind(a, kind), ns ? ns : "", name);

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
	e = entry_find(k, ns ? ns : "", name);
	ref->api = a;
	ref->kind = k;
	ref->entry = e;
	ref->shape = k ? k->shape : 0;
	return e && e->cur ? e->cur->o : NULL;
}

struct api_snap *api_get_snap_ref(const struct api *a, const char *kind, const char *ns, const char *name,
				  struct api_ref *ref)
{
	const struct kindtab *k;
	const struct entry *e;

	if (ref->api == a && ref->kind && ((const struct kindtab *)ref->kind)->shape == ref->shape) {
		e = ref->entry;
		return e ? e->cur : NULL;
	}
	k = find_kind(a, kind);
	e = entry_find(k, ns ? ns : "", name);
	ref->api = a;
	ref->kind = k;
	ref->entry = e;
	ref->shape = k ? k->shape : 0;
	return e ? e->cur : NULL;
}

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

/* The entry is in namespace @ns with a name starting with @prefix (@plen bytes). */
static bool in_prefix(const struct entry *e, const char *ns, const char *prefix, size_t plen)
{
	return strcmp(e->ns, ns) == 0 && strncmp(e->name, prefix, plen) == 0;
}

static void list_push(struct api_list *out, const struct obj *o)
{
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 16;
		out->items = xreallocarray(out->items, out->cap, sizeof(*out->items));
	}
	out->items[out->n++] = o;
}

size_t api_list_prefix(struct api *a, const char *kind, const char *ns, const char *prefix,
		       api_match_fn match, void *ctx, struct api_list *out)
{
	struct kindtab *k = find_kind(a, kind);
	size_t lo = 0, hi, plen = strlen(prefix), ntail, nhead, ntailhit = 0;
	struct entry *tailhit[TAIL_SCAN_MAX];

	out->n = 0;
	if (!k)
		return 0;
	/*
	 * Entries appended since the last tidy (up to TAIL_SCAN_MAX, and no
	 * more than the square root of the kind's size) are scanned rather
	 * than merged in: a tidy walks every entry, and a store that creates
	 * a Job between two lists would pay it on every list (O(Jobs^2) a run).
	 */
	ntail = k->norder - k->nsorted;
	if (k->dirty && (ntail > TAIL_SCAN_MAX || ntail * ntail > k->nsorted))
		tidy_order(k);
	else if (k->dirty)
		for (size_t i = k->nsorted; i < k->norder; i++)
			if (k->order[i]->cur && in_prefix(k->order[i], ns, prefix, plen))
				tailhit[ntailhit++] = k->order[i];
	if (ntailhit > 1)
		qsort(tailhit, ntailhit, sizeof(*tailhit), cmp_entry);
	hi = nhead = k->dirty ? k->nsorted : k->norder;
	/* first entry not before (ns, prefix); dead entries keep their keys */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct entry *e = k->order[mid];
		int c = strcmp(e->ns, ns);

		if (c < 0 || (c == 0 && strcmp(e->name, prefix) < 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the sorted range and the sorted tail hits, merged: (namespace, name) order */
	for (size_t i = lo, t = 0;;) {
		bool head = i < nhead && in_prefix(k->order[i], ns, prefix, plen);
		const struct entry *e;

		if (!head && t == ntailhit)
			break;
		if (head && (t == ntailhit || cmp_entry(&k->order[i], &tailhit[t]) < 0))
			e = k->order[i++];
		else
			e = tailhit[t++];
		if (!e->cur || (match && !match(e->cur->o, ctx)))
			continue;
		list_push(out, e->cur->o);
	}
	return out->n;
}

const char *api_kind_at(const struct api *a, size_t i)
{
	return i < a->nkinds ? a->kinds[i]->kind : NULL;
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
