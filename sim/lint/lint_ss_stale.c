/*
 * The StageSet stale-status rules of lint (MS262..MS267, MS279, MS280); see
 * lint_ss_stale.h.
 */
#include "sim/lint/lint_ss_stale.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset.h"
#include "engine/stageset_controller.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/lint/lint_marks.h"
#include "sim/lint/lint_ss_deps.h"
#include "sim/lint/lint_ss_ledgers.h"
#include "sim/load/scn_ssworld.h"

/* A Go duration of @ms, into @buf (GT_DURATION_BUFSZ). */
static const char *dur(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

/* Whether a scripted event targets StageSet @ss. */
static bool targets(const struct scn_event *e, const struct obj *ss)
{
	return e->target.kind && !strcmp(e->target.kind, "StageSet") && e->target.ns && !strcmp(e->target.ns, ss->ns) &&
	       e->target.name && !strcmp(e->target.name, ss->name);
}

/* The manifest event @e re-applies StageSet @ss with (borrowed), NULL: none. */
static const struct obj *reapplied(const struct scn_event *e, const struct obj *ss)
{
	if (e->type == SCN_EV_APPLY && e->obj && e->obj != ss && scn_is_stageset(e->obj) && !strcmp(e->obj->ns, ss->ns) &&
	    !strcmp(e->obj->name, ss->name))
		return e->obj;
	return NULL;
}

/* The promotion soak of @st in ms, 0: none. */
static int64_t soak_of(const struct sst_stage *st)
{
	return st->has_promotion && st->promotion.soak.set && st->promotion.soak.ms > 0 ? st->promotion.soak.ms : 0;
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

	if (!last || !soak_of(last))
		return;
	dur(soak_of(last), d);
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
	const struct obj *re;

	if (e->type == SCN_EV_PATCH && e->merge && targets(e, ss)) {
		const struct val *spec = val_map_get(e->merge, "spec");
		const struct val_kv *kv = spec && spec->type == VAL_MAP ? val_map_get_kv(spec, "rollbackOnFailure") : NULL;

		return kv && !val_bool(kv->v, false);
	}
	if ((re = reapplied(e, ss)) != NULL)
		return !val_bool(re->spec ? val_map_get(re->spec, "rollbackOnFailure") : NULL, false);
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
	int64_t born = lint_ss_created_ms(s, ss);

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
 * The promotion soaks of the stages of @sp that @kept lists (NULL: of
 * every stage), in words ("prod 1h0m0s") into @buf, and their sum in ms
 * (0: none).  No rollout of a new revision passes them sooner than that
 * sum after it starts.
 */
static int64_t soaks_of(const struct sst_spec *sp, const struct val *kept, char *buf, size_t len)
{
	char d[GT_DURATION_BUFSZ];
	size_t used = 0;
	int64_t sum = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sp->nstages; k++) {
		const struct sst_stage *st = &sp->stages[k];
		int64_t ms = soak_of(st);

		if (!ms || (kept && !lists_stage(kept, st->name)))
			continue;
		sum += ms;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s %s", used ? ", " : "",
					 st->name, dur(ms, d));
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
	int64_t born = lint_ss_created_ms(s, ss);

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const struct val *after = NULL;
		const struct obj *re;
		const char *gone = NULL;
		char soaks[256], what[160], a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
		int64_t hold, pub = -1;

		if (e->at_ms < born)
			continue;
		if (e->type == SCN_EV_PATCH && e->merge && targets(e, ss))
			after = val_path(e->merge, "spec.stages");
		else if ((re = reapplied(e, ss)) != NULL)
			after = re->spec ? val_map_get(re->spec, "stages") : NULL;
		if (!after || after->type != VAL_LIST)
			continue;
		for (size_t k = 0; k < sp->nstages && !gone; k++)
			if (!lists_stage(after, sp->stages[k].name))
				gone = sp->stages[k].name;
		hold = gone ? soaks_of(sp, after, soaks, sizeof(soaks)) : 0;
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
	int64_t approved_ms = lint_ss_created_ms(s, ss);

	if (!sp->has_version || strcmp(sp->version.approval_mode, "Always") != 0 ||
	    !(hold = soaks_of(sp, NULL, soaks, sizeof(soaks))))
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

/* The windows of a sources model entry (spec.models.sources) a rule reads. */
enum src_field { SRC_FETCH_ERRORS, SRC_NOT_READY, SRC_MISSING, SRC_FORBIDDEN };

/*
 * The windows of @field the sources model gives the source @ref of a
 * StageSet in namespace @ns names (the first entry that matches and sets
 * them, as the world resolves it), NULL: none, or a source the inputs hold
 * (read as it is; @held indexes the inputs' objects by "kind/ns/name", so a
 * look-up costs O(1) whatever the fleet).  @entry (may be NULL) receives
 * that entry (borrowed).
 */
static const struct scn_sw_windows *source_windows(const struct scenario *s, const struct strindex *held,
						   const struct sst_source_ref *ref, const char *ns,
						   enum src_field field, const struct scn_sw_source **entry)
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
		const struct scn_sw_windows *w = field == SRC_FETCH_ERRORS ? &e->fetch_errors
					       : field == SRC_NOT_READY  ? &e->not_ready
					       : field == SRC_MISSING    ? &e->missing
									 : &e->forbidden;
		bool has = field == SRC_FETCH_ERRORS ? e->has_fetch_errors
			 : field == SRC_NOT_READY    ? e->has_not_ready
			 : field == SRC_MISSING      ? e->has_missing
						     : e->has_forbidden;

		if ((e->kind && strcmp(e->kind, kind)) || (e->ns && strcmp(e->ns, rns)) ||
		    (e->name && strcmp(e->name, ref->name)))
			continue;
		if (has) {
			if (entry)
				*entry = e;
			return w->n ? w : NULL;
		}
	}
	return NULL;
}

