/*
 * The fleet-adoption lint rule (sim/lint/lint_fleet_adoption.c, MS271): a
 * derived FleetRollout over a member whose error budget reads exhausted,
 * with the exact finding (line:col, id, severity, message), and the fleets
 * and budgets that must not trigger it.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_fleet_adoption() runs.
 */
#include <stdlib.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_fleet_adoption.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_fleet_adoption", yaml, lint_fleet_adoption);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document: the budget series reads VALUES every minute (lines 1-8). */
#define SCENARIO(values)                                                               \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 1h\n"                                                              \
	"  metrics:\n"                                                                 \
	"    - {query: budget, interval: 1m, values: \"" values "\"}\n"                \
	"  models: {stagesets: {readiness: {delay: 1m}}}\n"

/* FleetRollout shop with spec lines FLEET (5 lines + FLEET). */
#define FLEET(fleet)                                                                   \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: FleetRollout\n"                                                         \
	"metadata: {name: shop}\n"                                                     \
	"spec:\n" fleet

#define WAVES                                                                          \
	"  selector: {matchLabels: {app: shop}}\n"                                     \
	"  waves: [{name: canary, selector: {matchLabels: {ring: \"0\"}}}]\n"

/* StageSet a/shop of ring 0 with a budget on `budget` (12 lines). */
#define MEMBER                                                                         \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: shop, namespace: a, labels: {app: shop, ring: \"0\"}}\n"    \
	"spec:\n"                                                                      \
	"  version: {value: \"1.0.0\", approvalMode: Always}\n"                        \
	"  errorBudget:\n"                                                             \
	"    source: {prometheus: {address: 'http://p:9090', query: budget}}\n"       \
	"    freezeThreshold: \"0.05\"\n"                                              \
	"    resumeThreshold: \"0.1\"\n"                                               \
	"  stages:\n"                                                                  \
	"    - {name: app, sourceRef: {kind: GitRepository, name: shop}}\n"

static void test_fires(void)
{
	expect_lint(SCENARIO("0.9x10 0.01x50") FLEET(WAVES) MEMBER,
		    "23:5: MS271 warning: StageSet a/shop, in wave \"canary\" of FleetRollout shop: its "
		    "error budget reads exhausted at 11m0s (remaining 0.01 < freezeThreshold 0.05), and a "
		    "budget hold keeps a deployed StageSet Ready True with no pendingVersion; the "
		    "FleetRollout has no targetVersion, so it counts a member without a pendingVersion "
		    "as adopted: the wave can settle and the fleet complete while this member still runs "
		    "its old version");
}

static void test_quiet(void)
{
	/* a budget that never runs out; a pinned fleet; a member no wave selects */
	expect_lint(SCENARIO("0.9x60") FLEET(WAVES) MEMBER, "");
	expect_lint(SCENARIO("0.01x60") FLEET("  targetVersion: \"1.1.0\"\n" WAVES) MEMBER, "");
	expect_lint(SCENARIO("0.01x60")
			    FLEET("  selector: {matchLabels: {app: shop}}\n"
				  "  waves: [{name: canary, selector: {matchLabels: {ring: \"1\"}}}]\n") MEMBER,
		    "");
}

static CU_TestInfo tests[] = {
	{ "MS271 a derived fleet over a budget-frozen member", test_fires },
	{ "MS271 quiet on a healthy budget, a pinned fleet, an unassigned member", test_quiet },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_fleet_adoption", tests);
}
