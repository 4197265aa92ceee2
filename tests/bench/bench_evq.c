/*
 * Event queue benchmark, the classic "hold" model: keep a fixed number of
 * events pending and repeat {pop the first; push one at now + a random
 * increment}.  One hold operation = one pop + one push.
 *
 *   bench_evq [N [PENDING]]   defaults: N = 20000000, PENDING = 10000
 *
 * Prints one line: "evq hold: <ops/s> ops/s (<PENDING> pending, <N> ops)".
 * Increments are uniform in [0, 2000) ms, so equal times (and so the
 * sequence-number tie-break) occur too.  The random source is a local
 * xorshift64 so the figure measures the queue, not a library.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim/core/evq.h"

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000000;
	long pending = argc > 2 ? strtol(argv[2], NULL, 10) : 10000;
	uint64_t rs = 0x2545f4914f6cdd1du, check = 0;
	struct evq q;
	struct evq_event ev;
	double t0, t1;
	long i;

	if (n <= 0 || pending <= 0) {
		fprintf(stderr, "usage: bench_evq [N [PENDING]]\n");
		return 2;
	}
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
		check += ev.a;
		evq_push(&q, ev.at + (int64_t)(xorshift64(&rs) % 2000), 0, ev.type, ev.a, 0);
	}
	t1 = seconds();
	if (evq_len(&q) != (size_t)pending || check == 0) {
		fprintf(stderr, "bench_evq: queue inconsistent after the run\n");
		return 70;
	}
	printf("evq hold: %.0f ops/s (%ld pending, %ld ops)\n", (double)n / (t1 - t0), pending, n);
	evq_release(&q);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "bench_evq: cannot write the result\n");
		return 4;
	}
	return 0;
}
