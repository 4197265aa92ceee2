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

#define SCHEMA "magos-sim/partial/v1"

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
	unsigned char buf[65536];

	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		FILE *f = fopen(files[i], "rb");
		uint64_t len = 0;
		size_t got;

		if (!f)
			return -1;
		while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
			for (size_t j = 0; j < got; j++)
				h = (h ^ buf[j]) * 0x100000001b3u;
			len += got;
		}
		if (ferror(f)) {
			int e = errno ? errno : EIO;

			fclose(f);
			errno = e;
			return -1;
		}
		fclose(f);
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
	json_t *ph = json_array();

	for (size_t i = 0; i < r->nphases; i++) {
		const struct trial_phase *p = &r->phases[i];

		json_array_append_new(ph, json_pack("{s:o,s:o,s:I,s:I}", "driver",
						    str_or_null(p->driver), "name", str_or_null(p->name),
						    "opened_ms", (json_int_t)p->opened_ms, "done_ms",
						    (json_int_t)p->done_ms));
	}
	return json_pack("{s:I,s:o,s:s,s:I,s:o,s:b,s:I,s:b,s:I,s:o,s:o,s:o,s:o,s:I,s:I,s:I,s:I,"
			 "s:I,s:o,s:o}",
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
			 str_or_null(r->bound_note));
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

int partial_write(FILE *f, const struct partial *p)
{
	errno = 0;
	if (fprintf(f, "{\n  \"schema\": \"" SCHEMA "\",\n  \"command\": ") < 0 ||
	    put(f, str_or_null(p->command), ",\n  \"seed\": ") < 0 || put(f, u64(p->seed), "") < 0 ||
	    fprintf(f,
		    ",\n  \"horizon_ms\": %" PRId64 ",\n  \"until\": \"%s\",\n  \"total\": %" PRIu32
		    ",\n  \"shard\": [%" PRIu32 ", %" PRIu32 "],\n  \"first\": %" PRIu32
		    ",\n  \"n\": %" PRIu32 ",\n  \"inputs\": [",
		    p->horizon_ms, p->until_horizon ? "horizon" : "complete", p->total, p->shard_k,
		    p->shard_n, p->first, p->n) < 0)
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
		    put(f, json_string(in->digest), ", \"rows\": [") < 0)
			goto out_write_error;
		for (uint32_t r = 0; r < p->n; r++)
			if (fputs(r ? ",\n      " : "\n      ", f) < 0 ||
			    put(f, row_obj(&in->rows[r]), "") < 0)
				goto out_write_error;
		if (fputs("]}", f) < 0)
			goto out_write_error;
	}
	if (fputs("\n  ]\n}\n", f) < 0 || ferror(f))
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
		fail(c, "field '%s' is out of range (%" PRId64 ")", key, (int64_t)x);
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

static void read_row(struct rd *c, json_t *o, struct trial_row *r)
{
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
	stop = get_str(c, o, "stop", false);
	for (s = DES_QUIESCENT; s <= DES_STOPPED; s++)
		if (stop && !strcmp(stop, des_stop_name((enum des_stop)s)))
			break;
	if (stop && s > DES_STOPPED)
		fail(c, "unknown stop '%s'", stop);
	free(stop);
	r->stop = s > DES_STOPPED ? DES_QUIESCENT : (enum des_stop)s;
	r->end_ms = get_int(c, o, "end_ms", 0, INT64_MAX);
	r->events = get_u64(c, o, "events");
	r->completed = get_bool(c, o, "completed");
	r->ttc_ms = get_int(c, o, "ttc_ms", -1, INT64_MAX);
	r->halted = get_bool(c, o, "halted");
	r->halt_ms = get_int(c, o, "halt_ms", -1, INT64_MAX);
	r->halt_where = get_str(c, o, "halt_where", true);
	r->halt_reason = get_str(c, o, "halt_reason", true);
	r->blast_count = (size_t)get_u64(c, o, "blast_count");
	r->blast_total = (size_t)get_u64(c, o, "blast_total");
	r->detection_ms = get_int(c, o, "detection_ms", -1, INT64_MAX);
	r->exposure_ms = get_int(c, o, "exposure_ms", INT64_MIN, INT64_MAX);
	r->peak_jobs = (unsigned)get_int(c, o, "peak_jobs", 0, UINT32_MAX);
	r->peak_adopting = (unsigned)get_int(c, o, "peak_adopting", 0, UINT32_MAX);
	r->job_wait_ms = get_int(c, o, "job_wait_ms", INT64_MIN, INT64_MAX);
	r->bound_note = get_str(c, o, "bound_note", true);
	ph = field(c, o, "phases");
	if (ph && !json_is_array(ph))
		fail(c, "field 'phases' is not an array");
	if (ph && json_is_array(ph) && json_array_size(ph)) {
		r->nphases = json_array_size(ph);
		r->phases = xcalloc(r->nphases, sizeof(*r->phases));
		for (size_t i = 0; i < r->nphases; i++) {
			json_t *p = json_array_get(ph, i);

			if (!json_is_object(p)) {
				fail(c, "a phase is not an object");
				continue;
			}
			r->phases[i].driver = get_str(c, p, "driver", true);
			r->phases[i].name = get_str(c, p, "name", true);
			r->phases[i].opened_ms = get_int(c, p, "opened_ms", -1, INT64_MAX);
			r->phases[i].done_ms = get_int(c, p, "done_ms", -1, INT64_MAX);
		}
	}
}

