/*
 * The FleetRollout-surprise lint rules (sim/lint/lint_fleet_quirks.c, MS250
 * and MS251): the manifests and the scripted events that trigger them, with the exact
 * finding (line:col, id, severity, message), and those that must not.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_fleet_quirks() runs.  With LINT_QUIRKS_DUMP=1
 * in the environment a mismatch prints what lint said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/lint/lint.h"
#include "sim/lint/lint_fleet_quirks.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* lint_fleet_quirks() of @yaml written as m.yaml; the findings as text (new). */
static char *lint_yaml(const char *yaml)
{
	return fx_lint_yaml("test_lint_fleet_quirks", yaml, lint_fleet_quirks);
}

/* The findings of @yaml are @want (fx_same_text shows both on a mismatch). */
static void expect_lint(const char *yaml, const char *want)
{
	char *got = lint_yaml(yaml);

	fx_same_text(got, want);
	free(got);
}

#define EXPECT_LINT(yaml, want) expect_lint(yaml, want)

/* The Scenario document, lines 1-5, then EVENTS lines. */
#define SCENARIO(events)                                                               \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 1h\n" events

/* StageSet NS/shop offering VERSION inline (7 lines). */
#define SS(ns, version)                                                                \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: shop, namespace: " ns ", labels: {app: shop}}\n"             \
	"spec:\n"                                                                      \
	"  version: {value: \"" version "\", approvalMode: Always}\n"                  \
	"  stages: [{name: app, sourceRef: {kind: GitRepository, name: shop}}]\n"

/* FleetRollout shop pinned to TARGET (line 5 of its 8). */
#define FR(target)                                                                     \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: FleetRollout\n"                                                         \
	"metadata: {name: shop}\n"                                                     \
	"spec:\n"                                                                      \
	"  targetVersion: \"" target "\"\n"                                            \
	"  selector: {matchLabels: {app: shop}}\n"                                     \
	"  waves: [{name: all, selector: {}}]\n"

static void test_spelling(void)
{
	EXPECT_LINT(SCENARIO("") SS("a", "2.0.0") FR("v2.0.0"),
		    "18:18: MS250 error: FleetRollout shop: targetVersion \"v2.0.0\" is the version "
		    "\"2.0.0\" (StageSet \"a/shop\" spec.version.value) spelled differently, and "
		    "nothing in the scenario offers \"v2.0.0\" as written: the fleet counts a member "
		    "adopted only when its status.version is exactly \"v2.0.0\" and stamps that text "
		    "as approved-version, which a member under approvalMode Always compares as text "
		    "with the \"2.0.0\" it resolved, so no member adopts it and the first wave with "
		    "members never settles");
	/* build metadata: Compare ignores it, the text does not */
	EXPECT_LINT(SCENARIO("") SS("a", "2.0.0+b7") FR("2.0.0"),
		    "18:18: MS250 error: FleetRollout shop: targetVersion \"2.0.0\" is the version "
		    "\"2.0.0+b7\" (StageSet \"a/shop\" spec.version.value) spelled differently, and "
		    "nothing in the scenario offers \"2.0.0\" as written: the fleet counts a member "
		    "adopted only when its status.version is exactly \"2.0.0\" and stamps that text "
		    "as approved-version, which a member under approvalMode Always compares as text "
		    "with the \"2.0.0+b7\" it resolved, so no member adopts it and the first wave with "
		    "members never settles");
	/* the exact text, another version, or an offer of the exact text beside: nothing */
	EXPECT_LINT(SCENARIO("") SS("a", "2.0.0") FR("2.0.0"), "");
	EXPECT_LINT(SCENARIO("") SS("a", "1.0.0") FR("v2.0.0"), "");
	EXPECT_LINT(SCENARIO("") SS("a", "2.0.0") SS("b", "v2.0.0") FR("v2.0.0"), "");
}

