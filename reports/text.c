/*
 * The terminal timeline.  Layout, within o->width columns (80 by default):
 *
 *       TIME  OBJECT                         CHANGE    PHASE · REASON
 *     1m30s  Rollout default/demo-project   status    Reconciling · LevelProgressing
 *            │ message, wrapped to the width
 *            │ detail of what changed
 *
 * Notices (loop detected, horizon reached, events that did not apply) are
 * interleaved at their time, marked "!!".  Colour only when asked for.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/report.h"
#include "sim/gotime.h"

#define TIME_W 12
#define OBJ_MIN_W 24
#define CHG_W 8

struct out {
	FILE *f;
	bool color;
	bool compact; /* REP_TL_CHANGES: no "status: ..." detail lines */
	unsigned width;
	size_t obj_w; /* object column: the longest name, at least OBJ_MIN_W */
	int err;
};

static const char *col(const struct out *o, const char *code)
{
	return o->color ? code : "";
}

#define C_DIM "\033[2m"
#define C_BOLD "\033[1m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_CYAN "\033[36m"
#define C_OFF "\033[0m"

static void emit(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->err = -1;
	va_end(ap);
}

/* Display width of UTF-8 text: code points, which is right for the text we print. */
static size_t u8_width(const char *s, size_t bytes)
{
	size_t w = 0;

	for (size_t i = 0; i < bytes && s[i]; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	return w;
}

/* Byte length of the longest prefix of @s that fits @cols columns. */
static size_t u8_prefix(const char *s, size_t cols)
{
	size_t i = 0, w = 0;

	while (s[i]) {
		size_t j = i + 1;

		while (((unsigned char)s[j] & 0xC0) == 0x80)
			j++;
		if (w + 1 > cols)
			break;
		w++;
		i = j;
	}
	return i;
}

/* Writes @s into exactly @cols columns: padded, or cut with "…". */
static void cell(struct out *o, const char *s, size_t cols)
{
	size_t w = u8_width(s, strlen(s));

	if (w <= cols) {
		emit(o, "%s%*s", s, (int)(cols - w), "");
		return;
	}
	emit(o, "%.*s…", (int)u8_prefix(s, cols - 1), s);
}

/* Byte offset where the last @cols columns of @s start. */
static size_t u8_suffix(const char *s, size_t cols)
{
	size_t len = strlen(s), i = len, w = 0;

	while (i > 0 && w < cols) {
		i--;
		while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
			i--;
		w++;
	}
	return i;
}

/*
 * Like cell(), but a cut keeps both ends ("Workspace default/pay…staging-eu"):
 * object names differ mostly at their end.
 */
static void cell_mid(struct out *o, const char *s, size_t cols)
{
	size_t w = u8_width(s, strlen(s)), head, tail;

	if (w <= cols) {
		cell(o, s, cols);
		return;
	}
	head = (cols - 1) / 2;
	tail = cols - 1 - head;
	emit(o, "%.*s…%s", (int)u8_prefix(s, head), s, s + u8_suffix(s, tail));
}

static void object_name(const struct tl_entry *e, char *buf, size_t len)
{
	if (e->ns && e->ns[0])
		snprintf(buf, len, "%s %s/%s", e->kind, e->ns, e->name);
	else
		snprintf(buf, len, "%s %s", e->kind, e->name);
}

/* Writes @text wrapped at word boundaries, each line prefixed by @indent columns of "│ ". */
static void wrapped(struct out *o, const char *text, size_t indent, const char *tone)
{
	size_t avail = o->width > indent + 2 ? o->width - indent - 2 : 20;
	const char *p = text;

	while (*p) {
		size_t take = u8_prefix(p, avail);
		size_t nl = strcspn(p, "\n");

		if (nl < take)
			take = nl;
		else if (p[take] && p[take] != '\n') {
			/* Break at the last space that fits, if any. */
			size_t k = take;

			while (k > 0 && p[k] != ' ')
				k--;
			if (k > 0)
				take = k;
		}
		emit(o, "%*s%s│%s %s%.*s%s\n", (int)indent, "", col(o, C_DIM), col(o, C_OFF),
		     col(o, tone), (int)take, p, col(o, C_OFF));
		p += take;
		while (*p == ' ' || *p == '\n')
			p++;
	}
}

/*
 * A copy of @s safe to print on a terminal: control characters (C0 and DEL,
 * which could move the cursor, recolour or clear the screen) are written as
 * \xHH; newlines are kept when @keep_nl (wrapped() breaks lines there).
 * NULL gives NULL.  Returns new.
 */
static char *clean(const char *s, bool keep_nl)
{
	char *d, *q;

	if (!s)
		return NULL;
	d = q = xmalloc(strlen(s) * 4 + 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p < 0x20 && !(keep_nl && *p == '\n')) || *p == 0x7f)
			q += sprintf(q, "\\x%02x", *p);
		else
			*q++ = (char)*p;
	}
	*q = '\0';
	return d;
}

