/*
 * spec.metrics and spec.fleet: what the FleetRollout gates read.  Each
 * spec.metrics entry is the synthetic Prometheus series a gate query
 * returns (promtool's expanding notation, sim/load/promseries.h); spec.fleet
 * holds the stageset-controller's settings (allowed action hosts).  After
 * the manifests are admitted, every prometheus gate of the run is checked
 * against them (scnp_check_gates()).
 */
#include "sim/load/scn_parse.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/threshold.h"
#include "engine/xalloc.h"
#include "sim/base/suggest.h"

/* ---------------------------------------------------------------- schema */

static void check_series_values(struct sch_ctx *c, const struct val *v, const char *path);
static void check_series(struct sch_ctx *c, const struct val *v, const char *path);
static void check_host_pattern(struct sch_ctx *c, const struct val *v, const char *path);

/*
 * spec.metrics[i]; the list is validated entry by entry (scnp_metrics_process()).
 * A Prometheus entry has `query` (and `address`), a webhook entry `url` (and
 * `jsonPath`); entries of one query (or url) that differ in `labels` are
 * several series of one instant vector.
 */
static const struct sch_node series_values_node = { .type = SCH_ANY,
						    .check = check_series_values };
static const struct sch_field series_fields[] = {
	{ .name = "query", .schema = &sch_string_nonempty },
	{ .name = "address", .schema = &sch_string_nonempty },
	{ .name = "interval", .schema = &scnp_positive_duration_node },
	{ .name = "values", .schema = &series_values_node, .required = true },
	{ .name = "labels", .schema = &sch_string_map },
	{ .name = "url", .schema = &sch_string_nonempty },
	{ .name = "jsonPath", .schema = &sch_string_nonempty },
	{ .name = "unavailable", .schema = &scnp_sw_windows_node },
	{ .name = NULL },
};
static const struct sch_node series_node = { .type = SCH_OBJECT, .fields = series_fields,
					     .check = check_series };

/* spec.fleet */
static const struct sch_node host_pattern_node = { .type = SCH_STRING, .min_length = 1,
						   .check = check_host_pattern };
static const struct sch_node host_patterns_node = { .type = SCH_ARRAY,
						    .items = &host_pattern_node };
static const struct sch_field fleet_fields[] = {
	{ .name = "allowedActionHosts", .schema = &host_patterns_node },
	{ .name = NULL },
};
static const struct sch_node fleet_node = { .type = SCH_OBJECT, .fields = fleet_fields };

/* ---------------------------------------------------------------- checks */

/* file_line() - line @n (1-based) of file @path without its line end; new, or NULL. */
static char *file_line(const char *path, uint32_t n)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	uint32_t k = 0;
	ssize_t len;

	if (!f)
		return NULL;
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (++k < n)
			continue;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		fclose(f);
		return line;
	}
	free(line);
	fclose(f);
	return NULL;
}

/* utf8_count() - characters (code points) in the first @n bytes of @s. */
static uint32_t utf8_count(const char *s, size_t n)
{
	uint32_t k = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			k++;
	return k;
}

/*
 * values_mark() - where, in the file, the bad token of a series text @text
 * (scalar @v of @file) sits: the scalar's own column plus the token's
 * character offset, when the scalar is plain or single/double-quoted on one
 * line and its text appears there verbatim (no escapes); otherwise the
 * scalar's position.  Columns count characters, as libyaml's marks do.
 */
static struct val_mark values_mark(const char *file, const struct val *v, const char *text,
				   const struct ps_error *e)
{
	struct val_mark m = v->mark;
	size_t n = strlen(text), at = 0;
	uint32_t col = 1, shift;
	char *line;

	if (!file || m.line == 0 || m.col == 0 || e->line != 1 || strchr(text, '\n'))
		return m;
	line = file_line(file, m.line);
	if (!line)
		return m;
	for (; line[at] && col < m.col; at++)
		if (((unsigned char)line[at + 1] & 0xC0) != 0x80)
			col++;
	if (col != m.col)
		goto out_free_line;
	if ((line[at] == '"' || line[at] == '\'') && strncmp(line + at + 1, text, n) == 0 &&
	    line[at + 1 + n] == line[at])
		shift = 1;
	else if (strchr("\"'|>", line[at]) == NULL && strncmp(line + at, text, n) == 0)
		shift = 0;
	else
		goto out_free_line;
	m.col += shift + utf8_count(text, e->offset);
out_free_line:
	free(line);
	return m;
}

