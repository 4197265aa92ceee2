/*
 * spec.models: what lies outside the controllers — Jobs (capacity, pod
 * startup, plan and apply durations and failures, rules by Workspace
 * labels), policy violations, git remotes, and the StageSet members
 * (adoption, regression, rules by StageSet labels) with the
 * keys of the StageSet world and spec.models.sources (scn_ssworld.c).  Its schema,
 * its reading with every default filled in, the lookups sim/models/models makes at
 * run time, and the check of what it names against the run's objects.
 */
#include "sim/load/scn_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"

/* ---------------------------------------------------------------- schema */

static void check_probability(struct sch_ctx *c, const struct val *v, const char *path);
static void check_window(struct sch_ctx *c, const struct val *v, const char *path);
static void check_semver_text(struct sch_ctx *c, const struct val *v, const char *path);

/* A probability: a number, a ratio from 0 to 1. */
const struct sch_node scnp_probability_node = { .type = SCH_NUMBER, .has_minimum = true,
					       .minimum = 0, .check = check_probability };

/* A plan or apply Job's, or a member's adoption's: how long it takes, how often it fails. */
static const struct sch_field outcome_fields[] = {
	{ .name = "duration", .schema = &scnp_dist_node },
	{ .name = "failureProbability", .schema = &scnp_probability_node },
	{ .name = NULL },
};
static const struct sch_node outcome_node = { .type = SCH_OBJECT, .fields = outcome_fields };

/* spec.models.jobs */
static const struct sch_field rule_fields[] = {
	{ .name = "selector", .schema = &scnp_selector_node, .required = true },
	{ .name = "plan", .schema = &outcome_node },
	{ .name = "apply", .schema = &outcome_node },
	{ .name = NULL },
};
static const struct sch_node rule_node = { .type = SCH_OBJECT, .fields = rule_fields };
static const struct sch_node rules_node = { .type = SCH_ARRAY, .items = &rule_node };

static const struct sch_node capacity_node = { .type = SCH_INTEGER, .has_minimum = true,
					       .minimum = 1 };
static const struct sch_field jobs_fields[] = {
	{ .name = "capacity", .schema = &capacity_node },
	{ .name = "podStartup", .schema = &scnp_ms_duration_node },
	{ .name = "plan", .schema = &outcome_node },
	{ .name = "apply", .schema = &outcome_node },
	{ .name = "rules", .schema = &rules_node },
	{ .name = NULL },
};
static const struct sch_node jobs_node = { .type = SCH_OBJECT, .fields = jobs_fields };

static const struct sch_field policy_model_fields[] = {
	{ .name = "name", .schema = &sch_string_nonempty, .required = true },
	{ .name = "violationProbability", .schema = &scnp_probability_node },
	{ .name = NULL },
};
static const struct sch_node policy_model_node = { .type = SCH_OBJECT,
						   .fields = policy_model_fields };
static const struct sch_node policies_node = { .type = SCH_ARRAY, .items = &policy_model_node };

