/*
 * The StageSet failure rules of lint (sim/lint/lint_ss_failure.c,
 * MS226..MS231): for each rule a manifest that triggers it, with the exact
 * finding (file:line:col, id, severity, message), and the near misses that
 * must not.  Each manifest is written into a fresh temporary directory as
 * m.yaml and loaded with scn_load(); only lint_ss_failure() runs, and each
 * test looks at the findings of its own rule (`only`).  With
 * LINT_SS_DUMP=1 in the environment a mismatch prints what lint said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_failure.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* The rule whose findings lint_yaml() returns. */
static const char *only;

/* lint_ss_failure() of @yaml written as m.yaml: "line:col: ID sev: message" lines of rule `only` (new). */
static char *lint_yaml(const char *yaml)
{
	const char *path = "m.yaml";
	struct scenario s;
	struct diag d;
	struct lint_report r;
	char *out = xstrdup("");

	fx_tmp_enter("test_lint_ss_failure");
	fx_put(path, yaml);
	diag_init(&d);
	scn_load(&path, 1, &s, &d);
	lint_report_init(&r);
	lint_ss_failure(&r, &s);
	lint_report_sort(&r);
	for (size_t i = 0; i < r.n; i++) {
		char *next;

		if (strcmp(r.items[i].rule->id, only) != 0)
			continue;
		next = xasprintf("%s%s%u:%u: %s %s: %s", out, out[0] ? "\n" : "", r.items[i].mark.line,
				       r.items[i].mark.col, r.items[i].rule->id, lint_sev_name(r.items[i].sev),
				       r.items[i].msg);

		free(out);
		out = next;
	}
	lint_report_release(&r);
	scn_release(&s);
	diag_release(&d);
	fx_tmp_leave();
	return out;
}

