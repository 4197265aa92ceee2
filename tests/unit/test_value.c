/* Value tree and object basics: equality, paths, merge patch, sorted string maps. */
#include <stdio.h>
#include <string.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "tests/unit/cu_main.h"

static struct val *sample(void)
{
	struct val *root = val_new_map();
	struct val *spec = val_map_set(root, "spec", val_new_map());
	struct val *steps = val_map_set(spec, "steps", val_new_list());
	struct val *s0 = val_list_push(steps, val_new_map());

	val_map_set(s0, "name", val_new_string("dev"));
	val_map_set(spec, "autoApply", val_new_bool(true));
	val_map_set(spec, "replicas", val_new_int(3));
	return root;
}

static void test_equal_ignores_order_and_marks(void)
{
	struct val *a = val_new_map(), *b = val_new_map();

	val_map_set(a, "x", val_new_int(1));
	val_map_set(a, "y", val_new_string("s"));
	val_map_set(b, "y", val_new_string("s"));
	val_map_set(b, "x", val_new_int(1))->mark = (struct val_mark){ 3, 4 };
	CU_ASSERT_TRUE(val_equal(a, b));
	val_map_set(b, "x", val_new_float(1.0));
	CU_ASSERT_FALSE(val_equal(a, b)); /* int 1 and float 1.0 differ */
	val_free(a);
	val_free(b);
}

static void test_copy_and_path(void)
{
	struct val *a = sample();
	struct val *c = val_copy(a);

	CU_ASSERT_TRUE(val_equal(a, c));
	CU_ASSERT_STRING_EQUAL(val_str(val_path(c, "spec.steps.0.name"), "?"), "dev");
	CU_ASSERT_PTR_NULL(val_path(c, "spec.steps.1.name"));
	CU_ASSERT_PTR_NULL(val_path(c, "spec.autoApply.x"));
	CU_ASSERT_EQUAL(val_int(val_path(c, "spec.replicas"), -1), 3);
	CU_ASSERT_TRUE(val_bool(val_path(c, "spec.autoApply"), false));
	CU_ASSERT_EQUAL(val_int(val_path(c, "spec.autoApply"), -1), -1);
	val_map_set(val_path(c, "spec"), "replicas", val_new_int(4));
	CU_ASSERT_FALSE(val_equal(a, c));
	CU_ASSERT_TRUE(val_map_del(val_path(c, "spec"), "replicas"));
	CU_ASSERT_FALSE(val_map_del(val_path(c, "spec"), "replicas"));
	CU_ASSERT_EQUAL(val_path(c, "spec")->u.map.n, 2);
	val_free(a);
	val_free(c);
}

/* val_map_take() hands the value over, keeps the other entries in order, and answers NULL when absent. */
static void test_map_take(void)
{
	struct val *m = val_new_map(), *spec = val_new_map(), *got;

	val_map_set(m, "apiVersion", val_new_string("v1"));
	val_map_set(m, "spec", spec);
	val_map_set(m, "kind", val_new_string("X"));
	val_map_set(spec, "replicas", val_new_int(2));
	got = val_map_take(m, "spec");
	CU_ASSERT_PTR_EQUAL(got, spec);
	CU_ASSERT_EQUAL(m->u.map.n, 2);
	CU_ASSERT_STRING_EQUAL(m->u.map.items[0].key, "apiVersion");
	CU_ASSERT_STRING_EQUAL(m->u.map.items[1].key, "kind");
	CU_ASSERT_PTR_NULL(val_map_get(m, "spec"));
	CU_ASSERT_PTR_NULL(val_map_take(m, "spec"));
	CU_ASSERT_PTR_NULL(val_map_take(got, "absent"));
	CU_ASSERT_PTR_NULL(val_map_take(val_path(m, "kind"), "x")); /* not a map */
	val_free(m);
	CU_ASSERT_EQUAL(val_int(val_map_get(got, "replicas"), -1), 2); /* still the caller's */
	val_free(got);
}

