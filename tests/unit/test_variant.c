/*
 * sim/plan/variant and sim/plan/sweep: merge patch semantics on manifests (null
 * deletes, lists replaced whole), model overrides, re-admission, errors with
 * file:line:col, common random numbers, and sweep values and ranges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/plan/sweep.h"
#include "sim/plan/trials.h"
#include "sim/plan/variant.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* ---------------------------------------------------------------- fixture */

static const char path[] = "s.yaml"; /* the scenario file, in the test's temporary directory */

/* Lines are numbered in the comments: diagnostics below point at them. */
#define SCENARIO_HEAD                                                    \
	"apiVersion: magos-sim/v1alpha1\n"                  /* 1 */      \
	"kind: Scenario\n"                                  /* 2 */      \
	"metadata: {name: t}\n"                             /* 3 */      \
	"spec:\n"                                           /* 4 */      \
	"  seed: 5\n"                                       /* 5 */      \
	"  horizon: 2h\n"                                   /* 6 */      \
	"  models:\n"                                       /* 7 */      \
	"    jobs:\n"                                       /* 8 */      \
	"      capacity: 2\n"                               /* 9 */      \
	"      plan: {duration: {uniform: {min: 30s, max: 90s}}}\n" /* 10 */ \
	"      apply:\n"                                    /* 11 */     \
	"        duration: {lognormal: {median: 2m, p95: 5m}}\n" /* 12 */ \
	"        failureProbability: 0.1\n"                 /* 13 */

#define MANIFESTS                                                              \
	"---\n"                                                                \
	"apiVersion: magosproject.io/v1alpha1\n"                               \
	"kind: Project\n"                                                      \
	"metadata: {name: stores, namespace: default}\n"                       \
	"spec: {description: stores}\n"                                        \
	"---\n"                                                                \
	"apiVersion: magosproject.io/v1alpha1\n"                               \
	"kind: Rollout\n"                                                      \
	"metadata: {name: stores, namespace: default}\n"                       \
	"spec:\n"                                                              \
	"  projectRef: stores\n"                                               \
	"  strategy:\n"                                                        \
	"    steps:\n"                                                         \
	"      - name: one\n"                                                  \
	"        selector: {matchLabels: {cohort: \"1\"}}\n"                   \
	"      - name: two\n"                                                  \
	"        selector: {matchLabels: {cohort: \"2\"}}\n" WS("a", "1") WS("b", "1") \
		WS("c", "2") WS("d", "2")

#define WS(name, cohort)                                                       \
	"---\n"                                                                \
	"apiVersion: magosproject.io/v1alpha1\n"                               \
	"kind: Workspace\n"                                                    \
	"metadata:\n"                                                          \
	"  name: " name "\n"                                                   \
	"  namespace: default\n"                                               \
	"  labels: {cohort: \"" cohort "\", site: " name "}\n"                 \
	"spec:\n"                                                              \
	"  projectRef: {name: stores}\n"                                       \
	"  source: {repoURL: https://git.example.com/s.git, targetRevision: main, path: " name "}\n" \
	"  terraform: {version: \"1.14.8\"}\n"

/*
 * Loads @text (a whole scenario file) into @s from s.yaml in a new temporary
 * directory, the working directory until fx_tmp_leave(); asserts it loads.
 */
static void load_ok(const char *text, struct scenario *s)
{
	const char *p = path;

	fx_tmp_enter("test_variant");
	fx_put(path, text);
	CU_ASSERT_FATAL(fx_scn_load(&p, 1, s, NULL) == 0);
}

static const struct obj *find(const struct scenario *s, const char *kind, const char *name)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (!strcmp(s->objs[i]->kind, kind) && !strcmp(s->objs[i]->name, name))
			return s->objs[i];
	return NULL;
}

/* Parses the variants of @text; returns 0/-1 and the diagnostics in *@diags (new). */
static int parse(const char *text, struct scenario *s, struct var_set *vs, char **diags)
{
	struct diag d;
	int rc;

	load_ok(text, s);
	diag_init(&d);
	rc = var_parse(s, vs, &d);
	*diags = fx_diag_text(&d);
	diag_release(&d);
	return rc;
}

/* ---------------------------------------------------------------- tests */

