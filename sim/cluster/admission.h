#ifndef MAGOS_SIM_ADMISSION_H
#define MAGOS_SIM_ADMISSION_H

/*
 * Admission of one Kubernetes object document, as the API server would do it
 * on `kubectl apply --validate=strict` (the default): the kind must be one
 * the simulator knows; metadata is checked (name, namespace, label and
 * annotation keys, label values); spec and status are validated against a
 * hand-written copy of the kind's CRD schema (sim/cluster/schema.h), with its
 * defaults applied and its CEL rules evaluated; unknown fields are errors.
 *
 * Supported kinds (apiVersion, kind, scope):
 *   magosproject.io/v1alpha1  Project, Rollout, Workspace       namespaced
 *   stages.metio.wtf/v1       FleetRollout                     cluster
 *   stages.metio.wtf/v1       StageSet                         namespaced
 *   v1                        Namespace                        cluster
 *   v1                        Secret (repository credentials)  namespaced
 *   policies.kyverno.io/v1    ValidatingPolicy                 cluster
 *
 * Diagnostics read like kubectl's, after the object's identity:
 *   file:line:col: error: Workspace "default/demo-dev": spec.source.repoURL: Required value
 * They are added in line order (an error keeps its notes).  Names too long for
 * a message are shortened (sim/cluster/schema.h, sch_quote() / sch_abbrev()).  Name,
 * label and annotation problems use the API server's texts, one error per
 * failed rule (a name over the limit gets `must be no more than 253 bytes`,
 * the wording of the pinned apimachinery; the label texts are engine/labels.h's).
 *
 * metadata, as read from a manifest or a `kubectl get -o yaml` snapshot:
 *   name           required, DNS-1123 subdomain (a DNS-1123 label for Namespace)
 *   namespace      namespaced kinds: DNS-1123 label, default "default";
 *                  cluster-scoped kinds: ignored, as kubectl does
 *   labels         keys: qualified names; values: label values (≤ 63, syntax)
 *   annotations    keys: qualified names; values: any string
 *   finalizers     kept (obj.finalizers)
 *   uid            kept (obj.uid)
 *   generation     kept when ≥ 1 (so status.observedGeneration compares as it did)
 *   deletionTimestamp  kept as "deletion requested at time 0" (obj.deletion_ms = 0)
 *   resourceVersion, creationTimestamp, managedFields, ownerReferences,
 *   selfLink, generateName, deletionGracePeriodSeconds: accepted and ignored
 *   (the simulated store assigns versions; creation is at simulated time 0)
 * `status` is kept as the object's initial state (validated against the CRD's
 * status schema); without it the object starts new (status NULL).
 * Other top-level fields (Secret `data`, `stringData`, `type`, `immutable`)
 * go to obj.rest.
 *
 * Kept as written (spec and status free-form): the StageLedger and the Flux
 * sources the StageSet controller reads (`source.toolkit.fluxcd.io/v1`
 * GitRepository, OCIRepository, Bucket, ExternalArtifact).
 *
 * Ignored objects.  A document whose apiVersion belongs to an API group the
 * simulated controllers do not own (core `v1` kinds other than Namespace and
 * Secret — ServiceAccount, ConfigMap, ... —, `rbac.authorization.k8s.io/v1`,
 * `apps/v1`, Kyverno kinds other than ValidatingPolicy, Flux kinds other than
 * the four sources above, any CRD of another project) is accepted as long as it is a well-formed object (apiVersion,
 * kind and a non-empty metadata.name) and then ignored: adm_admit() returns
 * ADM_IGNORED and makes no object.  So are the kinds of the pinned CRDs of
 * the simulated groups that no simulated controller reads:
 * `magosproject.io/v1alpha1` VariableSet and `stages.metio.wtf/v1`
 * ImageVerificationPolicy and StageInventory.  An unknown kind or version
 * in the groups the simulator does model (`magosproject.io`,
 * `stages.metio.wtf`) stays an error: there it is most likely a typo that
 * would silently drop a Workspace or a StageSet.
 */

#include <stdbool.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/cluster/schema.h"

/* The API group of the stageset-controller's kinds (FleetRollout, StageSet, StageLedger). */
#define ADM_GROUP_STAGES "stages.metio.wtf"
/* The API group of the Magos kinds (Project, Rollout, Workspace). */
#define ADM_GROUP_MAGOS "magosproject.io"

/*
 * adm_in_group() - whether object @o is of API group @group: its apiVersion
 * is "<@group>/<any version>" and, unless @kind is NULL, its kind is @kind.
 * A NULL @o is in no group.  For the observers and lint rules that follow
 * one project's kinds (an object of the same kind in another group is
 * someone else's).  Errors: cannot fail.
 */
bool adm_in_group(const struct obj *o, const char *group, const char *kind);

/* adm_admit() result for an accepted document that makes no object (see "Ignored objects"). */
#define ADM_IGNORED 1

/* Which parts of a kind's schema have list-maps (x-kubernetes-list-map-keys). */
#define ADM_LIST_MAPS_SPEC 1u
#define ADM_LIST_MAPS_STATUS 2u

