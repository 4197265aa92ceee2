#ifndef MAGOS_SIM_STAGESET_WORLD_SOURCES_H
#define MAGOS_SIM_STAGESET_WORLD_SOURCES_H

/*
 * The StageSet world's members and sources (see sim/models/stageset_world.h
 * for the model as a whole): the StageSets it has been told about, what the
 * publish events offer them, and the sources no store holds.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/models/stageset_world.h"

/* ---- members and publish ------------------------------------------------ */

/*
 * sws_member_seen() - tells the world about StageSet @m at @t_ms: the first
 * call is its first sighting; later calls record a change of its labels or
 * its Namespace's labels (as of @t_ms) and of the sources it references.
 * Every other sw_ call taking a member calls it too, so the wire needs it
 * only where nothing else is asked (a StageSet's creation and label edits).
 * Cost: O(labels + stages) when nothing changed.
 */
void sws_member_seen(struct sw_world *w, const struct sw_member *m, int64_t t_ms);

/*
 * sws_publish_reaches() - whether publish event @event (index into
 * sw_setup.fevents, a PUBLISH) reaches the StageSet @ns/@name, and from
 * when: *@from_ms = max(event time, first sighting).
 * Returns: false for a StageSet never seen, an event that is not a publish,
 *          or selectors that do not match its labels at that time.
 */
bool sws_publish_reaches(const struct sw_world *w, size_t event, const char *ns, const char *name,
			int64_t *from_ms);

/*
 * sws_offered_version() - the version of the last publish that reached
 * @ns/@name at or before @t_ms (the latest reach time wins; ties the later
 * event), borrowed from the scenario; NULL when none did.  What an inline
 * spec.version.value is edited to.
 */
const char *sws_offered_version(const struct sw_world *w, const char *ns, const char *name,
			       int64_t t_ms);

/* ---- sources ------------------------------------------------------------- */

/*
 * sws_source_get() - the modelled source @kind @ns/@name at @t_ms, for a get
 * the store could not answer.  @kind: "ExternalArtifact", "GitRepository",
 * "OCIRepository" or "Bucket" (@api_version is not compared).
 * Returns: the object (owned by the world, valid until sw_free(): the pass
 *          borrows its artifact strings), or NULL with @err: NOT_FOUND for
 *          another kind or in a `missing` window, FORBIDDEN in a `forbidden`
 *          window (the API server's texts).  In a `notReady` window the
 *          object has Ready False (reason per kind, the last artifact kept).
 */
const struct obj *sws_source_get(struct sw_world *w, const char *api_version, const char *kind,
				const char *ns, const char *name, int64_t t_ms,
				struct ssc_err *err);

/*
 * sws_source_list() - the modelled ExternalArtifacts of @ns at @t_ms: one per
 * producer ref (any other kind) of a StageSet seen in @ns, named after the
 * producer, spec.sourceRef pointing back at it.  The wire adds them to the
 * store's list, leaving out one whose name or back-pointer a stored
 * ExternalArtifact already has.
 * @out: receives a borrowed array (valid until the next sws_source_list()).
 * Returns: the count; 0 with @err FORBIDDEN when one of them is in a
 *          `forbidden` window.
 */
size_t sws_source_list(struct sw_world *w, const char *ns, int64_t t_ms,
		      const struct obj *const **out, struct ssc_err *err);

/*
 * sws_source_next_change() - the first time after @t_ms at which the
 * modelled source @kind @ns/@name changes what sws_source_get() shows (a new
 * revision, a `missing`, `notReady` or `forbidden` window opening or
 * closing), as the StageSets known so far reach it; SW_NEVER when none.
 * Until then a pass reads the source as it did at @t_ms.
 */
int64_t sws_source_next_change(struct sw_world *w, const char *kind, const char *ns, const char *name,
			      int64_t t_ms);

/*
 * sws_source_next_event() - the first time after @t_ms at which the
 * modelled source @kind @ns/@name itself changes, which a watch of it
 * delivers: a new revision, a `missing` or `notReady` window opening or
 * closing; SW_NEVER when none.  A `forbidden` window is not one: granting
 * or revoking the tenant's RBAC writes no source object, so upstream sees
 * its end only at the RBACDenied requeue (1m).  What the wire's watch of
 * sources (W5, W6) turns into wake-ups.
 */
int64_t sws_source_next_event(struct sw_world *w, const char *kind, const char *ns, const char *name,
			     int64_t t_ms);

/*
 * sws_source_snapshot() - what a snapshot at @t_ms carries of the modelled
 * sources (SCN_SOURCE_ANNOTATION, scenario.h): those a publish moved off
 * their initial revision by @t_ms, or that a resumed run started from a
 * snapshot's, in the order the world met them; each as sws_source_get()
 * shows it at @t_ms when Ready (its windows are the Scenario's, which the
 * resumed run has too), with the version its revision carries.
 * @objs, @versions: receive new arrays of the count returned (the caller
 *          frees the arrays; objects and strings are borrowed from the
 *          world or the scenario, valid until sw_free()).
 * Returns: the count.  Cannot fail.
 */
