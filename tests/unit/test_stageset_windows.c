/*
 * engine/stageset_windows: metio/stageset-controller@f2c7604
 * internal/window/window_test.go (TestDecision_*, TestValidate) and the
 * gate decisions behind internal/controller/windows_test.go
 * (TestReconcile_UpdateWindow_*), plus upstream's error texts, the requeue
 * clamp, the next-window suffix and windows across DST switches in
 * Europe/Berlin (zones from the system tz database through sim/load/tzif).
 */
#include <string.h>

#include "engine/objects.h"
#include "engine/stageset_windows.h"
#include "engine/tz.h"
#include "engine/xalloc.h"
#include "sim/load/tzif.h"
#include "tests/unit/cu_main.h"

#define HOUR INT64_C(3600000)
#define MINUTE INT64_C(60000)

static struct tzif_cache cache;
static struct ssc_env env;

static const struct tz_zone *env_time_zone(void *ctx, const char *name, struct ssc_err *err)
{
	char buf[TZ_ERRLEN] = "";
	const struct tz_zone *z = tzif_cache_find(ctx, name, buf, sizeof(buf));

	if (!z)
		ssc_err_set(err, SSC_ERR_NOT_FOUND, "%s", buf);
	return z;
}

static int setup(void)
{
	tzif_cache_init(&cache, NULL);
	memset(&env, 0, sizeof(env));
	env.ctx = &cache;
	env.time_zone = env_time_zone;
	return 0;
}

static int teardown(void)
{
	tzif_cache_release(&cache);
	return 0;
}

static int64_t at(const char *s)
{
	int64_t ms = 0;

	CU_ASSERT_EQUAL_FATAL(sst_parse_time(s, &ms), 0);
	return ms;
}

static struct sst_window absolute(const char *type, const char *from, const char *to)
{
	struct sst_window w = { type, "", { false, 0 }, "", SST_NO_TIME, SST_NO_TIME };

	if (from)
		w.from_ms = at(from);
	if (to)
		w.to_ms = at(to);
	return w;
}

static struct sst_window recurring(const char *type, const char *schedule, int64_t dur_ms, const char *tz)
{
	struct sst_window w = { type, schedule, { true, dur_ms }, tz ? tz : "", SST_NO_TIME, SST_NO_TIME };

	return w;
}

static void decide(const struct sst_window *w, size_t n, const char *now, bool *allowed, int64_t *next)
{
	char err[WIN_ERRLEN] = "";

	CU_ASSERT_EQUAL(win_decision(w, n, &env, at(now), allowed, next, err, sizeof(err)), WIN_OK);
	CU_ASSERT_STRING_EQUAL(err, "");
}

/* ---- window_test.go ----------------------------------------------------- */

static void test_never_firing_schedule_is_inactive_not_hang(void)
{
	struct sst_window w = recurring("Allow", "0 0 31 4 *", HOUR, NULL);
	bool allowed = true;
	int64_t next = 0;

	decide(&w, 1, "2026-06-13T02:30:00Z", &allowed, &next);
	CU_ASSERT_FALSE(allowed); /* a declared but never active Allow window blocks (fail-closed) */
	CU_ASSERT_EQUAL(next, SST_NO_TIME);
}

static void test_deeply_overlapping_window_is_bounded(void)
{
	struct sst_window w = recurring("Allow", "* * * * *", 1000000 * HOUR, NULL);
	bool allowed = false;
	int64_t next;

	decide(&w, 1, "2026-06-13T02:30:00Z", &allowed, &next);
	CU_ASSERT(allowed);
	/* The walk stops after 10 000 starts: the reported end is that start's end, not the furthest. */
	CU_ASSERT(next < at("2026-06-13T02:30:00Z") + 1000000 * HOUR);
}

static void test_no_windows_always_allowed(void)
{
	bool allowed = false;
	int64_t next = 0;

	CU_ASSERT_EQUAL(win_decision(NULL, 0, &env, at("2026-06-13T12:00:00Z"), &allowed, &next, NULL, 0), WIN_OK);
	CU_ASSERT(allowed);
	CU_ASSERT_EQUAL(next, SST_NO_TIME);
}

