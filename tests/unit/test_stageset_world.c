/*
 * sim/models/stageset_world: the StageSet world as the controller's env sees
 * it — modelled sources and their revisions over publishes, the files and
 * versions a revision carries, a stage's apply, the kstatus and CEL polls
 * over rollouts and faults, actions, restores, metric series, pods and
 * events, completionAnchor witnesses — with the exact texts the env hands
 * the controller and the common-random-number property of the draws.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_resolve.h"
#include "engine/xalloc.h"
#include "sim/models/stageset_world.h"
#include "sim/models/stageset_world_gates.h"
#include "sim/models/stageset_world_sources.h"
#include "sim/models/stageset_world_stages.h"
#include "sim/models/stageset_world_store.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define MIN INT64_C(60000)
#define HOUR (60 * MIN)
#define T0 INT64_C(1767225600000)

/* ---- the world under test ---------------------------------------------- */

static struct scn_sw_config cfg;
static struct scn_fevent evs[8];
static size_t nevs;
static struct scn_series sers[8];
static size_t nsers;
static struct sw_world *W;
static uint64_t seed = 7;

static void begin(void)
{
	scn_sw_config_init(&cfg);
	memset(evs, 0, sizeof(evs));
	memset(sers, 0, sizeof(sers));
	nevs = nsers = 0;
	seed = 7;
	W = NULL;
}

static struct sw_world *world(void)
{
	struct sw_setup s = { &cfg, evs, nevs, sers, nsers, seed, 0, T0, NULL, 0 };

	sw_free(W);
	W = sw_new(&s);
	return W;
}

static void end(void)
{
	sw_free(W);
	W = NULL;
	scn_sw_config_release(&cfg);
	for (size_t i = 0; i < nevs; i++) {
		lbl_selector_release(&evs[i].selector);
		lbl_selector_release(&evs[i].ns_selector);
		free(evs[i].version);
		free(evs[i].target.ns);
		free(evs[i].target.name);
	}
	for (size_t i = 0; i < nsers; i++) {
		free(sers[i].query);
		free(sers[i].address);
		ps_series_release(&sers[i].series);
	}
}

static void selector(struct lbl_selector *sel, const char *yaml)
{
	struct val *v = fx_yaml(yaml);
	char err[128];

	CU_ASSERT_EQUAL_FATAL(lbl_selector_from_val(v, sel, err, sizeof(err)), 0);
	val_free(v);
}

static void publish(int64_t at, const char *sel, const char *ns_sel, const char *version)
{
	struct scn_fevent *e = &evs[nevs];

	e->type = SCN_FEV_PUBLISH;
	e->at_ms = at;
	e->index = nevs++;
	e->by_selector = true;
	selector(&e->selector, sel);
	if (ns_sel) {
		e->has_ns_selector = true;
		selector(&e->ns_selector, ns_sel);
	}
	e->version = xstrdup(version);
}

static void regress(int64_t at, const char *ns, const char *name, const char *sel, int64_t for_ms)
{
	struct scn_fevent *e = &evs[nevs];

	e->type = SCN_FEV_REGRESS;
	e->at_ms = at;
	e->index = nevs++;
	e->for_ms = for_ms;
	if (sel) {
		e->by_selector = true;
		selector(&e->selector, sel);
		e->target.ns = ns ? xstrdup(ns) : NULL;
	} else {
		e->target.ns = xstrdup(ns);
		e->target.name = xstrdup(name);
	}
}

static void series(const char *query, const char *address, const char *values)
{
	struct scn_series *x = &sers[nsers++];

	x->query = xstrdup(query);
	x->address = address ? xstrdup(address) : NULL;
	x->interval_ms = MIN;
	CU_ASSERT_EQUAL_FATAL(ps_parse(values, &x->series, NULL), PS_OK);
}

static struct scn_sw_windows windows1(int64_t from, int64_t until)
{
	struct scn_sw_windows w = { xcalloc(1, sizeof(struct scn_sw_window)), 1 };

	w.items[0].from_ms = from;
	w.items[0].until_ms = until;
	return w;
}

/* A rule over @sel (and @stage, may be NULL) appended to cfg; its behaviour is unset. */
static struct scn_sw_behaviour *rule(const char *sel, const char *stage)
{
	struct scn_sw_rule *r;

	cfg.rules = xreallocarray(cfg.rules, cfg.nrules + 1, sizeof(*cfg.rules));
	r = &cfg.rules[cfg.nrules++];
	memset(r, 0, sizeof(*r));
	selector(&r->selector, sel);
	r->stage = stage ? xstrdup(stage) : NULL;
	scn_sw_behaviour_release(&r->b);
	return &r->b;
}

static struct scn_sw_source *source_entry(const char *kind, const char *ns, const char *name)
{
	struct scn_sw_source *s;

	cfg.sources = xreallocarray(cfg.sources, cfg.nsources + 1, sizeof(*cfg.sources));
	s = &cfg.sources[cfg.nsources++];
	memset(s, 0, sizeof(*s));
	s->kind = kind ? xstrdup(kind) : NULL;
	s->ns = ns ? xstrdup(ns) : NULL;
	s->name = name ? xstrdup(name) : NULL;
	dist_init_constant(&s->fetch_duration, 0);
	return s;
}

/* ---- StageSets ----------------------------------------------------------- */

struct ss {
	struct val *tree;
	struct sst_spec spec;
	struct obj_strmap labels, ns_labels, ann;
	struct sw_member m;
};

#define ONE_STAGE "{stages: [{name: app, sourceRef: {kind: GitRepository, name: src}}], version: {value: 1.0.0}}"

static void ss_init(struct ss *s, const char *ns, const char *name, const char *labels,
		    const char *spec)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	s->tree = fx_yaml(spec);
	CU_ASSERT_EQUAL_FATAL(sst_spec_parse(s->tree, &s->spec, err, sizeof(err)), 0);
	obj_strmap_init(&s->labels);
	obj_strmap_init(&s->ns_labels);
	obj_strmap_init(&s->ann);
	if (labels) {
		struct val *l = fx_yaml(labels);

		for (size_t i = 0; i < l->u.map.n; i++)
			obj_strmap_set(&s->labels, l->u.map.items[i].key,
				       val_str(l->u.map.items[i].v, ""));
		val_free(l);
	}
	s->m = (struct sw_member){ ns, name, &s->labels, &s->ns_labels, &s->ann, &s->spec };
}

static void ss_release(struct ss *s)
{
	sst_spec_release(&s->spec);
	val_free(s->tree);
	obj_strmap_release(&s->labels);
	obj_strmap_release(&s->ns_labels);
	obj_strmap_release(&s->ann);
}

/* The resolved artifact of a modelled source at @t. */
static struct ssc_resolved resolved(const char *kind, const char *ns, const char *name, int64_t t)
{
	struct ssc_resolved ra;
	struct ssc_err err;
	const struct obj *o = sws_source_get(W, "source.toolkit.fluxcd.io/v1", kind, ns, name, t,
					    &err);

	memset(&ra, 0, sizeof(ra));
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	snprintf(ra.key, sizeof(ra.key), "%s/%s", ns, name);
	ra.url = val_str(val_path(o->status, "artifact.url"), "");
	ra.revision = val_str(val_path(o->status, "artifact.revision"), "");
	ra.digest = val_str(val_path(o->status, "artifact.digest"), "");
	ra.source = o;
	return ra;
}

static bool hex_run(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return s[n] == '\0';
}

/* ---- sources -------------------------------------------------------------- */

static void test_source_modelled_ready(void)
{
	struct ssc_err err;
	const struct obj *o, *again;
	const char *rev, *digest, *url;

	begin();
	world();
	o = sws_source_get(W, "source.toolkit.fluxcd.io/v1", "GitRepository", "shop", "web", 0,
			  &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_STRING_EQUAL(o->kind, "GitRepository");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->status, "conditions.0.type"), ""), "Ready");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->status, "conditions.0.status"), ""), "True");
	rev = val_str(val_path(o->status, "artifact.revision"), "");
	digest = val_str(val_path(o->status, "artifact.digest"), "");
	url = val_str(val_path(o->status, "artifact.url"), "");
	CU_ASSERT(strncmp(rev, "main@sha1:", 10) == 0 && hex_run(rev + 10, 40));
	CU_ASSERT(strncmp(digest, "sha256:", 7) == 0 && hex_run(digest + 7, 64));
	CU_ASSERT(strncmp(url, "http://source-controller.flux-system.svc.cluster.local./gitrepository/shop/web/", 78) == 0);
	again = sws_source_get(W, "source.toolkit.fluxcd.io/v1", "GitRepository", "shop", "web",
			      5 * HOUR, &err);
	CU_ASSERT_PTR_EQUAL(again, o); /* no publish: one revision, one object */

	o = sws_source_get(W, "source.toolkit.fluxcd.io/v1", "OCIRepository", "shop", "web", 0,
			  &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	rev = val_str(val_path(o->status, "artifact.revision"), "");
	CU_ASSERT(strncmp(rev, "1.0.0@sha256:", 13) == 0 && hex_run(rev + 13, 64));
	o = sws_source_get(W, "source.toolkit.fluxcd.io/v1", "Bucket", "shop", "web", 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	rev = val_str(val_path(o->status, "artifact.revision"), "");
	CU_ASSERT(strncmp(rev, "sha256:", 7) == 0 && hex_run(rev + 7, 64));

	CU_ASSERT_PTR_NULL(sws_source_get(W, "v1", "ConfigMap", "shop", "web", 0, &err));
	CU_ASSERT_EQUAL(err.code, SSC_ERR_NOT_FOUND);
	end();
}

static void test_source_windows(void)
{
	struct scn_sw_source *e;
	struct ssc_err err;
	const struct obj *o;

	begin();
	e = source_entry("GitRepository", NULL, "web");
	e->has_missing = true;
	e->missing = windows1(HOUR, 2 * HOUR);
	e->has_forbidden = true;
	e->forbidden = windows1(3 * HOUR, 4 * HOUR);
	e->has_not_ready = true;
	e->not_ready = windows1(5 * HOUR, 6 * HOUR);
	world();
	CU_ASSERT_PTR_NULL(sws_source_get(W, "", "GitRepository", "shop", "web", HOUR, &err));
	CU_ASSERT_EQUAL(err.code, SSC_ERR_NOT_FOUND);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "gitrepositories.source.toolkit.fluxcd.io \"web\" not found");
	CU_ASSERT_PTR_NOT_NULL(sws_source_get(W, "", "GitRepository", "shop", "web", 2 * HOUR, &err));
	CU_ASSERT_PTR_NULL(sws_source_get(W, "", "GitRepository", "shop", "web", 3 * HOUR + 1, &err));
	CU_ASSERT_EQUAL(err.code, SSC_ERR_FORBIDDEN);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "gitrepositories.source.toolkit.fluxcd.io \"web\" is forbidden: User "
			       "\"system:serviceaccount:shop:default\" cannot get resource \"gitrepositories\" in API "
			       "group \"source.toolkit.fluxcd.io\" in the namespace \"shop\"");
	o = sws_source_get(W, "", "GitRepository", "shop", "web", 5 * HOUR, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->status, "conditions.0.status"), ""), "False");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->status, "conditions.0.reason"), ""),
			       "GitOperationFailed");
	CU_ASSERT_STRING_NOT_EQUAL(val_str(val_path(o->status, "artifact.url"), ""), "");
	CU_ASSERT_EQUAL(sws_source_next_change(W, "GitRepository", "shop", "web", 0), HOUR);
	CU_ASSERT_EQUAL(sws_source_next_change(W, "GitRepository", "shop", "web", 5 * HOUR), 6 * HOUR);
	/* a forbidden window changes what a read gets, but no object a watch delivers */
	CU_ASSERT_EQUAL(sws_source_next_change(W, "GitRepository", "shop", "web", 2 * HOUR), 3 * HOUR);
	CU_ASSERT_EQUAL(sws_source_next_change(W, "GitRepository", "shop", "web", 3 * HOUR), 4 * HOUR);
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "shop", "web", 0), HOUR);
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "shop", "web", 2 * HOUR), 5 * HOUR);
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "shop", "web", 5 * HOUR), 6 * HOUR);
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "shop", "web", 6 * HOUR), SW_NEVER);
	/* another source is not touched by the entry */
	CU_ASSERT_PTR_NOT_NULL(sws_source_get(W, "", "GitRepository", "shop", "api", HOUR, &err));
	end();
}

