/*
 * sim/core/evq: order (time, priority, FIFO), handles and their staleness, and a
 * seeded property test against a sorted-array reference model.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/core/evq.h"
#include "tests/unit/cu_main.h"

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static uint64_t rnd(uint64_t *s, uint64_t n)
{
	return xorshift64(s) % n;
}

static void test_empty(void)
{
	struct evq q;
	struct evq_event ev = { .at = 5 };

	evq_init(&q);
	CU_ASSERT_EQUAL(evq_len(&q), 0);
	CU_ASSERT_EQUAL(evq_now(&q), 0);
	CU_ASSERT_EQUAL(evq_peek_time(&q), EVQ_NEVER);
	CU_ASSERT_FALSE(evq_pop(&q, &ev));
	CU_ASSERT_FALSE(evq_peek(&q, &ev));
	CU_ASSERT_EQUAL(ev.at, 5);
	CU_ASSERT_EQUAL(evq_cancel(&q, 0), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_cancel(&q, 1), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_cancel(&q, (evq_handle)1 << 32), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_reschedule(&q, (evq_handle)1 << 32, 10, 0), EVQ_ENOENT);
	CU_ASSERT_FALSE(evq_get(&q, (evq_handle)1 << 32, NULL));
	evq_release(&q);
	evq_release(&q); /* twice is fine */
	evq_release(NULL);
}

static void test_order(void)
{
	struct evq q;
	struct evq_event ev;
	static const struct {
		int64_t at;
		int32_t prio;
	} in[] = { { 30, 0 }, { 10, 5 }, { 10, -5 }, { 20, 0 }, { 10, 5 }, { 10, 0 },
		   { 0, INT32_MAX }, { 0, INT32_MIN }, { 30, 0 } };
	/* expected pop order, as indices into in[] */
	static const unsigned want[] = { 7, 6, 2, 5, 1, 4, 3, 0, 8 };
	evq_handle h[9];
	unsigned i;

	evq_init(&q);
	for (i = 0; i < 9; i++) {
		h[i] = evq_push(&q, in[i].at, in[i].prio, 100 + i, i, ~(uint64_t)i);
		CU_ASSERT(h[i] > 0);
	}
	CU_ASSERT_EQUAL(evq_len(&q), 9);
	CU_ASSERT_EQUAL(evq_peek_time(&q), 0);
	CU_ASSERT_TRUE(evq_peek(&q, &ev));
	CU_ASSERT_EQUAL(ev.a, 7);
	CU_ASSERT_EQUAL(ev.prio, INT32_MIN);
	for (i = 0; i < 9; i++) {
		unsigned k = want[i];

		CU_ASSERT_TRUE_FATAL(evq_pop(&q, &ev));
		CU_ASSERT_EQUAL(ev.at, in[k].at);
		CU_ASSERT_EQUAL(ev.prio, in[k].prio);
		CU_ASSERT_EQUAL(ev.type, 100 + k);
		CU_ASSERT_EQUAL(ev.a, k);
		CU_ASSERT_EQUAL(ev.b, ~(uint64_t)k);
		CU_ASSERT_EQUAL(ev.handle, h[k]);
		CU_ASSERT_EQUAL(evq_now(&q), in[k].at);
		CU_ASSERT_EQUAL(evq_len(&q), 8 - i);
	}
	CU_ASSERT_FALSE(evq_pop(&q, NULL));
	CU_ASSERT_EQUAL(evq_now(&q), 30);
	evq_release(&q);
}

