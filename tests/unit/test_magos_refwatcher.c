/* Conformance tests of engine/magos_refwatcher (spec §4.11) and the RefWatcher wiring (§6.6 #35). */
#include <stdio.h>
#include <string.h>

#include "engine/magos_refwatcher.h"
#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/des.h"
#include "sim/wire/magos_wc.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void test_4_11_poll_interval(void)
{
	CU_ASSERT_EQUAL(mrw_parse_poll_interval(true, 5000, 30000), 5000);
	CU_ASSERT_EQUAL(mrw_parse_poll_interval(true, 0, 30000), 30000);
	CU_ASSERT_EQUAL(mrw_parse_poll_interval(true, -1000, 30000), 30000);
	CU_ASSERT_EQUAL(mrw_parse_poll_interval(false, 5000, 30000), 30000);
}

static void test_4_11_upsert(void)
{
	struct mrw_registry r;
	struct mrw_entry *e = NULL;

	mrw_registry_init(&r);
	/* New: lastSHA seeded from observedRevision, first poll at now + jitter. */
	CU_ASSERT_EQUAL(mrw_upsert_entry(&r, "ns", "a", "u", "main", 30000, "main", 1000, 777, &e),
			MRW_UPSERT_NEW);
	CU_ASSERT_EQUAL(e->next_poll_at, 1777);
	CU_ASSERT_STRING_EQUAL(e->last_sha, "main");
	CU_ASSERT_EQUAL(r.npresent, 1);
	/* Same: no-op. */
	CU_ASSERT_EQUAL(mrw_upsert_entry(&r, "ns", "a", "u", "main", 30000, "x", 2000, 0, &e),
			MRW_UPSERT_NOOP);
	CU_ASSERT_EQUAL(e->next_poll_at, 1777);
	/* Interval only: schedule kept. */
	CU_ASSERT_EQUAL(mrw_upsert_entry(&r, "ns", "a", "u", "main", 60000, "x", 2000, 0, &e),
			MRW_UPSERT_INTERVAL);
	CU_ASSERT_EQUAL(e->interval_ms, 60000);
	CU_ASSERT_EQUAL(e->next_poll_at, 1777);
	/* Ref change: poll now, lastSHA kept. */
	CU_ASSERT_EQUAL(mrw_upsert_entry(&r, "ns", "a", "u", "dev", 60000, "x", 3000, 0, &e),
			MRW_UPSERT_MOVED);
	CU_ASSERT_EQUAL(e->next_poll_at, 3000);
	CU_ASSERT_STRING_EQUAL(e->last_sha, "main");
	/* Several keys, found by key; removal keeps the id. */
	mrw_upsert_entry(&r, "ns", "0", "u", "main", 30000, "", 0, 0, NULL);
	mrw_upsert_entry(&r, "aa", "z", "u", "main", 30000, "", 0, 0, NULL);
	CU_ASSERT_PTR_EQUAL(mrw_find(&r, "ns", "a"), e);
	CU_ASSERT_STRING_EQUAL(mrw_find(&r, "aa", "z")->name, "z");
	CU_ASSERT_TRUE(mrw_remove_entry(&r, "ns", "a"));
	CU_ASSERT_FALSE(mrw_remove_entry(&r, "ns", "a"));
	CU_ASSERT_PTR_NULL(mrw_find(&r, "ns", "a"));
	CU_ASSERT_PTR_EQUAL(mrw_by_id(&r, e->id), e);
	CU_ASSERT_FALSE(e->present);
	CU_ASSERT_EQUAL(r.npresent, 2);
	/* Re-registered: a fresh entry in the same slot. */
	CU_ASSERT_EQUAL(mrw_upsert_entry(&r, "ns", "a", "u2", "main", 10000, "", 5000, 5, &e),
			MRW_UPSERT_NEW);
	CU_ASSERT_EQUAL(e->next_poll_at, 5005);
	CU_ASSERT_STRING_EQUAL(e->last_sha, "");
	mrw_registry_release(&r);
}

static void test_4_11_poll_outcomes(void)
{
	struct mrw_registry r;
	struct mrw_entry *e;
	int64_t d;

	mrw_registry_init(&r);
	mrw_upsert_entry(&r, "ns", "a", "u", "main", 60000, "", 0, 0, &e);
	/* Error: retry in min(interval, 30 s). */
	CU_ASSERT_EQUAL(mrw_poll_remote(e, -1, "", 100, &d), MRW_POLL_ERROR);
	CU_ASSERT_EQUAL(d, 30000);
	CU_ASSERT_EQUAL(e->next_poll_at, 30100);
	/* Seeded: remembered silently. */
	CU_ASSERT_EQUAL(mrw_poll_remote(e, 0, "s1", 200, &d), MRW_POLL_SEEDED);
	CU_ASSERT_EQUAL(d, 60000);
	CU_ASSERT_STRING_EQUAL(e->last_sha, "s1");
	CU_ASSERT_EQUAL(mrw_poll_remote(e, 0, "s1", 300, &d), MRW_POLL_UNCHANGED);
	CU_ASSERT_EQUAL(d, 60000);
	/* Changed: lastSHA only moves when the patch worked. */
	CU_ASSERT_EQUAL(mrw_poll_remote(e, 0, "s2", 400, &d), MRW_POLL_CHANGED);
	CU_ASSERT_STRING_EQUAL(e->last_sha, "s1");
	CU_ASSERT_EQUAL(mrw_patch_done(e, false, "s2", 400), 30000);
	CU_ASSERT_STRING_EQUAL(e->last_sha, "s1");
	CU_ASSERT_EQUAL(mrw_poll_remote(e, 0, "s2", 500, &d), MRW_POLL_CHANGED);
	CU_ASSERT_EQUAL(mrw_patch_done(e, true, "s2", 500), 60000);
	CU_ASSERT_STRING_EQUAL(e->last_sha, "s2");
	CU_ASSERT_EQUAL(e->next_poll_at, 60500);
	/* A short interval retries at the interval. */
	mrw_upsert_entry(&r, "ns", "b", "u", "main", 10000, "", 0, 0, &e);
	mrw_poll_remote(e, -1, "", 0, &d);
	CU_ASSERT_EQUAL(d, 10000);
	CU_ASSERT_STRING_EQUAL(mrw_poll_name(MRW_POLL_SEEDED), "seeded");
	mrw_registry_release(&r);
}

