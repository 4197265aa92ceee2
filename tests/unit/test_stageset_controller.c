/*
 * engine/stageset_controller: the StageSet Reconcile over the scripted world
 * of tests/unit/ssc_fake_env.h.  One test per upstream test it reproduces,
 * named after it (spec §6 T-n and the Go test function), then the tables of
 * upstream's unit tests of the controller's own helpers (conditions.go,
 * errors.go, reconcile_stage.go, the predicates, intervals, timeouts,
 * mergeStageStatuses, teardown).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_controller.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/ssc_fake_env.h"

#define NS "ns"
#define ONE_STAGE "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea}}]}"
#define TWO_STAGES                                                                                              \
	"{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea-a}}, {name: stage-b, sourceRef: {name: ea-b}}]}"

static bool contains(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* A world with one Ready artifact "ea" at rev1 and a one-stage StageSet "name". */
static struct obj *one_stage(struct ssfx_world *w, const char *name)
{
	ssfx_init(w);
	ssfx_ea(w, NS, "ea", "rev1@sha256:aaa");
	return ssfx_stageset(w, NS, name, ONE_STAGE);
}

/* ---- §6.1 core (stageset_controller_test.go) ---------------------------- */

/* T-1 TestReconcile_FinalizerAddRequeues */
static void test_finalizer_add_requeues(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss;

	ssfx_init(&w);
	ss = ssfx_stageset(&w, NS, "fresh", ONE_STAGE);
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_FINALIZER);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_RATE_LIMITED);
	CU_ASSERT_TRUE(obj_has_finalizer(ss, SSC_FINALIZER));
	CU_ASSERT_FALSE(r.write_status);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), "");
	ssc_result_release(&r);
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_ARTIFACT_NOT_FOUND);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER_JITTERED);
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-2 TestReconcile_Migration_BaselineEmitsEvent */
static void test_migration_baseline_emits_event(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", "rev1@sha256:aaa");
	ss = ssfx_stageset(&w, NS, "versioned",
			   "{interval: 1m, version: {value: '2.0.0'}, stages: [{name: stage-a, sourceRef: {name: ea}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "MigrationsBaselined"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "MigrationsBaselined"),
			       "baselined at 2.0.0 on first adoption: no migrations were run; the deployment is assumed "
			       "already at this version");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "MigrationsBaselined"), 1);
	ssfx_release(&w);
}

/* T-3 TestReconcile_AppliesProducerArtifact */
static void test_applies_producer_artifact(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss, *ea;

	ssfx_init(&w);
	ea = ssfx_ea(&w, NS, "dashboards-artifact", "rev1@sha256:bbb");
	ea->spec = ssfx_yaml("{sourceRef: {apiVersion: jaas.metio.wtf/v1, kind: JsonnetSnippet, name: dashboards}}");
	ss = ssfx_stageset(&w, NS, "platform",
			   "{interval: 1m, stages: [{name: dashboards, sourceRef: {apiVersion: jaas.metio.wtf/v1, "
			   "kind: JsonnetSnippet, name: dashboards}}]}");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_SUCCEEDED);
	CU_ASSERT_EQUAL(r.stage, SIZE_MAX);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_message(ss), "Applied and verified 1 stage(s)");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastAttemptedRevisions.ns/dashboards-artifact"), "rev1@sha256:bbb");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastAppliedRevisions.ns/dashboards-artifact"), "rev1@sha256:bbb");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.phase"), "Ready");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "stages.1"));
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER_JITTERED);
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	CU_ASSERT_EQUAL(ssfx_status_int(ss, "observedGeneration"), 1);
	CU_ASSERT_EQUAL(ssfx_events(&w, SSC_REASON_READY), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-4 TestReconcile_DirectExternalArtifact */
static void test_direct_external_artifact(void)
{
	struct ssfx_world w;
	struct obj *ss = one_stage(&w, "direct");

	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastAppliedRevisions.ns/ea"), "rev1@sha256:aaa");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	ssfx_release(&w);
}

/* T-5 TestReconcile_PrunesRemovedObjects */
static void test_prunes_removed_objects(void)
{
	struct ssfx_world w;
	struct ssfx_record *rec;
	struct obj *ss = one_stage(&w, "pruner");

	w.with_cluster = true;
	w.apply[0].ids[0] = "cm-a";
	w.apply[0].ids[1] = "cm-b";
	w.apply[0].nids = 2;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.ndeleted, 0);
	/* rev2 renders only cm-a; the stored inventory still has both */
	rec = ssfx_record(&w, "stage-a", 0);
	rec->ids[0] = "cm-a";
	rec->ids[1] = "cm-b";
	rec->nids = 2;
	ssfx_ea(&w, NS, "ea", "rev2@sha256:ccc");
	w.apply[0].nids = 1;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL_FATAL(w.ndeleted, 1);
	CU_ASSERT_STRING_EQUAL(w.deleted[0], "cm-b");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	ssfx_release(&w);
}

/* T-6 TestReconcile_FinalizerTeardown */
static void test_finalizer_teardown(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct ssfx_record *rec;
	struct obj *ss = one_stage(&w, "teardown");

	w.with_cluster = true;
	ssfx_drive_free(&w, ss);
	rec = ssfx_record(&w, "stage-a", 0);
	rec->ids[0] = "cm-owned";
	rec->nids = 1;
	ss->deletion_ms = 0;
	w.anchor_ms = w.now;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_DELETE);
	CU_ASSERT_TRUE(r.remove_finalizer);
	CU_ASSERT_FALSE(obj_has_finalizer(ss, SSC_FINALIZER));
	CU_ASSERT_EQUAL_FATAL(w.ndeleted, 1);
	CU_ASSERT_STRING_EQUAL(w.deleted[0], "cm-owned");
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-7 TestReconcile_OrphanStageTeardown */
static void test_orphan_stage_teardown(void)
{
	struct ssfx_world w;
	struct ssfx_record *ra, *rb;
	struct obj *ss;

	ssfx_init(&w);
	w.with_cluster = true;
	ssfx_ea(&w, NS, "ea-a", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-b", "rev1@sha256:bbb");
	ss = ssfx_stageset(&w, NS, "orphans", TWO_STAGES);
	w.apply[0].ids[0] = "obj-a";
	w.apply[0].nids = 1;
	ssfx_drive_free(&w, ss);
	ra = ssfx_record(&w, "stage-a", 0);
	ra->ids[0] = "obj-a";
	ra->nids = 1;
	rb = ssfx_record(&w, "stage-b", 1);
	rb->ids[0] = "obj-b";
	rb->nids = 1;
	ssfx_respec(ss, "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea-a}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL_FATAL(w.ndeleted, 1);
	CU_ASSERT_STRING_EQUAL(w.deleted[0], "obj-b");
	CU_ASSERT_EQUAL_FATAL(w.nshards_deleted, 1);
	CU_ASSERT_STRING_EQUAL(w.shards_deleted[0], "stage-b");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "stages.1"));
	ssfx_release(&w);
}

/* T-8 TestReconcile_CrossStageOwnershipTransfer */
static void test_cross_stage_ownership_transfer(void)
{
	struct ssfx_world w;
	struct ssfx_record *ra, *rb;
	struct obj *ss;

	ssfx_init(&w);
	w.with_cluster = true;
	ssfx_ea(&w, NS, "ea-a", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-b", "rev1@sha256:bbb");
	ss = ssfx_stageset(&w, NS, "transfer", TWO_STAGES);
	ra = ssfx_record(&w, "stage-a", 0);
	ra->ids[0] = "cm-shared";
	ra->nids = 1;
	rb = ssfx_record(&w, "stage-b", 1);
	rb->nids = 0;
	/* cm-shared moves from stage-a's render to stage-b's */
	w.apply[0].nids = 0;
	w.apply[1].ids[0] = "cm-shared";
	w.apply[1].nids = 1;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_EQUAL(w.ndeleted, 0);
	ssfx_release(&w);
}

/* T-9 TestReconcile_SourceNotReady */
static void test_source_not_ready(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", NULL);
	ss = ssfx_stageset(&w, NS, "waiting", ONE_STAGE);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SOURCE_NOT_READY);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "stage \"stage-a\": "));
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "(runbook: https://stageset.projects.metio.wtf/runbooks/sourcenotready/)"));
	CU_ASSERT_EQUAL(w.apply[0].calls, 0);
	ssfx_release(&w);
}

/* T-10 TestReconcile_ArtifactNotFound */
static void test_artifact_not_found(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ss = ssfx_stageset(&w, NS, "absent",
			   "{interval: 1m, stages: [{name: stage-a, sourceRef: {apiVersion: jaas.metio.wtf/v1, kind: "
			   "JsonnetSnippet, name: missing}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_ARTIFACT_NOT_FOUND);
	ssfx_release(&w);
}

/* T-11 TestReconcile_Suspended */
static void test_suspended(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss;

	ssfx_init(&w);
	ss = ssfx_stageset(&w, NS, "paused", "{interval: 1m, suspend: true, stages: [{name: stage-a, sourceRef: {name: ea}}]}");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SUSPENDED);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_message(ss), "Reconciliation is suspended");
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
	CU_ASSERT_EQUAL(ssfx_status_int(ss, "observedGeneration"), 0);
	CU_ASSERT_EQUAL(r.events.n, 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* ---- helpers' unit tables --------------------------------------------- */

struct pspec {
	struct val *v;
	struct sst_spec s;
};

static void pspec(struct pspec *p, const char *yaml)
{
	char e[256];

	p->v = ssfx_yaml(yaml);
	CU_ASSERT_FATAL(sst_spec_parse(p->v, &p->s, e, sizeof(e)) == 0);
}

static void pspec_free(struct pspec *p)
{
	sst_spec_release(&p->s);
	val_free(p->v);
}

static struct ssc_err mkerr(enum ssc_errc code, const char *msg)
{
	struct ssc_err e;

	memset(&e, 0, sizeof(e));
	ssc_err_set(&e, code, "%s", msg);
	return e;
}

/* TestDecorateMessage */
static void test_decorate_message(void)
{
	char *a = ssc_decorate_message(SSC_REASON_STAGE_FAILED, "boom");
	char *b = ssc_decorate_message(SSC_REASON_READY, "boom");
	char *c = ssc_decorate_message(SSC_REASON_SUSPENDED, "boom");

	CU_ASSERT_STRING_EQUAL(a, "boom (runbook: https://stageset.projects.metio.wtf/runbooks/stagefailed/)");
	CU_ASSERT_STRING_EQUAL(b, "boom");
	CU_ASSERT_STRING_EQUAL(c, "boom");
	free(a);
	free(b);
	free(c);
}

/* TestAllReasons_CoversEveryConstant (the list of conditions.go, in order) */
static void test_all_reasons(void)
{
	size_t n;
	const char *const *r = ssc_all_reasons(&n);

	CU_ASSERT_EQUAL(n, 31);
	CU_ASSERT_STRING_EQUAL(r[0], "Suspended");
	CU_ASSERT_STRING_EQUAL(r[14], "AwaitingApproval");
	CU_ASSERT_STRING_EQUAL(r[30], "Succeeded");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++)
			CU_ASSERT_STRING_NOT_EQUAL(r[i], r[k]);
}

/* TestIsPermanentAPIError */
static void test_is_permanent_api_error(void)
{
	struct {
		enum ssc_errc code;
		bool want;
	} cases[] = {
		{ SSC_ERR_FORBIDDEN, true },   { SSC_ERR_NO_MATCH, true },       { SSC_ERR, false },
		{ SSC_ERR_NOT_FOUND, false },  { SSC_ERR_UNAUTHORIZED, false }, { SSC_ERR_TERMINAL_FETCH, false },
		{ SSC_ERR_NO_RETRY, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ssc_err e = mkerr(cases[i].code, "x");

		CU_ASSERT_EQUAL(ssc_is_permanent_api_error(&e), cases[i].want);
	}
}

/* TestRBACDenialMessage */
static void test_rbac_denial_message(void)
{
	struct ssc_err f = mkerr(SSC_ERR_FORBIDDEN, "externalartifacts \"ea\" is forbidden: serviceaccount cannot get resource");
	struct ssc_err n = mkerr(SSC_ERR_NO_MATCH, "no matches for kind \"Thing\"");
	struct ssc_err o = mkerr(SSC_ERR, "boom");
	char *a = ssc_rbac_denial_message("resolving the source CR", &f);
	char *b = ssc_rbac_denial_message("apply", &n);
	char *c = ssc_rbac_denial_message("apply", &o);

	CU_ASSERT_STRING_EQUAL(a, "RBAC denied resolving the source CR \xe2\x80\x94 grant the missing verb to the tenant "
				  "ServiceAccount (see the Tenancy and RBAC guide). externalartifacts \"ea\" is "
				  "forbidden: serviceaccount cannot get resource");
	CU_ASSERT_TRUE(contains(b, "not registered with the apiserver"));
	CU_ASSERT_STRING_EQUAL(c, "apply: boom");
	free(a);
	free(b);
	free(c);
}

/* TestTerminalFetchError */
static void test_terminal_fetch_error(void)
{
	struct ssc_err t = mkerr(SSC_ERR_TERMINAL_FETCH, "tarball digest does not match the artifact digest");
	struct ssc_err d = mkerr(SSC_ERR, "dial tcp: connection refused");

	CU_ASSERT_TRUE(ssc_terminal_fetch_error(&t));
	CU_ASSERT_FALSE(ssc_terminal_fetch_error(&d));
}

/* TestIsCrossNamespaceRef, TestScrubbedCrossNamespaceMessage */
static void test_cross_namespace_ref(void)
{
	struct sst_source_ref a = { "", "", "ea", "" }, b = { "", "", "ea", "team-a" }, c = { "", "", "ea", "team-b" };
	struct sst_source_ref g = { "", "GitRepository", "app", "team-b" }, e = { "", "", "x", "n" };
	char *m, *m2;
	const char *leaks[] = { "NotFound", "Forbidden", "forbidden", "not found", "digest", "403", "404" };

	CU_ASSERT_FALSE(ssc_is_cross_namespace_ref(&a, "team-a"));
	CU_ASSERT_FALSE(ssc_is_cross_namespace_ref(&b, "team-a"));
	CU_ASSERT_TRUE(ssc_is_cross_namespace_ref(&c, "team-a"));
	m = ssc_scrubbed_cross_namespace_message(&g, g.ns);
	CU_ASSERT_STRING_EQUAL(m, "cross-namespace GitRepository \"app\" is not reachable; check the source CR's status "
				  "in \"team-b\"");
	for (size_t i = 0; i < sizeof(leaks) / sizeof(leaks[0]); i++)
		CU_ASSERT_FALSE(contains(m, leaks[i]));
	m2 = ssc_scrubbed_cross_namespace_message(&e, "n");
	CU_ASSERT_TRUE(contains(m2, "ExternalArtifact"));
	free(m);
	free(m2);
}

/* TestStageTimeout, _ReadyChecksWithoutTimeoutFallsThrough, _DefaultIsFifteenMinutes */
static void test_stage_timeout(void)
{
	struct {
		const char *checks, *stage, *spec;
		int64_t want;
	} cases[] = {
		{ "20m", "1m", "1h", 20 * SSFX_MIN },   { "20m", NULL, NULL, 20 * SSFX_MIN },
		{ "0s", "90s", "1h", 90000 },           { "-1s", "90s", NULL, 90000 },
		{ "0s", "0s", "0s", 15 * SSFX_MIN },    { NULL, "30s", "1h", 30000 },
		{ NULL, "0s", "2m", 2 * SSFX_MIN },     { NULL, "-1s", "2m", 2 * SSFX_MIN },
		{ NULL, NULL, "0s", 15 * SSFX_MIN },    { NULL, NULL, NULL, 15 * SSFX_MIN },
		{ NULL, "0s", "0s", 15 * SSFX_MIN },
	};
	struct pspec p;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char y[512], st[128] = "", rc[128] = "", sp[64] = "";

		if (cases[i].stage)
			snprintf(st, sizeof(st), ", timeout: '%s'", cases[i].stage);
		if (cases[i].checks)
			snprintf(rc, sizeof(rc), ", readyChecks: {timeout: '%s'}", cases[i].checks);
		if (cases[i].spec)
			snprintf(sp, sizeof(sp), "timeout: '%s', ", cases[i].spec);
		snprintf(y, sizeof(y), "{%sstages: [{name: s, sourceRef: {name: ea}%s%s}]}", sp, st, rc);
		pspec(&p, y);
		CU_ASSERT_EQUAL(ssc_stage_timeout(&p.s, &p.s.stages[0]), cases[i].want);
		pspec_free(&p);
	}
	pspec(&p, "{timeout: 2m, stages: [{name: s, sourceRef: {name: ea}, readyChecks: {disableWait: true}}]}");
	CU_ASSERT_EQUAL(ssc_stage_timeout(&p.s, &p.s.stages[0]), 2 * SSFX_MIN);
	pspec_free(&p);
	CU_ASSERT_EQUAL(SSC_DEFAULT_STAGE_TIMEOUT_MS, 15 * SSFX_MIN);
}

/* TestStageOnTimeout */
static void test_stage_on_timeout(void)
{
	struct {
		const char *stage, *spec, *want;
	} cases[] = {
		{ "", "", "Hold" }, { "", "Rollback", "Rollback" }, { "Hold", "Rollback", "Hold" },
		{ "Rollback", "", "Rollback" }, { "", "Hold", "Hold" },
	};
	struct pspec p;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char y[256];

		snprintf(y, sizeof(y), "{onTimeout: '%s', stages: [{name: s, sourceRef: {name: ea}, onTimeout: '%s'}]}",
			 cases[i].spec, cases[i].stage);
		pspec(&p, y);
		CU_ASSERT_STRING_EQUAL(ssc_stage_on_timeout(&p.s, &p.s.stages[0]), cases[i].want);
		pspec_free(&p);
	}
}

