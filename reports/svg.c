/*
 * The SVG writer.  Coordinates are printed with one decimal (svg_fmt_num),
 * so the same chart gives the same bytes; every colour comes from a CSS
 * class defined once in svg_css().
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "reports/svg.h"

/* Pixels per character of the 11 px sans-serif labels, an estimate on the wide side. */
#define CHAR_PX 6.6

void svg_escape(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				c = ' ';
			fputc(c, f);
		}
	}
}

void svg_escape_max(FILE *f, const char *s, size_t max)
{
	size_t chars = 0, i;

	if (!s)
		return;
	if (!max) {
		svg_escape(f, s);
		return;
	}
	/* Count characters (UTF-8 lead bytes) up to max + 1. */
	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (chars == max)
				break;
			chars++;
		}
	}
	if (!s[i]) {
		svg_escape(f, s);
		return;
	}
	/* Cut before the character that would make it max: room for the ellipsis. */
	{
		size_t keep = 0, n = 0;

		for (i = 0; s[i]; i++) {
			if (((unsigned char)s[i] & 0xc0) != 0x80) {
				if (n + 1 == max)
					break;
				n++;
			}
			keep = i + 1;
		}
		for (i = 0; i < keep; i++) {
			char one[2] = { s[i], '\0' };

			svg_escape(f, one);
		}
		fputs("…", f);
	}
}

char *svg_fmt_num(double v, int decimals, char *buf, size_t len)
{
	char *p;

	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, v > 0 ? "Inf" : "-Inf");
		return buf;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	if (fabs(v) >= 1e15) {
		snprintf(buf, len, "%.6g", v);
		return buf;
	}
	snprintf(buf, len, "%.*f", decimals, v);
	if (strchr(buf, '.')) {
		p = buf + strlen(buf) - 1;
		while (*p == '0')
			*p-- = '\0';
		if (*p == '.')
			*p = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, len, "0");
	return buf;
}

char *svg_fmt_duration(int64_t ms, char *buf, size_t len)
{
	static const struct {
		int64_t ms;
		const char *unit;
	} units[] = {
		{ 86400000, "d" }, { 3600000, "h" }, { 60000, "m" }, { 1000, "s" },
	};
	uint64_t u;
	size_t used = 0;
	int parts = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (ms == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	if (ms < 0) {
		used += (size_t)snprintf(buf, len, "-");
		u = (uint64_t)(-(ms + 1)) + 1;
	} else {
		u = (uint64_t)ms;
	}
	if (u < 1000) {
		snprintf(buf + used, len - used, "%" PRIu64 "ms", u);
		return buf;
	}
	if (u < 60000) {
		/* Seconds with the milliseconds as a decimal fraction, trailing zeros dropped. */
		char num[SVG_NUM_BUFSZ];

		svg_fmt_num((double)u / 1000.0, 3, num, sizeof(num));
		snprintf(buf + used, len - used, "%ss", num);
		return buf;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]) && parts < 2; i++) {
		uint64_t q = u / (uint64_t)units[i].ms;

		if (q == 0) {
			if (parts)
				break; /* two adjacent units only: 1d0h5m prints 1d */
			continue;
		}
		u %= (uint64_t)units[i].ms;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%" PRIu64 "%s", q,
						 units[i].unit);
		parts++;
	}
	return buf;
}

size_t svg_ticks_num(double lo, double hi, size_t max, double *out, size_t cap, double *step)
{
	static const double mult[] = { 1, 2, 5 };
	double span, mag, st = 1, first;
	size_t n = 0;

	if (!(lo <= hi) || !isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (lo == hi) {
		lo -= 0.5;
		hi += 0.5;
	}
	if (max < 2)
		max = 2;
	span = hi - lo;
	mag = pow(10, floor(log10(span / (double)(max - 1))) - 1);
	for (int k = 0; k < 40; k++) {
		st = mult[k % 3] * mag * pow(10, k / 3);
		/* Ticks from floor(lo/st) to ceil(hi/st), both included. */
		if (ceil(hi / st - 1e-9) - floor(lo / st + 1e-9) + 1 <= (double)max)
			break;
	}
	first = floor(lo / st + 1e-9) * st;
	for (double v = first; n < cap; v = first + (double)n * st) {
		/* Snap to the step's grid so 0.1 * 3 prints 0.3. */
		double r = round(v / st) * st;

		out[n++] = fabs(r) < st * 1e-9 ? 0 : r;
		if (r >= hi - st * 1e-9)
			break;
	}
	if (step)
		*step = st;
	return n;
}

/* Floor division for a possibly negative @a, @b > 0. */
static int64_t floordiv(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && a < 0);
}

