/*
 * MS250: a pinned targetVersion spelled differently from the version the
 * members are offered (fleet spec §6 #13; lint_fleet_quirks.h).
 */
#include "sim/lint/lint_fleet_quirks.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/admission.h"


/* One version the scenario offers the members, and where it comes from. */
struct offer {
	const char *text; /* borrowed */
	char *from;       /* owned: "StageSet \"ns/name\" spec.version.value", ... */
};

struct offers {
	struct offer *v; /* owned, first of each text in the order found */
	size_t n, cap;
	struct strindex seen; /* text → index into @v */
};

static void offer_add(struct offers *o, const char *text, char *from)
{
	size_t pos;

	if (!text || !*text || si_get(&o->seen, text, &pos)) {
		free(from);
		return;
	}
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 16;
		o->v = xreallocarray(o->v, o->cap, sizeof(*o->v));
	}
	o->v[o->n] = (struct offer){ text, from };
	si_put(&o->seen, text, o->n++);
}

static void offer_stageset(struct offers *o, const struct obj *ss)
{
	const struct val *v = val_path(ss->spec, "version.value");

	if (adm_in_group(ss, ADM_GROUP_STAGES, "StageSet") && v && v->type == VAL_STRING)
		offer_add(o, v->u.s,
			  xasprintf("StageSet \"%s/%s\" spec.version.value", ss->ns, ss->name));
}

static void offers_init(struct offers *o, const struct scenario *s)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < s->nobjs; i++)
		offer_stageset(o, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY)
			offer_stageset(o, s->events[i].obj);
	for (size_t i = 0; i < s->nfevents; i++)
		if (s->fevents[i].type == SCN_FEV_PUBLISH)
			offer_add(o, s->fevents[i].version,
				  xasprintf("the publish of scenario event %zu",
					    s->fevents[i].index + 1));
	for (size_t i = 0; i < s->models.world.nsources; i++)
		offer_add(o, s->models.world.sources[i].initial_version,
			  xasprintf("the initialVersion of spec.models.sources[%zu]", i));
}

static void offers_release(struct offers *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->v[i].from);
	free(o->v);
	si_release(&o->seen);
}

/*
 * MS250 for FleetRollout @fr: its targetVersion parses, no offer has its
 * exact text, and an offer is the same semantic version (Compare ignores
 * build metadata and the `v`): fleetAdopted compares status.version with
 * targetVersion as text, and the fleet's approved-version stamp is
 * targetVersion, which a member under approvalMode Always compares as text
 * with the version it resolved.
 */
static void spelling(struct lint_report *r, const struct offers *o, const struct obj *fr)
{
	const struct val *tv = val_map_get(fr->spec, "targetVersion");
	struct ss_semver want, got;
	size_t pos;

	if (!tv || tv->type != VAL_STRING || !*tv->u.s || si_get(&o->seen, tv->u.s, &pos))
		return;
	if (ss_semver_parse(tv->u.s, &want, NULL, 0) != SS_OK)
		return; /* MS219 */
	for (size_t i = 0; i < o->n; i++) {
		if (ss_semver_parse(o->v[i].text, &got, NULL, 0) != SS_OK ||
		    ss_semver_compare(&want, &got) != 0)
			continue;
		lint_add(r, "MS250", fr->src.file, tv->mark.line ? tv->mark : fr->src.mark,
			 "FleetRollout %s: targetVersion \"%s\" is the version \"%s\" (%s) spelled "
			 "differently, and nothing in the scenario offers \"%s\" as written: the fleet "
			 "counts a member adopted only when its status.version is exactly \"%s\" and "
			 "stamps that text as approved-version, which a member under approvalMode "
			 "Always compares as text with the \"%s\" it resolved, so no member adopts it "
			 "and the first wave with members never settles",
			 fr->name, tv->u.s, o->v[i].text, o->v[i].from, tv->u.s, tv->u.s,
			 o->v[i].text);
		return;
	}
}

/* ---- MS251: a manual approved-version on a member of a pinned fleet (§6 #14) -- */

#define APPROVED_VERSION "stages.metio.wtf/approved-version"

/* A pinned FleetRollout without namespaceSelector and its selector, converted. */
struct pinned {
	const struct obj *fr;
	struct lbl_selector sel;
};

/* The StageSets of the inputs and apply events by "ns/name" (a later apply wins). */
struct stagesets {
	struct strindex idx;
	const struct obj **v; /* owned array of borrowed objects */
	size_t n;
};

static void stagesets_add(struct stagesets *x, const struct obj *o)
{
	char buf[256], *k;
	size_t pos;

	if (!adm_in_group(o, ADM_GROUP_STAGES, "StageSet"))
		return;
	k = kb_join2(buf, sizeof(buf), o->ns, o->name);
	if (si_get(&x->idx, k, &pos)) {
		x->v[pos] = o;
	} else {
		x->v[x->n] = o;
		si_put(&x->idx, k, x->n++);
	}
	kb_drop(k, buf);
}

