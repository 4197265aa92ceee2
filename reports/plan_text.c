/*
 * Terminal tables and CSV rows of a set of trials.  Every line is built in a
 * buffer first and written once, so a failed write is seen (ferror) and
 * widths are counted in bytes of ASCII text (the only non-ASCII output is
 * the "–" of an interval, counted as one column by hand).
 */
#include "reports/plan_text.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/gotime.h"

#define C_BOLD "\033[1m"
#define C_YELLOW "\033[33m"
#define C_RESET "\033[0m"

/* How many trials stopped by a bound are named one by one. */
#define BOUND_NAMED 10

void rep_plan_duration(int64_t ms, char *buf, size_t len)
{
	const char *sign = "";
	uint64_t u;

	if (ms < 0) {
		sign = "-";
		u = (uint64_t)(-(ms + 1)) + 1;
	} else {
		u = (uint64_t)ms;
	}
	if (u == 0)
		snprintf(buf, len, "0s"); /* Go's Duration(0).String(), as the other tables print it */
	else if (u < 1000)
		snprintf(buf, len, "%s%" PRIu64 "ms", sign, u);
	else if (u < 60000)
		snprintf(buf, len, "%s%.1fs", sign, (double)(u / 100) / 10.0);
	else if (u < 3600000) {
		uint64_t s = (u + 500) / 1000;

		snprintf(buf, len, "%s%" PRIu64 "m%02" PRIu64 "s", sign, s / 60, s % 60);
	} else {
		/* No day unit: Go's time.ParseDuration has none, so 26h, not 1d2h. */
		if (u < 86400000ULL) {
			uint64_t m = (u + 30000) / 60000;

			if (m % 60)
				snprintf(buf, len, "%s%" PRIu64 "h%02" PRIu64 "m", sign, m / 60,
					 m % 60);
			else
				snprintf(buf, len, "%s%" PRIu64 "h", sign, m / 60);
		} else {
			snprintf(buf, len, "%s%" PRIu64 "h", sign, (u + 1800000) / 3600000);
		}
	}
}

/* A quantity's kind decides how a value of it is printed. */
enum kind { K_MS, K_COUNT, K_SHARE, K_MEMBER_MS };

struct out {
	FILE *f;
	bool color;
	int err;
};

static void line(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->err)
		return;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0 || fputc('\n', o->f) == EOF)
		o->err = errno ? errno : EIO;
	va_end(ap);
}

static void blank(struct out *o)
{
	if (!o->err && fputc('\n', o->f) == EOF)
		o->err = errno ? errno : EIO;
}

static void heading(struct out *o, const char *text)
{
	line(o, "%s%s%s", o->color ? C_BOLD : "", text, o->color ? C_RESET : "");
}

static void value(enum kind k, double v, char *buf, size_t len)
{
	switch (k) {
	case K_MS:
		rep_plan_duration(llround(v), buf, len);
		return;
	case K_MEMBER_MS: /* member-minutes, as the run summary says */
		snprintf(buf, len, "%.1f", v / 60000.0);
		return;
	case K_COUNT:
		if (v == floor(v) && fabs(v) < 1e15)
			snprintf(buf, len, "%.0f", v);
		else
			snprintf(buf, len, "%.1f", v);
		return;
	case K_SHARE:
		snprintf(buf, len, "%.1f%%", v * 100);
		return;
	}
}

/* One percentile: its value, or "> horizon" (highlighted) among censored trials. */
static void pct(const struct out *o, const struct plan_dist *d, int k, enum kind kind,
		int64_t horizon_ms, char *buf, size_t len)
{
	char v[32];

	if (d->p_censored[k]) {
		rep_plan_duration(horizon_ms, v, sizeof(v));
		snprintf(buf, len, "%s> %s%s", o->color ? C_YELLOW : "", v, o->color ? C_RESET : "");
		return;
	}
	value(kind, d->p[k], buf, len);
}

/* Bytes of colour codes pct() put into percentile @k: they take no column. */
static int hidden(const struct out *o, const struct plan_dist *d, int k)
{
	return o->color && d->n && d->p_censored[k] ? (int)(strlen(C_YELLOW) + strlen(C_RESET)) : 0;
}

