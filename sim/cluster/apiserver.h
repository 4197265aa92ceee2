#ifndef MAGOS_SIM_APISERVER_H
#define MAGOS_SIM_APISERVER_H

/*
 * A simulated Kubernetes API server: the object store every controller and
 * model reads and writes, with the semantics the engines depend on.
 *
 * Invariants:
 *  - objects are keyed by (kind, namespace, name) and listed per kind in the
 *    API server's order: namespace, then name (strcmp);
 *  - every stored version of an object is an immutable, reference-counted
 *    snapshot (struct api_snap).  A write never changes a snapshot: it makes a
 *    new one that shares the unchanged spec/status/rest subtrees with the old
 *    one (a status write or a deletion mark shares the metadata strings too),
 *    so a watch event holds the old and the new version for the price of two
 *    references, however many watchers it reaches, and a status write costs
 *    the new status plus two small allocations;
 *  - `resource_version` comes from one store-wide counter and is bumped by
 *    every real change; `generation` (starting at 1) when spec changes (and once when a deletion with finalizers begins);
 *  - a write that changes nothing is a no-op: returns 0, emits no event,
 *    writes no timeline entry, keeps the resourceVersion;
 *  - every real change appends one timeline entry (if a timeline is attached)
 *    and emits one watch event;
 *  - creation_ms and deletion_ms are stored truncated to whole seconds, as
 *    metav1.Time is (RFC 3339, one-second precision); the timeline keeps the
 *    exact ms of every change.
 *
 * Deviations from a real API server, on purpose: no admission or schema
 * validation beyond shapes; the main resource's update ignores status for every
 * kind (all simulated kinds have a status subresource).  Like the real
 * registry, setting the deletionTimestamp of an object with finalizers also
 * bumps its generation (the one change besides spec that does).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "sim/core/timeline.h"

/* Error codes (negative), what the real API server would answer. */
enum api_err {
	API_OK = 0,
	API_ENOTFOUND = -1,      /* NotFound */
	API_EALREADYEXISTS = -2, /* AlreadyExists */
	API_ECONFLICT = -3,      /* Conflict: stale resourceVersion */
	API_EINVALID = -4,       /* Invalid: malformed object or patch */
};

enum api_event_type { API_ADDED, API_MODIFIED, API_DELETED };

/* An immutable stored version of an object.  Opaque; read it with api_snap_obj(). */
struct api_snap;

struct api;

/*
 * A watch event as the store emits it.  @old is the previous version (NULL for
 * ADDED and DELETED), @new the version after the change (for DELETED: the last
 * state, with its final resourceVersion).
 */
struct api_event {
	enum api_event_type type;
	struct api_snap *old;
	struct api_snap *new;
};

/*
 * Watch callback: one event of a watched kind.  @old and @new are borrowed for
 * the duration of the call (see struct api_event for which may be NULL).
 */
typedef void (*api_watch_fn)(void *ctx, enum api_event_type type, const struct obj *old,
			     const struct obj *new);

/*
 * Event sink: receives every change at write time with its own references to
 * the snapshots (release each non-NULL one with api_snap_release() after
 * passing the event to api_dispatch()).  The DES uses it to deliver watch
 * events after the API latency.  Without a sink the store dispatches
 * synchronously, inside the write.
 */
typedef void (*api_sink_fn)(void *ctx, const struct api_event *ev);

/* Supplies the "cause" of the current write for the timeline (interned in the timeline); may return NULL. */
typedef tl_str (*api_cause_fn)(void *ctx);

/* List filter: true keeps @o. */
typedef bool (*api_match_fn)(const struct obj *o, void *ctx);

/* A list result: @n borrowed object pointers, valid until the next write to the store. */
struct api_list {
	const struct obj **items;
	size_t n, cap;
};

/*
 * api_new() - an empty store.
 * @tl: timeline to append every change to (borrowed, must outlive the store), or NULL.
 * Returns: new; free with api_free().  Cannot fail (aborts on OOM).
 */
struct api *api_new(struct tl *tl);

/* api_free() - frees the store and every object version it still references.  Accepts NULL. */
void api_free(struct api *a);

