#ifndef MAGOS_SIM_KUBEGET_H
#define MAGOS_SIM_KUBEGET_H

/*
 * The simulated cluster as its users' tools show it at one simulated time:
 * the objects as `kubectl get -A -o yaml` prints them (a v1 List, so that a
 * run can be resumed from it), and the tables `kubectl get` prints with the
 * pinned CRDs' printer columns, with the `stagesetctl fleet` view of each
 * FleetRollout.
 *
 * Objects as kubectl prints them: apiVersion, kind, metadata (annotations,
 * creationTimestamp, deletionTimestamp, finalizers, generation, labels,
 * name, namespace, ownerReferences, resourceVersion, uid), spec, status and
 * the kind's other top-level fields, every map's keys sorted as
 * sigs.k8s.io/yaml sorts them; empty label, annotation and finalizer lists
 * are left out (omitempty).  managedFields are left out, as kubectl hides
 * them unless --show-managed-fields.  Times are the store's simulated ms
 * (whole seconds) on the wall clock from @anchor_unix_ms.
 *
 * Order: Namespaces, Secrets, ValidatingPolicies, Projects, Rollouts,
 * Workspaces, PersistentVolumeClaims, Jobs, the Flux sources, StageLedgers,
 * StageSets, FleetRollouts, then any other kind by name; within a kind by
 * namespace and name, as the API server lists them.  Objects being deleted
 * are included, with their deletionTimestamp.
 */

#include <stdint.h>

#include "engine/value.h"
#include "sim/cluster/apiserver.h"
#include "sim/load/scenario.h"
#include "sim/world/des.h"

/*
 * kg_object() - @o as kubectl prints it (see above).
 * Returns: a new map; caller frees with val_free().  Cannot fail.
 */
struct val *kg_object(const struct obj *o, int64_t anchor_unix_ms);

/*
 * What only the controllers' memory holds, in annotations a snapshot of the
 * simulator carries (and the loader reads and takes off, scn_load()): on
 * every object of a controller's For() kind, SCN_QUEUE_PREFIX + the
 * controller's name ("queue.magos-sim.io/fleetrollout-controller") is the
 * object's key in that controller's work queue at the snapshot:
 *   "none"                                   no entry;
 *   "at=TIME priority=P order=N[ failures=F]"  an entry that becomes ready
 *       at TIME (RFC 3339, ms; the snapshot's time or before: ready), served
 *       at priority P, N its rank among the controller's entries (the order
 *       they were added in, which serves equal entries first in, first out),
 *       F (when not 0) the rate limiter's count of errors since the key's
 *       last success (its next back-off is 5 ms x 2^F).
 *   "started=TIME priority=P order=N[ failures=F][ next=TIME2 nextPriority=P2]"
 *       a pass in flight (its worker held, its writes not yet made) that
 *       started at TIME, the key dequeued at priority P, ranked first; with
 *       the entry the key had besides (ready at TIME2, priority P2).  The
 *       resumed run makes that pass again as of TIME, and it ends when it
 *       would have ended.
 * And SCN_STATE_PREFIX + the controller's name, on an object the controller
 * keeps more in memory about than its queue entry (ctl_state()): the
 * controller's own format; the RefWatcher's registry entry and pending polls
 * are SCN_REFWATCHER_STATE_FORMAT (sim/load/scenario.h).
 */


/*
 * kg_list() - every object of @api, in the order above, as the items of
 * {apiVersion: v1, kind: List, metadata: {resourceVersion: ""}, items}.
 * Returns: a new map; caller frees with val_free().  Cannot fail.
 */
struct val *kg_list(struct api *api, int64_t anchor_unix_ms);