/*
 * val_share() gives a tree another owner without copying it: the tree
 * lives until its last owner lets go, whichever that is, and a tree that
 * holds a shared subtree frees around it.
 */
static void test_share(void)
{
	struct val *a = sample(), *parent = val_new_map(), *b, *steps;

	b = val_share(a);
	CU_ASSERT_PTR_EQUAL(b, a);
	CU_ASSERT_PTR_NULL(val_share(NULL));
	val_free(a); /* the first owner lets go: the second still reads it */
	CU_ASSERT_STRING_EQUAL(val_str(val_path(b, "spec.steps.0.name"), ""), "dev");
	steps = val_path(b, "spec.steps");
	val_map_set(parent, "steps", val_share(steps));
	val_map_set(parent, "again", val_share(steps));
	val_free(b); /* the whole tree but the shared list */
	CU_ASSERT_STRING_EQUAL(val_str(val_path(parent, "steps.0.name"), ""), "dev");
	CU_ASSERT_TRUE(val_equal(val_map_get(parent, "steps"), val_map_get(parent, "again")));
	{
		struct val *c = val_copy(parent); /* a copy owns its nodes alone */

		val_free(parent);
		CU_ASSERT_STRING_EQUAL(val_str(val_path(c, "again.0.name"), ""), "dev");
		CU_ASSERT_PTR_NOT_EQUAL(val_map_get(c, "steps"), val_map_get(c, "again"));
		val_free(c);
	}
}

/*
 * val_copy_top() copies the top node alone: the copy equals a deep copy,
 * below the top it holds the original's nodes, and an entry replaced in the
 * copy leaves the original as it was, whichever of the two is freed first.
 */
static void test_copy_top(void)
{
	struct val *a = sample(), *c, *spec, *l;

	val_path(a, "spec")->mark = (struct val_mark){ 2, 3 };
	c = val_copy_top(a);
	CU_ASSERT_TRUE(val_equal(c, a));
	CU_ASSERT_PTR_NOT_EQUAL(c, a);
	CU_ASSERT_PTR_EQUAL(val_map_get(c, "spec"), val_map_get(a, "spec"));
	spec = val_map_set(c, "spec", val_copy_top(val_map_get(a, "spec")));
	CU_ASSERT_EQUAL(spec->mark.line, 2);
	CU_ASSERT_PTR_EQUAL(val_map_get(spec, "steps"), val_path(a, "spec.steps"));
	val_map_set(spec, "replicas", val_new_int(5));
	CU_ASSERT_EQUAL(val_int(val_path(a, "spec.replicas"), 0), 3);
	CU_ASSERT_EQUAL(val_int(val_path(c, "spec.replicas"), 0), 5);
	val_free(a);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(c, "spec.steps.0.name"), ""), "dev");
	l = val_copy_top(val_path(c, "spec.steps"));
	CU_ASSERT_EQUAL(l->u.list.n, 1);
	CU_ASSERT_PTR_EQUAL(l->u.list.items[0], val_path(c, "spec.steps.0"));
	val_free(c);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(l, "0.name"), ""), "dev");
	val_free(l);
	a = val_new_string("x");
	c = val_copy_top(a); /* a scalar: copied */
	CU_ASSERT_PTR_NOT_EQUAL(c, a);
	val_free(a);
	CU_ASSERT_STRING_EQUAL(val_str(c, ""), "x");
	val_free(c);
}

/*
 * A copy shares its keys' texts and outlives the original; keys set through
 * val_map_append_kv() come from another map with their marks; deleting and
 * replacing keys in one copy leaves the other as it was.
 */