/* spec.models.git: remotes, their HEAD, initial SHAs and outages. */
static const struct sch_field window_fields[] = {
	{ .name = "from", .schema = &scnp_ms_duration_node, .required = true },
	{ .name = "until", .schema = &scnp_ms_duration_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node window_node = { .type = SCH_OBJECT, .fields = window_fields,
					     .check = check_window };
static const struct sch_node windows_node = { .type = SCH_ARRAY, .items = &window_node };
static const struct sch_field repo_fields[] = {
	{ .name = "url", .schema = &sch_string_nonempty, .required = true },
	{ .name = "head", .schema = &sch_string_nonempty },
	{ .name = "refs", .schema = &scnp_sha_map_node },
	{ .name = "unreachable", .schema = &windows_node },
	{ .name = NULL },
};
static const struct sch_node repo_node = { .type = SCH_OBJECT, .fields = repo_fields };
static const struct sch_node repos_node = { .type = SCH_ARRAY, .items = &repo_node };
static const struct sch_field git_fields[] = {
	{ .name = "repositories", .schema = &repos_node },
	{ .name = NULL },
};
static const struct sch_node git_node = { .type = SCH_OBJECT, .fields = git_fields };

/*
 * spec.models.stagesets: the members' adoption and regression.  `migrations`
 * is type-checked here and then refused (scnp_sw_check_member_keys(): a
 * StageSet's ladder is its own spec.migrations), so nothing reads it.
 */
static const struct sch_node semver_node = { .type = SCH_ANY, .check = check_semver_text };
static const struct sch_node version_text_node = { .type = SCH_ANY,
						   .check = scnp_check_version_text };
static const struct sch_node version_list_node = { .type = SCH_ARRAY,
						   .items = &version_text_node };

static const struct sch_field regression_fields[] = {
	{ .name = "probability", .schema = &scnp_probability_node },
	{ .name = "duration", .schema = &scnp_dist_node },
	{ .name = "after", .schema = &scnp_dist_node },
	{ .name = "versions", .schema = &version_list_node },
	{ .name = "effect", .schema = &scnp_sw_effect_node },
	{ .name = NULL },
};
static const struct sch_node regression_node = { .type = SCH_OBJECT,
						 .fields = regression_fields };

static const struct sch_field migration_fields[] = {
	{ .name = "name", .schema = &sch_string_nonempty },
	{ .name = "to", .schema = &semver_node, .required = true },
	{ .name = "down", .schema = &sch_boolean },
	{ .name = NULL },
};
static const struct sch_node migration_node = { .type = SCH_OBJECT, .fields = migration_fields };
static const struct sch_node migrations_node = { .type = SCH_ARRAY, .items = &migration_node };

static const struct sch_field ss_rule_fields[] = {
	{ .name = "selector", .schema = &scnp_selector_node, .required = true },
	{ .name = "adoption", .schema = &outcome_node },
	{ .name = "regression", .schema = &regression_node },
	{ .name = "migrations", .schema = &migrations_node },
	{ .name = "stage", .schema = &sch_string_nonempty },
	{ .name = "apply", .schema = &scnp_sw_apply_node },
	{ .name = "readiness", .schema = &scnp_sw_readiness_node },
	{ .name = "readyExprs", .schema = &scnp_sw_readiness_node },
	{ .name = "actions", .schema = &scnp_sw_actions_node },
	{ .name = "restore", .schema = &scnp_sw_restore_node },
	{ .name = NULL },
};
static const struct sch_node ss_rule_node = { .type = SCH_OBJECT, .fields = ss_rule_fields };
static const struct sch_node ss_rules_node = { .type = SCH_ARRAY, .items = &ss_rule_node };

static const struct sch_field stagesets_fields[] = {
	{ .name = "adoption", .schema = &outcome_node },
	{ .name = "regression", .schema = &regression_node },
	{ .name = "migrations", .schema = &migrations_node },
	{ .name = "rules", .schema = &ss_rules_node },
	{ .name = "apply", .schema = &scnp_sw_apply_node },
	{ .name = "readiness", .schema = &scnp_sw_readiness_node },
	{ .name = "readyExprs", .schema = &scnp_sw_readiness_node },
	{ .name = "actions", .schema = &scnp_sw_actions_node },
	{ .name = "restore", .schema = &scnp_sw_restore_node },
	{ .name = "anchors", .schema = &scnp_sw_anchors_node },
	{ .name = "pods", .schema = &scnp_sw_pods_node },
	{ .name = "podListErrors", .schema = &scnp_sw_list_errors_node },
	{ .name = "ledgerErrors", .schema = &scnp_sw_read_errors_node },
	{ .name = "rollbackStore", .schema = &scnp_sw_store_node },
	{ .name = NULL },
};
static const struct sch_node stagesets_node = { .type = SCH_OBJECT, .fields = stagesets_fields };

static const struct sch_field models_fields[] = {
	{ .name = "jobs", .schema = &jobs_node },
	{ .name = "policies", .schema = &policies_node },
	{ .name = "git", .schema = &git_node },
	{ .name = "stagesets", .schema = &stagesets_node },
	{ .name = "sources", .schema = &scnp_sw_sources_node },
	{ .name = NULL },
};
static const struct sch_node models_node = { .type = SCH_OBJECT, .fields = models_fields };

/* ---------------------------------------------------------------- checks */

static void check_probability(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (val_num(v, 0) > 1) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, path,
			   "Invalid value: %s: %s in body should be less than or equal to 1", q, path);
		sch_note(c, v->mark, "a probability is a ratio from 0 to 1: write 0.05 for 5%%");
		free(q);
	}
}

static void check_window(struct sch_ctx *c, const struct val *v, const char *path)
{
	scnp_check_until(c, val_map_get(v, "from"), "from", val_map_get(v, "until"), path);
}

