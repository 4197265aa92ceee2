/*
 * engine/stageset_migrations: the upstream tests of
 * internal/controller/migrations_test.go, internal/migrations/migrations_test.go
 * and select_test.go, coverage_extra_test.go's migration cases, and the
 * version/migration envtests of spec §6.2 (T-12…T-28) as plan-level cases
 * over a fake world; plus the digest against values computed with Go's
 * encoding rules, the strict decoder's texts, and the messages of §3.1.
 * Cases are named after the upstream test functions.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_migrations.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/unit/cu_main.h"

/* ---- the fake world ------------------------------------------------------------ */

/* What the world answers; reset by fx_init(). */
static struct {
	/* artifact_file (fromArtifact) */
	const char *file_path, *file_content;
	enum ssc_errc file_err;
	int64_t file_ms;
	int nfile;
	/* object_version (fromObject) */
	const char *obj_version, *obj_err;
	bool obj_transient;
	int64_t obj_ms;
	size_t obj_stage;
	/* ladder_files */
	const char *const *lpaths, *const *lcontents;
	size_t nl;
	enum ssc_errc lerr;
	const char *lerr_msg;
	int64_t l_ms;
	int nladder;
	/* the resolver of migrationsSourceRef */
	int verified, pinned;
	enum res_class rcls;
	enum ssc_errc rapi;
	const char *rmsg, *revision, *digest;
	int nresolve;
	bool no_cross_seen;
} W;

static int artifact_file(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms, char **content,
			 int64_t *duration_ms, struct ssc_err *err)
{
	W.nfile++;
	*duration_ms = W.file_ms;
	if (W.file_err != SSC_OK) {
		err->code = W.file_err;
		snprintf(err->msg, sizeof(err->msg), "%s", W.file_err == SSC_ERR_NOT_FOUND ? "no such file" : "connection reset");
		return -1;
	}
	if (!W.file_path || strcmp(path, W.file_path) != 0) {
		err->code = SSC_ERR_NOT_FOUND;
		snprintf(err->msg, sizeof(err->msg), "no such file");
		return -1;
	}
	*content = xstrdup(W.file_content);
	return 0;
}

static int object_version(void *ctx, size_t stage, const struct ssc_resolved *ra, const char *kind, const char *name,
			  const char *api_version, const char *field_path, int64_t at_ms, char **version,
			  bool *transient, int64_t *duration_ms, struct ssc_err *err)
{
	W.obj_stage = stage;
	*duration_ms = W.obj_ms;
	if (W.obj_err) {
		*transient = W.obj_transient;
		err->code = SSC_ERR;
		snprintf(err->msg, sizeof(err->msg), "%s", W.obj_err);
		return -1;
	}
	*version = xstrdup(W.obj_version);
	return 0;
}

static size_t ladder_files(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms, char ***paths,
			   char ***contents, int64_t *duration_ms, struct ssc_err *err)
{
	W.nladder++;
	*duration_ms = W.l_ms;
	if (W.lerr != SSC_OK) {
		err->code = W.lerr;
		snprintf(err->msg, sizeof(err->msg), "%s", W.lerr_msg);
		return 0;
	}
	*paths = xcalloc(W.nl + 1, sizeof(char *));
	*contents = xcalloc(W.nl + 1, sizeof(char *));
	for (size_t i = 0; i < W.nl; i++) {
		(*paths)[i] = xstrdup(W.lpaths[i]);
		(*contents)[i] = xstrdup(W.lcontents[i]);
	}
	return W.nl;
}

/* The simulator's side of a ladder file: the project's YAML loader. */
static int parse_ladder_file(void *ctx, const char *path, const char *text, struct val **out, char *err,
			     size_t errlen)
{
	struct yl_stream s;
	struct diag d;
	int rc;

	diag_init(&d);
	*out = NULL;
	rc = yl_load_string(path, text, strlen(text), &s, &d);
	if (rc != 0) {
		char *m = diag_format_item(&d, 0);
		snprintf(err, errlen, "yaml: %s", m);
		free(m);
	} else if (s.n > 0) {
		*out = val_copy(s.docs[0].root);
	}
	yl_stream_release(&s);
	diag_release(&d);
	return rc == 0 ? 0 : -1;
}

static int fake_resolve(const struct ssc_env *env, const struct sst_source_ref *ref, const char *owner_ns,
			bool no_cross_namespace, int64_t at_ms, struct ssc_resolved *out, struct res_error *err)
{
	W.nresolve++;
	W.no_cross_seen = no_cross_namespace;
	if (W.rcls != RES_OK) {
		err->cls = W.rcls;
		err->api.code = W.rapi;
		snprintf(err->msg, sizeof(err->msg), "%s", W.rmsg);
		return -1;
	}
	out->revision = W.revision;
	out->digest = W.digest;
	out->url = "http://source/artifact.tgz";
	out->verified = W.verified;
	out->pinned = W.pinned;
	return 0;
}

static const struct ssc_env ENV = {
	.artifact_file = artifact_file,
	.object_version = object_version,
	.ladder_files = ladder_files,
	.parse_ladder_file = parse_ladder_file,
};

/* A ladder from YAML (the same decoder a sourced ladder goes through), or a failed assertion. */
static struct mig_ladder ladder_of(const char *yaml)
{
	char *paths[1] = { (char *)"ladder.yaml" }, *contents[1] = { (char *)yaml };
	struct mig_ladder l;
	char *err = mig_parse_ladder(&ENV, paths, contents, 1, &l);
	if (err)
		fprintf(stderr, "\nladder: %s\n", err);
	CU_ASSERT_PTR_NULL(err);
	free(err);
	return l;
}

/* ---- a StageSet under test ---------------------------------------------------- */

static const struct sst_stage STAGES_ANCHORED[] = {
	{ .name = "prepare", .migration_anchor = "db-pre" },
	{ .name = "rollout", .migration_anchor = "" },
};

static const struct sst_stage STAGE_A[] = { { .name = "stage-a", .migration_anchor = "" } };

struct fixture {
	struct sst_spec spec;
	struct sst_status status;
	struct obj *ss;
	struct ssc_options opt;
	struct ssc_clock clock;
	struct ssc_events ev;
	struct ssc_resolved resolved[2];
	struct mig_ctx cx;
	struct mig_ladder inline_ladder;
	struct mig_plan plan;
	struct mig_verdict v;
};

/*
 * A versioned StageSet on one stage "stage-a" at status.version @current
 * with spec.version.value @value and the inline ladder @ladder_yaml (NULL:
 * none).
 */
static void fx_init(struct fixture *f, const char *value, const char *current, const char *ladder_yaml)
{
	memset(&W, 0, sizeof(W));
	W.verified = -1;
	W.pinned = -1;
	memset(f, 0, sizeof(*f));
	f->spec.stages = STAGE_A;
	f->spec.nstages = 1;
	f->spec.has_version = true;
	f->spec.version.value = value;
	if (ladder_yaml) {
		f->inline_ladder = ladder_of(ladder_yaml);
		f->spec.migrations = f->inline_ladder.items;
		f->spec.nmigrations = f->inline_ladder.n;
	}
	f->status.version = (char *)current;
	f->ss = obj_new("stages.metio.wtf/v1", "StageSet", "team", "app");
	f->clock.now_ms = f->clock.start_ms = 1000000;
	f->cx.env = &ENV;
	f->cx.clock = &f->clock;
	f->cx.events = &f->ev;
	f->cx.ss = f->ss;
	f->cx.spec = &f->spec;
	f->cx.status = &f->status;
	f->cx.opt = &f->opt;
	f->cx.resolved = f->resolved;
	f->cx.nresolved = 2;
	f->cx.resolve = fake_resolve;
}

static void fx_release(struct fixture *f)
{
	mig_plan_release(&f->plan);
	mig_verdict_release(&f->v);
	mig_ladder_release(&f->inline_ladder);
	ssc_events_release(&f->ev);
	sst_string_list_release(&f->status.executed_migrations);
	sst_string_list_release(&f->status.executed_migration_actions);
	obj_free(f->ss);
}

static int plan(struct fixture *f)
{
	mig_plan_release(&f->plan);
	mig_verdict_release(&f->v);
	return mig_plan_version_migrations(&f->cx, &f->plan, &f->v);
}

/* The names of @n migrations, joined by "," (new). */
static char *names(const struct sst_migration *const *ms, size_t n)
{
	char buf[512] = "";
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, ms[i]->name);
	}
	return xstrdup(buf);
}

#define ASSERT_NAMES(ms, n, want)                                  \
	do {                                                       \
		char *got_ = names((ms), (n));                     \
		if (strcmp(got_, (want)) != 0)                     \
			fprintf(stderr, "\nnames %s, want %s\n", got_, (want)); \
		CU_ASSERT_STRING_EQUAL(got_, (want));              \
		free(got_);                                        \
	} while (0)

#define ASSERT_STR(got, want)                                              \
	do {                                                               \
		const char *g_ = (got), *w_ = (want);                      \
		if (!g_ || strcmp(g_, w_) != 0)                            \
			fprintf(stderr, "\n%s:%d: got  %s\n     want %s\n", __FILE__, __LINE__, g_ ? g_ : "(null)", w_); \
		CU_ASSERT_PTR_NOT_NULL(g_);                                \
		if (g_)                                                    \
			CU_ASSERT_STRING_EQUAL(g_, w_);                    \
	} while (0)

static struct ss_semver V(const char *s)
{
	struct ss_semver v;
	CU_ASSERT_EQUAL_FATAL(ss_semver_parse(s, &v, NULL, 0), SS_OK);
	return v;
}

/* ==== internal/controller/migrations_test.go ====================================== */

/* TestCoverageGap */
static void test_coverage_gap(void)
{
	static const struct {
		bool require;
		const char *cur, *des;
		size_t pending;
		bool want;
	} cases[] = {
		{ false, "1.4.0", "2.0.0", 0, false }, /* off → never gaps */
		{ true, "1.4.0", "2.0.0", 0, true },   /* major + no migration → gap */
		{ true, "1.4.0", "2.0.0", 1, false },  /* major + a migration → ok */
		{ true, "1.4.0", "1.5.0", 0, false },  /* minor + no migration → ok */
		{ true, "1.4.0", "1.4.1", 0, false },  /* patch + no migration → ok */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_semver c = V(cases[i].cur), d = V(cases[i].des);
		CU_ASSERT_EQUAL(mig_coverage_gap(cases[i].require, &c, &d, cases[i].pending), cases[i].want);
	}
}

/* TestAnchorStage */
static void test_anchor_stage(void)
{
	struct sst_spec spec = { .stages = STAGES_ANCHORED, .nstages = 2 };
	CU_ASSERT_STRING_EQUAL(mig_anchor_stage(&spec, ""), "prepare");      /* empty anchors before the first stage */
	CU_ASSERT_STRING_EQUAL(mig_anchor_stage(&spec, "db-pre"), "prepare"); /* by migrationAnchor alias */
	CU_ASSERT_STRING_EQUAL(mig_anchor_stage(&spec, "rollout"), "rollout"); /* by stage name */
	CU_ASSERT_STRING_EQUAL(mig_anchor_stage(&spec, "ghost"), "");         /* unresolved */
	/* the alias wins over a stage of that name */
	static const struct sst_stage clash[] = { { .name = "db-pre", .migration_anchor = "" },
						  { .name = "late", .migration_anchor = "db-pre" } };
	struct sst_spec spec2 = { .stages = clash, .nstages = 2 };
	CU_ASSERT_STRING_EQUAL(mig_anchor_stage(&spec2, "db-pre"), "late");
	struct sst_spec none = { 0 };
	CU_ASSERT_STRING_EQUAL(mig_anchor_stage(&none, ""), "");
}

