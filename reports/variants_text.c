/*
 * Variant and sweep tables.  Each metric is read from plan_stats by a small
 * descriptor (which distribution or proportion, which figure, which unit),
 * so the text tables and the CSV print the same numbers.
 */
#include "reports/variants_text.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "reports/plan_text.h"

enum unit { U_MS, U_PROB, U_COUNT, U_MEMBER_MIN };
enum figure { F_P50, F_P95, F_MEAN, F_PROP };

struct metric {
	const char *head;   /* column heading, at most 11 characters */
	const char *csv;    /* CSV column */
	enum unit unit;
	enum figure fig;
	size_t off;         /* offset of the plan_dist / plan_prop in plan_stats */
};

#define DIST(field) offsetof(struct plan_stats, field)

static const struct metric m_ttc50 = { "ttc p50", "ttc_p50_ms", U_MS, F_P50, DIST(ttc) };
static const struct metric m_ttc95 = { "ttc p95", "ttc_p95_ms", U_MS, F_P95, DIST(ttc) };
static const struct metric m_complete = { "complete", "complete_p", U_PROB, F_PROP,
					  DIST(complete) };
static const struct metric m_halt = { "halt", "halt_p", U_PROB, F_PROP, DIST(halt) };
static const struct metric m_blast = { "blast mean", "blast_mean", U_COUNT, F_MEAN,
				       DIST(blast_count) };
static const struct metric m_detect = { "detect p50", "detection_p50_ms", U_MS, F_P50,
					DIST(detection) };
static const struct metric m_expo = { "member-min", "exposure_mean_ms", U_MEMBER_MIN, F_MEAN,
				      DIST(exposure) };
static const struct metric m_peak = { "jobs p95", "peak_jobs_p95", U_COUNT, F_P95,
				      DIST(peak_jobs) };
static const struct metric m_wait = { "queue mean", "job_wait_mean_ms", U_MS, F_MEAN,
				      DIST(job_wait) };

static const struct metric *const table1[] = { &m_ttc50, &m_ttc95, &m_complete, &m_halt };
/* After table1, the columns that apply (see pick_cols()). */
static const struct metric *const cols_fleet[] = { &m_blast, &m_detect, &m_expo };
static const struct metric *const cols_jobs[] = { &m_peak, &m_wait };
static const struct metric *const csv_cols[] = { &m_ttc50, &m_ttc95, &m_complete, &m_halt,
						 &m_blast, &m_detect, &m_expo, &m_peak,
						 &m_wait };

/* One figure: known (some trial had a value), censored ("> horizon"), its value. */
struct cell {
	bool known, censored;
	double v;
};

static struct cell get(const struct plan_stats *st, const struct metric *m)
{
	const char *base = (const char *)st;
	struct cell c = { false, false, 0 };

	if (m->fig == F_PROP) {
		const struct plan_prop *p = (const struct plan_prop *)(const void *)(base + m->off);

		c.known = p->n > 0;
		c.v = p->p;
		return c;
	}
	const struct plan_dist *d = (const struct plan_dist *)(const void *)(base + m->off);

	if (d->n == 0)
		return c;
	if (m->fig == F_MEAN) {
		c.known = d->n > d->ncensored;
		c.v = d->mean;
		return c;
	}
	int k = m->fig == F_P50 ? PLAN_P50 : PLAN_P95;

	c.known = true;
	c.censored = d->p_censored[k];
	c.v = d->p[k];
	return c;
}

static void fmt_value(const struct metric *m, struct cell c, int64_t horizon_ms, char *buf,
		      size_t len)
{
	char h[24];

	if (!c.known) {
		snprintf(buf, len, "-");
		return;
	}
	if (c.censored) {
		rep_plan_duration(horizon_ms, h, sizeof(h));
		snprintf(buf, len, "> %s", h);
		return;
	}
	switch (m->unit) {
	case U_MS:
		rep_plan_duration(llround(c.v), buf, len);
		return;
	case U_PROB:
		snprintf(buf, len, "%.1f%%", c.v * 100);
		return;
	case U_COUNT:
		if (c.v == floor(c.v) && fabs(c.v) < 1e15)
			snprintf(buf, len, "%.0f", c.v);
		else
			snprintf(buf, len, "%.1f", c.v);
		return;
	case U_MEMBER_MIN:
		snprintf(buf, len, "%.1f", c.v / 60000.0);
		return;
	}
}

