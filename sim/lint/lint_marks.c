/*
 * Annotation marks for lint: the object's file read again (see lint_marks.h).
 */
#include "sim/lint/lint_marks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"

static const struct yl_stream *stream_of(struct lint_reread *rr, const char *file)
{
	struct yl_stream *st;
	struct yl_budget bg;
	struct diag d;

	for (size_t i = 0; i < rr->n; i++)
		if (strcmp(rr->streams[i].file, file) == 0)
			return &rr->streams[i];
	rr->streams = xreallocarray(rr->streams, rr->n + 1, sizeof(*rr->streams));
	st = &rr->streams[rr->n++];
	diag_init(&d);
	/*
	 * The loader read this file already, within the limits the user set;
	 * problems were reported then, so no bound applies here.
	 */
	yl_budget_init(&bg, NULL);
	bg.max_bytes = bg.max_documents = bg.max_alias_nodes = UINT64_MAX;
	(void)yl_load_file_in(file, &bg, st, &d);
	if (!st->file)
		st->file = xstrdup(file);
	diag_release(&d);
	return st;
}

void lint_reread_release(struct lint_reread *rr)
{
	for (size_t i = 0; i < rr->n; i++)
		yl_stream_release(&rr->streams[i]);
	free(rr->streams);
}

/* The map below @v (itself included) that starts at @m, or NULL. */
static const struct val *map_at(const struct val *v, struct val_mark m)
{
	const struct val *found = NULL;

	if (!v)
		return NULL;
	if (v->type == VAL_MAP) {
		if (v->mark.line == m.line && v->mark.col == m.col)
			return v;
		for (size_t i = 0; !found && i < v->u.map.n; i++)
			found = map_at(v->u.map.items[i].v, m);
	} else if (v->type == VAL_LIST) {
		for (size_t i = 0; !found && i < v->u.list.n; i++)
			found = map_at(v->u.list.items[i], m);
	}
	return found;
}

/*
 * The map read at @m: a document root, an item of a `kind: List`, or an
 * object applied by an event of the Scenario document.
 */
static const struct val *node_at(const struct yl_stream *st, struct val_mark m)
{
	const struct val *found = NULL;

	for (size_t i = 0; !found && i < st->n; i++)
		found = map_at(st->docs[i].root, m);
	return found;
}

struct val_mark lint_annotation_mark(struct lint_reread *rr, const struct obj *o, const char *key)
{
	const struct yl_stream *st;
	const struct val *node, *v;

	if (!o->src.file || !o->src.mark.line)
		return o->src.mark;
	st = stream_of(rr, o->src.file);
	node = node_at(st, o->src.mark);
	v = val_map_get(val_path(node, "metadata.annotations"), key);
	return v && v->mark.line ? v->mark : o->src.mark;
}

