/*
 * Discrete-event queue: an implicit D-ary min-heap of nodes that carry their
 * whole key inline (time, then a 64-bit tie word: priority biased to unsigned
 * in the high half, sequence number in the low half), so sifting compares
 * without touching the payload.  Payloads live in a slot array that also
 * records each event's heap position for cancel and reschedule; slots are
 * recycled through a free list, so pop never allocates.  See sim/core/evq.h.
 *
 * Measured with tests/bench/bench_evq.c (hold model, 10^4 pending, release
 * build, one core of a 2.3 GHz Xeon VM), hold operations per second:
 *   top-down sift, branchy compare:           4-ary 5.5 M
 *   bottom-up pop, 128-bit branchless compare: 2-ary 8.6 M, 4-ary 11.5 M,
 *                                              8-ary 6.0 M
 *   same, 32-byte nodes with 128-byte-aligned sibling groups: 4-ary 11.5 M
 *   (no gain, not kept)
 * Misdirected branches, not memory, were the cost: the whole heap sits in
 * L2 at this size.  D = 4 halves the depth of a binary heap while its four
 * siblings (96 bytes) are picked by a three-compare tournament that the
 * compiler turns into conditional moves.
 */
#include "sim/core/evq.h"

#include <assert.h>
#include <stdlib.h>

#include "engine/xalloc.h"

#ifndef EVQ_ARITY
#define EVQ_ARITY 4
#endif

#define NO_SLOT UINT32_MAX
#define PRIO_BIAS UINT32_C(0x80000000)

/*
 * The key as one unsigned 128-bit number: time with its sign bit flipped
 * (so signed order becomes unsigned order) above the tie word.  Comparing it
 * is a compare and a subtract-with-borrow, no branch, which lets the compiler
 * pick the smallest child with conditional moves.
 */
__extension__ typedef unsigned __int128 key128;

static inline key128 node_key(const struct evq_node *x)
{
	return (key128)((uint64_t)x->at ^ (UINT64_C(1) << 63)) << 64 | x->tie;
}

static inline bool node_less(const struct evq_node *x, const struct evq_node *y)
{
	return node_key(x) < node_key(y);
}

static inline uint64_t make_tie(int32_t prio, uint32_t seq)
{
	/* Biasing maps INT32_MIN..INT32_MAX onto 0..UINT32_MAX in order. */
	return (uint64_t)((uint32_t)prio ^ PRIO_BIAS) << 32 | seq;
}

static inline int32_t tie_prio(uint64_t tie)
{
	uint32_t u = (uint32_t)(tie >> 32) ^ PRIO_BIAS;

	/* Two's complement reinterpretation without implementation-defined casts. */
	return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - PRIO_BIAS) + INT32_MIN;
}

static inline evq_handle make_handle(uint32_t slot, uint32_t gen)
{
	return (evq_handle)gen << 32 | slot;
}

/* Moves @x up from hole @i until its parent is not greater. */
static void sift_up(struct evq *q, uint32_t i, struct evq_node x)
{
	struct evq_node *heap = q->heap;

	while (i > 0) {
		uint32_t p = (i - 1) / EVQ_ARITY;

		if (!node_less(&x, &heap[p]))
			break;
		heap[i] = heap[p];
		i = p;
	}
	heap[i] = x;
}

/* Moves @x down from hole @i until no child is smaller. */
static void sift_down(struct evq *q, uint32_t i, struct evq_node x)
{
	struct evq_node *heap = q->heap;
	uint32_t n = q->len;

	for (;;) {
		uint32_t c = i * EVQ_ARITY + 1, best, k, end;

		if (c >= n)
			break;
		best = c;
		end = n - c > EVQ_ARITY ? c + EVQ_ARITY : n;
		for (k = c + 1; k < end; k++)
			if (node_less(&heap[k], &heap[best]))
				best = k;
		if (!node_less(&heap[best], &x))
			break;
		heap[i] = heap[best];
		i = best;
	}
	heap[i] = x;
}

/*
 * Removes the root.  Bottom-up: the hole at the root sinks to a leaf along
 * the smaller children (D - 1 comparisons a level, none against the moved
 * element), then the last element rises from there; it came from the bottom,
 * so it rarely rises far.  Fewer comparisons than sifting it down from the
 * top, and those left are between siblings, selected without branches.
 */