static void expect(const char *what, char *got, const char *want)
{
	if (strcmp(got, want) != 0 && getenv("LINT_SS_DUMP"))
		fprintf(stderr, "\n--- %s: got\n%s\n--- want\n%s\n", what, got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

#define HEAD                                                                                       \
	"apiVersion: magos-sim/v1alpha1\n"                                                         \
	"kind: Scenario\n"                                                                         \
	"metadata: {name: t}\n"                                                                    \
	"spec:\n"                                                                                  \
	"  models:\n"                                                                              \
	"    stagesets:\n"

/* A StageSet web with @extra under spec (lines indented by two spaces), after the world. */
#define STAGESET(extra)                                                                            \
	"---\n"                                                                                    \
	"apiVersion: stages.metio.wtf/v1\n"                                                        \
	"kind: StageSet\n"                                                                         \
	"metadata: {name: web, namespace: default, labels: {app: shop}}\n"                         \
	"spec:\n" extra "  stages:\n"                                                              \
	"    - name: app\n"                                                                        \
	"      sourceRef: {kind: GitRepository, name: shop}\n"

#define LOOP_MSG(why, tail)                                                                        \
	"MS226 warning: StageSet default/web sets rollbackOnFailure and its stage \"app\" fails on " \
	"every try: " why "; each failed run is rolled back to the last-applied revisions, and the " \
	"next pass applies the same revision again, after an error back-off that doubles from 5ms " \
	"up to 16m40s, for as long as the source offers it: the controller never parks a whole-run " \
	"rollback; " tail

static void test_rollback_loop(void)
{
	only = "MS226";
	expect("readiness failed",
	       lint_yaml(HEAD "      readiness: {failedProbability: 1}\n" STAGESET(
		       "  rollbackOnFailure: true\n"
		       "  onRollback:\n"
		       "    - {name: notify, http: {url: \"https://hooks.example.com/x\"}}\n")),
	       "13:22: " LOOP_MSG("its objects become Failed after every apply of a new revision "
				  "(readiness.failedProbability 1)",
				  "its onRollback (1 action) runs on every cycle once a revision has "
				  "succeeded (the snapshot then exists)"));
	expect("apply failure, no onRollback",
	       lint_yaml(HEAD "      apply: {failure: {op: build}}\n" STAGESET("  rollbackOnFailure: true\n")),
	       "13:22: " LOOP_MSG("every apply fails at \"build\" (apply.failure.probability 1)",
				  "every cycle emits a RolledBack event"));
	expect("a regression of a published version",
	       lint_yaml("apiVersion: magos-sim/v1alpha1\n"
			 "kind: Scenario\n"
			 "metadata: {name: t}\n"
			 "spec:\n"
			 "  events:\n"
			 "    - {at: 10m, publish: {selector: {matchLabels: {app: shop}}, version: \"1.1.0\"}}\n"
			 "  models:\n"
			 "    stagesets:\n"
			 "      regression: {probability: 1, versions: [\"1.1.0\", \"9.9.9\"]}\n" STAGESET(
				 "  rollbackOnFailure: true\n")),
	       "15:22: " LOOP_MSG("a revision carrying version 1.1.0 regresses to Failed as soon as it "
				  "is ready (regression.probability 1, after 0s)",
				  "every cycle emits a RolledBack event"));
	/* near misses */
	expect("no rollbackOnFailure",
	       lint_yaml(HEAD "      readiness: {failedProbability: 1}\n" STAGESET("  timeout: 5m\n")), "");
	expect("a failure that is not certain",
	       lint_yaml(HEAD "      readiness: {failedProbability: 0.5}\n" STAGESET("  rollbackOnFailure: true\n")),
	       "");
	expect("an apply failure in a window",
	       lint_yaml(HEAD "      apply: {failure: {during: [{from: 1h, until: 2h}]}}\n" STAGESET(
		       "  rollbackOnFailure: true\n")),
	       "");
	expect("a regression of a version never offered",
	       lint_yaml(HEAD "      regression: {probability: 1, versions: [\"1.1.0\"]}\n" STAGESET(
		       "  rollbackOnFailure: true\n")),
	       "");
	/* a regression after a while is no rollback loop but a steady-state fault (MS230) */
	expect("a regression after a while",
	       lint_yaml(HEAD "      regression: {probability: 1, after: 10m}\n" STAGESET("  rollbackOnFailure: true\n")),
	       "");
}

static void test_terminal(void)
{
	only = "MS227";
	expect("an RBAC denial in a window",
	       lint_yaml(HEAD "      apply: {failure: {class: forbidden, during: [{from: 0s, until: 5m}]}}\n" STAGESET("")),
	       "14:13: MS227 warning: StageSet default/web: an apply of stage \"app\" can be denied "
	       "(apply.failure.class forbidden), with probability 1 per apply from 0s until 5m0s: the "
	       "controller writes Ready False RBACDenied and does not requeue this failure, so the "
	       "StageSet stays so until an event wakes it (a spec edit, a new source revision, a "
	       "reconcile request), also after the modelled failures end");
	expect("image verification",
	       lint_yaml(HEAD "      apply: {failure: {op: imageVerification, probability: 0.25}}\n" STAGESET("")),
	       "14:13: MS227 warning: StageSet default/web: an apply of stage \"app\" can fail its image "
	       "verification (apply.failure.op imageVerification), with probability 0.25 per apply: the "
	       "controller writes Ready False ImageUnverified and does not requeue this failure, so the "
	       "StageSet stays so until an event wakes it (a spec edit, a new source revision, a "
	       "reconcile request)");
	expect("a terminal restore",
	       lint_yaml(HEAD "      readiness: {failedProbability: 0.1}\n"
			      "      restore: {outcome: previousRevisionUnavailable}\n" STAGESET(
				      "  rollbackOnFailure: true\n")),
	       "14:22: MS227 warning: StageSet default/web sets rollbackOnFailure, its stage \"app\" can "
	       "fail and the modelled restore of its last-applied revision ends "
	       "PreviousRevisionUnavailable (restore.outcome): the controller writes Ready False "
	       "PreviousRevisionUnavailable and does not requeue, so the StageSet stays so until an "
	       "event wakes it (a spec edit, a new source revision, a reconcile request)");
	/* near misses */
	expect("a plain apply failure is retried",
	       lint_yaml(HEAD "      apply: {failure: {during: [{from: 0s, until: 5m}]}}\n" STAGESET("")), "");
	expect("image verification skipped by the annotation",
	       lint_yaml(HEAD "      apply: {failure: {op: imageVerification}}\n"
			      "---\n"
			      "apiVersion: stages.metio.wtf/v1\n"
			      "kind: StageSet\n"
			      "metadata:\n"
			      "  name: web\n"
			      "  namespace: default\n"
			      "  annotations: {stages.metio.wtf/skip-image-verification: \"cosign outage\"}\n"
			      "spec:\n"
			      "  stages:\n"
			      "    - name: app\n"
			      "      sourceRef: {kind: GitRepository, name: shop}\n"),
	       "");
	expect("a terminal restore without rollbackOnFailure",
	       lint_yaml(HEAD "      readiness: {failedProbability: 0.1}\n"
			      "      restore: {outcome: previousRevisionUnavailable}\n" STAGESET("")),
	       "");
	expect("a terminal restore of a stage that never fails",
	       lint_yaml(HEAD "      restore: {outcome: imageUnverified}\n" STAGESET("  rollbackOnFailure: true\n")),
	       "");
}

/* A StageSet web with a 5m timeout and ready-check expressions; @rc: more readyChecks lines. */
#define EXPRS_STAGESET(rc)                                                                         \
	"---\n"                                                                                    \
	"apiVersion: stages.metio.wtf/v1\n"                                                        \
	"kind: StageSet\n"                                                                         \
	"metadata: {name: web, namespace: default}\n"                                              \
	"spec:\n"                                                                                  \
	"  timeout: 5m\n"                                                                          \
	"  stages:\n"                                                                              \
	"    - name: app\n"                                                                        \
	"      sourceRef: {kind: GitRepository, name: shop}\n"                                     \
	"      readyChecks:\n" rc "        exprs: [{apiVersion: apps/v1, kind: Deployment, current: \"true\"}]\n"

#define DOUBLE_MSG(why)                                                                            \
	"16:13: MS228 warning: StageSet default/web: the verify of stage \"app\" can block 10m0s, not " \
	"5m0s: its kstatus wait and its ready-check expression poll each get the whole 5m0s timeout, " \
	"and the pass holds its worker that long; " why "; to bound the verify at 5m0s set "        \
	"readyChecks.timeout to 2m30s, or count 10m0s per stage when sizing waves and windows"

static void test_double_timeout(void)
{
	only = "MS228";
	expect("past the timeout at the medians",
	       lint_yaml(HEAD "      readiness: {delay: 4m}\n"
			      "      readyExprs: {delay: 3m}\n" EXPRS_STAGESET("")),
	       DOUBLE_MSG("at the medians of the StageSet world its objects are Current 4m0s after the "
			  "apply and its expressions hold 3m0s later, so a verify succeeds after 7m0s, past "
			  "its 5m0s timeout"));
	expect("the poll gives up",
	       lint_yaml(HEAD "      readiness: {delay: 1m}\n"
			      "      readyExprs: {delay: 6m}\n" EXPRS_STAGESET("")),
	       DOUBLE_MSG("at the medians of the StageSet world its objects are Current 1m0s after the "
			  "apply and its expressions take 6m0s more, so the poll gives up at 5m0s, 6m0s "
			  "after the apply"));
	expect("expressions that may never hold",
	       lint_yaml(HEAD "      readiness: {delay: 1m}\n"
			      "      readyExprs: {neverProbability: 0.01}\n" EXPRS_STAGESET("")),
	       DOUBLE_MSG("expressions that never hold (readyExprs.neverProbability 0.01) keep it 6m0s "
			  "after the apply at the median, past its 5m0s timeout"));
	/* near misses */
	expect("within the timeout",
	       lint_yaml(HEAD "      readiness: {delay: 4m}\n"
			      "      readyExprs: {delay: 30s}\n" EXPRS_STAGESET("")),
	       "");
	expect("the kstatus wait runs out first",
	       lint_yaml(HEAD "      readiness: {delay: 6m}\n"
			      "      readyExprs: {delay: 3m}\n" EXPRS_STAGESET("")),
	       "");
	expect("disableWait",
	       lint_yaml(HEAD "      readiness: {delay: 4m}\n"
			      "      readyExprs: {delay: 3m}\n" EXPRS_STAGESET("        disableWait: true\n")),
	       "");
	expect("no expressions",
	       lint_yaml(HEAD "      readiness: {delay: 4m}\n"
			      "      readyExprs: {delay: 3m}\n" STAGESET("  timeout: 5m\n")),
	       "");
}

/* A StageSet with migration drop-legacy (action drop-legacy-table) anchored at its first stage. */
#define MIGRATION_STAGESET                                                                         \
	"---\n"                                                                                    \
	"apiVersion: stages.metio.wtf/v1\n"                                                        \
	"kind: StageSet\n"                                                                         \
	"metadata: {name: shop, namespace: shop, labels: {app: shop}}\n"                           \
	"spec:\n"                                                                                  \
	"  version: {value: \"1.0.0\"}\n"                                                         \
	"  migrations:\n"                                                                          \
	"    - name: drop-legacy\n"                                                                \
	"      to: \"2.0.0\"\n"                                                                    \
	"      actions:\n"                                                                         \
	"        - name: drop-legacy-table\n"                                                      \
	"          delete: {target: {apiVersion: v1, kind: ConfigMap, name: legacy}}\n"           \
	"  stages:\n"                                                                              \
	"    - name: app\n"                                                                        \
	"      sourceRef: {kind: GitRepository, name: shop}\n"

static void test_dirty(void)
{
	only = "MS229";
	expect("a migration action that can fail",
	       lint_yaml(HEAD "      actions: [{name: drop-legacy-table, phase: migration, duration: 3s, "
			      "failure: {probability: 0.2}}]\n" MIGRATION_STAGESET),
	       "18:17: MS229 warning: StageSet shop/shop: action \"drop-legacy-table\" of migration "
	       "\"drop-legacy\" can fail (probability 0.2 per attempt): five failed passes in a row, 5, "
	       "10, 20 and 40ms of back-off apart, reach MigrationDirty (at its 3s median attempt, about "
	       "15.075s after the first when every attempt fails), and Dirty only stops the retries: "
	       "nothing checks the count before running, so any later trigger (a new revision, a spec "
	       "edit, a FleetRollout approval) runs the action again, until a reconcile request resets "
	       "the count");
	expect("by a rule for the StageSet's labels",
	       lint_yaml(HEAD "      rules:\n"
			      "        - selector: {matchLabels: {app: shop}}\n"
			      "          actions: [{phase: migration, failure: {}}]\n" MIGRATION_STAGESET),
	       "20:17: MS229 warning: StageSet shop/shop: action \"drop-legacy-table\" of migration "
	       "\"drop-legacy\" can fail (probability 1 per attempt): five failed passes in a row, 5, "
	       "10, 20 and 40ms of back-off apart, reach MigrationDirty (at its 1s median attempt, about "
	       "5.075s after the first when every attempt fails), and Dirty only stops the retries: "
	       "nothing checks the count before running, so any later trigger (a new revision, a spec "
	       "edit, a FleetRollout approval) runs the action again, until a reconcile request resets "
	       "the count");
	/* near misses */
	expect("an action that does not fail",
	       lint_yaml(HEAD "      actions: [{name: drop-legacy-table, phase: migration, duration: 3s}]\n"
			      MIGRATION_STAGESET),
	       "");
	expect("a failing action of another phase",
	       lint_yaml(HEAD "      actions: [{name: drop-legacy-table, phase: post, failure: {}}]\n"
			      MIGRATION_STAGESET),
	       "");
	expect("a rule for other StageSets",
	       lint_yaml(HEAD "      rules:\n"
			      "        - selector: {matchLabels: {app: other}}\n"
			      "          actions: [{phase: migration, failure: {}}]\n" MIGRATION_STAGESET),
	       "");
}

static void test_steady_rollback(void)
{
	only = "MS230";
	expect("a regress event by name",
	       lint_yaml("apiVersion: magos-sim/v1alpha1\n"
			 "kind: Scenario\n"
			 "metadata: {name: t}\n"
			 "spec:\n"
			 "  events:\n"
			 "    - {at: 25m, regress: {namespace: default, name: web, for: 20m}}\n" STAGESET(
				 "  rollbackOnFailure: true\n")),
	       "12:22: MS230 warning: StageSet default/web sets rollbackOnFailure and the regress event at "
	       "25m0s makes its workload Failed for 20m0s: every pass re-verifies every stage, so the "
	       "next steady pass fails the run, and the controller rolls back to the snapshot of the "
	       "same revision and emits RolledBack each time, on every retry while the fault lasts");
	expect("a drawn regression after the verify",
	       lint_yaml(HEAD "      regression: {probability: 0.05, after: 10m}\n" STAGESET(
		       "  rollbackOnFailure: true\n"
		       "  onRollback:\n"
		       "    - {name: notify, http: {url: \"https://hooks.example.com/x\"}}\n"
		       "    - {name: page, http: {url: \"https://hooks.example.com/y\"}}\n")),
	       "13:22: MS230 warning: StageSet default/web sets rollbackOnFailure and a ready revision of "
	       "stage \"app\" regresses to Failed with probability 0.05, 10m0s after it is ready at the "
	       "median: every pass re-verifies every stage, so the next steady pass fails the run, and "
	       "the controller rolls back to the snapshot of the same revision and runs its onRollback "
	       "(2 actions) each time, on every retry while the fault lasts");
	/* near misses */
	expect("without rollbackOnFailure",
	       lint_yaml(HEAD "      regression: {probability: 0.05, after: 10m}\n" STAGESET("  timeout: 5m\n")), "");
	expect("a NotReady fault holds, it does not fail",
	       lint_yaml(HEAD "      regression: {probability: 0.05, after: 10m, effect: NotReady}\n" STAGESET(
		       "  rollbackOnFailure: true\n")),
	       "");
	expect("a regress event for another StageSet",
	       lint_yaml("apiVersion: magos-sim/v1alpha1\n"
			 "kind: Scenario\n"
			 "metadata: {name: t}\n"
			 "spec:\n"
			 "  events:\n"
			 "    - {at: 25m, regress: {namespace: default, name: api, for: 20m}}\n" STAGESET(
				 "  rollbackOnFailure: true\n")),
	       "");
}

static void test_failed_claims(void)
{
	only = "MS231";
	expect("a retried apply failure, with a stage errorBudget",
	       lint_yaml(HEAD "      apply: {failure: {probability: 0.1}}\n"
			      "---\n"
			      "apiVersion: stages.metio.wtf/v1\n"
			      "kind: StageSet\n"
			      "metadata: {name: web, namespace: default}\n"
			      "spec:\n"
			      "  stages:\n"
			      "    - name: app\n"
			      "      sourceRef: {kind: GitRepository, name: shop}\n"
			      "      errorBudget:\n"
			      "        source: {prometheus: {address: \"http://prometheus:9090\", query: \"up\"}}\n"
			      "        freezeThreshold: \"0.5\"\n"),
	       "14:13: MS231 warning: StageSet default/web: an apply of stage \"app\" can fail at \"apply\" "
	       "(probability 0.1 per apply), and the failed stage's status records the new revision as "
	       "applied although nothing was: the retry's real apply is then reported as a "
	       "DriftCorrected Warning (no drift happened), and the stage's errorBudget is not consulted "
	       "for that revision (it gates only a revision other than the one recorded)");
	/* near misses */
	expect("a denial is not retried (MS227 tells it)",
	       lint_yaml(HEAD "      apply: {failure: {class: forbidden, probability: 0.1}}\n" STAGESET("")), "");
	expect("a failed verify without rollbackOnFailure",
	       lint_yaml(HEAD "      readiness: {failedProbability: 0.1}\n" STAGESET("")), "");
}

static void test_rows(void)
{
	CU_ASSERT_EQUAL(lint_rule("MS226")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_rule("MS226")->name, "rollback-loop");
	CU_ASSERT_PTR_NOT_NULL(strstr(lint_rule("MS226")->summary, "§5 Q-5"));
	CU_ASSERT_EQUAL(lint_rule("MS227")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_rule("MS227")->name, "terminal-failure-no-requeue");
	CU_ASSERT_PTR_NOT_NULL(strstr(lint_rule("MS227")->summary, "§5 Q-7"));
	CU_ASSERT_EQUAL(lint_rule("MS228")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_rule("MS228")->name, "verify-double-timeout");
	CU_ASSERT_PTR_NOT_NULL(strstr(lint_rule("MS228")->summary, "§5 Q-2"));
	CU_ASSERT_EQUAL(lint_rule("MS229")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_rule("MS229")->name, "migration-dirty-not-a-halt");
	CU_ASSERT_PTR_NOT_NULL(strstr(lint_rule("MS229")->summary, "§5 Q-6"));
	CU_ASSERT_EQUAL(lint_rule("MS230")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_rule("MS230")->name, "steady-fault-rollback");
	CU_ASSERT_PTR_NOT_NULL(strstr(lint_rule("MS230")->summary, "§5 Q-4"));
	CU_ASSERT_EQUAL(lint_rule("MS231")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_rule("MS231")->name, "failed-stage-claims-revision");
	CU_ASSERT_PTR_NOT_NULL(strstr(lint_rule("MS231")->summary, "§5 Q-14"));
}

static CU_TestInfo tests[] = {
	{ "MS226 rollbackOnFailure with a certain failure", test_rollback_loop },
	{ "MS227 terminal failures that never requeue", test_terminal },
	{ "MS228 a verify that can block twice its timeout", test_double_timeout },
	{ "MS229 a migration that can fail: Dirty is not a halt", test_dirty },
	{ "MS230 a steady-state fault with rollbackOnFailure", test_steady_rollback },
	{ "MS231 a failed stage claims the new revision", test_failed_claims },
	{ "the MS226..MS231 rows", test_rows },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_failure", tests);
}
