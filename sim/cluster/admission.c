#include "sim/cluster/admission.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/suggest.h"

/*
 * Hand-written copies of the CRD schemas in shared/fixtures/upstream/crds
 * (Magos @1afc8e6, stageset-controller @f2c7604), as far as admission needs
 * them.  Every field of the Magos kinds, of FleetRollout and of StageSet is
 * modelled with its type, required flag, default, enum and
 * minLength/minItems, and the CEL rules are evaluated by check callbacks.
 * StageSet is modelled in full: bounds (minimum/maximum), the stage-name
 * pattern, `date-time` formats, list-map keys (restart and event checks by
 * name), the conflictPolicy default and its conditions' patterns and
 * maxLength too (see the StageSet block below for its deviations).
 * For the Magos kinds and FleetRollout, regex patterns and maxLength of
 * metav1.Condition are not checked (the simulator writes those statuses
 * itself; snapshots come from a real API server that already checked them);
 * their `date-time` formats are, as are metadata's creationTimestamp and
 * deletionTimestamp, because a hand-edited snapshot is input too.
 *
 * Deviation: FleetRollout waves[].soak is `type: string` in the CRD; it is
 * checked here as a Go duration, because the controller cannot decode
 * anything else (metav1.Duration) and so no simulation of it would be
 * meaningful.
 */

/* ---- shared pieces ------------------------------------------------------------ */

static const struct sch_field match_expr_fields[] = {
	SCH_REQUIRED("key", &sch_string),
	SCH_REQUIRED("operator", &sch_string), /* free string: checked by the controllers */
	SCH_FIELD("values", &sch_string_list),
	SCH_END,
};
static const struct sch_node match_expr = { .type = SCH_OBJECT, .fields = match_expr_fields };
static const struct sch_node match_exprs = { .type = SCH_ARRAY, .items = &match_expr };
static const struct sch_field selector_fields[] = {
	SCH_FIELD("matchExpressions", &match_exprs),
	SCH_FIELD("matchLabels", &sch_string_map),
	SCH_END,
};
static const struct sch_node label_selector = { .type = SCH_OBJECT, .fields = selector_fields };

/* `format: date-time` (metav1.Time): what the CRDs declare for every time they hold. */
static const struct sch_node date_time = { .type = SCH_STRING, .format = SCH_FORMAT_DATE_TIME };
static const char *const cond_status_values[] = { "True", "False", "Unknown", NULL };
static const struct sch_node cond_status = { .type = SCH_STRING, .enum_values = cond_status_values };
static const struct sch_node non_negative = { .type = SCH_INTEGER, .has_minimum = true, .minimum = 0 };
static const struct sch_field condition_fields[] = {
	SCH_REQUIRED("lastTransitionTime", &date_time),
	SCH_REQUIRED("message", &sch_string),
	SCH_FIELD("observedGeneration", &non_negative),
	SCH_REQUIRED("reason", &sch_string_nonempty),
	SCH_REQUIRED("status", &cond_status),
	SCH_REQUIRED("type", &sch_string),
	SCH_END,
};
static const struct sch_node condition = { .type = SCH_OBJECT, .fields = condition_fields };
/* the Magos kinds' and FleetRollout's: x-kubernetes-list-type map keyed by type */
static const struct sch_node conditions_by_type = { .type = SCH_ARRAY, .items = &condition,
						    .list_map_key = "type" };

/* metadata as kubectl sends it, or as `kubectl get -o yaml` prints it. */
/*
 * metav1.Time decodes RFC 3339 or null (kubectl prints `creationTimestamp:
 * null` for an object not yet created); anything else fails to decode, so
 * the API server refuses the object.
 */
static const struct sch_node meta_time = { .type = SCH_STRING, .nullable = true,
					   .format = SCH_FORMAT_DATE_TIME };
/* metav1.OwnerReference: the four identity fields are required (apimachinery validation). */
static const struct sch_field owner_ref_fields[] = {
	SCH_REQUIRED("apiVersion", &sch_string_nonempty),
	SCH_REQUIRED("kind", &sch_string_nonempty),
	SCH_REQUIRED("name", &sch_string_nonempty),
	SCH_REQUIRED("uid", &sch_string_nonempty),
	SCH_FIELD("controller", &sch_boolean),
	SCH_FIELD("blockOwnerDeletion", &sch_boolean),
	SCH_END,
};
static const struct sch_node owner_ref = { .type = SCH_OBJECT, .fields = owner_ref_fields };
static const struct sch_node owner_refs = { .type = SCH_ARRAY, .items = &owner_ref };
static const struct sch_field metadata_fields[] = {
	SCH_FIELD("name", &sch_string),
	SCH_FIELD("namespace", &sch_string),
	SCH_FIELD("labels", &sch_string_map),
	SCH_FIELD("annotations", &sch_string_map),
	SCH_FIELD("finalizers", &sch_string_list),
	SCH_FIELD("uid", &sch_string),
	SCH_FIELD("generation", &sch_integer),
	SCH_FIELD("resourceVersion", &sch_string),
	SCH_FIELD("creationTimestamp", &meta_time),
	SCH_FIELD("deletionTimestamp", &meta_time),
	SCH_FIELD("deletionGracePeriodSeconds", &sch_integer),
	SCH_FIELD("generateName", &sch_string),
	SCH_FIELD("selfLink", &sch_string),
	SCH_FIELD("managedFields", &sch_any),
	SCH_FIELD("ownerReferences", &owner_refs),
	SCH_END,
};
static const struct sch_node metadata = { .type = SCH_OBJECT, .fields = metadata_fields };

#define ROOT_COMMON                                            \
	SCH_FIELD("apiVersion", &sch_string), SCH_FIELD("kind", &sch_string), \
		SCH_REQUIRED("metadata", &metadata)

/* ---- Magos: Project, Rollout, Workspace ---------------------------------------- */

static const char *const phase_values[] = { "Pending",  "Reconciling", "Ready",   "Idle",
					    "Planning", "Planned",     "Applying", "Applied",
					    "Failed",   "ValidationFailed", "Deleting", NULL };
static const struct sch_node phase = { .type = SCH_STRING, .enum_values = phase_values };

static const struct sch_field validation_fields[] = {
	SCH_FIELD("policySelector", &label_selector),
	SCH_END,
};
static const struct sch_node validation = { .type = SCH_OBJECT, .fields = validation_fields };

static const struct sch_field name_ref_fields[] = {
	SCH_REQUIRED("name", &sch_string_nonempty),
	SCH_END,
};
static const struct sch_node name_ref = { .type = SCH_OBJECT, .fields = name_ref_fields };
static const struct sch_node name_refs = { .type = SCH_ARRAY, .items = &name_ref };

static const struct sch_field project_spec_fields[] = {
	SCH_FIELD("description", &sch_string),
	SCH_FIELD("validation", &validation),
	SCH_FIELD("variableSetRef", &name_refs),
	SCH_END,
};
static const struct sch_node project_spec = { .type = SCH_OBJECT, .fields = project_spec_fields };
static const struct sch_field project_status_fields[] = {
	SCH_FIELD("conditions", &conditions_by_type),
	SCH_FIELD("lastReconcileTime", &date_time),
	SCH_FIELD("message", &sch_string),
	SCH_FIELD("phase", &phase),
	SCH_FIELD("reason", &sch_string),
	SCH_END,
};
static const struct sch_node project_status = { .type = SCH_OBJECT, .fields = project_status_fields };
static const struct sch_field project_fields[] = {
	ROOT_COMMON,
	SCH_REQUIRED("spec", &project_spec),
	SCH_FIELD("status", &project_status),
	SCH_END,
};
static const struct sch_node project = { .type = SCH_OBJECT, .fields = project_fields };

static const struct sch_field step_fields[] = {
	SCH_REQUIRED("name", &sch_string),
	SCH_REQUIRED("selector", &label_selector),
	SCH_END,
};
static const struct sch_node step = { .type = SCH_OBJECT, .fields = step_fields };
static const struct sch_node steps = { .type = SCH_ARRAY, .items = &step }; /* may be empty */
static const struct sch_field strategy_fields[] = {
	SCH_REQUIRED("steps", &steps),
	SCH_END,
};
static const struct sch_node strategy = { .type = SCH_OBJECT, .fields = strategy_fields };
static const struct sch_field rollout_spec_fields[] = {
	SCH_REQUIRED("projectRef", &sch_string),
	SCH_REQUIRED("strategy", &strategy),
	SCH_END,
};
static const struct sch_node rollout_spec = { .type = SCH_OBJECT, .fields = rollout_spec_fields };
static const struct sch_field rollout_status_fields[] = {
	SCH_FIELD("conditions", &conditions_by_type),
	SCH_FIELD("currentStep", &sch_integer),
	SCH_FIELD("lastReconcileTime", &date_time),
	SCH_FIELD("message", &sch_string),
	SCH_FIELD("phase", &phase),
	SCH_FIELD("reason", &sch_string),
	SCH_END,
};
static const struct sch_node rollout_status = { .type = SCH_OBJECT, .fields = rollout_status_fields };

/* CEL on the Rollout root: self.metadata.name == self.spec.projectRef */
static void check_rollout(struct sch_ctx *c, const struct val *v, const char *path)
{
	const char *name = val_str(val_path(v, "metadata.name"), NULL);
	const char *ref = val_str(val_path(v, "spec.projectRef"), NULL);

	if (name && ref && strcmp(name, ref) != 0)
		sch_report(c, v->mark, path,
			   "Invalid value: \"object\": Rollout name must exactly match the projectRef it targets to ensure 1-to-1 mapping");
}

static const struct sch_field rollout_fields[] = {
	ROOT_COMMON,
	SCH_REQUIRED("spec", &rollout_spec),
	SCH_FIELD("status", &rollout_status),
	SCH_END,
};
static const struct sch_node rollout = { .type = SCH_OBJECT, .fields = rollout_fields,
					 .check = check_rollout };

