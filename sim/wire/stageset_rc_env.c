/*
 * What a StageSet pass asks outside the controller, answered from the store
 * and the world: see sim/wire/stageset_rc_env.h.
 */
#include "sim/wire/stageset_rc_env.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/labels.h"
#include "engine/sha256.h"
#include "engine/stageset_types.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/rng.h"
#include "sim/core/timeline.h"
#include "sim/load/ladder_files.h"
#include "sim/load/tzif.h"
#include "sim/models/stageset_world_gates.h"
#include "sim/models/stageset_world_sources.h"
#include "sim/models/stageset_world_stages.h"
#include "sim/models/stageset_world_store.h"
#include "sim/wire/fleet_rc.h"
#include "sim/wire/stageset_rc_inv.h"
#include "sim/wire/stageset_rc_rec.h"
#include "sim/wire/stageset_rc_watch.h"

/* ---------------------------------------------------------------- the env */

static const struct obj *env_get(void *ctx, const char *api_version, const char *kind, const char *ns,
				 const char *name, int64_t at_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;
	const struct obj *o = api_get(pe->r->api, kind, ns, name);

	(void)api_version;
	if (o)
		return o;
	if (strcmp(kind, SSRR_KIND_EA) == 0 || ssrw_direct_kind(kind))
		return sws_source_get(pe->r->world, api_version, kind, ns, name, ssrr_sim_ms(pe->r, at_ms), err);
	ssrr_not_found(err, kind, name);
	return NULL;
}

static size_t env_list(void *ctx, const char *api_version, const char *kind, const char *ns, int64_t at_ms,
		       const struct obj *const **out, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;
	struct ssrc *r = pe->r;
	const struct obj *const *modelled = NULL;
	size_t n = api_list(r->api, kind, ns, NULL, NULL, &r->scratch), nm = 0, total;

	(void)api_version;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (strcmp(kind, SSRR_KIND_EA) == 0)
		nm = sws_source_list(r->world, ns, ssrr_sim_ms(r, at_ms), &modelled, err);
	if (err->code != SSC_OK)
		return 0;
	total = n + nm;
	if (total > r->caplisted) {
		r->caplisted = total;
		r->listed = xreallocarray(r->listed, r->caplisted, sizeof(*r->listed));
	}
	memcpy(r->listed, r->scratch.items, n * sizeof(*r->listed));
	for (size_t i = 0; i < nm; i++) {
		const struct val *msr = val_map_get(modelled[i]->spec, "sourceRef");
		bool shadowed = false;

		/* a stored ExternalArtifact of that name or back-pointer wins */
		for (size_t k = 0; k < n && !shadowed; k++) {
			const struct val *sr = val_map_get(r->scratch.items[k]->spec, "sourceRef");

			shadowed = strcmp(r->scratch.items[k]->name, modelled[i]->name) == 0 ||
				   (sr && msr &&
				    ssrr_streq(val_str(val_map_get(sr, "kind"), ""), val_str(val_map_get(msr, "kind"), "")) &&
				    ssrr_streq(val_str(val_map_get(sr, "name"), ""), val_str(val_map_get(msr, "name"), "")));
		}
		if (!shadowed)
			r->listed[n++] = modelled[i];
	}
	*out = r->listed;
	return n;
}

static int env_artifact_file(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms,
			     char **content, int64_t *duration_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	return sws_artifact_file(pe->r->world, ra, path, ssrr_sim_ms(pe->r, at_ms), content, duration_ms, err);
}

static size_t env_ladder_files(void *ctx, const struct ssc_resolved *ra, const char *path, int64_t at_ms,
			       char ***paths, char ***contents, int64_t *duration_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	return sws_ladder_files(pe->r->world, ra, path, ssrr_sim_ms(pe->r, at_ms), paths, contents, duration_ms,
			       err);
}

static int env_object_version(void *ctx, size_t stage, const struct ssc_resolved *ra, const char *kind,
			      const char *name, const char *api_version, const char *field_path,
			      int64_t at_ms, char **version, bool *transient, int64_t *duration_ms,
			      struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	(void)api_version;
	return sws_object_version(pe->r->world, &pe->sm, stage, ra, kind, name, field_path,
				 ssrr_sim_ms(pe->r, at_ms), version, transient, duration_ms, err);
}

/* A Go duration string of a verb's body (wait.timeout), or -1. */
static int64_t body_duration(const struct val *body, const char *key)
{
	int64_t ms;

	if (sst_parse_duration(val_str(val_map_get(body, key), ""), &ms) != 0)
		return -1;
	return ms;
}

