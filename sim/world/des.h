#ifndef MAGOS_SIM_DES_H
#define MAGOS_SIM_DES_H

/*
 * The simulated world and its event loop: one event queue (sim/core/evq), one
 * object store (sim/cluster/apiserver), one timeline (sim/core/timeline), the controllers
 * (sim/world/controllers) and the seed, on a simulated clock in int64_t ms.
 *
 * Invariants:
 *  - events run in (time, priority, scheduling order); the same inputs give the
 *    same order on any machine (nothing iterates a hash table in hash order);
 *  - every store write is delivered to the watchers after the API latency
 *    (des_params.api_latency_ms).  The latency is the same for every write,
 *    so the deliveries of one object keep the order of its writes (equal
 *    times are first in, first out);
 *  - the clock never goes back; des_now() is the time of the running event;
 *  - watch events are dispatched when delivered, to the watchers registered
 *    by then: controllers set up before des_run() see an ADDED event for
 *    every object loaded before it (their informer's initial list, which
 *    des_initial_list() tells apart from later creations); one added
 *    mid-run sees only later changes;
 *  - a run never hangs: the number of events at one simulated ms and per
 *    des_run() call is bounded, and hitting a bound stops the run with a
 *    timeline notice naming the keys reconciled most.
 *
 * Priorities at one instant (smaller first): scripted and model events
 * (DES_PRIO_SCRIPT, by default), watch deliveries and timed requeues
 * (DES_PRIO_DELIVERY), then reconciles (DES_PRIO_RECONCILE), so every
 * trigger of one instant is queued, and de-duplicated, before a controller
 * starts its next reconcile.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/cluster/apiserver.h"
#include "sim/core/evq.h"
#include "sim/core/timeline.h"

#define DES_PRIO_SCRIPT 0
#define DES_PRIO_DELIVERY 100
#define DES_PRIO_RECONCILE 200

/*
 * World parameters.  Defaults (des_params_default()): api_latency_ms 0,
 * reconcile_ms 0, seed 0.  Zero latency and zero reconcile duration make a
 * controller that keeps rewriting its own object spin at one instant, which
 * is what the per-instant bound detects; a positive latency turns such a loop
 * into one that advances the clock and ends at the event budget or horizon.
 */
struct des_params {
	int64_t api_latency_ms; /* write → watch delivery, ms, >= 0 */
	int64_t reconcile_ms;   /* default duration of one reconcile, ms, >= 0 (per controller: ctl_set_duration) */
	uint64_t seed;          /* scenario seed; the world only keeps it for the models */
};

/* Run bounds; 0 in a field picks its default. */
struct des_limits {
	uint64_t max_events;        /* events per des_run() call; 0: unlimited */
	const char *budget_from;    /* what sets max_events, for the message when it is spent:
				     * "limit run-events; raise it with --limit run-events=N";
				     * NULL: "spec.limits.eventBudget sets it" */
	uint64_t max_events_per_ms; /* events at one simulated ms; 0: max(100000, 50 × stored objects) */
	/*
	 * tick(tick_ctx, now, events): called every DES_TICK_EVENTS events of
	 * the call with the simulated time (ms) and the events run so far, for
	 * a progress line; it must not touch the world.  NULL: none.
	 */
	void (*tick)(void *tick_ctx, int64_t now_ms, uint64_t events);
	void *tick_ctx;
};

/* How many events apart des_limits.tick is called (a power of two). */
#define DES_TICK_EVENTS 4096u

enum des_stop {
	DES_QUIESCENT, /* no pending event */
	DES_HORIZON,   /* the next event is later than the horizon */
	DES_BUDGET,    /* max_events reached */
	DES_LOOP,      /* max_events_per_ms reached: a zero-delay loop */
	DES_STOPPED,   /* des_request_stop() was called (the run reached its goal) */
};

struct des;
struct ctl;

/* Callback of a scheduled event: @w the world, @ctx and @arg as given to des_at(). */
typedef void (*des_fn)(struct des *w, void *ctx, void *arg);

/* des_params_default() - the defaults listed at struct des_params. */
struct des_params des_params_default(void);

/*
 * des_new() - a world at time 0 with an empty store and timeline.
 * @p: parameters (copied); NULL for the defaults.
 * Returns: new; free with des_free().  Cannot fail (aborts on OOM).
 */
struct des *des_new(const struct des_params *p);

/* des_free() - frees the world: controllers, pending events, store, timeline.  Accepts NULL. */
void des_free(struct des *w);

/* des_api() / des_timeline() - the world's store and timeline (borrowed, live as long as @w). */
struct api *des_api(struct des *w);
struct tl *des_timeline(struct des *w);