static const struct sch_field job_overrides_fields[] = {
	SCH_FIELD("annotations", &sch_string_map),
	SCH_FIELD("timeoutSeconds", &sch_integer),
	SCH_END,
};
static const struct sch_node job_overrides = { .type = SCH_OBJECT, .fields = job_overrides_fields };
static const struct sch_field ws_source_fields[] = {
	SCH_DEFAULT("path", &sch_string, "."),
	SCH_REQUIRED("repoURL", &sch_string),
	SCH_REQUIRED("targetRevision", &sch_string),
	SCH_END,
};
static const struct sch_node ws_source = { .type = SCH_OBJECT, .fields = ws_source_fields };
static const struct sch_field terraform_fields[] = {
	SCH_FIELD("tfvarsPath", &sch_string),
	SCH_REQUIRED("version", &sch_string),
	SCH_END,
};
static const struct sch_node terraform = { .type = SCH_OBJECT, .fields = terraform_fields };
static const struct sch_field ws_spec_fields[] = {
	SCH_FIELD("annotations", &sch_string_map),
	SCH_FIELD("apply", &job_overrides),
	SCH_DEFAULT("autoApply", &sch_boolean, "true"),
	SCH_FIELD("plan", &job_overrides),
	SCH_REQUIRED("projectRef", &name_ref),
	SCH_DEFAULT("serviceAccountName", &sch_string, "magos-job"),
	SCH_REQUIRED("source", &ws_source),
	SCH_REQUIRED("terraform", &terraform),
	SCH_FIELD("validation", &validation),
	SCH_END,
};
static const struct sch_node ws_spec = { .type = SCH_OBJECT, .fields = ws_spec_fields };
static const struct sch_field violation_fields[] = {
	SCH_REQUIRED("message", &sch_string),
	SCH_REQUIRED("policy", &sch_string),
	SCH_END,
};
static const struct sch_node violation = { .type = SCH_OBJECT, .fields = violation_fields };
static const struct sch_node violations = { .type = SCH_ARRAY, .items = &violation };
static const struct sch_field ws_status_fields[] = {
	SCH_FIELD("conditions", &conditions_by_type),
	SCH_FIELD("currentRunID", &sch_string),
	SCH_FIELD("currentRunTrigger", &sch_string),
	SCH_FIELD("lastReconcileTime", &date_time),
	SCH_FIELD("message", &sch_string),
	SCH_FIELD("nextReconcileTime", &date_time),
	SCH_FIELD("observedReconcileInterval", &sch_string),
	SCH_FIELD("observedRevision", &sch_string),
	SCH_FIELD("phase", &phase),
	SCH_FIELD("policyViolations", &violations),
	SCH_FIELD("reason", &sch_string),
	SCH_END,
};
static const struct sch_node ws_status = { .type = SCH_OBJECT, .fields = ws_status_fields };
static const struct sch_field workspace_fields[] = {
	ROOT_COMMON,
	SCH_REQUIRED("spec", &ws_spec),
	SCH_FIELD("status", &ws_status),
	SCH_END,
};
static const struct sch_node workspace = { .type = SCH_OBJECT, .fields = workspace_fields };

/* ---- stageset-controller: FleetRollout, StageSet ------------------------------ */

static const struct sch_field secret_ref_fields[] = {
	SCH_REQUIRED("name", &sch_string),
	SCH_END,
};
static const struct sch_node secret_ref = { .type = SCH_OBJECT, .fields = secret_ref_fields };
static const struct sch_field prometheus_fields[] = {
	SCH_REQUIRED("address", &sch_string),
	SCH_REQUIRED("query", &sch_string),
	SCH_FIELD("secretRef", &secret_ref),
	SCH_END,
};
static const struct sch_node prometheus = { .type = SCH_OBJECT, .fields = prometheus_fields };
static const struct sch_field webhook_fields[] = {
	SCH_REQUIRED("jsonPath", &sch_string),
	SCH_FIELD("secretRef", &secret_ref),
	SCH_REQUIRED("url", &sch_string),
	SCH_END,
};
static const struct sch_node webhook = { .type = SCH_OBJECT, .fields = webhook_fields };
static const struct sch_field metric_source_fields[] = {
	SCH_FIELD("prometheus", &prometheus),
	SCH_FIELD("webhook", &webhook),
	SCH_END,
};
static const struct sch_node metric_source = { .type = SCH_OBJECT, .fields = metric_source_fields };
static const struct sch_field threshold_fields[] = {
	SCH_FIELD("max", &sch_string),
	SCH_FIELD("min", &sch_string),
	SCH_END,
};
static const struct sch_node threshold = { .type = SCH_OBJECT, .fields = threshold_fields };
static const struct sch_field gate_fields[] = {
	SCH_REQUIRED("source", &metric_source),
	SCH_REQUIRED("threshold", &threshold),
	SCH_END,
};
static const struct sch_node gate = { .type = SCH_OBJECT, .fields = gate_fields };
static const struct sch_field wave_fields[] = {
	SCH_FIELD("gate", &gate),
	SCH_REQUIRED("name", &sch_string),
	SCH_REQUIRED("selector", &label_selector),
	SCH_FIELD("soak", &sch_duration),
	SCH_END,
};
static const struct sch_node wave = { .type = SCH_OBJECT, .fields = wave_fields };
static const struct sch_node waves = { .type = SCH_ARRAY, .items = &wave, .min_items = 1 };
static const char *const on_regression_values[] = { "Halt", "Rollback", NULL };
static const struct sch_node on_regression = { .type = SCH_STRING,
					       .enum_values = on_regression_values };

/* CEL on FleetRollout spec: onRegression != 'Rollback' || size(previousVersion) > 0 */
static void check_fleet_spec(struct sch_ctx *c, const struct val *v, const char *path)
{
	const char *mode = val_str(val_map_get(v, "onRegression"), "");
	const char *prev = val_str(val_map_get(v, "previousVersion"), "");

	if (strcmp(mode, "Rollback") == 0 && prev[0] == '\0')
		sch_report(c, v->mark, path,
			   "Invalid value: \"object\": previousVersion is required when onRegression is Rollback");
}

static const struct sch_field fleet_spec_fields[] = {
	SCH_FIELD("namespaceSelector", &label_selector),
	SCH_DEFAULT("onRegression", &on_regression, "Halt"),
	SCH_FIELD("previousVersion", &sch_string),
	SCH_REQUIRED("selector", &label_selector),
	SCH_FIELD("targetVersion", &sch_string),
	SCH_REQUIRED("waves", &waves),
	SCH_END,
};
static const struct sch_node fleet_spec = { .type = SCH_OBJECT, .fields = fleet_spec_fields,
					    .check = check_fleet_spec };
static const char *const health_values[] = { "Passing", "Failing", "Unknown", NULL };
static const struct sch_node health = { .type = SCH_STRING, .enum_values = health_values };
static const struct sch_field wave_status_fields[] = {
	SCH_FIELD("atTarget", &sch_integer),
	SCH_FIELD("health", &health),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("ready", &sch_integer),
	SCH_FIELD("settled", &sch_boolean),
	SCH_FIELD("soakUntil", &date_time),
	SCH_FIELD("total", &sch_integer),
	SCH_END,
};
static const struct sch_node wave_status = { .type = SCH_OBJECT, .fields = wave_status_fields };
static const struct sch_node wave_statuses = { .type = SCH_ARRAY, .items = &wave_status,
						.list_map_key = "name" };
static const struct sch_field fleet_status_fields[] = {
	SCH_FIELD("conditions", &conditions_by_type),
	SCH_FIELD("currentWave", &sch_string),
	SCH_FIELD("observedGeneration", &sch_integer),
	SCH_FIELD("phase", &sch_string),
	SCH_FIELD("waves", &wave_statuses),
	SCH_END,
};
static const struct sch_node fleet_status = { .type = SCH_OBJECT, .fields = fleet_status_fields };
static const struct sch_field fleet_fields[] = {
	ROOT_COMMON,
	SCH_FIELD("spec", &fleet_spec),
	SCH_FIELD("status", &fleet_status),
	SCH_END,
};
static const struct sch_node fleet = { .type = SCH_OBJECT, .fields = fleet_fields };

/*
 * StageSet (stages.metio.wtf/v1, the CRD of stageset-controller@f2c7604):
 * every field with its type, required flag, enum, bounds, pattern, format,
 * list-map key and the one default the CRD sets; the two CEL rules of
 * spec.kubeConfig are check_kube_config().  Deviations, as for FleetRollout's
 * soak: metav1.Duration fields (`type: string` in the CRD) are checked as Go
 * durations and `format: int32` integers as int32, because the controller
 * cannot decode anything else; a `date-time` the API server takes but
 * metav1.Time cannot read is refused too (sim/cluster/schema.h).
 */

static bool stage_name_pattern(const char *s);
static bool condition_reason_pattern(const char *s);
static bool condition_type_pattern(const char *s);

static const struct sch_node int32_node = { .type = SCH_INTEGER, .format = SCH_FORMAT_INT32 };
static const struct sch_node int32_non_negative = { .type = SCH_INTEGER, .has_minimum = true, .minimum = 0,
						    .format = SCH_FORMAT_INT32 };
static const char *const hold_rollback_values[] = { "Hold", "Rollback", NULL };
static const struct sch_node hold_rollback = { .type = SCH_STRING, .enum_values = hold_rollback_values };

