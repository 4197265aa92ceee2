#ifndef MAGOS_SIM_EVQ_H
#define MAGOS_SIM_EVQ_H

/*
 * Discrete-event queue: the pending events of one simulation run, ordered by
 * (time, priority, push order).
 *
 * Order: an event with a smaller activation time comes out first; at equal
 * times the smaller priority first; at equal time and priority the one
 * pushed (or rescheduled) earlier first (FIFO).  The order is total and does
 * not depend on the heap's shape or on the machine, which is what makes runs
 * reproducible.
 *
 * Handles: evq_push() returns a handle naming the event until it is popped
 * or cancelled.  A handle packs a slot index (low 32 bits) and the slot's
 * generation (high 32 bits, never 0, so a handle is never 0); a slot's
 * generation changes each time its event leaves the queue, so a stale handle
 * is recognised and evq_cancel()/evq_reschedule() answer EVQ_ENOENT instead of
 * touching the slot's new occupant.  (A handle kept across 2^32 reuses of
 * the same slot could alias; the simulator keeps handles for one pending
 * event at a time.)
 *
 * Payload: each event carries a uint32_t @type and two uint64_t words @a and
 * @b, meaning whatever the caller's @type says (an object index, a pointer
 * cast through uintptr_t, a generation to check on delivery...).  The queue
 * never looks at them.
 *
 * Cost: 4-ary array heap of 24-byte nodes holding the full key, and a slot
 * array for payloads and keys.  A node's heap position is not recorded (a
 * moving node would write it on every level, a cache miss into the slot
 * array): cancel and reschedule leave the old node behind as stale, to be
 * dropped when it reaches the top or when stale nodes outnumber live ones
 * (the heap is then rebuilt, O(n), amortised over the cancels that made
 * them).  push, cancel and reschedule are O(log n) amortised; pop is
 * O(log n) amortised and never allocates; peek, len and now are O(1).
 * Memory: 72 bytes per event of peak queue length, and 24 per stale node
 * (at most as many as pending events, plus 64).  Not thread-safe: one
 * queue per trial.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Names a pending event; 0 is never a valid handle. */
typedef uint64_t evq_handle;

/* evq_peek_time() of an empty queue: later than any event. */
#define EVQ_NEVER INT64_MAX

/* Return codes. */
enum {
	EVQ_ENOENT = -1, /* handle stale (popped, cancelled) or never issued */
};

/* An event as evq_pop()/evq_peek() hand it out (a copy; nothing borrowed). */
struct evq_event {
	int64_t at;        /* activation time, ms since scenario start */
	int32_t prio;      /* tie-break at equal times, smaller first */
	uint32_t type;     /* caller's event kind */
	uint64_t a, b;     /* caller's payload */
	evq_handle handle; /* the handle push returned; stale once popped */
};

/* Private: one heap node.  Key is (at, tie); tie = biased prio << 32 | seq. */
struct evq_node {
	int64_t at;
	uint64_t tie;
	uint32_t slot;
};

/*
 * Private: one event's payload and its key.  A pending event's node is the
 * heap node with this slot and this tie; other nodes naming the slot are
 * stale (left behind by a cancel or a reschedule) and skipped.
 */
struct evq_slot {
	uint64_t a, b;
	int64_t at;    /* while pending: the live node's time */
	uint64_t tie;  /* while pending: the live node's tie */
	uint32_t type;
	uint32_t gen;  /* generation: part of the handle; bumped when freed */
	uint32_t next; /* next free slot while free, EVQ_PENDING while pending */
};

/*
 * A queue.  Invariants: heap[0..len) is a 4-ary min-heap on (at, tie); each
 * pending event has exactly one live node in it (slot's tie equal to the
 * node's), the other nodes are stale, @stale of them, and heap[0] is live
 * whenever @live > 0 (stale nodes are dropped as they reach the top, and the
 * heap is rebuilt without them when they outnumber the live ones); slots
 * [0, nslots) were used at least once and those not pending form the free
 * list from free_head; nslots <= slot_cap.  All fields are private.
 */
