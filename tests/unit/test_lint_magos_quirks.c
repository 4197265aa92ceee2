/*
 * The Workspace-surprise lint rules (sim/lint/lint_magos_quirks.c, MS117 to
 * MS119): for each rule the manifests and the scripted events that trigger
 * it, with the exact finding (file:line:col, id, severity, message), and
 * those that must not.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_magos_quirks() runs.  With LINT_QUIRKS_DUMP=1
 * in the environment a mismatch prints what lint said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/lint/lint.h"
#include "sim/lint/lint_magos_quirks.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* lint_magos_quirks() of @yaml written as m.yaml; the findings as text (new). */
static char *lint_yaml(const char *yaml)
{
	return fx_lint_yaml("test_lint_magos_quirks", yaml, lint_magos_quirks);
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

/* Project and Rollout shop (12 lines). */
#define ROLLOUT                                                                        \
	"---\n"                                                                        \
	"apiVersion: magosproject.io/v1alpha1\n"                                       \
	"kind: Project\n"                                                              \
	"metadata: {name: shop, namespace: default}\n"                                 \
	"spec: {}\n"                                                                   \
	"---\n"                                                                        \
	"apiVersion: magosproject.io/v1alpha1\n"                                       \
	"kind: Rollout\n"                                                              \
	"metadata: {name: shop, namespace: default}\n"                                 \
	"spec:\n"                                                                      \
	"  projectRef: shop\n"                                                         \
	"  strategy: {steps: [{name: all, selector: {}}]}\n"

/* Workspace NAME of project shop with annotations ANN and target REV, then EXTRA (8 lines + EXTRA). */
#define WS(name, ann, rev, extra)                                                      \
	"---\n"                                                                        \
	"apiVersion: magosproject.io/v1alpha1\n"                                       \
	"kind: Workspace\n"                                                            \
	"metadata: {name: " name ", namespace: default, annotations: " ann "}\n"       \
	"spec:\n"                                                                      \
	"  projectRef: {name: shop}\n"                                                 \
	"  source: {repoURL: https://git.example.com/i.git, targetRevision: " rev "}\n" \
	"  terraform: {version: \"1.14.8\"}\n" extra

static void test_empty_revision(void)
{
	/* an empty value, a Rollout orchestrating the project: the step never completes */
	EXPECT_LINT(SCENARIO("") ROLLOUT WS("w", "{magosproject.io/detected-revision: \"\"}", "main", ""),
		    "21:90: MS117 error: Workspace \"default/w\": annotation "
		    "magosproject.io/detected-revision is present but empty: after each apply "
		    "observedRevision is \"main\", which differs from \"\", so the next pass resets it "
		    "(NewRevisionDetected) and it plans and applies again, and a successful apply "
		    "removes the key only when it has a value, so this repeats forever; its Rollout "
		    "counts it pending on every pass, so its step never completes and the later steps "
		    "never open");
	/* a SHA: consumed by the first apply; no annotation: nothing */
	EXPECT_LINT(SCENARIO("") ROLLOUT WS("w", "{magosproject.io/detected-revision: abc123}", "main", "")
			    WS("v", "{}", "main", ""),
		    "");
	/* an empty targetRevision: observedRevision is "" after the first apply, no loop */
	EXPECT_LINT(SCENARIO("") ROLLOUT WS("w", "{magosproject.io/detected-revision: \"\"}", "\"\"", ""),
		    "");
}

static void test_empty_revision_events(void)
{
	/* an annotate and a patch event; a Workspace of no Rollout: no word of a step */
	EXPECT_LINT(SCENARIO("  events:\n"
			     "    - at: 5m\n"
			     "      annotate: {kind: Workspace, name: w, set: {magosproject.io/detected-revision: \"\"}}\n"
			     "    - at: 6m\n"
			     "      patch: {kind: Workspace, name: w, merge: {metadata: {annotations: {magosproject.io/detected-revision: \"\"}}}}\n"
			     "    - at: 7m\n"
			     "      annotate: {kind: Workspace, name: w, set: {magosproject.io/detected-revision: abc}}\n")
		    WS("w", "{}", "main", ""),
		    "7:11: MS117 error: scenario event 1 at 5m0s: Workspace \"default/w\": annotation "
		    "magosproject.io/detected-revision is present but empty: after each apply "
		    "observedRevision is \"main\", which differs from \"\", so the next pass resets it "
		    "(NewRevisionDetected) and it plans and applies again, and a successful apply "
		    "removes the key only when it has a value, so this repeats forever\n"
		    "10:109: MS117 error: scenario event 2 at 6m0s: Workspace \"default/w\": annotation "
		    "magosproject.io/detected-revision is present but empty: after each apply "
		    "observedRevision is \"main\", which differs from \"\", so the next pass resets it "
		    "(NewRevisionDetected) and it plans and applies again, and a successful apply "
		    "removes the key only when it has a value, so this repeats forever");
}

static void test_timeout(void)
{
	EXPECT_LINT(SCENARIO("") ROLLOUT
			    WS("w", "{}", "main",
			       "  plan: {timeoutSeconds: -5}\n"
			       "  apply: {timeoutSeconds: 0}\n")
				    WS("v", "{}", "main",
				       "  plan: {timeoutSeconds: 1}\n"
				       "  apply: {}\n"),
		    "26:26: MS118 error: Workspace \"default/w\": spec.plan.timeoutSeconds is -5: the "
		    "plan Job gets it as activeDeadlineSeconds, which the Job API refuses below 0, so "
		    "the Workspace fails with ReconcileError each time it would plan, the next pass "
		    "resets it (ConfigurationChanged) and it never plans\n"
		    "27:27: MS118 error: Workspace \"default/w\": spec.apply.timeoutSeconds is 0: the "
		    "apply Job's deadline is over when it starts, so it fails with DeadlineExceeded "
		    "without running (ApplyFailed), and so does every retry; a Job that fails before "
		    "its first pod has no failed pods, and upstream the Workspace may then look "
		    "Applying forever");
}

static void test_timeout_events(void)
{
	/* a patch of the spec and an applied Workspace */
	EXPECT_LINT(SCENARIO("  events:\n"
			     "    - at: 5m\n"
			     "      patch: {kind: Workspace, name: w, merge: {spec: {apply: {timeoutSeconds: -3}}}}\n"
			     "    - at: 6m\n"
			     "      apply:\n"
			     "        apiVersion: magosproject.io/v1alpha1\n"
			     "        kind: Workspace\n"
			     "        metadata: {name: x, namespace: default}\n"
			     "        spec:\n"
			     "          projectRef: {name: shop}\n"
			     "          source: {repoURL: https://git.example.com/i.git, targetRevision: main}\n"
			     "          terraform: {version: \"1.14.8\"}\n"
			     "          plan: {timeoutSeconds: 0}\n")
		    WS("w", "{}", "main", ""),
		    "8:80: MS118 error: scenario event 1 at 5m0s: Workspace \"default/w\": "
		    "spec.apply.timeoutSeconds is -3: the apply Job gets it as activeDeadlineSeconds, "
		    "which the Job API refuses below 0, so the Workspace fails with ReconcileError "
		    "after its plan and never applies\n"
		    "18:34: MS118 error: scenario event 2 at 6m0s: Workspace \"default/x\": "
		    "spec.plan.timeoutSeconds is 0: the plan Job's deadline is over when it starts, so "
		    "it fails with DeadlineExceeded without running (PlanFailed), and so does every "
		    "retry; a Job that fails before its first pod has no failed pods, and upstream the "
		    "Workspace may then look Planning forever");
}

static void test_auto_apply_flip(void)
{
	/* false → true, and true (the CRD's default when the manifest leaves it out) → false */
	EXPECT_LINT(SCENARIO("  events:\n"
			     "    - at: 5m\n"
			     "      patch: {kind: Workspace, name: w, merge: {spec: {autoApply: true}}}\n"
			     "    - at: 6m\n"
			     "      patch: {kind: Workspace, name: v, merge: {spec: {autoApply: false}}}\n")
		    WS("w", "{}", "main", "  autoApply: false\n") WS("v", "{}", "main", ""),
		    "8:67: MS119 warning: scenario event 1 at 5m0s: Workspace \"default/w\": the patch "
		    "sets spec.autoApply to true (false before): autoApply is part of the spec hash, so "
		    "the Workspace takes the change for a new spec (ConfigurationChanged) and plans "
		    "again; a plan waiting in Planned for approval is replaced, not applied, and one "
		    "planning or applying runs beside the new plan Job\n"
		    "10:67: MS119 warning: scenario event 2 at 6m0s: Workspace \"default/v\": the patch "
		    "sets spec.autoApply to false (true before): autoApply is part of the spec hash, so "
		    "the Workspace takes the change for a new spec (ConfigurationChanged) and plans "
		    "again; a plan waiting in Planned for approval is replaced, not applied");
	/* the value the manifest has: nothing */
	EXPECT_LINT(SCENARIO("  events:\n"
			     "    - at: 5m\n"
			     "      patch: {kind: Workspace, name: w, merge: {spec: {autoApply: false}}}\n")
		    WS("w", "{}", "main", "  autoApply: false\n") WS("v", "{}", "main", ""),
		    "");
}

static CU_TestInfo tests[] = {
	{ "MS117 empty detected-revision in a manifest", test_empty_revision },
	{ "MS117 empty detected-revision by an event", test_empty_revision_events },
	{ "MS118 timeoutSeconds zero or negative", test_timeout },
	{ "MS118 timeoutSeconds by an event", test_timeout_events },
	{ "MS119 autoApply changed by an event", test_auto_apply_flip },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_magos_quirks", tests);
}
