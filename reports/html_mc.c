/*
 * The HTML pages of Monte Carlo runs and comparisons (reports/html_mc.h).
 * Everything here is a pure function of the rows and statistics handed in;
 * numbers go through svg_fmt_num() / rep_plan_duration(), so the bytes do
 * not depend on the locale or on the order the trials finished in.
 */
#include "reports/html_mc.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/compare_text.h"
#include "reports/html.h"
#include "reports/plan_text.h"
#include "reports/svg.h"

/* Page geometry, px. */
#define W 960
/* Bins a histogram has at least (see histogram()). */
#define HIST_MIN_BINS 5
#define LEFT 70
#define RIGHT 24
#define ZONE 96       /* the "> horizon" zone right of a CDF's time axis */
#define PLOT_H 260
#define BAR_ROW 22    /* one halt bar or box plot row */
#define ROW_LABEL 300 /* labels left of bars and boxes */
#define MAX_ROWS 40   /* bars / boxes drawn at most (the page says how many more) */
#define NAME_MAX 48   /* characters of a name shown in a chart (the full name in the tip) */

/* Series colours (Okabe–Ito, readable by colour-blind readers) and dash patterns (print). */
static const char mc_css[] =
	".chart polyline{fill:none}.cdf-line{stroke-width:2}\n"
	".s0{stroke:#0072b2;fill:#0072b2}.s1{stroke:#d55e00;fill:#d55e00;stroke-dasharray:8 3}\n"
	".s2{stroke:#009e73;fill:#009e73;stroke-dasharray:2 2}"
	".s3{stroke:#cc79a7;fill:#cc79a7;stroke-dasharray:9 3 2 3}\n"
	".s4{stroke:#e69f00;fill:#e69f00;stroke-dasharray:4 4}"
	".s5{stroke:#56b4e9;fill:#56b4e9;stroke-dasharray:1 3}\n"
	".s6{stroke:var(--fg);fill:var(--fg);stroke-dasharray:12 4}"
	".s7{stroke:#999999;fill:#999999;stroke-dasharray:6 2 1 2}\n"
	"@media (prefers-color-scheme:dark){.s0{stroke:#4da3e0;fill:#4da3e0}}\n"
	"@media print{.s0{stroke:#0072b2;fill:#0072b2}}\n"
	".chart .cens-zone{fill:var(--panel);stroke:var(--grid);stroke-dasharray:3 3}\n"
	".chart .cens{fill:none;stroke-width:2;opacity:.8}\n"
	".chart .cens-dot{stroke:none}\n"
	".chart .hbar{fill:var(--halt);opacity:.75}.chart .ci{stroke:var(--fg);stroke-width:1.5}\n"
	".chart .hbin{fill:var(--applying);opacity:.8}.chart .hbin:hover{opacity:1}\n"
	".chart .box{fill:var(--applying);fill-opacity:.35;stroke:var(--applying);stroke-width:1.5}\n"
	".chart .box.s0{stroke-dasharray:none}\n"
	".chart .med{stroke:var(--fg);stroke-width:2}.chart .whisk{stroke:var(--muted);stroke-width:1.5}\n"
	".chart .sw-band{fill:var(--series);opacity:.18}.chart .sw-dot{fill:var(--series)}\n"
	".chart .hz{stroke:var(--halt);stroke-width:1;stroke-dasharray:4 3}\n"
	".chart .key{fill:none;stroke-width:2.5}\n"
	"table.stats{border-collapse:collapse;font-size:12.5px;margin:6px 0}\n"
	"table.stats th,table.stats td{border-bottom:1px solid var(--grid);padding:3px 8px;"
	"text-align:right;white-space:nowrap}\n"
	"table.stats th:first-child,table.stats td:first-child{text-align:left;white-space:normal;"
	"min-width:12em}\n"
	".wide{overflow-x:auto}\n"
	"table.stats td.cens{color:var(--unknown);font-weight:600}\n"
	"table.stats tr.worse td{background:color-mix(in srgb,var(--fail) 14%,transparent)}\n"
	"table.stats small{display:block;color:var(--muted)}\n"
	"p.note{color:var(--muted);font-size:12.5px;margin:4px 0}\n";

struct page {
	FILE *f;
	int64_t horizon_ms;
	unsigned nsvg; /* ids of the charts, in page order */
};

/* ---- numbers ------------------------------------------------------------ */

void rep_mc_wilson(size_t k, size_t n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	double p, d, c, h;

	if (!n) {
		*lo = 0;
		*hi = 1;
		return;
	}
	p = (double)k / (double)n;
	d = 1 + z * z / (double)n;
	c = (p + z * z / (2.0 * (double)n)) / d;
	h = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / d;
	*lo = c - h < 0 ? 0 : c - h;
	*hi = c + h > 1 ? 1 : c + h;
	/* No rounding dust at the ends: 0 of n has a lower bound of exactly 0. */
	if (k == 0)
		*lo = 0;
	if (k == n)
		*hi = 1;
}

double rep_mc_quantile(const double *v, size_t n, double q)
{
	double h;
	size_t i;

	if (!n)
		return 0;
	h = (double)(n - 1) * q;
	i = (size_t)floor(h);
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The trials that have a time to complete or are censored: all but those
 * that completed with no time (already complete at the start, or nothing to
 * complete), which the chart leaves out as the statistics do.
 */
static size_t timed_trials(const struct rep_mc_set *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++)
		k += !(s->rows[i].completed && s->rows[i].ttc_ms < 0);
	return k;
}

/* The completed trials' times to complete, ascending (new array, *n of them). */
static double *ttc_values(const struct rep_mc_set *s, size_t *n)
{
	double *v = xcalloc(s->n ? s->n : 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->rows[i].completed && s->rows[i].ttc_ms >= 0)
			v[k++] = (double)s->rows[i].ttc_ms;
	qsort(v, k, sizeof(*v), cmp_double);
	*n = k;
	return v;
}

static char *dur(int64_t ms, char *buf)
{
	rep_plan_duration(ms, buf, SVG_NUM_BUFSZ);
	return buf;
}

static char *pctx(double ratio, char *buf)
{
	svg_fmt_num(ratio * 100, 1, buf, SVG_NUM_BUFSZ);
	strcat(buf, "%");
	return buf;
}

/* ---- small chart parts ---------------------------------------------------- */

static void chart_open(struct page *p, const char *kind, int h, const char *title,
		       const char *desc)
{
	char id[48];

	snprintf(id, sizeof(id), "%s-%u", kind, p->nsvg++);
	fputs("<figure>\n", p->f);
	svg_open(p->f, id, W, h, title, desc);
}

static void chart_close(struct page *p)
{
	svg_close(p->f);
	fputs("</figure>\n", p->f);
}