/* How many ticks of step @st cover [@lo, @hi]: from floor(lo/st) to ceil(hi/st). */
static int64_t time_ticks(int64_t lo, int64_t hi, int64_t st)
{
	return -floordiv(-hi, st) - floordiv(lo, st) + 1;
}

size_t svg_ticks_time(int64_t lo, int64_t hi, size_t max, int64_t *out, size_t cap,
		      int64_t *step)
{
	static const int64_t steps[] = {
		1, 2, 5, 10, 20, 50, 100, 200, 500,
		1000, 2000, 5000, 10000, 15000, 30000,
		60000, 120000, 300000, 600000, 900000, 1800000,
		3600000, 7200000, 10800000, 21600000, 43200000,
		86400000, 172800000, 604800000, 1209600000, 2419200000,
	};
	size_t nsteps = sizeof(steps) / sizeof(steps[0]);
	int64_t st = 0, first;
	size_t n = 0;

	if (hi < lo)
		hi = lo;
	if (hi == lo)
		hi = lo + 1;
	if (max < 2)
		max = 2;
	for (size_t i = 0; i < nsteps; i++) {
		st = steps[i];
		if (time_ticks(lo, hi, st) <= (int64_t)max)
			break;
	}
	if (time_ticks(lo, hi, st) > (int64_t)max) {
		/* Beyond four weeks a tick: multiples of 28 d. */
		int64_t k = 1;

		while (time_ticks(lo, hi, st * k) > (int64_t)max)
			k *= 2;
		st *= k;
	}
	first = floordiv(lo, st) * st;
	for (int64_t v = first; n < cap; v += st) {
		out[n++] = v;
		if (v >= hi)
			break;
	}
	if (step)
		*step = st;
	return n;
}

double svg_map(const struct svg_scale *s, double v)
{
	if (s->d1 == s->d0)
		return s->r0;
	return s->r0 + (v - s->d0) * (s->r1 - s->r0) / (s->d1 - s->d0);
}

/* One coordinate: one decimal at most. */
static const char *co(double v, char *buf)
{
	return svg_fmt_num(v, 1, buf, SVG_NUM_BUFSZ);
}

static void class_attr(FILE *f, const char *cls)
{
	if (cls) {
		fputs(" class=\"", f);
		svg_escape(f, cls);
		fputc('"', f);
	}
}

/* Ends an element: "/>" without a tip, else ">" <title>tip</title> "</name>". */
static void end_el(FILE *f, const char *name, const char *tip)
{
	if (!tip) {
		fputs("/>\n", f);
		return;
	}
	fputs("><title>", f);
	svg_escape(f, tip);
	fprintf(f, "</title></%s>\n", name);
}

void svg_open(FILE *f, const char *id, int w, int h, const char *title, const char *desc)
{
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\"", f);
	if (id) {
		fputs(" id=\"", f);
		svg_escape(f, id);
		fputs("\" aria-labelledby=\"", f);
		svg_escape(f, id);
		fputs("-title\"", f);
	}
	fprintf(f, " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n<title", w, h, w, h);
	if (id) {
		fputs(" id=\"", f);
		svg_escape(f, id);
		fputs("-title\"", f);
	}
	fputc('>', f);
	svg_escape(f, title);
	fputs("</title>\n", f);
	if (desc) {
		fputs("<desc>", f);
		svg_escape(f, desc);
		fputs("</desc>\n", f);
	}
}

void svg_close(FILE *f)
{
	fputs("</svg>\n", f);
}

