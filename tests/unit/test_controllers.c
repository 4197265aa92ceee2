/*
 * Unit tests for sim/world/controllers: work queue, watches, RequeueAfter, rate
 * limiter; the priority queue's rules a table each (controller-runtime
 * v0.24.1 pkg/controller/priorityqueue, pkg/handler, reconcileHandler).
 */
#include <stdio.h>
#include <string.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
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
	bool requeue;           /* Result.Requeue on success */
	int64_t busy_ms;        /* returned with every result */
};

static struct ctl_result reconcile_rec(void *ctx, struct des *w, const char *ns, const char *name,
				       int64_t now)
{
	struct rec *r = ctx;
	struct ctl_result res = { 0 };

	(void)w;
	CU_ASSERT_FATAL(r->n < MAXCALLS);
	r->t[r->n] = now;
	snprintf(r->key[r->n], sizeof(r->key[0]), "%s/%s", ns, name);
	if (r->n < r->errors_first || (r->error_after && r->n >= r->error_after))
		res.err = -1;
	else {
		res.requeue_after_ms = r->requeue_after;
		res.requeue = r->requeue;
	}
	res.busy_ms = r->busy_ms;
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

/* ---- the queue's rules (controller-runtime v0.24.1 pkg/controller/priorityqueue) ---- */

/* Records a table case's check under its name, so a failure says which case. */
#define CHECK_CASE(cond, name)                                                           \
	CU_assertImplementation((cond) ? CU_TRUE : CU_FALSE, __LINE__, (name), __FILE__, "", \
				CU_FALSE)

/* The names (after the '/') of the keys reconciled, in order, space separated. */
static void served(const struct rec *r, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->n && n + 1 < size; i++) {
		const char *slash = strchr(r->key[i], '/');

		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "", slash ? slash + 1 : r->key[i]);
	}
}