/*
 * kg_snapshot() - kg_list() of @w's store at des_now(@w), with the work-queue
 * and state annotations above on every object of a controller's For() kind (a
 * controller without a For() kind, or an entry whose object is gone, is
 * left out); on each Workspace the model events armed for it
 * (SCN_ARMED_ANNOTATION, when any; @models, the Job runner's, may be NULL)
 * and on each Job the runner runs its status.startTime to the millisecond
 * (SCN_JOB_START_ANNOTATION, mdl_job_start_time());
 * with StageSets (@ss, their controller), on each StageSet the
 * jittered requeues drawn for it (SCN_DRAWS_ANNOTATION, when any), then
 * the sources its world models that a publish moved off their initial
 * revision (sws_source_snapshot()), as kubectl would show them, each with
 * SCN_SOURCE_ANNOTATION; and on every
 * item SCN_ORIGIN_ANNOTATION, @origin_unix_ms: the wall-clock time of the
 * simulated 0 the Scenario's times count from (a resumed run's is the
 * original run's), which the resumed run puts its Scenario back on
 * (scn_resume_clock()), and SCN_TAKEN_ANNOTATION, @anchor_unix_ms +
 * des_now(@w): when the snapshot was taken, where a run of it starts;
 * SCN_SEED_ANNOTATION, @seed, and SCN_SCENARIO_ANNOTATION, @scenario (the
 * run's Scenario document's name; NULL: it had none, and the annotation is
 * left out), the run a resumed run is compared with (scn_warn_other_run()).
 * @ss: NULL without StageSets.
 * Returns: a new map; caller frees with val_free().  Cannot fail.
 */
struct mdl;
struct ssrc;
struct val *kg_snapshot(struct des *w, int64_t anchor_unix_ms, int64_t origin_unix_ms,
			const char *scenario, uint64_t seed, const struct mdl *models,
			const struct ssrc *ss);

/*
 * kg_annotate() - sets annotation @key to @value on item @pos of List @list
 * (kg_snapshot()'s), replacing the item by a copy with its keys sorted
 * again, as kubectl prints them (a pointer to the old item is stale).
 */
void kg_annotate(struct val *list, size_t pos, const char *key, const char *value);

/*
 * kg_append_table() - appends to @text (owned; returned, maybe moved) the
 * line @title and a table of the column @headers (NULL-terminated)
 * over @nrows @rows of as many owned cells, aligned as kg_tables() aligns
 * its tables; takes @rows and their cells.  Cannot fail.
 */
char *kg_append_table(char *text, const char *title, const char *const *headers, char ***rows, size_t nrows);

/*
 * kg_tables() - the text of `kubectl get KIND -A` for the kinds of the
 * simulated controllers that have objects (Projects, Rollouts, Workspaces,
 * Jobs, PersistentVolumeClaims, StageSets, FleetRollouts), each after a
 * "$ kubectl get ..." line, then "$ stagesetctl fleet NAME" and its view for
 * each FleetRollout.  The columns are the CRDs' additionalPrinterColumns
 * (magosproject/magos@1afc8e6, metio/stageset-controller@f2c7604) and the
 * built-in ones of Jobs (NAME STATUS COMPLETIONS DURATION AGE) and PVCs
 * (NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS AGE; the world
 * binds a claim as it is created, sim/models/models.h, so STATUS is Bound,
 * while VOLUME and CAPACITY, which kubectl prints once spec.volumeName
 * names a volume, stay empty: no PersistentVolume is simulated).  Ages and durations as
 * kubectl's duration.HumanDuration prints them, measured at @now_ms; a
 * column whose value is absent is empty, as kubectl prints a CRD column the
 * JSONPath finds nothing for; cells aligned by tabwriter's rules as kubectl
 * sets them (minimum width 10, padding 3).
 * Returns: new text (caller frees); "No resources found\n" when none of
 *          those kinds has an object.  Cannot fail.
 */
char *kg_tables(struct api *api, int64_t now_ms, int64_t anchor_unix_ms);

/*
 * kg_human_duration() - kubectl's duration.HumanDuration of @ms into @buf
 * ("45s", "4m5s", "12m", "3h20m", "2d4h", "<invalid>" below -1 s).
 * Returns: @buf.
 */
char *kg_human_duration(int64_t ms, char *buf, size_t len);

#endif