/* looks_like_duration() - @s starts with digits followed by a Go/Prometheus duration unit. */
static bool looks_like_duration(const char *s)
{
	size_t d = strspn(s, "0123456789.");

	return d > 0 && strchr("smhdwy", s[d]) && s[d] != '\0';
}

static void check_series_values(struct sch_ctx *c, const struct val *v, const char *path)
{
	struct loader *L = c->user;
	const char *t = scnp_version_text(v); /* a string, or a plain number as written */
	struct ps_series ser;
	struct ps_error e;
	char *q;

	if (!t) {
		q = sch_quote(v);
		sch_report(c, v->mark, path,
			   "Invalid value: \"%s\": must be a string in promtool's expanding "
			   "notation: %s",
			   val_type_name(v->type), q);
		sch_note(c, v->mark, "e.g. values: \"0.001x30 0.05x10 _x5 stale\"");
		free(q);
		return;
	}
	if (!t[0]) {
		sch_report(c, v->mark, path, "Invalid value: \"\": must not be empty");
		sch_note(c, v->mark, "e.g. values: \"0.001x30 0.05x10 _x5 stale\"");
		return;
	}
	/* The bound is on all the series together: each takes what is left of it. */
	uint64_t left = L ? L->lim->v[LIM_SERIES_SAMPLES] - L->series_samples
			  : lim_default(LIM_SERIES_SAMPLES);

	if (ps_parse_max(t, left, &ser, &e) != PS_OK) {
		struct val_mark m = values_mark(c->file, v, t, &e);

		q = sch_quote(v);
		if (L && strstr(e.msg, "computed samples")) {
			sch_report(c, m, path,
				   "Invalid value: %s: the series of spec.metrics need more than %llu "
				   "computed samples together (%llu were left for this one) %s",
				   q, (unsigned long long)L->lim->v[LIM_SERIES_SAMPLES],
				   (unsigned long long)left, lim_hint(LIM_SERIES_SAMPLES));
			sch_note(c, m, "a+bxN is N+1 samples, a and then N computed ones "
				       "(a+b ... a+N*b, until they stop changing): each computed one "
				       "counts, so a lone a+bx%llu is the most that fits",
				 (unsigned long long)L->lim->v[LIM_SERIES_SAMPLES]);
		} else {
			sch_report(c, m, path, "Invalid value: %s: %s", q, e.msg);
		}
		if (e.offset < strlen(t) && looks_like_duration(t + e.offset))
			sch_note(c, m, "series values are numbers; promtool reads no durations "
				       "there (the sample spacing is 'interval')");
		free(q);
	} else if (L) {
		L->series_samples += ser.ncomputed;
	}
	ps_series_release(&ser);
}

/* A Prometheus entry (query, address) or a webhook entry (url, jsonPath), not a mix. */
static void check_series(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val_kv *q = val_map_get_kv(v, "query"), *u = val_map_get_kv(v, "url");
	const struct val_kv *a = val_map_get_kv(v, "address"), *j = val_map_get_kv(v, "jsonPath");

	if (q && u) {
		sch_report(c, u->key_mark, path,
			   "Invalid value: \"object\": give 'query' (a Prometheus series) or 'url' (a "
			   "webhook source's), not both");
	} else if (u && a) {
		sch_report(c, a->key_mark, path,
			   "Invalid value: \"object\": 'address' goes with 'query'; a webhook entry is "
			   "found by its 'url'");
	} else if (q && j) {
		sch_report(c, j->key_mark, path,
			   "Invalid value: \"object\": 'jsonPath' goes with 'url'; a Prometheus entry is "
			   "found by its 'query'");
	}
}

static void check_host_pattern(struct sch_ctx *c, const struct val *v, const char *path)
{
	bool matched;

	if (thr_path_match(v->u.s, "", &matched) == THR_EBADPATTERN) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, path, "Invalid value: %s: syntax error in pattern", q);
		sch_note(c, v->mark,
			 "patterns use Go's path.Match syntax: '*', '?', '[a-z]', '\\' escapes");
		free(q);
	}
}

