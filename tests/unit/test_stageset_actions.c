/*
 * engine/stageset_actions: the executor's retries, back-off and timeout over
 * scripted attempts (internal/actions tests: TestBackoff, TestRun_SkipsDone,
 * TestExec_RetriesThenSucceeds, TestExec_TimeoutAppliesPerAction,
 * TestExec_RecordError, TestRun_HTTPClientErrorTerminal,
 * TestRun_HTTPServerErrorRetries), the per-stage ledger
 * (actionledger_test.go), and the StageLedger of Lifetime actions
 * (actionplan_test.go TestClassifyAnchor, lifetimeledger.go, anchor.go).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_actions.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

#define T0 1784462400000LL /* 2026-07-19T12:00:00Z */

static struct val *yaml(const char *text)
{
	struct yl_stream s;
	struct diag d;
	struct val *v;

	diag_init(&d);
	CU_ASSERT_FATAL(yl_load_string("t", text, strlen(text), &s, &d) == 0 && s.n == 1);
	v = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	return v;
}

/* A scripted attempt: how long it takes and how it ends. */
struct attempt { int64_t ms; enum ssc_errc code; const char *msg; };

struct world {
	const struct attempt *script; /* per call, in order; past the end: instant success */
	size_t nscript, calls;
	int64_t at[16];               /* the clock at each call */
	const char *names[16];
	/* anchors: name → uid ("" = NotFound, "!" = Forbidden) */
	const char *anchor_names[4], *anchor_uids[4];
	size_t nanchors;
	const struct obj *ledger_obj;
	enum ssc_errc ledger_err;
};

static void w_run(void *ctx, size_t stage, const char *phase, const struct sst_action *a, int attempt,
		  int64_t at_ms, int64_t *duration_ms, struct ssc_err *err)
{
	struct world *w = ctx;
	if (w->calls < 16) {
		w->at[w->calls] = at_ms;
		w->names[w->calls] = a->name;
	}
	if (w->calls < w->nscript) {
		const struct attempt *s = &w->script[w->calls];
		*duration_ms = s->ms;
		if (s->code != SSC_OK)
			ssc_err_set(err, s->code, "%s", s->msg);
	} else {
		*duration_ms = 0;
	}
	w->calls++;
}

static int w_anchor(void *ctx, const char *api_version, const char *kind, const char *ns, const char *name,
		    int64_t at_ms, char *uid, size_t uidlen, struct ssc_err *err)
{
	struct world *w = ctx;
	for (size_t i = 0; i < w->nanchors; i++) {
		if (strcmp(w->anchor_names[i], name) != 0)
			continue;
		if (strcmp(w->anchor_uids[i], "!") == 0) {
			ssc_err_set(err, SSC_ERR_FORBIDDEN, "configmaps \"%s\" is forbidden", name);
			return -1;
		}
		if (w->anchor_uids[i][0] == '\0')
			break;
		snprintf(uid, uidlen, "%s", w->anchor_uids[i]);
		return 0;
	}
	ssc_err_set(err, SSC_ERR_NOT_FOUND, "configmaps \"%s\" not found", name);
	return -1;
}

static const struct obj *w_ledger(void *ctx, int64_t at_ms, struct ssc_err *err)
{
	struct world *w = ctx;
	if (w->ledger_obj)
		return w->ledger_obj;
	ssc_err_set(err, w->ledger_err ? w->ledger_err : SSC_ERR_NOT_FOUND, "stageledgers \"x\" not found");
	return NULL;
}

static struct ssc_env env_of(struct world *w)
{
	struct ssc_env e;
	memset(&e, 0, sizeof(e));
	e.ctx = w;
	e.run_action = w_run;
	e.anchor_uid = w_anchor;
	e.ledger = w_ledger;
	return e;
}

