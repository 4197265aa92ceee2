/*
 * The FleetRollout views of the terminal report: per fleet, its waves
 * (opened, settled, soak end, passed, gate evaluations), the adoption of
 * each target by each wave, halts and rollback stamps; then the fleet view
 * as `stagesetctl fleet` prints it, large waves shortened to what differs.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/text_int.h"
#include "sim/base/gotime.h"

/* A time cell right-aligned in @cols columns ("—" when it never happened). */
static void time_cell(struct out *o, int64_t ms, size_t cols)
{
	char b[GT_DURATION_BUFSZ];
	size_t w;

	txt_dur_or_dash(ms, b, sizeof(b));
	w = txt_u8_width(b, strlen(b));
	txt_emit(o, " %*s%s", (int)(cols > w ? cols - w : 0), "", b);
}

/*
 * The wave's soak end: "—" without a soak; a snapshot's wave may have soaked
 * until before the run started: "before start" (soak_before_line() gives
 * when).
 */
static void soak_cell(struct out *o, const struct fo_wave *w)
{
	if (!w->soaks || w->soak_until_ms >= 0) {
		time_cell(o, w->soaks ? w->soak_until_ms : -1, 12);
		return;
	}
	txt_emit(o, " %12s", "before start");
}

/* Under a wave whose soak ended before the run started: when, in UTC and before the start. */
static void soak_before_line(struct out *o, const struct fo_wave *w, int64_t start_unix_ms)
{
	char at[GT_RFC3339_BUFSZ], ago[GT_DURATION_BUFSZ];

	if (!w->soaks || w->soak_until_ms >= 0)
		return;
	gt_format_rfc3339(start_unix_ms + w->soak_until_ms, at, sizeof(at));
	gt_format_duration(-w->soak_until_ms, ago, sizeof(ago));
	txt_emit(o, "      %sits soak ended at %s, %s before the run's start%s\n", col(o, C_DIM), at,
		 ago, col(o, C_OFF));
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

		txt_emit(o, "      %s%s%s\n", col(o, C_DIM), th, col(o, C_OFF));
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
			txt_emit(o, "        ");
			txt_cell(o, span, 27);
			txt_emit(o, " %10s  %s%-8s%s", v,
				 col(o, !strcmp(verdict, "Failing")   ? C_RED
				    : !strcmp(verdict, "Passing") ? C_GREEN
								  : C_YELLOW),
				 verdict, col(o, C_OFF));
			if (j - i > 1)
				txt_emit(o, "  ×%zu", j - i);
			txt_emit(o, "\n");
			if (!w->gates[i].available && w->gates[i].error) {
				char *e = txt_clean(w->gates[i].error, false);

				txt_wrapped(o, e, 10, C_DIM);
				free(e);
			}
			shown++;
		}
		i = j;
	}
	if (runs > shown)
		txt_emit(o, "        … and %zu more run%s of evaluations (the JSON lists all)\n",
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
	safe = txt_clean(text, false);
	txt_emit(o, "%s", col(o, tone));
	txt_wrapped(o, safe, 4, "");
	txt_emit(o, "%s", col(o, C_OFF));
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
		safe = txt_clean(text, false);
		txt_wrapped(o, safe, 2, "");
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
	char *safe = txt_clean(text, false);
	size_t w = txt_u8_width(safe, strlen(safe)), room = o->width - 2;

	if (w <= room)
		txt_emit(o, "  %s%s%s\n", col(o, tone), safe, col(o, C_OFF));
	else
		txt_emit(o, "  %s%.*s…%s\n", col(o, tone), (int)txt_u8_prefix(safe, room - 1), safe,
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
		txt_emit(o, "  %s%-14s %9s %12s %12s %12s %12s%s\n", col(o, C_DIM), "WAVE",
			 "AT TARGET", "HALF AT", "ALL AT", "HALF READY", "ALL READY",
			 col(o, C_OFF));
		for (size_t k = 0; k < f->nwaves; k++) {
			const struct fo_wave *w = &f->waves[k];
			const struct fo_adoption *ad = &w->adoption[t];
			char *wn = txt_clean(w->name, false);
			char cnt[48];

			snprintf(cnt, sizeof(cnt), "%zu/%zu", ad->adopted, w->nmembers);
			txt_emit(o, "  ");
			txt_cell(o, wn, 14);
			free(wn);
			txt_emit(o, " %9s", cnt);
			time_cell(o, ad->half_ms, 12);
			time_cell(o, ad->all_ms, 12);
			time_cell(o, ad->ready_half_ms, 12);
			time_cell(o, ad->ready_all_ms, 12);
			txt_emit(o, "\n");
		}
	}
}