/* A vertical time axis left of @fr over [0, @hi] ms. */
static void axis_time_y(FILE *f, const struct svg_frame *fr, int64_t hi, const char *label)
{
	int64_t t[64];
	size_t n = svg_ticks_time(0, hi, (size_t)((fr->y1 - fr->y0) / 36) + 1, t, 64, NULL);
	struct svg_scale y = { 0, (double)hi, fr->y1, fr->y0 };
	char b[SVG_NUM_BUFSZ];

	fputs("<g class=\"axis\">\n", f);
	for (size_t i = 0; i < n; i++) {
		double py;

		if (t[i] > hi)
			continue;
		py = svg_map(&y, (double)t[i]);
		svg_line(f, fr->x0, py, fr->x1, py, "grid", NULL);
		svg_text(f, fr->x0 - 6, py + 4, "end", "lbl", svg_fmt_duration(t[i], b, sizeof(b)), 0);
	}
	svg_line(f, fr->x0, fr->y0, fr->x0, fr->y1, "tick", NULL);
	if (label)
		svg_text(f, fr->x0, fr->y0 - 10, "start", "cap", label, 0);
	fputs("</g>\n", f);
}

/* A horizontal value axis under @fr over [0, @hi]: numbers, or percentages of a ratio. */
static void axis_num_x(FILE *f, const struct svg_frame *fr, double hi, bool pct, const char *label)
{
	double t[64];
	size_t n = svg_ticks_num(0, hi, (size_t)((fr->x1 - fr->x0) / 70) + 1, t, 64, NULL);
	struct svg_scale x = { 0, hi, fr->x0, fr->x1 };
	char b[SVG_NUM_BUFSZ];

	fputs("<g class=\"axis\">\n", f);
	for (size_t i = 0; i < n; i++) {
		double px;

		if (t[i] > hi * (1 + 1e-9))
			continue;
		px = svg_map(&x, t[i]);
		svg_line(f, px, fr->y0, px, fr->y1, "grid", NULL);
		if (pct)
			pctx(t[i], b);
		else
			svg_fmt_num(t[i], 2, b, sizeof(b));
		svg_text(f, px, fr->y1 + 15, "middle", "lbl", b, 0);
	}
	svg_line(f, fr->x0, fr->y1, fr->x1, fr->y1, "tick", NULL);
	if (label)
		svg_text(f, fr->x1, fr->y1 + 30, "end", "cap", label, 0);
	fputs("</g>\n", f);
}

/* Legend of line series: a short stroke of class "key sI" and the name; returns the last baseline. */
static double line_legend(FILE *f, double y, const struct rep_mc_set *const *sets, size_t n)
{
	double x = LEFT;
	char cls[32];

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(sets[i]->name ? sets[i]->name : "");
		double w = 40 + 7.0 * (double)(len > NAME_MAX ? NAME_MAX : len) + 20;

		if (x > LEFT && x + w > W - RIGHT) {
			x = LEFT;
			y += 18;
		}
		snprintf(cls, sizeof(cls), "key s%zu", i);
		svg_line(f, x, y - 4, x + 32, y - 4, cls, NULL);
		svg_text(f, x + 38, y, "start", NULL, sets[i]->name, NAME_MAX);
		x += w;
	}
	return y;
}

/* ---- the CDF of time to complete ----------------------------------------- */

static void cdf_chart(struct page *p, const struct rep_mc_set *const *sets, size_t n,
		      const char *title)
{
	FILE *f = p->f;
	double *v[REP_MC_MAX_CURVES];
	size_t nv[REP_MC_MAX_CURVES], tn[REP_MC_MAX_CURVES];
	double xmin = 0, xmax = 0, vmin = INFINITY, xs[600], ys[600];
	bool anycens = false, anydone = false, anytimed = false;
	struct svg_frame fr;
	struct svg_scale sx, sy;
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], tip[512], cls[48];
	int h;

	if (n > REP_MC_MAX_CURVES)
		n = REP_MC_MAX_CURVES;
	for (size_t i = 0; i < n; i++) {
		v[i] = ttc_values(sets[i], &nv[i]);
		tn[i] = timed_trials(sets[i]);
		anytimed |= tn[i] > 0;
		if (nv[i] && v[i][nv[i] - 1] > xmax)
			xmax = v[i][nv[i] - 1];
		if (nv[i] && v[i][0] < vmin)
			vmin = v[i][0];
		if (nv[i] < tn[i])
			anycens = true;
		if (nv[i])
			anydone = true;
	}
	if (xmax <= 0)
		xmax = p->horizon_ms > 0 ? (double)p->horizon_ms : 1000;
	/*
	 * The axis starts at the round tick below the fastest trial, not at 0:
	 * from 0, trials that all take about an hour drew their curves in the
	 * right fifth of the chart.  The step is the one the axis would have
	 * over the trials' own range.
	 */
	if (vmin == xmax && vmin > 0) {
		/* Every trial took the same time: the step, centred. */
		int64_t t[64], step = 0;

		svg_ticks_time(0, (int64_t)llround(xmax), 8, t, 64, &step);
		xmin = vmin - 2.0 * (double)step > 0 ? vmin - 2.0 * (double)step : 0;
		xmax = vmin + 2.0 * (double)step;
	} else if (vmin < xmax && vmin > 0) {
		int64_t t[64], step = 0;

		svg_ticks_time((int64_t)vmin, (int64_t)llround(xmax), 8, t, 64, &step);
		if (step > 0) {
			xmin = (double)(((int64_t)vmin / step) * step);
			if (xmin >= vmin)
				xmin -= (double)step;
			if (xmin < 0)
				xmin = 0;
		}
	}
	fr = (struct svg_frame){ LEFT, W - RIGHT - (anycens ? ZONE : 0), 24, 24 + PLOT_H };
	h = (int)fr.y1 + 48 + 18 * (int)((n + 3) / 4);
	chart_open(p, "cdf", h, title,
		   "Share of trials completed by each time; a curve reaching 1 only in the "
		   "\"> horizon\" zone has censored trials (not completed by the horizon).");
	sx = (struct svg_scale){ xmin, xmax, fr.x0, fr.x1 };
	sy = (struct svg_scale){ 0, 1, fr.y1, fr.y0 };
	svg_axis_num(f, &fr, 0, 1, "share of trials completed", false);
	svg_axis_time(f, &fr, (int64_t)xmin, (int64_t)llround(xmax), "time to complete");
	if (anycens) {
		snprintf(tip, sizeof(tip), "trials not completed by the horizon (%s)",
			 dur(p->horizon_ms, a));
		svg_rect(f, fr.x1 + 8, fr.y0, ZONE - 8, fr.y1 - fr.y0, "cens-zone", tip);
		svg_text(f, fr.x1 + 8 + (ZONE - 8) / 2.0, fr.y1 + 15, "middle", "lbl", "> horizon", 0);
		svg_text(f, fr.x1 + 8 + (ZONE - 8) / 2.0, fr.y1 + 29, "middle", "cap",
			 dur(p->horizon_ms, a), 0);
	}
	for (size_t i = 0; i < n; i++) {
		const struct rep_mc_set *s = sets[i];
		size_t k, cens = tn[i] - nv[i];

		if (!tn[i])
			continue; /* every trial complete with no time: no curve */
		k = svg_step_cdf(v[i], nv[i], tn[i], &sx, &sy, 2, xs, ys, 600);
		snprintf(tip, sizeof(tip), "%s: %zu trials, %zu completed, %zu censored%s; p50 %s",
			 s->name ? s->name : "", tn[i], nv[i], cens,
			 tn[i] < s->n ? " (those with no time to complete left out)" : "",
			 nv[i] * 2 > tn[i] ? dur((int64_t)llround(rep_mc_quantile(v[i], nv[i], 0.5)), b)
					   : "> horizon");
		fputs("<g class=\"cdf\"><title>", f);
		svg_escape(f, tip);
		fputs("</title>\n", f);
		snprintf(cls, sizeof(cls), "cdf-line s%zu", i);
		svg_polyline(f, xs, ys, k, cls);
		if (cens) {
			/* The censored trials complete (if ever) past the horizon: the jump to 1 is drawn there. */
			double y0 = svg_map(&sy, (double)nv[i] / (double)tn[i]);
			double xz = fr.x1 + 18 + 10.0 * (double)i;
			double px[4] = { fr.x1, xz, xz, W - RIGHT };
			double py[4] = { y0, y0, fr.y0, fr.y0 };

			snprintf(cls, sizeof(cls), "cens s%zu", i);
			svg_polyline(f, px, py, 4, cls);
			snprintf(cls, sizeof(cls), "cens-dot s%zu", i);
			snprintf(tip, sizeof(tip), "%s: %zu of %zu trials (%s) not completed by %s",
				 s->name ? s->name : "", cens, tn[i],
				 pctx((double)cens / (double)tn[i], a), dur(p->horizon_ms, b));
			svg_circle(f, xz, y0, 3.5, cls, tip);
			if (n == 1) {
				/* Says what the jump is: the share still running at the horizon. */
				snprintf(tip, sizeof(tip), "%s censored",
					 pctx((double)cens / (double)tn[i], a));
				svg_text(f, xz + 6, y0 + (y0 - fr.y0 < 30 ? 14 : -6), "start", "lbl",
					 tip, 0);
			}
		}
		fputs("</g>\n", f);
	}
	if (!anytimed)
		svg_text(f, (fr.x0 + fr.x1) / 2, (fr.y0 + fr.y1) / 2, "middle", "lbl",
			 "no time to complete: every trial was complete when it started", 0);
	else if (!anydone)
		svg_text(f, (fr.x0 + fr.x1) / 2, (fr.y0 + fr.y1) / 2, "middle", "lbl",
			 "no trial completed by the horizon", 0);
	line_legend(f, fr.y1 + 50, sets, n);
	chart_close(p);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

