/*
 * engine/stageset_types: the StageSet spec as the controller reads it (every
 * field, borrowed strings, a tree of the wrong shape refused with the field
 * named) and the status as Go's encoding/json writes it (declaration order,
 * omitempty, sorted map keys, metav1.Time as RFC 3339 whole seconds), with
 * parse / render round trips, equality and deep copies.  Upstream has no
 * tests of api/v1 beyond the generated deep copies; the cases are ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

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

/* Compact JSON of @v in the tree's key order (what json.Marshal would print), appended to @b. */
static void js(const struct val *v, struct strbuf *b)
{
	char num[32];

	switch (v->type) {
	case VAL_NULL: strbuf_add(b, "null"); break;
	case VAL_BOOL: strbuf_add(b, v->u.b ? "true" : "false"); break;
	case VAL_INT:
		snprintf(num, sizeof(num), "%lld", (long long)v->u.i);
		strbuf_add(b, num);
		break;
	case VAL_FLOAT:
		snprintf(num, sizeof(num), "%g", v->u.f);
		strbuf_add(b, num);
		break;
	case VAL_STRING:
		strbuf_addc(b, '"');
		strbuf_add(b, v->u.s);
		strbuf_addc(b, '"');
		break;
	case VAL_MAP:
		strbuf_addc(b, '{');
		for (size_t i = 0; i < v->u.map.n; i++) {
			if (i)
				strbuf_addc(b, ',');
			strbuf_addc(b, '"');
			strbuf_add(b, v->u.map.items[i].key);
			strbuf_add(b, "\":");
			js(v->u.map.items[i].v, b);
		}
		strbuf_addc(b, '}');
		break;
	case VAL_LIST:
		strbuf_addc(b, '[');
		for (size_t i = 0; i < v->u.list.n; i++) {
			if (i)
				strbuf_addc(b, ',');
			js(v->u.list.items[i], b);
		}
		strbuf_addc(b, ']');
		break;
	}
}

/*
 * json_of() - the compact JSON of @v as a new string (the caller frees it):
 * each call its own, so that two results can be compared, and never cut.
 */
static char *json_of(const struct val *v)
{
	struct strbuf b = { 0 };

	js(v, &b);
	return strbuf_take(&b);
}

/* Asserts that @v renders as the JSON @want (at the line of the call). */
#define CHECK_JSON(v, want)                                  \
	do {                                                 \
		char *json_ = json_of(v);                    \
		CU_ASSERT_STRING_EQUAL(json_, want);         \
		free(json_);                                 \
	} while (0)

/* ---- Go text forms ---- */

static void test_format_time(void)
{
	char b[GOFMT_DURATION_LEN];
	CU_ASSERT_STRING_EQUAL(sst_format_time(0, b, sizeof(b)), "1970-01-01T00:00:00Z");
	CU_ASSERT_STRING_EQUAL(sst_format_time(1784462400999LL, b, sizeof(b)), "2026-07-19T12:00:00Z");
	CU_ASSERT_STRING_EQUAL(sst_format_time(951782400000LL, b, sizeof(b)), "2000-02-29T00:00:00Z");
	CU_ASSERT_STRING_EQUAL(sst_format_time(-1, b, sizeof(b)), "1969-12-31T23:59:59Z");
	int64_t t;
	CU_ASSERT(sst_parse_time("2026-07-19T12:00:00Z", &t) == 0 && t == 1784462400000LL);
	CU_ASSERT(sst_parse_time("2026-07-19T14:00:00.250+02:00", &t) == 0 && t == 1784462400250LL);
	CU_ASSERT(sst_parse_time("2026-07-19 12:00:00Z", &t) == -1);
	CU_ASSERT(sst_parse_time("2026-13-19T12:00:00Z", &t) == -1);
}

struct dur_case { const char *text; int rc; int64_t ms; const char *go; };
static const struct dur_case dur_cases[] = {
	{ "0", 0, 0, "0s" },
	{ "0s", 0, 0, "0s" },
	{ "1m", 0, 60000, "1m0s" },
	{ "1h30m", 0, 5400000, "1h30m0s" },
	{ "1.5s", 0, 1500, "1.5s" },
	{ "500ms", 0, 500, "500ms" },
	{ "2h0m0.25s", 0, 7200250, "2h0m0.25s" },
	{ "-2s", 0, -2000, "-2s" },
	{ "15m", 0, 900000, "15m0s" },
	{ "10", -1, 0, NULL },
	{ "", -1, 0, NULL },
	{ "1d", -1, 0, NULL },
	{ "s", -1, 0, NULL },
	/* Go's integer arithmetic: a float64 sum made this 1000 */
	{ "1.001s", 0, 1001, "1.001s" },
	{ "1.s", 0, 1000, "1s" },
	/* past int64 nanoseconds */
	{ "9223372036854775808ns", -1, 0, NULL },
	{ "2562048h", -1, 0, NULL },
};

static void test_durations(void)
{
	for (size_t i = 0; i < sizeof(dur_cases) / sizeof(dur_cases[0]); i++) {
		const struct dur_case *c = &dur_cases[i];
		int64_t ms = 12345;
		int rc = sst_parse_duration(c->text, &ms);
		CU_ASSERT_EQUAL(rc, c->rc);
		if (rc == 0) {
			char b[GOFMT_DURATION_LEN];
			CU_ASSERT_EQUAL(ms, c->ms);
			CU_ASSERT_STRING_EQUAL(gofmt_duration_ms(ms, b), c->go);
		}
	}
	char b[GOFMT_DURATION_LEN];
	CU_ASSERT_STRING_EQUAL(gofmt_duration_ms(999, b), "999ms");
	CU_ASSERT_STRING_EQUAL(gofmt_duration_ms(3600000, b), "1h0m0s");
	CU_ASSERT_STRING_EQUAL(gofmt_duration_ms(61010, b), "1m1.01s");
}