static void test_pq_earliest_ready_time_wins(void)
{
	static const struct {
		const char *name;
		int64_t first, second; /* AddAfter delays, ms; 0: Add */
		int64_t want;          /* the entry's ready time, -1: ready */
	} cases[] = {
		{ "a shorter delay moves the entry earlier", 30000, 10000, 10000 },
		{ "a longer delay leaves it", 10000, 30000, 10000 },
		{ "equal delays", 5000, 5000, 5000 },
		{ "an immediate add makes a delayed entry ready", 10000, 0, -1 },
		{ "a delay leaves a ready entry ready", 0, 10000, -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct des *w = des_new(NULL);
		struct rec r = { 0 };
		struct ctl *c = ctl_new(w, "fleetrollout-controller", reconcile_rec, &r);
		int64_t at = -2;
		int prio = 1;

		ctl_add(c, "", "k", cases[i].first, 0);
		ctl_add(c, "", "k", cases[i].second, 0);
		CHECK_CASE(ctl_entry(c, "", "k", &prio, &at) && at == cases[i].want && prio == 0,
			   cases[i].name);
		CHECK_CASE(des_run(w, 100000, NULL) == DES_QUIESCENT && r.n == 1 &&
				   r.t[0] == (cases[i].want < 0 ? 0 : cases[i].want),
			   cases[i].name);
		CHECK_CASE(!ctl_entry(c, "", "k", NULL, NULL), cases[i].name);
		des_free(w);
	}
}

static void test_pq_highest_priority_wins(void)
{
	static const struct {
		const char *name;
		int first, second, want;
	} cases[] = {
		{ "an event raises an initial-list entry", CTL_PRIORITY_LOW, 0, 0 },
		{ "an initial-list add does not lower an entry", 0, CTL_PRIORITY_LOW, 0 },
		{ "higher of two positive", 3, 7, 7 },
		{ "higher kept", 7, 3, 7 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct des *w = des_new(NULL);
		struct rec r = { 0 };
		struct ctl *c = ctl_new(w, "fleetrollout-controller", reconcile_rec, &r);
		int prio = 99;

		/* delayed: the priority counts for waiting entries too */
		ctl_add(c, "", "k", 1000, cases[i].first);
		ctl_add(c, "", "k", 2000, cases[i].second);
		CHECK_CASE(ctl_entry(c, "", "k", &prio, NULL) && prio == cases[i].want, cases[i].name);
		ctl_add(c, "", "k", 0, cases[i].second);
		CHECK_CASE(ctl_entry(c, "", "k", &prio, NULL) && prio == cases[i].want, cases[i].name);
		des_free(w);
	}
}

static void test_pq_fifo_by_counter(void)
{
	static const struct {
		const char *name;
		struct {
			const char *key;
			int64_t after; /* ms */
			int prio;
		} ops[5];
		size_t nops;
		const char *want; /* the order reconciled */
	} cases[] = {
		{ "equal priorities: first in, first out",
		  { { "a", 0, 0 }, { "b", 0, 0 }, { "c", 0, 0 } }, 3, "a b c" },
		{ "re-adding a queued key keeps its place",
		  { { "a", 0, 0 }, { "b", 0, 0 }, { "a", 0, 0 } }, 3, "a b" },
		{ "higher priority first, the initial list last",
		  { { "a", 0, 0 }, { "b", 0, 5 }, { "c", 0, CTL_PRIORITY_LOW } }, 3, "b a c" },
		{ "a lower priority neither lowers nor moves an entry",
		  { { "a", 0, 5 }, { "b", 0, 5 }, { "a", 0, CTL_PRIORITY_LOW } }, 3, "a b" },
		{ "a raised priority draws a new counter: last among its new peers",
		  { { "a", 0, 0 }, { "b", 0, 5 }, { "c", 0, 5 }, { "a", 0, 5 } }, 4, "b c a" },
		{ "an immediate add ends a delay and keeps the counter",
		  { { "a", 1000, 0 }, { "b", 0, 0 }, { "a", 0, 0 } }, 3, "a b" },
		{ "an immediate add that raises a delayed entry draws a new counter",
		  { { "a", 1000, CTL_PRIORITY_LOW }, { "b", 0, 0 }, { "a", 0, 0 } }, 3, "b a" },
	};
	char got[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct des *w = des_new(NULL);
		struct rec r = { 0 };
		struct ctl *c = ctl_new(w, "fleetrollout-controller", reconcile_rec, &r);

		for (size_t j = 0; j < cases[i].nops; j++)
			ctl_add(c, "", cases[i].ops[j].key, cases[i].ops[j].after, cases[i].ops[j].prio);
		CHECK_CASE(des_run(w, 100000, NULL) == DES_QUIESCENT, cases[i].name);
		served(&r, got, sizeof(got));
		CHECK_CASE(strcmp(got, cases[i].want) == 0, cases[i].name);
		if (strcmp(got, cases[i].want) != 0)
			fprintf(stderr, "\n%s: served '%s', want '%s'\n", cases[i].name, got,
				cases[i].want);
		des_free(w);
	}
}

static void add_b(struct des *w, void *ctx, void *arg)
{
	(void)w;
	(void)arg;
	ctl_enqueue(ctx, "", "b");
}

static void test_pq_expired_delay_draws_a_counter(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "fleetrollout-controller", reconcile_rec, &r);
	char got[64];

	ctl_set_duration(c, 20);
	ctl_enqueue(c, "", "c");             /* counter 0: runs 0..20 */
	ctl_enqueue_after(c, "", "a", 10);   /* counter 1, ready at 10 with counter 3 */
	des_at(w, 5, DES_PRIO_SCRIPT, add_b, c, NULL); /* counter 2 */
	CU_ASSERT_EQUAL(des_run(w, 100000, NULL), DES_QUIESCENT);
	served(&r, got, sizeof(got));
	/* a became ready after b was added: it queues behind b */
	CU_ASSERT_STRING_EQUAL(got, "c b a");
	CU_ASSERT_EQUAL(r.t[1], 20);
	CU_ASSERT_EQUAL(r.t[2], 40);
	des_free(w);

	/* due at one instant: they become ready in (ready time, priority, counter) order */
	w = des_new(NULL);
	memset(&r, 0, sizeof(r));
	c = ctl_new(w, "fleetrollout-controller", reconcile_rec, &r);
	ctl_enqueue_after(c, "", "c", 20); /* counter 0 */
	ctl_enqueue_after(c, "", "b", 10); /* counter 1 */
	ctl_enqueue_after(c, "", "c", 10); /* earlier: same counter, now due with b */
	CU_ASSERT_EQUAL(des_run(w, 100000, NULL), DES_QUIESCENT);
	served(&r, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "c b");
	CU_ASSERT_EQUAL(r.t[0], 10);
	CU_ASSERT_EQUAL(r.t[1], 10);
	des_free(w);
}

/*
 * Many waiting entries, a third of them moved earlier while deep in the
 * heap: they are served in (ready time, counter) order whatever the heap's
 * shape (an entry moved in place keeps its counter, as upstream's does).
 */
static void test_pq_many_waiting_moved_earlier(void)
{
	enum { N = 120 };
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "fleetrollout-controller", reconcile_rec, &r);
	int64_t delay[N];
	int order[N];
	char name[16];

	for (int i = 0; i < N; i++) {
		delay[i] = 1000 + (int64_t)((i * 37) % 50) * 100; /* ties: 50 distinct times */
		snprintf(name, sizeof(name), "k%d", i);
		ctl_enqueue_after(c, "", name, delay[i]);
	}
	for (int i = 0; i < N; i += 3) {
		delay[i] = delay[i] > 2000 ? delay[i] - 1500 : delay[i];
		snprintf(name, sizeof(name), "k%d", i);
		ctl_enqueue_after(c, "", name, delay[i]);
	}
	for (int i = 0; i < N; i++)
		order[i] = i;
	/* insertion sort by (delay, index): the index is the counter order */
	for (int i = 1; i < N; i++)
		for (int j = i; j > 0 && delay[order[j]] < delay[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	CU_ASSERT_EQUAL(des_run(w, 100000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL_FATAL(r.n, N);
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "/k%d", order[i]);
		CU_ASSERT_STRING_EQUAL(r.key[i], name);
		CU_ASSERT_EQUAL(r.t[i], delay[order[i]]);
	}
	des_free(w);
}

static void create_a(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	CU_ASSERT_EQUAL(api_create(des_api(w), fx_ws_ref("default", "a", "p2")), 0);
}

static void test_pq_priority_kept_through_requeues(void)
{
	enum { ERR, REQUEUE, AFTER };
	static const struct {
		const char *name;
		bool initial; /* a is in the store when the controller starts */
		int result;
		int want_prio;
		int64_t want_at;
	} cases[] = {
		{ "initial list, RequeueAfter", true, AFTER, CTL_PRIORITY_LOW, 60000 },
		{ "initial list, error", true, ERR, CTL_PRIORITY_LOW, 5 },
		{ "initial list, Requeue", true, REQUEUE, CTL_PRIORITY_LOW, 5 },
		{ "created after start, RequeueAfter", false, AFTER, 0, 60000 },
		{ "created after start, error", false, ERR, 0, 5 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct des *w = des_new(NULL);
		struct rec r = { 0 };
		struct ctl *c = ctl_new(w, "workspace-controller", reconcile_rec, &r);
		int prio = 99;
		int64_t at = -2;

		r.errors_first = cases[i].result == ERR;
		r.requeue = cases[i].result == REQUEUE;
		r.requeue_after = cases[i].result == AFTER ? 60000 : 0;
		ctl_for(c, "Workspace", NULL, NULL);
		if (cases[i].initial)
			api_create(des_api(w), fx_ws_ref("default", "a", "p"));
		else
			des_at(w, 0, DES_PRIO_SCRIPT, create_a, NULL, NULL);
		des_run(w, 1, NULL);
		CHECK_CASE(r.n == 1, cases[i].name);
		CHECK_CASE(ctl_entry(c, "default", "a", &prio, &at) && prio == cases[i].want_prio &&
				   at == cases[i].want_at,
			   cases[i].name);
		des_free(w);
	}
}

static void test_pq_event_raises_for_good(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { .requeue_after = 60000 };
	struct ctl *c = ctl_new(w, "workspace-controller", reconcile_rec, &r);
	int prio = 99;
	int64_t at = -2;

	ctl_for(c, "Workspace", NULL, NULL);
	api_create(des_api(w), fx_ws_ref("default", "a", "p"));
	des_at(w, 10, DES_PRIO_SCRIPT, annotate, NULL, v1);
	des_run(w, 11, NULL);
	/* 0: initial list (-100), requeue at 60 000 (-100); 10: the update raises it to 0 */
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.t[1], 10);
	CU_ASSERT_TRUE(ctl_entry(c, "default", "a", &prio, &at));
	CU_ASSERT_EQUAL(prio, 0);
	CU_ASSERT_EQUAL(at, 60010);
	des_free(w);
}

/* What the probe of test_pq_initial_list does at t=10 before probing. */
enum { PROBE_NOTHING, PROBE_RESYNC, PROBE_UPDATE, PROBE_DELETE };

struct probe {
	struct ctl *c;
	int what;
	int prio;
	bool found;
};

static void change_a(struct des *w, void *ctx, void *arg)
{
	struct probe *p = ctx;
	struct api *api = des_api(w);

	(void)arg;
	switch (p->what) {
	case PROBE_RESYNC: {
		/* a resync delivers the cached object again: old and new share a resourceVersion */
		struct api_snap *s = api_get_snap(api, "Workspace", "default", "a");
		struct api_event ev = { API_MODIFIED, s, s };

		api_dispatch(api, &ev);
		break;
	}
	case PROBE_UPDATE:
		api_set_annotation(api, "Workspace", "default", "a", "n", "1");
		break;
	case PROBE_DELETE:
		api_delete(api, "Workspace", "default", "a");
		break;
	}
}

/* Between the deliveries and the reconciles of an instant: the entry as the events left it. */
static void probe_entry(struct des *w, void *ctx, void *arg)
{
	struct probe *p = ctx;

	(void)w;
	(void)arg;
	p->found = ctl_entry(p->c, "default", "a", &p->prio, NULL);
}

static void test_pq_initial_list(void)
{
	static const struct {
		const char *name;
		bool initial; /* a is in the store when the controller starts */
		int what;     /* then at t=10 */
		int want;
	} cases[] = {
		{ "ADDED from the initial list", true, PROBE_NOTHING, CTL_PRIORITY_LOW },
		{ "ADDED after start", false, PROBE_NOTHING, 0 },
		{ "update with an unchanged resourceVersion (resync)", true, PROBE_RESYNC,
		  CTL_PRIORITY_LOW },
		{ "update", true, PROBE_UPDATE, 0 },
		{ "delete", true, PROBE_DELETE, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct des *w = des_new(NULL);
		struct rec r = { 0 };
		struct probe p = { .what = cases[i].what, .prio = 99 };
		int64_t t = cases[i].what == PROBE_NOTHING ? 0 : 10;

		p.c = ctl_new(w, "workspace-controller", reconcile_rec, &r);
		ctl_for(p.c, "Workspace", NULL, NULL);
		if (cases[i].initial)
			api_create(des_api(w), fx_ws_ref("default", "a", "p"));
		else
			des_at(w, 0, DES_PRIO_SCRIPT, create_a, NULL, NULL);
		if (t > 0)
			des_at(w, t, DES_PRIO_SCRIPT, change_a, &p, NULL);
		des_at(w, t, DES_PRIO_DELIVERY + 1, probe_entry, &p, NULL);
		des_run(w, 1000, NULL);
		CHECK_CASE(p.found && p.prio == cases[i].want, cases[i].name);
		des_free(w);
	}
}

static void test_pq_initial_list_order(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "workspace-controller", reconcile_rec, &r);
	char got[64];

	ctl_for(c, "Workspace", NULL, NULL);
	api_create(des_api(w), fx_ws_ref("default", "b", "p"));
	api_create(des_api(w), fx_ws_ref("default", "c", "p"));
	des_at(w, 0, DES_PRIO_SCRIPT, create_a, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(w, 1000, NULL), DES_QUIESCENT);
	served(&r, got, sizeof(got));
	/* created after start (priority 0) before the initial list (-100), which keeps its order */
	CU_ASSERT_STRING_EQUAL(got, "a b c");
	des_free(w);

	/* through a map function alike (enqueueRequestsFromMapFunc) */
	w = des_new(NULL);
	memset(&r, 0, sizeof(r));
	c = ctl_new(w, "rollout-controller", reconcile_rec, &r);
	ctl_watches(c, "Workspace", map_project, NULL, ctl_pred_rv_changed, NULL);
	api_create(des_api(w), fx_ws_ref("default", "b", "p1"));
	des_at(w, 0, DES_PRIO_SCRIPT, create_a, NULL, NULL); /* a names p2 */
	CU_ASSERT_EQUAL(des_run(w, 1000, NULL), DES_QUIESCENT);
	served(&r, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "p2 p1");
	des_free(w);
}

/* At 10: a's resumed pass in flight with its entry besides; b waiting. */
static void probe_entries(struct des *w, void *ctx, void *arg)
{
	struct ctl_entry_info *e = NULL;
	size_t n = ctl_entries(ctx, &e);

	(void)w;
	(void)arg;
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(e[0].name, "a");
	CU_ASSERT(e[0].in_flight && e[0].queued);
	CU_ASSERT_EQUAL(e[0].started_ms, -30);
	CU_ASSERT_EQUAL(e[0].ready_at_ms, 20);
	CU_ASSERT_STRING_EQUAL(e[1].name, "b");
	CU_ASSERT(!e[1].in_flight && e[1].queued);
	CU_ASSERT_EQUAL(e[1].ready_at_ms, 50);
	CU_ASSERT_EQUAL(e[1].failures, 3);
	free(e);
}

static void test_restored_queue(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "workspace-controller", reconcile_rec, &r);
	char got[64];

	ctl_for(c, "Workspace", NULL, NULL);
	ctl_set_duration(c, 100);
	api_create(des_api(w), fx_ws_ref("default", "a", "p"));
	api_create(des_api(w), fx_ws_ref("default", "b", "p"));
	api_create(des_api(w), fx_ws_ref("default", "c", "p"));
	/* a snapshot's queue: a in flight since -30 (queued again, due at 20), b due at 50, c none */
	ctl_restore_queue(c);
	ctl_resume_pass(c, "default", "a", -30, 0, true, 20, 0);
	ctl_add(c, "default", "b", 50, 0);
	ctl_set_failures(c, "default", "b", 3);
	des_at(w, 10, DES_PRIO_SCRIPT, probe_entries, c, NULL);
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	served(&r, got, sizeof(got));
	/* no initial list (c never); a's pass as of -30 ends at 70; then a (ready at 20), b (50) */
	CU_ASSERT_STRING_EQUAL(got, "a a b");
	CU_ASSERT_EQUAL(r.t[0], -30);
	CU_ASSERT_EQUAL(r.t[1], 70);
	CU_ASSERT_EQUAL(r.t[2], 170);
	CU_ASSERT_EQUAL(ctl_failures(c, "default", "b"), 0); /* its pass succeeded: Forget */
	des_free(w);
}

static void probe_busy(struct des *w, void *ctx, void *arg)
{
	(void)w;
	(void)arg;
	CU_ASSERT_EQUAL(ctl_busy(ctx), 4);
}

static void add_a(struct des *w, void *ctx, void *arg)
{
	(void)w;
	(void)arg;
	ctl_enqueue(ctx, "", "a");
}

static void test_pq_workers(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "stageset-controller", reconcile_rec, &r);
	const char *keys[] = { "a", "b", "c", "d", "e", "f" };
	static const int64_t want[] = { 0, 0, 0, 0, 100, 100 };
	char got[64];

	ctl_set_workers(c, 4);
	ctl_set_duration(c, 100);
	for (int i = 0; i < 6; i++)
		ctl_enqueue(c, "", keys[i]);
	des_at(w, 50, DES_PRIO_SCRIPT, probe_busy, c, NULL);
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	served(&r, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "a b c d e f");
	for (int i = 0; i < 6 && i < r.n; i++)
		CU_ASSERT_EQUAL(r.t[i], want[i]);
	CU_ASSERT_EQUAL(ctl_busy(c), 0);
	des_free(w);

	/* a key is never in two passes: re-added while running, it waits although a worker is idle */
	w = des_new(NULL);
	memset(&r, 0, sizeof(r));
	c = ctl_new(w, "stageset-controller", reconcile_rec, &r);
	ctl_set_workers(c, 3);
	ctl_set_duration(c, 100);
	ctl_enqueue(c, "", "a");
	ctl_enqueue(c, "", "b");
	des_at(w, 10, DES_PRIO_SCRIPT, add_a, c, NULL);
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	served(&r, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, "a b a");
	CU_ASSERT_EQUAL(r.t[2], 100);
	des_free(w);
}

