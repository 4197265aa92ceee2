/*
 * The StageSet stale-status rules of lint (MS262..MS267); see
 * lint_ss_stale.h.
 */
#include "sim/lint/lint_ss_stale.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/lint/lint_ss_ledgers.h"
#include "sim/load/scn_ssworld.h"

/* A Go duration of @ms, into @buf (GT_DURATION_BUFSZ). */
static const char *dur(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

static bool is_stageset(const struct obj *o)
{
	return o && o->kind && strcmp(o->kind, "StageSet") == 0;
}

/* When StageSet @ss comes into being: 0 for an input, else its apply event's time. */
static int64_t created_ms(const struct scenario *s, const struct obj *ss)
{
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && s->events[i].obj == ss)
			return s->events[i].at_ms;
	return 0;
}

/* Whether a scripted event targets StageSet @ss. */
static bool targets(const struct scn_event *e, const struct obj *ss)
{
	return e->target.kind && !strcmp(e->target.kind, "StageSet") && e->target.ns && !strcmp(e->target.ns, ss->ns) &&
	       e->target.name && !strcmp(e->target.name, ss->name);
}

/* ---------------------------------------------------------------- MS262 */

/*
 * MS262 (StageSet spec R-21, §5 Q-21): a soak on the last stage holds the
 * success tail, the one writer of status.version and lastAppliedRevisions,
 * while every stage already runs the new revision.
 */
static void rule_last_stage_soak(struct lint_report *r, const struct obj *ss, const struct sst_spec *sp)
{
	const struct sst_stage *last = sp->nstages ? &sp->stages[sp->nstages - 1] : NULL;
	char d[GT_DURATION_BUFSZ];

	if (!last || !last->has_promotion || !last->promotion.soak.set || last->promotion.soak.ms <= 0)
		return;
	dur(last->promotion.soak.ms, d);
	lint_add(r, "MS262", ss->src.file, lint_ss_stage_key_mark(ss, last->name, "promotion", "soak"),
		 "StageSet %s/%s: its last stage \"%s\" soaks %s before promotion, though no stage comes after "
		 "it: status.version and status.lastAppliedRevisions are written only by the success that "
		 "follows the soak, so for %s after each version has been applied and verified on every stage "
		 "they still name the version before it (status.pendingVersion is already empty and Ready is "
		 "False, Soaking), and whatever reads status.version takes the StageSet for the old version",
		 ss->ns, ss->name, last->name, d, d);
}

/* ---------------------------------------------------------------- MS263 */

/*
 * The first promotion gate of @st that reverts on failure, in words
 * ("promotion analysis", "restart check \"crashes\""), into @buf; false for
 * none.  A check's own onFailure comes before its gate's.
 */
static bool rollback_gate(const struct sst_stage *st, char *buf, size_t len)
{
	const struct sst_promotion *p = &st->promotion;

	if (!st->has_promotion)
		return false;
	if (p->has_analysis && p->analysis.on_failure && strcmp(p->analysis.on_failure, "Rollback") == 0) {
		snprintf(buf, len, "a failed promotion analysis");
		return true;
	}
	for (size_t i = 0; p->has_restart_gate && i < p->restart_gate.nchecks; i++) {
		const struct sst_restart_check *c = &p->restart_gate.checks[i];
		const char *of = c->on_failure && *c->on_failure ? c->on_failure : p->restart_gate.on_failure;

		if (of && strcmp(of, "Rollback") == 0) {
			snprintf(buf, len, "a failed restart check \"%s\"", c->name ? c->name : "");
			return true;
		}
	}
	for (size_t i = 0; p->has_event_gate && i < p->event_gate.nchecks; i++) {
		const struct sst_event_check *c = &p->event_gate.checks[i];
		const char *of = c->on_failure && *c->on_failure ? c->on_failure : p->event_gate.on_failure;

		if (of && strcmp(of, "Rollback") == 0) {
			snprintf(buf, len, "a failed event check \"%s\"", c->name ? c->name : "");
			return true;
		}
	}
	return false;
}