static void test_fifo_ties(void)
{
	struct evq q;
	struct evq_event ev;
	uint64_t i, prev = 0;

	evq_init(&q);
	/* Many equal keys, interleaved with other priorities and times. */
	for (i = 0; i < 3000; i++)
		evq_push(&q, 1000 + (int64_t)(i % 3), (int32_t)(i % 2), 0, i, 0);
	for (i = 0; i < 3000; i++) {
		int64_t at = 1000 + (int64_t)(i / 1000);
		int32_t prio = (int32_t)(i % 1000 / 500);

		CU_ASSERT_TRUE_FATAL(evq_pop(&q, &ev));
		CU_ASSERT_EQUAL(ev.at, at);
		CU_ASSERT_EQUAL(ev.prio, prio);
		/* within a (time, prio) group, push order */
		CU_ASSERT_EQUAL(ev.a % 3, (uint64_t)(at - 1000));
		CU_ASSERT_EQUAL(ev.a % 2, (uint64_t)prio);
		if (i % 500 != 0)
			CU_ASSERT(ev.a > prev);
		prev = ev.a;
	}
	evq_release(&q);
}

/* A checked FIFO test that is simpler to read: same key, push order out. */
static void test_fifo_same_key(void)
{
	struct evq q;
	struct evq_event ev;
	uint64_t i;

	evq_init(&q);
	for (i = 0; i < 1000; i++)
		evq_push(&q, 7, 3, 0, i, 0);
	for (i = 0; i < 1000; i++) {
		CU_ASSERT_TRUE_FATAL(evq_pop(&q, &ev));
		CU_ASSERT_EQUAL_FATAL(ev.a, i);
	}
	evq_release(&q);
}

static void test_stale_handles(void)
{
	struct evq q;
	struct evq_event ev;
	evq_handle h1, h2, h3;

	evq_init(&q);
	h1 = evq_push(&q, 10, 0, 1, 11, 0);
	CU_ASSERT_TRUE(evq_pop(&q, &ev));
	CU_ASSERT_EQUAL(ev.handle, h1);
	/* popped: stale */
	CU_ASSERT_EQUAL(evq_cancel(&q, h1), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_reschedule(&q, h1, 20, 0), EVQ_ENOENT);
	CU_ASSERT_FALSE(evq_get(&q, h1, &ev));
	/* the slot is reused under a new generation; the old handle stays stale */
	h2 = evq_push(&q, 20, 0, 2, 22, 0);
	CU_ASSERT_NOT_EQUAL(h2, h1);
	CU_ASSERT_EQUAL((uint32_t)h2, (uint32_t)h1);
	CU_ASSERT_EQUAL(evq_cancel(&q, h1), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_len(&q), 1);
	CU_ASSERT_TRUE(evq_get(&q, h2, &ev));
	CU_ASSERT_EQUAL(ev.a, 22);
	/* cancelled: stale; cancelling twice fails the second time */
	CU_ASSERT_EQUAL(evq_cancel(&q, h2), 0);
	CU_ASSERT_EQUAL(evq_cancel(&q, h2), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_len(&q), 0);
	CU_ASSERT_FALSE(evq_pop(&q, &ev));
	h3 = evq_push(&q, 30, 0, 3, 33, 0);
	CU_ASSERT_NOT_EQUAL(h3, h1);
	CU_ASSERT_NOT_EQUAL(h3, h2);
	CU_ASSERT_EQUAL(evq_reschedule(&q, h2, 40, 0), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_peek_time(&q), 30);
	/* handles never issued: wrong slot, generation 0, future generation */
	CU_ASSERT_EQUAL(evq_cancel(&q, h3 + 1), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_cancel(&q, (uint32_t)h3), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_cancel(&q, h3 + ((evq_handle)1 << 32)), EVQ_ENOENT);
	CU_ASSERT_EQUAL(evq_len(&q), 1);
	CU_ASSERT_TRUE(evq_pop(&q, &ev));
	CU_ASSERT_EQUAL(ev.a, 33);
	evq_release(&q);
}