/* The fetch-error windows of the source @ref (source_windows()). */
static const struct scn_sw_windows *fetch_errors(const struct scenario *s, const struct strindex *held,
						 const struct sst_source_ref *ref, const char *ns)
{
	return source_windows(s, held, ref, ns, SRC_FETCH_ERRORS, NULL);
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

/* ---------------------------------------------------------------- MS279 */

/* What a pass meets when a stage's source is in a window of @f: its Ready reason, and the state in words. */
static const char *exit_reason(enum src_field f, const char **state)
{
	switch (f) {
	case SRC_NOT_READY:
		*state = "not Ready";
		return "SourceNotReady";
	case SRC_MISSING:
		*state = "absent";
		return "ArtifactNotFound";
	case SRC_FORBIDDEN:
		*state = "unreadable (Forbidden)";
		return "RBACDenied";
	default:
		*state = "unfetchable";
		return NULL;
	}
}

/* Whether event @e removes the approval annotation from @ss (annotate remove, a patch to null). */
static bool removes_approval(const struct scn_event *e, const struct obj *ss)
{
	const struct val *ann;
	const struct val_kv *kv;

	if (!targets(e, ss))
		return false;
	if (e->type == SCN_EV_ANNOTATE) {
		for (size_t i = 0; i < e->nremove; i++)
			if (!strcmp(e->remove[i], APPROVED_VERSION))
				return true;
		return false;
	}
	ann = e->type == SCN_EV_PATCH && e->merge ? val_path(e->merge, "metadata.annotations") : NULL;
	kv = ann && ann->type == VAL_MAP ? val_map_get_kv(ann, APPROVED_VERSION) : NULL;
	return kv && kv->v && kv->v->type == VAL_NULL;
}

/*
 * The value of the approval annotation on @ss at @t_ms: its manifest's,
 * changed (set or removed) by the annotate and patch events up to @t_ms
 * (borrowed; NULL: none).  @set_ms (may be NULL) receives when that value was set: the
 * StageSet's creation for its manifest's.
 */
static const char *approval_at(const struct scenario *s, const struct obj *ss, int64_t t_ms, int64_t *set_ms)
{
	const char *v = obj_strmap_get(&ss->annotations, APPROVED_VERSION);
	int64_t when = lint_ss_created_ms(s, ss);

	for (size_t i = 0; i < s->nevents; i++) {
		const char *now = s->events[i].at_ms <= t_ms ? approval_of(&s->events[i], ss) : NULL;

		if (now || (s->events[i].at_ms <= t_ms && removes_approval(&s->events[i], ss))) {
			v = now;
			when = s->events[i].at_ms;
		}
	}
	if (set_ms)
		*set_ms = when;
	return v;
}

/* What leaves a held version's pendingVersion standing, for MS279's message. */
struct early_exit {
	const char *file;
	struct val_mark mark;
	char what[512];     /* "the sources model makes ... not Ready from 1h20m0s until 2h0m0s" */
	const char *where;  /* "source resolution" */
	const char *reason; /* the Ready reason those passes write */
	int64_t from_ms, until_ms; /* INT64_MAX: to the end */
};

/*
 * The first window from @after_ms (exclusive) to @before_ms (exclusive) in
 * which the sources model makes one of @sp's stage sources not Ready,
 * absent or Forbidden, into @x; false for none.
 */
static bool source_exit(const struct scenario *s, const struct strindex *held, const struct obj *ss,
			const struct sst_spec *sp, int64_t after_ms, int64_t before_ms, struct early_exit *x)
{
	static const enum src_field fields[] = { SRC_NOT_READY, SRC_MISSING, SRC_FORBIDDEN };

	x->from_ms = INT64_MAX;
	for (size_t k = 0; k < sp->nstages; k++) {
		const struct sst_source_ref *ref = &sp->stages[k].source_ref;

		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			const struct scn_sw_source *src = NULL;
			const struct scn_sw_windows *w = source_windows(s, held, ref, ss->ns, fields[f], &src);
			const char *state, *reason = exit_reason(fields[f], &state);

			for (size_t j = 0; w && j < w->n; j++) {
				const struct scn_sw_window *win = &w->items[j];
				char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

				if (win->from_ms <= after_ms || win->from_ms >= before_ms || win->from_ms >= x->from_ms)
					continue;
				x->file = src->file;
				x->mark = src->mark;
				x->where = "stop at source resolution";
				x->reason = reason;
				x->from_ms = win->from_ms;
				x->until_ms = win->until_ms;
				if (win->until_ms == INT64_MAX)
					snprintf(x->what, sizeof(x->what), "the sources model makes stage \"%s\"'s %s %s/%s %s from %s on",
						 sp->stages[k].name, ref->kind && *ref->kind ? ref->kind : "ExternalArtifact",
						 ref->ns && *ref->ns ? ref->ns : ss->ns, ref->name, state, dur(win->from_ms, a));
				else
					snprintf(x->what, sizeof(x->what),
						 "the sources model makes stage \"%s\"'s %s %s/%s %s from %s until %s",
						 sp->stages[k].name, ref->kind && *ref->kind ? ref->kind : "ExternalArtifact",
						 ref->ns && *ref->ns ? ref->ns : ss->ns, ref->name, state, dur(win->from_ms, a),
						 dur(win->until_ms, b));
			}
		}
	}
	return x->from_ms != INT64_MAX;
}