static void stagesets_init(struct stagesets *x, const struct scenario *s)
{
	memset(x, 0, sizeof(*x));
	x->v = xcalloc(s->nobjs + s->nevents + 1, sizeof(*x->v));
	for (size_t i = 0; i < s->nobjs; i++)
		stagesets_add(x, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY)
			stagesets_add(x, s->events[i].obj);
}

static const struct obj *stageset(const struct stagesets *x, const char *ns, const char *name)
{
	char buf[256], *k = kb_join2(buf, sizeof(buf), ns, name);
	size_t pos;
	bool found = si_get(&x->idx, k, &pos);

	kb_drop(k, buf);
	return found ? x->v[pos] : NULL;
}

/*
 * The value an annotate or patch event @ev writes to approved-version, and
 * where; NULL when it does not write one.
 */
static const char *approval_of(const struct scn_event *ev, struct val_mark *mark)
{
	*mark = ev->mark;
	if (ev->type == SCN_EV_ANNOTATE)
		return obj_strmap_get(&ev->set, APPROVED_VERSION);
	if (ev->type == SCN_EV_PATCH) {
		const struct val *v =
			val_map_get(val_path(ev->merge, "metadata.annotations"), APPROVED_VERSION);

		if (v && v->type == VAL_STRING) {
			if (v->mark.line)
				*mark = v->mark;
			return v->u.s;
		}
	}
	return NULL;
}

/*
 * MS251: an event stamps approved-version V on a StageSet that a pinned
 * FleetRollout selects (spec.selector; fleets with a namespaceSelector are
 * left out: lint does not know the namespaces' labels at every time), with
 * V not its targetVersion.  FC:approve overwrites the annotation with
 * targetVersion for every member of every open wave on each pass that does
 * not halt.  Cost: O(objects + events + approving events × fleets) expected.
 */
static void manual_approvals(struct lint_report *r, const struct scenario *s)
{
	struct pinned *p = NULL;
	size_t np = 0;
	struct stagesets x;
	bool indexed = false;

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];
		struct val_mark mark;
		const char *v = approval_of(ev, &mark);
		const struct obj *ss;

		if (!v || strcmp(ev->target.kind, "StageSet") != 0)
			continue;
		if (!indexed) {
			stagesets_init(&x, s);
			indexed = true;
		}
		if (!(ss = stageset(&x, ev->target.ns, ev->target.name)))
			continue;
		if (!p) { /* the pinned fleets, once */
			const struct obj **frs = xcalloc(s->nobjs + s->nevents + 1, sizeof(*frs));
			size_t nfr = 0;

			for (size_t k = 0; k < s->nobjs; k++)
				if (adm_in_group(s->objs[k], ADM_GROUP_STAGES, "FleetRollout"))
					frs[nfr++] = s->objs[k];
			for (size_t k = 0; k < s->nevents; k++)
				if (s->events[k].type == SCN_EV_APPLY &&
				    adm_in_group(s->events[k].obj, ADM_GROUP_STAGES, "FleetRollout"))
					frs[nfr++] = s->events[k].obj;
			p = xcalloc(nfr + 1, sizeof(*p));
			for (size_t k = 0; k < nfr; k++) {
				const struct val *spec = frs[k]->spec;
				char err[256];

				if (!*val_str(val_map_get(spec, "targetVersion"), "") ||
				    val_map_get(spec, "namespaceSelector") ||
				    lbl_selector_from_val(val_map_get(spec, "selector"), &p[np].sel, err,
							  sizeof(err)) != LBL_OK)
					continue;
				p[np++].fr = frs[k];
			}
			free(frs);
		}
		for (size_t k = 0; k < np; k++) {
			const char *target = val_str(val_map_get(p[k].fr->spec, "targetVersion"), "");
			char at[GT_DURATION_BUFSZ];

			if (strcmp(v, target) == 0 || !lbl_matches(&p[k].sel, &ss->labels))
				continue;
			gt_format_duration(ev->at_ms, at, sizeof(at));
			lint_add(r, "MS251", ev->file, mark,
				 "scenario event %zu at %s sets %s \"%s\" on StageSet \"%s/%s\", which "
				 "FleetRollout %s selects: the fleet stamps its targetVersion \"%s\" as "
				 "the approved version of every member of its open waves on each pass that "
				 "does not halt, so it overwrites this approval once the member's wave is "
				 "open (at once if it is)",
				 ev->index + 1, at, APPROVED_VERSION, v, ss->ns, ss->name,
				 p[k].fr->name, target);
			break;
		}
	}
	if (p)
		for (size_t k = 0; k < np; k++)
			lbl_selector_release(&p[k].sel);
	free(p);
	if (indexed) {
		si_release(&x.idx);
		free(x.v);
	}
}

void lint_fleet_quirks(struct lint_report *r, const struct scenario *s)
{
	struct offers o;

	offers_init(&o, s);
	for (size_t i = 0; i < s->nobjs; i++)
		if (adm_in_group(s->objs[i], ADM_GROUP_STAGES, "FleetRollout"))
			spelling(r, &o, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY &&
		    adm_in_group(s->events[i].obj, ADM_GROUP_STAGES, "FleetRollout"))
			spelling(r, &o, s->events[i].obj);
	offers_release(&o);
	manual_approvals(r, s);
}
