/*
 * The RefWatcher-memory lint rule (sim/lint/lint_magos_resume.c, MS122): a
 * Workspace that comes with a branch name as status.observedRevision and
 * no RefWatcher memory, with the exact finding (line:col, id, severity,
 * message), and the near misses: a SHA, no observedRevision, the memory of
 * a snapshot of the simulator.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_magos_resume() runs.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_magos_resume.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_magos_resume", yaml, lint_magos_resume);

	fx_same_text(got, want);
	free(got);
}

/* Workspace shop/dev (lines 1-10, status from line 11) with ANNOTATIONS and status STATUS. */
#define WS(annotations, status)                                                                \
	"apiVersion: magosproject.io/v1alpha1\n"                                               \
	"kind: Workspace\n"                                                                    \
	"metadata:\n"                                                                          \
	"  name: dev\n"                                                                        \
	"  namespace: shop\n"                                                                  \
	"  annotations: {magosproject.io/git-poll-interval: 5m" annotations "}\n"              \
	"spec:\n"                                                                              \
	"  projectRef: {name: shop}\n"                                                         \
	"  source: {repoURL: https://git.example.com/shop.git, targetRevision: main, path: dev}\n" \
	"  terraform: {version: \"1.14.8\"}\n"                                                 \
	"status:\n" status

#define SHA "25b409248551f4ce9eca7697852549e63bd04247"

static void test_fires(void)
{
	expect_lint(WS("", "  phase: Applied\n  observedRevision: main\n"),
		    "13:3: MS122 warning: Workspace shop/dev comes with status.observedRevision \"main\", not a "
		    "commit SHA (every run but a revision run records the branch name), and without the "
		    "RefWatcher's memory (state.magos-sim.io/refwatcher, which only a snapshot of the simulator "
		    "carries): the RefWatcher seeds the SHA it last saw from observedRevision, as after a "
		    "restart, so its first poll (within its git-poll-interval 5m) reads the head of \"main\" as "
		    "a new revision and the Workspace resets NewRevisionDetected for a new run with no new "
		    "commit");
	/* an abbreviated SHA is not what the RefWatcher reads either */
	expect_lint(WS("", "  observedRevision: 25b4092\n"),
		    "12:3: MS122 warning: Workspace shop/dev comes with status.observedRevision \"25b4092\", not a "
		    "commit SHA (every run but a revision run records the branch name), and without the "
		    "RefWatcher's memory (state.magos-sim.io/refwatcher, which only a snapshot of the simulator "
		    "carries): the RefWatcher seeds the SHA it last saw from observedRevision, as after a "
		    "restart, so its first poll (within its git-poll-interval 5m) reads the head of \"main\" as "
		    "a new revision and the Workspace resets NewRevisionDetected for a new run with no new "
		    "commit");
}

static void test_quiet(void)
{
	expect_lint(WS("", "  phase: Applied\n  observedRevision: " SHA "\n"), ""); /* a SHA: compared as it should be */
	expect_lint(WS("", "  phase: Pending\n"), "");                            /* "" seeds quietly */
	expect_lint(WS(", state.magos-sim.io/refwatcher: \"lastSHA=" SHA " url=https://git.example.com/shop.git "
		       "ref=main intervalMs=300000 polls=\"",
		       "  phase: Applied\n  observedRevision: main\n"),
		    ""); /* the memory of a snapshot of the simulator */
}

static void test_row(void)
{
	const struct lint_rule *r = lint_rule("MS122");

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(r->name, "refwatcher-seeded-from-branch");
	CU_ASSERT_PTR_NOT_NULL(strstr(r->summary, "§7 #18"));
	CU_ASSERT(r->fix && r->fix[0]);
}

static CU_TestInfo tests[] = {
	{ "MS122 observedRevision a branch name, no RefWatcher memory", test_fires },
	{ "MS122 near misses", test_quiet },
	{ "the MS122 row", test_row },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_magos_resume", tests);
}
