/* Tests for sim/cluster/schema: wording of every rule, defaults, pruning, checks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/value.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/cluster/schema.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static const char *const regression_values[] = { "Halt", "Rollback", NULL };
static const struct sch_node on_regression = { SCH_STRING, .enum_values = regression_values };
static const struct sch_node name_node = { SCH_STRING, .min_length = 1 };
static const struct sch_node replicas = { SCH_INTEGER, .has_minimum = true, .minimum = 1 };
static const struct sch_field ref_fields[] = {
	SCH_REQUIRED("name", &name_node),
	SCH_END,
};
static const struct sch_node ref_node = { SCH_OBJECT, .fields = ref_fields };
static const struct sch_field source_fields[] = {
	SCH_REQUIRED("repoURL", &sch_string),
	SCH_DEFAULT("path", &sch_string, "."),
	SCH_END,
};
static const struct sch_node source_node = { SCH_OBJECT, .fields = source_fields };
static const struct sch_field opts_fields[] = {
	SCH_DEFAULT("path", &sch_string, "."),
	SCH_END,
};
static const struct sch_node opts_node = { SCH_OBJECT, .fields = opts_fields };
static const struct sch_node waves = { SCH_ARRAY, .items = &sch_string, .min_items = 1 };
static const struct sch_node nullable_str = { SCH_STRING, .nullable = true };
static const struct sch_field stage_fields[] = {
	SCH_FIELD("name", &sch_any),
	SCH_FIELD("weight", &sch_integer),
	SCH_END,
};
static const struct sch_node stage_node = { SCH_OBJECT, .fields = stage_fields };
static const struct sch_node stage_list = { SCH_ARRAY, .items = &stage_node,
					    .list_map_key = "name" };
static const struct sch_field group_fields[] = {
	SCH_FIELD("stages", &stage_list),
	SCH_END,
};
static const struct sch_node group_node = { SCH_OBJECT, .fields = group_fields };
static const struct sch_node group_map = { SCH_MAP, .items = &group_node };

static int checks_run;

static void check_ratio(struct sch_ctx *c, const struct val *v, const char *path)
{
	checks_run++;
	if (val_num(val_map_get(v, "ratio"), 0) > 1)
		sch_report(c, v->mark, path, "Invalid value: \"object\": ratio must be at most 1");
}

static const struct sch_field spec_fields[] = {
	SCH_DEFAULT("autoApply", &sch_boolean, "true"),
	SCH_FIELD("version", &sch_string),
	SCH_DEFAULT("onRegression", &on_regression, "Halt"),
	SCH_REQUIRED("projectRef", &ref_node),
	SCH_FIELD("source", &source_node),
	SCH_DEFAULT("opts", &opts_node, "{}"),
	SCH_FIELD("replicas", &replicas),
	SCH_FIELD("waves", &waves),
	SCH_FIELD("soak", &sch_duration),
	SCH_FIELD("labels", &sch_string_map),
	SCH_FIELD("extra", &sch_any),
	SCH_FIELD("ratio", &sch_number),
	SCH_FIELD("note", &nullable_str),
	SCH_DEFAULT("count", &sch_integer, "3"),
	SCH_FIELD("stages", &stage_list),
	SCH_FIELD("groups", &group_map),
	SCH_END,
};
static const struct sch_node spec_node = { SCH_OBJECT, .fields = spec_fields, .check = check_ratio };
static const struct sch_field root_fields[] = {
	SCH_REQUIRED("spec", &spec_node),
	SCH_END,
};
static const struct sch_node root_node = { SCH_OBJECT, .fields = root_fields };

static struct yl_stream st;
static struct diag dg;

/* Loads @text and validates it; returns sch_validate's result. */
static int run(const char *text)
{
	struct sch_ctx c = { 0 };

	yl_stream_release(&st);
	diag_release(&dg);
	diag_init(&dg);
	CU_ASSERT_EQUAL_FATAL(yl_load_string("s.yaml", text, strlen(text), &st, &dg), 0);
	CU_ASSERT_EQUAL_FATAL(st.n, 1);
	c.d = &dg;
	c.file = "s.yaml";
	c.prefix = "Thing \"default/x\": ";
	c.root = st.docs[0].root;
	checks_run = 0;
	{
		int rc = sch_validate(&root_node, st.docs[0].root, "", &c);

		if (getenv("TEST_VERBOSE"))
			diag_print(&dg, stderr, false);
		return rc;
	}
}

