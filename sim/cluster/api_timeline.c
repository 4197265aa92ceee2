/*
 * What a write of the simulated API server records on the timeline: one
 * entry per real change, with the object's phase, reason and message, the
 * cause, and a bounded detail of what changed ("labels: +team=a; spec
 * (generation 2)").
 */
#include "sim/cluster/apiserver.h"

#include <string.h>

#include "sim/cluster/api_int.h"

void sb_put(struct sbuf *b, const char *s)
{
	size_t len = strlen(s);

	if (b->cut)
		return;
	if (b->n + len > DETAIL_MAX) {
		len = DETAIL_MAX - b->n;
		/* cut before a UTF-8 continuation byte, never inside a character */
		while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
			len--;
		b->cut = true;
	}
	memcpy(b->s + b->n, s, len);
	b->n += len;
	if (b->cut) {
		memcpy(b->s + b->n, "...", 3);
		b->n += 3;
	}
	b->s[b->n] = '\0';
}

/* Starts a "section: " or appends ", " within the current one. */
static void sb_item(struct sbuf *b, const char *section, bool *opened)
{
	if (!*opened) {
		if (b->n)
			sb_put(b, "; ");
		sb_put(b, section);
		sb_put(b, ": ");
		*opened = true;
	} else {
		sb_put(b, ", ");
	}
}

static void diff_strmap(struct sbuf *b, const char *section, const struct obj_strmap *x,
			const struct obj_strmap *y)
{
	size_t i = 0, j = 0;
	bool opened = false;

	while (i < x->n || j < y->n) {
		int c = i == x->n ? 1 : j == y->n ? -1 : strcmp(x->items[i].key, y->items[j].key);

		if (c < 0) {
			sb_item(b, section, &opened);
			sb_put(b, "-");
			sb_put(b, x->items[i++].key);
		} else if (c > 0) {
			sb_item(b, section, &opened);
			sb_put(b, "+");
			sb_put(b, y->items[j].key);
			sb_put(b, "=");
			sb_put(b, y->items[j++].value);
		} else {
			if (strcmp(x->items[i].value, y->items[j].value) != 0) {
				sb_item(b, section, &opened);
				sb_put(b, x->items[i].key);
				sb_put(b, "=");
				sb_put(b, x->items[i].value);
				sb_put(b, "\xe2\x86\x92"); /* → */
				sb_put(b, y->items[j].value);
			}
			i++;
			j++;
		}
	}
}

static void diff_finalizers(struct sbuf *b, const struct obj *x, const struct obj *y)
{
	bool opened = false;

	for (size_t i = 0; i < x->nfinalizers; i++) {
		if (!meta_has_finalizer(y, x->finalizers[i])) {
			sb_item(b, "finalizers", &opened);
			sb_put(b, "-");
			sb_put(b, x->finalizers[i]);
		}
	}
	for (size_t i = 0; i < y->nfinalizers; i++) {
		if (!meta_has_finalizer(x, y->finalizers[i])) {
			sb_item(b, "finalizers", &opened);
			sb_put(b, "+");
			sb_put(b, y->finalizers[i]);
		}
	}
	if (!opened && !meta_finalizers_equal(x, y)) {
		sb_item(b, "finalizers", &opened);
		sb_put(b, "reordered");
	}
}

void diff_meta(struct sbuf *b, const struct obj *x, const struct obj *y)
{
	diff_strmap(b, "labels", &x->labels, &y->labels);
	diff_strmap(b, "annotations", &x->annotations, &y->annotations);
	diff_finalizers(b, x, y);
}

/*
 * The value of @key in map @m (of @n entries), looking at slot @i first: an
 * object's next version keeps its fields in the same order (a merge patch
 * appends new ones), and its keys share their texts with the version before,
 * so the same slot usually holds the same pointer.
 */
static const struct val *same_slot_get(const struct val *m, size_t n, size_t i, const char *key)
{
	if (i < n && (m->u.map.items[i].key == key || strcmp(m->u.map.items[i].key, key) == 0))
		return m->u.map.items[i].v;
	return val_map_get(m, key);
}

void diff_map_keys(struct sbuf *b, const char *section, const struct val *x,
		   const struct val *y)
{
	bool opened = false;
	size_t nx = x && x->type == VAL_MAP ? x->u.map.n : 0;
	size_t ny = y && y->type == VAL_MAP ? y->u.map.n : 0;

	for (size_t i = 0; i < ny; i++) {
		const struct val_kv *kv = &y->u.map.items[i];
		const struct val *old = same_slot_get(x, nx, i, kv->key);

		if (old && val_equal(old, kv->v))
			continue;
		sb_item(b, section, &opened);
		sb_put(b, kv->key);
		if (strcmp(kv->key, "phase") == 0 && kv->v->type == VAL_STRING) {
			sb_put(b, " ");
			sb_put(b, val_str(old, ""));
			sb_put(b, "\xe2\x86\x92");
			sb_put(b, kv->v->u.s);
		}
	}
	for (size_t i = 0; i < nx; i++) {
		if (!same_slot_get(y, ny, i, x->u.map.items[i].key)) {
			sb_item(b, section, &opened);
			sb_put(b, "-");
			sb_put(b, x->u.map.items[i].key);
		}
	}
}

void change_record(struct api *a, const struct kindtab *k, const struct entry *e,
		   const struct obj *o, enum tl_change change, const char *detail)
{
	struct tl_rec r;
	const struct val *src = o->status;

	if (!a->tl)
		return;
	memset(&r, 0, sizeof(r));
	r.t_ms = a->now;
	r.resource_version = o->resource_version;
	r.generation = o->generation < 0 ? 0
		       : o->generation > (int64_t)UINT32_MAX ? UINT32_MAX
							      : (uint32_t)o->generation;
	r.kind = k->tkind;
	r.ns = e->tns;
	r.name = e->tname;
	r.change = (uint8_t)change;
	r.detail = detail && *detail ? tl_intern(a->tl, detail) : 0;
	r.phase = tl_intern(a->tl, val_str(val_map_get(o->status, "phase"), NULL));
	if (k->ready_from_condition)
		src = obj_ready_condition(o);
	r.reason = tl_intern(a->tl, val_str(val_map_get(src, "reason"), NULL));
	r.message = tl_intern(a->tl, val_str(val_map_get(src, "message"), NULL));
	r.cause = a->cause_fn ? a->cause_fn(a->cause_ctx) : 0;
	tl_append_rec(a->tl, &r);
}

