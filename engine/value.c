#include "engine/value.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

/*
 * Map keys are reference-counted texts: a copy of a map shares its keys
 * instead of duplicating them, so val_copy() and val_free() of a tree cost
 * no allocation and no free per key (a status write copies and frees whole
 * trees).  The text follows its
 * count in one block; struct val_kv.key points at the text, so readers see a
 * plain string.  Counts change atomically: trial workers copy the keys of
 * the scenario they share.
 */
struct key {
	uint32_t refs;
	char s[];
};

static struct key *key_of(const char *k)
{
	return (struct key *)(void *)(k - offsetof(struct key, s));
}

/* A new key holding a copy of the @n bytes at @s (no NUL among them), one reference. */
static char *key_newn(const char *s, size_t n)
{
	struct key *k;

	if (n > SIZE_MAX - sizeof(*k) - 1)
		abort(); /* no such string fits in memory */
	k = xmalloc(sizeof(*k) + n + 1);
	k->refs = 1;
	memcpy(k->s, s, n);
	k->s[n] = '\0';
	return k->s;
}

/* A new key holding a copy of @s (NUL-terminated), one reference. */
static char *key_new(const char *s)
{
	return key_newn(s, strlen(s));
}

/* One more reference to key @k (a map's key).  Returns @k. */
static char *key_share(char *k)
{
	__atomic_add_fetch(&key_of(k)->refs, 1, __ATOMIC_RELAXED);
	return k;
}