/*
 * The first version that reaches @ss after @t_ms, in words ("2.1.0,
 * published at 30m0s") into @buf; false for none: a publish whose selector
 * matches its labels, or a patch of its spec.version.
 */
static bool later_version(const struct scenario *s, const struct obj *ss, int64_t t_ms, char *buf, size_t len)
{
	int64_t when = -1;
	char at[GT_DURATION_BUFSZ];

	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];

		if (p->type != SCN_FEV_PUBLISH || p->at_ms <= t_ms || (when >= 0 && p->at_ms >= when) ||
		    !lbl_matches(&p->selector, &ss->labels))
			continue;
		when = p->at_ms;
		snprintf(buf, len, "%s, published at %s", p->version ? p->version : "a version", dur(when, at));
	}
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const struct val *v = e->type == SCN_EV_PATCH && e->merge ? val_path(e->merge, "spec.version") : NULL;

		if (!v || !targets(e, ss) || e->at_ms <= t_ms || (when >= 0 && e->at_ms >= when))
			continue;
		when = e->at_ms;
		snprintf(buf, len, "the spec.version patch at %s", dur(when, at));
	}
	return when >= 0;
}

/*
 * Whether event @e turns spec.rollbackOnFailure of StageSet @ss off: a patch
 * of it to false or null, or a re-apply of @ss without it true.
 */
static bool switches_off(const struct scn_event *e, const struct obj *ss)
{
	if (e->type == SCN_EV_PATCH && e->merge && targets(e, ss)) {
		const struct val *spec = val_map_get(e->merge, "spec");
		const struct val_kv *kv = spec && spec->type == VAL_MAP ? val_map_get_kv(spec, "rollbackOnFailure") : NULL;

		return kv && !val_bool(kv->v, false);
	}
	if (e->type == SCN_EV_APPLY && e->obj && e->obj != ss && is_stageset(e->obj) && !strcmp(e->obj->ns, ss->ns) &&
	    !strcmp(e->obj->name, ss->name))
		return !val_bool(e->obj->spec ? val_map_get(e->obj->spec, "rollbackOnFailure") : NULL, false);
	return false;
}

/*
 * MS263 (StageSet spec R-21, S-14, §5 Q-27): rollbackOnFailure switched
 * off leaves status.lastAppliedSnapshot as it was; gate reverts still read
 * it, and no later success refreshes it.
 */
static void rule_stale_snapshot(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				const struct sst_spec *sp)
{
	int64_t born = created_ms(s, ss);

	if (!sp->rollback_on_failure)
		return;
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		char gate[160], next[160], at[GT_DURATION_BUFSZ];
		const struct sst_stage *st = NULL;

		if (e->at_ms < born || !switches_off(e, ss))
			continue;
		for (size_t k = 0; k < sp->nstages && !st; k++)
			if (rollback_gate(&sp->stages[k], gate, sizeof(gate)))
				st = &sp->stages[k];
		if (st && later_version(s, ss, e->at_ms, next, sizeof(next)))
			lint_add(r, "MS263", e->file, e->mark,
				 "the %s event at %s switches rollbackOnFailure off on StageSet %s/%s, whose stage "
				 "\"%s\" is rolled back on %s (onFailure Rollback): status.lastAppliedSnapshot is not "
				 "cleared, and from then on no success refreshes it, yet gate reverts still read it, "
				 "so once a later version has been adopted (the first: %s) a failed gate rolls \"%s\" "
				 "back past it, to the revision the last success before %s recorded",
				 e->type == SCN_EV_PATCH ? "patch" : "apply", dur(e->at_ms, at), ss->ns, ss->name,
				 st->name, gate, next, st->name, at);
		return; /* the first switch-off only: the snapshot is frozen from there */
	}
}

/* ---------------------------------------------------------------- MS264 */

/* Whether the stages list @stages has a stage named @name. */
static bool lists_stage(const struct val *stages, const char *name)
{
	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n; i++)
		if (!strcmp(val_str(val_map_get(stages->u.list.items[i], "name"), ""), name))
			return true;
	return false;
}