/* TestEffectiveInterval, TestRetryAndSteadyInterval_UseDefault; Q-19 (retryInterval 0s is used as is) */
static void test_intervals(void)
{
	struct ssc_options o = ssc_options_default();
	struct pspec p;

	pspec(&p, "{stages: [{name: s, sourceRef: {name: ea}}]}");
	CU_ASSERT_EQUAL(ssc_effective_interval(&p.s, &o), 10 * SSFX_MIN);
	CU_ASSERT_EQUAL(ssc_retry_interval(&p.s, &o), 10 * SSFX_MIN);
	CU_ASSERT_EQUAL(ssc_steady_interval(&p.s, &o), 10 * SSFX_MIN);
	pspec_free(&p);
	pspec(&p, "{interval: 2m, stages: [{name: s, sourceRef: {name: ea}}]}");
	CU_ASSERT_EQUAL(ssc_effective_interval(&p.s, &o), 2 * SSFX_MIN);
	pspec_free(&p);
	pspec(&p, "{driftDetectionInterval: 2m, stages: [{name: s, sourceRef: {name: ea}}]}");
	CU_ASSERT_EQUAL(ssc_steady_interval(&p.s, &o), 2 * SSFX_MIN);
	pspec_free(&p);
	pspec(&p, "{interval: 1m, driftDetectionInterval: 2m, retryInterval: 0s, stages: [{name: s, sourceRef: {name: ea}}]}");
	CU_ASSERT_EQUAL(ssc_steady_interval(&p.s, &o), SSFX_MIN);
	CU_ASSERT_EQUAL(ssc_retry_interval(&p.s, &o), 0);
	pspec_free(&p);
}

/* TestParseReconcileStage */
static void test_parse_reconcile_stage(void)
{
	struct {
		const char *ann, *stage, *token;
	} cases[] = {
		{ "canary@123", "canary", "123" }, { "canary@a@b", "canary", "a@b" }, { "canary@", "", "" },
		{ "@123", "", "" },               { "canary", "", "" },              { NULL, "", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct obj *o = obj_new(SSFX_SS_API, "StageSet", NS, "ss");
		char *st, *tok;

		if (cases[i].ann)
			obj_strmap_set(&o->annotations, SSC_ANN_RECONCILE_STAGE, cases[i].ann);
		ssc_parse_reconcile_stage(o, &st, &tok);
		CU_ASSERT_STRING_EQUAL(st, cases[i].stage);
		CU_ASSERT_STRING_EQUAL(tok, cases[i].token);
		free(st);
		free(tok);
		obj_free(o);
	}
}

static struct obj *pred_obj(int64_t gen, const char *key, const char *value)
{
	struct obj *o = obj_new(SSFX_SS_API, "StageSet", NS, "ss");

	o->generation = gen;
	if (key)
		obj_strmap_set(&o->annotations, key, value);
	return o;
}

/* TestWatchPredicate_WakesOnExpectedChanges, TestMigrationApprovalPredicate_Update; T-122 (unit part) */
static void test_watch_predicate(void)
{
	struct {
		int64_t og;
		const char *ok, *ov;
		int64_t ng;
		const char *nk, *nv;
		bool want;
	} cases[] = {
		{ 1, NULL, NULL, 2, NULL, NULL, true },                                          /* generation bump */
		{ 1, NULL, NULL, 1, SSC_ANN_RECONCILE_STAGE, "stage-a@t1", true },              /* reconcile-stage set */
		{ 1, SSC_ANN_RECONCILE_STAGE, "stage-a@t1", 1, SSC_ANN_RECONCILE_STAGE, "stage-a@t2", true },
		{ 1, NULL, NULL, 1, SSC_ANN_REQUESTED_AT, "now", true },                         /* requestedAt set */
		{ 1, NULL, NULL, 1, SSC_ANN_REQUESTED_AT, "", true },                            /* present, empty */
		{ 1, SSC_ANN_REQUESTED_AT, "a", 1, SSC_ANN_REQUESTED_AT, "a", false },
		{ 1, NULL, NULL, 1, NULL, NULL, false },                                         /* status-only */
		{ 1, NULL, NULL, 1, "example.com/note", "hi", false },                           /* unrelated */
		{ 1, SSC_ANN_RECONCILE_STAGE, "stage-a@t1", 1, SSC_ANN_RECONCILE_STAGE, "stage-a@t1", false },
		{ 1, NULL, NULL, 1, SSC_ANN_APPROVED_VERSION, "v2", true },
		{ 1, SSC_ANN_APPROVED_VERSION, "v1", 1, SSC_ANN_APPROVED_VERSION, "v2", true },
		{ 1, SSC_ANN_APPROVED_VERSION, "v1", 1, SSC_ANN_APPROVED_VERSION, "v1", false },
		{ 1, NULL, NULL, 1, SSC_ANN_ROLLBACK_TO, "1.0.0", true },
		{ 1, NULL, NULL, 1, SSC_ANN_PROMOTE, "stage-a@go", true },
		{ 1, SSC_ANN_REQUESTED_AT, "a", 1, NULL, NULL, false },                          /* removed: not a request */
		{ 1, NULL, NULL, 1, SSC_ANN_UPDATE_NOW, "tok", false },                          /* does not wake on its own */
		{ 1, NULL, NULL, 1, SSC_ANN_BUDGET_OVERRIDE, "tok", false },
		{ 1, NULL, NULL, 1, SSC_ANN_RESET_SCOPE, "tok", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct obj *o = pred_obj(cases[i].og, cases[i].ok, cases[i].ov);
		struct obj *n = pred_obj(cases[i].ng, cases[i].nk, cases[i].nv);

		if (ssc_watch_update(o, n) != cases[i].want)
			fprintf(stderr, "watch predicate case %zu\n", i);
		CU_ASSERT_EQUAL(ssc_watch_update(o, n), cases[i].want);
		obj_free(o);
		obj_free(n);
	}
	CU_ASSERT_FALSE(ssc_watch_update(NULL, NULL));
}

/* T-122 TestStageSetWatchPredicate_WakesOnDeletion: a deletion of a finalizer-held object bumps generation */
static void test_watch_predicate_wakes_on_deletion(void)
{
	struct obj *o = pred_obj(1, NULL, NULL), *n = pred_obj(2, NULL, NULL);

	obj_add_finalizer(n, SSC_FINALIZER);
	n->deletion_ms = 0;
	CU_ASSERT_TRUE(ssc_watch_update(o, n));
	obj_free(o);
	obj_free(n);
}

/* TestMapStageSetDependents */
static void test_map_stageset_dependents(void)
{
	struct pspec b, x;

	pspec(&b, "{dependsOn: [{name: dep-a}], stages: [{name: s, sourceRef: {name: ea}}]}");
	pspec(&x, "{dependsOn: [{name: dep-a, namespace: other}], stages: [{name: s, sourceRef: {name: ea}}]}");
	CU_ASSERT_TRUE(ssc_depends_on(&b.s, NS, NS, "dep-a"));
	CU_ASSERT_FALSE(ssc_depends_on(&b.s, NS, NS, "dep-b"));
	CU_ASSERT_FALSE(ssc_depends_on(&b.s, NS, "other", "dep-a"));
	CU_ASSERT_TRUE(ssc_depends_on(&x.s, NS, "other", "dep-a"));
	pspec_free(&b);
	pspec_free(&x);
}

static void st_entry(struct sst_stage_status *e, const char *name, const char *rev, const char *promo)
{
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->phase = xstrdup("");
	e->applied_revision = xstrdup(rev);
	e->message = xstrdup("");
	e->ledger_revision = xstrdup("");
	e->ledger_version = xstrdup("");
	e->last_handled_reconcile_at = xstrdup("");
	e->last_handled_promotion = xstrdup(promo ? promo : "");
}

static void prior_of_entries(struct sst_status *st, struct sst_stage_status *e, size_t n)
{
	sst_status_init(st);
	st->stages = xcalloc(n + 1, sizeof(*st->stages));
	for (size_t i = 0; i < n; i++)
		st->stages[i] = e[i];
	st->nstages = n;
}

static void merged_free(struct sst_stage_status *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sst_stage_status_release(&m[i]);
	free(m);
}

/* TestMergeStageStatuses */
static void test_merge_stage_statuses(void)
{
	struct pspec abc, ab, a;
	struct sst_status st;
	struct sst_stage_status pe[3], cur[2], *m;
	size_t n;

	pspec(&abc, "{stages: [{name: a, sourceRef: {name: e}}, {name: b, sourceRef: {name: e}}, {name: c, sourceRef: {name: e}}]}");
	pspec(&ab, "{stages: [{name: a, sourceRef: {name: e}}, {name: b, sourceRef: {name: e}}]}");
	pspec(&a, "{stages: [{name: a, sourceRef: {name: e}}]}");

	/* unprocessed later stages keep their prior entries */
	st_entry(&pe[0], "a", "r1", NULL);
	st_entry(&pe[1], "b", "r1", "b@tok");
	st_entry(&pe[2], "c", "r1", NULL);
	prior_of_entries(&st, pe, 3);
	st_entry(&cur[0], "a", "r2", NULL);
	ssc_merge_stage_statuses(&abc.s, &st, cur, 1, &m, &n);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(m[0].applied_revision, "r2");
	CU_ASSERT_STRING_EQUAL(m[1].last_handled_promotion, "b@tok");
	CU_ASSERT_STRING_EQUAL(m[2].applied_revision, "r1");
	merged_free(m, n);
	/* empty processed set keeps every prior spec-stage entry */
	ssc_merge_stage_statuses(&abc.s, &st, NULL, 0, &m, &n);
	CU_ASSERT_EQUAL(n, 3);
	merged_free(m, n);
	/* entries for stages removed from the spec drop */
	ssc_merge_stage_statuses(&a.s, &st, cur, 1, &m, &n);
	CU_ASSERT_EQUAL(n, 1);
	merged_free(m, n);
	sst_status_release(&st);

	/* no prior status yields only the processed entries */
	sst_status_init(&st);
	ssc_merge_stage_statuses(&ab.s, &st, cur, 1, &m, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(m[0].name, "a");
	merged_free(m, n);
	sst_status_release(&st);

	/* output follows spec order regardless of prior order; a full pass is all processed entries */
	st_entry(&pe[0], "c", "r1", NULL);
	st_entry(&pe[1], "a", "r1", NULL);
	st_entry(&pe[2], "b", "r1", NULL);
	prior_of_entries(&st, pe, 3);
	ssc_merge_stage_statuses(&abc.s, &st, cur, 1, &m, &n);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(m[0].name, "a");
	CU_ASSERT_STRING_EQUAL(m[1].name, "b");
	CU_ASSERT_STRING_EQUAL(m[2].name, "c");
	merged_free(m, n);
	st_entry(&cur[1], "b", "r2", NULL);
	ssc_merge_stage_statuses(&ab.s, &st, cur, 2, &m, &n);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(m[0].applied_revision, "r2");
	CU_ASSERT_STRING_EQUAL(m[1].applied_revision, "r2");
	merged_free(m, n);
	sst_status_release(&st);
	sst_stage_status_release(&cur[0]);
	sst_stage_status_release(&cur[1]);
	pspec_free(&abc);
	pspec_free(&ab);
	pspec_free(&a);
}

/* TestEmitReadyEvent_DedupsRepeatedSameReason */
static void test_emit_ready_event_dedups(void)
{
	struct ssc_events ev = { 0 };
	struct sst_condition ready = { (char *)"Ready", (char *)"True", (char *)SSC_REASON_READY, (char *)"", 1, 0 };
	struct sst_condition invalid = { (char *)"Ready", (char *)"False", (char *)SSC_REASON_INVALID_SPEC, (char *)"", 1, 0 };

	ssc_emit_ready_event(&ev, 0, NULL, "True", SSC_REASON_READY, "synced");
	CU_ASSERT_EQUAL(ev.n, 1);
	ssc_emit_ready_event(&ev, 0, &ready, "True", SSC_REASON_READY, "synced again");
	CU_ASSERT_EQUAL(ev.n, 1);
	ssc_emit_ready_event(&ev, 0, &ready, "False", SSC_REASON_INVALID_SPEC, "bad spec");
	CU_ASSERT_EQUAL(ev.n, 2);
	ssc_emit_ready_event(&ev, 0, &invalid, "True", SSC_REASON_READY, "recovered");
	CU_ASSERT_EQUAL_FATAL(ev.n, 3);
	CU_ASSERT_FALSE(ev.items[0].warning);
	CU_ASSERT_TRUE(ev.items[1].warning);
	CU_ASSERT_STRING_EQUAL(ev.items[1].note, "bad spec");
	CU_ASSERT_FALSE(ev.items[2].warning);
	ssc_events_release(&ev);
}

/* setReady: fluxcd conditions.Set (spec Q-29 — lastTransitionTime moves on a message change) */
static void test_set_ready_transition_time(void)
{
	struct sst_status st;
	const struct sst_condition *c;

	sst_status_init(&st);
	ssc_set_ready(&st, 1, SSFX_T0 + 1500, "False", SSC_REASON_SOAKING, "soak 1");
	c = sst_ready_condition(&st);
	CU_ASSERT_EQUAL_FATAL(st.nconditions, 1);
	CU_ASSERT_EQUAL(c->last_transition_ms, SSFX_T0 + 1000);
	CU_ASSERT_EQUAL(c->observed_generation, 1);
	CU_ASSERT_STRING_EQUAL(c->message, "soak 1 (runbook: https://stageset.projects.metio.wtf/runbooks/soaking/)");
	/* same status, reason, message: kept; the generation still moves */
	ssc_set_ready(&st, 2, SSFX_T0 + 60000, "False", SSC_REASON_SOAKING, "soak 1");
	c = sst_ready_condition(&st);
	CU_ASSERT_EQUAL(c->last_transition_ms, SSFX_T0 + 1000);
	CU_ASSERT_EQUAL(c->observed_generation, 2);
	/* only the message changes: the time moves */
	ssc_set_ready(&st, 2, SSFX_T0 + 120000, "False", SSC_REASON_SOAKING, "soak 2");
	c = sst_ready_condition(&st);
	CU_ASSERT_EQUAL(c->last_transition_ms, SSFX_T0 + 120000);
	CU_ASSERT_EQUAL(st.nconditions, 1);
	sst_status_release(&st);
}

/*
 * setReady's decorated text: built on the stack when short, on the heap when
 * long (a message of any length); a message read from the condition itself
 * (the Ready reason is not decorated) leaves it as it is.
 */
static void test_set_ready_long_and_own_message(void)
{
	struct sst_status st;
	const struct sst_condition *c;
	char *longmsg = malloc(2001), *want;

	memset(longmsg, 'x', 2000);
	longmsg[2000] = '\0';
	want = ssc_decorate_message(SSC_REASON_STAGE_FAILED, longmsg);
	CU_ASSERT_EQUAL(strlen(want), 2000 + strlen(" (runbook: https://stageset.projects.metio.wtf/runbooks/stagefailed/)"));
	sst_status_init(&st);
	ssc_set_ready(&st, 1, SSFX_T0, "False", SSC_REASON_STAGE_FAILED, longmsg); /* a new condition */
	c = sst_ready_condition(&st);
	CU_ASSERT_STRING_EQUAL(c->message, want);
	ssc_set_ready(&st, 1, SSFX_T0, "True", SSC_REASON_READY, "ok");
	ssc_set_ready(&st, 1, SSFX_T0, "False", SSC_REASON_STAGE_FAILED, longmsg); /* an existing one */
	c = sst_ready_condition(&st);
	CU_ASSERT_STRING_EQUAL(c->message, want);
	ssc_set_ready(&st, 1, SSFX_T0, "True", SSC_REASON_READY, "Applied and verified 1 stage(s)");
	c = sst_ready_condition(&st);
	ssc_set_ready(&st, 2, SSFX_T0 + 5000, "True", SSC_REASON_READY, c->message);
	c = sst_ready_condition(&st);
	CU_ASSERT_STRING_EQUAL(c->message, "Applied and verified 1 stage(s)");
	CU_ASSERT_EQUAL(c->last_transition_ms, SSFX_T0);
	CU_ASSERT_EQUAL(c->observed_generation, 2);
	sst_status_release(&st);
	free(want);
	free(longmsg);
}

/* failReason */
static void test_fail_reason(void)
{
	struct ssc_err plain = mkerr(SSC_ERR, "x"), forb = mkerr(SSC_ERR_FORBIDDEN, "x"),
		       term = mkerr(SSC_ERR_TERMINAL_FETCH, "x");
	struct {
		const char *op;
		const struct ssc_err *cause;
		const char *reason;
		bool terminal;
	} cases[] = {
		{ "apply", &forb, SSC_REASON_RBAC_DENIED, true },
		{ "migration", &forb, SSC_REASON_RBAC_DENIED, true },
		{ "fetch artifact", &term, SSC_REASON_STAGE_FAILED, true },
		{ "build", &term, SSC_REASON_STAGE_FAILED, false },
		{ "migration", &plain, SSC_REASON_MIGRATION_FAILED, false },
		{ "migration halted (dirty)", &plain, SSC_REASON_MIGRATION_DIRTY, true },
		{ "image verification", &plain, SSC_REASON_IMAGE_UNVERIFIED, true },
		{ "action halted (dirty)", &plain, SSC_REASON_ACTION_DIRTY, true },
		{ "verify", &plain, SSC_REASON_STAGE_FAILED, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool terminal;
		const char *r = ssc_fail_reason(cases[i].op, cases[i].cause, &terminal);

		CU_ASSERT_STRING_EQUAL(r, cases[i].reason);
		CU_ASSERT_EQUAL(terminal, cases[i].terminal);
	}
}

/* versionAtLeast, orNoneVersion */
static void test_version_at_least(void)
{
	bool ok;
	char err[128];

	CU_ASSERT_EQUAL(ssc_version_at_least("2.0.0", "2.0.0", &ok, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(ssc_version_at_least("v2.1", "2.0.0", &ok, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(ssc_version_at_least("1.9.9", "2.0.0", &ok, err, sizeof(err)), 0);
	CU_ASSERT_FALSE(ok);
	CU_ASSERT_EQUAL(ssc_version_at_least("", "2.0.0", &ok, err, sizeof(err)), 0);
	CU_ASSERT_FALSE(ok);
	CU_ASSERT_EQUAL(ssc_version_at_least("2.0.0", "two", &ok, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "invalid semantic version");
}

/* TestTeardownTimedOut, TestTeardownDropDecision_TransientCauseWaitsOutTheBound */
static void test_teardown_drop_decision(void)
{
	int64_t now = SSFX_T0;
	struct ssc_err dial = mkerr(SSC_ERR, "dial target: no route to host");
	struct ssc_err forb = mkerr(SSC_ERR_FORBIDDEN, "forbidden");
	struct ssc_err unauth = mkerr(SSC_ERR_UNAUTHORIZED, "Unauthorized");
	const char *reason;
	int64_t elapsed;

	CU_ASSERT_FALSE(ssc_teardown_drop_decision(SST_NO_TIME, now, 3600000, &dial, &reason, &elapsed));
	CU_ASSERT_FALSE(ssc_teardown_drop_decision(now - 30 * SSFX_MIN, now, 3600000, &dial, &reason, &elapsed));
	CU_ASSERT_TRUE(ssc_teardown_drop_decision(now - 120 * SSFX_MIN, now, 3600000, &dial, &reason, &elapsed));
	CU_ASSERT_STRING_EQUAL(reason, "timed_out");
	CU_ASSERT_EQUAL(elapsed, 120 * SSFX_MIN);
	CU_ASSERT_FALSE(ssc_teardown_drop_decision(now - 30 * SSFX_MIN, now, 0, &dial, &reason, &elapsed));
	CU_ASSERT_TRUE(ssc_teardown_drop_decision(now - 90 * SSFX_MIN, now, 0, &dial, &reason, &elapsed));
	/* a cause no retry can clear drops at once */
	CU_ASSERT_TRUE(ssc_teardown_drop_decision(now - SSFX_MIN, now, 3600000, &forb, &reason, &elapsed));
	CU_ASSERT_STRING_EQUAL(reason, "permanent");
	CU_ASSERT_EQUAL(elapsed, SSFX_MIN);
	CU_ASSERT_TRUE(ssc_teardown_drop_decision(now - SSFX_MIN, now, 3600000, &unauth, &reason, &elapsed));
	CU_ASSERT_STRING_EQUAL(reason, "unauthorized");
}

/* TestTeardownFailure_WithinWait_RetriesAndKeepsFinalizer, _PastWait_ForceDrops, _UnclearableCause... */
static void test_teardown_failure(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct ssfx_record *rec;
	struct obj *ss = one_stage(&w, "ss");

	w.with_cluster = true;
	ssfx_drive_free(&w, ss);
	rec = ssfx_record(&w, "s", 0);
	snprintf(rec->name, sizeof(rec->name), "stage-a");
	rec->ids[0] = "deploy-web";
	rec->nids = 1;
	w.delete_err = SSC_ERR;
	w.anchor_ms = w.now - SSFX_MIN; /* deleted one minute ago */
	ss->deletion_ms = 0;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	CU_ASSERT_STRING_EQUAL(r.error, "dial target: no route to host");
	CU_ASSERT_TRUE(obj_has_finalizer(ss, SSC_FINALIZER));
	CU_ASSERT_EQUAL(ssfx_events(&w, "TeardownForced"), 0);
	ssc_result_release(&r);
	/* past the wait */
	w.anchor_ms = w.now - 120 * SSFX_MIN;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
	CU_ASSERT_FALSE(obj_has_finalizer(ss, SSC_FINALIZER));
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "TeardownForced"),
			       "TeardownForced after 2h0m0s of failing teardown (delete stage \"stage-a\" objects) \xe2\x80\x94 "
			       "finalizer dropped; the target cluster may carry orphaned objects an operator must remove by "
			       "hand. Last error: dial target: no route to host");
	ssc_result_release(&r);
	/* a forbidden delete one minute in */
	obj_add_finalizer(ss, SSC_FINALIZER);
	w.delete_err = SSC_ERR_FORBIDDEN;
	w.anchor_ms = w.now - SSFX_MIN;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_TRUE(r.remove_finalizer);
	CU_ASSERT_TRUE(contains(ssfx_event_note(&w, "TeardownForced"),
				"TeardownForced after 1m0s \xe2\x80\x94 teardown (delete stage \"stage-a\" objects) failed "
				"with a cause no retry can clear"));
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* ---- §6.6 verify, failures, rollback ------------------------------------- */

#define PROGRESS_HOLD                                                                                         \
	"{interval: 1h, retryInterval: 90s, timeout: 1s, onTimeout: '%s', rollbackOnFailure: true, stages: [{name: " \
	"server, sourceRef: {name: ea}}]}"

static struct obj *progress_world(struct ssfx_world *w, const char *on_timeout)
{
	char spec[512];

	ssfx_init(w);
	ssfx_ea(w, NS, "ea", "rev1@sha256:aaa");
	snprintf(spec, sizeof(spec), PROGRESS_HOLD, on_timeout);
	w->wait[0].result = SSC_WAIT_TIMEOUT;
	snprintf(w->wait[0].msg, sizeof(w->wait[0].msg), "timeout waiting for: [Deployment/ns/server status: 'InProgress']");
	return ssfx_stageset(w, NS, "slow", spec);
}

/* T-87 TestReconcile_VerifyTimeout_HoldsAsProgressing */
static void test_verify_timeout_holds_as_progressing(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = progress_world(&w, "");

	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_PROGRESS_HOLD);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER);
	CU_ASSERT_EQUAL(r.requeue_after_ms, 90000);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_PROGRESSING);
	CU_ASSERT_EQUAL(ssfx_events(&w, "RolledBack"), 0);
	CU_ASSERT_EQUAL(w.restore[0].calls, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.phase"), "Verifying");
	CU_ASSERT_TRUE(contains(ssfx_status_str(ss, "stages.0.message"), "spec.timeout"));
	CU_ASSERT_TRUE(contains(ssfx_status_str(ss, "stages.0.message"), "verify: timeout waiting for: ["));
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "stage \"server\" is applied and still becoming ready: "));
	CU_ASSERT_EQUAL(ssfx_events(&w, SSC_REASON_STAGE_PROGRESSING), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-88 TestReconcile_VerifyTimeout_RollbackOptIn */
static void test_verify_timeout_rollback_opt_in(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = progress_world(&w, "Rollback");

	ssfx_drive(&w, ss, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.phase"), "Failed");
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* H-3: the StageSet got its deletionTimestamp during the verify wait. */
static void test_deleted_mid_verify(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = one_stage(&w, "going");

	w.wait[0].result = SSC_WAIT_DELETED;
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_DELETED_MID_VERIFY);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_RATE_LIMITED);
	CU_ASSERT_FALSE(r.write_status);
	CU_ASSERT_PTR_NULL(ss->status);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-89 TestFailResolution_PermanentAPIError_TerminalRBACDenied */
static void test_fail_resolution_permanent_api_error(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = one_stage(&w, "rbac");

	ssfx_get_error(&w, "ExternalArtifact", NS, "ea", SSC_ERR_FORBIDDEN,
		       "externalartifacts.source.toolkit.fluxcd.io \"ea\" is forbidden: serviceaccount cannot get resource");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER);
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_RBAC_DENIED);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "stage \"stage-a\": RBAC denied resolving the source CR \xe2\x80\x94"));
	CU_ASSERT_EQUAL(r.events.n, 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-90 TestFailResolution_Transient_Requeues */
static void test_fail_resolution_transient_requeues(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", NULL);
	ss = ssfx_stageset(&w, NS, "transient", "{interval: 1m, retryInterval: 30s, stages: [{name: stage-a, sourceRef: {name: ea}}]}");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER_JITTERED);
	CU_ASSERT_EQUAL(r.requeue_after_ms, 30000);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SOURCE_NOT_READY);
	ssc_result_release(&r);
	/* an unexpected read failure: ResolveFailed written, then the error (back-off) */
	ssfx_get_error(&w, "ExternalArtifact", NS, "ea", SSC_ERR, "etcdserver: request timed out");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_RESOLVE_FAILED);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-91 TestFailResolution_CrossNamespace_Scrubbed */
static void test_fail_resolution_cross_namespace_scrubbed(void)
{
	struct ssfx_world w;
	struct obj *ss;
	const char *leaks[] = { "Forbidden", "forbidden", "cannot get", "NotFound" };

	ssfx_init(&w);
	ss = ssfx_stageset(&w, NS, "xns",
			   "{interval: 1m, stages: [{name: stage-a, sourceRef: {kind: GitRepository, name: app, namespace: "
			   "other-team}}]}");
	ssfx_get_error(&w, "GitRepository", "other-team", "app", SSC_ERR_FORBIDDEN,
		       "gitrepositories.source.toolkit.fluxcd.io \"app\" is forbidden: User cannot get resource");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "is not reachable"));
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "other-team"));
	for (size_t i = 0; i < sizeof(leaks) / sizeof(leaks[0]); i++)
		CU_ASSERT_FALSE(contains(ssfx_ready_message(ss), leaks[i]));
	ssfx_release(&w);
}

