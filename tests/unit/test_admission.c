/* Tests for sim/cluster/admission and sim/load/manifest: upstream samples, §1.6 outcomes, Lists, duplicates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/cluster/admission.h"
#include "sim/base/diag.h"
#include "sim/load/manifest.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"


static struct man_set set;
static struct diag dg;

static void reset(void)
{
	man_set_release(&set);
	man_set_init(&set);
	diag_release(&dg);
	diag_init(&dg);
}

/* Loads @text as "m.yaml" and admits its documents into a fresh set. */
static int admit(const char *text)
{
	struct yl_stream st;
	int rc;

	reset();
	rc = yl_load_string("m.yaml", text, strlen(text), &st, &dg);
	CU_ASSERT_EQUAL(rc, 0);
	if (man_load_docs(&st, &set, &dg) < 0)
		rc = -1;
	yl_stream_release(&st);
	if (getenv("TEST_VERBOSE"))
		diag_print(&dg, stderr, false);
	return rc;
}

/* The diagnostic @i of dg as printed, or "" when there are fewer (see fx_diag_item()). */
static const char *item(size_t i)
{
	return fx_diag_item(&dg, i);
}

static const char ws_head[] = "apiVersion: magosproject.io/v1alpha1\n"
			      "kind: Workspace\n"
			      "metadata:\n"
			      "  name: demo-dev\n"
			      "spec:\n"
			      "  projectRef: {name: demo-project}\n";

static void test_upstream_samples_accepted(void)
{
	static const char *const files[] = {
		"project.yaml",
		"rollout.yaml",
		"validatingpolicy-require-byte-length-1.yaml",
		"validatingpolicy-require-byte-length-2.yaml",
		"workspace-dev.yaml",
		"workspace-prod.yaml",
		"workspace-staging.yaml",
	};
	const struct obj *o;
	char path[4200];

	reset();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/magos-samples/%s", cu_shared(), files[i]);
		CU_ASSERT_EQUAL(man_load_file(path, &set, &dg), 0);
	}
	for (size_t i = 0; i < dg.n; i++)
		fprintf(stderr, "unexpected: %s\n", item(i));
	CU_ASSERT_EQUAL(dg.n, 0);
	CU_ASSERT_EQUAL_FATAL(set.n, 7);
	o = man_find(&set, "Workspace", "default", "demo-dev");
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT_STRING_EQUAL(o->api_version, "magosproject.io/v1alpha1");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->labels, "env"), "dev");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->annotations, "magosproject.io/reconcile-interval"),
			       "120s");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "terraform.version"), "?"), "1.14.8");
	CU_ASSERT_TRUE(val_bool(val_path(o->spec, "autoApply"), false)); /* defaulted */
	CU_ASSERT_EQUAL(o->status, NULL);
	CU_ASSERT_EQUAL(o->generation, 1);
	snprintf(path, sizeof(path), "%s/magos-samples/workspace-dev.yaml", cu_shared());
	CU_ASSERT_STRING_EQUAL(o->src.file, path);
	CU_ASSERT_EQUAL(o->src.mark.line, 1);
	o = man_find(&set, "Rollout", "default", "demo-project");
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT_EQUAL(val_path(o->spec, "strategy.steps")->u.list.n, 3);
	/* Cluster-scoped: the policy has no namespace. */
	o = man_find(&set, "ValidatingPolicy", "", "require-random-id-byte-length-2");
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->labels, "policy.magosproject.io/category"),
			       "security-2");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "evaluation.mode"), "?"), "JSON");
	CU_ASSERT_PTR_NOT_NULL(man_find(&set, "Project", "default", "demo-project"));
}

static void test_workspace_defaults(void)
{
	char text[1024];
	const struct obj *o;

	snprintf(text, sizeof(text), "%s  source: {repoURL: r, targetRevision: main}\n  terraform: {version: \"1.10\"}\n",
		 ws_head);
	CU_ASSERT_EQUAL(admit(text), 0);
	CU_ASSERT_EQUAL_FATAL(set.n, 1);
	o = set.objs[0];
	CU_ASSERT_STRING_EQUAL(o->ns, "default");
	CU_ASSERT_EQUAL(val_path(o->spec, "autoApply")->type, VAL_BOOL);
	CU_ASSERT_TRUE(val_path(o->spec, "autoApply")->u.b);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "serviceAccountName"), "?"), "magos-job");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "source.path"), "?"), ".");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "terraform.version"), "?"), "1.10");
}

static void test_workspace_rejections(void)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s  source: {targetRevision: main}\n  terraform: {version: 1.10}\n  autoApply: \"yes\"\n  foo: 1\n",
		 ws_head);
	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(set.n, 0);
	CU_ASSERT_EQUAL(dg.n, 6);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:7:11: error: Workspace \"default/demo-dev\": spec.source.repoURL: Required value");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "m.yaml:8:24: error: Workspace \"default/demo-dev\": spec.terraform.version: Invalid value: \"number\": spec.terraform.version in body must be of type string: 1.10");
	CU_ASSERT_STRING_EQUAL(item(2),
			       "m.yaml:8:24: note: YAML reads 1.10 as a number: quote it (\"1.10\") if a string is meant; the cluster rejects the unquoted form too");
	CU_ASSERT_STRING_EQUAL(item(3),
			       "m.yaml:9:14: error: Workspace \"default/demo-dev\": spec.autoApply: Invalid value: \"string\": spec.autoApply in body must be of type boolean: \"yes\"");
	CU_ASSERT_STRING_EQUAL(item(4), "m.yaml:10:3: error: Workspace \"default/demo-dev\": unknown field \"spec.foo\"");
	CU_ASSERT_STRING_EQUAL(item(5),
			       "m.yaml:10:3: note: accepted fields: annotations, apply, autoApply, plan, projectRef, serviceAccountName, source, terraform, validation");

	CU_ASSERT_EQUAL(admit("apiVersion: magosproject.io/v1alpha1\nkind: Workspace\nmetadata: {name: w, namespace: team-a}\n"
			      "spec:\n  projectRef: {name: \"\"}\n  source: {repoURL: r, targetRevision: main}\n  terraform: {}\n"),
			-1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:5:22: error: Workspace \"team-a/w\": spec.projectRef.name: Invalid value: \"\": spec.projectRef.name in body should be at least 1 chars long");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "m.yaml:7:14: error: Workspace \"team-a/w\": spec.terraform.version: Required value");
}

