/*
 * engine/stageset_resolve: Resolver.Resolve over a fake world, the cases of
 * upstream internal/artifact/resolver_test.go (named after its test
 * functions) plus the exact error texts failResolution shows (spec R-8).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_resolve.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

static struct val *yaml(const char *text)
{
	struct yl_stream s;
	struct diag d;
	struct val *v;

	diag_init(&d);
	CU_ASSERT_FATAL(yl_load_string("t", text, strlen(text), &s, &d) == 0 && s.n == 1);
	v = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	return v;
}

struct world {
	struct obj *objs[8];
	size_t n;
	enum ssc_errc get_err;   /* forced get failure */
	enum ssc_errc list_err;  /* forced list failure */
	const struct obj *listed[8];
};

static const struct obj *w_get(void *ctx, const char *api_version, const char *kind, const char *ns,
			       const char *name, int64_t at_ms, struct ssc_err *err)
{
	struct world *w = ctx;
	if (w->get_err) {
		ssc_err_set(err, w->get_err, "%s", w->get_err == SSC_ERR_FORBIDDEN ? "forbidden: no" : "etcd down");
		return NULL;
	}
	for (size_t i = 0; i < w->n; i++) {
		const struct obj *o = w->objs[i];
		if (strcmp(o->kind, kind) == 0 && strcmp(o->ns, ns) == 0 && strcmp(o->name, name) == 0 &&
		    strcmp(o->api_version, api_version) == 0)
			return o;
	}
	ssc_err_set(err, SSC_ERR_NOT_FOUND, "%s \"%s\" not found", kind, name);
	return NULL;
}

static size_t w_list(void *ctx, const char *api_version, const char *kind, const char *ns, int64_t at_ms,
		     const struct obj *const **out, struct ssc_err *err)
{
	struct world *w = ctx;
	size_t n = 0;
	if (w->list_err) {
		ssc_err_set(err, w->list_err, "list failed");
		return 0;
	}
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->objs[i]->kind, kind) == 0 && strcmp(w->objs[i]->ns, ns) == 0)
			w->listed[n++] = w->objs[i];
	*out = w->listed;
	return n;
}

static const char *ready_artifact =
	"{conditions: [{type: Ready, status: 'True', reason: Succeeded}], "
	"artifact: {url: 'http://source.flux-system.svc/ns/a/abc.tar.gz', revision: 'v1@sha256:abc', digest: 'sha256:abc'}}";

/* sourceFixture: @spec and @status YAML or NULL. */
static void add(struct world *w, const char *api_version, const char *kind, const char *ns, const char *name,
		const char *spec, const char *status)
{
	struct obj *o = obj_new(api_version, kind, ns, name);
	o->spec = spec ? yaml(spec) : NULL;
	o->status = status ? yaml(status) : NULL;
	w->objs[w->n++] = o;
}

static void add_ea(struct world *w, const char *name, const char *spec, const char *status)
{
	add(w, "source.toolkit.fluxcd.io/v1", "ExternalArtifact", "ns", name, spec, status);
}

static const char *snippet_bp(void)
{
	return "{sourceRef: {apiVersion: jaas.metio.wtf/v1, kind: JsonnetSnippet, name: dashboards}}";
}

static void w_free(struct world *w)
{
	for (size_t i = 0; i < w->n; i++)
		obj_free(w->objs[i]);
}

static int resolve(struct world *w, const char *api_version, const char *kind, const char *name, const char *ns,
		   bool no_cross, struct ssc_resolved *out, struct res_error *e)
{
	struct ssc_env env;
	struct sst_source_ref ref = { api_version, kind, name, ns };
	memset(&env, 0, sizeof(env));
	env.ctx = w;
	env.get = w_get;
	env.list = w_list;
	return res_resolve(&env, &ref, "ns", no_cross, 0, out, e);
}

static void test_direct_external_artifact(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add_ea(&w, "art1", NULL, ready_artifact);
	CU_ASSERT_FATAL(resolve(&w, "", "", "art1", "", false, &r, &e) == 0);
	CU_ASSERT_STRING_EQUAL(r.key, "ns/art1");
	CU_ASSERT_STRING_EQUAL(r.digest, "sha256:abc");
	CU_ASSERT_STRING_EQUAL(r.revision, "v1@sha256:abc");
	CU_ASSERT_EQUAL(r.verified, -1);
	CU_ASSERT_EQUAL(r.pinned, -1);
	CU_ASSERT_PTR_EQUAL(r.source, w.objs[0]);
	w_free(&w);
}