/* ---------------------------------------------------------------- reading */

/* read_fleet() - validated spec.fleet @v into @f. */
static void read_fleet(struct scn_fleet *f, const struct val *v)
{
	const struct val *hosts = val_map_get(v, "allowedActionHosts");

	if (!hosts || hosts->u.list.n == 0)
		return;
	f->allowed_action_hosts = xcalloc(hosts->u.list.n, sizeof(*f->allowed_action_hosts));
	for (size_t i = 0; i < hosts->u.list.n; i++)
		f->allowed_action_hosts[f->nallowed_action_hosts++] =
			xstrdup(val_str(hosts->u.list.items[i], ""));
}

void scnp_fleet_process(struct loader *L, struct val *v, struct sch_ctx *c)
{
	if (sch_validate(&fleet_node, v, "spec.fleet", c) == 0 && v->type == VAL_MAP)
		read_fleet(&L->s->fleet, v);
}

/*
 * read_series() - a validated spec.metrics entry @item of @file into @ser;
 * @max_computed: the series-samples bound (its values fitted in it).
 */
static void read_series(struct scn_series *ser, const struct val *item, const char *file,
			uint64_t max_computed)
{
	const struct val *q = val_map_get(item, "query");
	const struct val *a = val_map_get(item, "address");
	const struct val *iv = val_map_get(item, "interval");
	const struct val *u = val_map_get(item, "url");
	const struct val *j = val_map_get(item, "jsonPath");
	const struct val *labels = val_map_get(item, "labels");

	ser->query = q ? xstrdup(q->u.s) : NULL;
	ser->address = a ? xstrdup(a->u.s) : NULL;
	ser->url = u ? xstrdup(u->u.s) : NULL;
	ser->json_path = j ? xstrdup(j->u.s) : NULL;
	obj_strmap_init(&ser->labels);
	for (size_t i = 0; labels && i < labels->u.map.n; i++)
		obj_strmap_set(&ser->labels, labels->u.map.items[i].key,
			       val_str(labels->u.map.items[i].v, ""));
	scnp_sw_read_windows(val_map_get(item, "unavailable"), &ser->unavailable);
	ser->interval_ms = iv ? scnp_duration_ms(iv) : SCN_DEFAULT_SERIES_INTERVAL_MS;
	ser->values = xstrdup(scnp_version_text(val_map_get(item, "values")));
	ps_parse_max(ser->values, max_computed, &ser->series, NULL);
	ser->file = file;
	ser->mark = (q ? q : u)->mark;
}

/* same_labels() - whether two entries' `labels` (validated maps or absent) are equal. */
static bool same_labels(const struct val *x, const struct val *y)
{
	if (!x || !y || x->type != VAL_MAP || y->type != VAL_MAP)
		return (!x || x->type != VAL_MAP || x->u.map.n == 0) &&
		       (!y || y->type != VAL_MAP || y->u.map.n == 0);
	if (x->u.map.n != y->u.map.n)
		return false;
	for (size_t i = 0; i < x->u.map.n; i++) {
		const struct val *o = val_map_get(y, x->u.map.items[i].key);

		if (!o || !val_equal(o, x->u.map.items[i].v))
			return false;
	}
	return true;
}

/* same_text() - two optional strings of entries (NULL: absent) are equal. */
static bool same_text(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (!a || strcmp(a, b) == 0);
}