/* ---- §6.6 #35 end to end: a commit lands through the RefWatcher ------------------- */

#define ANCHOR 1767225600000LL

struct mdl {
	int64_t commit_at; /* the remote moves to "new" at this time */
};

static int resolve(const struct mdl *m, const char *url, const char *ref, int64_t now,
		   char *sha)
{
	(void)url;
	(void)ref;
	snprintf(sha, 41, "%s", now >= m->commit_at ? "1111111111111111111111111111111111111111"
						    : "0000000000000000000000000000000000000000");
	return 0;
}

/* The Workspace default/demo, allowed to run, polling its remote every 10 s. */
static struct obj *mk_ws(void)
{
	struct obj *o = fx_tf_workspace("demo");

	obj_strmap_set(&o->annotations, MW_ANN_EXECUTION_ALLOWED, "true");
	obj_strmap_set(&o->annotations, MW_ANN_RECONCILE_INTERVAL, "1h");
	obj_strmap_set(&o->annotations, MW_ANN_GIT_POLL_INTERVAL, "10s");
	return o;
}

static void test_6_6_35_new_commit(void)
{
	static const struct fx_annotation regrant = { "Workspace", "default", "demo",
						      MW_ANN_EXECUTION_ALLOWED, "true" };
	struct des *w;
	struct mdl model = { 60000 };
	struct mwc_params p = { .anchor_unix_ms = ANCHOR, .models = &model, .git_resolve = resolve };
	struct fx_runner r;
	struct mwc *m;
	const struct obj *ws;
	struct mwc_poll_stats s;
	int64_t reset_at = -1;

	w = fx_des_new(7, 0);
	fx_runner_start(&r, w, ANCHOR, 1000);
	m = mwc_register(w, &p);
	api_create(des_api(w), mk_ws());
	des_run(w, 50000, NULL);
	ws = api_get(des_api(w), "Workspace", "default", "demo");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "phase"), ""), "Applied");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "observedRevision"), ""), "main");
	s = mwc_poll_stats(m);
	/* lastSHA "" at registration: the first poll seeds, then unchanged every 10 s. */
	CU_ASSERT_EQUAL(s.seeded, 1);
	CU_ASSERT_TRUE(s.unchanged >= 3);
	CU_ASSERT_EQUAL(s.changed, 0);

	/* The commit at 60 s is seen by the next poll (< 10 s later). */
	fx_annotate_at(w, 75000, &regrant);
	des_run(w, 90000, NULL);
	s = mwc_poll_stats(m);
	CU_ASSERT_EQUAL(s.changed, 1);
	for (size_t i = 0; i < tl_count(des_timeline(w)); i++) {
		struct tl_entry e;

		tl_get(des_timeline(w), i, &e);
		if (e.reason && strcmp(e.reason, "NewRevisionDetected") == 0 && reset_at < 0) {
			reset_at = e.t_ms;
			CU_ASSERT_STRING_EQUAL(
				e.message,
				"RefWatcher detected new revision 1111111111111111111111111111111111111111");
		}
	}
	CU_ASSERT_TRUE(reset_at >= 60000 && reset_at < 70000);
	ws = api_get(des_api(w), "Workspace", "default", "demo");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "phase"), ""), "Applied");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "observedRevision"), ""),
			       "1111111111111111111111111111111111111111");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(ws->status, "currentRunTrigger"), ""),
			       "revision");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&ws->annotations, MW_ANN_DETECTED_REVISION));
	des_free(w);
	mwc_free(m);
}

static void test_default_sha(void)
{
	char a[41], b[41], c[41];

	mwc_default_sha("u", "main", a);
	mwc_default_sha("u", "main", b);
	mwc_default_sha("u", "dev", c);
	CU_ASSERT_EQUAL(strlen(a), 40);
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_STRING_NOT_EQUAL(a, c);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "4.11 poll interval", test_4_11_poll_interval },
		{ "4.11 registry upsert/remove", test_4_11_upsert },
		{ "4.11 poll outcomes", test_4_11_poll_outcomes },
		{ "6.6 #35 new commit", test_6_6_35_new_commit },
		{ "default sha", test_default_sha },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("magos_refwatcher", tests);
}
