/*
 * The burned reset-scope rule (sim/lint/lint_ss_reset.c, MS259): a token
 * stamped while the StageSet world fails the first stage, with the exact
 * finding (line:col, id, severity, message), and the near misses: stamped
 * outside the fault, no Version-scoped action after the first stage, a
 * failure that is not certain.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_ss_reset() runs.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_reset.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_ss_reset", yaml, lint_ss_reset);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document with MODELS lines and a reset-scope stamp at AT (line 7 or 8). */
#define SCENARIO(models, at)                                                                       \
	"apiVersion: magos-sim/v1alpha1\n"                                                         \
	"kind: Scenario\n"                                                                         \
	"metadata: {name: q}\n"                                                                    \
	"spec:\n" models "  events:\n"                                                             \
	"    - {at: 30m, regress: {namespace: shop, name: shop, for: 20m}}\n"                      \
	"    - {at: " at ", annotate: {kind: StageSet, namespace: shop, name: shop, set: "         \
	"{stages.metio.wtf/reset-scope: r1, reconcile.fluxcd.io/requestedAt: r1}}}\n"

/* StageSet shop/shop: stages staging and prod, prod's post action SCOPE. */
#define SS(scope)                                                                                  \
	"---\n"                                                                                    \
	"apiVersion: stages.metio.wtf/v1\n"                                                        \
	"kind: StageSet\n"                                                                         \
	"metadata: {name: shop, namespace: shop, labels: {app: shop}}\n"                           \
	"spec:\n"                                                                                  \
	"  stages:\n"                                                                              \
	"    - {name: staging, sourceRef: {kind: GitRepository, name: shop}}\n"                    \
	"    - name: prod\n"                                                                       \
	"      sourceRef: {kind: GitRepository, name: shop}\n"                                     \
	"      actions: {post: [{name: smoke, " scope "http: {url: \"https://smoke.example.com\"}}]}\n"

#define TAIL                                                                                       \
	"so the pass that reads the token stops at its first stage \"staging\": it records the "   \
	"token as handled, but the status it writes keeps the version ledgers of the later stages, " \
	"and no later pass clears them, so their Version-scoped actions (prod: \"smoke\") do not "  \
	"run again"

static void test_fires(void)
{
	expect_lint(SCENARIO("", "35m") SS("scope: Version, "),
		    "7:12: MS259 warning: scenario event 2 at 35m0s stamps stages.metio.wtf/reset-scope \"r1\" "
		    "on StageSet shop/shop while the regress event at 30m0s fails its workload for 20m0s, " TAIL);
	expect_lint(SCENARIO("  models: {stagesets: {apply: {failure: {during: [{from: 1h, until: 2h}]}}}}\n", "90m")
			    SS("scope: Version, "),
		    "8:12: MS259 warning: scenario event 2 at 1h30m0s stamps stages.metio.wtf/reset-scope \"r1\" "
		    "on StageSet shop/shop while its apply fails at \"apply\" then (apply.failure, probability 1), "
		    TAIL);
}

static void test_quiet(void)
{
	expect_lint(SCENARIO("", "55m") SS("scope: Version, "), "");    /* after the fault */
	expect_lint(SCENARIO("", "35m") SS(""), "");                     /* a Revision-scoped action */
	expect_lint(SCENARIO("  models: {stagesets: {apply: {failure: {probability: 0.5, during: "
			     "[{from: 1h, until: 2h}]}}}}\n",
			     "90m") SS("scope: Version, "),
		    ""); /* a failure that may not strike */
}

static void test_row(void)
{
	const struct lint_rule *r = lint_rule("MS259");

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(r->name, "reset-scope-burned-early");
	CU_ASSERT_PTR_NOT_NULL(strstr(r->summary, "§5 Q-11"));
	CU_ASSERT(r->fix && r->fix[0]);
}

static CU_TestInfo tests[] = {
	{ "MS259 reset-scope stamped while the first stage fails", test_fires },
	{ "MS259 near misses", test_quiet },
	{ "the MS259 row", test_row },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_reset", tests);
}
