#ifndef MAGOS_TESTS_SSC_FAKE_ENV_H
#define MAGOS_TESTS_SSC_FAKE_ENV_H

/*
 * A small scripted world for the StageSet port's tests (struct ssc_env and
 * struct ssc_cluster over plain tables), standing in for the envtest cluster
 * the upstream tests run against (spec §6 "Harness"):
 *
 *  - objects the API reader serves (StageSets, ExternalArtifacts, Flux
 *    sources), each (kind, ns, name) with an optional forced error;
 *  - actions: per "stage/phase/name" a scripted outcome (fail the first n
 *    attempts or always, with an error class and text, a duration) and a hit
 *    count (the counting test servers of upstream);
 *  - per stage index: the apply outcome (the op that fails, objects
 *    rendered, objects SSA changed as drift), the kstatus wait, the CEL
 *    exprs poll, a rollback restore;
 *  - metric values by Prometheus query text, pod restarts and warning events
 *    by selector text;
 *  - the StageLedger, completionAnchor uids, the stored StageInventory.
 *
 * ssfx_pass() is one Reconcile: it parses the StageSet's spec and status,
 * runs ssc_reconcile() at the world's clock and applies the result to the
 * object as the API server would (finalizer, status, ledger), keeping every
 * event.  ssfx_drive() is upstream's driveReconcile: a second pass when the
 * first only added the finalizer.
 *
 * Everything is static inline so a test includes it and uses what it needs.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/objects.h"
#include "engine/stageset_controller.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/value.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"

#define SSFX_MAX_OBJS 32
#define SSFX_MAX_STAGES 8
#define SSFX_EA_API "source.toolkit.fluxcd.io/v1"
#define SSFX_SS_API "stages.metio.wtf/v1"
#define SSFX_T0 INT64_C(1767225600000) /* 2026-01-01T00:00:00Z */
#define SSFX_MIN INT64_C(60000)

struct ssfx_get_error {
	char kind[64], ns[64], name[128];
	enum ssc_errc code;
	char msg[256];
};

struct ssfx_action {
	char key[192];   /* "<stage index>/<phase>/<name>", "*" for any stage */
	int fail_times;  /* attempts that fail before one succeeds; -1: every attempt */
	enum ssc_errc code;
	char msg[256];
	int64_t dur_ms;
	int hits;        /* attempts made */
	int ok;          /* attempts that succeeded */
};

struct ssfx_apply {
	const char *failed_op; /* NULL: applied */
	enum ssc_errc code;
	char msg[256];
	int64_t dur_ms;
	size_t nobjects;       /* 0 means 1 */
	size_t nchanged;       /* objects SSA created or configured */
	char changed[256];
	bool image_skipped;
	const char *ids[8];    /* rendered entry IDs (struct ssc_cluster rendered) */
	size_t nids;
	int calls;
};

struct ssfx_wait {
	enum ssc_wait_result result;
	int64_t dur_ms;
	char msg[256];
	bool stalled;
	int calls;
};

struct ssfx_metric {
	char query[128];
	double value;
	bool fail;
	enum ssc_errc code;
	char msg[128];
	int calls;
};

struct ssfx_pods {
	char sel[128];
	int32_t restarts, events;
	enum ssc_errc restarts_err, events_err;
};

struct ssfx_restore {
	int rc; /* env->restore_stage's answer */
	char reason[64];
	char msg[256];
	enum ssc_errc code;
	int calls;
};

struct ssfx_record {
	char name[64];
	int position;
	const char *ids[8];
	size_t nids;
};

struct ssfx_file {
	char key[128];  /* the resolved artifact's Key(): "<ns>/<name>" */
	char path[128];
	char text[1024];
};

struct ssfx_event {
	int64_t at_ms;
	bool warning;
	char *reason, *note;
};

struct ssfx_world {
	struct obj *objs[SSFX_MAX_OBJS];
	size_t nobjs;
	struct ssfx_get_error get_errs[8];
	size_t nget_errs;
	enum ssc_errc list_err;
	const struct obj *listed[SSFX_MAX_OBJS];

	struct ssfx_action actions[32];
	size_t nactions;
	char action_log[64][192]; /* "<stage>/<phase>/<name>" in call order */
	size_t naction_log;

	struct ssfx_apply apply[SSFX_MAX_STAGES];
	struct ssfx_wait wait[SSFX_MAX_STAGES];
	struct ssfx_wait exprs[SSFX_MAX_STAGES];
	bool exprs_in_flight[SSFX_MAX_STAGES];
	struct ssfx_restore restore[SSFX_MAX_STAGES];

