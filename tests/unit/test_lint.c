/*
 * lint: the rule table, the report (add, sort, counts), admission findings
 * from loader diagnostics, and every Magos rule (MS1xx) with a manifest that
 * triggers it and one that does not, asserting the exact message and the
 * line:col of the offending field.  Each case writes its manifests to a
 * fresh temporary directory as m.yaml and loads them as the command does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/lint/lint.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* ---- fixtures ----------------------------------------------------------------- */

/* A Workspace document of 10 lines (from its `---`). */
#define WS(name, env, project)                                                        \
	"---\n"                                                                       \
	"apiVersion: magosproject.io/v1alpha1\n"                                      \
	"kind: Workspace\n"                                                           \
	"metadata:\n"                                                                 \
	"  name: " name "\n"                                                          \
	"  labels: {env: " env "}\n"                                                  \
	"spec:\n"                                                                     \
	"  projectRef: {name: " project "}\n"                                         \
	"  source: {repoURL: https://example.com/r.git, targetRevision: main}\n"      \
	"  terraform: {version: \"1.9.0\"}\n"

/* The Project "web", 5 lines. */
#define PROJECT_WEB                                                                   \
	"---\n"                                                                       \
	"apiVersion: magosproject.io/v1alpha1\n"                                      \
	"kind: Project\n"                                                             \
	"metadata: {name: web}\n"                                                     \
	"spec: {}\n"

/* The Project "api", 5 lines. */
#define PROJECT_API                                                                   \
	"---\n"                                                                       \
	"apiVersion: magosproject.io/v1alpha1\n"                                      \
	"kind: Project\n"                                                             \
	"metadata: {name: api}\n"                                                     \
	"spec: {}\n"

/* Lines 1-7 of a Rollout "web"; steps follow from line 8, selectors at column 17. */
#define ROLLOUT_HEAD                                                                  \
	"apiVersion: magosproject.io/v1alpha1\n"                                      \
	"kind: Rollout\n"                                                             \
	"metadata: {name: web}\n"                                                     \
	"spec:\n"                                                                     \
	"  projectRef: web\n"                                                         \
	"  strategy:\n"                                                               \
	"    steps:\n"

#define STEP(name, selector) "    - name: " name "\n      selector: " selector "\n"
#define DEV "{matchLabels: {env: dev}}"
#define PROD "{matchLabels: {env: prod}}"

/*
 * Writes @yaml as m.yaml into a temporary directory, loads it with @load and
 * reports into @r (sorted) the loader's findings and those of @rules.  With
 * @loaded, the result of scn_load() of the same text (what `run` sees) goes
 * there, its diagnostics joined one a line into @run_diag (new string).
 */
static void lint_file(const char *yaml,
		      int (*load)(const char *const *, size_t, struct scenario *, struct diag *),
		      void (*rules)(struct lint_report *, const struct scenario *),
		      struct lint_report *r, int *loaded, char **run_diag)
{
	const char *path = "m.yaml";
	struct scenario s;
	struct diag d;

	fx_tmp_enter("test_lint");
	fx_put(path, yaml);
	lint_report_init(r);
	diag_init(&d);
	load(&path, 1, &s, &d);
	lint_from_diag(r, &d);
	rules(r, &s);
	lint_report_sort(r);
	scn_release(&s);
	diag_release(&d);
	if (loaded) {
		char *text;

		*loaded = fx_scn_load(&path, 1, &s, &text);
		*run_diag = text[0] ? xasprintf("%s\n", text) : xstrdup("");
		free(text);
		scn_release(&s);
	}
	fx_tmp_leave();
}

/* Loads @yaml as m.yaml like `magos-sim lint` and runs lint_magos() only; @r is sorted. */
static void lint_yaml(const char *yaml, struct lint_report *r)
{
	lint_file(yaml, scn_load, lint_magos, r, NULL, NULL);
}

/*
 * Loads @yaml as m.yaml as `magos-sim lint` does (scn_load_static(), every
 * rule through lint_scenario()); @r is sorted.  With @loaded, the result of
 * scn_load() of the same text (what `run` sees) goes there, its diagnostics
 * joined one a line into @run_diag (new string).
 */
static void lint_all(const char *yaml, struct lint_report *r, int *loaded, char **run_diag)
{
	lint_file(yaml, scn_load_static, lint_scenario, r, loaded, run_diag);
}

/* How many findings of rule @id @r holds. */
static size_t count(const struct lint_report *r, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += strcmp(r->items[i].rule->id, id) == 0;
	return n;
}

/* The first finding of rule @id, or NULL. */
static const struct lint_finding *first(const struct lint_report *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->items[i].rule->id, id) == 0)
			return &r->items[i];
	return NULL;
}

