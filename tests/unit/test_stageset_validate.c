/*
 * engine/stageset_validate: ValidateSpec and its helpers with the tables of
 * webhook_test.go, webhook_validate_test.go and action_scope_validate_test.go
 * (named after their test functions), the exact texts of spec §1.9, the
 * order in which the first failure wins, ValidateUpdate's skip rule, and the
 * CEL deviation (readyChecks exprs are not compiled).
 *
 * Upstream builds Go structs; here each case is a YAML spec the CRD admits.
 * Where an upstream case leaves out a field the CRD requires (a budget
 * without `source`, a prometheus source without `address`), the case writes
 * the nearest admitted shape that takes the same path (`source: {}`,
 * `address: ""`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_validate.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

#define NOW 1767268800000LL /* 2026-01-01T12:00:00Z */

static struct val *tree;
static struct sst_spec spec;

static const struct sst_spec *spec_of(const char *yaml_text)
{
	struct yl_stream s;
	struct diag d;
	char err[256];

	diag_init(&d);
	CU_ASSERT_FATAL(yl_load_string("t", yaml_text, strlen(yaml_text), &s, &d) == 0);
	tree = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	if (sst_spec_parse(tree, &spec, err, sizeof(err)) != 0) {
		fprintf(stderr, "spec does not parse: %s\n%s\n", err, yaml_text);
		CU_FAIL_FATAL("spec does not parse");
	}
	return &spec;
}

static void spec_done(void)
{
	sst_spec_release(&spec);
	val_free(tree);
	tree = NULL;
}

/* ValidateSpec of @yaml_text in namespace "ns": NULL or the error (new). */
static char *validate(const char *yaml_text)
{
	struct obj *ss = obj_new("stages.metio.wtf/v1", "StageSet", "ns", "s");
	char *err = NULL;
	int rc = ssv_validate_spec(ss, spec_of(yaml_text), NULL, NOW, &err);

	CU_ASSERT_EQUAL(rc == SSV_OK, err == NULL);
	spec_done();
	obj_free(ss);
	return err;
}

/* Asserts ValidateSpec's outcome: @want NULL (valid), "" (some error) or the exact text. */
#define EXPECT(yaml_text, want)                                                                   \
	do {                                                                                      \
		char *got_ = validate(yaml_text);                                                 \
		const char *want_ = (want);                                                       \
		if (!want_) {                                                                     \
			if (got_)                                                                 \
				fprintf(stderr, "\nunexpected error: %s\n", got_);                 \
			CU_ASSERT_PTR_NULL(got_);                                                 \
		} else if (!got_) {                                                               \
			CU_FAIL("expected an error");                                             \
		} else if (*want_) {                                                              \
			if (strcmp(got_, want_) != 0)                                             \
				fprintf(stderr, "\n got: %s\nwant: %s\n", got_, want_);            \
			CU_ASSERT_STRING_EQUAL(got_, want_);                                      \
		}                                                                                 \
		free(got_);                                                                       \
	} while (0)

#define ERR "" /* some error, text not pinned */

/* One stage "s" with the given actions block (YAML flow text). */
static char *with_actions(const char *actions)
{
	return xasprintf("stages: [{name: s, sourceRef: {name: x}, actions: %s}]", actions);
}

#define EXPECT_ACTIONS(actions, want)               \
	do {                                        \
		char *y_ = with_actions(actions);   \
		EXPECT(y_, want);                   \
		free(y_);                           \
	} while (0)

/* ---- webhook_test.go ------------------------------------------------------------ */

static void test_validate_depends_on(void)
{
	const char *st = "stages: [{name: s, sourceRef: {name: x}}]\n";
	char y[512];

	snprintf(y, sizeof(y), "%sdependsOn: [{name: db}]", st);
	EXPECT(y, NULL);
	snprintf(y, sizeof(y), "%sdependsOn: [{name: db, minVersion: 2.0.0}]", st);
	EXPECT(y, NULL);
	snprintf(y, sizeof(y), "%sdependsOn: [{name: db}, {name: '', minVersion: 2.0.0}]", st);
	EXPECT(y, "spec.dependsOn[1]: name is required");
	snprintf(y, sizeof(y), "%sdependsOn: [{name: db, minVersion: two}]", st);
	EXPECT(y, "spec.dependsOn[0] (db): minVersion \"two\" is not a valid semver: invalid semantic version");
}

static void test_validate_stages(void)
{
	EXPECT_ACTIONS("{pre: [{name: a, patch: {}}]}", NULL);
	EXPECT_ACTIONS("{pre: [{name: a, wait: {}}]}", NULL);
	EXPECT_ACTIONS("{pre: [{name: a}]}",
		       "stage \"s\" action \"a\" (pre): exactly one of patch, http, wait, job, delete, apply must be set, "
		       "found 0");
	EXPECT_ACTIONS("{pre: [{name: a, patch: {}, wait: {}}]}",
		       "stage \"s\" action \"a\" (pre): exactly one of patch, http, wait, job, delete, apply must be set, "
		       "found 2");
	EXPECT_ACTIONS("{pre: [{name: a, patch: {}, http: {}, wait: {}, job: {}}]}",
		       "stage \"s\" action \"a\" (pre): exactly one of patch, http, wait, job, delete, apply must be set, "
		       "found 4");
	/* A null verb is a nil pointer: not counted. */
	EXPECT_ACTIONS("{pre: [{name: a, patch: null, wait: {}}]}", NULL);
}

static void test_validate_stages_stage_name_uniqueness(void)
{
	EXPECT("stages: [{name: app, sourceRef: {name: ea-1}}, {name: app, sourceRef: {name: ea-2}}]",
	       "stage name \"app\" is not unique; stage names must be unique within the StageSet");
	EXPECT("stages: [{name: app, sourceRef: {name: ea-1}}, {name: db, sourceRef: {name: ea-2}}]", NULL);
}