static void test_publish_makes_revisions(void)
{
	struct ss a, b;
	struct ssc_resolved r0, r1, r2;
	char *content = NULL;
	int64_t dur, from;
	struct ssc_err err;

	begin();
	publish(HOUR, "{matchLabels: {app: shop}}", NULL, "1.1.0");
	publish(2 * HOUR, "{matchLabels: {ring: '1'}}", NULL, "1.2.0");
	world();
	ss_init(&a, "t1", "shop", "{app: shop, ring: '0'}", ONE_STAGE);
	ss_init(&b, "t2", "shop", "{app: shop, ring: '1'}", ONE_STAGE);
	sws_member_seen(W, &a.m, 0);
	sws_member_seen(W, &b.m, 0);
	r0 = resolved("GitRepository", "t1", "src", HOUR - 1);
	r1 = resolved("GitRepository", "t1", "src", HOUR);
	CU_ASSERT_STRING_NOT_EQUAL(r0.revision, r1.revision);
	CU_ASSERT_STRING_NOT_EQUAL(r0.digest, r1.digest);
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r0), "1.0.0");
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r1), "1.1.0");
	/* ring 0 is not reached by the second publish */
	r2 = resolved("GitRepository", "t1", "src", 3 * HOUR);
	CU_ASSERT_STRING_EQUAL(r2.revision, r1.revision);
	r2 = resolved("GitRepository", "t2", "src", 3 * HOUR);
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r2), "1.2.0");
	CU_ASSERT_EQUAL(sws_artifact_file(W, &r2, "VERSION", 3 * HOUR, &content, &dur, &err), 0);
	CU_ASSERT_STRING_EQUAL(content, "1.2.0\n");
	CU_ASSERT_EQUAL(dur, SCN_SW_DEFAULT_FETCH_MS);
	free(content);
	CU_ASSERT_STRING_EQUAL(sws_offered_version(W, "t2", "shop", 90 * MIN), "1.1.0");
	CU_ASSERT_STRING_EQUAL(sws_offered_version(W, "t2", "shop", 2 * HOUR), "1.2.0");
	CU_ASSERT_PTR_NULL(sws_offered_version(W, "t1", "shop", HOUR - 1));
	CU_ASSERT(sws_publish_reaches(W, 1, "t2", "shop", &from) && from == 2 * HOUR);
	CU_ASSERT_EQUAL(sws_source_next_change(W, "GitRepository", "t2", "src", 0), HOUR);
	CU_ASSERT_EQUAL(sws_source_next_change(W, "GitRepository", "t2", "src", HOUR), 2 * HOUR);
	CU_ASSERT_EQUAL(sws_source_next_change(W, "GitRepository", "t1", "src", HOUR), SW_NEVER);
	CU_ASSERT_FALSE(sws_publish_reaches(W, 1, "t1", "shop", &from));
	ss_release(&a);
	ss_release(&b);
	end();
}

/*
 * A publish of the version an inline-version StageSet already has offers no
 * new version (no spec edit) but is still a new revision of its source, an
 * event the source watch delivers: what wakes that StageSet at the publish.
 */
static void test_publish_same_version(void)
{
	struct ss a;
	struct ssc_resolved r0, r1;

	begin();
	publish(HOUR, "{matchLabels: {app: shop}}", NULL, "1.0.0");
	world();
	ss_init(&a, "t1", "shop", "{app: shop}", ONE_STAGE);
	sws_member_seen(W, &a.m, 0);
	CU_ASSERT_STRING_EQUAL(sws_offered_version(W, "t1", "shop", HOUR), "1.0.0");
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "t1", "src", 0), HOUR);
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "t1", "src", HOUR), SW_NEVER);
	r0 = resolved("GitRepository", "t1", "src", HOUR - 1);
	r1 = resolved("GitRepository", "t1", "src", HOUR);
	CU_ASSERT_STRING_NOT_EQUAL(r0.revision, r1.revision);
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r1), "1.0.0");
	ss_release(&a);
	end();
}

static void test_publish_reaches_later_and_by_namespace(void)
{
	struct ss late, other;
	struct ssc_resolved r;
	int64_t from;

	begin();
	publish(HOUR, "{matchLabels: {app: shop}}", "{matchLabels: {tenant: 'true'}}", "2.0.0");
	world();
	ss_init(&late, "t3", "shop", "{app: shop}", ONE_STAGE);
	obj_strmap_set(&late.ns_labels, "tenant", "true");
	ss_init(&other, "t4", "shop", "{app: shop}", ONE_STAGE);
	/* the source is read before any StageSet names it: one revision so far */
	r = resolved("GitRepository", "t3", "src", 4 * HOUR);
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r), "1.0.0");
	/* created by an apply event at 3h, after the publish */
	sws_member_seen(W, &late.m, 3 * HOUR);
	sws_member_seen(W, &other.m, 3 * HOUR);
	CU_ASSERT(sws_publish_reaches(W, 0, "t3", "shop", &from) && from == 3 * HOUR);
	CU_ASSERT_FALSE(sws_publish_reaches(W, 0, "t4", "shop", &from)); /* its Namespace is not a tenant */
	CU_ASSERT_STRING_EQUAL(sws_offered_version(W, "t3", "shop", 3 * HOUR), "2.0.0");
	r = resolved("GitRepository", "t3", "src", 3 * HOUR);
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r), "2.0.0");
	r = resolved("GitRepository", "t3", "src", 3 * HOUR - 1);
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r), "1.0.0");
	ss_release(&late);
	ss_release(&other);
	end();
}

static void test_publish_labels_at_event_time(void)
{
	struct ss s;

	begin();
	publish(2 * HOUR, "{matchLabels: {ring: '1'}}", NULL, "3.0.0");
	world();
	ss_init(&s, "t1", "shop", "{ring: '0'}", ONE_STAGE);
	sws_member_seen(W, &s.m, 0);
	obj_strmap_set(&s.labels, "ring", "1"); /* relabelled at 1h: the publish at 2h reaches it */
	sws_member_seen(W, &s.m, HOUR);
	CU_ASSERT_STRING_EQUAL(sws_offered_version(W, "t1", "shop", 2 * HOUR), "3.0.0");
	obj_strmap_set(&s.labels, "ring",
		       "2"); /* relabelled at 3h: the earlier publish still did */
	sws_member_seen(W, &s.m, 3 * HOUR);
	CU_ASSERT_STRING_EQUAL(sws_offered_version(W, "t1", "shop", 4 * HOUR), "3.0.0");
	ss_release(&s);
	end();
}

/* The env the resolver asks: the model behind get and list. */
static const struct obj *env_get(void *ctx, const char *api_version, const char *kind,
				 const char *ns,
				 const char *name, int64_t at_ms, struct ssc_err *err)
{
	return sws_source_get(ctx, api_version, kind, ns, name, at_ms, err);
}

static size_t env_list(void *ctx, const char *api_version, const char *kind, const char *ns,
		       int64_t at_ms, const struct obj *const **out, struct ssc_err *err)
{
	return sws_source_list(ctx, ns, at_ms, out, err);
}

static void test_producer_resolves_through_ea(void)
{
	struct ss s;
	struct ssc_env env = { 0 };
	struct ssc_resolved ra;
	struct res_error rerr;
	const struct obj *const *items;
	struct ssc_err err;

	begin();
	publish(HOUR, "{}", NULL, "1.5.0");
	world();
	ss_init(&s, "t1", "shop", "{app: shop}",
		"{stages: [{name: app, sourceRef: {apiVersion: build.example.com/v1, kind: Pipeline, name: web}}],"
		" version: {fromArtifact: {stage: app, path: VERSION}}}");
	sws_member_seen(W, &s.m, 0);
	CU_ASSERT_EQUAL(sws_source_list(W, "t1", 0, &items, &err), 1);
	CU_ASSERT_STRING_EQUAL(items[0]->kind, "ExternalArtifact");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(items[0]->spec, "sourceRef.kind"), ""), "Pipeline");
	CU_ASSERT_EQUAL(sws_source_list(W, "t2", 0, &items, &err), 0);
	env.ctx = W;
	env.get = env_get;
	env.list = env_list;
	CU_ASSERT_EQUAL_FATAL(res_resolve(&env, &s.spec.stages[0].source_ref, "t1", false, 2 * HOUR, &ra, &rerr), 0);
	CU_ASSERT_STRING_EQUAL(ra.key, "t1/web");
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &ra), "1.5.0");
	ss_release(&s);
	end();
}

static void test_files_and_version_windows(void)
{
	struct scn_sw_source *e;
	struct ssc_resolved ra;
	char **paths, **texts, *content;
	int64_t dur;
	struct ssc_err err;
	size_t n;

	begin();
	e = source_entry(NULL, "t1", "src");
	e->has_files = true;
	e->nfiles = 3;
	e->paths = xcalloc(3, sizeof(char *));
	e->texts = xcalloc(3, sizeof(char *));
	e->paths[0] = xstrdup("README.md");
	e->texts[0] = xstrdup("hi");
	e->paths[1] = xstrdup("migrations/001.yaml");
	e->texts[1] = xstrdup("- {name: a, to: 2.0.0}");
	e->paths[2] = xstrdup("migrations/002.yaml");
	e->texts[2] = xstrdup("- {name: b, to: 3.0.0}");
	e->has_version_missing = true;
	e->version_missing = windows1(HOUR, 2 * HOUR);
	e->has_version_empty = true;
	e->version_empty = windows1(2 * HOUR, 3 * HOUR);
	e->has_fetch_errors = true;
	e->fetch_errors = windows1(3 * HOUR, 4 * HOUR);
	e->initial_version = xstrdup("4.5.0");
	world();
	ra = resolved("GitRepository", "t1", "src", 0);
	n = sws_ladder_files(W, &ra, "./migrations/", 0, &paths, &texts, &dur, &err);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(paths[0], "migrations/001.yaml");
	CU_ASSERT_STRING_EQUAL(texts[1], "- {name: b, to: 3.0.0}");
	for (size_t i = 0; i < n; i++) {
		free(paths[i]);
		free(texts[i]);
	}
	free(paths);
	free(texts);
	CU_ASSERT_EQUAL(sws_ladder_files(W, &ra, "", 0, &paths, &texts, &dur, &err), 3);
	for (size_t i = 0; i < 3; i++) {
		free(paths[i]);
		free(texts[i]);
	}
	free(paths);
	free(texts);
	CU_ASSERT_EQUAL(sws_ladder_files(W, &ra, "migrations", 3 * HOUR, &paths, &texts, &dur, &err),
			0);
	CU_ASSERT_EQUAL(err.code, SSC_ERR);

	CU_ASSERT_EQUAL(sws_artifact_file(W, &ra, "README.md", 0, &content, &dur, &err), 0);
	CU_ASSERT_STRING_EQUAL(content, "hi");
	free(content);
	CU_ASSERT_EQUAL(sws_artifact_file(W, &ra, "VERSION", 0, &content, &dur, &err), 0);
	CU_ASSERT_STRING_EQUAL(content, "4.5.0\n");
	free(content);
	CU_ASSERT_EQUAL(sws_artifact_file(W, &ra, "VERSION", HOUR, &content, &dur, &err), -1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_NOT_FOUND);
	CU_ASSERT_EQUAL(sws_artifact_file(W, &ra, "VERSION", 2 * HOUR, &content, &dur, &err), 0);
	CU_ASSERT_STRING_EQUAL(content, "");
	free(content);
	CU_ASSERT_EQUAL(sws_artifact_file(W, &ra, "VERSION", 3 * HOUR, &content, &dur, &err), -1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR);
	CU_ASSERT(strstr(err.msg, "503 Service Unavailable") != NULL);
	end();
}

/* One file @path holding @text, as the loader leaves it (owned arrays). */
static void one_file(char ***paths, char ***texts, size_t *n, const char *path, const char *text)
{
	*n = 1;
	*paths = xcalloc(1, sizeof(char *));
	*texts = xcalloc(1, sizeof(char *));
	(*paths)[0] = xstrdup(path);
	(*texts)[0] = xstrdup(text);
}

/* The ladder files of @ra under "", joined; owned. */
static char *ladder_text(const struct ssc_resolved *ra, int64_t t)
{
	char **paths, **texts, *all = xstrdup("");
	int64_t dur;
	struct ssc_err err;
	size_t n = sws_ladder_files(W, ra, "", t, &paths, &texts, &dur, &err);

	for (size_t i = 0; i < n; i++) {
		char *next = xasprintf("%s%s", all, texts[i]);

		free(all);
		all = next;
		free(paths[i]);
		free(texts[i]);
	}
	free(paths);
	free(texts);
	return all;
}

/*
 * An update gives the source a revision of its own at its time, with its
 * files and the version of the revision before; a revision read later
 * still holds the files it had.
 */
static void test_source_updates(void)
{
	struct scn_sw_source *e;
	struct ss s;
	struct ssc_resolved r0, r1, r2;
	char *text;

	begin();
	publish(HOUR, "{matchLabels: {app: shop}}", NULL, "1.1.0");
	e = source_entry("GitRepository", "t1", "src");
	e->has_files = true;
	one_file(&e->paths, &e->texts, &e->nfiles, "ladder.yaml", "- {name: a, to: 1.1.0}");
	e->has_updates = true;
	e->nupdates = 1;
	e->updates = xcalloc(1, sizeof(*e->updates));
	e->updates[0].at_ms = 2 * HOUR;
	e->updates[0].has_files = true;
	one_file(&e->updates[0].paths, &e->updates[0].texts, &e->updates[0].nfiles, "ladder.yaml",
		 "- {name: b, to: 1.1.0}");
	world();
	ss_init(&s, "t1", "shop", "{app: shop}", ONE_STAGE);
	sws_member_seen(W, &s.m, 0);
	r0 = resolved("GitRepository", "t1", "src", 0);
	r1 = resolved("GitRepository", "t1", "src", HOUR);
	r2 = resolved("GitRepository", "t1", "src", 2 * HOUR);
	CU_ASSERT_STRING_NOT_EQUAL(r1.revision, r0.revision);
	CU_ASSERT_STRING_NOT_EQUAL(r2.revision, r1.revision);
	CU_ASSERT_STRING_NOT_EQUAL(r2.digest, r1.digest);
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r1), "1.1.0");
	CU_ASSERT_STRING_EQUAL(sws_revision_version(W, &r2), "1.1.0");
	text = ladder_text(&r1, 3 * HOUR);
	CU_ASSERT_STRING_EQUAL(text, "- {name: a, to: 1.1.0}");
	free(text);
	text = ladder_text(&r2, 2 * HOUR);
	CU_ASSERT_STRING_EQUAL(text, "- {name: b, to: 1.1.0}");
	free(text);
	/* the update is a change of the source object: a watch of it delivers it */
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "t1", "src", HOUR), 2 * HOUR);
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "t1", "src", 2 * HOUR), SW_NEVER);
	/* another source is not touched by the entry */
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "t1", "other", HOUR), SW_NEVER);
	ss_release(&s);
	end();
}

/*
 * A resumed run's update at or before its start (times shifted to it) is
 * no revision of its own: the initial (snapshot's) revision holds its files.
 */
