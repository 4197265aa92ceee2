#include "sim/base/strindex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

uint64_t si_hash(const char *s, size_t *len)
{
	size_t n = strlen(s);
	uint64_t h = 1469598103934665603ULL ^ n, w;

	if (len)
		*len = n;
	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	h ^= h >> 32;
	return h;
}

static void grow(struct strindex *x)
{
	struct strindex old = *x;

	x->cap = old.cap ? old.cap * 2 : 64;
	x->keys = xcalloc(x->cap, sizeof(char *));
	x->pos = xcalloc(x->cap, sizeof(size_t));
	x->hash = xcalloc(x->cap, sizeof(uint64_t));
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i]) {
			size_t j = (size_t)old.hash[i] & (x->cap - 1);

			while (x->keys[j])
				j = (j + 1) & (x->cap - 1);
			x->keys[j] = old.keys[i]; /* the key moves, uncopied */
			x->pos[j] = old.pos[i];
			x->hash[j] = old.hash[i];
		}
	free(old.keys);
	free(old.pos);
	free(old.hash);
}

void si_put(struct strindex *x, const char *key, size_t pos)
{
	uint64_t h = si_hash(key, NULL);
	size_t i;

	if ((x->n + 1) * 2 > x->cap)
		grow(x);
	i = (size_t)h & (x->cap - 1);
	while (x->keys[i] && (x->hash[i] != h || strcmp(x->keys[i], key) != 0))
		i = (i + 1) & (x->cap - 1);
	if (!x->keys[i]) {
		x->keys[i] = xstrdup(key);
		x->hash[i] = h;
		x->n++;
	}
	x->pos[i] = pos;
}

bool si_get(const struct strindex *x, const char *key, size_t *pos)
{
	uint64_t h;
	size_t i;

	if (!x->cap)
		return false;
	h = si_hash(key, NULL);
	i = (size_t)h & (x->cap - 1);
	while (x->keys[i]) {
		if (x->hash[i] == h && strcmp(x->keys[i], key) == 0) {
			*pos = x->pos[i];
			return true;
		}
		i = (i + 1) & (x->cap - 1);
	}
	return false;
}

void si_release(struct strindex *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->cap; i++)
		free(x->keys[i]);
	free(x->keys);
	free(x->pos);
	free(x->hash);
	memset(x, 0, sizeof(*x));
}