static void test_rollout_cel(void)
{
	static const char text[] = "apiVersion: magosproject.io/v1alpha1\n"
				   "kind: Rollout\n"
				   "metadata:\n"
				   "  name: other\n"
				   "spec:\n"
				   "  projectRef: demo-project\n"
				   "  strategy: {steps: []}\n";

	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:1:1: error: Rollout \"default/other\": Invalid value: \"object\": Rollout name must exactly match the projectRef it targets to ensure 1-to-1 mapping");
	/* Empty steps are accepted; an unknown operator too (the controller fails on it later). */
	CU_ASSERT_EQUAL(admit("apiVersion: magosproject.io/v1alpha1\nkind: Rollout\nmetadata: {name: p}\n"
			      "spec:\n  projectRef: p\n  strategy:\n    steps:\n    - name: s\n      selector:\n"
			      "        matchExpressions: [{key: env, operator: Like, values: [dev]}]\n"),
			0);
	CU_ASSERT_EQUAL(admit("apiVersion: magosproject.io/v1alpha1\nkind: Rollout\nmetadata: {name: p}\nspec:\n  projectRef: p\n  strategy: {steps: []}\n"),
			0);
	CU_ASSERT_EQUAL(set.n, 1);
}

static void test_fleet_rollout(void)
{
	static const char ok[] = "apiVersion: stages.metio.wtf/v1\n"
				 "kind: FleetRollout\n"
				 "metadata: {name: fleet, namespace: ignored}\n"
				 "spec:\n"
				 "  selector: {matchLabels: {app: web}}\n"
				 "  waves:\n"
				 "  - name: canary\n"
				 "    selector: {}\n"
				 "    soak: 30m\n"
				 "    gate:\n"
				 "      source: {prometheus: {address: http://prom:9090, query: up}}\n"
				 "      threshold: {max: \"0.01\"}\n";
	static const char bad[] = "apiVersion: stages.metio.wtf/v1\n"
				  "kind: FleetRollout\n"
				  "metadata: {name: fleet}\n"
				  "spec:\n"
				  "  selector: {}\n"
				  "  onRegression: Rollback\n"
				  "  waves: [{name: a, selector: {}}]\n"
				  "---\n"
				  "apiVersion: stages.metio.wtf/v1\n"
				  "kind: FleetRollout\n"
				  "metadata: {name: fleet2}\n"
				  "spec:\n"
				  "  selector: {}\n"
				  "  onRegression: Foo\n"
				  "  waves: []\n";
	const struct obj *o;

	CU_ASSERT_EQUAL(admit(ok), 0);
	CU_ASSERT_EQUAL_FATAL(set.n, 1);
	o = set.objs[0];
	CU_ASSERT_STRING_EQUAL(o->ns, "");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "onRegression"), "?"), "Halt");
	CU_ASSERT_PTR_NOT_NULL(man_find(&set, "FleetRollout", NULL, "fleet"));

	CU_ASSERT_EQUAL(admit(bad), -1);
	CU_ASSERT_EQUAL(dg.n, 3);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:5:3: error: FleetRollout \"fleet\": spec: Invalid value: \"object\": previousVersion is required when onRegression is Rollback");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "m.yaml:14:17: error: FleetRollout \"fleet2\": spec.onRegression: Unsupported value: \"Foo\": supported values: \"Halt\", \"Rollback\"");
	CU_ASSERT_STRING_EQUAL(item(2),
			       "m.yaml:15:10: error: FleetRollout \"fleet2\": spec.waves: Invalid value: 0: spec.waves in body should have at least 1 items");
}

