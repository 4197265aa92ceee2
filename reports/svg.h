#ifndef MAGOS_REPORTS_SVG_H
#define MAGOS_REPORTS_SVG_H

/*
 * A small SVG writer for the project's charts (reports/html.c): escaping,
 * deterministic number and duration formatting, round axis ticks (numbers
 * at 1/2/5 x 10^k, durations at 1s, 5m, 1h, 1d... steps), axes, legends and
 * the basic shapes, each optionally with a <title> (hover text and an
 * accessible name).
 *
 * Colours are never written as literals by the shapes: every shape takes a
 * CSS class, and svg_css() defines the classes with CSS variables whose
 * values switch with prefers-color-scheme, so a chart reads in light and
 * dark mode and prints on white.
 *
 * Every writer goes to a stdio stream the caller owns; a failed write shows
 * in ferror() of that stream (the callers check it once at the end).  Output
 * depends only on the arguments: numbers go through svg_fmt_num() (C
 * locale-independent digits; no locale is set by the program).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Buffer size enough for any svg_fmt_num() / svg_fmt_duration() text. */
#define SVG_NUM_BUFSZ 48

/*
 * svg_escape() - writes @s to @f with &, <, >, " and ' escaped, so the text
 * is safe both as element content and inside a quoted attribute.  Control
 * characters other than tab and newline (not allowed in XML) become a
 * space.  @s NULL writes nothing.  Cannot fail (write errors: ferror(@f)).
 */
void svg_escape(FILE *f, const char *s);

/*
 * svg_escape_max() - svg_escape() of at most @max UTF-8 characters of @s;
 * a longer @s is cut (on a character boundary) and ends with "…"; @max 0
 * means no limit.
 */
void svg_escape_max(FILE *f, const char *s, size_t max);

/*
 * svg_fmt_num() - @v as short decimal text: at most @decimals (0..6)
 * digits after the point, trailing zeros and a trailing point dropped, "-0"
 * printed "0"; NaN "NaN", infinities "Inf"/"-Inf".  Examples (decimals 2):
 * 3 -> "3", 2.5 -> "2.5", 0.125 -> "0.13" (rounded as printf does),
 * 1e-9 -> "0".
 * Returns: @buf.  @len >= SVG_NUM_BUFSZ always suffices.
 */
char *svg_fmt_num(double v, int decimals, char *buf, size_t len);

/*
 * svg_fmt_duration() - @ms as a compact duration: the two largest non-zero
 * units of d, h, m, s (ms below one second): 0 -> "0", 500 -> "500ms",
 * 1500 -> "1.5s", 90000 -> "1m30s", 5400000 -> "1h30m", 86400000 -> "1d",
 * 93600000 -> "1d2h"; negative values get a leading "-".  Smaller units
 * beyond the second one are dropped (not rounded): 1h30m15s -> "1h30m".
 * Returns: @buf.
 */
char *svg_fmt_duration(int64_t ms, char *buf, size_t len);

/*
 * svg_ticks_num() - round tick values covering [@lo, @hi]: a step of
 * 1, 2 or 5 x 10^k chosen so that there are at most @max ticks (>= 2), the
 * first tick the largest multiple of the step <= @lo, the last the smallest
 * >= @hi.  @lo == @hi is widened to a unit around it.
 * @out: receives up to @cap values, ascending.
 * @step: receives the step (may be NULL).
 * Returns: the number of ticks (<= @cap).
 */
size_t svg_ticks_num(double lo, double hi, size_t max, double *out, size_t cap, double *step);

/*
 * svg_ticks_time() - the same for a time axis in ms over [@lo, @hi]: a step
 * from 1, 2, 5, 10, 20, 50, 100, 200, 500 ms, 1, 2, 5, 10, 15, 30 s,
 * 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1, 2, 7, 14, 28 d (then multiples
 * of 28 d), the smallest giving at most @max ticks (>= 2).
 * Returns: the number of ticks written to @out (<= @cap), ascending.
 */
size_t svg_ticks_time(int64_t lo, int64_t hi, size_t max, int64_t *out, size_t cap,
		      int64_t *step);

/* A linear map from data [d0, d1] onto pixels [r0, r1]. */
struct svg_scale {
	double d0, d1, r0, r1;
};

/* svg_map() - @v mapped by @s (d0 == d1 maps everything to r0). */
double svg_map(const struct svg_scale *s, double v);

/*
 * svg_open() - starts an <svg> element @w x @h pixels with a viewBox,
 * role="img", an id @id (may be NULL), a CSS class "chart" and a <title>
 * @title (escaped) as its accessible name; @desc (may be NULL) becomes a
 * <desc>.  Close with svg_close().
 */
void svg_open(FILE *f, const char *id, int w, int h, const char *title, const char *desc);

/* svg_close() - writes </svg>. */
void svg_close(FILE *f);

/*
 * svg_rect() - a rectangle with CSS class @cls (may be NULL) and an
 * optional hover <title> @tip (escaped; NULL for none).  A width or height
 * below 0 is drawn as 0.
 */
void svg_rect(FILE *f, double x, double y, double w, double h, const char *cls, const char *tip);