/* report_webhook_duplicates() - webhook entries repeating a (url, jsonPath, labels). */
static void report_webhook_duplicates(struct loader *L, const struct val *metrics)
{
	const struct val *const *it = (const struct val *const *)metrics->u.list.items;

	for (size_t i = 0; i < metrics->u.list.n; i++) {
		const struct val *u = val_map_get(it[i], "url");

		if (!u || u->type != VAL_STRING || val_map_get(it[i], "query"))
			continue;
		for (size_t k = 0; k < i; k++) {
			const struct val *v = val_map_get(it[k], "url");

			if (!v || v->type != VAL_STRING || strcmp(u->u.s, v->u.s) != 0 ||
			    val_map_get(it[k], "query") ||
			    !same_text(val_str(val_map_get(it[i], "jsonPath"), NULL),
				       val_str(val_map_get(it[k], "jsonPath"), NULL)) ||
			    !same_labels(val_map_get(it[i], "labels"), val_map_get(it[k], "labels")))
				continue;
			diag_error(L->d, L->s->scenario_file, u->mark,
				   "spec.metrics[%zu].url: Duplicate value: \"%s\"", i, u->u.s);
			diag_note(L->d, L->s->scenario_file, v->mark,
				  "spec.metrics[%zu] gives a series for it already", k);
			break;
		}
	}
}

