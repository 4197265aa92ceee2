#ifndef MAGOS_ENGINE_STAGESET_RESOLVE_H
#define MAGOS_ENGINE_STAGESET_RESOLVE_H

/*
 * A stage's sourceRef resolved to a ready artifact, as the StageSet
 * controller's artifact.Resolver does it (metio/stageset-controller@f2c7604
 * internal/artifact/resolver.go), over the world's get and list
 * (struct ssc_env): a direct ExternalArtifact, a classic Flux source
 * (GitRepository, OCIRepository, Bucket) read directly, or any other kind
 * treated as a producer and found through the ExternalArtifact whose
 * spec.sourceRef points back at it (RFC-0012, matched on API group, kind and
 * name).
 *
 * The error texts are upstream's err.Error() exactly: failResolution turns
 * them into the Ready message "stage \"<s>\": <text>" (spec R-8).  The class
 * says which Ready reason and requeue the controller picks.
 */

#include <stdbool.h>
#include <stddef.h>

#include "engine/stageset_env.h"
#include "engine/stageset_types.h"

/* Upstream constants (externalArtifactGroup/Version/Kind). */
#define RES_EA_GROUP "source.toolkit.fluxcd.io"
#define RES_EA_API_VERSION "source.toolkit.fluxcd.io/v1"
#define RES_EA_KIND "ExternalArtifact"

/*
 * How a resolution failed, in failResolution's order of tests: a permanent
 * API error anywhere in the chain first (RBACDenied), then the sentinels.
 */
enum res_class {
	RES_OK = 0,
	RES_RBAC_DENIED,        /* isPermanentAPIError: Forbidden or NoMatch from get/list → RBACDenied, 1 m */
	RES_SOURCE_NOT_READY,   /* ErrSourceNotReady → SourceNotReady, jittered retryInterval */
	RES_ARTIFACT_NOT_FOUND, /* ErrArtifactNotFound, ErrArtifactMissing → ArtifactNotFound, jittered retryInterval */
	RES_INVALID_SPEC,       /* ErrProducerAPIVersionRequired → InvalidSpec, 1 m */
	RES_RESOLVE_FAILED,     /* ErrAmbiguousProducer, ErrCrossNamespaceForbidden → ResolveFailed, 1 m */
	RES_API_ERROR,          /* any other get/list failure → ResolveFailed and the error returned (back-off) */
};

/* The failure of res_resolve(). */
struct res_error {
	enum res_class cls;
	struct ssc_err api; /* the API error underneath (code and text) when a get/list failed, else SSC_OK */
	char msg[1024];     /* err.Error() of the upstream error chain */
};

/*
 * res_resolve() - Resolver.Resolve: @ref of a stage of a StageSet in
 * namespace @owner_ns to a Ready artifact.
 * @env:       the world (get, list); asked at @at_ms.
 * @ref:       the stage's sourceRef (borrowed).
 * @owner_ns:  the StageSet's namespace.
 * @no_cross_namespace: --no-cross-namespace-refs.
 * @at_ms:     the pass clock, Unix ms (the world's get/list report no duration).
 * @out:       filled on success; its strings are borrowed from the resolved
 *             object, which the world keeps for the pass.
 * @err:       filled on failure (class, API error, text).
 * Returns: 0, or -1 with @err.
 * Source: metio/stageset-controller@f2c7604 internal/artifact/resolver.go
 *         Resolver.Resolve, getDirectSource, resolveProducer, readyState,
 *         readArtifact, pinnedState, verifiedState, isDirectSourceKind, groupOf.
 * Deviations: none in the decision; the classification of the error chain
 *         (errors.Is over wrapped sentinels) is computed here as @err->cls.
 */
int res_resolve(const struct ssc_env *env, const struct sst_source_ref *ref, const char *owner_ns,
		bool no_cross_namespace, int64_t at_ms, struct ssc_resolved *out,
		struct res_error *err);

/*
 * res_is_producer_ref() - IsProducerRef: a kind other than "" /
 * ExternalArtifact and not a classic Flux source of the source-controller
 * group (or no group).  Cannot fail.
 * Source: metio/stageset-controller@f2c7604 internal/artifact/resolver.go IsProducerRef.
 */
bool res_is_producer_ref(const struct sst_source_ref *ref);

/*
 * res_group_of() - groupOf: the text before the first '/' of @api_version,
 * "" for a core version ("v1"), into @buf of @len bytes (truncated).
 * Returns @buf.
 */
const char *res_group_of(const char *api_version, char *buf, size_t len);

#endif