/*
 * The verbs' own bounds on one attempt (actions.go): an http request's 30 s
 * client timeout, an expression wait's timeout (default 5m), and, without
 * the action's own timeout, a job's 10m and an apply wait's 5m.  The world
 * says how long the attempt would take; past the bound it is cut there and
 * fails as the verb does.  A plain wait takes its duration.
 */
static void verb_bounds(const struct sst_action *a, int64_t *took, struct ssc_err *err)
{
	const char *verb = ssrr_nz(a->verb);
	int64_t limit = -1;

	if (strcmp(verb, "wait") == 0) {
		int64_t d = body_duration(a->body, "duration");

		if (d >= 0) {
			*took = d;
			err->code = SSC_OK;
			err->msg[0] = '\0';
			return;
		}
		limit = body_duration(a->body, "timeout");
		if (limit < 0)
			limit = 5 * 60 * SSRR_MS_PER_S;
		if (*took > limit) {
			const struct val *tg = val_map_get(a->body, "target");
			char *qe = gofmt_quote(val_str(val_map_get(a->body, "expr"), ""));

			*took = limit;
			ssc_err_set(err, SSC_ERR, "wait for %s on %s/%s did not complete: context deadline exceeded",
				    qe, val_str(val_map_get(tg, "namespace"), ""), val_str(val_map_get(tg, "name"), ""));
			free(qe);
		}
		return;
	}
	if (strcmp(verb, "http") == 0) {
		const char *method = val_str(val_map_get(a->body, "method"), "POST");
		char m[16];
		size_t i;

		if (*took <= 30 * SSRR_MS_PER_S)
			return;
		*took = 30 * SSRR_MS_PER_S;
		/* net/url.Error: the method as Go spells it ("Post", "Get") */
		for (i = 0; method[i] && i + 1 < sizeof(m); i++)
			m[i] = (char)(i == 0 ? method[i] : (method[i] >= 'A' && method[i] <= 'Z' ? method[i] - 'A' + 'a'
											   : method[i]));
		m[i] = '\0';
		ssc_err_set(err, SSC_ERR,
			    "%s \"%s\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)", m,
			    val_str(val_map_get(a->body, "url"), ""));
		return;
	}
	if (a->timeout.set)
		return; /* the executor's own deadline (engine/stageset_actions) */
	if (strcmp(verb, "job") == 0 && *took > 10 * 60 * SSRR_MS_PER_S) {
		*took = 10 * 60 * SSRR_MS_PER_S;
		ssc_err_set(err, SSC_ERR, "job %s did not complete: context deadline exceeded", ssrr_nz(a->name));
	} else if (strcmp(verb, "apply") == 0 && val_bool(val_map_get(a->body, "wait"), false) &&
		   *took > 5 * 60 * SSRR_MS_PER_S) {
		*took = 5 * 60 * SSRR_MS_PER_S;
		ssc_err_set(err, SSC_ERR, "apply: timeout waiting for: context deadline exceeded");
	}
}

static void env_run_action(void *ctx, size_t stage, const char *phase, const struct sst_action *a, int attempt,
			   int64_t at_ms, int64_t *duration_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	err->code = SSC_OK;
	err->msg[0] = '\0';
	swst_run_action(pe->r->world, &pe->sm, stage, phase, a, attempt, ssrr_sim_ms(pe->r, at_ms), duration_ms, err);
	if (err->code != SSC_OK && *duration_ms >= 0)
		return;
	verb_bounds(a, duration_ms, err);
}

/* substitutionDigest over postBuild.substitute (sorted keys, length-prefixed pairs), "" when empty. */
static void substitution_digest(const struct sst_stage *st, char *out, size_t len)
{
	const struct val *sub = val_map_get(st->post_build, "substitute");
	const char **keys;
	size_t n = 0;
	struct sha256_ctx c;
	unsigned char d[SHA256_DIGEST_LEN];
	char hex[2 * SHA256_DIGEST_LEN + 1];

	out[0] = '\0';
	if (!sub || sub->type != VAL_MAP || sub->u.map.n == 0)
		return;
	keys = xcalloc(sub->u.map.n, sizeof(*keys));
	for (size_t i = 0; i < sub->u.map.n; i++)
		keys[n++] = sub->u.map.items[i].key;
	for (size_t i = 1; i < n; i++) /* insertion sort: a handful of keys */
		for (size_t k = i; k > 0 && strcmp(keys[k - 1], keys[k]) > 0; k--) {
			const char *t = keys[k];

			keys[k] = keys[k - 1];
			keys[k - 1] = t;
		}
	sha256_init(&c);
	for (size_t i = 0; i < n; i++) {
		const char *v = val_str(val_map_get(sub, keys[i]), "");
		char head[64];
		int hl = snprintf(head, sizeof(head), "%zu:", strlen(keys[i]));

		sha256_update(&c, head, (size_t)hl);
		sha256_update(&c, keys[i], strlen(keys[i]));
		hl = snprintf(head, sizeof(head), "=%zu:", strlen(v));
		sha256_update(&c, head, (size_t)hl);
		sha256_update(&c, v, strlen(v));
		sha256_update(&c, "\n", 1);
	}
	sha256_final(&c, d);
	sha256_hex(d, hex);
	snprintf(out, len, "%s", hex);
	free(keys);
}

