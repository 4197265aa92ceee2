/*
 * The metric-source lint rule (sim/lint/lint_ss_sources.c, MS270): the
 * analysis settings that trigger it, with the exact finding (line:col, id,
 * severity, message), with and without an outage of the scenario's series,
 * and the settings that must not.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_ss_sources() runs.
 */
#include <stdlib.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_sources.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_ss_sources", yaml, lint_ss_sources);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document with METRICS lines (lines 1-6 + METRICS). */
#define SCENARIO(metrics)                                                              \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 2h\n"                                                              \
	"  metrics:\n" metrics

/* StageSet shop/shop (rollbackOnFailure ROF) whose stage canary has analysis ANALYSIS (13 lines). */
#define STAGESET(rof, analysis)                                                        \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: shop, namespace: shop}\n"                                    \
	"spec:\n"                                                                      \
	"  rollbackOnFailure: " rof "\n"                                               \
	"  version: {value: \"2.0.0\"}\n"                                              \
	"  stages:\n"                                                                  \
	"    - name: canary\n"                                                         \
	"      sourceRef: {kind: GitRepository, name: shop}\n"                         \
	"      promotion:\n"                                                           \
	"        analysis: {" analysis ", checks: [{name: err, source: {prometheus: "  \
	"{address: 'http://p:9090', query: q}}, threshold: {max: '0.01'}}]}\n"        \
	"    - {name: prod, sourceRef: {kind: GitRepository, name: prod}}\n"

#define STEADY "    - {query: q, values: \"0x120\"}\n"
#define OUTAGE "    - {query: q, values: \"0x120\", unavailable: [{from: 30m, until: 35m}]}\n"


static void test_fires(void)
{
	expect_lint(SCENARIO(STEADY) STAGESET("true", "onFailure: Rollback"),
		    "16:7: MS270 warning: StageSet shop/shop: stage \"canary\"'s promotion analysis has "
		    "onFailure Rollback, onSourceError Hold (the default) and failureLimit 0: one "
		    "evaluation its metric source cannot answer (an HTTP error, no sample, a timeout) "
		    "counts as a failure, so a source outage at a pass that gates a new revision rolls "
		    "the stage back to its last-good revision however healthy the new one is, and that "
		    "revision stays aborted: the stage keeps the old one and the later stages never get "
		    "the new one, until another revision comes");
	/* an explicit Hold and failureLimit 0; an outage of the check's series */
	expect_lint(SCENARIO(OUTAGE)
			    STAGESET("true", "onFailure: Rollback, onSourceError: Hold, failureLimit: 0"),
		    "16:7: MS270 warning: StageSet shop/shop: stage \"canary\"'s promotion analysis has "
		    "onFailure Rollback, onSourceError Hold and failureLimit 0: one evaluation its metric "
		    "source cannot answer (an HTTP error, no sample, a timeout) counts as a failure, so a "
		    "source outage at a pass that gates a new revision rolls the stage back to its "
		    "last-good revision however healthy the new one is, and that revision stays aborted: "
		    "the stage keeps the old one and the later stages never get the new one, until "
		    "another revision comes; the scenario's source of check \"err\" is unavailable from "
		    "30m0s to 35m0s: a pass in that window that gates a new revision would revert it");
}

static void test_quiet(void)
{
	/* a failure limit, onSourceError Allow, Hold on failure, dryRun, no snapshot (MS240's case) */
	expect_lint(SCENARIO(OUTAGE) STAGESET("true", "onFailure: Rollback, failureLimit: 1"), "");
	expect_lint(SCENARIO(OUTAGE) STAGESET("true", "onFailure: Rollback, onSourceError: Allow"), "");
	expect_lint(SCENARIO(OUTAGE) STAGESET("true", "onFailure: Hold"), "");
	expect_lint(SCENARIO(OUTAGE) STAGESET("true", "onFailure: Rollback, dryRun: true"), "");
	expect_lint(SCENARIO(OUTAGE) STAGESET("false", "onFailure: Rollback"), "");
}

static CU_TestInfo tests[] = {
	{ "MS270 fires on Rollback, Hold and failureLimit 0", test_fires },
	{ "MS270 quiet on a limit, Allow, Hold, dryRun or no snapshot", test_quiet },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_sources", tests);
}
