/*
 * The StageSet world's stages: see sim/models/stageset_world_stages.h for
 * the behaviour.
 */
#include "sim/models/stageset_world_stages.h"

#include <assert.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/stageset_conflict.h"
#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/core/rng.h"

#include "sim/models/stageset_world_rec.h"
#include "sim/models/stageset_world_sources.h"

/* ---------------------------------------------------------------- rules */

/* What decides a StageSet's stage: scn_sw_resolve(), the resolution lint reads too. */

static void resolve(const struct sw_world *w, const struct obj_strmap *labels, const char *stage,
		    struct scn_sw_resolved *e)
{
	scn_sw_resolve(w->s.cfg, labels, stage, e);
}

/* ---------------------------------------------------------------- faults */

/* What a regress event does to the objects. */
static enum scn_sw_effect scripted_effect(const struct scn_fevent *e)
{
	return e->effect;
}

/* Whether the regress or drift event @e reaches @mb: by name, or by selector over its labels then. */
static bool event_reaches(const struct scn_fevent *e, const struct swr_member *mb)
{
	if (!e->by_selector)
		return e->target.name && strcmp(e->target.name, mb->name) == 0 &&
		       strcmp(swr_nz(e->target.ns), mb->ns) == 0;
	/* a resumed run's past event holds on the StageSets the snapshot holds */
	return (e->at_ms >= mb->first_ms || (e->done && mb->first_ms <= 0)) &&
	       (!e->target.ns || strcmp(e->target.ns, mb->ns) == 0) &&
	       lbl_matches(&e->selector, &swr_snap_at(mb, e->at_ms)->labels);
}

/* The window of regress event @ev on @mb, if it reaches it. */
static bool scripted_window(const struct sw_world *w, size_t ev, const struct swr_member *mb,
			    int64_t *start, int64_t *end)
{
	const struct scn_fevent *e = &w->s.fevents[ev];

	if (e->type != SCN_FEV_REGRESS || !event_reaches(e, mb))
		return false;
	*start = e->at_ms;
	/* a resumed run's past regress starts before 0, where SW_NEVER - at would overflow */
	*end = e->at_ms > 0 && e->for_ms > SW_NEVER - e->at_ms ? SW_NEVER : e->at_ms + e->for_ms;
	return true;
}

/* The effect a fault has on @ms at @t_ms: 0 none, else 1 + enum scn_sw_effect (Failed wins). */
static int fault_at(const struct sw_world *w, const struct swr_member *mb, const struct swr_mstage *ms,
		    int64_t t_ms)
{
	int got = 0;
	int64_t a, b;

	for (size_t i = 0; i < w->s.nfevents; i++)
		if (scripted_window(w, i, mb, &a, &b) && a <= t_ms && t_ms < b) {
			if (scripted_effect(&w->s.fevents[i]) == SCN_SW_EFFECT_FAILED)
				return 1 + SCN_SW_EFFECT_FAILED;
			got = 1 + SCN_SW_EFFECT_NOT_READY;
		}
	for (size_t i = 0; i < mb->ndrawn; i++) {
		const struct sw_fault *f = &mb->drawn[i];

		if (f->stage != ms->name || f->start_ms > t_ms || t_ms >= f->end_ms)
			continue;
		if (f->effect == SCN_SW_EFFECT_FAILED)
			return 1 + SCN_SW_EFFECT_FAILED;
		got = 1 + SCN_SW_EFFECT_NOT_READY;
	}
	return got;
}

static void consider(int64_t *best, int64_t x, int64_t after)
{
	if (x > after && x < *best)
		*best = x;
}

/* The next time after @t_ms at which a fault of @ms starts or ends. */
static int64_t fault_change(const struct sw_world *w, const struct swr_member *mb,
			    const struct swr_mstage *ms, int64_t t_ms)
{
	int64_t best = SW_NEVER, a, b;

	for (size_t i = 0; i < w->s.nfevents; i++)
		if (scripted_window(w, i, mb, &a, &b)) {
			consider(&best, a, t_ms);
			consider(&best, b, t_ms);
		}
	for (size_t i = 0; i < mb->ndrawn; i++)
		if (mb->drawn[i].stage == ms->name) {
			consider(&best, mb->drawn[i].start_ms, t_ms);
			consider(&best, mb->drawn[i].end_ms, t_ms);
		}
	return best;
}

/*
 * Whether a drift event edited the workload of @ms in (@after_ms, @upto_ms]:
 * an out-of-band change the next apply of the same revision undoes.
 */
static bool drifted(const struct sw_world *w, const struct swr_member *mb, const struct swr_mstage *ms,
		    int64_t after_ms, int64_t upto_ms)
{
	for (size_t i = 0; i < w->s.nfevents; i++) {
		const struct scn_fevent *e = &w->s.fevents[i];

		if (e->type == SCN_FEV_DRIFT && e->at_ms > after_ms && e->at_ms <= upto_ms &&
		    (!e->stage || strcmp(e->stage, ms->name) == 0) && event_reaches(e, mb))
			return true;
	}
	return false;
}

/* ---------------------------------------------------------------- stages: apply */

