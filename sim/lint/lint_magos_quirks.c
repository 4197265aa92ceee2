/*
 * MS117 and MS118: the Workspace surprises of spec §7 #20, #23 and #24 as the
 * manifests and the scenario's events show them (lint_magos_quirks.h).
 */
#include "sim/lint/lint_magos_quirks.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/admission.h"
#include "sim/lint/lint_marks.h"

static bool is_magos(const struct obj *o, const char *kind)
{
	return adm_in_group(o, ADM_GROUP_MAGOS, kind);
}

/*
 * What the checks look up: the Workspaces by "ns/name" (an apply event's
 * object replaces the input of the same name, as in the cluster) and the
 * projects a Rollout orchestrates, by "ns/project".
 */
struct quirks {
	const struct scenario *s;
	struct strindex ws;       /* "ns/name" → index into @wsv */
	const struct obj **wsv;   /* owned array of borrowed Workspaces */
	size_t nws;
	struct strindex rollouts; /* "ns/project" of every Rollout */
	struct lint_reread rr;
};

static void add_object(struct quirks *q, const struct obj *o)
{
	char buf[256], *k;
	size_t pos;

	if (is_magos(o, "Rollout")) {
		k = kb_join2(buf, sizeof(buf), o->ns,
			     val_str(val_map_get(o->spec, "projectRef"), ""));
		si_put(&q->rollouts, k, 0);
		kb_drop(k, buf);
		return;
	}
	if (!is_magos(o, "Workspace"))
		return;
	k = kb_join2(buf, sizeof(buf), o->ns, o->name);
	if (si_get(&q->ws, k, &pos)) {
		q->wsv[pos] = o;
	} else {
		q->wsv[q->nws] = o;
		si_put(&q->ws, k, q->nws++);
	}
	kb_drop(k, buf);
}

static void quirks_init(struct quirks *q, const struct scenario *s)
{
	memset(q, 0, sizeof(*q));
	q->s = s;
	q->wsv = xcalloc(s->nobjs + s->nevents + 1, sizeof(*q->wsv));
	for (size_t i = 0; i < s->nobjs; i++)
		add_object(q, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY)
			add_object(q, s->events[i].obj);
}

static void quirks_release(struct quirks *q)
{
	si_release(&q->ws);
	si_release(&q->rollouts);
	free(q->wsv);
	lint_reread_release(&q->rr);
}

/* The Workspace @ns/@name as the inputs and apply events leave it, or NULL. */
static const struct obj *workspace(const struct quirks *q, const char *ns, const char *name)
{
	char buf[256], *k = kb_join2(buf, sizeof(buf), ns, name);
	size_t pos;
	bool found = si_get(&q->ws, k, &pos);

	kb_drop(k, buf);
	return found ? q->wsv[pos] : NULL;
}

/* Whether a Rollout orchestrates the project Workspace @ws names. */
static bool orchestrated(const struct quirks *q, const struct obj *ws)
{
	char buf[256], *k = kb_join2(buf, sizeof(buf), ws->ns,
				     val_str(val_path(ws->spec, "projectRef.name"), ""));
	size_t pos;
	bool found = si_get(&q->rollouts, k, &pos);

	kb_drop(k, buf);
	return found;
}

/* ---- MS117: detected-revision present but empty (§7 #20) --------------------- */

/*
 * @ws (the Workspace as the manifests leave it) gets annotation
 * detected-revision "" from @where ("" for its manifest, else "scenario
 * event N at T: ").  The Workspace's reset rule 3 fires on the key's
 * presence when its value differs from status.observedRevision, which every
 * apply sets to spec.source.targetRevision; a successful apply deletes the
 * key only when it has a value.  With an empty targetRevision the two agree
 * after the first apply, and nothing loops.
 */
static void empty_revision(struct lint_report *r, const struct quirks *q, const struct obj *ws,
			   const char *file, struct val_mark mark, const char *where)
{
	const char *rev = val_str(val_path(ws->spec, "source.targetRevision"), "");

	if (!*rev)
		return;
	lint_add(r, "MS117", file, mark,
		 "%sWorkspace \"%s/%s\": annotation %s is present but empty: after each apply "
		 "observedRevision is \"%s\", which differs from \"\", so the next pass resets it "
		 "(NewRevisionDetected) and it plans and applies again, and a successful apply "
		 "removes the key only when it has a value, so this repeats forever%s",
		 where, ws->ns, ws->name, MW_ANN_DETECTED_REVISION, rev,
		 orchestrated(q, ws) ? "; its Rollout counts it pending on every pass, so its step "
				       "never completes and the later steps never open"
				     : "");
}

/* ---- MS118: timeoutSeconds zero or negative (§7 #24, #23) -------------------- */

