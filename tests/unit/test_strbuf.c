/*
 * engine/strbuf: the growable string every engine module builds its texts
 * in.  Appends across the growth steps, bytes that hold a NUL, taking and
 * reusing, releasing.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"
#include "tests/unit/cu_main.h"

static void test_appends(void)
{
	struct strbuf b = { 0 };
	char want[1000];
	char *s;

	/* Across several doublings: every byte where it was put, NUL after. */
	for (size_t i = 0; i < sizeof(want) - 1; i++) {
		want[i] = (char)('a' + i % 26);
		if (i % 3 == 0)
			strbuf_addc(&b, want[i]);
		else
			strbuf_addn(&b, &want[i], 1);
		CU_ASSERT_EQUAL_FATAL(b.len, i + 1);
		CU_ASSERT_EQUAL(b.s[b.len], '\0');
		CU_ASSERT(b.cap > b.len);
	}
	want[sizeof(want) - 1] = '\0';
	CU_ASSERT_STRING_EQUAL(b.s, want);
	s = strbuf_take(&b);
	CU_ASSERT_STRING_EQUAL(s, want);
	CU_ASSERT_PTR_NULL(b.s);
	CU_ASSERT_EQUAL(b.len, 0);
	free(s);

	/* Reused after take; add, add_free, and a run of bytes holding a NUL. */
	strbuf_add(&b, "time: ");
	strbuf_add_free(&b, xstrdup("invalid"));
	strbuf_addn(&b, " x\0y", 4);
	CU_ASSERT_EQUAL(b.len, 17);
	CU_ASSERT(memcmp(b.s, "time: invalid x\0y", 18) == 0);
	strbuf_release(&b);
	CU_ASSERT_PTR_NULL(b.s);
	CU_ASSERT_EQUAL(b.len + b.cap, 0);
	strbuf_release(NULL);
}

static void test_empty(void)
{
	struct strbuf b = { 0 };
	char *s = strbuf_take(&b);

	/* Nothing added: "", never NULL. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	strbuf_add(&b, "");
	CU_ASSERT_EQUAL(b.len, 0);
	CU_ASSERT_PTR_NOT_NULL(b.s);
	s = strbuf_take(&b);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
}

static CU_TestInfo tests[] = {
	{ "appends across growth, take and reuse", test_appends },
	{ "empty", test_empty },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("strbuf", tests);
}
