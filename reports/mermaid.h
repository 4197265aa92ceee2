#ifndef MAGOS_REPORTS_MERMAID_H
#define MAGOS_REPORTS_MERMAID_H

/*
 * The Mermaid gantt of one run (`magos-sim run --mermaid FILE`): a fenced
 * ```mermaid block, ready to paste into a GitHub pull-request comment or a
 * Markdown summary.
 *
 * Shape:
 *  - `dateFormat x` (times are ms since scenario start, so the chart starts
 *    at 0) and an axisFormat chosen by the run's length (%M:%S up to an
 *    hour, %H:%M up to a day, day and hour after; Mermaid formats the axis
 *    in the reader's time zone, so only a UTC reader sees 00:00 at 0);
 *  - a section "run" with one bar from 0 to the end of the run, named with
 *    how it ended (the chart is never empty, even with no targets);
 *  - per driver (reports/spans.h order) a section with one bar per step or
 *    wave that opened: from opened to passed (`done`), to its halt (`crit`),
 *    or to the end of the run (`active`); a wave's soak as a second bar;
 *    each halt as a `crit` milestone;
 *  - with at most REP_MERMAID_MAX_TARGETS targets in the run, a section per
 *    driver listing every target that left pending: one bar from its first
 *    non-pending phase to the end of its last, labelled with the phase it
 *    ended in (`crit` when failed or not ready, `active` when still in an
 *    unfinished phase at the end, `done` otherwise);
 *  - with more, one summary bar per step or wave instead: from the first to
 *    the last activity of its targets, labelled with how many targets ended
 *    in each phase.
 * Names are escaped for Mermaid: `:`, `#`, `;`, quotes, `<`, `>`, `&`, `%`,
 * backticks and control characters become entity codes (`#58;`) or spaces,
 * and are cut to REP_MERMAID_NAME_MAX characters with "..." (UTF-8 aware).
 */

#include <stdio.h>

#include "reports/report.h"
#include "reports/spans.h"

#define REP_MERMAID_MAX_TARGETS 30
#define REP_MERMAID_NAME_MAX 60

/*
 * rep_mermaid() - writes the gantt block of @run (spans @sp, built from it
 * by sp_build()) to @f.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_mermaid(FILE *f, const struct rep_run *run, const struct sp_set *sp);

/*
 * rep_mermaid_escape() - @s escaped for a Mermaid gantt task, section or
 * title (see above), cut to @max characters (0: no limit).
 * Returns: a new string; free() it.  Cannot fail (aborts on OOM).
 */
char *rep_mermaid_escape(const char *s, size_t max);

#endif