/* ---- the statistics table ------------------------------------------------- */

enum kind { K_MS, K_COUNT, K_SHARE, K_MEMBER_MS };

static void cell(FILE *f, enum kind k, double v, bool censored, int64_t horizon_ms)
{
	char b[SVG_NUM_BUFSZ];

	if (censored) {
		fprintf(f, "<td class=\"cens\">&gt; %s</td>", dur(horizon_ms, b));
		return;
	}
	switch (k) {
	case K_MS:
		dur((int64_t)llround(v), b);
		break;
	case K_COUNT:
		svg_fmt_num(v, 1, b, sizeof(b));
		break;
	case K_SHARE:
		pctx(v, b);
		break;
	case K_MEMBER_MS:
		svg_fmt_num(v / 60000.0, 1, b, sizeof(b));
		break;
	}
	fprintf(f, "<td>%s</td>", b);
}

/* The 95 % interval of a mean, "lo – hi" in one cell. */
static void ci_cell(FILE *f, enum kind k, double lo, double hi)
{
	fputs("<td>", f);
	for (int i = 0; i < 2; i++) {
		char b[SVG_NUM_BUFSZ + 16];
		double v = i ? hi : lo;

		if (k == K_MS)
			dur((int64_t)llround(v), b);
		else if (k == K_SHARE)
			pctx(v, b);
		else if (k == K_MEMBER_MS)
			svg_fmt_num(v / 60000.0, 1, b, SVG_NUM_BUFSZ);
		else
			svg_fmt_num(v, 1, b, SVG_NUM_BUFSZ);
		fprintf(f, "%s%s", i ? " – " : "", b);
	}
	fputs("</td>", f);
}

static void dist_row(struct page *p, const char *label, const char *note,
		     const struct plan_dist *d, enum kind k)
{
	FILE *f = p->f;

	fputs("<tr><td>", f);
	svg_escape(f, label);
	if (note) {
		fputs("<small>", f);
		svg_escape(f, note);
		fputs("</small>", f);
	}
	fprintf(f, "</td><td>%zu</td><td>%zu</td>", d->n, d->ncensored);
	if (!d->n) {
		fputs("<td colspan=\"8\">no trial had a value</td></tr>\n", f);
		return;
	}
	for (int i = 0; i < PLAN_NPCT; i++)
		cell(f, k, d->p[i], d->p_censored[i], p->horizon_ms);
	if (d->n > d->ncensored) {
		cell(f, k, d->mean, false, 0);
		ci_cell(f, k, d->ci95_lo, d->ci95_hi);
		cell(f, k, d->min, false, 0);
		cell(f, k, d->max, false, 0);
	} else {
		fputs("<td colspan=\"4\">every value censored</td>", f);
	}
	fputs("</tr>\n", f);
}

static void prop_row(FILE *f, const char *label, const struct plan_prop *pr)
{
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ];

	fprintf(f, "<tr><td>%s</td><td>%zu of %zu</td><td>%s</td><td>%s – %s</td></tr>\n", label,
		pr->k, pr->n, pctx(pr->p, a), pctx(pr->lo, b), pctx(pr->hi, c));
}

static void stats_section(struct page *p, const struct plan_stats *st)
{
	FILE *f = p->f;

	fputs("<section tabindex=\"0\" id=\"mc-stats\"><h2>Statistics</h2>\n", f);
	fputs("<table class=\"stats\"><thead><tr><th>outcome</th><th>trials</th><th>share</th>"
	      "<th>Wilson 95 % interval</th></tr></thead><tbody>\n",
	      f);
	prop_row(f, "completed", &st->complete);
	prop_row(f, "halted", &st->halt);
	fputs("</tbody></table>\n", f);
	if (st->nbound)
		fprintf(f, "<p class=\"note\">%zu trials stopped by the loop or event budget bound "
			   "(counted as not completed; the terminal report names them).</p>\n",
			st->nbound);
	if (st->nalready)
		fprintf(f, "<p class=\"note\">%zu of %zu trials already complete: every "
			   "Rollout/FleetRollout was complete when the run started (a snapshot of a "
			   "finished rollout); counted as completed, with no time to complete, and "
			   "left out of the time to complete and the step and wave durations.</p>\n",
			st->nalready, st->ntrials);
	if (st->nnothing)
		fprintf(f, "<p class=\"note\">%zu of %zu trials with nothing to complete (Rollouts "
			   "without steps, Ready/NoSteps): counted as completed, with no time to "
			   "complete, and left out of the time to complete.</p>\n",
			st->nnothing, st->ntrials);
	fputs("<div class=\"wide\" tabindex=\"0\"><table class=\"stats\"><thead><tr><th>quantity</th><th>trials</th><th>censored</th>"
	      "<th>p50</th><th>p90</th><th>p95</th><th>p99</th><th>mean</th><th>mean 95 % CI</th>"
	      "<th>min</th><th>max</th></tr></thead><tbody>\n",
	      f);
	dist_row(p, "time to complete",
		 st->nalready + st->nnothing ? "trials with no time to complete left out" : NULL,
		 &st->ttc, K_MS);
	dist_row(p, "blast radius", "targets; 0 without a halt", &st->blast_count, K_COUNT);
	dist_row(p, "blast radius", "share of the scope", &st->blast_share, K_SHARE);
	dist_row(p, "detection latency", "halting trials with a fault onset", &st->detection, K_MS);
	dist_row(p, "exposure", "member-minutes; 0 without a halt", &st->exposure, K_MEMBER_MS);
	dist_row(p, "peak running Jobs", NULL, &st->peak_jobs, K_COUNT);
	dist_row(p, "peak adopting members", NULL, &st->peak_adopting, K_COUNT);
	dist_row(p, "queueing delay", "per trial, all Jobs", &st->job_wait, K_MS);
	fputs("</tbody></table></div>\n</section>\n", f);
}