struct evq {
	struct evq_node *heap;
	struct evq_slot *slots;
	uint32_t len, cap;           /* heap nodes, live and stale, and room */
	uint32_t live, stale;        /* pending events; stale nodes */
	uint32_t nslots, slot_cap, free_head;
	uint32_t seq; /* sequence number of the next push or reschedule */
	int64_t now;  /* time of the last popped event, ms; 0 before any */
};

#define EVQ_PENDING UINT32_C(0xfffffffe)

/*
 * evq_init() - make @q an empty queue with now = 0.
 * Errors: cannot fail (allocates nothing until the first push).
 */
void evq_init(struct evq *q);

/*
 * evq_release() - free what @q owns (not @q itself); pending events are
 * dropped.  @q may be NULL.  Re-initialise with evq_init() to use it again.
 */
void evq_release(struct evq *q);

/*
 * evq_push() - schedule an event.
 * @q:    queue, initialised with evq_init().
 * @at:   activation time, ms since scenario start; >= evq_now(q) (asserted:
 *        scheduling in the past is a bug in the caller).
 * @prio: tie-break among equal times, smaller first.
 * @type, @a, @b: payload, copied.
 * Returns: a handle > 0, usable with evq_cancel() and evq_reschedule() until
 *          the event is popped or cancelled.
 * Errors:  cannot fail (grows through xrealloc, which aborts on out-of-memory;
 *          also aborts past 2^32 - 1 pending events).
 * Cost:    O(log n) amortised.
 */
evq_handle evq_push(struct evq *q, int64_t at, int32_t prio, uint32_t type, uint64_t a,
		    uint64_t b);

/*
 * evq_cancel() - remove a pending event.
 * @h: a handle from evq_push().
 * Returns: 0, or EVQ_ENOENT (queue unchanged) if @h is stale or unknown.
 * Cost:    O(log n).
 */
int evq_cancel(struct evq *q, evq_handle h);

/*
 * evq_reschedule() - move a pending event to a new time and priority,
 * keeping its handle and payload.  It is ordered as if pushed now: behind
 * every event already pending with the same (@at, @prio).
 * @at:   new activation time, ms; >= evq_now(q) (asserted).
 * Returns: 0, or EVQ_ENOENT (queue unchanged) if @h is stale or unknown.
 * Cost:    O(log n).
 */
int evq_reschedule(struct evq *q, evq_handle h, int64_t at, int32_t prio);

/*
 * evq_pop() - take the first event out and advance evq_now() to its time.
 * @out: receives a copy of the event (may be NULL to drop it).
 * Returns: true, or false when the queue is empty (then nothing changes).
 * Errors:  cannot fail; never allocates.
 * Cost:    O(log n).
 */
bool evq_pop(struct evq *q, struct evq_event *out);

/*
 * evq_peek() - copy the first event into @out without removing it.
 * Returns: true, or false when the queue is empty (@out untouched).
 */
bool evq_peek(const struct evq *q, struct evq_event *out);

/*
 * evq_get() - copy the pending event named by @h into @out (may be NULL).
 * Returns: true if @h names a pending event, false if it is stale or unknown.
 */
bool evq_get(const struct evq *q, evq_handle h, struct evq_event *out);

/* evq_peek_time() - activation time of the first event, ms; EVQ_NEVER when empty. */
int64_t evq_peek_time(const struct evq *q);

/* evq_len() - number of pending events. */
size_t evq_len(const struct evq *q);

/* evq_now() - time of the last popped event, ms; 0 before the first pop. */
int64_t evq_now(const struct evq *q);

/*
 * evq_test_set_seq() - for tests only: raise the next sequence number to
 * @seq (no effect if it is already at or above), to exercise the renumbering
 * that happens when the 32-bit counter wraps: after 2^32 pushes the pending
 * events are renumbered 0..len-1 in their current order, which keeps FIFO
 * among equals and the heap valid.  Never lowering it keeps every pending
 * event's number below the next one, so FIFO order is not disturbed.
 */
void evq_test_set_seq(struct evq *q, uint32_t seq);

#endif