static void test_source_update_before_resume(void)
{
	struct scn_sw_source *e;
	struct ssc_resolved r0;
	char *text;

	begin();
	e = source_entry("GitRepository", "t1", "src");
	e->has_files = true;
	one_file(&e->paths, &e->texts, &e->nfiles, "ladder.yaml", "- {name: a, to: 1.1.0}");
	e->has_updates = true;
	e->nupdates = 1;
	e->updates = xcalloc(1, sizeof(*e->updates));
	e->updates[0].at_ms = -HOUR;
	e->updates[0].has_files = true;
	one_file(&e->updates[0].paths, &e->updates[0].texts, &e->updates[0].nfiles, "ladder.yaml",
		 "- {name: b, to: 1.1.0}");
	world();
	r0 = resolved("GitRepository", "t1", "src", 0);
	text = ladder_text(&r0, 0);
	CU_ASSERT_STRING_EQUAL(text, "- {name: b, to: 1.1.0}");
	free(text);
	CU_ASSERT_EQUAL(sws_source_next_event(W, "GitRepository", "t1", "src", -2 * HOUR), SW_NEVER);
	end();
}

/* @o: stage @stage renders ConfigMaps @names (@n of them) besides its workload. */
static void configmaps(struct scn_sw_objects *o, const char *stage, const char *const *names, size_t n)
{
	struct scn_sw_stage_objects *st;

	o->stages = xcalloc(1, sizeof(*o->stages));
	o->nstages = 1;
	st = &o->stages[0];
	st->stage = xstrdup(stage);
	st->n = n;
	st->groups = xcalloc(n, sizeof(*st->groups));
	st->kinds = xcalloc(n, sizeof(*st->kinds));
	st->names = xcalloc(n, sizeof(*st->names));
	for (size_t i = 0; i < n; i++) {
		st->groups[i] = "";
		st->kinds[i] = xstrdup("ConfigMap");
		st->names[i] = xstrdup(names[i]);
	}
}

/*
 * A revision renders the objects of the last update at or before it that
 * sets them, else the entry's; an update of files alone keeps them; a
 * stage the objects do not name renders its workload alone.
 */
static void test_source_objects(void)
{
	static const char *const both[] = { "cm-a", "cm-b" }, *const one[] = { "cm-a" };
	struct scn_sw_source *e;
	struct ssc_resolved r0, r2, r3;
	const struct scn_sw_stage_objects *o;

	begin();
	e = source_entry("GitRepository", "t1", "src");
	e->has_objects = true;
	configmaps(&e->objects, "app", both, 2);
	e->has_updates = true;
	e->nupdates = 2;
	e->updates = xcalloc(2, sizeof(*e->updates));
	e->updates[0].at_ms = 2 * HOUR;
	e->updates[0].has_objects = true;
	configmaps(&e->updates[0].objects, "app", one, 1);
	e->updates[1].at_ms = 3 * HOUR;
	e->updates[1].has_files = true;
	one_file(&e->updates[1].paths, &e->updates[1].texts, &e->updates[1].nfiles, "x.yaml", "x");
	cfg.any_objects = true;
	world();
	r0 = resolved("GitRepository", "t1", "src", 0);
	r2 = resolved("GitRepository", "t1", "src", 2 * HOUR);
	r3 = resolved("GitRepository", "t1", "src", 3 * HOUR);
	o = sws_stage_objects(W, &r0, "app");
	CU_ASSERT_FATAL(o != NULL && o->n == 2);
	CU_ASSERT_STRING_EQUAL(o->names[1], "cm-b");
	o = sws_stage_objects(W, &r2, "app");
	CU_ASSERT_FATAL(o != NULL && o->n == 1);
	CU_ASSERT_STRING_EQUAL(o->names[0], "cm-a");
	CU_ASSERT_STRING_NOT_EQUAL(r3.revision, r2.revision);
	o = sws_stage_objects(W, &r3, "app");
	CU_ASSERT(o != NULL && o->n == 1);
	/* the revision read before the update still renders both */
	o = sws_stage_objects(W, &r0, "app");
	CU_ASSERT(o != NULL && o->n == 2);
	CU_ASSERT_PTR_NULL(sws_stage_objects(W, &r2, "web"));
	end();
}

static void test_object_version(void)
{
	struct scn_sw_source *e;
	struct ss s;
	struct ssc_resolved ra;
	char *v;
	bool transient;
	int64_t dur;
	struct ssc_err err;

	begin();
	e = source_entry(NULL, NULL, NULL);
	e->has_version_missing = true;
	e->version_missing = windows1(HOUR, 2 * HOUR);
	e->has_fetch_errors = true;
	e->fetch_errors = windows1(3 * HOUR, 4 * HOUR);
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	CU_ASSERT_EQUAL(sws_object_version(W, &s.m, 0, &ra, "Deployment", "web", "", 0, &v, &transient, &dur, &err), 0);
	CU_ASSERT_STRING_EQUAL(v, "1.0.0");
	free(v);
	CU_ASSERT_EQUAL(sws_object_version(W, &s.m, 0, &ra, "Deployment", "web", "", HOUR, &v, &transient, &dur, &err),
			-1);
	CU_ASSERT_FALSE(transient);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "Deployment \"web\" has no app.kubernetes.io/version label; set "
					"spec.version.fromObject.fieldPath to read the version from a different field");
	CU_ASSERT_EQUAL(sws_object_version(W, &s.m, 0, &ra, "Deployment", "web", "{.metadata.annotations.version}",
					  HOUR, &v, &transient, &dur, &err),
			-1);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "evaluating fieldPath \"{.metadata.annotations.version}\" on Deployment \"web\": "
			       "version is not found");
	CU_ASSERT_EQUAL(sws_object_version(W, &s.m, 0, &ra, "Deployment", "web", "", 3 * HOUR, &v, &transient, &dur,
					  &err),
			-1);
	CU_ASSERT_TRUE(transient);
	CU_ASSERT(strncmp(err.msg, "fetch version artifact for stage \"app\": failed to fetch artifact ", 64) == 0);
	ss_release(&s);
	end();
}

/* ---- apply, waits, faults ------------------------------------------------- */

static void test_apply_new_and_same_revision(void)
{
	struct ss s;
	struct ssc_resolved ra;
	struct ssc_apply_outcome out;

	begin();
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &out);
	CU_ASSERT_PTR_NULL(out.failed_op);
	CU_ASSERT_EQUAL(out.duration_ms, SCN_SW_DEFAULT_APPLY_MS);
	CU_ASSERT_EQUAL(out.nobjects, 1);
	CU_ASSERT_EQUAL(out.nchanged, 1);
	CU_ASSERT_STRING_EQUAL(out.changed_names, "Deployment/shop-app");
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "app"), 1000 + SCN_SW_DEFAULT_READY_MS);
	swst_apply_stage(W, &s.m, 0, &ra, 10 * MIN, &out);
	CU_ASSERT_EQUAL(out.nchanged, 0);
	CU_ASSERT_STRING_EQUAL(out.changed_names, "");
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "app"), 1000 + SCN_SW_DEFAULT_READY_MS);
	ss_release(&s);
	end();
}

/*
 * A snapshot's stage: seeded with the revision its status says it runs, it is
 * ready at once, a re-apply of that revision changes nothing (no drift), a
 * new revision rolls out; a stage the run applied already is not reseeded.
 */
static void test_seed_stage(void)
{
	struct ss s;
	struct ssc_resolved ra;
	struct ssc_apply_outcome out;
	struct ssc_wait_outcome wo;

	begin();
	dist_init_constant(&cfg.top.readiness.delay, 65000);
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_seed_stage(W, &s.m, "app", ra.revision, "4.5.0", 0);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 0, &wo);
	CU_ASSERT_EQUAL(wo.result, SSC_WAIT_READY);
	CU_ASSERT_EQUAL(wo.duration_ms, 0);
	swst_apply_stage(W, &s.m, 0, &ra, 30000, &out);
	CU_ASSERT_PTR_NULL(out.failed_op);
	CU_ASSERT_EQUAL(out.nchanged, 0);
	CU_ASSERT_STRING_EQUAL(out.changed_names, "");
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 31000, &wo);
	CU_ASSERT_EQUAL(wo.duration_ms, 0);
	/* seeding again changes nothing */
	swst_seed_stage(W, &s.m, "app", "other@sha1:0", "9.9.9", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 40000, &out);
	CU_ASSERT_EQUAL(out.nchanged, 0);
	/* another revision rolls out as ever */
	ra.revision = "main@sha1:1111111111111111111111111111111111111111";
	swst_apply_stage(W, &s.m, 0, &ra, MIN, &out);
	CU_ASSERT_EQUAL(out.nchanged, 1);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, MIN + out.duration_ms, &wo);
	CU_ASSERT_EQUAL(wo.result, SSC_WAIT_READY);
	CU_ASSERT_EQUAL(wo.duration_ms, 66000);
	ss_release(&s);
	end();
}

static void test_apply_failures(void)
{
	struct ss s;
	struct ssc_resolved ra;
	struct ssc_apply_outcome out;
	struct scn_sw_behaviour *b;

	begin();
	cfg.top.apply.failure.probability = 1;
	cfg.top.apply.failure.op = SCN_SW_OP_BUILD;
	cfg.top.apply.failure.during = windows1(HOUR, 2 * HOUR);
	b = rule("{matchLabels: {ring: '0'}}", "app");
	b->apply.has_failure = true;
	b->apply.failure.probability = 1;
	b->apply.failure.op = SCN_SW_OP_FETCH;
	b->apply.failure.cls = SSC_ERR_TERMINAL_FETCH;
	b->apply.failure.message = xstrdup("digest mismatch: want sha256:aa, got sha256:bb");
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &out);
	CU_ASSERT_PTR_NULL(out.failed_op); /* outside the window */
	swst_apply_stage(W, &s.m, 0, &ra, HOUR, &out);
	CU_ASSERT_STRING_EQUAL(out.failed_op, "build");
	CU_ASSERT_EQUAL(out.err.code, SSC_ERR);
	CU_ASSERT_STRING_EQUAL(out.err.msg, "simulated build failure");
	obj_strmap_set(&s.labels, "ring", "0");
	swst_apply_stage(W, &s.m, 0, &ra, 0, &out);
	CU_ASSERT_STRING_EQUAL(out.failed_op, "fetch artifact");
	CU_ASSERT_EQUAL(out.err.code, SSC_ERR_TERMINAL_FETCH);
	CU_ASSERT_STRING_EQUAL(out.err.msg, "digest mismatch: want sha256:aa, got sha256:bb");
	ss_release(&s);
	end();
}

static void test_apply_failure_keeps_rollout_and_image_skip(void)
{
	struct ss s;
	struct ssc_resolved r0, r1;
	struct ssc_apply_outcome out;

	begin();
	publish(HOUR, "{}", NULL, "2.0.0");
	cfg.top.apply.failure.probability = 1;
	cfg.top.apply.failure.op = SCN_SW_OP_APPLY;
	cfg.top.apply.failure.during = windows1(HOUR, 2 * HOUR);
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	sws_member_seen(W, &s.m, 0);
	r0 = resolved("GitRepository", "t1", "src", 0);
	r1 = resolved("GitRepository", "t1", "src", HOUR);
	swst_apply_stage(W, &s.m, 0, &r0, 0, &out);
	swst_apply_stage(W, &s.m, 0, &r1, HOUR, &out);
	CU_ASSERT_STRING_EQUAL(out.failed_op, "apply");
	/* the objects were not written: the first revision's rollout stands */
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "app"), 1000 + SCN_SW_DEFAULT_READY_MS);
	swst_apply_stage(W, &s.m, 0, &r1, 2 * HOUR, &out);
	CU_ASSERT_PTR_NULL(out.failed_op);
	CU_ASSERT_EQUAL(out.nchanged, 1);
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "app"),
			2 * HOUR + 1000 + SCN_SW_DEFAULT_READY_MS);
	scn_sw_windows_release(&cfg.top.apply.failure.during);
	cfg.top.apply.failure.op = SCN_SW_OP_IMAGE_VERIFICATION;
	obj_strmap_set(&s.ann, SSC_ANN_SKIP_IMAGE_VERIFICATION, "CVE triage");
	swst_apply_stage(W, &s.m, 0, &r1, 3 * HOUR, &out);
	CU_ASSERT_PTR_NULL(out.failed_op);
	CU_ASSERT_TRUE(out.image_skipped);
	obj_strmap_del(&s.ann, SSC_ANN_SKIP_IMAGE_VERIFICATION);
	swst_apply_stage(W, &s.m, 0, &r1, 3 * HOUR, &out);
	CU_ASSERT_STRING_EQUAL(out.failed_op, "image verification");
	CU_ASSERT_FALSE(out.image_skipped);
	ss_release(&s);
	end();
}

static void test_wait_ready_timeout_failed(void)
{
	struct ss s;
	struct ssc_resolved ra;
	struct ssc_apply_outcome ap;
	struct ssc_wait_outcome out;

	begin();
	dist_init_constant(&cfg.top.readiness.delay, 65000);
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 0, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY); /* never applied: nothing to wait for */
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);    /* written at 1s, Current at 66s */
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 1000, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY);
	CU_ASSERT_EQUAL(out.duration_ms, 66000);     /* the poll at 1s + 33 × 2s */
	CU_ASSERT_EQUAL(out.err.code, SSC_OK);
	swst_wait_stage(W, &s.m, 0, true, 30000, 1000, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_TIMEOUT);
	CU_ASSERT_EQUAL(out.duration_ms, 30000);
	CU_ASSERT_FALSE(out.stalled);
	CU_ASSERT_STRING_EQUAL(out.err.msg,
			       "timeout waiting for: [Deployment/t1/shop-app status: 'InProgress']");
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, HOUR, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY); /* a re-verify of a ready revision */
	CU_ASSERT_EQUAL(out.duration_ms, 0);
	ss_release(&s);

	cfg.top.readiness.failed_probability = 1;
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 1000, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_FAILED);
	CU_ASSERT_EQUAL(out.duration_ms, 66000);
	CU_ASSERT_TRUE(out.stalled);
	CU_ASSERT_STRING_EQUAL(out.err.msg,
			       "failed early due to stalled resources: [Deployment/t1/shop-app status: 'Failed']");
	/* a retry of the same revision finds it Failed at once */
	swst_apply_stage(W, &s.m, 0, &ra, HOUR, &ap);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, HOUR + 1000, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_FAILED);
	CU_ASSERT_EQUAL(out.duration_ms, 0);
	ss_release(&s);

	cfg.top.readiness.failed_probability = 0;
	cfg.top.readiness.never_probability = 1;
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 10 * HOUR, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_TIMEOUT);
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "app"), SW_NEVER);
	ss_release(&s);
	end();
}