/* api_set_now() - the simulated clock, ms, stamped on changes from now on (monotonic, asserted). */
void api_set_now(struct api *a, int64_t now_ms);

/* api_now() - the clock last set with api_set_now() (0 initially). */
int64_t api_now(const struct api *a);

/* api_set_cause() - @fn(@ctx) is asked for the cause of each change; NULL fn records no cause. */
void api_set_cause(struct api *a, api_cause_fn fn, void *ctx);

/* api_set_sink() - route events to @fn instead of dispatching them synchronously (NULL restores that). */
void api_set_sink(struct api *a, api_sink_fn fn, void *ctx);

/*
 * api_watch() - call @fn(@ctx, ...) for every event of @kind, in registration
 * order.  @kind is copied.  Cannot fail.
 */
void api_watch(struct api *a, const char *kind, api_watch_fn fn, void *ctx);

/*
 * api_dispatch() - deliver one event to the watchers of its kind.  Does not
 * release the snapshots.  Watchers may write to the store (their events go to
 * the sink or are dispatched recursively when there is none).
 */
void api_dispatch(struct api *a, const struct api_event *ev);

/* api_snap_obj() - the object of a snapshot: borrowed, immutable, valid while the snapshot is referenced. */
const struct obj *api_snap_obj(const struct api_snap *s);

/* api_snap_retain() - one more reference to @s.  Returns @s. */
struct api_snap *api_snap_retain(struct api_snap *s);

/* api_snap_release() - drops one reference; the last one frees the version.  Accepts NULL. */
void api_snap_release(struct api_snap *s);

/*
 * api_create() - store a new object.
 * @o:  the object; stolen (freed on error too).  Its creation time (now,
 *      unless o->src.creation_given and creation_ms is not after now) and
 *      resourceVersion are set by the store; uid (when empty), and
 *      generation (when < 1, to 1) too.  A given uid, generation, creation
 *      time and deletion request are kept, so a loader can restore a snapshot
 *      (`kubectl get -o yaml`); a deletion request without finalizers is
 *      dropped.  Labels, annotations, finalizers, spec, status and rest are
 *      kept as given.  A new object (obj_new) has generation 1 and no uid.
 * Returns: 0; API_EALREADYEXISTS when the key is taken; API_EINVALID when the
 *          kind or name is empty or spec/status/rest is not a map or NULL.
 * Emits ADDED and a "created" timeline entry.
 */
int api_create(struct api *a, struct obj *o);

/*
 * api_create_shared() - api_create(@a, obj_copy(@src)) without copying
 * @src's spec, status and rest: the store's first version of the object
 * shares those trees (its metadata is copied).  For a world built from
 * loaded objects once per trial.
 * @src: borrowed; it and its trees must stay unchanged and alive until
 *       api_free(@a) (the store never writes into a stored tree: a write
 *       makes a new one, and the shared ones are never freed by the store).
 * Returns: as api_create().
 */
int api_create_shared(struct api *a, const struct obj *src);

/*
 * api_get() - borrowed pointer to the current version of an object, or NULL
 * when absent.  @ns may be NULL for "".  Valid until the next write to that
 * object (longer if a snapshot reference is held).  Cost: O(1) expected.
 */
const struct obj *api_get(const struct api *a, const char *kind, const char *ns, const char *name);

/* api_get_snap() - like api_get() but the snapshot (borrowed; retain it to keep it). */
struct api_snap *api_get_snap(const struct api *a, const char *kind, const char *ns,
			      const char *name);

/*
 * A caller-owned memo of where one object is stored, for a reader that
 * looks the same object up again and again (a model's member on every
 * pass): api_get_ref() then skips the hash look-up.  Zero-initialise it
 * (or use API_REF_INIT); it needs no release.  Its fields are private.
 */
struct api_ref {
	const struct api *api;
	const void *kind; /* the kind's table, NULL: not yet looked up */
	const void *entry;
	uint64_t shape;   /* the kind's api_kind_shape() when looked up */
};
#define API_REF_INIT { NULL, NULL, NULL, 0 }

