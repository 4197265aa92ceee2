#ifndef MAGOS_SIM_CONTROLLERS_H
#define MAGOS_SIM_CONTROLLERS_H

/*
 * controller-runtime emulation (v0.23 semantics, see the engine specs §0):
 * per controller one work queue keyed by namespace/name and one worker
 * (MaxConcurrentReconciles 1), watches that map store events to keys,
 * RequeueAfter, and the default rate limiter for errors.
 *
 * Work queue (client-go workqueue): a key added while it is already queued is
 * dropped (de-duplication); a key added while it is being reconciled is marked
 * dirty and queued once when that reconcile is done; keys come out first in,
 * first out.  AddAfter keeps one timer per key: a later AddAfter only moves it
 * earlier (the earliest pending wins).
 *
 * After a reconcile (controller-runtime's reconcileHandler):
 *   error            → AddRateLimited(key)
 *   requeue_after>0  → Forget(key); AddAfter(key, requeue_after_ms)
 *   requeue          → AddRateLimited(key)
 *   otherwise        → Forget(key)
 * Rate limiter (DefaultTypedControllerRateLimiter): the larger of a per-key
 * exponential back-off, 5 ms × 2^failures capped at 1000 s (failures counted
 * since the last Forget), and a controller-wide token bucket of 10 per second,
 * burst 100, that every AddRateLimited draws one token from.  Both are exact
 * in integer ms.
 *
 * Timing: the reconcile function runs when the worker picks the key up (its
 * reads and writes happen at that instant); the worker then stays busy for
 * the controller's reconcile duration (des_params.reconcile_ms unless set
 * with ctl_set_duration()) and the result is handled at the end of it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/des.h"

/* What a reconcile returns. */
struct ctl_result {
	int err;                  /* 0, or a negative code: rate-limited retry */
	bool requeue;             /* Result.Requeue: rate-limited re-add without an error */
	int64_t requeue_after_ms; /* Result.RequeueAfter, ms; <= 0: none */
};

/*
 * Reconcile callback for the key @ns/@name (borrowed, valid during the call;
 * @ns is "" for cluster-scoped objects) at simulated time @now_ms.  It reads and
 * writes the world's store (des_api(@w)).
 */
typedef struct ctl_result (*ctl_reconcile_fn)(void *ctx, struct des *w, const char *ns,
					      const char *name, int64_t now_ms);

/* A set of keys a map function returns.  Strings are borrowed (see ctl_map_fn). */
struct ctl_key {
	const char *ns;
	const char *name;
};

struct ctl_keys {
	struct ctl_key *items;
	size_t n, cap;
};

/*
 * Map function of a Watches(): appends to @out the keys to enqueue for object
 * @o (ctl_keys_add).  The strings may point into @o or into the store: they
 * are copied before anything writes.
 */
typedef void (*ctl_map_fn)(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out);

/*
 * Event predicate: true lets the event through.  @old is NULL except for
 * API_MODIFIED; @new is the new (or, for API_DELETED, last) state.
 */
typedef bool (*ctl_pred_fn)(void *ctx, enum api_event_type type, const struct obj *old,
			    const struct obj *new);

struct ctl;

/*
 * ctl_new() - a controller with an empty queue, owned by @w (freed by
 * des_free()).
 * @name:  e.g. "rollout-controller" (copied); used in causes and notices.
 * @fn:    reconcile function; @ctx passed to it.
 * Returns: borrowed pointer, valid until des_free(@w).  Cannot fail.
 */
struct ctl *ctl_new(struct des *w, const char *name, ctl_reconcile_fn fn, void *ctx);

/* ctl_free() - frees @c (des_free() does it for controllers made with ctl_new()).  Accepts NULL. */
void ctl_free(struct ctl *c);

/* ctl_set_duration() - reconcile duration of @c, ms >= 0 (asserted). */
void ctl_set_duration(struct ctl *c, int64_t ms);

/*
 * ctl_for() - For(@kind): every event of @kind passing @pred (NULL: all)
 * enqueues the object's own key.  The first For() kind names @c's keys in
 * notices.
 */
void ctl_for(struct ctl *c, const char *kind, ctl_pred_fn pred, void *pred_ctx);

/*
 * ctl_watches() - Watches(@kind, EnqueueRequestsFromMapFunc(@map), @pred):
 * every event of @kind passing @pred (NULL: all) enqueues the keys @map gives
 * for the object; on API_MODIFIED for the old and for the new object (union).
 */
void ctl_watches(struct ctl *c, const char *kind, ctl_map_fn map, void *map_ctx, ctl_pred_fn pred,
		 void *pred_ctx);

/* ctl_pred_rv_changed() - ResourceVersionChangedPredicate: creates and deletes pass, updates when the resourceVersion changed. */
bool ctl_pred_rv_changed(void *ctx, enum api_event_type type, const struct obj *old,
			 const struct obj *new);

/* ctl_pred_generation_changed() - GenerationChangedPredicate: creates and deletes pass, updates when metadata.generation changed. */
bool ctl_pred_generation_changed(void *ctx, enum api_event_type type, const struct obj *old,
				 const struct obj *new);

/* ctl_keys_add() - append one key (strings borrowed, see ctl_map_fn).  Cannot fail. */
void ctl_keys_add(struct ctl_keys *k, const char *ns, const char *name);

/* ctl_enqueue() - Add(@ns/@name) now (e.g. a scripted reconcile-request).  Cannot fail. */
void ctl_enqueue(struct ctl *c, const char *ns, const char *name);

/* ctl_enqueue_after() - AddAfter(@ns/@name, @delay_ms); <= 0 adds now. */
void ctl_enqueue_after(struct ctl *c, const char *ns, const char *name, int64_t delay_ms);

/* ctl_name() - the controller's name (borrowed). */
const char *ctl_name(const struct ctl *c);

/* ctl_reconciles() - reconciles started so far. */
uint64_t ctl_reconciles(const struct ctl *c);

/* ctl_queue_len() - keys waiting in the queue (not counting timers or the one being reconciled). */
size_t ctl_queue_len(const struct ctl *c);

/* ctl_failures() - the back-off exponent of @ns/@name: errors since its last Forget. */
uint32_t ctl_failures(const struct ctl *c, const char *ns, const char *name);

#endif