/* The parts of a stream id "stageset/<ns>/<name>/<stage>" into @p (6 entries). */
static void member_parts(const struct swr_member *mb, const char *stage, const char **p)
{
	p[0] = "stageset/";
	p[1] = mb->ns;
	p[2] = "/";
	p[3] = mb->name;
	p[4] = "/";
	p[5] = stage;
}

/* A draw of a revision's rollout: "stageset/<ns>/<name>/<stage>/rev#<k>/<what>". */
struct rev_id {
	const char *parts[12];
	char k[12];
};

static size_t rev_parts(struct rev_id *id, const struct swr_member *mb, const char *stage, uint32_t k,
			const char *what)
{
	member_parts(mb, stage, id->parts);
	id->parts[6] = "/rev#";
	id->parts[7] = swr_u32_text(k, id->k);
	id->parts[8] = "/";
	id->parts[9] = what;
	return 10;
}

static int64_t rev_ms(const struct sw_world *w, const struct swr_member *mb, const char *stage,
		      uint32_t k, const char *what, const struct dist *d)
{
	struct rev_id id;
	size_t n = rev_parts(&id, mb, stage, k, what);

	return swr_draw_ms(w, d, id.parts, n);
}

static bool rev_p(const struct sw_world *w, const struct swr_member *mb, const char *stage, uint32_t k,
		  const char *what, double p)
{
	struct rev_id id;
	size_t n = rev_parts(&id, mb, stage, k, what);

	return swr_draw_p(w, p, id.parts, n);
}

/* When a stage a snapshot's status shows rolled out became ready (swst_seed_stage()). */
#define SEEDED_SINCE (INT64_MIN / 4)

/*
 * @a + @b, SW_NEVER when either is or the sum would pass it.  @a may be
 * before 0 (a pass a resumed run makes again as of its start before the
 * run's 0), where SW_NEVER - @a would overflow: b >= 0 fits there.
 */
static int64_t add_ms(int64_t a, int64_t b)
{
	return a == SW_NEVER || b == SW_NEVER || (a > 0 && b > SW_NEVER - a) ? SW_NEVER : a + b;
}

static bool version_may_regress(const struct scn_sw_regression *r, const char *version)
{
	if (!r->has_versions)
		return true;
	for (size_t i = 0; version && i < r->nversions; i++)
		if (strcmp(r->versions[i], version) == 0)
			return true;
	return false;
}

/* Ends the drawn fault of @ms's current revision at @t_ms (another revision takes over). */
static void end_drawn(struct swr_member *mb, struct swr_mstage *ms, int64_t t_ms)
{
	struct sw_fault *f;

	if (ms->drawn == SWR_NONE)
		return;
	f = &mb->drawn[ms->drawn];
	if (f->end_ms > t_ms)
		f->end_ms = t_ms > f->start_ms ? t_ms : f->start_ms;
	ms->drawn = SWR_NONE;
}

static void push_drawn(struct swr_member *mb, struct swr_mstage *ms, int64_t start, int64_t end,
		       enum scn_sw_effect effect)
{
	if (mb->ndrawn == mb->capdrawn) {
		mb->capdrawn = mb->capdrawn ? 2 * mb->capdrawn : 4;
		mb->drawn = xreallocarray(mb->drawn, mb->capdrawn, sizeof(*mb->drawn));
	}
	/* its own copy of the version: a later rollout of the stage frees ms->version */
	mb->drawn[mb->ndrawn] = (struct sw_fault){ start, end, effect, ms->name, false, 0,
				 ms->version ? xstrdup(ms->version) : NULL };
	ms->drawn = mb->ndrawn++;
}

/* The rollout of a new revision @rev of @ms, written at @at_ms. */
static void start_rollout(const struct sw_world *w, struct swr_member *mb, struct swr_mstage *ms,
			  const struct scn_sw_resolved *e, const char *rev, const char *version, int64_t at_ms)
{
	uint32_t k = ++ms->k;
	int64_t delay;
	bool failed, never;

	end_drawn(mb, ms, at_ms);
	free(ms->revision);
	free(ms->version);
	ms->revision = xstrdup(rev);
	ms->version = xstrdup(version);
	ms->applied_ms = at_ms;
	delay = rev_ms(w, mb, ms->name, k, "ready-delay", &e->ready_delay->delay);
	failed = rev_p(w, mb, ms->name, k, "ready-failed", e->ready_failed->failed_probability);
	never = !failed && rev_p(w, mb, ms->name, k, "ready-never", e->ready_never->never_probability);
	ms->ready_ms = failed || never ? SW_NEVER : add_ms(at_ms, delay);
	ms->failed_ms = failed ? add_ms(at_ms, delay) : SW_NEVER;
	ms->exprs_ready_ms = ms->exprs_failed_ms = SW_NEVER;
	if (ms->ready_ms == SW_NEVER)
		return;
	delay = rev_ms(w, mb, ms->name, k, "exprs-delay", &e->exprs_delay->delay);
	failed = rev_p(w, mb, ms->name, k, "exprs-failed", e->exprs_failed->failed_probability);
	never = !failed && rev_p(w, mb, ms->name, k, "exprs-never", e->exprs_never->never_probability);
	if (failed)
		ms->exprs_failed_ms = add_ms(ms->ready_ms, delay);
	else if (!never)
		ms->exprs_ready_ms = add_ms(ms->ready_ms, delay);
	if (version_may_regress(e->reg_versions, version) &&
	    rev_p(w, mb, ms->name, k, "regression", e->reg_p->probability)) {
		int64_t after = rev_ms(w, mb, ms->name, k, "regression-after",
				       &e->reg_after->after);
		int64_t dur = rev_ms(w, mb, ms->name, k, "regression-duration",
				     &e->reg_duration->duration);
		int64_t start = add_ms(ms->ready_ms, after);

		if (dur > 0 && start != SW_NEVER)
			push_drawn(mb, ms, start, add_ms(start, dur), e->reg_effect->effect);
	}
}

