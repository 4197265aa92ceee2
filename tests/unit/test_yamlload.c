/* Tests for sim/load/yamlload: scalar resolution, marks, keys, aliases, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* Loads @text as "t.yaml" into the globals below; returns the loader's result. */
static struct yl_stream st;
static struct diag dg;

static int load(const char *text)
{
	yl_stream_release(&st);
	diag_release(&dg);
	diag_init(&dg);
	return yl_load_string("t.yaml", text, strlen(text), &st, &dg);
}

/* The diagnostic @i of dg as printed, or "" when there are fewer (see fx_diag_item()). */
static const char *item(size_t i)
{
	return fx_diag_item(&dg, i);
}

static void dump(void)
{
	for (size_t i = 0; i < dg.n; i++)
		fprintf(stderr, "  diag[%zu] %s\n", i, item(i));
}

static struct val *get(const char *path)
{
	CU_ASSERT_FATAL(st.n >= 1);
	return val_path(st.docs[0].root, path);
}

static void test_core_schema_scalars(void)
{
	static const char text[] = "a: null\n"
				   "b: ~\n"
				   "c:\n"
				   "d: true\n"
				   "e: False\n"
				   "f: TRUE\n"
				   "g: yes\n"
				   "h: no\n"
				   "i: on\n"
				   "j: off\n"
				   "k: y\n"
				   "l: n\n"
				   "m: 42\n"
				   "nn: -7\n"
				   "o: 0x1F\n"
				   "p: 0o17\n"
				   "q: 1.10\n"
				   "r: 1e3\n"
				   "s: \"true\"\n"
				   "t: '42'\n"
				   "u: !!str 42\n"
				   "v: 010\n"
				   "w: .5\n"
				   "x: 9223372036854775807\n"
				   "yy: -9223372036854775808\n"
				   "z: hello world\n";

	if (load(text) != 0)
		dump();
	CU_ASSERT_EQUAL_FATAL(st.n, 1);
	CU_ASSERT_EQUAL(get("a")->type, VAL_NULL);
	CU_ASSERT_EQUAL(get("b")->type, VAL_NULL);
	CU_ASSERT_EQUAL(get("c")->type, VAL_NULL);
	CU_ASSERT_EQUAL(get("d")->type, VAL_BOOL);
	CU_ASSERT_TRUE(get("d")->u.b);
	CU_ASSERT_EQUAL(get("e")->type, VAL_BOOL);
	CU_ASSERT_FALSE(get("e")->u.b);
	CU_ASSERT_EQUAL(get("f")->type, VAL_BOOL);
	/* YAML 1.1 booleans are booleans, as go-yaml v2 (kubectl) reads them; raw kept. */
	CU_ASSERT_EQUAL(get("g")->type, VAL_BOOL);
	CU_ASSERT_TRUE(get("g")->u.b);
	CU_ASSERT_STRING_EQUAL(get("g")->raw, "yes");
	CU_ASSERT_EQUAL(get("h")->type, VAL_BOOL);
	CU_ASSERT_FALSE(get("h")->u.b);
	CU_ASSERT_EQUAL(get("i")->type, VAL_BOOL);
	CU_ASSERT_TRUE(get("i")->u.b);
	CU_ASSERT_EQUAL(get("j")->type, VAL_BOOL);
	CU_ASSERT_FALSE(get("j")->u.b);
	CU_ASSERT_EQUAL(get("k")->type, VAL_BOOL);
	CU_ASSERT_TRUE(get("k")->u.b);
	CU_ASSERT_EQUAL(get("l")->type, VAL_BOOL);
	CU_ASSERT_FALSE(get("l")->u.b);
	CU_ASSERT_EQUAL(get("m")->type, VAL_INT);
	CU_ASSERT_EQUAL(get("m")->u.i, 42);
	CU_ASSERT_EQUAL(get("nn")->u.i, -7);
	CU_ASSERT_EQUAL(get("o")->u.i, 31);
	CU_ASSERT_EQUAL(get("p")->u.i, 15);
	CU_ASSERT_EQUAL(get("q")->type, VAL_FLOAT);
	CU_ASSERT_DOUBLE_EQUAL(get("q")->u.f, 1.1, 1e-12);
	CU_ASSERT_STRING_EQUAL(get("q")->raw, "1.10");
	CU_ASSERT_EQUAL(get("r")->type, VAL_FLOAT);
	CU_ASSERT_DOUBLE_EQUAL(get("r")->u.f, 1000.0, 1e-9);
	CU_ASSERT_STRING_EQUAL(val_str(get("s"), "?"), "true");
	CU_ASSERT_STRING_EQUAL(val_str(get("t"), "?"), "42");
	CU_ASSERT_STRING_EQUAL(val_str(get("u"), "?"), "42");
	CU_ASSERT_EQUAL(get("v")->u.i, 10);
	CU_ASSERT_DOUBLE_EQUAL(get("w")->u.f, 0.5, 1e-12);
	CU_ASSERT_EQUAL(get("x")->u.i, INT64_MAX);
	CU_ASSERT_EQUAL(get("yy")->u.i, INT64_MIN);
	CU_ASSERT_STRING_EQUAL(val_str(get("z"), "?"), "hello world");
	CU_ASSERT_EQUAL(dg.n, 0);
}

