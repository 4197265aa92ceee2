/*
 * Object versions of the simulated API server: the reference-counted
 * holders of spec, status and rest that consecutive versions share, the
 * snapshots, and the metadata each version owns (see sim/cluster/api_int.h,
 * "Versions").
 */
#include "sim/cluster/apiserver.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/api_int.h"

/* ---- shared values and snapshots ---- */

struct shval *shval_new(struct val *v)
{
	struct shval *s;

	if (!v)
		return NULL;
	s = xmalloc(sizeof(*s));
	s->refs = 1;
	s->borrowed = false;
	s->v = v;
	return s;
}

struct shval *shval_borrow(const struct val *v)
{
	struct shval *s = shval_new((struct val *)v); /* never written through: see the header */

	if (s)
		s->borrowed = true;
	return s;
}

void shval_release(struct shval *s)
{
	if (s && --s->refs == 0) {
		if (!s->borrowed)
			val_free(s->v);
		free(s);
	}
}

struct api_snap *snap_make(struct obj *o, struct shval *spec, struct shval *status,
			   struct shval *rest)
{
	struct api_snap *s = xmalloc(sizeof(*s));

	s->refs = 1;
	s->borrows = 0;
	s->o = o;
	s->meta = NULL;
	s->spec = spec;
	s->status = status;
	s->rest = rest;
	o->spec = spec ? spec->v : NULL;
	o->status = status ? status->v : NULL;
	o->rest = rest ? rest->v : NULL;
	return s;
}

const struct obj *api_snap_obj(const struct api_snap *s)
{
	return s->o;
}

struct api_snap *api_snap_retain(struct api_snap *s)
{
	s->refs++;
	return s;
}

/* Frees what is left of a version nobody references or borrows from. */
static void snap_destroy(struct api_snap *s)
{
	struct api_snap *owner = s->meta;

	if (owner)
		free(s->o); /* the struct only: every pointer in it is borrowed */
	else
		meta_free(s->o);
	free(s);
	if (owner && --owner->borrows == 0 && owner->refs == 0)
		snap_destroy(owner);
}

void api_snap_release(struct api_snap *s)
{
	if (!s || --s->refs > 0)
		return;
	shval_release(s->spec);
	shval_release(s->status);
	shval_release(s->rest);
	s->spec = s->status = s->rest = NULL;
	if (s->borrows == 0)
		snap_destroy(s);
}

struct api_snap *snap_shallow(struct api_snap *cur)
{
	struct api_snap *owner = cur->meta ? cur->meta : cur;
	struct obj *o = xmalloc(sizeof(*o));
	struct api_snap *s;

	*o = *cur->o;
	s = snap_make(o, shval_retain(cur->spec), shval_retain(cur->status),
		      shval_retain(cur->rest));
	s->meta = owner;
	owner->borrows++;
	return s;
}

/* ---- metadata of a version ---- */

static char **copy_finalizers(char *const *f, size_t n)
{
	char **r = n ? xcalloc(n, sizeof(*r)) : NULL;

	for (size_t i = 0; i < n; i++)
		r[i] = xstrdup(f[i]);
	return r;
}

struct obj *meta_clone(const struct obj *c)
{
	struct obj *o = obj_new(c->api_version, c->kind, c->ns, c->name);

	free(o->uid);
	o->uid = xstrdup(c->uid);
	obj_strmap_copy(&o->labels, &c->labels);
	obj_strmap_copy(&o->annotations, &c->annotations);
	o->finalizers = copy_finalizers(c->finalizers, c->nfinalizers);
	o->nfinalizers = c->nfinalizers;
	o->generation = c->generation;
	o->resource_version = c->resource_version;
	o->creation_ms = c->creation_ms;
	o->deletion_ms = c->deletion_ms;
	o->spec = c->spec;
	o->status = c->status;
	o->rest = c->rest;
	o->owner_refs = val_copy(c->owner_refs);
	o->src = c->src;
	return o;
}

void meta_free(struct obj *o)
{
	if (!o)
		return;
	o->spec = o->status = o->rest = NULL;
	obj_free(o);
}

bool meta_has_finalizer(const struct obj *o, const char *f)
{
	for (size_t i = 0; i < o->nfinalizers; i++) {
		if (strcmp(o->finalizers[i], f) == 0)
			return true;
	}
	return false;
}

bool meta_finalizers_equal(const struct obj *x, const struct obj *y)
{
	if (x->nfinalizers != y->nfinalizers)
		return false;
	for (size_t i = 0; i < x->nfinalizers; i++) {
		if (strcmp(x->finalizers[i], y->finalizers[i]) != 0)
			return false;
	}
	return true;
}