/* ---- spec parse ---- */

static const char *full_spec =
	"interval: 5m\n"
	"retryInterval: 30s\n"
	"driftDetectionInterval: 1h\n"
	"timeout: 10m\n"
	"onTimeout: Rollback\n"
	"suspend: true\n"
	"dependsOn: [{name: base, namespace: infra, minVersion: 1.2.0}, {name: other}]\n"
	"serviceAccountName: deployer\n"
	"kubeConfig: {secretRef: {name: kc}}\n"
	"decryption: {provider: sops}\n"
	"version:\n"
	"  fromObject: {kind: ConfigMap, name: v, fieldPath: '{.data.v}'}\n"
	"  requireMigrationCoverage: true\n"
	"  approvalMode: OnMigrations\n"
	"  allowDowngrade: true\n"
	"migrations:\n"
	"  - {name: m1, to: 2.0.0, from: '>=1.0.0', stage: app, actions: [{name: a, patch: {target: {kind: X}, patch: p}}], down: [{name: d, delete: {target: {kind: X, name: y}}}]}\n"
	"migrationsSourceRef: {sourceRef: {kind: GitRepository, name: ladders}, path: ./migrations}\n"
	"rollbackOnFailure: true\n"
	"onRollback: [{name: notify, http: {url: 'https://hook'}}]\n"
	"updateWindows:\n"
	"  - {type: Allow, schedule: '0 9 * * 1-5', duration: 8h, timeZone: Europe/Berlin}\n"
	"  - {type: Deny, from: '2026-12-24T00:00:00Z', to: '2026-12-27T00:00:00Z'}\n"
	"windowScope: All\n"
	"errorBudget:\n"
	"  source: {prometheus: {address: 'http://prom', query: 'up', secretRef: {name: p}}}\n"
	"  freezeThreshold: '0.1'\n"
	"  resumeThreshold: '0.2'\n"
	"  onSourceError: Hold\n"
	"  interval: 1m\n"
	"  dryRun: true\n"
	"stages:\n"
	"  - name: app\n"
	"    migrationAnchor: anchor\n"
	"    sourceRef: {apiVersion: source.toolkit.fluxcd.io/v1, kind: OCIRepository, name: app, namespace: src}\n"
	"    path: ./deploy\n"
	"    serviceAccountName: app-sa\n"
	"    prune: false\n"
	"    timeout: 3m\n"
	"    onTimeout: Hold\n"
	"    force: true\n"
	"    conflictPolicy: {default: Abort}\n"
	"    applyHelmHookResources: true\n"
	"    patches: [{patch: x}]\n"
	"    postBuild: {substitute: {a: b}}\n"
	"    actions:\n"
	"      pre: [{name: p1, scope: Version, timeout: 30s, retries: 3, wait: {duration: 5s}}, {name: p2, scope: Lifetime, job: {sourceRef: {name: j}}, completionAnchor: {apiVersion: v1, kind: ConfigMap, name: witness}}]\n"
	"      post: [{name: q1, http: {url: 'https://x'}, apply: {sourceRef: {name: y}}}]\n"
	"      onFailure: [{name: f1}]\n"
	"    readyChecks:\n"
	"      timeout: 2m\n"
	"      disableWait: true\n"
	"      checks: [{kind: Deployment, name: web}]\n"
	"      exprs: [{apiVersion: apps/v1, kind: Deployment, current: 'true'}]\n"
	"    promotion:\n"
	"      soak: 10m\n"
	"      requireManualPromotion: true\n"
	"      analysis:\n"
	"        checks: [{name: err, source: {webhook: {url: 'http://m', jsonPath: '{.v}'}}, threshold: {max: '0.05'}}]\n"
	"        interval: 30s\n"
	"        failureLimit: 2\n"
	"        onFailure: Rollback\n"
	"        onSourceError: Hold\n"
	"        dryRun: true\n"
	"      fastTrack: {source: {prometheus: {address: 'http://p', query: q}}, max: '0', after: 2m}\n"
	"      restartGate: {onFailure: Rollback, checks: [{name: r, selector: {matchLabels: {app: web}}, maxRestarts: 3, onFailure: Hold}]}\n"
	"      eventGate: {checks: [{name: e, selector: {}, reasons: [BackOff, Unhealthy], maxEvents: 2}]}\n"
	"    errorBudget: {source: {webhook: {url: 'http://w', jsonPath: '{.x}'}}, freezeThreshold: '0.5'}\n"
	"  - name: second\n"
	"    sourceRef: {name: other}\n";