/*
 * The first delete event from @after_ms (exclusive) to @before_ms
 * (exclusive) of the Secret @ss's spec.kubeConfig.secretRef names, into @x;
 * false for none.  (The decryption Secret is read after the approval gate,
 * R-15, so its absence leaves no held version behind.)
 */
static bool kubeconfig_exit(const struct scenario *s, const struct obj *ss, int64_t after_ms, int64_t before_ms,
			    struct early_exit *x)
{
	const char *secret = val_str(val_path(ss->spec, "kubeConfig.secretRef.name"), "");

	for (size_t i = 0; *secret && i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

		if (e->type != SCN_EV_DELETE || !e->target.kind || strcmp(e->target.kind, "Secret") ||
		    strcmp(e->target.ns ? e->target.ns : "", ss->ns) || !e->target.name ||
		    strcmp(e->target.name, secret) || e->at_ms <= after_ms || e->at_ms >= before_ms)
			continue;
		x->file = e->file;
		x->mark = e->mark;
		x->where = "fail to connect to the target cluster";
		x->reason = "StageFailed";
		x->from_ms = e->at_ms;
		x->until_ms = INT64_MAX;
		for (size_t k = 0; k < s->nevents; k++) {
			const struct scn_event *ap = &s->events[k];

			if (ap->type == SCN_EV_APPLY && ap->obj && !strcmp(ap->obj->kind, "Secret") &&
			    !strcmp(ap->obj->ns, ss->ns) && !strcmp(ap->obj->name, secret) && ap->at_ms >= e->at_ms) {
				x->until_ms = ap->at_ms;
				break;
			}
		}
		if (x->until_ms == INT64_MAX)
			snprintf(x->what, sizeof(x->what),
				 "the delete event at %s removes Secret %s/%s, which spec.kubeConfig.secretRef names, for "
				 "the rest of the run", dur(e->at_ms, a), ss->ns, secret);
		else
			snprintf(x->what, sizeof(x->what),
				 "the delete event at %s removes Secret %s/%s, which spec.kubeConfig.secretRef names, "
				 "until the apply at %s", dur(e->at_ms, a), ss->ns, secret, dur(x->until_ms, b));
		return true;
	}
	return false;
}