static void check_semver_text(struct sch_ctx *c, const struct val *v, const char *path)
{
	const char *t = scnp_version_text(v);
	struct ss_semver sv;
	char err[128];

	if (!t || !t[0]) {
		scnp_check_version_text(c, v, path);
		return;
	}
	if (ss_semver_parse(t, &sv, err, sizeof(err)) != SS_OK) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, path, "Invalid value: %s: %s", q, err);
		sch_note(c, v->mark, "a migration's 'to' is a semantic version such as 2.0.0");
		free(q);
	}
}

/* ---------------------------------------------------------------- reading */

static int cmp_window(const void *a, const void *b)
{
	const struct scn_git_window *x = a, *y = b;

	return x->from_ms < y->from_ms ? -1 : x->from_ms > y->from_ms;
}

/* read_probability() - key @key of a validated map @v (NULL: none), when present, into *@p. */
static void read_probability(const struct val *v, const char *key, double *p, bool *has)
{
	const struct val *x = val_map_get(v, key);

	if (x) {
		*p = val_num(x, 0);
		*has = true;
	}
}

/* read_versions() - the version texts of a validated list @l into a new array. */
static char **read_versions(const struct val *l, size_t *n)
{
	char **v = xcalloc(l->u.list.n ? l->u.list.n : 1, sizeof(*v));

	for (size_t i = 0; i < l->u.list.n; i++)
		v[i] = xstrdup(scnp_version_text(l->u.list.items[i]));
	*n = l->u.list.n;
	return v;
}

/* read_adoption() - the fields of a validated adoption map @v (NULL: none) into @a. */
static void read_adoption(struct scn_adoption_model *a, const struct val *v)
{
	scnp_read_dist(v, "duration", &a->duration, &a->has_duration);
	read_probability(v, "failureProbability", &a->failure_probability, &a->has_failure);
}

/* read_regression() - the fields of a validated regression map @v (NULL: none) into @r. */
static void read_regression(struct scn_regression_model *r, const struct val *v)
{
	const struct val *vs = val_map_get(v, "versions");

	read_probability(v, "probability", &r->probability, &r->has_probability);
	scnp_read_dist(v, "duration", &r->duration, &r->has_duration);
	scnp_read_dist(v, "after", &r->after, &r->has_after);
	if (vs) {
		r->versions = read_versions(vs, &r->nversions);
		r->has_versions = true;
	}
}

/* read_stageset_rule() - validated spec.models.stagesets.rules[i] @r of @file into @sr. */
static void read_stageset_rule(struct scn_stageset_rule *sr, const struct val *r, const char *file)
{
	sr->selector_text = scnp_read_selector(val_map_get(r, "selector"), &sr->selector);
	dist_init_constant(&sr->adoption.duration, 0);
	dist_init_constant(&sr->regression.duration, 0);
	dist_init_constant(&sr->regression.after, 0);
	read_adoption(&sr->adoption, val_map_get(r, "adoption"));
	read_regression(&sr->regression, val_map_get(r, "regression"));
	sr->file = file;
	sr->mark = r->mark;
}

/* read_stagesets() - validated spec.models.stagesets @v into @m (defaults already there). */
static void read_stagesets(struct scn_stageset_models *m, const struct val *v, const char *file)
{
	const struct val *rules = val_map_get(v, "rules");

	read_adoption(&m->adoption, val_map_get(v, "adoption"));
	read_regression(&m->regression, val_map_get(v, "regression"));
	if (!rules || rules->u.list.n == 0)
		return;
	m->rules = xcalloc(rules->u.list.n, sizeof(*m->rules));
	for (size_t i = 0; i < rules->u.list.n; i++)
		read_stageset_rule(&m->rules[m->nrules++], rules->u.list.items[i], file);
}

/* read_job_model() - the fields of a validated plan/apply map @v (NULL: none) into @m. */
static void read_job_model(struct scn_job_model *m, const struct val *v)
{
	scnp_read_dist(v, "duration", &m->duration, &m->has_duration);
	read_probability(v, "failureProbability", &m->failure_probability, &m->has_failure);
}

/* read_job_rule() - validated spec.models.jobs.rules[i] @r of @file into @jr. */
static void read_job_rule(struct scn_job_rule *jr, const struct val *r, const char *file)
{
	jr->selector_text = scnp_read_selector(val_map_get(r, "selector"), &jr->selector);
	for (int t = 0; t < SCN_JOB_NTYPES; t++)
		dist_init_constant(&jr->job[t].duration, 0);
	read_job_model(&jr->job[SCN_JOB_PLAN], val_map_get(r, "plan"));
	read_job_model(&jr->job[SCN_JOB_APPLY], val_map_get(r, "apply"));
	jr->file = file;
	jr->mark = r->mark;
}