/* End of a pass for test_pq_busy_time: writes status, fails the first time. */
struct ending {
	int ends, drops;
	int64_t at[8];
	void *pass_seen;
};

static struct ending ending;
static char pass_token[] = "pass";

static struct ctl_result reconcile_busy(void *ctx, struct des *w, const char *ns,
					const char *name, int64_t now)
{
	struct ctl_result res = reconcile_rec(ctx, w, ns, name, now);

	res.pass = pass_token;
	return res;
}

static void end_pass(void *ctx, struct des *w, const char *ns, const char *name, int64_t now,
		     struct ctl_result *res)
{
	struct val *p = val_new_map();

	(void)ctx;
	if (ending.ends < 8)
		ending.at[ending.ends] = now;
	ending.pass_seen = res->pass;
	val_map_set(p, "phase", val_new_string(ending.ends ? "Ready" : "Failed"));
	api_patch_status(des_api(w), "Workspace", ns, name, p);
	val_free(p);
	if (ending.ends++ == 0)
		res->err = -1; /* the write at the end failed: back-off from the end */
}

static void drop_pass(void *ctx, void *pass)
{
	(void)ctx;
	CU_ASSERT_PTR_EQUAL(pass, pass_token);
	ending.drops++;
}

static void test_pq_busy_time(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { .requeue_after = 1000, .busy_ms = 200 };
	struct ctl *c = ctl_new(w, "stageset-controller", reconcile_busy, &r);
	struct tl_entry e;
	size_t n;

	ctl_set_duration(c, 50);
	ctl_set_end(c, end_pass, drop_pass);
	memset(&ending, 0, sizeof(ending));
	api_create(des_api(w), fx_ws_ref("default", "a", "p"));
	ctl_enqueue(c, "default", "a");
	CU_ASSERT_EQUAL(des_run(w, 2600, NULL), DES_HORIZON);
	/*
	 * 0..250 (50 fixed + 200 busy); the end fails: 5 ms back-off from 250;
	 * 255..505, RequeueAfter 1 s from the end: 1505..1755; 2755 is past the horizon
	 */
	CU_ASSERT_EQUAL(r.n, 3);
	CU_ASSERT_EQUAL(r.t[0], 0);
	CU_ASSERT_EQUAL(r.t[1], 255);
	CU_ASSERT_EQUAL(r.t[2], 1505);
	CU_ASSERT_EQUAL(ending.ends, 3);
	CU_ASSERT_EQUAL(ending.at[0], 250);
	CU_ASSERT_EQUAL(ending.at[1], 505);
	CU_ASSERT_EQUAL(ending.at[2], 1755);
	CU_ASSERT_PTR_EQUAL(ending.pass_seen, pass_token);
	/* the write at the end is the reconcile's, at the end's time */
	n = tl_count(des_timeline(w));
	CU_ASSERT_TRUE_FATAL(n >= 2);
	tl_get(des_timeline(w), 1, &e);
	CU_ASSERT_EQUAL(e.t_ms, 250);
	CU_ASSERT_STRING_EQUAL(e.cause, "reconcile stageset-controller default/a");
	CU_ASSERT_STRING_EQUAL(e.phase, "Failed");

	/* the run ends mid-pass (2755 + 250 > 3000): the pass is dropped with the controller */
	CU_ASSERT_EQUAL(des_run(w, 3000, NULL), DES_HORIZON);
	CU_ASSERT_EQUAL(r.n, 4);
	CU_ASSERT_EQUAL(ctl_busy(c), 1);
	des_free(w);
	CU_ASSERT_EQUAL(ending.drops, 1);

	/* the hold keeps the only worker: the next key starts when it ends */
	w = des_new(NULL);
	memset(&r, 0, sizeof(r));
	r.busy_ms = 300;
	c = ctl_new(w, "stageset-controller", reconcile_rec, &r);
	ctl_enqueue(c, "", "a");
	ctl_enqueue(c, "", "b");
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.t[1], 300);
	des_free(w);
}