/* T-92 TestFailStage_TerminalFetch_NoRequeue */
static void test_fail_stage_terminal_fetch_no_requeue(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = one_stage(&w, "fetchterm");

	w.apply[0].failed_op = "fetch artifact";
	w.apply[0].code = SSC_ERR_TERMINAL_FETCH;
	snprintf(w.apply[0].msg, sizeof(w.apply[0].msg), "tarball digest does not match the artifact digest");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_STAGE_FAILURE);
	CU_ASSERT_EQUAL(r.stage, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.message"),
			       "fetch artifact: tarball digest does not match the artifact digest");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.appliedRevision"), "rev1@sha256:aaa");
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-93 TestFailStage_TransientFetch_BacksOff */
static void test_fail_stage_transient_fetch_backs_off(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = one_stage(&w, "fetchtrans");

	w.apply[0].failed_op = "fetch artifact";
	snprintf(w.apply[0].msg, sizeof(w.apply[0].msg), "dial tcp: connection refused");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	CU_ASSERT_STRING_EQUAL(r.error, "dial tcp: connection refused");
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-94 TestFailStage_PermanentAPIError_TerminalRBACDenied */
static void test_fail_stage_permanent_api_error(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = one_stage(&w, "applyrbac");

	w.apply[0].failed_op = "apply";
	w.apply[0].code = SSC_ERR_FORBIDDEN;
	snprintf(w.apply[0].msg, sizeof(w.apply[0].msg), "apply: configmaps is forbidden");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_RBAC_DENIED);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "stage \"stage-a\" apply: RBAC denied apply \xe2\x80\x94"));
	CU_ASSERT_EQUAL(ssfx_events(&w, SSC_REASON_RBAC_DENIED), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

#define ROLLBACK_SPEC                                                                                          \
	"{interval: 1m, rollbackOnFailure: true%s, stages: [{name: stage-a, sourceRef: {name: ea-a}}, {name: "  \
	"stage-b, sourceRef: {name: ea-b}}]}"

static struct obj *rollback_world(struct ssfx_world *w, const char *extra)
{
	char spec[1024];

	ssfx_init(w);
	ssfx_ea(w, NS, "ea-a", "v1@sha256:a1");
	ssfx_ea(w, NS, "ea-b", "v1@sha256:b1");
	snprintf(spec, sizeof(spec), ROLLBACK_SPEC, extra ? extra : "");
	return ssfx_stageset(w, NS, "rb", spec);
}

static void fail_stage_b(struct ssfx_world *w)
{
	ssfx_ea(w, NS, "ea-a", "v2@sha256:a2");
	ssfx_ea(w, NS, "ea-b", "v2@sha256:b2");
	w->apply[1].failed_op = "build";
	snprintf(w->apply[1].msg, sizeof(w->apply[1].msg), "metadata.name: Invalid value: \"Bad_Name\"");
}

/* T-95 TestRollbackOnFailure_RestoresPreviousRevision */
static void test_rollback_on_failure_restores_previous_revision(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = rollback_world(&w, NULL);

	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastAppliedSnapshot.0.revision"), "v1@sha256:a1");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastAppliedSnapshot.1.stage"), "stage-b");
	fail_stage_b(&w);
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	CU_ASSERT_EQUAL(w.restore[0].calls, 1);
	CU_ASSERT_EQUAL(w.restore[1].calls, 1);
	CU_ASSERT_EQUAL(ssfx_events(&w, "RolledBack"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "RolledBack"),
			       "rolled back to the last-applied revisions after a failed run");
	/* Q-27: the failed stage's entry names the new revision; lastAppliedRevisions stay */
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.appliedRevision"), "v2@sha256:b2");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastAppliedRevisions.ns/ea-a"), "v1@sha256:a1");
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-96 TestOnRollback_RunsAfterRestore */
static void test_on_rollback_runs_after_restore(void)
{
	struct ssfx_world w;
	struct obj *ss = rollback_world(&w, ", onRollback: [{name: lift-maintenance, delete: {target: {kind: ConfigMap, name: sentinel}}}]");

	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "lift-maintenance"), 0);
	fail_stage_b(&w);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "lift-maintenance"), 1);
	CU_ASSERT_EQUAL(w.restore[0].calls, 1);
	ssfx_release(&w);
}

/* T-97 TestRollback_FirstRunHasNothingToRestore, T-98 TestOnRollback_NotFiredWithoutSnapshot */
static void test_rollback_first_run_has_nothing_to_restore(void)
{
	struct ssfx_world w;
	struct obj *ss = rollback_world(&w, ", onRollback: [{name: cleanup, delete: {target: {kind: ConfigMap, name: s}}}]");

	w.apply[1].failed_op = "build";
	snprintf(w.apply[1].msg, sizeof(w.apply[1].msg), "bad");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	CU_ASSERT_PTR_NULL(val_path(ss->status, "lastAppliedSnapshot"));
	CU_ASSERT_EQUAL(w.restore[0].calls + w.restore[1].calls, 0);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "cleanup"), 0);
	/* upstream still reports RolledBack after an empty snapshot (attemptRollback returned no reason) */
	CU_ASSERT_EQUAL(ssfx_events(&w, "RolledBack"), 1);
	ssfx_release(&w);
}

/* T-99 TestOnRollback_NotFiredOnSuccess */
static void test_on_rollback_not_fired_on_success(void)
{
	struct ssfx_world w;
	struct obj *ss = rollback_world(&w, ", onRollback: [{name: cleanup, delete: {target: {kind: ConfigMap, name: s}}}]");

	ssfx_drive_free(&w, ss);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "cleanup"), 0);
	ssfx_release(&w);
}

/* T-101 TestOnRollback_UngatedByLedger_FiresEveryRollback (spec Q-5) */
static void test_on_rollback_fires_every_rollback(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = rollback_world(&w, ", onRollback: [{name: cleanup, delete: {target: {kind: ConfigMap, name: s}}}]");

	ssfx_drive_free(&w, ss);
	fail_stage_b(&w);
	ssfx_drive_free(&w, ss);
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "cleanup"), 2);
	CU_ASSERT_EQUAL(ssfx_events(&w, "RolledBack"), 2);
	CU_ASSERT_EQUAL(w.apply[1].calls, 3);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-102 TestOnRollback_BestEffortFailureEmitsWarning */
static void test_on_rollback_best_effort_failure_emits_warning(void)
{
	struct ssfx_world w;
	struct obj *ss = rollback_world(&w, ", onRollback: [{name: notify, http: {url: 'http://blocked.example/hook'}}]");

	ssfx_action(&w, "*/onRollback/notify", -1, SSC_ERR_NO_RETRY,
		    "http action host \"blocked.example\" is not in --allowed-action-hosts");
	ssfx_drive_free(&w, ss);
	fail_stage_b(&w);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "RolledBack"), 1);
	CU_ASSERT_EQUAL(ssfx_events(&w, "OnRollbackAction"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "OnRollbackAction"),
			       "onRollback: action \"notify\": http action host \"blocked.example\" is not in "
			       "--allowed-action-hosts");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	ssfx_release(&w);
}

/* T-103 TestOnRollback_ActionsRunInListOrder */
static void test_on_rollback_actions_run_in_list_order(void)
{
	struct ssfx_world w;
	struct obj *ss = rollback_world(&w, ", onRollback: [{name: first, delete: {target: {kind: ConfigMap, name: a}}}, "
					    "{name: second, delete: {target: {kind: ConfigMap, name: b}}}]");
	size_t f = SIZE_MAX, s2 = SIZE_MAX;

	ssfx_drive_free(&w, ss);
	fail_stage_b(&w);
	ssfx_drive_free(&w, ss);
	for (size_t i = 0; i < w.naction_log; i++) {
		if (contains(w.action_log[i], "/onRollback/first"))
			f = i;
		if (contains(w.action_log[i], "/onRollback/second"))
			s2 = i;
	}
	CU_ASSERT_TRUE(f != SIZE_MAX && s2 != SIZE_MAX && f < s2);
	ssfx_release(&w);
}

/* A rollback that cannot restore: terminal PreviousRevisionUnavailable, no requeue, no RolledBack. */
static void test_rollback_terminal_previous_revision_unavailable(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = rollback_world(&w, NULL);

	ssfx_drive_free(&w, ss);
	fail_stage_b(&w);
	w.restore[0].rc = 1;
	snprintf(w.restore[0].reason, sizeof(w.restore[0].reason), SSC_REASON_PREVIOUS_REVISION_UNAVAILABLE);
	snprintf(w.restore[0].msg, sizeof(w.restore[0].msg),
		 "cannot roll back: revision v1@sha256:a1 for stage \"stage-a\" is no longer fetchable (404)");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_PREVIOUS_REVISION_UNAVAILABLE);
	CU_ASSERT_EQUAL(ssfx_events(&w, "RolledBack"), 0);
	/* the stage failure's own Ready event came first; the rollback writes none */
	CU_ASSERT_EQUAL(ssfx_result_events(&r, SSC_REASON_STAGE_FAILED), 1);
	ssc_result_release(&r);
	/* a transient restore failure: the failure status stays, back off */
	w.restore[0].rc = -1;
	snprintf(w.restore[0].msg, sizeof(w.restore[0].msg), "connect: token mint throttled");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-124 ImageVerification_HoldsUnverified; T-130 _GatesRollback */
