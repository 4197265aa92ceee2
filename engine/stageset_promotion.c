/*
 * The promotion gate of a StageSet stage.  See engine/stageset_promotion.h.
 */
#include "engine/stageset_promotion.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/labels.h"
#include "engine/stageset_budget.h"
#include "engine/stageset_windows.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* ---- the promote annotation ------------------------------------------------ */

bool pr_parse_promote(const struct obj *ss, struct pr_promote_request *out)
{
	const char *v = obj_strmap_get(&ss->annotations, SSC_ANN_PROMOTE);
	const char *at;

	out->stage = "";
	out->stage_len = 0;
	out->token = "";
	if (!v || !*v)
		return false;
	at = strchr(v, '@');
	if (!at || at == v || at[1] == '\0')
		return false;
	out->stage = v;
	out->stage_len = (size_t)(at - v);
	out->token = at + 1;
	return true;
}

const char *pr_promote_token_for(const struct obj *ss, const char *stage_name)
{
	struct pr_promote_request r;

	pr_parse_promote(ss, &r);
	/* An empty stage (no request) matches an empty stage name, as upstream: its token is "" then. */
	if (strlen(stage_name) != r.stage_len || strncmp(r.stage, stage_name, r.stage_len) != 0)
		return "";
	return r.token;
}

bool pr_promote_requested_update(const struct obj *old, const struct obj *new)
{
	if (!old || !new)
		return false;
	return strcmp(or_empty(obj_strmap_get(&old->annotations, SSC_ANN_PROMOTE)),
		      or_empty(obj_strmap_get(&new->annotations, SSC_ANN_PROMOTE))) != 0;
}

/* ---- analysis and fast track ------------------------------------------------ */

/* One query through the world; the clock advances by its duration. */
static int query(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_metric_source *src,
		 double *value, struct ssc_err *err)
{
	int64_t took = 0;
	int rc;

	memset(err, 0, sizeof(*err));
	*value = 0;
	rc = env->query(env->ctx, src, clk->now_ms, value, &took, err);
	if (took > 0)
		clk->now_ms += took;
	if (rc != 0 && err->code == SSC_OK)
		err->code = SSC_ERR;
	return rc;
}

void pr_evaluate_promotion_analysis(const struct ssc_env *env, struct ssc_clock *clk,
				    const struct sst_stage *stage, struct pr_analysis_verdict *out)
{
	const struct sst_promotion *p = &stage->promotion;
	struct sst_analysis_result *res;
	bool all_ok = true;

	assert(stage->has_promotion && p->has_analysis);
	memset(out, 0, sizeof(*out));
	res = xcalloc(1, sizeof(*res));
	res->time_ms = clk->now_ms;
	out->result = res;
	if (p->analysis.nchecks)
		res->checks = xcalloc(p->analysis.nchecks, sizeof(*res->checks));
	for (size_t i = 0; i < p->analysis.nchecks; i++) {
		const struct sst_analysis_check *c = &p->analysis.checks[i];
		struct sst_analysis_check_result *cr = &res->checks[res->nchecks++];
		struct ssc_err err;
		double value;

		cr->name = xstrdup(or_empty(c->name));
		if (query(env, clk, &c->source, &value, &err) != 0) {
			cr->value = xstrdup("");
			cr->error = xstrdup(err.msg);
			out->source_err = true;
			out->metric_source_errors++;
			all_ok = false;
		} else {
			char terr[THR_ERRLEN], num[400];
			bool ok = false;

			cr->value = xstrdup(eb_format_float(value, num, sizeof(num)));
			if (thr_satisfied(c->threshold.min, c->threshold.max, value, &ok, terr, sizeof(terr)) !=
			    THR_OK) {
				/* A malformed threshold is a breach, so a bad rule never silently promotes. */
				cr->error = xstrdup(terr);
				out->breached = true;
				all_ok = false;
			} else {
				cr->error = xstrdup("");
				cr->ok = ok;
				if (!ok) {
					out->breached = true;
					all_ok = false;
				}
			}
		}
	}
	res->passed = all_ok;
}

