#ifndef MAGOS_SIM_CONTROLLERS_H
#define MAGOS_SIM_CONTROLLERS_H

/*
 * controller-runtime emulation: per controller one work queue keyed by
 * namespace/name, MaxConcurrentReconciles workers, watches that map store
 * events to keys, RequeueAfter, and the default rate limiter for errors.
 *
 * The queue is controller-runtime's priority queue
 * (pkg/controller/priorityqueue), which every pinned controller runs:
 * UsePriorityQueue defaults to true in v0.23 (Magos) and v0.24
 * (stageset-controller) and neither project sets it.  Exact in integer ms:
 *   - one entry per key, with a ready time, a priority and an insertion
 *     counter.  Adding a key that has an entry keeps the earliest ready time
 *     (an immediate add makes a delayed entry ready at once, and no later
 *     pass comes of the delay) and the highest priority; raising the
 *     priority draws a new counter, nothing else does;
 *   - ready entries are served highest priority first, then by counter
 *     (FIFO).  An entry whose delay expires draws a new counter then, so it
 *     queues behind what became ready before it; entries due at one instant
 *     become ready in (ready time, priority, counter) order;
 *   - a key handed to a worker is locked until its pass is done: an add
 *     meanwhile makes a new entry (with its counter) that is served only
 *     after that, in its place by priority and counter; a key is never in
 *     two passes at once;
 *   - priorities: CTL_PRIORITY_LOW (-100) for the informers' initial list
 *     (des_initial_list()) and for updates whose resourceVersion did not
 *     change, 0 for every other event and for ctl_enqueue(); a pass's
 *     requeue keeps the priority its key was dequeued with
 *     (reconcileHandler), so a key first seen at start-up stays low until an
 *     event raises it;
 *   - rate limiter (ItemExponentialFailureRateLimiter, the priority queue's
 *     default): per key 5 ms x 2^failures capped at 1000 s, failures counted
 *     since the last Forget.  No token bucket: the 10 qps / burst 100 bucket
 *     of DefaultTypedControllerRateLimiter comes only with the classic
 *     client-go queue, which no pinned controller runs.
 *
 * After a pass (reconcileHandler), with P the priority the key was dequeued
 * with:
 *   error            -> rate-limited add at P (RequeueAfter/Requeue ignored)
 *   requeue_after>0  -> Forget; add after requeue_after_ms at P
 *   requeue          -> rate-limited add at P
 *   otherwise        -> Forget
 *
 * Timing: the reconcile function runs when a worker picks the key up (what
 * it reads and writes happens at that instant); the worker then stays busy
 * for the controller's fixed duration (des_params.reconcile_ms unless set
 * with ctl_set_duration()) plus the pass's own ctl_result.busy_ms.  At the
 * end of that hold the end callback (ctl_set_end()) runs, for writes a pass
 * makes when it returns, then the result is handled and the key unlocked.
 * One pass starts per event at DES_PRIO_RECONCILE, so what arrives at an
 * instant (deliveries, expiring delays) is queued before the next key of
 * that instant is picked.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/des.h"

/* The priority of the informers' initial list and of unchanged updates (handler.LowPriority). */
#define CTL_PRIORITY_LOW (-100)

/*
 * What a reconcile returns.  Zero-initialise it ({ 0 }): the last two
 * fields are for passes that hold their worker longer or write at the end.
 */
struct ctl_result {
	int err;                  /* 0, or a negative code: rate-limited retry */
	bool requeue;             /* Result.Requeue: rate-limited re-add without an error */
	int64_t requeue_after_ms; /* Result.RequeueAfter, ms; <= 0: none */
	int64_t busy_ms;          /* ms >= 0 (asserted) the pass holds its worker beyond the fixed duration */
	void *pass;               /* the pass's state for the end callback (ctl_set_end); not read here */
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
 * End of a pass: called when the worker's hold ends, before the result is
 * handled, with the key (borrowed, as for the reconcile), the time and the
 * result the reconcile returned (in/out).  It may write to the store (the
 * writes are attributed to the reconcile, like the ones made at its start),
 * change @res's err / requeue / requeue_after_ms (e.g. a write failed: set
 * err), and must release what @res->pass owns.
 */
typedef void (*ctl_end_fn)(void *ctx, struct des *w, const char *ns, const char *name,
			   int64_t now_ms, struct ctl_result *res);

/* Frees the state of a pass still holding its worker when the controller is freed (the run ended mid-pass). */
typedef void (*ctl_drop_fn)(void *ctx, void *pass);

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

/* ctl_set_duration() - fixed reconcile duration of @c, ms >= 0 (asserted). */
void ctl_set_duration(struct ctl *c, int64_t ms);

/*
 * ctl_set_workers() - MaxConcurrentReconciles: @n >= 1 passes of distinct
 * keys at once (1 until set).  Call while no pass is running (asserted).
 */
void ctl_set_workers(struct ctl *c, int n);

/*
 * ctl_set_end() - @end (NULL: none) runs at the end of every pass of @c, with
 * the reconcile's context (see ctl_end_fn); @drop (NULL: nothing to free)
 * frees a ctl_result.pass whose end never came because the controller was
 * freed first.
 *
 * A pass that decides at its start and writes when it returns (the StageSet
 * pass: what it waits for is known from the models when it starts) returns
 * busy_ms = the time its waits take and pass = the writes to make; @end makes
 * them at start + fixed duration + busy_ms, so until then everyone reads
 * the state from before the pass, and may turn the result into an error
 * when a write fails.
 */
void ctl_set_end(struct ctl *c, ctl_end_fn end, ctl_drop_fn drop);

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

