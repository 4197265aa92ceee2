/* Unit tests for sim/core/timeline: interning, entries, notices. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sim/core/timeline.h"
#include "tests/unit/cu_main.h"

static void test_intern_same_id_stable_pointer(void)
{
	struct tl *tl = tl_new();
	char buf[32];
	tl_str a = tl_intern(tl, "Workspace");
	const char *pa = tl_str_get(tl, a);

	CU_ASSERT_EQUAL(tl_intern(tl, NULL), 0);
	CU_ASSERT_PTR_NULL(tl_str_get(tl, 0));
	CU_ASSERT_NOT_EQUAL(a, 0);
	strcpy(buf, "Workspace");
	CU_ASSERT_EQUAL(tl_intern(tl, buf), a);
	CU_ASSERT_NOT_EQUAL(tl_intern(tl, "Rollout"), a);
	/* many strings force table growth and new arena chunks; old pointers stay */
	for (int i = 0; i < 20000; i++) {
		snprintf(buf, sizeof(buf), "name-%d", i);
		tl_intern(tl, buf);
	}
	CU_ASSERT_PTR_EQUAL(tl_str_get(tl, a), pa);
	CU_ASSERT_STRING_EQUAL(pa, "Workspace");
	CU_ASSERT_EQUAL(tl_intern(tl, "name-12345"), tl_intern(tl, "name-12345"));
	CU_ASSERT_STRING_EQUAL(tl_str_get(tl, tl_intern(tl, "name-12345")), "name-12345");
	tl_free(tl);
}

static void test_append_get_roundtrip(void)
{
	struct tl *tl = tl_new();
	struct tl_entry e = {
		.t_ms = 1500,
		.kind = "Rollout",
		.ns = "default",
		.name = "demo",
		.change = TL_STATUS,
		.detail = "status: phase Pending\xe2\x86\x92Progressing",
		.phase = "Progressing",
		.reason = NULL,
		.message = "step 1 of 2",
		.cause = "reconcile rollout-controller default/demo",
		.resource_version = 42,
		.generation = 3,
	}, got;

	CU_ASSERT_EQUAL(tl_append(tl, &e), 0);
	e.t_ms = 2000;
	e.change = TL_DELETED;
	e.phase = NULL;
	CU_ASSERT_EQUAL(tl_append(tl, &e), 1);
	CU_ASSERT_EQUAL(tl_count(tl), 2);

	tl_get(tl, 0, &got);
	CU_ASSERT_EQUAL(got.t_ms, 1500);
	CU_ASSERT_STRING_EQUAL(got.kind, "Rollout");
	CU_ASSERT_STRING_EQUAL(got.ns, "default");
	CU_ASSERT_STRING_EQUAL(got.name, "demo");
	CU_ASSERT_EQUAL(got.change, TL_STATUS);
	CU_ASSERT_STRING_EQUAL(got.phase, "Progressing");
	CU_ASSERT_PTR_NULL(got.reason);
	CU_ASSERT_STRING_EQUAL(got.message, "step 1 of 2");
	CU_ASSERT_STRING_EQUAL(got.cause, "reconcile rollout-controller default/demo");
	CU_ASSERT_EQUAL(got.resource_version, 42);
	CU_ASSERT_EQUAL(got.generation, 3);

	tl_get(tl, 1, &got);
	CU_ASSERT_EQUAL(got.t_ms, 2000);
	CU_ASSERT_EQUAL(got.change, TL_DELETED);
	CU_ASSERT_PTR_NULL(got.phase);
	/* repeated strings are stored once: same pointers in both entries */
	CU_ASSERT_PTR_EQUAL(got.kind, tl_str_get(tl, tl_rec_at(tl, 0)->kind));
	CU_ASSERT_EQUAL(tl_rec_at(tl, 0)->message, tl_rec_at(tl, 1)->message);
	CU_ASSERT_EQUAL(sizeof(struct tl_rec), 56);
	tl_free(tl);
}

static void test_notices(void)
{
	struct tl *tl = tl_new();
	struct tl_objref rel[2] = {
		{ "Rollout", "default", "a", 7 },
		{ "Rollout", "default", "b", 3 },
	};
	struct tl_notice n;

	CU_ASSERT_EQUAL(tl_notice_add(tl, 100, TL_ERROR, "zero-delay loop", rel, 2), 0);
	CU_ASSERT_EQUAL(tl_notice_add(tl, 200, TL_INFO, "horizon reached", NULL, 0), 1);
	CU_ASSERT_EQUAL(tl_notice_count(tl), 2);
	tl_notice_get(tl, 0, &n);
	CU_ASSERT_EQUAL(n.t_ms, 100);
	CU_ASSERT_EQUAL(n.severity, TL_ERROR);
	CU_ASSERT_STRING_EQUAL(n.text, "zero-delay loop");
	CU_ASSERT_EQUAL(n.nrelated, 2);
	CU_ASSERT_STRING_EQUAL(n.related[1].name, "b");
	CU_ASSERT_EQUAL(n.related[1].count, 3);
	tl_notice_get(tl, 1, &n);
	CU_ASSERT_EQUAL(n.nrelated, 0);
	CU_ASSERT_PTR_NULL(n.related);
	CU_ASSERT_STRING_EQUAL(tl_severity_name(TL_WARNING), "warning");
	CU_ASSERT_STRING_EQUAL(tl_change_name(TL_DELETING), "deleting");
	CU_ASSERT_STRING_EQUAL(tl_change_name(TL_UPDATED), "updated");
	CU_ASSERT(tl_memory(tl) > 0);
	tl_free(tl);
	tl_free(NULL);
}

static void test_generation_saturates(void)
{
	struct tl *tl = tl_new();
	struct tl_entry e = { .kind = "X", .ns = "", .name = "y", .generation = (int64_t)1 << 40 };
	struct tl_entry got;

	tl_append(tl, &e);
	tl_get(tl, 0, &got);
	CU_ASSERT_EQUAL(got.generation, (int64_t)UINT32_MAX);
	CU_ASSERT_STRING_EQUAL(got.ns, "");
	tl_free(tl);
}

/* tl_status_names(): the fields of a status write's detail, set or removed, and no other detail. */
static void test_status_names(void)
{
	bool removed = true;

	CU_ASSERT_TRUE(tl_status_names("status: conditions, pendingUpdate, version", "pendingUpdate", &removed));
	CU_ASSERT_FALSE(removed);
	CU_ASSERT_TRUE(tl_status_names("status: conditions, -pendingVersion", "pendingVersion", &removed));
	CU_ASSERT_TRUE(removed);
	CU_ASSERT_TRUE(tl_status_names("status: version", "version", &removed));
	CU_ASSERT_FALSE(removed);
	CU_ASSERT_FALSE(tl_status_names("status: conditions, pendingVersion", "pending", &removed));
	CU_ASSERT_FALSE(tl_status_names("status: lastAppliedRevisions", "lastApplied", &removed));
	CU_ASSERT_FALSE(tl_status_names("spec (generation 2)", "spec", &removed));
	CU_ASSERT_FALSE(tl_status_names(NULL, "version", &removed));
}

static CU_TestInfo tests[] = {
	{ "intern gives one id and a stable pointer", test_intern_same_id_stable_pointer },
	{ "append and get round-trip", test_append_get_roundtrip },
	{ "notices with related objects", test_notices },
	{ "generation saturates at 2^32-1", test_generation_saturates },
	{ "status write details name their fields", test_status_names },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("timeline", tests);
}
