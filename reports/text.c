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
#include "sim/base/gotime.h"

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

/* Names shown per outcome of a rollback before the rest is counted. */
#define STAMP_NAMES_SHOWN 3

/* One outcome of a rollback: "reverted 2: a (26m0s), b (40m0s)" for the stamps @sel picks. */
static void outcome_line(struct out *o, const struct fo_stamp *st, size_t n, const char *what,
			 const char *tone, bool (*sel)(const struct fo_stamp *, const char *),
			 const char *arg)
{
	size_t count = 0, shown = 0;
	char *list = xstrdup(""), *text, *safe;

	for (size_t k = 0; k < n; k++) {
		char r[GT_DURATION_BUFSZ], *next;

		if (!sel(&st[k], arg))
			continue;
		count++;
		if (shown == STAMP_NAMES_SHOWN)
			continue;
		if (st[k].reverted_ms >= 0) {
			gt_format_duration(st[k].reverted_ms, r, sizeof(r));
			next = xasprintf("%s%s%s (%s)", list, shown ? ", " : "", st[k].member, r);
		} else if (st[k].refused_ms >= 0) {
			gt_format_duration(st[k].refused_ms, r, sizeof(r));
			next = xasprintf("%s%s%s (%s)", list, shown ? ", " : "", st[k].member, r);
		} else {
			next = xasprintf("%s%s%s", list, shown ? ", " : "", st[k].member);
		}
		free(list);
		list = next;
		shown++;
	}
	if (!count) {
		free(list);
		return;
	}
	if (count > shown)
		text = xasprintf("%s %zu: %s, … %zu more", what, count, list, count - shown);
	else
		text = xasprintf("%s %zu: %s", what, count, list);
	safe = clean(text, false);
	emit(o, "%s", col(o, tone));
	wrapped(o, safe, 4, "");
	emit(o, "%s", col(o, C_OFF));
	free(safe);
	free(text);
	free(list);
}

static bool is_reverted(const struct fo_stamp *s, const char *arg)
{
	(void)arg;
	return s->reverted_ms >= 0;
}

static bool is_refused_for(const struct fo_stamp *s, const char *reason)
{
	return s->reverted_ms < 0 && s->refused_ms >= 0 && !strcmp(s->refused_reason, reason);
}

static bool is_pending(const struct fo_stamp *s, const char *arg)
{
	(void)arg;
	return s->reverted_ms < 0 && s->refused_ms < 0;
}

/*
 * Rollback stamps, one block per (time, wave, value): how many were stamped,
 * then the counts by outcome (downgraded, refused by reason, neither), each
 * with its first few members and when.
 */
static void stamp_lines(struct out *o, const struct fo_fleet *f)
{
	for (size_t i = 0; i < f->nstamps;) {
		size_t j = i;
		char at[GT_DURATION_BUFSZ];
		char *text, *safe;

		while (j < f->nstamps && f->stamps[j].t_ms == f->stamps[i].t_ms &&
		       !strcmp(f->stamps[j].wave, f->stamps[i].wave) &&
		       !strcmp(f->stamps[j].to, f->stamps[i].to))
			j++;
		gt_format_duration(f->stamps[i].t_ms, at, sizeof(at));
		text = xasprintf("rollback %s wave %s → %s: stamped rollback-to on %zu member%s", at,
				 f->stamps[i].wave, f->stamps[i].to, j - i, j - i == 1 ? "" : "s");
		safe = clean(text, false);
		wrapped(o, safe, 2, "");
		free(safe);
		free(text);
		outcome_line(o, &f->stamps[i], j - i, "downgraded", C_GREEN, is_reverted, NULL);
		/* Refusals by reason, each reason once, in the order first met. */
		for (size_t k = i; k < j; k++) {
			const struct fo_stamp *st = &f->stamps[k];
			bool seen = false;
			char *what;

			if (st->reverted_ms >= 0 || st->refused_ms < 0)
				continue;
			for (size_t p = i; p < k && !seen; p++)
				seen = is_refused_for(&f->stamps[p], st->refused_reason);
			if (seen)
				continue;
			what = xasprintf("refused (%s)", st->refused_reason);
			outcome_line(o, &f->stamps[i], j - i, what, C_RED, is_refused_for,
				     st->refused_reason);
			free(what);
		}
		outcome_line(o, &f->stamps[i], j - i, "not downgraded, not refused",
			     C_YELLOW, is_pending, NULL);
		i = j;
	}
}

/* "  " and @text (made safe) on one line, cut with "…" to the width. */
static void fit_line(struct out *o, const char *text, const char *tone)
{
	char *safe = clean(text, false);
	size_t w = u8_width(safe, strlen(safe)), room = o->width - 2;

	if (w <= room)
		emit(o, "  %s%s%s\n", col(o, tone), safe, col(o, C_OFF));
	else
		emit(o, "  %s%.*s…%s\n", col(o, tone), (int)u8_prefix(safe, room - 1), safe,
		     col(o, C_OFF));
	free(safe);
}

/*
 * How each wave adopted each of the fleet's targets over time: members at
 * it out of the wave, and when half (rounded up) and all of them were at it
 * and Ready on it, exact to the ms as in the waves table.  Fits 80
 * columns (2 + 14 + 10 + 4 × 13) while times fit 12 columns.
 */