static struct sst_action action(const char *name, int retries, int64_t timeout_ms)
{
	struct sst_action a;
	memset(&a, 0, sizeof(a));
	a.name = name;
	a.scope = "";
	a.verb = "http";
	a.verb_count = 1;
	a.has_retries = retries >= 0;
	a.retries = retries;
	a.timeout.set = timeout_ms >= 0;
	a.timeout.ms = timeout_ms;
	return a;
}

static void test_backoff(void)
{
	CU_ASSERT_EQUAL(act_backoff(0), 500);
	CU_ASSERT_EQUAL(act_backoff(1), 1000);
	CU_ASSERT_EQUAL(act_backoff(8), 4500);
	CU_ASSERT_EQUAL(act_backoff(9), 5000);
	CU_ASSERT_EQUAL(act_backoff(20), 5000);
}

static void test_exec_retries_then_succeeds(void)
{
	static const struct attempt script[] = { { 100, SSC_ERR, "unexpected status 500" }, { 200, SSC_OK, NULL } };
	struct world w = { script, 2, 0, { 0 }, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_action a = action("ping", 3, -1);
	struct ssc_err err;
	CU_ASSERT_EQUAL(act_exec(&env, &clk, 0, "pre", &a, &err), 0);
	CU_ASSERT_EQUAL(w.calls, 2);
	CU_ASSERT_EQUAL(w.at[1], T0 + 100 + 500);
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 100 + 500 + 200);
}

static void test_exec_server_error_retries_until_budget(void)
{
	static const struct attempt script[] = {
		{ 10, SSC_ERR, "e1" }, { 10, SSC_ERR, "e2" }, { 10, SSC_ERR, "e3" }, { 10, SSC_ERR, "e4" } };
	struct world w = { script, 4, 0, { 0 }, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_action a = action("ping", 2, -1);
	struct ssc_err err;
	CU_ASSERT_EQUAL(act_exec(&env, &clk, 0, "pre", &a, &err), -1);
	CU_ASSERT_EQUAL(w.calls, 3); /* 1 + 2 retries */
	CU_ASSERT_STRING_EQUAL(err.msg, "e3");
	/* no back-off after the last attempt */
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 30 + 500 + 1000);
}

static void test_exec_client_error_terminal(void)
{
	static const struct attempt script[] = { { 10, SSC_ERR_NO_RETRY, "action url returned a client error: 403" } };
	struct world w = { script, 1, 0, { 0 }, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_action a = action("ping", 5, -1);
	struct ssc_err err;
	CU_ASSERT_EQUAL(act_exec(&env, &clk, 0, "pre", &a, &err), -1);
	CU_ASSERT_EQUAL(w.calls, 1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_NO_RETRY);
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 10);
}

