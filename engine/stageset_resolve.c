/*
 * Resolver.Resolve over the pass's world.  See engine/stageset_resolve.h.
 */
#include "engine/stageset_resolve.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Upstream's sentinel texts (resolver.go). */
#define ERR_SOURCE_NOT_READY "source artifact not ready"
#define ERR_ARTIFACT_MISSING "source has no status.artifact yet"
#define ERR_ARTIFACT_NOT_FOUND "referenced ExternalArtifact not found"
#define ERR_AMBIGUOUS_PRODUCER "producer reference resolves to multiple ExternalArtifacts"
#define ERR_PRODUCER_API_VERSION "producer sourceRef requires apiVersion"
#define ERR_CROSS_NAMESPACE "cross-namespace source reference rejected"

static int fail(struct res_error *e, enum res_class cls, const struct ssc_err *api,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(struct res_error *e, enum res_class cls, const struct ssc_err *api,
		const char *fmt, ...)
{
	va_list ap;
	e->cls = cls;
	if (api)
		e->api = *api;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* isPermanentAPIError: a Forbidden or NoMatch anywhere in the chain. */
static bool permanent(const struct ssc_err *e)
{
	return e->code == SSC_ERR_FORBIDDEN || e->code == SSC_ERR_NO_MATCH;
}

/*
 * Appends @n bytes of @s to @buf (@len bytes, *@at used) as snprintf would,
 * truncating and keeping the terminator; a pass resolves every stage, so no
 * printf here.
 */
static void put_text(char *buf, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + 1 >= len)
		return;
	if (n > len - 1 - *at)
		n = len - 1 - *at;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = '\0';
}

const char *res_group_of(const char *api_version, char *buf, size_t len)
{
	const char *slash = strchr(api_version ? api_version : "", '/');
	size_t at = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (slash)
		put_text(buf, len, &at, api_version, (size_t)(slash - api_version));
	return buf;
}

static bool is_direct_source_kind(const struct sst_source_ref *ref)
{
	char g[256];
	if (strcmp(ref->kind, "GitRepository") != 0 && strcmp(ref->kind, "OCIRepository") != 0 &&
	    strcmp(ref->kind, "Bucket") != 0)
		return false;
	res_group_of(ref->api_version, g, sizeof(g));
	return g[0] == '\0' || strcmp(g, RES_EA_GROUP) == 0;
}

bool res_is_producer_ref(const struct sst_source_ref *ref)
{
	return ref->kind[0] != '\0' && strcmp(ref->kind, RES_EA_KIND) != 0 &&
	       !is_direct_source_kind(ref);
}

static const struct obj *get_direct_source(const struct ssc_env *env, const struct sst_source_ref *ref,
					   const char *ns, const char *kind, int64_t at_ms,
					   struct res_error *e)
{
	struct ssc_err err = { SSC_OK, "" };
	const char *api_version = ref->api_version[0] ? ref->api_version : RES_EA_API_VERSION;
	const struct obj *o = env->get(env->ctx, api_version, kind, ns, ref->name, at_ms, &err);
	if (o)
		return o;
	if (err.code == SSC_ERR_NOT_FOUND) {
		fail(e, RES_ARTIFACT_NOT_FOUND, &err, ERR_ARTIFACT_NOT_FOUND ": %s %s/%s", kind, ns,
		     ref->name);
		return NULL;
	}
	fail(e, permanent(&err) ? RES_RBAC_DENIED : RES_API_ERROR, &err, "get %s %s/%s: %s", kind, ns,
	     ref->name, err.msg);
	return NULL;
}

/* NestedStringMap(spec.sourceRef): false when absent or any value is not a string. */
static bool string_map(const struct val *m)
{
	if (!m || m->type != VAL_MAP)
		return false;
	for (size_t i = 0; i < m->u.map.n; i++)
		if (m->u.map.items[i].v->type != VAL_STRING)
			return false;
	return true;
}

static const struct obj *resolve_producer(const struct ssc_env *env, const struct sst_source_ref *ref,
					  const char *ns, int64_t at_ms, struct res_error *e)
{
	char want[256], got[256];
	const struct obj *const *items = NULL;
	const struct obj *match = NULL;
	size_t nmatch = 0;
	struct ssc_err err = { SSC_OK, "" };

	if (ref->api_version[0] == '\0') {
		fail(e, RES_INVALID_SPEC, NULL,
		     ERR_PRODUCER_API_VERSION ": sourceRef kind \"%s\" name \"%s\" needs apiVersion to identify the producer's API group",
		     ref->kind, ref->name);
		return NULL;
	}
	res_group_of(ref->api_version, want, sizeof(want));
	size_t n = env->list(env->ctx, RES_EA_API_VERSION, RES_EA_KIND, ns, at_ms, &items, &err);
	if (err.code != SSC_OK) {
		fail(e, permanent(&err) ? RES_RBAC_DENIED : RES_API_ERROR, &err,
		     "list ExternalArtifacts in %s: %s", ns, err.msg);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct val *sr = val_map_get(items[i]->spec, "sourceRef");
		if (!string_map(sr))
			continue;
		res_group_of(val_str(val_map_get(sr, "apiVersion"), ""), got, sizeof(got));
		if (strcmp(val_str(val_map_get(sr, "kind"), ""), ref->kind) == 0 &&
		    strcmp(val_str(val_map_get(sr, "name"), ""), ref->name) == 0 && strcmp(got, want) == 0) {
			if (nmatch++ == 0)
				match = items[i];
		}
	}
	switch (nmatch) {
	case 0:
		fail(e, RES_ARTIFACT_NOT_FOUND, NULL,
		     ERR_ARTIFACT_NOT_FOUND ": no ExternalArtifact in %s back-references %s \"%s\" (%s)", ns,
		     ref->kind, ref->name, ref->api_version);
		return NULL;
	case 1:
		return match;
	default:
		fail(e, RES_RESOLVE_FAILED, NULL,
		     ERR_AMBIGUOUS_PRODUCER ": %zu ExternalArtifacts in %s back-reference %s \"%s\"", nmatch, ns,
		     ref->kind, ref->name);
		return NULL;
	}
}

/* The status.conditions list of @o, or NULL when absent or not a list. */
static const struct val *conditions(const struct obj *o)
{
	const struct val *c = val_map_get(o->status, "conditions");
	return c && c->type == VAL_LIST ? c : NULL;
}

/* readyState: true, or false with @why. */
static bool ready_state(const struct obj *o, char *why, size_t len)
{
	const struct val *l = conditions(o);
	if (!l) {
		snprintf(why, len, "status.conditions not populated");
		return false;
	}
	for (size_t i = 0; i < l->u.list.n; i++) {
		const struct val *m = l->u.list.items[i];
		if (m->type != VAL_MAP || strcmp(val_str(val_map_get(m, "type"), ""), "Ready") != 0)
			continue;
		const char *s = val_str(val_map_get(m, "status"), "");
		if (strcmp(s, "True") == 0)
			return true;
		snprintf(why, len, "Ready=%s reason=%s", s, val_str(val_map_get(m, "reason"), ""));
		return false;
	}
	snprintf(why, len, "no Ready condition");
	return false;
}

/* verifiedState: -1 nil, 0 false, 1 true. */
static int verified_state(const struct obj *o)
{
	const struct val *l = conditions(o);
	for (size_t i = 0; l && i < l->u.list.n; i++) {
		const struct val *m = l->u.list.items[i];
		if (m->type != VAL_MAP ||
		    strcmp(val_str(val_map_get(m, "type"), ""), "SourceVerified") != 0)
			continue;
		return strcmp(val_str(val_map_get(m, "status"), ""), "True") == 0;
	}
	return -1;
}

/* pinnedState: -1 nil, 0 false, 1 true. */
static int pinned_state(const struct obj *o)
{
	if (strcmp(o->kind, "OCIRepository") == 0)
		return val_str(val_path(o->spec, "ref.digest"), "")[0] != '\0';
	if (strcmp(o->kind, "GitRepository") == 0)
		return val_str(val_path(o->spec, "ref.commit"), "")[0] != '\0';
	if (strcmp(o->kind, "Bucket") == 0)
		return 0;
	return -1;
}

static int read_artifact(const struct obj *o, struct ssc_resolved *out, struct res_error *e)
{
	const struct val *st = o->status;
	const struct val *a = val_map_get(st, "artifact");
	if (!a || a->type == VAL_NULL)
		return fail(e, RES_ARTIFACT_NOT_FOUND, NULL, ERR_ARTIFACT_MISSING);
	if (a->type != VAL_MAP)
		return fail(e, RES_API_ERROR, NULL,
			    "read status.artifact: .status.artifact accessor error: %s is not an object",
			    val_type_name(a->type));
	out->url = val_str(val_map_get(a, "url"), "");
	if (!out->url[0])
		return fail(e, RES_ARTIFACT_NOT_FOUND, NULL,
			    ERR_ARTIFACT_MISSING ": status.artifact.url is empty");
	out->digest = val_str(val_map_get(a, "digest"), "");
	if (!out->digest[0])
		return fail(e, RES_ARTIFACT_NOT_FOUND, NULL,
			    ERR_ARTIFACT_MISSING ": status.artifact.digest is empty");
	out->revision = val_str(val_map_get(a, "revision"), "");
	return 0;
}

int res_resolve(const struct ssc_env *env, const struct sst_source_ref *ref, const char *owner_ns,
		bool no_cross_namespace, int64_t at_ms, struct ssc_resolved *out,
		struct res_error *err)
{
	const char *ns = ref->ns[0] ? ref->ns : owner_ns;
	const char *kind = ref->kind[0] ? ref->kind : RES_EA_KIND;
	const struct obj *ea;
	char why[512];

	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	if (strcmp(ns, owner_ns) != 0 && no_cross_namespace)
		return fail(err, RES_RESOLVE_FAILED, NULL, ERR_CROSS_NAMESPACE ": %s/%s", ns, ref->name);

	if (strcmp(kind, RES_EA_KIND) == 0)
		ea = get_direct_source(env, ref, ns, RES_EA_KIND, at_ms, err);
	else if (is_direct_source_kind(ref))
		ea = get_direct_source(env, ref, ns, kind, at_ms, err);
	else
		ea = resolve_producer(env, ref, ns, at_ms, err);
	if (!ea)
		return -1;

	if (!ready_state(ea, why, sizeof(why)))
		return fail(err, RES_SOURCE_NOT_READY, NULL, "%s %s/%s (%s): " ERR_SOURCE_NOT_READY,
			    ea->kind, ea->ns, ea->name, why);
	if (read_artifact(ea, out, err) != 0) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	{
		size_t at = 0;

		out->key[0] = '\0';
		const char *ens = ea->ns ? ea->ns : "", *ename = ea->name ? ea->name : "";

		put_text(out->key, sizeof(out->key), &at, ens, strlen(ens));
		put_text(out->key, sizeof(out->key), &at, "/", 1);
		put_text(out->key, sizeof(out->key), &at, ename, strlen(ename));
	}
	out->verified = verified_state(ea);
	out->pinned = pinned_state(ea);
	out->source = ea;
	return 0;
}