/*
 * The promotion soaks of the stages of @sp that @after keeps, in words
 * ("prod 1h0m0s") into @buf, and their sum in ms (0: none).  No rollout
 * of a new revision passes them sooner than that sum after it starts.
 */
static int64_t kept_soaks(const struct sst_spec *sp, const struct val *after, char *buf, size_t len)
{
	char d[GT_DURATION_BUFSZ];
	size_t used = 0;
	int64_t sum = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sp->nstages; k++) {
		const struct sst_stage *st = &sp->stages[k];

		if (!lists_stage(after, st->name) || !st->has_promotion || !st->promotion.soak.set ||
		    st->promotion.soak.ms <= 0)
			continue;
		sum += st->promotion.soak.ms;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s %s", used ? ", " : "",
					 st->name, dur(st->promotion.soak.ms, d));
	}
	return sum;
}

/*
 * MS264 (StageSet spec R-20, §5 Q-28): a stage removed while a new revision
 * is held at the promotion soaks of the stages kept.  The prune that
 * deletes a removed stage's objects runs only at a full success, so they
 * stay until that rollout completes.  Told for a patch or re-apply of the
 * stages list that drops a stage of the manifest, when a publish reaching
 * the StageSet came at most the kept stages' soaks (summed) before it.
 */
static void rule_removed_stage(struct lint_report *r, const struct scenario *s, const struct obj *ss,
			       const struct sst_spec *sp)
{
	int64_t born = created_ms(s, ss);

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const struct val *after = NULL;
		const char *gone = NULL;
		char soaks[256], what[160], a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
		int64_t hold, pub = -1;

		if (e->at_ms < born)
			continue;
		if (e->type == SCN_EV_PATCH && e->merge && targets(e, ss))
			after = val_path(e->merge, "spec.stages");
		else if (e->type == SCN_EV_APPLY && e->obj && e->obj != ss && is_stageset(e->obj) &&
			 !strcmp(e->obj->ns, ss->ns) && !strcmp(e->obj->name, ss->name))
			after = e->obj->spec ? val_map_get(e->obj->spec, "stages") : NULL;
		if (!after || after->type != VAL_LIST)
			continue;
		for (size_t k = 0; k < sp->nstages && !gone; k++)
			if (!lists_stage(after, sp->stages[k].name))
				gone = sp->stages[k].name;
		hold = gone ? kept_soaks(sp, after, soaks, sizeof(soaks)) : 0;
		if (!hold)
			continue;
		for (size_t k = 0; k < s->nfevents; k++) {
			const struct scn_fevent *p = &s->fevents[k];

			if (p->type == SCN_FEV_PUBLISH && p->at_ms <= e->at_ms && p->at_ms + hold > e->at_ms &&
			    p->at_ms >= born && p->at_ms > pub && lbl_matches(&p->selector, &ss->labels)) {
				pub = p->at_ms;
				snprintf(what, sizeof(what), "%s (published at %s)", p->version ? p->version : "a version",
					 dur(p->at_ms, a));
			}
		}
		if (pub < 0)
			continue;
		lint_add(r, "MS264", e->file, e->mark,
			 "the %s event at %s removes stage \"%s\" from StageSet %s/%s while %s cannot yet have "
			 "passed the promotion soaks of the stages it keeps (%s: not before %s): the controller "
			 "deletes a removed stage's objects only at a full success, so \"%s\"'s objects stay in "
			 "the cluster until that rollout completes, though status.stages drops \"%s\" at once",
			 e->type == SCN_EV_PATCH ? "patch" : "apply", dur(e->at_ms, b), gone, ss->ns, ss->name, what,
			 soaks, dur(pub + hold, c), gone, gone);
	}
}

/* ---------------------------------------------------------------- MS265 */

/* The approval annotation (StageSet spec R-14). */
#define APPROVED_VERSION "stages.metio.wtf/approved-version"

