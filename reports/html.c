/*
 * The HTML report of one run.  Everything it draws comes from the spans
 * (reports/spans.h) built once from the run, except the summary text, which
 * is the terminal report's (reports/text.c) so the two never disagree, and
 * the event table, read off the timeline.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/html.h"
#include "reports/spans.h"
#include "reports/svg.h"

/* Page geometry, px: chart width, the label column, the plot's right margin. */
#define W 1240
#define LABEL_W 240
#define RIGHT 16
#define ROW_H 14
#define HEAD_H 22
#define AGG_H 46
#define BUCKET_PX 4
/* Names shown in full up to this many characters, then cut with "…" (the tip has all). */
#define NAME_CHARS 30
/* Blast-radius names listed at most (the count is always given). */
#define MAX_BLAST_NAMES 500

/* The class a phase's bars get, and whether it is drawn thin (a settled state, not work). */
static const char *phase_class(enum sp_phase p, bool *thin)
{
	*thin = false;
	switch (p) {
	case SP_PLANNING:
		return "ph-planning";
	case SP_AWAITING_APPROVAL:
		return "ph-approval";
	case SP_APPLYING:
		return "ph-applying";
	case SP_ADOPTING:
		return "ph-adopting";
	case SP_FAILED:
	case SP_NOT_READY:
		return "ph-failed";
	case SP_ROLLING_BACK:
		return "ph-rollback";
	case SP_APPLIED:
	case SP_READY:
	case SP_ROLLED_BACK:
		*thin = true;
		return "ph-done";
	case SP_PENDING:
		return NULL; /* not started: nothing drawn */
	case SP_OTHER:
	case SP_NPHASES:
		break;
	}
	return "ph-waiting";
}

/* Whether a phase is work on the change (what the critical path is made of). */
static bool phase_active(enum sp_phase p)
{
	return p == SP_PLANNING || p == SP_AWAITING_APPROVAL || p == SP_APPLYING ||
	       p == SP_ADOPTING || p == SP_ROLLING_BACK;
}

static const char *verdict_class(const char *v)
{
	if (v && !strcmp(v, "Passing"))
		return "v-pass";
	if (v && !strcmp(v, "Failing"))
		return "v-fail";
	return "v-unknown";
}

/* Whether an evaluation at @x draws: not when one of the same verdict class drew in that pixel column. */
static bool thin_px(long last_px[3], const char *cls, double x)
{
	int k = !strcmp(cls, "v-pass") ? 0 : !strcmp(cls, "v-fail") ? 1 : 2;
	long px = lround(x);

	if (last_px[k] == px)
		return true;
	last_px[k] = px;
	return false;
}

/* The time scale of every chart: [0, end] onto the plot columns. */
struct ctx {
	FILE *f;
	const struct rep_run *run;
	const struct sp_set *sp;
	int64_t end_ms;
	struct svg_scale x;
	int nsvg; /* svg ids handed out */
};

static double tx(const struct ctx *c, int64_t t)
{
	return svg_map(&c->x, (double)t);
}

static char *dur(int64_t ms, char *buf)
{
	return svg_fmt_duration(ms, buf, SVG_NUM_BUFSZ);
}

/* "Kind ns/name" of a target into a new string. */
static char *target_name(const struct sp_target *t)
{
	if (t->ns && *t->ns)
		return xasprintf("%s/%s", t->ns, t->name ? t->name : "");
	return xstrdup(t->name ? t->name : "");
}

/* Vertical grid lines at the time ticks, from @y0 to @y1. */
static void time_grid(const struct ctx *c, double y0, double y1)
{
	int64_t ticks[64];
	size_t n = svg_ticks_time(0, c->end_ms, (size_t)((c->x.r1 - c->x.r0) / 90) + 1, ticks, 64,
				  NULL);

	for (size_t i = 0; i < n; i++)
		if (ticks[i] <= c->end_ms)
			svg_line(c->f, tx(c, ticks[i]), y0, tx(c, ticks[i]), y1, "grid", NULL);
}

/* A thin svg holding only the time axis, above the Gantt's groups. */
static void time_axis_svg(struct ctx *c, const char *label)
{
	struct svg_frame fr = { c->x.r0, c->x.r1, 0, 2 };

	fprintf(c->f, "<div class=\"axis-row\">");
	svg_open(c->f, NULL, W, 36, "time axis", NULL);
	svg_axis_time(c->f, &fr, 0, c->end_ms, label);
	svg_close(c->f);
	fputs("</div>\n", c->f);
}

/* The header band of a group: window, soak, markers, gate ticks; @h is the svg height. */
static void group_head(struct ctx *c, size_t d, long g, double h)
{
	const struct sp_driver *dr = &c->sp->drivers[d];
	const struct sp_group *gr = g >= 0 ? &dr->groups[g] : NULL;
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], tip[512];

	if (!gr)
		return;
	if (gr->opened_ms >= 0) {
		int64_t end = gr->passed_ms >= 0 ? gr->passed_ms : c->end_ms;

		snprintf(tip, sizeof(tip), "%s open %s to %s%s", gr->name, dur(gr->opened_ms, a),
			 dur(end, b), gr->passed_ms >= 0 ? "" : " (never passed)");
		svg_rect(c->f, tx(c, gr->opened_ms), 3, tx(c, end) - tx(c, gr->opened_ms), h - 6, "win",
			 tip);
	}
	if (gr->settled_ms >= 0 && gr->soak_end_ms > gr->settled_ms) {
		snprintf(tip, sizeof(tip), "%s soak %s to %s", gr->name, dur(gr->settled_ms, a),
			 dur(gr->soak_end_ms, b));
		svg_rect(c->f, tx(c, gr->settled_ms), 3,
			 tx(c, gr->soak_end_ms) - tx(c, gr->settled_ms), h - 6, "soak", tip);
	}
	if (gr->opened_ms >= 0) {
		snprintf(tip, sizeof(tip), "%s opened at %s", gr->name, dur(gr->opened_ms, a));
		svg_line(c->f, tx(c, gr->opened_ms), 0, tx(c, gr->opened_ms), h, "m-open", tip);
	}
	if (gr->settled_ms >= 0) {
		snprintf(tip, sizeof(tip), "%s settled at %s", gr->name, dur(gr->settled_ms, a));
		svg_line(c->f, tx(c, gr->settled_ms), 0, tx(c, gr->settled_ms), h, "m-settle", tip);
	}
	long last_px[3] = { -1, -1, -1 };

	for (size_t i = 0; i < c->sp->ninstants; i++) {
		const struct sp_instant *in = &c->sp->instants[i];
		double x = tx(c, in->t_ms);

		if (in->driver != d || in->group != g)
			continue;
		/* One tick per pixel column and verdict: a large fleet evaluates on every pass. */
		if (in->kind == SP_I_GATE && !thin_px(last_px, verdict_class(in->label), x)) {
			char v[SVG_NUM_BUFSZ];

			snprintf(tip, sizeof(tip), "gate %s at %s: %s%s%s%s%s%s%s", in->label,
				 dur(in->t_ms, a), in->has_value ? svg_fmt_num(in->value, 6, v, sizeof(v)) : "no value",
				 in->min ? ", min " : "", in->min ? in->min : "", in->max ? ", max " : "",
				 in->max ? in->max : "", in->message ? ": " : "",
				 in->message ? in->message : "");
			svg_line(c->f, x, 4, x, HEAD_H - 6, verdict_class(in->label), tip);
		}
	}
}

