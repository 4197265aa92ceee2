/*
 * Label selectors: conversion (LabelSelectorAsSelector / NewRequirement),
 * matching, String(), key/value validation.  Cases are named after the
 * apimachinery v0.36.0 unit tests they come from (helpers_test.go,
 * selector_test.go, content/kube_test.go, validation_test.go); the others
 * after what they pin down.  Every error text is compared in full.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/objects.h"
#include "engine/value.h"
#include "tests/unit/cu_main.h"

/* The regex-error details, spelled out once (note Go's two spaces before "or"). */
#define KEY_NAME_RE                                                                             \
	"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and " \
	"end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex " \
	"used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define KEY_SLASHES_RE                                                                      \
	"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must " \
	"start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "    \
	"'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') " \
	"with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
#define PREFIX_RE                                                                               \
	"prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "      \
	"characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "    \
	"'example.com', regex used for validation is "                                            \
	"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
#define VALUE_RE                                                                                \
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' " \
	"or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "    \
	"'my_value',  or '12345', regex used for validation is "                                 \
	"'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define IN_EMPTY "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"

/* ---- building selectors ------------------------------------------------- */

#define NOVALS (-1) /* the expression has no `values` key at all */

struct expr_spec {
	const char *key; /* NULL: no `key` field */
	const char *op;  /* NULL: no `operator` field */
	int nvalues;     /* NOVALS, or how many of values[] to put in a list */
	const char *values[4];
};

struct sel_spec {
	const char *labels[6][2]; /* matchLabels, in insertion order, up to a NULL key */
	struct expr_spec exprs[6];
	int nexprs;
};

static struct val *build(const struct sel_spec *sp)
{
	struct val *sel = val_new_map();

	if (sp->labels[0][0]) {
		struct val *ml = val_map_set(sel, "matchLabels", val_new_map());

		for (int i = 0; i < 6 && sp->labels[i][0]; i++)
			val_map_set(ml, sp->labels[i][0], val_new_string(sp->labels[i][1]));
	}
	if (sp->nexprs) {
		struct val *me = val_map_set(sel, "matchExpressions", val_new_list());

		for (int i = 0; i < sp->nexprs; i++) {
			const struct expr_spec *e = &sp->exprs[i];
			struct val *ev = val_list_push(me, val_new_map());

			if (e->key)
				val_map_set(ev, "key", val_new_string(e->key));
			if (e->op)
				val_map_set(ev, "operator", val_new_string(e->op));
			if (e->nvalues != NOVALS) {
				struct val *vl = val_map_set(ev, "values", val_new_list());

				for (int j = 0; j < e->nvalues; j++)
					val_list_push(vl, val_new_string(e->values[j]));
			}
		}
	}
	return sel;
}

/* labels from "k=v" strings, up to NULL */
static void set_labels(struct obj_strmap *m, const char *const *kv)
{
	obj_strmap_init(m);
	for (; *kv; kv++) {
		const char *eq = strchr(*kv, '=');
		char key[128];

		CU_ASSERT_FATAL(eq != NULL && (size_t)(eq - *kv) < sizeof key);
		memcpy(key, *kv, (size_t)(eq - *kv));
		key[eq - *kv] = '\0';
		obj_strmap_set(m, key, eq + 1);
	}
}

/* ---- conversion table ----------------------------------------------------- */

struct conv_case {
	const char *name;
	struct sel_spec sel;
	const char *want; /* String() on success, NULL when an error is expected */
	const char *err;  /* exact error text when want is NULL */
};

