#ifndef MAGOS_ENGINE_VALUE_H
#define MAGOS_ENGINE_VALUE_H

/*
 * A JSON-like value tree: what a Kubernetes object's spec, status and other
 * free-form fields are made of once the API server has decoded them.
 *
 * Invariants:
 *  - a map keeps its keys in insertion order (output is deterministic) and never
 *    holds the same key twice (val_map_set replaces);
 *  - strings are NUL-terminated and owned by their node; they may not contain NUL;
 *  - a map's keys are set only through this API (val_map_set(), val_map_append(),
 *    val_map_append_kv()): copies of a map share its keys' texts, which are
 *    never assigned, written or freed outside engine/value.c;
 *  - likewise a node's `raw` text is set only through val_set_raw() and
 *    val_share_raw(), and copies of the node share it;
 *  - every node is owned by one parent (or by the caller, for a root), or,
 *    once handed out by val_share(), by several: a shared node and
 *    everything below it are read-only for all of its owners, and each owner
 *    lets go of it with val_free();
 *  - `mark` is where the node came from in its input file (1-based line and
 *    column; 0/0 for values built by code) and never takes part in equality.
 *
 * Scalars loaded from YAML keep their source text in `raw` (NULL otherwise), so
 * a diagnostic can quote what the user wrote and a version such as `1.10`
 * can be read back as written.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum val_type {
	VAL_NULL,
	VAL_BOOL,
	VAL_INT,    /* int64_t */
	VAL_FLOAT,  /* double, finite */
	VAL_STRING,
	VAL_MAP,
	VAL_LIST,
};

struct val_mark {
	uint32_t line; /* 1-based; 0 = unknown */
	uint32_t col;  /* 1-based; 0 = unknown */
};

struct val;

struct val_kv {
	char *key; /* shared with the map's copies (see above): read it, never assign or free it */
	struct val_mark key_mark;
	struct val *v;
};

struct val {
	enum val_type type;
	struct val_mark mark;
	uint32_t shares; /* owners besides the first (val_share()); engine/value.c's alone */
	char *raw; /* source text of a scalar read from a file, NULL otherwise; shared with copies: read it, never assign or free it */
	union {
		bool b;
		int64_t i;
		double f;
		char *s; /* a node's text, in the node's own block: never assign or free it */
		struct {
			struct val_kv *items;
			size_t n, cap;
		} map;
		struct {
			struct val **items;
			size_t n, cap;
		} list;
	} u;
};

/* Constructors: each returns a new node the caller owns (free with val_free). */
struct val *val_new_null(void);
struct val *val_new_bool(bool b);
struct val *val_new_int(int64_t i);
/* val_new_float() - @f must be finite (asserted): JSON has no NaN or Inf. */
struct val *val_new_float(double f);
/* val_new_string() - copies @s (NUL-terminated, not NULL). */
struct val *val_new_string(const char *s);
/* val_new_stringn() - copies @n bytes of @s; @s may contain no NUL among them. */
struct val *val_new_stringn(const char *s, size_t n);
struct val *val_new_map(void);
struct val *val_new_list(void);

/*
 * val_free() - lets go of @v: frees it and everything below it, or, when
 * val_share() gave @v other owners, only drops this owner's claim on it.
 * Accepts NULL.
 */
void val_free(struct val *v);

/*
 * val_share() - one more owner of @v (a tree the caller owns or borrows),
 * without copying it: what val_copy(@v) gives, node for node, as long as
 * nobody writes to @v or anything below it, which every owner must then
 * respect (a version of a stored object is never written, so its subtrees
 * can be shared with the next version).  Each owner lets go with
 * val_free(); the last one frees the tree.  Counts change atomically, so
 * owners may be on different threads.
 * Returns @v (now the caller's too); NULL gives NULL.  Cost: O(1).
 */
struct val *val_share(const struct val *v);

/*
 * val_copy_top() - a copy of @v's top node alone: a map's entries (keys,
 * key marks and order) or a list's elements are shared with @v
 * (val_share()), not copied; mark and raw text as val_copy() gives them.
 * What val_copy(@v) gives as long as nothing below the top is written, so
 * the caller may add, replace or delete entries of the copy but must not
 * write into the values it shares.  A scalar is copied as val_copy() does.
 * Returns new; NULL gives NULL.  Cost: O(entries), no copy below the top.
 */
struct val *val_copy_top(const struct val *v);

