#ifndef MAGOS_REPORTS_COMPARE_TEXT_H
#define MAGOS_REPORTS_COMPARE_TEXT_H

/*
 * Renderers of a change review (sim/plan/compare.h): the terminal table and a
 * Markdown table for a pull-request comment.  They write to a stream the
 * caller owns and never change what they read.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/plan/compare.h"

/* What a comparison report covers; everything borrowed. */
struct rep_cmp {
	const char *base_name, *head_name;    /* scenario names */
	const char *const *base_files;        /* inputs read, in order */
	size_t nbase_files;
	const char *const *head_files;
	size_t nhead_files;
	const struct cmp_result *r;
	/* the base resumed from a simulator snapshot: the original run's ms at its
	 * 0 (scenario.resumed_ms), else 0; the horizon, the base's for both sides,
	 * is said on that clock */
	int64_t resumed_ms;
	const struct cmp_limit *limits;       /* --max-regression, in the order given */
	size_t nlimits;
};

/*
 * rep_cmp_failed() - how many of @c's limits the head breaks
 * (cmp_limit_failed()); 0 when none or no limit was given.
 */
size_t rep_cmp_failed(const struct rep_cmp *c);

/*
 * rep_cmp_text() - writes the comparison table to @f: per metric base, head,
 * delta (absolute and %), the interval or p-value and whether the
 * difference is significant; then the methods and one line per limit
 * ("ok" or "FAILED" with the figures).  Fits 80 columns.  @color: ANSI bold
 * headings and a red FAILED (callers pass true only for a TTY).
 * Returns: 0, or -1 when a write to @f failed (errno set).
 */
int rep_cmp_text(FILE *f, const struct rep_cmp *c, bool color);

/*
 * rep_cmp_markdown() - the same as a GitHub-flavoured Markdown table with a
 * heading, the methods as a note and the limits as a list, ready to post as
 * a pull-request comment.
 * Returns: 0, or -1 when a write to @f failed (errno set).
 */
int rep_cmp_markdown(FILE *f, const struct rep_cmp *c);

/*
 * rep_cmp_value() - metric @m's value @v for a table: a duration for ms
 * ("> 1h" when @censored, the horizon taken from @horizon_ms), a percentage
 * with one decimal for ratios, two decimals for counts; "-" for NaN.  With
 * @sign, a '+' before a positive value (deltas; a ratio delta is then in
 * percentage points, "pp").  At most @len bytes with the NUL; 24 suffices.
 */
void rep_cmp_value(const struct cmp_metric *m, double v, bool censored, bool sign,
		   int64_t horizon_ms, char *buf, size_t len);

#endif
