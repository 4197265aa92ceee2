/* Unit tests for sim/world/des: scheduling, causes, loop detection, budget, horizon, determinism. */
#include <stdio.h>
#include <string.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/controllers.h"
#include "sim/world/des.h"
#include "sim/core/timeline.h"
#include "tests/unit/cu_main.h"

struct order {
	char s[64];
	size_t n;
};

static void mark(struct des *w, void *ctx, void *arg)
{
	struct order *o = ctx;

	(void)w;
	o->s[o->n++] = *(const char *)arg;
	o->s[o->n] = '\0';
}

static char A[] = "a", B[] = "b", C[] = "c", D[] = "d", E[] = "e";

static void test_order_and_cancel(void)
{
	struct des *w = des_new(NULL);
	struct order o = { .n = 0 };
	evq_handle h;

	des_at(w, 10, 5, mark, &o, C);
	des_at(w, 10, 1, mark, &o, B);
	des_at(w, 10, 5, mark, &o, D); /* same time and prio as c: after it */
	h = des_at(w, 3, 0, mark, &o, E);
	des_at(w, 5, 9, mark, &o, A);
	CU_ASSERT_EQUAL(des_cancel(w, h), 0);
	CU_ASSERT_EQUAL(des_cancel(w, h), EVQ_ENOENT);
	CU_ASSERT_EQUAL(des_run(w, 100, NULL), DES_QUIESCENT);
	CU_ASSERT_STRING_EQUAL(o.s, "abcd");
	CU_ASSERT_EQUAL(des_now(w), 10);
	CU_ASSERT_EQUAL(des_events(w), 4);
	CU_ASSERT_STRING_EQUAL(des_stop_name(DES_LOOP), "loop");
	des_free(w);
}

static void test_horizon_keeps_pending(void)
{
	struct des *w = des_new(NULL);
	struct order o = { .n = 0 };
	struct tl_notice n;

	des_at(w, 10, 0, mark, &o, A);
	des_at(w, 50, 0, mark, &o, B);
	CU_ASSERT_EQUAL(des_run(w, 20, NULL), DES_HORIZON);
	CU_ASSERT_STRING_EQUAL(o.s, "a");
	CU_ASSERT_EQUAL(tl_notice_count(des_timeline(w)), 1);
	tl_notice_get(des_timeline(w), 0, &n);
	CU_ASSERT_EQUAL(n.severity, TL_INFO);
	CU_ASSERT_EQUAL(n.t_ms, 20);
	CU_ASSERT_STRING_EQUAL(n.text, "horizon 20ms reached with 1 event pending");
	CU_ASSERT_EQUAL(des_run(w, 100, NULL), DES_QUIESCENT);
	CU_ASSERT_STRING_EQUAL(o.s, "ab");
	des_free(w);
}

static struct obj *ws(const char *ns, const char *name)
{
	struct obj *o = obj_new("magosproject.io/v1alpha1", "Workspace", ns, name);

	o->spec = val_new_map();
	return o;
}

/* Writes a new annotation value on every reconcile: a zero-delay loop through its own For(). */
static struct ctl_result reconcile_loop(void *ctx, struct des *w, const char *ns, const char *name,
					int64_t now)
{
	struct ctl_result r = { 0 };
	uint64_t *count = ctx;
	char v[32];

	(void)now;
	if (strcmp(name, "looper") == 0) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)++*count);
		api_set_annotation(des_api(w), "Workspace", ns, name, "magosproject.io/tick", v);
	}
	return r;
}