/*
 * val_copy() - deep copy of @v (marks and raw text included; map keys and
 * raw texts are shared with @v, not copied).  Returns new; NULL gives NULL.
 */
struct val *val_copy(const struct val *v);

/*
 * val_set_raw() - sets @v's source text (`raw`) to a copy of @text, at
 * most @n bytes and up to its first NUL (as strndup()), releasing the one
 * it had.  The loader's way of keeping what the user wrote.  Cannot fail
 * (aborts on OOM).
 */
void val_set_raw(struct val *v, const char *text, size_t n);

/*
 * val_share_raw() - sets @dst's source text to @src's (shared, not
 * copied; NULL when @src has none), releasing the one @dst had.
 */
void val_share_raw(struct val *dst, const struct val *src);

/*
 * val_equal() - structural equality as JSON sees it: same type and value, maps
 * equal as sets of key/value pairs (order ignored), lists equal element by
 * element.  An int and a float holding the same number are NOT equal
 * (the API server keeps them apart too).  Marks and raw text are ignored.
 * NULL equals only NULL.
 */
bool val_equal(const struct val *a, const struct val *b);

/*
 * val_map_get() - borrowed pointer to the value of @key in map @m, or NULL when
 * @m is NULL, not a map, or has no such key.
 */
struct val *val_map_get(const struct val *m, const char *key);

/* val_map_get_kv() - borrowed pointer to the key/value entry of @key, or NULL. */
struct val_kv *val_map_get_kv(const struct val *m, const char *key);

/*
 * val_map_set() - sets @key of map @m (asserted to be a map) to @v, which it
 * steals; an existing value is freed and replaced in place (keeping the key's
 * position), a new key is appended.  Returns @v (borrowed).
 */
struct val *val_map_set(struct val *m, const char *key, struct val *v);

/*
 * val_map_append() - appends @key (copied) with @v (stolen) to map @m
 * (asserted) without looking for it: the caller knows @key is not there
 * (a parser that indexes the keys it has seen).  Returns @v (borrowed).
 * Cost: O(1) amortised, where val_map_set() is O(keys).
 */
struct val *val_map_append(struct val *m, const char *key, struct val *v);

/*
 * val_map_append_kv() - appends to map @m (asserted) an entry with the key
 * and key mark of @from, an entry of another map (borrowed), and value @v
 * (stolen), without looking for the key: the caller knows it is not there.
 * The key's text is shared with @from's map, not copied.  Returns @v
 * (borrowed).  Cost: O(1) amortised, no allocation but the array's growth.
 */
struct val *val_map_append_kv(struct val *m, const struct val_kv *from, struct val *v);

/* val_map_del() - removes @key from map @m; returns true when it was there. */
bool val_map_del(struct val *m, const char *key);

/*
 * val_map_take() - removes @key from map @m, as val_map_del() does, but hands
 * its value to the caller instead of freeing it.
 * Returns: the value (the caller's now), NULL when @m is not a map or has no
 * @key.  Cost: O(entries of @m).
 */
struct val *val_map_take(struct val *m, const char *key);

/* val_list_push() - appends @v (stolen) to list @l (asserted).  Returns @v (borrowed). */
struct val *val_list_push(struct val *l, struct val *v);

/*
 * val_path() - borrowed pointer to the node at a dotted path under @root, e.g.
 * "spec.strategy.steps"; list elements are addressed by number ("steps.0.name").
 * Returns NULL when any component is missing or of the wrong type.
 */
struct val *val_path(const struct val *root, const char *path);

/* Typed readers: the value, or @dflt when @v is NULL or of another type. Borrowed strings. */
const char *val_str(const struct val *v, const char *dflt);
int64_t val_int(const struct val *v, int64_t dflt);
bool val_bool(const struct val *v, bool dflt);
/* val_num() - an int or a float as double, else @dflt. */
double val_num(const struct val *v, double dflt);

/* val_type_name() - "null", "boolean", "integer", "number", "string", "object" or "array". */
const char *val_type_name(enum val_type t);

/*
 * val_merge_patch() - applies an RFC 7386 JSON merge patch @patch (borrowed) to
 * *@target in place: a null in the patch deletes the key, maps merge
 * recursively, anything else replaces.  *@target may be replaced (the old node
 * is freed).  Returns true when the result differs from the input.
 */
bool val_merge_patch(struct val **target, const struct val *patch);

#endif
