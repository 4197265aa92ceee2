#ifndef MAGOS_REPORTS_MERMAID_H
#define MAGOS_REPORTS_MERMAID_H

/*
 * The Mermaid gantt of one run (`magos-sim run --mermaid FILE`): a fenced
 * ```mermaid block, ready to paste into a GitHub pull-request comment or a
 * Markdown summary.
 *
 * Shape:
 *  - an init directive that widens Mermaid's left margin (gantt.leftPadding)
 *    to the longest section label, about 7 px a character, never below
 *    Mermaid's 75 px: with the default a label like "FleetRollout moodle
 *    targets" ran into the bars; then `gantt`, a `%%` comment naming the
 *    magos-sim version and commit, and the title (scenario, seed, targets,
 *    "time since the start");
 *  - `dateFormat YYYY-MM-DD HH:mm:ss.SSS`, every time a date with no zone
 *    from REP_MERMAID_ANCHOR_UNIX (2023-01-01 00:00:00.000 = simulated 0):
 *    Mermaid reads such dates in the reader's local time and formats the
 *    axis in local time too, so the axis shows elapsed time in every zone
 *    (`dateFormat x` with epoch ms shifted it by the reader's offset);
 *    the axis labels carry their units, so no chart reads as hh:mm when it
 *    is mm:ss: axisFormat "%-Mm %Ss" (5m 00s) up to an hour, "%-Hh %Mm"
 *    (1h 05m) up to a day, "day %-j, %Hh" after (day 1 = the first day);
 *  - a section "run" with one bar from 0 to the end of the run, named with
 *    how it ended (the chart is never empty, even with no targets);
 *  - per driver (reports/spans.h order) a section with one bar per step or
 *    wave that opened: from opened to passed (`done`), to its halt (`crit`),
 *    or to the end of the run (`active`); a wave's soak as a second bar;
 *    each halt as a `crit` milestone;
 *  - with at most REP_MERMAID_MAX_TARGETS targets in the run, a section per
 *    driver listing every target that left pending: one bar per busy
 *    (not resting) phase, labelled with that phase (`crit` when failed or
 *    not ready, `active` when still in it at the end, `done` otherwise);
 *    past REP_MERMAID_MAX_BARS such bars in the run, one bar per target from
 *    its first busy phase to the end of its last, labelled with the busy
 *    phases it went through;
 *  - with more, one summary bar per step or wave instead: from the first to
 *    the last activity of its targets, labelled with how many targets ended
 *    in each phase.
 * Names: Mermaid's gantt lexer ends a task name at `:`, `#`, `;` and takes
 * `%` as a comment, and its entity codes reach gantt text undecoded, so
 * those characters and `<`, `>`, `&` become look-alikes (U+2236, fullwidth
 * forms, U+2039/U+203A) and control characters spaces; a task name that
 * would start with a gantt keyword gets a U+200B in front; names are cut to
 * REP_MERMAID_NAME_MAX characters with "..." (UTF-8 aware).
 */

#include <stdio.h>

#include "reports/report.h"
#include "reports/spans.h"

#define REP_MERMAID_MAX_TARGETS 30
#define REP_MERMAID_NAME_MAX 60
/* Per-phase target bars when the run has at most this many of them, else one bar per target. */
#define REP_MERMAID_MAX_BARS 80
/* Simulated time 0 on the chart: 2023-01-01 00:00:00 with no zone (see above). */
#define REP_MERMAID_ANCHOR_UNIX 1672531200

/*
 * rep_mermaid() - writes the gantt block of @run (spans @sp, built from it
 * by sp_build()) to @f.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_mermaid(FILE *f, const struct rep_run *run, const struct sp_set *sp);

/*
 * rep_mermaid_escape() - @s made safe for a Mermaid gantt task, section or
 * title (look-alikes, see above), cut to @max characters (0: no limit).
 * Returns: a new string; free() it.  Cannot fail (aborts on OOM).
 */
char *rep_mermaid_escape(const char *s, size_t max);

#endif
