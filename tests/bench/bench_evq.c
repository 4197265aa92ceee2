/*
 * Event queue benchmark, the classic "hold" model: keep a fixed number of
 * events pending and repeat {pop the first; push one at now + a random
 * increment}.  One hold operation = one pop + one push.
 *
 *   bench_evq [N [PENDING [ROUNDS]]]   defaults: 20000000, 10000, 3
 *
 * Each round times the queue (sim/core/evq) and then a bare 4-ary heap on
 * the same increments: 16-byte nodes of (time, sequence), the queue's
 * branch-free key compare and bottom-up pop, and nothing else (no payload
 * slots, handles, priorities or stale nodes).  The bare heap is the floor of
 * the queue's algorithm; the ratio says what the queue's bookkeeping costs.
 * Prints one line per round and a last line with the medians over ROUNDS
 * (odd ROUNDS give a plain median):
 *   "evq hold: <ops/s> ops/s, bare 4-ary heap <ops/s> ops/s, evq/bare <r>
 *    (<PENDING> pending, <N> ops, median of <ROUNDS> alternating rounds)".
 * Increments are uniform in [0, 2000) ms, so equal times (and so the
 * sequence-number tie-break) occur too.  The random source is a local
 * xorshift64 so the figure measures the queue, not a library.  Memory: the
 * queue's (72 bytes an event) and the bare heap's (16 bytes a node), for
 * PENDING events each.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/xalloc.h"
#include "sim/core/evq.h"

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* A bare 4-ary min-heap node: time, then a sequence number (FIFO at equal times). */
struct bare_node {
	int64_t at;
	uint64_t seq;
};

/* The queue's key as one unsigned 128-bit number (see sim/core/evq.c). */
__extension__ typedef unsigned __int128 bare_key;

static inline int bare_less(const struct bare_node *x, const struct bare_node *y)
{
	bare_key kx = (bare_key)((uint64_t)x->at ^ (UINT64_C(1) << 63)) << 64 | x->seq;
	bare_key ky = (bare_key)((uint64_t)y->at ^ (UINT64_C(1) << 63)) << 64 | y->seq;

	return kx < ky;
}

/* Moves @x up from hole @i of @h until its parent is not greater. */
static void bare_sift_up(struct bare_node *h, size_t i, struct bare_node x)
{
	while (i > 0) {
		size_t p = (i - 1) / 4;

		if (!bare_less(&x, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = x;
}

/* Removes the root of @h (*@n nodes, at least one): the hole sinks to a leaf, the last node rises. */
static void bare_pop(struct bare_node *h, size_t *n)
{
	size_t len = --*n, i = 0;

	if (len == 0)
		return;
	for (;;) {
		size_t c = i * 4 + 1, best, k;

		if (c >= len)
			break;
		if (c + 3 < len) {
			size_t b01 = bare_less(&h[c + 1], &h[c]) ? c + 1 : c;
			size_t b23 = bare_less(&h[c + 3], &h[c + 2]) ? c + 3 : c + 2;

			best = bare_less(&h[b23], &h[b01]) ? b23 : b01;
		} else {
			best = c;
			for (k = c + 1; k < len; k++)
				best = bare_less(&h[k], &h[best]) ? k : best;
		}
		h[i] = h[best];
		i = best;
	}
	bare_sift_up(h, i, h[len]);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One round of the queue: fills @pending events, warms up, times @n hold operations; ops/s. */
static double round_evq(long n, long pending, uint64_t *check)
{
	uint64_t rs = 0x2545f4914f6cdd1du;
	struct evq q;
	struct evq_event ev;
	double t0, t1;
	long i;

	evq_init(&q);
	for (i = 0; i < pending; i++)
		evq_push(&q, (int64_t)(xorshift64(&rs) % 2000), 0, 1, (uint64_t)i, 0);
	/* warm-up: reach the steady-state time distribution before timing */
	for (i = 0; i < pending * 4; i++) {
		evq_pop(&q, &ev);
		evq_push(&q, ev.at + (int64_t)(xorshift64(&rs) % 2000), 0, ev.type, ev.a, 0);
	}
	t0 = seconds();
	for (i = 0; i < n; i++) {
		evq_pop(&q, &ev);
		*check += ev.a;
		evq_push(&q, ev.at + (int64_t)(xorshift64(&rs) % 2000), 0, ev.type, ev.a, 0);
	}
	t1 = seconds();
	if (evq_len(&q) != (size_t)pending)
		*check = 0;
	evq_release(&q);
	return (double)n / (t1 - t0);
}

/* The same round on the bare heap (payload: the sequence number's low bits are the event). */
static double round_bare(long n, long pending, uint64_t *check)
{
	uint64_t rs = 0x2545f4914f6cdd1du, seq = 0;
	struct bare_node *h = xreallocarray(NULL, (size_t)pending, sizeof(*h));
	size_t len = 0;
	double t0, t1;
	long i;

	for (i = 0; i < pending; i++) {
		struct bare_node x = {(int64_t)(xorshift64(&rs) % 2000), seq++};

		bare_sift_up(h, len++, x);
	}
	for (i = 0; i < pending * 4; i++) {
		struct bare_node x = {h[0].at + (int64_t)(xorshift64(&rs) % 2000), seq++};

		bare_pop(h, &len);
		bare_sift_up(h, len++, x);
	}
	t0 = seconds();
	for (i = 0; i < n; i++) {
		struct bare_node x = {h[0].at + (int64_t)(xorshift64(&rs) % 2000), seq++};

		*check += h[0].seq;
		bare_pop(h, &len);
		bare_sift_up(h, len++, x);
	}
	t1 = seconds();
	if (len != (size_t)pending)
		*check = 0;
	free(h);
	return (double)n / (t1 - t0);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Median of @v[0..@k), sorted in place. */
static double median(double *v, long k)
{
	qsort(v, (size_t)k, sizeof(*v), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000000;
	long pending = argc > 2 ? strtol(argv[2], NULL, 10) : 10000;
	long rounds = argc > 3 ? strtol(argv[3], NULL, 10) : 3;
	double evq_rate[64], bare_rate[64], ratio[64];
	long r;

	if (n <= 0 || pending <= 0 || pending > 100000000 || rounds <= 0 || rounds > 64) {
		fprintf(stderr, "usage: bench_evq [N [PENDING [ROUNDS]]] (PENDING <= 10^8, ROUNDS 1..64)\n");
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		uint64_t ce = 0, cb = 0;

		evq_rate[r] = round_evq(n, pending, &ce);
		bare_rate[r] = round_bare(n, pending, &cb);
		if (ce == 0 || cb == 0) {
			fprintf(stderr, "bench_evq: queue inconsistent after the run\n");
			return 70;
		}
		ratio[r] = evq_rate[r] / bare_rate[r];
		printf("evq hold round %ld: %.0f ops/s, bare 4-ary heap %.0f ops/s\n", r + 1,
		       evq_rate[r], bare_rate[r]);
	}
	printf("evq hold: %.0f ops/s, bare 4-ary heap %.0f ops/s, evq/bare %.2f "
	       "(%ld pending, %ld ops, median of %ld alternating rounds)\n",
	       median(evq_rate, rounds), median(bare_rate, rounds), median(ratio, rounds), pending, n,
	       rounds);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "bench_evq: cannot write the result\n");
		return 4;
	}
	return 0;
}