/* The left of a group's header band: when it opened and passed, in words. */
static void group_caption(struct ctx *c, const struct sp_group *gr)
{
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], text[128];

	if (!gr)
		return;
	if (gr->opened_ms < 0)
		snprintf(text, sizeof(text), "never opened");
	else if (gr->passed_ms < 0)
		snprintf(text, sizeof(text), "opened %s, never passed", dur(gr->opened_ms, a));
	else
		snprintf(text, sizeof(text), "opened %s, passed %s", dur(gr->opened_ms, a),
			 dur(gr->passed_ms, b));
	svg_text(c->f, 8, 15, "start", "cap", text, 0);
}

/* Halt markers of driver @d from @y0 to @y1 (every group shows its driver's halts). */
static void halt_marks(struct ctx *c, size_t d, double y0, double y1)
{
	char a[SVG_NUM_BUFSZ], tip[1024];

	for (size_t i = 0; i < c->sp->ninstants; i++) {
		const struct sp_instant *in = &c->sp->instants[i];

		if (in->driver != d || in->kind != SP_I_HALT)
			continue;
		snprintf(tip, sizeof(tip), "halt at %s: %s: %s", dur(in->t_ms, a),
			 in->label ? in->label : "", in->message ? in->message : "");
		svg_line(c->f, tx(c, in->t_ms), y0, tx(c, in->t_ms), y1, "m-halt", tip);
	}
}

/* The target of the group whose active work ended last: the group waited on it. */
static long critical_target(const struct sp_set *sp, const struct sp_driver *dr,
			    const struct sp_group *gr, size_t first, size_t n)
{
	int64_t best = -1;
	long who = -1;
	int64_t until = gr && gr->passed_ms >= 0 ? gr->passed_ms : sp->end_ms;

	(void)dr;
	for (size_t i = first; i < first + n; i++) {
		const struct sp_target *t = &sp->targets[i];

		for (size_t k = 0; k < t->nspans; k++) {
			const struct sp_span *s = &t->spans[k];

			if (!phase_active(s->phase) || s->start_ms > until)
				continue;
			if (s->end_ms > best) {
				best = s->end_ms;
				who = (long)i;
			}
		}
	}
	return who;
}

/* One row per target of [@first, @first + @n) of driver @d, group @g. */
static void group_rows(struct ctx *c, size_t d, long g, size_t first, size_t n, const char *title)
{
	const struct sp_driver *dr = &c->sp->drivers[d];
	const struct sp_group *gr = g >= 0 ? &dr->groups[g] : NULL;
	double h = HEAD_H + (double)n * ROW_H + 4;
	long crit = critical_target(c->sp, dr, gr, first, n);
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], l[SVG_NUM_BUFSZ], tip[1024], id[32];

	snprintf(id, sizeof(id), "g%d", c->nsvg++);
	svg_open(c->f, id, W, (int)h, title, NULL);
	time_grid(c, 0, h);
	group_head(c, d, g, h);
	group_caption(c, gr);
	for (size_t i = 0; i < n; i++) {
		const struct sp_target *t = &c->sp->targets[first + i];
		double y = HEAD_H + (double)i * ROW_H;
		char *name = target_name(t);
		bool is_crit = (long)(first + i) == crit;

		fprintf(c->f, "<g class=\"row%s\">", is_crit ? " on-crit" : "");
		snprintf(tip, sizeof(tip), "%s %s%s", t->kind, name,
			 is_crit ? " (critical path: the step/wave waited on it last)" : "");
		svg_rect(c->f, 0, y, LABEL_W - 6, ROW_H, "hit", tip);
		svg_text(c->f, 16, y + 11, "start", is_crit ? "lbl crit-lbl" : "lbl", name, NAME_CHARS);
		for (size_t k = 0; k < t->nspans; k++) {
			const struct sp_span *s = &t->spans[k];
			bool thin;
			const char *cls = phase_class(s->phase, &thin);
			double x0 = tx(c, s->start_ms), x1 = tx(c, s->end_ms);

			if (!cls)
				continue;
			if (x1 - x0 < 1)
				x1 = x0 + 1; /* a short phase stays visible */
			snprintf(tip, sizeof(tip), "%s: %s%s%s, %s to %s (%s)%s", name,
				 sp_phase_name(s->phase), s->label ? " — " : "",
				 s->label ? s->label : "", dur(s->start_ms, a), dur(s->end_ms, b),
				 dur(s->end_ms - s->start_ms, l), s->open_end ? ", still at the end" : "");
			if (thin)
				svg_rect(c->f, x0, y + 5, x1 - x0, 3, cls, tip);
			else
				svg_rect(c->f, x0, y + 1, x1 - x0, ROW_H - 2, cls, tip);
			if (is_crit && phase_active(s->phase))
				svg_rect(c->f, x0, y + 1, x1 - x0, ROW_H - 2, "crit", NULL);
		}
		fputs("</g>\n", c->f);
		free(name);
	}
	for (size_t i = 0; i < c->sp->ninstants; i++) {
		const struct sp_instant *in = &c->sp->instants[i];
		double y;

		if (in->kind != SP_I_STAMP || in->target < (long)first ||
		    in->target >= (long)(first + n))
			continue;
		y = HEAD_H + (double)((size_t)in->target - first) * ROW_H;
		snprintf(tip, sizeof(tip), "rollback-to %s stamped on %s at %s",
			 in->label ? in->label : "", in->message ? in->message : "",
			 dur(in->t_ms, a));
		svg_line(c->f, tx(c, in->t_ms), y - 2, tx(c, in->t_ms), y + ROW_H + 2, "m-rollback", tip);
	}
	halt_marks(c, d, 0, h);
	svg_close(c->f);
}