/*
 * api_get_ref() - the same answer as api_get(@a, @kind, @ns, @name), through
 * the memo @ref (in/out): while no object of @kind has been created or
 * removed since @ref was filled (for @a, with this key), the answer comes
 * from @ref in O(1) without hashing; otherwise it is looked up and @ref
 * filled again.  A @ref must always be used with the same key.
 * Returns: borrowed, as api_get(); NULL when absent.
 */
const struct obj *api_get_ref(const struct api *a, const char *kind, const char *ns,
			      const char *name, struct api_ref *ref);

/* api_get_snap_ref() - api_get_ref() giving the snapshot (borrowed, as api_get_snap()). */
struct api_snap *api_get_snap_ref(const struct api *a, const char *kind, const char *ns, const char *name,
				  struct api_ref *ref);

/*
 * api_update() - update metadata (labels, annotations, finalizers) and spec
 * (and `rest`) of an existing object, like PUT on the main resource.
 * @o:  the desired object; stolen (freed in every case).  Identity is taken
 *      from @o; uid, creation/deletion time, generation and status of @o are
 *      ignored.  @o->resource_version must equal the stored one, or be 0 for an
 *      unconditional update.
 * Returns: 0 (also for a no-op); API_ENOTFOUND; API_ECONFLICT on a stale
 *          resourceVersion; API_EINVALID when spec/rest is not a map or NULL.
 * Generation is bumped when spec changed.  Removing the last finalizer of an
 * object being deleted deletes it (DELETED event, "deleted" entry).
 */
int api_update(struct api *a, struct obj *o);

/*
 * api_update_spec() - replace the spec of (@kind, @ns, @name) and nothing
 * else: what api_update() does with a copy of the stored object whose spec
 * is @spec and whose resourceVersion is 0 (unconditional), without copying
 * the metadata, status and other fields (the new version shares them).
 * Generation is bumped when the spec changed; an equal spec is a no-op.
 * @ns:   "" or NULL when cluster-scoped.
 * @spec: stolen (freed in every case); a map or NULL.
 * Returns: 0 (also for a no-op); API_ENOTFOUND; API_EINVALID when @spec is
 *          not a map or NULL, or repeats a list-map key (as api_update()).
 */
int api_update_spec(struct api *a, const char *kind, const char *ns, const char *name,
		    struct val *spec);

/*
 * api_update_status() - replace the status subresource, like PUT on /status.
 * @o:  stolen (freed in every case); only @o->status and
 *      @o->resource_version (0 = unconditional) are looked at.
 * Returns: 0 (also for a no-op); API_ENOTFOUND; API_ECONFLICT; API_EINVALID
 *          when status is not a map or NULL.
 */
int api_update_status(struct api *a, struct obj *o);

/*
 * api_patch_meta() - JSON merge patch of metadata; needs no resourceVersion.
 * @patch: borrowed map with any of "labels" and "annotations" (maps of string
 *         values; null deletes a key; null for the whole map clears it) and
 *         "finalizers" (list of strings, or null for none).
 * Returns: 0 (also for a no-op); API_ENOTFOUND; API_EINVALID for another shape
 *          (nothing is changed then).
 */
int api_patch_meta(struct api *a, const char *kind, const char *ns, const char *name,
		   const struct val *patch);

/*
 * api_set_annotation() / api_set_label() - patch one key: @value NULL deletes
 * it.  Returns: 0 (also when nothing changed); API_ENOTFOUND.
 */
int api_set_annotation(struct api *a, const char *kind, const char *ns, const char *name,
		       const char *key, const char *value);
int api_set_label(struct api *a, const char *kind, const char *ns, const char *name,
		  const char *key, const char *value);

/*
 * api_patch_status() - RFC 7386 merge patch of the status subresource; needs
 * no resourceVersion.  @patch borrowed.  Returns: 0 (also for a no-op);
 * API_ENOTFOUND; API_EINVALID when the result is not a map or null.
 */
int api_patch_status(struct api *a, const char *kind, const char *ns, const char *name,
		     const struct val *patch);