/* TestResolveAnchors */
static void test_resolve_anchors(void)
{
	struct sst_spec spec = { .stages = STAGES_ANCHORED, .nstages = 2 };
	struct mig_ladder l = ladder_of("- {name: a, to: 1.0.0, stage: db-pre}\n"
					"- {name: b, to: 1.0.0, stage: rollout}\n"
					"- {name: c, to: 1.0.0}\n"
					"- {name: x, to: 1.0.0, stage: ghost}\n");
	const struct sst_migration *pend[3] = { &l.items[0], &l.items[1], &l.items[2] };
	struct mig_plan p = { 0 };
	struct mig_verdict v = { 0 };
	size_t n;

	/* resolves alias, name, and empty (empty anchors to first stage) */
	p.pending = pend;
	p.npending = 3;
	CU_ASSERT_EQUAL(mig_resolve_anchors(&spec, &p, &v), MIG_PROCEED);
	const struct sst_migration *const *got = mig_plan_for_stage(&p, "prepare", &n);
	ASSERT_NAMES(got, n, "a,c");
	got = mig_plan_for_stage(&p, "rollout", &n);
	ASSERT_NAMES(got, n, "b");
	CU_ASSERT_PTR_NULL(mig_plan_for_stage(&p, "nowhere", &n));
	CU_ASSERT_EQUAL(n, 0);

	/* unresolved anchor fails closed */
	const struct sst_migration *ghost[1] = { &l.items[3] };
	p.pending = ghost;
	p.npending = 1;
	CU_ASSERT_EQUAL(mig_resolve_anchors(&spec, &p, &v), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(v.reason, MIG_REASON_MIGRATION_STAGE_NOT_FOUND);
	ASSERT_STR(v.message, "migration \"x\" anchors to \"ghost\", which matches no stage name or migrationAnchor");
	p.pending = NULL;
	p.npending = 0;
	mig_plan_release(&p);
	mig_verdict_release(&v);
	mig_ladder_release(&l);
}

/* TestPendingDetails */
static void test_pending_details(void)
{
	struct sst_spec spec = { .stages = STAGES_ANCHORED, .nstages = 2 };
	struct mig_ladder l = ladder_of("name: drop\nto: \"2.0.0\"\nfrom: \"1.x\"\nstage: db-pre\n"
					"actions:\n- {name: del, delete: {}}\n- {name: hold, wait: {}}\n"
					"down:\n- {name: undo, apply: {sourceRef: {name: ea}}}\n");
	const struct sst_migration *pend[1] = { &l.items[0] };
	struct mig_plan p = { .pending = pend, .npending = 1 };
	struct sst_pending_migration *d;
	size_t n;
	char dig[13];

	mig_pending_details(&p, &spec, &d, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(d[0].name, "drop");
	CU_ASSERT_STRING_EQUAL(d[0].to, "2.0.0");
	CU_ASSERT_STRING_EQUAL(d[0].from, "1.x");
	CU_ASSERT_STRING_EQUAL(d[0].stage, "prepare"); /* the db-pre anchor resolves to the concrete stage */
	CU_ASSERT_EQUAL_FATAL(d[0].actions.n, 2);
	CU_ASSERT_STRING_EQUAL(d[0].actions.items[0], "delete");
	CU_ASSERT_STRING_EQUAL(d[0].actions.items[1], "wait");
	CU_ASSERT_STRING_EQUAL(d[0].digest, mig_migration_digest(&l.items[0], dig));
	CU_ASSERT_STRING_EQUAL(d[0].digest, "c84f531b2017"); /* sha256 of Go's JSON of it, computed apart */
	mig_pending_migration_release(&d[0]);
	free(d);

	/* a downgrade previews the down verbs */
	p.downgrade = true;
	mig_pending_details(&p, &spec, &d, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL_FATAL(d[0].actions.n, 1);
	CU_ASSERT_STRING_EQUAL(d[0].actions.items[0], "apply");
	mig_pending_migration_release(&d[0]);
	free(d);

	/* nothing pending: no entries */
	p.npending = 0;
	mig_pending_details(&p, &spec, &d, &n);
	CU_ASSERT_PTR_NULL(d);
	CU_ASSERT_EQUAL(n, 0);
	mig_ladder_release(&l);
}

/* TestResolveMigrationLadder_Inline */
static void test_resolve_migration_ladder_inline(void)
{
	struct fixture f;
	struct mig_ladder l;
	char *rev, *dig;

	fx_init(&f, "2.0.0", "1.0.0", "- {name: a, to: 2.0.0, stage: deploy}\n");
	CU_ASSERT_EQUAL_FATAL(mig_resolve_migration_ladder(&f.cx, &l, &rev, &dig, &f.v), MIG_PROCEED);
	CU_ASSERT_EQUAL(l.n, 1);
	CU_ASSERT_PTR_EQUAL(l.items, f.spec.migrations); /* returned verbatim */
	CU_ASSERT_PTR_NULL(l.owned_);
	CU_ASSERT_STRING_EQUAL(rev, ""); /* no source provenance */
	CU_ASSERT_STRING_EQUAL(dig, "");
	CU_ASSERT_EQUAL(W.nresolve, 0);
	free(rev);
	free(dig);
	mig_ladder_release(&l);
	fx_release(&f);
}

/* TestResolveMigrationLadder_InlineDuplicateNameRejected */
static void test_resolve_migration_ladder_inline_duplicate_name_rejected(void)
{
	struct fixture f;
	struct mig_ladder l;
	char *rev, *dig;

	fx_init(&f, "2.0.0", "1.0.0", "- {name: cleanup, to: 1.5.0}\n- {name: cleanup, to: 2.0.0}\n");
	CU_ASSERT_EQUAL(mig_resolve_migration_ladder(&f.cx, &l, &rev, &dig, &f.v), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, MIG_REASON_INVALID_SPEC);
	ASSERT_STR(f.v.message, "duplicate migration name \"cleanup\"; names are the idempotency-ledger key and must "
				"be unique");
	CU_ASSERT_EQUAL(l.n, 0); /* no ladder on rejection */
	fx_release(&f);
}

/* TestMigrationSourceSuffix */
static void test_migration_source_suffix(void)
{
	struct mig_plan p = { 0 };
	char *s = mig_migration_source_suffix(NULL);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	p.source_revision = (char *)"";
	p.source_digest = (char *)"";
	s = mig_migration_source_suffix(&p);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	p.source_revision = (char *)"main@sha1:abc";
	p.source_digest = (char *)"sha256:deadbeef";
	s = mig_migration_source_suffix(&p);
	CU_ASSERT_STRING_EQUAL(s, " from source revision main@sha1:abc (artifact sha256:deadbeef)");
	free(s);
}

/* TestMigrationDigest, and the digest of Go's json.Marshal bytes */
static void test_migration_digest(void)
{
	static const struct {
		const char *yaml, *json, *digest;
	} cases[] = {
		{ "name: m\nto: \"2.0.0\"\nactions: [{name: a, delete: {}}]\n",
		  "{\"name\":\"m\",\"to\":\"2.0.0\",\"actions\":[{\"name\":\"a\",\"delete\":{\"target\":{\"kind\":\"\",\"name\":\"\"}}}]}",
		  "79f137df08bd" },
		{ "name: m\nto: \"2.0.0\"\nactions: [{name: a, wait: {}}]\n",
		  "{\"name\":\"m\",\"to\":\"2.0.0\",\"actions\":[{\"name\":\"a\",\"wait\":{}}]}", "7898492e7e21" },
		{ "name: \"drop<&>\"\nto: \"2.0.0\"\nfrom: \">=1.0.0, <2.0.0\"\nstage: db\n"
		  "actions:\n"
		  "  - name: p\n    timeout: 90s\n    retries: 3\n    patch:\n"
		  "      target: {kind: Deployment, name: web, selector: {matchLabels: {b: \"2\", a: \"1\"},"
		  " matchExpressions: [{key: k, operator: In, values: [x]}]}}\n"
		  "      patch: '{\"spec\":{}}'\n"
		  "  - name: h\n    http: {url: \"https://x/y?a=1&b=2\", method: POST, headersFrom: [{name: s, key: k}],"
		  " expectedStatus: [200, 204]}\n"
		  "  - name: w\n    wait: {duration: 1000ms, expr: \"a < b\", timeout: 1.5h}\n"
		  "down:\n"
		  "  - name: j\n    job: {sourceRef: {name: ea}, path: ./jobs}\n"
		  "  - name: ap\n    apply: {sourceRef: {kind: ExternalArtifact, name: ea2}, wait: true}\n",
		  "{\"name\":\"drop\\u003c\\u0026\\u003e\",\"to\":\"2.0.0\",\"from\":\"\\u003e=1.0.0, \\u003c2.0.0\",\"stage\":\"db\","
		  "\"actions\":[{\"name\":\"p\",\"timeout\":\"1m30s\",\"retries\":3,\"patch\":{\"target\":{\"kind\":\"Deployment\","
		  "\"name\":\"web\",\"selector\":{\"matchLabels\":{\"a\":\"1\",\"b\":\"2\"},\"matchExpressions\":[{\"key\":\"k\","
		  "\"operator\":\"In\",\"values\":[\"x\"]}]}},\"patch\":\"{\\\"spec\\\":{}}\"}},{\"name\":\"h\",\"http\":{\"url\":"
		  "\"https://x/y?a=1\\u0026b=2\",\"method\":\"POST\",\"headersFrom\":[{\"name\":\"s\",\"key\":\"k\"}],"
		  "\"expectedStatus\":[200,204]}},{\"name\":\"w\",\"wait\":{\"duration\":\"1s\",\"expr\":\"a \\u003c b\","
		  "\"timeout\":\"1h30m0s\"}}],\"down\":[{\"name\":\"j\",\"job\":{\"sourceRef\":{\"name\":\"ea\"},\"path\":"
		  "\"./jobs\"}},{\"name\":\"ap\",\"apply\":{\"sourceRef\":{\"kind\":\"ExternalArtifact\",\"name\":\"ea2\"},"
		  "\"wait\":true}}]}",
		  "df808d50c56e" },
		{ "name: \"caf\\u00e9\\tx\"\nto: v1.2\nactions:\n  - name: a\n    scope: Version\n"
		  "    completionAnchor: {apiVersion: v1, kind: PVC, name: d}\n"
		  "    delete: {target: {apiVersion: v1, kind: ConfigMap, name: legacy, namespace: ns}, cascade: Orphan}\n",
		  "{\"name\":\"caf\xc3\xa9\\tx\",\"to\":\"v1.2\",\"actions\":[{\"name\":\"a\",\"scope\":\"Version\",\"delete\":"
		  "{\"target\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"legacy\",\"namespace\":\"ns\"},"
		  "\"cascade\":\"Orphan\"},\"completionAnchor\":{\"apiVersion\":\"v1\",\"kind\":\"PVC\",\"name\":\"d\"}}]}",
		  "4e5e227f5fad" },
	};
	char a[13], b[13];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mig_ladder l = ladder_of(cases[i].yaml);
		CU_ASSERT_EQUAL_FATAL(l.n, 1);
		char *json = mig_migration_json(&l.items[0]);
		ASSERT_STR(json, cases[i].json);
		free(json);
		CU_ASSERT_STRING_EQUAL(mig_migration_digest(&l.items[0], a), cases[i].digest);
		char *key = mig_migration_key(&l.items[0]);
		char *want = xasprintf("%s@%s", l.items[0].name, cases[i].digest);
		CU_ASSERT_STRING_EQUAL(key, want);
		free(key);
		free(want);
		mig_ladder_release(&l);
	}
	/* stable for identical content; changes when the action content changes */
	struct mig_ladder l1 = ladder_of(cases[0].yaml), l2 = ladder_of(cases[0].yaml), l3 = ladder_of(cases[1].yaml);
	CU_ASSERT_STRING_EQUAL(mig_migration_digest(&l1.items[0], a), mig_migration_digest(&l2.items[0], b));
	CU_ASSERT_STRING_NOT_EQUAL(mig_migration_digest(&l1.items[0], a), mig_migration_digest(&l3.items[0], b));
	mig_ladder_release(&l1);
	mig_ladder_release(&l2);
	mig_ladder_release(&l3);

	/* an inline migration as the API server stores it: unknown fields ignored, the same bytes */
	struct val *raw = val_new_map();
	val_map_set(raw, "to", val_new_string("2.0.0"));
	val_map_set(raw, "name", val_new_string("m"));
	val_map_set(raw, "x-extra", val_new_string("ignored"));
	struct val *acts = val_map_set(raw, "actions", val_new_list());
	struct val *act = val_list_push(acts, val_new_map());
	val_map_set(act, "delete", val_new_map());
	val_map_set(act, "name", val_new_string("a"));
	val_map_set(act, "timeout", val_new_null());
	struct sst_migration m = { .name = "m", .to = "2.0.0", .raw = raw };
	CU_ASSERT_STRING_EQUAL(mig_migration_digest(&m, a), "79f137df08bd");

	/* deviation 1: a value the Go type cannot hold (refused at admission) marshals as the zero value */
	val_map_set(act, "retries", val_new_string("3"));
	val_map_set(act, "timeout", val_new_string("soon"));
	val_map_set(raw, "stage", val_new_int(7));
	char *json = mig_migration_json(&m);
	ASSERT_STR(json, "{\"name\":\"m\",\"to\":\"2.0.0\",\"actions\":[{\"name\":\"a\",\"timeout\":\"soon\","
			 "\"retries\":0,\"delete\":{\"target\":{\"kind\":\"\",\"name\":\"\"}}}]}");
	free(json);
	val_free(raw);
}

/* TestCheckMigrationSourceVerified */
static void test_check_migration_source_verified(void)
{
	static const struct {
		int verified;
		bool require, fail;
	} cases[] = {
		{ -1, false, false }, /* unset, not required → ok */
		{ -1, true, true },   /* unset, required → fail */
		{ 1, false, false },  /* verified true → ok */
		{ 1, true, false },   /* verified true, required → ok */
		{ 0, false, true },   /* verified false → always fail */
		{ 0, true, true },    /* verified false, required → fail */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ssc_options o = { .require_verified_migration_sources = cases[i].require };
		CU_ASSERT_EQUAL(mig_check_migration_source_verified(&o, cases[i].verified) != NULL, cases[i].fail);
	}
}

/* TestCheckMigrationSourcePinned (and the MigrationSourceMutable warning) */
static void test_check_migration_source_pinned(void)
{
	static const struct {
		int pinned;
		bool require, fail, warns;
	} cases[] = {
		{ -1, false, false, false }, /* exempt (nil), not required → ok */
		{ -1, true, false, false },  /* exempt (nil), required → ok */
		{ 1, true, false, false },   /* pinned, required → ok */
		{ 0, false, false, true },   /* mutable, not required → ok (warns) */
		{ 0, true, true, false },    /* mutable, required → fail */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ssc_options o = { .require_pinned_migration_sources = cases[i].require };
		struct ssc_clock clk = { .now_ms = 42000 };
		struct ssc_events ev = { 0 };
		CU_ASSERT_EQUAL(mig_check_migration_source_pinned(&o, cases[i].pinned, &clk, &ev) != NULL, cases[i].fail);
		CU_ASSERT_EQUAL(ev.n, cases[i].warns ? 1u : 0u);
		if (ev.n) {
			CU_ASSERT_TRUE(ev.items[0].warning);
			CU_ASSERT_EQUAL(ev.items[0].at_ms, 42000);
			CU_ASSERT_STRING_EQUAL(ev.items[0].reason, "MigrationSourceMutable");
			CU_ASSERT_STRING_EQUAL(ev.items[0].note,
					       "migrations source is pinned to a mutable tag/branch; an upstream overwrite "
					       "can auto-roll new destructive content \xe2\x80\x94 pin to a digest/commit");
		}
		ssc_events_release(&ev);
	}
}

/* TestLadderHasHTTP */
static void test_ladder_has_http(void)
{
	static const struct {
		const char *yaml;
		bool want;
	} cases[] = {
		{ "- {name: a, to: 1.0.0, actions: [{name: x, delete: {}}]}\n", false }, /* no http anywhere */
		{ "- {name: a, to: 1.0.0, actions: [{name: x, http: {}}]}\n", true },   /* http in actions */
		{ "- {name: a, to: 1.0.0, actions: [{name: x, delete: {}}], down: [{name: y, http: {}}]}\n",
		  true }, /* http only in down */
		{ "- {name: a, to: 1.0.0, actions: [{name: x, wait: {}}]}\n"
		  "- {name: b, to: 1.0.0, down: [{name: y, http: {}}]}\n",
		  true }, /* http in down of a later migration */
		{ "- {name: a, to: 1.0.0, actions: [{name: x, http: null, wait: {}}]}\n", false }, /* null is unset */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mig_ladder l = ladder_of(cases[i].yaml);
		CU_ASSERT_EQUAL(mig_ladder_has_http(l.items, l.n), cases[i].want);
		mig_ladder_release(&l);
	}
}

/* TestActionsDoneFor */
static void test_actions_done_for(void)
{
	char *items[] = { (char *)"m@abc/a", (char *)"m@abc/b", (char *)"other@xyz/a", (char *)"m@def/a",
			  (char *)"m@abcd/c" };
	struct sst_string_list ledger = { items, 5 };
	struct mig_name_set done;

	mig_actions_done_for(&ledger, "m@abc", &done);
	CU_ASSERT_EQUAL(done.n, 2);
	CU_ASSERT_TRUE(mig_name_set_has(&done, "a"));
	CU_ASSERT_TRUE(mig_name_set_has(&done, "b"));
	CU_ASSERT_FALSE(mig_name_set_has(&done, "other"));
	CU_ASSERT_FALSE(mig_name_set_has(&done, "c"));
	mig_name_set_release(&done);
}

/* fakeExecutor: skips done actions, records each it runs, fails on names in fail_on. */
struct fake_executor {
	const char *fail_on;  /* one action name, or NULL */
	char ran[256];        /* names run, comma-joined */
	int calls;
	bool first_done_a;    /* the done set of the first call held "a" */
	int64_t ms_per_action;
	struct ssc_clock *clk;
};

static int fake_run(void *arg, const struct sst_actions *acts, act_done_fn done, const void *done_arg,
		    act_record_fn record, void *record_arg, struct ssc_err *err)
{
	struct fake_executor *fe = arg;

	if (fe->calls++ == 0)
		fe->first_done_a = done(done_arg, "a");
	for (size_t i = 0; i < acts->n; i++) {
		const char *name = acts->items[i].name;
		if (done(done_arg, name))
			continue;
		if (fe->clk)
			fe->clk->now_ms += fe->ms_per_action;
		if (fe->fail_on && strcmp(name, fe->fail_on) == 0) {
			err->code = SSC_ERR;
			snprintf(err->msg, sizeof(err->msg), "action \"%s\": action %s failed", name, name);
			return -1;
		}
		if (fe->ran[0])
			strcat(fe->ran, ",");
		strcat(fe->ran, name);
		if (record && record(record_arg, name, err) != 0)
			return -1;
	}
	return 0;
}

static const char THREE_ACTIONS[] = "name: m\nto: \"2.0.0\"\nstage: deploy\n"
				    "actions: [{name: a, delete: {}}, {name: b, delete: {}}, {name: c, delete: {}}]\n";

static const struct sst_stage STAGE_DEPLOY[] = { { .name = "deploy", .migration_anchor = "" } };

/* threeActionPlan: one migration of three actions anchored to "deploy". */
static void three_action_plan(struct mig_ladder *l, struct mig_plan *p)
{
	static const struct sst_migration *pend[1];
	struct sst_spec spec = { .stages = STAGE_DEPLOY, .nstages = 1 };
	struct mig_verdict v = { 0 };

	*l = ladder_of(THREE_ACTIONS);
	pend[0] = &l->items[0];
	memset(p, 0, sizeof(*p));
	p->version_set = true;
	p->pending = xcalloc(1, sizeof(*p->pending));
	p->pending[0] = pend[0];
	p->npending = 1;
	p->source_revision = xstrdup("");
	p->source_digest = xstrdup("");
	CU_ASSERT_EQUAL(mig_resolve_anchors(&spec, p, &v), MIG_PROCEED);
}

static void status_release(struct sst_status *st)
{
	sst_string_list_release(&st->executed_migrations);
	sst_string_list_release(&st->executed_migration_actions);
}

/* TestRunStageMigrations_PerActionIdempotency */
static void test_run_stage_migrations_per_action_idempotency(void)
{
	struct mig_ladder l;
	struct mig_plan p;
	struct sst_status st = { 0 };
	struct ssc_clock clk = { .now_ms = 5000 };
	struct ssc_events ev = { 0 };
	struct ssc_err err = { 0 };
	struct mig_name_set done;

	three_action_plan(&l, &p);
	char *key = mig_migration_key(&l.items[0]);

	/* run 1: action b fails; a completed and is recorded; b and c are not */
	struct fake_executor fe1 = { .fail_on = "b", .clk = &clk, .ms_per_action = 1000 };
	struct mig_executor ex1 = { fake_run, &fe1 };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "deploy", &p, &ex1, &clk, &ev, &err), -1);
	ASSERT_STR(err.msg, "migration \"m\": action \"b\": action b failed");
	mig_actions_done_for(&st.executed_migration_actions, key, &done);
	CU_ASSERT_EQUAL(done.n, 1);
	CU_ASSERT_TRUE(mig_name_set_has(&done, "a"));
	mig_name_set_release(&done);
	CU_ASSERT_EQUAL(st.executed_migrations.n, 0); /* a failed migration is not marked done */
	CU_ASSERT_EQUAL_FATAL(ev.n, 2);
	CU_ASSERT_STRING_EQUAL(ev.items[0].reason, "MigrationStarted");
	CU_ASSERT_STRING_EQUAL(ev.items[0].note, "migration \"m\" (to 2.0.0) starting");
	CU_ASSERT_EQUAL(ev.items[0].at_ms, 5000);
	CU_ASSERT_FALSE(ev.items[0].warning);
	CU_ASSERT_STRING_EQUAL(ev.items[1].reason, "MigrationFailed");
	CU_ASSERT_STRING_EQUAL(ev.items[1].note, "migration \"m\" failed: action \"b\": action b failed");
	CU_ASSERT_TRUE(ev.items[1].warning);
	CU_ASSERT_EQUAL(ev.items[1].at_ms, 7000); /* after a and the failing b */

	/* run 2 (retry): a is skipped, only b and c run, and the migration is marked done */
	struct fake_executor fe2 = { 0 };
	struct mig_executor ex2 = { fake_run, &fe2 };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "deploy", &p, &ex2, &clk, &ev, &err), 0);
	CU_ASSERT_TRUE(fe2.first_done_a);
	CU_ASSERT_STRING_EQUAL(fe2.ran, "b,c");
	CU_ASSERT_TRUE(sst_string_list_has(&st.executed_migrations, key));
	CU_ASSERT_EQUAL(st.executed_migration_actions.n, 3);
	CU_ASSERT_STRING_EQUAL(ev.items[ev.n - 1].reason, "MigrationCompleted");
	CU_ASSERT_STRING_EQUAL(ev.items[ev.n - 1].note, "migration \"m\" (to 2.0.0) completed");

	/* other stages have nothing anchored */
	struct fake_executor fe3 = { 0 };
	struct mig_executor ex3 = { fake_run, &fe3 };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "other", &p, &ex3, &clk, &ev, &err), 0);
	CU_ASSERT_EQUAL(fe3.calls, 0);

	free(key);
	ssc_events_release(&ev);
	status_release(&st);
	mig_plan_release(&p);
	mig_ladder_release(&l);
}