static void read_input(struct rd *c, json_t *o, struct partial *p, struct partial_input *in)
{
	json_t *files, *rows;
	char *digest;

	if (!json_is_object(o)) {
		fail(c, "an input is not an object");
		return;
	}
	in->role = get_str(c, o, "role", false);
	in->name = get_str(c, o, "name", false);
	digest = get_str(c, o, "digest", false);
	if (digest && strlen(digest) != PARTIAL_DIGEST_LEN - 1)
		fail(c, "field 'digest' is not 16 hex digits");
	else if (digest)
		memcpy(in->digest, digest, PARTIAL_DIGEST_LEN);
	free(digest);
	files = field(c, o, "files");
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
	rows = field(c, o, "rows");
	if (!rows || c->failed)
		return;
	if (!json_is_array(rows) || json_array_size(rows) != p->n) {
		fail(c, "field 'rows' does not hold n = %" PRIu32 " rows", p->n);
		return;
	}
	in->rows = xcalloc(p->n ? p->n : 1, sizeof(*in->rows));
	for (uint32_t i = 0; i < p->n && !c->failed; i++) {
		read_row(c, json_array_get(rows, i), &in->rows[i]);
		if (!c->failed && in->rows[i].index != p->first + i)
			fail(c, "row %" PRIu32 " has index %" PRIu32 ", expected %" PRIu32, i,
			     in->rows[i].index, p->first + i);
	}
}

int partial_read(const char *path, struct partial *out, char *err, size_t errlen)
{
	struct rd c = { path, err, errlen, false };
	json_error_t je;
	json_t *root, *v, *inputs;
	char *until, *schema;

	memset(out, 0, sizeof(*out));
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		if (je.line < 0)
			snprintf(err, errlen, "'%s': cannot read: %s", path, je.text);
		else
			snprintf(err, errlen, "'%s': not JSON (line %d: %s)", path, je.line, je.text);
		return -1;
	}
	if (!json_is_object(root)) {
		fail(&c, "not a magos-sim partial result (expected an object)");
		goto out_free_root;
	}
	schema = get_str(&c, root, "schema", false);
	if (schema && strcmp(schema, SCHEMA) != 0)
		fail(&c, "schema '%s' is not " SCHEMA, schema);
	free(schema);
	if (c.failed) {
		c.failed = false;
		fail(&c, "not a magos-sim partial result (schema " SCHEMA ")");
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
	out->total = (uint32_t)get_int(&c, root, "total", 1, UINT32_MAX);
	v = field(&c, root, "shard");
	if (v && (!json_is_array(v) || json_array_size(v) != 2 ||
		  !json_is_integer(json_array_get(v, 0)) || !json_is_integer(json_array_get(v, 1))))
		fail(&c, "field 'shard' is not [K, N]");
	else if (v) {
		out->shard_k = (uint32_t)json_integer_value(json_array_get(v, 0));
		out->shard_n = (uint32_t)json_integer_value(json_array_get(v, 1));
	}
	out->first = (uint32_t)get_int(&c, root, "first", 0, UINT32_MAX);
	out->n = (uint32_t)get_int(&c, root, "n", 0, UINT32_MAX);
	if (!c.failed && (uint64_t)out->first + out->n > out->total)
		fail(&c, "slice %" PRIu32 "..%" PRIu32 " is beyond the %" PRIu32 " trials", out->first,
		     out->first + out->n, out->total);
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
		else if (p[i].seed != p[0].seed)
			what = "have different seeds";
		else if (p[i].horizon_ms != p[0].horizon_ms)
			what = "have different horizons";
		else if (p[i].until_horizon != p[0].until_horizon)
			what = "end their runs differently (--until)";
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
	out->total = out->n = p[0].total;
	out->nin = p[0].nin;
	for (size_t k = 0; k < out->nin; k++) {
		struct partial_input *d = &out->in[k];
		uint32_t r = 0;

		d->role = xstrdup(p[0].in[k].role);
		d->name = xstrdup(p[0].in[k].name);
		d->nfiles = p[0].in[k].nfiles;
		d->files = xcalloc(d->nfiles ? d->nfiles : 1, sizeof(*d->files));
		for (size_t f = 0; f < d->nfiles; f++)
			d->files[f] = xstrdup(p[0].in[k].files[f]);
		memcpy(d->digest, p[0].in[k].digest, PARTIAL_DIGEST_LEN);
		d->rows = xcalloc(out->n ? out->n : 1, sizeof(*d->rows));
		for (size_t i = 0; i < n; i++) {
			/* Moved: the source keeps no row, so releasing it frees nothing twice. */
			if (ord[i]->n)
				memcpy(&d->rows[r], ord[i]->in[k].rows, ord[i]->n * sizeof(*d->rows));
			r += ord[i]->n;
			free(ord[i]->in[k].rows);
			ord[i]->in[k].rows = NULL;
		}
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
	free(p->command);
	memset(p, 0, sizeof(*p));
}
