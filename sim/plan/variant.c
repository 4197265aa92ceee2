/*
 * Variants: spec.variants read with the schema module (so unknown keys get
 * the accepted ones in a note), patch targets looked up among the base's
 * objects, and a variant applied as a shallow copy of the base that owns
 * only what it changed.
 */
#include "sim/plan/variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/admission.h"
#include "sim/base/suggest.h"
#include "sim/cluster/schema.h"

/* ---------------------------------------------------------------- schema */

static const struct sch_field target_fields[] = {
	SCH_FIELD("apiVersion", &sch_string_nonempty),
	SCH_REQUIRED("kind", &sch_string_nonempty),
	SCH_FIELD("namespace", &sch_string_nonempty),
	SCH_REQUIRED("name", &sch_string_nonempty),
	SCH_END,
};
static const struct sch_node target_node = { .type = SCH_OBJECT, .fields = target_fields };

/* Kept as written: a null in a merge patch deletes, it must not be pruned. */
static const struct sch_node patch_map_node = { .type = SCH_OBJECT, .preserve_unknown = true };

static const struct sch_field patch_fields[] = {
	SCH_REQUIRED("target", &target_node),
	SCH_REQUIRED("merge", &patch_map_node),
	SCH_END,
};
static const struct sch_node patch_node = { .type = SCH_OBJECT, .fields = patch_fields };
static const struct sch_node patches_node = { .type = SCH_ARRAY, .items = &patch_node };

static const struct sch_field variant_fields[] = {
	SCH_REQUIRED("name", &sch_string_nonempty),
	SCH_FIELD("description", &sch_string),
	SCH_FIELD("patches", &patches_node),
	SCH_FIELD("models", &patch_map_node),
	SCH_END,
};
static const struct sch_node variant_node = { .type = SCH_OBJECT, .fields = variant_fields };

/* ---------------------------------------------------------------- helpers */

static void target_release(struct scn_target *t)
{
	free(t->api_version);
	free(t->kind);
	free(t->ns);
	free(t->name);
}

/* The namespace an omitted `namespace` stands for: "" for cluster-scoped kinds. */
static const char *default_ns(const char *kind)
{
	const struct adm_kind *k = adm_find_kind_named(kind);

	return k && !k->namespaced ? "" : "default";
}

/* Index of the object @t names in @objs, or -1. */
static long find_obj(struct obj *const *objs, size_t n, const struct scn_target *t)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(objs[i]->kind, t->kind) && !strcmp(objs[i]->ns, t->ns) &&
		    !strcmp(objs[i]->name, t->name) &&
		    (!t->api_version || !strcmp(objs[i]->api_version, t->api_version)))
			return (long)i;
	return -1;
}

/* "ns/name" or "name" (cluster-scoped).  New. */
static char *ref_text(const char *ns, const char *name)
{
	return xasprintf("%s%s%s", ns, ns[0] ? "/" : "", name);
}

/* A note listing (up to 8 of) the objects of @kind there are, or saying there is none. */
static void note_known(struct diag *d, const char *file, struct val_mark mark,
		       const struct scenario *s, const char *kind)
{
	char *list = xstrdup("");
	size_t n = 0;

	for (size_t i = 0; i < s->nobjs; i++) {
		char *r, *next;

		if (strcmp(s->objs[i]->kind, kind) != 0)
			continue;
		if (n++ >= 8)
			continue;
		r = ref_text(s->objs[i]->ns, s->objs[i]->name);
		next = xasprintf("%s%s\"%s\"", list, n > 1 ? ", " : "", r);
		free(r);
		free(list);
		list = next;
	}
	if (n == 0)
		diag_note(d, file, mark, "the inputs define no %s", kind);
	else
		diag_note(d, file, mark, "%s objects in the inputs: %s%s", kind, list,
			  n > 8 ? ", ..." : "");
	free(list);
}

/* @o as the manifest document the API server would admit.  New. */
static struct val *obj_doc(const struct obj *o)
{
	struct val *doc = val_new_map(), *md;

