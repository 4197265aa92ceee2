/*
 * The change-review table (terminal and Markdown).  Durations use the short
 * forms of the trials tables (rep_plan_duration()), so a reader sees the same
 * figures in `run -n` and `compare`.
 */
#include "reports/compare_text.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/ghsummary.h"
#include "reports/tool.h"

#include "reports/plan_text.h"

/* Short table labels, by metric; "ttc" is explained under the table. */
static const char *const short_label[CMP_NMETRICS] = {
	[CMP_TTC_P50] = "ttc p50",
	[CMP_TTC_P90] = "ttc p90",
	[CMP_TTC_P95] = "ttc p95",
	[CMP_TTC_P99] = "ttc p99",
	[CMP_TTC_MEAN] = "ttc mean",
	[CMP_COMPLETE] = "P(complete)",
	[CMP_HALT] = "P(halt)",
	[CMP_BLAST] = "blast radius (mean)",
};

size_t rep_cmp_failed(const struct rep_cmp *c)
{
	size_t k = 0;

	for (size_t i = 0; i < c->nlimits; i++)
		k += cmp_limit_failed(c->r, &c->limits[i]);
	return k;
}

void rep_cmp_value(const struct cmp_metric *m, double v, bool censored, bool sign,
		   int64_t horizon_ms, char *buf, size_t len)
{
	char d[24];
	const char *plus = sign && v > 0 ? "+" : "";

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (m->unit) {
	case CMP_UNIT_MS:
		if (censored) {
			rep_plan_duration(horizon_ms, d, sizeof(d));
			snprintf(buf, len, "> %s", d);
		} else {
			rep_plan_duration((int64_t)llround(v), d, sizeof(d));
			snprintf(buf, len, "%s%s", plus, d);
		}
		return;
	case CMP_UNIT_RATIO:
		snprintf(buf, len, sign ? "%s%.1fpp" : "%s%.1f%%", plus, 100 * v);
		return;
	case CMP_UNIT_COUNT:
		snprintf(buf, len, "%s%.2f", plus, v);
		return;
	}
}

/*
 * The delta cell: a censored side stands at the horizon, so the delta is a
 * bound (">+38m39s" when only the head is censored, "<" when only the base
 * is) and unknown when both are.
 */
static void delta_cell(const struct cmp_result *r, const struct cmp_metric *m, char *buf,
		       size_t len)
{
	char d[24];

	if (m->base_censored && m->head_censored) {
		snprintf(buf, len, "?");
		return;
	}
	rep_cmp_value(m, m->delta, false, true, r->horizon_ms, d, sizeof(d));
	snprintf(buf, len, "%s%s", m->head_censored ? ">" : m->base_censored ? "<" : "", d);
}

/* The relative change for the % column: blank for ratios (their delta is in pp). */
static void pct_cell(const struct cmp_metric *m, char *buf, size_t len)
{
	if (m->unit == CMP_UNIT_RATIO || isnan(m->delta_pct))
		snprintf(buf, len, "%s", m->unit == CMP_UNIT_RATIO ? "" : "-");
	else if (m->base_censored && m->head_censored)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s%s%.1f%%",
			 m->head_censored ? ">" : m->base_censored ? "<" : "",
			 m->delta_pct > 0 ? "+" : "", m->delta_pct);
}

/* The evidence cell: the interval of the difference, or the p-value. */
static void evidence_cell(const struct cmp_result *r, const struct cmp_metric *m, char *buf,
			  size_t len)
{
	char lo[24], hi[24];

	if (m->method == CMP_BOOTSTRAP || (m->method == CMP_PAIRED_T && m->unit == CMP_UNIT_MS)) {
		if (isnan(m->lo)) {
			snprintf(buf, len, "-");
			return;
		}
		rep_cmp_value(m, m->lo, false, true, r->horizon_ms, lo, sizeof(lo));
		rep_cmp_value(m, m->hi, false, true, r->horizon_ms, hi, sizeof(hi));
		snprintf(buf, len, "%s..%s", lo, hi);
		return;
	}
	if (isnan(m->p_value))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "p=%.3g", m->p_value);
}

