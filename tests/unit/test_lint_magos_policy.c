/*
 * The policy-validation lint rules (sim/lint/lint_magos_policy.c, MS120 and
 * MS121): the Workspace and Project selectors that trigger them, with the
 * exact finding (line:col, id, severity, message), and those that must not.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_magos_policy() runs.
 */
#include <stdlib.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_magos_policy.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_magos_policy", yaml, lint_magos_policy);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document (lines 1-5). */
#define SCENARIO                                                                       \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 1h\n"

/* Project shop with spec SPEC (lines 6-10). */
#define PROJECT(spec)                                                                  \
	"---\n"                                                                        \
	"apiVersion: magosproject.io/v1alpha1\n"                                       \
	"kind: Project\n"                                                              \
	"metadata: {name: shop, namespace: default}\n"                                 \
	"spec: " spec "\n"

/* Workspace NAME of project shop, then EXTRA spec lines (8 lines + EXTRA). */
#define WS(name, extra)                                                                \
	"---\n"                                                                        \
	"apiVersion: magosproject.io/v1alpha1\n"                                       \
	"kind: Workspace\n"                                                            \
	"metadata: {name: " name ", namespace: default}\n"                             \
	"spec:\n"                                                                      \
	"  projectRef: {name: shop}\n"                                                 \
	"  source: {repoURL: https://git.example.com/i.git, targetRevision: main}\n"  \
	"  terraform: {version: \"1.14.8\"}\n" extra

/* ValidatingPolicy NAME (5 lines). */
#define POLICY(name)                                                                   \
	"---\n"                                                                        \
	"apiVersion: policies.kyverno.io/v1\n"                                         \
	"kind: ValidatingPolicy\n"                                                     \
	"metadata: {name: " name ", labels: {team: infra}}\n"                          \
	"spec: {validations: [{expression: 'true'}]}\n"

static void test_empty_own(void)
{
	/* the Workspace's own {}: the Project's selector is not used either */
	expect_lint(SCENARIO PROJECT("{validation: {policySelector: {matchLabels: {team: infra}}}}")
			    WS("w", "  validation: {policySelector: {}}\n") POLICY("a") POLICY("b"),
		    "19:32: MS120 warning: Workspace \"default/w\": its validation.policySelector is "
		    "{}, which the field's doc says matches every ValidatingPolicy, but the Workspace "
		    "controller turns the empty selector into \"\", which means no validation: its plan "
		    "Jobs get no MAGOS_POLICY_SELECTOR and its plans never end ValidationFailed, so "
		    "none of the 2 ValidatingPolicies of the inputs (\"a\", ...) is ever checked, and "
		    "its Project's policySelector is not used either");
	/* empty matchLabels and matchExpressions print "" too */
	expect_lint(SCENARIO PROJECT("{}")
			    WS("w", "  validation: {policySelector: {matchLabels: {}, matchExpressions: []}}\n"),
		    "19:32: MS120 warning: Workspace \"default/w\": its validation.policySelector is "
		    "{}, which the field's doc says matches every ValidatingPolicy, but the Workspace "
		    "controller turns the empty selector into \"\", which means no validation: its plan "
		    "Jobs get no MAGOS_POLICY_SELECTOR and its plans never end ValidationFailed, no "
		    "ValidatingPolicy is in the inputs either");
}

static void test_empty_project(void)
{
	/* no validation, and validation without a selector: both fall back to the Project's {} */
	expect_lint(SCENARIO PROJECT("{validation: {policySelector: {}}}") WS("w", "")
			    WS("v", "  validation: {}\n") POLICY("a"),
		    "10:37: MS120 warning: Workspace \"default/v\" sets validation without a "
		    "policySelector and so falls back to Project \"default/shop\"'s "
		    "validation.policySelector, which is {}: the field's doc says {} matches every "
		    "ValidatingPolicy, but the Workspace controller turns the empty selector into "
		    "\"\", which means no validation: the Workspace's plan Jobs get no "
		    "MAGOS_POLICY_SELECTOR and its plans never end ValidationFailed, so "
		    "ValidatingPolicy \"a\" of the inputs is never checked\n"
		    "10:37: MS120 warning: Workspace \"default/w\" falls back to Project "
		    "\"default/shop\"'s validation.policySelector, which is {}: the field's doc says "
		    "{} matches every ValidatingPolicy, but the Workspace controller turns the empty "
		    "selector into \"\", which means no validation: the Workspace's plan Jobs get no "
		    "MAGOS_POLICY_SELECTOR and its plans never end ValidationFailed, so "
		    "ValidatingPolicy \"a\" of the inputs is never checked");
}

static void test_inherits(void)
{
	expect_lint(SCENARIO PROJECT("{validation: {policySelector: {matchLabels: {team: infra}}}}")
			    WS("w", "  validation: {}\n"),
		    "19:15: MS121 warning: Workspace \"default/w\": spec.validation is set without a "
		    "policySelector; the field's doc says a non-nil validation overrides the "
		    "Project's default, but the Workspace controller falls back to Project "
		    "\"default/shop\"'s policySelector whenever the Workspace's own is nil, so its "
		    "plans are checked against the Project's policies (selector \"team=infra\") and "
		    "fail ValidationFailed on their violations");
}

static void test_quiet(void)
{
	/* selectors that name labels; no validation anywhere; a Project without a selector */
	expect_lint(SCENARIO PROJECT("{validation: {policySelector: {matchLabels: {team: infra}}}}")
			    WS("w", "") WS("v", "  validation: {policySelector: {matchLabels: {x: y}}}\n"),
		    "");
	expect_lint(SCENARIO PROJECT("{}") WS("w", "") WS("v", "  validation: {}\n"), "");
	expect_lint(SCENARIO PROJECT("{validation: {}}") WS("v", "  validation: {}\n"), "");
	/* a Workspace of a Project that does not exist */
	expect_lint(SCENARIO WS("w", "  validation: {}\n"), "");
}

static CU_TestInfo tests[] = {
	{ "MS120 a Workspace's own policySelector {}", test_empty_own },
	{ "MS120 a Project's policySelector {}", test_empty_project },
	{ "MS121 validation {} falls back to the Project", test_inherits },
	{ "MS120, MS121 quiet on selectors that name labels", test_quiet },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_magos_policy", tests);
}
