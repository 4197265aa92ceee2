/*
 * Field kinds that several sections of the Scenario document use (durations,
 * label selectors, versions, commit SHAs) with their checks and readers, and the small helpers the section files share
 * (sim/load/scn_parse.h).
 */
#include "sim/load/scn_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"

/* ---------------------------------------------------------------- durations */

/* How check_duration() bounds a duration. */
enum dur_rule {
	DUR_NONNEG,   /* >= 0, fractions of a ms kept (distribution parameters) */
	DUR_MS,       /* 0 or >= 1ms: kept in whole ms, a positive value must not truncate to 0 */
	DUR_POSITIVE, /* >= 1ms: kept in whole ms, 0 not allowed */
};

/*
 * check_duration() - @v is a Go duration string within @rule.  Written here
 * rather than with SCH_DURATION so that a bare number (YAML's `90`) gets
 * advice about units instead of about quoting.
 */
static void check_duration(struct sch_ctx *c, const struct val *v, const char *path,
			   enum dur_rule rule)
{
	char err[160];
	int64_t ns = 0;
	char *q = sch_quote(v);

	if (v->type != VAL_STRING) {
		sch_report(c, v->mark, path,
			   "Invalid value: %s: must be a duration such as \"90s\", \"5m\" or \"1h30m\"",
			   q);
		if (v->type == VAL_INT || v->type == VAL_FLOAT)
			sch_note(c, v->mark, "a duration needs a unit: ns, us, ms, s, m or h");
	} else if (gt_parse_duration_ns(v->u.s, &ns, err, sizeof(err)) != 0) {
		sch_report_duration_error(c, v, path, err);
	} else if (rule == DUR_POSITIVE && ns <= 0) {
		sch_report(c, v->mark, path, "Invalid value: %s: must be greater than 0", q);
	} else if (ns < 0) {
		sch_report(c, v->mark, path, "Invalid value: %s: must be greater than or equal to 0",
			   q);
	} else if (rule != DUR_NONNEG && ns > 0 && ns < 1000000) {
		sch_report(c, v->mark, path, "Invalid value: %s: must be %sat least 1ms", q,
			   rule == DUR_MS ? "0 or " : "");
		sch_note(c, v->mark,
			 "simulated time counts whole milliseconds: %s would become 0", q);
	}
	free(q);
}

static void check_positive_duration(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_duration(c, v, path, DUR_POSITIVE);
}

void scnp_check_nonneg_duration(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_duration(c, v, path, DUR_NONNEG);
}

static void check_ms_duration(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_duration(c, v, path, DUR_MS);
}

/* SCH_ANY with a check: a bare number gets the note about units (check_duration()). */
const struct sch_node scnp_positive_duration_node = { .type = SCH_ANY,
						      .check = check_positive_duration };
const struct sch_node scnp_nonneg_duration_node = { .type = SCH_ANY,
						    .check = scnp_check_nonneg_duration };
const struct sch_node scnp_ms_duration_node = { .type = SCH_ANY, .check = check_ms_duration };

int64_t scnp_duration_ms(const struct val *v)
{
	int64_t ms = 0;

	gt_parse_duration(val_str(v, ""), &ms, NULL, 0);
	return ms;
}

void scnp_check_until(struct sch_ctx *c, const struct val *from, const char *from_key, const struct val *until,
		      const char *path)
{
	char f[GT_DURATION_BUFSZ], u[GT_DURATION_BUFSZ];
	int64_t from_ms = scnp_duration_ms(from), until_ms = scnp_duration_ms(until);

	if (!until || until_ms > from_ms)
		return;
	gt_format_duration(until_ms, u, sizeof(u));
	gt_format_duration(from_ms, f, sizeof(f));
	sch_report(c, until->mark, path, "Invalid value: \"object\": until (%s) must be later than %s (%s)", u,
		   from_key, f);
}

/* ---------------------------------------------------------------- selectors */

