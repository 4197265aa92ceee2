#include "engine/objects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

void obj_strmap_init(struct obj_strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void obj_strmap_release(struct obj_strmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->items[i].key);
		free(m->items[i].value);
	}
	free(m->items);
	memset(m, 0, sizeof(*m));
}

size_t obj_key_search(const void *base, size_t n, size_t size, size_t key_off, const char *key,
		      bool *found)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *k;
		int c;

		/* The key is a char * at key_off of an element of any alignment. */
		memcpy(&k, (const char *)base + mid * size + key_off, sizeof(k));
		c = strcmp(k, key);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* Index of @key in @m, or of the slot it would be inserted at (with *found false). */
static size_t strmap_find(const struct obj_strmap *m, const char *key, bool *found)
{
	return obj_key_search(m->items, m->n, sizeof(*m->items), offsetof(struct obj_strmap_item, key),
			      key, found);
}

const char *obj_strmap_get(const struct obj_strmap *m, const char *key)
{
	bool found;
	size_t i = strmap_find(m, key, &found);

	return found ? m->items[i].value : NULL;
}

bool obj_strmap_set(struct obj_strmap *m, const char *key, const char *value)
{
	bool found = false;
	size_t i;

	/* Keys set in order are appended: filling a map from sorted keys is O(n). */
	if (m->n == 0 || strcmp(m->items[m->n - 1].key, key) < 0)
		i = m->n;
	else
		i = strmap_find(m, key, &found);

	if (found) {
		if (strcmp(m->items[i].value, value) == 0)
			return false;
		free(m->items[i].value);
		m->items[i].value = xstrdup(value);
		return true;
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 4;
		m->items = xreallocarray(m->items, m->cap, sizeof(*m->items));
	}
	memmove(&m->items[i + 1], &m->items[i], (m->n - i) * sizeof(*m->items));
	m->items[i].key = xstrdup(key);
	m->items[i].value = xstrdup(value);
	m->n++;
	return true;
}

/* One pair of obj_strmap_set_many(): @order 0 for the map's own entries, i + 1 for pair i. */
struct pair {
	const char *key;
	const char *value;
	size_t order;
	size_t idx; /* the entry's index in the map (order 0) */
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

bool obj_strmap_set_many(struct obj_strmap *m, const struct obj_strmap_item *items, size_t n)
{
	size_t total = m->n + n, out = 0;
	struct pair *p;
	struct obj_strmap_item *merged;
	bool changed = false;

	if (n == 0)
		return false;
	p = xmalloc(total * sizeof(*p));
	for (size_t i = 0; i < m->n; i++)
		p[i] = (struct pair){ m->items[i].key, m->items[i].value, 0, i };
	for (size_t i = 0; i < n; i++)
		p[m->n + i] = (struct pair){ items[i].key, items[i].value, i + 1, 0 };
	qsort(p, total, sizeof(*p), cmp_pair);
	merged = xmalloc(total * sizeof(*merged));
	for (size_t a = 0, b; a < total; a = b) {
		const struct pair *last;

		for (b = a + 1; b < total && strcmp(p[b].key, p[a].key) == 0; b++)
			;
		last = &p[b - 1]; /* the latest pair of this key wins */
		if (p[a].order == 0) {
			/* the map's own entry: keep its strings, replace the value if it changed */
			struct obj_strmap_item *own = &m->items[p[a].idx];

			if (last->order != 0 && strcmp(own->value, last->value) != 0) {
				free(own->value);
				own->value = xstrdup(last->value);
				changed = true;
			}
			merged[out++] = *own;
		} else {
			merged[out].key = xstrdup(last->key);
			merged[out].value = xstrdup(last->value);
			out++;
			changed = true;
		}
	}
	free(p);
	free(m->items);
	m->items = merged;
	m->n = m->cap = out;
	return changed;
}

bool obj_strmap_del(struct obj_strmap *m, const char *key)
{
	bool found;
	size_t i = strmap_find(m, key, &found);

	if (!found)
		return false;
	free(m->items[i].key);
	free(m->items[i].value);
	memmove(&m->items[i], &m->items[i + 1], (m->n - i - 1) * sizeof(*m->items));
	m->n--;
	return true;
}

bool obj_strmap_equal(const struct obj_strmap *a, const struct obj_strmap *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i].key, b->items[i].key) != 0 ||
		    strcmp(a->items[i].value, b->items[i].value) != 0)
			return false;
	return true;
}

void obj_strmap_copy(struct obj_strmap *dst, const struct obj_strmap *src)
{
	obj_strmap_init(dst);
	if (!src->n)
		return;
	dst->items = xcalloc(src->n, sizeof(*dst->items));
	dst->n = dst->cap = src->n;
	for (size_t i = 0; i < src->n; i++) {
		dst->items[i].key = xstrdup(src->items[i].key);
		dst->items[i].value = xstrdup(src->items[i].value);
	}
}

struct obj *obj_new(const char *api_version, const char *kind, const char *ns, const char *name)
{
	struct obj *o = xcalloc(1, sizeof(*o));

	o->api_version = xstrdup(api_version ? api_version : "");
	o->kind = xstrdup(kind ? kind : "");
	o->ns = xstrdup(ns ? ns : "");
	o->name = xstrdup(name ? name : "");
	o->uid = xstrdup("");
	obj_strmap_init(&o->labels);
	obj_strmap_init(&o->annotations);
	o->generation = 1;
	o->deletion_ms = -1;
	return o;
}