/* The diagnostic @i of dg as printed, or "" when there are fewer (see fx_diag_item()). */
static const char *item(size_t i)
{
	return fx_diag_item(&dg, i);
}

static struct val *get(const char *path)
{
	return val_path(st.docs[0].root, path);
}

static void test_valid_with_defaults(void)
{
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  note: null\n"), 0);
	CU_ASSERT_EQUAL(dg.n, 0);
	CU_ASSERT_EQUAL(get("spec.autoApply")->type, VAL_BOOL);
	CU_ASSERT_TRUE(get("spec.autoApply")->u.b);
	CU_ASSERT_STRING_EQUAL(val_str(get("spec.onRegression"), "?"), "Halt");
	/* An object default is defaulted in turn. */
	CU_ASSERT_STRING_EQUAL(val_str(get("spec.opts.path"), "?"), ".");
	CU_ASSERT_EQUAL(get("spec.count")->u.i, 3);
	/* nullable keeps the null. */
	CU_ASSERT_EQUAL(get("spec.note")->type, VAL_NULL);
	/* Defaulted nodes take the parent's mark. */
	CU_ASSERT_EQUAL(get("spec.autoApply")->mark.line, 2);
	CU_ASSERT_EQUAL(checks_run, 1);
}

static void test_null_pruned_then_defaulted(void)
{
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  autoApply: null\n  version: ~\n"), 0);
	CU_ASSERT_TRUE(val_bool(get("spec.autoApply"), false));
	CU_ASSERT_EQUAL(val_map_get_kv(get("spec"), "version"), NULL);
}

static void test_wrong_types(void)
{
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  autoApply: \"yes\"\n  version: 1.10\n  replicas: \"3\"\n  labels: {a: 1}\n"),
			-1);
	CU_ASSERT_EQUAL(dg.n, 6);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:3:14: error: Thing \"default/x\": spec.autoApply: Invalid value: \"string\": spec.autoApply in body must be of type boolean: \"yes\"");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "s.yaml:4:12: error: Thing \"default/x\": spec.version: Invalid value: \"number\": spec.version in body must be of type string: 1.10");
	CU_ASSERT_STRING_EQUAL(item(2),
			       "s.yaml:4:12: note: YAML reads 1.10 as a number: quote it (\"1.10\") if a string is meant; the cluster rejects the unquoted form too");
	CU_ASSERT_STRING_EQUAL(item(3),
			       "s.yaml:5:13: error: Thing \"default/x\": spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"3\"");
	CU_ASSERT_STRING_EQUAL(item(4),
			       "s.yaml:6:15: error: Thing \"default/x\": spec.labels.a: Invalid value: \"integer\": spec.labels.a in body must be of type string: 1");
	CU_ASSERT_STRING_EQUAL(item(5),
			       "s.yaml:6:15: note: YAML reads 1 as a number: quote it (\"1\") if a string is meant; the cluster rejects the unquoted form too");
	/* The check does not run on a subtree with errors. */
	CU_ASSERT_EQUAL(checks_run, 0);
}