static void test_validate_stages_on_rollback(void)
{
	const char *st = "stages: [{name: s, sourceRef: {name: x}}]\nonRollback: ";
	char y[512];

	snprintf(y, sizeof(y), "%s[{name: disable-maintenance, job: {}}]", st);
	EXPECT(y, NULL);
	snprintf(y, sizeof(y), "%s[{name: bad}]", st);
	EXPECT(y, "onRollback action \"bad\": exactly one of patch, http, wait, job, delete, apply must be set, found 0");
	snprintf(y, sizeof(y), "%s[{name: bad, job: {}, http: {}}]", st);
	EXPECT(y, "onRollback action \"bad\": exactly one of patch, http, wait, job, delete, apply must be set, found 2");
	snprintf(y, sizeof(y), "%s[{name: '', wait: {}}]", st);
	EXPECT(y, "onRollback has an action with an empty name; action names identify the action in events and must "
		  "be set");
	snprintf(y, sizeof(y), "%s[{name: dup, wait: {}}, {name: dup, wait: {}}]", st);
	EXPECT(y, "onRollback has duplicate action name \"dup\"; action names must be unique");
	EXPECT("stages: [{name: s, sourceRef: {name: x}, actions: {pre: [{name: same, wait: {}}]}}]\n"
	       "onRollback: [{name: same, wait: {}}]",
	       NULL);
}

static void test_validate_stages_no_actions_and_every_phase(void)
{
	EXPECT("stages: [{name: s, sourceRef: {name: x}}]", NULL);
	EXPECT_ACTIONS("{}", NULL);
	EXPECT_ACTIONS("{pre: [{name: ok, patch: {}}], onFailure: [{name: bad}]}",
		       "stage \"s\" action \"bad\" (onFailure): exactly one of patch, http, wait, job, delete, apply must "
		       "be set, found 0");
}

static void test_validate_stages_action_name_uniqueness(void)
{
	EXPECT_ACTIONS("{pre: [{name: a, wait: {}}], post: [{name: b, wait: {}}], onFailure: [{name: c, wait: {}}]}",
		       NULL);
	EXPECT_ACTIONS("{pre: [{name: '', wait: {}}]}",
		       "stage \"s\" has an action with an empty name in pre; action names are the idempotency-ledger key "
		       "and must be set");
	EXPECT_ACTIONS("{pre: [{name: dup, wait: {}}, {name: dup, wait: {}}]}",
		       "stage \"s\" has duplicate action name \"dup\" (pre and pre); action names are the "
		       "idempotency-ledger key and must be unique across pre, post, and onFailure");
	EXPECT_ACTIONS("{pre: [{name: shared, wait: {}}], post: [{name: shared, wait: {}}]}",
		       "stage \"s\" has duplicate action name \"shared\" (pre and post); action names are the "
		       "idempotency-ledger key and must be unique across pre, post, and onFailure");
}

static void test_validate_spec_delete_verb_accepted(void)
{
	EXPECT_ACTIONS("{pre: [{name: drop, delete: {target: {kind: ConfigMap, name: x}}}]}", NULL);
}

static void test_validate_stages_producer_source_ref_requires_api_version(void)
{
	EXPECT("stages: [{name: app, sourceRef: {kind: JsonnetSnippet, name: dash}}]",
	       "stage \"app\" sourceRef: kind \"JsonnetSnippet\" is a producer reference and requires apiVersion (the "
	       "API group identifies the producer's ExternalArtifact back-pointer)");
	EXPECT("stages: [{name: app, sourceRef: {apiVersion: jaas.metio.wtf/v1, kind: JsonnetSnippet, name: dash}}]",
	       NULL);
	EXPECT("stages: [{name: app, sourceRef: {name: ea}}]", NULL);
	EXPECT("stages: [{name: app, sourceRef: {kind: ExternalArtifact, name: ea}}]", NULL);
	EXPECT("stages: [{name: app, sourceRef: {kind: GitRepository, name: repo}}]", NULL);
}

/* ---- ValidateUpdate ----------------------------------------------------------------- */

static struct obj *stageset(const char *spec_yaml)
{
	struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", "ns", "s");
	struct yl_stream s;
	struct diag d;

	diag_init(&d);
	CU_ASSERT_FATAL(yl_load_string("t", spec_yaml, strlen(spec_yaml), &s, &d) == 0);
	o->spec = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	return o;
}

static int update(const struct obj *old, const struct obj *new, char **err)
{
	struct sst_spec sp;
	char perr[256];
	int rc;

	CU_ASSERT_FATAL(sst_spec_parse(new->spec, &sp, perr, sizeof(perr)) == 0);
	rc = ssv_validate_update(old, new, &sp, NULL, NOW, err);
	sst_spec_release(&sp);
	return rc;
}

static const char *dup_stages = "stages: [{name: app, sourceRef: {name: ea-1}}, {name: app, sourceRef: {name: ea-2}}]";

static void test_validate_update_suspend_toggle_passes(void)
{
	struct obj *old = stageset(dup_stages), *suspended = stageset(dup_stages), *annotated = stageset(dup_stages);
	char *err;

	val_map_set(suspended->spec, "suspend", val_new_bool(true));
	CU_ASSERT_EQUAL(update(old, suspended, &err), SSV_OK);
	CU_ASSERT_PTR_NULL(err);
	obj_strmap_set(&annotated->annotations, "reconcile.fluxcd.io/requestedAt", "now");
	CU_ASSERT_EQUAL(update(old, annotated, &err), SSV_OK);
	/* A create (no old object) is validated. */
	CU_ASSERT_EQUAL(update(NULL, suspended, &err), SSV_EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "stage name \"app\" is not unique; stage names must be unique within the StageSet");
	free(err);
	obj_free(old);
	obj_free(suspended);
	obj_free(annotated);
}