static void adoption_table(struct out *o, const struct fo_fleet *f)
{
	bool any = false;

	for (size_t k = 0; k < f->nwaves; k++)
		any = any || f->waves[k].nmembers;
	for (size_t t = 0; any && t < f->ntargets; t++) {
		char *cap = xasprintf("adoption of %s: when half and all of each wave were at it / "
				      "Ready on it",
				      f->targets[t]);

		fit_line(o, cap, C_DIM);
		free(cap);
		emit(o, "  %s%-14s %9s %12s %12s %12s %12s%s\n", col(o, C_DIM), "WAVE",
		     "AT TARGET", "HALF AT", "ALL AT", "HALF READY", "ALL READY", col(o, C_OFF));
		for (size_t k = 0; k < f->nwaves; k++) {
			const struct fo_wave *w = &f->waves[k];
			const struct fo_adoption *ad = &w->adoption[t];
			char *wn = clean(w->name, false);
			char cnt[48];

			snprintf(cnt, sizeof(cnt), "%zu/%zu", ad->adopted, w->nmembers);
			emit(o, "  ");
			cell(o, wn, 14);
			free(wn);
			emit(o, " %9s", cnt);
			time_cell(o, ad->half_ms, 12);
			time_cell(o, ad->all_ms, 12);
			time_cell(o, ad->ready_half_ms, 12);
			time_cell(o, ad->ready_all_ms, 12);
			emit(o, "\n");
		}
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
				if (w->passed_ms >= 0)
					emit(o, "      %ssoaked %u times; it first passed on the settle "
						"begun at %s%s\n",
					     col(o, C_DIM), w->soaks, a, col(o, C_OFF));
				else
					emit(o, "      %ssoaked %u times; the last settle began at %s%s\n",
					     col(o, C_DIM), w->soaks, a, col(o, C_OFF));
			}
			if (w->settled_ms >= 0 && w->opened_ms > w->settled_ms)
				emit(o, "      %ssettled before it opened: on the version its members "
					"ran then%s\n",
				     col(o, C_DIM), col(o, C_OFF));
			gate_lines(o, w);
		}
		adoption_table(o, f);
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

/*
 * A summary line: @label in bold in 10 columns, then @text (made safe)
 * wrapped at word boundaries to the width, continuation lines indented 10.
 */
static void labelled(struct out *o, const char *label, const char *text)
{
	char *safe = clean(text, false);
	size_t avail = o->width > 30 ? o->width - 10 : 20;
	const char *p = safe;
	bool first = true;

	do {
		size_t take = u8_prefix(p, avail);

		if (p[take]) {
			size_t k = take;

			while (k > 0 && p[k] != ' ')
				k--;
			if (k > 0)
				take = k;
		}
		if (first)
			emit(o, "%s%s%s%*s%.*s\n", col(o, C_BOLD), label, col(o, C_OFF),
			     (int)(10 - u8_width(label, strlen(label))), "", (int)take, p);
		else
			emit(o, "%10s%.*s\n", "", (int)take, p);
		first = false;
		p += take;
		while (*p == ' ')
			p++;
	} while (*p);
	free(safe);
}

/* Blast radius, detection latency and exposure of each halted FleetRollout's first halt. */
static void fleet_blast_lines(struct out *o, const struct fo *fo)
{
	size_t n = 0;
	const struct fo_fleet *fl = fo_fleets(fo, &n);

	for (size_t i = 0; i < n; i++) {
		const struct fo_fleet *f = &fl[i];
		char at[GT_DURATION_BUFSZ], lat[GT_DURATION_BUFSZ];
		char *text, *waves = xstrdup("");

		if (!f->nhalts)
			continue;
		gt_format_duration(f->halt_ms, at, sizeof(at));
		if (!f->has_blast) {
			text = xasprintf("none: FleetRollout %s halted at %s while rolling out no "
					 "single version, so no member adopted a bad version",
					 f->name, at);
			labelled(o, "blast", text);
			free(text);
			labelled(o, "detection", "none: no bad version, so no regression onset to "
						 "measure from");
			labelled(o, "exposure", "none: no member adopted a bad version");
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
		if (f->blast_count)
			text = xasprintf("%zu of %zu members (%.1f%%) of FleetRollout %s had adopted "
					 "%s by the halt at %s; by wave: %s",
					 f->blast_count, f->blast_total,
					 f->blast_total ? 100.0 * (double)f->blast_count /
								  (double)f->blast_total
							: 0.0,
					 f->name, f->bad_version, at, waves);
		else
			text = xasprintf("0 of %zu members: no member of FleetRollout %s had adopted "
					 "%s by the halt at %s",
					 f->blast_total, f->name, f->bad_version, at);
		labelled(o, "blast", text);
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
			text = xasprintf("none: no regression onset in this run (no member on %s "
					 "regressed or went not-Ready before the halt)",
					 f->bad_version);
		}
		labelled(o, "detection", text);
		free(text);
		if (f->exposure_member_ms > 0) {
			char *after;

			if (f->remediated && f->unremediated)
				after = xasprintf("%.1f member-minutes until %zu left it, %zu never did",
						  (double)f->exposure_after_halt_member_ms / 60000.0,
						  f->remediated, f->unremediated);
			else if (f->remediated)
				after = xasprintf("%.1f member-minutes until %s left it",
						  (double)f->exposure_after_halt_member_ms / 60000.0,
						  f->remediated == 1 ? "the member" : "every member");
			else if (f->unremediated)
				after = xasprintf("%zu member%s never left it (not remediated)",
						  f->unremediated, f->unremediated == 1 ? "" : "s");
			else
				after = xstrdup("none (no member was on it at the halt)");
			text = xasprintf("%.1f member-minutes on %s before the halt (each blast "
					 "member from its adoption to %s); after the halt: %s",
					 (double)f->exposure_member_ms / 60000.0, f->bad_version, at,
					 after);
			free(after);
		} else {
			text = xasprintf("0 member-minutes: no member had adopted %s by the halt",
					 f->bad_version);
		}
		labelled(o, "exposure", text);
		free(text);
	}
}

