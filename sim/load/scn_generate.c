/*
 * spec.generate: StageSets (and their Namespaces) made from a template, by
 * name patterns with an index ({i}, {i:03}) and labels given outright or
 * dealt out by weight (labelMix).  The schema and checks of an entry, the
 * pattern expansion, and the making of the objects, admitted like manifests
 * after them.
 */
#include "sim/load/scn_parse.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

/* ---------------------------------------------------------------- schema */

static void check_generate(struct sch_ctx *c, const struct val *v, const char *path);
static void check_weight_sum(struct sch_ctx *c, const struct val *v, const char *path);

/* spec.generate[i]; the list is validated entry by entry (scnp_generate_validate()). */
static const struct sch_node gen_count_node = { .type = SCH_INTEGER, .has_minimum = true,
						.minimum = 1 };
static const struct sch_node gen_first_node = { .type = SCH_INTEGER, .has_minimum = true,
						.minimum = 0 };
static const struct sch_node weight_node = { .type = SCH_NUMBER, .has_minimum = true,
					     .minimum = 0 };
static const struct sch_field mix_fields[] = {
	{ .name = "labels", .schema = &sch_string_map, .required = true },
	{ .name = "weight", .schema = &weight_node },
	{ .name = NULL },
};
static const struct sch_node mix_item_node = { .type = SCH_OBJECT, .fields = mix_fields };
static const struct sch_node mix_node = { .type = SCH_ARRAY, .items = &mix_item_node,
					  .min_items = 1, .check = check_weight_sum };