/* The approved-version event @e sets on @ss, NULL: none (borrowed). */
static const char *approval_of(const struct scn_event *e, const struct obj *ss)
{
	if (!targets(e, ss))
		return NULL;
	if (e->type == SCN_EV_ANNOTATE)
		return obj_strmap_get(&e->set, APPROVED_VERSION);
	if (e->type == SCN_EV_PATCH && e->merge)
		return val_str(val_map_get(val_path(e->merge, "metadata.annotations"), APPROVED_VERSION), NULL);
	return NULL;
}

/* The promotion soaks of every stage of @sp, in words into @buf, and their sum in ms. */
static int64_t all_soaks(const struct sst_spec *sp, char *buf, size_t len)
{
	char d[GT_DURATION_BUFSZ];
	size_t used = 0;
	int64_t sum = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sp->nstages; k++) {
		const struct sst_stage *st = &sp->stages[k];

		if (!st->has_promotion || !st->promotion.soak.set || st->promotion.soak.ms <= 0)
			continue;
		sum += st->promotion.soak.ms;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s %s", used ? ", " : "",
					 st->name, dur(st->promotion.soak.ms, d));
	}
	return sum;
}

/*
 * MS265 (StageSet spec R-14, §5 Q-22): under approvalMode Always the
 * approval gate runs on every pass, before the stages, so changing
 * approved-version while an approved transition is still under way (it
 * cannot have passed the soaks of its stages yet) holds it again,
 * half-applied.  The transition is the one a publish of the version the
 * annotation then approved started: at the later of the publish and the
 * approval.
 */
static void rule_approval_rehold(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				 const struct sst_spec *sp)
{
	char soaks[256];
	int64_t hold;
	const char *approved = obj_strmap_get(&ss->annotations, APPROVED_VERSION);
	int64_t approved_ms = created_ms(s, ss);

	if (!sp->has_version || strcmp(sp->version.approval_mode, "Always") != 0 ||
	    !(hold = all_soaks(sp, soaks, sizeof(soaks))))
		return;
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const char *now = approval_of(e, ss);
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ];
		int64_t start = -1, pub = -1;

		if (!now)
			continue;
		for (size_t k = 0; approved && k < s->nfevents; k++) {
			const struct scn_fevent *p = &s->fevents[k];

			if (p->type == SCN_FEV_PUBLISH && p->version && !strcmp(p->version, approved) &&
			    p->at_ms <= e->at_ms && lbl_matches(&p->selector, &ss->labels) && p->at_ms > pub)
				pub = p->at_ms;
		}
		if (pub >= 0)
			start = pub > approved_ms ? pub : approved_ms;
		if (start >= 0 && strcmp(now, approved) != 0 && e->at_ms < start + hold)
			lint_add(r, "MS265", e->file, e->mark,
				 "the %s event at %s sets %s to \"%s\" on StageSet %s/%s (approvalMode Always) while "
				 "%s, approved at %s and published at %s, cannot yet have passed its promotion soaks "
				 "(%s: not before %s): the approval gate runs on every pass, before the stages, so the "
				 "next pass holds %s AwaitingApproval half-applied, the stages it reached running it "
				 "and the later ones the old version, until \"%s\" is approved again or another "
				 "version comes",
				 e->type == SCN_EV_PATCH ? "patch" : "annotate", dur(e->at_ms, a), APPROVED_VERSION, now,
				 ss->ns, ss->name, approved, dur(approved_ms, b), dur(pub, c), soaks,
				 dur(start + hold, d), approved, approved);
		approved = now;
		approved_ms = e->at_ms;
	}
}

/* ---------------------------------------------------------------- MS266 */

/* " from 1h0m0s until 1h40m0s" (each window of @w, joined by " and"), into @buf. */
static void windows_text(const struct scn_sw_windows *w, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < w->n && used < len; i++) {
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

		if (w->items[i].until_ms == INT64_MAX)
			used += (size_t)snprintf(buf + used, len - used, "%s from %s on", i ? " and" : "",
						 dur(w->items[i].from_ms, a));
		else
			used += (size_t)snprintf(buf + used, len - used, "%s from %s until %s", i ? " and" : "",
						 dur(w->items[i].from_ms, a), dur(w->items[i].until_ms, b));
	}
}