/* The limit's value: "10%", "5m00s", "5.0pp" (a probability, in the change's unit), "2". */
static void limit_value(const struct cmp_result *r, const struct cmp_limit *l, char *buf,
			size_t len)
{
	if (l->pct)
		snprintf(buf, len, "%g%%", l->value);
	else if (r->m[l->metric].unit == CMP_UNIT_MS)
		rep_plan_duration((int64_t)llround(l->value), buf, len);
	else if (r->m[l->metric].unit == CMP_UNIT_RATIO) /* in pp, as the change is */
		snprintf(buf, len, "%.1fpp", 100 * l->value);
	else
		snprintf(buf, len, "%g", l->value);
}

/* How much worse the head is, in the limit's terms ("+12.9%", "+3m00s", "+0.02"). */
static void worse_by(const struct cmp_result *r, const struct cmp_limit *l, char *buf, size_t len)
{
	const struct cmp_metric *m = &r->m[l->metric];
	double by = m->higher_is_worse ? m->delta : -m->delta;

	if (l->pct && !isnan(m->delta_pct))
		snprintf(buf, len, "%s%.1f%%", m->delta_pct > 0 ? "+" : "", m->delta_pct);
	else if (l->pct)
		snprintf(buf, len, "%s", by > 0 ? "+inf%" : "+0.0%");
	else if (m->unit == CMP_UNIT_MS) {
		char d[24];

		rep_plan_duration((int64_t)llround(m->delta), d, sizeof(d));
		snprintf(buf, len, "%s%s", m->delta > 0 ? "+" : "", d);
	} else if (m->unit == CMP_UNIT_RATIO)
		snprintf(buf, len, "%+.1fpp", 100 * m->delta);
	else
		snprintf(buf, len, "%+.2f", m->delta);
}

static void methods(FILE *f, const struct cmp_result *r, const char *pre)
{
	fprintf(f,
		"%sttc = time to complete.  Trials are paired on common random numbers (trial i\n"
		"%sof base and head has the same seed).  Percentiles: 95%% interval of head - base\n"
		"%sfrom %u paired bootstrap resamples (PCG32, seed %" PRIu64 "); a censored trial\n"
		"%scounts as the horizon.  Mean: paired t-test over the %zu trials completed in\n"
		"%sboth.  Probabilities: exact McNemar test.  Blast radius: paired t-test.\n"
		"%sSignificant: the interval excludes 0, or p < 0.05.\n",
		pre, pre, pre, r->resamples, r->seed, pre, r->m[CMP_TTC_MEAN].npairs, pre, pre);
	if (r->m[CMP_TTC_P50].npairs < 2)
		fprintf(f, "%sOne pair of trials has no spread: nothing can be significant (-n 30 or more).\n",
			pre);
}