static void test_copies_share_keys(void)
{
	struct val *a = sample();
	struct val *c = val_copy(a);
	struct val *m = val_new_map();
	const struct val *spec;

	CU_ASSERT_PTR_EQUAL(c->u.map.items[0].key, a->u.map.items[0].key);
	a->u.map.items[0].key_mark = (struct val_mark){ 2, 5 };
	val_map_append_kv(m, &a->u.map.items[0], val_new_int(7));
	CU_ASSERT_STRING_EQUAL(m->u.map.items[0].key, "spec");
	CU_ASSERT_EQUAL(m->u.map.items[0].key_mark.line, 2);
	CU_ASSERT_EQUAL(m->u.map.items[0].key_mark.col, 5);
	CU_ASSERT_TRUE(val_map_del(val_path(a, "spec"), "replicas"));
	val_map_set(val_path(a, "spec"), "autoApply", val_new_bool(false));
	val_free(a);
	spec = val_map_get(c, "spec");
	CU_ASSERT_EQUAL(spec->u.map.n, 3);
	CU_ASSERT_STRING_EQUAL(spec->u.map.items[2].key, "replicas");
	CU_ASSERT_EQUAL(val_int(val_map_get(spec, "replicas"), -1), 3);
	CU_ASSERT_TRUE(val_bool(val_map_get(spec, "autoApply"), false));
	CU_ASSERT_EQUAL(val_int(val_map_get(m, "spec"), -1), 7);
	val_free(c);
	CU_ASSERT_STRING_EQUAL(m->u.map.items[0].key, "spec");
	val_free(m);
}

/*
 * A scalar's source text: val_set_raw() copies at most n bytes (as
 * strndup()), copies share it (one text, not one per copy), it outlives the
 * node it was set on while a copy holds it, and setting or sharing another
 * releases the one a node had.
 */
static void test_copies_share_raw(void)
{
	struct val *a = val_new_float(1.1), *c, *d, *m = val_new_map(), *mc, *n;

	val_set_raw(a, "1.10 and more", 4);
	CU_ASSERT_STRING_EQUAL(a->raw, "1.10");
	c = val_copy(a);
	d = val_copy(c);
	CU_ASSERT_PTR_EQUAL(c->raw, a->raw);
	CU_ASSERT_PTR_EQUAL(d->raw, a->raw);
	val_free(a);
	CU_ASSERT_STRING_EQUAL(c->raw, "1.10");
	val_set_raw(c, "01.1", 8);
	CU_ASSERT_STRING_EQUAL(c->raw, "01.1");
	CU_ASSERT_STRING_EQUAL(d->raw, "1.10");
	val_share_raw(d, c);
	CU_ASSERT_PTR_EQUAL(d->raw, c->raw);
	val_map_set(m, "v", c);
	mc = val_copy(m);
	val_free(m);
	CU_ASSERT_STRING_EQUAL(val_map_get(mc, "v")->raw, "01.1");
	n = val_new_null();
	val_share_raw(d, n); /* n has none: d has none either */
	CU_ASSERT_PTR_NULL(d->raw);
	val_free(n);
	val_free(mc);
	val_free(d);
}

/*
 * Strings on both sides of the length a node's slot holds (engine/value.c
 * keeps short texts in the node's slot, longer ones in a block of their
 * own): made, copied, freed out of order and made again, each keeps its text.
 */
static void test_strings_of_every_length(void)
{
	enum { N = 48 };
	struct val *v[N], *c[N];
	char text[N + 1];

	for (int round = 0; round < 3; round++) {
		for (int n = 0; n < N; n++) {
			memset(text, 'a' + (n + round) % 26, (size_t)n);
			text[n] = '\0';
			v[n] = val_new_string(text);
			c[n] = val_copy(v[n]);
		}
		for (int n = 0; n < N; n += 2)
			val_free(v[n]);
		for (int n = 0; n < N; n++) {
			CU_ASSERT_EQUAL(strlen(c[n]->u.s), (size_t)n);
			CU_ASSERT(n == 0 || c[n]->u.s[n - 1] == 'a' + (n + round) % 26);
			if (n % 2)
				CU_ASSERT_TRUE(val_equal(v[n], c[n]));
		}
		for (int n = 1; n < N; n += 2)
			val_free(v[n]);
		for (int n = N - 1; n >= 0; n--)
			val_free(c[n]);
	}
}