/* Asserts that @r holds exactly one finding in all, of rule @id at @line:@col with @msg. */
static void expect_one(const struct lint_report *r, const char *id, unsigned line, unsigned col,
		       const char *msg)
{
	const struct lint_finding *x = first(r, id);

	CU_ASSERT_EQUAL(r->n, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_EQUAL(x->mark.line, line);
	CU_ASSERT_EQUAL(x->mark.col, col);
	CU_ASSERT_STRING_EQUAL(x->msg, msg);
	CU_ASSERT_STRING_EQUAL(x->file, "m.yaml");
	if (strcmp(x->msg, msg) != 0 || x->mark.line != line || x->mark.col != col)
		fprintf(stderr, "\n%s at %u:%u: %s\n", id, (unsigned)x->mark.line,
			(unsigned)x->mark.col, x->msg);
}

static void expect_none(const struct lint_report *r)
{
	CU_ASSERT_EQUAL(r->n, 0);
	for (size_t i = 0; i < r->n; i++)
		fprintf(stderr, "\nunexpected %s at %u:%u: %s\n", r->items[i].rule->id,
			(unsigned)r->items[i].mark.line, (unsigned)r->items[i].mark.col,
			r->items[i].msg);
}

/* ---- the table and the report ------------------------------------------------ */

static void test_rules_table(void)
{
	size_t n;
	const struct lint_rule *rules = lint_rules(&n);

	CU_ASSERT_FATAL(n >= 14);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(strlen(rules[i].id), 5);
		CU_ASSERT_EQUAL(strncmp(rules[i].id, "MS", 2), 0);
		CU_ASSERT(rules[i].name[0] && rules[i].summary[0] && rules[i].fix[0]);
		CU_ASSERT_PTR_NULL(strchr(rules[i].summary, '\n'));
		CU_ASSERT_PTR_EQUAL(lint_rule(rules[i].id), &rules[i]);
		if (i)
			CU_ASSERT(strcmp(rules[i - 1].id, rules[i].id) < 0); /* id order, unique */
		for (size_t k = 0; k < i; k++)
			CU_ASSERT(strcmp(rules[k].name, rules[i].name) != 0);
	}
	CU_ASSERT_PTR_NULL(lint_rule("MS999"));
	CU_ASSERT_PTR_NULL(lint_rule(NULL));
	CU_ASSERT_EQUAL(lint_rule("MS101")->sev, LINT_ERROR);
	CU_ASSERT_EQUAL(lint_rule("MS103")->sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(lint_sev_name(LINT_ERROR), "error");
	CU_ASSERT_STRING_EQUAL(lint_sev_name(LINT_WARNING), "warning");
	CU_ASSERT_STRING_EQUAL(lint_sev_name(LINT_INFO), "info");
}

static void test_add_and_sort(void)
{
	struct lint_report r;

	lint_report_init(&r);
	lint_add(&r, "MS105", "b.yaml", (struct val_mark){ 3, 1 }, "x %d", 1);
	lint_add(&r, "MS101", "a.yaml", (struct val_mark){ 9, 2 }, "y");
	lint_add(&r, "MS103", "a.yaml", (struct val_mark){ 9, 2 }, "z");
	lint_add(&r, "MS102", "a.yaml", (struct val_mark){ 2, 7 }, "w");
	lint_add(&r, "MS001", NULL, (struct val_mark){ 0, 0 }, "no file");
	CU_ASSERT_EQUAL(r.n, 5);
	CU_ASSERT_EQUAL(r.nerrors, 2);
	CU_ASSERT_EQUAL(r.nwarnings, 3);
	CU_ASSERT_EQUAL(r.ninfos, 0);
	lint_report_sort(&r);
	CU_ASSERT_PTR_NULL(r.items[0].file);
	CU_ASSERT_STRING_EQUAL(r.items[1].rule->id, "MS102");
	CU_ASSERT_STRING_EQUAL(r.items[2].rule->id, "MS101");
	CU_ASSERT_STRING_EQUAL(r.items[3].rule->id, "MS103");
	CU_ASSERT_STRING_EQUAL(r.items[4].msg, "x 1");
	CU_ASSERT_STRING_EQUAL(r.items[4].file, "b.yaml");
	lint_report_release(&r);
	CU_ASSERT_EQUAL(r.n, 0);
	lint_report_release(NULL);
}

/* A variant's report merged into the base's: only what is new, named by the variant. */
static void test_merge_variant(void)
{
	struct lint_report r, v;

	lint_report_init(&r);
	lint_report_init(&v);
	lint_add(&r, "MS105", "s.yaml", (struct val_mark){ 3, 1 }, "base warning");
	lint_add(&v, "MS105", "s.yaml", (struct val_mark){ 3, 1 }, "base warning");     /* same: dropped */
	lint_add(&v, "MS105", "s.yaml", (struct val_mark){ 3, 2 }, "base warning");     /* elsewhere: kept */
	lint_add(&v, "MS205", "s.yaml", (struct val_mark){ 20, 38 }, "bad bound");
	v.items[v.n - 1].sev = LINT_WARNING; /* a finding's own severity is kept and counted */
	v.nerrors--;
	v.nwarnings++;
	lint_merge_variant(&r, &v, "soak 15m");
	CU_ASSERT_EQUAL_FATAL(r.n, 3);
	CU_ASSERT_STRING_EQUAL(r.items[0].msg, "base warning");
	CU_ASSERT_STRING_EQUAL(r.items[1].msg, "variant \"soak 15m\": base warning");
	CU_ASSERT_EQUAL(r.items[1].mark.col, 2);
	CU_ASSERT_STRING_EQUAL(r.items[2].msg, "variant \"soak 15m\": bad bound");
	CU_ASSERT_STRING_EQUAL(r.items[2].rule->id, "MS205");
	CU_ASSERT_STRING_EQUAL(r.items[2].file, "s.yaml");
	CU_ASSERT_EQUAL(r.items[2].sev, LINT_WARNING);
	CU_ASSERT_EQUAL(r.nerrors, 0);
	CU_ASSERT_EQUAL(r.nwarnings, 3);
	/* A second variant with the same finding tells it under its own name. */
	lint_merge_variant(&r, &v, "other");
	CU_ASSERT_EQUAL(r.n, 5);
	CU_ASSERT_STRING_EQUAL(r.items[4].msg, "variant \"other\": bad bound");
	lint_report_release(&v);
	lint_report_release(&r);
}

static void test_from_diag(void)
{
	struct lint_report r;
	struct diag d;

	diag_init(&d);
	diag_note(&d, "a.yaml", (struct val_mark){ 1, 1 }, "a lone note is dropped");
	diag_error(&d, "a.yaml", (struct val_mark){ 4, 3 },
		   "Workspace \"default/x\": spec.source.repoURL: Required value");
	diag_note(&d, "a.yaml", (struct val_mark){ 4, 3 }, "first note");
	diag_error(&d, "a.yaml", (struct val_mark){ 6, 1 },
		   "Rollout (no name): metadata.name: Required value");
	diag_error(&d, "a.yaml", (struct val_mark){ 7, 2 },
		   "unknown kind \"Workspce\" in apiVersion \"magosproject.io/v1alpha1\"");
	diag_error(&d, "b.yaml", (struct val_mark){ 2, 5 }, "duplicate key \"spec\"");
	diag_error(&d, "c.yaml", (struct val_mark){ 0, 0 }, "cannot read: No such file or directory");
	diag_warning(&d, "a.yaml", (struct val_mark){ 9, 9 }, "something odd");
	diag_note(&d, "a.yaml", (struct val_mark){ 9, 9 }, "more");
	diag_note_alone(&d, "a.yaml", (struct val_mark){ 1, 1 },
			"1 object of kinds the simulated controllers do not read is accepted and "
			"ignored: ConfigMap \"c\" (v1)");
	diag_note(&d, "a.yaml", (struct val_mark){ 1, 1 }, "a note after the summary is alone");
	/* a note added alone after an error is no part of it, wherever it points */
	diag_error(&d, "a.yaml", (struct val_mark){ 12, 7 }, "Invalid value: \"Configmap/cm-a\"");
	diag_note_alone(&d, "a.yaml", (struct val_mark){ 5, 1 }, "1 source the StageSets name is modelled");
	lint_report_init(&r);
	lint_from_diag(&r, &d);
	CU_ASSERT_EQUAL_FATAL(r.n, 7);
	CU_ASSERT_STRING_EQUAL(r.items[0].rule->id, "MS001");
	CU_ASSERT_STRING_EQUAL(r.items[0].msg,
			       "Workspace \"default/x\": spec.source.repoURL: Required value; first note");
	CU_ASSERT_EQUAL(r.items[0].mark.line, 4);
	CU_ASSERT_EQUAL(r.items[0].mark.col, 3);
	CU_ASSERT_STRING_EQUAL(r.items[1].rule->id, "MS001");
	CU_ASSERT_STRING_EQUAL(r.items[2].rule->id, "MS001");
	CU_ASSERT_STRING_EQUAL(r.items[3].rule->id, "MS002");
	CU_ASSERT_STRING_EQUAL(r.items[3].file, "b.yaml");
	CU_ASSERT_STRING_EQUAL(r.items[4].rule->id, "MS002");
	CU_ASSERT_STRING_EQUAL(r.items[5].rule->id, "MS003");
	CU_ASSERT_EQUAL(r.items[5].sev, LINT_WARNING);
	CU_ASSERT_STRING_EQUAL(r.items[5].msg, "something odd; more");
	CU_ASSERT_STRING_EQUAL(r.items[6].rule->id, "MS002");
	CU_ASSERT_STRING_EQUAL(r.items[6].msg, "Invalid value: \"Configmap/cm-a\"");
	CU_ASSERT_EQUAL(r.nerrors, 6);
	CU_ASSERT_EQUAL(r.nwarnings, 1);
	lint_report_release(&r);
	diag_release(&d);
}

/* A note added alone is kept past the bound that hides the error before it, and joins no finding. */
static void test_alone_note_past_bound(void)
{
	struct lint_report r;
	struct diag d;

	diag_init(&d);
	diag_set_max(&d, 1);
	diag_error(&d, "a.yaml", (struct val_mark){ 3, 1 }, "kept");
	diag_error(&d, "a.yaml", (struct val_mark){ 4, 1 }, "hidden");
	diag_note(&d, "a.yaml", (struct val_mark){ 4, 1 }, "hidden with it");
	diag_note_alone(&d, "a.yaml", (struct val_mark){ 1, 1 }, "about the load");
	CU_ASSERT_EQUAL_FATAL(d.n, 2);
	CU_ASSERT_STRING_EQUAL(d.items[1].msg, "about the load");
	CU_ASSERT_TRUE(d.items[1].alone);
	CU_ASSERT_FALSE(d.items[0].alone);
	CU_ASSERT_EQUAL(d.nhidden_errors, 1);
	lint_report_init(&r);
	lint_from_diag(&r, &d);
	CU_ASSERT_EQUAL_FATAL(r.n, 1);
	CU_ASSERT_STRING_EQUAL(r.items[0].msg, "kept");
	lint_report_release(&r);
	diag_release(&d);
}

/* A real admission refusal and a YAML error, through the loader. */
static void test_from_loader(void)
{
	struct lint_report r;

	lint_yaml("apiVersion: magosproject.io/v1alpha1\n"
		  "kind: Rollout\n"
		  "metadata: {name: web}\n"
		  "spec:\n"
		  "  projectRef: other\n"
		  "  strategy: {steps: []}\n",
		  &r);
	CU_ASSERT_EQUAL(count(&r, "MS001"), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	lint_report_release(&r);
	lint_yaml("a: [b\n", &r);
	CU_ASSERT_EQUAL(count(&r, "MS002"), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	lint_report_release(&r);
}

/* What a cluster accepts never crashes lint: empty documents, unknown kinds, Lists. */
static void test_odd_streams(void)
{
	struct lint_report r;

	lint_yaml("---\n---\n# only a comment\n---\n"
		  "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {x: 1}\n"
		  "---\n~\n---\n"
		  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"
		  "---\n"
		  "apiVersion: v1\nkind: List\nitems:\n"
		  "- apiVersion: magosproject.io/v1alpha1\n  kind: Project\n  metadata: {name: p}\n  spec: {}\n",
		  &r);
	expect_none(&r);
	lint_report_release(&r);
}

/* ---- the Magos rules --------------------------------------------------------- */

static void test_clean(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) STEP("prod", PROD) PROJECT_WEB
		  WS("a", "dev", "web") WS("b", "prod", "web"),
		  &r);
	expect_none(&r);
	lint_report_release(&r);
}

static void test_ms101_step_matches_nothing(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) STEP("prod", PROD) PROJECT_WEB WS("a", "dev", "web"),
		  &r);
	expect_one(&r, "MS101", 11, 17,
		   "Rollout \"default/web\": steps[1] \"prod\": selector env=prod matches no "
		   "Workspace of project \"web\" in namespace default: the controller halts the "
		   "whole Rollout with NoWorkspacesFound");
	lint_report_release(&r);
}