static void timeout_of(struct lint_report *r, const struct obj *ws, const struct val *spec,
		       const char *file, struct val_mark fallback, const char *where)
{
	static const char *const phases[] = { "plan", "apply" };

	for (size_t i = 0; i < 2; i++) {
		const struct val *t = val_map_get(val_map_get(spec, phases[i]), "timeoutSeconds");
		struct val_mark mark = t && t->mark.line ? t->mark : fallback;
		bool plan = i == 0;

		if (!t || t->type != VAL_INT || t->u.i > 0)
			continue;
		if (t->u.i < 0)
			lint_add(r, "MS118", file, mark,
				 "%sWorkspace \"%s/%s\": spec.%s.timeoutSeconds is %" PRId64 ": the "
				 "%s Job gets it as activeDeadlineSeconds, which the Job API refuses "
				 "below 0, so the Workspace fails with ReconcileError %s",
				 where, ws->ns, ws->name, phases[i], t->u.i, phases[i],
				 plan ? "each time it would plan, the next pass resets it "
					"(ConfigurationChanged) and it never plans"
				      : "after its plan and never applies");
		else
			lint_add(r, "MS118", file, mark,
				 "%sWorkspace \"%s/%s\": spec.%s.timeoutSeconds is 0: the %s Job's "
				 "deadline is over when it starts, so it fails with DeadlineExceeded "
				 "without running (%s), and so does every retry; a Job that fails "
				 "before its first pod has no failed pods, and upstream the Workspace "
				 "may then look %s forever",
				 where, ws->ns, ws->name, phases[i], phases[i],
				 plan ? "PlanFailed" : "ApplyFailed", plan ? "Planning" : "Applying");
	}
}

/* ---- MS119: autoApply changed by an event (§7 #25) ---------------------------- */

/*
 * A patch that writes spec.autoApply of @ws to another value than its
 * manifest's (admission gives an absent one the CRD's default, true).  The spec hash covers the
 * whole spec, autoApply included: the Workspace takes the change for a new
 * spec and plans again, whatever phase it is in.
 */
static void auto_apply_flip(struct lint_report *r, const struct obj *ws, const struct scn_event *ev,
			    const char *where)
{
	const struct val *to = val_path(ev->merge, "spec.autoApply");
	const struct val *was = val_map_get(ws->spec, "autoApply");
	bool before = was && was->type == VAL_BOOL && was->u.b;

	if (!to || to->type != VAL_BOOL || to->u.b == before)
		return;
	lint_add(r, "MS119", ev->file, to->mark.line ? to->mark : ev->mark,
		 "%sWorkspace \"%s/%s\": the patch sets spec.autoApply to %s (%s before): autoApply "
		 "is part of the spec hash, so the Workspace takes the change for a new spec "
		 "(ConfigurationChanged) and plans again; a plan waiting in Planned for approval is "
		 "replaced, not applied%s",
		 where, ws->ns, ws->name, to->u.b ? "true" : "false", before ? "true" : "false",
		 to->u.b ? ", and one planning or applying runs beside the new plan Job" : "");
}

/* ---- events ------------------------------------------------------------------- */

static void lint_event(struct lint_report *r, struct quirks *q, const struct scn_event *ev)
{
	const struct obj *ws;
	char at[GT_DURATION_BUFSZ];
	char *where;

	if (ev->type != SCN_EV_ANNOTATE && ev->type != SCN_EV_PATCH && ev->type != SCN_EV_APPLY)
		return;
	if (strcmp(ev->target.kind, "Workspace") != 0)
		return;
	ws = ev->type == SCN_EV_APPLY ? ev->obj
				      : workspace(q, ev->target.ns, ev->target.name);
	if (!ws || !is_magos(ws, "Workspace"))
		return;
	gt_format_duration(ev->at_ms, at, sizeof(at));
	where = xasprintf("scenario event %zu at %s: ", ev->index + 1, at);
	if (ev->type == SCN_EV_APPLY) {
		const char *rev = obj_strmap_get(&ws->annotations, MW_ANN_DETECTED_REVISION);

		if (rev && !*rev)
			empty_revision(r, q, ws, ws->src.file,
				       lint_annotation_mark(&q->rr, ws, MW_ANN_DETECTED_REVISION),
				       where);
		timeout_of(r, ws, ws->spec, ws->src.file, ws->src.mark, where);
	} else if (ev->type == SCN_EV_ANNOTATE) {
		const char *rev = obj_strmap_get(&ev->set, MW_ANN_DETECTED_REVISION);

		if (rev && !*rev)
			empty_revision(r, q, ws, ev->file, ev->mark, where);
	} else {
		const struct val *v = val_map_get(val_path(ev->merge, "metadata.annotations"),
						  MW_ANN_DETECTED_REVISION);

		if (v && v->type == VAL_STRING && !*v->u.s)
			empty_revision(r, q, ws, ev->file, v->mark.line ? v->mark : ev->mark, where);
		timeout_of(r, ws, val_map_get(ev->merge, "spec"), ev->file, ev->mark, where);
		auto_apply_flip(r, ws, ev, where);
	}
	free(where);
}

void lint_magos_quirks(struct lint_report *r, const struct scenario *s)
{
	struct quirks q;

	quirks_init(&q, s);
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *ws = s->objs[i];
		const char *rev;

		if (!is_magos(ws, "Workspace"))
			continue;
		rev = obj_strmap_get(&ws->annotations, MW_ANN_DETECTED_REVISION);
		if (rev && !*rev)
			empty_revision(r, &q, ws, ws->src.file,
				       lint_annotation_mark(&q.rr, ws, MW_ANN_DETECTED_REVISION), "");
		timeout_of(r, ws, ws->spec, ws->src.file, ws->src.mark, "");
	}
	for (size_t i = 0; i < s->nevents; i++)
		lint_event(r, &q, &s->events[i]);
	quirks_release(&q);
}
