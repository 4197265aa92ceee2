/*
 * The JSON report.  Written as a stream — head, one timeline entry per line,
 * tail — so a run with millions of entries never builds one big tree; each
 * piece is a small jansson value dumped with sorted-by-construction keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "reports/report.h"
#include "reports/tool.h"
#include "sim/base/gotime.h"

/* jansson rejects NULL (and invalid UTF-8); both become JSON null here. */
static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;

	return j ? j : json_null();
}

static json_t *int_or_null(int64_t v, bool present)
{
	return present ? json_integer((json_int_t)v) : json_null();
}

static json_t *duration_str(int64_t ms)
{
	char buf[GT_DURATION_BUFSZ];

	gt_format_duration(ms, buf, sizeof(buf));
	return json_string(buf);
}

/* Writes @j (stolen) compactly or indented, then @after; -1 on a write error. */
static int put(FILE *f, json_t *j, size_t flags, const char *after)
{
	int rc = -1;
	char *s;

	if (!j) {
		errno = ENOMEM;
		return -1;
	}
	s = json_dumps(j, flags | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));
	json_decref(j);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	if (fputs(s, f) >= 0 && fputs(after, f) >= 0)
		rc = 0;
	free(s);
	return rc;
}

static json_t *scenario_block(const struct rep_run *run)
{
	json_t *o = json_object();
	json_t *files = json_array();
	char start[GT_RFC3339_BUFSZ];

	json_object_set_new(o, "name", str_or_null(run->name));
	/* A seed above 2^63-1 does not fit a JSON integer in every reader: print it as a string. */
	if (run->seed <= INT64_MAX)
		json_object_set_new(o, "seed", json_integer((json_int_t)run->seed));
	else {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRIu64, run->seed);
		json_object_set_new(o, "seed", json_string(buf));
	}
	json_object_set_new(o, "horizon_ms", json_integer(run->horizon_ms));
	json_object_set_new(o, "horizon", duration_str(run->horizon_ms));
	/* horizon_ms and the run's times count from its 0; resumed_ms puts them on the
	 * original run's clock (0 when not resumed) */
	json_object_set_new(o, "resumed_ms", json_integer(run->resumed_ms));
	gt_format_rfc3339(run->start_unix_ms, start, sizeof(start));
	json_object_set_new(o, "start", json_string(start));
	for (size_t i = 0; i < run->nfiles; i++)
		json_array_append_new(files, str_or_null(run->files[i]));
	json_object_set_new(o, "files", files);
	json_object_set_new(o, "objects", json_integer((json_int_t)run->nobjects));
	json_object_set_new(o, "events", json_integer((json_int_t)run->nevents));
	return o;
}

static json_t *run_block(const struct rep_run *run)
{
	json_t *o = json_object();

	json_object_set_new(o, "stop", str_or_null(run->stop));
	json_object_set_new(o, "end_ms", json_integer(run->end_ms));
	json_object_set_new(o, "end", duration_str(run->end_ms));
	json_object_set_new(o, "sim_events", json_integer((json_int_t)run->events));
	return o;
}

static json_t *entry_obj(const struct tl_entry *e)
{
	json_t *o = json_object();

	json_object_set_new(o, "t_ms", json_integer(e->t_ms));
	json_object_set_new(o, "time", duration_str(e->t_ms));
	json_object_set_new(o, "kind", str_or_null(e->kind));
	json_object_set_new(o, "namespace", str_or_null(e->ns));
	json_object_set_new(o, "name", str_or_null(e->name));
	json_object_set_new(o, "change", json_string(tl_change_name(e->change)));
	json_object_set_new(o, "detail", str_or_null(e->detail));
	json_object_set_new(o, "phase", str_or_null(e->phase));
	json_object_set_new(o, "reason", str_or_null(e->reason));
	json_object_set_new(o, "message", str_or_null(e->message));
	json_object_set_new(o, "cause", str_or_null(e->cause));
	json_object_set_new(o, "resource_version", json_integer((json_int_t)e->resource_version));
	json_object_set_new(o, "generation", json_integer(e->generation));
	return o;
}