	struct ssfx_metric metrics[8];
	size_t nmetrics;

	struct ssfx_file files[16];     /* artifact files (versions, ladders) */
	size_t nfiles;
	enum ssc_errc fetch_err;        /* every artifact file read fails with this */
	char object_version[SSFX_MAX_STAGES][64]; /* fromObject answers per stage ("" = not found) */
	struct ssfx_pods pods[8];
	size_t npods;

	char no_inventory[SSFX_MAX_STAGES][64]; /* stages whose StageInventory record is missing */
	size_t nno_inventory;

	struct obj *ledger;
	enum ssc_errc ledger_err;
	struct {
		char name[128];
		char uid[64];
		int missing_reads; /* reads answered NotFound before the witness exists */
	} anchors[8];
	size_t nanchors;

	/* struct ssc_cluster */
	bool with_cluster;
	enum ssc_errc connect_err;
	bool kubeconfig_invalid;
	enum ssc_errc decrypt_err;
	enum ssc_errc records_err;
	struct ssfx_record records[SSFX_MAX_STAGES];
	size_t nrecords;
	struct ssc_inventory_record rec_view[SSFX_MAX_STAGES];
	enum ssc_errc delete_err;
	char deleted[32][128];
	size_t ndeleted;
	char shards_deleted[8][64];
	size_t nshards_deleted;

	int64_t now;
	int64_t anchor_ms;
	bool keep_clock;   /* do not advance now by a pass's elapsed time */
	struct ssc_keep *keep; /* optional: passes run with it (ssc_input.keep); the caller releases results with ssc_result_keep() */
	struct ssc_options opt;

	struct ssfx_event events[256];
	size_t nevents;
};

static inline struct val *ssfx_yaml(const char *text)
{
	struct yl_stream s;
	struct diag d;
	struct val *v;

	diag_init(&d);
	if (yl_load_string("t", text, strlen(text), &s, &d) != 0 || s.n != 1) {
		fprintf(stderr, "ssfx_yaml: bad YAML: %s\n", text);
		abort();
	}
	v = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	return v;
}

/* ---- the world's tables -------------------------------------------------- */

static inline void ssfx_init(struct ssfx_world *w)
{
	memset(w, 0, sizeof(*w));
	w->now = SSFX_T0;
	w->opt = ssc_options_default();
	for (size_t i = 0; i < SSFX_MAX_STAGES; i++) {
		w->apply[i].nobjects = 1;
		w->wait[i].result = SSC_WAIT_READY;
		w->exprs[i].result = SSC_WAIT_READY;
	}
}

static inline void ssfx_release(struct ssfx_world *w)
{
	for (size_t i = 0; i < w->nobjs; i++)
		obj_free(w->objs[i]);
	obj_free(w->ledger);
	for (size_t i = 0; i < w->nevents; i++) {
		free(w->events[i].reason);
		free(w->events[i].note);
	}
	memset(w, 0, sizeof(*w));
}

static inline struct obj *ssfx_add(struct ssfx_world *w, const char *api, const char *kind, const char *ns,
				   const char *name, const char *spec, const char *status)
{
	struct obj *o = obj_new(api, kind, ns, name);

	o->spec = spec ? ssfx_yaml(spec) : NULL;
	o->status = status ? ssfx_yaml(status) : NULL;
	free(o->uid);
	o->uid = xasprintf("uid-%s-%s", ns, name);
	w->objs[w->nobjs++] = o;
	return o;
}

static inline struct obj *ssfx_find(struct ssfx_world *w, const char *kind, const char *ns, const char *name)
{
	for (size_t i = 0; i < w->nobjs; i++)
		if (!strcmp(w->objs[i]->kind, kind) && !strcmp(w->objs[i]->ns, ns) && !strcmp(w->objs[i]->name, name))
			return w->objs[i];
	return NULL;
}

/* An ExternalArtifact serving revision @rev (Ready), or without an artifact when @rev is NULL (not Ready). */
static inline struct obj *ssfx_ea(struct ssfx_world *w, const char *ns, const char *name, const char *rev)
{
	char status[512];
	struct obj *o = ssfx_find(w, "ExternalArtifact", ns, name);

	if (rev)
		snprintf(status, sizeof(status),
			 "{conditions: [{type: Ready, status: 'True', reason: Succeeded}], artifact: "
			 "{url: 'http://source.flux-system.svc/%s/%s.tar.gz', revision: '%s', digest: 'sha256:%s'}}",
			 ns, name, rev, rev);
	else
		snprintf(status, sizeof(status), "{}");
	if (o) {
		val_free(o->status);
		o->status = ssfx_yaml(status);
		return o;
	}
	return ssfx_add(w, SSFX_EA_API, "ExternalArtifact", ns, name, NULL, status);
}

