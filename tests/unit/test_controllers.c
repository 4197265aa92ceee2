/* Unit tests for sim/world/controllers: work queue, watches, RequeueAfter, rate limiter. */
#include <stdio.h>
#include <string.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/controllers.h"
#include "sim/world/des.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define MAXCALLS 256

/* What a test reconcile saw, and what it returns. */
struct rec {
	int n;
	int64_t t[MAXCALLS];
	char key[MAXCALLS][48];
	int errors_first;       /* return an error for the first N calls */
	int64_t requeue_after;  /* returned on success */
	int error_after;        /* from this call index on, errors again (0: never) */
};

static struct ctl_result reconcile_rec(void *ctx, struct des *w, const char *ns, const char *name,
				       int64_t now)
{
	struct rec *r = ctx;
	struct ctl_result res = { 0, false, 0 };

	(void)w;
	CU_ASSERT_FATAL(r->n < MAXCALLS);
	r->t[r->n] = now;
	snprintf(r->key[r->n], sizeof(r->key[0]), "%s/%s", ns, name);
	if (r->n < r->errors_first || (r->error_after && r->n >= r->error_after))
		res.err = -1;
	else
		res.requeue_after_ms = r->requeue_after;
	r->n++;
	return res;
}

static char v1[] = "1", v2[] = "2", v3[] = "3";

static void annotate(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	api_set_annotation(des_api(w), "Workspace", "default", "a", "n", arg);
}

static void test_dedup_while_queued(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "workspace-controller", reconcile_rec, &r);

	ctl_for(c, "Workspace", NULL, NULL);
	api_create(des_api(w), fx_ws_ref("default", "a", "p"));
	des_at(w, 10, DES_PRIO_SCRIPT, annotate, NULL, v1);
	des_at(w, 10, DES_PRIO_SCRIPT, annotate, NULL, v2);
	des_at(w, 10, DES_PRIO_SCRIPT, annotate, NULL, v3);
	ctl_enqueue(c, "default", "a"); /* while the ADDED is pending: same key, one reconcile */
	CU_ASSERT_EQUAL(ctl_queue_len(c), 1);
	CU_ASSERT_EQUAL(des_run(w, 1000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.t[0], 0);
	CU_ASSERT_EQUAL(r.t[1], 10);
	CU_ASSERT_STRING_EQUAL(r.key[1], "default/a");
	CU_ASSERT_EQUAL(ctl_reconciles(c), 2);
	CU_ASSERT_STRING_EQUAL(ctl_name(c), "workspace-controller");
	des_free(w);
}

static void test_readd_while_processing(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "workspace-controller", reconcile_rec, &r);

	ctl_for(c, "Workspace", NULL, NULL);
	ctl_set_duration(c, 100);
	api_create(des_api(w), fx_ws_ref("default", "a", "p"));
	des_at(w, 20, DES_PRIO_SCRIPT, annotate, NULL, v1);
	des_at(w, 30, DES_PRIO_SCRIPT, annotate, NULL, v2);
	des_at(w, 40, DES_PRIO_SCRIPT, annotate, NULL, v3);
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	/* busy 0..100; three triggers meanwhile make one more reconcile when it ends */
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.t[0], 0);
	CU_ASSERT_EQUAL(r.t[1], 100);
	des_free(w);
}

static void test_one_reconcile_at_a_time(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "workspace-controller", reconcile_rec, &r);

	ctl_for(c, "Workspace", NULL, NULL);
	ctl_set_duration(c, 50);
	api_create(des_api(w), fx_ws_ref("default", "b", "p"));
	api_create(des_api(w), fx_ws_ref("default", "a", "p"));
	api_create(des_api(w), fx_ws_ref("dev", "c", "p"));
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(r.n, 3);
	/* FIFO in event order, serialised by the single worker */
	CU_ASSERT_STRING_EQUAL(r.key[0], "default/b");
	CU_ASSERT_STRING_EQUAL(r.key[1], "default/a");
	CU_ASSERT_STRING_EQUAL(r.key[2], "dev/c");
	CU_ASSERT_EQUAL(r.t[0], 0);
	CU_ASSERT_EQUAL(r.t[1], 50);
	CU_ASSERT_EQUAL(r.t[2], 100);
	des_free(w);
}