/* spec.waves is a plain list; status.waves and status.conditions are list-maps. */
static void test_list_map_keys(void)
{
	static const char dup[] = "apiVersion: stages.metio.wtf/v1\n"
				  "kind: FleetRollout\n"
				  "metadata: {name: fleet}\n"
				  "spec:\n"
				  "  selector: {}\n"
				  "  waves: [{name: canary, selector: {}}, {name: canary, selector: {}}]\n"
				  "status:\n"
				  "  waves: [{name: canary}, {name: canary}]\n"
				  "  conditions:\n"
				  "  - {type: Ready, status: \"True\", reason: R, message: m, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n"
				  "  - {type: Ready, status: \"True\", reason: R, message: m, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n";
	struct val *st;
	char *m;

	CU_ASSERT_EQUAL(admit(dup), -1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:8:27: error: FleetRollout \"fleet\": status.waves[1]: Duplicate value: map[string]interface {}{\"name\":\"canary\"}");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "m.yaml:11:5: error: FleetRollout \"fleet\": status.conditions[1]: Duplicate value: map[string]interface {}{\"type\":\"Ready\"}");

	/* writes: the spec is accepted, a status naming a wave twice is refused */
	st = val_new_map();
	val_map_set(st, "waves", val_new_list());
	for (int i = 0; i < 2; i++) {
		struct val *w = val_new_map();

		val_map_set(w, "name", val_new_string("canary"));
		val_list_push(val_map_get(st, "waves"), w);
	}
	CU_ASSERT_PTR_NULL(adm_write_refusal("FleetRollout", "fleet", "spec", st));
	m = adm_write_refusal("FleetRollout", "fleet", "status", st);
	CU_ASSERT_STRING_EQUAL(m, "FleetRollout.stages.metio.wtf \"fleet\" is invalid: status.waves[1]: Duplicate value: map[string]interface {}{\"name\":\"canary\"}");
	free(m);
	/* StageSet's list-maps are in its spec: a status write is not walked; unknown kinds and NULL are never refused */
	CU_ASSERT_PTR_NULL(adm_write_refusal("StageSet", "s", "status", st));
	CU_ASSERT_PTR_NULL(adm_write_refusal("Nope", "s", "status", st));
	CU_ASSERT_PTR_NULL(adm_write_refusal("FleetRollout", "fleet", "status", NULL));
	val_free(st);
	reset();
}

static void test_unknown_kind(void)
{
	/* In the groups the simulator models an unknown kind or version is a typo: an error. */
	CU_ASSERT_EQUAL(admit("apiVersion: stages.metio.wtf/v1\nkind: Foo\nmetadata: {name: a}\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 4);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:2:7: error: unknown kind \"Foo\" in apiVersion \"stages.metio.wtf/v1\"");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "m.yaml:2:7: note: supported kinds: Project (magosproject.io/v1alpha1), Rollout (magosproject.io/v1alpha1), Workspace (magosproject.io/v1alpha1), FleetRollout (stages.metio.wtf/v1), StageSet (stages.metio.wtf/v1), Namespace (v1), Secret (v1), ValidatingPolicy (policies.kyverno.io/v1), StageLedger (stages.metio.wtf/v1), GitRepository (source.toolkit.fluxcd.io/v1), OCIRepository (source.toolkit.fluxcd.io/v1), Bucket (source.toolkit.fluxcd.io/v1), ExternalArtifact (source.toolkit.fluxcd.io/v1), Job (batch/v1), PersistentVolumeClaim (v1)");
	/* The kinds accepted and ignored are listed too: a StageInventory of another version is told where it is. */
	CU_ASSERT_STRING_EQUAL(item(2),
			       "m.yaml:2:7: note: accepted and ignored (their CRDs define them; no simulated controller reads them): VariableSet (magosproject.io/v1alpha1), ImageVerificationPolicy (stages.metio.wtf/v1), StageInventory (stages.metio.wtf/v1)");
	CU_ASSERT_STRING_EQUAL(item(3),
			       "m.yaml:2:7: note: objects of the API groups magos-sim does not simulate are accepted and ignored; in stages.metio.wtf an unknown kind is taken for a typo");
	CU_ASSERT_EQUAL(admit("apiVersion: magosproject.io/v1\nkind: Workspace\nmetadata: {name: a}\n"), -1);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:2:7: error: unknown kind \"Workspace\" in apiVersion \"magosproject.io/v1\"");

	/* Other groups (and VariableSet, which no controller reads): accepted, listed, no object. */
	CU_ASSERT_EQUAL(admit("apiVersion: x/v1\nkind: Foo\nmetadata: {name: a}\n---\n"
			      "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: magos-job, namespace: ops}\n---\n"
			      "apiVersion: magosproject.io/v1alpha1\nkind: VariableSet\nmetadata: {name: vars}\n---\n"
			      "apiVersion: stages.metio.wtf/v1\nkind: StageLedger\nmetadata: {name: web, namespace: team-a}\n---\n"
			      "apiVersion: stages.metio.wtf/v1\nkind: StageInventory\nmetadata: {name: web, namespace: team-a}\n---\n"
			      "apiVersion: stages.metio.wtf/v1\nkind: ImageVerificationPolicy\nmetadata: {name: signed}\n"), 0);
	CU_ASSERT_EQUAL(dg.n, 0);
	/* The StageLedger is kept: the StageSet controller reads it. */
	CU_ASSERT_EQUAL(set.n, 1);
	CU_ASSERT_EQUAL_FATAL(set.nignored, 5);
	CU_ASSERT_STRING_EQUAL(set.ignored[3].text, "StageInventory \"team-a/web\" (stages.metio.wtf/v1)");
	CU_ASSERT_STRING_EQUAL(set.ignored[4].text, "ImageVerificationPolicy \"signed\" (stages.metio.wtf/v1)");
	CU_ASSERT_STRING_EQUAL(set.ignored[0].text, "Foo \"a\" (x/v1)");
	CU_ASSERT_STRING_EQUAL(set.ignored[1].text, "ServiceAccount \"ops/magos-job\" (v1)");
	CU_ASSERT_STRING_EQUAL(set.ignored[2].text, "VariableSet \"vars\" (magosproject.io/v1alpha1)");
	CU_ASSERT_EQUAL(set.ignored[1].mark.line, 5);
	CU_ASSERT_STRING_EQUAL(set.ignored[1].file, "m.yaml");
	/* ... in the version the CRD serves only: another is a typo. */
	CU_ASSERT_EQUAL(admit("apiVersion: stages.metio.wtf/v1beta1\nkind: StageLedger\nmetadata: {name: a}\n"), -1);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:2:7: error: unknown kind \"StageLedger\" in apiVersion \"stages.metio.wtf/v1beta1\"");
	/* ... but a well-formed object needs a name. */
	CU_ASSERT_EQUAL(admit("apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: a}\n"), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:3:11: error: ConfigMap (no name): metadata.name: Required value");

	CU_ASSERT_EQUAL(admit("metadata: {name: a}\n"), -1);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:1:1: error: apiVersion: Required value: every object needs a non-empty apiVersion string");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "m.yaml:1:1: error: kind: Required value: every object needs a non-empty kind string");
}