static const char *phase_tone(const char *phase, const char *reason)
{
	const char *s = phase ? phase : reason;

	if (!s)
		return "";
	if (!strcmp(s, "Failed") || !strcmp(s, "Halted") || !strcmp(s, "ValidationFailed"))
		return C_RED;
	if (!strcmp(s, "Applied") || !strcmp(s, "Completed") || !strcmp(s, "Ready"))
		return C_GREEN;
	return C_YELLOW;
}

static void entry_line_clean(struct out *o, const struct tl_entry *e);

/* Prints @raw with every string made terminal-safe first. */
static void entry_line(struct out *o, const struct tl_entry *raw)
{
	struct tl_entry e = *raw;
	char *f[8];

	e.kind = f[0] = clean(raw->kind, false);
	e.ns = f[1] = clean(raw->ns, false);
	e.name = f[2] = clean(raw->name, false);
	e.phase = f[3] = clean(raw->phase, false);
	e.reason = f[4] = clean(raw->reason, false);
	e.message = f[5] = clean(raw->message, true);
	e.detail = f[6] = clean(raw->detail, true);
	e.cause = f[7] = NULL;
	entry_line_clean(o, &e);
	for (size_t i = 0; i < 8; i++)
		free(f[i]);
}

static void entry_line_clean(struct out *o, const struct tl_entry *e)
{
	char t[GT_DURATION_BUFSZ], obj[512], state[512];
	size_t fixed = 2 + TIME_W + 2 + o->obj_w + 1 + CHG_W + 1;
	size_t rest = o->width > fixed + 10 ? o->width - fixed : 10;

	gt_format_duration(e->t_ms, t, sizeof(t));
	object_name(e, obj, sizeof(obj));
	if (e->phase && e->reason)
		snprintf(state, sizeof(state), "%s · %s", e->phase, e->reason);
	else
		snprintf(state, sizeof(state), "%s", e->phase ? e->phase : e->reason ? e->reason : "");

	emit(o, "  %s%*s%s  ", col(o, C_DIM), TIME_W, t, col(o, C_OFF));
	cell_mid(o, obj, o->obj_w);
	emit(o, " ");
	if (!state[0]) {
		/* No phase to show: end the line at the change column, without padding. */
		emit(o, "%s\n", tl_change_name(e->change));
	} else {
		cell(o, tl_change_name(e->change), CHG_W);
		emit(o, " %s", col(o, phase_tone(e->phase, e->reason)));
		if (u8_width(state, strlen(state)) <= rest) {
			emit(o, "%s%s\n", state, col(o, C_OFF));
		} else {
			/* Too long for the row: the phase stays, the reason goes below. */
			const char *ph = e->phase ? e->phase : e->reason;

			if (u8_width(ph, strlen(ph)) > rest)
				emit(o, "%.*s…", (int)u8_prefix(ph, rest - 1), ph);
			else
				emit(o, "%s", ph);
			emit(o, "%s\n", col(o, C_OFF));
			if (e->phase && e->reason)
				wrapped(o, e->reason, 2 + TIME_W + 2, phase_tone(e->phase, e->reason));
		}
	}
	/* A metadata edit does not change the message: the compact view says it once. */
	if (e->message && e->message[0] && !(o->compact && e->change == TL_UPDATED))
		wrapped(o, e->message, 2 + TIME_W + 2, "");
	if (e->detail && e->detail[0] && !(o->compact && e->change == TL_STATUS))
		wrapped(o, e->detail, 2 + TIME_W + 2, C_DIM);
}

static void notice_line(struct out *o, const struct tl_notice *n)
{
	char t[GT_DURATION_BUFSZ];
	const char *tone = n->severity == TL_ERROR ? C_RED : n->severity == TL_WARNING ? C_YELLOW : C_CYAN;

	char *text = clean(n->text, true);

	gt_format_duration(n->t_ms, t, sizeof(t));
	emit(o, "  %s%*s%s  %s!! %s%s\n", col(o, C_DIM), TIME_W, t, col(o, C_OFF), col(o, tone),
	     tl_severity_name(n->severity), col(o, C_OFF));
	wrapped(o, text, 2 + TIME_W + 2, "");
	free(text);
	for (size_t i = 0; i < n->nrelated && i < 5; i++) {
		char line[512];
		const struct tl_objref *r = &n->related[i];

		char *safe;

		if (r->count)
			snprintf(line, sizeof(line), "%s %s%s%s (%llu time%s)", r->kind, r->ns,
				 r->ns[0] ? "/" : "", r->name, (unsigned long long)r->count,
				 r->count == 1 ? "" : "s");
		else
			snprintf(line, sizeof(line), "%s %s%s%s", r->kind, r->ns, r->ns[0] ? "/" : "",
				 r->name);
		safe = clean(line, false);
		wrapped(o, safe, 2 + TIME_W + 2, "");
		free(safe);
	}
}