static void test_ms102_empty_steps(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD "      []\n" PROJECT_WEB WS("a", "dev", "web"), &r);
	expect_one(&r, "MS102", 8, 7,
		   "Rollout \"default/web\": spec.strategy.steps is empty: the Rollout reports "
		   "Ready/NoSteps and grants nothing, and Project \"web\" defers to it "
		   "(ManagedByRollout), so 1 Workspace of the project (a) never runs");
	CU_ASSERT_EQUAL(r.items[0].sev, LINT_WARNING);
	lint_report_release(&r);

	/* the upstream no-op: a Project, a Rollout without steps, no Workspace */
	lint_yaml(ROLLOUT_HEAD "      []\n" PROJECT_WEB, &r);
	CU_ASSERT_EQUAL(count(&r, "MS102"), 0);
	lint_report_release(&r);
	/* no Project: nothing defers to the Rollout (MS106 says the Project is missing) */
	lint_yaml(ROLLOUT_HEAD "      []\n" WS("a", "dev", "web"), &r);
	CU_ASSERT_EQUAL(count(&r, "MS102"), 0);
	CU_ASSERT_EQUAL(count(&r, "MS106"), 1);
	lint_report_release(&r);
	/* a Workspace that holds its grant from before runs; the other does not */
	lint_yaml(ROLLOUT_HEAD "      []\n" PROJECT_WEB WS("a", "dev", "web")
		  "---\n"
		  "apiVersion: magosproject.io/v1alpha1\n"
		  "kind: Workspace\n"
		  "metadata:\n"
		  "  name: b\n"
		  "  annotations: {magosproject.io/execution-allowed: \"true\"}\n"
		  "spec:\n"
		  "  projectRef: {name: web}\n"
		  "  source: {repoURL: https://example.com/r.git, targetRevision: main}\n"
		  "  terraform: {version: \"1.14.8\"}\n",
		  &r);
	CU_ASSERT_EQUAL(count(&r, "MS102"), 1);
	if (r.n)
		CU_ASSERT_PTR_NOT_NULL(strstr(r.items[0].msg, "(a) never runs; b, granted before the "
								  "Rollout existed, still runs"));
	lint_report_release(&r);
}

