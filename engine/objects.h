#ifndef MAGOS_ENGINE_OBJECTS_H
#define MAGOS_ENGINE_OBJECTS_H

/*
 * Kubernetes objects as the simulated API server stores them.
 *
 * Invariants:
 *  - (kind, ns, name) identifies an object; `ns` is "" for cluster-scoped kinds
 *    (Namespace, FleetRollout);
 *  - label and annotation maps are sorted by key, keys unique (deterministic
 *    iteration, binary search);
 *  - `generation` starts at 1 and is bumped by the store only when `spec`
 *    changes; `resource_version` is bumped on every real change;
 *  - `spec`, `status` and `rest` are maps or NULL, owned by the object.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/value.h"

struct obj_strmap_item {
	char *key;
	char *value;
};

struct obj_strmap {
	struct obj_strmap_item *items; /* sorted by key (strcmp) */
	size_t n, cap;
};

/*
 * Where an object was read from: borrowed file name (outlives the object) and
 * mark; and whether the input gave its creation time (a snapshot's
 * metadata.creationTimestamp): then the object's creation_ms holds it, and
 * the store keeps it instead of stamping the load time.
 */
struct obj_src {
	const char *file;
	struct val_mark mark;
	bool creation_given;
};

struct obj {
	char *api_version; /* "magosproject.io/v1alpha1" */
	char *kind;        /* "Workspace" */
	char *ns;          /* "" when cluster-scoped */
	char *name;
	char *uid;
	struct obj_strmap labels;
	struct obj_strmap annotations;
	char **finalizers;
	size_t nfinalizers;
	int64_t generation;        /* >= 1 */
	uint64_t resource_version; /* store-wide counter at the last change; 0 before stored */
	int64_t creation_ms;       /* simulated ms of creation (before 0 for a snapshot's object) */
	int64_t deletion_ms;       /* simulated ms deletion was requested; -1 when not deleting */
	struct val *spec;          /* map or NULL */
	struct val *status;        /* map or NULL */
	struct val *rest;          /* other top-level fields (e.g. `data`), map or NULL */
	/*
	 * metadata.ownerReferences: a list of maps {apiVersion, kind, name, uid,
	 * controller?, blockOwnerDeletion?} as the API server keeps it, or NULL
	 * for none.  Owned; set at creation and not changed by the store's
	 * writes (nothing simulated edits an object's owners).
	 */
	struct val *owner_refs;
	struct obj_src src;
};

/* obj_strmap_init() - empty map.  obj_strmap_release() frees entries, not the struct; accepts NULL. */
void obj_strmap_init(struct obj_strmap *m);
void obj_strmap_release(struct obj_strmap *m);
/*
 * obj_key_search() - binary search of @key among @n records sorted by a
 * string key (strcmp order): record i starts at @base + i * @size and its
 * key is the `char *` at offset @key_off in it (an obj_strmap's items, or
 * a plain array of keys with @size sizeof(char *) and @key_off 0).
 * @found: set to whether @key is there.
 * Returns: its index, or the index it would be inserted at.  Cannot fail.
 * Cost: O(log n).
 */
size_t obj_key_search(const void *base, size_t n, size_t size, size_t key_off, const char *key,
		      bool *found);

/* obj_strmap_get() - borrowed value of @key, or NULL when absent. Cost: O(log n). */
const char *obj_strmap_get(const struct obj_strmap *m, const char *key);
/*
 * obj_strmap_set() - sets @key to a copy of @value; returns true when the map
 * changed.  Cost: O(log n) plus moving the entries after a new key; O(1)
 * for a key after every other (fill a large map in key order).
 */
bool obj_strmap_set(struct obj_strmap *m, const char *key, const char *value);
/*
 * obj_strmap_set_many() - obj_strmap_set() of each of the @n pairs in
 * order (a later pair wins over an earlier one with its key), in
 * O((m + n) log(m + n)) for a map of m keys instead of O(m + n) per pair.
 * @items: borrowed; keys and values are copied.
 * Returns: true when the map changed.
 */
bool obj_strmap_set_many(struct obj_strmap *m, const struct obj_strmap_item *items, size_t n);

/* obj_strmap_del() - removes @key; returns true when it was present. */
bool obj_strmap_del(struct obj_strmap *m, const char *key);
/* obj_strmap_equal() - same keys with the same values. */
bool obj_strmap_equal(const struct obj_strmap *a, const struct obj_strmap *b);
/* obj_strmap_copy() - deep copy of @src into @dst (initialised by this call). */
void obj_strmap_copy(struct obj_strmap *dst, const struct obj_strmap *src);

/*
 * obj_new() - a new object with the given identity (strings copied), empty
 * labels/annotations, generation 1, resource_version 0, deletion_ms -1 and no
 * spec/status.  @ns may be NULL for "".  Returns new; free with obj_free().
 */
struct obj *obj_new(const char *api_version, const char *kind, const char *ns, const char *name);

/*
 * obj_add_controller_ref() - ctrl.SetControllerReference(@owner, @o): appends
 * {apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true}
 * of @owner to @o's ownerReferences.  Returns: 0, or -1 when @o already has
 * a controller reference (upstream's AlreadyOwnedError; nothing changed).
 */
int obj_add_controller_ref(struct obj *o, const struct obj *owner);

/*
 * obj_controller_ref() - the ownerReference of @o with controller: true
 * (metav1.GetControllerOf), borrowed from @o, or NULL when it has none.
 */
const struct val *obj_controller_ref(const struct obj *o);

/*
 * obj_owned_by_uid() - whether any ownerReference of @o has uid @uid (the
 * test of upstream's orphaned-Job cleanup and of the garbage collector).
 * An empty @uid matches nothing.
 */
bool obj_owned_by_uid(const struct obj *o, const char *uid);

/* obj_free() - frees @o and all it owns.  Accepts NULL. */
void obj_free(struct obj *o);

/* obj_copy() - deep copy (the src file pointer is shared, it is borrowed anyway). Returns new. */
struct obj *obj_copy(const struct obj *o);

/*
 * obj_copy_sharing() - obj_copy() whose spec, status and rest are @o's
 * trees, shared (val_share()) instead of copied: for a copy whose metadata
 * alone changes, such as a finalizer update of a stored version.  Neither
 * the caller nor what it hands the copy to may write into those trees.
 * Returns new (obj_free() it, or hand it to the API server).
 */
struct obj *obj_copy_sharing(const struct obj *o);

/*
 * obj_cmp_key() - orders objects by (kind, ns, name) with strcmp, the order
 * the API server lists them in.  Returns <0, 0, >0.
 */
int obj_cmp_key(const struct obj *a, const struct obj *b);

/* obj_has_finalizer() / obj_add_finalizer() / obj_remove_finalizer(): the latter two return true on change. */
bool obj_has_finalizer(const struct obj *o, const char *f);
bool obj_add_finalizer(struct obj *o, const char *f);
bool obj_remove_finalizer(struct obj *o, const char *f);

/*
 * obj_ref() - "kind/ns/name" (or "kind/name" when cluster-scoped) into @buf of
 * @len bytes, truncated safely.  Returns @buf.
 */
char *obj_ref(const struct obj *o, char *buf, size_t len);

/*
 * obj_ready_condition() - borrowed pointer to the status.conditions[] entry of
 * type "Ready", or NULL.
 */
const struct val *obj_ready_condition(const struct obj *o);

#endif