static const struct sch_node template_node = { .type = SCH_OBJECT, .preserve_unknown = true };
static const struct sch_field generate_fields[] = {
	{ .name = "count", .schema = &gen_count_node, .required = true },
	{ .name = "firstIndex", .schema = &gen_first_node },
	{ .name = "namespace", .schema = &sch_string_nonempty, .required = true },
	{ .name = "name", .schema = &sch_string_nonempty, .required = true },
	{ .name = "labels", .schema = &sch_string_map },
	{ .name = "labelMix", .schema = &mix_node },
	{ .name = "namespaceLabels", .schema = &sch_string_map },
	{ .name = "template", .schema = &template_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node generate_node = { .type = SCH_OBJECT, .fields = generate_fields,
					       .check = check_generate };

/* ---------------------------------------------------------------- checks */

static void check_weight_sum(struct sch_ctx *c, const struct val *v, const char *path)
{
	double sum = 0;

	for (size_t i = 0; i < v->u.list.n; i++)
		sum += val_num(val_map_get(v->u.list.items[i], "weight"), 1);
	if (!(sum > 0))
		sch_report(c, v->mark, path, "Invalid value: \"array\": the weights add up to 0");
}

/* check_pattern() - a pattern scalar of spec.generate expands; true when it does. */
static bool check_pattern(struct sch_ctx *c, const struct val *v, const char *path)
{
	char err[128];
	char *x = scn_expand_pattern(v->u.s, 0, err, sizeof(err));
	char *q;

	if (x) {
		free(x);
		return true;
	}
	q = sch_quote(v);
	sch_report(c, v->mark, path, "Invalid value: %s: %s", q, err);
	sch_note(c, v->mark,
		 "write {i} for the index, {i:03} for it zero-padded to 3 digits, {{ and }} "
		 "for literal braces");
	free(q);
	return false;
}

/* pattern_at() - check_pattern() of @v, which sits at "@path.@key". */
static bool pattern_at(struct sch_ctx *c, const struct val *v, const char *path, const char *key)
{
	char *sub = xasprintf("%s.%s", path, key);
	bool ok = check_pattern(c, v, sub);

	free(sub);
	return ok;
}

/* check_label_patterns() - every value of label map @m (NULL: none), at "@path.@key", expands. */
static void check_label_patterns(struct sch_ctx *c, const struct val *m, const char *path,
				 const char *key)
{
	char *sub = xasprintf("%s.%s", path, key);

	for (size_t i = 0; m && m->type == VAL_MAP && i < m->u.map.n; i++)
		pattern_at(c, m->u.map.items[i].v, sub, m->u.map.items[i].key);
	free(sub);
}

static void check_generate(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val *count = val_map_get(v, "count");
	const struct val *ns = val_map_get(v, "namespace");
	const struct val *name = val_map_get(v, "name");
	const struct val *mix = val_map_get(v, "labelMix");
	bool ok = true;

	const struct loader *L = c->user;

	if (L && (uint64_t)count->u.i > L->lim->v[LIM_GENERATED]) {
		sch_report(c, count->mark, path,
			   "Invalid value: %" PRId64 ": count must be at most %llu %s", count->u.i,
			   (unsigned long long)L->lim->v[LIM_GENERATED], lim_hint(LIM_GENERATED));
		ok = false;
	}
	ok = pattern_at(c, ns, path, "namespace") && ok;
	ok = pattern_at(c, name, path, "name") && ok;
	check_label_patterns(c, val_map_get(v, "labels"), path, "labels");
	check_label_patterns(c, val_map_get(v, "namespaceLabels"), path, "namespaceLabels");
	for (size_t i = 0; mix && i < mix->u.list.n; i++) {
		char *sub = xasprintf("%s.labelMix[%zu]", path, i);

		check_label_patterns(c, val_map_get(mix->u.list.items[i], "labels"), sub, "labels");
		free(sub);
	}
	if (ok && count->u.i > 1) {
		/* Two indices give the same identity when neither pattern uses {i}. */
		char *n0 = scn_expand_pattern(ns->u.s, 0, NULL, 0);
		char *n1 = scn_expand_pattern(ns->u.s, 1, NULL, 0);
		char *m0 = scn_expand_pattern(name->u.s, 0, NULL, 0);
		char *m1 = scn_expand_pattern(name->u.s, 1, NULL, 0);

		if (strcmp(n0, n1) == 0 && strcmp(m0, m1) == 0) {
			sch_report(c, name->mark, path,
				   "Invalid value: \"object\": %" PRId64 " StageSets would all be "
				   "named \"%s/%s\"",
				   count->u.i, n0, m0);
			sch_note(c, name->mark,
				 "put {i} in namespace or name, e.g. namespace: tenant-{i:03}");
		}
		free(n0);
		free(n1);
		free(m0);
		free(m1);
	}
}

/* ---------------------------------------------------------------- patterns */

char *scn_expand_pattern(const char *pattern, uint64_t i, char *err, size_t errlen)
{
	char *out = xmalloc(strlen(pattern) * 7 + 1); /* "{i}" (3 bytes) gives at most 20 */
	size_t n = 0;

	for (const char *p = pattern; *p;) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			out[n++] = *p;
			p += 2;
		} else if (p[0] == '}') {
			if (err)
				snprintf(err, errlen, "a lone '}' at byte %zu",
					 (size_t)(p - pattern) + 1);
			goto out_free;
		} else if (p[0] == '{') {
			const char *end = strchr(p, '}');
			int width = -1;

			if (end && end - p == 2 && p[1] == 'i')
				width = 0;
			else if (end && end - p == 5 && strncmp(p, "{i:0", 4) == 0 && p[4] >= '1' &&
				 p[4] <= '9')
				width = p[4] - '0';
			if (width < 0) {
				if (err && end)
					snprintf(err, errlen, "unknown placeholder \"%.*s\"",
						 (int)(end - p + 1), p);
				else if (err)
					snprintf(err, errlen, "'{' at byte %zu is not closed",
						 (size_t)(p - pattern) + 1);
				goto out_free;
			}
			n += (size_t)sprintf(out + n, "%0*" PRIu64, width, i);
			p = end + 1;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = '\0';
	return out;
out_free:
	free(out);
	return NULL;
}

/* ---------------------------------------------------------------- objects */

/* set_marked() - @key of map @m := @v (stolen), key and value at @mark.  Returns @v. */
static struct val *set_marked(struct val *m, const char *key, struct val *v, struct val_mark mark)
{
	val_map_set(m, key, v);
	val_map_get_kv(m, key)->key_mark = mark;
	if (v->mark.line == 0)
		v->mark = mark;
	return v;
}

static struct val *marked_string(const char *text, struct val_mark mark)
{
	struct val *v = val_new_string(text);

	v->mark = mark;
	return v;
}

/* add_labels() - the entries of label map @src, values expanded with @idx, into map @dst. */
static void add_labels(struct val *dst, const struct val *src, uint64_t idx)
{
	for (size_t i = 0; src && src->type == VAL_MAP && i < src->u.map.n; i++) {
		const struct val_kv *kv = &src->u.map.items[i];
		char *x = scn_expand_pattern(val_str(kv->v, ""), idx, NULL, 0);

		set_marked(dst, kv->key, marked_string(x ? x : "", kv->v->mark), kv->key_mark);
		val_map_get(dst, kv->key)->mark = kv->v->mark;
		free(x);
	}
}

/*
 * object_doc() - a new manifest tree: apiVersion, kind, metadata {name} with
 * the name at @name_mark, the rest at @mark; *@meta receives the metadata
 * map (borrowed from the tree), for namespace and labels.
 */
static struct val *object_doc(const char *api_version, const char *kind, struct val_mark mark,
			      const char *name, struct val_mark name_mark, struct val **meta)
{
	struct val *doc = val_new_map();

	doc->mark = mark;
	set_marked(doc, "apiVersion", marked_string(api_version, mark), mark);
	set_marked(doc, "kind", marked_string(kind, mark), mark);
	*meta = set_marked(doc, "metadata", val_new_map(), mark);
	(*meta)->mark = mark;
	set_marked(*meta, "name", marked_string(name, name_mark), name_mark);
	return doc;
}

/*
 * admit_doc() - man_load_doc() of the generated tree @doc (freed here) into
 * @set.  @lent: true when @doc's "spec" is the scenario's template itself
 * (lend_spec()), taken back out of @doc before it is freed.
 */
static int admit_doc(struct loader *L, struct man_set *set, struct val *doc, bool lent)
{
	int rc = man_load_doc(L->s->scenario_file, doc, set, L->d);

	if (lent)
		(void)val_map_take(doc, "spec"); /* the scenario's: not freed with the document */
	val_free(doc);
	return rc;
}

/*
 * lend_spec() - sets @doc's "spec" (key mark @mark) to the template @tmpl
 * itself when it can be lent, else to a copy; returns whether it was lent.
 * Admission neither changes nor keeps the document it is given (it
 * validates a copy of its own), so each generated StageSet needs no copy of
 * the template before that one.  A template without a source position is
 * copied: set_marked() would write the position into it.
 */
static bool lend_spec(struct val *doc, const struct val *tmpl, struct val_mark mark)
{
	bool lend = tmpl->mark.line != 0;

	set_marked(doc, "spec", lend ? (struct val *)tmpl : val_copy(tmpl), mark);
	return lend;
}

/*
 * mix_blocks() - how many of @count objects each labelMix entry gets:
 * quotas count × weight / total, rounded down, then the objects left over
 * one each to the entries with the largest fractional parts (ties: the
 * earlier entry) — Hamilton's largest-remainder method.  Returns a new
 * array of @mix->u.list.n counts.
 */
static uint64_t *mix_blocks(const struct val *mix, uint64_t count)
{
	size_t n = mix->u.list.n;
	uint64_t *blocks = xcalloc(n, sizeof(*blocks));
	double *frac = xcalloc(n, sizeof(*frac));
	double total = 0;
	uint64_t given = 0;

	for (size_t i = 0; i < n; i++)
		total += val_num(val_map_get(mix->u.list.items[i], "weight"), 1);
	for (size_t i = 0; i < n; i++) {
		double q = (double)count * val_num(val_map_get(mix->u.list.items[i], "weight"), 1) /
			   total;
		double f = floor(q);

		blocks[i] = (uint64_t)f;
		frac[i] = q - f;
		given += blocks[i];
	}
	while (given < count) {
		size_t best = 0;

		for (size_t i = 1; i < n; i++)
			if (frac[i] > frac[best])
				best = i;
		blocks[best]++;
		frac[best] = -1;
		given++;
	}
	free(frac);
	return blocks;
}

void scnp_generate_validate(struct loader *L, struct val *gen, struct sch_ctx *c)
{
	uint64_t total = 0, max = L->lim->v[LIM_GENERATED];

	L->ngen = gen->u.list.n;
	L->gen_ok = scnp_validate_each(&generate_node, gen, "spec.generate", c);
	/* The bound is on all entries together: splitting a count gets no more. */
	for (size_t k = 0; k < L->ngen; k++) {
		const struct val *count = val_map_get(gen->u.list.items[k], "count");

		if (!L->gen_ok[k])
			continue;
		if ((uint64_t)count->u.i > max - total) {
			diag_fatal(L->d, c->file, count->mark,
				   "spec.generate[%zu].count: Invalid value: %" PRId64 ": the entries "
				   "would make more than %llu objects together %s",
				   k, count->u.i, (unsigned long long)max, lim_hint(LIM_GENERATED));
			for (; k < L->ngen; k++)
				L->gen_ok[k] = false;
			break;
		}
		total += (uint64_t)count->u.i;
	}
}

void scnp_generate_objects(struct loader *L, struct man_set *set)
{
	const struct val *gen = val_path(L->scn, "spec.generate");
	const char *file = L->s->scenario_file;
	size_t before = set->n;

	for (size_t k = 0; gen && gen->type == VAL_LIST && k < L->ngen; k++) {
		const struct val *g = gen->u.list.items[k];
		const struct val *nsv = val_map_get(g, "namespace");
		const struct val *namev = val_map_get(g, "name");
		const struct val *labels = val_map_get(g, "labels");
		const struct val *mix = val_map_get(g, "labelMix");
		const struct val *nslabels = val_map_get(g, "namespaceLabels");
		const struct val *tmpl = val_map_get(g, "template");
		uint64_t count, first, *blocks = NULL;
		size_t entry = 0;
		uint64_t left = 0;

		if (!L->gen_ok[k])
			continue;
		count = (uint64_t)val_int(val_map_get(g, "count"), 0);
		first = (uint64_t)val_int(val_map_get(g, "firstIndex"), 0);
		if (mix) {
			blocks = mix_blocks(mix, count);
			left = blocks[0];
		}
		for (uint64_t j = 0; j < count; j++) {
			uint64_t idx = first + j;
			char *ns = scn_expand_pattern(nsv->u.s, idx, NULL, 0);
			char *name = scn_expand_pattern(namev->u.s, idx, NULL, 0);
			struct val *doc, *meta, *lab;
			bool lent;
			int rc = 0;
			/* held by the other inputs already: a snapshot of a run that generated it? */
			const struct obj *held = man_find(set, "StageSet", ns, name);

			if (set->n - before >= L->lim->v[LIM_GENERATED]) {
				/* The StageSets fit (checked before); their Namespaces did not. */
				diag_fatal(L->d, file, g->mark,
					   "spec.generate[%zu]: the entries make more than %llu objects "
					   "together, Namespaces included %s",
					   k, (unsigned long long)L->lim->v[LIM_GENERATED],
					   lim_hint(LIM_GENERATED));
				free(ns);
				free(name);
				free(blocks);
				L->s->ngenerated = set->n - before;
				return;
			}
			if (!man_find(set, "Namespace", "", ns)) {
				doc = object_doc("v1", "Namespace", g->mark, ns, nsv->mark, &meta);
				if (nslabels && nslabels->u.map.n) {
					lab = set_marked(meta, "labels", val_new_map(), nslabels->mark);
					add_labels(lab, nslabels, idx);
				}
				rc = admit_doc(L, set, doc, false);
			}
			if (rc == 0) {
				doc = object_doc("stages.metio.wtf/v1", "StageSet", g->mark, name,
						 namev->mark, &meta);
				set_marked(meta, "namespace", marked_string(ns, nsv->mark), nsv->mark);
				if (mix)
					while (left == 0 && entry + 1 < mix->u.list.n)
						left = blocks[++entry];
				if ((labels && labels->u.map.n) || mix) {
					lab = set_marked(meta, "labels", val_new_map(),
							 labels ? labels->mark : g->mark);
					add_labels(lab, labels, idx);
					if (mix)
						add_labels(lab,
							   val_map_get(mix->u.list.items[entry],
								       "labels"),
							   idx);
				}
				if (mix)
					left--;
				lent = lend_spec(doc, tmpl, val_map_get_kv(g, "template")->key_mark);
				rc = admit_doc(L, set, doc, lent);
			}
			free(ns);
			free(name);
			if (rc != 0) {
				diag_note(L->d, file, g->mark,
					  "spec.generate[%zu]: stopped at the first refused object "
					  "(index %" PRIu64 ", %" PRIu64 " of %" PRIu64 ")",
					  k, idx, j + 1, count);
				if (held && held->status)
					diag_note(L->d, file, g->mark,
						  "the other inputs hold it with a status, as a snapshot "
						  "(run --snapshot, kubectl get -o yaml) does: to continue "
						  "from a snapshot of a run that generated its StageSets, "
						  "leave spec.generate out of the Scenario document");
				break;
			}
		}
		free(blocks);
	}
	L->s->ngenerated = set->n - before;
}