/* A wave of the fleet view lists its members one by one up to this many. */
#define VIEW_MEMBERS_FULL 10
/* Members differing from the wave's common state listed before the rest is counted. */
#define VIEW_ODD_SHOWN 10

/* One member line of the fleet view: "    ✓ ns/name   4.6.0  Ready". */
struct vline {
	const char *line;  /* the whole line, without '\n' */
	size_t len;
	const char *mark;  /* the mark (one UTF-8 character) */
	size_t mark_len;
	const char *state; /* after the name */
	size_t state_len;
};

static bool same_state(const struct vline *a, const struct vline *b)
{
	return a->mark_len == b->mark_len && !memcmp(a->mark, b->mark, a->mark_len) &&
	       a->state_len == b->state_len && !memcmp(a->state, b->state, a->state_len);
}

/*
 * A wave's member lines: every one when few (or @all), else those that
 * differ from the most common (mark, state) — capped — and one line for the
 * rest: "✓ 118 more at 4.6.0, Ready".
 */
static void view_members(struct out *o, const struct vline *v, size_t n, bool all)
{
	size_t best = 0, best_n = 0, odd = 0, odd_shown = 0;

	if (all || n <= VIEW_MEMBERS_FULL) {
		for (size_t i = 0; i < n; i++)
			emit(o, "%.*s\n", (int)v[i].len, v[i].line);
		return;
	}
	/* The most common state; O(n × distinct states), and states are few. */
	for (size_t i = 0; i < n; i++) {
		size_t c = 0;
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = same_state(&v[k], &v[i]);
		if (seen)
			continue;
		for (size_t k = i; k < n; k++)
			c += same_state(&v[k], &v[i]);
		if (c > best_n) {
			best_n = c;
			best = i;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (same_state(&v[i], &v[best]))
			continue;
		odd++;
		if (odd_shown < VIEW_ODD_SHOWN) {
			emit(o, "%.*s\n", (int)v[i].len, v[i].line);
			odd_shown++;
		}
	}
	if (odd > odd_shown)
		emit(o, "    %s… %zu more that differ (--timeline all lists every member)%s\n",
		     col(o, C_DIM), odd - odd_shown, col(o, C_OFF));
	{
		/* "4.6.0  Ready" reads "at 4.6.0, Ready". */
		const char *st = v[best].state, *gap = strstr(st, "  ");
		size_t vlen = gap && (size_t)(gap - st) < v[best].state_len ? (size_t)(gap - st)
									    : v[best].state_len;
		const char *rest = st + vlen;
		size_t rlen = v[best].state_len - vlen;

		while (rlen && *rest == ' ') {
			rest++;
			rlen--;
		}
		emit(o, "    %.*s %zu %s at %.*s%s%.*s\n", (int)v[best].mark_len, v[best].mark, best_n,
		     odd ? "more" : "members", (int)vlen, st, rlen ? ", " : "", (int)rlen, rest);
	}
}

/*
 * @text with each "not Ready (regressed)" member line naming the member's
 * Ready reason instead ("not Ready: DowngradeNotAllowed"): the view calls
 * every adopted member that is not Ready regressed, also one that refused a
 * rollback or waits for approval of one.  Returns new.
 */
static char *with_ready_reasons(const char *text, const struct fo *fo)
{
	static const char tag[] = "  not Ready (regressed)";
	size_t cap = strlen(text) + 1, len = 0;
	char *out = xmalloc(cap);

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n"), tl = sizeof(tag) - 1;
		const char *reason = NULL;

		if (n > tl && !strncmp(p, "    ", 4) && !memcmp(p + n - tl, tag, tl)) {
			const char *q = p + 4, *e;
			char *key;

			while (q < p + n && *q != ' ')
				q++;
			while (q < p + n && *q == ' ')
				q++;
			e = q;
			while (e < p + n && *e != ' ')
				e++;
			key = xstrndup(q, (size_t)(e - q));
			reason = fo_member_ready_reason(fo, key);
			free(key);
		}
		if (reason) {
			char *line = xasprintf("%.*s  not Ready: %s", (int)(n - tl), p, reason);
			size_t ll = strlen(line);

			cap += ll + 1;
			out = xrealloc(out, cap);
			memcpy(out + len, line, ll);
			len += ll;
			free(line);
		} else {
			memcpy(out + len, p, n);
			len += n;
		}
		p += n;
		if (*p == '\n') {
			out[len++] = '\n';
			p++;
		}
	}
	out[len] = '\0';
	return out;
}