/* ---- halts ---------------------------------------------------------------- */

static void halts_section(struct page *p, const struct plan_stats *st)
{
	FILE *f = p->f;
	size_t n = st->nhalts > MAX_ROWS ? MAX_ROWS : st->nhalts;
	double hmax = 0, lo, hi;
	struct svg_frame fr;
	struct svg_scale sx;
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ], tip[800], lbl[512];

	fputs("<section tabindex=\"0\" id=\"halts\"><h2>Where halts happen <small>share of all trials, "
	      "Wilson 95 % interval</small></h2>\n",
	      f);
	if (!st->nhalts) {
		rep_mc_wilson(0, st->ntrials, &lo, &hi);
		fprintf(f, "<p>No trial halted (0 of %zu; the halt probability is at most %s at 95 %% "
			   "confidence).</p>\n</section>\n",
			st->ntrials, pctx(hi, a));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		rep_mc_wilson(st->halts[i].n, st->ntrials, &lo, &hi);
		if (hi > hmax)
			hmax = hi;
	}
	fr = (struct svg_frame){ ROW_LABEL, W - RIGHT - 150, 10, 10 + BAR_ROW * (double)n };
	chart_open(p, "halts", (int)fr.y1 + 40, "Halt probability by step or wave and reason",
		   "Bars: share of trials that halted there for that reason; lines: Wilson 95 % "
		   "intervals.");
	sx = (struct svg_scale){ 0, hmax, fr.x0, fr.x1 };
	axis_num_x(f, &fr, hmax, true, "share of trials");
	for (size_t i = 0; i < n; i++) {
		const struct plan_halt_count *h = &st->halts[i];
		double y = fr.y0 + BAR_ROW * (double)i, pr = st->ntrials ? (double)h->n / (double)st->ntrials : 0;

		rep_mc_wilson(h->n, st->ntrials, &lo, &hi);
		snprintf(lbl, sizeof(lbl), "%s · %s", h->where, h->reason);
		snprintf(tip, sizeof(tip), "%s: %zu of %zu trials (%s; 95 %% %s – %s)", lbl, h->n,
			 st->ntrials, pctx(pr, a), pctx(lo, b), pctx(hi, c));
		fputs("<g class=\"halt-row\">", f);
		svg_text(f, fr.x0 - 8, y + 15, "end", NULL, lbl, NAME_MAX);
		svg_rect(f, fr.x0, y + 4, svg_map(&sx, pr) - fr.x0, BAR_ROW - 8, "hbar", tip);
		svg_line(f, svg_map(&sx, lo), y + BAR_ROW / 2.0, svg_map(&sx, hi), y + BAR_ROW / 2.0,
			 "ci", tip);
		svg_line(f, svg_map(&sx, lo), y + 6, svg_map(&sx, lo), y + BAR_ROW - 6, "ci", NULL);
		svg_line(f, svg_map(&sx, hi), y + 6, svg_map(&sx, hi), y + BAR_ROW - 6, "ci", NULL);
		snprintf(tip, sizeof(tip), "%s (%zu)", pctx(pr, a), h->n);
		svg_text(f, fr.x1 + 10, y + 15, "start", NULL, tip, 0);
		fputs("</g>\n", f);
	}
	chart_close(p);
	if (st->nhalts > n)
		fprintf(f, "<p class=\"note\">%zu more places and reasons not drawn (the terminal "
			   "report and --json list them all).</p>\n",
			st->nhalts - n);
	fputs("</section>\n", f);
}

/* ---- histograms ----------------------------------------------------------- */

/*
 * A histogram of @n ascending values @v out of @total trials: counts in
 * bins of 1 (counts up to 40) or of a round width; @ms values are durations.
 */
static void histogram(struct page *p, const double *v, size_t n, size_t total, bool ms,
		      const char *title, const char *xlabel, const char *unit)
{
	FILE *f = p->f;
	double width, max = n ? v[n - 1] : 0, ymax = 0, step;
	size_t nb, *cnt, every;
	struct svg_frame fr = { LEFT, W - RIGHT, 34, 34 + 200 };
	struct svg_scale sx, sy;
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ], tip[400];

	if (!n)
		return;
	if (ms) {
		int64_t t[64], s = 1000;

		if (max > 0)
			svg_ticks_time(0, (int64_t)llround(max), 30, t, 64, &s);
		width = (double)(s > 0 ? s : 1000);
	} else if (max <= 40) {
		width = 1;
	} else {
		double t[64];

		svg_ticks_num(0, max, 30, t, 64, &step);
		width = step < 1 ? 1 : step;
	}
	nb = (size_t)floor(max / width) + 1;
	/*
	 * At least HIST_MIN_BINS bins: values all 0 (or all in the first bins)
	 * drew one full-width bar, which reads as a spread, not as "every trial
	 * the same".
	 */
	if (nb < HIST_MIN_BINS)
		nb = HIST_MIN_BINS;
	cnt = xcalloc(nb, sizeof(*cnt));
	for (size_t i = 0; i < n; i++) {
		size_t k = (size_t)floor(v[i] / width);

		cnt[k < nb ? k : nb - 1]++;
	}
	for (size_t k = 0; k < nb; k++)
		if ((double)cnt[k] > ymax)
			ymax = (double)cnt[k];
	/* Room above the tallest bar for its label. */
	ymax = ymax * 1.12 > ymax + 1 ? ymax * 1.12 : ymax + 1;
	chart_open(p, "hist", (int)fr.y1 + 44, title, NULL);
	sx = (struct svg_scale){ 0, (double)nb * width, fr.x0, fr.x1 };
	sy = (struct svg_scale){ 0, ymax, fr.y1, fr.y0 };
	svg_axis_num(f, &fr, 0, ymax, "trials", true);
	every = (size_t)ceil(46.0 / ((fr.x1 - fr.x0) / (double)nb));
	if (every < 1)
		every = 1;
	for (size_t k = 0; k < nb; k++) {
		double x0 = svg_map(&sx, (double)k * width), x1 = svg_map(&sx, (double)(k + 1) * width);
		double share = total ? (double)cnt[k] / (double)total : 0;

		if (ms)
			snprintf(tip, sizeof(tip), "%s – %s%s: %zu trials (%s)",
				 svg_fmt_duration((int64_t)llround((double)k * width), a, sizeof(a)),
				 svg_fmt_duration((int64_t)llround((double)(k + 1) * width), b, sizeof(b)),
				 unit, cnt[k], pctx(share, c));
		else if (width == 1)
			snprintf(tip, sizeof(tip), "%zu%s: %zu trials (%s)", k, unit, cnt[k],
				 pctx(share, c));
		else
			snprintf(tip, sizeof(tip), "%s – %s%s: %zu trials (%s)",
				 svg_fmt_num((double)k * width, 2, a, sizeof(a)),
				 svg_fmt_num((double)(k + 1) * width, 2, b, sizeof(b)), unit, cnt[k],
				 pctx(share, c));
		if (cnt[k])
			svg_rect(f, x0 + 1, svg_map(&sy, (double)cnt[k]), x1 - x0 - 2,
				 fr.y1 - svg_map(&sy, (double)cnt[k]), "hbin", tip);
		if (cnt[k] && nb <= 24)
			svg_text(f, (x0 + x1) / 2, svg_map(&sy, (double)cnt[k]) - 4, "middle", "lbl",
				 pctx(share, c), 0);
		if (k % every == 0) {
			if (width == 1 && !ms)
				svg_text(f, (x0 + x1) / 2, fr.y1 + 15, "middle", "lbl",
					 svg_fmt_num((double)k, 0, a, sizeof(a)), 0);
			else
				svg_text(f, x0, fr.y1 + 15, "middle", "lbl",
					 ms ? svg_fmt_duration((int64_t)llround((double)k * width), a,
							      sizeof(a))
					    : svg_fmt_num((double)k * width, 2, a, sizeof(a)),
					 0);
		}
	}
	svg_line(f, fr.x0, fr.y1, fr.x1, fr.y1, "tick", NULL);
	svg_text(f, fr.x1, fr.y1 + 32, "end", "cap", xlabel, 0);
	if (v[0] == v[n - 1]) {
		/* One value: say it in words too. */
		snprintf(tip, sizeof(tip), "every trial: %s%s",
			 ms ? svg_fmt_duration((int64_t)llround(v[0]), a, sizeof(a))
			    : svg_fmt_num(v[0], 2, a, sizeof(a)),
			 unit);
		svg_text(f, fr.x1, fr.y0 - 12, "end", "lbl same", tip, 0);
	}
	chart_close(p);
	free(cnt);
}