static void test_reschedule(void)
{
	struct evq q;
	struct evq_event ev;
	evq_handle a, b, c;

	evq_init(&q);
	a = evq_push(&q, 10, 0, 0, 'a', 0);
	b = evq_push(&q, 10, 0, 0, 'b', 0);
	c = evq_push(&q, 10, 0, 0, 'c', 0);
	/* rescheduled to the same key: behind the equals, as if pushed now */
	CU_ASSERT_EQUAL(evq_reschedule(&q, a, 10, 0), 0);
	/* later and earlier */
	CU_ASSERT_EQUAL(evq_reschedule(&q, b, 50, 0), 0);
	CU_ASSERT_EQUAL(evq_reschedule(&q, c, 5, 1), 0);
	CU_ASSERT_TRUE(evq_get(&q, b, &ev));
	CU_ASSERT_EQUAL(ev.at, 50);
	CU_ASSERT_EQUAL(ev.handle, b);
	CU_ASSERT_TRUE(evq_pop(&q, &ev));
	CU_ASSERT_EQUAL(ev.a, 'c');
	CU_ASSERT_EQUAL(ev.prio, 1);
	CU_ASSERT_EQUAL(ev.handle, c);
	CU_ASSERT_TRUE(evq_pop(&q, &ev));
	CU_ASSERT_EQUAL(ev.a, 'a');
	CU_ASSERT_TRUE(evq_pop(&q, &ev));
	CU_ASSERT_EQUAL(ev.a, 'b');
	CU_ASSERT_EQUAL(ev.at, 50);
	CU_ASSERT_EQUAL(evq_now(&q), 50);
	evq_release(&q);
}

/* ---- property test against a sorted-array reference model --------------- */

struct ref_ev {
	int64_t at;
	int32_t prio;
	uint64_t seq; /* the model's own 64-bit counter */
	uint32_t type;
	uint64_t a, b;
	evq_handle h;
};

/* Pending events kept sorted by (at, prio, seq); first = next to pop. */
struct ref {
	struct ref_ev *v;
	size_t n, cap;
	uint64_t seq;
	int64_t now;
};

static int ref_cmp(const struct ref_ev *x, const struct ref_ev *y)
{
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void ref_insert(struct ref *r, struct ref_ev e)
{
	size_t i;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	for (i = r->n; i > 0 && ref_cmp(&r->v[i - 1], &e) > 0; i--)
		r->v[i] = r->v[i - 1];
	r->v[i] = e;
	r->n++;
}

static long ref_find(const struct ref *r, evq_handle h)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].h == h)
			return (long)i;
	return -1;
}

static void ref_remove(struct ref *r, size_t i)
{
	memmove(&r->v[i], &r->v[i + 1], (r->n - i - 1) * sizeof(*r->v));
	r->n--;
}

static unsigned long prop_failures;

