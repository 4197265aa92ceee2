#include "sim/core/timeline.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/strindex.h"

/*
 * Strings live in arena chunks that are never reallocated, so a pointer to an
 * interned string stays valid for the timeline's life.  The intern table is
 * open addressing (linear probing) over ids, with the full hash kept beside
 * each id so most probes never touch the string.
 */

#define CHUNK_MIN 65536

struct chunk {
	struct chunk *next;
	size_t used, cap;
	char data[];
};

struct slot {
	uint32_t id; /* 0 = empty */
	uint32_t hash;
};

struct notice_rec {
	int64_t t_ms;
	enum tl_severity severity;
	const char *text;
	struct tl_objref *related;
	size_t nrelated;
};

/* Records live in blocks of REC_BLOCK, never moved: no copying on growth, slack under one block. */
#define REC_SHIFT 12
#define REC_BLOCK ((size_t)1 << REC_SHIFT)

struct tl {
	struct tl_rec **blocks;
	size_t nblocks, capblocks;
	size_t nrecs;

	const char **strs; /* strs[id]; strs[0] = NULL */
	size_t nstrs, capstrs;
	struct slot *slots;
	size_t nslots; /* power of two */
	struct chunk *chunks;
	size_t chunk_bytes;

	struct notice_rec *notices;
	size_t nnotices, capnotices;
};

static const char *arena_copy(struct tl *tl, const char *s, size_t len)
{
	struct chunk *c = tl->chunks;
	char *p;

	if (!c || c->cap - c->used < len + 1) {
		size_t cap = len + 1 > CHUNK_MIN ? len + 1 : CHUNK_MIN;

		c = xmalloc(sizeof(*c) + cap);
		c->next = tl->chunks;
		c->used = 0;
		c->cap = cap;
		tl->chunks = c;
		tl->chunk_bytes += sizeof(*c) + cap;
	}
	p = c->data + c->used;
	memcpy(p, s, len + 1);
	c->used += len + 1;
	return p;
}

static void rehash(struct tl *tl, size_t nslots)
{
	struct slot *old = tl->slots;
	size_t oldn = tl->nslots;

	tl->slots = xcalloc(nslots, sizeof(*tl->slots));
	tl->nslots = nslots;
	for (size_t i = 0; i < oldn; i++) {
		size_t j;

		if (!old[i].id)
			continue;
		for (j = old[i].hash & (nslots - 1); tl->slots[j].id; j = (j + 1) & (nslots - 1))
			;
		tl->slots[j] = old[i];
	}
	free(old);
}

struct tl *tl_new(void)
{
	struct tl *tl = xcalloc(1, sizeof(*tl));

	tl->capstrs = 256;
	tl->strs = xcalloc(tl->capstrs, sizeof(*tl->strs));
	tl->nstrs = 1; /* id 0 is NULL */
	rehash(tl, 512);
	return tl;
}

void tl_free(struct tl *tl)
{
	if (!tl)
		return;
	while (tl->chunks) {
		struct chunk *next = tl->chunks->next;

		free(tl->chunks);
		tl->chunks = next;
	}
	for (size_t i = 0; i < tl->nnotices; i++)
		free(tl->notices[i].related);
	free(tl->notices);
	free(tl->slots);
	free(tl->strs);
	for (size_t i = 0; i < tl->nblocks; i++)
		free(tl->blocks[i]);
	free(tl->blocks);
	free(tl);
}

tl_str tl_intern(struct tl *tl, const char *s)
{
	size_t len, j;
	uint32_t h;

	if (!s)
		return 0;
	h = (uint32_t)si_hash(s, &len); /* the mixed low bits pick the slot */
	for (j = h & (tl->nslots - 1); tl->slots[j].id; j = (j + 1) & (tl->nslots - 1)) {
		if (tl->slots[j].hash == h && strcmp(tl->strs[tl->slots[j].id], s) == 0)
			return tl->slots[j].id;
	}
	assert(tl->nstrs < UINT32_MAX);
	if (tl->nstrs == tl->capstrs) {
		tl->capstrs *= 2;
		tl->strs = xreallocarray(tl->strs, tl->capstrs, sizeof(*tl->strs));
	}
	tl->strs[tl->nstrs] = arena_copy(tl, s, len);
	tl->slots[j].id = (uint32_t)tl->nstrs;
	tl->slots[j].hash = h;
	tl->nstrs++;
	/* keep the load factor under 1/2 */
	if (tl->nstrs * 2 > tl->nslots)
		rehash(tl, tl->nslots * 2);
	return (tl_str)(tl->nstrs - 1);
}

const char *tl_str_get(const struct tl *tl, tl_str id)
{
	assert(id < tl->nstrs);
	return tl->strs[id];
}

size_t tl_append_rec(struct tl *tl, const struct tl_rec *r)
{
	if (tl->nrecs == tl->nblocks * REC_BLOCK) {
		if (tl->nblocks == tl->capblocks) {
			tl->capblocks = tl->capblocks ? tl->capblocks * 2 : 16;
			tl->blocks = xreallocarray(tl->blocks, tl->capblocks, sizeof(*tl->blocks));
		}
		tl->blocks[tl->nblocks++] = xreallocarray(NULL, REC_BLOCK, sizeof(struct tl_rec));
	}
	tl->blocks[tl->nrecs >> REC_SHIFT][tl->nrecs & (REC_BLOCK - 1)] = *r;
	return tl->nrecs++;
}

