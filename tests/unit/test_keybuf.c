/*
 * sim/base/keybuf: lookup keys in a caller's buffer, on the heap when they
 * do not fit, and length-prefixed key fields that keep keys of several
 * fields apart whatever the fields hold.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/base/keybuf.h"
#include "tests/unit/cu_main.h"

static void test_join(void)
{
	char buf[8], *k;

	k = kb_join2(buf, sizeof(buf), "ns", "web");
	CU_ASSERT_PTR_EQUAL(k, buf);
	CU_ASSERT_STRING_EQUAL(k, "ns/web");
	kb_drop(k, buf);
	/* "ns/webshop" and its NUL do not fit 8 bytes: a new string. */
	k = kb_join2(buf, sizeof(buf), "ns", "webshop");
	CU_ASSERT_PTR_NOT_EQUAL(k, buf);
	CU_ASSERT_STRING_EQUAL(k, "ns/webshop");
	kb_drop(k, buf);
	k = kb_join3(buf, sizeof(buf), "a", "b", "c");
	CU_ASSERT_PTR_EQUAL(k, buf);
	CU_ASSERT_STRING_EQUAL(k, "a/b/c");
	kb_drop(k, buf);
	k = kb_join3(buf, sizeof(buf), "tenant", "shop", "prod");
	CU_ASSERT_STRING_EQUAL(k, "tenant/shop/prod");
	kb_drop(k, buf);
	/* Any separator; "spec.stages" and its NUL fit 12 bytes exactly, "spec.stagesX" does not. */
	{
		char b12[12];

		k = kb_join_sep(b12, sizeof(b12), "spec", '.', "stages");
		CU_ASSERT_PTR_EQUAL(k, b12);
		CU_ASSERT_STRING_EQUAL(k, "spec.stages");
		kb_drop(k, b12);
		k = kb_join_sep(b12, sizeof(b12), "spec", '.', "stagesX");
		CU_ASSERT_PTR_NOT_EQUAL(k, b12);
		CU_ASSERT_STRING_EQUAL(k, "spec.stagesX");
		kb_drop(k, b12);
	}
}

static void test_field(void)
{
	char a[64], b[64], big[1100], *p;
	char s[1001];

	/* ("a:b", "c") and ("a", "b:c") would both join to "a:b:c"; prefixed they differ. */
	*kb_field(kb_field(a, "a:b"), "c") = '\0';
	*kb_field(kb_field(b, "a"), "b:c") = '\0';
	CU_ASSERT_STRING_EQUAL(a, "3:a:b1:c");
	CU_ASSERT_STRING_EQUAL(b, "1:a3:b:c");
	p = kb_field(a, "");
	CU_ASSERT_EQUAL(p - a, 2);
	CU_ASSERT(memcmp(a, "0:", 2) == 0);
	/* A length of several digits, and the end returned. */
	memset(s, 'x', 1000);
	s[1000] = '\0';
	p = kb_field(big, s);
	*p = '\0';
	CU_ASSERT_EQUAL(p - big, 1005);
	CU_ASSERT(strncmp(big, "1000:xxx", 8) == 0);
}

static CU_TestInfo tests[] = {
	{ "joined keys in the buffer or on the heap", test_join },
	{ "length-prefixed fields", test_field },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("keybuf", tests);
}
