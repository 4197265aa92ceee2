/*
 * Partial results of sharded trials: written as a stream (one row per line),
 * read back with jansson, merged after checking they belong together.  Every
 * field of a trial row round-trips exactly (integers stay integers), so the
 * statistics of merged rows are those of an unsharded run.
 */
#include "reports/partial.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/xalloc.h"
#include "reports/tool.h"
#include "sim/base/limits.h"
#include "sim/base/quote.h"
#include "sim/base/readfile.h"

#define SCHEMA "magos-sim/partial/v1"
#define SCHEMA_V2 "magos-sim/partial/v2"

int partial_parse_shard(const char *s, uint32_t max_n, uint32_t *k, uint32_t *n, char *err,
			size_t errlen)
{
	unsigned long long a, b;
	char *end;

	if (!s || *s < '0' || *s > '9')
		goto out_bad;
	errno = 0;
	a = strtoull(s, &end, 10);
	if (errno || *end != '/' || end[1] < '0' || end[1] > '9')
		goto out_bad;
	b = strtoull(end + 1, &end, 10);
	if (errno || *end)
		goto out_bad;
	if (b < 1 || b > max_n) {
		snprintf(err, errlen, "invalid shard '%s': the shard count must be from 1 to %" PRIu32,
			 s, max_n);
		return -1;
	}
	if (a < 1 || a > b) {
		snprintf(err, errlen, "invalid shard '%s': K must be from 1 to %llu (K is 1-based)", s,
			 b);
		return -1;
	}
	*k = (uint32_t)a;
	*n = (uint32_t)b;
	return 0;

out_bad:
	snprintf(err, errlen, "invalid shard '%s': expected K/N, like 2/5", s ? s : "");
	return -1;
}

void partial_slice(uint32_t total, uint32_t k, uint32_t n, uint32_t *first, uint32_t *count)
{
	uint64_t a = (uint64_t)(k - 1) * total / n, b = (uint64_t)k * total / n;

	*first = (uint32_t)a;
	*count = (uint32_t)(b - a);
}

int partial_digest(const char *const *files, size_t n, char out[PARTIAL_DIGEST_LEN])
{
	uint64_t h = 0xcbf29ce484222325u;

	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char *buf = NULL;
		size_t got = 0;
		uint64_t len;

		/* as the loader read it: standard input and pipes give the bytes they gave then */
		switch (rf_read(files[i], UINT64_MAX, &buf, &got, NULL)) {
		case RF_OK:
			break;
		case RF_ERRNO:
			return -1;
		default:
			errno = EINVAL;
			return -1;
		}
		for (size_t j = 0; j < got; j++)
			h = (h ^ (unsigned char)buf[j]) * 0x100000001b3u;
		free(buf);
		len = got;
		for (int j = 0; j < 8; j++)
			h = (h ^ ((len >> (8 * j)) & 0xff)) * 0x100000001b3u;
	}
	snprintf(out, PARTIAL_DIGEST_LEN, "%016" PRIx64, h);
	return 0;
}

/* jansson rejects NULL (and invalid UTF-8); both become JSON null. */
static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;

	return j ? j : json_null();
}