/* A band of counts by phase over time for the @n targets from @first (large fleets). */
static void group_band(struct ctx *c, size_t d, long g, size_t first, size_t n, const char *title)
{
	size_t nb = (size_t)((c->x.r1 - c->x.r0) / BUCKET_PX);
	double h = HEAD_H + AGG_H + 4, bw = (c->x.r1 - c->x.r0) / (double)nb;
	double wms = (double)c->end_ms / (double)nb;
	long *diff = xcalloc((size_t)SP_NPHASES * (nb + 1), sizeof(*diff));
	char a[SVG_NUM_BUFSZ], tip[512], id[32];

	/* A target counts in bucket b when one of its spans holds the bucket's middle time. */
	for (size_t i = first; i < first + n; i++) {
		const struct sp_target *t = &c->sp->targets[i];

		for (size_t k = 0; k < t->nspans; k++) {
			const struct sp_span *s = &t->spans[k];
			double bs = ceil((double)s->start_ms / wms - 0.5);
			double be = ceil((double)s->end_ms / wms - 0.5);

			if (s->open_end)
				be = (double)nb;
			bs = bs < 0 ? 0 : bs > (double)nb ? (double)nb : bs;
			be = be < 0 ? 0 : be > (double)nb ? (double)nb : be;
			diff[(size_t)s->phase * (nb + 1) + (size_t)bs]++;
			diff[(size_t)s->phase * (nb + 1) + (size_t)be]--;
		}
	}
	for (size_t p = 0; p < SP_NPHASES; p++)
		for (size_t b = 1; b <= nb; b++)
			diff[p * (nb + 1) + b] += diff[p * (nb + 1) + b - 1];

	snprintf(id, sizeof(id), "g%d", c->nsvg++);
	svg_open(c->f, id, W, (int)h, title, "counts of targets by phase over time");
	fputs("<g class=\"agg\">\n", c->f);
	time_grid(c, 0, h);
	group_head(c, d, g, h);
	group_caption(c, g >= 0 ? &c->sp->drivers[d].groups[g] : NULL);
	snprintf(tip, sizeof(tip), "%zu target%s (counts by phase)", n, n == 1 ? "" : "s");
	svg_text(c->f, 16, HEAD_H + 14, "start", "lbl", tip, 0);
	for (size_t b = 0; b < nb; b++) {
		double y = HEAD_H + AGG_H;

		for (size_t p = 0; p < SP_NPHASES; p++) {
			long cnt = diff[p * (nb + 1) + b];
			bool thin;
			const char *cls = phase_class((enum sp_phase)p, &thin);
			double hh;

			if (cnt <= 0 || !cls)
				continue;
			hh = (double)cnt / (double)(n ? n : 1) * AGG_H;
			y -= hh;
			snprintf(tip, sizeof(tip), "%s at %s: %ld of %zu", sp_phase_name((enum sp_phase)p),
				 dur((int64_t)((double)b * wms + wms / 2), a), cnt, n);
			svg_rect(c->f, c->x.r0 + (double)b * bw, y, bw, hh, cls, tip);
		}
	}
	fputs("</g>\n", c->f);
	halt_marks(c, d, 0, h);
	svg_close(c->f);
	free(diff);
}

/*
 * Whether the timeline draws anything of legend class @cls: a legend that
 * lists soaks, gates and rollback stamps on a page of Workspaces only
 * explains what is not there.
 */
static bool drawn(const struct ctx *c, const char *cls)
{
	const struct sp_set *sp = c->sp;

	if (!strncmp(cls, "ph-", 3)) {
		for (size_t i = 0; i < sp->ntargets; i++)
			for (size_t k = 0; k < sp->targets[i].nspans; k++) {
				bool thin;
				const char *pc = phase_class(sp->targets[i].spans[k].phase, &thin);

				if (pc && !strcmp(pc, cls))
					return true;
			}
		return false;
	}
	for (size_t d = 0; d < sp->ndrivers; d++)
		for (size_t g = 0; g < sp->drivers[d].ngroups; g++) {
			const struct sp_group *gr = &sp->drivers[d].groups[g];

			if ((!strcmp(cls, "soak") && gr->settled_ms >= 0 && gr->soak_end_ms > gr->settled_ms) ||
			    (!strcmp(cls, "m-open") && gr->opened_ms >= 0) ||
			    (!strcmp(cls, "m-settle") && gr->settled_ms >= 0) ||
			    (!strcmp(cls, "crit") && gr->ntargets))
				return true;
		}
	for (size_t i = 0; i < sp->ninstants; i++) {
		const struct sp_instant *in = &sp->instants[i];

		if ((in->kind == SP_I_GATE && !strcmp(verdict_class(in->label), cls)) ||
		    (in->kind == SP_I_HALT && !strcmp(cls, "m-halt")) ||
		    (in->kind == SP_I_STAMP && !strcmp(cls, "m-rollback")))
			return true;
	}
	return false;
}

