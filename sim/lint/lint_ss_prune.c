/*
 * Objects a render drops that no prune deletes (MS282); see lint_ss_prune.h.
 */
#include "sim/lint/lint_ss_prune.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint_ss_lag.h"
#include "sim/lint/lint_ss_ledgers.h"
#include "sim/load/scn_ssworld.h"

/* Whether @o names @kind/@name. */
static bool names_object(const struct scn_sw_stage_objects *o, const char *kind, const char *name)
{
	for (size_t i = 0; o && i < o->n; i++)
		if (!strcmp(o->kinds[i], kind) && !strcmp(o->names[i], name))
			return true;
	return false;
}

/* The gate of @st that holds every new revision, in words into @buf; false: none. */
static bool holding_gate(const struct sst_stage *st, char *buf, size_t len)
{
	char d[GT_DURATION_BUFSZ];

	if (!st->has_promotion)
		return false;
	if (st->promotion.soak.set && st->promotion.soak.ms > 0) {
		gt_format_duration(st->promotion.soak.ms, d, sizeof(d));
		snprintf(buf, len, "a %s soak", d);
		return true;
	}
	if (st->promotion.require_manual) {
		snprintf(buf, len, "a manual promotion");
		return true;
	}
	return false;
}

/* Whether stages @a and @b of a StageSet in @ns read the same source (so one revision of it reaches both). */
static bool same_source(const struct sst_stage *a, const struct sst_stage *b, const char *ns)
{
	const char *ak, *ans, *an, *bk, *bns, *bn;

	lss_source_key(&a->source_ref, ns, &ak, &ans, &an);
	lss_source_key(&b->source_ref, ns, &bk, &bns, &bn);
	return !strcmp(ak, bk) && !strcmp(ans, bns) && !strcmp(an, bn);
}

/*
 * The first stage from @k on of @sp that holds a new revision of stage
 * @k's source at its gate (described into @gate), or NULL.  A stage that
 * reads the same source gets the new revision in the same pass, so its soak
 * or manual gate holds that pass after stage @k was applied; a stage of
 * another source keeps its revision and passes its gate (promoted at it).
 */
static const struct sst_stage *holding_stage(const struct sst_spec *sp, size_t k, const char *ns, char *gate,
					     size_t len)
{
	for (size_t j = k; j < sp->nstages; j++)
		if ((j == k || same_source(&sp->stages[k], &sp->stages[j], ns)) &&
		    holding_gate(&sp->stages[j], gate, len))
			return &sp->stages[j];
	return NULL;
}

/* MS282 for stage @si of StageSet @ss with spec @sp. */
static void rule_stage(struct lint_report *r, const struct scenario *s, const struct obj *ss,
		       const struct sst_spec *sp, size_t si, int64_t born)
{
	const struct sst_stage *st = &sp->stages[si], *gated;
	const char *kind, *rns, *name;
	const struct scn_sw_source *u;
	const struct scn_sw_stage_objects *before;
	char gate[64], *whose;

	if ((st->has_prune && !st->prune) || !(gated = holding_stage(sp, si, ss->ns, gate, sizeof(gate))))
		return;
	lss_source_key(&st->source_ref, ss->ns, &kind, &rns, &name);
	if (lss_in_inputs(s, kind, rns, name) || !(u = scn_sw_source_updates(&s->models.world, kind, rns, name)))
		return;
	whose = gated == st ? xasprintf("whose promotion gate (%s) holds every new revision", gate)
			    : xasprintf("whose later stage \"%s\", which reads the same source, holds every new "
					"revision at its promotion gate (%s)",
					gated->name, gate);
	before = scn_sw_objects_of(scn_sw_source_objects(&s->models.world, kind, rns, name), st->name);
	for (size_t k = 0; k < u->nupdates && u->updates[k].at_ms < s->horizon_ms; k++) {
		const struct scn_sw_source_update *up = &u->updates[k];
		const struct scn_sw_stage_objects *after;
		char *dropped = NULL, at[GT_DURATION_BUFSZ];
		size_t ndropped = 0;

		if (!up->has_objects)
			continue;
		after = scn_sw_objects_of(&up->objects, st->name);
		for (size_t i = 0; before && up->at_ms > born && i < before->n; i++)
			if (!names_object(after, before->kinds[i], before->names[i])) {
				char *next = xasprintf("%s%s%s/%s", dropped ? dropped : "", dropped ? ", " : "",
						       before->kinds[i], before->names[i]);

				free(dropped);
				dropped = next;
				ndropped++;
			}
		before = after;
		if (!ndropped)
			continue;
		gt_format_duration(up->at_ms, at, sizeof(at));
		lint_add(r, "MS282", u->file, up->mark,
			 "the sources model's update at %s drops %s from stage \"%s\"'s render (%s %s/%s) of "
			 "StageSet %s/%s, %s: the pass that applies it rewrites the stage's StageInventory "
			 "without %s before the gate holds, and the prune, which runs only when every stage "
			 "promotes, reads the StageInventory as that pass left it, so %s stay%s in namespace %s "
			 "for good, listed by no StageInventory",
			 at, dropped, st->name, kind, rns, name, ss->ns, ss->name, whose, ndropped > 1 ? "them" : "it",
			 dropped, ndropped > 1 ? "" : "s", ss->ns);
		free(dropped);
	}
	free(whose);
}

struct prune_ctx {
	struct lint_report *r;
	const struct scenario *s;
};

static void prune_stageset(const struct obj *ss, const struct sst_spec *sp, void *arg)
{
	struct prune_ctx *c = arg;
	int64_t born = lint_ss_created_ms(c->s, ss);

	for (size_t k = 0; k < sp->nstages; k++)
		rule_stage(c->r, c->s, ss, sp, k, born);
}

void lint_ss_prune(struct lint_report *r, const struct scenario *s)
{
	struct prune_ctx c = { r, s };

	lint_ss_each_spec(s, prune_stageset, &c);
}
