#ifndef MAGOS_SIM_API_INT_H
#define MAGOS_SIM_API_INT_H

/*
 * Inside the simulated API server (sim/cluster/apiserver.h is its face).
 * Only the files of the store include this header:
 *
 *   apiserver.c     the store: its life, the kind tables (hash table, list
 *                   order, watchers, change log) and every read
 *   api_snap.c      object versions: shared subtrees, snapshots, the
 *                   metadata each version owns
 *   api_write.c     the writes and their rules: resourceVersion, generation,
 *                   finalizers, no-ops, list-map keys
 *   api_timeline.c  what a write records on the timeline
 *   api_merge.c     merge patches of a status and of metadata
 *
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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"

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

/* ---- the kind tables (apiserver.c) ---- */

/*
 * find_kind() - the table of @kind, or NULL when no object of @kind was ever
 * stored or watched.  Inline: every read and write starts here.
 * Cost: O(kinds); a strcmp only for a kind of the same first letter (most
 * kinds differ there, and the call cost more than the comparison).
 */
static inline struct kindtab *find_kind(const struct api *a, const char *kind)
{
	for (size_t i = 0; i < a->nkinds; i++) {
		const char *k = a->kinds[i]->kind;

		if (k[0] == kind[0] && strcmp(k, kind) == 0)
			return a->kinds[i];
	}
	return NULL;
}

/* kind_get() - the table of @kind, made empty when there is none yet.  Cannot fail. */
struct kindtab *kind_get(struct api *a, const char *kind);

/*
 * entry_find() - the live entry of (@ns, @name) in @k (NULL allowed: no
 * table), or NULL.  @ns is "" for a cluster-scoped object, never NULL.
 * Cost: O(1) expected.
 */
struct entry *entry_find(const struct kindtab *k, const char *ns, const char *name);

/*
 * entry_new() - an entry keyed (@ns, @name), both copied, in no table yet,
 * with no version (cur NULL).
 * Returns: new; the caller sets its version and hands it to entry_link().
 * Cannot fail (aborts on OOM).
 */
struct entry *entry_new(const char *ns, const char *name);

/*
 * entry_link() - puts @e (from entry_new(), its version set, its key not in
 * @k) into @k: the hash table, and the end of the list order (sorted by the
 * next list); its names are interned in @a's timeline.  @k owns @e from now
 * on.  The change log is not touched (kind_log_reset()).  Cannot fail.
 */
void entry_link(struct api *a, struct kindtab *k, struct entry *e);

/*
 * entry_unlink() - takes @e out of @k's hash table and live count.  The
 * entry stays in the list order, to be freed by the next tidy (after its
 * caller has set cur to NULL).
 */
void entry_unlink(struct kindtab *k, struct entry *e);

/* kind_log_reset() - a creation or deletion: positions move, the log starts again after @rv. */
void kind_log_reset(struct kindtab *k, uint64_t rv);

/*
 * kind_log_append() - logs a modification of live entry @e at resourceVersion
 * @rv (greater than any logged).  Empties the log first when it has grown
 * past LOG_KEEP_MIN and 4 entries per object.  Cost: O(1) amortised.
 */
void kind_log_append(struct kindtab *k, struct entry *e, uint64_t rv);

/*
 * event_emit() - one watch event: to the sink when one is set (with a new
 * reference to each snapshot), else dispatched at once to the watchers.
 * @old, @new: borrowed; either may be NULL as struct api_event says.
 */
void event_emit(struct api *a, enum api_event_type type, struct api_snap *old,
		struct api_snap *new);

/* ---- versions (api_snap.c) ---- */

/* shval_new() - a holder of @v (stolen), 1 reference; NULL for NULL. */
struct shval *shval_new(struct val *v);

/* shval_borrow() - a holder of a tree the store never frees (api_create_shared()); NULL: NULL. */
struct shval *shval_borrow(const struct val *v);

/* shval_retain() - one more reference to @s (NULL allowed).  Returns @s. */
static inline struct shval *shval_retain(struct shval *s)
{
	if (s)
		s->refs++;
	return s;
}

/* shval_release() - drops one reference; the last frees the tree unless borrowed.  Accepts NULL. */
void shval_release(struct shval *s);

/*
 * snap_make() - a snapshot of @o (stolen), 1 reference, pointing @o's
 * spec/status/rest at the holders' trees.
 * @spec, @status, @rest: holders (NULL for none); each reference moves to
 *                        the snapshot.
 * Returns: new; release with api_snap_release().  Cannot fail.
 */