static void gantt(struct ctx *c)
{
	const struct sp_set *sp = c->sp;
	char label[512];
	bool any = false;

	fputs("<section tabindex=\"0\" id=\"gantt\"><h2>Timeline of the targets</h2>\n", c->f);
	if (!sp->ntargets) {
		fputs("<p class=\"empty\">No Workspaces or StageSets in this run: nothing to draw.</p>\n"
		      "</section>\n",
		      c->f);
		return;
	}
	{
		static const struct svg_legend_item items[] = {
			{ "ph-planning", "planning" },	   { "ph-approval", "awaiting approval" },
			{ "ph-applying", "applying" },	   { "ph-adopting", "adopting" },
			{ "soak", "soaking (wave)" },	   { "ph-rollback", "rolling back" },
			{ "ph-failed", "failed / not ready" }, { "ph-done", "applied / ready" },
			{ "v-pass", "gate Passing" },	   { "v-fail", "gate Failing" },
			{ "v-unknown", "gate Unknown" },   { "m-open", "opened" },
			{ "m-settle", "settled" },	   { "m-halt", "halt" },
			{ "m-rollback", "rollback stamp" }, { "crit", "critical path" },
		};
		struct svg_legend_item shown[sizeof(items) / sizeof(items[0])];
		size_t nshown = 0;

		for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
			if (drawn(c, items[i].cls))
				shown[nshown++] = items[i];
		fputs("<div class=\"legend-row\">", c->f);
		svg_open(c->f, "gantt-legend", W, 40, "legend of the timeline", NULL);
		svg_legend(c->f, 8, 14, W - 8, shown, nshown);
		svg_close(c->f);
		fputs("</div>\n<p class=\"tools\"><button type=\"button\" data-act=\"open\">expand all</button> "
		      "<button type=\"button\" data-act=\"close\">collapse all</button></p>\n",
		      c->f);
	}
	for (size_t d = 0; d < sp->ndrivers; d++) {
		const struct sp_driver *dr = &sp->drivers[d];
		bool agg = dr->ntargets > REP_HTML_MAX_ROWS;
		size_t grouped = 0;

		if (!dr->ntargets && !dr->ngroups)
			continue;
		any = true;
		sp_driver_label(dr, label, sizeof(label));
		fputs("<div class=\"driver\"><h3>", c->f);
		svg_escape(c->f, label);
		fprintf(c->f, " <small>%zu target%s%s</small></h3>\n", dr->ntargets,
			dr->ntargets == 1 ? "" : "s",
			agg ? "; counts by phase per step/wave (too many for one row each)" : "");
		time_axis_svg(c, "time since the start of the change");
		for (size_t g = 0; g <= dr->ngroups; g++) {
			const struct sp_group *gr = g < dr->ngroups ? &dr->groups[g] : NULL;
			size_t first = gr ? gr->first : dr->first + grouped, n = gr ? gr->ntargets : dr->ntargets - grouped;
			char title[512];

			if (gr)
				grouped += gr->ntargets;
			if (!gr && !n)
				continue;
			snprintf(title, sizeof(title), "%s %s",
				 gr ? (dr->kind && !strcmp(dr->kind, "FleetRollout") ? "wave" : "step") : "",
				 gr ? gr->name : (dr->kind ? "(in no step or wave)" : "targets"));
			fprintf(c->f, "<details class=\"group\" open><summary>");
			svg_escape(c->f, title);
			fprintf(c->f, " <small>(%zu)</small></summary>\n", n);
			if (agg)
				group_band(c, d, gr ? (long)g : -1, first, n, title);
			else
				group_rows(c, d, gr ? (long)g : -1, first, n, title);
			fputs("</details>\n", c->f);
		}
		fputs("</div>\n", c->f);
	}
	if (!any)
		fputs("<p class=\"empty\">Nothing to draw.</p>\n", c->f);
	fputs("</section>\n", c->f);
}

/* Parses a threshold bound as written; false when absent or not a number. */
static bool bound(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !*end && errno == 0 && isfinite(*v);
}