/* A StageSet with the finalizer not yet added; served to dependsOn reads too. */
static inline struct obj *ssfx_stageset(struct ssfx_world *w, const char *ns, const char *name, const char *spec)
{
	struct obj *o = ssfx_add(w, SSFX_SS_API, "StageSet", ns, name, spec, NULL);

	o->generation = 1;
	return o;
}

static inline void ssfx_annotate(struct obj *o, const char *key, const char *value)
{
	if (value)
		obj_strmap_set(&o->annotations, key, value);
	else
		obj_strmap_del(&o->annotations, key);
}

/* A spec edit: new spec, generation + 1. */
static inline void ssfx_respec(struct obj *o, const char *spec)
{
	val_free(o->spec);
	o->spec = ssfx_yaml(spec);
	o->generation++;
}

static inline void ssfx_get_error(struct ssfx_world *w, const char *kind, const char *ns, const char *name,
				  enum ssc_errc code, const char *msg)
{
	struct ssfx_get_error *e = &w->get_errs[w->nget_errs++];

	snprintf(e->kind, sizeof(e->kind), "%s", kind);
	snprintf(e->ns, sizeof(e->ns), "%s", ns);
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->code = code;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
}

/* Scripts action "<stage>/<phase>/<name>" ("*" for any stage): fails @fail_times attempts (-1 always). */
static inline struct ssfx_action *ssfx_action(struct ssfx_world *w, const char *key, int fail_times,
					       enum ssc_errc code, const char *msg)
{
	struct ssfx_action *a = &w->actions[w->nactions++];

	snprintf(a->key, sizeof(a->key), "%s", key);
	a->fail_times = fail_times;
	a->code = code;
	snprintf(a->msg, sizeof(a->msg), "%s", msg ? msg : "");
	return a;
}

/* Successful runs of the action named @name in any stage and phase. */
static inline int ssfx_action_hits(const struct ssfx_world *w, const char *name)
{
	int n = 0;

	for (size_t i = 0; i < w->naction_log; i++) {
		const char *s = strrchr(w->action_log[i], '/');

		if (s && !strcmp(s + 1, name))
			n++;
	}
	return n;
}

static inline struct ssfx_metric *ssfx_metric(struct ssfx_world *w, const char *query, double value)
{
	struct ssfx_metric *m = NULL;

	for (size_t i = 0; i < w->nmetrics; i++)
		if (!strcmp(w->metrics[i].query, query))
			m = &w->metrics[i];
	if (!m) {
		m = &w->metrics[w->nmetrics++];
		snprintf(m->query, sizeof(m->query), "%s", query);
	}
	m->value = value;
	m->fail = false;
	return m;
}

static inline void ssfx_metric_error(struct ssfx_world *w, const char *query, const char *msg)
{
	struct ssfx_metric *m = ssfx_metric(w, query, 0);

	m->fail = true;
	m->code = SSC_ERR;
	snprintf(m->msg, sizeof(m->msg), "%s", msg);
}

static inline struct ssfx_pods *ssfx_pods(struct ssfx_world *w, const char *sel)
{
	for (size_t i = 0; i < w->npods; i++)
		if (!strcmp(w->pods[i].sel, sel))
			return &w->pods[i];
	snprintf(w->pods[w->npods].sel, sizeof(w->pods[0].sel), "%s", sel);
	return &w->pods[w->npods++];
}

static inline void ssfx_anchor(struct ssfx_world *w, const char *name, const char *uid, int missing_reads)
{
	size_t i;

	for (i = 0; i < w->nanchors; i++)
		if (!strcmp(w->anchors[i].name, name))
			break;
	if (i == w->nanchors)
		w->nanchors++;
	snprintf(w->anchors[i].name, sizeof(w->anchors[i].name), "%s", name);
	snprintf(w->anchors[i].uid, sizeof(w->anchors[i].uid), "%s", uid);
	w->anchors[i].missing_reads = missing_reads;
}

/* A StageLedger with @spec and @status YAML (NULL: none). */
static inline void ssfx_ledger(struct ssfx_world *w, const char *ns, const char *name, const char *spec,
			       const char *status)
{
	obj_free(w->ledger);
	w->ledger = obj_new(SSFX_SS_API, "StageLedger", ns, name);
	w->ledger->spec = spec ? ssfx_yaml(spec) : NULL;
	w->ledger->status = status ? ssfx_yaml(status) : NULL;
}