static const struct conv_case conv_cases[] = {
	/* helpers_test.go TestLabelSelectorAsSelector */
	{ "TestLabelSelectorAsSelector/empty", { .nexprs = 0 }, "", NULL },
	{ "TestLabelSelectorAsSelector/matchLabels", { .labels = { { "foo", "bar" } } }, "foo=bar", NULL },
	{ "TestLabelSelectorAsSelector/matchExpressions",
	  { .exprs = { { "baz", "In", 2, { "qux", "norf" } } }, .nexprs = 1 },
	  "baz in (norf,qux)", NULL },
	{ "TestLabelSelectorAsSelector/both",
	  { .labels = { { "foo", "bar" } }, .exprs = { { "baz", "In", 2, { "qux", "norf" } } }, .nexprs = 1 },
	  "baz in (norf,qux),foo=bar", NULL },
	{ "TestLabelSelectorAsSelector/existsWithValues",
	  { .exprs = { { "baz", "Exists", 2, { "qux", "norf" } } }, .nexprs = 1 }, NULL,
	  "values: Invalid value: [\"qux\",\"norf\"]: values set must be empty for exists and does not exist" },

	/* selector_test.go TestRequirementConstructor, through LabelSelectorAsSelector */
	{ "TestRequirementConstructor/x1-in-no-values", { .exprs = { { "x1", "In", NOVALS, { 0 } } }, .nexprs = 1 },
	  NULL, IN_EMPTY },
	{ "TestRequirementConstructor/x2-notin-empty-values", { .exprs = { { "x2", "NotIn", 0, { 0 } } }, .nexprs = 1 },
	  NULL, IN_EMPTY },
	{ "TestRequirementConstructor/x3", { .exprs = { { "x3", "In", 1, { "foo" } } }, .nexprs = 1 },
	  "x3 in (foo)", NULL },
	{ "TestRequirementConstructor/x4", { .exprs = { { "x4", "NotIn", 1, { "foo" } } }, .nexprs = 1 },
	  "x4 notin (foo)", NULL },
	{ "TestRequirementConstructor/x6", { .exprs = { { "x6", "Exists", NOVALS, { 0 } } }, .nexprs = 1 }, "x6", NULL },
	{ "TestRequirementConstructor/x7", { .exprs = { { "x7", "DoesNotExist", 0, { 0 } } }, .nexprs = 1 }, "!x7", NULL },
	{ "TestRequirementConstructor/x8", { .exprs = { { "x8", "Exists", 1, { "foo" } } }, .nexprs = 1 }, NULL,
	  "values: Invalid value: [\"foo\"]: values set must be empty for exists and does not exist" },
	{ "TestRequirementConstructor/x8-doesnotexist", { .exprs = { { "x8", "DoesNotExist", 1, { "foo" } } }, .nexprs = 1 },
	  NULL, "values: Invalid value: [\"foo\"]: values set must be empty for exists and does not exist" },
	{ "TestRequirementConstructor/x17", { .labels = { { "x17", "a b" } } }, NULL,
	  "values[0][x17]: Invalid value: \"a b\": " VALUE_RE },
	{ "TestRequirementConstructor/x18-unsupportedOp", { .exprs = { { "x18", "unsupportedOp", 0, { 0 } } }, .nexprs = 1 },
	  NULL, "\"unsupportedOp\" is not a valid label selector operator" },

	/* spec magos-controllers §2.3 R-ERR and §6.6 #40 */
	{ "R-ERR/operator-Foo", { .exprs = { { "env", "Foo", 1, { "dev" } } }, .nexprs = 1 }, NULL,
	  "\"Foo\" is not a valid label selector operator" },
	{ "R-ERR/operators-are-case-sensitive", { .exprs = { { "env", "in", 1, { "dev" } } }, .nexprs = 1 }, NULL,
	  "\"in\" is not a valid label selector operator" },
	{ "R-ERR/missing-operator", { .exprs = { { "env", NULL, 1, { "dev" } } }, .nexprs = 1 }, NULL,
	  "\"\" is not a valid label selector operator" },
	{ "R-ERR/operator-quoted-as-go", { .exprs = { { "env", "N\"o\tp", 0, { 0 } } }, .nexprs = 1 }, NULL,
	  "\"N\\\"o\\tp\" is not a valid label selector operator" },
	{ "operator-checked-before-key", { .exprs = { { "bad key!", "Foo", 0, { 0 } } }, .nexprs = 1 }, NULL,
	  "\"Foo\" is not a valid label selector operator" },

	/* key syntax through NewRequirement: the "key" field path */
	{ "bad-key", { .exprs = { { "bad key!", "Exists", NOVALS, { 0 } } }, .nexprs = 1 }, NULL,
	  "key: Invalid value: \"bad key!\": " KEY_NAME_RE },
	{ "missing-key", { .exprs = { { NULL, "Exists", NOVALS, { 0 } } }, .nexprs = 1 }, NULL,
	  "key: Invalid value: \"\": name part must be non-empty; " KEY_NAME_RE },
	{ "bad-key-in-matchLabels", { .labels = { { "a/b/c", "x" } } }, NULL,
	  "key: Invalid value: \"a/b/c\": " KEY_SLASHES_RE },
	{ "bad-prefix", { .labels = { { "Example.com/abc", "x" } } }, NULL,
	  "key: Invalid value: \"Example.com/abc\": " PREFIX_RE },

	/* several errors of one requirement: aggregate "[a, b]", in NewRequirement order */
	{ "aggregate/key-and-values", { .exprs = { { "bad key!", "In", NOVALS, { 0 } } }, .nexprs = 1 }, NULL,
	  "[key: Invalid value: \"bad key!\": " KEY_NAME_RE ", " IN_EMPTY "]" },
	{ "aggregate/exists-with-bad-values", { .exprs = { { "k", "Exists", 2, { "<a>", "ok" } } }, .nexprs = 1 }, NULL,
	  "[values: Invalid value: [\"\\u003ca\\u003e\",\"ok\"]: values set must be empty for exists and does not "
	  "exist, values[0][k]: Invalid value: \"<a>\": " VALUE_RE "]" },
	{ "aggregate/key-and-value-in-matchLabels", { .labels = { { "-k", "v-" } } }, NULL,
	  "[key: Invalid value: \"-k\": " KEY_NAME_RE ", values[0][-k]: Invalid value: \"v-\": " VALUE_RE "]" },
	{ "aggregate/second-value", { .exprs = { { "k", "In", 3, { "a", "b c", "d" } } }, .nexprs = 1 }, NULL,
	  "values[1][k]: Invalid value: \"b c\": " VALUE_RE },

	/* which entry is reported: matchLabels first (in key order), then expressions in order */
	{ "first-error/matchLabels-before-expressions",
	  { .labels = { { "ok", "a b" } }, .exprs = { { "k", "Foo", 0, { 0 } } }, .nexprs = 1 }, NULL,
	  "values[0][ok]: Invalid value: \"a b\": " VALUE_RE },
	{ "first-error/matchLabels-in-key-order", { .labels = { { "zz", "b!" }, { "aa", "a!" } } }, NULL,
	  "values[0][aa]: Invalid value: \"a!\": " VALUE_RE },
	{ "first-error/expressions-in-list-order",
	  { .exprs = { { "k", "Exists", NOVALS, { 0 } }, { "a", "Bar", 0, { 0 } }, { "b", "Foo", 0, { 0 } } },
	    .nexprs = 3 }, NULL, "\"Bar\" is not a valid label selector operator" },

	/* selector_test.go TestToString (the operators LabelSelector can express) */
	{ "TestToString/1",
	  { .exprs = { { "x", "In", 2, { "abc", "def" } }, { "y", "NotIn", 1, { "jkl" } }, { "z", "Exists", 0, { 0 } } },
	    .nexprs = 3 }, "x in (abc,def),y notin (jkl),z", NULL },
	{ "TestToString/2",
	  { .exprs = { { "x", "NotIn", 2, { "abc", "def" } }, { "z", "DoesNotExist", 0, { 0 } } }, .nexprs = 2 },
	  "x notin (abc,def),!z", NULL },
	{ "TestToString/4",
	  { .exprs = { { "x", "NotIn", 1, { "abc" } }, { "y", "In", 2, { "jkl", "mno" } }, { "z", "NotIn", 1, { "" } } },
	    .nexprs = 3 }, "x notin (abc),y in (jkl,mno),z notin ()", NULL },
	{ "TestToString/5", { .labels = { { "x", "abc" } }, .exprs = { { "z", "Exists", 0, { 0 } } }, .nexprs = 1 },
	  "x=abc,z", NULL },
	{ "TestToString/empty-value", { .labels = { { "x", "" } } }, "x=", NULL },

	/* selector_test.go TestSafeSort: sorted, duplicates kept */
	{ "TestSafeSort/unordered", { .exprs = { { "k", "In", 2, { "foo", "bar" } } }, .nexprs = 1 },
	  "k in (bar,foo)", NULL },
	{ "TestSafeSort/duplicated", { .exprs = { { "k", "NotIn", 4, { "foo", "bar", "foo", "bar" } } }, .nexprs = 1 },
	  "k notin (bar,bar,foo,foo)", NULL },
	{ "TestSafeSort/byte-order", { .exprs = { { "k", "In", 4, { "b", "B", "a", "10" } } }, .nexprs = 1 },
	  "k in (10,B,a,b)", NULL },

	/* selector_test.go TestSetSelectorString and TestAdd: requirements sorted by key */
	{ "TestSetSelectorString", { .labels = { { "app", "foo" }, { "a", "b" } } }, "a=b,app=foo", NULL },
	{ "TestAdd", { .labels = { { "key2", "value2" } }, .exprs = { { "key", "In", 1, { "value" } } }, .nexprs = 1 },
	  "key in (value),key2=value2", NULL },
	{ "sort/byte-order-of-keys",
	  { .labels = { { "b", "1" }, { "B", "1" }, { "a.b/c", "1" }, { "a", "1" } } }, "B=1,a=1,a.b/c=1,b=1", NULL },
	{ "sort/same-key-keeps-matchLabels-then-expression-order",
	  { .labels = { { "env", "dev" } },
	    .exprs = { { "env", "NotIn", 1, { "prod" } }, { "a", "Exists", 0, { 0 } }, { "env", "Exists", 0, { 0 } },
		       { "env", "In", 2, { "qa", "dev" } } },
	    .nexprs = 4 }, "a,env=dev,env notin (prod),env,env in (dev,qa)", NULL },
};