static void test_required_enum_minlength(void)
{
	CU_ASSERT_EQUAL(run("spec:\n  projectRef:\n    name: \"\"\n  onRegression: Foo\n  source: {}\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 3);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:3:11: error: Thing \"default/x\": spec.projectRef.name: Invalid value: \"\": spec.projectRef.name in body should be at least 1 chars long");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "s.yaml:4:17: error: Thing \"default/x\": spec.onRegression: Unsupported value: \"Foo\": supported values: \"Halt\", \"Rollback\"");
	CU_ASSERT_STRING_EQUAL(item(2),
			       "s.yaml:5:11: error: Thing \"default/x\": spec.source.repoURL: Required value");
	CU_ASSERT_EQUAL(run("other: 1\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 3);
	CU_ASSERT_STRING_EQUAL(item(0), "s.yaml:1:1: error: Thing \"default/x\": unknown field \"other\"");
	CU_ASSERT_STRING_EQUAL(item(1), "s.yaml:1:1: note: accepted fields: spec");
	CU_ASSERT_STRING_EQUAL(item(2), "s.yaml:1:1: error: Thing \"default/x\": spec: Required value");
}

static void test_unknown_field_minimum_minitems_duration(void)
{
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p, kind: X}\n  foo: 1\n  replicas: 0\n  waves: []\n  soak: 5x\n  extra: {anything: [1, 2]}\n"),
			-1);
	CU_ASSERT_EQUAL(dg.n, 8);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:2:25: error: Thing \"default/x\": unknown field \"spec.projectRef.kind\"");
	CU_ASSERT_STRING_EQUAL(item(1), "s.yaml:2:25: note: accepted fields: name");
	CU_ASSERT_STRING_EQUAL(item(2), "s.yaml:3:3: error: Thing \"default/x\": unknown field \"spec.foo\"");
	CU_ASSERT_STRING_EQUAL(item(3),
			       "s.yaml:3:3: note: accepted fields: autoApply, version, onRegression, projectRef, source, opts, replicas, waves, soak, labels, extra, ratio, note, count, stages, groups");
	CU_ASSERT_STRING_EQUAL(item(4),
			       "s.yaml:4:13: error: Thing \"default/x\": spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1");
	CU_ASSERT_STRING_EQUAL(item(5),
			       "s.yaml:5:10: error: Thing \"default/x\": spec.waves: Invalid value: 0: spec.waves in body should have at least 1 items");
	CU_ASSERT_STRING_EQUAL(item(6),
			       "s.yaml:6:9: error: Thing \"default/x\": spec.soak: Invalid value: \"5x\": time: unknown unit \"x\" in duration \"5x\"");
	CU_ASSERT_STRING_EQUAL(item(7), "s.yaml:6:9: note: durations use Go syntax, e.g. 90s, 5m, 1h30m");
}

static void test_array_paths_and_check(void)
{
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  waves: [a, 2, c]\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:3:14: error: Thing \"default/x\": spec.waves[1]: Invalid value: \"integer\": spec.waves[1] in body must be of type string: 2");
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  ratio: 1.5\n"), -1);
	CU_ASSERT_EQUAL(checks_run, 1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:2:3: error: Thing \"default/x\": spec: Invalid value: \"object\": ratio must be at most 1");
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  ratio: 1\n"), 0);
}

static void test_list_map_keys(void)
{
	char *m;

	/* the second element with a key is named, once per key (a third is not) */
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  stages:\n"
			    "  - {name: a}\n  - {name: b}\n  - {name: a}\n  - {name: a}\n"
			    "  - {name: b}\n"),
			-1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:6:5: error: Thing \"default/x\": spec.stages[2]: Duplicate value: map[string]interface {}{\"name\":\"a\"}");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "s.yaml:8:5: error: Thing \"default/x\": spec.stages[4]: Duplicate value: map[string]interface {}{\"name\":\"b\"}");
	m = sch_list_map_violation(&spec_node, get("spec"), "spec");
	CU_ASSERT_STRING_EQUAL(m, "spec.stages[2]: Duplicate value: map[string]interface {}{\"name\":\"a\"}");
	free(m);
	/* a missing key is a value too; numbers print as Go prints an int64 */
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  stages: [{weight: 1}, {weight: 2}]\n"),
			-1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:3:25: error: Thing \"default/x\": spec.stages[1]: Duplicate value: map[string]interface {}{}");
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  stages: [{name: 7}, {name: 7}]\n"),
			-1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:3:23: error: Thing \"default/x\": spec.stages[1]: Duplicate value: map[string]interface {}{\"name\":7}");
	/* unique keys pass; "7" and 7 are different keys */
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  stages: [{name: 7}, {name: \"7\"}, {}]\n"),
			0);
	CU_ASSERT_PTR_NULL(sch_list_map_violation(&spec_node, get("spec"), "spec"));
	/* below a free map's values, and nothing for wrong shapes or NULL */
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  groups:\n"
			    "    g1: {stages: [{name: x}]}\n    g2: {stages: [{name: x}, {name: x}]}\n"),
			-1);
	m = sch_list_map_violation(&root_node, st.docs[0].root, NULL);
	CU_ASSERT_STRING_EQUAL(m, "spec.groups.g2.stages[1]: Duplicate value: map[string]interface {}{\"name\":\"x\"}");
	free(m);
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  stages: 3\n"), -1);
	CU_ASSERT_PTR_NULL(sch_list_map_violation(&root_node, st.docs[0].root, ""));
	CU_ASSERT_PTR_NULL(sch_list_map_violation(&root_node, NULL, ""));
}

