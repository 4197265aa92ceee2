/*
 * engine/stageset_rollback: snapshotStages, attemptRollback's walk of the
 * snapshot over scripted restores (rollback_test.go
 * TestReconcile_RollbackOnFailure_RestoresPreviousRevision and
 * _FirstRunHasNothingToRestore, at the decision level), and
 * rollbackStageToSnapshot's decision with the upstream texts; the rollback
 * store's decisions (key.go Key, storeRendered, rollbackStageObjects' store
 * read: rollbackstore_test.go, rollback_storeerr_test.go) over a scripted
 * store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_rollback.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

#define T0 1784462400000LL

struct world {
	int answer[4];       /* per call: 0, 1, 2, -1 */
	size_t calls;
	size_t pos[4];
	const char *stages[4];
	bool from_store[4];  /* what each call was told */
	bool gc;             /* the producer collected every revision: a re-fetch answers 1 */
};

/* The events of a test (released by unload()). */
static struct ssc_events ev;

static int w_restore(void *ctx, size_t stage, const struct sst_artifact_ref *ref, bool from_store,
		     int64_t at_ms, int64_t *duration_ms, char *reason, size_t reasonlen, char *msg,
		     size_t msglen, struct ssc_err *err)
{
	struct world *w = ctx;
	size_t i = w->calls++;
	w->pos[i] = stage;
	w->stages[i] = ref->stage;
	w->from_store[i] = from_store;
	*duration_ms = 1000;
	switch (w->gc && !from_store ? 1 : w->answer[i]) {
	case 1:
		snprintf(reason, reasonlen, "PreviousRevisionUnavailable");
		snprintf(msg, msglen, "cannot roll back: revision %s for stage \"%s\" is no longer fetchable (404)",
			 ref->revision, ref->stage);
		return 1;
	case 2:
		ssc_err_set(err, SSC_ERR, "conflict on Deployment/web");
		return 2;
	case -1:
		ssc_err_set(err, SSC_ERR, "rollback store get stage \"%s\": timeout", ref->stage);
		return -1;
	default:
		return 0;
	}
}

static struct val *tree;
static struct sst_spec spec;

static void load(const char *text)
{
	struct yl_stream s;
	struct diag d;
	char err[256];
	diag_init(&d);
	CU_ASSERT_FATAL(yl_load_string("t", text, strlen(text), &s, &d) == 0);
	tree = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	CU_ASSERT_FATAL(sst_spec_parse(tree, &spec, err, sizeof(err)) == 0);
}

static void unload(void)
{
	sst_spec_release(&spec);
	val_free(tree);
	ssc_events_release(&ev);
}

static struct ssc_env env_of(struct world *w)
{
	struct ssc_env e;
	memset(&e, 0, sizeof(e));
	e.ctx = w;
	e.restore_stage = w_restore;
	return e;
}

static const char *three = "stages: [{name: a, sourceRef: {name: s}}, {name: b, sourceRef: {name: s}}, {name: c, sourceRef: {name: s}}]";

static void snapshot(struct sst_status *st)
{
	struct ssc_resolved ra[3];
	const char *subs[3] = { "", "d1", NULL };
	memset(ra, 0, sizeof(ra));
	for (int i = 0; i < 3; i++) {
		ra[i].url = "http://src/a.tgz";
		ra[i].digest = "sha256:1";
		ra[i].revision = i == 1 ? "rev-b" : "rev-x";
	}
	rb_snapshot_stages(&spec, ra, subs, st);
}

static void test_snapshot_stages(void)
{
	struct sst_status st;
	load(three);
	sst_status_init(&st);
	snapshot(&st);
	snapshot(&st); /* replaces, not appends */
	CU_ASSERT_EQUAL_FATAL(st.nlast_applied_snapshot, 3);
	CU_ASSERT_STRING_EQUAL(st.last_applied_snapshot[1].stage, "b");
	CU_ASSERT_STRING_EQUAL(st.last_applied_snapshot[1].revision, "rev-b");
	CU_ASSERT_STRING_EQUAL(st.last_applied_snapshot[1].substitution_digest, "d1");
	CU_ASSERT_STRING_EQUAL(st.last_applied_snapshot[2].substitution_digest, "");
	sst_status_release(&st);
	unload();
}