static void test_spec_parse_every_field(void)
{
	struct val *v = yaml(full_spec);
	struct sst_spec s;
	char err[256];

	CU_ASSERT_FATAL(sst_spec_parse(v, &s, err, sizeof(err)) == 0);
	CU_ASSERT(s.interval.set && s.interval.ms == 300000);
	CU_ASSERT(s.retry_interval.set && s.retry_interval.ms == 30000);
	CU_ASSERT(s.drift_detection_interval.ms == 3600000);
	CU_ASSERT(s.timeout.ms == 600000);
	CU_ASSERT_STRING_EQUAL(s.on_timeout, "Rollback");
	CU_ASSERT(s.suspend);
	CU_ASSERT_EQUAL(s.ndepends_on, 2);
	CU_ASSERT_STRING_EQUAL(s.depends_on[0].ns, "infra");
	CU_ASSERT_STRING_EQUAL(s.depends_on[0].min_version, "1.2.0");
	CU_ASSERT_STRING_EQUAL(s.depends_on[1].ns, "");
	CU_ASSERT_STRING_EQUAL(s.service_account, "deployer");
	CU_ASSERT_PTR_NOT_NULL(s.kube_config);
	CU_ASSERT_PTR_NOT_NULL(s.decryption);
	CU_ASSERT(s.has_version && s.version.has_from_object && !s.version.has_from_artifact);
	CU_ASSERT_STRING_EQUAL(s.version.fo_field_path, "{.data.v}");
	CU_ASSERT_STRING_EQUAL(s.version.fo_stage, "");
	CU_ASSERT_STRING_EQUAL(s.version.approval_mode, "OnMigrations");
	CU_ASSERT(s.version.require_migration_coverage && s.version.allow_downgrade);
	CU_ASSERT_EQUAL(s.nmigrations, 1);
	CU_ASSERT_STRING_EQUAL(s.migrations[0].from, ">=1.0.0");
	CU_ASSERT_EQUAL(s.migrations[0].actions.n, 1);
	CU_ASSERT_STRING_EQUAL(s.migrations[0].actions.items[0].verb, "patch");
	CU_ASSERT_STRING_EQUAL(s.migrations[0].down.items[0].verb, "delete");
	CU_ASSERT(s.has_migrations_source);
	CU_ASSERT_STRING_EQUAL(s.migrations_source_ref.kind, "GitRepository");
	CU_ASSERT_STRING_EQUAL(s.migrations_source_path, "./migrations");
	CU_ASSERT(s.rollback_on_failure);
	CU_ASSERT_STRING_EQUAL(s.on_rollback.items[0].verb, "http");
	CU_ASSERT_EQUAL(s.nwindows, 2);
	CU_ASSERT(s.windows[0].duration.ms == 8 * 3600000LL);
	CU_ASSERT_EQUAL(s.windows[0].from_ms, SST_NO_TIME);
	CU_ASSERT_EQUAL(s.windows[1].from_ms, 1798070400000LL);
	CU_ASSERT_STRING_EQUAL(s.window_scope, "All");
	CU_ASSERT(s.has_error_budget && s.error_budget.source.has_prometheus);
	CU_ASSERT_STRING_EQUAL(s.error_budget.source.secret_ref, "p");
	CU_ASSERT_STRING_EQUAL(s.error_budget.resume_threshold, "0.2");
	CU_ASSERT(s.error_budget.dry_run && s.error_budget.interval.ms == 60000);

	CU_ASSERT_FATAL(s.nstages == 2);
	const struct sst_stage *st = &s.stages[0];
	CU_ASSERT_STRING_EQUAL(st->source_ref.ns, "src");
	CU_ASSERT(st->has_prune && !st->prune);
	CU_ASSERT(st->force && st->has_apply_helm_hook_resources && st->apply_helm_hook_resources);
	CU_ASSERT_PTR_NOT_NULL(st->patches);
	CU_ASSERT_PTR_NOT_NULL(st->post_build);
	CU_ASSERT_PTR_NOT_NULL(st->conflict_policy);
	CU_ASSERT(st->has_actions && st->pre.n == 2 && st->post.n == 1 && st->on_failure.n == 1);
	CU_ASSERT_EQUAL(sst_action_scope(&st->pre.items[0]), SST_SCOPE_VERSION);
	CU_ASSERT_EQUAL(sst_action_scope(&st->pre.items[1]), SST_SCOPE_LIFETIME);
	CU_ASSERT_EQUAL(sst_action_scope(&st->post.items[0]), SST_SCOPE_REVISION);
	CU_ASSERT(st->pre.items[0].has_retries && st->pre.items[0].retries == 3);
	CU_ASSERT(st->pre.items[0].timeout.set && st->pre.items[0].timeout.ms == 30000);
	CU_ASSERT(st->pre.items[1].has_anchor);
	CU_ASSERT_STRING_EQUAL(st->pre.items[1].anchor_name, "witness");
	CU_ASSERT_EQUAL(st->post.items[0].verb_count, 2); /* Verb() takes the first in declaration order */
	CU_ASSERT_STRING_EQUAL(st->post.items[0].verb, "http");
	CU_ASSERT_STRING_EQUAL(st->on_failure.items[0].verb, "action");
	CU_ASSERT_EQUAL(st->on_failure.items[0].verb_count, 0);
	CU_ASSERT(st->has_ready_checks && st->ready_checks.disable_wait);
	CU_ASSERT(st->ready_checks.nchecks == 1 && st->ready_checks.nexprs == 1);
	CU_ASSERT(st->ready_checks.timeout.ms == 120000);
	CU_ASSERT(st->has_promotion && st->promotion.require_manual);
	CU_ASSERT(st->promotion.soak.ms == 600000);
	CU_ASSERT(st->promotion.has_analysis && st->promotion.analysis.nchecks == 1);
	CU_ASSERT_STRING_EQUAL(st->promotion.analysis.checks[0].threshold.max, "0.05");
	CU_ASSERT_PTR_NULL(st->promotion.analysis.checks[0].threshold.min);
	CU_ASSERT(st->promotion.analysis.has_failure_limit && st->promotion.analysis.failure_limit == 2);
	CU_ASSERT(st->promotion.has_fast_track && st->promotion.fast_track.after.ms == 120000);
	CU_ASSERT(st->promotion.has_restart_gate && st->promotion.restart_gate.nchecks == 1);
	CU_ASSERT_EQUAL(st->promotion.restart_gate.checks[0].max_restarts, 3);
	CU_ASSERT_EQUAL(st->promotion.restart_gate.checks[0].selector.n, 1);
	CU_ASSERT(st->promotion.has_event_gate && st->promotion.event_gate.checks[0].nreasons == 2);
	CU_ASSERT_STRING_EQUAL(st->promotion.event_gate.checks[0].reasons[1], "Unhealthy");
	CU_ASSERT_STRING_EQUAL(st->promotion.event_gate.on_failure, "");
	CU_ASSERT(st->has_error_budget && st->error_budget.source.has_webhook);
	CU_ASSERT_PTR_NULL(st->error_budget.resume_threshold);

	const struct sst_stage *s2 = &s.stages[1];
	CU_ASSERT_STRING_EQUAL(s2->source_ref.kind, "");
	CU_ASSERT(!s2->has_prune && !s2->has_actions && !s2->has_promotion && !s2->timeout.set);
	CU_ASSERT_PTR_NULL(s2->post_build);
	/* Borrowed: the strings are the tree's. */
	CU_ASSERT_PTR_EQUAL(s2->name, val_path(v, "stages.1.name")->u.s);
	sst_spec_release(&s);
	val_free(v);
}

