/*
 * The hand-stamped token lint rule (sim/lint/lint_ss_tokens.c, MS273): the
 * annotate and patch events that stamp a token the StageSet watch drops,
 * with the exact finding (line:col, id, severity, message), and those the
 * watch passes.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_ss_tokens() runs.
 */
#include <stdlib.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_tokens.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_ss_tokens", yaml, lint_ss_tokens);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document with one event line EVENT (lines 1-7). */
#define SCENARIO(event)                                                                \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 1h\n"                                                              \
	"  events:\n"                                                                  \
	"    - " event "\n"

/* StageSet shop/shop with SPEC lines (6 lines + SPEC). */
#define SS(spec)                                                                       \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: shop, namespace: shop}\n"                                    \
	"spec:\n" spec                                                                 \
	"  stages: [{name: s, sourceRef: {kind: GitRepository, name: shop}}]\n"

static void test_fires(void)
{
	expect_lint(SCENARIO("{at: 5m, annotate: {kind: StageSet, namespace: shop, name: shop, set: "
			     "{stages.metio.wtf/budget-override: b1}}}")
			    SS("  interval: 30m\n  retryInterval: 2m\n"),
		    "7:12: MS273 warning: scenario event 1 at 5m0s stamps stages.metio.wtf/budget-override "
		    "\"b1\" on StageSet shop/shop and changes nothing the StageSet watch passes (no "
		    "reconcile.fluxcd.io/requestedAt, no spec change): the controller drops the change, so "
		    "the StageSet reads the token only at its next pass of another cause (a requeue: "
		    "spec.interval 30m when steady, retryInterval 2m or a window's opening after a hold)");
	expect_lint(SCENARIO("{at: 5m, patch: {kind: StageSet, namespace: shop, name: shop, merge: "
			     "{metadata: {annotations: {stages.metio.wtf/reset-scope: r1}}}}}")
			    SS(""),
		    "7:12: MS273 warning: scenario event 1 at 5m0s stamps stages.metio.wtf/reset-scope "
		    "\"r1\" on StageSet shop/shop and changes nothing the StageSet watch passes (no "
		    "reconcile.fluxcd.io/requestedAt, no spec change): the controller drops the change, so "
		    "the StageSet reads the token only at its next pass of another cause (a requeue: the "
		    "controller's default interval when steady, retryInterval (unset: the interval) or a "
		    "window's opening after a hold)");
}

static void test_quiet(void)
{
	/* requestedAt beside it; a spec change in the same patch; an approval beside it */
	expect_lint(SCENARIO("{at: 5m, annotate: {kind: StageSet, namespace: shop, name: shop, set: "
			     "{stages.metio.wtf/update-now: u1, reconcile.fluxcd.io/requestedAt: u1}}}") SS(""),
		    "");
	expect_lint(SCENARIO("{at: 5m, patch: {kind: StageSet, namespace: shop, name: shop, merge: "
			     "{metadata: {annotations: {stages.metio.wtf/update-now: u1}}, spec: {interval: 5m}}}}")
			    SS(""),
		    "");
	expect_lint(SCENARIO("{at: 5m, annotate: {kind: StageSet, namespace: shop, name: shop, set: "
			     "{stages.metio.wtf/update-now: u1, stages.metio.wtf/approved-version: \"2.0.0\"}}}")
			    SS(""),
		    "");
}

static CU_TestInfo tests[] = {
	{ "MS273 a token stamped by annotate or patch alone", test_fires },
	{ "MS273 quiet when the same edit wakes the StageSet", test_quiet },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_tokens", tests);
}