static void test_conversion_table(void)
{
	for (size_t i = 0; i < sizeof conv_cases / sizeof conv_cases[0]; i++) {
		const struct conv_case *c = &conv_cases[i];
		struct val *v = build(&c->sel);
		struct lbl_selector s;
		char err[LBL_ERRLEN] = "";
		int rc = lbl_selector_from_val(v, &s, err, sizeof err);

		if (c->want) {
			char *str = lbl_selector_string(&s);
			bool ok = rc == LBL_OK && strcmp(str, c->want) == 0 && !s.nothing;

			CU_ASSERT_TRUE(ok);
			if (!ok)
				CU_FAIL(c->name);
			free(str);
		} else {
			bool ok = rc == LBL_EINVALID && strcmp(err, c->err) == 0 && s.n == 0 && !s.reqs;

			CU_ASSERT_TRUE(ok);
			if (!ok) {
				CU_FAIL(c->name);
				CU_ASSERT_STRING_EQUAL(err, c->err); /* shows the difference */
			}
		}
		lbl_selector_release(&s);
		val_free(v);
	}
}

/* helpers_test.go TestLabelSelectorAsSelector: nil => labels.Nothing(), {} => Everything() */
static void test_nil_versus_empty(void)
{
	struct lbl_selector nil, null_node, empty, empty_fields;
	struct val *null_v = val_new_null(), *e = val_new_map(), *ef = val_new_map();
	struct obj_strmap none, some;
	const char *kv[] = { "env=dev", NULL };
	char *s;

	val_map_set(ef, "matchLabels", val_new_map());
	val_map_set(ef, "matchExpressions", val_new_list());
	CU_ASSERT_EQUAL(lbl_selector_from_val(NULL, &nil, NULL, 0), LBL_OK);
	CU_ASSERT_EQUAL(lbl_selector_from_val(null_v, &null_node, NULL, 0), LBL_OK);
	CU_ASSERT_EQUAL(lbl_selector_from_val(e, &empty, NULL, 0), LBL_OK);
	CU_ASSERT_EQUAL(lbl_selector_from_val(ef, &empty_fields, NULL, 0), LBL_OK);
	obj_strmap_init(&none);
	set_labels(&some, kv);

	CU_ASSERT_TRUE(lbl_selector_is_nothing(&nil));
	CU_ASSERT_TRUE(lbl_selector_is_nothing(&null_node));
	CU_ASSERT_FALSE(lbl_selector_is_empty(&nil)); /* nothingSelector.Empty() is false */
	CU_ASSERT_FALSE(lbl_matches(&nil, &none));
	CU_ASSERT_FALSE(lbl_matches(&nil, &some));
	CU_ASSERT_FALSE(lbl_matches(&null_node, NULL));

	CU_ASSERT_FALSE(lbl_selector_is_nothing(&empty));
	CU_ASSERT_TRUE(lbl_selector_is_empty(&empty));
	CU_ASSERT_TRUE(lbl_selector_is_empty(&empty_fields));
	CU_ASSERT_TRUE(lbl_matches(&empty, &none));
	CU_ASSERT_TRUE(lbl_matches(&empty, &some));
	CU_ASSERT_TRUE(lbl_matches(&empty_fields, NULL));

	/* both print "" (Magos policy selector quirk §7 #21 relies on that) */
	s = lbl_selector_string(&nil);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	s = lbl_selector_string(&empty);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);

	CU_ASSERT_TRUE(lbl_selector_equal(&nil, &null_node));
	CU_ASSERT_TRUE(lbl_selector_equal(&empty, &empty_fields));
	CU_ASSERT_FALSE(lbl_selector_equal(&nil, &empty));

	lbl_selector_release(&nil);
	lbl_selector_release(&null_node);
	lbl_selector_release(&empty);
	lbl_selector_release(&empty_fields);
	lbl_selector_release(NULL);
	obj_strmap_release(&some);
	obj_strmap_release(&none);
	val_free(null_v);
	val_free(e);
	val_free(ef);
}