void pr_analysis_verdict_release(struct pr_analysis_verdict *v)
{
	struct sst_analysis_result *r;

	if (!v)
		return;
	r = v->result;
	if (r) {
		for (size_t i = 0; i < r->nchecks; i++) {
			free(r->checks[i].name);
			free(r->checks[i].value);
			free(r->checks[i].error);
		}
		free(r->checks);
		free(r);
	}
	memset(v, 0, sizeof(*v));
}

int64_t pr_fast_track_after(const struct sst_promotion *p)
{
	return p->fast_track.after.set ? p->fast_track.after.ms : 0;
}

bool pr_evaluate_fast_track(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_stage *stage)
{
	const struct sst_promotion *p = &stage->promotion;
	struct ssc_err err;
	double max, value;

	assert(stage->has_promotion && p->has_fast_track);
	if (thr_parse_float(or_empty(p->fast_track.max), &max) != THR_OK)
		return false;
	if (query(env, clk, &p->fast_track.source, &value, &err) != 0)
		return false;
	return value <= max;
}

int64_t pr_analysis_interval(const struct sst_promotion *p, int64_t retry_ms)
{
	if (p && p->has_analysis && p->analysis.interval.set && p->analysis.interval.ms > 0)
		return p->analysis.interval.ms;
	return retry_ms;
}

static bool is_rollback(const char *on_failure)
{
	return on_failure && strcmp(on_failure, "Rollback") == 0;
}

bool pr_abort_capable(const struct sst_promotion *p)
{
	if (!p)
		return false;
	if (p->has_analysis && is_rollback(p->analysis.on_failure) && !p->analysis.dry_run)
		return true;
	if (p->has_restart_gate) {
		if (is_rollback(p->restart_gate.on_failure))
			return true;
		for (size_t i = 0; i < p->restart_gate.nchecks; i++)
			if (is_rollback(p->restart_gate.checks[i].on_failure))
				return true;
	}
	if (p->has_event_gate) {
		if (is_rollback(p->event_gate.on_failure))
			return true;
		for (size_t i = 0; i < p->event_gate.nchecks; i++)
			if (is_rollback(p->event_gate.checks[i].on_failure))
				return true;
	}
	return false;
}

static const char *prior_handled(const struct sst_stage_status *prior)
{
	return prior ? or_empty(prior->last_handled_promotion) : "";
}

static const struct sst_promotion_state *prior_state(const struct sst_stage_status *prior)
{
	return prior ? prior->promotion_state : NULL;
}

static bool phase_is(const struct sst_promotion_state *s, const char *phase)
{
	return s && s->phase && strcmp(s->phase, phase) == 0;
}

bool pr_rollback_aborted(const struct obj *ss, const struct sst_stage *stage,
			 const struct sst_stage_status *prior, const char *revision)
{
	const struct sst_promotion_state *st = prior_state(prior);
	const char *tok;

	if (!pr_abort_capable(stage->has_promotion ? &stage->promotion : NULL))
		return false;
	if (!st || !phase_is(st, PR_PHASE_BLOCKED) || strcmp(or_empty(st->aborted_revision), or_empty(revision)) != 0)
		return false;
	tok = pr_promote_token_for(ss, stage->name);
	if (*tok && strcmp(tok, prior_handled(prior)) != 0)
		return false; /* a fresh promote un-aborts the stage */
	return true;
}

/* ---- restart and event gates ------------------------------------------------ */

/*
 * podRestartTotal's / podWarningEventTotal's guards before the list:
 * 1 when the selector selects nothing to count (counts 0), 0 to ask the
 * world, -1 with @err when it does not convert.
 */
static int selector_guard(const struct lbl_selector *sel, const struct val *raw, struct ssc_err *err)
{
	if (sel->nothing && raw) {
		/* The spec parse reads a selector that does not convert as "nothing"; say why, as upstream. */
		struct lbl_selector again;
		char why[LBL_ERRLEN];

		memset(&again, 0, sizeof(again));
		if (lbl_selector_from_val(raw, &again, why, sizeof(why)) != 0) {
			ssc_err_set(err, SSC_ERR, "invalid selector: %s", why);
			return -1;
		}
		lbl_selector_release(&again);
	}
	/* An absent selector is a zero metav1.LabelSelector (Everything): empty, as {} is. */
	return sel->n == 0 ? 1 : 0;
}