/* The StageSet @ns/@name among the inputs, or NULL. */
static const struct obj *input_stageset(const struct scenario *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (scn_is_stageset(s->objs[i]) && !strcmp(s->objs[i]->ns, ns) && !strcmp(s->objs[i]->name, name))
			return s->objs[i];
	return NULL;
}

/*
 * How long StageSet @dep is surely not ready after publish @q reaches it,
 * into @until_ms, and why in words into @why; false when nothing holds it
 * for long (its apply and readiness are the run's to tell): under
 * approvalMode Always a version not approved when it comes waits for its
 * approval event (or for ever), else the promotion soaks of its stages
 * follow the publish.
 */
static bool dep_not_ready(const struct scenario *s, const struct obj *dep, const struct scn_fevent *q,
			  int64_t *until_ms, char *why, size_t len)
{
	struct sst_spec dp;
	char err[256], soaks[200], d[GT_DURATION_BUFSZ];
	const char *appr;
	int64_t sum;
	bool slow = false;

	if (!dep->spec || dep->spec->type != VAL_MAP || sst_spec_parse(dep->spec, &dp, err, sizeof(err)) != 0)
		return false;
	appr = approval_at(s, dep, q->at_ms, NULL);
	if (dp.has_version && !strcmp(dp.version.approval_mode, "Always") && (!appr || strcmp(appr, q->version))) {
		*until_ms = INT64_MAX;
		for (size_t k = 0; k < s->nevents; k++) {
			const char *v = approval_of(&s->events[k], dep);

			if (v && !strcmp(v, q->version) && s->events[k].at_ms > q->at_ms && s->events[k].at_ms < *until_ms)
				*until_ms = s->events[k].at_ms;
		}
		if (*until_ms == INT64_MAX)
			snprintf(why, len, "waiting for an approval of it (approvalMode Always) that no event gives");
		else
			snprintf(why, len, "waiting for its approval (approvalMode Always) until %s", dur(*until_ms, d));
		slow = true;
	} else if ((sum = soaks_of(&dp, NULL, soaks, sizeof(soaks))) > 0) {
		*until_ms = q->at_ms + sum;
		snprintf(why, len, "soaking it for at least %s (%s)", dur(sum, d), soaks);
		slow = true;
	}
	sst_spec_release(&dp);
	return slow;
}

/*
 * The first publish from @after_ms (exclusive) to @before_ms (exclusive)
 * that reaches a StageSet @ss dependsOn and not @ss, and holds that
 * dependency not ready for long (dep_not_ready()), into @x; false for none.
 */
static bool dependency_exit(const struct scenario *s, const struct obj *ss, const struct sst_spec *sp,
			    int64_t after_ms, int64_t before_ms, struct early_exit *x)
{
	const struct val *deps = val_map_get(ss->spec, "dependsOn");

	x->from_ms = INT64_MAX;
	for (size_t i = 0; i < sp->ndepends_on; i++) {
		const struct sst_dependency *dd = &sp->depends_on[i];
		const struct obj *dep = input_stageset(s, *dd->ns ? dd->ns : ss->ns, dd->name);
		const struct val *entry = deps && deps->type == VAL_LIST && i < deps->u.list.n ? deps->u.list.items[i] : NULL;

		for (size_t k = 0; dep && dep != ss && k < s->nfevents; k++) {
			const struct scn_fevent *q = &s->fevents[k];
			char why[320], a[GT_DURATION_BUFSZ];
			int64_t until;

			if (q->type != SCN_FEV_PUBLISH || !q->version || q->at_ms <= after_ms || q->at_ms >= before_ms ||
			    q->at_ms >= x->from_ms || !lint_ss_publish_reaches(s, q, dep) ||
			    lint_ss_publish_reaches(s, q, ss) || !dep_not_ready(s, dep, q, &until, why, sizeof(why)))
				continue;
			x->file = ss->src.file;
			x->mark = entry && entry->mark.line ? entry->mark : ss->src.mark;
			x->where = "stop at the dependency check";
			x->reason = "DependencyNotReady";
			x->from_ms = q->at_ms;
			x->until_ms = until;
			snprintf(x->what, sizeof(x->what), "scenario event %zu at %s publishes %s to its dependency %s/%s "
				 "alone, which is not ready while it rolls that version out, %s",
				 q->index + 1, dur(q->at_ms, a), q->version, dep->ns, dep->name, why);
		}
	}
	return x->from_ms != INT64_MAX;
}