#define PROP_CHECK(cond)                                                                  \
	do {                                                                              \
		if (!(cond)) {                                                            \
			if (prop_failures++ < 5)                                          \
				fprintf(stderr, "\n  seed %llu op %d: %s\n",                \
					(unsigned long long)seed, op, #cond);               \
			CU_FAIL(#cond);                                                   \
		}                                                                         \
	} while (0)

/*
 * Random push/cancel/reschedule/pop mix; times drawn from a narrow window and
 * priorities from a few values so that ties are common.  @wrap_seq: keep
 * forcing the 32-bit sequence counter to its wrap point.
 */
static void run_property(uint64_t seed, int ops, bool wrap_seq)
{
	struct evq q;
	struct ref r = { 0 };
	evq_handle *issued = NULL; /* every handle ever issued, stale or not */
	size_t nissued = 0, capissued = 0;
	uint64_t rs = seed;
	int op;

	evq_init(&q);
	for (op = 0; op < ops; op++) {
		uint64_t dice = rnd(&rs, 100);
		/* phases: grow for a while, then drain, so size varies widely */
		bool growing = (op / 2000) % 2 == 0;

		if (wrap_seq && rnd(&rs, 300) == 0)
			evq_test_set_seq(&q, UINT32_MAX - (uint32_t)rnd(&rs, 40));
		if (dice < (growing ? 45u : 25u)) {
			struct ref_ev e;

			e.at = r.now + (int64_t)rnd(&rs, 20);
			e.prio = (int32_t)rnd(&rs, 3) - 1;
			if (rnd(&rs, 50) == 0)
				e.prio = rnd(&rs, 2) ? INT32_MAX : INT32_MIN;
			e.type = (uint32_t)rnd(&rs, 1000);
			e.a = xorshift64(&rs);
			e.b = (uint64_t)op;
			e.seq = r.seq++;
			e.h = evq_push(&q, e.at, e.prio, e.type, e.a, e.b);
			PROP_CHECK(e.h != 0);
			PROP_CHECK(ref_find(&r, e.h) < 0);
			ref_insert(&r, e);
			if (nissued == capissued) {
				capissued = capissued ? 2 * capissued : 256;
				issued = xreallocarray(issued, capissued, sizeof(*issued));
			}
			issued[nissued++] = e.h;
		} else if (dice < 60 && nissued) {
			evq_handle h = issued[rnd(&rs, nissued)];
			long i = ref_find(&r, h);
			int rc = evq_cancel(&q, h);

			PROP_CHECK(rc == (i >= 0 ? 0 : EVQ_ENOENT));
			if (i >= 0)
				ref_remove(&r, (size_t)i);
		} else if (dice < 75 && nissued) {
			evq_handle h = issued[rnd(&rs, nissued)];
			long i = ref_find(&r, h);
			int64_t at = r.now + (int64_t)rnd(&rs, 20);
			int32_t prio = (int32_t)rnd(&rs, 3) - 1;
			int rc = evq_reschedule(&q, h, at, prio);

			PROP_CHECK(rc == (i >= 0 ? 0 : EVQ_ENOENT));
			if (i >= 0) {
				struct ref_ev e = r.v[i];

				ref_remove(&r, (size_t)i);
				e.at = at;
				e.prio = prio;
				e.seq = r.seq++;
				ref_insert(&r, e);
			}
		} else {
			struct evq_event ev;
			bool got = evq_pop(&q, &ev);

			PROP_CHECK(got == (r.n > 0));
			if (got && r.n > 0) {
				const struct ref_ev *e = &r.v[0];

				PROP_CHECK(ev.at == e->at);
				PROP_CHECK(ev.prio == e->prio);
				PROP_CHECK(ev.type == e->type);
				PROP_CHECK(ev.a == e->a);
				PROP_CHECK(ev.b == e->b);
				PROP_CHECK(ev.handle == e->h);
				r.now = e->at;
				ref_remove(&r, 0);
			}
		}
		PROP_CHECK(evq_len(&q) == r.n);
		PROP_CHECK(evq_now(&q) == r.now);
		PROP_CHECK(evq_peek_time(&q) == (r.n ? r.v[0].at : EVQ_NEVER));
		if (nissued) {
			evq_handle h = issued[rnd(&rs, nissued)];
			struct evq_event ev;
			long i = ref_find(&r, h);

			PROP_CHECK(evq_get(&q, h, &ev) == (i >= 0));
			if (i >= 0) {
				PROP_CHECK(ev.at == r.v[i].at && ev.prio == r.v[i].prio);
				PROP_CHECK(ev.a == r.v[i].a && ev.handle == h);
			}
		}
		if (prop_failures)
			break; /* diverged: the model's clock could now trip evq's asserts */
	}
	/* drain: everything left comes out in model order */
	while (r.n > 0 && !prop_failures) {
		struct evq_event ev;

		PROP_CHECK(evq_pop(&q, &ev));
		PROP_CHECK(ev.handle == r.v[0].h);
		ref_remove(&r, 0);
	}
	PROP_CHECK(!evq_pop(&q, NULL));
	evq_release(&q);
	free(r.v);
	free(issued);
}

/*
 * Cancels and reschedules leave stale nodes behind: they never come out,
 * and they are dropped when they outnumber the pending events, so the heap
 * stays within twice the pending events plus 64 nodes however often the
 * same events move.
 */
static void test_stale_nodes_bounded(void)
{
	struct evq q;
	evq_handle h[300];
	struct evq_event ev;
	int64_t last = -1;

	evq_init(&q);
	for (int i = 0; i < 300; i++)
		h[i] = evq_push(&q, 1000 + i, 0, 0, (uint64_t)i, 0);
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 300; i++)
			CU_ASSERT_EQUAL(evq_reschedule(&q, h[i], 1000 + (i * 7 + round) % 300, 0), 0);
		CU_ASSERT_TRUE(q.len <= 2 * q.live + 64);
	}
	for (int i = 0; i < 300; i += 2)
		CU_ASSERT_EQUAL(evq_cancel(&q, h[i]), 0);
	CU_ASSERT_EQUAL(evq_len(&q), 150);
	CU_ASSERT_TRUE(q.len <= 2 * q.live + 64);
	for (int i = 0; i < 150; i++) {
		CU_ASSERT_TRUE_FATAL(evq_pop(&q, &ev));
		CU_ASSERT_EQUAL(ev.a % 2, 1); /* cancelled ones never come out */
		CU_ASSERT_TRUE(ev.at >= last);
		last = ev.at;
	}
	CU_ASSERT_FALSE(evq_pop(&q, &ev));
	CU_ASSERT_EQUAL(evq_peek_time(&q), EVQ_NEVER);
	evq_release(&q);
}