/* Prefixes @err's text with "<what> check "<name>": ", keeping its class. */
static void wrap_check_error(struct ssc_err *err, const char *what, const char *name)
{
	char *q = gofmt_quote(name);
	char *m = xasprintf("%s check %s: %s", what, q, err->msg);

	snprintf(err->msg, sizeof(err->msg), "%s", m);
	if (err->code == SSC_OK)
		err->code = SSC_ERR;
	free(m);
	free(q);
}

bool pr_prior_restart_baseline(const struct sst_stage_status *prior, const char *check, int32_t *restarts)
{
	const struct sst_promotion_state *st = prior_state(prior);
	bool seen = false;

	if (!st)
		return false;
	for (size_t i = 0; i < st->nrestart_baseline; i++)
		if (strcmp(or_empty(st->restart_baseline[i].name), check) == 0) {
			*restarts = st->restart_baseline[i].restarts;
			seen = true; /* keep going: the last entry of a name wins, as a map assignment */
		}
	return seen;
}

/* Go's int32 subtraction wraps; C's signed one must not overflow. */
static int32_t sub32(int32_t a, int32_t b)
{
	return (int32_t)(uint32_t)((uint32_t)a - (uint32_t)b);
}

int pr_evaluate_restart_checks(const struct ssc_env *env, struct ssc_clock *clk, const char *ns,
			       const struct sst_stage *stage, const struct sst_stage_status *prior,
			       struct pr_restart_observation *out, struct ssc_err *err)
{
	const struct sst_promotion *p = &stage->promotion;
	size_t n;

	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	if (!stage->has_promotion || !p->has_restart_gate)
		return 0;
	n = p->restart_gate.nchecks;
	if (n) {
		out->baseline = xcalloc(n, sizeof(*out->baseline));
		out->totals = xcalloc(n, sizeof(*out->totals));
	}
	for (size_t i = 0; i < n; i++) {
		const struct sst_restart_check *check = &p->restart_gate.checks[i];
		int32_t total = 0, base, excess;
		int g = selector_guard(&check->selector, check->selector_raw, err);

		if (g == 0 && env->pod_restarts(env->ctx, ns, &check->selector, clk->now_ms, &total, err) != 0) {
			if (err->code == SSC_OK)
				err->code = SSC_ERR;
			g = -1;
		}
		if (g < 0) {
			wrap_check_error(err, "restart", or_empty(check->name));
			pr_restart_observation_release(out);
			return -1;
		}
		if (!pr_prior_restart_baseline(prior, or_empty(check->name), &base))
			base = total; /* never observed: nothing that predates the gate is charged to it */
		excess = sub32(total, base);
		if (excess < 0)
			excess = 0;
		out->baseline[out->nbaseline].name = xstrdup(or_empty(check->name));
		out->baseline[out->nbaseline++].restarts = base;
		out->totals[out->ntotals].name = xstrdup(or_empty(check->name));
		out->totals[out->ntotals++].restarts = total;
		if (excess > check->max_restarts && !out->verdict) {
			const char *on_failure = or_empty(check->on_failure);

			if (!*on_failure)
				on_failure = or_empty(p->restart_gate.on_failure);
			out->verdict = xcalloc(1, sizeof(*out->verdict));
			out->verdict->check = xstrdup(or_empty(check->name));
			out->verdict->observed = excess;
			out->verdict->rollback = is_rollback(on_failure);
		}
	}
	return 0;
}

void pr_restart_observation_release(struct pr_restart_observation *o)
{
	if (!o)
		return;
	if (o->verdict) {
		free(o->verdict->check);
		free(o->verdict);
	}
	for (size_t i = 0; i < o->nbaseline; i++)
		free(o->baseline[i].name);
	for (size_t i = 0; i < o->ntotals; i++)
		free(o->totals[i].name);
	free(o->baseline);
	free(o->totals);
	memset(o, 0, sizeof(*o));
}

