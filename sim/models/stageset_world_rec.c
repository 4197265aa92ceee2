/*
 * The StageSet world's records and the helpers every part of it uses: see
 * sim/models/stageset_world_rec.h.
 */
#include "sim/models/stageset_world_rec.h"

#include <assert.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/core/rng.h"

/* ---------------------------------------------------------------- helpers */

static uint64_t fnv1a(const char *s, uint64_t h)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t mix64(uint64_t z)
{
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void swr_hexgen(const char *a, const char *b, uint64_t salt, size_t nhex, char *out)
{
	static const char digits[] = "0123456789abcdef";
	uint64_t h = mix64(fnv1a(b, fnv1a(a, 0xcbf29ce484222325ull)) ^ mix64(salt + 0x9e3779b97f4a7c15ull));

	for (size_t i = 0; i < nhex; i++) {
		uint64_t v = mix64(h + (i / 16 + 1) * 0x9e3779b97f4a7c15ull);

		out[i] = digits[(v >> (4 * (i % 16))) & 0xf];
	}
	out[nhex] = '\0';
}

void swr_uidgen(const char *a, const char *b, uint64_t salt, char *out)
{
	char hex[33];

	swr_hexgen(a, b, salt, 32, hex);
	snprintf(out, 37, "%.8s-%.4s-4%.3s-8%.3s-%.12s", hex, hex + 8, hex + 12, hex + 15,
		 hex + 20);
}

const char *swr_nz(const char *s)
{
	return s ? s : "";
}

void swr_set_err(struct ssc_err *e, enum ssc_errc code, const char *msg)
{
	e->code = code;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
}

/* ---------------------------------------------------------------- draws */

/*
 * A stream id of up to six parts joined as written (numbers already text),
 * built without printf: the stack buffer @buf, or a new string when longer.
 */
static char *stream_id(char *buf, size_t len, const char *const *parts, size_t n)
{
	size_t total = 1;
	char *id, *p;

	for (size_t i = 0; i < n; i++)
		total += strlen(parts[i]);
	id = total <= len ? buf : xmalloc(total);
	p = id;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(parts[i]);

		memcpy(p, parts[i], l);
		p += l;
	}
	*p = '\0';
	return id;
}

char *swr_u32_text(uint32_t n, char *buf)
{
	char tmp[12];
	size_t l = 0, i = 0;

	do
		tmp[l++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	while (l > 0)
		buf[i++] = tmp[--l];
	buf[i] = '\0';
	return buf;
}

static void seed_stream(const struct sw_world *w, const char *const *parts, size_t n, struct rng *r)
{
	char buf[SWR_ID_STACK];
	char *id = stream_id(buf, sizeof(buf), parts, n);

	rng_stream(r, w->s.seed, w->s.trial, id);
	kb_drop(id, buf);
}

int64_t swr_draw_ms(const struct sw_world *w, const struct dist *d, const char *const *parts,
		       size_t n)
{
	struct rng r = { 0, 1 };
	gsl_rng g;

	if (d->kind != DIST_CONSTANT)
		seed_stream(w, parts, n, &r);
	rng_gsl_wrap(&g, &r);
	return dist_sample_ms(d, &g);
}

bool swr_draw_p(const struct sw_world *w, double p, const char *const *parts, size_t n)
{
	struct rng r;

	if (!(p > 0))
		return false;
	if (p >= 1)
		return true;
	seed_stream(w, parts, n, &r);
	return rng_uniform01(&r) < p;
}

/* ---------------------------------------------------------------- members */

const struct obj_strmap swr_empty_map;

const struct swr_snap *swr_snap_at(const struct swr_member *mb, int64_t t_ms)
{
	size_t i = mb->nsnaps;

	while (i > 1 && mb->snaps[i - 1].from_ms > t_ms)
		i--;
	return &mb->snaps[i - 1];
}

bool swr_same_map(const struct obj_strmap *a, const struct obj_strmap *b)
{
	return obj_strmap_equal(a ? a : &swr_empty_map, b ? b : &swr_empty_map);
}

struct swr_member *swr_member_find(const struct sw_world *w, const char *ns, const char *name)
{
	char buf[SWR_ID_STACK];
	char *k = kb_join2(buf, sizeof(buf), ns, name);
	size_t pos;
	bool found = si_get(&w->mem_ix, k, &pos);

	kb_drop(k, buf);
	return found ? w->mem[pos] : NULL;
}

struct swr_mstage *swr_stage_rec(struct swr_member *mb, const char *name)
{
	for (size_t i = 0; i < mb->nst; i++)
		if (strcmp(mb->st[i].name, name) == 0)
			return &mb->st[i];
	mb->st = xreallocarray(mb->st, mb->nst + 1, sizeof(*mb->st));
	memset(&mb->st[mb->nst], 0, sizeof(mb->st[0]));
	mb->st[mb->nst].name = xstrdup(name);
	mb->st[mb->nst].drawn = SWR_NONE;
	mb->st[mb->nst].ready_ms = mb->st[mb->nst].failed_ms = SW_NEVER;
	mb->st[mb->nst].exprs_ready_ms = mb->st[mb->nst].exprs_failed_ms = SW_NEVER;
	return &mb->st[mb->nst++];
}

const struct swr_mstage *swr_stage_find(const struct swr_member *mb, const char *name)
{
	for (size_t i = 0; mb && i < mb->nst; i++)
		if (strcmp(mb->st[i].name, name) == 0)
			return &mb->st[i];
	return NULL;
}

const char *swr_stage_name(const struct sw_member *m, size_t stage)
{
	return m->spec && stage < m->spec->nstages ? swr_nz(m->spec->stages[stage].name) : "";
}

/* ---------------------------------------------------------------- release */

void swr_member_free(struct swr_member *mb)
{
	for (size_t i = 0; i < mb->nsnaps; i++) {
		obj_strmap_release(&mb->snaps[i].labels);
		obj_strmap_release(&mb->snaps[i].ns_labels);
	}
	free(mb->snaps);
	free(mb->srcs);
	for (size_t i = 0; i < mb->nst; i++) {
		free(mb->st[i].name);
		free(mb->st[i].revision);
		free(mb->st[i].version);
		free(mb->st[i].try_rev);
	}
	free(mb->st);
	for (size_t i = 0; i < mb->ndrawn; i++)
		free((char *)mb->drawn[i].version);
	free(mb->drawn);
	free(mb->faults);
	si_release(&mb->acts);
	free(mb->actn);
	free(mb->ns);
	free(mb->name);
	free(mb);
}

void swr_source_free(struct swr_source *src)
{
	free(src->kind);
	free(src->ns);
	free(src->name);
	free(src->back_api);
	free(src->back_kind);
	free(src->refs);
	free(src->reach);
	for (size_t i = 0; i < src->nobjs; i++)
		obj_free(src->objs[i].o);
	free(src->objs);
	free(src);
}
