#ifndef MAGOS_ENGINE_STAGESET_VALIDATE_H
#define MAGOS_ENGINE_STAGESET_VALIDATE_H

/*
 * ValidateSpec, the StageSet's validating webhook and the reconciler's
 * fallback check (metio/stageset-controller@f2c7604
 * internal/controller/webhook.go; spec §1.9, R-6): the invariants the CRD
 * schema does not express — unique stage names, producer source refs with an
 * apiVersion, one verb per action with unique non-empty names and a scope
 * where it may be, migration ladders (inline or sourced, never both, with a
 * version and anchors that resolve), one version source, the decryption and
 * kubeConfig shapes, error budgets, promotion gates, ready checks, onTimeout,
 * dependsOn and update windows — checked in upstream's order, the first
 * failure's text exactly as upstream words it.
 *
 * Every validate* helper returns NULL when the part is valid, or a new
 * message (caller frees).  Names in messages are quoted as Go's %q.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"

/* ssv_validate_spec() results. */
enum {
	SSV_OK = 0,
	SSV_EINVAL = -1, /* the spec breaks a rule: *err is ValidateSpec's error text */
	SSV_EPANIC = -2, /* upstream panics while validating (window.Validate, see engine/stageset_windows.h): *err is the panic text */
};

/*
 * ssv_validate_spec() - ValidateSpec: ValidateStages, validateMigrations,
 * validateVersion, validateDecryption, validateKubeConfig,
 * validateErrorBudget, validatePromotion, validateReadyChecks,
 * validateOnTimeout, validateDependsOn, window.Validate, in that order; the
 * first error wins.
 * @ss:     the StageSet (its namespace, for the migrations source check).
 * @spec:   its parsed spec (sst_spec_parse of @ss->spec).
 * @env:    the world, for the update windows' time zones (env->time_zone).
 * @now_ms: when the check runs (window.Validate evaluates every window at
 *          time.Now()), Unix ms.
 * @err:    receives a new message on SSV_EINVAL / SSV_EPANIC (caller frees),
 *          NULL on SSV_OK.
 * Returns: SSV_OK, SSV_EINVAL or SSV_EPANIC.
 * Source: metio/stageset-controller@f2c7604 internal/controller/webhook.go ValidateSpec.
 * Deviations: 1. readyChecks.exprs CEL expressions are not compiled (the
 *         simulator has no CEL): any text compiles; a malformed apiVersion
 *         is still refused.
 */
int ssv_validate_spec(const struct obj *ss, const struct sst_spec *spec, const struct ssc_env *env,
		      int64_t now_ms, char **err);

/*
 * ssv_validate_update() - StageSetValidator.ValidateUpdate: nothing is
 * checked when @new_obj is being deleted (deletion_ms >= 0) or when the spec
 * is unchanged apart from `suspend` (ssv_validation_inputs_unchanged(), @old_obj
 * non-NULL); otherwise ssv_validate_spec() of @new_spec.
 * Returns and @err: as ssv_validate_spec().
 * Source: metio/stageset-controller@f2c7604 internal/controller/webhook.go ValidateUpdate.
 */
int ssv_validate_update(const struct obj *old_obj, const struct obj *new_obj, const struct sst_spec *new_spec,
			const struct ssc_env *env, int64_t now_ms, char **err);

/*
 * ssv_validation_inputs_unchanged() - validationInputsUnchanged: the spec
 * trees of @a and @b are equal once `suspend` is set aside (an absent spec
 * reads as an empty one).
 * Source: metio/stageset-controller@f2c7604 internal/controller/webhook.go validationInputsUnchanged.
 * Deviations: upstream compares the decoded Go structs; this compares the
 *         stored trees, so two spellings of one value (`1m` and `60s`, an
 *         explicit `false` against an absent bool) count as a change and
 *         such an update is validated where upstream would skip it.
 */
bool ssv_validation_inputs_unchanged(const struct obj *a, const struct obj *b);