/*
 * The fetch-error windows the sources model gives the source @ref of a
 * StageSet in namespace @ns names (the first entry that matches and sets
 * them), NULL: none, or a source the inputs hold (read as it is; @held
 * indexes the inputs' objects by "kind/ns/name").
 */
static const struct scn_sw_windows *fetch_errors(const struct scenario *s, const struct strindex *held,
						 const struct sst_source_ref *ref, const char *ns)
{
	const char *kind = ref->kind && *ref->kind ? ref->kind : "ExternalArtifact";
	const char *rns = ref->ns && *ref->ns ? ref->ns : ns;
	char buf[256], *key = kb_join3(buf, sizeof(buf), kind, rns, ref->name);
	size_t at;
	bool in_inputs = si_get(held, key, &at);

	kb_drop(key, buf);
	if (in_inputs)
		return NULL;
	for (size_t i = 0; i < s->models.world.nsources; i++) {
		const struct scn_sw_source *e = &s->models.world.sources[i];

		if ((e->kind && strcmp(e->kind, kind)) || (e->ns && strcmp(e->ns, rns)) ||
		    (e->name && strcmp(e->name, ref->name)))
			continue;
		if (e->has_fetch_errors)
			return e->fetch_errors.n ? &e->fetch_errors : NULL;
	}
	return NULL;
}

/* The stage of @sp named @name, or NULL. */
static const struct sst_stage *stage_of(const struct sst_spec *sp, const char *name)
{
	for (size_t i = 0; name && i < sp->nstages; i++)
		if (!strcmp(sp->stages[i].name, name))
			return &sp->stages[i];
	return NULL;
}

/*
 * MS266 (StageSet spec R-13, §5 Q-23): the version plan fetches the
 * version artifact (fromArtifact, fromObject) and the migrations ladder
 * (migrationsSourceRef); a fetch error there is transient and the pass
 * writes nothing, so status goes on saying what the last pass before said.
 */
static void rule_silent_plan_error(struct lint_report *r, const struct scenario *s, const struct strindex *held,
				   const struct obj *ss, const struct sst_spec *sp)
{
	const struct sst_stage *st = NULL;
	const struct sst_source_ref *ref = NULL;
	const struct scn_sw_windows *w;
	char what[256], when[256];

	if (sp->has_version && sp->version.has_from_artifact && (st = stage_of(sp, sp->version.fa_stage))) {
		ref = &st->source_ref;
		snprintf(what, sizeof(what), "reads its version from stage \"%s\"'s artifact", st->name);
	} else if (sp->has_version && sp->version.has_from_object && (st = stage_of(sp, sp->version.fo_stage))) {
		ref = &st->source_ref;
		snprintf(what, sizeof(what), "reads its version through stage \"%s\"'s source", st->name);
	}
	if (!ref || !(w = fetch_errors(s, held, ref, ss->ns))) {
		if (!sp->has_migrations_source || !(w = fetch_errors(s, held, &sp->migrations_source_ref, ss->ns)))
			return;
		ref = &sp->migrations_source_ref;
		snprintf(what, sizeof(what), "reads its migration ladder from spec.migrationsSourceRef");
	}
	windows_text(w, when, sizeof(when));
	lint_add(r, "MS266", ss->src.file, ss->src.mark,
		 "StageSet %s/%s %s (%s %s/%s), which the sources model cannot fetch%s: every pass then fails "
		 "at the version plan with a transient error, which writes nothing, so its status (Ready, its "
		 "message, observedGeneration, pendingVersion) goes on saying what the last pass before said "
		 "while the controller retries in error back-off (5ms doubling up to 16m40s)",
		 ss->ns, ss->name, what, ref->kind && *ref->kind ? ref->kind : "ExternalArtifact",
		 ref->ns && *ref->ns ? ref->ns : ss->ns, ref->name, when);
}

/* ---------------------------------------------------------------- MS267 */

/*
 * MS267 (StageSet spec R-14, §5 Q-32): an approval names one version
 * exactly; one stamped for a version that a later publish has replaced by
 * then approves nothing pending, and the newer version stays held.
 */