/*
 * MS279 (StageSet spec, §5 Q-23): status.pendingVersion is
 * written by the approval gate alone, so a pass that stops before it (at
 * source resolution, or at the connection to the target cluster; the
 * dependency check does the same, told by the run) leaves it naming the
 * version the last hold wrote, whatever has happened to it since.  Told
 * for a held publish (approvalMode Always, the annotation then names
 * another version) followed, before its approval and before the next
 * publish, by a window in which the sources model makes a stage's source
 * not Ready, absent or Forbidden, or by the deletion of the kubeConfig
 * Secret: the earlier of the two.
 */
static void rule_pending_after_exit(struct lint_report *r, const struct scenario *s, const struct strindex *held,
				    const struct obj *ss, const struct sst_spec *sp)
{
	int64_t born = lint_ss_created_ms(s, ss);

	if (!sp->has_version || strcmp(sp->version.approval_mode, "Always") != 0)
		return;
	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];
		struct early_exit x, y;
		const char *appr;
		int64_t end = INT64_MAX, ok = INT64_MAX;
		char a[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ], approved[96];
		bool have;

		if (p->type != SCN_FEV_PUBLISH || !p->version || p->at_ms < born ||
		    !lbl_matches(&p->selector, &ss->labels))
			continue;
		appr = approval_at(s, ss, p->at_ms, NULL);
		if (appr && !strcmp(appr, p->version))
			continue; /* approved before it came: not held */
		for (size_t k = 0; k < s->nfevents; k++)
			if (s->fevents[k].type == SCN_FEV_PUBLISH && s->fevents[k].at_ms > p->at_ms &&
			    s->fevents[k].at_ms < end && lbl_matches(&s->fevents[k].selector, &ss->labels))
				end = s->fevents[k].at_ms;
		for (size_t k = 0; k < s->nevents; k++) {
			const char *v = approval_of(&s->events[k], ss);

			if (v && !strcmp(v, p->version) && s->events[k].at_ms > p->at_ms && s->events[k].at_ms < ok)
				ok = s->events[k].at_ms;
		}
		have = source_exit(s, held, ss, sp, p->at_ms, end < ok ? end : ok, &x);
		if (kubeconfig_exit(s, ss, p->at_ms, end < ok ? end : ok, &y) && (!have || y.from_ms < x.from_ms)) {
			x = y;
			have = true;
		}
		if (dependency_exit(s, ss, sp, p->at_ms, end < ok ? end : ok, &y) && (!have || y.from_ms < x.from_ms)) {
			x = y;
			have = true;
		}
		if (!have)
			continue;
		if (ok != INT64_MAX && ok < x.until_ms)
			snprintf(approved, sizeof(approved), ", also once the approval at %s has come,", dur(ok, d));
		else
			approved[0] = '\0';
		lint_add(r, "MS279", x.file, x.mark,
			 "%s, published at %s, is held AwaitingApproval on StageSet %s/%s (approvalMode Always), which "
			 "writes status.pendingVersion %s; then %s: those passes %s (%s), before the approval gate, "
			 "the one writer of pendingVersion, so status.pendingVersion goes on naming %s beside Ready "
			 "False %s%s until a pass gets through again; an API error reading the StageLedger or the "
			 "StageInventory (ledgerErrors, MS283) writes no status at all",
			 p->version, dur(p->at_ms, a), ss->ns, ss->name, p->version, x.what, x.where, x.reason,
			 p->version, x.reason, approved);
	}
}

/* ---------------------------------------------------------------- MS280 */

/*
 * MS280 (StageSet spec R-14, §5 Q-22): the approval annotation is never
 * cleared, and a first adoption is never held.  A StageSet whose manifest
 * carries approved-version V, but whose inline spec.version.value is
 * another version W, baselines at W; when V is published later, the
 * annotation from before approves the transition W → V with nobody
 * approving it.  Told at the first publish of V that no approval event
 * precedes.  A version read from an artifact is left out: which version
 * the first pass baselines at is the run's to tell.
 */