struct bad_case { const char *yaml; const char *err; };
static const struct bad_case bad_cases[] = {
	{ "stages: {}", "spec.stages: expected array, got object" },
	{ "interval: 5m", "spec.stages: required" },
	{ "stages: [{sourceRef: {name: a}}]", "spec.stages[0].name: required" },
	{ "stages: [{name: a}]", "spec.stages[0].sourceRef: required" },
	{ "stages: [{name: a, sourceRef: {name: 7}}]", "spec.stages[0].sourceRef.name: expected string, got integer" },
	{ "interval: 5 minutes\nstages: []", "spec.interval: time: invalid duration \"5 minutes\"" },
	{ "suspend: 'yes'\nstages: []", "spec.suspend: expected boolean, got string" },
	{ "stages: [a]", "spec.stages[0]: expected object, got string" },
	{ "stages: [{name: a, sourceRef: {name: b}, actions: {pre: [{name: x, retries: two}]}}]",
	  "spec.stages[0].actions.pre[0].retries: expected integer, got string" },
	{ "updateWindows: [{type: Deny, from: tomorrow}]\nstages: []",
	  "spec.updateWindows[0].from: not an RFC 3339 time: \"tomorrow\"" },
	{ "stages: [{name: a, sourceRef: {name: b}, promotion: {eventGate: {checks: [{name: e, reasons: [1]}]}}}]",
	  "spec.stages[0].promotion.eventGate.checks[0].reasons[0]: expected string, got integer" },
};

static void test_spec_parse_wrong_shape(void)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		struct val *v = yaml(bad_cases[i].yaml);
		struct sst_spec s;
		char err[256];
		CU_ASSERT_EQUAL(sst_spec_parse(v, &s, err, sizeof(err)), -1);
		CU_ASSERT_STRING_EQUAL(err, bad_cases[i].err);
		if (strcmp(err, bad_cases[i].err) != 0)
			fprintf(stderr, "\ncase %zu: got '%s'\n", i, err);
		CU_ASSERT_PTR_NULL(s.arena_);
		sst_spec_release(&s);
		val_free(v);
	}
}

static void test_spec_plain_interval_zero_is_absent(void)
{
	struct val *v = yaml("interval: 0s\nstages: []");
	struct sst_spec s;
	CU_ASSERT_FATAL(sst_spec_parse(v, &s, NULL, 0) == 0);
	CU_ASSERT(!s.interval.set);
	CU_ASSERT_EQUAL(s.nstages, 0);
	sst_spec_release(&s);
	val_free(v);
}

/* ---- status ---- */

/* A status with every field set, in the order json.Marshal writes them. */
static const char *full_status_json =
	"{\"lastHandledReconcileAt\":\"r1\","
	"\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"observedGeneration\":3,"
	"\"lastTransitionTime\":\"2026-07-19T12:00:00Z\",\"reason\":\"Succeeded\",\"message\":\"ok\"}],"
	"\"observedGeneration\":3,"
	"\"lastAttemptedRevisions\":{\"a/x\":\"r1\",\"b/y\":\"r2\"},"
	"\"lastAppliedRevisions\":{\"a/x\":\"r1\"},"
	"\"stages\":[{\"name\":\"app\",\"phase\":\"Ready\",\"appliedRevision\":\"r1\",\"entriesCount\":4,"
	"\"shards\":1,\"message\":\"m\",\"executedActions\":[\"p1\"],\"ledgerRevision\":\"r1\","
	"\"executedVersionActions\":[\"v1\"],\"ledgerVersion\":\"1.0.0\",\"lastHandledReconcileAt\":\"t\","
	"\"promotionState\":{\"phase\":\"Soaking\",\"since\":\"2026-07-19T12:00:00Z\","
	"\"soakUntil\":\"2026-07-19T12:10:00Z\",\"analysisFailures\":1,\"restartCheck\":\"rc\","
	"\"observedRestarts\":2,\"restartBaseline\":[{\"name\":\"rc\",\"restarts\":5},{\"name\":\"z\"}],"
	"\"eventCheck\":\"ec\",\"observedEvents\":3,\"abortedRevision\":\"r0\","
	"\"lastAnalysis\":{\"time\":\"2026-07-19T12:05:00Z\",\"passed\":true,"
	"\"checks\":[{\"name\":\"err\",\"value\":\"0.01\",\"ok\":true},{\"name\":\"lat\",\"error\":\"boom\"}]}},"
	"\"lastHandledPromotion\":\"p\","
	"\"budgetFreeze\":{\"remaining\":\"0.1\",\"freezeThreshold\":\"0.2\",\"resumeThreshold\":\"0.3\","
	"\"since\":\"2026-07-19T12:00:00Z\",\"dryRun\":true}}],"
	"\"version\":\"1.0.0\",\"pendingVersion\":\"2.0.0\","
	"\"pendingMigrations\":[{\"name\":\"m\",\"to\":\"2.0.0\",\"from\":\"1.0.0\",\"stage\":\"app\","
	"\"actions\":[\"a\"],\"digest\":\"sha256:x\"}],"
	"\"executedMigrations\":[\"m0\"],\"executedMigrationActions\":[\"m0/a\"],"
	"\"migrationFailureCount\":1,\"actionFailureCount\":2,"
	"\"lastAppliedSnapshot\":[{\"stage\":\"app\",\"url\":\"http://a\",\"digest\":\"sha256:1\","
	"\"revision\":\"r1\",\"substitutionDigest\":\"ab\"}],"
	"\"pendingUpdate\":{\"revisions\":{\"app\":\"r2\"},\"nextWindowOpens\":\"2026-07-20T09:00:00Z\"},"
	"\"lastHandledUpdateOverride\":\"u\",\"lastHandledResetScope\":\"s\","
	"\"budgetFreeze\":{\"remaining\":\"0\"},"
	"\"lastHandledBudgetOverride\":\"b\"}";