static void env_apply_stage(void *ctx, size_t stage, const struct ssc_resolved *ra, int64_t at_ms,
			    struct ssc_apply_outcome *out)
{
	struct ssre_pass *pe = ctx;
	struct ssrr_member *m = pe->m;
	const char *sname;
	const struct scn_sw_stage_objects *objs;

	swst_apply_stage(pe->r->world, &pe->sm, stage, ra, ssrr_sim_ms(pe->r, at_ms), out);
	sname = m->spec_ok && stage < m->spec.nstages && stage < m->nids ? m->spec.stages[stage].name : NULL;
	objs = sname ? sws_stage_objects(pe->r->world, ra, sname) : NULL;
	if (objs || m->nrender) {
		/* failures before the write leave the objects as they were (stagesets.apply.failure.op) */
		ssri_render(m, sname, m->ids[stage], objs,
			    !out->failed_op || strcmp(out->failed_op, scn_sw_op_text(SCN_SW_OP_RECORD_INVENTORY)) == 0);
		if (objs)
			out->nobjects += objs->n;
	}
	if (pe->m->spec_ok && stage < pe->m->spec.nstages)
		substitution_digest(&pe->m->spec.stages[stage], out->substitution_digest,
				    sizeof(out->substitution_digest));
}

/* The first 5 s deletion poll at or after @due_ms of a wait started at @start_ms. */
static int64_t deletion_seen(int64_t start_ms, int64_t due_ms)
{
	int64_t k;

	if (due_ms <= start_ms)
		return start_ms;
	k = (due_ms - start_ms + SSC_DELETION_POLL_MS - 1) / SSC_DELETION_POLL_MS;
	return start_ms + k * SSC_DELETION_POLL_MS;
}

static void env_wait_stage(void *ctx, size_t stage, bool with_applied, int64_t timeout_ms, int64_t at_ms,
			   struct ssc_wait_outcome *out)
{
	struct ssre_pass *pe = ctx;
	int64_t t = ssrr_sim_ms(pe->r, at_ms);

	swst_wait_stage(pe->r->world, &pe->sm, stage, with_applied, timeout_ms, t, out);
	pe->wait_stage = stage;
	pe->wait_at_ms = t;
	pe->wait_ms = out->duration_ms;
	if (pe->deletion_ms >= 0 && pe->deletion_ms < t + out->duration_ms) {
		int64_t seen = deletion_seen(t, pe->deletion_ms);

		if (seen < t + out->duration_ms) {
			out->result = SSC_WAIT_DELETED;
			out->duration_ms = seen - t;
			out->stalled = false;
			ssc_err_set(&out->err, SSC_ERR, "StageSet is being deleted");
		}
	}
}

static void env_ready_exprs(void *ctx, size_t stage, int64_t timeout_ms, int64_t at_ms,
			    struct ssc_wait_outcome *out, bool *in_flight)
{
	struct ssre_pass *pe = ctx;
	struct ssrr_member *m = pe->m;
	int64_t t = ssrr_sim_ms(pe->r, at_ms), begin = t, total;

	swst_ready_exprs(pe->r->world, &pe->sm, stage, timeout_ms, t, out, in_flight);
	total = out->duration_ms;
	if (pe->wait_stage == stage && pe->wait_at_ms + pe->wait_ms == t) {
		begin = pe->wait_at_ms; /* the kstatus wait of this stage ran just before */
		total += pe->wait_ms;
	}
	if (out->result == SSC_WAIT_DELETED || total <= timeout_ms)
		return;
	m->long_verifies++;
	if (total <= m->long_verify_ms)
		return;
	m->long_verify_ms = total;
	m->long_verify_at_ms = begin;
	m->long_verify_timeout_ms = timeout_ms;
	m->long_verify_ready = out->result == SSC_WAIT_READY;
	snprintf(m->long_verify_stage, sizeof(m->long_verify_stage), "%s",
		 stage < m->spec.nstages ? m->spec.stages[stage].name : "");
}

