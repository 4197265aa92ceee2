/*
 * engine/stageset_conflict: conflict handling per rendered object, the cases
 * of upstream internal/apply/conflict_test.go (TestResolveConflictHandling's
 * subtests) and conflict_force_token_test.go, named after them, plus the
 * precedence quirk of a conflictPolicy next to force: true.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_conflict.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

static struct val *tree;
static struct sst_spec spec;

/* The first stage of a spec written as YAML (stages[0] must be given in full). */
static const struct sst_stage *stage_of(const char *stage_yaml)
{
	struct yl_stream s;
	struct diag d;
	char err[256], text[1024];

	snprintf(text, sizeof(text), "stages:\n- name: stage-a\n  sourceRef: {name: art}\n%s", stage_yaml);
	diag_init(&d);
	CU_ASSERT_FATAL(yl_load_string("t", text, strlen(text), &s, &d) == 0);
	tree = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	CU_ASSERT_FATAL(sst_spec_parse(tree, &spec, err, sizeof(err)) == 0);
	return &spec.stages[0];
}

static void done(void)
{
	sst_spec_release(&spec);
	val_free(tree);
	tree = NULL;
}

static const struct scf_object cm = { "v1", "ConfigMap", "cm", "ns", false };
static const struct scf_object secret = { "v1", "Secret", "s", "ns", false };
static const struct scf_object pvc = { "v1", "PersistentVolumeClaim", "data", "ns", false };

/* ResolveConflictHandling: one object, its action, and that it is not refused. */
static enum scf_action one(const struct sst_stage *st, const struct scf_object *o)
{
	enum scf_action a = SCF_KEEP_EXISTING;
	char err[256] = "";

