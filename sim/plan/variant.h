#ifndef MAGOS_PLAN_VARIANT_H
#define MAGOS_PLAN_VARIANT_H

/*
 * What-if variants of a scenario (spec.variants): each one names a change —
 * JSON merge patches (RFC 7386) on named manifests and overrides of
 * spec.models by the same keys — and applying it to the loaded base yields a
 * complete scenario that runs on the same trial seeds as the base (common
 * random numbers: sim/plan/trials.h derives every stream from the seed and the
 * source, so a draw that the change does not touch stays the same).
 *
 *     variants:
 *     - name: soak 15m
 *       description: shorter canary soak      # optional
 *       patches:
 *       - target: {apiVersion: ..., kind: FleetRollout, namespace: ..., name: fleet}
 *         merge: {spec: {waves: [...]}}       # a list replaces the whole list
 *       models: {jobs: {apply: {failureProbability: 0.05}}}
 *
 * A patched manifest is admitted again as the API server would admit it
 * (schema, defaults, CEL rules); the merged spec.models is read as scn_load()
 * reads spec.models.  Neither the base nor anything it owns is changed.
 */

#include <stdbool.h>
#include <stddef.h>

#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/load/scenario.h"

/* One merge patch of a variant.  Invariant: target.kind and target.name set. */
struct var_patch {
	struct scn_target target; /* owned; api_version NULL when not given, ns resolved
				   * ("" for cluster-scoped kinds, "default" when omitted) */
	struct val *merge;        /* owned: the merge patch, a map */
	struct val_mark mark;     /* where the patch's `target` sits */
};

/* One variant: a name and what it changes. */
struct var_def {
	char *name;               /* owned, non-empty, unique in its set */
	char *description;        /* owned or NULL */
	struct var_patch *patches;/* owned */
	size_t npatches;
	struct val *models;       /* owned merge patch over spec.models, or NULL */
	char *where;              /* owned: "spec.variants[2]" (diagnostic paths start here) */
	const char *file;         /* borrowed: the file it was read from (may be NULL) */
	struct val_mark mark;     /* where the variant's entry sits */
	bool invalid;             /* var_parse() reported its errors: never applied */
};

/* The variants of one scenario, in file order. */
struct var_set {
	struct var_def *v; /* owned */
	size_t n;
};

/*
 * var_parse() - reads @base->variants (the raw spec.variants list) into @out
 * and checks that every patch target exists among @base's objects.
 * @out: filled (empty when the scenario has no variants); release with
 *       var_set_release() whatever the return value.
 * @d:   every problem, as "FILE:LINE:COL: error: spec.variants[i]...: ..."
 *       with notes (accepted keys, the known objects of the kind).  The
 *       errors of one variant hide none of another's, and a variant with a
 *       bad key or a taken name still has its patch targets and models
 *       checked: one pass reports every independent error.
 * A variant with errors stays in @out marked `invalid` when it has a name
 * (so that a later variant of that name is a duplicate); callers apply
 * only the others.
 * Returns: 0, or -1 when an error was found.
 */
int var_parse(const struct scenario *base, struct var_set *out, struct diag *d);

/* var_set_release() - frees what @vs owns (not @vs); accepts NULL. */
void var_set_release(struct var_set *vs);

/* var_def_release() - frees what @v owns (not @v); accepts NULL. */
void var_def_release(struct var_def *v);

/* var_find() - the variant named @name (borrowed from @vs), or NULL. */
const struct var_def *var_find(const struct var_set *vs, const char *name);

/*
 * A scenario with a variant applied.  @s is a shallow copy of the base that
 * borrows everything but what the variant changed: its objs array, the
 * patched objects and, when the variant overrides models, its models.  Use
 * @s read-only; never scn_release() it (var_scenario_release() frees what it
 * owns); the base must outlive it.
 */
struct var_scenario {
	struct scenario s;
	bool *owned;       /* owned: owned[i] when s.objs[i] is a patched object of this variant */
	bool own_models;   /* s.models is this variant's */
};

/*
 * var_apply() - @base with @v applied, into @out.
 * Patches are applied in order (a second patch of one object sees the
 * first's result); each result is admitted again; a patch may not change
 * the object's apiVersion, kind, namespace or name; a patched FleetRollout's
 * prometheus gates need a series in spec.metrics.  @v->models is merged
 * over the raw spec.models of @base (RFC 7386) and read with defaults.
 * Returns: 0; or -1 with errors in @d naming the variant and, for a patch
 *          that makes a manifest invalid, the admission message; @out is
 *          then empty (safe to release).
 */
int var_apply(const struct scenario *base, const struct var_def *v, struct var_scenario *out,
	      struct diag *d);

/*
 * var_check() - whether every variant of @base would run: var_parse(), then
 * var_apply() of each variant it accepted, as `run -n` does before its
 * first trial.  For the commands that do not run the variants (a single
 * run, compare) but must refuse a scenario whose variants are invalid.
 * @d: the errors and warnings of both, each once.
 * Returns: 0, or -1 when an error was found.
 */
int var_check(const struct scenario *base, struct diag *d);

/* var_scenario_release() - frees what @vs owns (never the base's); accepts NULL. */
void var_scenario_release(struct var_scenario *vs);

#endif
