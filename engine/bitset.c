#include "engine/bitset.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

void bs_init(struct bs_set *s, size_t n)
{
	size_t words = (n + 63) / 64, sums = (words + 63) / 64;

	s->bits = xcalloc(words ? words : 1, sizeof(*s->bits));
	s->sum = xcalloc(sums ? sums : 1, sizeof(*s->sum));
	s->n = n;
	s->count = 0;
}

void bs_release(struct bs_set *s)
{
	if (!s)
		return;
	free(s->bits);
	free(s->sum);
	memset(s, 0, sizeof(*s));
}

bool bs_has(const struct bs_set *s, size_t i)
{
	assert(i < s->n);
	return (s->bits[i / 64] >> (i % 64)) & 1;
}

void bs_put(struct bs_set *s, size_t i, bool on)
{
	uint64_t *w, bit;

	assert(i < s->n);
	w = &s->bits[i / 64];
	bit = (uint64_t)1 << (i % 64);
	if (on == ((*w & bit) != 0))
		return;
	if (on) {
		*w |= bit;
		s->count++;
		s->sum[i / 4096] |= (uint64_t)1 << ((i / 64) % 64);
	} else {
		*w &= ~bit;
		s->count--;
		if (!*w)
			s->sum[i / 4096] &= ~((uint64_t)1 << ((i / 64) % 64));
	}
}

size_t bs_next(const struct bs_set *s, size_t from)
{
	size_t words = (s->n + 63) / 64, sums = (words + 63) / 64;
	size_t w, sw;
	uint64_t m;

	if (from >= s->n || !s->count)
		return BS_NONE;
	/* the rest of @from's own word */
	w = from / 64;
	m = s->bits[w] & (~(uint64_t)0 << (from % 64));
	if (m)
		return w * 64 + (size_t)__builtin_ctzll(m);
	/* the next non-empty word, through the summary */
	w++;
	sw = w / 64;
	if (sw >= sums)
		return BS_NONE;
	m = w % 64 ? s->sum[sw] & (~(uint64_t)0 << (w % 64)) : s->sum[sw];
	while (!m) {
		if (++sw >= sums)
			return BS_NONE;
		m = s->sum[sw];
	}
	w = sw * 64 + (size_t)__builtin_ctzll(m);
	return w * 64 + (size_t)__builtin_ctzll(s->bits[w]);
}