void txt_waves_view(struct out *o, const struct fo *fo, int64_t start_unix_ms)
{
	size_t n = 0;
	const struct fo_fleet *fl = fo_fleets(fo, &n);

	for (size_t i = 0; i < n; i++) {
		const struct fo_fleet *f = &fl[i];
		char *fn = txt_clean(f->name, false);

		txt_emit(o, "\n%sFleetRollout %s%s, %zu wave%s\n", col(o, C_BOLD), fn,
			 col(o, C_OFF), f->nwaves, f->nwaves == 1 ? "" : "s");
		free(fn);
		if (f->nwaves)
			txt_emit(o, "  %s%-14s %12s %12s %12s %12s  GATE P/F/U%s\n",
				 col(o, C_DIM), "WAVE", "OPENED", "SETTLED", "SOAK END", "PASSED",
				 col(o, C_OFF));
		for (size_t k = 0; k < f->nwaves; k++) {
			const struct fo_wave *w = &f->waves[k];
			char *wn = txt_clean(w->name, false);

			txt_emit(o, "  ");
			txt_cell(o, wn, 14);
			free(wn);
			time_cell(o, w->opened_ms, 12);
			time_cell(o, w->settled_ms, 12);
			soak_cell(o, w);
			time_cell(o, w->passed_ms, 12);
			if (w->ngates)
				txt_emit(o, "  %zu/%zu/%zu\n", w->passing, w->failing, w->unknown);
			else
				txt_emit(o, "  no gate\n");
			soak_before_line(o, w, start_unix_ms);
			if (w->soaks > 1) {
				char a[GT_DURATION_BUFSZ];

				txt_dur_or_dash(w->last_settled_ms, a, sizeof(a));
				if (w->passed_ms >= 0)
					txt_emit(o, "      %ssoaked %u times; it first passed on "
						"the settle begun at %s%s\n",
						 col(o, C_DIM), w->soaks, a, col(o, C_OFF));
				else
					txt_emit(o, "      %ssoaked %u times; the last settle "
						"began at %s%s\n",
						 col(o, C_DIM), w->soaks, a, col(o, C_OFF));
			}
			if (w->settled_ms >= 0 && w->opened_ms > w->settled_ms)
				txt_emit(o, "      %ssettled before it opened: on the version its "
					"members ran then%s\n",
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
			safe = txt_clean(text, false);
			txt_emit(o, "%s", col(o, C_RED));
			txt_wrapped(o, safe, 2, "");
			txt_emit(o, "%s", col(o, C_OFF));
			free(safe);
			free(text);
		}
		stamp_lines(o, f);
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
			txt_emit(o, "%.*s\n", (int)v[i].len, v[i].line);
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
			txt_emit(o, "%.*s\n", (int)v[i].len, v[i].line);
			odd_shown++;
		}
	}
	if (odd > odd_shown)
		txt_emit(o, "    %s… %zu more that differ (--timeline all lists every member)%s\n",
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
		txt_emit(o, "    %.*s %zu %s at %.*s%s%.*s\n", (int)v[best].mark_len, v[best].mark,
			 best_n, odd ? "more" : "members", (int)vlen, st, rlen ? ", " : "",
			 (int)rlen, rest);
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
void txt_fleet_views(struct out *o, const struct obs *obs, const struct fo *fo, bool all)
{
	size_t n = 0;
	char *const *v = obs ? obs_fleet_views(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		char *raw = txt_clean(v[i], true);
		char *text = with_ready_reasons(raw, fo);
		struct vline *ml = NULL;
		size_t nml = 0, cap = 0;

		txt_emit(o, "\n");
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
				txt_emit(o, "%.*s\n", (int)len, p);
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