/* A file @path of artifact "<ns>/<ea>" (any revision). */
static inline void ssfx_file(struct ssfx_world *w, const char *key, const char *path, const char *text)
{
	struct ssfx_file *f = &w->files[w->nfiles++];

	snprintf(f->key, sizeof(f->key), "%s", key);
	snprintf(f->path, sizeof(f->path), "%s", path);
	snprintf(f->text, sizeof(f->text), "%s", text);
}

/* ---- struct ssc_env ------------------------------------------------------ */

static inline const struct obj *ssfx_env_get(void *ctx, const char *api_version, const char *kind, const char *ns,
					     const char *name, int64_t at_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	for (size_t i = 0; i < w->nget_errs; i++)
		if (!strcmp(w->get_errs[i].kind, kind) && !strcmp(w->get_errs[i].ns, ns) &&
		    !strcmp(w->get_errs[i].name, name)) {
			ssc_err_set(err, w->get_errs[i].code, "%s", w->get_errs[i].msg);
			return NULL;
		}
	for (size_t i = 0; i < w->nobjs; i++) {
		const struct obj *o = w->objs[i];

		if (!strcmp(o->kind, kind) && !strcmp(o->ns, ns) && !strcmp(o->name, name) &&
		    (!api_version || !*api_version || !strcmp(o->api_version, api_version)))
			return o;
	}
	ssc_err_set(err, SSC_ERR_NOT_FOUND, "%s.%s \"%s\" not found", kind, api_version ? api_version : "", name);
	return NULL;
}

static inline size_t ssfx_env_list(void *ctx, const char *api_version, const char *kind, const char *ns,
				   int64_t at_ms, const struct obj *const **out, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;
	size_t n = 0;

	if (w->list_err) {
		ssc_err_set(err, w->list_err, "list %s failed", kind);
		return 0;
	}
	for (size_t i = 0; i < w->nobjs; i++)
		if (!strcmp(w->objs[i]->kind, kind) && !strcmp(w->objs[i]->ns, ns))
			w->listed[n++] = w->objs[i];
	*out = w->listed;
	return n;
}

static inline void ssfx_env_run_action(void *ctx, size_t stage, const char *phase, const struct sst_action *a,
				       int attempt, int64_t at_ms, int64_t *duration_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;
	char key[192], any[192];

	snprintf(key, sizeof(key), "%zu/%s/%s", stage, phase, a->name);
	snprintf(any, sizeof(any), "*/%s/%s", phase, a->name);
	*duration_ms = 0;
	for (size_t i = 0; i < w->nactions; i++) {
		struct ssfx_action *s = &w->actions[i];

		if (strcmp(s->key, key) && strcmp(s->key, any))
			continue;
		s->hits++;
		*duration_ms = s->dur_ms;
		if (s->fail_times < 0 || s->hits <= s->fail_times) {
			ssc_err_set(err, s->code ? s->code : SSC_ERR, "%s", s->msg);
			return;
		}
		s->ok++;
		break;
	}
	if (w->naction_log < 64)
		snprintf(w->action_log[w->naction_log++], sizeof(w->action_log[0]), "%s", key);
}

static inline void ssfx_env_apply_stage(void *ctx, size_t stage, const struct ssc_resolved *ra, int64_t at_ms,
					struct ssc_apply_outcome *out)
{
	struct ssfx_world *w = ctx;
	struct ssfx_apply *a = &w->apply[stage];

	a->calls++;
	memset(out, 0, sizeof(*out));
	out->failed_op = a->failed_op;
	if (a->failed_op)
		ssc_err_set(&out->err, a->code ? a->code : SSC_ERR, "%s", a->msg);
	out->duration_ms = a->dur_ms;
	out->nobjects = a->nobjects;
	out->nchanged = a->nchanged;
	snprintf(out->changed_names, sizeof(out->changed_names), "%s", a->changed);
	out->image_skipped = a->image_skipped;
}

static inline void ssfx_env_wait_stage(void *ctx, size_t stage, bool with_applied, int64_t timeout_ms, int64_t at_ms,
				       struct ssc_wait_outcome *out)
{
	struct ssfx_world *w = ctx;
	struct ssfx_wait *s = &w->wait[stage];

	s->calls++;
	memset(out, 0, sizeof(*out));
	out->result = s->result;
	out->duration_ms = s->result == SSC_WAIT_TIMEOUT && !s->dur_ms ? timeout_ms : s->dur_ms;
	out->stalled = s->stalled;
	if (s->result != SSC_WAIT_READY)
		ssc_err_set(&out->err, SSC_ERR, "%s", s->msg[0] ? s->msg : "timeout waiting for: [Deployment/ns/app status: 'InProgress']");
}