void svg_rect(FILE *f, double x, double y, double w, double h, const char *cls, const char *tip)
{
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ], d[SVG_NUM_BUFSZ];

	fprintf(f, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"", co(x, a), co(y, b),
		co(w > 0 ? w : 0, c), co(h > 0 ? h : 0, d));
	class_attr(f, cls);
	end_el(f, "rect", tip);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *cls,
	      const char *tip)
{
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ], d[SVG_NUM_BUFSZ];

	fprintf(f, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"", co(x1, a), co(y1, b), co(x2, c),
		co(y2, d));
	class_attr(f, cls);
	end_el(f, "line", tip);
}

void svg_circle(FILE *f, double cx, double cy, double r, const char *cls, const char *tip)
{
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ], c[SVG_NUM_BUFSZ];

	fprintf(f, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\"", co(cx, a), co(cy, b), co(r, c));
	class_attr(f, cls);
	end_el(f, "circle", tip);
}

void svg_text(FILE *f, double x, double y, const char *anchor, const char *cls, const char *s,
	      size_t max)
{
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ];

	fprintf(f, "<text x=\"%s\" y=\"%s\"", co(x, a), co(y, b));
	if (anchor && strcmp(anchor, "start"))
		fprintf(f, " text-anchor=\"%s\"", anchor);
	class_attr(f, cls);
	fputc('>', f);
	if (max)
		svg_escape_max(f, s, max);
	else
		svg_escape(f, s);
	fputs("</text>\n", f);
}

void svg_polyline(FILE *f, const double *xs, const double *ys, size_t n, const char *cls)
{
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ];

	if (!n)
		return;
	fputs("<polyline points=\"", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s,%s", i ? " " : "", co(xs[i], a), co(ys[i], b));
	fputc('"', f);
	class_attr(f, cls);
	fputs("/>\n", f);
}

void svg_axis_time(FILE *f, const struct svg_frame *fr, int64_t lo, int64_t hi,
		   const char *label)
{
	int64_t ticks[64];
	size_t max = (size_t)((fr->x1 - fr->x0) / 90) + 1, n;
	struct svg_scale sc = { (double)lo, (double)hi, fr->x0, fr->x1 };
	char buf[SVG_NUM_BUFSZ];

	if (max > 64)
		max = 64;
	n = svg_ticks_time(lo, hi, max, ticks, 64, NULL);
	fputs("<g class=\"axis\">\n", f);
	for (size_t i = 0; i < n; i++) {
		double x;

		if (ticks[i] < lo || ticks[i] > hi)
			continue;
		x = svg_map(&sc, (double)ticks[i]);
		svg_line(f, x, fr->y0, x, fr->y1, "grid", NULL);
		svg_line(f, x, fr->y1, x, fr->y1 + 4, "tick", NULL);
		svg_text(f, x, fr->y1 + 15, "middle", "lbl",
			 svg_fmt_duration(ticks[i], buf, sizeof(buf)), 0);
	}
	svg_line(f, fr->x0, fr->y1, fr->x1, fr->y1, "tick", NULL);
	if (label)
		svg_text(f, fr->x1, fr->y1 + 29, "end", "cap", label, 0);
	fputs("</g>\n", f);
}