static void dur_or_dash(int64_t ms, char *buf, size_t len)
{
	if (ms < 0)
		snprintf(buf, len, "—");
	else
		gt_format_duration(ms, buf, len);
}

/* One Workspace under its step: when it planned, applied, failed. */
static void member_line(struct out *o, const struct obs_workspace *w)
{
	char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], line[256];
	char *name = clean(w->name, false);
	size_t len = 0, nw = u8_width(name, strlen(name));
	const char *phase = w->last_phase ? w->last_phase : "";

	line[0] = '\0';
	if (w->planning_ms >= 0) {
		dur_or_dash(w->planning_ms, a, sizeof(a));
		len += (size_t)snprintf(line + len, sizeof(line) - len, "plan %s", a);
	}
	if (w->applying_ms >= 0 && len < sizeof(line)) {
		dur_or_dash(w->applying_ms, a, sizeof(a));
		dur_or_dash(w->applied_ms, b, sizeof(b));
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%sapply %s→%s",
					len ? ", " : "", a, b);
	}
	if (w->failed_ms >= 0 && len < sizeof(line)) {
		dur_or_dash(w->failed_ms, a, sizeof(a));
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%sfailed %s",
					len ? ", " : "", a);
	}
	if (len == 0)
		snprintf(line, sizeof(line), "never ran");
	else if (w->runs > 1 && len < sizeof(line))
		/* The times above are each the first; say the run was not the only one. */
		snprintf(line + len, sizeof(line) - len, " (first of %u runs)", w->runs);
	/* One line when it fits; else the name and phase, the times below. */
	if (6 + (nw > 28 ? nw : 28) + 1 + u8_width(line, strlen(line)) + 2 + strlen(phase) <=
	    o->width) {
		emit(o, "      ");
		cell(o, name, 28);
		emit(o, " %s  %s%s%s\n", line, col(o, phase_tone(phase, NULL)), phase, col(o, C_OFF));
	} else {
		size_t room = o->width > 40 ? o->width - 20 : 20;

		emit(o, "      ");
		if (nw > room)
			cell_mid(o, name, room);
		else
			emit(o, "%s", name);
		emit(o, "  %s%s%s\n", col(o, phase_tone(phase, NULL)), phase, col(o, C_OFF));
		wrapped(o, line, 8, "");
	}
	for (size_t i = 0; i < w->nviolations; i++) {
		char *v = clean(w->violations[i], true);
		char *text = xasprintf("violated %s", v);

		wrapped(o, text, 8, C_RED);
		free(text);
		free(v);
	}
	free(name);
}

/* Per Rollout: its steps, when each opened and completed, and who ran. */
static void steps_view(struct out *o, const struct obs *obs)
{
	size_t n = 0;
	const struct obs_rollout *ro = obs ? obs_rollouts(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct obs_rollout *r = &ro[i];
		char *rn = clean(r->name, false), *rns = clean(r->ns, false);

		emit(o, "\n%sRollout %s/%s%s, %zu step%s\n", col(o, C_BOLD), rns, rn, col(o, C_OFF),
		     r->nsteps, r->nsteps == 1 ? "" : "s");
		free(rn);
		free(rns);
		if (r->nsteps)
			emit(o, "  %s%-20s %12s %12s  WORKSPACES%s\n", col(o, C_DIM), "STEP", "OPENED",
			     "COMPLETED", col(o, C_OFF));
		for (size_t k = 0; k < r->nsteps; k++) {
			const struct obs_step *st = &r->steps[k];
			char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];
			char *sn = clean(st->name, false);

			dur_or_dash(st->opened_ms, a, sizeof(a));
			dur_or_dash(st->completed_ms, b, sizeof(b));
			emit(o, "  ");
			cell(o, sn, 20);
			emit(o, " %*s%s %*s%s  %zu%s\n", (int)(12 - u8_width(a, strlen(a))), "", a,
			     (int)(12 - u8_width(b, strlen(b))), "", b, st->nmembers,
			     st->nmembers ? "" : " (matches none)");
			free(sn);
			for (size_t m = 0; m < st->nmembers; m++) {
				const struct obs_workspace *w = obs_workspace(obs, r->ns, st->members[m]);

				if (w)
					member_line(o, w);
			}
		}
	}
}

/* A time cell right-aligned in @cols columns ("—" when it never happened). */
static void time_cell(struct out *o, int64_t ms, size_t cols)
{
	char b[GT_DURATION_BUFSZ];
	size_t w;

	dur_or_dash(ms, b, sizeof(b));
	w = u8_width(b, strlen(b));
	emit(o, " %*s%s", (int)(cols > w ? cols - w : 0), "", b);
}

static void value_text(const struct frc_gate_rec *g, char *buf, size_t len)
{
	if (g->available)
		snprintf(buf, len, "%.4g", g->value);
	else
		snprintf(buf, len, "no value");
}