/*
 * What `stagesetctl fleet` would print for each FleetRollout at the end;
 * waves of many members shortened to what differs (view_members()); an
 * adopted member not Ready shows its Ready reason (with_ready_reasons()).
 */
static void fleet_views(struct out *o, const struct obs *obs, const struct fo *fo, bool all)
{
	size_t n = 0;
	char *const *v = obs ? obs_fleet_views(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		char *raw = clean(v[i], true);
		char *text = with_ready_reasons(raw, fo);
		struct vline *ml = NULL;
		size_t nml = 0, cap = 0;

		emit(o, "\n");
		for (const char *p = text; *p;) {
			size_t len = strcspn(p, "\n");
			bool member = len > 6 && !strncmp(p, "    ", 4) && p[4] != ' ';

			if (member) {
				struct vline x = { p, len, p + 4, 1, NULL, 0 };
				const char *q;

				while (x.mark_len < 4 && ((unsigned char)p[4 + x.mark_len] & 0xC0) == 0x80)
					x.mark_len++;
				q = p + 4 + x.mark_len;
				while (q < p + len && *q == ' ')
					q++;
				while (q < p + len && *q != ' ')
					q++;
				while (q < p + len && *q == ' ')
					q++;
				x.state = q;
				x.state_len = (size_t)(p + len - q);
				if (nml == cap) {
					cap = cap ? cap * 2 : 64;
					ml = xreallocarray(ml, cap, sizeof(*ml));
				}
				ml[nml++] = x;
			} else {
				view_members(o, ml, nml, all);
				nml = 0;
				emit(o, "%.*s\n", (int)len, p);
			}
			p += len;
			if (*p == '\n')
				p++;
		}
		view_members(o, ml, nml, all);
		free(ml);
		free(text);
		free(raw);
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

/* ---- fleet members in the default timeline ------------------------------- */

/* How the default timeline treats one entry. */
enum show {
	SH_HIDE,  /* not a change a reader follows */
	SH_SHOW,  /* printed as it is */
	SH_GROUP, /* a routine write of a fleet member: counted in its wave's line at that instant */
	SH_QUIET, /* a member reaching the target and Ready: the wave's adoption lines say it */
};

/*
 * Abnormal writes of one wave's members of one kind (a reason, a stamp)
 * printed at one instant before the rest is counted.
 */
#define MEMBER_LINES_PER_INSTANT 5

/* A repeated notice closer than this to its previous occurrence continues its run. */
#define REPEAT_GAP_MS (5 * 60 * 1000)

/* What a grouped entry's label is. */
enum grp_what {
	GW_REASON,   /* a Ready reason, or "created" */
	GW_APPROVAL, /* the approved-version value the fleet set */
	GW_STAMP,    /* "rollback-to=X", the stamp the fleet set */
};

/* What a grouped entry is counted as. */
struct grp {
	size_t fleet, wave;
	const char *label; /* the reason, or an annotation's value; borrowed from the timeline */
	int what;          /* enum grp_what */
	bool abnormal;     /* over the per-instant cap of abnormal lines */
	bool counter;      /* not printed: how many abnormal lines of this kind were shown */
	size_t count;
};

struct grps {
	struct grp *g;
	size_t n, cap;
};

/* The group of (fleet, wave, label, what, abnormal, counter) at this instant, created at 0. */
static struct grp *grp_get(struct grps *gs, size_t fleet, size_t wave, const char *label, int what,
			   bool abnormal, bool counter)
{
	for (size_t i = 0; i < gs->n; i++) {
		struct grp *g = &gs->g[i];

		if (g->fleet == fleet && g->wave == wave && g->what == what &&
		    g->abnormal == abnormal && g->counter == counter && !strcmp(g->label, label))
			return g;
	}
	if (gs->n == gs->cap) {
		gs->cap = gs->cap ? gs->cap * 2 : 8;
		gs->g = xreallocarray(gs->g, gs->cap, sizeof(*gs->g));
	}
	gs->g[gs->n] = (struct grp){ fleet, wave, label, what, abnormal, counter, 0 };
	return &gs->g[gs->n++];
}

static void grp_add(struct grps *gs, size_t fleet, size_t wave, const char *label, int what,
		    bool abnormal)
{
	grp_get(gs, fleet, wave, label, what, abnormal, false)->count++;
}

/* "wave canary" (one fleet) or "wave moodle/canary" (several). */
static char *wave_label(const struct fo *fo, size_t fleet, size_t wave)
{
	size_t n;
	const struct fo_fleet *fl = fo_fleets(fo, &n);
	char *raw = n > 1 ? xasprintf("wave %s/%s", fl[fleet].name, fl[fleet].waves[wave].name)
			  : xasprintf("wave %s", fl[fleet].waves[wave].name);
	char *safe = clean(raw, false);

	free(raw);
	return safe;
}

/* A timeline row about a wave: "  TIME  wave canary   CHANGE  text", the text wrapped below when long. */
static void wave_row(struct out *o, int64_t t_ms, const struct fo *fo, size_t fleet, size_t wave,
		     const char *change, const char *text, const char *tone)
{
	char t[GT_DURATION_BUFSZ];
	char *obj = wave_label(fo, fleet, wave), *safe = clean(text, false);
	size_t fixed = 2 + TIME_W + 2 + o->obj_w + 1 + CHG_W + 1;
	size_t rest = o->width > fixed + 10 ? o->width - fixed : 10;

	gt_format_duration(t_ms, t, sizeof(t));
	emit(o, "  %s%*s%s  ", col(o, C_DIM), TIME_W, t, col(o, C_OFF));
	cell_mid(o, obj, o->obj_w);
	emit(o, " ");
	cell(o, change, CHG_W);
	if (u8_width(safe, strlen(safe)) <= rest) {
		emit(o, " %s%s%s\n", col(o, tone), safe, col(o, C_OFF));
	} else {
		emit(o, "\n");
		wrapped(o, safe, 2 + TIME_W + 2, tone);
	}
	free(safe);
	free(obj);
}

/* The grouped member writes of one instant, one line per (wave, what). */
static void flush_groups(struct out *o, const struct fo *fo, int64_t t_ms, struct grps *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		const struct grp *g = &gs->g[i];
		char *text;

		if (g->counter || !g->count)
			continue;
		/* The change column says "members": "120 AwaitingApproval", "30 approved 4.6.0". */
		if (g->what == GW_APPROVAL)
			text = xasprintf("%zu approved %s", g->count, g->label);
		else if (g->what == GW_STAMP)
			text = xasprintf("%zu %sstamped %s", g->count, g->abnormal ? "more " : "",
					 g->label);
		else if (g->abnormal)
			text = xasprintf("%zu more %s", g->count, g->label);
		else
			text = xasprintf("%zu %s", g->count, g->label);
		wave_row(o, t_ms, fo, g->fleet, g->wave, "members", text,
			 g->abnormal ? C_RED : C_DIM);
		free(text);
	}
	gs->n = 0;
}

/* One point of a wave's adoption, to be merged into the timeline by time. */
struct prog {
	int64_t t_ms;
	size_t fleet, wave, k;
};

static int cmp_prog(const void *a, const void *b)
{
	const struct prog *x = a, *y = b;

	if (x->t_ms != y->t_ms)
		return x->t_ms < y->t_ms ? -1 : 1;
	if (x->fleet != y->fleet)
		return x->fleet < y->fleet ? -1 : 1;
	return x->wave < y->wave ? -1 : x->wave > y->wave;
}

static struct prog *collect_progress(const struct fo *fo, size_t *np)
{
	size_t n, total = 0, k = 0;
	const struct fo_fleet *fl = fo_fleets(fo, &n);
	struct prog *p;

	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < fl[i].nwaves; w++)
			total += fl[i].waves[w].nprogress;
	p = xcalloc(total ? total : 1, sizeof(*p));
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < fl[i].nwaves; w++)
			for (size_t j = 0; j < fl[i].waves[w].nprogress; j++)
				p[k++] = (struct prog){ fl[i].waves[w].progress[j].t_ms, i, w, j };
	if (total)
		qsort(p, total, sizeof(*p), cmp_prog);
	*np = total;
	return p;
}