static const char *revision_key(const struct ssc_resolved *ra)
{
	return ra->revision && ra->revision[0] ? ra->revision : swr_nz(ra->digest);
}

/* The version a StageSet runs with @ra: the inline value, else what the revision carries. */
static const char *applied_version(struct sw_world *w, const struct sw_member *m,
				   const struct ssc_resolved *ra)
{
	if (m->spec && m->spec->has_version && m->spec->version.value && m->spec->version.value[0])
		return m->spec->version.value;
	return sws_revision_version(w, ra);
}

/*
 * A drawn failure of class @c into @e: its own @message, or when it has none
 * "simulated WHAT failure" and what the class means (an apply's
 * "simulated apply failure: forbidden", an action's "simulated action
 * failure: HTTP 400 Bad Request").
 */
static void set_failure(struct ssc_err *e, enum ssc_errc c, const char *message, const char *what)
{
	const char *word;

	if (message) {
		swr_set_err(e, c, message);
		return;
	}
	switch (c) {
	case SSC_ERR_FORBIDDEN:
		word = ": forbidden";
		break;
	case SSC_ERR_TERMINAL_FETCH:
		word = ": artifact digest mismatch";
		break;
	case SSC_ERR_NO_RETRY:
		word = ": HTTP 400 Bad Request";
		break;
	default:
		word = "";
		break;
	}
	e->code = c;
	snprintf(e->msg, sizeof(e->msg), "simulated %s failure%s", what, word);
}

void swst_seed_stage(struct sw_world *w, const struct sw_member *m, const char *stage,
		     const char *revision, const char *version, int64_t t_ms)
{
	struct swr_member *mb = sws_member_record(w, m, t_ms);
	struct swr_mstage *ms = swr_stage_rec(mb, stage);

	if (ms->revision || ms->try_rev || !revision || !revision[0])
		return;
	ms->revision = xstrdup(revision);
	ms->version = version ? xstrdup(version) : NULL;
	ms->try_rev = xstrdup(revision);
	/* the revision applied once before the run: the next one is rev#2 */
	ms->k = ms->j = ms->try_j = 1;
	/*
	 * ready since before anything the run looks at: a pass in flight at
	 * the snapshot is made again as of its start, before the run's 0
	 */
	ms->applied_ms = ms->ready_ms = ms->exprs_ready_ms = ms->written_ms =
		t_ms < SEEDED_SINCE ? t_ms : SEEDED_SINCE;
	ms->failed_ms = ms->exprs_failed_ms = SW_NEVER;
	ms->drawn = SWR_NONE;
}

bool swst_running(const struct sw_world *w, const char *ns, const char *name, const char *stage,
		  const char **revision, const char **version)
{
	const struct swr_mstage *ms = swr_stage_find(swr_member_find(w, ns, name), stage);

	if (!ms || !ms->revision)
		return false;
	*revision = ms->revision;
	*version = ms->version;
	return true;
}

/* ---------------------------------------------------------------- stages: conflicts */

/* What conflict handling made of one apply. */
struct conflict_result {
	bool keep_workload;      /* the workload exists and is KeepExisting: a new revision leaves it be */
	bool workload_kept;      /* the workload exists and is KeepExisting (any revision): ssa skips it */
	size_t nrecreated;
	char recreated[512];     /* "Kind/name, ..." of the objects deleted and created again */
};

/* The object entry @k (NULL: the workload) of stage @sname of @mb names, defaults filled in. */
static void conflict_object(const struct swr_member *mb, const char *sname, const struct scn_sw_conflict *k,
			    char *wname, size_t wlen, struct scf_object *o)
{
	snprintf(wname, wlen, "%s-%s", mb->name, sname);
	o->kind = k && k->kind ? k->kind : SWR_WORKLOAD_KIND;
	o->api_version = k && k->api_version ? k->api_version
					     : strcmp(o->kind, SWR_WORKLOAD_KIND) == 0 ? "apps/v1" : "v1";
	o->name = k && k->name ? k->name : wname;
	o->ns = k && k->ns ? k->ns : mb->ns;
	o->force_annotation = k && k->force_annotation;
}

static bool same_object(const struct scf_object *a, const struct scf_object *b)
{
	return strcmp(a->api_version, b->api_version) == 0 && strcmp(a->kind, b->kind) == 0 &&
	       strcmp(a->name, b->name) == 0 && strcmp(a->ns, b->ns) == 0;
}