static bool same_run(const struct frc_gate_rec *a, const struct frc_gate_rec *b)
{
	return a->available == b->available && (!a->available || a->value == b->value) &&
	       strcmp(a->verdict, b->verdict) == 0;
}

/* Runs of equal gate evaluations shown before the rest is counted. */
#define GATE_RUNS_SHOWN 6

/* A wave's gate evaluations, equal consecutive ones as one run: "t[…t2]  value  verdict  ×n". */
static void gate_lines(struct out *o, const struct fo_wave *w)
{
	size_t runs = 0, shown = 0;
	const struct frc_gate_rec *g0;

	if (!w->ngates)
		return;
	g0 = &w->gates[0];
	{
		char *th = xasprintf("gate: min %s, max %s; %zu evaluation%s", g0->min ? g0->min : "—",
				     g0->max ? g0->max : "—", w->ngates, w->ngates == 1 ? "" : "s");

		emit(o, "      %s%s%s\n", col(o, C_DIM), th, col(o, C_OFF));
		free(th);
	}
	for (size_t i = 0; i < w->ngates;) {
		size_t j = i + 1;

		while (j < w->ngates && same_run(&w->gates[i], &w->gates[j]))
			j++;
		runs++;
		if (shown < GATE_RUNS_SHOWN) {
			char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], v[32], span[2 * GT_DURATION_BUFSZ + 8];
			const char *verdict = w->gates[i].verdict;

			gt_format_duration(w->gates[i].t_ms, a, sizeof(a));
			gt_format_duration(w->gates[j - 1].t_ms, b, sizeof(b));
			if (j - i > 1 && w->gates[j - 1].t_ms != w->gates[i].t_ms)
				snprintf(span, sizeof(span), "%s…%s", a, b);
			else
				snprintf(span, sizeof(span), "%s", a);
			value_text(&w->gates[i], v, sizeof(v));
			emit(o, "        ");
			cell(o, span, 27);
			emit(o, " %10s  %s%-8s%s", v,
			     col(o, !strcmp(verdict, "Failing")   ? C_RED
				    : !strcmp(verdict, "Passing") ? C_GREEN
								  : C_YELLOW),
			     verdict, col(o, C_OFF));
			if (j - i > 1)
				emit(o, "  ×%zu", j - i);
			emit(o, "\n");
			if (!w->gates[i].available && w->gates[i].error) {
				char *e = clean(w->gates[i].error, false);

				wrapped(o, e, 10, C_DIM);
				free(e);
			}
			shown++;
		}
		i = j;
	}
	if (runs > shown)
		emit(o, "        … and %zu more run%s of evaluations (the JSON lists all)\n",
		     runs - shown, runs - shown == 1 ? "" : "s");
}

/* Rollback stamps, one line per (time, wave, value), members listed after. */
static void stamp_lines(struct out *o, const struct fo_fleet *f)
{
	for (size_t i = 0; i < f->nstamps;) {
		size_t j = i;
		char at[GT_DURATION_BUFSZ];
		char *list = xstrdup(""), *text, *safe;

		while (j < f->nstamps && f->stamps[j].t_ms == f->stamps[i].t_ms &&
		       !strcmp(f->stamps[j].wave, f->stamps[i].wave) &&
		       !strcmp(f->stamps[j].to, f->stamps[i].to)) {
			const struct fo_stamp *st = &f->stamps[j];
			char r[GT_DURATION_BUFSZ];
			char *next;

			if (st->reverted_ms >= 0) {
				gt_format_duration(st->reverted_ms, r, sizeof(r));
				next = xasprintf("%s%s%s (reverted %s)", list, j > i ? ", " : "",
						 st->member, r);
			} else if (st->refused_ms >= 0) {
				next = xasprintf("%s%s%s (refused: %s)", list, j > i ? ", " : "",
						 st->member, st->refused_reason);
			} else {
				next = xasprintf("%s%s%s (not reverted)", list, j > i ? ", " : "",
						 st->member);
			}
			free(list);
			list = next;
			j++;
		}
		gt_format_duration(f->stamps[i].t_ms, at, sizeof(at));
		text = xasprintf("rollback %s wave %s → %s: stamped %zu member%s: %s", at,
				 f->stamps[i].wave, f->stamps[i].to, j - i, j - i == 1 ? "" : "s", list);
		safe = clean(text, false);
		wrapped(o, safe, 2, "");
		free(safe);
		free(text);
		free(list);
		i = j;
	}
}