static void test_marks_are_one_based(void)
{
	CU_ASSERT_EQUAL_FATAL(load("top:\n  list:\n    - x\n    - {k: v}\n"), 0);
	CU_ASSERT_EQUAL(st.docs[0].root->mark.line, 1);
	CU_ASSERT_EQUAL(st.docs[0].root->mark.col, 1);
	CU_ASSERT_EQUAL(get("top.list")->mark.line, 3);
	CU_ASSERT_EQUAL(get("top.list")->mark.col, 5);
	CU_ASSERT_EQUAL(get("top.list.0")->mark.line, 3);
	CU_ASSERT_EQUAL(get("top.list.0")->mark.col, 7);
	CU_ASSERT_STRING_EQUAL(get("top.list.0")->raw, "x");
	CU_ASSERT_EQUAL(get("top.list.1.k")->mark.line, 4);
	CU_ASSERT_EQUAL(get("top.list.1.k")->mark.col, 11);
	{
		const struct val_kv *kv = val_map_get_kv(get("top"), "list");

		CU_ASSERT_FATAL(kv != NULL);
		CU_ASSERT_EQUAL(kv->key_mark.line, 2);
		CU_ASSERT_EQUAL(kv->key_mark.col, 3);
	}
}

static void test_multiple_documents_and_empty_ones(void)
{
	CU_ASSERT_EQUAL_FATAL(load("a: 1\n---\n---\n# only a comment\n---\nb: 2\n...\n---\n~\n"), 0);
	CU_ASSERT_EQUAL_FATAL(st.n, 2);
	CU_ASSERT_EQUAL(val_int(val_map_get(st.docs[0].root, "a"), 0), 1);
	CU_ASSERT_EQUAL(val_int(val_map_get(st.docs[1].root, "b"), 0), 2);
	CU_ASSERT_EQUAL(st.docs[1].mark.line, 5);
	CU_ASSERT_STRING_EQUAL(st.file, "t.yaml");
	CU_ASSERT_EQUAL(load(""), 0);
	CU_ASSERT_EQUAL(st.n, 0);
}