/* TestRunStageMigrations_FullyDoneSkipped */
static void test_run_stage_migrations_fully_done_skipped(void)
{
	struct mig_ladder l;
	struct mig_plan p;
	struct sst_status st = { 0 };
	struct ssc_clock clk = { 0 };
	struct ssc_events ev = { 0 };
	struct ssc_err err = { 0 };

	three_action_plan(&l, &p);
	char *key = mig_migration_key(&l.items[0]);
	sst_string_list_push(&st.executed_migrations, key);
	struct fake_executor fe = { 0 };
	struct mig_executor ex = { fake_run, &fe };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "deploy", &p, &ex, &clk, &ev, &err), 0);
	CU_ASSERT_EQUAL(fe.calls, 0);
	CU_ASSERT_STRING_EQUAL(fe.ran, "");
	CU_ASSERT_EQUAL(ev.n, 0);
	/* a baselining plan runs nothing at all */
	sst_string_list_release(&st.executed_migrations);
	p.baseline = true;
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "deploy", &p, &ex, &clk, &ev, &err), 0);
	CU_ASSERT_EQUAL(fe.calls, 0);
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "deploy", NULL, &ex, &clk, &ev, &err), 0);
	free(key);
	status_release(&st);
	mig_plan_release(&p);
	mig_ladder_release(&l);
}

/* TestRunStageMigrations_ContentChangeReRuns (and the stale entries pruned after it) */
static void test_run_stage_migrations_content_change_re_runs(void)
{
	struct mig_ladder l;
	struct mig_plan p;
	struct sst_status st = { 0 };
	struct ssc_clock clk = { 0 };
	struct ssc_events ev = { 0 };
	struct ssc_err err = { 0 };

	three_action_plan(&l, &p);
	sst_string_list_push(&st.executed_migrations, "m@stale0000000");
	sst_string_list_push(&st.executed_migration_actions, "m@stale0000000/a");
	struct fake_executor fe = { 0 };
	struct mig_executor ex = { fake_run, &fe };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "deploy", &p, &ex, &clk, &ev, &err), 0);
	CU_ASSERT_STRING_EQUAL(fe.ran, "a,b,c"); /* a changed migration re-runs all actions */
	char *key = mig_migration_key(&l.items[0]);
	CU_ASSERT_EQUAL_FATAL(st.executed_migrations.n, 1);
	CU_ASSERT_STRING_EQUAL(st.executed_migrations.items[0], key);
	CU_ASSERT_EQUAL(st.executed_migration_actions.n, 3);
	for (size_t i = 0; i < st.executed_migration_actions.n; i++)
		CU_ASSERT_PTR_NULL(strstr(st.executed_migration_actions.items[i], "stale"));
	free(key);
	ssc_events_release(&ev);
	status_release(&st);
	mig_plan_release(&p);
	mig_ladder_release(&l);
}

/* runStageDowngrades: down actions under <key>/down/<action>, "rollback of" events, no pruning */
static void test_run_stage_downgrades(void)
{
	struct mig_ladder l = ladder_of("name: schema-2\nto: \"2.0.0\"\nactions: [{name: up, delete: {}}]\n"
					"down: [{name: r1, delete: {}}, {name: r2, delete: {}}]\n");
	struct sst_spec spec = { .stages = STAGE_A, .nstages = 1 };
	struct mig_plan p = { .version_set = true, .downgrade = true };
	struct mig_verdict v = { 0 };
	struct sst_status st = { 0 };
	struct ssc_clock clk = { 0 };
	struct ssc_events ev = { 0 };
	struct ssc_err err = { 0 };

	p.pending = xcalloc(1, sizeof(*p.pending));
	p.pending[0] = &l.items[0];
	p.npending = 1;
	p.source_revision = xstrdup("main@sha1:0123");
	p.source_digest = xstrdup("sha256:feed");
	CU_ASSERT_EQUAL(mig_resolve_anchors(&spec, &p, &v), MIG_PROCEED);
	char *key = mig_migration_key(&l.items[0]);
	char *stale = xasprintf("schema-2@000000000000");
	sst_string_list_push(&st.executed_migrations, stale);

	struct fake_executor fe1 = { .fail_on = "r2" };
	struct mig_executor ex1 = { fake_run, &fe1 };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "stage-a", &p, &ex1, &clk, &ev, &err), -1);
	ASSERT_STR(err.msg, "rollback of migration \"schema-2\": action \"r2\": action r2 failed");
	char *want = xasprintf("%s/down/r1", key);
	CU_ASSERT_EQUAL_FATAL(st.executed_migration_actions.n, 1);
	CU_ASSERT_STRING_EQUAL(st.executed_migration_actions.items[0], want);
	CU_ASSERT_EQUAL_FATAL(ev.n, 2);
	CU_ASSERT_STRING_EQUAL(ev.items[0].note, "rollback of migration \"schema-2\" (to 2.0.0) starting from source "
						 "revision main@sha1:0123 (artifact sha256:feed)");
	CU_ASSERT_STRING_EQUAL(ev.items[1].note, "rollback of migration \"schema-2\" failed: action \"r2\": action r2 failed");

	struct fake_executor fe2 = { 0 };
	struct mig_executor ex2 = { fake_run, &fe2 };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&st, "stage-a", &p, &ex2, &clk, &ev, &err), 0);
	CU_ASSERT_STRING_EQUAL(fe2.ran, "r2"); /* r1 is not reversed twice; `up` never runs */
	CU_ASSERT_EQUAL(st.executed_migrations.n, 2); /* the stale entry stays: a downgrade prunes nothing */
	CU_ASSERT_TRUE(sst_string_list_has(&st.executed_migrations, key));
	CU_ASSERT_STRING_EQUAL(ev.items[ev.n - 1].note, "rollback of migration \"schema-2\" (to 2.0.0) completed from "
							 "source revision main@sha1:0123 (artifact sha256:feed)");
	free(want);
	free(stale);
	free(key);
	ssc_events_release(&ev);
	status_release(&st);
	mig_plan_release(&p);
	mig_verdict_release(&v);
	mig_ladder_release(&l);
}