static void test_image_verification_holds_unverified(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = rollback_world(&w, NULL);

	ssfx_drive_free(&w, ss);
	ssfx_ea(&w, NS, "ea-a", "v2@sha256:a2");
	w.apply[0].failed_op = "image verification";
	snprintf(w.apply[0].msg, sizeof(w.apply[0].msg),
		 "image \"ghcr.io/acme/app:v2\" rejected by ImageVerificationPolicy \"signed\": no matching signatures");
	w.restore[0].rc = 1;
	snprintf(w.restore[0].reason, sizeof(w.restore[0].reason), SSC_REASON_IMAGE_UNVERIFIED);
	snprintf(w.restore[0].msg, sizeof(w.restore[0].msg),
		 "cannot roll back stage \"stage-a\": its previous revision references an image that fails verification now (x)");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_IMAGE_UNVERIFIED);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "its previous revision references an image"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.message"),
			       "image verification: image \"ghcr.io/acme/app:v2\" rejected by ImageVerificationPolicy "
			       "\"signed\": no matching signatures");
	CU_ASSERT_EQUAL(ssfx_result_events(&r, SSC_REASON_IMAGE_UNVERIFIED), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-127 ImageVerification_BreakGlass */
static void test_image_verification_break_glass(void)
{
	struct ssfx_world w;
	struct obj *ss = one_stage(&w, "glass");

	ssfx_annotate(ss, SSC_ANN_SKIP_IMAGE_VERIFICATION, "incident-42");
	w.apply[0].image_skipped = true;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "ImageVerificationSkipped"),
			       "image verification skipped for stage \"stage-a\" by break-glass annotation: incident-42");
	ssfx_release(&w);
}

/* ---- failures before the loop (R-12, R-15; spec Q-13) --------------------- */

static void test_preloop_failures(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = one_stage(&w, "pre");

	w.with_cluster = true;
	w.actions[0].key[0] = '\0';
	ssfx_respec(ss, "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea}, actions: {post: [{name: notify, "
			"http: {url: 'http://hooks/x'}}]}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "notify"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.executedActions.0"), "notify");
	/* a connect failure: stages[0] Failed with empty ledgers and no revision */
	w.connect_err = SSC_ERR;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_message(ss),
			       "stage \"stage-a\" connect to target cluster: dial target: no route to host (runbook: "
			       "https://stageset.projects.metio.wtf/runbooks/stagefailed/)");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.phase"), "Failed");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.appliedRevision"), "");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "stages.0.executedActions"));
	ssc_result_release(&r);
	/* the next good pass runs the action again */
	w.connect_err = SSC_OK;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "notify"), 2);
	ssc_result_release(&r);
	/* a malformed kubeConfig is InvalidSpec with its Ready event and a 1 m requeue */
	w.kubeconfig_invalid = true;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_KUBECONFIG);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_INVALID_SPEC);
	CU_ASSERT_EQUAL(ssfx_result_events(&r, SSC_REASON_INVALID_SPEC), 1);
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	ssc_result_release(&r);
	/* decryption: the message hides the cause */
	w.kubeconfig_invalid = false;
	w.decrypt_err = SSC_ERR;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.message"), "configure decryption: decryption failed");
	CU_ASSERT_FALSE(contains(ssfx_ready_message(ss), "MAC"));
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* ---- §6.7 dependencies, inventory, misc ------------------------------------ */

/* T-109 TestReconcile_DependencyNotReady */
static void test_dependency_not_ready(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", "rev1@sha256:aaa");
	ss = ssfx_stageset(&w, NS, "dependent",
			   "{interval: 1m, dependsOn: [{name: missing-dep}], stages: [{name: stage-a, sourceRef: {name: ea}}]}");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_DEPENDENCY_NOT_READY);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "dependency ns/missing-dep not found"));
	CU_ASSERT_EQUAL(w.apply[0].calls, 0);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER_JITTERED);
	CU_ASSERT_EQUAL(r.events.n, 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-110 TestReconcile_DependencyReady */
static void test_dependency_ready(void)
{
	struct ssfx_world w;
	struct obj *a, *b;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea-a", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-b", "rev1@sha256:bbb");
	a = ssfx_stageset(&w, NS, "dep-a", "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea-a}}]}");
	ssfx_drive_free(&w, a);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(a), SSC_REASON_READY);
	b = ssfx_stageset(&w, NS, "dep-b",
			  "{interval: 1m, dependsOn: [{name: dep-a}], stages: [{name: stage-a, sourceRef: {name: ea-b}}]}");
	ssfx_drive_free(&w, b);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(b), SSC_REASON_READY);
	ssfx_release(&w);
}

static void set_status_str(struct obj *o, const char *key, const char *value)
{
	val_map_set(o->status, key, val_new_string(value));
}

/* T-111 TestReconcile_DependencyVersionGate */
static void test_dependency_version_gate(void)
{
	struct ssfx_world w;
	struct obj *db, *app;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea-a", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-b", "rev1@sha256:bbb");
	db = ssfx_stageset(&w, NS, "db", "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea-a}}]}");
	ssfx_drive_free(&w, db);
	set_status_str(db, "version", "1.0.0");
	app = ssfx_stageset(&w, NS, "app",
			    "{interval: 1m, dependsOn: [{name: db, minVersion: 2.0.0}], stages: [{name: stage-a, "
			    "sourceRef: {name: ea-b}}]}");
	ssfx_drive_free(&w, app);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(app), SSC_REASON_DEPENDENCY_NOT_READY);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(app), "dependency ns/db is at version 1.0.0, need >= 2.0.0"));
	CU_ASSERT_EQUAL(w.apply[0].calls, 1); /* only db applied */
	set_status_str(db, "version", "2.0.0");
	ssfx_drive_free(&w, app);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(app), SSC_REASON_READY);
	ssfx_release(&w);
}

/* T-112 TestReconcile_DependencyCycle, T-113 TestReconcile_TerminalReasonRequeuesForRecovery */
static void test_dependency_cycle(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *y;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea-x", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-y", "rev1@sha256:bbb");
	ssfx_stageset(&w, NS, "cyc-x", "{interval: 1m, dependsOn: [{name: cyc-y}], stages: [{name: stage-a, sourceRef: {name: ea-x}}]}");
	y = ssfx_stageset(&w, NS, "cyc-y", "{interval: 1m, dependsOn: [{name: cyc-x}], stages: [{name: stage-a, sourceRef: {name: ea-y}}]}");
	ssfx_drive(&w, y, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(y), SSC_REASON_STALLED);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(y), "spec.dependsOn forms a cycle"));
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER);
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSC_PERMANENT_RETRY_MS);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* TestDependenciesReady_HeldNewRevisionGatesDependents */
static void test_dependencies_ready_held_new_revision(void)
{
	struct ssfx_world w;
	struct obj *dep, *ss;
#define DEP_READY "{observedGeneration: 1, conditions: [{type: Ready, status: 'True', reason: Succeeded, " \
		  "message: ok, observedGeneration: 1, lastTransitionTime: '2026-01-01T00:00:00Z'}]%s}"
	char st[512];

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", "rev1@sha256:aaa");
	snprintf(st, sizeof(st), DEP_READY, ", pendingUpdate: {revisions: {ns/ea: 'sha256:new'}}");
	dep = ssfx_add(&w, SSFX_SS_API, "StageSet", NS, "dep", "{stages: [{name: s, sourceRef: {name: x}}]}", st);
	dep->generation = 1;
	ss = ssfx_stageset(&w, NS, "dependent", "{interval: 1m, dependsOn: [{name: dep}], stages: [{name: stage-a, sourceRef: {name: ea}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_DEPENDENCY_NOT_READY);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "held by an update window"));
	/* a pure freeze (no pending revision) does not gate */
	val_free(dep->status);
	snprintf(st, sizeof(st), DEP_READY, ", pendingUpdate: {}");
	dep->status = ssfx_yaml(st);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	/* observedGeneration behind generation: not ready */
	dep->generation = 2;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "dependency ns/dep is not ready"));
	ssfx_release(&w);
}

/* T-114 TestDisasterRecovery_StageInventoryLoss_SelfHealsViaReconstruction */
static void test_stage_inventory_loss_self_heals(void)
{
	struct ssfx_world w;
	struct ssfx_record *rec;
	struct obj *ss = one_stage(&w, "dr");

	w.with_cluster = true;
	w.apply[0].ids[0] = "cm-a";
	w.apply[0].ids[1] = "cm-b";
	w.apply[0].nids = 2;
	ssfx_drive_free(&w, ss);
	/* the inventory is gone and cm-b left the render */
	w.apply[0].nids = 1;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "InventoryReconstructed"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "InventoryReconstructed"),
			       "rebuilt StageInventory for stage(s) stage-a from live cluster objects; prune deferred to "
			       "the next reconcile");
	CU_ASSERT_EQUAL(w.ndeleted, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	/* the rebuilt inventory holds both; the next pass prunes cm-b */
	rec = ssfx_record(&w, "stage-a", 0);
	rec->ids[0] = "cm-a";
	rec->ids[1] = "cm-b";
	rec->nids = 2;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "InventoryReconstructed"), 1);
	CU_ASSERT_EQUAL_FATAL(w.ndeleted, 1);
	CU_ASSERT_STRING_EQUAL(w.deleted[0], "cm-b");
	ssfx_release(&w);
}

/* T-115 TestDisasterRecovery_RestoredBackupPrunesImmediately */
static void test_restored_backup_prunes_immediately(void)
{
	struct ssfx_world w;
	struct ssfx_record *rec;
	struct obj *ss = one_stage(&w, "dr2");

	w.with_cluster = true;
	rec = ssfx_record(&w, "stage-a", 0);
	rec->ids[0] = "cm-a";
	rec->ids[1] = "cm-b";
	rec->nids = 2;
	w.apply[0].ids[0] = "cm-a";
	w.apply[0].nids = 1;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "InventoryReconstructed"), 0);
	CU_ASSERT_EQUAL_FATAL(w.ndeleted, 1);
	CU_ASSERT_STRING_EQUAL(w.deleted[0], "cm-b");
	ssfx_release(&w);
}

/* R-20: an object two stages render is an ambiguous spec: InvalidSpec, no requeue, nothing pruned. */
static void test_duplicate_claims(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss;

	ssfx_init(&w);
	w.with_cluster = true;
	ssfx_ea(&w, NS, "ea-a", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-b", "rev1@sha256:bbb");
	ss = ssfx_stageset(&w, NS, "dups", TWO_STAGES);
	w.apply[0].ids[0] = "cm-x";
	w.apply[0].ids[1] = "cm-y";
	w.apply[0].nids = 2;
	w.apply[1].ids[0] = "cm-x";
	w.apply[1].ids[1] = "cm-y";
	w.apply[1].ids[2] = "cm-z";
	w.apply[1].nids = 3;
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_DUPLICATE_CLAIMS);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "2 object(s) are claimed by more than one stage"));
	CU_ASSERT_PTR_NULL(val_path(ss->status, "lastAppliedRevisions"));
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-116 TestDrift_DriftCorrected, T-117 TestDrift_NewRevisionIsNotDrift */
static void test_drift_corrected(void)
{
	struct ssfx_world w;
	struct obj *ss = one_stage(&w, "drift");

	w.apply[0].nchanged = 1;
	snprintf(w.apply[0].changed, sizeof(w.apply[0].changed), "ConfigMap/ns/drifted");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "DriftCorrected"), 0); /* the first apply counts 0 */
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "DriftCorrected"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "DriftCorrected"),
			       "stage \"stage-a\" corrected out-of-band drift on 1 object(s): ConfigMap/ns/drifted");
	ssfx_ea(&w, NS, "ea", "rev2@sha256:bbb");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "DriftCorrected"), 1);
	ssfx_release(&w);
}

/* T-120 TestReconcile_RecordsHandledReconcileRequest */
static void test_records_handled_reconcile_request(void)
{
	struct ssfx_world w;
	struct obj *ss = one_stage(&w, "triggered");

	ssfx_annotate(ss, SSC_ANN_REQUESTED_AT, "token-1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastHandledReconcileAt"), "token-1");
	ssfx_annotate(ss, SSC_ANN_REQUESTED_AT, "token-2");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastHandledReconcileAt"), "token-2");
	ssfx_release(&w);
}

/* T-121 TestReconcile_SuspendedDoesNotRecordReconcileRequest */
static void test_suspended_does_not_record_reconcile_request(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ss = ssfx_stageset(&w, NS, "paused", "{interval: 1m, suspend: true, stages: [{name: stage-a, sourceRef: {name: art}}]}");
	ssfx_annotate(ss, SSC_ANN_REQUESTED_AT, "token-1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastHandledReconcileAt"), "");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SUSPENDED);
	ssfx_release(&w);
}

/* R-6: the spec fallback validation (a bypassed webhook): InvalidSpec, 1 m, no event. */
static void test_invalid_spec_fallback(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", "rev1@sha256:aaa");
	ss = ssfx_stageset(&w, NS, "dupnames",
			   "{interval: 1m, stages: [{name: a, sourceRef: {name: ea}}, {name: a, sourceRef: {name: ea}}]}");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_INVALID_SPEC);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_INVALID_SPEC);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "stage name \"a\" is not unique"));
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	CU_ASSERT_EQUAL(r.events.n, 0);
	CU_ASSERT_EQUAL(ssfx_status_int(ss, "observedGeneration"), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* The status is written only when it changed (patch.Helper issues no patch for no change). */
static void test_no_write_without_change(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = one_stage(&w, "steady");

	ssfx_drive_free(&w, ss);
	w.now += SSFX_MIN;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_SUCCEEDED);
	CU_ASSERT_FALSE(r.write_status);
	CU_ASSERT_EQUAL(r.events.n, 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* ---- §6.3 action scopes and ledgers --------------------------------------- */

#define SCOPES_SPEC                                                                                             \
	"{interval: 1m, version: {value: '%s'}, stages: [{name: stage-a, sourceRef: {name: ea}, actions: {post: [" \
	"{name: rev-notify, http: {url: 'http://hooks/rev'}}, {name: ver-notify, scope: Version, http: {url: "   \
	"'http://hooks/ver'}}]}}]}"

static struct obj *scopes_world(struct ssfx_world *w, const char *version)
{
	char spec[1024];

	ssfx_init(w);
	ssfx_ea(w, NS, "ea", "rev1@sha256:aaa");
	snprintf(spec, sizeof(spec), SCOPES_SPEC, version);
	return ssfx_stageset(w, NS, "scopes", spec);
}

static void set_version(struct obj *ss, const char *version)
{
	char spec[1024];

	snprintf(spec, sizeof(spec), SCOPES_SPEC, version);
	ssfx_respec(ss, spec);
}

/* T-29 TestActionScope_VersionSurvivesRevisionChurn */
static void test_version_survives_revision_churn(void)
{
	struct ssfx_world w;
	struct obj *ss = scopes_world(&w, "1.0.0");

	ssfx_drive_free(&w, ss);
	ssfx_ea(&w, NS, "ea", "rev2@sha256:bbb");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "rev-notify"), 2);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "ver-notify"), 0);
	CU_ASSERT_EQUAL(ssfx_events(&w, "ActionSkipped"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "ActionSkipped"),
			       "stage \"stage-a\" action \"ver-notify\" (scope: Version) held at version \"1.0.0\" despite "
			       "the new revision; it runs when the version changes");
	ssfx_release(&w);
}

/* T-30 TestActionScope_VersionFiresOnVersionChange, T-31 _ResetScopeRerunsAtSameVersion */
static void test_version_fires_on_version_change(void)
{
	struct ssfx_world w;
	struct obj *ss = scopes_world(&w, "1.0.0");

	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "ver-notify"), 0);
	set_version(ss, "2.0.0");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "ver-notify"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "ver-notify"), 1);
	/* reset-scope re-runs Version actions once at the same version */
	ssfx_annotate(ss, SSC_ANN_RESET_SCOPE, "tok-1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "ver-notify"), 2);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastHandledResetScope"), "tok-1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "ver-notify"), 2);
	ssfx_release(&w);
}

/* T-32 TestActionScope_AdoptionBaselinesVersionActions */
static void test_adoption_baselines_version_actions(void)
{
	struct ssfx_world w;
	struct obj *ss = scopes_world(&w, "3.1.4");

	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "ver-notify"), 0);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "rev-notify"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "3.1.4");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.ledgerVersion"), "3.1.4");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.executedVersionActions.0"), "ver-notify");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "stages.0.executedVersionActions.1"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.executedActions.0"), "rev-notify");
	ssfx_release(&w);
}

#define LIFETIME_SPEC                                                                                          \
	"{interval: 1m, version: {value: '%s'}, stages: [{name: app, sourceRef: {name: ea}, actions: {post: [{name: " \
	"%s, scope: Lifetime, http: {url: 'http://db/install'}%s}]}}]}"

static struct obj *lifetime_world(struct ssfx_world *w, const char *action, const char *anchor)
{
	char spec[1024];

	ssfx_init(w);
	ssfx_ea(w, NS, "ea", "rev1@sha256:aaa");
	snprintf(spec, sizeof(spec), LIFETIME_SPEC, "1.0.0", action, anchor ? anchor : "");
	return ssfx_stageset(w, NS, "life", spec);
}

static const char *ledger_str(const struct ssfx_world *w, const char *path)
{
	return w->ledger ? val_str(val_path(w->ledger->status, path), "") : "";
}

/* T-33 TestActionScope_LifetimeRunsOnceEver */
static void test_lifetime_runs_once_ever(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = lifetime_world(&w, "install-database", NULL);
	char spec[1024];

	ssfx_drive(&w, ss, &r);
	CU_ASSERT_PTR_NOT_NULL(r.ledger);
	CU_ASSERT_TRUE(r.ledger_create);
	ssc_result_release(&r);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "install-database"), 1);
	CU_ASSERT_STRING_EQUAL(ledger_str(&w, "completedActions.0.origin"), "Executed");
	CU_ASSERT_STRING_EQUAL(ledger_str(&w, "completedActions.0.action"), "install-database");
	ssfx_ea(&w, NS, "ea", "rev2@sha256:bbb");
	ssfx_drive_free(&w, ss);
	snprintf(spec, sizeof(spec), LIFETIME_SPEC, "2.0.0", "install-database", "");
	ssfx_respec(ss, spec);
	ssfx_drive_free(&w, ss);
	ssfx_annotate(ss, SSC_ANN_RECONCILE_STAGE, "app@force1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "install-database"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	ssfx_release(&w);
}

