#include "sim/load/manifest.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/admission.h"
#include "sim/load/scenario.h"

void man_set_init(struct man_set *s)
{
	memset(s, 0, sizeof(*s));
}

void man_set_release(struct man_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		obj_free(s->objs[i]);
	free(s->objs);
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->slots);
	for (size_t i = 0; i < s->nignored; i++)
		free(s->ignored[i].text);
	free(s->ignored);
	man_rejected_release(s->rejected, s->nrejected);
	memset(s, 0, sizeof(*s));
}

void man_rejected_release(struct man_rejected *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++) {
		free(r[i].kind);
		free(r[i].ns);
		free(r[i].name);
		obj_strmap_release(&r[i].labels);
		free(r[i].project);
	}
	free(r);
}

/* The set's own copy of @file (one per distinct name). */
static const char *intern_file(struct man_set *s, const char *file)
{
	for (size_t i = s->nfiles; i-- > 0;)
		if (strcmp(s->files[i], file) == 0)
			return s->files[i];
	s->files = xreallocarray(s->files, s->nfiles + 1, sizeof(*s->files));
	s->files[s->nfiles] = xstrdup(file);
	return s->files[s->nfiles++];
}

/* FNV-1a over kind, ns and name, NUL-separated. */
static uint64_t ident_hash(const char *kind, const char *ns, const char *name)
{
	uint64_t h = 1469598103934665603ull;
	const char *parts[3] = { kind, ns, name };

	for (int p = 0; p < 3; p++) {
		for (const char *c = parts[p]; *c; c++) {
			h ^= (unsigned char)*c;
			h *= 1099511628211ull;
		}
		h ^= 0xff;
		h *= 1099511628211ull;
	}
	return h;
}

static bool same_ident(const struct obj *o, const char *kind, const char *ns, const char *name)
{
	return strcmp(o->kind, kind) == 0 && strcmp(o->ns, ns) == 0 && strcmp(o->name, name) == 0;
}

/* Slot of the object with this identity, or of the empty slot where it would go. */
static size_t find_slot(const struct man_set *s, const char *kind, const char *ns, const char *name)
{
	size_t mask = s->nslots - 1;
	size_t i = (size_t)ident_hash(kind, ns, name) & mask;

	while (s->slots[i] && !same_ident(s->objs[s->slots[i] - 1], kind, ns, name))
		i = (i + 1) & mask;
	return i;
}

static void grow_index(struct man_set *s)
{
	free(s->slots);
	s->nslots = s->nslots ? s->nslots * 2 : 64;
	s->slots = xcalloc(s->nslots, sizeof(*s->slots));
	for (size_t k = 0; k < s->n; k++) {
		const struct obj *o = s->objs[k];

		s->slots[find_slot(s, o->kind, o->ns, o->name)] = k + 1;
	}
}

struct obj *man_find(const struct man_set *s, const char *kind, const char *ns, const char *name)
{
	size_t i;

	if (!s->nslots)
		return NULL;
	i = find_slot(s, kind, ns ? ns : "", name);
	return s->slots[i] ? s->objs[s->slots[i] - 1] : NULL;
}

/* Adds @o (stolen) unless its identity is taken; then reports and frees it. */
static int add_obj(struct man_set *s, struct obj *o, struct diag *d)
{
	size_t i;

	if ((s->n + 1) * 2 > s->nslots)
		grow_index(s);
	i = find_slot(s, o->kind, o->ns, o->name);
	if (s->slots[i]) {
		const struct obj *first = s->objs[s->slots[i] - 1];

		if (o->ns[0])
			diag_error(d, o->src.file, o->src.mark,
				   "%s \"%s/%s\" already exists: the same kind, namespace and name appear twice",
				   o->kind, o->ns, o->name);
		else
			diag_error(d, o->src.file, o->src.mark,
				   "%s \"%s\" already exists: the same kind and name appear twice",
				   o->kind, o->name);
		diag_note(d, first->src.file, first->src.mark, "first defined here");
		if (!s->snapdup_file && !first->status != !o->status) {
			const struct obj *plain = first->status ? o : first;

			s->snapdup_file = plain->src.file;
			s->snapdup_mark = plain->src.mark;
		}
		obj_free(o);
		return -1;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->objs = xreallocarray(s->objs, s->cap, sizeof(*s->objs));
	}
	s->objs[s->n++] = o;
	s->slots[i] = s->n;
	return 0;
}

/* What a refused document claims a selector would match it by: its labels and project. */
static void claimed_selection(const struct val *doc, struct man_rejected *r)
{
	const struct val *labels = val_path(doc, "metadata.labels");
	const struct val *project = val_path(doc, "spec.projectRef.name");

	obj_strmap_init(&r->labels);
	r->labels_known = !labels || labels->type == VAL_NULL || labels->type == VAL_MAP;
	for (size_t i = 0; r->labels_known && labels && labels->type == VAL_MAP && i < labels->u.map.n; i++) {
		const struct val *v = labels->u.map.items[i].v;

		if (v->type != VAL_STRING) {
			r->labels_known = false;
			obj_strmap_release(&r->labels);
			obj_strmap_init(&r->labels);
		} else {
			obj_strmap_set(&r->labels, labels->u.map.items[i].key, v->u.s);
		}
	}
	r->project = project && project->type == VAL_STRING ? xstrdup(project->u.s) : NULL;
}

