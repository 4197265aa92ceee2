#ifndef MAGOS_REPORTS_TEXT_INT_H
#define MAGOS_REPORTS_TEXT_INT_H

/*
 * Inside the terminal report of one run (reports/report.h, rep_text(), is
 * its face).  Only the files of the report include this header:
 *
 *   text.c           rep_text(): the header line, the parts below in
 *                    order, and the summary
 *   text_timeline.c  the timeline: entries, notices, what the default view
 *                    shows, hides, groups and counts
 *   text_steps.c     the steps view of each Rollout
 *   text_fleet.c     the waves view of each FleetRollout (gates, adoption,
 *                    halts, rollbacks) and the fleet view
 *   text_out.c       writing into columns: width, cutting, wrapping, safe text
 *
 * Every line fits o->width columns; colour only when asked for.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reports/report.h"

/* The stream a report is written to, and how; compact and obj_w are set by txt_timeline(). */
struct out {
	FILE *f;
	bool color;
	bool compact; /* REP_TL_CHANGES: no "status: ..." detail lines */
	unsigned width;
	size_t obj_w; /* object column: the longest name, at least OBJ_MIN_W */
	int err;      /* -1 once a write failed */
};

#define C_DIM "\033[2m"
#define C_BOLD "\033[1m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_CYAN "\033[36m"
#define C_OFF "\033[0m"

/* col() - @code (one of the C_ colours) when @o is in colour, else "". */
static inline const char *col(const struct out *o, const char *code)
{
	return o->color ? code : "";
}

/* ---- writing (text_out.c) ---- */

/* txt_emit() - printf to @o's stream; a failed write sets o->err to -1. */
void txt_emit(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * txt_u8_width() - display width of the first @bytes of UTF-8 text @s:
 * code points, which is right for the text we print.
 */
size_t txt_u8_width(const char *s, size_t bytes);

/* txt_u8_prefix() - byte length of the longest prefix of @s that fits @cols columns. */
size_t txt_u8_prefix(const char *s, size_t cols);

/* txt_cell() - writes @s into exactly @cols columns: padded, or cut with "…". */
void txt_cell(struct out *o, const char *s, size_t cols);

/*
 * txt_cell_end() - like txt_cell(), but a cut keeps the end, where object
 * names differ (payments-staging-eu, payments-staging-us): of "Kind
 * namespace/name" it keeps the kind and drops the namespace first
 * ("Workspace …/payments-staging-eu"), then the start of the name
 * ("Workspace …ments-staging-eu"); a string without a kind word, or whose
 * kind leaves too little room, loses its start ("…yments-staging-eu").
 */
void txt_cell_end(struct out *o, const char *s, size_t cols);

/*
 * txt_wrapped() - writes @text wrapped at word boundaries (and at its
 * newlines) to the width, each line indented @indent columns and begun
 * with a dim "│ ", in colour @tone ("" for none).
 */
void txt_wrapped(struct out *o, const char *text, size_t indent, const char *tone);

/*
 * txt_clean() - a copy of @s safe to print on a terminal: control
 * characters (C0, DEL and C1, which could move the cursor, recolour or
 * clear the screen) and invalid UTF-8 are escaped as qt_text() escapes
 * them (sim/base/quote.h: "\x1b", "\t", "\u009b"); newlines are kept when
 * @keep_nl (txt_wrapped() breaks lines there).
 * Returns: new (free()), NULL for NULL.  Cannot fail (aborts on OOM).
 */
char *txt_clean(const char *s, bool keep_nl);

/*
 * txt_phase_tone() - the colour of @phase (NULL: of @reason), to pass
 * through col(): red for a failure or halt, green when applied, completed
 * or Ready, yellow otherwise; "" when both are NULL.
 */
const char *txt_phase_tone(const char *phase, const char *reason);

/* txt_dur_or_dash() - @ms as a Go duration into @buf (@len bytes); "—" when < 0 (never). */
void txt_dur_or_dash(int64_t ms, char *buf, size_t len);

/* ---- the parts of the report ---- */

/*
 * txt_timeline() - the timeline of @run under its column header: entries
 * (which ones: @which, REP_TL_CHANGES or REP_TL_ALL), notices at their time,
 * and, in the default view of a fleet, its members' routine writes counted
 * per wave and each wave's adoption as it moved.  Sets o->compact and
 * o->obj_w.
 */
void txt_timeline(struct out *o, const struct rep_run *run, enum rep_timeline which);

/*
 * txt_steps_view() - per Rollout of @obs (NULL: none): its steps, when each
 * opened and completed, and who ran.
 */
void txt_steps_view(struct out *o, const struct obs *obs);

/*
 * txt_waves_view() - per FleetRollout of @fo: its waves (opened, settled,
 * soak end, passed, gate verdicts), the adoption of each target, halts and
 * rollbacks.  @start_unix_ms: the wall-clock time of simulated 0 (Unix ms),
 * for a soak that ended before the run started (a snapshot's), said in UTC.
 */
void txt_waves_view(struct out *o, const struct fo *fo, int64_t start_unix_ms);

/*
 * txt_fleet_views() - what `stagesetctl fleet` would print for each
 * FleetRollout at the end of the run (from @obs, NULL: none), with the
 * Ready reasons of @fo's members; a wave of many members is shortened to
 * the members that differ unless @all.
 */
void txt_fleet_views(struct out *o, const struct obs *obs, const struct fo *fo, bool all);

#endif