static void test_duplicate_key(void)
{
	CU_ASSERT_EQUAL(load("a: 1\nb:\n  c: 1\n  c: 2\nd: 3\nd: 4\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 4);
	CU_ASSERT_STRING_EQUAL(item(0), "t.yaml:4:3: error: duplicate key \"c\"");
	CU_ASSERT_STRING_EQUAL(item(1), "t.yaml:3:3: note: \"c\" first appears here");
	CU_ASSERT_STRING_EQUAL(item(2), "t.yaml:6:1: error: duplicate key \"d\"");
	CU_ASSERT_STRING_EQUAL(item(3), "t.yaml:5:1: note: \"d\" first appears here");
	/* The bad document is dropped; a clean one after it is kept. */
	CU_ASSERT_EQUAL(st.n, 0);
	CU_ASSERT_EQUAL(load("a: 1\na: 2\n---\nok: true\n"), -1);
	CU_ASSERT_EQUAL_FATAL(st.n, 1);
	CU_ASSERT_TRUE(val_bool(val_map_get(st.docs[0].root, "ok"), false));
}

/*
 * Past 16 keys a mapping finds duplicates through an index: a repeat of
 * an early key at key 41 is still an error with a note at the first, the
 * keys keep their order, and merged keys fill only the keys the large
 * mapping lacks.
 */
static void test_large_mapping_keys(void)
{
	char text[4096];
	size_t n = 0;

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "k%02d: %d\n", i, i);
	n += (size_t)snprintf(text + n, sizeof text - n, "k05: again\n");
	CU_ASSERT_EQUAL(load(text), -1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0), "t.yaml:41:1: error: duplicate key \"k05\"");
	CU_ASSERT_STRING_EQUAL(item(1), "t.yaml:6:1: note: \"k05\" first appears here");

	n = (size_t)snprintf(text, sizeof text, "base: &b {k03: merged, extra: 1, k39: merged}\nm:\n");
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "  k%02d: %d\n", i, i);
	n += (size_t)snprintf(text + n, sizeof text - n, "  <<: *b\n");
	if (load(text) != 0)
		dump();
	CU_ASSERT_EQUAL_FATAL(st.n, 1);
	CU_ASSERT_EQUAL_FATAL(get("m")->u.map.n, 41);
	for (int i = 0; i < 40; i++) {
		char k[16];

		snprintf(k, sizeof k, "k%02d", i);
		CU_ASSERT_STRING_EQUAL(get("m")->u.map.items[i].key, k);
		CU_ASSERT_EQUAL(get("m")->u.map.items[i].v->u.i, i);
	}
	CU_ASSERT_STRING_EQUAL(get("m")->u.map.items[40].key, "extra");
}

static void test_bad_keys(void)
{
	CU_ASSERT_EQUAL(load("1: a\ntrue: b\n~: c\n[x]: d\n\"2\": ok\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 4);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:1:1: error: mapping key 1 is an integer; keys must be strings: quote it (\"1\")");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "t.yaml:2:1: error: mapping key true is a boolean; keys must be strings: quote it (\"true\")");
	CU_ASSERT_STRING_EQUAL(item(2),
			       "t.yaml:3:1: error: mapping key ~ is null; keys must be strings: quote it (\"~\")");
	CU_ASSERT_STRING_EQUAL(item(3), "t.yaml:4:1: error: mapping keys must be scalars, not a sequence");
}