static void test_ms103_overlapping(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) STEP("all", "{}") PROJECT_WEB
		  WS("a", "dev", "web") WS("b", "prod", "web"),
		  &r);
	expect_one(&r, "MS103", 11, 17,
		   "Rollout \"default/web\": steps[1] \"all\" and steps[0] \"dev\" both select a "
		   "but form different levels: it is granted in one pass and revoked in the next "
		   "while pending");
	lint_report_release(&r);
	/* Disjoint selectors, one with an expression: no overlap. */
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV)
		  STEP("rest", "{matchExpressions: [{key: env, operator: NotIn, values: [dev]}]}")
		  PROJECT_WEB WS("a", "dev", "web") WS("b", "prod", "web"),
		  &r);
	expect_none(&r);
	lint_report_release(&r);
}

static void test_ms104_repeated(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) STEP("prod", PROD) STEP("dev-again", DEV)
		  PROJECT_WEB WS("a", "dev", "web") WS("b", "prod", "web"),
		  &r);
	expect_one(&r, "MS104", 13, 17,
		   "Rollout \"default/web\": steps[2] \"dev-again\" selects the same Workspaces as "
		   "steps[0] \"dev\" but is not next to it: they form two levels, and their "
		   "Workspaces are granted and revoked in turn while pending");
	lint_report_release(&r);
	/* Consecutive identical steps merge into one level (the samples' dev + staging). */
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) STEP("staging", DEV) STEP("prod", PROD)
		  PROJECT_WEB WS("a", "dev", "web") WS("b", "prod", "web"),
		  &r);
	expect_none(&r);
	lint_report_release(&r);
}

