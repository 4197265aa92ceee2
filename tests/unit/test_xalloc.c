/*
 * engine/xalloc: the string helpers (the allocators themselves abort on
 * out-of-memory, which a unit test cannot provoke portably).
 */
#include <stdlib.h>

#include "engine/xalloc.h"
#include "tests/unit/cu_main.h"

static void check_join(const char *const *v, size_t n, const char *sep, const char *want)
{
	char *got = xstrjoin(v, n, sep);

	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

static void test_strjoin(void)
{
	static const char *const abc[] = { "a", "bb", "ccc" };
	static const char *const empties[] = { "", "x", "" };

	check_join(abc, 0, ", ", "");
	check_join(abc, 1, ", ", "a");
	check_join(abc, 3, ", ", "a, bb, ccc");
	check_join(abc, 3, "", "abbccc");
	check_join(abc, 2, " and ", "a and bb");
	check_join(empties, 3, ",", ",x,");
}

static void test_asprintf_strndup(void)
{
	char *s = xasprintf("%s-%03d", "w", 7);
	char *t = xstrndup("abcdef", 3);

	CU_ASSERT_STRING_EQUAL(s, "w-007");
	CU_ASSERT_STRING_EQUAL(t, "abc");
	CU_ASSERT_PTR_NULL(xstrdup(NULL));
	free(s);
	free(t);
}

static CU_TestInfo xalloc_tests[] = {
	{ "strjoin: Go's strings.Join", test_strjoin },
	{ "asprintf, strndup, strdup(NULL)", test_asprintf_strndup },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("xalloc", xalloc_tests);
}