/*
 * api_delete() - delete an object.  Without finalizers it is removed at once
 * (DELETED, "deleted"); with finalizers only its deletion time is set (once:
 * MODIFIED, "deleting") and it goes when the last finalizer is removed.
 * Deleting an object already being deleted is a no-op.
 * Returns: 0; API_ENOTFOUND.
 */
int api_delete(struct api *a, const char *kind, const char *ns, const char *name);

/*
 * api_list() - the objects of @kind, in namespace @ns (NULL: all namespaces),
 * that @match keeps (NULL: all), in (namespace, name) order, into @out
 * (caller-owned, initialised with api_list_init(); emptied first).
 * Returns: the count.  Pointers valid until the next write to the store.
 * Cost: O(n) for the kind, plus O(n log n) after creations or deletions.
 */
size_t api_list(struct api *a, const char *kind, const char *ns, api_match_fn match, void *ctx,
		struct api_list *out);

/* api_list_init() / api_list_release(): a caller-owned list; release frees the array, accepts NULL. */
/*
 * api_list_prefix() - like api_list() for namespace @ns (not NULL), but only
 * the objects whose name starts with @prefix: a range of the sorted order,
 * found by binary search.  Objects created since the kind was last sorted
 * are scanned instead, while they are few (at most 256 and the square root
 * of the kind's size; past that the kind is sorted again, O(n)).  Cost:
 * O(log n + sqrt(n) + matches) amortised.  For adapters that know
 * the naming scheme of what they look for (a Workspace's Jobs are named
 * "<workspace>-plan-<hash>" and "<workspace>-apply-<hash>").
 */
size_t api_list_prefix(struct api *a, const char *kind, const char *ns, const char *prefix,
		       api_match_fn match, void *ctx, struct api_list *out);

void api_list_init(struct api_list *l);
void api_list_release(struct api_list *l);

/*
 * api_kind_at() - the @i-th kind the store has a table of (every kind ever
 * stored or watched, in the order first met), or NULL when @i is past the
 * last.  Borrowed, valid as long as @a.
 */
const char *api_kind_at(const struct api *a, size_t i);

/* api_count() - number of stored objects of @kind (NULL: all kinds). */
size_t api_count(const struct api *a, const char *kind);

/* api_resource_version() - the store-wide counter: resourceVersion of the latest change. */
uint64_t api_resource_version(const struct api *a);

/*
 * Which objects of a kind changed: for readers that keep their own copy of
 * a List and bring it up to date instead of listing every object again.
 */

/* The changed objects of api_changes_since(); caller-owned. */
struct api_changes {
	const struct obj **items; /* current versions, borrowed as api_list() items */
	size_t *pos;              /* each one's index in api_list(kind, NULL, NULL, NULL, ...) now */
	size_t n, cap;
};

/* api_changes_init() / api_changes_release(): release frees the arrays, accepts NULL. */
void api_changes_init(struct api_changes *c);
void api_changes_release(struct api_changes *c);

/*
 * api_kind_shape() - a counter bumped by every creation and every removal
 * of an object of @kind (the List's membership, and so its positions,
 * change); 0 for a kind never stored.  Cost: O(kinds).
 */
uint64_t api_kind_shape(const struct api *a, const char *kind);

/*
 * api_changes_since() - the objects of @kind modified (metadata, spec,
 * status, deletion mark) after resourceVersion @since.
 * @since: a resourceVersion (api_resource_version() when the caller last
 *         read the kind).
 * @out:   emptied first; receives each change in order, the current
 *         version of its object and its List position (an object changed
 *         twice is there twice).
 * Returns: 0; or -1 when the store cannot tell (a creation or removal of
 *          @kind after @since, or a log dropped because it grew past 4
 *          entries per object): the caller lists the kind again.
 * Cost:    O(log changes + changes since @since); memory O(objects).
 */
int api_changes_since(struct api *a, const char *kind, uint64_t since, struct api_changes *out);

/* api_strerror() - "NotFound", "AlreadyExists", "Conflict", "Invalid", "OK" or "unknown". */
const char *api_strerror(int err);

#endif