static void progress_row(struct out *o, const struct fo *fo, const struct prog *p)
{
	size_t n;
	const struct fo_wave *w = &fo_fleets(fo, &n)[p->fleet].waves[p->wave];
	const struct fo_progress *x = &w->progress[p->k];
	char *text = xasprintf("%zu/%zu at %s, %zu ready", x->adopted, w->nmembers, x->version,
			       x->ready);

	wave_row(o, p->t_ms, fo, p->fleet, p->wave, "adopted", text,
		 x->ready == w->nmembers ? C_GREEN : "");
	free(text);
}

/*
 * How the default timeline shows entry @r of a fleet member (@fleet, @wave
 * set): routine writes — creation, Ready True, AwaitingApproval, the
 * approved-version annotation — are summarised; anything else (StageFailed, a regression,
 * the recovery from one, a refused downgrade, a rollback-to stamp, labels, deletion) and every
 * write of a member once the rollback stamped it stays visible.
 */
static enum show member_show(const struct tl *tl, const struct tl_rec *r, const struct fo *fo,
			     size_t *fleet, size_t *wave, const char **label, int *what)
{
	static const char approved[] = "annotations: +stages.metio.wtf/approved-version=";
	static const char reapproved[] = "annotations: stages.metio.wtf/approved-version=";
	static const char stamp[] = "annotations: +stages.metio.wtf/rollback-to=";
	const char *kind = tl_str_get(tl, r->kind), *reason, *detail;
	char *key;
	bool in, recovered;
	int64_t stamped;

	if (!fo || strcmp(kind, "StageSet") != 0)
		return SH_SHOW;
	key = xasprintf("%s/%s", tl_str_get(tl, r->ns), tl_str_get(tl, r->name));
	in = fo_member_wave(fo, key, fleet, wave, &stamped);
	recovered = in && fo_member_recovered_at(fo, key, r->t_ms);
	free(key);
	if (!in)
		return SH_SHOW;
	reason = tl_str_get(tl, r->reason);
	detail = tl_str_get(tl, r->detail);
	*what = GW_REASON;
	*label = reason && reason[0] ? reason : tl_change_name((enum tl_change)r->change);
	if (r->change == TL_UPDATED && detail && !strncmp(detail, stamp, sizeof(stamp) - 1) &&
	    !strchr(detail, '\n')) {
		/* One per member, capped like any abnormal write; the waves view lists all. */
		*label = detail + sizeof("annotations: +stages.metio.wtf/") - 1;
		*what = GW_STAMP;
		return SH_SHOW;
	}
	if (stamped >= 0 && r->t_ms >= stamped)
		return SH_SHOW;
	switch ((enum tl_change)r->change) {
	case TL_CREATED:
		*label = "created";
		return SH_GROUP;
	case TL_STATUS:
		/* Ready again after StageFailed or the like: a recovery, shown. */
		if (reason && !strcmp(reason, "Succeeded"))
			return recovered ? SH_SHOW : SH_QUIET;
		if (reason && !strcmp(reason, "AwaitingApproval")) {
			*label = reason;
			return SH_GROUP;
		}
		break;
	case TL_UPDATED:
		if (detail && !strncmp(detail, approved, sizeof(approved) - 1) &&
		    !strchr(detail, '\n')) {
			*label = detail + sizeof(approved) - 1;
			*what = GW_APPROVAL;
			return SH_GROUP;
		}
		if (detail && !strncmp(detail, reapproved, sizeof(reapproved) - 1) &&
		    strstr(detail, "→") && !strchr(detail, '\n')) {
			/* The next version approved over the last one: "4.6.0→4.7.0". */
			*label = strstr(detail, "→") + strlen("→");
			*what = GW_APPROVAL;
			return SH_GROUP;
		}
		break;
	default:
		break;
	}
	*label = reason && reason[0] ? reason : tl_change_name((enum tl_change)r->change);
	return SH_SHOW;
}