static void test_spelling_events(void)
{
	/* a publish offers the other spelling; the fleet comes by an apply event */
	EXPECT_LINT(SCENARIO("  events:\n"
			     "    - at: 5m\n"
			     "      publish: {selector: {matchLabels: {app: shop}}, version: \"3.1.0\"}\n"
			     "    - at: 6m\n"
			     "      apply:\n"
			     "        apiVersion: stages.metio.wtf/v1\n"
			     "        kind: FleetRollout\n"
			     "        metadata: {name: shop}\n"
			     "        spec:\n"
			     "          targetVersion: \"v3.1.0\"\n"
			     "          selector: {matchLabels: {app: shop}}\n"
			     "          waves: [{name: all, selector: {}}]\n")
		    SS("a", "3.0.0"),
		    "15:26: MS250 error: FleetRollout shop: targetVersion \"v3.1.0\" is the version "
		    "\"3.1.0\" (the publish of scenario event 1) spelled differently, and nothing in "
		    "the scenario offers \"v3.1.0\" as written: the fleet counts a member adopted only "
		    "when its status.version is exactly \"v3.1.0\" and stamps that text as "
		    "approved-version, which a member under approvalMode Always compares as text with "
		    "the \"3.1.0\" it resolved, so no member adopts it and the first wave with members "
		    "never settles");
}

static void test_manual_approval(void)
{
	/* another version than the pinned target: overwritten; the target itself: not */
	EXPECT_LINT(SCENARIO("  events:\n"
			     "    - at: 5m\n"
			     "      annotate: {kind: StageSet, namespace: a, name: shop, set: {stages.metio.wtf/approved-version: \"2.1.0\"}}\n"
			     "    - at: 6m\n"
			     "      annotate: {kind: StageSet, namespace: a, name: shop, set: {stages.metio.wtf/approved-version: \"2.0.0\"}}\n")
			    SS("a", "2.0.0") FR("2.0.0"),
		    "7:11: MS251 warning: scenario event 1 at 5m0s sets "
		    "stages.metio.wtf/approved-version \"2.1.0\" on StageSet \"a/shop\", which "
		    "FleetRollout shop selects: the fleet stamps its targetVersion \"2.0.0\" as the "
		    "approved version of every member of its open waves on each pass that does not "
		    "halt, so it overwrites this approval once the member's wave is open (at once if "
		    "it is)");
	/* a StageSet the fleet does not select */
	EXPECT_LINT(SCENARIO("  events:\n"
			     "    - at: 5m\n"
			     "      annotate: {kind: StageSet, namespace: a, name: shop, set: {stages.metio.wtf/approved-version: \"2.1.0\"}}\n")
			    "---\n"
			    "apiVersion: stages.metio.wtf/v1\n"
			    "kind: StageSet\n"
			    "metadata: {name: shop, namespace: a, labels: {app: other}}\n"
			    "spec:\n"
			    "  version: {value: \"2.0.0\", approvalMode: Always}\n"
			    "  stages: [{name: app, sourceRef: {kind: GitRepository, name: shop}}]\n"
			    FR("2.0.0"),
		    "");
}

/*
 * The rows MS250 and MS251 (MS252 and up are the StageSet ledger rules,
 * test_lint_ss_ledgers): in id order from MS250, each with a name, a
 * summary citing the spec and a fix.
 */
static void test_rule_rows(void)
{
	size_t n, k = 0;
	const struct lint_rule *rules = lint_rules(&n);

	for (size_t i = 0; i < n; i++) {
		char want[8];

		if (strcmp(rules[i].id, "MS250") < 0 || strcmp(rules[i].id, "MS252") >= 0)
			continue;
		snprintf(want, sizeof(want), "MS%03zu", 250 + k++);
		CU_ASSERT_STRING_EQUAL(rules[i].id, want);
		CU_ASSERT(rules[i].name && rules[i].name[0]);
		CU_ASSERT(rules[i].summary && strstr(rules[i].summary, "(spec §6 #"));
		CU_ASSERT(rules[i].fix && rules[i].fix[0]);
	}
	CU_ASSERT_EQUAL(k, 2);
	CU_ASSERT_EQUAL(lint_rule("MS250")->sev, LINT_ERROR);
	CU_ASSERT_EQUAL(lint_rule("MS251")->sev, LINT_WARNING);
}

static CU_TestInfo tests[] = {
	{ "MS250 targetVersion spelled otherwise than a member's version", test_spelling },
	{ "MS250 against a publish, for an applied fleet", test_spelling_events },
	{ "MS251 a hand approval on a member of a pinned fleet", test_manual_approval },
	{ "the MS25x rows of the rule table", test_rule_rows },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_fleet_quirks", tests);
}