/* ---- matching truth tables ------------------------------------------------ */

struct match_case {
	const char *name;
	struct sel_spec sel;
	const char *labels[5]; /* "k=v", up to NULL */
	bool match;
};

static const struct match_case match_cases[] = {
	/* selector_test.go TestRequirementSelectorMatching */
	{ "TestRequirementSelectorMatching/2",
	  { .exprs = { { "x", "In", 1, { "foo" } }, { "y", "NotIn", 1, { "alpha" } } }, .nexprs = 2 },
	  { "x=foo", "y=baz" }, true },
	{ "TestRequirementSelectorMatching/3",
	  { .exprs = { { "x", "In", 1, { "foo" } }, { "y", "In", 1, { "alpha" } } }, .nexprs = 2 },
	  { "x=foo", "y=baz" }, false },
	{ "TestRequirementSelectorMatching/4",
	  { .exprs = { { "x", "NotIn", 1, { "" } }, { "y", "Exists", 0, { 0 } } }, .nexprs = 2 }, { "y=" }, true },
	{ "TestRequirementSelectorMatching/5",
	  { .exprs = { { "x", "DoesNotExist", 0, { 0 } }, { "y", "Exists", 0, { 0 } } }, .nexprs = 2 }, { "y=" }, true },
	{ "TestRequirementSelectorMatching/6",
	  { .exprs = { { "x", "NotIn", 1, { "" } }, { "y", "DoesNotExist", 0, { 0 } } }, .nexprs = 2 }, { "y=" }, false },
	{ "TestRequirementSelectorMatching/7", { .exprs = { { "x", "In", 1, { "" } } }, .nexprs = 1 }, { "y=baz" }, false },

	/* selector_test.go TestSelectorMatches (the forms LabelSelector can express) */
	{ "TestSelectorMatches/everything", { .nexprs = 0 }, { "x=y" }, true },
	{ "TestSelectorMatches/x=y", { .labels = { { "x", "y" } } }, { "x=y" }, true },
	{ "TestSelectorMatches/x=y,z=w", { .labels = { { "x", "y" }, { "z", "w" } } }, { "x=y", "z=w" }, true },
	{ "TestSelectorMatches/notin-as-key", { .labels = { { "notin", "in" } } }, { "notin=in" }, true },
	{ "TestSelectorMatches/x", { .exprs = { { "x", "Exists", 0, { 0 } } }, .nexprs = 1 }, { "x=z" }, true },
	{ "TestSelectorMatches/!x", { .exprs = { { "x", "DoesNotExist", 0, { 0 } } }, .nexprs = 1 }, { "y=z" }, true },
	{ "TestSelectorMatches/x=z-no-labels", { .labels = { { "x", "z" } } }, { NULL }, false },
	{ "TestSelectorMatches/x=y-other-value", { .labels = { { "x", "y" } } }, { "x=z" }, false },
	{ "TestSelectorMatches/x=y,z=w-one-differs", { .labels = { { "x", "y" }, { "z", "w" } } }, { "x=w", "z=w" }, false },
	{ "TestSelectorMatches/x-absent", { .exprs = { { "x", "Exists", 0, { 0 } } }, .nexprs = 1 }, { "y=z" }, false },
	{ "TestSelectorMatches/!x-present", { .exprs = { { "x", "DoesNotExist", 0, { 0 } } }, .nexprs = 1 }, { "x=z" }, false },
	{ "TestSelectorMatches/foo=bar,baz=blah", { .labels = { { "foo", "bar" }, { "baz", "blah" } } },
	  { "foo=bar", "baz=blah" }, true },
	{ "TestSelectorMatches/foo=blah", { .labels = { { "foo", "blah" } } }, { "foo=bar", "baz=blah" }, false },
	{ "TestSelectorMatches/foobar-missing",
	  { .labels = { { "foo", "bar" }, { "foobar", "bar" }, { "baz", "blah" } } }, { "foo=bar", "baz=blah" }, false },

	/* truth table per operator: key absent / present listed / present unlisted / present empty */
	{ "in/absent", { .exprs = { { "t", "In", 2, { "a", "b" } } }, .nexprs = 1 }, { "u=a" }, false },
	{ "in/listed", { .exprs = { { "t", "In", 2, { "a", "b" } } }, .nexprs = 1 }, { "t=b" }, true },
	{ "in/unlisted", { .exprs = { { "t", "In", 2, { "a", "b" } } }, .nexprs = 1 }, { "t=c" }, false },
	{ "in/empty-listed", { .exprs = { { "t", "In", 2, { "", "b" } } }, .nexprs = 1 }, { "t=" }, true },
	{ "notin/absent", { .exprs = { { "t", "NotIn", 2, { "a", "b" } } }, .nexprs = 1 }, { "u=a" }, true },
	{ "notin/listed", { .exprs = { { "t", "NotIn", 2, { "a", "b" } } }, .nexprs = 1 }, { "t=a" }, false },
	{ "notin/unlisted", { .exprs = { { "t", "NotIn", 2, { "a", "b" } } }, .nexprs = 1 }, { "t=c" }, true },
	{ "notin/no-labels", { .exprs = { { "t", "NotIn", 1, { "a" } } }, .nexprs = 1 }, { NULL }, true },
	{ "exists/empty-value", { .exprs = { { "t", "Exists", 0, { 0 } } }, .nexprs = 1 }, { "t=" }, true },
	{ "exists/no-labels", { .exprs = { { "t", "Exists", 0, { 0 } } }, .nexprs = 1 }, { NULL }, false },
	{ "doesnotexist/no-labels", { .exprs = { { "t", "DoesNotExist", 0, { 0 } } }, .nexprs = 1 }, { NULL }, true },
	{ "doesnotexist/empty-value", { .exprs = { { "t", "DoesNotExist", 0, { 0 } } }, .nexprs = 1 }, { "t=" }, false },
	{ "equals/empty-value", { .labels = { { "t", "" } } }, { "t=" }, true },
	{ "equals/empty-value-absent", { .labels = { { "t", "" } } }, { "u=" }, false },
	{ "equals/case-sensitive", { .labels = { { "env", "Dev" } } }, { "env=dev" }, false },
	{ "and/matchLabels-and-expressions",
	  { .labels = { { "env", "dev" } }, .exprs = { { "tier", "NotIn", 1, { "db" } } }, .nexprs = 1 },
	  { "env=dev", "tier=db" }, false },
	{ "and/contradiction", { .labels = { { "env", "dev" } }, .exprs = { { "env", "In", 1, { "prod" } } }, .nexprs = 1 },
	  { "env=dev" }, false },
};