static void test_merge_patch_semantics(void)
{
	struct scenario s;
	struct var_set vs;
	struct var_scenario out;
	struct diag d;
	char *diags;
	const struct obj *ro, *wa, *base_ro;
	const struct val *steps;

	CU_ASSERT_EQUAL(parse(SCENARIO_HEAD
			      "  variants:\n"
			      "    - name: one step\n"
			      "      description: all at once\n"
			      "      patches:\n"
			      "        - target: {kind: Rollout, name: stores}\n"
			      "          merge:\n"
			      "            spec: {strategy: {steps: [{name: all, selector: {}}]}}\n"
			      "        - target: {apiVersion: magosproject.io/v1alpha1, kind: Workspace, "
			      "namespace: default, name: a}\n"
			      "          merge: {metadata: {labels: {site: null, tier: gold}}}\n"
			      "        - target: {kind: Workspace, name: a}\n"
			      "          merge: {metadata: {annotations: {note: twice}}}\n" MANIFESTS,
			      &s, &vs, &diags),
			0);
	fx_same_text(diags, "");
	free(diags);
	CU_ASSERT_EQUAL_FATAL(vs.n, 1);
	CU_ASSERT_STRING_EQUAL(vs.v[0].name, "one step");
	CU_ASSERT_STRING_EQUAL(vs.v[0].description, "all at once");
	CU_ASSERT_EQUAL(vs.v[0].npatches, 3);
	CU_ASSERT_STRING_EQUAL(vs.v[0].patches[0].target.ns, "default");
	CU_ASSERT_PTR_NULL(vs.v[0].patches[0].target.api_version);
	CU_ASSERT_PTR_NULL(vs.v[0].models);

	diag_init(&d);
	CU_ASSERT_EQUAL_FATAL(var_apply(&s, &vs.v[0], &out, &d), 0);
	CU_ASSERT_EQUAL(d.n, 0);
	/* The list is replaced whole: one step left. */
	ro = find(&out.s, "Rollout", "stores");
	steps = val_path(ro->spec, "strategy.steps");
	CU_ASSERT_EQUAL_FATAL(steps->u.list.n, 1);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(steps, "0.name"), ""), "all");
	/* null deleted a label, the other keys stayed, a new one came; a second patch saw the first. */
	wa = find(&out.s, "Workspace", "a");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&wa->labels, "site"));
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&wa->labels, "cohort"), "1");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&wa->labels, "tier"), "gold");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&wa->annotations, "note"), "twice");
	/* Re-admitted: defaults of the schema are there, spec untouched elsewhere. */
	CU_ASSERT_STRING_EQUAL(val_str(val_path(wa->spec, "source.path"), ""), "a");
	/* The base is unchanged; untouched objects are shared, not copied. */
	base_ro = find(&s, "Rollout", "stores");
	CU_ASSERT_EQUAL(val_path(base_ro->spec, "strategy.steps")->u.list.n, 2);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&find(&s, "Workspace", "a")->labels, "site"), "a");
	CU_ASSERT_PTR_EQUAL(find(&out.s, "Workspace", "b"), find(&s, "Workspace", "b"));
	CU_ASSERT_PTR_NOT_EQUAL(ro, base_ro);
	CU_ASSERT_PTR_EQUAL(out.s.models.rules, s.models.rules);

	var_scenario_release(&out);
	diag_release(&d);
	var_set_release(&vs);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_model_overrides(void)
{
	struct scenario s;
	struct var_set vs;
	struct var_scenario out;
	struct diag d;
	char *diags;
	const struct scn_job_model *ap;

	CU_ASSERT_EQUAL(parse(SCENARIO_HEAD
			      "  variants:\n"
			      "    - name: more runners, fewer failures\n"
			      "      models:\n"
			      "        jobs: {capacity: 5, apply: {failureProbability: 0.05}}\n"
			      "    - name: no plan model\n"
			      "      models: {jobs: {plan: null}}\n" MANIFESTS,
			      &s, &vs, &diags),
			0);
	fx_same_text(diags, "");
	free(diags);
	CU_ASSERT_EQUAL_FATAL(vs.n, 2);
	diag_init(&d);
	CU_ASSERT_EQUAL_FATAL(var_apply(&s, &vs.v[0], &out, &d), 0);
	ap = &out.s.models.job[SCN_JOB_APPLY];
	CU_ASSERT_EQUAL(out.s.models.capacity, 5);
	CU_ASSERT_DOUBLE_EQUAL(ap->failure_probability, 0.05, 1e-12);
	/* Keys the override does not name keep the base's values. */
	CU_ASSERT_EQUAL(ap->duration.kind, DIST_LOGNORMAL);
	CU_ASSERT_DOUBLE_EQUAL(ap->duration.u.lognormal.median, 120000, 1e-6);
	CU_ASSERT_EQUAL(out.s.models.job[SCN_JOB_PLAN].duration.kind, DIST_UNIFORM);
	CU_ASSERT_EQUAL(s.models.capacity, 2);
	CU_ASSERT_DOUBLE_EQUAL(s.models.job[SCN_JOB_APPLY].failure_probability, 0.1, 1e-12);
	var_scenario_release(&out);

	/* A null deletes the key: the plan model falls back to its default (constant 15s). */
	CU_ASSERT_EQUAL_FATAL(var_apply(&s, &vs.v[1], &out, &d), 0);
	CU_ASSERT_EQUAL(out.s.models.job[SCN_JOB_PLAN].duration.kind, DIST_CONSTANT);
	CU_ASSERT_DOUBLE_EQUAL(out.s.models.job[SCN_JOB_PLAN].duration.u.constant.value,
			       SCN_DEFAULT_PLAN_MS, 1e-9);
	CU_ASSERT_EQUAL(out.s.models.capacity, 2);
	var_scenario_release(&out);
	CU_ASSERT_EQUAL(d.n, 0);

	diag_release(&d);
	var_set_release(&vs);
	scn_release(&s);
	fx_tmp_leave();
}