/*
 * Conflict handling and the server-side apply of stage @stage's objects
 * (ResolveConflictHandling, then ssa's force and if-not-present selectors):
 * the objects are the workload and each `apply.conflicts` entry's (an entry
 * that names the workload is the workload).  A refusal fails the apply at
 * op "conflict policy".  A new revision over objects the stage applied
 * before meets an immutable-field conflict on each entry drawn for it
 * ("rev#<k>/conflict#<i>", its first apply in `during`): a Fail object fails
 * the apply at op "apply" (the first in render order; the object keeps its
 * old value), a Recreate object is deleted and created anew, a KeepExisting
 * object is skipped (conflict or not, once it exists; the workload then
 * keeps running what it ran).  Returns true when the apply failed (@out
 * says how), else fills @cr; sets out->nobjects either way.
 */
static bool apply_conflicts(struct sw_world *w, const struct sw_member *m, const struct swr_member *mb,
			    const struct swr_mstage *ms, size_t stage, const struct scn_sw_resolved *e, bool same,
			    struct ssc_apply_outcome *out, struct conflict_result *cr)
{
	const struct sst_stage *st = m->spec && stage < m->spec->nstages ? &m->spec->stages[stage] : NULL;
	const struct scn_sw_apply *ap = e->apply_conflicts;
	size_t nk = ap ? ap->nconflicts : 0, n = 1;
	struct scf_object *objs;
	size_t *entry_of; /* object → its entry, SIZE_MAX: none */
	enum scf_action *act;
	char wname[2][320];
	bool existed = ms->revision != NULL, failed = false;

	if (!st || (!ap && !scf_stage_has_handling(st)))
		return false; /* every object Fail and the workload alone: nothing to decide or meet */
	objs = xcalloc(1 + nk, sizeof(*objs));
	entry_of = xcalloc(1 + nk, sizeof(*entry_of));
	act = xcalloc(1 + nk, sizeof(*act));
	conflict_object(mb, ms->name, NULL, wname[0], sizeof(wname[0]), &objs[0]);
	entry_of[0] = SIZE_MAX;
	for (size_t i = 0; i < nk; i++) {
		struct scf_object o;
		size_t at = n;

		conflict_object(mb, ms->name, &ap->conflicts[i], wname[1], sizeof(wname[1]), &o);
		if (same_object(&o, &objs[0])) {
			at = 0;
			objs[0].force_annotation = o.force_annotation;
		} else {
			objs[n++] = o;
		}
		entry_of[at] = i;
	}
	out->nobjects = n;
	if (scf_resolve_conflict_handling(objs, n, st, act, out->err.msg, sizeof(out->err.msg)) != 0) {
		out->failed_op = scn_sw_op_text(SCN_SW_OP_CONFLICT_POLICY);
		out->err.code = SSC_ERR;
		failed = true;
		goto out_free;
	}
	cr->workload_kept = existed && act[0] == SCF_KEEP_EXISTING;
	cr->keep_workload = cr->workload_kept && !same;
	/* objects created, or at the revision they carry: nothing immutable changes */
	for (size_t o = 0; existed && !same && o < n; o++) {
		const struct scn_sw_conflict *k = entry_of[o] == SIZE_MAX ? NULL : &ap->conflicts[entry_of[o]];
		struct rev_id id;
		char ix[12];
		size_t np;

		if (!k || act[o] == SCF_KEEP_EXISTING || k->probability <= 0 ||
		    (k->during.n && !scn_sw_in_windows(&k->during, ms->try_first_ms)))
			continue;
		np = rev_parts(&id, mb, ms->name, ms->k + 1, "conflict#");
		id.parts[np++] = swr_u32_text((uint32_t)entry_of[o] + 1, ix);
		if (!swr_draw_p(w, k->probability, id.parts, np))
			continue;
		if (act[o] == SCF_RECREATE) {
			int len = (int)strlen(cr->recreated);

			snprintf(cr->recreated + len, sizeof(cr->recreated) - (size_t)len, "%s%s/%s",
				 cr->nrecreated ? ", " : "", objs[o].kind, objs[o].name);
			cr->nrecreated++;
			continue;
		}
		out->failed_op = scn_sw_op_text(SCN_SW_OP_APPLY);
		out->err.code = SSC_ERR;
		if (k->message)
			snprintf(out->err.msg, sizeof(out->err.msg), "%s", k->message);
		else
			snprintf(out->err.msg, sizeof(out->err.msg),
				 "%s/%s/%s dry-run failed (Invalid): %s \"%s\" is invalid: Forbidden: field is "
				 "immutable",
				 objs[o].kind, objs[o].ns, objs[o].name, objs[o].kind, objs[o].name);
		failed = true;
		break;
	}
out_free:
	free(act);
	free(entry_of);
	free(objs);
	return failed;
}

/* A new revision @rev the workload does not take (KeepExisting): applied, nothing rolls out. */
static void keep_workload(struct swr_mstage *ms, const char *rev, const char *version)
{
	ms->k++;
	free(ms->revision);
	free(ms->version);
	ms->revision = xstrdup(rev);
	ms->version = version ? xstrdup(version) : NULL;
}

/* Adds the recreated objects of @cr to @out's changed set. */
static void changed_recreated(struct ssc_apply_outcome *out, const struct conflict_result *cr)
{
	int len = (int)strlen(out->changed_names);

	if (!cr->nrecreated)
		return;
	snprintf(out->changed_names + len, sizeof(out->changed_names) - (size_t)len, "%s%s",
		 out->nchanged ? ", " : "", cr->recreated);
	out->nchanged += cr->nrecreated;
}