static void blast_section(struct page *p, const struct rep_mc_set *s)
{
	double *v = xcalloc(s->n ? s->n : 1, sizeof(*v));
	size_t scope = 0;
	bool same = true;
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ], cap[160];

	for (size_t i = 0; i < s->n; i++) {
		v[i] = (double)s->rows[i].blast_count;
		if (i && s->rows[i].blast_total != scope)
			same = false;
		scope = s->rows[i].blast_total;
	}
	qsort(v, s->n, sizeof(*v), cmp_double);
	fputs("<section tabindex=\"0\" id=\"blast\"><h2>Blast radius <small>targets that took the bad change "
	      "before the first halt; 0 without a halt</small></h2>\n",
	      p->f);
	if (!s->n || v[s->n - 1] == 0) {
		fprintf(p->f, "<p>No trial reached a target with a bad change before a halt (%zu "
			      "trials, blast radius 0 in each).</p>\n</section>\n",
			s->n);
		free(v);
		return;
	}
	if (same && scope)
		snprintf(cap, sizeof(cap), "targets reached (of %zu in scope)", scope);
	else
		snprintf(cap, sizeof(cap), "targets reached");
	histogram(p, v, s->n, s->n, false, "Blast radius: trials by targets reached", cap,
		  " targets");
	if (s->st && s->st->blast_count.n)
		fprintf(p->f, "<p class=\"note\">mean %s targets per trial, p95 %s; share of the scope "
			      "p95 %s.</p>\n",
			svg_fmt_num(s->st->blast_count.mean, 2, a, sizeof(a)),
			svg_fmt_num(s->st->blast_count.p[PLAN_P95], 1, b, sizeof(b)),
			s->st->blast_share.n ? pctx(s->st->blast_share.p[PLAN_P95], c) : "-");
	fputs("</section>\n", p->f);
	free(v);
}

static void detection_exposure(struct page *p, const struct rep_mc_set *s)
{
	double *v = xcalloc(s->n ? s->n : 1, sizeof(*v));
	size_t k = 0, halted = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->rows[i].halted && s->rows[i].detection_ms >= 0)
			v[k++] = (double)s->rows[i].detection_ms;
	if (k) {
		qsort(v, k, sizeof(*v), cmp_double);
		fputs("<section tabindex=\"0\" id=\"detection\"><h2>Detection latency <small>fault onset to halt, "
		      "halting trials with a known onset</small></h2>\n",
		      p->f);
		histogram(p, v, k, k, true, "Detection latency", "fault onset to halt", "");
		fputs("</section>\n", p->f);
	}
	k = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->rows[i].halted) {
			halted++;
			if (s->rows[i].exposure_ms > 0)
				v[k++] = (double)s->rows[i].exposure_ms;
		}
	if (k) {
		/* Halting trials with no exposure count in the first bin, as zero. */
		for (size_t i = k; i < halted; i++)
			v[i] = 0;
		qsort(v, halted, sizeof(*v), cmp_double);
		fputs("<section tabindex=\"0\" id=\"exposure\"><h2>Exposure <small>member-time on the bad version "
		      "before the halt, halting trials</small></h2>\n",
		      p->f);
		histogram(p, v, halted, halted, true, "Exposure", "member-time on the bad version",
			  " member-time");
		fputs("</section>\n", p->f);
	}
	free(v);
}

/* ---- steps and waves ------------------------------------------------------ */