static void test_producer_back_pointer(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add_ea(&w, "snip-artifact", snippet_bp(), ready_artifact);
	CU_ASSERT_FATAL(resolve(&w, "jaas.metio.wtf/v1", "JsonnetSnippet", "dashboards", "", false, &r, &e) == 0);
	CU_ASSERT_STRING_EQUAL(r.key, "ns/snip-artifact");
	/* ProducerVersionAgnostic: v2 of the same group matches a v1 back-pointer. */
	CU_ASSERT(resolve(&w, "jaas.metio.wtf/v2", "JsonnetSnippet", "dashboards", "", false, &r, &e) == 0);
	w_free(&w);
}

static void test_not_ready(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add_ea(&w, "art1", NULL, "{conditions: [{type: Ready, status: 'False', reason: Building}]}");
	add_ea(&w, "art2", NULL, "{artifact: {url: u, digest: d}}");
	add_ea(&w, "art3", NULL, "{conditions: [{type: Other, status: 'True'}]}");
	CU_ASSERT(resolve(&w, "", "", "art1", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_SOURCE_NOT_READY);
	CU_ASSERT_STRING_EQUAL(e.msg, "ExternalArtifact ns/art1 (Ready=False reason=Building): source artifact not ready");
	CU_ASSERT(resolve(&w, "", "", "art2", "", false, &r, &e) == -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "ExternalArtifact ns/art2 (status.conditions not populated): source artifact not ready");
	CU_ASSERT(resolve(&w, "", "", "art3", "", false, &r, &e) == -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "ExternalArtifact ns/art3 (no Ready condition): source artifact not ready");
	w_free(&w);
}

static void test_direct_not_found(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	CU_ASSERT(resolve(&w, "", "", "missing", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_ARTIFACT_NOT_FOUND);
	CU_ASSERT_STRING_EQUAL(e.msg, "referenced ExternalArtifact not found: ExternalArtifact ns/missing");
	/* DirectFluxSource_Missing */
	CU_ASSERT(resolve(&w, "", "Bucket", "missing", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_ARTIFACT_NOT_FOUND);
	CU_ASSERT_STRING_EQUAL(e.msg, "referenced ExternalArtifact not found: Bucket ns/missing");
}

static void test_producer_not_found(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add_ea(&w, "other", "{sourceRef: {apiVersion: jaas.metio.wtf/v1, kind: JsonnetSnippet, name: else}}", ready_artifact);
	CU_ASSERT(resolve(&w, "jaas.metio.wtf/v1", "JsonnetSnippet", "dashboards", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_ARTIFACT_NOT_FOUND);
	CU_ASSERT_STRING_EQUAL(e.msg, "referenced ExternalArtifact not found: no ExternalArtifact in ns back-references JsonnetSnippet \"dashboards\" (jaas.metio.wtf/v1)");
	w_free(&w);
}

static void test_ambiguous_producer(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add_ea(&w, "a1", snippet_bp(), ready_artifact);
	add_ea(&w, "a2", snippet_bp(), ready_artifact);
	CU_ASSERT(resolve(&w, "jaas.metio.wtf/v1", "JsonnetSnippet", "dashboards", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_RESOLVE_FAILED);
	CU_ASSERT_STRING_EQUAL(e.msg, "producer reference resolves to multiple ExternalArtifacts: 2 ExternalArtifacts in ns back-reference JsonnetSnippet \"dashboards\"");
	w_free(&w);
}

struct xns_case { const char *name, *ref_ns; bool no_cross, want_error; };
static const struct xns_case xns_cases[] = {
	{ "cross-namespace allowed when flag unset", "other", false, false },
	{ "cross-namespace rejected when flag set", "other", true, true },
	{ "same-namespace allowed with flag set", "ns", true, false },
	{ "default-namespace ref allowed with flag set", "", true, false },
};

static void test_cross_namespace_gating(void)
{
	for (size_t i = 0; i < sizeof(xns_cases) / sizeof(xns_cases[0]); i++) {
		const struct xns_case *c = &xns_cases[i];
		struct world w = { 0 };
		struct ssc_resolved r;
		struct res_error e;
		add_ea(&w, "art1", NULL, ready_artifact);
		add(&w, "source.toolkit.fluxcd.io/v1", "ExternalArtifact", "other", "art1", NULL, ready_artifact);
		int rc = resolve(&w, "", "", "art1", c->ref_ns, c->no_cross, &r, &e);
		CU_ASSERT_EQUAL(rc, c->want_error ? -1 : 0);
		if (c->want_error) {
			CU_ASSERT_EQUAL(e.cls, RES_RESOLVE_FAILED);
			CU_ASSERT_STRING_EQUAL(e.msg, "cross-namespace source reference rejected: other/art1");
		} else {
			CU_ASSERT_STRING_EQUAL(r.key, strcmp(c->ref_ns, "other") == 0 ? "other/art1" : "ns/art1");
		}
		w_free(&w);
	}
}

static void test_direct_flux_sources(void)
{
	static const char *kinds[] = { "GitRepository", "OCIRepository", "Bucket" };
	for (size_t i = 0; i < 3; i++) {
		struct world w = { 0 };
		struct ssc_resolved r;
		struct res_error e;
		add(&w, "source.toolkit.fluxcd.io/v1", kinds[i], "ns", "repo", NULL, ready_artifact);
		CU_ASSERT(resolve(&w, "source.toolkit.fluxcd.io/v1", kinds[i], "repo", "", false, &r, &e) == 0);
		CU_ASSERT_STRING_EQUAL(r.key, "ns/repo");
		/* DirectFluxSource_DefaultAPIVersion */
		CU_ASSERT(resolve(&w, "", kinds[i], "repo", "", false, &r, &e) == 0);
		w_free(&w);
	}
}

static void test_direct_flux_source_not_ready_and_no_artifact(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add(&w, "source.toolkit.fluxcd.io/v1", "OCIRepository", "ns", "repo", NULL, NULL);
	add(&w, "source.toolkit.fluxcd.io/v1", "GitRepository", "ns", "repo", NULL,
	    "{conditions: [{type: Ready, status: 'True'}]}");
	add(&w, "source.toolkit.fluxcd.io/v1", "Bucket", "ns", "nourl", NULL,
	    "{conditions: [{type: Ready, status: 'True'}], artifact: {digest: d}}");
	add(&w, "source.toolkit.fluxcd.io/v1", "Bucket", "ns", "nodigest", NULL,
	    "{conditions: [{type: Ready, status: 'True'}], artifact: {url: u}}");
	CU_ASSERT(resolve(&w, "", "OCIRepository", "repo", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_SOURCE_NOT_READY);
	CU_ASSERT(resolve(&w, "", "GitRepository", "repo", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_ARTIFACT_NOT_FOUND);
	CU_ASSERT_STRING_EQUAL(e.msg, "source has no status.artifact yet");
	CU_ASSERT(resolve(&w, "", "Bucket", "nourl", "", false, &r, &e) == -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "source has no status.artifact yet: status.artifact.url is empty");
	CU_ASSERT(resolve(&w, "", "Bucket", "nodigest", "", false, &r, &e) == -1);
	CU_ASSERT_STRING_EQUAL(e.msg, "source has no status.artifact yet: status.artifact.digest is empty");
	w_free(&w);
}

static void test_same_name_different_group_is_producer(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add_ea(&w, "thing-artifact", "{sourceRef: {apiVersion: custom.example/v1, kind: GitRepository, name: thing}}", ready_artifact);
	CU_ASSERT_FATAL(resolve(&w, "custom.example/v1", "GitRepository", "thing", "", false, &r, &e) == 0);
	CU_ASSERT_STRING_EQUAL(r.key, "ns/thing-artifact");
	w_free(&w);
}

static void test_verified_and_pinned_state(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add(&w, "source.toolkit.fluxcd.io/v1", "OCIRepository", "ns", "dig", "{ref: {digest: 'sha256:abc'}}",
	    "{conditions: [{type: Ready, status: 'True'}, {type: SourceVerified, status: 'True'}], artifact: {url: u, digest: d}}");
	add(&w, "source.toolkit.fluxcd.io/v1", "OCIRepository", "ns", "tag", "{ref: {tag: latest}}",
	    "{conditions: [{type: Ready, status: 'True'}, {type: SourceVerified, status: 'False'}], artifact: {url: u, digest: d}}");
	add(&w, "source.toolkit.fluxcd.io/v1", "GitRepository", "ns", "commit", "{ref: {commit: deadbeef}}", ready_artifact);
	add(&w, "source.toolkit.fluxcd.io/v1", "GitRepository", "ns", "branch", "{ref: {branch: main}}", ready_artifact);
	add(&w, "source.toolkit.fluxcd.io/v1", "Bucket", "ns", "b", NULL, ready_artifact);
	CU_ASSERT(resolve(&w, "", "OCIRepository", "dig", "", false, &r, &e) == 0 && r.pinned == 1 && r.verified == 1);
	CU_ASSERT(resolve(&w, "", "OCIRepository", "tag", "", false, &r, &e) == 0 && r.pinned == 0 && r.verified == 0);
	CU_ASSERT(resolve(&w, "", "GitRepository", "commit", "", false, &r, &e) == 0 && r.pinned == 1 && r.verified == -1);
	CU_ASSERT(resolve(&w, "", "GitRepository", "branch", "", false, &r, &e) == 0 && r.pinned == 0);
	CU_ASSERT(resolve(&w, "", "Bucket", "b", "", false, &r, &e) == 0 && r.pinned == 0);
	w_free(&w);
}

static void test_producer_without_api_version_rejected(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	add_ea(&w, "snip-artifact", snippet_bp(), ready_artifact);
	CU_ASSERT(resolve(&w, "", "JsonnetSnippet", "dashboards", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_INVALID_SPEC);
	CU_ASSERT_STRING_EQUAL(e.msg, "producer sourceRef requires apiVersion: sourceRef kind \"JsonnetSnippet\" name \"dashboards\" needs apiVersion to identify the producer's API group");
	w_free(&w);
}

struct kind_case { const char *api_version, *kind; bool direct, producer; };
static const struct kind_case kind_cases[] = {
	{ "source.toolkit.fluxcd.io/v1", "GitRepository", true, false },
	{ "source.toolkit.fluxcd.io/v1", "OCIRepository", true, false },
	{ "source.toolkit.fluxcd.io/v1", "Bucket", true, false },
	{ "", "GitRepository", true, false },
	{ "custom.example/v1", "GitRepository", false, true },
	{ "source.toolkit.fluxcd.io/v1", "ExternalArtifact", false, false },
	{ "jaas.metio.wtf/v1", "JsonnetSnippet", false, true },
	{ "", "", false, false },
	{ "", "JsonnetSnippet", false, true },
};

static void test_is_direct_source_kind_and_is_producer_ref(void)
{
	for (size_t i = 0; i < sizeof(kind_cases) / sizeof(kind_cases[0]); i++) {
		struct sst_source_ref ref = { kind_cases[i].api_version, kind_cases[i].kind, "x", "" };
		CU_ASSERT_EQUAL(res_is_producer_ref(&ref), kind_cases[i].producer);
	}
	char g[64];
	CU_ASSERT_STRING_EQUAL(res_group_of("apps/v1", g, sizeof(g)), "apps");
	CU_ASSERT_STRING_EQUAL(res_group_of("v1", g, sizeof(g)), "");
	/* truncated to the buffer as snprintf truncates */
	CU_ASSERT_STRING_EQUAL(res_group_of("abcdef/v1", g, 4), "abc");
	CU_ASSERT_STRING_EQUAL(res_group_of("abc/v1", g, 4), "abc");
	CU_ASSERT_STRING_EQUAL(res_group_of("abc/v1", g, 1), "");
}

static void test_api_errors(void)
{
	struct world w = { 0 };
	struct ssc_resolved r;
	struct res_error e;
	w.get_err = SSC_ERR_FORBIDDEN;
	CU_ASSERT(resolve(&w, "", "", "art1", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_RBAC_DENIED);
	CU_ASSERT_EQUAL(e.api.code, SSC_ERR_FORBIDDEN);
	CU_ASSERT_STRING_EQUAL(e.msg, "get ExternalArtifact ns/art1: forbidden: no");
	w.get_err = SSC_ERR;
	CU_ASSERT(resolve(&w, "", "", "art1", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_API_ERROR);
	w.list_err = SSC_ERR_NO_MATCH;
	CU_ASSERT(resolve(&w, "jaas.metio.wtf/v1", "JsonnetSnippet", "d", "", false, &r, &e) == -1);
	CU_ASSERT_EQUAL(e.cls, RES_RBAC_DENIED);
	CU_ASSERT_STRING_EQUAL(e.msg, "list ExternalArtifacts in ns: list failed");
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "Resolve: direct ExternalArtifact", test_direct_external_artifact },
		{ "Resolve: producer back-pointer (version agnostic)", test_producer_back_pointer },
		{ "Resolve: not ready", test_not_ready },
		{ "Resolve: direct not found", test_direct_not_found },
		{ "Resolve: producer not found", test_producer_not_found },
		{ "Resolve: ambiguous producer", test_ambiguous_producer },
		{ "Resolve: cross-namespace gating", test_cross_namespace_gating },
		{ "Resolve: direct Flux sources", test_direct_flux_sources },
		{ "Resolve: direct Flux source not ready / ready but no artifact", test_direct_flux_source_not_ready_and_no_artifact },
		{ "Resolve: same name different group is producer", test_same_name_different_group_is_producer },
		{ "verifiedState / pinnedState", test_verified_and_pinned_state },
		{ "Resolve: producer without apiVersion rejected", test_producer_without_api_version_rejected },
		{ "isDirectSourceKind / IsProducerRef", test_is_direct_source_kind_and_is_producer_ref },
		{ "Resolve: API errors (RBAC denied, other)", test_api_errors },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("stageset_resolve", tests);
}