static void test_ready_exprs(void)
{
	struct ss s;
	struct ssc_resolved ra;
	struct ssc_apply_outcome ap;
	struct ssc_wait_outcome out;
	bool in_flight;
	const char *spec = "{stages: [{name: app, sourceRef: {kind: GitRepository, name: src}, readyChecks: {exprs: "
			   "[{apiVersion: example.com/v1, kind: Database, current: 'true'}]}}]}";

	begin();
	dist_init_constant(&cfg.top.readiness.delay, 0);
	dist_init_constant(&cfg.top.exprs.delay, 10000);
	world();
	ss_init(&s, "t1", "db", NULL, spec);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	swst_ready_exprs(W, &s.m, 0, 5000, 1000, &out, &in_flight);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_TIMEOUT);
	CU_ASSERT_TRUE(in_flight);
	CU_ASSERT_STRING_EQUAL(out.err.msg, "context deadline exceeded");
	swst_ready_exprs(W, &s.m, 0, 15 * MIN, 1000, &out, &in_flight);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY);
	CU_ASSERT_EQUAL(out.duration_ms, 10000);
	ss_release(&s);

	cfg.top.exprs.failed_probability = 1;
	world();
	ss_init(&s, "t1", "db", NULL, spec);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	swst_ready_exprs(W, &s.m, 0, 15 * MIN, 1000, &out, &in_flight);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_FAILED);
	CU_ASSERT_FALSE(in_flight);
	CU_ASSERT_STRING_EQUAL(out.err.msg, "readyCheck failed for Database t1/db-app");
	ss_release(&s);
	end();
}

static void test_scripted_regress_is_noticed_at_verify(void)
{
	struct ss s, o;
	struct ssc_resolved ra;
	struct ssc_apply_outcome ap;
	struct ssc_wait_outcome out;
	const struct sw_fault *f;

	begin();
	dist_init_constant(&cfg.top.readiness.delay, 0);
	regress(2 * HOUR, "t1", "shop", NULL, 30 * MIN);
	regress(5 * HOUR, NULL, NULL, "{matchLabels: {ring: '1'}}", 10 * MIN);
	world();
	ss_init(&s, "t1", "shop", "{ring: '1'}", ONE_STAGE);
	ss_init(&o, "t2", "shop", "{ring: '2'}", ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 2 * HOUR - 1000, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY);
	/* a verify that starts during the fault fails fast */
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 2 * HOUR + 10 * MIN, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_FAILED);
	CU_ASSERT_EQUAL(out.duration_ms, 0);
	/* one that starts before it sees the fault at its first poll after the onset */
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 2 * HOUR - 1, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 2 * HOUR + 31 * MIN, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY);
	swst_wait_stage(W, &o.m, 0, true, 15 * MIN, 5 * HOUR, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY); /* never applied, never reached */
	CU_ASSERT_EQUAL(swst_member_faults(W, "t1", "shop", &f), 2);
	CU_ASSERT(f[0].scripted && f[0].start_ms == 2 * HOUR && f[0].end_ms == 2 * HOUR + 30 * MIN);
	CU_ASSERT(f[1].scripted && f[1].start_ms == 5 * HOUR && f[1].event == 1);
	CU_ASSERT_EQUAL(swst_member_faults(W, "t2", "shop", &f), 0);
	ss_release(&s);
	ss_release(&o);
	end();
}

static void test_drawn_regression(void)
{
	struct ss s;
	struct ssc_resolved r0, r1;
	struct ssc_apply_outcome ap;
	struct ssc_wait_outcome out;
	const struct sw_fault *f;

	begin();
	publish(3 * HOUR, "{}", NULL, "4.6.0");
	dist_init_constant(&cfg.top.readiness.delay, MIN);
	cfg.top.regression.probability = 1;
	dist_init_constant(&cfg.top.regression.after, 10 * MIN);
	dist_init_constant(&cfg.top.regression.duration, 4 * HOUR);
	cfg.top.regression.effect = SCN_SW_EFFECT_NOT_READY;
	cfg.top.regression.has_versions = true;
	cfg.top.regression.nversions = 1;
	cfg.top.regression.versions = xcalloc(1, sizeof(char *));
	cfg.top.regression.versions[0] = xstrdup("4.6.0");
	world();
	ss_init(&s, "t1", "shop", NULL,
		"{stages: [{name: app, sourceRef: {kind: GitRepository, name: src}}], version: {fromArtifact: {stage: "
		"app, path: VERSION}}}");
	sws_member_seen(W, &s.m, 0);
	r0 = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &r0, 0, &ap);
	CU_ASSERT_EQUAL(swst_member_faults(W, "t1", "shop", &f), 0); /* 1.0.0 may not regress */
	r1 = resolved("GitRepository", "t1", "src", 3 * HOUR);
	swst_apply_stage(W, &s.m, 0, &r1, 3 * HOUR, &ap); /* ready at 3h1m1s, fault from 3h11m1s */
	CU_ASSERT_EQUAL_FATAL(swst_member_faults(W, "t1", "shop", &f), 1);
	CU_ASSERT_FALSE(f[0].scripted);
	CU_ASSERT_EQUAL(f[0].start_ms, 3 * HOUR + 11 * MIN + 1000);
	CU_ASSERT_STRING_EQUAL(f[0].version, "4.6.0");
	CU_ASSERT_STRING_EQUAL(f[0].stage, "app");
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 3 * HOUR + 20 * MIN, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_TIMEOUT); /* NotReady: the verify runs out of time */
	CU_ASSERT_FALSE(out.stalled);
	/* applying the first revision again ends the fault */
	swst_apply_stage(W, &s.m, 0, &r0, 4 * HOUR, &ap);
	CU_ASSERT_EQUAL_FATAL(swst_member_faults(W, "t1", "shop", &f), 1);
	CU_ASSERT_EQUAL(f[0].end_ms, 4 * HOUR + 1000);
	swst_wait_stage(W, &s.m, 0, true, 15 * MIN, 5 * HOUR, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY);
	ss_release(&s);
	end();
}

static void test_rules_field_by_field_and_stage(void)
{
	struct ss s;
	struct ssc_resolved ra;
	struct ssc_apply_outcome ap;
	struct scn_sw_behaviour *b;
	const char *two = "{stages: [{name: db, sourceRef: {kind: GitRepository, name: src}}, {name: app, sourceRef: "
			  "{kind: GitRepository, name: src}}]}";

	begin();
	b = rule("{matchLabels: {env: prod}}", "db");
	b->readiness.has_delay = true;
	dist_init_constant(&b->readiness.delay, 10 * MIN);
	b = rule("{matchLabels: {env: prod}}", NULL);
	b->apply.has_duration = true;
	dist_init_constant(&b->apply.duration, 5000);
	b->readiness.has_delay = true;
	dist_init_constant(&b->readiness.delay, 3 * MIN);
	world();
	ss_init(&s, "t1", "shop", "{env: prod}", two);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	CU_ASSERT_EQUAL(ap.duration_ms, 5000);
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "db"), 5000 + 10 * MIN);
	swst_apply_stage(W, &s.m, 1, &ra, 0, &ap);
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "app"), 5000 + 3 * MIN);
	ss_release(&s);
	ss_init(&s, "t2", "shop", "{env: dev}", two);
	ra = resolved("GitRepository", "t2", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	CU_ASSERT_EQUAL(ap.duration_ms, SCN_SW_DEFAULT_APPLY_MS);
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t2", "shop", "db"), 1000 + SCN_SW_DEFAULT_READY_MS);
	ss_release(&s);
	end();
}

/* ---- random draws ---------------------------------------------------------- */

static int64_t ready_after_apply(const char *ns, const char *name)
{
	struct ss s;
	struct ssc_resolved ra;
	struct ssc_apply_outcome ap;
	int64_t r;

	ss_init(&s, ns, name, NULL, ONE_STAGE);
	ra = resolved("GitRepository", ns, "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	r = swst_stage_ready_at(W, ns, name, "app");
	ss_release(&s);
	return r;
}

static void test_common_random_numbers(void)
{
	int64_t a1, b1, a2, b2, b3;

	begin();
	dist_init_uniform(&cfg.top.readiness.delay, 0, 10 * MIN);
	world();
	a1 = ready_after_apply("t1", "shop");
	b1 = ready_after_apply("t2", "shop");
	CU_ASSERT_NOT_EQUAL(a1, b1);
	world(); /* the same draws in another order */
	b2 = ready_after_apply("t2", "shop");
	a2 = ready_after_apply("t1", "shop");
	CU_ASSERT_EQUAL(a1, a2);
	CU_ASSERT_EQUAL(b1, b2);
	seed = 8;
	world();
	b3 = ready_after_apply("t2", "shop");
	CU_ASSERT_NOT_EQUAL(b1, b3);
	end();
}

/* ---- actions and restores ---------------------------------------------------- */

static struct scn_sw_action *action_entry(struct scn_sw_behaviour *b, const char *name,
					  const char *phase)
{
	struct scn_sw_action *a;

	b->has_actions = true;
	b->actions = xreallocarray(b->actions, b->nactions + 1, sizeof(*b->actions));
	a = &b->actions[b->nactions++];
	memset(a, 0, sizeof(*a));
	a->name = name ? xstrdup(name) : NULL;
	a->phase = phase ? xstrdup(phase) : NULL;
	dist_init_constant(&a->duration, 0);
	a->failure.cls = SSC_ERR;
	return a;
}

static void test_actions(void)
{
	struct ss s;
	struct sst_action act = { 0 };
	struct scn_sw_action *a;
	struct scn_sw_behaviour *b;
	int64_t dur;
	struct ssc_err err;
	int fails = 0;

	begin();
	a = action_entry(&cfg.top, "notify", "post");
	a->has_duration = true;
	dist_init_constant(&a->duration, 30000);
	a->has_failure = true;
	a->failure.probability = 1;
	a->failure.cls = SSC_ERR_NO_RETRY;
	a = action_entry(&cfg.top, NULL, "migration");
	a->has_failure = true;
	a->failure.probability = 0.5;
	b = rule("{matchLabels: {env: prod}}", NULL);
	a = action_entry(b, "notify", NULL);
	a->has_failure = true;
	a->failure.probability = 1;
	a->failure.cls = SSC_ERR_FORBIDDEN;
	a->failure.message = xstrdup("webhooks.example.com is forbidden");
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	act.name = "notify";
	swst_run_action(W, &s.m, 0, "pre", &act, 0, 0, &dur, &err);
	CU_ASSERT_EQUAL(dur, SCN_SW_DEFAULT_ACTION_MS);
	CU_ASSERT_EQUAL(err.code, SSC_OK);
	swst_run_action(W, &s.m, 0, "post", &act, 0, 0, &dur, &err);
	CU_ASSERT_EQUAL(dur, 30000);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_NO_RETRY);
	CU_ASSERT_STRING_EQUAL(err.msg, "simulated action failure: HTTP 400 Bad Request");
	swst_run_action(W, &s.m, SIZE_MAX, "onRollback", &act, 0, 0, &dur, &err);
	CU_ASSERT_EQUAL(err.code, SSC_OK);
	act.name = "add-column";
	for (int i = 0; i < 40; i++) {
		swst_run_action(W, &s.m, 0, "migration", &act, 0, 0, &dur, &err);
		fails += err.code != SSC_OK;
	}
	CU_ASSERT(fails > 5 && fails < 35); /* every attempt draws its own stream */
	ss_release(&s);
	ss_init(&s, "t2", "shop", "{env: prod}", ONE_STAGE);
	act.name = "notify";
	swst_run_action(W, &s.m, 0, "pre", &act, 0, 0, &dur, &err);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_FORBIDDEN);
	CU_ASSERT_STRING_EQUAL(err.msg, "webhooks.example.com is forbidden");
	CU_ASSERT_EQUAL(dur, SCN_SW_DEFAULT_ACTION_MS); /* the rule's entry sets no duration */
	ss_release(&s);
	end();
}