static void test_property(void)
{
	static const uint64_t seeds[] = { 1, 2, 3, 0x9e3779b97f4a7c15u, 424242 };
	size_t i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		run_property(seeds[i], 20000, false);
	CU_ASSERT_EQUAL(prop_failures, 0);
}

static void test_property_seq_wrap(void)
{
	run_property(77, 20000, true);
	run_property(78, 20000, true);
	CU_ASSERT_EQUAL(prop_failures, 0);
}

/* Wrap with many equal keys pending: FIFO survives the renumbering. */
static void test_seq_wrap_fifo(void)
{
	struct evq q;
	struct evq_event ev;
	uint64_t i;

	evq_init(&q);
	evq_test_set_seq(&q, UINT32_MAX - 10);
	for (i = 0; i < 100; i++)
		evq_push(&q, 5, 0, 0, i, 0);
	for (i = 0; i < 100; i++) {
		CU_ASSERT_TRUE_FATAL(evq_pop(&q, &ev));
		CU_ASSERT_EQUAL_FATAL(ev.a, i);
	}
	evq_release(&q);
}

/* Large queue: grows, then pops in sorted order, then slots are reused. */
static void test_growth(void)
{
	struct evq q;
	struct evq_event ev;
	uint64_t rs = 99;
	int64_t prev = -1;
	int i, round;

	evq_init(&q);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 50000; i++)
			evq_push(&q, evq_now(&q) + (int64_t)rnd(&rs, 1000000), 0, 0, 0, 0);
		CU_ASSERT_EQUAL(evq_len(&q), 50000);
		for (i = 0; i < 50000; i++) {
			CU_ASSERT_TRUE_FATAL(evq_pop(&q, &ev));
			CU_ASSERT_FATAL(ev.at >= prev);
			prev = ev.at;
		}
		CU_ASSERT_EQUAL(evq_len(&q), 0);
	}
	/* slot indices stay below the peak: the free list recycles them */
	for (i = 0; i < 1000; i++)
		CU_ASSERT((uint32_t)evq_push(&q, prev, 0, 0, 0, 0) < 50000);
	evq_release(&q);
	evq_init(&q); /* usable again after release + init */
	CU_ASSERT_EQUAL(evq_len(&q), 0);
	evq_release(&q);
}

static CU_TestInfo evq_tests[] = {
	{ "empty queue", test_empty },
	{ "order by time, priority, push order", test_order },
	{ "fifo among equal time and priority", test_fifo_ties },
	{ "fifo with one key", test_fifo_same_key },
	{ "stale handles fail cleanly", test_stale_handles },
	{ "reschedule", test_reschedule },
	{ "stale nodes of cancels and reschedules stay bounded", test_stale_nodes_bounded },
	{ "property: random ops vs sorted model", test_property },
	{ "property: across sequence wrap", test_property_seq_wrap },
	{ "sequence wrap keeps fifo", test_seq_wrap_fifo },
	{ "growth and slot reuse", test_growth },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("evq", evq_tests);
}
