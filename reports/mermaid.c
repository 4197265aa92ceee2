/*
 * The Mermaid gantt (reports/mermaid.h).  Every task gets an id of its own
 * (r0, d0g1, d0g1s, d0h0, d0t3, ...) so equal names never collide, and an
 * explicit start and end in ms, so nothing depends on Mermaid's "after".
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "engine/xalloc.h"
#include "reports/mermaid.h"
#include "reports/tool.h"
#include "sim/base/gotime.h"

char *rep_mermaid_escape(const char *s, size_t max)
{
	size_t cap = 16, n = 0, chars = 0;
	char *out = xmalloc(cap);

	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		char tmp[16] = { 0 };
		const char *add = tmp;
		size_t len = 1, adv = 1;

		if (max && chars == max) {
			add = "...";
			len = 3;
			/* Replace the tail: it was longer than max characters. */
			if (n + len + 1 > cap) {
				cap = n + len + 1;
				out = xrealloc(out, cap);
			}
			memcpy(out + n, add, len);
			n += len;
			break;
		}
		switch (*p) {
		/*
		 * Mermaid's gantt lexer ends a task name at ':', '#' and ';' and
		 * the line at '%' (a comment), and its `#58;` entity codes reach
		 * the gantt's text undecoded (garbage): a look-alike instead.
		 * '<', '>', '&' would be sanitized as markup.
		 */
		case ':':
			add = "\u2236"; /* RATIO */
			len = strlen(add);
			break;
		case '#':
			add = "\uff03"; /* FULLWIDTH NUMBER SIGN */
			len = strlen(add);
			break;
		case ';':
			add = "\uff1b"; /* FULLWIDTH SEMICOLON */
			len = strlen(add);
			break;
		case '%':
			add = "\uff05"; /* FULLWIDTH PERCENT SIGN */
			len = strlen(add);
			break;
		case '<':
			add = "\u2039"; /* SINGLE LEFT-POINTING ANGLE QUOTATION MARK */
			len = strlen(add);
			break;
		case '>':
			add = "\u203a"; /* SINGLE RIGHT-POINTING ANGLE QUOTATION MARK */
			len = strlen(add);
			break;
		case '&':
			add = "\uff06"; /* FULLWIDTH AMPERSAND */
			len = strlen(add);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				tmp[0] = ' ';
			} else if (*p >= 0x80) {
				/* Copy one UTF-8 sequence whole (continuation bytes follow). */
				adv = 1;
				while (p[adv] >= 0x80 && p[adv] < 0xc0 && adv < 4)
					adv++;
				add = (const char *)p;
				len = adv;
			} else {
				tmp[0] = (char)*p;
			}
			break;
		}
		if (n + len + 4 > cap) {
			cap = 2 * cap + len + 4;
			out = xrealloc(out, cap);
		}
		memcpy(out + n, add, len);
		n += len;
		p += adv;
		chars++;
	}
	out[n] = '\0';
	return out;
}

struct mw {
	FILE *f;
	int err;
};

static void out(struct mw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out(struct mw *w, const char *fmt, ...)
{
	va_list ap;

	if (w->err)
		return;
	va_start(ap, fmt);
	if (vfprintf(w->f, fmt, ap) < 0)
		w->err = errno ? errno : EIO;
	va_end(ap);
}

/*
 * The lexer of Mermaid's gantt takes its keywords before a task name, so a
 * name starting with one ("gantt", "title ", a date, ...) breaks the line:
 * such a name gets an invisible U+200B (ZERO WIDTH SPACE) in front.
 */
static bool keyword_start(const char *s)
{
	/* With a trailing space: the keyword needs white space after it (or the " :" that follows). */
	static const char *const kw[] = {
		"gantt", "dateFormat ", "inclusiveEndDates", "topAxis", "axisFormat ",
		"tickInterval ", "includes ", "excludes ", "todayMarker ", "weekday ", "title ",
		"accTitle", "accDescr", "section ", "click ", "call ", "href ", "displayMode",
	};
	size_t n = strlen(s);

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		size_t k = strlen(kw[i]);
		bool space = kw[i][k - 1] == ' ';

		k -= space;
		if (n >= k && !strncasecmp(s, kw[i], k) &&
		    (!space || s[k] == '\0' || isspace((unsigned char)s[k])))
			return true;
	}
	/* \d\d\d\d-\d\d-\d\d is the lexer's date token. */
	return n >= 10 && isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) &&
	       isdigit((unsigned char)s[2]) && isdigit((unsigned char)s[3]) && s[4] == '-' &&
	       isdigit((unsigned char)s[5]) && isdigit((unsigned char)s[6]) && s[7] == '-' &&
	       isdigit((unsigned char)s[8]) && isdigit((unsigned char)s[9]);
}