static void test_matching_table(void)
{
	for (size_t i = 0; i < sizeof match_cases / sizeof match_cases[0]; i++) {
		const struct match_case *c = &match_cases[i];
		struct val *v = build(&c->sel);
		struct lbl_selector s;
		struct obj_strmap labels;
		char err[LBL_ERRLEN] = "";

		CU_ASSERT_EQUAL_FATAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_OK);
		set_labels(&labels, c->labels);
		if (lbl_matches(&s, &labels) != c->match)
			CU_FAIL(c->name);
		lbl_selector_release(&s);
		obj_strmap_release(&labels);
		val_free(v);
	}
}

/* ---- equality, copy -------------------------------------------------------- */

static void convert(const struct sel_spec *sp, struct lbl_selector *s)
{
	struct val *v = build(sp);

	CU_ASSERT_EQUAL_FATAL(lbl_selector_from_val(v, s, NULL, 0), LBL_OK);
	val_free(v);
}

static void test_equal_and_copy(void)
{
	static const struct sel_spec a_spec = {
		.labels = { { "env", "dev" } },
		.exprs = { { "tier", "In", 3, { "web", "api", "web" } }, { "gone", "DoesNotExist", 0, { 0 } } },
		.nexprs = 2,
	};
	static const struct sel_spec b_spec = { /* same, values and entries in another order */
		.exprs = { { "gone", "DoesNotExist", NOVALS, { 0 } }, { "tier", "In", 3, { "web", "web", "api" } } },
		.nexprs = 2,
		.labels = { { "env", "dev" } },
	};
	static const struct sel_spec c_spec = { /* duplicates count */
		.labels = { { "env", "dev" } },
		.exprs = { { "tier", "In", 2, { "web", "api" } }, { "gone", "DoesNotExist", 0, { 0 } } },
		.nexprs = 2,
	};
	static const struct sel_spec d_spec = { /* In (dev) is not Equals dev */
		.exprs = { { "env", "In", 1, { "dev" } }, { "tier", "In", 3, { "web", "api", "web" } },
			   { "gone", "DoesNotExist", 0, { 0 } } },
		.nexprs = 3,
	};
	struct lbl_selector a, b, c, d, copy, nil_copy, nil;
	char *s;

	convert(&a_spec, &a);
	convert(&b_spec, &b);
	convert(&c_spec, &c);
	convert(&d_spec, &d);
	s = lbl_selector_string(&a);
	CU_ASSERT_STRING_EQUAL(s, "env=dev,!gone,tier in (api,web,web)");
	free(s);
	CU_ASSERT_TRUE(lbl_selector_equal(&a, &b));
	CU_ASSERT_FALSE(lbl_selector_equal(&a, &c));
	CU_ASSERT_FALSE(lbl_selector_equal(&a, &d));

	lbl_selector_copy(&copy, &a);
	CU_ASSERT_TRUE(lbl_selector_equal(&a, &copy));
	CU_ASSERT_PTR_NOT_EQUAL(copy.reqs, a.reqs);
	CU_ASSERT_PTR_NOT_EQUAL(copy.reqs[0].key, a.reqs[0].key);
	lbl_selector_release(&a); /* the copy must not share anything */
	s = lbl_selector_string(&copy);
	CU_ASSERT_STRING_EQUAL(s, "env=dev,!gone,tier in (api,web,web)");
	free(s);
	CU_ASSERT_EQUAL(copy.n, 3);
	CU_ASSERT_EQUAL(copy.reqs[2].op, LBL_OP_IN);
	CU_ASSERT_STRING_EQUAL(copy.reqs[2].values[0], "web"); /* given order kept in memory */
	CU_ASSERT_STRING_EQUAL(copy.reqs[2].values[1], "api");

	CU_ASSERT_EQUAL(lbl_selector_from_val(NULL, &nil, NULL, 0), LBL_OK);
	lbl_selector_copy(&nil_copy, &nil);
	CU_ASSERT_TRUE(lbl_selector_is_nothing(&nil_copy));
	CU_ASSERT_FALSE(lbl_selector_equal(&nil_copy, &copy));

	lbl_selector_release(&b);
	lbl_selector_release(&c);
	lbl_selector_release(&d);
	lbl_selector_release(&copy);
	lbl_selector_release(&nil_copy);
	lbl_selector_release(&nil);
}