	val_map_set(doc, "apiVersion", val_new_string(o->api_version));
	val_map_set(doc, "kind", val_new_string(o->kind));
	md = val_map_set(doc, "metadata", val_new_map());
	val_map_set(md, "name", val_new_string(o->name));
	if (o->ns[0])
		val_map_set(md, "namespace", val_new_string(o->ns));
	if (o->labels.n) {
		struct val *m = val_map_set(md, "labels", val_new_map());

		for (size_t i = 0; i < o->labels.n; i++)
			val_map_set(m, o->labels.items[i].key, val_new_string(o->labels.items[i].value));
	}
	if (o->annotations.n) {
		struct val *m = val_map_set(md, "annotations", val_new_map());

		for (size_t i = 0; i < o->annotations.n; i++)
			val_map_set(m, o->annotations.items[i].key,
				    val_new_string(o->annotations.items[i].value));
	}
	if (o->nfinalizers) {
		struct val *f = val_map_set(md, "finalizers", val_new_list());

		for (size_t i = 0; i < o->nfinalizers; i++)
			val_list_push(f, val_new_string(o->finalizers[i]));
	}
	if (o->spec)
		val_map_set(doc, "spec", val_copy(o->spec));
	if (o->status)
		val_map_set(doc, "status", val_copy(o->status));
	for (size_t i = 0; o->rest && o->rest->type == VAL_MAP && i < o->rest->u.map.n; i++)
		if (!val_map_get(doc, o->rest->u.map.items[i].key))
			val_map_set(doc, o->rest->u.map.items[i].key,
				    val_copy(o->rest->u.map.items[i].v));
	return doc;
}

/*
 * RFC 7386 merge of @patch over *@target, as val_merge_patch() does, but
 * keeping the patch's marks on what it adds (keys and values), so that a
 * problem in the merged tree points at the variant's line.
 */
static void merge_marked(struct val **target, const struct val *patch)
{
	if (patch->type != VAL_MAP) {
		val_free(*target);
		*target = val_copy(patch);
		return;
	}
	if (!*target || (*target)->type != VAL_MAP) {
		val_free(*target);
		*target = val_new_map();
		(*target)->mark = patch->mark;
	}
	for (size_t i = 0; i < patch->u.map.n; i++) {
		const struct val_kv *pk = &patch->u.map.items[i];
		struct val_kv *tk;
		struct val *child;

		if (pk->v->type == VAL_NULL) {
			val_map_del(*target, pk->key);
			continue;
		}
		tk = val_map_get_kv(*target, pk->key);
		child = tk ? tk->v : NULL;
		if (tk)
			tk->v = NULL;
		merge_marked(&child, pk->v);
		val_map_set(*target, pk->key, child);
		val_map_get_kv(*target, pk->key)->key_mark = pk->key_mark;
	}
}

/* spec.models of @base with @patch merged over it, read into @m; -1 with errors in @d. */
static int merged_models(const struct scenario *base, const struct var_def *v, struct scn_models *m,
			 struct diag *d)
{
	struct val *merged = base->models_raw ? val_copy(base->models_raw) : val_new_map();
	char *path = xasprintf("%s.models", v->where);
	int rc;

	merge_marked(&merged, v->models);
	rc = scn_models_parse(merged, v->file, path, m, d);
	/* a resumed run's: on its clock, as the base's are (scn_resume_clock()) */
	scn_models_shift(m, -base->resumed_ms);
	free(path);
	val_free(merged);
	return rc;
}

/* ---------------------------------------------------------------- parse */

void var_def_release(struct var_def *v)
{
	if (!v)
		return;
	free(v->name);
	free(v->description);
	for (size_t i = 0; i < v->npatches; i++) {
		target_release(&v->patches[i].target);
		val_free(v->patches[i].merge);
	}
	free(v->patches);
	val_free(v->models);
	free(v->where);
	memset(v, 0, sizeof(*v));
}

void var_set_release(struct var_set *vs)
{
	if (!vs)
		return;
	for (size_t i = 0; i < vs->n; i++)
		var_def_release(&vs->v[i]);
	free(vs->v);
	vs->v = NULL;
	vs->n = 0;
}