static json_t *notice_obj(const struct tl_notice *n)
{
	json_t *o = json_object();
	json_t *objs = json_array();

	json_object_set_new(o, "t_ms", json_integer(n->t_ms));
	json_object_set_new(o, "time", duration_str(n->t_ms));
	json_object_set_new(o, "severity", json_string(tl_severity_name(n->severity)));
	json_object_set_new(o, "text", str_or_null(n->text));
	for (size_t i = 0; i < n->nrelated; i++) {
		json_t *r = json_object();

		json_object_set_new(r, "kind", str_or_null(n->related[i].kind));
		json_object_set_new(r, "namespace", str_or_null(n->related[i].ns));
		json_object_set_new(r, "name", str_or_null(n->related[i].name));
		json_object_set_new(r, "count", json_integer((json_int_t)n->related[i].count));
		json_array_append_new(objs, r);
	}
	json_object_set_new(o, "objects", objs);
	return o;
}

static json_t *str_array(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, str_or_null(v[i]));
	return a;
}

static json_t *blast_obj(const struct obs_rollout *r)
{
	json_t *b = json_object();

	json_object_set_new(b, "count", json_integer((json_int_t)r->nblast));
	json_object_set_new(b, "total", json_integer((json_int_t)r->blast_total));
	json_object_set_new(b, "names", str_array(r->blast, r->nblast));
	return b;
}