void swst_apply_stage(struct sw_world *w, const struct sw_member *m, size_t stage,
		    const struct ssc_resolved *ra, int64_t t_ms, struct ssc_apply_outcome *out)
{
	struct swr_member *mb = sws_member_record(w, m, t_ms);
	const char *sname = swr_stage_name(m, stage);
	struct swr_mstage *ms = swr_stage_rec(mb, sname);
	const char *rev = revision_key(ra);
	const char *skip = m->annotations ? obj_strmap_get(m->annotations,
							   SSC_ANN_SKIP_IMAGE_VERIFICATION) : NULL;
	bool same = ms->revision && strcmp(ms->revision, rev) == 0;
	bool written = true;
	struct scn_sw_resolved e;
	struct conflict_result cr;
	struct rev_id id;
	char j[12];
	size_t n;

	memset(out, 0, sizeof(*out));
	memset(&cr, 0, sizeof(cr));
	resolve(w, m->labels, sname, &e);
	if (!ms->try_rev || strcmp(ms->try_rev, rev) != 0) {
		free(ms->try_rev);
		ms->try_rev = xstrdup(rev);
		ms->try_j = 0;
		ms->try_first_ms = t_ms;
	}
	ms->try_j++;
	n = rev_parts(&id, mb, sname, same ? ms->k : ms->k + 1, "apply#");
	id.parts[n++] = swr_u32_text(ms->try_j, j);
	id.parts[n] = "/duration";
	out->duration_ms = swr_draw_ms(w, e.apply_duration, id.parts, n + 1);
	out->nobjects = 1;
	out->image_skipped = skip && skip[0];

	const struct scn_sw_failure *f = e.apply_failure;
	id.parts[n] = "/failure";
	if (f && f->probability > 0 && (f->during.n == 0 || scn_sw_in_windows(&f->during, t_ms)) &&
	    !(f->op == SCN_SW_OP_IMAGE_VERIFICATION && out->image_skipped) &&
	    swr_draw_p(w, f->probability, id.parts, n + 1)) {
		out->failed_op = scn_sw_op_text(f->op);
		set_failure(&out->err, f->cls, f->message, out->failed_op);
		written = f->op == SCN_SW_OP_RECORD_INVENTORY;
	}
	/* conflict handling and the apply come before a drawn apply or record failure */
	if ((!out->failed_op || f->op > SCN_SW_OP_CONFLICT_POLICY) &&
	    apply_conflicts(w, m, mb, ms, stage, &e, same, out, &cr)) {
		written = false;
	}
	if (!written)
		return;
	if (same) {
		ms->j = ms->try_j;
		/* ssa puts back what was edited out of band, unless it skips the existing workload */
		if (!cr.workload_kept && drifted(w, mb, ms, ms->written_ms, t_ms)) {
			out->nchanged = 1;
			snprintf(out->changed_names, sizeof(out->changed_names), SWR_WORKLOAD_KIND "/%s-%s",
				 mb->name, sname);
		}
		if (!cr.workload_kept)
			ms->written_ms = t_ms;
		return;
	}
	ms->written_ms = t_ms;
	if (cr.keep_workload)
		keep_workload(ms, rev, applied_version(w, m, ra));
	else
		start_rollout(w, mb, ms, &e, rev, applied_version(w, m, ra), t_ms + out->duration_ms);
	ms->j = ms->try_j;
	if (!cr.keep_workload) {
		out->nchanged = 1;
		snprintf(out->changed_names, sizeof(out->changed_names), SWR_WORKLOAD_KIND "/%s-%s", mb->name,
			 sname);
	}
	changed_recreated(out, &cr);
}

bool swst_stage_steady(struct sw_world *w, const struct sw_member *m, size_t stage, int64_t t_ms, bool commit,
		     int64_t *duration_ms)
{
	struct swr_member *mb = swr_member_find(w, m->ns, m->name);
	const char *sname = swr_stage_name(m, stage);
	struct swr_mstage *ms = mb ? (struct swr_mstage *)swr_stage_find(mb, sname) : NULL;
	const struct scn_sw_failure *f;
	struct scn_sw_resolved e;
	int64_t d, end;

	if (!ms || !ms->revision || !ms->try_rev || strcmp(ms->try_rev, ms->revision) != 0)
		return false;
	resolve(w, m->labels, sname, &e);
	if (e.apply_duration->kind != DIST_CONSTANT)
		return false;
	f = e.apply_failure;
	if (f && f->probability > 0 && (f->during.n == 0 || scn_sw_in_windows(&f->during, t_ms)))
		return false;
	/* an out-of-band edit since the last apply: this one corrects it (DriftCorrected) */
	if (drifted(w, mb, ms, ms->written_ms, t_ms))
		return false;
	/* conflict handling may refuse every apply (a rule recreating a PVC): not judged here */
	if (e.apply_conflicts && m->spec && stage < m->spec->nstages &&
	    scf_stage_has_handling(&m->spec->stages[stage]))
		return false;
	{
		gsl_rng g;
		struct rng r = { 0, 1 };

		rng_gsl_wrap(&g, &r);
		d = dist_sample_ms(e.apply_duration, &g);
	}
	end = add_ms(t_ms, d);
	/* what the verify's first poll finds: Current, no fault */
	if (end < ms->ready_ms || end >= ms->failed_ms || fault_at(w, mb, ms, end) != 0)
		return false;
	if (commit) {
		ms->try_j++;
		ms->j = ms->try_j;
		ms->written_ms = t_ms;
	}
	*duration_ms = d;
	return true;
}