int pr_evaluate_event_checks(const struct ssc_env *env, struct ssc_clock *clk, const char *ns,
			     const struct sst_stage *stage, struct pr_event_verdict **out, struct ssc_err *err)
{
	const struct sst_promotion *p = &stage->promotion;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	if (!stage->has_promotion || !p->has_event_gate)
		return 0;
	for (size_t i = 0; i < p->event_gate.nchecks; i++) {
		const struct sst_event_check *check = &p->event_gate.checks[i];
		int32_t total = 0;
		int g = selector_guard(&check->selector, check->selector_raw, err);

		if (g == 0 && env->warning_events(env->ctx, ns, &check->selector, check->reasons, check->nreasons,
						  clk->now_ms, &total, err) != 0) {
			if (err->code == SSC_OK)
				err->code = SSC_ERR;
			g = -1;
		}
		if (g < 0) {
			wrap_check_error(err, "event", or_empty(check->name));
			return -1;
		}
		if (total > check->max_events) {
			const char *on_failure = or_empty(check->on_failure);

			if (!*on_failure)
				on_failure = or_empty(p->event_gate.on_failure);
			*out = xcalloc(1, sizeof(**out));
			(*out)->check = xstrdup(or_empty(check->name));
			(*out)->observed = total;
			(*out)->rollback = is_rollback(on_failure);
			return 0;
		}
	}
	return 0;
}

void pr_event_verdict_free(struct pr_event_verdict *v)
{
	if (!v)
		return;
	free(v->check);
	free(v);
}

/* ---- the decision ----------------------------------------------------------- */

int32_t pr_analysis_failure_count(const struct sst_promotion_state *state)
{
	return state ? state->analysis_failures : 0;
}

bool pr_past_soak(const char *phase)
{
	return phase && (strcmp(phase, PR_PHASE_ANALYZING) == 0 || strcmp(phase, PR_PHASE_AWAITING_MANUAL) == 0 ||
			 strcmp(phase, PR_PHASE_PROMOTED) == 0);
}

void pr_carry_soak_until(struct sst_promotion_state *s, const struct sst_promotion_state *prior,
			 bool same_revision)
{
	if (same_revision && prior && prior->soak_until_ms != SST_NO_TIME)
		s->soak_until_ms = prior->soak_until_ms;
}

int64_t pr_phase_since(const struct sst_promotion_state *prior, bool same_revision, const char *phase,
		       int64_t now_ms)
{
	if (same_revision && phase_is(prior, phase) && prior->since_ms != SST_NO_TIME)
		return prior->since_ms;
	return now_ms;
}

/* A new state in @phase since @since_ms, every string "" and every other time absent. */
static struct sst_promotion_state *new_state(const char *phase, int64_t since_ms)
{
	struct sst_promotion_state *s = xcalloc(1, sizeof(*s));

	s->phase = xstrdup(phase);
	s->since_ms = since_ms;
	s->soak_until_ms = SST_NO_TIME;
	s->restart_check = xstrdup("");
	s->event_check = xstrdup("");
	s->aborted_revision = xstrdup("");
	return s;
}

static struct sst_analysis_result *analysis_copy(const struct sst_analysis_result *a)
{
	struct sst_analysis_result *d;

	if (!a)
		return NULL;
	d = xcalloc(1, sizeof(*d));
	d->time_ms = a->time_ms;
	d->passed = a->passed;
	if (a->nchecks)
		d->checks = xcalloc(a->nchecks, sizeof(*d->checks));
	for (size_t i = 0; i < a->nchecks; i++) {
		d->checks[i].name = xstrdup(or_empty(a->checks[i].name));
		d->checks[i].value = xstrdup(or_empty(a->checks[i].value));
		d->checks[i].error = xstrdup(or_empty(a->checks[i].error));
		d->checks[i].ok = a->checks[i].ok;
	}
	d->nchecks = a->nchecks;
	return d;
}

static void decide(struct pr_decision *out, bool promoted, struct sst_promotion_state *state, int64_t requeue_ms,
		   const char *handled, bool rollback)
{
	out->promoted = promoted;
	out->state = state;
	out->requeue_ms = requeue_ms;
	out->handled = xstrdup(handled);
	out->rollback = rollback;
}