/* The bearer-token Secret of a metric source (applyBearer): 0, or -1 with @err. */
static int bearer_secret(const struct ssre_pass *pe, const char *name, struct ssc_err *err)
{
	const struct obj *s;
	const struct val *data, *sdata;
	char *qn;

	if (!name || !name[0])
		return 0; /* no secretRef: no bearer token, nothing to read */
	s = api_get(pe->r->api, "Secret", pe->m->ns, name);
	qn = gofmt_quote(name);
	if (!s) {
		ssc_err_set(err, SSC_ERR, "metric source unavailable: reading secret %s: secrets \"%s\" not found", qn,
			    name);
		free(qn);
		return -1;
	}
	data = val_map_get(s->rest, "data");
	sdata = val_map_get(s->rest, "stringData");
	if (!val_str(val_map_get(data, "token"), "")[0] && !val_str(val_map_get(sdata, "token"), "")[0]) {
		ssc_err_set(err, SSC_ERR, "metric source unavailable: secret %s has no non-empty \"token\" key", qn);
		free(qn);
		return -1;
	}
	free(qn);
	return 0;
}

static int env_query(void *ctx, const struct sst_metric_source *src, int64_t at_ms, double *value,
		     int64_t *duration_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;
	struct ssrc *r = pe->r;
	char text[512];

	*duration_ms = 0;
	if (src->has_prometheus || src->has_webhook) {
		const char *address = src->has_prometheus ? ssrr_nz(src->address) : ssrr_nz(src->url);

		if (frc_check_source(address, src->has_prometheus ? "prometheus address" : "webhook url",
				     (const char *const *)r->hosts, r->nhosts, text, sizeof(text)) != 0) {
			ssc_err_set(err, SSC_ERR, "%s", text);
			return -1;
		}
		if (bearer_secret(pe, src->secret_ref, err) != 0)
			return -1;
	}
	return swg_query(r->world, src, ssrr_sim_ms(r, at_ms), value, duration_ms, err);
}

static int env_pod_restarts(void *ctx, const char *ns, const struct lbl_selector *sel, int64_t at_ms,
			    int32_t *total, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	return swg_pod_restarts(pe->r->world, ns, sel, ssrr_sim_ms(pe->r, at_ms), total, err);
}

static int env_warning_events(void *ctx, const char *ns, const struct lbl_selector *sel,
			      const char *const *reasons, size_t nreasons, int64_t at_ms, int32_t *total,
			      struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	return swg_warning_events(pe->r->world, ns, sel, reasons, nreasons, ssrr_sim_ms(pe->r, at_ms), total, err);
}

static int env_restore_stage(void *ctx, size_t stage, const struct sst_artifact_ref *ref, bool from_store,
			     int64_t at_ms, int64_t *duration_ms, char *reason, size_t reasonlen, char *msg,
			     size_t msglen, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;
	struct ssrr_member *m = pe->m;
	const struct scn_sw_stage_objects *objs;
	int rc = swst_restore_stage(pe->r->world, &pe->sm, stage, ref, from_store, ssrr_sim_ms(pe->r, at_ms),
				    duration_ms, reason, reasonlen, msg, msglen, err);

	/* restored: the stage renders (and its shard will list) what the restored revision renders */
	if (rc == 0 && m->spec_ok && stage < m->spec.nstages && stage < m->nids) {
		objs = sws_revision_objects(pe->r->world, &pe->sm, stage, ref->revision);
		if (objs || m->nrender)
			ssri_render(m, m->spec.stages[stage].name, m->ids[stage], objs, true);
	}
	return rc;
}

const struct ssrr_inv *ssre_inv_find(const struct ssrr_member *m, const char *stage)
{
	for (size_t i = 0; i < m->ninv; i++)
		if (strcmp(m->inv[i].stage, stage) == 0)
			return &m->inv[i];
	return NULL;
}

static bool env_inventory_has(void *ctx, const char *stage, int64_t *entries)
{
	struct ssre_pass *pe = ctx;
	const struct ssrr_inv *rec = ssre_inv_find(pe->m, stage);

	*entries = rec ? rec->entries : 0;
	return rec != NULL;
}