static void test_restores(void)
{
	struct ss s;
	char st[] = "app", url[] = "http://x", dg[] = "sha256:00", rv[] = "main@sha1:abc", sd[] = "";
	struct sst_artifact_ref ref = { st, url, dg, rv, sd };
	struct ssc_resolved ra;
	struct ssc_apply_outcome ap;
	struct scn_sw_behaviour *b;
	char reason[64], msg[512];
	int64_t dur;
	struct ssc_err err;

	begin();
	cfg.top.readiness.failed_probability = 1;
	b = rule("{matchLabels: {case: gone}}", NULL);
	b->restore.has_outcome = true;
	b->restore.outcome = SCN_SW_PREVIOUS_UNAVAILABLE;
	b = rule("{matchLabels: {case: image}}", NULL);
	b->restore.has_outcome = true;
	b->restore.outcome = SCN_SW_IMAGE_UNVERIFIED;
	b = rule("{matchLabels: {case: apply}}", NULL);
	b->restore.has_outcome = true;
	b->restore.outcome = SCN_SW_APPLY_FAILED;
	b = rule("{matchLabels: {case: store}}", NULL);
	b->restore.has_outcome = true;
	b->restore.outcome = SCN_SW_TRANSIENT;
	b->restore.message = xstrdup("rollback store: connection refused");
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	swst_apply_stage(W, &s.m, 0, &ra, 0, &ap);
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "app"), SW_NEVER);
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &ref, false, HOUR, &dur, reason, sizeof(reason), msg, sizeof(msg), &err),
			0);
	CU_ASSERT_EQUAL(dur, SCN_SW_DEFAULT_RESTORE_MS);
	CU_ASSERT_EQUAL(swst_stage_ready_at(W, "t1", "shop", "app"),
			HOUR + SCN_SW_DEFAULT_RESTORE_MS);
	obj_strmap_set(&s.labels, "case", "gone");
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &ref, false, HOUR, &dur, reason, sizeof(reason), msg, sizeof(msg), &err),
			1);
	CU_ASSERT_STRING_EQUAL(reason, "PreviousRevisionUnavailable");
	CU_ASSERT_STRING_EQUAL(msg,
			       "cannot roll back: revision main@sha1:abc for stage \"app\" is no longer "
				    "fetchable (artifact not found)");
	obj_strmap_set(&s.labels, "case", "image");
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &ref, false, HOUR, &dur, reason, sizeof(reason), msg, sizeof(msg), &err),
			1);
	CU_ASSERT_STRING_EQUAL(reason, "ImageUnverified");
	CU_ASSERT_STRING_EQUAL(msg,
			       "cannot roll back stage \"app\": its previous revision references an image that "
				    "fails verification now (no matching signatures)");
	obj_strmap_set(&s.labels, "case", "apply");
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &ref, false, HOUR, &dur, reason, sizeof(reason), msg, sizeof(msg), &err),
			2);
	CU_ASSERT_STRING_EQUAL(err.msg, "simulated apply failure");
	obj_strmap_set(&s.labels, "case", "store");
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &ref, false, HOUR, &dur, reason, sizeof(reason), msg, sizeof(msg), &err),
			-1);
	CU_ASSERT_STRING_EQUAL(err.msg, "rollback store: connection refused");
	ss_release(&s);
	end();
}

/* One window [@from, @until) as @w's only one. */
static void window(struct scn_sw_windows *w, int64_t from, int64_t until)
{
	w->items = xcalloc(1, sizeof(*w->items));
	w->items[0].from_ms = from;
	w->items[0].until_ms = until;
	w->n = 1;
}

static void test_rollback_store(void)
{
	struct ssc_err err;

	begin();
	world();
	CU_ASSERT(!swsr_configured(W));
	end();

	begin();
	cfg.has_store = true;
	window(&cfg.store.put_errors, 10, 20);
	window(&cfg.store.get_errors, 30, 40);
	window(&cfg.store.corrupt, 50, 60);
	world();
	CU_ASSERT(swsr_configured(W));
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(swsr_put(W, "ns/a/app/sha256-1", 15, &err), -1); /* putErrors */
	CU_ASSERT_STRING_EQUAL(err.msg, SCN_SW_DEFAULT_STORE_ERROR);
	CU_ASSERT_EQUAL(swsr_get(W, "ns/a/app/sha256-1", 25, &err), SSC_STORE_MISSING); /* nothing stored */
	CU_ASSERT_EQUAL(swsr_put(W, "ns/a/app/sha256-1", 20, &err), 0);  /* the window is half-open */
	CU_ASSERT_EQUAL(swsr_get(W, "ns/a/app/sha256-1", 35, &err), SSC_STORE_ERROR);
	CU_ASSERT_STRING_EQUAL(err.msg, SCN_SW_DEFAULT_STORE_ERROR);
	CU_ASSERT_EQUAL(swsr_get(W, "ns/a/app/sha256-1", 40, &err), SSC_STORE_FOUND);
	CU_ASSERT_EQUAL(swsr_get(W, "ns/b/app/sha256-1", 40, &err), SSC_STORE_MISSING);
	CU_ASSERT_EQUAL(swsr_put(W, "ns/c/app/sha256-1", 55, &err), 0);  /* stored corrupt */
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(swsr_get(W, "ns/c/app/sha256-1", 70, &err), SSC_STORE_CORRUPT);
	CU_ASSERT_STRING_EQUAL(err.msg, SCN_SW_CORRUPT_SNAPSHOT_ERROR);
	CU_ASSERT_EQUAL(swsr_put(W, "ns/c/app/sha256-1", 70, &err), 0);  /* a later Put replaces it */
	CU_ASSERT_EQUAL(swsr_get(W, "ns/c/app/sha256-1", 70, &err), SSC_STORE_FOUND);
	cfg.store.message = xstrdup("s3: connection reset");
	CU_ASSERT_EQUAL(swsr_get(W, "ns/a/app/sha256-1", 30, &err), SSC_STORE_ERROR);
	CU_ASSERT_STRING_EQUAL(err.msg, "s3: connection reset");
	end();
}

/* sources[].gcAt: from then on a restore's re-fetch of an older revision fails; the store's copy does not. */
static void test_restore_after_producer_gc(void)
{
	struct ss s;
	char st[] = "app", url[] = "http://x", dg[] = "sha256:00", rv[] = "main@sha1:abc", sd[] = "";
	struct sst_artifact_ref old = { st, url, dg, rv, sd }, cur;
	struct ssc_resolved ra;
	char reason[64], msg[512];
	int64_t dur;
	struct ssc_err err;

	begin();
	cfg.sources = xcalloc(1, sizeof(*cfg.sources));
	cfg.nsources = 1;
	cfg.sources[0].name = xstrdup("src");
	cfg.sources[0].has_gc = true;
	cfg.sources[0].gc_ms = HOUR;
	world();
	ss_init(&s, "t1", "shop", NULL, ONE_STAGE);
	ra = resolved("GitRepository", "t1", "src", 0);
	cur = old;
	cur.revision = (char *)ra.revision;
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &old, false, HOUR - 1, &dur, reason, sizeof(reason), msg,
					   sizeof(msg), &err),
			0); /* before gcAt */
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &old, false, HOUR, &dur, reason, sizeof(reason), msg,
					   sizeof(msg), &err),
			1);
	CU_ASSERT_STRING_EQUAL(reason, "PreviousRevisionUnavailable");
	CU_ASSERT_STRING_EQUAL(msg, "cannot roll back: revision main@sha1:abc for stage \"app\" is no longer "
				    "fetchable (fetch artifact: unexpected status 404)");
	CU_ASSERT_EQUAL(err.code, SSC_OK);
	/* the revision the producer still offers, and the store's copy of any */
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &cur, false, HOUR, &dur, reason, sizeof(reason), msg,
					   sizeof(msg), &err),
			0);
	CU_ASSERT_EQUAL(swst_restore_stage(W, &s.m, 0, &old, true, HOUR, &dur, reason, sizeof(reason), msg,
					   sizeof(msg), &err),
			0);
	ss_release(&s);
	end();
}

/* ---- gates -------------------------------------------------------------------- */