/*
 * Whether the field-by-field equality agrees with comparing the rendered
 * JSON, and the merge patch from one to the other, applied to the first's
 * JSON, gives the second's (and is NULL exactly when they are equal).
 */
static bool equal_agrees(const struct sst_status *a, const struct sst_status *b)
{
	struct val *va = sst_status_to_val(a), *vb = sst_status_to_val(b);
	bool rendered = val_equal(va, vb), ok;
	struct val *patch = sst_status_patch(a, b);

	ok = rendered == sst_status_equal(a, b) && rendered == sst_status_equal(b, a) &&
	     rendered == (patch == NULL);
	if (patch)
		val_merge_patch(&va, patch);
	ok = ok && val_equal(va, vb);
	val_free(patch);
	val_free(va);
	val_free(vb);
	return ok;
}

/*
 * sst_status_equal() compares without rendering: for one change at a time
 * to every field of a full status (some that render alike, some that do
 * not), it says what comparing the two rendered JSON trees says.
 */
/*
 * Change @k of a copy @c of the full status (see its callers); false when
 * there is no change @k.
 */
static bool vary_status(struct sst_status *c0, int k)
{
	struct sst_status c = *c0;
	struct sst_stage_status *st = &c.stages[0];
	struct sst_promotion_state *ps = st->promotion_state;
	bool done = false;

	switch (k) {
	case 0: c.conditions[0].last_transition_ms += 999 - c.conditions[0].last_transition_ms % 1000; break;
	case 1: c.conditions[0].last_transition_ms += 1000; break;
	case 2: c.conditions[0].last_transition_ms = SST_NO_TIME; break;
	case 3: free(c.conditions[0].message); c.conditions[0].message = xstrdup("x"); break;
	case 4: c.conditions[0].observed_generation++; break;
	case 5: c.observed_generation = 0; break;
	case 6: sst_strmap_set(&c.last_applied_revisions, "zz", "r"); break;
	case 7: free(c.version); c.version = xstrdup(""); break;
	case 8: free(c.pending_version); c.pending_version = xstrdup("9.9.9"); break;
	case 9: sst_string_list_push(&c.executed_migrations, "m"); break;
	case 10: c.migration_failure_count = 3; break;
	case 11: free(st->applied_revision); st->applied_revision = xstrdup("other"); break;
	case 12: st->entries_count = 0; break;
	case 13: sst_promotion_state_free(st->promotion_state); st->promotion_state = NULL; break;
	case 14: ps->soak_until_ms += 1; break;
	case 15: ps->soak_until_ms += 1000; break;
	case 16: ps->analysis_failures = 0; break;
	case 17: free(ps->aborted_revision); ps->aborted_revision = xstrdup("r0"); break;
	case 18: sst_budget_freeze_free(c.budget_freeze); c.budget_freeze = NULL; break;
	case 19: free(c.budget_freeze->remaining); c.budget_freeze->remaining = xstrdup(""); break;
	case 20: free(c.last_handled_budget_override); c.last_handled_budget_override = xstrdup(""); break;
	case 21: free(c.last_handled_reconcile_at); c.last_handled_reconcile_at = xstrdup("t2"); break;
	case 22:
		if (c.nlast_applied_snapshot) {
			free(c.last_applied_snapshot[0].digest);
			c.last_applied_snapshot[0].digest = xstrdup("sha256:0");
		}
		break;
	case 23:
		if (c.pending_update)
			c.pending_update->next_window_opens_ms = SST_NO_TIME;
		break;
	case 24:
		if (c.npending_migrations)
			sst_string_list_push(&c.pending_migrations[0].actions, "a2");
		break;
	case 25: sst_string_list_push(&st->executed_actions, "x"); break;
	case 26: free(st->message); st->message = xstrdup(""); break;
	case 27: sst_strmap_release(&c.last_attempted_revisions); break;
	case 28:
		if (c.pending_update)
			sst_strmap_set(&c.pending_update->revisions, "new", "r9");
		break;
	case 29: c.budget_freeze->dry_run = !c.budget_freeze->dry_run; break;
	case 30: sst_status_release(&c); sst_status_init(&c); break;
	case 31: sst_strmap_set(&c.last_applied_revisions, c.last_applied_revisions.keys[0], "r-new"); break;
	case 32: sst_strmap_set(&c.last_attempted_revisions, "aa", "r"); break;
	default: done = true; break;
	}
	*c0 = c;
	return !done;
}