/* T-34 TestActionScope_LifetimeBaselineSuppresses */
static void test_lifetime_baseline_suppresses(void)
{
	struct ssfx_world w;
	struct obj *ss = lifetime_world(&w, "install-database", NULL);

	ssfx_ledger(&w, NS, "life", "{baseline: [{stage: app, action: install-database}]}", NULL);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "install-database"), 0);
	CU_ASSERT_STRING_EQUAL(ledger_str(&w, "completedActions.0.origin"), "Baselined");
	ssfx_release(&w);
}

/* T-35 TestActionScope_LifetimeSurvivesStageSetRecreate, T-36 _LedgerAdoptedEmitsOnRecreate */
static void test_lifetime_survives_recreate(void)
{
	struct ssfx_world w;
	struct obj *ss = lifetime_world(&w, "install-database", NULL);

	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "LedgerAdopted"), 0);
	/* deleted and created again: a new object without status; the ledger stays */
	obj_remove_finalizer(ss, SSC_FINALIZER);
	val_free(ss->status);
	ss->status = NULL;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "install-database"), 1);
	CU_ASSERT_EQUAL(ssfx_events(&w, "LedgerAdopted"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "LedgerAdopted"),
			       "adopted an existing StageLedger with 1 recorded completion(s); a scope: Lifetime action "
			       "recorded complete will not run again (stagesetctl reset-ledger forgets one)");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, "LedgerAdopted"), 1);
	ssfx_release(&w);
}

#define WITNESS ", completionAnchor: {apiVersion: v1, kind: ConfigMap, name: witness}"

/* T-37 _AnchoredRecordsWitnessUID, T-38 _AnchorInvalidationReRuns */
static void test_anchored_records_witness_uid(void)
{
	struct ssfx_world w;
	struct obj *ss = lifetime_world(&w, "install-database", WITNESS);

	ssfx_anchor(&w, "witness", "uid-1", 0);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ledger_str(&w, "completedActions.0.anchor.uid"), "uid-1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "install-database"), 1);
	/* the witness is gone at the gate and re-created by the stage's apply */
	ssfx_anchor(&w, "witness", "uid-2", 1);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "install-database"), 2);
	CU_ASSERT_EQUAL(ssfx_events(&w, "LedgerInvalidated"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, "LedgerInvalidated"),
			       "stage \"app\" action \"install-database\": completionAnchor witness is gone; the scope: "
			       "Lifetime action will run again");
	CU_ASSERT_STRING_EQUAL(ledger_str(&w, "completedActions.0.anchor.uid"), "uid-2");
	ssfx_release(&w);
}

/* T-39 _AnchorAbsentAtCompletionFails */
static void test_anchor_absent_at_completion_fails(void)
{
	struct ssfx_world w;
	struct obj *ss = lifetime_world(&w, "install-database", WITNESS);

	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_status(ss), "False");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "could not be read at completion"));
	CU_ASSERT_STRING_EQUAL(ledger_str(&w, "completedActions.0.action"), "");
	CU_ASSERT_EQUAL(ssfx_status_int(ss, "actionFailureCount"), 1);
	ssfx_release(&w);
}

/* T-40 _BaselineUnresolvable_HeldAndSurfaced, T-41 _BaselineAutoPromotesWhenResolvable */
static void test_baseline_unresolvable_then_resolvable(void)
{
	struct ssfx_world w;
	struct obj *ss = lifetime_world(&w, "install-database", NULL);
	char spec[1024];

	ssfx_ledger(&w, NS, "life", "{baseline: [{stage: app, action: seed-data}]}", NULL);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(w.ledger->status, "conditions.0.reason"), ""), "Unresolved");
	CU_ASSERT_EQUAL(ssfx_events(&w, "BaselineInvalid"), 1);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "install-database"), 1);
	snprintf(spec, sizeof(spec), LIFETIME_SPEC, "1.0.0", "seed-data", "");
	ssfx_respec(ss, spec);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(w.ledger->status, "conditions.0.status"), ""), "True");
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "seed-data"), 0);
	ssfx_release(&w);
}

/* T-42 TestActionScope_ActionDirtyEscalatesAndClears (spec Q-6) */
static void test_action_dirty_escalates_and_clears(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = lifetime_world(&w, "install-database", NULL);
	int passes = 0;

	ssfx_action(&w, "*/post/install-database", -1, SSC_ERR, "http action: unexpected status 500");
	ssfx_drive_free(&w, ss);
	while (strcmp(ssfx_ready_reason(ss), SSC_REASON_ACTION_DIRTY) != 0 && passes++ < 7) {
		ssfx_pass(&w, ss, &r);
		if (r.requeue == SSC_REQUEUE_NONE)
			CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_ACTION_DIRTY);
		ssc_result_release(&r);
	}
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_ACTION_DIRTY);
	CU_ASSERT_TRUE(ssfx_status_int(ss, "actionFailureCount") >= 5);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "stage \"app\" action halted (dirty): action \"install-database\""));
	ssfx_annotate(ss, SSC_ANN_REQUESTED_AT, "recover-1");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_STRING_NOT_EQUAL(ssfx_ready_reason(ss), SSC_REASON_ACTION_DIRTY);
	CU_ASSERT_EQUAL(ssfx_status_int(ss, "actionFailureCount"), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-43 TestActionScope_RevisionFailureNeverDirty */
static void test_revision_failure_never_dirty(void)
{
	struct ssfx_world w;
	struct obj *ss = scopes_world(&w, "1.0.0");

	ssfx_action(&w, "*/post/rev-notify", -1, SSC_ERR, "http action: unexpected status 500");
	for (int i = 0; i < 6; i++)
		ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	CU_ASSERT_EQUAL(ssfx_status_int(ss, "actionFailureCount"), 0);
	ssfx_release(&w);
}

/* T-44...T-48 pre/post actions of every verb run and the stage ends Ready (the verbs are the world's). */
static void test_actions_of_every_verb(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", "rev1@sha256:aaa");
	ss = ssfx_stageset(&w, NS, "verbs",
			   "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea}, actions: {pre: [{name: p, "
			   "patch: {target: {kind: ConfigMap, name: x}, type: merge, patch: '{}'}}], post: [{name: d, "
			   "delete: {target: {kind: ConfigMap, name: victim}}}, {name: a, apply: {sourceRef: {name: "
			   "manifests}}}, {name: wt, wait: {target: {kind: ConfigMap, name: x}, expr: 'true'}}]}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_EQUAL_FATAL(w.naction_log, 4);
	CU_ASSERT_STRING_EQUAL(w.action_log[0], "0/pre/p");
	CU_ASSERT_STRING_EQUAL(w.action_log[3], "0/post/wt");
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	ssfx_release(&w);
}

/* T-49 TestActions_ActionLedgerIdempotent */
static void test_action_ledger_idempotent(void)
{
	struct ssfx_world w;
	struct obj *ss = scopes_world(&w, "1.0.0");

	ssfx_drive_free(&w, ss);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "rev-notify"), 1);
	ssfx_release(&w);
}

/* T-50 TestActions_OnFailureRuns; Q-15 (onFailure fires once per revision) */
static void test_on_failure_runs(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", "rev1@sha256:aaa");
	ss = ssfx_stageset(&w, NS, "smoke",
			   "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea}, actions: {post: [{name: smoke, "
			   "http: {url: 'http://smoke'}}], onFailure: [{name: page, http: {url: 'http://pager'}}]}}]}");
	ssfx_action(&w, "*/post/smoke", -1, SSC_ERR, "http action: unexpected status 500");
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "page"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_STAGE_FAILED);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.message"),
			       "post-action: action \"smoke\": http action: unexpected status 500");
	ssc_result_release(&r);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "page"), 1);
	/* a pre-action failure runs no onFailure */
	ssfx_ea(&w, NS, "ea", "rev2@sha256:bbb");
	ssfx_respec(ss, "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea}, actions: {pre: [{name: smoke, "
			"http: {url: 'http://smoke'}}], onFailure: [{name: page, http: {url: 'http://pager'}}]}}]}");
	w.actions[0].key[2] = 'x'; /* retire the post script */
	ssfx_action(&w, "*/pre/smoke", -1, SSC_ERR, "http action: unexpected status 500");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "page"), 1);
	CU_ASSERT_EQUAL(w.apply[0].calls, 2);
	ssfx_release(&w);
}

/* T-51 TestReconcile_ForceStageRerunsActions */
static void test_force_stage_reruns_actions(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", "rev1@sha256:aaa");
	ss = ssfx_stageset(&w, NS, "forcer",
			   "{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea}, actions: {post: [{name: "
			   "notify, http: {url: 'http://hooks/x'}}]}}]}");
	ssfx_drive_free(&w, ss);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "notify"), 1);
	ssfx_annotate(ss, SSC_ANN_RECONCILE_STAGE, "stage-a@tok1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "notify"), 2);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.lastHandledReconcileAt"), "tok1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "notify"), 2);
	ssfx_annotate(ss, SSC_ANN_RECONCILE_STAGE, "stage-a@tok2");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "notify"), 3);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.lastHandledReconcileAt"), "tok2");
	/* a token for an unknown stage is ignored */
	ssfx_annotate(ss, SSC_ANN_RECONCILE_STAGE, "nope@tok3");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "notify"), 3);
	ssfx_release(&w);
}

/*
 * A pass with a keep (struct ssc_keep: the working status, the lent result
 * status, the per-stage arrays and records, the Ready snapshot, all reused
 * from the pass before) decides and writes what a pass without one does:
 * two worlds run the same script, one with a keep, and every pass's result
 * and the StageSet's status are compared, through steady passes, a
 * force-reconcile token, more stages (the arrays grow), a new revision,
 * fewer stages, a failing action (the failure path's records) and recovery.
 */
static void test_keep_gives_what_fresh_passes_give(void)
{
	static const char *const specs[] = {
		"{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea}, actions: {post: [{name: n1, http: "
		"{url: 'http://hooks/x'}}]}}, {name: stage-b, sourceRef: {name: ea}}]}",
		"{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea}, actions: {post: [{name: n1, http: "
		"{url: 'http://hooks/x'}}]}}, {name: stage-b, sourceRef: {name: ea}}, {name: stage-c, sourceRef: "
		"{name: ea2}}, {name: stage-d, sourceRef: {name: ea2}, actions: {pre: [{name: p1, http: {url: "
		"'http://hooks/y'}}]}}]}",
		"{interval: 1m, stages: [{name: stage-z, sourceRef: {name: ea2}}]}",
	};
	struct ssfx_world w[2];
	struct ssc_keep keep;
	struct obj *ss[2];
	int bad = 0, passes = 0;

	ssc_keep_init(&keep);
	for (int k = 0; k < 2; k++) {
		ssfx_init(&w[k]);
		ssfx_ea(&w[k], NS, "ea", "rev1@sha256:aaa");
		ssfx_ea(&w[k], NS, "ea2", "rev7@sha256:bbb");
		ss[k] = ssfx_stageset(&w[k], NS, "kept", specs[0]);
		ssfx_action(&w[k], "3/pre/p1", 2, SSC_ERR, "hook down");
	}
	w[1].keep = &keep;
	for (int step = 0; step < 16; step++) {
		for (int k = 0; k < 2; k++) {
			if (step == 3)
				ssfx_annotate(ss[k], SSC_ANN_RECONCILE_STAGE, "stage-a@tok1");
			if (step == 5)
				ssfx_respec(ss[k], specs[1]);
			if (step == 11)
				ssfx_respec(ss[k], specs[2]);
			if (step == 13)
				ssfx_respec(ss[k], specs[0]);
		}
		if (step == 10) { /* a longer revision for ea2 in both worlds */
			for (int k = 0; k < 2; k++) {
				struct obj *e = ssfx_find(&w[k], "ExternalArtifact", NS, "ea2");

				obj_free(e);
				for (size_t i = 0; i < w[k].nobjs; i++)
					if (w[k].objs[i] == e)
						w[k].objs[i] = w[k].objs[--w[k].nobjs];
				ssfx_ea(&w[k], NS, "ea2", "release-2026-12-03-rev8@sha256:cccccccccccccccc");
			}
		}
		{
			struct ssc_result r[2];
			struct val *st[2];

			for (int k = 0; k < 2; k++)
				ssfx_pass(&w[k], ss[k], &r[k]);
			passes++;
			for (int k = 0; k < 2; k++)
				st[k] = sst_status_to_val(&r[k].status);
			if (r[0].exit != r[1].exit || r[0].write_status != r[1].write_status ||
			    r[0].requeue != r[1].requeue || r[0].requeue_after_ms != r[1].requeue_after_ms ||
			    r[0].events.n != r[1].events.n || !val_equal(st[0], st[1]) ||
			    !val_equal(ss[0]->status, ss[1]->status) || (r[0].desired == NULL) != (r[1].desired == NULL)) {
				fprintf(stderr, "keep: pass %d differs (exit %d/%d)\n", step, (int)r[0].exit, (int)r[1].exit);
				bad++;
			}
			for (size_t i = 0; i < r[0].events.n && i < r[1].events.n; i++)
				if (strcmp(r[0].events.items[i].note, r[1].events.items[i].note) != 0)
					bad++;
			val_free(st[0]);
			val_free(st[1]);
			ssc_result_release(&r[0]);
			ssc_result_keep(&r[1], &keep);
		}
	}
	CU_ASSERT_EQUAL(passes, 16);
	CU_ASSERT_EQUAL(bad, 0);
	/*
	 * the script reached what it meant to: the pre action failed twice, ran
	 * once, ran again for the new revision; the last pass succeeded
	 */
	CU_ASSERT_EQUAL(ssfx_action_hits(&w[1], "p1"), 2);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss[1]), SSC_REASON_READY);
	ssc_keep_release(&keep);
	ssc_keep_release(&keep); /* released twice: the second finds it empty */
	ssfx_release(&w[0]);
	ssfx_release(&w[1]);
}

/* ---- §6.4 windows and budgets ---------------------------------------------- */

#define T_2025_06 INT64_C(1748736000000)
#define T_2023_06 INT64_C(1685577600000)
#define DENY_2020_2030 "updateWindows: [{type: Deny, from: '2020-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z'}]"
#define ALLOW_2020_2030 "updateWindows: [{type: Allow, from: '2020-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z'}]"
#define ALLOW_2020_2024 "updateWindows: [{type: Allow, from: '2020-01-01T00:00:00Z', to: '2024-01-01T00:00:00Z'}]"
#define BUDGET(extra) "errorBudget: {source: {prometheus: {address: 'http://prom:9090', query: budget}}" extra "}"

static struct obj *gated(struct ssfx_world *w, const char *name, const char *fields)
{
	char spec[1024];

	ssfx_init(w);
	w->now = T_2025_06;
	ssfx_ea(w, NS, "ea", "rev1@sha256:aaa");
	snprintf(spec, sizeof(spec), "{interval: 1m, %s, stages: [{name: stage-a, sourceRef: {name: ea}}]}", fields);
	return ssfx_stageset(w, NS, name, spec);
}

/* T-52 TestUpdateWindow_DeniesRollout, T-53 _DeferCountedOncePerDeferral */
static void test_update_window_denies_rollout(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = gated(&w, "denied", DENY_2020_2030);

	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_WINDOW);
	CU_ASSERT_EQUAL(w.apply[0].calls, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_UPDATE_DEFERRED);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_message(ss),
			       "delivery held by update window (next window opens 2030-01-01T00:00:00Z) (runbook: "
			       "https://stageset.projects.metio.wtf/runbooks/updatedeferred/)");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "pendingUpdate.revisions.ns/ea"), "rev1@sha256:aaa");
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER);
	CU_ASSERT_EQUAL(r.requeue_after_ms, 60 * SSFX_MIN); /* clamped to 1 h */
	ssc_result_release(&r);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, SSC_REASON_UPDATE_DEFERRED), 1);
	ssfx_release(&w);
}

/* T-54 TestUpdateWindow_AllowsWhenOpen */
static void test_update_window_allows_when_open(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "open", ALLOW_2020_2030);

	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_PTR_NULL(val_path(ss->status, "pendingUpdate"));
	ssfx_release(&w);
}

/* T-55 TestUpdateWindow_OverrideForcesApply */
static void test_update_window_override_forces_apply(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "override", DENY_2020_2030);

	ssfx_annotate(ss, SSC_ANN_UPDATE_NOW, "tok-1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastHandledUpdateOverride"), "tok-1");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	/* one-shot: the next new revision is held again */
	ssfx_ea(&w, NS, "ea", "rev2@sha256:bbb");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	ssfx_release(&w);
}

/* T-56 TestUpdateWindow_DeployedStaysReadyWhenHeld (and Q-20: a past Allow never opens again) */
static void test_update_window_deployed_stays_ready_when_held(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = gated(&w, "held", ALLOW_2020_2024);

	w.now = T_2023_06;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	w.now = T_2025_06;
	ssfx_ea(&w, NS, "ea", "rev2@sha256:bbb");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_status(ss), "True");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_message(ss), "Deployed; delivery held by update window");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "pendingUpdate.revisions.ns/ea"), "rev2@sha256:bbb");
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN); /* no next change: retryInterval */
	CU_ASSERT_EQUAL(ssfx_result_events(&r, SSC_REASON_READY), 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* windowScope: All holds even a same-revision pass; Updates lets it through (Q-8). */
static void test_update_window_scope(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "scope", ALLOW_2020_2024);

	w.now = T_2023_06;
	ssfx_drive_free(&w, ss);
	w.now = T_2025_06;
	ssfx_drive_free(&w, ss); /* same revision, scope Updates: passes */
	CU_ASSERT_EQUAL(w.apply[0].calls, 2);
	ssfx_respec(ss, "{interval: 1m, windowScope: All, " ALLOW_2020_2024 ", stages: [{name: stage-a, sourceRef: {name: ea}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 2);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_message(ss), "Deployed; delivery held by update window");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "pendingUpdate.revisions"));
	ssfx_release(&w);
}

/* T-57 TestErrorBudget_FreezesWhenExhausted */
static void test_error_budget_freezes_when_exhausted(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = gated(&w, "frozen", BUDGET(", freezeThreshold: '0.1'"));

	ssfx_metric(&w, "budget", 0.05);
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_BUDGET);
	CU_ASSERT_EQUAL(w.apply[0].calls, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_BUDGET_EXHAUSTED);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss),
				"error budget exhausted: remaining 0.05 < freezeThreshold 0.1; new-revision rollouts are "
				"frozen until it recovers to 0.1"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "budgetFreeze.remaining"), "0.05");
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	CU_ASSERT_EQUAL(ssfx_result_events(&r, SSC_REASON_BUDGET_EXHAUSTED), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-58 TestErrorBudget_AllowsWhenHealthy */
static void test_error_budget_allows_when_healthy(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "healthy", BUDGET(", freezeThreshold: '0.1'"));

	ssfx_metric(&w, "budget", 0.9);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_PTR_NULL(val_path(ss->status, "budgetFreeze"));
	/* a steady pass (no new revision) does not query */
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.metrics[0].calls, 1);
	ssfx_release(&w);
}

