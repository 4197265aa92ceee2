/*
 * Error-budget freezes of the StageSet port.  See stageset_budget.h;
 * functions keep upstream's names in snake_case and its statement order.
 */
#include "engine/stageset_budget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/labels.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"

#define REASON_READY "Succeeded"
#define REASON_INVALID_SPEC "InvalidSpec"
#define REASON_BUDGET_EXHAUSTED "BudgetExhausted"
#define REASON_BUDGET_SOURCE_UNAVAILABLE "BudgetSourceUnavailable"
#define PERMANENT_RETRY_MS SSC_PERMANENT_RETRY_MS

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static int64_t floor_sec(int64_t ms)
{
	int64_t s = ms / 1000;

	if (ms % 1000 < 0)
		s--;
	return s * 1000;
}

bool eb_fresh_budget_override(const struct obj *ss, const struct sst_status *st, const char **token)
{
	const char *t = or_empty(obj_strmap_get(&ss->annotations, SSC_ANN_BUDGET_OVERRIDE));

	*token = t;
	return t[0] != '\0' && strcmp(t, or_empty(st->last_handled_budget_override)) != 0;
}

/* metricsource.ParseScalar wrapped as budgetThresholds words it. */
static int parse_threshold(const char *field, const char *s, double *out, char *err, size_t errlen)
{
	int rc = thr_parse_float(s, out);

	if (rc != THR_OK) {
		char perr[THR_ERRLEN];
		char *q = gofmt_quote(s);

		thr_parse_float_error(s, rc, perr, sizeof(perr));
		snprintf(err, errlen, "%s %s is not a number: %s", field, q, perr);
		free(q);
		return -1;
	}
	return 0;
}

int eb_budget_thresholds(const struct sst_error_budget *eb, double *freeze, double *resume, char *err,
			 size_t errlen)
{
	const char *fs = or_empty(eb->freeze_threshold), *rs = or_empty(eb->resume_threshold);

	if (parse_threshold("freezeThreshold", fs, freeze, err, errlen) != 0)
		return -1;
	if (rs[0] == '\0') {
		*resume = *freeze;
		return 0;
	}
	if (parse_threshold("resumeThreshold", rs, resume, err, errlen) != 0)
		return -1;
	if (*resume < *freeze) {
		char *qr = gofmt_quote(rs), *qf = gofmt_quote(fs);

		snprintf(err, errlen,
			 "resumeThreshold %s must be >= freezeThreshold %s (hysteresis resumes at or above the freeze point)",
			 qr, qf);
		free(qr);
		free(qf);
		return -1;
	}
	return 0;
}

const char *eb_effective_resume(const struct sst_error_budget *eb)
{
	if (eb->resume_threshold && eb->resume_threshold[0] != '\0')
		return eb->resume_threshold;
	return or_empty(eb->freeze_threshold);
}

int64_t eb_budget_interval(const struct sst_error_budget *eb, int64_t retry_ms)
{
	if (eb->interval.set && eb->interval.ms > 0)
		return eb->interval.ms;
	return retry_ms;
}

char *eb_format_float(double v, char *buf, size_t len)
{
	char e[40], digits[24];
	size_t nd = 0, used = 0;
	int exp10 = 0, prec;

	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%s", v > 0 ? "+Inf" : "-Inf");
		return buf;
	}
	/* The fewest significant digits that read back as v (%e rounds correctly). */
	for (prec = 1; prec <= 17; prec++) {
		snprintf(e, sizeof(e), "%.*e", prec - 1, v);
		if (strtod(e, NULL) == v)
			break;
	}
	/* e is [-]d[.ddd]e[+-]xx: collect the digits and the exponent. */
	for (const char *p = e; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[nd++] = *p;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	exp10 = atoi(strchr(e, 'e') + 1);

#define PUT(c) do { if (used + 1 < len) buf[used++] = (char)(c); } while (0)
	if (signbit(v))
		PUT('-');
	if (v == 0) {
		PUT('0');
	} else if (exp10 >= 0) {
		/* digits[0..exp10] before the point, zeros when there are fewer */
		for (int i = 0; i <= exp10; i++)
			PUT((size_t)i < nd ? digits[i] : '0');
		if ((size_t)exp10 + 1 < nd) {
			PUT('.');
			for (size_t i = (size_t)exp10 + 1; i < nd; i++)
				PUT(digits[i]);
		}
	} else {
		PUT('0');
		PUT('.');
		for (int i = 0; i < -exp10 - 1; i++)
			PUT('0');
		for (size_t i = 0; i < nd; i++)
			PUT(digits[i]);
	}
#undef PUT
	if (len > 0)
		buf[used] = '\0';
	return buf;
}

