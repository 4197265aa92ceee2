/*
 * The JSON document of a set of trials (schema in reports/plan_json.h).
 * Written as a stream — head, one trial per line, statistics — so a million
 * trials never build one big tree.  Times in ms are integers and reals carry
 * 10 significant digits, so the same trials give the same bytes.
 */
#include "reports/plan_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "reports/tool.h"

/* jansson rejects NULL (and invalid UTF-8); both become JSON null here. */
static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;

	return j ? j : json_null();
}

static json_t *ms_or_null(int64_t v, bool present)
{
	return present ? json_integer((json_int_t)v) : json_null();
}

/* A u64 that does not fit a JSON integer in every reader becomes a decimal string. */
static json_t *u64(uint64_t v)
{
	char buf[32];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

/* A real, or null for NaN/Inf (json_real() refuses them and a key would vanish). */
static json_t *real(double v)
{
	json_t *j = isfinite(v) ? json_real(v) : NULL;

	return j ? j : json_null();
}

/* A figure of a distribution: an integer for ms quantities, else a real. */
static json_t *fig(double v, bool ms)
{
	if (ms && isfinite(v))
		return json_integer((json_int_t)llround(v));
	return real(v);
}

/* Writes @j (stolen) compactly, then @after; -1 on a write error. */
static int put(FILE *f, json_t *j, const char *after)
{
	int rc = -1;
	char *s;

	if (!j) {
		errno = ENOMEM;
		return -1;
	}
	s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY |
				  JSON_REAL_PRECISION(10));
	json_decref(j);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	if (fputs(s, f) >= 0 && fputs(after, f) >= 0)
		rc = 0;
	free(s);
	return rc;
}

static json_t *row_obj(const struct trial_row *r)
{
	json_t *o = json_object(), *ph = json_array();

	json_object_set_new(o, "index", json_integer(r->index));
	json_object_set_new(o, "seed", u64(r->seed));
	json_object_set_new(o, "stop", json_string(des_stop_name(r->stop)));
	json_object_set_new(o, "end_ms", json_integer((json_int_t)r->end_ms));
	json_object_set_new(o, "events", u64(r->events));
	json_object_set_new(o, "completed", json_boolean(r->completed));
	json_object_set_new(o, "ttc_ms", ms_or_null(r->ttc_ms, r->ttc_ms >= 0));
	json_object_set_new(o, "already_complete", json_boolean(r->already_complete));
	json_object_set_new(o, "nothing_to_complete", json_boolean(r->nothing_to_complete));
	json_object_set_new(o, "halted", json_boolean(r->halted));
	json_object_set_new(o, "halt_ms", ms_or_null(r->halt_ms, r->halt_ms >= 0));
	json_object_set_new(o, "halt_before_start", json_boolean(r->halt_before_start));
	json_object_set_new(o, "halt_where", str_or_null(r->halt_where));
	json_object_set_new(o, "halt_reason", str_or_null(r->halt_reason));
	/* Measured at a halt: null without one, as in run/v1. */
	json_object_set_new(o, "blast_count", r->halted ? u64(r->blast_count) : json_null());
	json_object_set_new(o, "blast_total", u64(r->blast_total));
	json_object_set_new(o, "detection_ms", ms_or_null(r->detection_ms, r->detection_ms >= 0));
	json_object_set_new(o, "exposure_ms", ms_or_null(r->exposure_ms, r->halted));
	json_object_set_new(o, "peak_jobs", json_integer(r->peak_jobs));
	json_object_set_new(o, "peak_adopting", json_integer(r->peak_adopting));
	json_object_set_new(o, "job_wait_ms", json_integer((json_int_t)r->job_wait_ms));
	for (size_t i = 0; i < r->nphases; i++) {
		const struct trial_phase *p = &r->phases[i];

		json_array_append_new(ph, json_pack("{s:o,s:o,s:o,s:o}", "driver",
						    str_or_null(p->driver), "name", str_or_null(p->name),
						    "opened_ms", ms_or_null(p->opened_ms, p->opened_ms >= 0),
						    "done_ms", ms_or_null(p->done_ms, p->done_ms >= 0)));
	}
	json_object_set_new(o, "phases", ph);
	json_object_set_new(o, "bound_note", str_or_null(r->bound_note));
	ph = json_array();
	for (size_t i = 0; i < r->nnotices; i++)
		json_array_append_new(ph, json_pack("{s:s,s:o}", "severity",
						    tl_severity_name(r->notices[i].severity), "text",
						    str_or_null(r->notices[i].text)));
	json_object_set_new(o, "notices", ph);
	return o;
}

