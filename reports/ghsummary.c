/* The Markdown summary of `magos-sim check` (see reports/ghsummary.h). */
#include "reports/ghsummary.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/tool.h"
#include "sim/base/gotime.h"
#include "sim/base/quote.h"

/* Room kept for the truncation note, bytes. */
#define NOTE_ROOM 256

/* Whether the '.' at @s (within @start) ends "www", case-insensitive, where an autolink could start. */
static bool after_www(const char *start, const char *s)
{
	return s - start >= 3 && (s[-1] | 0x20) == 'w' && (s[-2] | 0x20) == 'w' &&
	       (s[-3] | 0x20) == 'w';
}

/*
 * The input text @s with its control characters escaped as qt_text() writes
 * them (an ESC must not reach whoever reads the summary, raw or rendered),
 * except CR and LF: the callers write those as spaces, Markdown's rule for a
 * line break within a table row.  Returns new.
 */
static char *quoted(const char *s)
{
	return qt_text_keep(s, "\r\n");
}

char *ghs_cell(const char *text)
{
	char *q = quoted(text), *out = xmalloc(strlen(q) * 2 + 1), *p = out;
	const char *start = q, *s = q;

	for (; *s; s++) {
		if (*s == '\n' || *s == '\r') {
			*p++ = ' ';
			continue;
		}
		if (strchr("\\`*_[]<>!~|&$@", *s) || (*s == ':' && !strncmp(s + 1, "//", 2)) ||
		    (*s == '.' && after_www(start, s)))
			*p++ = '\\';
		*p++ = *s;
	}
	*p = '\0';
	free(q);
	return out;
}

char *ghs_code(const char *text)
{
	char *q = quoted(text), *out, *p;
	const char *s = q;
	size_t run = 0, longest = 0, n = strlen(s), fence;
	bool pad;

	for (const char *c = s; *c; c++) {
		run = *c == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	fence = longest + 1;
	/* A span that starts or ends with a backtick needs a space, which GFM strips. */
	pad = n && (s[0] == '`' || s[n - 1] == '`');
	out = p = xmalloc(2 * fence + 2 * n + 3);
	memset(p, '`', fence);
	p += fence;
	if (pad)
		*p++ = ' ';
	for (; *s; s++) {
		if (*s == '|')
			*p++ = '\\';
		*p++ = (*s == '\n' || *s == '\r') ? ' ' : *s;
	}
	if (pad)
		*p++ = ' ';
	memset(p, '`', fence);
	p += fence;
	*p = '\0';
	free(q);
	return out;
}

/* A growing text. */
struct buf {
	char *s;
	size_t n, cap;
};

static void bprintf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		abort(); /* only an invalid format, a bug */
	if (b->n + (size_t)len + 1 > b->cap) {
		b->cap = (b->n + (size_t)len + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)len + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)len;
}

static void fmt_ms(double ms, bool censored, int64_t horizon_ms, char *buf, size_t len)
{
	char d[GT_DURATION_BUFSZ];

	if (censored) {
		gt_format_duration(horizon_ms, d, sizeof(d));
		snprintf(buf, len, "> %s", d);
	} else {
		gt_format_duration((int64_t)(ms + 0.5), d, sizeof(d));
		snprintf(buf, len, "%s", d);
	}
}

static const char *mark_of(enum exp_outcome o)
{
	switch (o) {
	case EXP_PASSED: return "✅";
	case EXP_FAILED: return "❌";
	case EXP_WARNED: return "⚠️";
	case EXP_SKIPPED: return "⏭️";
	default: return "ℹ️";
	}
}