#define MERMAID_DATE_BUFSZ 40

/*
 * Simulated time @ms as "2023-01-01 00:10:00.000" (REP_MERMAID_ANCHOR plus
 * @ms): a date with no zone, which Mermaid reads in the reader's local time
 * and draws the axis of in local time too, so the zone cancels out.
 */
static char *date(int64_t ms, char *buf)
{
	time_t t;
	struct tm tm;

	if (ms < 0)
		ms = 0;
	t = (time_t)(REP_MERMAID_ANCHOR_UNIX + ms / 1000);
	gmtime_r(&t, &tm);
	snprintf(buf, MERMAID_DATE_BUFSZ, "%04d-%02d-%02d %02d:%02d:%02d.%03d", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
	return buf;
}

/*
 * One task line: "    PRE NAME POST :TAGS, ID, START, END", NAME cut to
 * REP_MERMAID_NAME_MAX characters (PRE and POST are short and kept whole).
 */
static void task(struct mw *w, const char *pre, const char *name, const char *post,
		 const char *tags, const char *id, int64_t start, int64_t end)
{
	char *ep = rep_mermaid_escape(pre, 0), *en = rep_mermaid_escape(name, REP_MERMAID_NAME_MAX);
	char *eq = rep_mermaid_escape(post, 0);
	char a[MERMAID_DATE_BUFSZ], b[MERMAID_DATE_BUFSZ];

	if (end <= start)
		end = start + 1; /* Mermaid draws nothing for an empty bar */
	out(w, "    %s%s%s%s :%s%s%s, %s, %s\n", keyword_start(*pre ? pre : name) ? "\u200b" : "",
	    ep, en, eq, tags, *tags ? ", " : "", id, date(start, a), date(end, b));
	free(ep);
	free(en);
	free(eq);
}

static void section(struct mw *w, const char *name)
{
	char *e = rep_mermaid_escape(name, REP_MERMAID_NAME_MAX);

	out(w, "    section %s\n", e);
	free(e);
}

static bool unfinished(enum sp_phase p)
{
	return p != SP_APPLIED && p != SP_READY && p != SP_ROLLED_BACK && p != SP_FAILED &&
	       p != SP_NOT_READY;
}

static bool bad(enum sp_phase p)
{
	return p == SP_FAILED || p == SP_NOT_READY;
}

/* Phases a target rests in (nothing under way): they do not stretch its bar. */
static bool resting(enum sp_phase p)
{
	return p == SP_PENDING || p == SP_APPLIED || p == SP_READY || p == SP_ROLLED_BACK;
}

/*
 * A target's activity: from the start of its first phase that is not a
 * resting one to the end of its last; false when it only ever rested.
 */
static bool active_span(const struct sp_target *t, int64_t *start, int64_t *end)
{
	bool any = false;

	for (size_t k = 0; k < t->nspans; k++) {
		if (resting(t->spans[k].phase))
			continue;
		if (!any)
			*start = t->spans[k].start_ms;
		*end = t->spans[k].end_ms;
		any = true;
	}
	return any;
}

/*
 * Elapsed time on the axis (the anchor is day 1 of the year, 00:00), with
 * its units on every tick so that no chart can be read as hh:mm when it is
 * mm:ss: "5m 00s" up to an hour, "1h 05m" up to a day, "day 2, 03h" after.
 */
static const char *axis_format(int64_t end_ms)
{
	if (end_ms <= 3600 * 1000)
		return "%-Mm %Ss";
	if (end_ms <= 24 * 3600 * 1000)
		return "%-Hh %Mm";
	return "day %-j, %Hh";
}

/* Characters (UTF-8 code points) of @s. */
static size_t chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/*
 * Room for the section labels, px: Mermaid draws them in a left margin of
 * gantt.leftPadding (75 px by default) at 11 px, so a longer label ran into
 * the bars.  About 7 px a character, and the margin is never narrower than
 * Mermaid's default.
 */
static unsigned left_padding(const struct sp_set *sp)
{
	size_t longest = 3; /* "run" */

	for (size_t di = 0; di < sp->ndrivers; di++) {
		char label[512];
		size_t n = chars(sp_driver_label(&sp->drivers[di], label, sizeof(label))) +
			   strlen(" targets");

		if (n > REP_MERMAID_NAME_MAX + 3)
			n = REP_MERMAID_NAME_MAX + 3;
		if (n > longest)
			longest = n;
	}
	return longest * 7 + 20 > 75 ? (unsigned)(longest * 7 + 20) : 75;
}

static void groups(struct mw *w, const struct sp_set *sp, size_t di)
{
	const struct sp_driver *d = &sp->drivers[di];
	bool steps = d->kind && !strcmp(d->kind, "Rollout");
	char id[64], name[512], dur[GT_DURATION_BUFSZ];

	for (size_t g = 0; g < d->ngroups; g++) {
		const struct sp_group *gr = &d->groups[g];
		int64_t end;
		const char *tags;

		if (gr->opened_ms < 0)
			continue;
		if (gr->passed_ms >= 0) {
			end = gr->passed_ms;
			tags = gr->halted_ms >= 0 ? "done, crit" : "done";
		} else if (gr->halted_ms >= 0) {
			end = gr->halted_ms > gr->opened_ms ? gr->halted_ms : sp->end_ms;
			tags = "crit";
		} else {
			end = sp->end_ms;
			tags = "active";
		}
		gt_format_duration(end - gr->opened_ms, dur, sizeof(dur));
		snprintf(name, sizeof(name), " (%s)", dur);
		snprintf(id, sizeof(id), "d%zug%zu", di, g);
		task(w, steps ? "step " : "wave ", gr->name, name, tags, id, gr->opened_ms, end);
		if (gr->settled_ms >= 0 && gr->soak_end_ms > gr->settled_ms) {
			snprintf(id, sizeof(id), "d%zug%zus", di, g);
			task(w, "soak ", gr->name, "", "", id, gr->settled_ms, gr->soak_end_ms);
		}
	}
}

static void halts(struct mw *w, const struct sp_set *sp, size_t di)
{
	const struct sp_driver *d = &sp->drivers[di];
	char id[64];
	size_t k = 0;

	for (size_t i = 0; i < sp->ninstants; i++) {
		const struct sp_instant *in = &sp->instants[i];

		if (in->driver != di || in->kind != SP_I_HALT)
			continue;
		snprintf(id, sizeof(id), "d%zuh%zu", di, k++);
		task(w, in->group >= 0 ? "halt in " : "halt",
		     in->group >= 0 ? d->groups[in->group].name : "", "", "milestone, crit", id,
		     in->t_ms, in->t_ms);
	}
}

/* The bars targets() would draw per phase for the whole run. */
static size_t phase_bars(const struct sp_set *sp)
{
	size_t n = 0;

	for (size_t i = 0; i < sp->ntargets; i++)
		for (size_t k = 0; k < sp->targets[i].nspans; k++)
			n += !resting(sp->targets[i].spans[k].phase);
	return n;
}

static const char *phase_tags(enum sp_phase p, bool open)
{
	return bad(p) ? "crit" : open && unfinished(p) ? "active" : "done";
}

/*
 * Per target that left pending: one bar per phase it was busy in, labelled
 * with that phase (@split), or one bar over its activity labelled with the
 * busy phases it went through, in order (each once).
 */
static void targets(struct mw *w, const struct sp_set *sp, size_t di, bool split)
{
	const struct sp_driver *d = &sp->drivers[di];
	char id[64], name[1024], post[256];
	bool header = false;

	for (size_t i = d->first; i < d->first + d->ntargets; i++) {
		const struct sp_target *t = &sp->targets[i];
		int64_t s = 0, e = 0;

		if (!active_span(t, &s, &e))
			continue;
		if (!header) {
			char label[512];

			snprintf(name, sizeof(name), "%s targets",
				 sp_driver_label(d, label, sizeof(label)));
			section(w, name);
			header = true;
		}
		snprintf(name, sizeof(name), "%s%s%s", t->ns, *t->ns ? "/" : "", t->name);
		if (split) {
			for (size_t k = 0; k < t->nspans; k++) {
				const struct sp_span *x = &t->spans[k];

				if (resting(x->phase))
					continue;
				snprintf(post, sizeof(post), " - %s", sp_phase_name(x->phase));
				snprintf(id, sizeof(id), "d%zut%zup%zu", di, i - d->first, k);
				task(w, "", name, post, phase_tags(x->phase, x->open_end), id,
				     x->start_ms, x->end_ms);
			}
		} else {
			bool seen[SP_NPHASES] = { false };
			int len = 0;
			enum sp_phase last = SP_PENDING;

			for (size_t k = 0; k < t->nspans && len >= 0 && (size_t)len < sizeof(post); k++) {
				enum sp_phase p = t->spans[k].phase;

				if (resting(p) || seen[p])
					continue;
				seen[p] = true;
				len += snprintf(post + len, sizeof(post) - (size_t)len, "%s%s",
						len ? ", " : " - ", sp_phase_name(p));
			}
			for (size_t k = t->nspans; k-- > 0;)
				if (!resting(t->spans[k].phase)) {
					last = t->spans[k].phase;
					break;
				}
			snprintf(id, sizeof(id), "d%zut%zu", di, i - d->first);
			task(w, "", name, post,
			     phase_tags(last, !t->gone && t->nspans && t->spans[t->nspans - 1].open_end &&
						      t->spans[t->nspans - 1].phase == last),
			     id, s, e);
		}
	}
}

/* Per group (and the ungrouped): one bar over its targets' activity with counts by final phase. */
static void summaries(struct mw *w, const struct sp_set *sp, size_t di)
{
	const struct sp_driver *d = &sp->drivers[di];
	size_t done = 0;
	char label[512];
	bool header = false;

	for (size_t g = 0; g <= d->ngroups; g++) {
		size_t first = g < d->ngroups ? d->groups[g].first : d->first + done;
		size_t n = g < d->ngroups ? d->groups[g].ntargets : d->ntargets - done;
		size_t count[SP_NPHASES] = { 0 }, active = 0;
		int64_t lo = INT64_MAX, hi = -1;
		char name[1024], id[64];
		int len;

		done += n;
		for (size_t i = first; i < first + n; i++) {
			int64_t s = 0, e = 0;

			if (!active_span(&sp->targets[i], &s, &e))
				continue;
			active++;
			count[sp->targets[i].final]++;
			lo = s < lo ? s : lo;
			hi = e > hi ? e : hi;
		}
		if (!active)
			continue;
		if (!header) {
			snprintf(name, sizeof(name), "%s by %s", sp_driver_label(d, label, sizeof(label)),
				 d->kind && !strcmp(d->kind, "Rollout") ? "step" : "wave");
			section(w, name);
			header = true;
		}
		len = snprintf(name, sizeof(name), " - %zu of %zu ran", active, n);
		for (size_t p = 0; p < SP_NPHASES && len > 0 && (size_t)len < sizeof(name); p++)
			if (count[p])
				len += snprintf(name + len, sizeof(name) - (size_t)len, ", %zu %s",
						count[p], sp_phase_name((enum sp_phase)p));
		snprintf(id, sizeof(id), "d%zus%zu", di, g);
		task(w, "", g < d->ngroups ? d->groups[g].name : "no group", name, "", id, lo, hi);
	}
}

int rep_mermaid(FILE *f, const struct rep_run *run, const struct sp_set *sp)
{
	struct mw w = { f, 0 };
	char dur[GT_DURATION_BUFSZ], title[512];
	bool split = sp->ntargets <= REP_MERMAID_MAX_TARGETS && phase_bars(sp) <= REP_MERMAID_MAX_BARS;
	char *e;

	gt_format_duration(sp->end_ms, dur, sizeof(dur));
	snprintf(title, sizeof(title), "%s, seed %" PRIu64 ", %zu target%s, time since the start",
		 run->name ? run->name : "run", run->seed, sp->ntargets, sp->ntargets == 1 ? "" : "s");
	e = rep_mermaid_escape(title, 0);
	out(&w, "```mermaid\n%%%%{init: {\"gantt\": {\"leftPadding\": %u}}}%%%%\n"
		"gantt\n    %%%% %s %s (commit %s)\n    title %s\n"
		"    dateFormat YYYY-MM-DD HH:mm:ss.SSS\n    axisFormat %s\n",
	    left_padding(sp), tool_name(), tool_version(), tool_commit(), e, axis_format(sp->end_ms));
	free(e);
	section(&w, "run");
	snprintf(title, sizeof(title), "run, ended at %s (%s)", dur, run->stop ? run->stop : "end");
	task(&w, title, "", "", "", "r0", 0, sp->end_ms);
	for (size_t di = 0; di < sp->ndrivers; di++) {
		char label[512];

		if (sp->drivers[di].ngroups) {
			section(&w, sp_driver_label(&sp->drivers[di], label, sizeof(label)));
			groups(&w, sp, di);
			halts(&w, sp, di);
		}
		if (sp->ntargets <= REP_MERMAID_MAX_TARGETS)
			targets(&w, sp, di, split);
		else
			summaries(&w, sp, di);
	}
	out(&w, "```\n");
	if (w.err) {
		errno = w.err;
		return -1;
	}
	return 0;
}