/* Common random numbers: a variant equal to the base gives the base's rows, trial for trial. */
static void test_identical_variant_identical_rows(void)
{
	struct scenario s;
	struct var_set vs;
	struct var_scenario same, fewer;
	struct trials_opts o = { 0 };
	struct trial_row *base = NULL, *var = NULL, *one = NULL;
	struct diag d;
	char *diags;
	bool differs = false;

	CU_ASSERT_EQUAL(parse(SCENARIO_HEAD
			      "  variants:\n"
			      "    - name: same\n"
			      "      patches:\n"
			      "        - target: {kind: Workspace, name: c}\n"
			      "          merge: {metadata: {labels: {cohort: \"2\"}}}\n"
			      "      models: {jobs: {capacity: 2}}\n"
			      "    - name: one runner\n"
			      "      models: {jobs: {capacity: 1}}\n" MANIFESTS,
			      &s, &vs, &diags),
			0);
	fx_same_text(diags, "");
	free(diags);
	diag_init(&d);
	CU_ASSERT_EQUAL_FATAL(var_apply(&s, &vs.v[0], &same, &d), 0);
	CU_ASSERT_EQUAL_FATAL(var_apply(&s, &vs.v[1], &fewer, &d), 0);
	o.n = 6;
	o.jobs = 2;
	CU_ASSERT_EQUAL_FATAL(trials_run(&s, &o, &base), 0);
	CU_ASSERT_EQUAL_FATAL(trials_run(&same.s, &o, &var), 0);
	CU_ASSERT_EQUAL_FATAL(trials_run(&fewer.s, &o, &one), 0);
	for (uint32_t i = 0; i < o.n; i++) {
		CU_ASSERT_EQUAL(var[i].seed, base[i].seed);
		CU_ASSERT_EQUAL(var[i].end_ms, base[i].end_ms);
		CU_ASSERT_EQUAL(var[i].events, base[i].events);
		CU_ASSERT_EQUAL(var[i].completed, base[i].completed);
		CU_ASSERT_EQUAL(var[i].ttc_ms, base[i].ttc_ms);
		CU_ASSERT_EQUAL(var[i].halted, base[i].halted);
		CU_ASSERT_EQUAL(var[i].halt_ms, base[i].halt_ms);
		CU_ASSERT_EQUAL(var[i].blast_count, base[i].blast_count);
		CU_ASSERT_EQUAL(var[i].peak_jobs, base[i].peak_jobs);
		CU_ASSERT_EQUAL(var[i].job_wait_ms, base[i].job_wait_ms);
		CU_ASSERT_EQUAL(var[i].nphases, base[i].nphases);
		/* The same seeds with one runner: never more than one Job at once. */
		CU_ASSERT_EQUAL(one[i].seed, base[i].seed);
		CU_ASSERT(one[i].peak_jobs <= 1);
		differs |= one[i].job_wait_ms != base[i].job_wait_ms;
	}
	/* ... and the change shows (the test could fail). */
	CU_ASSERT(differs);
	fx_rows_free(base, o.n);
	fx_rows_free(var, o.n);
	fx_rows_free(one, o.n);
	var_scenario_release(&same);
	var_scenario_release(&fewer);
	diag_release(&d);
	var_set_release(&vs);
	scn_release(&s);
	fx_tmp_leave();
}