/* Per FleetRollout: its waves (opened, settled, soak end, passed, gate verdicts), halts, rollbacks. */
static void waves_view(struct out *o, const struct fo *fo)
{
	size_t n = 0;
	const struct fo_fleet *fl = fo_fleets(fo, &n);

	for (size_t i = 0; i < n; i++) {
		const struct fo_fleet *f = &fl[i];
		char *fn = clean(f->name, false);

		emit(o, "\n%sFleetRollout %s%s, %zu wave%s\n", col(o, C_BOLD), fn, col(o, C_OFF),
		     f->nwaves, f->nwaves == 1 ? "" : "s");
		free(fn);
		if (f->nwaves)
			emit(o, "  %s%-14s %12s %12s %12s %12s  GATE P/F/U%s\n", col(o, C_DIM), "WAVE",
			     "OPENED", "SETTLED", "SOAK END", "PASSED", col(o, C_OFF));
		for (size_t k = 0; k < f->nwaves; k++) {
			const struct fo_wave *w = &f->waves[k];
			char *wn = clean(w->name, false);

			emit(o, "  ");
			cell(o, wn, 14);
			free(wn);
			time_cell(o, w->opened_ms, 12);
			time_cell(o, w->settled_ms, 12);
			time_cell(o, w->soaks ? w->soak_until_ms : -1, 12);
			time_cell(o, w->passed_ms, 12);
			if (w->ngates)
				emit(o, "  %zu/%zu/%zu\n", w->passing, w->failing, w->unknown);
			else
				emit(o, "  no gate\n");
			if (w->soaks > 1) {
				char a[GT_DURATION_BUFSZ];

				dur_or_dash(w->last_settled_ms, a, sizeof(a));
				emit(o, "      %ssoaked %u times; the last settle began at %s%s\n",
				     col(o, C_DIM), w->soaks, a, col(o, C_OFF));
			}
			gate_lines(o, w);
		}
		for (size_t k = 0; k < f->nhalts; k++) {
			const struct fo_halt *h = &f->halts[k];
			char at[GT_DURATION_BUFSZ], last[GT_DURATION_BUFSZ];
			char *text, *safe;

			gt_format_duration(h->t_ms, at, sizeof(at));
			gt_format_duration(h->last_ms, last, sizeof(last));
			if (h->passes > 1)
				text = xasprintf("halt %s wave %s (%s, %s, %u passes until %s): %s", at,
						 h->wave, h->gate ? "gate" : "regression", h->reason,
						 h->passes, last, h->message);
			else
				text = xasprintf("halt %s wave %s (%s, %s): %s", at, h->wave,
						 h->gate ? "gate" : "regression", h->reason, h->message);
			safe = clean(text, false);
			emit(o, "%s", col(o, C_RED));
			wrapped(o, safe, 2, "");
			emit(o, "%s", col(o, C_OFF));
			free(safe);
			free(text);
		}
		stamp_lines(o, f);
	}
}

/* Blast radius, detection latency and exposure of each halted FleetRollout's first halt. */
static void fleet_blast_lines(struct out *o, const struct fo *fo)
{
	size_t n = 0;
	const struct fo_fleet *fl = fo_fleets(fo, &n);

	for (size_t i = 0; i < n; i++) {
		const struct fo_fleet *f = &fl[i];
		char at[GT_DURATION_BUFSZ], lat[GT_DURATION_BUFSZ];
		char *text, *safe, *waves = xstrdup("");

		if (!f->nhalts)
			continue;
		gt_format_duration(f->halt_ms, at, sizeof(at));
		if (!f->has_blast) {
			text = xasprintf("FleetRollout %s halted at %s with no single version being "
					 "rolled out: no blast radius, detection latency or exposure",
					 f->name, at);
			safe = clean(text, false);
			emit(o, "%sblast%s\n", col(o, C_BOLD), col(o, C_OFF));
			wrapped(o, safe, 10, "");
			free(safe);
			free(text);
			free(waves);
			continue;
		}
		for (size_t k = 0; k < f->nblast_waves; k++) {
			char *next = xasprintf("%s%s%s %zu/%zu", waves, k ? ", " : "",
					       f->blast_waves[k].name, f->blast_waves[k].count,
					       f->blast_waves[k].total);

			free(waves);
			waves = next;
		}
		text = xasprintf("%zu of %zu members (%.1f%%) of FleetRollout %s had adopted %s by "
				 "the halt at %s; by wave: %s",
				 f->blast_count, f->blast_total,
				 f->blast_total ? 100.0 * (double)f->blast_count / (double)f->blast_total
						: 0.0,
				 f->name, f->bad_version, at, waves);
		safe = clean(text, false);
		emit(o, "%sblast%s\n", col(o, C_BOLD), col(o, C_OFF));
		wrapped(o, safe, 10, "");
		free(safe);
		free(text);
		free(waves);
		if (f->detection_latency_ms >= 0) {
			char on[GT_DURATION_BUFSZ];

			gt_format_duration(f->detection_latency_ms, lat, sizeof(lat));
			gt_format_duration(f->onset_ms, on, sizeof(on));
			text = xasprintf("%s, from the fault onset at %s (%s %s) to the halt", lat, on,
					 f->onset_member,
					 f->onset_window ? "began a regression window"
							 : "went not-Ready");
		} else {
			text = xasprintf("none: no member on %s regressed or went not-Ready before "
					 "the halt",
					 f->bad_version);
		}
		safe = clean(text, false);
		emit(o, "%sdetection%s\n", col(o, C_BOLD), col(o, C_OFF));
		wrapped(o, safe, 10, "");
		free(safe);
		free(text);
		text = xasprintf("%.1f member-minutes on %s (adoption to a downgrade or the end of "
				 "the run)",
				 (double)f->exposure_member_ms / 60000.0, f->bad_version);
		safe = clean(text, false);
		emit(o, "%sexposure%s\n", col(o, C_BOLD), col(o, C_OFF));
		wrapped(o, safe, 10, "");
		free(safe);
		free(text);
	}
}