void eb_evaluate_budget(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_error_budget *eb,
			const struct sst_budget_freeze *prev, struct eb_verdict *out)
{
	double freeze_at, resume_at, value = 0;
	int64_t dur = 0;
	bool was_frozen, frozen;
	struct sst_budget_freeze *f;
	char remaining[400];
	int rc;

	memset(out, 0, sizeof(*out));
	if (eb_budget_thresholds(eb, &freeze_at, &resume_at, out->spec_msg, sizeof(out->spec_msg)) != 0) {
		out->spec_err = true;
		return;
	}
	if (env && env->query) {
		rc = env->query(env->ctx, &eb->source, clk->now_ms, &value, &dur, &out->source);
	} else {
		rc = -1;
		ssc_err_set(&out->source, SSC_ERR, "no metric source is modelled");
	}
	if (dur > 0)
		clk->now_ms += dur;
	if (rc != 0) {
		out->source_err = true;
		if (out->source.code == SSC_OK)
			out->source.code = SSC_ERR;
		return;
	}
	out->value = value;

	/* Hysteresis: once frozen, frozen until the budget recovers to resume. */
	was_frozen = prev != NULL;
	frozen = value < freeze_at;
	if (was_frozen)
		frozen = value < resume_at;
	if (!frozen)
		return;

	f = xcalloc(1, sizeof(*f));
	f->remaining = xstrdup(eb_format_float(value, remaining, sizeof(remaining)));
	f->freeze_threshold = xstrdup(or_empty(eb->freeze_threshold));
	f->resume_threshold = xstrdup(eb_effective_resume(eb));
	f->since_ms = floor_sec(clk->now_ms);
	if (was_frozen && prev->since_ms != SST_NO_TIME)
		f->since_ms = prev->since_ms;
	f->dry_run = eb->dry_run;
	out->frozen = true;
	out->freeze = f;
}

void eb_verdict_release(struct eb_verdict *v)
{
	if (!v)
		return;
	sst_budget_freeze_free(v->freeze);
	v->freeze = NULL;
}

/* ---- gateErrorBudget ----------------------------------------------------- */

static void clear_budget_freeze(struct sst_status *st)
{
	sst_budget_freeze_free(st->budget_freeze);
	st->budget_freeze = NULL;
}

/* Whether Ready's status and reason already are these (emitReadyEvent's dedup). */
static bool ready_is(const struct sst_status *st, const char *status, const char *reason)
{
	const struct sst_condition *prev = sst_ready_condition(st);

	return prev && (!status || strcmp(or_empty(prev->status), status) == 0) &&
	       strcmp(or_empty(prev->reason), reason) == 0;
}

/* deferBudget: a deployed StageSet stays Ready=True; the event follows a change of Ready. */
static void defer_budget(const struct obj *ss, struct sst_status *st, const char *reason, const char *msg,
			 int64_t interval, struct eb_gate *out)
{
	const char *status, *r;

	if (st->last_applied_revisions.n > 0) {
		status = "True";
		r = REASON_READY;
		snprintf(out->ready_message, sizeof(out->ready_message), "Deployed; %s", msg);
	} else {
		status = "False";
		r = reason;
		snprintf(out->ready_message, sizeof(out->ready_message), "%s", msg);
	}
	out->set_ready = true;
	out->ready_status = status;
	out->ready_reason = r;
	if (!ready_is(st, status, r)) {
		out->event = true;
		out->event_warning = strcmp(status, "True") != 0;
		out->event_reason = r;
		snprintf(out->event_note, sizeof(out->event_note), "%s", msg);
	}
	st->observed_generation = ss->generation;
	out->deferred = true;
	out->requeue_ms = interval;
}