static void figures(struct buf *b, const struct exp_scenario_report *r, size_t n)
{
	bprintf(b, "### Key figures\n\n"
		   "| scenario | trials | completed | time to complete p50 / p95 | halt probability | blast radius (largest) |\n"
		   "|---|---:|---:|---|---:|---|\n");
	for (size_t i = 0; i < n; i++) {
		const struct exp_figures *f = &r[i].fig;
		char *name = ghs_cell(r[i].name ? r[i].name : r[i].input);
		char p50[64], p95[64];

		if (!f->have) {
			bprintf(b, "| %s | – | – | – | – | – |\n", name);
			free(name);
			continue;
		}
		if (f->completed) {
			fmt_ms(f->ttc_p50, f->ttc_p50_censored, f->horizon_ms, p50, sizeof(p50));
			fmt_ms(f->ttc_p95, f->ttc_p95_censored, f->horizon_ms, p95, sizeof(p95));
		} else {
			fmt_ms(0, true, f->horizon_ms, p50, sizeof(p50));
			fmt_ms(0, true, f->horizon_ms, p95, sizeof(p95));
		}
		bprintf(b, "| %s | %zu | %zu | %s / %s%s%s%s | %.4g%% | %.6g (%.4g%%) |\n", name,
			f->ntrials, f->completed, p50, p95, f->ttc_from ? " (" : "",
			f->ttc_from ? f->ttc_from : "", f->ttc_from ? ")" : "",
			f->ntrials ? 100.0 * (double)f->halted / (double)f->ntrials : 0.0,
			f->blast_max, 100.0 * f->blast_share_max);
		free(name);
	}
	bprintf(b, "\n");
}

int ghs_write(FILE *f, const struct exp_scenario_report *r, size_t n, size_t limit)
{
	struct buf b = { 0 };
	size_t total = 0, failed = 0, warned = 0, invalid = 0, shown = 0, left = 0;

	for (size_t i = 0; i < n; i++) {
		total += r[i].n;
		failed += r[i].nfailed;
		warned += r[i].nwarned;
		invalid += r[i].invalid;
	}
	bprintf(&b, "## magos-sim check %s\n\n", failed || invalid ? "❌" : "✅");
	bprintf(&b, "%zu check%s in %zu scenario%s: **%zu failed**, %zu warning%s", total,
		total == 1 ? "" : "s", n, n == 1 ? "" : "s", failed, warned, warned == 1 ? "" : "s");
	if (invalid)
		bprintf(&b, ", %zu invalid, not run", invalid);
	bprintf(&b, ".\n\n");
	figures(&b, r, n);
	bprintf(&b, "### Checks\n\n| | check | where | result |\n|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		const struct exp_scenario_report *s = &r[i];

		if (s->invalid && !s->n) {
			char *in;
			size_t before = b.n;

			if (left) {
				left++;
				continue;
			}
			in = ghs_code(s->input);
			bprintf(&b, "| ❌ | load | %s | invalid input |\n", in);
			free(in);
			if (b.n + NOTE_ROOM > limit) {
				b.n = before;
				b.s[b.n] = '\0';
				left++;
			}
			continue;
		}
		for (size_t k = 0; k < s->n; k++) {
			const struct exp_result *x = &s->items[k];
			char *id, *where, *msg, *w, loc[48] = "";
			size_t before = b.n;

			if (left) {
				left++;
				continue;
			}
			if (x->mark.line)
				snprintf(loc, sizeof(loc), ":%u:%u", x->mark.line, x->mark.col);
			id = ghs_code(x->id);
			{
				const char *parts[2] = { x->file ? x->file : s->input, loc };

				w = xstrjoin(parts, 2, "");
			}
			where = ghs_code(w);
			free(w);
			msg = ghs_cell(x->message);
			bprintf(&b, "| %s | %s | %s | %s |\n", mark_of(x->outcome), id, where, msg);
			free(id);
			free(where);
			free(msg);
			if (b.n + NOTE_ROOM > limit) {
				/* This row would leave no room for the note: it goes, and so do the rest. */
				b.n = before;
				b.s[b.n] = '\0';
				left++;
			} else {
				shown++;
			}
		}
	}
	if (left)
		bprintf(&b, "\n_Truncated: %zu more check%s not shown (a step summary must stay under %zu bytes); see the JUnit report or the log._\n",
			left, left == 1 ? "" : "s", limit);
	bprintf(&b, "\n<sub>%s %s, commit %s</sub>\n", tool_name(), tool_version(), tool_commit());
	fwrite(b.s, 1, b.n, f);
	free(b.s);
	return ferror(f) ? -1 : 0;
}