/* What `stagesetctl fleet` would print for each FleetRollout at the end. */
static void fleet_views(struct out *o, const struct obs *obs)
{
	size_t n = 0;
	char *const *v = obs ? obs_fleet_views(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		char *text = clean(v[i], true);

		emit(o, "\n%s", text);
		free(text);
	}
}

static void blast_lines(struct out *o, const struct obs *obs)
{
	size_t n = 0;
	const struct obs_rollout *ro = obs ? obs_rollouts(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct obs_rollout *r = &ro[i];
		char *list, *safe;
		size_t len = 0;

		if (!r->halted)
			continue;
		list = xmalloc(1);
		list[0] = '\0';
		for (size_t k = 0; k < r->nblast; k++) {
			size_t add = strlen(r->blast[k]) + 2;

			list = xrealloc(list, len + add + 1);
			len += (size_t)sprintf(list + len, "%s%s", k ? ", " : "", r->blast[k]);
		}
		emit(o, "%sblast%s     %zu of %zu Workspace%s had begun applying by the halt\n",
		     col(o, C_BOLD), col(o, C_OFF), r->nblast, r->blast_total,
		     r->blast_total == 1 ? "" : "s");
		{
			char *text = xasprintf("%s/%s halted%s%s%s%s", r->ns, r->name,
					       r->halt_step >= 0 ? " in step " : "",
					       r->halt_step >= 0 ? r->steps[r->halt_step].name : "",
					       r->nblast ? ": " : "", list);

			safe = clean(text, false);
			wrapped(o, safe, 10, "");
			free(safe);
			free(text);
		}
		free(list);
	}
}

/*
 * The hazards the run met, in the summary too: -q and --timeline none hide
 * the timeline, and a warning must not be hidden with it.  Each distinct text
 * once, the first few in full.
 */
static void warnings_lines(struct out *o, const struct tl *tl)
{
	size_t nn = tl_notice_count(tl), shown = 0, total = 0;

	for (size_t i = 0; i < nn; i++) {
		struct tl_notice n;
		bool seen = false;

		tl_notice_get(tl, i, &n);
		if (n.severity == TL_INFO)
			continue;
		for (size_t k = 0; k < i && !seen; k++) {
			struct tl_notice p;

			tl_notice_get(tl, k, &p);
			seen = p.severity != TL_INFO && strcmp(p.text, n.text) == 0;
		}
		if (seen)
			continue;
		total++;
		if (shown < 5) {
			char *text = clean(n.text, true);

			if (!shown)
				emit(o, "%swarnings%s\n", col(o, C_BOLD), col(o, C_OFF));
			wrapped(o, text, 10, n.severity == TL_ERROR ? C_RED : C_YELLOW);
			free(text);
			shown++;
		}
	}
	if (total > shown)
		emit(o, "          … and %zu more (see the timeline)\n", total - shown);
}

