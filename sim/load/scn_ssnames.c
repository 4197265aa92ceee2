/*
 * What the StageSet world's keys name (sim/load/scn_parse.h,
 * scnp_sw_check_names()): a spec.models.stagesets.ledgerErrors entry whose
 * namespace or name matches no StageSet, and a spec.models.sources[].objects
 * key (or one of an update's objects) that is no stage of a StageSet reading
 * that source, are told where they are written with what there is: each is
 * a typo that would otherwise fail no read or render nothing, silently.
 */
#include "sim/load/scn_parse.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/suggest.h"

/* The StageSets a run may hold (scn_stagesets()): those of the inputs, then of apply events. */
struct stagesets {
	const struct obj **v;
	size_t n;
};

/* How many items a "what there is" list shows before "and N more". */
#define LISTED 8

/* Appends @text (owned: stolen) to the list *@v of *@n. */
static void push(char ***v, size_t *n, char *text)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = text;
}

static int text_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the @n texts of @v and frees the repeated ones, *@n becoming the count left.  O(n log n). */
static void sort_unique(char **v, size_t *n)
{
	size_t k = 0;

	if (*n == 0)
		return;
	qsort(v, *n, sizeof(*v), text_cmp);
	for (size_t i = 1; i < *n; i++) {
		if (strcmp(v[i], v[k]) == 0)
			free(v[i]);
		else
			v[++k] = v[i];
	}
	*n = k + 1;
}

/*
 * The @n texts of @v (sorted, no two alike), each in double quotes with
 * @quote, joined by ", ": the first LISTED and "and N more".  New string.
 */
static char *join_listed(char *const *v, size_t n, bool quote)
{
	const char *q = quote ? "\"" : "";
	char *out = xstrdup("");

	for (size_t i = 0; i < n && i <= LISTED; i++) {
		char *next = i < LISTED ? xasprintf("%s%s%s%s%s", out, i ? ", " : "", q, v[i], q)
					: xasprintf("%s and %zu more", out, n - LISTED);

		free(out);
		out = next;
	}
	return out;
}

/* Frees the @n texts of @v and @v. */
static void texts_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---------------------------------------------------------------- ledgerErrors */

/* Whether @o is a StageSet @e's namespace and name (each when given) match. */
static bool read_error_matches(const struct val *e, const struct obj *o)
{
	const char *ns = val_str(val_map_get(e, "namespace"), NULL);
	const char *name = val_str(val_map_get(e, "name"), NULL);

	return (!ns || strcmp(ns, o->ns) == 0) && (!name || strcmp(name, o->name) == 0);
}

static void check_read_error(struct loader *L, const struct stagesets *ss, const struct val *e, size_t i)
{
	const struct val *nsv = val_map_get(e, "namespace"), *namev = val_map_get(e, "name");
	const char *ns = val_str(nsv, NULL), *name = val_str(namev, NULL), *near, *file = L->s->scenario_file;
	char **have = NULL, *list, *what;
	size_t nhave = 0;
	bool ns_known = false;
	struct sug sug;
	const struct val *at;

	if (!ns && !name)
		return; /* every StageSet */
	for (size_t k = 0; k < ss->n; k++) {
		if (read_error_matches(e, ss->v[k]))
			return;
		ns_known = ns_known || (ns && strcmp(ns, ss->v[k]->ns) == 0);
	}
	/* the key at fault: the namespace when it holds no StageSet, else the name */
	at = ns && !ns_known ? nsv : namev;
	sug_init(&sug, val_str(at, ""));
	for (size_t k = 0; k < ss->n; k++) {
		push(&have, &nhave, xasprintf("%s/%s", ss->v[k]->ns, ss->v[k]->name));
		if (at == nsv)
			sug_offer(&sug, ss->v[k]->ns);
		else if (!ns || strcmp(ns, ss->v[k]->ns) == 0)
			sug_offer(&sug, ss->v[k]->name);
	}
	near = sug_best(&sug);
	what = name && ns ? xasprintf("named \"%s\" in namespace \"%s\"", name, ns)
	       : name	  ? xasprintf("named \"%s\"", name)
			  : xasprintf("in namespace \"%s\"", ns);
	sort_unique(have, &nhave);
	list = join_listed(have, nhave, false);
	diag_warning(L->d, file, at->mark,
		     "spec.models.stagesets.ledgerErrors[%zu]: no StageSet of the inputs or of an apply event is %s: "
		     "the entry fails no read",
		     i, what);
	diag_note(L->d, file, at->mark, "%s%s%s%s%s", nhave ? "the StageSets are " : "there is no StageSet", list,
		  near ? "; did you mean \"" : "", near ? near : "", near ? "\"?" : "");
	texts_free(have, nhave);
	free(list);
	free(what);
}

/* ---------------------------------------------------------------- sources[].objects */

/*
 * Whether the source entry @e (kind, namespace and name, each when given)
 * matches the source @ref of a StageSet in @ns names.
 */
static bool source_entry_matches(const struct val *e, const struct val *ref, const char *ns)
{
	const char *ek = val_str(val_map_get(e, "kind"), NULL), *ens = val_str(val_map_get(e, "namespace"), NULL);
	const char *en = val_str(val_map_get(e, "name"), NULL), *kind, *rns, *name;

	scnp_sw_ref_source(ref, ns, &kind, &rns, &name);
	return (!ek || strcmp(ek, kind) == 0) && (!ens || strcmp(ens, rns) == 0) && (!en || strcmp(en, name) == 0);
}