static void test_absolute_allow_and_deny(void)
{
	struct sst_window w[2] = { absolute("Allow", "2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z"),
				   absolute("Deny", "2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z") };
	bool allowed;
	int64_t next;

	decide(&w[0], 1, "2025-06-01T00:00:00Z", &allowed, &next);
	CU_ASSERT(allowed);
	decide(&w[1], 1, "2025-06-01T00:00:00Z", &allowed, &next);
	CU_ASSERT_FALSE(allowed);
	decide(w, 2, "2025-06-01T00:00:00Z", &allowed, &next); /* deny takes precedence */
	CU_ASSERT_FALSE(allowed);
}

static void test_allow_declared_but_inactive_blocks(void)
{
	struct sst_window w = absolute("Allow", "2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z");
	bool allowed = true;
	int64_t next = 0;

	decide(&w, 1, "2025-06-01T00:00:00Z", &allowed, &next);
	CU_ASSERT_FALSE(allowed);
	CU_ASSERT_EQUAL(next, SST_NO_TIME); /* wholly in the past */
}

static void test_recurring_cron_window(void)
{
	struct sst_window w = recurring("Allow", "0 2 * * *", 2 * HOUR, NULL);
	bool allowed;
	int64_t next;

	decide(&w, 1, "2026-06-13T02:30:00Z", &allowed, &next);
	CU_ASSERT(allowed);
	CU_ASSERT_EQUAL(next, at("2026-06-13T04:00:00Z"));
	decide(&w, 1, "2026-06-13T05:00:00Z", &allowed, &next);
	CU_ASSERT_FALSE(allowed);
	CU_ASSERT_EQUAL(next, at("2026-06-14T02:00:00Z"));
}

static void test_cross_window_overlap_next_change_is_actual_flip(void)
{
	struct sst_window w[2] = { absolute("Allow", "2026-06-13T00:00:00Z", "2026-06-13T03:00:00Z"),
				   absolute("Allow", "2026-06-13T01:00:00Z", "2026-06-13T05:00:00Z") };
	bool allowed;
	int64_t next;

	decide(w, 2, "2026-06-13T02:00:00Z", &allowed, &next);
	CU_ASSERT(allowed);
	CU_ASSERT_EQUAL(next, at("2026-06-13T05:00:00Z"));
}

static void test_cross_window_overlap_deny_opens_first(void)
{
	struct sst_window w[2] = { absolute("Allow", "2026-06-13T00:00:00Z", "2026-06-13T10:00:00Z"),
				   absolute("Deny", "2026-06-13T04:00:00Z", "2026-06-13T06:00:00Z") };
	bool allowed;
	int64_t next;

	decide(w, 2, "2026-06-13T02:00:00Z", &allowed, &next);
	CU_ASSERT(allowed);
	CU_ASSERT_EQUAL(next, at("2026-06-13T04:00:00Z"));
}

static void test_recurring_overlapping_windows(void)
{
	struct sst_window w = recurring("Allow", "0 * * * *", 2 * HOUR, NULL);
	bool allowed;
	int64_t next;

	decide(&w, 1, "2026-06-13T02:30:00Z", &allowed, &next);
	CU_ASSERT(allowed);
	CU_ASSERT_EQUAL(next, at("2026-06-13T04:00:00Z")); /* the latest covering window's end */
}

static void test_recurring_honors_time_zone(void)
{
	struct sst_window w = recurring("Allow", "0 2 * * *", HOUR, "Europe/Berlin");
	bool allowed;
	int64_t next;

	decide(&w, 1, "2026-06-13T00:30:00Z", &allowed, &next); /* 02:30 CEST */
	CU_ASSERT(allowed);
	CU_ASSERT_EQUAL(next, at("2026-06-13T01:00:00Z"));
}

/* 02:00 does not exist in Berlin on 2026-03-29; 02:30 exists twice on 2026-10-25. */
static void test_recurring_across_dst_switches(void)
{
	struct sst_window spring = recurring("Allow", "0 2 * * *", HOUR, "Europe/Berlin");
	struct sst_window fall = recurring("Allow", "30 2 * * *", 30 * MINUTE, "Europe/Berlin");
	bool allowed;
	int64_t next;

	decide(&spring, 1, "2026-03-29T00:30:00Z", &allowed, &next);
	CU_ASSERT_FALSE(allowed);
	CU_ASSERT_EQUAL(next, at("2026-03-30T00:00:00Z"));
	decide(&fall, 1, "2026-10-25T00:45:00Z", &allowed, &next); /* 02:45 CEST */
	CU_ASSERT(allowed);
	CU_ASSERT_EQUAL(next, at("2026-10-25T01:00:00Z"));
	decide(&fall, 1, "2026-10-25T01:10:00Z", &allowed, &next); /* 02:10 CET: opens again at 02:30 CET */
	CU_ASSERT_FALSE(allowed);
	CU_ASSERT_EQUAL(next, at("2026-10-25T01:30:00Z"));
	decide(&fall, 1, "2026-10-25T01:45:00Z", &allowed, &next);
	CU_ASSERT(allowed);
	CU_ASSERT_EQUAL(next, at("2026-10-25T02:00:00Z"));
}