static void test_list_with_status(void)
{
	static const char text[] = "apiVersion: v1\n"
				   "kind: List\n"
				   "metadata:\n"
				   "  resourceVersion: \"\"\n"
				   "items:\n"
				   "- apiVersion: stages.metio.wtf/v1\n"
				   "  kind: StageSet\n"
				   "  metadata:\n"
				   "    name: web\n"
				   "    namespace: team-a\n"
				   "    generation: 4\n"
				   "    resourceVersion: \"12345\"\n"
				   "    uid: 0b7c-11\n"
				   "    creationTimestamp: \"2026-01-01T00:00:00Z\"\n"
				   "    labels: {app: web}\n"
				   "    managedFields: [{manager: kubectl, operation: Apply}]\n"
				   "  spec:\n"
				   "    version: {approvalMode: Always, allowDowngrade: true}\n"
				   "    stages:\n"
				   "    - name: app\n"
				   "      sourceRef: {kind: OCIRepository, name: web}\n"
				   "      readyChecks: {timeout: 5m, disableWait: true}\n"
				   "  status:\n"
				   "    version: 1.4.0\n"
				   "    pendingVersion: 1.5.0\n"
				   "    observedGeneration: 4\n"
				   "    conditions:\n"
				   "    - {type: Ready, status: \"True\", reason: Succeeded, message: ok, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n"
				   "- apiVersion: v1\n"
				   "  kind: Namespace\n"
				   "  metadata: {name: team-a, labels: {tier: gold}}\n"
				   "- apiVersion: v1\n"
				   "  kind: Secret\n"
				   "  metadata: {name: repo, labels: {magosproject.io/secret-type: repository}}\n"
				   "  stringData: {repoURL: https://example.com/x.git}\n";
	const struct obj *o;

	CU_ASSERT_EQUAL(admit(text), 0);
	CU_ASSERT_EQUAL_FATAL(set.n, 3);
	o = man_find(&set, "StageSet", "team-a", "web");
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT_EQUAL(o->generation, 4);
	CU_ASSERT_STRING_EQUAL(o->uid, "0b7c-11");
	CU_ASSERT_FATAL(o->status != NULL);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->status, "pendingVersion"), "?"), "1.5.0");
	CU_ASSERT_EQUAL(val_int(val_path(o->status, "observedGeneration"), 0), 4);
	CU_ASSERT_PTR_NOT_NULL(obj_ready_condition(o));
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "version.approvalMode"), "?"), "Always");
	CU_ASSERT_EQUAL(o->src.mark.line, 6);
	CU_ASSERT_EQUAL(o->src.mark.col, 3);
	o = man_find(&set, "Namespace", "", "team-a");
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->labels, "tier"), "gold");
	o = man_find(&set, "Secret", "default", "repo");
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->rest, "stringData.repoURL"), "?"),
			       "https://example.com/x.git");

	/* A bad StageSet enum inside a List names the item's own position. */
	CU_ASSERT_EQUAL(admit("apiVersion: v1\nkind: List\nitems:\n- apiVersion: stages.metio.wtf/v1\n  kind: StageSet\n"
			      "  metadata: {name: web}\n  spec:\n    version: {approvalMode: Sometimes}\n    stages: []\n"),
			-1);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:8:29: error: StageSet \"default/web\": spec.version.approvalMode: Unsupported value: \"Sometimes\": supported values: \"Never\", \"OnMigrations\", \"Always\"");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "m.yaml:9:13: error: StageSet \"default/web\": spec.stages: Invalid value: 0: spec.stages in body should have at least 1 items");
}

static void test_duplicates(void)
{
	static const char text[] = "apiVersion: magosproject.io/v1alpha1\n"
				   "kind: Project\n"
				   "metadata: {name: p}\n"
				   "spec: {}\n"
				   "---\n"
				   "apiVersion: magosproject.io/v1alpha1\n"
				   "kind: Project\n"
				   "metadata: {name: p, namespace: default}\n"
				   "spec: {description: again}\n"
				   "---\n"
				   "apiVersion: magosproject.io/v1alpha1\n"
				   "kind: Project\n"
				   "metadata: {name: p, namespace: other}\n"
				   "spec: {}\n";

	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(set.n, 2);
	CU_ASSERT_EQUAL(dg.n, 2);
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:6:1: error: Project \"default/p\" already exists: the same kind, namespace and name appear twice");
	CU_ASSERT_STRING_EQUAL(item(1), "m.yaml:1:1: note: first defined here");
}