/* T-59 TestErrorBudget_RespectsClosedUpdateWindow, T-60 _FreezesInsideOpenWindow */
static void test_error_budget_and_windows(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "closed", DENY_2020_2030 ", " BUDGET(", freezeThreshold: '0.1'"));

	ssfx_metric(&w, "budget", 0.9);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_UPDATE_DEFERRED);
	CU_ASSERT_EQUAL(w.metrics[0].calls, 0);
	ssfx_release(&w);
	ss = gated(&w, "open", ALLOW_2020_2030 ", " BUDGET(", freezeThreshold: '0.1'"));
	ssfx_metric(&w, "budget", 0.0);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_BUDGET_EXHAUSTED);
	ssfx_release(&w);
}

/* T-61 TestErrorBudget_Hysteresis */
static void test_error_budget_hysteresis(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "hyst", BUDGET(", freezeThreshold: '0', resumeThreshold: '0.05'"));

	ssfx_metric(&w, "budget", -0.01);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_BUDGET_EXHAUSTED);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "budgetFreeze.resumeThreshold"), "0.05");
	w.now += SSFX_MIN;
	ssfx_metric(&w, "budget", 0.02);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_BUDGET_EXHAUSTED);
	CU_ASSERT_EQUAL(w.apply[0].calls, 0);
	w.now += SSFX_MIN;
	ssfx_metric(&w, "budget", 0.06);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	ssfx_release(&w);
}

/* T-62 TestErrorBudget_DryRunRecordsButProceeds */
static void test_error_budget_dry_run(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "dry", BUDGET(", freezeThreshold: '0.1', dryRun: true"));

	ssfx_metric(&w, "budget", 0.01);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_EQUAL(val_bool(val_path(ss->status, "budgetFreeze.dryRun"), false), true);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, SSC_REASON_BUDGET_EXHAUSTED),
			       "error-budget freeze would activate (dryRun): remaining 0.01 < freezeThreshold 0.1");
	ssfx_release(&w);
}

/* T-63 TestErrorBudget_SourceErrorAllowProceeds, T-64 _SourceErrorHoldBlocks */
static void test_error_budget_source_errors(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "allow", BUDGET(", freezeThreshold: '0.1'"));

	ssfx_metric_error(&w, "budget", "query budget: connection refused");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, SSC_REASON_BUDGET_SOURCE_UNAVAILABLE),
			       "error-budget source unavailable; proceeding (onSourceError=Allow): query budget: connection "
			       "refused");
	ssfx_release(&w);
	ss = gated(&w, "hold", BUDGET(", freezeThreshold: '0.1', onSourceError: Hold"));
	ssfx_metric_error(&w, "budget", "query budget: connection refused");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_BUDGET_SOURCE_UNAVAILABLE);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss),
				"error-budget source unavailable and onSourceError=Hold: query budget: connection refused"));
	ssfx_release(&w);
}

/* T-65 TestErrorBudget_OverrideForcesApply (Q-11: consumed even if a later gate holds) */
static void test_error_budget_override_forces_apply(void)
{
	struct ssfx_world w;
	struct obj *ss = gated(&w, "budget-override", BUDGET(", freezeThreshold: '0.1'"));

	ssfx_metric(&w, "budget", 0.0);
	ssfx_annotate(ss, SSC_ANN_BUDGET_OVERRIDE, "tok-1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastHandledBudgetOverride"), "tok-1");
	CU_ASSERT_EQUAL(w.metrics[0].calls, 0);
	ssfx_release(&w);
}

/* T-66 TestErrorBudget_DeployedStaysReadyWhenFrozen (Q-10) */
static void test_error_budget_deployed_stays_ready(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = gated(&w, "deployed", BUDGET(", freezeThreshold: '0.1'"));

	ssfx_metric(&w, "budget", 0.9);
	ssfx_drive_free(&w, ss);
	ssfx_ea(&w, NS, "ea", "rev2@sha256:bbb");
	ssfx_metric(&w, "budget", 0.0);
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_status(ss), "True");
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "Deployed; error budget exhausted: remaining 0 < freezeThreshold 0.1"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "budgetFreeze.remaining"), "0");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "pendingUpdate"));
	CU_ASSERT_EQUAL(ssfx_result_events(&r, SSC_REASON_READY), 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

#define STAGE_BUDGET_SPEC                                                                                      \
	"{interval: 1m, stages: [{name: stage-a, sourceRef: {name: ea-a}}, {name: stage-b, sourceRef: {name: "  \
	"ea-b}, errorBudget: {source: {prometheus: {address: 'http://prom', query: budget-b}}, freezeThreshold: "   \
	"'0.1'}}]}"

static struct obj *stage_budget_world(struct ssfx_world *w)
{
	ssfx_init(w);
	ssfx_ea(w, NS, "ea-a", "rev1@sha256:aaa");
	ssfx_ea(w, NS, "ea-b", "rev1@sha256:bbb");
	return ssfx_stageset(w, NS, "stgb", STAGE_BUDGET_SPEC);
}

/* T-67 TestStageErrorBudget_FreezesEntryThenResumes */
static void test_stage_error_budget_freezes_entry_then_resumes(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = stage_budget_world(&w);

	ssfx_metric(&w, "budget-b", 0.0);
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_STAGE_BUDGET_HOLD);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_EQUAL(w.apply[1].calls, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_BUDGET_EXHAUSTED);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss),
				"stage \"stage-b\" error budget exhausted: remaining 0 < freezeThreshold 0.1; the new "
				"revision is held from entering this stage until it recovers to 0.1"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.name"), "stage-b");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.budgetFreeze.remaining"), "0");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.phase"), "Ready");
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER);
	ssc_result_release(&r);
	w.now += SSFX_MIN;
	ssfx_metric(&w, "budget-b", 0.9);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[1].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_PTR_NULL(val_path(ss->status, "stages.1.budgetFreeze"));
	ssfx_release(&w);
}

/* T-68 _SourceErrorAllowClearsFrozenGauge, T-69 _OverrideShipsOnce */
static void test_stage_error_budget_source_error_and_override(void)
{
	struct ssfx_world w;
	struct obj *ss = stage_budget_world(&w);

	ssfx_metric(&w, "budget-b", 0.0);
	ssfx_drive_free(&w, ss);
	ssfx_metric_error(&w, "budget-b", "no data");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[1].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_event_note(&w, SSC_REASON_BUDGET_SOURCE_UNAVAILABLE),
			       "stage \"stage-b\" error-budget source unavailable; proceeding (onSourceError=Allow): no data");
	ssfx_release(&w);
	ss = stage_budget_world(&w);
	ssfx_metric(&w, "budget-b", 0.0);
	ssfx_annotate(ss, SSC_ANN_BUDGET_OVERRIDE, "ship");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[1].calls, 1);
	CU_ASSERT_EQUAL(w.metrics[0].calls, 0);
	ssfx_release(&w);
}

/* T-71 TestStatusMerge_BudgetHold_PreservesLaterStageStatus */
static void test_budget_hold_preserves_later_stage_status(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea-1", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-2", "rev1@sha256:bbb");
	ss = ssfx_stageset(&w, NS, "merge",
			   "{interval: 1m, stages: [{name: stage-1, sourceRef: {name: ea-1}}, {name: stage-2, sourceRef: "
			   "{name: ea-2}}]}");
	ssfx_drive_free(&w, ss);
	ssfx_respec(ss, "{interval: 1m, stages: [{name: stage-1, sourceRef: {name: ea-1}, errorBudget: {source: "
			"{prometheus: {address: 'http://p', query: b1}}, freezeThreshold: '0.1'}}, {name: stage-2, "
			"sourceRef: {name: ea-2}}]}");
	ssfx_ea(&w, NS, "ea-1", "rev2@sha256:ccc");
	ssfx_metric(&w, "b1", 0.0);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.appliedRevision"), "rev1@sha256:aaa");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.appliedRevision"), "rev1@sha256:bbb");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_message(ss),
			       "Deployed; stage \"stage-1\" error budget exhausted: remaining 0 < freezeThreshold 0.1; the "
			       "new revision is held from entering this stage until it recovers to 0.1");
	ssfx_release(&w);
}

/* T-72 TestStatusMerge_StageFailure_PreservesLaterStageStatus (and Q-14: the Failed entry claims the revision) */
static void test_stage_failure_preserves_later_stage_status(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea-1", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-2", "rev1@sha256:bbb");
	ss = ssfx_stageset(&w, NS, "merge",
			   "{interval: 1m, stages: [{name: stage-1, sourceRef: {name: ea-1}}, {name: stage-2, sourceRef: "
			   "{name: ea-2}}]}");
	ssfx_drive_free(&w, ss);
	ssfx_ea(&w, NS, "ea-1", "rev2@sha256:ccc");
	w.apply[0].failed_op = "build";
	snprintf(w.apply[0].msg, sizeof(w.apply[0].msg), "unparseable artifact");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.phase"), "Failed");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.appliedRevision"), "rev2@sha256:ccc");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.appliedRevision"), "rev1@sha256:bbb");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.phase"), "Ready");
	ssfx_release(&w);
}

/* ---- §6.5 promotion ---------------------------------------------------------- */

static struct obj *promo_world(struct ssfx_world *w, const char *name, const char *promotion, const char *extra)
{
	char spec[2048];

	ssfx_init(w);
	ssfx_ea(w, NS, "ea-a", "v1@sha256:a1");
	ssfx_ea(w, NS, "ea-b", "v1@sha256:b1");
	snprintf(spec, sizeof(spec),
		 "{interval: 1m%s, stages: [{name: stage-a, sourceRef: {name: ea-a}, promotion: %s}, {name: stage-b, "
		 "sourceRef: {name: ea-b}}]}",
		 extra ? extra : "", promotion);
	return ssfx_stageset(w, NS, name, spec);
}

/* T-74 TestPromotion_ManualHoldsThenPromotes */
static void test_promotion_manual_holds_then_promotes(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = promo_world(&w, "manual", "{requireManualPromotion: true}", NULL);

	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_PROMOTION_HOLD);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	CU_ASSERT_EQUAL(w.apply[1].calls, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_AWAITING_PROMOTION);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss),
				"stage \"stage-a\" is healthy and awaiting a manual promotion; run: stagesetctl promote "
				"manual --namespace ns --stage stage-a"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.phase"), "AwaitingManual");
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	ssc_result_release(&r);
	ssfx_annotate(ss, SSC_ANN_PROMOTE, "stage-a@tok1");
	w.now += SSFX_MIN;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.lastHandledPromotion"), "tok1");
	CU_ASSERT_EQUAL(w.apply[1].calls, 1);
	ssfx_release(&w);
}

/* T-75 TestPromotion_SoakHoldsThenElapses */
static void test_promotion_soak_holds_then_elapses(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = promo_world(&w, "soak", "{soak: 10m}", NULL);

	w.keep_clock = true;
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SOAKING);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.soakUntil"), "2026-01-01T00:10:00Z");
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss),
				"stage \"stage-a\" is soaking before promotion; soak window closes at 2026-01-01T00:10:00Z"));
	CU_ASSERT_EQUAL(r.requeue_after_ms, 10 * SSFX_MIN);
	ssc_result_release(&r);
	w.now += 11 * SSFX_MIN;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.phase"), "Promoted");
	ssfx_release(&w);
}

#define ANALYSIS(extra)                                                                                     \
	"{analysis: {checks: [{name: error-rate, source: {prometheus: {address: 'http://prom', query: errors}}, " \
	"threshold: {max: '0.01'}}]" extra "}}"

/* T-76 TestAnalysis_PassesPromotes, T-77 _FailsBlocks */
static void test_analysis_passes_and_fails(void)
{
	struct ssfx_world w;
	struct obj *ss = promo_world(&w, "analysis", ANALYSIS(""), NULL);

	ssfx_metric(&w, "errors", 0.005);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[1].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_EQUAL(val_bool(val_path(ss->status, "stages.0.promotionState.lastAnalysis.passed"), false), true);
	ssfx_release(&w);
	ss = promo_world(&w, "analysis", ANALYSIS(""), NULL);
	ssfx_metric(&w, "errors", 0.5);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[1].calls, 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_PROMOTION_BLOCKED);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.phase"), "Blocked");
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss),
				"stage \"stage-a\" promotion analysis is failing (1 failure(s)); the rollout will not "
				"advance past it"));
	ssfx_release(&w);
}

/* T-78 TestAnalysis_FailureLimit */
static void test_analysis_failure_limit(void)
{
	struct ssfx_world w;
	struct obj *ss = promo_world(&w, "limit", ANALYSIS(", failureLimit: 1"), NULL);

	ssfx_metric(&w, "errors", 0.5);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.phase"), "Analyzing");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SOAKING);
	w.now += SSFX_MIN;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_PROMOTION_BLOCKED);
	ssfx_release(&w);
}

/* T-79 TestAnalysis_RollbackReverts (and the park, S-1) */
static void test_analysis_rollback_reverts(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = promo_world(&w, "revert", ANALYSIS(", onFailure: Rollback"), ", rollbackOnFailure: true");

	ssfx_metric(&w, "errors", 0.001);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	ssfx_ea(&w, NS, "ea-a", "v2@sha256:a2");
	ssfx_metric(&w, "errors", 0.5);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.restore[0].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_PROMOTION_BLOCKED);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.abortedRevision"), "v2@sha256:a2");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.appliedRevision"), "v1@sha256:a1");
	CU_ASSERT_TRUE(ssfx_has_event(&w, SSC_REASON_PROMOTION_BLOCKED,
				      "stage \"stage-a\" promotion analysis failed; rolled back to revision v1@sha256:a1"));
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "rolled back to its last-good revision"));
	/* parked: nothing applied, nothing queried */
	w.metrics[0].calls = 0;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_PARK);
	CU_ASSERT_EQUAL(w.apply[0].calls, 2);
	CU_ASSERT_EQUAL(w.metrics[0].calls, 0);
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-80 TestAnalysis_RollbackWithoutSnapshotHolds, T-81 _DryRunProceeds */
static void test_analysis_rollback_without_snapshot_and_dry_run(void)
{
	struct ssfx_world w;
	struct obj *ss = promo_world(&w, "nosnap", ANALYSIS(", onFailure: Rollback"), NULL);

	ssfx_metric(&w, "errors", 0.5);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_PROMOTION_BLOCKED);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.abortedRevision"), "");
	CU_ASSERT_TRUE(ssfx_has_event(&w, SSC_REASON_PROMOTION_BLOCKED,
				      "stage \"stage-a\" promotion analysis failed and onFailure=Rollback, but the stage could "
				      "not be reverted: no last-good revision is available to roll back to (enable "
				      "spec.rollbackOnFailure); holding"));
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_events(&w, SSC_REASON_PROMOTION_BLOCKED), 3); /* Q-18: one Warning per pass, plus the Ready event */
	ssfx_release(&w);
	ss = promo_world(&w, "dry", ANALYSIS(", dryRun: true"), NULL);
	ssfx_metric(&w, "errors", 0.5);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[1].calls, 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_PTR_NOT_NULL(val_path(ss->status, "stages.0.promotionState.lastAnalysis.checks"));
	CU_ASSERT_PTR_NULL(val_path(ss->status, "stages.0.promotionState.lastAnalysis.passed")); /* false, omitempty */
	ssfx_release(&w);
}

#define RESTART_GATE                                                                                         \
	"{restartGate: {checks: [{name: api, selector: {matchLabels: {app: api}}, maxRestarts: 0, onFailure: "     \
	"Rollback}]}}"
#define EVENT_GATE                                                                                           \
	"{eventGate: {checks: [{name: api, selector: {matchLabels: {app: api}}, reasons: [BackOff], onFailure: "    \
	"Rollback}]}}"

/* T-82 TestPromotion_GateRollback_ParksAbortedRevision, T-83 (event gate), T-100 OnRollback_FiresOnGateRollback */
static void gate_rollback_parks(const char *gate, bool events)
{
	struct ssfx_world w;
	struct obj *ss = promo_world(&w, "park", gate,
				     ", rollbackOnFailure: true, onRollback: [{name: cleanup, delete: {target: {kind: ConfigMap, name: s}}}]");
	struct ssfx_pods *pods = ssfx_pods(&w, "app=api");

	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	ssfx_ea(&w, NS, "ea-a", "v2@sha256:a2");
	if (events)
		pods->events = 3;
	else
		pods->restarts = 3;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.abortedRevision"), "v2@sha256:a2");
	CU_ASSERT_EQUAL(ssfx_events(&w, SSC_REASON_PROMOTION_BLOCKED), 2); /* the revert's Warning and the Ready change */
	CU_ASSERT_TRUE(ssfx_has_event(&w, SSC_REASON_PROMOTION_BLOCKED,
				      events ? "stage \"stage-a\" event check \"api\" failed; rolled back to revision v1@sha256:a1"
					     : "stage \"stage-a\" restart check \"api\" failed; rolled back to revision v1@sha256:a1"));
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "cleanup"), 1);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), events ? "event check \"api\" observed 3 warning event(s)"
							    : "restart check \"api\" observed 3 pod restart(s)"));
	/* parked: no re-apply, no new revert */
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(w.apply[0].calls, 2);
	CU_ASSERT_EQUAL(w.restore[0].calls, 1);
	/* a new revision un-parks */
	ssfx_ea(&w, NS, "ea-a", "v3@sha256:a3");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.promotionState.abortedRevision"), "v3@sha256:a3");
	/* a promote token breaks the park */
	ssfx_annotate(ss, SSC_ANN_PROMOTE, "stage-a@ship-it");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.appliedRevision"), "v3@sha256:a3");
	ssfx_release(&w);
}

