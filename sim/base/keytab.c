/* Records found by "ns/name": see sim/base/keytab.h. */
#include "sim/base/keytab.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/keybuf.h"

void kt_init(struct keytab *t, size_t size)
{
	assert(size > 0);
	*t = (struct keytab){ .size = size };
}

size_t kt_at(struct keytab *t, const char *ns, const char *name, bool *added)
{
	char buf[256], *k = kb_join2(buf, sizeof(buf), ns, name);
	size_t pos;
	bool add = !si_get(&t->idx, k, &pos);

	if (add) {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 16;
			t->v = xreallocarray(t->v, t->cap, t->size);
		}
		pos = t->n++;
		memset((char *)t->v + pos * t->size, 0, t->size);
		si_put(&t->idx, k, pos);
	}
	kb_drop(k, buf);
	if (added)
		*added = add;
	return pos;
}

void *kt_get(const struct keytab *t, const char *ns, const char *name)
{
	char buf[256], *k = kb_join2(buf, sizeof(buf), ns, name);
	size_t pos;
	bool hit = si_get(&t->idx, k, &pos);

	kb_drop(k, buf);
	return hit ? kt_item(t, pos) : NULL;
}

void *kt_item(const struct keytab *t, size_t pos)
{
	assert(pos < t->n);
	return (char *)t->v + pos * t->size;
}

void kt_release(struct keytab *t)
{
	if (!t)
		return;
	free(t->v);
	si_release(&t->idx);
	*t = (struct keytab){ .size = t->size };
}