/* read_repo() - validated spec.models.git.repositories[i] @r into @g. */
static void read_repo(struct scn_git_repo *g, const struct val *r)
{
	const struct val *refs = val_map_get(r, "refs");
	const struct val *un = val_map_get(r, "unreachable");

	g->url = xstrdup(val_str(val_map_get(r, "url"), ""));
	g->head = xstrdup(val_str(val_map_get(r, "head"), SCN_DEFAULT_GIT_HEAD));
	if (refs && refs->u.map.n) {
		g->refs = xcalloc(refs->u.map.n, sizeof(*g->refs));
		for (size_t j = 0; j < refs->u.map.n; j++) {
			struct scn_git_ref *gr = &g->refs[g->nrefs++];

			gr->ref = xstrdup(refs->u.map.items[j].key);
			snprintf(gr->sha, sizeof(gr->sha), "%s",
				 val_str(refs->u.map.items[j].v, ""));
		}
	}
	if (un && un->u.list.n) {
		g->unreachable = xcalloc(un->u.list.n, sizeof(*g->unreachable));
		for (size_t j = 0; j < un->u.list.n; j++) {
			const struct val *w = un->u.list.items[j];
			struct scn_git_window *gw = &g->unreachable[g->nunreachable++];

			gw->from_ms = scnp_duration_ms(val_map_get(w, "from"));
			gw->until_ms = scnp_duration_ms(val_map_get(w, "until"));
		}
		qsort(g->unreachable, g->nunreachable, sizeof(*g->unreachable), cmp_window);
	}
}

/* read_models() - spec.models @v, validated without error, into @m (defaults already there). */
static void read_models(struct scn_models *m, const struct val *v, const char *file)
{
	const struct val *jobs = val_map_get(v, "jobs");
	const struct val *rules = val_map_get(jobs, "rules");
	const struct val *pols = val_map_get(v, "policies");
	const struct val *repos = val_path(v, "git.repositories");
	const struct val *x;
	int64_t ms;

	m->given = true;
	x = val_map_get(jobs, "capacity");
	if (x)
		m->capacity = x->u.i > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)x->u.i;
	x = val_map_get(jobs, "podStartup");
	if (x && gt_parse_duration(x->u.s, &ms, NULL, 0) == 0)
		m->pod_startup_ms = ms;
	read_job_model(&m->job[SCN_JOB_PLAN], val_map_get(jobs, "plan"));
	read_job_model(&m->job[SCN_JOB_APPLY], val_map_get(jobs, "apply"));
	if (val_map_get(v, "stagesets"))
		read_stagesets(&m->stagesets, val_map_get(v, "stagesets"), file);
	scnp_sw_read(&m->world, v, file);
	if (rules && rules->u.list.n) {
		m->rules = xcalloc(rules->u.list.n, sizeof(*m->rules));
		for (size_t i = 0; i < rules->u.list.n; i++)
			read_job_rule(&m->rules[m->nrules++], rules->u.list.items[i], file);
	}
	if (pols && pols->u.list.n) {
		m->policies = xcalloc(pols->u.list.n, sizeof(*m->policies));
		for (size_t i = 0; i < pols->u.list.n; i++) {
			const struct val *p = pols->u.list.items[i];
			struct scn_policy_model *pm = &m->policies[m->npolicies++];

			pm->name = xstrdup(val_str(val_map_get(p, "name"), ""));
			pm->violation_probability = val_num(val_map_get(p, "violationProbability"), 0);
		}
	}
	if (repos && repos->u.list.n) {
		m->repos = xcalloc(repos->u.list.n, sizeof(*m->repos));
		for (size_t i = 0; i < repos->u.list.n; i++)
			read_repo(&m->repos[m->nrepos++], repos->u.list.items[i]);
	}
}