static void test_zero_delay_loop_is_stopped(void)
{
	struct des *w = des_new(NULL);
	uint64_t count = 0;
	struct ctl *c = ctl_new(w, "loop-controller", reconcile_loop, &count);
	struct des_limits lim = { .max_events = 0, .max_events_per_ms = 10000 };
	struct tl_notice n;

	ctl_for(c, "Workspace", NULL, NULL);
	des_set_cause(w, "load");
	api_create(des_api(w), ws("default", "calm"));
	api_create(des_api(w), ws("default", "looper"));
	CU_ASSERT_EQUAL(des_run(w, 3600000, &lim), DES_LOOP);
	CU_ASSERT_EQUAL(des_now(w), 0);
	/* 2 events per turn (delivery, reconcile) */
	CU_ASSERT(count > 4000 && count < 5100);
	CU_ASSERT_EQUAL_FATAL(tl_notice_count(des_timeline(w)), 1);
	tl_notice_get(des_timeline(w), 0, &n);
	CU_ASSERT_EQUAL(n.severity, TL_ERROR);
	CU_ASSERT_EQUAL(n.t_ms, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "zero-delay loop: 10000 events at 0s without"));
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "loop-controller default/looper x"));
	CU_ASSERT_EQUAL_FATAL(n.nrelated, 1); /* "calm" was reconciled before tracking began */
	CU_ASSERT_STRING_EQUAL(n.related[0].kind, "Workspace");
	CU_ASSERT_STRING_EQUAL(n.related[0].ns, "default");
	CU_ASSERT_STRING_EQUAL(n.related[0].name, "looper");
	CU_ASSERT(n.related[0].count >= 2500);
	des_free(w);
}

static void test_loop_with_latency_hits_budget(void)
{
	struct des_params p = des_params_default();
	struct des *w;
	uint64_t count = 0;
	struct ctl *c;
	struct des_limits lim = { .max_events = 5000, .max_events_per_ms = 0 };
	struct tl_notice n;

	p.api_latency_ms = 1;
	w = des_new(&p);
	c = ctl_new(w, "loop-controller", reconcile_loop, &count);
	ctl_for(c, "Workspace", NULL, NULL);
	api_create(des_api(w), ws("default", "looper"));
	CU_ASSERT_EQUAL(des_run(w, 3600000, &lim), DES_BUDGET);
	CU_ASSERT_EQUAL(des_events(w), 5000);
	CU_ASSERT_EQUAL(des_now(w), 2500); /* one turn (delivery, reconcile) per ms from t=1 */
	tl_notice_get(des_timeline(w), 0, &n);
	CU_ASSERT_EQUAL(n.severity, TL_WARNING);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "event budget of 5000 events exhausted"));
	CU_ASSERT_EQUAL_FATAL(n.nrelated, 1);
	CU_ASSERT_STRING_EQUAL(n.related[0].name, "looper");
	CU_ASSERT_EQUAL(n.related[0].count, 250); /* the last tenth: 500 events, 250 turns */
	des_free(w);
}

static void tick(struct des *w, void *ctx, void *arg)
{
	des_at(w, des_now(w) + 1, DES_PRIO_SCRIPT, tick, ctx, arg);
}

static void test_budget_without_reconciles(void)
{
	struct des *w = des_new(NULL);
	struct des_limits lim = { .max_events = 100, .max_events_per_ms = 0 };
	struct tl_notice n;

	des_at(w, 0, DES_PRIO_SCRIPT, tick, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(w, 1000000, &lim), DES_BUDGET);
	CU_ASSERT_EQUAL(des_now(w), 99);
	CU_ASSERT_EQUAL_FATAL(tl_notice_count(des_timeline(w)), 1);
	tl_notice_get(des_timeline(w), 0, &n);
	CU_ASSERT_EQUAL(n.nrelated, 0);
	CU_ASSERT_STRING_EQUAL(n.text, "event budget of 100 events exhausted at 99ms; run stopped (spec.limits.eventBudget sets it)");
	des_free(w);
}

static struct ctl_result reconcile_poll(void *ctx, struct des *w, const char *ns, const char *name,
					int64_t now)
{
	struct ctl_result r = { .requeue_after_ms = 30000 };
	char v[32];

	(void)ctx;
	snprintf(v, sizeof(v), "%lld", (long long)now);
	/* a write every poll, like a status heartbeat */
	api_set_annotation(des_api(w), "Workspace", ns, name, "last-poll", v);
	return r;
}