static inline void ssfx_env_ready_exprs(void *ctx, size_t stage, int64_t timeout_ms, int64_t at_ms,
					struct ssc_wait_outcome *out, bool *in_flight)
{
	struct ssfx_world *w = ctx;
	struct ssfx_wait *s = &w->exprs[stage];

	s->calls++;
	memset(out, 0, sizeof(*out));
	out->result = s->result;
	out->duration_ms = s->dur_ms;
	if (s->result != SSC_WAIT_READY)
		ssc_err_set(&out->err, SSC_ERR, "%s", s->msg);
	*in_flight = w->exprs_in_flight[stage];
}

static inline int ssfx_env_query(void *ctx, const struct sst_metric_source *src, int64_t at_ms, double *value,
				 int64_t *duration_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;
	const char *key = src->query ? src->query : src->url;

	*duration_ms = 0;
	for (size_t i = 0; i < w->nmetrics; i++)
		if (key && !strcmp(w->metrics[i].query, key)) {
			w->metrics[i].calls++;
			if (w->metrics[i].fail) {
				ssc_err_set(err, w->metrics[i].code, "%s", w->metrics[i].msg);
				return -1;
			}
			*value = w->metrics[i].value;
			return 0;
		}
	ssc_err_set(err, SSC_ERR, "query %s: no data", key ? key : "?");
	return -1;
}

static inline int ssfx_env_pods(struct ssfx_world *w, const struct lbl_selector *sel, bool events, int32_t *total,
				struct ssc_err *err)
{
	char *s = lbl_selector_string(sel);
	int rc = 0;

	*total = 0;
	for (size_t i = 0; i < w->npods; i++)
		if (!strcmp(w->pods[i].sel, s)) {
			enum ssc_errc e = events ? w->pods[i].events_err : w->pods[i].restarts_err;

			if (e) {
				ssc_err_set(err, e, "%s", e == SSC_ERR_FORBIDDEN ? "pods is forbidden: User cannot list resource \"pods\""
										: "the server is currently unable to handle the request");
				rc = -1;
			} else {
				*total = events ? w->pods[i].events : w->pods[i].restarts;
			}
		}
	free(s);
	return rc;
}

static inline int ssfx_env_pod_restarts(void *ctx, const char *ns, const struct lbl_selector *sel, int64_t at_ms,
					int32_t *total, struct ssc_err *err)
{
	return ssfx_env_pods(ctx, sel, false, total, err);
}

static inline int ssfx_env_warning_events(void *ctx, const char *ns, const struct lbl_selector *sel,
					  const char *const *reasons, size_t nreasons, int64_t at_ms, int32_t *total,
					  struct ssc_err *err)
{
	return ssfx_env_pods(ctx, sel, true, total, err);
}

static inline int ssfx_env_restore_stage(void *ctx, size_t stage, const struct sst_artifact_ref *ref,
					 bool from_store, int64_t at_ms, int64_t *duration_ms, char *reason, size_t reasonlen, char *msg,
					 size_t msglen, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;
	struct ssfx_restore *r = &w->restore[stage];

	r->calls++;
	*duration_ms = 0;
	if (r->rc == 1) {
		snprintf(reason, reasonlen, "%s", r->reason);
		snprintf(msg, msglen, "%s", r->msg);
	} else if (r->rc != 0) {
		ssc_err_set(err, r->code ? r->code : SSC_ERR, "%s", r->msg);
	}
	return r->rc;
}

static inline bool ssfx_env_inventory_has(void *ctx, const char *stage, int64_t *entries)
{
	struct ssfx_world *w = ctx;

	*entries = 1;
	for (size_t i = 0; i < w->nno_inventory; i++)
		if (!strcmp(w->no_inventory[i], stage))
			return false;
	return true;
}

static inline const struct obj *ssfx_env_ledger(void *ctx, int64_t at_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	if (w->ledger_err) {
		ssc_err_set(err, w->ledger_err, "get StageLedger failed");
		return NULL;
	}
	if (!w->ledger)
		ssc_err_set(err, SSC_ERR_NOT_FOUND, "stageledgers.stages.metio.wtf not found");
	return w->ledger;
}