static void test_gate_rollback_parks_aborted_revision(void)
{
	gate_rollback_parks(RESTART_GATE, false);
}

static void test_event_gate_rollback_parks_aborted_revision(void)
{
	gate_rollback_parks(EVENT_GATE, true);
}

/* T-84 TestPromotion_TransientGateErrorDoesNotRollBack */
static void test_transient_gate_error_does_not_roll_back(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = promo_world(&w, "transient", RESTART_GATE, ", rollbackOnFailure: true");

	ssfx_drive_free(&w, ss);
	ssfx_pods(&w, "app=api")->restarts_err = SSC_ERR;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
	CU_ASSERT_TRUE(contains(r.error, "promotion gate unevaluable: "));
	CU_ASSERT_EQUAL(ssfx_events(&w, "RolledBack"), 0);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_EQUAL(w.restore[0].calls, 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-85 TestPromotion_PermanentGateDenial_SetsRBACDenied */
static void test_permanent_gate_denial_sets_rbac_denied(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = promo_world(&w, "denied", RESTART_GATE, NULL);

	ssfx_pods(&w, "app=api")->restarts_err = SSC_ERR_FORBIDDEN;
	ssfx_drive(&w, ss, &r);
	CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_AFTER);
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_RBAC_DENIED);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "RBAC denied reading pods for stage \"stage-a\" restart gate \xe2\x80\x94"));
	CU_ASSERT_EQUAL(ssfx_events(&w, "RolledBack"), 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

#define LEDGERS_SPEC \
	"{interval: 1m, version: {value: '%s'}, migrations: [{name: drop-victim, to: '2.0.0', stage: stage-a, " \
	"actions: [{name: delete-victim, delete: {target: {kind: ConfigMap, name: migration-victim}}}]}], " \
	"stages: [{name: stage-a, sourceRef: {name: ea-a}, actions: {pre: [{name: pre-delete, delete: {target: " \
	"{kind: ConfigMap, name: action-victim}}}]}, promotion: " RESTART_GATE "}]}"

/* T-86 TestGateUnevaluable_PersistsLedgers */
static void test_gate_unevaluable_persists_ledgers(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss;
	char y[2048];

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea-a", "v1@sha256:a1");
	snprintf(y, sizeof(y), LEDGERS_SPEC, "1.0.0");
	ss = ssfx_stageset(&w, NS, "ledgers", y);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "pre-delete"), 1);
	snprintf(y, sizeof(y), LEDGERS_SPEC, "2.0.0");
	ssfx_respec(ss, y);
	ssfx_annotate(ss, SSC_ANN_RECONCILE_STAGE, "stage-a@force1");
	ssfx_pods(&w, "app=api")->restarts_err = SSC_ERR;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_GATE_UNEVALUABLE);
	CU_ASSERT_TRUE(r.write_status);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "delete-victim"), 1);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "pre-delete"), 2);
	CU_ASSERT_PTR_NOT_NULL(val_path(ss->status, "executedMigrations.0"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.lastHandledReconcileAt"), "force1");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.executedActions.0"), "pre-delete");
	CU_ASSERT_EQUAL(ssfx_status_int(ss, "observedGeneration"), 1); /* not touched */
	ssc_result_release(&r);
	/* still failing: nothing re-runs */
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "delete-victim"), 1);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "pre-delete"), 2);
	ssc_result_release(&r);
	/* the gate recovers */
	ssfx_pods(&w, "app=api")->restarts_err = SSC_OK;
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "executedMigrations"));
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-70 TestStatusMerge_PromotionHold_PreservesLaterStageStatus */
static void test_promotion_hold_preserves_later_stage_status(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea-1", "rev1@sha256:aaa");
	ssfx_ea(&w, NS, "ea-2", "rev1@sha256:bbb");
	ss = ssfx_stageset(&w, NS, "merge",
			   "{interval: 1m, stages: [{name: stage-1, sourceRef: {name: ea-1}}, {name: stage-2, sourceRef: "
			   "{name: ea-2}}]}");
	ssfx_drive_free(&w, ss);
	ssfx_respec(ss, "{interval: 1m, stages: [{name: stage-1, sourceRef: {name: ea-1}, promotion: {soak: 10m}}, "
			"{name: stage-2, sourceRef: {name: ea-2}}]}");
	ssfx_ea(&w, NS, "ea-1", "rev2@sha256:ccc");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SOAKING);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.appliedRevision"), "rev2@sha256:ccc");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.appliedRevision"), "rev1@sha256:bbb");
	/* Q-28: nothing is pruned while a gate holds; Q-21: lastAppliedRevisions stays old */
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "lastAppliedRevisions.ns/ea-1"), "rev1@sha256:aaa");
	ssfx_release(&w);
}

/* T-73 TestStatusMerge_PromotionHold_StalePromoteTokenDoesNotReplay */
static void test_stale_promote_token_does_not_replay(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	w.keep_clock = true;
	ssfx_ea(&w, NS, "ea-1", "v1@sha256:1");
	ssfx_ea(&w, NS, "ea-2", "v1@sha256:2");
	ssfx_ea(&w, NS, "ea-3", "v1@sha256:3");
	ss = ssfx_stageset(&w, NS, "stale",
			   "{interval: 1m, stages: [{name: stage-1, sourceRef: {name: ea-1}, promotion: {soak: 1m}}, "
			   "{name: stage-2, sourceRef: {name: ea-2}, promotion: {requireManualPromotion: true}}, {name: "
			   "stage-3, sourceRef: {name: ea-3}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SOAKING);
	w.now += 2 * SSFX_MIN;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_AWAITING_PROMOTION);
	ssfx_annotate(ss, SSC_ANN_PROMOTE, "stage-2@go1");
	w.now += 2 * SSFX_MIN;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.lastHandledPromotion"), "go1");
	ssfx_ea(&w, NS, "ea-1", "v2@sha256:1");
	ssfx_ea(&w, NS, "ea-2", "v2@sha256:2");
	ssfx_ea(&w, NS, "ea-3", "v2@sha256:3");
	w.now += 2 * SSFX_MIN;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_SOAKING);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.1.lastHandledPromotion"), "go1");
	w.now += 2 * SSFX_MIN;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_AWAITING_PROMOTION);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.2.appliedRevision"), "v1@sha256:3");
	ssfx_annotate(ss, SSC_ANN_PROMOTE, "stage-2@go2");
	w.now += 2 * SSFX_MIN;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.2.appliedRevision"), "v2@sha256:3");
	ssfx_release(&w);
}

/* Q-12: a stage failure drops lastHandledPromotion, so the old promote token looks fresh again. */
static void test_failure_replays_stale_promote_token(void)
{
	struct ssfx_world w;
	struct obj *ss = promo_world(&w, "replay", "{requireManualPromotion: true}", NULL);

	ssfx_annotate(ss, SSC_ANN_PROMOTE, "stage-a@tok1");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.lastHandledPromotion"), "tok1");
	ssfx_ea(&w, NS, "ea-a", "v2@sha256:a2");
	w.apply[0].failed_op = "apply";
	snprintf(w.apply[0].msg, sizeof(w.apply[0].msg), "conflict");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "stages.0.lastHandledPromotion"), "");
	w.apply[0].failed_op = NULL;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY); /* promoted past the manual gate by tok1 */
	ssfx_release(&w);
}

/* ---- §6.2 versions, approval, migrations (through the plan) ------------------- */

#define APPROVAL_SPEC                                                                                        \
	"{interval: 1m, version: {value: '%s', approvalMode: %s}, migrations: [{name: drop-legacy, to: '2.0.0', "   \
	"stage: stage-a, actions: [{name: delete-legacy, delete: {target: {kind: ConfigMap, name: legacy}}}]}], stages: "     \
	"[{name: stage-a, sourceRef: {name: ea}}]}"

static struct obj *approval_world(struct ssfx_world *w, const char *mode)
{
	char spec[1024];

	ssfx_init(w);
	ssfx_ea(w, NS, "ea", "rev1@sha256:aaa");
	snprintf(spec, sizeof(spec), APPROVAL_SPEC, "1.0.0", mode);
	return ssfx_stageset(w, NS, "approve", spec);
}

static void bump(struct obj *ss, const char *mode, const char *version)
{
	char spec[1024];

	snprintf(spec, sizeof(spec), APPROVAL_SPEC, version, mode);
	ssfx_respec(ss, spec);
}

/* T-13 TestMigrations_RequireApprovalHoldsThenProceeds, T-15 _BaselinesWithoutRunning, T-16 _RunsOnUpgrade */
static void test_require_approval_holds_then_proceeds(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = approval_world(&w, "OnMigrations");

	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "delete-legacy"), 0);
	bump(ss, "OnMigrations", "2.0.0");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_APPROVAL);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_AWAITING_APPROVAL);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss),
				"version transition to 2.0.0 is awaiting approval (1 pending migration(s)); set annotation "
				"stages.metio.wtf/approved-version=\"2.0.0\" to proceed"));
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "delete-legacy"), 0);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "pendingVersion"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "pendingMigrations.0.name"), "drop-legacy");
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	CU_ASSERT_EQUAL(ssfx_result_events(&r, SSC_REASON_AWAITING_APPROVAL), 1);
	CU_ASSERT_EQUAL(w.apply[0].calls, 1);
	ssc_result_release(&r);
	ssfx_annotate(ss, SSC_ANN_APPROVED_VERSION, "2.0.0");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "delete-legacy"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "pendingVersion"), "");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "pendingMigrations"));
	CU_ASSERT_PTR_NULL(val_path(ss->status, "executedMigrations"));
	CU_ASSERT_EQUAL(ssfx_result_events(&r, "MigrationStarted"), 1);
	CU_ASSERT_EQUAL(ssfx_result_events(&r, "MigrationCompleted"), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* T-14 TestMigrations_ApprovalAlwaysHoldsMigrationFreeAdvance */
static void test_approval_always_holds_migration_free_advance(void)
{
	struct ssfx_world w;
	struct obj *ss;

	ssfx_init(&w);
	ssfx_ea(&w, NS, "ea", "rev1@sha256:aaa");
	ss = ssfx_stageset(&w, NS, "always",
			   "{interval: 1m, version: {value: '1.0.0', approvalMode: Always}, stages: [{name: stage-a, "
			   "sourceRef: {name: ea}}]}");
	ssfx_drive_free(&w, ss);
	ssfx_respec(ss, "{interval: 1m, version: {value: '2.0.0', approvalMode: Always}, stages: [{name: stage-a, "
			"sourceRef: {name: ea}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_AWAITING_APPROVAL);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "version transition to 2.0.0 is awaiting approval; set"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "pendingVersion"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	ssfx_annotate(ss, SSC_ANN_APPROVED_VERSION, "2.0.0");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "pendingVersion"), "");
	ssfx_release(&w);
}

/* T-17 TestMigrations_DowngradeRefused: a terminal plan reason, 1 m, no event */
static void test_downgrade_refused(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = approval_world(&w, "Never");

	bump(ss, "Never", "2.0.0");
	ssfx_drive_free(&w, ss);
	bump(ss, "Never", "1.0.0");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(r.exit, SSC_EXIT_PLAN);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_DOWNGRADE_NOT_ALLOWED);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	CU_ASSERT_EQUAL(r.requeue_after_ms, SSFX_MIN);
	CU_ASSERT_EQUAL(r.events.n, 0);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* S-8: a failing migration is MigrationFailed with back-off; the 5th consecutive is MigrationDirty, terminal (Q-6). */
static void test_migration_failure_escalates_to_dirty(void)
{
	struct ssfx_world w;
	struct ssc_result r;
	struct obj *ss = approval_world(&w, "Never");

	ssfx_drive_free(&w, ss);
	bump(ss, "Never", "2.0.0");
	ssfx_action(&w, "*/migration/delete-legacy", -1, SSC_ERR, "configmaps \"legacy\" is locked");
	for (int i = 1; i <= 5; i++) {
		ssfx_pass(&w, ss, &r);
		CU_ASSERT_EQUAL(ssfx_status_int(ss, "migrationFailureCount"), i);
		if (i < 5) {
			CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_MIGRATION_FAILED);
			CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_ERROR);
		} else {
			CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_MIGRATION_DIRTY);
			CU_ASSERT_EQUAL(r.requeue, SSC_REQUEUE_NONE);
			CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "stage \"stage-a\" migration halted (dirty): "));
		}
		ssc_result_release(&r);
	}
	CU_ASSERT_EQUAL(w.apply[0].calls, 1); /* the stage never applied after the failing migration */
	ssfx_annotate(ss, SSC_ANN_REQUESTED_AT, "retry");
	ssfx_pass(&w, ss, &r);
	CU_ASSERT_EQUAL(ssfx_status_int(ss, "migrationFailureCount"), 1);
	ssc_result_release(&r);
	ssfx_release(&w);
}

/* ---- §6.2 through the plan: version sources, sourced ladders, downgrades ------ */

static struct obj *versioned(struct ssfx_world *w, const char *name, const char *version_fields)
{
	char spec[1024];

	ssfx_init(w);
	ssfx_ea(w, NS, "ea", "rev1@sha256:aaa");
	snprintf(spec, sizeof(spec), "{interval: 1m, version: {%s}, stages: [{name: stage-a, sourceRef: {name: ea}}]}",
		 version_fields);
	return ssfx_stageset(w, NS, name, spec);
}

/* T-12 TestMigrations_RequireCoverageBlocksMajor */
static void test_require_coverage_blocks_major(void)
{
	struct ssfx_world w;
	struct obj *ss = versioned(&w, "coverage", "value: '1.0.0', requireMigrationCoverage: true");

	ssfx_drive_free(&w, ss);
	ssfx_respec(ss, "{interval: 1m, version: {value: '2.0.0', requireMigrationCoverage: true}, stages: [{name: "
			"stage-a, sourceRef: {name: ea}}]}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_MIGRATION_COVERAGE_MISSING);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	ssfx_release(&w);
}

/* T-18 TestMigrations_VersionFromArtifact, T-20 _MissingVersionFileIsInvalid */
static void test_version_from_artifact(void)
{
	struct ssfx_world w;
	struct obj *ss = versioned(&w, "fromfile", "fromArtifact: {stage: stage-a, path: VERSION}");

	ssfx_file(&w, "ns/ea", "VERSION", "1.5.0\n");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.5.0");
	ssfx_release(&w);
	ss = versioned(&w, "nofile", "fromArtifact: {stage: stage-a, path: VERSION}");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_INVALID_VERSION);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "invalid version: version file \"VERSION\" not found in stage"));
	ssfx_release(&w);
	/* a fetch error is transient: back-off, nothing written beyond what was patched before */
	ss = versioned(&w, "fetcherr", "fromArtifact: {stage: stage-a, path: VERSION}");
	w.fetch_err = SSC_ERR;
	ssfx_drive_free(&w, ss);
	CU_ASSERT_PTR_NULL(ss->status);
	ssfx_release(&w);
}

/* T-19 TestMigrations_VersionFromObject */
static void test_version_from_object(void)
{
	struct ssfx_world w;
	struct obj *ss = versioned(&w, "fromobj", "fromObject: {kind: ConfigMap, name: app-config}");

	snprintf(w.object_version[0], sizeof(w.object_version[0]), "1.5.0");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.5.0");
	ssfx_release(&w);
}

#define SOURCED_SPEC                                                                                         \
	"{interval: 1m, version: {value: '%s', allowDowngrade: %s}, migrationsSourceRef: {sourceRef: {name: "       \
	"ladder}, path: ./migrations}, stages: [{name: stage-a, sourceRef: {name: ea}}]}"

static struct obj *sourced(struct ssfx_world *w, const char *version, const char *ladder)
{
	char spec[1024];

	ssfx_init(w);
	ssfx_ea(w, NS, "ea", "rev1@sha256:aaa");
	ssfx_ea(w, NS, "ladder", "l1@sha256:lll");
	ssfx_file(w, "ns/ladder", "migrations/0001.yaml", ladder);
	snprintf(spec, sizeof(spec), SOURCED_SPEC, version, "false");
	return ssfx_stageset(w, NS, "sourced", spec);
}

static void sourced_version(struct obj *ss, const char *version, bool allow_downgrade)
{
	char spec[1024];

	snprintf(spec, sizeof(spec), SOURCED_SPEC, version, allow_downgrade ? "true" : "false");
	ssfx_respec(ss, spec);
}

#define SCHEMA_2                                                                                             \
	"- name: schema-2\n  to: 2.0.0\n  actions:\n  - name: up\n    delete: {target: {kind: ConfigMap, name: up-victim}}\n"  \
	"  down:\n  - name: down\n    delete: {target: {kind: ConfigMap, name: down-victim}}\n"
#define SCHEMA_3                                                                                             \
	"- name: schema-3\n  to: 3.0.0\n  actions:\n  - name: up3\n    delete: {target: {kind: ConfigMap, name: m3}}\n"     \
	"  down:\n  - name: down3\n    delete: {target: {kind: ConfigMap, name: marker-3}}\n"

/* T-21 TestSourcedMigration_RunsAndAdvancesVersion */
static void test_sourced_migration_runs_and_advances_version(void)
{
	struct ssfx_world w;
	struct obj *ss = sourced(&w, "1.0.0", SCHEMA_2);

	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "up"), 0);
	sourced_version(ss, "2.0.0", false);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "up"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	CU_ASSERT_PTR_NULL(val_path(ss->status, "executedMigrations"));
	CU_ASSERT_TRUE(contains(ssfx_event_note(&w, "MigrationCompleted"),
				"migration \"schema-2\" (to 2.0.0) completed from source revision l1@sha256:lll"));
	ssfx_release(&w);
}

