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
				  "  - {type: Ready, status: \"True\", reason: R, message: m, lastTransitionTime: t}\n"
				  "  - {type: Ready, status: \"True\", reason: R, message: m, lastTransitionTime: t}\n";
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
	/* StageSet has no list-maps; unknown kinds and NULL are never refused */
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
	CU_ASSERT_EQUAL(dg.n, 3);
	CU_ASSERT_STRING_EQUAL(item(0), "m.yaml:2:7: error: unknown kind \"Foo\" in apiVersion \"stages.metio.wtf/v1\"");
	CU_ASSERT_STRING_EQUAL(item(1),
			       "m.yaml:2:7: note: supported kinds: Project (magosproject.io/v1alpha1), Rollout (magosproject.io/v1alpha1), Workspace (magosproject.io/v1alpha1), FleetRollout (stages.metio.wtf/v1), StageSet (stages.metio.wtf/v1), Namespace (v1), Secret (v1), ValidatingPolicy (policies.kyverno.io/v1)");
	CU_ASSERT_STRING_EQUAL(item(2),
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
	CU_ASSERT_EQUAL(set.n, 0);
	CU_ASSERT_EQUAL_FATAL(set.nignored, 6);
	CU_ASSERT_STRING_EQUAL(set.ignored[3].text, "StageLedger \"team-a/web\" (stages.metio.wtf/v1)");
	CU_ASSERT_STRING_EQUAL(set.ignored[5].text, "ImageVerificationPolicy \"signed\" (stages.metio.wtf/v1)");
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
				   "      readyChecks: {anything: [goes]}\n"
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
	{ "duplicate objects", test_duplicates },
	{ "metadata checks", test_metadata_checks },
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