static inline int ssfx_env_anchor_uid(void *ctx, const char *api_version, const char *kind, const char *ns,
				      const char *name, int64_t at_ms, char *uid, size_t uidlen, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	for (size_t i = 0; i < w->nanchors; i++)
		if (!strcmp(w->anchors[i].name, name)) {
			if (w->anchors[i].missing_reads > 0) {
				w->anchors[i].missing_reads--;
				break;
			}
			snprintf(uid, uidlen, "%s", w->anchors[i].uid);
			return 0;
		}
	ssc_err_set(err, SSC_ERR_NOT_FOUND, "%s \"%s\" not found", kind, name);
	return -1;
}

static inline int ssfx_env_artifact_file(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms,
					 char **content, int64_t *duration_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	*duration_ms = 0;
	*content = NULL;
	if (w->fetch_err) {
		ssc_err_set(err, w->fetch_err, "GET %s: 503 Service Unavailable", ra->url ? ra->url : "");
		return -1;
	}
	for (size_t i = 0; i < w->nfiles; i++)
		if (!strcmp(w->files[i].key, ra->key) && !strcmp(w->files[i].path, path)) {
			*content = xstrdup(w->files[i].text);
			return 0;
		}
	ssc_err_set(err, SSC_ERR_NOT_FOUND, "%s: no such file", path);
	return -1;
}

static inline size_t ssfx_env_ladder_files(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms,
					   char ***paths, char ***contents, int64_t *duration_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;
	const char *dir = path;
	size_t n = 0, dl;

	*duration_ms = 0;
	*paths = NULL;
	*contents = NULL;
	if (w->fetch_err) {
		ssc_err_set(err, w->fetch_err, "GET %s: 503 Service Unavailable", ra->url ? ra->url : "");
		return 0;
	}
	if (!strncmp(dir, "./", 2))
		dir += 2;
	dl = strlen(dir);
	for (size_t i = 0; i < w->nfiles; i++) {
		if (strcmp(w->files[i].key, ra->key) || strncmp(w->files[i].path, dir, dl))
			continue;
		*paths = xreallocarray(*paths, n + 1, sizeof(**paths));
		*contents = xreallocarray(*contents, n + 1, sizeof(**contents));
		(*paths)[n] = xstrdup(w->files[i].path);
		(*contents)[n++] = xstrdup(w->files[i].text);
	}
	return n;
}

static inline int ssfx_env_object_version(void *ctx, size_t stage, const struct ssc_resolved *ra, const char *kind,
					  const char *name, const char *api_version, const char *field_path,
					  int64_t at_ms, char **version, bool *transient, int64_t *duration_ms,
					  struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	*duration_ms = 0;
	*transient = false;
	*version = NULL;
	if (!w->object_version[stage][0]) {
		ssc_err_set(err, SSC_ERR, "version object %s \"%s\" not found in stage manifests", kind, name);
		return -1;
	}
	*version = xstrdup(w->object_version[stage]);
	return 0;
}

static inline int ssfx_env_parse_ladder_file(void *ctx, const char *path, const char *text, struct val **out,
					     char *err, size_t errlen)
{
	struct yl_stream st;
	struct diag d;

	*out = NULL;
	diag_init(&d);
	if (yl_load_string(path, text, strlen(text), &st, &d) != 0) {
		snprintf(err, errlen, "yaml: could not parse %s", path);
		diag_release(&d);
		return -1;
	}
	if (st.n > 0 && st.docs[0].root)
		*out = val_copy(st.docs[0].root);
	yl_stream_release(&st);
	diag_release(&d);
	return 0;
}

static inline struct ssc_env ssfx_env(struct ssfx_world *w)
{
	struct ssc_env e;

	memset(&e, 0, sizeof(e));
	e.ctx = w;
	e.get = ssfx_env_get;
	e.list = ssfx_env_list;
	e.run_action = ssfx_env_run_action;
	e.apply_stage = ssfx_env_apply_stage;
	e.wait_stage = ssfx_env_wait_stage;
	e.ready_exprs = ssfx_env_ready_exprs;
	e.query = ssfx_env_query;
	e.pod_restarts = ssfx_env_pod_restarts;
	e.warning_events = ssfx_env_warning_events;
	e.restore_stage = ssfx_env_restore_stage;
	e.inventory_has = ssfx_env_inventory_has;
	e.ledger = ssfx_env_ledger;
	e.anchor_uid = ssfx_env_anchor_uid;
	e.artifact_file = ssfx_env_artifact_file;
	e.ladder_files = ssfx_env_ladder_files;
	e.object_version = ssfx_env_object_version;
	e.parse_ladder_file = ssfx_env_parse_ladder_file;
	return e;
}