/* Pairwise reference: true when element @i of @list is the second with its key. */
static bool ref_second(const struct val *list, size_t i)
{
	const struct val *k = val_map_get(list->u.list.items[i], "name");
	size_t seen = 0;

	for (size_t j = 0; j < i; j++) {
		const struct val *o = val_map_get(list->u.list.items[j], "name");

		if ((!k && !o) || (k && o && val_equal(k, o)))
			seen++;
	}
	return seen == 1;
}

/*
 * Lists beyond the pairwise size are checked by sorting key hashes: the
 * duplicates named are those of a pairwise check, in index order, for keys
 * that are strings, integers, maps in any key order, 0.0 and -0.0, absent
 * keys, and many repeats of one key.
 */
static void test_list_map_keys_long(void)
{
	static const char *const pool[] = { "{name: a}", "{name: b}", "{name: 7}", "{name: \"7\"}",
					     "{}", "{name: {x: 1, \"y\": 2}}", "{name: {\"y\": 2, x: 1}}",
					     "{name: 0.0}", "{name: -0.0}", "{name: [1, 2]}",
					     "{name: [2, 1]}", "{name: true}" };
	uint32_t seed = 5;

	for (int round = 0; round < 30; round++) {
		size_t n = 17 + (size_t)(round * 37 % 300), unique = 0, k = 0;
		size_t cap = 64 + n * 40;
		char *text = xmalloc(cap), *p = text;
		const struct val *list;
		char *m;

		p += sprintf(p, "spec:\n  projectRef: {name: p}\n  stages: [");
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			if (round % 3 == 0) /* mostly unique keys, a few repeats */
				p += (seed >> 16) % 8 ? sprintf(p, "%s{name: u%zu}", i ? ", " : "", unique++)
						      : sprintf(p, "%s%s", i ? ", " : "",
								pool[(seed >> 8) % 12]);
			else
				p += sprintf(p, "%s%s", i ? ", " : "", pool[(seed >> 8) % 12]);
		}
		strcpy(p, "]\n");
		run(text);
		list = get("spec.stages");
		CU_ASSERT_PTR_NOT_NULL_FATAL(list);
		m = sch_list_map_violation(&spec_node, get("spec"), "spec");
		for (size_t i = 0; i < n; i++) {
			char want[48];

			if (!ref_second(list, i))
				continue;
			snprintf(want, sizeof(want), "spec.stages[%zu]:", i);
			/* the k-th diagnostic names the k-th duplicate */
			CU_ASSERT_PTR_NOT_NULL(strstr(item(k), want));
			if (k == 0)
				CU_ASSERT_TRUE(m && strncmp(m, want, strlen(want)) == 0);
			k++;
		}
		CU_ASSERT_EQUAL(dg.n, k);
		if (k == 0)
			CU_ASSERT_PTR_NULL(m);
		free(m);
		free(text);
	}
}