/* TestPruneSupersededLedger, TestMigEntryName_Variants */
static void test_prune_superseded_ledger(void)
{
	struct sst_status st = { 0 };
	const char *migs[] = { "add-col@old", "add-col@new", "drop-tbl@z", "add-col", "@only-digest", "a@b@c" };
	const char *acts[] = { "add-col@old/sql", "add-col@new/sql", "drop-tbl@z/sql", "add-col@old" };

	for (size_t i = 0; i < 6; i++)
		sst_string_list_push(&st.executed_migrations, migs[i]);
	for (size_t i = 0; i < 4; i++)
		sst_string_list_push(&st.executed_migration_actions, acts[i]);
	mig_prune_superseded_ledger(&st, "add-col", "add-col@new");
	/* "add-col" has no digest: its name is all of it, and it is not the kept key */
	CU_ASSERT_EQUAL_FATAL(st.executed_migrations.n, 4);
	CU_ASSERT_STRING_EQUAL(st.executed_migrations.items[0], "add-col@new");
	CU_ASSERT_STRING_EQUAL(st.executed_migrations.items[1], "drop-tbl@z");
	CU_ASSERT_STRING_EQUAL(st.executed_migrations.items[2], "@only-digest");
	CU_ASSERT_STRING_EQUAL(st.executed_migrations.items[3], "a@b@c");
	CU_ASSERT_EQUAL_FATAL(st.executed_migration_actions.n, 2);
	CU_ASSERT_STRING_EQUAL(st.executed_migration_actions.items[0], "add-col@new/sql");
	CU_ASSERT_STRING_EQUAL(st.executed_migration_actions.items[1], "drop-tbl@z/sql");
	/* migEntryName("@only-digest") is "", "a@b@c" is "a" */
	mig_prune_superseded_ledger(&st, "", "@keep");
	CU_ASSERT_EQUAL(st.executed_migrations.n, 3);
	mig_prune_superseded_ledger(&st, "a", "a@x");
	CU_ASSERT_EQUAL(st.executed_migrations.n, 2);
	status_release(&st);
}

/* ==== internal/migrations/migrations_test.go and select_test.go ====================== */

/* TestSelectDown */
static void test_select_down(void)
{
	struct mig_ladder l = ladder_of("- {name: m12, to: 1.2.0, down: [{name: d, wait: {expr: 'true'}}]}\n"
					"- {name: m13, to: 1.3.0, down: [{name: d, wait: {expr: 'true'}}]}\n"
					"- {name: m14, to: 1.4.0, down: [{name: d, wait: {expr: 'true'}}]}\n");
	static const struct {
		const char *cur, *des, *want;
	} cases[] = {
		{ "1.5.0", "1.1.0", "m14,m13,m12" }, /* full unwind is descending */
		{ "1.5.0", "1.3.0", "m14" },         /* landing at a boundary keeps it */
		{ "1.3.0", "1.3.0", "" },            /* no change selects nothing */
		{ "1.1.0", "1.5.0", "" },            /* an upgrade selects nothing */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_semver c = V(cases[i].cur), d = V(cases[i].des);
		const struct sst_migration **out;
		size_t n;
		CU_ASSERT_PTR_NULL(mig_select_down(l.items, l.n, &c, &d, &out, &n));
		ASSERT_NAMES(out, n, cases[i].want);
		free(out);
	}
	/* equal targets keep ladder order */
	struct mig_ladder l2 = ladder_of("- {name: a, to: 2.0.0}\n- {name: b, to: 3.0.0}\n- {name: c, to: 2.0.0}\n");
	struct ss_semver c = V("3.0.0"), d = V("1.0.0");
	const struct sst_migration **out;
	size_t n;
	CU_ASSERT_PTR_NULL(mig_select_down(l2.items, l2.n, &c, &d, &out, &n));
	ASSERT_NAMES(out, n, "b,a,c");
	free(out);
	mig_ladder_release(&l2);
	mig_ladder_release(&l);
}

/* TestValidateMigration_DownActions */
static void test_validate_migration_down_actions(void)
{
	static const struct {
		const char *down;
		const char *err; /* NULL: valid */
	} cases[] = {
		/* a well-formed down set validates */
		{ "[{name: undo, wait: {expr: 'true'}}]", NULL },
		/* a down action with no verb is rejected */
		{ "[{name: undo}]", "migration \"m\" down action \"undo\": exactly one verb must be set, found 0" },
		/* a down action setting scope is rejected */
		{ "[{name: undo, scope: Version, wait: {expr: 'true'}}]",
		  "migration \"m\" down action \"undo\" sets scope; scope is valid only on a stage's pre/post actions "
		  "\xe2\x80\x94 a migration action is already keyed to its version transition by the migration ledger" },
		/* a name reused across up and down is allowed */
		{ "[{name: up, wait: {expr: 'true'}}]", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *yaml = xasprintf("name: m\nto: 1.3.0\nactions: [{name: up, wait: {expr: 'true'}}]\ndown: %s\n",
				       cases[i].down);
		struct mig_ladder l = ladder_of(yaml);
		char *err = mig_validate_migration(&l.items[0]);
		if (cases[i].err)
			ASSERT_STR(err, cases[i].err);
		else
			CU_ASSERT_PTR_NULL(err);
		free(err);
		free(yaml);
		mig_ladder_release(&l);
	}
}

/* TestParseLadder */
static void test_parse_ladder(void)
{
	const char *list = "- name: a\n  to: \"2.0.0\"\n  stage: deploy\n- name: b\n  to: \"3.0.0\"\n  stage: deploy\n";
	const char *single = "name: solo\nto: \"2.0.0\"\nstage: deploy\n";
	struct mig_ladder l;
	char *err;

	/* a list file yields every entry */
	{
		char *p[] = { (char *)"ladder.yaml" }, *c[] = { (char *)list };
		CU_ASSERT_PTR_NULL(err = mig_parse_ladder(&ENV, p, c, 1, &l));
		CU_ASSERT_EQUAL(l.n, 2);
		if (l.n == 2) {
			CU_ASSERT_STRING_EQUAL(l.items[0].name, "a");
			CU_ASSERT_STRING_EQUAL(l.items[1].name, "b");
		}
		mig_ladder_release(&l);
	}
	/* a single-migration file yields one entry */
	{
		char *p[] = { (char *)"m.yaml" }, *c[] = { (char *)single };
		CU_ASSERT_PTR_NULL(err = mig_parse_ladder(&ENV, p, c, 1, &l));
		CU_ASSERT_EQUAL(l.n, 1);
		if (l.n == 1)
			CU_ASSERT_STRING_EQUAL(l.items[0].name, "solo");
		mig_ladder_release(&l);
	}
	/* multiple files merge in sorted path order */
	{
		char *p[] = { (char *)"02-b.yaml", (char *)"01-a.yaml" };
		char *c[] = { (char *)"name: b\nto: \"3.0.0\"\nstage: deploy\n", (char *)"name: a\nto: \"2.0.0\"\nstage: deploy\n" };
		CU_ASSERT_PTR_NULL(err = mig_parse_ladder(&ENV, p, c, 2, &l));
		CU_ASSERT_EQUAL(l.n, 2);
		if (l.n == 2) {
			CU_ASSERT_STRING_EQUAL(l.items[0].name, "a");
			CU_ASSERT_STRING_EQUAL(l.items[1].name, "b");
		}
		mig_ladder_release(&l);
	}
	/* non-migration extensions are ignored; the extension's case does not matter */
	{
		char *p[] = { (char *)"README.md", (char *)"m.JSON", (char *)"dir.yaml/notes" };
		char *c[] = { (char *)"# hi", (char *)"[{\"name\":\"a\",\"to\":\"2.0.0\",\"stage\":\"deploy\"}]", (char *)"x" };
		CU_ASSERT_PTR_NULL(err = mig_parse_ladder(&ENV, p, c, 3, &l));
		CU_ASSERT_EQUAL(l.n, 1);
		if (l.n == 1)
			CU_ASSERT_STRING_EQUAL(l.items[0].name, "a");
		mig_ladder_release(&l);
	}
	/* no parseable files is an error */
	{
		char *p[] = { (char *)"README.md" }, *c[] = { (char *)"# hi" };
		err = mig_parse_ladder(&ENV, p, c, 1, &l);
		ASSERT_STR(err, "migrations artifact contains no .yaml, .yml, or .json files");
		free(err);
	}
	/* empty content defines no migrations */
	{
		char *p[] = { (char *)"empty.yaml" }, *c[] = { (char *)"" };
		err = mig_parse_ladder(&ENV, p, c, 1, &l);
		ASSERT_STR(err, "migrations artifact defined no migrations");
		free(err);
	}
	/* malformed yaml is an error (the parser's text after upstream's prefix) */
	{
		char *p[] = { (char *)"bad.yaml" }, *c[] = { (char *)"name: [unterminated" };
		err = mig_parse_ladder(&ENV, p, c, 1, &l);
		CU_ASSERT_PTR_NOT_NULL(err);
		if (err)
			CU_ASSERT_EQUAL(strncmp(err, "parsing migrations file \"bad.yaml\": error converting YAML to JSON: yaml: ",
						strlen("parsing migrations file \"bad.yaml\": error converting YAML to JSON: yaml: ")),
					0);
		free(err);
	}
	/* a misspelled field is rejected (strict) */
	{
		char *p[] = { (char *)"typo.yaml" }, *c[] = { (char *)"name: a\nto: \"2.0.0\"\nacions: []\n" };
		err = mig_parse_ladder(&ENV, p, c, 1, &l);
		ASSERT_STR(err, "parsing migrations file \"typo.yaml\": error unmarshaling JSON: while decoding JSON: json: "
				"unknown field \"acions\"");
		free(err);
	}
}

/* The strict decoder: yaml's number-to-string conversion, json's errors in first-error order. */
static void test_parse_ladder_decoding(void)
{
	static const struct {
		const char *yaml;
		const char *err; /* NULL: decodes */
		const char *to;  /* the `to` read, when it decodes */
	} cases[] = {
		{ "name: a\nto: 2.0\n", NULL, "2" },
		{ "name: a\nto: 1.10\n", NULL, "1.1" },
		{ "name: a\nto: 3\n", NULL, "3" },
		{ "name: a\nto: 1.5e6\n", NULL, "1.5e+06" },
		{ "name: true\nto: \"1.0.0\"\n", NULL, "1.0.0" },
		{ "NAME: a\nTo: \"1.0.0\"\n", NULL, "1.0.0" }, /* field names match ignoring case */
		{ "name: a\nto: [1]\n", "json: cannot unmarshal array into Go struct field Migration.to of type string", NULL },
		{ "name: a\nto: \"1\"\nzz: 1\nactions: [{name: x, retries: \"3\"}]\n",
		  "json: cannot unmarshal string into Go struct field Action.actions.retries of type int32", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, retries: 1.5}]\nzz: 1\n",
		  "json: cannot unmarshal number 1.5 into Go struct field Action.actions.retries of type int32", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, retries: 3000000000}]\n",
		  "json: cannot unmarshal number 3000000000 into Go struct field Action.actions.retries of type int32", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, retries: 3.0}]\n", NULL, "1" },
		{ "name: a\nto: \"1\"\nactions: {name: x}\n",
		  "json: cannot unmarshal object into Go struct field Migration.actions of type []v1.Action", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, patch: {target: {selector: {matchLabels: {a: [1]}}}}}]\n",
		  "json: cannot unmarshal array into Go struct field LabelSelector.actions.patch.target.selector.matchLabels "
		  "of type string",
		  NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, apply: {wait: \"yes\"}}]\n",
		  "json: cannot unmarshal string into Go struct field ApplyAction.actions.apply.wait of type bool", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, http: {url: u, expectedStatus: [\"200\"]}}]\n",
		  "json: cannot unmarshal string into Go struct field HTTPAction.actions.http.expectedStatus of type int32",
		  NULL },
		{ "name: a\nto: \"1\"\ndown: [{name: x, delete: {target: 7}}]\n",
		  "json: cannot unmarshal number into Go struct field DeleteAction.down.delete.target of type "
		  "meta.NamespacedObjectKindReference",
		  NULL },
		/* a bad duration ends decoding at once, even after an earlier saved error */
		{ "name: a\nto: [1]\nactions: [{name: x, timeout: 5 minutes}]\n",
		  "time: unknown unit \" minutes\" in duration \"5 minutes\"", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, timeout: 1.5.5s}]\n", "time: missing unit in duration \"1.5.5s\"",
		  NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, timeout: \"-\"}]\n", "time: invalid duration \"-\"", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, timeout: 9999999999h}]\n", "time: invalid duration \"9999999999h\"",
		  NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, timeout: 30}]\n",
		  "json: cannot unmarshal number into Go struct field Action.actions.timeout of type string", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, wait: {duration: 3d}}]\n",
		  "time: unknown unit \"d\" in duration \"3d\"", NULL },
		{ "name: a\nto: \"1\"\nactions: [{name: x, wait: {duration: \"10\"}}]\n",
		  "time: missing unit in duration \"10\"", NULL },
		/* unknown fields anywhere, the first in key order */
		{ "name: a\nto: \"1\"\nactions: [{name: x, wait: {expr: e, zzz: 1, aaa: 2}}]\n", "json: unknown field \"aaa\"",
		  NULL },
		/* a scalar document, a list element that is not an object */
		{ "just text\n", "json: cannot unmarshal string into Go value of type v1.Migration", NULL },
		{ "- name: a\n  to: \"1\"\n- 7\n", "json: cannot unmarshal array into Go value of type v1.Migration", NULL },
		{ "- name: a\n  to: \"1\"\n  bogusField: 1\n", "json: cannot unmarshal array into Go value of type v1.Migration",
		  NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p[] = { (char *)"f.yaml" }, *c[] = { (char *)cases[i].yaml };
		struct mig_ladder l;
		char *err = mig_parse_ladder(&ENV, p, c, 1, &l);
		if (!cases[i].err) {
			if (err)
				fprintf(stderr, "\ncase %zu: %s\n", i, err);
			CU_ASSERT_PTR_NULL(err);
			if (!err && l.n > 0)
				CU_ASSERT_STRING_EQUAL(l.items[0].to, cases[i].to);
			mig_ladder_release(&l);
		} else {
			char *want = xasprintf("parsing migrations file \"f.yaml\": error unmarshaling JSON: while decoding JSON: %s",
					       cases[i].err);
			ASSERT_STR(err, want);
			free(want);
		}
		free(err);
	}
	/* durations are Go's Duration.String() once decoded; the action's timeout in ms */
	struct mig_ladder l = ladder_of("- name: a\n  to: \"1\"\n  actions:\n"
					"  - {name: t1, timeout: 1.5h, wait: {duration: 1us, timeout: 0.5ms}}\n"
					"  - {name: t2, timeout: -90s, delete: {}}\n"
					"  - {name: t3, timeout: \"0\", retries: 2, job: {sourceRef: {name: j}}}\n");
	char *json = mig_migration_json(&l.items[0]);
	ASSERT_STR(json, "{\"name\":\"a\",\"to\":\"1\",\"actions\":[{\"name\":\"t1\",\"timeout\":\"1h30m0s\",\"wait\":"
			 "{\"duration\":\"1\xc2\xb5s\",\"timeout\":\"500\xc2\xb5s\"}},{\"name\":\"t2\",\"timeout\":\"-1m30s\","
			 "\"delete\":{\"target\":{\"kind\":\"\",\"name\":\"\"}}},{\"name\":\"t3\",\"timeout\":\"0s\","
			 "\"retries\":2,\"job\":{\"sourceRef\":{\"name\":\"j\"}}}]}");
	free(json);
	const struct sst_actions *acts = &l.items[0].actions;
	CU_ASSERT_EQUAL_FATAL(acts->n, 3);
	CU_ASSERT_TRUE(acts->items[0].timeout.set);
	CU_ASSERT_EQUAL(acts->items[0].timeout.ms, 5400000);
	CU_ASSERT_STRING_EQUAL(acts->items[0].verb, "wait");
	CU_ASSERT_EQUAL(acts->items[0].verb_count, 1);
	CU_ASSERT_EQUAL(acts->items[1].timeout.ms, -90000);
	CU_ASSERT_STRING_EQUAL(acts->items[2].verb, "job");
	CU_ASSERT_TRUE(acts->items[2].has_retries);
	CU_ASSERT_EQUAL(acts->items[2].retries, 2);
	CU_ASSERT_PTR_NOT_NULL(acts->items[2].body);
	mig_ladder_release(&l);

	/*
	 * Keys match field names as encoding/json's foldName does (the Kelvin
	 * sign, the long s and the Turkish i fold onto ASCII letters), and a key
	 * met again under another spelling decodes into what the first one put
	 * there: structs and maps merge, list elements merge and the list takes
	 * the new length.  The decoder meets keys in byte order ("Actions" before
	 * "actions", "WAIT" before "wait").
	 */
	static const struct {
		const char *yaml, *json;
	} folds[] = {
		{ "name: a\nto: \"1\"\n\"\\u017Ftage\": db\n\"act\\u0131ons\": [{name: x, delete: {target: {\"\\u212Aind\": ConfigMap}}}]\n",
		  "{\"name\":\"a\",\"to\":\"1\",\"stage\":\"db\",\"actions\":[{\"name\":\"x\",\"delete\":{\"target\":"
		  "{\"kind\":\"ConfigMap\",\"name\":\"\"}}}]}" },
		{ "name: a\nto: \"1\"\nactions: [{name: x, wait: {expr: e}, WAIT: {timeout: 1s}}]\n",
		  "{\"name\":\"a\",\"to\":\"1\",\"actions\":[{\"name\":\"x\",\"wait\":{\"expr\":\"e\",\"timeout\":\"1s\"}}]}" },
		{ "name: a\nto: \"1\"\nActions: [{name: x, wait: {expr: e}}, {name: y, delete: {}}]\n"
		  "actions: [{wait: {timeout: 2s}}]\n",
		  "{\"name\":\"a\",\"to\":\"1\",\"actions\":[{\"name\":\"x\",\"wait\":{\"expr\":\"e\",\"timeout\":\"2s\"}}]}" },
		{ "name: a\nto: \"1\"\nActions: [{name: x, delete: {}}]\nactions: [null]\n",
		  "{\"name\":\"a\",\"to\":\"1\",\"actions\":[{\"name\":\"x\",\"delete\":{\"target\":{\"kind\":\"\",\"name\":\"\"}}}]}" },
		{ "name: a\nto: \"1\"\nactions: [{name: x, patch: {target: {selector: {MATCHLABELS: {a: \"1\"}, matchLabels: {b: 2}}}}}]\n",
		  "{\"name\":\"a\",\"to\":\"1\",\"actions\":[{\"name\":\"x\",\"patch\":{\"target\":{\"kind\":\"\",\"selector\":"
		  "{\"matchLabels\":{\"a\":\"1\",\"b\":\"2\"}}},\"patch\":\"\"}}]}" },
	};
	for (size_t i = 0; i < sizeof(folds) / sizeof(folds[0]); i++) {
		struct mig_ladder lf = ladder_of(folds[i].yaml);
		if (lf.n != 1)
			continue;
		char *j = mig_migration_json(&lf.items[0]);
		ASSERT_STR(j, folds[i].json);
		free(j);
		mig_ladder_release(&lf);
	}
}