static void test_timed_poll_runs_to_horizon(void)
{
	struct des *w = des_new(NULL);
	struct ctl *c = ctl_new(w, "poll-controller", reconcile_poll, NULL);
	struct tl_notice n;

	ctl_for(c, "Workspace", NULL, NULL);
	api_create(des_api(w), ws("default", "p"));
	CU_ASSERT_EQUAL(des_run(w, 3600000, NULL), DES_HORIZON);
	CU_ASSERT_EQUAL_FATAL(tl_notice_count(des_timeline(w)), 1);
	tl_notice_get(des_timeline(w), 0, &n);
	CU_ASSERT_EQUAL(n.severity, TL_INFO);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.text, "reached with"));
	/*
	 * Each poll writes, and its own write triggers one more reconcile at the
	 * same instant (the event makes the pending 30 s entry ready at once;
	 * that pass's write is a no-op and it asks for the same 30 s): 2 at
	 * t=0, then 2 every 30 s until 1 h.
	 */
	CU_ASSERT_EQUAL(ctl_reconciles(c), 2 + 2 * 120);
	des_free(w);
}

static void write_spec(struct des *w, void *ctx, void *arg)
{
	struct obj *o = obj_copy(api_get(des_api(w), "Workspace", "default", "a"));

	(void)ctx;
	(void)arg;
	des_set_cause(w, "scenario event 1 (apply)");
	val_map_set(o->spec, "autoApply", val_new_bool(true));
	api_update(des_api(w), o);
}

static struct ctl_result reconcile_status(void *ctx, struct des *w, const char *ns,
					  const char *name, int64_t now)
{
	const struct obj *o = api_get(des_api(w), "Workspace", ns, name);
	struct ctl_result r = { 0 };
	struct val *p;

	(void)ctx;
	(void)now;
	if (!o)
		return r;
	p = val_new_map();
	val_map_set(p, "observedGeneration", val_new_int(o->generation));
	val_map_set(p, "phase", val_new_string(o->generation > 1 ? "Planning" : "Pending"));
	api_patch_status(des_api(w), "Workspace", ns, name, p);
	val_free(p);
	return r;
}

static void test_causes(void)
{
	struct des_params p = des_params_default();
	struct des *w;
	struct ctl *c;
	struct tl *tl;
	struct tl_entry e;

	p.api_latency_ms = 2;
	w = des_new(&p);
	tl = des_timeline(w);
	c = ctl_new(w, "workspace-controller", reconcile_status, NULL);
	ctl_for(c, "Workspace", NULL, NULL);
	des_set_cause(w, "load");
	api_create(des_api(w), ws("default", "a"));
	des_at(w, 100, DES_PRIO_SCRIPT, write_spec, NULL, NULL);
	CU_ASSERT_EQUAL(des_run(w, 1000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL_FATAL(tl_count(tl), 4);
	tl_get(tl, 0, &e);
	CU_ASSERT_STRING_EQUAL(e.cause, "load");
	CU_ASSERT_EQUAL(e.change, TL_CREATED);
	tl_get(tl, 1, &e);
	CU_ASSERT_STRING_EQUAL(e.cause, "reconcile workspace-controller default/a");
	CU_ASSERT_EQUAL(e.t_ms, 2); /* after the API latency */
	CU_ASSERT_STRING_EQUAL(e.phase, "Pending");
	CU_ASSERT_EQUAL(e.change, TL_STATUS);
	tl_get(tl, 2, &e);
	CU_ASSERT_STRING_EQUAL(e.cause, "scenario event 1 (apply)");
	CU_ASSERT_STRING_EQUAL(e.detail, "spec (generation 2)");
	CU_ASSERT_EQUAL(e.t_ms, 100);
	tl_get(tl, 3, &e);
	CU_ASSERT_STRING_EQUAL(e.cause, "reconcile workspace-controller default/a");
	CU_ASSERT_STRING_EQUAL(e.detail, "status: observedGeneration, phase Pending\xe2\x86\x92Planning");
	CU_ASSERT_EQUAL(e.t_ms, 102);
	des_free(w);
}

/* A small world with two controllers and scripted events, built the same way twice. */
static void map_all(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out)
{
	(void)ctx;
	(void)w;
	ctl_keys_add(out, o->ns, "summary");
}

static struct ctl_result reconcile_summary(void *ctx, struct des *w, const char *ns,
					   const char *name, int64_t now)
{
	struct api_list l;
	struct val *p = val_new_map();
	int64_t planning = 0;
	struct ctl_result r = { 0 };

	(void)ctx;
	(void)now;
	api_list_init(&l);
	api_list(des_api(w), "Workspace", ns, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++)
		planning += strcmp(val_str(val_map_get(l.items[i]->status, "phase"), ""), "Planning") == 0;
	api_list_release(&l);
	val_map_set(p, "planning", val_new_int(planning));
	if (!api_get(des_api(w), "Project", ns, name)) {
		struct obj *o = obj_new("magosproject.io/v1alpha1", "Project", ns, name);

		api_create(des_api(w), o);
	}
	api_patch_status(des_api(w), "Project", ns, name, p);
	val_free(p);
	return r;
}

static void bump(struct des *w, void *ctx, void *arg)
{
	char name[16];
	struct obj *o;

	(void)ctx;
	snprintf(name, sizeof(name), "w%d", (int)(intptr_t)arg);
	o = obj_copy(api_get(des_api(w), "Workspace", "default", name));
	val_map_set(o->spec, "rev", val_new_int((intptr_t)arg));
	api_update(des_api(w), o);
}

static struct des *build_world(void)
{
	struct des_params p = des_params_default();
	struct des *w;
	struct ctl *c1, *c2;
	char name[16];

	p.api_latency_ms = 1;
	w = des_new(&p);
	c1 = ctl_new(w, "workspace-controller", reconcile_status, NULL);
	ctl_for(c1, "Workspace", NULL, NULL);
	ctl_set_duration(c1, 3);
	c2 = ctl_new(w, "project-controller", reconcile_summary, NULL);
	ctl_watches(c2, "Workspace", map_all, NULL, ctl_pred_rv_changed, NULL);
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "w%d", (i * 7) % 20);
		api_create(des_api(w), ws("default", name));
		des_at(w, 50 + (i % 5) * 10, DES_PRIO_SCRIPT, bump, NULL, (void *)(intptr_t)i);
	}
	return w;
}