static void rule_approval_reused(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				 const struct sst_spec *sp, struct lint_reread *rr)
{
	const char *v = obj_strmap_get(&ss->annotations, APPROVED_VERSION);
	const char *w = sp->has_version ? sp->version.value : "";
	int64_t born = lint_ss_created_ms(s, ss), first = INT64_MAX;
	char a[GT_DURATION_BUFSZ];

	if (!v || !*v || !sp->has_version || strcmp(sp->version.approval_mode, "Always") != 0 ||
	    sp->version.has_from_artifact || sp->version.has_from_object || !*w || !strcmp(v, w))
		return;
	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];

		if (p->type == SCN_FEV_PUBLISH && p->version && !strcmp(p->version, v) && p->at_ms >= born &&
		    p->at_ms < first && lbl_matches(&p->selector, &ss->labels))
			first = p->at_ms;
	}
	if (first == INT64_MAX)
		return;
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].at_ms >= born && s->events[i].at_ms <= first &&
		    (approval_of(&s->events[i], ss) || removes_approval(&s->events[i], ss)))
			return; /* approved again, or the approval removed, by an event: a decision of its own */
	lint_add(r, "MS280", ss->src.file, lint_annotation_mark(rr, ss, APPROVED_VERSION),
		 "StageSet %s/%s (approvalMode Always) comes with %s \"%s\" in its manifest, an approval from "
		 "before, while its spec.version.value is %s: its first pass adopts %s without asking (a first "
		 "adoption is never held), and the controller never clears the annotation, so when %s is "
		 "published at %s the old approval lets the transition %s to %s through with nobody "
		 "approving it",
		 ss->ns, ss->name, APPROVED_VERSION, v, w, w, v, dur(first, a), w, v);
}

/*
 * The approvalMode of @ss (spec @sp) at @t_ms: its manifest's, changed by
 * the patch events of spec.version.approvalMode up to @t_ms (borrowed; ""
 * for none).  @set_ms (may be NULL) receives when: -1 for the manifest's.
 */
static const char *mode_at(const struct scenario *s, const struct obj *ss, const struct sst_spec *sp, int64_t t_ms,
			   int64_t *set_ms)
{
	const char *m = sp->has_version ? sp->version.approval_mode : "";
	int64_t when = -1;

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const struct val *ver = e->type == SCN_EV_PATCH && e->merge && e->at_ms <= t_ms && targets(e, ss)
						? val_path(e->merge, "spec.version")
						: NULL;
		const struct val_kv *kv = ver && ver->type == VAL_MAP ? val_map_get_kv(ver, "approvalMode") : NULL;

		if (kv) {
			m = val_str(kv->v, "");
			when = e->at_ms;
		}
	}
	if (set_ms)
		*set_ms = when;
	return m;
}

/* Whether a move from version @from to @to is refused as a downgrade (allowDowngrade off, or not semver). */
static bool refused_downgrade(const struct sst_spec *sp, const char *from, const char *to)
{
	struct ss_semver a, b;

	if (ss_semver_parse(from, &a, NULL, 0) != SS_OK || ss_semver_parse(to, &b, NULL, 0) != SS_OK)
		return true;
	return ss_semver_compare(&b, &a) < 0 && !sp->version.allow_downgrade;
}

/*
 * MS280 (StageSet spec R-14, §5 Q-22), a version that comes back: under
 * approvalMode Always the annotation approves V and V is adopted; then
 * approvalMode is switched off and a publish of W is adopted without an
 * approval; approvalMode is switched back to Always, and when V is
 * published again the annotation, never cleared, still approves it.
 * Told at that publish, once per StageSet.
 */