static void test_quote_and_fields(void)
{
	struct val *v = val_new_string("a\"b\n");
	char *q = sch_quote(v);
	char *f = sch_accepted_fields(&ref_node);

	CU_ASSERT_STRING_EQUAL(q, "\"a\\\"b\\n\"");
	CU_ASSERT_STRING_EQUAL(f, "name");
	free(q);
	free(f);
	val_free(v);
	q = sch_quote(NULL);
	CU_ASSERT_STRING_EQUAL(q, "null");
	free(q);
}

static void test_long_values_shortened(void)
{
	char *big = xmalloc(5000001);
	struct val *v;
	char *q, *want;

	memset(big, 'a', 5000000);
	big[5000000] = '\0';
	v = val_new_string(big);
	q = sch_quote(v);
	want = xasprintf("\"%.64s\"... (5000000 bytes)", big);
	CU_ASSERT_STRING_EQUAL(q, want);
	free(want);
	free(q);
	q = sch_abbrev(big);
	want = xasprintf("%.64s...", big);
	CU_ASSERT_STRING_EQUAL(q, want);
	free(want);
	free(q);
	val_free(v);
	/* 64 characters exactly are shown whole; the cut never splits a UTF-8 sequence. */
	big[64] = '\0';
	v = val_new_string(big);
	q = sch_quote(v);
	CU_ASSERT_EQUAL(strlen(q), 66);
	free(q);
	val_free(v);
	memset(big, 'a', 66);
	memcpy(big, "\xc3\xa9", 2); /* é, then 64 more characters: 65 in all */
	big[66] = '\0';
	q = sch_abbrev(big);
	CU_ASSERT_EQUAL(strlen(q), 65 + 3);
	CU_ASSERT_STRING_EQUAL(q + 65, "...");
	free(q);
	free(big);
}

static void test_duration_out_of_range(void)
{
	CU_ASSERT_EQUAL(run("spec:\n  projectRef: {name: p}\n  soak: 9999999999h\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "s.yaml:3:9: error: Thing \"default/x\": spec.soak: Invalid value: \"9999999999h\": time: invalid duration \"9999999999h\": out of range, the maximum is 2562047h47m16.854775807s");
}

static void test_move_sorted(void)
{
	struct diag src, dst;
	struct val_mark m3 = { 3, 1 }, m1 = { 1, 5 }, m1b = { 1, 2 };
	char *t;

	diag_init(&src);
	diag_init(&dst);
	diag_error(&src, "f", m3, "third");
	diag_note(&src, "f", m3, "note of third");
	diag_error(&src, "f", m1, "second");
	diag_warning(&src, "f", m1b, "first");
	diag_note(&src, "f", m3, "note of first, elsewhere");
	diag_error(&src, "f", m1, "second again");
	sch_move_sorted(&dst, &src);
	CU_ASSERT_EQUAL(src.n, 0);
	CU_ASSERT_EQUAL_FATAL(dst.n, 6);
	CU_ASSERT_EQUAL(dst.nerrors, 3);
	CU_ASSERT_STRING_EQUAL(dst.items[0].msg, "first");
	CU_ASSERT_STRING_EQUAL(dst.items[1].msg, "note of first, elsewhere");
	CU_ASSERT_STRING_EQUAL(dst.items[2].msg, "second");
	CU_ASSERT_STRING_EQUAL(dst.items[3].msg, "second again");
	CU_ASSERT_STRING_EQUAL(dst.items[4].msg, "third");
	CU_ASSERT_STRING_EQUAL(dst.items[5].msg, "note of third");
	t = diag_format_item(&dst, 0);
	CU_ASSERT_STRING_EQUAL(t, "f:1:2: warning: first");
	free(t);
	diag_release(&src);
	diag_release(&dst);
}

/* ---- maximum, maxLength, pattern, date-time, int32 ----------------------------- */

static bool lower_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < 'a' || *s > 'z')
			return false;
	return true;
}

static const struct sch_node percent = { SCH_INTEGER, .has_minimum = true, .minimum = 0, .has_maximum = true,
					 .maximum = 100, .format = SCH_FORMAT_INT32 };