/* svg_line() - a line from (@x1,@y1) to (@x2,@y2), class @cls, optional hover @tip. */
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *cls,
	      const char *tip);

/* svg_circle() - a circle centred at (@cx,@cy), radius @r, class @cls, optional @tip. */
void svg_circle(FILE *f, double cx, double cy, double r, const char *cls, const char *tip);

/*
 * svg_text() - text @s (escaped, cut to @max characters with "…" when
 * @max > 0) at (@x,@y); @anchor "start", "middle" or "end"; class @cls.
 */
void svg_text(FILE *f, double x, double y, const char *anchor, const char *cls, const char *s,
	      size_t max);

/*
 * svg_polyline() - a polyline through @n points (@xs[i], @ys[i]), class @cls;
 * nothing for @n == 0.
 */
void svg_polyline(FILE *f, const double *xs, const double *ys, size_t n, const char *cls);

/* A chart's plot area in pixels: x from @x0 to @x1, y from @y0 (top) to @y1 (bottom). */
struct svg_frame {
	double x0, x1, y0, y1;
};

/*
 * svg_axis_time() - a time axis under @fr over [@lo, @hi] ms: round ticks
 * (svg_ticks_time(), at most about one per 90 px), each labelled with
 * svg_fmt_duration() and drawn as a faint vertical grid line through the
 * plot area; the axis line; the caption @label (may be NULL) at the right
 * end below.  Ticks outside [@lo, @hi] are not drawn.
 */
void svg_axis_time(FILE *f, const struct svg_frame *fr, int64_t lo, int64_t hi,
		   const char *label);

/*
 * svg_axis_num() - a value axis left of @fr over [@lo, @hi]: round ticks
 * (at most about one per 30 px), labels with svg_fmt_num(), grid lines, the
 * caption @label (may be NULL) above the axis.  @counts: the values are
 * counts, so no tick step below 1.
 */
void svg_axis_num(FILE *f, const struct svg_frame *fr, double lo, double hi, const char *label,
		  bool counts);

/* One legend entry: a swatch of class @cls and its @label. */
struct svg_legend_item {
	const char *cls;
	const char *label;
};

/*
 * svg_legend() - the @n entries in a row from (@x,@y) (baseline of the
 * labels), wrapping to a new row before @max_x; swatches are 10 px squares,
 * or a short vertical line for a marker class (one starting "m-").
 * Returns: the y of the last row's baseline, so the caller knows the height.
 */
double svg_legend(FILE *f, double x, double y, double max_x, const struct svg_legend_item *items,
		  size_t n);

/*
 * svg_polygon() - a closed polygon through @n points (@xs[i], @ys[i]),
 * class @cls, optional hover @tip; nothing for @n == 0.  Used for bands
 * (a p5..p95 range: the upper edge left to right, then the lower edge back).
 */
void svg_polygon(FILE *f, const double *xs, const double *ys, size_t n, const char *cls,
		 const char *tip);

/*
 * svg_box_h() - a horizontal box plot centred on @y, @h pixels tall, from
 * five x positions @q (pixels, ascending: low whisker, box start, median,
 * box end, high whisker): the whisker line with end caps, the box (class
 * "box" plus @cls when non-NULL, e.g. a series class) and the median line
 * (class "med"), all in one <g class="boxplot"> carrying the hover @tip.
 */
void svg_box_h(FILE *f, double y, double h, const double q[5], const char *cls, const char *tip);

/*
 * svg_step_cdf() - the points of the empirical distribution function of
 * @n ascending values @v (@total >= @n trials; the other @total - @n are
 * larger than any value drawn, e.g. censored) as a step line sampled once
 * per @px_step pixels of @x (x pixels r0..r1; data d0..d1), y mapped by
 * @y from the share 0..1: point i sits at pixel column x_i and has the
 * share of values <= the data value at x_i.  The number of points is
 * bounded by the width (not by @n), so a 100 000-trial curve stays small.
 * @xs, @ys: receive up to @cap points.
 * Returns: the number of points written (<= @cap); 0 when @total is 0.
 */
size_t svg_step_cdf(const double *v, size_t n, size_t total, const struct svg_scale *x,
		    const struct svg_scale *y, double px_step, double *xs, double *ys, size_t cap);

/*
 * svg_css() - the stylesheet of the chart classes (without <style> tags):
 * CSS variables for the palette (phases, verdicts, markers, text, grid),
 * a dark-mode override under prefers-color-scheme, and a print override
 * (light colours on white).  The classes: .chart, .axis, .grid, .tick,
 * .cap, .lbl, .ph-planning, .ph-applying, .ph-approval, .ph-adopting,
 * .ph-soaking, .ph-waiting, .ph-done, .ph-failed, .v-pass, .v-fail,
 * .v-unknown, .m-open, .m-settle, .m-halt, .m-rollback, .crit, .band,
 * .thr, .series, .cap-line, .conc, .soak, .win (an open window).  The box
 * plot classes (.box, .med, .whisk) are styled by the page that uses them.
 */
void svg_css(FILE *f);

#endif