/* T-22 TestSourcedMigration_LedgerPersistsAndSkipsDestructiveRetry */
static void test_sourced_migration_ledger_skips_destructive_retry(void)
{
	struct ssfx_world w;
	struct obj *ss = sourced(&w, "1.0.0",
				 "- name: drop-then-patch\n  to: 2.0.0\n  actions:\n  - name: delete-legacy\n    delete: "
				 "{target: {kind: ConfigMap, name: legacy}}\n  - name: patch-ghost\n    patch: {target: {kind: "
				 "ConfigMap, name: ghost}, type: merge, patch: '{}'}\n");
	const char *entry;

	ssfx_drive_free(&w, ss);
	sourced_version(ss, "2.0.0", false);
	ssfx_action(&w, "*/migration/patch-ghost", -1, SSC_ERR_NOT_FOUND, "configmaps \"ghost\" not found");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_NOT_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_MIGRATION_FAILED);
	entry = xstrdup(ssfx_status_str(ss, "executedMigrationActions.0"));
	CU_ASSERT_TRUE(strlen(entry) > 14 && !strcmp(entry + strlen(entry) - 14, "/delete-legacy"));
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "delete-legacy"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "executedMigrationActions.0"), entry);
	free((char *)entry);
	ssfx_release(&w);
}

/* T-23 TestSourcedMigration_InvalidArtifactFailsClosed */
static void test_sourced_migration_invalid_artifact_fails_closed(void)
{
	struct ssfx_world w;
	struct obj *ss = sourced(&w, "1.0.0", "- name: bad\n  to: 2.0.0\n  bogusField: x\n");

	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY); /* baselining does not load the ladder */
	sourced_version(ss, "2.0.0", false);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_MIGRATION_ARTIFACT_INVALID);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	ssfx_release(&w);
}

/* T-24 TestDowngrade_RunsDownActionsAndLowersVersion, T-27 _RefusedWithoutAllowDowngrade */
static void test_downgrade_runs_down_actions(void)
{
	struct ssfx_world w;
	struct obj *ss = sourced(&w, "1.0.0", SCHEMA_2);

	ssfx_drive_free(&w, ss);
	sourced_version(ss, "2.0.0", false);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "up"), 1);
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "down"), 0);
	sourced_version(ss, "1.0.0", false);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_DOWNGRADE_NOT_ALLOWED);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	sourced_version(ss, "1.0.0", true);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "down"), 1);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_READY);
	CU_ASSERT_PTR_NULL(val_path(ss->status, "executedMigrations"));
	ssfx_release(&w);
}

/* T-25 TestDowngrade_UnwindsEveryCrossedBoundary, T-26 TestRollbackToAnnotation_TriggersDowngrade */
static void test_downgrade_unwinds_every_crossed_boundary(void)
{
	struct ssfx_world w;
	struct obj *ss = sourced(&w, "3.0.0", SCHEMA_2 SCHEMA_3);
	size_t d2 = SIZE_MAX, d3 = SIZE_MAX;

	ssfx_drive_free(&w, ss);
	sourced_version(ss, "1.0.0", true);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	for (size_t i = 0; i < w.naction_log; i++) {
		if (contains(w.action_log[i], "/down3"))
			d3 = i;
		else if (contains(w.action_log[i], "/down"))
			d2 = i;
	}
	CU_ASSERT_TRUE(d3 != SIZE_MAX && d2 != SIZE_MAX && d3 < d2); /* the newest boundary first */
	ssfx_release(&w);
	/* rollback-to: value stays 2.0.0, the annotation directs the downgrade */
	ss = sourced(&w, "1.0.0", SCHEMA_2);
	ssfx_drive_free(&w, ss);
	sourced_version(ss, "2.0.0", true);
	ssfx_drive_free(&w, ss);
	ssfx_annotate(ss, SSC_ANN_ROLLBACK_TO, "1.0.0");
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "1.0.0");
	CU_ASSERT_EQUAL(ssfx_action_hits(&w, "down"), 1);
	ssfx_release(&w);
}

/* T-28 TestDowngrade_IrreversibleBoundaryRefused */
static void test_downgrade_irreversible_boundary_refused(void)
{
	struct ssfx_world w;
	struct obj *ss = sourced(&w, "1.0.0",
				 "- name: schema-2\n  to: 2.0.0\n  actions:\n  - name: up\n    delete: {target: {kind: "
				 "ConfigMap, name: v}}\n");

	ssfx_drive_free(&w, ss);
	sourced_version(ss, "2.0.0", true);
	ssfx_drive_free(&w, ss);
	sourced_version(ss, "1.0.0", true);
	ssfx_drive_free(&w, ss);
	CU_ASSERT_STRING_EQUAL(ssfx_ready_reason(ss), SSC_REASON_DOWNGRADE_REQUIRES_MIGRATION);
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "schema-2"));
	CU_ASSERT_TRUE(contains(ssfx_ready_message(ss), "irreversible"));
	CU_ASSERT_STRING_EQUAL(ssfx_status_str(ss, "version"), "2.0.0");
	ssfx_release(&w);
}

/* ---- registration ------------------------------------------------------- */

static CU_TestInfo core_tests[] = {
	{ "T-1 Reconcile: finalizer add requeues", test_finalizer_add_requeues },
	{ "T-2 Reconcile: migration baseline emits event", test_migration_baseline_emits_event },
	{ "T-3 Reconcile: applies producer artifact", test_applies_producer_artifact },
	{ "T-4 Reconcile: direct ExternalArtifact", test_direct_external_artifact },
	{ "T-5 Reconcile: prunes removed objects", test_prunes_removed_objects },
	{ "T-6 Reconcile: finalizer teardown", test_finalizer_teardown },
	{ "T-7 Reconcile: orphan stage teardown", test_orphan_stage_teardown },
	{ "T-8 Reconcile: cross-stage ownership transfer", test_cross_stage_ownership_transfer },
	{ "T-9 Reconcile: source not ready", test_source_not_ready },
	{ "T-10 Reconcile: artifact not found", test_artifact_not_found },
	{ "T-11 Reconcile: suspended", test_suspended },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo helper_tests[] = {
	{ "decorateMessage", test_decorate_message },
	{ "a pass with a keep gives what a fresh pass gives", test_keep_gives_what_fresh_passes_give },
	{ "setReady: a long message, and the condition's own message", test_set_ready_long_and_own_message },
	{ "AllReasons: every constant, in order", test_all_reasons },
	{ "isPermanentAPIError", test_is_permanent_api_error },
	{ "rbacDenialMessage", test_rbac_denial_message },
	{ "terminalFetchError", test_terminal_fetch_error },
	{ "isCrossNamespaceRef, scrubbedCrossNamespaceMessage", test_cross_namespace_ref },
	{ "stageTimeout", test_stage_timeout },
	{ "stageOnTimeout", test_stage_on_timeout },
	{ "effectiveInterval, retryInterval, steadyInterval", test_intervals },
	{ "parseReconcileStage", test_parse_reconcile_stage },
	{ "watch predicate: wakes on expected changes", test_watch_predicate },
	{ "T-122 watch predicate: wakes on deletion", test_watch_predicate_wakes_on_deletion },
	{ "mapStageSetDependents", test_map_stageset_dependents },
	{ "mergeStageStatuses", test_merge_stage_statuses },
	{ "emitReadyEvent: dedups repeated same reason", test_emit_ready_event_dedups },
	{ "setReady: lastTransitionTime moves on a message change (Q-29)", test_set_ready_transition_time },
	{ "failReason", test_fail_reason },
	{ "versionAtLeast", test_version_at_least },
	{ "teardownTimedOut, teardownDropDecision", test_teardown_drop_decision },
	{ "teardownFailure: within wait, past wait, unclearable cause", test_teardown_failure },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo failure_tests[] = {
	{ "T-87 VerifyTimeout: holds as progressing", test_verify_timeout_holds_as_progressing },
	{ "T-88 VerifyTimeout: rollback opt-in", test_verify_timeout_rollback_opt_in },
	{ "H-3 deleted mid-verify: no write, requeue", test_deleted_mid_verify },
	{ "T-89 failResolution: permanent API error", test_fail_resolution_permanent_api_error },
	{ "T-90 failResolution: transient requeues", test_fail_resolution_transient_requeues },
	{ "T-91 failResolution: cross-namespace scrubbed", test_fail_resolution_cross_namespace_scrubbed },
	{ "T-92 failStage: terminal fetch, no requeue", test_fail_stage_terminal_fetch_no_requeue },
	{ "T-93 failStage: transient fetch backs off", test_fail_stage_transient_fetch_backs_off },
	{ "T-94 failStage: permanent API error", test_fail_stage_permanent_api_error },
	{ "T-95 RollbackOnFailure: restores previous revision", test_rollback_on_failure_restores_previous_revision },
	{ "T-96 OnRollback: runs after restore", test_on_rollback_runs_after_restore },
	{ "T-97/T-98 Rollback: first run has nothing to restore", test_rollback_first_run_has_nothing_to_restore },
	{ "T-99 OnRollback: not fired on success", test_on_rollback_not_fired_on_success },
	{ "T-101 OnRollback: ungated by ledger, fires every rollback", test_on_rollback_fires_every_rollback },
	{ "T-102 OnRollback: best-effort failure emits warning", test_on_rollback_best_effort_failure_emits_warning },
	{ "T-103 OnRollback: actions run in list order", test_on_rollback_actions_run_in_list_order },
	{ "rollback: terminal and transient outcomes", test_rollback_terminal_previous_revision_unavailable },
	{ "T-124/T-130 ImageVerification: holds unverified, gates rollback", test_image_verification_holds_unverified },
	{ "T-127 ImageVerification: break-glass", test_image_verification_break_glass },
	{ "R-12/R-15 failures before the loop (Q-13)", test_preloop_failures },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo misc_tests[] = {
	{ "T-109 Reconcile: dependency not ready", test_dependency_not_ready },
	{ "T-110 Reconcile: dependency ready", test_dependency_ready },
	{ "T-111 Reconcile: dependency version gate", test_dependency_version_gate },
	{ "T-112/T-113 Reconcile: dependency cycle, terminal reason requeues", test_dependency_cycle },
	{ "dependenciesReady: held new revision gates dependents", test_dependencies_ready_held_new_revision },
	{ "T-114 StageInventoryLoss: self-heals via reconstruction", test_stage_inventory_loss_self_heals },
	{ "T-115 RestoredBackup: prunes immediately", test_restored_backup_prunes_immediately },
	{ "R-20 duplicate claims", test_duplicate_claims },
	{ "T-116/T-117 Drift: corrected, new revision is not drift", test_drift_corrected },
	{ "T-120 Reconcile: records handled reconcile request", test_records_handled_reconcile_request },
	{ "T-121 Reconcile: suspended does not record", test_suspended_does_not_record_reconcile_request },
	{ "R-6 spec fallback validation", test_invalid_spec_fallback },
	{ "patchStatus: no write without a change", test_no_write_without_change },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo action_tests[] = {
	{ "T-29 ActionScope: Version survives revision churn", test_version_survives_revision_churn },
	{ "T-30/T-31 ActionScope: Version fires on version change, reset-scope", test_version_fires_on_version_change },
	{ "T-32 ActionScope: adoption baselines Version actions", test_adoption_baselines_version_actions },
	{ "T-33 ActionScope: Lifetime runs once ever", test_lifetime_runs_once_ever },
	{ "T-34 ActionScope: Lifetime baseline suppresses", test_lifetime_baseline_suppresses },
	{ "T-35/T-36 ActionScope: Lifetime survives recreate, LedgerAdopted", test_lifetime_survives_recreate },
	{ "T-37/T-38 ActionScope: anchored witness uid, invalidation re-runs", test_anchored_records_witness_uid },
	{ "T-39 ActionScope: anchor absent at completion fails", test_anchor_absent_at_completion_fails },
	{ "T-40/T-41 ActionScope: baseline unresolvable, then promoted", test_baseline_unresolvable_then_resolvable },
	{ "T-42 ActionScope: ActionDirty escalates and clears", test_action_dirty_escalates_and_clears },
	{ "T-43 ActionScope: Revision failure never dirty", test_revision_failure_never_dirty },
	{ "T-44..T-48 Actions: every verb runs", test_actions_of_every_verb },
	{ "T-49 Actions: ledger idempotent", test_action_ledger_idempotent },
	{ "T-50 Actions: onFailure runs (once per revision)", test_on_failure_runs },
	{ "T-51 Reconcile: force stage re-runs actions", test_force_stage_reruns_actions },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo gate_tests[] = {
	{ "T-52/T-53 UpdateWindow: denies rollout, deferral counted once", test_update_window_denies_rollout },
	{ "T-54 UpdateWindow: allows when open", test_update_window_allows_when_open },
	{ "T-55 UpdateWindow: override forces apply", test_update_window_override_forces_apply },
	{ "T-56 UpdateWindow: deployed stays ready when held", test_update_window_deployed_stays_ready_when_held },
	{ "UpdateWindow: windowScope All and Updates", test_update_window_scope },
	{ "T-57 ErrorBudget: freezes when exhausted", test_error_budget_freezes_when_exhausted },
	{ "T-58 ErrorBudget: allows when healthy", test_error_budget_allows_when_healthy },
	{ "T-59/T-60 ErrorBudget: closed window first, freezes inside an open one", test_error_budget_and_windows },
	{ "T-61 ErrorBudget: hysteresis", test_error_budget_hysteresis },
	{ "T-62 ErrorBudget: dryRun records but proceeds", test_error_budget_dry_run },
	{ "T-63/T-64 ErrorBudget: source error Allow / Hold", test_error_budget_source_errors },
	{ "T-65 ErrorBudget: override forces apply", test_error_budget_override_forces_apply },
	{ "T-66 ErrorBudget: deployed stays ready when frozen", test_error_budget_deployed_stays_ready },
	{ "T-67 StageErrorBudget: freezes entry, then resumes", test_stage_error_budget_freezes_entry_then_resumes },
	{ "T-68/T-69 StageErrorBudget: source error Allow, override ships once", test_stage_error_budget_source_error_and_override },
	{ "T-71 BudgetHold: preserves later stage status", test_budget_hold_preserves_later_stage_status },
	{ "T-72 StageFailure: preserves later stage status", test_stage_failure_preserves_later_stage_status },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo promotion_tests[] = {
	{ "T-74 Promotion: manual holds then promotes", test_promotion_manual_holds_then_promotes },
	{ "T-75 Promotion: soak holds then elapses", test_promotion_soak_holds_then_elapses },
	{ "T-76/T-77 Analysis: passes promotes, fails blocks", test_analysis_passes_and_fails },
	{ "T-78 Analysis: failure limit", test_analysis_failure_limit },
	{ "T-79 Analysis: rollback reverts, then parks", test_analysis_rollback_reverts },
	{ "T-80/T-81 Analysis: rollback without snapshot holds, dryRun proceeds", test_analysis_rollback_without_snapshot_and_dry_run },
	{ "T-82/T-100 GateRollback: parks aborted revision, onRollback fires", test_gate_rollback_parks_aborted_revision },
	{ "T-83 EventGateRollback: parks aborted revision", test_event_gate_rollback_parks_aborted_revision },
	{ "T-84 Promotion: transient gate error does not roll back", test_transient_gate_error_does_not_roll_back },
	{ "T-85 Promotion: permanent gate denial sets RBACDenied", test_permanent_gate_denial_sets_rbac_denied },
	{ "T-86 GateUnevaluable: persists ledgers", test_gate_unevaluable_persists_ledgers },
	{ "T-70 PromotionHold: preserves later stage status", test_promotion_hold_preserves_later_stage_status },
	{ "T-73 PromotionHold: stale promote token does not replay", test_stale_promote_token_does_not_replay },
	{ "Q-12 stage failure replays a stale promote token", test_failure_replays_stale_promote_token },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo version_tests[] = {
	{ "T-13/T-15/T-16 Migrations: approval holds then proceeds", test_require_approval_holds_then_proceeds },
	{ "T-14 Migrations: approval Always holds a migration-free advance", test_approval_always_holds_migration_free_advance },
	{ "T-17 Migrations: downgrade refused", test_downgrade_refused },
	{ "S-8 migration failure escalates to MigrationDirty (Q-6)", test_migration_failure_escalates_to_dirty },
	{ "T-12 Migrations: require coverage blocks major", test_require_coverage_blocks_major },
	{ "T-18/T-20 Migrations: version from artifact, missing file invalid", test_version_from_artifact },
	{ "T-19 Migrations: version from object", test_version_from_object },
	{ "T-21 SourcedMigration: runs and advances version", test_sourced_migration_runs_and_advances_version },
	{ "T-22 SourcedMigration: ledger persists, skips destructive retry", test_sourced_migration_ledger_skips_destructive_retry },
	{ "T-23 SourcedMigration: invalid artifact fails closed", test_sourced_migration_invalid_artifact_fails_closed },
	{ "T-24/T-27 Downgrade: runs down actions, refused without allowDowngrade", test_downgrade_runs_down_actions },
	{ "T-25/T-26 Downgrade: unwinds every crossed boundary, rollback-to", test_downgrade_unwinds_every_crossed_boundary },
	{ "T-28 Downgrade: irreversible boundary refused", test_downgrade_irreversible_boundary_refused },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("stageset_controller versions and migrations (§6.2)", version_tests);
	CU_ADD_SUITE("stageset_controller promotion (§6.5)", promotion_tests);
	CU_ADD_SUITE("stageset_controller windows and budgets (§6.4)", gate_tests);
	CU_ADD_SUITE("stageset_controller action scopes and ledgers (§6.3)", action_tests);
	CU_ADD_SUITE("stageset_controller failures and rollback (§6.6)", failure_tests);
	CU_ADD_SUITE("stageset_controller dependencies, inventory, misc (§6.7)", misc_tests);
	CU_ADD_SUITE("stageset_controller core (§6.1)", core_tests);
	CU_ADD_SUITE("stageset_controller helpers", helper_tests);
}