/* Drops a reference to key @k; the last frees it. */
static void key_release(char *k)
{
	struct key *h = key_of(k);

	if (__atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(h);
}

/*
 * Nodes come from per-thread free lists of 64-byte slots: every node but a
 * string longer than SLOT_TEXT bytes (which has its own block).  A tree's
 * nodes are made and freed by the hundred thousand per trial, and malloc()
 * and free() of them were a fifth of a fleet trial's instructions.  Slots
 * are carved from blocks that are never returned (the peak stays
 * allocated); each block is linked on a global list, so none is lost when
 * its thread ends.  A node freed by another thread joins that thread's
 * list.  Under AddressSanitizer every node is malloc()ed and free()d, so a
 * use after free is still caught.
 */
#if defined(__SANITIZE_ADDRESS__)
#define VAL_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VAL_POOL 0
#endif
#endif
#ifndef VAL_POOL
#define VAL_POOL 1
#endif

enum {
	SLOT_SIZE = 64,
	SLOT_TEXT = SLOT_SIZE - (int)sizeof(struct val) - 1, /* longest text a slot holds */
	BLOCK_SLOTS = 256,
};

struct slot {
	union {
		struct slot *next; /* while free */
		struct val node;
		unsigned char bytes[SLOT_SIZE];
	} u;
};

static_assert(sizeof(struct slot) == SLOT_SIZE, "a node and its short text fill one slot");

static _Thread_local struct slot *free_slots;
static struct slot *blocks; /* slot 0 of each block links the blocks (atomic push only) */

/* Fills this thread's free list with a new block's slots. */
static void refill(void)
{
	struct slot *b = xmalloc(BLOCK_SLOTS * sizeof(*b));

	b[0].u.next = __atomic_load_n(&blocks, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&blocks, &b[0].u.next, b, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
	for (size_t i = BLOCK_SLOTS - 1; i >= 1; i--) {
		b[i].u.next = free_slots;
		free_slots = &b[i];
	}
}

/* An uninitialised slot for a node (and a text of up to SLOT_TEXT bytes). */
static struct val *slot_get(void)
{
	struct slot *s;

	if (!VAL_POOL)
		return xmalloc(SLOT_SIZE);
	if (!free_slots)
		refill();
	s = free_slots;
	free_slots = s->u.next;
	return &s->u.node;
}

/* Frees node @v, whose text (a string's) is in its block. */
static void node_release(struct val *v)
{
	struct slot *s = (struct slot *)(void *)v;

	/* a string's text decides where it lives: a slot when it fits one */
	if (!VAL_POOL || (v->type == VAL_STRING && strnlen(v->u.s, SLOT_TEXT + 1) > SLOT_TEXT)) {
		free(v);
		return;
	}
	s->u.next = free_slots;
	free_slots = s;
}

static struct val *new_node(enum val_type t)
{
	struct val *v = slot_get();

	memset(v, 0, sizeof(*v));
	v->type = t;
	return v;
}

struct val *val_new_null(void)
{
	return new_node(VAL_NULL);
}

struct val *val_new_bool(bool b)
{
	struct val *v = new_node(VAL_BOOL);

	v->u.b = b;
	return v;
}

struct val *val_new_int(int64_t i)
{
	struct val *v = new_node(VAL_INT);

	v->u.i = i;
	return v;
}

struct val *val_new_float(double f)
{
	struct val *v = new_node(VAL_FLOAT);

	assert(isfinite(f));
	v->u.f = f;
	return v;
}

struct val *val_new_string(const char *s)
{
	assert(s);
	return val_new_stringn(s, strlen(s));
}

/*
 * A string node and its text in one block (u.s points just past the node):
 * one allocation instead of two, and val_free() frees the text with the
 * node.  Nothing outside this file assigns or frees u.s.
 */
static struct val *new_string_node(const char *s, size_t n)
{
	struct val *v;

	if (n > SIZE_MAX - sizeof(*v) - 1)
		abort(); /* no such string fits in memory */
	v = n <= SLOT_TEXT ? slot_get() : xmalloc(sizeof(*v) + n + 1);
	memset(v, 0, sizeof(*v));
	v->type = VAL_STRING;
	v->u.s = (char *)(v + 1);
	memcpy(v->u.s, s, n);
	v->u.s[n] = '\0';
	return v;
}

struct val *val_new_stringn(const char *s, size_t n)
{
	return new_string_node(s, n);
}

struct val *val_new_map(void)
{
	return new_node(VAL_MAP);
}

struct val *val_new_list(void)
{
	return new_node(VAL_LIST);
}

struct val *val_share(const struct val *v)
{
	struct val *s = (struct val *)v; /* read-only for every owner from here on */

	if (s)
		__atomic_add_fetch(&s->shares, 1, __ATOMIC_RELAXED);
	return s;
}

void val_free(struct val *v)
{
	if (!v)
		return;
	/*
	 * A shared node loses one owner; the last one frees it.  Reading no
	 * other owner means there is none to race with: only an owner can share.
	 */
	if (__atomic_load_n(&v->shares, __ATOMIC_ACQUIRE) != 0 &&
	    __atomic_fetch_sub(&v->shares, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	switch (v->type) {
	case VAL_STRING:
		break; /* the text is part of the node's block */
	case VAL_MAP:
		for (size_t i = 0; i < v->u.map.n; i++) {
			key_release(v->u.map.items[i].key);
			val_free(v->u.map.items[i].v);
		}
		free(v->u.map.items);
		break;
	case VAL_LIST:
		for (size_t i = 0; i < v->u.list.n; i++)
			val_free(v->u.list.items[i]);
		free(v->u.list.items);
		break;
	default:
		break;
	}
	if (v->raw)
		key_release(v->raw);
	node_release(v);
}

/*
 * The items of map or list @v into the new node @c of its type: keys
 * shared, each value given by @child (val_copy: a deep copy; val_share:
 * the same read-only tree).
 */
static void copy_items(struct val *c, const struct val *v, struct val *(*child)(const struct val *))
{
	if (v->type == VAL_MAP) {
		c->u.map.n = c->u.map.cap = v->u.map.n;
		c->u.map.items = xcalloc(v->u.map.n ? v->u.map.n : 1, sizeof(struct val_kv));
		for (size_t i = 0; i < v->u.map.n; i++) {
			c->u.map.items[i].key = key_share(v->u.map.items[i].key);
			c->u.map.items[i].key_mark = v->u.map.items[i].key_mark;
			c->u.map.items[i].v = child(v->u.map.items[i].v);
		}
	} else {
		c->u.list.n = c->u.list.cap = v->u.list.n;
		c->u.list.items = xcalloc(v->u.list.n ? v->u.list.n : 1, sizeof(struct val *));
		for (size_t i = 0; i < v->u.list.n; i++)
			c->u.list.items[i] = child(v->u.list.items[i]);
	}
}

struct val *val_copy(const struct val *v)
{
	struct val *c;

	if (!v)
		return NULL;
	c = v->type == VAL_STRING ? new_string_node(v->u.s, strlen(v->u.s)) : new_node(v->type);
	c->mark = v->mark;
	c->raw = v->raw ? key_share(v->raw) : NULL; /* shared as the keys are */
	switch (v->type) {
	case VAL_NULL:
		break;
	case VAL_BOOL:
		c->u.b = v->u.b;
		break;
	case VAL_INT:
		c->u.i = v->u.i;
		break;
	case VAL_FLOAT:
		c->u.f = v->u.f;
		break;
	case VAL_STRING:
		break; /* copied with the node */
	case VAL_MAP:
	case VAL_LIST:
		copy_items(c, v, val_copy);
		break;
	}
	return c;
}

struct val *val_copy_top(const struct val *v)
{
	struct val *c;

	if (!v || (v->type != VAL_MAP && v->type != VAL_LIST))
		return val_copy(v);
	c = new_node(v->type);
	c->mark = v->mark;
	c->raw = v->raw ? key_share(v->raw) : NULL;
	copy_items(c, v, val_share);
	return c;
}

void val_set_raw(struct val *v, const char *text, size_t n)
{
	char *old = v->raw;

	v->raw = key_newn(text, strnlen(text, n)); /* as strndup() */
	if (old)
		key_release(old);
}

void val_share_raw(struct val *dst, const struct val *src)
{
	char *old = dst->raw;

	dst->raw = src->raw ? key_share(src->raw) : NULL;
	if (old)
		key_release(old);
}

bool val_equal(const struct val *a, const struct val *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->type != b->type)
		return false;
	switch (a->type) {
	case VAL_NULL:
		return true;
	case VAL_BOOL:
		return a->u.b == b->u.b;
	case VAL_INT:
		return a->u.i == b->u.i;
	case VAL_FLOAT:
		return a->u.f == b->u.f;
	case VAL_STRING:
		return strcmp(a->u.s, b->u.s) == 0;
	case VAL_MAP:
		if (a->u.map.n != b->u.map.n)
			return false;
		for (size_t i = 0; i < a->u.map.n; i++) {
			const struct val_kv *kv = &a->u.map.items[i];
			/* Same order is the common case: try the same slot first. */
			const struct val_kv *other = &b->u.map.items[i];

			if (strcmp(kv->key, other->key) != 0)
				other = val_map_get_kv(b, kv->key);
			if (!other || !val_equal(kv->v, other->v))
				return false;
		}
		return true;
	case VAL_LIST:
		if (a->u.list.n != b->u.list.n)
			return false;
		for (size_t i = 0; i < a->u.list.n; i++)
			if (!val_equal(a->u.list.items[i], b->u.list.items[i]))
				return false;
		return true;
	}
	return false;
}

struct val_kv *val_map_get_kv(const struct val *m, const char *key)
{
	if (!m || m->type != VAL_MAP)
		return NULL;
	/*
	 * Most keys differ from @key in their first byte: test it before calling
	 * strcmp() (half the cost of a look-up was the calls for those).
	 */
	for (size_t i = 0; i < m->u.map.n; i++) {
		const char *k = m->u.map.items[i].key;

		if (k[0] == key[0] && strcmp(k, key) == 0)
			return &m->u.map.items[i];
	}
	return NULL;
}

struct val *val_map_get(const struct val *m, const char *key)
{
	struct val_kv *kv = val_map_get_kv(m, key);

	return kv ? kv->v : NULL;
}

struct val *val_map_set(struct val *m, const char *key, struct val *v)
{
	struct val_kv *kv;

	assert(m && m->type == VAL_MAP && v);
	kv = val_map_get_kv(m, key);
	if (kv) {
		if (kv->v != v)
			val_free(kv->v);
		kv->v = v;
		return v;
	}
	return val_map_append(m, key, v);
}

/* A new last entry of map @m (asserted), key and value unset: the array grows by doubling. */
static struct val_kv *append_slot(struct val *m)
{
	assert(m && m->type == VAL_MAP);
	if (m->u.map.n == m->u.map.cap) {
		m->u.map.cap = m->u.map.cap ? m->u.map.cap * 2 : 4;
		m->u.map.items = xreallocarray(m->u.map.items, m->u.map.cap, sizeof(struct val_kv));
	}
	return &m->u.map.items[m->u.map.n++];
}

struct val *val_map_append(struct val *m, const char *key, struct val *v)
{
	struct val_kv *kv;

	assert(v);
	kv = append_slot(m);
	kv->key = key_new(key);
	kv->key_mark = (struct val_mark){ 0, 0 };
	kv->v = v;
	return v;
}

struct val *val_map_append_kv(struct val *m, const struct val_kv *from, struct val *v)
{
	struct val_kv *kv;

	assert(from && v);
	kv = append_slot(m);
	kv->key = key_share(from->key);
	kv->key_mark = from->key_mark;
	kv->v = v;
	return v;
}

struct val *val_map_take(struct val *m, const char *key)
{
	struct val_kv *kv = val_map_get_kv(m, key);
	struct val *v;
	size_t i;

	if (!kv)
		return NULL;
	i = (size_t)(kv - m->u.map.items);
	v = kv->v;
	key_release(kv->key);
	memmove(&m->u.map.items[i], &m->u.map.items[i + 1],
		(m->u.map.n - i - 1) * sizeof(struct val_kv));
	m->u.map.n--;
	return v;
}

bool val_map_del(struct val *m, const char *key)
{
	struct val *v = val_map_take(m, key);

	if (!v)
		return false;
	val_free(v);
	return true;
}

struct val *val_list_push(struct val *l, struct val *v)
{
	assert(l && l->type == VAL_LIST && v);
	if (l->u.list.n == l->u.list.cap) {
		l->u.list.cap = l->u.list.cap ? l->u.list.cap * 2 : 4;
		l->u.list.items = xreallocarray(l->u.list.items, l->u.list.cap, sizeof(struct val *));
	}
	l->u.list.items[l->u.list.n++] = v;
	return v;
}

struct val *val_path(const struct val *root, const char *path)
{
	const struct val *cur = root;
	const char *p = path;

	while (cur && *p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		char part[256];

		if (n >= sizeof(part))
			return NULL;
		memcpy(part, p, n);
		part[n] = '\0';
		if (cur->type == VAL_MAP) {
			cur = val_map_get(cur, part);
		} else if (cur->type == VAL_LIST) {
			char *end;
			unsigned long idx = strtoul(part, &end, 10);

			if (n == 0 || *end || idx >= cur->u.list.n)
				return NULL;
			cur = cur->u.list.items[idx];
		} else {
			return NULL;
		}
		p += n;
		if (*p == '.')
			p++;
	}
	return (struct val *)cur;
}

const char *val_str(const struct val *v, const char *dflt)
{
	return v && v->type == VAL_STRING ? v->u.s : dflt;
}

int64_t val_int(const struct val *v, int64_t dflt)
{
	return v && v->type == VAL_INT ? v->u.i : dflt;
}

bool val_bool(const struct val *v, bool dflt)
{
	return v && v->type == VAL_BOOL ? v->u.b : dflt;
}

double val_num(const struct val *v, double dflt)
{
	if (v && v->type == VAL_INT)
		return (double)v->u.i;
	if (v && v->type == VAL_FLOAT)
		return v->u.f;
	return dflt;
}

const char *val_type_name(enum val_type t)
{
	switch (t) {
	case VAL_NULL:
		return "null";
	case VAL_BOOL:
		return "boolean";
	case VAL_INT:
		return "integer";
	case VAL_FLOAT:
		return "number";
	case VAL_STRING:
		return "string";
	case VAL_MAP:
		return "object";
	case VAL_LIST:
		return "array";
	}
	return "unknown";
}

bool val_merge_patch(struct val **target, const struct val *patch)
{
	bool changed = false;

	if (!patch || patch->type != VAL_MAP) {
		/* A non-object patch replaces the target wholesale (RFC 7386 §2). */
		struct val *repl = patch ? val_copy(patch) : val_new_null();

		changed = !val_equal(*target, repl);
		val_free(*target);
		*target = repl;
		return changed;
	}
	if (!*target || (*target)->type != VAL_MAP) {
		val_free(*target);
		*target = val_new_map();
		changed = true;
	}
	for (size_t i = 0; i < patch->u.map.n; i++) {
		const struct val_kv *pkv = &patch->u.map.items[i];
		struct val_kv *tkv;

		if (pkv->v->type == VAL_NULL) {
			changed |= val_map_del(*target, pkv->key);
			continue;
		}
		tkv = val_map_get_kv(*target, pkv->key);
		if (tkv) {
			changed |= val_merge_patch(&tkv->v, pkv->v);
		} else {
			struct val *nv = NULL;

			val_merge_patch(&nv, pkv->v);
			val_map_set(*target, pkv->key, nv);
			changed = true;
		}
	}
	return changed;
}
