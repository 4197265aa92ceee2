#include "sim/cli/progress.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/gotime.h"
#include "sim/cli/interrupt.h"

#define BAR 20

/*
 * Whether a progress line is on the terminal now, for the signal cleanup:
 * set once a line was drawn, cleared before prog_clear() erases it.  (One
 * line per process: there is one standard error.)
 */
static volatile sig_atomic_t line_shown;

/* The signal cleanup: erases the line (async-signal-safe: write(2) only). */
static void erase_on_signal(void)
{
	static const char erase[] = "\r\033[K";

	if (line_shown && write(STDERR_FILENO, erase, sizeof(erase) - 1) < 0)
		line_shown = 0; /* (nothing more to do: the process is dying) */
}

void prog_init(struct prog *p, bool quiet)
{
	const char *ci = getenv("CI"), *term = getenv("TERM");

	const char *after = getenv("MAGOS_PROGRESS_AFTER");
	char *end;

	memset(p, 0, sizeof(*p));
	p->on = !quiet && isatty(STDERR_FILENO) == 1 && !(ci && *ci) &&
		!(term && !strcmp(term, "dumb"));
	/* Ctrl-C in the middle of the work leaves no half line behind the shell's prompt. */
	if (p->on)
		intr_at_signal(erase_on_signal);
	p->after = 0.5;
	if (after && *after) {
		double v = strtod(after, &end);

		if (!*end && v >= 0 && v <= 3600)
			p->after = v;
	}
}

void prog_start(struct prog *p, const char *label)
{
	if (!p->on)
		return;
	snprintf(p->label, sizeof(p->label), "%s", label);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
}

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* The seconds since the phase started when the line is due a redraw, else -1. */
static double due(struct prog *p)
{
	struct timespec now;
	double el;

	if (!p->on)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	el = since(&p->start, &now);
	if (el < p->after || (p->shown && since(&p->last, &now) < 0.1))
		return -1;
	p->last = now;
	p->shown = true;
	return el;
}

static void bar(char *out, double frac)
{
	size_t fill = frac <= 0 ? 0 : frac >= 1 ? BAR : (size_t)(frac * BAR);

	for (size_t i = 0; i < BAR; i++)
		out[i] = i < fill ? '#' : '.';
	out[BAR] = '\0';
}

/* "m:ss" (or "h:mm:ss") of @s seconds. */
static void clock_text(double s, char *out, size_t n)
{
	long t = s < 0 ? 0 : s > 359999 ? 359999 : (long)(s + 0.5);

	if (t >= 3600)
		snprintf(out, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(out, n, "%ld:%02ld", t / 60, t % 60);
}

static void draw(const struct prog *p, const char *b, const char *what, const char *rest)
{
	fprintf(stderr, "\r%s [%s] %s  %s\033[K", p->label, b, what, rest);
	fflush(stderr);
	line_shown = 1;
}

void prog_count(struct prog *p, uint64_t done, uint64_t total, const char *unit)
{
	double el = due(p), rate;
	char b[BAR + 1], what[96], rest[64], eta[32];

	if (el < 0 || total == 0)
		return;
	rate = (double)done / el;
	clock_text(rate > 0 ? (double)(total - done) / rate : 0, eta, sizeof(eta));
	bar(b, (double)done / (double)total);
	snprintf(what, sizeof(what), "%" PRIu64 "/%" PRIu64 " %s", done, total, unit);
	snprintf(rest, sizeof(rest), "%.*f/s  ETA %s", rate < 10 ? 1 : 0, rate,
		 done ? eta : "?");
	draw(p, b, what, rest);
}

void prog_bytes(struct prog *p, uint64_t done, uint64_t total)
{
	double el = due(p), rate;
	char b[BAR + 1], what[96], rest[64], eta[32];

	if (el < 0 || total == 0)
		return;
	rate = (double)done / el;
	clock_text(rate > 0 ? (double)(total - done) / rate : 0, eta, sizeof(eta));
	bar(b, (double)done / (double)total);
	snprintf(what, sizeof(what), "%.1f/%.1f MB", (double)done / 1e6, (double)total / 1e6);
	snprintf(rest, sizeof(rest), "%.1f MB/s  ETA %s", rate / 1e6, done ? eta : "?");
	draw(p, b, what, rest);
}

void prog_sim(struct prog *p, int64_t now_ms, int64_t horizon_ms, uint64_t events)
{
	double el = due(p), frac, rate;
	char b[BAR + 1], what[96], rest[64], eta[32], t[GT_DURATION_BUFSZ], h[GT_DURATION_BUFSZ];

	if (el < 0 || horizon_ms <= 0)
		return;
	frac = (double)now_ms / (double)horizon_ms;
	rate = (double)events / el;
	clock_text(frac > 0 ? el / frac - el : 0, eta, sizeof(eta));
	bar(b, frac);
	gt_format_duration(now_ms, t, sizeof(t));
	gt_format_duration(horizon_ms, h, sizeof(h));
	snprintf(what, sizeof(what), "%s of %s simulated", t, h);
	snprintf(rest, sizeof(rest), "%.0fk events/s  ETA <= %s", rate / 1e3, frac > 0 ? eta : "?");
	draw(p, b, what, rest);
}

void prog_clear(struct prog *p)
{
	if (!p->shown)
		return;
	line_shown = 0;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = false;
}

void prog_trials_cb(void *ctx, uint32_t done, uint32_t n)
{
	const struct prog_trials *t = ctx;

	(void)n;
	prog_count(t->p, t->before + done, t->total, "trials");
}