/*
 * The names of the stages of the StageSets @ss that read a source entry
 * @e matches, sorted, each once, into *@v (new, *@n of them).
 */
static void stages_reading(const struct stagesets *ss, const struct val *e, char ***v, size_t *n)
{
	*v = NULL;
	*n = 0;
	for (size_t k = 0; k < ss->n; k++) {
		const struct val *stages = val_map_get(ss->v[k]->spec, "stages");

		for (size_t j = 0; stages && stages->type == VAL_LIST && j < stages->u.list.n; j++) {
			const struct val *st = stages->u.list.items[j];
			const char *name = val_str(val_map_get(st, "name"), NULL);
			const struct val *ref = val_map_get(st, "sourceRef");

			if (name && ref && ref->type == VAL_MAP && source_entry_matches(e, ref, ss->v[k]->ns))
				push(v, n, xstrdup(name));
		}
	}
	sort_unique(*v, n);
}

/*
 * The sources entry @e in words: "GitRepository shop/shop" when it gives
 * kind, namespace and name, else the ones it gives ("name shop"), or
 * "every source".  New string.
 */
static char *entry_text(const struct val *e)
{
	const char *kind = val_str(val_map_get(e, "kind"), NULL), *ns = val_str(val_map_get(e, "namespace"), NULL);
	const char *name = val_str(val_map_get(e, "name"), NULL);

	if (kind && ns && name)
		return xasprintf("%s %s/%s", kind, ns, name);
	if (!kind && !ns && !name)
		return xstrdup("every source");
	return xasprintf("%s%s%s%s%s%s%s%s", kind ? "kind " : "", kind ? kind : "", kind && (ns || name) ? ", " : "",
			 ns ? "namespace " : "", ns ? ns : "", ns && name ? ", " : "", name ? "name " : "",
			 name ? name : "");
}

/* Each key of the objects map @objects (at @path) of source entry @e that is none of the @n @stages. */
static void check_objects_keys(struct loader *L, const struct val *objects, const char *path, const struct val *e,
			       char *const *stages, size_t n)
{
	const char *file = L->s->scenario_file;

	for (size_t k = 0; objects && objects->type == VAL_MAP && k < objects->u.map.n; k++) {
		const struct val_kv *kv = &objects->u.map.items[k];
		char *what, *list;
		const char *near;
		struct sug sug;

		if (n && bsearch(&kv->key, stages, n, sizeof(*stages), text_cmp))
			continue;
		sug_init(&sug, kv->key);
		for (size_t j = 0; j < n; j++)
			sug_offer(&sug, stages[j]);
		near = sug_best(&sug);
		what = entry_text(e);
		list = join_listed(stages, n, true);
		diag_warning(L->d, file, kv->key_mark,
			     "%s.%s: no StageSet of the inputs or of an apply event has a stage \"%s\" that reads the "
			     "source (%s): these objects are rendered by no stage",
			     path, kv->key, kv->key, what);
		diag_note(L->d, file, kv->key_mark, "%s%s%s%s%s", n ? "the stages that read it are " : "no stage reads it",
			  list, near ? "; did you mean \"" : "", near ? near : "", near ? "\"?" : "");
		free(list);
		free(what);
	}
}

static void check_source(struct loader *L, const struct stagesets *ss, const struct val *e, size_t i)
{
	const struct val *updates = val_map_get(e, "updates");
	char **stages, *path;
	size_t n;

	if (!val_map_get(e, "objects") && !updates)
		return;
	stages_reading(ss, e, &stages, &n);
	path = xasprintf("spec.models.sources[%zu].objects", i);
	check_objects_keys(L, val_map_get(e, "objects"), path, e, stages, n);
	free(path);
	for (size_t k = 0; updates && updates->type == VAL_LIST && k < updates->u.list.n; k++) {
		path = xasprintf("spec.models.sources[%zu].updates[%zu].objects", i, k);
		check_objects_keys(L, val_map_get(updates->u.list.items[k], "objects"), path, e, stages, n);
		free(path);
	}
	texts_free(stages, n);
}

/* ---------------------------------------------------------------- the check */

void scnp_sw_check_names(struct loader *L)
{
	const struct scn_sw_config *c = &L->s->models.world;
	const struct val *reads = val_path(L->scn, "spec.models.stagesets.ledgerErrors");
	const struct val *sources = val_path(L->scn, "spec.models.sources");
	/* only what was read: spec.models with errors is not (they are told, not their cascade) */
	size_t nreads = reads && reads->type == VAL_LIST && c->nread_errors == reads->u.list.n ? c->nread_errors : 0;
	size_t nsources = sources && sources->type == VAL_LIST && c->nsources == sources->u.list.n ? c->nsources : 0;
	struct stagesets ss;

	if (!L->s->scenario_file || (!nreads && !nsources) || scnp_kind_refused(L, "StageSet"))
		return;
	ss.v = scn_stagesets(L->s, &ss.n);
	for (size_t i = 0; i < nreads; i++)
		check_read_error(L, &ss, reads->u.list.items[i], i);
	for (size_t i = 0; i < nsources; i++)
		check_source(L, &ss, sources->u.list.items[i], i);
	free(ss.v);
}