static void test_metadata_checks(void)
{
	static const char text[] = "apiVersion: magosproject.io/v1alpha1\n"
				   "kind: Project\n"
				   "metadata:\n"
				   "  name: Demo_Project\n"
				   "  labels: {\"bad key!\": x, ok: \"-bad-\"}\n"
				   "  annotations: {\"a/b/c\": x}\n"
				   "  owner: me\n"
				   "spec: {}\n"
				   "---\n"
				   "apiVersion: magosproject.io/v1alpha1\n"
				   "kind: Project\n"
				   "metadata: {namespace: x}\n"
				   "spec: {}\n";

	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(dg.n, 7);
	/* In line order, whichever check found them. */
	CU_ASSERT_STRING_EQUAL(item(0),
			       "m.yaml:4:9: error: Project \"default/Demo_Project\": metadata.name: Invalid value: \"Demo_Project\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
	CU_ASSERT_NSTRING_EQUAL(item(1),
				"m.yaml:5:12: error: Project \"default/Demo_Project\": metadata.labels: Invalid value: \"bad key!\": name part must consist",
				100);
	CU_ASSERT_NSTRING_EQUAL(item(2),
				"m.yaml:5:31: error: Project \"default/Demo_Project\": metadata.labels: Invalid value: \"-bad-\": a valid label must be",
				100);
	CU_ASSERT_NSTRING_EQUAL(item(3),
				"m.yaml:6:17: error: Project \"default/Demo_Project\": metadata.annotations: Invalid value: \"a/b/c\": a valid label key",
				90);
	CU_ASSERT_STRING_EQUAL(item(4), "m.yaml:7:3: error: Project \"default/Demo_Project\": unknown field \"metadata.owner\"");
	CU_ASSERT_NSTRING_EQUAL(item(5), "m.yaml:7:3: note: ", 18);
	CU_ASSERT_STRING_EQUAL(item(6), "m.yaml:12:11: error: Project (no name): metadata.name: Required value");
	CU_ASSERT_EQUAL(set.n, 0);
}

static void test_in_group(void)
{
	struct obj *ss = obj_new("stages.metio.wtf/v1", "StageSet", "default", "a");
	struct obj *v2 = obj_new("stages.metio.wtf/v2", "FleetRollout", "", "f");
	struct obj *longer = obj_new("stages.metio.wtfx/v1", "StageSet", "default", "b");
	struct obj *bare = obj_new("stages.metio.wtf", "StageSet", "default", "c");

	CU_ASSERT(adm_in_group(ss, ADM_GROUP_STAGES, "StageSet"));
	CU_ASSERT(adm_in_group(ss, ADM_GROUP_STAGES, NULL));
	CU_ASSERT(!adm_in_group(ss, ADM_GROUP_STAGES, "FleetRollout"));
	CU_ASSERT(adm_in_group(v2, ADM_GROUP_STAGES, "FleetRollout")); /* any version */
	CU_ASSERT(!adm_in_group(longer, ADM_GROUP_STAGES, NULL));      /* another group */
	CU_ASSERT(!adm_in_group(bare, ADM_GROUP_STAGES, NULL));        /* no version */
	CU_ASSERT(!adm_in_group(ss, "magosproject.io", NULL));
	CU_ASSERT(!adm_in_group(NULL, ADM_GROUP_STAGES, NULL));
	obj_free(ss);
	obj_free(v2);
	obj_free(longer);
	obj_free(bare);
}

static void test_name_syntax(void)
{
	CU_ASSERT_TRUE(adm_is_dns1123_subdomain("a.b-c.d"));
	CU_ASSERT_FALSE(adm_is_dns1123_subdomain("a..b"));
	CU_ASSERT_FALSE(adm_is_dns1123_subdomain("-a"));
	CU_ASSERT_FALSE(adm_is_dns1123_subdomain(""));
	CU_ASSERT_TRUE(adm_is_dns1123_label("team-a"));
	CU_ASSERT_FALSE(adm_is_dns1123_label("team.a"));
	CU_ASSERT_TRUE(adm_is_qualified_name("magosproject.io/execution-allowed"));
	CU_ASSERT_TRUE(adm_is_qualified_name("Env_1.x"));
	CU_ASSERT_FALSE(adm_is_qualified_name("/x"));
	CU_ASSERT_FALSE(adm_is_qualified_name("a/"));
	CU_ASSERT_TRUE(adm_is_label_value(""));
	CU_ASSERT_FALSE(adm_is_label_value("a b"));
	CU_ASSERT_TRUE(adm_is_label_value("012345678901234567890123456789012345678901234567890123456789012"));
	CU_ASSERT_FALSE(adm_is_label_value("0123456789012345678901234567890123456789012345678901234567890123"));
	CU_ASSERT_PTR_NULL(adm_find_kind("magosproject.io/v1", "Workspace"));
	CU_ASSERT_FALSE(adm_find_kind("stages.metio.wtf/v1", "FleetRollout")->namespaced);
}

static void test_length_messages_and_huge_name(void)
{
	size_t n = 5000000;
	char *name = malloc(n + 1), *doc, *want;
	size_t total = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(name);
	memset(name, 'a', n);
	name[n] = '\0';
	/* Lower case, too long: the length message only, not the syntax one. */
	doc = malloc(n + 200);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	snprintf(doc, n + 200,
		 "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %.254s\n"
		 "  labels:\n    %.64s: %.64s\n",
		 name, name, name);
	CU_ASSERT_EQUAL(admit(doc), -1);
	CU_ASSERT_EQUAL(dg.n, 3);
	want = malloc(1024);
	snprintf(want, 1024,
		 "m.yaml:4:9: error: Secret \"default/%.64s...\": metadata.name: Invalid value: "
		 "\"%.64s\"... (254 bytes): must be no more than 253 bytes",
		 name, name);
	CU_ASSERT_STRING_EQUAL(item(0), want);
	snprintf(want, 1024,
		 "m.yaml:6:5: error: Secret \"default/%.64s...\": metadata.labels: Invalid value: "
		 "\"%.64s\": name part must be no more than 63 bytes",
		 name, name);
	CU_ASSERT_STRING_EQUAL(item(1), want);
	snprintf(want, 1024,
		 "m.yaml:6:71: error: Secret \"default/%.64s...\": metadata.labels: Invalid value: "
		 "\"%.64s\": must be no more than 63 bytes",
		 name, name);
	CU_ASSERT_STRING_EQUAL(item(2), want);
	/* A 5,000,000-character name: each message stays short. */
	snprintf(doc, n + 200, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n", name);
	CU_ASSERT_EQUAL(admit(doc), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	for (size_t i = 0; i < dg.n; i++)
		total += strlen(item(i));
	CU_ASSERT(total < 400);
	CU_ASSERT_PTR_NOT_NULL(strstr(item(0), "(5000000 bytes): must be no more than 63 bytes"));
	free(want);
	free(doc);
	free(name);
}

static void test_identity_and_kind_by_name(void)
{
	char *k, *ns, *name;
	struct yl_stream st;
	const char *text = "apiVersion: v1\nkind: Namespace\nmetadata: {name: X, namespace: ns-y}\n"
			   "---\nkind: Workspace\nmetadata: {name: w}\n---\nkind: Workspace\n";

	CU_ASSERT_FALSE(adm_find_kind_named("Namespace")->namespaced);
	CU_ASSERT_TRUE(adm_find_kind_named("Workspace")->namespaced);
	CU_ASSERT_PTR_NULL(adm_find_kind_named("ClusterRole"));
	reset();
	CU_ASSERT_EQUAL_FATAL(yl_load_string("m.yaml", text, strlen(text), &st, &dg), 0);
	CU_ASSERT_TRUE_FATAL(adm_identity(st.docs[0].root, &k, &ns, &name));
	CU_ASSERT_STRING_EQUAL(k, "Namespace");
	CU_ASSERT_STRING_EQUAL(ns, "");
	CU_ASSERT_STRING_EQUAL(name, "X");
	free(k);
	free(ns);
	free(name);
	CU_ASSERT_TRUE_FATAL(adm_identity(st.docs[1].root, &k, &ns, &name));
	CU_ASSERT_STRING_EQUAL(ns, "default");
	free(k);
	free(ns);
	free(name);
	CU_ASSERT_FALSE(adm_identity(st.docs[2].root, &k, &ns, &name));
	yl_stream_release(&st);
	/* A refused document is remembered by identity; an admitted one is not. */
	CU_ASSERT_EQUAL(admit("apiVersion: v1\nkind: Namespace\nmetadata: {name: Bad_1}\n---\n"
			      "apiVersion: v1\nkind: Namespace\nmetadata: {name: good}\n"),
			-1);
	CU_ASSERT_EQUAL_FATAL(set.nrejected, 1);
	CU_ASSERT_STRING_EQUAL(set.rejected[0].kind, "Namespace");
	CU_ASSERT_STRING_EQUAL(set.rejected[0].ns, "");
	CU_ASSERT_STRING_EQUAL(set.rejected[0].name, "Bad_1");
	CU_ASSERT_EQUAL(set.n, 1);
}

static void test_take_and_cleanup(void)
{
	size_t n;
	struct obj **objs;

	CU_ASSERT_EQUAL(admit("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n"), 0);
	objs = man_take(&set, &n);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(set.n, 0);
	CU_ASSERT_PTR_NULL(man_find(&set, "Namespace", "", "a"));
	CU_ASSERT_STRING_EQUAL(objs[0]->src.file, "m.yaml");
	obj_free(objs[0]);
	free(objs);
	man_set_release(&set);
	diag_release(&dg);
	item(99);
}

/* Element @i of list @l, or NULL. */
static struct val *elem(const struct val *l, size_t i)
{
	return l && l->type == VAL_LIST && i < l->u.list.n ? l->u.list.items[i] : NULL;
}

static const char ss_head[] = "apiVersion: stages.metio.wtf/v1\n"
			      "kind: StageSet\n"
			      "metadata: {name: web, namespace: team-a}\n";

/* Every StageSet field is typed as its CRD types it (free-form subtrees are gone). */
static void test_stageset_types(void)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "%sspec:\n  migrations: \"x\"\n  onRollback: {}\n  stages:\n  - name: app\n    sourceRef: 42\n"
		 "    promotion: 42\n    readyChecks: {anything: [goes]}\n",
		 ss_head);
	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(dg.n, 6);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:5:15: error: StageSet \"team-a/web\": spec.migrations: Invalid value: \"string\": spec.migrations in body must be of type array: \"x\"");
	CU_ASSERT_STRING_EQUAL(item(1), "m.yaml:6:15: error: StageSet \"team-a/web\": spec.onRollback: Invalid value: \"object\": spec.onRollback in body must be of type array: \"object\"");
	CU_ASSERT_STRING_EQUAL(item(2), "m.yaml:9:16: error: StageSet \"team-a/web\": spec.stages[0].sourceRef: Invalid value: \"integer\": spec.stages[0].sourceRef in body must be of type object: 42");
	CU_ASSERT_STRING_EQUAL(item(3), "m.yaml:10:16: error: StageSet \"team-a/web\": spec.stages[0].promotion: Invalid value: \"integer\": spec.stages[0].promotion in body must be of type object: 42");
	CU_ASSERT_STRING_EQUAL(item(4), "m.yaml:11:19: error: StageSet \"team-a/web\": unknown field \"spec.stages[0].readyChecks.anything\"");
	CU_ASSERT_STRING_EQUAL(item(5), "m.yaml:11:19: note: accepted fields: checks, disableWait, exprs, timeout");

	/* required fields deep down, the stage name pattern, an action's bounds and enums */
	snprintf(text, sizeof(text),
		 "%sspec:\n  stages:\n  - name: App_1\n    sourceRef: {kind: GitRepository}\n"
		 "    actions:\n      post:\n      - {name: a, retries: 101, delete: {target: {kind: ConfigMap, name: x}, cascade: Now}}\n"
		 "      - {name: b, http: {url: 'http://x', expectedStatus: [200, 600]}}\n",
		 ss_head);
	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(dg.n, 5);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:6:11: error: StageSet \"team-a/web\": spec.stages[0].name: Invalid value: \"App_1\": spec.stages[0].name in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'");
	CU_ASSERT_STRING_EQUAL(item(1), "m.yaml:7:16: error: StageSet \"team-a/web\": spec.stages[0].sourceRef.name: Required value");
	CU_ASSERT_STRING_EQUAL(item(2), "m.yaml:10:28: error: StageSet \"team-a/web\": spec.stages[0].actions.post[0].retries: Invalid value: 101: spec.stages[0].actions.post[0].retries in body should be less than or equal to 100");
	CU_ASSERT_STRING_EQUAL(item(3), "m.yaml:10:87: error: StageSet \"team-a/web\": spec.stages[0].actions.post[0].delete.cascade: Unsupported value: \"Now\": supported values: \"Background\", \"Foreground\", \"Orphan\"");
	CU_ASSERT_STRING_EQUAL(item(4), "m.yaml:11:65: error: StageSet \"team-a/web\": spec.stages[0].actions.post[1].http.expectedStatus[1]: Invalid value: 600: spec.stages[0].actions.post[1].http.expectedStatus[1] in body should be less than or equal to 599");
}