/* ctl_enqueue() - Add(@ns/@name) now at priority 0 (a scripted reconcile-request).  Cannot fail. */
void ctl_enqueue(struct ctl *c, const char *ns, const char *name);

/* ctl_enqueue_after() - AddAfter(@ns/@name, @delay_ms) at priority 0; <= 0 adds now. */
void ctl_enqueue_after(struct ctl *c, const char *ns, const char *name, int64_t delay_ms);

/* ctl_add() - AddWithOpts(@ns/@name, After @delay_ms (<= 0: now), Priority @priority).  Cannot fail. */
void ctl_add(struct ctl *c, const char *ns, const char *name, int64_t delay_ms, int priority);

/* ctl_name() - the controller's name (borrowed). */
const char *ctl_name(const struct ctl *c);

/* ctl_reconciles() - reconciles started so far. */
uint64_t ctl_reconciles(const struct ctl *c);

/*
 * ctl_queue_len() - keys ready in the queue: not those waiting for a delay
 * and not those being reconciled, but (as upstream's Len()) a key re-added
 * while its pass runs.
 */
size_t ctl_queue_len(const struct ctl *c);

/* ctl_busy() - workers holding a pass now (0 .. ctl_set_workers()). */
int ctl_busy(const struct ctl *c);

/*
 * ctl_entry() - the queue entry of @ns/@name: true when the key has one
 * (ready, waiting or re-added while its pass runs), with its priority in
 * *@priority and the time its delay ends in *@ready_at_ms (ms; -1 when it
 * is ready); false when it has none.  Either out pointer may be NULL.
 */
bool ctl_entry(const struct ctl *c, const char *ns, const char *name, int *priority,
	       int64_t *ready_at_ms);

/*
 * ctl_state_fn - what a controller keeps in memory about the object @ns/@name
 * of its For() kind besides its work queue (the RefWatcher's poll schedule,
 * say), as the text of a snapshot annotation (sim/observe/kubeget.h), or NULL
 * when it keeps nothing for that object.  Times in it are wall-clock, from
 * @anchor_unix_ms (the wall-clock ms of simulated time 0).
 * Returns: a malloc'd string the caller frees, or NULL.
 */
typedef char *(*ctl_state_fn)(void *ctx, struct des *w, const char *ns, const char *name,
			      int64_t anchor_unix_ms);

/* ctl_set_state() - sets @c's ctl_state_fn (called with the ctx of ctl_new()); NULL: none. */
void ctl_set_state(struct ctl *c, ctl_state_fn fn);

/* ctl_state() - what @c's ctl_state_fn says of @ns/@name; NULL without one.  Caller frees. */
char *ctl_state(const struct ctl *c, const char *ns, const char *name, int64_t anchor_unix_ms);

/* ctl_for_kind() - the kind of the first ctl_for(), "" before it (borrowed, valid as @c). */
const char *ctl_for_kind(const struct ctl *c);

/*
 * One key of a controller's queue as ctl_entries() lists it: @ns, @name
 * borrowed (valid until the next change to the queue).  @queued: it has an
 * entry: @priority, @ready_at_ms the time its delay ends (ms; -1 when it is
 * ready), @counter its insertion counter (the FIFO order among ready keys
 * of one priority).  @in_flight: a pass of the key holds a worker, started
 * at @started_ms (ms) with the priority the key was dequeued with
 * (@pass_priority).  @failures: the back-off exponent (errors since its
 * last Forget).
 */
struct ctl_entry_info {
	const char *ns, *name;
	bool queued, in_flight;
	int priority, pass_priority;
	int64_t ready_at_ms, started_ms;
	uint64_t counter;
	uint32_t failures;
};

/*
 * ctl_entries() - every key of @c with a queue entry or a pass in flight,
 * passes in flight first, then by insertion counter: adding them again in
 * this order (ctl_add()) gives a queue that serves them in the same order.
 * @out: receives a new array (caller frees; NULL when none).
 * Returns: the count.  Cost: O(keys + n log n).
 */
size_t ctl_entries(const struct ctl *c, struct ctl_entry_info **out);

/*
 * ctl_restore_queue() - the controller's queue is restored from a snapshot
 * (ctl_add() per entry) instead of built by the informers' initial list:
 * from now on the ADDED events of the initial list (des_initial_list())
 * enqueue nothing for @c.  Later events enqueue as usual.  Call before
 * des_run().
 */
void ctl_restore_queue(struct ctl *c);

/*
 * ctl_resume_pass() - the key's next pass is one a snapshot caught in
 * flight: @ns/@name is added ready, ahead of every other entry, and the
 * pass it starts (with @priority, the one it was dequeued with: its requeue
 * keeps it) runs the reconcile as of @started_ms (<= now, asserted; the
 * reconcile reads the store as it is) and holds its worker until
 * @started_ms + the fixed duration + the pass's busy time, the end it
 * would have had (at once if that is past).  With @entry, the entry the key
 * had besides is added when that pass starts: after @entry_after_ms (<= 0:
 * ready) at @entry_priority.  The key must have no entry and no pass
 * (asserted).  Cannot fail.
 */
void ctl_resume_pass(struct ctl *c, const char *ns, const char *name, int64_t started_ms,
		     int priority, bool entry, int64_t entry_after_ms, int entry_priority);

/* ctl_set_failures() - sets the back-off exponent of @ns/@name (a restored queue's); the key is made if new.  Cannot fail. */
void ctl_set_failures(struct ctl *c, const char *ns, const char *name, uint32_t failures);

/* ctl_failures() - the back-off exponent of @ns/@name: errors since its last Forget. */
uint32_t ctl_failures(const struct ctl *c, const char *ns, const char *name);

#endif