/* ---------------------------------------------------------------- stages: waits */

enum kstatus { KS_IN_PROGRESS, KS_CURRENT, KS_FAILED };

/* What a wait polls: the objects (or the expressions) of one stage. */
struct probe {
	const struct sw_world *w;
	const struct swr_member *mb;
	const struct swr_mstage *ms;
	bool exprs;
};

static enum kstatus probe_at(const struct probe *p, int64_t t_ms)
{
	int f = fault_at(p->w, p->mb, p->ms, t_ms);
	int64_t ready = p->exprs ? p->ms->exprs_ready_ms : p->ms->ready_ms;
	int64_t failed = p->exprs ? p->ms->exprs_failed_ms : p->ms->failed_ms;

	if (f == 1 + SCN_SW_EFFECT_FAILED || t_ms >= failed)
		return KS_FAILED;
	if (f == 1 + SCN_SW_EFFECT_NOT_READY)
		return KS_IN_PROGRESS;
	return t_ms >= ready ? KS_CURRENT : KS_IN_PROGRESS;
}

static int64_t probe_change(const struct probe *p, int64_t t_ms)
{
	int64_t best = fault_change(p->w, p->mb, p->ms, t_ms);

	consider(&best, p->exprs ? p->ms->exprs_ready_ms : p->ms->ready_ms, t_ms);
	consider(&best, p->exprs ? p->ms->exprs_failed_ms : p->ms->failed_ms, t_ms);
	return best;
}

/*
 * Polls @p from @t_ms every SW_POLL_MS (the first poll at once) until it is
 * not in progress or the next poll would be at or past @t_ms + @timeout_ms.
 * Returns the status found and *@at_ms the poll that found it, or
 * KS_IN_PROGRESS with *@at_ms the deadline.
 */
static enum kstatus poll(const struct probe *p, int64_t t_ms, int64_t timeout_ms, int64_t *at_ms)
{
	int64_t deadline = add_ms(t_ms, timeout_ms > 0 ? timeout_ms : 1);
	int64_t s = t_ms;

	for (;;) {
		enum kstatus st = probe_at(p, s);
		int64_t c;

		if (st != KS_IN_PROGRESS) {
			*at_ms = s;
			return st;
		}
		c = probe_change(p, s);
		if (c >= deadline)
			break;
		s = t_ms + (c - t_ms + SW_POLL_MS - 1) / SW_POLL_MS * SW_POLL_MS;
		if (s >= deadline)
			break;
	}
	*at_ms = deadline;
	return KS_IN_PROGRESS;
}

static void wait_ready(struct ssc_wait_outcome *out)
{
	memset(out, 0, sizeof(*out));
	out->result = SSC_WAIT_READY;
}

void swst_wait_stage(struct sw_world *w, const struct sw_member *m, size_t stage, bool with_applied,
		   int64_t timeout_ms, int64_t t_ms, struct ssc_wait_outcome *out)
{
	struct swr_member *mb = sws_member_record(w, m, t_ms);
	const struct swr_mstage *ms = swr_stage_find(mb, swr_stage_name(m, stage));
	struct probe p = { w, mb, ms, false };
	enum kstatus st;
	int64_t at;

	(void)with_applied;
	wait_ready(out);
	if (!ms || !ms->revision)
		return;
	st = poll(&p, t_ms, timeout_ms, &at);
	out->duration_ms = at - t_ms;
	if (st == KS_CURRENT)
		return;
	if (st == KS_FAILED) {
		out->result = SSC_WAIT_FAILED;
		out->stalled = true;
		snprintf(out->err.msg, sizeof(out->err.msg),
			 "failed early due to stalled resources: [" SWR_WORKLOAD_KIND "/%s/%s-%s status: 'Failed']",
			 mb->ns, mb->name, ms->name);
	} else {
		out->result = SSC_WAIT_TIMEOUT;
		out->duration_ms = timeout_ms > 0 ? timeout_ms : 0;
		out->stalled = probe_at(&p, add_ms(t_ms, out->duration_ms)) == KS_FAILED;
		snprintf(out->err.msg, sizeof(out->err.msg),
			 "timeout waiting for: [" SWR_WORKLOAD_KIND "/%s/%s-%s status: 'InProgress']", mb->ns,
			 mb->name, ms->name);
	}
	out->err.code = SSC_ERR;
}

/* The kind of @stage's first readyChecks.exprs entry ("" when none is readable). */
static const char *exprs_kind(const struct sw_member *m, size_t stage)
{
	const struct val *l;

	if (!m->spec || stage >= m->spec->nstages || !m->spec->stages[stage].has_ready_checks)
		return "";
	l = m->spec->stages[stage].ready_checks.exprs;
	if (!l || l->type != VAL_LIST || l->u.list.n == 0)
		return "";
	return val_str(val_map_get(l->u.list.items[0], "kind"), "");
}