/* One supported kind. */
struct adm_kind {
	const char *api_version;      /* "stages.metio.wtf/v1" */
	const char *kind;             /* "FleetRollout" */
	bool namespaced;              /* false: cluster-scoped (obj.ns is "") */
	const struct sch_node *schema;/* whole object (apiVersion, kind, metadata, spec, status, ...) */
	unsigned list_maps;           /* ADM_LIST_MAPS_*: the parts whose writes adm_write_refusal() checks */
};

/*
 * adm_find_kind() - the supported kind with exactly this apiVersion and kind,
 * or NULL.  Returns a borrowed pointer to static data.
 */
const struct adm_kind *adm_find_kind(const char *api_version, const char *kind);

/*
 * adm_find_kind_named() - the supported kind called @kind, whatever its
 * apiVersion (no two supported kinds share a name), or NULL.  For targets
 * that name only a kind, e.g. to know whether they live in a namespace.
 * Returns a borrowed pointer to static data.
 */
const struct adm_kind *adm_find_kind_named(const char *kind);

/*
 * adm_identity() - the (kind, namespace, name) an object document @doc
 * (borrowed) claims, whether or not it is admitted: the namespace is "" for
 * a cluster-scoped supported kind, else metadata.namespace or "default".
 * @kind, @ns, @name: receive new strings (caller frees) on success.
 * Returns: true; false (outputs untouched) when @doc is not a map or has no
 *          non-empty kind or metadata.name string.
 */
bool adm_identity(const struct val *doc, char **kind, char **ns, char **name);

/*
 * adm_write_refusal() - the API server's answer to a write of @part of an
 * existing object of @kind when the new value breaks a rule of the kind's CRD
 * that holds on every write and that a controller can break, or NULL when it
 * is accepted.  Today that rule is list-map key uniqueness
 * (x-kubernetes-list-map-keys: status.conditions by type, FleetRollout
 * status.waves by name, StageSet spec restart and event checks by name): a
 * FleetRollout whose spec repeats a wave name is admitted (spec.waves is a
 * plain list) but every status write listing its waves is refused, as the
 * real API server does.  Only the parts the kind has list-maps in are walked
 * (a StageSet status write costs nothing here).
 * @kind: kind name ("FleetRollout"); unsupported kinds are never refused.
 * @name: the object's name (for the message).
 * @part: "spec" or "status".
 * @v:    the new value of @part (borrowed; NULL allowed).
 * Returns: NULL, or new text (caller frees) in the API server's wording:
 *   FleetRollout.stages.metio.wtf "moodle" is invalid: status.waves[1]:
 *   Duplicate value: map[string]interface {}{"name":"canary"}
 * Cost: nothing for kinds without list-maps, else one walk of @v's modelled part.
 */
char *adm_write_refusal(const char *kind, const char *name, const char *part,
			const struct val *v);

/*
 * adm_supported_kinds() - "Project (magosproject.io/v1alpha1), ..." for notes.
 * Returns new (caller frees).
 */
char *adm_supported_kinds(void);

/*
 * adm_admit() - admit one object document.
 * @file: file name for diagnostics and obj.src.file (borrowed: must outlive
 *        the returned object).
 * @doc:  the object as a map with apiVersion, kind, metadata, ...; borrowed
 *        and not modified (the object gets copies, defaults applied).
 * @out:  receives a new object on success (free with obj_free), NULL on error
 *        and for an ignored document.
 * @d:    diagnostics sink.
 * Returns: 0; ADM_IGNORED (> 0) for a well-formed object of a kind the
 *          simulator does not model (nothing reported: the caller lists them,
 *          see adm_describe_ignored()); or -1 with every problem found
 *          reported in @d.  A `kind: List` is not an object: unpack it first
 *          (sim/load/manifest.h does).
 */
int adm_admit(const char *file, const struct val *doc, struct obj **out, struct diag *d);

/*
 * adm_describe_ignored() - how a note names an ignored document @doc:
 * `Kind "ns/name" (apiVersion)`, or `Kind "name" (apiVersion)` when it gives no
 * namespace.  Returns new (caller frees).
 */
char *adm_describe_ignored(const struct val *doc);

/*
 * adm_is_dns1123_subdomain() / adm_is_dns1123_label() / adm_is_qualified_name()
 * / adm_is_label_value() - Kubernetes name syntax checks (apimachinery
 * validation): subdomain ≤ 253 chars of [a-z0-9.-] in dot-separated labels;
 * label ≤ 63 of [a-z0-9-] starting and ending alphanumeric; qualified name
 * = optional "prefix/" (subdomain) + name ≤ 63 of [A-Za-z0-9._-] starting
 * and ending alphanumeric; label value: empty or such a name part.
 * Return: true when @s is valid.
 */
bool adm_is_dns1123_subdomain(const char *s);
bool adm_is_dns1123_label(const char *s);
bool adm_is_qualified_name(const char *s);
bool adm_is_label_value(const char *s);

#endif
