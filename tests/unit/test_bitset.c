/*
 * engine/bitset: a set of small integers walked in ascending order through
 * a summary level.  Checked against a plain array of flags over random
 * puts, across word and summary-word boundaries.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/bitset.h"
#include "tests/unit/cu_main.h"

static uint32_t next_rand(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 8) & 0xffffff;
}

/* The walk from every start visits exactly the flagged members, in order. */
static void same_as_flags(const struct bs_set *s, const bool *flag, size_t n)
{
	size_t count = 0, want = 0;

	for (size_t i = 0; i < n; i++)
		count += flag[i];
	CU_ASSERT_EQUAL(s->count, count);
	for (size_t i = bs_next(s, 0); i != BS_NONE; i = bs_next(s, i + 1)) {
		while (want < n && !flag[want])
			want++;
		CU_ASSERT_EQUAL_FATAL(i, want);
		want++;
	}
	while (want < n && !flag[want])
		want++;
	CU_ASSERT_EQUAL(want, n);
}

static void test_random_against_flags(void)
{
	static const size_t sizes[] = { 0, 1, 63, 64, 65, 4095, 4096, 4097, 20000 };
	uint32_t seed = 7;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		bool *flag = calloc(n ? n : 1, sizeof(*flag));
		struct bs_set s;

		bs_init(&s, n);
		same_as_flags(&s, flag, n);
		for (int round = 0; round < 40 && n; round++) {
			/* sparse rounds and dense rounds */
			size_t puts = round % 2 ? n / 3 + 1 : 3;

			for (size_t p = 0; p < puts; p++) {
				size_t i = next_rand(&seed) % n;
				bool on = next_rand(&seed) % 3 != 0;

				bs_put(&s, i, on);
				flag[i] = on;
				CU_ASSERT_EQUAL(bs_has(&s, i), on);
			}
			same_as_flags(&s, flag, n);
		}
		CU_ASSERT_EQUAL(bs_next(&s, n), BS_NONE);
		bs_release(&s);
		free(flag);
	}
}

/* Members at the edges of words and summary words are found from any start. */
static void test_edges(void)
{
	struct bs_set s;

	bs_init(&s, 9000);
	bs_put(&s, 63, true);
	bs_put(&s, 4096, true);
	bs_put(&s, 8999, true);
	CU_ASSERT_EQUAL(bs_next(&s, 0), 63);
	CU_ASSERT_EQUAL(bs_next(&s, 63), 63);
	CU_ASSERT_EQUAL(bs_next(&s, 64), 4096);
	CU_ASSERT_EQUAL(bs_next(&s, 4097), 8999);
	CU_ASSERT_EQUAL(bs_next(&s, 9000), BS_NONE);
	bs_put(&s, 4096, false);
	bs_put(&s, 4096, false); /* removing twice changes nothing */
	CU_ASSERT_EQUAL(s.count, 2);
	CU_ASSERT_EQUAL(bs_next(&s, 64), 8999);
	bs_put(&s, 63, true); /* adding twice neither */
	CU_ASSERT_EQUAL(s.count, 2);
	bs_release(&s);
	bs_release(NULL);
}

static CU_TestInfo tests[] = {
	{ "random puts walk as a flag array", test_random_against_flags },
	{ "word and summary edges", test_edges },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("bitset", tests);
}