static void summary(struct out *o, const struct rep_run *run)
{
	const struct oc_summary *s = run->summary;
	char end[GT_DURATION_BUFSZ], ttc[GT_DURATION_BUFSZ];

	gt_format_duration(run->end_ms, end, sizeof(end));
	const char *why = !strcmp(run->stop, "completed")   ? "the change completed"
			  : !strcmp(run->stop, "quiescent") ? "nothing left to happen"
			  : !strcmp(run->stop, "horizon")   ? "horizon reached"
			  : !strcmp(run->stop, "budget")    ? "event budget spent"
			  : !strcmp(run->stop, "loop")      ? "zero-delay loop"
							    : run->stop;

	emit(o, "\n%sstopped%s   at %s (%s) after %llu event%s\n", col(o, C_BOLD), col(o, C_OFF),
	     end, why, (unsigned long long)run->events, run->events == 1 ? "" : "s");
	if (!strcmp(run->stop, "loop") || !strcmp(run->stop, "budget"))
		emit(o, "          %scut short by the %s bound (see the notice above): what\n"
			"          follows is only what happened until then%s\n",
		     col(o, C_RED), !strcmp(run->stop, "loop") ? "zero-delay loop" : "event budget",
		     col(o, C_OFF));
	if (s->completed) {
		gt_format_duration(s->time_to_complete_ms, ttc, sizeof(ttc));
		emit(o, "%scompleted%s %syes%s, in %s\n", col(o, C_BOLD), col(o, C_OFF),
		     col(o, C_GREEN), col(o, C_OFF), ttc);
	} else {
		emit(o, "%scompleted%s %sno%s, censored: time to complete > %s\n", col(o, C_BOLD),
		     col(o, C_OFF), col(o, C_YELLOW), col(o, C_OFF), end);
	}
	if (s->drivers)
		emit(o, "%sdrivers%s   %u of %u Rollout/FleetRollout reached completion\n",
		     col(o, C_BOLD), col(o, C_OFF), s->drivers_completed, s->drivers);
	if (run->capacity.jobs) {
		const struct rep_capacity *c = &run->capacity;
		char mx[GT_DURATION_BUFSZ], mean[GT_DURATION_BUFSZ];
		char slots[32];

		gt_format_duration(c->max_wait_ms, mx, sizeof(mx));
		gt_format_duration(c->total_wait_ms / (int64_t)c->jobs, mean, sizeof(mean));
		if (c->capacity)
			snprintf(slots, sizeof(slots), "of %u runner%s", c->capacity,
				 c->capacity == 1 ? "" : "s");
		else
			snprintf(slots, sizeof(slots), "runners unlimited");
		emit(o, "%sjobs%s      %zu, at most %u at once (%s)\n", col(o, C_BOLD), col(o, C_OFF),
		     c->jobs, c->peak, slots);
		if (c->max_wait_ms > 0)
			emit(o, "          waited for a runner: mean %s, max %s\n", mean, mx);
	}
	warnings_lines(o, run->tl);
	if (s->halted) {
		char at[GT_DURATION_BUFSZ];

		gt_format_duration(s->halt_ms, at, sizeof(at));
		emit(o, "%shalted%s    %syes%s, at %s: %s %s%s%s (%s)\n", col(o, C_BOLD),
		     col(o, C_OFF), col(o, C_RED), col(o, C_OFF), at, s->halt_kind, s->halt_ns,
		     s->halt_ns && s->halt_ns[0] ? "/" : "", s->halt_name,
		     s->halt_reason ? s->halt_reason : "");
		if (s->halt_message) {
			char *msg = clean(s->halt_message, true);

			wrapped(o, msg, 10, "");
			free(msg);
		}
		blast_lines(o, run->obs);
		fleet_blast_lines(o, run->fleets);
	} else {
		emit(o, "%shalted%s    no\n", col(o, C_BOLD), col(o, C_OFF));
	}
}

/* Changes shown at one instant in the default view before the rest is counted. */
#define MAX_PER_INSTANT 60

static void hidden_line(struct out *o, int64_t t_ms, size_t hidden)
{
	char t[GT_DURATION_BUFSZ];

	gt_format_duration(t_ms, t, sizeof(t));
	emit(o, "  %*s  %s… %zu more change%s at %s (--timeline all shows them)%s\n", TIME_W, "",
	     col(o, C_DIM), hidden, hidden == 1 ? "" : "s", t, col(o, C_OFF));
}

/* Last (phase, reason, message) of one object, by interned ids. */
struct last {
	tl_str kind, ns, name;
	tl_str phase, reason, message;
};

static struct last *last_of(struct last **tab, size_t *cap, size_t *n, const struct tl_rec *r)
{
	size_t mask, i;

	if ((*n + 1) * 2 > *cap) {
		struct last *old = *tab;
		size_t oldcap = *cap;

		*cap = oldcap ? oldcap * 2 : 256;
		*tab = xcalloc(*cap, sizeof(**tab));
		for (size_t k = 0; k < oldcap; k++) {
			if (!old[k].kind)
				continue;
			i = ((size_t)old[k].kind * 31u + (size_t)old[k].ns * 131u +
			     (size_t)old[k].name * 8191u) & (*cap - 1);
			while ((*tab)[i].kind)
				i = (i + 1) & (*cap - 1);
			(*tab)[i] = old[k];
		}
		free(old);
	}
	mask = *cap - 1;
	i = ((size_t)r->kind * 31u + (size_t)r->ns * 131u + (size_t)r->name * 8191u) & mask;
	while ((*tab)[i].kind) {
		if ((*tab)[i].kind == r->kind && (*tab)[i].ns == r->ns && (*tab)[i].name == r->name)
			return &(*tab)[i];
		i = (i + 1) & mask;
	}
	(*tab)[i] = (struct last){ r->kind, r->ns, r->name, 0, 0, 0 };
	(*n)++;
	return &(*tab)[i];
}