static void check_selector(struct sch_ctx *c, const struct val *v, const char *path)
{
	struct lbl_selector sel;
	char err[LBL_ERRLEN];

	if (lbl_selector_from_val(v, &sel, err, sizeof(err)) != LBL_OK)
		sch_report(c, v->mark, path, "Invalid value: \"object\": %s", err);
	lbl_selector_release(&sel);
}

static const struct sch_field selector_fields[] = {
	{ .name = "matchExpressions", .schema = &(const struct sch_node){
		.type = SCH_ARRAY,
		.items = &(const struct sch_node){
			.type = SCH_OBJECT,
			.fields = (const struct sch_field[]){
				{ .name = "key", .schema = &sch_string, .required = true },
				{ .name = "operator", .schema = &sch_string, .required = true },
				{ .name = "values", .schema = &sch_string_list },
				{ .name = NULL } } } } },
	{ .name = "matchLabels", .schema = &sch_string_map },
	{ .name = NULL },
};
const struct sch_node scnp_selector_node = { .type = SCH_OBJECT, .fields = selector_fields,
					     .check = check_selector };

char *scnp_read_selector(const struct val *v, struct lbl_selector *sel)
{
	lbl_selector_from_val(v, sel, NULL, 0);
	return lbl_selector_string(sel);
}

/* ---------------------------------------------------------------- versions */

const char *scnp_version_text(const struct val *v)
{
	if (!v)
		return NULL;
	if (v->type == VAL_STRING)
		return v->u.s;
	if ((v->type == VAL_INT || v->type == VAL_FLOAT) && v->raw)
		return v->raw;
	return NULL;
}

void scnp_check_version_text(struct sch_ctx *c, const struct val *v, const char *path)
{
	const char *t = scnp_version_text(v);
	char *q;

	if (t && t[0])
		return;
	q = sch_quote(v);
	if (t)
		sch_report(c, v->mark, path, "Invalid value: \"\": must not be empty");
	else
		sch_report(c, v->mark, path,
			   "Invalid value: \"%s\": must be a version such as \"1.10.0\": %s",
			   val_type_name(v->type), q);
	free(q);
}

/* ---------------------------------------------------------------- commit SHAs */

static bool is_sha(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == 40;
}

static void report_sha(struct sch_ctx *c, const struct val *v, const char *path)
{
	sch_report(c, v->mark, path,
		   "Invalid value: \"%s\": must be 40 lower-case hexadecimal digits (a full commit "
		   "SHA)",
		   val_str(v, ""));
}

static void check_sha(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (!is_sha(val_str(v, "")))
		report_sha(c, v, path);
}

static void check_sha_map(struct sch_ctx *c, const struct val *v, const char *path)
{
	for (size_t i = 0; i < v->u.map.n; i++) {
		const struct val_kv *kv = &v->u.map.items[i];

		if (!is_sha(val_str(kv->v, ""))) {
			char *sub = xasprintf("%s.%s", path, kv->key);

			report_sha(c, kv->v, sub);
			free(sub);
		}
	}
}

const struct sch_node scnp_sha_node = { .type = SCH_STRING, .check = check_sha };
const struct sch_node scnp_sha_map_node = { .type = SCH_MAP, .items = &sch_string,
					    .check = check_sha_map };

/* ---------------------------------------------------------------- helpers */

void scnp_free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

const char *scnp_name_at(const char *const *names, size_t i)
{
	for (size_t k = 0; names[k]; k++)
		if (k == i)
			return names[k];
	return "?";
}

bool *scnp_validate_each(const struct sch_node *node, struct val *list, const char *what,
			 struct sch_ctx *c)
{
	size_t n = list->u.list.n;
	bool *ok = xcalloc(n ? n : 1, sizeof(*ok));

	for (size_t i = 0; i < n; i++) {
		char path[48];

		snprintf(path, sizeof(path), "%s[%zu]", what, i);
		ok[i] = sch_validate(node, list->u.list.items[i], path, c) == 0;
	}
	return ok;
}