/*
 *   time to complete (1000 trials, 2 censored: not completed by 1h)
 *     p50 30m06s   p90 31m10s   p95 31m40s   p99 > 1h
 *     mean 30m10s (95 % CI 30m05s – 30m15s)   min 29m00s   max 31m50s
 *
 * @resumed_ms > 0 (a time of a run resumed from a snapshot, counted from it):
 * the horizon is said on the original run's clock, as `check` says it, and
 * the percentiles again from the original start.
 */
static void dist_block(struct out *o, const char *title, const char *unit_note,
		       const struct plan_dist *d, enum kind kind, int64_t horizon_ms,
		       int64_t resumed_ms)
{
	char p[PLAN_NPCT][48], mean[24], lo[24], hi[24], mn[24], mx[24], hz[24];
	static const char *const names[PLAN_NPCT] = { "p50", "p90", "p95", "p99" };

	if (d->ncensored && resumed_ms > 0) {
		char left[24];

		rep_plan_duration(horizon_ms + resumed_ms, hz, sizeof(hz));
		rep_plan_duration(horizon_ms, left, sizeof(left));
		line(o, "%s%s%s (%zu trial%s, %zu censored:", o->color ? C_BOLD : "", title,
		     o->color ? C_RESET : "", d->n, d->n == 1 ? "" : "s", d->ncensored);
		line(o, "  not done by %s from the original start, %s after the snapshot)", hz, left);
	} else if (d->ncensored) {
		rep_plan_duration(horizon_ms, hz, sizeof(hz));
		line(o, "%s%s%s (%zu trial%s, %zu censored: not done by %s)", o->color ? C_BOLD : "", title,
		     o->color ? C_RESET : "", d->n,
		     d->n == 1 ? "" : "s", d->ncensored, hz);
	} else {
		line(o, "%s%s%s (%zu trial%s%s%s)", o->color ? C_BOLD : "", title,
		     o->color ? C_RESET : "", d->n, d->n == 1 ? "" : "s",
		     unit_note ? "; " : "", unit_note ? unit_note : "");
	}
	if (d->n == 0)
		return;
	for (int k = 0; k < PLAN_NPCT; k++)
		pct(o, d, k, kind, horizon_ms, p[k], sizeof(p[k]));
	line(o, "  %s %-*s %s %-*s %s %-*s %s %s", names[0], 9 + hidden(o, d, 0), p[0], names[1],
	     9 + hidden(o, d, 1), p[1], names[2], 9 + hidden(o, d, 2), p[2], names[3], p[3]);
	if (resumed_ms > 0) {
		char q[PLAN_NPCT][48];

		for (int k = 0; k < PLAN_NPCT; k++) {
			struct plan_dist sh = *d;

			sh.p[k] += (double)resumed_ms;
			pct(o, &sh, k, kind, horizon_ms + resumed_ms, q[k], sizeof(q[k]));
		}
		line(o, "  from the original start:");
		line(o, "  %s %-*s %s %-*s %s %-*s %s %s", names[0], 9 + hidden(o, d, 0), q[0],
		     names[1], 9 + hidden(o, d, 1), q[1], names[2], 9 + hidden(o, d, 2), q[2],
		     names[3], q[3]);
	}
	if (d->n == d->ncensored)
		return;
	value(kind, d->mean, mean, sizeof(mean));
	value(kind, d->ci95_lo, lo, sizeof(lo));
	value(kind, d->ci95_hi, hi, sizeof(hi));
	value(kind, d->min, mn, sizeof(mn));
	value(kind, d->max, mx, sizeof(mx));
	line(o, "  mean %s (95 %% CI %s .. %s)   min %s   max %s", mean, lo, hi, mn, mx);
}

static void prop_line(struct out *o, const char *label, const struct plan_prop *p)
{
	line(o, "%-10s %zu of %zu, %.1f%% (95 %% CI %.1f%% .. %.1f%%)", label, p->k, p->n,
	     p->p * 100, p->lo * 100, p->hi * 100);
}

/* Whether any trial has a value other than 0 in @d (its quantity is never negative). */
static bool any(const struct plan_dist *d)
{
	return d->n > d->ncensored && (d->min != 0 || d->max != 0);
}