static void test_rollback_restores_in_snapshot_order(void)
{
	struct world w = { { 0 }, 0, { 0 }, { 0 }, { 0 }, false };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_status st;
	struct ssc_err err;
	char reason[64], msg[512];
	size_t restored[4], nrestored = 99;

	load(three);
	sst_status_init(&st);
	snapshot(&st);
	unload();
	/* The spec now has c, a (b dropped): snapshot order a, b, c; b skipped; positions from the spec. */
	load("stages: [{name: c, sourceRef: {name: s}}, {name: a, sourceRef: {name: s}}]");
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "ss", &spec, &st, reason, sizeof(reason), msg, sizeof(msg), &err, restored, &nrestored),
			RB_RESTORED);
	CU_ASSERT_EQUAL(w.calls, 2);
	CU_ASSERT_STRING_EQUAL(w.stages[0], "a");
	CU_ASSERT_EQUAL(w.pos[0], 1);
	CU_ASSERT_STRING_EQUAL(w.stages[1], "c");
	CU_ASSERT_EQUAL(w.pos[1], 0);
	/* both restored stages, in snapshot order, for their inventories (recorder.Write) */
	CU_ASSERT_EQUAL(nrestored, 2);
	CU_ASSERT_EQUAL(restored[0], 1);
	CU_ASSERT_EQUAL(restored[1], 0);
	CU_ASSERT_STRING_EQUAL(reason, "");
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 2000);
	sst_status_release(&st);
	unload();
}

static void test_rollback_first_run_has_nothing_to_restore(void)
{
	struct world w = { { 0 }, 0, { 0 }, { 0 }, { 0 }, false };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_status st;
	struct ssc_err err;
	char reason[64], msg[512];
	size_t restored[4], nrestored = 99;
	load(three);
	sst_status_init(&st);
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "ss", &spec, &st, reason, sizeof(reason), msg, sizeof(msg), &err, restored, &nrestored),
			RB_RESTORED);
	CU_ASSERT_EQUAL(w.calls, 0);
	CU_ASSERT_EQUAL(nrestored, 0);
	sst_status_release(&st);
	unload();
}

static void test_rollback_terminal_and_transient(void)
{
	struct ssc_clock clk = { T0, T0 };
	struct sst_status st;
	struct ssc_err err;
	char reason[64], msg[512];
	size_t restored[4], nrestored = 99;
	load(three);
	sst_status_init(&st);
	snapshot(&st);

	struct world w1 = { { 0, 1, 0, 0 }, 0, { 0 }, { 0 }, { 0 }, false };
	struct ssc_env env = env_of(&w1);
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "ss", &spec, &st, reason, sizeof(reason), msg, sizeof(msg), &err, restored, &nrestored),
			RB_TERMINAL);
	CU_ASSERT_EQUAL(w1.calls, 2); /* stops at the first terminal stage */
	CU_ASSERT_EQUAL(nrestored, 1); /* a was restored (and its inventory rewritten) before b failed */
	CU_ASSERT_STRING_EQUAL(reason, "PreviousRevisionUnavailable");
	CU_ASSERT_STRING_EQUAL(msg, "cannot roll back: revision rev-b for stage \"b\" is no longer fetchable (404)");

	struct world w2 = { { 2, 0, 0, 0 }, 0, { 0 }, { 0 }, { 0 }, false };
	env = env_of(&w2);
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "ss", &spec, &st, reason, sizeof(reason), msg, sizeof(msg), &err, restored, &nrestored),
			RB_TERMINAL);
	CU_ASSERT_STRING_EQUAL(reason, "PreviousRevisionUnavailable");
	CU_ASSERT_STRING_EQUAL(msg, "cannot roll back stage \"a\": re-applying the previous revision failed (conflict on Deployment/web)");
	CU_ASSERT_EQUAL(err.code, SSC_OK);

	struct world w3 = { { 0, 0, -1, 0 }, 0, { 0 }, { 0 }, { 0 }, false };
	env = env_of(&w3);
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "ss", &spec, &st, reason, sizeof(reason), msg, sizeof(msg), &err, restored, &nrestored),
			RB_TRANSIENT);
	CU_ASSERT_STRING_EQUAL(err.msg, "rollback store get stage \"c\": timeout");
	sst_status_release(&st);
	unload();
}