static void phases_section(struct page *p, const struct rep_mc_set *s)
{
	FILE *f = p->f;
	const struct plan_stats *st = s->st;
	size_t np = st->nphases > MAX_ROWS ? MAX_ROWS : st->nphases, *nd, *nc, *cap;
	double **d, xmax = 0;
	struct svg_frame fr;
	struct svg_scale sx;
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ], e[SVG_NUM_BUFSZ],
		g[SVG_NUM_BUFSZ], mn[SVG_NUM_BUFSZ], mx[SVG_NUM_BUFSZ], lbl[512], tip[1024];

	if (!np)
		return;
	d = xcalloc(np, sizeof(*d));
	nd = xcalloc(np, sizeof(*nd));
	nc = xcalloc(np, sizeof(*nc));
	cap = xcalloc(np, sizeof(*cap));
	for (size_t i = 0; i < s->n; i++) {
		const struct trial_row *r = &s->rows[i];
		size_t j = 0;

		for (size_t q = 0; q < r->nphases; q++) {
			const struct trial_phase *ph = &r->phases[q];
			size_t t;

			if (ph->opened_ms < 0)
				continue;
			/* Phases come in one order in every row: search on from the last match. */
			for (t = 0; t < np; t++) {
				size_t m = (j + t) % np;

				if (!strcmp(st->phases[m].driver, ph->driver) &&
				    !strcmp(st->phases[m].name, ph->name)) {
					j = m;
					break;
				}
			}
			if (t == np)
				continue;
			if (ph->done_ms < ph->opened_ms) {
				nc[j]++;
				continue;
			}
			/* a row may name one phase twice (a merged partial result): no bound per row */
			if (nd[j] == cap[j]) {
				cap[j] = cap[j] ? 2 * cap[j] : (s->n ? s->n : 1);
				d[j] = xreallocarray(d[j], cap[j], sizeof(**d));
			}
			d[j][nd[j]++] = (double)(ph->done_ms - ph->opened_ms);
		}
	}
	for (size_t j = 0; j < np; j++) {
		if (nd[j])
			qsort(d[j], nd[j], sizeof(**d), cmp_double);
		if (nd[j] && rep_mc_quantile(d[j], nd[j], 0.95) > xmax)
			xmax = rep_mc_quantile(d[j], nd[j], 0.95);
	}
	if (xmax <= 0)
		xmax = 1000;
	fputs("<section tabindex=\"0\" id=\"phases\"><h2>Steps and waves: duration from open to done "
	      "<small>box p25–p75, line p50, whiskers p5–p95 (min and max in the tip)</small></h2>\n",
	      f);
	fr = (struct svg_frame){ ROW_LABEL, W - RIGHT - 150, 10, 10 + BAR_ROW * (double)np };
	chart_open(p, "box", (int)fr.y1 + 40, "Duration of each step or wave", NULL);
	svg_axis_time(f, &fr, 0, (int64_t)llround(xmax), "duration, open to done");
	sx = (struct svg_scale){ 0, xmax, fr.x0, fr.x1 };
	for (size_t j = 0; j < np; j++) {
		double y = fr.y0 + BAR_ROW * ((double)j + 0.5), q[5];
		static const double at[5] = { 0.05, 0.25, 0.5, 0.75, 0.95 };

		snprintf(lbl, sizeof(lbl), "%s · %s", st->phases[j].driver, st->phases[j].name);
		fputs("<g class=\"phase-row\">", f);
		svg_text(f, fr.x0 - 8, y + 4, "end", NULL, lbl, NAME_MAX);
		if (nd[j]) {
			for (int k = 0; k < 5; k++) {
				double t = rep_mc_quantile(d[j], nd[j], at[k]);

				q[k] = svg_map(&sx, t > xmax ? xmax : t);
			}
			snprintf(tip, sizeof(tip),
				 "%s: p5 %s, p25 %s, p50 %s, p75 %s, p95 %s; min %s, max %s; %zu done, "
				 "%zu opened and never done",
				 lbl, dur((int64_t)llround(rep_mc_quantile(d[j], nd[j], 0.05)), a),
				 dur((int64_t)llround(rep_mc_quantile(d[j], nd[j], 0.25)), b),
				 dur((int64_t)llround(rep_mc_quantile(d[j], nd[j], 0.5)), c),
				 dur((int64_t)llround(rep_mc_quantile(d[j], nd[j], 0.75)), e),
				 dur((int64_t)llround(rep_mc_quantile(d[j], nd[j], 0.95)), g),
				 dur((int64_t)llround(d[j][0]), mn),
				 dur((int64_t)llround(d[j][nd[j] - 1]), mx), nd[j], nc[j]);
			svg_box_h(f, y, BAR_ROW - 8, q, NULL, tip);
			snprintf(tip, sizeof(tip), "p50 %s%s", c, nc[j] ? " · " : "");
			if (nc[j])
				snprintf(tip + strlen(tip), sizeof(tip) - strlen(tip), "%zu not done",
					 nc[j]);
		} else {
			snprintf(tip, sizeof(tip), "never done (%zu opened)", nc[j]);
		}
		svg_text(f, fr.x1 + 10, y + 4, "start", NULL, tip, 0);
		fputs("</g>\n", f);
	}
	chart_close(p);
	if (st->nphases > np)
		fprintf(f, "<p class=\"note\">%zu more steps and waves not drawn.</p>\n",
			st->nphases - np);
	fputs("</section>\n", f);

	/* The critical path: how often each step or wave was the longest of its trial. */
	fputs("<section tabindex=\"0\" id=\"critical\"><h2>Critical path <small>trials in which the step or wave "
	      "was the longest (never done: to the end of the run)</small></h2>\n"
	      "<table class=\"stats\"><thead><tr><th>step / wave</th><th>trials</th><th>share</th>"
	      "</tr></thead><tbody>\n",
	      f);
	for (size_t j = 0; j < st->nphases; j++) {
		fputs("<tr><td>", f);
		svg_escape(f, st->phases[j].driver);
		fputs(" · ", f);
		svg_escape(f, st->phases[j].name);
		fprintf(f, "</td><td>%zu</td><td>%s</td></tr>\n", st->phases[j].ncritical,
			pctx(st->ntrials ? (double)st->phases[j].ncritical / (double)st->ntrials : 0,
			     a));
	}
	fputs("</tbody></table>\n</section>\n", f);
	for (size_t j = 0; j < np; j++)
		free(d[j]);
	free(d);
	free(nd);
	free(nc);
	free(cap);
}

/* ---- variants ------------------------------------------------------------- */

/* One figure of the variant table: its value and, for a variant, the delta against the base. */
static void var_cell(FILE *f, enum kind k, double v, bool cens, double base, bool base_cens,
		     bool is_base, int64_t horizon_ms)
{
	char a[2 * SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ + 8];
	double dl = v - base;

	if (cens)
		snprintf(a, sizeof(a), "&gt; %s", dur(horizon_ms, b));
	else if (k == K_MS)
		dur((int64_t)llround(v), a);
	else if (k == K_SHARE)
		pctx(v, a);
	else if (k == K_MEMBER_MS)
		svg_fmt_num(v / 60000.0, 1, a, sizeof(a));
	else
		svg_fmt_num(v, 2, a, sizeof(a));
	fprintf(f, "<td%s>%s", cens ? " class=\"cens\"" : "", a);
	if (!is_base) {
		if (cens || base_cens || isnan(dl))
			strcpy(b, "–");
		else if (k == K_MS)
			dur((int64_t)llround(dl), b);
		else if (k == K_SHARE)
			svg_fmt_num(dl * 100, 1, b, SVG_NUM_BUFSZ), strcat(b, " pp");
		else if (k == K_MEMBER_MS)
			svg_fmt_num(dl / 60000.0, 1, b, sizeof(b));
		else
			svg_fmt_num(dl, 2, b, sizeof(b));
		fprintf(f, "<small>Δ %s%s</small>", dl > 0 && b[0] != '-' && strcmp(b, "0") &&
							   strcmp(b, "0 pp") && strcmp(b, "–") ? "+" : "",
			b);
	}
	fputs("</td>", f);
}