static void test_stageset_promotion_and_cel(void)
{
	char text[2048];
	const struct obj *o;

	/* list-map keys of restart and event checks, minItems, minimum, the two kubeConfig CEL rules */
	snprintf(text, sizeof(text),
		 "%sspec:\n  kubeConfig: {}\n  stages:\n  - name: app\n    sourceRef: {name: a}\n    promotion:\n"
		 "      analysis: {checks: []}\n"
		 "      restartGate: {checks: [{name: api, selector: {}, maxRestarts: -1}, {name: api, selector: {}}]}\n"
		 "      eventGate: {checks: [{name: oom, selector: {}, reasons: []}]}\n",
		 ss_head);
	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(dg.n, 5);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:5:15: error: StageSet \"team-a/web\": spec.kubeConfig: Invalid value: \"object\": exactly one of spec.kubeConfig.configMapRef or spec.kubeConfig.secretRef must be specified");
	CU_ASSERT_STRING_EQUAL(item(1), "m.yaml:10:26: error: StageSet \"team-a/web\": spec.stages[0].promotion.analysis.checks: Invalid value: 0: spec.stages[0].promotion.analysis.checks in body should have at least 1 items");
	CU_ASSERT_STRING_EQUAL(item(2), "m.yaml:11:69: error: StageSet \"team-a/web\": spec.stages[0].promotion.restartGate.checks[0].maxRestarts: Invalid value: -1: spec.stages[0].promotion.restartGate.checks[0].maxRestarts in body should be greater than or equal to 0");
	CU_ASSERT_STRING_EQUAL(item(3), "m.yaml:11:74: error: StageSet \"team-a/web\": spec.stages[0].promotion.restartGate.checks[1]: Duplicate value: map[string]interface {}{\"name\":\"api\"}");
	CU_ASSERT_STRING_EQUAL(item(4), "m.yaml:12:63: error: StageSet \"team-a/web\": spec.stages[0].promotion.eventGate.checks[0].reasons: Invalid value: 0: spec.stages[0].promotion.eventGate.checks[0].reasons in body should have at least 1 items");
	snprintf(text, sizeof(text),
		 "%sspec:\n  kubeConfig: {secretRef: {name: a}, configMapRef: {name: b}}\n  stages:\n  - name: app\n"
		 "    sourceRef: {name: a}\n",
		 ss_head);
	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(dg.n, 1);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:5:15: error: StageSet \"team-a/web\": spec.kubeConfig: Invalid value: \"object\": exactly one of spec.kubeConfig.configMapRef or spec.kubeConfig.secretRef must be specified");

	/* the CRD's one default: conflictPolicy.default Fail; a valid spec of every part is admitted */
	snprintf(text, sizeof(text),
		 "%sspec:\n  interval: 5m\n  kubeConfig: {secretRef: {name: remote, key: value}}\n"
		 "  decryption: {provider: sops}\n  dependsOn: [{name: db, minVersion: 1.0.0}]\n"
		 "  version: {value: 1.0.0, approvalMode: OnMigrations}\n"
		 "  migrations: [{name: m, to: 2.0.0, actions: [{name: d, delete: {target: {kind: ConfigMap, name: legacy}}}]}]\n"
		 "  updateWindows: [{type: Deny, from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00+01:00'}]\n"
		 "  errorBudget: {source: {webhook: {url: 'https://slo', jsonPath: '{.r}'}}, freezeThreshold: '0.1'}\n"
		 "  stages:\n  - name: app\n    sourceRef: {name: a}\n    conflictPolicy: {rules: [{action: Recreate, target: {kind: Job}}]}\n"
		 "    promotion: {soak: 10m, restartGate: {checks: [{name: api, selector: {matchLabels: {app: api}}, maxRestarts: 2}]}}\n"
		 "    readyChecks: {exprs: [{apiVersion: apps/v1, kind: Deployment, current: 'true'}]}\n"
		 "    postBuild: {substitute: {a: b}, substituteFrom: [{kind: ConfigMap, name: vars}]}\n",
		 ss_head);
	CU_ASSERT_EQUAL(admit(text), 0);
	CU_ASSERT_EQUAL(dg.n, 0);
	o = man_find(&set, "StageSet", "team-a", "web");
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT_STRING_EQUAL(
		val_str(val_map_get(val_map_get(elem(val_map_get(o->spec, "stages"), 0), "conflictPolicy"), "default"), "?"),
		"Fail");

	/* a spec write repeating a check name is refused; a status write is not looked at */
	{
		struct val *spec = val_copy(o->spec);
		struct val *checks = val_path(spec, "stages");
		char *m;

		checks = val_map_get(val_map_get(val_map_get(elem(checks, 0), "promotion"), "restartGate"), "checks");
		val_list_push(checks, val_copy(elem(checks, 0)));
		m = adm_write_refusal("StageSet", "web", "spec", spec);
		CU_ASSERT_STRING_EQUAL(m, "StageSet.stages.metio.wtf \"web\" is invalid: spec.stages[0].promotion.restartGate.checks[1]: Duplicate value: map[string]interface {}{\"name\":\"api\"}");
		free(m);
		CU_ASSERT_PTR_NULL(adm_write_refusal("StageSet", "web", "status", spec));
		val_free(spec);
	}
}