int rep_cmp_text(FILE *f, const struct rep_cmp *c, bool color)
{
	const struct cmp_result *r = c->r;
	const char *b = color ? "\033[1m" : "", *red = color ? "\033[1;31m" : "",
		   *off = color ? "\033[0m" : "";
	char hz[24];

	errno = 0;
	rep_plan_duration(c->resumed_ms + r->horizon_ms, hz, sizeof(hz));
	fprintf(f, "%sCompare: base '%s' vs head '%s'%s\n", b, c->base_name, c->head_name, off);
	fprintf(f, "%zu trial%s each on common random numbers, seed %" PRIu64 ", horizon %s",
		r->n, r->n == 1 ? "" : "s", r->seed, hz);
	if (c->resumed_ms > 0) {
		char left[24];

		/* the horizon as written, on the original run's clock, and what is left of it */
		rep_plan_duration(r->horizon_ms, left, sizeof(left));
		fprintf(f, " (%s left;\ntimes counted from the snapshot)", left);
	}
	fputs("\n\n", f);
	fprintf(f, "%s%-19s %8s %8s %9s %8s  %-3s  %s%s\n", b, "metric", "base", "head", "delta", "%",
		"sig", "95% CI / p", off);
	for (int k = 0; k < CMP_NMETRICS; k++) {
		const struct cmp_metric *m = &r->m[k];
		char vb[24], vh[24], vd[32], vp[24], ev[56];

		rep_cmp_value(m, m->base, m->base_censored, false, r->horizon_ms, vb, sizeof(vb));
		rep_cmp_value(m, m->head, m->head_censored, false, r->horizon_ms, vh, sizeof(vh));
		delta_cell(r, m, vd, sizeof(vd));
		pct_cell(m, vp, sizeof(vp));
		evidence_cell(r, m, ev, sizeof(ev));
		fprintf(f, "%-19s %8s %8s %9s %8s  %-3s  %s\n", short_label[k], vb, vh, vd, vp,
			m->significant ? "yes" : "no", ev);
	}
	fputc('\n', f);
	for (int s = 0; s < 2; s++)
		if (r->nbound[s])
			fprintf(f, "note: %s: %zu trials stopped by a bound (a zero-delay loop or the\n"
				   "event budget), counted as not completed\n\n",
				s ? "head" : "base", r->nbound[s]);
	methods(f, r, "");
	if (c->nlimits)
		fputc('\n', f);
	for (size_t i = 0; i < c->nlimits; i++) {
		const struct cmp_limit *l = &c->limits[i];
		const struct cmp_metric *m = &r->m[l->metric];
		char lv[24], by[32];

		limit_value(r, l, lv, sizeof(lv));
		worse_by(r, l, by, sizeof(by));
		if (cmp_limit_failed(r, l))
			fprintf(f, "max-regression %s: %sFAILED%s: head worse by %s (limit %s), significant\n",
				l->text, red, off, by, lv);
		else
			fprintf(f, "max-regression %s: ok (%s, limit %s, %s)\n", l->text, by, lv,
				m->significant ? "significant" : "not significant");
	}
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

int rep_cmp_markdown(FILE *f, const struct rep_cmp *c)
{
	const struct cmp_result *r = c->r;
	size_t nfailed = rep_cmp_failed(c);
	char hz[24];

	errno = 0;
	rep_plan_duration(r->horizon_ms, hz, sizeof(hz));
	{
		char *b = ghs_code(c->base_name), *h = ghs_code(c->head_name);

		fprintf(f, "### magos-sim compare: %s → %s\n\n", b, h);
		free(b);
		free(h);
	}
	if (c->nlimits)
		fprintf(f, "%s\n\n",
			nfailed ? "**Regression: the head breaks a limit.**" : "No limit broken.");
	fprintf(f, "%zu trial%s each on common random numbers (seed %" PRIu64 ", horizon %s).\n\n",
		r->n, r->n == 1 ? "" : "s", r->seed, hz);
	fputs("| metric | base | head | delta | % | significant | 95% CI / p |\n"
	      "|---|---:|---:|---:|---:|:---:|---|\n",
	      f);
	for (int k = 0; k < CMP_NMETRICS; k++) {
		const struct cmp_metric *m = &r->m[k];
		char vb[24], vh[24], vd[32], vp[24], ev[56];

		rep_cmp_value(m, m->base, m->base_censored, false, r->horizon_ms, vb, sizeof(vb));
		rep_cmp_value(m, m->head, m->head_censored, false, r->horizon_ms, vh, sizeof(vh));
		delta_cell(r, m, vd, sizeof(vd));
		pct_cell(m, vp, sizeof(vp));
		evidence_cell(r, m, ev, sizeof(ev));
		fprintf(f, "| %s | %s | %s | %s%s%s | %s | %s | %s |\n", m->label, vb, vh,
			m->worse ? "**" : "", vd, m->worse ? "**" : "", vp,
			m->significant ? "yes" : "no", ev);
	}
	fputc('\n', f);
	for (int s = 0; s < 2; s++)
		if (r->nbound[s])
			fprintf(f, "> %s: %zu trials stopped by a bound (a zero-delay loop or the event "
				   "budget), counted as not completed\n\n",
				s ? "head" : "base", r->nbound[s]);
	for (size_t i = 0; i < c->nlimits; i++) {
		const struct cmp_limit *l = &c->limits[i];
		char lv[24], by[32];

		limit_value(r, l, lv, sizeof(lv));
		worse_by(r, l, by, sizeof(by));
		char *opt = xstrjoin((const char *const[]){ "--max-regression ", l->text }, 2, "");
		char *code = ghs_code(opt);

		fprintf(f, "- %s: %s (%s, limit %s)\n", code,
			cmp_limit_failed(r, l) ? "**failed**" : "ok", by, lv);
		free(code);
		free(opt);
	}
	if (c->nlimits)
		fputc('\n', f);
	fputs("<details><summary>Method</summary>\n\n", f);
	methods(f, r, "");
	fputs("\n</details>\n", f);
	fprintf(f, "\n<sub>%s %s, commit %s</sub>\n", tool_name(), tool_version(), tool_commit());
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