static void test_rollback_stage_to_snapshot(void)
{
	struct ssc_clock clk = { T0, T0 };
	struct sst_status st;
	struct ssc_err err;
	char rev[64], why[512];
	bool ok;
	load(three);
	sst_status_init(&st);

	/* No snapshot entry: not reverted, the upstream why. */
	struct world w0 = { { 0 }, 0, { 0 }, { 0 }, { 0 }, false };
	struct ssc_env env = env_of(&w0);
	CU_ASSERT_EQUAL(rb_rollback_stage_to_snapshot(&env, &clk, &ev, "ns", "ss", &st, "b", 1, rev, sizeof(rev), &ok, why, sizeof(why), &err), 0);
	CU_ASSERT(!ok);
	CU_ASSERT_STRING_EQUAL(why, "no last-good revision is available to roll back to (enable spec.rollbackOnFailure)");
	CU_ASSERT_EQUAL(w0.calls, 0);

	snapshot(&st);
	CU_ASSERT_EQUAL(rb_rollback_stage_to_snapshot(&env, &clk, &ev, "ns", "ss", &st, "b", 1, rev, sizeof(rev), &ok, why, sizeof(why), &err), 0);
	CU_ASSERT(ok);
	CU_ASSERT_STRING_EQUAL(rev, "rev-b");
	CU_ASSERT_EQUAL(w0.pos[0], 1);

	struct world w1 = { { 1 }, 0, { 0 }, { 0 }, { 0 }, false };
	env = env_of(&w1);
	CU_ASSERT_EQUAL(rb_rollback_stage_to_snapshot(&env, &clk, &ev, "ns", "ss", &st, "b", 1, rev, sizeof(rev), &ok, why, sizeof(why), &err), 0);
	CU_ASSERT(!ok);
	CU_ASSERT_STRING_EQUAL(why, "cannot roll back: revision rev-b for stage \"b\" is no longer fetchable (404)");

	/* A failed re-apply is transient here (upstream returns it as the error). */
	struct world w2 = { { 2 }, 0, { 0 }, { 0 }, { 0 }, false };
	env = env_of(&w2);
	CU_ASSERT_EQUAL(rb_rollback_stage_to_snapshot(&env, &clk, &ev, "ns", "ss", &st, "b", 1, rev, sizeof(rev), &ok, why, sizeof(why), &err), -1);
	CU_ASSERT(!ok);
	CU_ASSERT_STRING_EQUAL(err.msg, "conflict on Deployment/web");
	CU_ASSERT_STRING_EQUAL(why, "");
	sst_status_release(&st);
	unload();
}

/* ---- the rollback store (rollbackstore_test.go, rollback_storeerr_test.go, key_test.go) ---- */

/* A scripted RollbackStore: Put answers put_rc, Get answers get; the keys asked. */
struct fstore {
	int put_rc;
	enum ssc_store_get get;
	char put_key[256], get_key[256];
	size_t puts, gets;
};

static int f_put(void *ctx, const char *key, int64_t at_ms, struct ssc_err *err)
{
	struct fstore *f = ctx;

	(void)at_ms;
	f->puts++;
	snprintf(f->put_key, sizeof(f->put_key), "%s", key);
	if (f->put_rc)
		ssc_err_set(err, SSC_ERR, "disk full");
	return f->put_rc;
}

static enum ssc_store_get f_get(void *ctx, const char *key, int64_t at_ms, struct ssc_err *err)
{
	struct fstore *f = ctx;

	(void)at_ms;
	f->gets++;
	snprintf(f->get_key, sizeof(f->get_key), "%s", key);
	if (f->get == SSC_STORE_ERROR)
		ssc_err_set(err, SSC_ERR, "s3: connection reset");
	else if (f->get == SSC_STORE_CORRUPT)
		ssc_err_set(err, SSC_ERR, "unexpected end of JSON input");
	return f->get;
}