static void pop_root(struct evq *q)
{
	struct evq_node *heap = q->heap;
	uint32_t n = --q->len, i = 0;

	if (n == 0)
		return;
	for (;;) {
		uint32_t c = i * EVQ_ARITY + 1, best, k;

		if (c >= n)
			break;
#if EVQ_ARITY == 4
		if (c + 3 < n) {
			uint32_t b01 = node_less(&heap[c + 1], &heap[c]) ? c + 1 : c;
			uint32_t b23 = node_less(&heap[c + 3], &heap[c + 2]) ? c + 3 : c + 2;

			best = node_less(&heap[b23], &heap[b01]) ? b23 : b01;
		} else
#endif
		{
			uint32_t end = n - c > EVQ_ARITY ? c + EVQ_ARITY : n;

			best = c;
			for (k = c + 1; k < end; k++)
				best = node_less(&heap[k], &heap[best]) ? k : best;
		}
		heap[i] = heap[best];
		i = best;
	}
	sift_up(q, i, heap[n]);
}

/* The node is the live one of a pending event (not left behind by a cancel or reschedule). */
static inline bool node_live(const struct evq *q, const struct evq_node *n)
{
	const struct evq_slot *sl = &q->slots[n->slot];

	return sl->next == EVQ_PENDING && sl->tie == n->tie;
}

/* Drops stale nodes from the top, so that heap[0] is live (or the heap empty). */
static void purge_top(struct evq *q)
{
	while (q->stale && q->len && !node_live(q, &q->heap[0])) {
		pop_root(q);
		q->stale--;
	}
}

/* Keeps only the live nodes, as a heap again (Floyd's bottom-up build). */
static void rebuild(struct evq *q)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < q->len; i++)
		if (node_live(q, &q->heap[i]))
			q->heap[n++] = q->heap[i];
	q->len = n;
	q->stale = 0;
	for (uint32_t i = n > 1 ? (n - 2) / EVQ_ARITY + 1 : 0; i-- > 0;)
		sift_down(q, i, q->heap[i]);
}

/* One more stale node: rebuild when they outnumber the live ones, else keep the top live. */
static void add_stale(struct evq *q)
{
	q->stale++;
	if (q->stale > q->live + 64)
		rebuild(q);
	else
		purge_top(q);
}

static void free_slot(struct evq *q, uint32_t s)
{
	struct evq_slot *sl = &q->slots[s];

	sl->gen = sl->gen == UINT32_MAX ? 1 : sl->gen + 1; /* never 0 */
	sl->next = q->free_head;
	q->free_head = s;
}

/* The slot named by @h if it is pending, else NULL. */
static struct evq_slot *lookup(const struct evq *q, evq_handle h)
{
	uint32_t s = (uint32_t)h, gen = (uint32_t)(h >> 32);
	struct evq_slot *sl;

	if (gen == 0 || s >= q->nslots)
		return NULL;
	sl = &q->slots[s];
	if (sl->gen != gen || sl->next != EVQ_PENDING)
		return NULL;
	return sl;
}

static void fill_event(const struct evq *q, uint32_t slot, struct evq_event *out)
{
	const struct evq_slot *sl = &q->slots[slot];

	out->at = sl->at;
	out->prio = tie_prio(sl->tie);
	out->type = sl->type;
	out->a = sl->a;
	out->b = sl->b;
	out->handle = make_handle(slot, sl->gen);
}

static int cmp_node(const void *x, const void *y)
{
	const struct evq_node *a = x, *b = y;

	return node_less(a, b) ? -1 : node_less(b, a) ? 1 : 0;
}

/*
 * The 32-bit sequence counter wrapped: drop the stale nodes and give the
 * pending events the sequence numbers 0..live-1 in their current (at, tie)
 * order.  Ranks preserve every pairwise comparison; the heap is left
 * sorted, which is a valid heap.
 */
static void renumber(struct evq *q)
{
	rebuild(q);
	qsort(q->heap, q->len, sizeof(*q->heap), cmp_node);
	for (uint32_t i = 0; i < q->len; i++) {
		struct evq_node *n = &q->heap[i];

		n->tie = (n->tie & ~(uint64_t)UINT32_MAX) | i;
		q->slots[n->slot].tie = n->tie;
	}
	q->seq = q->len;
}

static uint32_t next_seq(struct evq *q)
{
	if (q->seq == UINT32_MAX)
		renumber(q);
	return q->seq++;
}