/* A ladder of @n migrations m0..m(n-1), each with @nact actions, the last of them with @retries (NO_RETRIES: none). */
#define NO_RETRIES INT32_MIN
static struct mig_ladder ladder_sized(int n, int nact, int retries)
{
	size_t cap = 64 * (size_t)(n + n * nact + 1), len = 0;
	char *y = xcalloc(cap, 1);

	for (int i = 0; i < n; i++) {
		len += (size_t)snprintf(y + len, cap - len, "- name: m%d\n  to: \"2.0.0\"\n", i);
		if (nact > 0)
			len += (size_t)snprintf(y + len, cap - len, "  actions:\n");
		for (int j = 0; j < nact; j++) {
			char extra[32] = "";
			if (j == nact - 1 && retries != NO_RETRIES)
				snprintf(extra, sizeof(extra), ", retries: %d", retries);
			len += (size_t)snprintf(y + len, cap - len, "  - {name: a%d, delete: {}%s}\n", j, extra);
		}
	}
	struct mig_ladder l = ladder_of(y);
	free(y);
	return l;
}

/* TestValidateLadder_DoSCaps */
static void test_validate_ladder_dos_caps(void)
{
	struct mig_ladder l;
	char *err;

	l = ladder_sized(MIG_MAX_MIGRATIONS_PER_LADDER, 0, NO_RETRIES);
	CU_ASSERT_PTR_NULL(err = mig_validate_ladder(l.items, l.n)); /* at the migration cap */
	free(err);
	mig_ladder_release(&l);
	l = ladder_sized(MIG_MAX_MIGRATIONS_PER_LADDER + 1, 0, NO_RETRIES);
	ASSERT_STR(err = mig_validate_ladder(l.items, l.n),
		   "migration ladder has 201 migrations, exceeding the limit of 200");
	free(err);
	mig_ladder_release(&l);
	l = ladder_sized(1, MIG_MAX_ACTIONS_PER_MIGRATION + 1, NO_RETRIES);
	ASSERT_STR(err = mig_validate_ladder(l.items, l.n), "migration \"m0\" has 101 actions, exceeding the limit of 100");
	free(err);
	mig_ladder_release(&l);
	l = ladder_sized(1, 1, MIG_MAX_ACTION_RETRIES);
	CU_ASSERT_PTR_NULL(err = mig_validate_ladder(l.items, l.n)); /* retries at the cap */
	free(err);
	mig_ladder_release(&l);
	l = ladder_sized(1, 1, MIG_MAX_ACTION_RETRIES + 1);
	ASSERT_STR(err = mig_validate_ladder(l.items, l.n),
		   "migration \"m0\" actions action \"a0\" has retries 11; it must be between 0 and 10");
	free(err);
	mig_ladder_release(&l);
	l = ladder_sized(1, 1, -1);
	ASSERT_STR(err = mig_validate_ladder(l.items, l.n),
		   "migration \"m0\" actions action \"a0\" has retries -1; it must be between 0 and 10");
	free(err);
	mig_ladder_release(&l);
}