/* A notice's run of repeats (REP_TL_CHANGES): the first shows it, the others are hidden. */
struct rep {
	bool hidden;
	size_t count;    /* occurrences in the run (on its first) */
	int64_t last_ms; /* last occurrence */
	int64_t every_ms;/* the gap between distinct times when always the same, -1 not yet, -2 irregular */
};

static bool same_notice(const struct tl_notice *a, const struct tl_notice *b)
{
	if (a->severity != b->severity || strcmp(a->text, b->text) != 0 ||
	    a->nrelated != b->nrelated)
		return false;
	for (size_t i = 0; i < a->nrelated; i++)
		if (strcmp(a->related[i].kind, b->related[i].kind) ||
		    strcmp(a->related[i].ns, b->related[i].ns) ||
		    strcmp(a->related[i].name, b->related[i].name))
			return false;
	return true;
}

/* Runs of one notice repeated by successive passes: O(notices × distinct open runs). */
static struct rep *notice_runs(const struct tl *tl)
{
	size_t nn = tl_notice_count(tl), nh = 0;
	struct rep *rep = xcalloc(nn ? nn : 1, sizeof(*rep));
	size_t *heads = xcalloc(nn ? nn : 1, sizeof(*heads));

	for (size_t i = 0; i < nn; i++) {
		struct tl_notice n;
		bool joined = false;

		tl_notice_get(tl, i, &n);
		for (size_t h = 0; h < nh && !joined; h++) {
			struct tl_notice p;
			struct rep *r = &rep[heads[h]];
			int64_t gap;

			tl_notice_get(tl, heads[h], &p);
			if (!same_notice(&n, &p))
				continue;
			gap = n.t_ms - r->last_ms;
			if (gap > REPEAT_GAP_MS) {
				/* Too long ago: this one starts a new run in its place. */
				heads[h] = i;
				rep[i] = (struct rep){ false, 1, n.t_ms, -1 };
				joined = true;
				break;
			}
			if (gap > 0)
				r->every_ms = r->every_ms == -1 || r->every_ms == gap ? gap : -2;
			r->count++;
			r->last_ms = n.t_ms;
			rep[i].hidden = true;
			joined = true;
		}
		if (!joined) {
			heads[nh++] = i;
			rep[i] = (struct rep){ false, 1, n.t_ms, -1 };
		}
	}
	free(heads);
	return rep;
}

static void repeat_line(struct out *o, const struct rep *r, const struct tl_entry *e);

static void notice_with_runs(struct out *o, const struct tl_notice *n, const struct rep *r)
{
	notice_line(o, n);
	repeat_line(o, r, NULL);
}

/* The notices and adoption points the timeline prints between entries. */
struct side {
	const struct tl *tl;
	const struct rep *rep; /* NULL: every notice as it is */
	size_t j, nn;          /* next notice, count */
	const struct prog *prog;
	size_t pj, nprog;      /* next adoption point, count */
	const struct fo *fo;
};

/*
 * Prints the notices and adoption points before @limit_ms (exclusive), in
 * time order; at equal times an adoption point (the state just after that
 * instant's writes) comes before a notice.
 */