void eb_gate_error_budget(const struct ssc_env *env, struct ssc_clock *clk, const struct obj *ss,
			  const struct sst_spec *spec, struct sst_status *st, const struct ssc_resolved *resolved,
			  size_t n, bool override, int64_t retry_ms, struct eb_gate *out)
{
	const struct sst_error_budget *eb = spec->has_error_budget ? &spec->error_budget : NULL;
	bool new_revision = false;
	int64_t interval;
	struct eb_verdict v;
	char msg[EB_MSGLEN];

	memset(out, 0, sizeof(*out));
	if (!eb || override) {
		clear_budget_freeze(st);
		return;
	}

	/* Only a new revision is gated; a steady pass (drift correction) flows. */
	for (size_t i = 0; i < n; i++) {
		const char *applied = sst_strmap_get(&st->last_applied_revisions, resolved[i].key);

		if (strcmp(or_empty(applied), or_empty(resolved[i].revision)) != 0) {
			new_revision = true;
			break;
		}
	}
	if (!new_revision) {
		clear_budget_freeze(st);
		return;
	}

	interval = eb_budget_interval(eb, retry_ms);
	eb_evaluate_budget(env, clk, eb, st->budget_freeze, &v);
	if (v.spec_err) {
		/* A malformed threshold normally fails admission; this is the fallback. */
		out->set_ready = true;
		out->ready_status = "False";
		out->ready_reason = REASON_INVALID_SPEC;
		snprintf(out->ready_message, sizeof(out->ready_message), "spec.errorBudget: %s", v.spec_msg);
		st->observed_generation = ss->generation;
		out->deferred = true;
		out->requeue_ms = PERMANENT_RETRY_MS;
	} else if (v.source_err) {
		out->source_error = true;
		if (strcmp(or_empty(eb->on_source_error), "Hold") == 0) {
			snprintf(msg, sizeof(msg), "error-budget source unavailable and onSourceError=Hold: %s",
				 v.source.msg);
			defer_budget(ss, st, REASON_BUDGET_SOURCE_UNAVAILABLE, msg, interval, out);
		} else {
			/* Allow (default): proceed; only an event, deduplicated against Ready's reason. */
			if (!ready_is(st, NULL, REASON_BUDGET_SOURCE_UNAVAILABLE)) {
				out->event = true;
				out->event_warning = true;
				out->event_reason = REASON_BUDGET_SOURCE_UNAVAILABLE;
				snprintf(out->event_note, sizeof(out->event_note),
					 "error-budget source unavailable; proceeding (onSourceError=Allow): %s",
					 v.source.msg);
			}
			clear_budget_freeze(st);
		}
	} else if (!v.frozen) {
		clear_budget_freeze(st);
	} else {
		clear_budget_freeze(st);
		st->budget_freeze = v.freeze;
		v.freeze = NULL;
		if (eb->dry_run) {
			if (!ready_is(st, NULL, REASON_BUDGET_EXHAUSTED)) {
				out->event = true;
				out->event_warning = false;
				out->event_reason = REASON_BUDGET_EXHAUSTED;
				snprintf(out->event_note, sizeof(out->event_note),
					 "error-budget freeze would activate (dryRun): remaining %s < freezeThreshold %s",
					 st->budget_freeze->remaining, or_empty(eb->freeze_threshold));
			}
		} else {
			snprintf(msg, sizeof(msg),
				 "error budget exhausted: remaining %s < freezeThreshold %s; new-revision rollouts are "
				 "frozen until it recovers to %s",
				 st->budget_freeze->remaining, or_empty(eb->freeze_threshold), eb_effective_resume(eb));
			defer_budget(ss, st, REASON_BUDGET_EXHAUSTED, msg, interval, out);
		}
	}
	eb_verdict_release(&v);
}

/* ---- gateStageBudget ----------------------------------------------------- */

void eb_gate_stage_budget(const struct ssc_env *env, struct ssc_clock *clk, const struct sst_stage *stage,
			  const struct sst_stage_status *prior, int64_t retry_ms, struct eb_stage_gate *out)
{
	const struct sst_error_budget *eb = &stage->error_budget;
	int64_t interval = eb_budget_interval(eb, retry_ms);
	struct eb_verdict v;
	char *qname;

	memset(out, 0, sizeof(*out));
	eb_evaluate_budget(env, clk, eb, prior ? prior->budget_freeze : NULL, &v);
	if (v.spec_err) {
		out->spec_err = true;
		snprintf(out->spec_msg, sizeof(out->spec_msg), "%s", v.spec_msg);
		goto out_release;
	}
	qname = gofmt_quote(or_empty(stage->name));
	if (v.source_err) {
		if (strcmp(or_empty(eb->on_source_error), "Hold") == 0) {
			out->hold = true;
			out->reason = REASON_BUDGET_SOURCE_UNAVAILABLE;
			snprintf(out->msg, sizeof(out->msg),
				 "stage %s error-budget source unavailable and onSourceError=Hold: %s", qname,
				 v.source.msg);
			out->requeue_ms = interval;
		} else {
			/* Allow: proceed (the stage's frozen gauge drops to 0 upstream). */
			out->source_err = true;
			snprintf(out->source_msg, sizeof(out->source_msg), "%s", v.source.msg);
		}
	} else if (!v.frozen) {
		/* nothing to hold or record */
	} else if (eb->dry_run) {
		/* Record what would freeze; do not hold. */
		out->freeze = v.freeze;
		v.freeze = NULL;
	} else {
		out->hold = true;
		out->reason = REASON_BUDGET_EXHAUSTED;
		snprintf(out->msg, sizeof(out->msg),
			 "stage %s error budget exhausted: remaining %s < freezeThreshold %s; the new revision is held "
			 "from entering this stage until it recovers to %s",
			 qname, v.freeze->remaining, or_empty(eb->freeze_threshold), eb_effective_resume(eb));
		out->requeue_ms = interval;
		out->freeze = v.freeze;
		v.freeze = NULL;
	}
	free(qname);
out_release:
	eb_verdict_release(&v);
}

void eb_stage_gate_release(struct eb_stage_gate *g)
{
	if (!g)
		return;
	sst_budget_freeze_free(g->freeze);
	g->freeze = NULL;
}