static const struct sch_node count32 = { SCH_INTEGER, .format = SCH_FORMAT_INT32 };
static const struct sch_node short_text = { SCH_STRING, .max_length = 3 };
static const struct sch_node word = { SCH_STRING, .pattern = "^[a-z]+$", .pattern_match = lower_word };
static const struct sch_node stamp = { SCH_STRING, .format = SCH_FORMAT_DATE_TIME };
static const struct sch_field limits_fields[] = {
	SCH_FIELD("percent", &percent),
	SCH_FIELD("count", &count32),
	SCH_FIELD("short", &short_text),
	SCH_FIELD("word", &word),
	SCH_FIELD("at", &stamp),
	SCH_END,
};
static const struct sch_node limits_node = { SCH_OBJECT, .fields = limits_fields };

/* Loads @text and validates it against @node. */
static int run_node(const struct sch_node *node, const char *text)
{
	struct sch_ctx c = { 0 };

	yl_stream_release(&st);
	diag_release(&dg);
	diag_init(&dg);
	CU_ASSERT_EQUAL_FATAL(yl_load_string("s.yaml", text, strlen(text), &st, &dg), 0);
	c.d = &dg;
	c.file = "s.yaml";
	c.prefix = "Thing \"default/x\": ";
	return sch_validate(node, st.docs[0].root, "", &c);
}