static void drain(struct out *o, struct side *sd, int64_t limit_ms)
{
	for (;;) {
		struct tl_notice no;
		bool have_n = sd->j < sd->nn, have_p = sd->pj < sd->nprog;

		if (have_n)
			tl_notice_get(sd->tl, sd->j, &no);
		if (have_n && no.t_ms >= limit_ms)
			have_n = false;
		if (have_p && sd->prog[sd->pj].t_ms >= limit_ms)
			have_p = false;
		if (!have_n && !have_p)
			return;
		if (have_p && (!have_n || sd->prog[sd->pj].t_ms <= no.t_ms)) {
			progress_row(o, sd->fo, &sd->prog[sd->pj++]);
			continue;
		}
		if (!sd->rep || !sd->rep[sd->j].hidden)
			notice_with_runs(o, &no, sd->rep ? &sd->rep[sd->j] : NULL);
		sd->j++;
	}
}

/* Whether two records show the same thing of the same object. */
static bool same_rec(const struct tl_rec *a, const struct tl_rec *b)
{
	return a->kind == b->kind && a->ns == b->ns && a->name == b->name &&
	       a->change == b->change && a->phase == b->phase && a->reason == b->reason &&
	       a->message == b->message && a->detail == b->detail;
}

static size_t rec_hash(const struct tl_rec *r)
{
	size_t h = r->change;

	h = h * 1000003u ^ r->kind;
	h = h * 1000003u ^ r->ns;
	h = h * 1000003u ^ r->name;
	h = h * 1000003u ^ r->phase;
	h = h * 1000003u ^ r->reason;
	h = h * 1000003u ^ r->message;
	h = h * 1000003u ^ r->detail;
	return h;
}

/*
 * Runs of one entry repeated within REPEAT_GAP_MS of its previous
 * occurrence, among the entries @pick marks (a fleet flapping between two
 * states, a member oscillating after a rollback): the first of a run is
 * printed with the count, the rest hidden.  O(entries) expected.
 */
static struct rep *entry_runs(const struct tl *tl, size_t n, const bool *pick)
{
	struct rep *rep = xcalloc(n ? n : 1, sizeof(*rep));
	size_t cap = 64, used = 0;
	size_t *tab; /* head index + 1, 0 empty */

	for (size_t i = 0; i < n; i++)
		used += pick[i];
	while (cap < used * 2 + 2)
		cap *= 2;
	tab = xcalloc(cap, sizeof(*tab));
	for (size_t i = 0; i < n; i++) {
		const struct tl_rec *r;
		size_t k;

		if (!pick[i])
			continue;
		r = tl_rec_at(tl, i);
		k = rec_hash(r) & (cap - 1);
		while (tab[k] && !same_rec(tl_rec_at(tl, tab[k] - 1), r))
			k = (k + 1) & (cap - 1);
		if (tab[k]) {
			struct rep *h = &rep[tab[k] - 1];
			int64_t gap = r->t_ms - h->last_ms;

			if (gap <= REPEAT_GAP_MS) {
				if (gap > 0)
					h->every_ms = h->every_ms == -1 || h->every_ms == gap ? gap : -2;
				h->count++;
				h->last_ms = r->t_ms;
				rep[i].hidden = true;
				continue;
			}
		}
		tab[k] = i + 1;
		rep[i] = (struct rep){ false, 1, r->t_ms, -1 };
	}
	free(tab);
	return rep;
}

/*
 * "… repeated ×N every D until T" under the entry or notice it repeats; an
 * entry's names its object ("… tenant-01/moodle status repeated ×47 …")
 * so it cannot be read as covering the entries above it, unless that would
 * pass 80 columns.
 */
static void repeat_line(struct out *o, const struct rep *r, const struct tl_entry *e)
{
	char last[GT_DURATION_BUFSZ], every[GT_DURATION_BUFSZ];
	char *what = NULL, *tail;

	if (!r || r->count < 2)
		return;
	gt_format_duration(r->last_ms, last, sizeof(last));
	if (r->every_ms > 0) {
		gt_format_duration(r->every_ms, every, sizeof(every));
		tail = xasprintf("repeated ×%zu every %s until %s", r->count - 1, every, last);
	} else {
		tail = xasprintf("repeated ×%zu until %s", r->count - 1, last);
	}
	if (e && e->name) {
		char *who = clean(e->name, false);

		/* A namespaced object as "ns/name", a cluster-scoped one as "Kind name". */
		if (e->ns && e->ns[0])
			what = xasprintf("%s/%s %s ", e->ns, who,
					 e->change == TL_STATUS ? "status" : "update");
		else
			what = xasprintf("%s %s %s ", e->kind ? e->kind : "", who,
					 e->change == TL_STATUS ? "status" : "update");
		free(who);
		/* Indent TIME_W + 4, "… " two columns, the tail's "×" one column in two bytes. */
		if (TIME_W + 6 + strlen(what) + strlen(tail) - 1 > 80) {
			free(what);
			what = NULL;
		}
	}
	emit(o, "  %*s  %s… %s%s%s\n", TIME_W, "", col(o, C_DIM), what ? what : "", tail,
	     col(o, C_OFF));
	free(what);
	free(tail);
}

/* Per entry of the default timeline: its fleet wave when it is a fleet member's. */
struct minfo {
	bool member;
	int what;
	size_t fleet, wave;
	const char *label;
};