/* TestValidateLadder (with upstream's messages) */
static void test_validate_ladder(void)
{
	static const struct {
		const char *yaml;
		const char *err; /* NULL: valid */
	} cases[] = {
		/* valid */
		{ "- {name: a, to: 2.0.0, from: '>=1.0.0, <2.0.0', actions: [{name: x, delete: {}}]}", NULL },
		/* empty migration name */
		{ "- {name: '', to: 2.0.0}", "a migration has an empty name" },
		/* empty to */
		{ "- {name: a, to: ''}", "migration \"a\" has an empty to" },
		/* non-semver to */
		{ "- {name: a, to: not-a-version}", "migration \"a\" has an invalid to \"not-a-version\": invalid semantic version" },
		/* invalid from constraint */
		{ "- {name: a, to: 2.0.0, from: '>>bad'}",
		  "migration \"a\" has an invalid from constraint \">>bad\": improper constraint: \">>bad\"" },
		/* bare from rejected */
		{ "- {name: a, to: 2.0.0, from: 1.0.0}",
		  "migration \"a\" from \"1.0.0\" is a bare version, which matches only that exact version; write \">=1.0.0\" "
		  "(from this version onward) or \"=1.0.0\" (exactly that version) to make the intent explicit" },
		/* v-prefixed bare from rejected */
		{ "- {name: a, to: 2.0.0, from: v1.0.0}",
		  "migration \"a\" from \"v1.0.0\" is a bare version, which matches only that exact version; write \">=v1.0.0\" "
		  "(from this version onward) or \"=v1.0.0\" (exactly that version) to make the intent explicit" },
		/* a bare from with white space around it is trimmed for the advice */
		{ "- {name: a, to: 2.0.0, from: ' 1.0.0 '}",
		  "migration \"a\" from \" 1.0.0 \" is a bare version, which matches only that exact version; write \">=1.0.0\" "
		  "(from this version onward) or \"=1.0.0\" (exactly that version) to make the intent explicit" },
		/* explicit >= from allowed */
		{ "- {name: a, to: 2.0.0, from: '>=1.0.0'}", NULL },
		/* explicit = from allowed */
		{ "- {name: a, to: 2.0.0, from: '=1.0.0'}", NULL },
		/* wildcard from allowed */
		{ "- {name: a, to: 2.0.0, from: 1.x}", NULL },
		/* a partial version is not bare (StrictNewVersion wants three parts) */
		{ "- {name: a, to: 2.0.0, from: '1.0'}", NULL },
		/* duplicate migration name */
		{ "- {name: a, to: 2.0.0}\n- {name: a, to: 3.0.0}",
		  "duplicate migration name \"a\"; names are the idempotency-ledger key and must be unique" },
		/* action with no verb */
		{ "- {name: a, to: 2.0.0, actions: [{name: x}]}",
		  "migration \"a\" actions action \"x\": exactly one verb must be set, found 0" },
		/* two verbs */
		{ "- {name: a, to: 2.0.0, actions: [{name: x, wait: {}, delete: {}}]}",
		  "migration \"a\" actions action \"x\": exactly one verb must be set, found 2" },
		/* duplicate action name */
		{ "- {name: a, to: 2.0.0, actions: [{name: dup, delete: {}}, {name: dup, wait: {}}]}",
		  "migration \"a\" has duplicate actions action name \"dup\"; action names are the idempotency-ledger key and "
		  "must be unique" },
		/* empty action name */
		{ "- {name: a, to: 2.0.0, actions: [{wait: {}}]}",
		  "migration \"a\" has a actions action with an empty name; action names are the idempotency-ledger key and "
		  "must be set" },
		/* completionAnchor */
		{ "- {name: a, to: 2.0.0, actions: [{name: x, wait: {}, completionAnchor: {apiVersion: v1, kind: K, name: n}}]}",
		  "migration \"a\" actions action \"x\" sets completionAnchor; it is valid only on a scope: Lifetime pre/post "
		  "action" },
		/* a duplicate name is reported after the second migration's own problems */
		{ "- {name: a, to: 2.0.0}\n- {name: a, to: bad}", "migration \"a\" has an invalid to \"bad\": invalid semantic version" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mig_ladder l = ladder_of(cases[i].yaml);
		char *err = mig_validate_ladder(l.items, l.n);
		if (cases[i].err) {
			ASSERT_STR(err, cases[i].err);
		} else {
			if (err)
				fprintf(stderr, "\ncase %zu: %s\n", i, err);
			CU_ASSERT_PTR_NULL(err);
		}
		free(err);
		mig_ladder_release(&l);
	}
}

/* TestSelect_OrdersByAscendingTargetAndHonorsBoundary */
static void test_select_orders_by_ascending_target_and_honors_boundary(void)
{
	struct mig_ladder l = ladder_of("- {name: to-3, to: 3.0.0, stage: s}\n- {name: to-2b, to: 2.0.0, stage: s}\n"
					"- {name: to-2a, to: 2.0.0, stage: s}\n- {name: below, to: 1.0.0, stage: s}\n"
					"- {name: above, to: 4.0.0, stage: s}\n");
	struct ss_semver c = V("1.0.0"), d = V("3.0.0");
	const struct sst_migration **out;
	size_t n;

	CU_ASSERT_PTR_NULL(mig_select(l.items, l.n, &c, &d, &out, &n));
	ASSERT_NAMES(out, n, "to-2b,to-2a,to-3"); /* ascending target; equal targets keep ladder order */
	free(out);
	mig_ladder_release(&l);
}

/* TestSelect_FromConstraintFiltersByCurrent */
static void test_select_from_constraint_filters_by_current(void)
{
	struct mig_ladder l = ladder_of("- {name: gated, to: 2.0.0, from: '>=1.5.0', stage: s}\n");
	struct ss_semver c1 = V("1.2.0"), c2 = V("1.6.0"), d = V("2.0.0");
	const struct sst_migration **out;
	size_t n;

	CU_ASSERT_PTR_NULL(mig_select(l.items, l.n, &c1, &d, &out, &n));
	CU_ASSERT_EQUAL(n, 0);
	free(out);
	CU_ASSERT_PTR_NULL(mig_select(l.items, l.n, &c2, &d, &out, &n));
	CU_ASSERT_EQUAL(n, 1);
	free(out);
	mig_ladder_release(&l);
}

/* TestExplain_ReportsExclusionReasons */
static void test_explain_reports_exclusion_reasons(void)
{
	struct mig_ladder l = ladder_of("- {name: fires, to: 2.0.0, stage: s}\n- {name: out-of-range, to: 5.0.0, stage: s}\n"
					"- {name: from-excluded, to: 2.0.0, from: '>=1.5.0', stage: s}\n");
	struct ss_semver c = V("1.2.0"), d = V("v2");
	struct mig_outcome *o;
	size_t n;

	CU_ASSERT_PTR_NULL(mig_explain(l.items, l.n, &c, &d, &o, &n));
	CU_ASSERT_EQUAL_FATAL(n, 3);
	/* ascending by target: fires, from-excluded (2.0.0, ladder order), out-of-range */
	CU_ASSERT_STRING_EQUAL(o[0].m->name, "fires");
	CU_ASSERT_TRUE(o[0].fires);
	CU_ASSERT_PTR_NULL(o[0].reason);
	CU_ASSERT_STRING_EQUAL(o[1].m->name, "from-excluded");
	CU_ASSERT_FALSE(o[1].fires);
	ASSERT_STR(o[1].reason, "from \">=1.5.0\" does not match current 1.2.0");
	CU_ASSERT_STRING_EQUAL(o[2].m->name, "out-of-range");
	CU_ASSERT_FALSE(o[2].fires);
	ASSERT_STR(o[2].reason, "to 5.0.0 is not in the crossed range (1.2.0, 2.0.0]");
	mig_outcomes_free(o, n);
	mig_ladder_release(&l);

	/* an unparseable to or from is an error */
	struct mig_ladder bad = ladder_of("- {name: x, to: nope}\n");
	char *err = mig_explain(bad.items, bad.n, &c, &d, &o, &n);
	ASSERT_STR(err, "migration \"x\" has invalid to \"nope\": invalid semantic version");
	free(err);
	mig_ladder_release(&bad);
	bad = ladder_of("- {name: x, to: 2.0.0, from: '~>>1'}\n");
	err = mig_explain(bad.items, bad.n, &c, &d, &o, &n);
	ASSERT_STR(err, "migration \"x\" has invalid from \"~>>1\": improper constraint: \"~>>1\"");
	free(err);
	mig_ladder_release(&bad);
}

/*
 * TestSelect_Property, exhaustively over a small domain instead of random
 * draws: every current/desired pair of X.Y.0 (X, Y in 0..2) against a ladder
 * of targets and `from` constraints over the same domain.  Selected iff
 * current < to <= desired and from admits current; ascending by target.
 */
static void test_select_property(void)
{
	static const char *const vers[] = { "0.0.0", "0.1.0", "0.2.0", "1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0", "2.2.0" };
	static const char *const froms[] = { "", ">=0.0.0", ">=1.0.0", ">=2.0.0" };
	const size_t nv = sizeof(vers) / sizeof(vers[0]);
	char yaml[4096] = "";

	for (size_t i = 0; i < nv; i++) {
		char line[128];
		snprintf(line, sizeof(line), "- {name: m%zu, to: '%s', stage: s%s%s%s}\n", i, vers[(i * 5) % nv],
			 *froms[i % 4] ? ", from: '" : "", froms[i % 4], *froms[i % 4] ? "'" : "");
		strcat(yaml, line);
	}
	struct mig_ladder l = ladder_of(yaml);
	for (size_t a = 0; a < nv; a++) {
		for (size_t b = 0; b < nv; b++) {
			struct ss_semver cur = V(vers[a]), des = V(vers[b]);
			const struct sst_migration **out;
			size_t n, want = 0;
			CU_ASSERT_PTR_NULL_FATAL(mig_select(l.items, l.n, &cur, &des, &out, &n));
			for (size_t i = 0; i < l.n; i++) {
				struct ss_semver to = V(l.items[i].to);
				bool in = ss_semver_compare(&to, &cur) > 0 && ss_semver_compare(&to, &des) <= 0;
				if (in && *l.items[i].from) {
					struct ss_constraints cs;
					CU_ASSERT_EQUAL_FATAL(ss_constraints_parse(l.items[i].from, &cs, NULL, 0), SS_OK);
					in = ss_constraints_check(&cs, &cur);
					ss_constraints_release(&cs);
				}
				bool got = false;
				for (size_t k = 0; k < n; k++)
					got = got || out[k] == &l.items[i];
				CU_ASSERT_EQUAL(got, in);
				want += in;
			}
			CU_ASSERT_EQUAL(n, want);
			for (size_t k = 1; k < n; k++) {
				struct ss_semver p = V(out[k - 1]->to), q = V(out[k]->to);
				CU_ASSERT_TRUE(ss_semver_compare(&p, &q) <= 0);
			}
			free(out);
		}
	}
	mig_ladder_release(&l);
}

/* ==== migration_approval.go ====================================================== */

/* versionApprovalNeeded (spec R-14) */
static void test_version_approval_needed(void)
{
	const struct sst_migration *one[1] = { NULL };
	struct mig_plan up = { .version_set = true, .desired = (char *)"2.0.0" };
	struct mig_plan withm = { .version_set = true, .desired = (char *)"2.0.0", .pending = one, .npending = 1 };
	struct mig_plan base = { .version_set = true, .desired = (char *)"2.0.0", .baseline = true };
	struct mig_plan unver = { 0 };
	struct mig_plan respelled = { .version_set = true, .desired = (char *)"v2.0.0" };

	CU_ASSERT_FALSE(mig_version_approval_needed("Always", NULL, "1.0.0"));
	CU_ASSERT_FALSE(mig_version_approval_needed("Always", &unver, "1.0.0"));
	CU_ASSERT_FALSE(mig_version_approval_needed("Always", &base, ""));          /* baselining is never held */
	CU_ASSERT_TRUE(mig_version_approval_needed("Always", &up, "1.0.0"));       /* every real change */
	CU_ASSERT_FALSE(mig_version_approval_needed("Always", &up, "2.0.0"));      /* no change */
	CU_ASSERT_TRUE(mig_version_approval_needed("Always", &respelled, "2.0.0")); /* compared as text */
	CU_ASSERT_FALSE(mig_version_approval_needed("OnMigrations", &up, "1.0.0"));
	CU_ASSERT_TRUE(mig_version_approval_needed("OnMigrations", &withm, "1.0.0"));
	CU_ASSERT_FALSE(mig_version_approval_needed("Never", &withm, "1.0.0"));
	CU_ASSERT_FALSE(mig_version_approval_needed("", &withm, "1.0.0"));
}

/* rollbackDirective (spec P-3) */
static void test_rollback_directive(void)
{
	static const struct {
		const char *ann, *status;
		bool applies;
	} cases[] = {
		{ "1.0.0", "2.0.0", true },  { "v1", "2.0.0", true },     { "2.0.0", "2.0.0", false },
		{ "3.0.0", "2.0.0", false }, { "bogus", "2.0.0", false }, { "1.0.0", "", false },
		{ "", "2.0.0", false },      { NULL, "2.0.0", false },    { "1.0.0", "garbage", false },
		{ " 1.0.0", "2.0.0", false }, /* not trimmed: does not parse */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", "ns", "n");
		if (cases[i].ann)
			obj_strmap_set(&o->annotations, "stages.metio.wtf/rollback-to", cases[i].ann);
		const char *rb = mig_rollback_directive(o, cases[i].status);
		CU_ASSERT_EQUAL(rb != NULL, cases[i].applies);
		if (rb)
			CU_ASSERT_STRING_EQUAL(rb, cases[i].ann);
		obj_free(o);
	}
}

/* TestMigrationApprovalPredicate_Update (coverage_extra_test.go), and rollback-to */
static void test_migration_approval_predicate_update(void)
{
	struct obj *none = obj_new("stages.metio.wtf/v1", "StageSet", "ns", "n");
	struct obj *v1 = obj_copy(none), *v1b = obj_copy(none), *v2 = obj_copy(none), *rb = obj_copy(none);
	obj_strmap_set(&v1->annotations, SSC_ANN_APPROVED_VERSION, "v1");
	obj_strmap_set(&v1b->annotations, SSC_ANN_APPROVED_VERSION, "v1");
	obj_strmap_set(&v2->annotations, SSC_ANN_APPROVED_VERSION, "v2");
	obj_strmap_set(&rb->annotations, SSC_ANN_APPROVED_VERSION, "v1");
	obj_strmap_set(&rb->annotations, SSC_ANN_ROLLBACK_TO, "0.9.0");
	obj_strmap_set(&v1b->annotations, "unrelated", "x");

	CU_ASSERT_FALSE(mig_migration_approval_predicate_update(NULL, v2)); /* nil ObjectOld must not fire */
	CU_ASSERT_FALSE(mig_migration_approval_predicate_update(v1, NULL)); /* nil ObjectNew must not fire */
	CU_ASSERT_FALSE(mig_migration_approval_predicate_update(v1, v1b));  /* unchanged annotation must not fire */
	CU_ASSERT_TRUE(mig_migration_approval_predicate_update(none, v2));  /* annotation added must fire */
	CU_ASSERT_TRUE(mig_migration_approval_predicate_update(v1, v2));    /* annotation changed must fire */
	CU_ASSERT_TRUE(mig_migration_approval_predicate_update(v1, rb));    /* rollback-to stamped */
	obj_free(none);
	obj_free(v1);
	obj_free(v1b);
	obj_free(v2);
	obj_free(rb);
}

/* ==== the plan: spec §3.1 and the envtests of §6.2 ================================== */

static const char DROP_LEGACY[] = "- name: drop-legacy\n  to: \"2.0.0\"\n  stage: stage-a\n"
				  "  actions: [{name: drop-legacy-drop, delete: {target: {apiVersion: v1, kind: ConfigMap,"
				  " name: legacy, namespace: team}}}]\n";

/* P-1: no spec.version */
static void test_plan_unversioned(void)
{
	struct fixture f;
	fx_init(&f, "2.0.0", "1.0.0", DROP_LEGACY);
	f.spec.has_version = false;
	CU_ASSERT_EQUAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_FALSE(f.plan.version_set);
	CU_ASSERT_PTR_NULL(f.plan.desired);
	CU_ASSERT_EQUAL(f.plan.npending, 0);
	CU_ASSERT_FALSE(mig_version_approval_needed("Always", &f.plan, "1.0.0"));
	fx_release(&f);
}

/* T-15 TestReconcile_Migration_BaselinesWithoutRunning (P-5: the ladder is not even loaded) */
static void test_reconcile_migration_baselines_without_running(void)
{
	struct fixture f;
	fx_init(&f, " 2.0.0\n", "", DROP_LEGACY);
	f.spec.has_migrations_source = true; /* a broken source does not matter to a baseline */
	W.rcls = RES_SOURCE_NOT_READY;
	W.rmsg = "not ready";
	CU_ASSERT_EQUAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_TRUE(f.plan.version_set);
	CU_ASSERT_TRUE(f.plan.baseline);
	CU_ASSERT_STRING_EQUAL(f.plan.desired, "2.0.0"); /* trimmed */
	CU_ASSERT_EQUAL(f.plan.npending, 0);
	CU_ASSERT_EQUAL(W.nresolve, 0);
	fx_release(&f);
}

/* T-16 TestReconcile_Migration_RunsOnUpgrade */
static void test_reconcile_migration_runs_on_upgrade(void)
{
	struct fixture f;
	struct ssc_err err = { 0 };
	fx_init(&f, "2.0.0", "1.0.0", DROP_LEGACY);
	CU_ASSERT_EQUAL_FATAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_FALSE(f.plan.baseline);
	CU_ASSERT_FALSE(f.plan.downgrade);
	ASSERT_NAMES(f.plan.pending, f.plan.npending, "drop-legacy");
	struct fake_executor fe = { 0 };
	struct mig_executor ex = { fake_run, &fe };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&f.status, "stage-a", &f.plan, &ex, &f.clock, &f.ev, &err), 0);
	CU_ASSERT_STRING_EQUAL(fe.ran, "drop-legacy-drop");
	CU_ASSERT_EQUAL(f.status.executed_migrations.n, 1);
	fx_release(&f);
}