static void test_op_string(void)
{
	CU_ASSERT_STRING_EQUAL(lbl_op_string(LBL_OP_EQUALS), "=");
	CU_ASSERT_STRING_EQUAL(lbl_op_string(LBL_OP_IN), "in");
	CU_ASSERT_STRING_EQUAL(lbl_op_string(LBL_OP_NOT_IN), "notin");
	CU_ASSERT_STRING_EQUAL(lbl_op_string(LBL_OP_EXISTS), "exists");
	CU_ASSERT_STRING_EQUAL(lbl_op_string(LBL_OP_DOES_NOT_EXIST), "!");
}

/* ---- long keys and values (TestRequirementConstructor length cases) --------- */

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void test_length_limits(void)
{
	char *a254 = repeat('a', 254), *a63 = repeat('a', 63), *a64 = repeat('a', 64);
	char *want, *key;
	struct val *sel = val_new_map();
	struct val *me = val_map_set(sel, "matchExpressions", val_new_list());
	struct val *e = val_list_push(me, val_new_map());
	struct lbl_selector s;
	char err[LBL_ERRLEN];
	size_t n;

	/* TestRequirementConstructor: strings.Repeat("a", 254) as key, Exists */
	val_map_set(e, "key", val_new_string(a254));
	val_map_set(e, "operator", val_new_string("Exists"));
	CU_ASSERT_EQUAL(lbl_selector_from_val(sel, &s, err, sizeof err), LBL_EINVALID);
	n = strlen("key: Invalid value: \"\": name part must be no more than 63 bytes") + 254 + 1;
	want = malloc(n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	snprintf(want, n, "key: Invalid value: \"%s\": name part must be no more than 63 bytes", a254);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(want);

	/* TestRequirementConstructor x16: Equals with a 254-byte value */
	val_map_del(sel, "matchExpressions");
	val_map_set(val_map_set(sel, "matchLabels", val_new_map()), "x16", val_new_string(a254));
	CU_ASSERT_EQUAL(lbl_selector_from_val(sel, &s, err, sizeof err), LBL_EINVALID);
	n = strlen("values[0][x16]: Invalid value: \"\": must be no more than 63 bytes") + 254 + 1;
	want = malloc(n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	snprintf(want, n, "values[0][x16]: Invalid value: \"%s\": must be no more than 63 bytes", a254);
	CU_ASSERT_STRING_EQUAL(err, want);
	free(want);

	/* truncation is safe */
	CU_ASSERT_EQUAL(lbl_selector_from_val(sel, &s, err, 8), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "values[");

	/* at the limits: valid */
	CU_ASSERT_EQUAL(lbl_validate_key(a63, err, sizeof err), LBL_OK);
	CU_ASSERT_EQUAL(lbl_validate_value(a63, err, sizeof err), LBL_OK);
	key = malloc(253 + 1 + 63 + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(key);
	memset(key, 'a', 253);
	key[253] = '/';
	memcpy(key + 254, a63, 64);
	CU_ASSERT_EQUAL(lbl_validate_key(key, err, sizeof err), LBL_OK); /* kube_test.go TestIsLabelKey */
	free(key);

	/* one over */
	CU_ASSERT_EQUAL(lbl_validate_key(a64, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "name part must be no more than 63 bytes");
	CU_ASSERT_EQUAL(lbl_validate_value(a64, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "must be no more than 63 bytes");
	key = malloc(254 + 5);
	CU_ASSERT_PTR_NOT_NULL_FATAL(key);
	snprintf(key, 254 + 5, "%s/abc", a254);
	CU_ASSERT_EQUAL(lbl_validate_key(key, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "prefix part must be no more than 253 bytes");
	free(key);
	/* too long and malformed: both messages, "; "-joined */
	a64[63] = '-';
	CU_ASSERT_EQUAL(lbl_validate_value(a64, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "must be no more than 63 bytes; " VALUE_RE);

	val_free(sel);
	free(a254);
	free(a63);
	free(a64);
}

/* ---- key / value validation ---------------------------------------------- */

static void test_is_label_key(void)
{
	/* kube_test.go TestIsLabelKey successCases */
	static const char *const good[] = {
		"simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple",
		"now-with-dashes/simple", "now-with-dashes/now-with-dashes", "now.with.dots/simple",
		"now-with.dashes-and.dots/simple", "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678",
		"Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo",
		"magosproject.io/execution-allowed", "a",
	};
	/* kube_test.go TestIsLabelKey errorCases and validation_test.go TestIsDomainPrefixedKey */
	static const struct {
		const char *key, *err;
	} bad[] = {
		{ "nospecialchars%^=@", KEY_NAME_RE },
		{ "cantendwithadash-", KEY_NAME_RE },
		{ "-cantstartwithadash-", KEY_NAME_RE },
		{ "only/one/slash", KEY_SLASHES_RE },
		{ "example/foo/bar", KEY_SLASHES_RE },
		{ "/example/foo", KEY_SLASHES_RE },
		{ "Example.com/abc", PREFIX_RE },
		{ "example_com/abc", PREFIX_RE },
		{ "example..com/abc", PREFIX_RE },
		{ "-example.com/abc", PREFIX_RE },
		{ "example-.com/abc", PREFIX_RE },
		{ "example.com/", "name part must be non-empty; " KEY_NAME_RE },
		{ "/simple", "prefix part must be non-empty" },
		{ "/", "prefix part must be non-empty; name part must be non-empty; " KEY_NAME_RE },
		{ "", "name part must be non-empty; " KEY_NAME_RE },
		{ "example.com/_e", KEY_NAME_RE },
		{ "example.com/e_", KEY_NAME_RE },
		{ "example.com/e?", KEY_NAME_RE },
		{ "example.com/e_$", KEY_NAME_RE },
		{ "Bad_Prefix/bad name", PREFIX_RE "; " KEY_NAME_RE },
		{ "caf\xc3\xa9", KEY_NAME_RE },
	};
	char err[LBL_ERRLEN];

	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		err[0] = '\0';
		if (lbl_validate_key(good[i], err, sizeof err) != LBL_OK)
			CU_FAIL(good[i]);
		CU_ASSERT_STRING_EQUAL(err, ""); /* untouched on success */
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(lbl_validate_key(bad[i].key, err, sizeof err), LBL_EINVALID);
		CU_ASSERT_STRING_EQUAL(err, bad[i].err);
	}
	CU_ASSERT_EQUAL(lbl_validate_key("a b", NULL, 0), LBL_EINVALID);
}

static void test_is_label_value(void)
{
	/* kube_test.go TestIsLabelValue */
	static const char *const good[] = {
		"simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "", "a",
		"Mixed_Case.and-dots",
	};
	static const char *const bad[] = {
		"nospecialchars%^=@", "Tama-nui-te-r\xc4\x81.is.M\xc4\x81ori.sun", "\\backslashes\\are\\bad",
		"-starts-with-dash", "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "a/b", " ",
	};
	char err[LBL_ERRLEN];

	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		if (lbl_validate_value(good[i], err, sizeof err) != LBL_OK)
			CU_FAIL(good[i]);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(lbl_validate_value(bad[i], err, sizeof err), LBL_EINVALID);
		CU_ASSERT_STRING_EQUAL(err, VALUE_RE);
	}
}

/* Go's %q (strconv.Quote), used for bad values in field errors */
static void test_go_quote(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "", "\"\"" },
		{ "bad key!", "\"bad key!\"" },
		{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
		{ "\a\b\f\n\r\t\v", "\"\\a\\b\\f\\n\\r\\t\\v\"" },
		{ "\x01\x1f\x7f", "\"\\x01\\x1f\\x7f\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82\"" },
		{ "\xff" "a\xc3", "\"\\xffa\\xc3\"" },                  /* invalid UTF-8, byte by byte */
		{ "\xc0\xaf", "\"\\xc0\\xaf\"" },                       /* overlong */
		{ "\xed\xa0\x80", "\"\\xed\\xa0\\x80\"" },              /* surrogate */
		{ "\xc2\xa0\xc2\x85\xe2\x80\x8b", "\"\\u00a0\\u0085\\u200b\"" }, /* NBSP, NEL, ZWSP */
		{ "\xef\xbb\xbf\xf3\xa0\x80\x81", "\"\\ufeff\\U000e0001\"" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *q = lbl_go_quote(cases[i].in);

		CU_ASSERT_STRING_EQUAL(q, cases[i].want);
		free(q);
	}
}

/* values printed by json.Marshal in the "values set must be empty" error */
static void test_json_bad_value(void)
{
	struct val *sel = val_new_map();
	struct val *e = val_list_push(val_map_set(sel, "matchExpressions", val_new_list()), val_new_map());
	struct val *vals;
	struct lbl_selector s;
	char err[LBL_ERRLEN];

	val_map_set(e, "key", val_new_string("k"));
	val_map_set(e, "operator", val_new_string("Exists"));
	vals = val_map_set(e, "values", val_new_list());
	val_list_push(vals, val_new_string("a&b"));
	val_list_push(vals, val_new_string("q\"\\\n\b\x01\xff\xe2\x80\xa8\xc3\xa9"));
	CU_ASSERT_EQUAL(lbl_selector_from_val(sel, &s, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err,
			       "[values: Invalid value: [\"a\\u0026b\",\"q\\\"\\\\\\n\\b\\u0001\\ufffd\\u2028\xc3\xa9\"]"
			       ": values set must be empty for exists and does not exist, "
			       "values[0][k]: Invalid value: \"a&b\": " VALUE_RE ", "
			       "values[1][k]: Invalid value: \"q\\\"\\\\\\n\\b\\x01\\xff\\u2028\xc3\xa9\": " VALUE_RE "]");
	val_free(sel);
}

/* shapes admission would reject: reported, never crash; nulls read as Go zero values */
static void test_malformed_shapes(void)
{
	struct lbl_selector s;
	char err[LBL_ERRLEN];
	struct val *v;

	v = val_new_string("env=dev");
	CU_ASSERT_EQUAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "label selector: expected an object, not string");
	val_free(v);

	v = val_new_map();
	val_map_set(val_map_set(v, "matchLabels", val_new_map()), "tier", val_new_int(1));
	CU_ASSERT_EQUAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "matchLabels[tier]: expected a string, not integer");
	val_free(v);

	v = val_new_map();
	val_map_set(v, "matchExpressions", val_new_map());
	CU_ASSERT_EQUAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "matchExpressions: expected an array, not object");
	val_free(v);

	v = val_new_map();
	{
		struct val *e = val_list_push(val_map_set(v, "matchExpressions", val_new_list()), val_new_map());

		val_map_set(e, "key", val_new_string("k"));
		val_map_set(e, "operator", val_new_string("In"));
		val_list_push(val_map_set(e, "values", val_new_list()), val_new_bool(true));
	}
	CU_ASSERT_EQUAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "matchExpressions[0].values[0]: expected a string, not boolean");
	val_free(v);

	/* null matchLabels / matchExpressions / values: as absent */
	v = val_new_map();
	val_map_set(v, "matchLabels", val_new_null());
	val_map_set(v, "matchExpressions", val_new_null());
	CU_ASSERT_EQUAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_OK);
	CU_ASSERT_TRUE(lbl_selector_is_empty(&s));
	lbl_selector_release(&s);
	val_free(v);

	v = val_new_map();
	{
		struct val *e = val_list_push(val_map_set(v, "matchExpressions", val_new_list()), val_new_map());

		val_map_set(e, "key", val_new_string("k"));
		val_map_set(e, "operator", val_new_string("NotIn"));
		val_map_set(e, "values", val_new_null());
	}
	CU_ASSERT_EQUAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, IN_EMPTY);
	val_free(v);

	/* a null list entry is a zero LabelSelectorRequirement: empty operator */
	v = val_new_map();
	val_list_push(val_map_set(v, "matchExpressions", val_new_list()), val_new_null());
	CU_ASSERT_EQUAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_EINVALID);
	CU_ASSERT_STRING_EQUAL(err, "\"\" is not a valid label selector operator");
	val_free(v);

	/* unknown fields are ignored, as by Go's decoder */
	v = val_new_map();
	val_map_set(val_map_set(v, "matchLabel", val_new_map()), "env", val_new_string("dev"));
	CU_ASSERT_EQUAL(lbl_selector_from_val(v, &s, err, sizeof err), LBL_OK);
	CU_ASSERT_TRUE(lbl_selector_is_empty(&s));
	lbl_selector_release(&s);
	val_free(v);
}