static void rule_stale_approval(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				const struct sst_spec *sp)
{
	if (!sp->has_version || strcmp(sp->version.approval_mode, "Always") != 0)
		return;
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const char *v = approval_of(e, ss);
		const struct scn_fevent *last = NULL, *mine = NULL;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];

		if (!v)
			continue;
		for (size_t k = 0; k < s->nfevents; k++) {
			const struct scn_fevent *p = &s->fevents[k];

			if (p->type != SCN_FEV_PUBLISH || !p->version || p->at_ms > e->at_ms ||
			    !lbl_matches(&p->selector, &ss->labels))
				continue;
			if (!last || p->at_ms >= last->at_ms)
				last = p;
			if (!strcmp(p->version, v))
				mine = p;
		}
		if (!mine || !last || last == mine || !strcmp(last->version, v) || last->at_ms <= mine->at_ms)
			continue;
		lint_add(r, "MS267", e->file, e->mark,
			 "the %s event at %s approves %s on StageSet %s/%s (approvalMode Always), published at %s, "
			 "but %s, published at %s, replaced it before the approval: the approval gate compares "
			 "stages.metio.wtf/approved-version with the version the source offers now, exactly, so "
			 "this approval approves nothing pending and %s stays held AwaitingApproval",
			 e->type == SCN_EV_PATCH ? "patch" : "annotate", dur(e->at_ms, a), v, ss->ns, ss->name,
			 dur(mine->at_ms, b), last->version, dur(last->at_ms, c), last->version);
	}
}

/* ---------------------------------------------------------------- entry */

void lint_ss_stale(struct lint_report *r, const struct scenario *s)
{
	const struct obj **v = xcalloc(s->nobjs + s->nevents + 1, sizeof(*v));
	struct strindex held = { 0 }, first = { 0 };
	size_t n = 0, at;

	/*
	 * Two indexes, so that each StageSet's look-ups cost O(1) and a large
	 * fleet lints in time linear in its members: the inputs' objects by
	 * kind, namespace and name (a source they hold), and each StageSet
	 * name's first manifest (inputs before applied ones, as v lists them).
	 */
	for (size_t i = 0; i < s->nobjs; i++) {
		char buf[256], *key = kb_join3(buf, sizeof(buf), s->objs[i]->kind ? s->objs[i]->kind : "",
					       s->objs[i]->ns, s->objs[i]->name);

		if (!si_get(&held, key, &at))
			si_put(&held, key, i);
		kb_drop(key, buf);
		if (is_stageset(s->objs[i]))
			v[n++] = s->objs[i];
	}
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && is_stageset(s->events[i].obj))
			v[n++] = s->events[i].obj;
	for (size_t i = 0; i < n; i++) {
		char buf[256], *key = kb_join2(buf, sizeof(buf), v[i]->ns, v[i]->name);

		if (!si_get(&first, key, &at))
			si_put(&first, key, i);
		kb_drop(key, buf);
	}
	for (size_t i = 0; i < n; i++) {
		struct sst_spec sp;
		char err[256];
		char buf[256], *key = kb_join2(buf, sizeof(buf), v[i]->ns, v[i]->name);
		bool is_first = si_get(&first, key, &at) && at == i;

		kb_drop(key, buf);
		if (!is_first || !v[i]->spec || v[i]->spec->type != VAL_MAP ||
		    sst_spec_parse(v[i]->spec, &sp, err, sizeof(err)) != 0)
			continue; /* a re-apply (its first manifest is linted), or a spec MS001 refuses */
		rule_last_stage_soak(r, v[i], &sp);
		rule_stale_snapshot(r, s, v[i], &sp);
		rule_removed_stage(r, s, v[i], &sp);
		rule_approval_rehold(r, s, v[i], &sp);
		rule_silent_plan_error(r, s, &held, v[i], &sp);
		rule_stale_approval(r, s, v[i], &sp);
		sst_spec_release(&sp);
	}
	si_release(&held);
	si_release(&first);
	free(v);
}