static void test_determinism(void)
{
	struct des *w1 = build_world(), *w2 = build_world();
	struct tl *t1 = des_timeline(w1), *t2 = des_timeline(w2);

	CU_ASSERT_EQUAL(des_run(w1, 100000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(des_run(w2, 100000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(des_events(w1), des_events(w2));
	CU_ASSERT_EQUAL_FATAL(tl_count(t1), tl_count(t2));
	CU_ASSERT(tl_count(t1) > 60);
	for (size_t i = 0; i < tl_count(t1); i++) {
		struct tl_entry a, b;

		tl_get(t1, i, &a);
		tl_get(t2, i, &b);
		CU_ASSERT_EQUAL(a.t_ms, b.t_ms);
		CU_ASSERT_EQUAL(a.change, b.change);
		CU_ASSERT_EQUAL(a.resource_version, b.resource_version);
		CU_ASSERT_STRING_EQUAL(a.kind, b.kind);
		CU_ASSERT_STRING_EQUAL(a.name, b.name);
		CU_ASSERT_STRING_EQUAL(a.cause ? a.cause : "-", b.cause ? b.cause : "-");
		CU_ASSERT_STRING_EQUAL(a.detail ? a.detail : "-", b.detail ? b.detail : "-");
	}
	/* the summary saw all 20 workspaces planning at the end */
	CU_ASSERT_EQUAL(val_int(val_path(api_get(des_api(w1), "Project", "default", "summary")->status,
					 "planning"),
				-1),
			20);
	des_free(w1);
	des_free(w2);
}

static CU_TestInfo tests[] = {
	{ "order by time, priority, FIFO; cancel", test_order_and_cancel },
	{ "horizon stops and keeps pending events", test_horizon_keeps_pending },
	{ "zero-delay loop stopped with a notice naming the object", test_zero_delay_loop_is_stopped },
	{ "a loop with latency ends at the event budget", test_loop_with_latency_hits_budget },
	{ "budget stop with no reconcile to name", test_budget_without_reconciles },
	{ "a 30 s poll runs to the horizon without a loop notice", test_timed_poll_runs_to_horizon },
	{ "timeline causes: load, scenario event, reconcile", test_causes },
	{ "two identical worlds give identical timelines", test_determinism },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("des", tests);
}