static void variants_section(struct page *p, const struct rep_mc_set *const *sets, size_t n)
{
	FILE *f = p->f;
	const struct plan_stats *b = sets[0]->st;

	fputs("<section tabindex=\"0\" id=\"variants\"><h2>Variants <small>each against the base, on the same "
	      "trial seeds</small></h2>\n",
	      f);
	fputs("<div class=\"wide\" tabindex=\"0\"><table class=\"stats\"><thead><tr><th>variant</th><th>ttc p50</th><th>ttc p95</th>"
	      "<th>ttc mean</th><th>completed</th><th>halted</th><th>blast mean</th>"
	      "<th>detection p50</th><th>exposure mean (member-min)</th></tr></thead><tbody>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const struct plan_stats *s = sets[i]->st;
		bool isb = i == 0;

		fputs("<tr><td>", f);
		svg_escape(f, sets[i]->name);
		if (sets[i]->description) {
			fputs("<small>", f);
			svg_escape(f, sets[i]->description);
			fputs("</small>", f);
		}
		fputs("</td>", f);
		var_cell(f, K_MS, s->ttc.p[PLAN_P50], s->ttc.p_censored[PLAN_P50], b->ttc.p[PLAN_P50],
			 b->ttc.p_censored[PLAN_P50], isb, p->horizon_ms);
		var_cell(f, K_MS, s->ttc.p[PLAN_P95], s->ttc.p_censored[PLAN_P95], b->ttc.p[PLAN_P95],
			 b->ttc.p_censored[PLAN_P95], isb, p->horizon_ms);
		var_cell(f, K_MS, s->ttc.mean, false, b->ttc.mean, false, isb, p->horizon_ms);
		var_cell(f, K_SHARE, s->complete.p, false, b->complete.p, false, isb, p->horizon_ms);
		var_cell(f, K_SHARE, s->halt.p, false, b->halt.p, false, isb, p->horizon_ms);
		var_cell(f, K_COUNT, s->blast_count.mean, false, b->blast_count.mean, false, isb,
			 p->horizon_ms);
		if (s->detection.n)
			var_cell(f, K_MS, s->detection.p[PLAN_P50], false, b->detection.p[PLAN_P50],
				 !b->detection.n, isb, p->horizon_ms);
		else
			fputs("<td>–</td>", f);
		var_cell(f, K_MEMBER_MS, s->exposure.mean, false, b->exposure.mean, false, isb,
			 p->horizon_ms);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p class=\"note\">Δ: the variant minus the base (percentage "
	      "points for shares); the terminal table (run -n N) says which differences are "
	      "beyond noise.</p>\n</section>\n",
	      f);
}

/* ---- sweeps --------------------------------------------------------------- */

/*
 * One sweep curve: per value, p5/p50/p95 of a per-trial time (@job_wait: the
 * queueing delay, else the time to complete with censored trials as
 * "> horizon", drawn on the horizon line).
 */
static void sweep_chart(struct page *p, const struct rep_mc_set *sw, size_t n, const char *param,
			bool job_wait)
{
	FILE *f = p->f;
	double (*q)[3] = xcalloc(n, sizeof(*q)), ymax = 0, *xs = xcalloc(2 * n, sizeof(*xs)),
	      *ys = xcalloc(2 * n, sizeof(*ys));
	bool (*cens)[3] = xcalloc(n, sizeof(*cens)), anyc = false;
	struct svg_frame fr = { LEFT + 10, W - RIGHT, 30, 30 + PLOT_H };
	struct svg_scale sy;
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ], tip[512], cap[256];
	static const double at[3] = { 0.05, 0.5, 0.95 };

	for (size_t i = 0; i < n; i++) {
		double *v = xcalloc(sw[i].n ? sw[i].n : 1, sizeof(*v));
		size_t k = 0;

		for (size_t r = 0; r < sw[i].n; r++) {
			const struct trial_row *row = &sw[i].rows[r];

			if (job_wait)
				v[k++] = (double)row->job_wait_ms;
			else
				v[k++] = row->completed && row->ttc_ms >= 0 ? (double)row->ttc_ms
									   : INFINITY;
		}
		qsort(v, k, sizeof(*v), cmp_double);
		for (int j = 0; j < 3; j++) {
			double h = (double)(k ? k - 1 : 0) * at[j];
			size_t hi = (size_t)ceil(h);

			/* Among censored values (or between one and the last known): "> horizon". */
			if (k && isinf(v[hi < k ? hi : k - 1])) {
				cens[i][j] = anyc = true;
				q[i][j] = (double)p->horizon_ms;
			} else {
				q[i][j] = rep_mc_quantile(v, k, at[j]);
			}
			if (q[i][j] > ymax)
				ymax = q[i][j];
		}
		free(v);
	}
	if (ymax <= 0)
		ymax = 1000;
	snprintf(cap, sizeof(cap), "%s: p50 with the p5–p95 band, by %s",
		 job_wait ? "Queueing delay per trial" : "Time to complete", param);
	chart_open(p, "sweep", (int)fr.y1 + 48, cap,
		   "Values of the parameter in the order given, evenly spaced.");
	axis_time_y(f, &fr, (int64_t)llround(ymax), job_wait ? "queueing delay per trial"
							       : "time to complete");
	sy = (struct svg_scale){ 0, ymax, fr.y1, fr.y0 };
	if (anyc) {
		snprintf(tip, sizeof(tip), "horizon %s: above it, trials not completed",
			 dur(p->horizon_ms, a));
		svg_line(f, fr.x0, svg_map(&sy, (double)p->horizon_ms), fr.x1,
			 svg_map(&sy, (double)p->horizon_ms), "hz", tip);
	}
	for (size_t i = 0; i < n; i++) {
		double x = fr.x0 + (fr.x1 - fr.x0) * ((double)i + 0.5) / (double)n;

		xs[i] = x;
		ys[i] = svg_map(&sy, q[i][2]);
		xs[2 * n - 1 - i] = x;
		ys[2 * n - 1 - i] = svg_map(&sy, q[i][0]);
	}
	svg_polygon(f, xs, ys, 2 * n, "sw-band", "p5–p95 band");
	for (size_t i = 0; i < n; i++)
		ys[i] = svg_map(&sy, q[i][1]);
	svg_polyline(f, xs, ys, n, "cdf-line s0");
	for (size_t i = 0; i < n; i++) {
		snprintf(tip, sizeof(tip), "%s=%s: p50 %s%s, p5 %s%s, p95 %s%s (%zu trials)", param,
			 sw[i].name, cens[i][1] ? "> " : "", dur((int64_t)llround(q[i][1]), a),
			 cens[i][0] ? "> " : "", dur((int64_t)llround(q[i][0]), b),
			 cens[i][2] ? "> " : "", dur((int64_t)llround(q[i][2]), c), sw[i].n);
		svg_circle(f, xs[i], ys[i], 4, "sw-dot", tip);
		svg_line(f, xs[i], fr.y1, xs[i], fr.y1 + 4, "tick", NULL);
		svg_text(f, xs[i], fr.y1 + 16, "middle", "lbl", sw[i].name, 12);
	}
	svg_line(f, fr.x0, fr.y1, fr.x1, fr.y1, "tick", NULL);
	svg_text(f, fr.x1, fr.y1 + 34, "end", "cap", param, 0);
	chart_close(p);
	free(q);
	free(cens);
	free(xs);
	free(ys);
}

static void sweep_section(struct page *p, const struct rep_mc_page *pg)
{
	FILE *f = p->f;

	fputs("<section tabindex=\"0\" id=\"sweep\"><h2>Sweep of ", f);
	svg_escape(f, pg->sweep_param);
	fputs(" <small>each value on the base's trial seeds</small></h2>\n", f);
	sweep_chart(p, pg->sweep, pg->nsweep, pg->sweep_param, false);
	if (!strcmp(pg->sweep_param, "capacity"))
		sweep_chart(p, pg->sweep, pg->nsweep, pg->sweep_param, true);
	fputs("</section>\n", f);
}