size_t tl_append(struct tl *tl, const struct tl_entry *e)
{
	struct tl_rec r = {
		.t_ms = e->t_ms,
		.resource_version = e->resource_version,
		.generation = e->generation < 0 ? 0
			      : e->generation > (int64_t)UINT32_MAX ? UINT32_MAX
								     : (uint32_t)e->generation,
		.kind = tl_intern(tl, e->kind),
		.ns = tl_intern(tl, e->ns),
		.name = tl_intern(tl, e->name),
		.detail = tl_intern(tl, e->detail),
		.phase = tl_intern(tl, e->phase),
		.reason = tl_intern(tl, e->reason),
		.message = tl_intern(tl, e->message),
		.cause = tl_intern(tl, e->cause),
		.change = (uint8_t)e->change,
	};

	return tl_append_rec(tl, &r);
}

size_t tl_count(const struct tl *tl)
{
	return tl->nrecs;
}

const struct tl_rec *tl_rec_at(const struct tl *tl, size_t i)
{
	assert(i < tl->nrecs);
	return &tl->blocks[i >> REC_SHIFT][i & (REC_BLOCK - 1)];
}

void tl_get(const struct tl *tl, size_t i, struct tl_entry *out)
{
	const struct tl_rec *r = tl_rec_at(tl, i);

	out->t_ms = r->t_ms;
	out->kind = tl->strs[r->kind];
	out->ns = tl->strs[r->ns];
	out->name = tl->strs[r->name];
	out->change = (enum tl_change)r->change;
	out->detail = tl->strs[r->detail];
	out->phase = tl->strs[r->phase];
	out->reason = tl->strs[r->reason];
	out->message = tl->strs[r->message];
	out->cause = tl->strs[r->cause];
	out->resource_version = r->resource_version;
	out->generation = r->generation;
}

size_t tl_notice_add(struct tl *tl, int64_t t_ms, enum tl_severity sev, const char *text,
		     const struct tl_objref *related, size_t nrelated)
{
	struct notice_rec *n;

	if (tl->nnotices == tl->capnotices) {
		tl->capnotices = tl->capnotices ? tl->capnotices * 2 : 8;
		tl->notices = xreallocarray(tl->notices, tl->capnotices, sizeof(*tl->notices));
	}
	n = &tl->notices[tl->nnotices];
	n->t_ms = t_ms;
	n->severity = sev;
	n->text = tl->strs[tl_intern(tl, text)];
	n->nrelated = nrelated;
	n->related = nrelated ? xcalloc(nrelated, sizeof(*n->related)) : NULL;
	for (size_t i = 0; i < nrelated; i++) {
		n->related[i].kind = tl->strs[tl_intern(tl, related[i].kind)];
		n->related[i].ns = tl->strs[tl_intern(tl, related[i].ns)];
		n->related[i].name = tl->strs[tl_intern(tl, related[i].name)];
		n->related[i].count = related[i].count;
	}
	return tl->nnotices++;
}

size_t tl_notice_count(const struct tl *tl)
{
	return tl->nnotices;
}

void tl_notice_get(const struct tl *tl, size_t i, struct tl_notice *out)
{
	const struct notice_rec *n;

	assert(i < tl->nnotices);
	n = &tl->notices[i];
	out->t_ms = n->t_ms;
	out->severity = n->severity;
	out->text = n->text;
	out->related = n->related;
	out->nrelated = n->nrelated;
}

bool tl_status_names(const char *detail, const char *field, bool *removed)
{
	const char *p = detail && !strncmp(detail, "status: ", 8) ? detail + 8 : NULL;
	size_t n = strlen(field);

	while (p && *p) {
		const char *end = strstr(p, ", ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool minus = *p == '-';

		if (len - minus == n && !strncmp(p + minus, field, n)) {
			*removed = minus;
			return true;
		}
		p = end ? end + 2 : NULL;
	}
	return false;
}

const char *tl_change_name(enum tl_change c)
{
	switch (c) {
	case TL_CREATED:
		return "created";
	case TL_UPDATED:
		return "updated";
	case TL_STATUS:
		return "status";
	case TL_DELETING:
		return "deleting";
	case TL_DELETED:
		return "deleted";
	case TL_EVENT:
		return "event";
	}
	return "?";
}

const char *tl_severity_name(enum tl_severity s)
{
	switch (s) {
	case TL_INFO:
		return "info";
	case TL_WARNING:
		return "warning";
	case TL_ERROR:
		return "error";
	}
	return "?";
}

size_t tl_memory(const struct tl *tl)
{
	size_t m = sizeof(*tl) + tl->nblocks * REC_BLOCK * sizeof(struct tl_rec) +
		   tl->capblocks * sizeof(*tl->blocks) + tl->capstrs * sizeof(*tl->strs) +
		   tl->nslots * sizeof(*tl->slots) + tl->chunk_bytes +
		   tl->capnotices * sizeof(*tl->notices);

	for (size_t i = 0; i < tl->nnotices; i++)
		m += tl->notices[i].nrelated * sizeof(struct tl_objref);
	return m;
}