void swst_ready_exprs(struct sw_world *w, const struct sw_member *m, size_t stage, int64_t timeout_ms,
		    int64_t t_ms, struct ssc_wait_outcome *out, bool *in_flight)
{
	struct swr_member *mb = sws_member_record(w, m, t_ms);
	const struct swr_mstage *ms = swr_stage_find(mb, swr_stage_name(m, stage));
	struct probe p = { w, mb, ms, true };
	enum kstatus st;
	int64_t at;

	wait_ready(out);
	*in_flight = false;
	if (!ms || !ms->revision)
		return;
	st = poll(&p, t_ms, timeout_ms, &at);
	out->duration_ms = at - t_ms;
	if (st == KS_CURRENT)
		return;
	out->err.code = SSC_ERR;
	if (st == KS_FAILED) {
		out->result = SSC_WAIT_FAILED;
		out->stalled = true;
		snprintf(out->err.msg, sizeof(out->err.msg), "readyCheck failed for %s %s/%s-%s",
			 exprs_kind(m, stage), mb->ns, mb->name, ms->name);
	} else {
		out->result = SSC_WAIT_TIMEOUT;
		out->duration_ms = timeout_ms > 0 ? timeout_ms : 0;
		snprintf(out->err.msg, sizeof(out->err.msg), "context deadline exceeded");
		*in_flight = true;
	}
}

/* ---------------------------------------------------------------- stages: restore */

int swst_restore_stage(struct sw_world *w, const struct sw_member *m, size_t stage,
		     const struct sst_artifact_ref *ref, bool from_store, int64_t t_ms, int64_t *duration_ms,
		     char *reason, size_t reasonlen, char *msg, size_t msglen, struct ssc_err *err)
{
	struct swr_member *mb = sws_member_record(w, m, t_ms);
	const char *sname = swr_stage_name(m, stage);
	struct swr_mstage *ms = swr_stage_rec(mb, sname);
	const struct scn_sw_restore *r;
	struct scn_sw_resolved e;
	const char *parts[9];
	char n[12], *sq;
	const char *rev = ref->revision && ref->revision[0] ? ref->revision : swr_nz(ref->digest);
	enum scn_sw_restore_outcome outcome;
	int rc = 0;

	resolve(w, m->labels, sname, &e);
	member_parts(mb, sname, parts);
	parts[6] = "/restore#";
	parts[7] = swr_u32_text(++ms->restores, n);
	parts[8] = "/duration";
	*duration_ms = swr_draw_ms(w, &e.restore_duration->duration, parts, 9);
	r = e.restore_outcome;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (reasonlen)
		reason[0] = '\0';
	if (msglen)
		msg[0] = '\0';
	sq = gofmt_quote(sname);
	outcome = r->outcome;
	if (from_store && outcome == SCN_SW_PREVIOUS_UNAVAILABLE)
		outcome = SCN_SW_RESTORED; /* the store's copy needs no fetch */
	if (!from_store && outcome == SCN_SW_RESTORED &&
	    sws_revision_collected(w, m, stage, ref->revision, t_ms, err)) {
		snprintf(reason, reasonlen, "PreviousRevisionUnavailable");
		snprintf(msg, msglen, "cannot roll back: revision %s for stage %s is no longer fetchable (%s)",
			 rev, sq, err->msg);
		err->code = SSC_OK;
		err->msg[0] = '\0';
		free(sq);
		return 1;
	}
	switch (outcome) {
	case SCN_SW_RESTORED: {
		int64_t at = t_ms + *duration_ms;

		end_drawn(mb, ms, at);
		if (!ms->revision || strcmp(ms->revision, rev) != 0) {
			ms->k++;
			free(ms->revision);
			ms->revision = xstrdup(rev);
			free(ms->version);
			ms->version = NULL;
		}
		ms->applied_ms = at;
		ms->ready_ms = ms->exprs_ready_ms = at;
		ms->failed_ms = ms->exprs_failed_ms = SW_NEVER;
		free(ms->try_rev);
		ms->try_rev = NULL;
		ms->try_j = 0;
		break;
	}
	case SCN_SW_PREVIOUS_UNAVAILABLE:
		snprintf(reason, reasonlen, "PreviousRevisionUnavailable");
		snprintf(msg, msglen,
			 "cannot roll back: revision %s for stage %s is no longer fetchable (%s)", rev,
			 sq, r->message ? r->message : "artifact not found");
		rc = 1;
		break;
	case SCN_SW_IMAGE_UNVERIFIED:
		snprintf(reason, reasonlen, "ImageUnverified");
		snprintf(msg, msglen,
			 "cannot roll back stage %s: its previous revision references an image that fails "
			 "verification now (%s)",
			 sq, r->message ? r->message : "no matching signatures");
		rc = 1;
		break;
	case SCN_SW_APPLY_FAILED:
		swr_set_err(err, SSC_ERR, r->message ? r->message : "simulated apply failure");
		rc = 2;
		break;
	case SCN_SW_TRANSIENT:
		swr_set_err(err, SSC_ERR, r->message ? r->message : "rollback store unavailable");
		rc = -1;
		break;
	}
	free(sq);
	return rc;
}