static void test_exec_timeout_applies_per_action(void)
{
	/* An attempt slower than the timeout ends at the deadline. */
	static const struct attempt slow[] = { { 2000, SSC_OK, NULL } };
	struct world w = { slow, 1, 0, { 0 }, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_action a = action("slow", -1, 50);
	struct ssc_err err;
	CU_ASSERT_EQUAL(act_exec(&env, &clk, 0, "pre", &a, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "context deadline exceeded");
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 50);

	/* A back-off that would cross the deadline ends the exec at the deadline with the attempt's error. */
	static const struct attempt failing[] = { { 400, SSC_ERR, "boom" }, { 10, SSC_OK, NULL } };
	struct world w2 = { failing, 2, 0, { 0 }, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
	env = env_of(&w2);
	clk.now_ms = T0;
	a = action("flaky", 3, 800);
	CU_ASSERT_EQUAL(act_exec(&env, &clk, 0, "pre", &a, &err), -1);
	CU_ASSERT_EQUAL(w2.calls, 1);
	CU_ASSERT_STRING_EQUAL(err.msg, "boom");
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 800);

	/* Within the deadline the retry runs. */
	struct world w3 = { failing, 2, 0, { 0 }, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
	env = env_of(&w3);
	clk.now_ms = T0;
	a = action("flaky", 3, 1000);
	CU_ASSERT_EQUAL(act_exec(&env, &clk, 0, "pre", &a, &err), 0);
	CU_ASSERT_EQUAL(clk.now_ms, T0 + 400 + 500 + 10);
}

static bool done_b(const void *arg, const char *name)
{
	return strcmp(name, "b") == 0;
}

static int rec_ok(void *arg, const char *name, struct ssc_err *err)
{
	sst_string_list_push(arg, name);
	return 0;
}

static int rec_fail(void *arg, const char *name, struct ssc_err *err)
{
	ssc_err_set(err, SSC_ERR, "ledger write failed");
	return -1;
}

static void test_run_skips_done_and_wraps(void)
{
	static const struct attempt script[] = { { 5, SSC_OK, NULL }, { 5, SSC_OK, NULL }, { 5, SSC_ERR_NO_RETRY, "action type not yet supported" } };
	struct world w = { script, 3, 0, { 0 }, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_action items[4] = { action("a", -1, -1), action("b", -1, -1), action("c", -1, -1), action("d", -1, -1) };
	struct sst_actions acts = { items, 4 };
	struct sst_string_list recorded = { 0 };
	struct ssc_err err;
	CU_ASSERT_EQUAL(act_run(&env, &clk, 0, "pre", &acts, done_b, NULL, rec_ok, &recorded, &err), -1);
	CU_ASSERT_EQUAL(w.calls, 3);
	CU_ASSERT_STRING_EQUAL(w.names[1], "c");
	CU_ASSERT_EQUAL(recorded.n, 2);
	CU_ASSERT_STRING_EQUAL(err.msg, "action \"d\": action type not yet supported");
	CU_ASSERT_EQUAL(err.code, SSC_ERR_NO_RETRY);
	sst_string_list_release(&recorded);
}

static void test_exec_record_error(void)
{
	struct world w = { NULL, 0, 0, { 0 }, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct sst_action items[2] = { action("ping", -1, -1), action("pong", -1, -1) };
	struct sst_actions acts = { items, 2 };
	struct ssc_err err;
	CU_ASSERT_EQUAL(act_run(&env, &clk, 0, "pre", &acts, NULL, NULL, rec_fail, NULL, &err), -1);
	CU_ASSERT_EQUAL(w.calls, 1); /* the side effect fired, then the run stopped */
	CU_ASSERT_STRING_EQUAL(err.msg, "ledger write failed");
}

/* ---- actionLedger ---- */

static struct val *stage_tree;
static struct sst_spec spec;

static void load_spec(const char *text)
{
	char err[256];
	stage_tree = yaml(text);
	CU_ASSERT_FATAL(sst_spec_parse(stage_tree, &spec, err, sizeof(err)) == 0);
}

static void free_spec(void)
{
	sst_spec_release(&spec);
	val_free(stage_tree);
}

static void test_ledger_done_set_unions_both_scopes(void)
{
	struct act_ledger l;
	act_ledger_init(&l, "r", "v");
	sst_string_list_push(&l.executed, "rev-a");
	sst_string_list_push(&l.executed, "rev-b");
	sst_string_list_push(&l.versioned, "ver-a");
	sst_string_list_push(&l.lifetime_done, "life-a");
	CU_ASSERT(act_ledger_done(&l, "rev-a") && act_ledger_done(&l, "rev-b"));
	CU_ASSERT(act_ledger_done(&l, "ver-a") && act_ledger_done(&l, "life-a"));
	CU_ASSERT(!act_ledger_done(&l, "never"));
	act_ledger_release(&l);
}

static void test_ledger_record_routes_by_scope(void)
{
	load_spec("stages: [{name: app, sourceRef: {name: s}, actions: {pre: [{name: upgrade, scope: Version}, {name: check, scope: Revision}], post: [{name: blank}]}}]");
	struct act_ledger l;
	act_ledger_init(&l, NULL, NULL);
	act_ledger_record(&l, &spec.stages[0], "check");
	act_ledger_record(&l, &spec.stages[0], "upgrade");
	act_ledger_record(&l, &spec.stages[0], "blank");
	act_ledger_record(&l, &spec.stages[0], "orphan"); /* RecordFnUnlistedNameIsRevision */
	CU_ASSERT_EQUAL(l.executed.n, 3);
	CU_ASSERT_STRING_EQUAL(l.executed.items[1], "blank");
	CU_ASSERT_STRING_EQUAL(l.executed.items[2], "orphan");
	CU_ASSERT_EQUAL(l.versioned.n, 1);
	CU_ASSERT_STRING_EQUAL(l.versioned.items[0], "upgrade");
	act_ledger_release(&l);
	free_spec();
}

static void test_ledger_stamp_writes_both_pairs(void)
{
	struct act_ledger l;
	struct sst_stage_status s;
	memset(&s, 0, sizeof(s));
	s.name = xstrdup("app");
	act_ledger_init(&l, "sha256:rev", "1.2.3");
	sst_string_list_push(&l.executed, "check");
	sst_string_list_push(&l.versioned, "upgrade");
	sst_string_list_push(&s.executed_actions, "stale");
	act_ledger_stamp(&l, &s);
	CU_ASSERT_STRING_EQUAL(s.ledger_revision, "sha256:rev");
	CU_ASSERT(s.executed_actions.n == 1 && strcmp(s.executed_actions.items[0], "check") == 0);
	CU_ASSERT_STRING_EQUAL(s.ledger_version, "1.2.3");
	CU_ASSERT(s.executed_version_actions.n == 1);
	CU_ASSERT_STRING_EQUAL(s.name, "app");
	act_ledger_release(&l);
	sst_stage_status_release(&s);
}

static void test_version_scoped_action_names(void)
{
	load_spec("stages: [{name: app, sourceRef: {name: s}, actions: {pre: [{name: maint-on, scope: Version}, {name: check}, {name: boot, scope: Lifetime}], post: [{name: maint-off, scope: Version}]}}, {name: bare, sourceRef: {name: s}}]");
	struct sst_string_list l = { 0 };
	act_version_scoped_action_names(&spec.stages[0], &l);
	CU_ASSERT(l.n == 2 && strcmp(l.items[0], "maint-on") == 0 && strcmp(l.items[1], "maint-off") == 0);
	sst_string_list_release(&l);
	act_version_scoped_action_names(&spec.stages[1], &l);
	CU_ASSERT_EQUAL(l.n, 0);
	CU_ASSERT(act_spec_has_lifetime_actions(&spec));
	CU_ASSERT(act_is_lifetime_action(&spec, "app", "boot"));
	CU_ASSERT(!act_is_lifetime_action(&spec, "app", "check"));
	CU_ASSERT(!act_is_lifetime_action(&spec, "bare", "boot"));
	free_spec();
}

/* ---- StageLedger ---- */

static const char *lifetime_spec =
	"stages: [{name: db, sourceRef: {name: s}, actions: {pre: [{name: bootstrap, scope: Lifetime, "
	"completionAnchor: {apiVersion: v1, kind: ConfigMap, name: witness}}, {name: seed, scope: Lifetime}]}}]";

static struct obj *ledger_obj(const char *spec_yaml, const char *status_yaml)
{
	struct obj *o = obj_new(ACT_LEDGER_API_VERSION, ACT_LEDGER_KIND, "ns", "app");
	o->spec = spec_yaml ? yaml(spec_yaml) : NULL;
	o->status = status_yaml ? yaml(status_yaml) : NULL;
	o->generation = 2;
	return o;
}

static void test_load_lifetime_ledger(void)
{
	struct world w = { 0 };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0, T0 };
	struct act_stage_ledger *l;
	struct ssc_err err;

	load_spec("stages: [{name: a, sourceRef: {name: s}}]");
	CU_ASSERT(act_load_lifetime_ledger(&env, &clk, &spec, &l, &err) == 0 && l == NULL);
	free_spec();

	load_spec(lifetime_spec);
	CU_ASSERT(act_load_lifetime_ledger(&env, &clk, &spec, &l, &err) == 0);
	CU_ASSERT_FATAL(l != NULL);
	CU_ASSERT(l->created && l->dirty && l->ncompleted == 0);
	act_stage_ledger_free(l);

	struct obj *o = ledger_obj(NULL, "{completedActions: [{stage: db, action: seed, origin: Executed, completedAt: '2026-07-19T11:00:00Z'}]}");
	w.ledger_obj = o;
	CU_ASSERT(act_load_lifetime_ledger(&env, &clk, &spec, &l, &err) == 0);
	CU_ASSERT_FATAL(l != NULL);
	CU_ASSERT(!l->created && !l->dirty && l->ncompleted == 1);
	CU_ASSERT(act_stage_ledger_is_completed(l, "db", "seed"));
	CU_ASSERT_EQUAL(l->completed[0].completed_at_ms, T0 - 3600000);
	act_stage_ledger_free(l);

	w.ledger_obj = NULL;
	w.ledger_err = SSC_ERR_FORBIDDEN;
	CU_ASSERT(act_load_lifetime_ledger(&env, &clk, &spec, &l, &err) == -1 && l == NULL);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_FORBIDDEN);
	obj_free(o);
	free_spec();
}

static void test_promote_baseline_and_condition(void)
{
	struct ssc_clock clk = { T0 + 250, T0 };
	struct ssc_events ev = { 0 };
	struct act_stage_ledger l;
	load_spec(lifetime_spec);
	struct obj *o = ledger_obj("{baseline: [{stage: db, action: seed}, {stage: db, action: typo}, {stage: db, action: bootstrap}]}",
				   "{completedActions: [{stage: db, action: bootstrap, origin: Executed, completedAt: '2026-07-19T11:00:00Z'}]}");
	act_stage_ledger_parse(o, &l);
	act_promote_baseline(&l, &spec, "app", &clk, &ev);
	CU_ASSERT(l.dirty);
	CU_ASSERT_EQUAL(l.ncompleted, 2);
	CU_ASSERT_STRING_EQUAL(l.completed[0].origin, "Executed"); /* never downgraded */
	CU_ASSERT_STRING_EQUAL(l.completed[1].origin, "Baselined");
	CU_ASSERT_EQUAL(l.completed[1].completed_at_ms, T0);
	CU_ASSERT_EQUAL_FATAL(l.nconditions, 1);
	CU_ASSERT_STRING_EQUAL(l.conditions[0].status, "False");
	CU_ASSERT_STRING_EQUAL(l.conditions[0].reason, "Unresolved");
	CU_ASSERT_STRING_EQUAL(l.conditions[0].message,
			       "spec.baseline entries that resolve to no scope: Lifetime action in StageSet \"app\": db/typo");
	CU_ASSERT_EQUAL(l.conditions[0].observed_generation, 2);
	CU_ASSERT_EQUAL_FATAL(ev.n, 1);
	CU_ASSERT(ev.items[0].warning && ev.items[0].on_ledger);
	CU_ASSERT_STRING_EQUAL(ev.items[0].reason, "BaselineInvalid");

	/* Second pass: nothing new, no event (loud once, not a storm). */
	l.dirty = false;
	clk.now_ms += 60000;
	act_promote_baseline(&l, &spec, "app", &clk, &ev);
	CU_ASSERT(!l.dirty);
	CU_ASSERT_EQUAL(ev.n, 1);

	/* The typo fixed: True AllResolved, transition time moves, no event. */
	free(l.baseline[1].action);
	l.baseline[1].action = xstrdup("seed");
	act_promote_baseline(&l, &spec, "app", &clk, &ev);
	CU_ASSERT(l.dirty);
	CU_ASSERT_STRING_EQUAL(l.conditions[0].status, "True");
	CU_ASSERT_STRING_EQUAL(l.conditions[0].message, "every spec.baseline entry resolves to a scope: Lifetime action");
	CU_ASSERT_EQUAL(l.conditions[0].last_transition_ms, T0 + 60000);
	CU_ASSERT_EQUAL(ev.n, 1);

	struct val *v = act_stage_ledger_to_val(&l);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(v, "status.completedActions.1.completedAt"), ""), "2026-07-19T12:00:00Z");
	CU_ASSERT_PTR_NULL(val_path(v, "status.completedActions.0.anchor"));
	CU_ASSERT_STRING_EQUAL(val_str(val_path(v, "spec.baseline.1.action"), ""), "seed");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(v, "status.conditions.0.type"), ""), "BaselineValid");
	val_free(v);

	/* No baseline, no condition: nothing to say. */
	struct act_stage_ledger empty;
	memset(&empty, 0, sizeof(empty));
	struct sst_string_list none = { 0 };
	CU_ASSERT(!act_reconcile_baseline_condition(&empty, "app", &none, &clk, &ev));
	CU_ASSERT_EQUAL(empty.nconditions, 0);
	act_promote_baseline(NULL, &spec, "app", &clk, &ev);

	act_stage_ledger_release(&l);
	ssc_events_release(&ev);
	obj_free(o);
	free_spec();
}

