#include "sim/base/strindex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void grow(struct strindex *x)
{
	struct strindex old = *x;

	x->cap = old.cap ? old.cap * 2 : 64;
	x->keys = xcalloc(x->cap, sizeof(char *));
	x->pos = xcalloc(x->cap, sizeof(size_t));
	x->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i]) {
			si_put(x, old.keys[i], old.pos[i]);
			free(old.keys[i]);
		}
	free(old.keys);
	free(old.pos);
}

void si_put(struct strindex *x, const char *key, size_t pos)
{
	size_t i;

	if ((x->n + 1) * 2 > x->cap)
		grow(x);
	i = (size_t)hash_str(key) & (x->cap - 1);
	while (x->keys[i] && strcmp(x->keys[i], key) != 0)
		i = (i + 1) & (x->cap - 1);
	if (!x->keys[i]) {
		x->keys[i] = xstrdup(key);
		x->n++;
	}
	x->pos[i] = pos;
}

bool si_get(const struct strindex *x, const char *key, size_t *pos)
{
	size_t i;

	if (!x->cap)
		return false;
	i = (size_t)hash_str(key) & (x->cap - 1);
	while (x->keys[i]) {
		if (strcmp(x->keys[i], key) == 0) {
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
	memset(x, 0, sizeof(*x));
}
