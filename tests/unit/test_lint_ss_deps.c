/*
 * The dependency lint rule (sim/lint/lint_ss_deps.c, MS272): a publish that
 * reaches a dependency and not its dependent, with the exact finding
 * (line:col, id, severity, message), and the publishes that must not
 * trigger it.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_ss_deps() runs.
 */
#include <stdlib.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_deps.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_ss_deps", yaml, lint_ss_deps);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document with a publish of 2.1.0 to SELECTOR at 30m (lines 1-7). */
#define SCENARIO(selector)                                                             \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 1h\n"                                                              \
	"  events:\n"                                                                  \
	"    - {at: 30m, publish: {selector: " selector ", version: \"2.1.0\"}}\n"

/* StageSet NAME of namespace ns1 labelled app: NAME with EXTRA spec lines (7 lines + EXTRA). */
#define SS(name, extra) SSV(name, "{value: \"2.0.0\"}", extra)
#define SSV(name, version, extra)                                                      \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: " name ", namespace: ns1, labels: {app: " name "}}\n"         \
	"spec:\n"                                                                      \
	"  version: " version "\n"                                                     \
	"  stages: [{name: s, sourceRef: {kind: GitRepository, name: " name "}}]\n" extra

static void test_fires(void)
{
	expect_lint(SCENARIO("{matchLabels: {app: db}}") SSV("db", "{value: \"2.0.0\", approvalMode: Always}", "")
			    SS("app", "  dependsOn: [{name: db}]\n"),
		    "22:15: MS272 warning: StageSet ns1/app dependsOn ns1/db, and scenario event 1 at 30m0s "
		    "publishes 2.1.0 to ns1/db and not to ns1/app: the controller checks dependencies on every "
		    "pass, and ns1/db is not ready while it rolls that version out (with approvalMode Always "
		    "it waits for an approval first), so ns1/app, if deployed by then, turns Ready False "
		    "DependencyNotReady on its next pass although it has nothing to roll out, and skips its "
		    "own drift correction until ns1/db is Ready again");
}

static void test_quiet(void)
{
	/* a publish to both; a publish to the dependent alone; no dependsOn */
	expect_lint(SCENARIO("{}") SS("db", "") SS("app", "  dependsOn: [{name: db}]\n"), "");
	expect_lint(SCENARIO("{matchLabels: {app: app}}") SS("db", "") SS("app", "  dependsOn: [{name: db}]\n"), "");
	expect_lint(SCENARIO("{matchLabels: {app: db}}") SS("db", "") SS("app", ""), "");
}

static CU_TestInfo tests[] = {
	{ "MS272 a publish to the dependency alone", test_fires },
	{ "MS272 quiet on a publish to both, to the dependent, without dependsOn", test_quiet },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_deps", tests);
}
