#ifndef MAGOS_ENGINE_STAGESET_CONFLICT_H
#define MAGOS_ENGINE_STAGESET_CONFLICT_H

/*
 * How a stage's apply handles an immutable-field conflict, per rendered
 * object, as the StageSet controller decides it before the server-side apply
 * (metio/stageset-controller@f2c7604 internal/apply/conflict.go): Fail (the
 * apply error fails the stage), Recreate (the object is deleted and created
 * again with the new value) or KeepExisting (an object that exists is left as
 * it is, conflict or not).  What the apply then meets is the world's; this
 * module only decides.
 */

#include <stdbool.h>
#include <stddef.h>

#include "engine/stageset_types.h"
#include "engine/value.h"

/* The conflict-policy actions (the CRD enum). */
enum scf_action {
	SCF_FAIL,          /* "Fail" */
	SCF_RECREATE,      /* "Recreate" */
	SCF_KEEP_EXISTING, /* "KeepExisting" */
};

/* One rendered object as conflict handling reads it; strings borrowed, ns "" when cluster-scoped. */
struct scf_object {
	const char *api_version, *kind, *name, *ns;
	bool force_annotation; /* the manifest carries a non-empty stages.metio.wtf/force */
};

/*
 * scf_action_text() - the CRD enum text of @a ("Fail", "Recreate",
 * "KeepExisting").  Cannot fail.
 */
const char *scf_action_text(enum scf_action a);

/*
 * scf_matches_conflict_target() - whether @obj matches the rule target
 * @target (a conflictPolicy.rules[].target mapping; NULL matches any): every
 * target field that is set and not empty (apiVersion, kind, name, namespace)
 * equals the object's.
 * Source: metio/stageset-controller@f2c7604 internal/apply/conflict.go
 *         matchesConflictTarget.
 */
bool scf_matches_conflict_target(const struct scf_object *obj, const struct val *target);

/*
 * scf_is_stateful_data() - whether @obj is a core/v1 PersistentVolumeClaim or
 * PersistentVolume, the kinds whose recreation destroys data (apiVersion
 * exactly "v1").
 * Source: metio/stageset-controller@f2c7604 internal/apply/conflict.go isStatefulData.
 */
bool scf_is_stateful_data(const struct scf_object *obj);

/*
 * scf_conflict_action_for() - one object's action: Recreate when the manifest
 * carries a non-empty force annotation (not from a rule); else the action of
 * the first rule of @policy (a conflictPolicy mapping, NULL: none) whose
 * target matches, with its allowDataLoss, from a rule; else @fallback.  An
 * action text outside the enum (admission refuses it) reads as Fail, which is
 * what upstream's switch does with it.
 * @allow_data_loss, @from_rule: set (may be NULL).
 * Source: metio/stageset-controller@f2c7604 internal/apply/conflict.go conflictActionFor.
 */
enum scf_action scf_conflict_action_for(const struct scf_object *obj, const struct val *policy,
					enum scf_action fallback, bool *allow_data_loss, bool *from_rule);

/*
 * scf_resolve_conflict_handling() - every object's action for an apply of
 * @stage.  The effective default is Recreate when stages[].force is true,
 * else Fail; a conflictPolicy.default that is set and not empty overrides it
 * (the CRD defaults it to Fail whenever a conflictPolicy is given, so force
 * then no longer recreates: upstream's precedence, kept).
 * @objs, @n: the rendered objects, in render order.
 * @actions:  n entries, filled (every entry on success).
 * @err, @errlen: on refusal, upstream's text "conflictPolicy refuses to
 *   recreate <Kind> \"<name>\": that destroys data; set the rule's
 *   allowDataLoss: true to permit it" for the first object a rule (not force,
 *   not the annotation) would recreate that is stateful data without
 *   allowDataLoss.
 * Returns: 0, or -1 on that refusal (the stage fails with op "conflict policy").
 * Deviations: the per-apply force token (NewForceToken, random) is not
 *   minted: it only makes a stale force annotation on a live object unable
 *   to match the selector, and here the actions are decided per apply from
 *   the current spec and the desired objects alone, which is the property it
 *   buys (T-108).
 * Source: metio/stageset-controller@f2c7604 internal/apply/conflict.go
 *         ResolveConflictHandling.
 */
int scf_resolve_conflict_handling(const struct scf_object *objs, size_t n, const struct sst_stage *stage,
				  enum scf_action *actions, char *err, size_t errlen);

/*
 * scf_stage_has_handling() - whether @stage says anything of conflicts
 * (force: true or a conflictPolicy): when not, every object is Fail and
 * scf_resolve_conflict_handling() cannot refuse, so a caller may skip it.
 */
bool scf_stage_has_handling(const struct sst_stage *stage);

#endif