void pr_gate_promotion(const struct obj *ss, const struct sst_stage *stage, const char *revision,
		       const struct sst_stage_status *prior, int64_t now_ms,
		       const struct pr_analysis_verdict *verdict, bool fast_track_ok,
		       const struct pr_restart_verdict *restart, const struct pr_event_verdict *event,
		       int64_t retry_ms, struct pr_decision *out)
{
	const struct sst_promotion *p = &stage->promotion;
	const struct sst_promotion_state *ps = prior_state(prior);
	const char *handled = prior_handled(prior);
	bool same, passing = true, failed = false;
	const struct sst_analysis_result *result = NULL;
	int32_t failures = 0;
	struct sst_promotion_state *s;
	const char *tok;

	memset(out, 0, sizeof(*out));
	/* G-1: no gate. */
	if (!stage->has_promotion) {
		decide(out, true, NULL, 0, handled, false);
		return;
	}
	same = strcmp(prior ? or_empty(prior->applied_revision) : "", or_empty(revision)) == 0;

	/* G-2: already promoted at this revision: never re-gated. */
	if (same && phase_is(ps, PR_PHASE_PROMOTED)) {
		decide(out, true, sst_promotion_state_dup(ps), 0, handled, false);
		return;
	}

	/* G-3: a fresh promote token for this stage is break-glass over every other gate. */
	tok = pr_promote_token_for(ss, stage->name);
	if (*tok && strcmp(tok, handled) != 0) {
		decide(out, true, new_state(PR_PHASE_PROMOTED, now_ms), 0, tok, false);
		return;
	}

	/* G-4: a restart breach blocks. */
	if (restart) {
		s = new_state(PR_PHASE_BLOCKED, pr_phase_since(ps, same, PR_PHASE_BLOCKED, now_ms));
		free(s->restart_check);
		s->restart_check = xstrdup(or_empty(restart->check));
		s->observed_restarts = restart->observed;
		pr_carry_soak_until(s, ps, same);
		decide(out, false, s, retry_ms, handled, restart->rollback);
		return;
	}

	/* G-5: an event breach blocks. */
	if (event) {
		s = new_state(PR_PHASE_BLOCKED, pr_phase_since(ps, same, PR_PHASE_BLOCKED, now_ms));
		free(s->event_check);
		s->event_check = xstrdup(or_empty(event->check));
		s->observed_events = event->observed;
		pr_carry_soak_until(s, ps, same);
		decide(out, false, s, retry_ms, handled, event->rollback);
		return;
	}

	/* G-6: count consecutive failing evaluations at this revision. */
	if (verdict) {
		int32_t prev = 0, limit;
		bool failing_now;

		assert(p->has_analysis);
		result = verdict->result;
		failing_now = verdict->breached ||
			      (verdict->source_err && strcmp(or_empty(p->analysis.on_source_error), "Allow") != 0);
		passing = !failing_now;
		if (same && ps)
			prev = ps->analysis_failures;
		if (failing_now)
			failures = (int32_t)(uint32_t)((uint32_t)prev + 1u);
		limit = p->analysis.has_failure_limit ? p->analysis.failure_limit : 0;
		if (failures > limit && !p->analysis.dry_run)
			failed = true;
	}

	/* G-7: the analysis failed: hold (or roll back). */
	if (failed) {
		s = new_state(PR_PHASE_BLOCKED, pr_phase_since(ps, same, PR_PHASE_BLOCKED, now_ms));
		pr_carry_soak_until(s, ps, same);
		s->analysis_failures = failures;
		s->last_analysis = analysis_copy(result);
		decide(out, false, s, pr_analysis_interval(p, retry_ms), handled, is_rollback(p->analysis.on_failure));
		return;
	}

	/* G-8: the soak, unless a post-soak phase was reached at this revision. */
	if (p->soak.set && p->soak.ms > 0 && !(same && ps && pr_past_soak(ps->phase))) {
		int64_t since = now_ms, soak_until;
		bool fast_tracked;

		if (same && ps && ps->soak_until_ms != SST_NO_TIME)
			since = ps->soak_until_ms - p->soak.ms; /* resume the deadline this revision first got */
		else if (same && phase_is(ps, PR_PHASE_SOAKING) && ps->since_ms != SST_NO_TIME)
			since = ps->since_ms;
		soak_until = since + p->soak.ms;
		fast_tracked = p->has_fast_track && fast_track_ok && !(now_ms < since + pr_fast_track_after(p));
		if (now_ms < soak_until && !fast_tracked) {
			s = new_state(PR_PHASE_SOAKING, since);
			s->soak_until_ms = soak_until;
			s->analysis_failures = failures;
			s->last_analysis = analysis_copy(result);
			decide(out, false, s, win_requeue_for_window(soak_until, now_ms, retry_ms), handled, false);
			return;
		}
	}

	/* G-9: after the soak a present analysis must pass now. */
	if (verdict && !passing && !p->analysis.dry_run) {
		s = new_state(PR_PHASE_ANALYZING, pr_phase_since(ps, same, PR_PHASE_ANALYZING, now_ms));
		s->analysis_failures = failures;
		s->last_analysis = analysis_copy(result);
		decide(out, false, s, pr_analysis_interval(p, retry_ms), handled, false);
		return;
	}

	/* G-10: the manual gate (a fresh token was consumed at G-3). */
	if (p->require_manual) {
		int64_t since = now_ms;

		if (same && phase_is(ps, PR_PHASE_AWAITING_MANUAL) && ps->since_ms != SST_NO_TIME)
			since = ps->since_ms;
		s = new_state(PR_PHASE_AWAITING_MANUAL, since);
		s->analysis_failures = failures;
		s->last_analysis = analysis_copy(result);
		decide(out, false, s, retry_ms, handled, false);
		return;
	}

	/* G-11: promoted. */
	s = new_state(PR_PHASE_PROMOTED, now_ms);
	s->analysis_failures = failures;
	s->last_analysis = analysis_copy(result);
	decide(out, true, s, 0, handled, false);
}