static void test_stageset_status_types(void)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "%sspec:\n  stages: [{name: app, sourceRef: {name: a}}]\nstatus:\n"
		 "  conditions:\n  - {type: Ready, status: \"False\", reason: \"Bad reason\", message: m, lastTransitionTime: yesterday}\n"
		 "  stages:\n  - {name: app, phase: Soaking, shards: 4294967296, promotionState: {since: \"2026-01-01T00:00:00Z\", restartBaseline: [{restarts: 1}]}}\n",
		 ss_head);
	CU_ASSERT_EQUAL(admit(text), -1);
	CU_ASSERT_EQUAL(dg.n, 6);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:8:44: error: StageSet \"team-a/web\": status.conditions[0].reason: Invalid value: \"Bad reason\": status.conditions[0].reason in body should match '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$'");
	CU_ASSERT_STRING_EQUAL(item(1), "m.yaml:8:90: error: StageSet \"team-a/web\": status.conditions[0].lastTransitionTime: Invalid value: \"yesterday\": status.conditions[0].lastTransitionTime in body must be of type date-time: \"yesterday\"");
	CU_ASSERT_STRING_EQUAL(item(2), "m.yaml:10:24: error: StageSet \"team-a/web\": status.stages[0].phase: Unsupported value: \"Soaking\": supported values: \"Pending\", \"Applying\", \"Pruning\", \"Verifying\", \"Ready\", \"Failed\"");
	CU_ASSERT_STRING_EQUAL(item(3), "m.yaml:10:41: error: StageSet \"team-a/web\": status.stages[0].shards: Invalid value: 4294967296: status.stages[0].shards in body should be less than or equal to 2147483647");
	CU_ASSERT_STRING_EQUAL(item(4), "m.yaml:10:41: note: the CRD declares format int32: the API server stores the number, but the controller cannot decode it");
	CU_ASSERT_STRING_EQUAL(item(5), "m.yaml:10:119: error: StageSet \"team-a/web\": status.stages[0].promotionState.restartBaseline[0].name: Required value");
}