/*
 * One step's MS103 and MS104 findings come in the order of the earlier
 * steps they name, as a comparison of every pair of steps would give
 * them: steps[3] overlaps steps[0] (MS103), repeats steps[1] in another
 * level (MS104), and is disjoint from steps[2].
 */
static void test_ms103_ms104_order(void)
{
	struct lint_report r;
	const char *const want[] = { "MS103 steps[1] \"dev\" and steps[0] \"all\"",
				     "MS103 steps[2] \"prod\" and steps[0] \"all\"",
				     "MS103 steps[3] \"dev-again\" and steps[0] \"all\"",
				     "MS104 steps[3] \"dev-again\" selects the same Workspaces as steps[1]" };

	lint_yaml(ROLLOUT_HEAD STEP("all", "{}") STEP("dev", DEV) STEP("prod", PROD)
		  STEP("dev-again", DEV) PROJECT_WEB WS("a", "dev", "web") WS("b", "prod", "web"),
		  &r);
	CU_ASSERT_EQUAL_FATAL(r.n, 4);
	for (size_t i = 0; i < 4; i++) {
		char got[512];

		snprintf(got, sizeof got, "%s %s", r.items[i].rule->id,
			 strstr(r.items[i].msg, "steps[") ? strstr(r.items[i].msg, "steps[") : "");
		CU_ASSERT_EQUAL(strncmp(got, want[i], strlen(want[i])), 0);
		if (strncmp(got, want[i], strlen(want[i])) != 0)
			fprintf(stderr, "\n  finding %zu: %s\n  want: %s\n", i, got, want[i]);
	}
	lint_report_release(&r);
}

/* 20 000 steps of one selector, then one repeating the first after another: linear, one finding. */
static void test_many_steps(void)
{
	struct lint_report r;
	size_t cap = 64 * 20002 + 4096, n = 0;
	char *yaml = malloc(cap);

	n += (size_t)snprintf(yaml + n, cap - n, "%s", ROLLOUT_HEAD);
	for (int i = 0; i < 20000; i++)
		n += (size_t)snprintf(yaml + n, cap - n, STEP("s%d", DEV), i);
	n += (size_t)snprintf(yaml + n, cap - n, "%s%s%s%s%s", STEP("prod", PROD),
			      STEP("dev-again", DEV), PROJECT_WEB, WS("a", "dev", "web"),
			      WS("b", "prod", "web"));
	lint_yaml(yaml, &r);
	expect_one(&r, "MS104", 40011, 17,
		   "Rollout \"default/web\": steps[20001] \"dev-again\" selects the same Workspaces "
		   "as steps[0] \"s0\" but is not next to it: they form two levels, and their "
		   "Workspaces are granted and revoked in turn while pending");
	lint_report_release(&r);
	free(yaml);
}

static void test_ms105_not_selected(void)
{
	struct lint_report r;

	/* Rollout 11 lines, Project 5: Workspace c starts at line 37, its projectRef at 44. */
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) STEP("prod", PROD) PROJECT_WEB
		  WS("a", "dev", "web") WS("b", "prod", "web") WS("c", "test", "web"),
		  &r);
	expect_one(&r, "MS105", 44, 22,
		   "Workspace \"default/c\" of project \"web\" is selected by no step of Rollout "
		   "\"default/web\": nothing ever grants it execution");
	lint_report_release(&r);
	/* A Workspace of another project is none of this Rollout's business. */
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) STEP("prod", PROD) PROJECT_WEB
		  WS("a", "dev", "web") WS("b", "prod", "web") WS("c", "test", "api") PROJECT_API,
		  &r);
	expect_none(&r);
	lint_report_release(&r);
}

static void test_ms106_project_missing(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) WS("a", "dev", "web"), &r);
	expect_one(&r, "MS106", 5, 15,
		   "Rollout \"default/web\": spec.projectRef names Project \"web\", which does not "
		   "exist in namespace default");
	lint_report_release(&r);
}

/* A Workspace of project web with reconcile-interval @iv (its value on line +7 from `---`, col 41). */
#define WS_INTERVAL(iv)                                                               \
	"---\n"                                                                       \
	"apiVersion: magosproject.io/v1alpha1\n"                                      \
	"kind: Workspace\n"                                                           \
	"metadata:\n"                                                                 \
	"  name: a\n"                                                                 \
	"  labels: {env: dev}\n"                                                      \
	"  annotations:\n"                                                            \
	"    magosproject.io/reconcile-interval: " iv "\n"                            \
	"spec:\n"                                                                     \
	"  projectRef: {name: web}\n"                                                 \
	"  source: {repoURL: https://example.com/r.git, targetRevision: main}\n"      \
	"  terraform: {version: \"1.9.0\"}\n"

