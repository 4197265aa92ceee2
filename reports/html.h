#ifndef MAGOS_REPORTS_HTML_H
#define MAGOS_REPORTS_HTML_H

/*
 * The HTML report of one run: a single self-contained file (inline CSS and
 * SVG from reports/svg.h, a few lines of vanilla JavaScript for the event
 * filter and hover details; nothing fetched), readable in light and dark
 * mode and printable.  Sections, each with a stable id for tests:
 *  - #summary: the terminal report's summary (reports/text.c, quiet) and
 *    the blast radius by name;
 *  - #gantt: per Rollout/FleetRollout, one collapsible <details> per
 *    step/wave (class "group") with one row per target, bars coloured by
 *    phase, open/settle markers, soak windows, gate ticks by verdict, halt
 *    and rollback markers, the critical path outlined; with more than
 *    REP_HTML_MAX_ROWS targets in a driver, per step/wave bands of counts
 *    by phase instead of rows (class "agg");
 *  - #gates: per wave with a gate, its metric series, threshold band and
 *    evaluation points (svg id "gate-N");
 *  - #concurrency: running Jobs / adopting members over time against the
 *    runner capacity;
 *  - #events: the event table (time, object, phase, reason, message) with
 *    a text filter, at most REP_HTML_MAX_EVENTS rows (the count left out is
 *    said).
 * The Monte Carlo and compare pages (CDF, histograms, box plots, sweep
 * curves) are in reports/html_mc.h, in the same page frame
 * (rep_html_page_open() / rep_html_page_close() below).
 *
 * Script errors set a data-js-error attribute on <html> (the browser test
 * checks it is absent).
 */

#include <stdio.h>

#include "reports/report.h"

/* Targets of one driver above which the Gantt shows per-group count bands. */
#define REP_HTML_MAX_ROWS 200

/* Rows of the event table at most. */
#define REP_HTML_MAX_EVENTS 2000

/*
 * rep_html() - writes the HTML report of @run to @f.
 * @run: the run (borrowed, unchanged).
 * Returns: 0, or -1 when a write to @f failed (errno set).
 * Errors:  aborts on out-of-memory (xalloc).
 * Output is deterministic: the same run gives the same bytes.
 */
int rep_html(FILE *f, const struct rep_run *run);

struct sp_set;

/*
 * rep_html_sp() - rep_html() drawing from spans already built from @run
 * (reports/spans.h; borrowed), so a caller writing the trace and Mermaid
 * too builds them once, and tests can draw synthetic spans.  @run gives
 * the header, the summary text and the event table (its tl, obs and
 * fleets may be NULL: those parts are then empty).
 * Returns: 0, or -1 when a write to @f failed (errno set).
 */
int rep_html_sp(FILE *f, const struct rep_run *run, const struct sp_set *sp);

/*
 * rep_html_page_open() - the frame every report page shares, up to and
 * including the opening <body> and the hover-tip element: doctype, the
 * Content-Security-Policy that forbids fetching anything, <title> "@title —
 * magos-sim @kind" (escaped), the chart stylesheet (svg_css()), the page
 * stylesheet and @extra_css (may be NULL; written as given, not escaped:
 * pass a constant).  The Monte Carlo pages (reports/html_mc.h) use it too.
 */
void rep_html_page_open(FILE *f, const char *title, const char *kind, const char *extra_css);

/*
 * rep_html_page_close() - the page's script (hover details, the event
 * filter when the page has one, expand/collapse, data-js="ok" on <html>,
 * data-js-error on a script error) and the closing tags.
 * Returns: 0, or -1 when any write to @f failed so far (ferror; errno set,
 *          EIO when the stream gave none).
 */
int rep_html_page_close(FILE *f);

#endif
