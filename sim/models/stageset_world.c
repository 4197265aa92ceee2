/*
 * The StageSet world: see sim/models/stageset_world.h for the behaviour.
 *
 * StageSets and sources are heap records in arrays, found by "ns/name" and
 * "kind/ns/name" through string indexes.  A StageSet keeps its label
 * history (snapshots) so an event is matched against the labels it had at
 * the event's time, the sources it references, and one record per stage
 * name.  A source keeps the StageSets referencing it, its revision history
 * (the publishes that reach it, recomputed when a referencing StageSet
 * changes) and every object it handed out: a pass borrows strings of a
 * source object for its whole length, so none is freed before sw_free().
 */
#include "sim/models/stageset_world.h"

#include <stdlib.h>

#include "engine/xalloc.h"
#include "sim/models/stageset_world_rec.h"

/* ---------------------------------------------------------------- lifecycle */

struct sw_world *sw_new(const struct sw_setup *s)
{
	struct sw_world *w = xcalloc(1, sizeof(*w));

	w->s = *s;
	return w;
}

void sw_free(struct sw_world *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nmem; i++)
		swr_member_free(w->mem[i]);
	free(w->mem);
	si_release(&w->mem_ix);
	for (size_t i = 0; i < w->nsrc; i++)
		swr_source_free(w->src[i]);
	free(w->src);
	si_release(&w->src_ix);
	free(w->listed);
	si_release(&w->stored_ix);
	free(w->stored_corrupt);
	free(w);
}