static void bound_section(struct out *o, const struct rep_plan *p)
{
	if (!p->st->nbound)
		return;
	blank(o);
	heading(o, "Stopped by a bound (counted above as not completed)");
	for (size_t i = 0; i < p->st->nbound_kept && i < BOUND_NAMED; i++) {
		const struct plan_bound_trial *r = &p->st->bound[i];
		char at[24];

		rep_plan_duration(r->end_ms, at, sizeof(at));
		line(o, "  trial %" PRIu32 " (seed %" PRIu64 "): %s at %s", r->index, r->seed,
		     r->stop == DES_LOOP ? "zero-delay loop" : "event budget", at);
		if (r->note)
			line(o, "    %.*s", 74, r->note);
	}
	if (p->st->nbound > BOUND_NAMED)
		line(o, "  ... and %zu more (the CSV and JSON list every trial)",
		     p->st->nbound - BOUND_NAMED);
}

static void halts_section(struct out *o, const struct plan_stats *st)
{
	if (!st->nhalts)
		return;
	blank(o);
	heading(o, "Where halts happen");
	line(o, "  %-28s %-32s %6s %6s", "where", "reason", "trials", "share");
	for (size_t i = 0; i < st->nhalts; i++)
		line(o, "  %-28.28s %-32.32s %6zu %5.1f%%", st->halts[i].where, st->halts[i].reason,
		     st->halts[i].n, st->ntrials ? 100.0 * (double)st->halts[i].n / (double)st->ntrials
						: 0.0);
}

/* Kinds of notice the text lists; the JSON has every one. */
#define NOTICES_NAMED 10
/* Columns of a notice's wrapped text. */
#define NOTICE_COLS 70

