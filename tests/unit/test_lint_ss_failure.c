/*
 * The StageSet failure rules of lint (sim/lint/lint_ss_failure.c,
 * MS226..MS227): for each rule a manifest that triggers it, with the exact
 * finding (file:line:col, id, severity, message), and the near misses that
 * must not.  Each manifest is written into a fresh temporary directory as
 * m.yaml and loaded with scn_load(); only lint_ss_failure() runs.  With
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

/* lint_ss_failure() of @yaml written as m.yaml: "line:col: ID sev: message" lines (new). */
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
		char *next = xasprintf("%s%s%u:%u: %s %s: %s", out, i ? "\n" : "", r.items[i].mark.line,
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
	expect("a regression after a while",
	       lint_yaml(HEAD "      regression: {probability: 1, after: 10m}\n" STAGESET("  rollbackOnFailure: true\n")),
	       "");
}

static void test_terminal(void)
{
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

static void test_rows(void)
{
	CU_ASSERT_EQUAL(lint_rule("MS226")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_rule("MS226")->name, "rollback-loop");
	CU_ASSERT_PTR_NOT_NULL(strstr(lint_rule("MS226")->summary, "§5 Q-5"));
	CU_ASSERT_EQUAL(lint_rule("MS227")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_rule("MS227")->name, "terminal-failure-no-requeue");
	CU_ASSERT_PTR_NOT_NULL(strstr(lint_rule("MS227")->summary, "§5 Q-7"));
}

static CU_TestInfo tests[] = {
	{ "MS226 rollbackOnFailure with a certain failure", test_rollback_loop },
	{ "MS227 terminal failures that never requeue", test_terminal },
	{ "the MS226..MS227 rows", test_rows },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_failure", tests);
}