void scnp_metrics_process(struct loader *L, struct val *metrics, struct sch_ctx *c)
{
	struct scenario *s = L->s;
	size_t n = metrics->u.list.n;
	bool *ok;

	if (n == 0)
		return;
	s->series = xcalloc(n, sizeof(*s->series));
	L->claimed = xcalloc(n, sizeof(*L->claimed));
	ok = xcalloc(n, sizeof(*ok));
	for (size_t i = 0; i < n; i++) {
		struct val *item = metrics->u.list.items[i];
		char path[48];

		snprintf(path, sizeof(path), "spec.metrics[%zu]", i);
		ok[i] = sch_validate(&series_node, item, path, c) == 0;
		/* `query` is required unless `url` makes it a webhook entry */
		if (item->type == VAL_MAP && !val_map_get(item, "query") && !val_map_get(item, "url")) {
			snprintf(path, sizeof(path), "spec.metrics[%zu].query", i);
			sch_report(c, item->mark, path, "Required value");
			ok[i] = false;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct val *item = metrics->u.list.items[i];
		const struct val *q = val_map_get(item, "query");
		const struct val *a = val_map_get(item, "address");

		/* claimed even when invalid: its own errors say what is wrong with it */
		if (q && q->type == VAL_STRING)
			L->claimed[L->nclaimed++] = (struct claimed_series){
				q->u.s, a && a->type == VAL_STRING ? a->u.s : NULL, i, q->mark,
				val_map_get(item, "labels")
			};
		if (ok[i])
			read_series(&s->series[s->nseries++], item, s->scenario_file,
				    L->lim->v[LIM_SERIES_SAMPLES]);
	}
	free(ok);
	for (size_t i = 0; i < L->nclaimed; i++) {
		const struct claimed_series *x = &L->claimed[i];

		for (size_t j = 0; j < i; j++) {
			const struct claimed_series *y = &L->claimed[j];

			if (strcmp(x->query, y->query) != 0 ||
			    (x->address == NULL) != (y->address == NULL) ||
			    (x->address && strcmp(x->address, y->address) != 0) ||
			    !same_labels(x->labels, y->labels))
				continue;
			char *qq = sch_abbrev(x->query);

			diag_error(L->d, s->scenario_file, x->mark,
				   "spec.metrics[%zu].query: Duplicate value: \"%s\"%s%s%s", x->index,
				   qq, x->address ? " (address \"" : "", x->address ? x->address : "",
				   x->address ? "\")" : "");
			diag_note(L->d, s->scenario_file, y->mark,
				  "spec.metrics[%zu] gives a series for it already", y->index);
			free(qq);
			break;
		}
	}
	report_webhook_duplicates(L, metrics);
}

void scnp_series_release(struct scn_series *x)
{
	free(x->query);
	free(x->address);
	free(x->url);
	free(x->json_path);
	obj_strmap_release(&x->labels);
	scn_sw_windows_release(&x->unavailable);
	free(x->values);
	ps_series_release(&x->series);
}

/* ---------------------------------------------------------------- which series a gate reads */

/*
 * pick_series() - the entry a gate with prometheus @query and @address
 * (NULL: none) reads, among @n entries of @size bytes at @base whose query
 * and address (NULL: any address) are the string pointers at byte offsets
 * @qoff and @aoff: the first entry with that query and that address, failing
 * that the first with that query and no address.  Returns a pointer into
 * @base, or NULL when none.  (Both the loaded series and the claimed entries
 * are searched this way; the pointers are read with memcpy, so a `char *`
 * and a `const char *` member serve alike.)
 */
static const void *pick_series(const void *base, size_t n, size_t size, size_t qoff,
			       size_t aoff, const char *query, const char *address)
{
	const void *any = NULL;

	for (size_t i = 0; i < n; i++) {
		const char *x = (const char *)base + i * size;
		const char *q, *a;

		memcpy(&q, x + qoff, sizeof(q));
		memcpy(&a, x + aoff, sizeof(a));
		if (!q || strcmp(q, query) != 0)
			continue; /* (a webhook entry has no query) */
		if (a && address && strcmp(a, address) == 0)
			return x;
		if (!a && !any)
			any = x;
	}
	return any;
}

const struct scn_series *scn_find_series(const struct scenario *s, const char *query,
					 const char *address)
{
	return pick_series(s->series, s->nseries, sizeof(*s->series),
			   offsetof(struct scn_series, query), offsetof(struct scn_series, address),
			   query, address);
}

/*
 * note_closest_query() - a note "did you mean" naming the spec.metrics query
 * closest to the gate query @q that has no series, when one is close (a
 * query misspelt on one side).
 */
static void note_closest_query(struct loader *L, const char *file, const struct val *q)
{
	struct sug sg;

	sug_init(&sg, q->u.s);
	for (size_t i = 0; i < L->nclaimed; i++)
		sug_offer(&sg, L->claimed[i].query);
	for (size_t i = 0; sug_best(&sg) && i < L->nclaimed; i++)
		if (L->claimed[i].query == sug_best(&sg)) {
			struct val *best = val_new_string(sug_best(&sg));
			char *qq = sch_quote(best);

			diag_note(L->d, file, q->mark, "did you mean %s (spec.metrics[%zu])?", qq,
				  L->claimed[i].index);
			free(qq);
			val_free(best);
			return;
		}
}

/* claimed_for() - the first spec.metrics entry a gate (@query, @address) reads, or NULL. */
static const struct claimed_series *claimed_for(const struct loader *L, const char *query,
						const char *address)
{
	return pick_series(L->claimed, L->nclaimed, sizeof(*L->claimed),
			   offsetof(struct claimed_series, query),
			   offsetof(struct claimed_series, address), query, address);
}

/* ---------------------------------------------------------------- gates */

/* Per spec.metrics entry: whether a gate reads it (scnp_check_gates()). */
struct gate_scan {
	struct loader *L;
	bool *used; /* per claimed entry */
};

/*
 * mark_group() - every claimed entry an instant query of (@query, @address)
 * reads: those with this query and address, else those with this query and
 * no address (several of them when their labels differ).
 */
static void mark_group(struct gate_scan *g, const char *query, const char *address)
{
	const struct loader *L = g->L;
	bool exact = false;

	for (size_t i = 0; address && i < L->nclaimed && !exact; i++)
		exact = strcmp(L->claimed[i].query, query) == 0 && L->claimed[i].address &&
			strcmp(L->claimed[i].address, address) == 0;
	for (size_t i = 0; i < L->nclaimed; i++) {
		const struct claimed_series *x = &L->claimed[i];

		if (strcmp(x->query, query) != 0)
			continue;
		if (exact ? (x->address && strcmp(x->address, address) == 0) : x->address == NULL)
			g->used[i] = true;
	}
}

/*
 * stageset_source() - a metric source of StageSet @o at @where (its
 * errorBudget, a stage's errorBudget, analysis check or fastTrack): the
 * series it reads count as read; a Prometheus source without any series
 * is a warning (its queries fail).
 */
static void stageset_source(struct gate_scan *g, const struct obj *o, const char *file, const struct val *src,
			    const char *where)
{
	const struct val *prom = val_map_get(src, "prometheus");
	const struct val *q = val_map_get(prom, "query");
	const char *address = val_str(val_map_get(prom, "address"), NULL);

	if (!q || q->type != VAL_STRING)
		return;
	if (claimed_for(g->L, q->u.s, address)) {
		mark_group(g, q->u.s, address);
	} else if (g->L->s->has_scenario_doc) {
		char *qq = sch_quote(q);

		diag_warning(g->L->d, file, q->mark,
			     "StageSet \"%s/%s\": %s: no series in spec.metrics for the query %s; every "
			     "query of it fails (metric source unavailable)",
			     o->ns, o->name, where, qq);
		free(qq);
	}
}

/* check_stageset_sources() - the metric sources of StageSet @o (from @file). */
static void check_stageset_sources(struct gate_scan *g, const struct obj *o, const char *file)
{
	const struct val *stages = val_map_get(o->spec, "stages");
	char where[160];

	stageset_source(g, o, file, val_path(o->spec, "errorBudget.source"), "spec.errorBudget.source");
	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n; i++) {
		const struct val *st = stages->u.list.items[i];
		const struct val *checks = val_path(st, "promotion.analysis.checks");

		snprintf(where, sizeof(where), "spec.stages[%zu].errorBudget.source", i);
		stageset_source(g, o, file, val_path(st, "errorBudget.source"), where);
		snprintf(where, sizeof(where), "spec.stages[%zu].promotion.fastTrack.source", i);
		stageset_source(g, o, file, val_path(st, "promotion.fastTrack.source"), where);
		for (size_t k = 0; checks && checks->type == VAL_LIST && k < checks->u.list.n; k++) {
			snprintf(where, sizeof(where), "spec.stages[%zu].promotion.analysis.checks[%zu].source", i,
				 k);
			stageset_source(g, o, file, val_map_get(checks->u.list.items[k], "source"), where);
		}
	}
}