/*
 * Many requirements sort stably by key in O(n log n): keys in a scrambled
 * order, several expressions per key, whose relative order (visible in
 * String() as the values of each) must be the order they were given in;
 * checked against an insertion sort of the same list, at sizes below and
 * above Go's insertion-sort cut-off (12) and at 100 000.
 */
static void test_many_requirements_sorted_stably(void)
{
	static const size_t sizes[] = { 5, 12, 13, 200, 100000 };

	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		size_t n = sizes[z];
		struct val *sel = val_new_map(), *exprs = val_map_set(sel, "matchExpressions",
								    val_new_list());
		struct lbl_selector s;
		size_t *key = calloc(n, sizeof(*key)), *order = calloc(n, sizeof(*order));
		bool ok = true;

		for (size_t i = 0; i < n; i++) {
			struct val *e = val_new_map(), *vals = val_new_list();
			char k[32], v[32];

			key[i] = (i * 7919) % (n / 3 + 1); /* about three expressions per key */
			snprintf(k, sizeof k, "k%06zu", key[i]);
			snprintf(v, sizeof v, "v%zu", i);
			val_map_set(e, "key", val_new_string(k));
			val_map_set(e, "operator", val_new_string("In"));
			val_list_push(vals, val_new_string(v));
			val_map_set(e, "values", vals);
			val_list_push(exprs, e);
			order[i] = i;
		}
		/* the reference: a stable insertion sort of the indices by key (slow only at 100 000) */
		if (n <= 200) {
			for (size_t i = 1; i < n; i++) {
				size_t cur = order[i], j = i;

				for (; j > 0 && key[cur] < key[order[j - 1]]; j--)
					order[j] = order[j - 1];
				order[j] = cur;
			}
		} else {
			/* a counting sort: keys in order; within a key, ascending index */
			size_t *start = calloc(n / 3 + 2, sizeof(*start));

			for (size_t i = 0; i < n; i++)
				start[key[i] + 1]++;
			for (size_t k = 1; k <= n / 3 + 1; k++)
				start[k] += start[k - 1];
			for (size_t i = 0; i < n; i++)
				order[start[key[i]]++] = i;
			free(start);
		}
		CU_ASSERT_EQUAL_FATAL(lbl_selector_from_val(sel, &s, NULL, 0), LBL_OK);
		CU_ASSERT_EQUAL_FATAL(s.n, n);
		for (size_t i = 0; i < n && ok; i++) {
			char v[32];

			snprintf(v, sizeof v, "v%zu", order[i]);
			ok = s.reqs[i].nvalues == 1 && strcmp(s.reqs[i].values[0], v) == 0;
		}
		CU_ASSERT_TRUE(ok);
		lbl_selector_release(&s);
		val_free(sel);
		free(key);
		free(order);
	}
}

static CU_TestInfo tests[] = {
	{ "conversion table (LabelSelectorAsSelector, NewRequirement, String)", test_conversion_table },
	{ "nil selector matches nothing, {} everything", test_nil_versus_empty },
	{ "matching truth tables", test_matching_table },
	{ "equality and deep copy", test_equal_and_copy },
	{ "operator spellings", test_op_string },
	{ "length limits 63 / 253", test_length_limits },
	{ "IsLabelKey", test_is_label_key },
	{ "IsLabelValue", test_is_label_value },
	{ "Go %q quoting", test_go_quote },
	{ "json-marshalled bad values", test_json_bad_value },
	{ "malformed shapes", test_malformed_shapes },
	{ "many requirements sort stably by key", test_many_requirements_sorted_stably },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("labels", tests);
}