const struct var_def *var_find(const struct var_set *vs, const char *name)
{
	for (size_t i = 0; i < vs->n; i++)
		if (!strcmp(vs->v[i].name, name))
			return &vs->v[i];
	return NULL;
}

/* Reads the validated patch @p (index @k of variant @v) into @out; -1 when its target is unknown. */
static int read_patch(const struct scenario *base, const struct var_def *v, size_t k,
		      const struct val *p, struct var_patch *out, struct diag *d)
{
	const struct val *t = val_map_get(p, "target");
	const char *av = val_str(val_map_get(t, "apiVersion"), NULL);
	const char *kind = val_str(val_map_get(t, "kind"), "");
	const char *ns = val_str(val_map_get(t, "namespace"), NULL);
	char *r;

	out->target.api_version = av ? xstrdup(av) : NULL;
	out->target.kind = xstrdup(kind);
	out->target.ns = xstrdup(ns ? ns : default_ns(kind));
	out->target.name = xstrdup(val_str(val_map_get(t, "name"), ""));
	out->merge = val_copy(val_map_get(p, "merge"));
	out->mark = t->mark;
	if (find_obj(base->objs, base->nobjs, &out->target) >= 0)
		return 0;
	r = ref_text(out->target.ns, out->target.name);
	diag_error(d, v->file, t->mark, "%s.patches[%zu].target: variant '%s': no %s \"%s\"%s%s%s in the inputs",
		   v->where, k, v->name, kind, r, av ? " (" : "", av ? av : "", av ? ")" : "");
	note_known(d, v->file, t->mark, base, kind);
	free(r);
	return -1;
}

int var_parse(const struct scenario *base, struct var_set *out, struct diag *d)
{
	const char *file = base->scenario_file;
	struct val *work;
	int rc = 0;

	out->v = NULL;
	out->n = 0;
	if (!base->variants)
		return 0;
	work = val_copy(base->variants);
	if (work->type != VAL_LIST) {
		diag_error(d, file, work->mark, "spec.variants: expected a list of variants");
		val_free(work);
		return -1;
	}
	out->v = xcalloc(work->u.list.n ? work->u.list.n : 1, sizeof(*out->v));
	for (size_t i = 0; i < work->u.list.n; i++) {
		struct val *item = work->u.list.items[i];
		struct sch_ctx c = { .d = d, .file = file, .root = item };
		const struct val *nm, *patches, *models;
		const struct var_def *dup;
		struct var_def *v = &out->v[out->n];
		bool shaped;

		v->where = xasprintf("spec.variants[%zu]", i);
		v->file = file;
		v->mark = item->mark;
		shaped = sch_validate(&variant_node, item, v->where, &c) == 0 && !c.nerrors;
		v->invalid = !shaped;
		/* read after the schema, which drops a null key (a "name:" left empty) and frees it */
		nm = val_map_get(item, "name");
		/* A name the schema let through or not, it is the variant's for the checks below. */
		if (nm && nm->type == VAL_STRING && nm->u.s[0])
			v->name = xstrdup(nm->u.s);
		if (!v->name) {
			/* (its error is the schema's) */
			var_def_release(v);
			rc = -1;
			continue;
		}
		if (shaped && val_map_get(item, "description"))
			v->description = xstrdup(val_str(val_map_get(item, "description"), ""));
		if (!strcmp(v->name, "base")) {
			/* The table's first row is the base: a variant named so would
			 * print a second "base" row nobody could tell apart. */
			diag_error(d, file, nm->mark,
				   "%s.name: Invalid value: \"base\": the name of the unchanged "
				   "scenario's row; give the variant another name",
				   v->where);
			v->invalid = true;
		}
		dup = var_find(&(struct var_set){ out->v, out->n }, v->name);
		if (dup) {
			diag_error(d, file, nm->mark, "%s.name: Duplicate value: \"%s\"", v->where, v->name);
			diag_note(d, file, dup->mark, "%s has that name already", dup->where);
			v->invalid = true;
		}
		if (!shaped) {
			/* Patches and models of a wrong shape are not read: their errors are the schema's. */
			rc = -1;
			out->n++;
			continue;
		}
		patches = val_map_get(item, "patches");
		if (patches && patches->u.list.n) {
			v->patches = xcalloc(patches->u.list.n, sizeof(*v->patches));
			for (size_t k = 0; k < patches->u.list.n; k++)
				if (read_patch(base, v, k, patches->u.list.items[k],
					       &v->patches[v->npatches++], d) != 0)
					v->invalid = true;
		}
		models = val_map_get(item, "models");
		/* (moot for a variant that is refused anyway) */
		if ((!patches || !patches->u.list.n) && !models && !v->invalid)
			diag_warning(d, file, item->mark,
				     "%s: variant '%s' has neither patches nor models: it runs "
				     "the base unchanged",
				     v->where, v->name);
		if (models) {
			struct scn_models m;

			v->models = val_copy(models);
			/* Read once now, so a bad key is reported before anything runs. */
			if (merged_models(base, v, &m, d) != 0)
				v->invalid = true;
			scn_models_release(&m);
		}
		if (v->invalid)
			rc = -1;
		out->n++;
	}
	val_free(work);
	return rc;
}