static int admit_one(const char *file, const struct val *doc, struct man_set *s, struct diag *d)
{
	struct obj *o;
	int rc = adm_admit(file, doc, &o, d);

	if (rc < 0) {
		struct man_rejected r = { 0 };

		s->nrefused++;
		if (adm_identity(doc, &r.kind, &r.ns, &r.name)) {
			claimed_selection(doc, &r);
			s->rejected = xreallocarray(s->rejected, s->nrejected + 1,
						    sizeof(*s->rejected));
			s->rejected[s->nrejected++] = r;
		}
		return -1;
	}
	if (rc == ADM_IGNORED) {
		s->ignored = xreallocarray(s->ignored, s->nignored + 1, sizeof(*s->ignored));
		s->ignored[s->nignored++] = (struct man_ignored){ adm_describe_ignored(doc), file,
								  doc->mark };
		return 0;
	}
	if (add_obj(s, o, d) < 0) {
		s->nrefused++;
		return -1;
	}
	return 0;
}

/* Whether @it is magos-sim's own Scenario (by kind, or by its API group), not an object. */
static bool is_scenario_item(const struct val *it)
{
	const char *av = val_str(val_map_get(it, "apiVersion"), "");

	return strcmp(val_str(val_map_get(it, "kind"), ""), SCN_KIND) == 0 ||
	       strncmp(av, "magos-sim/", strlen("magos-sim/")) == 0;
}

int man_load_doc(const char *file, const struct val *doc, struct man_set *s, struct diag *d)
{
	const char *f = intern_file(s, file);
	const struct val *items;
	int rc = 0;

	if (!doc || doc->type != VAL_MAP ||
	    strcmp(val_str(val_map_get(doc, "kind"), ""), "List") != 0)
		return admit_one(f, doc, s, d);
	/* kind: List, as `kubectl get -o yaml` prints several objects. */
	if (strcmp(val_str(val_map_get(doc, "apiVersion"), ""), "v1") != 0) {
		const struct val *av = val_map_get(doc, "apiVersion");

		diag_error(d, f, av ? av->mark : doc->mark,
			   "kind List needs apiVersion \"v1\", not \"%s\"", val_str(av, ""));
		s->nrefused++;
		return -1;
	}
	for (size_t i = 0; i < doc->u.map.n; i++) {
		const struct val_kv *kv = &doc->u.map.items[i];

		if (strcmp(kv->key, "apiVersion") && strcmp(kv->key, "kind") &&
		    strcmp(kv->key, "items") && strcmp(kv->key, "metadata")) {
			diag_error(d, f, kv->key_mark, "List: unknown field \"%s\"", kv->key);
			diag_note(d, f, kv->key_mark, "accepted fields: apiVersion, kind, metadata, items");
			rc = -1;
		}
	}
	items = val_map_get(doc, "items");
	if (!items || items->type != VAL_LIST) {
		diag_error(d, f, items ? items->mark : doc->mark,
			   items ? "List: items: Invalid value: \"%s\": items in body must be of type array" :
				   "List: items: Required value%s",
			   items ? val_type_name(items->type) : "");
		s->nrefused++;
		return -1;
	}
	for (size_t i = 0; i < items->u.list.n; i++) {
		const struct val *it = items->u.list.items[i];

		if (it->type == VAL_MAP && strcmp(val_str(val_map_get(it, "kind"), ""), "List") == 0) {
			diag_error(d, f, it->mark, "List: items[%zu]: a List cannot contain a List", i);
			s->nrefused++;
			rc = -1;
			continue;
		}
		if (it->type == VAL_MAP && is_scenario_item(it)) {
			/* The loader looks for it among the documents: as an item it would be dropped. */
			diag_error(d, f, it->mark,
				   "List: items[%zu]: a %s must be a top-level document of its own (after "
				   "a `---` line), not an item of a List",
				   i, SCN_KIND);
			s->nrefused++;
			rc = -1;
			continue;
		}
		if (admit_one(f, it, s, d) < 0)
			rc = -1;
	}
	return rc;
}

int man_load_docs(const struct yl_stream *st, struct man_set *s, struct diag *d)
{
	int rc = 0;

	for (size_t i = 0; i < st->n; i++)
		if (man_load_doc(st->file, st->docs[i].root, s, d) < 0)
			rc = -1;
	return rc;
}

int man_load_file(const char *path, struct man_set *s, struct diag *d)
{
	struct yl_stream st;
	int rc = yl_load_file(path, &st, d);

	if (man_load_docs(&st, s, d) < 0)
		rc = -1;
	yl_stream_release(&st);
	return rc;
}

struct obj **man_take(struct man_set *s, size_t *n)
{
	struct obj **objs = s->objs;

	*n = s->n;
	s->objs = NULL;
	s->n = s->cap = 0;
	free(s->slots);
	s->slots = NULL;
	s->nslots = 0;
	return objs;
}