static json_t *u64(uint64_t v)
{
	char buf[32];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

static json_t *row_obj(const struct trial_row *r)
{
	json_t *ph = json_array(), *no = json_array(), *row;

	for (size_t i = 0; i < r->nnotices; i++)
		json_array_append_new(no, json_pack("{s:s,s:o}", "severity",
						    tl_severity_name(r->notices[i].severity), "text",
						    str_or_null(r->notices[i].text)));
	for (size_t i = 0; i < r->nphases; i++) {
		const struct trial_phase *p = &r->phases[i];

		json_array_append_new(ph, json_pack("{s:o,s:o,s:I,s:I}", "driver",
						    str_or_null(p->driver), "name", str_or_null(p->name),
						    "opened_ms", (json_int_t)p->opened_ms, "done_ms",
						    (json_int_t)p->done_ms));
	}
	row = json_pack("{s:I,s:o,s:s,s:I,s:o,s:b,s:I,s:b,s:I,s:o,s:o,s:o,s:o,s:I,s:I,s:I,s:I,"
			 "s:I,s:o,s:o,s:o}",
			 "index", (json_int_t)r->index, "seed", u64(r->seed), "stop",
			 des_stop_name(r->stop), "end_ms", (json_int_t)r->end_ms, "events",
			 u64(r->events), "completed", r->completed, "ttc_ms", (json_int_t)r->ttc_ms,
			 "halted", r->halted, "halt_ms", (json_int_t)r->halt_ms, "halt_where",
			 str_or_null(r->halt_where), "halt_reason", str_or_null(r->halt_reason),
			 "blast_count", u64(r->blast_count), "blast_total", u64(r->blast_total),
			 "detection_ms", (json_int_t)r->detection_ms, "exposure_ms",
			 (json_int_t)r->exposure_ms, "peak_jobs", (json_int_t)r->peak_jobs,
			 "peak_adopting", (json_int_t)r->peak_adopting, "job_wait_ms",
			 (json_int_t)r->job_wait_ms, "phases", ph, "bound_note",
			 str_or_null(r->bound_note), "notices", no);
	/* only when true: a partial of trials that each have a time reads as before */
	if (r->already_complete)
		json_object_set_new(row, "already_complete", json_true());
	if (r->nothing_to_complete)
		json_object_set_new(row, "nothing_to_complete", json_true());
	if (r->halt_before_start)
		json_object_set_new(row, "halt_before_start", json_true());
	return row;
}

/* Writes @j (stolen) compactly, then @after; -1 on failure. */
static int put(FILE *f, json_t *j, const char *after)
{
	char *s;
	int rc = -1;

	if (!j) {
		errno = ENOMEM;
		return -1;
	}
	s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
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

/* The @n rows as a JSON array body, one row per line; -1 on failure. */
static int put_rows(FILE *f, const struct trial_row *rows, uint32_t n, const char *indent)
{
	for (uint32_t r = 0; r < n; r++)
		if (fputs(r ? ",\n" : "\n", f) < 0 || fputs(indent, f) < 0 ||
		    put(f, row_obj(&rows[r]), "") < 0)
			return -1;
	return 0;
}

int partial_write(FILE *f, const struct partial *p)
{
	bool v2 = p->variant || p->has_sets;

	errno = 0;
	if (fprintf(f, "{\n  \"schema\": \"%s\",\n  \"tool\": ", v2 ? SCHEMA_V2 : SCHEMA) < 0 ||
	    put(f, json_pack("{s:s,s:s,s:s}", "name", tool_name(), "version", tool_version(), "commit", tool_commit()), ",\n  \"command\": ") < 0 ||
	    put(f, str_or_null(p->command), ",\n  \"seed\": ") < 0 || put(f, u64(p->seed), "") < 0 ||
	    fprintf(f,
		    ",\n  \"horizon_ms\": %" PRId64 ",\n  \"until\": \"%s\",\n  \"total\": %" PRIu32
		    ",\n  \"shard\": [%" PRIu32 ", %" PRIu32 "],\n  \"first\": %" PRIu32
		    ",\n  \"n\": %" PRIu32 ",\n",
		    p->horizon_ms, p->until_horizon ? "horizon" : "complete", p->total, p->shard_k,
		    p->shard_n, p->first, p->n) < 0)
		goto out_write_error;
	/* Only a given start is written, so that the UTC lines of merge are those of run. */
	if (p->start_given &&
	    fprintf(f, "  \"start_unix_ms\": %" PRId64 ",\n", p->start_unix_ms) < 0)
		goto out_write_error;
	/* only for a resumed run: the partials of other runs read as before */
	if (p->resumed_ms > 0 && fprintf(f, "  \"resumed_ms\": %" PRId64 ",\n", p->resumed_ms) < 0)
		goto out_write_error;
	if (v2 && (fputs("  \"variant\": ", f) < 0 ||
		   put(f, str_or_null(p->variant), ",\n  \"sweep\": ") < 0 ||
		   put(f, str_or_null(p->sweep_param), ",\n") < 0))
		goto out_write_error;
	if (fputs("  \"inputs\": [", f) < 0)
		goto out_write_error;
	for (size_t i = 0; i < p->nin; i++) {
		const struct partial_input *in = &p->in[i];
		json_t *files = json_array();

		for (size_t k = 0; k < in->nfiles; k++)
			json_array_append_new(files, str_or_null(in->files[k]));
		if (fputs(i ? ",\n    {\"role\": " : "\n    {\"role\": ", f) < 0 ||
		    put(f, str_or_null(in->role), ", \"name\": ") < 0 ||
		    put(f, str_or_null(in->name), ", \"files\": ") < 0 ||
		    put(f, files, ", \"digest\": ") < 0 ||
		    put(f, json_string(in->digest), ", \"rows\": [") < 0 ||
		    put_rows(f, in->rows, p->n, "      ") < 0 || fputs("]}", f) < 0)
			goto out_write_error;
	}
	if (fputs("\n  ]", f) < 0)
		goto out_write_error;
	if (p->has_sets) {
		if (fputs(",\n  \"sets\": [", f) < 0)
			goto out_write_error;
		for (size_t i = 0; i < p->nsets; i++) {
			const struct partial_set *ps = &p->sets[i];

			if (fputs(i ? ",\n    {\"kind\": " : "\n    {\"kind\": ", f) < 0 ||
			    put(f, json_string(ps->sweep ? "sweep" : "variant"), ", \"name\": ") < 0 ||
			    put(f, str_or_null(ps->name), ", \"value\": ") < 0 ||
			    put(f, str_or_null(ps->value), ", \"description\": ") < 0 ||
			    put(f, str_or_null(ps->description), ", \"rows\": [") < 0 ||
			    put_rows(f, ps->rows, p->n, "      ") < 0 || fputs("]}", f) < 0)
				goto out_write_error;
		}
		if (fputs("\n  ]", f) < 0)
			goto out_write_error;
	}
	if (fputs("\n}\n", f) < 0 || ferror(f))
		goto out_write_error;
	return 0;

out_write_error:
	if (!errno)
		errno = EIO;
	return -1;
}

/* Reading: every helper records the first problem in the context and returns a default. */
struct rd {
	const char *path;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct rd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct rd *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (c->failed)
		return;
	c->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "'%s': %s", c->path, msg);
}

static json_t *field(struct rd *c, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail(c, "missing field '%s'", key);
	return v;
}

static int64_t get_int(struct rd *c, json_t *o, const char *key, int64_t min, int64_t max)
{
	json_t *v = field(c, o, key);
	json_int_t x;

	if (!v)
		return 0;
	if (!json_is_integer(v)) {
		fail(c, "field '%s' is not an integer", key);
		return 0;
	}
	x = json_integer_value(v);
	if (x < min || x > max) {
		fail(c, "field '%s' is %" PRId64 ", out of its range %" PRId64 "..%" PRId64, key,
		     (int64_t)x, min, max);
		return 0;
	}
	return (int64_t)x;
}

static uint64_t get_u64(struct rd *c, json_t *o, const char *key)
{
	json_t *v = field(c, o, key);
	unsigned long long x;
	const char *s;
	char *end;

	if (!v)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return (uint64_t)json_integer_value(v);
	if (json_is_string(v)) {
		s = json_string_value(v);
		errno = 0;
		x = strtoull(s, &end, 10);
		if (*s >= '0' && *s <= '9' && !*end && !errno)
			return (uint64_t)x;
	}
	fail(c, "field '%s' is not an unsigned integer", key);
	return 0;
}

static bool get_bool(struct rd *c, json_t *o, const char *key)
{
	json_t *v = field(c, o, key);

	if (v && !json_is_boolean(v))
		fail(c, "field '%s' is not a boolean", key);
	return v && json_is_true(v);
}

/* A new copy of a string field, or NULL for JSON null when @nullable. */
static char *get_str(struct rd *c, json_t *o, const char *key, bool nullable)
{
	json_t *v = field(c, o, key);

	if (!v)
		return NULL;
	if (json_is_null(v) && nullable)
		return NULL;
	if (!json_is_string(v)) {
		fail(c, "field '%s' is not a string", key);
		return NULL;
	}
	return xstrdup(json_string_value(v));
}

/*
 * A string of row @index's @what @i (field @key): not empty, at most @max
 * bytes, and no control character (a run writes none; the text reaches the
 * terminal).
 */
static void check_text(struct rd *c, uint32_t index, const char *what, size_t i, const char *key,
		       const char *s, size_t max)
{
	size_t len;

	if (!s || c->failed)
		return;
	len = strlen(s);
	if (!len)
		fail(c, "row %" PRIu32 ": %s %zu: field '%s' is empty", index, what, i, key);
	else if (len > max)
		fail(c, "row %" PRIu32 ": %s %zu: field '%s' is %zu bytes long, more than %zu", index,
		     what, i, key, len, max);
	else if (qt_needed(s))
		fail(c, "row %" PRIu32 ": %s %zu: field '%s' holds a control character or invalid "
		     "UTF-8", index, what, i, key);
}

/*
 * Phase @i of row @r as a run writes it: a driver "Rollout NS/NAME" or
 * "FleetRollout NS/NAME" with its "step ..." or "wave ...", opened before
 * it is done, and neither after the trial's end.
 */
static void check_phase(struct rd *c, const struct trial_row *r, size_t i)
{
	const struct trial_phase *ph = &r->phases[i];
	bool fleet;

	check_text(c, r->index, "phase", i, "driver", ph->driver, PARTIAL_MAX_NAME);
	check_text(c, r->index, "phase", i, "name", ph->name, PARTIAL_MAX_NAME);
	if (c->failed)
		return;
	fleet = !strncmp(ph->driver, "FleetRollout ", 13);
	if (!fleet && strncmp(ph->driver, "Rollout ", 8) != 0)
		fail(c, "row %" PRIu32 ": phase %zu: field 'driver' is neither \"Rollout NS/NAME\" nor "
		     "\"FleetRollout NS/NAME\"", r->index, i);
	else if (strncmp(ph->name, fleet ? "wave " : "step ", 5) != 0)
		fail(c, "row %" PRIu32 ": phase %zu: field 'name' of a %s is not \"%s...\"", r->index,
		     i, fleet ? "FleetRollout" : "Rollout", fleet ? "wave " : "step ");
	else if (ph->opened_ms > r->end_ms || ph->done_ms > r->end_ms)
		fail(c, "row %" PRIu32 ": phase %zu: field '%s' is %" PRId64 ", after the trial's end "
		     "(end_ms %" PRId64 ")", r->index, i,
		     ph->opened_ms > r->end_ms ? "opened_ms" : "done_ms",
		     ph->opened_ms > r->end_ms ? ph->opened_ms : ph->done_ms, r->end_ms);
	else if (ph->done_ms >= 0 && (ph->opened_ms < 0 || ph->done_ms < ph->opened_ms))
		fail(c, "row %" PRIu32 ": phase %zu: field 'done_ms' is %" PRId64 ", before it opened "
		     "(opened_ms %" PRId64 ")", r->index, i, ph->done_ms, ph->opened_ms);
}

/*
 * Every trial of one scenario lists the same steps and waves, in the same
 * order (struct trial_row): a row whose phases differ from the first row's
 * was not written by a run of that scenario.
 */
static void check_same_phases(struct rd *c, const struct trial_row *first,
			      const struct trial_row *r)
{
	if (c->failed || r == first)
		return;
	if (r->nphases != first->nphases) {
		fail(c, "row %" PRIu32 ": field 'phases' lists %zu steps and waves, row %" PRIu32
		     "'s %zu: the trials of one scenario list the same", r->index, r->nphases,
		     first->index, first->nphases);
		return;
	}
	for (size_t i = 0; i < r->nphases; i++)
		if (strcmp(r->phases[i].driver, first->phases[i].driver) ||
		    strcmp(r->phases[i].name, first->phases[i].name)) {
			fail(c, "row %" PRIu32 ": phase %zu is %s %s, row %" PRIu32 "'s %s %s: the "
			     "trials of one scenario list the same", r->index, i,
			     r->phases[i].driver, r->phases[i].name, first->index,
			     first->phases[i].driver, first->phases[i].name);
			return;
		}
}

/*
 * One row of a partial whose base seed and horizon are those of @p.  Every
 * time is -1 (none) where a row may lack it, else 0..horizon: a run never
 * goes past its horizon, and nothing it measures does either.
 */
static void read_row(struct rd *c, json_t *o, const struct partial *p, struct trial_row *r)
{
	int64_t hz = p->horizon_ms;
	json_t *ph;
	char *stop;
	int s;

	memset(r, 0, sizeof(*r));
	if (!json_is_object(o)) {
		fail(c, "a row is not an object");
		return;
	}
	r->index = (uint32_t)get_int(c, o, "index", 0, UINT32_MAX);
	r->seed = get_u64(c, o, "seed");
	if (!c->failed && r->seed != trials_seed(p->seed, r->index))
		fail(c, "row %" PRIu32 ": seed %" PRIu64 " is not trial %" PRIu32 "'s of base seed %" PRIu64
		     " (%" PRIu64 ")", r->index, r->seed, r->index, p->seed,
		     trials_seed(p->seed, r->index));
	stop = get_str(c, o, "stop", false);
	for (s = DES_QUIESCENT; s <= DES_STOPPED; s++)
		if (stop && !strcmp(stop, des_stop_name((enum des_stop)s)))
			break;
	if (stop && s > DES_STOPPED)
		fail(c, "unknown stop '%s'", stop);
	free(stop);
	r->stop = s > DES_STOPPED ? DES_QUIESCENT : (enum des_stop)s;
	r->end_ms = get_int(c, o, "end_ms", 0, hz);
	r->events = get_u64(c, o, "events");
	r->completed = get_bool(c, o, "completed");
	r->ttc_ms = get_int(c, o, "ttc_ms", -1, hz);
	/* absent from the partials written before a trial could complete with no time */
	r->already_complete = json_object_get(o, "already_complete") &&
			      get_bool(c, o, "already_complete");
	r->nothing_to_complete = json_object_get(o, "nothing_to_complete") &&
				 get_bool(c, o, "nothing_to_complete");
	if (!c->failed && (r->already_complete || r->nothing_to_complete) &&
	    (!r->completed || r->ttc_ms >= 0 || (r->already_complete && r->nothing_to_complete)))
		fail(c, "row %" PRIu32 ": '%s' is true but 'completed' is %s and 'ttc_ms' %" PRId64
		     " (a trial with no time completed, with ttc_ms -1, for one reason)",
		     r->index, r->already_complete ? "already_complete" : "nothing_to_complete",
		     r->completed ? "true" : "false", r->ttc_ms);
	else if (!c->failed && !r->already_complete && !r->nothing_to_complete &&
		 r->completed != (r->ttc_ms >= 0))
		fail(c, "row %" PRIu32 ": 'completed' is %s but 'ttc_ms' is %" PRId64, r->index,
		     r->completed ? "true" : "false", r->ttc_ms);
	r->halted = get_bool(c, o, "halted");
	r->halt_ms = get_int(c, o, "halt_ms", -1, hz);
	if (!c->failed && r->halted != (r->halt_ms >= 0))
		fail(c, "row %" PRIu32 ": 'halted' is %s but 'halt_ms' is %" PRId64, r->index,
		     r->halted ? "true" : "false", r->halt_ms);
	/* absent from the partials written before trials said a halt before the start */
	r->halt_before_start = json_object_get(o, "halt_before_start") &&
			       get_bool(c, o, "halt_before_start");
	if (!c->failed && r->halt_before_start && r->halt_ms != 0)
		fail(c, "row %" PRIu32 ": 'halt_before_start' is true but 'halt_ms' is %" PRId64
		     " (a halt before the start counts at 0)", r->index, r->halt_ms);
	r->halt_where = get_str(c, o, "halt_where", true);
	r->halt_reason = get_str(c, o, "halt_reason", true);
	r->blast_count = (size_t)get_int(c, o, "blast_count", 0, INT64_MAX);
	r->blast_total = (size_t)get_int(c, o, "blast_total", 0, INT64_MAX);
	if (!c->failed && r->blast_count > r->blast_total)
		fail(c, "row %" PRIu32 ": blast_count %zu is more than blast_total %zu", r->index,
		     r->blast_count, r->blast_total);
	r->detection_ms = get_int(c, o, "detection_ms", -1, hz);
	r->exposure_ms = get_int(c, o, "exposure_ms", 0, INT64_MAX);
	r->peak_jobs = (unsigned)get_int(c, o, "peak_jobs", 0, UINT32_MAX);
	r->peak_adopting = (unsigned)get_int(c, o, "peak_adopting", 0, UINT32_MAX);
	r->job_wait_ms = get_int(c, o, "job_wait_ms", 0, INT64_MAX);
	r->bound_note = get_str(c, o, "bound_note", true);
	ph = field(c, o, "phases");
	if (ph && !json_is_array(ph))
		fail(c, "field 'phases' is not an array");
	if (ph && json_is_array(ph) && json_array_size(ph) > PARTIAL_MAX_PHASES)
		fail(c, "row %" PRIu32 ": field 'phases' holds %zu phases, more than the %u steps and "
		     "waves a row may list", r->index, json_array_size(ph), PARTIAL_MAX_PHASES);
	if (ph && json_is_array(ph) && json_array_size(ph) && !c->failed) {
		r->nphases = json_array_size(ph);
		r->phases = xcalloc(r->nphases, sizeof(*r->phases));
		for (size_t i = 0; i < r->nphases && !c->failed; i++) {
			json_t *q = json_array_get(ph, i);

			if (!json_is_object(q)) {
				fail(c, "row %" PRIu32 ": phase %zu is not an object", r->index, i);
				continue;
			}
			r->phases[i].driver = get_str(c, q, "driver", false);
			r->phases[i].name = get_str(c, q, "name", false);
			r->phases[i].opened_ms = get_int(c, q, "opened_ms", -1, hz);
			r->phases[i].done_ms = get_int(c, q, "done_ms", -1, hz);
			check_phase(c, r, i);
		}
	}
	/* Optional: partials written before notices were counted have none. */
	ph = json_object_get(o, "notices");
	if (ph && !json_is_array(ph))
		fail(c, "field 'notices' is not an array");
	if (ph && json_is_array(ph) && json_array_size(ph) > PARTIAL_MAX_NOTICES && !c->failed)
		fail(c, "row %" PRIu32 ": field 'notices' holds %zu notices, more than the %u kinds a "
		     "row may list", r->index, json_array_size(ph), PARTIAL_MAX_NOTICES);
	if (ph && json_is_array(ph) && json_array_size(ph) && !c->failed) {
		r->notices = xcalloc(json_array_size(ph), sizeof(*r->notices));
		for (size_t i = 0; i < json_array_size(ph) && !c->failed; i++) {
			json_t *q = json_array_get(ph, i);
			char *sev;

			if (!json_is_object(q)) {
				fail(c, "a notice is not an object");
				break;
			}
			sev = get_str(c, q, "severity", false);
			r->notices[i].text = get_str(c, q, "text", false);
			r->nnotices = i + 1;
			check_text(c, r->index, "notice", i, "text", r->notices[i].text, PARTIAL_MAX_TEXT);
			if (sev && strcmp(sev, "info") == 0)
				r->notices[i].severity = TL_INFO;
			else if (sev && strcmp(sev, "warning") == 0)
				r->notices[i].severity = TL_WARNING;
			else if (sev && strcmp(sev, "error") == 0)
				r->notices[i].severity = TL_ERROR;
			else if (!c->failed)
				fail(c, "a notice's severity is not \"info\", \"warning\" or \"error\"");
			free(sev);
		}
	}
}

/* The rows array @rows of a slice (n rows, indices first..first+n-1) into *@out. */
static void read_rows(struct rd *c, json_t *rows, struct partial *p, struct trial_row **out)
{
	struct trial_row *r;

	if (!rows || c->failed)
		return;
	if (!json_is_array(rows) || json_array_size(rows) != p->n) {
		fail(c, "field 'rows' does not hold n = %" PRIu32 " rows", p->n);
		return;
	}
	r = *out = xcalloc(p->n ? p->n : 1, sizeof(*r));
	for (uint32_t i = 0; i < p->n && !c->failed; i++) {
		read_row(c, json_array_get(rows, i), p, &r[i]);
		check_same_phases(c, &r[0], &r[i]);
		if (!c->failed && r[i].index != p->first + i)
			fail(c, "row %" PRIu32 " has index %" PRIu32 ", expected %" PRIu32, i,
			     r[i].index, p->first + i);
	}
}

static void read_input(struct rd *c, json_t *o, struct partial *p, struct partial_input *in)
{
	json_t *files;
	char *digest;

	if (!json_is_object(o)) {
		fail(c, "an input is not an object");
		return;
	}
	in->role = get_str(c, o, "role", false);
	if (in->role && strcmp(in->role, !strcmp(p->command, "run") ? "scenario"
					 : in == &p->in[0] ? "base" : "head"))
		fail(c, "input role '%s' is not what a %s partial has there", in->role, p->command);
	in->name = get_str(c, o, "name", false);
	if (in->name && !in->name[0])
		fail(c, "field 'name' is empty");
	digest = get_str(c, o, "digest", false);
	if (digest && (strlen(digest) != PARTIAL_DIGEST_LEN - 1 ||
		       strspn(digest, "0123456789abcdef") != PARTIAL_DIGEST_LEN - 1))
		fail(c, "field 'digest' is not 16 hex digits");
	else if (digest)
		memcpy(in->digest, digest, PARTIAL_DIGEST_LEN);
	free(digest);
	files = field(c, o, "files");
	if (files && json_is_array(files) && json_array_size(files) == 0)
		fail(c, "field 'files' is empty: a scenario is read from at least one file");
	if (files && json_is_array(files)) {
		in->nfiles = json_array_size(files);
		in->files = xcalloc(in->nfiles ? in->nfiles : 1, sizeof(*in->files));
		for (size_t i = 0; i < in->nfiles; i++) {
			json_t *f = json_array_get(files, i);

			if (!json_is_string(f))
				fail(c, "a file name is not a string");
			else
				in->files[i] = xstrdup(json_string_value(f));
		}
	} else if (files) {
		fail(c, "field 'files' is not an array");
	}
	read_rows(c, field(c, o, "rows"), p, &in->rows);
}

/* A set of a v2 partial: kind, name, value, description, rows. */
static void read_set(struct rd *c, json_t *o, struct partial *p, struct partial_set *ps)
{
	char *kind;

	if (!json_is_object(o)) {
		fail(c, "a set is not an object");
		return;
	}
	kind = get_str(c, o, "kind", false);
	if (kind && strcmp(kind, "variant") && strcmp(kind, "sweep"))
		fail(c, "a set's kind '%s' is neither \"variant\" nor \"sweep\"", kind);
	ps->sweep = kind && !strcmp(kind, "sweep");
	free(kind);
	ps->name = get_str(c, o, "name", false);
	if (ps->name && !ps->name[0])
		fail(c, "a set's name is empty");
	ps->value = get_str(c, o, "value", true);
	ps->description = get_str(c, o, "description", true);
	if (!c->failed && ps->sweep != (ps->value != NULL))
		fail(c, "set '%s': a sweep value has a value, a variant none", ps->name);
	read_rows(c, field(c, o, "rows"), p, &ps->rows);
}

int partial_read(const char *path, uint64_t *budget, struct partial *out, char *err,
		 size_t errlen)
{
	struct rd c = { path, err, errlen, false };
	json_error_t je;
	json_t *root, *v, *inputs, *sets;
	char *until, *schema, *text = NULL;
	const char *kind = NULL;
	size_t len = 0;
	bool v2;

	memset(out, 0, sizeof(*out));
	switch (rf_read(path, *budget, &text, &len, &kind)) {
	case RF_OK:
		break;
	case RF_NOTREG:
		snprintf(err, errlen, "'%s': cannot read: not a regular file (%s)", path, kind);
		return -1;
	case RF_TOOBIG:
		/* @budget is what the files before left: the limit itself is the caller's */
		snprintf(err, errlen, "'%s': the partial results hold more bytes in all than the "
			 "limit allows (%" PRIu64 " were left for this file) %s", path, *budget,
			 lim_hint(LIM_INPUT_BYTES));
		return -1;
	default:
		snprintf(err, errlen, "'%s': cannot read: %s", path, strerror(errno ? errno : EIO));
		return -1;
	}
	*budget -= len;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (!root) {
		snprintf(err, errlen, "'%s': not JSON (line %d: %s)", path, je.line, je.text);
		return -1;
	}
	if (!json_is_object(root)) {
		fail(&c, "not a magos-sim partial result (expected an object)");
		goto out_free_root;
	}
	schema = get_str(&c, root, "schema", false);
	if (schema && strcmp(schema, SCHEMA) != 0 && strcmp(schema, SCHEMA_V2) != 0)
		fail(&c, "schema '%s' is not " SCHEMA, schema);
	v2 = schema && !strcmp(schema, SCHEMA_V2);
	free(schema);
	if (c.failed) {
		c.failed = false;
		fail(&c, "not a magos-sim partial result (schema " SCHEMA " or " SCHEMA_V2 ")");
		goto out_free_root;
	}
	out->command = get_str(&c, root, "command", false);
	if (out->command && strcmp(out->command, "run") && strcmp(out->command, "compare"))
		fail(&c, "unknown command '%s'", out->command);
	out->seed = get_u64(&c, root, "seed");
	out->horizon_ms = get_int(&c, root, "horizon_ms", 1, INT64_MAX);
	until = get_str(&c, root, "until", false);
	if (until && strcmp(until, "complete") && strcmp(until, "horizon"))
		fail(&c, "field 'until' is neither \"complete\" nor \"horizon\"");
	out->until_horizon = until && !strcmp(until, "horizon");
	free(until);
	/* RFC 3339's years 0001..9999, as the loader reads spec.start and --now. */
	if (json_object_get(root, "start_unix_ms")) {
		out->start_given = true;
		out->start_unix_ms = get_int(&c, root, "start_unix_ms", -62135596800000LL,
					     253402300799999LL);
	}
	if (json_object_get(root, "resumed_ms"))
		out->resumed_ms = get_int(&c, root, "resumed_ms", 1, INT64_MAX);
	out->total = (uint32_t)get_int(&c, root, "total", 1, PARTIAL_MAX_TRIALS);
	v = field(&c, root, "shard");
	if (v && (!json_is_array(v) || json_array_size(v) != 2 ||
		  !json_is_integer(json_array_get(v, 0)) || !json_is_integer(json_array_get(v, 1))))
		fail(&c, "field 'shard' is not [K, N]");
	else if (v) {
		json_int_t k = json_integer_value(json_array_get(v, 0));
		json_int_t n = json_integer_value(json_array_get(v, 1));

		if (n < 1 || n > PARTIAL_MAX_SHARDS || k < 1 || k > n)
			fail(&c, "field 'shard' is [%" PRId64 ", %" PRId64 "]: K/N needs 1 <= K <= N <= %u",
			     (int64_t)k, (int64_t)n, PARTIAL_MAX_SHARDS);
		out->shard_k = (uint32_t)k;
		out->shard_n = (uint32_t)n;
	}
	out->first = (uint32_t)get_int(&c, root, "first", 0, PARTIAL_MAX_TRIALS);
	out->n = (uint32_t)get_int(&c, root, "n", 0, PARTIAL_MAX_TRIALS);
	if (!c.failed) {
		uint32_t first, count;

		partial_slice(out->total, out->shard_k, out->shard_n, &first, &count);
		if (out->first != first || out->n != count)
			fail(&c, "slice %" PRIu32 "+%" PRIu32 " is not shard %" PRIu32 "/%" PRIu32
			     "'s of %" PRIu32 " trials (%" PRIu32 "+%" PRIu32 ")", out->first, out->n,
			     out->shard_k, out->shard_n, out->total, first, count);
	}
	inputs = field(&c, root, "inputs");
	if (c.failed)
		goto out_free_root;
	if (!json_is_array(inputs) ||
	    json_array_size(inputs) != (strcmp(out->command, "run") ? 2u : 1u)) {
		fail(&c, "field 'inputs' must hold %s", strcmp(out->command, "run") ? "base and head"
										 : "one scenario");
		goto out_free_root;
	}
	out->nin = json_array_size(inputs);
	for (size_t i = 0; i < out->nin && !c.failed; i++)
		read_input(&c, json_array_get(inputs, i), out, &out->in[i]);
	if (!v2 || c.failed)
		goto out_free_root;
	out->variant = get_str(&c, root, "variant", true);
	out->sweep_param = get_str(&c, root, "sweep", true);
	sets = json_object_get(root, "sets");
	if (c.failed || !sets || json_is_null(sets))
		goto out_free_root;
	if (!json_is_array(sets) || strcmp(out->command, "run")) {
		fail(&c, "field 'sets' must be an array, and only of a run");
		goto out_free_root;
	}
	out->has_sets = true;
	out->nsets = json_array_size(sets);
	out->sets = xcalloc(out->nsets ? out->nsets : 1, sizeof(*out->sets));
	for (size_t i = 0; i < out->nsets && !c.failed; i++) {
		read_set(&c, json_array_get(sets, i), out, &out->sets[i]);
		if (!c.failed && out->sets[i].sweep && !out->sweep_param)
			fail(&c, "set '%s' is a sweep value but field 'sweep' is null",
			     out->sets[i].name);
		if (!c.failed && i && out->sets[i - 1].sweep && !out->sets[i].sweep)
			fail(&c, "set '%s' is a variant after the sweep values", out->sets[i].name);
	}

out_free_root:
	json_decref(root);
	return c.failed ? -1 : 0;
}

static int by_first(const void *a, const void *b)
{
	const struct partial *const *x = a, *const *y = b;

	if ((*x)->first != (*y)->first)
		return (*x)->first < (*y)->first ? -1 : 1;
	return (*x)->n < (*y)->n ? -1 : (*x)->n > (*y)->n;
}

/* The index of @q in @p (for naming its file). */
static size_t idx_of(const struct partial *p, const struct partial *q)
{
	return (size_t)(q - p);
}

/* Both NULL or equal. */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The same sets in the same order (their rows aside). */
static bool same_sets(const struct partial *a, const struct partial *b)
{
	if (a->nsets != b->nsets)
		return false;
	for (size_t i = 0; i < a->nsets; i++)
		if (a->sets[i].sweep != b->sets[i].sweep || !same_str(a->sets[i].name, b->sets[i].name) ||
		    !same_str(a->sets[i].value, b->sets[i].value) ||
		    !same_str(a->sets[i].description, b->sets[i].description))
			return false;
	return true;
}

/* The names of @p's sets, quoted and comma-separated, into @buf ("the base only" without sets). */
static void set_list(const struct partial *p, char *buf, size_t len)
{
	size_t at = 0;

	snprintf(buf, len, "%s", p->has_sets ? (p->nsets ? "" : "no set") : "the base only");
	for (size_t i = 0; i < p->nsets && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s'%s'", i ? ", " : "", p->sets[i].name);

		if (w < 0)
			break;
		at += (size_t)w;
	}
}

/*
 * Moves the rows of the @n slices @ord (sorted, contiguous) into one new
 * array of @total rows; *@slot(ord[i]) is left NULL.
 */
static struct trial_row *gather(struct partial **ord, size_t n, uint32_t total,
				struct trial_row **(*slot)(struct partial *, size_t), size_t which)
{
	struct trial_row *d = xcalloc(total ? total : 1, sizeof(*d));
	uint32_t r = 0;

	for (size_t i = 0; i < n; i++) {
		struct trial_row **src = slot(ord[i], which);

		/* Moved: the source keeps no row, so releasing it frees nothing twice. */
		if (ord[i]->n)
			memcpy(&d[r], *src, ord[i]->n * sizeof(*d));
		r += ord[i]->n;
		free(*src);
		*src = NULL;
	}
	return d;
}

static struct trial_row **input_rows(struct partial *p, size_t k)
{
	return &p->in[k].rows;
}

static struct trial_row **set_rows(struct partial *p, size_t k)
{
	return &p->sets[k].rows;
}

int partial_merge(struct partial *p, size_t n, const char *const *paths, struct partial *out,
		  char *err, size_t errlen)
{
	struct partial **ord;
	uint32_t at = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (n == 0) {
		snprintf(err, errlen, "no partial result given");
		return -1;
	}
	for (size_t i = 1; i < n; i++) {
		const char *what = NULL;

		if (strcmp(p[i].command, p[0].command))
			what = "come from different commands (run and compare)";
		else if (p[i].nin != p[0].nin)
			what = "have different inputs";
		/* The scenario first: it explains a different seed or horizon too. */
		for (size_t k = 0; !what && k < p[0].nin; k++) {
			if (strcmp(p[i].in[k].role, p[0].in[k].role))
				what = "have different inputs";
			else if (strcmp(p[i].in[k].name, p[0].in[k].name))
				what = "come from different scenarios";
			else if (strcmp(p[i].in[k].digest, p[0].in[k].digest))
				what = "come from different scenario files (digests differ)";
		}
		if (what)
			; /* already explained */
		else if (!same_str(p[i].variant, p[0].variant)) {
			snprintf(err, errlen,
				 "'%s' and '%s' do not belong together: they hold different variants "
				 "(%s%s%s against %s%s%s)",
				 paths[0], paths[i], p[0].variant ? "--variant '" : "",
				 p[0].variant ? p[0].variant : "no --variant", p[0].variant ? "'" : "",
				 p[i].variant ? "--variant '" : "",
				 p[i].variant ? p[i].variant : "no --variant", p[i].variant ? "'" : "");
			return -1;
		}
		else if (p[i].has_sets != p[0].has_sets || !same_str(p[i].sweep_param, p[0].sweep_param) ||
			 !same_sets(&p[i], &p[0])) {
			char a[160], b[160];

			set_list(&p[0], a, sizeof(a));
			set_list(&p[i], b, sizeof(b));
			snprintf(err, errlen,
				 "'%s' and '%s' do not belong together: they run different sets of "
				 "variants or sweep values (%s against %s)",
				 paths[0], paths[i], a, b);
			return -1;
		}
		else if (p[i].seed != p[0].seed)
			what = "have different seeds";
		else if (p[i].horizon_ms != p[0].horizon_ms)
			what = "have different horizons";
		else if (p[i].until_horizon != p[0].until_horizon)
			what = "end their runs differently (--until)";
		else if (p[i].start_given != p[0].start_given ||
			 p[i].start_unix_ms != p[0].start_unix_ms)
			what = "start their clocks at different instants (spec.start, --now)";
		else if (p[i].resumed_ms != p[0].resumed_ms)
			what = "resume from snapshots taken at different times";
		else if (p[i].total != p[0].total)
			what = "split different trial counts (-n)";
		if (what) {
			snprintf(err, errlen, "'%s' and '%s' do not belong together: they %s", paths[0],
				 paths[i], what);
			return -1;
		}
	}
	ord = xcalloc(n, sizeof(*ord));
	for (size_t i = 0; i < n; i++)
		ord[i] = &p[i];
	qsort(ord, n, sizeof(*ord), by_first);
	for (size_t i = 0; i < n; i++) {
		if (ord[i]->first < at) {
			snprintf(err, errlen,
				 "'%s' (trials %" PRIu32 "..%" PRIu32 ") overlaps '%s' (trials %" PRIu32
				 "..%" PRIu32 ")",
				 paths[idx_of(p, ord[i])], ord[i]->first, ord[i]->first + ord[i]->n - 1,
				 paths[idx_of(p, ord[i - 1])], ord[i - 1]->first,
				 ord[i - 1]->first + ord[i - 1]->n - 1);
			goto out_free_ord;
		}
		if (ord[i]->first > at) {
			snprintf(err, errlen, "trials %" PRIu32 "..%" PRIu32 " of %" PRIu32 " are missing",
				 at, ord[i]->first - 1, p[0].total);
			goto out_free_ord;
		}
		at += ord[i]->n;
	}
	if (at != p[0].total) {
		snprintf(err, errlen, "trials %" PRIu32 "..%" PRIu32 " of %" PRIu32 " are missing", at,
			 p[0].total - 1, p[0].total);
		goto out_free_ord;
	}
	out->command = xstrdup(p[0].command);
	out->seed = p[0].seed;
	out->horizon_ms = p[0].horizon_ms;
	out->until_horizon = p[0].until_horizon;
	out->start_given = p[0].start_given;
	out->start_unix_ms = p[0].start_unix_ms;
	out->resumed_ms = p[0].resumed_ms;
	out->total = out->n = p[0].total;
	out->nin = p[0].nin;
	for (size_t k = 0; k < out->nin; k++) {
		struct partial_input *d = &out->in[k];

		d->role = xstrdup(p[0].in[k].role);
		d->name = xstrdup(p[0].in[k].name);
		d->nfiles = p[0].in[k].nfiles;
		d->files = xcalloc(d->nfiles ? d->nfiles : 1, sizeof(*d->files));
		for (size_t f = 0; f < d->nfiles; f++)
			d->files[f] = xstrdup(p[0].in[k].files[f]);
		memcpy(d->digest, p[0].in[k].digest, PARTIAL_DIGEST_LEN);
		d->rows = gather(ord, n, out->n, input_rows, k);
	}
	out->variant = p[0].variant ? xstrdup(p[0].variant) : NULL;
	out->sweep_param = p[0].sweep_param ? xstrdup(p[0].sweep_param) : NULL;
	out->has_sets = p[0].has_sets;
	out->nsets = p[0].nsets;
	if (out->has_sets)
		out->sets = xcalloc(out->nsets ? out->nsets : 1, sizeof(*out->sets));
	for (size_t k = 0; k < out->nsets; k++) {
		struct partial_set *d = &out->sets[k];
		const struct partial_set *f = &p[0].sets[k];

		d->sweep = f->sweep;
		d->name = xstrdup(f->name);
		d->value = f->value ? xstrdup(f->value) : NULL;
		d->description = f->description ? xstrdup(f->description) : NULL;
		d->rows = gather(ord, n, out->n, set_rows, k);
	}
	for (size_t i = 0; i < n; i++)
		p[i].n = 0;
	rc = 0;

out_free_ord:
	free(ord);
	return rc;
}

void partial_release(struct partial *p)
{
	if (!p)
		return;
	for (size_t k = 0; k < p->nin && k < 2; k++) {
		struct partial_input *in = &p->in[k];

		free(in->role);
		free(in->name);
		for (size_t f = 0; f < in->nfiles; f++)
			free(in->files[f]);
		free(in->files);
		if (in->rows)
			for (uint32_t r = 0; r < p->n; r++)
				trial_row_release(&in->rows[r]);
		free(in->rows);
	}
	for (size_t k = 0; k < p->nsets; k++) {
		struct partial_set *ps = &p->sets[k];

		free(ps->name);
		free(ps->value);
		free(ps->description);
		if (ps->rows)
			for (uint32_t r = 0; r < p->n; r++)
				trial_row_release(&ps->rows[r]);
		free(ps->rows);
	}
	free(p->sets);
	free(p->variant);
	free(p->sweep_param);
	free(p->command);
	memset(p, 0, sizeof(*p));
}