static void test_maximum_maxlength_pattern(void)
{
	CU_ASSERT_EQUAL(run_node(&limits_node, "percent: 100\nshort: abc\nword: ok\ncount: 2147483647\n"), 0);
	CU_ASSERT_EQUAL(run_node(&limits_node, "percent: 101\nshort: abcd\nword: Not-OK\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 3);
	CU_ASSERT_STRING_EQUAL(item(0), "s.yaml:1:10: error: Thing \"default/x\": percent: Invalid value: 101: percent in body should be less than or equal to 100");
	CU_ASSERT_STRING_EQUAL(item(1), "s.yaml:2:8: error: Thing \"default/x\": short: Too long: may not be more than 3 bytes");
	CU_ASSERT_STRING_EQUAL(item(2), "s.yaml:3:7: error: Thing \"default/x\": word: Invalid value: \"Not-OK\": word in body should match '^[a-z]+$'");
	/* maxLength counts characters, as the API server does */
	CU_ASSERT_EQUAL(run_node(&limits_node, "short: \"\u00e4\u00f6\u00fc\"\n"), 0);
	/* the minimum and the maximum are reported alone, not again as int32 */
	CU_ASSERT_EQUAL(run_node(&limits_node, "percent: -1\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0), "s.yaml:1:10: error: Thing \"default/x\": percent: Invalid value: -1: percent in body should be greater than or equal to 0");
}

/* Deviation: format int32 is not bounded by the API server, but the controller cannot decode more. */
static void test_int32_format(void)
{
	CU_ASSERT_EQUAL(run_node(&limits_node, "count: 2147483648\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0), "s.yaml:1:8: error: Thing \"default/x\": count: Invalid value: 2147483648: count in body should be less than or equal to 2147483647");
	CU_ASSERT_STRING_EQUAL(item(1), "s.yaml:1:8: note: the CRD declares format int32: the API server stores the number, but the controller cannot decode it");
	CU_ASSERT_EQUAL(run_node(&limits_node, "count: -2147483649\n"), -1);
	CU_ASSERT_STRING_EQUAL(item(0), "s.yaml:1:8: error: Thing \"default/x\": count: Invalid value: -2147483649: count in body should be greater than or equal to -2147483648");
	CU_ASSERT_EQUAL(run_node(&limits_node, "count: -2147483648\n"), 0);
}

static void test_date_time_format(void)
{
	CU_ASSERT_EQUAL(run_node(&limits_node, "at: \"2026-01-01T09:00:00Z\"\n"), 0);
	CU_ASSERT_EQUAL(run_node(&limits_node, "at: \"2026-02-30T09:00:00Z\"\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0), "s.yaml:1:5: error: Thing \"default/x\": at: Invalid value: \"2026-02-30T09:00:00Z\": at in body must be of type date-time: \"2026-02-30T09:00:00Z\"");
	/* the API server takes a lower-case t and z; metav1.Time does not (deviation) */
	CU_ASSERT_EQUAL(run_node(&limits_node, "at: \"2026-01-01t09:00:00z\"\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0), "s.yaml:1:5: error: Thing \"default/x\": at: Invalid value: \"2026-01-01t09:00:00z\": at must be an RFC 3339 time the controller can read, such as 2026-01-01T09:00:00Z");
	CU_ASSERT_STRING_EQUAL(item(1), "s.yaml:1:5: note: the API server stores it, but metav1.Time needs an upper-case T and Z and a '.' or ',' before a fraction");
}

static void test_is_date_time(void)
{
	static const struct {
		const char *s;
		bool strfmt, go;
	} cases[] = {
		{ "2026-01-01T09:00:00Z", true, true },
		{ "2026-01-01T09:00:00.123456789+02:00", true, true },
		{ "2026-01-01T09:00:00,5Z", true, true },
		{ "2024-02-29T23:59:59-05:30", true, true },
		{ "2023-02-29T00:00:00Z", false, false },
		{ "2026-13-01T00:00:00Z", false, false },
		{ "2026-01-01T24:00:00Z", false, false },
		{ "2026-01-01T09:60:00Z", false, false },
		{ "2026-01-01T09:00:60Z", false, false },
		{ "2026-01-01T09:00:00", false, false },
		{ "2026-01-01 09:00:00Z", false, false },
		{ "2026-1-01T09:00:00Z", false, false },
		{ "2026-01-01t09:00:00z", true, false },
		{ "2026-01-01T09:00:00x5Z", true, false },
		{ "2026-01-01T09:00:00+5:00", false, false },
		{ "2026-01-01T09:00:00.Z", false, false },
		{ "2026-01-01T09:00:00ZT-garbage", true, false },
		{ "", false, false },
		{ "2026", false, false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL(sch_is_date_time(cases[i].s), cases[i].strfmt);
		CU_ASSERT_EQUAL(sch_is_rfc3339_time(cases[i].s), cases[i].go);
		if (sch_is_date_time(cases[i].s) != cases[i].strfmt || sch_is_rfc3339_time(cases[i].s) != cases[i].go)
			fprintf(stderr, "\ndate-time case %s\n", cases[i].s);
	}
}

static void test_cleanup(void)
{
	yl_stream_release(&st);
	diag_release(&dg);
	item(99);
	CU_PASS("released");
}

static CU_TestInfo tests[] = {
	{ "valid document gets defaults", test_valid_with_defaults },
	{ "nulls pruned, then defaulted", test_null_pruned_then_defaulted },
	{ "wrong types, with the quote note", test_wrong_types },
	{ "required, enum, minLength", test_required_enum_minlength },
	{ "unknown fields, minimum, minItems, duration", test_unknown_field_minimum_minitems_duration },
	{ "array paths and custom checks", test_array_paths_and_check },
	{ "list-map keys are unique (x-kubernetes-list-map-keys)", test_list_map_keys },
	{ "list-map keys of long lists, by hash (as a pairwise check)", test_list_map_keys_long },
	{ "quoting and field lists", test_quote_and_fields },
	{ "long strings are shortened in messages", test_long_values_shortened },
	{ "a duration beyond Go's range names the maximum", test_duration_out_of_range },
	{ "sch_move_sorted orders groups by position", test_move_sorted },
	{ "maximum, maxLength (characters) and pattern", test_maximum_maxlength_pattern },
	{ "format int32 bounds what the controller can decode (deviation)", test_int32_format },
	{ "format date-time: the API server's check, then metav1.Time's (deviation)", test_date_time_format },
	{ "sch_is_date_time (strfmt) and sch_is_rfc3339_time (time.Parse)", test_is_date_time },
	{ "cleanup", test_cleanup },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("schema", tests);
}