static void test_validate(void)
{
	static const char *const want[] = {
		"",
		"",
		"update window is both recurring (schedule/duration) and absolute (from/to)",
		"update window sets neither a schedule+duration nor from+to",
		"schedule \"not a cron\": expected exactly 5 fields, found 3: [not a cron]",
		"timeZone \"Mars/Olympus\": unknown time zone Mars/Olympus",
		"absolute update window to must be after from",
	};
	struct sst_window w[7];

	w[0] = recurring("Allow", "0 2 * * *", HOUR, NULL);
	w[1] = absolute("Deny", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z");
	w[2] = recurring("Allow", "0 2 * * *", HOUR, NULL);
	w[2].from_ms = at("2026-01-01T00:00:00Z");
	w[2].to_ms = at("2026-01-02T00:00:00Z");
	w[3] = absolute("Allow", NULL, NULL);
	w[4] = recurring("Allow", "not a cron", HOUR, NULL);
	w[5] = recurring("Allow", "0 2 * * *", HOUR, "Mars/Olympus");
	w[6] = absolute("Deny", "2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z");
	for (size_t i = 0; i < 7; i++) {
		char err[WIN_ERRLEN] = "";
		int rc = win_validate(&w[i], 1, &env, at("2026-06-13T00:00:00Z"), err, sizeof(err));

		CU_ASSERT_EQUAL(rc, want[i][0] ? WIN_EINVAL : WIN_OK);
		CU_ASSERT_STRING_EQUAL(err, want[i]);
	}
}

static void test_eval_window_error_texts(void)
{
	struct sst_window w[4];
	static const char *const want[] = {
		"absolute update window requires both from and to",
		"recurring update window requires both schedule and duration",
		"recurring update window duration must be positive",
		"timeZone \"../x\": time: invalid location name",
	};

	w[0] = absolute("Deny", "2026-01-02T00:00:00Z", NULL);
	w[1] = recurring("Allow", "", HOUR, NULL);
	w[2] = recurring("Allow", "0 2 * * *", 0, NULL);
	w[3] = recurring("Allow", "0 2 * * *", HOUR, "../x");
	for (size_t i = 0; i < 4; i++) {
		bool active;
		int64_t next;
		char err[WIN_ERRLEN] = "";

		CU_ASSERT_EQUAL(win_eval_window(&w[i], &env, 0, &active, &next, err, sizeof(err)), WIN_EINVAL);
		CU_ASSERT_STRING_EQUAL(err, want[i]);
	}
}

/* ---- windows.go: requeueForWindow, nextWindowSuffix ---------------------- */

static void test_requeue_for_window(void)
{
	int64_t now = at("2026-06-13T00:00:00Z");

	CU_ASSERT_EQUAL(win_requeue_for_window(SST_NO_TIME, now, 42), 42);
	CU_ASSERT_EQUAL(win_requeue_for_window(now + 1000, now, 42), 5000);
	CU_ASSERT_EQUAL(win_requeue_for_window(now - 1000, now, 42), 5000);
	CU_ASSERT_EQUAL(win_requeue_for_window(now + 5000, now, 42), 5000);
	CU_ASSERT_EQUAL(win_requeue_for_window(now + 30 * MINUTE, now, 42), 30 * MINUTE);
	CU_ASSERT_EQUAL(win_requeue_for_window(now + HOUR, now, 42), HOUR);
	CU_ASSERT_EQUAL(win_requeue_for_window(now + 5 * HOUR, now, 42), HOUR);
}

static void test_next_window_suffix(void)
{
	char buf[64];

	win_next_window_suffix(SST_NO_TIME, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "");
	win_next_window_suffix(at("2026-06-14T02:00:00Z") + 999, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, " (next window opens 2026-06-14T02:00:00Z)");
}

/* ---- windows_test.go: gateUpdateWindows ---------------------------------- */

struct gate_fixture {
	struct obj *ss;
	struct sst_spec spec;
	struct sst_status st;
	struct sst_window win;
	struct ssc_resolved ra;
};

static void fixture_init(struct gate_fixture *f, struct sst_window w)
{
	memset(f, 0, sizeof(*f));
	f->ss = obj_new("stages.metio.wtf/v1", "StageSet", "ns", "held");
	f->ss->generation = 3;
	f->win = w;
	f->spec.windows = &f->win;
	f->spec.nwindows = 1;
	f->spec.window_scope = "";
	sst_status_init(&f->st);
	strcpy(f->ra.key, "ns/ea");
	f->ra.revision = "sha256:v2";
}

static void fixture_release(struct gate_fixture *f)
{
	obj_free(f->ss);
	sst_status_release(&f->st);
}

/* A pending update left by an earlier deferral. */
static struct sst_pending_update *xcalloc_pending(void)
{
	struct sst_pending_update *pu = xcalloc(1, sizeof(*pu));

	pu->next_window_opens_ms = SST_NO_TIME;
	return pu;
}

static void gate(struct gate_fixture *f, const char *now, struct win_gate *g)
{
	win_gate_update_windows(f->ss, &f->spec, &f->st, &f->ra, 1, &env, at(now), MINUTE, g);
}

static void test_update_window_denies_rollout(void)
{
	struct gate_fixture f;
	struct win_gate g;

	fixture_init(&f, absolute("Deny", "2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z"));
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT(g.set_ready);
	CU_ASSERT_STRING_EQUAL(g.ready_status, "False");
	CU_ASSERT_STRING_EQUAL(g.ready_reason, "UpdateDeferred");
	CU_ASSERT_STRING_EQUAL(g.ready_message, "delivery held by update window (next window opens 2030-01-01T00:00:00Z)");
	CU_ASSERT(g.event);
	CU_ASSERT_STRING_EQUAL(g.event_note, g.ready_message);
	CU_ASSERT_EQUAL(g.requeue_ms, HOUR); /* the boundary is years away: re-check hourly */
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.st.pending_update);
	CU_ASSERT_STRING_EQUAL(sst_strmap_get(&f.st.pending_update->revisions, "ns/ea"), "sha256:v2");
	CU_ASSERT_EQUAL(f.st.pending_update->next_window_opens_ms, at("2030-01-01T00:00:00Z"));
	CU_ASSERT_EQUAL(f.st.observed_generation, 3);
	fixture_release(&f);
}