static void test_ms107_interval_not_positive(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS_INTERVAL("\"0s\""), &r);
	expect_one(&r, "MS107", 22, 41,
		   "Workspace \"default/a\": annotation magosproject.io/reconcile-interval=\"0s\" is "
		   "not positive: the Workspace controller loops forever computing the next "
		   "reconcile time and its only worker stops");
	lint_report_release(&r);
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS_INTERVAL("\"-5m\""), &r);
	CU_ASSERT_EQUAL(count(&r, "MS107"), 1);
	lint_report_release(&r);
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS_INTERVAL("\"90s\""), &r);
	expect_none(&r);
	lint_report_release(&r);
}

static void test_ms108_interval_invalid(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS_INTERVAL("soon"), &r);
	expect_one(&r, "MS108", 22, 41,
		   "Workspace \"default/a\": annotation magosproject.io/reconcile-interval=\"soon\" "
		   "is not a Go duration: the controller silently uses the default 3m0s");
	lint_report_release(&r);
	/* A bare number is not a Go duration either, except 0 (which MS107 reports). */
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS_INTERVAL("\"120\""), &r);
	CU_ASSERT_EQUAL(count(&r, "MS108"), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	lint_report_release(&r);
}

/* Workspace "a" of @project with autoApply false (line +9 col 14 from its `---`). */
#define WS_MANUAL(project)                                                            \
	"---\n"                                                                       \
	"apiVersion: magosproject.io/v1alpha1\n"                                      \
	"kind: Workspace\n"                                                           \
	"metadata:\n"                                                                 \
	"  name: a\n"                                                                 \
	"  labels: {env: dev}\n"                                                      \
	"spec:\n"                                                                     \
	"  projectRef: {name: " project "}\n"                                         \
	"  autoApply: false\n"                                                        \
	"  source: {repoURL: https://example.com/r.git, targetRevision: main}\n"      \
	"  terraform: {version: \"1.9.0\"}\n"

static void test_ms109_auto_apply_off(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS_MANUAL("web"), &r);
	expect_one(&r, "MS109", 23, 14,
		   "Workspace \"default/a\": autoApply is false in project \"web\", which a Rollout "
		   "orchestrates: each plan waits in Planned for magosproject.io/approved: "
		   "\"true\", and the Rollout's level waits with it");
	lint_report_release(&r);
	/* Without a Rollout the Project grants it; waiting for approval is then by design. */
	lint_yaml("apiVersion: magosproject.io/v1alpha1\nkind: Project\nmetadata: {name: web}\n"
		  "spec: {}\n" WS_MANUAL("web"),
		  &r);
	expect_none(&r);
	lint_report_release(&r);
}

static void test_ms110_crosses_projects(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS("a", "dev", "web")
		  WS("x", "dev", "api") WS("z", "dev", "api") PROJECT_API,
		  &r);
	expect_one(&r, "MS110", 9, 17,
		   "Rollout \"default/web\": steps[0] \"dev\": selector env=dev also matches 2 "
		   "Workspaces of other projects (x, z), which the Rollout of project \"web\" "
		   "ignores");
	lint_report_release(&r);
	/* Only foreign Workspaces: the step is also empty (MS101). */
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS("x", "dev", "api") PROJECT_API, &r);
	CU_ASSERT_EQUAL(count(&r, "MS110"), 1);
	CU_ASSERT_EQUAL(count(&r, "MS101"), 1);
	CU_ASSERT_EQUAL(r.n, 2);
	lint_report_release(&r);
}

static void test_ms111_selector_invalid(void)
{
	struct lint_report r;

	lint_yaml(ROLLOUT_HEAD STEP("dev", "{matchExpressions: [{key: env, operator: Foo, values: [dev]}]}")
		  PROJECT_WEB WS("a", "dev", "web"),
		  &r);
	expect_one(&r, "MS111", 9, 17,
		   "Rollout \"default/web\": steps[0] \"dev\": selector is invalid: \"Foo\" is not a "
		   "valid label selector operator; the controller fails every pass with "
		   "ReconcileError and grants nothing");
	lint_report_release(&r);
}

static void test_ms112_workspace_project_missing(void)
{
	struct lint_report r;

	/* Workspace a (lines 1-10) names project "gone": its projectRef on line 8. */
	lint_yaml(WS("a", "dev", "gone") PROJECT_WEB, &r);
	expect_one(&r, "MS112", 8, 22,
		   "Workspace \"default/a\" names project \"gone\", which has neither a Project nor "
		   "a Rollout in namespace default: nothing ever grants it execution");
	lint_report_release(&r);
	/* A Project alone grants it (DefaultParallel); a Rollout alone orchestrates it. */
	lint_yaml(WS("a", "dev", "web") PROJECT_WEB, &r);
	expect_none(&r);
	lint_report_release(&r);
	lint_yaml(ROLLOUT_HEAD STEP("dev", DEV) WS("a", "dev", "web"), &r);
	CU_ASSERT_EQUAL(count(&r, "MS112"), 0);
	CU_ASSERT_EQUAL(count(&r, "MS106"), 1);
	lint_report_release(&r);
}

/* Workspace "a" of project web with git-poll-interval @iv (value on line 8, col 40). */
#define WS_POLL(iv)                                                                   \
	"apiVersion: magosproject.io/v1alpha1\n"                                      \
	"kind: Workspace\n"                                                           \
	"metadata:\n"                                                                 \
	"  name: a\n"                                                                 \
	"  labels: {env: dev}\n"                                                      \
	"  annotations:\n"                                                            \
	"    other: x\n"                                                              \
	"    magosproject.io/git-poll-interval: " iv "\n"                             \
	"spec:\n"                                                                     \
	"  projectRef: {name: web}\n"                                                 \
	"  source: {repoURL: https://example.com/r.git, targetRevision: main}\n"      \
	"  terraform: {version: \"1.9.0\"}\n"