void scnp_models_init(struct scn_models *m)
{
	memset(m, 0, sizeof(*m));
	m->pod_startup_ms = SCN_DEFAULT_POD_STARTUP_MS;
	dist_init_constant(&m->job[SCN_JOB_PLAN].duration, SCN_DEFAULT_PLAN_MS);
	dist_init_constant(&m->job[SCN_JOB_APPLY].duration, SCN_DEFAULT_APPLY_MS);
	for (int t = 0; t < SCN_JOB_NTYPES; t++) {
		m->job[t].has_duration = true;
		m->job[t].has_failure = true;
	}
	dist_init_constant(&m->stagesets.adoption.duration, SCN_DEFAULT_ADOPTION_MS);
	m->stagesets.adoption.has_duration = true;
	m->stagesets.adoption.has_failure = true;
	dist_init_constant(&m->stagesets.regression.duration, SCN_DEFAULT_REGRESSION_MS);
	dist_init_constant(&m->stagesets.regression.after, SCN_DEFAULT_REGRESSION_AFTER_MS);
	m->stagesets.regression.has_probability = true;
	m->stagesets.regression.has_duration = true;
	m->stagesets.regression.has_after = true;
	scn_sw_config_init(&m->world);
}

void scnp_models_process(struct loader *L, struct val *v, struct sch_ctx *c)
{
	size_t before = c->nerrors;

	sch_validate(&models_node, v, "spec.models", c);
	scnp_sw_check_member_keys(c, v, "spec.models");
	if (c->nerrors == before && v->type == VAL_MAP)
		read_models(&L->s->models, v, c->file);
}

int scn_models_parse(const struct val *v, const char *file, const char *path,
		     struct scn_models *out, struct diag *d)
{
	struct val *work = val_copy(v);
	struct sch_ctx c = { .d = d, .file = file, .root = work };
	int rc = 0;

	scnp_models_init(out);
	if (work) {
		sch_validate(&models_node, work, path, &c);
		scnp_sw_check_member_keys(&c, work, path);
	}
	if (c.nerrors > 0)
		rc = -1;
	else if (work && work->type == VAL_MAP)
		read_models(out, work, file);
	val_free(work);
	return rc;
}

/* ---------------------------------------------------------------- what the models name */

/*
 * repeats_earlier() - whether string @key of list item @i (a map) is also
 * the @key of one of the items before it.  Cost: O(i).
 */
static bool repeats_earlier(const struct val *list, size_t i, const char *key)
{
	const char *x = val_str(val_map_get(list->u.list.items[i], key), NULL);

	for (size_t j = 0; x && j < i; j++)
		if (strcmp(val_str(val_path(list->u.list.items[j], key), ""), x) == 0)
			return true;
	return false;
}

void scnp_check_models(struct loader *L)
{
	const struct val *pols = val_path(L->scn, "spec.models.policies");
	const struct val *repos = val_path(L->scn, "spec.models.git.repositories");
	const char *file = L->s->scenario_file;

	for (size_t i = 0; pols && pols->type == VAL_LIST && i < pols->u.list.n; i++) {
		const struct val *n = val_map_get(pols->u.list.items[i], "name");
		const char *name = val_str(n, NULL);

		if (!name)
			continue;
		if (repeats_earlier(pols, i, "name"))
			diag_error(L->d, file, n->mark,
				   "spec.models.policies[%zu].name: Duplicate value: \"%s\"", i,
				   name);
		if (scnp_missing(L, "ValidatingPolicy", "", name, INT64_MAX)) {
			diag_error(L->d, file, n->mark,
				   "spec.models.policies[%zu].name: ValidatingPolicy \"%s\" not found",
				   i, name);
			diag_note(L->d, file, n->mark,
				  "a policy model names a policies.kyverno.io/v1 ValidatingPolicy of "
				  "the inputs");
		}
	}
	for (size_t i = 0; repos && repos->type == VAL_LIST && i < repos->u.list.n; i++) {
		const struct val *u = val_map_get(repos->u.list.items[i], "url");

		if (repeats_earlier(repos, i, "url"))
			diag_error(L->d, file, u->mark,
				   "spec.models.git.repositories[%zu].url: Duplicate value: "
				   "\"%s\"",
				   i, val_str(u, ""));
	}
}

/* ---------------------------------------------------------------- at run time */

const char *scn_job_type_name(enum scn_job_type t)
{
	return t == SCN_JOB_PLAN ? "plan" : t == SCN_JOB_APPLY ? "apply" : "?";
}

const char *scn_canonical_ref(const char *ref, const char *head)
{
	if (strncmp(ref, "refs/heads/", 11) == 0)
		return ref + 11;
	if (strncmp(ref, "refs/tags/", 10) == 0)
		return ref + 10;
	if (ref[0] == '\0' || strcmp(ref, "HEAD") == 0)
		return head;
	return ref;
}