/* Whether entry @r is one a reader follows (enum rep_timeline, REP_TL_CHANGES). */
static bool worth_showing(const struct tl *tl, const struct tl_rec *r, struct last *l)
{
	const char *kind = tl_str_get(tl, r->kind), *detail = tl_str_get(tl, r->detail);
	bool moved = r->phase != l->phase || r->reason != l->reason || r->message != l->message;

	l->phase = r->phase;
	l->reason = r->reason;
	l->message = r->message;
	if (!strcmp(kind, "Job") || !strcmp(kind, "PersistentVolumeClaim"))
		return false;
	switch ((enum tl_change)r->change) {
	case TL_CREATED:
	case TL_DELETING:
	case TL_DELETED:
		return true;
	case TL_STATUS:
		return moved;
	case TL_UPDATED:
		/* Finalizer bookkeeping alone is not news; labels, spec, annotations are. */
		return moved || !detail || strncmp(detail, "finalizers:", 11) != 0;
	}
	return true;
}

int rep_text(FILE *f, const struct rep_run *run, const struct rep_text_opts *opts)
{
	struct out o = { f, opts->color, opts->timeline == REP_TL_CHANGES,
			 opts->width >= 60 ? opts->width : 80, OBJ_MIN_W, 0 };
	bool *show = NULL;
	bool any_timeline = !opts->quiet && opts->timeline != REP_TL_NONE;
	size_t n = tl_count(run->tl), nn = tl_notice_count(run->tl), j = 0;
	size_t obj_max = OBJ_MIN_W;
	char hz[GT_DURATION_BUFSZ];

	/* The object column fits the longest name, leaving the phase 20 columns. */
	if (o.width >= 2 + TIME_W + 2 + CHG_W + 2 + 20)
		obj_max = o.width - (2 + TIME_W + 2 + CHG_W + 2 + 20);
	if (any_timeline) {
		struct last *tab = NULL;
		size_t cap = 0, used = 0;

		show = xcalloc(n ? n : 1, sizeof(*show));
		for (size_t i = 0; i < n; i++) {
			const struct tl_rec *r = tl_rec_at(run->tl, i);

			show[i] = opts->timeline == REP_TL_ALL ||
				  worth_showing(run->tl, r, last_of(&tab, &cap, &used, r));
		}
		free(tab);
	}
	for (size_t i = 0; i < n && any_timeline; i++) {
		struct tl_entry e;
		char obj[512];
		size_t w;

		if (!show[i])
			continue;
		tl_get(run->tl, i, &e);
		object_name(&e, obj, sizeof(obj));
		w = u8_width(obj, strlen(obj));
		if (w > o.obj_w)
			o.obj_w = w < obj_max ? w : obj_max;
	}

	char *name = clean(run->name, false);

	gt_format_duration(run->horizon_ms, hz, sizeof(hz));
	emit(&o, "%s%s%s: seed %llu, horizon %s, %zu object%s, %zu scripted event%s\n",
	     col(&o, C_BOLD), name, col(&o, C_OFF), (unsigned long long)run->seed, hz,
	     run->nobjects, run->nobjects == 1 ? "" : "s", run->nevents,
	     run->nevents == 1 ? "" : "s");
	free(name);
	if (any_timeline) {
		emit(&o, "\n  %s%*s  ", col(&o, C_DIM), TIME_W, "TIME");
		cell(&o, "OBJECT", o.obj_w);
		emit(&o, " ");
		cell(&o, "CHANGE", CHG_W);
		emit(&o, " PHASE · REASON%s\n", col(&o, C_OFF));
		int64_t inst = -1;
		size_t at_inst = 0, hidden = 0;

		for (size_t i = 0; i < n; i++) {
			struct tl_entry e;

			if (!show[i])
				continue;
			tl_get(run->tl, i, &e);
			/*
			 * A zero-delay loop (overlapping steps flapping a grant) writes
			 * thousands of changes at one instant: past a screenful, count them.
			 */
			if (e.t_ms != inst) {
				if (hidden)
					hidden_line(&o, inst, hidden);
				inst = e.t_ms;
				at_inst = hidden = 0;
			}
			if (opts->timeline == REP_TL_CHANGES && ++at_inst > MAX_PER_INSTANT) {
				hidden++;
				continue;
			}
			for (; j < nn; j++) {
				struct tl_notice no;

				tl_notice_get(run->tl, j, &no);
				if (no.t_ms >= e.t_ms)
					break;
				notice_line(&o, &no);
			}
			entry_line(&o, &e);
		}
		if (hidden)
			hidden_line(&o, inst, hidden);
		for (; j < nn; j++) {
			struct tl_notice no;

			tl_notice_get(run->tl, j, &no);
			notice_line(&o, &no);
		}
	}
	if (!opts->quiet) {
		steps_view(&o, run->obs);
		waves_view(&o, run->fleets);
		fleet_views(&o, run->obs);
	}
	summary(&o, run);
	free(show);
	return o.err;
}