/* ---- struct ssc_cluster -------------------------------------------------- */

static inline int ssfx_cl_connect(void *ctx, const char *sa, int64_t at_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	if (w->kubeconfig_invalid) {
		ssc_err_set(err, SSC_ERR, "invalid spec.kubeConfig: unknown cloud provider \"moon\"");
		return 1;
	}
	if (w->connect_err) {
		ssc_err_set(err, w->connect_err, "%s", w->connect_err == SSC_ERR_UNAUTHORIZED ? "Unauthorized"
							 : "dial target: no route to host");
		return -1;
	}
	return 0;
}

static inline int ssfx_cl_decryptor(void *ctx, int64_t at_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	if (w->decrypt_err) {
		ssc_err_set(err, w->decrypt_err, "read key Secret \"sops-age\": MAC mismatch");
		return -1;
	}
	return 0;
}

static inline int ssfx_cl_records(void *ctx, int64_t at_ms, const struct ssc_inventory_record **out, size_t *n,
				  struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	if (w->records_err) {
		ssc_err_set(err, w->records_err, "list StageInventory failed");
		return -1;
	}
	for (size_t i = 0; i < w->nrecords; i++) {
		w->rec_view[i].name = w->records[i].name;
		w->rec_view[i].position = w->records[i].position;
		w->rec_view[i].ids = w->records[i].ids;
		w->rec_view[i].nids = w->records[i].nids;
	}
	*out = w->rec_view;
	*n = w->nrecords;
	return 0;
}

static inline size_t ssfx_cl_rendered(void *ctx, size_t stage, const char *const **ids)
{
	struct ssfx_world *w = ctx;

	*ids = w->apply[stage].ids;
	return w->apply[stage].nids;
}

static inline int ssfx_cl_delete(void *ctx, const char *sa, const char *const *ids, size_t n, int64_t at_ms,
				 int64_t *duration_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	*duration_ms = 0;
	if (w->delete_err) {
		ssc_err_set(err, w->delete_err, "%s", w->delete_err == SSC_ERR_FORBIDDEN
				 ? "deployments.apps \"web\" is forbidden: serviceaccount cannot delete resource"
				 : "dial target: no route to host");
		return -1;
	}
	for (size_t i = 0; i < n && w->ndeleted < 32; i++)
		snprintf(w->deleted[w->ndeleted++], sizeof(w->deleted[0]), "%s", ids[i]);
	return 0;
}

static inline int ssfx_cl_delete_shards(void *ctx, const char *stage, int64_t at_ms, struct ssc_err *err)
{
	struct ssfx_world *w = ctx;

	snprintf(w->shards_deleted[w->nshards_deleted++], sizeof(w->shards_deleted[0]), "%s", stage);
	return 0;
}

static inline struct ssc_cluster ssfx_cluster(struct ssfx_world *w)
{
	struct ssc_cluster c;

	memset(&c, 0, sizeof(c));
	c.ctx = w;
	c.connect = ssfx_cl_connect;
	c.decryptor = ssfx_cl_decryptor;
	c.records = ssfx_cl_records;
	c.rendered = ssfx_cl_rendered;
	c.delete_objects = ssfx_cl_delete;
	c.delete_shards = ssfx_cl_delete_shards;
	return c;
}

static inline struct ssfx_record *ssfx_record(struct ssfx_world *w, const char *stage, int position)
{
	struct ssfx_record *r = &w->records[w->nrecords++];

	snprintf(r->name, sizeof(r->name), "%s", stage);
	r->position = position;
	return r;
}

/* ---- a pass --------------------------------------------------------------- */

/*
 * ssfx_pass() - one Reconcile of @ss at the world's clock; the result is
 * applied to @ss (finalizer, status, ledger) and kept in @r (release with
 * ssc_result_release()).  The clock then moves by the pass's elapsed time
 * unless keep_clock.
 */