void obj_free(struct obj *o)
{
	if (!o)
		return;
	free(o->api_version);
	free(o->kind);
	free(o->ns);
	free(o->name);
	free(o->uid);
	obj_strmap_release(&o->labels);
	obj_strmap_release(&o->annotations);
	for (size_t i = 0; i < o->nfinalizers; i++)
		free(o->finalizers[i]);
	free(o->finalizers);
	val_free(o->spec);
	val_free(o->status);
	val_free(o->rest);
	val_free(o->owner_refs);
	free(o);
}

int obj_add_controller_ref(struct obj *o, const struct obj *owner)
{
	struct val *r;

	if (obj_controller_ref(o))
		return -1;
	r = val_new_map();
	val_map_set(r, "apiVersion", val_new_string(owner->api_version));
	val_map_set(r, "kind", val_new_string(owner->kind));
	val_map_set(r, "name", val_new_string(owner->name));
	val_map_set(r, "uid", val_new_string(owner->uid ? owner->uid : ""));
	val_map_set(r, "controller", val_new_bool(true));
	val_map_set(r, "blockOwnerDeletion", val_new_bool(true));
	if (!o->owner_refs)
		o->owner_refs = val_new_list();
	val_list_push(o->owner_refs, r);
	return 0;
}

const struct val *obj_controller_ref(const struct obj *o)
{
	const struct val *l = o->owner_refs;

	for (size_t i = 0; l && l->type == VAL_LIST && i < l->u.list.n; i++) {
		const struct val *c = val_map_get(l->u.list.items[i], "controller");

		if (c && c->type == VAL_BOOL && c->u.b)
			return l->u.list.items[i];
	}
	return NULL;
}

bool obj_owned_by_uid(const struct obj *o, const char *uid)
{
	const struct val *l = o->owner_refs;

	if (!uid || !uid[0])
		return false;
	for (size_t i = 0; l && l->type == VAL_LIST && i < l->u.list.n; i++)
		if (strcmp(val_str(val_map_get(l->u.list.items[i], "uid"), ""), uid) == 0)
			return true;
	return false;
}

/* obj_copy() and obj_copy_sharing(): @share gives spec, status and rest by val_share(). */
static struct obj *copy(const struct obj *o, bool share)
{
	struct obj *c = xcalloc(1, sizeof(*c));

	c->api_version = xstrdup(o->api_version);
	c->kind = xstrdup(o->kind);
	c->ns = xstrdup(o->ns);
	c->name = xstrdup(o->name);
	c->uid = xstrdup(o->uid);
	obj_strmap_copy(&c->labels, &o->labels);
	obj_strmap_copy(&c->annotations, &o->annotations);
	if (o->nfinalizers) {
		c->finalizers = xcalloc(o->nfinalizers, sizeof(char *));
		for (size_t i = 0; i < o->nfinalizers; i++)
			c->finalizers[i] = xstrdup(o->finalizers[i]);
	}
	c->nfinalizers = o->nfinalizers;
	c->generation = o->generation;
	c->resource_version = o->resource_version;
	c->creation_ms = o->creation_ms;
	c->deletion_ms = o->deletion_ms;
	c->spec = share ? val_share(o->spec) : val_copy(o->spec);
	c->status = share ? val_share(o->status) : val_copy(o->status);
	c->rest = share ? val_share(o->rest) : val_copy(o->rest);
	c->owner_refs = val_copy(o->owner_refs);
	c->src = o->src;
	return c;
}

struct obj *obj_copy(const struct obj *o)
{
	return copy(o, false);
}

struct obj *obj_copy_sharing(const struct obj *o)
{
	return copy(o, true);
}

int obj_cmp_key(const struct obj *a, const struct obj *b)
{
	int c = strcmp(a->kind, b->kind);

	if (c)
		return c;
	c = strcmp(a->ns, b->ns);
	if (c)
		return c;
	return strcmp(a->name, b->name);
}

bool obj_has_finalizer(const struct obj *o, const char *f)
{
	for (size_t i = 0; i < o->nfinalizers; i++)
		if (strcmp(o->finalizers[i], f) == 0)
			return true;
	return false;
}

bool obj_add_finalizer(struct obj *o, const char *f)
{
	if (obj_has_finalizer(o, f))
		return false;
	o->finalizers = xreallocarray(o->finalizers, o->nfinalizers + 1, sizeof(char *));
	o->finalizers[o->nfinalizers++] = xstrdup(f);
	return true;
}

bool obj_remove_finalizer(struct obj *o, const char *f)
{
	for (size_t i = 0; i < o->nfinalizers; i++) {
		if (strcmp(o->finalizers[i], f) != 0)
			continue;
		free(o->finalizers[i]);
		memmove(&o->finalizers[i], &o->finalizers[i + 1],
			(o->nfinalizers - i - 1) * sizeof(char *));
		o->nfinalizers--;
		return true;
	}
	return false;
}

char *obj_ref(const struct obj *o, char *buf, size_t len)
{
	if (o->ns[0])
		snprintf(buf, len, "%s/%s/%s", o->kind, o->ns, o->name);
	else
		snprintf(buf, len, "%s/%s", o->kind, o->name);
	return buf;
}

const struct val *obj_ready_condition(const struct obj *o)
{
	const struct val *conds = val_map_get(o->status, "conditions");

	if (!conds || conds->type != VAL_LIST)
		return NULL;
	for (size_t i = 0; i < conds->u.list.n; i++) {
		const struct val *c = conds->u.list.items[i];

		if (strcmp(val_str(val_map_get(c, "type"), ""), "Ready") == 0)
			return c;
	}
	return NULL;
}