static void test_status_equal_matches_json(void)
{
	struct val *in = yaml(full_status_json);
	struct sst_status s, c;
	int n = 0;

	sst_status_parse(in, &s);
	for (int k = 0;; k++) {
		bool done;

		sst_status_copy(&c, &s);
		done = !vary_status(&c, k);
		if (done) {
			sst_status_release(&c);
			break;
		}
		CU_ASSERT(equal_agrees(&c, &s) && equal_agrees(&s, &c));
		if (!equal_agrees(&c, &s) || !equal_agrees(&s, &c))
			fprintf(stderr, "sst_status_equal or _patch disagrees with the JSON for change %d\n", k);
		sst_status_release(&c);
		n++;
	}
	CU_ASSERT(n > 20);
	sst_status_init(&c);
	CU_ASSERT(equal_agrees(&c, &s));
	sst_status_release(&c);
	sst_status_release(&s);
	val_free(in);
}

/* The times sst_status_equal() compares by whole seconds, compared exactly. */
static bool same_times(const struct sst_status *a, const struct sst_status *b)
{
	if (a->nconditions != b->nconditions || a->nstages != b->nstages)
		return false;
	for (size_t i = 0; i < a->nconditions; i++)
		if (a->conditions[i].last_transition_ms != b->conditions[i].last_transition_ms)
			return false;
	for (size_t i = 0; i < a->nstages; i++) {
		const struct sst_promotion_state *pa = a->stages[i].promotion_state;
		const struct sst_promotion_state *pb = b->stages[i].promotion_state;

		if (!pa != !pb)
			return false;
		if (pa && (pa->since_ms != pb->since_ms || pa->soak_until_ms != pb->soak_until_ms))
			return false;
	}
	return true;
}

/* Whether @d is what sst_status_copy() of @s gives: the same rendering, equal, the same times. */
static bool same_as_copy(const struct sst_status *d, const struct sst_status *s)
{
	struct sst_status c;
	struct val *vd = sst_status_to_val(d), *vc;
	char *jd = json_of(vd), *jc;
	bool ok;

	sst_status_copy(&c, s);
	vc = sst_status_to_val(&c);
	jc = json_of(vc);
	ok = strcmp(jd, jc) == 0 && sst_status_equal(d, &c) && same_times(d, &c);
	free(jc);
	free(jd);
	val_free(vc);
	val_free(vd);
	sst_status_release(&c);
	return ok;
}

/*
 * sst_status_assign() gives what a copy gives, whatever the target held
 * before (nothing, an empty status, the full status, any one change of it,
 * the status it is assigned itself), and leaves the source alone.
 */