static void test_metric_series(void)
{
	char err[256];
	double v = 0;

	begin();
	series("errors", NULL, "0.01x10 NaN");
	series("errors", "http://prom-b:9090", "0.5x10");
	series("per_pod", NULL, "1x5");
	series("per_pod", NULL, "2x10");
	CU_ASSERT_EQUAL(swg_metric_prometheus(sers, nsers, "errors", "http://prom-a:9090", 0, &v, err, sizeof(err)), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.01, 1e-12);
	CU_ASSERT_EQUAL(swg_metric_prometheus(sers, nsers, "errors", "http://prom-b:9090", 0, &v, err, sizeof(err)), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.5, 1e-12);
	CU_ASSERT_EQUAL(swg_metric_prometheus(sers, nsers, "errors", NULL, 11 * MIN, &v, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err,
			       "metric source unavailable: sample value is NaN (a misconfigured query returns "
				    "NaN/Inf)");
	CU_ASSERT_EQUAL(swg_metric_prometheus(sers, nsers, "per_pod", NULL, 3 * MIN, &v, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err,
			       "metric source unavailable: query returned 2 samples, want exactly 1 (the query must "
				    "reduce to a single scalar)");
	/* the first series stops after 6 samples: one is left once its lookback has passed */
	CU_ASSERT_EQUAL(swg_metric_prometheus(sers, nsers, "per_pod", NULL, 10 * MIN + 1, &v, err, sizeof(err)), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 2, 1e-12);
	CU_ASSERT_EQUAL(swg_metric_prometheus(sers, nsers, "absent", NULL, 0, &v, err, sizeof(err)),
			-1);
	CU_ASSERT_STRING_EQUAL(err,
			       "metric source unavailable: query returned 0 samples, want exactly 1 (the query must "
				    "reduce to a single scalar)");
	end();
}

static void test_query(void)
{
	struct sst_metric_source src = { 0 };
	double v;
	int64_t dur;
	struct ssc_err err;

	begin();
	series("budget", NULL, "0.9 0.2");
	world();
	src.has_prometheus = true;
	src.query = "budget";
	src.address = "http://prometheus:9090";
	CU_ASSERT_EQUAL(swg_query(W, &src, MIN, &v, &dur, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.2, 1e-12);
	src.query = "other";
	CU_ASSERT_EQUAL(swg_query(W, &src, MIN, &v, &dur, &err), -1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR);
	end();
}

static void test_pods_and_events(void)
{
	struct lbl_selector api, web;
	struct scn_sw_pods *p;
	struct ssc_err err;
	int32_t total;
	const char *reasons[] = { "BackOff", "Unhealthy" };

	begin();
	cfg.npods = 2;
	cfg.pods = xcalloc(2, sizeof(*cfg.pods));
	p = &cfg.pods[0];
	obj_strmap_set(&p->labels, "app", "api");
	p->nrestarts = 2;
	p->restarts = xcalloc(2, sizeof(*p->restarts));
	p->restarts[0] = (struct scn_sw_restarts){ HOUR, 2 };
	p->restarts[1] = (struct scn_sw_restarts){ 2 * HOUR, 5 };
	p->nwarnings = 2;
	p->warnings = xcalloc(2, sizeof(*p->warnings));
	p->warnings[0] = (struct scn_sw_warning){ HOUR, 2 * HOUR, xstrdup("BackOff"), 3 };
	p->warnings[1] = (struct scn_sw_warning){ HOUR, SW_NEVER, xstrdup("FailedMount"), 1 };
	p = &cfg.pods[1];
	p->ns = xstrdup("t2");
	obj_strmap_set(&p->labels, "app", "api");
	p->nrestarts = 1;
	p->restarts = xcalloc(1, sizeof(*p->restarts));
	p->restarts[0] = (struct scn_sw_restarts){ 0, 1 };
	cfg.nlist_errors = 2;
	cfg.list_errors = xcalloc(2, sizeof(*cfg.list_errors));
	cfg.list_errors[0] = (struct scn_sw_list_error){ xstrdup("t3"), true, false, { 0, HOUR },
			      SSC_ERR_FORBIDDEN, NULL };
	cfg.list_errors[1] = (struct scn_sw_list_error){ NULL, false, true, { 3 * HOUR, 4 * HOUR },
			      SSC_ERR, NULL };
	world();
	selector(&api, "{matchLabels: {app: api}}");
	selector(&web, "{matchLabels: {app: web}}");
	CU_ASSERT_EQUAL(swg_pod_restarts(W, "t1", &api, HOUR - 1, &total, &err), 0);
	CU_ASSERT_EQUAL(total, 0);
	CU_ASSERT_EQUAL(swg_pod_restarts(W, "t1", &api, 2 * HOUR, &total, &err), 0);
	CU_ASSERT_EQUAL(total, 5);
	CU_ASSERT_EQUAL(swg_pod_restarts(W, "t2", &api, 2 * HOUR, &total, &err), 0);
	CU_ASSERT_EQUAL(total, 6);
	CU_ASSERT_EQUAL(swg_pod_restarts(W, "t1", &web, 2 * HOUR, &total, &err), 0);
	CU_ASSERT_EQUAL(total, 0);
	CU_ASSERT_EQUAL(swg_pod_restarts(W, "t3", &api, 0, &total, &err), -1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_FORBIDDEN);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "list pods: pods is forbidden: User \"system:serviceaccount:t3:default\" cannot "
					"list resource \"pods\" in API group \"\" in the namespace \"t3\"");
	CU_ASSERT_EQUAL(swg_warning_events(W, "t1", &api, reasons, 2, HOUR, &total, &err), 0);
	CU_ASSERT_EQUAL(total, 3);
	CU_ASSERT_EQUAL(swg_warning_events(W, "t1", &api, reasons, 2, 2 * HOUR, &total, &err), 0);
	CU_ASSERT_EQUAL(total, 0);
	CU_ASSERT_EQUAL(swg_warning_events(W, "t1", &api, reasons, 2, 3 * HOUR, &total, &err), -1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "list events: the server is currently unable to handle the request (get events)");
	/* no selected pod: the events are not listed */
	CU_ASSERT_EQUAL(swg_warning_events(W, "t1", &web, reasons, 2, 3 * HOUR, &total, &err), 0);
	lbl_selector_release(&api);
	lbl_selector_release(&web);
	end();
}

static void test_anchors(void)
{
	char uid[40], uid2[40], uid3[40];
	struct ssc_err err;

	begin();
	cfg.nanchors = 1;
	cfg.anchors = xcalloc(1, sizeof(*cfg.anchors));
	cfg.anchors[0].kind = xstrdup("ConfigMap");
	cfg.anchors[0].name = xstrdup("schema-v2");
	cfg.anchors[0].gone_ms = 2 * HOUR;
	cfg.anchors[0].recreated_ms = 3 * HOUR;
	cfg.anchors[0].unreadable = windows1(5 * HOUR, 6 * HOUR);
	world();
	CU_ASSERT_EQUAL(swg_anchor_uid(W, "v1", "ConfigMap", "t1", "schema-v2", 0, uid, sizeof(uid), &err), 0);
	CU_ASSERT_EQUAL(strlen(uid), 36);
	CU_ASSERT_EQUAL(swg_anchor_uid(W, "v1", "ConfigMap", "t1", "schema-v2", HOUR, uid2, sizeof(uid2), &err), 0);
	CU_ASSERT_STRING_EQUAL(uid, uid2);
	CU_ASSERT_EQUAL(swg_anchor_uid(W, "v1", "ConfigMap", "t1", "schema-v2", 2 * HOUR, uid2, sizeof(uid2), &err), -1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_NOT_FOUND);
	CU_ASSERT_EQUAL(swg_anchor_uid(W, "v1", "ConfigMap", "t1", "schema-v2", 3 * HOUR, uid3, sizeof(uid3), &err), 0);
	CU_ASSERT_STRING_NOT_EQUAL(uid, uid3);
	CU_ASSERT_EQUAL(swg_anchor_uid(W, "v1", "ConfigMap", "t1", "schema-v2", 5 * HOUR, uid3, sizeof(uid3), &err), -1);
	CU_ASSERT_EQUAL(err.code, SSC_ERR_FORBIDDEN);
	CU_ASSERT_EQUAL(swg_anchor_uid(W, "v1", "ConfigMap", "t1", "other", 5 * HOUR, uid3, sizeof(uid3), &err), 0);
	CU_ASSERT_STRING_NOT_EQUAL(uid, uid3);
	end();
}

/* ledgerErrors: which reads fail, for whom, when, and in upstream's words */
static void test_read_errors(void)
{
	struct ssc_err err = { SSC_OK, "" };

	begin();
	cfg.nread_errors = 2;
	cfg.read_errors = xcalloc(2, sizeof(*cfg.read_errors));
	cfg.read_errors[0] = (struct scn_sw_read_error){ xstrdup("t1"), xstrdup("shop"), true, false,
							 { HOUR, 2 * HOUR }, NULL };
	cfg.read_errors[1] = (struct scn_sw_read_error){ NULL, NULL, false, true, { 3 * HOUR, SW_NEVER },
							 xstrdup("etcdserver: request timed out") };
	world();
	CU_ASSERT_FALSE(swg_read_error(W, "t1", "shop", false, HOUR - 1, &err));
	CU_ASSERT_EQUAL(err.code, SSC_OK); /* untouched */
	CU_ASSERT_TRUE(swg_read_error(W, "t1", "shop", false, HOUR, &err));
	CU_ASSERT_EQUAL(err.code, SSC_ERR);
	CU_ASSERT_STRING_EQUAL(err.msg, "the server is currently unable to handle the request (get "
					"stageledgers.stages.metio.wtf shop)");
	CU_ASSERT_FALSE(swg_read_error(W, "t1", "shop", false, 2 * HOUR, &err)); /* until is exclusive */
	CU_ASSERT_FALSE(swg_read_error(W, "t1", "shop", true, HOUR, &err));     /* the ledger only */
	CU_ASSERT_FALSE(swg_read_error(W, "t1", "cart", false, HOUR, &err));    /* another StageSet */
	CU_ASSERT_FALSE(swg_read_error(W, "t2", "shop", false, HOUR, &err));    /* another namespace */
	CU_ASSERT_TRUE(swg_read_error(W, "t2", "cart", true, 5 * HOUR, &err));  /* every StageSet, for good */
	CU_ASSERT_STRING_EQUAL(err.msg, "list StageInventory: etcdserver: request timed out");
	CU_ASSERT_FALSE(swg_read_error(W, "t2", "cart", false, 5 * HOUR, &err));
	/* the next error to come, for a pass kept meanwhile */
	CU_ASSERT_EQUAL(swg_read_errors_from(W, "t1", "shop", 0), HOUR);
	CU_ASSERT_EQUAL(swg_read_errors_from(W, "t1", "shop", 2 * HOUR), 3 * HOUR);
	CU_ASSERT_EQUAL(swg_read_errors_from(W, "t1", "cart", 0), 3 * HOUR);
	CU_ASSERT_EQUAL(swg_read_errors_from(W, "t1", "shop", 3 * HOUR + 1), 3 * HOUR);
	cfg.read_errors[1].window.until_ms = 4 * HOUR;
	CU_ASSERT_EQUAL(swg_read_errors_from(W, "t1", "cart", 4 * HOUR), SW_NEVER);
	end();
}

/* A resumed run moves the ledgerErrors windows with every other time of the models */
static void test_read_errors_resumed(void)
{
	struct scn_models m;

	memset(&m, 0, sizeof(m));
	m.world.nread_errors = 1;
	m.world.read_errors = xcalloc(1, sizeof(*m.world.read_errors));
	m.world.read_errors[0] = (struct scn_sw_read_error){ NULL, NULL, true, true, { 3 * HOUR, SW_NEVER }, NULL };
	scn_models_shift(&m, -HOUR);
	CU_ASSERT_EQUAL(m.world.read_errors[0].window.from_ms, 2 * HOUR);
	CU_ASSERT_EQUAL(m.world.read_errors[0].window.until_ms, SW_NEVER); /* for good stays for good */
	m.world.read_errors[0].window.until_ms = 4 * HOUR;
	scn_models_shift(&m, -HOUR);
	CU_ASSERT_EQUAL(m.world.read_errors[0].window.from_ms, HOUR);
	CU_ASSERT_EQUAL(m.world.read_errors[0].window.until_ms, 3 * HOUR);
	scn_sw_config_release(&m.world);
}

/* ---- the scenario keys ---------------------------------------------------------- */

#define HEAD "apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\n"

/* Loads @text as s.yaml; the diagnostics into *@diags (new). */
static int load(const char *text, struct scenario *s, char **diags)
{
	const char *path = "s.yaml";

	fx_put("s.yaml", text);
	return fx_scn_load(&path, 1, s, diags);
}

static void expect_load_errors(const char *text, const char *want)
{
	struct scenario s;
	char *got;

	CU_ASSERT_EQUAL(load(text, &s, &got), -1);
	fx_same_text(got, want);
	free(got);
	scn_release(&s);
}

static void test_keys_read(void)
{
	struct scenario s;
	char *diags;
	const struct scn_sw_config *c;
	const struct scn_sw_rule *r;

	fx_tmp_enter("test_stageset_world");
	CU_ASSERT_EQUAL_FATAL(
		load(HEAD "spec:\n"
			  "  models:\n"
			  "    stagesets:\n"
			  "      apply:\n"
			  "        duration: 3s\n"
			  "        failure: {probability: 0.25, op: fetch, class: terminalFetch, during: [{from: 1h, "
			  "until: 2h}, {from: 10m}], message: digest mismatch}\n"
			  "      readiness: {delay: {uniform: {min: 1m, max: 3m}}, failedProbability: 0.1, "
			  "neverProbability: 0.05}\n"
			  "      readyExprs: {delay: 20s}\n"
			  "      regression: {probability: 0.5, effect: NotReady, versions: [\"4.6\"]}\n"
			  "      actions:\n"
			  "        - {name: notify, phase: post, duration: 5s, failure: {class: noRetry}}\n"
			  "        - {phase: migration, failure: {probability: 0.1, class: forbidden, message: "
			  "nope}}\n"
			  "      restore: {duration: 4s, outcome: previousRevisionUnavailable, message: gone}\n"
			  "      anchors:\n"
			  "        - {kind: ConfigMap, name: schema, goneAt: 2h, recreatedAt: 3h, unreadable: [{from: "
			  "5h, until: 6h}]}\n"
			  "      pods:\n"
			  "        - namespace: shop\n"
			  "          labels: {app: api}\n"
			  "          restarts: [{at: 1h, total: 2}, {at: 2h, total: 5}]\n"
			  "          warnings: [{at: 1h, until: 2h, reason: BackOff, count: 3}, {at: 3h, reason: "
			  "Unhealthy}]\n"
			  "      podListErrors:\n"
			  "        - {namespace: shop, list: events, from: 4h, until: 5h, class: forbidden}\n"
			  "        - {from: 6h}\n"
			  "      ledgerErrors:\n"
			  "        - {namespace: shop, name: cart, object: StageLedger, from: 1h, until: 2h}\n"
			  "        - {object: StageInventory, from: 3h, message: etcd down}\n"
			  "        - {namespace: shop, from: 4h, until: 5h}\n"
			  "      rules:\n"
			  "        - selector: {matchLabels: {ring: \"0\"}}\n"
			  "          stage: db\n"
			  "          adoption: {duration: 7m, failureProbability: 0.3}\n"
			  "          apply: {failure: {op: build}}\n"
			  "    sources:\n"
			  "      - kind: GitRepository\n"
			  "        namespace: shop\n"
			  "        initialVersion: 4.5.0\n"
			  "        fetchDuration: 2s\n"
			  "        notReady: [{from: 1h, until: 2h}]\n"
			  "        versionEmpty: [{from: 3h, until: 4h}]\n"
			  "        files: {z.yaml: \"- {name: b, to: 2.0.0}\", a.yaml: \"- {name: a, to: 1.1.0}\"}\n"
			  /* the StageSet the ledgerErrors name */
			  "---\napiVersion: stages.metio.wtf/v1\nkind: StageSet\nmetadata: {name: cart, namespace: shop}\n"
			  "spec:\n  stages: [{name: app, sourceRef: {kind: GitRepository, name: web}}]\n",
		     &s, &diags),
		0);
	fx_same_text(diags, "s.yaml:1:1: note: 1 source the StageSets name is not in the inputs and is modelled: Ready, "
			    "with a new revision at each publish that reaches a StageSet using it; spec.models.sources "
			    "makes it missing, not Ready, Forbidden or unfetchable for a while, or gives it new "
			    "revisions apart from any publish (updates)");
	free(diags);
	c = &s.models.world;
	CU_ASSERT_EQUAL(c->top.apply.duration.u.constant.value, 3000);
	CU_ASSERT_DOUBLE_EQUAL(c->top.apply.failure.probability, 0.25, 1e-12);
	CU_ASSERT_EQUAL(c->top.apply.failure.op, SCN_SW_OP_FETCH);
	CU_ASSERT_EQUAL(c->top.apply.failure.cls, SSC_ERR_TERMINAL_FETCH);
	CU_ASSERT_STRING_EQUAL(c->top.apply.failure.message, "digest mismatch");
	CU_ASSERT_EQUAL_FATAL(c->top.apply.failure.during.n, 2);
	CU_ASSERT_EQUAL(c->top.apply.failure.during.items[0].from_ms,
			10 * MIN); /* sorted by from */
	CU_ASSERT_EQUAL(c->top.apply.failure.during.items[0].until_ms, INT64_MAX);
	CU_ASSERT_EQUAL(c->top.apply.failure.during.items[1].until_ms, 2 * HOUR);
	CU_ASSERT_EQUAL(c->top.readiness.delay.kind, DIST_UNIFORM);
	CU_ASSERT_DOUBLE_EQUAL(c->top.readiness.failed_probability, 0.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c->top.readiness.never_probability, 0.05, 1e-12);
	CU_ASSERT_EQUAL(c->top.exprs.delay.u.constant.value, 20000);
	CU_ASSERT_EQUAL(c->top.regression.effect, SCN_SW_EFFECT_NOT_READY);
	CU_ASSERT_TRUE(c->top.regression.has_versions);
	CU_ASSERT_STRING_EQUAL(c->top.regression.versions[0], "4.6");
	CU_ASSERT_EQUAL(c->top.regression.duration.u.constant.value, SCN_SW_DEFAULT_REGRESSION_MS);
	CU_ASSERT_EQUAL_FATAL(c->top.nactions, 2);
	CU_ASSERT_STRING_EQUAL(c->top.actions[0].name, "notify");
	CU_ASSERT_STRING_EQUAL(c->top.actions[0].phase, "post");
	CU_ASSERT_DOUBLE_EQUAL(c->top.actions[0].failure.probability, 1,
			       1e-12); /* a failure map: 1 */
	CU_ASSERT_EQUAL(c->top.actions[0].failure.cls, SSC_ERR_NO_RETRY);
	CU_ASSERT_PTR_NULL(c->top.actions[1].name);
	CU_ASSERT_EQUAL(c->top.actions[1].failure.cls, SSC_ERR_FORBIDDEN);
	CU_ASSERT_FALSE(c->top.actions[1].has_duration);
	CU_ASSERT_EQUAL(c->top.restore.outcome, SCN_SW_PREVIOUS_UNAVAILABLE);
	CU_ASSERT_STRING_EQUAL(c->top.restore.message, "gone");
	CU_ASSERT_EQUAL_FATAL(c->nanchors, 1);
	CU_ASSERT_EQUAL(c->anchors[0].gone_ms, 2 * HOUR);
	CU_ASSERT_EQUAL(c->anchors[0].recreated_ms, 3 * HOUR);
	CU_ASSERT_PTR_NULL(c->anchors[0].ns);
	CU_ASSERT_EQUAL_FATAL(c->npods, 1);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&c->pods[0].labels, "app"), "api");
	CU_ASSERT_EQUAL(c->pods[0].restarts[1].total, 5);
	CU_ASSERT_EQUAL(c->pods[0].warnings[1].count, 1);
	CU_ASSERT_EQUAL(c->pods[0].warnings[1].until_ms, INT64_MAX);
	CU_ASSERT_EQUAL_FATAL(c->nlist_errors, 2);
	CU_ASSERT(!c->list_errors[0].pods && c->list_errors[0].events && c->list_errors[0].cls == SSC_ERR_FORBIDDEN);
	CU_ASSERT(c->list_errors[1].pods && c->list_errors[1].events && c->list_errors[1].cls == SSC_ERR);
	CU_ASSERT_EQUAL_FATAL(c->nread_errors, 3);
	CU_ASSERT(c->read_errors[0].ledger && !c->read_errors[0].inventory);
	CU_ASSERT_STRING_EQUAL(c->read_errors[0].ns, "shop");
	CU_ASSERT_STRING_EQUAL(c->read_errors[0].name, "cart");
	CU_ASSERT_EQUAL(c->read_errors[0].window.from_ms, HOUR);
	CU_ASSERT_EQUAL(c->read_errors[0].window.until_ms, 2 * HOUR);
	CU_ASSERT(!c->read_errors[1].ledger && c->read_errors[1].inventory);
	CU_ASSERT_PTR_NULL(c->read_errors[1].ns);
	CU_ASSERT_PTR_NULL(c->read_errors[1].name);
	CU_ASSERT_EQUAL(c->read_errors[1].window.until_ms, INT64_MAX);
	CU_ASSERT_STRING_EQUAL(c->read_errors[1].message, "etcd down");
	CU_ASSERT(c->read_errors[2].ledger && c->read_errors[2].inventory); /* both, by default */
	CU_ASSERT_PTR_NULL(c->read_errors[2].message);
	CU_ASSERT_EQUAL_FATAL(c->nrules, 1);
	r = &c->rules[0];
	CU_ASSERT_STRING_EQUAL(r->stage, "db");
	CU_ASSERT_TRUE(r->b.readiness.has_delay); /* adoption.duration is readiness.delay */
	CU_ASSERT_EQUAL(r->b.readiness.delay.u.constant.value, 7 * MIN);
	CU_ASSERT_DOUBLE_EQUAL(r->b.readiness.failed_probability, 0.3, 1e-12);
	CU_ASSERT_FALSE(r->b.readiness.has_never);
	CU_ASSERT_EQUAL(r->b.apply.failure.op, SCN_SW_OP_BUILD);
	CU_ASSERT_FALSE(r->b.apply.has_duration);
	CU_ASSERT_FALSE(r->b.regression.has_probability);
	/* the member model still reads its keys */
	CU_ASSERT_TRUE(s.models.stagesets.rules[0].adoption.has_duration);
	CU_ASSERT_EQUAL_FATAL(c->nsources, 1);
	CU_ASSERT_STRING_EQUAL(c->sources[0].initial_version, "4.5.0");
	CU_ASSERT_EQUAL(c->sources[0].fetch_duration.u.constant.value, 2000);
	CU_ASSERT(c->sources[0].has_not_ready && !c->sources[0].has_missing);
	CU_ASSERT_EQUAL_FATAL(c->sources[0].nfiles, 2);
	CU_ASSERT_STRING_EQUAL(c->sources[0].paths[0], "a.yaml");
	CU_ASSERT_STRING_EQUAL(c->sources[0].texts[1], "- {name: b, to: 2.0.0}");
	scn_release(&s);
	fx_tmp_leave();
}