static void test_key(void)
{
	static const struct {
		const char *ns, *name, *stage, *digest, *want;
	} cases[] = {
		{ "team-a", "web", "canary", "sha256:abc123", "team-a/web/canary/sha256-abc123" },
		{ "ns", "ss", "stage-a", "sha256:deadbeef", "ns/ss/stage-a/sha256-deadbeef" },
		{ "ns", "ss", "s", "a:b:c", "ns/ss/s/a-b-c" },     /* every ':' of the digest */
		{ "ns", "ss", "s", "nocolon", "ns/ss/s/nocolon" },
		{ "ns", "ss", "s", "", "ns/ss/s/" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *k = rb_key(cases[i].ns, cases[i].name, cases[i].stage, cases[i].digest);

		CU_ASSERT_STRING_EQUAL(k, cases[i].want);
		free(k);
	}
}

/* storeRendered: a Put under the key; a failure is a Warning event, nothing else. */
static void test_store_rendered(void)
{
	struct fstore f = { 0, SSC_STORE_MISSING, "", "", 0, 0 };
	struct ssc_rollback_store store = { &f, f_put, f_get };

	rb_store_rendered(&store, &ev, T0, "ns", "store-ok", "stage-a", "sha256:ea");
	CU_ASSERT_EQUAL(f.puts, 1);
	CU_ASSERT_STRING_EQUAL(f.put_key, "ns/store-ok/stage-a/sha256-ea");
	CU_ASSERT_EQUAL(ev.n, 0);

	f.put_rc = -1;
	rb_store_rendered(&store, &ev, T0 + 5, "ns", "store-ok", "stage-a", "sha256:ea");
	CU_ASSERT_EQUAL_FATAL(ev.n, 1);
	CU_ASSERT(ev.items[0].warning);
	CU_ASSERT_EQUAL(ev.items[0].at_ms, T0 + 5);
	CU_ASSERT_STRING_EQUAL(ev.items[0].reason, "RollbackStoreFailed");
	CU_ASSERT_STRING_EQUAL(ev.items[0].note,
			       "storing stage \"stage-a\" in the rollback store failed: disk full");
	ssc_events_release(&ev);
}

static const char *one = "stages: [{name: stage-a, sourceRef: {name: ea}}]";

/* A one-stage snapshot {stage-a, sha256:deadbeef, r1}. */
static void snapshot_one(struct sst_status *st)
{
	struct ssc_resolved ra;

	memset(&ra, 0, sizeof(ra));
	ra.url = "http://gone.invalid/x.tar.gz";
	ra.digest = "sha256:deadbeef";
	ra.revision = "r1";
	rb_snapshot_stages(&spec, &ra, NULL, st);
}

/* TestAttemptRollback_StoreSurvivesProducerGC: the store's copy, the producer not asked. */
static void test_store_survives_producer_gc(void)
{
	struct world w = { { 0 }, 0, { 0 }, { 0 }, { 0 }, true };
	struct fstore f = { 0, SSC_STORE_FOUND, "", "", 0, 0 };
	struct ssc_rollback_store store = { &f, f_put, f_get };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_status st;
	struct ssc_err err;
	char reason[64], msg[512];
	size_t restored[2], nrestored = 99;

	env.rollback_store = &store;
	load(one);
	sst_status_init(&st);
	snapshot_one(&st);
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "store-gc", &spec, &st, reason, sizeof(reason),
					    msg, sizeof(msg), &err, restored, &nrestored),
			RB_RESTORED);
	CU_ASSERT_STRING_EQUAL(f.get_key, "ns/store-gc/stage-a/sha256-deadbeef");
	CU_ASSERT_EQUAL(w.calls, 1);
	CU_ASSERT(w.from_store[0]);
	CU_ASSERT_EQUAL(nrestored, 1); /* the inventory records the restored objects */
	CU_ASSERT_STRING_EQUAL(reason, "");
	CU_ASSERT_EQUAL(ev.n, 0);

	/* Without the store the same GC'd producer makes the rollback terminal. */
	env.rollback_store = NULL;
	w.calls = 0;
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "store-gc", &spec, &st, reason, sizeof(reason),
					    msg, sizeof(msg), &err, restored, &nrestored),
			RB_TERMINAL);
	CU_ASSERT(!w.from_store[0]);
	CU_ASSERT_STRING_EQUAL(reason, "PreviousRevisionUnavailable");
	sst_status_release(&st);
	unload();
}