static void test_update_window_defer_counted_once_per_deferral(void)
{
	struct gate_fixture f;
	struct win_gate g;

	fixture_init(&f, absolute("Deny", "2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z"));
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT(g.event);
	gate(&f, "2025-06-01T01:00:00Z", &g); /* still inside the deny window */
	CU_ASSERT(g.deferred);
	CU_ASSERT_FALSE(g.event);
	fixture_release(&f);
}

static void test_update_window_allows_when_open(void)
{
	struct gate_fixture f;
	struct win_gate g;

	fixture_init(&f, absolute("Allow", "2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z"));
	f.st.pending_update = xcalloc_pending();
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT_FALSE(g.deferred);
	CU_ASSERT_FALSE(g.set_ready);
	CU_ASSERT_PTR_NULL(f.st.pending_update);
	fixture_release(&f);
}

static void test_update_window_override_forces_apply(void)
{
	struct gate_fixture f;
	struct win_gate g;

	fixture_init(&f, absolute("Deny", "2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z"));
	obj_strmap_set(&f.ss->annotations, SSC_ANN_UPDATE_NOW, "tok-1");
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT_FALSE(g.deferred);
	CU_ASSERT_STRING_EQUAL(f.st.last_handled_update_override, "tok-1");
	/* One-shot: the same token again is handled, the window holds. */
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT(g.deferred);
	fixture_release(&f);
}