/* loadLifetimeLedger's Get: the store's StageLedger, unless the world fails the read then (ledgerErrors). */
static const struct obj *env_ledger(void *ctx, int64_t at_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	if (swg_read_error(pe->r->world, pe->m->ns, pe->m->name, false, ssrr_sim_ms(pe->r, at_ms), err))
		return NULL;
	return api_get(pe->r->api, SSRR_KIND_LEDGER, pe->m->ns, pe->m->name);
}

static const struct tz_zone *env_time_zone(void *ctx, const char *name, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;
	char text[256] = "";
	const struct tz_zone *z = tzif_cache_find(&pe->r->tz, name, text, sizeof(text));

	if (!z)
		ssc_err_set(err, SSC_ERR, "%s", text);
	return z;
}

static int env_anchor_uid(void *ctx, const char *api_version, const char *kind, const char *ns, const char *name,
			  int64_t at_ms, char *uid, size_t uidlen, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	return swg_anchor_uid(pe->r->world, api_version, kind, ns, name, ssrr_sim_ms(pe->r, at_ms), uid, uidlen, err);
}

/* A file of a sourced migration ladder, as the controller reads it (sim/load/ladder_files.h). */
static int env_parse_ladder_file(void *ctx, const char *path, const char *text, struct val **out, char *err,
				 size_t errlen)
{
	(void)ctx;
	return lf_parse_file(path, text, out, err, errlen);
}

/* ---------------------------------------------------------------- the cluster (inventory, prune) */

/* Whether Secret @s holds a non-empty @key (in data, or stringData as written). */
static bool secret_has_key(const struct obj *s, const char *key)
{
	return val_str(val_map_get(val_map_get(s->rest, "data"), key), "")[0] ||
	       val_str(val_map_get(val_map_get(s->rest, "stringData"), key), "")[0];
}

/*
 * The target connection (resolveTarget).  Without spec.kubeConfig the
 * controller's cluster, under spec.serviceAccountName's minted token, which
 * cannot fail here (the API server's RBAC is not simulated).  A secretRef
 * reads the kubeconfig Secret in the StageSet's namespace as
 * kubeconfigBytes() does, with its error texts; a Secret that holds the key
 * connects, and the remote cluster is this world's store (the kubeconfig
 * itself is not parsed).  configMapRef (cloud-provider authentication) is
 * refused at load (sim/load/scn_ssworld.c), so it does not reach a pass.
 */
static int cl_connect(void *ctx, const char *sa, int64_t at_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;
	const struct val *kc = pe->m->spec.kube_config, *ref;
	const struct obj *s;
	const char *name, *key;
	char *qn, *qk;

	(void)sa;
	(void)at_ms;
	if (!kc)
		return 0;
	ref = val_map_get(kc, "secretRef");
	if (!ref) {
		ssc_err_set(err, SSC_ERR, "invalid spec.kubeConfig: spec.kubeConfig sets neither secretRef nor "
					  "configMapRef");
		return 1;
	}
	name = val_str(val_map_get(ref, "name"), "");
	key = val_str(val_map_get(ref, "key"), "");
	if (!key[0])
		key = "value";
	s = api_get(pe->r->api, "Secret", pe->m->ns, name);
	qn = gofmt_quote(name);
	if (!s) {
		ssc_err_set(err, SSC_ERR, "kubeConfig secret %s: secrets \"%s\" not found", qn, name);
		free(qn);
		return -1;
	}
	if (!secret_has_key(s, key)) {
		qk = gofmt_quote(key);
		ssc_err_set(err, SSC_ERR, "kubeConfig secret %s has no non-empty key %s", qn, qk);
		free(qk);
		free(qn);
		return -1;
	}
	free(qn);
	return 0;
}

/*
 * buildDecryptor: without spec.decryption nothing; a provider other than
 * sops is refused with upstream's text; a secretRef must name a Secret of the
 * StageSet's namespace (the key material itself is not read: the world's
 * rendered files are not encrypted).
 */
static int cl_decryptor(void *ctx, int64_t at_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;
	const struct val *d = pe->m->spec.decryption, *ref;
	const char *provider, *name;
	char *q;

	(void)at_ms;
	if (!d)
		return 0;
	provider = val_str(val_map_get(d, "provider"), "");
	if (strcmp(provider, "sops") != 0) {
		q = gofmt_quote(provider);
		ssc_err_set(err, SSC_ERR, "spec.decryption.provider %s is not supported (only sops)", q);
		free(q);
		return -1;
	}
	ref = val_map_get(d, "secretRef");
	if (!ref)
		return 0;
	name = val_str(val_map_get(ref, "name"), "");
	if (api_get(pe->r->api, "Secret", pe->m->ns, name))
		return 0;
	q = gofmt_quote(name);
	ssc_err_set(err, SSC_ERR, "decryption: read key secret %s: secrets \"%s\" not found", q, name);
	free(q);
	return -1;
}