/* go-yaml v2 reads the key `on` as the boolean true (GitHub's `on:` trap): refused, not renamed. */
static void test_yaml11_bool_keys(void)
{
	CU_ASSERT_EQUAL(load("on: a\n\"y\": ok\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:1:1: error: mapping key on is a boolean; keys must be strings: quote it (\"on\")");
}

static void test_inf_nan_and_overflow(void)
{
	CU_ASSERT_EQUAL(load("a: .inf\nb: -.Inf\nc: .nan\nd: 9223372036854775808\ne: 1e999\nf: 0xffffffffffffffff\ng: '.inf'\n"),
			-1);
	CU_ASSERT_EQUAL(dg.n, 5);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:1:4: error: .inf is not representable in JSON; quote it to make it a string");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "t.yaml:2:4: error: -.Inf is not representable in JSON; quote it to make it a string");
	CU_ASSERT_STRING_EQUAL(item(2),
			       "t.yaml:3:4: error: .nan is not representable in JSON; quote it to make it a string");
	CU_ASSERT_STRING_EQUAL(item(3),
			       "t.yaml:5:4: error: number 1e999 is not representable in JSON (out of range); quote it to make it a string");
	CU_ASSERT_STRING_EQUAL(item(4),
			       "t.yaml:6:4: error: integer 0xffffffffffffffff does not fit in 64 bits; quote it to make it a string");
}

static void test_decimal_overflow_is_float(void)
{
	const struct val *v;

	CU_ASSERT_EQUAL(load("seed: 184467440737095516150\nneg: -9223372036854775809\n"), 0);
	CU_ASSERT_EQUAL(dg.n, 0);
	v = get("seed");
	CU_ASSERT_EQUAL_FATAL(v->type, VAL_FLOAT);
	CU_ASSERT_STRING_EQUAL(v->raw, "184467440737095516150");
	CU_ASSERT_DOUBLE_EQUAL(v->u.f, 1.8446744073709552e20, 1e5);
	v = get("neg");
	CU_ASSERT_EQUAL_FATAL(v->type, VAL_FLOAT);
	CU_ASSERT_STRING_EQUAL(v->raw, "-9223372036854775809");
}

static void test_tags(void)
{
	CU_ASSERT_EQUAL(load("a: !!str 1.10\nb: !!int 5\nc: !!float 2\nd: !!map {x: 1}\ne: ! 12\n"), 0);
	CU_ASSERT_STRING_EQUAL(val_str(get("a"), "?"), "1.10");
	CU_ASSERT_EQUAL(get("b")->u.i, 5);
	CU_ASSERT_EQUAL(get("c")->type, VAL_FLOAT);
	CU_ASSERT_EQUAL(get("d.x")->u.i, 1);
	CU_ASSERT_STRING_EQUAL(val_str(get("e"), "?"), "12");
	CU_ASSERT_EQUAL(load("a: !foo x\nb: !!int abc\nc: !!seq {x: 1}\nd: !!binary aGk=\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 4);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:1:4: error: unknown tag \"!foo\" on a scalar; only !!str, !!int, !!float, !!bool and !!null are accepted");
	CU_ASSERT_STRING_EQUAL(item(1), "t.yaml:2:4: error: \"abc\" is not a valid !!int");
	CU_ASSERT_STRING_EQUAL(item(2),
			       "t.yaml:3:4: error: unknown tag \"!!seq\" on a mapping; only !!map is accepted there");
	CU_ASSERT_STRING_EQUAL(item(3),
			       "t.yaml:4:4: error: unknown tag \"!!binary\" on a scalar; only !!str, !!int, !!float, !!bool and !!null are accepted");
}

static void test_aliases_and_merge(void)
{
	static const char text[] = "base: &b\n"
				   "  x: 1\n"
				   "  w: [1, 2]\n"
				   "other: &o {w: 3, z: 4}\n"
				   "copy: *b\n"
				   "merged:\n"
				   "  <<: [*b, *o]\n"
				   "  x: 9\n"
				   "name: &n demo\n"
				   "again: *n\n";

	if (load(text) != 0)
		dump();
	CU_ASSERT_EQUAL_FATAL(st.n, 1);
	CU_ASSERT_EQUAL(get("copy.x")->u.i, 1);
	CU_ASSERT_EQUAL(get("copy.w.1")->u.i, 2);
	/* The alias node carries the alias's position. */
	CU_ASSERT_EQUAL(get("copy")->mark.line, 5);
	CU_ASSERT_EQUAL(get("copy")->mark.col, 7);
	/* Explicit keys win over merged ones, earlier sources over later ones. */
	CU_ASSERT_EQUAL(get("merged.x")->u.i, 9);
	CU_ASSERT_EQUAL(get("merged.w")->type, VAL_LIST);
	CU_ASSERT_EQUAL(get("merged.z")->u.i, 4);
	CU_ASSERT_EQUAL(get("merged")->u.map.n, 3);
	CU_ASSERT_EQUAL(val_map_get(get("merged"), "<<"), NULL);
	CU_ASSERT_STRING_EQUAL(val_str(get("again"), "?"), "demo");
	/* A quoted "<<" is an ordinary key. */
	CU_ASSERT_EQUAL(load("m:\n  '<<': 1\n"), 0);
	CU_ASSERT_EQUAL(get("m.<<")->u.i, 1);
	CU_ASSERT_EQUAL(load("m:\n  <<: 5\n"), -1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:2:7: error: the merge key \"<<\" takes a mapping or a sequence of mappings, not an integer");
	CU_ASSERT_EQUAL(load("a: *nope\n"), -1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:1:4: error: unknown anchor \"nope\" (an alias must follow its anchor's complete node)");
}

static void test_billion_laughs(void)
{
	static const char text[] = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
				   "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
				   "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
				   "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
				   "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
				   "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
				   "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
				   "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
				   "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
				   "---\n"
				   "fine: 1\n";

	CU_ASSERT_EQUAL(load(text), -1);
	CU_ASSERT_EQUAL_FATAL(dg.n, 1);
	/* g's first alias of f (9^6+... nodes) is the one that crosses 1000000. */
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:7:8: error: aliases and merge keys would create more than "
			       "1000000 nodes in all the inputs (alias \"f\"); refusing to expand them "
			       "(limit alias-nodes; raise it with --limit alias-nodes=N)");
	CU_ASSERT_EQUAL_FATAL(st.n, 1);
	CU_ASSERT_EQUAL(val_int(val_map_get(st.docs[0].root, "fine"), 0), 1);
}

/* Loads @text as @name into @out, charged to @b; the result of the loader. */
static int load_in(const char *name, const char *text, struct yl_budget *b, struct yl_stream *out)
{
	return yl_load_string_in(name, text, strlen(text), b, out, &dg);
}

/*
 * The bounds are per stream: documents and files loaded with one budget
 * share it, so splitting an input into many small documents gets no more.
 */
static void test_budget_is_per_stream(void)
{
	static const char doc[] = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\nb: [*a, *a, *a]\n---\n";
	struct yl_budget b;
	struct yl_stream s1, s2;
	struct limits lim;

	yl_stream_release(&st);
	diag_release(&dg);
	lim_init(&lim);
	lim.v[LIM_ALIAS_NODES] = 50; /* each document copies 3 x 10 nodes */
	yl_budget_init(&b, &lim);
	CU_ASSERT_EQUAL(load_in("one.yaml", doc, &b, &s1), 0);
	CU_ASSERT_EQUAL(b.alias_nodes, 30);
	/* The same document again, in another file: 30 more would make 60 > 50. */
	CU_ASSERT_EQUAL(load_in("two.yaml", doc, &b, &s2), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "two.yaml:2:13: error: aliases and merge keys would create more than 50 "
			       "nodes in all the inputs (alias \"a\"); refusing to expand them (limit "
			       "alias-nodes; raise it with --limit alias-nodes=N)");
	CU_ASSERT_EQUAL(s2.n, 0);
	yl_stream_release(&s1);
	yl_stream_release(&s2);
	diag_release(&dg);

	/* Documents: three in all, counted across files; loading stops at the bound. */
	lim_init(&lim);
	lim.v[LIM_DOCUMENTS] = 3;
	yl_budget_init(&b, &lim);
	CU_ASSERT_EQUAL(load_in("one.yaml", "a: 1\n---\nb: 2\n", &b, &s1), 0);
	CU_ASSERT_EQUAL(load_in("two.yaml", "c: 3\n---\nd: 4\n---\ne: 5\n", &b, &s2), -1);
	CU_ASSERT_EQUAL(s2.n, 1);
	CU_ASSERT_TRUE(b.exhausted);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "two.yaml:2:1: error: the inputs hold more than 3 YAML documents in all "
			       "(limit documents; raise it with --limit documents=N)");
	yl_stream_release(&s1);
	yl_stream_release(&s2);
	/* Once exhausted, nothing more is read, and nothing more is said. */
	CU_ASSERT_EQUAL(load_in("three.yaml", "f: 6\n", &b, &s1), -1);
	CU_ASSERT_EQUAL(s1.n, 0);
	CU_ASSERT_EQUAL(dg.n, 1);
	yl_stream_release(&s1);
	diag_release(&dg);

	/* Bytes: the total of all files. */
	lim_init(&lim);
	lim.v[LIM_INPUT_BYTES] = 10;
	yl_budget_init(&b, &lim);
	CU_ASSERT_EQUAL(load_in("one.yaml", "a: 1\n", &b, &s1), 0);
	CU_ASSERT_EQUAL(load_in("two.yaml", "bb: 22\n", &b, &s2), -1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "two.yaml: error: the inputs hold more than 10 bytes in all (limit "
			       "input-bytes; raise it with --limit input-bytes=N)");
	yl_stream_release(&s1);
	yl_stream_release(&s2);
	diag_release(&dg);
}