static void gate_chart(struct ctx *c, const struct sp_counter *ct)
{
	const struct sp_driver *dr = &c->sp->drivers[ct->driver];
	const struct sp_group *gr = &dr->groups[ct->group];
	struct svg_frame fr = { 70, W - RIGHT, 34, 190 };
	struct ctx cc = *c;
	double lo = INFINITY, hi = -INFINITY, mn = 0, mx = 0, *xs, *ys;
	bool has_min = false, has_max = false;
	long last_px[3] = { -1, -1, -1 };
	char title[512], drv[256], a[SVG_NUM_BUFSZ], v[SVG_NUM_BUFSZ], tip[1024], id[32];
	struct svg_scale y;
	static const struct svg_legend_item items[] = {
		{ "series", "metric" }, { "band", "passing range" }, { "v-pass", "Passing" },
		{ "v-fail", "Failing" }, { "v-unknown", "Unknown" },
	};

	cc.x = (struct svg_scale){ 0, (double)(c->end_ms ? c->end_ms : 1), fr.x0, fr.x1 };
	for (size_t i = 0; i < ct->npoints; i++) {
		lo = fmin(lo, ct->points[i].value);
		hi = fmax(hi, ct->points[i].value);
	}
	for (size_t i = 0; i < c->sp->ninstants; i++) {
		const struct sp_instant *in = &c->sp->instants[i];

		if (in->kind != SP_I_GATE || in->driver != (size_t)ct->driver || in->group != ct->group)
			continue;
		if (!has_min && bound(in->min, &mn))
			has_min = true;
		if (!has_max && bound(in->max, &mx))
			has_max = true;
	}
	if (has_min) {
		lo = fmin(lo, mn);
		hi = fmax(hi, mn);
	}
	if (has_max) {
		lo = fmin(lo, mx);
		hi = fmax(hi, mx);
	}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	if (lo > 0 && lo < (hi - lo))
		lo = 0; /* start at zero when that costs less than the range */
	{
		double ticks[64], step;
		size_t nt = svg_ticks_num(lo, hi, (size_t)((fr.y1 - fr.y0) / 30) + 1, ticks, 64, &step);

		lo = ticks[0];
		hi = ticks[nt - 1];
	}
	y = (struct svg_scale){ lo, hi, fr.y1, fr.y0 };
	sp_driver_label(dr, drv, sizeof(drv));
	snprintf(title, sizeof(title), "gate of wave %s (%s): metric over time", gr->name, drv);
	snprintf(id, sizeof(id), "gate-%d", c->nsvg++);
	fputs("<figure class=\"gate\">", c->f);
	svg_open(c->f, id, W, 240, title, "the gate query's value at each evaluation, the threshold as a band, each evaluation coloured by its verdict");
	svg_text(c->f, 8, 14, "start", "grp", title, 0);
	if (has_min || has_max) {
		double top = has_max ? svg_map(&y, mx) : fr.y0, bot = has_min ? svg_map(&y, mn) : fr.y1;

		snprintf(tip, sizeof(tip), "passing range:%s%s%s%s", has_min ? " min " : "",
			 has_min ? svg_fmt_num(mn, 6, a, sizeof(a)) : "", has_max ? " max " : "",
			 has_max ? svg_fmt_num(mx, 6, v, sizeof(v)) : "");
		svg_rect(c->f, fr.x0, top, fr.x1 - fr.x0, bot - top, "band", tip);
		/*
		 * Each bound as a bold line with its value written on it: a 0.01
		 * limit on a 0..0.2 axis is a few pixels of band, easy to miss.
		 */
		if (has_max) {
			snprintf(tip, sizeof(tip), "max %s", svg_fmt_num(mx, 6, a, sizeof(a)));
			svg_line(c->f, fr.x0, top, fr.x1, top, "thr", tip);
			svg_text(c->f, fr.x1 - 4, top - 4, "end", "thr-lbl", tip, 0);
		}
		if (has_min) {
			snprintf(tip, sizeof(tip), "min %s", svg_fmt_num(mn, 6, a, sizeof(a)));
			svg_line(c->f, fr.x0, bot, fr.x1, bot, "thr", tip);
			svg_text(c->f, fr.x1 - 4, bot + 13, "end", "thr-lbl", tip, 0);
		}
	}
	svg_axis_num(c->f, &fr, lo, hi, "value", false);
	svg_axis_time(c->f, &fr, 0, c->end_ms, "time since the start of the change");
	xs = xcalloc(ct->npoints ? ct->npoints : 1, sizeof(*xs));
	ys = xcalloc(ct->npoints ? ct->npoints : 1, sizeof(*ys));
	{
		/* Per pixel column the first, lowest, highest and last point: the line looks the same. */
		size_t n = 0, i = 0;

		while (i < ct->npoints) {
			long px = lround(tx(&cc, ct->points[i].t_ms));
			size_t j = i, lo_i = i, hi_i = i;
			size_t keep[4];

			while (j < ct->npoints && lround(tx(&cc, ct->points[j].t_ms)) == px) {
				if (ct->points[j].value < ct->points[lo_i].value)
					lo_i = j;
				if (ct->points[j].value > ct->points[hi_i].value)
					hi_i = j;
				j++;
			}
			keep[0] = i;
			keep[1] = lo_i < hi_i ? lo_i : hi_i;
			keep[2] = lo_i < hi_i ? hi_i : lo_i;
			keep[3] = j - 1;
			for (int k = 0; k < 4; k++) {
				if (k && keep[k] == keep[k - 1])
					continue;
				xs[n] = tx(&cc, ct->points[keep[k]].t_ms);
				ys[n++] = svg_map(&y, ct->points[keep[k]].value);
			}
			i = j;
		}
		svg_polyline(c->f, xs, ys, n, "series");
	}
	free(xs);
	free(ys);
	for (size_t i = 0; i < c->sp->ninstants; i++) {
		const struct sp_instant *in = &c->sp->instants[i];
		double x;

		if (in->kind != SP_I_GATE || in->driver != (size_t)ct->driver || in->group != ct->group)
			continue;
		x = tx(&cc, in->t_ms);
		if (thin_px(last_px, verdict_class(in->label), x))
			continue;
		snprintf(tip, sizeof(tip), "%s at %s: %s%s%s", in->label ? in->label : "",
			 dur(in->t_ms, a), in->has_value ? svg_fmt_num(in->value, 6, v, sizeof(v)) : "no value",
			 in->message ? ": " : "", in->message ? in->message : "");
		if (in->has_value)
			svg_circle(c->f, x, svg_map(&y, in->value), 3, verdict_class(in->label), tip);
		else
			svg_line(c->f, x, fr.y1 - 8, x, fr.y1, verdict_class(in->label), tip);
	}
	halt_marks(&cc, (size_t)ct->driver, fr.y0, fr.y1);
	svg_legend(c->f, fr.x0, 230, W - RIGHT, items, sizeof(items) / sizeof(items[0]));
	svg_close(c->f);
	fputs("</figure>\n", c->f);
}

static void gates(struct ctx *c)
{
	bool any = false, fleet = false;

	/* Only a FleetRollout has gates: a page of Rollouts has no Gates section. */
	for (size_t d = 0; d < c->sp->ndrivers; d++)
		fleet |= c->sp->drivers[d].kind && !strcmp(c->sp->drivers[d].kind, "FleetRollout");
	if (!fleet)
		return;
	fputs("<section tabindex=\"0\" id=\"gates\"><h2>Gates</h2>\n", c->f);
	for (size_t i = 0; i < c->sp->ncounters; i++) {
		const struct sp_counter *ct = &c->sp->counters[i];

		if (ct->driver < 0 || ct->group < 0)
			continue;
		any = true;
		gate_chart(c, ct);
	}
	if (!any)
		fputs("<p class=\"empty\">No gate was evaluated with a value in this run.</p>\n", c->f);
	fputs("</section>\n", c->f);
}

/*
 * @capacity: a dashed line at this count (0: none); @cap_tip its tooltip
 * and @cap_label the text on it, before the count.
 */
