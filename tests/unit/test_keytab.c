/*
 * sim/base/keytab: a record is added once per "ns/name", zeroed, at the end,
 * and found again at the same position with what was written to it, through
 * the array's growth; a long name (past the stack key buffer) works alike.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/base/keytab.h"
#include "tests/unit/cu_main.h"

struct rec {
	int64_t t_ms;
	char tag[80];
};

static void test_find_or_add(void)
{
	struct keytab t = KEYTAB_INIT(struct rec);
	char ns[16], name[16];
	size_t pos;
	bool added = false;

	CU_ASSERT_PTR_NULL(kt_get(&t, "ns", "a"));
	for (size_t i = 0; i < 3000; i++) {
		struct rec *r;

		snprintf(ns, sizeof(ns), "ns-%02zu", i % 40);
		snprintf(name, sizeof(name), "ss-%04zu", i);
		pos = kt_at(&t, ns, name, &added);
		CU_ASSERT_TRUE(added);
		CU_ASSERT_EQUAL(pos, i);
		r = kt_item(&t, pos);
		CU_ASSERT_EQUAL(r->t_ms, 0);
		CU_ASSERT_EQUAL(r->tag[0], '\0');
		r->t_ms = (int64_t)i * 1000;
		snprintf(r->tag, sizeof(r->tag), "%s/%s", ns, name);
	}
	CU_ASSERT_EQUAL(t.n, 3000);
	for (size_t i = 0; i < 3000; i++) {
		const struct rec *r;

		snprintf(ns, sizeof(ns), "ns-%02zu", i % 40);
		snprintf(name, sizeof(name), "ss-%04zu", i);
		r = kt_get(&t, ns, name);
		CU_ASSERT_PTR_EQUAL(r, kt_item(&t, i));
		CU_ASSERT_EQUAL(kt_at(&t, ns, name, &added), i);
		CU_ASSERT_FALSE(added);
		if (!r)
			continue;
		CU_ASSERT_EQUAL(r->t_ms, (int64_t)i * 1000);
		CU_ASSERT_EQUAL(strncmp(r->tag, ns, strlen(ns)), 0);
	}
	CU_ASSERT_EQUAL(t.n, 3000);
	/* a name under another namespace than its own is another record */
	CU_ASSERT_PTR_NULL(kt_get(&t, "ns-01", "ss-0002"));
	kt_release(&t);
	CU_ASSERT_EQUAL(t.n, 0);
	CU_ASSERT_EQUAL(t.size, sizeof(struct rec));
	CU_ASSERT_PTR_NULL(kt_get(&t, "ns-00", "ss-0000"));
	kt_release(NULL);
}

static void test_long_key(void)
{
	struct keytab t;
	char name[600];
	bool added;

	kt_init(&t, sizeof(int));
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	CU_ASSERT_EQUAL(kt_at(&t, "default", name, &added), 0);
	CU_ASSERT_TRUE(added);
	*(int *)kt_item(&t, 0) = 7;
	CU_ASSERT_EQUAL(kt_at(&t, "default", "other", NULL), 1);
	CU_ASSERT_PTR_EQUAL(kt_get(&t, "default", name), kt_item(&t, 0));
	CU_ASSERT_EQUAL(*(int *)kt_item(&t, 0), 7);
	name[300] = '\0';
	CU_ASSERT_PTR_NULL(kt_get(&t, "default", name));
	kt_release(&t);
}

static CU_TestInfo keytab_tests[] = {
	{ "find or add through growth: added once, zeroed, at the end", test_find_or_add },
	{ "a key longer than the stack buffer", test_long_key },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("keytab", keytab_tests);
}