const char *scn_git_head(const struct scn_models *m, const char *url)
{
	for (size_t i = 0; i < m->nrepos; i++)
		if (strcmp(m->repos[i].url, url) == 0)
			return m->repos[i].head;
	return SCN_DEFAULT_GIT_HEAD;
}

void scn_job_model_for(const struct scn_models *m, enum scn_job_type t,
		       const struct obj_strmap *labels, const struct dist **dur, double *pfail)
{
	*dur = NULL;
	*pfail = -1;
	for (size_t i = 0; i < m->nrules && (!*dur || *pfail < 0); i++) {
		const struct scn_job_rule *r = &m->rules[i];

		if (!lbl_matches(&r->selector, labels))
			continue;
		if (!*dur && r->job[t].has_duration)
			*dur = &r->job[t].duration;
		if (*pfail < 0 && r->job[t].has_failure)
			*pfail = r->job[t].failure_probability;
	}
	if (!*dur)
		*dur = &m->job[t].duration;
	if (*pfail < 0)
		*pfail = m->job[t].failure_probability;
}

void scn_stageset_model_for(const struct scn_models *m, const struct obj_strmap *labels,
			    struct scn_stageset_model *out)
{
	const struct scn_stageset_models *ss = &m->stagesets;
	const struct scn_adoption_model *ad = NULL, *af = NULL;
	const struct scn_regression_model *rp = NULL, *rd = NULL, *ra = NULL, *rv = NULL;

	for (size_t i = 0; i < ss->nrules; i++) {
		const struct scn_stageset_rule *r = &ss->rules[i];

		if (!lbl_matches(&r->selector, labels))
			continue;
		if (!ad && r->adoption.has_duration)
			ad = &r->adoption;
		if (!af && r->adoption.has_failure)
			af = &r->adoption;
		if (!rp && r->regression.has_probability)
			rp = &r->regression;
		if (!rd && r->regression.has_duration)
			rd = &r->regression;
		if (!ra && r->regression.has_after)
			ra = &r->regression;
		if (!rv && r->regression.has_versions)
			rv = &r->regression;
	}
	ad = ad ? ad : &ss->adoption;
	af = af ? af : &ss->adoption;
	rp = rp ? rp : &ss->regression;
	rd = rd ? rd : &ss->regression;
	ra = ra ? ra : &ss->regression;
	rv = rv ? rv : &ss->regression;
	out->adoption_duration = &ad->duration;
	out->adoption_failure_probability = af->failure_probability;
	out->regression_probability = rp->probability;
	out->regression_duration = &rd->duration;
	out->regression_after = &ra->after;
	out->regression_all_versions = !rv->has_versions;
	out->regression_versions = rv->versions;
	out->nregression_versions = rv->nversions;
}

/* ---------------------------------------------------------------- release */

static void regression_release(struct scn_regression_model *r)
{
	dist_release(&r->duration);
	dist_release(&r->after);
	scnp_free_strv(r->versions, r->nversions);
}

static void stagesets_release(struct scn_stageset_models *m)
{
	dist_release(&m->adoption.duration);
	regression_release(&m->regression);
	for (size_t i = 0; i < m->nrules; i++) {
		struct scn_stageset_rule *r = &m->rules[i];

		lbl_selector_release(&r->selector);
		free(r->selector_text);
		dist_release(&r->adoption.duration);
		regression_release(&r->regression);
	}
	free(m->rules);
}

void scn_models_release(struct scn_models *m)
{
	if (!m)
		return;
	for (int t = 0; t < SCN_JOB_NTYPES; t++)
		dist_release(&m->job[t].duration);
	for (size_t i = 0; i < m->nrules; i++) {
		lbl_selector_release(&m->rules[i].selector);
		free(m->rules[i].selector_text);
		for (int t = 0; t < SCN_JOB_NTYPES; t++)
			dist_release(&m->rules[i].job[t].duration);
	}
	free(m->rules);
	for (size_t i = 0; i < m->npolicies; i++)
		free(m->policies[i].name);
	free(m->policies);
	for (size_t i = 0; i < m->nrepos; i++) {
		free(m->repos[i].url);
		free(m->repos[i].head);
		for (size_t j = 0; j < m->repos[i].nrefs; j++)
			free(m->repos[i].refs[j].ref);
		free(m->repos[i].refs);
		free(m->repos[i].unreachable);
	}
	free(m->repos);
	stagesets_release(&m->stagesets);
	scn_sw_config_release(&m->world);
}