static void add_c(struct des *w, void *ctx, void *arg)
{
	(void)w;
	(void)arg;
	ctl_enqueue(ctx, "", "c");
}

static void test_pq_add_during_processing(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { 0 };
	struct ctl *c = ctl_new(w, "fleetrollout-controller", reconcile_rec, &r);
	char got[64];
	int prio = 99;
	int64_t at = -2;

	ctl_set_duration(c, 100);
	ctl_enqueue(c, "", "a");                       /* runs 0..100 */
	des_at(w, 10, DES_PRIO_SCRIPT, add_b, c, NULL); /* counter 1 */
	des_at(w, 20, DES_PRIO_SCRIPT, add_a, c, NULL); /* a new entry while a runs: counter 2 */
	des_at(w, 30, DES_PRIO_SCRIPT, add_c, c, NULL); /* counter 3 */
	CU_ASSERT_EQUAL(des_run(w, 50, NULL), DES_HORIZON);
	/* the re-added key counts as queued (upstream Len), but waits for its pass */
	CU_ASSERT_EQUAL(ctl_queue_len(c), 3);
	CU_ASSERT_TRUE(ctl_entry(c, "", "a", &prio, &at));
	CU_ASSERT_EQUAL(at, -1);
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	served(&r, got, sizeof(got));
	/* after a's pass the entries go by counter: b, a, c (client-go's classic queue: b, c, a) */
	CU_ASSERT_STRING_EQUAL(got, "a b a c");
	CU_ASSERT_EQUAL(r.t[1], 100);
	CU_ASSERT_EQUAL(r.t[2], 200);
	CU_ASSERT_EQUAL(r.t[3], 300);
	des_free(w);

	/* the pass's RequeueAfter meets the entry an event made meanwhile: it stays ready (earliest wins) */
	w = des_new(NULL);
	memset(&r, 0, sizeof(r));
	r.requeue_after = 1000;
	c = ctl_new(w, "fleetrollout-controller", reconcile_rec, &r);
	ctl_set_duration(c, 100);
	ctl_enqueue(c, "", "a");
	des_at(w, 10, DES_PRIO_SCRIPT, add_a, c, NULL);
	CU_ASSERT_EQUAL(des_run(w, 1150, NULL), DES_HORIZON);
	/* 0, 100 (the event); no third pass at 1100: the delay was folded into the ready entry */
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.t[1], 100);
	CU_ASSERT_TRUE(ctl_entry(c, "", "a", NULL, &at));
	CU_ASSERT_EQUAL(at, 1200);
	des_free(w);
}

