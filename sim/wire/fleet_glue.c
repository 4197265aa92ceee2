#include "sim/wire/fleet_glue.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/wire/fleet_rc.h"
#include "sim/models/stageset_model.h"
#include "sim/models/stageset_world.h"

struct fleet_glue {
	const struct scenario *s;
	struct frc *frc;
	struct ssm *ssm;
	struct ssm_params p;
	/* Everything p points at, owned here. */
	struct ssm_publish *publish;
	size_t npublish;
	struct ssm_regression *regressions;
	size_t nregressions;
	struct ssm_rule *rules;
	struct ss_migration **ladders; /* one per rule, plus the defaults' at the end */
	size_t nladders;
	char **members;                /* "ns/name" strings the expansions made */
	size_t nmembers;
};

/*
 * What a gate's query returns: the series of its exact query (and address
 * when entries name one) as one instant vector (several series of one query
 * are an error, as upstream's scalarFromResult has it).
 */
static int metric(void *ctx, const char *address, const char *query, int64_t t_ms, double *value,
		  char *err, size_t errlen)
{
	const struct fleet_glue *g = ctx;

	return sw_metric_prometheus(g->s->series, g->s->nseries, query, address, t_ms, value, err, errlen);
}

static const char *keep_member(struct fleet_glue *g, const char *ns, const char *name)
{
	g->members = xreallocarray(g->members, g->nmembers + 1, sizeof(char *));
	g->members[g->nmembers] = xasprintf("%s/%s", ns, name);
	return g->members[g->nmembers++];
}

static const struct obj *namespace_of(const struct scenario *s, const char *ns)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (!strcmp(s->objs[i]->kind, "Namespace") && !strcmp(s->objs[i]->name, ns))
			return s->objs[i];
	return NULL;
}

/* The loaded StageSets an event's selectors pick (namespace labels from the loaded Namespaces). */
static bool picks(const struct scenario *s, const struct scn_fevent *ev, const struct obj *o)
{
	const struct obj *ns;

	if (strcmp(o->kind, "StageSet") != 0 || !lbl_matches(&ev->selector, &o->labels))
		return false;
	if (ev->type == SCN_FEV_REGRESS && ev->target.ns && strcmp(ev->target.ns, o->ns) != 0)
		return false;
	if (ev->type == SCN_FEV_PUBLISH && ev->has_ns_selector) {
		ns = namespace_of(s, o->ns);
		return lbl_matches(&ev->ns_selector, ns ? &ns->labels : NULL);
	}
	return true;
}

static struct ss_migration *ladder(struct fleet_glue *g, const struct scn_migration *m, size_t n)
{
	struct ss_migration *l = xcalloc(n ? n : 1, sizeof(*l));

	for (size_t i = 0; i < n; i++) {
		l[i].name = m[i].name;
		l[i].to = m[i].to;
		l[i].has_down = m[i].down;
	}
	g->ladders = xreallocarray(g->ladders, g->nladders + 1, sizeof(*g->ladders));
	g->ladders[g->nladders++] = l;
	return l;
}

static void events(struct fleet_glue *g)
{
	const struct scenario *s = g->s;

	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *ev = &s->fevents[i];
		bool expand = ev->type == SCN_FEV_PUBLISH ? ev->has_ns_selector
							 : ev->by_selector && ev->target.ns;

		if (ev->type == SCN_FEV_REGRESS && !ev->by_selector) {
			g->regressions = xreallocarray(g->regressions, g->nregressions + 1,
						       sizeof(*g->regressions));
			g->regressions[g->nregressions++] = (struct ssm_regression){
				ev->at_ms, NULL, keep_member(g, ev->target.ns, ev->target.name),
				ev->for_ms };
			continue;
		}
		if (!expand) {
			if (ev->type == SCN_FEV_PUBLISH) {
				g->publish = xreallocarray(g->publish, g->npublish + 1, sizeof(*g->publish));
				g->publish[g->npublish++] =
					(struct ssm_publish){ ev->at_ms, &ev->selector, NULL, ev->version };
			} else {
				g->regressions = xreallocarray(g->regressions, g->nregressions + 1,
							       sizeof(*g->regressions));
				g->regressions[g->nregressions++] = (struct ssm_regression){
					ev->at_ms, &ev->selector, NULL, ev->for_ms };
			}
			continue;
		}
		/* A namespace condition the model cannot express: one entry per member. */
		for (size_t k = 0; k < s->nobjs; k++) {
			const struct obj *o = s->objs[k];

			if (!picks(s, ev, o))
				continue;
			if (ev->type == SCN_FEV_PUBLISH) {
				g->publish = xreallocarray(g->publish, g->npublish + 1, sizeof(*g->publish));
				g->publish[g->npublish++] = (struct ssm_publish){
					ev->at_ms, NULL, keep_member(g, o->ns, o->name), ev->version };
			} else {
				g->regressions = xreallocarray(g->regressions, g->nregressions + 1,
							       sizeof(*g->regressions));
				g->regressions[g->nregressions++] = (struct ssm_regression){
					ev->at_ms, NULL, keep_member(g, o->ns, o->name), ev->for_ms };
			}
		}
	}
}