/* ---------------------------------------------------------------- actions */

void swst_run_action(struct sw_world *w, const struct sw_member *m, size_t stage, const char *phase,
		   const struct sst_action *a, int attempt, int64_t t_ms, int64_t *duration_ms,
		   struct ssc_err *err)
{
	static const struct dist dflt = { DIST_CONSTANT, { .constant = { SCN_SW_DEFAULT_ACTION_MS } } };
	struct swr_member *mb = sws_member_record(w, m, t_ms);
	const char *sname = stage == SIZE_MAX ? NULL : swr_stage_name(m, stage);
	const char *aname = swr_nz(a->name);
	const struct scn_sw_action *entry = NULL;
	const struct scn_sw_failure *f;
	char buf[SWR_ID_STACK], nb[12];
	char *k;
	size_t pos;
	const char *parts[12];

	(void)attempt;
	for (size_t i = 0; i < w->s.cfg->nrules && !entry; i++)
		if (scn_sw_rule_matches(&w->s.cfg->rules[i], m->labels, sname))
			entry = scn_sw_find_action(&w->s.cfg->rules[i].b, aname, sname, phase);
	if (!entry)
		entry = scn_sw_find_action(&w->s.cfg->top, aname, sname, phase);

	k = kb_join3(buf, sizeof(buf), sname ? sname : "-", phase, aname);
	if (!si_get(&mb->acts, k, &pos)) {
		pos = mb->nactn;
		mb->actn = xreallocarray(mb->actn, mb->nactn + 1, sizeof(*mb->actn));
		mb->actn[mb->nactn++] = 0;
		si_put(&mb->acts, k, pos);
	}
	kb_drop(k, buf);
	member_parts(mb, sname ? sname : "-", parts);
	parts[6] = "/";
	parts[7] = phase;
	parts[8] = "/";
	parts[9] = aname;
	parts[10] = "#";
	parts[11] = swr_u32_text(++mb->actn[pos], nb);
	{
		const char *all[13];

		memcpy(all, parts, sizeof(parts));
		all[12] = "/duration";
		*duration_ms = swr_draw_ms(w, entry && entry->has_duration ? &entry->duration : &dflt, all, 13);
		all[12] = "/failure";
		err->code = SSC_OK;
		err->msg[0] = '\0';
		f = entry && entry->has_failure ? &entry->failure : NULL;
		if (f && f->probability > 0 && (f->during.n == 0 || scn_sw_in_windows(&f->during, t_ms)) &&
		    swr_draw_p(w, f->probability, all, 13))
			set_failure(err, f->cls, f->message, "action");
	}
}

/* ---------------------------------------------------------------- observation */

static int fault_cmp(const void *a, const void *b)
{
	const struct sw_fault *x = a, *y = b;

	if (x->start_ms != y->start_ms)
		return x->start_ms < y->start_ms ? -1 : 1;
	if (x->scripted != y->scripted)
		return x->scripted ? -1 : 1;
	return x->event < y->event ? -1 : x->event > y->event;
}

bool swst_drift_reaches(const struct sw_world *w, const struct scn_fevent *e, const char *ns,
			const char *name)
{
	const struct swr_member *mb = swr_member_find(w, ns, name);

	return mb && e->type == SCN_FEV_DRIFT && event_reaches(e, mb);
}

size_t swst_member_faults(struct sw_world *w, const char *ns, const char *name,
			const struct sw_fault **out)
{
	struct swr_member *mb = swr_member_find(w, ns, name);
	size_t n = 0;
	int64_t a, b;

	*out = NULL;
	if (!mb)
		return 0;
	mb->faults = xreallocarray(mb->faults, w->s.nfevents + mb->ndrawn + 1, sizeof(*mb->faults));
	for (size_t i = 0; i < w->s.nfevents; i++)
		if (scripted_window(w, i, mb, &a, &b))
			mb->faults[n++] = (struct sw_fault){ a, b,
					   scripted_effect(&w->s.fevents[i]), NULL, true, i,
							      NULL };
	for (size_t i = 0; i < mb->ndrawn; i++)
		if (mb->drawn[i].end_ms > mb->drawn[i].start_ms)
			mb->faults[n++] = mb->drawn[i];
	qsort(mb->faults, n, sizeof(*mb->faults), fault_cmp);
	mb->nfaults = n;
	*out = mb->faults;
	return n;
}

uint32_t swst_action_attempts(const struct sw_world *w, const char *ns, const char *name, const char *stage,
			      const char *phase, const char *action)
{
	const struct swr_member *mb = swr_member_find(w, ns, name);
	char buf[SWR_ID_STACK];
	char *k;
	size_t pos;
	bool found;

	if (!mb)
		return 0;
	k = kb_join3(buf, sizeof(buf), stage, phase, action);
	found = si_get(&mb->acts, k, &pos);
	kb_drop(k, buf);
	return found ? mb->actn[pos] : 0;
}

int64_t swst_stage_ready_at(const struct sw_world *w, const char *ns, const char *name,
			  const char *stage)
{
	const struct swr_mstage *ms = swr_stage_find(swr_member_find(w, ns, name), stage);

	return ms && ms->revision ? ms->ready_ms : -1;
}