/*
 * ssv_validate_stages() - ValidateStages: unique stage names; per stage in
 * order a producer sourceRef needs an apiVersion, then its pre, post and
 * onFailure actions (one verb, a non-empty name unique across the three
 * phases, ssv_validate_action_scope()); then spec.onRollback (one verb, a
 * non-empty unique name, no scope, no completionAnchor).
 * Source: metio/stageset-controller@f2c7604 internal/controller/webhook.go ValidateStages.
 */
char *ssv_validate_stages(const struct sst_spec *spec);

/*
 * ssv_validate_action_scope() - validateActionScope: a known scope, none on
 * onFailure, Version only with @versioned (spec.version set), a
 * completionAnchor only on a Lifetime action and with all three fields.
 * @stage: the stage's name; @phase: "pre", "post" or "onFailure".
 * Source: metio/stageset-controller@f2c7604 internal/controller/webhook.go validateActionScope.
 */
char *ssv_validate_action_scope(const char *stage, const char *phase, const struct sst_action *a, bool versioned);

/*
 * ssv_validate_migrations() - validateMigrations: inline and sourced ladders
 * are exclusive; either needs spec.version; a sourced ladder must be in
 * @ns (the StageSet's namespace); stage names and migrationAnchors are unique
 * as one set of keys; an inline ladder passes mig_validate_ladder() and
 * anchors every migration to a known key.
 * Source: metio/stageset-controller@f2c7604 internal/controller/webhook.go validateMigrations.
 */
char *ssv_validate_migrations(const struct sst_spec *spec, const char *ns);

/* ssv_validate_version() - validateVersion: exactly one of value, fromObject, fromArtifact. */
char *ssv_validate_version(const struct sst_spec *spec);

/* ssv_validate_decryption() - validateDecryption: provider "sops", a secretRef (when given) with a name. */
char *ssv_validate_decryption(const struct sst_spec *spec);

/* ssv_validate_kube_config() - validateKubeConfig: exactly one of secretRef / configMapRef, with a name. */
char *ssv_validate_kube_config(const struct sst_spec *spec);

/* ssv_validate_error_budget() - validateErrorBudget: spec.errorBudget, then each stage's, by ssv_validate_budget(). */
char *ssv_validate_error_budget(const struct sst_spec *spec);

/*
 * ssv_validate_budget() - validateBudget: @eb (NULL: valid) has a usable
 * source, numeric thresholds, resumeThreshold >= freezeThreshold and a
 * known onSourceError; @where prefixes the messages ("spec.errorBudget").
 */
char *ssv_validate_budget(const char *where, const struct sst_error_budget *eb);

/*
 * ssv_validate_promotion() - validatePromotion: per stage, fastTrack (a soak
 * to shorten, a usable source, a numeric max), restartGate and eventGate
 * (onFailure, at least one check, unique non-empty names, a selector that
 * converts and selects something, event reasons, per-check onFailure), then
 * analysis (checks, names, sources, bounds, onFailure, onSourceError).
 * Source: metio/stageset-controller@f2c7604 internal/controller/webhook.go
 *         validatePromotion, validateThresholdBounds.
 */
char *ssv_validate_promotion(const struct sst_spec *spec);

/* ssv_validate_metric_source() - validateMetricSource: exactly one provider, its required fields, a named secretRef. */
char *ssv_validate_metric_source(const char *where, const struct sst_metric_source *src);

/*
 * ssv_parse_threshold_value() - parseThresholdValue: strconv.ParseFloat of
 * @s into *@v, or `<where> "<s>" is not a number`.
 */
char *ssv_parse_threshold_value(const char *where, const char *s, double *v);

/*
 * ssv_validate_ready_checks() - validateReadyChecks: readyChecks.checks[]
 * need kind and name; readyChecks.exprs[] need an apiVersion that parses as
 * a GroupVersion (compileReadyExprs).
 * Deviations: the CEL expressions are accepted as they are (no CEL here).
 */
char *ssv_validate_ready_checks(const struct sst_spec *spec);

/* ssv_validate_on_timeout() - validateOnTimeout: "", Hold or Rollback at spec and stage level. */
char *ssv_validate_on_timeout(const struct sst_spec *spec);

/* ssv_validate_depends_on() - validateDependsOn: a name, and a minVersion semver.NewVersion accepts. */
char *ssv_validate_depends_on(const struct sst_spec *spec);

#endif