static void test_record_lifetime_completion(void)
{
	struct world w = { 0 };
	struct ssc_env env = env_of(&w);
	struct ssc_clock clk = { T0 + 999, T0 };
	struct act_stage_ledger l;
	struct ssc_err err;
	memset(&l, 0, sizeof(l));
	load_spec(lifetime_spec);
	const struct sst_action *anchor = act_stage_anchor(&spec.stages[0], "bootstrap");
	CU_ASSERT_PTR_NOT_NULL_FATAL(anchor);
	CU_ASSERT_PTR_NULL(act_stage_anchor(&spec.stages[0], "seed"));

	/* The witness must exist at completion. */
	CU_ASSERT_EQUAL(act_record_lifetime_completion(&env, &clk, &l, "ns", "db", "bootstrap", anchor, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "completionAnchor ConfigMap ns/witness for action \"db\"/\"bootstrap\" could not be read at completion (it must exist so its UID can be recorded): configmaps \"witness\" not found");
	CU_ASSERT_EQUAL(l.ncompleted, 0);

	w.anchor_names[0] = "witness";
	w.anchor_uids[0] = "uid-1";
	w.nanchors = 1;
	CU_ASSERT_EQUAL(act_record_lifetime_completion(&env, &clk, &l, "ns", "db", "bootstrap", anchor, &err), 0);
	CU_ASSERT_EQUAL(act_record_lifetime_completion(&env, &clk, &l, "ns", "db", "seed", NULL, &err), 0);
	CU_ASSERT_EQUAL(act_record_lifetime_completion(&env, &clk, &l, "ns", "db", "seed", NULL, &err), 0);
	CU_ASSERT_EQUAL(l.ncompleted, 2);
	CU_ASSERT(l.dirty && l.completed[0].has_anchor);
	CU_ASSERT_STRING_EQUAL(l.completed[0].anchor_uid, "uid-1");
	CU_ASSERT_STRING_EQUAL(l.completed[0].origin, "Executed");
	CU_ASSERT_EQUAL(l.completed[0].completed_at_ms, T0);
	CU_ASSERT_EQUAL(act_record_lifetime_completion(&env, &clk, NULL, "ns", "db", "seed", NULL, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "Internal error occurred: scope: Lifetime action has no StageLedger to record into");

	/* ClassifyAnchor through the gate: ok, changed uid, absent, forbidden. */
	struct act_lifetime_gate g;
	act_evaluate_lifetime_gate(&env, &clk, &l, "ns", "db", &g);
	CU_ASSERT(g.done.n == 2 && g.invalidated.n == 0 && g.unreadable.n == 0);
	act_lifetime_gate_release(&g);
	w.anchor_uids[0] = "uid-2";
	act_evaluate_lifetime_gate(&env, &clk, &l, "ns", "db", &g);
	CU_ASSERT(g.done.n == 1 && g.invalidated.n == 1);
	act_lifetime_gate_release(&g);
	w.anchor_uids[0] = "!";
	act_evaluate_lifetime_gate(&env, &clk, &l, "ns", "db", &g);
	CU_ASSERT(g.done.n == 2 && g.unreadable.n == 1 && g.invalidated.n == 0);
	act_lifetime_gate_release(&g);
	act_evaluate_lifetime_gate(&env, &clk, &l, "ns", "other", &g);
	CU_ASSERT(g.done.n == 0);
	act_lifetime_gate_release(&g);
	act_evaluate_lifetime_gate(&env, &clk, NULL, "ns", "db", &g);
	CU_ASSERT(g.done.n == 0);

	/* The stage loop's block: unreadable → event, retained; gone → dropped, event. */
	struct act_ledger led;
	struct ssc_events ev = { 0 };
	act_ledger_init(&led, "r", "");
	l.dirty = false;
	act_gate_lifetime_stage(&env, &clk, &l, "ns", "db", &led, NULL, &ev);
	CU_ASSERT_EQUAL(led.lifetime_done.n, 2);
	CU_ASSERT(!l.dirty && ev.n == 1);
	CU_ASSERT_STRING_EQUAL(ev.items[0].reason, "LedgerAnchorUnreadable");
	CU_ASSERT_STRING_EQUAL(ev.items[0].note, "stage \"db\" action \"bootstrap\": completionAnchor unreadable; retaining the completion (grant the stage's ServiceAccount read on the anchor kind)");
	w.anchor_uids[0] = "";
	act_gate_lifetime_stage(&env, &clk, &l, "ns", "db", &led, &g, &ev);
	CU_ASSERT(l.dirty && l.ncompleted == 1 && ev.n == 2);
	CU_ASSERT_STRING_EQUAL(l.completed[0].action, "seed");
	CU_ASSERT(!ev.items[1].warning);
	CU_ASSERT_STRING_EQUAL(ev.items[1].note, "stage \"db\" action \"bootstrap\": completionAnchor witness is gone; the scope: Lifetime action will run again");
	CU_ASSERT(g.invalidated.n == 1 && led.lifetime_done.n == 1);
	act_lifetime_gate_release(&g);
	act_ledger_release(&led);
	ssc_events_release(&ev);

	struct sst_string_list none = { 0 };
	CU_ASSERT(!act_drop_completions(&l, "db", &none));
	act_stage_ledger_release(&l);
	free_spec();
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "backoff", test_backoff },
		{ "exec: retries then succeeds", test_exec_retries_then_succeeds },
		{ "exec: server error retries until the budget", test_exec_server_error_retries_until_budget },
		{ "exec: client error terminal", test_exec_client_error_terminal },
		{ "exec: timeout applies per action", test_exec_timeout_applies_per_action },
		{ "Run: skips done, wraps the failure", test_run_skips_done_and_wraps },
		{ "exec: record error", test_exec_record_error },
		{ "actionLedger: doneSet unions both scopes", test_ledger_done_set_unions_both_scopes },
		{ "actionLedger: recordFn routes by scope", test_ledger_record_routes_by_scope },
		{ "actionLedger: stamp writes both pairs", test_ledger_stamp_writes_both_pairs },
		{ "versionScopedActionNames", test_version_scoped_action_names },
		{ "loadLifetimeLedger", test_load_lifetime_ledger },
		{ "promoteBaseline / reconcileBaselineCondition", test_promote_baseline_and_condition },
		{ "recordLifetimeCompletion / ClassifyAnchor / dropCompletions", test_record_lifetime_completion },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("stageset_actions", tests);
}