size_t sws_source_snapshot(struct sw_world *w, int64_t t_ms, const struct obj ***objs,
			   const char ***versions);

/*
 * sws_revision_version() - the version the revision @revision of the source
 * behind @ra carries: the published version for a revision this model made
 * (an update's: that of the revision before it), else the source's
 * initialVersion.  Borrowed (world or scenario).
 */
const char *sws_revision_version(struct sw_world *w, const struct ssc_resolved *ra);

/*
 * sws_revision_collected() - whether the producer of the source stage
 * @stage (index) of @m reads has garbage-collected @revision by @t_ms: its
 * spec.models.sources entry sets gcAt, @t_ms is at or after it, and
 * @revision is not the one the source offers at @t_ms (from gcAt on the
 * producer keeps only its current revision).  When true, @err holds the
 * fetch's error (class SSC_ERR).  Without a gcAt anywhere: false, no record
 * made.  Cost: O(entries + revisions).
 */
bool sws_revision_collected(struct sw_world *w, const struct sw_member *m, size_t stage,
			    const char *revision, int64_t t_ms, struct ssc_err *err);

/*
 * sws_artifact_file() - env artifact_file: file @path of @ra's artifact.
 * A file of the source's `files` (those of the last update at or before
 * @ra's revision, if any) is returned as written; any other path is
 * the version file: the carried version and a newline, "" in a
 * `versionEmpty` window, NOT_FOUND in a `versionMissing` window.
 * Returns: 0 with *@content new (caller frees), or -1 with @err (SSC_ERR in
 *          a `fetchErrors` window).  *@duration_ms: the fetch.
 */
int sws_artifact_file(struct sw_world *w, const struct ssc_resolved *ra, const char *path,
		     int64_t t_ms, char **content, int64_t *duration_ms, struct ssc_err *err);

/*
 * sws_ladder_files() - env ladder_files: the files of @ra's artifact under
 * @path ("" or "." all; else the path itself and what lies below it),
 * sorted by path, from the source's `files` (those of the last update at
 * or before @ra's revision, if any).
 * Returns: the count with *@paths, *@contents new arrays of new strings
 *          (caller frees each and the arrays), or 0 with @err (SSC_ERR in a
 *          `fetchErrors` window).
 */
size_t sws_ladder_files(struct sw_world *w, const struct ssc_resolved *ra, const char *path,
		       int64_t t_ms,
		       char ***paths, char ***contents, int64_t *duration_ms, struct ssc_err *err);

/*
 * sws_object_version() - env object_version: build stage @stage of @m at @ra
 * and read the version object's label app.kubernetes.io/version (or
 * @field_path).  The object is always rendered; its version is the carried
 * one, "" in a `versionEmpty` window; in a `versionMissing` window the label
 * (field) is absent: @err says so in upstream's words.
 * Returns: 0 with *@version new, or -1 with @err and *@transient (a
 *          `fetchErrors` window: "fetch version artifact for stage
 *          \"<s>\": ...").
 */
int sws_object_version(struct sw_world *w, const struct sw_member *m, size_t stage,
		      const struct ssc_resolved *ra, const char *kind, const char *name,
		      const char *field_path, int64_t t_ms, char **version, bool *transient,
		      int64_t *duration_ms, struct ssc_err *err);


/*
 * sws_member_record() - sws_member_seen() returning the record of @m (the
 * stage functions work on it).  Returns: borrowed from @w.
 */
struct swr_member *sws_member_record(struct sw_world *w, const struct sw_member *m, int64_t t_ms);

/* The last name of a JSONPath such as "{.metadata.labels.version}" or ".spec['v']", for k8s's "<name> is not found". */
void sws_last_field(const char *path, char *out, size_t len);

/*
 * sws_stage_objects() - the objects the revision @ra resolved renders for
 * stage @stage besides its workload (spec.models.sources[].objects, or the
 * last update at or before that revision that sets them), or NULL when none
 * is named: the stage renders its workload alone.  Borrowed from the
 * scenario.  Cost: O(1) when no source names objects; else a look-up of
 * the source and its revisions.
 */
const struct scn_sw_stage_objects *sws_stage_objects(struct sw_world *w, const struct ssc_resolved *ra,
						 const char *stage);

/*
 * sws_revision_objects() - what sws_stage_objects() gives for stage @stage
 * (index into @m's spec) at revision @revision of the source the stage
 * names: what a restore of that revision applies.  NULL as there, and for
 * a stage out of range.
 */
const struct scn_sw_stage_objects *sws_revision_objects(struct sw_world *w, const struct sw_member *m,
						    size_t stage, const char *revision);

#endif