void pr_decision_release(struct pr_decision *d)
{
	if (!d)
		return;
	sst_promotion_state_free(d->state);
	free(d->handled);
	memset(d, 0, sizeof(*d));
}

void pr_promotion_hold_condition(const struct obj *ss, const char *stage,
				 const struct sst_promotion_state *state, const char **reason, char **msg)
{
	const char *phase = state && state->phase ? state->phase : PR_PHASE_SOAKING;
	char *qs = gofmt_quote(stage);

	if (strcmp(phase, PR_PHASE_AWAITING_MANUAL) == 0) {
		*reason = PR_REASON_AWAITING_PROMOTION;
		*msg = xasprintf("stage %s is healthy and awaiting a manual promotion; run: stagesetctl promote %s "
				 "--namespace %s --stage %s",
				 qs, ss->name, ss->ns, stage);
	} else if (strcmp(phase, PR_PHASE_BLOCKED) == 0) {
		bool aborted = state && state->aborted_revision && *state->aborted_revision;

		*reason = PR_REASON_PROMOTION_BLOCKED;
		if (state && state->restart_check && *state->restart_check) {
			char *qc = gofmt_quote(state->restart_check);

			*msg = xasprintf("stage %s restart check %s observed %d pod restart(s) over its limit; %s", qs, qc,
					 (int)state->observed_restarts,
					 aborted ? "rolled back to its last-good revision"
						 : "the rollout will not advance past it");
			free(qc);
		} else if (state && state->event_check && *state->event_check) {
			char *qc = gofmt_quote(state->event_check);

			*msg = xasprintf("stage %s event check %s observed %d warning event(s) over its limit; %s", qs, qc,
					 (int)state->observed_events,
					 aborted ? "rolled back to its last-good revision"
						 : "the rollout will not advance past it");
			free(qc);
		} else if (aborted) {
			*msg = xasprintf("stage %s promotion analysis failed (%d failure(s)); rolled back to its last-good "
					 "revision",
					 qs, (int)state->analysis_failures);
		} else {
			*msg = xasprintf("stage %s promotion analysis is failing (%d failure(s)); the rollout will not "
					 "advance past it",
					 qs, (int)pr_analysis_failure_count(state));
		}
	} else if (strcmp(phase, PR_PHASE_ANALYZING) == 0) {
		*reason = PR_REASON_SOAKING;
		*msg = xasprintf("stage %s is running promotion analysis before advancing", qs);
	} else {
		*reason = PR_REASON_SOAKING;
		if (state && state->soak_until_ms != SST_NO_TIME) {
			char t[40];

			*msg = xasprintf("stage %s is soaking before promotion; soak window closes at %s", qs,
					 sst_format_time(state->soak_until_ms, t, sizeof(t)));
		} else {
			*msg = xasprintf("stage %s is soaking before promotion", qs);
		}
	}
	free(qs);
}