int var_check(const struct scenario *base, struct diag *d)
{
	struct var_set vs;
	int rc = var_parse(base, &vs, d);

	for (size_t i = 0; i < vs.n; i++) {
		struct var_scenario t;

		if (vs.v[i].invalid)
			continue;
		if (var_apply(base, &vs.v[i], &t, d) != 0)
			rc = -1;
		var_scenario_release(&t);
	}
	var_set_release(&vs);
	return rc;
}

/* ---------------------------------------------------------------- apply */

void var_scenario_release(struct var_scenario *vs)
{
	if (!vs)
		return;
	for (size_t i = 0; vs->owned && i < vs->s.nobjs; i++)
		if (vs->owned[i])
			obj_free(vs->s.objs[i]);
	free(vs->owned);
	if (vs->s.objs)
		free(vs->s.objs);
	if (vs->own_models)
		scn_models_release(&vs->s.models);
	memset(vs, 0, sizeof(*vs));
}

/* Whether @doc still names @o (apiVersion, kind, namespace, name). */
static bool same_identity(const struct val *doc, const struct obj *o)
{
	char *kind = NULL, *ns = NULL, *name = NULL;
	bool same;

	if (!adm_identity(doc, &kind, &ns, &name))
		return false;
	same = !strcmp(kind, o->kind) && !strcmp(ns, o->ns) && !strcmp(name, o->name) &&
	       !strcmp(val_str(val_map_get(doc, "apiVersion"), ""), o->api_version);
	free(kind);
	free(ns);
	free(name);
	return same;
}

/*
 * A run needs a synthetic series for every prometheus gate (as scn_load()
 * checks for the inputs): -1 with an error per gate of the patched
 * FleetRollout @o that has none.
 */
static int check_gate_series(const struct scenario *s, const struct obj *o, const struct var_def *v,
			     size_t k, struct diag *d)
{
	const struct val *waves = val_map_get(o->spec, "waves");
	int rc = 0;

	if (strcmp(o->kind, "FleetRollout") != 0 || !waves || waves->type != VAL_LIST)
		return 0;
	for (size_t w = 0; w < waves->u.list.n; w++) {
		const struct val *wave = waves->u.list.items[w];
		const struct val *prom = val_path(wave, "gate.source.prometheus");
		const struct val *q = val_map_get(prom, "query");
		const char *address = val_str(val_map_get(prom, "address"), NULL);

		if (!q || q->type != VAL_STRING || val_map_get(prom, "secretRef") ||
		    scn_find_series(s, q->u.s, address))
			continue;
		diag_error(d, v->file, q->mark.line ? q->mark : v->patches[k].mark,
			   "%s.patches[%zu]: variant '%s': FleetRollout \"%s\": wave \"%s\": no series in "
			   "spec.metrics for the gate query \"%s\"",
			   v->where, k, v->name, o->name, val_str(val_map_get(wave, "name"), ""), q->u.s);
		rc = -1;
		{
			struct sug sg;

			sug_init(&sg, q->u.s);
			for (size_t i = 0; i < s->nseries; i++)
				sug_offer(&sg, s->series[i].query);
			if (sug_best(&sg))
				diag_note(d, v->file, q->mark.line ? q->mark : v->patches[k].mark,
					  "did you mean \"%s\"?", sug_best(&sg));
		}
	}
	return rc;
}