static void fmt_delta(const struct metric *m, struct cell b, struct cell c, char *buf, size_t len)
{
	double dv;

	if (!b.known && !c.known) {
		snprintf(buf, len, "-");
		return;
	}
	if (!b.known || !c.known || b.censored || c.censored) {
		snprintf(buf, len, "n/a");
		return;
	}
	dv = c.v - b.v;
	switch (m->unit) {
	case U_MS: {
		int64_t ms = llround(dv);

		if (ms == 0) {
			snprintf(buf, len, "0");
			return;
		}
		buf[0] = ms > 0 ? '+' : '\0';
		rep_plan_duration(ms, buf + (ms > 0), len - 1);
		return;
	}
	case U_PROB:
		if (fabs(dv) < 0.0005)
			snprintf(buf, len, "0pp");
		else
			snprintf(buf, len, "%+.1fpp", dv * 100);
		return;
	case U_COUNT:
		if (fabs(dv) < 0.05)
			snprintf(buf, len, "0");
		else
			snprintf(buf, len, "%+.1f", dv);
		return;
	case U_MEMBER_MIN:
		if (fabs(dv) < 3000)
			snprintf(buf, len, "0");
		else
			snprintf(buf, len, "%+.1f", dv / 60000.0);
		return;
	}
}

/* @name cut to @w - 1 columns ("~" marks the cut), padded to @w; bytes, not UTF-8 aware. */
static int put_name(FILE *f, const char *name, const char *indent, int w)
{
	size_t room = (size_t)w - 1 - strlen(indent);

	if (strlen(name) > room)
		return fprintf(f, "%s%.*s~ ", indent, (int)(room - 1), name);
	return fprintf(f, "%s%-*s", indent, (int)((size_t)w - strlen(indent)), name);
}

/*
 * The name column is 24 wide with deltas (variant names), else 14 (sweep
 * values), 10 when there are more than 6 columns (a fleet sweep: 87 wide).
 */
static int table(FILE *f, const struct rep_variant *v, size_t n, const struct metric *const *cols,
		 size_t ncols, int colw, bool deltas, bool color)
{
	int nw = deltas ? 24 : ncols > 6 ? 10 : 14;
	char buf[40];

	if (fprintf(f, "%s%-*s", color ? "\033[1m" : "", nw, deltas ? "variant" : "value") < 0)
		return -1;
	for (size_t k = 0; k < ncols; k++)
		if (fprintf(f, "%*s", colw, cols[k]->head) < 0)
			return -1;
	if (fprintf(f, "%s\n", color ? "\033[0m" : "") < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (put_name(f, v[i].name, "", nw) < 0)
			return -1;
		for (size_t k = 0; k < ncols; k++) {
			fmt_value(cols[k], get(v[i].st, cols[k]), v[i].st->horizon_ms, buf, sizeof(buf));
			if (fprintf(f, "%*s", colw, buf) < 0)
				return -1;
		}
		if (fputc('\n', f) == EOF)
			return -1;
		if (!deltas || i == 0)
			continue;
		if (put_name(f, "vs base", "  ", nw) < 0)
			return -1;
		for (size_t k = 0; k < ncols; k++) {
			fmt_delta(cols[k], get(v[0].st, cols[k]), get(v[i].st, cols[k]), buf,
				  sizeof(buf));
			if (fprintf(f, "%*s", colw, buf) < 0)
				return -1;
		}
		if (fputc('\n', f) == EOF)
			return -1;
	}
	return 0;
}

/* Whether any row's trials have a non-zero figure in the plan_dist at @off. */
static bool any_dist(const struct rep_variant *v, size_t n, size_t off)
{
	for (size_t i = 0; i < n; i++) {
		const struct plan_dist *d =
			(const struct plan_dist *)(const void *)((const char *)v[i].st + off);

		if (d->n > d->ncensored && d->max > 0)
			return true;
	}
	return false;
}

/*
 * The columns that apply to these trials, after the @nhead of @head: the
 * fleet ones (blast, detection, exposure) when some trial adopted a member or
 * halted, the Jobs ones (peak, queueing) when some trial ran a Job, and the
 * Jobs ones when neither.  Returns how many it put into @cols (room for 9).
 */
static size_t pick_cols(const struct rep_variant *v, size_t n, const struct metric *const *head,
			size_t nhead, const struct metric **cols, bool *jobs, bool *fleet)
{
	size_t ncols = 0;

	*jobs = any_dist(v, n, DIST(peak_jobs)) || any_dist(v, n, DIST(job_wait));
	*fleet = any_dist(v, n, DIST(peak_adopting)) || any_dist(v, n, DIST(blast_count));
	for (size_t k = 0; k < nhead; k++)
		cols[ncols++] = head[k];
	if (*fleet)
		for (size_t k = 0; k < sizeof(cols_fleet) / sizeof(cols_fleet[0]); k++)
			cols[ncols++] = cols_fleet[k];
	if (*jobs || !*fleet)
		for (size_t k = 0; k < sizeof(cols_jobs) / sizeof(cols_jobs[0]); k++)
			cols[ncols++] = cols_jobs[k];
	return ncols;
}