static uint32_t grown(uint32_t cap)
{
	if (cap == UINT32_MAX - 1)
		abort(); /* handles and heap indices are 32-bit */
	return cap ? (cap > (UINT32_MAX - 1) / 2 ? UINT32_MAX - 1 : cap * 2) : 64;
}

void evq_init(struct evq *q)
{
	q->heap = NULL;
	q->slots = NULL;
	q->len = q->cap = q->live = q->stale = 0;
	q->nslots = q->slot_cap = 0;
	q->free_head = NO_SLOT;
	q->seq = 0;
	q->now = 0;
}

void evq_release(struct evq *q)
{
	if (!q)
		return;
	free(q->heap);
	free(q->slots);
	evq_init(q);
}

/* Adds node (@at, @tie, @s) to the heap. */
static void heap_push(struct evq *q, int64_t at, uint64_t tie, uint32_t s)
{
	struct evq_node x;

	if (q->len == q->cap) {
		q->cap = grown(q->cap);
		q->heap = xreallocarray(q->heap, q->cap, sizeof(*q->heap));
	}
	x.at = at;
	x.tie = tie;
	x.slot = s;
	sift_up(q, q->len++, x);
}

evq_handle evq_push(struct evq *q, int64_t at, int32_t prio, uint32_t type, uint64_t a,
		    uint64_t b)
{
	struct evq_slot *sl;
	uint32_t s;

	assert(at >= q->now && "evq_push: scheduling in the past");
	if (q->free_head != NO_SLOT) {
		s = q->free_head;
		q->free_head = q->slots[s].next;
	} else {
		if (q->nslots == q->slot_cap) {
			q->slot_cap = grown(q->slot_cap);
			q->slots = xreallocarray(q->slots, q->slot_cap, sizeof(*q->slots));
		}
		s = q->nslots++;
		q->slots[s].gen = 1;
	}
	sl = &q->slots[s];
	sl->a = a;
	sl->b = b;
	sl->type = type;
	sl->at = at;
	sl->tie = make_tie(prio, next_seq(q)); /* may renumber: before marking it pending */
	sl->next = EVQ_PENDING;
	q->live++;
	heap_push(q, at, sl->tie, s);
	return make_handle(s, sl->gen);
}

int evq_cancel(struct evq *q, evq_handle h)
{
	struct evq_slot *sl = lookup(q, h);

	if (!sl)
		return EVQ_ENOENT;
	q->live--;
	free_slot(q, (uint32_t)h);
	add_stale(q);
	return 0;
}

int evq_reschedule(struct evq *q, evq_handle h, int64_t at, int32_t prio)
{
	struct evq_slot *sl = lookup(q, h);
	uint64_t tie;

	assert(at >= q->now && "evq_reschedule: scheduling in the past");
	if (!sl)
		return EVQ_ENOENT;
	tie = make_tie(prio, next_seq(q)); /* may renumber: the old node stays live until here */
	sl->at = at;
	sl->tie = tie;
	heap_push(q, at, tie, (uint32_t)h);
	add_stale(q);
	return 0;
}

bool evq_pop(struct evq *q, struct evq_event *out)
{
	uint32_t s;

	if (q->live == 0)
		return false;
	s = q->heap[0].slot; /* live: purge_top keeps it so */
	if (out)
		fill_event(q, s, out);
	q->now = q->heap[0].at;
	pop_root(q);
	q->live--;
	free_slot(q, s);
	purge_top(q);
	return true;
}

bool evq_peek(const struct evq *q, struct evq_event *out)
{
	if (q->live == 0)
		return false;
	fill_event(q, q->heap[0].slot, out);
	return true;
}

bool evq_get(const struct evq *q, evq_handle h, struct evq_event *out)
{
	const struct evq_slot *sl = lookup(q, h);

	if (!sl)
		return false;
	if (out)
		fill_event(q, (uint32_t)h, out);
	return true;
}

int64_t evq_peek_time(const struct evq *q)
{
	return q->live ? q->heap[0].at : EVQ_NEVER;
}

size_t evq_len(const struct evq *q)
{
	return q->live;
}

int64_t evq_now(const struct evq *q)
{
	return q->now;
}

void evq_test_set_seq(struct evq *q, uint32_t seq)
{
	if (seq > q->seq)
		q->seq = seq;
}