/*
 * warn_threshold() - a bound of @wave's gate threshold that Go's ParseFloat
 * refuses makes the verdict Unknown on every pass (lint MS205): a warning,
 * since the run still shows what happens (the wave holds).
 */
static void warn_threshold(struct loader *L, const struct val *wave, const char *file,
			   const char *fname, const char *wname)
{
	const struct val *th = val_path(wave, "gate.threshold");
	static const char *const names[] = { "min", "max" };
	bool noted = false;

	for (size_t k = 0; k < 2; k++) {
		const struct val *b = val_map_get(th, names[k]);
		char err[THR_ERRLEN];
		char *q;
		int rc;

		/* (the CRD makes it a string; an empty one is a bound too, and fails) */
		if (!b || b->type != VAL_STRING)
			continue;
		rc = thr_parse_float(b->u.s, NULL);
		if (rc == THR_OK)
			continue;
		q = sch_quote(b);
		diag_warning(L->d, file, b->mark,
			     "FleetRollout \"%s\": wave \"%s\": gate threshold %s %s is not a number "
			     "(%s); the gate's verdict is Unknown on every pass and the wave holds",
			     fname, wname, names[k], q,
			     thr_parse_float_error(b->u.s, rc, err, sizeof(err)));
		if (!noted)
			diag_note(L->d, file, b->mark,
				  "bounds are read by Go's strconv.ParseFloat: a plain or "
				  "hexadecimal float such as \"0.01\", \"1e-2\", \"0x1p-7\", "
				  "\"Inf\"; no units or percent signs (1%% is \"0.01\")");
		noted = true;
		free(q);
	}
}