static void test_merge_patch(void)
{
	struct val *t = sample();
	struct val *p = val_new_map();
	struct val *ps = val_map_set(p, "spec", val_new_map());

	val_map_set(ps, "replicas", val_new_null());
	val_map_set(ps, "autoApply", val_new_bool(true));
	CU_ASSERT_TRUE(val_merge_patch(&t, p)); /* deleting replicas is a change */
	CU_ASSERT_PTR_NULL(val_path(t, "spec.replicas"));
	CU_ASSERT_FALSE(val_merge_patch(&t, p)); /* applying it again changes nothing */
	val_map_set(ps, "new", val_new_string("v"));
	CU_ASSERT_TRUE(val_merge_patch(&t, p));
	CU_ASSERT_STRING_EQUAL(val_str(val_path(t, "spec.new"), ""), "v");
	/* Key order survives a replacement in place. */
	CU_ASSERT_STRING_EQUAL(val_path(t, "spec")->u.map.items[0].key, "steps");
	val_free(p);
	val_free(t);
}

static void test_strmap_sorted(void)
{
	struct obj *o = obj_new("v1", "Namespace", NULL, "team-a");
	struct obj *c;
	char buf[64];

	CU_ASSERT_TRUE(obj_strmap_set(&o->labels, "zone", "eu"));
	CU_ASSERT_TRUE(obj_strmap_set(&o->labels, "app", "x"));
	CU_ASSERT_TRUE(obj_strmap_set(&o->labels, "m", "1"));
	CU_ASSERT_FALSE(obj_strmap_set(&o->labels, "m", "1"));
	CU_ASSERT_STRING_EQUAL(o->labels.items[0].key, "app");
	CU_ASSERT_STRING_EQUAL(o->labels.items[2].key, "zone");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->labels, "m"), "1");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&o->labels, "n"));
	CU_ASSERT_TRUE(obj_strmap_del(&o->labels, "app"));
	CU_ASSERT_FALSE(obj_strmap_del(&o->labels, "app"));
	CU_ASSERT_TRUE(obj_add_finalizer(o, "magosproject.io/finalizer"));
	CU_ASSERT_FALSE(obj_add_finalizer(o, "magosproject.io/finalizer"));
	c = obj_copy(o);
	CU_ASSERT_TRUE(obj_strmap_equal(&o->labels, &c->labels));
	CU_ASSERT_TRUE(obj_has_finalizer(c, "magosproject.io/finalizer"));
	CU_ASSERT_TRUE(obj_remove_finalizer(c, "magosproject.io/finalizer"));
	CU_ASSERT_FALSE(obj_has_finalizer(c, "magosproject.io/finalizer"));
	CU_ASSERT_STRING_EQUAL(obj_ref(c, buf, sizeof(buf)), "Namespace/team-a");
	CU_ASSERT_EQUAL(obj_cmp_key(o, c), 0);
	obj_free(o);
	obj_free(c);
}

/*
 * obj_copy_sharing() copies the metadata and shares spec, status and rest:
 * the copy's finalizers change alone, and its trees outlive the original.
 */
static void test_obj_copy_sharing(void)
{
	struct obj *o = obj_new("v1", "ConfigMap", "ns", "cm");
	struct obj *c;

	o->spec = sample();
	o->status = val_new_map();
	val_map_set(o->status, "phase", val_new_string("Ready"));
	CU_ASSERT_TRUE(obj_strmap_set(&o->labels, "app", "x"));
	c = obj_copy_sharing(o);
	CU_ASSERT_PTR_EQUAL(c->spec, o->spec);
	CU_ASSERT_PTR_EQUAL(c->status, o->status);
	CU_ASSERT_PTR_NULL(c->rest);
	CU_ASSERT_PTR_NOT_EQUAL(c->name, o->name);
	CU_ASSERT_TRUE(obj_strmap_equal(&o->labels, &c->labels));
	CU_ASSERT_TRUE(obj_add_finalizer(c, "magosproject.io/finalizer"));
	CU_ASSERT_FALSE(obj_has_finalizer(o, "magosproject.io/finalizer"));
	obj_free(o);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(c->spec, "spec.steps.0.name"), ""), "dev");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c->status, "phase"), ""), "Ready");
	obj_free(c);
}