static void conc_chart(struct ctx *c, const struct sp_counter *ct, uint32_t capacity,
		       const char *cap_tip, const char *cap_label)
{
	struct svg_frame fr = { 70, W - RIGHT, 34, 170 };
	struct ctx cc = *c;
	double hi = capacity, *xs, *ys;
	size_t n = 0, np = ct->npoints;
	char title[512], drv[256], id[32], num[SVG_NUM_BUFSZ];
	struct svg_scale y;

	cc.x = (struct svg_scale){ 0, (double)(c->end_ms ? c->end_ms : 1), fr.x0, fr.x1 };
	for (size_t i = 0; i < np; i++)
		hi = fmax(hi, ct->points[i].value);
	if (hi < 1)
		hi = 1;
	{
		double ticks[64], step;
		size_t nt = svg_ticks_num(0, hi, (size_t)((fr.y1 - fr.y0) / 30) + 1, ticks, 64, &step);

		hi = ticks[nt - 1];
	}
	y = (struct svg_scale){ 0, hi, fr.y1, fr.y0 };
	if (ct->driver >= 0)
		snprintf(title, sizeof(title), "%s of %s over time", ct->name,
			 sp_driver_label(&c->sp->drivers[ct->driver], drv, sizeof(drv)));
	else
		snprintf(title, sizeof(title), "%s over time", ct->name);
	snprintf(id, sizeof(id), "conc-%d", c->nsvg++);
	fputs("<figure class=\"conc-fig\">", c->f);
	svg_open(c->f, id, W, 220, title, NULL);
	svg_text(c->f, 8, 14, "start", "grp", title, 0);
	svg_axis_num(c->f, &fr, 0, hi, "count", true);
	svg_axis_time(c->f, &fr, 0, c->end_ms, "time since the start of the change");
	/*
	 * A step function as a filled outline, up and across at every change;
	 * where several changes fall in one pixel column, the column shows the
	 * highest value reached in it and then the last (a peak is never lost).
	 */
	xs = xcalloc(4 * np + 4, sizeof(*xs));
	ys = xcalloc(4 * np + 4, sizeof(*ys));
	xs[n] = fr.x0;
	ys[n++] = fr.y1;
	{
		double prev = 0;
		size_t i = 0;

		while (i < np) {
			long px = lround(tx(&cc, ct->points[i].t_ms));
			double x = tx(&cc, ct->points[i].t_ms), peak = ct->points[i].value;
			size_t j = i;

			while (j < np && lround(tx(&cc, ct->points[j].t_ms)) == px) {
				peak = fmax(peak, ct->points[j].value);
				j++;
			}
			xs[n] = x;
			ys[n++] = svg_map(&y, prev);
			xs[n] = x;
			ys[n++] = svg_map(&y, peak);
			prev = ct->points[j - 1].value;
			if (prev != peak) {
				xs[n] = x + 1;
				ys[n++] = svg_map(&y, peak);
				xs[n] = x + 1;
				ys[n++] = svg_map(&y, prev);
			}
			i = j;
		}
		xs[n] = fr.x1;
		ys[n++] = svg_map(&y, prev);
	}
	xs[n] = fr.x1;
	ys[n++] = fr.y1;
	svg_polyline(c->f, xs, ys, n, "conc");
	free(xs);
	free(ys);
	if (capacity) {
		char tip[128];

		svg_line(c->f, fr.x0, svg_map(&y, capacity), fr.x1, svg_map(&y, capacity), "cap-line",
			 cap_tip);
		snprintf(tip, sizeof(tip), "%s %s", cap_label, svg_fmt_num(capacity, 0, num, sizeof(num)));
		svg_text(c->f, fr.x1 - 4, svg_map(&y, capacity) - 4, "end", "lbl", tip, 0);
	}
	svg_close(c->f);
	fputs("</figure>\n", c->f);
}

static void concurrency(struct ctx *c)
{
	bool any = false;
	char tip[256];

	fputs("<section tabindex=\"0\" id=\"concurrency\"><h2>Concurrency</h2>\n", c->f);
	for (size_t i = 0; i < c->sp->ncounters; i++) {
		const struct sp_counter *ct = &c->sp->counters[i];

		bool nonzero = false;

		if (ct->group >= 0)
			continue;
		for (size_t k = 0; k < ct->npoints; k++)
			nonzero |= ct->points[k].value != 0;
		if (!nonzero && !(ct->driver < 0 && c->run->capacity.capacity))
			continue;
		any = true;
		if (ct->driver < 0) {
			snprintf(tip, sizeof(tip), "runner capacity %" PRIu32, c->run->capacity.capacity);
			conc_chart(c, ct, c->run->capacity.capacity, tip, "capacity");
		} else if (strcmp(ct->series, "members") == 0) {
			snprintf(tip, sizeof(tip),
				 "StageSet controller workers %" PRIu32 " (concurrentReconciles): at "
				 "most this many adoption passes hold a worker at once, the others "
				 "wait in its queue",
				 c->run->stageset_workers);
			conc_chart(c, ct, c->run->stageset_workers, tip, "StageSet workers");
		} else {
			conc_chart(c, ct, 0, "", "");
		}
	}
	if (!any)
		fputs("<p class=\"empty\">No Jobs ran and no member adopted in this run.</p>\n", c->f);
	fputs("</section>\n", c->f);
}

/* A list of names, at most MAX_BLAST_NAMES of them. */
static void name_list(FILE *f, char *const *v, size_t n)
{
	fputs("<ul class=\"names\">", f);
	for (size_t i = 0; i < n && i < MAX_BLAST_NAMES; i++) {
		fputs("<li>", f);
		svg_escape(f, v[i]);
		fputs("</li>", f);
	}
	if (n > MAX_BLAST_NAMES)
		fprintf(f, "<li>… and %zu more (see --json)</li>", n - MAX_BLAST_NAMES);
	fputs("</ul>\n", f);
}

/* Distinct notices listed at most (engine quirks, warnings, errors). */
#define MAX_NOTICES 40

/*
 * What the run ran into, each distinct text once with how often and when
 * first: the engine quirks (info notices, in plain words), the warnings and
 * errors.  The terminal summary shows only the warnings.
 */
static void notices(struct ctx *c)
{
	const struct tl *tl = c->run->tl;
	size_t nn = tl ? tl_notice_count(tl) : 0, nd = 0, more = 0;
	size_t first[MAX_NOTICES], times[MAX_NOTICES];
	char a[SVG_NUM_BUFSZ];

	for (size_t i = 0; i < nn; i++) {
		struct tl_notice n, p;
		size_t k;

		tl_notice_get(tl, i, &n);
		for (k = 0; k < nd; k++) {
			tl_notice_get(tl, first[k], &p);
			if (p.severity == n.severity && !strcmp(p.text, n.text))
				break;
		}
		if (k < nd) {
			times[k]++;
		} else if (nd < MAX_NOTICES) {
			first[nd] = i;
			times[nd++] = 1;
		} else {
			more++;
		}
	}
	if (!nd)
		return;
	fputs("<h3>What the run ran into: engine behaviour worth knowing, warnings</h3>\n<ul class=\"notices\">\n", c->f);
	for (size_t k = 0; k < nd; k++) {
		struct tl_notice n;

		tl_notice_get(tl, first[k], &n);
		fprintf(c->f, "<li class=\"sev-%s\"><strong>%s</strong> at %s", tl_severity_name(n.severity),
			n.severity == TL_INFO ? "note" : tl_severity_name(n.severity),
			dur(n.t_ms, a));
		if (times[k] > 1)
			fprintf(c->f, " (%zu times)", times[k]);
		fputs(": ", c->f);
		svg_escape(c->f, n.text);
		fputs("</li>\n", c->f);
	}
	if (more)
		fprintf(c->f, "<li>… and %zu more notices (see the timeline or --json)</li>\n", more);
	fputs("</ul>\n", c->f);
}

