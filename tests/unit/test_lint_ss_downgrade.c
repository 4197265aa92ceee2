/*
 * The skipped-boundary downgrade rule (sim/lint/lint_ss_downgrade.c,
 * MS274): the version walks that refuse a downgrade for a migration an
 * upgrade skipped, with the exact finding (line:col, id, severity,
 * message), and the near misses: the migration ran, it has down actions,
 * downgrades are off, the downgrade does not reach its to.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_ss_downgrade() runs.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_downgrade.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_ss_downgrade", yaml, lint_ss_downgrade);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document with event lines EVENTS (lines 1-5, then the events). */
#define SCENARIO(events)                                                               \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  events:\n" events

#define UP_AT_10M "    - {at: 10m, publish: {selector: {matchLabels: {app: shop}}, version: \"2.0.0\"}}\n"
#define DOWN_AT_1H "    - {at: 1h, publish: {selector: {matchLabels: {app: shop}}, version: \"1.5.0\"}}\n"

/* StageSet shop/shop at VERSION (allowDowngrade ALLOW) with one migration to 2.0.0 (FROM, DOWN lines). */
#define SS(version, allow, from, down)                                                                 \
	"---\n"                                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                                            \
	"kind: StageSet\n"                                                                             \
	"metadata: {name: shop, namespace: shop, labels: {app: shop}}\n"                               \
	"spec:\n"                                                                                      \
	"  version: {value: \"" version "\", allowDowngrade: " allow "}\n"                             \
	"  migrations:\n"                                                                              \
	"    - name: split-orders\n"                                                                   \
	"      to: \"2.0.0\"\n" from                                                                   \
	"      actions: [{name: split, delete: {target: {apiVersion: v1, kind: ConfigMap, name: o}}}]\n" \
	down "  stages: [{name: s, sourceRef: {kind: GitRepository, name: shop}}]\n"

#define FROM_OLD "      from: \"<1.5.0\"\n"
#define DOWN "      down: [{name: merge, delete: {target: {apiVersion: v1, kind: ConfigMap, name: n}}}]\n"

#define TAIL(cur)                                                                                      \
	"crosses migration \"split-orders\" (to 2.0.0), which declares no down actions; the upgrade "  \
	cur " \xe2\x86\x92 2.0.0 at 10m0s skipped it (from \"<1.5.0\" does not match " cur "), so it " \
	"never ran, yet the controller picks a downgrade's migrations by their to alone, not by what " \
	"ran: the downgrade is refused DowngradeRequiresMigration and shop/shop stays on 2.0.0"

static void test_fires(void)
{
	expect_lint(SCENARIO(UP_AT_10M DOWN_AT_1H) SS("1.5.0", "true", FROM_OLD, ""),
		    "7:16: MS274 warning: the publish at 1h0m0s asks StageSet shop/shop for 1.5.0, a "
		    "downgrade from 2.0.0 that " TAIL("1.5.0"));
	/* a rollback-to stamp, and a patch of spec.version.value */
	expect_lint(SCENARIO(UP_AT_10M "    - {at: 1h, annotate: {kind: StageSet, namespace: shop, name: shop, "
				       "set: {stages.metio.wtf/rollback-to: \"1.5.0\"}}}\n")
			    SS("1.5.0", "true", FROM_OLD, ""),
		    "7:12: MS274 warning: the annotate event at 1h0m0s asks StageSet shop/shop for 1.5.0, a "
		    "downgrade from 2.0.0 that " TAIL("1.5.0"));
	expect_lint(SCENARIO(UP_AT_10M "    - {at: 1h, patch: {kind: StageSet, namespace: shop, name: shop, "
				       "merge: {spec: {version: {value: \"1.6.0\"}}}}}\n")
			    SS("1.5.0", "true", FROM_OLD, ""),
		    "7:12: MS274 warning: the patch event at 1h0m0s asks StageSet shop/shop for 1.6.0, a "
		    "downgrade from 2.0.0 that " TAIL("1.5.0"));
}

static void test_quiet(void)
{
	/* the upgrade ran it (from matches 1.0.0): a sound refusal */
	expect_lint(SCENARIO(UP_AT_10M DOWN_AT_1H) SS("1.0.0", "true", FROM_OLD, ""), "");
	/* down actions: the downgrade runs them */
	expect_lint(SCENARIO(UP_AT_10M DOWN_AT_1H) SS("1.5.0", "true", FROM_OLD, DOWN), "");
	/* downgrades off: DowngradeNotAllowed first */
	expect_lint(SCENARIO(UP_AT_10M DOWN_AT_1H) SS("1.5.0", "false", FROM_OLD, ""), "");
	/* no downgrade at all, or one that stays at or above the to */
	expect_lint(SCENARIO(UP_AT_10M) SS("1.5.0", "true", FROM_OLD, ""), "");
	expect_lint(SCENARIO(UP_AT_10M "    - {at: 1h, publish: {selector: {matchLabels: {app: shop}}, version: "
				       "\"2.1.0\"}}\n    - {at: 2h, publish: {selector: {matchLabels: {app: shop}}, "
				       "version: \"2.0.0\"}}\n")
			    SS("1.5.0", "true", FROM_OLD, ""),
		    "");
	/* a publish the StageSet's labels do not match */
	expect_lint(SCENARIO(UP_AT_10M "    - {at: 1h, publish: {selector: {matchLabels: {app: other}}, version: "
				       "\"1.5.0\"}}\n")
			    SS("1.5.0", "true", FROM_OLD, ""),
		    "");
}

static void test_row(void)
{
	const struct lint_rule *r = lint_rule("MS274");

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(r->name, "downgrade-blocked-by-skipped-migration");
	CU_ASSERT_PTR_NOT_NULL(strstr(r->summary, "§6 #17"));
	CU_ASSERT(r->fix && r->fix[0]);
}

static CU_TestInfo tests[] = {
	{ "MS274 a downgrade crossing a migration an upgrade skipped", test_fires },
	{ "MS274 near misses", test_quiet },
	{ "the MS274 row", test_row },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_downgrade", tests);
}