/* Map a Workspace to the Rollout named like its spec.projectRef.name. */
static void map_project(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	const char *p = val_str(val_path(o->spec, "projectRef.name"), NULL);

	(void)ctx;
	(void)w;
	if (p)
		ctl_keys_add(out, o->ns, p);
}

static void move_to_p2(struct des *w, void *ctx, void *arg)
{
	struct obj *o = obj_copy(api_get(des_api(w), "Workspace", "default", "a"));

	(void)ctx;
	(void)arg;
	val_map_set(val_path(o->spec, "projectRef"), "name", val_new_string("p2"));
	CU_ASSERT_EQUAL(api_update(des_api(w), o), 0);
}

static void test_watch_map_old_and_new(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "rollout-controller", reconcile_rec, &r);

	ctl_watches(c, "Workspace", map_project, NULL, ctl_pred_rv_changed, NULL);
	api_create(des_api(w), fx_ws_ref("default", "a", "p1"));
	des_at(w, 5, DES_PRIO_SCRIPT, move_to_p2, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(w, 1000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(r.n, 3);
	CU_ASSERT_STRING_EQUAL(r.key[0], "default/p1");
	CU_ASSERT_EQUAL(r.t[0], 0);
	/* the update enqueues the old project's key and the new one's */
	CU_ASSERT_STRING_EQUAL(r.key[1], "default/p1");
	CU_ASSERT_STRING_EQUAL(r.key[2], "default/p2");
	CU_ASSERT_EQUAL(r.t[1], 5);
	CU_ASSERT_EQUAL(r.t[2], 5);
	des_free(w);
}

static void test_predicates(void)
{
	struct obj *a = fx_ws_ref("default", "a", "p"), *b = fx_ws_ref("default", "a", "p");

	a->resource_version = 3;
	b->resource_version = 3;
	CU_ASSERT_FALSE(ctl_pred_rv_changed(NULL, API_MODIFIED, a, b));
	CU_ASSERT_TRUE(ctl_pred_rv_changed(NULL, API_ADDED, NULL, b));
	CU_ASSERT_TRUE(ctl_pred_rv_changed(NULL, API_DELETED, NULL, b));
	b->resource_version = 4;
	CU_ASSERT_TRUE(ctl_pred_rv_changed(NULL, API_MODIFIED, a, b));
	CU_ASSERT_FALSE(ctl_pred_generation_changed(NULL, API_MODIFIED, a, b));
	b->generation = 2;
	CU_ASSERT_TRUE(ctl_pred_generation_changed(NULL, API_MODIFIED, a, b));
	obj_free(a);
	obj_free(b);
}

static void test_requeue_after_timing(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { .requeue_after = 30000 };
	struct ctl *c = ctl_new(w, "fleet-controller", reconcile_rec, &r);

	ctl_enqueue(c, "", "fleet");
	CU_ASSERT_EQUAL(des_run(w, 100000, NULL), DES_HORIZON);
	CU_ASSERT_EQUAL(r.n, 4);
	CU_ASSERT_EQUAL(r.t[0], 0);
	CU_ASSERT_EQUAL(r.t[1], 30000);
	CU_ASSERT_EQUAL(r.t[2], 60000);
	CU_ASSERT_EQUAL(r.t[3], 90000);
	CU_ASSERT_STRING_EQUAL(r.key[0], "/fleet");
	des_free(w);
}

static void enqueue_after_10s(struct des *w, void *ctx, void *arg)
{
	(void)w;
	(void)arg;
	ctl_enqueue_after(ctx, "", "fleet", 10000);
}

static void enqueue_after_50s(struct des *w, void *ctx, void *arg)
{
	(void)w;
	(void)arg;
	ctl_enqueue_after(ctx, "", "fleet", 50000);
}

static void test_add_after_earliest_wins(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { .requeue_after = 30000 };
	struct ctl *c = ctl_new(w, "fleet-controller", reconcile_rec, &r);

	ctl_enqueue(c, "", "fleet");
	/* t=1: AddAfter 10 s moves the pending 30 s timer to 10 001 */
	des_at(w, 1, DES_PRIO_SCRIPT, enqueue_after_10s, c, NULL);
	/* t=10 002: AddAfter 50 s does not delay the new 30 s timer (due 40 001) */
	des_at(w, 10002, DES_PRIO_SCRIPT, enqueue_after_50s, c, NULL);
	CU_ASSERT_EQUAL(des_run(w, 45000, NULL), DES_HORIZON);
	CU_ASSERT_EQUAL(r.n, 3);
	CU_ASSERT_EQUAL(r.t[0], 0);
	CU_ASSERT_EQUAL(r.t[1], 10001);
	CU_ASSERT_EQUAL(r.t[2], 40001);
	des_free(w);
}

static void test_error_backoff_sequence(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { .errors_first = 22 };
	struct ctl *c = ctl_new(w, "rollout-controller", reconcile_rec, &r);
	int64_t expect = 0;

	ctl_enqueue(c, "default", "demo");
	CU_ASSERT_EQUAL(des_run(w, INT64_C(30000000), NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL_FATAL(r.n, 23);
	/* 22 errors: delays 5, 10, 20, ... 5·2^17 = 655 360, then capped at 1000 s */
	for (int i = 0; i < 22; i++) {
		int64_t d = i < 18 ? (INT64_C(5) << i) : INT64_C(1000000);

		CU_ASSERT_EQUAL(r.t[i], expect);
		expect += d;
	}
	CU_ASSERT_EQUAL(r.t[22], expect); /* success, no requeue: the run ends */
	CU_ASSERT_EQUAL(ctl_failures(c, "default", "demo"), 0);
	des_free(w);
}

static void test_error_backoff_after_success_resets(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { .errors_first = 3, .requeue_after = 1000, .error_after = 4 };
	struct ctl *c = ctl_new(w, "rollout-controller", reconcile_rec, &r);

	ctl_enqueue(c, "default", "demo");
	CU_ASSERT_EQUAL(des_run(w, 1060, NULL), DES_HORIZON);
	/* errors at 0, 5, 15; success at 35 (RequeueAfter 1 s); error at 1035 → 5 ms again */
	CU_ASSERT_EQUAL(r.n, 7);
	CU_ASSERT_EQUAL(r.t[0], 0);
	CU_ASSERT_EQUAL(r.t[1], 5);
	CU_ASSERT_EQUAL(r.t[2], 15);
	CU_ASSERT_EQUAL(r.t[3], 35);
	CU_ASSERT_EQUAL(r.t[4], 1035);
	CU_ASSERT_EQUAL(r.t[5], 1040);
	CU_ASSERT_EQUAL(r.t[6], 1050);
	CU_ASSERT_EQUAL(ctl_failures(c, "default", "demo"), 3);
	des_free(w);
}

static void test_token_bucket(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { .errors_first = 101 };
	struct ctl *c = ctl_new(w, "rollout-controller", reconcile_rec, &r);
	char name[16];
	int at5 = 0, at100 = 0, at200 = 0;

	for (int i = 0; i < 102; i++) {
		snprintf(name, sizeof(name), "k%03d", i);
		ctl_enqueue(c, "ns", name);
	}
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(r.n, 102 + 101);
	/* 101 errors at t=0: the burst of 100 tokens covers 100, the 101st waits 100 ms */
	for (int i = 102; i < r.n; i++) {
		at5 += r.t[i] == 5;
		at100 += r.t[i] == 100;
		at200 += r.t[i] == 200;
	}
	CU_ASSERT_EQUAL(at5, 100);
	CU_ASSERT_EQUAL(at100, 1);
	CU_ASSERT_EQUAL(at200, 0);
	CU_ASSERT_STRING_EQUAL(r.key[r.n - 1], "ns/k100");
	CU_ASSERT_EQUAL(r.t[r.n - 1], 100);
	des_free(w);
}

static CU_TestInfo tests[] = {
	{ "several triggers while queued: one reconcile", test_dedup_while_queued },
	{ "re-added while processing: exactly one more after", test_readd_while_processing },
	{ "one reconcile at a time, FIFO", test_one_reconcile_at_a_time },
	{ "Watches map function: old and new keys", test_watch_map_old_and_new },
	{ "ResourceVersionChanged and GenerationChanged predicates", test_predicates },
	{ "RequeueAfter timing", test_requeue_after_timing },
	{ "AddAfter: the earliest pending wins", test_add_after_earliest_wins },
	{ "error back-off 5 ms doubling, capped at 1000 s", test_error_backoff_sequence },
	{ "success resets the back-off", test_error_backoff_after_success_resets },
	{ "token bucket: 10 qps, burst 100", test_token_bucket },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("controllers", tests);
}