static json_t *rollouts_array(const struct obs *obs)
{
	json_t *a = json_array();
	size_t n = 0;
	const struct obs_rollout *ro = obs ? obs_rollouts(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct obs_rollout *r = &ro[i];
		json_t *o = json_object(), *steps = json_array();

		json_object_set_new(o, "namespace", str_or_null(r->ns));
		json_object_set_new(o, "name", str_or_null(r->name));
		json_object_set_new(o, "project", str_or_null(r->project));
		json_object_set_new(o, "completed_ms", int_or_null(r->completed_ms, r->completed_ms >= 0));
		for (size_t k = 0; k < r->nsteps; k++) {
			const struct obs_step *st = &r->steps[k];
			json_t *so = json_object();

			json_object_set_new(so, "index", json_integer((json_int_t)k));
			json_object_set_new(so, "name", str_or_null(st->name));
			json_object_set_new(so, "opened_ms", int_or_null(st->opened_ms, st->opened_ms >= 0));
			json_object_set_new(so, "completed_ms",
					    int_or_null(st->completed_ms, st->completed_ms >= 0));
			json_object_set_new(so, "workspaces", str_array(st->members, st->nmembers));
			json_array_append_new(steps, so);
		}
		json_object_set_new(o, "steps", steps);
		if (r->halted) {
			json_t *h = json_object();

			/* a halt before the start at its time where the snapshot says it */
			json_object_set_new(h, "t_ms", json_integer(obs_halt_at(r)));
			json_object_set_new(h, "before_start", json_boolean(r->halted_before_start));
			json_object_set_new(h, "step", r->halt_step >= 0
							       ? str_or_null(r->steps[r->halt_step].name)
							       : json_null());
			json_object_set_new(h, "reason", str_or_null(r->halt_reason));
			json_object_set_new(h, "message", str_or_null(r->halt_message));
			json_object_set_new(o, "halt", h);
			/* who had begun applying before the run is not known, unless carried */
			json_object_set_new(o, "blast_radius",
					    r->halted_before_start && !r->blast_known ? json_null()
											: blast_obj(r));
		} else {
			json_object_set_new(o, "halt", json_null());
			json_object_set_new(o, "blast_radius", json_null());
		}
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *workspaces_array(const struct obs *obs)
{
	json_t *a = json_array();
	size_t n = 0;
	const struct obs_workspace *ws = obs ? obs_workspaces(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct obs_workspace *w = &ws[i];
		json_t *o = json_object();

		json_object_set_new(o, "namespace", str_or_null(w->ns));
		json_object_set_new(o, "name", str_or_null(w->name));
		json_object_set_new(o, "project", str_or_null(w->project));
		json_object_set_new(o, "granted_ms", int_or_null(w->granted_ms, w->granted_ms >= 0));
		json_object_set_new(o, "planning_ms", int_or_null(w->planning_ms, w->planning_ms >= 0));
		json_object_set_new(o, "applying_ms", int_or_null(w->applying_ms, w->applying_ms >= 0));
		json_object_set_new(o, "applied_ms", int_or_null(w->applied_ms, w->applied_ms >= 0));
		json_object_set_new(o, "failed_ms", int_or_null(w->failed_ms, w->failed_ms >= 0));
		json_object_set_new(o, "runs", json_integer(w->runs));
		json_object_set_new(o, "phase", str_or_null(w->last_phase));
		json_object_set_new(o, "exists", json_boolean(w->exists));
		json_object_set_new(o, "policy_violations", str_array(w->violations, w->nviolations));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *capacity_block(const struct rep_capacity *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "runners", c->capacity ? json_integer(c->capacity) : json_null());
	json_object_set_new(o, "peak_running", json_integer(c->peak));
	json_object_set_new(o, "jobs", json_integer((json_int_t)c->jobs));
	json_object_set_new(o, "max_wait_ms", json_integer(c->max_wait_ms));
	json_object_set_new(o, "total_wait_ms", json_integer(c->total_wait_ms));
	json_object_set_new(o, "resumed_jobs", json_integer((json_int_t)c->resumed));
	return o;
}

/*
 * The Rollout whose halt the summary gives as the run's first, or NULL when
 * that halt is a FleetRollout's or there is none.  The summary chose it
 * across both engines (sim/observe/outcome.c, and a halt before the start
 * in sim/run/run.c): the step and blast radius beside it are that
 * Rollout's, as the text's summary gives them, not those of another
 * Rollout that halted later.
 */
static const struct obs_rollout *first_halt(const struct oc_summary *s, const struct obs *obs)
{
	size_t n = 0;
	const struct obs_rollout *ro = obs ? obs_rollouts(obs, &n) : NULL;

	if (!s->halted || !s->halt_kind || strcmp(s->halt_kind, "Rollout") != 0 || !s->halt_ns ||
	    !s->halt_name)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (ro[i].halted && !strcmp(ro[i].ns, s->halt_ns) && !strcmp(ro[i].name, s->halt_name))
			return &ro[i];
	return NULL;
}

static json_t *ms_or_null(int64_t ms)
{
	return ms >= 0 ? json_integer((json_int_t)ms) : json_null();
}

/* A real for the report: NaN and infinities are null (jansson refuses them). */
static json_t *real_or_null(double v, bool present)
{
	json_t *j = present ? json_real(v) : NULL;

	return j ? j : json_null();
}

static json_t *gate_obj(const struct frc_gate_rec *g)
{
	json_t *o = json_object(), *th = json_object();

	json_object_set_new(o, "t_ms", json_integer(g->t_ms));
	json_object_set_new(o, "value", real_or_null(g->value, g->available));
	json_object_set_new(th, "min", str_or_null(g->min));
	json_object_set_new(th, "max", str_or_null(g->max));
	json_object_set_new(o, "threshold", th);
	json_object_set_new(o, "verdict", str_or_null(g->verdict));
	json_object_set_new(o, "error", str_or_null(g->error));
	json_object_set_new(o, "wave_open", json_boolean(g->wave_open));
	return o;
}

/* A wave's adoption of the fleet's targets over time (sim/observe/fleetobs.h ADOPTION). */
static json_t *adoption_obj(const struct fo_fleet *f, const struct fo_wave *w)
{
	json_t *a = json_object(), *per = json_array(), *pts = json_array();

	json_object_set_new(a, "members", json_integer((json_int_t)w->nmembers));
	for (size_t t = 0; t < f->ntargets; t++) {
		const struct fo_adoption *ad = &w->adoption[t];
		json_t *x = json_object();

		json_object_set_new(x, "version", str_or_null(ad->version));
		json_object_set_new(x, "adopted", json_integer((json_int_t)ad->adopted));
		json_object_set_new(x, "ready", json_integer((json_int_t)ad->ready));
		json_object_set_new(x, "first_ms", ms_or_null(ad->first_ms));
		json_object_set_new(x, "half_ms", ms_or_null(ad->half_ms));
		json_object_set_new(x, "all_ms", ms_or_null(ad->all_ms));
		json_object_set_new(x, "ready_half_ms", ms_or_null(ad->ready_half_ms));
		json_object_set_new(x, "ready_all_ms", ms_or_null(ad->ready_all_ms));
		json_array_append_new(per, x);
	}
	json_object_set_new(a, "targets", per);
	for (size_t k = 0; k < w->nprogress; k++) {
		json_t *p = json_object();

		json_object_set_new(p, "t_ms", json_integer(w->progress[k].t_ms));
		json_object_set_new(p, "version", str_or_null(w->progress[k].version));
		json_object_set_new(p, "adopted", json_integer((json_int_t)w->progress[k].adopted));
		json_object_set_new(p, "ready", json_integer((json_int_t)w->progress[k].ready));
		json_array_append_new(pts, p);
	}
	json_object_set_new(a, "progress", pts);
	return a;
}

/* Counts of the rollback stamps by outcome, refusals by reason. */
static json_t *outcomes_obj(const struct fo_fleet *f)
{
	json_t *o = json_object(), *refused = json_object();
	size_t down = 0, neither = 0;

	for (size_t i = 0; i < f->nstamps; i++) {
		const struct fo_stamp *st = &f->stamps[i];

		if (st->reverted_ms >= 0) {
			down++;
		} else if (st->refused_ms >= 0) {
			json_t *c = json_object_get(refused, st->refused_reason);

			json_object_set_new(refused, st->refused_reason,
					    json_integer(c ? json_integer_value(c) + 1 : 1));
		} else {
			neither++;
		}
	}
	json_object_set_new(o, "stamped", json_integer((json_int_t)f->nstamps));
	json_object_set_new(o, "downgraded", json_integer((json_int_t)down));
	json_object_set_new(o, "refused", refused);
	json_object_set_new(o, "neither", json_integer((json_int_t)neither));
	return o;
}

static json_t *fleet_obj(const struct fo_fleet *f)
{
	json_t *o = json_object(), *waves = json_array(), *halts = json_array();
	json_t *stamps = json_array();

	json_object_set_new(o, "name", str_or_null(f->name));
	json_object_set_new(o, "completed_ms", ms_or_null(f->completed_ms));
	json_object_set_new(o, "targets", str_array(f->targets, f->ntargets));
	for (size_t i = 0; i < f->nwaves; i++) {
		const struct fo_wave *w = &f->waves[i];
		json_t *wo = json_object(), *counts = json_object(), *evals = json_array();

		json_object_set_new(wo, "index", json_integer((json_int_t)i));
		json_object_set_new(wo, "name", str_or_null(w->name));
		json_object_set_new(wo, "opened_ms", ms_or_null(w->opened_ms));
		json_object_set_new(wo, "settled_ms", ms_or_null(w->settled_ms));
		json_object_set_new(wo, "last_settled_ms", ms_or_null(w->last_settled_ms));
		json_object_set_new(wo, "soak_until_ms", int_or_null(w->soak_until_ms, w->soaks > 0));
		json_object_set_new(wo, "soaks", json_integer(w->soaks));
		json_object_set_new(wo, "passed_ms", ms_or_null(w->passed_ms));
		json_object_set_new(counts, "passing", json_integer((json_int_t)w->passing));
		json_object_set_new(counts, "failing", json_integer((json_int_t)w->failing));
		json_object_set_new(counts, "unknown", json_integer((json_int_t)w->unknown));
		json_object_set_new(wo, "gate_verdicts", counts);
		for (size_t k = 0; k < w->ngates; k++)
			json_array_append_new(evals, gate_obj(&w->gates[k]));
		json_object_set_new(wo, "gate_evaluations", evals);
		json_object_set_new(wo, "adoption", adoption_obj(f, w));
		json_array_append_new(waves, wo);
	}
	json_object_set_new(o, "waves", waves);
	for (size_t i = 0; i < f->nhalts; i++) {
		const struct fo_halt *h = &f->halts[i];
		json_t *ho = json_object();

		json_object_set_new(ho, "t_ms", json_integer(h->t_ms));
		json_object_set_new(ho, "last_ms", json_integer(h->last_ms));
		json_object_set_new(ho, "passes", json_integer(h->passes));
		json_object_set_new(ho, "wave", str_or_null(h->wave));
		json_object_set_new(ho, "kind", json_string(h->gate ? "gate" : "regression"));
		json_object_set_new(ho, "reason", str_or_null(h->reason));
		json_object_set_new(ho, "message", str_or_null(h->message));
		json_object_set_new(ho, "version", str_or_null(h->version));
		json_array_append_new(halts, ho);
	}
	json_object_set_new(o, "halts", halts);
	for (size_t i = 0; i < f->nstamps; i++) {
		const struct fo_stamp *st = &f->stamps[i];
		json_t *so = json_object();

		json_object_set_new(so, "t_ms", json_integer(st->t_ms));
		json_object_set_new(so, "wave", str_or_null(st->wave));
		json_object_set_new(so, "member", str_or_null(st->member));
		json_object_set_new(so, "rollback_to", str_or_null(st->to));
		json_object_set_new(so, "reverted_ms", ms_or_null(st->reverted_ms));
		json_object_set_new(so, "refused_ms", ms_or_null(st->refused_ms));
		json_object_set_new(so, "refused_reason", str_or_null(st->refused_reason));
		json_object_set_new(so, "outcome", json_string(st->reverted_ms >= 0  ? "downgraded"
							       : st->refused_ms >= 0 ? "refused"
										     : "neither"));
		json_array_append_new(stamps, so);
	}
	json_object_set_new(o, "rollbacks", stamps);
	json_object_set_new(o, "rollback_outcomes", outcomes_obj(f));
	if (f->has_blast) {
		json_t *b = json_object(), *bw = json_array();

		json_object_set_new(b, "version", str_or_null(f->bad_version));
		json_object_set_new(b, "halt_ms", json_integer(f->halt_ms));
		json_object_set_new(b, "count", json_integer((json_int_t)f->blast_count));
		json_object_set_new(b, "total", json_integer((json_int_t)f->blast_total));
		json_object_set_new(b, "share", f->blast_total ? json_real((double)f->blast_count /
									 (double)f->blast_total)
							       : json_null());
		json_object_set_new(b, "members", str_array(f->blast_members, f->blast_count));
		for (size_t i = 0; i < f->nblast_waves; i++) {
			json_t *e = json_object();

			json_object_set_new(e, "wave", str_or_null(f->blast_waves[i].name));
			json_object_set_new(e, "count", json_integer((json_int_t)f->blast_waves[i].count));
			json_object_set_new(e, "total", json_integer((json_int_t)f->blast_waves[i].total));
			json_array_append_new(bw, e);
		}
		json_object_set_new(b, "by_wave", bw);
		json_object_set_new(o, "blast_radius", b);
	} else {
		json_object_set_new(o, "blast_radius", json_null());
	}
	json_object_set_new(o, "fault_onset_ms", ms_or_null(f->onset_ms));
	json_object_set_new(o, "fault_onset_member", str_or_null(f->onset_member));
	json_object_set_new(o, "fault_onset_kind",
			    f->onset_member ? json_string(f->onset_window ? "regression-window"
									 : "not-ready")
					     : json_null());
	json_object_set_new(o, "detection_latency_ms", ms_or_null(f->detection_latency_ms));
	json_object_set_new(o, "fault_noticed_ms", ms_or_null(f->noticed_ms));
	json_object_set_new(o, "exposure_member_ms", ms_or_null(f->exposure_member_ms));
	json_object_set_new(o, "exposure_after_halt_member_ms",
			    ms_or_null(f->exposure_after_halt_member_ms));
	json_object_set_new(o, "exposure_cut_members",
			    f->has_blast ? json_integer((json_int_t)f->exposure_loaded) : json_null());
	json_object_set_new(o, "remediated", f->has_blast ? json_integer((json_int_t)f->remediated)
							  : json_null());
	json_object_set_new(o, "unremediated",
			    f->has_blast ? json_integer((json_int_t)f->unremediated) : json_null());
	return o;
}

static json_t *fleets_array(const struct fo *fo)
{
	json_t *a = json_array();
	size_t n = 0;
	const struct fo_fleet *f = fo_fleets(fo, &n);

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, fleet_obj(&f[i]));
	return a;
}

static json_t *summary_block(const struct oc_summary *s, const struct obs *obs,
			     const struct fo *fo, const struct rep_capacity *cap)
{
	json_t *o = json_object();
	const struct obs_rollout *hr = first_halt(s, obs);

	json_object_set_new(o, "completed", json_boolean(s->completed));
	json_object_set_new(o, "censored", json_boolean(s->censored));
	json_object_set_new(o, "already_complete", json_boolean(s->already_complete));
	json_object_set_new(o, "nothing_to_complete", json_boolean(s->nothing_to_complete));
	json_object_set_new(o, "idle_rollouts", json_integer(s->drivers_idle));
	json_object_set_new(o, "time_to_complete_ms",
			    int_or_null(s->time_to_complete_ms, s->time_to_complete_ms >= 0));
	json_object_set_new(o, "halted", json_boolean(s->halted));
	if (s->halted) {
		json_t *h = json_object();

		json_object_set_new(h, "t_ms", json_integer(s->halt_ms));
		json_object_set_new(h, "before_start", json_boolean(s->halt_before_start));
		json_object_set_new(h, "kind", str_or_null(s->halt_kind));
		json_object_set_new(h, "namespace", str_or_null(s->halt_ns));
		json_object_set_new(h, "name", str_or_null(s->halt_name));
		json_object_set_new(h, "reason", str_or_null(s->halt_reason));
		json_object_set_new(h, "message", str_or_null(s->halt_message));
		json_object_set_new(h, "gate_value", real_or_null(s->halt_value, s->has_halt_value));
		json_object_set_new(h, "step", hr && hr->halt_step >= 0
						       ? str_or_null(hr->steps[hr->halt_step].name)
						       : json_null());
		json_object_set_new(o, "halt", h);
	} else {
		json_object_set_new(o, "halt", json_null());
	}
	json_object_set_new(o, "blast_radius",
			    hr && (!hr->halted_before_start || hr->blast_known) ? blast_obj(hr)
										       : json_null());
	json_object_set_new(o, "drivers", json_integer(s->drivers));
	json_object_set_new(o, "drivers_completed", json_integer(s->drivers_completed));
	json_object_set_new(o, "rollouts", rollouts_array(obs));
	json_object_set_new(o, "workspaces", workspaces_array(obs));
	json_object_set_new(o, "capacity", capacity_block(cap));
	{
		size_t n = 0;
		char *const *v = obs ? obs_fleet_views(obs, &n) : NULL;

		json_object_set_new(o, "fleet_views", str_array(v, n));
	}
	json_object_set_new(o, "fleets", fleets_array(fo));
	return o;
}

int rep_json(FILE *f, const struct rep_run *run)
{
	size_t n = tl_count(run->tl), nn = tl_notice_count(run->tl);

	if (fputs("{\n  \"schema\": \"magos-sim/run/v1\",\n  \"tool\": ", f) < 0 ||
	    put(f, json_pack("{s:s,s:s,s:s}", "name", tool_name(), "version", tool_version(), "commit", tool_commit()), JSON_COMPACT, ",\n  \"scenario\": ") < 0 ||
	    put(f, scenario_block(run), JSON_COMPACT, ",\n  \"run\": ") ||
	    put(f, run_block(run), JSON_COMPACT, ",\n  \"timeline\": [") < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct tl_entry e;

		tl_get(run->tl, i, &e);
		if (fputs(i ? ",\n    " : "\n    ", f) < 0 || put(f, entry_obj(&e), JSON_COMPACT, ""))
			return -1;
	}
	if (fputs(n ? "\n  ],\n  \"notices\": [" : "],\n  \"notices\": [", f) < 0)
		return -1;
	for (size_t i = 0; i < nn; i++) {
		struct tl_notice no;

		tl_notice_get(run->tl, i, &no);
		if (fputs(i ? ",\n    " : "\n    ", f) < 0 || put(f, notice_obj(&no), JSON_COMPACT, ""))
			return -1;
	}
	if (fputs(nn ? "\n  ],\n  \"summary\": " : "],\n  \"summary\": ", f) < 0 ||
	    put(f, summary_block(run->summary, run->obs, run->fleets, &run->capacity), JSON_COMPACT, "\n}\n") < 0)
		return -1;
	return 0;
}

int rep_events(FILE *f, const struct rep_run *run)
{
	size_t n = tl_count(run->tl);
	char tool[256];

	snprintf(tool, sizeof(tool), "%s %s (commit %s)", tool_name(), tool_version(), tool_commit());
	for (size_t i = 0; i < n; i++) {
		struct tl_entry e;
		json_t *o = json_object();
		char wall[GT_RFC3339_BUFSZ];

		tl_get(run->tl, i, &e);
		gt_format_rfc3339_nano(run->start_unix_ms + e.t_ms, wall, sizeof(wall));
		json_object_set_new(o, "schema", json_string("magos-sim/event/v1"));
		json_object_set_new(o, "time", json_string(wall));
		json_object_set_new(o, "elapsed_ms", json_integer(e.t_ms));
		json_object_set_new(o, "elapsed", duration_str(e.t_ms));
		json_object_set_new(o, "kind", str_or_null(e.kind));
		json_object_set_new(o, "namespace", str_or_null(e.ns));
		json_object_set_new(o, "name", str_or_null(e.name));
		json_object_set_new(o, "change", json_string(tl_change_name(e.change)));
		json_object_set_new(o, "phase", str_or_null(e.phase));
		json_object_set_new(o, "reason", str_or_null(e.reason));
		json_object_set_new(o, "message", str_or_null(e.message));
		json_object_set_new(o, "detail", str_or_null(e.detail));
		json_object_set_new(o, "cause", str_or_null(e.cause));
		json_object_set_new(o, "resource_version", json_integer((json_int_t)e.resource_version));
		json_object_set_new(o, "generation", json_integer(e.generation));
		json_object_set_new(o, "scenario", str_or_null(run->name));
		json_object_set_new(o, "seed", run->seed <= INT64_MAX ? json_integer((json_int_t)run->seed)
								  : json_sprintf("%" PRIu64, run->seed));
		json_object_set_new(o, "tool", json_string(tool));
		if (put(f, o, JSON_COMPACT, "\n") < 0)
			return -1;
	}
	return ferror(f) ? -1 : 0;
}