void svg_axis_num(FILE *f, const struct svg_frame *fr, double lo, double hi, const char *label,
		  bool counts)
{
	double ticks[64], step;
	size_t max = (size_t)((fr->y1 - fr->y0) / 30) + 1, n;
	struct svg_scale sc = { lo, hi, fr->y1, fr->y0 };
	char buf[SVG_NUM_BUFSZ];
	int dec;

	if (max > 64)
		max = 64;
	n = svg_ticks_num(lo, hi, max, ticks, 64, &step);
	if (counts && step < 1) {
		/* Whole numbers only: one tick per count over a small range. */
		step = 1;
		n = 0;
		for (double v = ceil(lo); v <= hi + 1e-9 && n < 64; v++)
			ticks[n++] = v;
	}
	/* Enough decimals to tell neighbouring ticks apart. */
	dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	fputs("<g class=\"axis\">\n", f);
	for (size_t i = 0; i < n; i++) {
		double y;

		if (ticks[i] < lo - 1e-9 * step || ticks[i] > hi + 1e-9 * step)
			continue;
		y = svg_map(&sc, ticks[i]);
		svg_line(f, fr->x0, y, fr->x1, y, "grid", NULL);
		svg_line(f, fr->x0 - 4, y, fr->x0, y, "tick", NULL);
		svg_text(f, fr->x0 - 6, y + 4, "end", "lbl", svg_fmt_num(ticks[i], dec, buf, sizeof(buf)),
			 0);
	}
	svg_line(f, fr->x0, fr->y0, fr->x0, fr->y1, "tick", NULL);
	if (label)
		svg_text(f, fr->x0, fr->y0 - 8, "start", "cap", label, 0);
	fputs("</g>\n", f);
}

double svg_legend(FILE *f, double x, double y, double max_x, const struct svg_legend_item *items,
		  size_t n)
{
	double cx = x;

	fputs("<g class=\"legend\">\n", f);
	for (size_t i = 0; i < n; i++) {
		double w = 14 + CHAR_PX * (double)strlen(items[i].label) + 14;

		if (cx > x && cx + w > max_x) {
			cx = x;
			y += 16;
		}
		if (!strncmp(items[i].cls, "m-", 2))
			svg_line(f, cx + 5, y - 11, cx + 5, y + 2, items[i].cls, NULL);
		else
			svg_rect(f, cx, y - 9, 10, 10, items[i].cls, NULL);
		svg_text(f, cx + 14, y, "start", "lbl", items[i].label, 0);
		cx += w;
	}
	fputs("</g>\n", f);
	return y;
}

void svg_css(FILE *f)
{
	fputs(":root{--fg:#1f2328;--muted:#59636e;--grid:#d8dee4;--bg:#ffffff;--panel:#f6f8fa;\n"
	      "--planning:#6f42c1;--applying:#0969da;--approval:#bf8700;--adopting:#1b7c83;\n"
	      "--soaking:#8fd19e;--waiting:#afb8c1;--done:#57606a;--failed:#cf222e;\n"
	      "--pass:#1a7f37;--fail:#cf222e;--unknown:#953800;--open:#0550ae;--settle:#1a7f37;\n"
	      "--halt:#cf222e;--rollback:#bf3989;--crit:#bc4c00;--series:#0969da;--band:#1a7f37}\n"
	      "@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--grid:#30363d;\n"
	      "--bg:#0d1117;--panel:#161b22;--planning:#b392f0;--applying:#4493f8;--approval:#d29922;\n"
	      "--adopting:#39c5cf;--soaking:#2f6f3e;--waiting:#6e7681;--done:#8b949e;--failed:#f85149;\n"
	      "--pass:#3fb950;--fail:#f85149;--unknown:#db6d28;--open:#79c0ff;--settle:#3fb950;\n"
	      "--halt:#ff7b72;--rollback:#f778ba;--crit:#ffa657;--series:#79c0ff;--band:#3fb950}}\n"
	      "@media print{:root{--fg:#000;--muted:#333;--grid:#ccc;--bg:#fff;--panel:#fff}}\n"
	      ".chart{font:11px system-ui,-apple-system,'Segoe UI',sans-serif;fill:var(--fg)}\n"
	      ".chart text{fill:var(--fg)}\n"
	      ".chart .lbl{fill:var(--muted)}\n"
	      ".chart .cap{fill:var(--muted);font-style:italic}\n"
	      ".chart .grid{stroke:var(--grid);stroke-width:1}\n"
	      ".chart .tick{stroke:var(--muted);stroke-width:1}\n"
	      ".ph-planning{fill:var(--planning)}.ph-applying{fill:var(--applying)}\n"
	      ".ph-approval{fill:var(--approval)}.ph-adopting{fill:var(--adopting)}\n"
	      ".ph-soaking{fill:var(--soaking)}.ph-waiting{fill:var(--waiting)}\n"
	      ".ph-done{fill:var(--done)}.ph-failed{fill:var(--failed)}\n"
	      ".v-pass{fill:var(--pass);stroke:var(--pass)}.v-fail{fill:var(--fail);stroke:var(--fail)}\n"
	      ".v-unknown{fill:var(--unknown);stroke:var(--unknown)}\n"
	      "line.v-pass,line.v-fail,line.v-unknown{stroke-width:2}\n"
	      ".m-open{stroke:var(--open);stroke-width:1.5;stroke-dasharray:4 3;fill:var(--open)}\n"
	      ".m-settle{stroke:var(--settle);stroke-width:1.5;stroke-dasharray:2 2;fill:var(--settle)}\n"
	      ".m-halt{stroke:var(--halt);stroke-width:2.5;fill:var(--halt)}\n"
	      ".m-rollback{stroke:var(--rollback);stroke-width:2;stroke-dasharray:6 2;fill:var(--rollback)}\n"
	      ".crit{fill:none;stroke:var(--crit);stroke-width:2}\n"
	      ".soak{fill:var(--soaking);opacity:.35}\n"
	      ".band{fill:var(--band);opacity:.15}\n"
	      ".win{fill:var(--open);opacity:.07}\n"
	      ".thr{stroke:var(--fail);stroke-width:2;stroke-dasharray:8 4}\n"
	      ".chart .thr-lbl{fill:var(--fail);font-weight:600}\n"
	      ".series{fill:none;stroke:var(--series);stroke-width:1.5}\n"
	      ".conc{fill:var(--applying);fill-opacity:.3;stroke:var(--applying);stroke-width:1.5}\n"
	      ".cap-line{stroke:var(--halt);stroke-width:1.5;stroke-dasharray:5 3}\n",
	      f);
}