static void rule_approval_comes_back(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				     const struct sst_spec *sp)
{
	int64_t born = lint_ss_created_ms(s, ss);

	if (!sp->has_version || sp->version.has_from_artifact || sp->version.has_from_object)
		return;
	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *pv = &s->fevents[i];
		int64_t t_a, t_on;
		const char *v = pv->version, *appr;

		if (pv->type != SCN_FEV_PUBLISH || !v || pv->at_ms < born || !lbl_matches(&pv->selector, &ss->labels) ||
		    strcmp(mode_at(s, ss, sp, pv->at_ms, &t_on), "Always") != 0)
			continue;
		appr = approval_at(s, ss, pv->at_ms, &t_a);
		if (!appr || strcmp(appr, v) != 0)
			continue;
		for (size_t k = 0; k < s->nfevents; k++) {
			const struct scn_fevent *pw = &s->fevents[k], *p1 = NULL;
			int64_t t_off;
			const char *mw;
			char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ],
				e[GT_DURATION_BUFSZ], f[GT_DURATION_BUFSZ];

			if (pw->type != SCN_FEV_PUBLISH || !pw->version || !strcmp(pw->version, v) || pw->at_ms <= t_a ||
			    pw->at_ms >= pv->at_ms || !lbl_matches(&pw->selector, &ss->labels) ||
			    !strcmp(mw = mode_at(s, ss, sp, pw->at_ms, &t_off), "Always") || t_on <= pw->at_ms ||
			    refused_downgrade(sp, v, pw->version) || refused_downgrade(sp, pw->version, v))
				continue;
			/* V adopted with the approval before W came: published and approved, under Always */
			for (size_t j = 0; j < s->nfevents && !p1; j++) {
				const struct scn_fevent *q = &s->fevents[j];
				int64_t adopted = q->at_ms > t_a ? q->at_ms : t_a;

				if (q->type == SCN_FEV_PUBLISH && q->version && !strcmp(q->version, v) && q->at_ms >= born &&
				    adopted < pw->at_ms && adopted < t_off && lbl_matches(&q->selector, &ss->labels) &&
				    !strcmp(mode_at(s, ss, sp, adopted, NULL), "Always"))
					p1 = q;
			}
			if (!p1)
				continue;
			lint_add(r, "MS280", pv->file, pv->mark,
				 "the publish at %s offers %s again to StageSet %s/%s, whose approvalMode is Always again "
				 "(the patch at %s), while stages.metio.wtf/approved-version still says \"%s\" from %s: "
				 "%s, adopted with that approval (published at %s), gave way to %s, published at %s "
				 "while approvalMode was %s (the patch at %s) and adopted without an approval, and the "
				 "controller never clears the annotation, so the old approval lets the transition %s "
				 "to %s through with nobody approving it",
				 dur(pv->at_ms, a), v, ss->ns, ss->name, dur(t_on, b), v, dur(t_a, c), v, dur(p1->at_ms, d),
				 pw->version, dur(pw->at_ms, e), *mw ? mw : "unset (Never)", dur(t_off, f), pw->version, v);
			return;
		}
	}
}

/* ---------------------------------------------------------------- entry */

/* ---------------------------------------------------------------- MS283 */

/*
 * Why StageSet @ss (created at @born_ms) reconciles in [@from_ms, @until_ms):
 * its first pass at its creation, a publish that reaches it (its source's
 * new revision, or its inline version edited, wakes it), or the window
 * lasting at least @gap_ms, the longest a pass waits for the next one when
 * steady or held (its steady or retry interval, +5% jitter).  In words into
 * @buf; false when nothing says a pass comes then.
 */
static bool reconciles_in(const struct scenario *s, const struct obj *ss, int64_t born_ms, int64_t gap_ms,
			  int64_t from_ms, int64_t until_ms, char *buf, size_t len)
{
	char a[GT_DURATION_BUFSZ];

	if (born_ms >= from_ms && born_ms < until_ms) {
		snprintf(buf, len, "its first pass, at its creation at %s", dur(born_ms, a));
		return true;
	}
	for (size_t k = 0; k < s->nfevents; k++) {
		const struct scn_fevent *p = &s->fevents[k];

		if (p->type == SCN_FEV_PUBLISH && p->at_ms >= from_ms && p->at_ms < until_ms &&
		    lbl_matches(&p->selector, &ss->labels)) {
			snprintf(buf, len, "the publish of %s at %s wakes it",
				 p->version ? p->version : "a new revision", dur(p->at_ms, a));
			return true;
		}
	}
	if (until_ms - from_ms >= gap_ms) {
		snprintf(buf, len, "it lasts longer than the %s a pass waits at most for the next one", dur(gap_ms, a));
		return true;
	}
	return false;
}