static void test_deep_nesting(void)
{
	size_t n = YL_MAX_DEPTH + 10;
	char *text = malloc(2 * n + 2);

	memset(text, '[', n);
	memset(text + n, ']', n);
	text[2 * n] = '\n';
	text[2 * n + 1] = '\0';
	CU_ASSERT_EQUAL(load(text), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0), "t.yaml:1:513: error: nesting deeper than 512 levels");
	free(text);
	/* Depth through aliases of aliases. */
	{
		char buf[8192];
		size_t off = 0;

		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "a0: &a0 [[[[[[[[[[x]]]]]]]]]]\n");
		for (int i = 1; i < 60; i++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off,
						"a%d: &a%d [[[[[[[[[[*a%d]]]]]]]]]]\n", i, i, i - 1);
		CU_ASSERT_EQUAL(load(buf), -1);
		CU_ASSERT_EQUAL(dg.n, 1);
		CU_ASSERT_STRING_EQUAL(item(0),
				       "t.yaml:52:21: error: nesting deeper than 512 levels (through alias \"a50\")");
	}
}

static void test_syntax_error_marks(void)
{
	CU_ASSERT_EQUAL(load("ok: 1\n---\na:\n  b: 1\n c: 2\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0), "t.yaml:5:2: error: did not find expected key");
	CU_ASSERT_STRING_EQUAL(item(1), "t.yaml:3:1: note: while parsing a block mapping");
	/* Documents before the syntax error are kept. */
	CU_ASSERT_EQUAL(st.n, 1);
	CU_ASSERT_EQUAL(load("a: [1, 2\nb: 3\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0), "t.yaml:2:2: error: did not find expected ',' or ']'");
	CU_ASSERT_STRING_EQUAL(item(1), "t.yaml:1:4: note: while parsing a flow sequence");
}

static void test_encoding_errors(void)
{
	static const char nul[] = "a: 1\nb: x\0y\n";
	static const char latin1[] = "a: 1\nname: caf\xe9\n";
	static const char bom[] = "\xef\xbb\xbf" "a: \xc3\xa9t\xc3\xa9\n";

	yl_stream_release(&st);
	diag_release(&dg);
	CU_ASSERT_EQUAL(yl_load_string("t.yaml", nul, sizeof(nul) - 1, &st, &dg), -1);
	CU_ASSERT_STRING_EQUAL(item(0), "t.yaml:2:5: error: NUL byte in input: the file must be UTF-8 text");
	CU_ASSERT_EQUAL(st.n, 0);
	CU_ASSERT_EQUAL(load(latin1), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:2:10: error: invalid UTF-8 byte 0xe9: the file must be UTF-8 text");
	CU_ASSERT_EQUAL(load(bom), 0);
	CU_ASSERT_STRING_EQUAL(val_str(get("a"), "?"), "\xc3\xa9t\xc3\xa9");
	/* Before a mapping of several keys libyaml took the mark for part of the first key. */
	CU_ASSERT_EQUAL(load("\xef\xbb\xbf" "apiVersion: v1\nkind: Namespace\n"), 0);
	CU_ASSERT_EQUAL_FATAL(st.n, 1);
	CU_ASSERT_STRING_EQUAL(val_str(get("apiVersion"), "?"), "v1");
	CU_ASSERT_STRING_EQUAL(val_str(get("kind"), "?"), "Namespace");
	CU_ASSERT_EQUAL(get("kind")->mark.line, 2);
	CU_ASSERT_EQUAL(load("a: \"x\\0y\"\n"), -1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "t.yaml:1:4: error: string contains a NUL character, which is not supported");
}

static void test_file_io(void)
{
	char path[] = "/tmp/test_yamlload_XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	fputs("kind: x\n", f);
	fclose(f);
	yl_stream_release(&st);
	diag_release(&dg);
	CU_ASSERT_EQUAL(yl_load_file(path, &st, &dg), 0);
	CU_ASSERT_EQUAL_FATAL(st.n, 1);
	CU_ASSERT_STRING_EQUAL(st.file, path);
	remove(path);
	yl_stream_release(&st);
	CU_ASSERT_EQUAL(yl_load_file("/nonexistent/x.yaml", &st, &dg), -1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "/nonexistent/x.yaml: error: cannot read: No such file or directory");
	/* Not a regular file: refused before reading (a FIFO without a writer would block). */
	{
		char fifo[] = "/tmp/test_yamlload_fifo_XXXXXX";
		int tfd = mkstemp(fifo);

		CU_ASSERT_FATAL(tfd >= 0);
		close(tfd);
		remove(fifo);
		CU_ASSERT_FATAL(mkfifo(fifo, 0600) == 0);
		yl_stream_release(&st);
		diag_release(&dg);
		CU_ASSERT_EQUAL(yl_load_file(fifo, &st, &dg), -1);
		CU_ASSERT_EQUAL(dg.n, 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(item(0), "error: cannot read: not a regular file (a FIFO)"));
		remove(fifo);
		yl_stream_release(&st);
		diag_release(&dg);
		CU_ASSERT_EQUAL(yl_load_file("/tmp", &st, &dg), -1);
		CU_ASSERT_STRING_EQUAL(item(0),
				       "/tmp: error: cannot read: not a regular file (a directory)");
		yl_stream_release(&st);
		diag_release(&dg);
		CU_ASSERT_EQUAL(yl_load_file("/dev/zero", &st, &dg), -1);
		CU_ASSERT_STRING_EQUAL(
			item(0), "/dev/zero: error: cannot read: not a regular file (a character device)");
	}
}

static void test_cleanup(void)
{
	yl_stream_release(&st);
	diag_release(&dg);
	item(99);
	CU_PASS("released");
}

/*
 * yl_emit() writes what reads back the same: strings that would read as
 * something else quoted (double), text a plain scalar cannot hold quoted
 * without a tag, numbers and booleans plain, kubectl's block layout.
 */
static void test_emit_round_trip(void)
{
	const char *strings[] = { "true", "yes", "n", "Off", "null", "~", "", "412", "0x1F",
				  "1.10", "-7", "2026-11-30T14:02:07Z", "a: b", "- x", "#c",
				  "plain text", "version transition: 'quoted'", "ünïcode",
				  "two\nlines", " lead", "trail ", "[x]", "{y}", "*a", "&b",
				  "!t", "%p", "@q", "`r", ".inf", "NaN" };
	struct val *doc = val_new_map(), *list = val_new_list(), *m;
	char *text = NULL;

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		val_list_push(list, val_new_string(strings[i]));
	val_map_set(doc, "strings", list);
	val_map_set(doc, "int", val_new_int(-9007199254740993LL));
	val_map_set(doc, "float", val_new_float(0.1));
	val_map_set(doc, "whole", val_new_float(3));
	val_map_set(doc, "bool", val_new_bool(false));
	val_map_set(doc, "null", val_new_null());
	val_map_set(doc, "empty", val_new_map());
	val_map_set(doc, "none", val_new_list());
	m = val_map_set(doc, "1", val_new_map());
	val_map_set(m, "k", val_new_string("v"));
	CU_ASSERT_EQUAL_FATAL(yl_emit(doc, "a comment\nof two lines", &text), 0);
	CU_ASSERT(strncmp(text, "# a comment\n# of two lines\n", 27) == 0);
	CU_ASSERT_PTR_NULL(strstr(text, "! "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n- \"true\"\n"));     /* a list under a key is not indented */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "- plain text\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"2026-11-30T14:02:07Z\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "float: 0.1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "whole: 3.0\n"));
	CU_ASSERT_EQUAL_FATAL(load(text), 0);
	if (!val_equal(st.docs[0].root, doc)) {
		fprintf(stderr, "%s", text);
		CU_FAIL("the emitted document reads back different");
	}
	free(text);
	val_free(doc);
}

static CU_TestInfo tests[] = {
	{ "yl_emit() reads back the same", test_emit_round_trip },
	{ "scalars as kubectl reads them, yes/no booleans", test_core_schema_scalars },
	{ "marks are 1-based", test_marks_are_one_based },
	{ "several documents, empty ones skipped", test_multiple_documents_and_empty_ones },
	{ "duplicate key: error + note at the first", test_duplicate_key },
	{ "large mappings: duplicates, order and merges", test_large_mapping_keys },
	{ "non-string keys", test_bad_keys },
	{ "YAML 1.1 boolean keys refused", test_yaml11_bool_keys },
	{ "inf, nan and overflow", test_inf_nan_and_overflow },
	{ "decimal integer beyond int64 reads as a float", test_decimal_overflow_is_float },
	{ "tags", test_tags },
	{ "aliases and merge keys", test_aliases_and_merge },
	{ "billion laughs is capped", test_billion_laughs },
	{ "alias nodes, documents and bytes: one budget per stream", test_budget_is_per_stream },
	{ "deep nesting is capped", test_deep_nesting },
	{ "syntax errors: problem and context marks", test_syntax_error_marks },
	{ "NUL and invalid UTF-8", test_encoding_errors },
	{ "file I/O", test_file_io },
	{ "cleanup", test_cleanup },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("yamlload", tests);
}