static void test_pq_no_bucket(void)
{
	struct des *w = des_new(NULL);
	struct rec r = { .errors_first = 101 };
	struct ctl *c = ctl_new(w, "rollout-controller", reconcile_rec, &r);
	char name[16];
	int at5 = 0;

	for (int i = 0; i < 102; i++) {
		snprintf(name, sizeof(name), "k%03d", i);
		ctl_enqueue(c, "ns", name);
	}
	CU_ASSERT_EQUAL(des_run(w, 10000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(r.n, 102 + 101);
	/* 101 errors at t=0 all retry after their own 5 ms: no controller-wide bucket */
	for (int i = 102; i < r.n; i++)
		at5 += r.t[i] == 5;
	CU_ASSERT_EQUAL(at5, 101);
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
	{ "priority queue: earliest ready time wins", test_pq_earliest_ready_time_wins },
	{ "priority queue: highest priority wins", test_pq_highest_priority_wins },
	{ "priority queue: by priority, then FIFO by counter", test_pq_fifo_by_counter },
	{ "priority queue: an expired delay draws a new counter", test_pq_expired_delay_draws_a_counter },
	{ "priority queue: many waiting entries moved earlier", test_pq_many_waiting_moved_earlier },
	{ "priority queue: a requeue keeps the dequeued priority", test_pq_priority_kept_through_requeues },
	{ "priority queue: an event raises a low key for good", test_pq_event_raises_for_good },
	{ "priority queue: initial list and resyncs at -100", test_pq_initial_list },
	{ "priority queue: events before the initial list", test_pq_initial_list_order },
	{ "priority queue: N workers, one pass per key", test_pq_workers },
	{ "priority queue: busy time and the end of a pass", test_pq_busy_time },
	{ "priority queue: an add while the key is processed", test_pq_add_during_processing },
	{ "priority queue: per-key back-off, no bucket", test_pq_no_bucket },
	{ "a queue restored from a snapshot, a pass in flight resumed", test_restored_queue },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("controllers", tests);
}