/* P-7: semver-equal is no transition (and the ladder is not loaded) */
static void test_plan_no_change(void)
{
	struct fixture f;
	fx_init(&f, "v2.0", "2.0.0", DROP_LEGACY);
	f.spec.has_migrations_source = true;
	CU_ASSERT_EQUAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_TRUE(f.plan.version_set);
	CU_ASSERT_FALSE(f.plan.baseline);
	CU_ASSERT_STRING_EQUAL(f.plan.desired, "v2.0");
	CU_ASSERT_EQUAL(f.plan.npending, 0);
	CU_ASSERT_EQUAL(W.nresolve, 0);
	/* Always still holds the re-spelling: the text differs */
	CU_ASSERT_TRUE(mig_version_approval_needed("Always", &f.plan, "2.0.0"));
	fx_release(&f);
}

/* T-12 TestReconcile_Migration_RequireCoverageBlocksMajor */
static void test_reconcile_migration_require_coverage_blocks_major(void)
{
	struct fixture f;
	fx_init(&f, "2.0.0", "1.0.0", NULL);
	f.spec.version.require_migration_coverage = true;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "MigrationCoverageMissing");
	ASSERT_STR(f.v.message, "version crosses a major boundary 1.0.0 \xe2\x86\x92 2.0.0 but no migration covers it, "
				"and requireMigrationCoverage is set");
	CU_ASSERT_FALSE(f.plan.version_set); /* nothing planned */
	/* a minor bump is fine */
	f.spec.version.value = "1.1.0";
	CU_ASSERT_EQUAL(plan(&f), MIG_PROCEED);
	fx_release(&f);
}

/* T-13 TestReconcile_Migration_RequireApprovalHoldsThenProceeds (the plan's half of the gate) */
static void test_reconcile_migration_require_approval_holds_then_proceeds(void)
{
	struct fixture f;
	fx_init(&f, "2.0.0", "1.0.0", DROP_LEGACY);
	CU_ASSERT_EQUAL_FATAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_TRUE(mig_version_approval_needed("OnMigrations", &f.plan, "1.0.0"));
	struct sst_pending_migration *d;
	size_t n;
	mig_pending_details(&f.plan, &f.spec, &d, &n);
	CU_ASSERT_EQUAL(n, 1); /* shown while awaiting approval */
	for (size_t i = 0; i < n; i++)
		mig_pending_migration_release(&d[i]);
	free(d);
	fx_release(&f);
}

/* T-14 TestReconcile_Version_ApprovalAlwaysHoldsMigrationFreeAdvance */
static void test_reconcile_version_approval_always_holds_migration_free_advance(void)
{
	struct fixture f;
	fx_init(&f, "2.0.0", "1.0.0", NULL);
	CU_ASSERT_EQUAL_FATAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_EQUAL(f.plan.npending, 0);
	CU_ASSERT_FALSE(mig_version_approval_needed("OnMigrations", &f.plan, "1.0.0"));
	CU_ASSERT_TRUE(mig_version_approval_needed("Always", &f.plan, "1.0.0"));
	CU_ASSERT_STRING_EQUAL(f.plan.desired, "2.0.0");
	fx_release(&f);
}

/* T-17 TestReconcile_Migration_DowngradeRefused, T-27 TestReconcile_Downgrade_RefusedWithoutAllowDowngrade */
static void test_reconcile_migration_downgrade_refused(void)
{
	struct fixture f;
	fx_init(&f, "1.0.0", "v2", DROP_LEGACY);
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "DowngradeNotAllowed");
	ASSERT_STR(f.v.message, "desired version 1.0.0 is below the deployed version 2.0.0 and downgrades are not "
				"enabled; set spec.version.allowDowngrade to enable reversible downgrades");
	CU_ASSERT_FALSE(f.plan.version_set);
	fx_release(&f);
}

/* T-28 TestReconcile_Downgrade_IrreversibleBoundaryRefused */
static void test_reconcile_downgrade_irreversible_boundary_refused(void)
{
	struct fixture f;
	fx_init(&f, "1.0.0", "2.0.0",
		"- {name: schema-2, to: \"2.0.0\", stage: stage-a, actions: [{name: apply-schema, delete: {}}]}\n");
	f.spec.version.allow_downgrade = true;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "DowngradeRequiresMigration");
	ASSERT_STR(f.v.message, "downgrade 2.0.0 \xe2\x86\x92 1.0.0 crosses migration \"schema-2\" (to 2.0.0), which "
				"declares no down actions; it is irreversible");
	fx_release(&f);
}

static const char REVERSIBLE[] = "- name: schema-2\n  to: \"2.0.0\"\n  stage: stage-a\n"
				 "  actions: [{name: apply-schema, delete: {}}]\n"
				 "  down: [{name: revert-schema, delete: {}}]\n"
				 "- name: schema-3\n  to: \"3.0.0\"\n  stage: stage-a\n  from: '>=9.0.0'\n"
				 "  actions: [{name: apply-3, delete: {}}]\n"
				 "  down: [{name: revert-3, delete: {}}]\n";

/* T-24 TestReconcile_Downgrade_RunsDownActionsAndLowersVersion, T-25 …_UnwindsEveryCrossedBoundary */
static void test_reconcile_downgrade_unwinds_every_crossed_boundary(void)
{
	struct fixture f;
	struct ssc_err err = { 0 };
	fx_init(&f, "1.0.0", "3.0.0", REVERSIBLE);
	f.spec.version.allow_downgrade = true;
	CU_ASSERT_EQUAL_FATAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_TRUE(f.plan.downgrade);
	/* newest boundary first; `from` is not consulted on the way down */
	ASSERT_NAMES(f.plan.pending, f.plan.npending, "schema-3,schema-2");
	struct fake_executor fe = { 0 };
	struct mig_executor ex = { fake_run, &fe };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&f.status, "stage-a", &f.plan, &ex, &f.clock, &f.ev, &err), 0);
	CU_ASSERT_STRING_EQUAL(fe.ran, "revert-3,revert-schema");
	CU_ASSERT_EQUAL(f.status.executed_migrations.n, 2);
	fx_release(&f);
}

/* T-26 TestReconcile_RollbackToAnnotation_TriggersDowngrade */
static void test_reconcile_rollback_to_annotation_triggers_downgrade(void)
{
	struct fixture f;
	fx_init(&f, "2.0.0", "2.0.0", REVERSIBLE);
	f.spec.version.allow_downgrade = true;
	obj_strmap_set(&f.ss->annotations, SSC_ANN_ROLLBACK_TO, "1.0.0");
	CU_ASSERT_EQUAL_FATAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_TRUE(f.plan.downgrade);
	CU_ASSERT_STRING_EQUAL(f.plan.desired, "1.0.0");
	ASSERT_NAMES(f.plan.pending, f.plan.npending, "schema-2");
	/* once the version is there the directive stops applying */
	f.status.version = (char *)"1.0.0";
	f.spec.version.value = "1.0.0";
	CU_ASSERT_EQUAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_FALSE(f.plan.downgrade);
	CU_ASSERT_EQUAL(f.plan.npending, 0);
	fx_release(&f);
}

/* P-4, P-6 and the downgrade of an unversioned reach */
static void test_plan_invalid_versions(void)
{
	struct fixture f;
	fx_init(&f, "latest", "1.0.0", NULL);
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "InvalidVersion");
	ASSERT_STR(f.v.message, "desired version \"latest\" is not a semver: invalid semantic version");
	f.spec.version.value = "   ";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "desired version \"\" is not a semver: invalid semantic version");
	f.spec.version.value = "2.0.0";
	f.status.version = (char *)"1.0.0-01";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "recorded status.version \"1.0.0-01\" is not a semver: version segment starts with 0");
	f.spec.version.value = NULL;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "invalid version: spec.version sets none of value, fromObject, or fromArtifact");
	fx_release(&f);
}

/* P-8: a migration anchored to no stage, and an upgrade's InvalidSpec from the inline ladder */
static void test_plan_anchor_and_ladder_refusals(void)
{
	struct fixture f;
	fx_init(&f, "2.0.0", "1.0.0", "- {name: m, to: 2.0.0, stage: ghost}\n");
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "MigrationStageNotFound");
	fx_release(&f);
	fx_init(&f, "2.0.0", "1.0.0", "- {name: m, to: 2.0.0, from: 1.0.0}\n");
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "InvalidSpec");
	fx_release(&f);
}

/* T-18 TestReconcile_Migration_VersionFromArtifact, T-20 …_MissingVersionFileIsInvalid */
static void test_reconcile_migration_version_from_artifact(void)
{
	struct fixture f;
	fx_init(&f, NULL, "", NULL);
	f.spec.version.has_from_artifact = true;
	f.spec.version.fa_stage = "stage-a";
	f.spec.version.fa_path = "VERSION";
	W.file_path = "VERSION";
	W.file_content = "1.5.0\n";
	W.file_ms = 250;
	CU_ASSERT_EQUAL_FATAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_STRING_EQUAL(f.plan.desired, "1.5.0");
	CU_ASSERT_TRUE(f.plan.baseline);
	CU_ASSERT_EQUAL(f.clock.now_ms, 1000250); /* the fetch took its time */

	W.file_path = "OTHER";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "InvalidVersion");
	ASSERT_STR(f.v.message, "invalid version: version file \"VERSION\" not found in stage \"stage-a\" artifact");
	W.file_path = "VERSION";
	W.file_content = " \t\n";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "invalid version: version file \"VERSION\" is empty");
	W.file_err = SSC_ERR;
	CU_ASSERT_EQUAL(plan(&f), MIG_ERROR);
	ASSERT_STR(f.v.err.msg, "fetch version artifact for stage \"stage-a\": connection reset");
	f.spec.version.fa_stage = "nope";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "invalid version: spec.version.fromArtifact.stage \"nope\" is not a stage");
	fx_release(&f);
}

/* T-19 TestReconcile_Migration_VersionFromObject */
static void test_reconcile_migration_version_from_object(void)
{
	struct fixture f;
	fx_init(&f, NULL, "1.0.0", NULL);
	f.spec.version.has_from_object = true;
	f.spec.version.fo_kind = "ConfigMap";
	f.spec.version.fo_name = "stage-obj";
	W.obj_version = "\xc2\xa0" "1.5.0 "; /* Unicode white space is trimmed too */
	W.obj_ms = 3000;
	CU_ASSERT_EQUAL_FATAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_STRING_EQUAL(f.plan.desired, "1.5.0");
	CU_ASSERT_EQUAL(W.obj_stage, 0); /* no stage: the first */
	CU_ASSERT_EQUAL(f.clock.now_ms, 1003000);

	W.obj_version = "";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "invalid version: version field on ConfigMap \"stage-obj\" in stage \"stage-a\" resolved to empty");
	W.obj_err = "version object ConfigMap \"stage-obj\" not found in stage \"stage-a\" manifests";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "invalid version: version object ConfigMap \"stage-obj\" not found in stage \"stage-a\" manifests");
	W.obj_transient = true;
	W.obj_err = "fetch version artifact for stage \"stage-a\": timeout";
	CU_ASSERT_EQUAL(plan(&f), MIG_ERROR);
	ASSERT_STR(f.v.err.msg, "fetch version artifact for stage \"stage-a\": timeout");
	f.spec.version.fo_stage = "ghost";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "invalid version: spec.version.fromObject.stage \"ghost\" is not a stage");
	f.spec.nstages = 0;
	f.spec.version.fo_stage = "";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	ASSERT_STR(f.v.message, "invalid version: spec.version.fromObject has no stage and the StageSet declares none");
	fx_release(&f);
}