/* check_fleet_gates() - the prometheus gates of FleetRollout @o (from @file). */
static void check_fleet_gates(struct gate_scan *g, const struct obj *o, const char *file)
{
	struct loader *L = g->L;
	const struct scn_fleet *fleet = &L->s->fleet;
	const struct val *waves = val_map_get(o->spec, "waves");
	char *fname = sch_abbrev(o->name);

	for (size_t w = 0; waves && waves->type == VAL_LIST && w < waves->u.list.n; w++) {
		const struct val *wave = waves->u.list.items[w];
		const struct val *prom = val_path(wave, "gate.source.prometheus");
		const struct val *q = val_map_get(prom, "query");
		const struct val *a = val_map_get(prom, "address");
		const char *address = val_str(a, NULL);
		char *wname = sch_abbrev(val_str(val_map_get(wave, "name"), ""));
		const struct claimed_series *c;
		char host[256];

		warn_threshold(L, wave, file, fname, wname);
		if (!prom || !q || q->type != VAL_STRING || val_map_get(prom, "secretRef")) {
			free(wname);
			continue; /* webhook gate, no gate, or GateUnsupported: never queried */
		}
		c = claimed_for(L, q->u.s, address);
		if (c) {
			mark_group(g, q->u.s, address);
		} else if ((!L->static_only || L->s->has_scenario_doc) &&
			   (L->s->has_scenario_doc || !L->yaml_failed)) {
			/*
			 * (a run's requirement, not the API server's: scn_load_static()
			 * skips it; so does a YAML error that may have cost the Scenario
			 * document, already reported)
			 */
			char *qq = sch_quote(q);
			const struct claimed_series *other = NULL;

			diag_error(L->d, file, q->mark,
				   "FleetRollout \"%s\": wave \"%s\": no series in spec.metrics for the "
				   "gate query %s",
				   fname, wname, qq);
			for (size_t i = 0; !other && i < L->nclaimed; i++)
				if (strcmp(L->claimed[i].query, q->u.s) == 0)
					other = &L->claimed[i];
			if (other)
				diag_note(L->d, L->s->scenario_file, other->mark,
					  "spec.metrics[%zu] has this query for address \"%s\", not "
					  "\"%s\"",
					  other->index, other->address, address ? address : "");
			else if (L->s->has_scenario_doc) {
				note_closest_query(L, file, q);
				diag_note(L->d, file, q->mark,
					  "every prometheus gate reads a synthetic series: add an entry "
					  "with this exact query to the Scenario's spec.metrics");
			} else
				diag_note(L->d, file, q->mark,
					  "every prometheus gate reads a synthetic series: add a Scenario "
					  "document (apiVersion: magos-sim/v1alpha1) whose spec.metrics "
					  "has an entry with this exact query");
			free(qq);
		}
		if (address && thr_url_hostname(address, host, sizeof(host)) != THR_OK) {
			diag_warning(L->d, file, a->mark,
				     "FleetRollout \"%s\": wave \"%s\": gate address \"%s\" is not an "
				     "http(s) URL with a host; the gate's verdict is Unknown on every "
				     "pass and the wave holds",
				     fname, wname, address);
		} else if (address &&
			   !thr_host_allowed((const char *const *)fleet->allowed_action_hosts,
					     fleet->nallowed_action_hosts, host)) {
			diag_warning(L->d, file, a->mark,
				     "FleetRollout \"%s\": wave \"%s\": gate host \"%s\" is not in "
				     "spec.fleet.allowedActionHosts; the gate's verdict is Unknown on "
				     "every pass and the wave holds",
				     fname, wname, host);
		}
		free(wname);
	}
	free(fname);
}

/*
 * scnp_check_gates() - every prometheus gate of every FleetRollout the run can
 * hold (the inputs' and those of apply events) has a series; gate addresses
 * the controller would refuse are warnings; a series no gate reads is a
 * warning.
 */
void scnp_check_gates(struct loader *L)
{
	struct scenario *s = L->s;
	struct gate_scan g = { L, xcalloc(L->nclaimed ? L->nclaimed : 1, sizeof(bool)) };

	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "FleetRollout") == 0)
			check_fleet_gates(&g, s->objs[i], s->objs[i]->src.file);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].obj && strcmp(s->events[i].obj->kind, "FleetRollout") == 0)
			check_fleet_gates(&g, s->events[i].obj, s->events[i].file);
	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "StageSet") == 0)
			check_stageset_sources(&g, s->objs[i], s->objs[i]->src.file);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].obj && strcmp(s->events[i].obj->kind, "StageSet") == 0)
			check_stageset_sources(&g, s->events[i].obj, s->events[i].file);
	/* a refused FleetRollout (already reported) may be the one whose gate reads it */
	for (size_t i = 0; i < L->nrejected; i++)
		if (strcmp(L->rejected[i].kind, "FleetRollout") == 0)
			memset(g.used, 1, (L->nclaimed ? L->nclaimed : 1) * sizeof(bool));
	for (size_t i = 0; i < L->nclaimed; i++)
		if (!g.used[i])
			diag_warning(L->d, s->scenario_file, L->claimed[i].mark,
				     "spec.metrics[%zu]: no FleetRollout gate reads this series",
				     L->claimed[i].index);
	free(g.used);
}