static void rules(struct fleet_glue *g)
{
	const struct scn_stageset_models *m = &g->s->models.stagesets;

	g->rules = xcalloc(m->nrules ? m->nrules : 1, sizeof(*g->rules));
	for (size_t i = 0; i < m->nrules; i++) {
		const struct scn_stageset_rule *r = &m->rules[i];
		struct ssm_rule *o = &g->rules[i];

		lbl_selector_copy(&o->selector, &r->selector);
		o->has_adopt = r->adoption.has_duration;
		if (o->has_adopt)
			dist_copy(&o->adopt, &r->adoption.duration);
		o->has_failure = r->adoption.has_failure;
		o->failure_probability = r->adoption.failure_probability;
		/* A rule regresses when it says so with a probability; its duration and
		 * onset fall back to the top level (the model takes them together). */
		o->has_regression = r->regression.has_probability;
		o->regression_probability = r->regression.probability;
		if (o->has_regression) {
			dist_copy(&o->regression_duration, r->regression.has_duration
								   ? &r->regression.duration
								   : &m->regression.duration);
			dist_copy(&o->regression_onset, r->regression.has_after ? &r->regression.after
										: &m->regression.after);
		}
		o->has_regression_versions = r->regression.has_versions;
		o->regression_versions = r->regression.versions;
		o->nregression_versions = r->regression.nversions;
		o->has_migrations = r->has_migrations;
		if (r->has_migrations) {
			o->migrations = ladder(g, r->migrations, r->nmigrations);
			o->nmigrations = r->nmigrations;
		}
	}
	g->p.rules = g->rules;
	g->p.nrules = m->nrules;
	g->p.defaults.has_adopt = true;
	dist_copy(&g->p.defaults.adopt, &m->adoption.duration);
	g->p.defaults.has_failure = true;
	g->p.defaults.failure_probability = m->adoption.failure_probability;
	g->p.defaults.has_regression = true;
	g->p.defaults.regression_probability = m->regression.probability;
	dist_copy(&g->p.defaults.regression_duration, &m->regression.duration);
	dist_copy(&g->p.defaults.regression_onset, &m->regression.after);
	g->p.defaults.has_regression_versions = m->regression.has_versions;
	g->p.defaults.regression_versions = m->regression.versions;
	g->p.defaults.nregression_versions = m->regression.nversions;
	g->p.defaults.has_migrations = true;
	g->p.defaults.migrations = ladder(g, m->migrations, m->nmigrations);
	g->p.defaults.nmigrations = m->nmigrations;
}

struct fleet_glue *fleet_glue_start(struct des *w, const struct scenario *s, uint64_t trial)
{
	struct fleet_glue *g = xcalloc(1, sizeof(*g));
	struct frc_params fp = { 0 };

	g->s = s;
	fp.start_unix_ms = s->start_unix_ms;
	fp.allowed_action_hosts = (const char *const *)s->fleet.allowed_action_hosts;
	fp.nallowed_action_hosts = s->fleet.nallowed_action_hosts;
	fp.metric = metric;
	fp.metric_ctx = g;
	g->frc = frc_register(w, &fp);

	ssm_params_init(&g->p);
	g->p.anchor_unix_ms = s->start_unix_ms;
	g->p.trial = trial;
	events(g);
	rules(g);
	g->p.publish = g->publish;
	g->p.npublish = g->npublish;
	g->p.regressions = g->regressions;
	g->p.nregressions = g->nregressions;
	g->ssm = ssm_new(w, &g->p);
	return g;
}

void fleet_glue_free(struct fleet_glue *g)
{
	if (!g)
		return;
	ssm_free(g->ssm);
	frc_free(g->frc);
	for (size_t i = 0; i < g->s->models.stagesets.nrules; i++) {
		lbl_selector_release(&g->rules[i].selector);
		dist_release(&g->rules[i].adopt);
		dist_release(&g->rules[i].regression_duration);
		dist_release(&g->rules[i].regression_onset);
	}
	free(g->rules);
	dist_release(&g->p.defaults.adopt);
	dist_release(&g->p.defaults.regression_duration);
	dist_release(&g->p.defaults.regression_onset);
	for (size_t i = 0; i < g->nladders; i++)
		free(g->ladders[i]);
	free(g->ladders);
	for (size_t i = 0; i < g->nmembers; i++)
		free(g->members[i]);
	free(g->members);
	free(g->publish);
	free(g->regressions);
	free(g);
}

const struct frc *fleet_glue_frc(const struct fleet_glue *g)
{
	return g ? g->frc : NULL;
}

const struct ssm *fleet_glue_ssm(const struct fleet_glue *g)
{
	return g ? g->ssm : NULL;
}