/* @text word-wrapped at NOTICE_COLS columns, each line indented by 6. */
static void wrapped(struct out *o, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strlen(p), cut = n;

		if (n > NOTICE_COLS) {
			cut = NOTICE_COLS;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = NOTICE_COLS;
		}
		line(o, "      %.*s", (int)cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
}

static void notices_section(struct out *o, const struct plan_stats *st)
{
	if (!st->nnotices)
		return;
	blank(o);
	heading(o, "What the runs told (errors, warnings, then info; the first trial's words)");
	for (size_t i = 0; i < st->nnotices && i < NOTICES_NAMED; i++) {
		const struct plan_notice_count *nc = &st->notices[i];

		line(o, "  %s in %zu of %zu trials (first: trial %" PRIu32 ")",
		     tl_severity_name(nc->severity), nc->n, st->ntrials, nc->first);
		wrapped(o, nc->text);
	}
	if (st->nnotices > NOTICES_NAMED)
		line(o, "  ... and %zu more kinds (the JSON lists every one)",
		     st->nnotices - NOTICES_NAMED);
	if (st->nnotice_other)
		line(o, "  ... and %zu notices of kinds past the first %d, not told apart",
		     st->nnotice_other, PLAN_NOTICE_KINDS);
}

static void phases_section(struct out *o, const struct plan_stats *st)
{
	const char *driver = NULL;
	size_t best = 0;

	if (!st->nphases)
		return;
	blank(o);
	heading(o, "Steps and waves: duration from open to done");
	line(o, "  %-22s %6s %8s %8s %8s %8s %9s", "", "opened", "p50", "p90", "p95", "max",
	     "critical");
	for (size_t i = 0; i < st->nphases; i++) {
		const struct plan_phase_stats *ph = &st->phases[i];
		const struct plan_dist *d = &ph->duration;
		char v[4][48];
		int ks[3] = { PLAN_P50, PLAN_P90, PLAN_P95 };

		if (!driver || strcmp(driver, ph->driver) != 0) {
			driver = ph->driver;
			line(o, "  %.76s", driver);
		}
		for (int k = 0; k < 3; k++) {
			if (d->n)
				pct(o, d, ks[k], K_MS, st->horizon_ms, v[k], sizeof(v[k]));
			else
				snprintf(v[k], sizeof(v[k]), "-");
		}
		if (d->n > d->ncensored)
			rep_plan_duration(llround(d->max), v[3], sizeof(v[3]));
		else
			snprintf(v[3], sizeof(v[3]), "-");
		/* pct() may add colour codes, which take no column */
		line(o, "    %-20.20s %6zu %*s %*s %*s %8s %8.1f%%", ph->name, d->n,
		     8 + hidden(o, d, PLAN_P50), v[0], 8 + hidden(o, d, PLAN_P90), v[1],
		     8 + hidden(o, d, PLAN_P95), v[2], v[3],
		     st->ntrials ? 100.0 * (double)ph->ncritical / (double)st->ntrials : 0.0);
		if (ph->ncritical > st->phases[best].ncritical)
			best = i;
	}
	if (st->phases[best].ncritical)
		line(o, "  critical path: %.30s, the longest phase in %zu of %zu trials",
		     st->phases[best].name, st->phases[best].ncritical, st->ntrials);
}

/*
 * The wall-clock lines give minutes while the completed trials end 10
 * minutes apart or more; closer together, minutes would show the whole
 * range as one or two minutes and hide where in them it falls, so they give
 * seconds.
 */
#define WALL_MINUTES_SPREAD_MS (10 * 60 * 1000)

enum wall_round { WALL_FLOOR, WALL_CEIL };

/*
 * "2026-11-30 14:31 UTC" (@unit_ms 60000) or "2026-11-30 14:31:07 UTC"
 * (1000): @ms after the clock's start, rounded to @unit_ms by @how (a lower
 * bound down, an upper bound up, so that the range holds every value in it).
 */
static void wall(const struct rep_plan *p, double ms, int64_t unit_ms, enum wall_round how,
		 char *buf, size_t len)
{
	char t[GT_RFC3339_BUFSZ];
	int64_t at = p->start_unix_ms + (int64_t)floor(ms);
	int64_t down = at - (at % unit_ms + unit_ms) % unit_ms;

	if (how == WALL_CEIL && (down < at || ms > floor(ms)))
		down += unit_ms;
	gt_format_rfc3339(down, t, sizeof(t));
	snprintf(buf, len, "%.10s %.*s UTC", t, unit_ms >= 60000 ? 5 : 8, t + 11);
}

/*
 * A snapshot's remaining time as the wall-clock times it ends at: the
 * fastest completed trial rounded down and the slowest rounded up, and the
 * percentiles as the minute (second) they fall in, "> horizon" where a
 * percentile falls among censored trials.
 */
static void wall_clock_lines(struct out *o, const struct rep_plan *p)
{
	const struct plan_dist *d = &p->st->ttc;
	char lo[40], hi[40], pc[PLAN_NPCT][40];
	static const char *const names[PLAN_NPCT] = { "p50", "p90", "p95", "p99" };
	int64_t unit;

	if (d->n <= d->ncensored)
		return;
	unit = d->max - d->min >= WALL_MINUTES_SPREAD_MS ? 60000 : 1000;
	wall(p, d->min, unit, WALL_FLOOR, lo, sizeof(lo));
	wall(p, d->max, unit, WALL_CEIL, hi, sizeof(hi));
	for (int i = 0; i < PLAN_NPCT; i++) {
		if (d->p_censored[i])
			snprintf(pc[i], sizeof(pc[i]), "> horizon");
		else
			wall(p, d->p[i], unit, WALL_FLOOR, pc[i], sizeof(pc[i]));
	}
	line(o, "  done between %s and %s", lo, hi);
	line(o, "  %s %s, %s %s", names[PLAN_P50], pc[PLAN_P50], names[PLAN_P90], pc[PLAN_P90]);
	line(o, "  %s %s, %s %s", names[PLAN_P95], pc[PLAN_P95], names[PLAN_P99], pc[PLAN_P99]);
}

/*
 * The trials that completed with no time to complete, as the single run says
 * it ("completed already"): they count as completed and are left out of the
 * time-to-complete statistics, not counted as 0 s.
 */
static void no_time_lines(struct out *o, const struct plan_stats *st)
{
	if (st->nalready)
		line(o, "%-10s %zu of %zu trial%s: every Rollout/FleetRollout was complete when the",
		     "already", st->nalready, st->ntrials, st->ntrials == 1 ? "" : "s");
	if (st->nalready)
		line(o, "%-10s run started (a snapshot of a finished rollout); no time to complete", "");
	if (st->nnothing)
		line(o, "%-10s %zu of %zu trial%s: Rollouts without steps (Ready/NoSteps, a no-op",
		     "nothing", st->nnothing, st->ntrials, st->ntrials == 1 ? "" : "s");
	if (st->nnothing)
		line(o, "%-10s upstream) and the rest already complete; no time to complete", "");
}

int rep_plan_text(FILE *f, const struct rep_plan *p, const struct rep_plan_text_opts *opts)
{
	struct out o = { f, opts && opts->color, 0 };
	const struct plan_stats *st = p->st;
	char hz[24];

	errno = 0;
	rep_plan_duration(p->resumed_ms + p->horizon_ms, hz, sizeof(hz));
	if (p->resumed_ms > 0) {
		char left[24];

		/* the horizon as written, on the original run's clock, and what is left of it */
		rep_plan_duration(p->horizon_ms, left, sizeof(left));
		line(&o, "%.30s: %zu trials from seed %" PRIu64 ", horizon %s (%s left)",
		     p->name ? p->name : "scenario", p->n, p->seed, hz, left);
	} else {
		line(&o, "%.30s: %zu trials from seed %" PRIu64 ", horizon %s",
		     p->name ? p->name : "scenario", p->n, p->seed, hz);
	}
	if (p->clock_said) {
		char at[GT_RFC3339_BUFSZ];

		gt_format_rfc3339(p->start_unix_ms, at, sizeof(at));
		line(&o, "clock starts %s (%s)", at, p->clock_said);
	}
	blank(&o);
	prop_line(&o, "completed", &st->complete);
	prop_line(&o, "halted", &st->halt);
	if (st->nhalt_before)
		line(&o, "%-10s %zu of them before the start (the snapshot was taken halted;", "",
		     st->nhalt_before);
	if (st->nhalt_before)
		line(&o, "%-10s the halt counts at 0s)", "");
	if (st->nbound)
		line(&o, "%-10s %zu trial%s stopped by the event budget or a zero-delay loop", "bounded",
		     st->nbound, st->nbound == 1 ? "" : "s");
	if (st->sketched) {
		line(&o, "%-10s percentiles estimated within %.2f%%: the trials' values passed", "sketched",
		     PLAN_SKETCH_REL_ERR * 100);
		line(&o, "%-10s the exact budget of %zu (docs/limits.md)", "", st->exact_values);
	}
	no_time_lines(&o, st);
	blank(&o);
	if (st->ttc.n == 0 && st->nalready + st->nnothing == st->ntrials && st->ntrials) {
		line(&o, "%sTime to complete%s: none, every trial %s", o.color ? C_BOLD : "",
		     o.color ? C_RESET : "",
		     st->nnothing ? "completed with nothing to complete or was complete at the start"
				  : "was complete when it started");
	} else {
		dist_block(&o, p->resumed_ms > 0 ? "Time to complete after the snapshot" : "Time to complete",
			   NULL, &st->ttc, K_MS, st->horizon_ms, p->resumed_ms);
		if (st->nalready + st->nnothing)
			line(&o, "  (%zu trial%s with no time to complete left out)",
			     st->nalready + st->nnothing, st->nalready + st->nnothing == 1 ? "" : "s");
		if (p->start_given)
			wall_clock_lines(&o, p);
	}
	if (opts && opts->quiet)
		goto out_check;
	halts_section(&o, st);
	notices_section(&o, st);
	if (any(&st->blast_count)) {
		blank(&o);
		dist_block(&o, "Blast radius, targets", "0 without a halt", &st->blast_count,
			   K_COUNT, st->horizon_ms, 0);
		dist_block(&o, "Blast radius, share of targets", NULL, &st->blast_share, K_SHARE,
			   st->horizon_ms, 0);
	}
	if (st->detection.n) {
		blank(&o);
		dist_block(&o, "Detection latency, fault onset to halt", "halted trials only",
			   &st->detection, K_MS,
			   st->horizon_ms, 0);
	}
	if (any(&st->exposure)) {
		blank(&o);
		dist_block(&o, "Exposure, member-minutes on the bad version", "0 without a halt",
			   &st->exposure,
			   K_MEMBER_MS, st->horizon_ms, 0);
	}
	if (any(&st->blast_count) || st->detection.n || any(&st->exposure)) {
		/* The definitions, where the numbers are (sim/plan/stats.h). */
		line(&o, "  blast radius and exposure are measured at the first halt and count 0");
		line(&o, "  for a trial without one: their mean is the expected harm per rollout");
		line(&o, "  (the mean over halting trials times the halt share, %.1f%%); detection",
		     st->halt.p * 100);
		line(&o, "  latency is over the halting trials with a known fault onset only");
	}
	if (any(&st->peak_jobs)) {
		blank(&o);
		dist_block(&o, "Capacity: peak Jobs running at once", NULL, &st->peak_jobs, K_COUNT,
			   st->horizon_ms, 0);
	}
	if (any(&st->job_wait)) {
		blank(&o);
		dist_block(&o, "Capacity: queueing for a runner, total per trial", NULL, &st->job_wait, K_MS,
			   st->horizon_ms, 0);
	}
	if (any(&st->peak_adopting)) {
		blank(&o);
		dist_block(&o, "Capacity: peak members adopting at once", NULL, &st->peak_adopting, K_COUNT,
			   st->horizon_ms, 0);
	}
	phases_section(&o, st);
	bound_section(&o, p);
out_check:
	if (o.err) {
		errno = o.err;
		return -1;
	}
	if (ferror(f)) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

/* ---- CSV ------------------------------------------------------------- */

static int csv_field(FILE *f, const char *s, bool last)
{
	int rc = 0;

	if (s && strpbrk(s, ",\"\r\n")) {
		rc |= fputc('"', f) == EOF;
		for (const char *c = s; *c; c++) {
			if (*c == '"')
				rc |= fputc('"', f) == EOF;
			rc |= fputc(*c, f) == EOF;
		}
		rc |= fputc('"', f) == EOF;
	} else if (s) {
		rc |= fputs(s, f) == EOF;
	}
	rc |= fputs(last ? "\r\n" : ",", f) == EOF;
	return rc ? -1 : 0;
}

static int csv_int(FILE *f, int64_t v, bool present)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return csv_field(f, present ? buf : NULL, false);
}

static int csv_uint(FILE *f, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return csv_field(f, buf, false);
}

/*
 * The rows of rep_plan_csv() and rep_variants_csv(): the header, then @n
 * rows; with @set (not NULL) one more column, "variant", holding @set on
 * every row (and the header only when @header).
 */
static int plan_csv_rows(FILE *f, const struct trial_row *rows, size_t n, const char *set,
			 bool header)
{
	static const char *const names[] = {
		"index", "seed", "stop", "end_ms", "events", "completed", "ttc_ms", "halted",
		"halt_ms", "halt_where", "halt_reason", "blast_count", "blast_total",
		"detection_ms", "exposure_ms", "peak_jobs", "peak_adopting", "job_wait_ms",
		"bound_note",
	};
	size_t nh = sizeof(names) / sizeof(names[0]);
	int rc = 0;

	for (size_t i = 0; header && i < nh; i++)
		rc |= csv_field(f, names[i], !set && i + 1 == nh);
	if (header && set)
		rc |= csv_field(f, "variant", true);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct trial_row *r = &rows[i];

		rc |= csv_uint(f, r->index);
		rc |= csv_uint(f, r->seed);
		rc |= csv_field(f, des_stop_name(r->stop), false);
		rc |= csv_int(f, r->end_ms, true);
		rc |= csv_uint(f, r->events);
		rc |= csv_uint(f, r->completed);
		rc |= csv_int(f, r->ttc_ms, r->ttc_ms >= 0);
		rc |= csv_uint(f, r->halted);
		rc |= csv_int(f, r->halt_ms, r->halt_ms >= 0);
		rc |= csv_field(f, r->halt_where, false);
		rc |= csv_field(f, r->halt_reason, false);
		/* Blast and exposure are measured at a halt: empty without one, as
		 * null in run/v1 and in the trials JSON. */
		rc |= csv_int(f, (int64_t)r->blast_count, r->halted);
		rc |= csv_uint(f, r->blast_total);
		rc |= csv_int(f, r->detection_ms, r->detection_ms >= 0);
		rc |= csv_int(f, r->exposure_ms, r->halted);
		rc |= csv_uint(f, r->peak_jobs);
		rc |= csv_uint(f, r->peak_adopting);
		rc |= csv_int(f, r->job_wait_ms, true);
		rc |= csv_field(f, r->bound_note, !set);
		if (set)
			rc |= csv_field(f, set, true);
	}
	return rc;
}

int rep_plan_csv(FILE *f, const struct trial_row *rows, size_t n)
{
	errno = 0;
	if (plan_csv_rows(f, rows, n, NULL, true) || ferror(f)) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int rep_variants_csv(FILE *f, const struct rep_csv_set *sets, size_t n)
{
	int rc = 0;

	errno = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = plan_csv_rows(f, sets[i].rows, sets[i].n, sets[i].name, i == 0);
	if (rc || ferror(f)) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return 0;
}