static void summary(struct ctx *c)
{
	const struct rep_run *run = c->run;
	struct rep_text_opts to = { false, true, 100, REP_TL_NONE };
	char *buf = NULL;
	size_t len = 0, n = 0;
	FILE *m = run->tl && run->summary ? open_memstream(&buf, &len) : NULL;

	fputs("<section tabindex=\"0\" id=\"summary\"><h2>Summary</h2>\n<pre class=\"summary\">", c->f);
	if (m) {
		rep_text(m, run, &to);
		fclose(m);
		svg_escape(c->f, buf);
		free(buf);
	}
	fputs("</pre>\n", c->f);
	notices(c);
	if (run->obs) {
		const struct obs_rollout *ro = obs_rollouts(run->obs, &n);

		for (size_t i = 0; i < n; i++) {
			if (!ro[i].halted)
				continue;
			fputs("<details class=\"blast\"><summary>Blast radius of Rollout ", c->f);
			svg_escape(c->f, ro[i].ns);
			fputc('/', c->f);
			svg_escape(c->f, ro[i].name);
			if (ro[i].halted_before_start && !ro[i].blast_known) {
				/* who had begun applying by then: neither carried nor told by the objects */
				fprintf(c->f, ": not known of %zu Workspaces</summary>\n<p>The Rollout "
					"was halted when loaded: the halt predates the run.</p>\n",
					ro[i].blast_total);
				fputs("</details>\n", c->f);
				continue;
			}
			fprintf(c->f, ": %zu of %zu Workspaces</summary>\n", ro[i].nblast, ro[i].blast_total);
			name_list(c->f, ro[i].blast, ro[i].nblast);
			fputs("</details>\n", c->f);
		}
	}
	if (run->fleets) {
		const struct fo_fleet *fl = fo_fleets(run->fleets, &n);

		for (size_t i = 0; i < n; i++) {
			if (fl[i].halted_before_start) {
				/* who had taken the bad version by then is history the store does not keep */
				fputs("<details class=\"blast\"><summary>Blast radius of FleetRollout ", c->f);
				svg_escape(c->f, fl[i].name);
				fputs(": not known</summary>\n<p>The FleetRollout was Halted when loaded: "
				      "the halt predates the run.</p>\n</details>\n", c->f);
				continue;
			}
			if (!fl[i].has_blast)
				continue;
			fputs("<details class=\"blast\"><summary>Blast radius of FleetRollout ", c->f);
			svg_escape(c->f, fl[i].name);
			fprintf(c->f, ": %zu of %zu members on ", fl[i].blast_count, fl[i].blast_total);
			svg_escape(c->f, fl[i].bad_version);
			fputs("</summary>\n", c->f);
			name_list(c->f, fl[i].blast_members, fl[i].blast_count);
			fputs("</details>\n", c->f);
		}
	}
	fputs("</section>\n", c->f);
}

static bool event_kind(const char *k)
{
	return k && (!strcmp(k, "Rollout") || !strcmp(k, "FleetRollout") || !strcmp(k, "Project") ||
		     !strcmp(k, "Workspace") || !strcmp(k, "StageSet"));
}

static void events(struct ctx *c)
{
	const struct tl *tl = c->run->tl;
	size_t n = tl ? tl_count(tl) : 0, shown = 0, left = 0;
	bool many = c->sp->ntargets > REP_HTML_MAX_ROWS;
	char a[SVG_NUM_BUFSZ];

	fputs("<section tabindex=\"0\" id=\"events\"><h2>Events</h2>\n"
	      "<p class=\"tools\"><label>Filter <input id=\"filter\" type=\"search\" "
	      "placeholder=\"text in any column\"></label> <span id=\"shown\"></span></p>\n"
	      "<table class=\"events\"><thead><tr><th>time</th><th>object</th><th>change</th>"
	      "<th>phase</th><th>reason</th><th>message</th></tr></thead><tbody>\n",
	      c->f);
	for (size_t i = 0; i < n; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (!event_kind(e.kind))
			continue;
		/* A large fleet's creations at load time say nothing a reader follows. */
		if (many && e.change == TL_CREATED &&
		    (!strcmp(e.kind, "Workspace") || !strcmp(e.kind, "StageSet")))
			continue;
		if (shown == REP_HTML_MAX_EVENTS) {
			left++;
			continue;
		}
		shown++;
		fprintf(c->f, "<tr><td>%s</td><td>", dur(e.t_ms, a));
		svg_escape(c->f, e.kind);
		fputc(' ', c->f);
		if (e.ns && *e.ns) {
			svg_escape(c->f, e.ns);
			fputc('/', c->f);
		}
		svg_escape(c->f, e.name);
		fprintf(c->f, "</td><td>%s</td><td>", tl_change_name(e.change));
		svg_escape(c->f, e.phase);
		fputs("</td><td>", c->f);
		svg_escape(c->f, e.reason);
		fputs("</td><td>", c->f);
		svg_escape(c->f, e.message);
		fputs("</td></tr>\n", c->f);
	}
	fputs("</tbody></table>\n", c->f);
	if (left)
		fprintf(c->f, "<p class=\"note\">%zu more events not shown (the first %d are); "
			      "the JSON report (--json) has all of them.</p>\n",
			left, REP_HTML_MAX_EVENTS);
	fputs("</section>\n", c->f);
}

