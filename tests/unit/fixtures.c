/*
 * The fixtures of fixtures.h: builders and helpers every CUnit program can
 * use.  Each one is what two or more tests had written for themselves.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/magos_project.h"
#include "engine/magos_rollout.h"
#include "engine/xalloc.h"
#include "tests/unit/fixtures.h"

/* ---- Magos objects ------------------------------------------------------------- */

/* Calls @fn(@ctx, key, value) for each "k=v" (or bare "k", value NULL) of a comma list. */
static void each_pair(const char *list, void (*fn)(void *, const char *, const char *), void *ctx)
{
	char *copy, *save = NULL, *tok;

	if (!list || !*list)
		return;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq)
			*eq = '\0';
		fn(ctx, tok, eq ? eq + 1 : NULL);
	}
	free(copy);
}

static void set_label(void *ctx, const char *k, const char *v)
{
	obj_strmap_set(ctx, k, v ? v : "");
}

static void set_annotation(void *ctx, const char *k, const char *v)
{
	struct obj_strmap *m = ctx;

	if (strcmp(k, "allowed") == 0)
		obj_strmap_set(m, MR_ANN_EXECUTION_ALLOWED, v ? v : "true");
	else if (strcmp(k, "rev") == 0)
		obj_strmap_set(m, MR_ANN_DETECTED_REVISION, v ? v : "");
	else if (strcmp(k, "req") == 0)
		obj_strmap_set(m, MR_ANN_RECONCILE_REQUEST, v ? v : "");
	else
		obj_strmap_set(m, k, v ? v : "");
}

struct obj *fx_ws_ref(const char *ns, const char *name, const char *project)
{
	struct obj *o = obj_new(FX_API, "Workspace", ns, name);
	struct val *ref;

	o->spec = val_new_map();
	ref = val_map_set(o->spec, "projectRef", val_new_map());
	val_map_set(ref, "name", val_new_string(project));
	return o;
}

struct obj *fx_workspace(const char *ns, const char *name, const char *labels,
			 const char *project, const char *phase, const char *ann)
{
	struct obj *o = fx_ws_ref(ns, name, project);

	each_pair(labels, set_label, &o->labels);
	each_pair(ann, set_annotation, &o->annotations);
	val_map_set(o->spec, "autoApply", val_new_bool(true));
	if (phase) {
		o->status = val_new_map();
		val_map_set(o->status, "phase", val_new_string(phase));
	}
	return o;
}

struct val *fx_selector(const char *sel)
{
	struct val *s, *ml, *e, *vals;
	char *copy, *key, *op, *values, *save = NULL, *tok;

	if (!sel)
		return NULL;
	s = val_new_map();
	if (strcmp(sel, "{}") == 0)
		return s;
	if (strncmp(sel, "expr:", 5) != 0) {
		ml = val_map_set(s, "matchLabels", val_new_map());
		copy = xstrdup(sel);
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');

			*eq = '\0';
			val_map_set(ml, tok, val_new_string(eq + 1));
		}
		free(copy);
		return s;
	}
	copy = xstrdup(sel + 5);
	key = copy;
	op = strchr(key, ':');
	*op++ = '\0';
	values = strchr(op, ':');
	if (values)
		*values++ = '\0';
	e = val_list_push(val_map_set(s, "matchExpressions", val_new_list()), val_new_map());
	val_map_set(e, "key", val_new_string(key));
	val_map_set(e, "operator", val_new_string(op));
	if (values) {
		vals = val_map_set(e, "values", val_new_list());
		for (tok = strtok_r(values, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
			val_list_push(vals, val_new_string(tok));
	}
	free(copy);
	return s;
}

struct obj *fx_rollout(const char *ns, const char *project, const struct fx_step *steps,
		       size_t nsteps, const char *status_phase, int64_t step)
{
	struct obj *o = obj_new(FX_API, "Rollout", ns, project);
	struct val *st, *list;

	o->spec = val_new_map();
	val_map_set(o->spec, "projectRef", val_new_string(project));
	st = val_map_set(o->spec, "strategy", val_new_map());
	list = val_map_set(st, "steps", val_new_list());
	for (size_t i = 0; i < nsteps; i++) {
		struct val *s = val_list_push(list, val_new_map());
		struct val *sel = fx_selector(steps[i].sel);

		val_map_set(s, "name", val_new_string(steps[i].name));
		if (sel)
			val_map_set(s, "selector", sel);
	}
	if (status_phase) {
		o->status = val_new_map();
		val_map_set(o->status, "phase", val_new_string(status_phase));
		val_map_set(o->status, "currentStep", val_new_int(step));
	}
	return o;
}

struct obj *fx_project(const char *ns, const char *name, int no_finalizer)
{
	struct obj *o = obj_new(FX_API, "Project", ns, name);

	o->spec = val_new_map();
	if (!no_finalizer)
		obj_add_finalizer(o, MP_FINALIZER);
	return o;
}

char *fx_join(char *const *names, size_t n)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, names[i]);
	}
	return s;
}