static void test_keys_defaults_and_old_keys(void)
{
	struct scenario s;
	char *diags;
	const struct scn_sw_config *c;

	fx_tmp_enter("test_stageset_world");
	CU_ASSERT_EQUAL_FATAL(load(HEAD "spec:\n  models:\n    stagesets:\n      adoption: {duration: 5m, "
				       "failureProbability: 0.02}\n      regression: {probability: 0.1, after: 10m}\n",
				   &s, &diags),
			      0);
	free(diags);
	c = &s.models.world;
	CU_ASSERT_EQUAL(c->top.readiness.delay.u.constant.value, 5 * MIN);
	CU_ASSERT_DOUBLE_EQUAL(c->top.readiness.failed_probability, 0.02, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c->top.regression.probability, 0.1, 1e-12);
	CU_ASSERT_EQUAL(c->top.regression.after.u.constant.value, 10 * MIN);
	CU_ASSERT_EQUAL(c->top.regression.effect, SCN_SW_EFFECT_FAILED);
	CU_ASSERT_EQUAL(c->top.apply.duration.u.constant.value, SCN_SW_DEFAULT_APPLY_MS);
	CU_ASSERT_DOUBLE_EQUAL(c->top.apply.failure.probability, 0, 1e-12);
	CU_ASSERT_EQUAL(c->top.restore.outcome, SCN_SW_RESTORED);
	CU_ASSERT_FALSE(c->top.has_actions);
	scn_release(&s);

	CU_ASSERT_EQUAL_FATAL(load(HEAD "spec: {}\n", &s, &diags), 0);
	free(diags);
	c = &s.models.world;
	CU_ASSERT_EQUAL(c->top.readiness.delay.u.constant.value, SCN_SW_DEFAULT_READY_MS);
	CU_ASSERT_EQUAL(c->top.exprs.delay.u.constant.value, SCN_SW_DEFAULT_EXPRS_MS);
	CU_ASSERT_EQUAL(c->nrules + c->nsources + c->npods + c->nanchors, 0);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_keys_errors(void)
{
	fx_tmp_enter("test_stageset_world");
	expect_load_errors(
		HEAD "spec:\n"
		     "  models:\n"
		     "    stagesets:\n"
		     "      adoption: {duration: 5m}\n"
		     "      readiness: {delay: 2m, failedProbability: 2}\n"
		     "      apply: {failure: {op: build, class: terminalFetch}}\n"
		     "      restore: {message: gone}\n"
		     "      actions: [{phase: later}]\n"
		     "      anchors: [{kind: ConfigMap, name: x, recreatedAt: 1h}]\n"
		     "      pods: [{labels: {}, restarts: [{at: 2h, total: 1}, {at: 1h, total: 2}]}]\n"
		     "      podListErrors: [{from: 2h, until: 1h, class: sometimes}]\n"
		     "    sources: [{kind: HelmRepository, missing: [{from: 1h, until: 1h}]}]\n",
		"s.yaml:9:49: error: spec.models.stagesets.readiness.failedProbability: Invalid value: 2: "
		"spec.models.stagesets.readiness.failedProbability in body should be less than or equal to 1\n"
		"s.yaml:9:49: note: a probability is a ratio from 0 to 1: write 0.05 for 5%\n"
		"s.yaml:10:43: error: spec.models.stagesets.apply.failure: Invalid value: \"terminalFetch\": only a "
		"fetch failure is terminal (op: fetch)\n"
		"s.yaml:11:17: error: spec.models.stagesets.restore: Invalid value: \"object\": message words an "
		"outcome: give the outcome too\n"
		"s.yaml:12:25: error: spec.models.stagesets.actions[0].phase: Unsupported value: \"later\": "
		"supported values: \"pre\", \"post\", \"onFailure\", \"onRollback\", \"migration\"\n"
		"s.yaml:13:57: error: spec.models.stagesets.anchors[0]: Invalid value: \"object\": recreatedAt needs "
		"goneAt (a witness is recreated after it is gone)\n"
		"s.yaml:14:23: error: spec.models.stagesets.pods[0]: Invalid value: \"object\": labels must not be "
		"empty (a gate's selector is never empty)\n"
		"s.yaml:14:58: error: spec.models.stagesets.pods[0]: Invalid value: \"object\": restarts[1].at must "
		"be later than restarts[0].at\n"
		"s.yaml:15:52: error: spec.models.stagesets.podListErrors[0].class: Unsupported value: "
		"\"sometimes\": supported values: \"transient\", \"forbidden\"\n"
		"s.yaml:16:22: error: spec.models.sources[0].kind: Unsupported value: \"HelmRepository\": "
		"supported values: \"ExternalArtifact\", \"GitRepository\", \"OCIRepository\", \"Bucket\"\n"
		"s.yaml:16:66: error: spec.models.sources[0].missing[0]: Invalid value: \"object\": until (1h0m0s) "
		"must be later than from (1h0m0s)\n"
		"s.yaml:8:18: error: spec.models.stagesets: Invalid value: \"object\": adoption.duration and "
		"readiness.delay are one setting; give readiness.delay only");
	fx_tmp_leave();
}

static void test_keys_read_errors(void)
{
	fx_tmp_enter("test_stageset_world");
	expect_load_errors(
		HEAD "spec:\n"
		     "  models:\n"
		     "    stagesets:\n"
		     "      ledgerErrors:\n"
		     "        - {object: Ledger, from: 1h}\n"
		     "        - {name: shop, from: 2h, until: 1h}\n"
		     "        - {namespace: shop, until: 1h}\n"
		     "        - {from: 1h, class: forbidden}\n"
		     "        - {name: \"\", from: 1h}\n"
		     "        - {from: soon}\n",
		"s.yaml:9:20: error: spec.models.stagesets.ledgerErrors[0].object: Unsupported value: \"Ledger\": "
		"supported values: \"StageLedger\", \"StageInventory\", \"both\"\n"
		"s.yaml:10:41: error: spec.models.stagesets.ledgerErrors[1]: Invalid value: \"object\": until "
		"(1h0m0s) must be later than from (2h0m0s)\n"
		"s.yaml:11:11: error: spec.models.stagesets.ledgerErrors[2].from: Required value\n"
		"s.yaml:12:22: error: unknown field \"spec.models.stagesets.ledgerErrors[3].class\"\n"
		"s.yaml:12:22: note: accepted fields: namespace, name, object, from, until, message\n"
		"s.yaml:13:18: error: spec.models.stagesets.ledgerErrors[4].name: Invalid value: \"\": "
		"spec.models.stagesets.ledgerErrors[4].name in body should be at least 1 chars long\n"
		"s.yaml:14:18: error: spec.models.stagesets.ledgerErrors[5].from: Invalid value: \"soon\": time: "
		"invalid duration \"soon\"\n"
		"s.yaml:14:18: note: durations use Go syntax, e.g. 90s, 5m, 1h30m");
	fx_tmp_leave();
}

/* Keys naming what is not there: ledgerErrors matching no StageSet, objects of no stage (warnings, with what is) */
static void test_keys_names(void)
{
	struct scenario s;
	char *diags;

	fx_tmp_enter("test_stageset_world");
	CU_ASSERT_EQUAL(
		load(HEAD "spec:\n"
			  "  models:\n"
			  "    stagesets:\n"
			  "      ledgerErrors:\n"
			  "        - {namespace: nope, from: 1h}\n"
			  "        - {namespace: shop, name: nope, from: 1h}\n"
			  "        - {name: shpo, from: 1h}\n"
			  "        - {namespace: shop, from: 1h}\n"
			  "        - {name: later, from: 1h}\n"
			  "        - {from: 1h}\n"
			  "    sources:\n"
			  "      - kind: GitRepository\n"
			  "        namespace: shop\n"
			  "        name: web\n"
			  "        objects: {app: [ConfigMap/a], nope: [ConfigMap/b]}\n"
			  "        updates: [{at: 1h, objects: {ap: [ConfigMap/a]}}]\n"
			  "      - {name: other, objects: {app: [ConfigMap/c]}}\n"
			  "  events:\n"
			  "    - at: 30m\n"
			  "      apply:\n"
			  "        apiVersion: stages.metio.wtf/v1\n"
			  "        kind: StageSet\n"
			  "        metadata: {name: later, namespace: shop}\n"
			  "        spec: {stages: [{name: db, sourceRef: {kind: GitRepository, name: web}}]}\n"
			  "---\napiVersion: stages.metio.wtf/v1\nkind: StageSet\nmetadata: {name: shop, namespace: shop}\n"
			  "spec:\n  stages: [{name: app, sourceRef: {kind: GitRepository, name: web}}]\n",
		     &s, &diags),
		0);
	fx_same_text(diags,
		     "s.yaml:1:1: note: 1 source the StageSets name is not in the inputs and is modelled: Ready, with "
		     "a new revision at each publish that reaches a StageSet using it; spec.models.sources makes it "
		     "missing, not Ready, Forbidden or unfetchable for a while, or gives it new revisions apart from "
		     "any publish (updates)\n"
		     "s.yaml:9:23: warning: spec.models.stagesets.ledgerErrors[0]: no StageSet of the inputs or of an "
		     "apply event is in namespace \"nope\": the entry fails no read\n"
		     "s.yaml:9:23: note: the StageSets are shop/later, shop/shop\n"
		     "s.yaml:10:35: warning: spec.models.stagesets.ledgerErrors[1]: no StageSet of the inputs or of "
		     "an apply event is named \"nope\" in namespace \"shop\": the entry fails no read\n"
		     "s.yaml:10:35: note: the StageSets are shop/later, shop/shop\n"
		     "s.yaml:11:18: warning: spec.models.stagesets.ledgerErrors[2]: no StageSet of the inputs or of "
		     "an apply event is named \"shpo\": the entry fails no read\n"
		     "s.yaml:11:18: note: the StageSets are shop/later, shop/shop; did you mean \"shop\"?\n"
		     "s.yaml:19:39: warning: spec.models.sources[0].objects.nope: no StageSet of the inputs or of an "
		     "apply event has a stage \"nope\" that reads the source (GitRepository shop/web): these objects "
		     "are rendered by no stage\n"
		     "s.yaml:19:39: note: the stages that read it are \"app\", \"db\"\n"
		     "s.yaml:20:38: warning: spec.models.sources[0].updates[0].objects.ap: no StageSet of the inputs "
		     "or of an apply event has a stage \"ap\" that reads the source (GitRepository shop/web): these "
		     "objects are rendered by no stage\n"
		     "s.yaml:20:38: note: the stages that read it are \"app\", \"db\"; did you mean \"app\"?\n"
		     "s.yaml:21:33: warning: spec.models.sources[1].objects.app: no StageSet of the inputs or of an "
		     "apply event has a stage \"app\" that reads the source (name other): these objects are rendered by "
		     "no stage\n"
		     "s.yaml:21:33: note: no stage reads it");
	free(diags);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_keys_world_mode(void)
{
	struct scenario s;
	char *diags;
	const char *ss = "---\napiVersion: stages.metio.wtf/v1\nkind: StageSet\nmetadata: {name: shop, namespace: t1}\n"
			 "spec:\n  stages:\n    - {name: app, sourceRef: {kind: GitRepository, name: web}}\n"
			 "    - {name: db, sourceRef: {kind: GitRepository, name: web}}\n"
			 "    - {name: job, sourceRef: {apiVersion: ci.example.com/v1, kind: Pipeline, name: build}}\n";

	fx_tmp_enter("test_stageset_world");
	/* without spec.models.sources the modelled sources are the default, and no note */
	{
		char *text = xasprintf(HEAD "spec:\n  models:\n    stagesets: {}\n%s", ss);

		CU_ASSERT_EQUAL(load(text, &s, &diags), 0);
		fx_same_text(diags, "");
		free(diags);
		scn_release(&s);
		free(text);
	}
	{
		char *text = xasprintf(HEAD "spec:\n  models:\n    stagesets:\n      migrations: [{to: 2.0.0}]\n"
					    "      rules: [{selector: {}, migrations: []}]\n"
					    "    sources: [{name: web, notReady: [{from: 1h, until: 2h}]}]\n%s",
				       ss);

		CU_ASSERT_EQUAL(load(text, &s, &diags), -1);
		fx_same_text(diags,
			     "s.yaml:8:7: error: spec.models.stagesets: Forbidden: migrations are not a model any "
			     "more: the StageSet controller runs each StageSet's own spec.migrations (or "
			     "spec.migrationsSourceRef)\n"
			     "s.yaml:8:7: note: move the ladder into the StageSets' spec.migrations, with its actions "
			     "and down actions\n"
			     "s.yaml:9:30: error: spec.models.stagesets.rules[0]: Forbidden: migrations are not a model "
			     "any more: the StageSet controller runs each StageSet's own spec.migrations (or "
			     "spec.migrationsSourceRef)\n"
			     "s.yaml:9:30: note: move the ladder into the StageSets' spec.migrations, with its actions "
			     "and down actions\n"
			     "s.yaml:1:1: note: 2 sources the StageSets name are not in the inputs and are modelled: "
			     "Ready, with a new revision at each publish that reaches a StageSet using them; "
			     "spec.models.sources makes them missing, not Ready, Forbidden or unfetchable for a while, "
			     "or gives them new revisions apart from any publish (updates)");
		free(diags);
		scn_release(&s);
		free(text);
	}
	fx_tmp_leave();
}

static void test_keys_metrics_and_regress(void)
{
	struct scenario s;
	char *diags;
	double v;
	char err[256];

	fx_tmp_enter("test_stageset_world");
	CU_ASSERT_EQUAL_FATAL(
		load(HEAD "spec:\n"
			  "  metrics:\n"
			  "    - {query: restarts, labels: {pod: a}, values: \"1x10\"}\n"
			  "    - {query: restarts, labels: {pod: b}, values: \"2x10\", unavailable: [{from: 20m}]}\n"
			  "    - {url: \"http://slo.example.com/budget\", jsonPath: \"{.remaining}\", values: \"0.4\"}\n"
			  "  events:\n"
			  "    - {at: 1h, regress: {namespace: t1, name: shop, for: 10m, effect: NotReady}}\n"
			  "---\napiVersion: stages.metio.wtf/v1\nkind: StageSet\nmetadata: {name: shop, namespace: t1}\n"
			  "spec:\n  stages: [{name: app, sourceRef: {kind: GitRepository, name: web}}]\n"
			  "  errorBudget: {source: {prometheus: {address: \"http://p:9090\", query: restarts}}, "
			  "freezeThreshold: \"0.1\"}\n",
		     &s, &diags),
		0);
	fx_same_text(diags, ""); /* the StageSet's source reads both series: no warning */
	free(diags);
	CU_ASSERT_EQUAL_FATAL(s.nseries, 3);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&s.series[1].labels, "pod"), "b");
	CU_ASSERT_STRING_EQUAL(s.series[2].url, "http://slo.example.com/budget");
	CU_ASSERT_PTR_NULL(s.series[2].query);
	CU_ASSERT_EQUAL(s.fevents[0].effect, SCN_SW_EFFECT_NOT_READY);
	CU_ASSERT_EQUAL(swg_metric_prometheus(s.series, s.nseries, "restarts", NULL, 0, &v, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err,
			       "metric source unavailable: query returned 2 samples, want exactly 1 (the query "
				    "must reduce to a single scalar)");
	CU_ASSERT_EQUAL(swg_metric_prometheus(s.series, s.nseries, "restarts", NULL, 20 * MIN, &v, err, sizeof(err)),
			-1);
	CU_ASSERT_STRING_EQUAL(err, "metric source unavailable: source returned HTTP 503");
	CU_ASSERT_EQUAL(swg_metric_webhook(s.series, s.nseries, "http://slo.example.com/budget", "{.remaining}", 0, &v,
					  err, sizeof(err)),
			0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.4, 1e-12);
	CU_ASSERT_EQUAL(swg_metric_webhook(s.series, s.nseries, "http://slo.example.com/budget", "{.remaining}",
					  10 * MIN, &v, err, sizeof(err)),
			-1);
	CU_ASSERT_STRING_EQUAL(err,
			       "metric source unavailable: jsonPath \"{.remaining}\" matched nothing: remaining is "
				    "not found");
	scn_release(&s);

	expect_load_errors(HEAD "spec:\n"
				"  metrics:\n"
				"    - {query: q, labels: {pod: a}, values: \"1\"}\n"
				"    - {query: q, labels: {pod: a}, values: \"1\"}\n"
				"    - {query: q, url: \"http://x\", values: \"1\"}\n"
				"    - {url: \"http://x\", address: \"http://p\", values: \"1\"}\n"
				"    - {query: r, jsonPath: \"{.a}\", values: \"1\"}\n"
				"    - {url: \"http://y\", values: \"1\"}\n"
				"    - {url: \"http://y\", values: \"2\"}\n",
			   "s.yaml:9:18: error: spec.metrics[2]: Invalid value: \"object\": give 'query' (a Prometheus "
			   "series) or 'url' (a webhook source's), not both\n"
			   "s.yaml:10:25: error: spec.metrics[3]: Invalid value: \"object\": 'address' goes with "
			   "'query'; a webhook entry is found by its 'url'\n"
			   "s.yaml:11:18: error: spec.metrics[4]: Invalid value: \"object\": 'jsonPath' goes with "
			   "'url'; a Prometheus entry is found by its 'query'\n"
			   "s.yaml:8:15: error: spec.metrics[1].query: Duplicate value: \"q\"\n"
			   "s.yaml:7:15: note: spec.metrics[0] gives a series for it already\n"
			   "s.yaml:13:13: error: spec.metrics[6].url: Duplicate value: \"http://y\"\n"
			   "s.yaml:12:13: note: spec.metrics[5] gives a series for it already\n"
			   "s.yaml:7:15: warning: spec.metrics[0]: no FleetRollout gate reads this series\n"
			   "s.yaml:8:15: warning: spec.metrics[1]: no FleetRollout gate reads this series\n"
			   "s.yaml:9:15: warning: spec.metrics[2]: no FleetRollout gate reads this series\n"
			   "s.yaml:11:15: warning: spec.metrics[4]: no FleetRollout gate reads this series");
	fx_tmp_leave();
}

/* The world built from a loaded scenario answers with its settings. */
static void test_world_from_scenario(void)
{
	struct scenario s;
	char *diags;
	struct sw_setup setup;
	struct sw_world *w;
	struct ss m;
	struct ssc_err err;
	const struct obj *o;
	struct ssc_wait_outcome out;
	struct ssc_apply_outcome ap;
	struct ssc_resolved ra;

	fx_tmp_enter("test_stageset_world");
	CU_ASSERT_EQUAL_FATAL(load(HEAD "spec:\n"
					"  models:\n"
					"    stagesets: {readiness: {delay: 30s}}\n"
					"    sources: [{name: web, notReady: [{from: 2h, until: 3h}]}]\n"
					"  events:\n"
					"    - {at: 1h, publish: {selector: {}, version: \"2.0.0\"}}\n"
					"    - {at: 5h, regress: {namespace: t1, name: shop, for: 10m}}\n"
					"---\napiVersion: stages.metio.wtf/v1\nkind: StageSet\n"
					"metadata: {name: shop, namespace: t1}\n"
					"spec: {stages: [{name: app, sourceRef: {kind: GitRepository, name: web}}]}\n",
				   &s, &diags),
			      0);
	free(diags);
	setup = (struct sw_setup){ &s.models.world, s.fevents, s.nfevents, s.series, s.nseries,
		 s.seed, 0,
				   s.start_unix_ms, NULL, 0 };
	w = sw_new(&setup);
	ss_init(&m, "t1", "shop", NULL,
		"{stages: [{name: app, sourceRef: {kind: GitRepository, name: web}}]}");
	sws_member_seen(w, &m.m, 0);
	o = sws_source_get(w, "", "GitRepository", "t1", "web", 2 * HOUR, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->status, "conditions.0.status"), ""), "False");
	o = sws_source_get(w, "", "GitRepository", "t1", "web", 3 * HOUR, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	memset(&ra, 0, sizeof(ra));
	snprintf(ra.key, sizeof(ra.key), "t1/web");
	ra.revision = val_str(val_path(o->status, "artifact.revision"), "");
	ra.digest = val_str(val_path(o->status, "artifact.digest"), "");
	ra.source = o;
	CU_ASSERT_STRING_EQUAL(sws_revision_version(w, &ra), "2.0.0");
	swst_apply_stage(w, &m.m, 0, &ra, 3 * HOUR, &ap);
	swst_wait_stage(w, &m.m, 0, true, 15 * MIN, 3 * HOUR, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_READY);
	CU_ASSERT_EQUAL(out.duration_ms,
			32000); /* written at 1s, Current at 31s: the poll at 32s */
	swst_wait_stage(w, &m.m, 0, true, 15 * MIN, 5 * HOUR, &out);
	CU_ASSERT_EQUAL(out.result, SSC_WAIT_FAILED);
	ss_release(&m);
	sw_free(w);
	scn_release(&s);
	fx_tmp_leave();
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "sources: a modelled source is Ready with a readable revision", test_source_modelled_ready },
		{ "sources: missing, forbidden and notReady windows", test_source_windows },
		{ "publish: a new revision carrying the version", test_publish_makes_revisions },
		{ "publish: the version it has is still a source event", test_publish_same_version },
		{ "publish: reaches StageSets created later, by namespace labels",
		  test_publish_reaches_later_and_by_namespace },
		{ "publish: matched against the labels at its time", test_publish_labels_at_event_time },
		{ "sources: a producer resolves through its modelled ExternalArtifact",
		  test_producer_resolves_through_ea },
		{ "artifact files: ladder files, version file windows, fetch errors", test_files_and_version_windows },
		{ "source updates: own revisions with their files, versions kept", test_source_updates },
		{ "source objects: per revision and stage, kept by an update of files", test_source_objects },
		{ "source updates: one before a resumed start is the snapshot's", test_source_update_before_resume },
		{ "fromObject: label, fieldPath and fetch errors in upstream's words", test_object_version },
		{ "apply: a new revision starts a rollout, the same one does not", test_apply_new_and_same_revision },
		{ "seed: a snapshot's stage runs its applied revision, ready", test_seed_stage },
		{ "apply: failures by window, rule and stage", test_apply_failures },
		{ "apply: an unwritten failure keeps the rollout; image skip", test_apply_failure_keeps_rollout_and_image_skip },
		{ "wait: ready, timeout, failed, never, with kstatus texts", test_wait_ready_timeout_failed },
		{ "readyChecks.exprs: delay, failure, in flight", test_ready_exprs },
		{ "faults: a scripted regress is noticed at the next verify", test_scripted_regress_is_noticed_at_verify },
		{ "faults: a drawn regression of a listed version, ended by another revision", test_drawn_regression },
		{ "rules: first match field by field, stage rules", test_rules_field_by_field_and_stage },
		{ "draws: common random numbers per StageSet", test_common_random_numbers },
		{ "actions: entries by name and phase, classes, rules", test_actions },
		{ "restores: every outcome with upstream's texts", test_restores },
		{ "rollback store: Put and Get by window, corrupt snapshots", test_rollback_store },
		{ "restores: the producer's GC fails a re-fetch, not the store's copy", test_restore_after_producer_gc },
		{ "metrics: several series and the querier's texts", test_metric_series },
		{ "metrics: a StageSet metric source", test_query },
		{ "pods and events: totals over time, list errors", test_pods_and_events },
		{ "anchors: exist, gone, recreated, unreadable", test_anchors },
		{ "ledgerErrors: the StageLedger and StageInventory reads fail", test_read_errors },
		{ "ledgerErrors: a resumed run moves their windows", test_read_errors_resumed },
		{ "keys: every world key read", test_keys_read },
		{ "keys: defaults, the member-model keys mapped", test_keys_defaults_and_old_keys },
		{ "keys: errors with their positions", test_keys_errors },
		{ "keys: ledgerErrors' errors with their positions", test_keys_read_errors },
		{ "keys: ledgerErrors and objects naming no StageSet or stage are told", test_keys_names },
		{ "keys: the world's mode refuses stagesets.migrations and notes the modelled sources",
		  test_keys_world_mode },
		{ "keys: several series, webhook entries, unavailable windows, regress effect",
		  test_keys_metrics_and_regress },
		{ "world: built from a loaded scenario", test_world_from_scenario },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("stageset_world", tests);
}
