/*
 * sim/lint/lint_ss_holds: lsh_windows_at(), the update windows' decision the
 * StageSet hold rules (MS234, MS235) and their run notices judge by, against
 * the windows of upstream's windows_test.go shapes: a recurring Deny in a
 * named zone, an absolute Allow in the past, an Allow whose schedule never
 * fires, windowScope All, and a spec without windows or with a window the
 * controller refuses; and MS276's findings, with their near misses.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint_ss_holds.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static struct tzif_cache cache;

static int setup(void)
{
	tzif_cache_init(&cache, NULL);
	return 0;
}

static int teardown(void)
{
	tzif_cache_release(&cache);
	return 0;
}

static int64_t t(const char *rfc3339)
{
	int64_t ms = 0;

	CU_ASSERT_EQUAL_FATAL(gt_parse_rfc3339(rfc3339, &ms, NULL, 0), 0);
	return ms;
}

static const char *STAGES = "stages: [{name: app, sourceRef: {kind: GitRepository, name: shop}}]\n";

static bool at(const char *windows, const char *when, struct lsh_windows *w)
{
	char *text = xasprintf("%s%s", STAGES, windows);
	struct val *spec = fx_yaml(text);
	bool ok = lsh_windows_at(spec, &cache, t(when), w);

	val_free(spec);
	free(text);
	return ok;
}

/* A Deny every Friday 16:00-19:00 Berlin (15:00-18:00 UTC in March): closed at 15:30 UTC, next change 18:00. */
static void test_deny_recurring(void)
{
	const char *win = "updateWindows: [{type: Deny, schedule: \"0 16 * * 5\", duration: 3h, timeZone: Europe/Berlin}]\n";
	struct lsh_windows w;

	CU_ASSERT_TRUE_FATAL(at(win, "2026-03-06T15:30:00Z", &w));
	CU_ASSERT_FALSE(w.allowed);
	CU_ASSERT_FALSE(w.scope_all);
	CU_ASSERT_EQUAL(w.next_ms, t("2026-03-06T18:00:00Z"));
	CU_ASSERT_STRING_EQUAL(w.what, "Deny \"0 16 * * 5\" for 3h0m0s in Europe/Berlin");
	CU_ASSERT_TRUE_FATAL(at(win, "2026-03-06T14:59:59Z", &w));
	CU_ASSERT_TRUE(w.allowed);
	CU_ASSERT_EQUAL(w.next_ms, t("2026-03-06T15:00:00Z"));
}

/* An absolute Allow in the past, an Allow on 30 February: never allowed, no next change. */
static void test_allow_never(void)
{
	struct lsh_windows w;

	CU_ASSERT_TRUE_FATAL(at("updateWindows: [{type: Allow, from: \"2026-01-01T00:00:00Z\", to: \"2026-01-02T00:00:00Z\"}]\n",
			       "2026-03-06T14:00:00Z", &w));
	CU_ASSERT_FALSE(w.allowed);
	CU_ASSERT_EQUAL(w.next_ms, SST_NO_TIME);
	CU_ASSERT_STRING_EQUAL(w.what, "Allow from 2026-01-01T00:00:00Z to 2026-01-02T00:00:00Z");
	CU_ASSERT_TRUE_FATAL(at("updateWindows: [{type: Allow, schedule: \"0 0 30 2 *\", duration: 1h}]\n",
			       "2026-03-06T14:00:00Z", &w));
	CU_ASSERT_FALSE(w.allowed);
	CU_ASSERT_EQUAL(w.next_ms, SST_NO_TIME);
	/* the near miss: a daily Allow opens */
	CU_ASSERT_TRUE_FATAL(at("updateWindows: [{type: Allow, schedule: \"0 15 * * *\", duration: 1h}]\n",
			       "2026-03-06T14:00:00Z", &w));
	CU_ASSERT_FALSE(w.allowed);
	CU_ASSERT_EQUAL(w.next_ms, t("2026-03-06T15:00:00Z"));
}

static void test_scope_and_refusals(void)
{
	struct lsh_windows w;

	CU_ASSERT_TRUE_FATAL(at("windowScope: All\nupdateWindows: [{type: Deny, from: \"2026-01-01T00:00:00Z\", to: \"2027-01-01T00:00:00Z\"}]\n",
			       "2026-03-06T14:00:00Z", &w));
	CU_ASSERT_TRUE(w.scope_all);
	CU_ASSERT_FALSE(w.allowed);
	/* no windows, and a window the controller refuses (unknown zone): nothing to judge */
	CU_ASSERT_FALSE(at("interval: 10m\n", "2026-03-06T14:00:00Z", &w));
	CU_ASSERT_FALSE(at("updateWindows: [{type: Deny, schedule: \"0 16 * * 5\", duration: 3h, timeZone: Mars/Olympus}]\n",
			   "2026-03-06T14:00:00Z", &w));
}