struct api_snap *snap_make(struct obj *o, struct shval *spec, struct shval *status,
			   struct shval *rest);

/*
 * snap_shallow() - a new version of @cur with the same metadata, sharing
 * everything: the object struct is copied (scalars are the new version's
 * own, to be changed by the caller), its strings and maps borrowed from the
 * version that owns them.  Returns: new, 1 reference.  Costs two
 * allocations, whatever the object's size.
 */
struct api_snap *snap_shallow(struct api_snap *cur);

/*
 * meta_clone() - a copy of @c's metadata (uid, labels, annotations,
 * finalizers, generation, resourceVersion, times); spec/status/rest point at
 * @c's (borrowed until snap_make()).  Returns: new; free with meta_free().
 */
struct obj *meta_clone(const struct obj *c);

/* meta_free() - frees an object whose spec/status/rest are borrowed from holders.  Accepts NULL. */
void meta_free(struct obj *o);

/* meta_has_finalizer() - whether @o lists finalizer @f. */
bool meta_has_finalizer(const struct obj *o, const char *f);

/* meta_finalizers_equal() - whether @x and @y list the same finalizers in the same order. */
bool meta_finalizers_equal(const struct obj *x, const struct obj *y);

/* ---- timeline records (api_timeline.c) ---- */

#define DETAIL_MAX 240

/*
 * A bounded text buffer: appends past DETAIL_MAX are cut and marked "...".
 * Zero-initialise it.  Not engine/strbuf.h's growable string: a write's
 * detail is built on every store write, and this one lives on the stack,
 * never allocates and stops at the bound the timeline keeps.
 */
struct sbuf {
	char s[DETAIL_MAX + 4];
	size_t n;
	bool cut;
};

/*
 * sb_put() - appends @s to @b, cut at DETAIL_MAX bytes (at the start of the
 * UTF-8 character that would cross it, so a character is never split);
 * nothing once @b was cut.
 */
void sb_put(struct sbuf *b, const char *s);

/*
 * diff_meta() - what a write changes in metadata, from @x to @y, appended
 * to @b: "labels: +k=v, -k, k=a→b", then annotations and finalizers likewise
 * ("finalizers: reordered" when only the order moved).
 */
void diff_meta(struct sbuf *b, const struct obj *x, const struct obj *y);

/*
 * diff_map_keys() - the top-level keys of maps @x and @y (either may be
 * NULL) that differ, appended to @b as "@section: key, -gone"; a changed
 * string "phase" reads "phase A→B".
 */
void diff_map_keys(struct sbuf *b, const char *section, const struct val *x,
		   const struct val *y);

/*
 * change_record() - appends one timeline entry for a change of @e (in @k)
 * whose new (or, deleted, last) state is @o, at the store's now, with the
 * current cause; phase, reason and message from the status (from the Ready
 * condition for StageSet and FleetRollout).  Nothing without a timeline.
 * @detail: what changed, "" or NULL for nothing.
 */
void change_record(struct api *a, const struct kindtab *k, const struct entry *e,
		   const struct obj *o, enum tl_change change, const char *detail);

/* ---- merge patches (api_merge.c) ---- */

/*
 * merged_copy() - what val_copy(@old) followed by val_merge_patch(&copy,
 * @patch) gives, node for node (marks, raw texts and key order included),
 * without copying the parts the patch replaces nor comparing them: a member's
 * status write replaces most of its status, and the copy, the comparisons and
 * the frees of the replaced parts were most of the write's cost.  The
 * subtrees it keeps from @old, and the patch's values that are not maps,
 * are shared with them (val_share()) rather than copied: a stored version
 * is never written, and the patch's caller only frees it.
 * Returns a new top-level node (the caller's; val_free() it).  Cannot fail
 * (aborts on OOM).
 */
struct val *merged_copy(const struct val *old, const struct val *patch);

/*
 * patch_strmap() - applies a merge patch of a string map to @m: null clears
 * it, a map of strings and nulls sets and deletes keys.
 * Returns: false, with @m unchanged, when the patch has another shape.
 */
bool patch_strmap(struct obj_strmap *m, const struct val *p);

/*
 * patch_finalizers() - replaces @o's finalizers by list @p of strings (null:
 * none).  Returns: false, with @o unchanged, when @p has another shape.
 */
bool patch_finalizers(struct obj *o, const struct val *p);

#endif