static void test_ready_condition(void)
{
	struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", "a", "s");
	struct val *conds, *c;

	CU_ASSERT_PTR_NULL(obj_ready_condition(o));
	o->status = val_new_map();
	conds = val_map_set(o->status, "conditions", val_new_list());
	c = val_list_push(conds, val_new_map());
	val_map_set(c, "type", val_new_string("Other"));
	c = val_list_push(conds, val_new_map());
	val_map_set(c, "type", val_new_string("Ready"));
	val_map_set(c, "reason", val_new_string("AwaitingApproval"));
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(obj_ready_condition(o), "reason"), ""),
			       "AwaitingApproval");
	obj_free(o);
}

/*
 * obj_strmap_set_many() gives the map obj_strmap_set() of each pair in
 * turn gives: a later pair wins over an earlier one with its key, an
 * existing key keeps its place and takes the new value, and the answer
 * "changed" is the same; checked on 300 scrambled pairs into a map that
 * already holds some of the keys.
 */
static void test_strmap_set_many(void)
{
	struct obj_strmap a, b;
	struct obj_strmap_item items[300];
	char keys[300][16], vals[300][16];

	obj_strmap_init(&a);
	obj_strmap_init(&b);
	for (int i = 0; i < 50; i++) {
		snprintf(keys[0], sizeof keys[0], "k%03d", i * 3);
		obj_strmap_set(&a, keys[0], "old");
		obj_strmap_set(&b, keys[0], "old");
	}
	for (int i = 0; i < 300; i++) {
		snprintf(keys[i], sizeof keys[i], "k%03d", (i * 37) % 200);
		snprintf(vals[i], sizeof vals[i], "v%d", i);
		items[i] = (struct obj_strmap_item){ keys[i], vals[i] };
	}
	for (int i = 0; i < 300; i++)
		obj_strmap_set(&a, items[i].key, items[i].value);
	CU_ASSERT_TRUE(obj_strmap_set_many(&b, items, 300));
	CU_ASSERT_TRUE(obj_strmap_equal(&a, &b));
	CU_ASSERT_EQUAL_FATAL(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		CU_ASSERT_STRING_EQUAL(a.items[i].key, b.items[i].key);
		CU_ASSERT_STRING_EQUAL(a.items[i].value, b.items[i].value);
	}
	/* the same pairs again change nothing, and no pairs at all neither */
	CU_ASSERT_FALSE(obj_strmap_set_many(&b, items, 300));
	CU_ASSERT_FALSE(obj_strmap_set_many(&b, items, 0));
	/* one value changed is a change */
	snprintf(vals[299], sizeof vals[299], "other");
	CU_ASSERT_TRUE(obj_strmap_set_many(&b, &items[299], 1));
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&b, items[299].key), "other");
	obj_strmap_release(&a);
	obj_strmap_release(&b);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "equality ignores key order and marks", test_equal_ignores_order_and_marks },
		{ "copy and dotted paths", test_copy_and_path },
		{ "a map entry's value taken out", test_map_take },
		{ "a tree shared by several owners lives until the last lets go", test_share },
		{ "a copy of the top node shares what is below it", test_copy_top },
		{ "an object copy that shares its trees", test_obj_copy_sharing },
		{ "copies share their keys", test_copies_share_keys },
		{ "copies share a scalar's source text", test_copies_share_raw },
		{ "strings of every length around a node's slot", test_strings_of_every_length },
		{ "RFC 7386 merge patch", test_merge_patch },
		{ "sorted label maps and finalizers", test_strmap_sorted },
		{ "Ready condition lookup", test_ready_condition },
		{ "many pairs set at once as one by one", test_strmap_set_many },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("value", tests);
}