static CU_TestInfo tests[] = {
	{ "length messages; huge names shortened", test_length_messages_and_huge_name },
	{ "identity of refused documents; kinds by name", test_identity_and_kind_by_name },
	{ "Workspace defaults (§1.6)", test_workspace_defaults },
	{ "Workspace rejections (§1.6)", test_workspace_rejections },
	{ "Rollout CEL name == projectRef", test_rollout_cel },
	{ "FleetRollout defaults, CEL, enum, minItems", test_fleet_rollout },
	{ "list-map keys at admission and on writes", test_list_map_keys },
	{ "unknown kind, missing apiVersion/kind", test_unknown_kind },
	{ "kubectl List with status", test_list_with_status },
	{ "StageSet: every field typed as the CRD types it", test_stageset_types },
	{ "StageSet: promotion gates, list-map keys, kubeConfig CEL, the conflictPolicy default", test_stageset_promotion_and_cel },
	{ "StageSet: status fields typed, patterns and formats", test_stageset_status_types },
	{ "duplicate objects", test_duplicates },
	{ "metadata checks", test_metadata_checks },
	{ "an object's API group", test_in_group },
	{ "name syntax helpers", test_name_syntax },
	{ "man_take and cleanup", test_take_and_cleanup },
	CU_TEST_INFO_NULL,
};

/* make conformance: against the upstream fixtures in ../shared (cu_shared()). */
static CU_TestInfo conformance[] = {
	{ "upstream Magos samples are accepted unchanged", test_upstream_samples_accepted },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("admission", tests);
	CU_ADD_CONFORMANCE_SUITE("admission against ../shared", conformance);
}