/* des_params() - the world's parameters (borrowed). */
const struct des_params *des_params(const struct des *w);

/* des_now() - the simulated clock, ms: time of the running (or last run) event. */
int64_t des_now(const struct des *w);

/*
 * des_set_end() - records that the run ended at @end_ms (simulated ms): the
 * horizon when it stopped there, which is later than the last event run.
 * An @end_ms before des_now() records des_now().  The clock does not move.
 */
void des_set_end(struct des *w, int64_t end_ms);

/*
 * des_end() - when the run ended (des_set_end()), or des_now() before that
 * is known: the time of the notices about the run as a whole, told after
 * its last event.
 */
int64_t des_end(const struct des *w);

/* des_events() - events run so far, all des_run() calls together. */
uint64_t des_events(const struct des *w);

/*
 * des_at() - run @fn(@w, @ctx, @arg) at @t_ms.
 * @t_ms:  >= des_now() (asserted).
 * @prio:  tie-break at equal times, smaller first (DES_PRIO_*).
 * Returns: a handle for des_cancel()/des_reschedule().
 * Cost: O(log n).  Cannot fail.
 */
evq_handle des_at(struct des *w, int64_t t_ms, int32_t prio, des_fn fn, void *ctx, void *arg);

/* des_cancel() - drop a pending des_at() event.  Returns 0, or EVQ_ENOENT when it already ran or was cancelled. */
int des_cancel(struct des *w, evq_handle h);

/*
 * des_reschedule() - move a pending des_at() event to @t_ms (>= des_now()) and
 * @prio, ordered after the events already pending at that (time, prio).
 * Returns 0, or EVQ_ENOENT.
 */
int des_reschedule(struct des *w, evq_handle h, int64_t t_ms, int32_t prio);

/*
 * des_set_cause() - what the store writes from now until the current event
 * ends are attributed to, e.g. "scenario event 3 (apply)" or "load" (copied
 * into the timeline).  Outside events (loading) it lasts until changed.
 * NULL clears it.
 */
void des_set_cause(struct des *w, const char *cause);

/*
 * des_set_cause_reconcile() - for sim/world/controllers: attribute writes to
 * "reconcile <controller> <ns>/<name>" (formatted only if a write happens).
 * The strings are borrowed and must live until the current event ends.
 */
void des_set_cause_reconcile(struct des *w, const char *controller, const char *ns,
			     const char *name);

/*
 * des_note_reconcile() - for sim/world/controllers: a reconcile of @ns/@name (an
 * object of @kind, "" when unknown) by @controller starts now.  @key identifies
 * the (controller, key) pair; the strings are borrowed and must live as long as
 * the controller.  Used to name the hot keys when a bound stops the run.
 */
void des_note_reconcile(struct des *w, const void *key, const char *controller, const char *kind,
			const char *ns, const char *name);

/*
 * des_add_controller() - for sim/world/controllers: @c is owned by @w from now on and
 * freed with ctl_free() by des_free().
 */
void des_add_controller(struct des *w, struct ctl *c);

/* des_controllers() - the controllers added so far, in order: *@out borrowed (valid until the next add); returns the count. */
size_t des_controllers(const struct des *w, struct ctl *const **out);

/*
 * des_run() - run events until the queue is empty, the next event is later
 * than @horizon_ms, or a bound in @lim (NULL: defaults) is hit.
 * Returns: why it stopped.  DES_HORIZON, DES_BUDGET and DES_LOOP add a
 * timeline notice (info, warning, error); DES_LOOP's names the keys
 * reconciled most at that instant, with counts and controllers.  The pending
 * events stay: a later call continues (with fresh bounds).
 */
enum des_stop des_run(struct des *w, int64_t horizon_ms, const struct des_limits *lim);

/*
 * des_initial_list() - true while a watch event of the informers' initial
 * list is being dispatched: the ADDED of an object created before the first
 * des_run() (the objects a controller finds in the store when it starts,
 * client-go's isInInitialList).  False for every other event and outside
 * dispatch.  An object created and then changed before des_run() is listed
 * by its ADDED; its MODIFIED is an ordinary update.
 */
bool des_initial_list(const struct des *w);

/* des_stop_name() - "quiescent", "horizon", "budget", "loop" or "completed" (DES_STOPPED). */
const char *des_stop_name(enum des_stop s);

/*
 * des_request_stop() - make the running (or next) des_run() return
 * DES_STOPPED once the current event is done; events still pending stay.
 * For observers that know the run has reached what it was run for.
 */
void des_request_stop(struct des *w);

#endif