	CU_ASSERT(scf_resolve_conflict_handling(o, 1, st, &a, err, sizeof(err)) == 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	return a;
}

static void test_default_fail(void)
{
	const struct sst_stage *st = stage_of("");

	CU_ASSERT(!scf_stage_has_handling(st));
	CU_ASSERT_EQUAL(one(st, &cm), SCF_FAIL);
	done();
}

static void test_stage_force_recreate_fallback(void)
{
	const struct sst_stage *st = stage_of("  force: true\n");

	CU_ASSERT(scf_stage_has_handling(st));
	CU_ASSERT_EQUAL(one(st, &cm), SCF_RECREATE);
	done();
}

static void test_rule_recreate_on_one_kind_leaves_others_on_fail(void)
{
	const struct sst_stage *st = stage_of("  conflictPolicy: {rules: [{target: {kind: Secret}, action: Recreate}]}\n");
	struct scf_object objs[2] = { secret, cm };
	enum scf_action a[2];
	char err[256] = "";

	CU_ASSERT(scf_resolve_conflict_handling(objs, 2, st, a, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(a[0], SCF_RECREATE);
	CU_ASSERT_EQUAL(a[1], SCF_FAIL);
	done();
}

static void test_rule_keep_existing(void)
{
	const struct sst_stage *st =
		stage_of("  conflictPolicy: {rules: [{target: {kind: ConfigMap}, action: KeepExisting}]}\n");

	CU_ASSERT_EQUAL(one(st, &cm), SCF_KEEP_EXISTING);
	CU_ASSERT_STRING_EQUAL(scf_action_text(SCF_KEEP_EXISTING), "KeepExisting");
	done();
}

static void test_rule_recreate_pvc_refused_without_allow_data_loss(void)
{
	const struct sst_stage *st =
		stage_of("  conflictPolicy: {rules: [{target: {kind: PersistentVolumeClaim}, action: Recreate}]}\n");
	struct scf_object objs[2] = { cm, pvc };
	enum scf_action a[2];
	char err[256] = "";

	CU_ASSERT(scf_resolve_conflict_handling(objs, 2, st, a, err, sizeof(err)) == -1);
	CU_ASSERT_STRING_EQUAL(err, "conflictPolicy refuses to recreate PersistentVolumeClaim \"data\": that "
				    "destroys data; set the rule's allowDataLoss: true to permit it");
	done();
}

static void test_rule_recreate_pvc_with_allow_data_loss(void)
{
	const struct sst_stage *st = stage_of(
		"  conflictPolicy: {rules: [{target: {kind: PersistentVolumeClaim}, action: Recreate, allowDataLoss: true}]}\n");

	CU_ASSERT_EQUAL(one(st, &pvc), SCF_RECREATE);
	done();
}

static void test_blunt_stage_force_on_pvc_not_gated(void)
{
	const struct sst_stage *st = stage_of("  force: true\n");
	struct scf_object pv = { "v1", "PersistentVolume", "vol", "", false };

	CU_ASSERT_EQUAL(one(st, &pvc), SCF_RECREATE);
	CU_ASSERT_EQUAL(one(st, &pv), SCF_RECREATE);
	done();
}

static void test_force_annotation_wins_over_default_fail(void)
{
	const struct sst_stage *st = stage_of("  conflictPolicy: {default: Fail}\n");
	struct scf_object annotated = cm;
	bool allow = true, from_rule = true;

	annotated.force_annotation = true;
	CU_ASSERT_EQUAL(one(st, &annotated), SCF_RECREATE);
	/* an annotation-driven recreate is no rule's: the PVC guard does not apply */
	CU_ASSERT_EQUAL(scf_conflict_action_for(&annotated, st->conflict_policy, SCF_FAIL, &allow, &from_rule),
			SCF_RECREATE);
	CU_ASSERT(!allow && !from_rule);
	annotated = pvc;
	annotated.force_annotation = true;
	CU_ASSERT_EQUAL(one(st, &annotated), SCF_RECREATE);
	done();
}

/* TestResolveConflictHandling_NoForceStampOnFailOrKeep: per object, the first matching rule decides. */
static void test_no_force_on_fail_or_keep(void)
{
	const struct sst_stage *st = stage_of("  conflictPolicy:\n"
					      "    default: Fail\n"
					      "    rules:\n"
					      "    - {target: {name: keep}, action: KeepExisting}\n"
					      "    - {target: {name: force-cm}, action: Recreate}\n"
					      "    - {target: {kind: ConfigMap}, action: Recreate}\n");
	struct scf_object objs[4] = { { "v1", "ConfigMap", "keep", "ns", false },
				      { "v1", "ConfigMap", "force-cm", "ns", false },
				      { "v1", "Secret", "fail", "ns", false },
				      { "v1", "ConfigMap", "other", "ns", false } };
	enum scf_action a[4];
	char err[256] = "";

	CU_ASSERT(scf_resolve_conflict_handling(objs, 4, st, a, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(a[0], SCF_KEEP_EXISTING);
	CU_ASSERT_EQUAL(a[1], SCF_RECREATE);
	CU_ASSERT_EQUAL(a[2], SCF_FAIL);
	CU_ASSERT_EQUAL(a[3], SCF_RECREATE);
	done();
}

/* matchesConflictTarget: an empty or missing target field matches any value; set ones must equal. */
static void test_matches_conflict_target(void)
{
	const struct sst_stage *st = stage_of("  conflictPolicy:\n"
					      "    rules:\n"
					      "    - {target: {apiVersion: apps/v1, kind: Deployment, name: '', namespace: ns}, action: Recreate}\n"
					      "    - {target: {}, action: KeepExisting}\n");
	const struct val *rules = val_map_get(st->conflict_policy, "rules");
	const struct val *t0 = val_map_get(rules->u.list.items[0], "target");
	struct scf_object dep = { "apps/v1", "Deployment", "web", "ns", false };
	struct scf_object other_ns = { "apps/v1", "Deployment", "web", "other", false };
	struct scf_object ext = { "extensions/v1beta1", "Deployment", "web", "ns", false };

	CU_ASSERT(scf_matches_conflict_target(&dep, t0));
	CU_ASSERT(!scf_matches_conflict_target(&other_ns, t0));
	CU_ASSERT(!scf_matches_conflict_target(&ext, t0));
	CU_ASSERT(scf_matches_conflict_target(&cm, val_map_get(rules->u.list.items[1], "target")));
	CU_ASSERT(scf_matches_conflict_target(&cm, NULL));
	CU_ASSERT_EQUAL(one(st, &dep), SCF_RECREATE);
	CU_ASSERT_EQUAL(one(st, &other_ns), SCF_KEEP_EXISTING);
	done();
}

/* isStatefulData: core/v1 only. */
static void test_is_stateful_data(void)
{
	struct scf_object pv = { "v1", "PersistentVolume", "vol", "", false };
	struct scf_object other = { "storage.example/v1", "PersistentVolumeClaim", "data", "ns", false };

	CU_ASSERT(scf_is_stateful_data(&pvc));
	CU_ASSERT(scf_is_stateful_data(&pv));
	CU_ASSERT(!scf_is_stateful_data(&other));
	CU_ASSERT(!scf_is_stateful_data(&cm));
}

/* force: true next to a conflictPolicy: the CRD's default Fail overrides the blunt force (upstream's order). */
static void test_policy_default_overrides_force(void)
{
	const struct sst_stage *st = stage_of("  force: true\n  conflictPolicy: {default: Fail}\n");

	CU_ASSERT_EQUAL(one(st, &cm), SCF_FAIL);
	done();
	st = stage_of("  force: true\n  conflictPolicy: {rules: [{target: {kind: Secret}, action: KeepExisting}]}\n");
	/* without admission's default the policy's default is empty: force's Recreate stays */
	CU_ASSERT_EQUAL(one(st, &cm), SCF_RECREATE);
	CU_ASSERT_EQUAL(one(st, &secret), SCF_KEEP_EXISTING);
	done();
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "ResolveConflictHandling: default Fail", test_default_fail },
		{ "ResolveConflictHandling: stage.force is the Recreate fallback", test_stage_force_recreate_fallback },
		{ "ResolveConflictHandling: rule Recreate on one kind leaves others on Fail",
		  test_rule_recreate_on_one_kind_leaves_others_on_fail },
		{ "ResolveConflictHandling: rule KeepExisting", test_rule_keep_existing },
		{ "ResolveConflictHandling: rule Recreate on a PVC without allowDataLoss is refused",
		  test_rule_recreate_pvc_refused_without_allow_data_loss },
		{ "ResolveConflictHandling: rule Recreate on a PVC with allowDataLoss is permitted",
		  test_rule_recreate_pvc_with_allow_data_loss },
		{ "ResolveConflictHandling: blunt stage.force on a PVC is not gated", test_blunt_stage_force_on_pvc_not_gated },
		{ "ResolveConflictHandling: the force annotation wins over default Fail",
		  test_force_annotation_wins_over_default_fail },
		{ "ResolveConflictHandling_NoForceStampOnFailOrKeep: first matching rule per object",
		  test_no_force_on_fail_or_keep },
		{ "ResolveConflictHandling: a conflictPolicy default overrides force", test_policy_default_overrides_force },
		{ "matchesConflictTarget: empty fields match any", test_matches_conflict_target },
		{ "isStatefulData: core/v1 PVC and PV only", test_is_stateful_data },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("stageset_conflict", tests);
}