/* The MS276 findings for @yaml, one a line (new). */
static char *ms276_of(const char *yaml)
{
	char *all = fx_lint_yaml("test_lint_ss_holds", yaml, lint_ss_holds);
	char *out = xstrdup(""), *save = NULL;

	for (char *line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *next;

		if (!strstr(line, "MS276"))
			continue;
		next = xasprintf("%s%s%s", out, out[0] ? "\n" : "", line);
		free(out);
		out = next;
	}
	free(all);
	return out;
}

static void expect276(const char *yaml, const char *want)
{
	char *got = ms276_of(yaml);

	fx_same_text(got, want);
	free(got);
}

#define PENDING_SCENARIO(events)                                                                   \
	"apiVersion: magos-sim/v1alpha1\n"                                                         \
	"kind: Scenario\n"                                                                         \
	"metadata: {name: t}\n"                                                                    \
	"spec:\n"                                                                                  \
	"  start: \"2026-03-06T12:00:00Z\"\n"                                                      \
	"  events:\n"                                                                              \
	"    - {at: 20m, publish: {selector: {matchLabels: {app: shop}}, version: \"1.1.0\"}}\n"   \
	"    - {at: 40m, publish: {selector: {matchLabels: {app: shop}}, version: \"1.2.0\"}}\n" events
#define PENDING_STAGESET(mode, windows)                                                            \
	"---\n"                                                                                    \
	"apiVersion: stages.metio.wtf/v1\n"                                                        \
	"kind: StageSet\n"                                                                         \
	"metadata: {name: shop, namespace: shop, labels: {app: shop}}\n"                           \
	"spec:\n"                                                                                  \
	"  version: {value: \"1.0.0\", approvalMode: " mode "}\n" windows                          \
	"  stages: [{name: app, sourceRef: {kind: GitRepository, name: shop}}]\n"
#define DENY_1230 "  updateWindows: [{type: Deny, schedule: \"30 12 * * *\", duration: 1h}]\n"

/* MS276: a publish deferred by a window while the version before it is held for approval. */
static void test_pending_stale(void)
{
	expect276(PENDING_SCENARIO("") PENDING_STAGESET("Always", DENY_1230),
		  "8:17: MS276 warning: the publish of 1.2.0 at 40m0s reaches StageSet shop/shop (approvalMode "
		  "Always) while its update windows hold new revisions (Deny \"30 12 * * *\" for 1h0m0s in UTC) "
		  "until 1h30m0s, and 1.1.0, published at 20m0s, is held for approval then: windows and budgets "
		  "are checked before the approval gate, so the passes they defer leave status.pendingVersion at "
		  "1.1.0 while the source offers 1.2.0; stagesetctl and a FleetRollout without targetVersion "
		  "(which stamps approved-version from pendingVersion) take 1.1.0 for the version waiting, and "
		  "an approval of it approves a version no longer offered");
	/* near misses */
	expect276(PENDING_SCENARIO("") PENDING_STAGESET("Always", ""), ""); /* no window: held for 1.2.0 at once */
	expect276(PENDING_SCENARIO("") PENDING_STAGESET("Never", DENY_1230), ""); /* nothing held for approval */
	expect276(PENDING_SCENARIO("    - at: 30m\n"
				   "      annotate: {kind: StageSet, namespace: shop, name: shop, set: "
				   "{stages.metio.wtf/approved-version: \"1.1.0\"}}\n")
			  PENDING_STAGESET("Always", DENY_1230),
		  ""); /* 1.1.0 approved before: pendingVersion cleared */
	expect276(PENDING_SCENARIO("")
			  PENDING_STAGESET("Always", "  updateWindows: [{type: Deny, schedule: \"10 12 * * *\", "
						     "duration: 1h}]\n"),
		  ""); /* 1.1.0 deferred itself: never held for approval */
}

static CU_TestInfo tests[] = {
	{ "a recurring Deny in Europe/Berlin", test_deny_recurring },
	{ "Allow windows that never open, and one that does", test_allow_never },
	{ "windowScope All; no windows; a refused window", test_scope_and_refusals },
	{ "MS276 a deferral leaves a stale pendingVersion", test_pending_stale },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_SuiteInfo suites[] = { { "lint_ss_holds windows", setup, teardown, NULL, NULL, tests }, CU_SUITE_INFO_NULL };

	if (!cu_conformance)
		CU_register_suites(suites);
}