/* TestRollbackStageObjects_TransientStoreError_BacksOff */
static void test_transient_store_error_backs_off(void)
{
	struct world w = { { 0 }, 0, { 0 }, { 0 }, { 0 }, false };
	struct fstore f = { 0, SSC_STORE_ERROR, "", "", 0, 0 };
	struct ssc_rollback_store store = { &f, f_put, f_get };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_status st;
	struct ssc_err err;
	char reason[64], msg[512], rev[64], why[512];
	size_t restored[2], nrestored = 99;
	bool ok = true;

	env.rollback_store = &store;
	load(one);
	sst_status_init(&st);
	snapshot_one(&st);
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "ss", &spec, &st, reason, sizeof(reason), msg,
					    sizeof(msg), &err, restored, &nrestored),
			RB_TRANSIENT);
	CU_ASSERT_EQUAL(w.calls, 0); /* no fall-through to the producer */
	CU_ASSERT_STRING_EQUAL(reason, "");
	CU_ASSERT_STRING_EQUAL(err.msg, "rollback store get stage \"stage-a\": s3: connection reset");
	CU_ASSERT_EQUAL_FATAL(ev.n, 1);
	CU_ASSERT(ev.items[0].warning);
	CU_ASSERT_STRING_EQUAL(ev.items[0].reason, "RollbackStoreFailed");
	CU_ASSERT_STRING_EQUAL(ev.items[0].note,
			       "reading stage \"stage-a\" from the rollback store failed: s3: connection reset");
	/* rollbackStageToSnapshot returns it as its error */
	CU_ASSERT_EQUAL(rb_rollback_stage_to_snapshot(&env, &clk, &ev, "ns", "ss", &st, "stage-a", 0, rev, sizeof(rev),
						      &ok, why, sizeof(why), &err),
			-1);
	CU_ASSERT(!ok);
	CU_ASSERT_EQUAL(w.calls, 0);
	CU_ASSERT_EQUAL(ev.n, 2);
	sst_status_release(&st);
	unload();
}

/* TestRollbackStageObjects_CorruptSnapshot_EventsAndFallsThrough; a clean miss falls through silently. */
static void test_corrupt_snapshot_events_and_falls_through(void)
{
	struct world w = { { 0 }, 0, { 0 }, { 0 }, { 0 }, true };
	struct fstore f = { 0, SSC_STORE_CORRUPT, "", "", 0, 0 };
	struct ssc_rollback_store store = { &f, f_put, f_get };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_status st;
	struct ssc_err err;
	char reason[64], msg[512];
	size_t restored[2], nrestored = 99;

	env.rollback_store = &store;
	load(one);
	sst_status_init(&st);
	snapshot_one(&st);
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "ss", &spec, &st, reason, sizeof(reason), msg,
					    sizeof(msg), &err, restored, &nrestored),
			RB_TERMINAL);
	CU_ASSERT_EQUAL(w.calls, 1);
	CU_ASSERT(!w.from_store[0]); /* the producer re-fetch, which fails */
	CU_ASSERT_STRING_EQUAL(reason, "PreviousRevisionUnavailable");
	CU_ASSERT_EQUAL_FATAL(ev.n, 1);
	CU_ASSERT_STRING_EQUAL(ev.items[0].reason, "RollbackStoreFailed");
	CU_ASSERT_STRING_EQUAL(ev.items[0].note,
			       "decoding stage \"stage-a\" from the rollback store failed (corrupt snapshot); "
			       "falling back to producer re-fetch: unexpected end of JSON input");

	f.get = SSC_STORE_MISSING;
	w.calls = 0;
	w.gc = false;
	CU_ASSERT_EQUAL(rb_attempt_rollback(&env, &clk, &ev, "ns", "ss", &spec, &st, reason, sizeof(reason), msg,
					    sizeof(msg), &err, restored, &nrestored),
			RB_RESTORED);
	CU_ASSERT_EQUAL(w.calls, 1);
	CU_ASSERT(!w.from_store[0]);
	CU_ASSERT_EQUAL(ev.n, 1); /* a miss is no event */
	sst_status_release(&st);
	unload();
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "snapshotStages", test_snapshot_stages },
		{ "attemptRollback: restores previous revisions in snapshot order", test_rollback_restores_in_snapshot_order },
		{ "attemptRollback: first run has nothing to restore", test_rollback_first_run_has_nothing_to_restore },
		{ "attemptRollback: terminal and transient", test_rollback_terminal_and_transient },
		{ "rollbackStageToSnapshot", test_rollback_stage_to_snapshot },
		{ "Key", test_key },
		{ "storeRendered", test_store_rendered },
		{ "AttemptRollback_StoreSurvivesProducerGC", test_store_survives_producer_gc },
		{ "RollbackStageObjects_TransientStoreError_BacksOff", test_transient_store_error_backs_off },
		{ "RollbackStageObjects_CorruptSnapshot_EventsAndFallsThrough",
		  test_corrupt_snapshot_events_and_falls_through },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("stageset_rollback", tests);
}