/* ---- pages ---------------------------------------------------------------- */

int rep_html_mc(FILE *f, const struct rep_mc_page *pg)
{
	struct page p = { f, pg->horizon_ms, 0 };
	const struct rep_mc_set **sets;
	const char *name = pg->name && *pg->name ? pg->name : "scenario";
	char a[SVG_NUM_BUFSZ];
	int rc;

	rep_html_page_open(f, name, "run -n", mc_css);
	fputs("<header><h1>", f);
	svg_escape(f, name);
	fprintf(f, "</h1>\n<p class=\"meta\">magos-sim run, %zu trial%s, seed %" PRIu64
		   ", horizon %s",
		pg->base->n, pg->base->n == 1 ? "" : "s", pg->seed, dur(pg->horizon_ms, a));
	if (pg->nvariants)
		fprintf(f, "; %zu variant%s", pg->nvariants, pg->nvariants == 1 ? "" : "s");
	if (pg->sweep_param) {
		fputs("; sweep of ", f);
		svg_escape(f, pg->sweep_param);
		fprintf(f, " over %zu value%s", pg->nsweep, pg->nsweep == 1 ? "" : "s");
	}
	fputs(".</p>\n</header>\n", f);

	sets = xcalloc(1 + pg->nvariants, sizeof(*sets));
	sets[0] = pg->base;
	for (size_t i = 0; i < pg->nvariants; i++)
		sets[1 + i] = &pg->variants[i];
	stats_section(&p, pg->base->st);
	fprintf(f, "<section tabindex=\"0\" id=\"cdf\"><h2>Time to complete <small>%s</small></h2>\n",
		pg->nvariants ? "the base and each variant" : "the base");
	cdf_chart(&p, sets, 1 + pg->nvariants,
		  pg->nvariants ? "Time to complete: CDF per variant"
				: "Time to complete: CDF of the trials");
	if (1 + pg->nvariants > REP_MC_MAX_CURVES)
		fprintf(f, "<p class=\"note\">the chart draws the first %d of %zu; the variant "
			   "table has all.</p>\n",
			REP_MC_MAX_CURVES, 1 + pg->nvariants);
	fputs("</section>\n", f);
	if (pg->nvariants)
		variants_section(&p, sets, 1 + pg->nvariants);
	if (pg->sweep_param && pg->nsweep)
		sweep_section(&p, pg);
	halts_section(&p, pg->base->st);
	blast_section(&p, pg->base);
	phases_section(&p, pg->base);
	detection_exposure(&p, pg->base);
	free(sets);
	rc = rep_html_page_close(f);
	return rc;
}

int rep_html_compare(FILE *f, const struct rep_mc_set *base, const struct rep_mc_set *head,
		     const struct cmp_result *r)
{
	struct page p = { f, r->horizon_ms, 0 };
	struct rep_mc_set b = *base, h = *head;
	const struct rep_mc_set *sets[2] = { &b, &h };
	char a[SVG_NUM_BUFSZ], v[4][32];
	int rc;

	/* The legend says which side is which, even when both scenarios share a name. */
	b.name = xasprintf("base: %s", base->name ? base->name : "");
	h.name = xasprintf("head: %s", head->name ? head->name : "");
	rep_html_page_open(f, "compare", "compare", mc_css);
	fputs("<header><h1>", f);
	svg_escape(f, base->name);
	fputs(" → ", f);
	svg_escape(f, head->name);
	fprintf(f, "</h1>\n<p class=\"meta\">magos-sim compare, %zu trial%s per side on common "
		   "random numbers, seed %" PRIu64 ", horizon %s, %u bootstrap resamples.</p>\n"
		   "</header>\n",
		r->n, r->n == 1 ? "" : "s", r->seed, dur(r->horizon_ms, a), r->resamples);
	fputs("<section tabindex=\"0\" id=\"compare\"><h2>Base against head <small>significance at 5 %, "
	      "two-sided</small></h2>\n"
	      "<table class=\"stats\"><thead><tr><th>metric</th><th>base</th><th>head</th>"
	      "<th>delta</th><th>delta %</th><th>95 % interval / p</th><th>method</th>"
	      "<th>significant</th></tr></thead><tbody>\n",
	      f);
	for (int i = 0; i < CMP_NMETRICS; i++) {
		const struct cmp_metric *m = &r->m[i];

		rep_cmp_value(m, m->base, m->base_censored, false, r->horizon_ms, v[0], sizeof(v[0]));
		rep_cmp_value(m, m->head, m->head_censored, false, r->horizon_ms, v[1], sizeof(v[1]));
		rep_cmp_value(m, m->delta, false, true, r->horizon_ms, v[2], sizeof(v[2]));
		fprintf(f, "<tr%s><td>", m->worse ? " class=\"worse\"" : "");
		svg_escape(f, m->label);
		fputs("</td><td>", f);
		svg_escape(f, v[0]);
		fputs("</td><td>", f);
		svg_escape(f, v[1]);
		fputs("</td><td>", f);
		svg_escape(f, v[2]);
		fputs("</td><td>", f);
		if (isnan(m->delta_pct))
			fputs("–", f);
		else
			fprintf(f, "%s%s%%", m->delta_pct > 0 ? "+" : "",
				svg_fmt_num(m->delta_pct, 1, a, sizeof(a)));
		fputs("</td><td>", f);
		if (!isnan(m->lo) && !isnan(m->hi)) {
			rep_cmp_value(m, m->lo, false, true, r->horizon_ms, v[2], sizeof(v[2]));
			rep_cmp_value(m, m->hi, false, true, r->horizon_ms, v[3], sizeof(v[3]));
			svg_escape(f, v[2]);
			fputs(" … ", f);
			svg_escape(f, v[3]);
		}
		if (!isnan(m->p_value) && m->p_value < 0.0001)
			fprintf(f, "%sp &lt; 0.0001", !isnan(m->lo) ? "; " : "");
		else if (!isnan(m->p_value))
			fprintf(f, "%sp = %s", !isnan(m->lo) ? "; " : "",
				svg_fmt_num(m->p_value, 4, a, sizeof(a)));
		fprintf(f, "</td><td>%s</td><td>%s</td></tr>\n", cmp_method_name(m->method),
			m->worse ? "<strong>yes, worse</strong>" : m->significant ? "yes" : "no");
	}
	fputs("</tbody></table>\n", f);
	if (r->nbound[0] || r->nbound[1])
		fprintf(f, "<p class=\"note\">trials stopped by the loop or event budget bound "
			   "(counted as not completed): base %zu, head %zu.</p>\n",
			r->nbound[0], r->nbound[1]);
	fputs("</section>\n<section tabindex=\"0\" id=\"cdf\"><h2>Time to complete <small>base and head"
	      "</small></h2>\n",
	      f);
	cdf_chart(&p, sets, 2, "Time to complete: CDF of base and head");
	fputs("</section>\n", f);
	rc = rep_html_page_close(f);
	free((char *)b.name);
	free((char *)h.name);
	return rc;
}