int rep_text(FILE *f, const struct rep_run *run, const struct rep_text_opts *opts)
{
	struct out o = { f, opts->color, opts->timeline == REP_TL_CHANGES,
			 opts->width >= 60 ? opts->width : 80, OBJ_MIN_W, 0 };
	uint8_t *show = NULL;
	struct minfo *mi = NULL;
	struct rep *rep = NULL, *erep = NULL;
	struct prog *prog = NULL;
	size_t nprog = 0;
	bool any_timeline = !opts->quiet && opts->timeline != REP_TL_NONE;
	bool summarise = opts->timeline == REP_TL_CHANGES && run->fleets;
	size_t n = tl_count(run->tl), nn = tl_notice_count(run->tl);
	size_t obj_max = OBJ_MIN_W;
	char hz[GT_DURATION_BUFSZ];

	/* The object column fits the longest name, leaving the phase 20 columns. */
	if (o.width >= 2 + TIME_W + 2 + CHG_W + 2 + 20)
		obj_max = o.width - (2 + TIME_W + 2 + CHG_W + 2 + 20);
	if (any_timeline) {
		struct last *tab = NULL;
		size_t cap = 0, used = 0;

		show = xcalloc(n ? n : 1, sizeof(*show));
		mi = xcalloc(n ? n : 1, sizeof(*mi));
		for (size_t i = 0; i < n; i++) {
			const struct tl_rec *r = tl_rec_at(run->tl, i);
			struct minfo *m = &mi[i];

			show[i] = opts->timeline == REP_TL_ALL ||
					  worth_showing(run->tl, r, last_of(&tab, &cap, &used, r))
				  ? SH_SHOW
				  : SH_HIDE;
			if (show[i] == SH_SHOW && summarise) {
				m->label = NULL;
				show[i] = (uint8_t)member_show(run->tl, r, run->fleets, &m->fleet,
							       &m->wave, &m->label, &m->what);
				m->member = m->label != NULL;
			}
		}
		free(tab);
		if (opts->timeline == REP_TL_CHANGES)
			rep = notice_runs(run->tl);
		if (summarise) {
			/* Repeats of the fleets' and their members' entries collapse. */
			bool *pick = xcalloc(n ? n : 1, sizeof(*pick));

			for (size_t i = 0; i < n; i++)
				pick[i] = show[i] == SH_SHOW &&
					  (mi[i].member ||
					   !strcmp(tl_str_get(run->tl, tl_rec_at(run->tl, i)->kind),
						   "FleetRollout"));
			erep = entry_runs(run->tl, n, pick);
			free(pick);
		}
		if (summarise)
			prog = collect_progress(run->fleets, &nprog);
	}
	for (size_t i = 0; i < n && any_timeline; i++) {
		struct tl_entry e;
		char obj[512];
		size_t w;

		if (show[i] != SH_SHOW)
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
		struct grps gs = { 0 };
		struct side sd = { run->tl, rep, 0, nn, prog, 0, nprog, run->fleets };

		emit(&o, "\n  %s%*s  ", col(&o, C_DIM), TIME_W, "TIME");
		cell(&o, "OBJECT", o.obj_w);
		emit(&o, " ");
		cell(&o, "CHANGE", CHG_W);
		emit(&o, " PHASE · REASON%s\n", col(&o, C_OFF));
		int64_t inst = -1;
		size_t at_inst = 0, hidden = 0;

		for (size_t i = 0; i < n; i++) {
			struct tl_entry e;
			const struct tl_rec *r;

			if (show[i] == SH_HIDE || show[i] == SH_QUIET || (erep && erep[i].hidden))
				continue;
			r = tl_rec_at(run->tl, i);
			/*
			 * A zero-delay loop (overlapping steps flapping a grant) writes
			 * thousands of changes at one instant: past a screenful, count them.
			 */
			if (r->t_ms != inst) {
				if (hidden)
					hidden_line(&o, inst, hidden);
				flush_groups(&o, run->fleets, inst, &gs);
				inst = r->t_ms;
				at_inst = hidden = 0;
			}
			drain(&o, &sd, r->t_ms);
			if (show[i] == SH_GROUP) {
				grp_add(&gs, mi[i].fleet, mi[i].wave, mi[i].label, mi[i].what, false);
				continue;
			}
			if (mi && mi[i].member) {
				struct grp *shown = grp_get(&gs, mi[i].fleet, mi[i].wave, mi[i].label,
							    mi[i].what, false, true);

				if (shown->count >= MEMBER_LINES_PER_INSTANT) {
					grp_add(&gs, mi[i].fleet, mi[i].wave, mi[i].label, mi[i].what,
						true);
					continue;
				}
				shown->count++;
			}
			if (opts->timeline == REP_TL_CHANGES && ++at_inst > MAX_PER_INSTANT) {
				hidden++;
				continue;
			}
			tl_get(run->tl, i, &e);
			entry_line(&o, &e);
			if (erep)
				repeat_line(&o, &erep[i], &e);
		}
		if (hidden)
			hidden_line(&o, inst, hidden);
		flush_groups(&o, run->fleets, inst, &gs);
		drain(&o, &sd, INT64_MAX);
		free(gs.g);
	}
	if (!opts->quiet) {
		steps_view(&o, run->obs);
		waves_view(&o, run->fleets);
		fleet_views(&o, run->obs, run->fleets, opts->timeline == REP_TL_ALL);
	}
	summary(&o, run);
	free(show);
	free(mi);
	free(rep);
	free(erep);
	free(prog);
	return o.err;
}
