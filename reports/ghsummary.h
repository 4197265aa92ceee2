#ifndef MAGOS_REPORTS_GHSUMMARY_H
#define MAGOS_REPORTS_GHSUMMARY_H

/*
 * The Markdown summary of `magos-sim check --summary FILE`, meant for
 * $GITHUB_STEP_SUMMARY: a headline (checks run, failed), the key figures of
 * each scenario (trials, time to complete p50/p95, halt probability, largest
 * blast radius) and a table of every check with ✅ / ❌ (⚠️ for a warning,
 * ℹ️ for an info), its id, file:line:col and message.  GitHub refuses a
 * step summary over 1 MiB: the check rows stop before the limit and a note
 * says how many were left out.
 */

#include <stddef.h>
#include <stdio.h>

#include "sim/plan/expect.h"

/* GitHub's limit on one step summary, bytes. */
#define GHS_MAX_BYTES (1024 * 1024)

/*
 * ghs_write() - the summary of the @n reports @r (borrowed) to @f, at most
 * @limit bytes (GHS_MAX_BYTES for GitHub; smaller values are for tests,
 * at least 4096).
 * Returns: 0, or -1 when writing to @f failed.
 */
int ghs_write(FILE *f, const struct exp_scenario_report *r, size_t n, size_t limit);

/*
 * ghs_cell() - @s as GitHub Flavored Markdown text that renders as exactly
 * @s, also inside a table cell: every character GFM reads as markup is
 * backslash-escaped (\ ` * _ [ ] < > ! ~ | & $, so no emphasis, link, HTML,
 * strikethrough, entity or math appears), the ':' of "://", the '.' after
 * "www" and every '@' too (so GFM's autolinks do not turn a URL or an
 * address into a link), line breaks become spaces and every other control
 * character is escaped as qt_text() (sim/base/quote.h) writes it, its
 * backslash escaped in turn, so that "\x1b" shows where the input held an
 * ESC.  Returns new.
 */
char *ghs_cell(const char *s);

/*
 * ghs_code() - @s as a GFM code span, also inside a table cell: fenced by
 * one more backtick than the longest run of backticks in @s, padded with a
 * space where @s starts or ends with a backtick, '|' escaped (GFM splits
 * cells before it reads code spans), line breaks as spaces, every other
 * control character as qt_text() writes it.  Returns new.
 */
char *ghs_code(const char *s);

#endif