/* Applies patch @k of @v to @vs; -1 with an error in @d. */
static int apply_patch(struct var_scenario *vs, const struct var_def *v, size_t k, struct diag *d)
{
	const struct var_patch *p = &v->patches[k];
	long i = find_obj(vs->s.objs, vs->s.nobjs, &p->target);
	char *r = ref_text(p->target.ns, p->target.name);
	struct obj *old, *no = NULL;
	struct val *doc;
	struct diag ld;
	int rc = -1;

	if (i < 0) {
		diag_error(d, v->file, p->mark, "%s.patches[%zu].target: variant '%s': no %s \"%s\" in the inputs",
			   v->where, k, v->name, p->target.kind, r);
		goto out_free_ref;
	}
	old = vs->s.objs[i];
	doc = obj_doc(old);
	merge_marked(&doc, p->merge);
	diag_init(&ld);
	if (!same_identity(doc, old)) {
		diag_error(d, v->file, p->mark,
			   "%s.patches[%zu]: variant '%s': the patch changes the identity of %s \"%s\" "
			   "(apiVersion, kind, metadata.namespace and metadata.name are fixed)",
			   v->where, k, v->name, old->kind, r);
		goto out_free_doc;
	}
	if (adm_admit(old->src.file, doc, &no, &ld) != 0 || !no) {
		const char *why = "refused";

		for (size_t j = 0; j < ld.n; j++)
			if (ld.items[j].sev == DIAG_ERROR) {
				why = ld.items[j].msg;
				break;
			}
		diag_error(d, v->file, p->mark, "%s.patches[%zu]: variant '%s': the patched %s \"%s\" is invalid: %s",
			   v->where, k, v->name, old->kind, r, why);
		for (size_t j = 0, first = 1; j < ld.n; j++) {
			if (ld.items[j].sev == DIAG_ERROR && first) {
				first = 0;
				continue;
			}
			diag_note(d, v->file, p->mark, "%s", ld.items[j].msg);
		}
		obj_free(no);
		goto out_free_doc;
	}
	if (check_gate_series(&vs->s, no, v, k, d) != 0) {
		obj_free(no);
		goto out_free_doc;
	}
	/* What the loader, not the manifest, gave the object stays the base's. */
	no->src = old->src;
	no->creation_ms = old->creation_ms;
	no->deletion_ms = old->deletion_ms;
	if (!no->uid && old->uid)
		no->uid = xstrdup(old->uid);
	if (vs->owned[i])
		obj_free(old);
	vs->s.objs[i] = no;
	vs->owned[i] = true;
	rc = 0;

out_free_doc:
	diag_release(&ld);
	val_free(doc);
out_free_ref:
	free(r);
	return rc;
}

int var_apply(const struct scenario *base, const struct var_def *v, struct var_scenario *out,
	      struct diag *d)
{
	size_t n = base->nobjs;

	memset(out, 0, sizeof(*out));
	out->s = *base;
	out->s.objs = xcalloc(n ? n : 1, sizeof(*out->s.objs));
	if (n)
		memcpy(out->s.objs, base->objs, n * sizeof(*out->s.objs));
	out->owned = xcalloc(n ? n : 1, sizeof(*out->owned));
	for (size_t k = 0; k < v->npatches; k++)
		if (apply_patch(out, v, k, d) != 0)
			goto out_release;
	if (v->models) {
		struct scn_models m;

		if (merged_models(base, v, &m, d) != 0) {
			scn_models_release(&m);
			goto out_release;
		}
		out->s.models = m;
		out->own_models = true;
	}
	return 0;

out_release:
	var_scenario_release(out);
	return -1;
}