/* SourceReference (sourceRef of stages, migrationsSourceRef, job and apply actions). */
static const struct sch_field source_ref_fields[] = {
	SCH_FIELD("apiVersion", &sch_string),
	SCH_FIELD("kind", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("namespace", &sch_string),
	SCH_END,
};
static const struct sch_node source_ref = { .type = SCH_OBJECT, .fields = source_ref_fields };

/* Action: one verb of patch, http, wait, job, delete, apply (the webhook checks "one"). */
static const struct sch_field patch_target_fields[] = {
	SCH_FIELD("apiVersion", &sch_string),
	SCH_REQUIRED("kind", &sch_string),
	SCH_FIELD("name", &sch_string),
	SCH_FIELD("namespace", &sch_string),
	SCH_FIELD("selector", &label_selector),
	SCH_END,
};
static const struct sch_node patch_target = { .type = SCH_OBJECT, .fields = patch_target_fields };
static const char *const patch_type_values[] = { "merge", "json6902", NULL };
static const struct sch_node patch_type = { .type = SCH_STRING, .enum_values = patch_type_values };
static const struct sch_field patch_action_fields[] = {
	SCH_REQUIRED("patch", &sch_string),
	SCH_REQUIRED("target", &patch_target),
	SCH_FIELD("type", &patch_type),
	SCH_END,
};
static const struct sch_node patch_action = { .type = SCH_OBJECT, .fields = patch_action_fields };
static const struct sch_field key_ref_fields[] = {
	SCH_FIELD("key", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_END,
};
static const struct sch_node key_ref = { .type = SCH_OBJECT, .fields = key_ref_fields };
static const struct sch_node key_refs = { .type = SCH_ARRAY, .items = &key_ref };
static const struct sch_node http_status = { .type = SCH_INTEGER, .has_minimum = true, .minimum = 100,
					     .has_maximum = true, .maximum = 599, .format = SCH_FORMAT_INT32 };
static const struct sch_node http_statuses = { .type = SCH_ARRAY, .items = &http_status };
static const char *const http_method_values[] = { "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", NULL };
static const struct sch_node http_method = { .type = SCH_STRING, .enum_values = http_method_values };
static const struct sch_field http_action_fields[] = {
	SCH_FIELD("body", &sch_string),
	SCH_FIELD("bodyFrom", &key_ref),
	SCH_FIELD("expectedStatus", &http_statuses),
	SCH_FIELD("headersFrom", &key_refs),
	SCH_FIELD("method", &http_method),
	SCH_REQUIRED("url", &sch_string),
	SCH_END,
};
static const struct sch_node http_action = { .type = SCH_OBJECT, .fields = http_action_fields };
/* An object by apiVersion, kind and name (wait and delete targets). */
static const struct sch_field object_ref_fields[] = {
	SCH_FIELD("apiVersion", &sch_string),
	SCH_REQUIRED("kind", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("namespace", &sch_string),
	SCH_END,
};
static const struct sch_node object_ref = { .type = SCH_OBJECT, .fields = object_ref_fields };
static const struct sch_field wait_action_fields[] = {
	SCH_FIELD("duration", &sch_duration),
	SCH_FIELD("expr", &sch_string),
	SCH_FIELD("target", &object_ref),
	SCH_FIELD("timeout", &sch_duration),
	SCH_END,
};
static const struct sch_node wait_action = { .type = SCH_OBJECT, .fields = wait_action_fields };
static const struct sch_field job_action_fields[] = {
	SCH_FIELD("path", &sch_string),
	SCH_REQUIRED("sourceRef", &source_ref),
	SCH_END,
};
static const struct sch_node job_action = { .type = SCH_OBJECT, .fields = job_action_fields };
static const char *const cascade_values[] = { "Background", "Foreground", "Orphan", NULL };
static const struct sch_node cascade = { .type = SCH_STRING, .enum_values = cascade_values };
static const struct sch_field delete_action_fields[] = {
	SCH_FIELD("cascade", &cascade),
	SCH_REQUIRED("target", &object_ref),
	SCH_END,
};
static const struct sch_node delete_action = { .type = SCH_OBJECT, .fields = delete_action_fields };
static const struct sch_field apply_action_fields[] = {
	SCH_FIELD("path", &sch_string),
	SCH_REQUIRED("sourceRef", &source_ref),
	SCH_FIELD("wait", &sch_boolean),
	SCH_END,
};
static const struct sch_node apply_action = { .type = SCH_OBJECT, .fields = apply_action_fields };
static const struct sch_field anchor_fields[] = {
	SCH_REQUIRED("apiVersion", &sch_string),
	SCH_REQUIRED("kind", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_END,
};
static const struct sch_node completion_anchor = { .type = SCH_OBJECT, .fields = anchor_fields };
static const char *const scope_values[] = { "Revision", "Version", "Lifetime", NULL };
static const struct sch_node action_scope = { .type = SCH_STRING, .enum_values = scope_values };
static const struct sch_node retries = { .type = SCH_INTEGER, .has_minimum = true, .minimum = 0,
					 .has_maximum = true, .maximum = 100, .format = SCH_FORMAT_INT32 };
static const struct sch_field action_fields[] = {
	SCH_FIELD("apply", &apply_action),
	SCH_FIELD("completionAnchor", &completion_anchor),
	SCH_FIELD("delete", &delete_action),
	SCH_FIELD("http", &http_action),
	SCH_FIELD("job", &job_action),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("patch", &patch_action),
	SCH_FIELD("retries", &retries),
	SCH_FIELD("scope", &action_scope),
	SCH_FIELD("timeout", &sch_duration),
	SCH_FIELD("wait", &wait_action),
	SCH_END,
};
static const struct sch_node action = { .type = SCH_OBJECT, .fields = action_fields };
static const struct sch_node actions = { .type = SCH_ARRAY, .items = &action };

/* Versions and migrations. */
static const char *const approval_values[] = { "Never", "OnMigrations", "Always", NULL };
static const struct sch_node approval_mode = { .type = SCH_STRING, .enum_values = approval_values };
static const struct sch_field from_artifact_fields[] = {
	SCH_REQUIRED("path", &sch_string),
	SCH_REQUIRED("stage", &sch_string),
	SCH_END,
};
static const struct sch_node from_artifact = { .type = SCH_OBJECT, .fields = from_artifact_fields };
static const struct sch_field from_object_fields[] = {
	SCH_FIELD("apiVersion", &sch_string),
	SCH_FIELD("fieldPath", &sch_string),
	SCH_REQUIRED("kind", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("stage", &sch_string),
	SCH_END,
};
static const struct sch_node from_object = { .type = SCH_OBJECT, .fields = from_object_fields };
static const struct sch_field version_fields[] = {
	SCH_FIELD("allowDowngrade", &sch_boolean),
	SCH_FIELD("approvalMode", &approval_mode),
	SCH_FIELD("fromArtifact", &from_artifact),
	SCH_FIELD("fromObject", &from_object),
	SCH_FIELD("requireMigrationCoverage", &sch_boolean),
	SCH_FIELD("value", &sch_string),
	SCH_END,
};
static const struct sch_node version_spec = { .type = SCH_OBJECT, .fields = version_fields };
static const struct sch_field migration_fields[] = {
	SCH_FIELD("actions", &actions),
	SCH_FIELD("down", &actions),
	SCH_FIELD("from", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("stage", &sch_string),
	SCH_REQUIRED("to", &sch_string),
	SCH_END,
};
static const struct sch_node migration = { .type = SCH_OBJECT, .fields = migration_fields };
static const struct sch_node migrations = { .type = SCH_ARRAY, .items = &migration };
static const struct sch_field migrations_source_fields[] = {
	SCH_FIELD("path", &sch_string),
	SCH_REQUIRED("sourceRef", &source_ref),
	SCH_END,
};
static const struct sch_node migrations_source = { .type = SCH_OBJECT, .fields = migrations_source_fields };

/* Windows, budgets, dependencies, the target cluster, decryption. */
static const char *const window_type_values[] = { "Allow", "Deny", NULL };
static const struct sch_node window_type = { .type = SCH_STRING, .enum_values = window_type_values };
static const struct sch_field window_fields[] = {
	SCH_FIELD("duration", &sch_duration),
	SCH_FIELD("from", &date_time),
	SCH_FIELD("schedule", &sch_string),
	SCH_FIELD("timeZone", &sch_string),
	SCH_FIELD("to", &date_time),
	SCH_REQUIRED("type", &window_type),
	SCH_END,
};
static const struct sch_node window = { .type = SCH_OBJECT, .fields = window_fields };
static const struct sch_node windows = { .type = SCH_ARRAY, .items = &window };
static const char *const window_scope_values[] = { "Updates", "All", NULL };
static const struct sch_node window_scope = { .type = SCH_STRING,
					      .enum_values = window_scope_values };
static const char *const allow_hold_values[] = { "Allow", "Hold", NULL };
static const struct sch_node allow_hold = { .type = SCH_STRING, .enum_values = allow_hold_values };
static const struct sch_field error_budget_fields[] = {
	SCH_FIELD("dryRun", &sch_boolean),
	SCH_REQUIRED("freezeThreshold", &sch_string),
	SCH_FIELD("interval", &sch_duration),
	SCH_FIELD("onSourceError", &allow_hold),
	SCH_FIELD("resumeThreshold", &sch_string),
	SCH_REQUIRED("source", &metric_source),
	SCH_END,
};
static const struct sch_node error_budget = { .type = SCH_OBJECT, .fields = error_budget_fields };
static const struct sch_field dependency_fields[] = {
	SCH_FIELD("minVersion", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("namespace", &sch_string),
	SCH_END,
};
static const struct sch_node dependency = { .type = SCH_OBJECT, .fields = dependency_fields };
static const struct sch_node dependencies = { .type = SCH_ARRAY, .items = &dependency };
static const struct sch_field secret_key_ref_fields[] = {
	SCH_FIELD("key", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_END,
};
static const struct sch_node secret_key_ref = { .type = SCH_OBJECT, .fields = secret_key_ref_fields };

/*
 * The CRD's two CEL rules on spec.kubeConfig, `has(self.configMapRef) ||
 * has(self.secretRef)` and `!has(self.configMapRef) || !has(self.secretRef)`,
 * with their one message; at most one of them can fail.
 */
static void check_kube_config(struct sch_ctx *c, const struct val *v, const char *path)
{
	bool cm = val_map_get(v, "configMapRef") != NULL, secret = val_map_get(v, "secretRef") != NULL;

	if (cm == secret)
		sch_report(c, v->mark, path,
			   "Invalid value: \"object\": exactly one of spec.kubeConfig.configMapRef or "
			   "spec.kubeConfig.secretRef must be specified");
}

static const struct sch_field kube_config_fields[] = {
	SCH_FIELD("configMapRef", &secret_ref), /* LocalObjectReference: {name} */
	SCH_FIELD("secretRef", &secret_key_ref),
	SCH_END,
};
static const struct sch_node kube_config = { .type = SCH_OBJECT, .fields = kube_config_fields,
					     .check = check_kube_config };
static const char *const sops_values[] = { "sops", NULL };
static const struct sch_node sops = { .type = SCH_STRING, .enum_values = sops_values };
static const struct sch_field decryption_fields[] = {
	SCH_REQUIRED("provider", &sops),
	SCH_FIELD("secretRef", &secret_ref),
	SCH_END,
};
static const struct sch_node decryption = { .type = SCH_OBJECT, .fields = decryption_fields };

/* A stage: build inputs, actions, ready checks, promotion, budget. */
static const struct sch_field stage_actions_fields[] = {
	SCH_FIELD("onFailure", &actions),
	SCH_FIELD("post", &actions),
	SCH_FIELD("pre", &actions),
	SCH_END,
};
static const struct sch_node stage_actions = { .type = SCH_OBJECT, .fields = stage_actions_fields };
static const char *const conflict_values[] = { "Fail", "Recreate", "KeepExisting", NULL };
static const struct sch_node conflict_action = { .type = SCH_STRING, .enum_values = conflict_values };
static const struct sch_field conflict_target_fields[] = {
	SCH_FIELD("apiVersion", &sch_string),
	SCH_FIELD("kind", &sch_string),
	SCH_FIELD("name", &sch_string),
	SCH_FIELD("namespace", &sch_string),
	SCH_END,
};
static const struct sch_node conflict_target = { .type = SCH_OBJECT, .fields = conflict_target_fields };
static const struct sch_field conflict_rule_fields[] = {
	SCH_REQUIRED("action", &conflict_action),
	SCH_FIELD("allowDataLoss", &sch_boolean),
	SCH_REQUIRED("target", &conflict_target),
	SCH_END,
};
static const struct sch_node conflict_rule = { .type = SCH_OBJECT, .fields = conflict_rule_fields };
static const struct sch_node conflict_rules = { .type = SCH_ARRAY, .items = &conflict_rule };
static const struct sch_field conflict_policy_fields[] = {
	SCH_DEFAULT("default", &conflict_action, "Fail"),
	SCH_FIELD("rules", &conflict_rules),
	SCH_END,
};
static const struct sch_node conflict_policy = { .type = SCH_OBJECT, .fields = conflict_policy_fields };
static const struct sch_field kustomize_target_fields[] = {
	SCH_FIELD("annotationSelector", &sch_string),
	SCH_FIELD("group", &sch_string),
	SCH_FIELD("kind", &sch_string),
	SCH_FIELD("labelSelector", &sch_string),
	SCH_FIELD("name", &sch_string),
	SCH_FIELD("namespace", &sch_string),
	SCH_FIELD("version", &sch_string),
	SCH_END,
};
static const struct sch_node kustomize_target = { .type = SCH_OBJECT, .fields = kustomize_target_fields };
static const struct sch_field kustomize_patch_fields[] = {
	SCH_REQUIRED("patch", &sch_string),
	SCH_FIELD("target", &kustomize_target),
	SCH_END,
};
static const struct sch_node kustomize_patch = { .type = SCH_OBJECT, .fields = kustomize_patch_fields };
static const struct sch_node kustomize_patches = { .type = SCH_ARRAY, .items = &kustomize_patch };
static const char *const substitute_kind_values[] = { "ConfigMap", "Secret", NULL };
static const struct sch_node substitute_kind = { .type = SCH_STRING, .enum_values = substitute_kind_values };
static const struct sch_field substitute_from_fields[] = {
	SCH_REQUIRED("kind", &substitute_kind),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("optional", &sch_boolean),
	SCH_END,
};
static const struct sch_node substitute_ref = { .type = SCH_OBJECT, .fields = substitute_from_fields };
static const struct sch_node substitute_refs = { .type = SCH_ARRAY, .items = &substitute_ref };
static const struct sch_field post_build_fields[] = {
	SCH_FIELD("substitute", &sch_string_map),
	SCH_FIELD("substituteFrom", &substitute_refs),
	SCH_END,
};
static const struct sch_node post_build = { .type = SCH_OBJECT, .fields = post_build_fields };
static const struct sch_field ready_check_ref_fields[] = {
	SCH_FIELD("apiVersion", &sch_string),
	SCH_REQUIRED("kind", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("namespace", &sch_string),
	SCH_END,
};
static const struct sch_node ready_check_ref = { .type = SCH_OBJECT, .fields = ready_check_ref_fields };
static const struct sch_node ready_check_refs = { .type = SCH_ARRAY, .items = &ready_check_ref };
static const struct sch_field ready_expr_fields[] = {
	SCH_REQUIRED("apiVersion", &sch_string),
	SCH_FIELD("current", &sch_string),
	SCH_FIELD("failed", &sch_string),
	SCH_FIELD("inProgress", &sch_string),
	SCH_REQUIRED("kind", &sch_string),
	SCH_END,
};
static const struct sch_node ready_expr = { .type = SCH_OBJECT, .fields = ready_expr_fields };
static const struct sch_node ready_exprs = { .type = SCH_ARRAY, .items = &ready_expr };
static const struct sch_field ready_checks_fields[] = {
	SCH_FIELD("checks", &ready_check_refs),
	SCH_FIELD("disableWait", &sch_boolean),
	SCH_FIELD("exprs", &ready_exprs),
	SCH_FIELD("timeout", &sch_duration),
	SCH_END,
};
static const struct sch_node ready_checks = { .type = SCH_OBJECT, .fields = ready_checks_fields };
/* StagePromotion. */
static const struct sch_field analysis_check_fields[] = {
	SCH_REQUIRED("name", &sch_string),
	SCH_REQUIRED("source", &metric_source),
	SCH_REQUIRED("threshold", &threshold),
	SCH_END,
};
static const struct sch_node analysis_check = { .type = SCH_OBJECT, .fields = analysis_check_fields };
static const struct sch_node analysis_checks = { .type = SCH_ARRAY, .items = &analysis_check, .min_items = 1 };
static const char *const hold_allow_values[] = { "Hold", "Allow", NULL };
static const struct sch_node hold_allow = { .type = SCH_STRING, .enum_values = hold_allow_values };
static const struct sch_field analysis_fields[] = {
	SCH_REQUIRED("checks", &analysis_checks),
	SCH_FIELD("dryRun", &sch_boolean),
	SCH_FIELD("failureLimit", &int32_non_negative),
	SCH_FIELD("interval", &sch_duration),
	SCH_FIELD("onFailure", &hold_rollback),
	SCH_FIELD("onSourceError", &hold_allow),
	SCH_END,
};
static const struct sch_node analysis = { .type = SCH_OBJECT, .fields = analysis_fields };
static const struct sch_node reasons = { .type = SCH_ARRAY, .items = &sch_string, .min_items = 1 };
static const struct sch_field event_check_fields[] = {
	SCH_FIELD("maxEvents", &int32_non_negative),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("onFailure", &hold_rollback),
	SCH_REQUIRED("reasons", &reasons),
	SCH_REQUIRED("selector", &label_selector),
	SCH_END,
};
static const struct sch_node event_check = { .type = SCH_OBJECT, .fields = event_check_fields };
static const struct sch_node event_checks = { .type = SCH_ARRAY, .items = &event_check, .list_map_key = "name" };
static const struct sch_field event_gate_fields[] = {
	SCH_REQUIRED("checks", &event_checks),
	SCH_FIELD("onFailure", &hold_rollback),
	SCH_END,
};
static const struct sch_node event_gate = { .type = SCH_OBJECT, .fields = event_gate_fields };
static const struct sch_field restart_check_fields[] = {
	SCH_FIELD("maxRestarts", &int32_non_negative),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("onFailure", &hold_rollback),
	SCH_REQUIRED("selector", &label_selector),
	SCH_END,
};
static const struct sch_node restart_check = { .type = SCH_OBJECT, .fields = restart_check_fields };
static const struct sch_node restart_checks = { .type = SCH_ARRAY, .items = &restart_check,
						.list_map_key = "name" };
static const struct sch_field restart_gate_fields[] = {
	SCH_REQUIRED("checks", &restart_checks),
	SCH_FIELD("onFailure", &hold_rollback),
	SCH_END,
};
static const struct sch_node restart_gate = { .type = SCH_OBJECT, .fields = restart_gate_fields };
static const struct sch_field fast_track_fields[] = {
	SCH_FIELD("after", &sch_duration),
	SCH_REQUIRED("max", &sch_string),
	SCH_REQUIRED("source", &metric_source),
	SCH_END,
};
static const struct sch_node fast_track = { .type = SCH_OBJECT, .fields = fast_track_fields };
static const struct sch_field promotion_fields[] = {
	SCH_FIELD("analysis", &analysis),
	SCH_FIELD("eventGate", &event_gate),
	SCH_FIELD("fastTrack", &fast_track),
	SCH_FIELD("requireManualPromotion", &sch_boolean),
	SCH_FIELD("restartGate", &restart_gate),
	SCH_FIELD("soak", &sch_duration),
	SCH_END,
};
static const struct sch_node promotion = { .type = SCH_OBJECT, .fields = promotion_fields };
static const char *const on_timeout_values[] = { "Hold", "Rollback", NULL };
static const struct sch_node on_timeout = { .type = SCH_STRING, .enum_values = on_timeout_values };
static const struct sch_node stage_name = { .type = SCH_STRING, .pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
					    .pattern_match = stage_name_pattern };
static const struct sch_field stage_fields[] = {
	SCH_FIELD("actions", &stage_actions),
	SCH_FIELD("applyHelmHookResources", &sch_boolean),
	SCH_FIELD("conflictPolicy", &conflict_policy),
	SCH_FIELD("errorBudget", &error_budget),
	SCH_FIELD("force", &sch_boolean),
	SCH_FIELD("migrationAnchor", &sch_string),
	SCH_REQUIRED("name", &stage_name),
	SCH_FIELD("onTimeout", &on_timeout),
	SCH_FIELD("patches", &kustomize_patches),
	SCH_FIELD("path", &sch_string),
	SCH_FIELD("postBuild", &post_build),
	SCH_FIELD("promotion", &promotion),
	SCH_FIELD("prune", &sch_boolean),
	SCH_FIELD("readyChecks", &ready_checks),
	SCH_FIELD("serviceAccountName", &sch_string),
	SCH_REQUIRED("sourceRef", &source_ref),
	SCH_FIELD("timeout", &sch_duration),
	SCH_END,
};
static const struct sch_node stage = { .type = SCH_OBJECT, .fields = stage_fields };
static const struct sch_node stages = { .type = SCH_ARRAY, .items = &stage, .min_items = 1 };
static const struct sch_field stageset_spec_fields[] = {
	SCH_FIELD("decryption", &decryption),
	SCH_FIELD("dependsOn", &dependencies),
	SCH_FIELD("driftDetectionInterval", &sch_duration),
	SCH_FIELD("errorBudget", &error_budget),
	SCH_FIELD("interval", &sch_duration),
	SCH_FIELD("kubeConfig", &kube_config),
	SCH_FIELD("migrations", &migrations),
	SCH_FIELD("migrationsSourceRef", &migrations_source),
	SCH_FIELD("onRollback", &actions),
	SCH_FIELD("onTimeout", &on_timeout),
	SCH_FIELD("retryInterval", &sch_duration),
	SCH_FIELD("rollbackOnFailure", &sch_boolean),
	SCH_FIELD("serviceAccountName", &sch_string),
	SCH_REQUIRED("stages", &stages),
	SCH_FIELD("suspend", &sch_boolean),
	SCH_FIELD("timeout", &sch_duration),
	SCH_FIELD("updateWindows", &windows),
	SCH_FIELD("version", &version_spec),
	SCH_FIELD("windowScope", &window_scope),
	SCH_END,
};
static const struct sch_node stageset_spec = { .type = SCH_OBJECT, .fields = stageset_spec_fields };

/* StageSetStatus. */
static const struct sch_node non_negative_int64 = { .type = SCH_INTEGER, .has_minimum = true, .minimum = 0 };
static const struct sch_node condition_message = { .type = SCH_STRING, .max_length = 32768 };
static const struct sch_node condition_reason = {
	.type = SCH_STRING, .min_length = 1, .max_length = 1024,
	.pattern = "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$", .pattern_match = condition_reason_pattern,
};
static const struct sch_node condition_type = {
	.type = SCH_STRING, .max_length = 316,
	.pattern = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
	.pattern_match = condition_type_pattern,
};
static const struct sch_field ss_condition_fields[] = {
	SCH_REQUIRED("lastTransitionTime", &date_time),
	SCH_REQUIRED("message", &condition_message),
	SCH_FIELD("observedGeneration", &non_negative_int64),
	SCH_REQUIRED("reason", &condition_reason),
	SCH_REQUIRED("status", &cond_status),
	SCH_REQUIRED("type", &condition_type),
	SCH_END,
};
static const struct sch_node ss_condition = { .type = SCH_OBJECT, .fields = ss_condition_fields };
/* a plain list in StageSet's CRD (no list-map keys) */
static const struct sch_node ss_conditions = { .type = SCH_ARRAY, .items = &ss_condition };
static const struct sch_field budget_freeze_fields[] = {
	SCH_FIELD("dryRun", &sch_boolean),
	SCH_FIELD("freezeThreshold", &sch_string),
	SCH_FIELD("remaining", &sch_string),
	SCH_FIELD("resumeThreshold", &sch_string),
	SCH_FIELD("since", &date_time),
	SCH_END,
};
static const struct sch_node budget_freeze = { .type = SCH_OBJECT, .fields = budget_freeze_fields };
static const struct sch_field artifact_ref_fields[] = {
	SCH_REQUIRED("digest", &sch_string),
	SCH_FIELD("revision", &sch_string),
	SCH_REQUIRED("stage", &sch_string),
	SCH_FIELD("substitutionDigest", &sch_string),
	SCH_REQUIRED("url", &sch_string),
	SCH_END,
};
static const struct sch_node artifact_ref = { .type = SCH_OBJECT, .fields = artifact_ref_fields };
static const struct sch_node artifact_refs = { .type = SCH_ARRAY, .items = &artifact_ref };
static const struct sch_field pending_migration_fields[] = {
	SCH_FIELD("actions", &sch_string_list),
	SCH_FIELD("digest", &sch_string),
	SCH_FIELD("from", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("stage", &sch_string),
	SCH_REQUIRED("to", &sch_string),
	SCH_END,
};
static const struct sch_node pending_migration = { .type = SCH_OBJECT, .fields = pending_migration_fields };
static const struct sch_node pending_migrations = { .type = SCH_ARRAY, .items = &pending_migration };
static const struct sch_field pending_update_fields[] = {
	SCH_FIELD("nextWindowOpens", &date_time),
	SCH_FIELD("revisions", &sch_string_map),
	SCH_END,
};
static const struct sch_node pending_update = { .type = SCH_OBJECT,
						.fields = pending_update_fields };
static const struct sch_field check_result_fields[] = {
	SCH_FIELD("error", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("ok", &sch_boolean),
	SCH_FIELD("value", &sch_string),
	SCH_END,
};
static const struct sch_node check_result = { .type = SCH_OBJECT, .fields = check_result_fields };
static const struct sch_node check_results = { .type = SCH_ARRAY, .items = &check_result };
static const struct sch_field analysis_result_fields[] = {
	SCH_FIELD("checks", &check_results),
	SCH_FIELD("passed", &sch_boolean),
	SCH_FIELD("time", &date_time),
	SCH_END,
};
static const struct sch_node analysis_result = { .type = SCH_OBJECT, .fields = analysis_result_fields };
static const struct sch_field restart_baseline_fields[] = {
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("restarts", &int32_node),
	SCH_END,
};
static const struct sch_node restart_baseline = { .type = SCH_OBJECT, .fields = restart_baseline_fields };
static const struct sch_node restart_baselines = { .type = SCH_ARRAY, .items = &restart_baseline };
static const struct sch_field promotion_state_fields[] = {
	SCH_FIELD("abortedRevision", &sch_string),
	SCH_FIELD("analysisFailures", &int32_node),
	SCH_FIELD("eventCheck", &sch_string),
	SCH_FIELD("lastAnalysis", &analysis_result),
	SCH_FIELD("observedEvents", &int32_node),
	SCH_FIELD("observedRestarts", &int32_node),
	SCH_FIELD("phase", &sch_string),
	SCH_FIELD("restartBaseline", &restart_baselines),
	SCH_FIELD("restartCheck", &sch_string),
	SCH_FIELD("since", &date_time),
	SCH_FIELD("soakUntil", &date_time),
	SCH_END,
};
static const struct sch_node promotion_state = { .type = SCH_OBJECT, .fields = promotion_state_fields };
static const char *const stage_phase_values[] = { "Pending", "Applying", "Pruning", "Verifying", "Ready", "Failed",
						  NULL };
static const struct sch_node stage_phase = { .type = SCH_STRING, .enum_values = stage_phase_values };
static const struct sch_field stage_status_fields[] = {
	SCH_FIELD("appliedRevision", &sch_string),
	SCH_FIELD("budgetFreeze", &budget_freeze),
	SCH_FIELD("entriesCount", &sch_integer),
	SCH_FIELD("executedActions", &sch_string_list),
	SCH_FIELD("executedVersionActions", &sch_string_list),
	SCH_FIELD("lastHandledPromotion", &sch_string),
	SCH_FIELD("lastHandledReconcileAt", &sch_string),
	SCH_FIELD("ledgerRevision", &sch_string),
	SCH_FIELD("ledgerVersion", &sch_string),
	SCH_FIELD("message", &sch_string),
	SCH_REQUIRED("name", &sch_string),
	SCH_FIELD("phase", &stage_phase),
	SCH_FIELD("promotionState", &promotion_state),
	SCH_FIELD("shards", &int32_node),
	SCH_END,
};
static const struct sch_node stage_status = { .type = SCH_OBJECT, .fields = stage_status_fields };
static const struct sch_node stage_statuses = { .type = SCH_ARRAY, .items = &stage_status };
static const struct sch_field stageset_status_fields[] = {
	SCH_FIELD("actionFailureCount", &int32_node),
	SCH_FIELD("budgetFreeze", &budget_freeze),
	SCH_FIELD("conditions", &ss_conditions),
	SCH_FIELD("executedMigrationActions", &sch_string_list),
	SCH_FIELD("executedMigrations", &sch_string_list),
	SCH_FIELD("lastAppliedRevisions", &sch_string_map),
	SCH_FIELD("lastAppliedSnapshot", &artifact_refs),
	SCH_FIELD("lastAttemptedRevisions", &sch_string_map),
	SCH_FIELD("lastHandledBudgetOverride", &sch_string),
	SCH_FIELD("lastHandledReconcileAt", &sch_string),
	SCH_FIELD("lastHandledResetScope", &sch_string),
	SCH_FIELD("lastHandledUpdateOverride", &sch_string),
	SCH_FIELD("migrationFailureCount", &int32_node),
	SCH_FIELD("observedGeneration", &sch_integer),
	SCH_FIELD("pendingMigrations", &pending_migrations),
	SCH_FIELD("pendingUpdate", &pending_update),
	SCH_FIELD("pendingVersion", &sch_string),
	SCH_FIELD("stages", &stage_statuses),
	SCH_FIELD("version", &sch_string),
	SCH_END,
};
static const struct sch_node stageset_status = { .type = SCH_OBJECT,
						 .fields = stageset_status_fields };
static const struct sch_field stageset_fields[] = {
	ROOT_COMMON,
	SCH_FIELD("spec", &stageset_spec),
	SCH_FIELD("status", &stageset_status),
	SCH_END,
};
static const struct sch_node stageset = { .type = SCH_OBJECT, .fields = stageset_fields };

/* ---- core v1 and Kyverno ---------------------------------------------------- */

static const struct sch_field ns_spec_fields[] = {
	SCH_FIELD("finalizers", &sch_string_list),
	SCH_END,
};
static const struct sch_node ns_spec = { .type = SCH_OBJECT, .fields = ns_spec_fields };
static const struct sch_field namespace_fields[] = {
	ROOT_COMMON,
	SCH_FIELD("spec", &ns_spec),
	SCH_FIELD("status", &sch_any_object),
	SCH_END,
};
static const struct sch_node namespace_kind = { .type = SCH_OBJECT, .fields = namespace_fields };

/* Secret data and stringData are free-form maps of strings (data is base64; not decoded). */
static const struct sch_field secret_fields[] = {
	ROOT_COMMON,
	SCH_FIELD("data", &sch_string_map),
	SCH_FIELD("stringData", &sch_string_map),
	SCH_FIELD("type", &sch_string),
	SCH_FIELD("immutable", &sch_boolean),
	SCH_END,
};
static const struct sch_node secret = { .type = SCH_OBJECT, .fields = secret_fields };

/* Kyverno ValidatingPolicy: only labels matter to the simulator; spec is kept as written. */
static const struct sch_field vpol_fields[] = {
	ROOT_COMMON,
	SCH_FIELD("spec", &sch_any_object),
	SCH_FIELD("status", &sch_any_object),
	SCH_END,
};
static const struct sch_node vpol = { .type = SCH_OBJECT, .fields = vpol_fields };

/*
 * Flux sources (source.toolkit.fluxcd.io/v1) and the StageLedger: read by the
 * StageSet controller as they are (sourceRef resolution reads the artifact
 * and Ready condition of the status; the ledger its baseline and completions),
 * so spec and status are kept as written.
 */
static const struct sch_field free_form_fields[] = {
	ROOT_COMMON,
	SCH_FIELD("spec", &sch_any_object),
	SCH_FIELD("status", &sch_any_object),
	SCH_END,
};
static const struct sch_node free_form = { .type = SCH_OBJECT, .fields = free_form_fields };

/*
 * batch/v1 Job: spec and status as written, and `podLog`, where the
 * simulator keeps what the plan pod's log said (the Job runner's result, see
 * sim/models/models.h), so that a snapshot of a finished plan resumes with
 * what the Workspace controller reads from it.
 */
/*
 * Its times are metav1.Time: the API server refuses what does not decode,
 * and a running Job's startTime is where a resumed run takes its elapsed
 * time from, so a hand-edited one must not pass as "not started yet".
 */
static const struct sch_field job_status_fields[] = {
	SCH_FIELD("completionTime", &date_time),
	SCH_FIELD("startTime", &date_time),
	SCH_END,
};
static const struct sch_node job_status = { .type = SCH_OBJECT, .fields = job_status_fields,
					    .preserve_unknown = true };
static const struct sch_field job_fields[] = {
	ROOT_COMMON,
	SCH_FIELD("spec", &sch_any_object),
	SCH_FIELD("status", &job_status),
	SCH_FIELD("podLog", &sch_any_object),
	SCH_END,
};
static const struct sch_node job_kind = { .type = SCH_OBJECT, .fields = job_fields };

static const struct adm_kind kinds[] = {
	{ "magosproject.io/v1alpha1", "Project", true, &project, ADM_LIST_MAPS_STATUS },
	{ "magosproject.io/v1alpha1", "Rollout", true, &rollout, ADM_LIST_MAPS_STATUS },
	{ "magosproject.io/v1alpha1", "Workspace", true, &workspace, ADM_LIST_MAPS_STATUS },
	{ "stages.metio.wtf/v1", "FleetRollout", false, &fleet, ADM_LIST_MAPS_STATUS },
	{ "stages.metio.wtf/v1", "StageSet", true, &stageset, ADM_LIST_MAPS_SPEC },
	{ "v1", "Namespace", false, &namespace_kind, 0 },
	{ "v1", "Secret", true, &secret, 0 },
	{ "policies.kyverno.io/v1", "ValidatingPolicy", false, &vpol, 0 },
	{ "stages.metio.wtf/v1", "StageLedger", true, &free_form, 0 },
	{ "source.toolkit.fluxcd.io/v1", "GitRepository", true, &free_form, 0 },
	{ "source.toolkit.fluxcd.io/v1", "OCIRepository", true, &free_form, 0 },
	{ "source.toolkit.fluxcd.io/v1", "Bucket", true, &free_form, 0 },
	{ "source.toolkit.fluxcd.io/v1", "ExternalArtifact", true, &free_form, 0 },
	/*
	 * What the Workspace controller creates and reads, in a snapshot: kept
	 * as written so that it sees its Jobs (a completed run is history, a
	 * running Job resumes in the runner) and its PVC.
	 */
	{ "batch/v1", "Job", true, &job_kind, 0 },
	{ "v1", "PersistentVolumeClaim", true, &free_form, 0 },
};

const struct adm_kind *adm_find_kind(const char *api_version, const char *kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].api_version, api_version) == 0 &&
		    strcmp(kinds[i].kind, kind) == 0)
			return &kinds[i];
	return NULL;
}

char *adm_supported_kinds(void)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		char *next = xasprintf("%s%s%s (%s)", out, i ? ", " : "", kinds[i].kind,
				       kinds[i].api_version);

		free(out);
		out = next;
	}
	return out;
}

/* ---- name syntax (apimachinery validation) ---------------------------------------- */

static bool is_lower_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

static bool is_alnum(char ch)
{
	return is_lower_alnum(ch) || (ch >= 'A' && ch <= 'Z');
}

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? over @n bytes. */
static bool label_part(const char *s, size_t n)
{
	if (n == 0 || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

static bool subdomain_syntax(const char *s);

/* label_syntax() - the DNS-1123 label regex, whatever the length. */
static bool label_syntax(const char *s)
{
	return label_part(s, strlen(s));
}

/* spec.stages[].name's pattern ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$: a DNS-1123 label of any length. */
static bool stage_name_pattern(const char *s)
{
	return label_syntax(s);
}

/* metav1.Condition reason: ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$ */
static bool condition_reason_pattern(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
		return false;
	for (size_t i = 1; i < n; i++) {
		bool inner = is_alnum(s[i]) || s[i] == '_' || s[i] == ',' || s[i] == ':';

		if (!inner || (i == n - 1 && !(is_alnum(s[i]) || s[i] == '_')))
			return false;
	}
	return true;
}

/*
 * metav1.Condition type: an optional DNS-1123 subdomain (any length) and '/',
 * then ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] (any length).
 */
static bool condition_type_pattern(const char *s)
{
	const char *slash = strchr(s, '/');
	const char *name = s;
	size_t n;

	if (slash) {
		char *prefix = xstrndup(s, (size_t)(slash - s));
		bool ok = subdomain_syntax(prefix);

		free(prefix);
		if (!ok)
			return false;
		name = slash + 1;
	}
	n = strlen(name);
	if (n == 0 || !is_alnum(name[0]) || !is_alnum(name[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum(name[i]) && name[i] != '-' && name[i] != '_' && name[i] != '.')
			return false;
	return true;
}

bool adm_is_dns1123_label(const char *s)
{
	return strlen(s) <= 63 && label_syntax(s);
}

bool adm_is_dns1123_subdomain(const char *s)
{
	size_t n = strlen(s);

	return n <= 253 && subdomain_syntax(s);
}

/* subdomain_syntax() - the DNS-1123 subdomain regex, whatever the length. */
static bool subdomain_syntax(const char *s)
{
	const char *p = s;

	if (!*p)
		return false;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);

		if (!label_part(p, len))
			return false;
		if (!dot)
			return true;
		p = dot + 1;
	}
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 bytes. */
static bool name_part(const char *s, size_t n)
{
	if (n == 0 || n > 63 || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

bool adm_is_qualified_name(const char *s)
{
	const char *slash = strchr(s, '/');

	if (!slash)
		return name_part(s, strlen(s));
	if (strchr(slash + 1, '/'))
		return false;
	{
		char *prefix = xstrndup(s, (size_t)(slash - s));
		bool ok = adm_is_dns1123_subdomain(prefix);

		free(prefix);
		return ok && name_part(slash + 1, strlen(slash + 1));
	}
}

bool adm_is_label_value(const char *s)
{
	return s[0] == '\0' || name_part(s, strlen(s));
}

/* The apimachinery wording for each kind of name, after "Invalid value: \"x\": ". */
#define MSG_SUBDOMAIN                                                                              \
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
#define MSG_LABEL                                                                                  \
	"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
/* ---- admission ------------------------------------------------------------------ */

static void bad_name(struct sch_ctx *c, const struct val *v, const char *path, const char *why)
{
	char *q = sch_quote(v);

	sch_report(c, v->mark, path, "Invalid value: %s: %s", q, why);
	free(q);
}

/*
 * bad_dns_name() - IsDNS1123Subdomain / IsDNS1123Label as the API server
 * reports them: the length and the syntax are checked separately, one
 * field error for each that fails.
 */
static void bad_dns_name(struct sch_ctx *c, const struct val *v, const char *path, bool label)
{
	size_t max = label ? 63 : 253;
	size_t n = strlen(v->u.s);

	if (n > max) {
		char why[64];

		/* content.MaxLenError at the pinned apimachinery (v0.36) counts bytes. */
		snprintf(why, sizeof(why), "must be no more than %zu bytes", max);
		bad_name(c, v, path, why);
	}
	if (!(label ? label_syntax(v->u.s) : subdomain_syntax(v->u.s)))
		bad_name(c, v, path, label ? MSG_LABEL : MSG_SUBDOMAIN);
}

/*
 * bad_label_text() - each of the "; "-joined messages of lbl_validate_key() /
 * lbl_validate_value() (engine/labels.h, the upstream texts) as its own
 * field error on @v, as ValidateLabels reports them.
 */
static void bad_label_text(struct sch_ctx *c, const struct val *v, const char *path,
			   const char *msgs)
{
	const char *p = msgs;

	for (;;) {
		const char *sep = strstr(p, "; ");
		char *one = sep ? xstrndup(p, (size_t)(sep - p)) : xstrdup(p);

		bad_name(c, v, path, one);
		free(one);
		if (!sep)
			break;
		p = sep + 2;
	}
}

/* Checks metadata syntax the schema cannot express; @md is a map (already type-checked). */
static void check_metadata(struct sch_ctx *c, const struct adm_kind *k, const struct val *md)
{
	const struct val *name = val_map_get(md, "name");
	const struct val *ns = val_map_get(md, "namespace");
	const struct val *labels = val_map_get(md, "labels");
	const struct val *ann = val_map_get(md, "annotations");
	const struct val *owners = val_map_get(md, "ownerReferences");
	bool label_name = strcmp(k->kind, "Namespace") == 0;
	char err[LBL_ERRLEN];
	size_t ncontrollers = 0;

	if (!name || name->type != VAL_STRING || name->u.s[0] == '\0') {
		if (!name || name->type == VAL_STRING)
			sch_report(c, name ? name->mark : md->mark, "metadata.name", "Required value");
	} else if (label_name ? !adm_is_dns1123_label(name->u.s) :
				!adm_is_dns1123_subdomain(name->u.s)) {
		bad_dns_name(c, name, "metadata.name", label_name);
	}
	if (k->namespaced && ns && ns->type == VAL_STRING && ns->u.s[0] &&
	    !adm_is_dns1123_label(ns->u.s))
		bad_dns_name(c, ns, "metadata.namespace", true);
	/* apimachinery ValidateOwnerReferences: at most one controller */
	for (size_t i = 0; owners && owners->type == VAL_LIST && i < owners->u.list.n; i++) {
		const struct val *ctl = val_map_get(owners->u.list.items[i], "controller");

		if (ctl && ctl->type == VAL_BOOL && ctl->u.b && ++ncontrollers == 2)
			sch_report(c, ctl->mark, "metadata.ownerReferences",
				   "Invalid value: only one reference can have Controller set to true");
	}
	if (labels && labels->type == VAL_MAP) {
		for (size_t i = 0; i < labels->u.map.n; i++) {
			const struct val_kv *kv = &labels->u.map.items[i];
			struct val *key = val_new_string(kv->key);

			key->mark = kv->key_mark;
			if (lbl_validate_key(kv->key, err, sizeof(err)) != LBL_OK)
				bad_label_text(c, key, "metadata.labels", err);
			if (kv->v && kv->v->type == VAL_STRING &&
			    lbl_validate_value(kv->v->u.s, err, sizeof(err)) != LBL_OK)
				bad_label_text(c, kv->v, "metadata.labels", err);
			val_free(key);
		}
	}
	if (ann && ann->type == VAL_MAP) {
		for (size_t i = 0; i < ann->u.map.n; i++) {
			const struct val_kv *kv = &ann->u.map.items[i];
			char *lower = xstrdup(kv->key);

			/* The API server checks annotation keys in lower case. */
			for (char *p = lower; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			if (lbl_validate_key(lower, err, sizeof(err)) != LBL_OK) {
				struct val *key = val_new_string(kv->key);

				key->mark = kv->key_mark;
				bad_label_text(c, key, "metadata.annotations", err);
				val_free(key);
			}
			free(lower);
		}
	}
}

/* The string entries of map @v into @m, sorted once (not one insertion each: 10^5 labels). */
static void fill_strmap(struct obj_strmap *m, const struct val *v)
{
	struct obj_strmap_item *items;
	size_t n = 0;

	if (!v || v->type != VAL_MAP || v->u.map.n == 0)
		return;
	items = xmalloc(v->u.map.n * sizeof(*items));
	for (size_t i = 0; i < v->u.map.n; i++)
		if (v->u.map.items[i].v && v->u.map.items[i].v->type == VAL_STRING)
			items[n++] = (struct obj_strmap_item){ v->u.map.items[i].key,
							      v->u.map.items[i].v->u.s };
	obj_strmap_set_many(m, items, n);
	free(items);
}

/* Moves the value of @key out of map @m (leaving a null in its place); NULL when absent or null. */
static struct val *take(struct val *m, const char *key)
{
	struct val_kv *kv = val_map_get_kv(m, key);
	struct val *v;

	if (!kv || !kv->v || kv->v->type == VAL_NULL)
		return NULL;
	v = kv->v;
	kv->v = val_new_null();
	return v;
}

static struct obj *build(const char *file, const struct adm_kind *k, const char *ns,
			 struct val *work)
{
	const struct val *md = val_map_get(work, "metadata");
	struct obj *o = obj_new(k->api_version, k->kind, ns, val_str(val_map_get(md, "name"), ""));
	const struct val *fin = val_map_get(md, "finalizers");
	int64_t gen = val_int(val_map_get(md, "generation"), 0);

	fill_strmap(&o->labels, val_map_get(md, "labels"));
	fill_strmap(&o->annotations, val_map_get(md, "annotations"));
	if (fin && fin->type == VAL_LIST)
		for (size_t i = 0; i < fin->u.list.n; i++)
			obj_add_finalizer(o, val_str(fin->u.list.items[i], ""));
	if (val_str(val_map_get(md, "uid"), NULL)) {
		free(o->uid);
		o->uid = xstrdup(val_str(val_map_get(md, "uid"), ""));
	}
	if (gen >= 1)
		o->generation = gen;
	/* Unix ms until the loader knows the clock (scn_load() makes it simulated ms) */
	if (gt_parse_rfc3339(val_str(val_map_get(md, "creationTimestamp"), ""), &o->creation_ms,
			     NULL, 0) == 0)
		o->src.creation_given = true;
	if (val_map_get(md, "ownerReferences") &&
	    val_map_get(md, "ownerReferences")->type == VAL_LIST &&
	    val_map_get(md, "ownerReferences")->u.list.n)
		o->owner_refs = val_copy(val_map_get(md, "ownerReferences"));
	if (val_str(val_map_get(md, "deletionTimestamp"), NULL))
		o->deletion_ms = 0;
	o->spec = take(work, "spec");
	o->status = take(work, "status");
	for (size_t i = 0; i < work->u.map.n; i++) {
		const struct val_kv *kv = &work->u.map.items[i];
		static const char *const own[] = { "apiVersion", "kind", "metadata", "spec", "status" };
		bool skip = false;

		for (size_t j = 0; j < sizeof(own) / sizeof(own[0]); j++)
			if (strcmp(kv->key, own[j]) == 0)
				skip = true;
		if (skip)
			continue;
		if (!o->rest)
			o->rest = val_new_map();
		val_map_set(o->rest, kv->key, val_copy(kv->v));
	}
	o->src.file = file;
	o->src.mark = work->mark;
	return o;
}

/* group_of() - the API group of @api_version into @buf ("" for the core group "v1"). */
static const char *group_of(const char *api_version, char *buf, size_t len)
{
	const char *slash = strchr(api_version, '/');
	size_t n = slash ? (size_t)(slash - api_version) : 0;

	if (n >= len)
		n = len - 1;
	memcpy(buf, api_version, n);
	buf[n] = '\0';
	return buf;
}

/*
 * The other kinds the pinned CRDs of the simulated groups define
 * (magosproject/magos@1afc8e6 charts/magos/crds, metio/stageset-controller
 * @f2c7604 config/crd): no simulated controller reads them, so they are
 * accepted and ignored like any other group's objects, not taken for typos.
 */
static const struct {
	const char *api_version, *kind;
} unread_kinds[] = {
	{ "magosproject.io/v1alpha1", "VariableSet" },
	{ "stages.metio.wtf/v1", "ImageVerificationPolicy" },
	{ "stages.metio.wtf/v1", "StageInventory" },
};

/* unread_kinds as "Kind (apiVersion), ...".  New string. */
static char *unread_kinds_text(void)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < sizeof(unread_kinds) / sizeof(unread_kinds[0]); i++) {
		char *next = xasprintf("%s%s%s (%s)", out, i ? ", " : "", unread_kinds[i].kind,
				       unread_kinds[i].api_version);

		free(out);
		out = next;
	}
	return out;
}

/*
 * The kinds of the built-in groups the simulator reads objects of (v1,
 * batch/v1) that a user can create, as Kubernetes serves them: a kind
 * of neither list nor kinds[] in these apiVersions does not exist, so the
 * API server refuses it (kubectl: no matches for kind "Namspace" in version
 * "v1"); the ones listed are accepted and ignored.
 */
static const struct {
	const char *api_version, *kind;
} builtin_kinds[] = {
	{ "v1", "Binding" },        { "v1", "ConfigMap" },      { "v1", "Endpoints" },
	{ "v1", "Event" },          { "v1", "LimitRange" },     { "v1", "Node" },
	{ "v1", "PersistentVolume" }, { "v1", "Pod" },          { "v1", "PodTemplate" },
	{ "v1", "ReplicationController" }, { "v1", "ResourceQuota" }, { "v1", "Service" },
	{ "v1", "ServiceAccount" }, { "v1", "ComponentStatus" }, { "batch/v1", "CronJob" },
};

/* Whether @api_version is a built-in group version of builtin_kinds whose kind @kind does not exist. */
static bool builtin_unknown(const char *api_version, const char *kind)
{
	if (strcmp(api_version, "v1") && strcmp(api_version, "batch/v1"))
		return false;
	for (size_t i = 0; i < sizeof(builtin_kinds) / sizeof(builtin_kinds[0]); i++)
		if (!strcmp(builtin_kinds[i].api_version, api_version) &&
		    !strcmp(builtin_kinds[i].kind, kind))
			return false;
	return true;
}

/*
 * modelled_group() - whether an unknown @kind in @api_version is an error:
 * the groups whose controllers the simulator runs, except the kinds of their
 * pinned CRDs that no controller reads (unread_kinds).
 */
static bool modelled_group(const char *api_version, const char *kind)
{
	char buf[256];
	const char *g = group_of(api_version, buf, sizeof(buf));

	for (size_t i = 0; i < sizeof(unread_kinds) / sizeof(unread_kinds[0]); i++)
		if (strcmp(unread_kinds[i].api_version, api_version) == 0 &&
		    strcmp(unread_kinds[i].kind, kind) == 0)
			return false;
	return strcmp(g, "magosproject.io") == 0 || strcmp(g, "stages.metio.wtf") == 0;
}

char *adm_describe_ignored(const struct val *doc)
{
	const struct val *md = val_map_get(doc, "metadata");
	const char *av = val_str(val_map_get(doc, "apiVersion"), "");
	const char *kind = val_str(val_map_get(doc, "kind"), "");
	const char *name = val_str(val_map_get(md, "name"), "");
	const char *ns = val_str(val_map_get(md, "namespace"), "");

	if (ns[0])
		return xasprintf("%s \"%s/%s\" (%s)", kind, ns, name, av);
	return xasprintf("%s \"%s\" (%s)", kind, name, av);
}

int adm_admit(const char *file, const struct val *doc, struct obj **out, struct diag *d)
{
	const struct val *av, *kd, *md, *name;
	const struct adm_kind *k;
	struct sch_ctx c = { 0 };
	struct diag local;
	struct val *work;
	const char *ns = "";
	char *prefix;
	int rc;

	*out = NULL;
	if (!doc || doc->type != VAL_MAP) {
		diag_error(d, file, doc ? doc->mark : (struct val_mark){ 0, 0 },
			   "a manifest document must be an object, not %s",
			   doc ? val_type_name(doc->type) : "nothing");
		return -1;
	}
	av = val_map_get(doc, "apiVersion");
	kd = val_map_get(doc, "kind");
	if (!av || av->type != VAL_STRING || !av->u.s[0] || !kd || kd->type != VAL_STRING ||
	    !kd->u.s[0]) {
		if (!av || av->type != VAL_STRING || !av->u.s[0])
			diag_error(d, file, av ? av->mark : doc->mark,
				   "apiVersion: Required value: every object needs a non-empty apiVersion string");
		if (!kd || kd->type != VAL_STRING || !kd->u.s[0])
			diag_error(d, file, kd ? kd->mark : doc->mark,
				   "kind: Required value: every object needs a non-empty kind string");
		return -1;
	}
	k = adm_find_kind(av->u.s, kd->u.s);
	if (!k && builtin_unknown(av->u.s, kd->u.s)) {
		struct sug sg;

		/* The simulated kinds of this apiVersion: a near miss of one is a typo of it. */
		sug_init(&sg, kd->u.s);
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (!strcmp(kinds[i].api_version, av->u.s))
				sug_offer(&sg, kinds[i].kind);
		for (size_t i = 0; i < sizeof(builtin_kinds) / sizeof(builtin_kinds[0]); i++)
			if (!strcmp(builtin_kinds[i].api_version, av->u.s))
				sug_offer(&sg, builtin_kinds[i].kind);
		diag_error(d, file, kd->mark, "unknown kind \"%s\" in apiVersion \"%s\"", kd->u.s,
			   av->u.s);
		if (sug_best(&sg))
			diag_note(d, file, kd->mark, "did you mean \"%s\"?", sug_best(&sg));
		diag_note(d, file, kd->mark,
			  "Kubernetes has no such kind: the API server refuses it (kubectl: no matches "
			  "for kind \"%s\" in version \"%s\")",
			  kd->u.s, av->u.s);
		return -1;
	}
	if (!k && !modelled_group(av->u.s, kd->u.s)) {
		md = val_map_get(doc, "metadata");
		name = val_map_get(md, "name");
		if (name && name->type == VAL_STRING && name->u.s[0])
			return ADM_IGNORED;
		diag_error(d, file, name ? name->mark : md ? md->mark : doc->mark,
			   "%s (no name): metadata.name: Required value", kd->u.s);
		return -1;
	}
	if (!k) {
		char *list = adm_supported_kinds();
		char group[256];
		struct sug sg;

		/* The kinds of this apiVersion first: the closest of those wins a tie. */
		sug_init(&sg, kd->u.s);
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
				if ((strcmp(kinds[i].api_version, av->u.s) == 0) == (pass == 0))
					sug_offer(&sg, kinds[i].kind);
		diag_error(d, file, kd->mark, "unknown kind \"%s\" in apiVersion \"%s\"", kd->u.s,
			   av->u.s);
		if (sug_best(&sg))
			diag_note(d, file, kd->mark, "did you mean \"%s\"?", sug_best(&sg));
		diag_note(d, file, kd->mark, "supported kinds: %s", list);
		free(list);
		list = unread_kinds_text();
		diag_note(d, file, kd->mark,
			  "accepted and ignored (their CRDs define them; no simulated controller "
			  "reads them): %s",
			  list);
		diag_note(d, file, kd->mark,
			  "objects of the API groups magos-sim does not simulate are accepted and "
			  "ignored; in %s an unknown kind is taken for a typo",
			  group_of(av->u.s, group, sizeof(group)));
		free(list);
		return -1;
	}

	md = val_map_get(doc, "metadata");
	name = val_map_get(md, "name");
	if (k->namespaced) {
		ns = val_str(val_map_get(md, "namespace"), "");
		if (!ns[0])
			ns = "default";
	}
	if (name && name->type == VAL_STRING && name->u.s[0]) {
		char *short_ns = sch_abbrev(ns), *short_name = sch_abbrev(name->u.s);

		prefix = k->namespaced ?
				 xasprintf("%s \"%s/%s\": ", k->kind, short_ns, short_name) :
				 xasprintf("%s \"%s\": ", k->kind, short_name);
		free(short_ns);
		free(short_name);
	} else {
		prefix = xasprintf("%s (no name): ", k->kind);
	}

	/* Collected apart, then added in line order (schema and metadata checks interleave). */
	diag_init(&local);
	work = val_copy(doc);
	c.d = &local;
	c.file = file;
	c.prefix = prefix;
	c.root = work;
	rc = sch_validate(k->schema, work, "", &c);
	md = val_map_get(work, "metadata");
	if (md && md->type == VAL_MAP)
		check_metadata(&c, k, md);
	if (c.nerrors == 0) {
		*out = build(file, k, ns, work);
		rc = 0;
	} else {
		rc = -1;
	}
	sch_move_sorted(d, &local);
	val_free(work);
	free(prefix);
	return rc;
}

const struct adm_kind *adm_find_kind_named(const char *kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind && strcmp(kinds[i].kind, kind) == 0)
			return &kinds[i];
	return NULL;
}

char *adm_write_refusal(const char *kind, const char *name, const char *part,
			const struct val *v)
{
	const struct adm_kind *k = adm_find_kind_named(kind);
	const struct sch_node *ps = NULL;
	const char *slash;
	char *why, *out;

	if (!k || !v)
		return NULL;
	if (!(k->list_maps & (strcmp(part, "spec") == 0 ? ADM_LIST_MAPS_SPEC : ADM_LIST_MAPS_STATUS)))
		return NULL;
	for (const struct sch_field *f = k->schema->fields; f && f->name; f++)
		if (strcmp(f->name, part) == 0)
			ps = f->schema;
	why = sch_list_map_violation(ps, v, part);
	if (!why)
		return NULL;
	/* the resource's qualified name: Kind.group, just Kind for the core group */
	slash = strchr(k->api_version, '/');
	if (slash)
		out = xasprintf("%s.%.*s \"%s\" is invalid: %s", k->kind,
				(int)(slash - k->api_version), k->api_version, name, why);
	else
		out = xasprintf("%s \"%s\" is invalid: %s", k->kind, name, why);
	free(why);
	return out;
}

bool adm_identity(const struct val *doc, char **kind, char **ns, char **name)
{
	const struct val *md;
	const char *k, *av, *n, *space;
	const struct adm_kind *ak;

	if (!doc || doc->type != VAL_MAP)
		return false;
	md = val_map_get(doc, "metadata");
	k = val_str(val_map_get(doc, "kind"), "");
	av = val_str(val_map_get(doc, "apiVersion"), "");
	n = val_str(val_map_get(md, "name"), "");
	space = val_str(val_map_get(md, "namespace"), "");
	if (!k[0] || !n[0])
		return false;
	ak = adm_find_kind(av, k);
	if (!ak)
		ak = adm_find_kind_named(k);
	*kind = xstrdup(k);
	*name = xstrdup(n);
	if (ak && !ak->namespaced)
		*ns = xstrdup("");
	else
		*ns = xstrdup(space[0] ? space : "default");
	return true;
}

bool adm_in_group(const struct obj *o, const char *group, const char *kind)
{
	size_t n = strlen(group);

	return o && (!kind || strcmp(o->kind, kind) == 0) && strncmp(o->api_version, group, n) == 0 &&
	       o->api_version[n] == '/';
}
