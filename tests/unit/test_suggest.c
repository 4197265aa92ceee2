/* Tests for sim/base/suggest: the distance, the reach, and the choice among candidates. */
#include <string.h>

#include "sim/base/suggest.h"
#include "tests/unit/cu_main.h"

static unsigned dist(const char *a, const char *b)
{
	return sug_distance(a, strlen(a), b, strlen(b));
}

static const char *closest(const char *word, const char *const *cands)
{
	struct sug s;

	sug_init(&s, word);
	for (; *cands; cands++)
		sug_offer(&s, *cands);
	return sug_best(&s);
}

static void test_distance(void)
{
	CU_ASSERT_EQUAL(dist("", ""), 0);
	CU_ASSERT_EQUAL(dist("run", "run"), 0);
	CU_ASSERT_EQUAL(dist("runn", "run"), 1);        /* insertion */
	CU_ASSERT_EQUAL(dist("rn", "run"), 1);          /* deletion */
	CU_ASSERT_EQUAL(dist("rum", "run"), 1);         /* substitution */
	CU_ASSERT_EQUAL(dist("urn", "run"), 1);         /* adjacent transposition */
	CU_ASSERT_EQUAL(dist("Workspce", "Workspace"), 1);
	CU_ASSERT_EQUAL(dist("workspace", "Workspace"), 1); /* case only: not the same word */
	CU_ASSERT_EQUAL(dist("WORKSPACE", "Workspace"), 1);
	CU_ASSERT_EQUAL(dist("kitten", "sitting"), 3);
	CU_ASSERT_EQUAL(dist("abc", ""), 3);
	CU_ASSERT_EQUAL(dist("ca", "abc"), 3); /* OSA: no edit of a transposed pair */
}

static void test_too_long(void)
{
	char a[SUG_MAX_LEN + 2];

	memset(a, 'a', sizeof(a) - 1);
	a[sizeof(a) - 1] = '\0';
	CU_ASSERT_EQUAL(sug_distance(a, strlen(a), "a", 1), SUG_FAR);
	CU_ASSERT_EQUAL(sug_distance(a, SUG_MAX_LEN, a, SUG_MAX_LEN), 0);
}

static void test_choice(void)
{
	static const char *const cmds[] = { "run", "check", "lint", "compare", "merge", "version",
					    "help", NULL };
	static const char *const kinds[] = { "Workspace", "Project", "Rollout", "FleetRollout",
					     "StageSet", NULL };
	static const char *const keys[] = { "seed", "horizon", "start", "include", "models",
					    "events", "metrics", NULL };

	CU_ASSERT_STRING_EQUAL(closest("runn", cmds), "run");
	CU_ASSERT_STRING_EQUAL(closest("chekc", cmds), "check");
	CU_ASSERT_STRING_EQUAL(closest("comapre", cmds), "compare");
	CU_ASSERT_STRING_EQUAL(closest("Workspce", kinds), "Workspace");
	CU_ASSERT_STRING_EQUAL(closest("stageset", kinds), "StageSet");
	CU_ASSERT_STRING_EQUAL(closest("horizn", keys), "horizon");
	/* Out of reach, or the word itself: nothing. */
	CU_ASSERT_PTR_NULL(closest("frobnicate", cmds));
	CU_ASSERT_PTR_NULL(closest("run", cmds));
	CU_ASSERT_PTR_NULL(closest("x", keys));
	CU_ASSERT_PTR_NULL(closest("ConfigMap", kinds));
	/* A short word reaches one edit only: "sed" is "seed" but "sd" is not. */
	CU_ASSERT_STRING_EQUAL(closest("sed", keys), "seed");
	CU_ASSERT_PTR_NULL(closest("sd", keys));
}

static void test_ties_and_prefix(void)
{
	static const char *const two[] = { "soak", "seak", NULL };
	struct sug s;

	/* Equals: the first offered wins. */
	CU_ASSERT_STRING_EQUAL(closest("sak", two), "soak");
	/* A closer later candidate replaces an earlier one. */
	sug_init(&s, "gate");
	sug_offer(&s, "gates");
	sug_offer(&s, NULL);
	sug_offer(&s, "");
	sug_offer(&s, "gate_");
	CU_ASSERT_STRING_EQUAL(sug_best(&s), "gates");
	sug_offer(&s, "Gate");
	CU_ASSERT_STRING_EQUAL(sug_best(&s), "gates"); /* equal distance: the first stays */
	/* Only the first @len bytes of the word count: "--jsn=x" compares "jsn". */
	sug_init_len(&s, "jsn=out.json", 3);
	sug_offer(&s, "json");
	sug_offer(&s, "csv");
	CU_ASSERT_STRING_EQUAL(sug_best(&s), "json");
}

static CU_TestInfo tests[] = {
	{ "optimal string alignment distance", test_distance },
	{ "words past SUG_MAX_LEN are far", test_too_long },
	{ "the closest within reach", test_choice },
	{ "ties, NULL and empty offers, a prefix of the word", test_ties_and_prefix },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("suggest", tests);
}