static const char *const SRC_PATHS[] = { "ladder/01.yaml", "ladder/README.md" };
static const char *const SRC_CONTENTS[] = {
	"- name: drop-then-patch\n  to: \"2.0.0\"\n  stage: stage-a\n"
	"  actions:\n  - {name: delete-legacy, delete: {target: {kind: ConfigMap, name: legacy}}}\n"
	"  - {name: patch-ghost, patch: {target: {kind: ConfigMap, name: ghost}, patch: '{}'}}\n",
	"# notes\n",
};

static void sourced(struct fixture *f)
{
	f->spec.has_migrations_source = true;
	f->spec.migrations_source_ref.name = "ladder";
	f->spec.migrations_source_path = "ladder";
	W.lpaths = SRC_PATHS;
	W.lcontents = SRC_CONTENTS;
	W.nl = 2;
	W.revision = "main@sha1:0a1b";
	W.digest = "sha256:c0ffee";
	W.l_ms = 700;
}

/* T-21 TestReconcile_SourcedMigration_RunsAndAdvancesVersion, T-22 …_LedgerPersistsAndSkipsDestructiveRetry */
static void test_reconcile_sourced_migration_runs_and_advances_version(void)
{
	struct fixture f;
	struct ssc_err err = { 0 };
	fx_init(&f, "2.0.0", "1.0.0", NULL);
	sourced(&f);
	CU_ASSERT_EQUAL_FATAL(plan(&f), MIG_PROCEED);
	CU_ASSERT_TRUE(W.no_cross_seen); /* always resolved same-namespace */
	CU_ASSERT_EQUAL(f.clock.now_ms, 1000700);
	ASSERT_NAMES(f.plan.pending, f.plan.npending, "drop-then-patch");
	CU_ASSERT_STRING_EQUAL(f.plan.source_revision, "main@sha1:0a1b");
	CU_ASSERT_STRING_EQUAL(f.plan.source_digest, "sha256:c0ffee");
	CU_ASSERT_EQUAL(f.ev.n, 0); /* nil Pinned: exempt */

	/* the first run deletes legacy, then the patch fails; the retry skips the delete */
	struct fake_executor fe = { .fail_on = "patch-ghost" };
	struct mig_executor ex = { fake_run, &fe };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&f.status, "stage-a", &f.plan, &ex, &f.clock, &f.ev, &err), -1);
	CU_ASSERT_EQUAL_FATAL(f.status.executed_migration_actions.n, 1);
	size_t len = strlen(f.status.executed_migration_actions.items[0]);
	CU_ASSERT_STRING_EQUAL(f.status.executed_migration_actions.items[0] + len - strlen("/delete-legacy"), "/delete-legacy");
	CU_ASSERT_STRING_EQUAL(f.ev.items[0].note, "migration \"drop-then-patch\" (to 2.0.0) starting from source revision "
						   "main@sha1:0a1b (artifact sha256:c0ffee)");
	struct fake_executor fe2 = { 0 };
	struct mig_executor ex2 = { fake_run, &fe2 };
	CU_ASSERT_EQUAL(mig_run_stage_migrations(&f.status, "stage-a", &f.plan, &ex2, &f.clock, &f.ev, &err), 0);
	CU_ASSERT_STRING_EQUAL(fe2.ran, "patch-ghost");
	fx_release(&f);
}

/* T-23 TestReconcile_SourcedMigration_InvalidArtifactFailsClosed, and the other sourced refusals */
static void test_reconcile_sourced_migration_invalid_artifact_fails_closed(void)
{
	static const char *const bad_contents[] = { "- name: a\n  to: \"2.0.0\"\n  bogusField: x\n" };
	static const char *const bad_paths[] = { "m.yaml" };
	static const char *const http_contents[] = {
		"- {name: a, to: \"2.0.0\", stage: stage-a, actions: [{name: x, delete: {}}], down: [{name: y, http: {url: u}}]}\n"
	};
	struct fixture f;

	fx_init(&f, "2.0.0", "1.0.0", NULL);
	sourced(&f);
	W.lpaths = bad_paths;
	W.lcontents = bad_contents;
	W.nl = 1;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "MigrationArtifactInvalid");
	ASSERT_STR(f.v.message, "parsing migrations file \"m.yaml\": error unmarshaling JSON: while decoding JSON: json: "
				"cannot unmarshal array into Go value of type v1.Migration");

	/* an http action anywhere needs --allowed-action-hosts */
	W.lcontents = http_contents;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "InvalidSpec");
	ASSERT_STR(f.v.message, "the migration ladder sourced from spec.migrationsSourceRef uses an http action, but "
				"--allowed-action-hosts is not configured; remote-authored http actions require a host allowlist");
	f.opt.allowed_action_hosts_set = true;
	CU_ASSERT_EQUAL(plan(&f), MIG_PROCEED);

	/* ValidateLadder on the artifact */
	static const char *const dup[] = { "- {name: a, to: 2.0.0}\n- {name: a, to: 3.0.0}\n" };
	W.lcontents = dup;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "MigrationArtifactInvalid");
	ASSERT_STR(f.v.message, "duplicate migration name \"a\"; names are the idempotency-ledger key and must be unique");

	/* fetch: terminal vs transient */
	W.lerr = SSC_ERR_TERMINAL_FETCH;
	W.lerr_msg = "digest mismatch";
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "MigrationArtifactInvalid");
	ASSERT_STR(f.v.message, "fetch migrations artifact: digest mismatch");
	W.lerr = SSC_ERR;
	W.lerr_msg = "503 Service Unavailable";
	CU_ASSERT_EQUAL(plan(&f), MIG_ERROR);
	ASSERT_STR(f.v.err.msg, "fetch migrations artifact: 503 Service Unavailable");
	W.lerr = SSC_OK;

	/* verification and pinning */
	W.verified = 0;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "MigrationSourceNotVerified");
	W.verified = -1;
	f.opt.require_verified_migration_sources = true;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "MigrationSourceNotVerified");
	f.opt.require_verified_migration_sources = false;
	W.pinned = 0;
	size_t before = f.ev.n;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED); /* still the duplicate name, after the warning */
	CU_ASSERT_EQUAL(f.ev.n, before + 1);
	CU_ASSERT_STRING_EQUAL(f.ev.items[f.ev.n - 1].reason, "MigrationSourceMutable");
	f.opt.require_pinned_migration_sources = true;
	CU_ASSERT_EQUAL(plan(&f), MIG_REFUSED);
	CU_ASSERT_STRING_EQUAL(f.v.reason, "MigrationSourceNotPinned");
	CU_ASSERT_EQUAL(f.ev.n, before + 1);
	fx_release(&f);
}

/* resolveMigrationLadder: the resolver's error classes */
static void test_resolve_migration_ladder_resolve_errors(void)
{
	static const struct {
		enum res_class cls;
		enum ssc_errc api;
		int rc;
		const char *reason, *text;
	} cases[] = {
		{ RES_RBAC_DENIED, SSC_ERR_FORBIDDEN, MIG_REFUSED, "RBACDenied",
		  "RBAC denied resolving the migrations source CR \xe2\x80\x94 grant the missing verb to the tenant "
		  "ServiceAccount (see the Tenancy and RBAC guide). E" },
		{ RES_RBAC_DENIED, SSC_ERR_NO_MATCH, MIG_REFUSED, "RBACDenied",
		  "resolving the migrations source CR refers to a kind not registered with the apiserver \xe2\x80\x94 install "
		  "the corresponding CRD. E" },
		{ RES_SOURCE_NOT_READY, SSC_OK, MIG_ERROR, NULL, "migrations source not ready: E" },
		{ RES_ARTIFACT_NOT_FOUND, SSC_OK, MIG_ERROR, NULL, "migrations source not ready: E" },
		{ RES_RESOLVE_FAILED, SSC_OK, MIG_REFUSED, "ResolveFailed", "migrations source: E" },
		{ RES_INVALID_SPEC, SSC_OK, MIG_ERROR, NULL, "E" },
		{ RES_API_ERROR, SSC_ERR, MIG_ERROR, NULL, "E" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;
		fx_init(&f, "2.0.0", "1.0.0", NULL);
		sourced(&f);
		W.rcls = cases[i].cls;
		W.rapi = cases[i].api;
		W.rmsg = "E";
		CU_ASSERT_EQUAL(plan(&f), cases[i].rc);
		if (cases[i].rc == MIG_REFUSED) {
			CU_ASSERT_STRING_EQUAL(f.v.reason, cases[i].reason);
			ASSERT_STR(f.v.message, cases[i].text);
		} else {
			ASSERT_STR(f.v.err.msg, cases[i].text);
		}
		CU_ASSERT_EQUAL(W.nladder, 0);
		fx_release(&f);
	}
}

static CU_TestInfo tests[] = {
	{ "coverageGap (TestCoverageGap)", test_coverage_gap },
	{ "anchorStage (TestAnchorStage)", test_anchor_stage },
	{ "resolveAnchors (TestResolveAnchors)", test_resolve_anchors },
	{ "pendingDetails (TestPendingDetails)", test_pending_details },
	{ "resolveMigrationLadder: inline (TestResolveMigrationLadder_Inline)", test_resolve_migration_ladder_inline },
	{ "resolveMigrationLadder: inline duplicate name rejected", test_resolve_migration_ladder_inline_duplicate_name_rejected },
	{ "resolveMigrationLadder: resolver errors", test_resolve_migration_ladder_resolve_errors },
	{ "migrationSourceSuffix (TestMigrationSourceSuffix)", test_migration_source_suffix },
	{ "migrationDigest (TestMigrationDigest, Go json.Marshal bytes)", test_migration_digest },
	{ "checkMigrationSourceVerified (TestCheckMigrationSourceVerified)", test_check_migration_source_verified },
	{ "checkMigrationSourcePinned (TestCheckMigrationSourcePinned)", test_check_migration_source_pinned },
	{ "ladderHasHTTP (TestLadderHasHTTP)", test_ladder_has_http },
	{ "actionsDoneFor (TestActionsDoneFor)", test_actions_done_for },
	{ "runStageMigrations: per-action idempotency", test_run_stage_migrations_per_action_idempotency },
	{ "runStageMigrations: fully done skipped", test_run_stage_migrations_fully_done_skipped },
	{ "runStageMigrations: content change re-runs", test_run_stage_migrations_content_change_re_runs },
	{ "runStageDowngrades: down ledger and events", test_run_stage_downgrades },
	{ "pruneSupersededLedger (TestPruneSupersededLedger, TestMigEntryName_Variants)", test_prune_superseded_ledger },
	{ "SelectDown (TestSelectDown)", test_select_down },
	{ "ValidateMigration: down actions (TestValidateMigration_DownActions)", test_validate_migration_down_actions },
	{ "ParseLadder (TestParseLadder)", test_parse_ladder },
	{ "ParseLadder: UnmarshalStrict's conversion and errors", test_parse_ladder_decoding },
	{ "ValidateLadder: DoS caps (TestValidateLadder_DoSCaps)", test_validate_ladder_dos_caps },
	{ "ValidateLadder (TestValidateLadder)", test_validate_ladder },
	{ "Select: ascending target, boundary", test_select_orders_by_ascending_target_and_honors_boundary },
	{ "Select: from constraint filters by current", test_select_from_constraint_filters_by_current },
	{ "Explain: exclusion reasons (TestExplain_ReportsExclusionReasons)", test_explain_reports_exclusion_reasons },
	{ "Select: selection invariants (TestSelect_Property, exhaustive)", test_select_property },
	{ "versionApprovalNeeded (R-14)", test_version_approval_needed },
	{ "rollbackDirective (P-3)", test_rollback_directive },
	{ "migrationApprovalPredicate (TestMigrationApprovalPredicate_Update)", test_migration_approval_predicate_update },
	{ "plan: unversioned (P-1)", test_plan_unversioned },
	{ "plan: baselines without running (T-15)", test_reconcile_migration_baselines_without_running },
	{ "plan: runs on upgrade (T-16)", test_reconcile_migration_runs_on_upgrade },
	{ "plan: no change (P-7)", test_plan_no_change },
	{ "plan: require coverage blocks major (T-12)", test_reconcile_migration_require_coverage_blocks_major },
	{ "plan: require approval holds then proceeds (T-13)", test_reconcile_migration_require_approval_holds_then_proceeds },
	{ "plan: approval Always holds a migration-free advance (T-14)",
	  test_reconcile_version_approval_always_holds_migration_free_advance },
	{ "plan: downgrade refused (T-17, T-27)", test_reconcile_migration_downgrade_refused },
	{ "plan: irreversible boundary refused (T-28)", test_reconcile_downgrade_irreversible_boundary_refused },
	{ "plan: downgrade unwinds every crossed boundary (T-24, T-25)", test_reconcile_downgrade_unwinds_every_crossed_boundary },
	{ "plan: rollback-to triggers a downgrade (T-26)", test_reconcile_rollback_to_annotation_triggers_downgrade },
	{ "plan: invalid versions (P-2, P-4, P-6)", test_plan_invalid_versions },
	{ "plan: anchor and ladder refusals (P-8, P-10)", test_plan_anchor_and_ladder_refusals },
	{ "plan: version from artifact (T-18, T-20)", test_reconcile_migration_version_from_artifact },
	{ "plan: version from object (T-19)", test_reconcile_migration_version_from_object },
	{ "plan: sourced migration runs, ledger skips the destructive retry (T-21, T-22)",
	  test_reconcile_sourced_migration_runs_and_advances_version },
	{ "plan: sourced invalid artifact fails closed (T-23) and the source gates",
	  test_reconcile_sourced_migration_invalid_artifact_fails_closed },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("stageset_migrations", tests);
}
