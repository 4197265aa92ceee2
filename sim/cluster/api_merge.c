/*
 * Merge patches (RFC 7386) as the simulated API server applies them: to a
 * status (api_patch_status()) and to metadata (api_patch_meta()).
 */
#include "sim/cluster/apiserver.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/api_int.h"

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

struct val *merged_copy(const struct val *old, const struct val *patch)
{
	struct val *m;
	size_t cap;

	if (!patch || patch->type != VAL_MAP)
		return patch ? val_share(patch) : val_new_null();
	if (dup_keys(patch)) {
		m = old && old->type == VAL_MAP ? val_copy(old) : NULL;
		val_merge_patch(&m, patch);
		return m;
	}
	m = val_new_map();
	if (!old || old->type != VAL_MAP)
		old = NULL;
	cap = (old ? old->u.map.n : 0) + patch->u.map.n;
	m->u.map.cap = cap;
	m->u.map.items = xcalloc(cap ? cap : 1, sizeof(struct val_kv));
	if (old) {
		m->mark = old->mark;
		val_share_raw(m, old);
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
		v = pv ? merged_copy(okv->v, pv) : val_share(okv->v);
		val_map_append_kv(m, okv, v); /* within cap: no growth */
	}
	/* Then the patch's new keys in its order (val_map_set() appends them). */
	for (size_t i = 0; i < patch->u.map.n; i++) {
		const struct val_kv *pkv = &patch->u.map.items[i];

		if (pkv->v->type == VAL_NULL || (old && val_map_get(old, pkv->key)))
			continue;
		val_map_append_kv(m, pkv, merged_copy(NULL, pkv->v));
		m->u.map.items[m->u.map.n - 1].key_mark = (struct val_mark){ 0, 0 };
	}
	/* Sized as val_copy() sizes a map: this tree is kept as the stored status. */
	if (m->u.map.n < cap) {
		m->u.map.cap = m->u.map.n;
		m->u.map.items = xreallocarray(m->u.map.items, m->u.map.n ? m->u.map.n : 1,
					       sizeof(struct val_kv));
	}
	return m;
}

bool patch_strmap(struct obj_strmap *m, const struct val *p)
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

bool patch_finalizers(struct obj *o, const struct val *p)
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

