/*
 * sim/base/strindex: every key put is found again with its latest position,
 * through the table's growth, and a key not put is not found (the hash kept
 * per key must not let a different key of the same slot match).
 */
#include <stdio.h>
#include <string.h>

#include "sim/base/strindex.h"
#include "tests/unit/cu_main.h"

static void test_put_get_grow(void)
{
	struct strindex x = { 0 };
	char key[64];
	size_t pos;

	CU_ASSERT_FALSE(si_get(&x, "ns/a", &pos));
	for (size_t i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "fleet-ns-%03zu/stageset-%05zu", i % 100, i);
		si_put(&x, key, i);
	}
	CU_ASSERT_EQUAL(x.n, 5000);
	CU_ASSERT(x.n * 2 <= x.cap);
	for (size_t i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "fleet-ns-%03zu/stageset-%05zu", i % 100, i);
		pos = 0;
		CU_ASSERT_TRUE(si_get(&x, key, &pos));
		CU_ASSERT_EQUAL(pos, i);
		/* a key one byte longer, or one byte shorter, is another key */
		snprintf(key, sizeof(key), "fleet-ns-%03zu/stageset-%05zux", i % 100, i);
		CU_ASSERT_FALSE(si_get(&x, key, &pos));
	}
	CU_ASSERT_FALSE(si_get(&x, "fleet-ns-000/stageset-0000", &pos));
	CU_ASSERT_FALSE(si_get(&x, "", &pos));
	si_put(&x, "fleet-ns-007/stageset-00007", 70);
	CU_ASSERT_EQUAL(x.n, 5000);
	CU_ASSERT_TRUE(si_get(&x, "fleet-ns-007/stageset-00007", &pos));
	CU_ASSERT_EQUAL(pos, 70);
	si_put(&x, "", 1);
	CU_ASSERT_TRUE(si_get(&x, "", &pos));
	CU_ASSERT_EQUAL(pos, 1);
	si_release(&x);
	CU_ASSERT_EQUAL(x.cap, 0);
	CU_ASSERT_FALSE(si_get(&x, "", &pos));
	si_release(NULL);
}

/*
 * si_hash(): the length comes back, equal texts hash equal wherever they
 * sit, and a change of any one byte of a 1..40-byte text moves the low ten
 * bits a table of 1 024 slots uses (the end mix; a per-word hash without it
 * leaves a change in a word's high bytes out of them).
 */
static void test_hash(void)
{
	char a[48], b[48];
	size_t len = 99, moved = 0, tried = 0;

	CU_ASSERT_EQUAL(si_hash("", &len), si_hash("", NULL));
	CU_ASSERT_EQUAL(len, 0);
	strcpy(a, "fleet-ns-042/stageset-04217");
	strcpy(b + 1, a);
	CU_ASSERT_EQUAL(si_hash(a, &len), si_hash(b + 1, NULL));
	CU_ASSERT_EQUAL(len, strlen(a));
	for (size_t n = 1; n <= 40; n++) {
		memset(a, 'a', n);
		a[n] = '\0';
		for (size_t i = 0; i < n; i++) {
			uint64_t h0 = si_hash(a, NULL), h1;

			a[i] = 'b';
			h1 = si_hash(a, NULL);
			a[i] = 'a';
			tried++;
			moved += (h0 & 1023) != (h1 & 1023);
		}
	}
	/* 820 one-byte changes; by chance about one in a thousand keeps the bits */
	CU_ASSERT(moved + 4 >= tried);
}

static CU_TestInfo strindex_tests[] = {
	{ "put and get through growth; other keys are not found", test_put_get_grow },
	{ "the hash: length, equal texts, every byte reaches the low bits", test_hash },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("strindex", strindex_tests);
}