static void test_status_assign_is_a_copy(void)
{
	struct val *in = yaml(full_status_json);
	struct sst_status s, d, v[40];
	int nv = 0, bad = 0;

	sst_status_parse(in, &s);
	for (int k = 0; nv < 40; k++) {
		sst_status_copy(&v[nv], &s);
		if (!vary_status(&v[nv], k)) {
			sst_status_release(&v[nv]);
			break;
		}
		nv++;
	}
	CU_ASSERT(nv > 20);
	for (int from = -2; from <= nv; from++) {
		for (int to = -1; to <= nv; to++) {
			const struct sst_status *src = to < 0 ? &s : to == nv ? &v[30] : &v[to];

			if (from == -2)
				memset(&d, 0, sizeof(d));
			else if (from == -1)
				sst_status_init(&d);
			else
				sst_status_copy(&d, from == nv ? &s : &v[from]);
			sst_status_assign(&d, src);
			if (!same_as_copy(&d, src))
				bad++;
			/* twice: the second finds every field in place */
			sst_status_assign(&d, src);
			if (!same_as_copy(&d, src))
				bad++;
			sst_status_assign(&d, &d);
			if (!same_as_copy(&d, src))
				bad++;
			sst_status_release(&d);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	{
		struct val *out = sst_status_to_val(&s);

		CHECK_JSON(out, full_status_json);
		val_free(out);
	}
	for (int i = 0; i < nv; i++)
		sst_status_release(&v[i]);
	sst_status_release(&s);
	val_free(in);
}

static void test_status_every_field_round_trip(void)
{
	struct val *in = yaml(full_status_json);
	struct sst_status s, c;

	sst_status_parse(in, &s);
	CU_ASSERT_EQUAL(s.nstages, 1);
	CU_ASSERT_EQUAL(s.stages[0].entries_count, 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.stages[0].promotion_state);
	CU_ASSERT_EQUAL(s.stages[0].promotion_state->soak_until_ms, 1784462400000LL + 600000);
	CU_ASSERT_STRING_EQUAL(sst_strmap_get(&s.last_attempted_revisions, "b/y"), "r2");
	CU_ASSERT_STRING_EQUAL(sst_ready_condition(&s)->reason, "Succeeded");

	struct val *out = sst_status_to_val(&s);
	CHECK_JSON(out, full_status_json);
	val_free(out);

	sst_status_copy(&c, &s);
	CU_ASSERT(sst_status_equal(&c, &s));
	out = sst_status_to_val(&c);
	CHECK_JSON(out, full_status_json);
	val_free(out);
	/* A copy is deep: changing it leaves the original alone. */
	c.stages[0].promotion_state->analysis_failures = 9;
	CU_ASSERT(!sst_status_equal(&c, &s));
	sst_status_release(&c);
	sst_status_release(&s);
	val_free(in);
}

static void test_status_omitempty(void)
{
	struct sst_status s;
	sst_status_init(&s);
	struct val *out = sst_status_to_val(&s);
	CHECK_JSON(out, "{}");
	val_free(out);

	/* Required fields stay even when empty; a non-nil empty pointer is {}. */
	s.stages = xcalloc(1, sizeof(*s.stages));
	s.nstages = 1;
	struct sst_stage_status *st = &s.stages[0];
	st->name = xstrdup("");
	st->phase = xstrdup("");
	st->applied_revision = xstrdup("");
	st->message = xstrdup("");
	st->ledger_revision = xstrdup("");
	st->ledger_version = xstrdup("");
	st->last_handled_reconcile_at = xstrdup("");
	st->last_handled_promotion = xstrdup("");
	st->budget_freeze = xcalloc(1, sizeof(*st->budget_freeze));
	st->budget_freeze->remaining = xstrdup("");
	st->budget_freeze->freeze_threshold = xstrdup("");
	st->budget_freeze->resume_threshold = xstrdup("");
	st->budget_freeze->since_ms = SST_NO_TIME;
	s.conditions = xcalloc(1, sizeof(*s.conditions));
	s.nconditions = 1;
	s.conditions[0].type = xstrdup("Ready");
	s.conditions[0].status = xstrdup("Unknown");
	s.conditions[0].reason = xstrdup("");
	s.conditions[0].message = xstrdup("");
	s.conditions[0].last_transition_ms = SST_NO_TIME;
	out = sst_status_to_val(&s);
	CHECK_JSON(out,
		   "{\"conditions\":[{\"type\":\"Ready\",\"status\":\"Unknown\","
		   "\"lastTransitionTime\":null,\"reason\":\"\",\"message\":\"\"}],"
		   "\"stages\":[{\"name\":\"\",\"budgetFreeze\":{}}]}");
	val_free(out);
	sst_status_release(&s);
}

static void test_status_map_keys_sorted(void)
{
	struct sst_status s;
	sst_status_init(&s);
	sst_strmap_set(&s.last_applied_revisions, "ns/zeta", "3");
	sst_strmap_set(&s.last_applied_revisions, "ns/alpha", "1");
	sst_strmap_set(&s.last_applied_revisions, "ns/Mid", "2");
	sst_strmap_set(&s.last_applied_revisions, "ns/alpha", "1b");
	CU_ASSERT_EQUAL(s.last_applied_revisions.n, 3);
	struct val *out = sst_status_to_val(&s);
	CHECK_JSON(out,
		   "{\"lastAppliedRevisions\":{\"ns/Mid\":\"2\",\"ns/alpha\":\"1b\",\"ns/zeta\":\"3\"}}");
	val_free(out);
	CU_ASSERT_PTR_NULL(sst_strmap_get(&s.last_applied_revisions, "ns/beta"));

	/* A status read from a tree with unsorted keys renders sorted. */
	struct val *in = yaml("{lastAttemptedRevisions: {b: '2', a: '1'}}");
	struct sst_status p;
	sst_status_parse(in, &p);
	out = sst_status_to_val(&p);
	CHECK_JSON(out, "{\"lastAttemptedRevisions\":{\"a\":\"1\",\"b\":\"2\"}}");
	val_free(out);
	sst_status_release(&p);
	val_free(in);
	sst_status_release(&s);
}

static void test_status_times_whole_seconds(void)
{
	struct val *in = yaml("{stages: [{name: a, promotionState: {since: '2026-07-19T12:00:00.750Z'}}]}");
	struct sst_status s, t;
	sst_status_parse(in, &s);
	CU_ASSERT_EQUAL(s.stages[0].promotion_state->since_ms, 1784462400750LL);
	struct val *out = sst_status_to_val(&s);
	CHECK_JSON(out,
		   "{\"stages\":[{\"name\":\"a\",\"promotionState\":{\"since\":\"2026-07-19T12:00:00Z\"}}]}");
	/* Equality is on the JSON: 750 ms apart is the same stored status. */
	sst_status_parse(out, &t);
	CU_ASSERT(sst_status_equal(&s, &t));
	val_free(out);
	sst_status_release(&t);
	sst_status_release(&s);
	val_free(in);
}

static void test_status_wrong_types_are_absent(void)
{
	struct val *in = yaml("{observedGeneration: nope, stages: [1, {name: a}], version: 3, conditions: {}}");
	struct sst_status s;
	sst_status_parse(in, &s);
	CU_ASSERT_EQUAL(s.observed_generation, 0);
	CU_ASSERT_EQUAL(s.nstages, 1);
	CU_ASSERT_STRING_EQUAL(s.version, "");
	CU_ASSERT_EQUAL(s.nconditions, 0);
	sst_status_release(&s);
	sst_status_parse(NULL, &s);
	CU_ASSERT_STRING_EQUAL(s.pending_version, "");
	sst_status_release(&s);
	sst_status_release(NULL);
	val_free(in);
}

static void test_string_list(void)
{
	struct sst_string_list l = { 0 };
	sst_string_list_push(&l, "a");
	sst_string_list_push(&l, NULL);
	CU_ASSERT(sst_string_list_has(&l, "a") && sst_string_list_has(&l, ""));
	CU_ASSERT(!sst_string_list_has(&l, "b"));
	sst_string_list_release(&l);
	CU_ASSERT_EQUAL(l.n, 0);
}

/* A string assigned its own tail, a shorter text, a longer one, the same one. */
static void test_str_assign(void)
{
	char *s = NULL, *kept;

	sst_str_assign(&s, NULL);
	CU_ASSERT_STRING_EQUAL(s, "");
	sst_str_assign(&s, "revision-42");
	kept = s;
	sst_str_assign(&s, "revision-42");
	CU_ASSERT_PTR_EQUAL(s, kept); /* the same text: the same buffer */
	sst_str_assign(&s, s + 9);    /* a tail of itself */
	CU_ASSERT_STRING_EQUAL(s, "42");
	CU_ASSERT_PTR_EQUAL(s, kept);
	sst_str_assign(&s, "a text longer than the buffer it had");
	CU_ASSERT_STRING_EQUAL(s, "a text longer than the buffer it had");
	free(s);
}

struct pairs {
	const char *const *k, *const *v;
};

static const char *pair_key(const void *ctx, size_t i)
{
	return ((const struct pairs *)ctx)->k[i];
}

static const char *pair_value(const void *ctx, size_t i)
{
	return ((const struct pairs *)ctx)->v[i];
}

/*
 * sst_strmap_assign_pairs() gives what a release and a set per pair give,
 * from an empty map, the same keys, fewer, more and other keys, with a key
 * repeated among the pairs (the last wins), and with no pairs at all; a key
 * that stays keeps its buffer.
 */
static void test_strmap_assign_pairs(void)
{
	static const char *const keys[] = { "ns/b", "ns/a", "ns/c", "ns/a", "ns/d" };
	static const char *const values[] = { "rev-b", "rev-a1", NULL, "rev-a2", "rev-d" };
	static const char *const starts[][4] = {
		{ NULL }, { "ns/a", "ns/b", "ns/c", NULL }, { "ns/a", NULL },
		{ "ns/z", "ns/a", "ns/e", NULL }, { "ns/x", "ns/y", NULL },
	};
	struct pairs pr = { keys, values };
	int bad = 0;

	for (size_t st = 0; st < sizeof(starts) / sizeof(starts[0]); st++)
		for (size_t n = 0; n <= 5; n++) {
			struct sst_strmap m = { 0 }, want = { 0 };
			const char *a_key = NULL;

			for (size_t k = 0; k < 4 && starts[st][k]; k++)
				sst_strmap_set(&m, starts[st][k], "old");
			for (size_t i = 0; i < n; i++)
				sst_strmap_set(&want, keys[i], values[i]);
			for (size_t i = 0; i < m.n; i++)
				if (strcmp(m.keys[i], "ns/a") == 0)
					a_key = m.keys[i];
			sst_strmap_assign_pairs(&m, n, pair_key, pair_value, &pr);
			if (m.n != want.n || (m.n == 0) != (m.keys == NULL))
				bad++;
			for (size_t i = 0; i < m.n && i < want.n; i++)
				if (strcmp(m.keys[i], want.keys[i]) != 0 || strcmp(m.values[i], want.values[i]) != 0)
					bad++;
			if (a_key && n >= 2 && sst_strmap_get(&m, "ns/a") && m.keys[0] != a_key)
				bad++; /* "ns/a" sorts first and stayed: its key is the one it had */
			sst_strmap_release(&m);
			sst_strmap_release(&want);
		}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_events_and_errors(void)
{
	struct ssc_events ev = { 0 };
	struct ssc_err e;
	ssc_events_add(&ev, 5, true, "BaselineInvalid", "x %d", 7);
	ssc_events_add(&ev, 6, false, "RolledBack", "%s", "y");
	CU_ASSERT_EQUAL(ev.n, 2);
	CU_ASSERT_STRING_EQUAL(ev.items[0].note, "x 7");
	CU_ASSERT(ev.items[0].warning && !ev.items[1].warning && ev.items[1].at_ms == 6);
	ssc_events_release(&ev);
	CU_ASSERT_EQUAL(ev.n, 0);
	ssc_events_release(NULL);
	ssc_err_set(&e, SSC_ERR_NOT_FOUND, "not found: %s", "a");
	CU_ASSERT_EQUAL(e.code, SSC_ERR_NOT_FOUND);
	CU_ASSERT_STRING_EQUAL(e.msg, "not found: a");
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "metav1.Time: RFC 3339 whole seconds, parse with offsets", test_format_time },
		{ "metav1.Duration: time.ParseDuration and Duration.String", test_durations },
		{ "StageSetSpec: every field", test_spec_parse_every_field },
		{ "StageSetSpec: a tree of the wrong shape names the field", test_spec_parse_wrong_shape },
		{ "StageSetSpec: a zero plain interval is absent", test_spec_plain_interval_zero_is_absent },
		{ "StageSetStatus: every field round-trips in declaration order", test_status_every_field_round_trip },
		{ "StageSetStatus: omitempty", test_status_omitempty },
		{ "StageSetStatus: an assign reusing the target gives what a copy gives",
		  test_status_assign_is_a_copy },
		{ "StageSetStatus: equality and merge patch without rendering say what the JSON says",
		  test_status_equal_matches_json },
		{ "StageSetStatus: map keys sorted", test_status_map_keys_sorted },
		{ "StageSetStatus: times stored as whole seconds", test_status_times_whole_seconds },
		{ "StageSetStatus: wrong types read as absent", test_status_wrong_types_are_absent },
		{ "string lists", test_string_list },
		{ "a string assigned in place, its own tail too", test_str_assign },
		{ "a string map assigned pairs gives what a release and sets give", test_strmap_assign_pairs },
		{ "events and errors", test_events_and_errors },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("stageset_types", tests);
}
