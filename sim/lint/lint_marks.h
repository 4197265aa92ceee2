#ifndef MAGOS_SIM_LINT_MARKS_H
#define MAGOS_SIM_LINT_MARKS_H

/*
 * Where an annotation is written.  An object keeps its annotations as a plain
 * string map, without marks; to point a finding at the annotation itself,
 * the object's file is read again and the object found by the mark it was
 * read at.  A struct lint_reread caches the files read, each at most once
 * per lint run.
 */

#include "engine/objects.h"
#include "engine/value.h"

struct yl_stream;

/* Files read again; zero-initialise ({ NULL, 0 }), free with lint_reread_release(). */
struct lint_reread {
	struct yl_stream *streams; /* owned */
	size_t n;
};

/*
 * lint_annotation_mark() - where the value of annotation @key of @o is
 * written (1-based), else where @o starts (@o->src.mark, {0,0} when
 * unknown).  @o may be an input's object or one an `apply` event of the
 * Scenario document carries.  Reads @o's file through @rr the first time;
 * a file that no longer reads gives @o's own mark.  Cannot fail.
 */
struct val_mark lint_annotation_mark(struct lint_reread *rr, const struct obj *o,
				     const char *key);

/* lint_reread_release() - frees the files @rr read; accepts an empty one. */
void lint_reread_release(struct lint_reread *rr);

#endif