/* Parses @variants (lines after SCENARIO_HEAD, from line 14) and expects @want. */
static void expect_parse_error(const char *variants, const char *want)
{
	struct scenario s;
	struct var_set vs;
	char *text = xasprintf("%s%s%s", SCENARIO_HEAD, variants, MANIFESTS), *diags;

	CU_ASSERT_EQUAL(parse(text, &s, &vs, &diags), -1);
	fx_same_text(diags, want);
	free(diags);
	free(text);
	var_set_release(&vs);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_parse_errors(void)
{
	expect_parse_error("  variants:\n"
			   "    - name: x\n"
			   "      patches:\n"
			   "        - target: {kind: Rollout, name: nope}\n"
			   "          merge: {}\n",
			   "s.yaml:17:19: error: spec.variants[0].patches[0].target: variant 'x': no "
			   "Rollout \"default/nope\" in the inputs\n"
			   "s.yaml:17:19: note: Rollout objects in the inputs: \"default/stores\"");
	expect_parse_error("  variants:\n"
			   "    - name: x\n"
			   "      patches:\n"
			   "        - target: {kind: StageSet, name: nope}\n"
			   "          merge: {}\n",
			   "s.yaml:17:19: error: spec.variants[0].patches[0].target: variant 'x': no "
			   "StageSet \"default/nope\" in the inputs\n"
			   "s.yaml:17:19: note: the inputs define no StageSet");
	expect_parse_error("  variants:\n"
			   "    - name: x\n"
			   "      models: {jobz: {capacity: 3}}\n",
			   "s.yaml:16:16: error: unknown field \"spec.variants[0].models.jobz\"\n"
			   "s.yaml:16:16: note: did you mean \"jobs\"?\n"
			   "s.yaml:16:16: note: accepted fields: jobs, policies, git, stagesets, sources");
	expect_parse_error("  variants:\n"
			   "    - name: x\n"
			   "      models: {jobs: {capacity: 0}}\n",
			   "s.yaml:16:33: error: spec.variants[0].models.jobs.capacity: Invalid value: "
			   "0: spec.variants[0].models.jobs.capacity in body should be greater than "
			   "or equal to 1");
	expect_parse_error("  variants:\n"
			   "    - name: x\n"
			   "      patchez: []\n",
			   "s.yaml:16:7: error: unknown field \"spec.variants[0].patchez\"\n"
			   "s.yaml:16:7: note: did you mean \"patches\"?\n"
			   "s.yaml:16:7: note: accepted fields: name, description, patches, models");
	expect_parse_error("  variants:\n"
			   "    - name: x\n"
			   "      models: {jobs: {capacity: 2}}\n"
			   "    - name: x\n",
			   "s.yaml:17:13: error: spec.variants[1].name: Duplicate value: \"x\"\n"
			   "s.yaml:15:7: note: spec.variants[0] has that name already");
	/* A taken name hides nothing: the variant's targets are still checked. */
	expect_parse_error("  variants:\n"
			   "    - name: x\n"
			   "      models: {jobs: {capacity: 2}}\n"
			   "    - name: x\n"
			   "      patches:\n"
			   "        - target: {kind: Rollout, name: nope}\n"
			   "          merge: {}\n",
			   "s.yaml:17:13: error: spec.variants[1].name: Duplicate value: \"x\"\n"
			   "s.yaml:15:7: note: spec.variants[0] has that name already\n"
			   "s.yaml:19:19: error: spec.variants[1].patches[0].target: variant 'x': no "
			   "Rollout \"default/nope\" in the inputs\n"
			   "s.yaml:19:19: note: Rollout objects in the inputs: \"default/stores\"");
	/* "base" is the unchanged scenario's row of the table. */
	expect_parse_error("  variants:\n"
			   "    - name: base\n"
			   "      models: {jobs: {capacity: 2}}\n",
			   "s.yaml:15:13: error: spec.variants[0].name: Invalid value: \"base\": the "
			   "name of the unchanged scenario's row; give the variant another name");
	expect_parse_error("  variants:\n"
			   "    - description: no name\n",
			   "s.yaml:15:7: error: spec.variants[0].name: Required value");
}

/* Applies the only variant of @variants and expects it to fail with @want. */
/* A variant that changes nothing is a warning, not an error. */
static void test_empty_variant_warns(void)
{
	struct scenario s;
	struct var_set vs;
	char *text = xasprintf("%s%s%s", SCENARIO_HEAD,
			       "  variants:\n"
			       "    - name: same\n"
			       "      description: nothing\n",
			       MANIFESTS),
	     *diags;

	CU_ASSERT_EQUAL(parse(text, &s, &vs, &diags), 0);
	CU_ASSERT_EQUAL(vs.n, 1);
	fx_same_text(diags, "s.yaml:15:7: warning: spec.variants[0]: variant 'same' has neither "
			    "patches nor models: it runs the base unchanged");
	free(diags);
	free(text);
	var_set_release(&vs);
	scn_release(&s);
	fx_tmp_leave();
}

static void expect_apply_error(const char *variants, const char *want)
{
	struct scenario s;
	struct var_set vs;
	struct var_scenario out;
	struct diag d;
	char *text = xasprintf("%s%s%s", SCENARIO_HEAD, variants, MANIFESTS), *diags;

	CU_ASSERT_EQUAL(parse(text, &s, &vs, &diags), 0);
	free(diags);
	CU_ASSERT_EQUAL_FATAL(vs.n, 1);
	diag_init(&d);
	CU_ASSERT_EQUAL(var_apply(&s, &vs.v[0], &out, &d), -1);
	CU_ASSERT_PTR_NULL(out.s.objs);
	diags = fx_diag_text(&d);
	fx_same_text(diags, want);
	free(diags);
	free(text);
	var_scenario_release(&out);
	diag_release(&d);
	var_set_release(&vs);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_apply_errors(void)
{
	expect_apply_error("  variants:\n"
			   "    - name: bad steps\n"
			   "      patches:\n"
			   "        - target: {kind: Rollout, name: stores}\n"
			   "          merge: {spec: {strategy: {steps: many}}}\n",
			   "s.yaml:17:19: error: spec.variants[0].patches[0]: variant 'bad steps': the "
			   "patched Rollout \"default/stores\" is invalid: Rollout \"default/stores\": "
			   "spec.strategy.steps: Invalid value: \"string\": spec.strategy.steps in body "
			   "must be of type array: \"many\"");
	expect_apply_error("  variants:\n"
			   "    - name: rename\n"
			   "      patches:\n"
			   "        - target: {kind: Workspace, name: a}\n"
			   "          merge: {metadata: {name: z}}\n",
			   "s.yaml:17:19: error: spec.variants[0].patches[0]: variant 'rename': the "
			   "patch changes the identity of Workspace \"default/a\" (apiVersion, kind, "
			   "metadata.namespace and metadata.name are fixed)");
}

/* ---------------------------------------------------------------- sweeps */

static void expect_sweep(const char *arg, size_t n, const double *want)
{
	struct sweep sw;
	char err[1024] = "";

	CU_ASSERT_EQUAL_FATAL(sweep_parse(arg, &sw, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(sw.n, n);
	for (size_t i = 0; i < n && i < sw.n; i++)
		CU_ASSERT_DOUBLE_EQUAL(sw.values[i], want[i], 1e-9);
	sweep_release(&sw);
}

static void expect_sweep_error(const char *arg, const char *want)
{
	struct sweep sw;
	char err[1024] = "";

	CU_ASSERT_EQUAL(sweep_parse(arg, &sw, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(sw.n, 0);
	fx_same_text(err, want);
}

static void test_sweep_parse(void)
{
	char buf[1024];
	struct sweep sw;

	expect_sweep("capacity=1,2,4,8", 4, (const double[]){ 1, 2, 4, 8 });
	/* 1, 3.33, 5.67, 8 rounded to whole runners */
	expect_sweep("capacity=1..8/4", 4, (const double[]){ 1, 3, 6, 8 });
	/* rounding may repeat a value: kept once */
	expect_sweep("capacity=1..2/4", 2, (const double[]){ 1, 2 });
	expect_sweep("capacity=3..3/1", 1, (const double[]){ 3 });
	expect_sweep("models.apply.median=2m..20m/5", 5,
		     (const double[]){ 120000, 390000, 660000, 930000, 1200000 });
	expect_sweep("models.apply.failureProbability=0,0.05,.1", 3,
		     (const double[]){ 0, 0.05, 0.1 });
	CU_ASSERT_EQUAL_FATAL(sweep_parse("models.apply.median=2m..20m/5", &sw, NULL, 0), 0);
	sweep_value_text(&sw, 1, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "6m30s");
	sweep_release(&sw);

	expect_sweep_error("capacity", "sweep \"capacity\": expected PARAM=v1,v2,... or "
				       "PARAM=FROM..TO/STEPS");
	expect_sweep_error("capacity=", "sweep 'capacity': no values given");
	expect_sweep_error("capacity=1,,2", "sweep 'capacity': empty value in \"1,,2\"");
	expect_sweep_error("capacity=two", "sweep 'capacity': value \"two\" is not a whole "
					   "number of at least 1");
	expect_sweep_error("capacity=0", "sweep 'capacity': value \"0\" is not a whole number "
					 "of at least 1");
	expect_sweep_error("models.apply.median=5", "sweep 'models.apply.median': value \"5\" "
						    "is not a duration such as 90s or 5m");
	expect_sweep_error("models.apply.failureProbability=1.5",
			   "sweep 'models.apply.failureProbability': value \"1.5\" is not a "
			   "probability from 0 to 1");
	expect_sweep_error("capacity=8..1/4",
			   "sweep 'capacity': empty range \"8..1/4\": TO must not be below FROM, "
			   "and STEPS must be at least 2 (1 only when FROM equals TO)");
	expect_sweep_error("capacity=1..8/0",
			   "sweep 'capacity': empty range \"1..8/0\": TO must not be below FROM, "
			   "and STEPS must be at least 2 (1 only when FROM equals TO)");
	expect_sweep_error("capacity=1..8/1",
			   "sweep 'capacity': empty range \"1..8/1\": TO must not be below FROM, "
			   "and STEPS must be at least 2 (1 only when FROM equals TO)");
	expect_sweep_error("capacity=1..8", "sweep 'capacity': range \"1..8\" has no step "
					    "count: write FROM..TO/STEPS");
	expect_sweep_error("capacity=1..x/3", "sweep 'capacity': range \"1..x/3\": FROM and TO "
					      "must each be a whole number of at least 1");
	CU_ASSERT_EQUAL(sweep_parse("models.aply.median=1m", &sw, buf, sizeof(buf)), -1);
	CU_ASSERT(strncmp(buf, "unknown sweep parameter 'models.aply.median': did you mean "
			       "'models.apply.median'? accepted: capacity, ",
			  strlen("unknown sweep parameter 'models.aply.median': did you mean "
				 "'models.apply.median'? accepted: capacity, "))
		  == 0);
}

static void test_sweep_variant(void)
{
	struct scenario s;
	struct sweep sw;
	struct var_def v;
	struct var_scenario out;
	struct diag d;
	char err[256];

	load_ok(SCENARIO_HEAD MANIFESTS, &s);
	diag_init(&d);
	CU_ASSERT_EQUAL_FATAL(sweep_parse("models.apply.median=1m..3m/3", &sw, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(sweep_variant(&s, &sw, 2, &v, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(v.name, "models.apply.median=3m0s");
	CU_ASSERT_EQUAL_FATAL(var_apply(&s, &v, &out, &d), 0);
	/* The median moved; p95 and the failure probability are the base's. */
	CU_ASSERT_EQUAL(out.s.models.job[SCN_JOB_APPLY].duration.kind, DIST_LOGNORMAL);
	CU_ASSERT_DOUBLE_EQUAL(out.s.models.job[SCN_JOB_APPLY].duration.u.lognormal.median, 180000,
			       1e-6);
	CU_ASSERT_DOUBLE_EQUAL(out.s.models.job[SCN_JOB_APPLY].duration.u.lognormal.p95, 300000,
			       1e-6);
	CU_ASSERT_DOUBLE_EQUAL(out.s.models.job[SCN_JOB_APPLY].failure_probability, 0.1, 1e-12);
	var_scenario_release(&out);
	var_def_release(&v);
	sweep_release(&sw);

	/* The plan duration is uniform: its median cannot be swept. */
	CU_ASSERT_EQUAL_FATAL(sweep_parse("models.plan.median=1m,2m", &sw, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(sweep_variant(&s, &sw, 0, &v, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "sweep 'models.plan.median' needs spec.models.jobs.plan.duration "
				    "to be lognormal with median and p95");
	sweep_release(&sw);

	CU_ASSERT_EQUAL_FATAL(sweep_parse("capacity=7", &sw, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(sweep_variant(&s, &sw, 0, &v, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(var_apply(&s, &v, &out, &d), 0);
	CU_ASSERT_EQUAL(out.s.models.capacity, 7);
	var_scenario_release(&out);
	var_def_release(&v);
	sweep_release(&sw);
	CU_ASSERT_EQUAL(d.n, 0);
	diag_release(&d);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_sweep_in_scenario(void)
{
	struct scenario s;
	struct sweep sw;
	struct diag d;
	char *diags;

	load_ok(SCENARIO_HEAD "  sweep: {parameter: capacity, values: [1, 2, 4]}\n" MANIFESTS, &s);
	diag_init(&d);
	CU_ASSERT_EQUAL(sweep_from_scenario(&s, &sw, &d), 0);
	CU_ASSERT_STRING_EQUAL(sw.param, "capacity");
	CU_ASSERT_EQUAL(sw.n, 3);
	CU_ASSERT_DOUBLE_EQUAL(sw.values[2], 4, 0);
	sweep_release(&sw);
	scn_release(&s);
	fx_tmp_leave();

	load_ok(SCENARIO_HEAD "  sweep: {parameter: models.apply.p95, values: \"5m..7m/3\"}\n" MANIFESTS,
		&s);
	CU_ASSERT_EQUAL(sweep_from_scenario(&s, &sw, &d), 0);
	CU_ASSERT_EQUAL(sw.n, 3);
	CU_ASSERT_DOUBLE_EQUAL(sw.values[1], 360000, 0);
	sweep_release(&sw);
	scn_release(&s);
	fx_tmp_leave();

	load_ok(SCENARIO_HEAD "  sweep: {parameter: capacity, values: [1, two]}\n" MANIFESTS, &s);
	CU_ASSERT_EQUAL(sweep_from_scenario(&s, &sw, &d), -1);
	diags = fx_diag_text(&d);
	fx_same_text(diags, "s.yaml:14:44: error: spec.sweep: sweep 'capacity': value \"two\" is not a "
			    "whole number of at least 1");
	free(diags);
	sweep_release(&sw);
	scn_release(&s);
	fx_tmp_leave();

	load_ok(SCENARIO_HEAD MANIFESTS, &s);
	CU_ASSERT_EQUAL(sweep_from_scenario(&s, &sw, &d), 1);
	scn_release(&s);
	fx_tmp_leave();
	diag_release(&d);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "merge patch: null deletes, lists replaced, base untouched",
		  test_merge_patch_semantics },
		{ "model overrides by the same keys", test_model_overrides },
		{ "identical variant gives identical rows (common random numbers)",
		  test_identical_variant_identical_rows },
		{ "parse errors with marks", test_parse_errors },
		{ "a variant that changes nothing warns", test_empty_variant_warns },
		{ "apply errors name the variant and the admission message", test_apply_errors },
		{ "sweep values, ranges and bad input", test_sweep_parse },
		{ "sweep value as a variant", test_sweep_variant },
		{ "spec.sweep", test_sweep_in_scenario },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("variant", tests);
}