static void test_update_window_deployed_stays_ready_when_held(void)
{
	struct gate_fixture f;
	struct win_gate g;

	fixture_init(&f, absolute("Allow", "2020-01-01T00:00:00Z", "2024-01-01T00:00:00Z"));
	sst_strmap_set(&f.st.last_applied_revisions, "ns/ea", "sha256:v1");
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_STRING_EQUAL(g.ready_status, "True");
	CU_ASSERT_STRING_EQUAL(g.ready_reason, "Succeeded");
	CU_ASSERT_STRING_EQUAL(g.ready_message, "Deployed; delivery held by update window");
	CU_ASSERT_EQUAL(g.requeue_ms, MINUTE); /* no boundary: the retry interval */
	CU_ASSERT_PTR_NOT_NULL(f.st.pending_update);
	fixture_release(&f);
}

/* windowScope: the default holds only new revisions; All holds every pass (revisions then not recorded). */
static void test_update_window_scope(void)
{
	struct gate_fixture f;
	struct win_gate g;

	fixture_init(&f, absolute("Deny", "2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z"));
	sst_strmap_set(&f.st.last_applied_revisions, "ns/ea", "sha256:v2");
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT_FALSE(g.deferred);
	f.spec.window_scope = "All";
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.st.pending_update);
	CU_ASSERT_EQUAL(f.st.pending_update->revisions.n, 0);
	fixture_release(&f);
}

/* The InvalidSpec fallback, and robfig's panic on a TZ= prefix without a space. */
static void test_update_window_malformed(void)
{
	struct gate_fixture f;
	struct win_gate g;

	fixture_init(&f, recurring("Allow", "0 2 * * *", HOUR, "Mars/Olympus"));
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT_FALSE(g.panicked);
	CU_ASSERT_STRING_EQUAL(g.ready_reason, "InvalidSpec");
	CU_ASSERT_STRING_EQUAL(g.ready_message, "update window: timeZone \"Mars/Olympus\": unknown time zone Mars/Olympus");
	CU_ASSERT_EQUAL(g.requeue_ms, 0);
	CU_ASSERT_EQUAL(f.st.observed_generation, 3);
	fixture_release(&f);

	fixture_init(&f, recurring("Allow", "TZ=UTC", HOUR, NULL));
	gate(&f, "2025-06-01T00:00:00Z", &g);
	CU_ASSERT(g.deferred);
	CU_ASSERT(g.panicked);
	CU_ASSERT_STRING_EQUAL(g.ready_message, "runtime error: slice bounds out of range [:-1]");
	fixture_release(&f);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "Decision: never-firing schedule is inactive, not a hang", test_never_firing_schedule_is_inactive_not_hang },
		{ "Decision: deeply overlapping window is bounded", test_deeply_overlapping_window_is_bounded },
		{ "Decision: no windows always allowed", test_no_windows_always_allowed },
		{ "Decision: absolute allow and deny", test_absolute_allow_and_deny },
		{ "Decision: allow declared but inactive blocks", test_allow_declared_but_inactive_blocks },
		{ "Decision: recurring cron window", test_recurring_cron_window },
		{ "Decision: cross-window overlap, next change is the actual flip",
		  test_cross_window_overlap_next_change_is_actual_flip },
		{ "Decision: cross-window overlap, deny opens first", test_cross_window_overlap_deny_opens_first },
		{ "Decision: recurring overlapping windows", test_recurring_overlapping_windows },
		{ "Decision: recurring honors time zone", test_recurring_honors_time_zone },
		{ "Decision: recurring window across DST switches (Europe/Berlin)", test_recurring_across_dst_switches },
		{ "Validate", test_validate },
		{ "evalWindow: error texts", test_eval_window_error_texts },
		{ "requeueForWindow: clamped to [5s, 1h]", test_requeue_for_window },
		{ "nextWindowSuffix", test_next_window_suffix },
		{ "gateUpdateWindows: denies rollout", test_update_window_denies_rollout },
		{ "gateUpdateWindows: defer counted once per deferral", test_update_window_defer_counted_once_per_deferral },
		{ "gateUpdateWindows: allows when open", test_update_window_allows_when_open },
		{ "gateUpdateWindows: override forces apply", test_update_window_override_forces_apply },
		{ "gateUpdateWindows: deployed stays ready when held", test_update_window_deployed_stays_ready_when_held },
		{ "gateUpdateWindows: windowScope Updates and All", test_update_window_scope },
		{ "gateUpdateWindows: malformed window and panic", test_update_window_malformed },
		CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = { { "stageset_windows", setup, teardown, NULL, NULL, tests }, CU_SUITE_INFO_NULL };

	CU_register_suites(suites);
}