void svg_polygon(FILE *f, const double *xs, const double *ys, size_t n, const char *cls,
		 const char *tip)
{
	char a[SVG_NUM_BUFSZ], b[SVG_NUM_BUFSZ];

	if (!n)
		return;
	fputs("<polygon points=\"", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s,%s", i ? " " : "", co(xs[i], a), co(ys[i], b));
	fputc('"', f);
	class_attr(f, cls);
	end_el(f, "polygon", tip);
}

void svg_box_h(FILE *f, double y, double h, const double q[5], const char *cls, const char *tip)
{
	char box[96];

	fputs("<g class=\"boxplot\">", f);
	if (tip) {
		fputs("<title>", f);
		svg_escape(f, tip);
		fputs("</title>", f);
	}
	fputc('\n', f);
	svg_line(f, q[0], y, q[1], y, "whisk", NULL);
	svg_line(f, q[3], y, q[4], y, "whisk", NULL);
	svg_line(f, q[0], y - h / 4, q[0], y + h / 4, "whisk", NULL);
	svg_line(f, q[4], y - h / 4, q[4], y + h / 4, "whisk", NULL);
	snprintf(box, sizeof(box), "box%s%s", cls ? " " : "", cls ? cls : "");
	svg_rect(f, q[1], y - h / 2, q[3] - q[1], h, box, NULL);
	svg_line(f, q[2], y - h / 2, q[2], y + h / 2, "med", NULL);
	fputs("</g>\n", f);
}

size_t svg_step_cdf(const double *v, size_t n, size_t total, const struct svg_scale *x,
		    const struct svg_scale *y, double px_step, double *xs, double *ys, size_t cap)
{
	size_t k = 0, below = 0;
	double px;

	if (!total || !cap || px_step <= 0)
		return 0;
	for (px = x->r0; k < cap; px += px_step) {
		double d;

		if (px > x->r1)
			px = x->r1;
		/* The data value at this column, then every value up to it counted. */
		d = x->r1 == x->r0 ? x->d1 : x->d0 + (px - x->r0) / (x->r1 - x->r0) * (x->d1 - x->d0);
		while (below < n && v[below] <= d)
			below++;
		xs[k] = px;
		ys[k] = svg_map(y, (double)below / (double)total);
		k++;
		if (px >= x->r1)
			break;
	}
	return k;
}