static const char page_css[] =
	"html{color-scheme:light dark}\n"
	"body{margin:0 auto;max-width:1280px;padding:16px;background:var(--bg);color:var(--fg);"
	"font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}\n"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--grid)}\n"
	"h3{font-size:15px;margin:18px 0 4px}small{color:var(--muted);font-weight:normal}\n"
	".meta{color:var(--muted);margin:0}\n"
	"pre.summary{background:var(--panel);padding:10px;overflow-x:auto;font-size:12.5px;white-space:pre-wrap}\n"
	"details.group>summary{cursor:pointer;font-weight:600;padding:2px 0}\n"
	"details.group{margin:0 0 2px}\n"
	"svg.chart{display:block;max-width:100%;height:auto}\n"
	/*
	 * On a narrow screen the charts keep a legible size and scroll sideways
	 * (at 390 px, shrunk to fit, their 11 px text became 3 to 4 px), and so
	 * do the tables: every section is a horizontal scroll container.
	 */
	"main section{overflow-x:auto}\n"
	"@media (max-width:900px){svg.chart{max-width:none;width:900px}}\n"
	".chart .grp{font-weight:600}\n"
	".chart .crit-lbl{fill:var(--crit);font-weight:600}\n"
	".chart .hit{fill:transparent}\n"
	".chart .row:hover .hit{fill:var(--panel)}\n"
	".ph-rollback{fill:var(--rollback)}\n"
	"figure{margin:8px 0}\n"
	"table.events{border-collapse:collapse;width:100%;font-size:12.5px}\n"
	"table.events th,table.events td{border-bottom:1px solid var(--grid);padding:2px 6px;text-align:left;vertical-align:top}\n"
	"table.events td:nth-child(6){overflow-wrap:anywhere}\n"
	"table.events td:nth-child(1),table.events td:nth-child(3){white-space:nowrap}\n"
	"table.events td:nth-child(2){overflow-wrap:anywhere;min-width:14em}\n"
	"ul.names{columns:3 16em;font-size:12.5px}\n"
	"ul.notices{font-size:13px;padding-left:1.2em}ul.notices .sev-warning strong{color:var(--unknown)}\n"
	"ul.notices .sev-error strong{color:var(--fail)}ul.notices .sev-info strong{color:var(--open)}\n"
	"#tip{position:fixed;z-index:9;pointer-events:none;max-width:480px;background:var(--panel);"
	"color:var(--fg);border:1px solid var(--grid);padding:4px 8px;font-size:12px;border-radius:4px}\n"
	"input,button{font:inherit;color:inherit;background:var(--panel);border:1px solid var(--grid)}\n"
	"@media print{.tools,#tip{display:none}details.group{break-inside:avoid}body{max-width:none}}\n";

/* Filter, hover details, expand/collapse, open everything for printing; errors marked on <html>. */
static const char page_js[] =
	"(function(){var h=document.documentElement;"
	"function fail(m){h.setAttribute('data-js-error',String(m));}"
	"window.addEventListener('error',function(e){fail(e.message||'error');});"
	"try{"
	"var q=document.getElementById('filter'),rows=document.querySelectorAll('#events tbody tr'),"
	"sh=document.getElementById('shown');"
	"if(q)q.addEventListener('input',function(){var v=q.value.toLowerCase(),n=0;"
	"for(var i=0;i<rows.length;i++){var m=!v||rows[i].textContent.toLowerCase().indexOf(v)>=0;"
	"rows[i].hidden=!m;if(m)n++;}sh.textContent=v?n+' of '+rows.length+' shown':'';});"
	"var tip=document.getElementById('tip');"
	"document.addEventListener('mousemove',function(e){var t=e.target,s=null;"
	"if(t&&t.namespaceURI==='http://www.w3.org/2000/svg'&&t.tagName!=='svg'){"
	"for(var k=t.firstChild;k;k=k.nextSibling)if(k.nodeName==='title'){s=k;break;}}"
	"if(s){tip.textContent=s.textContent;tip.style.left=Math.min(e.clientX+14,innerWidth-300)+'px';"
	"tip.style.top=(e.clientY+14)+'px';tip.hidden=false;}else tip.hidden=true;});"
	"var all=document.querySelectorAll('details.group');"
	"function setAll(o){for(var i=0;i<all.length;i++)all[i].open=o;}"
	"document.querySelectorAll('button[data-act]').forEach(function(b){"
	"b.addEventListener('click',function(){setAll(b.getAttribute('data-act')==='open');});});"
	"window.addEventListener('beforeprint',function(){setAll(true);});"
	"h.setAttribute('data-js','ok');"
	"}catch(e){fail(e);}})();\n";

/* Whether the timeline shows a Workspace or StageSet (at its first entry: loading creates them). */
static bool has_targets(const struct tl *tl)
{
	size_t n = tl ? tl_count(tl) : 0;

	for (size_t i = 0; i < n; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (e.kind && (!strcmp(e.kind, "Workspace") || !strcmp(e.kind, "StageSet")))
			return true;
	}
	return false;
}

int rep_html(FILE *f, const struct rep_run *run)
{
	struct sp_set sp;
	int rc;

	/*
	 * sp_build() sorts its targets with qsort(NULL, 0, ...) when there are
	 * none, which UBSan rejects; a run without targets has nothing to draw
	 * from the spans anyway, so it gets an empty set.
	 */
	memset(&sp, 0, sizeof(sp));
	if (has_targets(run->tl))
		sp_build(&sp, run);
	sp.end_ms = run->end_ms;
	rc = rep_html_sp(f, run, &sp);
	sp_release(&sp);
	return rc;
}

int rep_html_sp(FILE *f, const struct rep_run *run, const struct sp_set *sp)
{
	struct ctx c;
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ];

	memset(&c, 0, sizeof(c));
	c.f = f;
	c.run = run;
	c.sp = sp;
	c.end_ms = run->end_ms > sp->end_ms ? run->end_ms : sp->end_ms;
	if (c.end_ms < 1)
		c.end_ms = 1;
	c.x = (struct svg_scale){ 0, (double)c.end_ms, LABEL_W, W - RIGHT };

	rep_html_page_open(f, run->name ? run->name : "run", "run", NULL);
	fputs("<header><h1>", f);
	svg_escape(f, run->name ? run->name : "run");
	fprintf(f, "</h1>\n<p class=\"meta\">magos-sim run, seed %" PRIu64 ", horizon %s; stopped at %s (",
		run->seed, dur(run->horizon_ms, a), dur(run->end_ms, b));
	svg_escape(f, run->stop);
	fprintf(f, ") after %" PRIu64 " event%s; %zu target%s.</p>\n</header>\n", run->events,
		run->events == 1 ? "" : "s", sp->ntargets, sp->ntargets == 1 ? "" : "s");
	summary(&c);
	gantt(&c);
	gates(&c);
	concurrency(&c);
	events(&c);
	return rep_html_page_close(f);
}

void rep_html_page_open(FILE *f, const char *title, const char *kind, const char *extra_css)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>",
	      f);
	svg_escape(f, title);
	fputs(" — magos-sim ", f);
	svg_escape(f, kind);
	fputs("</title>\n<style>\n", f);
	svg_css(f);
	fputs(page_css, f);
	if (extra_css)
		fputs(extra_css, f);
	fputs("</style>\n</head>\n<body>\n<div id=\"tip\" hidden></div>\n<main>\n", f);
}

int rep_html_page_close(FILE *f)
{
	fputs("</main>\n<script>\n", f);
	fputs(page_js, f);
	fputs("</script>\n</body>\n</html>\n", f);
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
