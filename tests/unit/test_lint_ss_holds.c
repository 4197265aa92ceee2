/*
 * sim/lint/lint_ss_holds: lsh_windows_at(), the update windows' decision the
 * StageSet hold rules (MS234, MS235) and their run notices judge by, against
 * the windows of upstream's windows_test.go shapes: a recurring Deny in a
 * named zone, an absolute Allow in the past, an Allow whose schedule never
 * fires, windowScope All, and a spec without windows or with a window the
 * controller refuses.
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

static CU_TestInfo tests[] = {
	{ "a recurring Deny in Europe/Berlin", test_deny_recurring },
	{ "Allow windows that never open, and one that does", test_allow_never },
	{ "windowScope All; no windows; a refused window", test_scope_and_refusals },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_SuiteInfo suites[] = { { "lint_ss_holds windows", setup, teardown, NULL, NULL, tests }, CU_SUITE_INFO_NULL };

	if (!cu_conformance)
		CU_register_suites(suites);
}