/* The legend of the columns pick_cols() chose, after "ttc: time to complete". */
static int legend(FILE *f, bool jobs, bool fleet)
{
	if (fleet && fputs("; blast: targets reached before a halt;\n"
			   "detect: fault onset to halt, halted trials only; member-min: exposure,\n"
			   "member-minutes on a bad version before the halt; blast and exposure\n"
			   "count 0 for a trial without a halt (their mean is the expected harm per\n"
			   "rollout)",
			   f) == EOF)
		return -1;
	if ((jobs || !fleet) &&
	    fputs(";\njobs p95: peak concurrent plan/apply Jobs (p95 over trials); queue mean:\n"
		  "total Job wait for a runner per trial, mean",
		  f) == EOF)
		return -1;
	return fputs(".\n", f) == EOF ? -1 : 0;
}

int rep_variants_text(FILE *f, const struct rep_variant *v, size_t n, uint64_t seed,
		      size_t ntrials, bool color)
{
	const struct metric *cols2[9];
	bool described = false, jobs, fleet;
	size_t ncols2 = pick_cols(v, n, NULL, 0, cols2, &jobs, &fleet);

	errno = 0;
	if (fprintf(f, "%sVariants%s: %zu trials each on common random numbers (seed %" PRIu64 ")\n\n",
		    color ? "\033[1m" : "", color ? "\033[0m" : "", ntrials, seed) < 0 ||
	    table(f, v, n, table1, sizeof(table1) / sizeof(table1[0]), 12, true, color) != 0 ||
	    fputc('\n', f) == EOF || table(f, v, n, cols2, ncols2, 11, true, color) != 0)
		goto out_write_error;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].description || !v[i].description[0])
			continue;
		if (!described && fputs("\n", f) == EOF)
			goto out_write_error;
		described = true;
		if (fprintf(f, "%s: %s\n", v[i].name, v[i].description) < 0)
			goto out_write_error;
	}
	if (fputs("\nttc: time to complete", f) == EOF || legend(f, jobs, fleet) != 0 ||
	    fputs("Deltas: variant minus base, on the same trial seeds.\n", f) == EOF)
		goto out_write_error;
	if (ferror(f))
		goto out_write_error;
	return 0;

out_write_error:
	if (!errno)
		errno = EIO;
	return -1;
}

int rep_sweep_text(FILE *f, const char *param, const struct rep_variant *v, size_t n,
		   uint64_t seed, size_t ntrials, bool color)
{
	const struct metric *cols[9];
	bool jobs, fleet;
	size_t ncols = pick_cols(v, n, table1, sizeof(table1) / sizeof(table1[0]), cols, &jobs,
				 &fleet);

	errno = 0;
	if (fprintf(f, "%sSweep of %s%s: %zu trials per value on common random numbers (seed %" PRIu64
		       ")\n\n",
		    color ? "\033[1m" : "", param, color ? "\033[0m" : "", ntrials, seed) < 0 ||
	    table(f, v, n, cols, ncols, 11, false, color) != 0 ||
	    fputs("\nttc: time to complete", f) == EOF || legend(f, jobs, fleet) != 0)
		goto out_write_error;
	if (ferror(f))
		goto out_write_error;
	return 0;

out_write_error:
	if (!errno)
		errno = EIO;
	return -1;
}

/* @s as one CSV field (quoted when it holds a comma, quote, CR or LF). */
static int csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n"))
		return fputs(s, f) == EOF ? -1 : 0;
	if (fputc('"', f) == EOF)
		return -1;
	for (; *s; s++)
		if ((*s == '"' && fputc('"', f) == EOF) || fputc(*s, f) == EOF)
			return -1;
	return fputc('"', f) == EOF ? -1 : 0;
}

int rep_sweep_csv(FILE *f, const char *param, const struct rep_variant *v, size_t n)
{
	const size_t ncols = sizeof(csv_cols) / sizeof(csv_cols[0]);

	errno = 0;
	if (csv_field(f, param) != 0)
		goto out_write_error;
	for (size_t k = 0; k < ncols; k++)
		if (fprintf(f, ",%s", csv_cols[k]->csv) < 0)
			goto out_write_error;
	if (fputs(",ntrials\r\n", f) == EOF)
		goto out_write_error;
	for (size_t i = 0; i < n; i++) {
		if (csv_field(f, v[i].name) != 0)
			goto out_write_error;
		for (size_t k = 0; k < ncols; k++) {
			struct cell c = get(v[i].st, csv_cols[k]);
			int rc;

			if (!c.known || c.censored)
				rc = fputc(',', f) == EOF ? -1 : 0;
			else if (csv_cols[k]->unit == U_MS)
				rc = fprintf(f, ",%lld", (long long)llround(c.v));
			else
				rc = fprintf(f, ",%.6g", c.v);
			if (rc < 0)
				goto out_write_error;
		}
		if (fprintf(f, ",%zu\r\n", v[i].st->ntrials) < 0)
			goto out_write_error;
	}
	if (ferror(f))
		goto out_write_error;
	return 0;

out_write_error:
	if (!errno)
		errno = EIO;
	return -1;
}