/*
 * MS283 (StageSet spec, §2.2, §5 Q-23): every pass Gets the
 * same-name StageLedger (Lifetime actions or not) and Lists the
 * StageInventory shards; an API error there returns the error before any
 * status write.  Told for each ledgerErrors entry of @ss's namespace and
 * name whose window, within the horizon and the StageSet's life, holds a
 * pass (reconciles_in()).
 */
static void rule_read_error(struct lint_report *r, const struct scenario *s, const struct obj *ss,
			    const struct sst_spec *sp)
{
	const struct scn_sw_config *c = &s->models.world;
	struct ssc_options o = ssc_options_default();
	int64_t born = lint_ss_created_ms(s, ss), steady = ssc_steady_interval(sp, &o), retry = ssc_retry_interval(sp, &o);
	int64_t gap = (retry > steady ? retry : steady) * 21 / 20;

	for (size_t i = 0; i < c->nread_errors; i++) {
		const struct scn_sw_read_error *e = &c->read_errors[i];
		int64_t from = e->window.from_ms > born ? e->window.from_ms : born;
		int64_t until = e->window.until_ms < s->horizon_ms ? e->window.until_ms : s->horizon_ms;
		char why[160], a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], span[96];

		if ((e->ns && strcmp(e->ns, ss->ns)) || (e->name && strcmp(e->name, ss->name)) || from >= until ||
		    !reconciles_in(s, ss, born, gap, from, until, why, sizeof(why)))
			continue;
		if (e->window.until_ms == INT64_MAX)
			snprintf(span, sizeof(span), "from %s on", dur(e->window.from_ms, a));
		else
			snprintf(span, sizeof(span), "from %s until %s", dur(e->window.from_ms, a),
				 dur(e->window.until_ms, b));
		lint_add(r, "MS283", ss->src.file, ss->src.mark,
			 "StageSet %s/%s: the StageSet world fails the read of its %s %s (ledgerErrors), and a pass "
			 "comes then (%s): every pass in that span returns the API error %s, before any status "
			 "write, so its status (Ready, its message, observedGeneration, pendingVersion) stays as the "
			 "last write before left it while the controller retries in error back-off (5ms doubling up "
			 "to 16m40s), until a pass after the outage gets through",
			 ss->ns, ss->name,
			 e->ledger && e->inventory ? "StageLedger and StageInventory"
			 : e->ledger		   ? "StageLedger"
						   : "StageInventory",
			 span, why,
			 e->ledger ? "at the StageLedger read (R-17: every pass Gets it, Lifetime actions or not)"
				   : "at the StageInventory read (R-18: every pass Lists it)");
	}
}

struct stale_ctx {
	struct lint_report *r;
	const struct scenario *s;
	const struct strindex *held;
	struct lint_reread *rr;
};

static void stale_stageset(const struct obj *ss, const struct sst_spec *sp, void *arg)
{
	struct stale_ctx *c = arg;

	rule_last_stage_soak(c->r, ss, sp);
	rule_stale_snapshot(c->r, c->s, ss, sp);
	rule_removed_stage(c->r, c->s, ss, sp);
	rule_approval_rehold(c->r, c->s, ss, sp);
	rule_silent_plan_error(c->r, c->s, c->held, ss, sp);
	rule_read_error(c->r, c->s, ss, sp);
	rule_stale_approval(c->r, c->s, ss, sp);
	rule_pending_after_exit(c->r, c->s, c->held, ss, sp);
	rule_approval_reused(c->r, c->s, ss, sp, c->rr);
	rule_approval_comes_back(c->r, c->s, ss, sp);
}

void lint_ss_stale(struct lint_report *r, const struct scenario *s)
{
	struct strindex held = { 0 };
	struct lint_reread rr = { NULL, 0 };
	struct stale_ctx c = { r, s, &held, &rr };
	size_t at;

	/*
	 * The inputs' objects by kind, namespace and name (a source they hold),
	 * so that each StageSet's look-ups cost O(1) and a large fleet lints in
	 * time linear in its members.
	 */
	for (size_t i = 0; i < s->nobjs; i++) {
		char buf[256], *key = kb_join3(buf, sizeof(buf), s->objs[i]->kind ? s->objs[i]->kind : "",
					       s->objs[i]->ns, s->objs[i]->name);

		if (!si_get(&held, key, &at))
			si_put(&held, key, i);
		kb_drop(key, buf);
	}
	lint_ss_each_spec(s, stale_stageset, &c);
	si_release(&held);
	lint_reread_release(&rr);
}
