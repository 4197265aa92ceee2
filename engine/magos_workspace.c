/* The Magos Workspace controller as a pure function; see magos_workspace.h. */
#include "engine/magos_workspace.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

/* ---- SHA-256 (FIPS 180-4) ---------------------------------------------- */

struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	size_t nbuf;
	uint64_t len; /* bytes */
};

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			      sha_k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void sha_init(struct sha256 *s)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(s->h, iv, sizeof(iv));
	s->nbuf = 0;
	s->len = 0;
}

static void sha_update(struct sha256 *s, const void *data, size_t n)
{
	const uint8_t *p = data;

	s->len += n;
	while (n > 0) {
		size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
		memcpy(s->buf + s->nbuf, p, take);
		s->nbuf += take, p += take, n -= take;
		if (s->nbuf == 64) {
			sha_block(s, s->buf);
			s->nbuf = 0;
		}
	}
}

static void sha_final(struct sha256 *s, uint8_t out[32])
{
	uint64_t bits = s->len * 8;
	uint8_t pad = 0x80, zero = 0, lenb[8];

	sha_update(s, &pad, 1);
	while (s->nbuf != 56)
		sha_update(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		lenb[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha_update(s, lenb, 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)s->h[i];
	}
}

/* ---- encoding/json of the typed WorkspaceSpec --------------------------- */

/* Length of the valid UTF-8 sequence at @s (1..4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf && (s[1] & 0xc0) == 0x80) {
		*cp = (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
		return 2;
	}
	if (s[0] >= 0xe0 && s[0] <= 0xef && (s[1] & 0xc0) == 0x80 && (s[2] & 0xc0) == 0x80) {
		uint32_t c = (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 |
			     (s[2] & 0x3f);
		if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))
			return 0;
		*cp = c;
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4 && (s[1] & 0xc0) == 0x80 && (s[2] & 0xc0) == 0x80 &&
	    (s[3] & 0xc0) == 0x80) {
		uint32_t c = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3f) << 12 |
			     (uint32_t)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
		if (c < 0x10000 || c > 0x10ffff)
			return 0;
		*cp = c;
		return 4;
	}
	return 0;
}

/* A JSON string as encoding/json writes it (HTML-safe escaping on, as json.Marshal). */
static void json_str(struct strbuf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	strbuf_addn(b, "\"", 1);
	while (*p) {
		uint32_t cp;
		size_t n = utf8_len(p, &cp);
		char esc[7];

		if (n == 0) {
			strbuf_add(b, "\\ufffd");
			p++;
			continue;
		}
		if (n == 1) {
			switch (cp) {
			case '"': strbuf_add(b, "\\\""); break;
			case '\\': strbuf_add(b, "\\\\"); break;
			case '\n': strbuf_add(b, "\\n"); break;
			case '\r': strbuf_add(b, "\\r"); break;
			case '\t': strbuf_add(b, "\\t"); break;
			case '\b': strbuf_add(b, "\\b"); break;
			case '\f': strbuf_add(b, "\\f"); break;
			default:
				if (cp < 0x20 || cp == '<' || cp == '>' || cp == '&') {
					snprintf(esc, sizeof(esc), "\\u00%c%c", hex[cp >> 4],
						 hex[cp & 15]);
					strbuf_add(b, esc);
				} else {
					strbuf_addn(b, (const char *)p, 1);
				}
			}
		} else if (cp == 0x2028 || cp == 0x2029) {
			strbuf_add(b, cp == 0x2028 ? "\\u2028" : "\\u2029");
		} else {
			strbuf_addn(b, (const char *)p, n);
		}
		p += n;
	}
	strbuf_addn(b, "\"", 1);
}

static int cmp_kv_key(const void *a, const void *b)
{
	return strcmp((*(const struct val_kv *const *)a)->key,
		      (*(const struct val_kv *const *)b)->key);
}

/* map[string]string, keys sorted; only string values (others are dropped, Go would reject them). */
static void json_strmap(struct strbuf *b, const struct val *m)
{
	const struct val_kv **kv = xcalloc(m->u.map.n ? m->u.map.n : 1, sizeof(*kv));
	size_t n = 0;
	bool first = true;

	for (size_t i = 0; i < m->u.map.n; i++)
		kv[n++] = &m->u.map.items[i];
	qsort(kv, n, sizeof(*kv), cmp_kv_key);
	strbuf_addn(b, "{", 1);
	for (size_t i = 0; i < n; i++) {
		if (!first)
			strbuf_addn(b, ",", 1);
		first = false;
		json_str(b, kv[i]->key);
		strbuf_addn(b, ":", 1);
		json_str(b, val_str(kv[i]->v, ""));
	}
	strbuf_addn(b, "}", 1);
	free(kv);
}

static bool nonempty_map(const struct val *v)
{
	return v && v->type == VAL_MAP && v->u.map.n > 0;
}

static bool non_nil(const struct val *v)
{
	return v && v->type != VAL_NULL;
}

/* Writes ,"key": unless first. */
static void json_key(struct strbuf *b, bool *first, const char *key)
{
	if (!*first)
		strbuf_addn(b, ",", 1);
	*first = false;
	json_str(b, key);
	strbuf_addn(b, ":", 1);
}

/* JobOverrides {annotations,omitempty; timeoutSeconds *int64,omitempty}. */
static void json_overrides(struct strbuf *b, const struct val *o)
{
	bool first = true;
	const struct val *t = val_map_get(o, "timeoutSeconds");

	strbuf_addn(b, "{", 1);
	if (nonempty_map(val_map_get(o, "annotations"))) {
		json_key(b, &first, "annotations");
		json_strmap(b, val_map_get(o, "annotations"));
	}
	if (non_nil(t)) {
		char num[32];

		json_key(b, &first, "timeoutSeconds");
		snprintf(num, sizeof(num), "%" PRId64, val_int(t, 0));
		strbuf_add(b, num);
	}
	strbuf_addn(b, "}", 1);
}

/* metav1.LabelSelector {matchLabels,omitempty; matchExpressions,omitempty [{key, operator, values,omitempty}]}. */
static void json_selector(struct strbuf *b, const struct val *s)
{
	bool first = true;
	const struct val *ml = val_map_get(s, "matchLabels");
	const struct val *me = val_map_get(s, "matchExpressions");

	strbuf_addn(b, "{", 1);
	if (nonempty_map(ml)) {
		json_key(b, &first, "matchLabels");
		json_strmap(b, ml);
	}
	if (me && me->type == VAL_LIST && me->u.list.n > 0) {
		json_key(b, &first, "matchExpressions");
		strbuf_addn(b, "[", 1);
		for (size_t i = 0; i < me->u.list.n; i++) {
			const struct val *e = me->u.list.items[i];
			const struct val *vs = val_map_get(e, "values");

			if (i)
				strbuf_addn(b, ",", 1);
			strbuf_add(b, "{\"key\":");
			json_str(b, val_str(val_map_get(e, "key"), ""));
			strbuf_add(b, ",\"operator\":");
			json_str(b, val_str(val_map_get(e, "operator"), ""));
			if (vs && vs->type == VAL_LIST && vs->u.list.n > 0) {
				strbuf_add(b, ",\"values\":[");
				for (size_t j = 0; j < vs->u.list.n; j++) {
					if (j)
						strbuf_addn(b, ",", 1);
					json_str(b, val_str(vs->u.list.items[j], ""));
				}
				strbuf_addn(b, "]", 1);
			}
			strbuf_addn(b, "}", 1);
		}
		strbuf_addn(b, "]", 1);
	}
	strbuf_addn(b, "}", 1);
}

/* json.Marshal(ws.Spec) for the WorkspaceSpec field order of T/workspace_types.go. */
static char *json_spec(const struct val *spec)
{
	struct strbuf b = { 0 };
	const struct val *src = val_map_get(spec, "source");
	const struct val *tf = val_map_get(spec, "terraform");
	const struct val *valid = val_map_get(spec, "validation");
	const char *s;

	strbuf_add(&b, "{\"projectRef\":{\"name\":");
	json_str(&b, val_str(val_path(spec, "projectRef.name"), ""));
	strbuf_add(&b, "},\"autoApply\":");
	strbuf_add(&b, val_bool(val_map_get(spec, "autoApply"), false) ? "true" : "false");
	if (nonempty_map(val_map_get(spec, "annotations"))) {
		strbuf_add(&b, ",\"annotations\":");
		json_strmap(&b, val_map_get(spec, "annotations"));
	}
	if (non_nil(val_map_get(spec, "plan"))) {
		strbuf_add(&b, ",\"plan\":");
		json_overrides(&b, val_map_get(spec, "plan"));
	}
	if (non_nil(val_map_get(spec, "apply"))) {
		strbuf_add(&b, ",\"apply\":");
		json_overrides(&b, val_map_get(spec, "apply"));
	}
	strbuf_add(&b, ",\"source\":{\"repoURL\":");
	json_str(&b, val_str(val_map_get(src, "repoURL"), ""));
	strbuf_add(&b, ",\"targetRevision\":");
	json_str(&b, val_str(val_map_get(src, "targetRevision"), ""));
	s = val_str(val_map_get(src, "path"), "");
	if (*s) {
		strbuf_add(&b, ",\"path\":");
		json_str(&b, s);
	}
	strbuf_add(&b, "},\"terraform\":{\"version\":");
	json_str(&b, val_str(val_map_get(tf, "version"), ""));
	s = val_str(val_map_get(tf, "tfvarsPath"), "");
	if (*s) {
		strbuf_add(&b, ",\"tfvarsPath\":");
		json_str(&b, s);
	}
	strbuf_add(&b, "}");
	if (non_nil(valid)) {
		strbuf_add(&b, ",\"validation\":{");
		if (non_nil(val_map_get(valid, "policySelector"))) {
			strbuf_add(&b, "\"policySelector\":");
			json_selector(&b, val_map_get(valid, "policySelector"));
		}
		strbuf_add(&b, "}");
	}
	s = val_str(val_map_get(spec, "serviceAccountName"), "");
	if (*s) {
		strbuf_add(&b, ",\"serviceAccountName\":");
		json_str(&b, s);
	}
	strbuf_add(&b, "}");
	return strbuf_take(&b);
}

void mw_get_spec_hash(const struct val *spec, char out[9])
{
	static const char hex[] = "0123456789abcdef";
	char *json = json_spec(spec);
	struct sha256 s;
	uint8_t d[32];

	sha_init(&s);
	sha_update(&s, json, strlen(json));
	sha_final(&s, d);
	for (int i = 0; i < 4; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[8] = '\0';
	free(json);
}

/* Exposed for tests only through mw_get_spec_hash; the encoder is file-local. */

char *mw_job_name(const char *ws_name, const char *type, const char *hash)
{
	return xstrjoin((const char *const[]){ ws_name, type, hash }, 3, "-");
}

char *mw_pvc_name(const char *ws_name)
{
	return xstrjoin((const char *const[]){ ws_name, "data" }, 2, "-");
}

/* ---- schedule, run IDs, triggers ---------------------------------------- */

int mw_compute_next_reconcile_time(const struct mw_sched *s, const char *observed, int64_t now_ms,
				   int64_t *next_ms, bool *due)
{
	int64_t interval = s->interval_ms;
	int64_t next;

	if (!s->has_next) {
		*next_ms = now_ms + interval;
		*due = false;
		return MW_OK;
	}
	next = s->next_ms;
	if (observed && *observed && strcmp(observed, s->interval_str) != 0) {
		if (s->observed_ok && s->observed_ms > 0) {
			int64_t prev = s->observed_ms;

			/* for next.After(now) { next -= prev }, in one step */
			if (next > now_ms)
				next -= ((next - now_ms + prev - 1) / prev) * prev;
			next += interval;
		}
	}
	*due = next <= now_ms;
	if (next <= now_ms) {
		if (interval <= 0)
			return MW_EHANG;
		/* for !next.After(now) { next += interval }, in one step */
		next += ((now_ms - next) / interval + 1) * interval;
	}
	*next_ms = next;
	return MW_OK;
}

char *mw_new_run_id(const char *stamp, uint32_t rand)
{
	char hex[9];

	for (int i = 7; i >= 0; i--, rand >>= 4) /* "%08" PRIx32 */
		hex[i] = "0123456789abcdef"[rand & 15];
	hex[8] = '\0';
	return xstrjoin((const char *const[]){ stamp, hex }, 2, "-");
}

const char *mw_run_trigger_from_reset_reason(const char *reason)
{
	if (strcmp(reason, "ConfigurationChanged") == 0)
		return "configuration";
	if (strcmp(reason, "ManualReconcileRequested") == 0)
		return "manual";
	if (strcmp(reason, "ScheduledReconcile") == 0)
		return "scheduled";
	if (strcmp(reason, "NewRevisionDetected") == 0)
		return "revision";
	if (strcmp(reason, "RetryApply") == 0 || strcmp(reason, "RetryPlan") == 0)
		return "retry";
	return "unknown";
}

/* ---- policy selector and Job construction ------------------------------- */

static char *selector_string(const struct val *sel)
{
	struct lbl_selector s;
	char *str;

	if (lbl_selector_from_val(sel, &s, NULL, 0) != LBL_OK)
		return xstrdup("");
	str = lbl_selector_string(&s);
	lbl_selector_release(&s);
	return str;
}

char *mw_resolve_effective_policy_selector(const struct obj *ws, const struct obj *project)
{
	const struct val *wsel = val_path(ws->spec, "validation.policySelector");
	const struct val *psel;

	if (non_nil(val_path(ws->spec, "validation")) && non_nil(wsel))
		return selector_string(wsel);
	if (!project)
		return xstrdup("");
	psel = val_path(project->spec, "validation.policySelector");
	if (non_nil(val_path(project->spec, "validation")) && non_nil(psel))
		return selector_string(psel);
	return xstrdup("");
}

static void env_add(struct val *env, const char *name, const char *value)
{
	struct val *e = val_new_map();

	val_map_set(e, "name", val_new_string(name));
	val_map_set(e, "value", val_new_string(value));
	val_list_push(env, e);
}

static void env_add_secret(struct val *env, const char *name, const char *secret,
			   const char *key)
{
	struct val *e = val_new_map(), *from = val_new_map(), *ref = val_new_map();

	val_map_set(ref, "name", val_new_string(secret));
	val_map_set(ref, "key", val_new_string(key));
	val_map_set(from, "secretKeyRef", ref);
	val_map_set(e, "name", val_new_string(name));
	val_map_set(e, "valueFrom", from);
	val_list_push(env, e);
}

/* Secret data key present in `data` or `stringData` (the API server folds the latter into the former). */
static bool secret_has_key(const struct obj *s, const char *key)
{
	return val_map_get(val_map_get(s->rest, "data"), key) ||
	       val_map_get(val_map_get(s->rest, "stringData"), key);
}

static struct val *job_labels_val(const char *ws, const char *type, const char *run_id)
{
	struct val *l = val_new_map();

	val_map_set(l, MW_LABEL_WORKSPACE, val_new_string(ws));
	val_map_set(l, MW_LABEL_JOB_TYPE, val_new_string(type));
	val_map_set(l, MW_LABEL_RUN_ID, val_new_string(run_id));
	return l;
}

/* Copies the string entries of map @src into map @dst (overwriting). */
static void overlay(struct val *dst, const struct val *src)
{
	if (!src || src->type != VAL_MAP)
		return;
	for (size_t i = 0; i < src->u.map.n; i++)
		val_map_set(dst, src->u.map.items[i].key,
			    val_new_string(val_str(src->u.map.items[i].v, "")));
}

struct obj *mw_construct_job_for_workspace(const struct obj *ws, const char *name,
					   const char *type, const char *plan_file,
					   const char *run_id, const struct obj *project,
					   const struct obj *repo_secret)
{
	const struct val *spec = ws->spec;
	bool plan = strcmp(type, "plan") == 0;
	struct obj *job = obj_new("batch/v1", "Job", ws->ns, name);
	struct val *env = val_new_list(), *tmpl = val_new_map(), *meta = val_new_map();
	struct val *pod = val_new_map(), *containers = val_new_list(), *c = val_new_map();
	struct val *ann = val_new_map();
	const struct val *ovr = val_map_get(spec, plan ? "plan" : "apply");
	const struct val *tov = val_map_get(ovr, "timeoutSeconds");
	int64_t timeout = non_nil(tov) ? val_int(tov, MW_DEFAULT_JOB_TIMEOUT_S)
				       : MW_DEFAULT_JOB_TIMEOUT_S;
	const char *path = val_str(val_path(spec, "source.path"), "");
	const char *tfvars = val_str(val_path(spec, "terraform.tfvarsPath"), "");

	env_add(env, "REPO_URL", val_str(val_path(spec, "source.repoURL"), ""));
	env_add(env, "TARGET_REVISION", val_str(val_path(spec, "source.targetRevision"), ""));
	env_add(env, "TF_VERSION", val_str(val_path(spec, "terraform.version"), ""));
	env_add(env, "PROJECT_REF", val_str(val_path(spec, "projectRef.name"), ""));
	env_add(env, "MAGOS_JOB_TYPE", type);
	env_add(env, "MAGOS_PLAN_FILE", plan_file);
	if (*path)
		env_add(env, "TF_PATH", path);
	if (*tfvars)
		env_add(env, "TF_VAR_FILE", tfvars);
	if (plan) {
		char *sel = mw_resolve_effective_policy_selector(ws, project);

		if (*sel)
			env_add(env, "MAGOS_POLICY_SELECTOR", sel);
		free(sel);
	}
	if (repo_secret) {
		if (secret_has_key(repo_secret, "sshPrivateKey")) {
			env_add_secret(env, "GIT_SSH_PRIVATE_KEY", repo_secret->name,
				       "sshPrivateKey");
		} else if (secret_has_key(repo_secret, "username")) {
			env_add_secret(env, "GIT_USERNAME", repo_secret->name, "username");
			env_add_secret(env, "GIT_PASSWORD", repo_secret->name, "password");
		}
	}

	obj_strmap_set(&job->labels, MW_LABEL_WORKSPACE, ws->name);
	obj_strmap_set(&job->labels, MW_LABEL_JOB_TYPE, type);
	obj_strmap_set(&job->labels, MW_LABEL_RUN_ID, run_id);

	overlay(ann, val_map_get(spec, "annotations"));
	overlay(ann, val_map_get(ovr, "annotations"));
	if (ann->u.map.n > 0)
		val_map_set(meta, "annotations", ann);
	else
		val_free(ann);
	val_map_set(meta, "labels", job_labels_val(ws->name, type, run_id));
	val_map_set(c, "name", val_new_string("terraform"));
	val_map_set(c, "env", env);
	val_list_push(containers, c);
	val_map_set(pod, "restartPolicy", val_new_string("Never"));
	val_map_set(pod, "serviceAccountName",
		    val_new_string(val_str(val_map_get(spec, "serviceAccountName"), "")));
	val_map_set(pod, "containers", containers);
	val_map_set(tmpl, "metadata", meta);
	val_map_set(tmpl, "spec", pod);
	/* SetControllerReference(ws, job): a new object has no controller yet */
	obj_add_controller_ref(job, ws);
	job->spec = val_new_map();
	val_map_set(job->spec, "backoffLimit", val_new_int(0));
	val_map_set(job->spec, "activeDeadlineSeconds", val_new_int(timeout));
	val_map_set(job->spec, "template", tmpl);
	return job;
}

static struct obj *construct_pvc(const struct obj *ws, const char *name)
{
	struct obj *pvc = obj_new("v1", "PersistentVolumeClaim", ws->ns, name);
	struct val *modes = val_new_list(), *res = val_new_map(), *req = val_new_map();

	/* ensurePVC: no labels; SetControllerReference(ws, newPVC) */
	obj_add_controller_ref(pvc, ws);
	val_list_push(modes, val_new_string("ReadWriteOnce"));
	val_map_set(req, "storage", val_new_string("1Gi"));
	val_map_set(res, "requests", req);
	pvc->spec = val_new_map();
	val_map_set(pvc->spec, "accessModes", modes);
	val_map_set(pvc->spec, "resources", res);
	return pvc;
}

/* ---- updateStatus -------------------------------------------------------- */

static void mem_copy(struct mw_mem *dst, const struct mw_mem *src)
{
	dst->observed_revision = xstrdup(src->observed_revision);
	dst->run_id = xstrdup(src->run_id);
	dst->run_trigger = xstrdup(src->run_trigger);
	dst->violations = val_copy(src->violations);
}

void mw_mem_release(struct mw_mem *m)
{
	if (!m)
		return;
	free(m->observed_revision);
	free(m->run_id);
	free(m->run_trigger);
	val_free(m->violations);
	memset(m, 0, sizeof(*m));
}

void mw_status_req_release(struct mw_status_req *r)
{
	if (!r)
		return;
	free(r->message);
	mw_mem_release(&r->mem);
	r->message = NULL;
}

static bool set_str_field(struct val *st, const char *key, const char *v)
{
	const char *cur = val_str(val_map_get(st, key), "");

	if (strcmp(cur, v) == 0)
		return false;
	val_map_set(st, key, val_new_string(v));
	return true;
}

static bool has_str(const char *s)
{
	return s && *s;
}

/* meta.SetStatusCondition for the Ready condition; returns true on change. */
static bool set_ready_condition(struct val *st, const char *status, const char *reason,
				const char *message, const char *now)
{
	struct val *conds = val_map_get(st, "conditions");
	struct val *c = NULL;
	bool changed = false;

	if (!conds || conds->type != VAL_LIST) {
		conds = val_map_set(st, "conditions", val_new_list());
	}
	for (size_t i = 0; i < conds->u.list.n; i++)
		if (strcmp(val_str(val_map_get(conds->u.list.items[i], "type"), ""), "Ready") == 0)
			c = conds->u.list.items[i];
	if (!c) {
		c = val_list_push(conds, val_new_map());
		val_map_set(c, "type", val_new_string("Ready"));
		val_map_set(c, "status", val_new_string(status));
		val_map_set(c, "lastTransitionTime", val_new_string(now));
		val_map_set(c, "reason", val_new_string(reason));
		val_map_set(c, "message", val_new_string(message));
		return true;
	}
	if (strcmp(val_str(val_map_get(c, "status"), ""), status) != 0) {
		val_map_set(c, "status", val_new_string(status));
		val_map_set(c, "lastTransitionTime", val_new_string(now));
		changed = true;
	}
	changed |= set_str_field(c, "reason", reason);
	changed |= set_str_field(c, "message", message);
	/* observedGeneration is never set by this controller: 0 on both sides. */
	return changed;
}

/*
 * Whether mw_update_status() would write, for a stored status map @latest:
 * the tests it makes on its copy, made on @latest without copying it
 * (phase, reason and message; the three remembered strings; the policy
 * violations; the Ready condition as set_ready_condition() finds it, the
 * last entry of that type).
 */
static bool status_would_change(const struct val *latest, const struct mw_status_req *req)
{
	const struct val *pv, *conds, *c = NULL;

	if (strcmp(val_str(val_map_get(latest, "phase"), ""), req->phase) != 0 ||
	    strcmp(val_str(val_map_get(latest, "reason"), ""), req->reason) != 0 ||
	    strcmp(val_str(val_map_get(latest, "message"), ""), req->message) != 0)
		return true;
	if ((has_str(req->mem.observed_revision) &&
	     strcmp(val_str(val_map_get(latest, "observedRevision"), ""),
		    req->mem.observed_revision) != 0) ||
	    (has_str(req->mem.run_id) &&
	     strcmp(val_str(val_map_get(latest, "currentRunID"), ""), req->mem.run_id) != 0) ||
	    (has_str(req->mem.run_trigger) &&
	     strcmp(val_str(val_map_get(latest, "currentRunTrigger"), ""), req->mem.run_trigger) != 0))
		return true;
	pv = val_map_get(latest, "policyViolations");
	if (strcmp(req->phase, "Pending") == 0 || strcmp(req->phase, "Planning") == 0) {
		if (pv && pv->type == VAL_LIST && pv->u.list.n > 0)
			return true;
	} else if (req->mem.violations) {
		return true;
	}
	conds = val_map_get(latest, "conditions");
	if (!conds || conds->type != VAL_LIST)
		return true;
	for (size_t i = 0; i < conds->u.list.n; i++)
		if (strcmp(val_str(val_map_get(conds->u.list.items[i], "type"), ""), "Ready") == 0)
			c = conds->u.list.items[i];
	return !c || strcmp(val_str(val_map_get(c, "status"), ""), req->cond) != 0 ||
	       strcmp(val_str(val_map_get(c, "reason"), ""), req->reason) != 0 ||
	       strcmp(val_str(val_map_get(c, "message"), ""), req->message) != 0;
}

struct val *mw_update_status(const struct val *latest, const struct mw_status_req *req,
			     const char *now)
{
	struct val *st;
	bool needs = false;
	const struct val *pv;

	/* the common pass that changes nothing, told without the copy */
	if (latest && latest->type == VAL_MAP && !status_would_change(latest, req))
		return NULL;
	st = latest && latest->type == VAL_MAP ? val_copy(latest) : val_new_map();

	if (strcmp(val_str(val_map_get(st, "phase"), ""), req->phase) != 0 ||
	    strcmp(val_str(val_map_get(st, "reason"), ""), req->reason) != 0 ||
	    strcmp(val_str(val_map_get(st, "message"), ""), req->message) != 0) {
		val_map_set(st, "phase", val_new_string(req->phase));
		val_map_set(st, "reason", val_new_string(req->reason));
		val_map_set(st, "message", val_new_string(req->message));
		needs = true;
	}
	if (has_str(req->mem.observed_revision))
		needs |= set_str_field(st, "observedRevision", req->mem.observed_revision);
	if (has_str(req->mem.run_id))
		needs |= set_str_field(st, "currentRunID", req->mem.run_id);
	if (has_str(req->mem.run_trigger))
		needs |= set_str_field(st, "currentRunTrigger", req->mem.run_trigger);
	pv = val_map_get(st, "policyViolations");
	if (strcmp(req->phase, "Pending") == 0 || strcmp(req->phase, "Planning") == 0) {
		if (pv && pv->type == VAL_LIST && pv->u.list.n > 0) {
			val_map_del(st, "policyViolations");
			needs = true;
		}
	} else if (req->mem.violations) {
		val_map_set(st, "policyViolations", val_copy(req->mem.violations));
		needs = true;
	}
	needs |= set_ready_condition(st, req->cond, req->reason, req->message, now);
	if (!needs) {
		val_free(st);
		return NULL;
	}
	val_map_set(st, "lastReconcileTime", val_new_string(now));
	return st;
}

/* ---- the pass ------------------------------------------------------------ */

void mw_result_init(struct mw_result *r)
{
	memset(r, 0, sizeof(*r));
}

static void action_release(struct mw_action *a)
{
	free(a->key);
	val_free(a->patch);
	obj_free(a->obj);
	mw_status_req_release(&a->st);
	mw_mem_release(&a->mem);
}

void mw_result_release(struct mw_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		action_release(&r->acts[i]);
	free(r->acts);
	free(r->interval_str);
	free(r->hang_msg);
	memset(r, 0, sizeof(*r));
}

/* State of one pass: the in-memory Workspace fields and the output. */
struct pass {
	const struct mw_input *in;
	struct mw_result *out;
	struct mw_mem mem;
};

static struct mw_action *push(struct pass *p, enum mw_act_type t, enum mw_on_fail f)
{
	struct mw_result *r = p->out;
	struct mw_action *a;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->acts = xreallocarray(r->acts, r->cap, sizeof(*r->acts));
	}
	a = &r->acts[r->n++];
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->on_fail = f;
	mem_copy(&a->mem, &p->mem);
	return a;
}

/* r.updateStatus(...): the request, then the in-memory object as the write leaves it. */
static void update_status(struct pass *p, const char *phase, const char *reason, char *message,
			  const char *cond)
{
	struct mw_action *a = push(p, MW_ACT_STATUS, MW_FAIL_IGNORE);

	a->st.phase = phase;
	a->st.reason = reason;
	a->st.message = message;
	a->st.cond = cond;
	mem_copy(&a->st.mem, &p->mem);
	/* workspace.Status = latest.Status: violations are gone after a Pending/Planning write. */
	if (strcmp(phase, "Pending") == 0 || strcmp(phase, "Planning") == 0) {
		val_free(p->mem.violations);
		p->mem.violations = NULL;
	}
}

static void set_mem(char **field, char *v)
{
	free(*field);
	*field = v;
}

static const char *ann(const struct obj *o, const char *key)
{
	return obj_strmap_get(&o->annotations, key);
}

static int64_t job_count(const struct obj *job, const char *field)
{
	return val_int(val_map_get(job->status, field), 0);
}

/* A Failed=True condition (batchv1.JobFailed, ConditionTrue). */
static bool job_failed_condition(const struct obj *job)
{
	const struct val *conds = val_map_get(job->status, "conditions");

	if (!conds || conds->type != VAL_LIST)
		return false;
	for (size_t i = 0; i < conds->u.list.n; i++) {
		const struct val *c = conds->u.list.items[i];

		if (strcmp(val_str(val_map_get(c, "type"), ""), "Failed") == 0 &&
		    strcmp(val_str(val_map_get(c, "status"), ""), "True") == 0)
			return true;
	}
	return false;
}

/* readPolicyViolations: rest.podLog.result.violations (the parsed MAGOS_RESULT line). */
static const struct val *job_violations(const struct obj *job)
{
	const struct val *v = val_path(job->rest, "podLog.result.violations");

	return v && v->type == VAL_LIST && v->u.list.n > 0 ? v : NULL;
}

/* Merge patch removing the listed annotations that are non-empty; none → no action. */
static void consume_annotations(struct pass *p, const char *const *keys, size_t n)
{
	const struct obj *ws = p->in->ws;
	struct val *anns = NULL, *patch;
	struct mw_action *a;

	if (ws->annotations.n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *v = ann(ws, keys[i]);

		if (v && *v) {
			if (!anns)
				anns = val_new_map();
			val_map_set(anns, keys[i], val_new_null());
		}
	}
	if (!anns)
		return;
	patch = val_new_map();
	val_map_set(patch, "annotations", anns);
	a = push(p, MW_ACT_PATCH_META, MW_FAIL_RECONCILE_ERROR);
	a->patch = patch;
}

static bool phase_is(const char *phase, const char *want)
{
	return strcmp(phase, want) == 0;
}

/* Step 6/7 creation of a Job (ensureRunID, constructJobForWorkspace, r.Create). */
static void create_job(struct pass *p, const char *name, const char *type, const char *plan_file)
{
	const struct mw_input *in = p->in;
	struct mw_action *a;

	if (!has_str(p->mem.run_id)) {
		set_mem(&p->mem.run_id, mw_new_run_id(in->run_id_stamp, in->run_id_rand));
		p->out->used_run_rand = true;
	}
	a = push(p, MW_ACT_CREATE, MW_FAIL_RECONCILE_ERROR);
	a->obj = mw_construct_job_for_workspace(in->ws, name, type, plan_file, p->mem.run_id,
						in->project, in->repo_secret);
}

/*
 * reconcileWorkspace.  Returns MW_OK, or MW_EHANG.  *exact_requeue receives the
 * delay the inner result carries (0: none).
 */
static int reconcile_workspace(struct pass *p, int64_t *exact_requeue)
{
	const struct mw_input *in = p->in;
	const struct obj *ws = in->ws;
	const char *phase = val_str(val_map_get(ws->status, "phase"), "");
	const char *hash = p->out->spec_hash;
	char *plan_name = mw_job_name(ws->name, "plan", hash);
	char *apply_name = mw_job_name(ws->name, "apply", hash);
	char *plan_file = xstrjoin((const char *const[]){ "/workspace-data/run-", hash, ".tfplan" }, 3,
				   "");
	const struct obj *P = in->plan_job, *A = in->apply_job;
	bool needs_reset = false, due = false;
	const char *reset_reason = NULL;
	char *reset_message = NULL;
	int64_t next = 0, exact = 0;
	int rc = MW_OK;

	*exact_requeue = 0;

	/* Step 2: delete Jobs of an older spec hash unless a run is in flight. */
	if (!phase_is(phase, "Planning") && !phase_is(phase, "Applying")) {
		for (size_t i = 0; i < in->njobs; i++) {
			const struct obj *j = in->jobs[i];

			/* isOwned: an ownerReference with the Workspace's UID */
			if (!obj_owned_by_uid(j, ws->uid))
				continue;
			if (strcmp(j->name, plan_name) != 0 && strcmp(j->name, apply_name) != 0) {
				struct mw_action *a = push(p, MW_ACT_DELETE_JOB, MW_FAIL_IGNORE);
				a->key = xstrdup(j->name);
			}
		}
	}

	/* Step 3: reset decision (spec §4.6, first rule wins). */
	if (mw_compute_next_reconcile_time(&in->sched,
					   val_str(val_map_get(ws->status,
							       "observedReconcileInterval"), ""),
					   in->now_ms, &next, &due) != MW_OK) {
		rc = MW_EHANG;
		goto out_free_names;
	}
	if (!P && !A && *phase && !phase_is(phase, "Pending") && !phase_is(phase, "Planning") &&
	    !phase_is(phase, "Applying")) {
		needs_reset = true;
		reset_reason = "ConfigurationChanged";
		reset_message = xstrdup("Workspace spec was modified or jobs were deleted, "
					"triggering fresh execution");
	}
	{
		bool apply_finished = false, apply_succeeded = false;

		if (A) {
			if (val_map_get(A->status, "completionTime")) {
				apply_finished = true;
				apply_succeeded = true;
			} else if (job_count(A, "failed") > 0 && job_failed_condition(A)) {
				apply_finished = true;
			}
		}
		if (apply_finished) {
			if (due) {
				needs_reset = true;
				reset_reason = apply_succeeded ? "ScheduledReconcile" : "RetryApply";
				free(reset_message);
				reset_message = xstrdup(apply_succeeded
								? "Starting scheduled reconciliation"
								: "Retrying failed apply starting from new plan");
			} else {
				exact = next - in->now_ms;
			}
		} else if (P && job_count(P, "failed") > 0) {
			if (job_failed_condition(P)) {
				if (due) {
					needs_reset = true;
					reset_reason = "RetryPlan";
					free(reset_message);
					reset_message = xstrdup("Retrying failed plan");
				} else {
					exact = next - in->now_ms;
				}
			}
		}
	}
	if (!needs_reset && ws->annotations.n > 0 &&
	    (!*phase || phase_is(phase, "Applied") || phase_is(phase, "Failed"))) {
		const char *detected = ann(ws, MW_ANN_DETECTED_REVISION);

		if (detected &&
		    strcmp(detected, val_str(val_map_get(ws->status, "observedRevision"), "")) != 0) {
			needs_reset = true;
			reset_reason = "NewRevisionDetected";
			reset_message = xasprintf("RefWatcher detected new revision %s", detected);
		}
	}
	if (!needs_reset && ws->annotations.n > 0 &&
	    (!*phase || phase_is(phase, "Applied") || phase_is(phase, "Failed"))) {
		const char *req = ann(ws, MW_ANN_RECONCILE_REQUEST);

		if (req && *req) {
			needs_reset = true;
			reset_reason = "ManualReconcileRequested";
			reset_message = xasprintf("Manual reconcile requested at %s", req);
		}
	}
	if (needs_reset) {
		if (P)
			push(p, MW_ACT_DELETE_JOB, MW_FAIL_IGNORE)->key = xstrdup(P->name);
		if (A)
			push(p, MW_ACT_DELETE_JOB, MW_FAIL_IGNORE)->key = xstrdup(A->name);
		set_mem(&p->mem.run_id, mw_new_run_id(in->run_id_stamp, in->run_id_rand));
		p->out->used_run_rand = true;
		set_mem(&p->mem.run_trigger, xstrdup(mw_run_trigger_from_reset_reason(reset_reason)));
		update_status(p, "Pending", reset_reason, reset_message, "Unknown");
		reset_message = NULL;
		if (ws->annotations.n > 0 && ann(ws, MW_ANN_EXECUTION_ALLOWED))
			push(p, MW_ACT_UPDATE_DEL_ANN, MW_FAIL_RECONCILE_ERROR)->key =
				xstrdup(MW_ANN_EXECUTION_ALLOWED);
		goto out_free_names;
	}
	free(reset_message);
	reset_message = NULL;

	/* Step 4: the execution gate. */
	{
		const char *allowed = ws->annotations.n > 0 ? ann(ws, MW_ANN_EXECUTION_ALLOWED) : NULL;

		if (!allowed || strcmp(allowed, "true") != 0) {
			if (!*phase)
				update_status(p, "Pending", "AwaitingRollout",
					      xstrdup("Waiting for the Rollout controller to schedule "
						      "this Workspace for execution"),
					      "Unknown");
			if (exact > 0)
				*exact_requeue = exact;
			goto out_free_names;
		}
	}

	/* Step 5: the PVC. */
	if (!in->pvc) {
		char *pvc_name = mw_pvc_name(ws->name);

		push(p, MW_ACT_CREATE, MW_FAIL_RECONCILE_ERROR)->obj = construct_pvc(ws, pvc_name);
		free(pvc_name);
	}

	/* Step 6: plan. */
	if (!P) {
		create_job(p, plan_name, "plan", plan_file);
		update_status(p, "Planning", "PlanJobCreated", xstrdup("Terraform Plan job created"),
			      "Unknown");
		goto out_free_names;
	}
	if (job_count(P, "failed") > 0) {
		static const char *const keys[] = { MW_ANN_EXECUTION_ALLOWED, MW_ANN_RECONCILE_REQUEST };
		const char *ph = "Failed", *reason = "PlanFailed";
		char *message = xstrdup("Terraform Plan execution failed");
		const struct val *v = job_violations(P);

		if (v) {
			ph = "ValidationFailed";
			reason = "PolicyViolation";
			free(message);
			message = xasprintf("Plan violated %zu policy rule(s)", v->u.list.n);
			val_free(p->mem.violations);
			p->mem.violations = val_copy(v);
		}
		update_status(p, ph, reason, message, "False");
		consume_annotations(p, keys, 2);
		goto out_free_names;
	}
	if (job_count(P, "succeeded") == 0) {
		update_status(p, "Planning", "Planning", xstrdup("Terraform Plan execution is running"),
			      "Unknown");
		goto out_free_names;
	}

	/* Step 7: approval and apply creation. */
	if (!A) {
		const char *approved = ws->annotations.n > 0 ? ann(ws, MW_ANN_APPROVED) : NULL;
		bool is_approved = val_bool(val_map_get(ws->spec, "autoApply"), false);

		if (approved && strcmp(approved, "true") == 0)
			is_approved = true;
		if (!is_approved) {
			update_status(p, "Planned", "PlanSucceeded",
				      xstrdup("Terraform Plan succeeded. Waiting for manual approval "
					      "to Apply."),
				      "True");
			goto out_free_names;
		}
		if (approved && *approved) {
			static const char *const keys[] = { MW_ANN_APPROVED };

			consume_annotations(p, keys, 1);
		}
		create_job(p, apply_name, "apply", plan_file);
		update_status(p, "Applying", "ApplyJobCreated", xstrdup("Terraform Apply job created"),
			      "Unknown");
		goto out_free_names;
	}
	if (job_count(A, "failed") > 0) {
		static const char *const keys[] = { MW_ANN_EXECUTION_ALLOWED, MW_ANN_RECONCILE_REQUEST };

		update_status(p, "Failed", "ApplyFailed", xstrdup("Terraform Apply execution failed"),
			      "False");
		consume_annotations(p, keys, 2);
		goto out_free_names;
	}
	if (job_count(A, "succeeded") == 0) {
		update_status(p, "Applying", "Applying", xstrdup("Terraform Apply execution is running"),
			      "Unknown");
		goto out_free_names;
	}

	/* Step 8: success. */
	{
		static const char *const keys[] = { MW_ANN_EXECUTION_ALLOWED, MW_ANN_DETECTED_REVISION,
						    MW_ANN_RECONCILE_REQUEST };
		const char *sha = ws->annotations.n > 0 ? ann(ws, MW_ANN_DETECTED_REVISION) : NULL;

		set_mem(&p->mem.observed_revision,
			xstrdup(sha && *sha ? sha
					    : val_str(val_path(ws->spec, "source.targetRevision"), "")));
		update_status(p, "Applied", "ApplySucceeded",
			      xstrdup("Terraform Apply completed successfully"), "True");
		consume_annotations(p, keys, 3);
	}

out_free_names:
	free(reset_message);
	free(plan_name);
	free(apply_name);
	free(plan_file);
	return rc;
}

static void mem_from_status(struct mw_mem *m, const struct val *st)
{
	const struct val *pv = val_map_get(st, "policyViolations");

	memset(m, 0, sizeof(*m));
	m->observed_revision = xstrdup(val_str(val_map_get(st, "observedRevision"), ""));
	m->run_id = xstrdup(val_str(val_map_get(st, "currentRunID"), ""));
	m->run_trigger = xstrdup(val_str(val_map_get(st, "currentRunTrigger"), ""));
	m->violations = pv && pv->type == VAL_LIST && pv->u.list.n > 0 ? val_copy(pv) : NULL;
}

int mw_reconcile(const struct mw_input *in, struct mw_result *out)
{
	struct pass p = { in, out, { 0 } };
	const struct obj *ws = in->ws;
	int64_t exact = 0;
	int64_t next = 0;
	bool due;
	int rc = MW_OK;

	mw_result_release(out);
	out->outcome = MW_OUT_DONE;
	if (!ws)
		return MW_OK;
	if (in->spec_hash && strlen(in->spec_hash) == 8)
		memcpy(out->spec_hash, in->spec_hash, sizeof(out->spec_hash));
	else
		mw_get_spec_hash(ws->spec, out->spec_hash);
	mem_from_status(&p.mem, ws->status);

	if (!obj_has_finalizer(ws, MW_FINALIZER)) {
		push(&p, MW_ACT_ADD_FINALIZER, MW_FAIL_RETURN);
		goto out_release_mem;
	}
	if (ws->deletion_ms >= 0) {
		/* handleDeletion: status, then the finalizer (present: checked above). */
		update_status(&p, "Deleting", "Deleting", xstrdup("Workspace is being deleted"),
			      "False");
		push(&p, MW_ACT_REMOVE_FINALIZER, MW_FAIL_RETURN);
		goto out_release_mem;
	}

	if (reconcile_workspace(&p, &exact) == MW_EHANG) {
		out->outcome = MW_OUT_HANG;
		out->hang_msg = xasprintf(
			"workspace %s/%s: reconcile interval %s (annotation %s=\"%s\") is not positive; "
			"the real workspace controller loops forever in computeNextReconcileTime, and "
			"as its only worker never returns, no Workspace is reconciled from here on "
			"(the simulation goes on without the Workspace controller)",
			ws->ns, ws->name, in->sched.interval_str, MW_ANN_RECONCILE_INTERVAL,
			ann(ws, MW_ANN_RECONCILE_INTERVAL) ? ann(ws, MW_ANN_RECONCILE_INTERVAL) : "");
		rc = MW_EHANG;
		goto out_release_mem;
	}

	/* Success: the schedule fields and the requeue (the outer computeNextReconcileTime). */
	if (mw_compute_next_reconcile_time(&in->sched,
					   val_str(val_map_get(ws->status,
							       "observedReconcileInterval"), ""),
					   in->now_ms, &next, &due) != MW_OK) {
		/* Cannot happen: the inner pass made the same call with the same inputs. */
		assert(0);
	}
	out->schedule = true;
	out->requeue_after_ms = exact != 0 ? exact : next - in->now_ms;
	out->next_ms = in->now_ms + out->requeue_after_ms;
	out->interval_str = xstrdup(in->sched.interval_str);

out_release_mem:
	mw_mem_release(&p.mem);
	return rc;
}

void mw_error_status(const struct mw_action *failed, const char *errtext,
		     struct mw_status_req *out)
{
	memset(out, 0, sizeof(*out));
	out->phase = "Failed";
	out->reason = "ReconcileError";
	out->message = xstrdup(errtext);
	out->cond = "False";
	mem_copy(&out->mem, &failed->mem);
}