/* recorder.StageRecords: the member's shards, unless the world fails the List then (ledgerErrors). */
static int cl_records(void *ctx, int64_t at_ms, const struct ssc_inventory_record **out, size_t *n,
		      struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;
	struct ssrc *r = pe->r;
	const struct ssrr_member *m = pe->m;

	if (swg_read_error(r->world, m->ns, m->name, true, ssrr_sim_ms(r, at_ms), err))
		return -1; /* recorder.StageRecords' List failed (ledgerErrors) */
	if (m->ninv > r->caprecs) {
		r->caprecs = m->ninv;
		r->recs = xreallocarray(r->recs, r->caprecs, sizeof(*r->recs));
	}
	for (size_t i = 0; i < m->ninv; i++) {
		r->recs[i].name = m->inv[i].stage;
		r->recs[i].position = m->inv[i].position;
		r->recs[i].ids = (const char *const *)m->inv[i].ids;
		r->recs[i].nids = m->inv[i].nids;
	}
	*out = r->recs;
	*n = m->ninv;
	return 0;
}

static size_t cl_rendered(void *ctx, size_t stage, const char *const **ids)
{
	struct ssre_pass *pe = ctx;

	return ssri_rendered(pe->m, stage, ids);
}

/*
 * Applier.Delete: the objects besides the workloads are no longer live
 * (ssri_deleted()); a workload's deletion is its stage's record in the
 * world, which a removed stage's teardown leaves as it was (no later
 * decision reads it).  Deletes take no time and cannot fail here.
 */
static int cl_delete_objects(void *ctx, const char *sa, const char *const *ids, size_t n, int64_t at_ms,
			     int64_t *duration_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	(void)sa;
	(void)err;
	if (pe->m->nlive)
		ssri_deleted(pe->m, ids, n, ssrr_sim_ms(pe->r, at_ms));
	*duration_ms = 0;
	return 0;
}

static int cl_delete_shards(void *ctx, const char *stage, int64_t at_ms, struct ssc_err *err)
{
	(void)ctx;
	(void)stage;
	(void)at_ms;
	(void)err;
	return 0;
}

/* ---------------------------------------------------------------- the rollback store */

static int store_put(void *ctx, const char *key, int64_t at_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	return swsr_put(pe->r->world, key, ssrr_sim_ms(pe->r, at_ms), err);
}

static enum ssc_store_get store_get(void *ctx, const char *key, int64_t at_ms, struct ssc_err *err)
{
	struct ssre_pass *pe = ctx;

	return swsr_get(pe->r->world, key, ssrr_sim_ms(pe->r, at_ms), err);
}

/* ---------------------------------------------------------------- binding */

void ssre_bind(struct ssre_pass *pc, struct ssc_env *env, struct ssc_cluster *cl)
{
	memset(env, 0, sizeof(*env));
	env->ctx = pc;
	env->get = env_get;
	env->list = env_list;
	env->artifact_file = env_artifact_file;
	env->ladder_files = env_ladder_files;
	env->object_version = env_object_version;
	env->run_action = env_run_action;
	env->apply_stage = env_apply_stage;
	env->wait_stage = env_wait_stage;
	env->ready_exprs = env_ready_exprs;
	env->query = env_query;
	env->pod_restarts = env_pod_restarts;
	env->warning_events = env_warning_events;
	env->restore_stage = env_restore_stage;
	env->inventory_has = env_inventory_has;
	env->ledger = env_ledger;
	env->time_zone = env_time_zone;
	env->anchor_uid = env_anchor_uid;
	env->parse_ladder_file = env_parse_ladder_file;
	if (swsr_configured(pc->r->world)) {
		pc->store.ctx = pc;
		pc->store.put = store_put;
		pc->store.get = store_get;
		env->rollback_store = &pc->store;
	}

	memset(cl, 0, sizeof(*cl));
	cl->ctx = pc;
	cl->connect = cl_connect;
	cl->decryptor = cl_decryptor;
	cl->records = cl_records;
	cl->rendered = cl_rendered;
	cl->delete_objects = cl_delete_objects;
	cl->delete_shards = cl_delete_shards;
}