static json_t *dist_obj(const struct plan_dist *d, bool ms)
{
	static const char *const names[PLAN_NPCT] = { "p50", "p90", "p95", "p99" };
	json_t *o = json_object();
	bool known = d->n > d->ncensored;

	json_object_set_new(o, "n", json_integer((json_int_t)d->n));
	json_object_set_new(o, "ncensored", json_integer((json_int_t)d->ncensored));
	for (int k = 0; k < PLAN_NPCT; k++) {
		json_t *v;

		if (d->n == 0)
			v = json_null();
		else if (d->p_censored[k])
			v = json_string(">horizon");
		else
			v = fig(d->p[k], ms);
		json_object_set_new(o, names[k], v);
	}
	json_object_set_new(o, "mean", known ? fig(d->mean, ms) : json_null());
	json_object_set_new(o, "ci95",
			    known ? json_pack("[o,o]", fig(d->ci95_lo, ms), fig(d->ci95_hi, ms))
				  : json_null());
	json_object_set_new(o, "min", known ? fig(d->min, ms) : json_null());
	json_object_set_new(o, "max", known ? fig(d->max, ms) : json_null());
	return o;
}

static json_t *prop_obj(const struct plan_prop *p)
{
	return json_pack("{s:I,s:I,s:o,s:o,s:o}", "k", (json_int_t)p->k, "n", (json_int_t)p->n, "p",
			 real(p->p), "lo", real(p->lo), "hi", real(p->hi));
}

static json_t *stats_obj(const struct plan_stats *st)
{
	json_t *o = json_object(), *h = json_array(), *ph = json_array();

	json_object_set_new(o, "ntrials", json_integer((json_int_t)st->ntrials));
	json_object_set_new(o, "horizon_ms", json_integer((json_int_t)st->horizon_ms));
	json_object_set_new(o, "complete", prop_obj(&st->complete));
	json_object_set_new(o, "halt", prop_obj(&st->halt));
	json_object_set_new(o, "nbound", json_integer((json_int_t)st->nbound));
	if (st->sketched)
		json_object_set_new(o, "sketch",
				    json_pack("{s:o,s:I}", "relative_error", real(PLAN_SKETCH_REL_ERR),
					      "exact_values", (json_int_t)st->exact_values));
	json_object_set_new(o, "ttc", dist_obj(&st->ttc, true));
	json_object_set_new(o, "already_complete", json_integer((json_int_t)st->nalready));
	json_object_set_new(o, "nothing_to_complete", json_integer((json_int_t)st->nnothing));
	json_object_set_new(o, "blast_count", dist_obj(&st->blast_count, false));
	json_object_set_new(o, "blast_share", dist_obj(&st->blast_share, false));
	json_object_set_new(o, "detection", dist_obj(&st->detection, true));
	json_object_set_new(o, "exposure", dist_obj(&st->exposure, true));
	json_object_set_new(o, "peak_jobs", dist_obj(&st->peak_jobs, false));
	json_object_set_new(o, "peak_adopting", dist_obj(&st->peak_adopting, false));
	json_object_set_new(o, "job_wait", dist_obj(&st->job_wait, true));
	for (size_t i = 0; i < st->nhalts; i++)
		json_array_append_new(h, json_pack("{s:o,s:o,s:I}", "where",
						   str_or_null(st->halts[i].where), "reason",
						   str_or_null(st->halts[i].reason), "n",
						   (json_int_t)st->halts[i].n));
	json_object_set_new(o, "halts", h);
	h = json_array();
	for (size_t i = 0; i < st->nnotices; i++)
		json_array_append_new(h, json_pack("{s:s,s:o,s:I,s:I}", "severity",
						   tl_severity_name(st->notices[i].severity), "text",
						   str_or_null(st->notices[i].text), "trials",
						   (json_int_t)st->notices[i].n, "first_trial",
						   (json_int_t)st->notices[i].first));
	json_object_set_new(o, "notices", h);
	for (size_t i = 0; i < st->nphases; i++)
		json_array_append_new(ph, json_pack("{s:o,s:o,s:o,s:I}", "driver",
						    str_or_null(st->phases[i].driver), "name",
						    str_or_null(st->phases[i].name), "duration",
						    dist_obj(&st->phases[i].duration, true), "ncritical",
						    (json_int_t)st->phases[i].ncritical));
	json_object_set_new(o, "phases", ph);
	return o;
}