static inline void ssfx_pass(struct ssfx_world *w, struct obj *ss, struct ssc_result *r)
{
	struct sst_spec spec;
	struct sst_status prior;
	struct ssc_input in;
	struct ssc_env env = ssfx_env(w);
	struct ssc_cluster cl = ssfx_cluster(w);
	char err[256];

	memset(&spec, 0, sizeof(spec));
	if (sst_spec_parse(ss->spec, &spec, err, sizeof(err)) != 0) {
		fprintf(stderr, "ssfx_pass: spec: %s\n", err);
		abort();
	}
	sst_status_parse(ss->status, &prior);
	memset(&in, 0, sizeof(in));
	in.ss = ss;
	in.spec = &spec;
	in.prior = &prior;
	in.now_ms = w->now;
	in.anchor_ms = w->anchor_ms;
	in.opt = &w->opt;
	in.env = &env;
	in.cluster = w->with_cluster ? &cl : NULL;
	in.keep = w->keep;
	ssc_reconcile(&in, r);
	if (r->add_finalizer)
		obj_add_finalizer(ss, SSC_FINALIZER);
	if (r->remove_finalizer)
		obj_remove_finalizer(ss, SSC_FINALIZER);
	if (r->write_status) {
		val_free(ss->status);
		ss->status = sst_status_to_val(&r->status);
	}
	if (r->ledger) {
		struct obj *l = obj_new("stages.metio.wtf/v1", "StageLedger", ss->ns, ss->name);

		l->spec = val_copy(val_map_get(r->ledger, "spec"));
		l->status = val_copy(val_map_get(r->ledger, "status"));
		obj_free(w->ledger);
		w->ledger = l;
	}
	for (size_t i = 0; i < r->events.n && w->nevents < 256; i++) {
		struct ssfx_event *e = &w->events[w->nevents++];

		e->at_ms = r->events.items[i].at_ms;
		e->warning = r->events.items[i].warning;
		e->reason = xstrdup(r->events.items[i].reason);
		e->note = xstrdup(r->events.items[i].note);
	}
	if (!w->keep_clock)
		w->now += r->elapsed_ms;
	sst_status_release(&prior);
	sst_spec_release(&spec);
}

/* ssfx_drive() - driveReconcile: one pass, and a second when the first only added the finalizer. */
static inline void ssfx_drive(struct ssfx_world *w, struct obj *ss, struct ssc_result *r)
{
	ssfx_pass(w, ss, r);
	if (r->exit == SSC_EXIT_FINALIZER) {
		ssc_result_release(r);
		ssfx_pass(w, ss, r);
	}
}

/* ssfx_drive_free() - ssfx_drive() when the test only looks at the object and the world. */
static inline void ssfx_drive_free(struct ssfx_world *w, struct obj *ss)
{
	struct ssc_result r;

	ssfx_drive(w, ss, &r);
	ssc_result_release(&r);
}

/* ---- reading the outcome ---------------------------------------------------- */

/* The Ready condition's reason on @ss ("" when none). */
static inline const char *ssfx_ready_reason(const struct obj *ss)
{
	const struct val *c = obj_ready_condition(ss);

	return c ? val_str(val_map_get(c, "reason"), "") : "";
}

static inline const char *ssfx_ready_status(const struct obj *ss)
{
	const struct val *c = obj_ready_condition(ss);

	return c ? val_str(val_map_get(c, "status"), "") : "";
}

static inline const char *ssfx_ready_message(const struct obj *ss)
{
	const struct val *c = obj_ready_condition(ss);

	return c ? val_str(val_map_get(c, "message"), "") : "";
}

/* A status field by dotted path ("version", "stages.0.phase"); "" when absent or not a string. */
static inline const char *ssfx_status_str(const struct obj *ss, const char *path)
{
	return val_str(val_path(ss->status, path), "");
}

static inline int64_t ssfx_status_int(const struct obj *ss, const char *path)
{
	return val_int(val_path(ss->status, path), 0);
}

/* Events of @reason the world saw (all passes). */
static inline int ssfx_events(const struct ssfx_world *w, const char *reason)
{
	int n = 0;

	for (size_t i = 0; i < w->nevents; i++)
		if (!strcmp(w->events[i].reason, reason))
			n++;
	return n;
}

/* The last event of @reason's note, or "(no such event)". */
static inline const char *ssfx_event_note(const struct ssfx_world *w, const char *reason)
{
	const char *note = "(no such event)";

	for (size_t i = 0; i < w->nevents; i++)
		if (!strcmp(w->events[i].reason, reason))
			note = w->events[i].note;
	return note;
}

/* Whether the world saw an event of @reason whose note is @note. */
static inline bool ssfx_has_event(const struct ssfx_world *w, const char *reason, const char *note)
{
	for (size_t i = 0; i < w->nevents; i++)
		if (!strcmp(w->events[i].reason, reason) && !strcmp(w->events[i].note, note))
			return true;
	return false;
}

/* Events of @reason in one pass's result. */
static inline int ssfx_result_events(const struct ssc_result *r, const char *reason)
{
	int n = 0;

	for (size_t i = 0; i < r->events.n; i++)
		if (!strcmp(r->events.items[i].reason, reason))
			n++;
	return n;
}

#endif