static void test_ms113_git_poll_interval(void)
{
	struct lint_report r;

	lint_yaml(WS_POLL("\"0s\"") PROJECT_WEB, &r);
	expect_one(&r, "MS113", 8, 40,
		   "Workspace \"default/a\": annotation magosproject.io/git-poll-interval=\"0s\" is "
		   "not a Go duration above zero: the RefWatcher silently polls at its default "
		   "interval instead");
	lint_report_release(&r);
	lint_yaml(WS_POLL("weekly") PROJECT_WEB, &r);
	CU_ASSERT_EQUAL(count(&r, "MS113"), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	lint_report_release(&r);
	lint_yaml(WS_POLL("2m30s") PROJECT_WEB, &r);
	expect_none(&r);
	lint_report_release(&r);
}

/* Marks inside a `kind: List` (what `kubectl get -o yaml` prints) point into the item. */
static void test_marks_in_list(void)
{
	struct lint_report r;

	lint_yaml(PROJECT_WEB "---\n"
		  "apiVersion: v1\n"
		  "kind: List\n"
		  "items:\n"
		  "- apiVersion: magosproject.io/v1alpha1\n"
		  "  kind: Workspace\n"
		  "  metadata:\n"
		  "    name: a\n"
		  "    annotations: {magosproject.io/reconcile-interval: \"-1s\"}\n"
		  "  spec:\n"
		  "    projectRef: {name: web}\n"
		  "    source: {repoURL: https://example.com/r.git, targetRevision: main}\n"
		  "    terraform: {version: \"1.9.0\"}\n",
		  &r);
	CU_ASSERT_EQUAL(count(&r, "MS107"), 1);
	CU_ASSERT_EQUAL(r.n, 1);
	if (r.n == 1) {
		CU_ASSERT_EQUAL(r.items[0].mark.line, 14);
		CU_ASSERT_EQUAL(r.items[0].mark.col, 55);
	}
	lint_report_release(&r);
}

/* ---- loader and rules together -------------------------------------------------- */

/* A FleetRollout "shop" with one wave whose gate reads "errors" at ADDR; 14 lines, address on 12. */
#define GATED_FLEET(addr)                                                             \
	"apiVersion: stages.metio.wtf/v1\n"                                           \
	"kind: FleetRollout\n"                                                        \
	"metadata: {name: shop}\n"                                                    \
	"spec:\n"                                                                     \
	"  selector: {matchLabels: {app: shop}}\n"                                    \
	"  targetVersion: \"2.0.0\"\n"                                                \
	"  waves:\n"                                                                  \
	"    - name: canary\n"                                                        \
	"      selector: {}\n"                                                        \
	"      gate:\n"                                                               \
	"        source:\n"                                                           \
	"          prometheus: {address: \"" addr "\", query: errors}\n"              \
	"        threshold: {max: \"0.01\"}\n"

/* Plain manifests need no synthetic series for lint; `run` still does. */
static void test_plain_gate_needs_no_series(void)
{
	struct lint_report r;
	char *run_diag;
	int loaded;

	lint_all(GATED_FLEET("http://prometheus.monitoring:9090"), &r, &loaded, &run_diag);
	expect_none(&r);
	CU_ASSERT_EQUAL(loaded, -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(run_diag, "m.yaml:12:77: error: FleetRollout \"shop\": wave "
						"\"canary\": no series in spec.metrics for the gate "
						"query \"errors\""));
	free(run_diag);
	lint_report_release(&r);

	/* a Scenario document is held to its spec.metrics, by lint too */
	lint_all("apiVersion: magos-sim/v1alpha1\n"
		 "kind: Scenario\n"
		 "metadata: {name: s}\n"
		 "spec: {}\n"
		 "---\n" GATED_FLEET("http://prometheus.monitoring:9090"),
		 &r, NULL, NULL);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT_EQUAL(r.nerrors, 1);
	CU_ASSERT(r.n == 1 && strstr(r.items[0].msg, "no series in spec.metrics") != NULL);
	lint_report_release(&r);
}

/* A gate address the loader warns about and a rule judges is told once, by the rule. */
static void test_address_told_once(void)
{
	struct lint_report r;

	lint_all(GATED_FLEET("prometheus:9090"), &r, NULL, NULL);
	expect_one(&r, "MS216", 12, 33,
		   "FleetRollout shop wave \"canary\" gate address \"prometheus:9090\" is not an "
		   "http(s) URL with a host; every query fails, the verdict is Unknown and the wave "
		   "is held forever");
	CU_ASSERT_EQUAL(r.nwarnings, 0);
	lint_report_release(&r);

	lint_all("apiVersion: magos-sim/v1alpha1\n"
		 "kind: Scenario\n"
		 "metadata: {name: s}\n"
		 "spec:\n"
		 "  fleet: {allowedActionHosts: [\"prometheus.*\"]}\n"
		 "  metrics:\n"
		 "    - {query: errors, values: \"0x10\"}\n"
		 "---\n" GATED_FLEET("http://grafana.monitoring:9090"),
		 &r, NULL, NULL);
	CU_ASSERT_EQUAL(count(&r, "MS206"), 1);
	CU_ASSERT_EQUAL(count(&r, "MS003"), 0);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT_EQUAL(r.nerrors, 1);
	CU_ASSERT_EQUAL(r.nwarnings, 0);
	lint_report_release(&r);

	/* a loader warning elsewhere stays: the unread series */
	lint_all("apiVersion: magos-sim/v1alpha1\n"
		 "kind: Scenario\n"
		 "metadata: {name: s}\n"
		 "spec:\n"
		 "  metrics:\n"
		 "    - {query: errors, values: \"0x10\"}\n"
		 "    - {query: latency, values: \"0x10\"}\n"
		 "---\n" GATED_FLEET("http://prometheus.monitoring:9090"),
		 &r, NULL, NULL);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT_EQUAL(count(&r, "MS003"), 1);
	lint_report_release(&r);
}

/* The Magos rules see objects that `apply` events create, at their marks in the event. */
static void test_applied_by_event(void)
{
	struct lint_report r;

	lint_all("apiVersion: magos-sim/v1alpha1\n"
		 "kind: Scenario\n"
		 "metadata: {name: s}\n"
		 "spec:\n"
		 "  events:\n"
		 "    - at: 1h\n"
		 "      apply:\n"
		 "        apiVersion: magosproject.io/v1alpha1\n"
		 "        kind: Workspace\n"
		 "        metadata:\n"
		 "          name: late\n"
		 "          annotations: {magosproject.io/reconcile-interval: \"0\"}\n"
		 "        spec:\n"
		 "          projectRef: {name: web}\n"
		 "          source: {repoURL: https://example.com/r.git, targetRevision: main}\n"
		 "          terraform: {version: \"1.9.0\"}\n"
		 "---\n" PROJECT_WEB,
		 &r, NULL, NULL);
	expect_one(&r, "MS107", 12, 61,
		   "Workspace \"default/late\": annotation magosproject.io/reconcile-interval=\"0\" is "
		   "not positive: the Workspace controller loops forever computing the next "
		   "reconcile time and its only worker stops");
	lint_report_release(&r);

	/* an applied Rollout replaces the input one: its steps are what lint judges */
	lint_all("apiVersion: magos-sim/v1alpha1\n"
		 "kind: Scenario\n"
		 "metadata: {name: s}\n"
		 "spec:\n"
		 "  events:\n"
		 "    - at: 1h\n"
		 "      apply:\n"
		 "        apiVersion: magosproject.io/v1alpha1\n"
		 "        kind: Rollout\n"
		 "        metadata: {name: web}\n"
		 "        spec:\n"
		 "          projectRef: web\n"
		 "          strategy: {steps: [{name: dev, selector: {matchLabels: {env: qa}}}]}\n"
		 "---\n" ROLLOUT_HEAD STEP("dev", DEV) PROJECT_WEB WS("web-dev", "dev", "web"),
		 &r, NULL, NULL);
	CU_ASSERT_EQUAL(count(&r, "MS101"), 1);
	CU_ASSERT_EQUAL(count(&r, "MS105"), 1);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT(r.n > 0 && first(&r, "MS101") && first(&r, "MS101")->mark.line == 13);
	lint_report_release(&r);
}

void register_tests(void)
{
	static CU_TestInfo core[] = {
		{ "rules table: ids unique, in order, complete", test_rules_table },
		{ "add, counts and sort order", test_add_and_sort },
		{ "a variant's findings merged into the base's", test_merge_variant },
		{ "diagnostics become MS001/MS002/MS003", test_from_diag },
		{ "a note added alone is kept past the bound, in no finding", test_alone_note_past_bound },
		{ "admission and YAML errors through the loader", test_from_loader },
		{ "empty documents, unknown kinds, Lists", test_odd_streams },
		CU_TEST_INFO_NULL,
	};
	static CU_TestInfo magos[] = {
		{ "a clean Rollout has no findings", test_clean },
		{ "MS101 step matches nothing", test_ms101_step_matches_nothing },
		{ "MS102 empty steps", test_ms102_empty_steps },
		{ "MS103 overlapping steps", test_ms103_overlapping },
		{ "MS104 repeated steps", test_ms104_repeated },
		{ "MS103 and MS104 in the order of the steps they name", test_ms103_ms104_order },
		{ "20 000 repeated steps lint in linear time", test_many_steps },
		{ "MS105 workspace not selected", test_ms105_not_selected },
		{ "MS106 project missing", test_ms106_project_missing },
		{ "MS107 interval not positive", test_ms107_interval_not_positive },
		{ "MS108 interval invalid", test_ms108_interval_invalid },
		{ "MS109 autoApply false", test_ms109_auto_apply_off },
		{ "MS110 selector crosses projects", test_ms110_crosses_projects },
		{ "MS111 selector invalid", test_ms111_selector_invalid },
		{ "MS112 workspace project missing", test_ms112_workspace_project_missing },
		{ "MS113 git-poll-interval", test_ms113_git_poll_interval },
		{ "marks inside a List", test_marks_in_list },
		{ "plain manifests need no gate series", test_plain_gate_needs_no_series },
		{ "a gate address is told once", test_address_told_once },
		{ "objects applied by events", test_applied_by_event },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("lint core", core);
	CU_ADD_SUITE("lint magos", magos);
}