int rep_plan_json(FILE *f, const struct rep_plan *p)
{
	return rep_plan_json_variants(f, p, NULL, 0);
}

/* The variants array (after the base's statistics): [{name, description, statistics}]. */
static int put_variants(FILE *f, const struct rep_variant *v, size_t nv)
{
	if (fputs(",\n  \"variants\": [", f) < 0)
		return -1;
	for (size_t i = 0; i < nv; i++) {
		json_t *o = json_pack("{s:o,s:o,s:o}", "name", str_or_null(v[i].name), "description",
				      str_or_null(v[i].description), "statistics",
				      stats_obj(v[i].st));

		if (fputs(i ? ",\n    " : "\n    ", f) < 0 || put(f, o, "") < 0)
			return -1;
	}
	return fputs(nv ? "\n  ]" : "]", f) < 0 ? -1 : 0;
}

int rep_plan_json_variants(FILE *f, const struct rep_plan *p, const struct rep_variant *v,
			   size_t nv)
{
	json_t *sc = json_object(), *files = json_array();

	errno = 0;
	for (size_t i = 0; i < p->nfiles; i++)
		json_array_append_new(files, str_or_null(p->files[i]));
	json_object_set_new(sc, "name", str_or_null(p->name));
	json_object_set_new(sc, "files", files);
	json_object_set_new(sc, "seed", u64(p->seed));
	json_object_set_new(sc, "horizon_ms", json_integer((json_int_t)p->horizon_ms));
	/* horizon_ms and the times count from this run's 0; resumed_ms puts them on
	 * the original run's clock (0 when not resumed) */
	json_object_set_new(sc, "resumed_ms", json_integer((json_int_t)p->resumed_ms));
	if (fputs("{\n  \"schema\": \"magos-sim/trials/v1\",\n  \"tool\": ", f) < 0 ||
	    put(f, json_pack("{s:s,s:s,s:s}", "name", tool_name(), "version", tool_version(), "commit", tool_commit()), ",\n  \"scenario\": ") < 0 ||
	    put(f, sc, ",\n  \"first\": ") < 0 ||
	    fprintf(f, "%" PRIu32 ",\n  \"n\": %zu,\n  \"trials\": [", p->first, p->n) < 0)
		goto out_write_error;
	for (size_t i = 0; i < p->n; i++)
		if (fputs(i ? ",\n    " : "\n    ", f) < 0 || put(f, row_obj(&p->rows[i]), "") < 0)
			goto out_write_error;
	if (fputs(p->n ? "\n  ],\n  \"statistics\": " : "],\n  \"statistics\": ", f) < 0 ||
	    put(f, stats_obj(p->st), "") < 0 || (v && put_variants(f, v, nv) < 0) ||
	    fputs("\n}\n", f) < 0)
		goto out_write_error;
	if (ferror(f))
		goto out_write_error;
	return 0;

out_write_error:
	if (!errno)
		errno = EIO;
	return -1;
}
