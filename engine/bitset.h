#ifndef MAGOS_ENGINE_BITSET_H
#define MAGOS_ENGINE_BITSET_H

/*
 * A fixed-size set of small integers 0..n-1 with a count and a summary
 * level, for the incremental state of the engine passes: which members of a
 * step or a project are pending, allowed, grantable.  A pass walks the set
 * members in ascending order (the List order the engines answer in) in
 * O(n / 4096 + members) instead of O(n), and tests or flips one in O(1).
 *
 * Invariants: `count` is the number of set bits; bit w of `sum` is set
 * exactly when word w of `bits` is not zero.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bs_set {
	uint64_t *bits; /* ceil(n / 64) words, owned */
	uint64_t *sum;  /* ceil(n / 4096) words, owned */
	size_t n;       /* capacity in bits */
	size_t count;   /* set bits */
};

/* bs_init() - an empty set of capacity @n (may be 0).  Cannot fail (aborts on OOM). */
void bs_init(struct bs_set *s, size_t n);

/* bs_release() - frees what @s owns and zeroes it.  Accepts NULL. */
void bs_release(struct bs_set *s);

/* bs_has() - true when @i (< n, asserted) is in @s.  O(1). */
bool bs_has(const struct bs_set *s, size_t i);

/* bs_put() - adds @i (@on) or removes it (!@on); i < n (asserted).  O(1). */
void bs_put(struct bs_set *s, size_t i, bool on);

/*
 * bs_next() - the smallest member >= @from, or (size_t)-1 when there is
 * none (also for @from >= n).  Walking a set: for (i = bs_next(s, 0);
 * i != BS_NONE; i = bs_next(s, i + 1)).  Cost: O(words skipped / 64 + 1).
 */
size_t bs_next(const struct bs_set *s, size_t from);

#define BS_NONE ((size_t)-1)

#endif