static void test_validate_update_changing_validated_input(void)
{
	struct obj *old = stageset("stages: [{name: app, sourceRef: {name: ea-1}}]"), *updated = stageset(dup_stages);
	char *err;

	val_map_set(updated->spec, "suspend", val_new_bool(true));
	CU_ASSERT_EQUAL(update(old, updated, &err), SSV_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
	obj_free(old);
	obj_free(updated);
}

static void test_validate_update_deleting_is_admitted(void)
{
	struct obj *invalid = stageset(dup_stages);
	char *err;

	invalid->deletion_ms = 0;
	CU_ASSERT_EQUAL(update(invalid, invalid, &err), SSV_OK);
	CU_ASSERT_PTR_NULL(err);
	obj_free(invalid);
}

/* Deviation: the stored trees are compared, so another spelling of one value is a change. */
static void test_validation_inputs_compared_as_trees(void)
{
	struct obj *a = stageset("interval: 1m\nstages: [{name: s, sourceRef: {name: x}}]");
	struct obj *b = stageset("interval: 60s\nstages: [{name: s, sourceRef: {name: x}}]");
	struct obj *c = stageset("suspend: false\ninterval: 1m\nstages: [{name: s, sourceRef: {name: x}}]");
	struct obj *none = obj_new("stages.metio.wtf/v1", "StageSet", "ns", "s");

	CU_ASSERT_FALSE(ssv_validation_inputs_unchanged(a, b));
	CU_ASSERT(ssv_validation_inputs_unchanged(a, c));
	CU_ASSERT(ssv_validation_inputs_unchanged(c, a));
	CU_ASSERT(ssv_validation_inputs_unchanged(none, none));
	CU_ASSERT_FALSE(ssv_validation_inputs_unchanged(none, a));
	obj_free(a);
	obj_free(b);
	obj_free(c);
	obj_free(none);
}

/* ---- webhook_validate_test.go --------------------------------------------------------- */

#define ST "stages: [{name: s, sourceRef: {name: x}}]"
#define OK_SOURCE "{prometheus: {address: 'http://p:9090', query: q}}"
#define WEBHOOK_SOURCE "{webhook: {url: 'https://slo.example/api', jsonPath: '{.remaining}'}}"

static void test_validate_decryption(void)
{
	EXPECT(ST, NULL);
	EXPECT(ST "\ndecryption: {provider: sops}", NULL);
	EXPECT(ST "\ndecryption: {provider: sops, secretRef: {name: sops-keys}}", NULL);
	EXPECT(ST "\ndecryption: {provider: vault}", "spec.decryption.provider must be \"sops\", got \"vault\"");
	EXPECT(ST "\ndecryption: {provider: ''}", "spec.decryption.provider must be \"sops\", got \"\"");
	EXPECT(ST "\ndecryption: {provider: sops, secretRef: {name: ''}}",
	       "spec.decryption.secretRef.name must be set when secretRef is given");
}

static void test_validate_error_budget(void)
{
	EXPECT(ST "\nerrorBudget: {source: " OK_SOURCE ", freezeThreshold: '0'}", NULL);
	EXPECT(ST "\nerrorBudget: {source: " OK_SOURCE ", freezeThreshold: '0', resumeThreshold: '0.05', onSourceError: Hold}",
	       NULL);
	EXPECT(ST "\nerrorBudget: {source: {}, freezeThreshold: '0'}",
	       "spec.errorBudget.source must set exactly one of prometheus or webhook, found 0");
	EXPECT(ST "\nerrorBudget: {source: {prometheus: {address: '', query: q}}, freezeThreshold: '0'}",
	       "spec.errorBudget.source.prometheus.address must be set");
	EXPECT(ST "\nerrorBudget: {source: {prometheus: {address: 'http://p:9090', query: ''}}, freezeThreshold: '0'}",
	       "spec.errorBudget.source.prometheus.query must be set");
	EXPECT(ST "\nerrorBudget: {source: " OK_SOURCE ", freezeThreshold: x}",
	       "spec.errorBudget.freezeThreshold \"x\" is not a number");
	EXPECT(ST "\nerrorBudget: {source: " OK_SOURCE ", freezeThreshold: '0', resumeThreshold: 'y'}",
	       "spec.errorBudget.resumeThreshold \"y\" is not a number");
	EXPECT(ST "\nerrorBudget: {source: " OK_SOURCE ", freezeThreshold: '0.1', resumeThreshold: '0.05'}",
	       "spec.errorBudget.resumeThreshold (0.05) must be >= freezeThreshold (0.1)");
	EXPECT(ST "\nerrorBudget: {source: " OK_SOURCE ", freezeThreshold: '0', onSourceError: Maybe}",
	       "spec.errorBudget.onSourceError must be Allow or Hold, got \"Maybe\"");
	EXPECT(ST "\nerrorBudget: {source: {prometheus: {address: 'http://p:9090', query: q, secretRef: {name: ''}}}, "
		  "freezeThreshold: '0'}",
	       "spec.errorBudget.source.prometheus.secretRef.name must be set when secretRef is given");
}

static void test_validate_on_timeout(void)
{
	EXPECT("stages: [{name: one, sourceRef: {name: x}}]", NULL);
	EXPECT("onTimeout: Hold\nstages: [{name: one, sourceRef: {name: x}}]", NULL);
	EXPECT("onTimeout: Rollback\nstages: [{name: one, sourceRef: {name: x}}]", NULL);
	EXPECT("onTimeout: Rollback\nstages: [{name: one, sourceRef: {name: x}, onTimeout: Hold}]", NULL);
	EXPECT("onTimeout: Wait\nstages: [{name: one, sourceRef: {name: x}}]",
	       "spec.onTimeout must be Hold or Rollback, got \"Wait\"");
	EXPECT("stages: [{name: one, sourceRef: {name: x}, onTimeout: hold}]",
	       "stage \"one\" onTimeout must be Hold or Rollback, got \"hold\"");
}

static char *with_promotion(const char *promotion)
{
	return xasprintf("stages: [{name: staging, sourceRef: {name: x}, promotion: %s}]", promotion);
}

#define EXPECT_PROMOTION(promotion, want)            \
	do {                                         \
		char *y_ = with_promotion(promotion); \
		EXPECT(y_, want);                    \
		free(y_);                            \
	} while (0)

#define OK_CHECK "{name: err, source: " OK_SOURCE ", threshold: {max: '0.01'}}"

static void test_validate_promotion(void)
{
	EXPECT_PROMOTION("{}", NULL);
	EXPECT_PROMOTION("{analysis: {checks: [" OK_CHECK "]}}", NULL);
	EXPECT_PROMOTION("{analysis: {checks: [" OK_CHECK "], onFailure: Rollback, onSourceError: Allow}}", NULL);
	EXPECT_PROMOTION("{analysis: {checks: []}}", "stage \"staging\" promotion.analysis must declare at least one check");
	EXPECT_PROMOTION("{analysis: {checks: [{name: '', source: " OK_SOURCE ", threshold: {max: '0.01'}}]}}",
			 "stage \"staging\" promotion.analysis has a check with an empty name");
	EXPECT_PROMOTION("{analysis: {checks: [" OK_CHECK ", " OK_CHECK "]}}",
			 "stage \"staging\" promotion.analysis has duplicate check name \"err\"");
	EXPECT_PROMOTION("{analysis: {checks: [{name: x, threshold: {max: '0.01'}}]}}",
			 "stage \"staging\" promotion.analysis check \"x\" source must set exactly one of prometheus or "
			 "webhook, found 0");
	EXPECT_PROMOTION("{analysis: {checks: [{name: x, source: " OK_SOURCE ", threshold: {}}]}}",
			 "stage \"staging\" promotion.analysis check \"x\" must set at least one of threshold.min or "
			 "threshold.max");
	EXPECT_PROMOTION("{analysis: {checks: [{name: x, source: " OK_SOURCE ", threshold: {min: low}}]}}",
			 "stage \"staging\" check \"x\" threshold.min \"low\" is not a number");
	EXPECT_PROMOTION("{analysis: {checks: [{name: x, source: " OK_SOURCE ", threshold: {min: '0', max: high}}]}}",
			 "stage \"staging\" check \"x\" threshold.max \"high\" is not a number");
	EXPECT_PROMOTION("{analysis: {checks: [" OK_CHECK "], onFailure: Nuke}}",
			 "stage \"staging\" promotion.analysis.onFailure must be Hold or Rollback, got \"Nuke\"");
	EXPECT_PROMOTION("{analysis: {checks: [" OK_CHECK "], onSourceError: Maybe}}",
			 "stage \"staging\" promotion.analysis.onSourceError must be Hold or Allow, got \"Maybe\"");
}

static void test_validate_metric_source_union(void)
{
	static const struct {
		const char *src, *want;
	} cases[] = {
		{ OK_SOURCE, NULL },
		{ WEBHOOK_SOURCE, NULL },
		{ "{}", "src must set exactly one of prometheus or webhook, found 0" },
		{ "{prometheus: {address: 'http://p:9090', query: q}, webhook: {url: 'https://x', jsonPath: '{.x}'}}",
		  "src must set exactly one of prometheus or webhook, found 2" },
		{ "{webhook: {url: '', jsonPath: '{.x}'}}", "src.webhook.url must be set" },
		{ "{webhook: {url: 'https://x', jsonPath: ''}}", "src.webhook.jsonPath must be set" },
		{ "{webhook: {url: 'https://x', jsonPath: '{.x}', secretRef: {name: ''}}}",
		  "src.webhook.secretRef.name must be set when secretRef is given" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *y = xasprintf("stages: [{name: s, sourceRef: {name: x}, errorBudget: {source: %s, freezeThreshold: '0'}}]",
				    cases[i].src);
		char *err = ssv_validate_metric_source("src", &spec_of(y)->stages[0].error_budget.source);

		if (cases[i].want) {
			CU_ASSERT_PTR_NOT_NULL_FATAL(err);
			CU_ASSERT_STRING_EQUAL(err, cases[i].want);
		} else {
			CU_ASSERT_PTR_NULL(err);
		}
		free(err);
		spec_done();
		free(y);
	}
}

static void test_validate_promotion_fast_track(void)
{
	EXPECT_PROMOTION("{soak: 1m, fastTrack: {source: " OK_SOURCE ", max: '1'}}", NULL);
	EXPECT_PROMOTION("{fastTrack: {source: " OK_SOURCE ", max: '1'}}",
			 "stage \"staging\" promotion.fastTrack requires a soak to shorten");
	EXPECT_PROMOTION("{soak: 0s, fastTrack: {source: " OK_SOURCE ", max: '1'}}",
			 "stage \"staging\" promotion.fastTrack requires a soak to shorten");
	EXPECT_PROMOTION("{soak: 1m, fastTrack: {source: {}, max: '1'}}",
			 "stage \"staging\" promotion.fastTrack.source must set exactly one of prometheus or webhook, found 0");
	EXPECT_PROMOTION("{soak: 1m, fastTrack: {source: " OK_SOURCE ", max: fast}}",
			 "stage \"staging\" promotion.fastTrack.max \"fast\" is not a number");
}

#define SEL "{matchLabels: {app: api}}"

static void test_validate_promotion_restart_gate(void)
{
	EXPECT_PROMOTION("{restartGate: {checks: [{name: api, selector: " SEL "}]}}", NULL);
	EXPECT_PROMOTION("{restartGate: {onFailure: Rollback, checks: [{name: api, selector: " SEL "}]}}", NULL);
	EXPECT_PROMOTION("{restartGate: {checks: [{name: '', selector: " SEL "}]}}",
			 "stage \"staging\" promotion.restartGate has a check with an empty name");
	EXPECT_PROMOTION("{restartGate: {checks: [{name: api, selector: {}}]}}",
			 "stage \"staging\" promotion.restartGate check \"api\" selector must match at least one label");
	EXPECT_PROMOTION("{restartGate: {checks: [{name: api}]}}",
			 "stage \"staging\" promotion.restartGate check \"api\" selector must match at least one label");
	EXPECT_PROMOTION("{restartGate: {checks: [{name: api, selector: " SEL "}, {name: api, selector: " SEL "}]}}",
			 "stage \"staging\" promotion.restartGate has duplicate check name \"api\"");
	EXPECT_PROMOTION("{restartGate: {onFailure: Hold, checks: []}}",
			 "stage \"staging\" promotion.restartGate must declare at least one check");
	EXPECT_PROMOTION("{restartGate: {onFailure: Nope, checks: [{name: api, selector: " SEL "}]}}",
			 "stage \"staging\" promotion.restartGate.onFailure must be Hold or Rollback, got \"Nope\"");
	EXPECT_PROMOTION("{restartGate: {checks: [{name: api, selector: " SEL ", onFailure: Nope}]}}",
			 "stage \"staging\" promotion.restartGate check \"api\" onFailure must be Hold or Rollback, got \"Nope\"");
	EXPECT_PROMOTION("{restartGate: {checks: [{name: api, selector: {matchExpressions: [{key: app, operator: Foo}]}}]}}",
			 "stage \"staging\" promotion.restartGate check \"api\" has an invalid selector: \"Foo\" is not a "
			 "valid label selector operator");
}

static void test_validate_promotion_event_gate(void)
{
	EXPECT_PROMOTION("{eventGate: {checks: [{name: api, selector: " SEL ", reasons: [FailedScheduling]}]}}", NULL);
	EXPECT_PROMOTION("{eventGate: {onFailure: Rollback, checks: [{name: api, selector: " SEL ", reasons: [OOMKilling]}]}}",
			 NULL);
	EXPECT_PROMOTION("{eventGate: {checks: [{name: '', selector: " SEL ", reasons: [OOMKilling]}]}}",
			 "stage \"staging\" promotion.eventGate has a check with an empty name");
	EXPECT_PROMOTION("{eventGate: {checks: [{name: api, selector: {}, reasons: [OOMKilling]}]}}",
			 "stage \"staging\" promotion.eventGate check \"api\" selector must match at least one label");
	EXPECT_PROMOTION("{eventGate: {checks: [{name: api, selector: " SEL "}]}}",
			 "stage \"staging\" promotion.eventGate check \"api\" must name at least one event reason");
	EXPECT_PROMOTION("{eventGate: {checks: [{name: api, selector: " SEL ", reasons: [OOMKilling]}, {name: api, "
			 "selector: " SEL ", reasons: [OOMKilling]}]}}",
			 "stage \"staging\" promotion.eventGate has duplicate check name \"api\"");
	EXPECT_PROMOTION("{eventGate: {onFailure: Hold, checks: []}}",
			 "stage \"staging\" promotion.eventGate must declare at least one check");
	EXPECT_PROMOTION("{eventGate: {onFailure: Nope, checks: [{name: api, selector: " SEL ", reasons: [OOMKilling]}]}}",
			 "stage \"staging\" promotion.eventGate.onFailure must be Hold or Rollback, got \"Nope\"");
	EXPECT_PROMOTION("{eventGate: {checks: [{name: api, selector: " SEL ", reasons: [OOMKilling], onFailure: Nope}]}}",
			 "stage \"staging\" promotion.eventGate check \"api\" onFailure must be Hold or Rollback, got \"Nope\"");
}

static void test_validate_error_budget_per_stage(void)
{
	EXPECT("stages: [{name: prod, sourceRef: {name: x}, errorBudget: {source: " WEBHOOK_SOURCE ", freezeThreshold: '0.1'}}]",
	       NULL);
	EXPECT("stages: [{name: prod, sourceRef: {name: x}, errorBudget: {source: " WEBHOOK_SOURCE
	       ", freezeThreshold: '0.1', resumeThreshold: '0.05'}}]",
	       "stage \"prod\" errorBudget.resumeThreshold (0.05) must be >= freezeThreshold (0.1)");
}

static void test_validate_kube_config(void)
{
	EXPECT(ST, NULL);
	EXPECT(ST "\nkubeConfig: {secretRef: {name: remote-kubeconfig}}", NULL);
	EXPECT(ST "\nkubeConfig: {configMapRef: {name: cloud-auth}}", NULL);
	EXPECT(ST "\nkubeConfig: {configMapRef: {name: ''}}", "spec.kubeConfig.configMapRef.name must be set");
	EXPECT(ST "\nkubeConfig: {secretRef: {name: ''}}", "spec.kubeConfig.secretRef.name must be set");
	EXPECT(ST "\nkubeConfig: {secretRef: {name: s}, configMapRef: {name: c}}",
	       "spec.kubeConfig must set exactly one of secretRef or configMapRef, not both");
	EXPECT(ST "\nkubeConfig: {}", "spec.kubeConfig must set one of secretRef or configMapRef");
}

static char *migration_spec(const char *actions)
{
	return xasprintf("version: {value: 1.0.0}\nstages: [{name: s, sourceRef: {name: x}}]\n"
			 "migrations: [{name: m, to: 2.0.0, stage: s%s%s}]",
			 *actions ? ", actions: " : "", actions);
}

#define EXPECT_MIGRATION(actions, want)                \
	do {                                           \
		char *y_ = migration_spec(actions);    \
		EXPECT(y_, want);                      \
		free(y_);                              \
	} while (0)

static void test_validate_migrations_action_oneof(void)
{
	EXPECT_MIGRATION("[{name: drop, delete: {target: {kind: ConfigMap, name: legacy}}}]", NULL);
	EXPECT_MIGRATION("", NULL);
	EXPECT_MIGRATION("[{name: noop}]", ERR);
	EXPECT_MIGRATION("[{name: two, delete: {target: {kind: ConfigMap, name: legacy}}, wait: {}}]", ERR);
	EXPECT_MIGRATION("[{name: '', delete: {target: {kind: ConfigMap, name: legacy}}}]", ERR);
	EXPECT_MIGRATION("[{name: dup, delete: {target: {kind: ConfigMap, name: legacy}}}, {name: dup, wait: {}}]", ERR);
}

static void test_validate_migrations_inline_duplicate_names(void)
{
	EXPECT("version: {value: 1.0.0}\nstages: [{name: s, sourceRef: {name: x}}]\n"
	       "migrations: [{name: cleanup, to: 1.5.0}, {name: cleanup, to: 2.0.0}]",
	       "duplicate migration name \"cleanup\"; names are the idempotency-ledger key and must be unique");
	EXPECT("version: {value: 1.0.0}\nstages: [{name: s, sourceRef: {name: x}}]\n"
	       "migrations: [{name: cleanup, to: 1.5.0}, {name: finalize, to: 2.0.0}]",
	       NULL);
}

static void test_validate_migrations_source_and_anchors(void)
{
	const char *src = "migrationsSourceRef: {sourceRef: {name: ladder}}";
	char y[1024], m[128];

	EXPECT("stages: [{name: deploy, sourceRef: {name: x}}]", NULL);
	snprintf(m, sizeof(m), "migrations: [{name: m, to: 2.0.0, stage: %s}]", "deploy");
	snprintf(y, sizeof(y), "version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}}]\n%s\n%s", m, src);
	EXPECT(y, "spec.migrations and spec.migrationsSourceRef are mutually exclusive");
	snprintf(y, sizeof(y), "stages: [{name: deploy, sourceRef: {name: x}}]\n%s", src);
	EXPECT(y, "migrations require spec.version");
	snprintf(y, sizeof(y), "version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}}]\n%s", src);
	EXPECT(y, NULL);
	EXPECT("version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}}]\n"
	       "migrationsSourceRef: {sourceRef: {name: ladder, namespace: other}}",
	       "spec.migrationsSourceRef must reference a source in the StageSet's own namespace; cross-namespace "
	       "migration sources are not allowed");
	EXPECT("version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}}]\n"
	       "migrationsSourceRef: {sourceRef: {name: ladder, namespace: ns}}",
	       NULL);
	snprintf(y, sizeof(y), "stages: [{name: deploy, sourceRef: {name: x}}]\n%s", m);
	EXPECT(y, "migrations require spec.version");
	EXPECT("version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}}]\n"
	       "migrations: [{name: m, to: 2.0.0}]",
	       NULL);
	EXPECT("version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}, migrationAnchor: db-pre}]\n"
	       "migrations: [{name: m, to: 2.0.0, stage: db-pre}]",
	       NULL);
	EXPECT("version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}}]\n"
	       "migrations: [{name: m, to: 2.0.0, stage: nope}]",
	       "migration \"m\" anchors to unknown stage or anchor \"nope\"");
	EXPECT("version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}}, {name: verify, sourceRef: "
	       "{name: x}, migrationAnchor: deploy}]\nmigrations: [{name: m, to: 2.0.0, stage: deploy}]",
	       "stage \"verify\" migrationAnchor \"deploy\" collides with another stage name or migrationAnchor");
	/* Stage names repeat: ValidateStages reports it first. */
	EXPECT("version: {value: 1.0.0}\nstages: [{name: deploy, sourceRef: {name: x}}, {name: deploy, sourceRef: "
	       "{name: \"y\"}}]\nmigrations: [{name: m, to: 2.0.0}]",
	       "stage name \"deploy\" is not unique; stage names must be unique within the StageSet");
	/* An anchor that names a later stage collides with that stage's name. */
	EXPECT("version: {value: 1.0.0}\nstages: [{name: a, sourceRef: {name: x}, migrationAnchor: b}, {name: b, "
	       "sourceRef: {name: x}}]\nmigrations: [{name: m, to: 2.0.0}]",
	       "stage name \"b\" collides with another stage name or migrationAnchor");
}

/* ---- action_scope_validate_test.go ---------------------------------------------------- */

static char *scope_spec(const char *version, const char *actions, const char *on_rollback)
{
	return xasprintf("%s%s%sstages: [{name: app, sourceRef: {name: ea}%s%s}]%s%s", *version ? "version: {value: " : "",
			 version, *version ? "}\n" : "", *actions ? ", actions: " : "", actions,
			 *on_rollback ? "\nonRollback: " : "", on_rollback);
}

#define EXPECT_SCOPE(version, actions, on_rollback, want)                 \
	do {                                                              \
		char *y_ = scope_spec(version, actions, on_rollback);     \
		EXPECT(y_, want);                                         \
		free(y_);                                                 \
	} while (0)

#define HTTP(name, scope) "{name: " name ", scope: " scope ", http: {url: 'http://x/y'}}"
#define ANCHOR "completionAnchor: {apiVersion: v1, kind: PersistentVolumeClaim, name: db}"

static void test_validate_spec_action_scope(void)
{
	EXPECT_SCOPE("1.0.0", "{pre: [" HTTP("upgrade", "Version") "]}", "", NULL);
	EXPECT_SCOPE("1.0.0", "{post: [" HTTP("upgrade", "Version") "]}", "", NULL);
	EXPECT_SCOPE("", "{pre: [" HTTP("check", "Revision") "]}", "", NULL);
	EXPECT_SCOPE("", "{pre: [" HTTP("upgrade", "Version") "]}", "",
		     "stage \"app\" action \"upgrade\" sets scope: Version but spec.version is unset; version-scoped "
		     "actions require a version to key on");
	EXPECT_SCOPE("1.0.0", "{onFailure: [" HTTP("cleanup", "Version") "]}", "",
		     "stage \"app\" onFailure action \"cleanup\" sets scope; scope is valid only on pre/post actions, and "
		     "onFailure is ledger-exempt");
	EXPECT_SCOPE("1.0.0", "", "[" HTTP("revert", "Revision") "]",
		     "onRollback action \"revert\" sets scope; scope is valid only on a stage's pre/post actions, and "
		     "onRollback is ledger-exempt");
	EXPECT_SCOPE("", "{pre: [" HTTP("bootstrap", "Lifetime") "]}", "", NULL);
	EXPECT_SCOPE("1.0.0", "{post: [" HTTP("install-database", "Lifetime") "]}", "", NULL);
	EXPECT_SCOPE("1.0.0", "{onFailure: [" HTTP("cleanup", "Lifetime") "]}", "", ERR);
	EXPECT_SCOPE("1.0.0", "", "[" HTTP("revert", "Lifetime") "]", ERR);
	EXPECT_SCOPE("1.0.0", "{pre: [" HTTP("x", "Bogus") "]}", "",
		     "stage \"app\" action \"x\" (pre): unknown scope \"Bogus\"; must be Revision, Version, or Lifetime");
	EXPECT_SCOPE("1.0.0", "{post: [{name: boot, scope: Lifetime, http: {url: 'http://x/y'}, " ANCHOR "}]}", "", NULL);
	EXPECT_SCOPE("1.0.0", "{post: [{name: boot, scope: Revision, http: {url: 'http://x/y'}, " ANCHOR "}]}", "",
		     "stage \"app\" action \"boot\" (post): completionAnchor is valid only on a scope: Lifetime action");
	EXPECT_SCOPE("1.0.0",
		     "{post: [{name: boot, scope: Lifetime, http: {url: 'http://x/y'}, completionAnchor: {apiVersion: v1, "
		     "kind: PersistentVolumeClaim, name: ''}}]}",
		     "", "stage \"app\" action \"boot\" (post): completionAnchor requires apiVersion, kind, and name");
	EXPECT_SCOPE("1.0.0", "", "[{name: revert, http: {url: 'http://x/y'}, " ANCHOR "}]",
		     "onRollback action \"revert\" sets completionAnchor; it is valid only on a scope: Lifetime pre/post "
		     "action");
}

static void test_validate_spec_scope_and_anchor_on_migration_rejected(void)
{
	EXPECT("version: {value: 2.0.0}\nstages: [{name: app, sourceRef: {name: ea}}]\n"
	       "migrations: [{name: m1, to: 2.0.0, actions: [" HTTP("scoped-in-migration", "Version") "]}]",
	       ERR);
	EXPECT("version: {value: 2.0.0}\nstages: [{name: app, sourceRef: {name: ea}}]\n"
	       "migrations: [{name: m1, to: 2.0.0, actions: [{name: anchored-in-migration, http: {url: 'http://x/y'}, " ANCHOR
	       "}]}]",
	       ERR);
}

/* ---- version, ready checks, windows, order ---------------------------------------------- */

static void test_validate_version(void)
{
	EXPECT("version: {value: 1.0.0}\n" ST, NULL);
	EXPECT("version: {fromArtifact: {stage: s, path: VERSION}}\n" ST, NULL);
	EXPECT("version: {fromObject: {kind: ConfigMap, name: app}}\n" ST, NULL);
	EXPECT("version: {}\n" ST, "spec.version must set exactly one of value, fromObject, or fromArtifact, found 0");
	EXPECT("version: {value: 1.0.0, fromObject: {kind: ConfigMap, name: app}}\n" ST,
	       "spec.version must set exactly one of value, fromObject, or fromArtifact, found 2");
}

static void test_validate_ready_checks(void)
{
	EXPECT("stages: [{name: s, sourceRef: {name: x}, readyChecks: {checks: [{kind: Deployment, name: web}]}}]", NULL);
	EXPECT("stages: [{name: s, sourceRef: {name: x}, readyChecks: {checks: [{kind: Deployment, name: web}, "
	       "{kind: '', name: db}]}}]",
	       "stage \"s\" readyChecks.checks[1]: kind and name are required");
	EXPECT("stages: [{name: s, sourceRef: {name: x}, readyChecks: {exprs: [{apiVersion: a/b/c, kind: Widget, "
	       "current: 'true'}]}}]",
	       "stage \"s\" readyChecks.exprs[0] apiVersion \"a/b/c\": unexpected GroupVersion string: a/b/c");
	EXPECT("stages: [{name: s, sourceRef: {name: x}, readyChecks: {exprs: [{apiVersion: apps/v1, kind: Deployment}, "
	       "{apiVersion: v1, kind: Pod}, {apiVersion: '', kind: X}, {apiVersion: /, kind: Y}]}}]",
	       NULL);
}

/* Deviation 1: no CEL here, so any expression text compiles (upstream refuses malformed CEL). */
static void test_validate_ready_checks_cel_not_compiled(void)
{
	EXPECT("stages: [{name: s, sourceRef: {name: x}, readyChecks: {exprs: [{apiVersion: apps/v1, kind: Deployment, "
	       "current: 'status.readyReplicas ==', inProgress: ')(', failed: 'not cel at all'}]}}]",
	       NULL);
}

static void test_validate_update_windows(void)
{
	EXPECT(ST "\nupdateWindows: [{type: Deny, from: '2020-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z'}]", NULL);
	EXPECT(ST "\nupdateWindows: [{type: Deny, from: '2030-01-01T00:00:00Z', to: '2020-01-01T00:00:00Z'}]",
	       "absolute update window to must be after from");
	EXPECT(ST "\nupdateWindows: [{type: Allow, schedule: '0 9 * * 1-5'}]",
	       "recurring update window requires both schedule and duration");
	EXPECT(ST "\nupdateWindows: [{type: Allow}]", "update window sets neither a schedule+duration nor from+to");
	/* Time zones come from the world; without one, the zone is unknown. */
	EXPECT(ST "\nupdateWindows: [{type: Allow, schedule: '0 9 * * *', duration: 8h, timeZone: Europe/Berlin}]", ERR);
}

/* The first failing helper wins, in ValidateSpec's order. */
static void test_validate_spec_order(void)
{
	/* stages before migrations before version ... before windows */
	EXPECT("version: {}\nonTimeout: Wait\nstages: [{name: a, sourceRef: {name: x}, actions: {pre: [{name: \"n\"}]}}]\n"
	       "updateWindows: [{type: Allow}]",
	       "stage \"a\" action \"n\" (pre): exactly one of patch, http, wait, job, delete, apply must be set, found 0");
	EXPECT("version: {}\nonTimeout: Wait\nstages: [{name: a, sourceRef: {name: x}}]\nupdateWindows: [{type: Allow}]",
	       "spec.version must set exactly one of value, fromObject, or fromArtifact, found 0");
	EXPECT("onTimeout: Wait\nstages: [{name: a, sourceRef: {name: x}}]\ndependsOn: [{name: ''}]\n"
	       "updateWindows: [{type: Allow}]",
	       "spec.onTimeout must be Hold or Rollback, got \"Wait\"");
	EXPECT("stages: [{name: a, sourceRef: {name: x}}]\ndependsOn: [{name: ''}]\nupdateWindows: [{type: Allow}]",
	       "spec.dependsOn[0]: name is required");
	/* errorBudget before promotion before readyChecks */
	EXPECT("errorBudget: {source: {}, freezeThreshold: '0'}\nstages: [{name: a, sourceRef: {name: x}, promotion: "
	       "{analysis: {checks: []}}, readyChecks: {checks: [{kind: '', name: ''}]}}]",
	       "spec.errorBudget.source must set exactly one of prometheus or webhook, found 0");
	EXPECT("stages: [{name: a, sourceRef: {name: x}, promotion: {analysis: {checks: []}}, readyChecks: {checks: "
	       "[{kind: '', name: ''}]}}]",
	       "stage \"a\" promotion.analysis must declare at least one check");
	/* decryption before kubeConfig before budgets */
	EXPECT("decryption: {provider: x}\nkubeConfig: {}\nerrorBudget: {source: {}, freezeThreshold: '0'}\n" ST,
	       "spec.decryption.provider must be \"sops\", got \"x\"");
	EXPECT("kubeConfig: {}\nerrorBudget: {source: {}, freezeThreshold: '0'}\n" ST,
	       "spec.kubeConfig must set one of secretRef or configMapRef");
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "ValidateDependsOn", test_validate_depends_on },
		{ "ValidateStages: the action oneof", test_validate_stages },
		{ "ValidateStages_StageNameUniqueness", test_validate_stages_stage_name_uniqueness },
		{ "ValidateStages_OnRollback", test_validate_stages_on_rollback },
		{ "ValidateStages_NoActions, _ChecksEveryPhase", test_validate_stages_no_actions_and_every_phase },
		{ "ValidateStages_ActionNameUniqueness", test_validate_stages_action_name_uniqueness },
		{ "ValidateSpec_DeleteVerbAccepted", test_validate_spec_delete_verb_accepted },
		{ "ValidateStages_ProducerSourceRefRequiresAPIVersion", test_validate_stages_producer_source_ref_requires_api_version },
		{ "ValidateUpdate_SuspendTogglePassesDespiteStaleViolation", test_validate_update_suspend_toggle_passes },
		{ "ValidateUpdate_ChangingValidatedInputStillValidated", test_validate_update_changing_validated_input },
		{ "ValidateUpdate_DeletingObjectIsAdmitted", test_validate_update_deleting_is_admitted },
		{ "validationInputsUnchanged: stored trees compared (deviation)", test_validation_inputs_compared_as_trees },
		{ "ValidateDecryption", test_validate_decryption },
		{ "ValidateErrorBudget", test_validate_error_budget },
		{ "ValidateOnTimeout", test_validate_on_timeout },
		{ "ValidatePromotion", test_validate_promotion },
		{ "ValidateMetricSource_Union", test_validate_metric_source_union },
		{ "ValidatePromotion_FastTrack", test_validate_promotion_fast_track },
		{ "ValidatePromotion_RestartGate", test_validate_promotion_restart_gate },
		{ "ValidatePromotion_EventGate", test_validate_promotion_event_gate },
		{ "ValidateErrorBudget_PerStage", test_validate_error_budget_per_stage },
		{ "ValidateKubeConfig", test_validate_kube_config },
		{ "ValidateMigrations_ActionOneof", test_validate_migrations_action_oneof },
		{ "ValidateMigrations_InlineDuplicateNames", test_validate_migrations_inline_duplicate_names },
		{ "ValidateMigrations_SourceAndAnchors", test_validate_migrations_source_and_anchors },
		{ "ValidateSpec_ActionScope", test_validate_spec_action_scope },
		{ "ValidateSpec_ScopeOnMigrationActionRejected, _CompletionAnchorOnMigrationRejected",
		  test_validate_spec_scope_and_anchor_on_migration_rejected },
		{ "validateVersion", test_validate_version },
		{ "validateReadyChecks: checks need kind and name, exprs a GroupVersion", test_validate_ready_checks },
		{ "validateReadyChecks: CEL expressions are not compiled (deviation)", test_validate_ready_checks_cel_not_compiled },
		{ "window.Validate is ValidateSpec's last check", test_validate_update_windows },
		{ "ValidateSpec: the first failure in upstream order wins", test_validate_spec_order },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("stageset_validate", tests);
}
